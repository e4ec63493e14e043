"""C++ idioms of real kernels the model follows: calls with template arguments, the cuda-samples
`SharedMemory<T>()` helper, and cooperative groups' `thread_rank()` / `size()` in guards and
indexes. Each test states a kernel and what a user sees."""
from cudalint.lint import Config, lint_paths

SHARED_MEMORY = """template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
"""


def lint(tmp_path, src, **params):
    path = tmp_path / "k.cu"
    path.write_text(src)
    diags = lint_paths([str(path)], Config(params=params, show_limits=True)).diagnostics
    return sorted((d.line, d.code) for d in diags), diags


def test_shared_memory_helper_is_the_dynamic_shared_array(tmp_path):
    got, diags = lint(tmp_path, SHARED_MEMORY + """template <class T>
__global__ void k(const T *in, T *out) {
  T *sdata = SharedMemory<T>();
  sdata[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = sdata[threadIdx.x + 1];
}
void host(const float *a, float *b) { k<float><<<4, 256, 256 * sizeof(float)>>>(a, b); }
""")
    # the neighbour's element is read with no barrier (CL501), and thread 255 reads past the
    # 256 floats the launch gives the dynamic shared memory (CL201)
    assert got == [(8, "CL201"), (8, "CL501")]
    assert all(d.array == "sdata" and d.space == "shared" for d in diags)


def test_shared_memory_helper_with_the_barrier_is_clean(tmp_path):
    got, _ = lint(tmp_path, SHARED_MEMORY + """template <class T>
__global__ void k(const T *in, T *out) {
  T *sdata = SharedMemory<T>();
  sdata[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = sdata[(threadIdx.x + 1) % 256];
}
void host(const float *a, float *b) { k<float><<<4, 256, 256 * sizeof(float)>>>(a, b); }
""")
    assert got == []


def test_call_with_template_arguments_is_inlined(tmp_path):
    got, diags = lint(tmp_path, """template <int W>
__device__ int spread(int t) { return t * W; }
__global__ void k(float *out) {
  out[spread<32>(threadIdx.x)] = 1.0f;
}
void host(float *o) { k<<<1, 256>>>(o); }
""")
    assert got == [(4, "CL101")]
    assert "128 bytes apart" in diags[0].message or diags[0].metrics["lane_stride_bytes"] == 128


def test_block_thread_rank_guard_is_one_thread(tmp_path):
    src = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *out) {
  cg::thread_block cta = cg::this_thread_block();
  if (cta.thread_rank() GUARD) out[blockIdx.x] = 1.0f;
}
void host(float *o) { k<<<64, 256>>>(o); }
"""
    assert lint(tmp_path, src.replace("GUARD", "== 0"))[0] == []
    # 64 threads of a block store one element, each its own value: a real overlap
    assert lint(tmp_path, src.replace("GUARD", "< 64").replace("1.0f", "threadIdx.x"))[0] == [(5, "CL302")]
    # ... all of them the same value: nothing a user would notice
    assert lint(tmp_path, src.replace("GUARD", "< 64"))[0] == []


def test_block_size_and_tile_rank(tmp_path):
    src = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * block.size() + block.thread_rank();
  float v = i < n ? in[i] : 0.0f;
  if (warp.thread_rank() GUARD) out[i / 32] = v;
}
void host(const float *in, float *out, int n) { k<<<(n + 255) / 256, 256>>>(in, out, n); }
"""
    assert lint(tmp_path, src.replace("GUARD", "== 0"), n=4096)[0] == []
    # every lane of a warp stores the warp's element
    assert lint(tmp_path, src.replace("GUARD", ">= 0"), n=4096)[0] == [(8, "CL302")]


def test_unknown_call_in_an_index_is_named_as_a_call(tmp_path):
    src = """__global__ void k(float *out) {
  int i = UMUL(blockIdx.x, blockDim.x) + threadIdx.x;
  out[i] = 1.0f;
}
void host(float *o) { k<<<4, 256>>>(o); }
"""
    got, diags = lint(tmp_path, src)
    assert got == [(3, "CL901")]
    assert "the call `UMUL(…)`" in diags[0].message and "loaded from memory" not in diags[0].message
    # with the macro's definition the index is followed and the access is clean
    got, _ = lint(tmp_path, "#define UMUL(a, b) __umul24((a), (b))\n" + src)
    assert got == []


def test_library_call_is_not_the_files_helper_and_host_functions_are_not_inlined(tmp_path):
    src = """#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = cg::reduce(tile, in[blockIdx.x * 256 + threadIdx.x], cg::plus<float>());
  if (tile.thread_rank() == 0) out[blockIdx.x * 8 + threadIdx.x / 32] = v;
}
void reduce(const float *in, float *out) {
  dim3 block(256), grid(64);
  k<<<grid, block>>>(in, out);
}
"""
    # the host function `reduce` launches the kernel; it is not walked as the body of `cg::reduce`
    assert lint(tmp_path, src)[0] == []


def test_helper_qualified_by_a_macro_is_inlined(tmp_path):
    got, diags = lint(tmp_path, """#define HOSTDEV __host__ __device__
HOSTDEV inline int at(int r, int c, int ld) { return c * ld + r; }
__global__ void k(float *out, int ld) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < ld) out[at(blockIdx.y, r, ld)] = 1.0f;
}
void host(float *o, int ld) { k<<<dim3(ld / 256, 64), 256>>>(o, ld); }
""", ld=1024)
    assert (5, "CL101") in got       # column-major helper, r from threadIdx.x: lanes a row apart


def test_a_compound_assignment_of_a_y_major_subscript_is_one_cl102_finding(tmp_path):
    """`a[r * cols + c] *= 2.0f` with r on threadIdx.x and c on threadIdx.y: the load and the store
    of one subscript have one cause and one fix (swap x and y): one finding, not the same line twice."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "scale.cu"
    path.write_text("__global__ void scale(float* a, int rows, int cols) {\n"
                    "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  int c = blockIdx.y * blockDim.y + threadIdx.y;\n"
                    "  if (r < rows && c < cols) a[r * cols + c] *= 2.0f;\n"
                    "}\n"
                    "void run(float* a, int rows, int cols) {\n"
                    "  dim3 b(16, 16), g((rows + 15) / 16, (cols + 15) / 16);\n"
                    "  scale<<<g, b>>>(a, rows, cols);\n"
                    "}\n")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.severity != "info"]
    assert [(d.line, d.code) for d in found] == [(4, "CL102")]
