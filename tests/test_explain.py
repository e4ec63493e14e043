"""Explain mode as a learner sees it: the seed's own numbers for the register-tiled GEMM, warp pictures
that agree with the findings, mechanical rewrites that fix what they claim to fix, every format, and
text snapshots of representative samples (CUDALINT_UPDATE_SNAPSHOTS=1 rewrites them)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudalint.explain.cli import render_as, use_color
from cudalint.explain.driver import explain_paths
from cudalint.explain.expr import explain_expr
from cudalint.lint import Config, lint_paths
from cudalint.rules import BY_CODE

from conftest import ROOT, SAMPLES, sample_files

SNAPSHOTS = ROOT / "tests" / "snapshots" / "explain"
SNAPSHOT_SAMPLES = [
    "gemm_twotree.cu",              # the seed's register-tiled GEMM, name for name
    "gemm_regtile.cu",              # the same kernel as the samples write it
    "matmul_naive_bad.cu",          # threadIdx.y-major naive matmul (CL101, CL102 with a rewrite)
    "leading_dim_bad.cu",           # stride mismatch (CL301) plus a shared-memory reduction
    "gemm_regtile_stride_mismatch.cu",  # stride mismatch that leaves the shared tile (CL201, CL301)
    "matmul_tiled_good.cu",         # shared-memory tiled matmul
    "grid_stride_good.cu",          # grid-stride loop
    "transpose_bad.cu",             # naive transpose (CL102 whose swap would break the load)
    "sgemm_2d_vec_bad.cu",          # templated 2-D blocktiling with float4 views and pointer moves
]


def explain(name, **kw):
    return explain_paths([f"samples/{name}"], Config(), **kw)


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    # Paths in the output are as the user typed them: run from the repository root.
    monkeypatch.chdir(ROOT)


def kernel(name, **kw):
    ex = explain(name, **kw)
    assert len(ex.kernels) == 1
    return ex.kernels[0]


def derivation(k, name):
    return next(d for ds in k.phases.values() for d in ds if d.name == name)


def access(k, text, kind=None):
    return next(a for accs in k.accesses.values() for a in accs if a.text == text and (kind is None or a.kind == kind))


# ---- the seed's register-tiled GEMM ------------------------------------------------------------

def test_seed_gemm_numbers_equal_the_seed():
    k = kernel("gemm_twotree.cu")
    text = render_as(explain("gemm_twotree.cu"), "text")

    its = {it.name: it for it in k.iterators}
    assert (its["tileId"].kind, its["tileId"].levels, its["tileId"].trips) == ("SLIDE", "Grid -> Global", 32)
    assert its["tileId"].formula == "1024 / 32"
    assert (its["stride"].kind, its["stride"].levels, its["stride"].trips) == ("AREA", "Block -> Shared", 16)
    assert "1024 / 32 = 32 iterations" in text and "(32 * 32) / (8 * 8) = 16 iterations" in text

    a_col = derivation(k, "aCol")
    assert a_col.written == "aCol = tileId * TILE_SIZE + sCol"
    assert [(t.coord, t.stride, t.stride_value, t.level) for t in a_col.terms] == [
        ("tileId", "TILE_SIZE", 32, "Grid -> Global"), ("sCol", "1", 1, "Shared index")]
    assert (a_col.check.arithmetic, a_col.check.value, a_col.check.ok) == ("31*32 + 31", 1023, True)
    assert "31*32 + 31 = 1023 <= 1023 ok" in text
    assert a_col.questions == ["Q1 ends at: Global", "Q2 execution index: tileId",
                               "Q3 stride (size below): TILE_SIZE = 32", "Q4 next-level index: sCol"]

    # Flatten -> Stride -> Unflatten, with the seed's max checks (7x8+7 = 63, 15x64+63 = 1023, 31)
    assert (derivation(k, "localId").pattern, derivation(k, "localId").check.arithmetic) == ("Flatten", "7*8 + 7")
    assert (derivation(k, "flatIdx").pattern, derivation(k, "flatIdx").check.arithmetic) == ("Stride", "15*64 + 63")
    assert derivation(k, "flatIdx").check.value == 1023
    assert derivation(k, "sCol").pattern == "Unflatten (column)" and derivation(k, "sRow").pattern == "Unflatten (row)"
    assert derivation(k, "sCol").check.value == 31 and derivation(k, "sCol").check.ok

    # sharedCol = 7*4 + 3 = 31 (compute phase); cCol/cRow = 31*32 + 7*4 + 3 = 1023 (store phase)
    assert derivation(k, "sharedCol") in k.phases["compute"]
    assert derivation(k, "sharedCol").check.arithmetic == "7*4 + 3"
    c_row = derivation(k, "cRow")
    assert c_row in k.phases["store"]
    assert [(t.coord, t.stride_value, t.level) for t in c_row.terms] == [
        ("blockIdx.y", 32, "Grid -> Global"), ("threadIdx.y", 4, "Block -> Shared"), ("regRow", 1, "Thread -> Register")]
    assert "31*32 + 7*4 + 3 = 1023" in text
    assert "= blockIdx.y * 32   Grid -> Global       stride TILE_SIZE" in text

    # the table: execution tree beside memory tree, filled from the launch and the declarations
    rows = {r.exec_level: r for r in k.table}
    assert (rows["Grid"].exec_size, rows["Block"].exec_size) == ("32 x 32", "8 x 8")
    assert rows["Block"].mem_size == "A_shared[32][32], B_shared[32][32]"
    assert {"aCol", "aRow", "cCol", "cRow"} <= set(rows["Grid"].mem_index)
    assert {"sCol", "sRow"} <= set(rows["Block"].mem_index)


def test_max_check_flags_the_mutated_stride():
    k = kernel("gemm_regtile_stride_mismatch.cu")
    shared_col = derivation(k, "sharedCol")
    assert shared_col.check.arithmetic == "7*32 + 3" and shared_col.check.value == 227
    assert shared_col.check.ok is False
    assert "7*32 + 3 = 227 > 31 OUT OF RANGE" in render_as(explain("gemm_regtile_stride_mismatch.cu"), "text")


# ---- warp pictures -----------------------------------------------------------------------------

def test_warp_picture_agrees_with_cl101():
    k = kernel("gemm_twotree.cu")
    c = access(k, "C[cRow * N + cCol]")
    w = c.warp
    assert (w.units, w.ideal, w.average, w.average_ideal) == (16, 4, 16.0, 4.0)
    diag = next(d for d in lint_paths(["samples/gemm_twotree.cu"], Config()).diagnostics if d.code == "CL101")
    assert diag.line == c.line and "16 sectors/request" in diag.message
    for ln in w.lanes:         # lanes x-fastest over the 8x8 block; cCol = tx*4, cRow = ty*4
        assert ln.tid[:2] == (ln.lane % 8, ln.lane // 8)
        assert ln.index == (ln.lane // 8) * 4 * 1024 + (ln.lane % 8) * 4
        assert ln.address == 4 * ln.index and ln.unit == ln.address // 32
    assert "16 sectors for this request (ideal 4)" in render_as(explain("gemm_twotree.cu"), "text")


def test_shared_picture_shows_banks_and_conflicts():
    k = kernel("gemm_twotree.cu")
    a = access(k, "A_shared[sharedRow][k]").warp       # rows 0, 4, 8, 12 of a 32-float row: bank 0
    assert a.space == "shared" and {ln.unit for ln in a.lanes} == {0} and a.units == 4
    for ln in a.lanes:
        assert ln.unit == (ln.address // 4) % 32
    b = access(k, "B_shared[k][sharedCol]").warp       # 8 words, each broadcast to 4 lanes
    assert [ln.unit for ln in b.lanes[:8]] == [0, 4, 8, 12, 16, 20, 24, 28] and b.units == 1
    store = access(k, "A_shared[sRow][sCol]").warp
    assert [ln.unit for ln in store.lanes] == list(range(32)) and store.units == 1


# ---- findings, rule docs, rewrites -------------------------------------------------------------

def test_findings_carry_the_rule_documentation():
    k = kernel("matmul_naive_bad.cu")
    assert {f.code for f in k.findings} == {"CL101", "CL102"}
    for f in k.findings:
        doc = BY_CODE[f.code].__doc__
        assert f.why and f.why in doc and f.fix and f.fix in doc


def test_cl102_rewrite_swaps_row_and_col_and_fixes_the_access(tmp_path):
    k = kernel("matmul_naive_bad.cu")
    cl102 = next(f for f in k.findings if f.code == "CL102")
    got = {(r.line, r.original, r.rewritten) for r in cl102.rewrites}
    assert got == {(7, "int row = blockIdx.x * blockDim.x + threadIdx.x;", "int row = blockIdx.y * blockDim.y + threadIdx.y;"),
                   (8, "int col = blockIdx.y * blockDim.y + threadIdx.y;", "int col = blockIdx.x * blockDim.x + threadIdx.x;")}
    lines = (SAMPLES / "matmul_naive_bad.cu").read_text().splitlines()
    for line, orig, new in got:
        lines[line - 1] = lines[line - 1].replace(orig, new)
    fixed = tmp_path / "fixed.cu"
    fixed.write_text("\n".join(lines) + "\n")
    codes = {d.code for d in lint_paths([str(fixed)], Config()).diagnostics}
    assert not codes & {"CL101", "CL102"}


def test_cl102_rewrite_is_withheld_when_it_breaks_another_access():
    # transpose: swapping x and y would make the (coalesced) idata load walk down a column
    k = kernel("transpose_bad.cu")
    cl102 = next(f for f in k.findings if f.code == "CL102")
    assert cl102.rewrites == []
    assert "CL102 on line 14" in cl102.rewrite_note      # the load would become y-major


@pytest.mark.parametrize("bad, line, expected", [
    ("gemm_regtile_stride_mismatch.cu", 40, "int sharedCol = threadIdx.x * WPT + regCol;"),
    ("block_offset_bad.cu", 9, "int i = blockIdx.x * BLOCK + threadIdx.x;"),   # = block_offset_good.cu
])
def test_cl301_rewrite_puts_the_span_of_the_level_below(bad, line, expected):
    k = kernel(bad)
    f = next(f for f in k.findings if f.code == "CL301")
    assert [(r.line, r.rewritten) for r in f.rewrites] == [(line, expected)]


def test_kernel_the_simulation_refuses_is_still_explained(tmp_path):
    cu = tmp_path / "big.cu"
    cu.write_text("__global__ void k(float* a) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[i] = 1.0f;\n}\n"
                  "void run(float* a) { k<<<4, 2048>>>(a); }\n")
    ex = explain_paths([str(cu)], Config())
    k = ex.kernels[0]
    assert k.launch == "not simulated: block of 2048 threads is outside 1..1024"
    assert [d.written for d in k.phases["store"]] == ["i = blockIdx.x * blockDim.x + threadIdx.x"]
    assert any(f.code == "CL901" for f in k.findings)
    assert "not simulated" in render_as(ex, "text")


# ---- --line, --kernel, --expr ------------------------------------------------------------------

def test_line_keeps_one_access_and_the_indexes_it_uses():
    k = kernel("gemm_twotree.cu", line=28)
    texts = {a.text for accs in k.accesses.values() for a in accs}
    assert texts == {"A[aRow * K + aCol]", "A_shared[sRow][sCol]"}
    names = [d.name for ds in k.phases.values() for d in ds]
    assert names == ["localId", "flatIdx", "sCol", "sRow", "aCol", "aRow"]


def test_line_of_a_definition_shows_where_it_flows():
    k = kernel("gemm_twotree.cu", line=24)          # int aCol = tileId * TILE_SIZE + sCol;
    assert {a.text for accs in k.accesses.values() for a in accs} == {"A[aRow * K + aCol]"}
    assert "aCol" in [d.name for d in k.phases["load"]]


def test_expr_top_down_use():
    e = explain_expr("blockIdx.y * TILE_SIZE + threadIdx.y * WPT + regRow", {"TILE_SIZE": "32", "WPT": "4"},
                     (8, 8, 1), (32, 32, 1), {"regRow": 4})
    assert [(t.coord, t.stride_value, t.level) for t in e.terms] == [
        ("blockIdx.y", 32, "Grid -> Global"), ("threadIdx.y", 4, "Block -> Shared"), ("regRow", 1, "Thread -> Register")]
    assert (e.check.arithmetic, e.check.value, e.check.limit, e.check.ok) == ("31*32 + 7*4 + 3", 1023, 1023, True)


def test_expr_unknown_names_stay_symbols_and_are_said():
    e = explain_expr("blockIdx.y * TILE_SIZE + threadIdx.y * WPT + regRow", {"TILE_SIZE": "32", "WPT": "4"},
                     (8, 8, 1), (32, 32, 1), {})
    assert e.symbols == ["regRow"]
    assert any("`regRow` is not defined" in a for a in e.assumptions)
    assert e.terms[-1].level == "symbol" and e.check.limit is None and "max(regRow)" in e.check.limit_text


def test_expr_flatten_is_recognised():
    e = explain_expr("threadIdx.y * blockDim.x + threadIdx.x", {}, (8, 8, 1), (1, 1, 1), {})
    assert e.pattern == "Flatten" and e.check.arithmetic == "7*8 + 7" and e.check.value == 63


# ---- command line and formats ------------------------------------------------------------------

def cli(*args, env=None):
    p = subprocess.run([sys.executable, "-m", "cudalint", "explain", *args], capture_output=True, text=True,
                       timeout=120, cwd=ROOT, env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def test_cli_expr_matches_the_seed():
    code, out, err = cli("--expr", "blockIdx.y * TILE_SIZE + threadIdx.y * WPT + regRow", "-D", "TILE_SIZE=32",
                         "-D", "WPT=4", "--block", "8,8", "--grid", "32,32", "--iter", "regRow=4")
    assert code == 0 and err == ""
    assert "31*32 + 7*4 + 3 = 1023 <= 1023 ok" in out


def test_cli_json_is_the_explain_data():
    code, out, _ = cli("samples/gemm_twotree.cu", "--format", "json")
    assert code == 0
    d = json.loads(out)
    k = d["kernels"][0]
    assert d["version"] == 1 and k["name"] == "gemm_twotree"
    assert [r["exec_level"] for r in k["table"]] == ["Grid", "Block", "Thread"]
    a_col = next(x for x in k["phases"]["load"] if x["name"] == "aCol")
    assert a_col["check"] == {"arithmetic": "31*32 + 31", "value": 1023, "limit": 1023,
                              "limit_text": "row length K = 1024", "bound_only": False, "total": 1023, "ok": True}
    store = k["accesses"]["store"][0]
    assert store["warp"]["units"] == 16 and store["findings"] == ["CL101"]


def test_cli_markdown_and_output_file(tmp_path):
    out_file = tmp_path / "x.md"
    code, out, _ = cli("samples/matmul_naive_bad.cu", "--format", "markdown", "-o", str(out_file))
    assert code == 0 and out == ""
    md = out_file.read_text()
    assert "## 1. Two Tree Table" in md and "| Level | Size | Index |" in md
    assert "> - int row = blockIdx.x * blockDim.x + threadIdx.x;" in md


def test_no_colour_when_piped_or_no_color():
    code, out, _ = cli("samples/gemm_twotree.cu")
    assert code == 0 and "\033[" not in out

    class Tty:
        def isatty(self):
            return True
    os.environ.pop("NO_COLOR", None)
    assert use_color(Tty()) or os.environ.get("TERM") == "dumb"
    os.environ["NO_COLOR"] = "1"
    try:
        assert not use_color(Tty())
    finally:
        del os.environ["NO_COLOR"]
    assert "\033[" in render_as(explain("gemm_twotree.cu"), "text", color=True)


@pytest.mark.parametrize("args, message", [
    (["samples/nope.cu"], "cannot read samples/nope.cu"),
    (["samples/gemm_twotree.cu", "--kernel", "nope"], "no kernel `nope` (kernels: gemm_twotree)"),
    (["samples/gemm_twotree.cu", "--line", "3"], "no array access or index definition on line 3"),
    (["--expr", "a + ("], "bad --expr `a + (`"),
    (["--expr", "x", "--block", "0"], "bad --block `0`"),
    (["--expr", "x", "samples/gemm_twotree.cu"], "give either PATH or --expr"),
    ([], "no input"),
    (["samples/gemm_twotree.cu", "--format", "pdf"], "invalid choice"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    assert err.startswith("cudalint: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_sample_explains_in_every_format(path):
    ex = explain_paths([str(path)], Config())
    if not ex.kernels:
        assert path.name == "saxpy_runner.cu"     # a host file: its kernel lives in the header
        return
    for fmt in ("text", "markdown", "json", "html"):
        assert render_as(ex, fmt)
    json.loads(render_as(ex, "json"))


# ---- HTML in a real browser --------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Run in the page by the browser test: measures every SVG box and label after layout and writes the
# counts into a marker element (the page itself carries no script).
CHECK_SCRIPT = """
(function(){var n=0,rs=document.querySelectorAll('svg rect');
for(var i=0;i<rs.length;i++){var b=rs[i].getBBox();if(b.width>0&&b.height>0)n++;}
var overlaps=0,outside=0,svgs=document.querySelectorAll('svg');
for(var s=0;s<svgs.length;s++){var box=svgs[s].getBoundingClientRect(),ts=svgs[s].querySelectorAll('text'),r=[];
for(var t=0;t<ts.length;t++){var b=ts[t].getBoundingClientRect();r.push(b);
if(b.left<box.left-0.5||b.right>box.right+0.5||b.top<box.top-0.5||b.bottom>box.bottom+0.5)outside++;}
for(var a=0;a<r.length;a++)for(var c=a+1;c<r.length;c++){
var w=Math.min(r[a].right,r[c].right)-Math.max(r[a].left,r[c].left),h=Math.min(r[a].bottom,r[c].bottom)-Math.max(r[a].top,r[c].top);
if(w>0.5&&h>0.5)overlaps++;}}
var m=document.createElement('p');m.id='render-check';m.className='note';
m.setAttribute('data-overlaps',overlaps);m.setAttribute('data-outside',outside);
m.setAttribute('data-svg',document.querySelectorAll('svg').length);m.setAttribute('data-rects',n);
m.textContent='rendered '+document.querySelectorAll('svg').length+' pictures, '+n+' boxes';
document.body.appendChild(m);})();
"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium); "
                                             "the HTML page is not checked in a browser")
