"""Two threads storing to one element conflict only where they may store different values: threads
that differ only on threadIdx axes the stored value does not follow (through the addresses it loads
from, the locals it reads and the guards those were set under) store one value."""
import textwrap

import pytest

from cudalint.lint import Config, lint_paths

KERNEL = """\
    __device__ float twice(float v) {{ return 2.0f * v; }}
    __device__ void put(float &r, const float *w, int c) {{ r = w[c + threadIdx.z]; }}
    __global__ void k(const float *w, float *out, int C) {{
      __shared__ float s[256];
      {body}
      __syncthreads();
      out[blockIdx.x * 256 + threadIdx.z * 32 + threadIdx.x] = s[threadIdx.x];
    }}
    void run(const float *w, float *out) {{ k<<<64, dim3(32, 1, 4)>>>(w, out, 256); }}
"""


def cl302(tmp_path, body):
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent(KERNEL.format(body=body)))
    return [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL302"]


@pytest.mark.parametrize("body", [
    "s[threadIdx.x] = w[threadIdx.x];",                                   # one load, one address
    "float v = w[threadIdx.x] * 0.5f; s[threadIdx.x] = twice(v);",       # through a local and a helper
    "for (int c = threadIdx.x; c < 256; c += 32) s[c] = w[c];",          # a loop all slices step alike
    "s[threadIdx.x] = 1.0f;",                                             # a constant
])
def test_slices_storing_one_value_do_not_conflict(tmp_path, body):
    assert cl302(tmp_path, body) == []


@pytest.mark.parametrize("body", [
    "s[threadIdx.x] = w[threadIdx.x + threadIdx.z];",                     # each slice its own address
    "float v = 0.0f; if (threadIdx.z == 1) v = w[threadIdx.x]; s[threadIdx.x] = v;",   # set in one slice
    "float r[2]; r[0] = w[threadIdx.z]; s[threadIdx.x] = r[0];",         # a register array: each its own
    "float r; put(r, w, threadIdx.x); s[threadIdx.x] = r;",              # written through a reference
    "s[threadIdx.x] += w[threadIdx.x];",                                  # read-modify-write loses updates
])
def test_slices_that_may_store_different_values_conflict(tmp_path, body):
    (d,) = cl302(tmp_path, body)
    assert d.severity == "error"
    assert "z=0" in d.message and "z=1" in d.message


HALVES = """\
    __global__ void k(const float *x, const float *sum, float *out, float scale, int n) {{
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      {body}
    }}
    void run(const float *x, const float *sum, float *out, float scale, int n) {{
      k<<<(n + 255) / 256, 256>>>(x, sum, out, scale, n);
    }}
"""


def halves(tmp_path, body):
    cu = tmp_path / "h.cu"
    cu.write_text(textwrap.dedent(HALVES.format(body=body)))
    return [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL302"]


@pytest.mark.parametrize("body", [
    "out[i / 2] = (i / 2) * 3.0f;",                                 # the value is a function of the element
    "float s = sum[i / 2]; out[i / 2] = s * scale;",                # loaded at the element's own index
    "out[i / 2] = scale;",                                          # an argument: one value for the launch
])
def test_writers_computing_one_value_from_the_element_do_not_conflict(tmp_path, body):
    assert halves(tmp_path, body) == []


@pytest.mark.parametrize("body", [
    "out[i / 2] = x[i];",                                           # each writer its own element of x
    "float s = x[i]; out[i / 2] = s * scale;",                      # through a local
    "out[i / 2] = i * 3.0f;",                                       # a value of the thread, not the element
    "float s = sum[i / 2]; for (int k = 0; k < 4; ++k) { out[i / 2 + k] = s; s = x[i + k]; }",   # reassigned
])
def test_writers_computing_their_own_values_conflict(tmp_path, body):
    (d,) = halves(tmp_path, body)
    assert d.severity == "error"


def test_writers_updating_the_element_they_store_conflict(tmp_path):
    # each writer reads the element and stores it less one: a writer may read another's store
    (d,) = halves(tmp_path, "out[i / 2] = out[i / 2] - scale;")
    assert d.severity == "error"


ACCESSOR = """\
    struct Mat2D {{
      float *data;
      int pitch;
      __device__ float *ptr(int r, int c) const {{ return data + r * pitch + c; }}
    }};
    __global__ void k(Mat2D coef, const float *in, float *out, int n) {{
      __shared__ float cs[2 * 90];
      int a = blockIdx.z;
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      cs[2 * a] = {value};
      __syncthreads();
      if (i < n) out[a * n + i] = in[i] * cs[2 * a];
    }}
    void run(Mat2D coef, const float *in, float *out, int n) {{
      k<<<dim3((n + 255) / 256, 1, 90), 256>>>(coef, in, out, n);
    }}
"""


@pytest.mark.parametrize("value, conflict", [
    ("*coef.ptr(a, 0)", False),                   # the block's coefficient, through an accessor
    ("*coef.ptr(a, threadIdx.x % 2)", True),      # two coefficients: lanes store different ones
])
def test_a_value_read_through_an_accessor_follows_the_address_it_reads(tmp_path, value, conflict):
    cu = tmp_path / "a.cu"
    cu.write_text(textwrap.dedent(ACCESSOR.format(value=value)))
    got = [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL302"]
    assert bool(got) == conflict


ROWSTAT = """\
    __global__ void row_stats(const float* in, float* out) {{
      __shared__ float tile[8][32];
      float m[1];
      m[0] = -1e30f;
      tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
      __syncthreads();
      for (int j = 0; j < 32; j++)
        m[0] = fmaxf(m[0], {read});
      out[blockIdx.x * 8 + threadIdx.y] = m[0];
    }}
    void run(const float* in, float* out) {{ row_stats<<<4, dim3(32, 8)>>>(in, out); }}
"""


@pytest.mark.parametrize("read, conflict", [
    ("tile[threadIdx.y][j]", False),                # the row's maximum, one value per row
    ("tile[threadIdx.y][threadIdx.x] + j", True),   # each lane's own column
])
def test_a_register_array_holds_what_its_stores_follow(tmp_path, read, conflict):
    cu = tmp_path / "r.cu"
    cu.write_text(textwrap.dedent(ROWSTAT.format(read=read)))
    got = [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL302"]
    assert bool(got) == conflict


LOST = """\
    __global__ void k(const int *a, int *out, int *lock, int n) {{
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) {{
        int v = a[i];
        {body}
      }}
    }}
    void run(const int *a, int *out, int *lock, int n) {{ k<<<{grid}, {block}>>>(a, out, lock, n); }}
"""


def lost(tmp_path, body, grid="(n + 255) / 256", block="256"):
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent(LOST.format(body=body, grid=grid, block=block)))
    return [d for d in lint_paths([str(cu)], Config()).diagnostics if d.code == "CL302" and d.severity != "info"]


def test_a_read_modify_write_of_one_element_under_a_test_of_loaded_data_loses_updates(tmp_path):
    got = lost(tmp_path, "if (v > 0) out[0] = max(out[0], v);")
    assert len(got) == 1 and got[0].severity == "warning" and "update is lost" in got[0].message
    # one thread of each block, across the blocks of a grid sized from n
    got = lost(tmp_path, "if (threadIdx.x == 0) out[0] = out[0] + v;")
    assert len(got) == 1 and "blocks of the grid" in got[0].message


@pytest.mark.parametrize("body, grid, block", [
    ("if (v > 0) atomicMax(out, v);", "(n + 255) / 256", "256"),                 # atomic
    ("if (v > 0) out[0] = 1;", "(n + 255) / 256", "256"),                        # one value, no read
    ("if (atomicAdd(lock, 1) == 0) out[0] = out[0] + v;", "(n + 255) / 256", "256"),   # elected
    ("if (v > 0) out[0] = out[0] + v;", "1", "1"),                               # one thread
    ("if (threadIdx.x == 0) out[0] = out[0] + v;", "1", "256"),                  # one block
    ("if (threadIdx.x == 0) out[blockIdx.x] = out[blockIdx.x] + v;", "(n + 255) / 256", "256"),
])
def test_an_update_one_thread_makes_or_an_atomic_makes_is_no_lost_update(tmp_path, body, grid, block):
    assert lost(tmp_path, body, grid, block) == []
