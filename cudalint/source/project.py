"""Which file sees which: translation units, and what a kernel's unit lets it use.

A translation unit is a file preprocessed as the compiler's input, with every local header it
includes (directly or not). A launch site reaches a kernel only when one unit holds both the
launch and the kernel's definition, so two programs that each define `kernel1` never share a
launch; a unit that only declares a kernel (`__global__ void k(float*);`) reaches the one
definition of that name when there is exactly one. The `__device__` helpers and constants a
kernel uses are those of its own units.
"""
from __future__ import annotations

import re
from typing import Sequence

from .cufile import Constant, FunctionDef, LaunchSite, SourceFile, node_text
from .types import builtin_size, unit_types


# index/types.py registers the readers that fold a unit's constant expressions (a lower layer may not
# import it); without them, types are laid out with literal extents only
TYPE_READERS: dict = {}


class Project:
    """The files of one run: those linted, and those read only as context (headers they include,
    files that include them), each parsed once."""

    def __init__(self, sources: list[SourceFile], context: Sequence[SourceFile] = ()):
        self.sources = sources
        self.files: dict[str, SourceFile] = {}
        for src in [*sources, *context]:
            self.files.setdefault(src.key, src)
        self.units_of: dict[str, list[str]] = {}
        for src in self.files.values():
            if src.reached and src.reached[0] == src.key:      # preprocessed as a translation unit
                for k in src.reached:
                    self.units_of.setdefault(k, []).append(src.key)
        self.sites = [s for src in self.files.values() for s in src.launches]
        # Launch sites by the file they stand in and by the kernel they name, and the files of each
        # unit: a kernel's sites are looked up, not searched for among all the sites of the run.
        self._site_index: dict[str, list[int]] = {}
        self._site_names: dict[str, list[int]] = {}
        for i, s in enumerate(self.sites):
            self._site_index.setdefault(s.file.key, []).append(i)
            self._site_names.setdefault(s.kernel, []).append(i)
        self._members: dict[str, set[str]] = {}
        for src in self.files.values():
            for u in self.units(src):
                self._members.setdefault(u, set()).add(src.key)
        self._definitions: dict[str, int] = {}
        for src in self.files.values():
            for fn in src.kernels:
                if fn.body is not None:
                    self._definitions[fn.name] = self._definitions.get(fn.name, 0) + 1
        self._functions: dict[str, dict[str, FunctionDef]] = {}
        self._constants: dict[str, dict[str, Constant]] = {}
        self._typedefs: dict[str, dict[str, str]] = {}
        self._host_functions: dict[str, dict[str, list[FunctionDef]]] = {}
        self._callers: dict[str, list[tuple[FunctionDef, object]]] = {}
        self._call_index: dict[str, list] | None = None
        self._types: dict[str, object] = {}
        self._variables: dict[str, dict] = {}

    # ---- units -----------------------------------------------------------------------------
    def units(self, src: SourceFile) -> list[str]:
        return self.units_of.get(src.key) or [src.key]

    def unit_files(self, src: SourceFile) -> list[SourceFile]:
        """The files `src` is compiled with: itself first, then the rest of its units in inclusion order."""
        out = {src.key: src}
        for root in self.units(src):
            unit = self.files.get(root)
            own = unit.unit_variants if unit is not None else {}     # headers this unit reads otherwise
            for k in (unit.reached if unit is not None else [root]):
                f = own.get(k) or self.files.get(k)
                if f is not None:
                    out.setdefault(k, f)
        return list(out.values())

    def sees(self, a: SourceFile, b: SourceFile) -> bool:
        return bool(set(self.units(a)) & set(self.units(b)))

    # ---- what a kernel uses ----------------------------------------------------------------
    def sites_for(self, kernel: FunctionDef) -> list[LaunchSite]:
        """Launch sites in the kernel's units; and, for a kernel whose name is defined once, the sites
        of units that declare it."""
        home = kernel.file
        seen = {k for u in self.units(home) for k in self._members.get(u, ())}
        found = {i for k in seen for i in self._site_index.get(k, ())}
        if self._definitions.get(kernel.name) == 1:
            found |= {i for i in self._site_names.get(kernel.name, ()) if i not in found and
                      (self.sites[i].runtime or self._declares(self.sites[i].file, kernel.name))}
        return [self.sites[i] for i in sorted(found)]

    def names_kernel(self, src: SourceFile, kernel: FunctionDef) -> bool:
        """Whether the kernel's name, written in `src`, is this kernel: `src` shares a unit with
        the kernel's file, or the name is defined once in the project and `src`'s unit declares it."""
        if kernel.file is None or self.sees(src, kernel.file):
            return True
        return self._definitions.get(kernel.name) == 1 and self._declares(src, kernel.name)

    def _declares(self, src: SourceFile, name: str) -> bool:
        return any(name in f.prototypes for f in self.unit_files(src))

    def functions_for(self, src: SourceFile) -> dict[str, FunctionDef]:
        """`__device__` helpers by name, as the file's units see them (the file's own first)."""
        if src.key not in self._functions:
            found: dict[str, FunctionDef] = {}
            for f in self.unit_files(src):
                for fn in f.functions:
                    if fn.is_device and not fn.is_kernel and fn.body is not None:   # a host function is not callable
                        found.setdefault(fn.name, fn)
            self._functions[src.key] = found
        return self._functions[src.key]

    def constants_for(self, src: SourceFile) -> dict[str, Constant]:
        if src.key not in self._constants:
            found: dict[str, Constant] = {}
            for f in self.unit_files(src):
                for name, c in f.constants.items():
                    found.setdefault(name, c)
            self._constants[src.key] = found
            # `x128::size` through `typedef Packed128<floatX> x128;`: for the host's launches and the kernels
            alias_constants = TYPE_READERS.get("alias")
            if alias_constants is not None:
                found.update(alias_constants(found, self.typedefs_for(src), self.types_for(src)))
        return self._constants[src.key]

    def typedefs_for(self, src: SourceFile) -> dict[str, str]:
        if src.key not in self._typedefs:
            found: dict[str, str] = {}
            ambiguous = set().union(*(f.ambiguous_typedefs for f in self.unit_files(src)))
            for f in self.unit_files(src):
                for name, target in f.typedefs.items():
                    if name not in ambiguous:
                        found.setdefault(name, target)
            # an object-like macro that names a type (`-D dfloat=double`, `#define real float`)
            # stands for it wherever the file writes its name as a type
            for name, m in src.macros.macros.items():
                body = " ".join(m.body.split())
                if m.params is None and name not in found and body and body != name and \
                        (builtin_size(body) is not None or body in found):
                    found[name] = body
            self._typedefs[src.key] = found
        return self._typedefs[src.key]

    def types_for(self, src: SourceFile):
        """The sizes and layouts of the types `src`'s units define (index/types.py)."""
        if src.key not in self._types:
            read = TYPE_READERS.get("unit", unit_types)
            table = read(self.unit_files(src), self.constants_for(src))
            for name, target in self.typedefs_for(src).items():      # with the macros that name types
                table.typedefs.setdefault(name, target)
            self._types[src.key] = table
        return self._types[src.key]

    def variables_for(self, src: SourceFile) -> dict:
        """File-scope `__shared__`, `__constant__` and `__device__` variables of `src`'s units, by name
        (the file's own first)."""
        if src.key not in self._variables:
            found: dict = {}
            for f in self.unit_files(src):
                for name, v in f.variables.items():
                    found.setdefault(name, v)
            self._variables[src.key] = found
        return self._variables[src.key]

    # ---- the host program ------------------------------------------------------------------
    def host_functions(self, src: SourceFile, name: str) -> list[FunctionDef]:
        """Host-callable functions of that name with a body, as `src`'s units see them (its own first)."""
        if src.key not in self._host_functions:
            found: dict[str, list[FunctionDef]] = {}
            for f in self.unit_files(src):
                for fn in f.functions:
                    if not fn.is_kernel and fn.body is not None and not _device_only(fn):
                        found.setdefault(fn.name, []).append(fn)
            self._host_functions[src.key] = found
        return self._host_functions[src.key].get(name, [])

    def callers(self, fn: FunctionDef, limit: int = 64) -> list[tuple[FunctionDef, object]]:
        """The calls of a host function in the host functions of the run's files: (caller, call node),
        at most `limit`. The run's calls are indexed by name once, on the first question."""
        if self._call_index is None:
            self._host_homes: dict[str, set[str]] = {}
            for src in self.files.values():
                for g in src.functions:
                    if g.body is not None and not g.is_kernel:
                        self._host_homes.setdefault(g.name, set()).add(src.key)
            # the calls of the functions the run's files define (a name defined nowhere is looked
            # for when asked): most of a file's calls are of the library's functions
            self._call_index = self.calls_named({n.encode() for n in self._host_homes})
        key = f"{fn.file.key if fn.file else ''}:{fn.line}:{fn.name}"
        if key not in self._callers:
            out: list[tuple[FunctionDef, object]] = []
            calls = self._call_index.get(fn.name)
            if calls is None and fn.name not in self._host_homes:
                calls = self._call_index[fn.name] = self.calls_named({fn.name.encode()}).get(fn.name, [])
            for src, start, end in calls or ():
                if not self.call_reaches(src, fn):
                    continue
                call = _call_at(src, start, end)
                host = enclosing_host(src, call) if call is not None else None
                if host is not None and host is not fn:
                    out.append((host, call))
                    if len(out) >= limit:
                        break
            self._callers[key] = out
        return self._callers[key]

    def call_reaches(self, src: SourceFile, fn: FunctionDef) -> bool:
        """Whether a call of `fn`'s name in `src` reaches this definition: from its own units, or
        from anywhere when no other file defines a host function of that name (separate
        compilation, a prototype in a header)."""
        if self._call_index is None:
            self.callers(fn)        # (indexes the run's host functions by name)
        homes = self._host_homes.get(fn.name, ())
        return not (len(homes) > 1 and fn.file is not None and not self.sees(src, fn.file))

    def calls_named(self, names) -> dict[str, list]:
        """Where the run's files call one of `names` (bytes): name -> [(file, start, end)], in the
        files' order and each file's."""
        found: dict[str, list] = {}
        for src in self.files.values():
            root = src.tree.root_node
            # the root's text starts at its first token (a file whose first lines are directives,
            # blanked in the text the parser reads, starts further on): offsets are the file's
            at = root.start_byte
            for m in _CALL_NAME.finditer(root.text):
                if m.group(1) in names:
                    found.setdefault(m.group(1).decode(), []).append((src, at + m.start(1), at + m.end(1)))
        return found


