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

