"""A rule's documentation, split into its sections (the rule module's docstring is the only copy)."""
from __future__ import annotations

import re


def sections(rule) -> dict[str, str]:
    doc = (rule.__doc__ or "").strip()
    out, name = {}, None
    for line in doc.splitlines():
        m = re.match(r"##\s+(.*?)\s*$", line)
        if m:
            name = m.group(1).rstrip("?").lower()
            out[name] = ""
        elif name is not None:
            out[name] += line + "\n"
    return {k: v.strip() for k, v in out.items()}


def plain(doc: str) -> str:
    """The docstring as plain text: headings without `##`, code fences dropped (their code kept)."""
    return "\n".join(line.lstrip("# ") if line.startswith("## ") else line
                     for line in doc.splitlines() if not line.startswith("```"))


def what_it_does(rule) -> str:
    return " ".join(sections(rule).get("what it does", rule.NAME).split())


def summary(rule) -> str:
    """The first sentence of "What it does"."""
    text = what_it_does(rule)
    m = re.match(r"(.+?)\.(\s|$)", text)
    return m.group(1) + "." if m else text

