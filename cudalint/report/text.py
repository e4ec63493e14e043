"""`path:line:col: CODE [category] message` lines."""
from __future__ import annotations


def render(result, show_assumptions: bool = True) -> str:
    lines = []
    for d in result.diagnostics:
        msg = d.message
        if show_assumptions and d.assumptions:
            msg += " [assumes: " + "; ".join(d.assumptions) + "]"
        if d.confirmed is not None and d.measured:
            msg += f" [{'confirmed' if d.confirmed else 'not confirmed'}: {d.measured.get('summary', 'measured')}]"
        lines.append(f"{d.path}:{d.line}:{d.column}: {d.code} [{d.category}] {msg}")
    return "\n".join(lines) + ("\n" if lines else "")
