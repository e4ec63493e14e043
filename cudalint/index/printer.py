"""IR back to C-like text, with the minimum of parentheses."""
from __future__ import annotations

import math

from . import ir

_PREC = {",": 0, "=": 1, "?": 2, "||": 3, "&&": 4, "|": 5, "^": 6, "&": 7, "==": 8, "!=": 8,
         "<": 9, "<=": 9, ">": 9, ">=": 9, "<<": 10, ">>": 10, "+": 11, "-": 11,
         "*": 12, "/": 12, "%": 12}
_UNARY = 13
_POSTFIX = 14


def _num(v) -> str:
    if isinstance(v, float):
        if not math.isfinite(v):          # `1e999` in the source: what <math.h> calls it
            return "NAN" if v != v else ("-INFINITY" if v < 0 else "INFINITY")
        return repr(v) if v != int(v) or abs(v) >= 1e16 else f"{int(v)}.0f"     # 1e+300, not 301 digits
    if abs(v) < 10 ** 20:
        return str(v)
    # Folding constants of a hostile file can give numbers far past 64 bits, and str() refuses
    # ints of more than 4300 digits: hexadecimal is exact and unlimited; past 256 bits, say its size.
    sign = "-" if v < 0 else ""
    return f"{sign}{abs(v):#x}" if v.bit_length() <= 256 else f"{sign}/* {v.bit_length()}-bit constant */0"


def _fmt(e: ir.Expr, memo: dict) -> tuple[str, int]:
    shown = e.__dict__.get("_shown")
    if shown is not None:           # a value the program names (a parameter passed as `n / 3`): its name
        return shown, _POSTFIX + 1
    if e.__class__ is ir.Bin:       # most nodes: tested first, by class
        op = e.op
        p = _PREC[op]
        # `(threadIdx.x >= 128) == 0`: a comparison inside a comparison is parenthesized to be read
        low = 10 if p in (8, 9) else p
        return f"{_wrap(e.left, low, memo)} {op} {_wrap(e.right, max(low, p + 1), memo)}", p
    match e:
        case ir.Num(value=v):
            return _num(v), _POSTFIX + 1 if v >= 0 else _UNARY
        case ir.Sym(name=n) | ir.Name(name=n):
            return n, _POSTFIX + 1
        case ir.Str(text=t):
            return t, _POSTFIX + 1
        case ir.Member(base=b, field=f, arrow=arrow):
            return f"{_wrap(b, _POSTFIX, memo)}{'->' if arrow else '.'}{f}", _POSTFIX
        case ir.Un(op=op, operand=o):
            return f"{op}{_wrap(o, _UNARY, memo)}", _UNARY
        case ir.Cond(cond=c, then=a, other=b):
            return f"{_wrap(c, 3, memo)} ? {_wrap(a, 0, memo)} : {_wrap(b, 2, memo)}", 2
        case ir.Call(fn=f, args=a, targs=t):
            f = f"{f}<{', '.join(t)}>" if t else f
            args = []
            for x in a:         # a loop: a generator here would make `memo` a cell in every call of _fmt
                args.append(_wrap(x, 1, memo))
            if f == "{}":           # a braced initializer
                return f"{{{', '.join(args)}}}", _POSTFIX
            return f"{f}({', '.join(args)})", _POSTFIX
        case ir.Cast(type=t, expr=x):
            return f"({t}){_wrap(x, _UNARY, memo)}", _UNARY
        case ir.Subscript(base=b, index=i):
            return f"{_wrap(b, _POSTFIX, memo)}[{_wrap(i, 0, memo)}]", _POSTFIX
        case ir.AddrOf(expr=x):
            return f"&{_wrap(x, _UNARY, memo)}", _UNARY
        case ir.Deref(expr=x):
            return f"*{_wrap(x, _UNARY, memo)}", _UNARY
        case ir.Assign(op=op, target=t, value=v, post=True) if op in ("+=", "-=") and v == ir.Num(1):
            return f"{_wrap(t, _POSTFIX, memo)}{op[0] * 2}", _POSTFIX
        case ir.Assign(op=op, target=t, value=v):
            return f"{_wrap(t, 2, memo)} {op} {_wrap(v, 1, memo)}", 1
        case ir.Comma(left=l, right=r):
            return f"{_wrap(l, 0, memo)}, {_wrap(r, 1, memo)}", 0
    return repr(e), _POSTFIX + 1


# A printed expression longer than this keeps its first and last halves: a value built by N
# statements `if (c) i = i + k;` prints as 2^N copies of its first terms.
MAX_TEXT = 20_000


def _wrap(e: ir.Expr, min_prec: int, memo: dict) -> str:
    got = memo.get(id(e))
    if got is None:
        text, prec = _fmt(e, memo)
        got = memo[id(e)] = (_bounded(text), prec, e)     # e kept alive: its id stays its own
    return f"({got[0]})" if got[1] < min_prec else got[0]


def _bounded(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    half = MAX_TEXT // 2
    return text[:half] + "…" + text[-half:]


def to_c(e: ir.Expr) -> str:
    """The expression as C text, each distinct node printed once."""
    return _bounded(_fmt(e, {})[0])
