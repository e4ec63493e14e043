"""Block barriers that some threads of a block never reach.

A barrier's guards (enclosing conditions, loop conditions, the negated conditions of early
exits before it) are evaluated for every thread of sampled blocks and iterations; the barrier
diverges when, in one block and iteration, some threads pass every guard and others do not.
Guards that read memory are not followed (taken as uniform).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index import ir
from ..model.table import Barrier, Exit, Iterator
from .races import BLOCK_UNIFORM, thread_dependent
from .simulate import Simulation, capped_product, guard_value

ALL_BLOCKS_LIMIT = 1 << 21     # thread-instances evaluated before falling back to sampled blocks


@dataclass
class Divergence:
    barrier: Barrier
    guard: ir.Expr                      # the first guard that splits the block
    exit: Exit | None                   # set when the guard comes from an early return/break/continue
    loop: Iterator | None               # set when the guard is the condition of a loop around the barrier
    reaches: dict[str, int]             # a thread that reaches the barrier
    misses: dict[str, int]              # a thread of the same block that does not
    trips: dict[str, str]               # where in the loops around it: `s=4` or `iteration 3 of ...`


def divergent_barriers(sim: Simulation) -> list[Divergence]:
    out = []
    for b in sim.table.barriers:
        if b.is_block and any(thread_dependent(g) for g in b.guards):
            d = _diverges(sim, b)
            if d is not None:
                out.append(d)
    return out


def unfollowed_guard(b: Barrier) -> tuple[ir.Expr, ir.Sym] | None:
    """A guard of a block barrier that reads memory or a value the model does not follow, and the
    symbol it depends on: such a barrier's divergence is not checked."""
    if not b.is_block:
        return None
    for g in b.guards:
        for s in ir.symbols(g):
            if s.kind in ("data", "unknown") and s.name not in BLOCK_UNIFORM:
                return g, s
    return None


def _diverges(sim: Simulation, b: Barrier, every_guard: bool = False) -> Divergence | None:
    """The first guard of `b` that splits a block. `every_guard`: each guard is evaluated and
    searched for a split, those that read no thread and those after the last that does too (a test
    compares)."""
    combos = capped_product([sim.loop_samples(it) for it in b.loops])
    # every block when that is cheap: a partial block can sit anywhere when the grid is not sized from n
    gx, gy, gz = sim.grid
    if gx * gy * gz * sim.nthreads * max(len(combos), 1) <= ALL_BLOCKS_LIMIT:
        # every block, x outermost; one is read back only for the message
        blk_cols = np.indices(sim.grid, dtype=np.int64).reshape(3, -1).T

        def block_at(j: int):
            return tuple(int(v) for v in blk_cols[j])
    else:
        blocks = sim._block_samples("range")
        blk_cols = np.array(blocks, dtype=np.int64).reshape(len(blocks), 3)
        block_at = blocks.__getitem__
    # a row per block and combination (blocks outer), built by whole columns: there can be two
    # million rows
    nb, nc = len(blk_cols), len(combos)
    env = sim._params_env(b.guards)
    env.update(sim._product_env(b.loops, blk_cols, combos))     # a loop counter hides a size of its name

    def row(i: int):
        return block_at(i // nc), combos[i % nc]
    shape = (nb * nc, sim.nthreads)
    reach = np.ones(shape, dtype=bool)
    exited = {id(e.guard) for e in b.exits if e.kind == "return"} if sim.table.arch >= 700 else set()
    # threads that returned count as arrived at a barrier (sm_70 and later); only a guard that reads
    # the thread splits a block, so the guards after the last such one are not evaluated
    guards = [g for g in b.guards if id(g) not in exited]
    splitting = [thread_dependent(g) for g in guards]
    if not every_guard:
        guards = guards[:len(splitting) - splitting[::-1].index(True)] if True in splitting else []
    for g, splits in zip(guards, splitting):
        v = guard_value(env, g, shape)
        if v is None:
            continue
        before = reach
        reach = reach & v
        if not splits and not every_guard:
            continue
        # rows where threads that got this far now split (some pass, some are stopped): this guard
        # is the cause
        split = reach.any(axis=1) & (before & ~reach).any(axis=1)
        if not split.any() or not splits:
            continue
        i = int(np.nonzero(split)[0][0])
        t_in = int(np.nonzero(reach[i])[0][0])
        t_out = int(np.nonzero(before[i] & ~reach[i])[0][0])
        blk, combo = row(i)
        pt = {f"blockIdx.{a}": blk[j] for j, a in enumerate("xyz")}
        coord = lambda t: {**pt, **{k: int(v[t]) for k, v in sim.tid.items()}}
        exit_ = next((e for e in b.exits if e.guard is g), None)
        loop = next((it for it in b.loops if it.cond is g), None)
        at = {}
        for k, it in enumerate(b.loops):
            v = sim._scalar(it.value, {**sim.base_env(), it.trip.name: combo[k], **{n: int(np.asarray(x).reshape(-1)[0])
                                                                 for n, x in env.items() if n.startswith("blockIdx")}})
            at[it.var] = f"{it.var}={v}" if v is not None else f"iteration {combo[k]} of the loop over `{it.var}`"
        return Divergence(b, g, exit_, loop, coord(t_in), coord(t_out), at)
    return None
