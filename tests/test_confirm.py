"""Confirm mode without a GPU: the copy it compiles (the user's translation unit as the compiler
sees it: the `#if` arms taken, includes kept, local headers inlined, host code blanked line for
line, every Access and barrier of the model instrumented at its own place), the launch plan, the
child process that never shows a traceback, the measurements computed from a log, and the
command line when CuPy or a GPU is missing."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SAMPLES, sample_files
from cudalint.confirm import runner
from cudalint.confirm.compare import (SiteMeasure, confirm_diagnostics, doubts, dynamic_findings, kernel_totals,
                                      measure)
from cudalint.confirm.instrument import Site
from cudalint.confirm.plan import sampled_blocks
from cudalint.confirm.session import prepare
from cudalint.lint import Config, lint_paths
from cudalint.rules import BY_CODE

NVCC = shutil.which("nvcc")


def _prepared(*paths, params=None, smem=None):
    cfg = Config(params=params or {})
    res = lint_paths([str(p) for p in paths], cfg)
    runs, work, _ = prepare(res, cfg, smem)
    return res, runs, work


def _body(text: str) -> str:
    """The user's part of a copy: what follows the runtime header."""
    return text.split("#line 1 ", 1)[1]


def _code(text: str) -> str:
    """Without comments."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.DOTALL)


def _where(text: str, needle: str) -> tuple[str, int]:
    """The file and line a compiler gives the line of `text` that starts with `needle` (#line honoured)."""
    path, line = "", 0
    for raw in text.split("\n"):
        m = re.match(r'#line (\d+) "(.*)"$', raw)
        if m:
            path, line = m.group(2), int(m.group(1))
            continue
        if raw.startswith(needle):
            return path, line
        line += 1
    return "", 0


def _job(work, kernel):
    return next(job for item in work for run, table, sim, job in item.pending if table.kernel == kernel)


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_every_access_and_barrier_of_every_sample_is_instrumented(path):
    res, runs, work = _prepared(path)
    sites = [s for item in work for s in item.unit.sites]
    for item in work:
        assert item.unit.unwrapped == [] and item.unit.missed_barriers == []
        for variant in ("nvrtc", "nvcc"):
            body = _code(_body(item.unit.sources[variant]))
            assert body.count("__cl_addr(") == len(item.unit.sites)
            # (a launch a macro's definition spells is no launch: the macro's calls are host code, left out)
            code = re.sub(r"^[ \t]*#[ \t]*define(?:[^\n]*\\\n)*[^\n]*", "", body, flags=re.M)
            assert "<<<" not in code and "__syncthreads()" not in body
    for table in res.tables:
        for acc in table.accesses:
            assert any(acc in s.accesses for s in sites), acc.text


def test_shared_scalar_passed_by_reference_is_logged_in_the_helper():
    res, runs, work = _prepared(SAMPLES / "shared_ref_bad.cu")
    helper = [s for s in work[0].unit.sites if s.function == "accumulate"]
    assert [(s.line, s.text, s.kind) for s in helper] == [(2, "total", "update")]
    assert "__device__ void accumulate(float& total, float v) { (*__cl_addr(" in work[0].unit.sources["nvrtc"]


def test_an_atomic_on_a_shared_scalar_is_checked_at_the_scalars_address():
    """`atomicAdd(&s_arrived, 1)` names the scalar by its address: the range check's base is
    `&(s_arrived)`, not the scalar's value read as a pointer (which put every such atomic out of
    range in the run)."""
    res, runs, work = _prepared(SAMPLES / "atomic_leader_good.cu")
    (site,) = [s for s in work[0].unit.sites if s.text == "&s_arrived"]
    assert site.check == "array" and site.scalar
    assert "(const void*)(&(s_arrived))" in work[0].unit.sources["nvrtc"]


def test_barriers_come_from_the_model_in_each_spelling():
    res, runs, work = _prepared(SAMPLES / "cg_block_sync_good.cu")
    body = _body(work[0].unit.sources["nvrtc"])
    assert work[0].unit.barriers == 3
    assert "(cg::sync(block), __cl_epoch())" in body and "(block.sync(), __cl_epoch())" in body
    assert "(cg::this_thread_block().sync(), __cl_epoch())" in body


PROGRAM = """#include <cstdio>
#include <vector>
#include <stdint.h>
#include <float.h>
#include <cuda_bf16.h>
#include "ops.h"
#if defined(ENABLE_BF16)
typedef __nv_bfloat16 floatX;
#else
typedef float floatX;
#endif
static float* d_scratch;
const char* names[] = {"max"};
__global__ void row_max(const floatX* in, float* out, const uint8_t* mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float m = -FLT_MAX;
  if (i < n && mask[i]) m = fmaxf(m, twice((float)in[i]));
  out[i] = m;
}
void run(int n) {
  std::vector<float> h(n);
  floatX* in; float* out; uint8_t* mask;
  row_max<<<(n + 127) / 128, 128>>>(in, out, mask, n);
  printf("%f\\n", h[0]);
}
int main() { run(4096); return 0; }
"""


def _program(tmp_path):
    (tmp_path / "ops.h").write_text("#pragma once\n__device__ inline float twice(float x) { return 2.0f * x; }\n"
                                    "inline void host_only(std::vector<int>& v) { v.clear(); }\n")
    f = tmp_path / "prog.cu"
    f.write_text(PROGRAM)
    return f


def test_copy_is_the_translation_unit_the_compiler_builds(tmp_path):
    f = _program(tmp_path)
    res, runs, work = _prepared(f)
    unit = work[0].unit
    nvrtc, nvcc = unit.sources["nvrtc"], unit.sources["nvcc"]
    for text in (nvrtc, nvcc):                                   # only the arm the preprocessor takes
        assert text.count("typedef float floatX;") == 1 and "__nv_bfloat16 floatX" not in text
    assert "#include <cuda_bf16.h>" in nvrtc and "#include <vector>" not in nvrtc and "<cstdio>" not in nvrtc
    assert "#include <vector>" in nvcc and "#include <stdint.h>" in nvcc and "#include <float.h>" in nvcc
    for text in (nvrtc, nvcc):
        body = _body(text)
        assert "main" not in body and "printf" not in body and "d_scratch" not in body and "names[]" not in body
        assert "host_only" not in body and "#pragma once" not in body
        # compiler messages point at the original files' lines
        assert _where(text, "__global__ void row_max") == (str(f), 14)
        assert _where(text, "__device__ inline float twice") == (str(tmp_path / "ops.h"), 2)
    assert {s.text for s in unit.sites} == {"mask[i]", "in[i]", "out[i]"}
    assert f.read_text() == PROGRAM                              # the user's file is only read


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_copy_of_a_program_compiles_with_nvcc(tmp_path):
    f = _program(tmp_path)
    res, runs, work = _prepared(f)
    job = _job(work, "row_max")
    out = tmp_path / "copy.cu"
    out.write_text(work[0].unit.sources["nvcc"] + f"\nvoid __cl_instantiate() {{ (void)&{job.name_expression}; }}\n")
    p = subprocess.run([NVCC, "-cubin", "-std=c++17", "-arch=sm_90", "-w", str(out), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    entries = runner.cubin_entries((tmp_path / "k.cubin").read_bytes())
    assert runner.match_entry(job.name_expression, entries) == "_Z7row_maxPKfPfPKhi"


def test_kernel_in_a_header_runs_in_its_runners_unit():
    res, runs, work = _prepared(SAMPLES / "headers")
    item = next(i for i in work if i.pending)
    assert item.root.path.endswith("saxpy_runner.cu")
    assert [t.kernel for _, t, _, _ in item.pending] == ["saxpy"]
    body = _body(item.unit.sources["nvrtc"])
    assert "saxpy_kernel.cuh" in body and "__global__ void saxpy" in body and "run_saxpy" not in body
    assert {s.path.split("/")[-1] for s in item.unit.sites} == {"saxpy_kernel.cuh"}


# A representative set: template + float4 views, shared tiles, a helper, atomics, half, 3D, a header.
COMPILED = ["sgemm_2d_vec_bad.cu", "matmul_tiled_good.cu", "reduce_shared_bad.cu", "warp_sum_bad.cu",
            "half_scale_good.cu", "stencil3d_bad.cu", "template_scale_good.cu", "complex_abs_bad.cu",
            "cg_block_sync_good.cu", "shared_ref_bad.cu",
            # warp collectives whose value the code uses (cg::reduce, __shfl_xor_sync) mark an epoch
            "cg_rank_guard_good.cu", "warp_slots_bad.cu", "downsample_bad.cu"]


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("name", COMPILED)
def test_instrumented_copy_compiles_with_nvcc(tmp_path, name):
    res, runs, work = _prepared(SAMPLES / name)
    exprs = [job.name_expression for _, _, _, job in work[0].pending]
    out = tmp_path / "copy.cu"
    # taking the kernel's address instantiates a template, as NVRTC's name expression does
    out.write_text(work[0].unit.sources["nvcc"] + "\nvoid instantiate() { " + " ".join(f"(void)&{e};" for e in exprs)
                   + " }\n")
    p = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_90", str(out), "-o", str(tmp_path / "k.ptx")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    ptx = (tmp_path / "k.ptx").read_text()
    assert ".entry" in ptx and "__cl_ctl" in ptx


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_control_block_layout_matches_the_runner(tmp_path):
    from cudalint.confirm.unit import runtime_header
    prog = tmp_path / "layout.cu"
    prog.write_text(runtime_header() + "\n#include <cstdio>\nint main() { printf(\"%d %d %d %d %d %d %d\\n\", "
                    "CL_COUNTERS, CL_GRID, CL_BASE, CL_BYTES, CL_BLOCKS, CL_REQUESTS, CL_WORDS); return 0; }\n")
    p = subprocess.run([NVCC, "-arch=sm_90", str(prog), "-o", str(tmp_path / "layout")], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True).stdout.split()
    assert [int(x) for x in out] == [runner.CL_COUNTERS, runner.CL_GRID, runner.CL_BASE, runner.CL_BYTES,
                                     runner.CL_BLOCKS, runner.CL_REQUESTS, runner.CL_WORDS]


def test_user_file_is_never_written(tmp_path):
    f = tmp_path / "m.cu"
    shutil.copy(SAMPLES / "sgemm_2d_vec_bad.cu", f)
    before = (hashlib.sha256(f.read_bytes()).hexdigest(), os.stat(f).st_mtime_ns)
    _prepared(f)
    assert (hashlib.sha256(f.read_bytes()).hexdigest(), os.stat(f).st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.cu"]


def test_plan_sizes_buffers_from_the_in_range_threads():
    res, runs, work = _prepared(SAMPLES / "vecadd_bad.cu")
    job = _job(work, "vecadd")
    assert {a.name: a.elements for a in job.args if a.kind == "buffer"} == {"a": 1000, "b": 1000, "c": 1000}
    assert job.grid == (4, 1, 1) and job.whole_grid
    res, runs, work = _prepared(SAMPLES / "sgemm_2d_vec_bad.cu")
    job = work[0].pending[0][3]
    assert job.name_expression == "sgemm2d_vec<128, 128, 8, 8, 8>"
    assert {a.name: a.elements for a in job.args if a.kind == "buffer"} == {"A": 4096 * 4096, "B": 4096 * 4096,
                                                                             "C": 4096 * 4096}
    assert len(job.blocks) == 9 and (31, 31, 0) in job.blocks and (16, 16, 0) in job.blocks
    weights = dict(zip(job.blocks, job.block_weights()))
    assert weights[(16, 16, 0)] == 30 * 30 and weights[(0, 16, 0)] == 30 and weights[(31, 0, 0)] == 1
    assert sum(weights.values()) == 32 * 32


def test_buffers_cover_every_block_the_run_launches():
    # a grid-stride reduction over n=1000 with 64 blocks of 512 elements: block 1 reads 512..999,
    # which the simulation's sampled blocks skip; the buffer must still hold all 1000
    res, runs, work = _prepared(SAMPLES / "reduce_two_loads_good.cu")
    job = work[0].pending[0][3]
    assert {a.name: a.elements for a in job.args if a.kind == "buffer"} == {"in": 1000, "out": 64}


def test_a_launch_with_an_unknown_block_edge_runs_as_the_static_pass_assumed_and_says_so():
    res, runs, work = _prepared(SAMPLES / "block_param_bad.cu")
    job = work[0].pending[0][3]
    assert job.block == (16, 16, 1)
    assert job.invented and all("=" in v for v in job.invented)


REDUCE = """template <class T>
__global__ void reduce0(T* g_idata, T* g_odata, unsigned int n) {
  extern __shared__ char smem[];
  T* sdata = (T*)smem;
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template <class T>
void reduce(int size, int threads, int blocks, T* d_idata, T* d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
  reduce0<T><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
}
template void reduce<double>(int size, int threads, int blocks, double* d_idata, double* d_odata);
"""


def test_dynamic_shared_memory_comes_from_the_launch_expression(tmp_path):
    f = tmp_path / "reduction.cu"
    f.write_text(REDUCE)
    res, runs, work = _prepared(f, params={"threads": 256, "blocks": 64, "size": 16384})
    job = _job(work, "reduce0")
    assert job.name_expression == "reduce0<double>"              # the host template's instantiation
    assert (job.smem, job.smem_origin) == (256 * 8, "launch")      # sizeof(double), threads = 256
    res, runs, work = _prepared(f, params={"threads": 16, "blocks": 64, "size": 1024})
    assert _job(work, "reduce0").smem == 2 * 16 * 8


def test_dynamic_shared_memory_from_the_largest_extern_index_or_the_option(tmp_path):
    f = tmp_path / "ext.cu"
    f.write_text("// cudalint: launch grid=(4,1,1) block=(256,1,1)\n"
                 "__global__ void k(float* out) {\n  extern __shared__ float s[];\n"
                 "  s[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[threadIdx.x] = s[255 - threadIdx.x];\n}\n")
    res, runs, work = _prepared(f)
    job = _job(work, "k")
    assert (job.smem, job.smem_origin) == (256 * 4, "largest extern __shared__ index")
    res, runs, work = _prepared(f, smem={"k": 4096})
    assert (_job(work, "k").smem, _job(work, "k").smem_origin) == (4096, "--smem")


def test_kernels_that_cannot_run_say_what_to_give(tmp_path):
    f = tmp_path / "lib.cu"
    f.write_text("__global__ void orphan(float* a) { a[threadIdx.x] = 0.0f; }\n"
                 "template <class T> __global__ void fill(T* a) { a[threadIdx.x] = T(0); }\n"
                 "template <class T> void launch(T* a) { fill<T><<<1, 32>>>(a); }\n")
    res, runs, work = _prepared(f)
    reasons = {r.kernel: r.reason for r in runs}
    assert "--launch orphan:grid=X,Y,Z:block=X,Y,Z" in reasons["orphan"]
    assert "template parameter of the host function" in reasons["fill"]


VIEWS = """#define FETCH_FLOAT4(p) (reinterpret_cast<float4*>(&(p))[0])
// cudalint: launch grid=(4,1,1) block=(64,1,1)
__global__ void copy4(float* out, const float* in) {
  __shared__ float s[256];
  int i = blockIdx.x * 64 + threadIdx.x;
  FETCH_FLOAT4(s[4 * threadIdx.x]) = FETCH_FLOAT4(in[4 * i]);
  __syncthreads();
  out[i] = s[threadIdx.x];
}
"""


def test_an_element_read_through_a_wider_view_is_logged_at_the_views_width(tmp_path):
    f = tmp_path / "v.cu"
    f.write_text(VIEWS)
    res, runs, work = _prepared(f)
    widths = {s.text: s.width for s in work[0].unit.sites}
    assert widths == {"s[4 * threadIdx.x]": 16, "in[4 * i]": 16, "out[i]": 0, "s[threadIdx.x]": 0}
    assert _code(_body(work[0].unit.sources["nvrtc"])).count(", 16u)") == 2


def test_sampled_blocks_are_first_middle_last_along_each_axis():
    assert sampled_blocks((4, 2, 1)) == [(x, y, 0) for y in range(2) for x in range(4)]
    big = sampled_blocks((100, 10, 3))
    assert len(big) == 27 and {b[0] for b in big} == {0, 50, 99} and {b[2] for b in big} == {0, 1, 2}


def test_mangled_names_of_a_cubin_are_matched_to_name_expressions():
    entries = ["_Z5sgemmILi32ELi64ELi8EEvPfS0_i", "_Z5sgemmILi64ELi64ELi8EEvPfS0_i", "_ZN2ns1kIfLj256EEEvPT_",
               "_ZN2ns1kIdLj256EEEvPT_", "plain_c_kernel", "_Z6reduceI13__nv_bfloat16Li4EEvPT_"]
    assert runner.match_entry("sgemm<64, 64, 8>", entries) == "_Z5sgemmILi64ELi64ELi8EEvPfS0_i"
    assert runner.match_entry("ns::k<double, 256>", entries) == "_ZN2ns1kIdLj256EEEvPT_"
    assert runner.match_entry("plain_c_kernel", entries) == "plain_c_kernel"
    assert runner.match_entry("reduce<floatX, 4>", entries) == "_Z6reduceI13__nv_bfloat16Li4EEvPT_"
    assert runner.match_entry("missing", entries) is None


# ---- the child process: a fault, a hang or an error costs one kernel, never a traceback ---------
FAKE_CUPY = """import os, signal, time
import numpy as _np
class _Runtime:
    @staticmethod
    def getDeviceCount(): return 1
    @staticmethod
    def memGetInfo(): return (1 << 34, 1 << 34)
class _Device:
    compute_capability = "90"
    def synchronize(self): pass
class cuda:
    runtime = _Runtime
    Device = _Device
class _Kernel:
    def __call__(self, grid, block, args, shared_mem=0):
        if grid[0] == 1: os.kill(os.getpid(), signal.SIGSEGV)
        if grid[0] == 2: raise RuntimeError("cudaErrorIllegalAddress: an illegal memory access was encountered\\nmore")
        if grid[0] == 3: time.sleep(60)
class RawModule:
    def __init__(self, code=None, options=(), name_expressions=(), path=None):
        if "does_not_compile" in code: raise RuntimeError("kernel.cu(3): error: identifier \\"nope\\" is undefined")
    def get_function(self, name): return _Kernel()
class random:
    seed = staticmethod(lambda s: None)
    random = staticmethod(lambda n, dtype=None: _np.zeros(n, dtype))
    randint = staticmethod(lambda lo, hi, n, dtype=None: _np.zeros(n, dtype))
uint32 = _np.uint32
"""


def _fake_job(grid):
    return {"kernel": "k", "name_expression": "k", "grid": [grid, 1, 1], "block": [32, 1, 1], "smem": 0,
            "blocks": [[0, 0, 0]], "args": [{"name": "a", "kind": "buffer", "dtype": "float32", "elements": 32}],
            "nsites": 1, "capacity": 16}


def test_a_kernel_that_faults_hangs_or_raises_costs_only_itself(tmp_path, monkeypatch):
    fake = _fake_cupy(tmp_path, FAKE_CUPY)
    monkeypatch.setenv("PYTHONPATH", fake + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("CUDALINT_CACHE_DIR", str(tmp_path / "cache"))
    jobs = [_fake_job(1), _fake_job(4), _fake_job(2), _fake_job(3), _fake_job(5)]
    done = runner.run_unit({"nvrtc": "__global__ void k(float* a) {}"}, [], jobs, timeout=3, plain=True)
    r = done.results
    assert isinstance(r[0], runner.RunError) and str(r[0]).startswith("the run stopped")
    assert isinstance(r[1], runner.Log) and isinstance(r[4], runner.Log)
    assert str(r[2]) == "RuntimeError: cudaErrorIllegalAddress: an illegal memory access was encountered"
    assert str(r[3]).startswith("did not finish within 3 s")
    assert not any("Traceback" in str(x) or "\n" in str(x) for x in r.values())
    done = runner.run_unit({"nvrtc": "does_not_compile"}, [], jobs[:2], timeout=3, plain=True)
    assert [str(x) for x in done.results.values()] == ['kernel.cu(3): error: identifier "nope" is undefined'] * 2


# ---- measurements from a log ---------------------------------------------------------------------
def _log(rows, *, oor=()):
    """rows: (site, slot, tid, inst, epoch, space flag, width, addr, off)."""
    cols = list(zip(*rows))
    flags = np.array([f | (w << 8) for f, w in zip(cols[5], cols[6])], dtype=np.uint32)
    for i in oor:
        flags[i] |= 8
    rec = {"site": np.array(cols[0], np.uint32), "slot": np.array(cols[1], np.uint32),
           "tid": np.array(cols[2], np.uint32), "inst": np.array(cols[3], np.uint32),
           "epoch": np.array(cols[4], np.uint32), "flags": flags, "addr": np.array(cols[7], np.uint64),
           "off": np.array(cols[8], np.int64)}
    return runner.Log(rec, len(rows), len(oor), 0.0, 0.0, 0.0)


def _site(i, kind="load"):
    return Site(i, "k", 1, 1, 1, 2, f"a{i}[...]", kind, f"a{i}")


def test_sectors_per_request_of_a_unit_and_a_row_stride_warp():
    base = 1 << 20
    unit = [(0, 0, t, k, 0, 1, 4, base + 4 * t + 4096 * k, 0) for t in range(32) for k in range(3)]
    row = [(1, 0, t, 0, 0, 1, 4, base + 4000 * t, 0) for t in range(32)]
    bcast = [(2, 0, t, 0, 0, 1, 4, base, 0) for t in range(32)]
    m = measure(_log(unit + row + bcast), [_site(0), _site(1), _site(2)], (32, 1, 1))
    assert (m[0].requests, m[0].sectors_per_request, m[0].ideal_sectors) == (3, 4.0, 4.0)
    assert (m[1].sectors_per_request, m[1].ideal_sectors, m[1].x_step_bytes) == (32.0, 4.0, 4000)
    assert (m[2].sectors_per_request, m[2].ideal_sectors) == (1.0, 1.0)
    assert kernel_totals(m, [_site(0), _site(1), _site(2)]) == {"load_sectors_per_request": round(
        (3 * 4 + 32 + 1) / 5, 2)}


def test_sampled_blocks_count_for_the_blocks_they_stand_for():
    full = [(0, 1, t, 0, 0, 1, 4, 4096 + 4 * t, 0) for t in range(32)]        # middle block: 4 sectors
    edge = [(0, 0, t, 0, 0, 1, 4, 4 * t, 0) for t in range(8)]                 # an edge block, 8 lanes: 1
    m = measure(_log(full + edge), [_site(0)], (32, 1, 1), [1, 3])[0]
    assert (m.requests, m.weight, m.sectors_per_request) == (2, 4.0, (3 * 4 + 1) / 4)


def test_kernel_totals_weigh_sites_by_the_requests_they_really_made():
    inner = [(0, 0, t, k, 0, 1, 16, 4096 + 16 * t + 512 * k, 0) for t in range(32) for k in range(3)]   # 16
    outer = [(1, 0, t, 0, 0, 1, 16, 32 * t, 0) for t in range(32)]                                      # 32
    log = _log(inner + outer)
    log.counts = np.zeros((1, 32, 2), dtype=np.uint32)
    log.counts[0, :, 0], log.counts[0, :, 1] = 1024, 16       # 1024 loop instances, only 3 logged
    sites = [_site(0), _site(1)]
    m = measure(log, sites, (32, 1, 1))
    assert (m[0].requests, m[0].weight, m[1].weight) == (3, 1024.0, 16.0)
    assert kernel_totals(m, sites)["load_sectors_per_request"] == round((1024 * 16 + 16 * 32) / 1040, 2)


def test_float4_lanes_32_bytes_apart_touch_twice_the_ideal_sectors():
    rows = [(0, 0, t, 0, 0, 1, 16, 4096 + 32 * t, 0) for t in range(32)]
    m = measure(_log(rows), [_site(0)], (32, 1, 1))[0]
    assert (m.sectors_per_request, m.ideal_sectors) == (32.0, 16.0)


def test_shared_wavefronts_count_bank_conflicts_and_broadcasts():
    col = [(0, 0, t, 0, 0, 2, 4, 4 * 32 * t, 0) for t in range(32)]        # s[tx][0]: one bank, 32 words
    pad = [(1, 0, t, 0, 0, 2, 4, 4 * 33 * t, 0) for t in range(32)]        # s[tx][0] with 33 columns
    same = [(2, 0, t, 0, 0, 2, 4, 128, 0) for t in range(32)]              # one word: broadcast
    f4 = [(3, 0, t, 0, 0, 2, 16, 16 * t, 0) for t in range(32)]            # float4, contiguous: 4 phases
    m = measure(_log(col + pad + same + f4), [_site(i) for i in range(4)], (32, 1, 1))
    assert (m[0].wavefronts_per_request, m[0].ways) == (32.0, 32.0)
    assert (m[1].wavefronts_per_request, m[2].wavefronts_per_request) == (1.0, 1.0)
    assert (m[3].wavefronts_per_request, m[3].ways) == (4.0, 1.0)


def test_out_of_range_overlapping_stores_and_races():
    oor_rows = [(0, 0, t, 0, 0, 1, 4, 4 * t, 4 * (990 + t)) for t in range(32)]
    over = [(1, 0, t, 0, 0, 1, 4, 64 + 4 * (t // 2), 0) for t in range(32)]   # pairs of threads, one element
    race = [(2, 0, 0, 0, 3, 2, 4, 8, 0), (3, 0, 5, 0, 3, 2, 4, 8, 0)]           # store by 0, load by 5, epoch 3
    synced = [(2, 0, 0, 1, 4, 2, 4, 12, 0), (3, 0, 5, 1, 5, 2, 4, 12, 0)]       # a barrier between them
    sites = [_site(0), _site(1, "store"), _site(2, "store"), _site(3)]
    m = measure(_log(oor_rows + over + race + synced, oor=range(10, 32)), sites, (32, 1, 1))
    assert (m[0].out_of_range, m[0].min_index, m[0].max_index) == (22, 1000, 1021)
    assert m[1].overlapping_stores == 16
    assert (m[2].race_words, m[3].race_words) == (1, 1)


def test_threads_writing_different_bytes_of_one_word_do_not_race():
    bytes_ = [(0, 0, t, 0, 0, 2, 1, 64 + t, 0) for t in range(4)]            # 4 threads, a byte each
    word = [(1, 0, 40, 0, 0, 2, 4, 64, 0)]                                   # a warp-1 thread reads the word
    sites = [_site(0, "store"), _site(1)]
    assert measure(_log(bytes_), sites, (64, 1, 1))[0].race_words == 0
    m = measure(_log(bytes_ + word), sites, (64, 1, 1))
    assert (m[0].race_words, m[1].race_words) == (1, 1)


def test_syncwarp_orders_lanes_of_one_warp_but_not_two_warps():
    W = 1 << 20                                                                 # one __syncwarp() in the epoch
    lanes = [(0, 0, 0, 0, 0, 2, 4, 8, 0), (1, 0, 5, 0, W, 2, 4, 8, 0)]          # store by 0, load by 5 after it
    warps = [(0, 0, 0, 1, 0, 2, 4, 16, 0), (1, 0, 40, 1, W, 2, 4, 16, 0)]       # load by thread 40: warp 1
    sites = [_site(0, "store"), _site(1)]
    m = measure(_log(lanes), sites, (64, 1, 1))
    assert (m[0].race_words, m[1].race_words) == (0, 0)
    m = measure(_log(lanes + warps), sites, (64, 1, 1))
    assert (m[0].race_words, m[1].race_words) == (1, 1)                        # word 16 only


def test_syncwarp_calls_are_instrumented(tmp_path):
    f = tmp_path / "w.cu"
    f.write_text("// cudalint: launch grid=(1,1,1) block=(32,1,1)\n"
                 "__global__ void k(float* out) {\n  __shared__ float s[32];\n"
                 "  s[threadIdx.x] = threadIdx.x;\n  __syncwarp();\n"
                 "  out[threadIdx.x] = s[31 - threadIdx.x];\n  __syncwarp(0xffffffffu);\n}\n")
    res, runs, work = _prepared(f)
    body = _body(work[0].unit.sources["nvrtc"])
    assert body.count("__cl_syncwarp(") == 2 and "__syncwarp(" not in body


def test_findings_confirmed_refuted_and_found_by_measurement_alone():
    res, runs, work = _prepared(SAMPLES / "matmul_naive_bad.cu")
    table = res.tables[0]
    sites = work[0].unit.sites
    site = {s.text: s for s in sites}
    def m(i, sectors, **steps):
        return SiteMeasure(i, requests=10, weight=10, sectors_per_request=sectors, ideal_sectors=4.0, **steps)
    measures = {site["left[row * K + i]"].id: m(0, 32.0, x_step_bytes=4000, y_step_bytes=0),
                site["out[row * N + col]"].id: m(1, 4.0, x_step_bytes=4, y_step_bytes=4000),
                site["right[i * N + col]"].id: m(2, 32.0)}
    diags = res.diagnostics
    confirm_diagnostics(diags, table, sites, measures, 2.0)
    by = {(d.line, d.code): d for d in diags}
    assert by[(12, "CL101")].confirmed is True
    assert by[(12, "CL101")].measured["summary"] == "32.0 sectors/request measured (ideal 4.0)"
    assert by[(16, "CL102")].confirmed is False          # it stands for the store's CL101 too
    new = dynamic_findings(diags, table, sites, measures, 2.0, BY_CODE)
    assert [(d.line, d.code, d.source, d.confirmed) for d in new] == [(13, "CL101", "dynamic", True)]
    doc = new[0].to_json()
    assert doc["source"] == "dynamic" and doc["measured"]["sectors_per_request"] == 32.0
    from cudalint.report.text import render
    text = render(type("R", (), {"diagnostics": diags + new})())
    assert "[confirmed: 32.0 sectors/request measured (ideal 4.0)]" in text
    assert "[not confirmed: threadIdx.x steps 4 bytes, threadIdx.y 4000 bytes measured, 4.0 sectors/request]" in text


GATHER = """// cudalint: launch grid=(4,1,1) block=(256,1,1)
__global__ void gather(float* out, const float* in, const int* idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
  if (i < n) out[i + n] = 2.0f;
}
"""


def test_what_is_measured_through_random_indexes_or_invented_sizes_is_info(tmp_path):
    f = tmp_path / "g.cu"
    f.write_text(GATHER)
    res, runs, work = _prepared(f)
    run, table, sim, job = work[0].pending[0]
    sites = work[0].unit.sites
    site = {s.text: s for s in sites}
    why = doubts(table, sim, job, sites)
    assert why[site["in[idx[i]]"].id] == "the index is read from `idx`, which the run filled with random data"
    assert why[site["out[i + n]"].id] == "measured only under values cudalint chose (n=1000)"
    assert site["idx[i]"].id not in why and "n=1000" in job.invented
    bad = SiteMeasure(0, requests=8, weight=8, sectors_per_request=32.0, ideal_sectors=4.0, out_of_range=3,
                      min_index=1024, max_index=4294967494)
    measures = {site["in[idx[i]]"].id: bad, site["out[i + n]"].id: bad}
    new = dynamic_findings(res.diagnostics, table, sites, measures, 2.0, BY_CODE, why)
    assert new and all(d.severity == "info" and "(not a finding: " in d.message for d in new)


def test_json_without_confirm_has_no_measured_or_source_keys():
    for d in lint_paths([str(SAMPLES / "matmul_naive_bad.cu")], Config()).diagnostics:
        doc = d.to_json()
        assert "measured" not in doc and "source" not in doc and doc["confirmed"] is None


# ---- the command line ---------------------------------------------------------------------------
def _fake_cupy(tmp_path, body):
    pkg = tmp_path / "fake" / "cupy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(body)
    return str(tmp_path / "fake")


def _cli(*args, pythonpath=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (pythonpath, str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "cudalint", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def test_confirm_without_cupy_exits_2_with_the_install_command(tmp_path):
    fake = _fake_cupy(tmp_path, "raise ImportError('No module named cupy')\n")
    p = _cli("--confirm", str(SAMPLES / "matmul_naive_bad.cu"), pythonpath=fake)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "cudalint: --confirm needs CuPy, which is not installed: pip install 'cudalint[gpu]'\n"


def test_confirm_without_a_gpu_exits_2_saying_so(tmp_path):
    fake = _fake_cupy(tmp_path, "class _R:\n    @staticmethod\n    def getDeviceCount():\n"
                                "        raise RuntimeError('cudaErrorNoDevice: no CUDA-capable device is detected')\n"
                                "class cuda:\n    runtime = _R\n")
    p = _cli(str(SAMPLES / "matmul_naive_bad.cu"), "--confirm=ncu", pythonpath=fake)
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1
    assert "--confirm needs an NVIDIA GPU" in p.stderr and "no CUDA-capable device" in p.stderr


def test_a_bad_smem_value_is_a_usage_error():
    p = _cli("--confirm", str(SAMPLES / "matmul_naive_bad.cu"), "--smem", "matmul=lots")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "cudalint: bad --smem value `matmul=lots`: give KERNEL=BYTES, e.g. --smem reduce0=4096\n"


def test_plain_run_never_imports_cupy(tmp_path):
    fake = _fake_cupy(tmp_path, "raise SystemExit('cupy was imported')\n")
    p = _cli(str(SAMPLES / "matmul_naive_bad.cu"), "--format", "json", pythonpath=fake)
    assert p.returncode == 1 and "cupy" not in p.stderr
    assert json.loads(p.stdout)["diagnostics"]
    code = ("import sys; from cudalint.cli import main; main([sys.argv[1]]); "
            "print('cupy' in sys.modules, 'cudalint.confirm' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code, str(SAMPLES / "matmul_naive_bad.cu")], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.stdout.splitlines()[-1] == "False False"


def test_nsight_compute_csv_to_figures():
    from cudalint.confirm.ncu import figures, parse_csv
    text = ('==PROF== Connected to process 1\n'
            '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
            '"0","matmul","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","1,650"\n'
            '"0","matmul","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","","100"\n'
            '"0","matmul","l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum","sector","3,200"\n'
            '"0","matmul","l1tex__t_requests_pipe_lsu_mem_global_op_st.sum","","100"\n')
    assert figures(parse_csv(text)) == {"load_sectors_per_request": 16.5, "store_sectors_per_request": 32.0}
    assert parse_csv("==ERROR== no kernels were profiled\n") == {}


NOGUARD = """#include <cuda_runtime.h>
__global__ void add_noguard(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = 2.0f * a[i];
}
void add(const float* a, float* c, int n) {
  add_noguard<<<(n + 255) / 256, 256>>>(a, c, n);
}
"""


def test_a_conditional_finding_is_planned_at_values_on_both_sides_of_its_condition(tmp_path):
    f = tmp_path / "noguard.cu"
    f.write_text(NOGUARD)
    _, runs, work = _prepared(f)
    (cond,) = work[0].conditions
    assert cond.condition == "n % 256 != 0" and {d.array for d in cond.findings} == {"a", "c"}
    meets, fails = cond.sides
    assert (meets.meets, meets.values) == (True, {"n": 1000})
    assert (fails.meets, fails.values) == (False, {"n": 1024})
    # each side's job passes its n and sizes the buffers for the threads inside it
    for side in cond.sides:
        args = {a.name: a for a in side.job.args}
        assert args["n"].value == side.values["n"] and args["c"].elements == side.values["n"]


def test_the_verdict_of_a_condition_needs_the_first_side_out_of_range_and_not_the_second(tmp_path):
    from cudalint.confirm.conditions import verdict
    f = tmp_path / "noguard.cu"
    f.write_text(NOGUARD)
    _, _, work = _prepared(f)
    cond = work[0].conditions[0]
    ids = {s.array.name: s.id for s in work[0].unit.sites if s.array is not None}
    meets, fails = cond.sides
    for a_fails, confirmed in ((0, True), (3, False)):
        meets.ran = fails.ran = True
        meets.measures = {ids["a"]: SiteMeasure(ids["a"], requests=8, out_of_range=24, min_index=1000, max_index=1023)}
        fails.measures = {ids["a"]: SiteMeasure(ids["a"], requests=8, out_of_range=a_fails, min_index=1024,
                                                max_index=1026)}
        verdict(cond, work[0].unit.sites)
        d = next(d for d in cond.findings if d.array == "a")
        assert d.confirmed is confirmed
        assert d.measured["meets"]["out_of_range"] == 24 and d.measured["fails"]["out_of_range"] == a_fails
        c = next(d for d in cond.findings if d.array == "c")
        assert c.confirmed is False       # nothing out of range measured at its own access


def test_a_run_uses_the_programs_values_and_allocations_and_says_so(tmp_path):
    f = tmp_path / "prog.cu"
    f.write_text("#include <cuda_runtime.h>\n"
                 "__global__ void scale(float* x, int n, int inc) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  if (i < n) x[i * inc] *= 2.0f;\n}\n"
                 "int main() {\n  int n = 5000;\n  float* x;\n"
                 "  cudaMalloc(&x, (n + 16) * sizeof(float));\n"
                 "  scale<<<(n + 127) / 128, 128>>>(x, n, 1);\n  return 0;\n}\n")
    _, _, work = _prepared(f)
    (_, _, _, job), = work[0].pending
    args = {a.name: a for a in job.args}
    assert (args["n"].value, args["inc"].value) == (5000, 1)
    assert args["x"].elements == 5016 and "allocation" in args["x"].origin
    assert job.invented == [] and job.grid == (40, 1, 1)
    assert "n=5000 (every launch passes 5000)" in job.values


DEDUCED = """#include <cuda_runtime.h>
typedef struct MatrixDim_ { int rows; int cols; int stride; } MatrixDim;
template <typename Real>
__global__ void _scale(Real alpha, Real* dst, MatrixDim d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < d.cols && j < d.rows) dst[j * d.stride + i] *= alpha;
}
void cudaF_scale(dim3 Gr, dim3 Bl, float alpha, float* dst, MatrixDim d) { _scale<<<Gr, Bl>>>(alpha, dst, d); }
void run(float* dst, MatrixDim d) {
  dim3 grid(4, 4), block(16, 16);
  cudaF_scale(grid, block, 2.0f, dst, d);
}
"""


def test_a_template_argument_the_launch_deduces_and_a_struct_passed_by_value_run(tmp_path):
    """`_scale<<<Gr, Bl>>>(alpha, dst, d)` in a host function of `float alpha, float* dst` runs
    `_scale<float>`; `MatrixDim d` travels as a struct of three ints, its members stand-ins, said so."""
    f = tmp_path / "kernels.cu"
    f.write_text(DEDUCED)
    _, runs, work = _prepared(f)
    assert [r.reason for r in runs] == [""]
    (_, _, _, job), = work[0].pending
    assert job.name_expression == "_scale<float>"
    d = next(a for a in job.args if a.name == "d")
    assert d.kind == "struct" and [(m[0], m[1], m[2]) for m in d.fields] == \
        [("rows", "int32", 0), ("cols", "int32", 4), ("stride", "int32", 8)]
    assert "d.rows=1000" in job.invented
    from cudalint.confirm.runner import struct_value
    v = struct_value(d.__dict__)
    assert v.dtype.itemsize == 12 and v.tobytes() == np.array([1000, 1000, 1000], np.int32).tobytes()


INSTANTIATED = """#include <cuda_runtime.h>
#define INSTANTIATE_GPU(classname) \\\\
  template void classname<float>::forward(const float* x, float* y, int n); \\\\
  template void classname<double>::forward(const double* x, double* y, int n)
template <typename Dtype> struct Relu { void forward(const Dtype* x, Dtype* y, int n); };
template <typename Dtype>
__global__ void relu(const Dtype* x, Dtype* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0 ? x[i] : 0;
}
template <typename Dtype>
void Relu<Dtype>::forward(const Dtype* x, Dtype* y, int n) { relu<Dtype><<<(n + 255) / 256, 256>>>(x, y, n); }
INSTANTIATE_GPU(Relu);
"""


def test_a_kernel_launched_from_a_member_of_a_class_template_a_macro_instantiates_runs(tmp_path):
    f = tmp_path / "relu.cu"
    f.write_text(INSTANTIATED)
    _, runs, work = _prepared(f)
    assert [r.reason for r in runs] == [""]
    assert work[0].pending[0][3].name_expression == "relu<float>"


# ---- units of real projects: a library outside the tree, a build's include directories ---------------------
class _NvccOnly:
    """What runner.compile_unit asks of CuPy when only nvcc compiles (no GPU here): an sm_90 device."""
    class RawModule:
        def __init__(self, code=None, options=(), name_expressions=(), path=None):
            if code is not None:
                raise RuntimeError("NVRTC is not used here")

        def get_function(self, name):
            return name

    class cuda:
        class Device:
            compute_capability = "90"

        @staticmethod
        def get_nvcc_path():
            return NVCC

        @staticmethod
        def get_cuda_path():
            return ""


def _compile_with_nvcc(tmp_path, work):
    """The kernels of the first unit that compile as the GPU run compiles them with nvcc, and those left out."""
    item = next(w for w in work if w.pending)
    d = tmp_path / "unit"
    d.mkdir()
    (d / "nvcc.cu").write_text(item.unit.sources["nvcc"])
    spec = {"variants": ["nvcc"], "options": item.unit.options, "cache": str(tmp_path / "cache"),
            "names": list(dict.fromkeys(job.name_expression for _, _, _, job in item.pending)),
            "definitions": item.unit.definitions}
    _, kernels, backend, left_out = runner.compile_unit(_NvccOnly, d, spec)
    return set(kernels), left_out


def _project(tmp_path, files: dict[str, str]):
    (tmp_path / ".git").mkdir()
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_a_kernel_whose_types_come_from_openfst_through_the_projects_include_directory_compiles(tmp_path):
    # kaldi's layout: src/base/kaldi-types.h takes int32 from OpenFst's <fst/types.h> (not installed), and
    # src/cudamatrix/k.cu includes it as "base/kaldi-types.h" (the build's -I src)
    _project(tmp_path, {
        "src/base/kaldi-types.h": "#include <stdint.h>\n#include <fst/types.h>\nnamespace kaldi { using ::int32; }\n",
        "src/cudamatrix/k.cu": '#include "base/kaldi-types.h"\n'
                               "__global__ void _scale(float* x, int n) {\n"
                               "  kaldi::int32 i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  if (i < n) x[i] *= 2.0f;\n}\n"
                               "void scale(float* x) { _scale<<<4, 256>>>(x, 1024); }\n"})
    res, runs, work = _prepared(tmp_path / "src/cudamatrix/k.cu")
    assert _job(work, "_scale").name_expression == "_scale"
    kernels, left_out = _compile_with_nvcc(tmp_path, work)
    assert kernels == {"_scale"} and not left_out


AT_KERNELS = """#include <ATen/ATen.h>
using at::Half;
using phalf = at::Half;
template <typename T>
__global__ void gather_kernel(int n, const T* points, const int* idx, T* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = points[idx[i]];
}
__global__ void half_kernel(int n, phalf* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = out[i];
}
"""
AT_RUNNER = """#include "kernels.cuh"
void gather(at::Tensor points, at::Tensor idx, at::Tensor out, int n) {
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(points.scalar_type(), "gather", [&] {
    gather_kernel<scalar_t><<<(n + 255) / 256, 256>>>(n, points.data_ptr<scalar_t>(), idx.data_ptr<int>(),
                                                      out.data_ptr<scalar_t>());
  });
  half_kernel<<<(n + 255) / 256, 256>>>(n, (phalf*)out.data_ptr());
}
"""


def test_a_kernel_launched_in_an_at_dispatch_lambda_runs_its_float_instantiation(tmp_path):
    _project(tmp_path, {"kernels.cuh": AT_KERNELS, "runner.cu": AT_RUNNER})
    res, runs, work = _prepared(tmp_path / "runner.cu", tmp_path / "kernels.cuh")
    job = _job(work, "gather_kernel")
    assert job.name_expression == "gather_kernel<float>"
    assert "scalar_t=float (AT_DISPATCH_FLOATING_TYPES_AND_HALF instantiates double, float, at::Half; this run: " \
           "float)" in job.values


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_a_kernel_is_compiled_without_the_definitions_it_does_not_need_that_do_not_compile(tmp_path):
    # PyTorch's headers are not on this machine: `using at::Half;` does not compile, nor does the kernel
    # that needs it; the other kernel compiles and runs, and the one left out says why
    _project(tmp_path, {"kernels.cuh": AT_KERNELS, "runner.cu": AT_RUNNER})
    res, runs, work = _prepared(tmp_path / "runner.cu", tmp_path / "kernels.cuh")
    kernels, left_out = _compile_with_nvcc(tmp_path, work)
    assert kernels == {"gather_kernel<float>"}
    assert set(left_out) == {"half_kernel"} and "phalf" in left_out["half_kernel"]


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_a_unit_with_library_headers_and_member_templates_compiles_where_the_user_wrote_it(tmp_path):
    # the cuBLAS header NVRTC stands in for with two lines, and a host member template defined outside its
    # class template (two template heads), before the kernel
    f = tmp_path / "k.cu"
    f.write_text("#include <cublas_v2.h>\n"
                 "template <typename R> struct Mat { template <typename O> void copy(const Mat<O>& m); };\n"
                 "template <typename R>\ntemplate <typename O>\nvoid Mat<R>::copy(const Mat<O>& m) {}\n"
                 "__global__ void twice(float* x, int n) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= 2.0f;\n}\n"
                 "void run(float* x) { twice<<<4, 256>>>(x, 1024); }\n")
    res, runs, work = _prepared(f)
    unit = work[0].unit
    for text in unit.sources.values():
        assert _where(text, "__global__ void twice") == (str(f), 6)     # compiler messages at the user's lines
    kernels, left_out = _compile_with_nvcc(tmp_path, work)
    assert kernels == {"twice"} and not left_out


def test_a_finding_of_another_launch_is_not_measured_at_the_first_one():
    """`dispatch_sites_bad.cu` overflows its tile only at its second launch (block 256 for a tile of
    128); the run is of the first (64 threads), whose log cannot speak to it either way."""
    res, runs, work = _prepared(SAMPLES / "dispatch_sites_bad.cu")
    table = res.tables[0]
    sites = work[0].unit.sites
    measures = {s.id: SiteMeasure(s.id, requests=4, weight=4) for s in sites}
    diags = [d for d in res.diagnostics if d.code == "CL201"]
    assert diags and all("launch" in d.metrics for d in diags)
    confirm_diagnostics(diags, table, sites, measures, 2.0)
    assert all(d.confirmed is None for d in diags)
    assert all(d.measured["summary"].startswith("not measured: the run is the kernel's first launch") for d in diags)


LOOP_MACRO = """\
#define KERNEL_LOOP(i, n) \\
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

__global__ void scale(const float* in, float* out, int n) {
  KERNEL_LOOP(index, n) {
    out[index] = 2.0f * in[index];
  }
}

void launch(const float* in, float* out, int n) {
  scale<<<(n + 255) / 256, 256>>>(in, out, n);
}
"""


def test_a_kernel_body_written_as_a_braced_loop_macro_is_kept_and_logged(tmp_path):
    # `MACRO(i, n) { ... }` inside a kernel reads to the parser like a function of its own; the copy
    # that runs keeps it (it is the kernel's loop, not host code) and logs its accesses
    f = tmp_path / "loop.cu"
    f.write_text(LOOP_MACRO)
    res, runs, work = _prepared(f)
    body = _body(work[0].unit.sources["nvrtc"])
    assert "KERNEL_LOOP(index, n) {" in body and "void launch" not in body
    assert {s.text for s in work[0].unit.sites} == {"in[index]", "out[index]"}
    assert "&(out[index])" in body and "&(in[index])" in body        # both go through the log


def test_an_explicit_specialization_with_a_qualified_argument_is_named_as_written(tmp_path):
    f = tmp_path / "spec.cu"
    f.write_text("namespace at { struct Half { unsigned short x; }; }\n"
                 "template <typename T> __global__ void copy(const T* a, T* b, int n) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = a[i]; }\n"
                 "template <> __global__ void copy<at::Half>(const at::Half* a, at::Half* b, int n) {\n"
                 "  int i = threadIdx.x; if (i < n) b[i] = a[i]; }\n")
    res, runs, work = _prepared(f)
    assert sorted(r.kernel for r in runs) == ["copy", "copy<at::Half>"]
