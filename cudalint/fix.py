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
                                            f"a/{_header(path)}", f"b/{_header(path)}"))
        return "".join(x if x.endswith("\n") else x + "\n\\ No newline at end of file\n" for x in out)


def _header(path: str) -> str:
    """A file name in a diff header: escaped, as every text from the linted tree is printed."""
    from .report import printable
    return printable(os.path.normpath(path))


def apply(text: str, edits) -> str:
    lines = text.splitlines(keepends=True)
    for e in edits:
        body = lines[e.line - 1]
        ending = body[len(body.rstrip("\r\n")):]
        lines[e.line - 1] = e.new + ending if e.new is not None else ""
    return "".join(lines)


# ---- proposals ---------------------------------------------------------------------------------
def _table(result, d: Diagnostic):
    return next((t for t in result.tables if t.kernel == d.kernel and t.path == d.path), None)


def _access(table, d: Diagnostic):
    return next((a for a in table.accesses if a.line == d.line and a.column == d.column and a.array.name == d.array),
                None) or next((a for a in table.accesses if a.line == d.line and a.array.name == d.array), None)


def propose(result, cfg, d: Diagnostic, src) -> Fix | None:
    """The rewrite that should remove `d`, not yet proved (`cfg`: the Workspace, or its Config)."""
    if d.code == "CL910":
        from .rules.cl910_unused_suppression import removal
        old = src.lines[d.line - 1] if 0 < d.line <= len(src.lines) else None
        new = removal(d, old) if old is not None else None
        if old is None or new == old:
            return None
        return Fix(d.path, "remove the unused suppression", (Edit(d.line, old, new),), True, [d])
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
    axis = "z" if "stride_z" in d.metrics else "y"
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


def _moved(key, removed: list[int]):
    """A finding's key once the `removed` lines are gone."""
    import bisect
    return (key[0] - bisect.bisect_left(removed, key[0]),) + key[1:]


FIXABLE = ("CL102", "CL301", "CL401", "CL910")


def plan(result, cfg, texts: dict[str, str] | None = None) -> FixPlan:
    """Propose a fix for every finding that has one, and keep those the proof accepts: greedily per
    file, safe fixes first, each checked on top of the ones already kept. `cfg`: the Workspace the
    findings were made in (or its Config). `texts`: the text of files that are not on disk as linted
    (standard input, under its `--stdin-filename`)."""
    texts = texts or {}
    from .lint import UsageError, read_file
    workspace = cfg if isinstance(cfg, Workspace) else Workspace(cfg)
    cfg = workspace.cfg
    out = FixPlan()
    by_path: dict[str, list[Diagnostic]] = {}
    for d in result.diagnostics:
        if d.code in FIXABLE and d.severity in ("warning", "error"):
            by_path.setdefault(d.path, []).append(d)
    relint = _Relinter(result, workspace)
    for path, diags in by_path.items():
        if path not in texts and (path == "-" or not os.path.isfile(path)):
            continue
        try:
            if path in texts:
                text = texts[path]
                src = read_file(path, cfg, text.encode("utf-8", "surrogateescape"))
            else:
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
        for safe in (True, False):      # the safe fixes proved on their own, the unsafe ones on top of them
            kept = _prove(relint, path, text, kernels, before, kept, [f for f in proposals if f.safe == safe])
        if kept:
            out.accepted[path] = kept
            out.texts[path] = text
            for f in kept:
                for d in f.targets:
                    out.by_finding[id(d)] = f
    return out


MAX_PROOF_ROUNDS = 3     # relints of one file for one kind of fix, past the first; then one fix at a time
MAX_SINGLE_PROOFS = 8    # fixes then proved one by one (the rest are not offered)


def _prove(relint, path: str, text: str, kernels: list[str], before: set, kept: list[Fix],
           candidates: list[Fix]) -> list[Fix]:
    """`kept` and the candidates the proof accepts on top of them. The candidates are applied
    together and the file linted once: a fix stands when its findings are gone and its kernel
    gained none; the others are dropped and the rest proved again. A file of 160 kernels with a fix
    each is linted two or three times, not 160 (each a lint of the whole file)."""
    edited = {e.line: e for f in kept for e in f.edits}
    chosen = []
    for fix in candidates:
        if any(e.line in edited and edited[e.line] != e for e in fix.edits):
            continue               # two fixes rewrite one line differently
        chosen.append(fix)
        edited.update({e.line: e for e in fix.edits})
    for _ in range(MAX_PROOF_ROUNDS):
        if not chosen:
            return kept
        after = relint.lint(path, apply(text, [e for f in [*kept, *chosen] for e in f.edits]), kernels)
        if after is None:
            break
        # lines a fix removes move the findings below them up
        removed = sorted(e.line for f in [*kept, *chosen] for e in f.edits if e.new is None)
        moved_before = {_moved(k, removed) for k in before}
        now = [d for d in after if d.severity in ("warning", "error")]
        new = [d for d in now if _key(d) not in moved_before]
        fixed = {d.kernel for f in chosen for d in f.targets}
        if any(d.kernel is None or d.kernel not in fixed for d in new):
            break                  # a finding no fixed kernel owns: which fix made it is not known
        left = {_key(d) for d in now}
        worse = {d.kernel for d in new}
        good = [f for f in chosen if not any(_moved(_key(d), removed) in left for d in f.targets)
                and not any(d.kernel in worse for d in f.targets)]
        if len(good) == len(chosen):
            return [*kept, *chosen]
        chosen = good
    # one at a time, as a last resort, for a few
    for fix in chosen[:MAX_SINGLE_PROOFS]:
        after = relint.lint(path, apply(text, [e for f in [*kept, fix] for e in f.edits]), kernels)
        if after is None:
            continue
        now = {_key(d) for d in after if d.severity in ("warning", "error")}
        removed = sorted(e.line for f in [*kept, fix] for e in f.edits if e.new is None)
        gone = {_moved(_key(d), removed) for f in [*kept, fix] for d in f.targets}
        if now <= {_moved(k, removed) for k in before} and not (now & gone):
            kept = [*kept, fix]
    return kept


def write(plan_: FixPlan, unsafe: bool, roots=None, problems: list | None = None) -> dict[str, int]:
    """Write the fixed files; return how many fixes each got. A file is replaced whole (a temporary
    file beside it, then renamed over it: a full disk leaves it as it was), and never through a
    link to a file outside the linted tree (`roots`: the paths given; default the current folder).
    What cannot be written is said in `problems` (one line each) and left unchanged."""
    inside = _tree_roots(roots)
    done = {}
    for path, fixes in plan_.fixes(unsafe).items():
        real = os.path.realpath(path)
        if not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in inside):
            if problems is not None:
                problems.append(f"not fixing {path}: it links to {real}, outside the linted files' folders")
            continue
        try:
            _replace(real, plan_.rewritten(path, unsafe))
        except OSError as exc:
            if problems is not None:
                problems.append(f"cannot write {path}: {exc.strerror or exc}; the file is unchanged")
            continue
        done[path] = len(fixes)
    return done


def _tree_roots(roots) -> list[str]:
    """The real folders a fix may write in: each folder given, and the folder of each file given."""
    out = []
    for r in roots or [os.curdir]:
        a = os.path.abspath(r)
        out.append(os.path.realpath(a if os.path.isdir(a) else os.path.dirname(a)))
    return out


def _replace(path: str, text: str) -> None:
    """`path`'s content made `text` by a rename of a temporary file written beside it (same mode)."""
    import tempfile
    folder = os.path.dirname(path)
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".cudalint")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
