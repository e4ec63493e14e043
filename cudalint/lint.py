"""One run: read files, link launch sites to kernels across files, build each kernel's two-tree
table, simulate, and run the rules; then inline suppressions and rule selection."""
from __future__ import annotations

import fnmatch
import functools
import os
import stat
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .diagnostic import Diagnostic
from .rules import BY_CODE, CHECKS
from .rules.base import Context, Options
from .selection import RuleSelection
from .source.cufile import SourceError, SourceFile, read_source, source_from_bytes
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
    selection: RuleSelection = RuleSelection()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (glob, selectors)
    exclude: tuple[str, ...] = ()                 # globs, relative to `root`
    root: str | None = None                       # directory the globs are relative to (the config file's)
    respect_gitignore: bool = True
    force_exclude: bool = False                   # exclude even files named on the command line
    jobs: int = 1                                 # processes analysing kernels (cross-file links kept)
    resolve: Callable[[str], "Config"] | None = None   # the configuration of one file (closest config file)

    def for_file(self, path: str) -> "Config":
        return self.resolve(path) if self.resolve is not None else self

    def enabled(self, d: Diagnostic) -> bool:
        if d.code == "CL902":      # cudalint's own failure is never selected away: the kernel went unchecked
            return True
        sel = self.selection
        extra = tuple(s for pat, sels in self.per_file_ignores if _glob_match(d.path, pat, self.root) for s in sels)
        return sel.with_ignored(extra).enabled(d.code, d.category)

    def excluded(self, path: str) -> bool:
        return any(_glob_match(path, pat, self.root) for pat in self.exclude)


@dataclass
class Result:
    diagnostics: list[Diagnostic]
    files: list[dict]
    tables: list = field(default_factory=list)
    lines: dict[str, list[str]] = field(default_factory=dict)    # source lines by path, for reports
    errors: list = field(default_factory=list)      # FileError: files that could not be read or analysed
    streamed: bool = False                          # already printed part by part (lint_paths's on_part)


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


class _GitIgnore:
    """The `.gitignore` files (and `.git/info/exclude`) of the repository holding a path, read as
    git reads them: pathspec's GitIgnoreSpec implements git's wildmatch. Git itself is never run on
    the linted tree: it would honour that repository's own configuration (`core.fsmonitor` runs a
    command)."""

    MAX_BYTES = 1 << 20       # a larger ignore file is not read (nobody writes one by hand)

    def __init__(self):
        self._roots: dict[str, str | None] = {}
        self._specs: dict[str, object] = {}
        self._dirs: dict[str, bool] = {}

    def _root(self, directory: str) -> str | None:
        """The work tree holding `directory`: the closest folder with a `.git` entry; None outside one."""
        if directory not in self._roots:
            parent = os.path.dirname(directory)
            self._roots[directory] = directory if os.path.lexists(os.path.join(directory, ".git")) else \
                (None if parent == directory else self._root(parent))
        return self._roots[directory]

    def _spec(self, directory: str, root: str):
        if directory not in self._specs:
            lines: list[str] = []
            if directory == root:
                lines += _read_small(os.path.join(root, ".git", "info", "exclude"), self.MAX_BYTES)
            lines += _read_small(os.path.join(directory, ".gitignore"), self.MAX_BYTES)
            import pathspec
            self._specs[directory] = pathspec.GitIgnoreSpec.from_lines(lines) if lines else None
        return self._specs[directory]

    def _verdict(self, path: str, root: str, is_dir: bool) -> bool:
        """The deepest ignore file with a pattern for `path` decides (a `!pattern` re-includes)."""
        ignored = False
        d = root
        rel_parts = os.path.relpath(path, root).split(os.sep)
        for i in range(len(rel_parts)):
            spec = self._spec(d, root)
            if spec is not None:
                rel = "/".join(rel_parts[i:]) + ("/" if is_dir else "")
                got = spec.check_file(rel).include
                if got is not None:
                    ignored = got
            d = os.path.join(d, rel_parts[i])
        return ignored

    def dir_ignored(self, directory: str) -> bool:
        """Whether git ignores `directory` or a folder above it (inside the work tree)."""
        directory = os.path.abspath(directory)
        if directory not in self._dirs:
            root = self._root(directory)
            parent = os.path.dirname(directory)
            self._dirs[directory] = root is not None and directory != root and \
                (self.dir_ignored(parent) or self._verdict(directory, root, True))
        return self._dirs[directory]

    def ignored(self, path: str) -> bool:
        path = os.path.abspath(path)
        directory = os.path.dirname(path)
        root = self._root(directory)
        return root is not None and (self.dir_ignored(directory) or self._verdict(path, root, False))


