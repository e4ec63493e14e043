"""File structure from tree-sitter-cuda: macros, kernels, `__device__` helpers, launch sites,
`// cudalint:` annotations and the regions the parser could not read."""
from __future__ import annotations

import functools
import zlib
import re
from dataclasses import dataclass, field
from itertools import repeat

from ..preprocess import Preprocessor, file_key
from ..preprocess.macros import MacroError, MacroTable
from .types import FieldDecl, StructDef, split_top_level

# the last word of an integer type: `const unsigned int`, `constexpr size_t`, `static const int64_t`
INT_WORDS = _INT_WORDS = {"int", "unsigned", "long", "short", "size_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
              "int16_t", "uint16_t", "uint", "auto", "ptrdiff_t", "index_t"}


class SourceError(Exception):
    """The file cannot be read at all (exit 2)."""


@functools.lru_cache(maxsize=1)
def _parser():
    import tree_sitter_cuda
    from tree_sitter import Language, Parser
    return Parser(Language(tree_sitter_cuda.language()))


def condition_of(clause):
    """The condition a `( ... )` clause holds: its last named child that is no comment
    (`if (cj == n - 2 /* two per thread */)`)."""
    if clause is None:
        return None
    kids = [c for c in clause.named_children if c.type != "comment"]
    return kids[-1] if kids else None


def anonymous_type_name(type_node) -> str | None:
    """The name a struct, union or class defined in place with no name of its own (`__shared__
    struct { float v[256]; int done; } s;`) is known by: made of its text, so the same definition
    read in two units is one type. None for any other type."""
    if type_node.type not in ("struct_specifier", "union_specifier", "class_specifier") or \
            type_node.child_by_field_name("name") is not None or type_node.child_by_field_name("body") is None:
        return None
    return f"{type_node.type.split('_')[0]}@{zlib.crc32(type_node.text):08x}"


def specialization_key(text: str) -> str:
    """`Pack< half , 8 >` as `Pack<half, 8>`: how a class template's instance is named in tables."""
    base, _, args = text.partition("<")
    return base.strip() + "<" + ", ".join(" ".join(a.split()) for a in split_top_level(args.rsplit(">", 1)[0])) + ">"


def type_words(name: str) -> str:
    """A type as a message names it: an in-place struct by what it is, not by its made-up name."""
    return f"the {name.split('@')[0]} defined in place" if "@" in name else f"`{name}`"


def node_text(node) -> str:
    return node.text.decode("utf-8", errors="replace")


@dataclass
class Param:
    name: str
    type_name: str        # element type with qualifiers removed ("float", "T", "int")
    pointers: int
    node: object = None
    reference: bool = False   # `float& total`: the argument itself, not a copy
    volatile: bool = False    # `volatile float *s`: every access through it is its own load or store


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
    # a launch of the kernel the host function receives as its parameter number `through`
    # (`template <typename F> void launch(F f, dim3 g, dim3 b) { f<<<g, b>>>(...); }`): only the calls
    # passing this kernel there give its values
    through: int | None = None
    runtime: bool = False         # `cudaLaunchKernel((void*)k, ...)`: a pointer to the kernel, declared any way
    # a launch in the expansion of a macro called at `node`: (the expansion's statements, the launch
    # among them); what the expansion declares before the launch (`dim3 block(n / 4);`) is read too
    expansion: tuple | None = None


# the runtime's launch calls: kernel, grid, block, argument addresses, shared bytes, stream
_RUNTIME_LAUNCHES = frozenset({"cudaLaunchKernel", "cudaLaunchCooperativeKernel", "hipLaunchKernel",
                               "hipLaunchCooperativeKernel"})
# HIP's portable launch macro: kernel, grid, block, shared bytes, stream, then the arguments themselves
_ARGUMENT_LAUNCHES = frozenset({"hipLaunchKernelGGL"})
_KERNEL_NAME = re.compile(r"^\s*(?:HIP_KERNEL_NAME\s*)?\((?P<inner>.*)\)\s*$", re.S)
_CAST = re.compile(r"^\s*(?:\(\s*(?:const\s+)?void\s*\*\s*\)|(?:reinterpret|static)_cast\s*<[^<>]*>)\s*")
_KERNEL_OPERAND = re.compile(r"(?P<name>[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)\s*(?:<(?P<targs>.*)>)?", re.S)


def _strip_address(text: str) -> str:
    """`(void*)&k<float>`, `reinterpret_cast<void*>(k)`, `(void **)&p`: the operand under the casts and `&`."""
    t = text.strip()
    for _ in range(8):
        before = t
        t = _CAST.sub("", t, count=1).strip()
        if t.startswith("&"):
            t = t[1:].strip()
        while t.startswith("(") and t.endswith(")") and _balanced(t[1:-1]):
            t = t[1:-1].strip()
        if t == before:
            break
    return t


def kernel_operand(text: str) -> tuple[str, list[str]] | None:
    """The kernel a runtime launch's first argument names, and its template arguments:
    `(void*)&detail::k<float, 2>` -> ("k", ["float", "2"]); None where it names no function."""
    t = _strip_address(text)
    for _ in range(4):      # `(k)`, `HIP_KERNEL_NAME(k<T>)`
        m = _KERNEL_NAME.match(t)
        if m is None:
            break
        t = _strip_address(m.group("inner"))
    whole = _KERNEL_OPERAND.fullmatch(t)
    if whole is None:
        return None
    m = _KERNEL_OPERAND.fullmatch(_last_part(t)) or whole
    return m.group("name").split("::")[-1], (split_top_level(m.group("targs")) if m.group("targs") else [])


def _last_part(text: str) -> str:
    """`a::b<c::d>::k<T, 32>` -> `k<T, 32>`: the name after the last `::` outside brackets."""
    depth, cut = 0, 0
    for i, ch in enumerate(text):
        depth += ch == "<"
        depth -= ch == ">"
        if depth == 0 and text.startswith("::", i):
            cut = i + 2
    return text[cut:].strip()


