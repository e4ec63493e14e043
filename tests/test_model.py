"""The two-tree table as an object: iterators (SLIDE/AREA), phases, guards, def-use edges."""
from cudalint.lint import Config, lint_paths

from conftest import SAMPLES


def _table(name, **cfg):
    (t,) = lint_paths([str(SAMPLES / name)], Config(debug=True, **cfg)).tables
    return t


def test_tiled_matmul_table():
    t = _table("matmul_tiled_good.cu")
    kinds = {it.var: it.kind for it in t.iterators}
    assert kinds == {"t": "SLIDE", "k": "AREA"}          # tiles slide over K; k sweeps the tile
    assert {a.name: a.space for a in t.arrays.values()} == {"A": "global", "B": "global", "C": "global",
                                                             "As": "shared", "Bs": "shared"}
    assert t.arrays["As"].dims == (32, 32)
    phases = {}
    for a in t.accesses:
        phases.setdefault((a.array.name, a.kind), set()).add(a.phase)
    assert phases[("A", "load")] == {"load"} and "load" in phases[("As", "store")]  # As[ty][tx] = A[...]
    assert phases[("As", "load")] == {"compute"} and phases[("C", "store")] == {"store"}
    store = next(a for a in t.accesses if a.array.name == "C")
    assert [str(g) for g in store.guards] and "M" in str(store.guards[-1])
    assert [(str(x.coord), str(x.stride)) for x in store.terms][:2] == [("blockIdx.x", "32"), ("blockIdx.y", "32 * N")]


def test_def_use_graph_traces_an_index_to_its_definitions():
    t = _table("matmul_naive_good.cu")
    g = t.def_use_graph()
    a = next(n for n in g.nodes if n.startswith("a@"))     # float a = left[row * K + i];
    assert {p.split("@")[0] for p in g.predecessors(a)} >= {"row", "K", "left"}
    b = next(n for n in g.nodes if n.startswith("b@1"))    # float b = right[i * N + col];
    assert {p.split("@")[0] for p in g.predecessors(b)} >= {"col", "N", "right"}
    row = next(n for n in g.nodes if n.startswith("row@"))
    assert g.nodes[row]["text"] == "row = blockIdx.y * blockDim.y + threadIdx.y"


def test_pointer_bumps_and_float4_views_in_blocktiled_sgemm():
    t = _table("sgemm_2d_vec_good.cu")
    vec = [a for a in t.accesses if a.array.name == "A" and a.space == "global"]
    assert vec and all(a.width == 16 for a in vec)       # reinterpret_cast<const float4*>(&A[...])[0]
    assert any("iter(bkIdx)" in str(a.index) or "bkIdx" in str(a.index) for a in vec)   # A += BK in the loop


def test_statement_macros_and_switch_cases_are_followed(tmp_path):
    f = tmp_path / "loop.cu"
    f.write_text(
        "#define CUDA_KERNEL_LOOP(i, n) \\\n"
        "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)\n"
        "__global__ void k(const float* in, float* out, int n) {\n"
        "  CUDA_KERNEL_LOOP(i, n) {\n"
        "    out[i] = in[i * 4];\n"
        "  }\n"
        "  switch (threadIdx.x & 3) { case 0: out[blockIdx.x] = threadIdx.x; break; default: break; }\n"
        "}\n"
        "void run(const float* in, float* out, int n) { k<<<(n + 255) / 256, 256>>>(in, out, n); }\n")
    result = lint_paths([str(f)], Config(debug=True))
    got = {(d.line, d.code) for d in result.diagnostics}
    assert (5, "CL101") in got                       # in[i * 4], inside the macro loop, on its own line
    assert not any(c == "CL202" for _, c in got)     # the grid-stride condition guards it
    ov = next(d for d in result.diagnostics if d.code == "CL302")
    assert ov.line == 7 and ov.metrics["writers"] == 64   # only the `case 0` quarter of the block
