"""The size and layout of a C/C++ type: the one place every stage asks.

Built-in types (scalars, CUDA's vector types, `half2`, `__nv_bfloat162`) have fixed sizes and
alignments; a translation unit adds its `struct`/`class`/`union` definitions, its `typedef` and
`using` aliases, and a kernel its template bindings. A layout follows the C rules nvcc applies:
each member at the next multiple of its alignment, the whole padded to the largest alignment
(or `__align__(N)` / `alignas(N)`), a union as large as its largest member, arrays of members,
nested structs, a base class first.

What is not known (a bit-field, a member whose type or extent the unit does not give) makes the
whole layout unknown: a size cudalint made up never becomes an address.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "class", "union",
               "typename", "constexpr", "static", "register", "mutable", "__device__", "__shared__",
               "__constant__", "__managed__", "inline", "__forceinline__"}

# C element types: (size, alignment) in bytes
_SCALARS = {
    "char": 1, "unsigned char": 1, "bool": 1, "int8_t": 1, "uint8_t": 1, "__nv_fp8_e4m3": 1,
    "__nv_fp8_e5m2": 1, "uchar": 1,
    "short": 2, "unsigned short": 2, "int16_t": 2, "uint16_t": 2, "short int": 2, "ushort": 2,
    "half": 2, "__half": 2, "__nv_bfloat16": 2, "nv_bfloat16": 2, "__nv_half": 2,
    "int": 4, "uint": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "int32_t": 4, "uint32_t": 4,
    "half2": 4, "__half2": 4, "__nv_bfloat162": 4, "nv_bfloat162": 4, "__nv_half2": 4, "wchar_t": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "double": 8, "long int": 8,
    "long long int": 8, "unsigned long long int": 8, "unsigned long int": 8,
    "int64_t": 8, "uint64_t": 8, "size_t": 8, "ssize_t": 8, "ptrdiff_t": 8, "intptr_t": 8, "uintptr_t": 8,
    "ulong": 8, "longlong": 8, "ulonglong": 8,
    "cuComplex": 8, "cuFloatComplex": 8, "cuDoubleComplex": 16,
    # cuFFT's (cufft.h): cuComplex, cuDoubleComplex and the reals
    "cufftComplex": 8, "cufftDoubleComplex": 16, "cufftReal": 4, "cufftDoubleReal": 8,
    # the CUDA toolkit's storage types (cuda_fp8.h, cuda_fp16.h, cuda_bf16.h)
    "__nv_fp8_storage_t": 1, "__nv_fp8x2_storage_t": 2, "__nv_fp8x4_storage_t": 4,
    "__nv_fp8x2_e4m3": 2, "__nv_fp8x2_e5m2": 2, "__nv_fp8x4_e4m3": 4, "__nv_fp8x4_e5m2": 4,
    "__half_raw": 2, "__nv_bfloat16_raw": 2, "__half2_raw": 4, "__nv_bfloat162_raw": 4,
    # PyTorch's scalar types (c10/util), the element types of its extensions' kernels, from headers
    # the extension's unit includes but a lint does not read
    **{f"{ns}::{n}": w for ns in ("c10", "at") for n, w in (
        ("Half", 2), ("BFloat16", 2), ("Float8_e4m3fn", 1), ("Float8_e5m2", 1), ("Float8_e4m3fnuz", 1),
        ("Float8_e5m2fnuz", 1), ("qint8", 1), ("quint8", 1), ("qint32", 4), ("complex<float>", 8),
        ("complex<double>", 16), ("complex<c10::Half>", 4), ("complex<at::Half>", 4))},
}
# the fixed-width names whose width is their name (`int32`, `uint64`, `u8`, `s16`, `i32`), as the
# headers outside the unit that usually give them do (a third-party `types.h`, a system one): a
# typedef the unit gives is read first
_WIDTH_NAMED = {f"{p}{n}": n // 8 for n in (8, 16, 32, 64) for p in ("int", "uint", "u", "s", "i")}
_SCALARS.update(_WIDTH_NAMED)
# alignments that differ from the size
_SCALAR_ALIGN = {"cuDoubleComplex": 16, "cufftDoubleComplex": 16}
_VECTOR_BASES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "float": 4,
                 "long": 8, "ulong": 8, "longlong": 8, "ulonglong": 8, "double": 8}
_VECTOR = re.compile(r"^(u?char|u?short|u?int|float|u?long|u?longlong|double)([1-4])(?:_16a|_32a)?$")


def _words(name: str) -> str:
    return " ".join(w for w in name.replace("*", " * ").split() if w not in _QUALIFIERS)


def builtin_layout(name: str) -> tuple[int, int] | None:
    """(size, alignment) of a built-in C or CUDA type, else None."""
    name = _words(name)
    if name.startswith("signed "):
        name = name[7:]
    elif name == "signed":
        name = "int"
    if name.endswith(" int") and name != "unsigned int":        # `short int`, `unsigned long int`
        name = name[:-4]
    size = _SCALARS.get(name)
    if size is not None:
        return size, _SCALAR_ALIGN.get(name, size)
    m = _VECTOR.match(name)
    if m is not None:
        base, n = _VECTOR_BASES[m.group(1)], int(m.group(2))
        size = base * n
        # CUDA's vector types: 2- and 4-element ones aligned to their size (at most 16 bytes, or 32
        # for the `_32a` kinds), 3-element ones to their element
        if name.endswith("_32a"):
            return size, 32
        align = base if n == 3 else min(size, 16)
        return size, align
    return None


def builtin_size(name: str) -> int | None:
    """Size in bytes of a built-in C/CUDA element type name, or None if unknown."""
    got = builtin_layout(name)
    return got[0] if got is not None else None


@dataclass(frozen=True)
class Member:
    name: str
    type: str                   # the member's type as resolved ("float", "Vec3", "float*")
    offset: int                 # bytes from the start of the enclosing struct
    size: int                   # bytes of one element
    align: int
    count: int = 1              # elements of an array member (`float w[4]`: 4)
    dims: tuple[int, ...] = ()  # extents of an array member, outermost first

    @property
    def bytes(self) -> int:
        return self.size * self.count


@dataclass(frozen=True)
class Layout:
    name: str
    size: int
    align: int
    members: tuple[Member, ...] = ()

    def member(self, name: str) -> Member | None:
        for m in self.members:
            if m.name == name:
                return m
        return None


@dataclass
class FieldDecl:
    """One member as the source writes it (collected by source/cufile.py)."""
    name: str                                  # "" for an anonymous struct/union member
    type_text: str
    dims: tuple[str | None, ...] = ()          # array extents as written, outermost first
    pointers: int = 0
    bitfield: str | None = None                # a bit-field's width as written
    nested: "StructDef | None" = None          # an anonymous (or in-place) struct/union definition
    reference: bool = False


@dataclass
class StructDef:
    """A struct/class/union definition of the unit, as written."""
    name: str                                  # qualified: `ns::Vec3`
    kind: str                                  # struct | class | union
    fields: list[FieldDecl] = field(default_factory=list)
    align_text: str | None = None              # `__align__(16)`, `alignas(16)`: its argument
    template_params: tuple[str, ...] = ()      # `template <typename T, int N> struct Pack`
    bases: tuple[str, ...] = ()
    file: object = None                        # the SourceFile
    line: int = 0


_TEMPLATE_ID = re.compile(r"^([\w:]+)\s*<(.*)>$", re.DOTALL)


def template_id(text: str) -> tuple[str, list[str]] | None:
    """(name, arguments) of a class template's instance written `Array<T, 8>`; None for another name."""
    m = _TEMPLATE_ID.match(text.strip())
    return None if m is None else (m.group(1), split_top_level(m.group(2)))


