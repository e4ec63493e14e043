"""The instrumented copy of a `.cu` file: device code only, every memory access routed through the
access log.

The copy holds the file's macros, device-side declarations, `__device__` helpers and kernels
(host functions and `<<<>>>` launches are dropped, local `#include "x.h"` files are inlined the
same way), preceded by `log_runtime.cuh`. Every subscript, dereference and pointer argument of
`__ldg`/atomics becomes `(*__cl_addr(SITE, &(A[i]), ...))`: the real address is logged and checked
against its own buffer. `__syncthreads()` becomes `__cl_sync()` so each record carries its
barrier interval. The user's file is only read.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..model.build import group_scope
from ..source.cufile import SourceFile, node_text

_POINTER_ARG_CALLS = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv", "atomicAdd", "atomicSub",
                      "atomicMax", "atomicMin", "atomicExch", "atomicCAS", "atomicAnd", "atomicOr", "atomicXor",
                      "atomicInc", "atomicDec"}
_NOT_EVALUATED = {"sizeof_expression", "alignof_expression", "decltype", "template_argument_list",
                  "offsetof_expression", "ERROR"}
# headers NVRTC provides; any other system header is host-side and is left out of the copy
_DEVICE_HEADERS = ("cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h", "mma.h", "cooperative_groups", "cuda/",
                   "cuda_pipeline", "cuda_awbarrier", "sm_", "vector_types.h", "vector_functions.h")
_MAX_INCLUDE_DEPTH = 4


@dataclass
class Site:
    """One instrumented access in the source, and the model Accesses it stands for."""
    id: int
    function: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str
    kind: str                      # load | store | update (load then store) | atomic
    root: str | None               # the array or pointer named at the access, as written
    pointer_arg: bool = False      # `__ldg(p)`: the site is the pointer, not the element
    check: str = "any"             # how the device checks it: buffer | array | any
    buffer: int = -1               # check == buffer: index of the kernel's pointer parameter
    array_bytes: int = 0           # check == array: bytes of the shared/local array `root`
    accesses: list = field(default_factory=list)

    @property
    def array(self):
        return self.accesses[0].array if self.accesses else None

    @property
    def span(self) -> tuple[int, int, int, int]:
        return self.line, self.column, self.end_line, self.end_column

    @property
    def stores(self) -> bool:
        return self.kind in ("store", "update", "atomic")


@dataclass
class InstrumentedFile:
    path: str
    source: str
    sites: list[Site]
    kernels: list[str]
    unwrapped: list = field(default_factory=list)   # model Accesses no site stands for


def runtime_header() -> str:
    return resources.files(__package__).joinpath("log_runtime.cuh").read_text(encoding="utf-8")


def instrument(src: SourceFile, tables) -> InstrumentedFile:
    """Instrument every access of `src`'s kernels and helpers; map the sites to the tables' Accesses."""
    functions = {f.node.start_byte: f for f in src.functions}
    w = _Writer(src, functions)
    body = w.top_level(src.tree.root_node)
    sites = w.sites
    unwrapped = _map_accesses(src.path, sites, tables)
    _bind_checks(sites, tables)
    text = runtime_header() + "\n// ---- " + Path(src.path).name + " (device code, instrumented) ----\n" + body
    for s in sites:
        text = text.replace(f"__CL_CHECK_{s.id}__", _check_args(s))
    return InstrumentedFile(src.path, text, sites, [f.name for f in src.kernels], unwrapped)


def plain_copy(src: SourceFile) -> str:
    """The file's device code as written (no log), for running the original under a profiler."""
    w = _Writer(src, {f.node.start_byte: f for f in src.functions}, instrumented=False)
    return "typedef unsigned int uint;\n" + w.top_level(src.tree.root_node)


