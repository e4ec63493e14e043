"""One run: read files, link launch sites to kernels across files, build each kernel's two-tree
table, simulate, and run the rules; then inline suppressions and rule selection."""
from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .diagnostic import Diagnostic
from .rules import BY_CODE, CHECKS
from .rules.base import Context, Options
from .selection import RuleSelection
from .source.cufile import SourceError, SourceFile, decode_source, source_from_bytes
from .source.macros import MacroTable, parse_define
from .source.project import Project

EXTENSIONS = (".cu", ".cuh")


class UsageError(Exception):
    """Bad command line or unreadable input: exit 2."""


@dataclass
class Config:
    defines: dict[str, str] = field(default_factory=dict)
    params: dict[str, int] = field(default_factory=dict)
    launches: dict = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()
    min_ratio: float = 2.0
    min_ways: int = 2
    debug: bool = False
    selection: RuleSelection = RuleSelection()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (glob, selectors)
    exclude: tuple[str, ...] = ()                 # globs, relative to `root`
    root: str | None = None                       # directory the globs are relative to (the config file's)
    respect_gitignore: bool = True
    force_exclude: bool = False                   # exclude even files named on the command line
    show_limits: bool = False                     # print CL901 notes, not only their count
    show_uncertain: bool = False                  # list findings that hold for some trial values only
    jobs: int = 1                                 # processes analysing kernels (cross-file links kept)
    resolve: Callable[[str], "Config"] | None = None   # the configuration of one file (closest config file)

    def for_file(self, path: str) -> "Config":
        return self.resolve(path) if self.resolve is not None else self

    def enabled(self, d: Diagnostic) -> bool:
        sel = self.selection
        extra = tuple(s for pat, sels in self.per_file_ignores if _glob_match(d.path, pat, self.root) for s in sels)
        return sel.with_ignored(extra).enabled(d.code, d.category)

    def shows(self, d: Diagnostic) -> bool:
        """CL901 notes are printed when asked for (--show-limits, or a selection naming them)."""
        if d.code != "CL901":
            return True
        return self.show_limits or self.selection.asks_for(d.code, d.category)

    def excluded(self, path: str) -> bool:
        return any(_glob_match(path, pat, self.root) for pat in self.exclude)


@dataclass
class Result:
    diagnostics: list[Diagnostic]
    files: list[dict]
    tables: list = field(default_factory=list)
    lines: dict[str, list[str]] = field(default_factory=dict)    # source lines by path, for reports
    hidden: dict[str, int] = field(default_factory=dict)         # code -> findings not printed (CL901 notes)


