"""Which threads share a value: the same in every thread of a block (a constant, a size, an element
every thread loads from one address), the same in every lane of a warp (the result of a warp
collective: a butterfly of `__shfl_xor_sync`, `__shfl_sync` from one lane, `__reduce_*_sync`,
`cg::reduce`, a vote), or each thread's own. Threads that store one value to one element do not
race in any way a user would notice (CL302 leaves them alone)."""
from __future__ import annotations

from ..index import ir

BLOCK, WARP, THREAD = 2, 1, 0

_WARP_UNIFORM = {"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                 "__reduce_or_sync", "__reduce_xor_sync", "__ballot_sync", "__all_sync", "__any_sync",
                 "__ballot", "__all", "__any", "__activemask", "reduce", "ballot", "all", "any"}
BUTTERFLY = {"__shfl_xor_sync", "__shfl_xor", "shfl_xor"}   # one step is not uniform; `v += ...` over all steps is
_BROADCAST = {"__shfl_sync": 2, "__shfl": 1, "shfl": 1}     # uniform when the source lane is (argument index)
# symbols with one value across a block at one step of the kernel (loop counters step together)
_SHARED_KINDS = ("param", "block", "blockdim", "griddim", "uniform", "iter")
_PURE = {"min", "max", "fminf", "fmaxf", "fmin", "fmax", "abs", "fabs", "fabsf", "sqrt", "sqrtf", "rsqrtf", "exp",
         "expf", "__expf", "exp2f", "log", "logf", "__logf", "log2f", "sin", "sinf", "cos", "cosf", "tanhf", "powf",
         "floor", "floorf", "ceil", "ceilf", "round", "roundf", "__fdividef", "__saturatef", "sizeof",
         "__half2float", "__float2half", "__bfloat162float", "__float2bfloat16"}
_BUILTIN_SCOPE = {"threadIdx": THREAD, "blockIdx": BLOCK, "blockDim": BLOCK, "gridDim": BLOCK}


def scope(e: ir.Expr, known: dict[str, int], resolved, calls: dict[str, int]) -> int:
    """BLOCK, WARP or THREAD for an expression as written (`known`: the scope of locals assigned so
    far, `resolved(name)`: a name's value in the model, `calls`: the scope a helper's result has)."""
    # names, operators and numbers are most of what comes here: tested first, by class
    cls = e.__class__
    if cls is ir.Name:
        n = e.name
        v = resolved(n)
        if isinstance(v, ir.Expr):
            got = BLOCK
            for x in ir.symbols(v):
                k = x.kind
                if k == "data" or k == "unknown":
                    got = None
                    break
                if k not in _SHARED_KINDS:
                    got = THREAD
            if got is not None:
                return got
        if n in known:
            return known[n]
        if v is None and n in ir.STD_CONSTANTS:
            return BLOCK
        return BLOCK if v is not None and not isinstance(v, ir.Expr) else THREAD   # a pointer value
    if cls is ir.Bin:
        return min(scope(e.left, known, resolved, calls), scope(e.right, known, resolved, calls))
    if cls is ir.Num or cls is ir.Str:
        return BLOCK
    match e:
        case ir.Sym(kind=k):
            return BLOCK if k in _SHARED_KINDS else THREAD
        case ir.Member(base=ir.Name(name=b)) if b in _BUILTIN_SCOPE:
            return _BUILTIN_SCOPE[b]
        case ir.Member(base=b):
            return scope(b, known, resolved, calls)
        case ir.Call(fn=fn, args=args):
            base = fn.split("::")[-1].rsplit(".", 1)[-1]
            if base in _WARP_UNIFORM:
                return WARP
            if base in _BROADCAST:
                k = _BROADCAST[base] if "." not in fn else 1
                lane = args[k] if len(args) > k else None
                return WARP if lane is not None and scope(lane, known, resolved, calls) >= WARP else THREAD
            if base in BUTTERFLY or base.startswith(("__shfl", "shfl")):
                return THREAD
            if fn in calls:
                return calls[fn]
            if fn == "{}":           # `{a, b}`: a braced value holds what its elements hold
                return _lowest(args, known, resolved, calls)
            if base in _PURE or base.startswith(("__float2", "__int2", "__float_as", "__int_as", "__uint_as",
                                                 "__double_as", "__longlong_as")):
                return _lowest(args, known, resolved, calls)
            return THREAD       # a method of a group (`block.thread_rank()`), a call not followed
        case ir.Subscript(base=ir.Name(name=n)) if _local_array(resolved(n)):
            return THREAD       # a register array: each thread's own, wherever it reads
        case ir.Subscript(base=b, index=i):
            return min(scope(b, known, resolved, calls), scope(i, known, resolved, calls))
        case ir.Assign(value=v):
            return scope(v, known, resolved, calls)
        case ir.Bin() | ir.Un() | ir.Cond() | ir.Cast() | ir.Deref() | ir.AddrOf() | ir.Comma():
            return _lowest(e.children(), known, resolved, calls)
    return THREAD


