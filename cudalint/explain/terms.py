"""An index as written, rewritten as `coordinate x stride` terms with their two-tree levels, and the
seed's max check on it. Names stay as the code spells them (tileId, sCol, TILE_SIZE); their values
come from the model (resolved definitions, iterators, macros, launch sizes)."""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown
from ..index.parse import ExprSyntaxError, parse_expr
from ..index.printer import to_c
from ..index.terms import PAIRED_MEMORY, Term, decompose, has_coord, level_of, memory_beside
from ..model.table import SLIDE, Iterator
from .data import MaxCheck, TermRow

BUILTIN_KINDS = {"threadIdx": "thread", "blockIdx": "block", "blockDim": "blockdim", "gridDim": "griddim"}
LOCAL = "local"     # ctype tag on a Sym that stands for a named index variable of the kernel
SYMBOL = "symbol"   # ctype tag on a Sym for a name nothing defines: a coordinate of unknown range


def map_expr(e: ir.Expr, f: Callable[[ir.Expr], ir.Expr | None]) -> ir.Expr:
    """Rebuild an IR tree bottom-up; `f` returns a replacement for a node or None to keep it."""
    new = f(e)
    if new is not None:
        return new
    if not dataclasses.is_dataclass(e):
        return e
    changes = {}
    for fld in dataclasses.fields(e):
        v = getattr(e, fld.name)
        if isinstance(v, ir.Expr):
            changes[fld.name] = map_expr(v, f)
        elif isinstance(v, tuple) and v and all(isinstance(x, ir.Expr) for x in v):
            changes[fld.name] = tuple(map_expr(x, f) for x in v)
    return dataclasses.replace(e, **changes) if changes else e


def substitute(e: ir.Expr, values: dict[str, ir.Expr]) -> ir.Expr:
    return map_expr(e, lambda n: values.get(n.name) if isinstance(n, ir.Sym) and n.name in values else None)


@dataclass
class Scope:
    """What a written name means at one point of the kernel."""
    locals: dict[str, ir.Expr] = field(default_factory=dict)       # index variable -> resolved value
    iterators: dict[str, Iterator] = field(default_factory=dict)   # loop variable -> its iterator
    constants: dict[str, ir.Expr] = field(default_factory=dict)    # macro / -D name -> value
    params: set[str] = field(default_factory=set)                  # kernel integer parameters
    macros: object = None                                          # MacroTable, for function-like macros
    symbols: set[str] = field(default_factory=set)                 # names nobody defines (filled in)
    slide: set[str] = field(default_factory=set)                   # trip counters of SLIDE iterators
    memory: frozenset[str] | None = None                           # the kernel's memory levels (None: all)


def symbolize(e: ir.Expr, scope: Scope, values: dict[str, ir.Expr]) -> ir.Expr:
    """Written IR -> IR over Syms, names kept; `values` receives each name's resolved value."""
    def f(n):
        match n:
            case ir.Member(base=ir.Name(name=b), field=fld) if b in BUILTIN_KINDS and fld in ("x", "y", "z"):
                return ir.Sym(f"{b}.{fld}", BUILTIN_KINDS[b], "unsigned")
            case ir.Name(name="warpSize"):
                return ir.Num(32)
            case ir.Name(name=name):
                if name in scope.iterators:
                    values[name] = scope.iterators[name].value
                    return ir.Sym(name, "iter")
                if name in scope.locals:
                    v = scope.locals[name]
                    values[name] = v
                    return ir.Sym(name, "iter", LOCAL) if has_coord(v) else ir.Sym(name, "param")
                if name in scope.constants:
                    values[name] = scope.constants[name]
                    return ir.Sym(name, "param")
                if name in scope.params:
                    return ir.Sym(name, "param")
                scope.symbols.add(name)
                return ir.Sym(name, "iter", SYMBOL)
            case ir.Call(fn=fn) if scope.macros is not None and fn in scope.macros:
                try:
                    return symbolize(parse_expr(scope.macros.expand(to_c(n))), scope, values)
                except Exception:  # an expansion that is not an expression: the call stays as written
                    return None
        return None
    return map_expr(e, f)


# Rows read Grid before Block before Thread (then symbols, then offsets)
LEVEL_RANK = {"Grid": 0, "Block": 1, "Thread": 2, "symbol": 3, "offset": 5}


def term_label(level: str, scope: Scope) -> str:
    """A term driven by an execution level: `Block -> Shared` (`Block -> Global` in a kernel with
    no shared memory)."""
    return f"{level} -> {memory_beside(level, scope.memory)}"


