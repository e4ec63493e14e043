"""One run: read files, link launch sites to kernels across files, build each kernel's two-tree
table, simulate, and run the rules; then inline suppressions and rule selection."""
from __future__ import annotations

import collections
import functools
import itertools
import math
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Callable, Mapping

from .config import Config
from .diagnostic import Diagnostic
from .index import types as _types  # noqa: F401 - registers the readers that fold a unit's type constants
from .model import dispatch
from .preprocess import _PROJECT_HEADER, PROJECT_HEADER_EXTENSIONS
from .preprocess.macros import MacroTable, parse_define
from .rules import BY_CODE, CHECKS
from .rules.causes import merge_root_causes
from .rules.base import Context, Options
from .source.cufile import SourceError, SourceFile, decode_source, source_from_bytes
from .source.project import Project, call_name, is_member

# `name.cu.cc`: a C++ file its build compiles as CUDA (`nvcc -x cu`), the convention of TensorFlow's
# custom ops and of Bazel's CUDA rules
EXTENSIONS = (".cu", ".cuh", ".cu.cc", ".cu.cpp", ".cu.cxx")


class UsageError(Exception):
    """Bad command line or unreadable input: exit 2."""


@dataclass
class Result:
    diagnostics: list[Diagnostic]
    files: list[dict]
    tables: list = field(default_factory=list)
    lines: dict[str, list[str]] = field(default_factory=dict)    # source lines by path, for reports
    hidden: dict[str, int] = field(default_factory=dict)         # code -> findings not printed (CL901 notes)
    errors: list = field(default_factory=list)      # FileError: files that could not be read or analysed
    warnings: list = field(default_factory=list)    # lines on files passed over (an unreadable pyproject.toml)
    streamed: bool = False                          # already printed part by part (lint_paths's on_part)
    sources: list = field(default_factory=list)     # the linted files as read, kept with the tables


class _GitIgnore:
    """The `.gitignore` files (and `.git/info/exclude`) of the repository holding a path, read as
    git reads them (wildmatch.py: every line git accepts, in linear time). Git itself is never run on
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
            from .wildmatch import IgnoreFile
            self._specs[directory] = IgnoreFile(lines) if lines else None
        return self._specs[directory]

    def _verdict(self, path: str, root: str, is_dir: bool) -> bool:
        """The deepest ignore file with a pattern for `path` decides (a `!pattern` re-includes)."""
        ignored = False
        d = root
        rel_parts = os.path.relpath(path, root).split(os.sep)
        for i in range(len(rel_parts)):
            spec = self._spec(d, root)
            if spec is not None:
                got = spec.verdict("/".join(rel_parts[i:]), is_dir)
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
    """The lines of a small regular file; none when it is missing, and none, said once, when it is
    unreadable, special or larger."""
    from .inputs import InputError, read_regular, skipped
    try:
        data = read_regular(path, limit, binary_check=False)
    except InputError as exc:
        if os.path.lexists(path):
            skipped(path, f"warning: {exc}: its patterns are not applied")
        return []
    return data.decode("utf-8", errors="replace").splitlines()


def _skipped_dir(cfg: Config, directory: str, gitignore: _GitIgnore) -> bool:
    return cfg.excluded(directory) or (cfg.respect_gitignore and gitignore.dir_ignored(directory))


def collect_paths(paths: list[str], cfg: Config | None = None, errors: list | None = None,
                  host: list[str] | None = None) -> list[str]:
    """Files to lint: named files as given (unless force-exclude), directories recursed for .cu/.cuh,
    minus excluded and git-ignored files. With `errors`, a missing path or an unreadable directory
    is recorded there (a FileError) and the rest is still collected; without, it raises UsageError.
    With `host`, the C++ files the directories hold (host_kind), under the same exclusions, are
    added there: never linted, they may be read as host context (host_files)."""
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
            found, headers = [], []
            for root, dirs, files in os.walk(p, onerror=walk_error):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not _skipped_dir(
                    cfg.for_file(os.path.join(root, d, "_")), os.path.join(root, d), gitignore))
                found.extend(os.path.join(root, f) for f in files
                             if _cuda_file(os.path.join(root, f), cfg) and
                             not cfg.for_file(os.path.join(root, f)).excluded(os.path.join(root, f)))
                headers.extend(os.path.join(root, f) for f in files if f.endswith(KERNEL_HEADER_EXTENSIONS))
                if host is not None and len(host) < MAX_HOST_CANDIDATES:
                    here = cfg.for_file(os.path.join(root, "_"))      # a folder's files share its configuration
                    host.extend(h for f in files if not _cuda_file(os.path.join(root, f), cfg) and
                                host_kind(h := os.path.join(root, f), here) is not None and
                                not here.excluded(h) and not (here.respect_gitignore and gitignore.ignored(h)))
            found = [f for f in found if not (cfg.for_file(f).respect_gitignore and gitignore.ignored(f))]
            found += _kernel_headers(headers, found, cfg, gitignore)
            out.extend(sorted(found))
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
    """One file (`data`: the text of stdin) preprocessed and parsed as a translation unit of its own,
    with its own configuration's defines."""
    fcfg = _with_build(cfg, [path]).for_file(path)
    try:
        if data is None:
            data = _read_bytes(path)
        return source_from_bytes(path, data, _defines(fcfg), fcfg.include_dirs)
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


def _read_bytes(path: str, overlay: Mapping[str, bytes] | None = None, limit: int | None = None) -> bytes:
    """A file's bytes: the unsaved buffer an `overlay` holds for it (keyed by file_key), else the
    file's, regular files of reasonable size only (inputs.py says why; `limit`: a smaller bound)."""
    if overlay:
        from .preprocess import file_key
        if (held := overlay.get(file_key(path))) is not None:
            return held
    from .inputs import InputError, read_regular
    try:
        return read_regular(path) if limit is None else read_regular(path, limit)
    except InputError as exc:
        raise SourceError(str(exc)) from None


MAX_CONTEXT_FILES = 2000           # files of the project scanned for what links to the linted ones
_RUN_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^<>\n]+)>)', re.MULTILINE)
_KERNEL_NAME = re.compile(r"__global__[^;{(]*?\b([A-Za-z_]\w*)\s*\(")
_LAUNCH_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^<>;]*>)?\s*<<<")


def _included_keys(text: str, dirs: list[str], names: set[str], keys=None):
    """The keys of the files of the run (`keys`; those named `names`) that `text`'s includes reach
    through `dirs` (the including file's folder, then its include directories: an angled include
    searches the include directories alone, as compilers do), the first found for each. Only an
    include whose last component is one of `names` is looked for: a file of 2,000 includes and
    40,000 include directories costs 2,000 set lookups, not 80 million paths resolved."""
    from .preprocess import file_key
    for quoted, angled in _RUN_INCLUDE.findall(text):
        name = quoted or angled
        if os.path.basename(name) not in names:
            continue
        # an angled name of a project's own file searches the includer's folder too, as the
        # preprocessor finds it (the build's `-I` of that folder)
        for d in (dirs if quoted or _PROJECT_HEADER.search(name) else dirs[1:]):
            k = file_key(os.path.join(d, name))
            if keys is None or k in keys:
                yield k
                break


def project_root(path: str) -> str | None:
    """The project a file belongs to: the directory of its closest configuration file, else of the
    git work tree holding it (found by looking for `.git`, never by running git); None outside both."""
    from .config import find_config
    from .report import repo_root
    here = os.path.dirname(os.path.abspath(path))
    found = find_config(here)
    if found is not None:
        return str(found.parent)
    root = repo_root(here)
    return root if os.path.exists(os.path.join(root, ".git")) else None


def _with_build(cfg: Config, files: list[str]) -> Config:
    """Each file's include directories and definitions as its build gives them (source/includes.py)."""
    from .source.includes import with_build
    return with_build(cfg, files, project_root)


def context_paths(paths: list[str], cfg: Config, overlay: Mapping[str, bytes] | None = None) -> list[str]:
    """The project's other .cu/.cuh files a linted file depends on, read but not reported: the files
    that include it (directly or through other headers: its translation units, whose macros it is
    compiled with) and the files that launch a kernel it defines. A header linted alone, with its
    directory or through pre-commit gets the same launches. Then the project's C++ files
    (host_kind), every one: read_project reads those that call the linted files' wrappers."""
    from .preprocess import file_key
    roots = sorted({r for p in paths if (r := project_root(p)) is not None})
    cfg = _with_build(cfg, paths)
    if not roots:
        return []
    linted = {file_key(p) for p in paths}
    candidates: list[str] = []
    hosts: list[str] = []
    from .inputs import quiet_skips
    for r in roots:
        try:
            with quiet_skips():
                found = collect_paths([r], cfg, host=hosts)
        except UsageError:
            continue
        candidates += [f for f in found if file_key(f) not in linted]
    candidates = list(dict.fromkeys(candidates))[:MAX_CONTEXT_FILES]
    hosts = list(dict.fromkeys(hosts))[:MAX_HOST_CANDIDATES]
    if not candidates:
        return hosts
    texts = {}
    for c in candidates:
        try:
            texts[c] = decode_source(c, _read_bytes(c, overlay))[0]
        except SourceError:
            continue
    kernels = set()
    for p in paths:
        try:
            kernels |= set(_KERNEL_NAME.findall(decode_source(p, _read_bytes(p, overlay))[0]))
        except SourceError:
            continue
    relevant: set[str] = set()
    targets = set(linted)
    names = {os.path.basename(k) for k in linted} | {os.path.basename(p) for p in paths}
    changed = True
    while changed:          # includers, and the includers of those
        changed = False
        for c, text in texts.items():
            if c in relevant:
                continue
            dirs = [os.path.dirname(c), *cfg.for_file(c).include_dirs]
            if any(True for _ in _included_keys(text, dirs, names, targets)):
                relevant.add(c)
                targets.add(file_key(c))
                names |= {os.path.basename(c), os.path.basename(file_key(c))}
                changed = True
    for c, text in texts.items():
        if c not in relevant and kernels & set(_LAUNCH_NAME.findall(text)):
            relevant.add(c)     # launches a kernel a linted file defines (separate compilation)
    return [c for c in candidates if c in relevant] + hosts


