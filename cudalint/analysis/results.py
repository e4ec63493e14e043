"""What a simulation finds for one access (coalescing, ranges, excess threads, overlapping stores,
lane addresses), and the sizes and limits every part of the simulation shares."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


SECTOR = 32
WARP = 32
_I64_MIN, _I64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)


# value_span's bound where only what a value may be matters: within it nothing leaves int64
SPAN_LIMIT = 1 << 62


def _most_common(d: np.ndarray) -> int:
    """The most common value (the smallest among ties); mostly there is only one."""
    return _most_common_share(d)[0]


def _most_common_share(d: np.ndarray) -> tuple[int, float]:
    """The most common value (the smallest among ties) and the share of `d` it makes."""
    lo = d.min()
    if lo == d.max():
        return int(lo), 1.0
    vals, counts = np.unique(d, return_counts=True)
    k = int(np.argmax(counts))
    return int(vals[k]), float(counts[k]) / d.size


class AnalysisLimit(Exception):
    """The simulation cannot be set up (e.g. a block of more than 1024 threads)."""


@dataclass
class Coalescing:
    sectors_per_request: float
    ideal_sectors: float
    requests: int
    lane_stride_bytes: int | None       # distance between adjacent lanes, most common value
    # whether that distance is the one between most adjacent lanes: where it is not (a packed
    # triangle's `i*(i+1)/2`, whose gaps grow lane by lane) no one distance describes the lanes
    lanes_even: bool = True
    # where adjacent lanes are contiguous in runs (`b = t / D`, `d = t % D`): the lanes of a run and
    # the distance from one run's first lane to the next's, the gap that costs the sectors
    group_lanes: int | None = None
    group_stride: int | None = None

    @property
    def ratio(self) -> float:
        return self.sectors_per_request / self.ideal_sectors if self.ideal_sectors else 1.0


@dataclass
class DimRange:
    lo: int
    hi: int
    at_max: dict[str, int]              # coordinate values of the thread/iteration reaching hi
    at_min: dict[str, int]


@dataclass
class Excess:
    axis: str
    coordinate: dict[str, int]
    index: int
    extent_expr: object        # the size the grid was rounded from, as the launch writes it (ir.Expr)
    extent: int
    covered: int
    thread_axis: str = ""      # the threadIdx axis that counts along `axis` within a block (`axis` if empty)
    derived: bool = False      # the index a function of the global coordinate (`tid / k`), not the coordinate

    @property
    def extent_text(self) -> str:
        return str(self.extent_expr)


@dataclass
class Overlap:
    threads: tuple[dict[str, int], dict[str, int]]
    element: int
    writers: int


@dataclass
class LaneAddresses:
    """Byte offset into the array of every thread of a block (linear ids, x fastest), for each
    sampled block and loop iteration: rows are instances, columns threads."""
    addr: np.ndarray
    mask: np.ndarray
    width: int                         # bytes each thread moves (16 for a float4 view)
    env: dict


@dataclass
class AccessResult:
    coalescing: Coalescing | None = None
    ranges: list[DimRange] = field(default_factory=list)   # per dimension, for arrays with declared extents
    overflows: list = field(default_factory=list)
    overlap: Overlap | None = None
    duplicates: bool = False        # threads store to one element, each the same value (no overlap said)
    excess: Excess | None = None
    multiple: Excess | None = None   # unguarded under a rounded-up grid, inside only as the size is a multiple
    strides: dict[str, int] = field(default_factory=dict)   # threadIdx axis -> element stride
    executed: bool = True
    error: str | None = None
    # a global pointer the launch binds to an allocation: (its extent in elements at this trial, the
    # allocation's size as the host writes it); `ranges` then holds the index's range
    allocation: tuple[int, str] | None = None