def _glob_match(path: str, pattern: str, root: str | None) -> bool:
    """A glob matches the path relative to `root`, one of its leading directories, or one component."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root or os.getcwd())).replace(os.sep, "/")
    parts = [x for x in rel.split("/") if x not in ("..", ".")]
    pattern = pattern.rstrip("/")
    if "/" in pattern:
        pattern = pattern.removeprefix("./")
        return not rel.startswith("../") and any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern)
                                                 for i in range(1, len(parts) + 1))
    return any(fnmatch.fnmatchcase(x, pattern) for x in parts)


def _gitignored(paths: list[str], directory: str) -> set[str]:
    """The paths git would ignore, asked of the repository holding `directory`; none without git."""
    if not paths:
        return set()
    absolute = {os.path.abspath(p): p for p in paths}
    try:
        p = subprocess.run(["git", "-C", directory, "check-ignore", "--stdin", "-z"],
                           input="\0".join(absolute) + "\0", capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return set()
    if p.returncode not in (0, 1):
        return set()
    return {absolute[x] for x in p.stdout.split("\0") if x in absolute}


def collect_paths(paths: list[str], cfg: Config | None = None) -> list[str]:
    """Files to lint: named files as given (unless force-exclude), directories recursed for .cu/.cuh,
    minus excluded and git-ignored files."""
    cfg = cfg or Config()
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 and not cfg.for_file(os.path.join(root, d, "_")).excluded(os.path.join(root, d)))
                found.extend(os.path.join(root, f) for f in files
                             if f.endswith(EXTENSIONS) and not cfg.for_file(os.path.join(root, f)).excluded(
                                 os.path.join(root, f)))
            gitignored = _gitignored(found, p) if cfg.respect_gitignore else set()
            out.extend(sorted(f for f in found if f not in gitignored or not cfg.for_file(f).respect_gitignore))
        elif os.path.exists(p):
            fcfg = cfg.for_file(p)
            if not (fcfg.force_exclude and fcfg.excluded(p)):
                out.append(p)
        else:
            raise UsageError(f"cannot read {p}: no such file or directory")
    seen, uniq = set(), []
    for p in out:
        key = os.path.normpath(p)
        if key not in seen:
            seen.add(key)
            uniq.append(p)
    return uniq


def _defines(cfg: Config) -> MacroTable:
    t = MacroTable()
    for name, value in cfg.defines.items():
        m = parse_define(f"#define {name} {value}")
        if m is None:
            raise UsageError(f"bad -D value: {name}={value}")
        t.define(m, force=True)
    return t


def read_file(path: str, cfg: Config, data: bytes | None = None) -> SourceFile:
    """One file (`data`: the text of stdin) preprocessed and parsed as a translation unit of its own,
    with its own configuration's defines."""
    fcfg = cfg.for_file(path)
    try:
        if data is None:
            data = _read_bytes(path)
        return source_from_bytes(path, data, _defines(fcfg), fcfg.include_dirs)
    except SourceError as exc:
        raise UsageError(str(exc)) from None


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except IsADirectoryError:
        raise SourceError(f"cannot read {path}: is a directory") from None
    except FileNotFoundError:
        raise SourceError(f"cannot read {path}: no such file") from None
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None


_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)


MAX_CONTEXT_FILES = 2000           # files of the project scanned for what links to the linted ones
_KERNEL_NAME = re.compile(r"__global__[^;{(]*?\b([A-Za-z_]\w*)\s*\(")
_LAUNCH_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^<>;]*>)?\s*<<<")


def project_root(path: str) -> str | None:
    """The project a file belongs to: the directory of its closest configuration file, else of the
    git work tree holding it (found by looking for `.git`, never by running git); None outside both."""
    from .config import find_config
    here = os.path.dirname(os.path.abspath(path))
    found = find_config(here)
    if found is not None:
        return str(found.parent)
    d = here
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def context_paths(paths: list[str], cfg: Config) -> list[str]:
    """The project's other .cu/.cuh files a linted file depends on, read but not reported: the files
    that include it (directly or through other headers: its translation units, whose macros it is
    compiled with) and the files that launch a kernel it defines. A header linted alone, with its
    directory or through pre-commit gets the same launches."""
    from .preprocess import file_key
    roots = sorted({r for p in paths if (r := project_root(p)) is not None})
    if not roots:
        return []
    linted = {file_key(p) for p in paths}
    candidates: list[str] = []
    for r in roots:
        try:
            found = collect_paths([r], cfg)
        except UsageError:
            continue
        candidates += [f for f in found if file_key(f) not in linted]
    candidates = list(dict.fromkeys(candidates))[:MAX_CONTEXT_FILES]
    if not candidates:
        return []
    texts = {}
    for c in candidates:
        try:
            texts[c] = decode_source(c, _read_bytes(c))[0]
        except SourceError:
            continue
    kernels = set()
    for p in paths:
        try:
            kernels |= set(_KERNEL_NAME.findall(decode_source(p, _read_bytes(p))[0]))
        except SourceError:
            continue
    relevant: set[str] = set()
    targets = set(linted)
    changed = True
    while changed:          # includers, and the includers of those
        changed = False
        for c, text in texts.items():
            if c in relevant:
                continue
            dirs = [os.path.dirname(c), *cfg.for_file(c).include_dirs]
            if any(file_key(os.path.join(d, name)) in targets
                   for name in _QUOTED_INCLUDE.findall(text) for d in dirs):
                relevant.add(c)
                targets.add(file_key(c))
                changed = True
    for c, text in texts.items():
        if c not in relevant and kernels & set(_LAUNCH_NAME.findall(text)):
            relevant.add(c)     # launches a kernel a linted file defines (separate compilation)
    return [c for c in candidates if c in relevant]


