"""Barrier intervals and ownership of `__shared__` elements.

Accesses and barriers carry their position in program order. Two accesses to one shared array
can meet in one barrier interval when no block barrier lies between them on some path: in the
same pass (between their positions), or across the iterations of a loop holding both (after the
later one or before the earlier one in the body). For such a pair the simulator gives, for every
thread of a block, the bytes each access touches; a race is a byte stored by one thread and read
(or stored) by another. `__syncwarp()` between the two orders the lanes of one warp only.
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown, ValueTooLarge
from ..model.table import Access, Barrier, Iterator
from .instances import lane_tests
from .simulate import WARP, Simulation, capped_product, conjuncts


@dataclass
class Race:
    first: Access                       # the store
    second: Access                      # the read or second store, where the race is reported
    loop: Iterator | None               # the loop whose next iteration meets them; None: same pass
    threads: tuple[dict[str, int], dict[str, int]]   # (storing thread, other thread)
    byte: int                           # byte offset into the array both touch
    same_warp: bool                     # the two threads are lanes of one warp
    warp_barrier: bool                  # only a __syncwarp() lies between them


def thread_dependent(e: ir.Expr) -> bool:
    return any(s.kind == "thread" for s in ir.symbols(e))


BLOCK_UNIFORM = {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}   # same result in every thread
_BLOCK_WIDE_KINDS = frozenset({"param", "uniform", "blockdim", "griddim", "block", "iter"})


def _one_thread_in_pass(sim, w: Access, r: Access) -> bool:
    """Both accesses stand under one test `threadIdx.x == v` of a value the whole block shares (a
    parameter, a block's number, what `__syncthreads_count` returns, a `__shared__` variable every
    thread reads alike) in a block of one row: one thread of the block runs both, and in one pass
    of the test it meets no other thread there. Two `if`s of the same test are one where no store
    to the shared variables it reads comes between them."""
    if sim.block[1] != 1 or sim.block[2] != 1:
        return False
    shared = sim.uniform_data()
    mine = {id(g) for g in r.guards}
    for g in w.guards:
        same = id(g) in mine
        if not same and g not in r.guards:
            continue
        for c in ir.conjuncts(g):
            for lane, v in lane_tests(c):
                if lane.name != "threadIdx.x":
                    continue
                read = {x.name for x in ir.symbols(v) if x.kind == "data" and x.name in shared}
                if all(x.kind in _BLOCK_WIDE_KINDS or (x.kind == "data" and (x.name in BLOCK_UNIFORM or x.name in read))
                       for x in ir.symbols(v)) and (same or not _stored_between(sim, read, w, r)):
                    return True
    return False


def _stored_between(sim, names: set[str], w: Access, r: Access) -> bool:
    """A store to one of the `__shared__` variables `names` comes between the two accesses, or in a
    loop around either (its next iteration comes between them)."""
    if not names:
        return False
    lo, hi = sorted((w.seq, r.seq))
    loops = {id(it) for it in w.loops} | {id(it) for it in r.loops}
    return any(a.kind == "store" and a.array.name in names and
               (lo < a.seq < hi or any(id(it) in loops for it in a.loops))
               for a in sim.table.accesses)


def _is_loop_cond(g: ir.Expr, b: Barrier) -> bool:
    return any(g is it.cond for it in b.loops)


def separates(b: Barrier, x: Access, y: Access) -> bool:
    """Every thread that runs x and y passes b. A guard of b that neither access has may skip it:
    when it depends on the thread the barrier is divergent (CL502, counted here as a barrier);
    when it is uniform it can skip the barrier for the whole block, unless it is the guard of an
    early `break`/`return` (`if (done) break;`): where it fails the block has left, and nothing
    after the barrier, the next iteration included, runs."""
    return not _skipping(b, x, y)


def _skipping(b: Barrier, x: Access, y: Access) -> list[ir.Expr]:
    """The guards of b that may let the block skip it between x and y (see separates)."""
    out = []
    for g in b.guards:
        if g in x.guards or g in y.guards or _is_loop_cond(g, b) or thread_dependent(g):
            continue
        if any(e.guard is g and e.kind in ("break", "return", "trap") for e in b.exits):
            continue
        out.append(g)
    return out


def _iteration_guards(b: Barrier, x: Access, y: Access) -> tuple[ir.Expr, ...] | None:
    """Where b is skipped only by conditions of the launch's values and the loops' iterations
    (`if (dividedAt > warpSize / 2) __syncthreads(); else __syncwarp();` in a halving loop): those
    conditions, which the whole block takes alike at each iteration; None where another kind of
    guard may skip it."""
    skip = _skipping(b, x, y)
    if not skip or not all(_of_iterations(g) for g in skip):
        return None
    return tuple(skip)


def _of_iterations(g: ir.Expr) -> bool:
    return all(x.kind in ("param", "blockdim", "griddim", "iter") for x in ir.symbols(g)) and \
        not any(isinstance(n, (ir.Subscript, ir.Deref, ir.Member)) for n in g.walk())


class Ownership:
    """Which thread of a block touches which bytes of a shared array, per loop iteration."""

    def __init__(self, sim: Simulation):
        self.sim = sim
        self.table = sim.table
        self.blocks = sim._block_samples("coalescing")
        self._cache: dict = {}
        self._batches: dict = {}
        self._tables: dict = {}
        self._samples: dict = {}

    def trips(self, it: Iterator) -> list[int]:
        return self.sim.loop_samples(it)

    def samples(self, loops: list[Iterator], crossed: int | None = None) -> tuple[tuple[int, ...], ...]:
        """The combinations of the loops' sampled trip counters (capped_product), or, with `crossed`
        (a loop's place among them), each with that loop one iteration on. Kept: the pairs of a
        kernel ask for the same few, and a batch of footprints is named by their identity."""
        key = (tuple(map(id, loops)), crossed)
        got = self._samples.get(key)
        if got is None:
            if crossed is None:
                got = tuple(capped_product([self.trips(it) for it in loops]))
            else:
                got = tuple(s[:crossed] + (s[crossed] + 1,) + s[crossed + 1:] for s in self.samples(loops))
            self._samples[key] = got
        return got

    def footprint(self, acc: Access, block, fixed: dict[int, tuple[Iterator, int]], unit: int):
        """(units, threads): every `unit`-byte piece the access touches and the thread touching it, over
        the iterations of its loops not in `fixed` (id(loop) -> (loop, trip))."""
        key = (id(acc), block, tuple(sorted((k, v[1]) for k, v in fixed.items())), unit)
        if key in self._cache:
            return self._cache[key]
        loops = [it for it, _ in fixed.values()]
        got = self._evaluate(acc, block, loops, [tuple(t for _, t in fixed.values())], unit, strict=False)
        got = self._cache[key] = None if got is None else Footprint(*got[:2])
        return got

    def footprints(self, acc: Access, block, loops: list[Iterator], samples: tuple[tuple[int, ...], ...],
                   pinned: dict[int, tuple[Iterator, int]], unit: int) -> Footprints | None:
        """The footprints of `acc` at each of `samples` (trip counters of `loops`, from self.samples();
        the loops in `pinned` at their trips), evaluated together. None where that fails: each is then
        found on its own."""
        key = (id(acc), block, tuple(map(id, loops)), id(samples), tuple((k, v[1]) for k, v in pinned.items()),
               unit)
        got = self._batches.get(key)
        if got is None:
            pins = tuple(t for _, t in pinned.values())
            found = self._evaluate(acc, block, loops + [it for it, _ in pinned.values()], [s + pins for s in samples],
                                   unit, strict=True)
            # the samples held with it: their identity names them
            got = self._batches[key] = (None if found is None else Footprints.of(*found), samples)
        return got[0]

    def _evaluate(self, acc: Access, block, loops: list[Iterator], heads: list[tuple[int, ...]], unit: int,
                  strict: bool):
        """(units, threads, head of each unit) of the access at each of `heads` (trip counters of
        `loops`) over the samples of its other loops. None where its index is not followed; with
        `strict`, also where a guard's part leaves the 64-bit range somewhere among the heads (it
        may not at each head alone, where the guard would be followed)."""
        sim = self.sim
        fixed = {id(it) for it in loops}
        free = [it for it in acc.loops if id(it) not in fixed]
        combos = capped_product([self.trips(it) for it in free])
        if strict and len(heads) * len(combos) * sim.nthreads > BATCH_LANES:
            return None     # each found on its own, with less memory
        table = self._table(acc, block)
        got = None if table is None else self._from_table(table, acc, loops, heads, free, combos)
        if got is not None:
            index, mask = got
        elif table is not None and strict:
            return None     # a head not held there: the table's and its own guards may differ
        else:
            loops = loops + free
            rows = [(block, h + c) for h in heads for c in combos]
            shape = (len(rows), sim.nthreads)
            guards = _meeting_guards(acc)
            env = sim.lane_env([acc.index, *guards], loops, rows)
            mask = np.ones(shape, dtype=bool)
            rows_key = sim.name_rows((tuple(map(id, loops)), tuple(rows)))
            for g in guards:                # guards shared by the accesses of one loop nest: evaluated once
                for c in conjuncts(g) if strict else (g,):
                    v = sim._guard_value(env, c, rows_key)
                    if v is not None:
                        mask &= v
                    elif strict and _too_large(env, c):
                        return None
            if not mask.any():      # the access does not run there: no index to work out
                index = np.broadcast_to(np.int64(0), shape)
            else:
                try:
                    index = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index), dtype=np.int64), shape)
                except Unknown:
                    return None
        rows, threads = np.nonzero(mask)
        start = acc.byte_address(index[mask]) // unit
        heads = rows // len(combos) if len(combos) > 1 else rows
        pieces = max(1, acc.width // unit)
        if pieces == 1:
            return start, threads, heads
        units = (start[:, None] + np.arange(pieces)[None, :]).reshape(-1)
        return units, np.repeat(threads, pieces), np.repeat(heads, pieces)

    # a table holds up to this many lanes (combinations x threads: 8 MB of index and its mask for
    # 1024-thread blocks over 512 combinations, twice the combinations for 512 threads)
    TABLE_LANES = 1 << 19

    def _from_table(self, table, acc: Access, loops: list[Iterator], heads: list[tuple[int, ...]], free: list,
                    combos):
        """(index, mask) of the rows of `heads` x `combos` (trip counters of `loops`, of `free`), taken
        from the access's table (the footprints of its pairs are slices of it). None: not held there,
        and the footprint is evaluated on its own."""
        index, mask, samples = table
        position = {id(it): i for i, it in enumerate(acc.loops)}
        if any(id(it) not in position for it in loops):
            return None
        # each row's trip counters in the table's order of loops, then its place in each loop's samples
        trips = np.empty((len(heads), len(combos), len(acc.loops)), dtype=np.int64)
        for j, it in enumerate(loops):
            trips[:, :, position[id(it)]] = np.array([h[j] for h in heads], dtype=np.int64)[:, None]
        for j, it in enumerate(free):
            trips[:, :, position[id(it)]] = np.array([c[j] for c in combos], dtype=np.int64)[None, :]
        at = []
        for p, s in enumerate(samples):
            t = trips[:, :, p].reshape(-1)
            i = np.minimum(np.searchsorted(s, t), max(len(s) - 1, 0))
            if t.size and (not len(s) or (s[i] != t).any()):
                return None
            at.append(i)
        rows = np.ravel_multi_index(at, [len(s) for s in samples]) if samples else \
            np.zeros(len(heads) * len(combos), dtype=np.int64)
        return index[rows], mask[rows]

    def _table(self, acc: Access, block):
        """(index, mask, samples of each loop): the access's index and guards evaluated once for a
        block over every combination of its loops' samples and the iteration after each. None where
        they are too many (thinned combinations), a loop is there twice, or the evaluation fails."""
        key = (id(acc), block)
        if key not in self._tables:
            self._tables[key] = None
            names = [it.trip.name for it in acc.loops]
            samples = [sorted(set(s) | {t + 1 for t in s}) for s in (self.trips(it) for it in acc.loops)]
            if len(set(names)) == len(names) and \
                    math.prod(len(s) for s in samples) * self.sim.nthreads <= self.TABLE_LANES:
                combos = list(itertools.product(*samples))
                rows = [(block, c) for c in combos]
                sim = self.sim
                try:
                    guards = _meeting_guards(acc)
                    env = sim.lane_env([acc.index, *guards], list(acc.loops), rows)
                    shape = (len(rows), sim.nthreads)
                    mask = np.ones(shape, dtype=bool)
                    rows_key = sim.name_rows((tuple(map(id, acc.loops)), tuple(rows)))
                    for g in guards:
                        v = sim._guard_value(env, g, rows_key)
                        if v is not None:
                            mask &= v
                    index = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index), dtype=np.int64)
                                            if mask.any() else np.int64(0), shape)
                except Exception:      # what fails over all of them is found footprint by footprint
                    return None
                self._tables[key] = (index, mask, [np.array(s, dtype=np.int64) for s in samples])
        return self._tables[key]


def _too_large(env: dict, c: ir.Expr) -> bool:
    """The guard's part is not followed because a value leaves the 64-bit range (not because it reads
    data the model does not follow)."""
    try:
        Evaluator(env).value(c)
    except ValueTooLarge:
        return True
    except Unknown:
        pass
    return False


class Footprint(tuple):
    """(units, threads) of an access, with the owner of each unit for a quick test of a pair: most
    pairs of a kernel do not race, and showing that for a whole block costs one comparison."""

    def __new__(cls, units, threads):
        return super().__new__(cls, (units, threads))

    @functools.cached_property
    def owners(self):
        """(first unit, owner of each unit from there: its only thread, -1 untouched, -2 several)."""
        units, threads = self
        if not units.size:
            return 0, np.zeros(0, dtype=np.int64)
        lo, hi = int(units.min()), int(units.max())
        if hi - lo >= DENSE_UNITS:
            return None
        first = np.full(hi - lo + 1, np.iinfo(np.int64).max)
        last = np.full(hi - lo + 1, -1)
        np.minimum.at(first, units - lo, threads)
        np.maximum.at(last, units - lo, threads)
        own = np.where(last < 0, -1, np.where(first == last, first, -2))
        return lo, own


DENSE_UNITS = 1 << 16       # past this span of units a footprint has no owner table (48 KiB of shared memory in bytes)
SPAN = 1 << 40              # units of one sample in the keys of a batch of footprints
THREAD_BITS = 11           # a thread of a block (up to 1024) in a key of Footprints.of
BATCH_LANES = 1 << 22       # past these lanes (samples x iterations x threads) a batch is not evaluated at once


@dataclass
class Footprints:
    """The footprints of an access at several samples of its outer loops, as the units they touch (one
    key per sample and unit, sorted) and the owner of each (its only thread, or -2 for several), and
    the warp owning it (its only warp, or -2): the pairs of all samples are tested at once, over the
    units touched (a footprint's span can be fifty times more)."""
    keys: np.ndarray
    own: np.ndarray
    lo: np.ndarray          # the smallest and largest thread touching each key
    hi: np.ndarray

    @functools.cached_property
    def warp_own(self) -> np.ndarray:
        """A warp is a run of thread ids: the smallest and largest thread lie in one warp exactly when
        every thread touching the key does (asked for only where a warp barrier lies between)."""
        wlo, whi = self.lo // WARP, self.hi // WARP
        return np.where(wlo == whi, wlo, -2)

    @classmethod
    def of(cls, units, threads, sample) -> Footprints | None:
        if not units.size:
            return cls(units, threads, threads, threads)
        if units.min() < -SPAN // 2 or units.max() >= SPAN // 2:
            return None
        key = sample * SPAN + (units + SPAN // 2)
        if sample.max() < 1 << 11 and threads.min() >= 0 and threads.max() < 1 << THREAD_BITS:
            # each key with its thread in one number (under 2^62): one sort puts the threads of a
            # key in order after it, its first and last the smallest and largest
            both = np.sort(key << THREAD_BITS | threads)
            key, threads = both >> THREAD_BITS, both & ((1 << THREAD_BITS) - 1)
            first = np.ones(len(key), dtype=bool)
            first[1:] = key[1:] != key[:-1]
            starts = np.flatnonzero(first)
            lo, hi = threads[starts], threads[np.append(starts[1:], len(key)) - 1]
            return cls._owned(key[starts], lo, hi)
        if not (key[1:] >= key[:-1]).all():        # mostly in order already: sample by sample, row by row
            order = np.argsort(key, kind="stable")
            key, threads = key[order], threads[order]
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        starts = np.flatnonzero(first)
        lo, hi = np.minimum.reduceat(threads, starts), np.maximum.reduceat(threads, starts)
        return cls._owned(key[starts], lo, hi)

    @classmethod
    def _owned(cls, keys, lo, hi) -> Footprints:
        return cls(keys, np.where(lo == hi, lo, -2), lo, hi)


def _samples_sharing(fx: Footprints, fy: Footprints, n: int, by_warp: bool = False) -> np.ndarray:
    """For each of `n` samples: a unit touched by an x-thread and a different y-thread (False: no race
    in that sample, by thread or by warp); `by_warp`: by an x-thread and a y-thread of another warp
    (False: none by warp). The owner test of `_no_thread_shares`, for all at once."""
    out = np.zeros(n, dtype=bool)
    if not len(fx.keys) or not len(fy.keys):
        return out
    i = np.minimum(np.searchsorted(fy.keys, fx.keys), len(fy.keys) - 1)
    both = fy.keys[i] == fx.keys
    own_x, own_y = (fx.warp_own, fy.warp_own) if by_warp else (fx.own, fy.own)
    a, b = own_x[both], own_y[i[both]]
    out[fx.keys[both][(a != b) | (a == -2)] // SPAN] = True
    return out


def _no_thread_shares(fx: Footprint, fy: Footprint) -> bool:
    """No unit touched by an x-thread and a different y-thread (then no warp does either)."""
    ox, oy = fx.owners, fy.owners
    if ox is None or oy is None:
        return False
    (lx, ax), (ly, ay) = ox, oy
    lo, hi = max(lx, ly), min(lx + len(ax), ly + len(ay))
    if lo >= hi:
        return True
    a, b = ax[lo - lx:hi - lx], ay[lo - ly:hi - ly]
    both = (a != -1) & (b != -1)
    return not (both & ((a != b) | (a == -2))).any()


def _shared_pair(fx, fy, by_warp: bool):
    """A unit touched by x-thread t1 and y-thread t2 with t1 != t2 (in different warps when by_warp)."""
    ux, tx = fx
    uy, ty = fy
    common = np.intersect1d(ux, uy)
    if not common.size:
        return None
    sx, sy = np.isin(ux, common), np.isin(uy, common)
    u = np.concatenate([ux[sx], uy[sy]])
    t = np.concatenate([tx[sx], ty[sy]])
    side = np.concatenate([np.zeros(sx.sum(), dtype=np.int8), np.ones(sy.sum(), dtype=np.int8)])
    k = t // WARP if by_warp else t
    order = np.lexsort((k, u))
    u, t, k, side = u[order], t[order], k[order], side[order]
    _, starts = np.unique(u, return_index=True)
    kmin = np.minimum.reduceat(k, starts)
    kmax = np.maximum.reduceat(k, starts)
    bad = np.nonzero(kmin != kmax)[0]
    if not bad.size:
        return None
    g = int(bad[0])
    lo, hi = starts[g], (starts[g + 1] if g + 1 < len(starts) else len(u))
    gk, gt, gs = k[lo:hi], t[lo:hi], side[lo:hi]
    for i in np.nonzero(gs == 0)[0]:
        other = np.nonzero((gs == 1) & (gk != gk[i]))[0]
        if other.size:
            return int(u[lo]), int(gt[i]), int(gt[other[0]])
    return None


def _barrier_between(barriers, x, y, lo, hi, scope) -> bool:
    return any(b.scope == scope and lo < b.seq < hi and separates(b, x, y) for b in barriers)


def _barrier_around(barriers, loop, x, y, lo, hi, scope) -> bool:
    """A barrier of the loop body after the later access or before the earlier one."""
    return any(b.scope == scope and loop.seq_start < b.seq < loop.seq_end and (b.seq > hi or b.seq < lo)
               and separates(b, x, y) for b in barriers)


def _pinned(own, barriers, acc: Access, outer: list[Iterator], x: Access, y: Access, first: bool) -> dict:
    """Loops of `acc` not shared with the other access that hold a barrier: only their last iteration
    (when `acc` comes first on the path) or their first (when it comes second) meets the other access
    without passing that barrier."""
    out = {}
    for m in acc.loops:
        if any(m is o for o in outer):
            continue
        trips = own.trips(m)
        if trips and any(b.is_block and m.seq_start < b.seq < m.seq_end and separates(b, x, y) for b in barriers):
            out[id(m)] = (m, trips[-1] if first else 0)     # a loop that never runs pins nothing
    return out


def _block_dependent(acc: Access) -> bool:
    return any(s.kind == "block" for e in (acc.index, *acc.guards) for s in ir.symbols(e))


def _common_loops(x: Access, y: Access) -> list[Iterator]:
    out = []
    for a, b in zip(x.loops, y.loops):
        if a is not b:
            break
        out.append(a)
    return out


def _of_values(g: ir.Expr) -> bool:
    """A condition of the launch's values alone: the same for every thread of every block."""
    return all(x.kind in ("param", "blockdim", "griddim") for x in ir.symbols(g)) and \
        not any(isinstance(n, (ir.Subscript, ir.Deref, ir.Member)) for n in g.walk())


def taken_barriers(sim: Simulation, barriers) -> list[Barrier]:
    """The barriers as this trial's values run them: one under a condition of the launch's values
    alone (`if constexpr (CTA_SIZE <= 32) __syncwarp(); else __syncthreads();`, `if (n > 0)`) is
    run by the whole block or by none, so the condition is dropped where it holds and the barrier
    where it does not."""
    out = []
    for b in barriers:
        keep: list[ir.Expr] = []
        run = True
        for g in b.guards:
            v = sim._scalar(g, sim.base_env()) if _of_values(g) else None
            if v is None:
                keep.append(g)
            elif not v:
                run = False
                break
        if run:
            out.append(b if len(keep) == len(b.guards) else replace(b, guards=tuple(keep)))
    return out


_TICKETS = frozenset({"atomicAdd", "atomicSub", "atomicInc", "atomicDec", "atomicExch", "atomicCAS"})


def _one_thread(g: ir.Expr) -> bool:
    """`if (idx == 0)` with `idx = atomicAdd(&count, k)`: an atomic hands each thread a value of its
    own (a counter's successive values, the old value that one exchange or compare-and-swap wins), so
    at most one thread passes a test for one value: the block's leader."""
    if not (isinstance(g, ir.Bin) and g.op == "=="):
        return False
    for ticket, other in ((g.left, g.right), (g.right, g.left)):
        if isinstance(ticket, ir.Sym) and ticket.kind == "data" and ticket.name in _TICKETS:
            return all(x.kind in ("param", "blockdim", "griddim") for x in ir.symbols(other))
    return False


def _meeting_guards(acc: Access) -> tuple[ir.Expr, ...]:
    """The conditions under which a thread's access of a multi-dimensional array can meet another's:
    its guards, and each index within its dimension (`buf[w][lane]` of `float buf[4][9]` with
    `lane < dim`, dim left open: lane 9 is past its row, a range question (CL201), not the next
    row's element)."""
    dims = acc.array.dims
    if len(dims) < 2 or len(acc.dims) != len(dims):
        return acc.guards
    within = []
    for e, d in zip(acc.dims, dims):
        if d is not None:
            within += [ir.Bin(">=", e, ir.Num(0)), ir.Bin("<", e, ir.Num(d))]
    return acc.guards + tuple(within)


def _pair_cases(sim, barriers, w: Access, r: Access) -> list:
    """The cases of a pair's search (_cases), less those within one pass where no two threads of a
    pass can meet: the read takes its own thread's value first, or one thread of the pass runs both."""
    cases = _cases(barriers, w, r)
    if _own_value_first(w, r) or _one_thread_in_pass(sim, w, r):
        cases = [c for c in cases if c[0] is not None]     # no race within one pass
    return cases


def find_races(sim: Simulation, wanted=None) -> list[Race]:
    """Races, each at the read (or later store) `second` of its pair; `wanted(access)`: only those
    reported at such accesses (a pair's search does not depend on the other seconds)."""
    table = sim.table
    shared = [a for a in table.accesses if a.space == "shared" and not a.unresolved]
    own = Ownership(sim)
    barriers = taken_barriers(sim, table.barriers)
    out: list[Race] = []
    reported: set[int] = set()
    seconds = sorted((a for a in shared if wanted is None or wanted(a)), key=lambda a: (a.kind != "load", a.seq))
    for second in seconds:
        simulated = False
        across = None       # a race across a loop's iterations: kept unless one in a pass is found
        for first in shared:
            if id(second) in reported:
                break
            if first is second or first.kind != "store" or first.array is not second.array:
                continue
            if first.atomic and second.atomic:
                continue
            if second.kind == "store" and first.seq >= second.seq:
                continue   # a store/store pair is reported once, at the later store
            if any(_one_thread(g) and g in second.guards for g in first.guards):
                continue   # one thread runs both: its own program order
            cases = _pair_cases(sim, barriers, first, second)
            if not cases:
                continue   # a block barrier between them on every path: no simulation needed
            if not simulated:
                if sim.error(second):
                    break
                simulated = True
            if sim.error(first):
                continue   # simulated only where it has a pair (a later trial's search is at a few reads)
            race = _pair(sim, own, barriers, first, second, cases)
            if race is not None and race.loop is not None:
                # a race within one pass, if another store makes one, is the surer of the two: it
                # needs no second iteration (which values the program does not give may never make)
                across = across or race
            elif race is not None:
                out.append(race)
                reported.add(id(second))
        if across is not None and id(second) not in reported:
            out.append(across)
            reported.add(id(second))
    return out


def _other_arms(table, w: Access, r: Access) -> bool:
    """`w` and `r` lie in the two arms of an if/else whose condition every thread of the block
    evaluates alike at one step (table.block_conditions): in one pass the block takes one arm."""
    conds = getattr(table, "block_conditions", None)
    if not conds:
        return False
    for a, b in ((w, r), (r, w)):
        for g in a.guards:
            if g in conds and ir.negate(g) in b.guards and not _stored(table, conds[g]):
                return True
    return False


MAX_UNIFORM_TRIES = 4096


def _exclusive_uniform(table, w: Access, r: Access) -> bool:
    """The two accesses run under tests of names nothing in the program declares (`if (p_Np < 12 &&
    n == 0) ... else if (n < 12 && p_Np >= 12)` where the build defines p_Np with -D): such a name
    has one value for the whole launch, and no value of it passes both accesses' tests, so no
    launch runs both. Tried at every value the tests' own numbers could separate (each number, one
    either side, and small ones); a search too large to try is not made (the pair is kept)."""
    free = table.free_names
    if not free:
        return False
    tests = []
    for a in (w, r):
        for g in a.guards:
            for c in ir.conjuncts(g):
                names = ir.symbols(c)
                if names and all(x.kind == "unknown" and x.name in free for x in names):
                    tests.append(c)
    if not tests:
        return False
    names = sorted({x.name for c in tests for x in ir.symbols(c)})
    numbers = {int(n.value) for c in tests for n in ir.of_type(c, ir.Num) if isinstance(n.value, int)}
    values = sorted({v + d for v in numbers | {0, 1} for d in (-1, 0, 1)})
    if len(values) ** len(names) > MAX_UNIFORM_TRIES:
        return False
    for combo in itertools.product(values, repeat=len(names)):
        ev = Evaluator(dict(zip(names, combo)))
        try:
            if all(ev.value(c) for c in tests):
                return False
        except (Unknown, ValueTooLarge, ArithmeticError, TypeError, ValueError):
            return False
    return True


def _stored(table, names: frozenset[str]) -> bool:
    """The kernel stores to one of these arrays: a condition reading it may differ between threads
    that read it before and after the store."""
    return bool(names) and any(a.kind == "store" and a.array.name in names for a in table.accesses)


def _own_value_first(w: Access, r: Access) -> bool:
    """Store `w` puts one value for the whole block (`myBin.x = f(blockIdx)` in every thread) and each
    thread making access `r` made that store itself before, on the same path, to the element `r`
    reads: within one pass, whichever thread's store `r` meets holds the value its own thread stored.
    (Across iterations of a loop the value may change: those cases are still searched.)"""
    if w.value_scope < 2 or w.seq >= r.seq or w.atomic or w.index != r.index or w.width != r.width:
        return False     # (another element than its own store's may not be written yet: stale)
    return r.guards[:len(w.guards)] == w.guards and r.loops[:len(w.loops)] == w.loops


def _own_units(sim, w: Access, r: Access, common: list[Iterator]) -> bool:
    """Whether, in one pass, each thread touches through `w` and `r` only units no other thread
    touches through either: one index (the same expression, of no loop but those around both, so
    the same value in a thread at the same trips), one width, and indexes that keep any two
    threads a whole access apart (Simulation.threads_apart). A pass then has no race to find."""
    if w.index != r.index or w.width != r.width:
        return False
    trips = {it.trip.name for it in common}
    if any(s.kind == "iter" and s.name not in trips for s in ir.symbols(w.index)):
        return False
    apart = max(1, -(-w.width // w.array.elem_size))
    return sim.threads_apart(w, apart)


def _cases(barriers, w: Access, r: Access) -> list[tuple[Iterator | None, bool]]:
    """Where the two accesses can meet with no block barrier between: (None for the same pass, or
    the loop whose next iteration meets them; whether a warp barrier lies between), from the
    barriers' places alone."""
    lo, hi = sorted((w.seq, r.seq))
    cases: list[tuple[Iterator | None, bool]] = []
    if not _barrier_between(barriers, w, r, lo, hi, "block"):
        cases.append((None, _barrier_between(barriers, w, r, lo, hi, "warp")))
    for loop in reversed(_common_loops(w, r)):
        if not _barrier_around(barriers, loop, w, r, lo, hi, "block"):
            cases.append((loop, _barrier_around(barriers, loop, w, r, lo, hi, "warp")))
    return cases


@dataclass(frozen=True)
class _Conditional:
    """A barrier the block runs at some iterations only: where `guards` all hold at the iteration
    it is passed in (`next_iteration`: the one the crossed loop goes on to), it lies between the
    two accesses."""
    scope: str
    guards: tuple[ir.Expr, ...]
    next_iteration: bool
    seq: int = 0


def _conditional(barriers, w: Access, r: Access, loop: Iterator | None) -> list[_Conditional]:
    """The barriers of a case (see _cases) skipped only by conditions of the iterations."""
    lo, hi = sorted((w.seq, r.seq))
    out = []
    for b in barriers:
        if loop is None:
            inside, after = lo < b.seq < hi, False
        else:
            inside = loop.seq_start < b.seq < loop.seq_end and (b.seq > hi or b.seq < lo)
            after = b.seq < lo           # passed at the start of the next iteration
        if not inside:
            continue
        guards = _iteration_guards(b, w, r)
        if guards is not None:
            out.append(_Conditional(b.scope, guards, after, b.seq))
    return out


def _meeting_trips(sim, own, conditional: list[_Conditional], acc: Access, outer: list[Iterator],
                   first: bool) -> list[tuple[dict, bool]] | None:
    """Where conditional barriers of the same pass lie in a loop of `acc` that the other access is
    not in (`if (n > warpSize) __syncthreads(); else __syncwarp();` at the end of a halving loop,
    read after it): the iterations of `acc` that meet the other access with no block barrier
    run between, each as (pin, whether a warp barrier is run between); None where there is no such
    loop or its conditions ask for more than its own iteration."""
    free = [m for m in acc.loops if not any(m is o for o in outer)]
    if not free or not conditional:
        return None
    m = free[0]
    inside = [c for c in conditional if m.seq_start < c.seq < m.seq_end]
    if not inside or any(x.kind == "iter" and x.name != m.trip.name for c in inside for g in c.guards
                         for x in ir.symbols(g)):
        return None
    trips = own.trips(m)
    running = {}
    for c in inside:
        runs = []
        for t in trips:
            env = {**sim.base_env(), m.trip.name: t}
            runs.append(all(bool(sim._scalar(g, env)) for g in c.guards))
        running[id(c)] = runs
    out = []
    for k, t in enumerate(trips):
        between = {"block": False, "warp": False}
        for c in inside:
            runs = running[id(c)]
            # on the path from `acc` at trip t to the other access: the barrier's passes after it
            # (the first access) or before it (the second), its own iteration's as its place says
            if first:
                passes = range(k if c.seq > acc.seq else k + 1, len(trips))
            else:
                passes = range(0, k + 1 if c.seq < acc.seq else k)
            if any(runs[j] for j in passes):
                between[c.scope] = True
        if not between["block"]:
            out.append(({id(m): (m, t)}, between["warp"]))
    return out


def _runs_at(sim, c: _Conditional, fixed: dict, fixed_next: dict) -> bool:
    """Whether the block runs conditional barrier `c` at these trips (unknown: it may not)."""
    trips = fixed_next if c.next_iteration else fixed
    env = {**sim.base_env(), **{it.trip.name: t for it, t in trips.values()}}
    for g in c.guards:
        v = sim._scalar(g, env)
        if not v:
            return False
    return True


def _pair(sim, own, barriers, w: Access, r: Access, cases=None) -> Race | None:
    """The first race between store `w` and access `r` (`cases`: _pair_cases(sim, barriers, w, r))."""
    if r.kind == "store" and w.stored is not None and w.stored == r.stored:
        return None     # two stores of one number the program gives: the element holds it either way
    if _exclusive_uniform(sim.table, w, r):
        return None     # tests of one launch-wide value that no value passes both of
    common = _common_loops(w, r)
    if cases is None:
        cases = _pair_cases(sim, barriers, w, r)
    unit = min(w.width, r.width, w.array.elem_size)
    later, earlier = (w, r) if w.seq > r.seq else (r, w)
    blocks = own.blocks if _block_dependent(w) or _block_dependent(r) else own.blocks[:1]
    own_units = None
    within: Race | None = None
    for loop, warp_barrier in cases:
        conditional = _conditional(barriers, w, r, loop)
        if loop is None and _other_arms(sim.table, w, r):
            continue        # the two arms of one test the whole block takes alike: never in one pass
        if loop is None:
            if own_units is None:
                own_units = _own_units(sim, w, r, common)
            if own_units:
                continue
        outer = common if loop is None else common[:common.index(loop) + 1]
        samples = own.samples(outer)
        # the access met first on the path: `later` when crossing into the next iteration
        later_first = loop is not None
        pin_later = _pinned(own, barriers, later, outer, w, r, later_first)
        pin_earlier = _pinned(own, barriers, earlier, outer, w, r, not later_first)
        # the trips of the earlier access: the next iteration of the loop crossed
        samples_next = samples if loop is None else own.samples(outer, common.index(loop))
        options = [(pin_later, pin_earlier, False)]
        if loop is None and conditional:
            ml = _meeting_trips(sim, own, conditional, later, outer, first=False)
            me = _meeting_trips(sim, own, conditional, earlier, outer, first=True)
            if ml is not None or me is not None:
                options = [({**pin_later, **pl}, {**pin_earlier, **pe}, wl or we)
                           for pl, wl in (ml if ml is not None else [({}, False)])
                           for pe, we in (me if me is not None else [({}, False)])][:64]
        for (pin_later, pin_earlier, warp_passed), block in itertools.product(options, blocks):
            # every sample's pair at once; the exact search only where that finds a unit shared
            f_all = own.footprints(later, block, outer, samples, pin_later, unit)
            g_all = own.footprints(earlier, block, outer, samples_next, pin_earlier, unit)
            # with only a warp barrier between them, only threads of different warps race
            sharing = None if f_all is None or g_all is None else \
                _samples_sharing(f_all, g_all, len(samples), by_warp=warp_barrier)
            for n, trips in enumerate(samples):
                if sharing is not None and not sharing[n]:
                    continue
                fixed = {id(it): (it, t) for it, t in zip(outer, trips)}
                fixed_next = dict(fixed)
                if loop is not None:
                    fixed_next[id(loop)] = (loop, fixed[id(loop)][1] + 1)
                warp_here = warp_barrier or warp_passed
                if conditional:
                    running = [c.scope for c in conditional if _runs_at(sim, c, fixed, fixed_next)]
                    if "block" in running:
                        continue        # this iteration's barrier lies between them
                    warp_here = warp_here or "warp" in running
                f_later = own.footprint(later, block, {**fixed, **pin_later}, unit)
                f_earlier = own.footprint(earlier, block, {**fixed_next, **pin_earlier}, unit)
                if f_later is None or f_earlier is None:
                    continue
                fw, fr = (f_later, f_earlier) if later is w else (f_earlier, f_later)
                if _no_thread_shares(fw, fr):
                    continue
                for by_warp in ((True,) if warp_here else (True, False)):
                    if not by_warp and within is not None:
                        continue        # a pair in one warp is found already: only one across warps is news
                    hit = _shared_pair(fw, fr, by_warp)
                    if hit is None:
                        continue
                    u, t1, t2 = hit
                    pt = {f"blockIdx.{a}": block[i] for i, a in enumerate("xyz")}
                    coords = [{**pt, **{k: int(v[t]) for k, v in sim.tid.items()}} for t in (t1, t2)]
                    race = Race(w, r, loop, (coords[0], coords[1]), u * unit, t1 // WARP == t2 // WARP,
                                warp_here)
                    if not race.same_warp:
                        return race
                    # two lanes of one warp: a warp barrier would do, unless threads of two warps
                    # meet at another point of the search; it is reported once none does
                    within = race
        if within is not None:
            return within
    return within
