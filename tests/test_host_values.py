"""What the host program gives a launch, read the way the program is written: host helpers evaluated
(`CAFFE_GET_BLOCKS(n)` with a `const int` in a header, default arguments, helpers returning `dim3`),
wrappers whose grid and block come from their callers, integer parameters from every call site,
checks the host makes before the launch, and the allocations a launch passes. Each test is a small
program as such code is written, and states the launch cudalint analyses with and where its values
come from."""
from cudalint.index import ir
from cudalint.lint import Config, collect_paths, context_paths, lint_paths, read_project
from cudalint.model.host import fold, substitute
from cudalint.model.launch import resolve_launch
from cudalint.source.project import Project


def write(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def launches(root, files: dict[str, str], monkeypatch) -> dict:
    """Each kernel's launch configuration, the project linted from its root (`cudalint .`)."""
    write(root, files)
    monkeypatch.chdir(root)
    cfg = Config()
    paths = collect_paths(["."], cfg)
    sources, read = read_project(paths, cfg, context_paths(paths, cfg), errors=[])
    project = Project(sources, read)
    out = {}
    for src in sources:
        for fn in src.kernels:
            if fn.body is not None:
                out[fn.name] = resolve_launch(fn, project.sites_for(fn), {}, project)
    return out


def at(e: ir.Expr, **values) -> int | None:
    """An expression of the kernel's parameters at these values."""
    return fold(substitute(e, {ir.Sym(k, "param"): ir.Num(v) for k, v in values.items()}))


# ---- host helpers and header constants ---------------------------------------------------------

CAFFE_HEADER = """#ifndef DEVICE_ALTERNATE_HPP_
#define DEVICE_ALTERNATE_HPP_
#define CUDA_KERNEL_LOOP(i, n) \\
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

// CUDA: use 512 threads per block
const int CAFFE_CUDA_NUM_THREADS = 512;

// CUDA: number of blocks for threads.
inline int CAFFE_GET_BLOCKS(const int N) {
  return (N + CAFFE_CUDA_NUM_THREADS - 1) / CAFFE_CUDA_NUM_THREADS;
}
#endif
"""

CAFFE_LAYER = """#include "caffe/util/device_alternate.hpp"

template <typename Dtype>
__global__ void ReLUForward(const int n, const Dtype* in, Dtype* out, Dtype negative_slope) {
  CUDA_KERNEL_LOOP(index, n) {
    out[index] = in[index] > 0 ? in[index] : in[index] * negative_slope;
  }
}

template <typename Dtype>
void relu_forward_gpu(const Dtype* bottom_data, Dtype* top_data, const int count, Dtype negative_slope) {
  ReLUForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data, negative_slope);
}
"""


def test_inline_helper_and_header_constant_give_grid_and_block(tmp_path, monkeypatch):
    got = launches(tmp_path, {"include/caffe/util/device_alternate.hpp": CAFFE_HEADER,
                              "src/caffe/layers/relu_layer.cu": CAFFE_LAYER}, monkeypatch)
    cfg, _, assumptions = got["ReLUForward"]
    assert [fold(b) for b in cfg.block] == [512, 1, 1]
    # the grid is the helper's body on the kernel's own `n`: 1000 elements take 2 blocks of 512
    assert at(cfg.grid[0], n=1000) == 2 and at(cfg.grid[0], n=1024) == 2 and at(cfg.grid[0], n=1025) == 3
    assert cfg.provenance["blockDim"] == \
        "`const int CAFFE_CUDA_NUM_THREADS = 512` in include/caffe/util/device_alternate.hpp"
    assert "CAFFE_GET_BLOCKS" in cfg.provenance["gridDim"]
    assert not any("incomplete" in a for a in assumptions)


def test_default_argument_and_a_capped_grid(tmp_path, monkeypatch):
    helper = """#define THREADS_PER_BLOCK 512
inline int GET_BLOCKS(const int N, const int num_threads = THREADS_PER_BLOCK) {
  int optimal_block_num = (N + num_threads - 1) / num_threads;
  int max_block_num = 4096;
  return min(optimal_block_num, max_block_num);
}
"""
    kernel = """#include "helper.h"
__global__ void scale_kernel(const int nthreads, const float *in, float *out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nthreads; i += blockDim.x * gridDim.x)
    out[i] = 2.f * in[i];
}
void scale_cuda(const float *in, float *out, int output_size) {
  scale_kernel<<<GET_BLOCKS(output_size), THREADS_PER_BLOCK>>>(output_size, in, out);
}
"""
    cfg, _, _ = launches(tmp_path, {"helper.h": helper, "scale.cu": kernel}, monkeypatch)["scale_kernel"]
    assert [fold(b) for b in cfg.block] == [512, 1, 1]
    assert at(cfg.grid[0], nthreads=10_000) == 20
    assert at(cfg.grid[0], nthreads=100_000_000) == 4096      # the helper's cap


def test_helper_returning_dim3_with_a_branch(tmp_path, monkeypatch):
    src = """#define BLOCK 512
dim3 cuda_gridsize(size_t n) {
  size_t k = (n - 1) / BLOCK + 1;
  size_t x = k;
  size_t y = 1;
  if (x > 65535) {
    x = 65535;
    y = (n - 1) / (x * BLOCK) + 1;
  }
  dim3 d(x, y, 1);
  return d;
}
__global__ void fill_kernel(int N, float ALPHA, float *X) {
  int i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
  if (i < N) X[i] = ALPHA;
}
void fill_gpu(int N, float ALPHA, float *X) {
  fill_kernel<<<cuda_gridsize(N), BLOCK>>>(N, ALPHA, X);
}
"""
    cfg, _, _ = launches(tmp_path, {"blas.cu": src}, monkeypatch)["fill_kernel"]
    assert [fold(b) for b in cfg.block] == [512, 1, 1]
    # small inputs: one row of blocks; past 65535 blocks the helper folds the grid into rows
    assert (at(cfg.grid[0], N=1000), at(cfg.grid[1], N=1000)) == (2, 1)
    assert (at(cfg.grid[0], N=65536 * 512), at(cfg.grid[1], N=65536 * 512)) == (65535, 2)


def test_helper_with_a_loop_is_open_not_guessed(tmp_path, monkeypatch):
    src = """int blocks_for(int n) {
  int b = 1;
  while (b * 256 < n) b *= 2;
  return b;
}
__global__ void k(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.f;
}
void run(int n, float *x) { k<<<blocks_for(n), 256>>>(n, x); }
"""
    cfg, _, _ = launches(tmp_path, {"k.cu": src}, monkeypatch)["k"]
    assert [fold(b) for b in cfg.block] == [256, 1, 1]
    assert cfg.grid is None or any(s.kind == "unknown" for s in ir.symbols(cfg.grid[0]))


# ---- wrappers: grid, block and arguments from the call sites -----------------------------------

WRAPPED = """__global__ void axpy_kernel(int n, float a, const float *x, int incx, float *y, int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i * incy] += a * x[i * incx];
}
void launch_axpy(dim3 grid, dim3 block, int n, float a, const float *x, int incx, float *y, int incy) {
  axpy_kernel<<<grid, block>>>(n, a, x, incx, y, incy);
}
"""


def test_wrapper_grid_and_block_come_from_its_callers(tmp_path, monkeypatch):
    caller = """void step(int n, const float *x, float *y) {
  dim3 block(256);
  dim3 grid((n + block.x - 1) / block.x);
  launch_axpy(grid, block, n, 2.f, x, 1, y, 1);
}
"""
    cfg, _, _ = launches(tmp_path, {"axpy.cu": WRAPPED + caller}, monkeypatch)["axpy_kernel"]
    assert [fold(b) for b in cfg.block] == [256, 1, 1]
    assert at(cfg.grid[0], n=1000) == 4
    assert "called at" in cfg.origin


def test_every_call_passing_one_makes_the_stride_one(tmp_path, monkeypatch):
    callers = """void step(int n, const float *x, float *y) {
  launch_axpy(dim3((n + 255) / 256), dim3(256), n, 2.f, x, 1, y, 1);
  launch_axpy(dim3((n + 255) / 256), dim3(256), n, 0.5f, y, 1, y, 1);
}
"""
    cfg, _, _ = launches(tmp_path, {"axpy.cu": WRAPPED + callers}, monkeypatch)["axpy_kernel"]
    assert cfg.values["incx"] == (1,) and cfg.values["incy"] == (1,)
    assert cfg.params["incx"] == 1
    assert cfg.provenance["incx"] == "every call of `launch_axpy` passes 1"
    assert "n" not in cfg.values and "a" not in cfg.values      # a host size; a float


def test_calls_passing_one_and_two_give_both(tmp_path, monkeypatch):
    callers = """void step(int n, const float *x, float *y) {
  launch_axpy(dim3((n + 255) / 256), dim3(256), n, 2.f, x, 1, y, 1);
  launch_axpy(dim3((n + 255) / 256), dim3(256), n / 2, 2.f, x, 2, y, 1);
}
"""
    cfg, _, _ = launches(tmp_path, {"axpy.cu": WRAPPED + callers}, monkeypatch)["axpy_kernel"]
    assert cfg.values["incx"] == (1, 2)
    assert cfg.provenance["incx"] == "the calls of `launch_axpy` pass 1, 2"
    assert cfg.values["incy"] == (1,)


def test_one_call_with_an_untraced_value_leaves_it_open(tmp_path, monkeypatch):
    callers = """#include <cstdlib>
void step(int n, const float *x, float *y, char **argv) {
  launch_axpy(dim3((n + 255) / 256), dim3(256), n, 2.f, x, 1, y, 1);
  launch_axpy(dim3((n + 255) / 256), dim3(256), n, 2.f, x, atoi(argv[1]), y, 1);
}
"""
    cfg, _, _ = launches(tmp_path, {"axpy.cu": WRAPPED + callers}, monkeypatch)["axpy_kernel"]
    assert "incx" not in cfg.values and "incx" not in cfg.params
    assert cfg.values["incy"] == (1,)


def test_direct_launches_in_two_places(tmp_path, monkeypatch):
    src = """__global__ void copy_strided(float *dst, const float *src, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i * stride];
}
void gather(float *d, const float *s, int n) {
  copy_strided<<<(n + 127) / 128, 128>>>(d, s, n, 1);
}
void gather_pairs(float *d, const float *s, int n) {
  copy_strided<<<(n + 127) / 128, 128>>>(d, s, n, 2);
}
"""
    cfg, _, _ = launches(tmp_path, {"copy.cu": src}, monkeypatch)["copy_strided"]
    assert cfg.values["stride"] == (1, 2)
    assert cfg.provenance["stride"] == "the launches pass 1, 2"


def test_kernel_passed_to_a_launch_template(tmp_path, monkeypatch):
    src = """__global__ void scale(float *x, int n, int inc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i * inc] *= 2.f;
}
__global__ void shift(float *x, int n, int inc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i * inc] += 1.f;
}
template <typename F, typename... Args>
void launch(F f, dim3 g, dim3 b, Args... args) {
  f<<<g, b>>>(args...);
}
void run(float *x, int n) {
  launch(scale, dim3((n + 127) / 128), dim3(128), x, n, 1);
  launch(shift, dim3((n + 63) / 64), dim3(64), x, n, 2);
}
"""
    got = launches(tmp_path, {"k.cu": src}, monkeypatch)
    scale, shift = got["scale"][0], got["shift"][0]
    # each kernel gets the shape and the arguments of the calls that pass it, not the other's
    assert [fold(b) for b in scale.block] == [128, 1, 1] and at(scale.grid[0], n=1000) == 8
    assert [fold(b) for b in shift.block] == [64, 1, 1] and at(shift.grid[0], n=1000) == 16
    assert scale.values["inc"] == (1,) and shift.values["inc"] == (2,)


def test_a_launch_passing_an_untraced_value_is_not_made_single_valued(tmp_path, monkeypatch):
    src = """#include <cstdlib>
__global__ void copy_strided(float *dst, const float *src, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i * stride];
}
int main(int argc, char **argv) {
  float *d, *s;
  int n = 1 << 20;
  copy_strided<<<(n + 127) / 128, 128>>>(d, s, n, 1);
  copy_strided<<<(n + 127) / 128, 128>>>(d, s, n, atoi(argv[1]));
  return 0;
}
"""
    cfg, _, _ = launches(tmp_path, {"copy.cu": src}, monkeypatch)["copy_strided"]
    assert "stride" not in cfg.values and cfg.values["n"] == (1 << 20,)


def test_param_on_the_command_line_is_given(tmp_path, monkeypatch):
    write(tmp_path, {"k.cu": WRAPPED})
    monkeypatch.chdir(tmp_path)
    cfg = Config()
    sources, read = read_project(["k.cu"], cfg)
    project = Project(sources, read)
    fn = sources[0].kernels[0]
    got, _, _ = resolve_launch(fn, project.sites_for(fn), {}, project, {"incx": 3})
    assert got.values["incx"] == (3,) and got.provenance["incx"] == "--param"


# ---- host checks before the launch -------------------------------------------------------------

def test_host_checks_are_conditions_on_the_kernel_parameters(tmp_path, monkeypatch):
    src = """#include <cassert>
#include <stdexcept>
__global__ void vec4_copy(float4 *out, const float4 *in, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
void copy(float *out, const float *in, int n) {
  assert(n % 256 == 0);
  if (n % 4) throw std::invalid_argument("n must be a multiple of 4");
  if (n <= 0) return;
  vec4_copy<<<n / 4 / 256, 256>>>((float4 *)out, (const float4 *)in, n);
}
"""
    cfg, _, _ = launches(tmp_path, {"v.cu": src}, monkeypatch)["vec4_copy"]
    checks = {str(c) for c in cfg.host_checks}
    assert checks == {"n4 % 256 == 0", "n4 % 4 == 0", "n4 > 0"}


def test_library_checks_and_a_check_on_a_value_changed_after_it(tmp_path, monkeypatch):
    src = """__global__ void rows_kernel(const float *x, float *y, int cols, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) y[i] = x[i * cols];
}
void rows_cuda(const float *x, float *y, int cols, int rows) {
  TORCH_CHECK(cols % 4 == 0, "cols must be a multiple of 4");
  CHECK_EQ(rows % 32, 0);
  rows = rows / 2;
  rows_kernel<<<(rows + 255) / 256, 256>>>(x, y, cols, rows);
}
"""
    cfg, _, _ = launches(tmp_path, {"r.cu": src}, monkeypatch)["rows_kernel"]
    # the check on `rows` was made before `rows` was halved: it says nothing about the kernel's `rows`
    assert {str(c) for c in cfg.host_checks} == {"cols % 4 == 0"}


def test_checks_in_the_callers_of_a_wrapper(tmp_path, monkeypatch):
    src = """#include <cassert>
__global__ void pack4(float4 *out, const float4 *in, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}
void pack4_gpu(float *out, const float *in, int count) {
  pack4<<<(count / 4 + 255) / 256, 256>>>((float4 *)out, (const float4 *)in, count);
}
void layer_a(float *o, const float *i, int n) {
  assert(n % 4 == 0);
  assert(n > 0);
  pack4_gpu(o, i, n);
}
void layer_b(float *o, const float *i, int channels) {
  if (channels % 4 != 0) return;
  pack4_gpu(o, i, channels);
}
"""
    cfg, _, _ = launches(tmp_path, {"p.cu": src}, monkeypatch)["pack4"]
    # both callers establish divisibility by 4 (each in its own words); only one says n > 0
    assert {str(c) for c in cfg.host_checks} == {"n4 % 4 == 0"}


# ---- allocations passed to the kernel ----------------------------------------------------------

def test_allocations_give_the_pointers_extents_in_bytes(tmp_path, monkeypatch):
    src = """#include <vector>
#include <thrust/device_vector.h>
#define CUDA_CHECK(x) do { if ((x) != cudaSuccess) exit(1); } while (0)
__global__ void combine(float *a, float *b, float *c, double *d, float *e, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) a[i] = b[i] + c[i] + (float)d[i] + e[i];
}
void run(int n) {
  float *a, *b;
  size_t bytes = n * sizeof(float);
  CUDA_CHECK(cudaMalloc((void **)&a, bytes));
  cudaMallocManaged(&b, n * sizeof(float));
  std::vector<float> host(n);
  thrust::device_vector<double> dev(n);
  float *e = new float[2 * n];
  combine<<<(n + 255) / 256, 256>>>(a, b, host.data(), thrust::raw_pointer_cast(dev.data()), e, n);
}
"""
    cfg, _, _ = launches(tmp_path, {"c.cu": src}, monkeypatch)["combine"]
    ext = {k: str(v) for k, v in cfg.extents.items()}
    assert ext == {"a": "N * 4", "b": "N * 4", "c": "N * 4", "d": "N * 8", "e": "2 * N * 4"}


def test_allocation_in_the_caller_of_a_wrapper(tmp_path, monkeypatch):
    src = """__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy_gpu(int count, float a, const float *x, float *y) {
  saxpy<<<(count + 255) / 256, 256>>>(count, a, x, y);
}
int main() {
  const int N = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, (N + 32) * sizeof(float));
  saxpy_gpu(N, 2.0f, x, y);
  return 0;
}
"""
    cfg, _, _ = launches(tmp_path, {"s.cu": src}, monkeypatch)["saxpy"]
    assert fold(cfg.extents["x"]) == 4 << 20 and fold(cfg.extents["y"]) == 4 * ((1 << 20) + 32)
    assert cfg.values["n"] == (1 << 20,)
    assert cfg.provenance["n"] == "every call of `saxpy_gpu` passes 1048576"


def test_an_allocation_that_differs_between_calls_gives_no_extent(tmp_path, monkeypatch):
    src = """__global__ void zero(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.f;
}
void zero_gpu(float *x, int n) { zero<<<(n + 255) / 256, 256>>>(x, n); }
void a(int m) { float *p; cudaMalloc(&p, m * sizeof(float)); zero_gpu(p, m); }
void b(int m) { float *p; cudaMalloc(&p, 64); zero_gpu(p, m); }
"""
    cfg, _, _ = launches(tmp_path, {"z.cu": src}, monkeypatch)["zero"]
    assert "x" not in cfg.extents


# ---- include directories as builds give them ---------------------------------------------------

UNCOALESCED = """__global__ void transpose_naive(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) out[IDX(row, col, n)] = in[IDX(col, row, n)];
}
void transpose(float *out, const float *in, int n) {
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  transpose_naive<<<grid, block>>>(out, in, n);
}
"""


def lint_root(root, monkeypatch, **cfg):
    monkeypatch.chdir(root)
    return lint_paths(["."], Config(show_limits=True, **cfg)).diagnostics


def test_header_under_the_projects_include_root(tmp_path, monkeypatch):
    write(tmp_path, {"include/mylib/index.h": "#define IDX(r, c, ld) ((r) * (ld) + (c))\n#define TILE 32\n",
                     "src/transpose.cu": '#include "mylib/index.h"\n' + UNCOALESCED})
    diags = lint_root(tmp_path, monkeypatch)
    assert not any("not found" in d.message for d in diags)
    assert any(d.code in ("CL101", "CL102") and d.access == "store" for d in diags)


def test_compile_commands_gives_include_dirs_and_defines(tmp_path, monkeypatch):
    write(tmp_path, {"third_party/idx/index.h": "#define IDX(r, c, ld) ((r) * (ld) + (c))\n",
                     "src/transpose.cu": '#include "index.h"\n' + UNCOALESCED,
                     "build/compile_commands.json":
                         '[{"directory": "%s", "file": "src/transpose.cu", '
                         '"command": "nvcc -I third_party/idx -DTILE=32 -c src/transpose.cu"}]' % tmp_path})
    diags = lint_root(tmp_path, monkeypatch)
    assert not any("not found" in d.message for d in diags)
    assert any(d.code in ("CL101", "CL102") and d.access == "store" for d in diags)


def test_a_header_still_missing_is_said_once_and_marks_the_findings(tmp_path, monkeypatch):
    write(tmp_path, {"src/transpose.cu": '#include "index.h"\n#include "tiles.h"\n#define TILE 32\n'
                                         '#define IDX(r, c, ld) ((r) * (ld) + (c))\n' + UNCOALESCED})
    diags = lint_root(tmp_path, monkeypatch)
    notes = [d for d in diags if "not found" in d.message]
    assert len(notes) == 1 and "`#include \"index.h\"`" in notes[0].message and "-I" in notes[0].message
    assert "tiles.h" in notes[0].message
    found = [d for d in diags if d.code in ("CL101", "CL102")]
    assert found and all(any("incomplete" in a for a in d.assumptions) for d in found)


def test_a_header_two_directories_could_give_is_not_guessed(tmp_path, monkeypatch):
    write(tmp_path, {"a/index.h": "#define IDX(r, c, ld) ((r) * (ld) + (c))\n",
                     "b/index.h": "#define IDX(r, c, ld) ((c) * (ld) + (r))\n",
                     "src/transpose.cu": '#include "index.h"\n#define TILE 32\n' + UNCOALESCED})
    diags = lint_root(tmp_path, monkeypatch)
    assert any("`#include \"index.h\"` not found" in d.message for d in diags)


CLASS_MEMBERS = """
struct traits_a { static constexpr int qk = 256; static constexpr int qr = 4; };
namespace cfg { constexpr int TILE = 32; }
template <int qk, int qr>
__global__ void dequant(const float* x, float* y, int k) {
  const int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + cfg::TILE * 0;
  if (i >= k) return;
  y[i - i % qk + (i % qk) / qr] = x[i];
}
template <int qk, int qr>
void dequant_cuda(const float* x, float* y, int k) {
  dequant<qk, qr><<<(k + 511) / 512, 256>>>(x, y, k);
}
"""


def test_a_class_member_is_no_constant_of_the_same_bare_name(tmp_path):
    """`qr` passed through a host template's own parameter is open: the `static constexpr qr` of a
    struct elsewhere in the unit is reached only through its class."""
    f = tmp_path / "dequant.cu"
    f.write_text(CLASS_MEMBERS)
    res = lint_paths([str(f)], Config(jobs=1))
    (table,) = res.tables
    assert table.template_bindings.get("qr") != "4"
    assert "qr" in table.params and "qk" in table.params
    assert not [d for d in res.diagnostics if d.code == "CL302"]


# ---- launches through the runtime API: `cudaLaunchKernel((void*)k, grid, block, args, ...)` -------
_PERSISTENT = """
__global__ void drain(int* head, const float* in, float* out, int n) {
  __shared__ int s_base;
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) s_base = atomicAdd(head, 256);
    __syncthreads();
    int i = s_base + threadIdx.x + blockDim.x * threadIdx.y;
    if (s_base >= n) return;
    if (i < n) out[i] = 2.0f * in[i];
  }
}
"""
_RUNTIME_HOST = """
#include <cuda_runtime.h>
void drain(int* head, const float* in, float* out, int n);   // the kernel, as a C++ file declares it
void run(int* head, const float* in, float* out, int n, cudaStream_t s) {
  void* args[] = {&head, (void*)&in, &out, &n};
  CHECK(cudaLaunchKernel((void*)drain, dim3(132), dim3(%s), args, 0, s));
}
"""


def test_runtime_launch_in_a_cpp_file_gives_the_block(tmp_path, monkeypatch):
    """A kernel defined in a .cu file and launched from a C++ file through `cudaLaunchKernel`, its
    arguments' addresses in `void* args[]`: the C++ file is read as host context and its launch
    gives the block; a 2-D block makes the `threadIdx.x == 0` store a store of eight threads."""
    write(tmp_path, {"kernels/drain.cu": _PERSISTENT, "host/run.cpp": _RUNTIME_HOST % "256"})
    monkeypatch.chdir(tmp_path)
    found = lint_paths(["."], Config())
    assert [d.code for d in found.diagnostics if d.severity in ("warning", "error")] == []
    (tmp_path / "host/run.cpp").write_text(_RUNTIME_HOST % "32, 8")
    found = lint_paths(["."], Config())
    assert [d.code for d in found.diagnostics if d.severity in ("warning", "error")] == ["CL302"]


def test_runtime_launch_binds_the_arguments_by_address(tmp_path, monkeypatch):
    """`n`'s address is the fourth of `args`: the kernel's `n` is the host's 4096."""
    host = _RUNTIME_HOST.replace("void drain(", "void unused(").replace(
        "int n, cudaStream_t s) {", "cudaStream_t s) {\n  int n = 4096;") % "256"
    lc = launches(tmp_path, {"k.cu": _PERSISTENT + host}, monkeypatch)["drain"][0]
    assert lc.block[0] == ir.Num(256) and lc.grid[0] == ir.Num(132)
    assert lc.params.get("n") == 4096


def test_hip_portable_launch_gives_the_launch_and_its_arguments(tmp_path, monkeypatch):
    """`hipLaunchKernelGGL(HIP_KERNEL_NAME(k<1>), dim3(grid), dim3(block), smem, stream, args...)`
    (CUDA code written to build with HIP too) is a launch, its arguments the kernel's values, also
    from a C++ file: the stride every launch passes makes the finding, without it there is none."""
    kernel = """
template <int K>
__global__ void scale(float* x, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i * stride] *= 2.0f;
}
"""
    host = """
void run(float* x, int n) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<1>), dim3((n + 127) / 128), dim3(128), 0, 0, x, n, %d);
}
"""
    lc = launches(tmp_path, {"k.cu": kernel + host % 3}, monkeypatch)["scale"][0]
    assert lc.block[0] == ir.Num(128) and lc.params.get("stride") == 3
    found = lint_paths(["k.cu"], Config())
    assert {d.code for d in found.diagnostics if d.severity == "warning"} == {"CL101"}
    (tmp_path / "k.cu").write_text(kernel + host % 1)
    found = lint_paths(["k.cu"], Config())
    assert not [d for d in found.diagnostics if d.severity in ("warning", "error")]


def test_a_kernel_passed_to_a_launcher_as_a_function_pointer_gets_the_launchers_values(tmp_path, monkeypatch):
    """`template <typename... Args> void launch(void (*kernel)(Args...), dim3 g, dim3 b, Args... args)
    { kernel<<<g, b>>>(args...); }` called as `launch(k, dim3(...), dim3(128), x, n)`: the launch is
    k's, with the call's block and arguments."""
    src = """
template <typename... Args>
void launch(void (*kernel)(Args...), dim3 grid, dim3 block, Args... args) { kernel<<<grid, block>>>(args...); }
__global__ void k(float* x, int n, int s) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i * s] = 0; }
void run(float* x, int n) { launch(k, dim3((n + 127) / 128), dim3(128), x, n, 3); }
"""
    lc = launches(tmp_path, {"k.cu": src}, monkeypatch)["k"][0]
    assert lc.block[0] == ir.Num(128) and lc.params.get("s") == 3


def test_a_class_templates_recursive_member_folds_as_the_compiler_folds_it(tmp_path, monkeypatch):
    """`template <> struct Log2<1> { static constexpr unsigned value = 0; };` is Log2<1>'s value alone,
    and `Log2<32>::value` is 1 + Log2<16>::value ... = 5: the warp index `threadIdx.x >> 5` is one
    value for a warp (taken as 0, the specialization's, it made each lane its own warp and invented
    a 32-sector access)."""
    src = """
template <unsigned x> struct Log2 { static constexpr unsigned value = 1 + Log2<x / 2>::value; };
template <> struct Log2<1> { static constexpr unsigned value = 0; };
template <unsigned SHIFT>
__global__ void per_warp(const float* in, float* out, int n) {
  unsigned warp = threadIdx.x >> SHIFT;
  unsigned lane = threadIdx.x & 31;
  out[(blockIdx.x * 4 + warp) * 32 + lane] = in[(blockIdx.x * 4 + warp) * 32 + lane];
}
void run(const float* in, float* out, int n) {
  const unsigned shift = Log2<32>::value;
  per_warp<shift><<<n / 128, 128>>>(in, out, n);
}
"""
    (tmp_path / "k.cu").write_text(src)
    found = lint_paths([str(tmp_path / "k.cu")], Config(show_limits=True)).diagnostics
    assert not [d for d in found if d.severity in ("warning", "error") or d.code == "CL901"]
    # a shift the specialization's 0 would give: every lane its own row, 32 sectors a request
    (tmp_path / "k.cu").write_text(src.replace("Log2<32>::value", "Log2<1>::value"))
    found = lint_paths([str(tmp_path / "k.cu")], Config()).diagnostics
    assert [d.code for d in found if d.severity == "warning"][:1] == ["CL101"]


def test_a_block_from_a_member_of_a_struct_passed_whole_is_the_kernels_member(tmp_path, monkeypatch):
    """`dim3 block(p.width / 4, p.heads, 3)` with `p` passed whole to the kernel: the block's edges
    are the kernel's own `p.width` and `p.heads` (open where the host gives no value), not a block
    the host hides; the third edge is 3."""
    src = """
struct Params { const float* in; float* out; int width; int heads; };
__global__ void k(Params p) {
  int i = (threadIdx.z * p.heads + threadIdx.y) * (p.width / 4) + threadIdx.x;
  p.out[i] = p.in[i];
}
void run(Params p, cudaStream_t s) {
  dim3 block(p.width / 4, p.heads, 3);
  k<<<1, block, 0, s>>>(p);
}
"""
    lc = launches(tmp_path, {"k.cu": src}, monkeypatch)["k"][0]
    names = {x.name for d in lc.block for x in ir.symbols(d)}
    assert names == {"p.width", "p.heads"} and lc.block[2] == ir.Num(3)


# ---- values the command line may change ----------------------------------------------------------

ARGV_MAIN = """#include <cstdlib>
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] *= 2.0f;
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int threads = 128;
  if (argc > 2)
    threads = atoi(argv[2]);
  float* x;
  cudaMalloc(&x, n * sizeof(float));
  scale<<<(n + threads - 1) / threads, threads>>>(x, n);
  return 0;
}
"""


def test_a_block_the_command_line_may_change_is_read_at_the_program_s_own(tmp_path, monkeypatch):
    cfg, _, assumptions = launches(tmp_path, {"main.cu": ARGV_MAIN}, monkeypatch)["scale"]
    assert [fold(b) for b in cfg.block] == [128, 1, 1]
    assert any("`atoi(argv[2])`" in a and "run-time input" in a for a in assumptions)
    # the size passed to the kernel stays the kernel's open `n`: the grid is worked out from it
    assert at(cfg.grid[0], n=1000) == 8


def test_a_size_the_command_line_may_change_keeps_the_missing_guard_a_warning(tmp_path):
    cu = tmp_path / "main.cu"
    cu.write_text(ARGV_MAIN)
    found = [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL202"]
    # at the program's own n = 1 << 20 the grid covers x exactly; another n overruns it
    assert found and all(d.severity == "warning" for d in found)


def test_a_launch_in_a_macro_is_read_where_the_macro_is_called(tmp_path, monkeypatch):
    src = """
template <int PACK>
__global__ void norm(float* x, int n) { x[blockIdx.x * n + threadIdx.x * PACK] *= 2.0f; }
#define LN_KERNEL(PACK)                  \\
    dim3 grid(m);                        \\
    dim3 block(min(n / PACK, 1024));     \\
    norm<PACK><<<grid, block>>>(x, n);
void run(float* x, int m, int n) {
  if (n % 8 == 0) {
    LN_KERNEL(8);
  } else {
    LN_KERNEL(2);
  }
}
"""
    cfg, template, assumptions = launches(tmp_path, {"ln.cu": src}, monkeypatch)["norm"]
    assert str(template["PACK"]) == "8"
    # what the expansion declares before its launch is read: the block is `min(n / 8, 1024)`
    assert at(cfg.block[0], n=4096) == 512
    assert any("launched at 2 sites" in a for a in assumptions)


def test_dim3_copies_of_dim3_values(tmp_path, monkeypatch):
    # `k<<<dim3(grid), dim3(block)>>>` copies a dim3 the host already built: the copy is that dim3
    program = """__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
void run(float *x, int n) {
  dim3 block(256);
  dim3 grid((n + 255) / 256);
  dim3 again(grid);
  scale<<<dim3(again), dim3(block)>>>(x, n);
}
"""
    cfg, _, _ = launches(tmp_path, {"scale.cu": program}, monkeypatch)["scale"]
    assert [fold(b) for b in cfg.block] == [256, 1, 1]
    assert at(cfg.grid[0], n=1000) == 4 and [fold(g) for g in cfg.grid[1:]] == [1, 1]


def test_an_assignment_in_the_other_arm_does_not_reach_the_launch(tmp_path, monkeypatch):
    # `threads` is reassigned in the `mode == 1` arm only: the launch in the `else` runs 16 x 16
    program = """__global__ void scale16(const float *in, float *out) {
  int t = 16 * threadIdx.y + threadIdx.x;
  out[blockIdx.x * 256 + t] = 2.0f * in[blockIdx.x * 256 + t];
}
__global__ void scale32(const float *in, float *out) {
  int t = 32 * threadIdx.y + threadIdx.x;
  out[blockIdx.x * 512 + t] = in[blockIdx.x * 512 + t];
}
void run(const float *in, float *out, int mode) {
  dim3 blocks(64);
  dim3 threads(16, 16);
  if (mode == 1) {
    threads = dim3(32, 16);
    scale32<<<blocks, threads>>>(in, out);
  } else {
    scale16<<<blocks, threads>>>(in, out);
  }
}
"""
    got = launches(tmp_path, {"modes.cu": program}, monkeypatch)
    assert [fold(b) for b in got["scale16"][0].block] == [16, 16, 1]
    assert [fold(b) for b in got["scale32"][0].block] == [32, 16, 1]


def test_a_size_the_launcher_rescales_before_the_launch_is_the_kernels_own(tmp_path):
    # `cols >>= 2;` then `k<<<..>>>(..., cols)`: the kernel's cols is the host's after the shift;
    # the grid rounded up from rows * cols (after it) is guarded by the kernel's rows * cols
    import textwrap
    from cudalint.lint import Config, lint_paths
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent("""\
        __global__ void k(const float* in, float* out, int rows, int cols) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if (i >= rows * cols) return;
          reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
        }
        void run(const float* in, float* out, int rows, int cols) {
          cols >>= 2;
          k<<<(rows * cols + 1023) / 1024, 1024>>>(in, out, rows, cols);
        }
        """))
    assert not [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL202"]


def test_an_explicit_specialization_runs_only_where_the_type_test_lets_its_types_through(tmp_path, monkeypatch):
    """`if (is_same<T1, A>::value && is_same<T2, B>::value) k<T1, T2><<<g, dim3(s / 4, h, 3)>>>(p);
    else k<T1, T2><<<g2, dim3(h, s)>>>(p);` with `template <> __global__ void k(Param<A, B> p)`: the
    specialization is the first launch's (its types matched through its parameter's template
    arguments), never the `else`'s, whatever instances the host template has; read with the second
    launch's block it made a false race."""
    src = """
#include <type_traits>
struct A {}; struct B {};
template <typename T1, typename T2> struct Param { T1* dst; const T2* src; int s; int h; };
template <typename T1, typename T2>
__global__ void k(Param<T1, T2> p) { p.dst[threadIdx.x * p.h + threadIdx.y] = T1(); }
template <>
__global__ void k(Param<A, B> p) {
  const int s4 = p.s / 4;
  p.dst[threadIdx.y * 3 * s4 + threadIdx.z * s4 + threadIdx.x] = A();
}
template <typename T1, typename T2>
void run(Param<T1, T2> p) {
  if (std::is_same<T1, A>::value && std::is_same<T2, B>::value)
    k<T1, T2><<<1000, dim3(p.s / 4, p.h, 3)>>>(p);
  else
    k<T1, T2><<<dim3(1000, 3), dim3(p.h, p.s)>>>(p);
}
"""
    lc = launches(tmp_path, {"k.cu": src}, monkeypatch)["k"][0]     # the specialization's (the later `k`)
    assert lc.block is not None and lc.block[2] == ir.Num(3)
    (tmp_path / "k.cu").write_text(src)
    assert not [d for d in lint_paths([str(tmp_path / "k.cu")], Config()).diagnostics if d.code == "CL302"]


def test_a_chained_assignment_gives_every_name_its_value(tmp_path):
    """`N = M = 2048;` in main: both sizes are 2048, a multiple of the 16-wide block the grid is
    rounded to, so the missing tail guard is only an info that says so (it was a warning checked at
    sizes of cudalint's, N left open)."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "scale.cu"
    path.write_text("""__global__ void scale2d(const float *A, float *C, int M, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  C[row * N + col] = 2.f * A[row * N + col];
}
int main() {
  float *dA, *dC;
  int M, N;
  N = M = 2048;
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  scale2d<<<grid, block>>>(dA, dC, M, N);
  return 0;
}
""")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL202"]
    assert found and all(d.severity == "info" and "2048" in d.message for d in found)


def test_an_allocation_sized_by_sizeof_of_the_pointee_is_read(tmp_path):
    """`cudaMalloc((void **)&out, sizeof(*out) * size)` with `size = 15`: 60 bytes, so the unguarded
    store of a 512-thread block runs past them (CL201); it was an allocation of unknown size."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "gen.cu"
    path.write_text("""__global__ void generate(unsigned int *out) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = idx * 2654435761u;
}
int main() {
  unsigned int *np_random;
  int M = 3, N = 5;
  size_t size = M * N;
  cudaMalloc((void **)&np_random, sizeof(*np_random) * size);
  generate<<<(size + 511) / 512, 512>>>(np_random);
  return 0;
}
""")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL201"]
    assert found and "60 bytes allocated" in found[0].message
