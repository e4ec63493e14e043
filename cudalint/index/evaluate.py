"""Evaluate a resolved IR expression over numpy arrays of lanes, with C's integer semantics.

Values are computed exactly in int64 (or float64); each node also carries its C type, so that
32-bit index arithmetic that passes 2^31-1 is recorded (CL203) instead of silently wrapping.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from . import ir

INT32_MAX = 2**31 - 1


class Unknown(Exception):
    """The expression depends on a value the model does not know (data loaded from memory)."""

    def __init__(self, sym: str):
        super().__init__(sym)
        self.sym = sym


class ValueTooLarge(Unknown):
    """A value leaves the 64-bit range (or a shift its width): numpy would wrap it silently and
    the simulation would see addresses the program never computes, so the value is not known."""

    def __init__(self, what: str, reason: str = "leaves the 64-bit range cudalint simulates"):
        what = what if len(what) <= 80 else what[:79] + "…`"
        super().__init__(what)
        self.sym, self.reason = what, reason

    def __str__(self) -> str:
        return f"{self.sym} {self.reason}"


INT64_MIN, INT64_MAX = -2**63, 2**63 - 1


@functools.lru_cache(maxsize=None)
def ctype_of_name(name: str) -> str:
    name = name.replace("const ", "").strip()
    if name in ir.FLOAT_TYPES or name.startswith(("float", "double")):
        return "f"
    bits, signed = ir.INT_KINDS.get(name, (32, True))
    return ("i" if signed else "u") + str(bits)


@functools.lru_cache(maxsize=None)
def _promote(a: str, b: str) -> str:
    if "f" in (a, b):
        return "f"
    if a == "b":
        a = "i32"
    if b == "b":
        b = "i32"
    ba, bb = int(a[1:]), int(b[1:])
    if ba != bb:
        return a if ba > bb else b
    return ("u" if "u" in (a[0], b[0]) else "i") + str(ba)


# the calls the evaluator computes (and whose type its type rule gives)
_MIN_CALLS = frozenset(("min", "umin", "llmin", "fminf", "fmin"))
_MAX_CALLS = frozenset(("max", "umax", "llmax", "fmaxf", "fmax"))
_ABS_CALLS = frozenset(("abs", "llabs", "fabsf", "fabs"))
_MUL24_CALLS = frozenset(("__mul24", "__umul24"))


def static_type(e: ir.Expr) -> str | None:
    """The C type `Evaluator` gives `e` (as its `_ev` works it out), without its value; None where
    that needs a value (a call the evaluator does not know, a name or constant it cannot hold)."""
    got = e.__dict__.get("_static_type", _ABSENT)
    if got is _ABSENT:
        got = e.__dict__["_static_type"] = _static_type(e)
    return got


def _static_type(e: ir.Expr) -> str | None:
    cls = e.__class__
    if cls is ir.Sym:
        return ctype_of_name(e.ctype)
    if cls is ir.Num:
        v = e.value
        if isinstance(v, float):
            return "f"
        return "i32" if -2**31 <= v <= INT32_MAX else "i64" if INT64_MIN <= v <= INT64_MAX else None
    if cls is ir.Bin:
        op = e.op
        if op == "&&" or op == "||" or op in _COMPARE:
            return "b"
        lt, rt = static_type(e.left), static_type(e.right)
        if lt is None or rt is None:
            return None
        if op == "<<" or op == ">>":
            return lt if lt != "b" else "i32"
        return lt if lt == rt and lt != "b" else _promote(lt, rt)
    if cls is ir.Un:
        t = static_type(e.operand)
        return None if t is None else "b" if e.op == "!" else t
    if cls is ir.Cond:
        at, bt = static_type(e.then), static_type(e.other)
        return None if at is None or bt is None else _promote(at, bt)
    if cls is ir.Cast:
        if e.type.pointers:
            return "u64"
        return ctype_of_name(e.type.name)
    if cls is ir.Call:
        name = e.fn.split("::")[-1]
        types = [static_type(a) for a in e.args]
        if None in types:
            return None
        if (name in _MIN_CALLS or name in _MAX_CALLS) and len(types) == 2:
            return _promote(types[0], types[1])
        if name in _ABS_CALLS and len(types) == 1:
            return types[0]
        if name in _MUL24_CALLS and len(types) == 2:
            return "i32"
    return None


@dataclass
class Overflow:
    node: ir.Expr
    ctype: str
    value: int


_ABSENT = object()


class Evaluator:
    """Evaluates expressions over `env` (names to numpy values). A plain class, not a dataclass:
    the simulation makes one for nearly every value it computes, tens of thousands a run."""

    __slots__ = ("env", "overflows", "track_overflow", "exact", "_shared", "_memo", "_kept", "_kept_key", "_log")

    def __init__(self, env: dict, overflows: dict | None = None, track_overflow: bool = False, exact: bool = True,
                 kept: "KeptValues | None" = None, kept_key=None):
        self.env = env
        self.overflows: dict[ir.Expr, Overflow] = {} if overflows is None else overflows
        self.track_overflow = track_overflow
        # False: int64 wraps as numpy computes it, quietly (a trip count watches `s *= 2` wrap to 0 to
        # end its loop); True: ValueTooLarge where an exact value would leave int64.
        self.exact = exact
        # nodes met more than once in the expressions evaluated (a DAG): their values are kept
        self._shared: frozenset = frozenset()
        self._memo: dict = {}
        # values kept across evaluators whose environments agree on every name (see KeptValues):
        # `kept_key` names the environment
        self._kept = kept if track_overflow and exact else None
        self._kept_key = kept_key
        self._log: list = []        # the overflows recorded, in order (what a kept value replays)

    def value(self, e: ir.Expr) -> np.ndarray:
        self._share(e)
        return self._ev(e)[0]

    def _share(self, e: ir.Expr) -> None:
        """Mark the nodes `e` reaches by more than one path: their values are kept while evaluating."""
        shared = e.__dict__.get("_shared")
        if shared is None:
            shared = ir.shared_nodes(e)
        if shared and not shared <= self._shared:
            self._shared = self._shared | shared

    def truth(self, e: ir.Expr):
        """`np.asarray(value(e)) != 0` (where a condition holds), with the comparisons at its top,
        and under `&&` and `||` there, giving their truth at once: as values they are 0 and 1 in
        int64, made and compared with 0 again over every lane and iteration of a guard or a loop.
        For evaluators that keep nothing across expressions (no `kept` values)."""
        self._share(e)
        return self._truth(e)

    def _truth(self, e: ir.Expr):
        if e.__class__ is ir.Bin:
            op = e.op
            if op in _COMPARE:
                return _COMPARE[op](self._ev(e.left)[0], self._ev(e.right)[0])
            if op == "&&" or op == "||":
                lv = self._truth(e.left)
                rv = self._truth(e.right)
                return lv & rv if op == "&&" else lv | rv
        return np.asarray(self._ev(e)[0]) != 0

    def eval(self, e: ir.Expr) -> tuple[np.ndarray, str]:
        v, t, _ = self._ev(e)
        return v, t

    def _ev(self, e: ir.Expr):
        """(value, C type, bound): the bound is a Python int no smaller than |value| anywhere, or
        None where it is not known. Integer arithmetic whose operands' bounds cannot leave int64
        needs no exact check (the operands are small where the result is large: a column of
        blocks plus a row of threads), which is most of it."""
        cls = e.__class__
        if cls is ir.Sym:
            v = self.env.get(e.name, _ABSENT)
            if v is _ABSENT:
                raise Unknown(e.name)
            return v, ctype_of_name(e.ctype), _env_bound(v) if self.exact else None
        if cls is ir.Num:
            v = e.value
            if isinstance(v, float):
                if self.exact and not math.isfinite(v):
                    raise ValueTooLarge(f"`{e}`", "is past the range of a double")
                return np.float64(v), "f", None
            got = e.__dict__.get("_value")      # a constant's value, type and bound: the same every time
            if got is None:
                if not INT64_MIN <= v <= INT64_MAX:
                    raise ValueTooLarge(f"the constant {v}" if v.bit_length() <= 128 else "a constant")
                got = e.__dict__["_value"] = (np.int64(v), "i32" if -2**31 <= v <= INT32_MAX else "i64", abs(v))
            return got
        shared = id(e) in self._shared
        if shared:
            got = self._memo.get(id(e))
            if got is not None:
                for node, ct, top in got[4]:        # again, for the log of what encloses it
                    self._record(node, ct, top)
                return got[0], got[1], got[2]
        kept = self._kept
        if kept is not None:
            got = kept.values.get((self._kept_key, e))
            if got is not None:
                for node, ct, top in got[3]:
                    self._record(node, ct, top)
                if shared:
                    self._memo[id(e)] = (got[0], got[1], got[2], e, got[3])
                return got[0], got[1], got[2]
        mark = len(self._log)
        if cls is ir.Bin:
            out = self._bin(e, e.op, e.left, e.right)
        elif cls is ir.Un:
            op = e.op
            v, t, b = self._ev(e.operand)
            if op == "-":
                if t != "f" and np.any(np.asarray(v) == INT64_MIN):
                    raise ValueTooLarge(f"`{e}`")
                out = -v, t, b
            elif op == "!":
                zero = v == 0       # an array, or a bool where the environment holds Python ints
                out = (zero.astype(np.int64) if hasattr(zero, "astype") else np.int64(zero)), "b", 1
            else:
                out = ~np.asarray(v, dtype=np.int64), t, None if b is None else b + 1
        elif cls is ir.Cond:
            cv = self._ev(e.cond)[0]
            other = None if np.ndim(cv) else static_type(e.other if cv != 0 else e.then)
            if other is not None:
                # one value for every lane (a template value, a launch constant): C evaluates the arm
                # it picks, and the other gives only its type
                v, at, b = self._ev(e.then if cv != 0 else e.other)
                t = _promote(at, other)
                out = (np.asarray(v, dtype=np.float64) if t == "f" and at != "f" else v), t, \
                    b if t != "f" else None
            else:
                av, at, ab = self._ev(e.then)
                bv, bt, bb = self._ev(e.other)
                t = _promote(at, bt)
                out = np.where(cv != 0, av, bv), t, max(ab, bb) if ab is not None and bb is not None and t != "f" \
                    else None
        elif cls is ir.Cast:
            ty = e.type
            v, vt, b = self._ev(e.expr)
            if ty.pointers:
                out = v, "u64", b
            else:
                ct = ctype_of_name(ty.name)
                if ct == "f":
                    out = np.asarray(v, dtype=np.float64), "f", None
                else:
                    if vt == "f":
                        v = np.asarray(v)
                        if not np.all(np.abs(v) < 2.0**63):      # inf, nan, 1e30: no integer to convert to
                            raise ValueTooLarge(f"`{e}`", "converts a float that no 64-bit integer holds")
                        v = np.trunc(v).astype(np.int64)
                        b = None
                    if self.track_overflow and ct in ("i32", "u32") and vt in ("i64", "u64") and \
                            (b is None or b > INT32_MAX):
                        self._check(e, v, ct)
                    if ct[0] == "u" and ct != "u64" and b != 0:
                        # C converts a negative value to an unsigned type modulo 2^bits: the range test
                        # `(unsigned)(t - 64) <= 32` passes only 64..96
                        v = np.asarray(v, dtype=np.int64)
                        negative = v < 0
                        if negative.any():
                            v = np.where(negative, v & ((1 << int(ct[1:])) - 1), v)
                            b = None
                    out = v, ct, b
        elif cls is ir.Call:
            out = self._call(e.fn, e.args)
        elif cls is ir.Name:
            raise Unknown(e.name)
        else:
            raise Unknown(str(e))
        # the overflows inside this node, each once: a node met again replays its own, and without
        # this a DAG of N levels (`if (c) i = i * 3;` N times) would carry 2^N of them
        found = tuple(dict.fromkeys(self._log[mark:])) if len(self._log) > mark else ()
        if shared:
            self._memo[id(e)] = (out[0], out[1], out[2], e, found)     # held: no other node can take its id meanwhile
        if kept is not None:
            kept.keep((self._kept_key, e), out, found)
        return out

    def _check(self, node: ir.Expr, v, ct: str) -> None:
        top = int(np.max(v)) if np.size(v) else 0
        if top > INT32_MAX:
            self._record(node, ct, top)

    def _record(self, node: ir.Expr, ct: str, top: int) -> None:
        self._log.append((node, ct, top))
        prev = self.overflows.get(node)
        if prev is None or top > prev.value:
            self.overflows[node] = Overflow(node, ct, top)


    def _bin(self, e, op, l, r):
        if op == "&&" or op == "||":
            lv = np.asarray(self._ev(l)[0]) != 0
            rv = np.asarray(self._ev(r)[0]) != 0
            return (lv & rv if op == "&&" else lv | rv).astype(np.int64), "b", 1
        lv, lt, lb = self._ev(l)
        rv, rt, rb = self._ev(r)
        t = lt if lt == rt and lt != "b" else _promote(lt, rt)
        if op in _COMPARE:
            return np.asarray(_COMPARE[op](lv, rv)).astype(np.int64), "b", 1
        bound = None
        if op == "<<" or op == ">>":
            t = lt if lt != "b" else "i32"
            lv = np.asarray(lv, dtype=np.int64)
            rv = np.asarray(rv, dtype=np.int64)
            if self.exact and np.any((rv < 0) | (rv > 63)):     # undefined in C; numpy gives 0 or garbage
                raise ValueTooLarge(f"`{e}`", "shifts by a count outside 0..63 (undefined in C)")
            res = lv << rv if op == "<<" else lv >> rv
            if self.exact and op == "<<" and np.any((res >> rv) != lv):
                raise ValueTooLarge(f"`{e}`")
            if self.exact and lb is not None:
                bound = lb if op == ">>" else (lb << rb if rb is not None and rb <= 63 else None)
        elif t != "f" and (op == "+" or op == "-" or op == "*"):
            res, bound = _exact(op, lv, rv, e, self.exact, lb, rb)
        elif op == "/" or op == "%":
            if t == "f":
                with np.errstate(divide="ignore", invalid="ignore"):
                    res = lv / rv if op == "/" else np.fmod(lv, rv)
            else:
                lv = np.asarray(lv, dtype=np.int64)
                rv = np.asarray(rv, dtype=np.int64)
                if rv.ndim == 0 and rv > 0 and lv.ndim:
                    # by one positive number (`/ 32`, `% TILE`): C's remainder is fmod's, and what is
                    # left once it is taken away divides exactly (three passes over the lanes, not eight)
                    rem = np.fmod(lv, rv)
                    res = (lv - rem) // rv if op == "/" else rem
                else:
                    safe = np.where(rv == 0, 1, rv)
                    q = np.abs(lv) // np.abs(safe) * np.sign(lv) * np.sign(safe)
                    res = q if op == "/" else lv - safe * q
                    res = np.where(rv == 0, 0, res)
                bound = lb          # |l / r| and |l % r| are at most |l|
        elif op == "+":
            res = lv + rv
        elif op == "-":
            res = lv - rv
        elif op == "*":
            res = lv * rv
        elif op == "&" or op == "|" or op == "^":
            lv, rv = np.asarray(lv, dtype=np.int64), np.asarray(rv, dtype=np.int64)
            res = lv & rv if op == "&" else lv | rv if op == "|" else lv ^ rv
            if lb is not None and rb is not None:
                bound = 2 * max(lb, rb)      # both in [-2^k, 2^k): so is the result
        else:
            raise Unknown(op)
        if t == "f":
            bound = None
            if self.exact and not np.all(np.isfinite(res)):     # inf or nan: no address to simulate
                raise ValueTooLarge(f"`{e}`", "is not a finite number")
        if self.track_overflow and (t == "i32" or t == "u32") and op in ("+", "*", "<<", "-") and \
                (bound is None or bound > INT32_MAX):       # a bound within 32 bits needs no look at the values
            self._check(e, res, t)
        return res, t, bound

    def _call(self, fn: str, args):
        name = fn.split("::")[-1]
        vals = [self._ev(a) for a in args]
        if name in _MIN_CALLS and len(vals) == 2:
            t = _promote(vals[0][1], vals[1][1])
            return np.minimum(vals[0][0], vals[1][0]), t, _max_bound(vals, t)
        if name in _MAX_CALLS and len(vals) == 2:
            t = _promote(vals[0][1], vals[1][1])
            return np.maximum(vals[0][0], vals[1][0]), t, _max_bound(vals, t)
        if name in _ABS_CALLS and len(vals) == 1:
            return np.abs(vals[0][0]), vals[0][1], vals[0][2] if vals[0][1] != "f" else None
        if name in _MUL24_CALLS and len(vals) == 2:
            res, bound = _exact("*", vals[0][0], vals[1][0], name, self.exact, vals[0][2], vals[1][2])
            return res, "i32", bound
        raise Unknown(fn)


class KeptValues:
    """Values of subexpressions shared by the evaluators of one simulation whose environments bind
    every name to the same value (the accesses of one loop nest, over the same sampled blocks and
    iterations): `row * K + k` is computed once for all the loads that use it, and the index of
    a two-dimensional array once for the index and its subscripts. A kept value carries the
    overflows found inside it, which an evaluator that takes it records as its own. Up to
    `max_bytes` of arrays are kept; past that, values are computed as without."""

    def __init__(self, max_bytes: int = 32 << 20):
        self.values: dict = {}
        self.room = max_bytes

    def keep(self, key, out, overflows) -> None:
        size = getattr(out[0], "nbytes", 8)
        if size <= self.room:
            self.room -= size
            self.values[key] = (out[0], out[1], out[2], overflows)


def _max_bound(vals, t: str) -> int | None:
    if t == "f" or vals[0][2] is None or vals[1][2] is None:
        return None
    return max(vals[0][2], vals[1][2])


_COMPARE = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal,
            "!=": np.not_equal}


def _max_abs(v: np.ndarray) -> int:
    return abs(int(v)) if v.ndim == 0 else max(int(v.max()), -int(v.min()))


def _env_bound(v) -> int | None:
    """max |v| of an environment's value: its arrays (threads, blocks, iterations: small, and met
    again and again) are measured once."""
    if isinstance(v, np.integer):
        return abs(int(v))
    if not isinstance(v, np.ndarray) or v.dtype.kind not in "iu" or not v.size or v.size > 1 << 16:
        return None
    got = _BOUNDS.get(id(v))
    if got is None:
        return _keep_bound(v, max(int(v.max()), -int(v.min())))
    return got[0]


_BOUNDS: dict[int, tuple[int, np.ndarray]] = {}


def known_bound(v: np.ndarray, bound: int) -> np.ndarray:
    """`v`, whose max |value| its maker knows (`bound`, exactly as _env_bound would measure it):
    the rows of sampled blocks and iterations are made from Python integers, again for every loop
    nest, and need not be measured again."""
    if v.size <= 1 << 16:
        _keep_bound(v, bound)
    return v


def _keep_bound(v: np.ndarray, bound: int) -> int:
    if len(_BOUNDS) >= 4096:
        _BOUNDS.clear()
    _BOUNDS[id(v)] = (bound, v)     # v held: its id stays its own
    return bound


def _exact(op: str, lv, rv, e, exact: bool = True, lb: int | None = None, rb: int | None = None):
    """(`lv op rv` in int64, a bound on its magnitude or None), or ValueTooLarge where the exact
    result leaves int64 (numpy wraps without a word for arrays, and warns on stderr for scalars);
    wrapped quietly when not `exact`. `lb`, `rb`: bounds on the operands, when known."""
    lv = np.asarray(lv, dtype=np.int64)
    rv = np.asarray(rv, dtype=np.int64)
    if lv.ndim == 0 and rv.ndim == 0:         # two numbers: Python's integers say whether it fits
        a, b = int(lv), int(rv)
        r = a + b if op == "+" else a - b if op == "-" else a * b
        if INT64_MIN <= r <= INT64_MAX:
            return np.int64(r), abs(r)
        if exact:
            raise ValueTooLarge(f"`{e}`")
        r = (r - INT64_MIN) % 2**64 + INT64_MIN       # as numpy wraps it
        return np.int64(r), abs(r)
    if not lv.size or not rv.size:
        return (lv + rv if op == "+" else lv - rv if op == "-" else lv * rv), 0
    if not exact:
        return (lv + rv if op == "+" else lv - rv if op == "-" else lv * rv), None
    lb = _max_abs(lv) if lb is None else lb
    rb = _max_abs(rv) if rb is None else rb
    if op == "*":
        if lb * rb < 2**62:
            return lv * rv, lb * rb
    elif lb + rb <= INT64_MAX:
        return (lv + rv if op == "+" else lv - rv), lb + rb
    with np.errstate(over="ignore"):
        if op == "+":
            res = lv + rv
            wrapped = ((lv ^ res) & (rv ^ res)) < 0
        elif op == "-":
            res = lv - rv
            wrapped = ((lv ^ rv) & (lv ^ res)) < 0
        else:
            res = lv * rv
            wrapped = False
            if np.any(np.abs(np.asarray(lv, dtype=np.float64) * rv) >= 2.0**62):   # near the edge: check exactly
                safe = np.where(lv == 0, 1, lv)
                wrapped = (lv != 0) & ((res // safe != rv) | ((lv == -1) & (rv == INT64_MIN)))
    if np.any(wrapped):
        raise ValueTooLarge(f"`{e}`")
    return res, None


_SAFE_CALLS = {"min": "max", "umin": "max", "llmin": "max", "max": "max", "umax": "max", "llmax": "max",
               "abs": "abs", "llabs": "abs", "__mul24": "*", "__umul24": "*"}
_SAFE_LIMIT = 2**62


def raise_free_bound(e: ir.Expr, env: dict) -> int | None:
    """A bound on |value| of every node of `e` over `env`, where what it is built of shows that
    Evaluator(env).value(e) cannot raise: integers only, every name bound (by a number or an
    integer array the bound is read from), shifts by constants, and sums and products that stay
    within 2^62 (so none leaves int64: the checks of `_exact` cannot fire). None where that is not
    shown (the evaluation may still succeed)."""
    return _bound(e, {}, env)


def _bound(n, memo: dict, env: dict) -> int | None:
    """raise_free_bound of a node, kept in `memo` by node (a module function, not a closure: one
    that calls itself would make a reference cycle holding `env` until the collector's next pass)."""
    got = memo.get(id(n), False)
    if got is False:
        got = memo[id(n)] = _bound_of(n, memo, env)
    return got


def _bound_of(n, memo: dict, env: dict) -> int | None:
    cls = n.__class__
    if cls is ir.Sym:
        if n.name not in env or ctype_of_name(n.ctype) == "f":
            return None
        return _env_bound(env[n.name])
    if cls is ir.Num:
        v = n.value
        return abs(v) if isinstance(v, int) and INT64_MIN <= v <= INT64_MAX else None
    if cls is ir.Bin:
        op = n.op
        lb, rb = _bound(n.left, memo, env), _bound(n.right, memo, env)
        if lb is None or rb is None:
            return None
        if op in _COMPARE or op == "&&" or op == "||":
            return 1
        if op == "+" or op == "-":
            out = lb + rb
        elif op == "*":
            out = lb * rb
        elif op == "/" or op == "%":
            return lb
        elif op == "&" or op == "|" or op == "^":
            return 2 * max(lb, rb)
        elif (op == "<<" or op == ">>") and n.right.__class__ is ir.Num and isinstance(n.right.value, int) \
                and 0 <= n.right.value <= 63:
            out = lb if op == ">>" else lb << n.right.value
        else:
            return None
        return out if out < _SAFE_LIMIT else None
    if cls is ir.Un:
        b = _bound(n.operand, memo, env)
        if b is None:
            return None
        if b >= _SAFE_LIMIT:
            return None         # `-` of INT64_MIN raises
        return 1 if n.op == "!" else b if n.op == "-" else b + 1
    if cls is ir.Cond:
        c, a, b = _bound(n.cond, memo, env), _bound(n.then, memo, env), _bound(n.other, memo, env)
        return None if c is None or a is None or b is None else max(a, b)
    if cls is ir.Cast:
        if not n.type.pointers and ctype_of_name(n.type.name) == "f":
            return None
        return _bound(n.expr, memo, env)
    if cls is ir.Call:
        kind = _SAFE_CALLS.get(n.fn.split("::")[-1])
        bs = [_bound(a, memo, env) for a in n.args]
        if kind is None or None in bs or len(bs) != (1 if kind == "abs" else 2):
            return None
        out = bs[0] * bs[1] if kind == "*" else max(bs)
        return out if out < _SAFE_LIMIT else None
    return None


_INT_CALLS = {"min": min, "umin": min, "llmin": min, "max": max, "umax": max, "llmax": max}


def value_span(e: ir.Expr, env: dict, extremes, limit: int = INT32_MAX) -> tuple[int, int] | None:
    """(least, greatest) value of `e` over `env`, from the least and greatest value of each name
    (`extremes(value)`) and what each operation does with them, where that shows every node of `e`
    to stay within [-limit, limit]: Evaluator(env).value(e) is then computed without a raise and,
    with the default limit, a 32-bit type passes 2^31 - 1 nowhere in it (no overflow to record).
    None where that is not shown (floating point, a name bound to nothing, a shift by a variable, a
    division by what may be 0, bitwise operations on negative values)."""
    return _span(e, ({}, env, extremes, limit))


def _span(n, ctx: tuple) -> tuple[int, int] | None:
    """value_span of a node; `ctx`: (memo by node, env, extremes, limit). A module function, not a
    closure (see _bound)."""
    memo = ctx[0]
    got = memo.get(id(n), False)
    if got is False:
        got = _span_of(n, ctx)
        if got is not None and (got[0] < -ctx[3] or got[1] > ctx[3]):
            got = None
        memo[id(n)] = got
    return got


def _span_of(n, ctx: tuple) -> tuple[int, int] | None:
    cls = n.__class__
    if cls is ir.Sym:
        v = ctx[1].get(n.name, _ABSENT)
        if v is _ABSENT or ctype_of_name(n.ctype) == "f":
            return None
        return ctx[2](v)
    if cls is ir.Num:
        v = n.value
        return (v, v) if isinstance(v, int) else None
    if cls is ir.Bin:
        op = n.op
        left, right = _span(n.left, ctx), _span(n.right, ctx)
        if left is None or right is None:
            return None
        (a, b), (c, d) = left, right
        if op in _COMPARE or op == "&&" or op == "||":
            return 0, 1
        if op == "+":
            return a + c, b + d
        if op == "-":
            return a - d, b - c
        if op == "*":
            corners = (a * c, a * d, b * c, b * d)
            return min(corners), max(corners)
        if op == "/" or op == "%":
            if c <= 0 <= d:
                return None
            if op == "/":       # C truncates: the extremes are at the corners
                corners = [_c_div(x, y) for x in (a, b) for y in (c, d)]
                return min(corners), max(corners)
            m = max(abs(c), abs(d)) - 1         # C's remainder takes the dividend's sign
            return (max(a, -m) if a < 0 else 0), (min(b, m) if b > 0 else 0)
        if op == "<<" or op == ">>":
            k = n.right.value if n.right.__class__ is ir.Num else None
            if not isinstance(k, int) or not 0 <= k <= 63:
                return None
            return (a << k, b << k) if op == "<<" else (a >> k, b >> k)
        if op == "&":
            if a >= 0 and c >= 0:
                return 0, min(b, d)
            if a >= 0 or c >= 0:
                return 0, (b if a >= 0 else d)
            return None
        if op == "|" or op == "^":
            if a < 0 or c < 0:
                return None
            return 0, (1 << max(b, d).bit_length()) - 1
        return None
    if cls is ir.Un:
        got = _span(n.operand, ctx)
        if got is None:
            return None
        a, b = got
        return (0, 1) if n.op == "!" else (-b, -a) if n.op == "-" else (-b - 1, -a - 1)
    if cls is ir.Cond:
        c, t, o = _span(n.cond, ctx), _span(n.then, ctx), _span(n.other, ctx)
        return None if c is None or t is None or o is None else (min(t[0], o[0]), max(t[1], o[1]))
    if cls is ir.Cast:
        ct = ctype_of_name(n.type.name)
        if n.type.pointers or ct == "f":
            return None
        got = _span(n.expr, ctx)         # the evaluator does not narrow a conversion between integers
        if got is not None and got[0] < 0 and ct[0] == "u" and ct != "u64":
            return None                  # but wraps a negative value to unsigned, as C does
        return got
    if cls is ir.Call:
        name = n.fn.split("::")[-1]
        args = [_span(x, ctx) for x in n.args]
        if None in args:
            return None
        if name in _INT_CALLS and len(args) == 2:
            pick = _INT_CALLS[name]
            return pick(args[0][0], args[1][0]), pick(args[0][1], args[1][1])
        if name in ("abs", "llabs") and len(args) == 1:
            a, b = args[0]
            return (0 if a <= 0 <= b else min(abs(a), abs(b))), max(abs(a), abs(b))
        if name in ("__mul24", "__umul24") and len(args) == 2:
            (a, b), (c, d) = args
            corners = (a * c, a * d, b * c, b * d)
            return min(corners), max(corners)
        return None
    return None


def _c_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def evaluate(e: ir.Expr, env: dict) -> np.ndarray:
    return Evaluator(env).value(e)
