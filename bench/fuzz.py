"""Mutation fuzzer for the command line (not a unit test): `python bench/fuzz.py [N] [--seed S]
[--jobs J] [--corpus DIR ...] [--keep DIR]`.

Each case is one mutated copy of a corpus file (samples/, plus /tmp/realcode when it is there, or
the --corpus folders), linted together with a known-good file, as a user runs cudalint:
`cudalint GOOD MUTANT --format F` in a process of its own (forked from a warm parent, so a case
costs milliseconds, not an interpreter start), under `ulimit -v 1 GiB` and a 10 s limit. A case
passes when:

- the exit code is 0, 1 or 2, and 2 comes with at least one line on stderr;
- stderr has no traceback and every line of it is one `cudalint: ...` message;
- the output is well-formed in its format (JSON and SARIF parse, JUnit XML parses, the text formats
  hold no control character but tab and newline);
- the good file's findings are all there (one bad file never aborts the others);
- it ended within 10 s and 1 GiB.

It prints the counts and every failing case (and keeps the failing inputs with --keep). The CI
test (tests/test_fuzz.py) runs the same cases with a small fixed budget.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")    # numpy's thread pools would count against ulimit -v

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TIME_LIMIT_S = 10
MEMORY_LIMIT = 1 << 30
GOOD = ROOT / "samples" / "vecadd_bad.cu"      # three CL202 findings that must survive every case
FORMATS = ["json", "concise", "sarif", "junit", "github", "full", "json-lines"]
EXPLAIN_FORMATS = ["text", "markdown", "html", "json"]
REALCODE = Path("/tmp/realcode")

# Hostile pieces, each a reproducer of a crash, hang or blow-up this harness once found.
SNIPPETS = [
    "a[" + "(" * 1000 + "threadIdx.x" + ")" * 1000 + "] = 1;",
    "{" * 1000 + "}" * 1000,
    "".join(f"if (threadIdx.x > {i}) " for i in range(1000)) + "a[0] = 1;",
    "a[threadIdx.x" + " + 1" * 1000 + "] = 1;",
    "a[threadIdx.x + " + "9" * 5000 + "] = 1;",
    "a[threadIdx.x << 100000] = 1;",
    "a[threadIdx.x + (int)1e999] = 1;",
    "a[threadIdx.x * 99999999999999999999] = 1;",
    "a[threadIdx.x * 4294967296 * 4294967296] = 1;",
    "for (int q = threadIdx.x; q < 1000; q += threadIdx.x) a[q] = 1;",
    "".join(f"for (int i{d} = 0; i{d} < 1000; i{d}++) " for d in range(9)) + "a[threadIdx.x + i0 + i8] = 1;",
    "\x1b[31mred\x1b[0m \x1b]0;title\x07 \u202e \x00 \x0c",
    "// cudalint: param N=" + "7" * 5000,
    "// cudalint: launch grid=(99999999999999999999,1,1) block=(0,0,0)",
    "// cudalint: ignore[",
    "__syncthreads(); if (threadIdx.x) __syncthreads();",
    "a[threadIdx.x % 0] = a[threadIdx.x / 0];",
    "a[-9223372036854775807 - 1 - threadIdx.x] = 1;",
]
PREAMBLES = [
    "#define A B + 1\n#define B A + 1\n",
    "#define BIG " + " + ".join(f"x{i}" for i in range(50000)) + "\n",
    "#define D(x) D2(x) + D2(x)\n#define D2(x) D3(x) * D3(x)\n#define D3(x) (x)\n",
    "#include \"{self}\"\n" * 30,
    "#if 99999999999999999999999 << 99999\n#endif\n",
]


# ---- generators for the classes of robustness findings ----------------------------------------
# Each makes a source whose size is small and whose work, unbounded, is not: every one stands for a
# class (an expansion, a lookup, a copy), with its size drawn at random around the budgets.
def _doubling_if(rng):
    n = rng.randint(8, 30)
    lines = ["#define A0 1"] + [f"#define A{i} (A{i - 1}{rng.choice('+*|')}A{i - 1})" for i in range(1, n + 1)]
    return "\n".join(lines) + f"\n#if A{n}\n#define TAKEN 1\n#elif A{n - 1}\n#endif\n"


def _macro_substitution(rng):
    uses = rng.choice([10, 1000, 10000])
    arg = "+".join("1" for _ in range(rng.choice([100, 5000, 20000])))
    body = " ".join(rng.choice(["x", "#x", "x##x", "(x)"]) for _ in range(uses))
    return (f"#define BIG {arg}\n#define M(x) {body}\n"
            "__global__ void k(float* a) {\n  a[threadIdx.x + M(BIG)] = 1.0f;\n}\n")


def _inline_fanout(rng):
    depth, width = rng.randint(3, 6), rng.randint(4, 12)
    out = ["__device__ void f0(float* a, int i) { a[i * 2] = a[i + 1] + 1.0f; }"]
    for d in range(1, depth + 1):
        calls = "".join(f"  f{d - 1}(a, i + {j});\n" for j in range(width))
        out.append(f"__device__ void f{d}(float* a, int i) {{\n  a[i * 3] = 0.0f;\n{calls}}}")
    out.append(f"__global__ void k(float* a) {{ f{depth}(a, threadIdx.x); }}\n"
               "void run(float* a) { k<<<4, 256>>>(a); }")
    return "\n".join(out) + "\n"


def _many_includes(rng):
    n = rng.choice([10, 500, 2000])
    return "".join(f'#include "missing_{i}.h"\n' for i in range(n)) + \
        "".join(f'#if __has_include("hx_{i}.h")\n#endif\n' for i in range(n))


def _local_constants(rng):
    name = rng.choice(["stride", "step", "count"])
    init = rng.choice(["__shfl_down_sync(0xffffffff, v, 16)", "ids[threadIdx.x]", "v * 2", "blockDim.x"])
    return (f"__device__ int {name};\n__device__ int helper(const int* ids, int v) {{\n"
            f"  const int {name} = {init};\n  return v + {name};\n}}\n"
            f"__global__ void fill(const int* ids, float* a, int n) {{\n"
            f"  if (threadIdx.x == 0) {{ {name} += 1; return; }}\n"
            f"  for (int i = threadIdx.x; i < n; i += {name}) a[i] = 0.0f;\n}}\n")


def _annotation(rng):
    dims = ",".join(str(rng.choice([0, -1, 1, 32, 99999999999999999999])) for _ in range(rng.randint(0, 4)))
    what = rng.choice(["grid", "block"])
    return f"// cudalint: launch {what}=({dims}) block=(256)\n"


SOURCE_CLASSES = [_doubling_if, _macro_substitution, _inline_fanout, _many_includes, _local_constants]


def class_source(data: bytes, rng: random.Random) -> bytes:
    """A corpus file with one generated hostile piece (or its line endings made CR-only)."""
    kind = rng.randrange(len(SOURCE_CLASSES) + 2)
    if kind == len(SOURCE_CLASSES):
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")          # CR-only line endings
    if kind == len(SOURCE_CLASSES) + 1:
        lines = data.split(b"\n")
        at = next((i for i, ln in enumerate(lines) if b"__global__" in ln), 0)
        lines.insert(at, _annotation(rng).encode().rstrip(b"\n"))
        return b"\n".join(lines)
    return SOURCE_CLASSES[kind](rng).encode() + b"\n" + data


_NAMES = ["\x1b[31mred\x1b[0m", "u\ufffe\uffff", "a\nb", "[click](https:\\\\e.example)", "\u202egnp", "sp ace",
          "::error file=x.cu,line=1::x", "a" * 200]
_GITIGNORE = ["!", "\\", "[z-a]", "[", "*a" * 12 + "*b", "**/**/**/x", "/", "\\ ", "#x", "!*.cu", "*.cu", "a/**/b/",
              "[[:alpha:]]*", "[!", "\\[", "***", "a\\"]
_CONFIGS = [
    "select = [\n", "selct = ['CL1']\n", 'include-dirs = [' + ",".join(f'"d{i}"' for i in range(20000)) + ']\n',
    "define = { X = \"\\u001b]0;PWN\\u0007\\n\" }\n", "extend = 'missing.toml'\n", "extend = '.cudalint.toml'\n",
    "[launch]\nk = { grid = [0], block = [0] }\n", "exclude = ['*']\n", "params = { N = 99999999999999999999 }\n",
    "\xff\xfe", "a = " + "[" * 5000 + "]" * 5000 + "\n",
]


def hostile_tree(d: str, rng: random.Random, name: str, src: Path) -> None:
    """Around the mutant in its folder: ignore files and configurations git and TOML accept or
    not, files that are not files, hostile names, and context files that launch a known kernel."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        try:
            if kind == 0:
                os.makedirs(os.path.join(d, ".git"), exist_ok=True)
                Path(d, ".gitignore").write_text("\n".join(rng.sample(_GITIGNORE, rng.randint(1, 5))) + "\n")
            elif kind == 1:
                cfg = rng.choice(_CONFIGS)
                target = rng.choice([".cudalint.toml", "pyproject.toml", "sub/pyproject.toml", "sub/.cudalint.toml"])
                if target.endswith("pyproject.toml") and rng.random() < 0.5:
                    cfg = "[tool.cudalint]\n" + cfg if not cfg.startswith("[") else cfg.replace("[", "[tool.cudalint.", 1)
                os.makedirs(os.path.join(d, os.path.dirname(target)), exist_ok=True)
                Path(d, target).write_bytes(cfg.encode("utf-8", "surrogateescape"))
                if rng.random() < 0.2:
                    os.chmod(os.path.join(d, target), 0)
            elif kind == 2:
                special = rng.choice(["/proc/kmsg", "/dev/zero", "/dev/null", "fifo", "dangling", "loop"])
                link = os.path.join(d, f"special_{rng.randrange(99)}.cu")
                if special == "fifo":
                    os.mkfifo(link)
                elif special == "dangling":
                    os.symlink(os.path.join(d, "nowhere.cu"), link)
                elif special == "loop":
                    os.symlink(link, link)
                else:
                    os.symlink(special, link)
            elif kind == 3:
                raw = rng.choice(_NAMES).encode("utf-8") if rng.random() < 0.7 else b"bad\xff\xfe"
                Path(os.fsdecode(os.path.join(os.fsencode(d), raw + b".cu"))).write_bytes(src.read_bytes()[:4000])
            elif kind == 4:       # a context file: launches the good file's kernel, under a doubling #if
                os.makedirs(os.path.join(d, "third_party"), exist_ok=True)
                Path(d, "third_party", "hostile.cu").write_text(
                    _doubling_if(rng) + "void launch(float* p) { vecadd<<<1, 256>>>(p, p, p, 256); }\n")
            elif kind == 5:
                Path(d, "helpers.cuh").write_text(_inline_fanout(rng))
            else:
                os.makedirs(os.path.join(d, "deep", *["x"] * rng.randint(1, 30)), exist_ok=True)
        except OSError:
            pass