def _balanced(t: str) -> bool:
    depth = 0
    for ch in t:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _address_array(body: str, name: str) -> list[str] | None:
    """The variables whose addresses the host puts in `void* name[] = {&a, (void*)&n}`, in order."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    m = re.search(r"\bvoid\s*\*\s*" + name + r"\s*\[[^\]]*\]\s*=\s*\{(?P<items>[^{}]*)\}", body)
    if m is None:
        return None
    items = [_strip_address(x) for x in split_top_level(m.group("items"))]
    return items if all(re.fullmatch(r"[A-Za-z_][\w.]*(?:->\w+)*", x) for x in items) else None


@dataclass
class ParseProblem:
    line: int
    column: int
    end_line: int
    message: str
    severity: str = "info"        # tree-sitter misreading a region of code the compiler reads: info
    code: str = "CL900"


@dataclass
class Constant:
    """An integer constant of file, namespace or struct scope: a value like a `#define`."""
    name: str                     # qualified: `ns::TILE`, `Packed::size`
    text: str                     # its initializer as written
    file: "SourceFile"
    line: int


# A statement holds nothing the walk looks for when its text has no launch (`<<<`, which may be
# spelt `< < <`), no annotation (`cudalint`) and no braces (a lambda's body, a struct, an
# initializer list); most statements of a file are such, and their nodes are not walked.
_PLAIN_STATEMENTS = {"expression_statement", "declaration", "return_statement"}
# Nor does an expression (an `if`'s or a `for`'s condition, a loop's update, a call's arguments) with
# no launch, annotation or brace: inside one, a declaration, a function or a scope needs a brace
# (a lambda's body, a statement expression), an annotation the word, a launch its brackets.
_PLAIN_EXPRESSIONS = {"binary_expression", "unary_expression", "update_expression", "assignment_expression",
                      "parenthesized_expression", "field_expression", "subscript_expression", "pointer_expression",
                      "cast_expression", "conditional_expression", "call_expression", "argument_list",
                      "sizeof_expression", "comma_expression"}
_PLAIN = _PLAIN_STATEMENTS | _PLAIN_EXPRESSIONS
_LAUNCH_BRACKETS = re.compile(rb"<\s*<\s*<")
_MACRO_WORD = re.compile(r"[A-Za-z_]\w*")


def _instance_scope(node, scope: str) -> str:
    """The scope a class member constant is named in: an explicit specialization (`template <>
    struct Log2<1> { static constexpr unsigned value = 0; };`) defines the member of that instance
    alone, `Log2<1>::value`, never the template's `Log2::value`."""
    up = node.parent
    while up is not None and up.type not in ("struct_specifier", "class_specifier", "union_specifier",
                                             "function_definition", "translation_unit"):
        up = up.parent
    name = up.child_by_field_name("name") if up is not None and up.type.endswith("_specifier") else None
    if name is None or name.type != "template_type":
        return scope
    base = node_text(name).split("<")[0].strip() + "::"
    return (scope[:-len(base)] if scope.endswith(base) else scope) + "".join(node_text(name).split()) + "::"


def _plain(node) -> bool:
    if node.has_error:           # what error recovery put inside is walked as before
        return False
    text = node.text
    return b"{" not in text and b"cudalint" not in text and not _LAUNCH_BRACKETS.search(text) and \
        b"cudaLaunch" not in text and b"hipLaunch" not in text


_ANNOTATION = re.compile(r"^\s*(?://+|/\*+)\s*cudalint\s*:\s*(launch|param)\b(.*?)(\*/)?\s*$", re.DOTALL)


# an initializer that can only be an integer: numbers, names and operators, no floating literal
# (one character class, linear on any text: a long template argument list never backtracks)
_INTEGER_TEXT = re.compile(r"[\w\s()+\-*/%<>&|^~!?:]{1,200}")


