"""A figure in a message comes from values the program gives: where the lanes' distance is made of
a size cudalint chose, the message writes it as the program's expression, and where no single
distance describes the lanes (a packed triangle's growing gaps) it names none."""
import re
import textwrap

from cudalint.lint import Config, lint_paths


def cl101(tmp_path, source):
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent(source))
    return [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL101"]


def test_lanes_a_record_apart_are_written_with_the_open_size_not_a_trial_value(tmp_path):
    # adjacent lanes differ in k = i % K, so they are M elements apart; M is not given
    (d,) = cl101(tmp_path, """\
        __global__ void gather(int B, int N, int K, int M, const float *scores, float *out) {
          for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < B * N * K; i += blockDim.x * gridDim.x) {
            int b = i / (N * K);
            int n = i % (N * K) / K;
            int k = i % K;
            float s = 0;
            for (int m = 0; m < M; m++)
              s += scores[b * N * K * M + n * K * M + k * M + m];
            out[i] = s;
          }
        }
        void run(int B, int N, int K, int M, const float *s, float *o) {
          gather<<<(B * N * K + 255) / 256, 256>>>(B, N, K, M, s, o);
        }
    """)
    assert "lanes 4·M B apart" in d.message
    assert d.metrics["lane_stride_bytes"] == "4·M"
    assert not re.search(r"lanes \d+ B apart", d.message)


def test_a_packed_triangle_s_growing_gaps_get_no_distance(tmp_path):
    found = cl101(tmp_path, """\
        __global__ void diag(float *packed, float alpha, int n) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if (i < n) {
            int index = ((i + 1) * (i + 2) / 2) - 1;
            packed[index] *= alpha;
          }
        }
        void run(float *p, float a, int n) { diag<<<(n + 255) / 256, 256>>>(p, a, n); }
    """)
    assert {d.access for d in found} == {"load", "store"}
    for d in found:
        assert "lanes unevenly apart" in d.message
        assert " B apart" not in d.message
        assert d.metrics["lane_stride_bytes"] is None


def test_a_given_stride_keeps_its_figure(tmp_path):
    (d,) = cl101(tmp_path, """\
        __global__ void col(const float *a, float *o) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          o[i] = a[i * 64];
        }
        void run(const float *a, float *o) { col<<<16, 256>>>(a, o); }
    """)
    assert "lanes 256 B apart" in d.message


def test_a_grid_edge_the_program_does_not_give_is_written_as_its_launch_expression(tmp_path):
    # the lanes are gridDim.x elements apart, and the grid is `batch`, which no caller gives
    (d,) = cl101(tmp_path, """\
        __global__ void column_copy(const float *in, float *out, int len) {
          for (int i = threadIdx.x; i < len; i += blockDim.x)
            out[blockIdx.x * len + i] = in[i * gridDim.x + blockIdx.x];
        }
        void run(const float *in, float *out, int len, int batch) { column_copy<<<batch, 128>>>(in, out, len); }
    """)
    assert "lanes 4·batch B apart" in d.message
    assert not re.search(r"\d{3,} B apart", d.message)


def test_a_pitch_from_cudamallocpitch_is_the_row_rounded_up_to_512_bytes(tmp_path):
    # each lane reads 2 floats: 8 sectors for the 4 a warp's first floats need, with rows that start
    # on 512-byte boundaries (cudaMallocPitch's pitch), not 9 or 10 as rows 1000 bytes long give
    src = """\
        __global__ void down2(const float* src, size_t srcPitch, float* dst, int w, int h) {
          int i = blockIdx.y * blockDim.y + threadIdx.y;
          int j = blockIdx.x * blockDim.x + threadIdx.x;
          if (i < h && j < w) {
            const float* l1 = (const float*)((const char*)src + (2 * i) * srcPitch);
            dst[i * w + j] = l1[2 * j] + l1[2 * j + 1];
          }
        }
        %s
        """
    host = """int main() {
          size_t sp; float *s, *d;
          cudaMallocPitch((void**)&s, &sp, 2000 * sizeof(float), 2048);
          cudaMalloc(&d, 1000 * 1024 * sizeof(float));
          down2<<<dim3(1000 / 16, 1024 / 8), dim3(16, 8)>>>(s, sp, d, 1000, 1024);
        }"""
    (d,) = cl101(tmp_path, src % host)
    assert d.message.startswith("load of `l1[2 * j]`: 8 sectors/request, ideal 4")
    # a pitch the program does not give is tried as such a pitch too
    (d,) = cl101(tmp_path, src % "void run(const float* s, size_t sp, float* d, int w, int h) {\n"
                 "  down2<<<dim3((w + 15) / 16, (h + 7) / 8), dim3(16, 8)>>>(s, sp, d, w, h);\n}")
    assert d.message.startswith("load of `l1[2 * j]`: 8 sectors/request, ideal 4")


def test_a_float3_moves_in_three_4_byte_pieces(tmp_path):
    # 36 B apart: each piece's request touches 32 sectors, where 4 would hold a warp's 4-byte pieces
    (d,) = cl101(tmp_path, """\
        __global__ void put(float3* out, int n) {
          int t = blockDim.x * blockIdx.x + threadIdx.x;
          if (t < n) out[3 * t] = make_float3(t, t, t);
        }
        void run(float3* out, int n) { put<<<(n + 255) / 256, 256>>>(out, n); }
        """)
    assert "32 sectors/request, ideal 4; lanes 36 B apart" in d.message


def test_a_term_that_holds_still_from_lane_to_lane_does_not_name_the_distance(tmp_path):
    """`mask + (tid / rows) * maskCols + (tid % rows) * width` with `width` changed for the last
    column: adjacent lanes are `width` apart (the modulus moves), `tid / rows` holds still. At the
    trial maskCols and width are both 1000, which fitted the wrong term: the message said
    `4·maskCols B apart`. It now names no distance it cannot tell, and never maskCols."""
    found = cl101(tmp_path, """\
        __global__ void pool_back(float *in, float *mask, float *out, int rows, int cols, int inCols,
                                  int numKernels, int maskCols, int width, int lastWidth) {
          int tid = threadIdx.x + blockIdx.x * blockDim.x;
          if (tid >= rows * cols) return;
          int rowId = tid / rows;
          int colId = tid % rows;
          float *b = in + rowId * inCols + colId * width;
          if (colId == rows - 1) width = lastWidth;
          float *m = mask + (rowId / numKernels) * maskCols + colId * width;
          float best = 0;
          for (int i = 1; i < width; ++i) best = fmaxf(best, b[i] * m[i]);
          out[tid] = best;
        }
        void run(float *in, float *mask, float *out, int rows, int cols, int inCols, int nk, int mc, int w, int lw) {
          pool_back<<<(rows * cols + 255) / 256, 256>>>(in, mask, out, rows, cols, inCols, nk, mc, w, lw);
        }
        """)
    texts = {d.message.split("`")[1]: d.message for d in found}
    assert "4·width B apart" in texts["b[i]"]
    assert "maskCols B apart" not in texts["m[i]"]