def index_label(level: str, scope: Scope) -> str:
    """A named index variable, by the execution level that drives it: the memory it indexes."""
    return f"{memory_beside(level, scope.memory)} index"


def level_rank(label: str) -> int:
    """Where a row's label sits in reading order, whatever memory level it names."""
    if label in LEVEL_RANK:
        return LEVEL_RANK[label]
    if " -> " in label:
        return LEVEL_RANK.get(label.split(" -> ")[0], 4)
    if label.endswith(" index"):
        memory = label[:-len(" index")]
        return next((LEVEL_RANK[e] for e, m in PAIRED_MEMORY.items() if m == memory), 4)
    return 4


def coord_execution(coord: ir.Expr, scope: Scope, values: dict[str, ir.Expr]) -> tuple[str, str]:
    """The execution level that drives a term (index.terms.level_of's, with iterators placed by
    their kind) and how it is read: ("Block", "term"), ("Block", "index") for a named index
    variable, ("symbol", "") or ("offset", "")."""
    syms = [s for s in coord.walk() if isinstance(s, ir.Sym)]
    if isinstance(coord, ir.Sym):
        if coord.kind in ("block", "thread"):
            return level_of(coord), "term"
        if coord.ctype == SYMBOL:
            return "symbol", ""
        if coord.name in scope.iterators and coord.ctype != LOCAL:
            return iterator_level(scope.iterators[coord.name]), "term"
        if coord.ctype == LOCAL:
            v = values.get(coord.name)
            inner = [s for s in v.walk() if isinstance(s, ir.Sym)] if v is not None else []
            kinds = {s.kind for s in inner}
            if "block" in kinds or any(s.kind == "iter" and s.name in scope.slide for s in inner):
                return "Grid", "index"
            if "thread" in kinds:
                return "Block", "index"
            return "Thread", "index"
        if coord.kind == "unknown":
            return "symbol", ""
    kinds = {s.kind for s in syms}
    if "block" in kinds or any(s.kind == "iter" and s.name in scope.slide for s in syms):
        return "Grid", "term"
    if "thread" in kinds or any(s.ctype == LOCAL for s in syms):
        return "Block", "index"
    if "iter" in kinds:
        return "Thread", "index"
    return ("symbol", "") if "unknown" in kinds else ("offset", "")


def coord_level(coord: ir.Expr, scope: Scope, values: dict[str, ir.Expr]) -> str:
    """Where a term sits in the two-tree table: the execution level that drives it and the memory
    level it addresses, or the memory level a named index variable indexes."""
    level, how = coord_execution(coord, scope, values)
    if how == "term":
        return term_label(level, scope)
    if how == "index":
        return index_label(level, scope)
    return level


def iterator_level(it: Iterator) -> str:
    """A loop's execution level: SLIDE moves the grid's tile along global memory; an AREA loop is
    the block's where it moves a global offset, else the thread's."""
    if it.kind == SLIDE:
        return "Grid"
    return "Block" if it.moves_global else "Thread"


def iterator_levels(it: Iterator, memory: frozenset[str] | None = None) -> str:
    level = iterator_level(it)
    return f"{level} -> {memory_beside(level, memory)}"


@functools.lru_cache(maxsize=4096)
def parse_written(text: str) -> ir.Expr | None:
    # IR nodes are frozen: one parse per distinct text serves every access that writes it
    try:
        return parse_expr(text)
    except (ExprSyntaxError, RecursionError):
        return None


@dataclass
class Evaluated:
    """Values of expressions over the simulated threads/iterations of one access."""
    env: dict
    mask: np.ndarray | None = None
    run: Callable | None = None     # exprs -> list of arrays (same shape as mask)

    def scalar(self, e: ir.Expr) -> int | None:
        try:
            v = np.asarray(Evaluator(self.env).value(e))
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError):
            return None
        if v.size != 1:
            return None
        return int(v.reshape(-1)[0])

    def extremes(self, e: ir.Expr) -> tuple[int, int] | None:
        if self.run is None:
            return None
        try:
            v = np.asarray(self.run([e])[0])
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError, MemoryError):
            return None
        m = np.broadcast_to(self.mask, v.shape) if self.mask is not None else np.ones(v.shape, bool)
        if v.dtype == np.float64:
            v = np.floor(v)
        v = v[m]
        if not v.size:
            return None
        return int(v.min()), int(v.max())


