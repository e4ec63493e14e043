"""Never trust the input: nothing from a linted tree runs, one bad file never sinks the run, every
input is bounded in time and memory, and every failure is one line. Each test is a reproducer from
issue 13, run as a user runs cudalint (the timeouts only guard against hangs)."""
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT, SAMPLES

VECADD = (SAMPLES / "vecadd_bad.cu").read_text()        # CL202 x3 at line 7
GOOD_FINDINGS = {(7, "CL202")}


def cudalint(*args, cwd=None, stdin=None, timeout=120, env=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    p = subprocess.run([sys.executable, "-m", "cudalint", *map(str, args)], cwd=cwd, capture_output=True,
                       env=env, input=stdin, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def one_line_errors(err: str) -> list[str]:
    lines = err.splitlines()
    assert "Traceback" not in err
    assert all(x.startswith("cudalint: ") for x in lines), err
    return lines


def found(out: str, path) -> set[tuple[int, str]]:
    doc = json.loads(out)
    return {(d["line"], d["code"]) for d in doc["diagnostics"] if d["path"] == str(path)}


def kernel(body: str, name: str = "k") -> str:
    return f"__global__ void {name}(float* a, int N) {{\n{body}\n}}\n"


# ---- nothing from the linted tree is executed --------------------------------------------------
def _hostile_repo(path):
    """A git repository whose configuration runs a command when git looks at its files."""
    git = path / ".git"
    for d in ("objects", "refs/heads", "info"):
        (git / d).mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    marker = path.parent / "PWNED"
    (git / "config").write_text(f"[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
                                f"\tfsmonitor = touch {marker}; false\n")
    (git / "info" / "exclude").write_text("excluded_by_info.cu\n")
    (path / ".gitignore").write_text("gen/\n*.skip.cu\n!keep.skip.cu\n")
    (path / "sub").mkdir()
    (path / "sub" / ".gitignore").write_text("local.cu\n")
    for name in ("k.cu", "gen/g.cu", "a.skip.cu", "keep.skip.cu", "excluded_by_info.cu", "sub/local.cu",
                 "sub/kept.cu"):
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(VECADD)
    return marker


def test_a_hostile_git_config_runs_nothing_and_gitignore_is_still_honoured(tmp_path):
    marker = _hostile_repo(tmp_path / "evil")
    code, out, err = cudalint(tmp_path / "evil", "--format", "json")
    assert not marker.exists()
    assert code == 1, err
    paths = {os.path.relpath(f["path"], tmp_path / "evil") for f in json.loads(out)["files"]}
    assert paths == {"k.cu", "keep.skip.cu", os.path.join("sub", "kept.cu")}
    code, out, _ = cudalint(tmp_path / "evil" / "sub")          # from a subdirectory too
    assert not marker.exists() and code == 1
    assert "kept.cu" in out and "local.cu" not in out
    code, out, _ = cudalint(tmp_path / "evil", "--no-respect-gitignore")
    assert "gen/g.cu" in out and not marker.exists()


@pytest.mark.parametrize("module", ["cupy", "numpy", "tree_sitter"])
def test_python_dash_m_does_not_import_from_the_current_directory(tmp_path, module):
    marker = tmp_path / "PWNED"
    (tmp_path / f"{module}.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (tmp_path / "k.cu").write_text(VECADD)
    code, out, err = cudalint("--confirm", "k.cu", cwd=tmp_path)
    assert not marker.exists()
    assert code == 2 and "CL202" not in err          # no GPU here: confirm says what is missing, in one line
    code, out, _ = cudalint("k.cu", cwd=tmp_path)
    assert code == 1 and "CL202" in out and not marker.exists()


# ---- output: control characters are escaped in every format ------------------------------------
ESC_SOURCE = ("__global__ void k(float* a, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x; /* \x1b]0;pwned\x07 \x1b[2J */ a[i] = 1.0f;\n"
              "}\nvoid run(float* a) { k<<<(1000 + 255) / 256, 256>>>(a, 1000); }\n"
              "#define \x1b[31mX\n")


@pytest.mark.parametrize("fmt", ["concise", "full", "github", "junit", "sarif", "json", "json-lines"])
def test_control_characters_never_reach_the_output(tmp_path, fmt):
    f = tmp_path / "esc\x1b[31m.cu"
    f.write_text(ESC_SOURCE)
    code, out, err = cudalint(f, "--format", fmt)
    assert code == 1, err
    assert "\x1b" not in out and "\x07" not in out
    if fmt == "junit":
        ET.fromstring(out)
    elif fmt in ("json", "sarif"):
        out = json.dumps(json.loads(out), ensure_ascii=False)
        assert "\\u001b" not in out                # not even as a JSON escape
    elif fmt == "json-lines":
        out = json.dumps([json.loads(x) for x in out.splitlines()])
    assert "esc\\x1b[31m.cu" in out.replace("\\\\", "\\") or fmt == "sarif"   # SARIF: a URI


def test_a_file_name_that_is_not_utf8_is_linted_and_printed_escaped(tmp_path):
    name = os.fsencode(tmp_path) + b"/k\xff.cu"
    with open(name, "wb") as fh:
        fh.write(VECADD.encode())
    (tmp_path / "good.cu").write_text(VECADD)
    for fmt in ("concise", "json", "junit", "sarif"):
        code, out, err = cudalint(tmp_path, "--format", fmt)
        assert code == 1, err
        # SARIF names the file by its bytes, as a URI does (0xFF is %FF); text formats escape it
        assert "k\\xff.cu" in out.replace("\\\\", "\\") or (fmt == "sarif" and "k%FF.cu" in out)
    assert "Traceback" not in err


# ---- one bad file never sinks the run ----------------------------------------------------------
@pytest.mark.parametrize("bad, reason", [
    (bytes(range(256)) * 40, "binary file"),
    (None, "no such file or directory"),
])
def test_an_unreadable_file_is_one_line_and_a_status_while_the_others_are_reported(tmp_path, bad, reason):
    good = tmp_path / "good.cu"
    good.write_text(VECADD)
    badf = tmp_path / "bad.cu"
    if bad is not None:
        badf.write_bytes(bad)
    code, out, err = cudalint(badf, good, "--format", "json")
    assert code == 2
    assert one_line_errors(err) == [f"cudalint: cannot read {badf}: {reason}" + ("" if bad is None else
                                                                                " (contains NUL bytes)")]
    assert found(out, good) == GOOD_FINDINGS
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert files[str(badf)]["status"] == "unreadable" and reason in files[str(badf)]["error"]
    assert files[str(good)]["status"] == "ok"


def test_an_unsearchable_folder_is_reported_and_the_rest_is_linted(tmp_path, monkeypatch):
    """Mode 000 as root is still readable, so the refusal is simulated where the OS would give it."""
    from cudalint.config import Resolver
    from cudalint.lint import lint_paths
    (tmp_path / "locked").mkdir()
    (tmp_path / "good.cu").write_text(VECADD)
    locked = str(tmp_path / "locked")
    real_scandir, real_is_file = os.scandir, type(tmp_path).is_file

    def scandir(path="."):
        if os.path.abspath(path) == locked:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    def is_file(self):
        if str(self).startswith(locked + os.sep):
            raise PermissionError(13, "Permission denied", str(self))
        return real_is_file(self)
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(type(tmp_path), "is_file", is_file)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."], Resolver({}).run_config())
    assert [e.message for e in result.errors] == [f"cannot read {os.path.join('.', 'locked')}: Permission denied"]
    assert {(d.line, d.code) for d in result.diagnostics} == GOOD_FINDINGS


def test_an_internal_error_in_one_kernel_is_cl902_with_its_type_and_exit_2(tmp_path, monkeypatch, capsys):
    from cudalint import cli
    from cudalint.rules import cl101_uncoalesced
    (tmp_path / "k.cu").write_text(kernel("  a[threadIdx.x] = 1;", "broken") + VECADD)

    def boom(ctx):
        if ctx.table.kernel == "broken":
            raise ZeroDivisionError("division by zero\nsecond line")
        return []
    monkeypatch.setattr(cl101_uncoalesced, "check", boom)
    code = cli.main([str(tmp_path / "k.cu"), "--format", "json", "-j", "1"])
    out, err = capsys.readouterr()
    assert code == 2
    doc = json.loads(out)
    (cl902,) = [d for d in doc["diagnostics"] if d["code"] == "CL902"]
    assert cl902["kernel"] == "broken" and cl902["severity"] == "error"
    assert "ZeroDivisionError: division by zero" in cl902["message"] and "\n" not in cl902["message"]
    assert {(d["line"], d["code"]) for d in doc["diagnostics"] if d["kernel"] == "vecadd"} >= {(10, "CL202")}
    assert doc["files"][0]["status"] == "internal-error"
    assert one_line_errors(err) == [f"cudalint: internal error analysing {tmp_path / 'k.cu'} (CL902)"]
    code = cli.main([str(tmp_path / "k.cu"), "--select", "CL2"])     # never selected away
    assert code == 2 and "CL902" in capsys.readouterr().out


@pytest.mark.parametrize("body", [
    "  a[" + "(" * 1000 + "threadIdx.x" + ")" * 1000 + "] = 1;",
    "{" * 1000 + " a[threadIdx.x] = 1; " + "}" * 1000,
    "".join(f"  if (threadIdx.x > {i}) " for i in range(1000)) + "a[threadIdx.x] = 1;",
    "  a[threadIdx.x" + " + 1" * 1000 + "] = 1;",
], ids=["parentheses", "braces", "if-chain", "plus-chain"])
def test_1000_deep_nesting_is_a_named_limit_and_the_next_kernel_is_still_analysed(tmp_path, body):
    f = tmp_path / "deep.cu"
    f.write_text(kernel(body) + VECADD)
    code, out, err = cudalint(f, "--format", "json", timeout=60)
    assert code == 1 and not one_line_errors(err)
    assert (10, "CL202") in found(out, f)                    # vecadd, after the deep kernel
    assert not any(d["code"] == "CL902" for d in json.loads(out)["diagnostics"])


def test_an_include_name_longer_than_the_os_allows_is_skipped(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(f'#include "{"x" * 5000}.h"\n#include "{"d/" * 3000}y.h"\n' + VECADD)
    code, out, err = cudalint(f, "--format", "json")
    assert code == 1 and not one_line_errors(err)
    assert found(out, f) == {(9, "CL202")}


def test_a_5000_digit_param_annotation_is_a_cl900_and_the_kernel_is_analysed(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("// cudalint: param N=" + "9" * 5000 + "\n" + kernel("  a[threadIdx.x * 2 + N] = 1;"))
    code, out, err = cudalint(f)
    assert code == 1 and not one_line_errors(err)
    assert "CL900" in out and "is not a 64-bit integer" in out and "CL101" in out


@pytest.mark.skipif(sys.platform != "linux", reason="/dev/zero, FIFOs and sparse files as Linux has them")
def test_devices_fifos_and_sparse_giants_are_refused_at_once(tmp_path):
    good = tmp_path / "good.cu"
    good.write_text(VECADD)
    fifo = tmp_path / "fifo.cu"
    os.mkfifo(fifo)
    sparse = tmp_path / "sparse.cu"
    with open(sparse, "wb") as fh:
        fh.truncate(10 << 30)
    for bad, reason in ((fifo, "not a regular file (a FIFO)"), ("/dev/zero", "not a regular file (a device)"),
                        ("/dev/urandom", "not a regular file (a device)"),
                        (sparse, "file too large (10 GiB; the limit is 32 MiB)")):
        code, out, err = cudalint(bad, good, "--format", "json", timeout=30)
        assert code == 2 and one_line_errors(err) == [f"cudalint: cannot read {bad}: {reason}"]
        assert found(out, good) == GOOD_FINDINGS
    code, out, err = cudalint(tmp_path, "--format", "json", timeout=30)   # the FIFO found in a folder
    assert code == 2 and f"cannot read {fifo}: not a regular file" in err and found(out, good) == GOOD_FINDINGS
    for baseline in (fifo, "/dev/zero"):
        code, out, err = cudalint(good, "--baseline", baseline, timeout=30)
        assert code == 2 and one_line_errors(err) == [f"cudalint: cannot read baseline {baseline}: not a "
                                                      f"regular file ({'a FIFO' if baseline == fifo else 'a device'})"]
    code, out, err = cudalint("explain", fifo, timeout=30)
    assert code == 2 and one_line_errors(err) == [f"cudalint: cannot read {fifo}: not a regular file (a FIFO)"]
    code, out, err = cudalint("-", stdin=b"\0" * (1 << 20), timeout=30)
    assert code == 2 and "binary file" in err


def test_explain_with_a_huge_iteration_count_answers(tmp_path):
    code, out, err = cudalint("explain", "--expr", "i * 4 + threadIdx.x", "--iter", "i=99999999999", timeout=60)
    assert code == 0 and "max i = 99999999998" in out and not err


def test_closed_standard_streams_are_one_line_errors(tmp_path):
    (tmp_path / "k.cu").write_text(VECADD)
    run = f"{sys.executable} -m cudalint"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run(["sh", "-c", f"{run} - <&-"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 2 and one_line_errors(p.stderr) == ["cudalint: cannot read standard input: it is closed"]
    p = subprocess.run(["sh", "-c", f"{run} k.cu >&-"], cwd=tmp_path, capture_output=True, text=True, env=env,
                       timeout=60)
    assert p.returncode == 2 and "standard output is closed" in p.stderr and "Traceback" not in p.stderr


# ---- bounded in time and memory (the timeouts guard against hangs; bench/fuzz.py measures) --------
@pytest.mark.parametrize("source, expect", [
    (kernel("".join(f"for (int i{d} = 0; i{d} < 1000; i{d}++) " for d in range(9))
            + "a[threadIdx.x * 32 + i0 + i8] = 1;"), "CL101"),
    (kernel("  for (int i = threadIdx.x; i < N; i += threadIdx.x) a[i] = 1;\n"
            "  for (int j = threadIdx.x; j < N; j += threadIdx.x) a[j] = 2;"), "iteration count of the loop over `i`"),
    (kernel("\n".join(f"  a[threadIdx.x + {i}] = {i};" for i in range(10000))), "syntax nodes, more than the"),
    ("#define BIG " + " + ".join(f"x{i}" for i in range(200000)) + "\n" + kernel("  a[threadIdx.x + BIG] = 1;"),
     "macro expansion longer than"),
    ("".join('#include "self.cu"\n' for _ in range(30)) + kernel("  a[threadIdx.x * 32] = 1;"), "CL101"),
], ids=["9-nested-loops", "step-threadIdx", "10k-statements", "200k-term-macro", "includes-itself-30-times"])
def test_costly_shapes_end_with_their_findings_or_a_named_limit(tmp_path, source, expect):
    f = tmp_path / "self.cu"
    f.write_text(source)
    code, out, err = cudalint(f, "--show-limits", timeout=60)
    assert code in (0, 1) and not one_line_errors(err)
    assert expect in out


def test_capped_product_picks_the_same_combinations_without_building_the_product():
    import itertools

    from cudalint.analysis.simulate import MAX_COMBOS, capped_product
    samples = [[0, 1, 2, 500, 997, 998, 999]] * 5
    full = list(itertools.product(*samples))
    step = len(full) / MAX_COMBOS
    expected = [full[i] for i in sorted({int(i * step) for i in range(MAX_COMBOS)} | {len(full) - 1})]
    assert capped_product(samples) == expected
    huge = capped_product([list(range(7))] * 12)             # 13.8 billion combinations
    assert len(huge) == MAX_COMBOS + 1 and huge[0] == (0,) * 12 and huge[-1] == (6,) * 12


def test_a_large_run_prints_its_findings_part_by_part(tmp_path, monkeypatch):
    from cudalint import lint
    from cudalint.config import Resolver
    for i in range(5):
        (tmp_path / f"k{i}.cu").write_text(VECADD.replace("vecadd", f"vecadd{i}"))
    monkeypatch.setattr(lint, "STREAM_FILES", 2)
    cfg = Resolver({}).run_config()
    parts = []
    streamed = lint.lint_paths([str(tmp_path)], cfg, on_part=parts.append)
    whole = lint.lint_paths([str(tmp_path)], cfg)
    assert [len(p.files) for p in parts] == [2, 2, 1]
    assert [d for p in parts for d in p.diagnostics] == whole.diagnostics == streamed.diagnostics


# ---- exact numbers, or a named limit -----------------------------------------------------------
@pytest.mark.parametrize("source, note", [
    ("template <int N>\n__global__ void tk(float* a) { a[threadIdx.x * N] = 1; }\n"
     "void run(float* a) { tk<99999999999999999999><<<1, 32>>>(a); }\n", None),
    (kernel("  a[threadIdx.x + " + "9" * 5000 + "] = 1;"), "has 5000 characters: too large for C"),
    (kernel("  a[threadIdx.x + 99999999999999999999] = 1;"), "does not fit in 64 bits"),
    (kernel("  a[threadIdx.x + (int)1e999] = 1;"), "is past the range of a double"),
    (kernel("  a[(long)(threadIdx.x * 1e300 * 1e300)] = 1;"), "is not a finite number"),
    (kernel("  a[threadIdx.x << 100000] = 1;"), "shifts by a count outside 0..63"),
    ("#define A B + 1\n#define B A + 1\n" + kernel("  a[threadIdx.x + A] = 1;"), "macro `A` refers to itself"),
    (kernel("  a[threadIdx.x * 3037000500 * 3037000500] = 1;"), "leaves the 64-bit range"),
], ids=["template-20-digits", "5000-digits", "past-64-bits", "1e999", "inf-product", "shift-100000",
        "mutual-defines", "int64-product"])
def test_numbers_past_64_bits_are_named_in_one_cl901_line_never_a_crash(tmp_path, source, note):
    f = tmp_path / "k.cu"
    f.write_text(source)
    code, out, err = cudalint(f, "--format", "json", "--show-limits")
    assert code in (0, 1) and err == ""              # no numpy RuntimeWarning either
    diags = json.loads(out)["diagnostics"]
    assert not any(d["code"] == "CL902" for d in diags)
    assert all("\n" not in d["message"] for d in diags)
    if note:
        assert any(d["code"] in ("CL900", "CL901") and note in d["message"] for d in diags), diags
    else:     # the kernel is analysed; the template argument is not a value, so the stride it makes is
        # open and a verdict that needs it is no warning
        assert [d["code"] for d in diags] == [], diags


def test_a_param_that_wraps_int64_gives_no_false_overlap(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel("  a[threadIdx.x * N * N] = 1;") + "void run(float* a, int N) { k<<<1, 32>>>(a, N); }\n")
    code, out, err = cudalint(f, "--param", "N=4294967296", "--format", "json", "--show-limits")
    diags = json.loads(out)["diagnostics"]
    assert not any(d["code"] == "CL302" for d in diags)
    assert any(d["code"] == "CL901" and "leaves the 64-bit range" in d["message"] for d in diags)
    code, out, err = cudalint(f, "--param", f"N={2 ** 63}")
    assert code == 2 and one_line_errors(err) == [
        f"cudalint: bad --param value `{2 ** 63}`: expected an integer from {-2 ** 63} to {2 ** 63 - 1}"]


# ---- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (["--min-ratio", "nan"], "bad --min-ratio value `nan`: expected a positive number"),
    (["--min-ratio", "inf"], "bad --min-ratio value `inf`: expected a positive number"),
    (["--min-ratio", "0"], "bad --min-ratio value `0`: expected a positive number"),
    (["--min-ratio=-1"], "bad --min-ratio value `-1`: expected a positive number"),
    (["--select", ""], "--select names no rule"),
    (["-j", "-3"], "bad -j value `-3`"),
])
def test_bad_option_values_are_one_line_naming_the_option(args, message):
    code, out, err = cudalint(SAMPLES / "vecadd_bad.cu", *args)
    assert code == 2 and out == ""
    assert one_line_errors(err) == [f"cudalint: {message}" + err.split(message, 1)[1].rstrip("\n")]


def test_a_launch_for_a_kernel_no_file_defines_is_a_warning(tmp_path):
    code, out, err = cudalint(SAMPLES / "vecadd_bad.cu", "--launch", "vecad:grid=4:block=256")
    assert code == 1 and "CL202" in out
    assert one_line_errors(err) == ["cudalint: warning: --launch names kernel `vecad`, which no linted file "
                                    "defines (kernels: vecadd)"]


def test_jobs_are_capped_at_the_cores():
    from cudalint import cli
    args = cli._check_parser().parse_args(["x.cu", "-j", "1000"])
    assert cli._resolver(args).jobs == len(os.sched_getaffinity(0))
    code, out, _ = cudalint(SAMPLES, "-j", "1000")
    assert code == 1 and "CL202" in out


def test_a_malformed_pyproject_for_cudalint_is_an_error(tmp_path):
    (tmp_path / "k.cu").write_text(VECADD)
    for text in ('[tool.cudalint\nselect = ["CL1"]\n', '[tool.cudalint]\nselect = ["CL1"\n',
                 "[tool]\ncudalint.select = [\n"):
        (tmp_path / "pyproject.toml").write_text(text)
        code, out, err = cudalint("k.cu", cwd=tmp_path)
        # said once, naming the file, and passed over: the files are still linted, and the run exits 2
        assert code == 2 and "invalid TOML" in one_line_errors(err)[0] and "CL202" in out
    (tmp_path / "pyproject.toml").write_text("[project\n")         # broken, but not cudalint's
    assert cudalint("k.cu", cwd=tmp_path)[0] == 1


def test_a_broken_pipe_keeps_the_findings_exit_code():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "cudalint", "-q", str(SAMPLES)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    p.stdout.close()             # `cudalint samples | true`: the reader is gone before the report is written
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 1 and err == ""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the worker processes in /proc")
def test_ctrl_c_during_a_parallel_run_is_one_line(tmp_path):
    # lane 0 never leaves this loop, and its condition is not affine: its count is searched for
    slow = kernel("  for (int i = threadIdx.x; i * i < N; i += threadIdx.x) a[i] = 1;")
    for i in range(400):
        (tmp_path / f"k{i}.cu").write_text(slow.replace("void k(", f"void k{i}("))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "cudalint", str(tmp_path), "-j", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while not _children(p.pid) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)                           # until the worker is forked
    time.sleep(0.3)
    assert p.poll() is None, "the run ended before Ctrl-C: make it slower"
    os.killpg(p.pid, signal.SIGINT)                # as a terminal sends it: to every process of the group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and err.decode() == "cudalint: interrupted\n"


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as fh:
                if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d))
        except (OSError, ValueError, IndexError):
            pass
    return out


def test_an_array_extent_that_reads_memory_and_a_loop_that_never_runs_are_no_crash(tmp_path):
    # found by the fuzzer: an extent naming an unknown array (no statement to put the note on),
    # and a barrier loop with no iteration around a pair of shared accesses
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a, int N) {\n"
                 "  __shared__ float s[sizes[3]];\n"
                 "  __shared__ float t[64];\n"
                 "  for (int j = 0; j < 0; ++j) { t[threadIdx.x] = 1.0f; __syncthreads(); }\n"
                 "  a[threadIdx.x] = t[63 - threadIdx.x];\n"
                 "}\nvoid run(float* a) { k<<<1, 64>>>(a, 64); }\n")
    code, out, err = cudalint(f, "--format", "json")
    assert code in (0, 1) and not [d for d in json.loads(out)["diagnostics"] if d["code"] == "CL902"]


def test_an_array_extent_read_from_a_kernel_argument_is_no_crash_and_no_access(tmp_path):
    # found by the fuzzer (a damaged file misparsed into a declaration): `float t[len[0]]` reads
    # `len`, a pointer the kernel takes, outside any statement cudalint records accesses for
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(const int* len, float* out) {\n"
                 "  float t[len[0]];\n"
                 "  out[threadIdx.x] = 1.0f;\n"
                 "}\nvoid run(const int* len, float* out) { k<<<1, 64>>>(len, out); }\n")
    code, out, err = cudalint(f, "--format", "json", "--show-limits")
    diags = json.loads(out)["diagnostics"]
    assert code in (0, 1) and not [d for d in diags if d["code"] == "CL902"]
    assert not [d for d in diags if d.get("array") == "len"]
