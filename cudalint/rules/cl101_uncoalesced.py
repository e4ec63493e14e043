"""## What it does
Simulates each warp of the launch on a global load or store and counts the 32-byte sectors a
request touches (lanes linearized x-fastest, element size and vector width included). It flags
the access when that is at least 2x the ideal: the bytes the active lanes ask for, divided by 32.
An access every lane of a row reads at one address (a broadcast along threadIdx.x) is not
flagged: in a block narrower than a warp its two or four rows cost one sector each, and no term
of the index spreads the lanes. A load of what the same thread stored to those bytes just
before, with no barrier, atomic or other pointer's store between, reads a register, not memory,
and is not counted.

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
from ..analysis.results import SECTOR, WARP
from .base import Context, figure, internal, invented, open_names, scaled_text, short, written
from .causes import rendered

CODE = "CL101"
NAME = "uncoalesced-global-access"
CATEGORY = "coalescing"
SEVERITY = "warning"
# the kernel the docstring's Example and Use instead run in (tests/test_rule_docs.py): `$CODE` is
# replaced by the snippet, inside a block of its own
EXAMPLE_KERNEL = """
__global__ void example(float* out, float sum, int n, int col) {
  {
$CODE
  }
}
void run(float* out, int n) { example<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(out, 1.0f, n, 0); }
"""


def lane_term(acc, sim):
    """The index term that moves with the lanes of a warp (threadIdx.x, or y when blockDim.x < 32)."""
    # (a block one thread wide along x moves its lanes along y alone: `threadIdx.x * ne0` is 0)
    axes = (["threadIdx.x"] if sim.block[0] > 1 else []) + (["threadIdx.y"] if sim.block[0] < 32 else [])
    for axis in axes:
        for t in acc.terms:
            if any(s.name == axis for s in ir.symbols(t.coord)):
                return t
    return None


def lane_names(acc) -> frozenset:
    """The variables of the index that follow threadIdx.x, each with the definition that reaches the
    access: two accesses sharing one are uncoalesced for one cause, and one rewrite fixes both."""
    return frozenset((n, acc.reaching.get(n, "")) for n, deps in acc.name_deps.items() if "threadIdx.x" in deps)


def message(d) -> str:
    """The finding's text, from its facts (the one place it is written)."""
    m, f = d.metrics, d.facts
    why = ""
    if f.get("group_lanes") and f.get("group_apart"):
        # contiguous runs of lanes: the runs' distance is what costs the sectors, not the lanes'
        why = f"; lanes in runs of {f['group_lanes']}, runs {f['group_apart']} B apart"
    elif m.get("lane_stride_bytes"):
        why = f"; lanes {m['lane_stride_bytes']} B apart"
    elif f.get("lanes_uneven"):
        why = "; lanes unevenly apart"
    if why and f.get("lane_term"):
        why += f" (`{f['lane_term']}`)"
    if f.get("open_figure"):    # the count is a trial's: the lanes' distance holds a value not given
        # and so is an ideal below a whole warp's: fewer lanes ran at the trial's sizes
        ideal = f" {figure(m['ideal_sectors'])}" if m["ideal_sectors"] >= f.get("warp_ideal", 0) else ""
        text = f"{d.access} of `{f['text']}`: more sectors/request than the ideal{ideal}{why}"
    else:
        text = (f"{d.access} of `{f['text']}`: {figure(m['sectors_per_request'])} sectors/request, "
                f"ideal {figure(m['ideal_sectors'])}{why}")
    if m.get("record_fields") or m.get("record_accesses"):
        lines = [n for n in f.get("record_lines") or [] if n != d.line]     # the other fields' lines
        where = (f" (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines[:4]))}"
                 f"{'…' if len(lines) > 4 else ''})") if lines else ""
        verb = 'reads' if d.access == 'load' else 'writes'
        if m.get("record_fields"):
            text += f"; each thread {verb} {m['record_fields']} fields of its record{where}"
        else:
            text += f"; each thread {verb} its record in {m['record_accesses']} runs of fields{where}"
    same = f.get("same_cause_as")
    if same:
        text += f"; same cause as line {same['line']} ({same['code']})"
    return text


