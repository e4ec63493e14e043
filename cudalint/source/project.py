"""Which file sees which: translation units, and what a kernel's unit lets it use.

A translation unit is a file preprocessed as the compiler's input, with every local header it
includes (directly or not). A launch site reaches a kernel only when one unit holds both the
launch and the kernel's definition, so two programs that each define `kernel1` never share a
launch; a unit that only declares a kernel (`__global__ void k(float*);`) reaches the one
definition of that name when there is exactly one. The `__device__` helpers and constants a
kernel uses are those of its own units.
"""
from __future__ import annotations

from .cufile import Constant, FunctionDef, LaunchSite, SourceFile


class Project:
    """The files of one run: those linted, and those read only as context (headers they include,
    files that include them), each parsed once."""

    def __init__(self, sources: list[SourceFile], context: list[SourceFile] = ()):
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
            for k in (unit.reached if unit is not None else [root]):
                if k in self.files:
                    out.setdefault(k, self.files[k])
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
                      any(kernel.name in f.prototypes for f in self.unit_files(self.sites[i].file))}
        return [self.sites[i] for i in sorted(found)]

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
            from ..index.types import alias_constants
            found.update(alias_constants(found, self.typedefs_for(src), self.types_for(src)))
        return self._constants[src.key]

    def typedefs_for(self, src: SourceFile) -> dict[str, str]:
        if src.key not in self._typedefs:
            found: dict[str, str] = {}
            for f in self.unit_files(src):
                for name, target in f.typedefs.items():
                    found.setdefault(name, target)
            self._typedefs[src.key] = found
        return self._typedefs[src.key]

    def types_for(self, src: SourceFile):
        """The sizes and layouts of the types `src`'s units define (index/types.py)."""
        if src.key not in self._types:
            from ..index.types import unit_types
            self._types[src.key] = unit_types(self.unit_files(src), self.constants_for(src))
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
