"""## What it does
Finds the threads that exist only because the grid is a ceil-div of the problem size
(`(n + 255) / 256` blocks cover 1024 threads for n = 1000) and flags a global access that those
threads execute, with an index that depends on their coordinate, because no guard stops them.
Where the program leaves the size open, the finding is the condition under which the grid adds
those threads (`whenever n % 256 != 0`). Where the program's own sizes are a multiple of the
block, no thread passes the size and there is no warning: an info says that the kernel stays
inside only because of that.

## Why is this bad?
The excess threads of the last block read or write past the end of the array: an
out-of-bounds access that may fault, corrupt a neighbouring allocation, or go unnoticed.

## Example
```cuda
int i = blockIdx.x * blockDim.x + threadIdx.x;
c[i] = a[i] + b[i];                 // vec_add<<<(n + 255) / 256, 256>>>
```

## Use instead
```cuda
int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < n) c[i] = a[i] + b[i];
```
"""
import re
import sys

from ..index import ir
from .base import Context, conditions, fmt_thread, opaque, short, written

CODE = "CL202"
NAME = "unguarded-global-access"
CATEGORY = "range"
SEVERITY = "error"
EXAMPLE_KERNEL = """
__global__ void vec_add(const float* a, const float* b, float* c, int n) {
$CODE
}
// cudalint: param n=1000
void run(const float* a, const float* b, float* c, int n) { vec_add<<<(n + 255) / 256, 256>>>(a, b, c, n); }
"""