def help(d) -> str | None:
    """What to change, in this access's terms."""
    m, f = d.metrics, d.facts
    same = f.get("same_cause_as")
    if same:
        names = ", ".join(f"`{n}`" for n in same.get("names", ()))
        return (f"the fix of line {same['line']} ({same['code']}) fixes this access too"
                + (f": it redefines {names}" if names else ""))
    stride = m.get("lane_stride_bytes")
    if not stride:
        return None
    runs = f.get("group_lanes")
    if runs and runs == f.get("block_x") and runs < 32 and stride == f.get("element_bytes"):
        # the lanes of a row are adjacent already: the block's narrow rows split each warp
        return (f"a warp reads {32 // runs} rows of the block's {runs} lanes each: make the block at "
                f"least 32 threads wide along x so that a warp's lanes stay on one row")
    if isinstance(stride, str):         # a stride the program does not give, as its expression (`4·ld`)
        return (f"adjacent lanes are {stride} B apart: give threadIdx.x the index that moves by one element, "
                f"or load the tile through shared memory and read it from there")
    size = f.get("element_bytes") or 0
    if size and abs(stride) < 32 and abs(stride) % size == 0 and abs(stride) // size in (2, 4):
        n = abs(stride) // size
        return (f"adjacent lanes are {n} elements apart: load {n} elements per lane as one vector "
                f"(`float{n}`-style), or keep each field in an array of its own")
    names = ", ".join(f"`{n}`" for n in f.get("lane_names", ()))
    via = f" through {names}" if names else ""
    return (f"adjacent lanes are {abs(stride)} B apart{via}: give threadIdx.x the index that moves by one element, "
            f"or load the tile through shared memory and read it from there")


