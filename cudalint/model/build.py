"""Walk a kernel's statements (tree-sitter) and build its two-tree table.

Every expression is macro-expanded and parsed by the Lark grammar; names are resolved through
the definitions reaching them (the def-use edges are recorded), loops become Iterators with a
trip counter, conditions become guards, and every subscript / dereference becomes an Access.
"""
from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from ..index import ir
from ..index.parse import ExprSyntaxError, parse_expr
from ..source.cufile import FunctionDef, node_text
from ..source.macros import MacroError
from . import uniform, vector
from .table import (AREA, SLIDE, Access, Barrier, Exit, Iterator, LaunchConfig, MemoryArray, Note,
                    TwoTreeTable, short_text as _short)

_BUILTINS = {
    "threadIdx": "thread", "blockIdx": "block", "blockDim": "blockdim", "gridDim": "griddim",
}
_BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
             "sync", "__barrier_sync", "__syncwarp"}
# cooperative_groups: what a group variable's sync() waits for, by its type or its initializer
_WARP_GROUPS = ("thread_block_tile", "tiled_partition", "coalesced_group", "coalesced_threads")
_BLOCK_GROUPS = ("thread_block", "this_thread_block", "grid_group", "this_grid")
_MAX_INLINE_DEPTH = 6
_INT_TYPES = set(ir.INT_KINDS) | {"auto"}
_MISSING = object()


@dataclass(frozen=True)
class Ptr:
    """A pointer value: `array` plus an element offset, seen through `view` (e.g. float4)."""
    array: MemoryArray
    offset: ir.Expr
    view: str
    view_size: int


class Unfollowable(Exception):
    """A construct the model cannot follow; becomes a CL901 note."""


def _data(name: str) -> ir.Sym:
    return ir.Sym(name, "data", "float")


