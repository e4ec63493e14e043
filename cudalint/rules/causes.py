"""One finding per root cause: what runs after the rules, over the findings of a file."""
from __future__ import annotations

from ..diagnostic import Diagnostic


def merge_root_causes(diags: list[Diagnostic], enabled=lambda d: True) -> list[Diagnostic]:
    """One finding per root cause and access: a finding whose rule names the cause (CL102: x and y
    swapped) stands for the findings of the rules it subsumes at the same access (CL101: the
    sectors it costs), which it carries as metrics; a finding of a subsumed rule on another access
    of the kernel with the same cause (the same definition of the same variable) says so, and its
    help points to the one fix. Rules declare what they subsume (`SUBSUMES`) and render their
    message from the diagnostic's facts (`message(d)`). Only a finding of a rule that is on
    (`enabled`) takes another's place: `--ignore CL102` keeps the CL101 findings. A suppression
    naming a subsumed code covers the finding that stands for it."""
    from . import BY_CODE
    diags = _point_to_first(diags, BY_CODE)
    heads = [d for d in diags if getattr(BY_CODE.get(d.code), "SUBSUMES", ()) and enabled(d)]
    if not heads:
        return diags
    at = {}
    for h in heads:
        at.setdefault((h.path, h.line, h.column, h.array), []).append(h)
        # the cause's finding is one of the kind it explains, whether or not that rule's finding
        # at this access was made (or folded into a neighbour's): a suppression of it covers this one
        h.subsumes.extend(c for c in BY_CODE[h.code].SUBSUMES if c not in h.subsumes)
    out = []
    for d in diags:
        here = [h for h in at.get((d.path, d.line, d.column, d.array), ()) if d.code in BY_CODE[h.code].SUBSUMES]
        if here:
            for h in here:
                if d.code not in h.subsumes:
                    h.subsumes.append(d.code)
                for k in ("sectors_per_request", "ideal_sectors", "ratio", "lane_stride_bytes"):
                    if k in d.metrics:
                        h.metrics.setdefault(k, d.metrics[k])
            continue
        if d.cause:
            same = next((h for h in heads if d.code in BY_CODE[h.code].SUBSUMES and h.path == d.path
                         and h.kernel == d.kernel and h.cause & d.cause), None)
            if same is not None:
                d.facts["same_cause_as"] = {"code": same.code, "line": same.line, "column": same.column,
                                            "names": sorted(n for n, _ in same.cause & d.cause)}
                d.metrics["same_cause_as"] = {"code": same.code, "line": same.line, "column": same.column}
                d.message = _rendered(d, BY_CODE)
        out.append(d)
    return out


def _point_to_first(diags: list[Diagnostic], rules) -> list[Diagnostic]:
    """Findings of one rule with one cause (`cause_key(d)`, such as the accesses of a statement one
    guard fixes): the first is the finding, the others say so and point to it."""
    first: dict = {}
    for d in diags:
        key_of = getattr(rules.get(d.code), "cause_key", None)
        key = key_of(d) if key_of is not None else None
        if key is None:
            continue
        head = first.setdefault((d.path, d.kernel, d.code, key), d)
        if head is not d and "same_cause_as" not in d.facts:
            d.facts["same_cause_as"] = {"code": head.code, "line": head.line, "column": head.column}
            d.metrics["same_cause_as"] = dict(d.facts["same_cause_as"])
            d.message = _rendered(d, rules)
    return diags


def _rendered(d: Diagnostic, rules) -> str:
    return rendered(d, rules[d.code].message)


def rendered(d: Diagnostic, message) -> str:
    """A rule's message (`message(d)`) from the finding's facts, with the words the engine added
    after the rule: the program's values it holds at (`metrics["when"]`), where its values come
    from (`metrics["values"]`)."""
    text = message(d)
    when, values = d.metrics.get("when"), d.metrics.get("values")
    return text + (f" (when {when})" if when else "") + (f" ({'; '.join(values)})" if values else "")
