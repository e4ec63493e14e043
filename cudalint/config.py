"""Configuration files: `[tool.cudalint]` in pyproject.toml, or the top level of .cudalint.toml.

The configuration closest to a file applies to it (.cudalint.toml before pyproject.toml in the
same directory); `extend = "../base.toml"` layers it on another file; the command line comes
last. Every resolved value remembers where it came from, for `cudalint config --show`.
"""
from __future__ import annotations

import fnmatch
import math
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from .diagnostic import Diagnostic
from .didyoumean import hint
from .selection import RuleSelection, is_limit_note, is_valid, normalize

CONFIG_NAMES = (".cudalint.toml", "pyproject.toml")
DEFAULT = "default"
COMMAND_LINE = "command line"
MAX_CONFIG_BYTES = 1 << 20


class ConfigError(Exception):
    """A configuration file cannot be used: the message names the file, the line and the key."""


# ---- the configuration of a run ------------------------------------------------------------
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
    host_include: tuple[str, ...] = ()            # globs of more files read as host context (lint.py)
    include: tuple[str, ...] = ()                 # globs of more files linted as CUDA (`*.hxx`) in a folder
    root: str | None = None                       # directory the globs are relative to (the config file's)
    respect_gitignore: bool = True
    force_exclude: bool = False                   # exclude even files named on the command line
    show_limits: bool = False                     # print CL901 notes and CL900 parse notes, not only their count
    show_uncertain: bool = False                  # list findings that hold for some trial values only
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

    def shows(self, d: Diagnostic) -> bool:
        """What says where cudalint's reading stops, not what the kernel does wrong (CL901 notes, and
        CL900 notes on a region tree-sitter could not parse) is printed when asked for (--show-limits,
        or a selection naming it); otherwise it is counted."""
        if not is_limit_note(d):
            return True
        return self.show_limits or self.selection.asks_for(d.code, d.category)

    def excluded(self, path: str) -> bool:
        return any(_glob_match(path, pat, self.root) for pat in self.exclude)

    def included(self, path: str) -> bool:
        """A file `extend-include` names: linted as CUDA when a folder is walked, as `.cu`/`.cuh` are."""
        return any(_glob_match(path, pat, self.root) for pat in self.include)

    def host_included(self, path: str) -> bool:
        """A file `extend-host-include` names: read as host context (lint.py's host_kind)."""
        return any(_glob_match(path, pat, self.root) for pat in self.host_include)


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


# ---- values ---------------------------------------------------------------------------------
def _fail(where, key, msg):
    """`where(key)` is "file:line" of the (possibly nested) key."""
    raise ConfigError(f"{where(key)}: {msg}")


def _str_list(v, where, key):
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        _fail(where, key, f"'{key}' must be a list of strings")
    return list(v)


def _selectors(v, where, key):
    out = [normalize(x) for x in _str_list(v, where, key)]
    if key == "select" and not out:
        _fail(where, key, "'select' names no rule: it would run none (ALL runs every rule)")
    for x in out:
        if not is_valid(x):
            from .didyoumean import selector_hint
            _fail(where, key, f"unknown rule code or category '{x}' in '{key}'{selector_hint(x)} "
                              f"(see `cudalint rule --all`)")
    return out


def _per_file_ignores(v, where, key):
    if not isinstance(v, dict):
        _fail(where, key, f"'{key}' must be a table of glob = [codes]")
    return {g: _selectors(c, where, f"{key}.{g}") for g, c in v.items()}


def _bool(v, where, key):
    if not isinstance(v, bool):
        _fail(where, key, f"'{key}' must be true or false")
    return v


def _identifier_table(v, where, key, value_check):
    if not isinstance(v, dict):
        _fail(where, key, f"'{key}' must be a table")
    for name, x in v.items():
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            _fail(where, f"{key}.{name}", f"'{key}.{name}': not a C identifier")
        value_check(x, f"{key}.{name}")
    return dict(v)


def _define(v, where, key):
    def check(x, k):
        if isinstance(x, bool) or not isinstance(x, (str, int, float)):
            _fail(where, k, f"'{k}' must be a string or a number")
    return {k: str(x) for k, x in _identifier_table(v, where, key, check).items()}


