"""Verdicts from the program's own values: a value the program does not give is open, a finding
that holds only for some open values is no warning, a finding over a size the program leaves open
states its condition, and no message quotes a value cudalint made up. Each test is a kernel as
people write it and what a user sees."""
import re
from pathlib import Path

import pytest

from cudalint.lint import Config, lint_paths

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def lint(tmp_path, src, **cfg):
    path = tmp_path / "k.cu"
    path.write_text(src)
    return lint_paths([str(path)], Config(**cfg)).diagnostics


def warnings(diags):
    return [d for d in diags if d.severity in ("warning", "error")]


AXPY = """__global__ void axpy(int n, float a, const float* x, int incx, float* y, int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i * incy] += a * x[i * incx];
}
"""


def test_a_stride_the_program_never_gives_makes_no_warning(tmp_path):
    # incx = 1 is as likely as any other value: coalesced there, so no warning
    assert warnings(lint(tmp_path, AXPY)) == []


def test_a_stride_the_program_never_gives_is_an_info_stating_the_condition(tmp_path):
    diags = lint(tmp_path, AXPY, show_uncertain=True)
    x = [d for d in diags if d.code == "CL101" and d.array == "x"]
    assert x and all(d.severity == "info" for d in x)
    assert "only when incx = 1000, not 1" in x[0].message
    assert "incy" not in x[0].message.split("(only")[1]     # the condition names the access's own stride
    assert "lanes 4·incx B apart" in x[0].message           # no figure made of the value tried


LEADING_DIM = """__global__ void rows(const float* A, float* out, int ld, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += A[row * ld + c];
  out[row] = s;
}
"""


def test_a_leading_dimension_is_a_size_and_its_warning_stands(tmp_path):
    # `ld` strides rows whose columns `c` walks with a unit step: a row is at least as long as the
    # columns under it, so ld = 1 is no layout the kernel has
    got = [d for d in warnings(lint(tmp_path, LEADING_DIM)) if d.code == "CL101"]
    assert got and "lanes 4·ld B apart" in got[0].message
    assert "4000" not in got[0].message


NOGUARD = """__global__ void add(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i];
}
void run(const float* a, float* c, int n) {
  add<<<(n + 255) / 256, 256>>>(a, c, n);
}
"""


def test_a_missing_tail_guard_over_an_open_size_is_a_warning_with_its_condition(tmp_path):
    got = [d for d in lint(tmp_path, NOGUARD) if d.code == "CL202"]
    assert len(got) == 2 and all(d.severity == "warning" for d in got)
    assert all("whenever n % 256 != 0" in d.message and d.metrics["condition"] == "n % 256 != 0" for d in got)
    assert not any(re.search(r"\b10\d\d\b", d.message) for d in got)     # no size cudalint tried


def test_a_size_the_program_gives_keeps_its_figures_and_severity(tmp_path):
    src = NOGUARD.replace("void run(const float* a, float* c, int n) {", "void run(const float* a, float* c) {\n"
                          "  const int n = 1000;")
    got = [d for d in lint(tmp_path, src) if d.code == "CL202"]
    assert got and all(d.severity == "error" and "n = 1000" in d.message for d in got)


def test_a_size_the_program_makes_a_multiple_of_the_block_has_no_excess(tmp_path):
    src = NOGUARD.replace("void run(const float* a, float* c, int n) {", "void run(const float* a, float* c) {\n"
                          "  const int n = 4096;")
    got = [d for d in lint(tmp_path, src) if d.code == "CL202"]
    # no thread passes n = 4096 = 16 blocks of 256: no warning, an info on what keeps it inside
    assert got and all(d.severity == "info" and "only because n = 4096 is a multiple of 256" in d.message
                       for d in got)


ROWS_OF_WARPS = """__global__ void norm(float* out, const float* inp, int N, int C) {
  int idx = blockIdx.x * blockDim.y + threadIdx.y;
  if (idx > N) return;
  for (int c = threadIdx.x; c < C; c += 32) out[idx * C + c] = inp[idx * C + c];
}
void run(float* out, const float* inp, int N, int C) {
  norm<<<(N + 7) / 8, dim3(32, 8)>>>(out, inp, N, C);
}
"""


