"""Confirm mode passes a struct or class by value as the C layout of its bytes: pointer members get
buffers of their own whose device addresses the bytes hold at the members' offsets, scalar members
stand-in values (said so), nested structs and fixed arrays are followed, and an empty functor is its
one zero byte. What cannot be laid out for sure is refused with the reason."""
import json
import os
import struct

import numpy as np
import pytest

from cudalint.confirm import runner
from cudalint.confirm.session import prepare
from cudalint.lint import Config, lint_paths
from test_confirm import FAKE_CUPY as FAKE_BASE


def _plan(tmp_path, text, name="k.cu"):
    f = tmp_path / name
    f.write_text(text)
    cfg = Config()
    res = lint_paths([str(f)], cfg)
    runs, work, _ = prepare(res, cfg)
    return runs, work


def _job(work, kernel):
    return next(job for item in work for _, table, _, job in item.pending if table.kernel == kernel)


def _sites(work, kernel):
    return {s.text: s for item in work for s in item.unit.sites if s.function == kernel}


def _arg(job, name):
    return next(a for a in job.args if a.name == name)


PARAMS = """#include <cuda_runtime.h>
struct Params {
  const float* in;
  float* out;
  int n;
};

__global__ void gather(float* scale, Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = p.in[i * 32] * scale[0];
}

void run(float* scale, const float* in, float* out) {
  Params p;
  p.in = in;
  p.out = out;
  p.n = 4096;
  gather<<<16, 256>>>(scale, p);
}
"""


def test_a_struct_of_buffers_passes_each_pointer_members_address_at_its_offset(tmp_path):
    runs, work = _plan(tmp_path, PARAMS)
    assert [r.reason for r in runs] == [""]
    job = _job(work, "gather")
    p = _arg(job, "p")
    assert p.kind == "struct" and p.elements == 24          # two pointers, an int, padded to 8
    assert [(m.name, m.offset) for m in p.members] == [("p.in", 0), ("p.out", 8)]
    assert [(f[0], f[1], f[2], f[3]) for f in p.fields] == [("n", "int32", 16, 1)]
    # the buffers are sized from the accesses through the members, as a pointer parameter's are
    sizes = {b.name: (b.dtype, b.elements) for b in job.buffers()}
    assert sizes["p.in"][0] == "float32" and sizes["p.out"][0] == "float32"
    n = p.fields[0][4]
    assert sizes["p.out"][1] >= min(n, 16 * 256) and sizes["p.in"][1] >= 32 * (min(n, 16 * 256) - 1) + 1
    assert f"p.n={n}" in job.invented
    # the run registers the parameter's buffer first, then the members' in their order
    assert [b.name for b in job.buffers()] == ["scale", "p.in", "p.out"]
    # an access written through the member is checked against that member's own buffer
    sites = _sites(work, "gather")
    assert (sites["p.in[i * 32]"].check, sites["p.in[i * 32]"].buffer) == ("buffer", 1)
    assert (sites["p.out[i]"].check, sites["p.out[i]"].buffer) == ("buffer", 2)
    assert (sites["scale[0]"].check, sites["scale[0]"].buffer) == ("buffer", 0)
    raw = runner.struct_bytes(job.to_json()["args"][1], {"p.in": 0x7f0000001000, "p.out": 0x7f0000802000})
    assert len(raw) == 24
    assert struct.unpack_from("<QQi", raw) == (0x7f0000001000, 0x7f0000802000, n)
    assert raw[20:] == b"\0\0\0\0"


NESTED = """struct View {
  float* data;
  int ld;
};
struct Args {
  int rows;
  View a;
  View b;
  double scale;
};

// cudalint: launch grid=(4,1,1) block=(128,1,1)
__global__ void axpy(Args args) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  args.b.data[i] += (float)args.scale * args.a.data[i];
}
"""