# a name followed by `(` or `<` (a call, `f<T>(...)`); the syntax tree says which are calls. The
# quantifiers take all they can and give nothing back (what they would give back is a word
# character or a space, after which no `(` or `<` can come): a word that is no call is passed
# over at once, not tried again at each shorter length
_CALL_NAME = re.compile(rb"\b([A-Za-z_]\w*+)\s*+[(<]")


def call_name(name: str) -> str:
    """`CuMatrixBase<Real>::Set` -> `Set`: the name a call spells."""
    return re.sub(r"<[^<>]*>", "", name).split("::")[-1].strip()


def is_member(node) -> bool:
    """A member function (`void A::f(...) {}`, or defined in its class): a call of it (`obj.f(...)`,
    `f()` in another member) names no class a name lookup could match."""
    if node is None:
        return False
    parent = node.parent.parent if node.parent is not None and node.parent.type == "template_declaration" \
        else node.parent
    if parent is not None and parent.type == "field_declaration_list":
        return True
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    name = decl.child_by_field_name("declarator") if decl is not None else None
    return name is not None and name.type == "qualified_identifier"


def member_class(node) -> str | None:
    """The class a member function belongs to (`A` for `void A::f()` or `f` defined in `class A`),
    None for a free function."""
    if node is None:
        return None
    parent = node.parent.parent if node.parent is not None and node.parent.type == "template_declaration" \
        else node.parent
    if parent is not None and parent.type == "field_declaration_list":
        spec = parent.parent
        name = spec.child_by_field_name("name") if spec is not None else None
        return re.sub(r"<[^<>]*>", "", node_text(name)).strip() if name is not None else "?"
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    name = decl.child_by_field_name("declarator") if decl is not None else None
    if name is None or name.type != "qualified_identifier":
        return None
    return re.sub(r"<[^<>]*>", "", node_text(name)).rsplit("::", 1)[0].split("::")[-1].strip()


