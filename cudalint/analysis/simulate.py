"""Warp simulation over a launch configuration (numpy, vectorized over lanes).

For an Access it evaluates the index of every thread of a block, for sampled blocks (first,
middle, last) and sampled loop iterations (first, middle, last), honouring the guards, and from
that computes 32-byte sectors per warp request, index ranges per dimension, 32-bit overflow,
and stores that two threads make to one element.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..index import ir
from ..index.evaluate import (Evaluator, KeptValues, Unknown, ValueTooLarge, ctype_of_name, known_bound,
                              raise_free_bound, value_span)
from ..model.table import Access, Iterator, TwoTreeTable
from .family import Family, Trial, block_threads, derive

SECTOR = 32
WARP = 32
DEFAULT_SIZE = 1000
ASSUMED_BLOCK_1D = (256, 1, 1)
ASSUMED_GRID = (8, 8, 4)
MAX_TRIPS = 1 << 22
MAX_TRIP_LANES = 1 << 25  # lanes x iterations a trip count may evaluate (about a second)
MAX_COMBOS = 64
_I64_MIN, _I64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
DENSE_TRIPS = 32          # loops this short are simulated at every iteration for bank conflicts


def capped_product(samples: list[list[int]]) -> list[tuple[int, ...]]:
    """All combinations of sampled trip counters, thinned evenly to MAX_COMBOS (the last kept)."""
    total = 1
    for s in samples:
        total *= len(s)
    if total <= MAX_COMBOS:
        return list(itertools.product(*samples)) if samples else [()]
    # The same evenly spaced combinations, picked by index without building the product (nine
    # nested loops of seven samples each are 40 million tuples).
    step = total / MAX_COMBOS
    keep = sorted({int(i * step) for i in range(MAX_COMBOS)} | {total - 1})
    out = []
    for k in keep:
        combo = []
        for s in reversed(samples):       # itertools.product order: the last list varies fastest
            k, r = divmod(k, len(s))
            combo.append(s[r])
        out.append(tuple(reversed(combo)))
    return out


def conjuncts(g: ir.Expr):
    """`a && b && c` as a, b, c."""
    if isinstance(g, ir.Bin) and g.op == "&&":
        yield from conjuncts(g.left)
        yield from conjuncts(g.right)
    else:
        yield g


def guard_value(env: dict, g: ir.Expr, shape) -> np.ndarray | None:
    """Where a guard holds, from the parts of it the model follows: in `p != NULL && tid == 0` the
    pointer test (data to the model) may pass, the thread test decides. None: nothing followed."""
    out = None
    for c in conjuncts(g):
        try:
            v = np.broadcast_to(Evaluator(env).truth(c), shape)
        except Unknown:
            continue  # data-dependent: may hold
        out = v if out is None else out & v
    return out


def guards_followed(guards) -> bool:
    """Every part of every guard is followed, or has one value across the launch (a NULL test):
    which threads run the access is known, not a guess."""
    return not any(s.kind in ("data", "unknown") for g in guards for c in conjuncts(g) for s in ir.symbols(c))


# ---- trip counts in closed form ------------------------------------------------------------------
# A loop whose condition compares an affine function of its trip counter with bounds that do not
# move (`tid + t * blockDim.x < n`, `k < K`) leaves, in each lane, at the first t where the
# comparison fails: a division, not a scan of every iteration. The count is the scan's own answer
# (the scan stays for the other loops, and decides where it would have given up).
_NEVER = 1 << 62          # a lane that never leaves
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_INT_CALLS = {"min", "max", "umin", "umax", "llmin", "llmax", "abs", "llabs", "__mul24", "__umul24"}


def _closed_trips(cond: ir.Expr, trip: str, env: dict) -> int | None:
    """The most iterations any lane runs (_NEVER or more: some lane never leaves), or None where
    the condition is not of the form this reads; any doubt falls back to the scan."""
    try:
        first = None
        for c in conjuncts(cond):
            leave = _first_false(c, trip, env)
            if leave is None:
                return None
            first = leave if first is None else np.minimum(first, leave)
    except Exception:      # whatever stops the evaluation here, the scan meets and handles as it does
        return None
    return int(np.max(first)) if np.size(first) else 0


def _first_false(c: ir.Expr, trip: str, env: dict):
    """Per lane, the first trip counter value at which `c` is false."""
    names = {s.name for s in ir.symbols(c)}
    if trip not in names:
        v = np.asarray(Evaluator(env, exact=False).value(c))
        return np.where(v != 0, _NEVER, 0) if v.dtype.kind in "iub" else None
    if not (isinstance(c, ir.Bin) and c.op in _FLIP):
        return None
    left = trip in {s.name for s in ir.symbols(c.left)}
    right = trip in {s.name for s in ir.symbols(c.right)}
    if left == right:
        return None
    f, g, op = (c.left, c.right, c.op) if left else (c.right, c.left, _FLIP[c.op])
    if not _affine(f, trip) or not _int_only(f):
        return None
    at = []
    for t in (0, 1):
        e = dict(env)
        e[trip] = np.int64(t)
        at.append(np.asarray(Evaluator(e, exact=False).value(f)))
    bound = np.asarray(Evaluator(env, exact=False).value(g))
    if any(x.dtype.kind not in "iu" for x in (*at, bound)):
        return None
    if at[0].ndim == at[1].ndim == bound.ndim == 0:
        return _first_false_of(int(at[0]), int(at[1]), int(bound), op)
    at = [np.atleast_1d(x) for x in at]
    bound = np.atleast_1d(bound)
    b, a = at[0].astype(np.int64), (at[1].astype(np.int64) - at[0].astype(np.int64))    # wraps as the scan does
    # Within these bounds a * t + b is exact for every t the scan evaluates (up to 2^23), and so is
    # the comparison with the bound.
    if _beyond(a, 1 << 38) or _beyond(b, 1 << 60) or _beyond(bound, 1 << 61):
        return None
    g = bound.astype(np.int64)
    if op in (">", ">="):          # f > g is -f < -g
        a, b, g, op = -a, -b, -g, "<" if op == ">" else "<="
    holds = b < g if op == "<" else b <= g
    safe = np.where(a > 0, a, 1)
    reach = -((b - g) // safe) if op == "<" else (g - b) // safe + 1     # first t with a t + b past g
    return np.where(a > 0, np.maximum(reach, 0), np.where(holds, _NEVER, 0))


def _first_false_of(f0: int, f1: int, bound: int, op: str):
    """_first_false's reckoning where nothing varies by lane (a loop over `k < K`): the same steps
    on Python integers, which wrap to int64 where numpy's do."""
    b, a = _wrap64(f0), _wrap64(_wrap64(f1) - _wrap64(f0))
    if abs(a) > 1 << 38 or abs(b) > 1 << 60 or abs(bound) > 1 << 61:
        return None
    g = bound
    if op in (">", ">="):          # f > g is -f < -g
        a, b, g, op = -a, -b, -g, "<" if op == ">" else "<="
    holds = b < g if op == "<" else b <= g
    if a > 0:
        return max(-((b - g) // a) if op == "<" else (g - b) // a + 1, 0)
    return _NEVER if holds else 0


def _wrap64(v: int) -> int:
    return (v + (1 << 63)) % (1 << 64) - (1 << 63)


def _beyond(v: np.ndarray, limit: int) -> bool:
    """Some |value| exceeds `limit` (compared on each side: np.abs(INT64_MIN) is negative)."""
    return bool(((v > limit) | (v < -limit)).any())


def _affine(e: ir.Expr, trip: str) -> bool:
    """`e` is a + b * trip with a, b free of it: sums, products by what does not hold it, shifts by a
    constant, conversions between integer types (which the evaluator does not narrow)."""
    if trip not in {s.name for s in ir.symbols(e)}:
        return True
    match e:
        case ir.Sym(name=n):
            return n == trip
        case ir.Bin(op="+" | "-", left=l, right=r):
            return _affine(l, trip) and _affine(r, trip)
        case ir.Bin(op="*", left=l, right=r):
            return (_affine(l, trip) and trip not in {s.name for s in ir.symbols(r)}) or \
                (_affine(r, trip) and trip not in {s.name for s in ir.symbols(l)})
        case ir.Bin(op="<<", left=l, right=ir.Num(value=int(k))) if 0 <= k < 63:
            return _affine(l, trip)
        case ir.Cast(type=t, expr=x) if not t.pointers:
            return _affine(x, trip)
    return False


def _int_only(e: ir.Expr) -> bool:
    """Nothing in `e` is a floating-point value (a conversion to int would cut it: not affine)."""
    for n in e.walk():
        match n:
            case ir.Num(value=v) if not isinstance(v, int):
                return False
            case ir.Sym(ctype=ct) if ctype_of_name(ct) == "f":
                return False
            case ir.Cast(type=t) if t.pointers or ctype_of_name(t.name) == "f":
                return False
            case ir.Call(fn=fn) if fn.split("::")[-1] not in _INT_CALLS:
                return False
            case ir.Str() | ir.Name() | ir.Member() | ir.Subscript() | ir.Deref() | ir.AddrOf() | ir.Assign():
                return False
    return True


def _shift_count_only(e: ir.Expr, trip: str) -> bool:
    """The trip counter is in `e` only as the count of shifts (`n >> s`, `1 << s`) whose other side
    does not hold it: past 63 such a shift gives one value (numpy's, 0 or -1, whatever the count),
    and so does `e`."""
    found = False
    for n in e.walk():
        if isinstance(n, ir.Bin) and n.op in ("<<", ">>") and isinstance(n.right, ir.Sym) and n.right.name == trip:
            if any(s.name == trip for s in ir.symbols(n.left)):
                return False
            found = True
        elif isinstance(n, ir.Sym) and n.name == trip:
            pass        # met as a shift's count above, or below a node the walk checks
        elif any(isinstance(k, ir.Sym) and k.name == trip for k in n.children()):
            return False
    return found


# numpy gives a shift by 64 or more one value (0, or -1 for a negative number shifted right):
# checked once, not assumed of every numpy cudalint may run on
_SATURATES = bool(np.all((np.array([5, -5], dtype=np.int64) >> np.array([64, 200], dtype=np.int64)) == [0, -1])
                  and np.all((np.array([5, -5], dtype=np.int64) << np.array([64, 200], dtype=np.int64)) == 0))


def _scanned(count: int, width: int, max_chunk: int) -> int | None:
    """What the scan of `_trip_count` returns for a loop whose last lane leaves at `count`: it gives
    up (None) where its chunks would reach its bounds first."""
    start, chunk = 0, 64
    while True:
        if start >= MAX_TRIPS or start * width >= MAX_TRIP_LANES:
            return None
        if count < start + chunk:
            return count
        start += chunk
        chunk = min(chunk * 4, max_chunk)


def _no_repeat(values: np.ndarray, mask: np.ndarray) -> bool:
    """No instance (row) holds one integer value twice among its masked lanes: one sort of all of
    them, each value keyed by its row. False: not shown (a repeat, floats, or values too large to
    key), and the search goes on."""
    if values.dtype.kind not in "iu" or not mask.any():
        return not mask.any()
    n = mask.shape[0]
    everywhere = mask.all()         # no guard: the rows need no gathering
    v = values if everywhere else values[mask]
    lo, hi = int(v.min()), int(v.max())
    if (hi - lo + 1) * n >= 1 << 62:
        return False
    if everywhere:
        key = ((v - lo) * n + np.arange(n)[:, None]).ravel()
    else:
        key = (v - lo) * n + np.nonzero(mask)[0]
    if (hi - lo + 1) * n <= 4 * key.size + 4096:    # keys dense enough to count, not sort
        return int(np.bincount(key).max()) <= 1
    key.sort()
    return not (key[1:] == key[:-1]).any()


def warp_sectors(addr: np.ndarray, mask: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Per warp request (row of `addr`, `mask`: (requests, 32)): the distinct 32-byte sectors its
    active lanes touch, `width` bytes each, and its distinct addresses."""
    sentinel = _I64_MAX
    if mask.all():          # every lane active (most requests): nothing to mask
        a = np.sort(addr, axis=1)
        addresses = (np.diff(a, axis=1) != 0).sum(axis=1) + 1
        if not (addr % SECTOR + width > SECTOR).any():
            return (np.diff(a // SECTOR, axis=1) != 0).sum(axis=1) + 1, addresses
    else:
        a = np.where(mask, addr, sentinel)
        a.sort(axis=1)
        used = a != sentinel
        addresses = ((np.diff(a, axis=1) != 0) & used[:, 1:]).sum(axis=1) + used[:, 0]
        if not ((addr % SECTOR + width > SECTOR) & mask).any():
            # no lane's bytes cross a sector boundary: a lane's one sector is its address's, and
            # the sorted addresses give their sectors sorted
            sec = a // SECTOR
            return ((np.diff(sec, axis=1) != 0) & used[:, 1:]).sum(axis=1) + used[:, 0], addresses
    first = addr // SECTOR
    last = (addr + width - 1) // SECTOR
    sec = np.concatenate([np.where(mask, first, sentinel), np.where(mask, last, sentinel)], axis=1)
    sec.sort(axis=1)
    return ((np.diff(sec, axis=1) != 0) & (sec[:, 1:] != sentinel)).sum(axis=1) + (sec[:, 0] != sentinel), addresses


# value_span's bound where only what a value may be matters: within it nothing leaves int64
SPAN_LIMIT = 1 << 62

# the rules that read what a global access's range instances give (AccessResult.ranges, overlap,
# excess, overflows)
RANGE_CODES = frozenset({"CL201", "CL202", "CL203", "CL302"})

_BLOCK_AXES = {"blockIdx.x": 0, "blockIdx.y": 1, "blockIdx.z": 2}


def _block_axes(exprs) -> tuple[int, ...] | None:
    """The block index axes (0, 1, 2) the expressions read, sorted; None where one of their block
    symbols is not blockIdx.x, .y or .z."""
    axes = set()
    for e in exprs:
        for s in ir.symbols(e):
            if s.kind == "block":
                if s.name not in _BLOCK_AXES:
                    return None
                axes.add(_BLOCK_AXES[s.name])
    return tuple(sorted(axes))


def _distinct(blocks: list, axes: tuple[int, ...], keep) -> list:
    """The blocks whose coordinates along `axes` no earlier one has, and those in `keep`."""
    seen, out = set(), []
    for b in blocks:
        at = tuple(b[i] for i in axes)
        if at not in seen or b in keep:
            seen.add(at)
            out.append(b)
    return out


def _overlap_moot(acc: Access) -> bool:
    """Two threads storing to one element are no finding: they store one value for all (`value_scope`),
    or bytes of one element, which the index does not tell apart."""
    return acc.value_scope >= 2 or acc.width < acc.array.elem_size


def _full(v, shape: tuple) -> np.ndarray:
    """`v` over the whole shape: itself where it already has it (values are read, never written)."""
    if v.__class__ is np.ndarray and v.shape == shape:
        return v
    return np.broadcast_to(v, shape)


def _most_common(d: np.ndarray) -> int:
    """The most common value (the smallest among ties); mostly there is only one."""
    lo = d.min()
    if lo == d.max():
        return int(lo)
    vals, counts = np.unique(d, return_counts=True)
    return int(vals[np.argmax(counts)])


class AnalysisLimit(Exception):
    """The simulation cannot be set up (e.g. a block of more than 1024 threads)."""


@dataclass
class Coalescing:
    sectors_per_request: float
    ideal_sectors: float
    requests: int
    lane_stride_bytes: int | None       # distance between adjacent lanes, most common value

    @property
    def ratio(self) -> float:
        return self.sectors_per_request / self.ideal_sectors if self.ideal_sectors else 1.0


@dataclass
class DimRange:
    lo: int
    hi: int
    at_max: dict[str, int]              # coordinate values of the thread/iteration reaching hi
    at_min: dict[str, int]


@dataclass
class Excess:
    axis: str
    coordinate: dict[str, int]
    index: int
    extent_text: str
    extent: int
    covered: int


@dataclass
class Overlap:
    threads: tuple[dict[str, int], dict[str, int]]
    element: int
    writers: int


@dataclass
class LaneAddresses:
    """Byte offset into the array of every thread of a block (linear ids, x fastest), for each
    sampled block and loop iteration: rows are instances, columns threads."""
    addr: np.ndarray
    mask: np.ndarray
    width: int                         # bytes each thread moves (16 for a float4 view)
    env: dict


@dataclass
class AccessResult:
    coalescing: Coalescing | None = None
    ranges: list[DimRange] = field(default_factory=list)   # per dimension, for arrays with declared extents
    overflows: list = field(default_factory=list)
    overlap: Overlap | None = None
    excess: Excess | None = None
    strides: dict[str, int] = field(default_factory=dict)   # threadIdx axis -> element stride
    executed: bool = True
    error: str | None = None


class Simulation:
    """The simulation of one kernel under one trial of the values the program does not give
    (family.py); without a trial, the family's first."""

    def __init__(self, table: TwoTreeTable, params: dict[str, int] | None = None, trial: Trial | None = None,
                 family: Family | None = None):
        self.table = table
        self.assumptions: list[str] = list(table.assumptions)
        self.params = dict(table.launch.params)
        if params:
            self.params.update(params)
        self.family = family if family is not None else derive(table, self.params)
        self.trial = trial if trial is not None else self.family.primary
        self.launch_known = table.launch.known
        self.grid_known = False          # the grid is the program's (else cudalint's (8, 8, 4))
        self.block_chosen = False
        self._defaulted: set[str] = set()
        self.block = self._block()
        self.grid = self._grid()
        self.nthreads = int(np.prod(self.block))
        if self.nthreads > 1024 or self.nthreads < 1:
            raise AnalysisLimit(f"block of {self.nthreads} threads is outside 1..1024")
        self.tid = dict(block_threads(self.block))     # read-only arrays, shared with every simulation of this shape
        self._tid_rows = {k: v[None, :] for k, v in self.tid.items()}     # as the rows' environments bind them
        self._trips: dict[int, list[int] | None] = {}
        # What several accesses, rules and modes ask for again: an access's instances (by access and
        # mode), the rows of those instances (by loops and samples: accesses of one loop nest share
        # them), the value of a guard's part over those rows (guards are shared by the accesses under
        # them, loop conditions by every access of the loop), and each access's result.
        self._results: dict[int, tuple[Access, AccessResult]] = {}
        self._instances: dict[tuple[int, str], tuple] = {}
        self._rows: dict[int, tuple] = {}
        self._row_keys: dict[tuple, int] = {}
        self._row_places: dict[tuple[int, int], np.ndarray | None] = {}
        self._steps: dict[int, tuple] = {}
        self._guard_names: dict[tuple, tuple[str, ...]] = {}
        self._guard_masks: dict[tuple, np.ndarray] = {}
        self._settled_loops: dict[int, tuple[bool, Iterator]] = {}
        self._kept = KeptValues()
        self._conjuncts: dict[tuple, tuple] = {}
        self._masks: dict[tuple[int, str], np.ndarray] = {}
        self._expr_params: dict[int, tuple[dict, ir.Expr]] = {}
        self._blocks: dict[str, list] = {}
        self._base: dict | None = None
        self._extents: dict[int, tuple[str, int] | None] = {}
        self._spans: dict[int, tuple] = {}
        # the rules whose findings are asked for (None: all of them; a later trial asks for those
        # still standing): a result leaves out what none of them reads
        self.wanted: frozenset[str] | None = None
        # blocks whose rows equal an earlier block's are left out (_distinct_blocks; False: every
        # sampled one is simulated, as a test compares)
        self.first_block_alone = True
        self._distinct_of: dict[tuple, list] = {}
        # a load of a shared or local array whose index's spans keep it inside its extents has no
        # ranges worked out (_extents_hold; False: every one is, as a test compares)
        self.spans_decide = True

    # ---- launch values ---------------------------------------------------------------------
    def param(self, name: str) -> int:
        if name not in self.params:
            tried = self.trial.size(name)
            self.params[name] = tried if tried is not None else DEFAULT_SIZE
            self._defaulted.add(name)
        return self.params[name]

    @property
    def defaulted_params(self) -> list[str]:
        return sorted(self._defaulted)

    def _scalar(self, e: ir.Expr, extra: dict | None = None) -> int | None:
        env = dict(extra or {})
        for s in ir.symbols(e):
            if s.kind == "param":
                env[s.name] = self.param(s.name)
        try:
            return int(Evaluator(env).value(e))
        except (Unknown, ValueError, TypeError, OverflowError):
            return None

    def _block(self) -> tuple[int, int, int]:
        lc = self.table.launch
        if lc.block is not None:
            vals = [self._scalar(b) for b in lc.block]     # an edge given nowhere takes the trial's value
            if all(v is not None and v > 0 for v in vals):
                if self.family.block_names:
                    self.launch_known = False
                    self.block_chosen = True     # a launch site with an unknown edge: run as tried (confirm mode)
                    hint = " or ".join([f"--param {k}=VALUE" for k in self.family.block_names] + ["--launch"])
                    self.assumptions.append(f"{self.family.block_text()} (give {hint})")
                return tuple(vals)
        self.launch_known = False
        b = self.trial.block or ASSUMED_BLOCK_1D
        if self.family.blocks:
            self.assumptions.append(self.family.block_text() + "; give `// cudalint: launch grid=(X,Y,Z) "
                                                                "block=(X,Y,Z)` or --launch")
        return b

    def _grid(self) -> tuple[int, int, int]:
        lc = self.table.launch
        env = {f"blockDim.{a}": v for a, v in zip("xyz", self.block)}
        if lc.grid is not None:
            vals = [self._scalar(g, env) for g in lc.grid]
            if all(v is not None and v > 0 for v in vals):
                self.grid_known = True
                return tuple(vals)
            self.assumptions.append("grid size of the launch could not be computed; assumed (8, 8, 4)")
        return ASSUMED_GRID

    # ---- environments ----------------------------------------------------------------------
    def base_env(self) -> dict:
        if self._base is None:
            env: dict = {}
            for a, v in zip("xyz", self.block):
                env[f"blockDim.{a}"] = np.int64(v)
            for a, v in zip("xyz", self.grid):
                env[f"gridDim.{a}"] = np.int64(v)
            self._base = env
        return dict(self._base)

    def _block_samples(self, mode: str) -> list[tuple[int, int, int]]:
        got = self._blocks.get(mode)
        if got is None:
            got = self._blocks[mode] = self._block_samples_of(mode)
        return list(got)

    def _block_samples_of(self, mode: str) -> list[tuple[int, int, int]]:
        gx, gy, gz = self.grid
        if mode in ("coalescing", "banks"):   # interior blocks: the pattern, not the ragged edge
            out = {(0, 0, 0), (gx // 2, gy // 2, gz // 2)}
        else:
            out = set(itertools.product(*[sorted({0, g - 1}) for g in (gx, gy, gz)]))
            out.add((gx // 2, gy // 2, gz // 2))
        return sorted(out)

    def _params_env(self, e_list) -> dict:
        env = {}
        for e in e_list:
            got = self._expr_params.get(id(e))
            if got is None:
                got = self._expr_params[id(e)] = (self._params_of(e), e)     # e held: its id stays its own
            env.update(got[0])
        return env

    def _params_of(self, e: ir.Expr) -> dict:
        """The sizes an expression names, with their values (a value, once given or chosen, stays)."""
        env = {}
        for s in ir.symbols(e):
            if s.kind == "param":
                env[s.name] = np.int64(self.param(s.name))
            elif s.kind == "uniform" and s.name in self.params:
                env[s.name] = np.int64(self.params[s.name])     # `p != NULL` where the launch passes NULL
        return env

    def trip_samples(self, it: Iterator, outer_env: dict) -> list[int] | None:
        """Sampled trip counter values of a loop (first, second, middle, last)."""
        key = id(it)
        if key in self._trips:
            return self._trips[key]
        count = self._trip_count(it, outer_env)
        if count is None:
            self._trips[key] = None
            return None
        if count <= 8:
            s = list(range(count))
        else:
            s = sorted({0, 1, 2, count // 2, count - 3, count - 2, count - 1})
        self._trips[key] = s
        return s

    def trip_count(self, it: Iterator) -> int | None:
        """Iterations of a loop as the simulation counts them (None when not computed)."""
        s = self.trip_samples(it, self.base_env())
        return s[-1] + 1 if s else (0 if s == [] else None)

    def _trip_count(self, it: Iterator, outer_env: dict) -> int | None:
        """Iterations of a loop: the first t at which its condition is false for every lane."""
        if it.cond is None:
            return None
        cond = it.cond
        env = dict(outer_env)
        env.update(self._params_env([cond]))
        lanes = any(s.kind in ("thread", "block") for s in ir.symbols(cond))
        width = 1
        if lanes:
            blocks = self._block_samples("range")
            for axis_i, axis in enumerate("xyz"):
                env[f"blockIdx.{axis}"] = np.array([b[axis_i] for b in blocks])[None, :, None]
            for k, v in self.tid.items():
                env[k] = v[None, None, :]
            width = len(blocks) * self.nthreads
        max_chunk = max(64, (1 << 22) // width)
        closed = _closed_trips(cond, it.trip.name, env)
        if closed is not None:
            return _scanned(closed, width, max_chunk)
        # Each lane leaves at the first iteration whose condition is false (a condition can turn
        # true again later, e.g. once `s *= 2` wraps to 0); the loop runs until the last lane leaves.
        # a lane still in the loop once the counter is past 63, where the condition holds it only
        # as a shift count, stays in it at every later iteration: the scan would give up at its bound
        settles = _SATURATES and _shift_count_only(cond, it.trip.name)
        start, chunk, count, alive = 0, 64, 0, None
        while True:
            # Not ended within the bound on iterations, or on lanes x iterations evaluated (a lane
            # whose step is 0, as in `i += threadIdx.x`, never leaves): treated as unknown.
            if start >= MAX_TRIPS or start * width >= MAX_TRIP_LANES:
                return None
            t = np.arange(start, start + chunk)
            env[it.trip.name] = t[:, None, None] if lanes else t
            try:
                v = np.asarray(Evaluator(env, exact=False).truth(cond))
            except Unknown:
                return None
            v = v.reshape(v.shape[0], -1) if v.ndim > 1 else np.broadcast_to(v.reshape(-1, 1), (len(t), 1))
            if alive is None:
                alive = np.ones(v.shape[1], dtype=bool)
            run = np.logical_and.accumulate(v, axis=0) & alive[None, :]
            steps = run.sum(axis=0)
            if steps.size and steps.max() > 0:
                count = max(count, start + int(steps.max()))
            alive = run[-1]
            if not alive.any():
                break
            if settles and start + chunk > 64:
                return None
            start += chunk
            chunk = min(chunk * 4, max_chunk)
        return count

    def instances(self, acc: Access, mode: str):
        """Environment arrays of shape (instances, threads) for an access (a dict of its own: callers
        may add to it)."""
        got = self._instance_entry(acc, mode)
        return dict(got[0]), got[1]

    def _instance_entry(self, acc: Access, mode: str) -> tuple:
        """(env, instances, rows key, acc) of an access, kept: the env is shared, for reading only."""
        got = self._instances.get((id(acc), mode))
        if got is None:
            got = self._instances[(id(acc), mode)] = (*self._instances_of(acc, mode), acc)
        return got

    def _instances_of(self, acc: Access, mode: str):
        """(env, instances, rows key): the key names the rows, which accesses of one loop nest share."""
        exprs = [acc.index, *acc.dims, *acc.guards]
        iter_samples = []
        for it in acc.loops:
            s = self.loop_samples(it)
            if mode == "coalescing" and len(s) > 3:
                s = s[:3]
            elif mode == "banks" and s and s[-1] < DENSE_TRIPS:
                s = list(range(s[-1] + 1))   # bank patterns change from one iteration to the next
            iter_samples.append(s)
        blocks = self._block_samples(mode)
        if mode == "banks":
            if _block_axes(exprs) == ():
                blocks = blocks[:1]    # a shared-memory pattern that no block index touches is the same in every block
        elif mode in ("range", "coalescing") and self.first_block_alone:
            blocks = self._distinct_blocks(acc, mode, exprs, blocks)
        key = self.name_rows((tuple(map(id, acc.loops)), tuple(map(tuple, iter_samples)), tuple(blocks)))
        if key not in self._rows:
            combos = capped_product(iter_samples)
            self._rows[key] = (self._product_env(acc.loops, blocks, combos), len(blocks) * len(combos),
                               acc.loops, (blocks, combos))
        base = self._rows[key]
        env = self._params_env(exprs)
        env.update(base[0])          # as lane_env binds them: a loop counter hides a parameter of its name
        return env, base[1], key

    def _distinct_blocks(self, acc: Access, mode: str, exprs, blocks: list) -> list:
        """The sampled blocks an access's instances need: a block whose coordinates along the axes
        its index and guards read (none: every block is alike) an earlier one already has gives rows
        equal to that one's, and is left out. Blocks are sorted and their rows come in that order,
        so the first instance where a range is reached, a store overlaps or a value leaves 32 bits
        is the one it was among all of them.

        Not for what counts the requests of each block (a global access's coalescing figures) or
        weighs how often a value comes (its threads past the grid's edge, `_excess`): a global
        access keeps its blocks, but for its range rows where its launch's grid is not known (no
        such threads then). The range rows hold the coalescing rows (`_within`)."""
        if acc.space == "global" and (mode == "coalescing" or (self.table.launch.grid is not None and self.launch_known)):
            return blocks
        axes = _block_axes(exprs)
        if axes is None:
            return blocks
        # the accesses of a kernel read a few sets of axes: each set's blocks are worked out once
        key = (mode, acc.space == "global", axes)
        got = self._distinct_of.get(key)
        if got is None:
            keep = ()
            if mode == "range":     # the coalescing rows' blocks, as this access takes them
                keep = self._block_samples("coalescing")
                if acc.space != "global":
                    keep = _distinct(keep, key[2], ())
            got = self._distinct_of[key] = _distinct(blocks, key[2], keep)
        return list(got)

    def name_rows(self, rows: tuple) -> int:
        """A small number naming a set of rows, whatever tuple describes them: the evaluators and
        guard parts look values up by the rows' name at nearly every node, and a tuple's hash is
        worked out again at every look-up."""
        key = self._row_keys.get(rows)
        if key is None:
            key = self._row_keys[rows] = len(self._row_keys)
        return key

    def loop_samples(self, it: Iterator) -> list[int]:
        s = self._trips[id(it)] if id(it) in self._trips else self.trip_samples(it, self.base_env())
        return s if s is not None else [0, 1]   # reported as CL901 by the lint stage

    def _product_env(self, loops, blocks, combos) -> dict:
        """lane_env((), loops, rows) for the rows of every block with every combination, in that
        order (blocks outer), built by repeating columns."""
        env = self.base_env()
        # the columns' bounds, where the rows are given as Python integers (not whole grids' arrays)
        bounded = isinstance(blocks, list) and len(blocks) > 0 and len(combos) > 0
        nb, nc = len(blocks), len(combos)
        b = np.array(blocks, dtype=np.int64).reshape(nb, 3).repeat(nc, axis=0)
        for axis_i, axis in enumerate("xyz"):
            column = b[:, axis_i, None]
            env[f"blockIdx.{axis}"] = known_bound(column, max(abs(x[axis_i]) for x in blocks)) if bounded else column
        c = np.array(combos, dtype=np.int64).reshape(nc, len(loops))
        c = np.broadcast_to(c, (nb, nc, len(loops))).reshape(nb * nc, len(loops))
        for k, it in enumerate(loops):
            column = c[:, k, None]
            env[it.trip.name] = known_bound(column, max(abs(x[k]) for x in combos)) if bounded else column
        env.update(self._tid_rows)
        return env

    def lane_env(self, exprs, loops, rows) -> dict:
        """Environment for (instances, threads) arrays: one row per (block, trip counters of `loops`),
        one column per thread of the block."""
        env = self.base_env()
        env.update(self._params_env(exprs))
        for axis_i, axis in enumerate("xyz"):
            env[f"blockIdx.{axis}"] = np.array([r[0][axis_i] for r in rows], dtype=np.int64)[:, None]
        for k, it in enumerate(loops):
            env[it.trip.name] = np.array([r[1][k] for r in rows], dtype=np.int64)[:, None]
        for k, v in self.tid.items():
            env[k] = v[None, :]
        return env

    def mask(self, acc: Access, env: dict, shape) -> np.ndarray:
        m = np.ones(shape, dtype=bool)
        for g in acc.guards:
            v = guard_value(env, g, shape)
            if v is not None:
                m &= v
        return m

    def instance_mask(self, acc: Access, mode: str) -> np.ndarray:
        """Where the access runs over its instances (read-only: it is shared). The coalescing
        instances are mostly rows of the range ones: their mask is taken from those rows, not
        worked out again."""
        got = self._masks.get((id(acc), mode))
        if got is None and mode == "coalescing" and (at := self._within(acc, "coalescing", "range")) is not None:
            got = self._masks[(id(acc), mode)] = self.instance_mask(acc, "range")[at]
            got.flags.writeable = False
        if got is None:
            env, n, key, _ = self._instance_entry(acc, mode)
            # the accesses under the same guards, over the same rows, share one mask (where their
            # environments bind the same of the guards' names)
            names = self._guard_names.get(acc.guards)
            if names is None:
                names = self._guard_names[acc.guards] = tuple({s.name: 0 for g in acc.guards for s in ir.symbols(g)})
            shared = (acc.guards, key, tuple(map(env.__contains__, names)))
            got = self._guard_masks.get(shared)
            if got is None:
                got = np.ones((n, self.nthreads), dtype=bool)
                settled = [it.cond for it in acc.loops if self._settled(it)]
                for g in acc.guards:
                    if any(g is c for c in settled):
                        continue
                    v = self._guard_value(env, g, key)
                    if v is not None:
                        got &= v
                got.flags.writeable = False
                self._guard_masks[shared] = got
            self._masks[(id(acc), mode)] = got
        return got

    def _settled(self, it: Iterator) -> bool:
        """A loop whose condition holds at every sampled iteration in every lane: its trip count is
        known and the condition reads no lane, block or other loop, only its own counter and
        numbers: the count is the first iteration at which it fails, and the samples come before."""
        got = self._settled_loops.get(id(it))
        if got is None:
            settled = it.cond is not None and self.trip_samples(it, self.base_env()) is not None \
                and all(s.kind in ("param", "uniform", "blockdim", "griddim") or s.name == it.trip.name
                        for s in ir.symbols(it.cond))
            got = self._settled_loops[id(it)] = (settled, it)
        return got[0]

    def _guard_value(self, env: dict, g: ir.Expr, key) -> np.ndarray | None:
        """guard_value over the rows `key` names, each part of the guard evaluated once for them: its
        value depends on the rows and on which of its names the access's environment binds. Not
        broadcast: the caller ANDs it into a mask of the instances' shape."""
        out = None
        for c in conjuncts(g):
            ck = (id(c), key, tuple(s.name in env for s in ir.symbols(c)))
            got = self._conjuncts.get(ck)
            if got is None:
                try:
                    v = Evaluator(env).truth(c)
                except Unknown:
                    v = None  # data-dependent: may hold
                got = self._conjuncts[ck] = (v, c)
            if got[0] is None:
                continue
            out = got[0] if out is None else out & got[0]
        return out

    # ---- analyses --------------------------------------------------------------------------
    def result(self, acc: Access) -> AccessResult:
        got = self._results.get(id(acc))
        if got is None:
            got = self._results[id(acc)] = (self._result(acc), acc)
        return got[0]

    def error(self, acc: Access) -> str | None:
        """result(acc).error, without working out the rest of the result where it can be told
        without: rules that only skip an access the simulation cannot follow ask this."""
        return self._verdict(acc)[0]

    def executed(self, acc: Access) -> bool:
        """result(acc).executed, likewise."""
        return self._verdict(acc)[1]

    def _verdict(self, acc: Access) -> tuple[str | None, bool]:
        """(error, executed) of an access. Only its index and subscripts over the range instances
        can fail to be computed: the rest of a result works on their integer values (the coalescing
        instances are rows of those, the strides read the neighbouring lanes or evaluate past the
        block's edge where a failure there is caught). So where these are computed as integers, and
        the coalescing rows are among them, the result has no error; anything else is worked out in
        full, which says what went wrong."""
        got = self._results.get(id(acc))
        if got is not None:
            return got[0].error, got[0].executed
        if acc.unresolved:
            return acc.unresolved, True
        try:
            _, _, mask, vals, _ = self._values(acc, "range", [acc.index, *acc.dims])
            plain = all(v.dtype.kind in "iu" for v in vals) and self._within(acc, "coalescing", "range") is not None
        except (ValueTooLarge, OverflowError, ValueError, Unknown, MemoryError):
            plain = False
        if not plain:
            res = self.result(acc)
            return res.error, res.executed
        return None, bool(mask.any())

    def _result(self, acc: Access) -> AccessResult:
        res = AccessResult()
        if acc.unresolved:
            res.error = acc.unresolved
            return res
        try:
            if acc.space == "global" and self._coalescing_alone(acc):
                index = self._coalescing(acc, res)
                # the coalescing instances are rows of the range ones: where one of those runs, it runs
                res.executed = bool(self.instance_mask(acc, "coalescing").any()) or \
                    bool(self.instance_mask(acc, "range").any())
                self._strides(acc, res, index)
                return res
            if acc.space != "global" and self.spans_decide and self._extents_hold(acc, res):
                index = None
            else:
                index = self._ranges(acc, res)
            if acc.space == "global":
                index = self._coalescing(acc, res, index)
                self._strides(acc, res, index)
            elif self._within(acc, "coalescing", "range") is None:
                # the strides along threadIdx are read for global accesses only (CL101, CL102); of
                # the others', what counts is whether their index over the coalescing instances is
                # computed, which it is where those are rows of the range instances
                self._strides(acc, res)
        except ValueTooLarge as exc:
            res.error = str(exc)
        except (OverflowError, ValueError):       # a float subscript (ill-formed C) that is inf or nan
            res.error = "index is not a finite integer"
        except Unknown as exc:
            res.error = f"index depends on `{exc.sym}`, which the model does not follow"
        except MemoryError:
            res.error = "simulation too large"
        return res

    def _extents_hold(self, acc: Access, res: AccessResult) -> bool:
        """For a load of a shared or local array: whether the spans of its index and subscripts over
        the range instances (value_span) show that what `_ranges` finds is nothing a rule reports:
        no failure, no 32-bit overflow, and each range inside every extent it may be compared with.
        The ranges are then left out (CL201 reports a range that leaves an extent, and only that),
        and of the instances only where the access runs is worked out. A store is taken only where
        its index also shows that no two threads of a block store to one element (_stores_apart),
        which is what its values would be searched for."""
        env = self.range_env(acc)
        if acc.kind == "store" and not acc.atomic and not self._stores_apart(acc):
            return False
        spans = [value_span(e, env, self.extremes) for e in (acc.index, *acc.dims)]
        if None in spans:
            return False
        dims, extent = acc.array.dims, acc.array.extent
        for k, (lo, hi) in enumerate((spans[1:] if len(acc.dims) > 1 else spans[:1]) if dims else ()):
            limits = ([dims[k]] if k < len(dims) else []) + ([extent] if k == 0 else [])
            if any(x is not None and (lo < 0 or hi > x - 1) for x in limits):
                return False
        if not self.instance_mask(acc, "range").any():
            res.executed = False
        return True

    def _stores_apart(self, acc: Access) -> bool:
        """Whether no two threads of a block store to one element in one step: where `_overlap`
        looks at nothing (_overlap_moot), or where the index keeps the threads apart
        (threads_apart)."""
        return _overlap_moot(acc) or self.threads_apart(acc)

    def thread_steps(self, acc: Access) -> dict[str, int] | None:
        """threadIdx axis -> how far the index moves when it grows by one, from the index's terms
        (which add up to it), where the threads' part is a sum of threadIdx axes, each by a step
        the same everywhere (its stride's span over the range instances is one value), and the rest
        names no thread; None where it is not. An axis the index does not name is not there."""
        env = self.range_env(acc)
        steps: dict[str, int] = {}
        for t in acc.terms:
            if t.coord.__class__ is ir.Sym and t.coord.kind == "thread" and t.coord.name in self.tid:
                span = value_span(t.stride, env, self.extremes)
                if span is None or span[0] != span[1]:
                    return None
                steps[t.coord.name] = span[0]
            elif any(s.kind == "thread" for e in (t.coord, t.stride) for s in ir.symbols(e)):
                return None
        return steps

    def threads_apart(self, acc: Access, apart: int = 1) -> bool:
        """Whether any two threads of a block are given indexes at least `apart` elements apart
        wherever they are (thread_steps): the steps, smallest first, each pass all that the smaller
        ones together reach across the block by `apart` (a mixed-radix number: `ty * 33 + tx` in a
        32 x 16 block)."""
        steps = self.thread_steps(acc)
        if steps is None:
            return False
        reach = 0
        for step, n in sorted((abs(steps.get(f"threadIdx.{a}", 0)), self.block[i]) for i, a in enumerate("xyz")
                              if self.block[i] > 1):
            if step < reach + apart:
                return False
            reach += step * (n - 1)
        return True

    def range_env(self, acc: Access) -> dict:
        """The environment of an access's range instances (shared: for reading only)."""
        return self._instance_entry(acc, "range")[0]

    def extremes(self, v) -> tuple[int, int] | None:
        """The least and greatest of an environment's value (its arrays, shared by the rows of many
        accesses, are measured once)."""
        if isinstance(v, (int, np.integer)):
            return int(v), int(v)
        if v.__class__ is not np.ndarray or v.dtype.kind not in "iu" or not v.size:
            return None
        got = self._spans.get(id(v))
        if got is None:
            got = self._spans[id(v)] = (int(v.min()), int(v.max()), v)     # v held: its id stays its own
        return got[0], got[1]

    def _coalescing_alone(self, acc: Access) -> bool:
        """Whether a global access's result may be worked out over its coalescing instances alone:
        where the rules asked for (`wanted`) read none of what the range instances give (ranges,
        overlapping stores, threads past the grid's edge, 32-bit overflows), and what its index and
        subscripts are built of shows that computing them over the range instances cannot fail
        (raise_free_bound), so that their error is none. The coalescing instances are rows of
        those: their values cannot fail either."""
        if self.wanted is None or self.wanted & RANGE_CODES:
            return False
        env = self.range_env(acc)
        return all(raise_free_bound(e, env) is not None for e in (acc.index, *acc.dims)) and \
            self._within(acc, "coalescing", "range") is not None

    def _values(self, acc: Access, mode: str, exprs):
        env, n, rows, _ = self._instance_entry(acc, mode)
        env = dict(env)             # the caller's own
        shape = (n, self.nthreads)
        mask = self.instance_mask(acc, mode)
        # accesses over the same rows bind every name alike: what one computes, the others reuse
        ev = Evaluator(env, track_overflow=True, kept=self._kept, kept_key=rows)
        vals = [_full(ev.value(e), shape) for e in exprs]
        return env, shape, mask, vals, ev

    def lane_addresses(self, acc: Access, mode: str = "range", index: ir.Expr | None = None) -> LaneAddresses:
        """Per-lane byte addresses of an access (multi-dimensional subscripts are already flattened
        in the model; vector views scale the index to elements). `index` replaces the access's own
        index (one term of it, say) over the same instances."""
        env, shape, mask, vals, _ = self._values(acc, mode, [acc.index if index is None else index])
        addr = np.asarray(vals[0], dtype=np.int64) * acc.array.elem_size
        return LaneAddresses(addr, mask, acc.width, env)

    def _ranges(self, acc: Access, res: AccessResult):
        """Index ranges, overlapping stores, threads past the problem; returns the index over the
        range instances."""
        env, shape, mask, vals, ev = self._values(acc, "range", [acc.index, *acc.dims])
        res.overflows = list(ev.overflows.values())
        if not mask.any():
            res.executed = False
            return vals[0]
        # ranges are read against declared extents (CL201): a global pointer has none
        everywhere = mask.all()        # no guard: the values need no masking copy
        for v in (vals[1:] if len(acc.dims) > 1 else vals[:1]) if acc.array.dims else ():
            v = np.asarray(v, dtype=np.int64) if v.dtype != np.float64 else np.floor(v).astype(np.int64)
            big = v if everywhere else np.where(mask, v, _I64_MIN)
            small = v if everywhere else np.where(mask, v, _I64_MAX)
            imax = divmod(int(big.argmax()), shape[1])
            imin = divmod(int(small.argmin()), shape[1])
            res.ranges.append(DimRange(int(small[imin]), int(big[imax]), self._point(env, acc, imax),
                                       self._point(env, acc, imin)))
        if acc.kind == "store" and not acc.atomic:
            self._overlap(acc, env, shape, mask, np.asarray(vals[0]), res)
        if acc.space == "global":
            self._excess(acc, env, shape, mask, res, vals[0])
        return vals[0]

    def _point(self, env, acc: Access, idx) -> dict[str, int]:
        i, t = int(idx[0]), int(idx[1])
        out = {}
        for k in ("blockIdx.x", "blockIdx.y", "blockIdx.z"):
            out[k] = int(np.asarray(env[k])[i, 0])
        for k, v in self.tid.items():
            out[k] = int(v[t])
        for it in acc.loops:
            out[it.trip.name] = int(np.asarray(env[it.trip.name])[i, 0])
        return out

    def instance_env(self, acc: Access, mode: str = "range"):
        """(env, mask) of the simulated instances of an access, shape (instances, threads): what the
        range analysis sees; explain evaluates the pieces of an index in it, for display. The mask
        is shared, the environment the caller's own."""
        if mode == "range":
            mode = "every block"        # as sampled, whether or not the index reads the block
        env, _ = self.instances(acc, mode)
        return env, self.instance_mask(acc, mode)

    def warp_lanes(self, acc: Access, point: dict[str, int], warp: int = 0):
        """(threadIdx per lane, flat index per lane, active mask) of one warp at one block and
        iteration point; lanes beyond the block are inactive."""
        lanes = np.arange(warp * WARP, (warp + 1) * WARP)
        live = lanes < self.nthreads
        lanes = np.minimum(lanes, self.nthreads - 1)
        env = self.point_env(acc, point)
        env.update(self._params_env(acc.guards))
        for k, v in self.tid.items():
            env[k] = v[lanes]
        index = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index), dtype=np.int64), (WARP,))
        mask = self.mask(acc, env, (WARP,)) & live
        tids = {k: v[lanes] for k, v in self.tid.items()}
        return tids, index, mask

    def point_env(self, acc: Access, point: dict[str, int]) -> dict:
        env = self.base_env()
        env.update(self._params_env([acc.index, *acc.dims]))
        env.update({k: np.int64(v) for k, v in point.items()})
        return env

    def _overlap(self, acc, env, shape, mask, flat, res) -> None:
        """Two threads of a block storing to one element in one step. Threads that store one value
        (the same in the whole block, or in a warp after a warp reduction, when the writers of the
        element are lanes of one warp) are no finding."""
        if _overlap_moot(acc):
            return
        if _no_repeat(flat, mask):
            return
        # instances in growing batches (the first mostly decides): sorted by instance, value and
        # thread, the first two neighbours of one instance with one value are the pair an
        # instance-by-instance search finds first
        start, size = 0, 1
        while start < shape[0]:
            rows, lanes = np.nonzero(mask[start:start + size])
            start, size = start + size, size * 8
            if rows.size < 2:
                continue
            vals = flat[rows + (start - size // 8), lanes]
            order = np.lexsort((lanes, vals, rows))
            r, v, ln = rows[order], vals[order], lanes[order]
            same = (r[1:] == r[:-1]) & (v[1:] == v[:-1])
            if acc.value_scope == 1:
                same &= (ln[1:] // WARP) != (ln[:-1] // WARP)
            if same.any():
                break
        else:
            return
        k = int(np.argmax(same))
        i, t1, t2 = int(r[k]) + start - size // 8, int(ln[k]), int(ln[k + 1])
        writers = int((flat[i][mask[i]] == v[k]).sum())
        pt = {k_: int(np.asarray(env[k_])[i, 0]) for k_ in ("blockIdx.x", "blockIdx.y", "blockIdx.z")}
        a = {**pt, **{k_: int(x[t1]) for k_, x in self.tid.items()}}
        b = {**pt, **{k_: int(x[t2]) for k_, x in self.tid.items()}}
        res.overlap = Overlap((a, b), int(v[k]), writers)

    def _excess(self, acc, env, shape, mask, res, index) -> None:
        """Threads that exist only because the grid rounds the problem size up (ceil-div), executing
        this access with an index beyond every index the in-range threads use."""
        lc = self.table.launch
        if lc.grid is None or not self.launch_known:
            return
        flat = None
        for axis_i, axis in enumerate("xyz"):
            if axis_i not in self._extents:
                self._extents[axis_i] = self._grid_extent(lc.grid[axis_i], axis_i)
            ext = self._extents[axis_i]
            if ext is None:
                continue
            text, extent = ext
            names = (f"threadIdx.{axis}", f"blockIdx.{axis}")
            if not any(s.name in names for s in ir.symbols(acc.index)):
                continue
            gcoord = np.asarray(env[f"blockIdx.{axis}"]) * self.block[axis_i] + self.tid[f"threadIdx.{axis}"][None, :]
            over = np.broadcast_to(gcoord >= extent, shape)
            bad = mask & over
            if not bad.any():
                continue        # no thread it runs in is past the edge (looked at first: it is cheaper)
            # the index must hold the axis' global coordinate (blockIdx steps blockDim times what
            # threadIdx steps): `A[(blockIdx.y * 32 + threadIdx.x) * K + threadIdx.y]` does not, and
            # its threads past the edge along y load elements inside the matrix
            st = self._step(acc, env, f"threadIdx.{axis}", shape, index)
            if not st or self._step(acc, env, f"blockIdx.{axis}", shape, index) != self.block[axis_i] * st:
                continue
            if flat is None:
                flat = np.broadcast_to(np.asarray(index, dtype=np.int64), shape)
            ok = mask & ~over
            limit = flat[ok].max() if ok.any() else _I64_MIN
            beyond = bad & (flat > limit) & (flat >= extent)
            if beyond.any():
                i, t = np.unravel_index(np.argmax(np.where(beyond, flat, _I64_MIN)), shape)
                res.excess = Excess(axis, self._point(env, acc, (i, t)), int(flat[i, t]), text, extent,
                                    self.grid[axis_i] * self.block[axis_i])
                return

    def _step(self, acc: Access, env: dict, name: str, shape, index) -> int | None:
        """How far the index moves when `name` grows by one (the most common difference); `index`: its
        value over `env`."""
        moved = dict(env)
        moved[name] = np.asarray(env[name]) + 1
        try:
            a = np.broadcast_to(np.asarray(index, dtype=np.int64), shape)
            b = np.broadcast_to(np.asarray(Evaluator(moved).value(acc.index), dtype=np.int64), shape)
        except (Unknown, ValueError, TypeError, OverflowError):
            return None
        d = (b - a).ravel()
        if not d.size:
            return None
        return _most_common(d)

    def _grid_extent(self, g: ir.Expr, axis_i: int) -> tuple[str, int] | None:
        """The problem size a grid dimension was computed from: X with ceil(X / blockDim) == gridDim
        and X < gridDim * blockDim, among the grid expression's pieces and the kernel's int parameters
        (so `(n + 255) / 256` and a literal `grid=(3907)` for n = 1000000 both give n)."""
        block, grid = self.block[axis_i], self.grid[axis_i]
        cands = [sub for sub in g.walk() if any(s.kind == "param" for s in ir.symbols(sub))]
        cands += [ir.Sym(p, "param") for p in self.table.params]
        best = None
        for sub in cands:
            v = self._scalar(sub)
            if v is None or v <= 0:
                continue
            if -(-v // block) == grid and v < grid * block:
                if best is None or v > best[1]:
                    best = (str(sub), v)
        return best

    def _within(self, acc: Access, mode: str, of: str) -> np.ndarray | None:
        """Where the instances of `mode` stand among those of `of`, when all of them do (the first
        and middle blocks and first iterations are among the sampled corners and iterations, unless
        the combinations of the loops were thinned). Kept per pair of rows: the accesses of a loop
        nest share them."""
        pair = (self._instance_entry(acc, mode)[2], self._instance_entry(acc, of)[2])
        if pair not in self._row_places:
            # rows are blocks (outer) by combinations of trip counters: a row of `mode` stands at
            # (its block's place) x (combinations of `of`) + (its combination's place)
            (blocks, combos), (of_blocks, of_combos) = self._rows[pair[0]][3], self._rows[pair[1]][3]
            block_at = {b: i for i, b in enumerate(of_blocks)}
            combo_at = {c: i for i, c in enumerate(of_combos)}
            bs, cs = [block_at.get(b) for b in blocks], [combo_at.get(c) for c in combos]
            at = None
            if None not in bs and None not in cs:
                at = np.array([b * len(of_combos) + c for b in bs for c in cs], dtype=np.intp)
            self._row_places[pair] = at
        return self._row_places[pair]

    def _coalescing(self, acc: Access, res: AccessResult, index=None):
        """Sectors per request; returns the index over the coalescing instances. `index`: over the
        range instances, which mostly hold the coalescing ones: those rows are taken, not computed."""
        at = self._within(acc, "coalescing", "range") if index is not None else None
        if at is not None:
            shape = (len(at), self.nthreads)
            mask = self.instance_mask(acc, "coalescing")
            vals = [index[at]]
        else:
            _, shape, mask, vals, _ = self._values(acc, "coalescing", [acc.index])
        if not mask.any():
            return vals[0]
        es = acc.array.elem_size
        addr = np.asarray(vals[0], dtype=np.int64) * es
        n, t = shape
        pad = (-t) % WARP
        if pad:
            addr = np.pad(addr, ((0, 0), (0, pad)))
            mask = np.pad(mask, ((0, 0), (0, pad)))
        addr = addr.reshape(-1, WARP)
        mask = mask.reshape(-1, WARP)
        everywhere = mask.all()
        if not everywhere:
            live = mask.any(axis=1)
            addr, mask = addr[live], mask[live]
            if not len(addr):
                return vals[0]
        sectors, uniq_addr = warp_sectors(addr, mask, acc.width)
        ideal = np.ceil(uniq_addr * acc.width / SECTOR)
        # most common byte distance between adjacent active lanes
        d = np.diff(addr, axis=1).ravel() if everywhere else np.diff(addr, axis=1)[mask[:, 1:] & mask[:, :-1]]
        stride = None
        if d.size:
            stride = _most_common(d)
        res.coalescing = Coalescing(float(sectors.mean()), float(ideal.mean()), int(len(sectors)), stride)
        return vals[0]

    def _strides(self, acc: Access, res: AccessResult, index=None) -> None:
        """Element stride carried by each threadIdx axis (index(t+1) - index(t), most common);
        `index`: its value over the coalescing instances, when already computed.

        Within the block, the lane one step along an axis is another lane of the same row, whose
        index is already known: only the lanes on the block's far edge move outside it. Where the
        index is built so that no value there can make its evaluation fail (integers, shifts by
        constants, sums and products well within int64), nothing more is evaluated; else those
        lanes are, for all axes at once, and where that fails (a shift count or a product leaving
        its range past the edge), the axes are evaluated one by one as the whole moved block,
        which raises where it did."""
        env, n = self._instance_entry(acc, "coalescing")[:2]        # read only: each axis moves a copy
        base = np.broadcast_to(Evaluator(env).value(acc.index) if index is None else index, (n, self.nthreads))
        axes = [(axis_i, axis) for axis_i, axis in enumerate("xyz") if self.block[axis_i] >= 2]
        if not axes:
            return
        moved = dict(env)
        for axis_i, axis in enumerate("xyz"):
            moved[f"threadIdx.{axis}"] = np.int64(self.block[axis_i])     # no lane moves past the edge
        if raise_free_bound(acc.index, moved) is None:
            self._strides_edge(acc, res, env, n, base, axes)
        else:
            self._strides_read(res, base, axes)

    def _strides_edge(self, acc: Access, res: AccessResult, env: dict, n: int, base, axes) -> None:
        """_strides where the moved index might not be computable past the edge: the lanes there are
        evaluated first."""
        edge = dict(env)
        lanes = [np.nonzero(self.tid[f"threadIdx.{axis}"] == self.block[axis_i] - 1)[0] for axis_i, axis in axes]
        at = np.concatenate(lanes)
        for k, v in self.tid.items():
            edge[k] = v[at][None, :]
        start = 0
        for (axis_i, axis), ln in zip(axes, lanes):
            name = f"threadIdx.{axis}"
            edge[name] = edge[name].copy()
            edge[name][0, start:start + len(ln)] += 1
            start += len(ln)
        try:
            Evaluator(edge).value(acc.index)
        except Exception:       # whatever it is, the axes one by one meet it where they did
            self._strides_moved(acc, res, env, n, base, axes)
            return
        self._strides_read(res, base, axes)

    def _strides_read(self, res: AccessResult, base, axes) -> None:
        """The strides from the lanes one step along each axis, inside the block."""
        flat = np.asarray(base, dtype=np.int64)
        for axis_i, axis in axes:
            step, inside = self._lane_steps(axis_i)
            moved = flat[:, step:] - flat[:, :self.nthreads - step]     # lane t + step less lane t
            d = (moved if inside is None else moved[:, inside]).ravel()
            if d.size:
                res.strides[axis] = _most_common(d)

    def _lane_steps(self, axis_i: int) -> tuple[int, np.ndarray | None]:
        """(how many lanes on the next lane along an axis is, the lanes t that have one: those not on
        the block's far edge, or None where every t < nthreads - step is)."""
        got = self._steps.get(axis_i)
        if got is None:
            step = (1, self.block[0], self.block[0] * self.block[1])[axis_i]
            tid = self.tid[f"threadIdx.{'xyz'[axis_i]}"][:self.nthreads - step]
            inside = tid + 1 < self.block[axis_i]
            got = self._steps[axis_i] = (step, None if inside.all() else np.nonzero(inside)[0])
        return got

    def _strides_moved(self, acc: Access, res: AccessResult, env: dict, n: int, base, axes) -> None:
        """_strides by evaluating the index over the whole block moved one step along each axis."""
        for axis_i, axis in axes:
            name = f"threadIdx.{axis}"
            env2 = dict(env)
            env2[name] = env[name] + 1
            try:
                shifted = np.broadcast_to(Evaluator(env2).value(acc.index), (n, self.nthreads))
            except Unknown:
                continue
            valid = (self.tid[name] + 1 < self.block[axis_i])[None, :]
            d = (np.asarray(shifted, dtype=np.int64) - np.asarray(base, dtype=np.int64))[np.broadcast_to(valid, base.shape)]
            if d.size:
                res.strides[axis] = _most_common(d)
