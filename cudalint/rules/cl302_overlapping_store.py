"""## What it does
Evaluates a store's index for every thread of a block in the same iteration and flags two
threads that write the same element, where the table gives each thread its own. Threads that
compute one value store nothing the other loses: those that differ only on threadIdx axes the
value does not follow, and those whose value is made of the same things (the same addresses
loaded, the same values of the locals it reads: `mean[g] = sum[g] * inv` in every thread of
group g). A value read from the array being stored to may be another writer's, and counts as
its own.

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
            continue      # which threads store depends on data the model does not follow
        ov = sim.result(acc).overlap
        if ov is None:
            continue
        a, b = ov.threads
        keep = {k for k in a if k.startswith("threadIdx") and sim.block["xyz".index(k[-1])] > 1}
        # the element's number holds a size the program does not give: it is no figure to quote
        made = invented(sim, [acc.index], acc.loops)
        where = "one element" if made else f"element {ov.element}"
        msg = (f"{fmt_thread(a, keep)} and {fmt_thread(b, keep).removeprefix('thread ')} both store to {where} "
               f"through `{short(written(acc))}` ({ov.writers} writers in one step)")
        metrics = {"writers": ov.writers} if made else {"element": ov.element, "writers": ov.writers}
        d = ctx.diagnostic(me, acc, msg, metrics=metrics,
                           assumptions=ctx.assumptions_for(acc))
        d.facts = {"thread_free": not any(s.kind == "thread" for s in ir.symbols(acc.index)),
                   "axes": sorted(k for k in keep)}
        yield d
