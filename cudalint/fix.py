"""`--fix` and `--diff`: rewrites cudalint can prove, with ruff's conventions.

A fix is a set of whole-line edits of one file. It is offered only when linting the rewritten file
(with the files that launch its kernels) no longer reports the finding and reports nothing the
original did not: that is the proof. A *safe* fix keeps what the kernel computes (padding a
`__shared__` tile whose every use is a full subscript changes its layout, not its values) and is
applied by `--fix`; an *unsafe* one changes which thread does what or which element an index
reaches (swapping threadIdx.x and threadIdx.y, a corrected stride): the finding says it is a bug,
but only the author can say the new meaning is the intended one, so it needs `--unsafe-fixes`.
"""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field

from .diagnostic import Diagnostic
from .edits import Edit, _kernel_lines, pad_declaration
from .engine import Workspace


@dataclass
class Fix:
    path: str
    title: str           # what the fix does, for people
    edits: tuple[Edit, ...]
    safe: bool
    targets: list[Diagnostic] = field(default_factory=list)   # the findings it removes


@dataclass
class FixPlan:
    """The fixes that passed the proof, per file, in the order they were accepted (safe ones first);
    `by_finding` maps id(diagnostic) to its fix."""
    accepted: dict[str, list[Fix]] = field(default_factory=dict)
    by_finding: dict[int, Fix] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)          # original text of each file with a fix

    def fixes(self, unsafe: bool) -> dict[str, list[Fix]]:
        return {p: [f for f in fs if f.safe or unsafe] for p, fs in self.accepted.items()
                if any(f.safe or unsafe for f in fs)}

    def rewritten(self, path: str, unsafe: bool) -> str:
        return apply(self.texts[path], [e for f in self.fixes(unsafe).get(path, []) for e in f.edits])

    def diff(self, unsafe: bool) -> str:
        out = []
        for path in self.fixes(unsafe):
            old, new = self.texts[path], self.rewritten(path, unsafe)
            out.extend(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                            f"a/{os.path.normpath(path)}", f"b/{os.path.normpath(path)}"))
        return "".join(x if x.endswith("\n") else x + "\n\\ No newline at end of file\n" for x in out)


def apply(text: str, edits) -> str:
    lines = text.splitlines(keepends=True)
    for e in edits:
        body = lines[e.line - 1]
        ending = body[len(body.rstrip("\r\n")):]
        lines[e.line - 1] = e.new + ending
    return "".join(lines)


# ---- proposals ---------------------------------------------------------------------------------
def _table(result, d: Diagnostic):
    return next((t for t in result.tables if t.kernel == d.kernel and t.path == d.path), None)


def _access(table, d: Diagnostic):
    return next((a for a in table.accesses if a.line == d.line and a.column == d.column and a.array.name == d.array),
                None) or next((a for a in table.accesses if a.line == d.line and a.array.name == d.array), None)


def propose(result, cfg, d: Diagnostic, src) -> Fix | None:
    """The rewrite that should remove `d`, not yet proved (`cfg`: the Workspace, or its Config)."""
    table = _table(result, d)
    if table is None or d.code not in ("CL102", "CL301", "CL401"):
        return None
    acc = _access(table, d)
    if acc is None:
        return None
    lines = src.lines
    if d.code == "CL401":
        pad = d.metrics.get("padding")
        edit = pad_declaration(table, acc, pad, lines, _kernel_lines(src, d.kernel, table)) if pad else None
        if edit is None:
            return None
        return Fix(d.path, f"pad the inner dimension of `{acc.array.name}` by {pad}", (edit,), True, [d])
    # CL102 and CL301: the rewrites explain shows, read off the definitions the index uses
    from .analysis.simulate import AnalysisLimit, Simulation
    from .explain.build import KernelExplainer
    try:
        sim = cfg.simulation(table) if isinstance(cfg, Workspace) else Simulation(table, cfg.for_file(d.path).params)
    except AnalysisLimit:
        return None
    rewrites = KernelExplainer(table, sim, src, [d])._rewrites(d)
    edits = []
    for r in rewrites:
        old = lines[r.line - 1]
        new = old.replace(r.original, r.rewritten)
        if new != old:
            edits.append(Edit(r.line, old, new))
    if not edits:
        return None
    axis = "z" if "threadIdx.z" in d.message else "y"
    title = (f"swap x and {axis} in the index's definitions" if d.code == "CL102"
             else f"give the term the stride of the level below ({d.metrics.get('expected_stride')})")
    return Fix(d.path, title, tuple(edits), False, [d])


