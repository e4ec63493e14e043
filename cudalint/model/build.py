"""Walk a kernel's statements (tree-sitter) and build its two-tree table.

Every expression is macro-expanded and parsed by the Lark grammar; names are resolved through
the definitions reaching them (the def-use edges are recorded), loops become Iterators with a
trip counter, conditions become guards, and every subscript / dereference becomes an Access.

KernelBuilder holds the walk's state; its parts, one module each: statements.py (blocks, if,
switch, statement macros), declarations.py, loops.py, defuse.py (assignments and values),
calls.py (helpers inlined, barriers, collectives), accesses.py; symbols.py what they share.
"""
from __future__ import annotations

import re

from ..index import ir
from ..index.parse import ExprSyntaxError, parse_expr
from ..preprocess.macros import MacroError
from ..index.types import TypeTable
from ..source.cufile import FunctionDef, node_text
from . import uniform, vector
from .accesses import Accesses
from .calls import Calls
from .declarations import Declarations
from .defuse import DefUse
from .loops import Loops
from .statements import Statements
from .symbols import Ptr, Unfollowable
from .table import Access, Exit, Iterator, LaunchConfig, Note, TwoTreeTable, short_text as _short


class KernelBuilder(Statements, Declarations, Loops, DefUse, Calls, Accesses):
    def __init__(self, fn: FunctionDef, launch: LaunchConfig, functions: dict[str, FunctionDef],
                 template_values: dict[str, str], constants: dict | None = None, typedefs: dict | None = None,
                 layouts: TypeTable | None = None, variables: dict | None = None, unsized_width: int = 4):
        self.fn = fn
        self.src = fn.file                        # the file of the code being walked (a helper's, inside it)
        self.path = fn.file.path if fn.file else ""
        self.line = fn.line                       # the line being walked: macros are those in effect there
        self._macro_views: dict = {}               # (file, line) -> the macros there
        self.constants = constants or {}
        self.typedefs = typedefs or {}            # file-scope `typedef` / `using` names -> the type they stand for
        # sizes and layouts of the unit's types (index/types.py), and its file-scope device variables
        self.layouts = layouts if layouts is not None else TypeTable({}, self.typedefs)
        self.variables = variables or {}
        self.members: dict[tuple, Ptr] = {}       # (struct variable, member path) -> its member array
        self.struct_params: dict[str, str] = {}   # a struct the kernel takes by value -> its type
        self._resolving: set[str] = set()         # constants being resolved (a cycle is not followed)
        self.launch = launch
        self.functions = functions
        self.env: dict[str, object] = {}
        self.types: dict[str, str] = {}           # declared C type of locals
        self.defs: dict[str, str] = {}            # variable -> current def id
        self.table = TwoTreeTable(fn.name, self.path, fn.line, launch, {}, [], [], [])
        # the width an element type the unit does not lay out (a library's scalar, a type of a header
        # not found) is read at: 4 bytes, and 2 where a finding is asked whether it rests on that
        self.unsized_width = unsized_width
        self.table.types = self.layouts
        self.table.thread_axes = set()
        self.guards: list[ir.Expr] = []
        self.loops: list[Iterator] = []
        self.seq = 0                              # program-order counter shared by accesses and barriers
        self.exits: dict[int, Exit] = {}          # id(guard) -> the early exit that put it on the guard stack
        self.groups: dict[str, str] = {}          # cooperative group variable -> "block" | "warp"
        self.group_sizes: dict[str, int] = {}     # a tile's size: `tiled_partition<32>(block)` -> 32
        self.grid_groups: set[str] = set()        # `cg::grid_group g = cg::this_grid();`
        self.shared_scalars: dict[str, Ptr] = {}  # `__shared__ float total;`: a one-element shared array
        # a helper's reference parameter bound to an element in memory: the argument, as its accesses show it
        self.alias_exprs: dict[str, ir.Expr] = {}
        self.var_scope: dict[str, int] = {}       # which threads share a local's value (uniform.py)
        self.volatile: set[str] = set()           # names declared `volatile` (each access stays its own)
        self.call_scope: dict[str, int] = {}      # ... a helper's result
        self.return_scopes: list[int] | None = None   # the returns of the helper being walked
        self.return_axes: list[int] | None = None     # ... the threadIdx axes of their values
        # ... their values, each with the guards the helper's own code put on it (where a helper of
        # several statements returns one of a few numbers: `return false;` ... `return true;`)
        self.return_values: list[tuple[tuple[ir.Expr, ...], object]] | None = None
        self.return_mark = 0
        self.call_axes: dict[str, int] = {}       # ... a helper's result (UNKNOWN: not followed)
        self.store_scope = uniform.THREAD         # ... the value the store being recorded writes
        self.var_inputs: dict[str, tuple[tuple[ir.Expr, str], ...]] = {}    # a local's value inputs, where known
        self.record_guards: dict[str, tuple[ir.Expr, ...]] = {}   # a struct local declared empty -> the guards there
        self.local_axes: dict[str, int] = {}      # a register array -> the threadIdx axes its elements follow
        self.guard_axes: dict[ir.Expr, int] = {}  # a test of loaded values -> the threadIdx axes it follows
        self.var_axes: dict[str, int] = {}        # the threadIdx axes a local's value follows (uniform.thread_mask)
        self.store_axes: frozenset[str] | None = None          # ... the value the store being recorded writes
        self.store_inputs: tuple[tuple[ir.Expr, str], ...] | None = None    # ... what that value is a function of
        self.store_expr: ir.Expr | None = None     # the value a plain `a[i] = v` stores, as the walk reads it
        self.fills: dict[str, tuple[ir.Sym, ir.Expr] | None] = {}     # register arrays filled in a loop
        self.store_value: ir.Num | None = None    # ... that value, where it is a number the program gives
        self._expanding = None                    # the statement macro whose expansion is being walked
        self.cond_loop: Iterator | None = None    # the loop whose condition is being read
        self.nested_exits: list[Exit] = []        # exits of inner scopes that end, for the enclosing if
        self.type_names = set(fn.type_names) | self._unit_type_names(fn)
        self._type_key = frozenset(self.type_names)   # the same, as the parser's cache key
        self.template_values = template_values
        self.depth = 0
        self.helper: str | None = None
        # the function instance being walked (a helper's name, place and template arguments; None:
        # the kernel), and the `__shared__` arrays declared, by name, line and instance: a function's
        # `__shared__` variable is one per block for each instance of it, however often it runs
        self.instance: tuple | None = None
        self.call_no = 0                          # the helper call being walked (numbered in the walk)
        self.calls_walked = 0
        self.shared_decls: dict[tuple, object] = {}
        self.walk_root = fn.body                  # the body being walked: the kernel's, a helper's, a macro statement's
        self._assigns: dict = {}                  # loop body -> its assignment nodes (_assignments_under)
        self._loop_assigns = None                 # ... those of the loop being walked, with its walk root
        self._last_statement = None               # (statement node, its text as accesses show it)
        self._bind_template()
        self._bind_params()
        if fn.launch_bounds:
            try:
                bound = self.rvalue(self._parse(fn.launch_bounds[0]), None, None)
                self.table.launch_bounds = self.const_int(bound)
                if self.table.launch_bounds is None and isinstance(bound, ir.Sym) and bound.kind == "param":
                    self.table.launch_bounds_name = bound.name    # `__launch_bounds__(CTA_SIZE)`: the block's bound
            except (ExprSyntaxError, MacroError):
                self.table.launch_bounds = None

    # ---- set-up ----------------------------------------------------------------------------
    def _bind_template(self) -> None:
        # a value of the launching host template written into a type argument the kernel binds
        # (`Traits<doShift>` with `doShift` 0 at one instantiation, 1 at another): a value of the
        # program, each run of its values takes one
        own = {p.name for p in self.fn.params} | {tp.name for tp in self.fn.template_params}
        for name in getattr(self.table.launch, "values", {}):
            if name.isidentifier() and name not in own and name not in self.env:
                self.env[name] = ir.Sym(name, "param")
                self.table.params.setdefault(name, "int")
        for tp in self.fn.template_params:
            val = self.template_values.get(tp.name, tp.default)
            if isinstance(val, str) and val.strip() == tp.name and not tp.is_type:
                val = None      # passed through a host template's own parameter of that name: open
            if tp.is_type:
                self.types[tp.name] = val or ""
                if val:
                    self.table.template_bindings[tp.name] = val
                # none, a host template's own `T` passed on, or a name the unit does not lay out
                # (`scalar_t` of a dispatch macro's lambda): each width a program may bind is tried
                if not val or val.strip() == tp.name or self.layouts.size(val.strip()) is None:
                    self.table.unbound_types.add(tp.name)
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
                self.table.params[tp.name] = "int"      # a value the program gives out of sight: open

    def _unit_type_names(self, fn: FunctionDef) -> set[str]:
        """The unit's typedef and struct names the kernel's text names: `(Real)x` is a cast."""
        if fn.body is None:
            return set()
        text = fn.body.text
        names = set(self.typedefs) | {q.split("::")[-1] for q in self.layouts.structs}
        # only those the text casts to (`(real)`, `<real>`, `(real*)`): every name kept here makes
        # the parser look for casts in each expression of the kernel
        return {n for n in names if n.isidentifier() and n.encode() in text and
                re.search(rb"[(<]\s*(?:const\s+)?" + re.escape(n.encode()) + rb"(?:\s*<[^()]*>)?\s*[*&]*\s*[)>(]", text)}

    def unbound_type(self, name: str) -> bool:
        """`name` is a template type parameter no launch binds (or one bound to itself: `k<T>` in a
        host template)."""
        return name in self.types and self.types[name] in ("", name)

    def type_bindings(self, t: str) -> dict[str, str] | None:
        """The template arguments a type is laid out with: `Pack<T, 4>`'s bound where the kernel's
        (or a helper's) bind them, and the kernel's own integer template values (an in-place
        struct's members sized by them, `__shared__ union { T a[BX]; ... } u;`, a choice made by
        them, `std::conditional_t<(DEGREE <= 1), ushort4, uint4>`)."""
        if "<" not in t and "@" not in t:
            return None
        bindings = {n: self.types[n] for n in self.type_names if self.types.get(n)}
        # a type parameter no launch binds is read as the 4-byte type its pointers are assumed to
        # point to (a finding that rests on that is tried again at 2 bytes, `_hold_for_element_sizes`)
        bindings.update({tp.name: "float" for tp in self.fn.template_params if tp.is_type and self.unbound_type(tp.name)})
        bindings.update({tp.name: str(v.value) for tp in self.fn.template_params
                         if not tp.is_type and isinstance(v := self.env.get(tp.name), ir.Num)})
        return bindings

    def _elem_type(self, type_name: str) -> tuple[str, int, bool]:
        """Concrete element type and size (index/types.py); a type the unit does not lay out (an
        unbound template type) is assumed 4 bytes."""
        if type_name in self.types and not self.types[type_name]:
            # a template type parameter no launch binds: not a class of the same name in the unit
            return type_name, 4, True
        t = self.types.get(type_name, type_name) or type_name
        bindings = self.type_bindings(t)
        t = self.layouts.resolve(t, bindings)
        size = self.layouts.size(t, bindings)
        if size is None:
            if t != "void":
                self.table.unsized_types.add(t)
            return t, self.unsized_width, True
        return t, size, False

    def _bind_params(self) -> None:
        for p in self.fn.params:
            if not p.name:
                continue
            if p.volatile:
                self.volatile.add(p.name)
            if p.pointers:
                if self.global_pointer(p.name, p.type_name, self.fn.line).size_assumed:
                    self.table.assumptions.append(
                        f"element type `{p.type_name}` of `{p.name}` is not bound by a launch; assumed 4 bytes")
            else:
                if not p.reference:
                    self.var_scope[p.name] = uniform.BLOCK      # an argument: one value for the whole launch
                t = self.types.get(p.type_name, p.type_name)
                if t not in ir.INT_KINDS and t not in ir.FLOAT_TYPES:
                    # `typedef int32_t int32_cuda;`: a scalar by its alias (a type of the unit keeps its name)
                    alias = self.layouts.resolve(t)
                    if alias in ir.INT_KINDS or alias in ir.FLOAT_TYPES:
                        t = alias
                # a `bool` the launches give (`false` at every launch: the code it guards never runs)
                # is read as the integer it converts to; one they leave open stays a value not followed
                given = p.name in self.launch.params or p.name in self.launch.values
                integral = t in ir.INT_KINDS or t in ("unsigned", "int") or (t == "bool" and given)
                if ir.type_size(t) is not None and integral and p.name in self.launch.derived:
                    self.env[p.name] = ir.named(self.launch.derived[p.name], p.name)
                elif ir.type_size(t) is not None and integral:
                    self.env[p.name] = ir.Sym(p.name, "param", t)
                    self.table.params[p.name] = t
                elif t in ir.FLOAT_TYPES:
                    self.env[p.name] = ir.Sym(p.name, "data", t)
                else:
                    self.env[p.name] = ir.Sym(p.name, "unknown", t)
                    if not p.reference and self.layouts.defines(self.layouts.resolve(t)):
                        self.struct_params[p.name] = self.layouts.resolve(t)
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

    # ---- the walk --------------------------------------------------------------------------
    def build(self) -> TwoTreeTable:
        arch = self.src.macros.at(self.fn.line).get("__CUDA_ARCH__") if self.src is not None else None
        if arch is not None and arch.body.strip().isdigit():
            self.table.arch = int(arch.body.strip())
        if self.fn.body is not None:
            self.stmt(self.fn.body)
        vector.element_merges(self.table)
        vector.forwarded_loads(self.table)
        self._classify_phases()
        self._vector_merges()
        return self.table

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _statement_text(self, stmt) -> str:
        """`stmt`'s text as an access shows it, read once for the accesses of one statement."""
        last = self._last_statement
        if last is not None and last[0] is stmt:
            return last[1]
        if stmt is None:        # read outside any statement (a file variable in a loop's step)
            return ""
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
