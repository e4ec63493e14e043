"""The shared-memory requests nvcc merges: one thread's accesses of consecutive elements served as
one 8- or 16-byte load or store (LDS.64/LDS.128, STS.64/STS.128).

The compiler merges them only where it proves at compile time that the first address is aligned
to the merged width. Two shapes are common in real kernels:

- the iterations `i, i + 1, ...` of a loop with a constant count that it unrolls fully, over
  `s[base + i]` (a register-tiled GEMM reading its `TM` values of a row);
- accesses written side by side at `base`, `base + 1`, ... (`s[2 * t]` and `s[2 * t + 1]`).

nvcc unrolls an innermost loop of constant count by itself, and any loop under `#pragma unroll`.
An outer loop without the pragma is often unrolled too (by 4 or 8, when its body is small) and its
iterations merged, but not always: such a merge is only possible (`possible_merges`); the bank
count is made without it and the finding says what it would change.

`base` counts as aligned only from its own arithmetic: constants and the factors they multiply.
A size the program passes at run time (a kernel argument) proves nothing, whatever value cudalint
tries for it, and a `volatile` access is never merged. The bank model counts the merged request
the hardware serves: 8 bytes per lane in 2 phases, 16 bytes in 4.
"""
from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, Unknown
from ..index.terms import Term
from .host import substitute
from .table import Access, Iterator, TwoTreeTable

MAX_REQUEST = 16          # bytes per lane of the widest shared-memory request
MAX_UNROLLED = 64         # iterations nvcc unrolls fully without being asked
_BIG = 1 << 20


@dataclass(frozen=True, eq=False)
class Merge:
    """Accesses served as one request of `width` bytes per lane, first address from `head`."""
    width: int
    count: int                         # elements merged
    head: Access
    members: tuple[Access, ...]        # the accesses merged (the head alone for a loop)
    loop: Iterator | None = None       # the unrolled loop whose iterations are merged

    def describe(self) -> str:
        """`nvcc merges 4 iterations of `i` into 16-byte loads`."""
        what = f"{self.count} iterations of `{self.loop.var}`" if self.loop is not None else \
            " and ".join(f"`{m.text}`" for m in self.members)
        return f"nvcc merges {what} into {self.width}-byte {'loads' if self.head.kind == 'load' else 'stores'}"

    def keep_first(self, mask: np.ndarray, env: dict) -> np.ndarray:
        """The lanes of the instances that make the merged requests: of a merged loop, the first
        of each group of `count` iterations (the others are served by it)."""
        if self.loop is None or self.loop.trip.name not in env:
            return mask
        trips = np.asarray(env[self.loop.trip.name]).reshape(-1, 1)
        return mask & (trips % self.count == 0)


def alignment(e: ir.Expr) -> int:
    """The largest power of two (up to 2^20) that divides `e` for every value of its symbols, from
    its arithmetic alone: a symbol is only known to be a multiple of 1."""
    match e:
        case ir.Num(value=v) if isinstance(v, int):
            return _BIG if v == 0 else min(_BIG, v & -v)
        case ir.Bin(op="+" | "-", left=a, right=b):
            return min(alignment(a), alignment(b))
        case ir.Bin(op="*", left=a, right=b):
            return min(_BIG, alignment(a) * alignment(b))
        case ir.Bin(op="<<", left=a, right=ir.Num(value=n)) if isinstance(n, int) and 0 <= n < 32:
            return min(_BIG, alignment(a) << n)
        case ir.Bin(op="&", left=a, right=b):
            return max(alignment(a), alignment(b))
        case ir.Un(op="-", operand=a) | ir.Cast(expr=a):
            return alignment(a)
        case ir.Cond(then=a, other=b):
            return min(alignment(a), alignment(b))
    return 1


def _term_alignment(t: Term) -> int:
    return alignment(t.stride) if t.is_offset else min(_BIG, alignment(t.coord) * alignment(t.stride))


