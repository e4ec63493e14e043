"""One confirm pass over a lint result: per translation unit, one instrumented copy compiled once;
per kernel, one run."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..analysis.simulate import AnalysisLimit
from ..diagnostic import Diagnostic
from ..engine import Workspace
from ..lint import UsageError, _with_build
from ..model import dispatch
from ..model.launch import deduced_instantiations, instantiating_macros, specialization_args
from ..preprocess import file_key
from ..rules import BY_CODE
from ..source.cufile import SourceError, SourceFile
from ..source.project import Project
from . import KernelRun
from .conditions import condition_runs, finding_access, program_params, read_sides, side_jobs
from .compare import confirm_diagnostics, doubts, dynamic_findings, kernel_totals, measure
from .plan import NotRunnable, deduced_templates, plan
from .runner import CompileFailed, Log, RunError, run_unit
from .unit import CompileUnit, build_unit


@dataclass
class UnitWork:
    """One translation unit to compile, and the kernels of it to run."""
    root: SourceFile
    unit: CompileUnit
    tables: list                                   # every kernel the unit holds (instrumented)
    pending: list = field(default_factory=list)    # (KernelRun, table, Simulation, Job) to run
    conditions: list = field(default_factory=list)  # ConditionRun: a conditional finding's two runs
    cfg: object = None                             # the root's configuration, its build's include directories


def prepare(result, cfg, smem: dict[str, int] | None = None) -> tuple[list[KernelRun], list[UnitWork], Project | None]:
    """Per translation unit, the instrumented copy and the jobs; kernels that cannot run get their
    reason. Nothing here touches the GPU. `cfg`: the Workspace the findings were made in (or its
    Config): the units compiled are those it read them in."""
    workspace = cfg if isinstance(cfg, Workspace) else Workspace(cfg)
    cfg = workspace.cfg
    runs: list[KernelRun] = []
    work: list[UnitWork] = []
    paths = [f["path"] for f in result.files]
    if not result.tables:
        return runs, work, None
    if "-" in paths or any(not os.path.isfile(p) for p in paths):
        return [KernelRun(t.path, t.kernel, False, "confirm mode runs files, not standard input")
                for t in result.tables], work, None
    try:
        sources, context = workspace.read(paths)
    except (SourceError, UsageError) as exc:
        return [KernelRun(t.path, t.kernel, False, str(exc)) for t in result.tables], work, None
    project = Project(sources, context)
    build = _with_build(cfg, [*paths, *(c.path for c in context)])    # the include directories check read with
    for root, tables in units(project, result.tables).items():
        src = project.files[root]
        files = project.unit_files(src)
        keys = {f.key for f in files}
        present = [t for t in result.tables if file_key(t.path) in keys]
        fcfg = build.for_file(src.path)
        item = UnitWork(src, build_unit(project, src, present, dict(fcfg.defines), fcfg.include_dirs), present,
                        cfg=fcfg)
        work.append(item)
        kernels = {(fn.name, fn.line, fn.file.key): fn for f in files for fn in f.kernels}
        host_templates = frozenset(tp.name for f in files for fn in f.functions
                                   if not (fn.is_kernel or fn.is_device) for tp in fn.template_params)
        host_values = host_instantiations(files)
        typedefs = {**item.unit.aliases, **project.typedefs_for(src)}
        dispatches = dispatch_spans(files)
        for table in tables:
            run = KernelRun(table.path, table.kernel, False)
            runs.append(run)
            fn = kernels.get((table.kernel, table.line, file_key(table.path)))
            try:
                if fn is None:
                    raise NotRunnable("kernel not found again in its file")
                sim = workspace.simulation(table)     # the values check's findings were made with
                params = program_params(table, cfg.for_file(table.path).params)
                sim = _running_trial(table, sim, params, result.diagnostics)
                deduced = deduced_templates(fn, table, files)
                specialized = specialization_args(fn, files)
                chosen = dispatched(dispatches, table)
                values = {**host_values, **{k: v for k, (v, _) in chosen.items()}}
                job = plan(fn, table, sim, len(item.unit.sites), (smem or {}).get(table.kernel), host_templates,
                           values, typedefs, deduced, specialized)
                # the dispatch's type as the model bound it (`k<scalar_t>` read at float) or left it
                job.values += [f"{k}={v} ({why})" for k, (v, why) in chosen.items()
                               if any(str(b).strip() in (k, v) for b in table.template_bindings.values())]
            except (NotRunnable, AnalysisLimit) as exc:
                run.reason = str(exc)
                continue
            item.pending.append((run, table, sim, job))
            conds, _ = condition_runs(result.diagnostics, table, params)
            for side in (s for c in conds for s in c.sides):
                try:
                    side.job = plan(fn, table, side.sim, len(item.unit.sites), (smem or {}).get(table.kernel),
                                    host_templates, values, typedefs, deduced, specialized)
                except (NotRunnable, AnalysisLimit) as exc:
                    side.reason = str(exc)
            item.conditions.extend(conds)
    return runs, work, project


def _running_trial(table, sim, params: dict, diags: list[Diagnostic]):
    """The simulation the run takes its values from: the first trial's, or, where that trial runs
    no thread through an access a static finding of the kernel names (a loop its sizes leave empty,
    the finding made by the trials that run it), the first trial that runs them all."""
    from ..analysis.simulate import Simulation
    accs = [a for d in diags if d.kernel == table.kernel and d.severity != "info" and d.access
            for a in [finding_access(d, table)] if a is not None]
    if not accs or all(sim.executed(a) for a in accs):
        return sim
    for trial in sim.family.trials[1:]:
        try:
            other = Simulation(table, params, trial, sim.family)
            if all(other.executed(a) for a in accs):
                return other
        except (AnalysisLimit, ArithmeticError, ValueError, TypeError):
            continue
    return sim


def confirm_tables(result, cfg, mode: str, timeout: float, smem: dict[str, int] | None = None) -> list[KernelRun]:
    workspace = cfg if isinstance(cfg, Workspace) else Workspace(cfg)
    cfg = workspace.cfg
    runs, work, project = prepare(result, workspace, smem)
    found: list[Diagnostic] = []
    for item in work:
        if not item.pending:
            continue
        unit = item.unit
        sides = side_jobs(item.conditions)
        done = run_unit(unit.sources, unit.options, [job.to_json() for _, _, _, job in item.pending] +
                        [side.job.to_json() for _, side in sides], timeout, definitions=unit.definitions)
        for k, (run, table, sim, job) in enumerate(item.pending):
            log = done.results.get(k, RunError("not run"))
            if isinstance(log, RunError):
                run.reason = _reason(log, table, unit.root)
                continue
            _compare(run, result, table, sim, job, unit, log, found, cfg)
            run.unit_s, run.unit_kernels = done.wall_s, len(item.pending)
            if mode == "ncu":
                from .ncu import hardware_figures
                if log.out_of_range:
                    run.reason = "ncu: not run, the instrumented run logged out-of-range indexes"
                else:
                    try:
                        run.hardware = hardware_figures(project, item.root, item.tables, job, item.cfg, timeout)
                    except RunError as exc:
                        run.reason = f"ncu: {exc}"
        read_sides(item.conditions, [done.results.get(len(item.pending) + k) for k in range(len(sides))],
                   unit.sites)
        for cond in item.conditions:
            run = next(r for r, t, _, _ in item.pending if t is cond.table)
            run.conditions.append("condition " + cond.findings[0].measured["summary"])
    result.diagnostics.extend(found)
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return runs


def host_instantiations(files) -> dict[str, str]:
    """The first value each host template parameter takes in the unit: `template void reduce<int>(...)`
    or a call `runTest<float>(...)` gives `T` of `template <class T> void reduce(...)` / `runTest`."""
    out: dict[str, str] = {}
    text = "\n".join([f.text for f in files] + instantiating_macros(files))
    for f in files:
        for fn in f.functions:
            if fn.is_kernel or fn.is_device or not fn.template_params:
                continue
            name = re.escape(fn.name)
            # `reduce<int>(`, or a member of a class template: `template void ReLULayer<float>::Forward_gpu(`
            own = {tp.name for tp in fn.template_params}
            m = next((m for pat in (r"\b" + name + r"\s*<\s*([^<>;{}]*?)\s*>\s*\(",
                                    r"<\s*([^<>;{}]*?)\s*>\s*::\s*" + name + r"\s*\(")
                      for m in re.finditer(pat, text)     # not the definition's own `ReLULayer<Dtype>::`
                      if not {a.strip() for a in m.group(1).split(",")} <= own), None)
            if m is not None:
                args = m.group(1).split(",")
            else:
                # `template void pad_from(float* dst, ...);`: the arguments its parameter types give
                args = next((a for _, a in deduced_instantiations(fn, fn.name, text.encode("utf-8", "surrogateescape"))),
                            None)
                if args is None:
                    continue
            for tp, arg in zip(fn.template_params, args):
                out.setdefault(tp.name, arg.strip())
    return out


def dispatch_spans(files) -> list[tuple[str, int, int, str, str, str]]:
    """Each AT_DISPATCH_* call of the unit's files (model/dispatch.py): (file key, first line, last
    line, the lambda's type name, the type this run instantiates it with, why)."""
    out = []
    for f in files:
        text = f.text.encode("utf-8", "surrogateescape")
        for d in dispatch.calls(text):
            if d.read_as is None:
                continue
            first, last = text.count(b"\n", 0, d.start) + 1, text.count(b"\n", 0, d.end) + 1
            out.append((f.key, first, last, d.name, d.read_as,
                        f"{d.macro} instantiates {', '.join(d.types)}; this run: {d.read_as}"))
    return out


