"""## What it does
Flags a global access where threadIdx.x carries a larger memory stride than threadIdx.y (or z)
while threadIdx.y/z carries the unit stride: the row and column roles of the thread index are
swapped. It names the variables to swap.

It is reported only where a warp of the block spans more threads along x than along y (or z):
in a 4 x 4 block a warp is the same 4 x 4 tile whichever index moves fastest, and in a 4 x 8 block
the swap would double the rows a request touches; CL101 reports such an access as it is.

It is the cause of a CL101 finding on the same access, and takes its place: one finding, with
the sectors per request CL101 would have reported among its figures (`--ignore CL102` brings the
CL101 finding back). A CL101 finding on another access whose index uses the same variable says
that this finding's fix fixes it too.

## Why is this bad?
Threads are grouped into warps x-fastest (`linear = x + y*Bx + z*Bx*By`). When x moves a whole
row per step, the 32 lanes of a warp touch 32 different rows: 32 sectors per request instead of
4, the classic threadIdx.y-major trap. The same kernel with x and y swapped is coalesced.

## Example
```cuda
int row = blockIdx.x * blockDim.x + threadIdx.x;
int col = blockIdx.y * blockDim.y + threadIdx.y;
out[row * n + col] = sum;
```

## Use instead
```cuda
int row = blockIdx.y * blockDim.y + threadIdx.y;
int col = blockIdx.x * blockDim.x + threadIdx.x;
out[row * n + col] = sum;
```
"""
import sys

from ..index import ir
from .base import Context, figure, scaled_text, short, written

CODE = "CL102"
NAME = "thread-y-major-access"
CATEGORY = "coalescing"
SEVERITY = "warning"
EXAMPLE_KERNEL = """
__global__ void example(float* out, float sum, int n) {
$CODE
}
void run(float* out, int n) { example<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(out, 1.0f, n); }
"""


SUBSUMES = ("CL101",)


def message(d) -> str:
    """The finding's text, from its facts (the one place it is written)."""
    m, f = d.metrics, d.facts
    axis = f["axis"]
    if f["xs"] and f["ys"]:
        fix = f"swap x and {axis} in `{'`, `'.join(f['xs'] + f['ys'])}`"
    else:
        fix = f"swap x and {axis}"
    # no load/store word: a load and a store of one subscript are one finding
    stride = f.get('stride_x', m['stride_x'])
    if isinstance(stride, str) and not stride.lstrip("-").isdigit():
        # threadIdx.x's stride is the program's expression (`N`): the sectors a trial counted at
        # its value are no figure to quote
        count = f"more sectors/request than the ideal {figure(m['ideal_sectors'])}"
    else:
        count = f"{figure(m['sectors_per_request'])} sectors/request, ideal {figure(m['ideal_sectors'])}"
    return f"`{f['text']}`: threadIdx.x strides {stride}, {axis} 1: {count}; {fix}"


def help(d) -> str | None:
    f = d.facts
    names = [*f.get("xs", ()), *f.get("ys", ())]
    if not names:
        return f"swap threadIdx.x and threadIdx.{f['axis']} (with blockIdx and blockDim) where the index is computed"
    return (f"swap threadIdx.x and threadIdx.{f['axis']} (with blockIdx and blockDim) in the definitions of "
            + ", ".join(f"`{n}`" for n in names) + "; the grid's x and y sizes swap with them")


def x_stride_text(sim, acc, sx: int) -> str:
    """threadIdx.x's stride in elements: the number, or the program's expression for it where it holds
    a value the program does not give (`N`, not 1000)."""
    for t in acc.terms:
        if isinstance(t.coord, ir.Sym) and t.coord.name == "threadIdx.x":
            v = sim._scalar(t.stride)
            if v == sx:
                return scaled_text(sim, t.stride, sx) or str(sx)
    return str(sx)


def _swap_helps(block, axis: str) -> bool:
    """Whether a warp of the block spans more threads along x than along `axis`: only then does
    giving `axis` the large stride put fewer rows in a request. A 4 x 4 block's warp is a 4 x 4
    tile either way round, and in a 4 x 8 block swapping would double the rows a warp touches."""
    bx, by, bz = (max(1, int(b)) for b in block)
    along_x = min(bx, 32)
    along = min(by, max(1, 32 // bx)) if axis == "y" else min(bz, max(1, 32 // (bx * by)))
    return along_x > along


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    said = set()        # `a[r * n + c] *= 2`: the load and the store of one subscript are one finding
    for acc in ctx.accesses():
        place = (acc.path, acc.line, acc.column, acc.array.name, str(acc.written_index))
        if acc.space != "global" or acc.unresolved or place in said:
            continue
        res = sim.result(acc)
        c = res.coalescing
        if c is None or c.ratio < ctx.options.min_ratio:
            continue
        sx = res.strides.get("x")
        if sx is None or abs(sx) <= 1:
            continue
        for axis in ("y", "z"):
            sa = res.strides.get(axis)
            if sa is None or abs(sa) != 1 or not _swap_helps(sim.block, axis):
                continue
            xs = sorted(n for n, d in acc.name_deps.items() if "threadIdx.x" in d and f"threadIdx.{axis}" not in d)
            ys = sorted(n for n, d in acc.name_deps.items() if f"threadIdx.{axis}" in d and "threadIdx.x" not in d)
            d = ctx.diagnostic(me, acc, "", metrics={
                "stride_x": sx, f"stride_{axis}": sa,
                "sectors_per_request": round(c.sectors_per_request, 2), "ideal_sectors": round(c.ideal_sectors, 2),
            }, assumptions=ctx.assumptions_for(acc))
            d.facts = {"text": short(written(acc)), "axis": axis, "xs": xs, "ys": ys,
                       "stride_x": x_stride_text(sim, acc, sx)}
            d.cause = frozenset((n, acc.reaching.get(n, "")) for n in xs)
            d.message = message(d)
            said.add(place)
            yield d
            break
