"""One JSON object per line, each a diagnostic as in the `json` format's "diagnostics" list."""
from __future__ import annotations

import json


def render(result, opts) -> str:
    return "".join(json.dumps(d.to_json()) + "\n" for d in result.diagnostics)