def dispatched(spans, table) -> dict[str, tuple[str, str]]:
    """The types of the AT_DISPATCH_* lambdas the kernel's launch stands in: {"scalar_t": (type, why)}."""
    m = re.match(r"(.+?):(\d+)(?:\s|$)", table.launch.origin or "")
    if m is None or not os.path.isfile(m.group(1)):
        return {}
    key, line = file_key(m.group(1)), int(m.group(2))
    out: dict[str, tuple[str, str]] = {}
    for k, first, last, name, t, why in spans:
        if k == key and first <= line <= last:
            out[name] = (t, why)        # spans in order of their start: the innermost wins
    return out


def units(project: Project, tables) -> dict[str, list]:
    """The translation unit each kernel runs in: one that holds both the kernel and its launch
    (a kernel in a header runs in its runner's unit), else the kernel's own file."""
    out: dict[str, list] = {}
    for t in tables:
        kkey = file_key(t.path)
        roots = [r for r in project.units_of.get(kkey, [kkey]) if r in project.files] or [kkey]
        launch = t.launch.origin.rsplit(":", 1)[0] if ":" in t.launch.origin else ""
        lkey = file_key(launch) if launch and os.path.isfile(launch) else None
        root = next((r for r in roots if lkey is not None and lkey in project.files[r].reached), roots[0])
        if root not in project.files:
            continue
        out.setdefault(root, []).append(t)
    return out