def read_project(paths: list[str], cfg: Config, context: list[str] = ()) -> tuple[list[SourceFile], list[SourceFile]]:
    """The files to lint, each parsed once as its translation unit compiles it, and the files read
    for what they give the linted ones (the local headers they include, the `context` files that
    include or launch them): their helpers, constants and launches.

    A linted file that another file of the run includes (a kernel header, a `.cu` included by its
    runner) is read in that file's unit, with the macros in effect at its `#include`; the others
    are units of their own."""
    from .preprocess import Preprocessor, file_key
    texts: dict[str, tuple[str, object]] = {}
    for p in paths:
        try:
            texts[p] = decode_source(p, _read_bytes(p))
        except SourceError as exc:
            raise UsageError(str(exc)) from None
    for p in context:
        try:
            texts[p] = decode_source(p, _read_bytes(p))
        except SourceError:
            continue
    everything = list(texts)
    keys = {file_key(p): p for p in paths}
    all_keys = {file_key(p): p for p in everything}
    included = set()
    for p, (text, _) in texts.items():
        dirs = [os.path.dirname(p), *cfg.for_file(p).include_dirs]
        for name in _QUOTED_INCLUDE.findall(text):
            for d in dirs:
                k = file_key(os.path.join(d, name))
                if k in all_keys and all_keys[k] != p:
                    included.add(k)
                    break
    preprocessors: dict = {}
    views: dict = {}
    for standalone in (False, True):     # units first; then linted files no unit reached
        for p in (everything if not standalone else paths):
            k = file_key(p)
            if k in views or (not standalone and k in included):
                continue
            fcfg = cfg.for_file(p)
            dkey = (tuple(sorted(fcfg.defines.items())), tuple(fcfg.include_dirs))
            if dkey not in preprocessors:
                preprocessors[dkey] = Preprocessor(_defines(fcfg).macros.values(), fcfg.include_dirs)
            for vk, view in preprocessors[dkey].unit(p, texts[p][0]).items():
                views.setdefault(vk, view)
    sources = []
    for p in paths:
        text, problem = texts[p]
        src = SourceFile(p, text, view=views[file_key(p)])
        if problem is not None:
            src.problems.insert(0, problem)
        sources.append(src)
    read = [SourceFile(v.path, v.source, view=v) for k, v in views.items() if k not in keys]
    return sources, read


def lint_paths(paths: list[str], cfg: Config) -> Result:
    linted = collect_paths(paths, cfg)
    return lint_sources(*read_project(linted, cfg, context_paths(linted, cfg)), cfg=cfg)


def lint_sources(sources: list[SourceFile], context: list[SourceFile] | Config = (), cfg: Config | None = None
                 ) -> Result:
    """Lint `sources`; `context` files are read for what they give the others (launches, helpers,
    constants) and not reported."""
    if isinstance(context, Config):     # lint_sources(sources, cfg)
        context, cfg = (), context
    project = Project(sources, list(context))
    units = [(si, ki) for si, src in enumerate(sources) for ki, fn in enumerate(src.kernels) if fn.body is not None]
    analysed = _analyse_parallel(sources, project, units, cfg) if _parallel_worth_it(cfg, units) else \
        [_analyse_kernel(sources[si].kernels[ki], sources[si], project, cfg) for si, ki in units]
    per_kernel = dict(zip(units, analysed))

    diags: list[Diagnostic] = []
    file_info = []
    tables = []
    for si, src in enumerate(sources):
        status = "ok"
        for prob in src.problems + src.annotation_errors:
            if prob.code == "CL900":       # a fact about the parse, whatever its severity
                status = "parse-errors"
            r = BY_CODE[prob.code]
            tail = " (the rest of the file is still analysed)" if prob.code == "CL900" else ""
            diags.append(Diagnostic(src.path, prob.line, prob.column, prob.end_line, prob.column, r.CODE, r.NAME,
                                    r.CATEGORY, prob.severity, prob.message + tail))
        for ki in range(len(src.kernels)):
            if (si, ki) in per_kernel:
                kdiags, table = per_kernel[si, ki]
                diags.extend(kdiags)
                if table is not None:
                    tables.append(table)
        file_info.append({"path": src.path, "kernels": [k.name for k in src.kernels], "status": status})
    diags.sort(key=Diagnostic.sort_key)
    from .suppress import apply_suppressions
    diags = apply_suppressions(_dedupe(diags), sources)
    shown, hidden = [], {}
    for d in diags:
        fcfg = cfg.for_file(d.path)
        if not fcfg.enabled(d):
            continue
        if fcfg.shows(d):
            shown.append(d)
        else:
            hidden[d.code] = hidden.get(d.code, 0) + 1
    return Result(shown, file_info, tables, {src.path: src.lines for src in sources}, hidden)