# ---- host context: the C++ files that call the linted files' launch wrappers ----------------------
# `void cuda_copy(dim3 Gr, dim3 Bl, float* y) { _copy<<<Gr, Bl>>>(y); }` in a .cu file, called from a
# .cc file with the launch's values. Those files are read for their calls only (never linted, never
# run); which ones, a text scan says before any is parsed.
HOST_SOURCES = (".cc", ".cpp", ".cxx", ".c++")
HOST_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp")
MAX_HOST_CANDIDATES = 5000     # C++ files of a run looked at (their text scanned for a wrapper's name)
MAX_HOST_BYTES = 1 << 20       # a larger C++ file is not read (generated code, amalgamations)
MAX_HOST_SCAN_BYTES = 64 << 20  # text scanned over all of them (a 15 MB tree scans in 0.3 s)
MAX_HOST_FILES = 200           # C++ sources read as host context, the first that call a wrapper
MAX_HOST_HEADERS = 200         # headers parsed for the wrappers they define over other wrappers
MAX_HOST_ROUNDS = 3            # wrappers of wrappers, through headers (`inline void cuda_copy(...)
                               # { cudaF_copy(...); }` in kaldi's cu-kernels.h)


KERNEL_HEADER_EXTENSIONS = (".h", ".hpp", ".hh", ".hxx", ".inl")
MAX_KERNEL_HEADER_BYTES = 4 << 20
# a project's own header: quoted, or angled with a header's extension (`<kernel/regions.hpp>`, found
# through the build's -I of the file's own folder; the standard library's have none)
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^<>]+\.(?:' +
                            "|".join(PROJECT_HEADER_EXTENSIONS).encode() + rb'))>)', re.M)


def _kernel_headers(headers: list[str], found: list[str], cfg: Config, gitignore) -> list[str]:
    """Of the C++ headers a folder's walk met, those that define a kernel (`__global__`) and that a
    CUDA file of the walk includes: linted too, each in the unit of the file that includes it (a
    program that keeps its kernels in `kernels.h` beside `main.cu`)."""
    from .inputs import InputError, read_regular

    def head(path: str) -> bytes | None:
        # a regular file only, opened without blocking (a FIFO named `k.h` is refused, not waited on)
        try:
            return read_regular(path, MAX_KERNEL_HEADER_BYTES, binary_check=False)
        except (InputError, OSError):
            return None
    names = set()
    for f in found:
        data = head(f)
        if data is not None:
            names |= {os.path.basename((q or a).decode("utf-8", "replace")) for q, a in _LOCAL_INCLUDE.findall(data)}
    out = []
    for h in headers:
        if os.path.basename(h) not in names or _cuda_file(h, cfg):
            continue
        fcfg = cfg.for_file(h)
        if fcfg.excluded(h) or (fcfg.respect_gitignore and gitignore.ignored(h)):
            continue
        data = head(h)
        if data is not None and b"__global__" in data:
            out.append(h)
    return out


def _cuda_file(path: str, cfg: Config) -> bool:
    """A file a folder's walk lints: `.cu`, `.cuh`, and what the configuration's `extend-include`
    globs name (`*.hxx` of a library that keeps its kernels there)."""
    if path.endswith(EXTENSIONS):
        return True
    fcfg = cfg.for_file(path)
    return bool(fcfg.include) and fcfg.included(path)


def host_kind(path: str, cfg: Config) -> str | None:
    """"source" for a C++ file read as host context (`.cc`, `.cpp`, `.cxx`, `.c++`, and what the
    configuration's `extend-host-include` globs name), "header" for a C++ header (looked at for the
    wrappers it defines), None for any other file (a .cu/.cuh is linted, not host context)."""
    if _cuda_file(path, cfg):
        return None
    if path.endswith(HOST_SOURCES):
        return "source"
    fcfg = cfg.for_file(path)
    if fcfg.host_include and fcfg.host_included(path):
        return "source"
    return "header" if path.endswith(HOST_HEADERS) else None


def _wrapper_names(files: list[SourceFile]) -> set[str]:
    """The free host functions whose launch takes its grid or block from their parameters
    (_shape_from_params), and the free functions that call them: the names a C++ caller would use."""
    names = {call_name(s.host.name) for f in files for s in f.launches
             if s.host is not None and _shape_from_params(s) and not is_member(s.host.node)}
    if not names:
        return names
    # the names each host function with parameters calls, read once
    called = [(call_name(fn.name), set(_CALLED.findall(getattr(fn.body, "text", b""))))
              for f in files for fn in f.functions
              if fn.body is not None and fn.params and not fn.is_kernel and not is_member(fn.node)]
    for _ in range(MAX_HOST_ROUNDS):
        encoded = {n.encode() for n in names}
        more = {name for name, calls in called if calls & encoded}
        if more <= names:
            break
        names |= more
    return names


_CALLED = re.compile(rb"\b([A-Za-z_]\w*)\s*[(<]")


def _shape_from_params(site) -> bool:
    """The launch's grid or block reads a parameter of its host function that the launch does not
    pass on to the kernel (`_copy<<<Gr, Bl>>>(y, x)`): only its callers say what it is. A launch
    computed in its own file (`k<<<CAFFE_GET_BLOCKS(n), 512>>>(n, ...)`: the kernel's own `n`) is
    no reason to read C++ files."""
    names = {p.name for p in site.host.params if p.name} - {a.strip() for a in site.args}
    return bool(names) and any(w in names for text in site.config[:2] for w in _WORD.findall(text))


_WORD = re.compile(r"[A-Za-z_]\w*")


def _calls_of(names: set[str]) -> re.Pattern:
    """A call of one of `names`, in bytes: one regular expression whose alternatives share their
    prefixes (a trie: 500 names scan 15 MB in a quarter of a second; a flat alternation takes 20
    times as long)."""
    trie: dict = {}
    for n in names:
        node = trie
        for c in n.encode():
            node = node.setdefault(c, {})
        node[None] = {}

    def pattern(node: dict) -> bytes:
        alts = [re.escape(bytes([c])) + pattern(node[c]) for c in sorted(k for k in node if k is not None)]
        if not alts:
            return b""
        body = alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"
        return b"(?:" + body + b")?" if None in node else body
    return re.compile(rb"\b" + pattern(trie) + rb"\s*\(")


def _header_wrappers(data: bytes, calls: re.Pattern) -> set[str]:
    """The functions with parameters a header defines whose bodies call one of the names `calls`
    finds (tree-sitter only: nothing is preprocessed or included)."""
    from .source.cufile import _parser
    out: set[str] = set()
    stack = [_parser().parse(data).root_node]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            if is_member(node):
                continue
            body = node.child_by_field_name("body")
            decl = node.child_by_field_name("declarator")
            while decl is not None and decl.type != "function_declarator":
                decl = decl.child_by_field_name("declarator")
            params = decl.child_by_field_name("parameters") if decl is not None else None
            name = decl.child_by_field_name("declarator") if decl is not None else None
            if body is not None and name is not None and params is not None and params.named_children and \
                    calls.search(body.text):
                out.add(call_name(name.text.decode("utf-8", errors="replace")))
            continue
        stack.extend(node.children)
    return out


def host_files(known: list[SourceFile], candidates: list[str], cfg: Config,
               overlay: Mapping[str, bytes] | None = None) -> list[str]:
    """The C++ sources among `candidates` that call a wrapper of the files read (`known`): a wrapper
    is a host function with parameters that launches a kernel, or calls such a function (in the
    files read, or in a C++ header of the candidates that calls one: a library's inline layer). Only
    text is scanned: a file is parsed only when it names a wrapper; every step has a budget."""
    if not any(host_kind(c, cfg) == "source" for c in candidates):
        return []               # headers only give names; without a C++ source there is no call to read
    names = _wrapper_names(known)
    kernels = {fn.name for f in known for fn in f.kernels}
    if not names and not kernels:
        return []
    texts: dict[str, bytes | None] = {}

    def text(path: str) -> bytes | None:
        if path not in texts:
            try:
                texts[path] = _read_bytes(path, overlay, MAX_HOST_BYTES) if budget[0] > 0 else None
            except SourceError:
                texts[path] = None
            budget[0] -= len(texts[path] or b"")
        return texts[path]
    candidates = candidates[:MAX_HOST_CANDIDATES]
    budget = [MAX_HOST_SCAN_BYTES]
    headers = [c for c in candidates if host_kind(c, cfg) == "header"][:MAX_HOST_CANDIDATES]
    sources = [c for c in candidates if host_kind(c, cfg) == "source"]
    new = set(names)
    parsed = 0
    for _ in range(MAX_HOST_ROUNDS):
        calls = _calls_of(new)
        more: set[str] = set()
        for h in headers:
            data = text(h)
            if data and parsed < MAX_HOST_HEADERS and calls.search(data):
                parsed += 1
                try:
                    more |= _header_wrappers(data, calls)
                except RecursionError:
                    continue
        new = more - names
        if not new:
            break
        names |= new
    calls = _calls_of(names) if names else None
    out = []
    for c in sources:
        data = text(c)
        if data and b"\0" not in data and (calls is not None and calls.search(data) or _runtime_launches(data, kernels)):
            out.append(c)
            if len(out) >= MAX_HOST_FILES:
                break
    return out


_RUNTIME_LAUNCH = re.compile(rb"\b(?:cuda|hip)Launch(?:Cooperative)?Kernel(?:GGL)?\s*\(\s*([^,;]{1,200}),")


def _runtime_launches(data: bytes, kernels: set[str]) -> bool:
    """The text launches one of `kernels` through the runtime (`cudaLaunchKernel((void*)k, ...)`,
    `hipLaunchKernelGGL(k, ...)`: a
    kernel declared in a C++ file and launched there), its first argument read as a launch site's is."""
    from .source.cufile import kernel_operand
    for m in _RUNTIME_LAUNCH.finditer(data):
        operand = kernel_operand(m.group(1).decode("utf-8", "replace"))
        if operand is not None and operand[0] in kernels:
            return True
    return False