class SourceFile:
    """One file's structure, read off the text its translation unit compiles (see preprocess)."""

    def __init__(self, path: str, text: str, defines=None, include_dirs=(), view=None):
        if view is None:
            forced = list(defines.macros.values()) if isinstance(defines, MacroTable) else list(defines or ())
            view = Preprocessor(forced, include_dirs).unit(path, text)[file_key(path)]
        self.view = view
        self.path = path
        self.key = view.key
        self.text = view.text                 # inactive regions blanked
        self.lines = text.splitlines()        # the file as written, for reports
        self.macros = view.macros
        self.includes: list[str] = list(view.includes)
        self.reached: list[str] = list(view.reached)
        # as a unit's first file: the headers it reads otherwise than the unit that read them first
        # (`#define ENABLE_BF16` before an include), as it reads them (read_project attaches them)
        self.unit_variants: dict[str, SourceFile] = {}
        self.functions: list[FunctionDef] = []
        self.launches: list[LaunchSite] = []
        self.constants: dict[str, Constant] = {}
        self.typedefs: dict[str, str] = {}    # `typedef unsigned char Pixel;`, `using floatX = float;`
        # member type names that classes of the file define as different types (`Type` in each
        # specialization of `PrecMap<p>`): by the bare name, none of them
        self.ambiguous_typedefs: set[str] = set()
        self.structs: dict[str, StructDef] = {}       # struct/class/union definitions, by qualified name
        self.variables: dict[str, GlobalVariable] = {}   # file-scope `__shared__`, `__constant__`, `__device__`
        self.prototypes: set[str] = set()     # kernels declared here without a body
        self.annotations: dict[int, Annotation] = {}
        self.annotation_errors: list[ParseProblem] = []
        self.problems: list[ParseProblem] = _missing_headers_once(
            [ParseProblem(p.line, p.column, p.line, p.message, p.severity, p.code) for p in view.problems])
        self.problems += _skipped_kernels(self.lines, view.inactive)
        self._specifier_uses: dict[int, list[tuple[int, str]]] = {}     # line (0-based) -> (column, macro)
        parsed, self.body_pragmas = _for_parser(self.text, _specifier_macros(self.macros), self._specifier_uses,
                                                _if_macros(self.macros))
        data = parsed.encode("utf-8", errors="surrogateescape")
        self.tree = _parser().parse(data)
        self._annotated = b"cudalint" in data      # no comment of a file without the word is read
        self._collect(self.tree.root_node, None, "")
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

    def _collect(self, node, host: FunctionDef | None, scope: str) -> None:
        """Walk the file: functions, launch sites, annotations, and the integer constants of file,
        namespace and struct scope (`scope` is the enclosing `ns::` / `Struct::` prefix). The walk has
        its own stack: 1,000 nested parentheses or braces must not hit Python's recursion limit;
        children are pushed in reverse so that they are visited in source order."""
        # `local`: inside a function's body, where a `const` is that function's own and not a constant
        # of the file (a helper's `const int stride = __shfl_down_sync(...)` is no value of `stride`
        # elsewhere): only file, namespace and struct scope make constant tables
        stack = [(node, host, scope, False)]
        while stack:
            node, host, scope, local = stack.pop()
            t = node.type
            if t == "comment":
                if self._annotated:
                    self._annotation(node)
                continue
            if t == "function_definition":
                fn = self._function(node)
                if fn is not None:
                    self.functions.append(fn)
                    inner = fn if not (fn.is_kernel or fn.is_device) else None
                    if fn.body is not None:
                        stack.extend(zip(reversed(fn.body.named_children), repeat(inner), repeat(scope),
                                         repeat(True)))
                continue
            if not local and host is None and t in ("declaration", "field_declaration"):
                if t == "declaration" and _MEMORY_SPACE.search(node.text):
                    self._variable(node, scope)
                self._constant(node, scope)
                continue
            if not local and host is None and t == "enum_specifier":
                self._enum(node, scope)
            if not local and host is None and t in ("type_definition", "alias_declaration"):
                self._typedef(node, scope)
            if t == "namespace_definition":
                name = node.child_by_field_name("name")
                scope = scope + (node_text(name) + "::" if name is not None else "")
            elif t in ("struct_specifier", "class_specifier", "union_specifier") and host is None:
                if node.child_by_field_name("body") is not None:
                    self._struct(node, scope)
                name = node.child_by_field_name("name")
                if name is not None and node.child_by_field_name("body") is not None:
                    scope = scope + node_text(name).split("<")[0] + "::"
            if t == "call_expression" and any(c.type == "kernel_call_syntax" for c in node.children):
                self._launch(node, host)
            elif t == "call_expression" and host is not None and \
                    node_text(node.child_by_field_name("function") or node).split("::")[-1] in _RUNTIME_LAUNCHES:
                self._runtime_launch(node, host)
            elif t == "call_expression" and host is not None and \
                    node_text(node.child_by_field_name("function") or node) in _ARGUMENT_LAUNCHES:
                self._runtime_launch(node, host, addresses=False)
            if host is not None and t == "expression_statement" and self._launching_macros():
                self._macro_launch(node, host)
            if t in _PLAIN and _plain(node):
                continue
            # what the walk looks for are named nodes (tokens, the anonymous ones, have no children)
            kids = node.named_children
            if kids:
                stack.extend(zip(reversed(kids), repeat(host), repeat(scope), repeat(local)))

    def _constant(self, node, scope: str) -> None:
        """`const int TILE = 32;`, `constexpr`, `static constexpr` members: integer values like `#define`s.
        A `__global__` prototype is remembered: the file declares that kernel."""
        raw = node.text
        if b"const" not in raw and b"__global__" not in raw:     # neither: most declarations
            return
        if b"const" in raw and _in_function(node):     # a function's local is no constant of the file
            if b"__global__" not in raw:
                return
        words = {node_text(c) for c in node.children if c.type in ("type_qualifier", "storage_class_specifier")}
        type_node = node.child_by_field_name("type")
        tname = node_text(type_node).split() if type_node is not None else []
        integer = bool({"const", "constexpr"} & words) and tname[-1:] != [] and tname[-1] in _INT_WORDS
        # `const Ncv32u NUM_SCAN_THREADS = 256;`: a type the unit names (a typedef of an integer, as
        # often as not) with an integer value is taken as one; a floating value is not
        aliased = bool({"const", "constexpr"} & words) and type_node is not None and \
            type_node.type in ("type_identifier", "qualified_identifier") and not integer
        for d in node.children_by_field_name("declarator"):
            if d.type == "function_declarator":
                if "__global__" in {node_text(c) for c in node.children}:
                    inner = d.child_by_field_name("declarator")
                    self.prototypes.add(node_text(inner).split("::")[-1] if inner is not None else "")
                continue
            if not integer and not aliased:
                continue
            if d.type == "init_declarator":      # const int TILE = 32;
                target, value = d.child_by_field_name("declarator"), d.child_by_field_name("value")
            else:                                 # struct member: static constexpr int size = 16;
                target, value = d, node.child_by_field_name("default_value")
            if value is not None and value.type in ("initializer_list", "argument_list"):   # int N{32}
                value = value.named_children[0] if len(value.named_children) == 1 else None
            if target is None or value is None or target.type not in ("identifier", "field_identifier"):
                continue
            if aliased and (not _INTEGER_TEXT.fullmatch(node_text(value)) or
                            re.search(r"(?<![xX\w])\d+[eE.]|\.\d", node_text(value))):
                continue
            name = _instance_scope(node, scope) + node_text(target)
            self.constants[name] = Constant(name, node_text(value), self, node.start_point[0] + 1)

    def _struct(self, node, scope: str) -> None:
        """A struct/class/union definition: its members as written (index/types.py lays them out).
        `typedef struct {...} Name;` is known by the typedef's names."""
        sd = self._struct_def(node, scope)
        if sd is None:
            return
        names = [sd.name] if sd.name else []
        parent = node.parent
        if parent is not None and parent.type == "type_definition":
            names += [scope + node_text(d) for d in parent.children_by_field_name("declarator")
                      if d.type == "type_identifier"]
        elif not sd.name and parent is not None and parent.type == "declaration":
            names += [anonymous_type_name(node) or ""]     # `__shared__ struct { ... } s;`
        for n in names:
            self.structs.setdefault(n, sd if n == sd.name else _renamed(sd, n))

    def _struct_def(self, node, scope: str, depth: int = 0) -> StructDef | None:
        body = node.child_by_field_name("body")
        if body is None or depth > 8:
            return None
        name_node = node.child_by_field_name("name")
        name = scope + node_text(name_node).split("<")[0] if name_node is not None else ""
        kind = node.type.split("_")[0]
        head_end = body.start_byte
        start = node.parent.start_byte if node.parent is not None and node.parent.type == "type_definition" \
            else node.start_byte
        head = self._raw()[start:head_end]
        m = _ALIGN_ARG.search(head)
        if m is None and b"(" in head:
            # `struct ALIGN(16) ScnRay` with `#define ALIGN(x) __align__(x)`: the alignment its macro writes
            try:
                m = _ALIGN_ARG.search(self.macros.at(node.start_point[0] + 1).expand(
                    head.decode("utf-8", "replace")).encode("utf-8", "replace"))
            except MacroError:
                m = None
        align = m.group(1).decode("utf-8", "replace") if m else None
        bases = []
        for c in node.children:
            if c.type == "base_class_clause":
                bases = [node_text(b) for b in c.named_children if b.type not in ("access_specifier",)]
        tparams: tuple[str, ...] = ()
        if node.parent is not None and node.parent.type == "template_declaration":
            tl = node.parent.child_by_field_name("parameters")
            tparams = tuple(_template_param(tp).name for tp in (tl.named_children if tl is not None else ())
                            if tp.type != "comment")
        sd = StructDef(name, kind, [], align, tparams, tuple(bases), self, node.start_point[0] + 1)
        for f in body.named_children:
            if f.type != "field_declaration":
                continue
            words = {node_text(c) for c in f.children if c.type == "storage_class_specifier"}
            if "static" in words or "typedef" in words:
                continue
            type_node = f.child_by_field_name("type")
            if type_node is None:
                continue
            nested = None
            if type_node.type in ("struct_specifier", "union_specifier", "class_specifier") and \
                    type_node.child_by_field_name("body") is not None:
                nested = self._struct_def(type_node, "", depth + 1)
                if nested is None:
                    return None
            type_text = self._type_text(type_node)
            decls = f.children_by_field_name("declarator")
            bitfield = next((node_text(c.named_children[0]) for c in f.children
                             if c.type == "bitfield_clause" and c.named_children), None)
            if not decls and nested is not None:             # an anonymous struct/union member
                sd.fields.append(FieldDecl("", type_text, (), 0, bitfield, nested))
                continue
            for d in decls:
                if d.type == "function_declarator":
                    continue
                member = _declarator_shape(d)
                if member is None:
                    continue
                fname, dims, pointers, reference = member
                sd.fields.append(FieldDecl(fname, type_text, dims, pointers, bitfield, nested, reference))
        return sd

    def _type_text(self, type_node) -> str:
        """A member's or variable's type as written, a macro in it expanded (`REAL x;`, `#define REAL float`)."""
        if type_node.parent is not None and type_node.parent.type == "declaration":
            anonymous = anonymous_type_name(type_node)
            if anonymous is not None:
                return anonymous
        text = node_text(type_node)
        if type_node.type in ("primitive_type", "sized_type_specifier") or "{" in text:
            return text
        macros = self.macros.at(type_node.start_point[0] + 1)
        if macros.uses_macro(text):
            try:
                return " ".join(macros.expand(text).split())
            except MacroError:          # a macro that does not expand: the text as written
                return text
        return text

    def _raw(self) -> bytes:
        """The text tree-sitter read, with `__align__(N)` as written (its byte offsets are the tree's)."""
        raw = self.__dict__.get("_raw_bytes")
        if raw is None:
            raw = self.__dict__["_raw_bytes"] = self.text.encode("utf-8", errors="surrogateescape")
        return raw

    def _variable(self, node, scope: str) -> None:
        """A file- or namespace-scope `__shared__`, `__constant__` or `__device__` variable (not one
        declared inside a function, whose walk the model does)."""
        up = node.parent
        while up is not None:
            if up.type in ("function_definition", "compound_statement", "lambda_expression"):
                return
            up = up.parent
        words = {node_text(c) for c in node.children
                 if c.type in ("type_qualifier", "storage_class_specifier", "__device__")} | \
            {w for c in node.children if c.type in ("ERROR", "attribute_specifier") for w in node_text(c).split()}
        space = "shared" if "__shared__" in words else "constant" if "__constant__" in words else \
            "global" if "__device__" in words or "__managed__" in words else None
        if space is None:
            return
        type_node = node.child_by_field_name("type")
        if type_node is None:
            return
        type_text = self._type_text(type_node)
        for d in node.children_by_field_name("declarator"):
            value = None
            if d.type == "init_declarator":
                value = d.child_by_field_name("value")
                d = d.child_by_field_name("declarator")
            if d is None or d.type == "function_declarator":
                continue
            shape = _declarator_shape(d)
            if shape is None:
                continue
            name, dims, pointers, _ = shape
            qualified = scope + name
            self.variables[qualified] = GlobalVariable(
                qualified, space, type_text, dims, pointers, "extern" in words, "volatile" in words, self,
                node.start_point[0] + 1, node_text(value) if value is not None else None)

    def _typedef(self, node, scope: str = "") -> None:
        """`typedef float4 Type;`, `using type = T;`: by its name, and, inside a class (not one of a
        template's specializations), by the class's name too (`vec4::Type`)."""
        type_node = node.child_by_field_name("type")
        if type_node is None:
            return
        target = " ".join(w for w in node_text(type_node).split() if w not in ("const", "volatile", "struct"))
        if node.type == "alias_declaration":
            name = node.child_by_field_name("name")
            names = [node_text(name)] if name is not None else []
        else:
            names = [node_text(d) for d in node.children_by_field_name("declarator") if d.type == "type_identifier"]
        up = node.parent.parent if node.parent is not None and node.parent.type == "field_declaration_list" else None
        cls = up.child_by_field_name("name") if up is not None and up.type in ("struct_specifier", "class_specifier") \
            else None
        qualified = None
        if cls is not None and scope:
            text = node_text(cls)
            # a specialization's members by its arguments as written (`TypeConverter<half>::Type`)
            qualified = scope if "<" not in text else \
                scope[:len(scope) - len(text.split("<")[0].strip()) - 2] + specialization_key(text) + "::"
        for n in names:
            if cls is not None and self.typedefs.get(n, target) != target:
                self.ambiguous_typedefs.add(n)
            self.typedefs[n] = target
            if qualified is not None:
                self.typedefs.setdefault(qualified + n, target)

    def _enum(self, node, scope: str) -> None:
        """`enum { TILE = 32, ROWS }`: each enumerator is a constant (ROWS = TILE + 1)."""
        body = node.child_by_field_name("body")
        name = node.child_by_field_name("name")
        inner = scope + (node_text(name) + "::" if name is not None else "")
        prev = None
        for e in body.named_children if body is not None else ():
            if e.type != "enumerator":
                continue
            ident, value = e.child_by_field_name("name"), e.child_by_field_name("value")
            if ident is None:
                continue
            text = node_text(value) if value is not None else (f"({prev}) + 1" if prev is not None else "0")
            for n in {scope + node_text(ident), inner + node_text(ident)}:
                self.constants[n] = Constant(n, text, self, e.start_point[0] + 1)
            prev = node_text(ident)

    def _function(self, node) -> FunctionDef | None:
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type in ("pointer_declarator", "reference_declarator"):
            decl = decl.child_by_field_name("declarator")
        if decl is None or decl.type != "function_declarator":
            return None
        name_node = decl.child_by_field_name("declarator")
        # `k<at::Half>`, an explicit specialization: the `::` of a template argument is not the scope's
        name = _last_part(node_text(name_node)) if name_node is not None else "?"
        words = {c.type for c in node.children}
        # `#define HOSTDEV __host__ __device__` / `HOSTDEV int idx(...)`, `#define RAFT_KERNEL static
        # __global__ void` / `RAFT_KERNEL map_kernel(...)`: the qualifier behind a macro
        behind = [m.body for c in node.children if c.type in ("identifier", "type_identifier", "ERROR",
                                                              "attribute_specifier")
                  if (m := self.macros.at(node.start_point[0] + 1).get(node_text(c))) is not None]
        # a specifier macro blanked for the parser (`HOSTDEV inline int at(...)`), on the line of the
        # function's start before it, or alone on the line above
        row, col = node.start_point
        for r in (row - 1, row):
            for c_, word in self._specifier_uses.get(r, ()):
                if (r < row or c_ < col) and (m := self.macros.at(row + 1).get(word)) is not None:
                    behind.append(m.body)
        is_kernel = "__global__" in words or any(re.search(r"\b__global__\b", b) for b in behind)
        is_device = "__device__" in words or any("__device__" in b for b in behind)
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
                if tp.type != "comment":        # `const int kTile, // 64: Br = 16 * 2 * 2`
                    template_params.append(_template_param(tp))
        start = parent if parent is not None and parent.type == "template_declaration" else node
        return FunctionDef(name, node, node.child_by_field_name("body"), is_kernel, is_device, params,
                           template_params, bounds, start.start_point[0] + 1, self)

    def _launch(self, node, host, at=None) -> None:
        """A `kernel<<<...>>>(...)` call; `at`: the place that stands for it, where `node` is in the
        expansion of a macro called there."""
        fn = node.child_by_field_name("function")
        while fn is not None and fn.type == "parenthesized_expression" and fn.named_children:
            fn = fn.named_children[0]       # `(kernel<T, I>)<<<...>>>`, as a launch macro writes it
        template_args: list[str] = []
        name_node = fn
        if fn is not None and fn.type == "template_function":
            name_node = fn.child_by_field_name("name")
            targs = fn.child_by_field_name("arguments")
            template_args = [node_text(a) for a in targs.named_children] if targs is not None else []
        name = node_text(name_node).split("::")[-1] if name_node is not None else "?"
        if not template_args and "<" in name and name.endswith(">"):
            # `detail::matmul<Dtype, Itype, 32>`: a qualified name whose last part is a template
            m = _KERNEL_OPERAND.fullmatch(_last_part(node_text(name_node)))
            if m is not None and m.group("targs"):
                name, template_args = m.group("name"), split_top_level(m.group("targs"))
        ks = next(c for c in node.children if c.type == "kernel_call_syntax")
        config = [node_text(c) for c in ks.named_children]
        args_node = node.child_by_field_name("arguments")
        args = [node_text(a) for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
        at = node if at is None else at
        self.launches.append(LaunchSite(name, template_args, config, args, host, at.start_point[0] + 1, self, at))

    def _launching_macros(self) -> frozenset[str]:
        """The macros of the file whose expansion launches a kernel (`#define LAUNCH(V)
        kernel<T, V><<<grid, block>>>(...)`)."""
        got = self.__dict__.get("_launching")
        if got is None:
            # every definition the file makes, an `#undef`-ed one too (`#define LAUNCH(...) k<<<...>>>`,
            # its uses, then `#undef LAUNCH`): each use expands as the table stands at its line
            events = getattr(self.macros, "events", {})
            found = {n for n, evs in events.items()
                     if any(m is not None and _LAUNCH_BRACKETS.search(m.body.encode()) for _, m in evs)}
            # and those that call one (`#define CUDA_LAUNCH(fn, ...) CUDA_LAUNCH_SMEM(fn, ..., 0, ...)`)
            for _ in range(8):
                more = {n for n, evs in events.items() if n not in found and
                        any(m is not None and found & set(_MACRO_WORD.findall(m.body)) for _, m in evs)}
                if not more:
                    break
                found |= more
            got = self.__dict__["_launching"] = frozenset(found)
        return got

    def _macro_launch(self, stmt, host: FunctionDef) -> None:
        """`case 4: LAUNCH(4); break;`: a statement that calls a macro whose expansion launches a
        kernel is that launch, at the statement's place (its `case`, its `if`, the host code before
        it), with the configuration and arguments the expansion writes."""
        call = stmt.named_children[0] if stmt.named_children else None
        callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        if callee is None or callee.type != "identifier" or node_text(callee) not in self._launching:
            return
        try:
            text = self.macros.at(stmt.start_point[0] + 1).expand(node_text(stmt))
        except MacroError:
            return
        if not _LAUNCH_BRACKETS.search(text.encode()):
            return
        body = expansion_statements(text)
        stack = [body] if body is not None else []
        while stack:
            n = stack.pop()
            if n.type == "call_expression" and any(c.type == "kernel_call_syntax" for c in n.children):
                self._launch(n, host, at=call)
                self.launches[-1].expansion = (body, n)
                continue
            stack.extend(reversed(n.named_children))

    def _runtime_launch(self, node, host: FunctionDef, addresses: bool = True) -> None:
        """`cudaLaunchKernel((void*)k, grid, block, args, smem, stream)` (and the cooperative form): a
        launch of `k` whose arguments are the addresses in the host's `void* args[] = {&a, &n}`.
        Without `addresses`, HIP's `hipLaunchKernelGGL(HIP_KERNEL_NAME(k<1>), grid, block, smem,
        stream, a, n)`: the launch `k<1><<<grid, block, smem, stream>>>(a, n)` writes."""
        args_node = node.child_by_field_name("arguments")
        texts = [node_text(a) for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
        if len(texts) < 3:
            return
        operand = kernel_operand(texts[0])
        if operand is None:
            return
        name, template_args = operand
        if not addresses:
            self.launches.append(LaunchSite(name, template_args, texts[1:5], texts[5:], host,
                                            node.start_point[0] + 1, self, node))
            return
        args: list[str] = []
        if len(texts) > 3 and host.body is not None:
            args = _address_array(node_text(host.body), texts[3].strip()) or []
        self.launches.append(LaunchSite(name, template_args, texts[1:3] + texts[4:6], args, host,
                                        node.start_point[0] + 1, self, node, runtime=True))

    def _annotation(self, node) -> None:
        raw = node.text
        if b"cudalint" not in raw:      # most comments: not decoded
            return
        text = raw.decode("utf-8", errors="replace")
        m = _ANNOTATION.match(text)
        if not m:
            return
        line = node.start_point[0] + 1
        from ..grammar import ExprSyntaxError, parse_annotation
        body = "cudalint: " + m.group(1) + m.group(2)
        try:
            tree = parse_annotation(body)
        except ExprSyntaxError as exc:
            self.annotation_errors.append(ParseProblem(line, node.start_point[1] + 1, line,
                                                       f"cannot read annotation `{text.strip()}`: {exc}", "warning"))
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
                                                       f"cannot read annotation: {exc}", "warning"))
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

    def _macro_statement(self, node) -> bool:
        return _macro_statement_of(self, node)

    def _collect_errors(self, node) -> None:
        stack = [node]      # iterative: an error can sit under any depth of nesting
        while stack and len(self.problems) < 20:
            node = stack.pop()
            if (node.type == "ERROR" or node.is_missing) and self._macro_statement(node):
                continue        # `CALL_KERNEL(k, float)` with no `;`: a statement its macro's expansion completes
            if node.type == "ERROR" or node.is_missing:
                what = f"missing `{node.type}`" if node.is_missing else f"cannot parse `{_snippet(node_text(node))}`"
                self.problems.append(ParseProblem(node.start_point[0] + 1, node.start_point[1] + 1,
                                                  node.end_point[0] + 1, what))
            elif node.has_error:
                stack.extend(reversed(node.children))


