"""The two-tree table of a kernel and the Accesses it holds.

Execution tree: Grid (blockIdx, gridDim) → Block (threadIdx, blockDim) → Thread (iterators).
Memory tree: Global (pointer parameters) → Shared (`__shared__` arrays) → Register (local arrays,
register-level iterators). Rules are queries on this object; explain renders it.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..index import ir
from ..index.terms import Term, decompose, level_of

SLIDE = "SLIDE"
AREA = "AREA"


def short_text(text: str, n: int = 60) -> str:
    """`text` on one line, cut to `n` characters."""
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass
class LaunchConfig:
    grid: tuple[ir.Expr, ir.Expr, ir.Expr] | None
    block: tuple[ir.Expr, ir.Expr, ir.Expr] | None
    smem: ir.Expr | None = None
    origin: str = "assumed"             # where it came from: "path:line", "annotation", "--launch", "assumed"
    params: dict[str, int] = field(default_factory=dict)    # sizes fixed by the launch annotation
    # a parameter every launch passes as an expression of the kernel's other parameters
    # (`int count = n / 3; k<<<(count + 127) / 128, 128>>>(out, count, n)`): that expression, so that
    # the kernel's `i < count` is the guard of the grid sized from `n / 3`
    derived: dict[str, ir.Expr] = field(default_factory=dict)
    # what the host program gives, with where it comes from (model/launch.py, model/host.py):
    # the values each integer parameter takes at every launch (derived; absent: open)
    values: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # the values of the launches (and of the calls of a wrapper), one per launch or call, of the
    # names of `values` those give: which go together
    value_calls: list[dict[str, int]] = field(default_factory=list)
    # a few words a message can quote, by parameter name (and "gridDim", "blockDim"): "every launch
    # passes 1", "`const int NUM_THREADS = 512` in include/x.h", "annotation"
    provenance: dict[str, str] = field(default_factory=dict)
    # conditions over the kernel's parameters the host establishes before every launch
    # (`assert(n % 256 == 0)`, `if (n % 4) return;`, `TORCH_CHECK(n % 4 == 0, ...)`)
    host_checks: list[ir.Expr] = field(default_factory=list)
    # ... and those it establishes before the calls that instantiate a template value as one number
    # (`if (n % 16 == 0) launch<16>(...); else if (n % 8 == 0) launch<8>(...);`): {(name, value): checks}
    value_checks: dict[tuple[str, int], list[ir.Expr]] = field(default_factory=dict)
    # a pointer parameter's extent in bytes, from the allocation the launch passes
    # (`cudaMalloc(&p, n * sizeof(float))`): an expression over the kernel's parameters, or a number
    extents: dict[str, ir.Expr] = field(default_factory=dict)
    # a parameter the command line may set, with the program's own value where it sets none
    # (`N = argc > 2 ? atoi(argv[2]) : 8`): those values, tried beside the ones its role gives
    defaults: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # the blocks a launch may run where its block is one of a few shapes as the host's branches go
    # (`dim3 threads(32, threadsY)` with `threadsY` 4 or 8): a verdict holds at each
    block_choices: tuple[tuple[int, int, int], ...] = ()

    @property
    def known(self) -> bool:
        return self.block is not None


@dataclass
class MemoryArray:
    name: str
    space: str                         # global | shared | local | constant (`__constant__`, read only)
    elem_type: str
    elem_size: int
    dims: tuple[int | None, ...] = ()  # declared extents (shared/local); () for global pointers
    line: int = 0
    extern: bool = False
    size_assumed: bool = False         # element size guessed (template type not bound)
    scalar: bool = False               # a variable, not an array (`__shared__ int count;`): dims (1,)
    dim_exprs: tuple = ()              # an extent of open values (`BN + B_PAD`), where dims has None

    @property
    def extent(self) -> int | None:
        if not self.dims or any(d is None for d in self.dims):
            return None
        n = 1
        for d in self.dims:
            n *= d
        return n

    @property
    def level(self) -> str:
        return {"global": "Global", "constant": "Global", "shared": "Shared", "local": "Register"}[self.space]


@dataclass(eq=False)
class Iterator:
    """A loop of the kernel: its variable, value as a function of the trip counter, guard."""
    var: str
    trip: ir.Sym                 # trip counter t = 0, 1, ..., T-1
    value: ir.Expr               # the loop variable at the start of iteration t
    cond: ir.Expr | None         # loop condition with the variable substituted
    line: int
    kind: str = AREA             # SLIDE or AREA
    parent: "Iterator | None" = None
    start: ir.Expr | None = None
    step_text: str = ""
    has_barrier: bool = False
    seq_start: int = 0           # program-order positions of the body's first and last event
    seq_end: int = 0
    moves_global: bool = False   # body copies global data into shared/registers
    grid_stride: bool = False
    unroll: int | None = None    # `#pragma unroll` before it: 0 without a count, else the count

    @property
    def name(self) -> str:
        return self.var


@dataclass(eq=False)
class Access:
    array: MemoryArray
    kind: str                          # load | store
    index: ir.Expr                     # flat element index, in elements of array.elem_type
    dims: tuple[ir.Expr, ...]          # per-dimension indexes for multi-dimensional arrays
    width: int                         # bytes moved per thread (16 for a float4 view)
    line: int
    column: int
    end_line: int
    end_column: int
    guards: tuple[ir.Expr, ...]
    loops: tuple[Iterator, ...]
    phase: str = "compute"            # load | compute | store
    statement: str = ""
    helper: str | None = None          # __device__ function it was inlined from
    call: int = 0                      # which call of it (0: the kernel's own code)
    path: str = ""
    unresolved: str | None = None      # why the index cannot be followed (CL901)
    atomic: bool = False
    name_deps: dict[str, set[str]] = field(default_factory=dict)  # index variable -> threadIdx axes it uses
    reaching: dict[str, str] = field(default_factory=dict)   # name in the access -> def id reaching it
    seq: int = 0                       # position in program order (barriers share the counter)
    value_scope: int = 0               # a store: 2 the same value in every thread of the block, 1 in a warp
    # a store: the threadIdx axes its value is a function of (through the addresses it loads from,
    # the locals it reads, the guards they were set under); None where it reads what the model does
    # not follow. Two threads equal on these axes store one value.
    value_axes: frozenset[str] | None = None
    # a store: what its value is a function of, thread by thread (the indexes it loads from, the
    # resolved values of the locals it reads); None where it reads what the model does not follow.
    # Two threads equal on all of them store one value, whatever axes those follow.
    value_inputs: tuple[ir.Expr, ...] | None = None
    volatile: bool = False             # made through a `volatile` name: never merged with its neighbours
    # a load of the element the same thread stored just before, with nothing between that may change
    # it: nvcc keeps the stored value in a register and reads no memory (vector.forwarded_loads)
    forwarded: bool = False
    # the access as parsed, and its index as written (else as resolved): the texts below are printed
    # from them when first read (a message, explain, a fix), not for every access of a run
    written: ir.Expr | None = None
    written_index: ir.Expr | None = None
    view: str = ""                     # the type the access moves through a cast (`*(uint4*)&s[i]`), if any
    member_offset: int = 0             # bytes into the array's element: `p[i].y` of an array of structs
    stored: ir.Num | None = None       # a store of a number the program gives (`flag = 1`): the number
    # the alignment of what it moves (0: its width's): a 12-byte `float3` aligned to 4 moves in
    # three 4-byte pieces, a struct of six floats in six
    align: int = 0
    # what a reference parameter the access goes through is bound to (`out[i / 2]` for `r` of
    # `put(v, out[i / 2])`): the element as a message names it
    alias: ir.Expr | None = None

    def byte_address(self, index):
        """The byte offset into the array of element `index` (an int or an array of them): where the
        access starts. The one place an index becomes an address (index/types.py gives the sizes)."""
        if isinstance(index, np.ndarray) or not isinstance(index, int):
            return np.asarray(index, dtype=np.int64) * self.array.elem_size + self.member_offset
        return index * self.array.elem_size + self.member_offset

    @functools.cached_property
    def text(self) -> str:
        """The access as written."""
        return short_text(str(self.written), 80)

    @functools.cached_property
    def source_index(self) -> str:
        """The index text as written, before resolution."""
        return short_text(str(self.written_index), 80) if self.written_index is not None else ""

    @functools.cached_property
    def dim_texts(self) -> tuple[str, ...]:
        """The subscripts as written, outermost first."""
        out, e = [], self.written
        while isinstance(e, ir.Subscript):
            out.append(short_text(str(e.index), 60))
            e = e.base
        return tuple(reversed(out))

    @property
    def space(self) -> str:
        return self.array.space

    @functools.cached_property
    def terms(self) -> list[Term]:
        return decompose(self.index)

    def dim_terms(self, k: int) -> list[Term]:
        """The terms of subscript `k`, decomposed once (as `terms` is)."""
        got = self.__dict__.setdefault("_dim_terms", {})
        if k not in got:
            got[k] = decompose(self.dims[k])
        return got[k]


@dataclass(frozen=True)
class Exit:
    """An early `return` / `break` / `continue`: the code after it runs only where `guard` holds."""
    guard: ir.Expr
    line: int
    kind: str


@dataclass(eq=False)
class Barrier:
    line: int
    guards: tuple[ir.Expr, ...]
    loops: tuple[Iterator, ...]
    text: str = "__syncthreads()"
    seq: int = 0                       # position in program order among the Accesses
    scope: str = "block"               # block: __syncthreads / block.sync(); warp: __syncwarp / tile.sync()
    column: int = 1
    end_column: int = 0
    exits: tuple[Exit, ...] = ()       # early exits whose guard is among `guards`
    path: str = ""                     # the file it stands in (an inlined helper's own file)
    collective: bool = False           # a warp collective (`__shfl_xor_sync`, `cg::reduce`): its lanes meet there

    @property
    def is_block(self) -> bool:
        return self.scope == "block"


@dataclass
class Note:
    """A construct the model could not follow (CL901) or a parse problem (CL900)."""
    code: str
    line: int
    column: int
    message: str
    end_line: int = 0
    end_column: int = 0
    path: str = ""                     # the file it stands in (an inlined helper's own file)


@dataclass
class TwoTreeTable:
    kernel: str
    path: str
    line: int
    launch: LaunchConfig
    arrays: dict[str, MemoryArray]
    iterators: list[Iterator]
    accesses: list[Access]
    barriers: list[Barrier] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)        # int kernel params -> C type
    template_bindings: dict[str, str] = field(default_factory=dict)
    launch_bounds: int | None = None                              # __launch_bounds__(max threads)
    launch_bounds_name: str | None = None                         # ... where it is one open name (a template parameter)
    arch: int = 900                                               # __CUDA_ARCH__ the kernel is compiled for
    thread_axes: set[str] | None = None                           # threadIdx axes the kernel's text names
    def_use: list[tuple[str, str]] = field(default_factory=list)  # (definition, use) edges
    definitions: dict[str, str] = field(default_factory=dict)     # def id -> "name = expr"
    def_values: dict[str, ir.Expr] = field(default_factory=dict)  # def id -> its value, resolved
    merges: dict = field(default_factory=dict)                    # Access -> vector.Merge (shared requests nvcc fuses)
    possible_merges: dict = field(default_factory=dict)           # Access -> vector.Merge nvcc may or may not make
    types: object = None                                          # index.types.TypeTable of the kernel's unit
    constants: dict[str, ir.Expr] = field(default_factory=dict)   # file-scope constants the kernel reads -> value
    unbound_types: set[str] = field(default_factory=set)          # template type parameters no launch binds
    unsized_types: set[str] = field(default_factory=set)          # named element types the unit does not lay out
    # the conditions of if/else statements every thread of a block evaluates alike at one step
    # (`if (conf[blockIdx.x * k + r] > t)`): no two threads take its two arms in one pass
    block_conditions: dict = field(default_factory=dict)      # condition -> the arrays it reads
    # names the kernel reads that nothing declares (a macro the build defines with -D, a variable of
    # a header not found): one value for the whole launch, whatever it is
    free_names: set = field(default_factory=set)
    # the arms of an `if constexpr` the instance's values do not decide (a size of a type no launch
    # binds): each arm's guard, kept so that its identity names it; at most one arm is compiled
    open_constexpr: list = field(default_factory=list)
    # `static_assert(TILE == 8 || TILE == 16)` in the kernel: what every compiled instance meets
    static_checks: list = field(default_factory=list)

    def memory_levels(self) -> dict[str, list[MemoryArray]]:
        out: dict[str, list[MemoryArray]] = {"Global": [], "Shared": [], "Register": []}
        for a in self.arrays.values():
            out[a.level].append(a)
        return out

    def def_use_graph(self):
        """The def-use graph as a networkx DiGraph (imported on demand: it is only walked by
        explain mode, so plain linting does not pay for the import)."""
        import networkx as nx
        g = nx.DiGraph()
        for d, text in self.definitions.items():
            g.add_node(d, text=text)
        g.add_edges_from(self.def_use)
        return g


def term_level(term: Term) -> str:
    return level_of(term.coord)
