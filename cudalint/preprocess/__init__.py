"""The preprocessing stage: the text the compiler compiles, with the lines where it stands.

A translation unit is walked as the C preprocessor walks it: `#if/#ifdef/#ifndef/#elif/#else/
#endif` are evaluated with the macros defined so far (the file's own, those of the local headers
it includes, in order, -D and the configuration's `define`, and nvcc's predefined macros for a
device pass), `#define`/`#undef` change the table where they stand, and `#include "x.h"` is
followed into local headers (the including file's directory, then -I). What the compiler skips is
blanked line by line, and so are the conditional directives themselves, so that tree-sitter reads
plain code (an `#if` whose two arms each open a `for` no longer breaks the parse) and every line
and column stays that of the original file. Macros are not expanded in the text: the index stage
expands them where it reads an expression, with the table as it stands at that line.

Conditions are evaluated by pcpp (see condition.py); the scanning is ours because the analysis
needs the original positions, which a preprocessor's output no longer has.
"""
from __future__ import annotations

import functools
import itertools
import os
import re
from dataclasses import dataclass, field

from .macros import Macro, MacroTable, parse_define
from .condition import ConditionBudget, ConditionError, Conditions

# nvcc's device pass for an sm_90 (H100) target; -D overrides any of them
PREDEFINED = {
    "__CUDACC__": "1", "__NVCC__": "1", "__CUDA_ARCH__": "900", "__cplusplus": "201703L",
    "__CUDACC_VER_MAJOR__": "12", "__CUDACC_VER_MINOR__": "8", "__CUDACC_VER_BUILD__": "0",
    "CUDART_VERSION": "12080", "CUDA_VERSION": "12080", "__linux__": "1", "__x86_64__": "1",
}
# a project's switch that turns its CUDA code on (`USE_CUDA`, `WITH_CUDA`, `HAVE_CUDA`, `GOOGLE_CUDA`,
# `XGBOOST_USE_CUDA`, `PADDLE_WITH_CUDA`, `GMX_GPU_CUDA`): its CUDA build defines it, and cudalint reads the CUDA
# build. Taken as 1 where a condition tests it and nothing defined or `#undef`-ed it (-D wins)
BUILD_SWITCH = re.compile(r"(?:[A-Z][A-Z0-9]*_)?(?:USE|WITH|HAVE|ENABLE|BUILD|GPU)_CUDA|GOOGLE_CUDA|CUDA_(?:ENABLED|FOUND)")
MAX_INCLUDE_DEPTH = 40
MAX_HEADER_BYTES = 8 << 20
MAX_INCLUSIONS = 2000       # headers read for one unit: a file that includes itself 30 times stops here
# text read for one unit, headers included: a 450 KB file that includes itself 30 times stops here,
# not after 2,000 readings (900 MB, minutes)
MAX_UNIT_BYTES = 32 << 20
MAX_READINGS = 8            # readings of one header kept for the units after (a header read alike)
# readings of one header in one unit: an X-macro header is read once per table; a file that includes
# itself 30 times without a guard would be read until the inclusion budget is spent (2,000 readings)
MAX_SAME_HEADER = 32
# files looked for to resolve `#include`s and `__has_include`s in one unit: a configuration of 40,000
# include directories and a file of 2,000 missing includes would make 80 million
MAX_INCLUDE_PROBES = 20_000

_DIRECTIVE = re.compile(r"^\s*#\s*([A-Za-z_]\w*)?(.*)$", re.DOTALL)
_CONDITIONALS = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"}


@dataclass
class Problem:
    line: int
    column: int
    message: str
    severity: str = "warning"
    code: str = "CL900"          # CL901: what cudalint does not read, not what the file does wrong


@dataclass
class FileView:
    """One file as a translation unit sees it."""
    path: str                      # as the user or the #include names it
    key: str                       # the file's identity (absolute, symlinks resolved)
    text: str                      # the original text with what the compiler skips blanked
    source: str                    # the original text
    macros: MacroTable             # position-aware: `macros.at(line)`
    includes: list[str] = field(default_factory=list)    # keys of the local headers it includes
    reached: list[str] = field(default_factory=list)     # as a translation unit: itself, then every header reached
    problems: list[Problem] = field(default_factory=list)
    inactive: list[tuple[int, int]] = field(default_factory=list)   # skipped line ranges, inclusive

    def active(self, line: int) -> bool:
        return not any(a <= line <= b for a, b in self.inactive)


