"""Where two threads' shared accesses can meet: not past the end of a row of a multi-dimensional
array (a range question), through a row handed to a helper exactly as through the array, and
across the iterations of a loop whose count is halved rounding up."""
import textwrap

from cudalint.lint import Config, lint_paths


def cl501(tmp_path, text):
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent(text))
    return [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL501"]


ROWS = """\
    struct Spec {{ const float *basis; int dim; }};
    __device__ void fill(const Spec &spec, int lane, float *out) {{
      if (lane < spec.dim) out[lane] = spec.basis[lane];
    }}
    __global__ void k(Spec spec, float *res) {{
      __shared__ float rows[4][9];
      const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
      fill(spec, lane, rows[w]);
      __syncwarp();
      if (lane < 9) res[blockIdx.x * 128 + threadIdx.x] = rows[{row}][lane];
    }}
    void run(Spec spec, float *res) {{ k<<<64, 128>>>(spec, res); }}
"""


def test_a_row_filled_by_its_own_warp_through_a_helper_is_no_meeting(tmp_path):
    # `spec.dim` is open: at a trial past 9, lanes 9.. would store into the next row; the program
    # keeps a row's stores in the row
    assert cl501(tmp_path, ROWS.format(row="w")) == []


def test_the_next_warps_row_is_a_meeting(tmp_path):
    found = cl501(tmp_path, ROWS.format(row="(w + 1) & 3"))
    assert found and "orders one warp only" in found[0].message


def test_a_ceil_halving_count_is_followed_across_iterations(tmp_path):
    text = """\
    __global__ void k(const float *x, float *out) {
      __shared__ float buf[200];
      buf[threadIdx.x] = x[blockIdx.x * 200 + threadIdx.x];
      __syncthreads();
      int n = blockDim.x;
      while (n > 1) {
        int half = (n + 1) >> 1;
        if (threadIdx.x >= half && threadIdx.x < n) buf[threadIdx.x - half] += buf[threadIdx.x];
        %s
        n = (n + 1) >> 1;
      }
      if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
    }
    void run(const float *x, float *out) { k<<<64, 200>>>(x, out); }
    """
    assert cl501(tmp_path, text % "__syncthreads();") == []
    missing = cl501(tmp_path, text % "")
    assert missing and any("next iteration" in d.message for d in missing)


def test_an_index_past_its_dimension_is_no_meeting_with_the_next_row(tmp_path):
    text = """\
    __global__ void k(const float *basis, int dim, float *res) {
      __shared__ float rows[4][9];
      const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
      if (lane < dim) rows[w][lane] = basis[lane];
      __syncwarp();
      if (lane < 9) res[blockIdx.x * 128 + threadIdx.x] = rows[w][lane];
    }
    void run(const float *basis, int dim, float *res) { k<<<64, 128>>>(basis, dim, res); }
    """
    assert cl501(tmp_path, text) == []


def test_a_row_handed_to_a_helper_is_indexed_within_the_row(tmp_path):
    # `B[0]` of `float B[3][8]` is the first row, not the array: the helper's `p[i]` and `&p[7]`
    # index that row (not the array's rows, which would put `&p[7]` at element 56)
    text = """\
    __device__ void bump(float *a, float v) { *a += v; }
    __device__ void rows(float p[8], float q[8]) {
      for (int i = 0; i < 8; ++i) { p[i] = 0.0f; q[i] = 1.0f; }
      bump(&p[7], q[7]);
      bump(&q[1], p[1]);
    }
    __global__ void k(float *out) {
      float B[3][8];
      rows(B[0], B[1]);
      out[blockIdx.x * 64 + threadIdx.x] = B[0][7] + B[1][1];
    }
    void run(float *out) { k<<<16, 64>>>(out); }
    """
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent(text))
    assert [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code in ("CL201", "CL501")] == []