def guard(acc, ex, table=None) -> str:
    """The bounds check for this access, in the user's names: `if (i < n)` where `i` is the index
    variable that runs along the axis whose grid was rounded up and `n` the size it was rounded from.
    A variable divided or taken modulo on its way (`bt = idx / C`) counts rows, not the threads
    the size counts: it is no subject (`table`: where the definitions are read)."""
    axis = f"threadIdx.{ex.thread_axis or ex.axis}"
    names = [n for n, deps in acc.name_deps.items() if deps == {axis}]
    if not names and table is not None:        # `&mul[w]` of an atomic: the names that reach it
        names = [n for n, d in acc.reaching.items() if d in table.def_values and _along(table.def_values[d], ex)]
    if table is not None:
        defs = [t.split(" = ", 1) for t in table.definitions.values() if " = " in t]
        names = [n for n in names if not any(k.strip() == n and any(op in v for op in ("/", "%", ">>"))
                                             for k, v in defs)]
        # `i = width * h + w`: a position in a 2-D space, whose rows the size also counts, is no
        # subject either; the coordinate its definition is made of (`w`) is
        along = []
        for n in names:
            value = table.def_values.get(acc.reaching.get(n, ""))
            if value is None or _along(value, ex):
                along.append(n)
                continue
            text = next((v for k, v in defs if k.strip() == n), "")
            along += [w for w in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", text)) if _defined_along(table, w, ex)]
        names = list(dict.fromkeys(along))
    subject = names[0] if len(names) == 1 else "…"
    return f"if ({subject} < {ex.extent_text})"


def _along(value, ex) -> bool:
    """A value that counts along the rounded axis alone: its thread and block coordinates are
    that axis's, and the size it is checked against does not scale it."""
    sizes = {x.name for x in ir.symbols(ex.extent_expr)} if isinstance(ex.extent_expr, ir.Expr) else set()
    for x in ir.symbols(value):
        if x.kind == "thread" and x.name != f"threadIdx.{ex.thread_axis or ex.axis}":
            return False
        if x.kind == "block" and x.name != f"blockIdx.{ex.axis}":
            return False
        if x.name in sizes:
            return False
    return any(x.kind == "thread" for x in ir.symbols(value))


def _defined_along(table, name: str, ex) -> bool:
    values = [table.def_values[d] for d, t in table.definitions.items()
              if t.split(" = ", 1)[0].strip() == name and d in table.def_values]
    return len(values) == 1 and _along(values[0], ex)


def message(d) -> str:
    """The finding's text, from its facts (the one place it is written)."""
    f, m = d.facts, d.metrics
    if "multiple_of" in m:      # inside at the program's sizes, by their divisibility alone
        size = f["extent_text"] if f["extent_text"] == str(m["extent"]) else f"{f['extent_text']} = {m['extent']}"
        text = (f"{d.access} of `{f['text']}` has no guard: the grid rounds {f['extent_text']} up to whole "
                f"blocks of {m['multiple_of']}, and it stays inside only because {size} is a multiple of "
                f"{m['multiple_of']}; add `{m['guard']}`")
    elif "condition" in m and f.get("derived"):
        # an index made of the global coordinate (`tid / k`): past what the threads inside the size touch
        text = (f"{d.access} of `{f['text']}` runs past the elements the threads inside {f['extent_text']} touch "
                f"whenever {m['condition']} (its index is made of the global thread number); add `{m['guard']}`")
    elif "condition" in m:     # a size the program does not give: the condition, never this trial's figures
        # "whenever": nothing in the program (a guard, a host check, its sizes) rules the condition out
        text = (f"{d.access} of `{f['text']}` runs past {f['extent_text']} for every {f['extent_text']}: the grid "
                f"adds threads past it even where it is a multiple of the block; add `{m['guard']}`"
                if m["condition"] == "always" else
                f"{d.access} of `{f['text']}` runs past {f['extent_text']} whenever {m['condition']}; add `{m['guard']}`")
    elif f.get("derived"):
        text = (f"{d.access} of `{f['text']}` runs unguarded past the elements the threads inside "
                f"{f['extent_text']} = {m['extent']} touch (index {m['index']} at {f['point']}); add `{m['guard']}`")
    else:
        text = (f"{d.access} of `{f['text']}` runs unguarded past {f['extent_text']} = {m['extent']} "
                f"(index {m['index']} at {f['point']}); add `{m['guard']}`")
    same = f.get("same_cause_as")
    if same:
        text += f" (as for column {same['column']})" if same["line"] == d.line else f" (as for line {same['line']})"
    return text


def cause_key(d):
    """Accesses of one statement that one guard fixes: later ones point to the first."""
    return (d.line, d.metrics.get("guard")) if d.metrics.get("guard") and "…" not in d.metrics["guard"] else None


def help(d) -> str | None:
    same = d.facts.get("same_cause_as")
    if same:
        return f"the guard that keeps column {same['column']} in bounds keeps this access in bounds too"
    return None


def open_sizes(sim, ex) -> list[str] | None:
    """The names of the problem size the grid was rounded from that the program does not give:
    the finding then holds for the sizes that are not a multiple of the block, not for one size.
    None where no condition can be stated over them."""
    names = [x.name for x in ir.symbols(ex.extent_expr) if x.kind == "param"]
    opened = [n for n in names if n in sim.family.sizes]
    if any(sim.family.roles.get(n) != "size" for n in opened):
        return None     # a shift count or a mask's power of two: not a size the grid rounds up
    if any(n not in sim.table.params for n in opened):
        # a host value the kernel never receives (`CEIL_DIV(B * T * C, 256)` for a kernel of `NH` and
        # `d`): how it relates to the kernel's own guard is not known, so no condition is stated
        return None
    return opened


def condition(sim, ex) -> str:
    """When the grid adds threads past the size: `n % 256 != 0` (ceil-div rounds up by the block)."""
    bare = isinstance(ex.extent_expr, (ir.Sym, ir.Num, ir.Name, ir.Member))
    text = ex.extent_text if bare else f"({ex.extent_text})"
    k = "xyz".index(ex.thread_axis or ex.axis)
    lc = sim.table.launch
    if sim.block_chosen and lc.block is not None and not isinstance(lc.block[k], ir.Num):
        edge = lc.block[k]      # a block edge the program does not give: the condition names it
        return f"{text} % {edge if isinstance(edge, ir.Sym) else f'({edge})'} != 0"
    if _past_at_multiples(sim, ex, k):
        return "always"
    return f"{text} % {sim.block[k]} != 0"


def _past_at_multiples(sim, ex, k: int) -> bool:
    """The grid has threads past a size that is a multiple of the block too (`n / 256 + 1`,
    `(n + 256) / 256`): no divisibility of the size avoids them. Read for a size that is one name."""
    from ..index.evaluate import Evaluator, Unknown
    size, lc = ex.extent_expr, sim.table.launch
    if not isinstance(size, ir.Sym) or lc.grid is None:
        return False
    edge, axis_i = sim.block[k], "xyz".index(ex.axis)
    env = {x.name: sim.params.get(x.name, 0) for x in ir.symbols(lc.grid[axis_i]) if x.kind == "param"}
    env.update({f"blockDim.{a}": b for a, b in zip("xyz", sim.block)})
    try:
        for m in (4, 16):
            env[size.name] = m * edge
            if int(Evaluator(env).value(lc.grid[axis_i])) * edge <= m * edge:
                return False
    except (Unknown, ValueError, TypeError, OverflowError):
        return False
    return True


def data_guarded(acc, ex) -> bool:
    """A guard or loop condition over the access's thread coordinate along the rounded axis that
    compares it with a value loaded or computed out of cudalint's sight (`f < desc.num_frames`): the
    kernel does bound those threads, by a value no size tells, so no condition over sizes holds."""
    axis = f"threadIdx.{ex.thread_axis or ex.axis}"
    # a condition cudalint could not read (`unread@LINE`) may be that very comparison
    return any(opaque(g) for g in conditions(acc)
               if any(x.name == axis or x.kind == "iter" or x.name.startswith("unread@") or _call(x)
                      for x in ir.symbols(g)))


def size_guarded(acc, ex) -> bool:
    """A guard over the access's thread coordinate along the rounded axis that compares it with a
    size of the kernel's other than the one the grid was rounded from (`if (gtid < len)` under a
    grid of `len / 8` threads): the kernel bounds its threads by the extent it is written for, and
    where no allocation says otherwise that size, not the grid's count, is the array's. A bound
    within one of the grid's size (`i <= n` under `(n + 127) / 128` blocks) is that size's guard,
    off by one: not this."""
    from ..index.evaluate import Evaluator, Unknown
    axis = f"threadIdx.{ex.thread_axis or ex.axis}"
    if not isinstance(ex.extent_expr, ir.Expr):
        return False
    for g in conditions(acc):
        if not (isinstance(g, ir.Bin) and g.op in ("<", "<=", ">", ">=")):
            continue
        sides = [x for x in (g.left, g.right) if not any(s.name == axis for s in ir.symbols(x))]
        if len(sides) != 1 or not any(s.name == axis for s in ir.symbols(g)):
            continue
        bound = sides[0]
        names = {s.name for s in ir.symbols(bound)} | {s.name for s in ir.symbols(ex.extent_expr)}
        if not ir.symbols(bound) or any(s.kind != "param" for s in ir.symbols(bound)):
            continue        # `threadIdx.x < 8`: no size of the kernel's, a bound of the block
        apart = False
        for v in (1000, 1024, 4096):
            try:
                env = {n: v for n in names}
                gap = int(Evaluator(env).value(bound)) - int(Evaluator(env).value(ex.extent_expr))
            except (Unknown, ValueError, TypeError, ArithmeticError):
                apart = False
                break
            apart = apart or abs(gap) > 1
        if apart:
            return True
    return False


def _call(x) -> bool:
    """The value of a call cudalint does not follow (`check(i)`, a lambda's): it may read the thread."""
    return x.kind == "data" and x.name.endswith(")")


def check(ctx: Context):
    sim = ctx.sim
    me = sys.modules[__name__]
    for acc in ctx.accesses():
        if acc.space != "global" or acc.unresolved:
            continue
        res = sim.result(acc)
        ex = res.excess
        if ex is None:
            if res.multiple is not None:
                yield from _multiple(ctx, me, acc, res.multiple)
            continue
        if res.allocation is not None and ex.index < res.allocation[0]:
            # the threads past the size stay inside what the host allocated (`i <= n` over n + 1
            # elements): the size the grid was rounded from is not the array's extent
            continue
        a = ex.axis
        opened = open_sizes(sim, ex)
        if opened is None:
            continue        # no condition to state, and this trial's figures are cudalint's own
        if (opened or sim.block_chosen) and data_guarded(acc, ex):
            continue
        if res.allocation is None and size_guarded(acc, ex):
            continue        # the kernel's own tail guard, by a size the grid does not count to
        facts: dict = {"text": short(written(acc)), "extent_text": ex.extent_text}
        if ex.derived:
            facts["derived"] = True
        if opened or sim.block_chosen:
            # a size given nowhere: no figure of this trial's size is the program's; the finding is the
            # condition under which the grid's rounding makes threads past the size, which nothing in
            # the program rules out (no guard, no host check)
            cond = condition(sim, ex)
            # past the size for every size: as sure as a figure the program gives
            d = ctx.diagnostic(me, acc, "", metrics={"condition": cond, "guard": guard(acc, ex, sim.table), "open": opened},
                               assumptions=ctx.assumptions_for(acc), facts=facts,
                               severity="error" if cond == "always" else "warning")
        else:
            facts["point"] = fmt_thread(ex.coordinate, {f"blockIdx.{a}", f"threadIdx.{ex.thread_axis or a}"})
            d = ctx.diagnostic(me, acc, "", metrics={"extent": ex.extent, "threads": ex.covered, "index": ex.index,
                                                     "guard": guard(acc, ex, sim.table)},
                               assumptions=ctx.assumptions_for(acc), facts=facts)
        d.message = message(d)
        yield d


def _multiple(ctx: Context, me, acc, ex):
    """An access no guard bounds under a grid that rounds a size up (`ceil_div(B * T * C, 256)`),
    with the program's sizes a multiple of the block: no thread passes the size at any value the
    program runs, so no warning; the info says what keeps it inside. Only where every size of the
    rounding is the program's own: a size it leaves open is the conditional warning's."""
    sim = ctx.sim
    if sim.block_chosen or any(x.kind == "param" and x.name in sim.family.sizes for x in ir.symbols(ex.extent_expr)):
        return
    k = "xyz".index(ex.thread_axis or ex.axis)
    facts = {"text": short(written(acc)), "extent_text": ex.extent_text}
    d = ctx.diagnostic(me, acc, "", metrics={"extent": ex.extent, "multiple_of": sim.block[k],
                                                     "guard": guard(acc, ex, sim.table)},
                       assumptions=ctx.assumptions_for(acc), severity="info", facts=facts)
    d.message = message(d)
    yield d