def read_project(paths: list[str], cfg: Config, context: list[str] = (), errors: list | None = None,
                 overlay: Mapping[str, bytes] | None = None) -> tuple[list[SourceFile], list[SourceFile]]:
    """The files to lint, each parsed once as its translation unit compiles it, and the files read
    for what they give the linted ones (the local headers they include, the `context` files that
    include or launch them): their helpers, constants and launches.

    A linted file that another file of the run includes (a kernel header, a `.cu` included by its
    runner) is read in that file's unit, with the macros in effect at its `#include`; the others
    are units of their own. With `errors`, a file that cannot be read or parsed is recorded there
    (a FileError) and the others are still read; without, it raises UsageError. `overlay`: unsaved
    buffers (by file_key) read instead of their files, wherever they are read from."""
    from .preprocess import Preprocessor, file_key
    hosts = [p for p in context if host_kind(p, cfg) is not None]
    if hosts:
        context = [p for p in context if host_kind(p, cfg) is None]
    given = cfg
    cfg = _with_build(cfg, [*paths, *context])
    texts: dict[str, tuple[str, object]] = {}
    for p in paths:
        try:
            texts[p] = decode_source(p, _read_bytes(p, overlay))
        except SourceError as exc:
            if errors is None:
                raise UsageError(str(exc)) from None
            errors.append(FileError(p, UNREADABLE, str(exc)))
    paths = [p for p in paths if p in texts]
    for p in context:
        try:
            texts[p] = decode_source(p, _read_bytes(p, overlay))
        except SourceError:
            continue
    everything = list(texts)
    keys = {file_key(p): p for p in paths}
    all_keys = {file_key(p): p for p in everything}
    included = set()
    names = {os.path.basename(k) for k in all_keys} | {os.path.basename(p) for p in everything}
    for p, (text, _) in texts.items():
        dirs = [os.path.dirname(p), *cfg.for_file(p).include_dirs]
        for k in _included_keys(text, dirs, names, all_keys):
            if all_keys[k] != p:
                included.add(k)
    preprocessors: dict = {}
    views: dict = {}
    variants: dict[str, dict] = {}       # unit root -> header key -> the unit's own view of it

    def read_unit(p: str, cfg: Config) -> None:
        fcfg = cfg.for_file(p)
        dkey = (tuple(sorted(fcfg.defines.items())), tuple(fcfg.include_dirs))
        if dkey not in preprocessors:
            preprocessors[dkey] = Preprocessor(_defines(fcfg).macros.values(), fcfg.include_dirs,
                                               _header_reader(overlay))
        try:
            unit = preprocessors[dkey].unit(p, texts[p][0])
        except (RecursionError, MemoryError) as exc:
            if errors is None or p not in paths:
                return
            errors.append(FileError(p, UNREADABLE, f"cannot read {p}: "
                                                   f"{'nested too deeply' if isinstance(exc, RecursionError) else 'out of memory'}"))
            return
        root = file_key(p)
        for vk, view in unit.items():
            kept = views.setdefault(vk, view)
            if kept is not view and vk != root and kept.text != view.text:
                # this unit reads the header otherwise (`#define ENABLE_BF16` before `#include
                # "common.h"`): its kernels see the header's types and constants as it reads them
                variants.setdefault(root, {})[vk] = view

    for standalone in (False, True):     # units first; then linted files no unit reached
        for p in (everything if not standalone else paths):
            k = file_key(p)
            if k in views or (not standalone and k in included):
                continue
            read_unit(p, cfg)
    sources = []
    for p in paths:
        if file_key(p) not in views:
            continue        # recorded in errors
        text, problem = texts[p]
        try:
            src = SourceFile(p, text, view=views[file_key(p)])
        except (RecursionError, MemoryError) as exc:
            if errors is None:
                raise UsageError(f"cannot read {p}: {type(exc).__name__}") from None
            errors.append(FileError(p, UNREADABLE, f"cannot read {p}: nested deeper than cudalint follows"))
            continue
        if problem is not None:
            src.problems.insert(0, problem)
        sources.append(src)
    read = []

    def read_views(views: dict) -> None:
        for k, v in views.items():
            if k not in keys:
                try:
                    read.append(SourceFile(v.path, v.source, view=v))
                except (RecursionError, MemoryError):
                    continue
    read_views(views)
    _attach_variants([*sources, *read], variants)
    chosen = host_files([*sources, *read], hosts, given, overlay) if hosts else []
    if chosen:
        # each its own translation unit, with the include directories and definitions of its build
        build = _with_build(given, [*paths, *context, *chosen])
        known = dict(views)
        for p in chosen:
            if file_key(p) in known:
                continue
            try:
                texts[p] = decode_source(p, _read_bytes(p, overlay, MAX_HOST_BYTES))
            except SourceError:
                continue
            read_unit(p, build)
        read_views({k: v for k, v in views.items() if k not in known})
    return sources, read


def _attach_variants(files: list[SourceFile], variants: dict[str, dict]) -> None:
    """The headers a unit reads otherwise than the unit they were first read in, parsed as it reads
    them, kept on the unit's own file (Project.unit_files gives them to its kernels)."""
    for src in files:
        mine = variants.get(src.key)
        if not mine:
            continue
        got = {}
        for k, v in mine.items():
            try:
                got[k] = SourceFile(v.path, v.source, view=v)
            except (RecursionError, MemoryError):
                continue
        src.unit_variants = got


def _header_reader(overlay: Mapping[str, bytes] | None):
    """How the preprocessor reads an included header: from its unsaved buffer where there is one."""
    from .preprocess import file_key, read_header
    if not overlay:
        return read_header

    def read(path: str) -> str:
        held = overlay.get(file_key(path))
        return read_header(path) if held is None else held.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return read


# A run over more files than this reports them in groups of this many, as each group is done, when
# the caller can print a part (`on_part`): a run killed at a CI time limit still shows what it found.
STREAM_FILES = 500


def lint_paths(paths: list[str], cfg: Config, on_part: Callable[[Result], None] | None = None,
               tables: bool = True, overlay: Mapping[str, bytes] | None = None,
               context: list[str] | None = None) -> Result:
    """`tables`: keep each kernel's two-tree table in the result (the full format, fixes and
    confirm mode read them; the line formats need only the findings, and a parallel run saves
    sending them between processes). `overlay`: unsaved buffers by file_key, read instead of their
    files (a path named that has one is linted even where no file is); `context`: the context
    files, where the caller knows them already (else they are looked for)."""
    _new_run()
    from .preprocess import file_key
    errors: list[FileError] = []
    buffered = [p for p in paths if overlay and file_key(p) in overlay]
    hosts: list[str] = []
    files = buffered + collect_paths([p for p in paths if p not in buffered], cfg, errors, host=hosts)
    if context is None:
        context = context_paths(files, cfg, overlay)
    if hosts:       # the linted folders' C++ files first: the host context read is bounded
        context = [c for c in context if host_kind(c, cfg) is None] + \
            list(dict.fromkeys([*hosts, *(c for c in context if host_kind(c, cfg) is not None)]))
    sources, read = read_project(files, cfg, context, errors, overlay)
    if on_part is None or len(sources) <= STREAM_FILES:
        return _with_errors(lint_sources(sources, read, cfg, tables=tables), errors, files)
    sources.sort(key=lambda s: s.path)          # the order the whole report would sort them in
    total = Result([], [])
    for i in range(0, len(sources), STREAM_FILES):
        # every part still sees every file's launch sites and helpers
        part = lint_sources(sources[i:i + STREAM_FILES], read + sources[:i] + sources[i + STREAM_FILES:], cfg,
                            tables=tables)
        on_part(part)
        total.diagnostics += part.diagnostics
        total.files += part.files
        total.hidden = {k: total.hidden.get(k, 0) + part.hidden.get(k, 0) for k in {*total.hidden, *part.hidden}}
    total.streamed = True
    return _with_errors(total, errors, files)


def lint_stdin(name: str, data: bytes, cfg: Config) -> Result:
    """Standard input named `name` (--stdin-filename): read as that file would be, in its project
    (its translation units, the files that launch its kernels, its configuration), the text given
    standing for the file's. Unnamed (`-`), it is a translation unit of its own."""
    if name != "-":
        from .preprocess import file_key
        return lint_paths([name], cfg, overlay={file_key(name): data})
    _new_run()
    errors: list[FileError] = []
    src = _read_isolated(name, cfg, errors, data)
    return _with_errors(lint_sources([src] if src else [], cfg), errors, [name])


def _new_run() -> None:
    """The files' real paths and configuration files are looked for again for each run."""
    from .config import clear_found
    from .preprocess import file_key
    file_key.cache_clear()
    clear_found()


def _with_errors(result: Result, errors: list[FileError], order: list[str]) -> Result:
    """Files that could not be read join `files` in the order they were found; a file with a
    CL902 internal error gets that status."""
    failed = {d.path for d in result.diagnostics if d.code == "CL902"}
    for f in result.files:
        if f["path"] in failed:
            f["status"] = INTERNAL_ERROR
            errors.append(FileError(f["path"], INTERNAL_ERROR, f"internal error analysing {f['path']} (CL902)"))
    from .inputs import take_skipped
    for path, error, message in take_skipped():
        if error:
            errors.append(FileError(path, UNREADABLE, message))
        else:
            result.warnings.append(message)
    entries = {f["path"]: f for f in result.files}
    for e in errors:
        entries.setdefault(e.path, {"path": e.path, "kernels": [], "status": e.status, "error": e.message})
    rank = {p: i for i, p in enumerate(order)}
    result.files = sorted(entries.values(), key=lambda f: rank.get(f["path"], len(rank)))
    result.errors = errors
    return result


