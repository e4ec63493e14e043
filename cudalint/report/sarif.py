"""SARIF 2.1.0 for code-scanning services: one `rules[]` entry per rule (descriptions and help
from the rule module), repository-relative URIs, and partialFingerprints so that a re-run does
not open the same alert twice."""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..baseline import finding_key
from ..rules import ALL
from . import repo_root, ruledoc, source_line

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rule(r) -> dict:
    return {
        "id": r.CODE,
        "name": r.NAME,
        "shortDescription": {"text": ruledoc.summary(r)},
        "fullDescription": {"text": ruledoc.what_it_does(r)},
        "help": {"text": (r.__doc__ or "").strip(), "markdown": (r.__doc__ or "").strip()},
        "defaultConfiguration": {"level": _LEVEL[r.SEVERITY]},
        "properties": {"category": r.CATEGORY, "tags": [r.CATEGORY]},
    }


def render(result, opts) -> str:
    root = os.path.abspath(opts.root or repo_root())
    index = {r.CODE: i for i, r in enumerate(ALL)}
    results = []
    for d in result.diagnostics:
        abspath = os.path.abspath(d.path)
        rel = os.path.relpath(abspath, root).replace(os.sep, "/")
        if rel.startswith("../"):
            artifact = {"uri": Path(abspath).as_uri()}
        else:
            artifact = {"uri": quote(rel), "uriBaseId": "%SRCROOT%"}
        region = {"startLine": d.line, "startColumn": d.column}
        if (d.end_line, d.end_column) >= (d.line, d.column):
            region.update(endLine=d.end_line, endColumn=max(d.end_column, d.column + (d.end_line == d.line)))
        loc = {"physicalLocation": {"artifactLocation": artifact, "region": region}}
        if d.kernel:
            loc["logicalLocations"] = [{"name": d.kernel, "kind": "function"}]
        item = {
            "ruleId": d.code,
            "level": _LEVEL.get(d.severity, "warning"),
            "message": {"text": d.message},
            "locations": [loc],
            "partialFingerprints": {
                "cudalintFinding/v1": finding_key(rel, d.code, d.kernel, source_line(result, d.path, d.line))},
            "properties": {"category": d.category, "metrics": d.metrics, "assumptions": d.assumptions},
        }
        if d.code in index:
            item["ruleIndex"] = index[d.code]
        results.append(item)
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cudalint", "version": __version__, "semanticVersion": __version__,
                                "rules": [_rule(r) for r in ALL]}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(root).as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2) + "\n"
