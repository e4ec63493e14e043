"""Shared-memory bank wavefronts of a warp request, from the simulated lane addresses.

Model: 32 banks of 4-byte words; a word's bank is `word % 32`; a wavefront delivers one word from
each bank (128 bytes), and lanes reading the same word share it (broadcast).

- Up to 4 bytes per lane: one phase of 32 lanes, costing the most distinct words one bank serves.
- 8 bytes per lane: phases of 16 lanes (half-warps); 16 bytes: phases of 8 lanes (quarter-warps),
  each costing the most distinct words one bank serves. A store costs the sum over its phases,
  ideal one per phase. A load serves two neighbouring phases in one wavefront when together they
  fit it (no bank asked for two words, at most 128 bytes of distinct addresses per phase), and its
  ideal is the data the pair delivers, in 128-byte wavefronts.

This vector model is measured, not documented: ncu on an H100 reports exactly these wavefronts
(and `bank_conflicts` = wavefronts - ideal) for 18 lane patterns of LDS.128/LDS.64 and of
STS.128/STS.64 (bench/bank_patterns.py). For example 16 lanes loading one address cost 1
wavefront, two groups of 8 lanes loading the same 128 bytes cost 2, and every STS.128 costs 4.

A thread's accesses that nvcc merges into one wider request (model/vector.py) are counted as that
request, at the first access's addresses; the other accesses of the merge make no request of their
own.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index import ir
from ..index.evaluate import value_span
from ..index.terms import Term
from ..model.table import Access
from ..model.vector import MAX_REQUEST
from .simulate import SPAN_LIMIT, WARP, LaneAddresses, Simulation

BANKS = 32
WORD = 4
# odd 64-bit multipliers that key a request's row (np.random.default_rng(0).integers(1, 1 << 62,
# size=32) | 1, written out: importing numpy.random costs every run 9 ms)
_ROW_KEY = np.array([
    2937467307694268569, 1244171615822312905, 188957027462249007, 76220265684581385,
    3750546991322993743, 4209342133973288723, 2797613725383355553, 3364209090780767889,
    2507027772408799217, 4312260422999060475, 3762460428626562515, 12629102946133037,
    3954079314478742909, 154886128057050441, 3364941820570367199, 810068569591007723,
    3980710167602192323, 2497049138943368779, 1382177135147697295, 1949300748165166525,
    130601431467993283, 573155448557384347, 3092709236858665707, 2984634821799819439,
    2837962914566478221, 1769400412573943449, 4598819118315978055, 4523304618213830991,
    3161504384874585163, 2999713949920686479, 3174900161806051695, 1793583493231303277,
], dtype=np.int64)


def phases_of(width: int) -> int:
    return {8: 2, 16: 4}.get(width, 1)


@dataclass
class Wavefronts:
    """Per request (one row per warp request): wavefronts, ideal wavefronts, and the n-way
    figure (most distinct words one bank serves in one phase)."""
    wavefronts: np.ndarray
    ideal: np.ndarray
    ways: np.ndarray
    ways_per_phase: np.ndarray | None = None


_BIG = np.iinfo(np.int64).max
# (width, kind, shape's bytes) -> (wavefronts, ideal, ways): the accesses of a run ask a few hundred
# distinct shapes (a row of consecutive words, a tile's column) thousands of times
_SHAPES: dict[tuple[int, str, bytes], tuple[int, int, int]] = {}
_MAX_SHAPES = 1 << 14


def count_wavefronts(addr: np.ndarray, mask: np.ndarray, width: int, kind: str = "load") -> Wavefronts:
    """`addr`, `mask`: (requests, 32) byte addresses and active lanes of warp requests.

    Shifting every lane of a request by whole words rotates the banks and changes no count, so
    requests are counted once per distinct shape (loop iterations mostly repeat one shape), and
    a shape counted before is not counted again."""
    if not len(addr):
        return Wavefronts(*(np.zeros(0, dtype=np.int64),) * 3)
    if addr.dtype == np.int64 and mask.all():       # every lane active (two calls in three): nothing to mask
        shape = addr - addr.min(axis=1, keepdims=True) // WORD * WORD
    else:
        base = np.where(mask, addr, _BIG).min(axis=1, keepdims=True) // WORD * WORD
        shape = np.where(mask, addr - base, -1)
    n = len(shape)
    if n == 1 or (shape[1:] == shape[0]).all():
        # every request one shape (two in three calls: the iterations of a loop that does not move
        # the pattern): one look-up, no sort
        w, i, ways = _shape_counts(shape[:1], width, kind)[0]
        return Wavefronts(np.full(n, w, dtype=np.int64), np.full(n, i, dtype=np.int64),
                          np.full(n, ways, dtype=np.int64))
    # one 64-bit key per row (wrapping arithmetic), checked against the rows it stands for
    key = shape @ _ROW_KEY[: shape.shape[1]]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    uniq = shape[first]
    if not np.array_equal(uniq[inverse], shape):
        return _count(addr, mask, width, kind)
    counts = np.array(_shape_counts(uniq, width, kind), dtype=np.int64)[inverse]
    return Wavefronts(counts[:, 0], counts[:, 1], counts[:, 2])


def _shape_counts(uniq: np.ndarray, width: int, kind: str) -> list[tuple[int, int, int]]:
    """(wavefronts, ideal, ways) of each request shape (byte offsets from the first word, -1 for an
    inactive lane), from the shapes counted before where it is there."""
    keys = [(width, kind, row.tobytes()) for row in uniq]
    got = [_SHAPES.get(k) for k in keys]
    new = [i for i, g in enumerate(got) if g is None]
    if new:
        rows = uniq[new]
        wf = _count(np.maximum(rows, 0), rows >= 0, width, kind)
        if len(_SHAPES) + len(new) > _MAX_SHAPES:
            _SHAPES.clear()
        for j, i in enumerate(new):
            got[i] = _SHAPES[keys[i]] = (int(wf.wavefronts[j]), int(wf.ideal[j]), int(wf.ways[j]))
    return got


def _count(addr: np.ndarray, mask: np.ndarray, width: int, kind: str = "load") -> Wavefronts:
    if width not in (8, 16):
        return _count_words(addr, mask, width)
    r = addr.shape[0]
    lanes = WORD * BANKS // width            # lanes whose data fills one wavefront: 16 (8 B), 8 (16 B)
    phases = WARP // lanes
    per = _count_words(addr, mask, width, phases).ways_per_phase                  # (r, phases)
    if kind != "load":
        return Wavefronts(per.sum(axis=1), (per > 0).sum(axis=1), per.max(axis=1))
    sentinel = np.iinfo(np.int64).max
    a = np.sort(np.where(mask, addr, sentinel).reshape(r, phases, lanes), axis=2)
    first = np.ones(a.shape, dtype=bool)
    first[:, :, 1:] = a[:, :, 1:] != a[:, :, :-1]
    data = (first & (a != sentinel)).sum(axis=2) * width                           # bytes per phase
    pairs = phases // 2
    data = data.reshape(r, pairs, 2).sum(axis=2)
    both = per.reshape(r, pairs, 2)
    union = _count_words(addr, mask, width, pairs).ways_per_phase                 # (r, pairs)
    # two phases share one wavefront when together they fit it: no bank twice, at most 128 bytes
    shared = (both.max(axis=2) <= 1) & (union <= 1) & (data <= WORD * BANKS)
    cost = np.where(shared, union, both.sum(axis=2))
    ideal = -(-data // (WORD * BANKS))
    ways = np.where(ideal > 0, -(-cost // np.maximum(ideal, 1)), 0)
    return Wavefronts(cost.sum(axis=1), ideal.sum(axis=1), ways.max(axis=1))


def _count_words(addr: np.ndarray, mask: np.ndarray, width: int, phases: int = 1):
    """Most distinct words one bank serves in each phase (lanes split into `phases` equal groups)."""
    r = addr.shape[0]
    lanes = WARP // phases
    words_per_lane = max(1, -(-width // WORD))
    first = addr // WORD
    words = first[:, :, None] + np.arange(words_per_lane)[None, None, :]          # (r, 32, w)
    live = np.broadcast_to(mask[:, :, None], words.shape)
    words = words.reshape(r, phases, lanes * words_per_lane)
    live = live.reshape(r, phases, lanes * words_per_lane)
    sentinel = np.iinfo(np.int64).max
    w = np.sort(np.where(live, words, sentinel), axis=2)
    distinct = np.ones(w.shape, dtype=bool)
    distinct[:, :, 1:] = w[:, :, 1:] != w[:, :, :-1]
    distinct &= w != sentinel
    # distinct words per (request, phase, bank), counted in one bincount
    key = np.arange(r * phases).reshape(r, phases, 1) * BANKS + np.where(distinct, w % BANKS, 0)
    counts = np.bincount(key.ravel(), weights=distinct.ravel(), minlength=r * phases * BANKS)
    per_phase = counts.reshape(r, phases, BANKS).max(axis=2).astype(np.int64)      # (r, phases)
    wf = Wavefronts(per_phase.sum(axis=1), (per_phase > 0).sum(axis=1), per_phase.max(axis=1))
    wf.ways_per_phase = per_phase
    return wf


def _warps(a: np.ndarray) -> np.ndarray:
    """(instances, threads) as (warps, 32): a block's last warp padded with zeros (inactive lanes)."""
    pad = (-a.shape[1]) % WARP
    if pad:
        a = np.pad(a, ((0, 0), (0, pad)))
    return a.reshape(-1, WARP)


