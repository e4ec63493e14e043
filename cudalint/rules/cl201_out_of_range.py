"""## What it does
Runs the seed's "max check" on every `__shared__` and local (register) array index, for every
thread of the block and the first and last iterations of every loop, honouring the guards, per
dimension of multi-dimensional arrays, and flags an index that leaves the declared extent.
For global memory it checks the index against the allocation the launch binds to the pointer,
and flags the element a kernel reads at the start of a range (`list[off[i]]`, a CSR row's first
neighbour) when it reads the range's end (`off[i + 1]`) and never compares the two: where the
range is empty the access reads the next one's element, and past the array at the last.

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
__shared__ float As[32][32];
int sharedCol = threadIdx.x * WPT + regCol;       // 7*4 + 3 = 31 <= 31
acc += As[k][sharedCol];
```
"""
import sys

from ..index import ir
from .base import Context, conditions, fmt_point, invented, opaque, short, written

CODE = "CL201"
NAME = "index-out-of-range"
CATEGORY = "range"
SEVERITY = "error"
EXAMPLE_KERNEL = """
#define TILE_SIZE 32
#define WPT 4
__global__ void example(const float* in, float* out) {
  float acc = 0.0f;
  for (int k = 0; k < 32; ++k) {
    for (int regCol = 0; regCol < WPT; ++regCol) {
$CODE
    }
  }
  out[threadIdx.y * 8 + threadIdx.x] = acc;
}
void run(const float* in, float* out) { example<<<1, dim3(8, 8)>>>(in, out); }
"""


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


def help(d) -> str | None:
    """What to change, from the finding's figures."""
    m, f = d.metrics, d.facts
    if not f:
        return None
    where = f"dimension {m['dimension']} of `{f['array']}`" if f["per_dim"] else f"`{f['array']}`"
    if f["above"]:
        last = m.get("last_index", m["max_index"])
        reach = f"the index reaches {m['max_index']}" if last == m["max_index"] else \
            f"the access reaches element {last}"
        return (f"{where} holds {m['extent']} elements and {reach}: declare "
                f"{last + 1} or more, or keep it below {m['extent']}")
    return f"the index of {where} goes down to {m['min_index']}: keep it at 0 or above"


def _uncounted(sim, acc, point: dict) -> list:
    """The loops around the access whose iteration count is not computed (a bound loaded or left
    unknown: their first two iterations are simulated) that the extreme point needs past their
    first iteration: the program may never run them that far."""
    return [it for it in acc.loops if point.get(it.trip.name, 0) > 0 and sim.trip_count(it) is None]


def _reach_is_open(sim, acc) -> bool:
    """The index, or the bound of a loop or guard around it, names a size the program does not give
    (cudalint tries 1000 for it): how far the index reaches is then a value cudalint made up."""
    open_names = set(sim.defaulted_params)
    if not open_names:
        return False
    return any(s.kind == "param" and s.name in open_names for e in _reach_exprs(sim, acc) for s in ir.symbols(e))


def _reach_exprs(sim, acc) -> list:
    """What sets how far an index reaches: the index, the conditions of the loops around it, and
    the guards that bound what the index reads (a thread coordinate, a loop's counter: `if (t <
    p.numBins) s[t]` bounds the index by that value) but the grid's tail guard. A guard the index
    shares nothing with (`if (row >= rows) return;` before `r[it * 4 + 3]`) decides whether a
    thread runs, not how far its index goes; and a guard of the global coordinate against the size
    the grid is rounded up from (`if (i < n)` under `<<<(n + 255) / 256, 256>>>`, `s[t + 1]` in
    it) only keeps the last block's extra threads out: every other block runs whole at any size, so
    the reach inside a block is the kernel's own. Likewise the loops: only those whose counter the
    index reads, or the bounds of such a loop read."""
    grid = sim.table.launch.grid
    sizing = {x.name for g in (grid or ()) if g is not None for x in ir.symbols(g) if x.kind == "param"}
    reads = {x.name for x in ir.symbols(acc.index) if x.kind != "param"}
    counters = []
    for it in reversed(acc.loops):      # a loop counter in the index reads what its loop's bounds read
        if it.trip.name in reads or it.var in reads:
            counters.append(it)
            reads |= {x.name for e in (it.start, it.value, it.cond) if e is not None
                      for x in ir.symbols(e) if x.kind != "param"}
    given = {n for n in sim.params if n not in set(sim.defaulted_params)}
    guards = [g for g in acc.guards if not _tail_guard(g, sizing, given) and
              any(x.name in reads for x in ir.symbols(g) if x.kind != "param")]
    # a loop whose counter the index does not read (`for (m = 0; m < width / 32; m++)` around
    # `Bs[e][col]`) decides how often the access runs, not how far it reaches
    return [acc.index, *(it.cond for it in acc.loops if it.cond is not None and it in counters), *guards]