def _read_small(path: str, limit: int) -> list[str]:
    """The lines of a small regular file; none when it is missing, unreadable, special or larger."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return []
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _skipped_dir(cfg: Config, directory: str, gitignore: _GitIgnore) -> bool:
    return cfg.excluded(directory) or (cfg.respect_gitignore and gitignore.dir_ignored(directory))


def collect_paths(paths: list[str], cfg: Config | None = None, errors: list | None = None) -> list[str]:
    """Files to lint: named files as given (unless force-exclude), directories recursed for .cu/.cuh,
    minus excluded and git-ignored files. With `errors`, a missing path or an unreadable directory
    is recorded there (a FileError) and the rest is still collected; without, it raises UsageError."""
    cfg = cfg or Config()
    out: list[str] = []
    gitignore = _GitIgnore()

    def fail(path: str, reason: str) -> None:
        if errors is None:
            raise UsageError(f"cannot read {path}: {reason}")
        errors.append(FileError(path, UNREADABLE, f"cannot read {path}: {reason}"))

    def walk_error(exc: OSError) -> None:
        fail(exc.filename if exc.filename is not None else "?", exc.strerror or str(exc))

    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p, onerror=walk_error):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not _skipped_dir(
                    cfg.for_file(os.path.join(root, d, "_")), os.path.join(root, d), gitignore))
                found.extend(os.path.join(root, f) for f in files
                             if f.endswith(EXTENSIONS) and not cfg.for_file(os.path.join(root, f)).excluded(
                                 os.path.join(root, f)))
            out.extend(sorted(f for f in found if not (cfg.for_file(f).respect_gitignore and gitignore.ignored(f))))
        elif os.path.lexists(p):
            fcfg = cfg.for_file(p)
            if not (fcfg.force_exclude and fcfg.excluded(p)):
                out.append(p)        # whatever it is (a FIFO, a dangling link), reading it says why not
        else:
            try:
                os.stat(p)
                reason = "no such file or directory"
            except OSError as exc:
                reason = exc.strerror or str(exc)
            fail(p, reason.lower() if reason[:1].isupper() and reason[1:2].islower() else reason)
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
    """Parse one file with its own configuration's defines; `data` is the text of stdin."""
    fcfg = cfg.for_file(path)
    try:
        if data is not None:
            return source_from_bytes(path, data, _defines(fcfg), fcfg.include_dirs)
        return read_source(path, _defines(fcfg), fcfg.include_dirs)
    except SourceError as exc:
        raise UsageError(str(exc)) from None


# files[].status of a file that produced no analysis (the others: "ok", "parse-errors")
UNREADABLE, INTERNAL_ERROR = "unreadable", "internal-error"


@dataclass
class FileError:
    """A file the run could not use: one line for stderr, and its status in the JSON `files`."""
    path: str
    status: str
    message: str