@functools.lru_cache(maxsize=1 << 14)
def file_key(path: str) -> str:
    """A file's identity (its real path): asked for every include of every unit. Kept for one
    run: `lint_paths` forgets them, as links may change between the runs of one process."""
    return os.path.normcase(os.path.realpath(path))


def read_header(path: str) -> str:
    """A local header's text: a regular file of reasonable size (a FIFO or a device never blocks)."""
    from ..inputs import InputError, read_regular
    try:
        data = read_regular(path, MAX_HEADER_BYTES)
    except InputError as exc:
        raise OSError(str(exc).split(": ", 1)[-1]) from None
    from ..inputs import compiler_lines
    return compiler_lines(data.decode("utf-8", errors="replace").removeprefix("\ufeff"))


class Preprocessor:
    """Preprocesses translation units with one set of -D definitions and include directories."""

    def __init__(self, defines=(), include_dirs=(), reader=read_header):
        self.defines: list[Macro] = list(defines)
        self.include_dirs = tuple(str(d) for d in include_dirs)
        self.reader = reader
        self._cond = Conditions()
        self._found: dict = {}        # (name, angled, folder) -> path or None, for every unit
        # Headers already read, by key: what each reading depended on and what it did (see _Reading)
        self._readings: dict[str, list[_Reading]] = {}

    def unit(self, path: str, text: str) -> dict[str, FileView]:
        """The views of a translation unit's file (first) and of every local header it reaches,
        each as its first inclusion sees it."""
        self._views: dict[str, FileView | None] = {}
        self._cur: dict[str, Macro] = {}
        self._forced: set[str] = set()
        self._undone: set[str] = set()           # names `#undef`-ed in this unit
        self._once: set[str] = set()
        self._changes: list[str] = []
        self._inclusions = 0
        self._unit_bytes = 0
        self._probes = 0
        self._spent: set = set()                 # (view, why) said once
        self._times: dict[str, int] = {}         # key -> readings of that header in this unit
        self._recording: list[_Reading] = []     # the headers being read, outermost first
        self._open: list[str] = []               # folders of the files being read, outermost first
        self._done: list[_Reading] = []          # kept once the unit is read through
        self._cond.reset()
        for name, body in PREDEFINED.items():
            self._define(Macro(name, body), None, 0)
        for m in self.defines:
            self._define(m, None, 0)
            self._forced.add(m.name)
        key = file_key(path)
        self._file(path, key, text, 0)
        for r in self._done:
            kept = self._readings.setdefault(r.key, [])
            kept.append(r)
            del kept[:-MAX_READINGS]
        views = {k: v for k, v in self._views.items() if v is not None}
        views[key].reached = list(views)
        return views

    # ---- what a header depends on ------------------------------------------------------------
    def _macro(self, name: str) -> Macro | None:
        """The macro `name` stands for now: a CUDA build switch nothing defined is 1, as if
        predefined (no header's reading "defines" it, so readings of it are replayed alike)."""
        m = self._cur.get(name)
        if m is None and name not in self._undone and BUILD_SWITCH.fullmatch(name):
            m = self._cur[name] = Macro(name, "1")
            self._cond.define(m.name, m.params, m.body, m.variadic)
        return m

    def _read_macro(self, name: str) -> None:
        self._macro(name)
        for r in self._recording:
            if name not in r.changed and name not in r.macros:
                r.macros[name] = _signature(self._cur.get(name))

    def _read_condition(self, text: str) -> None:
        """An `#if` reads the names in it and, through their definitions, the names those use."""
        seen: set[str] = set()
        todo = _IDENT.findall(text)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            self._read_macro(name)
            m = self._cur.get(name)
            if m is not None:
                todo.extend(_IDENT.findall(m.body))

    def _changed(self, name: str) -> None:
        self._changes.append(name)
        for r in self._recording:
            r.changed.add(name)

    # ---- one file --------------------------------------------------------------------------
    def _file(self, path: str, key: str, text: str, depth: int) -> None:
        self._open.append(os.path.dirname(path))
        try:
            self._read_file(path, key, text, depth)
        finally:
            self._open.pop()

    def _read_file(self, path: str, key: str, text: str, depth: int) -> None:
        self._unit_bytes += len(text)
        first = key not in self._views
        for r in self._recording:
            r.views.setdefault(key, not first)
        if first:
            self._views[key] = None          # its place in the order of first inclusion
        table = MacroTable()
        for m in self._cur.values():
            table.define(m, force=m.name in self._forced)
        view = FileView(path, key, "", text, table)
        lines = text.split("\n")
        out = list(lines)
        stack: list[list] = []               # [parent active, an arm taken, this arm active, line]
        active, in_comment, skip_from = True, False, None
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            m = None if in_comment else _DIRECTIVE.match(line)
            if m is None:
                if not active:
                    out[i] = ""
                elif not in_comment and line[-1:] != ";" and (b := self._block_macro_end(line)):
                    # `CHECK_KERNEL` alone on its line, a macro whose body is a `{ ... }` block:
                    # a statement with no `;` after it, which the parser would join to the next
                    out[i] = line[:b] + ";" + line[b:]
                if ("*/" if in_comment else "/*") in line:      # most lines open or close no comment
                    in_comment = _comment_open(line, in_comment)
                i += 1
                continue
            j = i
            while lines[j].rstrip("\r").endswith("\\") and j + 1 < n:
                j += 1
            raw = "\n".join(x.rstrip("\r") for x in lines[i:j + 1])
            body, in_comment = _strip_comments(raw.replace("\\\n", " "))
            dm = _DIRECTIVE.match(body)
            name, rest = (dm.group(1) or ""), dm.group(2).strip()
            was_active = active
            if name in _CONDITIONALS:
                active = self._conditional(name, rest, stack, active, view, i + 1, path)
                if was_active != active:
                    if not active:
                        skip_from = j + 2
                    elif skip_from is not None:
                        view.inactive.append((skip_from, i))
                        skip_from = None
            elif active:
                self._directive(name, rest, raw, view, table, i + 1, path, key, depth)
            if name in _CONDITIONALS or not was_active:
                for k in range(i, j + 1):
                    out[k] = ""
            i = j + 1
        if stack:
            view.problems.append(Problem(stack[-1][3], 1, "`#if` without `#endif`: the file ends inside it"))
        if skip_from is not None:
            view.inactive.append((skip_from, n))
        view.text = "\n".join(out)
        if first:
            self._views[key] = view

    def _block_macro_end(self, line: str) -> int:
        """Where the text of a line that is one use of a macro whose body is a braced block ends
        (`CHECK_KERNEL`, `CUDA_CHECK(f(x))`, a comment after it); 0 where the line is not one."""
        m = _STATEMENT_USE.match(line)
        if m is None:
            return 0
        macro = self._cur.get(m.group(1))
        if macro is None or (macro.params is None) != (m.group(2) is None):
            return 0
        body = macro.body.strip()
        if body[:1] != "{" or body[-1:] != "}":
            return 0
        return m.end(2) if m.group(2) is not None else m.end(1)

    def _conditional(self, name: str, rest: str, stack: list, active: bool, view: FileView, line: int,
                     path: str) -> bool:
        if name in ("if", "ifdef", "ifndef"):
            if not active:
                stack.append([False, True, False, line])
                return False
            value = self._test(name, rest, view, line, path)
            stack.append([True, value, value, line])
            return value
        if not stack:
            view.problems.append(Problem(line, 1, f"`#{name}` without `#if`"))
            return active
        top = stack[-1]
        if name == "endif":
            stack.pop()
            return stack[-1][2] if stack else True
        if name == "else":
            top[2] = top[0] and not top[1]
            top[1] = True
        else:   # elif, elifdef, elifndef
            if top[0] and not top[1]:
                kind = {"elif": "if", "elifdef": "ifdef", "elifndef": "ifndef"}[name]
                top[2] = self._test(kind, rest, view, line, path)
                top[1] = top[2]
            else:
                top[2] = False
        return top[2]

    def _test(self, kind: str, rest: str, view: FileView, line: int, path: str) -> bool:
        if kind in ("ifdef", "ifndef"):
            word = rest.split()[0] if rest.split() else ""
            self._read_macro(word)
            return (word in self._cur) == (kind == "ifdef")
        self._read_condition(rest)
        here = os.path.dirname(path)
        try:
            return self._cond.evaluate(rest, lambda name, angled: self._resolve(name, angled, here, view, line)
                                       is not None)
        except ConditionBudget as exc:
            view.problems.append(Problem(line, 1, f"`#if {_short(rest)}` is not evaluated: {exc}; taken as false",
                                         "info", "CL901"))
            return False
        except ConditionError as exc:
            view.problems.append(Problem(line, 1, f"cannot evaluate `#if {_short(rest)}` ({exc}): taken as false"))
            return False

    def _directive(self, name, rest, raw, view, table, line, path, key, depth) -> None:
        if name == "define":
            m = parse_define(raw, line, path)
            if m is not None:
                self._define(m, table, line)
        elif name == "undef":
            word = rest.split()[0] if rest.split() else ""
            if word and word not in self._forced:
                self._undone.add(word)
                self._cur.pop(word, None)
                self._cond.undef(word)
                self._changed(word)
                table.undefine(word, line)
        elif name == "pragma" and rest.split()[:1] == ["once"]:
            self._once.add(key)
            for r in self._recording:
                r.once_set.add(key)
        elif name == "include":
            self._include(rest, view, table, line, path, depth)

    def _define(self, m: Macro, table: MacroTable | None, line: int) -> None:
        if m.name in self._forced:
            return
        self._cur[m.name] = m
        self._cond.define(m.name, m.params, m.body, m.variadic)
        self._changed(m.name)
        if table is not None:
            table.define(m, line=line)

    def _include(self, rest: str, view: FileView, table: MacroTable, line: int, path: str, depth: int) -> None:
        mq = re.match(r'"([^"]+)"|<([^>]+)>', rest)
        if mq is None:
            return      # `#include MACRO`: not followed
        name, angled = mq.group(1) or mq.group(2), mq.group(2) is not None
        if self._inclusions >= MAX_INCLUSIONS or self._unit_bytes >= MAX_UNIT_BYTES:
            # the unit's budget is spent: the includes after it cost nothing, and are said once
            for r in self._recording:
                r.limited = True
            if id(view) not in self._spent:       # said once in each file's view
                self._spent.add(id(view))
                why = f"past the {MAX_INCLUSIONS} inclusions cudalint follows in one unit" \
                    if self._inclusions >= MAX_INCLUSIONS else \
                    f"past the {MAX_UNIT_BYTES >> 20} MB of text cudalint reads for one unit"
                view.problems.append(Problem(line, 1, f"`#include \"{name}\"` and the includes after it are {why}: "
                                                      f"not followed", "info", "CL901"))
            return
        found = self._resolve(name, angled, os.path.dirname(path), view, line)
        if found is None:
            if not angled and not _system_header(name):
                view.problems.append(Problem(line, 1, f"`#include \"{name}\"` not found: its macros and helpers are "
                                                      f"unknown (give -I DIR)", "info", "CL901"))
            return
        key = file_key(found)
        view.includes.append(key)
        for r in self._recording:
            if key not in r.once_set and key not in r.once:
                r.once[key] = key in self._once
            r.depth = max(r.depth, depth - r.at)
        if key in self._once:
            return
        times = self._times.get(key, 0)
        if times >= MAX_SAME_HEADER:
            for r in self._recording:
                r.limited = True
            if (id(view), key) not in self._spent:      # said once in each file's view
                self._spent.add((id(view), key))
                view.problems.append(Problem(line, 1, f"`#include \"{name}\"` is not followed: it is read "
                                                      f"{MAX_SAME_HEADER} times in this unit already (no include "
                                                      f"guard stops it)", "info", "CL901"))
            return
        self._times[key] = times + 1
        if depth >= MAX_INCLUDE_DEPTH or self._inclusions >= MAX_INCLUSIONS or self._unit_bytes >= MAX_UNIT_BYTES:
            for r in self._recording:
                r.limited = True
            why = f"nested more than {MAX_INCLUDE_DEPTH} deep" if depth >= MAX_INCLUDE_DEPTH else \
                f"past the {MAX_INCLUSIONS} inclusions cudalint follows in one unit" \
                if self._inclusions >= MAX_INCLUSIONS else \
                f"past the {MAX_UNIT_BYTES >> 20} MB of text cudalint reads for one unit"
            view.problems.append(Problem(line, 1, f"`#include \"{name}\"` {why}: not followed"))
            return
        self._inclusions += 1
        mark = len(self._changes)
        if not self._replay(key, depth + 1):
            try:
                text = self.reader(found)
            except OSError as exc:
                view.problems.append(Problem(line, 1, f"cannot read `{name}`: {exc.strerror or exc}", "info"))
                for r in self._recording:
                    r.limited = True        # a file that could not be read is read again next time
                return
            self._record(found, key, text, depth + 1)
        for changed in dict.fromkeys(self._changes[mark:]):
            m = self._cur.get(changed)
            if m is not None:
                table.define(m, line=line)
            else:
                table.undefine(changed, line)

    # ---- headers read once ------------------------------------------------------------------
    def _record(self, path: str, key: str, text: str, depth: int) -> None:
        """Read a header, noting what its reading depends on and what it does."""
        r = _Reading(key, depth, len(self._changes), self._inclusions, self._unit_bytes)
        self._recording.append(r)
        try:
            self._file(path, key, text, depth)
        finally:
            self._recording.pop()
        if r.limited:
            for outer in self._recording:
                outer.limited = True
            return
        r.changes = self._changes[r.mark:]
        r.macros_after = {n: self._cur.get(n) for n in dict.fromkeys(r.changes)}
        r.engine_after = {n: self._cond.engine.macros.get(n) for n in r.macros_after}
        r.inclusions = self._inclusions - r.inclusions
        r.bytes = self._unit_bytes - r.bytes
        r.new_views = [(k, self._views[k]) for k, seen in r.views.items() if not seen]
        self._done.append(r)

    def _replay(self, key: str, depth: int) -> bool:
        """A header read before (in an earlier unit) in a state that gave it the same answers: its
        effects are applied without reading it again. False: it must be read."""
        for r in self._readings.get(key, ()):
            if depth + r.depth >= MAX_INCLUDE_DEPTH or self._inclusions + r.inclusions > MAX_INCLUSIONS or \
                    self._unit_bytes + r.bytes >= MAX_UNIT_BYTES:
                continue        # read again, it would meet a limit: it is read, and meets it
            if any(_signature(self._macro(n)) != sig for n, sig in r.macros.items()) or \
                    any((k in self._once) != v for k, v in r.once.items()) or \
                    any((k in self._views) != v for k, v in r.views.items()):
                continue
            for outer in self._recording:        # a header read inside another: the outer one depends on it
                for n, sig in r.macros.items():
                    if n not in outer.changed and n not in outer.macros:
                        outer.macros[n] = sig
                for k, v in r.once.items():
                    if k not in outer.once_set and k not in outer.once:
                        outer.once[k] = v
                for k, v in r.views.items():
                    outer.views.setdefault(k, v)
                outer.once_set |= r.once_set
                outer.depth = max(outer.depth, depth - outer.at + r.depth)
            for n in r.changes:
                self._changed(n)
            for n, m in r.macros_after.items():
                if m is None:
                    self._cur.pop(n, None)
                else:
                    self._cur[n] = m
            engine = self._cond.engine.macros
            for n, m in r.engine_after.items():
                if m is None:
                    engine.pop(n, None)
                else:
                    engine[n] = m
            self._once |= r.once_set
            self._inclusions += r.inclusions
            self._unit_bytes += r.bytes
            for k, v in r.new_views:
                self._views.setdefault(k, v)
            return True
        return False

    def _resolve(self, name: str, angled: bool, here: str, view: FileView | None = None,
                 line: int = 0) -> str | None:
        key = (name, angled, here)
        got = self._found.get(key, _UNSET)
        if got is _UNSET:
            if os.path.isabs(name):
                got = name if os.path.isfile(name) else None
            else:
                got = None
                for d in (self.include_dirs if angled else itertools.chain((here,), self.include_dirs)):
                    if not self._probe(name, view, line):
                        return None     # not remembered: another unit may look further
                    p = os.path.normpath(os.path.join(d, name)) if d else os.path.normpath(name)
                    if os.path.isfile(p):
                        got = p
                        break
            self._found[key] = got
        if got is None and angled and "/" in name:
            got = _own_tree_header(name, here)
        if got is None and angled and _PROJECT_HEADER.search(name) and not _system_header(name) and \
                self._probe(name, view, line, PROJECT_LEVELS * 2):
            # `#include <kernel/regions.hpp>` where the build gives the file's own folder (or one
            # above it) with -I: a project's header, found as a quoted one would be
            p = os.path.normpath(os.path.join(here, name)) if here else os.path.normpath(name)
            got = p if os.path.isfile(p) else _project_header(name, here)
        if got is not None or angled or os.path.isabs(name):
            return got
        # the folders of the files that include this one, innermost first: a header next to the file
        # the unit compiles (its build's -I), as MSVC's rule for quoted includes finds it
        for d in reversed(self._open[:-1]):
            if not self._probe(name, view, line):
                return None
            p = os.path.normpath(os.path.join(d, name)) if d else os.path.normpath(name)
            if os.path.isfile(p):
                return p
        if not self._probe(name, view, line, PROJECT_LEVELS * 2):
            return None
        return _project_header(name, here)

    def _probe(self, name: str, view: FileView | None, line: int, n: int = 1) -> bool:
        """Whether `n` more files may be looked for in this unit; past the budget, said once."""
        if self._probes >= MAX_INCLUDE_PROBES:
            if self._probes == MAX_INCLUDE_PROBES and view is not None:
                self._probes += 1       # said once a unit
                view.problems.append(Problem(line, 1, f"`{name}` and the includes after it are not looked for: "
                                                      f"past the {MAX_INCLUDE_PROBES:,} files cudalint looks "
                                                      f"for in one unit", "info", "CL901"))
            return False
        self._probes += n
        return True


