"""Confirm mode on a real GPU: each static coalescing, range, bank-conflict and missing-barrier
finding of the samples is confirmed by the instrumented run, clean samples get no confirmed
finding, the naive matmul pair's logged sectors per request equal the hardware counters' figures,
and a kernel that never ends is stopped."""
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLES, expected_findings

pytestmark = pytest.mark.gpu


def _gpu_missing() -> str | None:
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed (pip install 'cudalint[gpu]')"
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return "no CUDA GPU"
    except Exception as exc:
        return f"no usable CUDA GPU ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
    return None


_MISSING = _gpu_missing()
if _MISSING:
    pytestmark = [pytest.mark.gpu, pytest.mark.skip(reason=f"confirm mode needs a GPU: {_MISSING}")]

CONFIRMABLE = {"CL101", "CL102", "CL201", "CL202", "CL401", "CL501"}
# ncu on an H100 (DESIGN.md): global load and store sectors per request of the naive matmul pair
# at M=3000, K=4000, N=3000 with 32x32 blocks
HARDWARE = {"matmul_naive_good.cu": (2.50, 4.00), "matmul_naive_bad.cu": (16.50, 32.00)}
DESIGN_SIZES = {"M": 3000, "K": 4000, "N": 3000}


def _confirm(paths, params=None, mode="log"):
    from cudalint.confirm import confirm_result
    from cudalint.lint import Config, lint_paths
    cfg = Config(params=params or {})
    res = lint_paths([str(p) for p in paths], cfg)
    runs = confirm_result(res, cfg, mode)
    return res, runs


def _samples():
    return sorted(p for p in SAMPLES.glob("*.cu"))


# samples whose kernels confirm mode does not launch, by design, and the reason it gives
NOT_LAUNCHED = {
    "vector_per_thread_bad.cu": "no launch of",                       # ILP is left open on purpose
    "vector_per_thread_good.cu": "no launch of",
    # a size only the build defines (`-DNODES=84`), left undefined on purpose: no run compiles it
    "uniform_flag_arms_good.cu": "does not compile",
    "uniform_flag_arms_bad.cu": "does not compile",
    # launched from a host template no code instantiates: the open type or size is the sample's point
    "launch_bounds_sync_bad.cu": "template argument",
    "launch_bounds_sync_good.cu": "template argument",
    "unbound_width_bad.cu": "template argument",
    "unbound_width_good.cu": "template argument",
    "serial_kernel_good.cu": "no launch of",                          # a harness launches it
    "pad_values_good.cu": "template argument",
    "pad_values_bad.cu": "template argument",
    # a library's kernel: explicitly instantiated, launched from another language
    "explicit_instance_good.cu": "no launch of",
    "explicit_instance_bad.cu": "no launch of",
    # the launch passes the launcher's own template parameter, whose values its calls give
    "dispatch_divisible_good.cu": "template argument",
    "dispatch_divisible_bad.cu": "template argument",
    # the launcher's template parameter, instantiated through a table of function pointers
    "host_template_guard_good.cu": "template argument",
    "host_template_guard_bad.cu": "template argument",
    # launched through a helper that takes the block from a configuration record
    "warp_exchange_open_block_good.cu": "no launch of",
    "specialized_member_type_good.cu": "template argument",    # a host template's local typedef
    "specialized_member_type_bad.cu": "template argument",
    # a kernel template alone, its values bounded by its `static_assert`: nothing launches it
    "static_assert_tile_good.cu": "no launch of",
    "static_assert_tile_bad.cu": "no launch of",
    # the launches are a build step's: the template values that pick the arm are open on purpose
    "open_test_arm_good.cu": "no launch of",
    # the launch passes the launcher's template parameters, which a chain of statement macros gives
    "macro_dispatch_good.cu": "template argument",
    "macro_dispatch_bad.cu": "template argument",
    # the template value is each element of a compile-time list: the run names the instance with the
    # parameter's name, not one run per element
    "listed_values_good.cu": "cannot instantiate",
    "listed_values_bad.cu": "cannot instantiate",
    # two kernel templates of one name: the run names the instance `pad_image<float>`, which does not
    # say which of them
    "overload_by_deduction_good.cu": "cannot instantiate",
    "overload_by_deduction_bad.cu": "cannot instantiate",
}
# where the run does not measure what the static verdict rests on (known gaps of confirm mode)
GAPS = {
    "layout_flag_good.cu": "the run takes the flag's other arm: the strided column read does not run",
    "min_data_bound_bad.cu": "the counts the run reads are its own zeroed data: no segment is longer than CAP",
    "range_first_element_bad.cu": "the run's offsets are its own data: no range it reads is empty, the case the "
                                  "finding is about",
    "same_value_flag_bad.cu": "the racing store runs only in blocks the run does not sample",
    "record_slots_good.cu": "the run's sizes put most of a warp's records in one sector",
    "rounded_multiple_bad.cu": "the run's values are the program's multiples, where nothing runs past",
    "open_row_banks_good.cu": "the run's stand-in row width asks for more dynamic shared memory than a block may have",
    "constant_symbol_pointer_bad.cu": "the run does not set the `__constant__` variables the host sets with "
                                      "cudaMemcpyToSymbol: the count is 0 there and the store does not run",
    "object_size_query_bad.cu": "the log samples a loop's iterations: the last inner step of one outer iteration and "
                                "the next outer iteration's store are not both recorded",
    "ptx_shared_store_bad.cu": "the run logs the accesses it rewrites: the racing store is inline PTX, which it "
                               "does not rewrite, so the log has no store to pair with the read",
    "traits_from_host_template_bad.cu": "the launch's type argument holds the launcher's template value "
                                        "(`ScanTraits<doShift, false>`, 0 at one instantiation, 1 at another): the "
                                        "run compiles the instance as the launch writes it, where that name is "
                                        "not declared",
}


