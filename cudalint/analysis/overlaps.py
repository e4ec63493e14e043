"""Overlaps: two threads storing to one element, and the reading of an index's steps along the
threadIdx axes that keeps threads apart."""
from __future__ import annotations

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown, value_span
from ..model.table import Access
from .results import Overlap, WARP


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


def _overlap_moot(acc: Access) -> bool:
    """Two threads storing to one element are no finding: they store one value for all (`value_scope`,
    or a value that follows no threadIdx axis), or bytes of one element, which the index does not
    tell apart."""
    return acc.value_scope >= 2 or acc.width < acc.array.elem_size


def _input_keys(acc: Access, env, shape) -> np.ndarray | None:
    """Per instance and thread, a number two threads share only where everything the stored value
    is computed from (`value_inputs`: the indexes it loads from, the locals it reads) is equal for
    them. None: not known, or not evaluable here."""
    inputs = acc.value_inputs
    if inputs is None:
        return None
    if not inputs:
        return np.zeros(shape, dtype=np.int64)
    ev = Evaluator(env)
    try:
        cols = [np.broadcast_to(np.asarray(ev.value(e)), shape).ravel() for e in inputs]
    except (Unknown, ValueError, TypeError, OverflowError, ZeroDivisionError, FloatingPointError):
        return None
    if len(cols) == 1:
        return cols[0].reshape(shape)
    _, inverse = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)
    return inverse.reshape(shape)


class OverlapAnalysis:
    """Stores of two threads to one element, and the thread steps that keep them apart."""

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

    def _value_keys(self, acc: Access) -> np.ndarray | None:
        """Per thread of the block, a number that differs between two threads that may store
        different values: their coordinates on the axes the stored value follows (`value_axes`).
        Threads equal on those axes store the same value (one function of the same loads), so
        their stores to one element are duplicates, not a conflict; on none, every thread stores
        one value. None: any two may differ."""
        axes = acc.value_axes
        if axes is None:
            return None
        key = np.zeros(self.nthreads, dtype=np.int64)
        scale = 1
        for i, a in enumerate("xyz"):
            axis = f"threadIdx.{a}"
            if axis in axes and axis in self.tid:
                key += np.asarray(self.tid[axis], dtype=np.int64) * scale
                scale *= self.block[i]
        return key

    def _overlap(self, acc, env, shape, mask, flat, res) -> None:
        """Two threads of a block storing to one element in one step. Threads that store one value
        (the same in the whole block, or in a warp after a warp reduction, when the writers of the
        element are lanes of one warp, or threads that differ only on axes the value does not
        follow) are no finding."""
        if _overlap_moot(acc):
            return
        if _no_repeat(flat, mask):
            return
        keys = self._value_keys(acc)
        inputs = _input_keys(acc, env, shape) if keys is not None or acc.value_inputs is not None else None
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
            if keys is None:
                order = np.lexsort((lanes, vals, rows))
            else:       # sorted by value key within an element: two keys in one element are neighbours
                order = np.lexsort((lanes, keys[lanes], vals, rows))
            r, v, ln = rows[order], vals[order], lanes[order]
            same = (r[1:] == r[:-1]) & (v[1:] == v[:-1])
            if same.any():
                res.duplicates = True   # two threads meet at an element; whether with two values, below
            if inputs is not None:      # threads equal on what the value is computed from store one value
                rr = r + (start - size // 8)
                apart = inputs[rr[1:], ln[1:]] != inputs[rr[:-1], ln[:-1]]
                same &= apart if keys is None else apart & (keys[ln[1:]] != keys[ln[:-1]])
            elif keys is not None:
                same &= keys[ln[1:]] != keys[ln[:-1]]
            if acc.value_scope == 1:
                same &= (ln[1:] // WARP) != (ln[:-1] // WARP)
            if same.any():
                break
        else:
            return
        res.duplicates = False
        k = int(np.argmax(same))
        i, t1, t2 = int(r[k]) + start - size // 8, int(ln[k]), int(ln[k + 1])
        writers = int((flat[i][mask[i]] == v[k]).sum())
        pt = {k_: int(np.asarray(env[k_])[i, 0]) for k_ in ("blockIdx.x", "blockIdx.y", "blockIdx.z")}
        a = {**pt, **{k_: int(x[t1]) for k_, x in self.tid.items()}}
        b = {**pt, **{k_: int(x[t2]) for k_, x in self.tid.items()}}
        res.overlap = Overlap((a, b), int(v[k]), writers)