def _mergeable(acc: Access, views: bool = False) -> bool:
    """A shared access nvcc may serve with its neighbours; `views`: also one through a cast of
    another element type (`((unsigned*)smem)[t * 8 + k]` of an `extern __shared__ char smem[]`),
    whose neighbours are `width / elem_size` elements apart."""
    return (acc.space == "shared" and not acc.unresolved and not acc.atomic and not acc.volatile
            and (acc.width == acc.array.elem_size or
                 views and acc.view != "" and acc.width > acc.array.elem_size and acc.width % acc.array.elem_size == 0)
            and acc.width in (2, 4, 8))


_UNSET = object()


def _trip_count(it: Iterator) -> int | None:
    """The loop's iteration count when it is a compile-time constant nvcc unrolls fully."""
    if it.cond is None or it.has_barrier or not ir.free_syms(it.cond) <= {it.trip}:
        return None
    try:
        holds = Evaluator({it.trip.name: np.arange(MAX_UNROLLED + 1, dtype=np.int64)}).value(it.cond)
    except (Unknown, ArithmeticError, ValueError, TypeError):
        return None
    holds = np.broadcast_to(np.asarray(holds, dtype=bool), (MAX_UNROLLED + 1,))
    if holds.all():
        return None
    return int(np.argmin(holds))


def _widest(count: int, elem: int, align: int) -> int:
    """Elements per merged request: the largest power of two that fits 16 bytes, divides the
    count and divides the alignment of the first element."""
    k = MAX_REQUEST // elem
    while k > 1 and (count % k or align % k):
        k //= 2
    return k


def _loop_merge(table: TwoTreeTable, acc: Access, unrolled=None, trips: dict | None = None) -> Merge | None:
    """Iterations of an unrolled loop at consecutive elements. nvcc unrolls an innermost loop of
    constant count by itself (unless `#pragma unroll 1`); an outer loop, and every loop between
    it and the access, only under `#pragma unroll`."""
    terms = acc.terms
    last = len(acc.loops) - 1
    counts: list[int | None] = []          # trip counts from the loop at `depth` inward
    for depth in range(last, -1, -1):
        it = acc.loops[depth]
        if trips is None:
            count = _trip_count(it)
        else:                  # each loop's count worked out once, not again for each access in it
            count = trips.get(id(it), _UNSET)
            if count is _UNSET:
                count = trips[id(it)] = _trip_count(it)
        counts.insert(0, count)
        if not counts[0] or not (unrolled or _unrolled)(it, counts[0], depth == last):
            return None
        own = [t for t in terms if it.trip in ir.free_syms(t.coord) or it.trip in ir.free_syms(t.stride)]
        if len(own) != 1 or own[0].coord != it.trip or own[0].stride != ir.Num(1):
            continue
        if counts[0] < 2 or not _straight_body(table, acc, depth):
            return None
        align = min((_term_alignment(t) for t in terms if t is not own[0]), default=_BIG)
        k = _widest(counts[0] if not it.unroll else min(counts[0], it.unroll), acc.width, align)
        return Merge(k * acc.width, k, acc, (acc,), it) if k > 1 else None
    return None


def _unrolled(it: Iterator, count: int, innermost: bool) -> bool:
    """Surely unrolled far enough to merge neighbouring iterations."""
    if it.unroll is None:
        return innermost
    return it.unroll == 0 or it.unroll >= count or (it.unroll > 1 and innermost)


def _maybe_unrolled(it: Iterator, count: int, innermost: bool) -> bool:
    return it.unroll != 1


def _straight_body(table: TwoTreeTable, acc: Access, depth: int) -> bool:
    """The loop at `depth` unrolls into one straight run of this access: no condition inside it
    but the tests of the loops it holds, no barrier, and no access of the array the other way
    (a load between two stores keeps them apart)."""
    it = acc.loops[depth]
    tests = [x.cond for x in acc.loops[depth:]]
    if it.cond not in acc.guards or any(g not in tests for g in acc.guards[acc.guards.index(it.cond):]):
        return False
    if any(x.has_barrier for x in acc.loops[depth:]):
        return False
    return not any(it.seq_start <= b.seq <= it.seq_end and b.array is acc.array and b.kind != acc.kind
                   for b in table.accesses)