def _tail_guard(g, sizing: set, given: set) -> bool:
    """A guard of the global coordinate against sizes the grid is rounded up from; the sizes the
    program gives are numbers in it (`index / channels >= rows` with `channels` given)."""
    syms = ir.symbols(g)
    opened = {x.name for x in syms if x.kind == "param" and x.name not in given}
    return bool(opened) and opened <= sizing and any(x.name.startswith("blockIdx.") for x in syms)


def check(ctx: Context):
    said = set()
    for d in _check(ctx):
        # `v[i] += 1` loads and stores one element: its index is said once
        if (d.line, d.column, d.message) not in said:
            said.add((d.line, d.column, d.message))
            yield d


def _check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    ranges = None
    for acc in ctx.accesses():
        if acc.unresolved:
            if acc.space == "global" and _offset_of(acc.index)[0] is not None:
                if ranges is None:
                    ranges = _range_offsets(ctx.table)
                yield from _unchecked_range(ctx, acc, ranges, me)
            continue
        if acc.space == "global":
            yield from _allocation_range(ctx, acc, me)
            continue
        dims = acc.array.dims
        res = sim.result(acc)
        if not res.ranges or not dims:
            continue
        if _reach_is_open(sim, acc):
            continue  # how far it reaches is a size nothing in the program gives: no value to report
        per_dim = len(res.ranges) == len(dims) and len(dims) > 1
        checks = list(zip(res.ranges, dims, range(len(dims)))) if per_dim else [(res.ranges[0], acc.array.extent, 0)]
        for r, extent, k in checks:
            if extent is None:
                continue
            expr = acc.dims[k] if per_dim else acc.index
            if not sim.launch_known and any(s.kind == "thread" for s in ir.symbols(expr)):
                continue  # how far it reaches depends on a block size only assumed (`o[w][p][37]`'s
                #           last subscript does not)
            terms = acc.dim_terms(k) if per_dim else acc.terms
            where = f" dimension {k + 1}" if per_dim else ""
            decl = f"{acc.array.name}" + "".join(f"[{d}]" for d in dims)
            # an access wider than the element (`((ulonglong4*)key)[j]` of `uint32_t key[40]`) runs
            # `span - 1` elements past the index it starts at
            along = not per_dim or k == len(dims) - 1      # the subscript a wide access runs along
            span = max(1, acc.width // acc.array.elem_size) if along and acc.array.elem_size else 1
            last = r.hi + span - 1
            if last <= extent - 1 and r.lo >= 0:
                continue
            # an index whose range is made of a value the program does not give (a loop to `n`):
            # the condition under which it leaves the array, not a finding
            made = invented(sim, [expr, *_reach_exprs(sim, acc)[1:]], acc.loops)
            point_at = r.at_max if r.hi > extent - 1 else r.at_min
            made += [f"the iteration count of the loop over `{it.var}`" for it in _uncounted(sim, acc, point_at)]
            tail = (f" (rests on {', '.join(made)}: {'values' if len(made) > 1 else 'a value'} the program "
                    f"does not give)") if made else ""
            metrics = {"max_index": r.hi, "min_index": r.lo, "extent": extent, "dimension": k + 1, "last_index": last}
            if made:
                metrics["rests_on"] = made
            if last > extent - 1:
                mc = max_check(sim, acc, expr, terms, r.at_max, r.hi)
                point = _where(r.at_max, terms)
                msg = f"index{where} of `{short(written(acc))}` reaches {mc}"
                if span > 1:
                    msg += f" (`{decl}`) at {point}, and its {acc.width}-byte access runs to element {last} > {extent - 1}"
                else:
                    msg += f" > {extent - 1} (`{decl}`) at {point}"
                msg += tail
            else:
                mc = max_check(sim, acc, expr, terms, r.at_min, r.lo)
                point = _where(r.at_min, terms)
                msg = f"index{where} of `{short(written(acc))}` reaches {mc} < 0 (`{decl}`) at {point}{tail}"
            d = ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc),
                               severity="info" if made else None)
            d.facts = {"array": acc.array.name, "per_dim": per_dim, "above": last > extent - 1}
            yield d
            break


