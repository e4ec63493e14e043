"""Confirm mode without a GPU: the instrumented copy (every Access wrapped, host code gone, compiles
with nvcc, user file untouched), the launch plan, the measurements computed from a log, and the
command line when CuPy or a GPU is missing."""
import hashlib
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SAMPLES, sample_files
from cudalint.analysis.simulate import Simulation
from cudalint.confirm import runner
from cudalint.confirm.compare import (SiteMeasure, confirm_diagnostics, dynamic_findings, kernel_totals,
                                      measure)
from cudalint.confirm.instrument import Site, instrument
from cudalint.confirm.plan import plan, sampled_blocks
from cudalint.lint import Config, lint_sources
from cudalint.rules import BY_CODE
from cudalint.source.cufile import read_source, source_from_bytes

NVCC = shutil.which("nvcc")


def _instrumented(path):
    src = read_source(str(path))
    res = lint_sources([src], Config())
    return src, res, instrument(src, res.tables)


def _kernel_job(src, res, inst, params=None):
    table = res.tables[0]
    fn = next(f for f in src.kernels if f.name == table.kernel)
    return plan(fn, table, Simulation(table, params or {}), len(inst.sites))


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_every_access_of_every_sample_is_wrapped(path):
    src, res, inst = _instrumented(path)
    assert inst.unwrapped == []
    for table in res.tables:
        for acc in table.accesses:
            assert any(acc in s.accesses for s in inst.sites), acc.text
    body = inst.source.split("(device code, instrumented)", 1)[1]
    assert body.count("__cl_addr(") == len(inst.sites)
    assert "<<<" not in body


def test_copy_drops_host_code_and_rewrites_each_access_form(tmp_path):
    f = tmp_path / "k.cu"
    text = ("#include <cstdio>\n#include <cuda_fp16.h>\n#define TILE 32\n"
            "__device__ float twice(const float* p, int i) { return 2.0f * p[i]; }\n"
            "__global__ void k(float* a, const float* b, int n) {\n"
            "  __shared__ float s[TILE][TILE + 1];\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  s[threadIdx.y][threadIdx.x] = __ldg(&b[i]);\n"
            "  __syncthreads();\n"
            "  float4 v = reinterpret_cast<const float4*>(&b[4 * i])[0];\n"
            "  a[i] += *(b + i) + s[threadIdx.x][threadIdx.y] + twice(b, i) + v.x;\n"
            "  atomicAdd(&a[0], 1.0f);\n"
            "  float x = sizeof(a[0]);\n"
            "}\n"
            "int main() { float* d; k<<<1, 32>>>(d, d, 32); printf(\"%p\", d); return 0; }\n")
    f.write_text(text)
    src, res, inst = _instrumented(f)
    body = inst.source.split("(device code, instrumented)", 1)[1]
    assert "main" not in body and "printf" not in body and "<cstdio>" not in body
    assert "#include <cuda_fp16.h>" in body and "#define TILE 32" in body
    texts = {s.text: s for s in inst.sites}
    assert set(texts) == {"p[i]", "s[threadIdx.y][threadIdx.x]", "&b[i]",
                          "reinterpret_cast<const float4*>(&b[4 * i])[0]", "a[i]", "*(b + i)",
                          "s[threadIdx.x][threadIdx.y]", "&a[0]"}
    assert texts["a[i]"].kind == "update" and texts["&a[0]"].kind == "atomic"
    assert texts["s[threadIdx.y][threadIdx.x]"].check == "array"
    assert texts["s[threadIdx.y][threadIdx.x]"].array_bytes == 32 * 33 * 4
    assert texts["a[i]"].check == "buffer" and texts["a[i]"].buffer == 0
    assert texts["p[i]"].check == "any"                   # inside a helper: checked against every buffer
    assert "__cl_sync()" in body and "__syncthreads()" not in body
    assert "sizeof(a[0])" in body                         # not evaluated: not an access
    assert f.read_text() == text


