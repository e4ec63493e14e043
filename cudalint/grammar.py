"""The Lark parsers cudalint builds from its grammars (grammars/*.lark), kept on disk between
runs, and the reading of `// cudalint: ...` annotations. Below source: a file's annotations are
read where the file is; the index grammar's reader is index/parse.py."""
from __future__ import annotations

import functools
import hashlib
import json
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
    lark and Python versions). The cache is JSON, never a pickle: a cache folder may be restored
    from elsewhere (a CI cache shared across pull requests), and reading it must not be able to run
    anything. It is read only from a folder and file of this user that nobody else may write, and
    written whole (a run reading it meanwhile sees the old one or none). Any failure (unreadable,
    truncated, not what lark saved) means building it, as without a cache."""
    import lark as lark_module
    text = (GRAMMAR_DIR / name).read_text()
    what = "\0".join([text, repr(sorted(_OPTIONS.items())), lark_module.__version__, sys.version])
    path = cache_dir() / f"{name}-{hashlib.sha256(what.encode()).hexdigest()[:20]}.json"
    try:
        if _private(path.parent) and _private(path):
            with open(path, "rb") as f:
                return Lark.load(_untagged(json.loads(f.read(MAX_CACHE_BYTES))))
    except Exception:        # unreadable, truncated, from another lark: built again below
        pass
    parser = Lark(text, **_OPTIONS)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if _private(path.parent):
            from lark.grammar import Rule
            from lark.lexer import TerminalDef
            data, memo = parser.memo_serialize([TerminalDef, Rule])
            blob = json.dumps(_tagged({"data": data, "memo": memo}), separators=(",", ":")).encode()
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(blob)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
    except (OSError, TypeError, ValueError):    # a read-only home, a full disk, a value JSON cannot hold
        pass
    return parser


MAX_CACHE_BYTES = 16 << 20


def _tagged(x):
    """lark's saved parser (dicts with str or int keys, lists, tuples, scalars) as JSON that keeps
    those types: a tuple is {"t": [...]}, a dict {"d": [[key, value], ...]}."""
    if isinstance(x, dict):
        return {"d": [[_tagged(k), _tagged(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"t": [_tagged(v) for v in x]}
    if isinstance(x, list):
        return [_tagged(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"cannot keep a {type(x).__name__} in the parser cache")


def _untagged(x):
    if isinstance(x, dict):
        if "t" in x:
            return tuple(_untagged(v) for v in x["t"])
        return {_untagged(k): _untagged(v) for k, v in x["d"]}
    if isinstance(x, list):
        return [_untagged(v) for v in x]
    return x


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
