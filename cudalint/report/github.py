"""GitHub Actions workflow commands: `::warning file=…,line=…,col=…,title=CL101 …::warning: message`,
shown as annotations on the pull request (and as lines of the job's log, where the severity word
is all that tells an error from a warning). GitHub shows at most 10 annotations of each level per
step (and 50 per job); the rest are only in the log: upload SARIF to code scanning to see them all."""
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
        text = f"{d.severity}: {d.code} [{d.category}] {msg}"    # the word also where the level is not shown
        out.append(f"::{_LEVEL.get(d.severity, 'warning')} {','.join(props)}::{_data(text)}")
    return "".join(x + "\n" for x in out)