def lint_sources(sources: list[SourceFile], context: list[SourceFile] | Config = (), cfg: Config | None = None,
                 tables: bool = True) -> Result:
    """Lint `sources`; `context` files are read for what they give the others (launches, helpers,
    constants) and not reported. `tables`: as for lint_paths."""
    if isinstance(context, Config):     # lint_sources(sources, cfg)
        context, cfg = (), context
    project = Project(sources, list(context))
    units = [(si, ki) for si, src in enumerate(sources) for ki, fn in enumerate(src.kernels) if fn.body is not None]
    analysed = _analyse_parallel(sources, project, units, cfg, tables) if _parallel_worth_it(cfg, units) else \
        [_kept(_analyse_kernel(sources[si].kernels[ki], sources[si], project, cfg), tables) for si, ki in units]
    per_kernel = dict(zip(units, analysed))

    diags: list[Diagnostic] = []
    file_info = []
    kept_tables = []
    for si, src in enumerate(sources):
        status = "ok"
        annotations = {id(p) for p in src.annotation_errors}
        for prob in src.problems + src.annotation_errors:
            if prob.code == "CL900":       # a fact about the parse, whatever its severity
                status = "parse-errors"
            r = BY_CODE[prob.code]
            tail = " (the rest of the file is still analysed)" if prob.code == "CL900" else ""
            diags.append(Diagnostic(src.path, prob.line, prob.column, prob.end_line, prob.column, r.CODE, r.NAME,
                                    r.CATEGORY, prob.severity, prob.message + tail,
                                    facts={"annotation": True} if id(prob) in annotations else {}))
        for ki in range(len(src.kernels)):
            if (si, ki) in per_kernel:
                kdiags, table = per_kernel[si, ki]
                diags.extend(kdiags)
                if table is not None:      # dropped already where the output does not read it
                    kept_tables.append(table)
        file_info.append({"path": src.path, "kernels": [k.name for k in src.kernels], "status": status})
    diags.sort(key=Diagnostic.sort_key)
    from .suppress import apply_suppressions
    # one finding per root cause first (what a suppression names may be the finding merged into
    # another), among the rules each file has on
    from .rules.cl101_uncoalesced import one_per_record
    diags = merge_root_causes(one_per_record(_dedupe(diags), diags), lambda d: cfg.for_file(d.path).enabled(d))
    diags = apply_suppressions(diags, sources)
    shown, hidden = [], {}
    for d in diags:
        fcfg = cfg.for_file(d.path)
        if not fcfg.enabled(d):
            continue
        if fcfg.shows(d):
            shown.append(d)
        else:
            hidden[d.code] = hidden.get(d.code, 0) + 1
    return Result(shown, file_info, kept_tables, {src.path: src.lines for src in sources}, hidden,
                  sources=list(sources) if tables else [])


# Analysis time grows with a kernel's size (about 2.5 ms a statement); the largest of 512 real kernels
# measured has 7,812 syntax nodes. Past this bound a generated or hostile kernel would take minutes.
MAX_KERNEL_NODES = 20_000


def _kept(analysed: tuple, tables: bool) -> tuple:
    """A kernel's (findings, table), the table dropped where the output does not read it: a run
    over a repository would otherwise hold every kernel's table to its end."""
    return analysed if tables else (analysed[0], None)


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
def _analyse_kernel(fn, src: SourceFile, project: Project, cfg: Config):
    """Two-tree table, simulation and rules of one kernel: (diagnostics, table or None)."""
    from .model.launch import UNREACHED, resolve_launch
    from .analysis.family import derive
    from .analysis.simulate import AnalysisLimit, Simulation

    fcfg = cfg.for_file(src.path)
    diags: list[Diagnostic] = []
    table = None
    size = fn.body.descendant_count if fn.body is not None else 0
    if size > MAX_KERNEL_NODES:
        return [_note_raw(src.path, fn, f"kernel `{fn.name}` is not analysed: its body has {size} syntax nodes, "
                                        f"more than the {MAX_KERNEL_NODES} cudalint analyses")], None
    try:
        launch, template, assumptions = resolve_launch(fn, project.sites_for(fn), fcfg.launches, project, fcfg.params)
        if launch.origin == UNREACHED:
            # the program launches it, but for no instance this body is compiled for: dead code
            return [_note_raw(src.path, fn, f"kernel `{fn.name}` is not analysed: {assumptions[0].split(': ', 1)[-1]}")], None
        table = _build_table(fn, launch, template, src, project)
        table.assumptions.extend(assumptions)
        try:
            found, sim = _findings_at(fn, table, template, src, project, fcfg)
        except AnalysisLimit as exc:
            diags.append(_note(table, table.line, 1, f"kernel `{fn.name}` is not simulated: {exc}"))
            return diags, table
        found = _say_values(found, table, sim.family)
        found.extend(_other_launches(fn, table, template, src, project, fcfg, found))
        diags.extend(found)
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


def _findings_at(fn, table, template, src: SourceFile, project: Project, fcfg: Config):
    """The findings of kernel `fn` read as `table` (one launch and its template values), and the
    first simulation: each combination of the program's values, each trial where the program gives
    none, each width of an unbound element type. AnalysisLimit where the kernel cannot be simulated."""
    from .analysis.family import derive
    from .analysis.simulate import Simulation
    from .index import ir
    runs = []
    lc = table.launch
    common = list(lc.host_checks)
    # the template values this reading is of (one launch of several written out per value): the
    # checks made before the launches that give them
    for n, v in (template or {}).items():
        got = v.value if isinstance(v, ir.Num) else v if isinstance(v, int) else None
        if isinstance(got, int):
            common += [c for c in lc.value_checks.get((n, got), ()) if c not in common]
    for combo in program_combinations(lc, fcfg.params):
        params = {**combo, **fcfg.params}
        # the checks the host makes before the calls that give this combination's template values
        lc.host_checks = common + [c for n, v in combo.items() for c in lc.value_checks.get((n, v), ())
                                   if c not in common]
        try:
            family = derive(table, {**lc.params, **params})
            sim = Simulation(table, params, family.primary, family)
            found = _check(table, sim, fcfg)
            if not fcfg.show_uncertain:     # verdicts that rest on values cudalint chose: shown when asked
                found = [d for d in found if "rests_on" not in d.metrics]
            if len(family.trials) > 1:
                found = _hold_for_family(table, family, fcfg, found, sim.block, params, sim)
        finally:
            lc.host_checks = common
        runs.append((combo, found, sim))
    found = _program_findings(runs, table.launch)
    found = _hold_for_element_sizes(fn, table.launch, template, src, project, fcfg, table, runs, found)
    found = _one_arm(found, table, fcfg)
    return _running(found, table, [sim for _, _, sim in runs]), runs[0][2]


def _one_arm(found: list[Diagnostic], table, fcfg: Config) -> list[Diagnostic]:
    """A finding on an access in an arm of an `if constexpr` the instance's values do not decide
    (`sizeof(Array<T, N>) == sizeof(uint2)` with `T` no launch binds): each instance compiles one
    arm, and which one the program's instances take is not known, so the finding holds only for
    some of them: an info (`--show-uncertain`), not a warning."""
    if not table.open_constexpr:
        return found
    arms = {id(g) for g in table.open_constexpr}
    at = _accesses_by_place(table)
    out = []
    for d in found:
        acc = at.get((d.path, d.line, d.column, d.access)) if d.code in _ACCESS_RULES else None
        if acc is not None and d.severity != "info" and any(id(g) in arms for g in acc.guards):
            if not fcfg.show_uncertain:
                continue
            d.severity = "info"
            d.message += " (only in the instances whose `if constexpr` takes this arm: no launch decides it)"
            d.metrics = {**d.metrics, "rests_on": ["if constexpr"]}
        out.append(d)
    return out


def _decided_by(acc, names: set) -> bool:
    """Whether a guard or a loop around the access reads one of `names`."""
    from .index import ir
    exprs = [*acc.guards, *(e for it in acc.loops for e in (it.cond, it.start) if e is not None)]
    return any(s.name in names for e in exprs for s in ir.symbols(e))


def _accesses_by_place(table) -> dict:
    """The kernel's accesses by the place a finding names: (path, line, column, load/store)."""
    return {(a.path or table.path, a.line, a.column, a.kind): a for a in table.accesses}


# the rules that judge one access by what it does when it runs
_ACCESS_RULES = frozenset({"CL101", "CL102", "CL201", "CL202", "CL203", "CL301", "CL302", "CL401"})


def _running(found: list[Diagnostic], table, sims) -> list[Diagnostic]:
    """An access that no thread runs at the launch read (`case 0:` of a `switch (dtype)` the launch's
    branch gives 2, `if (stride_src)` of an instance with `false`) makes no finding of its own;
    `sims`: one per combination of the program's values, of which one running it is enough (the
    `else` branch only the instantiation for `algo_c` takes)."""
    at = _accesses_by_place(table)
    out = []
    for d in found:
        acc = at.get((d.path, d.line, d.column, d.access)) if d.code in _ACCESS_RULES else None
        if acc is not None and d.severity != "info" and not d.facts.get("runs_in_other_trials") and \
                not any(_runs(sim, acc) for sim in sims):
            continue
        out.append(d)
    return out


def _runs(sim, acc) -> bool:
    try:
        return bool(sim.executed(acc))
    except Exception:       # a result the simulation cannot work out decides nothing here
        return True


MAX_OTHER_LAUNCHES = 3      # other launch shapes of one kernel read besides its first launch's
MAX_LAUNCHES_READ = 16      # launches of one kernel whose shapes are worked out to find those


