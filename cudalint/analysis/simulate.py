"""Warp simulation over a launch configuration (numpy, vectorized over lanes).

For an Access it evaluates the index of every thread of a block, for sampled blocks (first,
middle, last) and sampled loop iterations (first, middle, last), honouring the guards, and from
that computes 32-byte sectors per warp request, index ranges per dimension, 32-bit overflow,
and stores that two threads make to one element.

Simulation holds the launch values and the caches; its parts, one module each: instances.py
(sampled blocks and iterations, environments, lane masks), trips.py (trip counts),
coalescing.py (sectors per request, strides), ranges.py (ranges, overflow, excess threads),
overlaps.py (stores of two threads to one element); results.py what they find.
"""
from __future__ import annotations

import numpy as np

from ..index import ir
from ..index.evaluate import Evaluator, KeptValues, Unknown, ValueTooLarge
from ..model.table import Access, Iterator, TwoTreeTable
from .coalescing import CoalescingAnalysis
from .family import Family, Trial, block_threads, derive
from .instances import Instances
from .overlaps import OverlapAnalysis
from .ranges import RangeAnalysis
from .results import AccessResult, AnalysisLimit
from .trips import TripCounts

# where the rest of cudalint and its tests import them from
from .coalescing import warp_sectors  # noqa: F401
from .instances import MAX_COMBOS, capped_product, conjuncts, guard_value, guards_followed  # noqa: F401
from .results import SECTOR, SPAN_LIMIT, WARP, LaneAddresses  # noqa: F401

DEFAULT_SIZE = 1000
ASSUMED_BLOCK_1D = (256, 1, 1)
ASSUMED_GRID = (8, 8, 4)


