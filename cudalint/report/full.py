"""For people at a terminal: the concise line, the source line with a caret under the index, the
assumptions behind the finding, and a `help:` line from the rule's "Use instead"."""
from __future__ import annotations

from ..rules import BY_CODE
from . import concise, ruledoc, source_line
from .style import Style


def _snippet(d, text: str, style: Style) -> list[str]:
    num = str(d.line)
    pad = " " * len(num)
    start = max(d.column - 1, 0)
    end = d.end_column - 1 if d.end_line == d.line and d.end_column > d.column else len(text.rstrip())
    width = max(end - start, 1)
    lead = "".join(c if c == "\t" else " " for c in text[:start])
    return [f"{pad} {style.dim('|')}",
            f"{style.dim(num + ' |')} {text}",
            f"{pad} {style.dim('|')} {lead}{style.code('^' * width, d.severity)}"]


def render(result, opts) -> str:
    style = Style(opts.color)
    out: list[str] = []
    for d in result.diagnostics:
        out.append(concise.line(d, style, show_assumptions=False))
        text = source_line(result, d.path, d.line)
        if text is not None:
            out.extend(_snippet(d, text, style))
        pad = " " * len(str(d.line))
        if opts.show_assumptions:
            out.extend(f"{pad} = assumes: {a}" for a in d.assumptions)
        rule = BY_CODE.get(d.code)
        if rule is not None:
            code, fix = ruledoc.use_instead(rule)
            if not fix:
                pass
            elif not code:
                out.append(f"{pad} {style.help('help:')} " + " ".join(x.strip() for x in fix))
            else:
                out.append(f"{pad} {style.help('help:')} write it as (`cudalint rule {d.code}` explains):")
                out.extend(f"{pad}     {x}" for x in fix)
        out.append("")
    if not opts.quiet:
        out.append(_summary(result))
    return "\n".join(out) + "\n" if out else ""


def _summary(result) -> str:
    diags = result.diagnostics
    if not diags:
        return f"All checks passed ({len(result.files)} file{'s' if len(result.files) != 1 else ''})."
    counts = {}
    for d in diags:
        counts[d.severity] = counts.get(d.severity, 0) + 1
    names = {"error": "error", "warning": "warning", "info": "note"}
    parts = [f"{counts[s]} {names[s]}{'s' if counts[s] != 1 else ''}" for s in ("error", "warning", "info")
             if s in counts]
    nfiles = len({d.path for d in diags})
    return f"Found {len(diags)} diagnostic{'s' if len(diags) != 1 else ''} ({', '.join(parts)}) in " \
           f"{nfiles} file{'s' if nfiles != 1 else ''}."