def test_the_grid_rounds_rows_of_warps_by_the_block_s_y_edge(tmp_path):
    # one row per warp: the grid is ceil(N / blockDim.y), and `idx > N` lets row N through
    got = [d for d in lint(tmp_path, ROWS_OF_WARPS) if d.code == "CL202"]
    assert got and all("whenever N % 8 != 0" in d.message for d in got)
    fixed = lint(tmp_path, ROWS_OF_WARPS.replace("idx > N", "idx >= N"))
    assert not [d for d in fixed if d.code == "CL202"]


PERMUTE = """__global__ void permute(float* q, const float* inp, int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * T * HS) {
    int b = idx / (NH * T * HS);
    q[idx] = inp[b * T * NH * HS + idx % (NH * T * HS)];
  }
}
void run(float* q, const float* inp, int B, int T, int NH, int HS) {
  permute<<<(B * NH * T * HS + 255) / 256, 256>>>(q, inp, B, T, NH, HS);
}
"""


def test_sizes_multiplied_together_are_tried_at_values_whose_product_fits_32_bits(tmp_path):
    # four sizes of 1000 would overflow the kernel's own `int` guard and make findings of that
    diags = lint(tmp_path, PERMUTE)
    assert not [d for d in diags if d.code in ("CL202", "CL203")]


def test_no_warning_on_the_samples_quotes_a_size_cudalint_made_up():
    for path in sorted(SAMPLES.glob("*.cu")):
        text = path.read_text()
        for d in warnings(lint_paths([str(path)], Config()).diagnostics):
            for made_up, source in (("1000", "1000"), ("1001", "1001"), ("4000", "1000")):
                if made_up in d.message:     # a figure made of a size: the sample gives that size
                    assert source in text, f"{path.name}:{d.line}: {d.message}"


@pytest.mark.parametrize("name", ["tail_guard_open", "guard_off_by_one", "guard_2d_and", "store_after_guard",
                                  "grid_tiles"])
def test_each_range_pattern_has_a_pair_whose_bad_half_states_a_condition(name):
    bad = [d for d in lint_paths([str(SAMPLES / f"{name}_bad.cu")], Config()).diagnostics if d.code == "CL202"]
    good = [d for d in lint_paths([str(SAMPLES / f"{name}_good.cu")], Config()).diagnostics if d.code == "CL202"]
    assert bad and not good
    assert all(re.search(r"whenever \w+ % \d+ != 0", d.message) for d in bad)


def test_a_neighbour_read_before_the_edge_check_leaves_the_allocation_the_host_passes():
    bad = lint_paths([str(SAMPLES / "neighbour_read_bad.cu")], Config()).diagnostics
    good = lint_paths([str(SAMPLES / "neighbour_read_good.cu")], Config()).diagnostics
    got = [d for d in bad if d.code == "CL201"]
    assert len(got) == 1 and got[0].line == 6 and got[0].severity == "error"
    assert "below 0" in got[0].message and "n * 4 bytes allocated" in got[0].message
    assert not [d for d in good if d.code == "CL201"]


def test_a_host_check_that_keeps_the_size_a_multiple_of_the_block_rules_the_tail_out(tmp_path):
    src = NOGUARD.replace("void run(const float* a, float* c, int n) {",
                          "void run(const float* a, float* c, int n) {\n  assert(n % 256 == 0);")
    assert not [d for d in lint(tmp_path, src) if d.code == "CL202"]


def test_values_the_calls_pass_decide_and_the_finding_says_which(tmp_path):
    src = """__global__ void scal(int n, const float* x, int incx, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * incx];
}
void scal_gpu(int n, const float* x, int incx, float* y) {
  scal<<<(n + 255) / 256, 256>>>(n, x, incx, y);
}
void use(const float* m, float* col, int rows) {
  scal_gpu(rows, m, 1, col);
  scal_gpu(rows, m, 64, col);
}
"""
    got = [d for d in lint(tmp_path, src) if d.code == "CL101"]
    assert len(got) == 1 and got[0].severity == "warning"
    assert "when incx = 64" in got[0].message and "lanes 256 B apart" in got[0].message
    assert not [d for d in lint(tmp_path, src.replace("m, 64, col", "m, 1, col")) if d.code == "CL101"]