def _analyse_kernel(fn, src: SourceFile, project: Project, cfg: Config):
    """Two-tree table, simulation and rules of one kernel: (diagnostics, table or None)."""
    from .model.build import KernelBuilder
    from .model.launch import resolve_launch
    from .analysis.family import derive
    from .analysis.simulate import AnalysisLimit, Simulation

    fcfg = cfg.for_file(src.path)
    diags: list[Diagnostic] = []
    table = None
    try:
        launch, template, assumptions = resolve_launch(fn, project.sites_for(fn), fcfg.launches, project)
        table = KernelBuilder(fn, launch, project.functions_for(src), template, project.constants_for(src),
                              project.typedefs_for(src)).build()
        table.assumptions.extend(assumptions)
        family = derive(table, {**table.launch.params, **fcfg.params})
        try:
            sim = Simulation(table, fcfg.params, family.primary, family)
        except AnalysisLimit as exc:
            diags.append(_note(table, table.line, 1, f"kernel `{fn.name}` is not simulated: {exc}"))
            return diags, table
        found = _check(table, sim, fcfg)
        if len(family.trials) > 1:
            found = _hold_for_family(table, family, fcfg, found)
        diags.extend(found)
        diags.extend(_notes(table, sim))
    except Exception as exc:  # an analysis bug must not hide the rest of the run
        if cfg.debug:
            raise
        diags.append(_note_raw(src.path, fn, f"cudalint could not analyse kernel `{fn.name}` "
                                             f"({type(exc).__name__}: {exc}); please report this"))
    return diags, table


def _check(table, sim, fcfg: Config, codes=None) -> list[Diagnostic]:
    """The rules' findings for one simulation (`codes`: only these rules)."""
    ctx = Context(table, sim, Options(fcfg.min_ratio, fcfg.params, fcfg.min_ways))
    return [d for rule in CHECKS if codes is None or rule.CODE in codes for d in rule.check(ctx)]


