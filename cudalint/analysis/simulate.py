"""Warp simulation over a launch configuration (numpy, vectorized over lanes).

For an Access it evaluates the index of every thread of a block, for sampled blocks (first,
middle, last) and sampled loop iterations (first, middle, last), honouring the guards, and from
that computes 32-byte sectors per warp request, index ranges per dimension, 32-bit overflow,
and stores that two threads make to one element.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown, ValueTooLarge
from ..model.table import Access, Iterator, TwoTreeTable
from .family import Family, Trial, derive

SECTOR = 32
WARP = 32
DEFAULT_SIZE = 1000
ASSUMED_BLOCK_1D = (256, 1, 1)
ASSUMED_GRID = (8, 8, 4)
MAX_TRIPS = 1 << 22
MAX_TRIP_LANES = 1 << 25  # lanes x iterations a trip count may evaluate (about a second)
MAX_COMBOS = 64
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
            v = np.broadcast_to(np.asarray(Evaluator(env).value(c)) != 0, shape)
        except Unknown:
            continue  # data-dependent: may hold
        out = v if out is None else out & v
    return out


def guards_followed(guards) -> bool:
    """Every part of every guard is followed, or has one value across the launch (a NULL test):
    which threads run the access is known, not a guess."""
    return not any(isinstance(s, ir.Sym) and s.kind in ("data", "unknown")
                   for g in guards for c in conjuncts(g) for s in c.walk())


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
    ranges: list[DimRange] = field(default_factory=list)
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
        lin = np.arange(self.nthreads)
        bx, by, _ = self.block
        self.tid = {"threadIdx.x": lin % bx, "threadIdx.y": (lin // bx) % by, "threadIdx.z": lin // (bx * by)}
        self._trips: dict[int, list[int] | None] = {}

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
        for s in e.walk():
            if isinstance(s, ir.Sym) and s.kind == "param":
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
        env: dict = {}
        for a, v in zip("xyz", self.block):
            env[f"blockDim.{a}"] = np.int64(v)
        for a, v in zip("xyz", self.grid):
            env[f"gridDim.{a}"] = np.int64(v)
        return env

    def _block_samples(self, mode: str) -> list[tuple[int, int, int]]:
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
            for s in e.walk():
                if isinstance(s, ir.Sym) and s.kind == "param":
                    env[s.name] = np.int64(self.param(s.name))
                elif isinstance(s, ir.Sym) and s.kind == "uniform" and s.name in self.params:
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
        lanes = any(isinstance(s, ir.Sym) and s.kind in ("thread", "block") for s in cond.walk())
        width = 1
        if lanes:
            blocks = self._block_samples("range")
            for axis_i, axis in enumerate("xyz"):
                env[f"blockIdx.{axis}"] = np.array([b[axis_i] for b in blocks])[None, :, None]
            for k, v in self.tid.items():
                env[k] = v[None, None, :]
            width = len(blocks) * self.nthreads
        max_chunk = max(64, (1 << 22) // width)
        # Each lane leaves at the first iteration whose condition is false (a condition can turn
        # true again later, e.g. once `s *= 2` wraps to 0); the loop runs until the last lane leaves.
        start, chunk, count, alive = 0, 64, 0, None
        while True:
            # Not ended within the bound on iterations, or on lanes x iterations evaluated (a lane
            # whose step is 0, as in `i += threadIdx.x`, never leaves): treated as unknown.
            if start >= MAX_TRIPS or start * width >= MAX_TRIP_LANES:
                return None
            t = np.arange(start, start + chunk)
            env[it.trip.name] = t[:, None, None] if lanes else t
            try:
                v = np.asarray(Evaluator(env, exact=False).value(cond)) != 0
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
            start += chunk
            chunk = min(chunk * 4, max_chunk)
        return count

    def instances(self, acc: Access, mode: str):
        """Environment arrays of shape (instances, threads) for an access."""
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
        if mode == "banks" and not any(isinstance(s, ir.Sym) and s.kind == "block" for e in exprs for s in e.walk()):
            blocks = blocks[:1]    # a shared-memory pattern that no block index touches is the same in every block
        rows = [(b, c) for b in blocks for c in capped_product(iter_samples)]
        return self.lane_env(exprs, acc.loops, rows), len(rows)

    def loop_samples(self, it: Iterator) -> list[int]:
        s = self.trip_samples(it, self.base_env())
        return s if s is not None else [0, 1]   # reported as CL901 by the lint stage

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

    # ---- analyses --------------------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def result(self, acc: Access) -> AccessResult:
        res = AccessResult()
        if acc.unresolved:
            res.error = acc.unresolved
            return res
        try:
            self._ranges(acc, res)
            if acc.space == "global":
                self._coalescing(acc, res)
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

    def _values(self, acc: Access, mode: str, exprs):
        env, n = self.instances(acc, mode)
        shape = (n, self.nthreads)
        mask = self.mask(acc, env, shape)
        ev = Evaluator(env, track_overflow=True)
        vals = [np.broadcast_to(ev.value(e), shape) for e in exprs]
        return env, shape, mask, vals, ev

    def lane_addresses(self, acc: Access, mode: str = "range", index: ir.Expr | None = None) -> LaneAddresses:
        """Per-lane byte addresses of an access (multi-dimensional subscripts are already flattened
        in the model; vector views scale the index to elements). `index` replaces the access's own
        index (one term of it, say) over the same instances."""
        env, shape, mask, vals, _ = self._values(acc, mode, [acc.index if index is None else index])
        addr = np.asarray(vals[0], dtype=np.int64) * acc.array.elem_size
        return LaneAddresses(addr, mask, acc.width, env)

    def _ranges(self, acc: Access, res: AccessResult) -> None:
        env, shape, mask, vals, ev = self._values(acc, "range", [acc.index, *acc.dims])
        res.overflows = list(ev.overflows.values())
        if not mask.any():
            res.executed = False
            return
        for v in vals[1:] if len(acc.dims) > 1 else vals[:1]:
            v = np.asarray(v, dtype=np.int64) if v.dtype != np.float64 else np.floor(v).astype(np.int64)
            big = np.where(mask, v, np.iinfo(np.int64).min)
            small = np.where(mask, v, np.iinfo(np.int64).max)
            imax = np.unravel_index(np.argmax(big), shape)
            imin = np.unravel_index(np.argmin(small), shape)
            res.ranges.append(DimRange(int(small[imin]), int(big[imax]), self._point(env, acc, imax),
                                       self._point(env, acc, imin)))
        if acc.kind == "store" and not acc.atomic:
            self._overlap(acc, env, shape, mask, np.asarray(vals[0]), res)
        if acc.space == "global":
            self._excess(acc, env, shape, mask, res)

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
        range analysis sees; explain evaluates the pieces of an index in it, for display."""
        env, n = self.instances(acc, mode)
        env.update(self._params_env(acc.guards))
        return env, self.mask(acc, env, (n, self.nthreads))

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
        if acc.value_scope >= 2 or acc.width < acc.array.elem_size:
            return      # one value for all; or bytes of one element, which the index does not tell apart
        for i in range(shape[0]):
            m = mask[i]
            if m.sum() < 2:
                continue
            lanes = np.nonzero(m)[0]
            vals = flat[i][m]
            order = np.argsort(vals, kind="stable")
            v, ln = vals[order], lanes[order]
            same = v[1:] == v[:-1]
            if acc.value_scope == 1:
                same &= (ln[1:] // WARP) != (ln[:-1] // WARP)
            if not same.any():
                continue
            k = int(np.argmax(same))
            t1, t2 = int(ln[k]), int(ln[k + 1])
            writers = int((vals == v[k]).sum())
            pt = {k_: int(np.asarray(env[k_])[i, 0]) for k_ in ("blockIdx.x", "blockIdx.y", "blockIdx.z")}
            a = {**pt, **{k_: int(x[t1]) for k_, x in self.tid.items()}}
            b = {**pt, **{k_: int(x[t2]) for k_, x in self.tid.items()}}
            res.overlap = Overlap((a, b), int(v[k]), writers)
            return

    def _excess(self, acc, env, shape, mask, res) -> None:
        """Threads that exist only because the grid rounds the problem size up (ceil-div), executing
        this access with an index beyond every index the in-range threads use."""
        lc = self.table.launch
        if lc.grid is None or not self.launch_known:
            return
        flat = None
        for axis_i, axis in enumerate("xyz"):
            ext = self._grid_extent(lc.grid[axis_i], axis_i)
            if ext is None:
                continue
            text, extent = ext
            names = (f"threadIdx.{axis}", f"blockIdx.{axis}")
            if not any(isinstance(s, ir.Sym) and s.name in names for s in acc.index.walk()):
                continue
            # the index must hold the axis' global coordinate (blockIdx steps blockDim times what
            # threadIdx steps): `A[(blockIdx.y * 32 + threadIdx.x) * K + threadIdx.y]` does not, and
            # its threads past the edge along y load elements inside the matrix
            st = self._step(acc, env, f"threadIdx.{axis}", shape)
            sb = self._step(acc, env, f"blockIdx.{axis}", shape)
            if not st or sb != self.block[axis_i] * st:
                continue
            gcoord = np.asarray(env[f"blockIdx.{axis}"]) * self.block[axis_i] + self.tid[f"threadIdx.{axis}"][None, :]
            over = np.broadcast_to(gcoord >= extent, shape)
            bad = mask & over
            if not bad.any():
                continue
            if flat is None:
                flat = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index), dtype=np.int64), shape)
            ok = mask & ~over
            limit = flat[ok].max() if ok.any() else np.iinfo(np.int64).min
            beyond = bad & (flat > limit) & (flat >= extent)
            if beyond.any():
                i, t = np.unravel_index(np.argmax(np.where(beyond, flat, np.iinfo(np.int64).min)), shape)
                res.excess = Excess(axis, self._point(env, acc, (i, t)), int(flat[i, t]), text, extent,
                                    self.grid[axis_i] * self.block[axis_i])
                return

    def _step(self, acc: Access, env: dict, name: str, shape) -> int | None:
        """How far the index moves when `name` grows by one (the most common difference)."""
        moved = dict(env)
        moved[name] = np.asarray(env[name]) + 1
        try:
            a = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index), dtype=np.int64), shape)
            b = np.broadcast_to(np.asarray(Evaluator(moved).value(acc.index), dtype=np.int64), shape)
        except (Unknown, ValueError, TypeError, OverflowError):
            return None
        d = (b - a).ravel()
        if not d.size:
            return None
        vals, counts = np.unique(d, return_counts=True)
        return int(vals[np.argmax(counts)])

    def _grid_extent(self, g: ir.Expr, axis_i: int) -> tuple[str, int] | None:
        """The problem size a grid dimension was computed from: X with ceil(X / blockDim) == gridDim
        and X < gridDim * blockDim, among the grid expression's pieces and the kernel's int parameters
        (so `(n + 255) / 256` and a literal `grid=(3907)` for n = 1000000 both give n)."""
        block, grid = self.block[axis_i], self.grid[axis_i]
        cands = [sub for sub in g.walk() if any(isinstance(s, ir.Sym) and s.kind == "param" for s in sub.walk())]
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

    def _coalescing(self, acc: Access, res: AccessResult) -> None:
        env, shape, mask, vals, _ = self._values(acc, "coalescing", [acc.index])
        if not mask.any():
            return
        es = acc.array.elem_size
        addr = np.asarray(vals[0], dtype=np.int64) * es
        n, t = shape
        pad = (-t) % WARP
        if pad:
            addr = np.pad(addr, ((0, 0), (0, pad)))
            mask = np.pad(mask, ((0, 0), (0, pad)))
        addr = addr.reshape(-1, WARP)
        mask = mask.reshape(-1, WARP)
        live = mask.any(axis=1)
        addr, mask = addr[live], mask[live]
        if not len(addr):
            return
        first = addr // SECTOR
        last = (addr + acc.width - 1) // SECTOR
        sentinel = np.iinfo(np.int64).max
        sec = np.concatenate([np.where(mask, first, sentinel), np.where(mask, last, sentinel)], axis=1)
        sec.sort(axis=1)
        distinct = (np.diff(sec, axis=1) != 0) & (sec[:, 1:] != sentinel)
        sectors = distinct.sum(axis=1) + (sec[:, 0] != sentinel)
        a = np.where(mask, addr, sentinel)
        a.sort(axis=1)
        uniq_addr = ((np.diff(a, axis=1) != 0) & (a[:, 1:] != sentinel)).sum(axis=1) + (a[:, 0] != sentinel)
        ideal = np.ceil(uniq_addr * acc.width / SECTOR)
        # most common byte distance between adjacent active lanes
        d = np.diff(addr, axis=1)[mask[:, 1:] & mask[:, :-1]]
        stride = None
        if d.size:
            vals_, counts = np.unique(d, return_counts=True)
            stride = int(vals_[np.argmax(counts)])
        res.coalescing = Coalescing(float(sectors.mean()), float(ideal.mean()), int(len(sectors)), stride)

    def _strides(self, acc: Access, res: AccessResult) -> None:
        """Element stride carried by each threadIdx axis (index(t+1) - index(t), most common)."""
        env, n = self.instances(acc, "coalescing")
        base = np.broadcast_to(Evaluator(env).value(acc.index), (n, self.nthreads))
        for axis_i, axis in enumerate("xyz"):
            if self.block[axis_i] < 2:
                continue
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
                vals_, counts = np.unique(d, return_counts=True)
                res.strides[axis] = int(vals_[np.argmax(counts)])