# ---- proof -------------------------------------------------------------------------------------
class _Relinter:
    """Lints a file again with new text, in its project as the engine reads it (with the files of
    the run that launch its kernels)."""

    def __init__(self, result, workspace: Workspace):
        self.result, self.workspace = result, workspace
        self._related: dict[str, list[str]] = {}

    def related(self, path: str, kernels: list[str]) -> list[str]:
        if path not in self._related:
            self._related[path] = [other for other, lines in self.result.lines.items() if other != path and
                                   any(re.search(rf"\b{re.escape(k)}\b", "\n".join(lines)) for k in kernels)]
        return self._related[path]

    def lint(self, path: str, text: str, kernels: list[str]) -> list[Diagnostic] | None:
        return self.workspace.relint(path, text, self.related(path, kernels))


def _key(d: Diagnostic):
    return (d.line, d.code, d.array)


def plan(result, cfg) -> FixPlan:
    """Propose a fix for every finding that has one, and keep those the proof accepts: greedily per
    file, safe fixes first, each checked on top of the ones already kept. `cfg`: the Workspace the
    findings were made in (or its Config)."""
    from .lint import UsageError, read_file
    workspace = cfg if isinstance(cfg, Workspace) else Workspace(cfg)
    cfg = workspace.cfg
    out = FixPlan()
    by_path: dict[str, list[Diagnostic]] = {}
    for d in result.diagnostics:
        if d.code in ("CL102", "CL301", "CL401") and d.severity in ("warning", "error"):
            by_path.setdefault(d.path, []).append(d)
    relint = _Relinter(result, workspace)
    for path, diags in by_path.items():
        if path == "-" or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8", newline="") as f:
                text = f.read()
            src = read_file(path, cfg)
        except (OSError, UnicodeDecodeError, UsageError):
            continue
        proposals: list[Fix] = []
        for d in diags:
            fix = propose(result, workspace, d, src)
            if fix is None:
                continue
            same = next((f for f in proposals if f.edits == fix.edits), None)
            if same is not None:           # a tile's load and store: one padding fixes both
                same.targets.append(d)
            else:
                proposals.append(fix)
        if not proposals:
            continue
        before = {_key(d) for d in result.diagnostics if d.path == path and d.severity in ("warning", "error")}
        kernels = [k for f in result.files if f["path"] == path for k in f["kernels"]]
        kept: list[Fix] = []
        for fix in sorted(proposals, key=lambda f: not f.safe):
            edited = {e.line: e for f in kept for e in f.edits}
            if any(e.line in edited and edited[e.line] != e for e in fix.edits):
                continue               # two fixes rewrite one line differently
            new_text = apply(text, [*edited.values(), *fix.edits])
            after = relint.lint(path, new_text, kernels)
            if after is None:
                continue
            now = {_key(d) for d in after if d.severity in ("warning", "error")}
            gone = {_key(d) for f in [*kept, fix] for d in f.targets}
            if now <= before and not (now & gone):
                kept.append(fix)
        if kept:
            out.accepted[path] = kept
            out.texts[path] = text
            for f in kept:
                for d in f.targets:
                    out.by_finding[id(d)] = f
    return out


def write(plan_: FixPlan, unsafe: bool) -> dict[str, int]:
    """Write the fixed files; return how many fixes each got."""
    done = {}
    for path, fixes in plan_.fixes(unsafe).items():
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(plan_.rewritten(path, unsafe))
        done[path] = len(fixes)
    return done