def _other_launches(fn, table, template, src: SourceFile, project: Project, fcfg: Config,
                    found: list[Diagnostic]) -> list[Diagnostic]:
    """A kernel the program launches at several sites with other blocks or template values
    (`switch (n) { case 256: k<256><<<g, 256>>>(...); case 512: k<512><<<g, 512>>>(...); }`) runs
    at each: the warnings of the other launches whose blocks are computed (the widest first, at
    most MAX_OTHER_LAUNCHES of them), that the first launch does not make, each said with the
    launch that makes it. Given launches (`--launch`, an annotation) leave one launch to read."""
    from .analysis.simulate import AnalysisLimit
    from .model.host import fold
    from .model.launch import kernel_launches, resolve_launch
    if fn.name in fcfg.launches or any(a.kind == "launch" and a.block for a in fn.annotations):
        return []
    sites = project.sites_for(fn)
    launches = kernel_launches(fn, sites, project)
    if len(launches) < 2:
        return []

    def shape(launch, tmpl):
        block = tuple(fold(b) for b in launch.block) if launch.block is not None else None
        if block is None or None in block or any(b <= 0 for b in block):
            return None
        return block, tuple(sorted((k, str(v)) for k, v in (tmpl or {}).items()))

    first = shape(table.launch, template)
    seen = {first}
    others = []
    for i in range(1, min(len(launches), MAX_LAUNCHES_READ)):
        launch, tmpl, assumptions = resolve_launch(fn, sites, fcfg.launches, project, fcfg.params, only=i)
        key = shape(launch, tmpl)
        if key is None or key in seen:
            continue
        seen.add(key)
        others.append((key, launch, tmpl, assumptions, launches[i]))
    others.sort(key=lambda o: -(o[0][0][0] * o[0][0][1] * o[0][0][2]))
    others = _covering(others, first, MAX_OTHER_LAUNCHES)
    have = {_finding_key(d) for d in found}
    out: list[Diagnostic] = []
    readings = []           # each other launch read: its words, and its findings by key
    for key, launch, tmpl, assumptions, site in others[:MAX_OTHER_LAUNCHES]:
        other = _build_table(fn, launch, tmpl, src, project)
        other.assumptions.extend(assumptions)
        try:
            got, sim = _findings_at(fn, other, tmpl, src, project, fcfg)
        except AnalysisLimit:
            continue
        words = _launch_words(fn, tmpl, site, key, src)
        taken = [str(c) for c in launch.host_checks if c not in table.launch.host_checks]
        if taken and sum(map(len, taken)) <= 80:
            words += f", where {' and '.join(f'`{c}`' for c in taken)}"
        by_key: dict = {}
        for d in _say_values(got, other, sim.family):
            by_key.setdefault(_finding_key(d), d)       # the first of a key, as the findings are said
        readings.append((key, words, by_key))
    host = launches[0].host if launches else None
    open_targs = {tp.name for tp in (host.template_params if host is not None else ())} & \
        {str(v) for v in (template or {}).values()}
    if first is not None and not open_targs and any(key[1] != first[1] for key, _, _ in readings):
        # the program runs the kernel at other template values too: a finding of the first launch that
        # another instance makes otherwise (another figure) or not at all says which instance it is
        # (where the launch passes its host template's own parameters, their values are the tuple
        # the instantiations give, not words to quote)
        words = _launch_words(fn, template, launches[0], first, src)
        for d in found:
            if d.severity == "info" or "launch" in d.metrics:
                continue
            k = _finding_key(d)
            if any(k not in got or got[k].message != d.message for _, _, got in readings):
                d.message += f" ({words})"     # (the run confirm mode makes is this launch's)
    for key, words, got in readings:
        for k, d in got.items():
            if k in have or d.severity == "info":
                continue
            have.add(k)
            d.message += f" ({words})"
            d.metrics = {**d.metrics, "launch": words}
            out.append(d)
    return out


def _covering(others: list, first, count: int) -> list:
    """The other launches read, in the order given, but the last of the `count` read: the one of the
    rest that adds the most template argument values (each argument of an instance's class template
    counted by its place: `Traits<T, false, true>`) and block shapes the others read lack, where one
    adds any. With more instances than are read (eight `segmentedScan4<T, Traits<..., full, multi,
    sm12>>` launches), an argument's value the first few share (`sm12` false) is not the only one read."""
    from .source.types import template_id

    def features(key) -> set:
        out: set = {("block", key[0])}
        for name, v in key[1]:
            tid = template_id(v)
            out |= {(name, i, a) for i, a in enumerate(tid[1])} if tid is not None else {(name, v)}
        return out
    if len(others) <= count:
        return others
    head, rest = others[:count - 1], others[count - 1:]
    seen = set().union(*(features(o[0]) for o in head), features(first) if first is not None else set())
    gains = [len(features(o[0]) - seen) for o in rest]
    best = max(range(len(rest)), key=lambda i: (gains[i], -i))      # the first where none adds any
    return head + [rest[best]]


def _launch_words(fn, tmpl, site, key, src: SourceFile) -> str:
    """`at the launch at line 26 as `k<2>`, block (512, 1, 1)`: where a finding's figures were made."""
    targs = ", ".join(str(tmpl[t.name]) for t in fn.template_params if t.name in (tmpl or {}))
    # in the kernel's own file, its line; else the file as the run names it
    where = f"line {site.line}" if site.file is None or site.file.path == src.path else \
        f"{site.file.path}:{site.line}"
    return f"at the launch at {where}" + (f" as `{fn.name}<{targs}>`" if targs else "") + f", block {_shape(key[0])}"


def _check(table, sim, fcfg: Config, codes=None, only=None) -> list[Diagnostic]:
    """The rules' findings for one simulation (`codes`: only these rules; `only`: ids of the
    accesses whose findings are wanted, the rules that weigh accesses together aside, and only
    which findings are made is read, not their messages' figures)."""
    ctx = Context(table, sim, Options(fcfg.min_ratio, fcfg.params, fcfg.min_ways), only, only is not None)
    return [d for rule in CHECKS if codes is None or rule.CODE in codes for d in rule.check(ctx)]


def _hold_for_family(table, family, fcfg: Config, found: list[Diagnostic], block=None,
                     params: dict | None = None, primary=None) -> list[Diagnostic]:
    """Where the program gives no block shape or size, a warning stands only if every trial of the
    family produces it (with the first trial's figures); the others are listed as info, with the
    values that produce them, when asked for (--show-uncertain), else dropped. A finding that
    states its own condition over the values not given (`metrics["condition"]`: the rounded-up grid
    of CL202 when the size is not a multiple of the block) stands when any trial meets it, and a
    trial is added whose sizes are no multiple of any block edge, so that the condition is met
    where it can be. An access the first trial (`primary`, its simulation) does not run (a loop its
    values leave empty: `for (w = max(0, half - x); w < min(W, ...); ...)` at half = 1000, W = 214)
    is judged by the trials it runs in: its finding stands where every one of those gives it."""
    from .analysis.simulate import AnalysisLimit, Simulation
    key = _finding_key
    notes = [d for d in found if d.severity == "info"]
    conditional = {key(d): d for d in found if _conditional(d)}
    first = {key(d): d for d in found if d.severity != "info" and not _conditional(d)}
    params = fcfg.params if params is None else params
    for d in _condition_trial(table, family, fcfg, block, params):
        conditional.setdefault(key(d), d)
    at = _accesses_by_place(table)
    # the accesses the first trial does not run, by place: their findings come from the others
    # (only where a value the trials change decides whether it runs: a guard or a loop over an open size)
    opened = set(family.sizes)
    unrun = {place: acc for place, acc in at.items()
             if primary is not None and opened and _decided_by(acc, opened) and not primary.executed(acc)}
    if not first and not unrun and not fcfg.show_uncertain:
        return notes + list(conditional.values())
    holds: dict = {k: [family.primary] for k in first}
    seen: dict = {k: [d] for k, d in first.items()}         # the finding as each trial words it
    idle: dict = {k: 0 for k in first}      # trials in which the finding's access does not run
    others: dict = {}                       # findings the first trial does not produce
    unrun_idle = dict.fromkeys(unrun, 0)    # later trials that do not run an access the first does not
    late: dict = {}                         # their findings: (the finding, the trials giving it)
    for n, trial in enumerate(family.trials[1:], 2):
        try:
            sim = Simulation(table, params, trial, family)
        except AnalysisLimit:
            continue
        codes = only = None
        if not fcfg.show_uncertain:
            # only what still holds in every trial so far can stand: its rules, at its accesses, and
            # what the accesses the first trial does not run give
            alive = [k for k, t in holds.items() if len(t) + idle[k] == n - 1]
            codes = {k[0] for k in alive}
            places = {k[1:] for k in alive}
            only = frozenset(id(a) for a in table.accesses if (a.path or table.path, a.line, a.column, a.kind)
                             in places)
            if unrun:
                codes = None
                only = only | frozenset(id(a) for a in unrun.values())
            else:
                sim.wanted = frozenset(codes)
        got = {}
        for d in _check(table, sim, fcfg, codes, only):
            if _conditional(d):
                conditional.setdefault(key(d), d)
            elif d.severity != "info":
                got[key(d)] = d
        for k in holds:
            if k in got:
                holds[k].append(trial)
                seen[k].append(got[k])
            elif (acc := at.get(k[1:])) is not None and not sim.executed(acc):
                idle[k] += 1                # neither for nor against: the access does not run there
        for place, acc in unrun.items():
            if not sim.executed(acc):
                unrun_idle[place] += 1
        for k, d in got.items():
            if k not in first and k[1:] in unrun:
                late.setdefault(k, (d, []))[1].append(trial)
        if fcfg.show_uncertain:
            for k, d in got.items():
                if k not in first and k not in late:
                    others.setdefault(k, (d, []))[1].append(trial)
        elif not unrun and not any(len(t) + idle[k] == n for k, t in holds.items()):
            break                           # nothing holds for every trial any more
    out = list(notes) + list(conditional.values())
    standing = [k for k in first if len(holds[k]) + idle[k] == len(family.trials)]
    decided: dict = {}                      # findings on one side of a test the trials' values chose
    apart = _apart_trial(table, family, params, fcfg, [first[k] for k in standing if k[0] in _MEETINGS], at)
    # a warp's sectors through `k / (ic / groups)`: lanes as far apart as a quotient of two sizes the
    # program leaves open, which takes any value (1 where a trial sets both alike)
    given = set(table.launch.params) | set(params) | set(family.block_names)
    for k in standing:
        if k[0] in _COALESCING and (acc := at.get(k[1:])) is not None and \
                (tops := _open_ratio_step(acc.index, given)) and \
                _fails_with(table, family, params, fcfg, k, acc, holds[k][0], {n: 64 for n in tops}):
            apart.add(k)
    # an access that runs in some trials only (`FACTOR ? f(src[i * s]) : src[i * s]`, the template
    # flag tried with one stride and the stride's other value with the other flag): where the
    # trials it runs in never gave a size its index reads another value, the verdict rests on it
    for k in standing:
        if (acc := at.get(k[1:])) is None:
            continue
        test = _decided_by_open_test(acc, family, params, table)
        if test is not None:
            apart.add(k)
            decided[k] = test
        elif idle[k] and _fails_at_other_values(table, family, params, fcfg, k, acc, holds[k], given):
            apart.add(k)
    for k, d in first.items():
        if len(holds[k]) + idle[k] == len(family.trials) and k not in apart:
            # a warp's sectors as the trial that gives the fewest: what holds for every value tried
            # (a row pitch of 1000 starts rows off a sector, one of 1024 does not: 3, not 3.75)
            if k[0] == "CL101":
                d = min(seen[k], key=lambda f: f.metrics.get("ratio", 0))
                if len({f.metrics.get("ideal_sectors") for f in seen[k]}) > 1 and not d.facts.get("open_figure"):
                    # the trials' blocks give a warp more or fewer lanes (a 2x2 block's 4 against a
                    # 16x16 block's 32): a count of one of them is no figure of the program's
                    d.facts["open_figure"] = True
                    d.message = BY_CODE["CL101"].message(d)
            out.append(d)
        elif k in decided and fcfg.show_uncertain:
            out.append(_on_one_side(d, decided[k]))
        elif k in apart and fcfg.show_uncertain:
            out.append(_uncertain(d, holds[k], family, at.get(k[1:])))
        elif fcfg.show_uncertain:
            out.append(_uncertain(d, holds[k], family, at.get(k[1:])))
    for k, (d, trials) in late.items():
        # every trial that runs the access gives it (the first runs it not)
        every = len(trials) + unrun_idle[k[1:]] == len(family.trials) - 1
        test = _decided_by_open_test(unrun[k[1:]], family, params, table) if every or fcfg.show_uncertain else None
        if every and test is None:
            d.facts["runs_in_other_trials"] = True      # not dead where the first trial's sizes leave it
            out.append(d)
        elif test is not None and fcfg.show_uncertain:
            out.append(_on_one_side(d, test))
        elif fcfg.show_uncertain:
            out.append(_uncertain(d, trials, family, at.get(k[1:])))
    out.extend(_uncertain(d, trials, family, at.get(k[1:])) for k, (d, trials) in others.items())
    return out


