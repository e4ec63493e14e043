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


def message(d) -> str:
    """The finding's text, from its facts (the one place it is written)."""
    f, m = d.facts, d.metrics
    text = (f"{d.access} of `{f['text']}` runs unguarded past {f['extent_text']} = {m['extent']} "
            f"(index {m['index']} at {f['point']}); add `{m['guard']}`")
    same = f.get("same_cause_as")
    if same:
        text += f" (as for column {same['column']})" if same["line"] == d.line else f" (as for line {same['line']})"
    return text


def cause_key(d):
    """Accesses of one statement that one guard fixes: later ones point to the first."""
    return (d.line, d.metrics.get("guard")) if d.metrics.get("guard") and "…" not in d.metrics["guard"] else None


def help(d) -> str | None:
    same = d.facts.get("same_cause_as")
    if same:
        return f"the guard that keeps column {same['column']} in bounds keeps this access in bounds too"
    return None


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
        d = ctx.diagnostic(me, acc, "", metrics={"extent": ex.extent, "threads": ex.covered, "index": ex.index,
                                                 "guard": guard(acc, ex)},
                           assumptions=ctx.assumptions_for(acc),
                           facts={"text": short(written(acc)), "extent_text": ex.extent_text, "point": point})
        d.message = message(d)
        yield d
