"""Split an index into `coordinate × stride` terms plus an offset (the seed's Index = coord × stride + offset).

A coordinate is a thread/block index, a loop trip counter, or an opaque piece that mixes them
(`flatIdx % TILE`, `tid / 32`); a stride is an expression over constants and launch/problem sizes.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ir

COORD_KINDS = {"thread", "block", "iter"}


@dataclass(frozen=True)
class Term:
    coord: ir.Expr          # Sym of a coordinate, or an opaque sub-expression; Num(1) for the offset
    stride: ir.Expr

    @property
    def is_offset(self) -> bool:
        return isinstance(self.coord, ir.Num)

    def __str__(self) -> str:
        got = self.__dict__.get("_str")      # kept: CL301 groups accesses by their terms' text
        if got is None:
            got = self.__dict__["_str"] = self._text()
        return got

    def _text(self) -> str:
        if self.is_offset:
            return str(self.stride)
        if isinstance(self.stride, ir.Num) and self.stride.value == 1:
            return str(self.coord)
        return f"{_paren(self.coord)} * {_paren(self.stride, right=True)}"


def _paren(e: ir.Expr, right: bool = False) -> str:
    """A factor of `coord * stride` as C reads it: in parentheses where its operator binds less
    tightly than `*` (`(threadIdx.x >> 1) * n`, not `threadIdx.x >> 1 * n`), and on the right
    where it would bind to the left factor first (`i * (n / 2)`)."""
    wrap = isinstance(e, ir.Cond) or (isinstance(e, ir.Bin) and (e.op not in ("*", "/", "%") or
                                                                  (right and e.op != "*")))
    return f"({e})" if wrap else str(e)


def has_coord(e: ir.Expr) -> bool:
    """Kept on each node: splitting an index asks it of every node on the way down, twice for a
    product, and the nodes are shared by the index, the subscripts and the guards. A node's answer
    is its children's (worked out first, without recursion: a DAG may be deep), so each node is
    visited once however many nodes above it are asked."""
    got = e.__dict__.get("_has_coord")
    if got is not None:
        return got
    syms = e.__dict__.get("_syms")
    if syms is not None:
        got = e.__dict__["_has_coord"] = any(n.kind in COORD_KINDS for n in syms)
        return got
    stack = [(e, False)]
    while stack:
        n, kids_done = stack.pop()
        d = n.__dict__
        if "_has_coord" in d:
            continue
        if n.__class__ is ir.Sym:
            d["_has_coord"] = n.kind in COORD_KINDS
            continue
        kids = n.children()
        if kids_done:
            d["_has_coord"] = any(k.__dict__["_has_coord"] for k in kids)
        else:
            stack.append((n, True))
            stack.extend((k, False) for k in kids if "_has_coord" not in k.__dict__)
    return e.__dict__["_has_coord"]


_ONE = ir.Num(1)


def _linear(e: ir.Expr) -> dict[ir.Expr, ir.Expr]:
    """{coordinate: stride}; the key Num(1) holds the offset."""
    if not has_coord(e):
        return {_ONE: e}
    match e:
        case ir.Sym():
            return {e: ir.Num(1)}
        case ir.Cast(type=t, expr=x) if not t.pointers:
            return _linear(x)
        case ir.Bin(op="+", left=l, right=r):
            return _merge(_linear(l), _linear(r), 1)
        case ir.Bin(op="-", left=l, right=r):
            return _merge(_linear(l), _linear(r), -1)
        case ir.Un(op="-", operand=o):
            out = {}
            for k, v in _linear(o).items():    # loops, not comprehensions: those would make cells in every call
                out[k] = _neg(v)
            return out
        case ir.Bin(op="*", left=l, right=r) if not has_coord(l) or not has_coord(r):
            const, var = (l, r) if not has_coord(l) else (r, l)
            out = {}
            for k, v in _linear(var).items():
                out[k] = _fold_mul(const, v)
            return out
        case ir.Bin(op="<<", left=l, right=ir.Num(value=int(s))) if 0 <= s < 64:   # others: undefined in C
            const = ir.Num(2 ** s)
            out = {}
            for k, v in _linear(l).items():
                out[k] = _fold_mul(const, v)
            return out
    return {e: ir.Num(1)}


def _neg(v: ir.Expr) -> ir.Expr:
    return ir.Num(-v.value) if isinstance(v, ir.Num) else _fold_mul(ir.Num(-1), v)


def _fold_mul(a: ir.Expr, b: ir.Expr) -> ir.Expr:
    if isinstance(a, ir.Num) and isinstance(b, ir.Bin) and b.op == "*" and isinstance(b.left, ir.Num):
        return _fold_mul(ir.Num(a.value * b.left.value), b.right)
    if isinstance(b, ir.Num) and not isinstance(a, ir.Num):
        a, b = b, a
    if isinstance(a, ir.Num) and a.value == -1 and not isinstance(b, ir.Num):
        return ir.Un("-", b)
    return ir.mul(a, b)


def _merge(a: dict, b: dict, sign: int) -> dict:
    out = dict(a)
    for k, v in b.items():
        v = v if sign > 0 else _neg(v)
        out[k] = ir.add(out[k], v) if k in out else v
    return out


def decompose(e: ir.Expr) -> list[Term]:
    """Terms ordered as the two-tree table reads them: Grid, Block, iterators, opaque, offset.
    Worked out once per node (accesses, the trial family and the explainer ask for the same
    indexes); each caller gets a list of its own."""
    got = e.__dict__.get("_terms")
    if got is None:
        got = e.__dict__["_terms"] = tuple(_decompose(e))
    return list(got)


def _decompose(e: ir.Expr) -> list[Term]:
    lin = _linear(e)
    terms = [Term(k, v) for k, v in lin.items() if not (isinstance(v, ir.Num) and v.value == 0)]

    def order(t: Term) -> tuple:
        c = t.coord
        if isinstance(c, ir.Sym):
            rank = {"block": 0, "thread": 1, "iter": 2}[c.kind]
        elif t.is_offset:
            rank = 4
        else:
            rank = 3
        return (rank, str(c))
    return sorted(terms, key=order)


# The two trees side by side: each execution level addresses the memory level beside it.
EXECUTION_LEVELS = ("Grid", "Block", "Thread")
PAIRED_MEMORY = {"Grid": "Global", "Block": "Shared", "Thread": "Register"}


def memory_beside(level: str, present: frozenset[str] | None = None) -> str:
    """The memory level an execution level's term addresses: the one beside it in the table, or,
    where the kernel has no such level (no `__shared__` array), the closest one above that it has."""
    memory = PAIRED_MEMORY[level]
    if present is None or memory in present or memory == "Register":
        return memory
    above = [PAIRED_MEMORY[x] for x in EXECUTION_LEVELS[:EXECUTION_LEVELS.index(level)]]
    return next((m for m in reversed(above) if m in present), "Global")


def level_of(coord: ir.Expr) -> str:
    """Execution level a coordinate belongs to in the two-tree table."""
    kinds = {n.kind for n in ir.symbols(coord) if n.kind in COORD_KINDS}
    if "block" in kinds:
        return "Grid"
    if "thread" in kinds:
        return "Block"
    if "iter" in kinds:
        return "Iterator"
    return "Offset"