def _split(acc: Access) -> tuple[tuple, int] | None:
    """The index as (its non-constant terms, its constant offset)."""
    offset = 0
    rest = []
    for t in acc.terms:
        if t.is_offset:
            if not isinstance(t.stride, ir.Num) or not isinstance(t.stride.value, int):
                return None
            offset += t.stride.value
        else:
            rest.append((t.coord, t.stride))
    return tuple(sorted(rest, key=repr)), offset


def _sibling_merges(table: TwoTreeTable, out: dict) -> None:
    """Accesses of one array side by side in the code (same loops, guards and kind, no barrier or
    opposite access of the array between them, see _side_by_side) at offsets base, base + 1, ...:
    nvcc merges them where `base` is aligned to the merged width."""
    groups: dict[tuple, list[tuple[int, Access]]] = {}
    for acc in table.accesses:
        if acc in out or not _mergeable(acc, views=True):
            continue
        split = _split(acc)
        if split is None:
            continue
        key = (acc.array.name, acc.kind, acc.width, tuple(id(it) for it in acc.loops), acc.guards, split[0])
        groups.setdefault(key, []).append((split[1], acc))
    for (_, _, width, _, _, rest), members in groups.items():
        if len(members) < 2:
            continue
        elem = members[0][1].array.elem_size
        step = width // elem            # elements between neighbours: 1, or a view's width in elements
        align = min((_term_alignment(Term(c, s)) for c, s in rest), default=_BIG)
        at = {}
        for off, acc in members:
            at.setdefault(off, acc)
        for off in sorted(at):
            if at[off] in out:
                continue
            k = MAX_REQUEST // width
            while k > 1:
                base = off
                run = [at.get(off + j * step) for j in range(k)]
                if k == 4 and width == elem == 4 and members[0][1].kind == "load":
                    # loads of three of the four words of an aligned 16-byte group (`w[t]`, `w[t + 1]`,
                    # `w[t + 2]` with t a multiple of 4; any three): one 16-byte request, the fourth
                    # word read unused (LDS.128 in the SASS for sm_80 and sm_90, CUDA 13), as a load of
                    # x, y, z of a float4; two of four stay two loads. The request is counted at the
                    # first load's addresses: a whole warp's shift by a word changes no bank count
                    base = next((off - r for r in range(4) if (r == 0 or off - r not in at)
                                 and min(align, alignment(ir.Num(off - r))) * elem % 16 == 0), off)
                    group = [at.get(base + j) for j in range(4)]
                    if group.count(None) == 1 and next(a for a in group if a is not None) is at[off]:
                        run = [a for a in group if a is not None]
                    else:
                        base = off
                if (min(align, alignment(ir.Num(base))) * elem % (k * width) == 0
                        and all(a is not None and a not in out for a in run)
                        and _side_by_side(table, run, crossing=members[0][1].array.extern)):
                    merge = Merge(k * width, len(run), run[0], tuple(run))
                    for a in run:
                        out[a] = merge
                    break
                k //= 2


def _side_by_side(table: TwoTreeTable, run: list[Access], crossing: bool = False) -> bool:
    """No barrier between the accesses of `run`, nor an access of their array the other way. With
    `crossing`, such an access is allowed where it is never one element with the members that
    cross it (`_apart`; a merged load is issued at the run's first load, a merged store at its
    last): `s[2 * t] += s[2 * (t + k)]; s[2 * t + 1] += s[2 * (t + k) + 1];` is LDS.64/STS.64 in
    the sm_90 SASS on an `extern __shared__` array and LDS/STS on a sized one, in a loop or not,
    with `int` or `unsigned` indexes (twelve variants measured)."""
    lo, hi = min(a.seq for a in run), max(a.seq for a in run)
    if any(lo < b.seq < hi for b in table.barriers):
        return False
    arr, kind = run[0].array, run[0].kind
    between = [a for a in table.accesses if lo < a.seq < hi and a.array is arr and a.kind != kind]
    if not between:
        return True
    if not crossing or any(b.atomic or b.width != run[0].width for b in between):
        return False
    return all(_apart(m.index, b.index) for m in run for b in between
               if (b.seq < m.seq if kind == "load" else b.seq > m.seq))


