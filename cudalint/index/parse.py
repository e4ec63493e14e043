"""Expression text → Lark tree (grammars/index.lark) → typed IR.

Source text is never evaluated: every IR node is built from the parse tree.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from . import ir

GRAMMAR_DIR = Path(__file__).resolve().parent.parent / "grammars"


# One index or condition, macros expanded: real ones stay under 2,000 characters; a 200,000-term
# macro body would take seconds and hundreds of MB to parse, for nothing the analysis could use.
MAX_EXPRESSION_CHARS = 20_000


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


MAX_LITERAL_BITS = 64


def _int_literal(text: str) -> int | float:
    if len(text) > 400:       # past any 64-bit literal; Python's int() refuses 4300 digits with an error of its own
        raise ExprSyntaxError(f"number `{text[:20]}…` has {len(text)} characters: too large for C")
    t = text.rstrip("uUlL")
    if t[:2] in ("0x", "0X", "0b", "0B"):
        v = int(t, 16 if t[1] in "xX" else 2)
    elif any(c in t for c in ".eE") or text[-1:] in "fF":
        return float(t.rstrip("fF"))       # 1e999 is inf, as a C compiler reads it (with a warning)
    else:
        v = int(t, 8) if len(t) > 1 and t.startswith("0") else int(t)
    if v >= 1 << MAX_LITERAL_BITS:     # C has no integer type for it
        raise ExprSyntaxError(f"integer literal `{text}` does not fit in 64 bits")
    return v


class _ToIR:
    """One method per rule of the grammar: (the rule's positions, its children already built) -> IR."""

    def number(self, meta, c):
        return ir.Num(_int_literal(str(c[0])))

    def name(self, meta, c):
        n = str(c[0])
        if n in ("true", "false"):
            return ir.Num(1 if n == "true" else 0)
        if n in ("nullptr", "NULL"):
            return ir.Num(0)
        return ir.Name(n)

    def scoped_name(self, meta, c):
        return ir.Name(f"{c[0]}::{c[1]}")

    def string(self, meta, c):
        return ir.Str(str(c[0]))

    char = string

    def comma(self, meta, c):
        return ir.Comma(c[0], c[1])

    def assign(self, meta, c):
        return ir.Assign(str(c[1]), c[0], c[2])

    def ternary(self, meta, c):
        return ir.Cond(c[0], c[1], c[2])

    def _chain(op):
        def f(self, meta, c):
            return ir.Bin(op, c[0], c[1])
        return f

    logor = _chain("||")
    logand = _chain("&&")
    bitor = _chain("|")
    bitxor = _chain("^")
    bitand = _chain("&")

    def binop(self, meta, c):
        return ir.Bin(str(c[1]), c[0], c[2])

    def c_cast(self, meta, c):
        return ir.Cast(c[0], c[1])

    def cxx_cast(self, meta, c):
        return ir.Cast(c[1], c[2])

    def functional_cast(self, meta, c):
        args = tuple(c[1] or ())
        if len(args) == 1:
            return ir.Cast(ir.TypeRef(str(c[0])), args[0])
        return ir.Call(str(c[0]), args)

    def type_name(self, meta, c):
        words = [str(t) for t in c if isinstance(t, Token) and t.type in ("QUALIFIER", "TYPE")]
        words = [w for w in words if w not in ("const", "volatile", "__restrict__", "__restrict", "restrict")]
        name = " ".join(words)
        name = re.sub(r"\s+", " ", name).replace("__cltype_", "")
        if name == "unsigned int":
            name = "unsigned"
        pointers = sum(1 for t in c if isinstance(t, Token) and t.type == "POINTER")
        return ir.TypeRef(name, pointers)

    def prefix(self, meta, c):
        return ir.Assign("+=" if str(c[0]) == "++" else "-=", c[1], ir.Num(1))

    def postfix_op(self, meta, c):
        return ir.Assign("+=" if str(c[1]) == "++" else "-=", c[0], ir.Num(1))

    def address_of(self, meta, c):
        return ir.AddrOf(c[0])

    def deref(self, meta, c):
        return ir.Deref(c[0], (meta.start_pos, meta.end_pos))

    def neg(self, meta, c):
        if isinstance(c[0], ir.Num):
            return ir.Num(-c[0].value)
        return ir.Un("-", c[0])

    def lognot(self, meta, c):
        return ir.Un("!", c[0])

    def bitnot(self, meta, c):
        return ir.Un("~", c[0])

    def sizeof_type(self, meta, c):
        size = c[0].size
        return ir.Num(size) if size else ir.Call("sizeof", (ir.Str(str(c[0])),))

    def sizeof_expr(self, meta, c):
        return ir.Call("sizeof", (c[0],))

    def subscript(self, meta, c):
        return ir.Subscript(c[0], c[1], (meta.start_pos, meta.end_pos))

    def call(self, meta, c):
        fn = c[0]
        name = fn.name if isinstance(fn, ir.Name) else str(fn)
        return ir.Call(name, tuple(c[1] or ()), _template_args.get(meta.start_pos, ()))

    def member(self, meta, c):
        return ir.Member(c[0], str(c[1]))

    def args(self, meta, c):
        return list(c)


_RULES = {name: getattr(_ToIR(), name) for name in vars(_ToIR) if not name.startswith("_")}


def _to_ir(tree: Tree):
    """The tree bottom-up through _RULES, as lark's Transformer walks it, without the wrapper it
    builds around a method at every node (a third of the time of a parse)."""
    kids = [_to_ir(c) if isinstance(c, Tree) else c for c in tree.children]
    rule = _RULES.get(tree.data)
    return rule(tree.meta, kids) if rule is not None else Tree(tree.data, kids, tree.meta)


_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def strip_comments(text: str) -> str:
    """Comments inside an expression become spaces of the same length (offsets stay exact)."""
    if "/" not in text:
        return text
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


# `SharedMemory<T>()`, `warpReduce<float, 32>(v)`, `cg::tiled_partition<32>(block)`: a call with
# template arguments (names, numbers, `::`, `*`, no operators); `static_cast<T>(x)` is a cast.
_TEMPLATE_CALL = re.compile(r"\b(?P<name>[A-Za-z_][\w:]*)\s*(?P<args><[\w\s,:*]*>)(?=\s*[({])")


# template arguments of the calls of the expression being transformed, by the call's start
_template_args: dict[int, tuple[str, ...]] = {}


def _drop_template_arguments(src: str) -> str:
    """A call's template arguments become spaces (offsets stay exact) and are kept aside, by the
    call's position, for the Call node (`_template_args`)."""
    def blank(m):
        if m.group("name").endswith("_cast") or m.group("name").split("::")[-1] in ("sizeof", "alignof"):
            return m.group(0)
        args = m.group("args")
        inner = args[1:-1].replace("__cltype_", "")
        _template_args[m.start("name")] = tuple(a.strip() for a in inner.split(",") if a.strip())
        return m.group(0)[: m.start("args") - m.start()] + " " * len(args)
    return _TEMPLATE_CALL.sub(blank, src)


_PARSED: dict = {}          # (text, type names) -> IR or the error: one parse per distinct text a run
_PARSED_MAX = 50_000


def parse_expr(text: str, type_names: frozenset[str] = frozenset()) -> ir.Expr:
    """Parse one C expression. `type_names` are identifiers known to name types
    (template type parameters, typedefs) so that `(T)x` parses as a cast. The IR is immutable, so
    a text parsed once (a loop body read again for every loop around it) is not parsed again."""
    key = (text, type_names)
    got = _PARSED.get(key)
    if got is None:
        try:
            got = _parse_expr(text, type_names)
        except ExprSyntaxError as exc:
            got = exc
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = got
    if isinstance(got, ExprSyntaxError):
        raise ExprSyntaxError(str(got))
    return got


def _parse_expr(text: str, type_names: frozenset[str]) -> ir.Expr:
    text = strip_comments(text)
    src = text
    if type_names:
        # Only casts and cast-like template arguments are renamed, so spans stay exact elsewhere.
        names = "|".join(map(re.escape, sorted(type_names)))
        src = re.sub(r"(?<=[(<])(\s*(?:const\s+)?)(" + names + r")\b(?=\s*\**\s*[)>])",
                     lambda m: m.group(1) + "__cltype_" + m.group(2), text)
    _template_args.clear()
    if "<" in src and ">" in src:
        src = _drop_template_arguments(src)
    if len(src) > MAX_EXPRESSION_CHARS:
        raise ExprSyntaxError(f"expression of {len(src)} characters (after macro expansion); cudalint reads up "
                              f"to {MAX_EXPRESSION_CHARS}")
    try:
        tree = _parser("index.lark").parse(src)
        return _to_ir(tree)
    except LarkError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ExprSyntaxError(first) from None
    except RecursionError:
        raise ExprSyntaxError("expression nested too deeply") from None


def parse_annotation(text: str):
    """Parse the body of a `// cudalint: ...` comment with grammars/annotations.lark."""
    try:
        return _parser("annotations.lark").parse(text)
    except LarkError as exc:
        raise ExprSyntaxError(str(exc).strip().splitlines()[0]) from None
