"""## What it does
Simulates every warp of the launch on each `__shared__` load and store (multi-dimensional
tiles, `extern __shared__` buffers and float2/float4 views included), over the sampled blocks
and the loop iterations that change the pattern, and counts the wavefronts each request needs.
It flags an n-way bank conflict (n >= 2 by default), names the index term responsible, and
spells out the usual fixes for this array.

The model: 32 banks of 4-byte words (bank = word % 32); lanes reading the same word share it
(broadcast). Accesses of up to 4 bytes per lane are served as one phase of 32 lanes, 8-byte
accesses as 2 phases of 16 lanes, 16-byte accesses as 4 phases of 8 lanes. A phase costs as
many wavefronts as the most distinct words one bank must deliver (that is the n of n-way); a
request costs the sum over its phases. The ideal is one wavefront per phase.

## Why is this bad?
A bank delivers one 4-byte word per cycle. When the lanes of a warp hit n different words of one
bank, the request is replayed n times: a 32x32 float tile read down a column is 32-way, 32
times the shared-memory time of a row read. A register-tiled GEMM reading
`As[threadIdx.y * 4 + r][k]` with an 8x8 block measures 4.02 wavefronts per request on an H100
(4-way predicted).

## Example
```cuda
__shared__ float tile[32][32];
tile[threadIdx.y][threadIdx.x] = in[...];
__syncthreads();
out[...] = tile[threadIdx.x][threadIdx.y];   // lanes 32 words apart: 32-way
```

## Use instead
```cuda
__shared__ float tile[32][32 + 1];           // pad the inner dimension: lanes 33 words apart
tile[threadIdx.y][threadIdx.x] = in[...];
__syncthreads();
out[...] = tile[threadIdx.x][threadIdx.y];   // conflict-free
```
Swapping the index roles (`tile[threadIdx.y][threadIdx.x]` on the read, the tile stored
transposed) or swizzling the column (`tile[row][col ^ row]` on every store and load) work too.
"""
import sys

from .base import Context, short

CODE = "CL401"
NAME = "shared-bank-conflict"
CATEGORY = "bank-conflict"
SEVERITY = "warning"


def fixes(acc, padding: tuple[int, int] | None = None) -> list[str]:
    """The usual fixes, written for this array and this subscript (with the padding the simulator
    found to work, when it tried)."""
    arr = acc.array
    dims = arr.dims
    if len(dims) >= 2 and all(dims) and len(acc.dim_texts) == len(dims):
        pad, result = padding if padding else (1, None)
        decl = "".join(f"[{d}]" for d in dims[:-1]) + f"[{dims[-1]} + {pad}]"
        effect = "" if result is None else (": conflict-free" if result == 1 else f": {result}-way")
        row, col = acc.dim_texts[-2], acc.dim_texts[-1]
        outer = "".join(f"[{t}]" for t in acc.dim_texts[:-2])
        key = row if row.isidentifier() or row.replace(".", "").isidentifier() else f"({row})"
        key = key if dims[-2] <= dims[-1] else f"{key} % {dims[-1]}"
        return [f"pad the inner dimension (`__shared__ {arr.elem_type} {arr.name}{decl}`{effect})",
                f"swap the index roles (`{arr.name}{outer}[{col}][{row}]`, the tile declared and stored transposed)",
                f"swizzle the column (`{arr.name}{outer}[{row}][{col} ^ {key}]` on every store and load of "
                f"`{arr.name}`)"]
    return ["give consecutive lanes consecutive words (a lane stride of one element, as sequential addressing "
            "`s[tid + offset]` does)",
            f"or pad one word every 32 (index `i + i / 32`, `{arr.name}` grown by 1/32)"]


def _show(term, acc) -> str:
    """A term as the user wrote it: a loop variable's value over its trip counter (`1 << iter(s)`)
    shown as the variable (`s`)."""
    text = str(term)
    for it in acc.loops:
        value = str(it.value)
        if value != it.var and value != it.trip.name:
            text = text.replace(f"({value})", it.var).replace(value, it.var)
    return text


def _loop_values(sim, acc, worst: dict[str, int]) -> str:
    out = []
    for it in acc.loops:
        t = worst.get(it.trip.name)
        if t is None:
            continue
        v = sim._scalar(it.value, {it.trip.name: t})
        out.append(f"{it.var}={v if v is not None else t}")
    return ", ".join(out)


def check(ctx: Context):
    from ..analysis.banks import bank_conflict
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.accesses():
        if acc.space != "shared" or acc.unresolved or (acc.atomic and acc.kind == "store"):
            continue
        if sim.result(acc).error:
            continue
        bc = bank_conflict(sim, acc)
        if bc is None or bc.ways < max(2, ctx.options.min_ways):
            continue
        where = _loop_values(sim, acc, bc.worst)
        ways, spread = f"{bc.ways}-way", ""
        if bc.least_ways != bc.ways:
            ways, spread = f"{bc.least_ways}- to {bc.ways}-way", f" (worst at {where})"
        why = ""
        if bc.term is not None:
            why = f" from `{short(_show(bc.term, acc), 32)}`"
            if bc.term_ways != bc.ways:
                why += f" ({bc.term_ways}-way alone)"
        # the mean wavefronts say more than the ways only across iterations or for 8/16-byte lanes
        figure = ""
        if abs(bc.wavefronts_per_request - bc.ways * bc.ideal_wavefronts) > 0.005:
            figure = f", {bc.wavefronts_per_request:.2f} wavefronts/request"
            if bc.phases > 1:
                figure += f" (ideal {bc.ideal_wavefronts:.2f}: {4 * bc.phases}-byte lanes)"
        verb = "atomic on" if acc.atomic else acc.kind + " of"
        msg = f"{verb} `{short(acc.text)}`: {ways} bank conflict{spread}{figure}{why}"
        metrics = {
            "ways": bc.ways,
            "least_ways": bc.least_ways,
            "wavefronts_per_request": round(bc.wavefronts_per_request, 2),
            "ideal_wavefronts": round(bc.ideal_wavefronts, 2),
            "requests_simulated": bc.requests,
            "term": _show(bc.term, acc) if bc.term is not None else None,
            "padding": bc.padding[0] if bc.padding and bc.padding[1] == 1 else None,
            "note": "mean shared-memory wavefronts per warp request over sampled blocks and iterations",
        }
        yield ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc))
