"""What explain mode shows, as plain data: built once from the two-tree table and the simulation,
dumped as JSON by `--format json` and drawn by the text, markdown and HTML renderers."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class TreeRow:
    """One row of the two-tree table: an execution level beside the memory level it maps onto."""
    exec_level: str            # Grid | Block | Thread
    exec_size: str             # "32 x 32" (or a symbol when unknown)
    exec_index: str            # "blockIdx.x, blockIdx.y"
    mem_level: str             # Global | Shared | Register
    mem_index: list[str]       # index variables that address this memory level
    mem_size: str              # "A, B, C (pointers)" / "A_shared[32][32]"


@dataclass
class IteratorRow:
    name: str
    line: int
    kind: str                  # SLIDE | AREA
    levels: str                # "Grid -> Global"
    header: str                # the loop condition as written
    formula: str               # "1024 / 32"
    trips: int | None          # iterations (None: not computed)
    note: str = ""


@dataclass
class TermRow:
    coord: str                 # the coordinate as written: blockIdx.y, tileId, sCol, flatIdx % TILE_SIZE
    stride: str                # as written: TILE_SIZE, K, 1
    stride_value: int | None
    level: str                 # "Grid -> Global", "Block -> Shared" ("Block -> Global" without shared memory), "Shared index", "offset"
    max_coord: int | None = None


@dataclass
class MaxCheck:
    arithmetic: str            # "31*32 + 31"
    value: int                 # the largest value any thread reaches (simulated)
    limit: int | None          # largest allowed value, when known
    limit_text: str = ""       # where the limit comes from: "A_shared[32][.]", "row length K = 1024"
    bound_only: bool = False   # the terms' maxima are not reached together: the sum is a bound
    total: int | None = None   # the sum of the arithmetic (equals value unless bound_only)
    ok: bool | None = None     # value within limit (None: no limit known)

    def __post_init__(self):
        self.ok = None if self.limit is None else self.value <= self.limit


@dataclass
class Derivation:
    """One index variable, as the code defines it, rewritten as coordinate x stride terms."""
    name: str
    line: int
    written: str
    pattern: str               # Flatten | Stride | Unflatten (col) | Unflatten (row) | "" (four questions)
    terms: list[TermRow]
    check: MaxCheck | None
    questions: list[str] = field(default_factory=list)    # the four questions, answered (global/shared)


@dataclass
class Lane:
    lane: int
    tid: tuple[int, int, int]
    index: int | None          # element index (None: lane inactive)
    address: int | None        # byte offset from the array's start
    unit: int | None           # 32-byte sector (global) or bank (shared)


@dataclass
class WarpPicture:
    space: str                 # global | shared
    elem_size: int
    width: int                 # bytes per lane
    point: dict[str, int]      # block and iteration values of the pictured request
    lanes: list[Lane]
    units: int                 # distinct sectors (global) or wavefronts (shared) of this request
    ideal: int
    average: float | None = None        # sectors/request over all simulated requests (global)
    average_ideal: float | None = None


@dataclass
class Rewrite:
    line: int
    original: str
    rewritten: str


@dataclass
class Finding:
    code: str
    name: str
    category: str
    severity: str
    line: int
    column: int
    message: str
    why: str                   # the rule's "Why is this bad?" section
    fix: str                   # the rule's "Use instead" section
    rewrites: list[Rewrite] = field(default_factory=list)
    rewrite_note: str = ""     # why no rewrite is offered, when one was tried and rejected
    path: str = ""             # the file it is in, where not the kernel's (a helper's header)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.path else f"line {self.line}"


@dataclass
class DimView:
    written: str
    terms: list[TermRow]
    check: MaxCheck | None


@dataclass
class AccessView:
    line: int
    text: str
    array: str
    space: str
    kind: str                  # load | store
    phase: str
    resolved: str              # the index with every variable substituted
    dims: list["DimView"]      # one per subscript (one for a pointer)
    warp: WarpPicture | None
    findings: list[str] = field(default_factory=list)         # codes of findings on this access
    note: str = ""


@dataclass
class KernelView:
    name: str
    path: str
    line: int
    launch: str                # "grid (32, 32, 1) x block (8, 8, 1) from samples/x.cu:59"
    launch_known: bool
    sizes: dict[str, int]      # problem sizes used (params), with defaults marked in assumptions
    assumptions: list[str]
    table: list[TreeRow]
    iterators: list[IteratorRow]
    phases: dict[str, list[Derivation]]      # load / compute / store -> index variables, bottom-up
    accesses: dict[str, list[AccessView]]    # load / compute / store -> accesses
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)
    source: list[tuple[int, str]] = field(default_factory=list)   # the kernel's lines, numbered


@dataclass
class ExprView:
    """`cudalint explain --expr`: one typed expression."""
    expr: str
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    defines: dict[str, str]
    terms: list[TermRow]
    check: MaxCheck | None
    pattern: str
    assumptions: list[str]
    symbols: list[str]         # names not defined: kept as symbols


@dataclass
class Explanation:
    kernels: list[KernelView] = field(default_factory=list)
    expr: ExprView | None = None
    problems: list[str] = field(default_factory=list)         # CL900 parse problems, one line each

    def to_dict(self) -> dict:
        return {"version": 1, **asdict(self)}
