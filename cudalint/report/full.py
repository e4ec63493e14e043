"""For people at a terminal: the concise line, the source line with a caret under the index, the
assumptions behind the kernel's findings (once per kernel), and a `help:` written for this code:
the proved fix as a diff where there is one, else the change in the user's own names (the guard
of CL202, the padded tile of CL401), else what the rule's `help(d)` writes from the finding's
facts, else no help line (the rule's stock example is in `cudalint rule CODE`)."""
from __future__ import annotations

import re

from ..rules import BY_CODE
from . import concise, source_line
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


def _access(result, d):
    table = next((t for t in result.tables if t.kernel == d.kernel and t.path == d.path), None)
    if table is None:
        return None
    return next((a for a in table.accesses if a.line == d.line and a.column == d.column and a.array.name == d.array),
                None)


def _help(d, result, opts, style: Style, pad: str) -> list[str]:
    """The help lines of one finding."""
    head = f"{pad} {style.help('help:')} "
    fix = opts.fixes.by_finding.get(id(d)) if opts.fixes is not None else None
    if fix is not None:
        how = "`--fix` applies it" if fix.safe else "unsafe, it changes the kernel's result: `--fix --unsafe-fixes`"
        width = len(str(max(e.line for e in fix.edits)))
        out = [head + f"{fix.title} ({how}):"]
        for e in fix.edits:
            out.append(f"{pad}     {style.code('- ' + str(e.line).rjust(width) + ' | ' + e.old.strip(), 'error')}")
            if e.new is not None:       # None: the line goes
                out.append(f"{pad}     {style.help('+ ' + str(e.line).rjust(width) + ' | ' + e.new.strip())}")
        return out
    if d.code == "CL202" and d.metrics.get("guard") and not d.facts.get("same_cause_as"):
        guard = d.metrics["guard"]
        stmt = (source_line(result, d.path, d.line) or "").split("//", 1)[0].strip()
        if stmt.endswith(";") and not _DECLARATION.match(stmt) and not stmt.startswith(_KEYWORDS) and "…" not in guard:
            n = str(d.line)
            return [head + "keep the threads past the data out of it:",
                    f"{pad}     {style.code('- ' + n + ' | ' + stmt, 'error')}",
                    f"{pad}     {style.help('+ ' + n + ' | ' + guard + ' ' + stmt)}"]
        return [head + f"keep the threads past the data out of it: put it under `{guard}`"]
    if d.code == "CL401":
        acc = _access(result, d)
        if acc is not None:
            from ..rules.cl401_shared_bank_conflict import fixes
            pad_ = d.metrics.get("padding")
            ways = fixes(acc, (pad_, 1) if pad_ else None, d.metrics.get("term"))
            return [head + ways[0]] + [f"{pad}       or {x}" for x in ways[1:]]
    # else what the rule writes for this finding from its facts, or nothing: the rule's stock
    # example, written for another kernel, stays in `cudalint rule CODE`
    write = getattr(BY_CODE.get(d.code), "help", None)
    text = write(d) if write is not None else None
    return [head + text] if text else []


# `float v = a[i];`: guarding a declaration would hide the variable from the code after it
_DECLARATION = re.compile(r"^[A-Za-z_][\w:<>,\s*&]*\s[*&]*[A-Za-z_]\w*\s*(=|;|\[|\{)")
_KEYWORDS = ("return", "if", "for", "while", "do", "switch", "case", "else")
_SIZES = re.compile(r"sizes not given, checked with (.*?) \(give .*\)$")


def _merged(assumptions: list[str]) -> list[str]:
    """One line for the sizes a kernel's findings were checked with (each finding names the sizes
    its own index uses: `K = 1000 and 1024` and `M = 1000 and 1023` are said once, together)."""
    sizes = [m for m in map(_SIZES.match, assumptions) if m]
    if len(sizes) < 2:
        return assumptions
    items = sorted({x for m in sizes for x in m.group(1).split("; ")})
    names = [x.split(" = ")[0] for x in items]
    line = (f"sizes not given, checked with {'; '.join(items)} "
            f"(give {' '.join(f'--param {n}=VALUE' for n in names[:3])})")
    first = assumptions.index(sizes[0].string)
    rest = [a for a in assumptions if not _SIZES.match(a)]
    return rest[:first] + [line] + rest[first:]


def render(result, opts) -> str:
    style = Style(opts.color)
    out: list[str] = []
    assumed: dict[tuple, list] = {}    # (path, kernel) -> every assumption of its findings, in order
    for d in result.diagnostics:
        seen = assumed.setdefault((d.path, d.kernel), [])
        seen.extend(a for a in d.assumptions if a not in seen)
    assumed = {k: _merged(v) for k, v in assumed.items()}
    for d in result.diagnostics:
        out.append(concise.line(d, style))
        text = source_line(result, d.path, d.line)
        if text is not None:
            out.extend(_snippet(d, text, style))
        pad = " " * len(str(d.line))
        if opts.show_assumptions and assumed.get((d.path, d.kernel)):      # at the kernel's first finding
            where = f"kernel `{d.kernel}`" if d.kernel else "this file"
            out.extend(f"{pad} = {where} assumes: {a}" for a in assumed.pop((d.path, d.kernel)))
        out.extend(_help(d, result, opts, style, pad))
        out.append("")
    if not opts.quiet:
        out.append(_summary(result))
        fixable = _fixable(result, opts)
        if fixable:
            out.append(fixable)
    return "\n".join(out) + "\n" if out else ""


def _fixable(result, opts) -> str:
    if opts.fixes is None:
        return ""
    mine = {id(d) for d in result.diagnostics}
    fixes = [f for fs in opts.fixes.accepted.values() for f in fs]
    safe = sum(1 for f in fixes for d in f.targets if id(d) in mine and (f.safe or opts.unsafe_fixes))
    unsafe = sum(1 for f in fixes for d in f.targets if id(d) in mine and not f.safe and not opts.unsafe_fixes)
    parts = []
    if safe:
        parts.append(f"{safe} fixable with `cudalint --fix`{' --unsafe-fixes' if opts.unsafe_fixes else ''}")
    if unsafe:
        parts.append(f"{unsafe} more with `--fix --unsafe-fixes`" if safe else
                     f"{unsafe} fixable with `cudalint --fix --unsafe-fixes`")
    return "[*] " + ", ".join(parts) + "." if parts else ""


def _summary(result) -> str:
    diags = result.diagnostics
    if not result.files:
        return "No files linted."
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