def test_html_page_renders_in_headless_chromium(tmp_path):
    page = tmp_path / "explain.html"
    code, _, err = cli("samples/gemm_twotree.cu", "--format", "html", "-o", str(page))
    assert code == 0, err
    html = page.read_text()
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert "<script" not in html        # the page is for people: the measuring script is the test's
    page.write_text(html.replace("</body>", f"<script>{CHECK_SCRIPT}</script>\n</body>"))
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]

    def chromium(*extra, profile):
        return subprocess.run([CHROMIUM, *flags, f"--user-data-dir={tmp_path / profile}", *extra, page.as_uri()],
                              capture_output=True, text=True, timeout=120)
    dom = chromium("--dump-dom", "--enable-logging=stderr", "--v=0", profile="p1")
    assert dom.returncode == 0, dom.stderr[-2000:]
    # the page's own script measures every SVG box with getBBox() after layout and writes the count
    marker = dom.stdout.split('id="render-check"', 1)
    assert len(marker) == 2, "the page script did not run"
    n_svg = int(marker[1].split('data-svg="', 1)[1].split('"', 1)[0])
    n_rects = int(marker[1].split('data-rects="', 1)[1].split('"', 1)[0])
    assert n_svg == 7                    # 3 global + 4 shared accesses of the kernel
    assert n_rects == html.count("<rect")
    # console messages (script errors included) are logged as `INFO:CONSOLE:<line>] "..."`
    assert "Uncaught" not in dom.stderr and ":CONSOLE" not in dom.stderr, dom.stderr[-2000:]
    # the script also measures every label of every picture: none overlaps another, none is cut off
    assert marker[1].split('data-overlaps="', 1)[1].split('"', 1)[0] == "0"
    assert marker[1].split('data-outside="', 1)[1].split('"', 1)[0] == "0"
    shot = tmp_path / "explain.png"
    r = chromium(f"--screenshot={shot}", "--window-size=1280,2000", profile="p2")
    assert r.returncode == 0 and shot.exists() and shot.stat().st_size > 20000


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium); "
                                             "the HTML labels are not measured in a browser")