def merges(table: TwoTreeTable, trips: dict | None = None) -> dict[Access, Merge]:
    """Every shared access nvcc serves as part of a wider request, with that request (`trips`: the
    loops' trip counts found so far, by id)."""
    out: dict[Access, Merge] = {}
    for acc in table.accesses:
        if _mergeable(acc):
            m = _loop_merge(table, acc, None, trips)
            if m is not None:
                out[acc] = m
    _sibling_merges(table, out)
    _member_merges(table, out)
    return out


def _member_merges(table: TwoTreeTable, out: dict) -> None:
    """Loads of two or more members of one shared struct or vector element (`t[i].x`, `.y`, `.z` of
    a float4), in the same loops with no store of the array, atomic or barrier between them, under the
    guards of the first, or in its statement under those and more (`if (t[i].x != -1 && t[i].y > 0)`:
    a shared load of the element the first already read cannot fault, and nvcc loads it with the
    first): nvcc serves them
    as one load of the aligned part of the element that holds them (one LDS.128 for x, y, z; one
    LDS.64 for an int2's x and y). A request of the bank model only: each load keeps its own bytes
    for what other stages ask (a thread storing `.w` meanwhile is no race with them)."""
    groups: dict[tuple, list[Access]] = {}
    for acc in table.accesses:
        if acc in out or acc.space != "shared" or acc.kind != "load" or acc.unresolved or acc.volatile or \
                acc.atomic or acc.forwarded or acc.width >= acc.array.elem_size:
            continue
        groups.setdefault((id(acc.array), acc.index, tuple(map(id, acc.loops))), []).append(acc)
    for group in groups.values():
        for run in _runs(table, sorted(group, key=lambda m: m.seq)):
            for members in _under_the_first(run):
                _member_merge(table, members, out)


def _under_the_first(run: list[Access]) -> list[list[Access]]:
    """`run` (in program order) cut where a member is under other guards than the first of its
    part: the same ones, or, in the first's own statement, those and the tests before it there
    (`t[i].x != -1 && t[i].y > 0`). A member read under a test in a later statement is a load of its
    own (its siblings' values are kept in registers from the first read)."""
    parts: list[list[Access]] = []
    for m in run:
        head = parts[-1][0] if parts else None
        if head is not None and (m.guards == head.guards or
                                 (m.line, m.statement) == (head.line, head.statement) and
                                 m.guards[:len(head.guards)] == head.guards):
            parts[-1].append(m)
        else:
            parts.append([m])
    return parts


def _runs(table: TwoTreeTable, members: list[Access]) -> list[list[Access]]:
    """`members` (in program order) cut where a store of their array, a shared atomic or a barrier
    comes between two of them."""
    runs = [[members[0]]]
    for prev, m in zip(members, members[1:]):
        if not _side_by_side(table, [prev, m]) or \
                any(prev.seq < a.seq < m.seq and a.atomic and a.space == "shared" for a in table.accesses):
            runs.append([])
        runs[-1].append(m)
    return runs


def _member_merge(table: TwoTreeTable, members: list[Access], out: dict) -> None:
    if len({m.member_offset for m in members}) < 2:
        return
    head = min(members, key=lambda m: (m.member_offset, m.seq))
    align = table.types.align(head.array.elem_type) if table.types is not None else None
    covered = {b for m in members for b in range(m.member_offset, m.member_offset + m.width)}
    pieces = _pieces(covered, head.array.elem_size, min(align, MAX_REQUEST), True) if align is not None else []
    if not pieces:
        return
    width = pieces[0][1]
    merge = Merge(width, len(members), head, tuple(members))
    for m in members:
        out[m] = merge