def lane_text(sim, acc, lane_bytes, runs: int = 0) -> str | None:
    """How far apart neighbouring lanes' bytes are: a number, or the program's expression for it
    where the lanes' stride holds a value the program does not give (`4·ld`); None where the
    distance is made of such a value and no term of the index writes it (a message never quotes
    a figure cudalint made up). The term whose stride is the distance itself is tried first: in
    `(i % K) * M + (i / K) * K * M` adjacent lanes are M elements apart, not K·M."""
    if lane_bytes is None:
        return None
    axes = _LANE_AXES if sim.block[0] < 32 else _X_AXIS     # a warp spans rows only in a narrow block
    moving = [t for t in acc.terms if any(s.name in axes for s in ir.symbols(t.coord))]
    es = acc.array.elem_size
    fits = []
    dims = sim.base_env()       # a stride of `gridDim.x` too
    for t in moving:
        v = sim._scalar(t.stride, dims)
        if v and lane_bytes % v == 0:
            fits.append((lane_bytes != v * es, t, v))
    if axes is _X_AXIS and (len(fits) > 1 or runs):
        # the terms whose coordinate moves from lane 0 to lane 1 (to the next run's first lane, for
        # runs of lanes) by the distance itself: in `(tid / rows) * maskCols + (tid % rows) * width`
        # the lanes are width apart, whatever the trial's maskCols (a term a division holds still
        # from lane to lane is no distance)
        exact = [f for f in fits if (step := _lane_step(sim, f[1].coord, dims, runs or 1)) is not None
                 and step * f[2] * es == lane_bytes]
        if runs and not exact:
            return None         # no term writes the runs' distance: none is quoted
        fits = exact or fits
    every = [e for t in moving for e in (t.stride, *_lane_factors(t.coord))]
    for _, t, v in sorted(fits, key=lambda f: f[0]):
        said = scaled_text(sim, t.stride, lane_bytes, lane_bytes // v)
        if said is not None:
            return said
        # the term's own move is the distance, or the distance is the sum of several terms' moves
        # (`idx * n + idx % n`: n + 1 elements), which holds whatever any of them holds
        step = _lane_step(sim, t.coord, dims, runs or 1)
        own = step is not None and step * v * es == lane_bytes
        if not invented(sim, [t.stride, *_lane_factors(t.coord)] if own else every, acc.loops):
            return str(lane_bytes)
        if not own:
            return _summed_text(sim, moving, dims, lane_bytes, es, runs or 1)
    if invented(sim, every, acc.loops):
        return _summed_text(sim, moving, dims, lane_bytes, es, runs or 1) if axes is _X_AXIS else None
    return str(lane_bytes)


def _summed_text(sim, moving, dims, lane_bytes: int, es: int, to: int = 1) -> str | None:
    """The lanes' distance as the program's expression where it is the sum of several terms' moves
    from lane 0 to lane `to` (`idx * n + idx % n`: `4·(n + 1)`), each term's stride times its
    coordinate's step; None where a step cannot be read or the sum is not the distance."""
    total = None
    for t in moving:
        step = _lane_step(sim, t.coord, dims, to)
        if step is None:
            return None
        if step:
            part = t.stride if step == 1 else ir.mul(ir.Num(step), t.stride)
            total = part if total is None else ir.add(total, part)
    if total is None:
        return None
    value = sim._scalar(total, dims)
    if value is None or value * es != lane_bytes:
        return None
    return scaled_text(sim, total, lane_bytes, es)


def _lane_step(sim, coord, dims, to: int = 1) -> int | None:
    """How far a term's coordinate moves from lane 0 to lane `to` of the first warp (the block's
    and the loops' other values at 0, the sizes at the trial's): None where it reads what cannot be
    evaluated so."""
    env = dict(dims)
    for s in ir.symbols(coord):
        if s.kind != "param" and s.name not in env:
            env[s.name] = 0
    env["threadIdx.x"] = 0
    a = sim._scalar(coord, env)
    env["threadIdx.x"] = to
    b = sim._scalar(coord, env)
    return None if a is None or b is None else b - a


_LANE_AXES = frozenset(("threadIdx.x", "threadIdx.y"))
_X_AXIS = frozenset(("threadIdx.x",))


def _moves(e) -> bool:
    return any(s.name in _LANE_AXES for s in ir.symbols(e))


def _lane_factors(e) -> list:
    """The parts of a coordinate that set how far it moves from one lane to the next: what
    multiplies, shifts or divides the lane's own part; a sum's parts that do not move with the lanes
    (the block's offset, a grid-stride loop's iterations) do not, nor does a modulus, which only
    says where the lanes wrap (`i % K` moves by one from lane to lane, whatever K is)."""
    if not _moves(e):
        return []
    if isinstance(e, ir.Bin) and e.op in ("+", "-"):
        return _lane_factors(e.left) + _lane_factors(e.right)
    if isinstance(e, ir.Bin) and e.op in ("*", "<<"):
        return [x for side in (e.left, e.right) for x in (_lane_factors(side) if _moves(side) else [side])]
    if isinstance(e, ir.Bin) and e.op == "%":
        return _lane_factors(e.left)
    if isinstance(e, ir.Cast):
        return _lane_factors(e.expr)
    if isinstance(e, ir.Sym):
        return []
    return [e]


def check(ctx: Context):
    sim = ctx.sim
    for acc in ctx.accesses():
        if acc.space != "global" or acc.unresolved or acc.forwarded:
            continue        # (a load of what the thread just stored reads a register)
        res = sim.result(acc)
        c = res.coalescing
        if c is None or c.ratio < ctx.options.min_ratio:
            continue
        if res.strides.get("x") == 0 and sim.block[0] > 1:
            continue    # a broadcast along each row: a block narrower than a warp puts several rows in it

        term = lane_term(acc, sim)
        names = lane_names(acc)
        apart = lane_text(sim, acc, c.lane_stride_bytes) if c.lanes_even else None
        metrics = {
            "sectors_per_request": round(c.sectors_per_request, 2),
            "ideal_sectors": round(c.ideal_sectors, 2),
            "ratio": round(c.ratio, 2),
            "requests_simulated": c.requests,
            "lane_stride_bytes": c.lane_stride_bytes if apart == str(c.lane_stride_bytes) else apart,
            **({} if c.lanes_even else {"lanes_uneven": True}),
            "note": "mean 32-byte sectors per warp request of this access over sampled blocks and iterations",
        }
        d = ctx.diagnostic(sys.modules[__name__], acc, "", metrics=metrics, assumptions=ctx.assumptions_for(acc))
        d.facts = {"text": short(written(acc)),
                   "lane_term": short(str(term), 32) if term is not None and not internal(str(term)) else None,
                   "lane_names": sorted(n for n, _ in names),
                   "element_bytes": None if acc.array.size_assumed else acc.array.elem_size,
                   "lanes_uneven": not c.lanes_even,
                   "warp_ideal": acc.width * WARP // SECTOR,     # a whole warp's sectors, each lane's element apart
                   # the sectors counted rest on a size cudalint chose: the lanes' distance is the
                   # program's expression (`4·D`), or made of such a size with no term to write it
                   "open_figure": isinstance(metrics["lane_stride_bytes"], str) or (c.lanes_even and apart is None)}
        if c.group_lanes:
            d.facts["group_lanes"] = c.group_lanes
            d.facts["group_apart"] = lane_text(sim, acc, c.group_stride, runs=c.group_lanes)
            d.facts["block_x"] = int(sim.block[0])
        d.cause = names
        d.facts["record"] = record_key(acc, c.lane_stride_bytes)
        # a loop that walks the record (`out[i * (3 + c) + j]` over j): the access is a run of fields
        d.facts["record_run"] = _walks_record(acc, c.lane_stride_bytes)
        d.message = message(d)
        if d.facts["open_figure"] and acc.width > acc.array.elem_size and _width_reachable(sim, acc):
            # a vector load or store (`*(uint4*)&x[i * ILP]`) whose lanes lie an open multiple apart:
            # coalesced where that multiple makes the distance the vector's width, the value such a
            # kernel is written for: no warning without the program's value
            d.severity = "info"
            d.metrics["rests_on"] = sorted(open_names(sim, acc.index)) or ["the lanes' distance"]
            d.message += f" (coalesced where the distance is the {acc.width}-byte vector's width)"
        yield d


def _width_reachable(sim, acc) -> bool:
    """threadIdx.x's stride is `k·X` elements for a value X the program leaves open, and some whole
    X >= 1 makes the lanes' distance the access's width: `*(uint4*)&x[threadIdx.x * ILP]` is one
    coalesced 16-byte vector a lane at ILP = 4 (4·8·OC bytes never is)."""
    from ..index.evaluate import Evaluator, Unknown
    names = set(open_names(sim, acc.index))
    for t in acc.terms:
        if t.is_offset or not any(s.name == "threadIdx.x" for s in ir.symbols(t.coord)):
            continue
        inside = [s.name for s in ir.symbols(t.stride) if s.kind == "param" and s.name in names]
        if len(inside) != 1:
            continue
        env = {**sim.base_env(), **{n: sim.param(n) for n in sim.table.launch.params}}

        def at(e, x):
            return int(Evaluator({**env, inside[0]: x}).value(e))
        try:
            one = at(t.stride, 1)
            # X counts the elements each thread of the grid owns: blockIdx.x steps blockDim.x times
            # as far (`(blockIdx.x * blockDim.x + threadIdx.x) * ILP`), not a row pitch of a matrix
            owned = any(getattr(b.coord, "name", None) == "blockIdx.x" and not b.is_offset and
                        all(at(b.stride, x) == sim.block[0] * at(t.stride, x) for x in (1, 2))
                        for b in acc.terms if isinstance(b.coord, ir.Sym))
        except (Unknown, TypeError, ValueError, ArithmeticError):
            continue
        step = one * acc.array.elem_size
        if owned and step > 0 and acc.width % step == 0:
            return True
    return False


def _walks_record(acc, lane_bytes) -> bool:
    """A loop of the thread's steps through its record, by less than the record's length
    (`out[i * (3 + c) + j]` over j, lanes 4·(3 + c) B apart): the access is a run of fields."""
    from ..model.host import fold
    if not isinstance(lane_bytes, int) or lane_bytes <= 0:
        return False
    for t in acc.terms:
        if t.is_offset or not (isinstance(t.coord, ir.Sym) and t.coord.kind == "iter"):
            continue
        step = fold(t.stride)
        if isinstance(step, int) and 0 < abs(step) * acc.array.elem_size < lane_bytes:
            return True
    return False


def record_key(acc, lane_bytes) -> tuple | None:
    """(what makes the access one field of a per-thread record, the field's offset in bytes): the
    index's terms but its constant offset, and the lanes' stride. `p[i * 7 + 0]` ... `p[i * 7 + 6]`
    share the first part and differ in the second, as do the members `v[i].x`, `v[i].y` of a struct."""
    if not lane_bytes:
        return None
    offset = 0
    for t in acc.terms:
        if t.is_offset:
            if not isinstance(t.stride, ir.Num):
                return None
            offset += t.stride.value
    moving = tuple(sorted(str(t) for t in acc.terms if not t.is_offset))
    return (acc.array.name, acc.kind, moving, lane_bytes), offset * acc.array.elem_size + acc.member_offset


def one_per_record(diags: list, every: list | None = None) -> list:
    """The loads (or stores) of one kernel that read the fields of each thread's record
    (`box[0]`, `box[1]`, ... `box[6]` with lanes 28 B apart) have one cause, the record layout: the
    first stands, naming how many fields the others add, and they are left out. `every`: the
    findings before those of a helper inlined into several kernels were said once; the fields a
    kernel reads are counted there (a helper's fields count in each kernel that calls it)."""
    groups = _record_groups(diags)
    full = _record_groups(every) if every is not None else groups
    drop: set = set()
    for gk, ds in groups.items():
        ds = _one_each(ds, drop)
        counted = _one_each(full.get(gk, ds), set())
        offsets = {d.facts["record"][1] for d in counted}
        key = gk[2]
        if len(offsets) < 2 or not isinstance(key[3], int) or max(offsets) - min(offsets) >= abs(key[3]):
            continue
        head = min(ds, key=lambda d: (d.line, d.column))
        others = sorted({d.line for d in counted if d.line != head.line})
        if any(d.facts.get("record_run") for d in counted):
            # loops walk parts of the record: its accesses are counted, not its fields
            head.metrics["record_accesses"] = len(offsets)
        else:
            head.metrics["record_fields"] = len(offsets)
        head.facts["record_lines"] = others
        head.message = rendered(head, message)
        drop |= {id(d) for d in ds if d is not head}
    return [d for d in diags if id(d) not in drop]


def _record_groups(diags: list) -> dict:
    groups: dict = {}
    for d in diags:
        rec = d.facts.get("record") if d.code == CODE and isinstance(d.facts, dict) else None
        if rec is not None:
            groups.setdefault((d.path, d.kernel, rec[0]), []).append(d)
    return groups


def _one_each(ds: list, drop: set) -> list:
    """The findings of a group, one field read twice in one statement (`if (in[d] < 0 || in[d] >
    1)`) as one load: the repeats are added to `drop`."""
    first: dict = {}
    for d in sorted(ds, key=lambda d: (d.line, d.column)):
        same = first.setdefault((d.line, d.facts["record"][1], d.facts.get("text")), d)
        if same is not d:
            drop.add(id(d))
    return [d for d in ds if id(d) not in drop]