def test_threads_meeting_only_at_a_trials_ratio_of_open_sizes_are_no_error(tmp_path):
    """`hidden / heads` is 1 where a trial sets both sizes alike: two threads meeting there do not
    meet for the program's sizes, which it does not give: no CL302 error."""
    f = tmp_path / "heads.cu"
    f.write_text("""
__global__ void split_heads(float* out, const float* in, int heads, int hidden) {
  int head_dim = hidden / heads;
  int d = threadIdx.x, h = threadIdx.y;
  out[blockIdx.x * hidden + h * head_dim + d] = in[blockIdx.x * hidden + d * heads + h];
}
""")
    res = lint_paths([str(f)], Config(jobs=1))
    assert not [d for d in res.diagnostics if d.code == "CL302" and d.severity == "error"]
    shown = lint_paths([str(f)], Config(jobs=1, show_uncertain=True))
    assert [d.code for d in shown.diagnostics if d.code == "CL302"] == ["CL302"]


def test_an_open_stride_quotes_no_sector_count_and_a_template_type_is_no_class(tmp_path):
    """threadIdx.x strides `rows`, a size the program does not give: the message says the cause,
    not the sectors a trial counted; `OtherReal`, a template parameter no launch binds, is not the
    unit's empty class of that name (1 byte)."""
    f = tmp_path / "t.cu"
    f.write_text("""
class OtherReal {};
template <typename Real, typename OtherReal>
__global__ void copy(Real* y, const OtherReal* x, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < cols && j < rows) y[j * cols + i] = x[i * rows + j];
}
""")
    (d,) = [d for d in lint_paths([str(f)], Config(jobs=1)).diagnostics if d.code == "CL102"]
    assert "threadIdx.x strides rows" in d.message
    assert "more sectors/request than the ideal 4" in d.message
    assert not re.search(r"\b\d+ sectors/request", d.message)


def test_a_template_type_named_like_a_class_of_unknown_size_is_still_simulated(tmp_path):
    f = tmp_path / "r.cu"
    f.write_text("""
struct Real { Missing m; };
template <typename Real>
__global__ void block_sum(const Real* x, Real* out) {
  __shared__ Real ssum[256];
  int tid = threadIdx.x;
  ssum[tid] = x[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s) ssum[tid] += ssum[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = ssum[0];
}
void run(const float* x, float* out, int n) { block_sum<<<n / 256, 256>>>(x, out); }
""")
    res = lint_paths([str(f)], Config(jobs=1, show_limits=True))
    assert not [d for d in res.diagnostics if "is not known" in d.message]
    (table,) = res.tables
    assert all(not a.unresolved for a in table.accesses)


def test_a_region_carved_out_of_a_buffer_keeps_its_own_leading_dimension(tmp_path):
    """`red[(2 * n + 0) * groups + g]` and, in a region at `red + n * groups * 2`, a table of width
    c: two layouts of two regions, not one array with two pitches (CL301)."""
    f = tmp_path / "red.cu"
    f.write_text("""
struct Params { float* red; int n, groups, c, cpg, cpb; };
__global__ void finish(Params p, float* out) {
  int ni = blockIdx.z;
  int ci = blockIdx.x * p.cpb + threadIdx.x * 2;
  int gi = ci / p.cpg;
  float m = 0.f;
  if (gi < p.groups) m = p.red[(2 * ni + 0) * p.groups + gi];
  float* tail = &p.red[p.n * p.groups * 2];
  int ck = blockIdx.x * p.cpb + threadIdx.x;
  if (ck < p.c) out[ck] = tail[1 * p.c + ck] + m;
}
""")
    res = lint_paths([str(f)], Config(jobs=1))
    assert not [d for d in res.diagnostics if d.code == "CL301" and "leading dimension" in d.message]


