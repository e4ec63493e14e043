"""## What it does
Reads each index as the two-tree table does: terms `coordinate × stride` that should form a
mixed-radix number, each stride equal to the size of the level below it. It flags a term whose
stride is not the span of the terms below it (e.g. `threadIdx.x * TILE_SIZE + regCol` where the
register tile `regCol` is WPT wide), and one global array indexed with two different leading
dimensions.

Accesses of one array that differ only in their offset are read together: the two loads
`g[i]` and `g[i + blockDim.x]` of a reduction that steps `2 * blockDim.x` per block fill that
stride between them, so they are not reported; a hole that all of them leave is reported once,
at the first, naming the others. Loads are only combined with loads and stores with stores,
and a copy that only part of the block runs (`if (threadIdx.x < 128)`) fills nothing.
Problem sizes given with `--param` are compared by value, so `i * height` steps whole rows of
`width` when the two are equal. A loop that starts a few elements into each row and runs to its
end (`for (j = 1; j < N; j++)` over rows of N, or an interior `1 .. N - 2`) leaves a boundary,
not a hole; two leading dimensions on the two arms of a branch on a kernel argument
(`if (transposed)`) are the two layouts the argument chooses between. A shared-memory row padded
against bank conflicts (`[TILE][TILE + 1]`: up to 4 elements, or one 16-byte vector of a byte
array, `256 + 16`) is padding, not a hole.

## Why is this bad?
A stride larger than the level below leaves holes (elements no thread ever touches, and an
index that runs past the tile); a smaller one makes threads or blocks overlap. Two leading
dimensions for one array mean one of the two accesses walks the matrix with the wrong pitch.

## Example
```cuda
int sharedCol = threadIdx.x * TILE_SIZE + regCol;   // regCol in 0..WPT-1
acc += Bs[k][sharedCol];
```

## Use instead
```cuda
int sharedCol = threadIdx.x * WPT + regCol;         // stride = size of the Register level
acc += Bs[k][sharedCol];
```
"""
import math
import re
import sys
from dataclasses import replace

from ..index import ir
from .base import Context, chosen, internal, invented, open_names, scaled_text, short, written

# numpy and the evaluator are imported where they are used: reading a rule's metadata (every run
# does) does not load the simulation

CODE = "CL301"
NAME = "stride-mismatch"
CATEGORY = "stride"
SEVERITY = "warning"
EXAMPLE_KERNEL = """
#define TILE_SIZE 32
#define WPT 4
__global__ void example(float* out) {
  __shared__ float Bs[32][32];
  Bs[threadIdx.y][threadIdx.x] = 0.0f;
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 32; ++k) {
    for (int regCol = 0; regCol < WPT; ++regCol) {
$CODE
    }
  }
  out[threadIdx.y * 8 + threadIdx.x] = acc;
}
void run(float* out) { example<<<1, dim3(8, 8)>>>(out); }
"""
PAD_ALLOWANCE = 4       # `[TILE][TILE + 1]`-style padding is intended, not a mismatch
PAD_BYTES = 16          # ... and in bytes: a row of a byte array padded by one 16-byte vector, kept aligned for them
LARGE = 1 << 30         # a problem size past every index of the sampled blocks, within 32 bits


def _once(sim, name: str, key, make, *held):
    """make(), worked out once per trial (the rule asks for most of what it reads several times):
    kept on the simulation under `name` and `key`, a tuple of ids, with `held`, the objects whose
    ids those are, so that the ids stay theirs."""
    seen = sim.__dict__.setdefault(name, {})
    got = seen.get(key)
    if got is None:
        got = seen[key] = (make(), held)
    return got[0]


def _coord_max(sim, coord: ir.Sym, acc, running_only: bool = False) -> int | None:
    if coord.kind == "thread" and running_only:
        # the threads that run the access: `if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x]`
        # spans 64 elements, not the block. Once per access and axis: asked again for each
        # access it is read together with.
        return _once(sim, "_cl301_running", (id(acc), coord.name), lambda: _running_max(sim, coord, acc), acc)
    if coord.kind == "thread":
        return sim.block["xyz".index(coord.name[-1])] - 1
    if coord.kind == "block":      # a span over blocks needs the program's grid, not the assumed one
        return sim.grid["xyz".index(coord.name[-1])] - 1 if sim.grid_known else None
    if coord.kind == "iter":
        it = next((i for i in acc.loops if i.trip == coord), None)
        if it is None:
            return None
        s = sim.trip_samples(_lifted(sim, it), sim.base_env())
        return s[-1] if s else None
    return None


def _lifted(sim, it):
    """The loop as it runs where the sizes the program leaves open do not cut it short: `i <
    min(chunk_start + CHUNK, n)` runs to its own bound for every n past it (the trial's n, small,
    would end it early and make the chunk look half read)."""
    if it.cond is None:
        return it

    def make():
        lifted = _lift_open_min(sim, it.cond)
        return it if lifted is it.cond else replace(it, cond=lifted)
    # one per loop and trial, kept on the simulation: its trip counts are cached by the loop's id,
    # which a copy made afresh for every question would hand to the next copy once collected
    return _once(sim, "_cl301_lifted", (id(it),), make, it)