_MACRO_HEAD = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:\(|$)")


def _macro_named(table, node) -> bool:
    if node is None:
        return False
    m = _MACRO_HEAD.match(node_text(node))
    return m is not None and table.get(m.group(1)) is not None


def _macro_statement_of(self, node) -> bool:
    """A parse error that is a macro used as a statement the way C code uses one: a call of a macro
    the unit defines with no `;` after it (its expansion ends the statement), or an object-like
    macro standing alone on its line (`GGML_TENSOR_LOCALS` that declares variables): tree-sitter
    reads the text before expansion, the compiler after."""
    table = self.macros.at(node.start_point[0] + 1)
    if node.is_missing:
        p = node.parent
        kids = p.named_children if p is not None else []
        return p is not None and p.type == "expression_statement" and bool(kids) and \
            kids[0].type == "call_expression" and _macro_named(table, kids[0].child_by_field_name("function"))
    if _macro_named(table, node):
        return True
    p = node.parent
    if p is not None and p.type == "declaration" and _macro_named(table, p.child_by_field_name("type")):
        return True
    # inside the arguments of a macro's call: a macro takes statements and declarations as its
    # arguments (`DISPATCH(type, "name", using T = float; kernel<T><<<g, b>>>(...);)`)
    up, depth = p, 0
    while up is not None and depth < 8 and up.type not in ("function_definition", "translation_unit"):
        if up.type == "call_expression" and _macro_named(table, up.child_by_field_name("function")):
            return True
        if up.type in ("declaration", "ERROR") and up.named_children and \
                _macro_named(table, up.named_children[0]) and up.named_children[0].type != "primitive_type":
            return True
        up, depth = up.parent, depth + 1
    return False


