"""SARIF 2.1.0 for code-scanning services: one `rules[]` entry per rule (descriptions and help
from the rule module), repository-relative URIs, and partialFingerprints so that a re-run does
not open the same alert twice."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .. import __version__
from ..rules import ALL
from . import path_uri, printable, raw_path, repo_root, ruledoc, source_line
from .fingerprint import finding_key

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rule(r) -> dict:
    doc = (r.__doc__ or "").strip()
    return {
        "id": r.CODE,
        "name": r.NAME,
        # the rule's name is its title (code-scanning lists show it); the docstring says the rest
        "shortDescription": {"text": r.NAME.replace("-", " ").capitalize().replace("Int32", "int32")},
        "fullDescription": {"text": ruledoc.what_it_does(r)},
        "help": {"text": ruledoc.plain(doc), "markdown": doc},
        "defaultConfiguration": {"level": _LEVEL[r.SEVERITY]},
        "properties": {"category": r.CATEGORY, "tags": [r.CATEGORY]},
    }


def _utf16(text: str | None, byte_column: int) -> int:
    """A 1-based byte column (what the parser counts) as a 1-based UTF-16 column (what SARIF viewers,
    GitHub's and VS Code's, count)."""
    if not text:
        return byte_column
    head = text.encode("utf-8", "surrogateescape")[:max(byte_column - 1, 0)].decode("utf-8", "ignore")
    return len(head.encode("utf-16-le")) // 2 + 1


def _artifact(path: str, root: str, result=None) -> tuple[str, dict]:
    """The path relative to the repository root, and its artifactLocation (absolute outside it):
    the URI of the file itself, even when its name is printed escaped."""
    raw = raw_path(result, path)
    if raw != path:
        rel, artifact = _artifact(raw, root)
        return printable(rel), artifact
    abspath = os.path.abspath(path)
    rel = os.path.relpath(abspath, root).replace(os.sep, "/")
    if rel.startswith("../"):
        return rel, {"uri": Path(abspath).as_uri()}
    return rel, {"uri": path_uri(rel), "uriBaseId": "%SRCROOT%"}


def _notifications(result, root: str) -> list[dict]:
    """What the run could not analyse: files read with parse errors, kernels left unsimulated."""
    out = []
    for f in result.files:
        if f.get("status", "ok") != "ok":
            out.append({"level": "warning", "message": {"text": f"{f['path']}: {f['status']}; the regions that did "
                                                                f"parse were analysed (CL900 says where)"},
                        "locations": [{"physicalLocation": {"artifactLocation": _artifact(f["path"], root, result)[1]}}]})
    for d in result.diagnostics:
        if d.code == "CL901" and d.message.startswith(("kernel `", "cudalint could not analyse kernel")):
            out.append({"level": "warning" if d.message.startswith("kernel `") else "error",
                        "message": {"text": f"{d.path}:{d.line}: {d.message}"}})
    return out


def render(result, opts) -> str:
    root = os.path.abspath(opts.root or repo_root())
    index = {r.CODE: i for i, r in enumerate(ALL)}
    results = []
    for d in result.diagnostics:
        rel, artifact = _artifact(d.path, root, result)
        first = source_line(result, d.path, d.line)
        start = _utf16(first, d.column)
        region = {"startLine": d.line, "startColumn": start}
        if (d.end_line, d.end_column) >= (d.line, d.column):
            end = _utf16(first if d.end_line == d.line else source_line(result, d.path, d.end_line), d.end_column)
            region.update(endLine=d.end_line, endColumn=max(end, start + (d.end_line == d.line)))
        loc = {"physicalLocation": {"artifactLocation": artifact, "region": region}}
        if d.kernel:
            loc["logicalLocations"] = [{"name": d.kernel, "kind": "function"}]
        item = {
            "ruleId": d.code,
            "level": _LEVEL.get(d.severity, "warning"),
            "message": {"text": d.message},
            "locations": [loc],
            "partialFingerprints": {
                "cudalintFinding/v2": finding_key(rel, d.code, d.kernel, source_line(result, d.path, d.line))},
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
            "invocations": [{"executionSuccessful": opts.exit_code in (0, 1),
                             **({"exitCode": opts.exit_code} if opts.exit_code is not None else {}),
                             "toolExecutionNotifications": _notifications(result, root)}],
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2) + "\n"
