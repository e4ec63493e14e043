"""The JSON contract: {"version", "files": [...], "diagnostics": [...]}."""
from __future__ import annotations

import json

from .. import __version__


def render(result, opts=None) -> str:
    from . import path_uri, raw_path
    files = [f if raw_path(result, f["path"]) == f["path"] else {**f, "uri": path_uri(raw_path(result, f["path"]))}
             for f in result.files]      # a name printed escaped: `uri` is the file's own bytes, percent-encoded
    doc = {
        "version": __version__,
        "files": files,
        "diagnostics": [d.to_json() for d in result.diagnostics],
    }
    if getattr(result, "hidden", None):
        doc["hidden"] = dict(result.hidden)     # code -> notes not printed (--show-limits prints them)
    return json.dumps(doc, indent=2) + "\n"