def _reason(err: RunError, table, root: str) -> str:
    msg = str(err)
    if isinstance(err, CompileFailed):
        hint = ""
        if "cannot open source file" in msg or "No such file" in msg:
            hint = " (give -I DIR for the header it names)"
        elif "undefined" in msg or "no operator" in msg or "no instance" in msg:
            hint = " (a name from a header cudalint did not find? give -I DIR or -D NAME=VALUE)"
        return f"{os.path.basename(root)} does not compile for the run: {msg}{hint}"
    if msg.startswith("did not finish"):
        return f"kernel `{table.kernel}` {msg}"
    if msg.startswith(("the run stopped", "confirm mode", "the compiler")) or \
            msg.startswith("kernel `") and "does not compile" in msg:
        return msg
    return f"the run of `{table.kernel}` failed on the GPU ({msg})"


def _compare(run: KernelRun, result, table, sim, job, unit, log: Log, found: list, cfg) -> None:
    sites = unit.sites
    measures = measure(log, sites, job.block, job.block_weights())
    fcfg = cfg.for_file(table.path)
    confirm_diagnostics(result.diagnostics, table, sites, measures, fcfg.min_ratio)
    why = doubts(table, sim, job, sites)
    duplicates = frozenset(id(a) for a in table.accesses if a.kind == "store" and sim.result(a).duplicates)
    found.extend(dynamic_findings(result.diagnostics, table, sites, measures, fcfg.min_ratio, BY_CODE, why,
                                  duplicates))
    run.ran = True
    n_grid = job.grid[0] * job.grid[1] * job.grid[2]
    run.blocks = (f"all {n_grid} blocks" if job.whole_grid else
                  f"{len(job.blocks)} of {n_grid} blocks (first, middle and last along each axis)")
    run.records, run.truncated, run.out_of_range = len(log.records["site"]), log.truncated, log.out_of_range
    run.seconds, run.compile_s, run.run_s, run.backend = log.wall_s, log.compile_s, log.run_s, log.backend
    run.totals = kernel_totals(measures, [s for s in sites if any(a in table.accesses for a in s.accesses)])
    run.sites = [(s, measures[s.id]) for s in sites if s.id in measures]
    run.buffers = [f"{a.name}[{a.elements}]" + ("" if a.origin.startswith("largest") else f" ({a.origin})")
                   for a in job.buffers()]
    run.invented = list(job.invented)
    run.values = list(job.values)
    if job.smem:
        run.buffers.append(f"dynamic shared {job.smem} bytes ({job.smem_origin})")