def split_top_level(text: str) -> list[str]:
    """The items of an argument list (`T, 128, cub::BLOCK_LOAD_VECTORIZE`), split at the commas outside
    brackets, each stripped; a trailing empty item is dropped. A `<` opens a template's arguments where
    it follows a name and is no operator (`1 << 24`, `a <= b`, `n < m` written with spaces, `p->x`);
    where angle brackets do not pair, only the others count."""
    out = _split(text, True)
    return out if out is not None else (_split(text, False) or [])


def _split(text: str, angles: bool) -> list[str] | None:
    out, depth, angle, cur = [], 0, 0, []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif angles and ch == "<":
            if nxt in "<=":                         # `<<`, `<=`: operators
                cur.append(ch + nxt)
                i += 2
                continue
            before = text[:i].rstrip()
            spaced = i > 0 and text[i - 1] == " " and nxt == " "
            if before and (before[-1].isalnum() or before[-1] in "_:") and not spaced:
                angle += 1
        elif angles and ch == ">":
            prev = text[i - 1] if i else ""
            if prev == "-" or nxt == "=":           # `->`, `>=`
                pass
            elif nxt == ">" and angle < 2:          # `>>`: a shift unless it closes two lists
                if angle == 1:
                    angle = 0
                cur.append(ch + nxt)
                i += 2
                continue
            elif angle > 0:
                angle -= 1
        if ch == "," and depth == 0 and angle == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    if angle != 0:
        return None
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