def _lift_open_min(sim, e: ir.Expr) -> ir.Expr:
    """`e` with each `min(a, b)` whose one side is made of values the program does not give
    replaced by the other side."""
    if isinstance(e, ir.Call) and e.fn in ("min", "umin") and len(e.args) == 2:
        a, b = e.args
        oa, ob = bool(open_names(sim, a)), bool(open_names(sim, b))
        if oa != ob:
            return _lift_open_min(sim, b if oa else a)
    if isinstance(e, ir.Bin):
        left, right = _lift_open_min(sim, e.left), _lift_open_min(sim, e.right)
        if left is not e.left or right is not e.right:
            return ir.Bin(e.op, left, right)
    return e


def _running_max(sim, coord: ir.Sym, acc) -> int | None:
    from ..index.evaluate import Unknown
    try:
        mask = sim.instance_mask(acc, "coalescing")
    except (Unknown, MemoryError):
        return sim.block["xyz".index(coord.name[-1])] - 1
    running = mask.any(axis=0)
    if not running.any():
        return None
    return int(sim.tid[coord.name][running].max())


_NO_NAMES: frozenset[str] = frozenset()


def _params_in(e: ir.Expr) -> frozenset[str]:
    if e.__class__ is ir.Num:       # most strides
        return _NO_NAMES
    return frozenset(s.name for s in ir.symbols(e) if s.kind == "param")


def _constant(e: ir.Expr) -> int | None:
    """The value of a stride that is an integer constant (most are), else None."""
    if e.__class__ is ir.Num and e.value.__class__ is int and -(1 << 63) <= e.value < (1 << 63):
        return e.value
    return None


def _numeric(sim, e: ir.Expr, ones: bool) -> int | None:
    """The value of a stride or offset with its sizes set to 1 (`ones`) or to theirs; the strides
    of an index are asked for once per term, check and access read with it (a constant is its own
    value, read on the spot)."""
    got = _constant(e)
    if got is not None:
        return got
    return _once(sim, "_cl301_numeric", (id(e), ones), lambda: _numeric_of(sim, e, ones), e)


def _numeric_of(sim, e: ir.Expr, ones: bool) -> int | None:
    return _value_with(sim, e, lambda name: 1 if ones else sim.param(name))


def _value_with(sim, e: ir.Expr, size, errors=()) -> int | None:
    """The value of `e` with each size (parameter) `name` at `size(name)`; None where it is no one
    integer, or raises one of `errors` besides the evaluator's own."""
    import numpy as np
    from ..index.evaluate import Evaluator, Unknown
    env = sim.base_env()
    for s in ir.symbols(e):
        if s.kind == "param":
            env[s.name] = size(s.name)
    try:
        v = np.asarray(Evaluator(env).value(e))
        return int(v) if v.ndim == 0 else None
    except (Unknown, TypeError, ValueError, *errors):
        return None


def _level(c: ir.Sym) -> int:
    return {"block": 0, "thread": 1, "iter": 2}[c.kind]


def _group_key(sim, names: frozenset[str], e: ir.Expr | None = None):
    """Terms are compared within one group of problem sizes, by value: `i * height` and
    `threadIdx.y * width` share a radix when the program gives width == height (values a trial
    sets are not the program's: two sizes it leaves open are two radices), and a size the program
    leaves open to a higher power is another radix too (`z * n * n` is no multiple of `y * n`'s
    unit: at n = 1 they would meet)."""
    if names and all(n in sim.params and not chosen(sim, n) for n in names):
        return ("value", int(math.prod(sim.params[n] for n in names)))
    if names and e is not None:
        d = _degree(sim, e)
        if d is not None and d > len(names):
            return names | {f"^{d}"}
    return names


def _degree(sim, e: ir.Expr) -> int | None:
    """The total power of the open sizes in a monomial stride (`n * n`: 2), from its values with
    every size at 1 and at 2; None where it is no monomial of them."""
    one, two = (_value_with(sim, e, lambda name: v, (ArithmeticError,)) for v in (1, 2))
    if not one or two is None or two % one:
        return None
    ratio = two // one
    return ratio.bit_length() - 1 if ratio > 0 and ratio & (ratio - 1) == 0 else None


def _other_open_radix(sim, t, terms, copies) -> bool:
    """The mismatch found in `t`'s group of sizes would vanish if another size the program leaves
    open were equal to them (`odata[x + y * width + i * height]`: a gap in the rows of `width` that
    the `height` steps fill when the matrix is square): it holds for some values only."""
    key = _group_key(sim, _params_in(t.stride), t.stride)
    others = {_group_key(sim, _params_in(x.stride), x.stride) for x in terms if not x.is_offset}
    others |= {k for c in (copies or ()) for k in c}
    return any(isinstance(k, frozenset) and k and k != key and all(chosen(sim, n) for n in k) for k in others)


