"""Inline PTX that is one load or store of shared or global memory, or one asynchronous copy, is the
access it makes, as wide as its instruction says: its address is the pointer the kernel converts
(`__cvta_generic_to_shared(p)`) or passes (`"l"(p)`), and a helper's explicit specialization that
holds it is the one the call's template argument picks. Other inline PTX stays a statement noted
as not read."""
from cudalint.lint import Config, lint_paths


def lint(tmp_path, src: str) -> list:
    path = tmp_path / "k.cu"
    path.write_text(src)
    return lint_paths([str(path)], Config(show_limits=True)).diagnostics


def found(diags, code: str) -> list:
    return [d for d in diags if d.code == code]


GLOBAL_LOAD = """
__global__ void gather(const float* in, float* out) {
  float a, b, c, d;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(in + STRIDE));
  out[t] = a + b + c + d;
}
void run(const float* in, float* out) { gather<<<100, 256>>>(in, out); }
"""


def test_a_ptx_global_load_is_a_request_as_wide_as_its_vector(tmp_path):
    # 16 bytes per lane, lanes 16 bytes apart: a whole warp's 512 bytes, as coalesced as it can be
    assert not found(lint(tmp_path, GLOBAL_LOAD.replace("STRIDE", "t * 4")), "CL101")
    # lanes 64 bytes apart: each lane's 16 bytes in a sector of its own
    [d] = found(lint(tmp_path, GLOBAL_LOAD.replace("STRIDE", "t * 16")), "CL101")
    assert d.access == "load" and d.line == 5


ASYNC_COPY = """
__global__ void stage(const float* in, float* out) {
  __shared__ float tile[32 * ROW];
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x * ROW]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\\n" :: "r"(dst), "l"(in + (blockIdx.x * 32 + threadIdx.x) * 4));
  asm volatile("cp.async.wait_all;\\n" ::);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = tile[threadIdx.x];
}
void run(const float* in, float* out) { stage<<<100, 32>>>(in, out); }
"""


def test_an_async_copy_stores_its_bytes_into_shared_memory(tmp_path):
    # rows of 4 floats: each lane's 16 bytes beside the next lane's, no conflict
    assert not [d for d in found(lint(tmp_path, ASYNC_COPY.replace("ROW", "4")), "CL401") if d.line == 5]
    # rows of 8 floats: lanes 32 bytes apart, two lanes of a quarter warp on each bank
    conflicts = [d for d in found(lint(tmp_path, ASYNC_COPY.replace("ROW", "8")), "CL401") if d.line == 5]
    assert [d.access for d in conflicts] == ["store"]


SPECIALIZED = """
template <int N> __device__ void put(void* dst, const int* src);
template <> __device__ __forceinline__ void put<4>(void* dst, const int* src) {
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(src[0]));
}
namespace cfg { constexpr int width = 4; }
__global__ void k(const int* in, int* out) {
  __shared__ int s[32 * 33];
  int v = in[blockIdx.x * 32 + threadIdx.x];
  put<cfg::width>(&s[threadIdx.x * 32], &v);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x * 32];
}
void run(const int* in, int* out) { k<<<100, 32>>>(in, out); }
"""


def test_the_specialization_a_template_argument_picks_is_followed(tmp_path):
    diags = lint(tmp_path, SPECIALIZED)
    # the store inside `put<4>`, lanes 32 words apart: every lane on one bank
    assert any(d.access == "store" and d.line == 5 for d in found(diags, "CL401"))


def test_other_inline_ptx_is_noted_as_not_read(tmp_path):
    src = SPECIALIZED.replace('"st.shared.u32 [%0], %1;"', '"st.shared.u32 [%0], %1;\\n\\tmembar.cta;"')
    diags = lint(tmp_path, src)
    assert not any(d.line == 5 for d in found(diags, "CL401"))
    assert any("inline PTX the model does not follow" in d.message for d in found(diags, "CL901"))
