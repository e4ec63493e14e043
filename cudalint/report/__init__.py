"""Renderers of a Result, one module per output format; `render` picks one by name."""
from __future__ import annotations

import copy
import dataclasses
import importlib
import os
import re
from dataclasses import dataclass

# format name -> module under cudalint.report; `text` is the DESIGN name of `concise`.
FORMATS = {
    "full": "full", "concise": "concise", "text": "concise", "gcc": "gcc", "json": "json_report",
    "json-lines": "json_lines", "sarif": "sarif", "github": "github", "junit": "junit",
}


@dataclass
class RenderOptions:
    color: bool = False
    show_assumptions: bool = True
    quiet: bool = False              # diagnostics only: no summary line
    root: str | None = None          # directory that SARIF URIs are relative to
    fixes: object = None             # fix.FixPlan: the proved fixes, for `full`'s help lines and summary
    unsafe_fixes: bool = False
    exit_code: int | None = None     # the run's exit status, for SARIF's invocation


def render(fmt: str, result, opts: RenderOptions | None = None) -> str:
    module = importlib.import_module(f".{FORMATS[fmt]}", __name__)
    return module.render(printable_result(result), opts or RenderOptions())


# C0 controls but tab (ESC sequences rewrite a terminal; XML 1.0 allows none of them), DEL and C1,
# line and paragraph separators, bidirectional overrides ("trojan source"), lone surrogates
# (the bytes of a name or text that is not UTF-8, kept by surrogateescape), and the noncharacters
# U+FFFE and U+FFFF, which XML 1.0 does not allow either.
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                          "\ud800-\udfff\ufffe\uffff]")


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    if 0xDC80 <= c <= 0xDCFF:
        return f"\\x{c - 0xDC00:02x}"       # an undecodable byte, as Python's surrogateescape kept it
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


_UNPRINTABLE_BUT_NEWLINE = re.compile(_UNPRINTABLE.pattern.replace("\x0a-\x1f", "\x0b-\x1f"))


def printable(text: str, lines: bool = False) -> str:
    """`text` with every control character written as an escape (`\\x1b`): one line, safe on a
    terminal, legal in XML, encodable as UTF-8. With `lines`, newlines are kept (a page of text)."""
    if not isinstance(text, str):
        return text
    return (_UNPRINTABLE_BUT_NEWLINE if lines else _UNPRINTABLE).sub(_escape, text)


def _printable_value(v, lines: bool = False):
    if isinstance(v, str):
        return printable(v, lines)
    if isinstance(v, dict):
        return {printable(k, lines) if isinstance(k, str) else k: _printable_value(x, lines) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_printable_value(x, lines) for x in v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return dataclasses.replace(v, **{f.name: _printable_value(getattr(v, f.name), lines)
                                         for f in dataclasses.fields(v) if f.init})
    return v


def printable_data(v):
    """A copy of a value made of strings, lists, dicts and dataclasses (explain's Explanation) with
    every string escaped as `printable` does, newlines kept (a rule's text is paragraphs)."""
    return _printable_value(v, lines=True)


def printable_result(result):
    """A copy of `result` that every format can print as it is: the text of paths, messages and
    source lines comes from the linted tree, so from strangers."""
    out = copy.copy(result)
    # a name that is not printable as it is (bytes that are not UTF-8, a control character) is printed
    # escaped; the formats that must name the file itself (SARIF URIs, JSON's `uri`) read it here
    out.raw_paths = {e: p for p in {*(d.path for d in result.diagnostics), *(f["path"] for f in result.files)}
                     if (e := printable(p)) != p}
    out.diagnostics = [_printable_diagnostic(d) for d in result.diagnostics]
    out.files = [_printable_value(f) for f in result.files]
    out.lines = _EscapedLines(result.lines)
    return out


class _EscapedLines(dict):
    """Source lines by (escaped) path, each file's lines escaped when a format first reads them:
    most formats read none, and a run over a repository holds every line of every file. Anything
    but a lookup by path escapes them all first."""

    def __init__(self, raw: dict):
        super().__init__()
        self._raw = {printable(p): lines for p, lines in raw.items()}

    def _take(self, path) -> None:
        lines = self._raw.pop(path, None)
        if lines is not None:
            dict.__setitem__(self, path, [printable(x) for x in lines])

    def _take_all(self) -> None:
        for path in list(self._raw):
            self._take(path)

    def get(self, path, default=None):
        self._take(path)
        return dict.get(self, path, default)

    def __getitem__(self, path):
        self._take(path)
        return dict.__getitem__(self, path)

    def __contains__(self, path) -> bool:
        return path in self._raw or dict.__contains__(self, path)

    def __setitem__(self, path, lines) -> None:
        self._raw.pop(path, None)
        dict.__setitem__(self, path, lines)

    def __iter__(self):
        self._take_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        return len(self._raw) + dict.__len__(self)

    def keys(self):
        self._take_all()
        return dict.keys(self)

    def values(self):
        self._take_all()
        return dict.values(self)

    def items(self):
        self._take_all()
        return dict.items(self)


_TEXT_FIELDS = ("path", "message", "kernel", "array", "metrics", "assumptions", "measured")


def _printable_diagnostic(d):
    """`d` itself when it prints as it is (the fixes planned for it are found by identity), else a
    copy with its text escaped."""
    fields = {k: _printable_value(getattr(d, k)) for k in _TEXT_FIELDS}
    if all(v == getattr(d, k) for k, v in fields.items()):
        return d
    return dataclasses.replace(d, **fields)


def raw_path(result, path: str) -> str:
    """The file name itself of a path as printed (printable_result escaped it)."""
    return getattr(result, "raw_paths", {}).get(path, path)


def path_uri(path: str) -> str:
    """A relative or absolute file name as a URI reference: its bytes, percent-encoded (a name that
    is not UTF-8 keeps its own bytes)."""
    from urllib.parse import quote
    return quote(os.fsencode(path))


def source_line(result, path: str, line: int) -> str | None:
    """The text of `line` in `path` (from the parse when the file was linted, else from disk)."""
    lines = result.lines.get(path)
    if lines is None:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            lines = []
        result.lines[path] = lines
    return lines[line - 1] if 1 <= line <= len(lines) else None


def repo_root(start: str | None = None) -> str:
    """The git work tree containing `start` (default: the current directory), or `start` itself."""
    here = os.path.abspath(start or os.getcwd())
    d = here
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return here
        d = parent