_KERNEL_HEAD = re.compile(r"\b__global__\b")


def _skipped_kernels(lines: list[str], inactive) -> list[ParseProblem]:
    """Kernels in the branches of `#if`s this run does not take (`#ifdef USE_CUDA` around a file's
    code, which its build defines): said once, at the first, with the directive, so a file that
    seems to hold no kernel says why."""
    found: list[tuple[int, int]] = []       # (kernel line, directive line)
    for a, b in inactive:
        for ln in range(a, min(b, len(lines)) + 1):
            if _KERNEL_HEAD.search(lines[ln - 1]) and not lines[ln - 1].lstrip().startswith(("//", "*", "/*")):
                found.append((ln, a - 1))
    if not found:
        return []
    line, at = found[0]
    directive = " ".join(lines[at - 1].split()) if 0 < at <= len(lines) else "#if"
    words = directive.split()
    name = words[1] if len(words) > 1 and words[0] in ("#ifdef", "#if", "#elif") and words[1].isidentifier() else None
    give = f" (give `-D {name}` as the build does)" if name else ""
    more = f", and {len(found) - 1} more" if len(found) > 1 else ""
    return [ParseProblem(line, 1, line, f"kernel not linted: it is in code the preprocessor skips here "
                                        f"(`{directive}` at line {at}{more}){give}", "info", "CL901")]


