"""CL501 missing-barrier and CL502 divergent-barrier: each test states a kernel and its findings."""
import pytest

from cudalint.lint import Config, lint_paths

from conftest import SAMPLES, sample_files


def findings(tmp_path, body, block="256", params=None, extra="", defines=None):
    src = f"""{extra}
__global__ void k(const float* in, float* out, int n, int flag) {{
{body}
}}
void run(const float* in, float* out, int n, int flag) {{
  k<<<16, {block}>>>(in, out, n, flag);
}}
"""
    path = tmp_path / "k.cu"
    path.write_text(src)
    diags = lint_paths([str(path)], Config(debug=True, params=params or {"n": 4096},
                                            defines=defines or {})).diagnostics
    head = src.split("\n").index(next(l for l in src.split("\n") if l.startswith("__global__"))) + 1
    # keys count lines from the kernel's head: the body's opening blank line is line 1
    return {(d.line - head, d.code): d for d in diags if d.code in ("CL501", "CL502")}


def test_neighbour_read_without_barrier_races(tmp_path):
    got = findings(tmp_path, """
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 1) % 256];""")
    (key,) = got
    assert key == (4, "CL501")
    msg = got[key].message
    assert "reads `s[(threadIdx.x + 1) % 256]` that thread 0 stores at line 5" in msg
    assert got[key].metrics["store_line"] == got[key].line - 1


def test_barrier_between_store_and_read_is_clean(tmp_path):
    assert findings(tmp_path, """
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 1) % 256];""") == {}


def test_reading_back_own_element_needs_no_barrier(tmp_path):
    assert findings(tmp_path, """
  __shared__ float s[2][256];
  s[0][threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  s[1][threadIdx.x] = s[0][threadIdx.x] * 2.0f;
  out[blockIdx.x * 256 + threadIdx.x] = s[1][threadIdx.x] + s[0][threadIdx.x];""") == {}


def test_syncwarp_orders_a_warp_but_not_the_block(tmp_path):
    body = """
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncwarp();
  out[blockIdx.x * 256 + threadIdx.x] = s[OTHER];"""
    assert findings(tmp_path, body.replace("OTHER", "(threadIdx.x / 32) * 32 + (threadIdx.x + 1) % 32")) == {}
    got = findings(tmp_path, body.replace("OTHER", "(threadIdx.x + 32) % 256"))
    (d,) = got.values()
    assert d.code == "CL501" and "add __syncthreads() between (the warp-level sync between them orders one warp only)" in d.message


def test_missing_second_barrier_of_a_tiled_loop_is_a_race_across_iterations(tmp_path):
    body = """
  __shared__ float tile[256];
  float acc = 0.0f;
  for (int t = 0; t < n / 256; ++t) {
    tile[threadIdx.x] = in[t * 256 + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 256; ++k)
      acc += tile[k];
    SECOND
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;"""
    got = findings(tmp_path, body.replace("SECOND", ""))
    d = got[(8, "CL501")]
    assert "in the next iteration of the `t` loop; add __syncthreads() at the end of the loop body" in d.message
    assert d.metrics["loop_line"] == d.line - 4
    assert findings(tmp_path, body.replace("SECOND", "__syncthreads();")) == {}


_FLAG_BARRIER = """
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  if (flag) __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];"""


def test_uniform_conditional_barrier_does_not_separate(tmp_path):
    """`if (flag) __syncthreads();`: the whole block skips the barrier where flag is 0, and then
    the read races with the store; where the program passes 1 it does not."""
    got = findings(tmp_path, _FLAG_BARRIER, params={"n": 4096, "flag": 0})
    assert set(got) == {(5, "CL501")} and got[(5, "CL501")].severity == "error"
    assert findings(tmp_path, _FLAG_BARRIER, params={"n": 4096, "flag": 1}) == {}


def test_uniform_conditional_barrier_on_an_open_flag_is_a_condition(tmp_path):
    """With no value of `flag` from the program the race holds only for some of its values: an info
    naming them (`--show-uncertain`), no error."""
    assert findings(tmp_path, _FLAG_BARRIER) == {}
    path = tmp_path / "k.cu"
    diags = lint_paths([str(path)], Config(params={"n": 4096}, show_uncertain=True)).diagnostics
    (d,) = [d for d in diags if d.code == "CL501"]
    assert d.severity == "info" and "flag" in d.message


