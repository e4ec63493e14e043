"""Baselines: adopt cudalint on a large codebase and fail only on new findings.

A finding is keyed on (path, code, kernel, normalized source line), never on its line number, so
edits above it do not make it new; the source line is taken without its comments, so editing a
comment on the line does not either. The same key is SARIF's partialFingerprints. The file keeps a
count per key, so a second identical finding in the same file is new. Recorded findings that no
longer occur in the files linted are reported as stale."""
from __future__ import annotations

import json
import os
from collections import Counter

from . import __version__
from .report import source_line
from .report.fingerprint import finding_key, normalized

FORMAT_VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be read or written (exit 2)."""


def _rel(path: str, base: str) -> str:
    return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")


def _entries(result, base: str) -> list[tuple[str, dict]]:
    out = []
    for d in result.diagnostics:
        rel = _rel(d.path, base)
        text = source_line(result, d.path, d.line)
        out.append((finding_key(rel, d.code, d.kernel, text),
                    {"path": rel, "code": d.code, "kernel": d.kernel, "source": normalized(text)}))
    return out


def write_baseline(result, file: str) -> int:
    """Write every finding of `result`; return how many were written."""
    base = os.path.dirname(os.path.abspath(file))
    entries = _entries(result, base)
    counts = Counter(k for k, _ in entries)
    seen, findings = set(), []
    for key, info in entries:
        if key not in seen:
            seen.add(key)
            findings.append({"key": key, **info, "count": counts[key]})
    doc = {"cudalint": __version__, "version": FORMAT_VERSION, "findings": findings}
    try:
        with open(file, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    except OSError as exc:
        raise BaselineError(f"cannot write baseline {file}: {exc.strerror or exc}") from None
    return len(entries)


MAX_BASELINE_BYTES = 256 << 20


def read_baseline(file: str) -> tuple[Counter, dict[str, dict]]:
    """How many findings of each key the file records, and what each key was (path, code, ...)."""
    from .inputs import InputError, read_regular
    try:
        doc = json.loads(read_regular(file, MAX_BASELINE_BYTES, binary_check=False).decode("utf-8"))
    except InputError as exc:
        raise BaselineError(str(exc).replace("cannot read ", "cannot read baseline ", 1)) from None
    except RecursionError:
        raise BaselineError(f"cannot read baseline {file}: nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot read baseline {file}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"cannot read baseline {file}: not a cudalint baseline (version {FORMAT_VERSION})")
    counts: Counter = Counter()
    info: dict = {}
    for item in doc["findings"]:
        try:
            key = str(item["key"])
            if all(isinstance(item.get(k), str) for k in ("path", "code", "source")):
                # keyed again from what it records: a baseline written before comments were left out still matches
                key = finding_key(item["path"], item["code"], item.get("kernel"), item["source"])
            counts[key] += int(item.get("count", 1))
            info[key] = item
        except (KeyError, TypeError, ValueError):
            raise BaselineError(f"cannot read baseline {file}: malformed finding {item!r}") from None
    return counts, info


def filter_baseline(result, file: str) -> tuple[int, list[dict]]:
    """Drop the findings recorded in the baseline (up to their count); return how many were dropped
    and the stale entries: recorded for a file this run linted, and no longer found there."""
    known, info = read_baseline(file)
    base = os.path.dirname(os.path.abspath(file))
    kept, dropped = [], 0
    for d, (key, _) in zip(list(result.diagnostics), _entries(result, base)):
        if known[key] > 0:
            known[key] -= 1
            dropped += 1
        else:
            kept.append(d)
    result.diagnostics = kept
    linted = {_rel(f["path"], base) for f in result.files}
    stale = [{**info[k], "count": n} for k, n in known.items() if n > 0 and info[k].get("path") in linted]
    return dropped, stale