def _split_constant(e) -> tuple:
    """`e` as a base and the integer constant added to it (`off[i + 1]`'s index: `i`, 1)."""
    if isinstance(e, ir.Bin) and e.op in ("+", "-") and isinstance(e.right, ir.Num) and \
            isinstance(e.right.value, int):
        return e.left, (e.right.value if e.op == "+" else -e.right.value)
    return e, 0


def _offset_of(e) -> tuple[str | None, int]:
    """An index that is a value loaded from memory plus a constant (`list[beg]`, `list[end - 1]`
    with `beg = off[i]`): the array it was loaded from and the constant."""
    base, c = _split_constant(e)
    if isinstance(base, ir.Sym) and base.kind == "data" and not base.name.endswith(")"):
        return base.name, c
    return None, 0


def _plus_one(a, b) -> bool:
    """`b` is `a + 1` (`off[i]` and `off[i + 1]`, `off[v]` and `off[v + 1]`)."""
    (ea, ca), (eb, cb) = _split_constant(a), _split_constant(b)
    return ea == eb and cb == ca + 1


def _step(e) -> int:
    """The greatest common divisor of the coefficients of the terms of `e` that vary (0 for a
    constant): 1 for `i`, `blockIdx.x * blockDim.x + threadIdx.x`, a loaded `v`; 3 for `i * 3`."""
    from math import gcd
    if isinstance(e, ir.Num):
        return 0
    if isinstance(e, ir.Bin):
        if e.op in ("+", "-"):
            return gcd(_step(e.left), _step(e.right))
        if e.op == "*":
            for k, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(k, ir.Num) and isinstance(k.value, int):
                    return abs(k.value) * _step(other)
            if any(x.kind in ("data", "unknown") for x in ir.symbols(e)):
                return 0        # a factor the model does not follow: no step it can tell
            return _step(e.left) * _step(e.right)
        if e.op == "<<" and isinstance(e.right, ir.Num) and isinstance(e.right.value, int) and 0 <= e.right.value < 32:
            return _step(e.left) << e.right.value
    return 1


def _range_offsets(table) -> dict[str, tuple]:
    """The global arrays the kernel reads as the offsets of ranges whose length it never looks at:
    element `k` and element `k + 1`, where the next `k` is the next range's (a CSR row's start and
    end, `beg = nindex[i]; end = nindex[i + 1];`; not `idx[i * 3]` and `idx[i * 3 + 1]`, two fields
    of one record), and no condition of the kernel, a guard or a loop's, reads a value loaded from
    the array (a loop to `end` handles every length; a kernel that reads the first element apart
    then relies on ranges that are never empty, as the program builds them): name -> the two loads."""
    loads: dict[str, list] = {}
    for a in table.accesses:
        if a.kind == "load" and a.space == "global" and isinstance(a.index, ir.Expr):
            loads.setdefault(a.array.name, []).append(a)       # `off[v]` with `v` loaded too
    compared = {x.name for a in table.accesses for g in conditions(a) for x in ir.symbols(g) if x.kind == "data"}
    out = {}
    for name, accs in loads.items():
        if name in compared:
            continue
        pair = next(((a, b) for a in accs for b in accs if _plus_one(a.index, b.index) and _step(a.index) == 1),
                    None)
        if pair is not None:
            out[name] = pair
    return out


def _unchecked_range(ctx: Context, acc, ranges: dict, me):
    """`list[beg]` with `beg = off[i]`, where the kernel reads `off[i]` and `off[i + 1]` as a
    range's bounds and nothing compares a value read from `off` before the access (no `if (beg <
    end)`, no loop to `end`): where the range is empty the access reads outside it, and where the
    last range is empty, past the end of `list`. The program never establishes that no range is
    empty, so the finding holds for every value it allows."""
    name, c = _offset_of(acc.index)
    if name not in ranges:
        return
    first, second = ranges[name]
    what, span = f"`{short(written(acc))}`", f"a range `{short(first.text)}`..`{short(second.text)}`"
    if c > 0:
        msg = (f"{what} reads {c} past the start of {span} and nothing checks that the range holds that many "
               f"elements: where it does not, the access reads another range's element, and past the end of "
               f"`{acc.array.name}` at the last range")
    elif c < 0:
        msg = (f"{what} reads the element before the first of {span} and nothing checks the range: at the "
               f"first range, that is before the start of `{acc.array.name}`")
    else:
        msg = (f"{what} reads the first element of {span} and nothing checks that the range is not empty: "
               f"where it is, the access reads another range's element, and past the end of "
               f"`{acc.array.name}` where the last range is empty")
    d = ctx.diagnostic(me, acc, msg, metrics={"condition": f"{short(first.text)} == {short(second.text)}"},
                       assumptions=ctx.assumptions_for(acc), severity="warning")
    d.facts = {"array": acc.array.name, "per_dim": False, "above": c >= 0, "range": True}
    yield d


