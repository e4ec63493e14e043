"""Shared-memory bank wavefronts of a warp request, from the simulated lane addresses.

Model: 32 banks of 4-byte words; a word's bank is `word % 32`. Lanes reading the same word are
served together (broadcast). A request of 4 bytes or less per lane is one phase of 32 lanes; the
hardware splits 8-byte requests into 2 phases of 16 lanes (half-warps) and 16-byte requests into
4 phases of 8 lanes (quarter-warps). A phase takes as many wavefronts as the most distinct words
any one bank must deliver; a request takes the sum over its phases that have an active lane.
The ideal is one wavefront per active phase.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index import ir
from ..index.terms import Term
from ..model.table import Access
from .simulate import WARP, Simulation

BANKS = 32
WORD = 4
_ROW_KEY = np.random.default_rng(0).integers(1, 1 << 62, size=WARP, dtype=np.int64) | 1


def phases_of(width: int) -> int:
    return {8: 2, 16: 4}.get(width, 1)


@dataclass
class Wavefronts:
    """Per request (one row per warp request): wavefronts, ideal wavefronts, and the n-way
    figure (most distinct words one bank serves in one phase)."""
    wavefronts: np.ndarray
    ideal: np.ndarray
    ways: np.ndarray


def count_wavefronts(addr: np.ndarray, mask: np.ndarray, width: int) -> Wavefronts:
    """`addr`, `mask`: (requests, 32) byte addresses and active lanes of warp requests.

    Shifting every lane of a request by whole words rotates the banks and changes no count, so
    requests are counted once per distinct shape (loop iterations mostly repeat one shape)."""
    if not len(addr):
        return Wavefronts(*(np.zeros(0, dtype=np.int64),) * 3)
    big = np.iinfo(np.int64).max
    base = np.where(mask, addr, big).min(axis=1, keepdims=True) // WORD * WORD
    shape = np.where(mask, addr - base, -1)
    # one 64-bit key per row (wrapping arithmetic), checked against the rows it stands for
    key = (shape * _ROW_KEY[: shape.shape[1]]).sum(axis=1)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    uniq = shape[first]
    if not np.array_equal(uniq[inverse], shape):
        return _count(addr, mask, width)
    wf = _count(np.maximum(uniq, 0), uniq >= 0, width)
    return Wavefronts(wf.wavefronts[inverse], wf.ideal[inverse], wf.ways[inverse])


def _count(addr: np.ndarray, mask: np.ndarray, width: int) -> Wavefronts:
    r = addr.shape[0]
    phases = phases_of(width)
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
    return Wavefronts(per_phase.sum(axis=1), (per_phase > 0).sum(axis=1), per_phase.max(axis=1))


def warp_requests(addr: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split (instances, threads) into warp requests with at least one active lane; also return
    the instance row each request came from."""
    n, t = addr.shape
    pad = (-t) % WARP
    if pad:
        addr = np.pad(addr, ((0, 0), (0, pad)))
        mask = np.pad(mask, ((0, 0), (0, pad)))
    per_row = addr.shape[1] // WARP
    addr = addr.reshape(-1, WARP)
    mask = mask.reshape(-1, WARP)
    rows = np.repeat(np.arange(n), per_row)
    live = mask.any(axis=1)
    return addr[live], mask[live], rows[live]


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


def bank_conflict(sim: Simulation, acc: Access) -> BankConflict | None:
    lanes = sim.lane_addresses(acc, "banks")
    addr, mask, rows = warp_requests(lanes.addr, lanes.mask)
    if not len(addr):
        return None
    wf = count_wavefronts(addr, mask, acc.width)
    n_rows = lanes.addr.shape[0]
    per_row = np.zeros(n_rows, dtype=np.int64)
    np.maximum.at(per_row, rows, wf.ways)
    worst_row = int(np.argmax(per_row))
    worst = {it.trip.name: int(np.asarray(lanes.env[it.trip.name]).reshape(-1)[worst_row]) for it in acc.loops}
    conflicting = per_row[per_row >= 2]
    ways = int(wf.ways.max())
    term, term_ways = _responsible_term(sim, acc, ways)
    return BankConflict(ways, int(conflicting.min()) if conflicting.size else 1,
                        float(wf.wavefronts.mean()), float(wf.ideal.mean()), int(len(addr)),
                        phases_of(acc.width), worst, term, term_ways,
                        _padding(sim, acc) if ways >= 2 else None)


def _padding(sim: Simulation, acc: Access) -> tuple[int, int] | None:
    """The smallest padding of a tile's inner dimension (in elements, up to one bank row) that makes
    this access conflict-free, or failing that the one with the fewest ways."""
    dims = acc.array.dims
    if len(dims) < 2 or not all(dims) or len(acc.dims) != len(dims) or acc.width != acc.array.elem_size:
        return None
    _, _, mask, vals, _ = sim._values(acc, "banks", acc.dims)
    idx = [np.asarray(v, dtype=np.int64) for v in vals]
    best = None
    for pad in range(1, BANKS + 1):
        extents = list(dims[:-1]) + [dims[-1] + pad]
        flat = idx[0]
        for k in range(1, len(idx)):
            flat = flat * extents[k] + idx[k]
        addr, m, _ = warp_requests(flat * acc.array.elem_size, mask)
        if not len(addr):
            return None
        w = int(count_wavefronts(addr, m, acc.width).ways.max())
        if best is None or w < best[1]:
            best = (pad, w)
        if w == 1:
            break
    return best


def _responsible_term(sim: Simulation, acc: Access, ways: int) -> tuple[Term | None, int]:
    """The thread-dependent index term whose lanes alone conflict the most (ties: the earlier term)."""
    if ways < 2:
        return None, 0
    best, best_ways = None, 1
    for term in acc.terms:
        if not any(isinstance(s, ir.Sym) and s.kind == "thread" for s in term.coord.walk()):
            continue
        lanes = sim.lane_addresses(acc, "banks", index=ir.mul(term.coord, term.stride))
        addr, mask, _ = warp_requests(lanes.addr, lanes.mask)
        if not len(addr):
            continue
        w = int(count_wavefronts(addr, mask, acc.width).ways.max())
        if w > best_ways:
            best, best_ways = term, w
    return best, best_ways


@dataclass
class BankPicture:
    """The worst simulated warp request of an access, lane by lane, for explain mode."""
    lanes: list[tuple[int, int, int, int]]    # (lane, linear thread id, first word, bank) of active lanes
    phases: int
    wavefronts: int
    ways: int


def bank_picture(sim: Simulation, acc: Access) -> BankPicture | None:
    lanes = sim.lane_addresses(acc, "banks")
    n, t = lanes.addr.shape
    addr, mask, rows = warp_requests(lanes.addr, lanes.mask)
    if not len(addr):
        return None
    wf = count_wavefronts(addr, mask, acc.width)
    i = int(np.argmax(wf.wavefronts))
    # the request's first thread: its position among the live warps of its instance row
    per_row = -(-t // WARP)
    live = np.nonzero(np.pad(lanes.mask, ((0, 0), (0, per_row * WARP - t))).reshape(-1, WARP).any(axis=1))[0]
    base = int(live[i] % per_row) * WARP
    out = [(lane, base + lane, int(addr[i, lane] // WORD), int(addr[i, lane] // WORD % BANKS))
           for lane in range(WARP) if mask[i, lane]]
    return BankPicture(out, phases_of(acc.width), int(wf.wavefronts[i]), int(wf.ways[i]))