def test_a_block_edge_that_is_a_bound_of_the_kernel_may_be_one(tmp_path):
    """`dim3 block(ne13, ne12)` with `if (i13 >= ne13 || i12 >= ne12) return`: ne13 is a problem size
    and may be 1 (then threadIdx.x takes one value): no y-major warning that rests on it."""
    f = tmp_path / "ptrs.cu"
    f.write_text("""
__global__ void ptrs(float** out, float* base, long ne12, long ne13, long stride) {
  long i13 = blockIdx.x * blockDim.x + threadIdx.x;
  long i12 = blockIdx.y * blockDim.y + threadIdx.y;
  if (i13 >= ne13 || i12 >= ne12) return;
  out[i12 + i13 * ne12] = base + i12 * stride + i13 * stride * ne12;
}
void run(float** out, float* base, long ne12, long ne13, long stride) {
  dim3 block(ne13, ne12);
  ptrs<<<1, block>>>(out, base, ne12, ne13, stride);
}
""")
    res = lint_paths([str(f)], Config(jobs=1))
    assert not [d for d in res.diagnostics if d.code in ("CL101", "CL102") and d.severity == "warning"]


def test_a_y_digit_below_x_says_the_block_height_where_the_launch_is_not_seen(tmp_path):
    """`out[(blockIdx.x * blockDim.x + threadIdx.x) * 4 + threadIdx.y]`: y is the low digit of a
    record of 4, so the kernel is written for blockDim.y == 4. With no launch in sight, a taller
    block cudalint would choose makes threads (1, 0) and (0, 4) meet: no error on that."""
    f = tmp_path / "border.cu"
    f.write_text('''
__global__ void border_max(const float* in, float* out, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  int side = threadIdx.y;
  out[index * 4 + side] = in[index * 4 + side] * 2.0f;
}
''')
    res = lint_paths([str(f)], Config(jobs=1))
    assert not [d for d in res.diagnostics if d.code == "CL302"]


BOUNDED = """
__global__ void colmajor(float* C, int n, int k) {
  int col = threadIdx.x % k;
  int row = blockIdx.x * (128 / k) + threadIdx.x / k;
  if (row >= n) return;
  C[col * n + row] += 1.0f;
}
void run(float* C, int n, int k) {
  if (k <= 16) {
    colmajor<<<(n + 127) / 128 * k, 128>>>(C, n, k);
  }
}
"""


def test_the_if_around_a_launch_bounds_the_values_a_size_is_tried_at(tmp_path):
    """`if (k <= 16)` around the launch: no launch runs k = 1000, so the trials take the largest
    values the host allows (15, 16), and the finding says so; the values above it are never tried."""
    found = [d for d in warnings(lint(tmp_path, BOUNDED)) if d.code == "CL101"]
    assert found
    text = " ".join(found[0].assumptions)
    assert "k = 15 and 16" in text and "k = 1000" not in text


HISTO_STORE = """
#define NUM_B 11
#define DEPTH 4
__global__ void histo_store(const unsigned* counts, unsigned* bin, %s) {
  __shared__ unsigned pad[NUM_B * DEPTH];
  for (unsigned t = threadIdx.x; t < NUM_B * DEPTH; t += blockDim.x) pad[t] = counts[t];
  __syncthreads();
  unsigned tid = threadIdx.x;
  while (tid < DEPTH * NUM_B) {
    unsigned b = tid %% NUM_B;
    unsigned r = tid / NUM_B;
    bin[b * gridDim.x * DEPTH + blockIdx.x * DEPTH + r] = pad[b + r * NUM_B];
    tid += blockDim.x;
  }
}
void run(const unsigned* counts, unsigned* bin, unsigned n) {
  histo_store<<<(n + 1023) / 1024, 256>>>(counts, bin%s);
}
"""


def test_a_warp_the_kernels_own_count_cuts_short_counts_in_the_figures(tmp_path):
    """A loop bounded by the constant 44 runs warp 0 whole and warp 1 with 12 lanes at every size:
    both warps' requests are the program's (6 sectors where 3 would do). Only a warp a size the
    trial chose cuts short at its end is left out of a figure."""
    found = [d for d in warnings(lint(tmp_path, HISTO_STORE % ("unsigned n", ", n"))) if d.code == "CL101"]
    assert found and found[0].metrics["sectors_per_request"] == 6 and found[0].metrics["ideal_sectors"] == 3


