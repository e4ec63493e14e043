"""## What it does
Finds a `__shared__` element that one thread of a block stores and another thread reads (or
stores) with no block barrier between the two on some path: in the same pass, or across the
iterations of a loop (the next iteration's store overwrites what other threads still read).
Which thread stores which element and which thread reads it come from simulating the index of
every thread of a block; a read of an element only the same thread stored is fine, and
`__syncwarp()` orders the lanes of one warp only. It reports at the read, naming the store and
the loop.

## Why is this bad?
Threads of a block run at their own pace. Without `__syncthreads()` between a store and another
thread's read, the read may see the old value or the new one: silently wrong results that change
from run to run. The classic case is the second barrier of a tiled loop: without it, fast threads
load the next tile over the one slow threads are still reading.

## Example
```cuda
for (int t = 0; t < numTiles; ++t) {
    As[ty][tx] = A[...];
    Bs[ty][tx] = B[...];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
        sum += As[ty][k] * Bs[k][tx];   // next iteration's store races with this read
}
```

## Use instead
```cuda
for (int t = 0; t < numTiles; ++t) {
    As[ty][tx] = A[...];
    Bs[ty][tx] = B[...];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
        sum += As[ty][k] * Bs[k][tx];
    __syncthreads();                    // everyone is done reading before the next store
}
```
"""
import sys

from ..analysis.races import find_races
from .base import Context, fmt_point

CODE = "CL501"
NAME = "missing-barrier"
CATEGORY = "sync"
SEVERITY = "error"


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    for race in find_races(sim):
        w, r = race.first, race.second
        a, b = race.threads
        keep = {k for k in a if (k.startswith("threadIdx") and sim.block["xyz".index(k[-1])] > 1)}
        verb = "reads" if r.kind == "load" else "stores to"
        barrier = "__syncthreads()"
        if race.same_warp and not race.warp_barrier:
            barrier = "__syncwarp() (both threads are lanes of one warp, which do not run in lockstep since Volta)"
        if race.loop is not None:
            when = (f"in the next iteration of the loop over `{race.loop.var}` (line {race.loop.line}), with no barrier "
                    f"between this {'read' if r.kind == 'load' else 'store'} and that store: add {barrier} at the "
                    f"end of the loop body")
        else:
            loop = next((it for it in reversed(r.loops) if it in w.loops), None)
            inside = f" in the same iteration of the loop over `{loop.var}` (line {loop.line})" if loop else ""
            when = f"with no barrier between them{inside}: add {barrier} between the two"
        if race.warp_barrier:
            when += "; the __syncwarp() between them orders the lanes of one warp only, and these are in different warps"
        if r.array.dims == (1,):      # a `__shared__` scalar
            what, store = f"`{r.array.name}`", f"stores at line {w.line}"
        else:
            what = (f"`{r.array.name}` through `{r.text}` at byte {race.byte} "
                    f"(element {race.byte // r.array.elem_size})")
            store = f"stores through `{w.text}` at line {w.line}"
        msg = f"thread ({fmt_point(b, keep)}) {verb} {what}, which thread ({fmt_point(a, keep)}) {store} {when}"
        metrics = {"store_line": w.line, "element": race.byte // r.array.elem_size,
                   "loop_line": race.loop.line if race.loop is not None else None}
        yield ctx.diagnostic(me, r, msg, metrics=metrics, assumptions=ctx.assumptions_for(r))