# the findings whose figures are bytes: a warp's sectors and a shared array's banks
_BYTE_RULES = frozenset({"CL101", "CL102", "CL401"})
_OTHER_WIDTH = "short"      # the element size an unbound type is tried at besides 4 bytes: 2 (`half`)


def _other_width(sites) -> str | None:
    """The type an unbound element type is tried at besides 4 bytes (a 2-byte one), or None where
    every launch sits in a dispatch that instantiates the kernel with `float` among others
    (`AT_DISPATCH_FLOATING_TYPES_AND_HALF`, around the launch or around the call of the host
    template that launches it): 4 bytes is then one of the program's own values, and what the
    kernel does at that width is its finding."""
    for site in sites:
        if not _dispatched_with_float(site):
            return _OTHER_WIDTH
    return None if sites else _OTHER_WIDTH


def _dispatched_with_float(site) -> bool:
    around = dispatch.at_site(site)
    if around:
        return any(d.with_float for d in around.values())
    # a host template (`template <typename scalar_t> void col2im(...)`) called inside a dispatch
    host = site.host
    if host is None or site.file is None or site.file.tree is None:
        return False
    text = site.file.tree.root_node.text
    calls = re.compile(rb"\b" + re.escape(call_name(host.name).encode()) + rb"\s*(?:<[^;{}()]*>)?\s*\(")
    seen = False
    for d in dispatch.calls(text):
        if calls.search(text, d.start, d.end) is not None:
            seen = True
            if not d.with_float:
                return False
    return seen


def _build_table(fn, launch, template, src: SourceFile, project: Project, unsized_width: int = 4):
    """The two-tree table of kernel `fn` under `launch` and the template arguments `template`, read
    with what its units define (an element type they do not lay out read as `unsized_width` bytes)."""
    from .model.build import KernelBuilder
    return KernelBuilder(fn, launch, project.functions_for(src), template, project.constants_for(src),
                         project.typedefs_for(src), project.types_for(src), project.variables_for(src),
                         unsized_width).build()


def _hold_for_element_sizes(fn, launch, template, src, project, fcfg: Config, table, runs,
                            found: list[Diagnostic]) -> list[Diagnostic]:
    """A kernel whose element types are template parameters no launch binds (`T* in` of a kernel
    launched from another language), or types its units do not lay out (`at::Float8_e8m0fnu` of a
    header not read), runs at each width the program may give them: a finding made of bytes
    (sectors, banks) stands only if the kernel read with 2-byte ones makes it too; else it rests on
    a value cudalint chose and is an info (`--show-uncertain`). Each finding is asked again at the
    program's values of a run that made it (`runs`: each combination's values, findings and
    simulation)."""
    unbound = [tp.name for tp in fn.template_params if tp.is_type and tp.name in table.unbound_types]
    if not (unbound or table.unsized_types) or not any(d.code in _BYTE_RULES and d.severity != "info" for d in found):
        return found
    from .analysis.simulate import AnalysisLimit, Simulation
    width = _other_width(project.sites_for(fn)) if unbound else None
    if width is None:
        unbound = []        # 4 bytes is one of the widths the program instantiates the kernel with
    at = _accesses_by_place(table)

    def unsized(d: Diagnostic) -> str | None:
        """The type the unit does not lay out that the finding's own access reads."""
        acc = at.get((d.path, d.line, d.column, d.access))
        return acc.array.elem_type if acc is not None and acc.array.elem_type in table.unsized_types else None
    asked = {id(d) for d in found if d.code in _BYTE_RULES and d.severity != "info" and (unbound or unsized(d))}
    if not asked:
        return found
    # the run each asked finding is asked again at: the first that made it
    made_in = {}
    for i, (_, made, _) in enumerate(runs):
        for d in made:
            made_in.setdefault(_finding_key(d), i)
    wanted = sorted({made_in.get(_finding_key(d), 0) for d in found if id(d) in asked})
    got: dict[int, set] = {}
    try:
        other = _build_table(fn, launch, {**(template or {}), **{n: width for n in unbound}}, src, project,
                             unsized_width=2 if any(unsized(d) for d in found if id(d) in asked) else 4)
        for i in wanted:
            sim = runs[i][2]
            osim = Simulation(other, sim.params, sim.trial, sim.family)
            got[i] = {_finding_key(d) for d in _check(other, osim, fcfg, set(_BYTE_RULES))}
    except (AnalysisLimit, RecursionError):
        return found
    out = []
    for d in found:
        if id(d) in asked and _finding_key(d) not in got[made_in.get(_finding_key(d), 0)]:
            if not fcfg.show_uncertain:
                continue
            own = unsized(d)
            rests = unbound + ([own] if own else [])
            why = "no launch binds it" if not own else "the unit does not define it" if not unbound else \
                "no launch binds or the unit defines it"
            names = ", ".join(f"`{n}`" for n in rests)
            d.severity = "info"
            d.message += f" (only when {names} is 4 bytes, not 2: {why}; a value the program does not give)"
            d.metrics = {**d.metrics, "rests_on": rests}
        out.append(d)
    return out


def _finding_key(d: Diagnostic) -> tuple:
    """One finding across trials: its rule, place and access."""
    return d.code, d.path, d.line, d.column, d.access


# findings of two threads meeting at one element: equal trial values of two sizes make them meet
_MEETINGS = frozenset({"CL302", "CL501"})
_COALESCING = frozenset({"CL101", "CL102"})


# sizes two threads' meeting is asked again at: each open size takes one of these, a different one
# from the others where it can (realistic widths, heads, rows: none a multiple of all the others)
_SPREAD = (24, 40, 96, 56, 160, 72, 320, 48, 112, 192, 80, 640)


def _apart_trial(table, family, params, fcfg: Config, found: list[Diagnostic], at: dict) -> set:
    """The keys of `found` (two threads at one element) that do not hold for other values of the
    sizes the program leaves open: `dst[y * s1 + z * s3]` meets itself only where s1 == s3, and
    `hidden / heads` is 1 where a trial sets both to 1000; neither is the program's. Each trial is
    tried again with its sizes apart (its 1s kept: a free value at 1 is a case of its own), and
    with the open sizes spread over realistic, unequal values."""
    if not found:
        return set()
    from .analysis.family import Trial
    from .analysis.simulate import AnalysisLimit, Simulation
    # the block's edges are the family's own choices among the shapes the program may launch
    given = set(table.launch.params) | set(params) | set(family.block_names)
    gone: set = set()
    keys = {_finding_key(d) for d in found}
    across = {_finding_key(d): d.metrics.get("loop_line") for d in found}     # a race across a loop's iterations
    for k in keys:
        acc = at.get(k[1:])
        if acc is not None and _open_strides_apart(acc.index, given):
            gone.add(k)     # threads meet only where two open strides take related values
    if family.blocks:       # a block cudalint chose, and a stride that is a ratio of open sizes
        for k in keys:
            acc = at.get(k[1:])
            if acc is not None and _open_ratio(acc.index, given):
                gone.add(k)
    variants = []
    for base in family.trials:
        sizes, moved = dict(base.sizes), 0
        for n in sorted(sizes):
            if n not in given and sizes[n] >= 2:
                # distinct, as divisible by powers of two as before, and no one the mean of two
                # others (1000, 1064, 1128 would make `x * 1000 + z * 1128` meet `2 * y * 1064`)
                sizes[n] += 64 * ((1 << moved) - 1)
                moved += 1
        if moved >= 2:
            variants.append(Trial(base.block, tuple(sizes.items())))
    for shift in (0, 5):
        base = family.primary
        names = [n for n in sorted(dict(base.sizes)) if n not in given and dict(base.sizes)[n] >= 2]
        if names:
            spread = {n: _SPREAD[(i + shift) % len(_SPREAD)] for i, n in enumerate(names)}
            variants.append(Trial(base.block, tuple((n, spread.get(n, v)) for n, v in base.sizes)))
    for trial in variants:
        if not keys - gone:
            break
        try:
            sim = Simulation(table, params, trial, family)
        except (AnalysisLimit, ZeroDivisionError, ValueError, OverflowError):
            continue
        sim.wanted = _MEETINGS
        try:
            got = {_finding_key(d) for d in _check(table, sim, fcfg, set(_MEETINGS))
                   if d.severity != "info"}
        except AnalysisLimit:
            continue
        for k in keys - gone - got:
            acc = at.get(k[1:])
            # a race across iterations of a loop the variant's sizes leave one iteration or none
            # (`k < n / 16` at n = 24) has no next iteration to meet in: that says nothing against it
            loop = next((it for it in (acc.loops if acc is not None else ()) if it.line == across.get(k)), None)
            if acc is not None and sim.executed(acc) and \
                    not (loop is not None and (c := sim.trip_count(loop)) is not None and c < 2):
                gone.add(k)
    return gone


def _open_ratio(e, given: set) -> bool:
    """`hidden_dim / heads`: a quotient of two values the program leaves open, which takes any
    value (1 included) whatever the trials set them to."""
    from .index import ir

    def open_in(x):
        return any(s.kind == "param" and s.name not in given for s in ir.symbols(x))
    return any(isinstance(n, ir.Bin) and n.op in ("/", "%") and open_in(n.left) and open_in(n.right)
               for n in e.walk())