class TypeTable:
    """The types a translation unit defines, with the layouts worked out from them on demand."""

    MAX_DEPTH = 16            # typedef chains and nested structs followed this deep

    def __init__(self, structs: dict[str, StructDef] | None = None, typedefs: dict[str, str] | None = None,
                 value_of=None):
        self.structs = structs or {}
        self.typedefs = typedefs or {}
        # `value_of(text, struct) -> int | None`: an integer constant expression of the unit (an array
        # member's extent), read with the macros and constants where the struct stands
        self.value_of = value_of
        self._short: dict[str, str] = {}
        for q in self.structs:
            self._short.setdefault(q.split("::")[-1], q)
        self._layouts: dict[tuple, Layout | None] = {}

    # ---- names -----------------------------------------------------------------------------
    def defines(self, name: str) -> bool:
        """The unit defines `name` as a struct/class/union or an alias."""
        base = _words(name).split("<")[0].strip()
        return base in self.typedefs or base in self.structs or base.split("::")[-1] in self._short

    def resolve(self, name: str, bindings: dict[str, str] | None = None) -> str:
        """`name` with template parameters bound, typedef/using aliases followed and qualifiers
        dropped (`const Pixel` -> `unsigned char`)."""
        t = _words(name)
        for _ in range(self.MAX_DEPTH):
            if bindings and t in bindings and bindings[t] and bindings[t] != t:
                t = _words(bindings[t])
                continue
            if builtin_layout(t) is not None and not (t in _WIDTH_NAMED and (t in self.typedefs or t in self.structs)):
                return t
            if t in self.structs:
                return t
            chosen = self._conditional(t, bindings)
            if chosen is not None:       # `std::conditional_t<(D <= 1), ushort4, uint4>` at D's value
                t = _words(chosen)
                continue
            target = self.typedefs.get(t)
            if target is not None and "{" in target:       # `typedef struct {...} Pt;`: the struct itself
                return t
            if target is None and "::" in t:
                qual, member = t.rsplit("::", 1)
                if "<" in qual:
                    # `Pack<T, 8>::type`: the member of that class template, if the unit has it and
                    # no specialization of it may be the instance (a specialization's member need
                    # not be the primary's); never another class's `type`
                    spec = self._specialization(qual, bindings)
                    if not isinstance(spec, str):
                        return t
                    target = self.typedefs.get(spec + "::" + member)
                    if target is None or _words(target) == t:
                        return t
                    t = _words(target)
                    continue
                target = self.typedefs.get(member)
                if target is None and builtin_layout(t.split("::")[-1]) is not None:
                    return t.split("::")[-1]
            if target is None or _words(target) == t:
                return t
            t = _words(target)
        return t

    def _struct(self, name: str) -> tuple[StructDef, dict[str, str]] | None:
        args: list[str] = []
        got = template_id(name)
        if got is not None:
            name, args = got
        sd = self.structs.get(name) or self.structs.get(self._short.get(name.split("::")[-1], ""))
        if sd is None:
            return None
        return sd, dict(zip(sd.template_params, args))

    def fields_of(self, name: str) -> list[str] | None:
        """The names of a struct's members in declaration order (what `auto [a, b] = s;` binds),
        None where `name` is no struct the unit defines."""
        got = self._struct(self.resolve(name))
        if got is None:
            return None
        return [f.name for f in got[0].fields if f.name]

    def declared(self, name: str, path: str, bindings: dict[str, str] | None = None) -> str | None:
        """The type a member is declared with, through nested members (`view.data_` -> `int2*`),
        template parameters bound: what a member is, where the struct cannot be laid out (another
        member's size not known). None for a member the unit does not declare, or an array member."""
        t = self.resolve(name, bindings)
        bindings = dict(bindings or {})
        for part in path.split("."):
            found = self._struct(t)
            if found is None:       # a component of a vector type: `p.size.x` of an `int2 size`
                vec = _builtin(t)
                m = next((m for m in vec.members if m.name == part), None) if vec is not None else None
                if m is None:
                    return None
                t = m.type
                continue
            sd, own = found
            bindings.update({k: self.resolve(v, bindings) for k, v in own.items()})
            fd = self._field(sd, part, bindings)
            if fd is None or fd.dims or fd.reference:
                return None
            t = self.resolve(fd.type_text, bindings) + "*" * fd.pointers
        return t

    def _field(self, sd: StructDef, name: str, bindings: dict[str, str], depth: int = 0) -> FieldDecl | None:
        """Member `name` of `sd`, of an anonymous member of it, or of a base class."""
        for fd in sd.fields:
            if fd.name == name:
                return fd
            if not fd.name and fd.nested is not None and depth < self.MAX_DEPTH:
                got = self._field(fd.nested, name, bindings, depth + 1)
                if got is not None:
                    return got
        for base in sd.bases:
            found = self._struct(self.resolve(base, bindings))
            if found is not None and depth < self.MAX_DEPTH:
                got = self._field(found[0], name, {**bindings, **found[1]}, depth + 1)
                if got is not None:
                    return got
        return None

    # ---- layouts ---------------------------------------------------------------------------
    def layout(self, name: str, bindings: dict[str, str] | None = None, _depth: int = 0) -> Layout | None:
        """Size, alignment and members of a type; None where the unit does not say."""
        if _depth > self.MAX_DEPTH:
            return None
        t = self.resolve(name, bindings)
        if t.endswith("*"):
            return Layout(t, 8, 8)
        got = _builtin(t) if not (t in _WIDTH_NAMED and t in self.structs) else None
        if got is not None:
            return got
        key = (t, tuple(sorted((bindings or {}).items())))
        if key in self._layouts:
            return self._layouts[key]
        self._layouts[key] = None          # a struct holding itself (through no pointer) has no layout
        found = self._struct(t)
        out = None
        if found is not None:
            sd, own = found
            inner = {**(bindings or {}), **{k: self.resolve(v, bindings) for k, v in own.items()}}
            out = self._compute(sd, inner, _depth)
        self._layouts[key] = out
        return out

    def _compute(self, sd: StructDef, bindings: dict[str, str], depth: int) -> Layout | None:
        offset, align, members = 0, 1, []
        union = sd.kind == "union"
        size = 0
        for base in sd.bases:
            lay = self.layout(base, bindings, depth + 1)
            if lay is None:
                return None
            offset = _up(offset, lay.align)
            members += [Member(m.name, m.type, offset + m.offset, m.size, m.align, m.count, m.dims)
                        for m in lay.members]
            offset += lay.size
            align = max(align, lay.align)
        bits = None               # the bit-field storage unit being filled: (offset, size, bits used)
        for f in sd.fields:
            if f.bitfield is not None:
                lay = self.layout(f.type_text, bindings, depth + 1)
                width = self._extent(f.bitfield, sd, bindings)
                if lay is None or width is None or not 0 <= width <= lay.size * 8:
                    return None
                if bits is not None and bits[1] == lay.size and bits[2] + width <= lay.size * 8 and width:
                    bits = (bits[0], bits[1], bits[2] + width)
                else:
                    at = 0 if union else _up(offset, lay.align)
                    bits = (at, lay.size, width)
                    offset = at + lay.size if not union else offset
                    size = max(size, lay.size)
                    align = max(align, lay.align)
                if f.name:
                    members.append(Member(f.name, self.resolve(f.type_text, bindings), bits[0], lay.size, lay.align))
                continue
            bits = None
            if f.nested is not None:
                lay = self._compute(f.nested, bindings, depth + 1)
                tname = f.nested.name or f"{sd.name}::{f.name or '(anonymous)'}@"
                if lay is not None and not f.nested.name:      # found again by member()
                    self._layouts[(tname, ())] = lay
                    if bindings:        # (and where the enclosing type is laid out with template arguments)
                        self._layouts[(tname, tuple(sorted(bindings.items())))] = lay
            elif f.pointers or f.reference:
                lay, tname = Layout("*", 8, 8), self.resolve(f.type_text, bindings) + "*" * max(1, f.pointers)
            else:
                tname = self.resolve(f.type_text, bindings)
                lay = self.layout(tname, bindings, depth + 1)
            if lay is None:
                return None
            dims = []
            for d in f.dims:
                v = self._extent(d, sd, bindings)
                if v is None or v < 0:
                    return None
                dims.append(v)
            count = 1
            for d in dims:
                count *= d
            at = 0 if union else _up(offset, lay.align)
            if f.nested is not None and not f.name:       # anonymous: its members are the struct's own
                members += [Member(m.name, m.type, at + m.offset, m.size, m.align, m.count, m.dims)
                            for m in lay.members]
            else:
                members.append(Member(f.name, tname, at, lay.size, lay.align, count, tuple(dims)))
            align = max(align, lay.align)
            if union:
                size = max(size, lay.size * count)
            else:
                offset = at + lay.size * count
        if sd.align_text is not None:
            forced = self._extent(sd.align_text, sd, bindings)
            if forced is None or forced <= 0 or forced & (forced - 1):
                return None
            align = max(align, forced)
        total = _up(size if union else offset, align)
        return Layout(sd.name, max(total, 1) if not sd.fields and not sd.bases else total, align, tuple(members))

    def _extent(self, text: str | None, sd: StructDef, bindings: dict[str, str]) -> int | None:
        if text is None:
            return None
        text = text.strip()
        if text.isdigit():
            return int(text)
        if bindings and text in bindings and bindings[text].strip().isdigit():
            return int(bindings[text])
        if self.value_of is None:
            return None
        return self.value_of(text, sd, bindings)

    # ---- what the other stages ask ---------------------------------------------------------
    def size(self, name: str, bindings: dict[str, str] | None = None) -> int | None:
        lay = self.layout(name, bindings)
        return lay.size if lay is not None else None

    def align(self, name: str, bindings: dict[str, str] | None = None) -> int | None:
        lay = self.layout(name, bindings)
        return lay.align if lay is not None else None

    _CONDITIONAL = re.compile(r"^(?:std::)?conditional(?:_t\s*<(?P<a>.*)>|\s*<(?P<b>.*)>\s*::\s*type)$", re.DOTALL)

    def _conditional(self, t: str, bindings: dict[str, str] | None) -> str | None:
        """The type `std::conditional_t<C, A, B>` (or `std::conditional<C, A, B>::type`) names where
        the unit's constants and the template's values fold C; None otherwise."""
        if "conditional" not in t:
            return None
        m = self._CONDITIONAL.match(t)
        if m is None:
            return None
        text = m.group("a") if m.group("a") is not None else m.group("b")
        depth, cut = 0, None
        for i, ch in enumerate(text):       # the condition ends at the first comma outside brackets
            depth += ch in "([{"            # (its `<` and `>` are comparisons, not a template's)
            depth -= ch in ")]}"
            if ch == "," and depth == 0:
                cut = i
                break
        args = [text[:cut].strip(), *split_top_level(text[cut + 1:])] if cut is not None else []
        fold = getattr(self.value_of, "fold", None)
        if len(args) != 3 or fold is None:
            return None
        v = fold(args[0], None, 0, self.value_of.constants, self, bindings)
        return None if v is None else (args[1] if v else args[2])

    def _specialization(self, name: str, bindings: dict[str, str] | None = None) -> str | bool:
        """Which of its class template's definitions instance `name` (`vec4<float>`) is, by its name
        in the tables: the primary's (`ns::vec4`), or the explicit specialization with the same
        arguments (`ns::vec4<double>` for `template <> struct vec4<double>`); True where that is not
        known (a partial specialization may take it, or the template is not in the unit)."""
        m = _TEMPLATE_ID.match(_words(name))
        if m is None:
            return True
        found = self._struct(self.resolve(name))
        text = getattr(found[0].file, "text", None) or "" if found is not None else ""
        short = re.escape((found[0].name if found is not None else m.group(1)).split("::")[-1])
        args = [self.resolve(a, bindings) for a in split_top_level(m.group(2))]
        if found is None:
            return True
        for s in re.finditer(r"template\s*<([^<>]*)>\s*(?:struct|class|union)\s+" + short + r"\s*<([^{;]*)>\s*[{:]", text):
            if s.group(1).strip():
                return True         # a partial specialization: which instances it takes is not read
            theirs = split_top_level(s.group(2))
            if [self.resolve(a) for a in theirs] == args:
                return found[0].name + "<" + ", ".join(" ".join(a.split()) for a in theirs) + ">"
        return found[0].name

    def specialized(self, name: str, bindings: dict[str, str] | None = None) -> bool:
        """`name` is an instance of a class template that its file also specializes (`template <>
        struct Op<SUM, float>`, a partial specialization): the table holds the primary template only,
        whose layout need not be the instance's."""
        found = self._struct(self.resolve(name, bindings))
        if found is None or not found[0].template_params:
            return False
        text = getattr(found[0].file, "text", None) or ""
        short = re.escape(found[0].name.split("::")[-1])
        return re.search(r"\b(?:struct|class|union)\s+" + short + r"\s*<", text) is not None

    def member(self, name: str, path: str, bindings: dict[str, str] | None = None) -> Member | None:
        """A member of a struct type, through nested members (`pos.x`): its offset from the start of
        the outermost struct, its type and size."""
        lay = self.layout(name, bindings)
        offset = 0
        m = None
        for part in path.split("."):
            if lay is None:
                return None
            m = lay.member(part)
            if m is None:
                return None
            offset += m.offset
            lay = self.layout(m.type, bindings) if not m.type.endswith("*") else None
        return Member(m.name, m.type, offset, m.size, m.align, m.count, m.dims) if m is not None else None


