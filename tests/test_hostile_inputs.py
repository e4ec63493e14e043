"""What a repository holds can neither stall, crash, blind nor run code in cudalint: every expansion
has a budget (past it, a CL901 note naming the limit, and the rest analysed), every file read is
isolated (configuration and ignore files too), every text from the tree is printed escaped, and
nothing from the tree is executed. Each test runs cudalint as a user does and checks what they see."""
import errno
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES

VECADD = (SAMPLES / "vecadd_bad.cu").read_text()        # CL202 x3 at line 7
TILE = (SAMPLES / "matmul_naive_bad.cu").read_text()     # CL102 with an unsafe fix


def cudalint(*args, cwd=None, timeout=120, shell_tail=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.monotonic()
    if shell_tail:     # a redirection the shell makes (a closed or full standard output)
        cmd = " ".join(f"'{a}'" for a in [sys.executable, "-m", "cudalint", *map(str, args)]) + shell_tail
        p = subprocess.run(cmd, shell=True, cwd=cwd, stderr=subprocess.PIPE, env=env, timeout=timeout)
        return p.returncode, b"", p.stderr.decode("utf-8"), time.monotonic() - start
    p = subprocess.run([sys.executable, "-m", "cudalint", *map(str, args)], cwd=cwd, capture_output=True,
                       env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode("utf-8"), time.monotonic() - start


def lines_from_cudalint(err: str) -> list[str]:
    lines = err.splitlines()
    assert "Traceback" not in err and "internal error" not in err, err
    assert all(x.startswith("cudalint: ") for x in lines), err
    return lines


def good_findings(out: bytes, name: str = "good.cu") -> int:
    return sum(1 for d in json.loads(out)["diagnostics"] if d["path"].endswith(name) and d["code"] == "CL202")


# ---- every expansion has a budget ------------------------------------------------------------
def test_an_if_on_self_doubling_macros_is_a_note_and_the_kernel_is_still_analysed(tmp_path):
    lines = ["#define A0 1"] + [f"#define A{i} (A{i - 1}+A{i - 1})" for i in range(1, 21)]
    (tmp_path / "k.cu").write_text("\n".join(lines) + "\n#if A20\n#endif\n" + VECADD)
    code, out, err, took = cudalint("k.cu", "--format", "json", "--show-limits", cwd=tmp_path)
    lines_from_cudalint(err)
    assert took < 30 and code == 1
    notes = [d["message"] for d in json.loads(out)["diagnostics"] if d["code"] == "CL901"]
    assert any("`#if A20` is not evaluated" in m and "200,000 tokens" in m for m in notes), notes
    assert good_findings(out, "k.cu") == 3


def test_a_macro_argument_used_ten_thousand_times_is_refused_while_it_is_built(tmp_path):
    big = "+".join("1" for _ in range(20000))
    (tmp_path / "k.cu").write_text(f"#define BIG {big}\n#define M(x) {' '.join(['x'] * 10000)}\n"
                                   "__global__ void k(float* a) {\n  a[threadIdx.x + M(BIG)] = 1.0f;\n}\n" + VECADD)
    code, out, err, took = cudalint("k.cu", "--format", "json", "--show-limits", cwd=tmp_path)
    lines_from_cudalint(err)
    assert took < 30
    notes = [d["message"] for d in json.loads(out)["diagnostics"] if d["code"] == "CL901"]
    assert any("macro expansion longer than 20000 tokens" in m for m in notes), notes
    assert good_findings(out, "k.cu") == 3


def test_helpers_that_fan_out_are_inlined_up_to_a_budget_of_nodes_per_kernel(tmp_path):
    src = ["__device__ void f0(float* a, int i) { a[i * 2] = a[i + 1] + 1.0f; }"]
    for d in range(1, 6):
        calls = "".join(f"  f{d - 1}(a, i + {j});\n" for j in range(10))
        src.append(f"__device__ void f{d}(float* a, int i) {{\n  a[i * 3] = 0.0f;\n{calls}}}")
    src.append("__global__ void k(float* a) { f5(a, threadIdx.x); }\nvoid run(float* a) { k<<<4, 256>>>(a); }\n")
    (tmp_path / "k.cu").write_text("\n".join(src))
    code, out, err, took = cudalint("k.cu", "--format", "json", "--show-limits", "-j", "1", cwd=tmp_path)
    lines_from_cudalint(err)
    assert took < 60 and code == 1
    diags = json.loads(out)["diagnostics"]
    assert any(d["code"] == "CL901" and "20,000 syntax nodes" in d["message"] for d in diags)
    assert any(d["code"] == "CL101" for d in diags)        # what was inlined is still analysed


def test_many_include_directories_and_missing_includes_cost_a_bounded_number_of_lookups(tmp_path):
    (tmp_path / ".cudalint.toml").write_text("include-dirs = [" + ",".join(f'"d{i}"' for i in range(20000)) + "]\n")
    src = "".join(f'#include "missing_{i}.h"\n' for i in range(1000))
    src += "".join(f'#if __has_include("hx_{i}.h")\n#endif\n' for i in range(1000))
    (tmp_path / "k.cu").write_text(src + VECADD)
    code, out, err, took = cudalint("k.cu", "--format", "json", "--show-limits", cwd=tmp_path)
    lines_from_cudalint(err)
    assert took < 60
    notes = [d["message"] for d in json.loads(out)["diagnostics"] if d["code"] == "CL901"]
    assert any("20,000 files cudalint looks for in one unit" in m for m in notes)
    assert good_findings(out, "k.cu") == 3


def test_a_file_that_includes_itself_thirty_times_is_read_a_bounded_number_of_times(tmp_path):
    (tmp_path / "k.cu").write_text('#include "k.cu"\n' * 30 + VECADD)
    code, out, err, took = cudalint("k.cu", "--format", "json", "--show-limits", cwd=tmp_path)
    lines_from_cudalint(err)
    assert took < 30
    notes = [d["message"] for d in json.loads(out)["diagnostics"] if d["code"] == "CL901"]
    assert any("32 times in this unit" in m for m in notes), notes
    assert good_findings(out, "k.cu") == 3


def test_a_hostile_file_elsewhere_in_the_repository_does_not_stall_an_innocent_one(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "third_party").mkdir()
    (tmp_path / "src" / "innocent.cu").write_text(
        "__global__ void add(const float* a, const float* b, float* c, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  c[i] = a[i] + b[i];\n}\n")
    lines = ["#define A0 1"] + [f"#define A{i} (A{i - 1}+A{i - 1})" for i in range(1, 21)]
    (tmp_path / "third_party" / "hostile.cu").write_text("\n".join(lines) + "\n#if A20\n#endif\n"
                                                         "void launch(float* p) { add<<<1, 256>>>(p, p, p, 256); }\n")
    (tmp_path / "third_party" / ".cudalint.toml").write_text("selct = 1\n")     # not the innocent file's
    code, out, err, took = cudalint("src/innocent.cu", "--format", "json", cwd=tmp_path)
    assert lines_from_cudalint(err) == [] and code in (0, 1) and took < 30


def test_fix_verification_lints_a_file_a_few_times_not_once_per_fix(tmp_path):
    parts = [re.sub(r"\bmatmul\w*\b", lambda m, j=j: f"{m.group(0)}_{j}", TILE) for j in range(20)]
    (tmp_path / "k.cu").write_text("\n".join(parts))
    from cudalint import fix
    from cudalint.lint import Config, lint_paths
    result = lint_paths([str(tmp_path / "k.cu")], Config())
    calls = []
    real = fix._Relinter.lint

    def counted(self, *a):
        calls.append(1)
        return real(self, *a)
    fix._Relinter.lint = counted
    try:
        planned = fix.plan(result, Config())
    finally:
        fix._Relinter.lint = real
    assert sum(len(fs) for fs in planned.accepted.values()) >= 20      # one fix a kernel, each proved
    assert len(calls) <= 2 * (fix.MAX_PROOF_ROUNDS + 1)


# ---- one bad input never sinks the run -----------------------------------------------------------
@pytest.mark.parametrize("line", ["!", "\\", "[z-a]", "[", "*a" * 12 + "*b", "[[:nope:]]"])
def test_gitignore_lines_git_accepts_never_stop_the_run(tmp_path, line):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text(line + "\n")
    (tmp_path / "good.cu").write_text(VECADD)
    (tmp_path / ("a" * 40 + ".cu")).write_text(VECADD)
    code, out, err, took = cudalint(".", "--format", "json", cwd=tmp_path)
    assert lines_from_cudalint(err) == [] and code == 1 and took < 30
    assert good_findings(out) == 3


@pytest.mark.parametrize("pattern, path, is_dir, ignored", [
    ("*.o", "a/b/x.o", False, True), ("/a/b/", "a/b", True, True), ("/a/b/", "a/b", False, None),
    ("doc/**/k.cu", "doc/x/y/k.cu", False, True), ("doc/**/k.cu", "doc/k.cu", False, True),
    ("**/z.cu", "a/b/z.cu", False, True), ("[!a]*.cu", "abc.cu", False, None), ("[!a]*.cu", "x.cu", False, True),
    ("we\\[ir\\]d.cu", "we[ir]d.cu", False, True), ("sp\\ ace.cu   ", "sp ace.cu", False, True),
    ("[[:digit:]x].cu", "7.cu", False, True), ("a/**", "a", True, None), ("a/**", "a/b/c", False, True),
    ("*a" * 12 + "*b", "a" * 40, False, None), ("[z-a]", "z", False, None), ("!", "x", False, None),
])
def test_ignore_patterns_match_as_git_matches_them(pattern, path, is_dir, ignored):
    from cudalint.wildmatch import IgnoreFile
    start = time.monotonic()
    assert IgnoreFile([pattern]).verdict(path, is_dir) == ignored
    assert time.monotonic() - start < 1


def test_a_broken_configuration_is_one_line_and_the_other_files_are_linted(tmp_path):
    (tmp_path / "good.cu").write_text(VECADD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "other.cu").write_text(VECADD)
    (tmp_path / "sub" / ".cudalint.toml").write_text("select = [\n")
    code, out, err, _ = cudalint(".", "--format", "json", cwd=tmp_path)
    lines = lines_from_cudalint(err)
    assert len(lines) == 1 and ".cudalint.toml" in lines[0] and "invalid TOML" in lines[0], lines
    assert code == 2                                          # the run cannot pass
    assert good_findings(out) == 3 and good_findings(out, "other.cu") == 3


def test_a_deeply_nested_pyproject_of_another_tool_is_passed_over_in_silence(tmp_path):
    (tmp_path / "good.cu").write_text(VECADD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "other.cu").write_text(VECADD)
    (tmp_path / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\nc = ' + "[" * 5000 + "]" * 5000 + "\n")
    code, out, err, _ = cudalint(".", "--format", "json", cwd=tmp_path)
    assert lines_from_cudalint(err) == [] and code == 1
    assert good_findings(out) == 3 and good_findings(out, "other.cu") == 3


def test_a_worker_that_dies_loses_only_the_items_it_held():
    from cudalint import parallel
    if not parallel.available():
        pytest.skip("no fork")
    parent = os.getpid()

    def work(x):
        if x == 5 and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)       # as the out-of-memory killer does
        time.sleep(0.01)
        return x * 2
    lost = []
    got = parallel.fork_map(work, list(range(40)), 2, lambda x, why: lost.append((x, why)) or None)
    assert all(got[i] == i * 2 for i in range(40) if got[i] is not None)
    assert sum(1 for g in got if g is not None) >= 30      # the others' results stand
    if lost:                                               # item 5 may have fallen to the parent
        assert all("SIGKILL" in why for _, why in lost)


def test_workers_die_with_their_parent(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from cudalint import parallel
        parallel.fork_map(lambda x: time.sleep(1) or x, list(range(200)), 2)
    """))
    p = subprocess.Popen([sys.executable, str(script)], start_new_session=True)
    time.sleep(3)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    deadline = time.monotonic() + 15
    left = []
    while time.monotonic() < deadline:
        out = subprocess.run(["ps", "-o", "pid=", "-g", str(p.pid)], capture_output=True, text=True).stdout.split()
        left = [int(x) for x in out]
        if not left:
            break
        time.sleep(0.5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []


# ---- nothing from the tree runs; --fix loses nothing ------------------------------------------------
def test_the_parser_cache_is_json_and_a_planted_pickle_is_never_read(tmp_path):
    cache = tmp_path / "cache"
    env_run = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(cache))
    (tmp_path / "k.cu").write_text(VECADD)
    subprocess.run([sys.executable, "-m", "cudalint", "k.cu"], cwd=tmp_path, env=env_run, capture_output=True)
    made = sorted((cache / "cudalint").iterdir())
    assert made and all(p.suffix == ".json" for p in made)
    for p in made:                                  # a cache file that is not what cudalint wrote
        p.write_bytes(b"\x80\x04cos\nsystem\n(S'touch " + str(tmp_path / "PWNED").encode() + b"'\ntR.")
        (p.parent / (p.stem + ".pickle")).write_bytes(p.read_bytes())
    p = subprocess.run([sys.executable, "-m", "cudalint", "k.cu"], cwd=tmp_path, env=env_run, capture_output=True)
    assert p.returncode == 1 and not (tmp_path / "PWNED").exists()


def test_python_m_never_imports_a_cudalint_of_the_current_folder(tmp_path, monkeypatch):
    """The guard cudalint-guard.pth runs at start: `cudalint` is found on the interpreter's own path,
    never in the folder `-m` added (PYTHONPATH entries still count)."""
    sys.path.insert(0, str(ROOT))
    import _cudalint_guard as guard
    shadow = tmp_path / "cudalint"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise SystemExit('the shadow ran')\n")
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-m", "cudalint", "x.cu"])
    assert guard._module_run() == "cudalint"
    finder = guard._InstalledCudalint([p for p in sys.path if p != str(tmp_path)])
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    spec = finder.find_spec("cudalint")
    assert spec is not None and not spec.origin.startswith(str(tmp_path))
    assert finder.find_spec("numpy") is None            # other names: the usual finders
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-c", "pass"])
    assert guard._module_run() is None


def test_fix_writes_through_a_rename_and_a_full_disk_leaves_the_file_whole(tmp_path, monkeypatch):
    (tmp_path / "k.cu").write_text(TILE)
    from cudalint import fix
    from cudalint.lint import Config, lint_paths
    planned = fix.plan(lint_paths([str(tmp_path / "k.cu")], Config()), Config())
    assert planned.accepted

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    problems = []
    assert fix.write(planned, True, [str(tmp_path)], problems) == {}
    assert (tmp_path / "k.cu").read_text() == TILE
    assert problems and "No space left on device" in problems[0] and "unchanged" in problems[0]
    assert sorted(os.listdir(tmp_path)) == ["k.cu"]       # no temporary file left behind


def test_fix_never_writes_through_a_link_out_of_the_linted_tree(tmp_path):
    (tmp_path / "outside").mkdir()
    (tmp_path / "repo").mkdir()
    (tmp_path / "outside" / "victim.cu").write_text(TILE)
    os.symlink(tmp_path / "outside" / "victim.cu", tmp_path / "repo" / "innocent.cu")
    code, out, err, _ = cudalint("repo", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert (tmp_path / "outside" / "victim.cu").read_text() == TILE
    assert any("outside the linted files' folders" in x for x in lines_from_cudalint(err))


# ---- what cudalint prints of the tree is escaped -----------------------------------------------
def test_explain_prints_no_control_character_and_the_html_page_no_foreign_link(tmp_path):
    (tmp_path / "k.cu").write_text("// \x1b]0;PWN\x07 [Fix](https:e.co)\n" + VECADD.replace(
        "vecadd", "vecadd") + "// [click](https://evil.example)\n")
    name = "[click](https:\\\\evil.example)\x1b[31m.cu"
    (tmp_path / name).write_text(VECADD)
    for f in ("k.cu", name):
        for fmt in ("text", "markdown"):
            code, out, err, _ = cudalint("explain", f, "--format", fmt, cwd=tmp_path)
            assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", out), (f, fmt)
        code, out, err, _ = cudalint("explain", f, "--format", "html", cwd=tmp_path)
        assert not re.findall(rb'<a href="(?!#)', out)


def test_config_show_diff_headers_and_messages_print_repository_text_escaped(tmp_path):
    (tmp_path / ".cudalint.toml").write_text('define = { X = "\\u001b]0;PWN\\u0007\\nnext" }\n')
    (tmp_path / "m\x1b[31m.cu").write_text(TILE)
    code, out, err, _ = cudalint("config", "--show", ".", cwd=tmp_path)
    assert code == 0 and b"\x1b" not in out and b"\\x1b" in out
    code, out, err, _ = cudalint(".", "--diff", "--unsafe-fixes", cwd=tmp_path)
    heads = [x for x in out.splitlines() if x.startswith((b"---", b"+++"))]
    assert heads and all(b"\x1b" not in x and b"\\x1b" in x for x in heads)
    (tmp_path / "empty\n::error file=x.cu::x").mkdir()
    code, out, err, _ = cudalint("empty\n::error file=x.cu::x", cwd=tmp_path)
    assert all(x.startswith("cudalint: ") for x in err.splitlines()) and "\x1b" not in err


def test_junit_is_well_formed_with_noncharacters_and_sarif_names_a_non_utf8_file_by_its_bytes(tmp_path):
    (tmp_path / "u\ufffe\uffff.cu").write_text(VECADD + "int x = '\ufffe'; \uffff @@@\n")
    code, out, err, _ = cudalint(".", "--format", "junit", cwd=tmp_path)
    ET.fromstring(out.decode("utf-8"))
    raw = b"bad\xff\xfe.cu"
    Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), raw))).write_text(VECADD)
    code, out, err, _ = cudalint(".", "--format", "sarif", cwd=tmp_path)
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(out)["runs"][0]["results"]
            for loc in r["locations"]}
    assert "bad%FF%FE.cu" in uris
    code, out, err, _ = cudalint(".", "--format", "json", cwd=tmp_path)
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert files["./bad\\xff\\xfe.cu"]["uri"] == "./bad%FF%FE.cu"


def test_statistics_in_json_lines_is_one_object_a_line(tmp_path):
    (tmp_path / "k.cu").write_text(VECADD)
    code, out, err, _ = cudalint("k.cu", "--statistics", "--format", "json-lines", cwd=tmp_path)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rows == [{"code": "CL202", "name": "unguarded-global-access", "category": "range", "count": 3}]


# ---- nothing is lost in silence ----------------------------------------------------------------
def test_cr_only_line_endings_are_read_as_the_compiler_reads_them(tmp_path):
    (tmp_path / "k.cu").write_bytes(("// a comment first\n" + VECADD).replace("\n", "\r").encode())
    code, out, err, _ = cudalint("k.cu", "--format", "json", cwd=tmp_path)
    assert {(d["line"], d["code"]) for d in json.loads(out)["diagnostics"]} == {(8, "CL202")}


def test_a_zero_size_launch_annotation_is_a_warning_and_the_kernel_is_still_analysed(tmp_path):
    (tmp_path / "k.cu").write_text(VECADD.replace("__global__", "// cudalint: launch grid=(0,0,0) block=(0,0,0)\n"
                                                                "__global__", 1))
    code, out, err, _ = cudalint("k.cu", "--format", "json", cwd=tmp_path)
    diags = json.loads(out)["diagnostics"]
    assert any(d["code"] == "CL900" and d["severity"] == "warning" and "positive" in d["message"] for d in diags)
    assert sum(1 for d in diags if d["code"] == "CL202") == 3


def test_a_helpers_local_const_is_not_a_constant_of_the_file(tmp_path):
    (tmp_path / "k.cu").write_text(
        "__device__ int stride;\n__device__ int warp_sum(int v) {\n"
        "  const int stride = __shfl_down_sync(0xffffffff, v, 16);\n  return v + stride;\n}\n"
        "__global__ void fill(float* a, int n) {\n  for (int i = threadIdx.x; i < n; i += stride) a[i] = 0.0f;\n}\n"
        "__device__ int count;\n__global__ void k(float* a) {\n  if (threadIdx.x == 0) {\n    count += 1;\n"
        "    return;\n  }\n  a[threadIdx.x + count] = 0.0f;\n}\n")
    code, out, err, _ = cudalint("k.cu", "--format", "json", cwd=tmp_path)
    assert code in (0, 1) and "CL902" not in out.decode()


def test_a_closed_or_full_standard_output_is_one_clear_line(tmp_path):
    (tmp_path / "k.cu").write_text(VECADD)
    for args, tail in ((("explain", "k.cu"), " >&-"), (("config", "--show"), " >&-"), (("k.cu",), " > /dev/full"),
                       (("explain", "k.cu"), " > /dev/full")):
        if tail.endswith("/dev/full") and not os.path.exists("/dev/full"):
            continue
        code, _, err, _ = cudalint(*args, cwd=tmp_path, shell_tail=tail)
        assert code == 2 and len(lines_from_cudalint(err)) == 1, (args, err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_like_an_included_header_does_not_stall_a_folder_walk(tmp_path):
    # the walk looks for kernels in the headers a CUDA file includes: a FIFO under that name is
    # refused, not waited on
    os.mkfifo(tmp_path / "kern.h")
    (tmp_path / "main.cu").write_text('#include "kern.h"\n__global__ void k(float* a) { a[threadIdx.x] = 0.f; }\n'
                                      "void run(float* a) { k<<<1, 32>>>(a); }\n")
    p = subprocess.run([sys.executable, "-m", "cudalint", str(tmp_path)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode in (0, 1, 2) and "Traceback" not in p.stderr