def _missing_headers_once(problems: list[ParseProblem]) -> list[ParseProblem]:
    """The local headers a file's `#include`s do not find, said once: at the first, naming the others."""
    missing = [p for p in problems if p.code == "CL901" and p.message.startswith("`#include") and " not found" in p.message]
    if len(missing) < 2:
        return problems
    names = [p.message.split("`")[1].removeprefix("#include ").strip('"') for p in missing]
    first = missing[0]
    first.message = (f"`#include \"{names[0]}\"` not found, nor {', '.join(f'`{n}`' for n in names[1:4])}"
                     f"{f' and {len(names) - 4} more' if len(names) > 4 else ''}: their macros and helpers are "
                     f"unknown, the file is analysed without them (give -I DIR, or a compile_commands.json)")
    return [p for p in problems if p is first or p not in missing]


_ALIGN = re.compile(r"__align__\s*\((?:[^()]|\([^()]*\))*\)")
_ALIGN_ARG = re.compile(rb"(?:__align__|alignas|__attribute__\s*\(\(\s*(?:__)?aligned(?:__)?)\s*\(\s*(\w+)\s*\)")
_MEMORY_SPACE = re.compile(rb"__shared__|__constant__|__device__|__managed__")


@dataclass
class GlobalVariable:
    """A variable of file or namespace scope in device memory: `__shared__ float tile[32][33];`,
    `extern __shared__ float dyn[];`, `__constant__ float coef[16];`, `__device__ int count;`."""
    name: str                           # qualified: `ns::tile`
    space: str                          # shared | constant | global
    type_text: str                      # the element type as written
    dims: tuple[str | None, ...]        # extents as written, outermost first (None: `[]`)
    pointers: int
    extern: bool
    volatile: bool
    file: "SourceFile"
    line: int
    value: str | None = None            # the initializer as written


