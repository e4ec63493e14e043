"""Where an access is simulated: sampled blocks and loop iterations (instances), the environments
that bind every thread's coordinates over them, and the mask of the lanes the guards let through."""
from __future__ import annotations

import itertools

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown, known_bound
from ..model.table import Access, Iterator
from .results import LaneAddresses, WARP


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


conjuncts = ir.conjuncts       # (the rules import it from here)


_LEAST = frozenset({"min", "umin", "fminf"})
_MOST = frozenset({"max", "umax", "fmaxf"})
_FLIPPED = {">": "<", ">=": "<="}


def implied(c: ir.Expr) -> list[ir.Expr]:
    """Conditions a comparison implies that need no operand of a `min`/`max` the model does not
    follow: `s < min(count[b], CAP)` implies `s < CAP` (and `s < count[b]`, data), and
    `max(lo, x) < e` implies `lo < e`. A guard read from memory still bounds the index by its
    constant side."""
    if c.__class__ is not ir.Bin or c.op not in ("<", "<=", ">", ">="):
        return []
    left, right, op = c.left, c.right, c.op
    if op in _FLIPPED:
        left, right, op = right, left, _FLIPPED[op]
    out: list[ir.Expr] = []
    r, wrap = _bare(right)
    if r.__class__ is ir.Call and r.fn in _LEAST:
        out.extend(ir.Bin(op, left, wrap(a)) for a in r.args)
    lt, wrap = _bare(left)
    if lt.__class__ is ir.Call and lt.fn in _MOST:
        out.extend(ir.Bin(op, wrap(a), right) for a in lt.args)
    return out


def _bare(e: ir.Expr):
    """`e` without its casts, and how to put them back around another operand."""
    casts = []
    while e.__class__ is ir.Cast:
        casts.append(e.type)
        e = e.expr

    def wrap(x: ir.Expr) -> ir.Expr:
        for t in reversed(casts):
            x = ir.Cast(t, x)
        return x
    return e, wrap


def _truth(env: dict, c: ir.Expr):
    """Where a conjunct of a guard holds; where it reads data, where what it implies holds (the
    rest may hold); Unknown where nothing of it is followed."""
    try:
        return Evaluator(env).truth(c)
    except Unknown:
        got = None
        for w in implied(c):
            try:
                v = Evaluator(env).truth(w)
            except Unknown:
                continue
            got = v if got is None else got & v
        if got is None:
            raise
        return got


_LANES = frozenset({"threadIdx.x", "threadIdx.y", "threadIdx.z"})
_BLOCK_WIDE = frozenset({"param", "uniform", "block", "blockdim", "griddim"})


def lane_tests(c: ir.Expr):
    """(lane, value) of a test `threadIdx.x == v` (y, z too; either way round): the thread index
    and what it is compared with; nothing for another condition."""
    if c.__class__ is ir.Bin and c.op == "==":
        for lane, v in ((c.left, c.right), (c.right, c.left)):
            if lane.__class__ is ir.Sym and lane.name in _LANES:
                yield lane, v


def _one_lane(c: ir.Expr, uniform_data: frozenset[str]) -> ir.Expr | None:
    """`threadIdx.x == v` (either way round) with `v` read from `__shared__` variables every thread
    reads alike (`uniform_data`) and the launch's values: as `threadIdx.x == 0`; None otherwise."""
    for lane, v in lane_tests(c):
        syms = ir.symbols(v)
        if any(x.kind == "data" for x in syms) and all(
                x.kind in _BLOCK_WIDE or (x.kind == "data" and x.name in uniform_data) for x in syms):
            return ir.Bin("==", lane, ir.Num(0))
    return None


def guard_value(env: dict, g: ir.Expr, shape, uniform_data: frozenset[str] = frozenset()) -> np.ndarray | None:
    """Where a guard holds, from the parts of it the model follows: in `p != NULL && tid == 0` the
    pointer test (data to the model) may pass, the thread test decides. None: nothing followed.
    `uniform_data`: the `__shared__` values a test of the thread index picks one lane with
    (_one_lane), for the lanes of a request."""
    out = None
    for c in conjuncts(g):
        if uniform_data:
            c = _one_lane(c, uniform_data) or c
        try:
            v = np.broadcast_to(_truth(env, c), shape)
        except Unknown:
            continue  # data-dependent: may hold
        out = v if out is None else out & v
    return out


def guards_followed(guards) -> bool:
    """Every part of every guard is followed, or has one value across the launch (a NULL test):
    which threads run the access is known, not a guess."""
    return not any(s.kind in ("data", "unknown") for g in guards for c in conjuncts(g) for s in ir.symbols(c))

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