def _one_value(sim, coord: ir.Sym) -> bool:
    """The coordinate takes one value in every launch the program makes: a thread index along a
    block edge of 1, a block index along a grid edge of 1 the program gives (not a trial's)."""
    if coord.kind == "thread":
        return True
    grid = sim.table.launch.grid
    if coord.kind != "block" or grid is None or not sim.grid_known:
        return False
    return not invented(sim, [grid["xyz".index(coord.name[-1])]])


def _open_grid(sim, below) -> list[str]:
    """`gridDim.x = nrows / 2` for each block coordinate below whose grid extent is computed from
    sizes the program leaves open (the span then holds a trial's value)."""
    grid = sim.table.launch.grid
    out = []
    for b in below:
        if b.coord.kind == "block" and grid is not None and sim.grid_known:
            axis = "xyz".index(b.coord.name[-1])
            if invented(sim, [grid[axis]]):
                text = f"gridDim.{b.coord.name[-1]} = {short(str(grid[axis]), 32)}"
                if text not in out:
                    out.append(text)
    return out


def _offset_parts(sim, e: ir.Expr | None) -> dict | None:
    """{group key: offset in units of that group's sizes}, or None for an offset that mixes
    sizes (`width + 1`) and so has no place in one radix."""
    if e is None:
        return {}
    got = _once(sim, "_cl301_offset", (id(e),), lambda: _offset_unit(sim, e), e)
    if got is None:
        return None
    names, one = got
    # the group is looked up each time: a size the simulation has since been given joins its value's
    return {_group_key(sim, names, e): one}


def _offset_unit(sim, e: ir.Expr) -> tuple[frozenset[str], int] | None:
    """(sizes named, coefficient) of an offset that is `coefficient × sizes`, else None."""
    import numpy as np
    from ..index.evaluate import Evaluator, Unknown
    names = _params_in(e)
    one = _numeric(sim, e, ones=True)
    if one is None:
        return None
    if names:
        env = sim.base_env()
        env.update({n: 2 for n in names})
        try:
            two = int(np.asarray(Evaluator(env).value(e)))
        except (Unknown, TypeError, ValueError):
            return None
        if two != one * 2 ** len(names):   # not `coefficient × sizes`
            return None
    return names, one


def _uncovered(starts: list[int], length: int, period: int) -> int:
    """Elements of one period that no arc [start, start + length) (taken modulo the period) reaches."""
    if length >= period:
        return 0
    pieces = []
    for s in sorted({x % period for x in starts}):
        pieces.append((s, min(s + length, period)))
        if s + length > period:
            pieces.append((0, s + length - period))
    covered, reach = 0, 0
    for a, b in sorted(pieces):
        if b > reach:
            covered += b - max(a, reach)
            reach = b
    return period - covered


def radix_mismatch(sim, acc, terms, offsets: list[dict] | None = None):
    """First term whose stride leaves holes in, or overlaps, the span of the smaller-stride terms of
    its group. `offsets` are the offset parts of the accesses that share these terms (the access
    itself included): together their copies of the lower levels may fill the stride, as the two loads
    `g[i]`, `g[i + blockDim.x]` of a reduction fill a block stride of 2 * blockDim.x."""
    for key, ts in _levels(sim, terms):
        found = _group_mismatch(sim, acc, key, ts, offsets)
        if found:
            return found
    return None


def _levels(sim, terms) -> list:
    """The groups of terms (by their sizes) that span more than one level: a mismatch is between
    levels, and a group whose coordinates are all of one kind (a term alone, `threadIdx.y * W +
    threadIdx.x`) never has one, so its strides and ranges are not looked up."""
    if len({t.coord.kind for t in terms if isinstance(t.coord, ir.Sym)}) < 2:
        return []       # (most subscripts) then no group of them spans two
    groups: dict = {}
    for t in terms:
        if t.is_offset:
            continue
        key = _group_key(sim, _params_in(t.stride), t.stride)
        groups.setdefault(key, []).append(t)
    return [(key, ts) for key, ts in groups.items()
            if len({t.coord.kind for t in ts if isinstance(t.coord, ir.Sym)}) >= 2]