def possible_merges(table: TwoTreeTable, sure: dict[Access, Merge], trips: dict | None = None
                    ) -> dict[Access, Merge]:
    """Merges nvcc may make or not: iterations of an outer loop it is not told to unroll."""
    out: dict[Access, Merge] = {}
    for acc in table.accesses:
        if acc not in sure and _mergeable(acc):
            m = _loop_merge(table, acc, _maybe_unrolled, trips)
            if m is not None:
                out[acc] = m
    return out


def element_merges(table: TwoTreeTable) -> None:
    """Loads (or stores) of the members of one struct or vector element that together make the
    whole element (`p[i].x` and `p[i].y` of a `float2`; `out[i].x = ...; out[i].y = ...; .z; .w` of
    a `uint4`), or loads of several members of an aligned part of it (`.x`, `.y`, `.z` of a float4),
    under the same guards and loops, the array not accessed the other way between them: nvcc serves
    them as one access where the element's alignment allows that width (the type's own, 8 for a
    float2, 16 for a uint4), so the model holds that one access."""
    groups: dict[tuple, list[Access]] = {}
    for acc in table.accesses:
        if acc.space != "global" or acc.unresolved or acc.volatile or acc.atomic:
            continue
        size = acc.array.elem_size
        if acc.width >= size or size > MAX_REQUEST or size & (size - 1):
            continue
        key = (id(acc.array), acc.kind, acc.index, acc.guards, tuple(map(id, acc.loops)))
        groups.setdefault(key, []).append(acc)
    drop: set[int] = set()
    for members in groups.values():
        first_acc = members[0]
        size = first_acc.array.elem_size
        align = table.types.align(first_acc.array.elem_type) if table.types is not None else None
        if align is None or len({m.member_offset for m in members}) < 2 and \
                sum(m.width for m in members) < size:
            continue
        lo, hi = min(m.seq for m in members), max(m.seq for m in members)
        if any(lo < b.seq < hi for b in table.barriers) or \
                any(lo < a.seq < hi and a.array is first_acc.array and a.kind != first_acc.kind and
                    not _other_bytes(a, first_acc, members) for a in table.accesses):
            continue
        covered = set()
        for m in members:
            covered.update(range(m.member_offset, m.member_offset + m.width))
        for first, width in _pieces(covered, size, min(align, MAX_REQUEST), first_acc.kind == "load"):
            part = [m for m in members if first <= m.member_offset and m.member_offset + m.width <= first + width]
            if len(part) < 2:
                continue
            head = min(part, key=lambda m: (m.member_offset, m.seq))
            if head.kind == "store":        # one store of what the members store: their values' axes
                axes = [m.value_axes for m in part]
                head.value_axes = None if any(a is None for a in axes) else frozenset().union(*axes)
                ins = [m.value_inputs for m in part]
                head.value_inputs = None if any(i is None for i in ins) else \
                    tuple(x for i in ins if i is not None for x in i)
                head.value_scope = min(m.value_scope for m in part)
                head.stored = None
            head.width, head.member_offset = width, first
            drop.update(id(m) for m in part if m is not head)
    if drop:
        table.accesses = [a for a in table.accesses if id(a) not in drop]


def _other_bytes(a: Access, like: Access, members: list[Access]) -> bool:
    """Access `a` of the other kind, between the loads (or stores) of members of one element, touches
    other bytes of that same element than the members it would be moved across (`v[i].x += s; v[i].y
    += s;`: the loads of x and y read ahead of the store of x, the store of x kept until after the
    load of y): nvcc makes the members one request all the same, the addresses differing by
    constants."""
    if a.atomic or a.index != like.index or a.guards != like.guards:
        return False
    lo, hi = a.member_offset, a.member_offset + a.width
    crossed = [m for m in members if (m.seq > a.seq if like.kind == "load" else m.seq < a.seq)]
    return all(m.member_offset + m.width <= lo or m.member_offset >= hi for m in crossed)