def test_atomics_on_shared_memory_then_barrier_are_clean(tmp_path):
    assert findings(tmp_path, """
  __shared__ int hist[16];
  if (threadIdx.x < 16) hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[threadIdx.x % 16], 1);
  __syncthreads();
  if (threadIdx.x < 16) out[blockIdx.x * 16 + threadIdx.x] = hist[threadIdx.x];""") == {}


def test_barrier_under_thread_condition_diverges(tmp_path):
    got = findings(tmp_path, """
  __shared__ float s[256];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x % 16];""")
    d = got[(5, "CL502")]
    assert "`threadIdx.x < 16`" in d.message and "thread 16 does not" in d.message


_TAIL_IF = """
  __shared__ float s[256];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[15 - threadIdx.x];
  }"""


def test_barrier_in_an_if_that_ends_the_kernel_is_an_exit_from_sm70(tmp_path):
    """The threads that fail the test run nothing more: they exit, as after `if (...) return;`
    (synccheck on an H100 reports nothing; with a statement after the `if` it reports divergence)."""
    assert (5, "CL502") not in findings(tmp_path, _TAIL_IF)
    assert (5, "CL502") in findings(tmp_path, _TAIL_IF, defines={"__CUDA_ARCH__": "600"})


def test_an_if_inside_a_loop_or_a_helper_does_not_end_the_kernel(tmp_path):
    looped = """
  __shared__ float s[256];
  for (int r = 0; r < 4; ++r) {
    if (threadIdx.x < 16) {
      s[threadIdx.x] = in[threadIdx.x + r];
      __syncthreads();
    }
  }"""
    assert (6, "CL502") in findings(tmp_path, looped)
    helper = """
__device__ void stage(float* s, const float* in) {
  if (threadIdx.x < 16) {
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
  }
}"""
    got = findings(tmp_path, """
  __shared__ float s[256];
  stage(s, in);
  out[threadIdx.x] = s[threadIdx.x % 16];""", extra=helper)
    assert any(code == "CL502" for _, code in got)


@pytest.mark.parametrize("cond", ["blockIdx.x < 8", "flag > 0", "n > 100", "threadIdx.x < 512"])
def test_barrier_under_uniform_condition_is_clean(tmp_path, cond):
    assert findings(tmp_path, f"""
  __shared__ float s[256];
  if ({cond}) {{
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[255 - threadIdx.x];
  }}""") == {}


def test_barrier_after_thread_dependent_return_diverges_only_when_some_threads_return(tmp_path):
    body = """
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[255 - threadIdx.x];"""
    sm60 = {"__CUDA_ARCH__": "600"}     # from sm_70 on, threads that returned count as arrived
    assert findings(tmp_path, body, params={"n": 1000}) == {}
    d = findings(tmp_path, body, params={"n": 1000}, defines=sm60)[(6, "CL502")]
    assert "early `return` at line" in d.message
    assert findings(tmp_path, body, params={"n": 4096}, defines=sm60) == {}    # 16 blocks x 256: nobody returns


def test_barrier_in_loop_with_thread_dependent_trip_count(tmp_path):
    body = """
  __shared__ float s[256];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[255 - threadIdx.x];
    __syncthreads();
  }"""
    got = findings(tmp_path, body, params={"n": 1000})
    assert {k for k in got} == {(5, "CL502"), (7, "CL502")}
    assert "whose trip count varies" in got[(5, "CL502")].message
    assert findings(tmp_path, body, params={"n": 1024}) == {}


def test_cooperative_groups_barriers(tmp_path):
    cg = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;"
    body = """
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  s[threadIdx.x] = in[threadIdx.x];
  BARRIER;
  out[threadIdx.x] = s[255 - threadIdx.x];"""
    for barrier in ("block.sync()", "cg::sync(block)", "cg::this_thread_block().sync()", "__syncthreads_or(1)"):
        assert findings(tmp_path, body.replace("BARRIER", barrier), extra=cg) == {}, barrier
    got = findings(tmp_path, body.replace("BARRIER", "warp.sync()"), extra=cg)
    assert [k[1] for k in got] == ["CL501"]


