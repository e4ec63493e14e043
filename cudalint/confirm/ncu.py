"""`--confirm=ncu`: the original kernel on its whole grid under Nsight Compute, for the hardware's
own sectors per request beside the logged figures."""
from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .instrument import plain_copy
from .plan import Job
from .runner import RunError, child_env

METRICS = {
    "load": ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    "store": ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
}


def hardware_sectors(src, job: Job, timeout: float) -> dict:
    ncu = shutil.which("ncu")
    if ncu is None:
        raise RunError("ncu is not on PATH (install Nsight Compute)")
    names = [m for pair in METRICS.values() for m in pair]
    with tempfile.TemporaryDirectory(prefix="cudalint-ncu-") as tmp:
        d = Path(tmp)
        (d / "kernel.cu").write_text(plain_copy(src), encoding="utf-8")
        (d / "job.json").write_text(json.dumps(job.to_json()), encoding="utf-8")
        cmd = [ncu, "--clock-control", "none", "--csv", "--metrics", ",".join(names), "-k", f"regex:^{job.kernel}",
               sys.executable, "-m", "cudalint.confirm.runner", str(d), "--plain"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout * 4, env=child_env())
        except subprocess.TimeoutExpired:
            raise RunError(f"the profiled run of `{job.kernel}` did not finish within {timeout * 4:g} s") from None
    values: dict[str, float] = {}
    rows = csv.reader(line for line in p.stdout.splitlines() if line.startswith('"'))
    header = next(rows, None)
    if header is None or p.returncode != 0:
        tail = [x for x in (p.stderr + p.stdout).splitlines() if x.strip()]
        raise RunError(f"ncu gave no metrics ({tail[-1] if tail else 'exit ' + str(p.returncode)})")
    col_name, col_value = header.index("Metric Name"), header.index("Metric Value")
    for row in rows:
        try:
            values[row[col_name]] = values.get(row[col_name], 0.0) + float(row[col_value].replace(",", ""))
        except (ValueError, IndexError):
            continue
    out = {}
    for what, (sectors, requests) in METRICS.items():
        if values.get(requests):
            out[f"{what}_sectors_per_request"] = round(values[sectors] / values[requests], 2)
    return out
