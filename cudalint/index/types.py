"""Integer constants of the C/C++ types source/types.py lays out: a struct's extents written as
expressions (`float v[N / 4]`), class templates' static members through an alias, folded with the
index grammar. The layouts themselves live in source/types.py (the source layer reads struct
definitions); their names are re-exported here."""
from __future__ import annotations

from ..source import project as _project
from ..source import types as _types
from ..source.types import (  # noqa: F401 - the layouts, by the names other stages import them
    _QUALIFIERS,
    _SCALARS,
    _SCALAR_ALIGN,
    _VECTOR_BASES,
    _VECTOR,
    _WIDTH_NAMED,
    _words,
    builtin_layout,
    builtin_size,
    Member,
    Layout,
    FieldDecl,
    StructDef,
    _TEMPLATE_ID,
    split_top_level,
    TypeTable,
    _vector_members,
    _up,
    BUILTINS,
    template_arguments,
    unit_types,
)


def unit_types(files, constants: dict | None = None) -> TypeTable:
    """The TypeTable of a translation unit, its extents folded by constant_value."""
    return _types.unit_types(files, constants, constant_value)


def alias_constants(constants: dict, typedefs: dict[str, str], table: TypeTable) -> dict:
    """The static members of class templates named through an alias: with `typedef Packed128<float>
    f128;` and Packed128's `static constexpr size_t size = sizeof(int4) / sizeof(ElementType);`,
    `f128::size` is the constant 4 (the member's text folded with the alias's arguments)."""
    from dataclasses import replace
    out = {}
    members: dict[str, list] = {}
    for name, c in constants.items():
        head, _, member = name.rpartition("::")
        if head:
            members.setdefault(head, []).append((member, c))
    if not members:
        return out
    for alias, target in typedefs.items():
        if "<" not in target or f"{alias}::" in constants:
            continue
        got = table._struct(table.resolve(target))
        if got is None or got[0].name not in members:
            continue
        sd, args = got
        bindings = {k: table.resolve(v) for k, v in args.items()}
        for member, c in members[sd.name]:
            v = constant_value(c.text, c.file, c.line, constants, table, bindings)
            if v is not None:
                out[f"{alias}::{member}"] = replace(c, name=f"{alias}::{member}", text=str(v))
    return out


def constant_value(text: str, src, line: int, constants: dict, table: TypeTable | None = None,
                   bindings: dict[str, str] | None = None, _depth: int = 0) -> int | None:
    """An integer constant expression as the compiler folds it (`TILE + 1`, `sizeof(float4) * 2`,
    `N` bound by a template), read with the macros of `src` at `line`; None where any part of it
    is not a constant the unit gives."""
    from .ir import Bin, Call, Cast, Cond, Name, Num, Str, TypeRef, Un
    from .parse import parse_expr
    if _depth > 8:
        return None
    try:
        macros = src.macros.at(line) if src is not None else None
        if macros is not None and macros.uses_macro(text):
            text = macros.expand(text)
        e = parse_expr(text)
    except Exception:               # noqa: BLE001 - a macro or an expression cudalint cannot read: unknown
        return None

    def ev(x):
        cls = x.__class__
        if cls is Num:
            return x.value if isinstance(x.value, int) else None
        if cls is Name:
            if bindings and x.name in bindings:
                b = bindings[x.name].strip()
                return int(b) if b.lstrip("-").isdigit() else None
            c = constants.get(x.name)
            if c is None and "::" in x.name:
                c = constants.get(x.name.split("::")[-1])
            if c is None:
                return None
            return constant_value(c.text, c.file, c.line, constants, table, bindings, _depth + 1)
        if cls is Call and x.fn in ("sizeof", "alignof", "__alignof__") and len(x.args) == 1:
            a = x.args[0]
            tname = a.text if isinstance(a, Str) else a.name if isinstance(a, Name) else None
            if tname is None or table is None:
                return None
            return table.size(tname, bindings) if x.fn == "sizeof" else table.align(tname, bindings)
        if cls is Cast:
            return ev(x.expr) if isinstance(x.type, TypeRef) else None
        if cls is Un:
            v = ev(x.operand)
            return None if v is None else -v if x.op == "-" else (~v if x.op == "~" else int(not v) if x.op == "!"
                                                                    else None)
        if cls is Cond:
            c = ev(x.cond)
            return None if c is None else ev(x.then if c else x.other)
        if cls is Bin:
            a, b = ev(x.left), ev(x.right)
            if a is None or b is None:
                return None
            op = x.op
            if op in ("/", "%") and b == 0:
                return None
            if op in ("<<", ">>") and not 0 <= b < 64:
                return None
            ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                   "/": lambda: int(a / b), "%": lambda: a - b * int(a / b), "<<": lambda: a << b,
                   ">>": lambda: a >> b, "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
                   "<": lambda: int(a < b), "<=": lambda: int(a <= b), ">": lambda: int(a > b),
                   ">=": lambda: int(a >= b), "==": lambda: int(a == b), "!=": lambda: int(a != b),
                   "&&": lambda: int(bool(a and b)), "||": lambda: int(bool(a or b))}
            f = ops.get(op)
            v = f() if f is not None else None
            return v if v is None or abs(v) < 1 << 62 else None
        return None
    try:
        return ev(e)
    except RecursionError:
        return None


# the source layer's project reads a unit's types and alias constants through these (it may not
# import this layer)
_project.TYPE_READERS.update(unit=unit_types, alias=alias_constants)