def term_rows(written: ir.Expr, scope: Scope, ev: Evaluated) -> tuple[list[Term], list[TermRow], dict]:
    values: dict[str, ir.Expr] = {}
    sym = symbolize(written, scope, values)
    terms = decompose(sym)
    rows = []
    for t in terms:
        stride_v = ev.scalar(substitute(t.stride, values))
        level = "offset" if t.is_offset else coord_level(t.coord, scope, values)
        coord_text = "" if t.is_offset else to_c(t.coord)
        ext = None if t.is_offset else ev.extremes(substitute(t.coord, values))
        mx = None
        if ext is not None and stride_v is not None:
            mx = ext[1] if stride_v >= 0 else ext[0]
        rows.append(TermRow(coord_text, to_c(t.stride), stride_v, level, mx))
    # The two-tree table's reading order: Grid before Block before Register, larger stride first.
    order = sorted(range(len(rows)), key=lambda i: (level_rank(rows[i].level),
                                                    -abs(rows[i].stride_value or 0)))
    return [terms[i] for i in order], [rows[i] for i in order], values


def max_check(rows: list[TermRow], whole: tuple[int, int] | None, limit: int | None,
              limit_text: str) -> MaxCheck | None:
    """The seed's max check, `31*32 + 31 = 1023`: each coordinate at its largest times its stride."""
    if whole is None:
        return None
    parts, total = [], 0
    for r in rows:
        if r.stride_value is None:
            return MaxCheck(str(whole[1]), whole[1], limit, limit_text)
        if r.level == "offset":
            parts.append(str(r.stride_value))
            total += r.stride_value
            continue
        if r.max_coord is None:
            return MaxCheck(str(whole[1]), whole[1], limit, limit_text)
        parts.append(f"{r.max_coord}*{r.stride_value}" if r.stride_value != 1 else str(r.max_coord))
        total += r.max_coord * r.stride_value
    arith = " + ".join(parts).replace("+ -", "- ") if parts else "0"
    return MaxCheck(arith, whole[1], limit, limit_text, bound_only=total != whole[1], total=total)


def check_text(c: MaxCheck) -> str:
    if c.bound_only:
        s = f"{c.arithmetic} = {c.total}; the largest simulated value is {c.value}"
    elif c.arithmetic == str(c.value):
        s = str(c.value)
    else:
        s = f"{c.arithmetic} = {c.value}"
    if c.limit is not None:
        s += f" <= {c.limit} ok" if c.ok else f" > {c.limit} OUT OF RANGE"
    return s + (f"  ({c.limit_text})" if c.limit_text else "")


def pattern_of(name: str, written: ir.Expr, rows: list[TermRow], block: tuple[int, int, int],
               flattened: set[str]) -> str:
    """Flatten -> Stride -> Unflatten, recognised where the code does it."""
    nthreads = block[0] * block[1] * block[2]
    coords = {r.coord: r.stride_value for r in rows if r.level != "offset"}
    if {"threadIdx.x", "threadIdx.y"} <= set(coords) and coords.get("threadIdx.x") == 1 and \
            coords.get("threadIdx.y") == block[0] and all(c.startswith("threadIdx.") for c in coords):
        return "Flatten"
    if any(v == nthreads and c not in flattened for c, v in coords.items()) and \
            any(c in flattened for c in coords):
        return "Stride"
    flat_x = block[1] == 1 and block[2] == 1      # a 1-D block: threadIdx.x is already a flat id
    if isinstance(written, ir.Bin) and written.op in ("%", "/") and any(
            (isinstance(n, ir.Name) and n.name in flattened) or
            (flat_x and isinstance(n, ir.Member) and to_c(n) == "threadIdx.x") for n in written.left.walk()):
        return "Unflatten (column)" if written.op == "%" else "Unflatten (row)"
    return ""


def four_questions(rows: list[TermRow]) -> list[str]:
    """The seed's four questions, answered for `index = execution_index x stride + next_level_index`."""
    coords = [r for r in rows if r.level != "offset"]
    if len(coords) != 2 or coords[0].level.split(" -> ")[0] not in ("Grid", "Block") or " -> " not in coords[0].level \
            or coords[1].stride_value != 1:
        return []
    top, below = coords
    level = top.level.split(" -> ")[1]
    stride = top.stride if top.stride == str(top.stride_value) else f"{top.stride} = {top.stride_value}"
    return [f"Q1 ends at: {level}", f"Q2 execution index: {top.coord}", f"Q3 stride (size below): {stride}",
            f"Q4 next-level index: {below.coord}"]
