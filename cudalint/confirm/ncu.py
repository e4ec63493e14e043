"""`--confirm=ncu`: the original kernel on its whole grid under Nsight Compute, for the hardware's
own sectors per request beside the logged figures."""
from __future__ import annotations

import csv
import re
import shutil
import tempfile
from pathlib import Path

from .plan import Job
from .runner import RunError, run_unit
from .unit import build_unit

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


def hardware_figures(project, root, tables, job: Job, fcfg, timeout: float) -> dict:
    """The uninstrumented unit (the same text, no log), its kernel on the whole grid under ncu."""
    ncu = shutil.which("ncu")
    if ncu is None:
        raise RunError("ncu is not on PATH (install Nsight Compute)")
    names = sorted({m for pair in METRICS.values() for m in pair})
    unit = build_unit(project, root, tables, dict(fcfg.defines), fcfg.include_dirs, instrumented=False)
    with tempfile.TemporaryDirectory(prefix="cudalint-ncu-") as tmp:
        report = Path(tmp) / "ncu.csv"
        cmd = [ncu, "--clock-control", "none", "--csv", "--log-file", str(report), "--metrics", ",".join(names),
               "-k", f"regex:^(.*::)?{re.escape(job.kernel)}([<(].*)?$"]
        done = run_unit(unit.sources, unit.options, [job.to_json()], timeout * 4, plain=True, runner=cmd,
                        definitions=unit.definitions)
        err = done.results.get(0)
        if isinstance(err, RunError):
            raise RunError(f"the profiled run failed ({err})")
        text = report.read_text(errors="replace") if report.exists() else ""
        text = text if '"Metric Name"' in text else "\n".join(done.other)
    values = parse_csv(text)
    if not values:
        raise RunError("ncu gave no metrics (is the GPU's performance counter access allowed?)")
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