def mutate(data: bytes, rng: random.Random, name: str) -> bytes:
    """One to three edits: byte flips, cuts, copies, splices of hostile snippets, number blow-ups."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        n = len(data)
        pos = rng.randrange(n + 1) if n else 0
        if kind == 0 and n:                                    # flip bytes
            b = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(n)] = rng.randrange(256)
            data = bytes(b)
        elif kind == 1 and n:                                  # cut a range
            data = data[:pos] + data[pos + rng.randint(1, 200):]
        elif kind == 2 and n:                                  # copy a range elsewhere (or many times)
            start = rng.randrange(n)
            piece = data[start:start + rng.randint(1, 400)]
            data = data[:pos] + piece * rng.choice([1, 2, 50]) + data[pos:]
        elif kind == 3:                                        # a hostile statement at a line start
            lines = data.split(b"\n")
            at = rng.randrange(len(lines) + 1)
            lines.insert(at, rng.choice(SNIPPETS).encode("utf-8"))
            data = b"\n".join(lines)
        elif kind == 4:                                        # a hostile preamble
            data = rng.choice(PREAMBLES).replace("{self}", name).encode() + data
        elif kind == 5:                                        # a number becomes huge, negative or float
            digits = [i for i in range(n) if 48 <= data[i] <= 57]
            if digits:
                i = rng.choice(digits)
                data = data[:i] + rng.choice([b"99999999999999999999", b"-1", b"0", b"1e999", b"2147483648",
                                              b"0x7fffffffffffffff", b"(1<<62)"]) + data[i + 1:]
        elif kind == 6:                                        # truncate
            data = data[:pos]
        elif kind == 7:                                        # bytes that are not UTF-8
            data = data[:pos] + rng.choice([b"\xff\xfe", b"\xc3", b"\xe9t\xe9", b"\xed\xa0\x80"]) + data[pos:]
        else:                                                  # deepen: wrap a line's expression
            depth = rng.choice([10, 200, 2000])
            data = data[:pos] + b"(" * depth + b"threadIdx.x" + b")" * depth + data[pos:]
    return data


@dataclass
class Outcome:
    case: str
    fmt: str
    code: int | None
    seconds: float
    stdout: bytes
    stderr: bytes
    problems: list[str] = field(default_factory=list)
    command: str = "check"


def _run_child(args: list[str], out_path: str, err_path: str) -> None:
    """In the forked child: limits, then the command line, as `cudalint ARGS` would run it."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(out, 1)
    os.dup2(err, 2)
    code = 70
    try:
        from cudalint.cli import main
        sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), encoding="utf-8", line_buffering=False)
        sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), encoding="utf-8", line_buffering=True)
        code = main(args)
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 70)