def _declarator_shape(d) -> tuple[str, tuple[str | None, ...], int, bool] | None:
    """(name, array extents as written outermost first, pointer levels, reference) of a declarator."""
    dims: list[str | None] = []
    pointers, reference = 0, False
    while d is not None and d.type in ("pointer_declarator", "array_declarator", "reference_declarator",
                                       "parenthesized_declarator"):
        if d.type == "pointer_declarator":
            pointers += 1
        elif d.type == "reference_declarator":
            reference = True
        elif d.type == "array_declarator":
            size = d.child_by_field_name("size")
            dims.insert(0, node_text(size) if size is not None else None)
        nxt = d.child_by_field_name("declarator")
        if nxt is None:
            nxt = next((c for c in d.named_children if c.type not in ("type_qualifier", "comment")), None)
        d = nxt
    if d is None or d.type not in ("identifier", "field_identifier"):
        return None
    # `float *p[4]` is an array of pointers, `float (*p)[4]` a pointer to arrays: either way each
    # element is a pointer where a `*` came first; the walk above sees the outer declarator first
    return node_text(d), tuple(dims), pointers, reference


def _in_function(node) -> bool:
    up = node.parent
    while up is not None:
        if up.type in ("compound_statement", "function_definition", "lambda_expression"):
            # a struct's member function body is a function too; a namespace's braces are not this
            return up.type != "compound_statement" or up.parent is None or \
                up.parent.type not in ("namespace_definition",)
        if up.type in ("translation_unit", "declaration_list", "field_declaration_list"):
            return False
        up = up.parent
    return False


def _renamed(sd: StructDef, name: str) -> StructDef:
    from dataclasses import replace
    return replace(sd, name=name)


def expansion_statements(text: str):
    """A macro's expansion (statements) parsed as the body of a function of its own: that body's
    node, or None."""
    tree = _parser().parse(("void __cudalint_expansion() {\n" + text + "\n}").encode("utf-8", "surrogateescape"))
    top = tree.root_node.named_children[0] if tree.root_node.named_children else None
    return top.child_by_field_name("body") if top is not None else None


def _for_parser(text: str, specifiers: dict[str, bool] | None = None,
                uses: dict[int, list[tuple[int, str]]] | None = None,
                if_macros: frozenset[str] = frozenset()) -> tuple[str, dict[int, str]]:
    """What tree-sitter-cuda reads: `struct __align__(16) T {...}` and `float v[8]
    __attribute__((aligned(16)))` with the attribute blanked (the grammar does not know them
    there), the uses of macros that stand for declaration specifiers (`#define HDI __host__
    __device__ __forceinline__`, `#define ALIGN(n) __align__(n)`: `specifiers`, name -> takes
    arguments) and CUDA's own header words (`__device_builtin__`) blanked, and a `#pragma` line
    between a statement's head and its body (`for (j...)` / `#pragma unroll` / `for (k...)`: the
    grammar takes a directive only between statements, and would end the outer loop there) blanked
    too, its text kept by line (0-based); columns stay."""
    def blank(m) -> str:
        # not in a directive (`#define ALIGN(x) __align__(x)`: a define left with a body of blanks
        # is misread, with the line after it)
        line_start = m.string.rfind("\n", 0, m.start()) + 1
        if m.string[line_start:m.start()].lstrip().startswith("#"):
            return m.group(0)
        return " " * len(m.group(0))
    if "__align__" in text:
        text = _ALIGN.sub(blank, text)
    if "__attribute__" in text:
        text = _ATTRIBUTE.sub(blank, text)
    if "_builtin" in text:
        text = _HEADER_WORDS.sub(blank, text)
    if specifiers:
        text = _blank_uses(text, specifiers, uses)
    if if_macros:
        text = _chained_if_macros(text, if_macros)
    held: dict[int, str] = {}
    if "pragma" not in text:
        return text, held
    parts: list[str] = []
    last = 0
    for m in _PRAGMA_LINE.finditer(text):
        if not _ends_head(text, m.start()):
            continue
        held[text.count("\n", 0, m.start())] = m.group(0).strip()
        parts.append(text[last:m.start()])
        parts.append(" " * len(m.group(0)))
        last = m.end()
    if not held:
        return text, held
    parts.append(text[last:])
    return "".join(parts), held


_ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")
_HEADER_WORDS = re.compile(r"\b__(?:device|cudart)_builtin(?:_texture_type|_surface_type)?__\b")
_SPECIFIER_WORDS = frozenset({"inline", "__inline__", "__inline", "__forceinline__", "__noinline__", "static",
                              "__device__", "__host__", "extern", "constexpr", "__restrict__"})
_ALIGN_ANY = re.compile(r"\b(?:__align__|alignas|__declspec)\s*\((?:[^()]|\([^()]*\))*\)")


def _if_macros(macros) -> frozenset[str]:
    """The function-like macros of a unit whose expansion is an `if` statement
    (`#define PICK(N) if (n % N == 0) { run<N>(...); }`)."""
    out = set()
    for name, events in getattr(macros, "events", {}).items():
        m = next((m for _, m in reversed(events) if m is not None), None)
        if m is not None and m.params is not None and re.match(r"\s*if\s*\(", m.body) and m.body.rstrip().endswith("}"):
            out.add(name)
    return frozenset(out)


_CHAIN_END = re.compile(r"(\s+)(else\b|(?=\}))")


def _chained_if_macros(text: str, names: frozenset[str]) -> str:
    """`PICK(32) else PICK(16)`: uses of statement macros that expand to an `if`, chained by `else`
    the way their expansions read. The grammar reads no `else` after a call: the use gets the `;`
    a statement ends with, in the first blank after it, and the `else` is blanked (the chain's
    order is kept by the lines; what each use tests is in its expansion). Columns stay."""
    found = [n for n in names if n in text]
    if not found:
        return text
    use = re.compile(r"\b(?:" + "|".join(map(re.escape, found)) + r")\s*\(")
    out = list(text)
    for m in use.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith("#"):
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += (text[i] == "(") - (text[i] == ")")
            i += 1
        after = _CHAIN_END.match(text, i)
        if depth or after is None:
            continue
        out[after.start(1)] = ";" if text[after.start(1)] != "\n" else "\n"
        if out[after.start(1)] != ";":
            continue        # no blank before a line break to put it in: left as written
        if after.group(2) == "else":
            out[after.start(2):after.end(2)] = "    "
    return "".join(out)


