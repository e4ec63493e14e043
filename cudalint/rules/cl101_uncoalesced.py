"""## What it does
Simulates each warp of the launch on a global load or store and counts the 32-byte sectors a
request touches (lanes linearized x-fastest, element size and vector width included). It flags
the access when that is at least 2x the ideal: the bytes the active lanes ask for, divided by 32.
An access every lane of a row reads at one address (a broadcast along threadIdx.x) is not
flagged: in a block narrower than a warp its two or four rows cost one sector each, and no term
of the index spreads the lanes.

## Why is this bad?
Global memory is served in 32-byte sectors. When adjacent lanes are far apart, every lane pulls
its own sector and most of each sector is thrown away: a naive matmul whose row comes from
threadIdx.x reads 16.5 sectors per request instead of 2.5 and runs about 12x slower.

## Example
```cuda
int row = blockIdx.x * blockDim.x + threadIdx.x;   // lanes walk down a column
out[row * n + col] = sum;                          // 32 sectors per request
```

## Use instead
```cuda
int row = blockIdx.y * blockDim.y + threadIdx.y;
int col = blockIdx.x * blockDim.x + threadIdx.x;   // adjacent lanes, adjacent addresses
out[row * n + col] = sum;                          // 4 sectors per request
```
"""
import sys

from ..index import ir
from .base import Context, scaled_text, short

CODE = "CL101"
NAME = "uncoalesced-global-access"
CATEGORY = "coalescing"
SEVERITY = "warning"


def lane_term(acc, sim):
    """The index term that moves with the lanes of a warp (threadIdx.x, or y when blockDim.x < 32)."""
    axes = ["threadIdx.x"] + (["threadIdx.y"] if sim.block[0] < 32 else [])
    for axis in axes:
        for t in acc.terms:
            if any(s.name == axis for s in ir.symbols(t.coord)):
                return t
    return None


def lane_text(sim, term, lane_bytes) -> str:
    """How far apart neighbouring lanes' bytes are: a number, or the program's expression for it
    where the lanes' stride holds a value the program does not give (`4·ld`)."""
    if lane_bytes is None or term is None:
        return str(lane_bytes)
    v = sim._scalar(term.stride)
    if not v or lane_bytes % v:
        return str(lane_bytes)
    return scaled_text(sim, term.stride, lane_bytes, lane_bytes // v) or str(lane_bytes)


def check(ctx: Context):
    sim = ctx.sim
    for acc in ctx.accesses():
        if acc.space != "global" or acc.unresolved:
            continue
        res = sim.result(acc)
        c = res.coalescing
        if c is None or c.ratio < ctx.options.min_ratio:
            continue
        if res.strides.get("x") == 0 and sim.block[0] > 1:
            continue    # a broadcast along each row: a block narrower than a warp puts several rows in it

        term = lane_term(acc, sim)
        why = ""
        apart = lane_text(sim, term, c.lane_stride_bytes)
        if c.lane_stride_bytes is not None and c.lane_stride_bytes != 0:
            why = f"; lanes {apart} B apart"
            if term is not None:
                why += f" (`{short(str(term), 32)}`)"
        metrics = {
            "sectors_per_request": round(c.sectors_per_request, 2),
            "ideal_sectors": round(c.ideal_sectors, 2),
            "ratio": round(c.ratio, 2),
            "requests_simulated": c.requests,
            "lane_stride_bytes": c.lane_stride_bytes if apart == str(c.lane_stride_bytes) else apart,
            "note": "mean 32-byte sectors per warp request of this access over sampled blocks and iterations",
        }
        msg = (f"{acc.kind} of `{short(acc.text)}`: {c.sectors_per_request:.2f} sectors/request, "
               f"ideal {c.ideal_sectors:.2f}{why}")
        yield ctx.diagnostic(sys.modules[__name__], acc, msg, metrics=metrics,
                             assumptions=ctx.assumptions_for(acc))
