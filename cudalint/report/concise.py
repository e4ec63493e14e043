"""`path:line:col: severity: CODE message`, one line per diagnostic (also `--format text`). The
severity word comes where gcc and clang-tidy print it (`error:`, `warning:`, `info:`), so that a
line reads right without colour and the matchers written for compilers find it; the code follows,
as ruff prints it. The category is left to JSON, SARIF and `cudalint rule` (a message names its
kind anyway: sectors, bank conflict, barrier), so that a line stays readable in a terminal. The
assumptions behind a finding are not repeated on every line: `full` states them once per kernel,
JSON keeps them per finding."""
from __future__ import annotations

from .style import Style


def line(d, style: Style) -> str:
    msg = d.message
    if d.confirmed is not None and d.measured:
        msg += f" [{'confirmed' if d.confirmed else 'not confirmed'}: {d.measured.get('summary', 'measured')}]"
    return (f"{style.bold(d.path)}:{d.line}:{d.column}: {style.code(severity_word(d.severity), d.severity)} "
            f"{style.bold(d.code)} {msg}")


def severity_word(severity: str) -> str:
    return f"{severity}:"


def render(result, opts) -> str:
    style = Style(opts.color)
    lines = [line(d, style) for d in result.diagnostics]
    return "\n".join(lines) + ("\n" if lines else "")
