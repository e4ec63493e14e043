"""The translation unit confirm mode compiles: the user's file as the compiler compiles it.

The text is the preprocessing stage's (`SourceFile.text`: the `#if` arms the compiler takes, the
other arms and the conditional directives blanked, every line where it stands), with the file's
own `#define`s and includes kept, the local headers it includes inlined at their first
`#include` (each as that inclusion sees it, instrumented too: kernels in headers, helpers in
headers) between `#line` directives, and `-D` passed on. Host code is not compiled: host
functions and host variables are blanked line for line, so compiler messages keep the original
file's lines. Two texts are made:

* `nvrtc`: for NVRTC (no host compiler, no C library): CUDA's device headers (`cuda_fp16.h`,
  `cuda_bf16.h`, `cooperative_groups.h`, `mma.h`, `cuda/...`) kept; the C headers device code
  uses (`stdint.h`, `float.h`, `limits.h`, `math.h`, `assert.h`, ...) replaced by `nvrtc_std.cuh`;
  host-only headers dropped.
* `nvcc`: every include as written, for `nvcc -cubin` where NVRTC cannot compile the first.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from importlib import resources

from ..preprocess import file_key, read_header
from ..source.cufile import SourceFile, node_text
from .instrument import Edit, FileEdits, Site, bind_checks, check_args, instrument_file

# headers NVRTC finds itself (CUDA's device headers); any other system header is host-side or C's
_NVRTC_HEADERS = ("cuda_fp16", "cuda_bf16", "curand_kernel", "curand_mtgp32", "curand_philox", "curand_normal", "cuda_fp8", "cuda_fp6", "cuda_fp4", "mma.h", "cooperative_groups",
                  "cuda/", "cub/", "cuda_pipeline", "cuda_awbarrier", "sm_", "vector_types.h", "vector_functions.h",
                  "math_constants.h", "cuda_texture_types.h", "surface_types.h", "texture_types.h")
# CUDA libraries' host headers: what device code takes from them is the half and bfloat16 types
_LIBRARY_HEADERS = ("cublas", "cudnn", "cusparse", "cufft", "curand.h", "cusolver", "nccl", "cuda_runtime", "cuda.h")
_DEVICE_WORDS = {"__device__", "__constant__", "__shared__", "__managed__", "__global__", "constexpr", "typedef",
                 "const"}
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# headers of libraries outside the project whose whole device-side content is documented type
# aliases: where the header is not on this system, the unit states those aliases instead of it
_DOCUMENTED_ALIASES = {
    # OpenFst's <fst/types.h> (before 1.8): `using int32 = int32_t;` ... for the eight fixed-width integers
    "fst/types.h": "".join(f"typedef {s}int{n}_t {s}int{n};" for s in ("", "u") for n in (8, 16, 32, 64)),
}
_SYSTEM_INCLUDE_DIRS = ("/usr/local/include", "/usr/include")


def runtime_header() -> str:
    return resources.files(__package__).joinpath("log_runtime.cuh").read_text(encoding="utf-8")


def nvrtc_std_header() -> str:
    return resources.files(__package__).joinpath("nvrtc_std.cuh").read_text(encoding="utf-8")


@dataclass
class CompileUnit:
    root: str                                   # the file compiled: the translation unit's own file
    sources: dict[str, str]                     # variant (nvrtc, nvcc) -> text
    options: list[str]                          # -D and -I options of the user's build
    sites: list[Site] = field(default_factory=list)
    files: list[str] = field(default_factory=list)       # the unit's files, in inclusion order
    unwrapped: list = field(default_factory=list)         # model Accesses no place in the syntax stands for
    barriers: int = 0
    missed_barriers: list[tuple[str, int]] = field(default_factory=list)
    # each file-scope definition of the unit's files, as [path, first line, last line, function name or ""]:
    # what the compile may leave out where that definition does not compile (runner.compile_unit)
    definitions: list = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)   # `int32` -> `int32_t`: types from _DOCUMENTED_ALIASES


def build_unit(project, root: SourceFile, tables, defines: dict[str, str], include_dirs=(),
               instrumented: bool = True) -> CompileUnit:
    """The unit of `root` with every Access and barrier of `tables` that stands in its files instrumented
    (`instrumented=False`: the same text without the log, for a profiler)."""
    files = project.unit_files(root) if project is not None else [root]
    by_key = {f.key: f for f in files}
    accesses: dict[str, list] = {}
    barriers: dict[str, list] = {}
    if instrumented:
        for t in tables:
            for a in t.accesses:
                accesses.setdefault(file_key(a.path or t.path), []).append(a)
            for b in t.barriers:
                barriers.setdefault(file_key(b.path or t.path), []).append(b)
    edits: dict[str, FileEdits] = {}
    unit = CompileUnit(root.path, {}, _options(defines, include_dirs), files=[f.path for f in files])
    for f in files:
        fe = instrument_file(f, accesses.get(f.key, []), barriers.get(f.key, []), len(unit.sites))
        edits[f.key] = fe
        unit.sites.extend(fe.sites)
        unit.unwrapped.extend(fe.unwrapped)
        unit.barriers += fe.barriers
        unit.missed_barriers.extend((f.path, line) for line in fe.missed_barriers)
    kernels = {fn.name: fn for f in files for fn in f.kernels}
    bodies = {}
    for variant in ("nvrtc", "nvcc"):
        writer = _Writer(by_key, edits, include_dirs, variant)
        bodies[variant] = writer.file(root)
        if variant == "nvrtc":
            unit.definitions = writer.definitions
            for name in writer.aliased:
                pairs = re.findall(r"typedef (\w+) (\w+);", _DOCUMENTED_ALIASES[name])
                unit.aliases.update((alias, t) for t, alias in pairs)
    bind_checks(unit.sites, tables, kernels, unit.aliases)
    for variant, body in bodies.items():
        head = runtime_header() if instrumented else "typedef unsigned int uint;\n"
        if variant == "nvrtc":
            head += nvrtc_std_header()
        text = head + f'\n#line 1 "{_quote(root.path)}"\n' + body
        for s in unit.sites:
            text = text.replace(f"__CL_CHECK_{s.id}__", check_args(s))
        unit.sources[variant] = text
    return unit


def _options(defines: dict[str, str], include_dirs) -> list[str]:
    out = [f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in defines.items()]
    return out + [f"-I{os.path.abspath(d)}" for d in include_dirs]


def _quote(path: str) -> str:
    return path.replace("\\", "\\\\").replace('"', '\\"')


class _Writer:
    def __init__(self, files: dict, edits: dict, include_dirs, variant: str):
        self.files = files
        self.edits = edits
        self.include_dirs = tuple(include_dirs)
        self.variant = variant
        self.done: set[str] = set()
        self.depth = 0
        self.aliased: set[str] = set()     # headers whose documented aliases stand for them
        self.definitions: list = []

    def file(self, src: SourceFile) -> str:
        self.definitions.extend(definitions(src))
        return self._file(src)

    def _file(self, src: SourceFile) -> str:
        self.done.add(src.key)
        fe = self.edits.get(src.key)
        text = _apply(src, (fe.edits if fe is not None else []) + host_blanks(src))
        lines = text.split("\n")
        for i, line in enumerate(lines):
            m = _INCLUDE.match(line)
            if m is None:
                if re.match(r"^\s*#\s*pragma\s+once\b", line):
                    lines[i] = ""
                continue
            lines[i] = self.include(src, m.group(2), m.group(1) == "<", i + 1, line)
        return "\n".join(lines)

    def include(self, src: SourceFile, name: str, angled: bool, line: int, original: str) -> str:
        found = _resolve(name, angled, os.path.dirname(src.path), self.include_dirs)
        if found is not None:
            key = file_key(found)
            if key in self.done or self.depth > 40:
                return ""
            header = self.files.get(key)
            if header is None:
                try:
                    header = SourceFile(found, read_header(found))
                except OSError:
                    return ""
            self.depth += 1
            try:
                inner = self.file(header)
            finally:
                self.depth -= 1
            return f'#line 1 "{_quote(header.path)}"\n{inner}\n#line {line + 1} "{_quote(src.path)}"'
        aliases = _DOCUMENTED_ALIASES.get(name)
        if aliases is not None and not (self.variant == "nvcc" and _resolve(name, True, "", _SYSTEM_INCLUDE_DIRS)):
            self.aliased.add(name)
            if self.variant == "nvcc":
                return f'#include <stdint.h>\n{aliases}\n#line {line + 1} "{_quote(src.path)}"'
            return aliases
        if self.variant == "nvcc":
            return original if angled else ""      # a quoted header cudalint did not find: nvcc will not either
        if name.startswith(_NVRTC_HEADERS):
            return f"#include <{name}>"
        if name.startswith(_LIBRARY_HEADERS):       # they bring half and bfloat16 into the real build
            return f'#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#line {line + 1} "{_quote(src.path)}"'
        return ""                                  # host or C library: nvrtc_std.cuh stands for the C parts


def _resolve(name: str, angled: bool, here: str, include_dirs) -> str | None:
    if os.path.isabs(name):
        return name if os.path.isfile(name) else None
    for d in ([] if angled else [here]) + list(include_dirs):
        p = os.path.normpath(os.path.join(d, name)) if d else os.path.normpath(name)
        if os.path.isfile(p):
            return p
    return None


def _apply(src: SourceFile, edits: list[Edit]) -> str:
    data = src.text.encode("utf-8", errors="surrogateescape")
    edits = sorted(edits, key=lambda e: (e.offset, e.order))
    pos, out = 0, []
    for e in edits:
        if e.offset < pos:          # inside a blanked region
            continue
        out.append(data[pos:e.offset])
        out.append(e.text.encode("utf-8", errors="surrogateescape"))
        pos = e.offset + e.replaced
    out.append(data[pos:])
    return b"".join(out).decode("utf-8", errors="surrogateescape")


def definitions(src: SourceFile) -> list:
    """The file-scope definitions of `src` (in namespaces and `extern "C"` too), as CompileUnit.definitions."""
    functions = {}
    for f in src.functions:
        if f.is_kernel or f.is_device:
            node = f.node.parent if f.node.parent is not None and f.node.parent.type == "template_declaration" else f.node
            functions[node.start_byte] = f.name
    out: list = []
    lines = src.text.split("\n")

    def alone(c) -> bool:
        """Nothing else on its first and last lines: leaving its lines out leaves out only it."""
        (r0, c0), (r1, c1) = c.start_point, c.end_point
        before = lines[r0][:c0] if r0 < len(lines) else ""
        after = lines[r1][c1:] if r1 < len(lines) else ""
        return not before.strip() and (not after.strip() or after.strip().startswith(("//", ";")))

    def walk(node):
        for c in node.named_children:
            if c.type in ("namespace_definition", "linkage_specification"):
                body = c.child_by_field_name("body")
                if body is not None and body.type == "declaration_list":
                    walk(body)
                    continue
            # what the parser could not place (ERROR) is never left out: its extent is not a definition's
            if not (c.type.startswith("preproc") or c.type in ("comment", "ERROR")) and alone(c):
                out.append([src.path, c.start_point[0] + 1, c.end_point[0] + 1, functions.get(c.start_byte, "")])
    walk(src.tree.root_node)
    return out


# ---- host code -----------------------------------------------------------------------------------
def host_blanks(src: SourceFile) -> list[Edit]:
    """Host functions and host variables, blanked to their newlines (lines stay where they are)."""
    data = src.text.encode("utf-8", errors="surrogateescape")
    ranges: list[tuple[int, int]] = []
    for f in src.functions:
        if f.is_kernel or f.is_device or f.body is None or _inside_a_function(f.node):
            continue
        node = f.node
        while node.parent is not None and node.parent.type == "template_declaration":
            node = node.parent          # `template<class R> template<class O> void M<R>::f(...)`: both heads go
        head = data[node.start_byte:f.body.start_byte].decode("utf-8", errors="replace")
        if re.search(r"\bconstexpr\b", head):
            continue       # callable from device code too
        if node.parent is not None and node.parent.type == "linkage_specification":
            node = node.parent          # `extern "C" void f() {...}`: the linkage goes with it
        ranges.append((node.start_byte, node.end_byte))
    _host_declarations(src, src.tree.root_node, ranges)
    ranges.sort()
    out: list[Edit] = []
    end = -1
    for a, b in ranges:
        if a < end:
            continue            # inside one already blanked
        out.append(Edit(a, (3, 0), "\n" * data[a:b].count(b"\n"), b - a))
        end = b
    return out


def _inside_a_function(node) -> bool:
    """A definition within another function's body is no function of its own: C++ has no nested
    functions, and what the parser reads as one there is a statement macro with a braced body
    (`CUDA_1D_KERNEL_LOOP(i, n) { ... }`), part of the function around it."""
    p = node.parent
    while p is not None:
        if p.type in ("function_definition", "lambda_expression"):
            return True
        p = p.parent
    return False


def _host_declarations(src: SourceFile, node, ranges, in_class: bool = False) -> None:
    for c in node.named_children:
        t = c.type
        if t == "namespace_definition":
            body = c.child_by_field_name("body")
            if body is not None:
                _host_declarations(src, body, ranges)
        elif t == "linkage_specification":
            body = c.child_by_field_name("body")
            if body is not None and body.type == "declaration_list":
                _host_declarations(src, body, ranges)
            elif body is not None and body.type == "declaration" and _host_declaration(src, body):
                ranges.append((c.start_byte, c.end_byte))
        elif t == "template_declaration":
            inner = next((x for x in c.named_children if x.type == "declaration"), None)
            if inner is not None and _host_declaration(src, inner, prototypes_only=True):
                ranges.append((c.start_byte, c.end_byte))
        elif t in ("declaration", "field_declaration") and _host_declaration(src, c, in_class=in_class):
            ranges.append((c.start_byte, c.end_byte))
        elif t == "template_instantiation" and _host_instantiation(src, c):
            ranges.append((c.start_byte, c.end_byte))    # `template void reduce<int>(...);` of a host template
        elif t == "expression_statement" and not in_class:
            ranges.append((c.start_byte, c.end_byte))     # a host macro call at file scope: `NVBENCH_BENCH(b);`
        elif t in ("struct_specifier", "class_specifier", "union_specifier"):
            body = c.child_by_field_name("body")
            if body is not None:
                _host_declarations(src, body, ranges, in_class=True)
        elif t in ("type_definition",) or t.startswith("preproc"):
            continue


def _host_declaration(src: SourceFile, node, in_class: bool = False, prototypes_only: bool = False) -> bool:
    """A declaration device code cannot use: a host function's prototype, a mutable host variable
    (a class's static data member), not a macro invocation that tree-sitter reads as a prototype
    (`INSTANTIATE(float);`), not a constant."""
    words = set()
    for c in node.children:
        if c.type in ("storage_class_specifier", "type_qualifier", "attribute_specifier", "ms_declspec_modifier") \
                or node_text(c) in _DEVICE_WORDS:
            words.add(node_text(c))
    head = re.split(r"[={(]", node_text(node), 1)[0]
    words |= set(re.findall(r"\b__\w+__\b", head))
    if words & (_DEVICE_WORDS - {"const"}):
        return False
    declarators = node.children_by_field_name("declarator")
    functions = [d for d in declarators if _innermost(d).type == "function_declarator"]
    if functions:
        name = _innermost(functions[0]).child_by_field_name("declarator")
        macros = src.macros.at(node.start_point[0] + 1)
        return name is None or macros.get(node_text(name)) is None
    if prototypes_only:
        return False
    if in_class and "static" not in words:
        return False           # a data member: part of the type
    if "const" in words and not any(_has_pointer(d) for d in declarators):
        return False           # a constant: device code may read it
    if node.type == "declaration" and not declarators:
        return False           # `struct S { ... };`: a type
    return True


def _host_instantiation(src: SourceFile, node) -> bool:
    text = node_text(node)
    if re.search(r"\b__(global|device)__\b", text):
        return False
    m = re.search(r"([A-Za-z_]\w*)\s*<[^()]*>\s*\(", text)
    device = {f.name for f in src.functions if f.is_kernel or f.is_device}
    return m is None or m.group(1) not in device


def _has_pointer(d) -> bool:
    while d is not None:
        if d.type == "pointer_declarator":
            return True
        d = d.child_by_field_name("declarator")
    return False


def _innermost(d):
    while d is not None and d.type in ("pointer_declarator", "reference_declarator", "init_declarator") and \
            d.child_by_field_name("declarator") is not None:
        d = d.child_by_field_name("declarator")
    return d
