"""Shared accesses nvcc merges into one LDS.64/LDS.128 (STS) are counted as the merged request.

Every claim below about what nvcc does was read off the sm_90 SASS of the kernel (nvcc 13.0,
`nvdisasm -g`): LDS.128 / LDS.64 where the test says merged, LDS where it says scalar.
"""
import pytest

from cudalint.index import ir
from cudalint.lint import Config, lint_paths
from cudalint.model.vector import alignment

from conftest import SAMPLES

ROWTILE = """
#define BK 8
#define TM 8
__global__ void rowtile(const float* A, float* C) {
  __shared__ float As[BK * 64];
  const int t = threadIdx.x;
  for (int k = t; k < BK * 64; k += 32) As[k] = A[blockIdx.x * BK * 64 + k];
  __syncthreads();
  const int row = t / 4;
  float acc = 0.0f;
  %(pragma)s
  for (int dot = 0; dot < BK; ++dot) {
    float reg[TM];
    %(inner)s
    for (int i = 0; i < TM; ++i) reg[i] = As[%(index)s];
    for (int i = 0; i < TM; ++i) acc += reg[i];
  }
  C[blockIdx.x * 32 + t] = acc;
}
void run(const float* A, float* C) { rowtile<<<1024, 32>>>(A, C); }
"""


def findings(tmp_path, text, **cfg):
    path = tmp_path / "k.cu"
    path.write_text(text)
    result = lint_paths([str(path)], Config(debug=True, **cfg))
    return [d for d in result.diagnostics if d.code == "CL401"]


def rowtile(pragma="", inner="", index="dot * 64 + row * TM + i"):
    return ROWTILE % {"pragma": pragma, "inner": inner, "index": index}


def test_samples_merged_reads_are_clean_and_unprovable_ones_are_2_way():
    good = lint_paths([str(SAMPLES / "vector_merge_good.cu")], Config(debug=True)).diagnostics
    assert [d for d in good if d.severity != "info"] == []
    bad = {d.line: d for d in lint_paths([str(SAMPLES / "vector_merge_bad.cu")], Config(debug=True)).diagnostics}
    assert sorted(bad) == [16, 29, 30]
    assert all(d.code == "CL401" and d.metrics["ways"] == 2 and d.metrics["request_bytes"] == 4
               for d in bad.values())


def test_an_unrolled_row_read_is_one_16_byte_request(tmp_path):
    assert findings(tmp_path, rowtile()) == []


def test_a_row_pitch_passed_at_run_time_proves_no_alignment(tmp_path):
    text = rowtile(index="dot * 64 + row * pitch + i").replace(
        "float* C) {", "float* C, int pitch) {").replace("(A, C);", "(A, C, 8);")
    (d,) = findings(tmp_path, text)
    assert d.metrics["ways"] == 2 and "merges" not in d.message


def test_a_misaligned_start_is_not_merged(tmp_path):
    # row * TM + 1 + i: the first element is odd, so no 8- or 16-byte group starts aligned
    (d,) = findings(tmp_path, rowtile(index="dot * 64 + row * TM + 1 + i"))
    assert d.metrics["request_bytes"] == 4


def test_unroll_1_keeps_the_iterations_apart(tmp_path):
    text = rowtile().replace("    for (int i = 0; i < TM; ++i) reg[i]", "#pragma unroll 1\n    for (int i = 0; i < TM; ++i) reg[i]")
    (d,) = findings(tmp_path, text)
    assert d.severity == "warning" and d.metrics["ways"] == 2


def test_an_outer_loop_merge_is_named_and_made_sure_by_the_pragma(tmp_path):
    # consecutive elements across the outer `dot` loop; lanes 8q .. 8q+7 share a row and rows are
    # 16 words apart: 2-way one float at a time, but the two rows of a half-warp's LDS.128 fill
    # different banks
    index = "t / 8 * 16 + i * 64 + dot"
    # nvcc may or may not merge an outer loop it unrolls by itself (SGEMM's kernel 5 keeps its
    # `dotIdx` loads apart, the register-tiled GEMM merges `k`): counted one by one, the merge named
    (d,) = findings(tmp_path, rowtile(index=index))
    assert d.severity == "warning" and d.metrics["ways"] == 2 and d.metrics["request_bytes"] == 4
    assert ("conflict-free where nvcc unrolls the loop by itself and merges 4 iterations of `dot` into "
            "16-byte loads; `#pragma unroll` makes sure it does") in d.message
    assert findings(tmp_path, rowtile(pragma="#pragma unroll", index=index)) == []


