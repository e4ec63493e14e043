"""## What it does
Evaluates a store's index for every thread of a block in the same iteration and flags two
threads that write the same element, where the table gives each thread its own. Threads that
compute one value store nothing the other loses: those that differ only on threadIdx axes the
value does not follow, and those whose value is made of the same things (the same addresses
loaded, the same values of the locals it reads: `mean[g] = sum[g] * inv` in every thread of
group g). A value read from the array being stored to may be another writer's, and counts as
its own. A read-modify-write of one element without an atomic (`count[0] = count[0] + 1`) by
the threads a test of loaded data lets through, or by one thread of each block of a grid of
several, loses updates: that is flagged too, as a warning, unless an atomic's result or a lock
lets only one thread in.

## Why is this bad?
Two threads storing to one element race: which value survives is unspecified, and work one of
the threads did is lost. It usually means a stride or a division in the index is wrong.

## Example
```cuda
out[blockIdx.x * blockDim.x + threadIdx.x / 2] = v;   // threads 0 and 1 share an element
```

## Use instead
```cuda
out[blockIdx.x * blockDim.x + threadIdx.x] = v;
```
"""
import sys

from ..index import ir
from .base import Context, fmt_thread, invented, short, written

CODE = "CL302"
NAME = "overlapping-store"
CATEGORY = "stride"
SEVERITY = "error"
EXAMPLE_KERNEL = """
__global__ void example(float* out, const float* in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];   // each thread's own value
$CODE
}
void run(float* out, const float* in) { example<<<4, 256>>>(out, in); }
"""


def help(d) -> str | None:
    f = d.facts
    if not f:
        return None
    if f["thread_free"]:
        return (f"the index does not use threadIdx, so every thread of the block stores there: let one thread "
                f"store it (`if (threadIdx.x == 0)`), or combine the values (atomicAdd, a reduction)")
    return (f"{d.metrics['writers']} threads store to one element: give each thread an element of its own, or "
            f"combine the values (atomicAdd, a reduction)")


def check(ctx: Context):
    from ..analysis.simulate import guards_followed
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.accesses():
        if acc.kind != "store" or acc.atomic or acc.unresolved or acc.space == "local":
            continue
        if not guards_followed(acc.guards):
            # which threads store depends on data the model does not follow; one element that every
            # thread the data lets through reads and writes back is a lost update all the same
            yield from _lost_update(ctx, acc, me)
            continue
        ov = sim.result(acc).overlap
        if ov is None:
            # no two threads of a block meet; the blocks of the grid may
            yield from _lost_update(ctx, acc, me, across_blocks=True)
            continue
        a, b = ov.threads
        keep = {k for k in a if k.startswith("threadIdx") and sim.block["xyz".index(k[-1])] > 1}
        # the element's number holds a size the program does not give: it is no figure to quote
        made = invented(sim, [acc.index], acc.loops)
        where = "one element" if made else f"element {ov.element}"
        thread_free = not any(s.kind == "thread" for s in ir.symbols(acc.index))
        # every thread of a block cudalint tried (no launch gives it) is no count to quote
        block = [e for e in (sim.table.launch.block or ()) if isinstance(e, ir.Expr)]
        tried = thread_free and bool(sim.family.blocks or invented(sim, block))
        count = "every thread of the block" if tried else f"{ov.writers} writers"
        msg = (f"{fmt_thread(a, keep)} and {fmt_thread(b, keep).removeprefix('thread ')} both store to {where} "
               f"through `{short(written(acc))}` ({count} in one step)")
        metrics = {} if tried else {"writers": ov.writers}
        if not made:
            metrics["element"] = ov.element
        d = ctx.diagnostic(me, acc, msg, metrics=metrics,
                           assumptions=ctx.assumptions_for(acc))
        d.facts = {"thread_free": thread_free,
                   "axes": sorted(k for k in keep)}
        yield d


def _lost_update(ctx: Context, acc, me, across_blocks: bool = False):
    """`if (v > best) out[0] = max(out[0], v);`, `p = cnt[0]; cnt[0] = p + 1;`: threads that a test
    of loaded data lets through read one element, the same for all of them, and store a value made
    from it without an atomic. Nothing in the program lets only one of them through (no thread
    coordinate picked by `==`, no test of an atomic's result, no lock), so where two pass, one
    thread's update is lost: a race for every input that lets two threads through.

    `across_blocks`: the guards are the launch's own (one thread of each block: `if (threadIdx.x ==
    0) out[0] = out[0] + part;`): the blocks of a grid of more than one lose each other's updates."""
    from ..analysis.instances import conjuncts
    if acc.space != "global" or any(s.kind not in ("param",) for s in ir.symbols(acc.index)):
        return
    table = ctx.table
    loads = [a for a in table.accesses if a.kind == "load" and a.array is acc.array and a.index == acc.index
             and a.seq < acc.seq and a.guards == acc.guards and not a.atomic]
    if not loads:
        return
    picks = ("block",) if across_blocks else ("thread", "block")
    for g in acc.guards:
        for c in conjuncts(g):
            names = ir.symbols(c)
            if any(s.name.startswith("atomic") for s in names):
                return      # an atomic's result elects one thread
            if isinstance(c, ir.Bin) and c.op == "==" and any(s.kind in picks for s in names):
                return      # one thread, picked by its coordinate
    if any(a.atomic and a.array is not acc.array for a in table.accesses) and \
            any("atomicCAS" in a.statement or "atomicExch" in a.statement for a in table.accesses if a.atomic):
        return      # a lock around the update
    load = loads[-1]
    sim = ctx.sim
    grid = table.launch.grid
    if grid is None:
        return      # no launch: how many threads meet is not known
    sizes = [g.value if isinstance(g, ir.Num) else None for g in grid]
    if across_blocks:
        if all(n == 1 for n in sizes):
            return      # one block
        msg = (f"the blocks of the grid each read `{short(load.text)}` and store `{short(written(acc))}` "
               f"without an atomic: one block's update is lost to another's"
               + ("" if any(n is not None and n > 1 for n in sizes) else " wherever the grid has more than one block"))
        condition = "more than one block"
    else:
        chosen = getattr(sim, "block_chosen", False)
        if not chosen and sim.nthreads == 1 and all(n == 1 for n in sizes):
            return      # one thread: `k<<<1, 1>>>` runs the loop serially
        msg = (f"every thread that a test of loaded data lets through reads `{short(load.text)}` "
               f"and stores `{short(written(acc))}` without an atomic: where two threads pass, one's update is lost"
               + (" (the launch's block is not given: wherever it has more than one thread)" if chosen and
                  all(n == 1 for n in sizes) else ""))
        condition = "two threads pass the test"
    d = ctx.diagnostic(me, acc, msg, metrics={"condition": condition},
                       assumptions=ctx.assumptions_for(acc), severity="warning")
    d.facts = {"thread_free": True, "axes": []}
    yield d
