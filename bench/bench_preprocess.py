"""Preprocessing against the compiler (not a test): `python bench/bench_preprocess.py [CORPUS]`.

For every .cu/.cuh file under CORPUS (default /tmp/realcode, see the real-code recipe), the lines
cudalint's preprocessing stage keeps are compared with the lines nvcc's own preprocessor keeps
(`nvcc -E -arch=sm_90 -Xcompiler -fdirectives-only`, which processes directives without expanding
macros, so every kept line keeps its number). Headers nvcc cannot find are stubbed with empty files
(cudalint does not read system headers either). Printed: files compared, code lines, lines on which
the two agree, the disagreements, and the time of each.

The alternative design, evaluating the conditions on tree-sitter's `preproc_if` nodes, is measured
by how many of the corpus's conditional directives tree-sitter holds as such nodes (a directive that
splits a statement ends up inside an ERROR node instead), and by the files whose parse has ERROR
nodes before and after the stage blanks what the compiler skips.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudalint.preprocess import Preprocessor, file_key  # noqa: E402
from cudalint.source.cufile import _parser  # noqa: E402
from cudalint.source.macros import Macro  # noqa: E402

# what nvcc 13.0 predefines where cudalint's defaults name CUDA 12.8
NVCC = [Macro("__CUDACC_VER_MAJOR__", "13"), Macro("__CUDACC_VER_MINOR__", "0"), Macro("CUDART_VERSION", "13000"),
        Macro("CUDA_VERSION", "13000")]
_MISSING = re.compile(r"fatal error: ([^:]+): No such file")
FAILURES: list[str] = []
_CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")


def nvcc_lines(path: Path, stubs: Path, lines: list[int]) -> set[int] | None:
    """Which of `lines` of `path` nvcc's preprocessor keeps, or None if it cannot preprocess the file.
    Each line is tagged with a comment (`-C` keeps comments), so no line mapping is needed."""
    text = path.read_bytes().decode("utf-8", "replace").split("\n")
    for i in lines:
        text[i - 1] = text[i - 1].rstrip("\r") + f" /*@L{i}@*/"
    scratch = Path(tempfile.mkdtemp(prefix="cudalint-tagged-"))     # alone: a quoted #include must not find it
    tagged = scratch / path.name
    tagged.write_text("\n".join(text))
    try:
        return _run_nvcc(path, tagged, stubs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run_nvcc(path: Path, tagged: Path, stubs: Path) -> set[int] | None:
    for _ in range(30):
        p = subprocess.run(["nvcc", "-E", "-x", "cu", "-arch=sm_90", "-Xcompiler", "-fdirectives-only", "-Xcompiler", "-C",
                            f"-I{path.parent}", f"-I{stubs}", str(tagged)],
                           capture_output=True, text=True, errors="replace", timeout=120)
        if p.returncode == 0:
            return {int(x) for x in re.findall(r"/\*@L(\d+)@\*/", p.stdout)}
        m = _MISSING.search(p.stderr)
        if not m:
            FAILURES.append(f"  {path.name}: {next((x for x in p.stderr.splitlines() if 'error' in x), '?')[:110]}")
            return None
        stub = stubs / m.group(1)
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text("")
    return None


def code_lines(text: str) -> list[int]:
    """Lines holding code (not blank, not a directive or its continuation, not only a comment)."""
    out = []
    in_comment = in_directive = False
    for i, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if in_directive:
            in_directive = s.endswith("\\")
            continue
        if in_comment:
            if "*/" in s:
                in_comment = False
                s = s.split("*/", 1)[1].strip()
            else:
                continue
        if s.startswith("#"):
            in_directive = s.endswith("\\")
            continue
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        if not s or s.startswith("//") or (s.startswith("/*") and s.endswith("*/")):
            continue
        out.append(i)
    return out


def tree_sitter_directives(text: str) -> tuple[int, int]:
    """(conditional directives in the file, those tree-sitter holds as a preproc node of their own)."""
    tree = _parser().parse(text.encode("utf-8", "surrogateescape"))
    starts = set()
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type.startswith("preproc_") or n.type in ("#if", "#ifdef", "#ifndef", "#elif", "#else", "#endif"):
            starts.add(n.start_point[0])
        if n.type != "ERROR":
            stack.extend(n.children)
    lines = [i for i, line in enumerate(text.split("\n")) if _CONDITIONAL.match(line)]
    return len(lines), sum(1 for i in lines if i in starts)


def main() -> None:
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/realcode")
    files = sorted(p for p in corpus.rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())
    if not files:
        sys.exit(f"no .cu/.cuh files under {corpus}: build the real corpus first")
    if shutil.which("nvcc") is None:
        sys.exit("nvcc is not on PATH")
    stubs = Path(tempfile.mkdtemp(prefix="cudalint-stubs-"))
    pre = Preprocessor(NVCC)
    compared = failed = lines = agree = 0
    t_ours = t_nvcc = 0.0
    mismatches: list[str] = []
    dirs_total = dirs_held = err_before = err_after = 0
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        t = time.perf_counter()
        view = pre.unit(str(path), text)[file_key(str(path))]
        t_ours += time.perf_counter() - t
        n, held = tree_sitter_directives(text)
        dirs_total += n
        dirs_held += held
        err_before += _parser().parse(text.encode("utf-8", "surrogateescape")).root_node.has_error
        err_after += _parser().parse(view.text.encode("utf-8", "surrogateescape")).root_node.has_error
        t = time.perf_counter()
        code = code_lines(text)
        kept = nvcc_lines(path, stubs, code)
        t_nvcc += time.perf_counter() - t
        if kept is None:
            failed += 1
            continue
        compared += 1
        for i in code:
            lines += 1
            ours = view.active(i)
            theirs = i in kept
            if ours == theirs:
                agree += 1
            elif len(mismatches) < 15:
                mismatches.append(f"  {path.relative_to(corpus)}:{i}: cudalint {'keeps' if ours else 'skips'}, "
                                  f"nvcc {'keeps' if theirs else 'skips'}: {text.split(chr(10))[i - 1].strip()[:60]}")
    shutil.rmtree(stubs, ignore_errors=True)
    print(f"files: {len(files)}; compared with nvcc: {compared}; nvcc could not preprocess: {failed}")
    print(f"code lines compared: {lines}; same verdict (kept/skipped) as nvcc: {agree} "
          f"({100.0 * agree / max(lines, 1):.2f}%); different: {lines - agree}")
    print(f"time: cudalint's stage {t_ours:.2f} s for all files; nvcc -E {t_nvcc:.1f} s")
    print(f"tree-sitter alternative: {dirs_held} of {dirs_total} conditional directives are preproc nodes in "
          f"tree-sitter's parse ({dirs_total - dirs_held} swallowed by ERROR nodes or misread)")
    print(f"files whose parse has ERROR nodes: {err_before} on the text as written, {err_after} after the stage")
    if FAILURES:
        print("nvcc failures (first 8):")
        print("\n".join(FAILURES[:8]))
    if mismatches:
        print("first differences:")
        print("\n".join(mismatches))


if __name__ == "__main__":
    main()