def _fails_with(table, family, params, fcfg: Config, k, acc, trial, scale: dict[str, int]) -> bool:
    """Whether finding `k` of `acc` is not made at `trial` with the sizes in `scale` multiplied
    (`ic` 64 times the groups: a group 64 inputs wide), where the access runs there."""
    from .analysis.family import Trial
    sizes = tuple((m, x * scale[m] if m in scale else x) for m, x in trial.sizes)
    return _not_made_at(table, family, params, fcfg, k, acc, Trial(trial.block, sizes))


def _not_made_at(table, family, params, fcfg: Config, k, acc, trial) -> bool:
    """Finding `k` of `acc` is not made at `trial`, and the access runs there."""
    from .analysis.simulate import AnalysisLimit, Simulation
    try:
        sim = Simulation(table, params, trial, family)
        sim.wanted = frozenset({k[0]})
        got = {_finding_key(d) for d in _check(table, sim, fcfg, {k[0]}, frozenset({id(acc)}))
               if d.severity != "info"}
        return k not in got and sim.executed(acc)
    except (AnalysisLimit, ZeroDivisionError, ValueError, OverflowError):
        return False


def _on_one_side(d: Diagnostic, test) -> Diagnostic:
    """A finding on the side of `test` the trials took: info, saying the test."""
    from .model.table import short_text
    d.severity = "info"
    d.message += f" (only when `{short_text(str(test), 60)}`: values the program does not give)"
    d.metrics = {**d.metrics, "only_when": str(test)}
    return d


def _decided_by_open_test(acc, family, params: dict, table):
    """The access runs under a test that compares two values the program does not give (`if
    (padding_l < SB) ... else ...` of two template values no launch binds), and every trial takes
    its one side: the trials' values chose it (their relation is cudalint's, not the program's),
    and nothing in the program says it is taken. Not a loop's own test (a loop left empty at one
    trial's sizes runs at the program's), nor a comparison with a number (`if (n > 1024)`: the
    program's sizes are asked at large values), nor a flag's test (`if (multi_label == 1)`: its
    trials take both arms, and an arm written is an arm the program runs), nor a test whose other
    side does no work (`if (keepTopK > topK) return;`: a precondition of everything the kernel
    does). The test, or None."""
    from .index import ir
    from .index.evaluate import Evaluator
    opened = set(family.sizes)
    tests = {id(it.cond) for it in acc.loops}
    for g in acc.guards:
        names = {s.name for s in ir.symbols(g)}
        if id(g) in tests or not names or not names <= opened or \
                any(s.kind != "param" for s in ir.symbols(g)):
            continue
        def truth(trial):
            env = {**params, **{n: trial.size(n) for n in names}}
            if any(env.get(n) is None for n in names):
                return None
            try:
                return bool(Evaluator(env).value(g))
            except Exception:       # a test the trial's values cannot decide
                return None
        if _between_open(g, opened) and all(truth(t) is True for t in family.trials) and _other_arm_works(g, table):
            return g
    return None


def _other_arm_works(g, table) -> bool:
    """Some access of the kernel runs under the test's other side (the `then` of the `else` a
    finding is in): the test picks between two pieces of work, not whether there is any."""
    from .index import ir
    other = ir.negate(g)
    words = {str(other), str(ir.negate(other))} - {str(g)}
    return any(other in a.guards or any(str(x) in words for x in a.guards) for a in table.accesses)


def _between_open(g, opened: set) -> bool:
    """A comparison whose two sides each read a value the program does not give (`padding_l < SB`;
    the `else` of it, `!(padding_l < SB)`), in a test of its own or a part of an `&&`."""
    from .index import ir
    while isinstance(g, ir.Un) and g.op == "!":
        g = g.operand
    if isinstance(g, ir.Bin) and g.op == "&&":
        return _between_open(g.left, opened) or _between_open(g.right, opened)
    if not (isinstance(g, ir.Bin) and g.op in ("<", "<=", ">", ">=")):
        return False
    return all({s.name for s in ir.symbols(side)} & opened for side in (g.left, g.right))


def _fails_at_other_values(table, family, params, fcfg: Config, k, acc, trials, given: set) -> bool:
    """A finding of an access that runs in some trials only (`FACTOR ? f(src[i * s]) : src[i * s]`,
    the flag tried with one stride and the stride's other value with the other flag): where those
    trials give a size its index reads one value of those the family tries, the finding is asked
    again at a running trial with that size at each other value; True where one does not make it."""
    from .analysis.family import Trial
    from .index import ir
    names = sorted({x.name for x in ir.symbols(acc.index) if x.kind == "param" and x.name not in given})
    base = trials[0]
    for n in names:
        tried = {t.size(n) for t in family.trials} - {None}
        seen = {t.size(n) for t in trials} - {None}
        if len(tried) < 2 or len(seen) != 1:
            continue
        for v in sorted(tried - seen):
            trial = Trial(base.block, tuple((m, v if m == n else x) for m, x in base.sizes))
            if _not_made_at(table, family, params, fcfg, k, acc, trial):
                return True
    return False


def _open_strides_apart(e, given: set) -> bool:
    """An index whose thread and block coordinates step by two or more different strides each
    made of sizes the program leaves open (`x * s0 + y * s1 + z * s2` of a strided view): two
    threads meet only where those sizes satisfy a relation (s0 == s1, 3 * s1 == 2 * s0 + s2), which
    equal trial values make and the program's strides, one a multiple of the span below it, do not."""
    from .index import ir
    from .index.terms import decompose
    strides = []
    for t in decompose(e):
        coord = t.coord
        if t.is_offset or not any(x.kind in ("thread", "block") for x in ir.symbols(coord)):
            continue
        if not any(x.kind == "param" and x.name not in given for x in ir.symbols(t.stride)):
            return False    # a coordinate with a stride of its own values: it may meet at those
        strides.append(str(t.stride))
    # (two coordinates at one stride, `y * s1 + z * s1`, meet whatever s1 is)
    return len(strides) >= 2 and len(set(strides)) == len(strides)


def _open_ratio_step(e, given: set) -> set[str]:
    """The numerators' open sizes of the quotients of two open sizes that scale or divide a thread's
    or loop's coordinate (`k / (ic / groups)`, `tid * (n / m)`: ic, n), where how far apart the
    lanes are may be that quotient's value (1 where a trial sets both alike)."""
    from .index import ir

    def moving(x):
        return any(s.kind in ("thread", "iter") for s in ir.symbols(x))
    out: set[str] = set()
    for n in e.walk():
        if not (isinstance(n, ir.Bin) and n.op in ("*", "/", "%")):
            continue
        for coord, q in ((n.left, n.right), (n.right, n.left) if n.op == "*" else (None, None)):
            if coord is None or not moving(coord):
                continue
            for r in q.walk():
                if isinstance(r, ir.Bin) and r.op in ("/", "%") and _open_ratio(r, given):
                    out |= {s.name for s in ir.symbols(r.left) if s.kind == "param" and s.name not in given}
    return out


def _conditional(d: Diagnostic) -> bool:
    return d.severity != "info" and "condition" in d.metrics




def _condition_trial(table, family, fcfg: Config, block=None, params: dict | None = None) -> list[Diagnostic]:
    """The conditional findings of a trial whose problem sizes are no multiple of a block edge:
    where the grid is computed from a size the program does not give, that is a size it may run.
    Not needed where the first trial's sizes are already no multiple of the block's edges (`block`:
    the first trial's): its rounded-up grid showed the threads past the edge."""
    from dataclasses import replace
    from .analysis.family import grid_sizes, holds, param_checks
    from .analysis.simulate import AnalysisLimit, Simulation
    from .rules import cl202_unguarded

    sized = grid_sizes(table, family)
    if not sized:
        return []
    if block is not None and not any(family.sizes[n][0] % b == 0 for n in sized for b in block if b > 1):
        return []
    # odd, so no multiple of any power-of-two block edge: a rounded-up grid shows; a size the host's
    # checks keep a multiple of something (`assert(n % 256 == 0)`) keeps its value
    checks = param_checks(table.launch, table)
    base = dict(family.primary.sizes)
    odd_values = {}
    for n in sized:
        v = family.sizes[n][0] | 1
        if holds(checks, {**table.launch.params, **(params or {}), **base, n: v}):
            odd_values[n] = v
    if not odd_values:
        return []
    odd = replace(family.primary, sizes=tuple((n, odd_values.get(n, v)) for n, v in family.primary.sizes))
    try:
        sim = Simulation(table, fcfg.params if params is None else params, odd, family)
    except AnalysisLimit:
        return []
    sim.wanted = frozenset({cl202_unguarded.CODE})
    return [d for d in _check(table, sim, fcfg, {cl202_unguarded.CODE}) if _conditional(d)]


MAX_PROGRAM_RUNS = 4


def _stride_names(acc) -> list:
    """The symbols of the strides of an access's index terms (its offset aside), in order, once."""
    from .index import ir
    seen: dict = {}
    for t in acc.terms:
        if not t.is_offset:
            for s in ir.symbols(t.stride):
                seen.setdefault(s.name, s)
    return list(seen.values())


def _say_values(diags: list[Diagnostic], table, family) -> list[Diagnostic]:
    """Each warning says, in a few words, where the values its strides are made of come from: the
    host code (`incx = 64: every call of `scal` passes 64`), or nowhere (`K not given`). Values
    written in the kernel or its launch line need no words."""
    at = _accesses_by_place(table)
    launch = table.launch
    for d in diags:
        acc = at.get((d.path, d.line, d.column, d.access))
        if acc is None or d.severity == "info" or "condition" in d.metrics or "when" in d.metrics:
            continue
        words = []
        for n in (x.name for x in _stride_names(acc) if x.kind == "param"):
            how = launch.provenance.get(n, "")
            if n in launch.params and how and not how.startswith("the launch at"):
                said = f"{n} = {launch.params[n]}" in d.message
                words.append(f"{n}: {how}" if said else f"{n} = {launch.params[n]}: {how}")
            elif n in family.sizes and family.roles.get(n) == "size" and not re.search(rf"\b{re.escape(n)}\b", d.message):
                words.append(f"{n} not given")     # (a message that writes it as a name says so already)
        if words:
            d.message += f" ({'; '.join(words)})"
            d.metrics = {**d.metrics, "values": words}
    return diags