class _Writer:
    def __init__(self, src: SourceFile, functions: dict, instrumented: bool = True, depth: int = 0):
        self.src = src
        self.data = src.text.encode("utf-8", errors="surrogateescape")
        self.functions = functions
        self.instrumented = instrumented
        self.depth = depth
        self.sites: list[Site] = []

    # ---- which top-level pieces go into the copy --------------------------------------------
    def top_level(self, node) -> str:
        out = []
        for c in node.named_children:
            piece = self.piece(c)
            if piece:
                out.append(piece)
        return "\n".join(out) + "\n"

    def piece(self, c) -> str:
        t = c.type
        if t in ("preproc_def", "preproc_function_def"):
            return node_text(c).rstrip()
        if t == "preproc_include":
            return self.include(c)
        if t in ("preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"):
            return self.top_level(c).rstrip()   # the guard is dropped, the device parts kept
        if t == "function_definition":
            fn = self.functions.get(c.start_byte)
            if fn is None or not (fn.is_kernel or fn.is_device):
                return ""
            return self.function(c, fn)
        if t == "template_declaration":
            inner = next((x for x in c.named_children if x.type == "function_definition"), None)
            if inner is not None:
                fn = self.functions.get(inner.start_byte)
                if fn is None or not (fn.is_kernel or fn.is_device):
                    return ""
                return self.function(c, fn)
            return node_text(c)
        if t == "declaration":
            text = node_text(c)
            head = text.split("=", 1)[0]
            if any(w in head for w in ("__device__", "__constant__", "__shared__", "constexpr")) or \
                    (head.lstrip().startswith(("const ", "static const ")) and "(" not in head):
                return text
            return ""
        if t in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier", "type_definition",
                 "alias_declaration", "using_declaration", "static_assert_declaration",
                 "namespace_alias_definition"):
            text = node_text(c)
            return text if text.rstrip().endswith(";") else text + ";"
        if t == "namespace_definition":
            name = c.child_by_field_name("name")
            body = c.child_by_field_name("body")
            inner = self.top_level(body) if body is not None else ""
            return f"namespace {node_text(name) if name is not None else ''} {{\n{inner}}}"
        if t == "linkage_specification":
            body = c.child_by_field_name("body")
            if body is None:
                return ""
            inner = self.top_level(body) if body.type == "declaration_list" else self.piece(body)
            return f'extern "C" {{\n{inner}\n}}' if inner.strip() else ""
        return ""

    def include(self, c) -> str:
        path = c.child_by_field_name("path")
        if path is None:
            return ""
        name = node_text(path)
        if path.type == "system_lib_string":
            return node_text(c).rstrip() if any(h in name for h in _DEVICE_HEADERS) else ""
        rel = name.strip('"')
        here = Path(self.src.path).parent / rel
        if self.depth >= _MAX_INCLUDE_DEPTH or not here.is_file():
            return ""
        sub = SourceFile(str(here), here.read_text(encoding="utf-8", errors="replace"))
        inner = _Writer(sub, {f.node.start_byte: f for f in sub.functions}, False, self.depth + 1)
        return f"// ---- {rel} (device code) ----\n" + inner.top_level(sub.tree.root_node)

    # ---- the rewrite of one function ----------------------------------------------------------
    def function(self, node, fn) -> str:
        if not self.instrumented:
            return node_text(node)
        edits: list[tuple[int, tuple, str, int]] = []      # (offset, order key, text, bytes replaced)
        self.scalars = _shared_scalars(fn.body) if fn.body is not None else set()
        self.blocks = _thread_blocks(fn.body) if fn.body is not None else set()
        if fn.body is not None:
            self.walk(fn.body, fn.name, edits, 0)
        edits.sort(key=lambda e: (e[0], e[1]))
        pos, out = node.start_byte, []
        for off, _, text, replaced in edits:
            out.append(self.data[pos:off].decode("utf-8", errors="surrogateescape"))
            out.append(text)
            pos = off + replaced
        out.append(self.data[pos:node.end_byte].decode("utf-8", errors="surrogateescape"))
        return "".join(out)

    def walk(self, node, fn: str, edits, depth: int) -> None:
        t = node.type
        if t in _NOT_EVALUATED:
            return
        if t == "declaration" and node.child_by_field_name("declarator") is not None \
                and node_text(node.child_by_field_name("declarator")) in self.scalars:
            return      # the declaration of a shared scalar is not an access
        if t == "identifier" and node_text(node) in self.scalars:
            # `__shared__ float mean;` read or written by name: a one-element shared array
            self.wrap(node, fn, _context(node), edits, depth)
            return
        if t == "pointer_expression" and _op(node) == "&":
            self.address(node.child_by_field_name("argument"), fn, edits, depth)
            return
        if t == "call_expression":
            callee = node.child_by_field_name("function")
            name = node_text(callee).split("::")[-1] if callee is not None else ""
            args = node.child_by_field_name("arguments")
            actual = [a for a in args.named_children if a.type != "comment"] if args is not None else []
            if name == "__syncthreads" and not actual:
                edits.append((callee.start_byte, (2, 0), "__cl_sync", callee.end_byte - callee.start_byte))
                return
            if name == "__syncwarp" and node_text(callee).strip() == "__syncwarp":
                edits.append((callee.start_byte, (2, 0), "__cl_syncwarp", callee.end_byte - callee.start_byte))
                for a in actual:
                    self.walk(a, fn, edits, depth)
                return
            if name in ("__syncthreads_count", "__syncthreads_and", "__syncthreads_or") or \
                    self._block_sync(callee, actual):
                value = name.startswith("__syncthreads_")
                edits.append((node.start_byte, (1, depth), "__cl_epoch_after(" if value else "(", 0))
                edits.append((node.end_byte, (0, -depth), ")" if value else ", __cl_epoch())", 0))
                for a in actual:
                    self.walk(a, fn, edits, depth + 1)
                return
            if name in _POINTER_ARG_CALLS and actual:
                kind = "load" if name.startswith("__ld") else "atomic"
                self.wrap(actual[0], fn, kind, edits, depth, pointer_arg=True)
                self.address(actual[0], fn, edits, depth + 1)
                for a in actual[1:]:
                    self.walk(a, fn, edits, depth)
                return
        if t == "subscript_expression" or (t == "pointer_expression" and _op(node) == "*"):
            self.wrap(node, fn, _context(node), edits, depth)
            self.address(node, fn, edits, depth + 1)
            return
        for c in node.named_children:
            self.walk(c, fn, edits, depth)

    def _block_sync(self, callee, actual) -> bool:
        """`block.sync()`, `cg::sync(block)`, `cg::this_thread_block().sync()` on a thread block."""
        def is_block(n) -> bool:
            text = "".join(node_text(n).split())
            return text in self.blocks or text.endswith("this_thread_block()")
        if callee.type == "field_expression":
            field_ = callee.child_by_field_name("field")
            obj = callee.child_by_field_name("argument")
            return field_ is not None and node_text(field_) == "sync" and obj is not None and is_block(obj)
        text = "".join(node_text(callee).split())
        return text.endswith("::sync") and len(actual) == 1 and is_block(actual[0])

    def address(self, node, fn, edits, depth) -> None:
        """An address expression (`&A[i]`, `A + i`, the chain of `A[i][j]`): not an access itself,
        but its indexes and bases may hold accesses."""
        if node is None:
            return
        t = node.type
        if t == "subscript_expression":
            self.address(node.child_by_field_name("argument"), fn, edits, depth)
            idx = node.child_by_field_name("indices") or node.child_by_field_name("index")
            if idx is not None:
                self.walk(idx, fn, edits, depth)
            return
        if t == "pointer_expression" and _op(node) == "*":
            self.walk(node.child_by_field_name("argument"), fn, edits, depth)
            return
        if t == "parenthesized_expression":
            for c in node.named_children:
                self.address(c, fn, edits, depth)
            return
        if t == "identifier":
            return      # `&mean`, `A + i`'s base: names an address, reads nothing
        self.walk(node, fn, edits, depth)

    def wrap(self, node, fn, kind, edits, depth, pointer_arg=False) -> None:
        site = Site(len(self.sites), fn, node.start_point[0] + 1, node.start_point[1] + 1, node.end_point[0] + 1,
                    node.end_point[1] + 1, node_text(node), kind, _root(node), pointer_arg)
        self.sites.append(site)
        check = f"__CL_CHECK_{site.id}__"
        if pointer_arg:
            pre, post = f"__cl_addr({site.id}u, (", f"), {check})"
        else:
            pre, post = f"(*__cl_addr({site.id}u, &(", f"), {check}))"
        edits.append((node.start_byte, (1, depth), pre, 0))
        edits.append((node.end_byte, (0, -depth), post, 0))


