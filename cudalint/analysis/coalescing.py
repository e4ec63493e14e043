"""Coalescing: the 32-byte sectors each warp request touches, against the fewest it could, and
the element stride between neighbouring threads along each threadIdx axis."""
from __future__ import annotations

import numpy as np

from ..index.evaluate import Evaluator, Unknown, raise_free_bound
from ..model.table import Access
from .results import AccessResult, Coalescing, SECTOR, WARP, _I64_MAX, _most_common, _most_common_share


def warp_sectors(addr: np.ndarray, mask: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Per warp request (row of `addr`, `mask`: (requests, 32)): the distinct 32-byte sectors its
    active lanes touch, `width` bytes each, and its distinct addresses."""
    sentinel = _I64_MAX
    if mask.all():          # every lane active (most requests): nothing to mask
        step = np.diff(addr, axis=1)
        if (step >= 0).all():       # lanes in address order (most requests): sorted already
            a = addr
        else:
            a = np.sort(addr, axis=1)
            step = np.diff(a, axis=1)
        addresses = (step != 0).sum(axis=1) + 1
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

def piece_width(width: int, align: int) -> int:
    """The bytes one instruction moves of an access `width` bytes wide: all of them where the width
    is a power of two, else a piece of its alignment (a `float3`, 12 bytes aligned to 4, is three
    4-byte loads or stores), or of the largest power of two dividing it where that is not known."""
    if width <= 0 or not width & (width - 1):
        return width
    return align if align and width % align == 0 else width & -width


def run_ideal(ideal, lo, hi, distinct, width: int):
    """The fewest sectors a request of narrow elements (bytes, halves: `width * WARP < 4 * SECTOR`)
    could touch, where they make one contiguous run from `lo` to `hi`: the sectors of that run
    wherever it starts (`a[i + 1]` of bytes: 32 bytes, 2 sectors when they straddle a boundary);
    `ideal` where they do not."""
    run = hi - lo + width == distinct * width
    return np.where(run, np.maximum(ideal, (hi + width - 1) // SECTOR - lo // SECTOR + 1), ideal)


def _mean(counts: np.ndarray) -> float:
    """The mean of whole numbers (sectors, a request's ideal sectors), as np.mean gives it: their sum
    is below 2^53, exact whatever the order of the additions, so one division gives the same float,
    without np.mean's wrapper (called for every global access)."""
    return float(counts.sum()) / len(counts)


# the rules that read what a global access's range instances give (AccessResult.ranges, overlap,
# excess, overflows)
RANGE_CODES = frozenset({"CL201", "CL202", "CL203", "CL302"})


class CoalescingAnalysis:
    """Sectors per warp request, and the element strides along the threadIdx axes."""

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
        # the warps a size the trial chose cuts short at its end: the trial's requests, not the program's
        mask = self.whole_warps(acc, "coalescing", mask)
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
            everywhere = bool(mask.all())
        width = acc.width
        piece = piece_width(width, acc.align)
        if piece != width:
            # moved in pieces, one request each (three STG.32 for a float3): its figures are theirs
            parts = [warp_sectors(addr + k * piece, mask, piece) for k in range(width // piece)]
            sectors = np.concatenate([p[0] for p in parts])
            ideal = np.ceil(np.concatenate([p[1] for p in parts]) * piece / SECTOR)
        else:
            sectors, uniq_addr = warp_sectors(addr, mask, width)
            ideal = np.ceil(uniq_addr * width / SECTOR)
            if width * WARP < 4 * SECTOR:
                ideal = run_ideal(ideal, np.where(mask, addr, _I64_MAX).min(axis=1),
                                  np.where(mask, addr, -1).max(axis=1), uniq_addr, width)
        # most common byte distance between adjacent active lanes
        d = np.diff(addr, axis=1).ravel() if everywhere else np.diff(addr, axis=1)[mask[:, 1:] & mask[:, :-1]]
        stride, even = None, True
        if d.size:
            stride, share = _most_common_share(d)
            even = share >= 0.5
        res.coalescing = Coalescing(_mean(sectors), _mean(ideal), int(len(sectors)), stride, even)
        if stride is not None and abs(stride) <= width and everywhere:
            res.coalescing.group_lanes, res.coalescing.group_stride = _runs(addr, width)
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


def _runs(addr: np.ndarray, width: int) -> tuple[int | None, int | None]:
    """Lanes contiguous in runs of one length (`b = t / D`, `d = t % D`: D lanes a run), as every
    warp row has them: the run's length and the distance from one run's first lane to the next's.
    (None, None) where the rows' runs differ or the lanes make one run."""
    got = None
    for row in addr:
        jumps = np.flatnonzero(np.abs(np.diff(row)) > width)
        if not jumps.size:
            return None, None
        k = int(jumps[0]) + 1
        if k < 2 or np.any(np.diff(jumps) != k) or (WARP - 1 - int(jumps[-1])) > k:
            return None, None
        here = (k, int(row[k] - row[0]))
        if got is None:
            got = here
        elif got != here:
            return None, None
    return got if got is not None else (None, None)
