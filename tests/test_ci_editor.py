"""cudalint where CI, pre-commit and editors meet it: the gcc line problem matchers read, fixes that
are proved before they are offered, SARIF's run record, baselines that survive comment edits,
misspelt suppressions, colors and `did you mean`."""
import json
import re
import shutil
import statistics
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLES

# VS Code's built-in `$gcc` problem matcher, as its extension declares it
GCC_MATCHER = re.compile(r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$")


def run(*args, cwd=ROOT, env=None):
    import os
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    full_env.update(env or {})
    p = subprocess.run([sys.executable, "-m", "cudalint", *args], capture_output=True, text=True, cwd=cwd,
                       env=full_env, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_gcc_format_is_read_by_the_gcc_problem_matcher():
    code, out, _ = run("samples/matmul_naive_bad.cu", "samples/vecadd_bad.cu", "--format", "gcc")
    assert code == 1
    lines = out.splitlines()
    matches = [GCC_MATCHER.match(x) for x in lines]
    assert lines and all(matches)
    got = {(m.group(1), int(m.group(2)), m.group(4), m.group(5).rsplit(" [", 1)[1]) for m in matches}
    assert ("samples/vecadd_bad.cu", 7, "error", "CL202]") in got
    assert ("samples/matmul_naive_bad.cu", 16, "warning", "CL102]") in got


def test_concise_lines_fit_a_screen_line_and_state_the_figure():
    _, out, _ = run("samples", "--format", "concise")
    lines = out.splitlines()
    assert statistics.median(len(x) for x in lines) < 160
    assert not any("[assumes:" in x for x in lines)              # said once per kernel in full, per finding in JSON
    line = next(x for x in lines if x.startswith("samples/aos_weight_bad.cu:16:19: warning: CL101"))
    assert "32 sectors/request, ideal 4" in line and "lanes 32 B apart" in line
    # K is a size the program does not give: the cause, not a trial's count
    line = next(x for x in lines if x.startswith("samples/matmul_naive_bad.cu:12:17: warning: CL101"))
    assert "more sectors/request than the ideal 4" in line and "`threadIdx.x * K`" in line


def test_full_states_assumptions_once_per_kernel():
    _, out, _ = run("samples/matmul_naive_bad.cu", "--format", "full", "--color", "never")
    said = [x for x in out.splitlines() if "assumes:" in x]
    assert len(said) == 1 and "K = 1000 and 1024; M = 1000 and 1024; N = 1000 and 1024" in said[0]
    _, doc, _ = run("samples/matmul_naive_bad.cu", "--format", "json")
    assert all(d["assumptions"] for d in json.loads(doc)["diagnostics"])     # JSON keeps them per finding


def test_full_help_is_written_for_this_code():
    _, out, _ = run("samples/matmul_naive_bad.cu", "samples/vecadd_bad.cu", "--format", "full", "--color", "never")
    assert "+ 7 | int row = blockIdx.y * blockDim.y + threadIdx.y;" in out        # CL102: the user's own lines
    assert "+ 7 | if (i < n) c[i] = a[i] + b[i];" in out                          # CL202: the user's index and bound
    assert "fixable with `cudalint --fix --unsafe-fixes`" in out


@pytest.fixture
def work(tmp_path):
    for name in ("bank_column_tile_bad.cu", "matmul_naive_bad.cu", "vecadd_bad.cu"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path


def test_diff_shows_the_fixes_and_touches_nothing(work):
    before = {p.name: p.read_text() for p in work.iterdir()}
    code, out, err = run(".", "--diff", cwd=work)
    assert code == 1 and "would apply 1 fix (1 more with --unsafe-fixes)" in err
    assert "-  __shared__ float tile[TILE][TILE];\n+  __shared__ float tile[TILE][TILE + 1];" in out
    assert "threadIdx" not in out.split("+++ b/bank_column_tile_bad.cu", 1)[1].split("@@", 2)[1]   # the header
    assert {p.name: p.read_text() for p in work.iterdir()} == before
    assert run(".", "--format", "json", cwd=work)[0] == 1 and {p.name: p.read_text() for p in work.iterdir()} == before


def test_fix_applies_safe_fixes_and_unsafe_ones_only_when_asked(work):
    code, out, err = run(".", "--fix", cwd=work)
    assert "applied 1 fix in 1 file: 1 finding fewer" in err
    assert "tile[TILE][TILE + 1]" in (work / "bank_column_tile_bad.cu").read_text()
    assert "bank_column_tile_bad.cu" not in out                       # what remains is reported
    assert (work / "matmul_naive_bad.cu").read_text() == (SAMPLES / "matmul_naive_bad.cu").read_text()
    code, out, err = run(".", "--fix", "--unsafe-fixes", cwd=work)
    assert "applied 1 fix in 1 file: 2 findings fewer" in err     # the swap also coalesces the load
    assert "matmul_naive_bad.cu" not in out and code == 1            # vecadd's CL202 has no fix
    fixed = (work / "matmul_naive_bad.cu").read_text()
    assert "int row = blockIdx.y * blockDim.y + threadIdx.y;" in fixed


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_fixed_files_still_compile(work):
    run(".", "--fix", "--unsafe-fixes", cwd=work)
    for name in ("bank_column_tile_bad.cu", "matmul_naive_bad.cu"):
        p = subprocess.run(["nvcc", "-c", name, "-o", "/dev/null"], cwd=work, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr


def test_padding_is_not_offered_when_a_use_would_see_the_layout(tmp_path):
    src = (SAMPLES / "bank_column_tile_bad.cu").read_text()
    # a pointer to the tile's first element reads it flat: padding would change what it reads
    src = src.replace("  __syncthreads();", "  __syncthreads();\n  float* flat = &tile[0][0];\n  out[0] = flat[33];", 1)
    (tmp_path / "t.cu").write_text(src)
    code, out, err = run("t.cu", "--diff", cwd=tmp_path)
    assert out == "" and code == 0 and "would apply 0 fixes" in err


def test_sarif_run_record_columns_and_rule_help(tmp_path):
    f = tmp_path / "u.cu"
    # a 4-byte character before the access: byte column 96, UTF-16 column 94
    f.write_text("// caf\u00e9\n__global__ void k(float* a, int n) { /* \U0001F600 */ int i = blockIdx.x * blockDim.x"
                 " + threadIdx.x; a[i] = 1.0f; }\nvoid run(float* a) { k<<<(1000 + 255) / 256, 256>>>(a, 1000); }\n")
    _, text, _ = run(str(f), "--format", "concise")
    assert ":2:96: error: CL202" in text
    code, out, _ = run(str(f), "--format", "sarif")
    doc = json.loads(out)["runs"][0]
    assert doc["columnKind"] == "utf16CodeUnits"
    assert doc["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"] == 94
    assert doc["invocations"] == [{"executionSuccessful": True, "exitCode": 1, "toolExecutionNotifications": []}]
    for rule in doc["tool"]["driver"]["rules"]:
        assert len(rule["shortDescription"]["text"]) < 100
        assert "## What it does" in rule["help"]["markdown"] and "##" not in rule["help"]["text"]


def test_sarif_notifies_a_file_read_with_parse_errors(tmp_path):
    f = tmp_path / "broken.cu"
    f.write_text("__global__ void k(float* a) {\n  if (threadIdx.x < 4) {\n    a[threadIdx.x * 32] = 1;\n")
    _, out, _ = run(str(f), "--format", "sarif")
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes and "parse-errors" in notes[0]["message"]["text"]


def test_baseline_ignores_comment_edits_and_reports_stale_entries(tmp_path):
    k = tmp_path / "k.cu"
    k.write_text((SAMPLES / "matmul_naive_bad.cu").read_text())
    assert run("k.cu", "--write-baseline", "b.json", cwd=tmp_path)[0] == 0
    k.write_text(k.read_text().replace("// expect: CL102", "// TODO: swap x and y"))
    assert run("k.cu", "--baseline", "b.json", cwd=tmp_path)[:2] == (0, "")
    k.write_text(k.read_text().replace("out[row * N + col] = sum;", "out[row * N + col] = 2.0f * sum;"))
    code, out, err = run("k.cu", "--baseline", "b.json", cwd=tmp_path)
    assert code == 1 and out.count(":16:") == 1                     # the changed line is new
    assert err.count("stale entry") == 1 and "`out[row * N + col] = sum;` is no longer found" in err
    # entries of files this run did not lint are not stale
    (tmp_path / "other.cu").write_text((SAMPLES / "vecadd_good.cu").read_text())
    assert "stale" not in run("other.cu", "--baseline", "b.json", cwd=tmp_path)[2]


def test_misspelt_suppression_is_reported(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  a[i] = 1.0f;  // cudalint: ignroe[CL202]\n  a[i] = 2.0f;  // cudalint: this line is fine\n}\n"
                 "void run(float* a, int n) { k<<<(n + 255) / 256, 256>>>(a, n); }\n")
    _, out, _ = run(str(f))
    (line,) = [x for x in out.splitlines() if "CL910" in x]
    assert ":3:17: warning: CL910" in line and "did you mean `ignore`?" in line


@pytest.mark.parametrize("env, color", [({"FORCE_COLOR": "1"}, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
                                        ({}, False)])
def test_force_color_and_no_color(env, color):
    _, out, _ = run("samples/vecadd_bad.cu", "--format", "gcc", env=env)
    assert ("\x1b[" in out) is color


def test_term_dumb_turns_color_off_on_a_terminal():
    import os

    from cudalint.cli import want_color
    old = dict(os.environ)
    try:
        for k in ("NO_COLOR", "FORCE_COLOR"):
            os.environ.pop(k, None)
        os.environ["TERM"] = "dumb"
        assert want_color("auto", True) is False and want_color("always", True) is True
        os.environ["TERM"] = "xterm-256color"
        assert want_color("auto", True) is True and want_color("auto", False) is False
    finally:
        os.environ.clear()
        os.environ.update(old)


@pytest.mark.parametrize("args, needle", [
    (("rule", "uncoalesced-global-acess"), "did you mean `uncoalesced-global-access`?"),
    (("--selct", "CL1", "x.cu"), "did you mean `--select`?"),
    (("--ignore", "coalesing", "x.cu"), "did you mean `coalescing`?"),
    (("--select", "unguarded-globl-access", "x.cu"), "did you mean `CL202` (unguarded-global-access)?"),
    (("chek", "x.cu"), "unknown command `chek`; did you mean `check`?"),
    (("explian", "x.cu"), "unknown command `explian`; did you mean `explain`?"),
])
def test_did_you_mean(args, needle):
    code, _, err = run(*args)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_unknown_configuration_key_gets_a_suggestion(tmp_path):
    (tmp_path / ".cudalint.toml").write_text('ignor = ["CL101"]\n')
    shutil.copy(SAMPLES / "vecadd_bad.cu", tmp_path)
    code, _, err = run("vecadd_bad.cu", cwd=tmp_path)
    assert code == 2 and "unknown key 'ignor'" in err and "did you mean `ignore`?" in err


def test_rule_by_name():
    code, out, _ = run("rule", "unguarded-global-access")
    assert code == 0 and out.startswith("# CL202 unguarded-global-access")


def test_no_file_found_is_said_with_what_was_left_out(tmp_path):
    (tmp_path / "empty").mkdir()
    code, out, err = run("empty", cwd=tmp_path)
    assert code == 0 and out == "" and "warning: no .cu/.cuh files found in empty" in err
    (tmp_path / "src" / "gen").mkdir(parents=True)
    shutil.copy(SAMPLES / "vecadd_bad.cu", tmp_path / "src" / "gen")
    shutil.copy(SAMPLES / "vecadd_bad.cu", tmp_path / "src" / "k.cu")
    (tmp_path / ".cudalint.toml").write_text('exclude = ["gen"]\nextend-exclude = ["k.cu"]\n')
    code, _, err = run("src", cwd=tmp_path)
    assert code == 0 and "no file linted: 2 .cu/.cuh files in src: 2 excluded" in err


def test_a_rule_name_selects_its_rule():
    code, out, _ = run(str(SAMPLES / "vecadd_bad.cu"), "--select", "unguarded-global-access", "--format", "json")
    assert code == 1 and {d["code"] for d in json.loads(out)["diagnostics"]} == {"CL202"}


def test_version_short_flag_and_ruffs_output_format_spelling():
    assert run("-V")[1] == run("--version")[1] and run("-V")[1].startswith("cudalint ")
    assert run(str(SAMPLES / "vecadd_bad.cu"), "--output-format", "gcc")[1] == \
        run(str(SAMPLES / "vecadd_bad.cu"), "--format", "gcc")[1]


def test_config_show_is_toml_that_reads_back(tmp_path):
    import tomllib
    (tmp_path / ".cudalint.toml").write_text('[per-file-ignores]\n"src/legacy/*.cu" = ["CL101"]\n'
                                             '[launch]\n"ns::kern" = { grid = [4, 1, 1], block = [256, 1, 1] }\n'
                                             '[params]\nN = 4096\n')
    code, out, _ = run("config", "--show", ".", cwd=tmp_path)
    doc = tomllib.loads(out)
    assert code == 0 and doc["per-file-ignores"] == {"src/legacy/*.cu": ["CL101"]} and doc["params"] == {"N": 4096}
    assert doc["launch"]["ns::kern"] == {"grid": [4, 1, 1], "block": [256, 1, 1]}


def test_fix_and_diff_on_standard_input(tmp_path):
    """An editor's fix on save: the fixed text on stdout, what remains on stderr, nothing written."""
    text = (SAMPLES / "bank_column_tile_bad.cu").read_text()
    p = subprocess.run([sys.executable, "-m", "cudalint", "-", "--stdin-filename", "kernels/tile.cu", "--fix"],
                       input=text, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "tile[TILE][TILE + 1]" in p.stdout and p.stdout.replace("[TILE + 1]", "[TILE]") == text
    assert not any(tmp_path.iterdir()) and "CL401" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "cudalint", "-", "--stdin-filename", "kernels/tile.cu", "--diff"],
                       input=text, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert p.returncode == 1 and p.stdout.startswith("--- a/kernels/tile.cu\n+++ b/kernels/tile.cu")
    assert re.search(r"^\+\s*__shared__ float tile\[TILE\]\[TILE \+ 1\];", p.stdout, re.M)