def test_barriers_are_recorded_in_program_order_with_scope_and_exits(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text("""#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* s_out, int n) {
  __shared__ float s[256];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (threadIdx.x >= n) return;
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  for (int j = 0; j < 4; ++j) {
    __syncwarp();
    tile.sync();
  }
  s_out[threadIdx.x] = s[threadIdx.x];
}
""")
    (t,) = lint_paths([str(path)], Config(debug=True)).tables
    b = t.barriers
    assert [(x.line, x.scope) for x in b] == [(8, "block"), (10, "warp"), (11, "warp")]
    assert [e.line for e in b[0].exits] == [6] and b[0].exits[0].kind == "return"
    store = next(a for a in t.accesses if a.array.name == "s" and a.kind == "store")
    assert store.seq < b[0].seq < b[1].seq
    loop = t.iterators[0]
    assert loop.seq_start < b[1].seq < loop.seq_end and b[1].loops == (loop,)
    assert not loop.has_barrier         # warp barriers do not make a tile loop


def test_no_sync_findings_on_samples_without_sync_annotations():
    """Zero false alarms: CL501/CL502 appear only where a sample expects them."""
    from conftest import expected_findings
    result = lint_paths([str(SAMPLES)], Config(debug=True))
    for path in sample_files():
        got = {(d.line, d.code) for d in result.diagnostics if d.path == str(path) and d.code in ("CL501", "CL502")}
        want = {f for f in expected_findings(path) if f[1] in ("CL501", "CL502")}
        assert got == want, path.name


def test_only_the_last_iteration_of_a_loop_holding_a_barrier_meets_the_code_after_it(tmp_path):
    body = """
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  for (int d = 128; d > 0; d >>= 1) {
    BARRIER
    if (threadIdx.x < d)
      s[(256 / d) * (threadIdx.x + 1) - 1] += s[(256 / d) * (threadIdx.x + 1) - 1 - 128 / d];
  }
  if (threadIdx.x == 0) s[255] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];"""
    # s[255] is written by thread 127, 63, ... 0 in successive steps; after the loop only thread 0's matters
    assert findings(tmp_path, body.replace("BARRIER", "__syncthreads();")) == {}
    got = findings(tmp_path, body.replace("BARRIER", ""))
    assert (7, "CL501") in got


def test_shared_scalar_published_by_one_thread(tmp_path):
    body = """
  __shared__ float total;
  if (threadIdx.x == 0) total = 0.0f;
  __syncthreads();
  atomicAdd(&total, in[blockIdx.x * 256 + threadIdx.x]);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = total;
  BARRIER
  if (threadIdx.x == 0) total = 1.0f;"""
    assert findings(tmp_path, body.replace("BARRIER", "__syncthreads();")) == {}
    got = findings(tmp_path, body.replace("BARRIER", ""))
    (d,) = got.values()
    assert d.code == "CL501" and d.metrics["store_line"] == d.line + 2   # reported at the read, names the store
    assert "reads `total` that thread 0 stores at line" in d.message


def test_barrier_under_a_condition_on_loaded_data_is_named_as_unchecked(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text("""
__global__ void k(const int* flags, float* out) {
  __shared__ float s[256];
  s[threadIdx.x] = 1.0f;
  if (flags[threadIdx.x]) __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
void run(const int* f, float* o) { k<<<4, 256>>>(f, o); }
""")
    diags = lint_paths([str(path)], Config(debug=True, show_limits=True)).diagnostics
    (note,) = [d for d in diags if d.code == "CL901" and "is not checked" in d.message]
    assert note.line == 5 and "a value loaded from `flags`" in note.message and note.severity == "info"
    assert not [d for d in diags if d.code == "CL502"]


def test_a_barrier_in_a_loop_condition_separates_iterations(tmp_path):
    body = """
  __shared__ float d[256];
  d[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  int changed;
  do {
    float left = d[(threadIdx.x + 255) % 256] + 1.0f;
    __syncthreads();
    changed = left < d[threadIdx.x];
    if (changed) d[threadIdx.x] = left;
  } while (COND);
  out[blockIdx.x * 256 + threadIdx.x] = d[threadIdx.x];"""
    assert findings(tmp_path, body.replace("COND", "__syncthreads_or(changed)")) == {}
    # without it, a thread's store meets its neighbour's read in the next iteration
    got = findings(tmp_path, body.replace("COND", "changed"))
    assert "in the next iteration of the loop at line 8" in got[(7, "CL501")].message


def test_a_nested_early_return_still_guards_the_code_after_its_block(tmp_path):
    body = """
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flag >= 0) {
    if (i >= n) return;
  }
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[255 - threadIdx.x];"""
    path = tmp_path / "k.cu"
    got = findings(tmp_path, body, params={"n": 1000, "flag": 1}, defines={"__CUDA_ARCH__": "600"})
    assert "early `return` at line" in got[(8, "CL502")].message
    # the load of in[i] is guarded by the nested return: no unguarded-access finding for it
    diags = lint_paths([str(path)], Config(debug=True, params={"n": 1000, "flag": 1})).diagnostics
    assert not [d for d in diags if d.code == "CL202"]


def test_an_early_return_before_a_barrier_counts_as_arrived_from_sm_70_on():
    path = str(SAMPLES / "early_return_barrier_good.cu")
    assert not [d for d in lint_paths([path], Config(debug=True)).diagnostics if d.code == "CL502"]
    older = lint_paths([path], Config(debug=True, defines={"__CUDA_ARCH__": "600"})).diagnostics
    assert [(d.line, d.code) for d in older if d.code == "CL502"] == [(15, "CL502")]


def test_a_barrier_under_a_negated_condition_of_the_launchs_values(tmp_path):
    """`if (!flag) __syncthreads();` with the program passing flag = 0: the whole block takes the
    barrier, and the read after it does not race (the negation is evaluated over the launch's
    values, not a failure of the analysis)."""
    body = """
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  if (!flag) __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];"""
    assert findings(tmp_path, body, params={"n": 4096, "flag": 0}) == {}
    assert set(findings(tmp_path, body, params={"n": 4096, "flag": 1})) == {(5, "CL501")}


TRAP_PRECONDITION = """
__global__ void kern(float4* dinp, const float4* dout, int N, int C)
{
    %s
    extern __shared__ float tmp_shared[];
    int warpId = threadIdx.x / 32, lane = threadIdx.x %% 32;
    int warpsInGrid = gridDim.x * (blockDim.x / 32);
    int iterations_C = (C + 127) / 128 + 2;
    for (int idx = blockIdx.x * (blockDim.x / 32) + warpId; idx < N; idx += warpsInGrid) {
        for (int i = 0; i < iterations_C; i++) {
            int g = lane * 4 + i * 128;
            if (g >= C) { break; }
            float4 d = dout[(idx * C + g) / 4];
            if (warpId != 0) tmp_shared[threadIdx.x] = d.x;
            __syncthreads();
            if (warpId == 0) d.y += tmp_shared[threadIdx.x + 32];
            __syncthreads();
            dinp[(idx * C + g) / 4] = d;
        }
    }
}
void launch(float4* dinp, const float4* dout, int N, int C)
{
    kern<<<132, 256, 256 * sizeof(float)>>>(dinp, dout, N, C);
}
int main() { launch(0, 0, 8192, 1600); }
"""


def test_a_trap_ends_the_launch_so_the_code_after_it_runs_only_where_its_test_fails(tmp_path):
    # `__trap()` unless C % 128 == 0: at the program's C = 1600 the kernel does no work, and at any C
    # that runs, the lanes of a warp leave the column loop together; without the trap, C = 1600
    # leaves lanes 16..31 out of the barriers
    path = tmp_path / "k.cu"
    path.write_text(TRAP_PRECONDITION % "if (C % 128 != 0) { __trap(); }")
    codes = [d.code for d in lint_paths([str(path)], Config()).diagnostics if d.severity != "info"]
    assert "CL502" not in codes
    path.write_text(TRAP_PRECONDITION % "")
    codes = [d.code for d in lint_paths([str(path)], Config()).diagnostics if d.severity != "info"]
    assert "CL502" in codes


def test_a_block_collective_in_a_statement_cudalint_cannot_read_is_still_a_barrier(tmp_path):
    # `BlockReduce(temp).Reduce(v, max_op<T>)`: the template argument is not read, the barrier
    # inside the collective still orders the read of `selected` before thread 0's next store
    path = tmp_path / "k.cu"
    path.write_text("""
template <typename T> __device__ T max_op(const T& a, const T& b) { return a > b ? a : b; }
template <typename T, int BLOCK>
__global__ void topk(const T* in, int* out, int k, int n) {
  typedef cub::BlockReduce<T, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ int selected;
  if (threadIdx.x == 0) selected = 0;
  __syncthreads();
  for (int it = 0; it < 2 * k; it++) {
    T v = in[blockIdx.x * n + threadIdx.x];
    T best = BlockReduce(temp).Reduce(v, max_op<T>);
    if (threadIdx.x == 0) { out[blockIdx.x * k + selected] = (int)best; selected++; }
    __syncthreads();
    if (selected >= k) break;
  }
}
void run(const float* in, int* out, int k, int batch) { topk<float, 256><<<batch, 256>>>(in, out, k, 256); }
""")
    assert not [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL501"]


def test_each_launch_written_out_for_a_template_value_keeps_its_own_check(tmp_path):
    # `if (n % 32 == 0) k<32><<<...>>>` then `if (n % 16 == 0) k<16><<<...>>>`: the 32 instance runs
    # where n is a multiple of 32, so every thread of a block runs the plane loop as often
    path = tmp_path / "k.cu"
    path.write_text("""
template <int NTX>
__global__ void scale_planes(float* x, const float* noise, int rows, int n) {
  __shared__ float nz[NTX];
  for (int plane = threadIdx.x + blockIdx.x * NTX; plane < n; plane += gridDim.x * NTX) {
    if (threadIdx.y == 0) nz[threadIdx.x] = noise[plane];
    __syncthreads();
    for (int r = threadIdx.y; r < rows; r += blockDim.y) x[r * n + plane] *= nz[threadIdx.x];
    __syncthreads();
  }
}
void run(float* x, const float* noise, int rows, int n) {
  if (n % 32 == 0) { scale_planes<32><<<dim3(min(16, n / 32)), dim3(32, 32)>>>(x, noise, rows, n); return; }
  if (n % 16 == 0) { scale_planes<16><<<dim3(min(16, n / 16)), dim3(16, 64)>>>(x, noise, rows, n); return; }
  scale_planes<1><<<dim3(min(16, n)), dim3(1, 64)>>>(x, noise, rows, n);
}
""")
    assert not [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL502"]



_ARMS = """
  __shared__ float s[256];
  float acc = 0.0f;
  for (int t = 0; t < n; t++) {
    if (threadIdx.x < 128) {
      acc += s[threadIdx.x];
      __syncthreads();
      __syncthreads();
    } else {
      s[threadIdx.x - 128] = in[t * 128 + threadIdx.x - 128];
      __syncthreads();
      __syncthreads();
    }
  }
  out[threadIdx.x] = acc;"""


def test_barriers_in_both_arms_of_a_test_are_divergent_even_when_the_arms_hold_as_many(tmp_path):
    """A warp-specialized pipeline with two barriers in each arm: the counts match, and the kernel
    runs, but each `__syncthreads()` is one that half the block never reaches, which the CUDA guide
    leaves undefined and compute-sanitizer's synccheck reports on an H200 (sm_90, CUDA 13: 32
    "divergent thread(s) in block" errors, the run aborted): all four are CL502."""
    got = findings(tmp_path, _ARMS)
    assert {k for k in got if k[1] == "CL502"} == {(7, "CL502"), (8, "CL502"), (11, "CL502"), (12, "CL502")}
