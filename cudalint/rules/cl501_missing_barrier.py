"""## What it does
Finds a `__shared__` element that one thread of a block stores and another thread reads (or
stores) with no block barrier between the two on some path: in the same pass, or across the
iterations of a loop (the next iteration's store overwrites what other threads still read).
Which thread stores which element and which thread reads it come from simulating the index of
every thread of a block; a read of an element only the same thread stored is fine, and
`__syncwarp()` and the warp collectives (`__shfl_*_sync`, `__reduce_*_sync`, votes,
`cg::reduce`) order the lanes of one warp only. It reports at the read, naming the store and
the loop.

## Why is this bad?
Threads of a block run at their own pace. Without `__syncthreads()` between a store and another
thread's read, the read may see the old value or the new one: silently wrong results that change
from run to run. The classic case is the second barrier of a tiled loop: without it, fast threads
load the next tile over the one slow threads are still reading.

## Example
```cuda
for (int t = 0; t < numTiles; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
        sum += As[ty][k] * Bs[k][tx];   // next iteration's store races with this read
}
```

## Use instead
```cuda
for (int t = 0; t < numTiles; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
        sum += As[ty][k] * Bs[k][tx];
    __syncthreads();                    // everyone is done reading before the next store
}
```
"""
import sys

from .base import Context, fmt_thread, invented, loop_name, short, written

CODE = "CL501"
NAME = "missing-barrier"
CATEGORY = "sync"
SEVERITY = "error"
EXAMPLE_KERNEL = """
#define TILE 16
__global__ void example(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  int numTiles = n / TILE;
  float sum = 0.0f;
$CODE
  C[row * n + col] = sum;
}
void run(const float* A, const float* B, float* C) {
  example<<<dim3(64, 64), dim3(TILE, TILE)>>>(A, B, C, 1024);
}
"""


def help(d) -> str | None:
    f = d.facts
    if not f:
        return None
    if f["loop"]:
        return (f"put `{f['barrier']}` at the end of the body of {f['loop']}, so that no thread stores the next "
                f"iteration's values before every thread has read this iteration's")
    who = "warp" if f["barrier"] == "__syncwarp()" else "block"
    if f.get("later_call"):
        return (f"put `{f['barrier']}` between the calls of `{f['later_call']}` (or at its start), where every "
                f"thread of the {who} reaches it, so that no thread stores before every thread has read")
    if f.get("store_after"):
        # the read comes first and the store overwrites what another thread has still to read
        return (f"put `{f['barrier']}` after this {f['verb']} and before the store at line {f['store_line']}, "
                f"where every thread of the {who} reaches it")
    return (f"put `{f['barrier']}` after the store at line {f['store_line']} and before this {f['verb']}, "
            f"where every thread of the {who} reaches it")


def check(ctx: Context):
    from ..analysis.family import uses_axis
    from ..analysis.races import find_races
    sim = ctx.sim
    me = sys.modules[__name__]
    for race in find_races(sim, ctx.wants):
        w, r = race.first, race.second
        a, b = race.threads
        keep = {k for k in a if (k.startswith("threadIdx") and sim.block["xyz".index(k[-1])] > 1)}
        verb = "reads" if r.kind == "load" else "stores to"
        barrier = "__syncthreads()"
        if race.same_warp and not race.warp_barrier:
            barrier = "__syncwarp()"
        # the read (or first store) comes first in program order, and the store overwrites it after:
        # a second call of a helper whose `__shared__` array is the first call's (one per block)
        # (a read and store of one place, `total += v`, is one statement: neither comes first)
        store_after = race.loop is None and r.seq < w.seq and (w.line, w.column) != (r.line, r.column)
        # the store of another call of the helper the read is in
        later_call = w.helper if store_after and w.helper and w.helper == r.helper and w.call != r.call else None
        if race.loop is not None:
            when = f" in the next iteration of {loop_name(race.loop.var)}; add {barrier} at the end of the loop body"
        else:
            loop = next((it for it in reversed(r.loops) if it in w.loops), None)
            inside = f" in one iteration of {loop_name(loop.var)}" if loop else ""
            when = f"{inside}; add {barrier} between"
            if later_call:
                when = f" in a later call of `{w.helper}`; add {barrier} between the calls"
        if race.warp_barrier:
            when += " (the warp-level sync between them orders one warp only)"
        # (1,): a scalar, named alone where the access moves all of it (not one member of a struct)
        whole = r.array.dims == (1,) and r.width >= r.array.elem_size
        what = f"`{r.array.name}`" if whole else f"`{short(written(r), 40)}`"
        msg = f"{fmt_thread(b, keep)} {verb} {what} that {fmt_thread(a, keep)} stores at line {w.line}{when}"
        metrics = {"store_line": w.line, "element": race.byte // r.array.elem_size,
                   "loop_line": race.loop.line if race.loop is not None else None}
        severity = None
        if race.loop is not None:
            # a race across iterations needs a second iteration: where the loop's count is made of
            # values the program does not give (a grid cudalint assumed, a size given nowhere),
            # whether the program ever runs one is not known
            # (a size, by its role, is one a program runs at many values: its loops do repeat)
            made = [n for n in invented(sim, [race.loop.cond, race.loop.start, race.loop.value])
                    if sim.family.roles.get(n) != "size"]
            if made:
                msg += (f" (rests on {', '.join(made)}: {'values' if len(made) > 1 else 'a value'} the program "
                        f"does not give)")
                metrics["rests_on"] = made
                severity = "info"
        if race.warp_barrier and severity is None and sim.family.blocks and not sim.table.launch.block_choices \
                and (uses_axis(sim.table, "threadIdx.y") or uses_axis(sim.table, "threadIdx.z")):
            # which threads of a 2-D or 3-D block share a warp is the shape's (the x extent), here one
            # cudalint tried: the kernel's own warp barrier between them says the program's shape
            # keeps them in one warp (in a 1-D block, lanes 32 apart are in two warps at any size)
            msg += " (rests on the block shape, which the program does not give)"
            metrics["rests_on"] = ["blockDim"]
            severity = "info"
        d = ctx.diagnostic(me, r, msg, metrics=metrics, assumptions=ctx.assumptions_for(r), severity=severity)
        d.facts = {"barrier": barrier, "store_line": w.line, "verb": "read" if r.kind == "load" else "store",
                   "loop": loop_name(race.loop.var) if race.loop is not None else None,
                   "store_after": store_after, "later_call": later_call}
        yield d
