"""Rule selectors: `ALL`, a code prefix (`CL1`, `CL101`) or a category name (`coalescing`).

Used by --select/--ignore/--extend-select, the configuration's rule lists, per-file-ignores and
`// cudalint: ignore[...]` comments, so that all of them read a selector the same way.
"""
from __future__ import annotations

from dataclasses import dataclass


def _rules():
    from .rules import ALL
    return ALL


def categories() -> set[str]:
    return {r.CATEGORY for r in _rules()}


def is_valid(selector: str) -> bool:
    """A selector is valid when it names at least one rule."""
    return selector == "ALL" or any(matches(selector, r.CODE, r.CATEGORY) for r in _rules())


def matches(selector: str, code: str, category: str) -> bool:
    if selector == "ALL":
        return True
    if selector.upper().startswith("CL"):
        return code.startswith(selector.upper())
    return selector == category


def specificity(selector: str) -> int:
    """How narrow a selector is: a longer code prefix beats a shorter one, any code beats a category."""
    if selector == "ALL":
        return 0
    if selector.upper().startswith("CL"):
        return 1 + len(selector)
    return 1


def is_limit_note(d) -> bool:
    """A note on where cudalint's reading stops, counted unless --show-limits asks for it: a CL901
    note, or a CL900 note (info) on a region the parser or preprocessor could not read. What the
    user wrote for cudalint and it could not read (an annotation, `facts["annotation"]`), a CL900
    warning, and the note on a file that is not UTF-8 (its text was changed to be read) are always
    printed."""
    if d.severity != "info":
        return False
    return d.code == "CL901" or (d.code == "CL900" and not d.facts.get("annotation")
                                 and not d.message.startswith("file is not valid UTF-8"))


def normalize(selector: str) -> str:
    """`cl101` -> `CL101`, `all` -> `ALL`, a rule's name (`uncoalesced-global-access`, as `cudalint
    rule NAME` takes it) -> its code; a category as it is."""
    s = selector.strip()
    if s.upper().startswith("CL") or s.upper() == "ALL":
        return s.upper()
    return next((r.CODE for r in _rules() if r.NAME == s.lower()), s)


@dataclass(frozen=True)
class RuleSelection:
    """Which rules are on: the most specific matching selector decides; on a tie, ignore wins."""
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()

    def enabled(self, code: str, category: str) -> bool:
        on = max((specificity(s) for s in self.select if matches(s, code, category)), default=-1)
        off = max((specificity(s) for s in self.ignore if matches(s, code, category)), default=-1)
        return on > off

    def asks_for(self, code: str, category: str) -> bool:
        """The selection names this rule (a code, a code prefix or its category), not only ALL."""
        return any(s != "ALL" and matches(s, code, category) for s in self.select) and self.enabled(code, category)

    def with_ignored(self, extra: tuple[str, ...]) -> "RuleSelection":
        return RuleSelection(self.select, self.ignore + tuple(extra)) if extra else self