def _read_isolated(path: str, cfg: Config, errors: list[FileError], data: bytes | None = None):
    """One file's parse, or None with the reason recorded: one bad file never stops the others."""
    try:
        return read_file(path, cfg, data)
    except UsageError as exc:
        errors.append(FileError(path, UNREADABLE, str(exc)))
    except RecursionError:
        errors.append(FileError(path, UNREADABLE, f"cannot read {path}: nested deeper than cudalint follows"))
    except MemoryError:
        errors.append(FileError(path, UNREADABLE, f"cannot read {path}: out of memory"))
    except Exception as exc:
        if cfg.debug:
            raise
        errors.append(FileError(path, INTERNAL_ERROR,
                                f"internal error reading {path}: {exception_line(exc)} (please report this)"))
    return None


# A run over more files than this reports them in groups of this many, as each group is done, when
# the caller can print a part (`on_part`): a run killed at a CI time limit still shows what it found.
STREAM_FILES = 500


def lint_paths(paths: list[str], cfg: Config, on_part: Callable[[Result], None] | None = None) -> Result:
    errors: list[FileError] = []
    files = collect_paths(paths, cfg, errors)
    sources = [s for s in (_read_isolated(p, cfg, errors) for p in files) if s is not None]
    if on_part is None or len(sources) <= STREAM_FILES:
        return _with_errors(lint_sources(sources, cfg), errors, files)
    sources.sort(key=lambda s: s.path)          # the order the whole report would sort them in
    total = Result([], [])
    for i in range(0, len(sources), STREAM_FILES):
        # every part still sees every file's launch sites and helpers
        part = lint_sources(sources[i:i + STREAM_FILES], cfg, links_from=sources)
        on_part(part)
        total.diagnostics += part.diagnostics
        total.files += part.files
    total.streamed = True
    return _with_errors(total, errors, files)


def lint_stdin(name: str, data: bytes, cfg: Config) -> Result:
    errors: list[FileError] = []
    src = _read_isolated(name, cfg, errors, data)
    return _with_errors(lint_sources([src] if src else [], cfg), errors, [name])


def _with_errors(result: Result, errors: list[FileError], order: list[str]) -> Result:
    """Files that could not be read join `files` in the order they were found; a file with a
    CL902 internal error gets that status."""
    failed = {d.path for d in result.diagnostics if d.code == "CL902"}
    for f in result.files:
        if f["path"] in failed:
            f["status"] = INTERNAL_ERROR
            errors.append(FileError(f["path"], INTERNAL_ERROR, f"internal error analysing {f['path']} (CL902)"))
    entries = {f["path"]: f for f in result.files}
    for e in errors:
        entries.setdefault(e.path, {"path": e.path, "kernels": [], "status": e.status, "error": e.message})
    rank = {p: i for i, p in enumerate(order)}
    result.files = sorted(entries.values(), key=lambda f: rank.get(f["path"], len(rank)))
    result.errors = errors
    return result


def lint_sources(sources: list[SourceFile], cfg: Config, links_from: list[SourceFile] | None = None) -> Result:
    links = _Links(sources if links_from is None else links_from)
    units = [(si, ki) for si, src in enumerate(sources) for ki, fn in enumerate(src.kernels) if fn.body is not None]
    analysed = _analyse_parallel(sources, links, units, cfg) if _parallel_worth_it(cfg, units) else \
        [_analyse_kernel(sources[si].kernels[ki], sources[si], links, cfg) for si, ki in units]
    per_kernel = dict(zip(units, analysed))

    diags: list[Diagnostic] = []
    file_info = []
    tables = []
    for si, src in enumerate(sources):
        status = "ok"
        for prob in src.problems + src.annotation_errors:
            status = "parse-errors"
            r = BY_CODE["CL900"]
            diags.append(Diagnostic(src.path, prob.line, prob.column, prob.end_line, prob.column, r.CODE, r.NAME,
                                    r.CATEGORY, r.SEVERITY, prob.message + " (the rest of the file is still analysed)"))
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
    return Result([d for d in diags if cfg.for_file(d.path).enabled(d)], file_info, tables,
                  {src.path: src.lines for src in sources})