def test_wide_sector_labels_never_overlap_in_chromium(tmp_path):
    # lanes 400000 bytes apart: sectors numbered up to 6 digits, which do not fit side by side (the
    # measuring script counts 23 overlapping labels on the page as it was drawn before)
    page = tmp_path / "naive.html"
    assert cli("samples/matmul_naive_bad.cu", "--param", "K=100000", "--format", "html", "-o", str(page))[0] == 0
    html = page.read_text()
    assert 'transform="rotate(-90' in html
    page.write_text(html.replace("</body>", f"<script>{CHECK_SCRIPT}</script>\n</body>"))
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'p'}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    check = dom.stdout.split('id="render-check"', 1)[1]
    assert check.split('data-overlaps="', 1)[1].split('"', 1)[0] == "0"
    assert check.split('data-outside="', 1)[1].split('"', 1)[0] == "0"


def test_html_links_the_framework_terms_to_a_glossary_and_renders_markdown(tmp_path):
    import re
    page = tmp_path / "e.html"
    assert cli("samples/gemm_twotree.cu", "--format", "html", "-o", str(page))[0] == 0
    html = page.read_text()
    targets = set(re.findall(r'href="#(g-[\w-]+)"', html))
    ids = set(re.findall(r'id="(g-[\w-]+)"', html))
    assert targets <= ids
    assert {"g-two-tree-table", "g-slide", "g-area", "g-four-questions", "g-flatten", "g-stride",
            "g-unflatten", "g-max-check"} <= targets
    messages = re.findall(r'<div class="finding [a-z]+">.*? line \d+<div>(.*?)</div>', html)
    assert messages and all("`" not in m and "<code>" in m for m in messages)   # code, not literal backticks
    assert '<pre><code class="language-cuda">' in html          # the rule's Use instead is a code block