def _params(v, where, key):
    def check(x, k):
        if isinstance(x, bool) or not isinstance(x, int):
            _fail(where, k, f"'{k}' must be an integer")
        if not -2**63 <= x < 2**63:
            _fail(where, k, f"'{k}' must be a 64-bit integer")
    return _identifier_table(v, where, key, check)


def _dims(x, where, key):
    d = [x] if isinstance(x, int) and not isinstance(x, bool) else x
    if not isinstance(d, list) or not 1 <= len(d) <= 3 or \
            not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in d):
        _fail(where, key, f"'{key}' must be 1 to 3 positive integers")
    return tuple(d + [1] * (3 - len(d)))


def _launch(v, where, key):
    from .model.launch import CliLaunch
    if not isinstance(v, dict):
        _fail(where, key, f"'{key}' must be a table of kernel = {{ grid = [X, Y, Z], block = [X, Y, Z] }}")
    out = {}
    for kernel, spec in v.items():
        if not isinstance(spec, dict) or set(spec) != {"grid", "block"}:
            _fail(where, f"{key}.{kernel}", f"'{key}.{kernel}' must have exactly the keys grid and block")
        out[kernel] = CliLaunch(_dims(spec["grid"], where, f"{key}.{kernel}.grid"),
                                _dims(spec["block"], where, f"{key}.{kernel}.block"))
    return out


def _ratio(v, where, key):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (math.isfinite(v) and v > 0):   # TOML has nan, inf
        _fail(where, key, f"'{key}' must be a positive number")
    return float(v)


def _ways(v, where, key):
    if isinstance(v, bool) or not isinstance(v, int) or not 2 <= v <= 32:
        _fail(where, key, f"'{key}' must be an integer from 2 to 32")
    return v


def _string(v, where, key):
    if not isinstance(v, str):
        _fail(where, key, f"'{key}' must be a string")
    return v


# key -> (reader, default); a dotted key lives in a sub-table (`[tool.cudalint.coalescing]`).
KEYS: dict[str, tuple[Callable, object]] = {
    "extend": (_string, None),
    "select": (_selectors, ["ALL"]),
    "extend-select": (_selectors, []),
    "ignore": (_selectors, []),
    "per-file-ignores": (_per_file_ignores, {}),
    "exclude": (_str_list, []),
    "extend-exclude": (_str_list, []),
    "extend-include": (_str_list, []),
    "extend-host-include": (_str_list, []),
    "respect-gitignore": (_bool, True),
    "force-exclude": (_bool, False),
    "show-limits": (_bool, False),
    "show-uncertain": (_bool, False),
    "define": (_define, {}),
    "params": (_params, {}),
    "launch": (_launch, {}),
    "include-dirs": (_str_list, []),
    "coalescing.min-ratio": (_ratio, 2.0),
    "bank-conflict.min-ways": (_ways, 2),
}
_TABLES = {"coalescing", "bank-conflict"}                      # sub-tables holding dotted keys
_MERGED = {"define", "params", "launch", "per-file-ignores"}   # merged entry by entry across layers
_ADDED = {"extend-select", "extend-exclude", "extend-include", "extend-host-include"}   # concatenated across layers


# ---- files ----------------------------------------------------------------------------------
def _key_line(text: str, table: tuple[str, ...], key: tuple[str, ...]) -> int:
    """The line where `key` is written under `table` (tomllib gives no positions)."""
    header = None
    want = [(table + key[:i], ".".join(key[i:])) for i in range(len(key))]
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$", line)
        if m:
            header = tuple(p.strip().strip("\"'") for p in m.group(1).split("."))
            continue
        for tab, k in want:
            if header == tab and re.match(r"\s*" + r"\s*\.\s*".join(f"[\"']?{re.escape(p)}[\"']?"
                                                                 for p in k.split(".")) + r"\s*=", line):
                return n
    for n, line in enumerate(text.splitlines(), 1):      # inline tables: the first mention
        if re.search(rf"(^|[\s{{,.\"']){re.escape(key[-1])}[\"']?\s*=", line):
            return n
    return 1