def test_a_nested_struct_is_laid_out_with_its_padding_and_alignment(tmp_path):
    runs, work = _plan(tmp_path, NESTED)
    assert [r.reason for r in runs] == [""]
    job = _job(work, "axpy")
    a = _arg(job, "args")
    assert a.elements == 48
    assert [(m.name, m.offset) for m in a.members] == [("args.a.data", 8), ("args.b.data", 24)]
    assert [(f[0], f[1], f[2]) for f in a.fields] == [("rows", "int32", 0), ("a.ld", "int32", 16),
                                                      ("b.ld", "int32", 32), ("scale", "float64", 40)]
    assert {b.name: b.elements for b in job.buffers()} == {"args.a.data": 512, "args.b.data": 512}
    sites = _sites(work, "axpy")
    assert [sites[t].buffer for t in ("args.a.data[i]", "args.b.data[i]")] == [0, 1]
    raw = runner.struct_bytes(job.to_json()["args"][0], {"args.a.data": 0xA000, "args.b.data": 0xB000})
    assert struct.unpack_from("<i4xQi4xQi4xd", raw) == (a.fields[0][4], 0xA000, a.fields[1][4], 0xB000,
                                                         a.fields[2][4], 1.0)


TENSOR = """template <typename T>
struct Tensor4 {
  T* ptr;
  int shape[4];
};

// cudalint: launch grid=(8,1,1) block=(256,1,1)
__global__ void fill(Tensor4<float> t, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < t.shape[0] * t.shape[1]) t.ptr[i] = v;
}
"""


def test_a_pointer_with_a_shape_array_passes_the_array_in_place(tmp_path):
    runs, work = _plan(tmp_path, TENSOR)
    assert [r.reason for r in runs] == [""]
    job = _job(work, "fill")
    t = _arg(job, "t")
    assert t.elements == 24
    assert [(m.name, m.offset, m.dtype) for m in t.members] == [("t.ptr", 0, "float32")]
    assert [(f[0], f[1], f[2], f[3]) for f in t.fields] == [("shape", "int32", 8, 4)]
    raw = runner.struct_bytes(job.to_json()["args"][0], {"t.ptr": 0x1234500})
    # the elements the kernel reads as sizes carry the values the analysis ran with; the others
    # stand-ins, said as values cudalint chose
    rows, cols, rest = t.fields[0][4][0], t.fields[0][4][1], t.fields[0][4][2:]
    assert struct.unpack_from("<Q4i", raw) == (0x1234500, rows, cols, *rest)
    assert {"t.shape[0]", "t.shape[1]"} <= {v.split("=")[0] for v in job.invented}
    assert all(v.startswith("t.shape[") for v in job.invented if v.startswith("t."))


FUNCTOR = """#include <cuda_runtime.h>
struct Plus {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <typename Op>
__global__ void combine(const float* x, const float* y, float* out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(x[i], y[i]);
}

void run(const float* x, const float* y, float* out) {
  combine<Plus><<<8, 128>>>(x, y, out, 1024, Plus());
}
"""


def test_an_empty_functor_bound_to_a_template_parameter_is_its_one_zero_byte(tmp_path):
    runs, work = _plan(tmp_path, FUNCTOR)
    assert [r.reason for r in runs] == [""]
    job = _job(work, "combine")
    assert job.name_expression == "combine<Plus>"
    op = _arg(job, "op")
    assert (op.kind, op.elements, op.fields, op.members) == ("struct", 1, [], [])
    assert runner.struct_bytes(job.to_json()["args"][4]) == b"\0"
    v = runner.struct_value(job.to_json()["args"][4])
    assert v.shape == (1,) and v.dtype.itemsize == 1         # CuPy passes a one-element array by value


SPECIALIZED = """template <int K, typename Real>
struct Op {
  __device__ Real apply(Real x) const { return x; }
};
template <typename Real>
struct Op<1, Real> {
  Real alpha;
  __device__ Real apply(Real x) const { return alpha * x; }
};

// cudalint: launch grid=(1,1,1) block=(32,1,1)
__global__ void scale(float* x, Op<1, float> op) { x[threadIdx.x] = op.apply(x[threadIdx.x]); }
"""

UNION = """union Slot {
  float* p;
  long long bits;
};

// cudalint: launch grid=(1,1,1) block=(32,1,1)
__global__ void touch(Slot s) { s.p[threadIdx.x] = 1.0f; }
"""