# ---- snapshots ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SNAPSHOT_SAMPLES)
def test_text_snapshot(name):
    got = render_as(explain(name), "text")
    snap = SNAPSHOTS / (Path(name).stem + ".txt")
    if os.environ.get("CUDALINT_UPDATE_SNAPSHOTS"):
        snap.parent.mkdir(parents=True, exist_ok=True)
        snap.write_text(got)
    assert snap.exists(), f"no snapshot {snap}: run CUDALINT_UPDATE_SNAPSHOTS=1 pytest tests/test_explain.py"
    assert got == snap.read_text(), (f"explain output of {name} changed; review it and regenerate with "
                                     f"CUDALINT_UPDATE_SNAPSHOTS=1 pytest tests/test_explain.py")


LOOP_CARRIED = """
__global__ void pipelined(float* out, const float* in, int n) {
  __shared__ float buf[2][128];
  float* front = buf[0];
  float* back = buf[1];
  int stage = 0, wraps = 0, skew = 0;
  for (int k = 0; k < n; k += 128) {
    front[threadIdx.x] = in[k + threadIdx.x];
    __syncthreads();
    out[k + threadIdx.x] = back[(threadIdx.x + 1) % 128];
    float* tmp = front; front = back; back = tmp;
    stage = stage ^ 1;
    wraps = wraps * 3 + 1;
    skew = k - skew;
    __syncthreads();
  }
}
void run(float* out, const float* in) { pipelined<<<1, 128>>>(out, in, 4096); }
"""