class KernelBuilder:
    def __init__(self, fn: FunctionDef, launch: LaunchConfig, functions: dict[str, FunctionDef],
                 template_values: dict[str, str], constants: dict | None = None, typedefs: dict | None = None):
        self.fn = fn
        self.src = fn.file                        # the file of the code being walked (a helper's, inside it)
        self.path = fn.file.path if fn.file else ""
        self.line = fn.line                       # the line being walked: macros are those in effect there
        self._macro_views: dict = {}               # (file, line) -> the macros there
        self.constants = constants or {}
        self.typedefs = typedefs or {}            # file-scope `typedef` / `using` names -> the type they stand for
        self._resolving: set[str] = set()         # constants being resolved (a cycle is not followed)
        self.launch = launch
        self.functions = functions
        self.env: dict[str, object] = {}
        self.types: dict[str, str] = {}           # declared C type of locals
        self.defs: dict[str, str] = {}            # variable -> current def id
        self.table = TwoTreeTable(fn.name, self.path, fn.line, launch, {}, [], [], [])
        self.table.thread_axes = set()
        self.guards: list[ir.Expr] = []
        self.loops: list[Iterator] = []
        self.seq = 0                              # program-order counter shared by accesses and barriers
        self.exits: dict[int, Exit] = {}          # id(guard) -> the early exit that put it on the guard stack
        self.groups: dict[str, str] = {}          # cooperative group variable -> "block" | "warp"
        self.group_sizes: dict[str, int] = {}     # a tile's size: `tiled_partition<32>(block)` -> 32
        self.grid_groups: set[str] = set()        # `cg::grid_group g = cg::this_grid();`
        self.shared_scalars: dict[str, Ptr] = {}  # `__shared__ float total;`: a one-element shared array
        self.var_scope: dict[str, int] = {}       # which threads share a local's value (uniform.py)
        self.volatile: set[str] = set()           # names declared `volatile` (each access stays its own)
        self.call_scope: dict[str, int] = {}      # ... a helper's result
        self.return_scopes: list[int] | None = None   # the returns of the helper being walked
        self.store_scope = uniform.THREAD         # ... the value the store being recorded writes
        self.cond_loop: Iterator | None = None    # the loop whose condition is being read
        self.nested_exits: list[Exit] = []        # exits of inner scopes that end, for the enclosing if
        self.type_names = set(fn.type_names)
        self._type_key = frozenset(self.type_names)   # the same, as the parser's cache key
        self.template_values = template_values
        self.depth = 0
        self.helper: str | None = None
        self.walk_root = fn.body                  # the body being walked: the kernel's, a helper's, a macro statement's
        self._assigns: dict = {}                  # loop body -> its assignment nodes (_assignments_under)
        self._loop_assigns = None                 # ... those of the loop being walked, with its walk root
        self._last_statement = None               # (statement node, its text as accesses show it)
        self._bind_template()
        self._bind_params()
        if fn.launch_bounds:
            try:
                self.table.launch_bounds = self.const_int(self.rvalue(self._parse(fn.launch_bounds[0]), None, None))
            except (ExprSyntaxError, MacroError):
                self.table.launch_bounds = None

    # ---- set-up ----------------------------------------------------------------------------
    def _bind_template(self) -> None:
        for tp in self.fn.template_params:
            val = self.template_values.get(tp.name, tp.default)
            if tp.is_type:
                self.types[tp.name] = val or ""
                if val:
                    self.table.template_bindings[tp.name] = val
                continue
            if val is None:
                self.env[tp.name] = ir.Sym(tp.name, "param")
                self.table.params[tp.name] = "int"
                continue
            if isinstance(val, ir.Expr):   # resolved on the host side at the launch site
                self.table.template_bindings[tp.name] = str(val)
                self.env[tp.name] = val if isinstance(val, ir.Num) else ir.Sym(tp.name, "param")
                continue
            self.table.template_bindings[tp.name] = val
            try:
                self.env[tp.name] = self.rvalue(self._parse(val), None, None)
            except (Unfollowable, ExprSyntaxError, MacroError):
                self.env[tp.name] = ir.Sym(tp.name, "param")

    def _elem_type(self, type_name: str) -> tuple[str, int, bool]:
        """Concrete element type and size; unbound template types are assumed 4 bytes."""
        t = self.types.get(type_name, type_name) or type_name
        for _ in range(8):          # typedef chains: Pixel -> unsigned char
            if t not in self.typedefs or ir.type_size(t) is not None:
                break
            t = self.typedefs[t]
        size = ir.type_size(t)
        if size is None:
            return t, 4, True
        return t, size, False

    def _bind_params(self) -> None:
        for p in self.fn.params:
            if not p.name:
                continue
            if p.volatile:
                self.volatile.add(p.name)
            if p.pointers:
                t, size, assumed = self._elem_type(p.type_name)
                arr = MemoryArray(p.name, "global", t, size, (), self.fn.line, size_assumed=assumed)
                self.table.arrays[p.name] = arr
                self.env[p.name] = Ptr(arr, ir.Num(0), t, size)
                if assumed:
                    self.table.assumptions.append(
                        f"element type `{p.type_name}` of `{p.name}` is not bound by a launch; assumed 4 bytes")
            else:
                t = self.types.get(p.type_name, p.type_name)
                if ir.type_size(t) is not None and (t in ir.INT_KINDS or t in ("unsigned", "int")):
                    self.env[p.name] = ir.Sym(p.name, "param", t)
                    self.table.params[p.name] = t
                elif t in ir.FLOAT_TYPES:
                    self.env[p.name] = ir.Sym(p.name, "data", t)
                else:
                    self.env[p.name] = ir.Sym(p.name, "unknown", t)
            self.defs[p.name] = f"{p.name}@param"
            self.table.definitions[f"{p.name}@param"] = f"{p.type_name} {'*' * p.pointers}{p.name} (parameter)"

    # ---- helpers ---------------------------------------------------------------------------
    def note(self, node, message: str) -> None:
        """A CL901 note at `node`, or at the line being walked when the construct has no node of its
        own (an array extent read outside any statement)."""
        line = node.start_point[0] + 1 if node is not None else self.line
        if any(n.line == line and n.message == message and n.path == self.path for n in self.table.notes):
            return
        col, end = (node.start_point[1] + 1, (node.end_point[0] + 1, node.end_point[1] + 1)) if node is not None \
            else (1, (line, 1))
        self.table.notes.append(Note("CL901", line, col, message, end[0], end[1], self.path))

    @property
    def macros(self):
        key = (id(self.src), self.line)
        view = self._macro_views.get(key)
        if view is None:
            view = self._macro_views[key] = self.src.macros.at(self.line)
        return view

    def _parse(self, text: str) -> ir.Expr:
        macros = self.macros
        if macros.uses_macro(text):
            text = macros.expand(text)
        return parse_expr(text, self._type_key)

    def _parse_node(self, node) -> tuple[ir.Expr, bool]:
        text = node_text(node)
        macros = self.macros
        if macros.uses_macro(text):
            return parse_expr(macros.expand(text), self._type_key), False
        return parse_expr(text, self._type_key), True

    def _def(self, name: str, line: int, value_text: str, uses: set[str]) -> None:
        d = f"{name}@{line}"
        self.table.definitions[d] = f"{name} = {value_text}"
        if isinstance(self.env.get(name), ir.Expr):
            self.table.def_values[d] = self.env[name]
        for u in uses:
            if u in self.defs:
                self.table.def_use.append((self.defs[u], d))
        self.defs[name] = d

    # ---- statements ------------------------------------------------------------------------
    def build(self) -> TwoTreeTable:
        arch = self.src.macros.at(self.fn.line).get("__CUDA_ARCH__") if self.src is not None else None
        if arch is not None and arch.body.strip().isdigit():
            self.table.arch = int(arch.body.strip())
        if self.fn.body is not None:
            self.stmt(self.fn.body)
        self._classify_phases()
        self._vector_merges()
        return self.table

    def stmt(self, node) -> str | None:
        """Walk one statement; return 'return'/'break'/'continue' if it always leaves."""
        t = node.type
        self.line = node.start_point[0] + 1
        try:
            if t == "compound_statement":
                return self.block(node.named_children)
            if t == "declaration":
                self.declaration(node)
            elif t == "expression_statement":
                if (m := _TEMPLATE_TYPE_DECLARATION.fullmatch(node_text(node))) is not None:
                    self.template_type_declaration(m, node)
                elif node.named_children:
                    self.expression(node.named_children[0], node)
            elif t == "if_statement":
                return self.if_statement(node)
            elif t == "for_statement":
                self.for_statement(node)
            elif t in ("while_statement", "do_statement"):
                self.while_statement(node)
            elif t == "return_statement":
                if node.named_children:
                    if self.return_scopes is not None:
                        self.return_scopes.append(self._scope(self._parse_node(node.named_children[0])[0]))
                    self.expression(node.named_children[0], node)
                return "return"
            elif t in ("break_statement", "continue_statement"):
                return t.split("_")[0]
            elif t == "switch_statement":
                self.switch_statement(node)
            elif t == "function_definition" and self.macros.uses_macro(node_text(node).split("{", 1)[0]):
                self.macro_statement(node)
            elif t in ("labeled_statement", "case_statement", "try_statement"):
                for c in node.named_children:
                    if c.type.endswith("statement"):
                        self.stmt(c)
            elif t in ("ERROR",):
                pass  # reported as CL900 by the source stage
            elif t in ("comment", "preproc_call", "preproc_def", "preproc_function_def", "empty_statement",
                       "type_definition", "alias_declaration", "static_assert_declaration",
                       "goto_statement", "using_declaration", "template_declaration",
                       "preproc_include", "namespace_alias_definition"):
                if t == "type_definition":
                    for c in node.named_children:
                        if c.type == "type_identifier":
                            self.type_names.add(node_text(c))
                            self._type_key = frozenset(self.type_names)
            else:
                self.note(node, f"statement of kind `{t}` is not followed by the model")
        except Unfollowable as exc:
            self.note(node, str(exc))
        except (ExprSyntaxError, MacroError) as exc:
            self.note(node, f"cannot read `{_short(node_text(node))}`: {exc}")
        except RecursionError:
            self.note(node, "expression nested too deeply")
        return None

    def block(self, children) -> str | None:
        mark = len(self.guards)
        leaves = None
        for c in children:
            if leaves is not None:
                break  # unreachable code after an unconditional return/break/continue
            leaves = self.stmt(c)
        self._drop_guards(mark)
        return leaves

    def _drop_guards(self, mark: int) -> None:
        """Leave a scope: its guards end here, but its early exits still bind the code after the
        enclosing `if` (collected in nested_exits for it)."""
        if len(self.guards) > mark:
            exits = self.exits
            for g in self.guards[mark:]:
                if id(g) in exits and exits[id(g)].guard is g:
                    self.nested_exits.append(exits[id(g)])
            del self.guards[mark:]

    def _scoped(self, walk):
        """Walk a loop body, a switch or a helper: exits inside end with it (break/continue are
        its own; a return there is not followed past it)."""
        saved, self.nested_exits = self.nested_exits, []
        try:
            return walk()
        finally:
            self.nested_exits = saved

    def switch_statement(self, node) -> None:
        cond_node = node.child_by_field_name("condition")
        inner = cond_node.named_children[-1] if cond_node is not None and cond_node.named_children else None
        cond = self.condition(inner, node)
        body = node.child_by_field_name("body")
        for case in body.named_children if body is not None else ():
            if case.type != "case_statement":
                continue
            value = case.child_by_field_name("value")
            guard = None
            if value is not None:
                try:
                    guard = ir.Bin("==", cond, self.rvalue(self._parse(node_text(value)), node, None))
                except (ExprSyntaxError, MacroError, Unfollowable):
                    guard = None
            mark = len(self.guards)
            if guard is not None:
                self.guards.append(guard)
            saved = dict(self.env)

            def walk_case():
                for c in case.named_children:
                    if c is not value and c.type.endswith(("statement", "declaration")):
                        if self.stmt(c) is not None:
                            break
            self._scoped(walk_case)
            self.env = saved
            del self.guards[mark:]

    def macro_statement(self, node) -> None:
        """`CUDA_KERNEL_LOOP(i, n) { ... }` reads as a function definition until the macro is
        expanded: expand the head, re-parse it in place (same lines and columns), and walk it."""
        from ..source.cufile import _parser
        head, rest = node_text(node).split("{", 1)
        expanded = self.macros.expand(head).replace("\n", " ")
        row, col = node.start_point
        pad = "\n" * row if row else ""
        prefix = "void __cudalint_scope() {" if row else ""
        text = prefix + pad + " " * col + expanded + " {" + rest + "}"
        tree = _parser().parse(text.encode("utf-8"))
        self._keep = getattr(self, "_keep", []) + [tree]
        body = tree.root_node.named_children[0].child_by_field_name("body") if row else tree.root_node
        if body is None:
            self.note(node, f"cannot follow the macro statement `{_short(head)}`")
            return
        saved, self.walk_root = self.walk_root, body     # a tree of its own
        try:
            for c in body.named_children:
                self.stmt(c)
        finally:
            self.walk_root = saved

    def declaration(self, node) -> None:
        text = node_text(node)
        type_node = node.child_by_field_name("type")
        type_name = node_text(type_node) if type_node is not None else "int"
        storage = {node_text(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")}
        if "volatile" in storage or "volatile" in type_name.split():
            type_name = "volatile " + type_name
        is_shared = "__shared__" in text.split("=")[0]
        is_extern = "extern" in storage or text.lstrip().startswith("extern")
        for decl in node.children_by_field_name("declarator"):
            self._declarator(decl, type_name, is_shared, is_extern, node)

    def _declarator(self, decl, type_name, is_shared, is_extern, stmt) -> None:
        value = None
        if decl.type == "init_declarator":
            value = decl.child_by_field_name("value")
            decl = decl.child_by_field_name("declarator")
        pointers = 0
        dims: list = []
        while decl is not None and decl.type in ("pointer_declarator", "array_declarator", "reference_declarator"):
            if decl.type == "pointer_declarator":
                pointers += 1
            elif decl.type == "array_declarator":
                size = decl.child_by_field_name("size")
                dims.insert(0, size)
            decl = decl.child_by_field_name("declarator") or (decl.named_children[-1] if decl.named_children else None)
        if decl is None:
            return
        name = node_text(decl)
        line = stmt.start_point[0] + 1
        value_text = node_text(value) if value is not None else ""
        if "volatile" in type_name.split():
            self.volatile.add(name)
        else:
            self.volatile.discard(name)
        base_type = " ".join(w for w in type_name.split() if w not in ("const", "volatile", "__restrict__"))
        self._group(name, type_name + " " + value_text)
        if value is not None and pointers and not dims and _SHARED_MEMORY_IDIOM.fullmatch(value_text):
            # `T* sdata = SharedMemory<T>();`: the dynamic shared memory, as `extern __shared__ T sdata[];`
            self._array(name, base_type, [None], True, True, line, None)
            return
        if dims:
            self._array(name, base_type, dims, is_shared, is_extern, line, value)
            return
        self.shared_scalars.pop(name, None)
        if is_shared and not pointers:
            t, size, assumed = self._elem_type(base_type)
            arr = MemoryArray(name, "shared", t, size, (1,), line, is_extern, assumed)
            self.table.arrays[name] = arr
            self.shared_scalars[name] = Ptr(arr, ir.Num(0), t, size)
            self.types[name] = base_type
            return
        if value is None:
            if pointers:
                self.env[name] = _data(name)
            else:
                self.env[name] = ir.Sym(name, "unknown", base_type)
            self.types[name] = base_type
            return
        if value.type == "argument_list" or value.type == "initializer_list":
            # `dim3 b(32, 8)` / `float4 v{...}`: not an index
            self.env[name] = ir.Sym(name, "unknown", base_type)
            return
        expr, exact = self._parse_node(value)
        val = self.rvalue(expr, stmt, value if exact else None)
        self.var_scope[name] = self._scope(expr)      # after the walk: a helper's result scope is known
        if pointers and isinstance(val, Ptr) and base_type not in ("auto",):
            t, size, _ = self._elem_type(base_type)
            if t != val.view and ir.type_size(t):
                val = Ptr(val.array, val.offset, t, size)
        elif not pointers and isinstance(val, ir.Expr):
            t = self.types.get(base_type, base_type)
            if t in ir.INT_KINDS:
                val = ir.Cast(ir.TypeRef(t), val) if _needs_cast(val, t) else val
        self.env[name] = val
        self.types[name] = base_type
        self._def(name, line, value_text, _names(expr))

    def _group(self, name: str, decl_text: str) -> None:
        """A cooperative group declared as `name`: its scope, a tile's size, a grid group."""
        scope = group_scope(decl_text)
        if not scope:
            return
        self.groups[name] = scope
        if scope == "warp" and (m := re.search(r"<\s*(\d+)\s*>", decl_text)):
            self.group_sizes[name] = int(m.group(1))
        if "grid" in decl_text:
            self.grid_groups.add(name)

    def template_type_declaration(self, m: re.Match, stmt) -> None:
        """`cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);`, which tree-sitter
        reads as a comparison: a declaration of `warp`."""
        type_name, name, value = m.group("type"), m.group("name"), m.group("value")
        self._group(name, type_name + " " + value)
        expr = self._parse(value)
        self.env[name] = self.rvalue(expr, stmt, None)
        self.types[name] = type_name
        self._def(name, stmt.start_point[0] + 1, value, _names(expr))

    def _array(self, name, base_type, dims, is_shared, is_extern, line, value) -> None:
        t, size, assumed = self._elem_type(base_type)
        extents: list[int | None] = []
        for d in dims:
            if d is None:
                extents.append(None)
                continue
            try:
                e = self._parse(node_text(d))
                # an extent read from memory (`float t[len[i]]`, seen where a damaged file misparses)
                # is no constant, and no access of the kernel either
                v = None if ir.of_type(e, ir.Subscript) or ir.of_type(e, ir.Deref) else \
                    self.const_int(self.rvalue(e, None, None))
            except (Unfollowable, ExprSyntaxError, MacroError):
                v = None
            extents.append(v)
        if is_extern and extents == [None] and self.launch.smem is not None:
            smem = self.const_int(self.launch.smem)
            if smem:
                extents = [smem // size]
        space = "shared" if is_shared else "local"
        arr = MemoryArray(name, space, t, size, tuple(extents), line, is_extern, assumed)
        self.table.arrays[name] = arr
        self.env[name] = Ptr(arr, ir.Num(0), t, size)
        self.types[name] = base_type

    def const_int(self, e) -> int | None:
        """Value of an expression that depends on nothing but constants and launch sizes."""
        if not isinstance(e, ir.Expr):
            return None
        from ..index.evaluate import Evaluator, Unknown
        env = {}
        if self.launch.block is not None:
            for axis, b in zip("xyz", self.launch.block):
                if isinstance(b, ir.Num):
                    env[f"blockDim.{axis}"] = b.value
        try:
            v = Evaluator(env).value(e)
        except (Unknown, ValueError, TypeError, OverflowError):
            return None
        try:
            return int(v)
        except (TypeError, ValueError):
            return None

    def expression(self, node, stmt) -> None:
        expr, exact = self._parse_node(node)
        self.effect(expr, stmt, node if exact else None)

    def if_statement(self, node) -> str | None:
        cond_node = node.child_by_field_name("condition")
        cond_inner = cond_node.named_children[-1] if cond_node is not None and cond_node.named_children else cond_node
        cond = self.condition(cond_inner, node)
        then = node.child_by_field_name("consequence")
        other = node.child_by_field_name("alternative")
        if other is not None and other.type == "else_clause":
            other = other.named_children[0] if other.named_children else None
        before = dict(self.env)
        mark, outer_exits = len(self.guards), self.nested_exits
        self.nested_exits = []
        self.guards.append(cond)
        leaves_then = self.stmt(then) if then is not None else None
        self._drop_guards(mark + 1)
        then_exits, self.nested_exits = self.nested_exits, []
        del self.guards[mark:]
        env_then = self.env
        self.env = dict(before)
        leaves_else = None
        if other is not None:
            self.guards.append(ir.negate(cond))
            leaves_else = self.stmt(other)
            self._drop_guards(mark + 1)
            del self.guards[mark:]
        else_exits, self.nested_exits = self.nested_exits, outer_exits
        env_else = self.env
        # Merge: a variable set in a branch holds `cond ? then : else` afterwards.
        merged = dict(before)
        for k in set(env_then) | set(env_else):
            a, b = env_then.get(k, before.get(k)), env_else.get(k, before.get(k))
            if leaves_then:
                merged[k] = b
            elif leaves_else:
                merged[k] = a
            elif a is b or a == b:
                merged[k] = a
            elif isinstance(a, ir.Expr) and isinstance(b, ir.Expr):
                merged[k] = ir.Cond(cond, a, b)
            elif isinstance(a, Ptr) and isinstance(b, Ptr) and a.array is b.array and a.view == b.view:
                merged[k] = Ptr(a.array, ir.Cond(cond, a.offset, b.offset), a.view, a.view_size)
            else:
                merged[k] = a if a is not None else b
        self.env = merged
        if leaves_then and leaves_else:
            return leaves_then
        if leaves_then in ("return", "continue", "break"):
            self._exit_guard(ir.negate(cond), node, leaves_then)   # the rest runs only where cond is false
        elif leaves_else in ("return", "continue", "break"):
            self._exit_guard(cond, node, leaves_else)
        # `if (a) { if (b) return; }`: the rest runs where !a || !b
        for exits, taken, leaves in ((then_exits, cond, leaves_then), (else_exits, ir.negate(cond), leaves_else)):
            if leaves is None:
                for e in exits:
                    self._exit_guard(ir.Bin("||", ir.negate(taken), e.guard), None, e.kind, e.line)
        return None

    def _exit_guard(self, guard: ir.Expr, node, kind: str, line: int = 0) -> None:
        self.guards.append(guard)
        self.exits[id(guard)] = Exit(guard, line or node.start_point[0] + 1, kind)

    def condition(self, node, stmt) -> ir.Expr:
        if node is None:
            return ir.Num(1)
        expr, exact = self._parse_node(node)
        val = self.rvalue(expr, stmt, node if exact else None)
        return val if isinstance(val, ir.Expr) else ir.Num(1)

    # ---- loops -----------------------------------------------------------------------------
    def for_statement(self, node) -> None:
        init = node.child_by_field_name("initializer")
        cond_node = node.child_by_field_name("condition")
        update = node.child_by_field_name("update")
        body = node.child_by_field_name("body")
        if init is not None:
            if init.type == "declaration":
                self.declaration(init)
            else:
                self.expression(init, node)
        var, step = None, None
        if update is not None:
            upd = self._parse(node_text(update))
            for a in _assignments(upd):
                if isinstance(a.target, ir.Name):
                    var, step = a.target.name, a
                    break
        self._loop(node, var, step, cond_node, body, "for")

    def while_statement(self, node) -> None:
        cond_node = node.child_by_field_name("condition")
        if cond_node is not None and cond_node.type in ("parenthesized_expression", "condition_clause"):
            cond_node = cond_node.named_children[-1] if cond_node.named_children else None
        body = node.child_by_field_name("body")
        self._loop(node, None, None, cond_node, body, "while")

    def _loop(self, node, var, step, cond_node, body, kind) -> None:
        line = node.start_point[0] + 1
        carried = self._carried_updates(body, var, step)
        start = self.env.get(var) if var is not None else None
        # The trip counter is named after the loop variable when the two coincide (0, 1, 2, ...).
        unit = var is not None and var in carried and _is_unit(start, carried[var])
        trip = ir.Sym(var if unit else f"iter({var or 'loop@' + str(line)})", "iter", "int")
        parent = self.loops[-1] if self.loops else None
        it = Iterator(var or f"loop@{line}", trip, trip, None, line, AREA, parent)
        it.unroll = _unroll_pragma(node)
        for name, (op, inc) in carried.items():
            cur = self.env.get(name)
            if self._is_data(name, cur):
                self.env[name] = _data(name)  # an accumulator, not an index
                continue
            value = self._step_value(cur, op, inc, trip)
            if value is None:
                self.env[name] = ir.Sym(name, "unknown")
                self.note(node, f"`{name}` changes across iterations of this loop in a way the model does not follow")
            else:
                self.env[name] = value
        if var is not None and var in carried and isinstance(self.env.get(var), ir.Expr):
            it.value = self.env[var]
            it.start = start if isinstance(start, ir.Expr) else None
            it.step_text = _short(str(step))
            it.grid_stride = any(s.kind == "griddim" for s in ir.symbols(it.value))
        barriers = len(self.table.barriers)
        it.seq_start = self._next_seq()
        self.cond_loop = it    # `while (__syncthreads_or(done))`: a barrier every iteration passes
        try:
            cond = self.condition(cond_node, node) if cond_node is not None else ir.Num(1)
        finally:
            self.cond_loop = None
        it.cond = cond
        self.table.iterators.append(it)
        self.loops.append(it)
        guard_mark = len(self.guards)
        self.guards.append(cond)
        mark = len(self.table.accesses)
        saved_assigns = self._loop_assigns
        if body is not None:
            self._loop_assigns = (self.walk_root, body.start_byte, body.end_byte, self._assignments_under(body))
        try:
            self._scoped(lambda: self.stmt(body))
        finally:
            self._loop_assigns = saved_assigns
        it.seq_end = self._next_seq()
        del self.guards[guard_mark:]
        self.loops.pop()
        it.has_barrier = any(b.is_block for b in self.table.barriers[barriers:])
        new = self.table.accesses[mark:]
        it.moves_global = any(a.space == "global" and a.kind == "load" for a in new) and \
            any(a.space in ("shared", "local") and a.kind == "store" for a in new)
        it.kind = SLIDE if (it.grid_stride or (it.moves_global and it.has_barrier)) else AREA
        # After the loop the carried variables hold values the model does not enumerate.
        for name in carried:
            if isinstance(self.env.get(name), ir.Expr):
                self.env[name] = ir.Sym(name, "unknown")

    def _is_data(self, name, cur) -> bool:
        t = self.types.get(name, "")
        t = self.types.get(t, t)
        if isinstance(cur, ir.Sym) and cur.kind == "data":
            return True
        return not isinstance(cur, Ptr) and t in ir.FLOAT_TYPES

    def _carried_updates(self, body, var, step) -> dict[str, tuple[str, object]]:
        """Variables updated in the loop by a loop-invariant step: `x += c`, `p += BK`, `s >>= 1`."""
        found: dict[str, tuple[str, object]] = {}
        assigns = []
        if step is not None:
            assigns.append(step)
        if body is not None:
            for n in self._assignments_under(body)[2]:
                try:
                    assigns.extend(_assignments(self._parse(node_text(n))))
                except (ExprSyntaxError, MacroError):
                    continue
        bad: dict[str, None] = {}       # in the order met: the notes about them come in this order
        for a in assigns:
            if not isinstance(a.target, ir.Name):
                continue
            name = a.target.name
            if name not in self.env:
                continue
            if a.op in ("+=", "-=", "*=", "<<=", ">>=", "/="):
                inc = a.value
            elif a.op == "=" and isinstance(a.value, ir.Bin) and a.value.op in "+-*" and \
                    a.value.left == ir.Name(name):
                inc, a = a.value.right, ir.Assign(a.value.op + "=", a.target, a.value.right)
            else:
                bad[name] = None
                continue
            if name in found:
                bad[name] = None
            found[name] = (a.op, inc)
        for name in bad:
            found[name] = ("?", None)
        return found

    def _assignments_under(self, body) -> tuple[list, list, list]:
        """`_assignment_nodes(body)` with their start and end bytes. An inner loop's are picked out
        of those of the loop around it (the same tree: the same walk root), and a helper's loop
        inlined at many calls is queried once."""
        found = self._assigns.get(body)
        if found is not None:
            return found
        outer = self._loop_assigns
        start, end = body.start_byte, body.end_byte
        if outer is not None and outer[0] is self.walk_root and outer[1] <= start and end <= outer[2]:
            starts, ends, nodes = outer[3]
            picked = []
            for i in range(bisect.bisect_left(starts, start), len(nodes)):
                if starts[i] >= end:
                    break
                if ends[i] <= end:
                    picked.append(i)
            found = ([starts[i] for i in picked], [ends[i] for i in picked], [nodes[i] for i in picked])
        else:
            nodes = _assignment_nodes(body)
            found = ([n.start_byte for n in nodes], [n.end_byte for n in nodes], nodes)
        self._assigns[body] = found
        return found

    def _step_value(self, cur, op, inc, trip):
        if op == "?" or inc is None or cur is None:
            return None
        if any(isinstance(n, (ir.Subscript, ir.Deref, ir.Call, ir.Assign)) for n in inc.walk()):
            return None
        try:
            inc_v = self.rvalue(inc, None, None)
        except Unfollowable:
            return None
        if isinstance(inc_v, Ptr) or not isinstance(inc_v, ir.Expr):
            return None
        if any(s.kind in ("data", "unknown") for s in ir.symbols(inc_v)):
            return None
        if isinstance(cur, Ptr):
            if op not in ("+=", "-="):
                return None
            delta = ir.mul(trip, inc_v)
            delta = delta if op == "+=" else ir.Un("-", delta)
            return Ptr(cur.array, ir.add(cur.offset, _scale(delta, cur)), cur.view, cur.view_size)
        if not isinstance(cur, ir.Expr):
            return None
        if op == "+=":
            return ir.add(cur, ir.mul(trip, inc_v))
        if op == "-=":
            return ir.Bin("-", cur, ir.mul(trip, inc_v))
        if op == ">>=":
            return ir.Bin(">>", cur, ir.mul(trip, inc_v))
        if op == "<<=":
            return ir.Bin("<<", cur, ir.mul(trip, inc_v))
        if op in ("*=", "/=") and isinstance(inc_v, ir.Num) and inc_v.value in (2, 4, 8, 16):
            shift = ir.mul(trip, ir.Num(inc_v.value.bit_length() - 1))
            return ir.Bin("<<" if op == "*=" else ">>", cur, shift)
        return None

    # ---- expressions -----------------------------------------------------------------------
    def effect(self, e: ir.Expr, stmt, node) -> None:
        """Evaluate an expression for its side effects: assignments and accesses."""
        match e:
            case ir.Comma(left=l, right=r):
                self.effect(l, stmt, None)
                self.effect(r, stmt, None)
                return
            case ir.Assign():
                self.assign(e, stmt, node)
                return
            case ir.Call(fn=fn, args=args) if _is_barrier(fn):
                self.barrier(fn, args, stmt, node)
                return
            case ir.Call(fn=fn, args=args, targs=targs) if fn in self.functions and self.depth < _MAX_INLINE_DEPTH:
                self.inline(self.functions[fn], args, stmt, targs)
                return
        self.rvalue(e, stmt, node)

    def assign(self, e: ir.Assign, stmt, node) -> None:
        target = e.target
        if isinstance(target, ir.Name) and target.name in self.shared_scalars:
            self.rvalue(e.value, stmt, node)
            scope = self._scope(e.value) if e.op == "=" else uniform.THREAD
            if e.op != "=":
                self.rvalue(target, stmt, node)
            self.store_scope = scope
            try:
                self._record(self.shared_scalars[target.name], ir.Num(0), "store", stmt, node, target)
            finally:
                self.store_scope = uniform.THREAD
            return
        if isinstance(target, ir.Name):
            name = target.name
            value = self.rvalue(e.value, stmt, node)
            if e.op == "=":
                self.var_scope[name] = self._scope(e.value)
            elif uniform.butterfly(e.value):       # `v += __shfl_xor_sync(m, v, o)` over every offset
                self.var_scope[name] = uniform.WARP
            else:
                self.var_scope[name] = min(self.var_scope.get(name, uniform.THREAD), self._scope(e.value))
            if e.op != "=":
                cur = self.env.get(name)
                value = self._compound(cur, e.op, value)
            elif isinstance(value, ir.Expr):
                t = self.types.get(name, "")
                t = self.types.get(t, t)
                if t in ir.INT_KINDS and _needs_cast(value, t):
                    value = ir.Cast(ir.TypeRef(t), value)
            self.env[name] = value
            self._def(name, stmt.start_point[0] + 1, _short(str(e.value)), _names(e.value))
            return
        if isinstance(target, ir.Member) and isinstance(target.base, ir.Name):
            self.rvalue(e.value, stmt, node)
            return  # a field of a struct/vector local: not an index
        # store to memory
        self.rvalue(e.value, stmt, node)
        scope = self._scope(e.value) if e.op == "=" else uniform.THREAD
        if e.op != "=":
            self.access(target, "load", stmt, node)
        self.store_scope = scope
        try:
            self.access(target, "store", stmt, node)
        finally:
            self.store_scope = uniform.THREAD

    def _compound(self, cur, op, value):
        if isinstance(cur, Ptr) and isinstance(value, ir.Expr) and op in ("+=", "-="):
            delta = value if op == "+=" else ir.Un("-", value)
            return Ptr(cur.array, ir.add(cur.offset, _scale(delta, cur)), cur.view, cur.view_size)
        if isinstance(cur, ir.Expr) and isinstance(value, ir.Expr):
            bop = op[:-1]
            if bop in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"):
                return ir.Bin(bop, cur, value) if bop != "+" else ir.add(cur, value)
        return ir.Sym("?", "unknown")

    def _bind_call_template(self, fn: FunctionDef, targs: tuple[str, ...]) -> None:
        """`spread<32>(t)`: the helper's template parameters take the call's template arguments."""
        for tp, text in zip(fn.template_params, targs):
            if tp.is_type:
                self.types[tp.name] = text
                continue
            try:
                self.env[tp.name] = self.rvalue(self._parse(text), None, None)
            except (ExprSyntaxError, MacroError):
                self.env[tp.name] = ir.Sym(tp.name, "param")

    def _volatile_in(self, fn: FunctionDef) -> set[str]:
        """The names that are `volatile` inside helper `fn`: its own volatile parameters, and the
        caller's volatile names its parameters do not shadow."""
        params = {p.name for p in fn.params}
        return {n for n in self.volatile if n not in params} | {p.name for p in fn.params if p.volatile}

    def inline(self, fn: FunctionDef, args, stmt, targs: tuple[str, ...] = ()) -> None:
        """A `__device__` helper called as a statement: walk its body with its parameters bound."""
        scopes = [self._scope(a) for a in args]
        # a `__shared__` scalar passed by reference is the scalar itself in the helper, not a read
        aliases = {p.name: self.shared_scalars[a.name] for p, a in zip(fn.params, args)
                   if p.reference and isinstance(a, ir.Name) and a.name in self.shared_scalars}
        vals = [None if p.name in aliases else self.rvalue(a, stmt, None) for p, a in zip(fn.params, args)]
        for a in args[len(fn.params):]:
            self.rvalue(a, stmt, None)
        saved = (self.env, self.types, self.helper, self.defs, self.src, self.path, self.line,
                 dict(self.groups), dict(self.group_sizes), set(self.grid_groups), dict(self.var_scope),
                 dict(self.shared_scalars), set(self.volatile), self.walk_root)
        self.env = dict(self.env)
        self.volatile = self._volatile_in(fn)
        self.types = dict(self.types)
        self.defs = dict(self.defs)
        self._bind_call_template(fn, targs)
        for p, v, a, sc in zip(fn.params, vals, args, scopes):
            if p.name in aliases:
                self.shared_scalars[p.name] = aliases[p.name]
                continue
            self.shared_scalars.pop(p.name, None)
            self.env[p.name] = v
            self.types[p.name] = p.type_name
            self.var_scope[p.name] = sc
            self._bind_group(p, a)
        self.helper = fn.name
        self.walk_root = fn.body
        if fn.file is not None:      # findings inside the helper stand where its text stands
            self.src, self.path = fn.file, fn.file.path
        self.depth += 1
        try:
            if fn.body is not None:
                self._scoped(lambda: self.stmt(fn.body))
        finally:
            self.depth -= 1
            (self.env, self.types, self.helper, self.defs, self.src, self.path, self.line,
             self.groups, self.group_sizes, self.grid_groups, self.var_scope, self.shared_scalars,
             self.volatile, self.walk_root) = saved

    def rvalue(self, e: ir.Expr, stmt, node):
        """Resolve names and record loads; returns an IR expression or a Ptr."""
        # names, numbers and operators are most of what comes here: tested first, by class
        cls = e.__class__
        if cls is ir.Name:
            n = e.name
            if n in self.shared_scalars:
                return self._record(self.shared_scalars[n], ir.Num(0), "load", stmt, node, e)
            got = self.env.get(n, _MISSING)
            if got is not _MISSING:
                return got
            if n == "warpSize":
                return ir.Num(32)
            if n in self.macros:
                return self.rvalue(self._parse(n), stmt, node)
            value = self._constant(n, stmt)
            if value is not None:
                return value
            return ir.Sym(n, "unknown")
        if cls is ir.Num or cls is ir.Sym or cls is ir.Str:
            return e
        if cls is ir.Bin:
            op, l, r = e.op, e.left, e.right
            if op == "&&" or op == "||":
                lv = self.rvalue(l, stmt, node)
                cond = lv if isinstance(lv, ir.Expr) else ir.Num(1)
                rv = self._under(cond if op == "&&" else ir.negate(cond), r, stmt, node)
                if isinstance(lv, ir.Expr) and isinstance(rv, ir.Expr):
                    return ir.Bin(op, lv, rv)
                return ir.Sym("?", "unknown")
            lv, rv = self.rvalue(l, stmt, node), self.rvalue(r, stmt, node)
            if lv.__class__ is Ptr and isinstance(rv, ir.Expr) and op in ("+", "-"):
                return Ptr(lv.array, ir.add(lv.offset, _scale(rv if op == "+" else ir.Un("-", rv), lv)),
                           lv.view, lv.view_size)
            if rv.__class__ is Ptr and isinstance(lv, ir.Expr) and op == "+":
                return Ptr(rv.array, ir.add(rv.offset, _scale(lv, rv)), rv.view, rv.view_size)
            if lv.__class__ is Ptr or rv.__class__ is Ptr:
                ptr, other = (lv, rv) if lv.__class__ is Ptr else (rv, lv)
                if op in ("==", "!=") and _is_null(other):
                    # `if (sums != NULL && ...)`: the same answer in every thread of the launch
                    return ir.Sym(f"{ptr.array.name} {op} NULL", "uniform")
                return ir.Sym("ptrdiff", "unknown")
            return _fold(ir.Bin(op, lv, rv))
        match e:
            case ir.Member(base=ir.Name(name=b), field=f) if b in _BUILTINS and f in ("x", "y", "z"):
                if b == "threadIdx":
                    self.table.thread_axes.add(f"threadIdx.{f}")
                return self._builtin(b, f)
            case ir.Member():
                self.rvalue(e.base, stmt, node)  # records a load in `A[i].x`
                return ir.Sym(f"{_short(str(e))}", "data")
            case ir.Un(op=op, operand=o):
                v = self.rvalue(o, stmt, node)
                return _fold(ir.Un(op, v)) if isinstance(v, ir.Expr) else ir.Sym("?", "unknown")
            case ir.Cond(cond=c, then=a, other=b):
                cv = self.rvalue(c, stmt, node)
                taken = cv if isinstance(cv, ir.Expr) else ir.Num(1)
                av = self._under(taken, a, stmt, node)
                bv = self._under(ir.negate(taken), b, stmt, node)
                if isinstance(av, Ptr) and isinstance(bv, Ptr) and av.array is bv.array:
                    return Ptr(av.array, ir.Cond(cv, av.offset, bv.offset), av.view, av.view_size)
                if isinstance(av, ir.Expr) and isinstance(bv, ir.Expr) and isinstance(cv, ir.Expr):
                    return ir.Cond(cv, av, bv)
                return ir.Sym("?", "unknown")
            case ir.Cast(type=t, expr=x):
                v = self.rvalue(x, stmt, node)
                if isinstance(v, Ptr) and t.pointers:
                    name, size, _ = self._elem_type(t.name)
                    return Ptr(v.array, v.offset, name, size)
                if isinstance(v, Ptr):
                    return ir.Sym("ptr", "unknown")
                tname = self.types.get(t.name, t.name)
                return ir.Cast(ir.TypeRef(tname, t.pointers), v) if tname in ir.INT_KINDS or tname in ir.FLOAT_TYPES else v
            case ir.Subscript() | ir.Deref():
                return self.access(e, "load", stmt, node)
            case ir.AddrOf(expr=x):
                return self.address(x, stmt, node)
            case ir.Assign():
                self.assign(e, stmt, node)
                return self.rvalue(e.target, stmt, node) if isinstance(e.target, ir.Name) else _data("assign")
            case ir.Comma(left=l, right=r):
                self.effect(l, stmt, node)
                return self.rvalue(r, stmt, node)
            case ir.Call(fn=fn, args=args, targs=targs):
                return self.call(fn, args, stmt, node, targs)
        return ir.Sym("?", "unknown")

    def _constant(self, name: str, stmt):
        """A file- or namespace-scope integer constant (`const int TILE = 32;`, an enumerator, a
        `static constexpr` member): its value, read with the macros where it is declared."""
        from .launch import lookup_constant
        c = lookup_constant(self.constants, name)
        if c is None or name in self._resolving:
            return None
        self._resolving.add(name)
        saved = self.src, self.line
        self.src, self.line = c.file, c.line
        try:
            value = self.rvalue(self._parse(c.text), stmt, None)
        except (ExprSyntaxError, MacroError, Unfollowable):
            value = None
        finally:
            self.src, self.line = saved
            self._resolving.discard(name)
        return value if isinstance(value, ir.Expr) and not _opaque(value) else None

    def _rvalues(self, exprs, stmt, node) -> list:
        """rvalue of each expression in turn (a loop: a comprehension in the callers would make cells
        of their variables in every call of them)."""
        out = []
        for x in exprs:
            out.append(self.rvalue(x, stmt, node))
        return out

    def _scope(self, e: ir.Expr) -> int:
        return uniform.scope(e, self.var_scope, self.env.get, self.call_scope)

    def _under(self, guard: ir.Expr, e: ir.Expr, stmt, node):
        """The rvalue of part of an expression that runs only where `guard` holds (`i < n ? a[i] : 0`,
        the right side of `&&`): its accesses carry the guard. (rvalue itself makes no closure: every
        call of it would pay for the cells its variables live in.)"""
        self.guards.append(guard)
        try:
            return self.rvalue(e, stmt, node)
        finally:
            self.guards.pop()

    def _builtin(self, b: str, f: str) -> ir.Expr:
        return ir.Sym(f"{b}.{f}", _BUILTINS[b], "unsigned")

    def call(self, fn: str, args, stmt, node, targs: tuple[str, ...] = ()):
        name = fn.split("::")[-1]
        receiver, _, method = fn.rpartition(".")
        if receiver and not args and method in ("thread_rank", "size", "num_threads", "meta_group_rank",
                                                 "meta_group_size", "block_rank", "num_blocks"):
            value = self._group_call(receiver, method)
            if value is not None:
                return value
        if name in ("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv") and len(args) == 1:
            p = self.rvalue(args[0], stmt, node)
            if isinstance(p, Ptr):
                return self._record(p, ir.Num(0), "load", stmt, node, args[0])
            return _data(name)
        if name in ("atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch", "atomicCAS",
                    "atomicAnd", "atomicOr", "atomicXor", "atomicInc", "atomicDec") and args:
            p = self.rvalue(args[0], stmt, node)
            for a in args[1:]:
                self.rvalue(a, stmt, node)
            if isinstance(p, Ptr):
                self._record(p, ir.Num(0), "atomic", stmt, node, args[0])
            return _data(name)
        if name in self.functions and self.depth < _MAX_INLINE_DEPTH and fn.split("::")[0] not in _LIBRARY_NAMESPACES:
            f = self.functions[name]
            ret = _single_return(f)
            vals = self._rvalues(args, stmt, node)
            if ret is not None:
                saved = self.env, self.types, self.src, self.line, self.path, self.volatile
                self.env, self.types = dict(self.env), dict(self.types)
                self.volatile = self._volatile_in(f)
                if f.file is not None:      # its accesses stand in the helper's own file
                    self.src, self.line, self.path = f.file, ret.start_point[0] + 1, f.file.path
                self._bind_call_template(f, targs)
                for p, v, a in zip(f.params, vals, args):
                    self.env[p.name] = v
                    self._bind_group(p, a)
                self.depth += 1
                try:
                    expr, exact = self._parse_node(ret)
                    return self.rvalue(expr, ret.parent, ret if exact else None)
                finally:
                    self.depth -= 1
                    self.env, self.types, self.src, self.line, self.path, self.volatile = saved
            saved_returns, self.return_scopes = self.return_scopes, []
            try:
                self.inline(f, args, stmt, targs)
                self.call_scope[fn] = min(self.return_scopes, default=uniform.THREAD)
            finally:
                self.return_scopes = saved_returns
            return _data(name)
        if _is_barrier(fn):
            self.barrier(fn, args, stmt, node)
            return _data(name)
        vals = self._rvalues(args, stmt, node)
        if _warp_collective(fn):
            self._collective(fn, stmt, node)
        if name in ("__mul24", "__umul24") and len(vals) == 2 and all(isinstance(v, ir.Expr) for v in vals):
            return ir.mul(vals[0], vals[1])     # exact for the 24-bit values an index holds: a term's stride
        if name in ("min", "max", "umin", "umax", "abs", "__mul24", "__umul24", "fminf", "fmaxf") and \
                all(isinstance(v, ir.Expr) for v in vals):
            return ir.Call(name, tuple(vals))
        return _data(f"{fn}()")      # a call the model does not follow (its value is data to it)

    def _group_call(self, receiver: str, method: str) -> ir.Expr | None:
        """`block.thread_rank()`, `block.size()`, `tile.thread_rank()` of cooperative groups, in
        thread coordinates; None for a group whose shape is not known (a grid, a coalesced group)."""
        scope = self.groups.get(receiver) or group_scope(receiver)
        tid = [self._builtin("threadIdx", a) for a in "xyz"]
        bd = [self._builtin("blockDim", a) for a in "xyz"]
        linear = ir.add(tid[0], ir.mul(bd[0], ir.add(tid[1], ir.mul(bd[1], tid[2]))))
        threads = ir.mul(bd[0], ir.mul(bd[1], bd[2]))
        if receiver in self.grid_groups or "grid" in receiver:
            bid = [self._builtin("blockIdx", a) for a in "xyz"]
            gd = [self._builtin("gridDim", a) for a in "xyz"]
            block = ir.add(bid[0], ir.mul(gd[0], ir.add(bid[1], ir.mul(gd[1], bid[2]))))
            blocks = ir.mul(gd[0], ir.mul(gd[1], gd[2]))
            return {"thread_rank": ir.add(ir.mul(block, threads), linear), "size": ir.mul(blocks, threads),
                    "num_threads": ir.mul(blocks, threads), "block_rank": block, "num_blocks": blocks}.get(method)
        if scope == "block":
            return linear if method == "thread_rank" else threads if method in ("size", "num_threads") else None
        size = self.group_sizes.get(receiver)
        if scope == "warp" and size:
            return {"thread_rank": ir.Bin("%", linear, ir.Num(size)), "size": ir.Num(size),
                    "num_threads": ir.Num(size), "meta_group_rank": ir.Bin("/", linear, ir.Num(size)),
                    "meta_group_size": ir.Bin("/", threads, ir.Num(size))}.get(method)
        return None

    def _bind_group(self, param, arg: ir.Expr) -> None:
        """A cooperative group passed to a helper (`const cg::thread_block& cta`) is that group there."""
        self.groups.pop(param.name, None)
        if isinstance(arg, ir.Name) and arg.name in self.groups:
            self.groups[param.name] = self.groups[arg.name]
            if arg.name in self.group_sizes:
                self.group_sizes[param.name] = self.group_sizes[arg.name]
            if arg.name in self.grid_groups:
                self.grid_groups.add(param.name)
        else:
            self._group(param.name, param.type_name)

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def barrier(self, fn: str, args, stmt, node) -> None:
        """Record a barrier at its place in program order, with the guards and early exits it sits under."""
        for a in args:
            self.rvalue(a, stmt, node)    # `__syncthreads_count(s[i] > 0)` reads before it waits
        receiver = fn.rsplit(".", 1)[0] if fn.endswith(".sync") else ""
        if fn.split("::")[-1] == "sync" and args and isinstance(args[0], ir.Name):
            receiver = args[0].name       # cg::sync(group)
        if fn == "__syncwarp":
            scope = "warp"
        elif receiver:
            scope = self.groups.get(receiver) or group_scope(receiver) or "block"
        else:
            scope = "block"
        where = node if node is not None else stmt
        exits = tuple(self.exits[id(g)] for g in self.guards if id(g) in self.exits and self.exits[id(g)].guard is g)
        loops = tuple(self.loops) + ((self.cond_loop,) if self.cond_loop is not None else ())
        self.table.barriers.append(Barrier(where.start_point[0] + 1, tuple(self.guards), loops,
                                           _short(node_text(where)), self._next_seq(), scope,
                                           where.start_point[1] + 1, where.end_point[1] + 1, exits, self.path))

    def _collective(self, fn: str, stmt, node) -> None:
        """A warp collective waits for the lanes of its warp (its mask): like `__syncwarp()`, it orders
        the lanes' shared-memory accesses before it against those after it (racecheck agrees)."""
        where = node if node is not None else stmt
        exits = tuple(self.exits[id(g)] for g in self.guards if id(g) in self.exits and self.exits[id(g)].guard is g)
        self.table.barriers.append(Barrier(where.start_point[0] + 1, tuple(self.guards), tuple(self.loops),
                                           f"{fn}()", self._next_seq(), "warp", where.start_point[1] + 1,
                                           where.end_point[1] + 1, exits, self.path, collective=True))

    def address(self, x: ir.Expr, stmt, node):
        """`&A[i]` → pointer to element i of A (no memory access)."""
        match x:
            case ir.Name(name=n) if n in self.shared_scalars:
                return self.shared_scalars[n]
            case ir.Subscript():
                ptr, index = self._element(x, stmt, node)
                if ptr is None:
                    return ir.Sym("addr", "unknown")
                return Ptr(ptr.array, ir.add(ptr.offset, _scale(index, ptr)), ptr.view, ptr.view_size)
            case ir.Deref(expr=p):
                return self.rvalue(p, stmt, node)
        return ir.Sym("addr", "unknown")

    def _element(self, e: ir.Expr, stmt, node):
        """For `base[i]...[j]` return (pointer of the innermost array, flat index in view units)."""
        chain = []
        cur = e
        while isinstance(cur, ir.Subscript):
            chain.append(cur.index)
            cur = cur.base
        chain.reverse()
        base = self.rvalue(cur, stmt, node)
        if not isinstance(base, Ptr):
            return None, None
        idx = self._rvalues(chain, stmt, node)
        for i in idx:
            if not isinstance(i, ir.Expr):
                raise Unfollowable(f"index of `{_short(str(e))}` is a pointer")
        dims = base.array.dims if base.array.space != "global" else ()
        if len(idx) > 1 and len(dims) >= len(idx) and base.offset == ir.Num(0):
            flat = idx[0]
            for k in range(1, len(idx)):
                d = dims[k]
                flat = ir.add(ir.mul(flat, ir.Num(d if d is not None else 0)), idx[k])
            return base, flat
        if len(idx) > 1:
            raise Unfollowable(f"`{_short(str(e))}`: multi-dimensional subscript of a pointer")
        return base, idx[0]

    def access(self, e: ir.Expr, kind: str, stmt, node):
        if isinstance(e, ir.Deref):
            p = self.rvalue(e.expr, stmt, node)
            if isinstance(p, Ptr):
                return self._record(p, ir.Num(0), kind, stmt, node, e)
            return _data("deref")
        if isinstance(e, ir.Subscript):
            try:
                ptr, index = self._element(e, stmt, node)
            except Unfollowable as exc:
                self.note(stmt, str(exc))
                return _data("subscript")
            if ptr is None:
                base = e
                while isinstance(base, ir.Subscript):
                    base = base.base
                if isinstance(base, ir.Name) and base.name not in self.env:
                    self.note(stmt, f"`{base.name}` is not a known array or pointer (global `__device__` arrays, "
                                    f"textures and struct members are not followed)")
                for i in _subscript_indexes(e):
                    self.rvalue(i, stmt, node)
                return _data("subscript")
            dims_idx = None
            chain = []
            cur = e
            while isinstance(cur, ir.Subscript):
                chain.append(cur.index)
                cur = cur.base
            if len(chain) > 1:
                dims_idx = tuple(self._rvalues(reversed(chain), stmt, node))
            return self._record(ptr, index, kind, stmt, node, e, dims_idx)
        return self.rvalue(e, stmt, node)

    def _record(self, ptr: Ptr, index: ir.Expr, kind: str, stmt, node, e, dims_idx=None):
        arr = ptr.array
        flat = ir.add(ptr.offset, _scale(index, ptr))
        if dims_idx is None:
            dims_idx = (flat,)
        span = getattr(e, "span", (0, 0))
        if node is not None and span != (0, 0):
            line, col, end_line, end_col = _locate(node, span)
        elif stmt is not None:
            line, col = stmt.start_point[0] + 1, stmt.start_point[1] + 1
            end_line, end_col = stmt.end_point[0] + 1, stmt.end_point[1] + 1
        else:       # read outside any statement (a helper called from a declaration's extent)
            line, col, end_line, end_col = self.line, 1, self.line, 1
        unresolved = None
        for s in ir.symbols(flat):
            if s.kind in ("data", "unknown"):
                if s.kind == "data" and s.name.endswith("()"):
                    unresolved = (f"index depends on the call `{s.name[:-2]}(…)`, which the model does not follow "
                                  f"(give it the definition: a `__device__` function or a macro it can read)")
                elif s.kind == "data":
                    unresolved = f"index depends on `{s.name}`, a value loaded from memory (indirect access)"
                else:
                    unresolved = f"index depends on `{s.name}`, which the model does not follow"
                break
        kinds = ["load", "store"] if kind == "atomic" else [kind]
        defs, reaching = self.defs, {}
        for n in _names(e):
            if n in defs:
                reaching[n] = defs[n]
        written = getattr(e, "index", None)
        deps = {}
        for n in (ir.of_type(written, ir.Name) if written is not None else ()):
            if isinstance(self.env.get(n.name), ir.Expr):
                deps[n.name] = {s.name for s in ir.symbols(self.env[n.name]) if s.kind == "thread"}
        for k in kinds:
            acc = Access(arr, k, flat, tuple(dims_idx), ptr.view_size, line, col, end_line, end_col,
                         tuple(self.guards), tuple(self.loops),
                         statement=self._statement_text(stmt), helper=self.helper, path=self.path,
                         unresolved=unresolved,
                         atomic=kind == "atomic", name_deps=deps, seq=self._next_seq(),
                         reaching=reaching,
                         value_scope=self.store_scope if k == "store" and kind == "store" else uniform.THREAD,
                         volatile=_base_name(e) in self.volatile, written=e,
                         written_index=written if written is not None else index)
            self.table.accesses.append(acc)
        return _data(arr.name)

    def _statement_text(self, stmt) -> str:
        """`stmt`'s text as an access shows it, read once for the accesses of one statement."""
        last = self._last_statement
        if last is not None and last[0] is stmt:
            return last[1]
        text = _short(node_text(stmt), 120)
        self._last_statement = (stmt, text)
        return text

    def _vector_merges(self) -> None:
        trips: dict = {}
        self.table.merges = vector.merges(self.table, trips)
        self.table.possible_merges = vector.possible_merges(self.table, self.table.merges, trips)

    def _classify_phases(self) -> None:
        """load: global reads and the shared/register stores they feed; store: global writes;
        compute: everything else (the seed's three phases)."""
        by_stmt: dict[tuple[int, str], list[Access]] = {}
        for a in self.table.accesses:
            by_stmt.setdefault((a.line, a.statement), []).append(a)
        for group in by_stmt.values():
            global_load = any(a.space == "global" and a.kind == "load" for a in group)
            for a in group:
                if a.space == "global":
                    a.phase = "load" if a.kind == "load" else "store"
                elif a.kind == "store" and global_load:
                    a.phase = "load"
                else:
                    a.phase = "compute"


# ---- small helpers ---------------------------------------------------------------------------
def _unroll_pragma(node) -> int | None:
    """`#pragma unroll` (0) or `#pragma unroll N` (N) right before a loop; None without one."""
    prev = node.prev_sibling
    while prev is not None and prev.type == "comment":
        prev = prev.prev_sibling
    if prev is None or prev.type != "preproc_call":
        return None
    words = node_text(prev).split()
    if words[:1] == ["#pragma"] and words[1:2] == ["unroll"]:
        words = words[2:]
    elif words[:2] == ["#", "pragma"] and words[2:3] == ["unroll"]:
        words = words[3:]
    else:
        return None
    if not words:
        return 0
    try:
        return max(1, int(words[0].strip("()"), 0))
    except ValueError:
        return 0        # a count nvcc reads from a constant: unrolled, count unknown here


def _base_name(e: ir.Expr) -> str | None:
    """The pointer or array name an access goes through: `s` in `s[i][j]`, `*(s + i)`, `s->x`."""
    while True:
        match e:
            case ir.Name(name=n):
                return n
            case ir.Subscript(base=b) | ir.Member(base=b) | ir.Cast(expr=b) | ir.Deref(expr=b) | ir.AddrOf(expr=b):
                e = b
            case ir.Bin(op="+" | "-", left=l):
                e = l
            case _:
                return None


def _names(e: ir.Expr) -> set[str]:
    return {n.name for n in ir.of_type(e, ir.Name)}


def _assignments(e: ir.Expr) -> list[ir.Assign]:
    return list(ir.of_type(e, ir.Assign))


@functools.lru_cache(maxsize=1)
def _assignments_query():
    from tree_sitter import Query
    from ..source.cufile import _parser
    return Query(_parser().language, "[(assignment_expression) (update_expression)] @a")


def _assignment_nodes(node) -> list:
    """The assignments and `++`/`--` under `node`, itself included, in the order a walk meets them
    (a parent before what it holds): found by a tree-sitter query, in C, not by a walk of every
    node in Python (for every loop, again for each loop around it)."""
    from tree_sitter import QueryCursor
    found = QueryCursor(_assignments_query()).captures(node).get("a", [])
    return sorted(found, key=lambda n: (n.start_byte, -n.end_byte))


def _subscript_indexes(e):
    while isinstance(e, ir.Subscript):
        yield e.index
        e = e.base


def _is_unit(start, carried) -> bool:
    op, inc = carried
    return isinstance(start, ir.Num) and start.value == 0 and op == "+=" and inc == ir.Num(1)


def _scale(index: ir.Expr, ptr: Ptr) -> ir.Expr:
    """An index in units of the pointer's view, as elements of the underlying array."""
    ratio = ptr.view_size // ptr.array.elem_size if ptr.array.elem_size else 1
    if ratio > 1 and ptr.view_size % ptr.array.elem_size == 0:
        return ir.mul(index, ir.Num(ratio))
    if ptr.view_size < ptr.array.elem_size and ptr.view_size:
        return ir.Bin("/", index, ir.Num(ptr.array.elem_size // ptr.view_size))
    return index


def _needs_cast(value: ir.Expr, t: str) -> bool:
    """An int-declared local narrows a 64-bit value; keep the conversion so CL203 sees it."""
    bits = ir.INT_KINDS.get(t, (32, True))[0]
    if bits == 64:
        return False
    return any(ir.INT_KINDS.get(n.type.name, (32,))[0] == 64 for n in ir.of_type(value, ir.Cast)) or \
        any(ir.INT_KINDS.get(n.ctype, (32,))[0] == 64 for n in ir.symbols(value))


def _fold(e: ir.Expr) -> ir.Expr:
    if e.__class__ is not ir.Bin:       # what is folded is a Bin (no class of the IR derives from another)
        return e
    if e.left.__class__ is ir.Num and e.right.__class__ is ir.Num:
        a, b = e.left.value, e.right.value
        if isinstance(a, int) and isinstance(b, int):
            try:
                match e.op:
                    case "+": return ir.Num(a + b)
                    case "-": return ir.Num(a - b)
                    case "*": return ir.Num(a * b)
                    case "/" if b: return ir.Num(int(a / b) if (a < 0) != (b < 0) else a // b)
                    case "%" if b: return ir.Num(a - b * (int(a / b) if (a < 0) != (b < 0) else a // b))
                    case "<<" if 0 <= b < 64: return ir.Num(a << b)
                    case ">>" if 0 <= b < 64: return ir.Num(a >> b)
            except (OverflowError, ValueError):
                return e
    if e.op == "+":
        return ir.add(e.left, e.right)
    if e.op == "*":
        if (isinstance(e.left, ir.Num) and e.left.value == 0) or (isinstance(e.right, ir.Num) and e.right.value == 0):
            return ir.Num(0)
        return ir.mul(e.left, e.right)
    return e


def _is_null(v) -> bool:
    return (isinstance(v, ir.Num) and v.value == 0) or (isinstance(v, ir.Sym) and v.name in ("NULL", "nullptr"))


def _opaque(e: ir.Expr) -> bool:
    return any(s.kind in ("data", "unknown") for s in ir.symbols(e))


_COLLECTIVES = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                "__all_sync", "__any_sync", "__uni_sync", "__match_any_sync", "__match_all_sync",
                "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                "__reduce_or_sync", "__reduce_xor_sync"}
_CG_COLLECTIVES = {"reduce", "inclusive_scan", "exclusive_scan"}          # cg::reduce(tile, ...)
_TILE_METHODS = {"shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "match_any", "match_all"}


def _warp_collective(fn: str) -> bool:
    base = fn.split("::")[-1]
    if base in _COLLECTIVES or (fn.split("::")[0] in ("cg", "cooperative_groups") and base in _CG_COLLECTIVES):
        return True
    receiver, _, method = fn.rpartition(".")
    return bool(receiver) and method in _TILE_METHODS


def _is_barrier(fn: str) -> bool:
    return fn.split("::")[-1] in _BARRIERS or fn.endswith(".sync")


# `cg::reduce(tile, v, op)` is the library's, not a `reduce` helper of the file
# a text holding any of the words of _WARP_GROUPS and _BLOCK_GROUPS holds one of these
_GROUP_WORD = re.compile("thread_block|tiled_partition|coalesced_|grid_group|this_grid")
_LIBRARY_NAMESPACES = frozenset({"cg", "cooperative_groups", "std", "cub", "thrust", "cuda", "nvcuda", "wmma"})
_TEMPLATE_TYPE_DECLARATION = re.compile(
    r"\s*(?P<type>(?:const\s+)?[A-Za-z_][\w:]*\s*<[\w\s,:*]*>)\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[^;]+?)\s*;\s*")
_SHARED_MEMORY_IDIOM = re.compile(r"\(?\s*SharedMemory\s*<[^<>]*>\s*\(\s*\)\s*\)?")


def group_scope(text: str) -> str | None:
    """What a cooperative group's sync() waits for, from its declaration or initializer text:
    "warp" (a tile, a coalesced group), "block" (a thread block or grid group) or None."""
    if _GROUP_WORD.search(text) is None:     # most declarations: one search instead of eight
        return None
    if any(w in text for w in _WARP_GROUPS):
        return "warp"
    if any(w in text for w in _BLOCK_GROUPS):
        return "block"
    return None


def _single_return(fn: FunctionDef):
    body = fn.body
    if body is None:
        return None
    stmts = [c for c in body.named_children if c.type != "comment"]
    if len(stmts) == 1 and stmts[0].type == "return_statement" and stmts[0].named_children:
        return stmts[0].named_children[0]
    return None


def _locate(node, span) -> tuple[int, int, int, int]:
    """Line/column of a span of an expression node's text (1-based)."""
    text = node_text(node)
    start, end = span

    def pos(off):
        before = text[:off]
        line = node.start_point[0] + before.count("\n")
        col = (len(before) - before.rfind("\n") - 1) if "\n" in before else node.start_point[1] + len(before)
        return line + 1, col + 1
    l1, c1 = pos(start)
    l2, c2 = pos(end)
    return l1, c1, l2, c2
