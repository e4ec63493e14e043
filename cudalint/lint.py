"""One run: read files, link launch sites to kernels across files, build each kernel's two-tree
table, simulate, and run the rules."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostic import Diagnostic
from .rules import BY_CODE, CHECKS
from .rules.base import Context, Options
from .source.cufile import SourceError, SourceFile, read_source
from .source.macros import MacroTable, parse_define

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


@dataclass
class Result:
    diagnostics: list[Diagnostic]
    files: list[dict]
    tables: list = field(default_factory=list)


def collect_paths(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(root, f) for f in files if f.endswith(EXTENSIONS))
            out.extend(sorted(found))
        elif os.path.exists(p):
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


def lint_paths(paths: list[str], cfg: Config) -> Result:
    files = collect_paths(paths)
    defines = _defines(cfg)
    sources: list[SourceFile] = []
    for p in files:
        try:
            sources.append(read_source(p, defines, cfg.include_dirs))
        except SourceError as exc:
            raise UsageError(str(exc)) from None
    return lint_sources(sources, cfg)


def lint_sources(sources: list[SourceFile], cfg: Config) -> Result:
    from .model.build import KernelBuilder
    from .model.launch import resolve_launch
    from .analysis.simulate import AnalysisLimit, Simulation

    diags: list[Diagnostic] = []
    file_info = []
    tables = []
    sites = [s for src in sources for s in src.launches]
    functions = {}
    for src in sources:
        for f in src.functions:
            if not f.is_kernel and f.body is not None:
                functions.setdefault(f.name, f)
    options = Options(cfg.min_ratio, cfg.params, cfg.min_ways)
    for src in sources:
        status = "ok"
        for prob in src.problems + src.annotation_errors:
            status = "parse-errors"
            r = BY_CODE["CL900"]
            diags.append(Diagnostic(src.path, prob.line, prob.column, prob.end_line, prob.column, r.CODE, r.NAME,
                                    r.CATEGORY, r.SEVERITY, prob.message + " (the rest of the file is still analysed)"))
        for fn in src.kernels:
            if fn.body is None:
                continue
            try:
                launch, template, assumptions = resolve_launch(fn, sites, cfg.launches)
                table = KernelBuilder(fn, launch, functions, template).build()
                table.assumptions.extend(assumptions)
                tables.append(table)
                try:
                    sim = Simulation(table, cfg.params)
                except AnalysisLimit as exc:
                    diags.append(_note(table, table.line, 1, f"kernel `{fn.name}` is not simulated: {exc}"))
                    continue
                ctx = Context(table, sim, options)
                for rule in CHECKS:
                    diags.extend(rule.check(ctx))
                diags.extend(_notes(table, sim))
            except Exception as exc:  # an analysis bug must not hide the rest of the run
                if cfg.debug:
                    raise
                diags.append(_note_raw(src.path, fn, f"cudalint could not analyse kernel `{fn.name}` "
                                                     f"({type(exc).__name__}: {exc}); please report this"))
        file_info.append({"path": src.path, "kernels": [k.name for k in src.kernels], "status": status})
    diags.sort(key=Diagnostic.sort_key)
    return Result(_dedupe(diags), file_info, tables)


def _note(table, line, col, message, end=None) -> Diagnostic:
    r = BY_CODE["CL901"]
    end = end or (line, col)
    return Diagnostic(table.path, line, col, end[0], end[1], r.CODE, r.NAME, r.CATEGORY, r.SEVERITY, message,
                      table.kernel)


def _note_raw(path, fn, message) -> Diagnostic:
    r = BY_CODE["CL901"]
    return Diagnostic(path, fn.line, 1, fn.line, 1, r.CODE, r.NAME, r.CATEGORY, r.SEVERITY, message, fn.name)


def _notes(table, sim) -> list[Diagnostic]:
    out = [_note(table, n.line, n.column, n.message, (n.end_line, n.end_column)) for n in table.notes]
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
