"""Ranges: the lowest and highest index of each dimension over every thread and iteration, 32-bit
overflow, and threads of the grid beyond the extent an index covers."""
from __future__ import annotations

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown, value_span
from ..model.host import substitute
from ..model.table import Access
from .results import AccessResult, DimRange, Excess, _I64_MAX, _I64_MIN, _most_common


class RangeAnalysis:
    """Index ranges per dimension, overflow, and threads beyond the extent they cover."""

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

    def _boundary_blocks(self) -> set[tuple[int, int, int]]:
        """The blocks that hold the threads at a size the kernel's guards and loops compare with:
        along each axis, the block of global coordinate v - 1 and of v for each such size v (a guard
        off by one, `i <= n`, or a loop that strides over the grid, lets thread n run; with a fixed
        grid it sits in a block that is neither a corner nor the middle). The other axes take their
        first block."""
        names: set[str] = set()
        for e in [*(g for a in self.table.accesses for g in a.guards),
                  *(it.cond for it in self.table.iterators if it.cond is not None)]:
            names |= {s.name for s in ir.symbols(e) if s.kind == "param"}
        out: set[tuple[int, int, int]] = set()
        for k in range(3):
            g, edge = self.grid[k], self.block[k]
            if g <= 2:
                continue
            for n in sorted(names)[:8]:
                v = self.params.get(n, self.trial.size(n))      # read, not marked as tried: sampling asks
                if not isinstance(v, (int, np.integer)):
                    continue
                for c in (v - 1, v):
                    if 0 <= c < g * edge:
                        b = [0, 0, 0]
                        b[k] = int(c // edge)
                        out.add((b[0], b[1], b[2]))
        return out

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

    def _ranges(self, acc: Access, res: AccessResult):
        """Index ranges, overlapping stores, threads past the problem; returns the index over the
        range instances."""
        env, shape, mask, vals, ev = self._values(acc, "range", [acc.index, *acc.dims])
        res.overflows = list(ev.overflows.values())
        if not mask.any():
            res.executed = False
            return vals[0]
        # ranges are read against declared extents (CL201): a global pointer has none unless the
        # launch binds it to an allocation the host code sizes
        everywhere = mask.all()        # no guard: the values need no masking copy
        alloc = self._allocation(acc) if acc.space == "global" else None
        if alloc is not None:
            res.allocation = alloc
        for v in (vals[1:] if len(acc.dims) > 1 else vals[:1]) if acc.array.dims or alloc else ():
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

    def _allocation(self, acc: Access) -> tuple[int, str] | None:
        """The extent, in elements of the access, of the allocation the launch passes for a global
        pointer parameter (`cudaMalloc(&d_a, n * sizeof(float))` then `k<<<...>>>(d_a)`): its
        size in bytes as the host writes it, at this trial's values."""
        extents = getattr(self.table.launch, "extents", None) or {}
        size = extents.get(acc.array.name)
        if size is None or acc.array.size_assumed or acc.array.elem_size <= 0:
            return None
        nbytes = self._scalar(size)
        if nbytes is None or nbytes <= 0:
            return None
        return nbytes // acc.array.elem_size, str(size)

    def _excess(self, acc, env, shape, mask, res, index) -> None:
        """Threads that exist only because the grid rounds the problem size up (ceil-div), executing
        this access with an index beyond every index the in-range threads use. A grid axis is rounded
        by the block edge of the thread axis that counts within a block along it: its own
        (`blockIdx.x * blockDim.x + threadIdx.x`), or another (`blockIdx.x * blockDim.y +
        threadIdx.y`, rows of warps: the grid is `ceil(N / blockDim.y)`)."""
        lc = self.table.launch
        if lc.grid is None or not (self.launch_known or self.block_chosen) or not self.grid_known:
            return      # no threads past an edge of a grid cudalint assumed (a block edge the launch
                        # takes from a value not given is tried: its grid is the launch's own)
        flat = None
        syms = {s.name for s in ir.symbols(acc.index)}
        for axis_i, axis in enumerate("xyz"):
            if f"blockIdx.{axis}" not in syms and f"threadIdx.{axis}" not in syms:
                continue
            if _grid_strided(acc, axis):
                continue    # a loop that strides by the whole grid covers its bound, whatever the grid
            for t_i in [axis_i] + [k for k in range(3) if k != axis_i]:
                taxis = "xyz"[t_i]
                if t_i != axis_i and (self.block[t_i] <= 1 or f"blockIdx.{axis}" not in syms
                                      or f"threadIdx.{taxis}" not in syms):
                    continue
                key = (axis_i, t_i)
                if key not in self._extents:
                    self._extents[key] = self._grid_extent(lc.grid[axis_i], axis_i, self.block[t_i])
                ext = self._extents[key]
                if ext is None:
                    if res.multiple is None and not self.block_chosen:
                        self._multiple(acc, env, shape, index, lc.grid[axis_i], axis, axis_i, t_i, res)
                    continue
                size, extent = ext
                edge = self.block[t_i]
                gcoord = np.asarray(env[f"blockIdx.{axis}"]) * edge + self.tid[f"threadIdx.{taxis}"][None, :]
                over = np.broadcast_to(gcoord >= extent, shape)
                bad = mask & over
                if not bad.any():
                    continue        # no thread it runs in is past the edge (looked at first: it is cheaper)
                # the index must hold the axis' global coordinate (blockIdx steps blockDim times what
                # threadIdx steps): `A[(blockIdx.y * 32 + threadIdx.x) * K + threadIdx.y]` does not, and
                # its threads past the edge along y load elements inside the matrix
                st = self._step(acc, env, f"threadIdx.{taxis}", shape, index)
                derived = False
                if not st or self._step(acc, env, f"blockIdx.{axis}", shape, index) != edge * st:
                    # `idx = tid / kernel_volume` read before the kernel's `if (idx < n)`: an index made of
                    # the global coordinate alone (one value for one coordinate, however it is split into
                    # block and thread), past every element the threads inside the size touch
                    if t_i != axis_i or not self._of_global(acc, env, axis, edge, shape, index):
                        continue
                    derived = True
                elif self._rows_hold_grid(acc, axis, taxis, st * self.grid[axis_i] * edge):
                    continue    # each row of the array has room for every thread of the grid's row
                if flat is None:
                    flat = np.broadcast_to(np.asarray(index, dtype=np.int64), shape)
                ok = mask & ~over
                if not ok.any():
                    # only threads past the size run it (`else if (i == n) out[i] = 0;`): a branch
                    # written for them, past an end the program knows is not there
                    continue
                limit = flat[ok].max()
                beyond = bad & (flat > limit)
                if not derived:
                    beyond &= flat >= extent
                if beyond.any():
                    i, t = np.unravel_index(np.argmax(np.where(beyond, flat, _I64_MIN)), shape)
                    res.excess = Excess(axis, self._point(env, acc, (i, t)), int(flat[i, t]), size, extent,
                                        self.grid[axis_i] * edge, taxis, derived)
                    return

    def _of_global(self, acc: Access, env: dict, axis: str, edge: int, shape, index) -> bool:
        """The index is one function of the axis' global coordinate `blockIdx * edge + threadIdx`:
        the next block's thread `edge` below gives every thread's value, and it grows with it."""
        if edge <= 1 or acc.loops:
            return False
        moved = dict(env)
        moved[f"blockIdx.{axis}"] = np.asarray(env[f"blockIdx.{axis}"]) + 1
        moved[f"threadIdx.{axis}"] = np.asarray(env[f"threadIdx.{axis}"]) - edge
        try:
            a = np.broadcast_to(np.asarray(index, dtype=np.int64), shape)
            b = np.broadcast_to(np.asarray(Evaluator(moved).value(acc.index), dtype=np.int64), shape)
        except (Unknown, ValueError, TypeError, OverflowError, ZeroDivisionError):
            return False
        return bool(np.array_equal(a, b)) and a.size > 1 and bool((a != a.flat[0]).any())

    def _rows_hold_grid(self, acc: Access, axis: str, taxis: str, span: int) -> bool:
        """The access steps rows of its array by a pitch of their own (`out[blockIdx.y * ld + c]`, a
        coordinate of another axis times a size), at least as long as the grid's padded extent along
        `axis` (`span`, in elements): the threads the grid adds past the size write inside their
        own row, into its padding (`ld` a multiple of the tile, checked by the host)."""
        own = {f"blockIdx.{axis}", f"threadIdx.{taxis}"}
        pitches = []
        for t in acc.terms:
            c = t.coord
            if t.is_offset or (isinstance(c, ir.Sym) and c.name in own):
                continue
            if not isinstance(c, ir.Sym) or c.kind not in ("block", "thread", "iter"):
                return False    # a row picked by a value the model does not follow
            pitch = self._scalar(t.stride)
            if pitch is None:
                return False
            pitches.append((pitch, any(x.kind == "param" for x in ir.symbols(t.stride))))
        if not pitches:
            return False
        # the shortest row the index steps (`(t * 16 + ty) * N`: N), a size of the program's
        pitch, given = min(pitches)
        return given and pitch >= span

    def _multiple(self, acc: Access, env, shape, index, g: ir.Expr, axis: str, axis_i: int, t_i: int, res) -> None:
        """An access that no guard or loop bounds along a grid axis the launch rounds up from a size
        (`ceil_div(B * T * C, 256)`), which the program's values make a multiple of the block edge: no
        thread passes the size at those values, and the access stays inside only because of them.
        The grid is a rounding up where one more element takes one more block."""
        taxis = "xyz"[t_i]
        edge, grid = self.block[t_i], self.grid[axis_i]
        if edge <= 1:
            return      # blocks of one thread round nothing up
        coords = {f"threadIdx.{taxis}", f"blockIdx.{axis}"}
        conds = [*acc.guards, *(it.cond for it in acc.loops if it.cond is not None)]
        if any(s.name in coords or s.kind == "iter" for c in conds for s in ir.symbols(c)):
            return
        for sub in g.walk():
            if sub is g:
                continue
            v = self._scalar(sub)
            if v is None or v != grid * edge:
                continue
            more = self._grid_at(g, sub, v + 1)
            if more is None:
                return
            if more != grid + 1:
                continue
            # the block a size one larger would add: its every thread's index lies past every index
            # the grid's threads use (`idx % C` wraps round, and is kept inside by its own bound)
            moved = dict(env)
            moved[f"blockIdx.{axis}"] = np.int64(grid)
            try:
                now = np.broadcast_to(np.asarray(index, dtype=np.int64), shape)
                extra = np.broadcast_to(np.asarray(Evaluator(moved).value(acc.index), dtype=np.int64), shape)
            except (Unknown, ValueError, TypeError, OverflowError):
                return
            if now.size and extra.min() > now.max():
                if not any(x.kind == "param" for x in ir.symbols(sub)):
                    # a size the host folded to a number: named by the kernel parameter that holds it
                    sub = next((ir.Sym(p, "param") for p in self.table.params
                                if self._scalar(ir.Sym(p, "param")) == v), sub)
                res.multiple = Excess(axis, {}, 0, sub, v, grid * edge, taxis)
            return

    def _step(self, acc: Access, env: dict, name: str, shape, index) -> int | None:
        """How far the index moves when `name` grows by one (the most common difference); `index`: its
        value over `env`."""
        moved = dict(env)
        moved[name] = np.asarray(env[name]) + 1
        try:
            a = np.broadcast_to(np.asarray(index, dtype=np.int64), shape)
            if self.lanes_step and env.get(name) is self._tid_rows.get(name) and shape[1] == self.nthreads:
                b = self._lane_step(acc, moved, name, a)
            else:
                b = np.broadcast_to(np.asarray(Evaluator(moved).value(acc.index), dtype=np.int64), shape)
        except (Unknown, ValueError, TypeError, OverflowError):
            return None
        d = (b - a).ravel()
        if not d.size:
            return None
        return _most_common(d)

    def _lane_step(self, acc: Access, moved: dict, name: str, a: np.ndarray) -> np.ndarray:
        """The index with the thread coordinate `name` one on (`moved`), over the lanes of `a`, the
        index itself: a lane that is not on the block's far edge along that axis takes its neighbour's
        value in `a`, and only the lanes on the edge are evaluated. Each lane's value is worked out
        alone, so the edge lanes raise where the whole moved block would (the others' values were
        computed without)."""
        axis_i = "xyz".index(name[-1])
        step = (1, self.block[0], self.block[0] * self.block[1])[axis_i]
        tid = self.tid[name]
        on_edge = tid == self.block[axis_i] - 1
        edge = np.nonzero(on_edge)[0]
        at = dict(moved)
        for k, v in self.tid.items():
            at[k] = v[edge][None, :] + 1 if k == name else v[edge][None, :]
        out = np.empty(a.shape, dtype=np.int64)
        out[:, :a.shape[1] - step] = a[:, step:]     # every lane from t = nthreads - step on is on the edge
        out[:, edge] = np.broadcast_to(np.asarray(Evaluator(at).value(acc.index), dtype=np.int64),
                                       (a.shape[0], len(edge)))
        return out

    def _grid_extent(self, g: ir.Expr, axis_i: int, edge: int | None = None) -> tuple[ir.Expr, int] | None:
        """The problem size a grid dimension was computed from: X with ceil(X / edge) == gridDim
        and X < gridDim * edge (edge: the block edge that counts along the axis, its own by default),
        among the grid expression's pieces and the kernel's int parameters (so `(n + 255) / 256` and a
        literal `grid=(3907)` for n = 1000000 both give n). The grid expression itself is no size
        it was computed from (`numK / 512` with a `++` the host adds where it rounds)."""
        block, grid = edge or self.block[axis_i], self.grid[axis_i]
        cands = [sub for sub in g.walk() if any(s.kind == "param" for s in ir.symbols(sub))
                 and (sub is not g or block == 1)]
        if not any(s.kind == "param" for s in ir.symbols(g)) and not self.block_chosen:
            # a grid written as a number (`grid=(3907)` for n = 1000000): the size is among the
            # kernel's parameters; a grid computed from sizes names its own. (Not under a block
            # cudalint tried for edges the program leaves open: `dim3 block(ne13, ne12)` with one
            # block is shaped by the data, and nothing is rounded up.)
            cands += [ir.Sym(p, "param") for p in self.table.params]
        # `(n + 128) / 128` blocks of 128 is ceil((n + 1) / 128): n + 1 threads, one past n on purpose
        # (the n + 1 boundaries of n segments), a size of its own
        cands += [ir.Bin("+", x, ir.Num(1)) for q in g.walk()
                  if isinstance(q, ir.Bin) and q.op == "/" and q.right == ir.Num(block)
                  and isinstance(q.left, ir.Bin) and q.left.op == "+"
                  for x, c in ((q.left.left, q.left.right), (q.left.right, q.left.left))
                  if c == ir.Num(block) and any(s.kind == "param" for s in ir.symbols(x))]

        def fits(e) -> bool:
            v = self._scalar(e)
            return v is not None and v > 0 and -(-v // block) == grid and v <= grid * block

        best = None
        for sub in cands:
            v = self._scalar(sub)
            if v is None or v <= 0:
                continue
            if isinstance(sub, ir.Bin) and sub.op == "-" and isinstance(sub.right, ir.Num) and \
                    sub.right.value > 0 and fits(sub.left):
                continue    # `(dim - 1) / 8 + 1`: the size is dim, a multiple of 8 here; not dim - 1
            if -(-v // block) == grid and v < grid * block and self._one_more_block(g, sub, v, block, grid):
                if best is None or v > best[1]:
                    best = (sub, v)
        return best

    def _one_more_block(self, g: ir.Expr, sub: ir.Expr, v: int, edge: int, grid: int) -> bool:
        """Whether the grid `g` grows by one block when its piece `sub` (of value `v`) grows by a
        block edge's worth: the rounding of a size by that edge (`(n + 255) / 256`, `(n - 1) / 8 + 1`),
        not a size that fits this trial's grid by chance (`(R - 1) / 32 + 1` blocks of 128 threads is
        one block at every R up to 32). A piece the grid does not hold (a parameter beside a grid
        written as a number) is not asked."""
        if sub is g or not any(x is sub for x in g.walk()):
            return True
        more = self._grid_at(g, sub, v + edge)
        return more is None or more == grid + 1

    def _grid_at(self, g: ir.Expr, sub: ir.Expr, value: int) -> int | None:
        """The grid dimension `g` with its piece `sub` at `value` (the rest at this trial's values),
        or None where it cannot be worked out."""
        env = {s.name: self.param(s.name) for s in ir.symbols(g) if s.kind == "param"}
        env.update({f"blockDim.{a}": b for a, b in zip("xyz", self.block)})
        try:
            return int(Evaluator(env).value(substitute(g, {sub: ir.Num(value)})))
        except (Unknown, ValueError, TypeError, OverflowError, AttributeError):
            return None

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


def _grid_strided(acc, axis: str) -> bool:
    """The access runs in a loop that steps its variable by the whole grid along `axis`
    (`i += gridDim.x * blockDim.x`): the loop's condition bounds it, not the grid's rounding."""
    return any(it.grid_stride and any(s.name in (f"gridDim.{axis}", f"blockIdx.{axis}") for s in ir.symbols(it.value))
               for it in acc.loops)
