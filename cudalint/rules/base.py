"""What every rule module provides, and the context a rule's check() reads."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..diagnostic import Diagnostic
from ..index import ir
from ..model.table import Access, TwoTreeTable

if TYPE_CHECKING:     # the rules' metadata is read without the simulation (and numpy) loaded
    from ..analysis.simulate import Simulation


@dataclass
class Options:
    min_ratio: float = 2.0          # CL101: sectors/request at least this many times the ideal
    params: dict[str, int] = field(default_factory=dict)
    min_ways: int = 2               # CL401: report bank conflicts of at least this many ways


@dataclass
class Context:
    table: TwoTreeTable
    sim: Simulation           # rules run on a simulated kernel only
    options: Options
    # ids of the accesses whose findings are asked for (None: all): a family trial re-checks only
    # the findings its first trial made
    only: frozenset[int] | None = None
    # only which findings are made is read (a family trial's check of its first trial's findings):
    # a rule may leave out what only their messages show
    verdicts: bool = False

    def accesses(self) -> list[Access]:
        """The accesses a rule that judges each access on its own looks at."""
        if self.only is None:
            return self.table.accesses
        return [a for a in self.table.accesses if id(a) in self.only]

    def wants(self, acc: Access) -> bool:
        return self.only is None or id(acc) in self.only

    def diagnostic(self, rule, acc: Access | None, message: str, line: int | None = None,
                   column: int | None = None, metrics: dict | None = None, assumptions: list[str] | None = None,
                   end: tuple[int, int] | None = None, path: str | None = None,
                   severity: str | None = None, facts: dict | None = None) -> Diagnostic:
        t = self.table
        if acc is not None:
            line = line or acc.line
            column = column or acc.column
            end = end or (acc.end_line, acc.end_column)
        line = line or t.line
        column = column or 1
        end = end or (line, column)
        d = Diagnostic(path or (acc.path if acc is not None and acc.path else t.path), line, column, end[0], end[1],
                       rule.CODE, rule.NAME, rule.CATEGORY, severity or rule.SEVERITY, plain(message), t.kernel,
                       metrics=metrics or {}, assumptions=list(assumptions or []), facts=dict(facts or {}))
        if acc is not None:
            d.array = acc.array.name
            d.access = acc.kind
            d.space = acc.space
        return d

    def assumptions_for(self, acc: Access) -> list[str]:
        """Assumptions that this access's result depends on."""
        if self.sim is None:
            return []
        out = list(self.sim.assumptions)
        names = {s.name for s in ir.symbols(acc.index) if s.kind == "param"}
        for g in self.table.launch.grid or ():
            names |= {s.name for s in ir.symbols(g) if s.kind == "param"}
        for g in acc.guards:
            names |= {s.name for s in ir.symbols(g) if s.kind == "param"}
        defaulted = [n for n in self.sim.defaulted_params if n in names and n not in self.sim.family.block_names]
        text = self.sim.family.size_text(defaulted)
        if text is not None:
            out.append(text)
        elif defaulted:
            out.append("sizes not given, assumed " + ", ".join(f"{n}={self.sim.params[n]}" for n in defaulted) +
                       " (give --param NAME=VALUE)")
        return out


def chosen(sim, name: str) -> bool:
    """A size the program does not give, whose value this trial chose (or the simulation defaulted:
    `param.size_per_head` of a struct passed by value, read where no trial names it)."""
    return (name in sim.family.sizes and name not in sim.table.launch.params) or \
        name in getattr(sim, "_defaulted", ())


def open_names(sim, e: ir.Expr) -> list[str]:
    """The names in `e` whose values the program does not give (this trial's are cudalint's own)."""
    if sim is None:
        return []
    return [x.name for x in ir.symbols(e) if x.kind == "param" and chosen(sim, x.name)]


KNOWN_KINDS = frozenset(("thread", "block", "blockdim", "griddim", "iter", "param"))


