"""Typed IR of C expressions, built from the Lark parse of an expression's text.

The parse gives `Name`/`Member` leaves; the model stage resolves them (locals through the
def-use graph, builtins such as ``threadIdx.x`` to `Sym`) so that an index expression handed to
the analysis contains only `Num`, `Sym` and operators.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import field as _field     # where a class has a member named `field`

# the size of a built-in C/CUDA element type: types.py is the one home of sizes and layouts
from .types import builtin_size as type_size  # noqa: E402,F401
from .types import _WIDTH_NAMED  # noqa: E402


# Integer kinds for C's usual arithmetic conversions: (bits, signed).
INT_KINDS = {
    "int": (32, True), "signed": (32, True), "int32_t": (32, True), "short": (32, True), "char": (32, True),
    "unsigned": (32, False), "unsigned int": (32, False), "uint32_t": (32, False), "uint": (32, False),
    "long": (64, True), "long long": (64, True), "int64_t": (64, True), "ssize_t": (64, True),
    "ptrdiff_t": (64, True),
    # narrower integers are promoted to int in arithmetic
    "int8_t": (32, True), "uint8_t": (32, True), "int16_t": (32, True), "uint16_t": (32, True),
    "signed char": (32, True), "unsigned char": (32, True), "unsigned short": (32, True),
    "unsigned long": (64, False), "unsigned long long": (64, False), "size_t": (64, False), "uint64_t": (64, False),
}
# the fixed-width names whose width is their name (`int32`, `uint64`, `u8`, `s16`), as types.py sizes
# them; narrower than int, they promote to int
INT_KINDS.update({name: (max(8 * size, 32), size < 4 or not name.startswith("u"))
                  for name, size in _WIDTH_NAMED.items()})
FLOAT_TYPES = {"float", "double", "half", "__half", "__nv_bfloat16"}
# the integer limits of <climits> and <cstdint> on the targets nvcc builds for (LP64), and warpSize:
# one value in every thread, whatever header the unit reads them from
STD_CONSTANTS = {
    "warpSize": 32, "CHAR_BIT": 8, "SCHAR_MIN": -2**7, "SCHAR_MAX": 2**7 - 1, "UCHAR_MAX": 2**8 - 1,
    "SHRT_MIN": -2**15, "SHRT_MAX": 2**15 - 1, "USHRT_MAX": 2**16 - 1,
    "INT_MIN": -2**31, "INT_MAX": 2**31 - 1, "UINT_MAX": 2**32 - 1,
    "LONG_MIN": -2**63, "LONG_MAX": 2**63 - 1, "ULONG_MAX": 2**64 - 1,
    "LLONG_MIN": -2**63, "LLONG_MAX": 2**63 - 1, "ULLONG_MAX": 2**64 - 1,
    "INT8_MIN": -2**7, "INT8_MAX": 2**7 - 1, "UINT8_MAX": 2**8 - 1, "INT16_MIN": -2**15,
    "INT16_MAX": 2**15 - 1, "UINT16_MAX": 2**16 - 1, "INT32_MIN": -2**31, "INT32_MAX": 2**31 - 1,
    "UINT32_MAX": 2**32 - 1, "INT64_MIN": -2**63, "INT64_MAX": 2**63 - 1, "UINT64_MAX": 2**64 - 1,
    "SIZE_MAX": 2**64 - 1,
}


@dataclass(frozen=True)
class TypeRef:
    name: str
    pointers: int = 0
    ref: str = ""            # a reference type as written (`&`, `(&)[]`): the parser turns it into pointers

    @property
    def size(self) -> int | None:
        return 8 if self.pointers else type_size(self.name)

    def __str__(self) -> str:
        return self.name + "*" * self.pointers


class Expr:
    """Base of all IR nodes.

    Nodes are immutable and shared: after `if (c) i = i + k;` the value of `i` is
    `c ? i + k : i`, whose two branches hold the same node, so N such statements make a DAG of
    N levels whose tree has 2^N leaves. Everything that visits nodes (walk, hash, printing,
    evaluation) visits each distinct node once.

    Each node class writes its fields in an `__init__` of its own: the one a frozen dataclass makes
    sets each field through `object.__setattr__`, at twice the cost, and a run makes a node for
    every operator and operand of every expression it reads."""

    __slots__ = ()

    def children(self) -> tuple["Expr", ...]:
        return ()

    def walk(self):
        """Each distinct node once, in preorder (where it is first met)."""
        return walk_all((self,))

    def __str__(self) -> str:
        got = self.__dict__.get("_str")
        if got is None:
            from .printer import to_c
            got = self.__dict__["_str"] = to_c(self)
        return got

    def __getstate__(self):
        # what is cached on a node (hash, text, symbols) is rebuilt where it is needed: a string's
        # hash differs from one process to another
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


def named(e: Expr, name: str) -> Expr:
    """A copy of `e` that prints as `name` (and is equal to `e`): a kernel parameter every launch
    passes as `n / 3` is that expression, and a message still calls it by its name."""
    import copy
    c = copy.copy(e)
    c.__dict__["_shown"] = name
    return c


def walk_all(exprs):
    """Each distinct node of the expressions once, in preorder, one after the other (a node met in
    an earlier one is not met again: an access's index, subscripts and guards share most nodes)."""
    seen = set()
    stack = list(reversed(exprs))
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield n
        kids = n.children()
        if kids:
            stack.extend(reversed(kids))


def _cached_hash(cls):
    """A node's hash is computed once (the dataclass hash recurses over the whole subtree on every
    call), and two nodes whose hashes differ are unequal without comparing their subtrees."""
    fields_hash, fields_eq = cls.__hash__, cls.__eq__

    def __hash__(self):
        h = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = fields_hash(self)
        return h

    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__ and __hash__(self) != __hash__(other):
            return False
        return fields_eq(self, other)

    cls.__hash__, cls.__eq__ = __hash__, __eq__
    return cls


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Num(Expr):
    value: int | float

    def __init__(self, value):
        self.__dict__["value"] = value


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Sym(Expr):
    """A value the analysis enumerates: a thread/block coordinate, a launch size, a loop
    trip counter, a kernel parameter, or an unknown (data loaded from memory)."""
    name: str
    kind: str  # thread | block | blockdim | griddim | param | iter | data | unknown
    ctype: str = "int"

    def __init__(self, name, kind, ctype="int"):
        d = self.__dict__
        d["name"], d["kind"], d["ctype"] = name, kind, ctype


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Name(Expr):
    name: str

    def __init__(self, name):
        self.__dict__["name"] = name


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Member(Expr):
    base: Expr
    field: str
    arrow: bool = False         # `p->x` (a member of what `base` points to), not `s.x`
    # Span of the member expression in the text (where a load of it is reported): (start, end) offsets.
    span: tuple[int, int] = _field(default=(0, 0), compare=False)

    def __init__(self, base, field, arrow=False, span=(0, 0)):
        d = self.__dict__
        d["base"], d["field"], d["arrow"], d["span"] = base, field, arrow, span

    def children(self):
        return (self.base,)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Bin(Expr):
    op: str
    left: Expr
    right: Expr

    def __init__(self, op, left, right):
        d = self.__dict__
        d["op"], d["left"], d["right"] = op, left, right

    def children(self):
        return (self.left, self.right)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Un(Expr):
    op: str  # - ! ~
    operand: Expr

    def __init__(self, op, operand):
        d = self.__dict__
        d["op"], d["operand"] = op, operand

    def children(self):
        return (self.operand,)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Cond(Expr):
    cond: Expr
    then: Expr
    other: Expr

    def __init__(self, cond, then, other):
        d = self.__dict__
        d["cond"], d["then"], d["other"] = cond, then, other

    def children(self):
        return (self.cond, self.then, self.other)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]
    targs: tuple[str, ...] = ()      # template arguments as written: `spread<32>(t)` -> ("32",)

    def __init__(self, fn, args, targs=()):
        d = self.__dict__
        d["fn"], d["args"], d["targs"] = fn, args, targs

    def children(self):
        return self.args


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Cast(Expr):
    type: TypeRef
    expr: Expr

    def __init__(self, type, expr):
        d = self.__dict__
        d["type"], d["expr"] = type, expr

    def children(self):
        return (self.expr,)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Subscript(Expr):
    base: Expr
    index: Expr
    # Span of the subscript in the expression text: (start, end) offsets.
    span: tuple[int, int] = field(default=(0, 0), compare=False)

    def __init__(self, base, index, span=(0, 0)):
        d = self.__dict__
        d["base"], d["index"], d["span"] = base, index, span

    def children(self):
        return (self.base, self.index)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class AddrOf(Expr):
    expr: Expr

    def __init__(self, expr):
        self.__dict__["expr"] = expr

    def children(self):
        return (self.expr,)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Deref(Expr):
    expr: Expr
    span: tuple[int, int] = field(default=(0, 0), compare=False)

    def __init__(self, expr, span=(0, 0)):
        d = self.__dict__
        d["expr"], d["span"] = expr, span

    def children(self):
        return (self.expr,)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Assign(Expr):
    op: str  # = += -= ... ; ++ and -- become += 1 / -= 1
    target: Expr
    value: Expr
    post: bool = False      # `k++` / `k--`: the expression's value is the target's before the update

    def __init__(self, op, target, value, post=False):
        d = self.__dict__
        d["op"], d["target"], d["value"], d["post"] = op, target, value, post

    def children(self):
        return (self.target, self.value)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Comma(Expr):
    left: Expr
    right: Expr

    def __init__(self, left, right):
        d = self.__dict__
        d["left"], d["right"] = left, right

    def children(self):
        return (self.left, self.right)