def _device_only(fn: FunctionDef) -> bool:
    """`__device__` without `__host__`: not callable from the host."""
    if not fn.is_device or fn.node is None:
        return False
    if any(c.type == "__host__" for c in fn.node.children):
        return False
    macros = fn.file.macros.at(fn.line) if fn.file is not None else None
    return not any(macros is not None and (m := macros.get(node_text(c))) is not None and "__host__" in m.body
                   for c in fn.node.children if c.type in ("identifier", "type_identifier", "ERROR"))


def _call_at(src: SourceFile, start: int, end: int):
    node = src.tree.root_node.descendant_for_byte_range(start, end)
    for _ in range(4):
        if node is None:
            return None
        if node.type == "call_expression":
            if any(c.type == "kernel_call_syntax" for c in node.children):
                return None
            # the name is the called function's, not an argument's (`perf<half>(launch<0>, M, N)` is
            # no call of `launch`: it passes a pointer to it)
            callee = node.child_by_field_name("function")
            return node if callee is not None and callee.start_byte <= start and end <= callee.end_byte else None
        node = node.parent
    return None


def enclosing_host(src: SourceFile, node):
    """The host function of `src` whose definition holds syntax node `node`, None for one outside
    any, or in a kernel or a device function."""
    while node is not None and node.type != "function_definition":
        node = node.parent
    if node is None:
        return None
    by_node = src.__dict__.get("_by_node")
    if by_node is None:         # the file's functions by their syntax node, looked up for every call in it
        by_node = src.__dict__["_by_node"] = {fn.node.id: fn for fn in src.functions if fn.node is not None}
    fn = by_node.get(node.id)
    return fn if fn is not None and not fn.is_kernel and not fn.is_device else None