def test_a_sector_count_the_tried_blocks_disagree_on_is_not_quoted(tmp_path):
    """The block's edge is a host value the program does not give (`dim3 threads(tile, tile)`): a
    2x2 trial gives a warp 4 lanes and 2 sectors, a 16x16 one 32 lanes and 12; the warning stands
    (every trial is uncoalesced), its message names the lanes' distance, not one trial's count."""
    f = tmp_path / "t.cu"
    f.write_text("""
__global__ void shade(float* normals, int width, int height, unsigned tile) {
  unsigned j = blockIdx.x * tile + threadIdx.x;
  unsigned i = blockIdx.y * tile + threadIdx.y;
  if (i < height && j < width)
    for (int k = 0; k < 3; ++k) normals[(i * width + j) * 3 + k] = 0.0f;
}
void run(float* n, int width, int height, unsigned tile) {
  dim3 threads(tile, tile, 1);
  dim3 grid((width + tile - 1) / tile, (height + tile - 1) / tile, 1);
  shade<<<grid, threads>>>(n, width, height, tile);
}
""")
    (d,) = [d for d in lint_paths([str(f)], Config(jobs=1)).diagnostics if d.code == "CL101"]
    assert "more sectors/request than the ideal" in d.message and "lanes 12 B apart" in d.message
    assert "sectors/request, ideal" not in d.message


def test_launches_of_one_instance_under_different_bounds_hold_the_weaker(tmp_path):
    """One instance launched in two cases of the host's `switch (mode)`, one under `kernel_w <= 4`,
    one under `kernel_w <= 2`: what holds at either launch is `kernel_w <= 4` (neither check is
    common to both as written), so the filter's taps are tried at widths the program runs."""
    src = (Path(__file__).resolve().parent.parent / "samples" / "mode_switch_bound_good.cu").read_text()
    src = src.replace("fir<1, 2, 2><<<", "fir<1, 4, 4><<<")
    f = tmp_path / "t.cu"
    f.write_text(src)
    assert not [d for d in lint_paths([str(f)], Config(jobs=1)).diagnostics if d.code == "CL101"]


def test_a_step_over_an_open_grid_is_the_program_s_expression(tmp_path):
    # `idx_y * gridDim.x + idx_x` where the grid is `width / 16` of a width the host computes out of
    # sight: the step is written `width / 16`, not the 62 of a tried width of 1000
    diags = lint(tmp_path, """__global__ void k(float* out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * gridDim.x + x] = 1.0f;
}
void run(float* out, int width, int height) { k<<<dim3(width / 16, height / 8), dim3(16, 8)>>>(out, width); }
""")
    [d] = [d for d in diags if d.code == "CL301"]
    assert "steps (width / 16)" in d.message and "62" not in d.message
    assert d.metrics["stride"] == "(width / 16)"


def test_a_narrow_block_s_rows_are_the_cause_the_help_names(tmp_path):
    # bytes of a 16-wide block: a row's lanes are adjacent, two rows share a warp; the help asks
    # for a wider block, not for threadIdx.x to move by one element (it already does)
    from cudalint.rules import BY_CODE
    diags = lint(tmp_path, """__global__ void mask(const unsigned char* src, unsigned char* dst, int w, int h, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  dst[y * pitch + x] = src[y * pitch + x] ? 255 : 0;
}
// cudalint: param w=1024 h=1024 pitch=1024
void run(const unsigned char* src, unsigned char* dst, int w, int h, int pitch) {
  mask<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(src, dst, w, h, pitch);
}
""")
    found = [d for d in diags if d.code == "CL101"]
    assert found and all("runs of 16" in d.message for d in found)
    assert all(BY_CODE["CL101"].help(d).startswith("a warp reads 2 rows of the block's 16 lanes") for d in found)