def test_user_file_is_never_written(tmp_path):
    f = tmp_path / "m.cu"
    shutil.copy(SAMPLES / "sgemm_2d_vec_bad.cu", f)
    before = (hashlib.sha256(f.read_bytes()).hexdigest(), os.stat(f).st_mtime_ns)
    _instrumented(f)
    assert (hashlib.sha256(f.read_bytes()).hexdigest(), os.stat(f).st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.cu"]


# A representative set: template + float4 views, shared tiles, a helper, atomics, half, 3D, a header.
COMPILED = ["sgemm_2d_vec_bad.cu", "matmul_tiled_good.cu", "reduce_shared_bad.cu", "warp_sum_bad.cu",
            "half_scale_good.cu", "stencil3d_bad.cu", "template_scale_good.cu", "complex_abs_bad.cu"]


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("name", COMPILED)
def test_instrumented_copy_compiles_with_nvcc(tmp_path, name):
    src, res, inst = _instrumented(SAMPLES / name)
    exprs = [_kernel_job(src, res, inst).name_expression]
    out = tmp_path / "copy.cu"
    # taking the kernel's address instantiates a template, as NVRTC's name expression does
    out.write_text(inst.source + "\nvoid instantiate() { " + " ".join(f"(void)&{e};" for e in exprs) + " }\n")
    p = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_90", str(out), "-o", str(tmp_path / "k.ptx")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    ptx = (tmp_path / "k.ptx").read_text()
    assert ".entry" in ptx and "__cl_ctl" in ptx


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_control_block_layout_matches_the_runner(tmp_path):
    from cudalint.confirm.instrument import runtime_header
    prog = tmp_path / "layout.cu"
    prog.write_text(runtime_header() + "\n#include <cstdio>\nint main() { printf(\"%d %d %d %d %d %d\\n\", "
                    "CL_COUNTERS, CL_GRID, CL_BASE, CL_BYTES, CL_BLOCKS, CL_WORDS); return 0; }\n")
    p = subprocess.run([NVCC, "-arch=sm_90", str(prog), "-o", str(tmp_path / "layout")], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True).stdout.split()
    assert [int(x) for x in out] == [runner.CL_COUNTERS, runner.CL_GRID, runner.CL_BASE, runner.CL_BYTES,
                                     runner.CL_BLOCKS, runner.CL_WORDS]


def test_plan_sizes_buffers_from_the_in_range_threads():
    src, res, inst = _instrumented(SAMPLES / "vecadd_bad.cu")
    job = _kernel_job(src, res, inst)
    assert {a.name: a.elements for a in job.args if a.kind == "buffer"} == {"a": 1000, "b": 1000, "c": 1000}
    assert job.grid == (4, 1, 1) and job.whole_grid
    src, res, inst = _instrumented(SAMPLES / "sgemm_2d_vec_bad.cu")
    job = _kernel_job(src, res, inst)
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
    src, res, inst = _instrumented(SAMPLES / "reduce_two_loads_good.cu")
    job = _kernel_job(src, res, inst)
    assert {a.name: a.elements for a in job.args if a.kind == "buffer"} == {"in": 1000, "out": 64}


def test_a_launch_with_an_unknown_block_edge_runs_as_the_static_pass_assumed():
    src, res, inst = _instrumented(SAMPLES / "block_param_bad.cu")
    job = _kernel_job(src, res, inst)
    assert job.block == (16, 16, 1)


def test_sampled_blocks_are_first_middle_last_along_each_axis():
    assert sampled_blocks((4, 2, 1)) == [(x, y, 0) for y in range(2) for x in range(4)]
    big = sampled_blocks((100, 10, 3))
    assert len(big) == 27 and {b[0] for b in big} == {0, 50, 99} and {b[2] for b in big} == {0, 1, 2}


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
    src = read_source(str(f))
    inst = instrument(src, lint_sources([src], Config()).tables)
    body = inst.source.split("(device code, instrumented)")[1]
    assert body.count("__cl_syncwarp(") == 2 and "__syncwarp(" not in body


def test_findings_confirmed_refuted_and_found_by_measurement_alone():
    src, res, inst = _instrumented(SAMPLES / "matmul_naive_bad.cu")
    table = res.tables[0]
    site = {s.text: s for s in inst.sites}
    def m(i, sectors, **steps):
        return SiteMeasure(i, requests=10, weight=10, sectors_per_request=sectors, ideal_sectors=4.0, **steps)
    measures = {site["left[row * K + i]"].id: m(0, 32.0, x_step_bytes=4000, y_step_bytes=0),
                site["out[row * N + col]"].id: m(1, 4.0, x_step_bytes=4, y_step_bytes=4000),
                site["right[i * N + col]"].id: m(2, 32.0)}
    diags = res.diagnostics
    confirm_diagnostics(diags, table, inst.sites, measures, 2.0)
    by = {(d.line, d.code): d for d in diags}
    assert by[(12, "CL101")].confirmed is True
    assert by[(12, "CL101")].measured["summary"] == "32.0 sectors/request measured (ideal 4.0)"
    assert by[(16, "CL101")].confirmed is False and by[(16, "CL102")].confirmed is False
    new = dynamic_findings(diags, table, inst.sites, measures, 2.0, BY_CODE)
    assert [(d.line, d.code, d.source, d.confirmed) for d in new] == [(13, "CL101", "dynamic", True)]
    doc = new[0].to_json()
    assert doc["source"] == "dynamic" and doc["measured"]["sectors_per_request"] == 32.0
    from cudalint.report.text import render
    text = render(type("R", (), {"diagnostics": diags + new})())
    assert "[confirmed: 32.0 sectors/request measured (ideal 4.0)]" in text
    assert "[not confirmed: 4.0 sectors/request measured (ideal 4.0)]" in text


def test_json_without_confirm_has_no_measured_or_source_keys():
    src = source_from_bytes("k.cu", (SAMPLES / "matmul_naive_bad.cu").read_bytes())
    for d in lint_sources([src], Config()).diagnostics:
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