_IDENT = re.compile(r"[A-Za-z_]\w*")
# a line holding one macro use and nothing else (a comment may follow): `NAME` or `NAME(args)`,
# the arguments' parentheses nested at most twice
_STATEMENT_USE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?\s*(?://.*|/\*.*\*/\s*)?$")
_UNSET = object()
# the extensions a project gives its own headers (the standard library's have none, C's are listed),
# and its CUDA files included whole (`#include <kernel.cu>` beside the runner, built with `-I.`)
PROJECT_HEADER_EXTENSIONS = ("h", "hh", "hpp", "hxx", "cuh", "inl", "inc", "cu")
_PROJECT_HEADER = re.compile(r"\.(?:" + "|".join(PROJECT_HEADER_EXTENSIONS) + r")$")
PROJECT_LEVELS = 6          # folders above a file searched for the headers its project's build names with -I


def _own_tree_header(name: str, here: str) -> str | None:
    """`#include <raft/core/macros.hpp>` in a file under `cpp/include/raft/...`: an angled include
    that names a folder the file itself lies in is the project's own header, found from where that
    folder lies (the build's `-I cpp/include`)."""
    top = name.split("/", 1)[0]
    d = os.path.abspath(here or ".")
    for _ in range(PROJECT_LEVELS + 4):
        if os.path.basename(d) == top:
            p = os.path.normpath(os.path.join(os.path.dirname(d), name))
            return p if os.path.isfile(p) else None
        parent = os.path.dirname(d)
        if parent == d or os.path.exists(os.path.join(d, ".git")):
            break
        d = parent
    return None


def _project_header(name: str, here: str) -> str | None:
    """A quoted header the file's folder and the -I folders do not hold, where its project's build
    finds it: in a folder above the file (`#include "cudamatrix/cu-matrixdim.h"` from src/chain/, built
    with -I src) or in such a folder's `include/` (`#include "caffe/common.hpp"`, built with
    -I include), up to the repository's top (a `.git`) or PROJECT_LEVELS folders up."""
    d = os.path.abspath(here or ".")
    for _ in range(PROJECT_LEVELS):
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
        for p in (os.path.join(d, name), os.path.join(d, "include", name)):
            if os.path.isfile(p):
                return os.path.normpath(p)
        if os.path.exists(os.path.join(d, ".git")):
            break
    return None


def _signature(m: Macro | None):
    """What a condition can see of a macro: whether it is defined, and as what."""
    return None if m is None else (m.params, m.body, m.variadic)


@dataclass
class _Reading:
    """One reading of a header (with the headers it includes) in one unit: the state it read (the
    macros its conditions name, and the names their definitions use; whether the headers it
    includes were already `#pragma once`d or seen), and what it did (macros defined and undefined,
    headers marked once, views made, inclusions counted). A later inclusion in a state that gives
    the same answers does the same: it is applied, not read again. Readings that met a limit
    (depth, inclusion or text budget, an unreadable file) are not kept."""
    key: str
    at: int                    # the depth it was read at
    mark: int                  # where its changes start in the unit's list
    inclusions: int            # the unit's count before it; after: the headers it included
    bytes: int = 0             # the unit's text read before it; after: the text read for it
    macros: dict = field(default_factory=dict)      # name -> signature it had when read
    once: dict = field(default_factory=dict)        # header key -> whether already `#pragma once`d
    views: dict = field(default_factory=dict)       # header key -> whether the unit had already seen it
    changed: set = field(default_factory=set)
    once_set: set = field(default_factory=set)
    depth: int = -1            # deepest nesting of an `#include` inside it, relative to `at`
    limited: bool = False
    changes: list = field(default_factory=list)
    macros_after: dict = field(default_factory=dict)
    engine_after: dict = field(default_factory=dict)
    new_views: list = field(default_factory=list)


# headers of the C and C++ libraries, the CUDA toolkit and its libraries: found by the compiler in
# its own directories, never read by cudalint (`#include "cuda.h"` is not a missing local header)
_SYSTEM_PREFIXES = ("cuda", "cub/", "thrust/", "cute/", "cutlass/", "nv", "cublas", "cufft", "curand", "cusparse",
                    "cusolver", "cudnn", "npp", "helper_", "sm_", "device_", "vector_", "math_", "cooperative_groups",
                    "crt/", "mma.h", "omp.h", "mpi.h", "gflags/", "glog/", "gtest/", "GL/", "sys/", "bits/")
_C_HEADERS = {"assert.h", "ctype.h", "errno.h", "float.h", "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h",
              "stdarg.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h", "stdbool.h",
              "inttypes.h", "unistd.h", "malloc.h", "memory.h", "fcntl.h", "dirent.h", "pthread.h", "windows.h",
              "strings.h", "getopt.h", "cstdio", "cstdlib", "cmath", "cstring", "iostream", "vector", "string",
              "algorithm", "cassert", "cstdint", "climits", "cfloat", "chrono", "functional", "memory"}


def _system_header(name: str) -> bool:
    return name in _C_HEADERS or name.startswith(_SYSTEM_PREFIXES)


def _comment_open(line: str, in_comment: bool) -> bool:
    """Whether a block comment is open at the end of `line` (strings and `//` comments honoured).
    Asked only of a line holding the mark that could change it (most lines hold none)."""
    i, n = 0, len(line)
    while i < n:
        if in_comment:
            k = line.find("*/", i)
            if k < 0:
                return True
            in_comment, i = False, k + 2
            continue
        c = line[i]
        if c == "/" and i + 1 < n:
            if line[i + 1] == "/":
                return False
            if line[i + 1] == "*":
                in_comment, i = True, i + 2
                continue
        if c in "\"'":
            k = i + 1
            while k < n and line[k] != c:
                k += 2 if line[k] == "\\" else 1
            i = k + 1
            continue
        i += 1
    return in_comment


def _strip_comments(text: str) -> tuple[str, bool]:
    """A directive's text without its comments, and whether a block comment stays open after it."""
    if "//" not in text and "/*" not in text:      # most directives: no comment to take out
        return text, False
    return _take_out_comments(text)


def _take_out_comments(text: str) -> tuple[str, bool]:
    """_strip_comments, character by character (strings and character constants honoured)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            k = text.find("\n", i)
            if k < 0:
                break
            i = k
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            k = text.find("*/", i + 2)
            if k < 0:
                return "".join(out), True
            out.append(" ")
            i = k + 2
            continue
        if c in "\"'":
            k = i + 1
            while k < n and text[k] not in (c, "\n"):
                k += 2 if text[k] == "\\" else 1
            out.append(text[i:k + 1])
            i = k + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), False


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"
