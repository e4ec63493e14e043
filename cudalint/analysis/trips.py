"""Trip counts: how many times a loop runs for the launch's values, in closed form where the
condition is affine in the counter, else by scanning the iterations (within a budget)."""
from __future__ import annotations

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown, ctype_of_name
from ..model.table import Iterator
from .instances import conjuncts


MAX_TRIPS = 1 << 22
MAX_TRIP_LANES = 1 << 25  # lanes x iterations a trip count may evaluate (about a second)


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


class TripCounts:
    """Trip counts of loops, and the iterations sampled from them."""

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