POOL = """__global__ void pool(const float* in, float* out, const float* rois, int sampling_ratio, int w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int grid_h = sampling_ratio > 0 ? sampling_ratio : (int)ceilf(rois[i]);
    float s = 0.0f;
    for (int iy = 0; iy < grid_h; iy++)
        s += in[i * w + iy];
    out[i] = s;
}

void run(const float* in, float* out, const float* rois, int w, int n)
{
    pool<<<(n + 255) / 256, 256>>>(in, out, rois, RATIO, w, n);
}
"""


@pytest.mark.parametrize("ratio, counted", [("2", True), ("0", False)])
def test_a_choice_every_thread_makes_alike_reads_only_the_arm_it_takes(tmp_path, ratio, counted):
    """`ratio > 0 ? ratio : <data>` with the launch's ratio: C evaluates the arm the test picks, so
    the loop's count is the program's 2, and only at 0 is it the data the model does not follow."""
    f = tmp_path / "pool.cu"
    f.write_text(POOL.replace("RATIO", ratio))
    notes = [d.message for d in lint_paths([str(f)], Config(jobs=1, show_limits=True)).diagnostics
             if d.code == "CL901" and "iteration count of the loop over `iy`" in d.message]
    assert (not notes) == counted


def test_an_arm_not_taken_gives_its_type_and_nothing_else():
    """A test of one value for every lane evaluates one arm; the other's unknown (a load) does not
    stop it, and its wider type still makes the result's type, as in C."""
    import numpy as np

    from cudalint.index import ir
    from cudalint.index.evaluate import Evaluator, Unknown

    flag, i = ir.Sym("flag", "param"), ir.Sym("i", "param")
    wide = ir.Cast(ir.TypeRef("long long"), ir.Sym("data", "load"))
    env = {"flag": np.int64(0), "i": np.arange(4, dtype=np.int64)}
    value, ctype = Evaluator(env).eval(ir.Cond(flag, wide, i))
    assert list(value) == [0, 1, 2, 3] and ctype == "i64"
    with pytest.raises(Unknown):
        Evaluator({**env, "flag": np.int64(1)}).value(ir.Cond(flag, wide, i))
    # a test that differs between lanes still needs both arms
    with pytest.raises(Unknown):
        Evaluator({**env, "flag": np.array([0, 1, 0, 1])}).value(ir.Cond(flag, wide, i))


MASK_ROWS = """namespace at { namespace cuda { int ATenCeilDiv(int a, int b); } }
__global__ void mask_rows(int n, const float* boxes, unsigned long long* mask) {
  int row = blockIdx.y * 64 + threadIdx.x;
  if (row < n) {
    const int blocks = at::cuda::ATenCeilDiv(n, 64);
    mask[row * blocks + blockIdx.x] = boxes[row] > 0.5f;
  }
}
void launch(int n, const float* boxes, unsigned long long* mask) {
  dim3 grid((n + 63) / 64, (n + 63) / 64);
  mask_rows<<<grid, 64>>>(n, boxes, mask);
}
"""


def test_a_library_division_rounded_up_is_read_as_one(tmp_path):
    # ATen's ceil-division has no body in the files read: it is (n + 63) / 64, so the store's lanes
    # are 8 * ceil(n / 64) bytes apart, with its figure as that expression, not an unfollowed call
    diags = lint(tmp_path, MASK_ROWS)
    store = [d for d in diags if d.array == "mask"]
    assert [d.code for d in store] == ["CL101"]
    assert "(n + 63) / 64" in store[0].message and "not simulated" not in store[0].message


HEAD_DIMS = """template <int D>
__global__ void rows(float* out, const float* in) {
  __shared__ float tile[128 * (D + 1)];
  int r = threadIdx.x;
  for (int i = 0; i < D; ++i) tile[r * D + i] = in[blockIdx.x * 128 * D + r * D + i];
  __syncthreads();
  out[blockIdx.x * 128 + r] = tile[r * D];
}
template <int D> void launch(float* out, const float* in, int n) { rows<D><<<n, 128>>>(out, in); }
void run(float* out, const float* in, int n, int d) {
  switch (d) {
  case 1: launch<1>(out, in, n); break;
  case 2: launch<2>(out, in, n); break;
  case 3: launch<3>(out, in, n); break;
  case 5: launch<5>(out, in, n); break;
  case 64: launch<64>(out, in, n); break;
  }
}
"""