def conditions(acc) -> list:
    """The guards an access runs under and the conditions of the loops around it."""
    return list(acc.guards) + [it.cond for it in acc.loops if it.cond is not None]


def opaque(e) -> bool:
    """The expression reads a value loaded or computed out of cudalint's sight (a subscript, a
    dereference, a member, a name of no kind the simulation evaluates): the simulation takes a
    guard made of it as running, so no range judged under it is sure."""
    return any(x.kind not in KNOWN_KINDS for x in ir.symbols(e)) or \
        any(isinstance(n, (ir.Subscript, ir.Deref, ir.Member)) for n in e.walk())


def invented(sim, exprs, loops=None) -> list[str]:
    """The values in `exprs` that this trial made up: sizes the program does not give, and the grid
    dimensions of a launch cudalint assumed (its block shapes are the family's trials, each one that
    the program could launch); a loop's counter brings its bounds' values. `loops`: the loops around
    the access the expressions belong to (two loops of a kernel may count with one name: `for (i =
    ...; i < n; ...)` and later `for (i = ...; i < m; ...)`); else every loop of the kernel."""
    if sim is None:
        return []
    out: dict[str, None] = {}
    todo, seen = list(exprs), set()
    loops = {it.trip.name: it for it in (sim.table.iterators if loops is None else loops)}
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        for x in ir.symbols(e):
            if x.kind == "param" and chosen(sim, x.name):
                out[x.name] = None
            elif x.kind == "griddim" and not sim.grid_known:
                out[x.name] = None
            elif x.kind == "griddim" and (g := launch_grid_of(sim, x)) is not None:
                todo.append(g)      # the launch's grid, made of sizes the program may not give
            elif x.kind == "iter" and x.name in loops:
                it = loops[x.name]
                todo += [it.cond, it.start, it.value]
    return list(out)


def launch_grid_of(sim, s: ir.Sym) -> ir.Expr | None:
    """The launch's expression for a `gridDim` axis, where the program's launch gives the grid."""
    lc = sim.table.launch
    if s.kind != "griddim" or not sim.grid_known or lc.grid is None:
        return None
    return lc.grid["xyz".index(s.name[-1])]


def scaled_text(sim, e: ir.Expr, value: int, scale: int = 1) -> str | None:
    """`value` (= scale × e at this trial) written as the program's own expression where `e` holds a
    value the program does not give (`4·K` bytes, not 4000): a message never quotes an invented figure.
    None where `e` holds none."""
    if isinstance(e, ir.Sym) and (g := launch_grid_of(sim, e)) is not None and open_names(sim, g):
        e = g       # `gridDim.x` of a launch `<<<B, 256>>>`: B
    if not open_names(sim, e):
        return None
    text = str(e)
    if not (isinstance(e, (ir.Sym, ir.Num)) or text.isidentifier()):
        text = f"({text})"
    return f"{scale}·{text}" if scale != 1 else text


def fmt_point(point: dict[str, int], keep=None) -> str:
    """`threadIdx.x=127 in the first iteration of the `s` loop`: coordinates, then loop trips in words."""
    items = [(k, v) for k, v in point.items() if keep is None or k in keep]
    coords = ", ".join(f"{k}={v}" for k, v in items if not _ITER.fullmatch(k))
    trips = " and ".join(iteration(_ITER.fullmatch(k).group(1), v) for k, v in items if _ITER.fullmatch(k))
    return f"{coords} in {trips}" if coords and trips else coords or trips


_TOKEN = re.compile(r"\s+|[A-Za-z_]\w*(?:\.[xyz]\b)?|\d+(?:\.\d*)?\w*|->|<<|>>|[<>=!]=|&&|\|\||::|.")