@dataclass
class Layer:
    """The settings one file (and what it extends) gives: values and where each came from."""
    values: dict = field(default_factory=dict)
    origins: dict = field(default_factory=dict)    # key, or "key.entry" for merged tables -> origin


def _flatten(raw: dict, path: str, text: str, table: tuple[str, ...]) -> dict:
    out = {}
    for k, v in raw.items():
        if k in _TABLES and isinstance(v, dict):
            for sub, x in v.items():
                dotted = f"{k}.{sub}"
                if dotted not in KEYS:
                    line = _key_line(text, table, (k, sub))
                    known = [x.split(".", 1)[1] for x in KEYS if x.startswith(k + ".")]
                    raise ConfigError(f"{path}:{line}: unknown key '{sub}' in [{'.'.join(table + (k,))}]"
                                      f"{hint(sub, known)}")
                out[dotted] = (x, _key_line(text, table, (k, sub)))
        elif k not in KEYS:
            line = _key_line(text, table, (k,))
            where = f"[{'.'.join(table)}]" if table else "the top level"
            raise ConfigError(f"{path}:{line}: unknown key '{k}' in {where}"
                              f"{hint(k, [x for x in KEYS if '.' not in x] + sorted(_TABLES))}")
        else:
            out[k] = (v, _key_line(text, table, (k,)))
    return out


def _read(path: Path) -> tuple[dict, str, tuple[str, ...]] | None:
    """The raw cudalint table of a file, its text and the table's name; None when a pyproject.toml
    has no [tool.cudalint]."""
    from .inputs import InputError, read_regular
    try:
        text = read_regular(path, MAX_CONFIG_BYTES).decode("utf-8")
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    try:
        doc = tomllib.loads(text)
    except RecursionError:
        raise ConfigError(f"{path}: cannot read: nested deeper than cudalint follows") from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = m.group(1) if m else text.count("\n") + 1      # "at end of document"
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        where = f"{path}:{line}"
        raise ConfigError(f"{where}: invalid TOML: {msg}") from None
    if path.name == "pyproject.toml":
        tool = doc.get("tool", {})
        if "cudalint" not in tool:
            return None
        if not isinstance(tool["cudalint"], dict):
            raise ConfigError(f"{path}:{_key_line(text, ('tool',), ('cudalint',))}: [tool.cudalint] must be a table")
        return tool["cudalint"], text, ("tool", "cudalint")
    return doc, text, ()


def load(path: str | os.PathLike, _seen: tuple = ()) -> Layer:
    """The settings of one configuration file, with what it extends underneath."""
    path = Path(path).resolve()
    if path in _seen:
        raise ConfigError(f"{path}: `extend` forms a cycle: " + " -> ".join(map(str, _seen + (path,))))
    got = _read(path)
    if got is None:
        raise ConfigError(f"{path}: no [tool.cudalint] table")
    raw, text, table = got
    items = _flatten(raw, str(path), text, table)
    values = {}
    for key, (v, line) in items.items():
        def where(k, line=line):
            return f"{path}:{_key_line(text, table, tuple(k.split('.'))) if k != key else line}"
        values[key] = KEYS[key][0](v, where, key)
    layer = Layer()
    if "extend" in values:
        base = path.parent / values.pop("extend")
        if not base.is_file():
            raise ConfigError(f"{path}:{items['extend'][1]}: `extend` names {base}, which does not exist")
        under = load(base, _seen + (path,))
        layer = Layer(dict(under.values), {k: f"{o} (extended by {path})" if o != DEFAULT else o
                                           for k, o in under.origins.items()})
    if "include-dirs" in values:
        values["include-dirs"] = [os.path.normpath(os.path.join(path.parent, d)) for d in values["include-dirs"]]
    _overlay(layer, values, str(path))
    return layer


def _overlay(layer: Layer, values: dict, origin: str) -> None:
    for key, v in values.items():
        if key in _MERGED:
            merged = dict(layer.values.get(key, {}))
            merged.update(v)
            layer.values[key] = merged
            layer.origins.update({f"{key}.{k}": origin for k in v})
        elif key in _ADDED:
            layer.values[key] = layer.values.get(key, []) + [x for x in v if x not in layer.values.get(key, [])]
            layer.origins[key] = origin if key not in layer.origins else f"{layer.origins[key]} + {origin}"
        else:
            layer.values[key] = v
            layer.origins[key] = origin