def _sample_params():
    out = []
    for p in _samples():
        marks = [pytest.mark.xfail(reason=GAPS[p.name], strict=True)] if p.name in GAPS else []
        out.append(pytest.param(p, marks=marks, id=p.name))
    return out


@pytest.mark.parametrize("path", _sample_params())
def test_static_findings_confirmed_and_clean_samples_stay_clean(path):
    res, runs = _confirm([path])
    if path.name in NOT_LAUNCHED:
        assert runs and not any(r.ran for r in runs)
        assert all(NOT_LAUNCHED[path.name] in r.reason for r in runs), [r.line() for r in runs]
        return
    assert runs and all(r.ran for r in runs), [r.line() for r in runs]
    assert all(r.seconds < 10 for r in runs), [r.line() for r in runs]     # compile included
    static = [d for d in res.diagnostics if d.source == "static" and d.code in CONFIRMABLE]
    # a bank count of accesses nvcc merges into one wider request cannot be read off the log,
    # which sees them one by one: said so, not confirmed either way
    # nor can a finding another launch of the kernel makes (the run is the first launch's)
    unconfirmed = [(d.line, d.code, d.measured) for d in static if d.confirmed is not True and
                   not (d.code == "CL401" and (d.measured or {}).get("summary", "").startswith("not measured: nvcc"))
                   and "launch" not in d.metrics]
    assert not unconfirmed
    if not expected_findings(path):
        assert [d for d in res.diagnostics if d.confirmed] == []


def test_kernel_in_header_launched_from_its_runner_is_confirmed():
    res, runs = _confirm([SAMPLES / "headers"])
    assert [r.kernel for r in runs if r.ran] == ["saxpy"]
    found = [d for d in res.diagnostics if d.code == "CL202"]
    assert found and all(d.confirmed for d in found)


@pytest.mark.parametrize("name", sorted(HARDWARE))
def test_matmul_pair_sectors_per_request_match_hardware_counters(name):
    _, runs = _confirm([SAMPLES / name], DESIGN_SIZES)
    load, store = HARDWARE[name]
    totals = runs[0].totals
    assert totals["load_sectors_per_request"] == pytest.approx(load, rel=0.05)
    assert totals["store_sectors_per_request"] == pytest.approx(store, rel=0.05)


def test_out_of_range_store_is_logged_and_the_run_does_not_fault():
    res, runs = _confirm([SAMPLES / "vecadd_bad.cu"])
    assert runs[0].ran and runs[0].out_of_range > 0
    d = next(d for d in res.diagnostics if d.code == "CL202" and d.access == "store")
    assert d.confirmed and d.measured["max_index"] >= 1000


