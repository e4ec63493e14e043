"""The identity of a finding across runs, as baselines and SARIF's partialFingerprints key it:
(path, code, kernel, normalized source line), never the line number."""
from __future__ import annotations

import hashlib
import os
import re


_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//.*|/\*.*?(?:\*/|$)')


def normalized(text: str | None) -> str:
    """Source text without comments and insensitive to whitespace: re-indenting a line, or editing
    the comment on it (`// expect: ...`, `// TODO`), keeps its key."""
    code = _TOKENS.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text or "")
    return " ".join(code.split())


def finding_key(path: str, code: str, kernel: str | None, line_text: str | None) -> str:
    """The identity of a finding across runs; `path` relative to a fixed directory, `/`-separated."""
    raw = "\0".join((path.replace(os.sep, "/"), code, kernel or "", normalized(line_text)))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]