def run_case(args: list[str], workdir: str) -> tuple[int | None, float, bytes, bytes]:
    """Exit code (None: killed at the time limit, or by a signal), seconds, stdout, stderr."""
    out_path, err_path = os.path.join(workdir, "out"), os.path.join(workdir, "err")
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _run_child(args, out_path, err_path)
    code = None
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            if code < 0:                    # killed by a signal (a crash, not a timeout)
                code = None
            break
        if time.monotonic() - start > TIME_LIMIT_S:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        time.sleep(0.005)
    seconds = time.monotonic() - start
    return code, seconds, Path(out_path).read_bytes(), Path(err_path).read_bytes()


def good_findings() -> set[tuple[int, str]]:
    from cudalint.lint import Config, lint_paths
    return {(d.line, d.code) for d in lint_paths([str(GOOD)], Config()).diagnostics}


def check(o: Outcome, good_path: str, expected: set[tuple[int, str]]) -> list[str]:
    problems = []
    err = o.stderr.decode("utf-8", errors="replace")
    if o.code is None:
        problems.append("timeout" if o.seconds >= TIME_LIMIT_S else "killed by a signal")
        return problems
    if o.code not in (0, 1, 2):
        problems.append(f"exit code {o.code}")
    if "Traceback" in err:
        problems.append("traceback")
    if "out of memory" in err or "MemoryError" in err:
        problems.append("over 1 GiB")
    lines = err.splitlines()
    if o.code == 2 and not lines:
        problems.append("exit 2 without a message")
    if any(not x.startswith("cudalint") for x in lines):
        problems.append("stderr line that is not a cudalint message")
    text = o.stdout.decode("utf-8", errors="strict") if _utf8(o.stdout) else None
    if text is None:
        problems.append("output is not UTF-8")
        return problems
    if o.command != "check":
        return problems + _check_other(o, text)
    try:
        if o.fmt in ("json", "sarif"):
            doc = json.loads(text)
            if o.fmt == "json":
                got = {(d["line"], d["code"]) for d in doc["diagnostics"] if d["path"] == good_path}
                if not expected <= got:
                    problems.append("the good file's findings are missing")
                if not any(f["path"] == good_path and f["status"] == "ok" for f in doc["files"]):
                    problems.append("the good file is not listed as ok")
        elif o.fmt == "json-lines":
            for line in text.splitlines():
                json.loads(line)
        elif o.fmt == "junit":
            ET.fromstring(text)
    except (ValueError, ET.ParseError, KeyError, TypeError) as exc:
        problems.append(f"malformed {o.fmt}: {type(exc).__name__}")
    if o.fmt not in ("json", "sarif", "json-lines", "junit"):
        if any(ord(c) < 32 and c not in "\n\t" or 0x7f <= ord(c) <= 0x9f for c in text):
            problems.append("control character in text output")
        if o.fmt in ("concise", "github") and not all(
                any(f"{good_path}:{ln}:" in x or f"file={good_path},line={ln}," in x for x in text.splitlines())
                for ln, _ in expected):
            problems.append("the good file's findings are missing")
    return problems


