"""Explain files: read and lint them through the engine (the same models and findings `cudalint
check` sees, with the same configuration files and translation units), then build the explain
data of each kernel from them."""
from __future__ import annotations

from dataclasses import replace

from ..engine import Workspace
from ..lint import Config, Result, UsageError
from .build import explain_table
from .data import Explanation


def explain_paths(paths: list[str], cfg: Config | Workspace, kernel: str | None = None,
                  line: int | None = None) -> Explanation:
    workspace = cfg if isinstance(cfg, Workspace) else Workspace(_for_learners(cfg))
    result = workspace.check(paths, tables=True)
    if result.errors:
        raise UsageError(result.errors[0].message)
    return explain_result(result, workspace, kernel, line)


def _for_learners(cfg: Config) -> Config:
    """A learner sees every note (a Config resolved from files says so in its command-line layer)."""
    return replace(cfg, show_limits=True) if cfg.resolve is None else cfg


def explain_result(result: Result, workspace: Workspace, kernel: str | None = None,
                   line: int | None = None) -> Explanation:
    """The explanation of a lint result's kernels: rendered from its models and findings."""
    by_path = {s.path: s for s in result.sources}
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
        """The findings of a file with some of its lines replaced (a proposed rewrite)."""
        src = by_path.get(path)
        if src is None:
            return None
        lines = list(src.lines)
        for n, text in new_lines.items():
            lines[n - 1] = text
        others = [p for p in by_path if p != path]
        return workspace.relint(path, "\n".join(lines) + "\n", others)

    named: dict[str, int] = {}
    for t in result.tables:
        named[t.kernel] = named.get(t.kernel, 0) + 1
    paths = {(t.kernel, t.path) for t in result.tables}
    for t in tables:
        # a kernel's findings: in its file, and in the helpers' files it inlines where no other
        # kernel of that name was linted in them
        diags = [d for d in result.diagnostics if d.kernel == t.kernel and d.code != "CL900"
                 and (d.path in (t.path, "", None) or (named[t.kernel] == 1 or (t.kernel, d.path) not in paths))]
        params = workspace.cfg.for_file(t.path).params
        out.kernels.append(explain_table(t, params, by_path.get(t.path), diags, line, verify, workspace.simulation))
    return out
