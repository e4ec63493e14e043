"""What the kernel walk's parts share: the CUDA built-in names, barrier and cooperative-group
names, a pointer value (Ptr), and the constructs the model does not follow (Unfollowable)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..index import ir
from .table import MemoryArray


_BUILTINS = {
    "threadIdx": "thread", "blockIdx": "block", "blockDim": "blockdim", "gridDim": "griddim",
}
_BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "synchronize",
             "sync", "__barrier_sync", "__syncwarp"}
# cooperative_groups: what a group variable's sync() waits for, by its type or its initializer
_WARP_GROUPS = ("thread_block_tile", "tiled_partition", "coalesced_group", "coalesced_threads")
_BLOCK_GROUPS = ("thread_block", "this_thread_block", "grid_group", "this_grid")
_MAX_INLINE_DEPTH = 6
_INT_TYPES = set(ir.INT_KINDS) | {"auto"}
_MISSING = object()
UNKNOWN_VIEW = "?"      # the mark of a view whose type's size is not known (`Ptr.view`)
# the view of an address in a state space as an integer (`__cvta_generic_to_shared(p)`, the operand of
# inline PTX's `st.shared [%0]`): its arithmetic is in bytes
ADDRESS_VIEW = "address"


@dataclass(frozen=True)
class Ptr:
    """A pointer value: `array` plus an element offset, seen through `view` (e.g. float4)."""
    array: MemoryArray
    offset: ir.Expr
    view: str
    view_size: int
    # a pointer into the array, not the array itself (`buf[0]`, `&tile[0][0]`): its subscripts are
    # one dimension, whatever the array's own
    inner: bool = False
    row_index: ir.Expr | None = None    # a row of a two-dimensional array (`buf[w]`): which (`w`)


class Unfollowable(Exception):
    """A construct the model cannot follow; becomes a CL901 note."""


def _data(name: str) -> ir.Sym:
    return ir.Sym(name, "data", "float")


def _names(e: ir.Expr) -> set[str]:
    return {n.name for n in ir.of_type(e, ir.Name)}


def _scale(index: ir.Expr, ptr: Ptr) -> ir.Expr:
    """An index in units of the pointer's view, as elements of the underlying array."""
    ratio = ptr.view_size // ptr.array.elem_size if ptr.array.elem_size else 1
    if ratio > 1 and ptr.view_size % ptr.array.elem_size == 0:
        return ir.mul(index, ir.Num(ratio))
    if ptr.view_size < ptr.array.elem_size and ptr.view_size:
        return ir.Bin("/", index, ir.Num(ptr.array.elem_size // ptr.view_size))
    return index


def _needs_cast(value: ir.Expr, t: str) -> bool:
    """An int-declared local narrows a 64-bit value (kept so CL203 sees it), or truncates a floating
    one (`const int n = (2. / 3.) * 16;` is 10, not 10.67)."""
    if any(isinstance(n.value, float) for n in ir.of_type(value, ir.Num)):
        return True
    bits = ir.INT_KINDS.get(t, (32, True))[0]
    if bits == 64:
        return False
    return any(ir.INT_KINDS.get(n.type.name, (32,))[0] == 64 for n in ir.of_type(value, ir.Cast)) or \
        any(ir.INT_KINDS.get(n.ctype, (32,))[0] == 64 for n in ir.symbols(value))


def _is_barrier(fn: str) -> bool:
    return fn.split("::")[-1] in _BARRIERS or fn.endswith(".sync")


# `cg::reduce(tile, v, op)` is the library's, not a `reduce` helper of the file
# a text holding any of the words of _WARP_GROUPS and _BLOCK_GROUPS holds one of these
_GROUP_WORD = re.compile("thread_block|tiled_partition|coalesced_|grid_group|this_grid")


def group_scope(text: str) -> str | None:
    """What a cooperative group's sync() waits for, from its declaration or initializer text:
    "warp" (a tile, a coalesced group), "block" (a thread block or grid group) or None."""
    if _GROUP_WORD.search(text) is None:     # most declarations: one search instead of eight
        return None
    if any(w in text for w in _WARP_GROUPS):
        return "warp"
    if any(w in text for w in _BLOCK_GROUPS):
        return "block"
    return None
