"""Where a file's local headers are, as its build says: `compile_commands.json` (clang-tidy's
convention: the `-I`, `-isystem`, `-iquote` and `-D` of that file's command), then the project's
conventional include roots (`include/` at the project root, the root itself), then, for a header
still not found, the one directory of the project that holds it under the name the `#include` gives
(`#include "caffe/util/math_functions.hpp"` found as `include/caffe/util/math_functions.hpp`; a name
two directories could give is not guessed). The `-I` of the command line and of the configuration
come first, as a compiler searches them.

Every search has a budget: the project tree walked for headers stops at MAX_TREE_FILES files, the
headers followed to find what they include at MAX_HEADERS.
"""
from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field, replace

from ..inputs import InputError, read_regular

MAX_TREE_FILES = 50_000
MAX_HEADERS = 2_000
# files looked for while finding a project's header directories: 40,000 include directories and a file
# of 2,000 missing includes would make 80 million
MAX_PROBES = 20_000
MAX_DB_BYTES = 64 << 20
MAX_UP = 3                         # directories above an including file searched for its header
MAX_DB_UP = 8                      # directories above a file searched for compile_commands.json
HEADER_BYTES = 4 << 20

# `#include "x.h"`, and `#include <lib/x.h>` (a project's own headers are also included that way)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+/[^>\n]+)>)', re.MULTILINE)
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".venv", "venv"}


@dataclass
class BuildFlags:
    """What the build gives one file: include directories (in order) and definitions."""
    include_dirs: tuple[str, ...] = ()
    defines: dict[str, str] = field(default_factory=dict)


def _flags(args: list[str], directory: str) -> BuildFlags:
    dirs: list[str] = []
    defines: dict[str, str] = {}
    it = iter(range(len(args)))
    for i in it:
        a = args[i]
        for opt in ("-I", "-isystem", "-iquote", "--include-path"):
            if a == opt or (opt != "-I" and a == opt + "="):
                if i + 1 < len(args):
                    dirs.append(args[i + 1])
                    next(it, None)
                break
            if a.startswith(opt) and len(a) > len(opt):
                dirs.append(a[len(opt):].lstrip("="))
                break
        else:
            if a in ("-D", "--define-macro") and i + 1 < len(args):
                d = args[i + 1]
                next(it, None)
            elif a.startswith("-D") and len(a) > 2:
                d = a[2:]
            else:
                continue
            name, _, value = d.partition("=")
            if name and re.fullmatch(r"[A-Za-z_]\w*", name):
                defines[name] = value if "=" in d else "1"
    return BuildFlags(tuple(os.path.normpath(os.path.join(directory, d)) for d in dirs), defines)


class CompileDatabase:
    """One `compile_commands.json`: the flags of each file it lists."""

    def __init__(self, path: str):
        self.path = path
        self.entries: dict[str, BuildFlags] = {}
        try:        # a regular file of bounded size, and JSON of bounded depth (a stranger's tree)
            data = json.loads(read_regular(path, MAX_DB_BYTES, binary_check=False).decode("utf-8", errors="replace"))
        except (InputError, ValueError, RecursionError):
            return
        if not isinstance(data, list):
            return
        for e in data:
            if not isinstance(e, dict) or not isinstance(e.get("file"), str):
                continue
            directory = e.get("directory") if isinstance(e.get("directory"), str) else os.path.dirname(path)
            args = e.get("arguments")
            if not isinstance(args, list):
                try:
                    args = shlex.split(e.get("command", "")) if isinstance(e.get("command"), str) else []
                except ValueError:
                    args = []
            key = os.path.realpath(os.path.join(directory, e["file"]))
            self.entries.setdefault(key, _flags([str(a) for a in args], directory))
        # a header is not in the database: it is compiled with the directories of the files that are
        merged: dict[str, None] = {}
        for fl in self.entries.values():
            merged.update(dict.fromkeys(fl.include_dirs))
        self.headers = BuildFlags(tuple(merged))

    def flags(self, path: str) -> BuildFlags:
        return self.entries.get(os.path.realpath(path), self.headers if self.entries else BuildFlags())


def _find_database(path: str, root: str | None) -> str | None:
    d = os.path.dirname(os.path.abspath(path))
    for _ in range(MAX_DB_UP):
        for cand in (os.path.join(d, "compile_commands.json"), os.path.join(d, "build", "compile_commands.json")):
            if os.path.isfile(cand):
                return cand
        if root is not None and os.path.realpath(d) == os.path.realpath(root):
            break
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return None


def _under_cwd(path: str) -> str | None:
    here = os.getcwd()
    return here if os.path.abspath(path).startswith(here.rstrip(os.sep) + os.sep) else None