def _hold_for_family(table, family, fcfg: Config, found: list[Diagnostic]) -> list[Diagnostic]:
    """Where the program gives no block shape or size, a warning stands only if every trial of the
    family produces it (with the first trial's figures); the others are listed as info, with the
    values that produce them, when asked for (--show-uncertain), else dropped."""
    from .analysis.simulate import AnalysisLimit, Simulation

    def key(d):
        return d.code, d.path, d.line, d.column, d.access

    notes = [d for d in found if d.severity == "info"]
    first = {key(d): d for d in found if d.severity != "info"}
    if not first and not fcfg.show_uncertain:
        return found
    at = {(a.path or table.path, a.line, a.column, a.kind): a for a in table.accesses}
    holds: dict = {k: [family.primary] for k in first}
    idle: dict = {k: 0 for k in first}      # trials in which the finding's access does not run
    others: dict = {}                       # findings the first trial does not produce
    for n, trial in enumerate(family.trials[1:], 2):
        try:
            sim = Simulation(table, fcfg.params, trial, family)
        except AnalysisLimit:
            continue
        codes = None if fcfg.show_uncertain else {k[0] for k in first}    # the other rules cannot confirm
        got = {key(d): d for d in _check(table, sim, fcfg, codes) if d.severity != "info"}
        for k in holds:
            if k in got:
                holds[k].append(trial)
            elif (acc := at.get(k[1:])) is not None and not sim.result(acc).executed:
                idle[k] += 1                # neither for nor against: the access does not run there
        if fcfg.show_uncertain:
            for k, d in got.items():
                if k not in first:
                    others.setdefault(k, (d, []))[1].append(trial)
        elif not any(len(t) + idle[k] == n for k, t in holds.items()):
            break                           # nothing holds for every trial any more
    out = list(notes)
    for k, d in first.items():
        if len(holds[k]) + idle[k] == len(family.trials):
            out.append(d)
        elif fcfg.show_uncertain:
            out.append(_uncertain(d, holds[k], family))
    out.extend(_uncertain(d, trials, family) for d, trials in others.values())
    return out


def _uncertain(d: Diagnostic, trials, family) -> Diagnostic:
    """A finding that only some of cudalint's own trial values produce: info, with those values."""
    keep_block = len(family.blocks) > 1
    shown = "; ".join(t.describe(keep_block) for t in trials)
    d.severity = "info"
    d.message += f" (only for some values cudalint tried, not given by the program: {shown})"
    d.metrics = {**d.metrics, "only_for": [t.describe(keep_block) for t in trials]}
    return d


MIN_PARALLEL_KERNELS = 8    # below this, starting processes costs more than it saves


def _parallel_worth_it(cfg: Config, units) -> bool:
    from . import parallel
    return cfg.jobs > 1 and len(units) >= MIN_PARALLEL_KERNELS and parallel.available()


def _analyse_parallel(sources, project, units, cfg):
    """Kernels analysed in processes forked after parsing, so every one of them sees every file's
    launch sites and helpers."""
    from . import parallel

    def analyse(unit):
        si, ki = unit
        return _analyse_kernel(sources[si].kernels[ki], sources[si], project, cfg)

    # The first kernel is analysed before forking: it imports sympy and networkx and builds the
    # grammars once, instead of once in every worker.
    return [analyse(units[0])] + parallel.fork_map(analyse, units[1:], cfg.jobs)


def _note(table, line, col, message, end=None) -> Diagnostic:
    r = BY_CODE["CL901"]
    end = end or (line, col)
    return Diagnostic(table.path, line, col, end[0], end[1], r.CODE, r.NAME, r.CATEGORY, r.SEVERITY, message,
                      table.kernel)


def _note_raw(path, fn, message) -> Diagnostic:
    r = BY_CODE["CL901"]
    return Diagnostic(path, fn.line, 1, fn.line, 1, r.CODE, r.NAME, r.CATEGORY, r.SEVERITY, message, fn.name)


def _notes(table, sim) -> list[Diagnostic]:
    out = []
    for n in table.notes:
        d = _note(table, n.line, n.column, n.message, (n.end_line, n.end_column))
        d.path = n.path or table.path
        out.append(d)
    for it in table.iterators:
        used = any(it in a.loops for a in table.accesses)
        if used and sim.trip_samples(it, sim.base_env()) is None:
            out.append(_note(table, it.line, 1, f"the iteration count of the loop over `{it.var}` is not computed "
                                                f"(its condition depends on data or on an outer loop); only its "
                                                f"first two iterations are simulated"))
    for acc in table.accesses:
        err = acc.unresolved or sim.result(acc).error
        if err:
            d = _note(table, acc.line, acc.column, f"`{acc.text}` is not simulated: {err}",
                      (acc.end_line, acc.end_column))
            d.path = acc.path or table.path
            d.array, d.access, d.space = acc.array.name, acc.kind, acc.space
            out.append(d)
    return out


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diags:
        key = (d.path, d.line, d.column, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
