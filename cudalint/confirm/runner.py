"""Compile, allocate and launch one instrumented kernel with CuPy, in a child process with a
timeout, and read the access log back.

The parent (`run_job`) never imports CuPy; the child (`python -m cudalint.confirm.runner DIR`)
does: it compiles the copy with cupy.RawModule (NVRTC), fills each buffer with random data at its
logical size, writes the log's control block, launches the sampled blocks and saves the log as
`DIR/log.npz`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .plan import Job

# Word offsets of the control block `__cl_ctl`; they mirror the enum in log_runtime.cuh.
CL_COUNT, CL_SITE, CL_SLOT, CL_TID, CL_INST, CL_EPOCH, CL_FLAGS, CL_ADDR, CL_OFF, CL_COUNTERS = range(10)
CL_CAPACITY, CL_NSITES, CL_NBUF, CL_NTHREADS, CL_GRID = range(10, 15)
CL_MAX_BUF, CL_MAX_BLOCKS = 64, 64
CL_BASE = CL_GRID + 3
CL_BYTES = CL_BASE + CL_MAX_BUF
CL_BLOCKS = CL_BYTES + CL_MAX_BUF
CL_WORDS = CL_BLOCKS + 3 * CL_MAX_BLOCKS
FIELDS = (("site", "uint32"), ("slot", "uint32"), ("tid", "uint32"), ("inst", "uint32"), ("epoch", "uint32"),
          ("flags", "uint32"), ("addr", "uint64"), ("off", "int64"))
EXIT_NO_GPU = 3
EXIT_COMPILE = 4
EXIT_TOO_BIG = 5


class RunError(Exception):
    """The instrumented run did not produce a log (compile error, timeout, no GPU); one line."""


@dataclass
class Log:
    """The records of one run (numpy arrays, one entry per record) and what the run reported."""
    records: dict[str, np.ndarray]
    asked: int                  # records the kernel asked to write (past capacity: counted only)
    out_of_range: int           # out-of-range events, all of them (also past capacity)
    compile_s: float
    run_s: float
    wall_s: float
    counts: np.ndarray | None = None   # [block slot, thread, site]: instances each thread ran

    @property
    def truncated(self) -> bool:
        return self.asked > len(self.records["site"])


def run_job(source: str, job: Job, timeout: float) -> Log:
    """Run the instrumented copy in a child process; RunError with a one-line reason on failure."""
    with tempfile.TemporaryDirectory(prefix="cudalint-confirm-") as tmp:
        d = Path(tmp)
        (d / "kernel.cu").write_text(source, encoding="utf-8")
        (d / "job.json").write_text(json.dumps(job.to_json()), encoding="utf-8")
        t0 = time.perf_counter()
        try:
            p = subprocess.run([sys.executable, "-m", "cudalint.confirm.runner", str(d)], capture_output=True,
                               text=True, timeout=timeout, env=child_env())
        except subprocess.TimeoutExpired:
            raise RunError(f"kernel `{job.kernel}` did not finish within {timeout:g} s (it may loop forever); "
                           f"stopped (raise the limit with --confirm-timeout)") from None
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            lines = [x for x in (p.stderr or p.stdout).strip().splitlines() if x.strip()]
            if p.returncode == EXIT_COMPILE:
                raise RunError(f"the instrumented copy of `{job.kernel}` does not compile: "
                               + " | ".join(lines[-6:]))
            raise RunError(lines[-1] if lines else f"the confirm run of `{job.kernel}` failed (exit {p.returncode})")
        meta = json.loads((d / "meta.json").read_text())
        with np.load(d / "log.npz") as z:
            records = {k: z[k] for k, _ in FIELDS}
            counts = z["counts"]
        return Log(records, meta["asked"], meta["out_of_range"], meta["compile_s"], meta["run_s"], wall, counts)


def child_env() -> dict:
    """The child imports this same copy of cudalint."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


