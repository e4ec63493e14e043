"""The Lark parsers cudalint builds from its grammars (grammars/*.lark), kept on disk between
runs, and the reading of `// cudalint: ...` annotations. Below source: a file's annotations are
read where the file is; the index grammar's reader is index/parse.py."""
from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from lark import Lark
from lark.exceptions import LarkError

GRAMMAR_DIR = Path(__file__).resolve().parent / "grammars"


class ExprSyntaxError(ValueError):
    """The expression text is outside the grammar cudalint reads."""


_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


@functools.lru_cache(maxsize=None)
def _parser(name: str) -> Lark:
    lark = _cached_parser(name)
    _pass_through(lark)
    return lark


def cache_dir() -> Path:
    """Where cudalint keeps the parsers it builds from its grammars: $XDG_CACHE_HOME/cudalint, else
    ~/.cache/cudalint."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cudalint"


def _cached_parser(name: str) -> Lark:
    """The LALR tables of a grammar take longer to build (tens of ms) than a small file takes to
    lint, so the built parser is kept on disk, named by what it is built from (grammar, options,
    lark and Python versions). It is a pickle: it is read only from a folder and file of this user
    that nobody else may write, and written whole (a run reading it meanwhile sees the old one or
    none). Any failure means building it, as without a cache."""
    import lark as lark_module
    text = (GRAMMAR_DIR / name).read_text()
    what = "\0".join([text, repr(sorted(_OPTIONS.items())), lark_module.__version__, sys.version])
    path = cache_dir() / f"{name}-{hashlib.sha256(what.encode()).hexdigest()[:20]}.pickle"
    try:
        if _private(path.parent) and _private(path):
            with open(path, "rb") as f:
                return Lark.load(f)
    except Exception:        # unreadable, truncated, from another lark: built again below
        pass
    parser = Lark(text, **_OPTIONS)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if _private(path.parent):
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    parser.save(f)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
    except OSError:          # a read-only home, a full disk: no cache, nothing else changes
        pass
    return parser


def _private(path: Path) -> bool:
    """Owned by this user and writable by nobody else."""
    try:
        st = path.stat()
    except OSError:
        return False
    mine = st.st_uid == os.getuid() if hasattr(os, "getuid") else True
    return mine and not st.st_mode & 0o022


def _pass_through(lark: Lark) -> None:
    """Most reductions of an expression are precedence levels handing their one child up
    (`?additive: multiplicative`): the child is the result, and its positions are already its own,
    so lark's wrappers (positions, child filter, single-child expansion: three calls each) are
    skipped there. Where lark keeps its callbacks elsewhere, nothing is changed."""
    parser = getattr(getattr(getattr(lark, "parser", None), "parser", None), "parser", None)
    callbacks = getattr(parser, "callbacks", None)
    if not isinstance(callbacks, dict):
        return
    for rule in callbacks:
        expansion = getattr(rule, "expansion", ())
        if getattr(rule.options, "expand1", False) and not rule.alias and len(expansion) == 1 and \
                not expansion[0].is_term:
            callbacks[rule] = _first_child


def _first_child(children):
    return children[0]


def parse_annotation(text: str):
    """Parse the body of a `// cudalint: ...` comment with grammars/annotations.lark."""
    try:
        return _parser("annotations.lark").parse(text)
    except LarkError as exc:
        raise ExprSyntaxError(str(exc).strip().splitlines()[0]) from None