@_cached_hash
@dataclass(frozen=True, eq=True, init=False)
class Str(Expr):
    text: str

    def __init__(self, text):
        self.__dict__["text"] = text


COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def conjuncts(e: Expr):
    """`a && b && c` as a, b, c: each holds where the whole does."""
    if isinstance(e, Bin) and e.op == "&&":
        yield from conjuncts(e.left)
        yield from conjuncts(e.right)
    else:
        yield e


def negate(e: Expr) -> Expr:
    """Logical negation, pushed into comparisons so guards stay readable."""
    if isinstance(e, Bin) and e.op in NEGATED:
        return Bin(NEGATED[e.op], e.left, e.right)
    if isinstance(e, Un) and e.op == "!":
        return e.operand
    if isinstance(e, Bin) and e.op == "&&":
        return Bin("||", negate(e.left), negate(e.right))
    if isinstance(e, Bin) and e.op == "||":
        return Bin("&&", negate(e.left), negate(e.right))
    return Un("!", e)


def free_syms(e: Expr) -> set[Sym]:
    return set(symbols(e))


def shared_nodes(e: Expr) -> frozenset[int]:
    """Ids of the inner nodes an expression reaches by more than one path (kept on the node, which
    keeps them alive): evaluating them once makes a DAG cost its size, not its tree's."""
    got = e.__dict__.get("_shared")
    if got is None:
        seen: set[int] = set()
        shared: set[int] = set()
        stack = [e]
        while stack:
            n = stack.pop()
            kids = n.children()
            if not kids:
                continue
            if id(n) in seen:
                shared.add(id(n))
                continue
            seen.add(id(n))
            stack.extend(kids)
        got = e.__dict__["_shared"] = frozenset(shared)
    return got


