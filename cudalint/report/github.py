"""GitHub Actions workflow commands: `::warning file=…,line=…,col=…,title=CL101 …::message`,
shown as annotations on the pull request."""
from __future__ import annotations

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(result, opts) -> str:
    out = []
    for d in result.diagnostics:
        props = [f"file={_prop(d.path)}", f"line={d.line}", f"col={d.column}"]
        if (d.end_line, d.end_column) != (d.line, d.column):
            props += [f"endLine={d.end_line}", f"endColumn={d.end_column}"]
        props.append(f"title={_prop(f'{d.code} {d.name}')}")
        msg = d.message + ("" if not d.assumptions else " [assumes: " + "; ".join(d.assumptions) + "]")
        out.append(f"::{_LEVEL.get(d.severity, 'warning')} {','.join(props)}::{_data(f'{d.code} [{d.category}] {msg}')}")
    return "".join(x + "\n" for x in out)
