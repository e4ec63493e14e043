"""ANSI colors for the text formats; a no-op when color is off."""
from __future__ import annotations

_SEVERITY = {"error": "1;31", "warning": "1;33", "info": "1;36"}


class Style:
    def __init__(self, color: bool):
        self.color = color

    def _sgr(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def bold(self, text: str) -> str:
        return self._sgr(text, "1")

    def code(self, text: str, severity: str) -> str:
        return self._sgr(text, _SEVERITY.get(severity, "1"))

    def dim(self, text: str) -> str:
        return self._sgr(text, "2")

    def help(self, text: str) -> str:
        return self._sgr(text, "1;32")