def _full(v, shape: tuple) -> np.ndarray:
    """`v` over the whole shape: itself where it already has it (values are read, never written)."""
    if v.__class__ is np.ndarray and v.shape == shape:
        return v
    return np.broadcast_to(v, shape)


class Instances:
    """The instances an access is simulated at, their environments and the lanes that run them."""
    _picks: dict[int, tuple]
    _uniform_names: frozenset[str] | None

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
            out |= self._boundary_blocks()
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
                    v = self._guard_value(env, g, key, pick=True)
                    if v is not None:
                        got &= v
                got.flags.writeable = False
                self._guard_masks[shared] = got
            self._masks[(id(acc), mode)] = got
        return got

    def whole_warps(self, acc: Access, mode: str, mask: np.ndarray) -> np.ndarray:
        """`mask` (instances x threads) without the warps a size the trial chose cuts short at its
        end (n = 1000 of a size the program does not give): their requests are the trial's, not the
        program's. Kept where no whole warp runs the access, and where the program's own values,
        constants or borders cut it."""
        chosen = {name for name, _ in self.trial.sizes} if self.trial is not None else set()
        if not chosen or mask.all():
            return mask
        free = self.mask_apart_from(acc, mode, chosen)
        if free is None or free.shape != mask.shape:
            return mask
        n, t = mask.shape
        pad = (-t) % WARP
        m = np.pad(mask, ((0, 0), (0, pad))).reshape(n, -1, WARP)
        f = np.pad(free, ((0, 0), (0, pad))).reshape(n, -1, WARP)
        cut = (m != f).any(axis=2) & m.any(axis=2)        # cut by the chosen size alone
        if not cut.any() or not (m.any(axis=2) & ~cut).any():
            return mask
        return (m & ~cut[:, :, None]).reshape(n, -1)[:, :t]

    def mask_apart_from(self, acc: Access, mode: str, names: set[str]) -> np.ndarray | None:
        """Where the access runs over its instances with the guards that read any of `names` left
        out (the sizes a trial chose: a warp cut short there is cut by a value the program does not
        give); None where no guard reads them."""
        if not any(s.name in names for g in acc.guards for s in ir.symbols(g)):
            return None
        env, n, key, _ = self._instance_entry(acc, mode)
        got: np.ndarray = np.ones((int(n), self.nthreads), dtype=np.bool_)
        settled = [it.cond for it in acc.loops if self._settled(it)]
        for g in acc.guards:
            if any(g is c for c in settled) or any(s.name in names for s in ir.symbols(g)):
                continue
            v = self._guard_value(env, g, key, pick=True)
            if v is not None:
                got &= v
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

    def _guard_value(self, env: dict, g: ir.Expr, key, pick: bool = False) -> np.ndarray | None:
        """guard_value over the rows `key` names, each part of the guard evaluated once for them: its
        value depends on the rows and on which of its names the access's environment binds. Not
        broadcast: the caller ANDs it into a mask of the instances' shape. `pick`: a test of the
        thread index against a value every thread of the block reads alike passes one lane
        (_picked), for the counts of lanes (requests, sectors), not for naming threads."""
        out = None
        for c in conjuncts(g):
            if pick:
                c = self._picked(c)
            ck = (id(c), key, tuple(s.name in env for s in ir.symbols(c)))
            got = self._conjuncts.get(ck)
            if got is None:
                try:
                    v = _truth(env, c)
                except Unknown:
                    v = None  # data-dependent: may hold
                got = self._conjuncts[ck] = (v, c)
            if got[0] is None:
                continue
            out = got[0] if out is None else out & got[0]
        return out

    def _picked(self, c: ir.Expr) -> ir.Expr:
        """`threadIdx.x == first` with `first` a `__shared__` variable (data to the model) that every
        thread of the block reads alike: one x passes, which one the data decides; the test as
        `threadIdx.x == 0`, the lanes a request has where one does. Kept, so that a conjunct's
        stand-in is one object (its value is cached by id)."""
        got = self._picks.get(id(c))
        if got is None:
            got = self._picks[id(c)] = (_one_lane(c, self.uniform_data()) or c, c)
        return got[0]

    def uniform_data(self) -> frozenset[str]:
        """The names the model gives the loads of `__shared__` variables: one value in every thread
        of a block at one point of the kernel (where no barrier is missing, which CL501 reports)."""
        got = self._uniform_names
        if got is None:
            got = frozenset(a.name for a in self.table.arrays.values() if a.space == "shared" and a.scalar)
            self._uniform_names = got
        return got

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