def test_explain_says_the_same_whatever_the_hash_seed(tmp_path):
    """Notes on the values a loop changes in ways the model does not follow come in the order the
    loop changes them: explain's output is the same from run to run (Python's string hashes are
    not)."""
    (tmp_path / "k.cu").write_text(LOOP_CARRIED)
    outs = set()
    for seed in ("1", "2", "3", "4", "5"):
        p = subprocess.run([sys.executable, "-m", "cudalint", "explain", "--format", "json", str(tmp_path / "k.cu")],
                           capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed})
        assert p.returncode == 0, p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1
    notes = [n for n in outs.pop().split('"') if "changes across iterations of this loop" in n]
    assert len(notes) >= 3


def test_html_page_lists_the_kernel_source_beside_the_table():
    """A learner reads the table against the code it came from; the page ends with the glossary,
    not with a line for cudalint's own checks."""
    code, html, err = cli("samples/transpose_good.cu", "--format", "html")
    assert code == 0, err
    beside = html.split('<div class="beside">', 1)[1].split('</pre></div>', 1)[0]
    assert "<table>" in beside and '<pre class="src">' in beside
    assert "__global__" in beside and "tile[threadIdx.x][threadIdx.y + j]" in beside
    assert "rendered" not in html and "render-check" not in html


