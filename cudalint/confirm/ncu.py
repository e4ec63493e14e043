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

# figure -> (numerator, denominator), named as kernel_totals names the logged figures
METRICS = {
    "load_sectors_per_request": ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    "store_sectors_per_request": ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    "shared_load_wavefronts_per_request": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                           "smsp__sass_inst_executed_op_shared_ld.sum"),
    "shared_store_wavefronts_per_request": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                            "smsp__sass_inst_executed_op_shared_st.sum"),
}


def hardware_figures(src, job: Job, timeout: float) -> dict:
    ncu = shutil.which("ncu")
    if ncu is None:
        raise RunError("ncu is not on PATH (install Nsight Compute)")
    names = sorted({m for pair in METRICS.values() for m in pair})
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
    values = parse_csv(p.stdout) if p.returncode == 0 else {}
    if not values:
        tail = [x for x in (p.stderr + p.stdout).splitlines() if x.strip()]
        raise RunError(f"ncu gave no metrics ({tail[-1] if tail else 'exit ' + str(p.returncode)})")
    return figures(values)


def parse_csv(text: str) -> dict[str, float]:
    """Metric name -> value summed over the profiled launches, from `ncu --csv` output."""
    rows = csv.reader(line for line in text.splitlines() if line.startswith('"'))
    header = next(rows, None)
    if header is None or "Metric Name" not in header:
        return {}
    col_name, col_value = header.index("Metric Name"), header.index("Metric Value")
    values: dict[str, float] = {}
    for row in rows:
        try:
            values[row[col_name]] = values.get(row[col_name], 0.0) + float(row[col_value].replace(",", ""))
        except (ValueError, IndexError):
            continue
    return values


def figures(values: dict[str, float]) -> dict[str, float]:
    out = {}
    for name, (num, den) in METRICS.items():
        if values.get(den):
            out[name] = round(values[num] / values[den], 2)
    return out
