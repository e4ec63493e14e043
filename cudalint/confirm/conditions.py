"""A finding that states a condition over values the program does not give (`metrics["condition"]`:
`n % 256 != 0` for a missing tail guard) is run twice, at values on both sides of its condition:
one that meets it (n = 1000) and one that does not (n = 1024). It is confirmed only where the
out-of-range accesses appear in the first run and not in the second, so the condition is what is
measured, not one sample. Which side a value falls on is asked of the model itself (the access's
threads past the size under those values), so any extent expression works the same way."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.family import derive, grid_sizes, holds, param_checks
from ..analysis.simulate import AnalysisLimit, Simulation

# values tried for the open sizes, in order: ones that are no multiple of a block edge (an odd one
# among them), and multiples of every power-of-two edge up to 1024
MEETS = (1000, 1001, 999, 1023, 4001)
FAILS = (1024, 2048, 4096, 256, 512)


@dataclass
class Side:
    """One run of a conditional finding: its values and whether they meet the condition."""
    meets: bool
    values: dict[str, int]
    sim: Simulation
    job: object = None
    measures: dict = field(default_factory=dict)    # site id -> SiteMeasure of its run
    ran: bool = False
    reason: str = ""

    def words(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.values.items())

    def out_of_range(self, site_ids) -> tuple[int, int | None, int | None]:
        """Out-of-range accesses at these sites, and the lowest and highest index among them."""
        bad = [self.measures[i] for i in site_ids if i in self.measures and self.measures[i].out_of_range]
        if not bad:
            return 0, None, None
        return (sum(m.out_of_range for m in bad), min(m.min_index for m in bad), max(m.max_index for m in bad))


@dataclass
class ConditionRun:
    """The two runs of one kernel's condition, and the findings they speak to."""
    table: object
    condition: str
    open: tuple[str, ...]
    findings: list = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)


def program_params(table, given: dict[str, int]) -> dict[str, int]:
    """The values a run uses where the program passes several (`incx` 1 at one call, 64 at another):
    the first combination, as the static pass analyses it first; the user's values win."""
    from ..lint import program_combinations
    return {**program_combinations(table.launch, given)[0], **given}


def finding_access(d, table):
    for a in table.accesses:
        if (a.path or table.path) == d.path and a.line == d.line and a.column == d.column and \
                a.kind == d.access and a.array.name == d.array:
            return a
    return None


def _past_size(table, params: dict[str, int], acc) -> tuple[bool | None, Simulation | None]:
    """Whether, under these values, threads past the size reach the access (None: not computed),
    and the simulation that says so (the run's plan reads its values)."""
    try:
        sim = Simulation(table, params)
        return sim.result(acc).excess is not None, sim
    except (AnalysisLimit, ArithmeticError, ValueError, TypeError, MemoryError):
        return None, None


def condition_runs(diags, table, params: dict[str, int]) -> tuple[list[ConditionRun], list[str]]:
    """Per condition of this kernel's findings, the values of the two runs (as Simulations), and
    for each condition whose sides could not be found, why."""
    out: dict[tuple, ConditionRun] = {}
    why: list[str] = []
    checks = param_checks(table.launch)
    # the other open sizes the grid is rounded from are held at a multiple of every block edge on both
    # sides, so that only this condition differs between the runs (a 2-D grid over M and N)
    family = derive(table, params)
    others = {n: FAILS[0] for n in grid_sizes(table, family) if n not in params}
    for d in diags:
        cond = d.metrics.get("condition") if d.severity != "info" else None
        if not cond or d.kernel != table.kernel:
            continue
        opened = tuple(n for n in (d.metrics.get("open") or ()) if n not in params)
        acc = finding_access(d, table)
        if acc is None or not opened:
            continue
        key = (cond, opened)
        if key in out:
            out[key].findings.append(d)
            continue
        run = ConditionRun(table, cond, opened, [d])
        for meets, tries in ((True, MEETS), (False, FAILS)):
            for v in tries:
                values = {**{n: w for n, w in others.items() if n not in opened}, **{n: v for n in opened}}
                if not holds(checks, {**table.launch.params, **params, **values}):
                    continue
                past, sim = _past_size(table, {**params, **values}, acc)
                if past is meets:
                    run.sides.append(Side(meets, values, sim))
                    break
        if len(run.sides) == 2:
            out[key] = run
        else:
            why.append(f"`{cond}`: no values on both sides of it were found that the program's checks allow")
    return list(out.values()), why


def verdict(run: ConditionRun, sites) -> None:
    """Each finding is confirmed only where the out-of-range accesses at its own access appear at
    the values that meet the condition and not at those that do not; `measured` records both runs."""
    from .compare import sites_of
    for d in run.findings:
        ids = [s.id for s in sites_of(d, run.table, sites)]
        both, said = {}, []
        for side in run.sides:
            n, lo, hi = side.out_of_range(ids)
            both["meets" if side.meets else "fails"] = {
                "values": dict(side.values), "out_of_range": n,
                **({"min_index": lo, "max_index": hi} if n else {}), **({} if side.ran else {"not_run": side.reason})}
            said.append(f"at {side.words()}: " + (f"not run ({side.reason})" if not side.ran else
                                                   f"{n} out-of-range accesses (indexes {lo}..{hi})" if n else
                                                   "none out of range"))
        meet, fail = run.sides
        if meet.ran and fail.ran and run.condition == "always":
            # runs past for every size: out of range at both values
            d.confirmed = bool(both["meets"]["out_of_range"]) and bool(both["fails"]["out_of_range"])
        elif meet.ran and fail.ran:
            d.confirmed = bool(both["meets"]["out_of_range"]) and not both["fails"]["out_of_range"]
        d.measured = {"condition": run.condition, **both, "summary": f"{run.condition}: " + "; ".join(said)}


def side_jobs(runs: list[ConditionRun]) -> list[tuple[ConditionRun, Side]]:
    """The sides that have a job to run, in order."""
    return [(r, s) for r in runs for s in r.sides if s.job is not None]


def read_sides(runs: list[ConditionRun], logs: list, sites) -> None:
    """Each side's out-of-range accesses at its findings' sites, from its log (`logs`: per entry of
    side_jobs, a runner Log or a RunError), then each condition's verdict."""
    from .compare import measure
    from .runner import RunError
    for (run, side), log in zip(side_jobs(runs), logs):
        if isinstance(log, RunError) or log is None:
            side.reason = str(log) if log is not None else "not run"
            continue
        side.measures = measure(log, sites, side.job.block, side.job.block_weights())
        side.ran = True
    for run in runs:
        for s in run.sides:
            if s.job is None and not s.reason:
                s.reason = "not planned"
        verdict(run, sites)
