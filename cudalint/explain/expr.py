"""`cudalint explain --expr`: decompose and max-check one typed index expression, before the kernel
exists (the seed's top-down use). Names defined with -D are constants, `--iter NAME=COUNT` makes a
loop counter 0..COUNT-1; any other name stays a symbol and is reported as such."""
from __future__ import annotations

import math

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator
from ..index.parse import ExprSyntaxError, parse_expr
from ..lint import Config, UsageError, _defines
from ..model.table import AREA, Iterator
from .data import ExprView, MaxCheck
from .terms import Evaluated, Scope, pattern_of, substitute, symbolize, term_rows

MAX_POINTS = 1 << 22


def explain_expr(text: str, defines: dict[str, str], block: tuple[int, int, int], grid: tuple[int, int, int],
                 iters: dict[str, int], extent: int | None = None) -> ExprView:
    try:
        written = parse_expr(text)
    except ExprSyntaxError as exc:
        raise UsageError(f"bad --expr `{text}`: {exc}") from None
    macros = _defines(Config(defines=dict(defines)))
    constants = {}
    for name in defines:
        try:
            constants[name] = parse_expr(macros.expand(name))
        except ExprSyntaxError:
            raise UsageError(f"bad -D value: {name}={defines[name]} is not an expression") from None
    iterators = {n: Iterator(n, ir.Sym(n, "iter"), ir.Sym(n, "iter"), None, 0, AREA) for n in iters}
    scope = Scope({}, iterators, constants, set(), macros)

    env: dict = {}
    for a, v in zip("xyz", block):
        env[f"blockDim.{a}"] = np.int64(v)
    for a, v in zip("xyz", grid):
        env[f"gridDim.{a}"] = np.int64(v)
    values: dict[str, ir.Expr] = {}
    sym = symbolize(written, scope, values)
    ranges = {}
    for s in sym.walk():
        if isinstance(s, ir.Sym) and s.kind in ("thread", "block"):
            axis = "xyz".index(s.name[-1])
            ranges[s.name] = (block if s.kind == "thread" else grid)[axis]
    for n, count in iters.items():
        ranges[n] = count
    names = sorted(ranges)
    total = math.prod(ranges[n] for n in names)        # Python's integers: numpy's product wraps past 2^63
    if total > MAX_POINTS and 2 ** len(names) > MAX_POINTS:
        raise UsageError(f"--expr has {len(names)} coordinates to evaluate over, more than cudalint evaluates "
                         f"together ({MAX_POINTS.bit_length() - 1})")
    picks = 5 if 5 ** len(names) <= MAX_POINTS else 2
    for i, n in enumerate(names):
        if total > MAX_POINTS:   # keep each coordinate's extremes (and middle) (never build the whole range)
            pick = [0, 1, ranges[n] // 2, ranges[n] - 2, ranges[n] - 1] if picks == 5 else [0, ranges[n] - 1]
            vals = np.unique(np.array(pick, dtype=np.int64).clip(0, ranges[n] - 1))
        else:
            vals = np.arange(ranges[n], dtype=np.int64)
        shape = [1] * len(names)
        shape[i] = len(vals)
        env[n] = vals.reshape(shape)
    full = tuple(np.asarray(env[n]).size for n in names)

    def run(exprs):
        return [np.broadcast_to(np.asarray(Evaluator(env).value(e)), full) for e in exprs]
    ev = Evaluated(env, np.ones(full, dtype=bool), run)
    _, rows, values = term_rows(written, scope, ev)
    symbols = sorted(scope.symbols)
    assumptions = [f"threads are launched as block ({', '.join(map(str, block))}), grid ({', '.join(map(str, grid))})"]
    assumptions += [f"`{n}` counts 0..{c - 1} (--iter)" for n, c in iters.items()]
    for n in symbols:
        assumptions.append(f"`{n}` is not defined: kept as a symbol (give -D {n}=VALUE, or --iter {n}=COUNT "
                           f"for a loop counter)")

    limit, limit_text = None, ""
    grid_terms = [r for r in rows if r.level.startswith("Grid -> ")]
    if extent is not None:
        limit, limit_text = extent - 1, f"--extent {extent}"
    elif len(grid_terms) == 1 and grid_terms[0].coord.startswith("blockIdx.") and grid_terms[0].stride_value:
        g = grid_terms[0]
        cover = grid["xyz".index(g.coord[-1])] * g.stride_value
        limit, limit_text = cover - 1, f"the grid covers gridDim.{g.coord[-1]} * {g.stride} = {cover}"

    known = [r for r in rows if r.level == "offset" or r.max_coord is not None]
    unknown = [r for r in rows if r not in known]
    parts, total_v = [], 0
    for r in known:
        if r.stride_value is None:
            unknown.append(r)
            continue
        if r.level == "offset":
            parts.append(str(r.stride_value))
            total_v += r.stride_value
        else:
            parts.append(f"{r.max_coord}*{r.stride_value}" if r.stride_value != 1 else str(r.max_coord))
            total_v += r.max_coord * r.stride_value
    if unknown:
        rest = " + ".join(f"max({r.coord})" + (f"*{r.stride}" if r.stride != "1" else "") for r in unknown)
        check = MaxCheck(" + ".join(parts) or "0", total_v, None, f"plus {rest}: not known") if parts else None
    else:
        whole = ev.extremes(substitute(sym, values))
        arith = " + ".join(parts).replace("+ -", "- ") or "0"
        value = whole[1] if whole else total_v
        check = MaxCheck(arith, value, limit, limit_text, bound_only=value != total_v, total=total_v)
    pattern = pattern_of("", written, rows, block, set())
    return ExprView(text, block, grid, dict(defines), rows, check, pattern, assumptions, symbols)
