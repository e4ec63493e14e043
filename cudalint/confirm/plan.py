"""What one confirm run launches: the kernel's name expression, the logical grid and the sampled
blocks that stand for it, the dynamic shared memory, and each argument (buffers at their logical
size, integer sizes from the program, --param or annotations, else invented and said so). Pure
numpy: nothing here touches the GPU."""
from __future__ import annotations

import itertools
import re
from dataclasses import asdict, dataclass, field

import numpy as np

from ..analysis.simulate import Simulation, capped_product
from ..index import ir
from ..index.evaluate import Evaluator, Unknown
from ..index.types import BUILTINS
from ..source.cufile import FunctionDef, node_text
from ..source.types import TypeTable, builtin_layout

ALL_BLOCKS_UP_TO = 64          # grids this small run whole
DEFAULT_BUFFER_ELEMENTS = 1 << 20
DEFAULT_CAPACITY = 1 << 22     # log records (40 bytes each)
STAND_IN = 1000                # an integer member of a struct passed by value, which the kernel reads as data
MAX_STRUCT_MEMBERS = 4096      # members of a struct argument followed, arrays of structs counted element by element
MAX_BUFFERS = 64               # buffers the log checks an address against (runner.CL_MAX_BUF)

_DTYPES = {
    "float": "float32", "double": "float64", "half": "float16", "__half": "float16",
    "int": "int32", "signed": "int32", "int32_t": "int32", "unsigned": "uint32", "unsigned int": "uint32",
    "uint": "uint32", "uint32_t": "uint32", "long": "int64", "long long": "int64", "int64_t": "int64",
    "unsigned long": "uint64", "unsigned long long": "uint64", "size_t": "uint64", "uint64_t": "uint64",
    "short": "int16", "unsigned short": "uint16", "char": "int8", "signed char": "int8", "unsigned char": "uint8",
    "int8_t": "int8", "uint8_t": "uint8", "bool": "bool", "ptrdiff_t": "int64", "ssize_t": "int64",
    "long int": "int64", "unsigned long int": "uint64", "int16_t": "int16", "uint16_t": "uint16",
}


class NotRunnable(Exception):
    """This kernel cannot be launched by confirm mode (the reason is the message)."""


@dataclass
class Arg:
    name: str
    kind: str                  # buffer | scalar | struct
    dtype: str                 # numpy dtype of a scalar, of a buffer's elements ("uint8" for vector types)
    elements: int = 0          # buffer: elements of dtype; struct: its bytes
    elem_size: int = 0         # buffer: bytes of the C element type
    value: float | int = 0     # scalar
    origin: str = ""           # where the size or value came from
    # struct: [name, dtype, offset, count, value] per scalar member (`inner.n` in a nested struct); a member
    # of a type with no numpy dtype (`__nv_bfloat16`) is `V<size>` zero bytes
    fields: list = field(default_factory=list)
    members: list = field(default_factory=list)   # struct: a buffer Arg per pointer member (`p.in`)
    offset: int = 0            # a struct member's buffer: where the struct's bytes hold its address


@dataclass
class Job:
    kernel: str
    name_expression: str       # `sgemm<64, 64, 8>` for templates, else the name
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem: int
    blocks: list[tuple[int, int, int]]   # logical coordinates of the launched (sampled) blocks
    args: list[Arg]
    nsites: int
    capacity: int = DEFAULT_CAPACITY
    notes: list[str] = field(default_factory=list)
    smem_origin: str = ""
    invented: list[str] = field(default_factory=list)   # values cudalint chose, as `N=1000`
    values: list[str] = field(default_factory=list)     # the program's values it runs with, and whence

    def buffers(self) -> list[Arg]:
        """Every buffer of the run, in the order the log registers them: the pointer parameters',
        then those of the pointer members of the structs passed by value."""
        return [a for a in self.args if a.kind == "buffer"] + [m for a in self.args for m in a.members]

    @property
    def whole_grid(self) -> bool:
        return len(self.blocks) == int(np.prod(self.grid))

    def block_weights(self) -> list[int]:
        """How many blocks of the whole grid each launched block stands for: along each axis the
        first and the last stand for themselves and the middle one for all the others."""
        out = []
        for blk in self.blocks:
            w = 1
            for c, g in zip(blk, self.grid):
                if g > 3 and 0 < c < g - 1 and not self.whole_grid:
                    w *= g - 2
            out.append(w)
        return out

    def to_json(self) -> dict:
        return asdict(self)


