"""`path:line:col: CODE [category] message` lines: the DESIGN name of the concise format."""
from __future__ import annotations

from . import RenderOptions
from .concise import render as _concise


def render(result, show_assumptions: bool = True) -> str:
    return _concise(result, RenderOptions(show_assumptions=show_assumptions))
