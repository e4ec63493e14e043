"""## What it does
Runs the seed's "max check" on every `__shared__` and local (register) array index, for every
thread of the block and the first and last iterations of every loop, honouring the guards, per
dimension of multi-dimensional arrays, and flags an index that leaves the declared extent.

## Why is this bad?
Shared and local arrays have no bounds checks: an index past the end silently reads or writes
a neighbouring array (or another thread's data), and the kernel produces wrong results.

## Example
```cuda
__shared__ float As[32][32];                      // block 8x8, WPT = 4
int sharedCol = threadIdx.x * TILE_SIZE + regCol; // 7*32 + 3 = 227 > 31
acc += As[k][sharedCol];
```

## Use instead
```cuda
int sharedCol = threadIdx.x * WPT + regCol;       // 7*4 + 3 = 31 <= 31
acc += As[k][sharedCol];
```
"""
import sys

from ..index import ir
from .base import Context, fmt_point, short

CODE = "CL201"
NAME = "index-out-of-range"
CATEGORY = "range"
SEVERITY = "error"


def max_check(sim, acc, dim_expr, terms, point, value) -> str:
    """`7*32 + 3 = 227`: each term's coordinate times its stride at the extreme thread."""
    import numpy as np
    from ..index.evaluate import Evaluator, Unknown
    env = sim.point_env(acc, point)
    parts = []
    try:
        for t in terms:
            stride = int(np.asarray(Evaluator(env).value(t.stride)))
            if t.is_offset:
                parts.append(str(stride))
                continue
            c = int(np.asarray(Evaluator(env).value(t.coord)))
            parts.append(f"{c}*{stride}" if stride != 1 else str(c))
    except (Unknown, TypeError, ValueError):
        return str(value)
    text = " + ".join(parts).replace("+ -", "- ") if parts else "0"
    return f"{text} = {value}" if text != str(value) else text


def _where(point: dict[str, int], terms) -> str:
    """The coordinates of the extreme thread that the index's terms use; all of them (blocks aside)
    when the terms name none."""
    kept = {k: v for k, v in point.items() if not k.startswith("blockIdx")}
    used = {s.name for t in terms for s in ir.symbols(t.coord)}
    return fmt_point({k: v for k, v in kept.items() if k in used} or kept)


def _reach_is_open(sim, acc) -> bool:
    """The index, or the bound of a loop or guard around it, names a size the program does not give
    (cudalint tries 1000 for it): how far the index reaches is then a value cudalint made up."""
    open_names = set(sim.defaulted_params)
    if not open_names:
        return False
    exprs = [acc.index, *acc.guards, *(it.cond for it in acc.loops if it.cond is not None)]
    return any(s.kind == "param" and s.name in open_names for e in exprs for s in ir.symbols(e))


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.accesses():
        if acc.space == "global" or acc.unresolved:
            continue
        dims = acc.array.dims
        res = sim.result(acc)
        if not res.ranges or not dims:
            continue
        thread_dependent = any(s.kind == "thread" for s in ir.symbols(acc.index))
        if not sim.launch_known and thread_dependent:
            continue  # extents depend on a block size we only assumed
        if _reach_is_open(sim, acc):
            continue  # how far it reaches is a size nothing in the program gives: no value to report
        per_dim = len(res.ranges) == len(dims) and len(dims) > 1
        checks = list(zip(res.ranges, dims, range(len(dims)))) if per_dim else [(res.ranges[0], acc.array.extent, 0)]
        for r, extent, k in checks:
            if extent is None:
                continue
            expr = acc.dims[k] if per_dim else acc.index
            terms = acc.dim_terms(k) if per_dim else acc.terms
            where = f" dimension {k + 1}" if per_dim else ""
            decl = f"{acc.array.name}" + "".join(f"[{d}]" for d in dims)
            if r.hi > extent - 1:
                mc = max_check(sim, acc, expr, terms, r.at_max, r.hi)
                point = _where(r.at_max, terms)
                msg = f"index{where} of `{short(acc.text)}` reaches {mc} > {extent - 1} (`{decl}`) at {point}"
                yield ctx.diagnostic(me, acc, msg, metrics={"max_index": r.hi, "min_index": r.lo, "extent": extent,
                                                            "dimension": k + 1},
                                     assumptions=ctx.assumptions_for(acc))
                break
            if r.lo < 0:
                mc = max_check(sim, acc, expr, terms, r.at_min, r.lo)
                point = _where(r.at_min, terms)
                msg = f"index{where} of `{short(acc.text)}` reaches {mc} < 0 (`{decl}`) at {point}"
                yield ctx.diagnostic(me, acc, msg, metrics={"max_index": r.hi, "min_index": r.lo, "extent": extent,
                                                            "dimension": k + 1},
                                     assumptions=ctx.assumptions_for(acc))
                break
