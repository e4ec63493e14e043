"""The Two Tree Framework's terms as explain uses them, from the framework's own vocabulary (the
seed README), for the HTML page's glossary and the links to it."""
from __future__ import annotations

import re

# id, the words on the page that link to it (a regex), the term, what it means
TERMS = [
    ("two-tree-table", r"Two[- ]Tree [Tt]able|two-tree table", "Two Tree Table",
     "The execution tree and the memory tree side by side, level by level, each level with its size and its "
     "index. Every index is read off it as a sum of `coordinate × stride` terms plus an offset, one term per level."),
    ("execution-tree", r"[Ee]xecution [Tt]ree", "Execution Tree",
     "CUDA's execution hierarchy: Grid → Block → Thread. Its indexes are `blockIdx` and `threadIdx` (and the "
     "thread's own loop counters), its sizes `gridDim`, `blockDim` and 1."),
    ("memory-tree", r"[Mm]emory [Tt]ree", "Memory Tree",
     "CUDA's memory hierarchy: Global → Shared → Register, sized by the problem (M, N, K), the shared tile "
     "(TILE_SIZE) and the work of one thread (WORK_PER_THREAD)."),
    ("slide", r"\bSLIDE\b", "SLIDE iterator",
     "A data-movement loop: on each iteration the execution level needs a new region of memory, so it slides "
     "across it one tile at a time. Count = memory size / tile size (a tiled GEMM's loop over K tiles)."),
    ("area", r"\bAREA\b", "AREA iterator",
     "A data-processing loop: the execution level sweeps a region it already holds. Count = memory size / "
     "execution size (64 threads covering a 32×32 tile take 16 passes)."),
    ("four-questions", r"[Ff]our [Qq]uestions", "The four questions",
     "How a global or register index is built, level by level, as `execution_index × stride + next_level_index`: "
     "1. which memory level does the index end at? 2. which execution level sits at that level, and what is its "
     "index? 3. what is the memory size of the level below (the stride)? 4. what is the index at the level below "
     "(the offset, found by asking again)?"),
    ("flatten", r"\bFlatten\b", "Flatten",
     "The first step for shared memory: collapse the 2D thread position into one local id, "
     "`localId = threadIdx.y × blockDim.x + threadIdx.x` (0-63 for an 8×8 block)."),
    ("stride", r"(?<=^)Stride(?=$)", "Stride",
     "The second step: reuse the block for a tile larger than it, `flatIdx = stride × (blockDim.x × blockDim.y) "
     "+ localId`, one pass per value of the stride iterator."),
    ("unflatten", r"\bUnflatten\b", "Unflatten",
     "The third step: turn the flat index back into 2D shared-memory coordinates, "
     "`col = flatIdx % TILE_SIZE`, `row = flatIdx / TILE_SIZE`."),
    ("max-check", r"\bmax check\b", "Max check",
     "The largest value an index takes, written term by term at the thread and iteration that reach it "
     "(`7×4 + 3 = 31`), against the extent of the level it addresses (`<= 31`)."),
    ("load-phase", r"\bLoad phase\b", "Load phase",
     "Data moves from global to shared memory to registers; most index derivation happens here."),
    ("compute-phase", r"\bCompute phase\b", "Compute phase",
     "Arithmetic on shared memory and registers, with indexes already derived (plus each thread's own position "
     "in the shared tile)."),
    ("store-phase", r"\bStore phase\b", "Store phase",
     "Results are written from registers back to global memory, through the output matrix indexes."),
]

_PATTERN = re.compile("|".join(f"(?P<g{i}>{rx})" for i, (_, rx, _, _) in enumerate(TERMS)))


def link(escaped: str) -> str:
    """HTML-escaped text with each glossary term made a link to its entry."""
    def one(m: re.Match) -> str:
        i = int(m.lastgroup[1:])
        return f'<a class="term" href="#g-{TERMS[i][0]}">{m.group(0)}</a>'
    return _PATTERN.sub(one, escaped)
