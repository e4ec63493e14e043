"""## What it does
Flags a block barrier (`__syncthreads()`, `__syncthreads_count/and/or`, a cooperative-groups
`block.sync()`) that some threads of a block never reach: it sits under a condition that
depends on the thread index (or on values computed from it), after an early `break` or
`continue` that some threads take, or inside a loop whose trip count differs between threads.
The guards are evaluated for every thread of sampled blocks and iterations, so a condition on
`blockIdx` or on parameters (uniform across the block) is not a finding. Threads that `return`
early have exited, and exited threads count as arrived at a barrier on sm_70 and later (PTX
`bar.sync`): an early `return` before a barrier is reported only for an older target
(`-D __CUDA_ARCH__=600`; the default is sm_90). The same holds for an `if` that ends the kernel
(`if (i < n) { ...; __syncthreads(); ... }` with nothing after it): the threads that fail the test
exit. Threads that go on to run anything after it do not (compute-sanitizer's synccheck reports
both cases so on an H100).

## Why is this bad?
`__syncthreads()` waits for every thread of the block. When only some threads call it the
behaviour is undefined: the kernel hangs, or the barrier releases early and the data it was
meant to protect is read half-written.

## Example
```cuda
if (threadIdx.x < 16) {
    s[threadIdx.x] = x;
    __syncthreads();          // threads 16.. never arrive
}
```

## Use instead
```cuda
if (threadIdx.x < 16)
    s[threadIdx.x] = x;
__syncthreads();              // every thread of the block arrives
```
"""
import sys

from ..index import ir
from . import cl901_analysis_limit
from .base import Context, fmt_thread, loop_name, short

CODE = "CL502"
NAME = "divergent-barrier"
CATEGORY = "sync"
SEVERITY = "error"
EXAMPLE_KERNEL = """
__global__ void example(const float* in, float* out) {
  __shared__ float s[32];
  float x = in[threadIdx.x];
$CODE
  out[threadIdx.x] = s[threadIdx.x % 16];
}
void run(const float* in, float* out) { example<<<1, 32>>>(in, out); }
"""


def help(d) -> str | None:
    f, m = d.facts, d.metrics
    if not f:
        return None
    if f["exit"]:
        return (f"instead of the early `{f['exit']}` at line {m['exit_line']}, put the work after it under a "
                f"condition, so that every thread of the block reaches `{f['barrier']}`")
    if m.get("loop_line"):
        return (f"give every thread the same trip count (loop to a bound uniform in the block and guard the body), "
                f"or move `{f['barrier']}` out of the loop")
    return f"move `{f['barrier']}` out from under the condition: every thread of the block must reach it"


def _grid_open(sim) -> bool:
    """The grid is computed from a size the program does not give (cudalint tried a value for it)."""
    grid = sim.table.launch.grid
    opened = set(sim.defaulted_params)
    return not sim.grid_known or grid is None or any(
        x.kind == "param" and x.name in opened for g in grid if g is not None for x in ir.symbols(g))