class _Links:
    """What links files: every launch site (a launch in one file configures a kernel in another) and
    every `__device__` helper a kernel may call."""

    def __init__(self, sources: list[SourceFile]):
        self.sites = [s for src in sources for s in src.launches]
        self.functions = {}
        for src in sources:
            for f in src.functions:
                if f.is_device and not f.is_kernel and f.body is not None:   # a host function is not callable
                    self.functions.setdefault(f.name, f)


# Analysis time grows with a kernel's size (about 2.5 ms a statement); the largest of 512 real kernels
# measured has 7,812 syntax nodes. Past this bound a generated or hostile kernel would take minutes.
MAX_KERNEL_NODES = 20_000


def _quiet_numpy(analyse):
    """numpy's RuntimeWarnings (a cast of inf, an overflow in a corner the evaluator does not check)
    are not the user's business: the simulation already treats what it cannot compute as unknown."""
    @functools.wraps(analyse)
    def quiet(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return analyse(*args, **kwargs)
    return quiet


@_quiet_numpy
def _analyse_kernel(fn, src: SourceFile, links: _Links, cfg: Config):
    """Two-tree table, simulation and rules of one kernel: (diagnostics, table or None)."""
    from .model.build import KernelBuilder
    from .model.launch import resolve_launch
    from .analysis.simulate import AnalysisLimit, Simulation

    fcfg = cfg.for_file(src.path)
    diags: list[Diagnostic] = []
    table = None
    size = fn.body.descendant_count if fn.body is not None else 0
    if size > MAX_KERNEL_NODES:
        return [_note_raw(src.path, fn, f"kernel `{fn.name}` is not analysed: its body has {size} syntax nodes, "
                                        f"more than the {MAX_KERNEL_NODES} cudalint analyses")], None
    try:
        launch, template, assumptions = resolve_launch(fn, links.sites, fcfg.launches)
        table = KernelBuilder(fn, launch, links.functions, template).build()
        table.assumptions.extend(assumptions)
        try:
            sim = Simulation(table, fcfg.params)
        except AnalysisLimit as exc:
            diags.append(_note(table, table.line, 1, f"kernel `{fn.name}` is not simulated: {exc}"))
            return diags, table
        ctx = Context(table, sim, Options(fcfg.min_ratio, fcfg.params, fcfg.min_ways))
        for rule in CHECKS:
            diags.extend(rule.check(ctx))
        diags.extend(_notes(table, sim))
    except RecursionError:     # a limit of the analysis, not a bug: say which
        diags.append(_note_raw(src.path, fn, f"kernel `{fn.name}` is not analysed: it nests expressions or "
                                             f"statements deeper than cudalint follows"))
    except Exception as exc:  # an analysis bug must not hide the rest of the run, nor pass as a clean kernel
        if cfg.debug:
            raise
        r = BY_CODE["CL902"]
        diags = [Diagnostic(src.path, fn.line, 1, fn.line, 1, r.CODE, r.NAME, r.CATEGORY, r.SEVERITY,
                            f"cudalint failed on kernel `{fn.name}`: {exception_line(exc)}; its findings are "
                            f"missing (please report this)", fn.name)]
    return diags, table


def exception_line(exc: BaseException, limit: int = 200) -> str:
    """`Type: first line of the message`, short: an exception's text may quote a whole expression."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    if len(first) > limit:
        first = first[:limit - 1] + "…"
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


MIN_PARALLEL_KERNELS = 8    # below this, starting processes costs more than it saves


def _parallel_worth_it(cfg: Config, units) -> bool:
    from . import parallel
    return cfg.jobs > 1 and len(units) >= MIN_PARALLEL_KERNELS and parallel.available()


def _analyse_parallel(sources, links, units, cfg):
    """Kernels analysed in processes forked after parsing, so every one of them sees every file's
    launch sites and helpers."""
    from . import parallel

    def analyse(unit):
        si, ki = unit
        return _analyse_kernel(sources[si].kernels[ki], sources[si], links, cfg)

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