def test_kernel_that_never_ends_is_stopped_by_the_timeout(tmp_path):
    f = tmp_path / "spin.cu"
    f.write_text("// cudalint: launch grid=(1,1,1) block=(32,1,1)\n"
                 "__global__ void spin(float* a, int n) {\n"
                 "  volatile int go = 1;\n  while (go) { a[threadIdx.x] += 1.0f; }\n}\n")
    p = subprocess.run([sys.executable, "-m", "cudalint", "--confirm", str(f), "--confirm-timeout", "5"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "spin: not run: kernel `spin` did not finish within 5 s" in p.stderr
    assert "Traceback" not in p.stderr


def test_cli_text_marks_findings_confirmed():
    p = subprocess.run([sys.executable, "-m", "cudalint", "--confirm", str(SAMPLES / "matmul_naive_bad.cu")],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 1
    lines = [x for x in p.stdout.splitlines() if "CL101" in x]
    assert lines and all("[confirmed: " in x and "sectors/request measured" in x for x in lines)
    assert "cudalint confirm:" in p.stderr and "matmul: ran 9 of 1024 blocks" in p.stderr
    assert "Traceback" not in p.stderr


TRANSPOSE_TILE = """// cudalint: launch grid=(8,8,1) block=(32,32,1)
// cudalint: param n=256
__global__ void transpose_tile(float* out, const float* in, int n) {
  __shared__ float tile[32][WIDTH];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
"""


@pytest.mark.parametrize("width, wavefronts", [(32, 32.0), (33, 1.0)])
def test_shared_bank_conflicts_are_measured_in_wavefronts(tmp_path, width, wavefronts):
    f = tmp_path / "tile.cu"
    f.write_text(TRANSPOSE_TILE.replace("WIDTH", str(width)))
    _, runs = _confirm([f])
    by_text = {s.text: m for s, m in runs[0].sites}
    assert by_text["tile[threadIdx.y][threadIdx.x]"].wavefronts_per_request == 1.0     # row: 32 banks
    assert by_text["tile[threadIdx.x][threadIdx.y]"].wavefronts_per_request == wavefronts


RACE = """// cudalint: launch grid=(2,1,1) block=(64,1,1)
__global__ void rotate(float* out, const float* in) {
  __shared__ float s[64];
  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  BARRIER
  out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
"""


@pytest.mark.parametrize("barrier, raced", [("", True), ("__syncthreads();", False)])
def test_shared_words_touched_by_two_threads_between_barriers(tmp_path, barrier, raced):
    f = tmp_path / "rotate.cu"
    f.write_text(RACE.replace("BARRIER", barrier))
    _, runs = _confirm([f])
    by_text = {s.text: m for s, m in runs[0].sites}
    assert (by_text["s[(threadIdx.x + 1) % 64]"].race_words > 0) is raced
    assert (by_text["s[threadIdx.x]"].race_words > 0) is raced


PROGRAM = """#include <cstdio>
#include <vector>
#include <stdint.h>
#include <float.h>
#include <cuda_runtime.h>
#define ENABLE_BF16
#include "ops.h"
#if defined(ENABLE_BF16)
typedef __nv_bfloat16 floatX;
#else
typedef float floatX;
#endif
static float* d_scratch;
__global__ void row_max(const floatX* in, float* out, const uint8_t* mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float m = -FLT_MAX;
  if (i < n && mask[i]) m = fmaxf(m, twice((float)in[i]));
  if (i < n) out[i] = m;
}
template <class T>
__global__ void block_sum(const T* in, T* out, int n) {
  extern __shared__ char smem[];
  T* s = (T*)smem;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[blockDim.x - 1];
}
int main() {
  int n = 4096, threads = 128;
  std::vector<float> h(n);
  floatX* in; float* out; uint8_t* mask; double* d;
  row_max<<<(n + threads - 1) / threads, threads>>>(in, out, mask, n);
  block_sum<double><<<n / threads, threads, threads * sizeof(double)>>>(d, d, n);
  printf("%f\\n", h[0]);
  return 0;
}
"""


def test_a_program_with_c_and_cuda_headers_and_host_code_runs_as_its_build_compiles_it(tmp_path):
    (tmp_path / "ops.h").write_text("#pragma once\n#include <cuda_bf16.h>\n"
                                    "__device__ inline float twice(float x) { return 2.0f * x; }\n")
    f = tmp_path / "prog.cu"
    f.write_text(PROGRAM)
    res, runs = _confirm([f])
    assert sorted(r.kernel for r in runs if r.ran) == ["block_sum", "row_max"], [r.line() for r in runs]
    run = next(r for r in runs if r.kernel == "block_sum")
    assert "dynamic shared 1024 bytes (launch)" in run.line() and run.out_of_range == 0
    assert all(d.severity == "info" for d in res.diagnostics if d.source == "dynamic")


GATHER = """// cudalint: launch grid=(4,1,1) block=(256,1,1)
__global__ void gather(float* out, const float* in, const int* idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i] * 65536];
}
"""


def test_findings_measured_through_random_indexes_are_not_warnings(tmp_path):
    f = tmp_path / "gather.cu"
    f.write_text(GATHER)
    res, runs = _confirm([f])
    assert runs[0].ran and runs[0].out_of_range > 0
    dynamic = [d for d in res.diagnostics if d.source == "dynamic"]
    assert dynamic and all(d.severity == "info" and "random data" in d.message for d in dynamic)


NOGUARD = """#include <cuda_runtime.h>
__global__ void add_noguard(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
void add(const float* a, const float* b, float* c, int n) {
  add_noguard<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
"""


def test_a_missing_guard_is_confirmed_at_a_size_that_meets_its_condition_and_not_at_one_that_does_not(tmp_path):
    f = tmp_path / "noguard.cu"
    f.write_text(NOGUARD)
    res, runs = _confirm([f])
    found = [d for d in res.diagnostics if d.code == "CL202" and d.source == "static"]
    assert {d.array for d in found} == {"a", "b", "c"}
    for d in found:
        assert d.metrics["condition"] == "n % 256 != 0"
        meets, fails = d.measured["meets"], d.measured["fails"]
        assert meets["values"]["n"] % 256 != 0 and fails["values"]["n"] % 256 == 0
        assert meets["out_of_range"] > 0 and meets["min_index"] >= meets["values"]["n"]
        assert fails["out_of_range"] == 0
        assert d.confirmed is True
    assert "condition n % 256 != 0: at n = 1000:" in runs[0].line()


SHIFT = """#include <cuda_runtime.h>
__global__ void shift(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i + 1];
}
void run(int n) {
  float *a, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  shift<<<(n + 255) / 256, 256>>>(a, c, n);
}
"""


def test_an_access_out_of_its_allocation_at_every_size_does_not_confirm_the_tail_condition(tmp_path):
    """`a[i + 1]` reads a[n] also when n is a multiple of the block: its out-of-range reads are not
    the rounded-up grid's, so the condition is not what the run shows for it; `c[i]`'s is."""
    f = tmp_path / "shift.cu"
    f.write_text(SHIFT)
    res, runs = _confirm([f])
    cond = {d.array: d for d in res.diagnostics if d.code == "CL202" and "condition" in d.metrics}
    assert cond["c"].confirmed is True
    assert cond["a"].confirmed is False
    assert cond["a"].measured["fails"]["out_of_range"] > 0
    assert cond["a"].measured["fails"]["max_index"] == cond["a"].measured["fails"]["values"]["n"]
    assert "buffers a[1000] (the allocation the program passes (4000 bytes))" in runs[0].line()


SHORT = """#include <cuda_runtime.h>
__global__ void scale(float* x, int n, int inc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i * inc] *= 2.0f;
}
int main() {
  int n = 5000;
  float* x;
  cudaMalloc(&x, (n - 1) * sizeof(float));
  scale<<<(n + 127) / 128, 128>>>(x, n, 1);
  return 0;
}
"""


def test_the_run_uses_the_programs_values_and_the_allocation_it_passes(tmp_path):
    """n = 5000 and inc = 1 come from the launch, the buffer from cudaMalloc: one element short,
    which only a run at the program's allocation can show."""
    f = tmp_path / "short.cu"
    f.write_text(SHORT)
    res, runs = _confirm([f])
    run = runs[0]
    assert run.ran and run.invented == []
    line = run.line()
    assert "n=5000 (every launch passes 5000)" in line and "inc=1 (every launch passes 1)" in line
    assert "x[4999] (the allocation the program passes (19996 bytes))" in line
    assert run.blocks == "all 40 blocks"
    d = next(d for d in res.diagnostics if d.code == "CL201" and d.array == "x")
    assert d.confirmed is True and d.measured["max_index"] == 4999


STRUCT_OF_BUFFERS = """#include <cuda_runtime.h>
struct Params {
  const float* in;
  float* out;
  int n;
};

// cudalint: launch grid=(4,1,1) block=(256,1,1)
__global__ void spread(Params p, float* extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.out[i] = p.in[i * 32];
  extra[i * 2] = p.out[i];
}
"""


def test_a_struct_of_buffers_passed_by_value_runs_and_its_members_findings_are_confirmed(tmp_path):
    """`p.in` and `p.out` get buffers of their own whose addresses the struct's bytes hold; the
    accesses through them are checked against those buffers (nothing logged out of range) and the
    uncoalesced read through the member is confirmed, as is the one of the pointer parameter."""
    f = tmp_path / "spread.cu"
    f.write_text(STRUCT_OF_BUFFERS)
    res, runs = _confirm([f])
    run = runs[0]
    assert run.ran, run.line()
    assert run.out_of_range == 0
    assert "p.in[" in run.line() and "p.out[" in run.line()
    found = {d.array: d for d in res.diagnostics if d.code == "CL101" and d.source == "static"}
    assert set(found) == {"p.in", "extra"}
    assert all(d.confirmed is True for d in found.values()), [(d.array, d.measured) for d in found.values()]
    assert found["p.in"].measured["sectors_per_request"] >= 16
    by_text = {s.text: m for s, m in run.sites}
    assert by_text["p.out[i]"].sectors_per_request == pytest.approx(4.0)
