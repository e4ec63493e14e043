"""`did you mean …?` for a misspelled rule code, rule name, category, option or configuration key."""
from __future__ import annotations

import difflib


def closest(word: str, candidates, cutoff: float = 0.6) -> str | None:
    """The candidate nearest to `word` (case-insensitive), or None when none is near enough."""
    by_lower = {c.lower(): c for c in candidates}
    hit = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=cutoff)
    return by_lower[hit[0]] if hit else None


def hint(word: str, candidates, cutoff: float = 0.6) -> str:
    """`; did you mean `X`?` or nothing, to append to an error message."""
    c = closest(word, candidates, cutoff)
    return f"; did you mean `{c}`?" if c is not None and c != word else ""


def selector_hint(selector: str) -> str:
    """For an unknown --select/--ignore/ignore[...] selector: a code, a category, or the code of a
    rule named by its name (`unguarded-global-access` -> CL202)."""
    from .rules import ALL
    for r in ALL:
        if selector.lower() == r.NAME:
            return f"; did you mean `{r.CODE}` ({r.NAME})?"
    names = {r.NAME: r.CODE for r in ALL}
    c = closest(selector, [r.CODE for r in ALL] + sorted({r.CATEGORY for r in ALL}) + list(names))
    if c is None:
        return ""
    return f"; did you mean `{names[c]}` ({c})?" if c in names else f"; did you mean `{c}`?"
