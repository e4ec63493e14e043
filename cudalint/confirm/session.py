"""One confirm pass over a lint result: per file, one instrumented copy; per kernel, one run."""
from __future__ import annotations

from ..analysis.simulate import AnalysisLimit, Simulation
from ..diagnostic import Diagnostic
from ..lint import UsageError, _defines
from ..rules import BY_CODE
from ..source.cufile import SourceError, read_source
from . import KernelRun
from .compare import confirm_diagnostics, dynamic_findings, kernel_totals, measure
from .instrument import instrument
from .plan import NotRunnable, plan
from .runner import RunError, run_job


def confirm_tables(result, cfg, mode: str, timeout: float) -> list[KernelRun]:
    runs: list[KernelRun] = []
    found: list[Diagnostic] = []
    by_path: dict[str, list] = {}
    for t in result.tables:
        by_path.setdefault(t.path, []).append(t)
    for path, tables in by_path.items():
        try:
            src = read_source(path, _defines(cfg), cfg.include_dirs)
        except (SourceError, UsageError) as exc:
            runs.extend(KernelRun(path, t.kernel, False, str(exc)) for t in tables)
            continue
        inst = instrument(src, tables)
        for table in tables:
            fn = next((f for f in src.kernels if f.name == table.kernel and f.line == table.line), None)
            run = KernelRun(path, table.kernel, False)
            runs.append(run)
            try:
                if fn is None:
                    raise NotRunnable("kernel not found again in its file")
                sim = Simulation(table, cfg.params)
                job = plan(fn, table, sim, len(inst.sites))
                log = run_job(inst.source, job, timeout)
            except (NotRunnable, AnalysisLimit, RunError) as exc:
                run.reason = str(exc)
                continue
            measures = measure(log, inst.sites, job.block, job.block_weights())
            confirm_diagnostics(result.diagnostics, table, inst.sites, measures, cfg.min_ratio)
            found.extend(dynamic_findings(result.diagnostics, table, inst.sites, measures, cfg.min_ratio, BY_CODE))
            run.ran = True
            n_grid = job.grid[0] * job.grid[1] * job.grid[2]
            run.blocks = (f"all {n_grid} blocks" if job.whole_grid else
                          f"{len(job.blocks)} of {n_grid} blocks (first, middle and last along each axis)")
            run.records, run.truncated, run.out_of_range = len(log.records["site"]), log.truncated, log.out_of_range
            run.seconds, run.compile_s, run.run_s = log.wall_s, log.compile_s, log.run_s
            run.totals = kernel_totals(measures, inst.sites)
            run.sites = [(s, measures[s.id]) for s in inst.sites if s.id in measures]
            run.buffers = [f"{a.name}[{a.elements}]" + ("" if a.origin.startswith("largest") else f" ({a.origin})")
                           for a in job.args if a.kind == "buffer"]
            run.buffers += [f"{a.name}={a.value} ({a.origin})" for a in job.args
                            if a.kind == "scalar" and a.origin == "default"]
            if mode == "ncu":
                from .ncu import hardware_figures
                if log.out_of_range:
                    run.reason = "ncu: not run, the instrumented run logged out-of-range indexes"
                else:
                    try:
                        run.hardware = hardware_figures(src, job, timeout)
                    except RunError as exc:
                        run.reason = f"ncu: {exc}"
    result.diagnostics.extend(found)
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return runs