def _check_other(o: Outcome, text: str) -> list[str]:
    """explain and config --show: a well-formed page, no control character, no link out of it."""
    import re
    problems = []
    if o.fmt == "json" and o.command == "explain":
        try:
            json.loads(text) if text else None
        except ValueError:
            problems.append("malformed explain json")
    elif any(ord(c) < 32 and c not in "\n\t" or 0x7f <= ord(c) <= 0x9f for c in text):
        problems.append(f"control character in {o.command} output")
    if o.fmt == "html" and re.search(r'<a href="(?!#)', text):
        problems.append("a link out of the explain page")
    return problems


def _utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def corpus(dirs: list[Path]) -> list[Path]:
    return sorted(p for d in dirs for p in d.rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())


def fuzz(n: int, seed: int = 0, jobs: int = 2, dirs: list[Path] | None = None, keep: Path | None = None,
         report=print, classes: bool = True) -> tuple[Counter, list[Outcome], list[float]]:
    """Run `n` cases; return (counts, failing outcomes, seconds of each case). With `classes`, half
    the cases are generated for a class of robustness findings (class_source), a quarter lint a
    hostile tree around the mutant (hostile_tree), and some run explain or config --show."""
    dirs = dirs or [ROOT / "samples"] + ([REALCODE] if REALCODE.is_dir() else [])
    files = corpus(dirs)
    rng = random.Random(seed)
    import importlib

    import cudalint.baseline  # noqa: F401  warm: every child inherits the imports (and a fixed copy of the code)
    import cudalint.cli  # noqa: F401
    import cudalint.config  # noqa: F401
    from cudalint.lint import Config, lint_paths
    from cudalint.report import FORMATS as _ALL
    for module in set(_ALL.values()):
        importlib.import_module(f"cudalint.report.{module}")
    lint_paths([str(GOOD)], Config())
    expected = good_findings()
    counts: Counter = Counter()
    failures: list[Outcome] = []
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cudalint-fuzz-") as tmp:
        good = os.path.join(tmp, "good.cu")
        Path(good).write_bytes(GOOD.read_bytes())
        plans = make_plans(n, rng, files, classes)
        queue = list(plans)
        running: dict[int, tuple] = {}
        # Cases run `jobs` at a time, each in a folder of its own (a mutant may include itself by name).
        while queue or running:
            while queue and len(running) < jobs:
                i, src, name, data, fmt, tree, command = queue.pop(0)
                d = os.path.join(tmp, f"d{i}")
                os.mkdir(d)
                Path(d, name).write_bytes(data)
                if tree:
                    hostile_tree(d, random.Random(seed * 1_000_003 + i), name, src)
                running[_spawn(i, name, d, good, fmt, tree, command)] = (i, src, name, data, fmt, d, command)
            pid, status = os.wait()
            i, src, name, data, fmt, d, command = running.pop(pid)
            o = Outcome(f"{src.relative_to(src.anchor)} #{i}" + (f" ({command})" if command != "check" else ""),
                        fmt, None, 0.0, b"", b"", command=command)
            try:
                result = json.loads(Path(d, "result.json").read_text())
                o.code, o.seconds = result["code"], result["seconds"]
                o.stdout, o.stderr = Path(d, "out").read_bytes(), Path(d, "err").read_bytes()
            except (OSError, ValueError):
                o.stderr = b"harness: the case left no result"
            o.problems = check(o, good, expected)
            times.append(o.seconds)
            counts["cases"] += 1
            counts[f"exit {o.code}"] += 1
            for p in o.problems:
                counts[p] += 1
            for line in o.stderr.decode("utf-8", "replace").splitlines():   # what the one-line messages said
                kind = " ".join(line.removeprefix("cudalint: ").split()[:2])
                counts[f"message: {kind}"] += 1
            internal = b"internal error" in o.stderr       # CL902: isolated and one line, but a bug to fix
            if o.problems or internal:
                if o.problems:
                    failures.append(o)
                else:
                    report(f"  CL902 in {o.case} [{o.fmt}]: "
                           f"{next((ln for ln in o.stdout.decode('utf-8', 'replace').splitlines() if 'CL902' in ln), '')[:300]}")
                if keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / f"{i:05d}_{src.name}").write_bytes(data)
        for i, *_ in plans:
            _unlock(os.path.join(tmp, f"d{i}"))
    return counts, failures, times