def _shared_scalars(body) -> set[str]:
    """Names declared `__shared__ T name;` (no extent) in a function body."""
    out: set[str] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "declaration" and any(node_text(c) == "__shared__" for c in n.children):
            d = n.child_by_field_name("declarator")
            if d is not None and d.type == "identifier":
                out.add(node_text(d))
        stack.extend(n.named_children)
    return out


def _thread_blocks(body) -> set[str]:
    """Names of cooperative-groups thread blocks: `cg::thread_block b = cg::this_thread_block();`."""
    out: set[str] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "declaration":
            d = n.child_by_field_name("declarator")
            text = node_text(n)
            # the model's reading of the declaration, so both agree on which sync() is a block barrier
            if d is not None and d.type == "init_declarator" and group_scope(text) == "block" and "grid" not in text:
                name = d.child_by_field_name("declarator")
                if name is not None and name.type == "identifier":
                    out.add(node_text(name))
        stack.extend(n.named_children)
    return out


def _op(node) -> str:
    op = node.child_by_field_name("operator")
    return node_text(op) if op is not None else ""


def _context(node) -> str:
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        node, parent = parent, parent.parent
    if parent is None:
        return "load"
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == node:
        return "store" if _op(parent) == "=" else "update"
    if parent.type == "update_expression":
        return "update"
    return "load"