def _specifier_macros(macros) -> dict[str, bool]:
    """The macros of a unit whose body is declaration specifiers and attributes alone (`HDI` for
    `__host__ __device__ __forceinline__`, `MY_ALIGN(n)` for `__align__(n)`, an empty `DEVICE`):
    name -> whether it takes arguments. One that makes a kernel (`__global__`) is not among them."""
    out: dict[str, bool] = {}
    for name, events in getattr(macros, "events", {}).items():
        m = next((m for _, m in reversed(events) if m is not None), None)
        if m is None or m.variadic:
            continue
        body = _ALIGN_ANY.sub(" ", _ATTRIBUTE.sub(" ", m.body))
        words = body.split()
        if all(w in _SPECIFIER_WORDS for w in words):
            out[name] = m.params is not None
    return out


def _blank_uses(text: str, specifiers: dict[str, bool], uses: dict | None = None) -> str:
    """`text` with the uses of the specifier macros blanked (with their arguments), directive lines
    left as they are; `uses` gets each blanked use's place, line (0-based) -> [(column, name)]."""
    names = [n for n in specifiers if n in text]
    if not names:
        return text
    use = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) +
                     r")\b(?:\s*\((?:[^()]|\([^()]*\))*\))?")
    parts: list[str] = []
    last = 0
    for m in use.finditer(text):
        word = m.group(0).split("(", 1)[0].strip()
        end = m.end() if specifiers[word] else m.start() + len(word)
        if specifiers[word] and end == m.start() + len(word):
            continue            # a function-like macro's name without its arguments: not a use
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith("#"):
            continue
        parts.append(text[last:m.start()])
        parts.append(" " * (end - m.start()))
        last = end
        if uses is not None:
            uses.setdefault(text.count("\n", 0, m.start()), []).append((m.start() - line_start, word))
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


_PRAGMA_LINE = re.compile(r"^[ \t]*#[ \t]*pragma\b[^\n]*", re.M)
_HEAD_END = re.compile(r"(?:\)|\belse|\bdo)\Z")


def _ends_head(text: str, at: int) -> bool:
    """The code before offset `at` ends a statement's head (`for (...)`, `if (...)`, `else`, `do`)
    whose body is still to come: what precedes is `)` or `else`/`do`, comments and other
    directives passed over."""
    while True:
        before = text[:at].rstrip()
        if before.endswith("*/"):
            start = before.rfind("/*")
            if start < 0:
                return False
            at = start
            continue
        line_start = before.rfind("\n") + 1
        line = before[line_start:]
        code = line.split("//", 1)[0].rstrip()
        if not code.strip() or code.lstrip().startswith("#"):
            if line_start == 0:
                return False
            at = line_start - 1     # a comment or a directive alone on its line: the line before
            continue
        return _HEAD_END.search(code) is not None


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
    """A grid or block written in an annotation, checked as --launch checks its own: 1 to 3
    positive sizes (a zero-size launch runs no thread, and would hide every finding)."""
    dims = [_annotation_int(t) for t in item.children[0].children]
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise ValueError(f"{item.data}=({','.join(map(str, dims))}): dimensions must be 1 to 3 positive integers "
                         f"(the annotation is not applied)")
    return tuple(dims + [1] * (3 - len(dims)))[:3]


_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct"}


def _param(p) -> Param:
    type_node = p.child_by_field_name("type")
    base = node_text(type_node) if type_node is not None else "int"
    extra = [node_text(c) for c in p.children if c.type in ("type_qualifier",)]
    decl = p.child_by_field_name("declarator")
    pointers = 0
    name = ""
    reference = False
    while decl is not None:
        if decl.type in ("pointer_declarator", "abstract_pointer_declarator"):
            pointers += 1
        elif decl.type == "array_declarator":
            pointers += 1
        elif decl.type in ("identifier", "field_identifier"):
            name = node_text(decl)
            break
        elif decl.type == "reference_declarator":
            reference = True
        nxt = decl.child_by_field_name("declarator")
        if nxt is None and decl.type == "parenthesized_declarator" and decl.named_children:
            nxt = decl.named_children[0]        # `void (*kernel)(Args...)`: a pointer to a function
        if nxt is None:
            ids = [c for c in decl.named_children if c.type == "identifier"]
            name = node_text(ids[0]) if ids else name
            break
        decl = nxt
    all_words = (" ".join(extra) + " " + base).split()
    words = [w for w in all_words if w not in _QUALIFIERS]
    return Param(name, " ".join(words) or "int", pointers, p, reference, "volatile" in all_words)


def enclosing_class_template(fn: FunctionDef) -> tuple[str, list[TemplateParam]] | None:
    """(class name, its template parameters) of the class template whose body defines member
    function `fn` (`template <bool S> struct Traits { static bool shift() { return S; } };`), or None."""
    node = getattr(fn.node, "parent", None)
    while node is not None and node.type != "field_declaration_list":
        if node.type in ("function_definition", "translation_unit", "namespace_definition"):
            return None
        node = node.parent
    spec = node.parent if node is not None else None
    decl = spec.parent if spec is not None else None
    if spec is None or spec.type not in ("struct_specifier", "class_specifier") or decl is None or \
            decl.type != "template_declaration":
        return None
    name = spec.child_by_field_name("name")
    params = decl.child_by_field_name("parameters")
    if name is None or params is None:
        return None
    return node_text(name), [_template_param(tp) for tp in params.named_children if tp.type != "comment"]


def _template_param(tp) -> TemplateParam:
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", node_text(tp), flags=re.S)
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


def decode_source(path: str, data: bytes) -> tuple[str, ParseProblem | None]:
    """A file's bytes as text, and a problem to report when they are not UTF-8."""
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
    from ..inputs import compiler_lines
    return compiler_lines(text.removeprefix("\ufeff")), problem


def source_from_bytes(path: str, data: bytes, defines=None, include_dirs=()) -> SourceFile:
    """One file preprocessed and parsed as a translation unit of its own."""
    text, problem = decode_source(path, data)
    src = SourceFile(path, text, defines, tuple(str(d) for d in include_dirs))
    if problem is not None:
        src.problems.insert(0, problem)
    return src