def _group_mismatch(sim, acc, key, ts, offsets):
    """radix_mismatch within one group of terms (`key`: its sizes)."""
    if any(not isinstance(t.coord, ir.Sym) for t in ts):
        return None  # an opaque piece (`flat % TILE`): the radix is not plain
    rows = []
    for t in ts:
        c = _numeric(sim, t.stride, ones=True)
        m = _coord_max(sim, t.coord, acc)
        # only a thread coordinate runs over fewer values than it takes
        run = _coord_max(sim, t.coord, acc, running_only=True) if t.coord.kind == "thread" else m
        if c is None or m is None or c <= 0:
            break
        if m == 0 and _one_value(sim, t.coord):
            continue    # a coordinate that takes one value (`threadIdx.x` of a (1, 256) block) is no level
        rows.append((c, m, t, m if run is None else run))
    else:
        if len({_level(r[2].coord) for r in rows}) < 2:
            return None
        rows.sort(key=lambda r: (r[0], _level(r[2].coord)))
        starts = sorted({o.get(key, 0) for o in offsets}) if offsets else [0]
        c0, m0, _, r0 = rows[0]
        # a hole is judged over the whole block (a guard that keeps threads out of a copy leaves
        # its rows on purpose); an overlap over the threads that run the store
        span = c0 * (m0 + 1)   # the lowest term repeats its own stride
        span_run = c0 * (r0 + 1)
        for k in range(1, len(rows)):
            c, m, t, r = rows[k]
            below = [x[2] for x in rows[:k]]
            mixed = any(_level(b.coord) != _level(t.coord) for b in below)
            if c > span and mixed:
                holes = _uncovered(starts, span, c)
                if holes > (max(PAD_ALLOWANCE, PAD_BYTES // max(acc.array.elem_size, 1)) if acc.space == "shared" else 0):
                    return ("gap", t, below, c, span, holes, len(starts) > 1)
                if len(starts) > 1:
                    starts = [0]   # the offsets filled this level; above it the range is contiguous
            if c < span_run and mixed and acc.kind == "store" and \
                    all(x.coord.kind in ("block", "thread") for x in [t, *below]):
                from ..analysis.simulate import guards_followed
                if guards_followed(acc.guards) and _reach(sim, acc, below) >= c:
                    return ("overlap", t, below, c, span_run, 0, False)
            # the terms below reach up to the sum of their largest steps: two unit-stride terms
            # over 128 values each span 255 elements, not 128
            span = max(span + c * m, c * (m + 1))
            span_run = max(span_run + c * r, c * (r + 1))
    return None


def _reach(sim, acc, below) -> int | float:
    """How far apart the terms `below` place two threads that run the access: their sum's greatest
    less its least over the simulated instances the guards let through (`if (col < N)` keeps
    `blockIdx.x * 32 + threadIdx.x` under N, whatever the grid's last block covers). Infinite where
    that cannot be worked out."""
    from ..index.evaluate import Evaluator, Unknown
    import numpy as np
    e: ir.Expr = ir.Num(0)
    for b in below:
        e = ir.add(e, ir.mul(b.stride, b.coord))
    try:
        env, mask = sim.instance_env(acc, "range")
        v = np.broadcast_to(np.asarray(Evaluator(env).value(e), dtype=np.int64), mask.shape)[mask]
    except (Unknown, MemoryError, ValueError, TypeError, OverflowError):
        return math.inf
    return int(v.max() - v.min()) if v.size else 0


def _analysed(acc) -> list[tuple[int, list]]:
    """(dimension, terms) pairs CL301 reads: each subscript of a multi-dimensional array, else the
    flat index (dimension -1)."""
    if len(acc.dims) > 1:
        return [(k, acc.dim_terms(k)) for k in range(len(acc.dims))]
    return [(-1, acc.terms)]


MAX_UNROLL = 32          # loops this short are read as copies of the index at each step
MAX_COPIES = 256


def _unrolled(sim, acc, terms):
    """(terms kept, [(stride, trip count)]): the terms of short loops are copies of the rest of the
    index, one per iteration: a halo loop of one step and the main loop of eight fill one block
    stride together (convolutionSeparable's rows kernel). Worked out once per simulation, access
    and list of terms (the check asks for it three times)."""
    return _once(sim, "_cl301_unrolled", (id(acc), id(terms)), lambda: _unrolled_of(sim, acc, terms), acc, terms)


def _unrolled_of(sim, acc, terms):
    thread = max((_numeric(sim, t.stride, ones=True) or 0 for t in terms
                  if isinstance(t.coord, ir.Sym) and t.coord.kind == "thread"), default=0)
    kept, loops = [], []
    for t in terms:
        it = next((i for i in acc.loops if t.coord is i.trip or t.coord == i.trip), None) \
            if isinstance(t.coord, ir.Sym) and t.coord.kind == "iter" else None
        count = sim.trip_count(_lifted(sim, it)) if it is not None else None
        step = _numeric(sim, t.stride, ones=True) if it is not None else None
        # a loop stepping over the thread rows is a copy; one inside them (a register tile, `regCol`) a level
        if count is not None and 0 < count <= MAX_UNROLL and step is not None and step >= max(thread, 1) \
                and not it.grid_stride:       # a grid-stride loop is the level above the grid
            loops.append((t.stride, count))
        else:
            kept.append(t)
    return kept, loops


def _copies(sim, acc, terms) -> list[dict] | None:
    """The offset parts of every copy of the access (one per iteration of its short loops)."""
    kept, loops = _unrolled(sim, acc, terms)
    base = _offset_parts(sim, _offset_of(kept))
    if base is None:
        return None
    out = [base]
    for stride, count in loops:
        step = _offset_parts(sim, stride)
        if step is None or len(out) * count > MAX_COPIES:
            return None
        out = [{**o, **{k: o.get(k, 0) + n * v for k, v in step.items()}} for o in out for n in range(count)]
    return out


def _same_position(accesses, sim=None, needed=None) -> tuple[dict, dict]:
    """Accesses of one array and kind whose indexes differ only in the offset of one subscript:
    (array, kind, dimension, the rest of the index) -> [(access, its terms there)] in program order,
    and (access, dimension) -> that key. Loads are grouped with loads and stores with stores: an
    element that is only read is still a hole in what is written, and the other way round.
    `needed`: the (access id, dimension) pairs whose groups are asked for (None: all); a group
    holding none of them is left out."""
    # first by array, kind and dimension, then by how many terms are kept: an access alone there is
    # alone under its key, whose texts (printed for most terms and subscripts only here) are then
    # not needed, and a group holding no pair asked for is not looked at further
    by_array: dict = {}
    for acc in accesses:
        if acc.unresolved:
            continue
        for k, terms in _analysed(acc):
            by_array.setdefault((acc.array.name, acc.kind, k), []).append((acc, k, terms))
    rough: dict = {}
    for first, members in by_array.items():
        if needed is not None and not any((id(acc), k) in needed for acc, k, _ in members):
            continue
        for acc, k, terms in members:
            kept = _unrolled(sim, acc, terms)[0] if sim is not None else terms
            count = sum(1 for t in kept if not t.is_offset)
            rough.setdefault((*first, count), []).append((acc, k, terms, kept))
    groups: dict = {}
    where: dict = {}
    for first, members in rough.items():
        if needed is not None and not any((id(acc), k) in needed for acc, k, _, _ in members):
            continue
        for acc, k, terms, kept in members:
            if len(members) == 1:
                key = ("alone", first)
            else:
                shape = tuple(str(t) for t in kept if not t.is_offset)
                rest = tuple(str(d) for j, d in enumerate(acc.dims) if j != k) if k >= 0 else ()
                key = (acc.array.name, acc.kind, k, shape, rest)
            groups.setdefault(key, []).append((acc, terms))
            where[(id(acc), k)] = key
    return groups, where


def _read_there(sim, groups: dict, key: tuple, acc, kept, copies) -> bool:
    """The loads of the array at the access's position (the same terms, other offsets), each run
    by the whole block, fill what the access leaves: the kernel reads its whole range and then
    works on part of it in place (`g[i] += g[i + blockDim.x]` over two blocks' worth, then a
    reduction in the first half, by the threads `tid < stride`)."""
    loads = groups.get((key[0], "load", *key[2:]))
    if not loads:
        return False
    extra = []
    for a, ts in loads:
        got = _copies(sim, a, ts) if _whole_block(sim, a) else None
        if got is not None:
            extra += got
    if not extra:
        return False
    found = radix_mismatch(sim, acc, kept, copies + extra)
    return not found or found[0] != "gap"


def _offset_of(terms) -> ir.Expr | None:
    return next((t.stride for t in terms if t.is_offset), None)


def _whole_block(sim, acc) -> bool:
    """Every thread of a block runs the access at some sampled point once the problem is large
    enough for the edge guards (`i + blockDim.x < n`) to pass: a copy behind
    `if (threadIdx.x < 128)` fills only part of the range. Once per access (it is asked for each
    dimension)."""
    return _once(sim, "_cl301_whole", (id(acc),), lambda: _whole_block_of(sim, acc), acc)


def _whole_block_of(sim, acc) -> bool:
    import numpy as np
    from ..analysis.simulate import conjuncts
    from ..index.evaluate import Unknown
    try:
        large = {n for g in acc.guards for n in _params_in(g)}
        if not large:       # the guards as the simulation reads them
            return bool(sim.instance_mask(acc, "coalescing").all(axis=1).any())
        env, n = sim.instances(acc, "coalescing")
        # one object for the trial: _holds knows a value by its id
        big = _once(sim, "_cl301_large", (), lambda: np.int64(LARGE))
        env.update({name: big for name in large})
        runs = np.ones((n, sim.nthreads), dtype=bool)
        for g in acc.guards:
            for c in conjuncts(g):
                v = _holds(sim, env, c)
                if v is not None:
                    runs &= v
        return bool(runs.all(axis=1).any())
    except (Unknown, MemoryError):
        return False


def _holds(sim, env: dict, c: ir.Expr):
    """Where one part of a guard holds over `env` (None: it reads data, and may hold). Kept by the
    values its names take there: the accesses of one loop nest share their rows, and their guards."""
    import numpy as np
    from ..index.evaluate import Evaluator, Unknown
    vals = tuple(env.get(s.name) for s in ir.symbols(c))

    def where():
        try:
            return np.asarray(Evaluator(env).value(c)) != 0
        except Unknown:
            return None
    return _once(sim, "_cl301_holds", (id(c), *map(id, vals)), where, c, vals)


def _base_sizes(acc) -> frozenset[str]:
    """The sizes the access's constant part (its offset terms) is made of: the base of a region."""
    return frozenset(s.name for t in acc.terms if t.is_offset for s in ir.symbols(t.stride)
                     if s.kind == "param") | frozenset(s.name for t in acc.terms if t.is_offset
                                                       for s in ir.symbols(t.coord) if s.kind == "param")


EDGE = 4       # the most elements a loop's own bounds leave at either end of a row (a stencil's halo)


def _edge_holes(pos: set[int], c: int) -> bool:
    """The positions one access reaches in each row of `c` are one run that starts a few elements
    into the row and runs to its end, or to as many short of it (`for (j = 1; j < N; j++) x[i * N +
    j] -= x[i * N + j - 1]`, an interior `1 .. N - 2`): the loop's bounds leave a boundary, the
    stride is the row's length. A run from the row's start that stops short of its end is what a
    loop bound left behind by a wider record looks like, and stays a finding."""
    lo, hi = min(pos), max(pos)
    if len(pos) != hi - lo + 1:
        return False
    front, back = lo, c - 1 - hi
    return 0 < front <= EDGE and back in (0, front) and 8 * (front + back) < c


def _scratch_row(acc, t, below, c: int, cover: set[int]) -> bool:
    """A thread's own row of a declared multi-dimensional array (`cs[threadIdx.x][j]` of `float
    cs[32][32]`, or a pointer to it) that the thread's accesses fill from its start, leaving its end
    unused: the spare room of a fixed-size row the declaration gives, not a stride that skips
    elements (the stride is the row the program declared, and no index steps over a hole)."""
    dims = list(acc.array.dims or ())
    if len(dims) < 2 or not all(isinstance(d, int) and d > 0 for d in dims):
        return False
    if not (isinstance(t.coord, ir.Sym) and t.coord.kind == "thread") or \
            not all(isinstance(b.coord, ir.Sym) and b.coord.kind == "iter" for b in below):
        return False
    rows = {math.prod(dims[k + 1:]) for k in range(len(dims) - 1)}
    return c in rows and bool(cover) and cover == set(range(max(cover) + 1))


def _exclusive(a, b, table) -> bool:
    """Two accesses on the two arms of one branch on a value of the whole launch (`if (transposed)`
    and its `else`, a kernel argument): one run reads the array through one of them only."""
    theirs = set(b.guards)

    def launch_wide(s) -> bool:
        return s.kind in ("param", "uniform") or (s.kind == "unknown" and f"{s.name}@param" in table.definitions)
    return any(ir.negate(g) in theirs and all(launch_wide(s) for s in ir.symbols(g)) for g in a.guards)


def _leading_dims(acc) -> frozenset[str] | None:
    keys = {frozenset(s.name for s in ir.symbols(t.stride) if s.kind == "param")
            for t in acc.terms if not t.is_offset and isinstance(t.coord, ir.Sym)
            and t.coord.kind in ("block", "thread")}
    keys = {k for k in keys if len(k) == 1}
    return frozenset().union(*keys) if len(keys) == 1 else None


def help(d) -> str | None:
    """What to change, from the finding's figures (the proved rewrite, where there is one, is shown instead)."""
    m = d.metrics
    if "leading_dimension" in m:
        return (f"index `{d.array}` with one leading dimension everywhere (`{m['leading_dimension']}` or "
                f"`{m['other_leading_dimension']}`, whichever its allocation has)")
    if "expected_stride" in m and not m.get("rests_on"):     # never a figure cudalint chose
        return (f"give the term a stride of {m['expected_stride']}, the span of the level below, so that "
                f"neighbouring values tile the array with no gap and no overlap")
    return None


def _term_words(t) -> str:
    """`term `blockIdx.x * 128``, or for a loop's trip counter `the `i` loop's step `gridDim.x * blockDim.x``."""
    m = re.fullmatch(r"iter\((\w+)\)", getattr(t.coord, "name", "") or "")
    if m:
        return f"the `{m.group(1)}` loop's step `{short(str(t.stride), 32)}`"
    if internal(str(t)):
        return "a term"
    return f"term `{short(str(t), 32)}`"


MAX_RECORD = 4096       # positions of a record enumerated at most


def _record_positions(sim, acc, terms, t, c: int, common: frozenset[str] = frozenset()) -> set[int] | None:
    """The positions, within each stride `c` of term `t`, that one access reaches through its own
    loops and the threads that run it below `t` (`idx[i * 9 + j]` with j over 0..3: {0, 1, 2, 3});
    None where a term below `t` is a block coordinate or a range is not known. `common`: terms every
    access compared has, which move them all alike (a column `bid` of rows `tps + i`)."""
    pos = {0}
    for x in terms:
        if x is t or str(x) == str(t) or str(x) in common:
            continue
        step = _numeric(sim, x.stride, ones=True)
        if step is None:
            return None
        if x.is_offset:
            pos = {p + step for p in pos}
            continue
        if step >= c:
            continue                        # a level above the record
        if not (isinstance(x.coord, ir.Sym) and x.coord.kind in ("iter", "thread")):
            return None
        if x.coord.kind == "thread" and _constant(x.stride) is None:
            return None     # a thread's step of an open size (`threadIdx.y * width`): not a record's slot
        # a thread coordinate below the record (`rec[blockIdx.x].code[threadIdx.x + k * blockDim.x]`):
        # the threads that run the access fill their part of it
        m = _coord_max(sim, x.coord, acc, running_only=True)
        if m is None or m < 0 or len(pos) * (m + 1) > MAX_RECORD:
            return None
        pos = {p + n * step for p in pos for n in range(m + 1)}
    return {p % c for p in pos}


def _record_cover(sim, table, acc, dim: int, t, c: int) -> set[int]:
    """The accesses of the array that go through the same record term `t` (stride `c`) reach, with
    their own loops, every byte of the record between them: the record is the program's layout,
    and an access that reads part of it (a corner case rereading four of nine slots, one member of
    a struct beside the others) skips nothing. Loads and stores count together here: what a thread
    writes of its record and what it reads are one layout. The record's members read through
    another element type (`rec[blockIdx.x].size` beside `rec[blockIdx.x].code[i]`, the latter in
    words) count by their bytes."""
    rec = c * acc.array.elem_size
    if c > MAX_RECORD or rec > MAX_RECORD * 16:
        return set()                # a record too wide to count byte by byte: nothing said filled
    need = set(range(rec))
    covered: set[int] = set()       # bytes of the record
    found = []
    for a in table.accesses:
        if a.unresolved or a.array.name != acc.array.name or a.array.space != acc.array.space:
            continue
        same = a.array is acc.array
        size = a.array.elem_size
        if rec % size:
            continue
        for k, terms in _analysed(a):
            if (k != dim) if same else (k != -1 or dim != -1):
                continue
            x = next((x for x in terms if not x.is_offset and x.coord == t.coord and
                      _numeric(sim, x.stride, ones=True) == rec // size), None)
            if x is not None:
                found.append((a, terms, x, size))
    sets = [frozenset(str(y) for y in terms if y is not x and not y.is_offset) for _, terms, x, _ in found]
    common = frozenset.intersection(*sets) if len(sets) > 1 else frozenset()
    for a, terms, x, size in found:
        got = _record_positions(sim, a, terms, x, rec // size, common)
        if got is not None:
            covered |= {(p * size + a.member_offset + b) % rec for p in got for b in range(a.width)}
        if covered >= need:
            break
    return covered


def check(ctx: Context):
    said = set()
    for d in _check(ctx):
        # `v[i] += x` loads and stores one element: its stride is said once
        if (d.line, d.column, d.message) not in said:
            said.add((d.line, d.column, d.message))
            yield d


def _check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    # the subscripts whose terms span more than one level: elsewhere there is nothing to find,
    # whatever a subscript is read with (the terms kept then are among its own)
    needed = {(id(acc), k) for acc in ctx.table.accesses if not acc.unresolved
              for k, terms in _analysed(acc) if _levels(sim, terms)}
    groups, where = _same_position(ctx.table.accesses, sim, needed)
    # group key -> ({access id: offset parts of its copies, or None}, [(access, parts)] of those
    # with parts, all their parts)
    offsets: dict = {}
    reported: set[int] = set()
    for acc in ctx.table.accesses:
        if acc.unresolved or id(acc) in reported:
            continue
        for k, terms in _analysed(acc):
            if (id(acc), k) not in needed:
                continue        # its group's copies and whole-block tests are not worked out for it
            key = where[(id(acc), k)]
            if key not in offsets:
                parts = [(a, _copies(sim, a, ts) if len(groups[key]) == 1 or _whole_block(sim, a) else None)
                         for a, ts in groups[key]]
                # what every access of the group reads with: worked out once, not once per access
                together = [(a, p) for a, p in parts if p is not None]
                offsets[key] = ({id(a): p for a, p in parts}, together, [c for _, p in together for c in p])
            own_of, together, copies = offsets[key]
            own = own_of[id(acc)]
            if own is None:
                together, copies = [(acc, [{}])], [{}]
            kept = _unrolled(sim, acc, terms)[0] if own is not None else terms
            found = radix_mismatch(sim, acc, kept, copies)
            if not found or _other_open_radix(sim, found[1], kept, copies):
                continue
            kind, t, below, c, span, holes, joint = found
            if kind == "gap" and _read_there(sim, groups, key, acc, kept, copies):
                # the kernel reads the elements this access leaves (an in-place reduction's second
                # half, read once by the whole block and then no more)
                continue
            members = False     # other accesses fill part of the holes (a record's other members)
            if kind == "gap" and all(isinstance(b.coord, ir.Sym) and b.coord.kind in ("iter", "thread")
                                     for b in below):
                cover = _record_cover(sim, ctx.table, acc, k, t, c)
                size = acc.array.elem_size
                if cover and cover >= set(range(c * size)):
                    # the thread's own loops (or the block's threads) elsewhere fill the record this
                    # access fills part of: its other members (`rec[blockIdx.x].size` beside `.code[i]`)
                    continue
                left = sum(1 for e in range(c) if not any(e * size + b in cover for b in range(size))) \
                    if cover else c
                if left < c - span:
                    members, holes = True, left
                if members and _scratch_row(acc, t, below, c, cover):
                    continue
                own = _record_positions(sim, acc, kept, t, c)
                if not members and own and _edge_holes(own, c):
                    continue
            others = [a for a, _ in together if a is not acc] if joint else []
            reported.update(id(a) for a in others)   # one finding for the accesses that fill the stride together
            below_txt = " + ".join(f"`{short(str(b), 32)}`" for b in below)
            grid_open = _open_grid(sim, below)
            # a span over a grid computed from sizes the program leaves open is no figure to quote
            span_txt = f"the whole grid ({', '.join(grid_open)})" if grid_open else str(span)
            # beside a span over an open grid, a step made of a value the program does not give is
            # its expression, not the trial's number (elsewhere the sizes the strides share are
            # factored out of both, and the two numbers are in their units)
            step_txt = (scaled_text(sim, t.stride, c) or str(c)) if grid_open else str(c)
            head = (f"{_term_words(t)} of `{short(written(acc), 40)}` steps {step_txt} but {below_txt} below "
                    f"span{'s' if len(below) == 1 else ''} {span_txt}")
            stride = c if step_txt == str(c) else step_txt      # (the program's expression, in JSON too)
            metrics = {"stride": stride, "expected_stride": span} if not grid_open else {"stride": stride}
            if grid_open and kind == "overlap":
                who = "iterations" if internal(t.coord.name) else f"{t.coord.name.split('.')[0]} values"
                msg = f"{head}: neighbouring {who} overlap"
            elif grid_open:
                msg = f"{head}: it leaves elements between its steps unwritten"
            elif kind == "gap" and members:     # a record's other members fill some of the stride
                msg = f"{head}: with the other accesses of `{acc.array.name}`, {holes} of every {c} elements " \
                      f"are never {'read' if acc.kind == 'load' else 'written'}"
                metrics = {"stride": c, "skipped": holes}
            elif kind == "gap" and joint and not others:     # the access's own copies leave the holes
                msg = f"{head}: {holes} of every {c} elements are skipped"
                metrics = {"stride": c, "skipped": holes}
            elif kind == "gap" and joint:
                with_txt = ", ".join(f"`{short(written(a), 40)}` (line {a.line})" for a in others)
                msg = f"{head}; with {with_txt}, {holes} of every {c} elements are still skipped"
                metrics = {"stride": c, "skipped": holes, "accesses": 1 + len(others)}
            elif kind == "gap":
                msg = f"{head}: {c - span} of every {c} elements are skipped; make it {span}"
            else:
                who = "iterations" if internal(t.coord.name) else f"{t.coord.name.split('.')[0]} values"
                msg = f"{head}: neighbouring {who} overlap; make it {span}"
            # sizes in the strides are factored out (a group's strides share them: `64 * n` against
            # `8 * n`), so what a stride mismatch may rest on is an assumed grid, and the ranges of
            # the coordinates below (a loop's bound)
            made = [n for n in invented(sim, [x.stride for x in (t, *below)]) if n.startswith("gridDim")]
            made += [n for n in invented(sim, [x.coord for x in below], acc.loops) if n not in made]
            if made:
                # the strides compared are made of values cudalint chose: a condition, not a finding
                msg += f" (rests on {', '.join(made)}: {'values' if len(made) > 1 else 'a value'} the program does not give)"
                metrics = {**metrics, "rests_on": made}
            yield ctx.diagnostic(me, acc, msg, metrics=metrics, assumptions=ctx.assumptions_for(acc),
                                 severity="info" if made else None)
            break
    # one global array, two leading dimensions
    first: dict[tuple, tuple] = {}
    for acc in ctx.table.accesses:
        if acc.space != "global" or acc.unresolved:
            continue
        ld = _leading_dims(acc)
        if not ld:
            continue
        # a region carved out of the array at an offset made of sizes (`&buf[n * groups * 2]`) has a
        # layout of its own: compared only with accesses at the same base
        name = (acc.array.name, _base_sizes(acc))
        if name not in first:
            first[name] = (ld, acc)
        elif first[name][0] != ld and not _exclusive(acc, first[name][1], ctx.table):
            # (a branch of `if (transposed)` and its `else` read two layouts, never both in one run)
            other = first[name][1]
            msg = (f"`{name[0]}` has leading dimension `{next(iter(ld))}` here but `{next(iter(first[name][0]))}` "
                   f"at line {other.line}: one of the two has the wrong pitch")
            yield ctx.diagnostic(me, acc, msg, metrics={"leading_dimension": next(iter(ld)),
                                                       "other_leading_dimension": next(iter(first[name][0]))})