class Simulation(Instances, TripCounts, CoalescingAnalysis, RangeAnalysis, OverlapAnalysis):
    """The simulation of one kernel under one trial of the values the program does not give
    (family.py); without a trial, the family's first."""

    def __init__(self, table: TwoTreeTable, params: dict[str, int] | None = None, trial: Trial | None = None,
                 family: Family | None = None):
        self.table = table
        self.assumptions: list[str] = list(table.assumptions)
        self.params = dict(table.launch.params)
        if params:
            self.params.update(params)
        self.family = family if family is not None else derive(table, self.params)
        self.trial = trial if trial is not None else self.family.primary
        self.launch_known = table.launch.known
        self.grid_known = False          # the grid is the program's (else cudalint's (8, 8, 4))
        self.block_chosen = False
        self._defaulted: set[str] = set()
        self.block = self._block()
        self.grid = self._grid()
        self.nthreads = int(np.prod(self.block))
        if self.nthreads > 1024 or self.nthreads < 1:
            raise AnalysisLimit(f"block of {self.nthreads} threads is outside 1..1024")
        self.tid = dict(block_threads(self.block))     # read-only arrays, shared with every simulation of this shape
        self._tid_rows = {k: v[None, :] for k, v in self.tid.items()}     # as the rows' environments bind them
        self._trips: dict[int, list[int] | None] = {}
        # What several accesses, rules and modes ask for again: an access's instances (by access and
        # mode), the rows of those instances (by loops and samples: accesses of one loop nest share
        # them), the value of a guard's part over those rows (guards are shared by the accesses under
        # them, loop conditions by every access of the loop), and each access's result.
        self._results: dict[int, tuple[Access, AccessResult]] = {}
        self._instances: dict[tuple[int, str], tuple] = {}
        self._rows: dict[int, tuple] = {}
        self._row_keys: dict[tuple, int] = {}
        self._row_places: dict[tuple[int, int], np.ndarray | None] = {}
        self._steps: dict[int, tuple] = {}
        self._guard_names: dict[tuple, tuple[str, ...]] = {}
        self._guard_masks: dict[tuple, np.ndarray] = {}
        self._settled_loops: dict[int, tuple[bool, Iterator]] = {}
        self._kept = KeptValues()
        self._conjuncts: dict[tuple, tuple] = {}
        self._picks: dict[int, tuple] = {}           # a thread test against a shared value: its one-lane stand-in
        self._uniform_names: frozenset[str] | None = None
        self._masks: dict[tuple[int, str], np.ndarray] = {}
        self._expr_params: dict[int, tuple[dict, ir.Expr]] = {}
        self._blocks: dict[str, list] = {}
        self._base: dict | None = None
        self._extents: dict[tuple[int, int], tuple[ir.Expr, int] | None] = {}   # (grid axis, thread axis)
        self._spans: dict[int, tuple] = {}
        # the rules whose findings are asked for (None: all of them; a later trial asks for those
        # still standing): a result leaves out what none of them reads
        self.wanted: frozenset[str] | None = None
        # blocks whose rows equal an earlier block's are left out (_distinct_blocks; False: every
        # sampled one is simulated, as a test compares)
        self.first_block_alone = True
        self._distinct_of: dict[tuple, list] = {}
        # a load of a shared or local array whose index's spans keep it inside its extents has no
        # ranges worked out (_extents_hold; False: every one is, as a test compares)
        self.spans_decide = True
        # the index one step along a thread axis is read from the neighbouring lanes where there is
        # one (_lane_step; False: the whole moved block is evaluated, as a test compares)
        self.lanes_step = True

    # ---- launch values ---------------------------------------------------------------------
    def param(self, name: str) -> int:
        if name not in self.params:
            tried = self.trial.size(name)
            self.params[name] = tried if tried is not None else DEFAULT_SIZE
            self._defaulted.add(name)
        return self.params[name]

    @property
    def defaulted_params(self) -> list[str]:
        return sorted(self._defaulted)

    def _scalar(self, e: ir.Expr, extra: dict | None = None) -> int | None:
        env = dict(extra or {})
        for s in ir.symbols(e):
            if s.kind == "param":
                env[s.name] = self.param(s.name)
        try:
            return int(Evaluator(env).value(e))
        except (Unknown, ValueError, TypeError, OverflowError):
            return None

    def _block(self) -> tuple[int, int, int]:
        lc = self.table.launch
        if lc.block is not None:
            vals = [self._scalar(b) for b in lc.block]     # an edge given nowhere takes the trial's value
            if all(v is not None and v > 0 for v in vals):
                if self.family.block_names:
                    self.launch_known = False
                    self.block_chosen = True     # a launch site with an unknown edge: run as tried (confirm mode)
                    hint = " or ".join([f"--param {k}=VALUE" for k in self.family.block_names] + ["--launch"])
                    self.assumptions.append(f"{self.family.block_text()} (give {hint})")
                return tuple(vals)
        self.launch_known = False
        b = self.trial.block or ASSUMED_BLOCK_1D
        if self.family.blocks:
            self.assumptions.append(self.family.block_text() + "; give `// cudalint: launch grid=(X,Y,Z) "
                                                                "block=(X,Y,Z)` or --launch")
        return b

    def _grid(self) -> tuple[int, int, int]:
        lc = self.table.launch
        env = {f"blockDim.{a}": v for a, v in zip("xyz", self.block)}
        if lc.grid is not None:
            vals = [self._scalar(g, env) for g in lc.grid]
            if all(v is not None and v > 0 for v in vals):
                self.grid_known = True
                return tuple(vals)
            self.assumptions.append("grid size of the launch could not be computed; assumed (8, 8, 4)")
        return ASSUMED_GRID

    # ---- environments ----------------------------------------------------------------------
    def base_env(self) -> dict:
        if self._base is None:
            env: dict = {}
            for a, v in zip("xyz", self.block):
                env[f"blockDim.{a}"] = np.int64(v)
            for a, v in zip("xyz", self.grid):
                env[f"gridDim.{a}"] = np.int64(v)
            self._base = env
        return dict(self._base)

    # ---- analyses --------------------------------------------------------------------------
    def result(self, acc: Access) -> AccessResult:
        got = self._results.get(id(acc))
        if got is None:
            got = self._results[id(acc)] = (self._result(acc), acc)
        return got[0]

    def error(self, acc: Access) -> str | None:
        """result(acc).error, without working out the rest of the result where it can be told
        without: rules that only skip an access the simulation cannot follow ask this."""
        return self._verdict(acc)[0]

    def executed(self, acc: Access) -> bool:
        """result(acc).executed, likewise."""
        return self._verdict(acc)[1]

    def _verdict(self, acc: Access) -> tuple[str | None, bool]:
        """(error, executed) of an access. Only its index and subscripts over the range instances
        can fail to be computed: the rest of a result works on their integer values (the coalescing
        instances are rows of those, the strides read the neighbouring lanes or evaluate past the
        block's edge where a failure there is caught). So where these are computed as integers, and
        the coalescing rows are among them, the result has no error; anything else is worked out in
        full, which says what went wrong."""
        got = self._results.get(id(acc))
        if got is not None:
            return got[0].error, got[0].executed
        if acc.unresolved:
            return acc.unresolved, True
        try:
            _, _, mask, vals, _ = self._values(acc, "range", [acc.index, *acc.dims])
            plain = all(v.dtype.kind in "iu" for v in vals) and self._within(acc, "coalescing", "range") is not None
        except (ValueTooLarge, OverflowError, ValueError, Unknown, MemoryError):
            plain = False
        if not plain:
            res = self.result(acc)
            return res.error, res.executed
        return None, bool(mask.any())

    def _result(self, acc: Access) -> AccessResult:
        res = AccessResult()
        if acc.unresolved:
            res.error = acc.unresolved
            return res
        try:
            if acc.space == "global" and self._coalescing_alone(acc):
                index = self._coalescing(acc, res)
                # the coalescing instances are rows of the range ones: where one of those runs, it runs
                res.executed = bool(self.instance_mask(acc, "coalescing").any()) or \
                    bool(self.instance_mask(acc, "range").any())
                self._strides(acc, res, index)
                return res
            if acc.space != "global" and self.spans_decide and self._extents_hold(acc, res):
                index = None
            else:
                index = self._ranges(acc, res)
            if acc.space == "global":
                index = self._coalescing(acc, res, index)
                self._strides(acc, res, index)
            elif self._within(acc, "coalescing", "range") is None:
                # the strides along threadIdx are read for global accesses only (CL101, CL102); of
                # the others', what counts is whether their index over the coalescing instances is
                # computed, which it is where those are rows of the range instances
                self._strides(acc, res)
        except ValueTooLarge as exc:
            res.error = str(exc)
        except (OverflowError, ValueError):       # a float subscript (ill-formed C) that is inf or nan
            res.error = "index is not a finite integer"
        except Unknown as exc:
            res.error = f"index depends on `{exc.sym}`, which the model does not follow"
        except MemoryError:
            res.error = "simulation too large"
        return res