def of_type(e: Expr, cls: type) -> tuple:
    """The distinct nodes of a class in an expression, as a walk meets them (kept on the node)."""
    key = "_of_" + cls.__name__
    got = e.__dict__.get(key)
    if got is None:
        found = _gather(e, key, cls, True)
        got = e.__dict__[key] = tuple(found.values())
    return got


def symbols(e: Expr) -> tuple[Sym, ...]:
    """The distinct symbols of an expression, in the order a walk meets them (kept on the node:
    the simulation asks for them at every evaluation)."""
    got = e.__dict__.get("_syms")
    if got is None:
        got = e.__dict__["_syms"] = tuple(_gather(e, "_syms", Sym, False))
    return got


def _gather(e: Expr, key: str, cls: type, by_id: bool) -> dict:
    """The nodes of class `cls` in a walk of `e`, in the order it meets them, keyed by their id
    (`by_id`) or by equality. A node below `e` that keeps its own list under `key` gives that list
    instead of being walked: what it holds comes in the same order, and what was met before stays
    where it was (a node met again is passed over, and what it holds was met with it). A leaf is
    taken as it comes (nothing below it is walked again)."""
    out: dict = {}
    seen: set[int] = set()
    stack = [e]
    while stack:
        n = stack.pop()
        if n.__class__ in _LEAVES:
            if isinstance(n, cls):
                out.setdefault(id(n) if by_id else n, n)
            continue
        i = id(n)
        if i in seen:
            continue
        seen.add(i)
        if n is not e:
            kept = n.__dict__.get(key)
            if kept is not None:
                for x in kept:
                    out.setdefault(id(x) if by_id else x, x)
                continue
        if isinstance(n, cls):
            out.setdefault(i if by_id else n, n)
        kids = n.children()
        if kids:
            stack.extend(reversed(kids))
    return out


def add(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Num) and a.value == 0:
        return b
    if isinstance(b, Num) and b.value == 0:
        return a
    if isinstance(a, Num) and isinstance(b, Num):
        return Num(a.value + b.value)
    return Bin("+", a, b)


def mul(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Num) and a.value == 1:
        return b
    if isinstance(b, Num) and b.value == 1:
        return a
    if isinstance(a, Num) and isinstance(b, Num):
        return Num(a.value * b.value)
    return Bin("*", a, b)


_LEAVES = frozenset({Num, Sym, Name, Str})      # the nodes with nothing below them