def _pieces(covered: set[int], size: int, align: int, load: bool) -> list[tuple[int, int]]:
    """The requests nvcc makes of the bytes of one element its members cover: (first byte, width).
    A load reads the aligned power-of-two part that holds them all, over the bytes between (x, y, z
    of a float4: 16 bytes); a store writes only its bytes, each run of them in the widest aligned
    pieces (x, y, z: 8 bytes, then 4)."""
    if not covered:
        return []
    if load:
        first, end = min(covered), max(covered) + 1
        width = 1
        while width < end - first:
            width *= 2
        if first % width or width > align or first + width > size:
            return []
        return [(first, width)]
    out, pos, end = [], 0, size
    while pos < end:
        if pos not in covered:
            pos += 1
            continue
        run_end = pos
        while run_end < end and run_end in covered:
            run_end += 1
        while pos < run_end:
            width = align
            while width > 1 and (pos % width or pos + width > run_end):
                width //= 2
            out.append((pos, width))
            pos += width
    return out


def forwarded_loads(table: TwoTreeTable) -> None:
    """Mark the loads that read what the same thread stored to those bytes before them, on every
    path to them (the store's guards are a prefix of the load's, in the same loop iteration), with
    no barrier, atomic or store that may reach them between: nvcc keeps the stored value in a
    register (`sl[0] = atomicAdd(cursor, n); if (sl[0] >= cap) ...` reads no memory in the PTX;
    `rec[i] = make_int2(s, n); if (rec[i].x >= cap)` neither). A store to another global array may
    alias the element (pointers), one to the same array at an index a constant apart does not.
    A shared load of bytes the thread loaded before, with no store of the array, atomic or barrier
    between, is marked too: the compiler reads the register again."""
    stored: dict[tuple, Access] = {}
    read: dict[tuple, Access] = {}      # shared loads, by (array, index, member offset, width)
    loaded: dict[int, list[Access]] = {}    # global loads no store, atomic or barrier may have changed, by array
    barriers = sorted(b.seq for b in table.barriers)

    def fenced(src: Access, a: Access) -> bool:
        i = bisect.bisect_right(barriers, src.seq)
        return i < len(barriers) and barriers[i] < a.seq

    for a in table.accesses:
        if a.space == "local":
            continue            # a register's store reaches no memory
        if a.atomic or a.unresolved or a.volatile:
            if a.kind == "store" or a.atomic:
                stored.clear()  # may reach any element
                read.clear()
                loaded.clear()
            continue
        key = (id(a.array), a.index)
        if a.kind == "store":
            for k, r in list(read.items()):
                if r.array is a.array and not _apart(a.index, r.index):
                    del read[k]
            if a.space == "global" and loaded:      # another pointer may point at what was loaded
                kept = [x for x in loaded.get(id(a.array), ()) if _apart(a.index, x.index)]
                loaded.clear()
                if kept:
                    loaded[id(a.array)] = kept
            for k, s in list(stored.items()):
                if s.array is a.array:
                    if k != key and not _apart(a.index, s.index):
                        del stored[k]
                elif s.space == "global" and a.space == "global":
                    del stored[k]       # another pointer: may point at the element
            held = stored.get(key)
            if held is not None and not (a.member_offset <= held.member_offset and
                                         held.member_offset + held.width <= a.member_offset + a.width):
                del stored[key]         # another part of the element: the earlier store's part kept?
                continue                # (not followed: neither is said to hold the bytes)
            stored[key] = a
            continue
        if a.space == "shared":
            # the same bytes loaded again, with nothing between that may change them for the
            # compiler (a store of the array, an atomic, a barrier): the register is read again
            at = (id(a.array), a.index, a.member_offset, a.width)
            first = read.get(at)
            if first is not None and _same_or_invariant(table, first, a) and _implied(first.guards, a.guards) \
                    and not fenced(first, a):
                a.forwarded = True
                continue
            if first is None or fenced(first, a):
                read[at] = a
        if a.space == "global":
            # the bytes this thread loaded before, each iteration's: the register is read again
            # (`if (p[d] < 0) ...` over d, then `acc += p[d]` over d: one load a field in the PTX)
            mine = loaded.setdefault(id(a.array), [])
            if any(_read_again(first, a, fenced) for first in mine):
                a.forwarded = True
                continue
            mine.append(a)
        src = stored.get(key)
        if src is None:
            if _stored_each_iteration(a, stored, fenced):
                a.forwarded = True
            continue
        if src.loops != a.loops and not _stored_by_unrolled_loop(src, a):
            continue
        if src.loops == a.loops and a.guards[:len(src.guards)] != src.guards:
            continue
        if not _covers(src, a):
            continue            # bytes the store did not write
        if fenced(src, a):
            continue            # a barrier between: another thread may have stored there
        a.forwarded = True


