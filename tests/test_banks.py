"""CL401: wavefronts per shared-memory request, against a bank count written out lane by lane."""
import pytest
from hypothesis import given, settings, strategies as st

from cudalint.lint import Config, lint_paths

from conftest import SAMPLES

TYPES = {4: "float", 8: "float2", 16: "float4"}
# index expressions a kernel might use for a tile coordinate (linear id = y * blockDim.x + x)
COORDS = {
    "tx": ("threadIdx.x", lambda x, y, bx: x),
    "ty": ("threadIdx.y", lambda x, y, bx: y),
    "lin": ("(threadIdx.y * blockDim.x + threadIdx.x)", lambda x, y, bx: y * bx + x),
    "2tx": ("(2 * threadIdx.x)", lambda x, y, bx: 2 * x),
}


def brute_force(bx, by, rows, cols, pad, size, row_of, col_of):
    """Loads, per warp, written out lane by lane. 4 bytes: one phase of 32 lanes costing the most
    distinct 4-byte words one of the 32 banks serves. 8 bytes: phases of 16 lanes, 16 bytes: of 8
    lanes, each costing that count; two neighbouring phases share one wavefront when together they
    ask no bank for two words and for at most 128 bytes, and their ideal is that data in 128-byte
    wavefronts (as ncu measures on an H100)."""
    lanes = {4: 32, 8: 16, 16: 8}[size]
    requests = []
    threads = [(x, y) for y in range(by) for x in range(bx)]          # linear order, x fastest
    for w in range(0, len(threads), 32):
        warp = threads[w:w + 32]
        addrs = []
        for x, y in warp:
            r, c = row_of(x, y, bx) % rows, col_of(x, y, bx) % cols
            addrs.append((r * (cols + pad) + c) * size)
        phases = [addrs[p:p + lanes] for p in range(0, 32, lanes)]

        def worst(group):
            banks = {}
            for addr in group:
                for word in range(addr // 4, (addr + size - 1) // 4 + 1):
                    banks.setdefault(word % 32, set()).add(word)
            return max((len(s) for s in banks.values()), default=0)

        if size == 4:
            n = worst(addrs)
            requests.append((n, n, 1))
            continue
        wavefronts, ways, ideals = 0, 0, 0
        for a, b in zip(phases[0::2], phases[1::2]):
            data = (len(set(a)) + len(set(b))) * size
            if data == 0:
                continue
            ideal = -(-data // 128)
            together = worst(a + b)
            cost = together if max(worst(a), worst(b)) <= 1 and together <= 1 and data <= 128 else worst(a) + worst(b)
            wavefronts, ways, ideals = wavefronts + cost, max(ways, -(-cost // ideal)), ideals + ideal
        requests.append((wavefronts, ways, ideals))
    n = len(requests)
    return sum(r[0] for r in requests) / n, max(r[1] for r in requests), sum(r[2] for r in requests) / n


def lint_source(tmp_path, text, **params):
    path = tmp_path / "k.cu"
    path.write_text(text)
    return lint_paths([str(path)], Config(debug=True, params=params)).diagnostics


@settings(max_examples=60, deadline=None)
@given(bx=st.sampled_from([4, 8, 16, 32, 64]), by=st.sampled_from([1, 2, 4, 8]),
       rows=st.integers(1, 48), cols=st.integers(1, 48), pad=st.integers(0, 4),
       size=st.sampled_from([4, 8, 16]), row=st.sampled_from(sorted(COORDS)), col=st.sampled_from(sorted(COORDS)))
def test_ways_and_wavefronts_equal_a_brute_force_bank_count(tmp_path_factory, bx, by, rows, cols, pad, size, row, col):
    t = TYPES[size]
    src = f"""
__global__ void read_tile({t}* out) {{
  __shared__ {t} tile[{rows}][{cols} + {pad}];
  out[threadIdx.y * blockDim.x + threadIdx.x] = tile[{COORDS[row][0]} % {rows}][{COORDS[col][0]} % {cols}];
}}
void run({t}* out) {{
  dim3 block({bx}, {by});
  read_tile<<<1, block>>>(out);
}}
"""
    diags = lint_source(tmp_path_factory.mktemp("k"), src)
    found = [d for d in diags if d.code == "CL401"]
    wavefronts, ways, ideal = brute_force(bx, by, rows, cols, pad, size, COORDS[row][1], COORDS[col][1])
    if ways < 2:
        assert not found, found[0].message
        return
    (d,) = found
    assert d.metrics["ways"] == ways
    assert d.metrics["wavefronts_per_request"] == pytest.approx(wavefronts, abs=0.01)
    assert d.metrics["ideal_wavefronts"] == pytest.approx(ideal, abs=0.01)
    assert f"{ways}-way" in d.message


def full_report(path) -> str:
    """What a user reads at a terminal (`--format full`), where the fixes of a finding are spelled out."""
    import contextlib
    import io

    from cudalint.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main([str(path), "--format", "full", "--color", "never"])
    return out.getvalue()


def _cl401(name, **params):
    result = lint_paths([str(SAMPLES / name)], Config(debug=True, params=params))
    return [d for d in result.diagnostics if d.code == "CL401" and d.path.endswith(name)]


def test_column_read_of_a_32x32_tile_is_32_way_and_padding_removes_it():
    (d,) = _cl401("bank_column_tile_bad.cu")
    assert d.metrics["ways"] == 32 and d.metrics["wavefronts_per_request"] == 32.0
    assert "`threadIdx.x * 32`" in d.message
    assert d.metrics["padding"] == 1
    # the help is the padded declaration in the file's own words, proved by linting the padded file
    assert "+ 8 | __shared__ float tile[TILE][TILE + 1];" in full_report(SAMPLES / "bank_column_tile_bad.cu")
    assert _cl401("bank_column_tile_good.cu") == [] and _cl401("swizzle_tile_good.cu") == []


def test_interleaved_reduction_grows_from_2_to_16_way_and_sequential_is_clean():
    found = _cl401("reduce_interleaved_bad.cu")
    assert {d.metrics["ways"] for d in found} == {16}
    assert {d.metrics["least_ways"] for d in found} == {2}
    assert "2- to 16-way bank conflict (worst at s=8)" in found[0].message
    assert _cl401("reduce_sequential_good.cu") == []


def test_register_tiled_gemm_a_tile_read_is_4_way_and_2_way_as_the_lds128_nvcc_makes():
    # one float at a time, As[threadIdx.y * 4 + r][k] puts the warp's 4 rows in one bank: 4-way.
    # nvcc unrolls the k loop by itself and merges 4 values of k into one LDS.128 (the sm_90 SASS
    # shows it); ncu on an H100 counts 4 wavefronts per such load where 2 would do: 2-way
    (d,) = _cl401("gemm_regtile.cu")
    assert d.severity == "warning" and d.array == "As" and d.access == "load"
    assert d.metrics["ways"] == 4 and "`threadIdx.y * 128`" in d.message
    assert "(2-way where nvcc unrolls the loop by itself and merges 4 iterations of `k` into 16-byte loads)" in d.message


def test_vector_accesses_are_counted_by_warp_and_half_warp_phases():
    found = {d.line: d for d in _cl401("vec_shared_bad.cu")}
    f2, f4 = found[16], found[17]
    assert f2.metrics["ideal_wavefronts"] == 2 and f2.metrics["ways"] == 16
    assert f4.metrics["ideal_wavefronts"] == 4 and f4.metrics["ways"] == 8
    assert f4.metrics["padding"] == 1       # float4 tile: padding by one float4 keeps 16-byte alignment
    assert "__shared__ float4 t4[8][TILE + 1];" in full_report(SAMPLES / "vec_shared_bad.cu")
    assert _cl401("vec_shared_good.cu") == []


def test_min_ways_option_raises_the_threshold():
    def found(ways):
        result = lint_paths([str(SAMPLES / "reduce_interleaved_bad.cu")], Config(debug=True, min_ways=ways))
        return [d for d in result.diagnostics if d.code == "CL401"]
    assert len(found(16)) == 3 and found(17) == []


def test_padding_advice_is_the_smallest_pad_that_works(tmp_path):
    # 16x16 block over a 20-wide tile: a warp covers two rows 20 words apart, which overlap in 4 banks
    src = """
__global__ void halo_read(float* out) {
  __shared__ float s[20][20];
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y + 2][threadIdx.x + 2];
}
void run(float* out) { dim3 b(16, 16); halo_read<<<1, b>>>(out); }
"""
    (d,) = [d for d in lint_source(tmp_path, src) if d.code == "CL401"]
    assert d.metrics["ways"] == 2
    assert d.metrics["padding"] == 28                                         # row stride 48 = 16 mod 32
    assert "__shared__ float s[20][20 + 28];" in full_report(tmp_path / "k.cu")


def test_bank_picture_shows_the_worst_request_lane_by_lane():
    from cudalint.analysis.banks import bank_picture
    from cudalint.analysis.simulate import Simulation
    (table,) = lint_paths([str(SAMPLES / "gemm_regtile.cu")], Config(debug=True)).tables
    acc = next(a for a in table.accesses if a.array.name == "As" and a.kind == "load")
    pic = bank_picture(Simulation(table), acc)
    assert (pic.wavefronts, pic.ways, pic.phases) == (4, 4, 1)
    # an 8x8 block: lanes 8*r .. 8*r+7 have threadIdx.y = r and read row 4*r, all in one bank
    assert {bank for *_, bank in pic.lanes} == {pic.lanes[0][3]}
    assert sorted({word - pic.lanes[0][2] for _, _, word, _ in pic.lanes}) == [0, 128, 256, 384]


def test_vector_bank_model_reproduces_ncu_on_an_h100():
    # 18 lane patterns of LDS.128 / LDS.64 and STS.128 / STS.64 measured with ncu
    # (bench/bank_patterns.py --gpu): the wavefronts and the excess over the ideal per instruction
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("bank_patterns", Path(__file__).parents[1] / "bench" / "bank_patterns.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for kind in ("load", "store"):
        assert {n: bench.modelled(n, kind) for n in bench.PATTERNS} == bench.MEASURED_H100[kind]


def test_a_32_byte_view_moves_in_16_byte_pieces_as_its_type_aligns_them(tmp_path):
    """`*(ulonglong4*)(A + t * 8)` on a float tile: the 32-byte store goes out as two 16-byte
    stores (ulonglong4 is 16-byte aligned), each with lanes 32 bytes apart: 8 wavefronts for an
    ideal 4, 2-way (the float elements' alignment would split it into 4-byte words: 8-way). A
    layout whose 16-byte pieces fill each phase's 128 bytes is conflict-free. (Nsight Compute on an
    H100: two STS.128 a warp, 16 shared-store wavefronts for the first, 8 and no conflict for the
    second.)"""
    text = ("__global__ void k(float* out) {\n"
            "  __shared__ float A[4096];\n"
            "  int t = threadIdx.x;\n"
            "  *(ulonglong4*)(A + t * 8) = make_ulonglong4(0ULL, 0ULL, 0ULL, 0ULL);\n"
            "  *(ulonglong4*)(A + 1024 + (t % 4) * 8 + (t / 4 % 2) * 4 + (t / 8) * 64) = make_ulonglong4(0ULL, 0ULL, 0ULL, 0ULL);\n"
            "  __syncthreads();\n"
            "  out[t] = A[t];\n"
            "}\n"
            "void run(float* o) { k<<<1, 32>>>(o); }\n")
    found = {d.line: d for d in lint_source(tmp_path, text) if d.code == "CL401"}
    assert set(found) == {4}
    assert found[4].metrics["ways"] == 2 and found[4].metrics["ideal_wavefronts"] == 4


def test_a_type_the_launch_names_but_the_unit_does_not_lay_out_is_tried_at_each_width(tmp_path):
    """`k<scalar_t><<<...>>>` in a dispatch macro's lambda (`scalar_t` defined by a library header
    not read) is a template type of unknown width: the conflict stands where 2- and 4-byte elements
    both make it, and one on a shared tile of a type the unit does not define (`cpx`, with no width
    tried) is an info resting on that size."""
    from cudalint.lint import Config, lint_paths
    kernel = """
template <typename T>
__global__ void boxes(const T* dev_boxes, T* out, int n) {
  __shared__ T block_boxes[64 * 32];
  for (int f = 0; f < 32; f++)
    block_boxes[f * 64 + threadIdx.x] = dev_boxes[(blockIdx.x * 32 + f) * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = block_boxes[threadIdx.x * 32];
}
void run(const void* in, void* out, int n) {
  DISPATCH(kind, [&] { boxes<scalar_t><<<n / 64, 64>>>((const scalar_t*)in, (scalar_t*)out, n); });
}
"""
    path = tmp_path / "k.cu"
    path.write_text(kernel)
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL401"]
    assert found and all(d.severity == "warning" for d in found)
    tile = kernel.replace("template <typename T>\n", "").replace("<scalar_t>", "").replace("const T*", "const cpx*") \
        .replace("T* out", "cpx* out").replace("__shared__ T ", "__shared__ cpx ").replace("(const scalar_t*)", "(const cpx*)") \
        .replace("(scalar_t*)", "(cpx*)")
    path.write_text(tile)
    found = [d for d in lint_paths([str(path)], Config(show_uncertain=True)).diagnostics if d.code == "CL401"]
    assert found and all(d.severity == "info" and "rests on the size of `cpx`" in d.message for d in found)