def test_values_of_the_program_no_run_took_are_said(tmp_path):
    # five instances, four runs: a finding made by some runs names the values it was made at and
    # the one no run took, and every finding of the kernel says that value was not analysed
    diags = [d for d in lint(tmp_path, HEAD_DIMS) if d.severity in ("warning", "error")]
    assert diags
    assert all("D = 64 not analysed" in " ".join(d.assumptions) for d in diags)
    when = [d for d in diags if "(when D = " in d.message]
    assert when and all("64 not analysed" in d.message for d in when)


FLAGS3 = """template <bool Wide, bool Neg, bool Acc>
__global__ void scale(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = Wide ? in[i * 4] : in[i];
    v = Neg ? -v : v;
    out[i] = Acc ? out[i] + v : v;
  }
}
template <bool Wide, bool Neg, bool Acc>
void run(const float* in, float* out, int n) { scale<Wide, Neg, Acc><<<(n + 255) / 256, 256>>>(in, out, n); }
void all(const float* in, float* out, int n) {
  run<false, false, false>(in, out, n);
  run<true, true, true>(in, out, n);
  run<false, true, true>(in, out, n);
  run<true, false, false>(in, out, n);
}
"""


def test_a_finding_of_some_runs_names_only_the_value_it_rests_on(tmp_path):
    # three flags, eight combinations, four runs: the runs are chosen so that no two flags always
    # move together, and the strided load is said to rest on `Wide` alone
    (d,) = warnings(lint(tmp_path, FLAGS3))
    assert "(when Wide = 1" in d.message and "Neg =" not in d.message and "Acc =" not in d.message


UNBOUND_WIDE = """template <typename T, bool Wide>
__global__ void pick(const unsigned* flags, T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Wide ? (T)flags[i * 4] : (T)flags[i];
}
template <typename T, bool Wide>
void run(const unsigned* flags, T* out, int n) { pick<T, Wide><<<(n + 255) / 256, 256>>>(flags, out, n); }
template <typename T>
void both(const unsigned* flags, T* out, int n) {
  run<T, false>(flags, out, n);
  run<T, true>(flags, out, n);
}
"""


def test_a_finding_of_a_later_run_is_asked_at_other_widths_at_that_runs_values(tmp_path):
    # `T` is bound by no launch, so byte findings are asked again with a 2-byte T; the strided load
    # of the 4-byte flags runs only where Wide = 1, and is asked there, not at the first run's Wide = 0
    (d,) = warnings(lint(tmp_path, UNBOUND_WIDE))
    assert d.code == "CL101" and "flags[i * 4]" in d.message and "(when Wide = 1" in d.message


POINTER_PASSED = """#include <string>
template <int PAD>
__global__ void k(float* c, int M, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M) c[i * (N + PAD)] = 1.0f;
}
template <int PAD>
void launch(float* a, float* c, int M, int N) { dim3 grid((M + 255) / 256); k<PAD><<<grid, 256>>>(c, M, N); }
template <typename T>
float perf(void (*fn)(T*, T*, int, int), int M, int N, int warmup) {
  T *a, *c;
  cudaMalloc(&c, M * N * sizeof(T));
  for (int i = 0; i < warmup; ++i) fn(a, c, M, N);
  return 0.f;
}
int main(int argc, char** argv) {
  int M = 4096, N = 4096, W = 7;
  if (argc > 1) M = std::stoi(argv[1]);
  if (argc > 2) N = std::stoi(argv[2]);
  if (argc > 3) W = std::stoi(argv[3]);
  perf<float>(launch<0>, M, N, W);
  return 0;
}
"""


def test_a_function_passed_as_a_pointer_is_not_called_with_the_callers_arguments(tmp_path):
    # `perf<float>(launch<0>, M, N, W)` passes a pointer to `launch`: its arguments are `perf`'s, not
    # `launch`'s, so `launch`'s N is not read as the 7 of the warm-up count W
    diags = lint(tmp_path, POINTER_PASSED, show_uncertain=True)
    assert diags and not any("7" in d.message for d in diags if d.code == "CL101")