def _same_or_invariant(table: TwoTreeTable, first: Access, a: Access) -> bool:
    """`a` runs in the loops of `first`, or in loops inside them that nothing in changes the bytes
    `first` read: no store of the array, atomic, unfollowed store or barrier anywhere in their
    bodies (`x = s[k]; while (x == y) { x = t[s[k] + i]; ... }`: nvcc reads the register at every
    iteration, the load is hoisted out of the loop)."""
    n = len(first.loops)
    if a.loops == first.loops:
        return True
    if a.loops[:n] != first.loops:
        return False
    for it in a.loops[n:]:
        if any(it.seq_start <= b.seq <= it.seq_end for b in table.barriers):
            return False
        if any(it.seq_start <= x.seq <= it.seq_end and x.space != "local" and
               (x.atomic or x.kind == "store" and (x.array is a.array or x.unresolved)) for x in table.accesses):
            return False
    return True


def _implied(earlier: tuple, later: tuple) -> bool:
    """Every guard of an earlier access holds where the later one runs: each is one of the later's
    guards or a part of one (`t.x != -1` of `t.x != -1 && t.y > 0`, the test of the `if` whose body
    reads again what its condition read)."""
    held = set()
    stack = list(later)
    while stack:
        g = stack.pop()
        held.add(g)
        if isinstance(g, ir.Bin) and g.op == "&&":
            stack += [g.left, g.right]
    return all(g in held for g in earlier)


def _read_again(first: Access, a: Access, fenced) -> bool:
    """Load `a` reads, at every iteration of its loops that `first` is not in, bytes `first` read on
    every path to `a` (its guards, loop tests aside, a prefix of `a`'s), in loops nvcc unrolls."""
    if first.array is not a.array or first.member_offset != a.member_offset or first.width != a.width or \
            fenced(first, a):
        return False
    k = 0
    while k < min(len(first.loops), len(a.loops)) and first.loops[k] is a.loops[k]:
        k += 1
    mine, theirs = _instances(a, k), _instances(first, k)
    if mine is None or theirs is None:
        return False
    inner = {id(it.cond) for it in (*first.loops[k:], *a.loops[k:])}
    g_first = [g for g in first.guards if id(g) not in inner]
    g_mine = [g for g in a.guards if id(g) not in inner]
    if g_mine[:len(g_first)] != g_first:
        return False
    return all(any(_same(x, y) for y in theirs) for x in mine)


def _instances(acc: Access, k: int) -> list[ir.Expr] | None:
    """The access's index at each iteration of its loops from the k-th in, where they are loops of
    a constant count nvcc unrolls (at most 64 instances); None where one is not."""
    inner = acc.loops[k:]
    if not inner:
        return [acc.index]
    counts = [_trip_count(it) for it in inner]
    if any(c is None or c > 16 for c in counts) or math.prod(counts) > 64 or \
            not all(_unrolled(it, c, j == len(inner) - 1) for j, (it, c) in enumerate(zip(inner, counts))):
        return None
    return [substitute(acc.index, {it.trip: ir.Num(t) for it, t in zip(inner, trips)})
            for trips in itertools.product(*(range(c) for c in counts))]