def find_config(directory: str) -> Path | None:
    """The closest configuration file at or above `directory` that can be used. One that cannot (not
    readable, not valid) is said once (inputs.skipped) and passed over, as if it were not there: the
    files below it are linted under the next one up, and the run cannot pass."""
    folder = os.path.realpath(directory)
    while True:
        got = _IN_FOLDER.get(folder, False)
        if got is False:
            got = _IN_FOLDER[folder] = _usable(_config_in(folder))
        if got is not None:
            return got
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


# folder -> the configuration file in it (not above), for one run: the files of a repository share
# the folders above them, which are looked at once (clear_found empties it when a run starts)
_IN_FOLDER: dict[str, Path | None] = {}
_LOADED: dict[Path, Layer] = {}          # the files find_config found, read once per run


def clear_found(loaded: bool = False) -> None:
    """Configuration files are looked for again (and, with `loaded`, read again)."""
    _IN_FOLDER.clear()
    if loaded:
        _LOADED.clear()


def _usable(p: Path | None) -> Path | None:
    if p is None or p in _LOADED:
        return p
    try:
        _LOADED[p] = load(p)
    except ConfigError as exc:
        from .inputs import skipped
        skipped(str(p), f"{exc} (this configuration is not applied)", error=True)
        return None
    except (RecursionError, MemoryError):
        from .inputs import skipped
        skipped(str(p), f"cannot read {p}: nested deeper than cudalint follows (this configuration is not applied)",
                error=True)
        return None
    return p


def loaded(p: Path) -> Layer:
    """The settings of a file find_config returned (or of --config's)."""
    got = _LOADED.get(p)
    return got if got is not None else load(p)


def _config_in(folder: str) -> Path | None:
    for name in CONFIG_NAMES:
        p = os.path.join(folder, name)
        try:
            found = os.path.isfile(p) and (name != "pyproject.toml" or _has_table(Path(p)))
        except OSError:           # a folder we may not search (mode 000): as if it held none
            found = False
        if found:
            return Path(p)
    return None


def _has_table(p: Path) -> bool:
    from .inputs import InputError, read_regular, skipped
    try:
        text = read_regular(p, MAX_CONFIG_BYTES, binary_check=False).decode("utf-8", errors="replace")
    except InputError as exc:
        # it may hold a [tool.cudalint] table: said, not silently passed over
        skipped(str(p), f"warning: {exc}: its [tool.cudalint] table, if it has one, is not applied")
        return False
    try:
        tool = tomllib.loads(text).get("tool", {})
    except (tomllib.TOMLDecodeError, RecursionError, MemoryError):
        # Broken TOML that mentions cudalint is meant for it: reported (by load), not skipped; a file
        # nested too deeply for the reader and that never names cudalint is another tool's.
        return re.search(r"\bcudalint\b", text) is not None
    return isinstance(tool, dict) and "cudalint" in tool