def _term_levels(ex) -> set[str]:
    return {r.level for k in ex.kernels for ders in k.phases.values() for d in ders for r in d.terms} | \
        {r.level for k in ex.kernels for accs in k.accesses.values() for a in accs for dv in a.dims
         for r in dv.terms}


def test_levels_name_only_memory_the_kernel_has():
    """A naive matmul has no shared memory: its threadIdx terms address global memory, not a
    Shared level the two-tree table shows empty; a tiled kernel's still land in Shared."""
    naive = _term_levels(explain("matmul_naive_bad.cu"))
    assert "Block -> Global" in naive and not any("Shared" in lv for lv in naive)
    tiled = _term_levels(explain("matmul_tiled_good.cu"))
    assert "Block -> Shared" in tiled


def test_const_int_tile_reads_as_its_define(tmp_path):
    """`const int TILE_DIM = 32;` is the same fact as `#define TILE_DIM 32`: the same strides, levels
    and max checks (the model resolved the constant; explain shows its value, not a symbol)."""
    text = (SAMPLES / "transpose_good.cu").read_text()
    const = tmp_path / "transpose_const.cu"
    const.write_text(text.replace("#define TILE_DIM 32", "const int TILE_DIM = 32;")
                     .replace("#define BLOCK_ROWS 8", "const int BLOCK_ROWS = 8;"))

    def rows(ex):
        (k,) = ex.kernels
        return [(r.coord, r.stride_value, r.level, r.max_coord) for d in k.phases["load"] for r in d.terms]
    defined = rows(explain("transpose_good.cu"))
    assert ("blockIdx.x", 32, "Grid -> Global", 63) in defined
    assert rows(explain_paths([str(const)], Config())) == defined
