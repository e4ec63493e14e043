"""IR → sympy, built node by node (never through sympify/parse_expr, which call eval).

C's integer `/` and `%` truncate toward zero; for the non-negative index arithmetic of kernels
they are sympy's floor division and Mod. sympy is imported here only, on demand: plain linting
uses the IR evaluator and `terms.decompose`, so a pre-commit run does not pay for the import.
"""
from __future__ import annotations

from . import ir


def to_sympy(e: ir.Expr, symbols: dict | None = None):
    import sympy

    symbols = {} if symbols is None else symbols

    def sym(name: str, kind: str):
        if name not in symbols:
            symbols[name] = sympy.Symbol(name, integer=True, nonnegative=kind in ("thread", "block", "blockdim",
                                                                                    "griddim", "iter", "param"))
        return symbols[name]

    def go(n: ir.Expr):
        match n:
            case ir.Num(value=v):
                return sympy.Integer(v) if isinstance(v, int) else sympy.Float(v)
            case ir.Sym(name=name, kind=kind):
                return sym(name, kind)
            case ir.Name(name=name):
                return sym(name, "unknown")
            case ir.Cast(expr=x):
                return go(x)
            case ir.Un(op="-", operand=o):
                return -go(o)
            case ir.Bin(op=op, left=l, right=r):
                a, b = go(l), go(r)
                if op == "+":
                    return a + b
                if op == "-":
                    return a - b
                if op == "*":
                    return a * b
                if op == "/":
                    return sympy.floor(a / b)
                if op == "%":
                    return sympy.Mod(a, b)
                if op == "<<":
                    return a * 2 ** b
                if op == ">>":
                    return sympy.floor(a / 2 ** b)
                rel = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge,
                       "==": sympy.Eq, "!=": sympy.Ne}
                if op in rel:
                    return rel[op](a, b)
                if op == "&&":
                    return sympy.And(a, b)
                if op == "||":
                    return sympy.Or(a, b)
            case ir.Cond(cond=c, then=a, other=b):
                return sympy.Piecewise((go(a), go(c)), (go(b), True))
            case ir.Call(fn="min", args=(a, b)):
                return sympy.Min(go(a), go(b))
            case ir.Call(fn="max", args=(a, b)):
                return sympy.Max(go(a), go(b))
        return sympy.Function("opaque")(sympy.Symbol(str(n)))

    return go(e)