def short(text: str, limit: int = 40) -> str:
    """Source text quoted in a message, cut in the middle past `limit` characters at token
    boundaries (`threadIdx.x` and `blockDim` are never split): a finding's line stays readable, and
    its columns point at the whole text anyway."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    tokens = _TOKEN.findall(text)
    keep = (limit - 1) // 2
    head, n = [], 0
    for t in tokens:
        if n + len(t) > keep and head:
            break
        head.append(t)
        n += len(t)
    tail, n = [], 0
    for t in reversed(tokens[len(head):]):
        if n + len(t) > limit - 1 - sum(map(len, head)) and tail:
            break
        tail.append(t)
        n += len(t)
    left, right = "".join(head).rstrip(), "".join(reversed(tail)).lstrip()
    # whole tokens on both sides; a space keeps two names from reading as one
    return left + (" … " if (left[-1:].isalnum() or left[-1:] == "_") and (right[:1].isalnum() or right[:1] == "_")
                   else "…") + right


def figure(x: float) -> str:
    """A mean in a message: `32` when whole, else `16.50`."""
    return str(int(round(x))) if abs(x - round(x)) < 0.005 else f"{x:.2f}"


def written(acc) -> str:
    """An access as written, whole (a message cuts it with `short`, at token boundaries); through
    a reference parameter, the element it is bound to."""
    if getattr(acc, "alias", None) is not None:
        return str(acc.alias)
    return str(acc.written) if acc.written is not None else acc.text


def loop_name(var: str) -> str:
    """A loop as a user names it: `the `k` loop`, or `the loop at line 9` for one without a
    variable of its own (a `while`), which the model names `loop@9`."""
    m = re.fullmatch(r"loop@(\d+)", var or "")
    return f"the loop at line {m.group(1)}" if m else f"the `{var}` loop"


def iteration(var: str, n: int) -> str:
    """`the first iteration of the `s` loop`: a trip counter's value in words (counted from 0)."""
    which = "first" if n == 0 else "second" if n == 1 else "last" if n < 0 else f"iteration {n + 1} of"
    return f"the {which} iteration of {loop_name(var)}" if not which.startswith("iteration") else \
        f"{which} {loop_name(var)}"


_ITER = re.compile(r"iter\(([\w@]+)\)")


def plain(text: str) -> str:
    """A message with the model's internal names (`loop@9`, the trip counter `iter(s)`) in the words
    a user reads; a rule writes them so already, this catches what a shared helper let through."""
    text = re.sub(r"\b(?:iter\()?([\w@]+?)\)?=(-?\d+)\b",
                  lambda m: iteration(m.group(1), int(m.group(2)))
                  if "@" in m.group(1) or m.group(0).startswith("iter(") else m.group(0), text)
    text = re.sub(r"`loop@(\d+)`", r"the loop at line \1", text)
    return re.sub(r"\bloop@(\d+)", r"the loop at line \1", text)


def internal(text: str) -> bool:
    """Text (a term, an index) written with the model's own names: not to be quoted to a user."""
    return "iter(" in text or "@" in text


def fmt_thread(point: dict[str, int], keep=None) -> str:
    """`thread 232`, `thread (1, 0)` (x, y) or `thread (y=5)`, then ` of block 3` when a blockIdx is
    kept: the coordinates of `point` that `keep` names (all of them when it is None)."""
    def part(kind: str) -> str:
        axes = [a for a in "xyz" if f"{kind}.{a}" in point and (keep is None or f"{kind}.{a}" in keep)]
        vals = [str(point[f"{kind}.{a}"]) for a in axes]
        if not axes:
            return ""
        if len(axes) == 1 and axes[0] == "x":
            return vals[0]
        if "".join(axes) in ("xy", "xyz"):
            return "(" + ", ".join(vals) + ")"
        return "(" + ", ".join(f"{a}={v}" for a, v in zip(axes, vals)) + ")"
    thread, block = part("threadIdx"), part("blockIdx")
    return f"thread {thread or 0}" + (f" of block {block}" if block else "")