def test_stores_with_a_load_of_the_array_between_are_not_merged(tmp_path):
    # LU's `peri_col[idx][i] -= ...; peri_col[idx][i] /= ...` over i: each store waits for loads
    # of the same row, so the SASS has one STS per i
    text = """
#define BS 16
__global__ void lu(float* m) {
  __shared__ float col[BS][BS];
  __shared__ float dia[BS][BS];
  int idx = threadIdx.x;
  col[idx][threadIdx.x % BS] = m[idx];
  dia[idx][idx] = 1.0f;
  __syncthreads();
  for (int i = 0; i < BS; i++) {
    for (int j = 0; j < i; j++) col[idx][i] -= col[idx][j] * dia[j][i];
    col[idx][i] /= dia[i][i];
  }
  __syncthreads();
  m[idx] = col[idx][0];
}
void run(float* m) { lu<<<1, 16>>>(m); }
"""
    stores = [d for d in findings(tmp_path, text) if d.access == "store"]
    assert stores and all(d.metrics["request_bytes"] == 4 for d in stores)


MOMENTS = """
__global__ void moments(const int n, const double* __restrict__ x, double* __restrict__ out) {
  %(decl)s
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lid = threadIdx.x;
  double a = tid < n ? x[tid] : 0.0;
  s[lid * 4 + 0] = a; s[lid * 4 + 1] = a * a; s[lid * 4 + 2] = a * a * a; s[lid * 4 + 3] = 1.0;
  __syncthreads();
  for (int stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
    if (lid < stride) {
      s[lid * 4 + 0] += s[(lid + stride) * 4 + 0];
      s[lid * 4 + 1] += s[(lid + stride) * 4 + 1];
      s[lid * 4 + 2] += s[(lid + stride) * 4 + 2];
      s[lid * 4 + 3] += s[(lid + stride) * 4 + 3];
    }
    __syncthreads();
  }
  if (lid < 4) atomicAdd(&out[lid], s[lid]);
}
void run(int n, const double* x, double* out) { moments<<<(n + 63) / 64, 64, 64 * 32>>>(n, x, out); }
"""


def test_read_modify_write_pairs_merge_past_the_stores_between_on_dynamic_shared_memory(tmp_path):
    """Four sums of doubles per thread: on an `extern __shared__` array nvcc serves each pair as one
    LDS.128/STS.128 past the stores between (measured on an H100 with ncu: 2-way at the first steps,
    2.83 wavefronts per request against 1.67); on a sized array each double is its own request."""
    dynamic = [d for d in findings(tmp_path, MOMENTS % {"decl": "extern __shared__ double s[];"})
               if d.line >= 11]
    assert dynamic and all(d.metrics["request_bytes"] == 16 and d.metrics["ways"] == 2 and
                           d.metrics["ideal_wavefronts"] == 1.67 and d.metrics["wavefronts_per_request"] == 2.83
                           for d in dynamic)
    assert "worst at" not in dynamic[0].message
    sized = [d for d in findings(tmp_path, MOMENTS % {"decl": "__shared__ double s[64 * 4];"}) if d.line >= 11]
    assert sized and all(d.metrics["request_bytes"] == 8 for d in sized)
    # the iteration named by the loop variable's value at the launch's block: 64 >> 1
    assert "(worst at stride=32)" in sized[0].message


def test_member_reads_of_a_shared_float4_are_one_request_unless_an_atomic_splits_them(tmp_path):
    merged = lint_paths([str(SAMPLES / "member_reads_merged_good.cu")], Config(debug=True)).diagnostics
    assert [d for d in merged if d.severity != "info"] == []
    split = [d for d in lint_paths([str(SAMPLES / "member_reads_merged_bad.cu")], Config(debug=True)).diagnostics
             if d.code == "CL401"]
    assert len(split) == 3 and all(d.metrics["ways"] == 4 for d in split)


def test_a_pair_that_still_conflicts_is_reported_once_at_its_first_access(tmp_path):
    text = """
__global__ void pairs(const float* in, float* out) {
  __shared__ float s[1024];
  const int t = threadIdx.x;
  for (int k = t; k < 1024; k += 256) s[k] = in[k];
  __syncthreads();
  float a = s[4 * t];
  float b = s[4 * t + 1];
  out[t] = a + b;
}
void run(const float* in, float* out) { pairs<<<1, 256>>>(in, out); }
"""
    (d,) = findings(tmp_path, text)
    assert d.line == 7 and d.metrics["request_bytes"] == 8
    assert d.metrics["ways"] == 2                         # half-warps of 16 lanes 16 bytes apart
    assert "nvcc merges `s[4 * t]` and `s[4 * t + 1]` into 8-byte loads" in d.message