class BuildPaths:
    """The include directories and definitions of the files of one run, as their build gives them."""

    def __init__(self, files: list[str], root_of=None):
        """`root_of(path)`: the project a file belongs to (its configuration's or git work tree's
        directory), None outside one; then the current directory holds it when the file is under it
        (`cudalint .` at a project's root)."""
        self._root_of = root_of or (lambda p: None)
        self._db: dict[str, CompileDatabase] = {}
        self._roots: dict[str, list[str]] = {}       # root -> directories found for it
        self._tree: dict[str, dict[str, list[str]]] = {}
        self._files = list(files)
        self._by_root: dict[str | None, list[str]] = {}
        for p in self._files:
            self._by_root.setdefault(self.root(p), []).append(p)

    def root(self, path: str) -> str | None:
        return self._root_of(path) or _under_cwd(path)

    def flags(self, path: str, given: tuple[str, ...] = ()) -> BuildFlags:
        root = self.root(path)
        db_path = _find_database(path, root)
        db = BuildFlags()
        if db_path is not None:
            if db_path not in self._db:
                self._db[db_path] = CompileDatabase(db_path)
            db = self._db[db_path].flags(path)
        dirs = list(dict.fromkeys([*given, *db.include_dirs]))
        if root is not None:
            dirs += [d for d in self._root_dirs(root, tuple(dirs)) if d not in dirs]
        return BuildFlags(tuple(dirs), db.defines)

    # ---- a project's conventional roots, and the directories its headers are found in ----------
    def _root_dirs(self, root: str, given: tuple[str, ...]) -> list[str]:
        if root not in self._roots:
            conventional = [d for d in (os.path.join(root, "include"), root) if os.path.isdir(d)]
            self._roots[root] = conventional + self._found_dirs(root, [*given, *conventional])
        return self._roots[root]

    def _found_dirs(self, root: str, dirs: list[str]) -> list[str]:
        """Directories of the project that hold a header some file includes and nothing else finds."""
        found: list[str] = []
        queue = list(self._by_root.get(root, ()))
        seen = set(os.path.realpath(p) for p in queue)
        budget = MAX_HEADERS
        probes = [MAX_PROBES]
        while queue and budget > 0 and probes[0] > 0:
            p = queue.pop(0)
            budget -= 1
            try:        # a regular file only: a FIFO or /proc/kmsg never blocks the run (inputs.py)
                text = read_regular(p, HEADER_BYTES, binary_check=False).decode("utf-8", errors="replace")
            except InputError:
                continue
            here = os.path.dirname(p)
            for quoted, angled in dict.fromkeys(_INCLUDE.findall(text)):
                name = quoted or angled
                if os.path.isabs(name):
                    continue
                hit = _resolve(name, [here, *dirs, *found] if quoted else [*dirs, *found], probes)
                if probes[0] <= 0:
                    break
                if hit is None:
                    d = self._unique_dir(root, name, here)
                    if d is not None:
                        found.append(d)
                        hit = os.path.normpath(os.path.join(d, name))
                if hit is not None:
                    k = os.path.realpath(hit)
                    if k not in seen:
                        seen.add(k)
                        queue.append(hit)
        return found

    def _unique_dir(self, root: str, name: str, here: str) -> str | None:
        """The include directory that gives `name` to a file in `here`: the header looked for under
        the directories above `here` (at most MAX_UP, not above the root), nearest first; found once
        at the nearest level that has it, or not guessed."""
        tree = self._tree.get(root)
        if tree is None:
            tree = self._tree[root] = _walk_tree(root)
        parts = os.path.normpath(name).split(os.sep)
        if ".." in parts or parts[-1] not in tree:
            return None
        holders = [d for d in tree[parts[-1]] if len(parts) == 1 or d.split(os.sep)[-(len(parts) - 1):] == parts[:-1]]
        top = os.path.abspath(root).rstrip(os.sep) + os.sep
        level = os.path.abspath(here)
        for _ in range(MAX_UP + 1):
            under = [d for d in holders if (d + os.sep).startswith(level.rstrip(os.sep) + os.sep)]
            if len(under) > 1:
                return None
            if under:
                base = under[0]
                for _ in parts[:-1]:
                    base = os.path.dirname(base)
                return base
            if not (level.rstrip(os.sep) + os.sep).startswith(top) or level.rstrip(os.sep) + os.sep == top:
                return None
            level = os.path.dirname(level)
        return None

    def config(self, cfg):
        """The run's configuration with each file's build directories and definitions added after its own."""
        cache: dict[str, object] = {}
        inner = cfg

        def resolve(path: str):
            got = cache.get(path)
            if got is None:
                fcfg = inner.for_file(path)
                fl = self.flags(path, tuple(fcfg.include_dirs))
                got = cache[path] = replace(fcfg, include_dirs=fl.include_dirs,
                                            defines={**fl.defines, **fcfg.defines}, resolve=None)
            return got
        return replace(cfg, resolve=resolve)


def _resolve(name: str, dirs, probes: list[int] | None = None) -> str | None:
    for d in dirs:
        if probes is not None:
            probes[0] -= 1
            if probes[0] < 0:
                return None
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return p
    return None


def _walk_tree(root: str) -> dict[str, list[str]]:
    """The project's files by name: name -> directories holding one (absolute)."""
    out: dict[str, list[str]] = {}
    n = 0
    for d, subdirs, names in os.walk(os.path.abspath(root)):
        subdirs[:] = sorted(s for s in subdirs if s not in _SKIP_DIRS and not s.startswith("."))
        for name in names:
            out.setdefault(name, []).append(d)
            n += 1
        if n >= MAX_TREE_FILES:
            break
    return out


def with_build(cfg, files: list[str], root_of=None):
    """`cfg` where each file's include directories and definitions are those its build gives."""
    return BuildPaths(files, root_of).config(cfg)
