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
import re
import sys

from .base import Context, fmt_thread, short

CODE = "CL202"
NAME = "unguarded-global-access"
CATEGORY = "range"
SEVERITY = "error"


def guard(acc, ex) -> str:
    """The bounds check for this access, in the user's names: `if (i < n)` where `i` is the index
    variable that runs along the axis whose grid was rounded up and `n` the size it was rounded from."""
    axis = f"threadIdx.{ex.axis}"
    names = [n for n, deps in acc.name_deps.items() if deps == {axis}]
    subject = names[0] if len(names) == 1 else "…"
    return f"if ({subject} < {ex.extent_text})"


def open_sizes(sim, ex) -> list[str]:
    """The names of the problem size the grid was rounded from that the program does not give:
    the finding then holds for the sizes that are not a multiple of the block, not for one size."""
    names = re.findall(r"[A-Za-z_]\w*", ex.extent_text)
    opened = [n for n in dict.fromkeys(names) if n in sim.family.sizes]
    if any(sim.family.roles.get(n) != "size" for n in opened):
        return []       # a shift count or a mask's power of two: not a size the grid rounds up
    if any(n not in sim.table.params for n in opened):
        # a host value the kernel never receives (`CEIL_DIV(B * T * C, 256)` for a kernel of `NH` and
        # `d`): how it relates to the kernel's own guard is not known, so no condition is stated
        return []
    return opened


def condition(sim, ex) -> str:
    """When the grid adds threads past the size: `n % 256 != 0` (ceil-div rounds up by the block)."""
    edge = sim.block["xyz".index(ex.axis)]
    text = ex.extent_text if re.fullmatch(r"[\w.]+", ex.extent_text) else f"({ex.extent_text})"
    return f"{text} % {edge} != 0"


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
        opened = open_sizes(sim, ex)
        if opened:
            # a size given nowhere: no figure of this trial's size is the program's; the finding is the
            # condition under which the grid's rounding makes threads past the size, which nothing in
            # the program rules out (no guard, no host check)
            cond = condition(sim, ex)
            msg = (f"{acc.kind} of `{short(acc.text)}` runs unguarded past {ex.extent_text} in the threads "
                   f"the rounded-up grid adds when {cond} (nothing in the program rules that out); "
                   f"add `{guard(acc, ex)}`")
            yield ctx.diagnostic(me, acc, msg, metrics={"condition": cond, "guard": guard(acc, ex),
                                                        "open": opened},
                                 assumptions=ctx.assumptions_for(acc), severity="warning")
            continue
        point = fmt_thread(ex.coordinate, {f"blockIdx.{a}", f"threadIdx.{a}"})
        msg = (f"{acc.kind} of `{short(acc.text)}` runs unguarded past {ex.extent_text} = {ex.extent} "
               f"(index {ex.index} at {point}); add `{guard(acc, ex)}`")
        yield ctx.diagnostic(me, acc, msg, metrics={"extent": ex.extent, "threads": ex.covered, "index": ex.index,
                                                    "guard": guard(acc, ex)},
                             assumptions=ctx.assumptions_for(acc))
