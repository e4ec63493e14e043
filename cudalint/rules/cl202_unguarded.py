"""## What it does
Finds the threads that exist only because the grid is a ceil-div of the problem size
(`(n + 255) / 256` blocks cover 1024 threads for n = 1000) and flags a global access that those
threads execute, with an index that depends on their coordinate, because no guard stops them.

## Why is this bad?
The excess threads of the last block read or write past the end of the array: an
out-of-bounds access that may fault, corrupt a neighbouring allocation, or go unnoticed.

## Example
```cuda
int i = blockIdx.x * blockDim.x + threadIdx.x;
c[i] = a[i] + b[i];                 // vec_add<<<(n + 255) / 256, 256>>>
```

## Use instead
```cuda
int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < n) c[i] = a[i] + b[i];
```
"""
import sys

from .base import Context, fmt_thread, short, written

CODE = "CL202"
NAME = "unguarded-global-access"
CATEGORY = "range"
SEVERITY = "error"
EXAMPLE_KERNEL = """
__global__ void vec_add(const float* a, const float* b, float* c, int n) {
$CODE
}
// cudalint: param n=1000
void run(const float* a, const float* b, float* c, int n) { vec_add<<<(n + 255) / 256, 256>>>(a, b, c, n); }
"""


def guard(acc, ex) -> str:
    """The bounds check for this access, in the user's names: `if (i < n)` where `i` is the index
    variable that runs along the axis whose grid was rounded up and `n` the size it was rounded from."""
    axis = f"threadIdx.{ex.axis}"
    names = [n for n, deps in acc.name_deps.items() if deps == {axis}]
    subject = names[0] if len(names) == 1 else "…"
    return f"if ({subject} < {ex.extent_text})"


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.accesses():
        if acc.space != "global" or acc.unresolved:
            continue
        ex = sim.result(acc).excess
        if ex is None:
            continue
        a = ex.axis
        point = fmt_thread(ex.coordinate, {f"blockIdx.{a}", f"threadIdx.{a}"})
        msg = (f"{acc.kind} of `{short(written(acc))}` runs unguarded past {ex.extent_text} = {ex.extent} "
               f"(index {ex.index} at {point}); add `{guard(acc, ex)}`")
        yield ctx.diagnostic(me, acc, msg, metrics={"extent": ex.extent, "threads": ex.covered, "index": ex.index,
                                                    "guard": guard(acc, ex)},
                             assumptions=ctx.assumptions_for(acc))
