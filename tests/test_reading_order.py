"""What a finding says follows the order the program runs its accesses in and the values it gives:
a read that comes before the store racing with it is fixed after the read, a helper's `__shared__`
array is one per block across its calls, and a lanes' distance made of a size the program does not
give is written as the program's expression."""
from cudalint.lint import Config, lint_paths
from cudalint.rules import BY_CODE


def help_of(d) -> str:
    """The `help:` line `--format full` prints under the finding."""
    return BY_CODE[d.code].help(d)


def lint(tmp_path, src: str, name: str = "k.cu") -> list:
    path = tmp_path / name
    path.write_text(src)
    return lint_paths([str(path)], Config()).diagnostics


WAR = """
__global__ void shift(float* out, const float* in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  float v = s[(threadIdx.x + 1) % 256];
  s[threadIdx.x] = 2.0f * v;
  out[blockIdx.x * 256 + threadIdx.x] = v;
}
void run(float* out, const float* in) { shift<<<100, 256>>>(out, in); }
"""


def test_a_read_before_the_store_racing_with_it_is_fixed_after_the_read(tmp_path):
    [d] = [d for d in lint(tmp_path, WAR) if d.code == "CL501"]
    assert d.line == 6
    assert help_of(d).startswith("put `__syncthreads()` after this read and before the store at line 7")


def test_a_store_before_the_read_racing_with_it_is_fixed_before_the_read(tmp_path):
    raw = WAR.replace("  __syncthreads();\n  float v", "  float v")
    [d] = [d for d in lint(tmp_path, raw) if d.code == "CL501"]
    assert d.line == 5 and "after the store at line 4 and before this read" in help_of(d)


HELPER = """
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ float block_sum(float v) {
  %s__shared__ float part[32];
  int lane = threadIdx.x %% 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / 32) ? part[lane] : 0.0f;
  if (warp == 0) v = warp_sum(v);
  return v;
}
__global__ void moments(const float* x, float* out, int n) {
  float s = x[blockIdx.x * n + threadIdx.x];
  s = block_sum(s);%s
  float s2 = block_sum(s * s);
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = s; out[2 * blockIdx.x + 1] = s2; }
}
void run(const float* x, float* out, int rows, int n) { moments<<<rows, 256>>>(x, out, n); }
"""


def test_a_helpers_shared_array_is_one_per_block_across_its_calls(tmp_path):
    for static in ("static ", ""):
        got = [d for d in lint(tmp_path, HELPER % (static, "")) if d.code == "CL501"]
        assert [d.line for d in got] == [12]
        assert "in a later call of `block_sum`" in got[0].message
        assert help_of(got[0]).startswith("put `__syncthreads()` between the calls of `block_sum`")
        fixed = HELPER % (static, "\n  __syncthreads();")
        assert [d for d in lint(tmp_path, fixed) if d.code == "CL501"] == []


DIAGONAL = """
__global__ void diag_part(const int num, const int n, float *y, const float *x) {
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < num; idx += blockDim.x * gridDim.x)
    y[idx] = x[idx * n + idx %% n];
}
void run(const int num, const int n, float *y, const float *x) {
  diag_part<<<(num + 511) / 512, 512>>>(num, n, y, x);%s
}
"""


def test_a_lanes_distance_made_of_several_terms_and_an_open_size_is_the_programs_expression(tmp_path):
    [d] = [d for d in lint(tmp_path, DIAGONAL % "") if d.code == "CL101"]
    assert "4·(n + 1) B apart" in d.message and "4004" not in d.message and "1000" not in d.message
    assert "32 sectors" not in d.message
    # at the program's own n the figures are the program's: 4·(7 + 1) bytes
    caller = "\n}\nvoid top(float *y, const float *x) {\n  run(4096, 7, y, x);"
    [d] = [d for d in lint(tmp_path, DIAGONAL % caller) if d.code == "CL101"]
    assert "lanes 32 B apart" in d.message and "sectors/request, ideal 4" in d.message


SWITCH = """
__global__ void scatter(const float* in, float* out, int mode) {
  __shared__ float tile[32 * 33];
  int stride = 1;
  switch (mode) {
  case 2: stride *= 2;%s
  case 1: stride *= 16;
  }
  tile[threadIdx.x * stride %% 1056] = in[blockIdx.x * 32 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = tile[threadIdx.x];
}
void run(const float* in, float* out) { scatter<<<64, 32>>>(in, out, %d); }
"""


def test_a_switch_runs_on_into_the_next_case_and_its_values_hold_after_it(tmp_path):
    def ways(brk: str, mode: int):
        got = [d for d in lint(tmp_path, SWITCH % (brk, mode)) if d.code == "CL401" and d.line == 9]
        return got[0].metrics["ways"] if got else 1
    assert ways("", 2) == 32           # case 2 runs on into case 1: stride 32
    assert ways(" break;", 2) == 2     # stride 2
    assert ways("", 1) == 16
    assert ways("", 3) == 1            # no case taken: the stride before the switch


def test_each_instance_of_a_helper_template_has_its_own_shared_array(tmp_path):
    # `reduce<max_op>` then `reduce<sum_op>`: two functions, two arrays; the same instance twice: one
    tmpl = """
__device__ float max_op(float a, float b) { return a > b ? a : b; }
__device__ float sum_op(float a, float b) { return a + b; }
template <float (*op)(float, float)>
__device__ float reduce(float v) {
  __shared__ float part[32];
  int lane = threadIdx.x %% 32, warp = threadIdx.x / 32;
  for (int o = 16; o > 0; o /= 2) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
  if (lane == 0) part[warp] = v;
  __syncthreads();
  return (threadIdx.x < blockDim.x / 32) ? part[lane] : 0.0f;
}
__global__ void stats(const float* x, float* out) {
  float v = x[blockIdx.x * 256 + threadIdx.x];
  float m = reduce<max_op>(v);
  float s = reduce<%s>(v - m);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
void run(const float* x, float* out) { stats<<<64, 256>>>(x, out); }
"""
    assert [d for d in lint(tmp_path, tmpl % "sum_op") if d.code == "CL501"] == []
    assert [d.line for d in lint(tmp_path, tmpl % "max_op") if d.code == "CL501"] == [11]


def test_a_count_of_writers_made_of_a_block_cudalint_tried_is_not_quoted(tmp_path):
    src = """
template <int THREADS>
__global__ void timed(const int* in, int* out, long long* elapsed) {
  long long t0 = clock64();
  out[threadIdx.x] = in[threadIdx.x] + 1;
  *elapsed = clock64() - t0;
}
%s
"""
    [d] = [d for d in lint(tmp_path, src % "") if d.code == "CL302"]
    assert "(every thread of the block in one step)" in d.message and "256" not in d.message
    launched = "void run(const int* a, int* b, long long* e) { timed<64><<<1, 64>>>(a, b, e); }"
    [d] = [d for d in lint(tmp_path, src % launched) if d.code == "CL302"]
    assert "(64 writers in one step)" in d.message