def make_plans(n: int, rng: random.Random, files: list[Path], classes: bool = True) -> list[tuple]:
    """The cases: (index, source, name, data, format, hostile tree, command)."""
    plans = []
    for i in range(n):
        src = rng.choice(files)
        name = f"case{i:05d}{src.suffix}"
        kind = rng.random()
        data = src.read_bytes()
        data = mutate(data, rng, name) if kind < 0.5 or not classes else class_source(data, rng)
        tree = classes and kind >= 0.75
        command = "check"
        if classes and rng.random() < 0.12:
            command = rng.choice(["explain", "explain", "config"])
        fmt = rng.choice(EXPLAIN_FORMATS) if command == "explain" else FORMATS[i % len(FORMATS)]
        plans.append((i, src, name, data, fmt, tree, command))
    return plans


def _unlock(d: str) -> None:
    """Modes a case took away, given back, so that its folder can be removed."""
    for root, dirs, files in os.walk(d):
        for f in files + dirs:
            p = os.path.join(root, f)
            if not os.path.islink(p):
                try:
                    os.chmod(p, 0o755)
                except OSError:
                    pass


def _spawn(i, name, d, good, fmt, tree=False, command="check") -> int:
    """A supervisor process per case: it forks the child, enforces the time limit, writes result.json."""
    pid = os.fork()
    if pid == 0:
        target = d if tree else os.path.join(d, name)
        if command == "explain":
            args = ["explain", os.path.join(d, name), "--format", fmt]
        elif command == "config":
            args = ["config", "--show", target]
        else:
            args = [good, target, "--format", fmt, "-j", "1"]
        code, seconds, _, _ = run_case(args, d)
        Path(d, "result.json").write_text(json.dumps({"code": code, "seconds": seconds}))
        os._exit(0)
    return pid


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--corpus", action="append", type=Path)
    ap.add_argument("--keep", type=Path, help="copy the inputs of failing cases here")
    args = ap.parse_args()
    t0 = time.monotonic()
    counts, failures, times = fuzz(args.n, args.seed, args.jobs, args.corpus, args.keep)
    dirs = args.corpus or [ROOT / "samples"] + ([REALCODE] if REALCODE.is_dir() else [])
    print(f"{counts['cases']} cases from {len(corpus(dirs))} files ({', '.join(map(str, dirs))}), seed {args.seed}, "
          f"{time.monotonic() - t0:.0f} s")
    print("exit codes: " + ", ".join(f"{k[5:]}: {v}" for k, v in sorted(counts.items()) if k.startswith("exit ")))
    times.sort()
    if times:
        print(f"seconds per case: median {times[len(times) // 2]:.2f}, max {times[-1]:.2f} (limit {TIME_LIMIT_S})")
    print("stderr messages: " + ", ".join(f"`{k[9:]} ...` {v}" for k, v in sorted(counts.items())
                                         if k.startswith("message: ")))
    kinds = [k for k in counts if k != "cases" and not k.startswith(("exit ", "message: "))]
    print(f"failing cases: {len(failures)}" + ("".join(f"\n  {k}: {counts[k]}" for k in sorted(kinds))))
    for o in failures[:50]:
        first = o.stderr.decode("utf-8", "replace").strip().splitlines()
        print(f"  {o.case} [{o.fmt}] exit {o.code} {o.seconds:.1f} s: {', '.join(o.problems)}"
              + (f" -- {first[-1][:200]}" if first else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
