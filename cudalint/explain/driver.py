"""Explain files: lint them (the same model and findings `cudalint check` sees), then build the
explain data of each kernel."""
from __future__ import annotations

from dataclasses import replace

from ..lint import Config, UsageError, _defines, collect_paths, lint_sources
from ..source.cufile import SourceError, read_source, source_from_bytes
from .build import explain_table
from .data import Explanation


def explain_paths(paths: list[str], cfg: Config, kernel: str | None = None, line: int | None = None) -> Explanation:
    defines = _defines(cfg)
    sources = []
    for p in collect_paths(paths):
        try:
            sources.append(read_source(p, defines, cfg.include_dirs))
        except SourceError as exc:
            raise UsageError(str(exc)) from None
    return explain_sources(sources, cfg, kernel, line)


def explain_sources(sources, cfg: Config, kernel: str | None = None, line: int | None = None) -> Explanation:
    cfg = replace(cfg, show_limits=True) if cfg.resolve is None else cfg   # a learner sees every note
    result = lint_sources(sources, cfg)
    by_path = {s.path: s for s in sources}
    out = Explanation()
    out.problems = [f"{d.path}:{d.line}: {d.message}" for d in result.diagnostics if d.code == "CL900"]
    tables = [t for t in result.tables if kernel is None or t.kernel == kernel]
    if kernel is not None and not tables:
        names = sorted({t.kernel for t in result.tables})
        raise UsageError(f"no kernel `{kernel}` (kernels: {', '.join(names) or 'none'})")
    if line is not None:
        tables = [t for t in tables if any(a.line == line for a in t.accesses)
                  or any(d.rpartition("@")[2] == str(line) for d in t.def_values)]
        if not tables:
            raise UsageError(f"no array access or index definition on line {line}")
    def verify(path: str, new_lines: dict[int, str]):
        """Lint the files again with some lines of one of them replaced (a proposed rewrite)."""
        src = by_path.get(path)
        if src is None:
            return None
        lines = list(src.lines)
        for n, text in new_lines.items():
            lines[n - 1] = text
        try:
            changed = source_from_bytes(path, ("\n".join(lines) + "\n").encode("utf-8"), _defines(cfg),
                                        cfg.include_dirs)
        except SourceError:
            return None
        # the file itself and the files that launch its kernels: what its findings depend on
        names = {k.name for k in src.kernels}
        others = [s for s in sources if s.path != path and any(site.kernel in names for site in s.launches)]
        return lint_sources([changed, *others], cfg).diagnostics

    for t in tables:
        diags = [d for d in result.diagnostics if d.kernel == t.kernel and d.code != "CL900"
                 and (d.path == t.path or d.path in ("", None))]
        out.kernels.append(explain_table(t, cfg.params, by_path.get(t.path), diags, line, verify))
    return out