def _local_array(v) -> bool:
    array = getattr(v, "array", None)
    return array is not None and array.space == "local"


def _lowest(exprs, known, resolved, calls) -> int:
    """The narrowest scope among `exprs` (BLOCK for none). A loop, not a generator: scope() holds no
    closure, whose cells every call of it would make."""
    low = BLOCK
    for x in exprs:
        s = scope(x, known, resolved, calls)
        if s < low:
            low = s
    return low


def butterfly(e: ir.Expr) -> bool:
    """`v += __shfl_xor_sync(mask, v, offset)`: a step of a butterfly reduction."""
    return any(isinstance(n, ir.Call) and n.fn.split("::")[-1].rsplit(".", 1)[-1] in BUTTERFLY for n in e.walk())


UNKNOWN = -1        # a value's axes the model does not follow (thread_mask)
_BIT = {"threadIdx.x": 1, "threadIdx.y": 2, "threadIdx.z": 4}


def thread_mask(e: ir.Expr) -> int:
    """The threadIdx axes an expression of the model (names resolved) reads, as bits (x 1, y 2,
    z 4); UNKNOWN where it reads a value the model does not follow. Kept on the node: the values of
    locals are read again and again."""
    got = e.__dict__.get("_tmask")
    if got is not None:
        return got
    m = 0
    for s in ir.symbols(e):
        k = s.kind
        if k == "thread":
            b = _BIT.get(s.name)
            if b is None:
                m = UNKNOWN
                break
            m |= b
        elif k == "data" or k == "unknown":
            m = UNKNOWN
            break
    e.__dict__["_tmask"] = m
    return m


def mask_axes(m: int) -> frozenset[str] | None:
    """The axes of a thread_mask, None for UNKNOWN."""
    return None if m < 0 else frozenset(a for a, b in _BIT.items() if m & b)


# calls whose result is a function of their arguments alone (besides _PURE): loads the walk
# records as accesses, conversions, vector makers, arithmetic intrinsics
_LOADS = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"}
_MATH = {"fma", "fmaf", "rsqrt", "exp10f", "expm1f", "log10f", "log1pf", "tanf", "tanh", "atanf", "atan2f",
         "erff", "sinhf", "coshf", "fmodf", "truncf", "rintf", "lrintf", "llrintf", "copysignf", "hypotf",
         "cbrtf", "fdividef", "float", "double", "int", "unsigned", "half", "__nv_bfloat16"}
_PURE_PREFIXES = ("make_", "__float2", "__int2", "__uint2", "__double2", "__half2", "__bfloat162", "__ll2",
                  "__ull2", "__h", "__f", "__d", "__i", "__u", "__sinf", "__cosf", "__powf", "__exp", "__log")
_NOT_PURE = ("__shfl", "__ballot", "__activemask", "__any", "__all", "__reduce", "__match", "__syncthreads",
             "__nanosleep", "__clock", "__globaltimer", "__isGlobal", "__isShared")


def pure(base: str) -> bool:
    """A call whose result is the same wherever its arguments are (the walk reads those)."""
    if base in _PURE or base in _LOADS or base in _MATH:
        return True
    return base.startswith(_PURE_PREFIXES) and not base.startswith(_NOT_PURE)
