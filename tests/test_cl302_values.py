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