@pytest.mark.parametrize("text, why", [
    (SPECIALIZED, "parameter `op` has type `Op<1, float>`, a class template its file specializes, whose layout "
                  "for these arguments cudalint does not know"),
    (UNION, "pointer member `s.p` of parameter `s` shares its bytes with `s.bits`, and which one the kernel reads "
            "is not known"),
])
def test_a_layout_cudalint_cannot_know_for_sure_is_refused_with_the_reason(tmp_path, text, why):
    runs, _ = _plan(tmp_path, text)
    assert [r.reason for r in runs] == [why]


def test_more_buffers_than_the_log_checks_are_refused(tmp_path):
    members = "".join(f"  float* p{i};\n" for i in range(70))
    runs, _ = _plan(tmp_path, f"struct Many {{\n{members}}};\n// cudalint: launch grid=(1,1,1) block=(32,1,1)\n"
                              f"__global__ void k(Many m) {{ m.p0[threadIdx.x] = 0.0f; }}\n")
    assert runs[0].reason == ("`k` takes 70 buffers (its pointer parameters and the pointer members of its structs), "
                              "more than the 64 the log checks")


def test_an_enum_parameter_passes_as_an_int(tmp_path):
    runs, work = _plan(tmp_path, "typedef enum { SUM = 0, MEAN = 1 } reduce_t;\n"
                                 "// cudalint: launch grid=(1,1,1) block=(32,1,1)\n"
                                 "__global__ void k(float* x, reduce_t how) { if (how == MEAN) x[threadIdx.x] = 0; }\n")
    assert [r.reason for r in runs] == [""]
    assert _arg(_job(work, "k"), "how").dtype == "int32"


# ---- the child: the struct's bytes hold the addresses of the buffers it registers ----------------
# the child's CuPy: test_confirm's, whose buffers have made-up device addresses and whose kernel
# writes down the arguments it is given
FAKE_CUPY = FAKE_BASE + """
import json, os
_next = [0x7f0000000000]
class _Ptr:
    def __init__(self, ptr): self.ptr = ptr
class _Buf:
    def __init__(self, n, dtype):
        self.nbytes = n * _np.dtype(dtype).itemsize
        self.data = _Ptr(_next[0])
        _next[0] += 1 << 24
    def astype(self, dt, copy=False): return self
class _Kernel:
    def __call__(self, grid, block, args, shared_mem=0):
        seen = []
        for a in args:
            if isinstance(a, _Buf): seen.append(["buffer", a.data.ptr])
            elif isinstance(a, _np.ndarray): seen.append(["bytes", a.size, a.tobytes().hex()])
            else: seen.append(["scalar", float(a)])
        with open(os.environ["CL_FAKE_ARGS"], "w") as f: json.dump(seen, f)
class random:
    seed = staticmethod(lambda s: None)
    random = staticmethod(lambda n, dtype=None: _Buf(n, dtype))
    randint = staticmethod(lambda lo, hi, n, dtype=None: _Buf(n, dtype))
def get_default_memory_pool():
    class _Pool:
        def free_all_blocks(self): pass
    return _Pool()
"""


def test_the_runner_fills_the_struct_with_the_addresses_of_the_buffers_it_made(tmp_path, monkeypatch):
    _, work = _plan(tmp_path, PARAMS)
    job = _job(work, "gather").to_json()
    fake = tmp_path / "fake" / "cupy"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(FAKE_CUPY)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "fake") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("CUDALINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL_FAKE_ARGS", str(tmp_path / "args.json"))
    done = runner.run_unit({"nvrtc": "__global__ void gather() {}"}, [], [job], timeout=30, plain=True)
    assert isinstance(done.results[0], runner.Log), done.results
    seen = json.loads((tmp_path / "args.json").read_text())
    assert [s[0] for s in seen] == ["buffer", "bytes"]
    scale, (_, size, hexed) = seen[0][1], seen[1]
    raw = bytes.fromhex(hexed)
    assert size == 1 and len(raw) == 24
    p_in, p_out, n = struct.unpack_from("<QQi", raw)
    # each member's buffer is one of its own, made after the parameter's, in the members' order
    assert p_in == scale + (1 << 24) and p_out == scale + (2 << 24)
    assert n == next(f for f in job["args"][1]["fields"] if f[0] == "n")[4]
    assert np.frombuffer(raw[20:], np.uint8).tolist() == [0, 0, 0, 0]
