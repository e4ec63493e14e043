"""PyTorch's type dispatch: `AT_DISPATCH_FLOATING_TYPES_AND_HALF(t.scalar_type(), "name", [&] {
k<scalar_t><<<g, b>>>(...); })` compiles its lambda once per type of a family, the type named
`scalar_t` in it (`index_t` under `AT_DISPATCH_INDEX_TYPES`), as ATen/Dispatch.h defines them.
A launch inside such a lambda binds the kernel's element type to those types: each is one of the
program's own values, and the analysis reads the kernel at the family's `float` (its `int` where
it has none), naming the others. One home for the families: the model, `lint`'s element-width check
and `--confirm` ask here."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..index.parse import balanced

_COMMENT = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)
_CALL = re.compile(rb"\bAT_DISPATCH_(\w+?)\s*\(")

_INTEGRAL = ("uint8_t", "int8_t", "int16_t", "int", "int64_t")
_FLOATING = ("double", "float")
_COMPLEX = ("c10::complex<double>", "c10::complex<float>")
# the families by the longest name first: (the macro's family, its types, the name its lambda uses)
_FAMILIES = (("FLOATING_AND_COMPLEX_TYPES", _FLOATING + _COMPLEX, "scalar_t"),
             ("REDUCED_FLOATING_TYPES", ("at::Half", "at::BFloat16"), "scalar_t"),
             ("FLOATING_TYPES", _FLOATING, "scalar_t"),
             ("ALL_TYPES_AND_COMPLEX", _INTEGRAL + _FLOATING + _COMPLEX, "scalar_t"),
             ("ALL_TYPES", _INTEGRAL + _FLOATING, "scalar_t"),
             ("INTEGRAL_TYPES", _INTEGRAL, "scalar_t"),
             ("COMPLEX_TYPES", _COMPLEX, "scalar_t"),
             ("INDEX_TYPES", ("int", "int64_t"), "index_t"))
# the scalar types the `_AND`, `_AND2`, ... variants name first (`at::ScalarType::Half`, `at::kHalf`)
_SCALAR_TYPES = {"Half": "at::Half", "BFloat16": "at::BFloat16", "Bool": "bool", "Byte": "uint8_t",
                 "Char": "int8_t", "Short": "int16_t", "Int": "int", "Long": "int64_t", "Float": "float",
                 "Double": "double", "ComplexHalf": "c10::complex<at::Half>"}
# the type the analysis reads the lambda with, in this order: what its element width is in the unit
_READ_AS = (("float", "float"), ("int", "int"), ("at::Half", "__half"), ("at::BFloat16", "__nv_bfloat16"),
            ("double", "double"), ("int64_t", "long long"))


@dataclass(frozen=True)
class Dispatch:
    macro: str                  # `AT_DISPATCH_FLOATING_TYPES_AND_HALF`
    name: str                   # the type's name in the lambda: `scalar_t`
    types: tuple[str, ...]      # the types the lambda is compiled with
    start: int                  # byte offsets of the call in its text: `AT_DISPATCH_...(` to its `)`
    end: int

    @property
    def read_as(self) -> str | None:
        """The type the analysis binds the lambda's name to, or None where no type of the family has
        a width the analysis knows."""
        return next((t for written, t in _READ_AS if written in self.types), None)

    @property
    def with_float(self) -> bool:
        return "float" in self.types

    def words(self) -> str:
        return (f"`{self.name}` of `{self.macro}` is each of {', '.join(self.types)}; "
                f"analysed with {self.read_as}")


def _family(suffix: str, args: str) -> tuple[tuple[str, ...], str] | None:
    """The types of `AT_DISPATCH_<suffix>(args...` and the name of its lambda's type."""
    for family, types, name in _FAMILIES:
        if not suffix.startswith(family):
            continue
        rest = suffix[len(family):]
        extra: tuple[str, ...] = ()
        if rest.startswith("_AND_COMPLEX"):
            extra, rest = _COMPLEX, rest[len("_AND_COMPLEX"):]
        if rest == "_AND_HALF":
            return types + extra + ("at::Half",), name
        m = re.fullmatch(r"_AND(\d*)", rest)
        if m is not None:
            count = int(m.group(1) or 1)
            named = [re.sub(r".*(?:::|\bk)", "", a.strip()) for a in args.split(",")[:count]]
            if len(named) < count or any(n not in _SCALAR_TYPES for n in named):
                return None
            return types + extra + tuple(_SCALAR_TYPES[n] for n in named), name
        return (types + extra, name) if not rest else None
    return None


def calls(text: bytes) -> list[Dispatch]:
    """The AT_DISPATCH_* calls of a text (a function's body, a file), comments and strings read as
    blank, each with the span of its parentheses (byte offsets)."""
    if b"AT_DISPATCH_" not in text:
        return []
    code = _COMMENT.sub(lambda m: m.group(0)[:1] + b" " * (len(m.group(0)) - 2) + m.group(0)[-1:]
                        if m.group(0)[:1] in b"\"'" else re.sub(rb"[^\n]", b" ", m.group(0)), text)
    out = []
    for m in _CALL.finditer(code):
        end = balanced(code, m.end() - 1, "(", ")")
        if end is None:
            continue
        suffix = m.group(1).decode("ascii", "replace")
        family = _family(suffix, code[m.end():end].decode("utf-8", "replace"))
        if family is not None:
            out.append(Dispatch(f"AT_DISPATCH_{suffix}", family[1], family[0], m.start(), end))
    return out


def around(text: bytes, offset: int) -> dict[str, Dispatch]:
    """The dispatches whose parentheses hold byte `offset` of `text`, by the name their lambda gives
    its type (the innermost for each name)."""
    return names_at(calls(text), offset)


def names_at(found: list[Dispatch], offset: int) -> dict[str, Dispatch]:
    """Of dispatches found in one text, those around `offset`, by their lambda's type name (the
    innermost for each)."""
    out: dict[str, Dispatch] = {}
    for d in found:
        if d.start <= offset < d.end and (d.name not in out or out[d.name].start < d.start):
            out[d.name] = d
    return out


def at_site(site) -> dict[str, Dispatch]:
    """The dispatches around a launch site in its host function's body."""
    host = site.host
    if host is None or host.body is None or site.node is None:
        return {}
    return around(host.body.text, site.node.start_byte - host.body.start_byte)