# ---- resolution -----------------------------------------------------------------------------
class Resolver:
    """The configuration of each file: defaults, then the closest file (or `config_file` for all),
    then the command line (`cli`: key -> value, same keys and shapes as the files)."""

    def __init__(self, cli: dict, config_file: str | None = None, jobs: int = 1, debug: bool = False):
        self.cli = cli
        self.config_file = Path(config_file).resolve() if config_file else None
        self.jobs, self.debug = jobs, debug
        self._layers: dict[Path | None, Layer] = {}
        self._configs: dict[Path | None, object] = {}
        self._of_path: dict[str, Path | None] = {}      # asked for every kernel and every finding
        clear_found(loaded=True)    # configuration files are looked for and read again by every run

    def config_path(self, path: str) -> Path | None:
        if self.config_file is not None:
            return self.config_file
        got = self._of_path.get(path, False)
        if got is not False:
            return got
        p = os.path.abspath(path)
        d = p if os.path.isdir(p) else os.path.dirname(p)
        got = self._of_path[path] = find_config(d)      # which remembers the folders it looked in
        return got

    def layer(self, path: str) -> Layer:
        """Every setting for `path`, each with its origin."""
        cfg_path = self.config_path(path)
        if cfg_path not in self._layers:
            layer = Layer({k: d for k, (_, d) in KEYS.items() if d is not None},
                          {k: DEFAULT for k, (_, d) in KEYS.items() if d is not None})
            if cfg_path is not None:
                file_layer = loaded(cfg_path)           # already merged along its `extend` chain
                layer.values.update(file_layer.values)
                layer.origins.update(file_layer.origins)
            cli = dict(self.cli)
            if "select" in cli:                 # --select replaces; the rest add to the file's lists
                layer.values["select"], layer.origins["select"] = cli.pop("select"), COMMAND_LINE
            for key in ("ignore", "extend-exclude"):
                if key in cli:
                    extra = cli.pop(key)
                    layer.values[key] = layer.values.get(key, []) + extra
                    layer.origins[key] = (layer.origins[key] + " + " if layer.origins[key] != DEFAULT else "") \
                        + COMMAND_LINE
            _overlay(layer, cli, COMMAND_LINE)
            self._layers[cfg_path] = layer
        return self._layers[cfg_path]

    def for_file(self, path: str):
        """The Config of one file."""
        cfg_path = self.config_path(path)
        if cfg_path not in self._configs:
            v = self.layer(path).values
            root = str(cfg_path.parent) if cfg_path is not None else os.getcwd()
            self._configs[cfg_path] = Config(
                defines=dict(v["define"]), params=dict(v["params"]), launches=dict(v["launch"]),
                include_dirs=tuple(v["include-dirs"]), min_ratio=v["coalescing.min-ratio"],
                min_ways=v["bank-conflict.min-ways"], debug=self.debug,
                selection=RuleSelection(tuple(v["select"]) + tuple(v["extend-select"]), tuple(v["ignore"])),
                per_file_ignores=tuple((g, tuple(s)) for g, s in v["per-file-ignores"].items()),
                exclude=tuple(v["exclude"]) + tuple(v["extend-exclude"]), root=root,
                host_include=tuple(v["extend-host-include"]), include=tuple(v["extend-include"]),
                respect_gitignore=v["respect-gitignore"], force_exclude=v["force-exclude"], jobs=self.jobs,
                show_limits=v["show-limits"], show_uncertain=v["show-uncertain"])
        return self._configs[cfg_path]

    def run_config(self):
        """The Config a whole run uses: the current directory's, resolving each file on demand."""
        return replace(self.for_file(os.path.join(os.getcwd(), "_")), resolve=self.for_file)


def show(resolver: Resolver, path: str) -> str:
    """`cudalint config --show PATH`: each resolved setting and where it came from."""
    layer = resolver.layer(path)
    cfg_path = resolver.config_path(path)
    rows = []
    for key in KEYS:
        if key == "extend" or key not in layer.values:
            continue
        v = layer.values[key]
        if key in _MERGED:
            if not v:
                rows.append((f"{key}", "{}", DEFAULT))
            for k, x in v.items():
                rows.append((f"{key}.{_toml_key(k)}", _toml(x), layer.origins.get(f"{key}.{k}", DEFAULT)))
        else:
            rows.append((key, _toml(v), layer.origins.get(key, DEFAULT)))
    from .inputs import take_skipped
    from .report import printable
    head = [f"# configuration of {path}", f"# config file: {cfg_path or 'none (defaults)'}"]
    head += [f"# not applied: {m.removeprefix('warning: ')}" for _, _, m in take_skipped()]
    rows = [tuple(printable(x) for x in row) for row in rows]
    head = [printable(x) for x in head]
    width = max(len(f"{k} = {v}") for k, v, _ in rows)
    return "\n".join(head + [f"{k} = {v}".ljust(width) + f"   # {o}" for k, v, o in rows]) + "\n"


def _toml_key(k: str) -> str:
    """A key as TOML reads it back: bare when it can be (`N`), else quoted (`"src/legacy/*.cu"`)."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml(k)


def _toml(v) -> str:
    from .model.launch import CliLaunch
    if isinstance(v, CliLaunch):
        return f"{{ grid = {list(v.grid)}, block = {list(v.block)} }}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return repr(v)