def test_a_volatile_helper_parameter_is_never_merged(tmp_path):
    text = """
__device__ float pair(volatile float* s, int t) { return s[2 * t] + s[2 * t + 1]; }
__global__ void k(const float* in, float* out) {
  __shared__ float s[512];
  s[threadIdx.x] = in[threadIdx.x];
  s[threadIdx.x + 256] = in[threadIdx.x + 256];
  __syncthreads();
  out[threadIdx.x] = pair(s, threadIdx.x);
}
void run(const float* in, float* out) { k<<<1, 256>>>(in, out); }
"""
    found = findings(tmp_path, text)
    assert len(found) == 2 and all(d.metrics["request_bytes"] == 4 for d in found)


@pytest.mark.parametrize("expr, align", [
    (ir.Num(12), 4),
    (ir.Bin("*", ir.Sym("threadIdx.x", "thread"), ir.Num(8)), 8),
    (ir.Bin("+", ir.Bin("*", ir.Sym("threadIdx.x", "thread"), ir.Num(8)), ir.Num(4)), 4),
    (ir.Bin("*", ir.Sym("pitch", "param"), ir.Num(2)), 2),       # a kernel argument is a multiple of 1
    (ir.Bin("<<", ir.Sym("t", "thread"), ir.Num(3)), 8),
    (ir.Bin("/", ir.Num(64), ir.Sym("t", "thread")), 1),
])
def test_alignment_comes_from_the_arithmetic_alone(expr, align):
    assert alignment(expr) == align


def test_global_reads_of_a_float4_s_x_y_z_are_one_16_byte_load(tmp_path):
    """`p[i].x + p[i].y + p[i].z` of a `float4` array: nvcc reads the three members as one
    ld.global.v4 (the element is 16-byte aligned), 16 sectors a warp, the ideal for 16 bytes a lane:
    no CL101. Stores write only their bytes: `v[i].x`, `.y`, `.z` are an 8-byte store and a 4-byte
    one, lanes 16 bytes apart: 16 sectors where 8 would do. Loads of `v`'s members, with the stores
    of other members of the same element between them, are read together all the same."""
    path = tmp_path / "body.cu"
    path.write_text("""__global__ void body(const float4 *p, float4 *v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = p[i].x + p[i].y + p[i].z;
    v[i].x += dt * s; v[i].y += dt * s; v[i].z += dt * s;
  }
}
void run(const float4 *p, float4 *v, int n) { body<<<(n + 127) / 128, 128>>>(p, v, 0.01f, n); }
""")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL101"]
    assert [(d.line, d.access) for d in found] == [(5, "store")]
    assert "16 sectors/request, ideal 8" in found[0].message


WORDS_OF_A_GROUP = """
__global__ void k(const float4* __restrict__ in, float* __restrict__ out) {
  __shared__ float w[1024];
  const int t = threadIdx.x << 2;
  ((float4*)w)[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float s = 0.f;
%s  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
void launch(const float4* in, float* out) { k<<<64, 256>>>(in, out); }
"""


# the loads nvcc 13 makes of a thread's words w[t + j] of an aligned 16-byte group, read off the sm_80
# and sm_90 SASS: any three are one LDS.128 (no conflict); an aligned pair is one LDS.64 (2-way at
# lanes 16 B apart); two others are two LDS (4-way each)
@pytest.mark.parametrize("words, conflicts", [((0, 1, 2), 0), ((0, 1, 3), 0), ((0, 2, 3), 0), ((1, 2, 3), 0),
                                              ((0, 1, 2, 3), 0), ((0, 1), 1), ((2, 3), 1), ((0, 2), 2),
                                              ((1, 2), 2)])
def test_three_of_the_four_words_of_a_group_are_one_16_byte_load(tmp_path, words, conflicts):
    body = "".join(f"  s += w[t + {j}] * {j + 3}.f;\n" for j in words)
    path = tmp_path / "k.cu"
    path.write_text(WORDS_OF_A_GROUP % body)
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL401"]
    assert len(found) == conflicts, [d.message for d in found]