def check(ctx: Context):
    from ..analysis.divergence import divergent_barriers, unfollowed_guard
    sim = ctx.sim
    me = sys.modules[__name__]
    found = divergent_barriers(sim)
    for d in found:
        b = d.barrier
        keep = {k for k in d.reaches if k.startswith("threadIdx") and sim.block["xyz".index(k[-1])] > 1}
        if any(sim.grid[i] > 1 for i in range(3)):
            keep |= {k for k in d.reaches if k.startswith("blockIdx") and sim.grid["xyz".index(k[-1])] > 1}
        threads = {k for k in keep if k.startswith("threadIdx")}
        who = f"{fmt_thread(d.reaches, threads)} reaches it, {fmt_thread(d.misses, threads)} does not"
        blocks = keep - threads
        if blocks and any(d.reaches.get(k) for k in blocks) and \
                all(d.reaches.get(k) == d.misses.get(k) for k in blocks):
            if _grid_open(sim):
                # a block's number in a grid sized from values the program does not give is no figure
                # to quote: the last block, or one
                last = all(d.reaches.get(k) == sim.grid["xyz".index(k[-1])] - 1 for k in blocks)
                who = f"in {'the last block' if last else 'one block'}, {who}"
            else:
                who = f"in block {fmt_thread(d.reaches, blocks).split(' of block ')[1]}, {who}"
        if d.exit is not None:
            why = f"after the early `{d.exit.kind}` at line {d.exit.line}: {who}"
        elif d.loop is not None:
            where = loop_name(d.loop.var)
            where += "" if where.endswith(f"line {d.loop.line}") else f" (line {d.loop.line})"
            why = f"in {where}, whose trip count varies: {who}"
        else:
            why = f"under `{short(str(d.guard), 40)}`: {who}"
        metrics: dict[str, object] = {"exit_line": d.exit.line if d.exit else None,
                                      "loop_line": d.loop.line if d.loop else None}
        tail = _tail_condition(sim, d.guard) if d.exit is None and d.loop is None else None
        loop_cond = d.loop.cond if d.loop is not None else None
        opened = sorted({x.name for x in ir.symbols(loop_cond) if x.kind == "param"} & set(sim.defaulted_params)) \
            if loop_cond is not None else []
        conditional = tail is not None
        if loop_cond is not None and opened and blocks and _grid_open(sim):
            # a grid-stride loop over sizes the program does not give: which threads of the last block
            # run one iteration fewer is a figure of the sizes tried; it is said as the condition it is
            names = " and ".join(f"`{n}`" for n in opened)
            if any(x.kind == "block" for x in ir.symbols(loop_cond)):        # a grid-stride loop
                cond = "the size leaves the last block partly past its end"
                why = (f"in {where}, whose trip count varies with {names}: in the last block, the threads past the "
                       f"end do not reach it whenever {cond}")
            else:                                                               # a block-stride loop
                cond = f"{names} give{'s' if len(opened) == 1 else ''} the threads of a block unequal counts"
                why = (f"in {where}, whose trip count varies with {names}: the threads that run it fewer times do "
                       f"not reach it whenever {cond}")
            metrics["condition"] = cond
            conditional = True
        elif tail is not None:
            # the grid's tail guard: the last block's threads past the size miss the barrier wherever
            # the grid rounds the size up, which no value of the program rules out; no trial's figures
            size, cond = tail
            why = (f"under `{short(str(d.guard), 40)}`: the threads of the last block past {size} do not reach it "
                   f"whenever {cond}")
            metrics["condition"] = cond
        msg = f"`{b.text}` {why}"
        yield ctx.diagnostic(me, None, msg, line=b.line, column=b.column, end=(b.line, b.end_column or b.column),
                             path=b.path or None,
                             metrics=metrics, severity="warning" if conditional else None,
                             assumptions=list(sim.assumptions),
                             facts={"barrier": b.text, "exit": d.exit.kind if d.exit else None,
                                    "guard": short(str(d.guard), 40) if d.exit is None and d.loop is None else None})
    reported = {id(d.barrier) for d in found}
    for b in ctx.table.barriers:
        unfollowed = unfollowed_guard(b) if id(b) not in reported else None
        if unfollowed is not None:
            _, sym = unfollowed
            why = (f"a value loaded from `{sym.name}`" if sym.kind == "data"
                   else f"`{sym.name}`, which the model does not follow")
            yield ctx.diagnostic(cl901_analysis_limit, None,
                                 f"whether every thread of the block reaches `{b.text}` is not checked: a condition "
                                 f"around it depends on {why}",
                                 line=b.line, column=b.column, end=(b.line, b.end_column or b.column),
                                 path=b.path or None)


def _tail_condition(sim, guard) -> tuple[str, str] | None:
    """(size, condition) where the barrier's guard is the grid's tail guard over a size the program
    does not give (`if (i < n)` with `i = blockIdx.x * blockDim.x + threadIdx.x` under a grid of
    `(n + 255) / 256` blocks): the threads past n miss the barrier whenever `n % 256 != 0`. None
    for any other guard, or a block edge cudalint chose."""
    if guard is None or sim.block_chosen:
        return None
    syms = ir.symbols(guard)
    sizes = {x.name for x in syms if x.kind == "param"}
    axes = {x.name[-1] for x in syms if x.name.startswith("blockIdx.")}
    grid = sim.table.launch.grid
    if len(sizes) != 1 or len(axes) != 1 or grid is None:
        return None
    (name,), (axis,) = sizes, axes
    k = "xyz".index(axis)
    if name not in sim.family.sizes or sim.family.roles.get(name) != "size" or \
            name not in {x.name for x in ir.symbols(grid[k]) if x.kind == "param"} or \
            not any(x.name == f"threadIdx.{axis}" for x in syms):
        return None
    return name, f"{name} % {sim.block[k]} != 0"
