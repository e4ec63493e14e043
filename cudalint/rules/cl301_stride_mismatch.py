"""## What it does
Reads each index as the two-tree table does: terms `coordinate × stride` that should form a
mixed-radix number, each stride equal to the size of the level below it. It flags a term whose
stride is not the span of the terms below it (e.g. `threadIdx.x * TILE_SIZE + regCol` where the
register tile `regCol` is WPT wide), and one global array indexed with two different leading
dimensions.

## Why is this bad?
A stride larger than the level below leaves holes (elements no thread ever touches, and an
index that runs past the tile); a smaller one makes threads or blocks overlap. Two leading
dimensions for one array mean one of the two accesses walks the matrix with the wrong pitch.

## Example
```cuda
int sharedCol = threadIdx.x * TILE_SIZE + regCol;   // regCol in 0..WPT-1
```

## Use instead
```cuda
int sharedCol = threadIdx.x * WPT + regCol;         // stride = size of the Register level
```
"""
import sys

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown
from .base import Context

CODE = "CL301"
NAME = "stride-mismatch"
CATEGORY = "stride"
SEVERITY = "warning"
PAD_ALLOWANCE = 4       # `[TILE][TILE + 1]`-style padding is intended, not a mismatch


def _coord_max(sim, coord: ir.Sym, acc) -> int | None:
    if coord.kind == "thread":
        return sim.block["xyz".index(coord.name[-1])] - 1
    if coord.kind == "block":
        return sim.grid["xyz".index(coord.name[-1])] - 1
    if coord.kind == "iter":
        it = next((i for i in acc.loops if i.trip == coord), None)
        if it is None:
            return None
        s = sim.trip_samples(it, sim.base_env())
        return s[-1] if s else None
    return None


def _params_in(e: ir.Expr) -> frozenset[str]:
    return frozenset(s.name for s in e.walk() if isinstance(s, ir.Sym) and s.kind == "param")


def _numeric(sim, e: ir.Expr, ones: bool) -> int | None:
    env = sim.base_env()
    for s in e.walk():
        if isinstance(s, ir.Sym) and s.kind == "param":
            env[s.name] = 1 if ones else sim.param(s.name)
    try:
        v = np.asarray(Evaluator(env).value(e))
        return int(v) if v.ndim == 0 else None
    except (Unknown, TypeError, ValueError):
        return None


def _level(c: ir.Sym) -> int:
    return {"block": 0, "thread": 1, "iter": 2}[c.kind]


def radix_mismatch(sim, acc, terms):
    """First term whose stride differs from the span of the smaller-stride terms of its group."""
    groups: dict[frozenset, list] = {}
    for t in terms:
        if t.is_offset:
            continue
        key = _params_in(t.stride)
        groups.setdefault(key, []).append(t)
    for key, ts in groups.items():
        if any(not isinstance(t.coord, ir.Sym) for t in ts):
            continue  # an opaque piece (`flat % TILE`): the radix is not plain
        rows = []
        for t in ts:
            c = _numeric(sim, t.stride, ones=True)
            m = _coord_max(sim, t.coord, acc)
            if c is None or m is None or c <= 0:
                break
            rows.append((c, m, t))
        else:
            rows.sort(key=lambda r: (r[0], _level(r[2].coord)))
            c0, m0, _ = rows[0]
            span = c0 * (m0 + 1)   # the lowest term repeats its own stride
            for k in range(1, len(rows)):
                c, m, t = rows[k]
                below = [r[2] for r in rows[:k]]
                mixed = any(_level(b.coord) != _level(t.coord) for b in below)
                if c > span + (PAD_ALLOWANCE if acc.space == "shared" else 0) and mixed:
                    return ("gap", t, below, c, span)
                if c < span and mixed and acc.kind == "store" and \
                        all(x.coord.kind in ("block", "thread") for x in [t, *below]):
                    return ("overlap", t, below, c, span)
                span = max(span, c * (m + 1))
    return None


def _leading_dims(acc) -> frozenset[str] | None:
    keys = {frozenset(s.name for s in t.stride.walk() if isinstance(s, ir.Sym) and s.kind == "param")
            for t in acc.terms if not t.is_offset and isinstance(t.coord, ir.Sym)
            and t.coord.kind in ("block", "thread")}
    keys = {k for k in keys if len(k) == 1}
    return frozenset().union(*keys) if len(keys) == 1 else None


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.table.accesses:
        if acc.unresolved:
            continue
        per_dim = len(acc.dims) > 1
        for k in range(len(acc.dims) if per_dim else 1):
            terms = acc.dim_terms(k) if per_dim else acc.terms
            found = radix_mismatch(sim, acc, terms)
            if not found:
                continue
            kind, t, below, c, span = found
            below_txt = " + ".join(f"`{b}`" for b in below)
            level = {"iter": "the iterator level", "thread": "the Block level", "block": "the Grid level"}
            lower = level[below[-1].coord.kind] if below else "the level below"
            if kind == "gap":
                msg = (f"term `{t}` in `{acc.text}` steps {c} but the terms below it ({below_txt}) span {span}: "
                       f"{c - span} of every {c} elements are skipped; the stride should be {span}, the size of "
                       f"{lower} below")
            else:
                msg = (f"term `{t}` in `{acc.text}` steps {c} but the terms below it ({below_txt}) span {span}: "
                       f"neighbouring {t.coord.name.split('.')[0]} values store to the same elements; "
                       f"the stride should be {span}")
            yield ctx.diagnostic(me, acc, msg, metrics={"stride": c, "expected_stride": span},
                                 assumptions=ctx.assumptions_for(acc))
            break
    # one global array, two leading dimensions
    first: dict[str, tuple] = {}
    for acc in ctx.table.accesses:
        if acc.space != "global" or acc.unresolved:
            continue
        ld = _leading_dims(acc)
        if not ld:
            continue
        name = acc.array.name
        if name not in first:
            first[name] = (ld, acc)
        elif first[name][0] != ld:
            other = first[name][1]
            msg = (f"`{name}` is indexed with leading dimension `{next(iter(ld))}` here but "
                   f"`{next(iter(first[name][0]))}` at line {other.line} (`{other.text}`): one of them walks the "
                   f"matrix with the wrong pitch")
            yield ctx.diagnostic(me, acc, msg, metrics={"leading_dimension": next(iter(ld)),
                                                       "other_leading_dimension": next(iter(first[name][0]))})
