"""## What it does
Simulates every warp of the launch on each `__shared__` load and store (multi-dimensional
tiles, `extern __shared__` buffers and float2/float4 views included), over the sampled blocks
and the loop iterations that change the pattern, and counts the wavefronts each request needs.
It flags an n-way bank conflict (n >= 2 by default), names the index term responsible, and
spells out the usual fixes for this array.

The model: 32 banks of 4-byte words (bank = word % 32); a wavefront delivers one word per bank;
lanes reading the same word share it (broadcast). Accesses of up to 4 bytes per lane are one
phase of 32 lanes, costing as many wavefronts as the most distinct words one bank must deliver
(that is the n of n-way). 8-byte accesses run in phases of 16 lanes and 16-byte accesses in
phases of 8 lanes, each costing that bank count: a store costs the sum over its phases (ideal one
each); a load serves two neighbouring phases in one wavefront when together they ask no bank for
two words and for at most 128 bytes, and its ideal is the data it delivers in 128-byte
wavefronts. This is what ncu measures on an H100 for the 18 lane patterns, as loads and as
stores, in `bench/bank_patterns.py`.

A thread's accesses of consecutive elements that nvcc merges into one 8- or 16-byte load or store
are counted as the merged request: the unrolled iterations `i` of `s[base + i]` in a loop with a
constant count, and `s[2 * t]` beside `s[2 * t + 1]`, where `base` (or `2 * t`) is a multiple of
the merged width by its own arithmetic. Such a pair is reported once, at its first access.
nvcc often unrolls an outer loop by itself too and merges its iterations, but not always (in
the SASS of the real corpus and the samples: 7 of 8 such loops): the finding then counts the
accesses one by one and says what the merge would make of them.

## Why is this bad?
A bank delivers one 4-byte word per cycle. When the lanes of a warp hit n different words of one
bank, the request is replayed n times: a 32x32 float tile read down a column is 32-way, 32
times the shared-memory time of a row read. A register-tiled GEMM reading
`As[threadIdx.y * 4 + r][k]` with an 8x8 block is 4-way one float at a time; nvcc merges four
values of `k` into one LDS.128, and ncu on an H100 counts 4 wavefronts per such load where 2
would do (2-way).

## Example
```cuda
__shared__ float tile[32][32];
tile[threadIdx.y][threadIdx.x] = in[y * n + x];
__syncthreads();
out[x * n + y] = tile[threadIdx.x][threadIdx.y];   // lanes 32 words apart: 32-way
```

## Use instead
```cuda
__shared__ float tile[32][32 + 1];           // pad the inner dimension: lanes 33 words apart
tile[threadIdx.y][threadIdx.x] = in[y * n + x];
__syncthreads();
out[x * n + y] = tile[threadIdx.x][threadIdx.y];   // conflict-free
```
Swapping the index roles (`tile[threadIdx.y][threadIdx.x]` on the read, the tile stored
transposed) or swizzling the column (`tile[row][col ^ row]` on every store and load) work too.
"""
import sys

from .base import Context, internal, iteration, short, written
from .base import figure as number

CODE = "CL401"
NAME = "shared-bank-conflict"
CATEGORY = "bank-conflict"
SEVERITY = "warning"
EXAMPLE_KERNEL = """
__global__ void example(const float* in, float* out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
$CODE
}
void run(const float* in, float* out, int n) { example<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n); }
"""


def fixes(acc, padding: tuple[int, int] | None = None, term: str | None = None) -> list[str]:
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
    lanes = f"the lanes of a warp are spread by `{short(term, 32)}`: " if term and not internal(term) else ""
    return [f"{lanes}give consecutive lanes consecutive words of `{arr.name}` (a lane stride of one element)",
            f"pad one word every 32 (index `i + i / 32`, `{arr.name}` grown by 1/32)"]


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
        v = sim._scalar(it.value, {**sim.base_env(), it.trip.name: t})    # `stride = blockDim.x >> 1`
        # a value the launch does not give is named by its iteration, never as the variable's value
        out.append(f"{it.var}={v}" if v is not None and not internal(it.var) else iteration(it.var, t))
    return ", ".join(out)


def check(ctx: Context):
    from ..analysis.banks import bank_conflict
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.accesses():
        if acc.space != "shared" or acc.unresolved or (acc.atomic and acc.kind == "store") or acc.forwarded:
            continue
        if sim.error(acc):
            continue
        least = max(2, ctx.options.min_ways)
        bc = bank_conflict(sim, acc, least, details=not ctx.verdicts)
        if bc is None or bc.ways < least:
            continue
        where = _loop_values(sim, acc, bc.worst)
        ways, spread = f"{bc.ways}-way", ""
        if bc.least_ways != bc.ways:
            ways, spread = f"{bc.least_ways}- to {bc.ways}-way", f" (worst at {where})"
        why = ""
        if bc.term is not None and not internal(_show(bc.term, acc)):
            why = f" from `{short(_show(bc.term, acc), 32)}`"
            if bc.term_ways != bc.ways:
                why += f" ({bc.term_ways}-way alone)"
        # the mean wavefronts say more than the ways only across iterations or for 8/16-byte lanes
        figure = ""
        if abs(bc.wavefronts_per_request - bc.ways * bc.ideal_wavefronts) > 0.005:
            figure = f", {number(bc.wavefronts_per_request)} wavefronts/request"
            if bc.phases > 1:
                figure += f" (ideal {number(bc.ideal_wavefronts)}: {4 * bc.phases}-byte lanes)"
        verb = "atomic on" if acc.atomic else acc.kind + " of"
        merged = f" ({bc.merge.describe()})" if bc.merge is not None else ""
        if bc.maybe is not None:
            m = bc.maybe
            merged = (f" ({f'{bc.maybe_ways}-way' if bc.maybe_ways >= 2 else 'conflict-free'} where nvcc unrolls "
                      f"the loop by itself and {m.describe().removeprefix('nvcc ')}"
                      f"{'; `#pragma unroll` makes sure it does' if bc.maybe_ways < 2 else ''})")
        msg = f"{verb} `{short(written(acc))}`: {ways} bank conflict{spread}{figure}{why}{merged}"
        metrics = {
            "ways": bc.ways,
            "least_ways": bc.least_ways,
            "wavefronts_per_request": round(bc.wavefronts_per_request, 2),
            "ideal_wavefronts": round(bc.ideal_wavefronts, 2),
            "requests_simulated": bc.requests,
            "term": _show(bc.term, acc) if bc.term is not None else None,
            "padding": bc.padding[0] if bc.padding and bc.padding[1] == 1 else None,
            "request_bytes": bc.merge.width if bc.merge is not None else acc.width,
            "note": "mean shared-memory wavefronts per warp request over sampled blocks and iterations",
        }
        severity = None
        if acc.array.size_assumed and acc.array.elem_type not in ctx.table.unbound_types and \
                acc.array.elem_type not in {ctx.table.template_bindings.get(n) for n in ctx.table.unbound_types}:
            # the banks a lane meets are its bytes': with an element size the unit does not give (a
            # type of a header not read), the ways are cudalint's (a template type no launch binds
            # is tried at each width a program instantiates, and a finding stands where all make it)
            msg += f" (rests on the size of `{acc.array.elem_type}`, which the unit does not give)"
            metrics["rests_on"] = [acc.array.elem_type]
            severity = "info"
        yield ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc), severity=severity)
