"""Diagnostics: small value objects, one per finding."""
from __future__ import annotations

from dataclasses import dataclass, field

SEVERITIES = ("info", "warning", "error")


@dataclass
class Diagnostic:
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    category: str
    severity: str
    message: str
    kernel: str | None = None
    array: str | None = None
    access: str | None = None
    space: str | None = None
    metrics: dict = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)
    confirmed: bool | None = None
    measured: dict | None = None       # confirm mode: what the GPU run measured for this finding
    source: str = "static"             # "dynamic": found by confirm mode's measurement alone
    # codes of the findings on this access that this one stands for (one finding per root cause)
    subsumes: list[str] = field(default_factory=list)
    # what the rule's message and help are written from (names, texts), not part of the JSON contract
    facts: dict = field(default_factory=dict, compare=False, repr=False)
    # the definitions a finding's root cause lies in: findings that share one have one fix
    cause: frozenset = field(default=frozenset(), compare=False, repr=False)

    def sort_key(self):
        return (self.path, self.line, self.column, self.code, self.message)

    def to_json(self) -> dict:
        d = {
            "path": self.path, "line": self.line, "column": self.column,
            "end_line": self.end_line, "end_column": self.end_column,
            "code": self.code, "name": self.name, "category": self.category,
            "severity": self.severity, "message": self.message, "kernel": self.kernel,
        }
        for k in ("array", "access", "space"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        d["metrics"] = self.metrics
        d["assumptions"] = self.assumptions
        d["confirmed"] = self.confirmed
        if self.measured is not None:
            d["measured"] = self.measured
        if self.subsumes:
            d["subsumes"] = self.subsumes
        if self.source == "dynamic":
            d["source"] = self.source
        return d


def merge_root_causes(diags: list[Diagnostic], enabled=lambda d: True) -> list[Diagnostic]:
    """One finding per root cause and access: a finding whose rule names the cause (CL102: x and y
    swapped) stands for the findings of the rules it subsumes at the same access (CL101: the
    sectors it costs), which it carries as metrics; a finding of a subsumed rule on another access
    of the kernel with the same cause (the same definition of the same variable) says so, and its
    help points to the one fix. Rules declare what they subsume (`SUBSUMES`) and render their
    message from the diagnostic's facts (`message(d)`). Only a finding of a rule that is on
    (`enabled`) takes another's place: `--ignore CL102` keeps the CL101 findings. A suppression
    naming a subsumed code covers the finding that stands for it."""
    from .rules import BY_CODE
    heads = [d for d in diags if getattr(BY_CODE.get(d.code), "SUBSUMES", ()) and enabled(d)]
    if not heads:
        return diags
    at = {}
    for h in heads:
        at.setdefault((h.path, h.line, h.column, h.array), []).append(h)
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
                d.message = BY_CODE[d.code].message(d)
        out.append(d)
    return out
