"""Renderers of a Result, one module per output format; `render` picks one by name."""
from __future__ import annotations

import importlib
import os
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
    return module.render(result, opts or RenderOptions())


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
