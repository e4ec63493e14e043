"""Rule registry: one module per rule; the module docstring is the rule's documentation."""
from __future__ import annotations

from . import (cl101_uncoalesced, cl102_thread_y_major, cl201_out_of_range, cl202_unguarded,
               cl203_int32_overflow, cl301_stride_mismatch, cl302_overlapping_store, cl401_shared_bank_conflict,
               cl501_missing_barrier, cl502_divergent_barrier, cl900_parse_error, cl901_analysis_limit,
               cl902_internal_error, cl910_unused_suppression)

ALL = [cl101_uncoalesced, cl102_thread_y_major, cl201_out_of_range, cl202_unguarded, cl203_int32_overflow,
       cl301_stride_mismatch, cl302_overlapping_store, cl401_shared_bank_conflict, cl501_missing_barrier,
       cl502_divergent_barrier, cl900_parse_error, cl901_analysis_limit, cl902_internal_error,
       cl910_unused_suppression]
BY_CODE = {r.CODE: r for r in ALL}
CHECKS = [r for r in ALL if hasattr(r, "check")]
