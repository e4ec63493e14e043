"""`path:line:col: warning: message [CL101]`, the line compilers print, so that the problem
matchers written for them read it: VS Code's `$gcc`, Emacs compilation mode, vim's quickfix
('errorformat' %f:%l:%c: %t%*[^:]: %m), and most CI log scanners. Notes print as `note:`."""
from __future__ import annotations

from .style import Style

WORD = {"error": "error", "warning": "warning", "info": "note"}


def line(d, style: Style) -> str:
    word = WORD.get(d.severity, "warning")
    return f"{style.bold(f'{d.path}:{d.line}:{d.column}:')} {style.code(word + ':', d.severity)} {d.message} [{d.code}]"


def render(result, opts) -> str:
    style = Style(opts.color)
    return "".join(line(d, style) + "\n" for d in result.diagnostics)
