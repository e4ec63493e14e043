"""Inline suppressions: `// cudalint: ignore[CL101]`, `disable[CL4]` ... `enable[CL4]`,
`file-ignore[CL203]`, read with grammars/annotations.lark, anywhere in a comment as `noqa` is
(`// the load is fine, cudalint: ignore[CL101]`), with rule codes, code prefixes, categories or
rule names. A suppression that suppresses nothing is itself reported (CL910), with a fix that
removes it, so stale ones do not pile up."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .diagnostic import Diagnostic
from .selection import is_valid, matches, normalize

ALL = "ALL"
DIRECTIVES = ("ignore", "disable", "enable", "file-ignore", "launch", "param")
_ANY_DIRECTIVE = re.compile(r"^(?://+|/\*+)\s*cudalint\s*:\s*([\w-]+)(\s*\[)?")
# anywhere in the comment, after its opening or a word boundary (`// fine here, cudalint: ignore[CL101]`)
_COMMENT = re.compile(r"(?:^(?://+|/\*+)\s*|(?<=[\s,;:(]))cudalint\s*:\s*(ignore|disable|enable|file-ignore)(?![\w-])"
                      r"(.*?)(\*/)?\s*$", re.DOTALL)


@dataclass
class Suppression:
    line: int
    column: int
    end_column: int
    kind: str                        # ignore | disable | file_ignore
    selectors: tuple[str, ...]       # ("ALL",) when the comment names no rule
    first: int                       # lines it covers, inclusive
    last: int
    text: str
    ends: dict[str, int] = field(default_factory=dict)    # disable: where `enable` ended each selector
    used: set[str] = field(default_factory=set)

    def covers(self, d: Diagnostic) -> list[str]:
        """The selectors that suppress `d` (its code, or a code of a finding it stands for)."""
        return [s for s in self.selectors if self.first <= d.line <= self.ends.get(s, self.last)
                and any(matches(s, c, d.category) for c in (d.code, *d.subsumes))]


@dataclass
class FileSuppressions:
    path: str
    suppressions: list[Suppression] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)    # unreadable comments, stray enables

    def suppress(self, d: Diagnostic) -> bool:
        hit = False
        for s in self.suppressions:
            sels = s.covers(d)
            s.used.update(sels)
            hit = hit or bool(sels)
        return hit

    def unused(self) -> list[Diagnostic]:
        out = list(self.problems)
        for s in self.suppressions:
            idle = [x for x in s.selectors if x not in s.used]
            if not idle:
                continue
            unknown = [x for x in idle if x != ALL and not is_valid(x)]
            if unknown:
                from .didyoumean import selector_hint
                d = _cl910(self.path, s.line, s.column, s.end_column, f"unused suppression `{s.text}`: "
                           + ", ".join(f"`{x}`" for x in unknown) + " names no rule code, name or category"
                           + (selector_hint(unknown[0]) if len(unknown) == 1 else ""))
                d.facts = {"why": "unknown", "kind": s.kind, "idle": unknown, "selectors": list(s.selectors)}
                out.append(d)
                continue
            if s.selectors == (ALL,):
                why = "no finding to suppress"
            else:
                why = "no " + ", ".join(f"`{x}`" for x in idle) + " finding to suppress"
            last = max((s.ends.get(x, s.last) for x in idle), default=s.last)
            where = {"ignore": f"line {s.first}" if s.first != s.line else "this line",
                     "disable": f"lines {s.first}-{last}", "file_ignore": "this file"}[s.kind]
            d = _cl910(self.path, s.line, s.column, s.end_column,
                       f"unused suppression `{s.text}`: {why} {'in' if s.kind == 'file_ignore' else 'on'} {where}")
            d.facts = {"why": "unused", "kind": s.kind, "idle": idle, "selectors": list(s.selectors)}
            out.append(d)
        return out


def _cl910(path, line, column, end_column, message) -> Diagnostic:
    from .rules import BY_CODE
    r = BY_CODE["CL910"]
    return Diagnostic(path, line, column, line, end_column, r.CODE, r.NAME, r.CATEGORY, r.SEVERITY, message)


def _cl900(path, line, column, message) -> Diagnostic:
    from .rules import BY_CODE
    r = BY_CODE["CL900"]
    return Diagnostic(path, line, column, line, column, r.CODE, r.NAME, r.CATEGORY, r.SEVERITY, message)


def _comments(src):
    """The comment nodes that mention cudalint, in order; found from the text, since walking every
    node of a file with a large initializer table costs seconds."""
    seen = set()
    for row, text in enumerate(src.lines):
        at = text.find("cudalint")
        if at < 0:
            continue
        col = len(text[:at].encode("utf-8", "surrogateescape"))
        node = src.tree.root_node.descendant_for_point_range((row, col), (row, col))
        while node is not None and node.type != "comment":
            node = node.parent
        if node is not None and node.start_byte not in seen:
            seen.add(node.start_byte)
            yield node


def _misspelt(comment: str) -> str | None:
    """A `// cudalint: ignroe[CL101]`: a word that is no directive, written like one (a selector list
    follows, or it is a near miss), would otherwise be read as prose and suppress nothing, silently."""
    from .didyoumean import closest
    m = _ANY_DIRECTIVE.match(comment)
    if m is None or m.group(1) in DIRECTIVES:
        return None
    near = closest(m.group(1), DIRECTIVES, cutoff=0.7)
    if near is None and not m.group(2):
        return None
    shown = " ".join(comment.lstrip("/* ").split("\n")[0].split())
    hint = f"; did you mean `{near}`?" if near else f" (directives: {', '.join(DIRECTIVES)})"
    return f"unused suppression `{shown}`: `{m.group(1)}` is no cudalint directive{hint}"


def read_suppressions(src) -> FileSuppressions:
    """Every suppression comment of a parsed SourceFile, in line order."""
    from .source.cufile import node_text

    out = FileSuppressions(src.path)
    last_line = max(len(src.lines), 1)
    open_regions: list[tuple[Suppression, str]] = []
    for node in _comments(src):
        text = node_text(node)
        m = _COMMENT.search(text)
        line, col = node.start_point[0] + 1, node.start_point[1] + 1
        end_col = node.end_point[1] + 1 if node.end_point[0] == node.start_point[0] else col + len(text.split("\n")[0])
        at = col      # where a finding on the comment points: its directive, when that is on the first line
        if not m:
            misspelt = _misspelt(text)
            if misspelt:
                out.problems.append(_cl910(src.path, line, col, end_col, misspelt))
            continue
        if "\n" not in text[:m.start()]:
            at = col + len(text[:m.start()].encode("utf-8", "surrogateescape"))
        shown = "cudalint: " + m.group(1) + m.group(2).rstrip()
        shown = shown.split("//", 1)[0].rstrip()    # a second comment on the line is not part of it
        from .grammar import ExprSyntaxError, parse_annotation     # lark only for a file that has one
        try:
            tree = parse_annotation(shown)
        except ExprSyntaxError:
            out.problems.append(_cl900(src.path, line, at, f"cannot read suppression `{shown}`: expected "
                                       f"`cudalint: {m.group(1)}[CODE, ...]` with rule codes or names, code prefixes "
                                       f"or categories, optionally followed by ` -- reason`"))
            continue
        directive = tree.children[0]
        lists = [c for c in directive.children if getattr(c, "data", None) == "selectors"]
        selectors = tuple(normalize(str(t)) for t in lists[0].children) if lists else (ALL,)
        kind = directive.data
        if kind == "enable":
            closing = [(s, sel) for s, sel in open_regions if selectors == (ALL,) or sel in selectors]
            if not closing:
                out.problems.append(_cl910(src.path, line, at, end_col,
                                           f"unused suppression `{shown}`: no `disable` above it to end"))
            for s, sel in closing:
                open_regions.remove((s, sel))
                s.ends[sel] = line
            continue
        before = src.lines[line - 1][:col - 1] if line <= len(src.lines) else ""
        if kind == "ignore":
            target = line + 1 if not before.strip() else line   # alone on its line: covers the next one
            first, last = target, target
        elif kind == "disable":
            first, last = line, last_line
        else:
            first, last = 1, last_line
        s = Suppression(line, at, end_col, kind, selectors, first, last, shown)
        out.suppressions.append(s)
        if kind == "disable":
            open_regions.extend((s, sel) for sel in selectors)
    return out


def apply_suppressions(diags: list[Diagnostic], sources) -> list[Diagnostic]:
    """Drop suppressed findings; add a CL910 for each suppression that dropped nothing."""
    by_path = {src.path: read_suppressions(src) for src in sources}
    kept = [d for d in diags if d.code == "CL910" or not (d.path in by_path and by_path[d.path].suppress(d))]
    for fs in by_path.values():
        kept.extend(fs.unused())
    kept.sort(key=Diagnostic.sort_key)
    return kept