# ---- the child process --------------------------------------------------------------------------
def _child(d: Path, plain: bool = False) -> int:
    try:
        import cupy as cp
    except ImportError:
        print("cupy is not installed", file=sys.stderr)
        return EXIT_NO_GPU
    try:
        if cp.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no device")
    except Exception as exc:   # CUDARuntimeError without a driver
        print(f"no CUDA GPU is available ({exc})", file=sys.stderr)
        return EXIT_NO_GPU
    job = json.loads((d / "job.json").read_text())
    source = (d / "kernel.cu").read_text(encoding="utf-8")
    t0 = time.perf_counter()
    expr = job["name_expression"]
    try:
        mod = cp.RawModule(code=source, options=("--std=c++17",), name_expressions=[expr])
        kernel = mod.get_function(expr)
    except Exception as exc:   # NVRTC's log: keep the error lines
        msg = str(exc)
        errs = [x for x in msg.splitlines() if "error" in x] or msg.splitlines()[-3:]
        print("\n".join(errs[:6]), file=sys.stderr)
        return EXIT_COMPILE
    compile_s = time.perf_counter() - t0
    need = sum(max(int(a["elements"]), 1) * np.dtype(a["dtype"]).itemsize for a in job["args"]
               if a["kind"] == "buffer") + int(job["capacity"]) * 40
    free = cp.cuda.runtime.memGetInfo()[0]
    if need > 0.8 * free:
        print(f"its buffers and log need {need / 2**30:.1f} GiB and the GPU has {free / 2**30:.1f} GiB free; "
              f"give smaller sizes with --param", file=sys.stderr)
        return EXIT_TOO_BIG
    cp.random.seed(0)
    args, buffers = [], []
    for a in job["args"]:
        if a["kind"] == "scalar":
            args.append(np.dtype(a["dtype"]).type(a["value"]))
            continue
        buf = _random(cp, max(int(a["elements"]), 1), np.dtype(a["dtype"]))
        buffers.append(buf)
        args.append(buf)
    if plain:   # the original kernel on its whole grid, for a profiler to count
        kernel(tuple(job["grid"]), tuple(job["block"]), tuple(args), shared_mem=int(job["smem"]))
        cp.cuda.Device().synchronize()
        return 0
    nthreads = int(np.prod(job["block"]))
    slots = len(job["blocks"])
    cap = int(job["capacity"])
    log = {k: cp.zeros(cap, dtype=t) for k, t in FIELDS}
    count = cp.zeros(2, dtype=cp.uint32)
    counters = cp.zeros(slots * nthreads * (job["nsites"] + 1), dtype=cp.uint32)
    ctl = np.zeros(CL_WORDS, dtype=np.uint64)
    ctl[CL_COUNT] = count.data.ptr
    for i, (k, _) in enumerate(FIELDS):
        ctl[CL_SITE + i] = log[k].data.ptr
    ctl[CL_COUNTERS] = counters.data.ptr
    ctl[CL_CAPACITY], ctl[CL_NSITES], ctl[CL_NBUF], ctl[CL_NTHREADS] = cap, job["nsites"], len(buffers), nthreads
    ctl[CL_GRID:CL_GRID + 3] = job["grid"]
    for i, b in enumerate(buffers[:CL_MAX_BUF]):
        ctl[CL_BASE + i] = b.data.ptr
        ctl[CL_BYTES + i] = b.nbytes
    for i, blk in enumerate(job["blocks"][:CL_MAX_BLOCKS]):
        ctl[CL_BLOCKS + 3 * i:CL_BLOCKS + 3 * i + 3] = blk
    mod.get_global("__cl_ctl").copy_from_host(ctl.ctypes.data, ctl.nbytes)
    t1 = time.perf_counter()
    kernel((min(slots, CL_MAX_BLOCKS), 1, 1), tuple(job["block"]), tuple(args), shared_mem=int(job["smem"]))
    cp.cuda.Device().synchronize()
    run_s = time.perf_counter() - t1
    asked, oor = (int(x) for x in count.get())
    n = min(asked, cap)
    counts = counters.get().reshape(slots, nthreads, job["nsites"] + 1)[:, :, :-1]
    np.savez(d / "log.npz", counts=counts, **{k: log[k][:n].get() for k, _ in FIELDS})
    (d / "meta.json").write_text(json.dumps({"asked": asked, "out_of_range": oor, "compile_s": compile_s,
                                             "run_s": run_s}))
    return 0


def _random(cp, n: int, dt: np.dtype):
    """Random data made on the device: floats in [0, 1), integers in [0, 64) (small enough to be
    valid indexes of most arrays when a kernel reads them as indexes)."""
    if dt.kind == "f":
        return cp.random.random(n, dtype=np.float32).astype(dt, copy=False)
    return cp.random.randint(0, 2 if dt.kind == "b" else 64, n, dtype=np.int32).astype(dt, copy=False)


if __name__ == "__main__":
    sys.exit(_child(Path(sys.argv[1]), "--plain" in sys.argv[2:]))