def program_combinations(launch, given: dict[str, int]) -> list[dict[str, int]]:
    """The values the program itself passes where its launches differ (`incx` is 1 at one call and
    64 at another): each combination is analysed as a launch of its own, as the program makes it.
    [{}] where every value is single (or given)."""
    many = [(n, vs) for n, vs in sorted(launch.values.items()) if len(vs) > 1 and n not in given]
    if not many:
        return [{}]
    # the values one launch or call gives together go together (`run(1, 48)` and `run(2, 64)` are
    # no `run(2, 48)`); the names no call gives (template values of the launcher's instantiations)
    # are combined with them
    together = {n for n, _ in many if launch.value_calls and all(n in c for c in launch.value_calls)}
    calls = list({tuple(sorted((n, c[n]) for n in together)): None for c in launch.value_calls}) if together else [()]
    free = [(n, vs) for n, vs in many if n not in together]
    names = [n for n, _ in free]
    if len(calls) * math.prod(len(vs) for _, vs in free) <= MAX_PROGRAM_RUNS:
        return [{**dict(c), **dict(zip(names, vs))} for c in calls for vs in itertools.product(*[vs for _, vs in free])]
    # more than are run: the runs are chosen to meet every value of every name, then as many pairs of
    # values as they can (three flags in four runs: 000, 011, 101, 110, not 000, 111, 000, 111), so
    # that a finding only some runs make names the values it rests on, not every value that moved with them
    # each call and each name's values taken in turn first (`WIDTH` 16, 32, 64, 128 with `INFERENCE`
    # 0, 1, 0, 1): where other runs meet no more values, these are the runs
    in_turn = [{**dict(calls[i % len(calls)]), **{n: vs[i % len(vs)] for n, vs in free}}
               for i in range(MAX_PROGRAM_RUNS)]
    product = [{**dict(c), **dict(zip(names, vs))}
               for c in calls for vs in itertools.islice(itertools.product(*[vs for _, vs in free]), 4096)]
    candidates = list({tuple(sorted(c.items())): c for c in in_turn + product}.values())
    return _covering_runs(candidates, MAX_PROGRAM_RUNS)


def _covering_runs(candidates: list[dict], count: int) -> list[dict]:
    """`count` of the combinations, the first kept first, that meet the most values of one name, then
    the most pairs of two names' values, then take each name's values most evenly (every set of them
    where there are few, ties to the earliest; else each next the one that adds the most)."""
    def pairs(c):
        items = sorted(c.items())
        return {(a, b) for i, a in enumerate(items) for b in items[i + 1:]}
    rest = range(1, len(candidates))
    if math.comb(len(rest), min(count - 1, len(rest))) <= 20000:
        ones = [set(c.items()) for c in candidates]
        twos = [pairs(c) for c in candidates]

        def score(pick):
            got = (0,) + pick
            # then the values of each name as even as they can be (`INFERENCE` 0, 1, 0, 1 beside
            # `WIDTH` 16, 32, 64, 128, not 0, 0, 0, 1): no value of one name rides on one of another
            seen = collections.Counter(v for i in got for v in ones[i])
            return (len(set().union(*(ones[i] for i in got))), len(set().union(*(twos[i] for i in got))),
                    -sum(n * n for n in seen.values()))
        picked = max(itertools.combinations(rest, min(count - 1, len(rest))), key=score)    # the earliest of the best
        return [candidates[0]] + [candidates[i] for i in picked]
    chosen = [candidates[0]]
    singles, doubles = set(candidates[0].items()), pairs(candidates[0])
    left = candidates[1:]
    while left and len(chosen) < count:
        best = max(range(len(left)), key=lambda i: (len(set(left[i].items()) - singles),
                                                    len(pairs(left[i]) - doubles), -i))
        c = left.pop(best)
        chosen.append(c)
        singles |= set(c.items())
        doubles |= pairs(c)
    return chosen


def _program_findings(runs, launch) -> list[Diagnostic]:
    """The findings of each combination of the program's values: one that every combination makes
    is reported once (with the first's figures); one that only some make is reported with the
    values that make it and where they come from (`when incx = 64: every call of `scal` passes 1
    or 64`)."""
    if len(runs) == 1:
        return runs[0][1]

    def key(d):
        return d.code, d.path, d.line, d.column, d.access, d.severity

    made: dict = {}
    for combo, found, _ in runs:
        for d in found:
            made.setdefault(key(d), (d, []))[1].append(combo)
    # the values of the program no run took (more combinations than MAX_PROGRAM_RUNS): said, not implied
    unrun = {n: sorted(set(vs) - {c[n] for c, _, _ in runs if n in c}) for n, vs in launch.values.items()
             if any(n in c for c, _, _ in runs)}
    unrun = {n: vs for n, vs in unrun.items() if vs}
    untried = [f"{n} = {', '.join(map(str, vs))} not analysed (at most {MAX_PROGRAM_RUNS} combinations of the "
               f"program's values are)" for n, vs in sorted(unrun.items())]
    out = []
    for d, combos in made.values():
        if len(combos) < len(runs) and d.severity != "info":
            names = [n for n in combos[0] if {c[n] for c in combos} != {c[n] for c, _, _ in runs}]
            parts = []
            for n in names:
                words = launch.provenance.get(n, "")
                if n in unrun:
                    words += ("; " if words else "") + f"{', '.join(map(str, unrun[n]))} not analysed"
                vals = " or ".join(str(v) for v in sorted({c[n] for c in combos}))
                parts.append(f"{n} = {vals}" + (f" ({words})" if words else ""))
            if parts:
                d.message += f" (when {'; '.join(parts)})"
                d.metrics = {**d.metrics, "when": "; ".join(parts)}
        d.assumptions = d.assumptions + [u for u in untried if u not in d.assumptions]
        out.append(d)
    return out


def _uncertain(d: Diagnostic, trials, family, acc=None) -> Diagnostic:
    """A finding that only some of cudalint's own trial values produce: info, with the condition
    those values show (the values it holds for that the trials where it does not hold lack), over
    the names its access's strides hold (else those it reads at all)."""
    from .index import ir
    keep_block = len(family.blocks) > 1
    held = set(trials)
    rest = [t for t in family.trials if t not in held]
    parts = []
    names = list(family.sizes)
    if acc is not None:
        strides = {s.name for s in _stride_names(acc)}
        read = {s.name for e in (acc.index, *acc.guards) for s in ir.symbols(e)}
        names = [n for n in names if n in strides] or [n for n in names if n in read] or names
    for name in names:
        yes = sorted({t.size(name) for t in trials})
        no = sorted({t.size(name) for t in rest} - set(yes))
        if no and not set(yes) & {t.size(name) for t in rest}:
            parts.append(f"{name} = {' or '.join(map(str, yes))}, not {' or '.join(family.shown(name, v) for v in no)}")
    if keep_block:
        yes_b = {t.block for t in trials}
        no_b = {t.block for t in rest} - yes_b
        if no_b:
            parts.append("blockDim " + " or ".join(_shape(b) for b in sorted(yes_b)) + ", not " +
                         " or ".join(_shape(b) for b in sorted(no_b)))
    if not parts:
        parts = ["; ".join(t.describe(keep_block) for t in trials)]
    d.severity = "info"
    d.message += f" (only when {'; '.join(parts)}: {'values' if len(parts) > 1 else 'a value'} the program does not give)"
    d.metrics = {**d.metrics, "only_for": [t.describe(keep_block) for t in trials]}
    return d


def _shape(b) -> str:
    return "(" + ", ".join(map(str, b)) + ")"


def exception_line(exc: BaseException, limit: int = 200) -> str:
    """`Type: first line of the message`, short: an exception's text may quote a whole expression."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    if len(first) > limit:
        first = first[:limit - 1] + "…"
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


MIN_PARALLEL_KERNELS = 8    # below this, starting processes costs more than it saves


def _parallel_worth_it(cfg: Config, units) -> bool:
    if cfg.jobs <= 1 or len(units) < MIN_PARALLEL_KERNELS:
        return False        # multiprocessing is not even imported (5 ms of a one-file run)
    from . import parallel
    return parallel.available()


def _analyse_parallel(sources, project, units, cfg, tables: bool = True):
    """Kernels analysed in processes forked after parsing, so every one of them sees every file's
    launch sites and helpers. Without `tables`, a worker sends back the findings alone: the tables
    are most of what it would pickle, and the parent would unpickle them one after another."""
    from . import parallel

    def analyse(unit):
        si, ki = unit
        return _kept(_analyse_kernel(sources[si].kernels[ki], sources[si], project, cfg), tables)

    # The smallest kernel is analysed before forking: it imports numpy and loads the expression
    # parser once, instead of once in every worker. The rest are handed out largest first, so that
    # no worker is left with a long kernel while the others have finished.
    size = [sources[si].kernels[ki].body.descendant_count for si, ki in units]
    first = min(range(len(units)), key=size.__getitem__)
    rest = sorted((i for i in range(len(units)) if i != first), key=lambda i: (-size[i], i))
    out = [None] * len(units)
    out[first] = analyse(units[first])
    def lost(unit, why):
        si, ki = unit
        fn, r = sources[si].kernels[ki], BY_CODE["CL902"]
        return [Diagnostic(sources[si].path, fn.line, 1, fn.line, 1, r.CODE, r.NAME, r.CATEGORY, r.SEVERITY,
                           f"kernel `{fn.name}` was not analysed: {why}; its findings are missing", fn.name)], None

    for i, got in zip(rest, parallel.fork_map(analyse, [units[i] for i in rest], cfg.jobs, lost)):
        out[i] = got
    return out


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
        err = acc.unresolved or sim.error(acc)
        if err:
            d = _note(table, acc.line, acc.column, f"`{acc.text}` is not simulated: {err}",
                      (acc.end_line, acc.end_column))
            d.path = acc.path or table.path
            d.array, d.access, d.space = acc.array.name, acc.kind, acc.space
            out.append(d)
    return out


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    """One finding per place, rule and access: a `__device__` helper inlined into several kernels
    (or a header read in several units) gives the same finding once, with the first kernel's
    figures, whatever those kernels' launches make of them. A race keeps one finding per other
    line it races with."""
    seen, out = set(), []
    for d in diags:
        key = (d.path, d.line, d.column, d.end_line, d.end_column, d.code, d.access,
               d.metrics.get("store_line") if isinstance(d.metrics, dict) else None,
               d.message if d.access is None else None)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
