"""The JSON contract: {"version", "files": [...], "diagnostics": [...]}."""
from __future__ import annotations

import json

from .. import __version__


def render(result, opts=None) -> str:
    doc = {
        "version": __version__,
        "files": result.files,
        "diagnostics": [d.to_json() for d in result.diagnostics],
    }
    if getattr(result, "hidden", None):
        doc["hidden"] = dict(result.hidden)     # code -> notes not printed (--show-limits prints them)
    return json.dumps(doc, indent=2) + "\n"
