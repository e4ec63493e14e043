"""File structure from tree-sitter-cuda: macros, kernels, `__device__` helpers, launch sites,
`// cudalint:` annotations and the regions the parser could not read."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from .macros import MacroTable, parse_define

MAX_INCLUDE_DEPTH = 4


class SourceError(Exception):
    """The file cannot be read at all (exit 2)."""


@functools.lru_cache(maxsize=1)
def _parser():
    import tree_sitter_cuda
    from tree_sitter import Language, Parser
    return Parser(Language(tree_sitter_cuda.language()))


def node_text(node) -> str:
    return node.text.decode("utf-8", errors="replace")


@dataclass
class Param:
    name: str
    type_name: str        # element type with qualifiers removed ("float", "T", "int")
    pointers: int
    node: object = None


@dataclass
class TemplateParam:
    name: str
    is_type: bool
    default: str | None


@dataclass
class Annotation:
    line: int
    kind: str            # launch | param
    grid: tuple[int, ...] | None = None
    block: tuple[int, ...] | None = None
    smem: int | None = None
    params: dict[str, int] = field(default_factory=dict)


@dataclass
class FunctionDef:
    name: str
    node: object                  # function_definition
    body: object                  # compound_statement
    is_kernel: bool
    is_device: bool
    params: list[Param]
    template_params: list[TemplateParam]
    launch_bounds: tuple[str, ...] | None
    line: int                     # 1-based line of the declaration start
    file: "SourceFile" = None
    annotations: list[Annotation] = field(default_factory=list)

    @property
    def type_names(self) -> frozenset[str]:
        return frozenset(t.name for t in self.template_params if t.is_type)


@dataclass
class LaunchSite:
    kernel: str
    template_args: list[str]
    config: list[str]             # grid, block[, smem[, stream]] expression texts
    args: list[str]               # kernel argument texts
    host: FunctionDef | None      # enclosing host function (to resolve dim3 variables)
    line: int
    file: "SourceFile" = None
    node: object = None


@dataclass
class ParseProblem:
    line: int
    column: int
    end_line: int
    message: str


_ANNOTATION = re.compile(r"^\s*(?://+|/\*+)\s*cudalint\s*:\s*(launch|param)\b(.*?)(\*/)?\s*$", re.DOTALL)


class SourceFile:
    def __init__(self, path: str, text: str, defines: MacroTable | None = None,
                 include_dirs: tuple[Path, ...] = (), _depth: int = 0):
        self.path = path
        self.text = text
        self.lines = text.splitlines()
        self.macros = MacroTable()
        self.functions: list[FunctionDef] = []
        self.launches: list[LaunchSite] = []
        self.annotations: dict[int, Annotation] = {}
        self.annotation_errors: list[ParseProblem] = []
        self.problems: list[ParseProblem] = []
        self.includes: list[str] = []
        data = text.encode("utf-8", errors="surrogateescape")
        self.tree = _parser().parse(data)
        self._collect(self.tree.root_node, None)
        self._read_includes(include_dirs, _depth)
        if defines is not None:
            self.macros.update(defines)
        if self.tree.root_node.has_error:
            self._collect_errors(self.tree.root_node)
        self._attach_annotations()

    # ---- structure -----------------------------------------------------------------------
    @property
    def kernels(self) -> list[FunctionDef]:
        return [f for f in self.functions if f.is_kernel]

    @property
    def device_functions(self) -> dict[str, FunctionDef]:
        return {f.name: f for f in self.functions if not f.is_kernel}

    def _collect(self, node, host: FunctionDef | None) -> None:
        # A walk with its own stack: 1,000 nested parentheses or braces must not hit Python's
        # recursion limit. Children are pushed in reverse so that they are visited in source order.
        stack = [(node, host)]
        while stack:
            node, host = stack.pop()
            t = node.type
            if t in ("preproc_def", "preproc_function_def"):
                m = parse_define(node_text(node), node.start_point[0] + 1, self.path)
                if m:
                    self.macros.define(m)
                continue
            if t == "preproc_include":
                path = node.child_by_field_name("path")
                if path is not None and path.type == "string_literal":
                    self.includes.append(node_text(path).strip('"'))
                continue
            if t == "comment":
                self._annotation(node)
                continue
            if t == "function_definition":
                fn = self._function(node)
                if fn is not None:
                    self.functions.append(fn)
                    inner = fn if not (fn.is_kernel or fn.is_device) else None
                    if fn.body is not None:
                        stack.extend((c, inner) for c in reversed(fn.body.children))
                continue
            if t == "call_expression" and any(c.type == "kernel_call_syntax" for c in node.children):
                self._launch(node, host)
            stack.extend((c, host) for c in reversed(node.children))

    def _function(self, node) -> FunctionDef | None:
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type in ("pointer_declarator", "reference_declarator"):
            decl = decl.child_by_field_name("declarator")
        if decl is None or decl.type != "function_declarator":
            return None
        name_node = decl.child_by_field_name("declarator")
        name = node_text(name_node).split("::")[-1] if name_node is not None else "?"
        words = {c.type for c in node.children}
        is_kernel = "__global__" in words
        # `#define HOSTDEV __host__ __device__` / `HOSTDEV int idx(...)`: the qualifier behind a macro
        is_device = "__device__" in words or any(
            (m := self.macros.get(node_text(c))) is not None and "__device__" in m.body
            for c in node.children if c.type in ("identifier", "type_identifier", "ERROR", "attribute_specifier"))
        bounds = None
        for c in node.children:
            if c.type == "launch_bounds":
                bounds = tuple(node_text(x) for x in c.named_children)
        params = []
        plist = decl.child_by_field_name("parameters")
        if plist is not None:
            for p in plist.named_children:
                if p.type in ("parameter_declaration", "optional_parameter_declaration"):
                    params.append(_param(p))
        template_params: list[TemplateParam] = []
        parent = node.parent
        if parent is not None and parent.type == "template_declaration":
            tl = parent.child_by_field_name("parameters")
            for tp in tl.named_children if tl is not None else ():
                template_params.append(_template_param(tp))
        start = parent if parent is not None and parent.type == "template_declaration" else node
        return FunctionDef(name, node, node.child_by_field_name("body"), is_kernel, is_device, params,
                           template_params, bounds, start.start_point[0] + 1, self)

    def _launch(self, node, host) -> None:
        fn = node.child_by_field_name("function")
        template_args: list[str] = []
        name_node = fn
        if fn is not None and fn.type == "template_function":
            name_node = fn.child_by_field_name("name")
            targs = fn.child_by_field_name("arguments")
            template_args = [node_text(a) for a in targs.named_children] if targs is not None else []
        name = node_text(name_node).split("::")[-1] if name_node is not None else "?"
        ks = next(c for c in node.children if c.type == "kernel_call_syntax")
        config = [node_text(c) for c in ks.named_children]
        args_node = node.child_by_field_name("arguments")
        args = [node_text(a) for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
        self.launches.append(LaunchSite(name, template_args, config, args, host, node.start_point[0] + 1, self, node))

    def _annotation(self, node) -> None:
        text = node_text(node)
        m = _ANNOTATION.match(text)
        if not m:
            return
        line = node.start_point[0] + 1
        from ..index.parse import ExprSyntaxError, parse_annotation
        body = "cudalint: " + m.group(1) + m.group(2)
        try:
            tree = parse_annotation(body)
        except ExprSyntaxError as exc:
            self.annotation_errors.append(ParseProblem(line, node.start_point[1] + 1, line,
                                                       f"cannot read annotation `{text.strip()}`: {exc}"))
            return
        ann = Annotation(line, m.group(1))
        directive = tree.children[0]
        try:
            for item in directive.children:
                if item.data == "grid":
                    ann.grid = _dims(item)
                elif item.data == "block":
                    ann.block = _dims(item)
                elif item.data == "smem":
                    ann.smem = _annotation_int(item.children[0])
                elif item.data == "assignment":
                    ann.params[str(item.children[0])] = _annotation_int(item.children[1])
        except ValueError as exc:
            self.annotation_errors.append(ParseProblem(line, node.start_point[1] + 1, line,
                                                       f"cannot read annotation: {exc}"))
            return
        self.annotations[line] = ann

    def _attach_annotations(self) -> None:
        """Annotations on the comment lines directly above a kernel belong to it."""
        for fn in self.functions:
            line = fn.line - 1
            while line >= 1:
                if line in self.annotations:
                    fn.annotations.append(self.annotations[line])
                elif not self.lines[line - 1].strip().startswith(("//", "/*", "*")) or not self.lines[line - 1].strip():
                    break
                line -= 1

    def _read_includes(self, include_dirs, depth) -> None:
        """Local `#include "x.h"` files are read for their macros (only macros: kernels in
        headers are analysed when the header itself is linted)."""
        if depth >= MAX_INCLUDE_DEPTH:
            return
        here = Path(self.path).parent
        for inc in dict.fromkeys(self.includes):      # a header included twice is read once
            for d in (here, *include_dirs):
                try:
                    p = d / inc
                    if not p.is_file():
                        continue
                    macros = _include_macros(str(p.resolve()), p.stat().st_mtime_ns, include_dirs, depth + 1)
                except (OSError, ValueError):     # a name the OS refuses (too long, NUL): not there
                    continue
                for m in macros:
                    self.macros.define(m)
                break

    def _collect_errors(self, node) -> None:
        if len(self.problems) >= 20:
            return
        if node.type == "ERROR" or node.is_missing:
            what = f"missing `{node.type}`" if node.is_missing else f"cannot parse `{_snippet(node_text(node))}`"
            self.problems.append(ParseProblem(node.start_point[0] + 1, node.start_point[1] + 1,
                                              node.end_point[0] + 1, what))
            return
        if node.has_error:
            for c in node.children:
                self._collect_errors(c)


@functools.lru_cache(maxsize=256)
def _include_macros(path: str, mtime_ns: int, include_dirs, depth: int) -> tuple:
    """The macros a header defines, read once per run however often it is included (a file that
    includes itself 30 times would otherwise be parsed 30^depth times); unreadable: none."""
    from ..inputs import InputError, read_regular
    try:
        text = read_regular(path, binary_check=False).decode("utf-8", errors="replace")
        return tuple(SourceFile(path, text, None, include_dirs, depth).macros.macros.values())
    except (InputError, RecursionError):
        return ()


def _snippet(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _annotation_int(token) -> int:
    """A number written in an annotation: a 64-bit integer (int() alone refuses 4300 digits with a
    traceback's worth of advice, and accepts values no kernel can take)."""
    text = str(token)
    v = int(text) if len(text) <= 20 else 1 << 64
    if not -2**63 <= v < 2**63:
        raise ValueError(f"`{text[:20]}{'…' if len(text) > 20 else ''}` is not a 64-bit integer")
    return v


def _dims(item) -> tuple[int, ...]:
    dims = [_annotation_int(t) for t in item.children[0].children]
    return tuple(dims + [1] * (3 - len(dims)))[:3]


_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct"}


def _param(p) -> Param:
    type_node = p.child_by_field_name("type")
    base = node_text(type_node) if type_node is not None else "int"
    extra = [node_text(c) for c in p.children if c.type in ("type_qualifier",)]
    decl = p.child_by_field_name("declarator")
    pointers = 0
    name = ""
    while decl is not None:
        if decl.type in ("pointer_declarator", "abstract_pointer_declarator"):
            pointers += 1
        elif decl.type == "array_declarator":
            pointers += 1
        elif decl.type in ("identifier", "field_identifier"):
            name = node_text(decl)
            break
        elif decl.type == "reference_declarator":
            pass
        nxt = decl.child_by_field_name("declarator")
        if nxt is None:
            ids = [c for c in decl.named_children if c.type == "identifier"]
            name = node_text(ids[0]) if ids else name
            break
        decl = nxt
    words = [w for w in (" ".join(extra) + " " + base).split() if w not in _QUALIFIERS]
    return Param(name, " ".join(words) or "int", pointers, p)


def _template_param(tp) -> TemplateParam:
    text = node_text(tp)
    default = None
    if "=" in text:
        text, default = text.split("=", 1)
        default = default.strip()
    words = text.replace("...", " ").split()
    name = words[-1] if words else "?"
    is_type = tp.type in ("type_parameter_declaration", "optional_type_parameter_declaration") or \
        (words and words[0] in ("typename", "class"))
    return TemplateParam(name, bool(is_type), default)


def read_source(path: str, defines: MacroTable | None = None, include_dirs=()) -> SourceFile:
    """Read and parse one file; raise SourceError with a one-line reason when unreadable (not a
    regular file, too large, binary)."""
    from ..inputs import InputError, read_regular
    try:
        data = read_regular(path)
    except InputError as exc:
        raise SourceError(str(exc)) from None
    return source_from_bytes(path, data, defines, include_dirs)


def source_from_bytes(path: str, data: bytes, defines=None, include_dirs=()) -> SourceFile:
    if b"\x00" in data[:8192]:
        raise SourceError(f"cannot read {path}: binary file (contains NUL bytes)")
    problem = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Latin-1 comments are common in old sources: read on, and say so.
        text = data.decode("utf-8", errors="replace")
        line = data[:exc.start].count(b"\n") + 1
        problem = ParseProblem(line, 1, line, f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
                                              f"{exc.start}); read with replacement characters")
    if text.startswith("\ufeff"):
        text = text[1:]
    src = SourceFile(path, text, defines, tuple(Path(d) for d in include_dirs))
    if problem is not None:
        src.problems.insert(0, problem)
    return src
