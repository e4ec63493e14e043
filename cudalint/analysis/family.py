"""The values cudalint tries where the program gives none.

A finding must hold for the values the program (or the user) gives. Where the launch gives no
block shape, or a problem size is given nowhere, the kernel is simulated under a small family of
trials, and a warning stands only if every trial produces it. The family is narrowed by what the
kernel itself says: `__launch_bounds__`, `__shared__` tiles indexed by `threadIdx` (a block that
overruns its own tile is not one the program launches), guards such as
`if (blockDim.x != 256) return;` or `assert(blockDim.x == 256)`, and masks like `i & (n - 1)`
(n is a power of two).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown
from ..model.table import TwoTreeTable

BLOCKS_1D = ((256, 1, 1), (128, 1, 1), (1024, 1, 1))
BLOCKS_2D = ((32, 8, 1), (16, 16, 1), (32, 32, 1), (32, 4, 1))
BLOCKS_3D = ((32, 4, 4), (8, 8, 8), (16, 16, 4))
SIZES = (1000, 1024)            # a problem size: neither or both a power of two
SIZES_POW2 = (1024, 256)        # one the kernel masks with `& (n - 1)`
SHIFTS = (10, 5)                # one used as a shift count (`1 << logN`)
FREE = (1000, 1)                # a stride, offset or count the kernel never bounds: 1 is as likely as any
FLAGS = (1, 0)                  # one the kernel only tests for truth (`if (transposed)`)
# a row's length in bytes (`(const char*)src + y * pitch`, read as `y * pitch / 4` floats): the
# allocations that give pitches round them to 512 bytes (cudaMallocPitch), so rows start aligned
PITCHES = (1024, 2048)
COMPARE_OPS = frozenset(("<", "<=", ">", ">=", "==", "!="))


@dataclass(frozen=True)
class Trial:
    """One assignment of the values the program does not give."""
    block: tuple[int, int, int] | None        # the block shape, where the launch gives none
    sizes: tuple[tuple[str, int], ...] = ()   # problem sizes given nowhere

    def size(self, name: str) -> int | None:
        return dict(self.sizes).get(name)

    def describe(self, keep_block: bool = True) -> str:
        parts = [f"blockDim=({', '.join(map(str, self.block))})"] if self.block and keep_block else []
        parts += [f"{k}={v}" for k, v in self.sizes]
        return ", ".join(parts)


@dataclass
class Family:
    trials: list[Trial]
    blocks: list[tuple[int, int, int]] = field(default_factory=list)   # distinct blocks tried
    sizes: dict[str, tuple[int, ...]] = field(default_factory=dict)   # the values each unknown size takes
    block_reason: str = ""          # why the block is tried: the launch is not found, an edge is a host value
    block_names: tuple[str, ...] = ()   # the launch's block edges given nowhere (`dim3 block(bs, bs)`)
    roles: dict[str, str] = field(default_factory=dict)   # each open value's role (open_roles)
    # the program's own values of those the command line may set (LaunchConfig.defaults), among the sizes
    defaults: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def shown(self, name: str, value: int) -> str:
        """A value tried for `name`, said with where it comes from where the program gives it."""
        return f"{value} (the program's default)" if value in self.defaults.get(name, ()) else str(value)

    @property
    def primary(self) -> Trial:
        return self.trials[0]

    def block_text(self) -> str:
        shapes = ", ".join("(" + ", ".join(map(str, b)) + ")" for b in self.blocks)
        if self.block_names:
            values = "; ".join(f"{n} = " + ", ".join(str(t.size(n)) for t in self._by_block()) for n in self.block_names)
            return f"{self.block_reason}: checked with {values}: blockDim {shapes}"
        return f"{self.block_reason}: checked with blockDim {shapes}"

    def _by_block(self) -> list[Trial]:
        return list({t.block: t for t in self.trials}.values())

    def size_text(self, names) -> str | None:
        names = [n for n in sorted(names) if n in self.sizes]
        if not names:
            return None
        vals = "; ".join(f"{n} = {' and '.join(self.shown(n, v) for v in self.sizes[n])}" for n in names)
        hint = " ".join(f"--param {n}=VALUE" for n in names[:3])
        return f"sizes not given, checked with {vals} (give {hint})"


def derive(table: TwoTreeTable, given: dict[str, int]) -> Family:
    """The trials for one kernel: the first is the one whose figures messages quote."""
    blocks, reason, edges = _blocks(table, given)
    sizes, roles = _sizes(table, given, tuple(n for n, _ in blocks[0][1]) if blocks else ())
    names = sorted(sizes)
    count = max([len(v) for v in sizes.values()] + [1])
    size_rows = [tuple((n, sizes[n][min(k, len(sizes[n]) - 1)]) for n in names) for k in range(count)]
    by_block = block_checks(table.launch)
    trials = [Trial(b, chosen + _meeting(by_block, s, b, {**given, **dict(chosen)}, table.launch.block))
              for b, chosen in (blocks or [(None, ())]) for s in size_rows]
    trials = list(dict.fromkeys(trials))        # rows the checks moved onto one another
    if by_block:
        # the values each size takes, as the trials take them (`n % blockDim.x == 0` moves 1000 to 1024)
        sizes = {n: tuple(dict.fromkeys(v for t in trials if (v := t.size(n)) is not None)) for n in sizes}
    names = tuple(n for n, _ in blocks[0][1]) if blocks and edges else ()
    defaults = {n: vs for n, vs in (getattr(table.launch, "defaults", None) or {}).items() if n in sizes}
    return Family(trials, [b for b, _ in blocks], sizes, reason, names, roles, defaults)


def block_checks(launch) -> list[ir.Expr]:
    """The host's checks that relate the kernel's parameters to the block (`n % blockDim.x == 0`
    where every launch passes n as a multiple of the block's edge)."""
    return [c for c in launch.host_checks
            if any(s.kind == "blockdim" for s in ir.symbols(c)) and all(s.kind in ("param", "blockdim")
                                                                       for s in ir.symbols(c))]


def _meeting(checks: list[ir.Expr], row: tuple, block, given: dict[str, int], launch_block=None) -> tuple:
    """A trial's sizes moved to the first values at or after them that the checks relating them to
    this block (the trial's, or the launch's own) allow."""
    if not checks:
        return row
    if block is None and launch_block is not None:
        from ..model.host import fold
        edges = [fold(e) for e in launch_block]
        block = tuple(edges) if all(isinstance(e, int) and e > 0 for e in edges) else None
    if block is None:
        return row
    env = {**given, **{f"blockDim.{a}": v for a, v in zip("xyz", block)}}
    return tuple((n, allowed(checks, n, v, env)) for n, v in row)


# ---- block shapes ----------------------------------------------------------------------------
def _blocks(table: TwoTreeTable, given: dict[str, int]):
    """[(block, values chosen for the launch's unknown block edges)], why, whether edges are chosen."""
    lc = table.launch
    unknown: list[str] = []
    if lc.block is not None and any(x.kind == "unknown" for b in lc.block for x in ir.symbols(b)):
        reason = "block size of the launch not computed"     # `block[d][fp]`, a value the host code hides
    elif lc.block is not None:
        unknown = sorted({s.name for b in lc.block for s in ir.symbols(b)
                          if s.kind == "param" and s.name not in given
                          and s.name not in lc.params})
        if not unknown:
            return [], "", False
        reason = "block size " + ", ".join(f"`{n}`" for n in unknown) + " not given"
    else:
        reason = "launch not found" if lc.origin == "assumed" else "block size of the launch not computed"
    uses_y, uses_z = uses_axis(table, "threadIdx.y"), uses_axis(table, "threadIdx.z")
    if lc.block is not None:    # `dim3(bs, 1, 1)`: the launch says which axes the block has
        uses_y = uses_y and lc.block[1] != ir.Num(1)
        uses_z = uses_z and lc.block[2] != ir.Num(1)
    lb = table.launch_bounds
    if lc.block is None and lc.block_choices:
        # the program's own shapes, one of which its branches pick: not cudalint's
        shapes = list(lc.block_choices)
        reason = "block of the launch is one of " + ", ".join(str(b) for b in shapes) + " as the host's branches go"
        return [(b, ()) for b in shapes if _fits(table, _fit_checks(table), b)] or [(shapes[0], ())], reason, False
    if lc.block is None and _serial(table):
        shapes = [(1, 1, 1)]        # no coordinate to share work by: a kernel run as `<<<1, 1>>>`
    elif lb and 1 <= lb <= 1024 and not uses_y and not uses_z:
        # `__launch_bounds__(1024)` is the most threads a launch runs, not the only count: a
        # verdict holds at the bound and at half of it
        shapes = [(lb, 1, 1)] + ([(lb // 2, 1, 1)] if lb >= 64 else [])
    else:
        shapes = list(BLOCKS_3D if uses_z else BLOCKS_2D if uses_y else BLOCKS_1D)
    for derived in (_radix_block(table, uses_y, uses_z), _tile_block(table, uses_y, uses_z)):
        if derived is not None and derived not in shapes:
            shapes.insert(0, derived)
    if unknown:
        # an edge that is itself a bound the kernel compares a coordinate with (`dim3 block(ne13,
        # ne12)` and `if (i13 >= ne13) return`) is a problem size, which may be 1: tried there too
        bounds = _compared(table)
        for k, edge in enumerate(lc.block):
            if isinstance(edge, ir.Sym) and edge.name in unknown and edge.name in bounds and shapes[0][k] > 1 \
                    and edge.name != table.launch_bounds_name:     # `__launch_bounds__(CTA)`: a block size
                one = tuple(1 if i == k else v for i, v in enumerate(shapes[0]))
                if one not in shapes:
                    shapes.append(one)
        chosen = _edges(lc.block, unknown, shapes, given)
        tried = list(dict.fromkeys(c for c in chosen if c is not None))
        if not tried:
            return [], reason, True
    else:
        tried = [(b, ()) for b in shapes]
    bound = _bound_name(table, given)
    if not lb and table.launch_bounds_name in given:
        lb = given[table.launch_bounds_name]
    limit = lb if lb and lb > 0 else 1024
    checks = _fit_checks(table)
    fitting = [(b, c) for b, c in tried if b[0] * b[1] * b[2] <= limit and _fits(table, checks, b)]
    if bound:
        # `__launch_bounds__(CTA_SIZE)` with CTA_SIZE open: no launch runs more threads than it says,
        # and a kernel sized by its own bound runs that many: the name takes each block's count
        fitting = [(b, c + ((bound, b[0] * b[1] * b[2]),) if bound not in dict(c) else c)
                   for b, c in (fitting or tried[:1])]
    return (fitting or tried[:1]), reason, bool(unknown)


def _bound_name(table: TwoTreeTable, given: dict[str, int]) -> str | None:
    """The open name the kernel's `__launch_bounds__` is, where the program does not give it."""
    name = table.launch_bounds_name
    return name if name and name not in given and name not in table.launch.params else None


def _serial(table: TwoTreeTable) -> bool:
    """The kernel reads no thread or block coordinate anywhere (its indexes, guards, loops and
    barriers): every thread would do the same work, so it is written for one thread (a timing probe,
    a device-side setup step)."""
    exprs = [e for a in table.accesses for e in (a.index, *a.guards)]
    exprs += [e for it in table.iterators for e in (it.cond, it.start, it.value) if e is not None]
    exprs += [g for b in table.barriers for g in b.guards]
    coords = ("thread", "block", "blockdim", "griddim")
    return bool(table.accesses) and not table.barriers and \
        not any(x.kind in coords for e in exprs for x in ir.symbols(e)) and \
        not any(a.unresolved for a in table.accesses)


def _compared(table: TwoTreeTable) -> set[str]:
    """The parameters the kernel's guards bound something with (as open_roles reads a size)."""
    return {s.name for n in ir.walk_all([g for a in table.accesses for g in a.guards]) if _bounds(n)
            for s in ir.symbols(n) if s.kind == "param"}


EDGE_VALUES = tuple(1 << i for i in range(11))     # 1..1024
SHIFT_EDGE_VALUES = tuple(range(11))                 # an edge given as a shift count: `(1 << log2N) / 4`
MAX_EDGES = 3


def _edges(dims, unknown: list[str], targets, given) -> list:
    """A block whose edges depend on values not given (`dim3 block(bs, bs)` with `bs` a host
    parameter, `N / 4` with `N = 1 << log2N`): the unknowns take the values (powers of two, and
    small counts for a shift) that bring the block closest to each target, so dimensions the launch
    fixes are kept. [(block, ((name, value), ...)) or None], one per target: the blocks every
    combination of values makes are worked out once for all targets."""
    if len(unknown) > MAX_EDGES:
        return [None] * len(targets)
    shifted = {x.name for d in dims for n in d.walk() if isinstance(n, ir.Bin) and n.op in ("<<", ">>")
               for x in n.right.walk() if isinstance(x, ir.Sym)}
    choices = [SHIFT_EDGE_VALUES if name in shifted else EDGE_VALUES for name in unknown]
    got = _edge_blocks_at_once(dims, unknown, given, choices)
    if got is False:
        got = _edge_blocks(dims, unknown, given, choices)
    if got is None:
        return [None] * len(targets)
    return [_closest(unknown, *got, target) for target in targets]


def _edge_blocks_at_once(dims, unknown: list[str], given, choices):
    """The block edges every combination of values makes, evaluated in one pass (up to 1,331
    combinations): (combinations, edges, which make a block), or None where none does. False where
    one evaluation cannot stand for all: a combination that makes no block (a shift past 63, a
    division by 0) raises for the whole pass, and _edge_blocks tries them one by one."""
    combos = np.array(list(itertools.product(*choices)), dtype=np.int64).reshape(-1, len(unknown))
    env = {**{k: np.int64(v) for k, v in given.items()}, **{n: combos[:, i] for i, n in enumerate(unknown)}}
    try:
        with np.errstate(all="raise"):
            vals = np.stack([np.broadcast_to(np.asarray(Evaluator(env).value(d)), (len(combos),)) for d in dims],
                            axis=1)
    except Exception:
        return False
    if vals.dtype.kind not in "iu":
        return False
    ok = (vals.min(axis=1) >= 1) & (vals.max(axis=1) <= 1024)      # so that the product cannot wrap
    ok &= vals[:, 0] * vals[:, 1] * vals[:, 2] <= 1024
    return (combos, vals, ok) if ok.any() else None


def _edge_blocks(dims, unknown: list[str], given, choices):
    """_edge_blocks_at_once, one combination at a time: one that makes no block is left out."""
    combos = np.array(list(itertools.product(*choices)), dtype=np.int64).reshape(-1, len(unknown))
    vals = np.ones((len(combos), len(dims)), dtype=np.int64)
    ok = np.zeros(len(combos), dtype=bool)
    for i, combo in enumerate(combos):
        env = {**{k: np.int64(v) for k, v in given.items()}, **dict(zip(unknown, combo))}
        try:
            made = [int(np.asarray(Evaluator(env).value(d)).reshape(-1)[0]) for d in dims]
        except (Unknown, ArithmeticError, ValueError, TypeError, IndexError):
            continue        # this value makes no block (a shift past 63, a division by 0)
        if min(made) < 1 or made[0] * made[1] * made[2] > 1024:
            continue
        vals[i], ok[i] = made, True
    return (combos, vals, ok) if ok.any() else None


def _closest(unknown: list[str], combos, vals, ok, target):
    """The block of the combinations that make one closest to `target`: in shape, then in size
    (log2 distances), the first of the best in product order."""
    logs = np.log2(np.where(ok[:, None], vals, 1).astype(np.float64))
    goal = np.log2(target)
    gap = np.abs(logs - goal)
    # summed left to right, as a sum of three numbers is
    shape = (gap[:, 0] + gap[:, 1]) + gap[:, 2]
    size = np.abs(((logs[:, 0] + logs[:, 1]) + logs[:, 2]) - float(goal.sum()))
    order = np.lexsort((np.arange(len(combos)), size, shape))
    k = next(int(i) for i in order if ok[i])
    return tuple(int(v) for v in vals[k]), tuple(zip(unknown, (int(c) for c in combos[k])))


def uses_axis(table: TwoTreeTable, name: str) -> bool:
    """The kernel's own text uses the axis (a group's `thread_rank()` spells every axis out)."""
    if table.thread_axes is not None:
        return name in table.thread_axes
    return any(s.name == name for a in table.accesses for s in ir.symbols(a.index))


def _thread_only(e: ir.Expr) -> bool:
    return all(s.kind in ("thread", "blockdim") for s in ir.symbols(e)) and \
        not any(isinstance(s, (ir.Name, ir.Subscript, ir.Deref, ir.Call)) and not
                (isinstance(s, ir.Call) and s.fn in ("min", "max")) for s in e.walk())


def block_threads(block) -> dict[str, np.ndarray]:
    """threadIdx.x, .y and .z of each thread of a block shape, threads linearized x fastest (as the
    hardware forms warps). Kept for the run and read-only: a few shapes are tried for every kernel,
    and every simulation of one of them reads the same arrays."""
    got = _THREADS.get(block)
    if got is None:
        lin = np.arange(block[0] * block[1] * block[2])
        bx, by, _ = block
        got = {"threadIdx.x": lin % bx, "threadIdx.y": (lin // bx) % by, "threadIdx.z": lin // (bx * by)}
        for v in got.values():
            v.flags.writeable = False
        if len(_THREADS) >= 256:
            _THREADS.clear()
        _THREADS[block] = got
    return got


_THREADS: dict[tuple[int, int, int], dict] = {}


def _env(block) -> dict:
    """The threads of a block shape and its blockDim."""
    return {**block_threads(block), **{f"blockDim.{a}": np.int64(v) for a, v in zip("xyz", block)}}


def _fit_checks(table: TwoTreeTable) -> list[tuple]:
    """What _fits reads of each access, worked out once for all the block shapes it tries:
    (guards on blockDim alone, guards on the thread alone, [(subscript, extent)] of a thread-only
    subscript of a `__shared__` or local array, or None where the access is not checked)."""
    out = []
    for acc in table.accesses:
        uniform = [g for g in acc.guards if all(s.kind == "blockdim" for s in ir.symbols(g))]
        if acc.space == "global" or not acc.array.dims or acc.loops:
            out.append((uniform, None, None))
            continue
        guards = [g for g in acc.guards if _thread_only(g)]
        exprs = list(acc.dims) if len(acc.dims) == len(acc.array.dims) and len(acc.dims) > 1 else [acc.index]
        extents = list(acc.array.dims) if len(exprs) > 1 else [acc.array.extent]
        bounded = [(e, extent) for e, extent in zip(exprs, extents) if extent is not None and _thread_only(e)]
        out.append((uniform, guards, bounded))
    return out


def _fits(table: TwoTreeTable, checks: list[tuple], block) -> bool:
    """A block the kernel can be launched with: no `__shared__` or local array indexed by the thread
    alone leaves its extent, and the kernel does not turn the whole block away by a guard on blockDim.
    `checks`: _fit_checks(table)."""
    env = _env(block)
    ev = Evaluator(env)
    runs = False
    for uniform, guards, bounded in checks:
        try:
            if any(not np.all(np.asarray(ev.value(g)) != 0) for g in uniform):
                continue        # this block shape never runs the access
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError):
            pass
        runs = True
        if guards is None:
            continue
        try:
            mask = np.ones(len(env["threadIdx.x"]), dtype=bool)
            for g in guards:
                mask &= np.broadcast_to(np.asarray(ev.value(g)) != 0, mask.shape)
            for e, extent in bounded:
                v = np.broadcast_to(np.asarray(ev.value(e)), mask.shape)[mask]
                if v.size and (v.max() >= extent or v.min() < 0):
                    return False
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError):
            continue
    return runs or not table.accesses


def _radix_block(table: TwoTreeTable, uses_y: bool, uses_z: bool) -> tuple[int, int, int] | None:
    """The block width the kernel's own indexes say: `threadIdx.y * 8 + threadIdx.x` is a mixed-radix
    number whose x digit runs to 8, and so is `blockIdx.x * 512 + threadIdx.x` with 512: the stride
    of the level above is the size of the level below (a warp's worth of rows under it)."""
    from collections import Counter
    seen: Counter = Counter()
    for acc in table.accesses:
        strides = {}
        for t in acc.terms:     # the index's terms, as the rules read them later
            if isinstance(t.coord, ir.Sym) and t.coord.kind in ("thread", "block"):
                strides[t.coord.name] = t.stride
        x, y = strides.get("threadIdx.x"), strides.get("threadIdx.y")
        above = y or (strides.get("blockIdx.x") if y is None else None)
        s = _ratio(above, x) if x is not None and above is not None else None
        if s is not None and 2 <= s <= 1024 and s & (s - 1) == 0:
            seen[(s, max(1, 32 // s))] += 1
        # the other way round, `threadIdx.x * 4 + threadIdx.y`: the y digit runs to 4
        s = _ratio(x, y) if x is not None and y is not None else None
        if s is not None and 2 <= s <= 32 and s & (s - 1) == 0:
            seen[(32 // s, s)] += 1
    if not seen:
        return None
    bx, by = seen.most_common(1)[0][0]
    # rows of a warp's worth only where the kernel has rows: one that never reads threadIdx.y runs
    # its 16 threads as one row (a second row would be threads no index tells apart)
    return (bx, by if uses_y else 1, 2 if uses_z else 1)


def _ratio(a: ir.Expr, b: ir.Expr) -> int | None:
    """a / b when it is one integer whatever the sizes in them are (`512 * d_mul` over `d_mul`)."""
    out = None
    for v in (1, 3):
        env = {x.name: np.int64(v) for e in (a, b) for x in ir.symbols(e) if x.kind == "param"}
        try:
            num, den = int(Evaluator(env).value(a)), int(Evaluator(env).value(b))
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError):
            return None
        if den <= 0 or num % den:
            return None
        if out is not None and out != num // den:
            return None
        out = num // den
    return out


def _tile_block(table: TwoTreeTable, uses_y: bool, uses_z: bool) -> tuple[int, int, int] | None:
    """The block a kernel's tiles describe: `tile[threadIdx.y][threadIdx.x]` in a `[16][17]` tile
    says 16 x 17 at most, and a block that fills its tile is 16 x 16 (the padding column is not a
    thread). Only axes every tile agrees on."""
    bounds: dict[str, int] = {}
    for acc in table.accesses:
        if acc.space != "shared" or len(acc.dims) != len(acc.array.dims) or len(acc.dims) < 2:
            continue
        for e, extent in zip(acc.dims, acc.array.dims):
            if extent is None or not (isinstance(e, ir.Sym) and e.kind == "thread"):
                continue
            axis = e.name[-1]
            bounds[axis] = min(bounds.get(axis, extent), extent)
    if "x" not in bounds or (uses_y and "y" not in bounds):
        return None
    x = bounds["x"]
    y = bounds.get("y", 1) if uses_y else 1
    if x != y and abs(x - y) <= 4:      # padding (`[TILE][TILE + 1]`): the block is square
        x = y = min(x, y)
    z = bounds.get("z", 1) if uses_z else 1
    return (x, y, z) if x * y * z <= 1024 else None


# ---- problem sizes ---------------------------------------------------------------------------
def _sizes(table: TwoTreeTable, given: dict[str, int],
           tied: tuple[str, ...] = ()) -> tuple[dict[str, tuple[int, ...]], dict[str, str]]:
    """The values each value the kernel reads and the program does not give takes in the trials,
    and its role (open_roles)."""
    lc = table.launch
    exprs: list[ir.Expr] = []
    for a in table.accesses:
        exprs += [a.index, *a.dims, *a.guards]
    for it in table.iterators:
        exprs += [e for e in (it.cond, it.value) if e is not None]
    for b in table.barriers:
        exprs += list(b.guards)
    exprs += [g for g in (lc.grid or ())]
    exprs = list({id(e): e for e in exprs}.values())     # a guard is shared by the accesses under it
    block_names = {s.name for b in (lc.block or ()) for s in ir.symbols(b)}
    names = {s.name for e in exprs for s in ir.symbols(e) if s.kind == "param"}
    # the sizes of the allocations the launch passes for the arrays the kernel reads and writes
    # (`cudaMalloc(&d, (n + 1) * sizeof(int))`): a range is read against them, so a name in one is a
    # problem size even where no guard of the kernel compares with it
    extents = getattr(lc, "extents", None) or {}
    allocated = [extents[a] for a in {x.array.name for x in table.accesses} if a in extents]
    alloc_names = {s.name for e in allocated for s in ir.symbols(e) if s.kind == "param"}
    names |= alloc_names
    names -= set(given) | set(lc.params) | block_names | set(tied)
    if not names:
        return {}, {}
    roles = open_roles(exprs, [g for g in (lc.grid or ())], names)
    for name in alloc_names & names:
        if roles[name] == "free":
            roles[name] = "size"
    for name in leading_dimensions(table, [n for n, r in roles.items() if r == "free"]):
        roles[name] = "size"
    for name in byte_pitches(exprs) & {n for n, r in roles.items() if r == "free"}:
        roles[name] = "pitch"
    values = {"shift": SHIFTS, "mask": SIZES_POW2, "size": SIZES, "flag": FLAGS, "free": FREE, "pitch": PITCHES}
    out = {n: values[roles[n]] for n in sorted(names)}
    for n, d in product_degrees(exprs, {n for n, r in roles.items() if r == "size"}).items():
        out[n] = sizes_for_degree(d)
    for n in bank_strides(table) & {n for n, r in roles.items() if r == "size"}:
        # the banks a warp's lanes fall on depend on the factors of two of their stride: an open
        # row length is tried odd too (both sizes above are multiples of 8)
        out[n] = out[n] + (out[n][0] | 1,)
    for n, k in derived_divisors(lc).items():
        # `totalBlocks = numElements / 2 / 256` passed beside `numElements`: the size is tried where the
        # value derived from it takes the trial sizes (1000 blocks, not 1)
        if n in out and roles.get(n) == "size":
            out[n] = tuple(v * k for v in out[n])
    for n, vs in (getattr(lc, "defaults", None) or {}).items():
        if n in out:
            # the program's own value where the command line sets none: a warning holds there too
            out[n] = out[n] + tuple(v for v in vs if v not in out[n])
    checks = param_checks(lc, table)
    if checks:
        for n in names:
            out[n] = _distinct(checks, n, tuple(allowed(checks, n, v, given) for v in out[n]), given)
    return out, roles


FEW = 8     # values a check allows that are an enumeration of the program's (`T == 2 || T == 4`)


def _distinct(checks: list[ir.Expr], name: str, vals: tuple[int, ...], given: dict[str, int]) -> tuple[int, ...]:
    """Trial values the checks moved onto one value (`static_assert(T == 2 || T == 4)` takes both
    1000 and 1024 to 4): where they allow a few values only, a later one becomes the largest other,
    so that the trials ask two of the program's values where it has two."""
    if len(set(vals)) == len(vals):
        return vals
    cands = np.arange(SEARCH, 0, -1, dtype=np.int64)
    ok = cands[_meets(_on_name(checks, name, given), name, cands, given)]
    if len(ok) > FEW:
        return vals         # a size the checks round (`n % 256 == 0`): its trials stay where they were moved
    out: list[int] = []
    for v in vals:
        if v in out:
            v = next((int(c) for c in ok if int(c) not in out), v)
        out.append(v)
    return tuple(out)


MAX_DIVISOR = 1 << 20


def derived_divisors(launch) -> dict[str, int]:
    """The open sizes a derived parameter divides by a constant (`n / 3`, `n / 2 / 256`, `n >> 4`),
    with the largest such constant."""
    out: dict[str, int] = {}

    from ..model.host import fold

    def walk(e, k: int) -> None:
        c = fold(e.right) if isinstance(e, ir.Bin) and e.op in ("/", ">>") else None
        if c is not None and c > 0:
            c = c if e.op == "/" else (1 << c if c < 21 else MAX_DIVISOR)
            walk(e.left, min(MAX_DIVISOR, k * c))
        elif isinstance(e, ir.Sym):
            if e.kind == "param":
                out[e.name] = max(out.get(e.name, 1), k)
        elif isinstance(e, ir.Expr):
            for c in e.children():
                walk(c, k)
    for e in (getattr(launch, "derived", None) or {}).values():
        walk(e, 1)
    return {n: k for n, k in out.items() if k > 1}


def bank_strides(table: TwoTreeTable) -> set[str]:
    """The open names that multiply a thread coordinate (or a loop counter stepping with one) in a
    shared-memory index: `smem[lr * width + c]`."""
    out: set[str] = set()
    for a in table.accesses:
        if a.space != "shared":
            continue
        for n in a.index.walk():
            if isinstance(n, ir.Bin) and n.op == "*":
                for coord, stride in ((n.left, n.right), (n.right, n.left)):
                    if any(x.kind in ("thread", "iter") for x in ir.symbols(coord)):
                        out |= {x.name for x in ir.symbols(stride) if x.kind == "param"}
    return out


def param_checks(launch, table: TwoTreeTable | None = None) -> list[ir.Expr]:
    """The host's checks that read the kernel's parameters alone: those a trial's values can meet
    (`assert(ld % 128 == 0 && ld >= cols)` as its two parts: each is met on its own names). With
    `table`, also the kernel's own: a condition on its parameters that every access runs under
    (`if (C % 32 != 0) __trap();`, `if (n <= 0) return;` first thing): where it fails the kernel
    does nothing, so a trial that fails it would judge no work."""
    out: list[ir.Expr] = []
    stack = list(reversed([*launch.host_checks, *(kernel_preconditions(table) if table is not None else ())]))
    while stack:
        c = stack.pop()
        if isinstance(c, ir.Bin) and c.op == "&&":
            stack.extend((c.right, c.left))
        elif all(s.kind == "param" for s in ir.symbols(c)):
            out.append(c)
    return out


def kernel_preconditions(table: TwoTreeTable) -> list[ir.Expr]:
    """The guards on the launch's parameters alone that every access and every barrier of the
    kernel runs under, and the kernel's `static_assert`s on them."""
    runs = [a.guards for a in table.accesses] + [b.guards for b in table.barriers]
    if not runs:
        return list(table.static_checks)
    common = [g for g in runs[0] if ir.symbols(g) and all(s.kind == "param" for s in ir.symbols(g))]
    return [g for g in common if all(g in gs for gs in runs[1:])] + list(table.static_checks)


def grid_sizes(table: TwoTreeTable, family: Family) -> list[str]:
    """The sizes the program does not give that its launch's grid is computed from."""
    names = {s.name for g in (table.launch.grid or ()) for s in ir.symbols(g)}
    return [n for n, role in family.roles.items() if role == "size" and n in names]


SEARCH = 4096       # how far past a trial value the first one the host's checks allow is looked for


def allowed(checks: list[ir.Expr], name: str, value: int, given: dict[str, int]) -> int:
    """`value`, or the first value after it that the host's checks on `name` alone allow
    (`assert(n % 256 == 0)`: 1000 becomes 1024): a trial is a value the program may run. The
    candidates are evaluated at once, as one column."""
    mine = _on_name(checks, name, given)
    if not mine:
        return value
    cands = np.arange(value, value + SEARCH, dtype=np.int64)
    hits = np.flatnonzero(_meets(mine, name, cands, given))
    if hits.size:
        return int(cands[hits[0]])
    # none at or above it (`if (k <= 16)` around the launch): the largest below that the checks
    # allow, a power of two for a trial that is one and none for one that is not
    below = np.arange(value - 1, 0, -1, dtype=np.int64)
    ok = _meets(mine, name, below, given)
    pow2 = (below & (below - 1)) == 0
    alike = ok & (pow2 if value & (value - 1) == 0 else ~pow2)
    hits = np.flatnonzero(alike) if alike.any() else np.flatnonzero(ok)
    return int(below[hits[0]]) if hits.size else value


def _on_name(checks: list[ir.Expr], name: str, given: dict[str, int]) -> list[ir.Expr]:
    """The checks that read `name` and values given alone: those a value of `name` meets or not."""
    return [c for c in checks if {s.name for s in ir.symbols(c)} <= {name, *given}]


def _meets(checks: list[ir.Expr], name: str, cands: np.ndarray, given: dict[str, int]) -> np.ndarray:
    """Which of the candidate values of `name` every check allows (one that cannot be evaluated is
    taken as true), evaluated at once, as one column."""
    ok = np.ones(len(cands), dtype=bool)
    ev = Evaluator({**{k: np.int64(v) for k, v in given.items()}, name: cands})
    for c in checks:
        try:
            with np.errstate(all="ignore"):
                ok &= np.broadcast_to(np.asarray(ev.value(c)) != 0, ok.shape)
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError, ArithmeticError):
            continue
    return ok


def holds(checks: list[ir.Expr], env: dict[str, int]) -> bool:
    """Whether every check is true for these values (one that cannot be evaluated is taken as true)."""
    ev = Evaluator({k: np.int64(v) for k, v in env.items()})
    for c in checks:
        try:
            if not bool(np.asarray(ev.value(c)).all()):
                return False
        except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError, ArithmeticError):
            continue
    return True


INT_MAX = 2**31 - 1


def sizes_for_degree(d: int) -> tuple[int, ...]:
    """Sizes for a name multiplied with d - 1 other sizes in one of the kernel's 32-bit expressions
    (`B * NH * T * HS`): a program that computes that product in `int` runs sizes whose product
    fits, so each takes a value whose d-th power does (a non power of two and a power of two)."""
    if d <= 3:
        return SIZES
    top = int(round(INT_MAX ** (1.0 / d)))
    while top ** d > INT_MAX:
        top -= 1
    pow2 = 1 << (top.bit_length() - 1)
    other = top - 1 if (top - 1) & (top - 2) else top - 2      # below the limit, not a power of two
    return (other, pow2) if other != pow2 else (top, pow2)


def product_degrees(exprs: list[ir.Expr], sizes: set[str]) -> dict[str, int]:
    """The most sizes (names of `sizes`) any product in the expressions multiplies together, for
    each name that takes part in one with more than three."""
    if len(sizes) < 4:
        return {}       # no product of more than three of them
    memo: dict[int, tuple[int, frozenset]] = {}

    def degree(e: ir.Expr) -> tuple[int, frozenset]:
        got = memo.get(id(e))
        if got is not None:
            return got
        if isinstance(e, ir.Sym):
            got = (1, frozenset((e.name,))) if e.name in sizes else (0, frozenset())
        elif isinstance(e, ir.Bin) and e.op == "*":
            (a, na), (b, nb) = degree(e.left), degree(e.right)
            got = (a + b, na | nb)
        elif isinstance(e, ir.Bin) and e.op in ("/", ">>"):
            got = degree(e.left)
        else:
            kids = [degree(k) for k in e.children()]
            got = max(kids, key=lambda x: x[0]) if kids else (0, frozenset())
        memo[id(e)] = got
        return got

    out: dict[str, int] = {}
    try:
        for n in ir.walk_all(exprs):
            if isinstance(n, ir.Bin) and n.op == "*":
                d, names = degree(n)
                if d > 3:
                    for name in names:
                        out[name] = max(out.get(name, 0), d)
    except RecursionError:      # a value nested deeper than Python recurses: the sizes stay as they are
        return {}
    return out


def byte_pitches(exprs) -> set[str]:
    """The open names an index multiplies a coordinate by in bytes and then divides by the element
    size (`(const float*)((const char*)src + row * pitch)` is `row * pitch / 4` floats in)."""
    out: set[str] = set()
    for n in ir.walk_all(exprs):
        if isinstance(n, ir.Bin) and n.op == "/" and isinstance(n.right, ir.Num) and n.right.value in (2, 4, 8, 16):
            for m in n.left.walk():
                if isinstance(m, ir.Bin) and m.op == "*":
                    for a, b in ((m.left, m.right), (m.right, m.left)):
                        if isinstance(b, ir.Sym) and b.kind == "param" and \
                                any(x.kind in ("thread", "block", "iter") for x in ir.symbols(a)):
                            out.add(b.name)
    return out


def leading_dimensions(table: TwoTreeTable, names: list[str]) -> set[str]:
    """The names among `names` that an index of the kernel uses as the length of a level: the
    stride of one coordinate while another coordinate of an index into the same array moves by a
    stride that holds none of the values the program does not give (`A[row * ld + col]`,
    `src[tid * chunk + i]`, `m[cols * tx + 16 * bx]`). Such a stride is at least the span of the
    level below it, or the array's rows would overlap: the layout itself says it is no 1."""
    if not names:
        return set()
    wanted = set(names)
    found: set[str] = set()
    by_array: dict[str, list] = {}
    for acc in table.accesses:
        if acc.space == "global" and not acc.unresolved:
            by_array.setdefault(acc.array.name, []).append(acc)
    for accs in by_array.values():
        below = False       # a moving coordinate with a stride of known values, in any index of the array
        scaled: set[str] = set()
        for acc in accs:
            for t in acc.terms:
                if t.is_offset or not _moves(t.coord):
                    continue
                params = {s.name for s in ir.symbols(t.stride) if s.kind == "param"}
                if params & wanted:
                    scaled |= params & wanted
                elif not any(s.kind == "param" for s in ir.symbols(t.stride)):
                    below = True
        if below:
            found |= scaled
    return found


def _moves(coord: ir.Expr) -> bool:
    """A coordinate that takes more than one value in a launch: a thread, block or loop index, or a
    value loaded from memory."""
    if any(s.kind in ("thread", "block", "iter") for s in ir.symbols(coord)):
        return True
    return any(isinstance(n, (ir.Subscript, ir.Deref)) for n in coord.walk())


def _loop_starts(n: ir.Bin) -> set[str]:
    """The values a loop's counter starts from in its own test (`start + iter(j) < n` of `for (j =
    start; j < n; ++j)`): added to the counter on its side and on no other, an offset of the loop,
    not a bound (as a size beside n it would be tried at n's values, and the loop left empty)."""
    out: set[str] = set()
    sides = (n.left, n.right)
    for k, side in enumerate(sides):
        terms = _addends(side)
        if not any(any(x.kind == "iter" for x in ir.symbols(t)) for t in terms):
            continue
        other = {x.name for x in ir.symbols(sides[1 - k])}
        for t in terms:
            syms = ir.symbols(t)
            if syms and all(x.kind == "param" for x in syms):
                out |= {x.name for x in syms if x.name not in other}
    return out


def _addends(e) -> list:
    if isinstance(e, ir.Bin) and e.op == "+":
        return _addends(e.left) + _addends(e.right)
    return [e]


def _bounds(n) -> bool:
    """A comparison that bounds a value (`i < n`, `n == 0`), not one that picks a variant (`qr == 1`)."""
    return isinstance(n, ir.Bin) and n.op in COMPARE_OPS and not _selects(n)


def _selects(n: ir.Bin) -> bool:
    """`qr == 1`, `mode != 2`: a value tested against one non-zero constant picks a variant of the
    code; it bounds nothing, so it is no problem size (`n == 0`, an empty problem, still is)."""
    if n.op not in ("==", "!="):
        return False
    for a, b in ((n.left, n.right), (n.right, n.left)):
        if isinstance(a, ir.Sym) and isinstance(b, ir.Num) and b.value != 0:
            return True
    return False


def _value_symbols(e: ir.Expr) -> list[ir.Sym]:
    """The names a value is made of: in `T == 16 ? 4 : 3` the arms, not the test that picks one
    (T is no shift count of `lane >> (T == 16 ? 4 : 3)`)."""
    if isinstance(e, ir.Cond):
        return _value_symbols(e.then) + _value_symbols(e.other)
    if isinstance(e, ir.Sym):
        return [e]
    if isinstance(e, ir.Num):
        return []
    if not any(isinstance(n, ir.Cond) for n in ir.walk_all([e])):
        return list(ir.symbols(e))
    return [s for c in e.children() for s in _value_symbols(c)]


def open_roles(exprs: list[ir.Expr], grid: list[ir.Expr], names: set[str]) -> dict[str, str]:
    """What each value the program does not give is to the kernel, read from where it stands:
    - `shift`: a shift count (`1 << log2N`); `mask`: masked with (`i & (n - 1)`: a power of two);
    - `size`: compared with something (`i < n`, `k < K`, `n == 0`) or a grid is computed from it: a
      problem size, whose verdicts are asked for the sizes a program runs (large ones);
    - `flag`: only tested for truth (`if (transposed)`, `beta ? ... : ...`);
    - `free`: none of these (a stride, an increment, an offset the kernel never bounds): 1 is as
      likely as any other value, so a verdict that holds only for some values of it is not one
      the program is shown to meet."""
    masks, shifts, sizes, tested = set(), set(), set(), set()
    for g in grid:
        sizes |= {s.name for s in ir.symbols(g) if s.kind == "param"}
    for n in ir.walk_all(exprs):
        if isinstance(n, ir.Bin):
            if n.op == "&":
                for side in (n.left, n.right):      # `i & (n - 1)`, `i & (stride / 128 - 1)`
                    if isinstance(side, ir.Bin) and side.op == "-" and side.right == ir.Num(1):
                        masks |= {s.name for s in ir.symbols(side.left) if s.kind == "param"}
            if n.op in ("<<", ">>"):     # `1 << log2N`, `x >> (log2N - 1)`
                shifts |= {x.name for x in _value_symbols(n.right) if x.kind == "param"}
            if _bounds(n):
                starts = _loop_starts(n)
                sizes |= {x.name for x in ir.symbols(n) if x.kind == "param" and x.name not in starts}
            if n.op in ("&&", "||"):
                tested |= {x.name for x in (n.left, n.right) if isinstance(x, ir.Sym) and x.kind == "param"}
        elif isinstance(n, ir.Un) and n.op == "!" and isinstance(n.operand, ir.Sym):
            tested.add(n.operand.name)
        elif isinstance(n, ir.Cond) and isinstance(n.cond, ir.Sym):
            tested.add(n.cond.name)
    for e in exprs:         # a guard that is the name alone: `if (flag)`
        if isinstance(e, ir.Sym) and e.kind == "param":
            tested.add(e.name)
    out = {}
    for n in names:
        out[n] = ("shift" if n in shifts else "mask" if n in masks else "size" if n in sizes
                  else "flag" if n in tested else "free")
    return out