def warp_requests(addr: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split (instances, threads) into warp requests with at least one active lane; also return
    the instance row each request came from."""
    n, t = addr.shape
    mask = _warps(mask)
    rows = np.repeat(np.arange(n), -(-t // WARP))
    live = mask.any(axis=1)
    if live.all():      # most accesses: every warp of every instance makes its request
        return _warps(addr), mask, rows
    return _warps(addr)[live], mask[live], rows[live]


@dataclass
class BankConflict:
    ways: int                          # worst n-way over the simulated requests
    least_ways: int                    # smallest worst-per-instance figure among conflicting instances
    wavefronts_per_request: float      # mean over the simulated requests
    ideal_wavefronts: float
    requests: int
    phases: int
    worst: dict[str, int]              # loop trip counters of an instance with the worst request
    term: Term | None                  # the index term that alone gives the worst figure
    term_ways: int = 0
    padding: tuple[int, int] | None = None   # (elements added to the inner dimension, ways then)
    merge: object | None = None        # the vector.Merge the request stands for
    maybe: object | None = None        # a vector.Merge nvcc may make (an outer loop it unrolls by itself)
    maybe_ways: int = 0                # the worst n-way under that merge (< 2: the conflict is uncertain)


def request_width(sim: Simulation, acc: Access) -> int | None:
    """Bytes per lane of the request the access is served in; None where another access of its
    merge makes the request."""
    merge = sim.table.merges.get(acc)
    if merge is None:
        return piece_width(sim.table, acc)
    return merge.width if merge.head is acc else None


def piece_width(table, acc: Access) -> int:
    """A struct copied whole (`s[i] = g[j]` of a 24-byte struct) moves in requests no wider than
    16 bytes nor than its alignment allows: each such piece has the lanes' pattern of the first."""
    width = acc.width
    if width <= MAX_REQUEST and width & (width - 1) == 0:
        return width
    # the alignment of what moves: a view's own type (`*(ulonglong4*)&s[i]`, 16), else the element's
    align = table.types.align(acc.view or acc.array.elem_type) if table.types is not None else None
    piece = MAX_REQUEST
    while piece > 1 and (width % piece or (align is not None and align % piece)):
        piece //= 2
    return piece


_SURE = object()


def _requests(sim: Simulation, acc: Access, merge=_SURE):
    """The warp requests of an access: addresses, active lanes, instance rows and the lane
    addresses; the iterations a merge serves together are represented by their first."""
    lanes = sim.lane_addresses(acc, "banks")
    addr, mask = lanes.addr, sim.whole_warps(acc, "banks", lanes.mask)
    if merge is _SURE:
        merge = sim.table.merges.get(acc)
    if merge is not None:
        mask = merge.keep_first(mask, lanes.env)
    reqs, m, rows = warp_requests(addr, mask)
    return reqs, m, rows, LaneAddresses(addr, mask, lanes.width, lanes.env)


def _conflict_free(sim: Simulation, acc: Access, width: int) -> bool:
    """Whether every warp request of a 4-byte access of 4-byte elements (not merged into a wider
    one) is served in one wavefront, from its index's steps along the threadIdx axes
    (Simulation.thread_steps: the rest of the index names no thread): every warp's words are one
    pattern moved by a whole number of words (a warp is 32 neighbouring threadIdx.x, or whole rows
    of them, in one z plane), and that pattern asks no bank for two words. Its value over the
    range instances, which hold every iteration the requests are counted at, cannot fail to be
    computed (value_span)."""
    bx, by, _ = sim.block
    if bx % WARP == 0:
        lanes = [(lane, 0) for lane in range(WARP)]
    elif WARP % bx == 0 and (bx * by) % WARP == 0:      # whole rows, none wrapping past the block's
        lanes = [(lane % bx, lane // bx) for lane in range(WARP)]
    else:
        return False
    if width != WORD or acc.array.elem_size != WORD or sim.table.merges.get(acc) is not None:
        return False
    if value_span(acc.index, sim.range_env(acc), sim.extremes, SPAN_LIMIT) is None:
        return False
    steps = sim.thread_steps(acc)
    if steps is None:
        return False
    sx, sy = steps.get("threadIdx.x", 0), steps.get("threadIdx.y", 0)
    words = {sx * x + sy * y for x, y in lanes}
    return len({w % BANKS for w in words}) == len(words)


def bank_conflict(sim: Simulation, acc: Access, at_least: int = 0, details: bool = True) -> BankConflict | None:
    """The bank conflict of a shared access; None where it makes no request of its own, or where its
    worst request is under `at_least` ways (nothing past the count is worked out then). Without
    `details`, only the ways are: the instances, term, padding and merge a message names are not."""
    width = request_width(sim, acc)
    if width is None or (at_least > 1 and _conflict_free(sim, acc, width)):
        return None
    addr, mask, rows, lanes = _requests(sim, acc)
    if not len(addr):
        return None
    wf = count_wavefronts(addr, mask, width, acc.kind)
    if at_least > 1 and int(wf.ways.max()) < at_least:
        return None
    if not details:
        ways = int(wf.ways.max())
        return BankConflict(ways, ways, 0.0, 0.0, int(len(addr)), phases_of(width), {}, None)
    n_rows = lanes.addr.shape[0]
    per_row = np.zeros(n_rows, dtype=np.int64)
    np.maximum.at(per_row, rows, wf.ways)
    worst_row = int(np.argmax(per_row))
    worst = {it.trip.name: int(np.asarray(lanes.env[it.trip.name]).reshape(-1)[worst_row]) for it in acc.loops}
    conflicting = per_row[per_row >= 2]
    ways = int(wf.ways.max())
    term, term_ways = _responsible_term(sim, acc, ways, width)
    return BankConflict(ways, int(conflicting.min()) if conflicting.size else 1,
                        float(wf.wavefronts.mean()), float(wf.ideal.mean()), int(len(addr)),
                        phases_of(width), worst, term, term_ways,
                        _padding(sim, acc, width) if ways >= 2 else None, sim.table.merges.get(acc),
                        *(_maybe(sim, acc) if ways >= 2 else (None, 0)))


def _maybe(sim: Simulation, acc: Access):
    """The merge nvcc may make (an outer loop it unrolls on its own) and the worst n-way under it."""
    merge = sim.table.possible_merges.get(acc)
    if merge is None:
        return None, 0
    addr, mask, _, _ = _requests(sim, acc, merge=merge)
    if not len(addr):
        return None, 0
    return merge, int(count_wavefronts(addr, mask, merge.width, acc.kind).ways.max())


def _padding(sim: Simulation, acc: Access, width: int) -> tuple[int, int] | None:
    """The smallest padding of a tile's inner dimension (in elements, up to one bank row) that makes
    this access conflict-free, or failing that the one with the fewest ways."""
    dims = acc.array.dims
    if len(dims) < 2 or not all(dims) or len(acc.dims) != len(dims) or acc.width != acc.array.elem_size:
        return None
    env, _, mask, vals, _ = sim._values(acc, "banks", acc.dims)
    merge = sim.table.merges.get(acc)
    if merge is not None:
        mask = merge.keep_first(mask, env)
    idx = [np.asarray(v, dtype=np.int64) for v in vals]
    best = None
    for pad in range(1, BANKS + 1):
        extents = list(dims[:-1]) + [dims[-1] + pad]
        flat = idx[0]
        for k in range(1, len(idx)):
            flat = flat * extents[k] + idx[k]
        addr, m, _ = warp_requests(acc.byte_address(flat), mask)
        if not len(addr):
            return None
        w = int(count_wavefronts(addr, m, width, acc.kind).ways.max())
        if best is None or w < best[1]:
            best = (pad, w)
        if w == 1:
            break
    return best


def _responsible_term(sim: Simulation, acc: Access, ways: int, width: int) -> tuple[Term | None, int]:
    """The thread-dependent index term whose lanes alone conflict the most (ties: the earlier term).
    The terms' lanes are evaluated together, over the same instances and warp requests, and their
    requests counted in one pass."""
    if ways < 2:
        return None, 0
    best, best_ways = None, 1
    terms = [t for t in acc.terms if any(s.kind == "thread" for s in ir.symbols(t.coord))]
    if not terms:
        return best, best_ways
    env, _, mask, vals, _ = sim._values(acc, "banks", [ir.mul(t.coord, t.stride) for t in terms])
    merge = sim.table.merges.get(acc)
    if merge is not None:
        mask = merge.keep_first(mask, env)
    mask = _warps(mask)
    live = mask.any(axis=1)
    if not live.any():
        return best, best_ways
    addr = np.concatenate([_warps(acc.byte_address(v))[live] for v in vals])
    ways_of = count_wavefronts(addr, np.tile(mask[live], (len(terms), 1)), width, acc.kind).ways
    for term, w in zip(terms, ways_of.reshape(len(terms), -1).max(axis=1)):
        if w > best_ways:
            best, best_ways = term, int(w)
    return best, best_ways


@dataclass
class BankPicture:
    """The worst simulated warp request of an access, lane by lane, for explain mode."""
    lanes: list[tuple[int, int, int, int]]    # (lane, linear thread id, first word, bank) of active lanes
    phases: int
    wavefronts: int
    ways: int


def bank_picture(sim: Simulation, acc: Access) -> BankPicture | None:
    width = request_width(sim, acc) or acc.width
    addr, mask, rows, lanes = _requests(sim, acc)
    n, t = lanes.addr.shape
    if not len(addr):
        return None
    wf = count_wavefronts(addr, mask, width, acc.kind)
    i = int(np.argmax(wf.wavefronts))
    # the request's first thread: its position among the live warps of its instance row
    per_row = -(-t // WARP)
    live = np.nonzero(np.pad(lanes.mask, ((0, 0), (0, per_row * WARP - t))).reshape(-1, WARP).any(axis=1))[0]
    base = int(live[i] % per_row) * WARP
    out = [(lane, base + lane, int(addr[i, lane] // WORD), int(addr[i, lane] // WORD % BANKS))
           for lane in range(WARP) if mask[i, lane]]
    return BankPicture(out, phases_of(width), int(wf.wavefronts[i]), int(wf.ways[i]))