def launch_made(sim, exprs) -> list[str]:
    """The values of the launch that the program does not give and that `exprs` rest on: the
    names of the grid's expression where they read blockIdx or gridDim (`<<<numBlocks, ...>>>` with
    `numBlocks = atoi(argv[3])`), and the block's where they read threadIdx or blockDim and the
    block edge is one cudalint tries. How far such an index reaches is a figure of the trial."""
    kinds = {s.kind for e in exprs if e is not None for s in ir.symbols(e)}
    lc = sim.table.launch
    out: list[str] = []
    if kinds & {"block", "griddim"} and lc.grid is not None:
        out += [s.name for g in lc.grid for s in ir.symbols(g)
                if s.kind == "param" and s.name in sim.family.sizes and s.name not in lc.params]
    if kinds & {"thread", "block", "blockdim"} and sim.block_chosen:
        out += [n for n in sim.family.block_names if n not in out]
    return list(dict.fromkeys(out))


def _allocation_range(ctx: Context, acc, me):
    """A global pointer the launch binds to an allocation: an index below its start, or past the
    elements the host allocated. Figures made of values the program does not give are not quoted."""
    sim = ctx.sim
    res = sim.result(acc)
    if res.allocation is None or not res.ranges:
        return
    extent, size_text = res.allocation
    r = res.ranges[0]
    if any(opaque(c) for c in conditions(acc)):
        return      # a guard cudalint cannot evaluate is taken as running: no range over it is sure
    made = invented(sim, [acc.index, *acc.guards], acc.loops)
    launch = launch_made(sim, [acc.index, *acc.guards, *(it.cond for it in acc.loops if it.cond is not None)])
    made += [n for n in launch if n not in made]
    where = f"`{acc.array.name}` ({size_text} bytes allocated)"
    metrics = {"extent": extent, "allocation": size_text}
    if r.lo < 0:
        point = _where(r.at_min, acc.terms)
        figure = "" if made else f" {max_check(sim, acc, acc.index, acc.terms, r.at_min, r.lo)}"
        msg = f"index of `{short(written(acc))}` reaches{figure} below 0, before {where}, at {point}"
        if not made:
            metrics.update(min_index=r.lo)
        yield ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc))
    elif r.hi > extent - 1:
        sized = {x.name for x in ir.symbols(sim.table.launch.extents[acc.array.name])}
        unrelated = [n for n in made if n not in sized]
        checked = {x.name for c in getattr(sim.table.launch, "host_checks", ()) for x in ir.symbols(c)}
        if unrelated and set(unrelated) <= set(launch) and not set(launch) & (sized | checked) \
                and not any(opaque(c) for c in conditions(acc)):
            # the index grows with a grid the program takes from a value it does not give and does
            # not compute from the allocation's size (a grid rounded up from it is CL202's), and
            # nothing in the kernel or a host check bounds it by the allocation: past its end for
            # every launch with more threads than it holds, a condition on the launch, not a figure
            metrics["open"] = unrelated
            grid = " × ".join(f"`{n}`" for n in launch)
            metrics["condition"] = f"{' * '.join(launch)} threads > elements of {acc.array.name}"
            msg = (f"index of `{short(written(acc))}` grows with the launch ({grid}) and nothing bounds it by "
                   f"{where}: it runs past the end whenever the launch has more threads than that")
            yield ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc),
                                 severity="warning")
            return
        if unrelated:
            # the index grows with a value the allocation's size does not hold, and the program
            # gives neither: how the two compare is not known
            metrics["rests_on"] = unrelated
            return
        # the thread that goes past the end of an allocation of a size the program does not give is
        # one of this trial's size: neither its figures nor the thread are quoted
        point = "" if made else f", at {_where(r.at_max, acc.terms)}"
        figure = (" past its end" if made else
                  f" {max_check(sim, acc, acc.index, acc.terms, r.at_max, r.hi)} > {extent - 1}")
        msg = f"index of `{short(written(acc))}` reaches{figure}, out of {where}{point}"
        if not made:
            metrics.update(max_index=r.hi)
        yield ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc))