@functools.lru_cache(maxsize=512)
def _builtin(t: str) -> Layout | None:
    got = builtin_layout(t)
    return Layout(t, *got, _vector_members(t, *got)) if got is not None else None


def _vector_members(t: str, size: int, align: int) -> tuple[Member, ...]:
    """`.x .y .z .w` of a vector type (`float4`, `half2`, `__nv_bfloat162`)."""
    m = _VECTOR.match(t)
    if m is not None:
        base, n = _VECTOR_BASES[m.group(1)], int(m.group(2))
        scalar = {"uchar": "unsigned char", "ushort": "unsigned short", "uint": "unsigned int",
                  "ulong": "unsigned long", "longlong": "long long", "ulonglong": "unsigned long long"}
        et = scalar.get(m.group(1), m.group(1))
    elif t in ("half2", "__half2", "__nv_half2"):
        base, n, et = 2, 2, "__half"
    elif t in ("__nv_bfloat162", "nv_bfloat162"):
        base, n, et = 2, 2, "__nv_bfloat16"
    else:
        return ()
    return tuple(Member(c, et, i * base, base, base) for i, c in enumerate("xyzw"[:n]))


def _up(n: int, align: int) -> int:
    return -(-n // align) * align if align > 1 else n


BUILTINS = TypeTable()


def template_arguments(table: TypeTable, name: str) -> tuple[StructDef, dict[str, str]] | None:
    """The struct (template) `name` names and its parameters bound to the arguments written there:
    `Packed128<float>` -> (Packed128, {ElementType: float})."""
    return table._struct(name)


def unit_types(files, constants: dict | None = None, fold=None) -> TypeTable:
    """The TypeTable of a translation unit: the struct definitions and aliases of its files (the
    first file's first), array extents read with the macros where each struct stands and the unit's
    integer constants."""
    structs: dict[str, StructDef] = {}
    typedefs: dict[str, str] = {}
    # a member type name that classes define as different types (`Type` of each `PrecMap<p>`
    # specialization) has no one target by its bare name
    ambiguous = set().union(*(getattr(f, "ambiguous_typedefs", set()) for f in files))
    for f in files:
        for name, sd in getattr(f, "structs", {}).items():
            structs.setdefault(name, sd)
        for name, target in f.typedefs.items():
            if name not in ambiguous:
                typedefs.setdefault(name, target)
    constants = constants or {}
    table = TypeTable(structs, typedefs)

    if fold is not None:        # index/types.py's constant_value: extents written as expressions
        table.value_of = _Fold(fold, constants, table)
    return table


class _Fold:
    """`value_of` of a unit's TypeTable: an object, not a closure, so that a table a worker process
    built pickles on its way back (`--format full` and explain read the tables)."""
    __slots__ = ("fold", "constants", "table")

    def __init__(self, fold, constants: dict, table: TypeTable):
        self.fold, self.constants, self.table = fold, constants, table

    def __call__(self, text: str, sd: StructDef, bindings: dict[str, str]) -> int | None:
        own = self.constants.get(f"{sd.name}::{text.strip()}")
        if own is not None:     # `T payload[size]` with `static constexpr size_t size = 16 / sizeof(T);`
            return self.fold(own.text, own.file, own.line, self.constants, self.table, bindings)
        return self.fold(text, sd.file, sd.line, self.constants, self.table, bindings)