def _covers(src: Access, a: Access) -> bool:
    return src.member_offset <= a.member_offset and a.member_offset + a.width <= src.member_offset + src.width


def _stored_by_unrolled_loop(src: Access, a: Access) -> bool:
    """A load after loops of a constant count nvcc unrolls (`for (i = 1; i < 4; i++) p[0] |= p[i];`
    then `out[t] = p[0]`, also under a test of its own) of the element their every iteration stores
    at one index that none of the loops moves, where every test the store runs under holds: the last
    iteration's value is in a register."""
    n = len(a.loops)
    inner = src.loops[n:]
    if not inner or src.loops[:n] != a.loops:
        return False
    tests = {it.cond for it in inner}
    if any(g not in tests and g not in a.guards for g in src.guards):
        return False        # a store the load's path may not have run (a test inside the loops skips it)
    trips = {it.trip for it in inner}
    if any(t in trips for t in ir.symbols(src.index)):
        return False
    counts = [_trip_count(it) for it in inner]
    return all(c is not None and 1 <= c <= 16 for c in counts) and \
        all(_unrolled(it, c, j == len(inner) - 1) for j, (it, c) in enumerate(zip(inner, counts)))


def _stored_each_iteration(a: Access, stored: dict, fenced) -> bool:
    """A load in loops of a constant count nvcc unrolls (`for (dd = 0; dd < 3; dd++) ... shift[dd]`)
    that reads, at every iteration, an element the same thread stored before the loops, on the path
    to them (`shift[0] = ...; shift[1] = ...; shift[2] = ...;`): each unrolled copy reads a register."""
    held = [s for s in stored.values() if s.array is a.array]
    if not held:
        return False
    outer = held[0].loops
    if len(a.loops) <= len(outer) or a.loops[:len(outer)] != outer:
        return False
    instances = _instances(a, len(outer))
    if instances is None:
        return False
    for at in instances:
        src = next((s for s in held if s.loops == outer and _same(s.index, at)), None)
        if src is None or a.guards[:len(src.guards)] != src.guards or not _covers(src, a) or fenced(src, a):
            return False
    return True


def _apart(x: ir.Expr, y: ir.Expr) -> bool:
    """Two indexes a nonzero constant apart (`2 * i + 1` and `2 * i`), or whose difference is a
    multiple of a power of two plus a constant it does not divide (`(i + s) * 4 + 1`, `i * 4`):
    never one element."""
    gap, step = _difference(x, y)
    # `(i + s) * 4 + 1` and `i * 4`: a multiple of 4 plus 1 is never 0
    return gap % step != 0 if step else gap != 0


def _same(x: ir.Expr, y: ir.Expr) -> bool:
    """Two indexes that are one element for every value (`3 * i + 2` and `3 * i + (0 + 2)`)."""
    return _difference(x, y) == (0, 0)


def _difference(x: ir.Expr, y: ir.Expr) -> tuple[int, int]:
    """`x - y` as (the constant part, the power of two the rest is a multiple of; 0 where no rest
    is left)."""
    counts: dict = {}
    for e, sign in ((x, 1), (y, -1)):
        stack = [(e, sign)]
        while stack:
            n, sg = stack.pop()
            if n.__class__ is ir.Bin and n.op in ("+", "-"):
                stack.append((n.left, sg))
                stack.append((n.right, sg if n.op == "+" else -sg))
            elif n.__class__ is ir.Un and n.op == "-":
                stack.append((n.operand, -sg))
            elif n.__class__ is ir.Cast and not n.type.pointers:
                stack.append((n.expr, sg))
            else:
                counts[n] = counts.get(n, 0) + sg
    gap, step = 0, 0        # the constant difference, and the power of two the rest is a multiple of
    for n, c in counts.items():
        if c == 0:
            continue
        if n.__class__ is not ir.Num or not isinstance(n.value, int):
            a = min(_BIG, alignment(n) * (abs(c) & -abs(c)))
            step = a if step == 0 else min(step, a)
            continue
        gap += c * n.value
    return gap, step