def _root(node) -> str | None:
    """The identifier an access is based on: `A` in `A[i]`, `reinterpret_cast<float4*>(&A[i])[0]`,
    `*(A + i)`, `s[ty][tx]`."""
    for _ in range(32):
        t = node.type
        if t == "identifier":
            return node_text(node)
        if t in ("subscript_expression", "pointer_expression"):
            node = node.child_by_field_name("argument")
        elif t == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        elif t == "cast_expression":
            node = node.child_by_field_name("value")
        elif t == "call_expression":
            callee = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            if callee is None or args is None or not node_text(callee).split("<")[0].strip().endswith("_cast") \
                    or not args.named_children:
                return None
            node = args.named_children[0]
        elif t == "binary_expression" and _op(node) in ("+", "-"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            node = left if _root(left) is not None else right
        else:
            return None
        if node is None:
            return None
    return None


def _map_accesses(path: str, sites: list[Site], tables) -> list:
    """Each model Access to the site(s) at its span. An Access read through a statement macro has
    the statement's span: it goes to the sites inside it that name its array."""
    by_span = {}
    for s in sites:
        by_span.setdefault(s.span, s)
    unwrapped = []
    for table in tables:
        for acc in table.accesses:
            if (acc.path or table.path) != path:
                continue
            span = (acc.line, acc.column, acc.end_line, acc.end_column)
            site = by_span.get(span)
            if site is not None:
                if acc not in site.accesses:
                    site.accesses.append(acc)
                continue
            inside = [s for s in sites if (s.line, s.column) >= span[:2] and (s.end_line, s.end_column) <= span[2:]
                      and s.root in (acc.array.name, _leading_name(acc.text), None)]
            for s in inside:
                s.accesses.append(acc)
            if not inside:
                unwrapped.append(acc)
    return unwrapped


def _leading_name(text: str) -> str | None:
    m = re.match(r"\s*([A-Za-z_]\w*)", text or "")
    return m.group(1) if m else None


def _bind_checks(sites: list[Site], tables) -> None:
    """Check a site against its own buffer where the site names it directly in the kernel;
    otherwise against every buffer (`any`)."""
    kernels = {t.kernel: t for t in tables}
    for s in sites:
        table = kernels.get(s.function)
        arr = s.array
        if table is None or arr is None or s.root != arr.name or table.arrays.get(arr.name) is not arr:
            continue
        if arr.space == "global":
            pointers = [n for n, a in table.arrays.items() if a.space == "global"]
            s.check, s.buffer = "buffer", pointers.index(arr.name)
        elif arr.extent:
            s.check, s.array_bytes = "array", arr.extent * arr.elem_size


def _check_args(s: Site) -> str:
    if s.check == "buffer":
        return f"0, {s.buffer}, (const void*)0, 0ull"
    if s.check == "array":
        base = f"&({s.root})" if s.text.strip() == s.root else s.root    # a shared scalar is its own buffer
        return f"1, -1, (const void*)({base}), {s.array_bytes}ull"
    return "2, -1, (const void*)0, 0ull"