def sampled_blocks(grid: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """All blocks of a small grid; otherwise the first, middle and last block along each axis."""
    if int(np.prod(grid)) <= ALL_BLOCKS_UP_TO:
        return [(x, y, z) for z in range(grid[2]) for y in range(grid[1]) for x in range(grid[0])]
    axes = [sorted({0, g // 2, g - 1}) for g in grid]
    return [(x, y, z) for z, y, x in itertools.product(axes[2], axes[1], axes[0])]


def deduced_templates(fn: FunctionDef, table, files) -> dict[str, str]:
    """Type template arguments the launch leaves to deduction (`_add_mat<<<g, b>>>(alpha, src, ...)`
    in `void cudaF_add_mat(float alpha, const float* src, ...)`): where a kernel parameter is written
    `T` or `T*` and the launch passes it a parameter of the host function, the host's type is T."""
    want = {tp.name for tp in fn.template_params if tp.is_type and tp.name not in table.template_bindings}
    m = re.match(r"(.+?):(\d+)(?:\s|$)", table.launch.origin)     # `x.cu:8 (called at x.cu:11)`
    if not want or m is None:
        return {}
    path, line = m.group(1), m.group(2)
    out: dict[str, str] = {}
    for f in files:
        for site in f.launches:
            if site.kernel != fn.name or site.line != int(line) or site.host is None or site.template_args or \
                    not (f.path == path or f.path.endswith("/" + path) or path.endswith(f.path)):
                continue
            host = {hp.name: hp for hp in site.host.params}
            for kp, text in zip(fn.params, site.args):
                hp = host.get(text.strip())
                if kp.type_name in want and hp is not None and hp.pointers == kp.pointers and \
                        (table.types or BUILTINS).resolve(hp.type_name) in _DTYPES:    # `int32_cuda`: int32_t
                    out.setdefault(kp.type_name, hp.type_name)
    return out


def name_expression(fn: FunctionDef, table, host_templates: frozenset[str] = frozenset(),
                    host_values: dict[str, str] | None = None, deduced: dict[str, str] | None = None,
                    specialized: list[str] | None = None) -> str:
    """`ns::sgemm<64, 64, 8>`: the kernel as NVRTC names it, with the launch's template arguments;
    an explicit specialization (`template <> __global__ void k(__half* ...)`) with the arguments it
    is for (`specialized`: `k<__half>`), which its name does not write."""
    scope = ""
    node = fn.node.parent
    while node is not None:
        if node.type == "namespace_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                scope = node_text(name) + "::" + scope
        node = node.parent
    if not fn.template_params:
        return scope + fn.name + (f"<{', '.join(specialized)}>" if specialized else "")
    args = []
    for tp in fn.template_params:
        v = table.template_bindings.get(tp.name) or (deduced or {}).get(tp.name) or tp.default
        v = (host_values or {}).get(str(v).strip(), v) if v is not None else None
        if v is None:
            raise NotRunnable(f"template argument `{tp.name}` of `{fn.name}` is not known: no launch in the files "
                              f"linted instantiates it (lint the file that launches it too)")
        if str(v).strip() in host_templates:
            raise NotRunnable(f"template argument `{tp.name}` of `{fn.name}` is `{v}`, a template parameter of the "
                              f"host function that launches it, whose instantiations are not followed")
        args.append(str(v))
    return f"{scope}{fn.name}<{', '.join(args)}>"


def plan(fn: FunctionDef, table, sim: Simulation, nsites: int, smem_given: int | None = None,
         host_templates: frozenset[str] = frozenset(), host_values: dict[str, str] | None = None,
         typedefs: dict[str, str] | None = None, deduced: dict[str, str] | None = None,
         specialized: list[str] | None = None) -> Job:
    """The run of one kernel. `host_values`: the host template's arguments where the launch sits in a
    host template (`reduce<T>` instantiated `reduce<int>`); `typedefs`: the unit's type names."""
    if not sim.launch_known and not sim.block_chosen and sim.block not in table.launch.block_choices:
        raise NotRunnable(f"no launch of `{fn.name}` in the files linted (lint its runner too, or give "
                          f"`--launch {fn.name}:grid=X,Y,Z:block=X,Y,Z`)")
    if table.launch.grid is None:
        raise NotRunnable(f"the grid of `{fn.name}`'s launch is not known (give `--launch {fn.name}:grid=X,Y,Z:"
                          f"block=X,Y,Z`)")
    bindings = {**(deduced or {}),
                **{k: (host_values or {}).get(str(v).strip(), v) for k, v in table.template_bindings.items()}}
    # a parameter typed by a template parameter no launch binds is that argument's question, not its type's
    expr = name_expression(fn, table, host_templates, host_values, deduced, specialized)
    types = run_types(table, typedefs)
    smem, smem_origin = dynamic_shared(table, sim, smem_given, bindings)
    sizes = logical_sizes(table, sim)
    args, notes = [], []
    for p in fn.params:
        if p.pointers:
            arr = table.arrays.get(p.name)
            if arr is None:
                raise NotRunnable(f"pointer parameter `{p.name}` of `{fn.name}` is not modelled")
            args.append(_buffer(table, sim, sizes, p.name, arr.elem_type, arr.elem_size, bindings))
            continue
        t = bindings.get(p.type_name, p.type_name)
        t = (typedefs or {}).get(t, t)
        macro = fn.file.macros.at(fn.line).get(t) if fn.file is not None and t.isidentifier() else None
        t = macro.body.strip() if macro is not None and not macro.params and macro.body.strip() else t
        t = " ".join(w for w in t.split() if w not in ("const", "volatile"))
        dtype = _DTYPES.get(t) or _enum_dtype(t)
        if dtype is None and not p.reference:
            passed = struct_arg(table, p.name, t, bindings, types) or \
                struct_arg(table, p.name, _bare(p.type_name), bindings, types)
            if passed is not None:
                _simulated_members(passed, table, sim)
                passed.members = [_member_buffer(table, sim, sizes, m, bindings, types) for m in passed.members]
                args.append(passed)
                continue
        if dtype is None:
            raise NotRunnable(f"parameter `{p.name}` of `{fn.name}` has type `{p.type_name}`, which confirm mode "
                              f"cannot pass (it passes pointers, integer or floating-point scalars, and structs "
                              f"of those)")
        if p.reference:
            raise NotRunnable(f"parameter `{p.name}` of `{fn.name}` is a reference, which confirm mode cannot pass")
        derived = table.launch.derived.get(p.name)
        if p.name in table.params:
            value = sim.param(p.name)
            origin = "default" if p.name in sim.defaulted_params else \
                table.launch.provenance.get(p.name) or "given"
        elif derived is not None and sim._scalar(derived) is not None:
            # `count` passed as `n / 3` at every launch: that value of the run's `n`
            value = sim._scalar(derived)
            origin = table.launch.provenance.get(p.name) or f"{derived} at every launch"
        else:
            value, origin = 1.0 if dtype.startswith("float") else 1, "data value"
        args.append(Arg(p.name, "scalar", dtype, value=value, origin=origin))
    _check_buffers(fn, table, args, typedefs)
    for a in args + [m for a in args for m in a.members]:
        if a.kind == "buffer" and "default size" in a.origin:
            notes.append(f"`{a.name}`: {a.origin} ({a.elements} elements)")
    grid = tuple(int(g) for g in sim.grid)
    job = Job(fn.name, expr, grid, tuple(int(b) for b in sim.block),
              smem, sampled_blocks(grid), args, nsites, notes=notes, smem_origin=smem_origin)
    job.invented = list(dict.fromkeys(invented_values(sim) + [
        f"{a.name}.{f[0]}={f[4]}" for a in args if a.kind == "struct" for f in a.fields
        if (f"{a.name}.{f[0]}" not in table.params or f"{a.name}.{f[0]}" in sim.defaulted_params)
        and not isinstance(f[4], list)] + [
        f"{a.name}.{f[0]}[{k}]={v}" for a in args if a.kind == "struct" for f in a.fields
        if isinstance(f[4], list) for k, v in enumerate(f[4]) if f"{a.name}.{f[0]}[{k}]" not in table.params]))
    job.values = program_values(table, sim, args)
    return job


def _enum_dtype(t: str) -> str | None:
    """An enumeration travels as its underlying type: the one it names (`enum class Op : uint8_t`),
    else int (every enumerator of a C enum fits an int)."""
    m = re.match(r"enum\b(?:\s+(?:class|struct))?(?:\s+\w+)?\s*(?::\s*([\w\s]+?)\s*)?\{", t)
    if m is None:
        return None
    return _DTYPES.get(" ".join(m.group(1).split())) if m.group(1) else "int32"


def _bare(t: str) -> str:
    return " ".join(w for w in t.split() if w not in ("const", "volatile", "struct", "class"))


def _buffer(table, sim: Simulation, sizes: dict, name: str, elem_type: str, elem_size: int, bindings: dict,
            unfollowed: str = "no index of it is followed; default size") -> Arg:
    """The buffer of a pointer (a parameter, or a member of a struct passed by value: `p.in`) at the size
    the program allocates, else one past the largest index its accesses take, else the default size."""
    n, origin = allocated(table, sim, name, elem_size, bindings) or sizes.get(name, (DEFAULT_BUFFER_ELEMENTS, unfollowed))
    dtype = _DTYPES.get(elem_type)
    if dtype is None:   # vector and struct element types travel as raw bytes
        return Arg(name, "buffer", "uint8", n * elem_size, elem_size, origin=origin)
    return Arg(name, "buffer", dtype, n, elem_size, origin=origin)


def _member_buffer(table, sim: Simulation, sizes: dict, m: Arg, bindings: dict, types) -> Arg:
    """The buffer a pointer member of a struct passed by value points to: sized from the model's array
    of that name where the kernel's accesses through the member are modelled (`p.in[i]`), else at the
    default size; `m.dtype` holds the member's element type until then."""
    arr = table.arrays.get(m.name)
    if arr is not None and arr.space == "global":
        out = _buffer(table, sim, sizes, m.name, arr.elem_type, arr.elem_size, bindings)
    else:
        types = types or BUILTINS
        elem = types.resolve(m.dtype, bindings)
        out = _buffer(table, sim, sizes, m.name, elem, types.size(elem, bindings) or 1, bindings,
                      "no access through it is modelled; default size")
    out.offset = m.offset
    return out


def run_types(table, aliases: dict[str, str] | None = None):
    """The unit's type table with the aliases the run's copy adds (`int32` of OpenFst's types header,
    which the machine lacks: unit.py's documented aliases)."""
    types = table.types
    if types is None or not aliases:
        return types
    return TypeTable(types.structs, {**aliases, **types.typedefs}, types.value_of)


def pointer_members(fn: FunctionDef, table, args: list[Arg] | None = None,
                    aliases: dict[str, str] | None = None) -> list[str]:
    """The pointer members of the kernel's class parameters passed by value (`p.in`), in the order
    the run registers their buffers after the pointer parameters' (a parameter's members in the order
    of its layout): instrument.bind_checks checks an access written `p.in[i]` against its buffer by
    this order, from the model's own bindings; `args`: the plan's structs instead."""
    if args is not None:
        return [m.name for a in args for m in a.members]
    types = run_types(table, aliases)
    out = []
    for p in fn.params:
        if p.pointers or p.reference:
            continue
        try:
            got = struct_arg(table, p.name, p.type_name, table.template_bindings, types)
        except NotRunnable:
            got = None
        out += [m.name for m in got.members] if got is not None else []
    return out


def _check_buffers(fn: FunctionDef, table, args: list[Arg], aliases: dict[str, str] | None) -> None:
    """The log checks each address against at most MAX_BUFFERS buffers, and an access written through
    a struct's pointer member against the buffer the model's layout gives it."""
    total = sum(1 for a in args if a.kind == "buffer") + sum(len(a.members) for a in args)
    if total > MAX_BUFFERS:
        raise NotRunnable(f"`{fn.name}` takes {total} buffers (its pointer parameters and the pointer members of "
                          f"its structs), more than the {MAX_BUFFERS} the log checks")
    bound = pointer_members(fn, table, aliases=aliases)
    if pointer_members(fn, table, args)[:len(bound)] != bound:
        raise NotRunnable(f"the pointer members of `{fn.name}`'s structs are not those the model laid out "
                          f"({', '.join(bound)})")


def struct_arg(table, name: str, type_name: str, bindings: dict | None = None, types=None) -> Arg | None:
    """A struct or class passed by value (`MatrixDim d`, `Params p`), laid out as the unit's type table
    lays it out (padding, alignment, base classes, nested structs, fixed arrays): its scalar members
    take stand-in values (the kernel reads them as data), each pointer member becomes a buffer whose
    address the struct's bytes hold (`members`, sized by the plan; `dtype` the pointee type until then),
    an empty one (a functor) is its size in zero bytes. None for a type that is not a class the unit
    defines. `types`: the run's type table (run_types), else the unit's."""
    types = types or table.types
    if types is None:
        return None
    layout = types.layout(type_name, bindings)
    resolved = types.resolve(type_name, bindings)
    if layout is None or resolved.endswith("*") or (not layout.members and builtin_layout(resolved) is not None):
        return None
    if types.specialized(type_name, bindings):
        raise NotRunnable(f"parameter `{name}` has type `{type_name}`, a class template its file specializes, "
                          f"whose layout for these arguments cudalint does not know")
    fields: list = []
    pointers: list[Arg] = []
    _flatten(types, layout, bindings, name, "", 0, fields, pointers)
    spans = sorted([(f[2], f[2] + np.dtype(f[1]).itemsize * f[3], f"{name}.{f[0]}", False) for f in fields] +
                   [(m.offset, m.offset + 8, m.name, True) for m in pointers])
    for (_, end, a, a_pointer), (start, _, b, b_pointer) in zip(spans, spans[1:]):
        if start < end and (a_pointer or b_pointer):     # a union of a pointer and another member
            pointer, other = (a, b) if a_pointer else (b, a)
            raise NotRunnable(f"pointer member `{pointer}` of parameter `{name}` shares its bytes with `{other}`, "
                              f"and which one the kernel reads is not known")
    return Arg(name, "struct", "", elements=layout.size, elem_size=layout.size, origin="stand-in member values",
               fields=fields, members=pointers)


def _flatten(types, layout, bindings: dict | None, param: str, prefix: str, base: int, fields: list,
             pointers: list) -> None:
    """The leaves of a struct's layout: scalars (and arrays of them) into `fields`, pointers into
    `pointers`, nested structs and arrays of structs followed member by member."""
    for m in layout.members:
        if len(fields) + len(pointers) > MAX_STRUCT_MEMBERS:
            raise NotRunnable(f"parameter `{param}` has more than {MAX_STRUCT_MEMBERS} members")
        path, at = prefix + m.name, base + m.offset
        names = [path] if m.count == 1 else [f"{path}[{i}]" for i in range(m.count)]
        if m.type.endswith("*"):
            pointers += [Arg(f"{param}.{n}", "buffer", m.type[:-1].strip(), offset=at + i * m.size)
                         for i, n in enumerate(names)]
            continue
        dt = _DTYPES.get(" ".join(w for w in m.type.split() if w not in ("const", "volatile")))
        if dt is not None:
            fields.append([path, dt, at, m.count, _stand_in(dt)])
            continue
        inner = types.layout(m.type, bindings) or types.layout(m.type)
        if inner is None or inner.size != m.size:
            raise NotRunnable(f"member `{param}.{path}` has type `{m.type}`, which the unit does not lay out")
        if not inner.members:
            if builtin_layout(m.type) is not None:     # a type with no numpy dtype (`__nv_bfloat16`): zero bytes
                fields.append([path, f"V{inner.size}", at, m.count, 0])
            continue                                    # an empty struct: its bytes stay zero
        for i, n in enumerate(names):
            _flatten(types, inner, bindings, param, n + ".", at + i * m.size, fields, pointers)


def _simulated_members(arg: Arg, table, sim: Simulation) -> None:
    """A scalar member the model reads as a size (`p.n` in `if (i < p.n)`) takes the value the
    simulation gave it (the program's, or the one it chose), so that the buffers sized from the
    simulation fit the run."""
    for f in arg.fields:
        name = f"{arg.name}.{f[0]}"
        if np.dtype(f[1]).kind not in "iu":
            continue
        info = np.iinfo(f[1])
        if name in table.params and f[3] == 1:
            f[4] = int(min(max(int(sim.param(name)), info.min), info.max))
        elif f[3] > 1 and any(f"{name}[{k}]" in table.params for k in range(f[3])):
            # an array member read element by element as sizes (`t.shape[0] * t.shape[1]`)
            f[4] = [int(min(max(int(sim.param(f"{name}[{k}]")), info.min), info.max))
                    if f"{name}[{k}]" in table.params else f[4] for k in range(f[3])]


def _stand_in(dt: str) -> float | int:
    """The value a scalar member takes: 1.0 for a float, true, else an integer that keeps the kernel's
    loops short (at most the type's largest value)."""
    if dt.startswith("float"):
        return 1.0
    if dt == "bool":
        return 1
    return int(min(STAND_IN, np.iinfo(dt).max))


def program_values(table, sim: Simulation, args: list[Arg]) -> list[str]:
    """The integer values of the run that the program (or the user) gives, each with where it comes
    from: `n=4096 (every launch passes 4096)`."""
    out = []
    for a in args:
        if a.kind == "scalar" and a.origin not in ("default", "data value") and a.name in table.launch.values:
            out.append(f"{a.name}={a.value} ({a.origin})")
        for f in a.fields:        # a struct's member the model reads with a value the program gives
            name = f"{a.name}.{f[0]}"
            if name in table.params and name not in sim.defaulted_params:
                out.append(f"{name}={f[4]} ({table.launch.provenance.get(name) or 'given'})")
    if sim.launch_known and table.launch.provenance.get("blockDim"):
        out.append("blockDim=(" + ", ".join(map(str, sim.block)) + f") ({table.launch.provenance['blockDim']})")
    if sim.grid_known and table.launch.provenance.get("gridDim"):
        out.append("gridDim=(" + ", ".join(map(str, sim.grid)) + f") ({table.launch.provenance['gridDim']})")
    return out


def allocated(table, sim: Simulation, name: str, elem_size: int, bindings: dict | None = None) -> tuple[int, str] | None:
    """Elements of the allocation the launch passes to pointer `name` (LaunchConfig.extents, in
    bytes), at the run's values; None where the program gives none or it cannot be computed."""
    ext = table.launch.extents.get(name)
    if ext is None or elem_size <= 0:
        return None
    env = _sizes_env(ext, table, sim, bindings)
    try:
        nbytes = int(Evaluator(env).value(ext))
    except (Unknown, TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    if nbytes <= 0:
        return None
    return -(-nbytes // elem_size), f"the allocation the program passes ({nbytes} bytes)"


def _sizes_env(e, table, sim: Simulation, bindings: dict | None = None) -> dict:
    """The values of an expression's `sizeof(T)` and kernel parameters for one run."""
    env = {}
    for s in e.walk():
        if not isinstance(s, ir.Sym):
            continue
        m = _SIZEOF.match(s.name)
        if m is not None:
            t = (bindings or table.template_bindings).get(m.group(1), m.group(1))
            size = (table.types or BUILTINS).size(t)
            if size is not None:
                env[s.name] = size
        elif s.kind == "param":
            env[s.name] = sim.param(s.name)
    return env


def invented_values(sim: Simulation) -> list[str]:
    """The values of the run the program does not give and the user did not either."""
    out = []
    if not sim.launch_known:
        names = sim.family.block_names
        if names:
            out += [f"{n}={sim.param(n)}" for n in names]
        else:
            out.append("blockDim=(" + ", ".join(map(str, sim.block)) + ")")
    if not sim.grid_known:
        out.append("gridDim=(" + ", ".join(map(str, sim.grid)) + ")")
    out += [f"{n}={sim.param(n)}" for n in sim.defaulted_params if n not in sim.family.block_names]
    return list(dict.fromkeys(out))


_SIZEOF = re.compile(r"^sizeof\s*\(?\s*(.*?)\s*\)?$")


def dynamic_shared(table, sim: Simulation, given: int | None, bindings: dict | None = None) -> tuple[int, str]:
    """Bytes of dynamic shared memory: the launch's own expression with the values of the grid
    and block; else the largest `extern __shared__` index the model computes; else `--smem`."""
    extern = [a for a in table.accesses if a.space == "shared" and a.array.extern]
    if given is not None:
        return given, "--smem"
    if table.launch.smem is not None:
        env = _sizes_env(table.launch.smem, table, sim, bindings)
        try:
            return int(Evaluator(env).value(table.launch.smem)), "launch"
        except (Unknown, TypeError, ValueError, OverflowError):
            pass
    if not extern:
        return 0, ""
    top = 0
    run_blocks = sampled_blocks(tuple(int(g) for g in sim.grid))
    for acc in extern:
        try:
            rows = [(b, c) for b in run_blocks for c in capped_product([sim.loop_samples(it) for it in acc.loops])]
            env = sim.lane_env([acc.index, *acc.guards], acc.loops, rows)
            shape = (len(rows), sim.nthreads)
            mask = sim.mask(acc, env, shape)
            idx = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index)), shape)
        except (Unknown, TypeError, ValueError, MemoryError, OverflowError):
            raise NotRunnable(f"the dynamic shared memory of `{table.kernel}`'s launch is not known (give "
                              f"`--smem {table.kernel}=BYTES`)") from None
        if mask.any():
            top = max(top, int(acc.byte_address(int(idx[mask].max()))) + max(acc.width, acc.array.elem_size))
    if top <= 0:
        raise NotRunnable(f"the dynamic shared memory of `{table.kernel}`'s launch is not known (give "
                          f"`--smem {table.kernel}=BYTES`)")
    return top, "largest extern __shared__ index"


def logical_sizes(table, sim: Simulation) -> dict[str, tuple[int, str]]:
    """Elements of each global array: one past the largest element its accesses touch, over the
    simulation's sampled blocks and iterations (for an unguarded access, only the threads inside
    the problem: the ones past a ceil-div grid's problem size are what the run must catch)."""
    out: dict[str, tuple[int, str]] = {}
    run_blocks = sampled_blocks(tuple(int(g) for g in sim.grid))
    for acc in table.accesses:
        if acc.space != "global" or acc.unresolved:
            continue
        try:
            # the blocks the run launches, not only the simulation's samples: a block the sizing
            # skipped would read past a buffer the kernel's own guard keeps it inside
            iters = [sim.loop_samples(it) for it in acc.loops]
            rows = [(b, c) for b in run_blocks for c in capped_product(iters)]
            env = sim.lane_env([acc.index, *acc.dims, *acc.guards], acc.loops, rows)
            n = len(rows)
            shape = (n, sim.nthreads)
            mask = sim.mask(acc, env, shape)
            if sim.result(acc).excess is not None:   # unguarded: the excess threads are what is measured
                mask &= _inside_problem(table, sim, env, shape)
            if not mask.any():
                continue
            idx = np.broadcast_to(np.asarray(Evaluator(env).value(acc.index)), shape)
        except (Unknown, TypeError, ValueError, MemoryError):
            continue
        span = -(-acc.width // acc.array.elem_size) if acc.array.elem_size else 1
        hi = int(np.floor(idx[mask].max())) + span
        if hi > out.get(acc.array.name, (0, ""))[0]:
            out[acc.array.name] = (hi, f"largest index of the in-range threads + 1 (`{acc.text}`)")
    return out


def _inside_problem(table, sim: Simulation, env, shape) -> np.ndarray:
    keep = np.ones(shape, dtype=bool)
    grid = table.launch.grid
    if grid is None:
        return keep
    for axis_i, axis in enumerate("xyz"):
        ext = sim._grid_extent(grid[axis_i], axis_i)
        if ext is None:
            continue
        coord = np.asarray(env[f"blockIdx.{axis}"]) * sim.block[axis_i] + sim.tid[f"threadIdx.{axis}"][None, :]
        keep &= np.broadcast_to(coord < ext[1], shape)
    return keep
