"""## What it does
Evaluates index arithmetic with C's types for the problem sizes you give (`--param N=65536`
or `// cudalint: param N=65536`) and flags 32-bit (`int`/`unsigned`) arithmetic that passes
2^31-1 before the index reaches the memory access.

## Why is this bad?
`row * N + col` in `int` overflows once the matrix has more than 2^31 elements: signed overflow
is undefined behaviour, and in practice the index wraps negative and the kernel reads or writes
far outside the array.

## Example
```cuda
int row = blockIdx.y * blockDim.y + threadIdx.y;
out[row * N + col] = v;             // 65535 * 65536 > 2147483647
```

## Use instead
```cuda
int row = blockIdx.y * blockDim.y + threadIdx.y;
out[(size_t)row * N + col] = v;     // 64-bit multiply
```
"""
import sys

from ..index import ir
from .base import Context, internal, open_names, short, written

CODE = "CL203"
NAME = "int32-index-overflow"
CATEGORY = "range"
SEVERITY = "error"
EXAMPLE_KERNEL = """
#define N 65536
__global__ void example(float* out, float v) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
$CODE
}
void run(float* out) { example<<<dim3(N / 32, 65536 / 8), dim3(32, 8)>>>(out, 1.0f); }
"""
INT32_MAX = 2**31 - 1


def _given(sim, acc, node) -> bool:
    """Every value the overflowing arithmetic uses comes from the program or the user: its sizes
    (and the bounds of the loops it counts with) are not cudalint's trial values, and the launch
    that bounds its thread and block indexes is known."""
    syms = [s for s in node.walk() if isinstance(s, ir.Sym)]
    for it in acc.loops:
        if it.trip in syms and it.cond is not None:
            syms += [s for s in it.cond.walk() if isinstance(s, ir.Sym)]
    if any(s.kind == "param" and s.name in sim.defaulted_params for s in syms):
        return False
    if any(s.kind in ("thread", "block", "blockdim", "griddim") for s in syms) and not sim.launch_known:
        return False
    grid = sim.table.launch.grid
    if any(s.kind in ("block", "griddim") for s in syms):
        # the blocks' count is the grid's: one sized by values the program does not give (a
        # trial's `B * C * N` rounded up) bounds blockIdx by cudalint's own figures
        if grid is None or any(open_names(sim, g) for g in grid):
            return False
    return True


def help(d) -> str | None:
    f = d.facts
    if not f:
        return None
    what = f"`{f['node']}`" if f.get("node") else "the index"
    return (f"compute {what} in 64 bits: cast its first factor to `size_t` (or `int64_t`), so the multiply "
            f"that reaches {d.metrics['max_value']} is done wide")


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    seen = set()
    # a finding stands for the accesses of its line with the same overflowing node: those of a
    # wanted access's line are read too
    lines = {a.line for a in ctx.accesses()}
    for acc in ctx.table.accesses:
        if acc.unresolved or acc.line not in lines:
            continue
        res = sim.result(acc)
        for ov in sorted(res.overflows, key=lambda o: -o.value)[:1]:
            if not _given(sim, acc, ov.node):
                continue        # an overflow only cudalint's own sizes produce is no finding
            key = (acc.line, str(ov.node))
            if key in seen:
                continue
            seen.add(key)
            ctype = "int" if ov.ctype == "i32" else "unsigned int"
            sizes = ", ".join(f"{k}={v}" for k, v in sorted(sim.params.items())
                              if any(getattr(s, "name", None) == k for s in acc.index.walk()))
            # the node is the expanded index, of any length: named only when it is short
            node = f" (`{ov.node}`)" if len(str(ov.node)) <= 32 else ""
            msg = (f"`{short(written(acc))}`{node}: 32-bit `{ctype}` index reaches {ov.value} > 2^31-1"
                   f"{' for ' + sizes if sizes else ''}; cast to `size_t`")
            d = ctx.diagnostic(me, acc, msg, metrics={"max_value": ov.value, "limit": INT32_MAX},
                               assumptions=ctx.assumptions_for(acc))
            d.facts = {"node": str(ov.node) if len(str(ov.node)) <= 32 and not internal(str(ov.node)) else None,
                       "ctype": ctype}
            yield d
