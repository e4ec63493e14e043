"""Declarations met in a kernel's walk: locals and their initial values, `__shared__` and local
arrays with their shapes, cooperative-group variables, integer constants."""
from __future__ import annotations

import re

from ..index import ir
from ..index.parse import ExprSyntaxError
from ..preprocess.macros import MacroError
from ..source.cufile import anonymous_type_name, node_text
from . import uniform
from .table import MemoryArray
from .symbols import Ptr, Unfollowable, _data, _names, _needs_cast, group_scope


class Declarations:
    """Declarations: locals, shared/local arrays, cooperative-group variables, constants."""

    def declaration(self, node) -> None:
        text = node_text(node)
        type_node = node.child_by_field_name("type")
        type_name = (anonymous_type_name(type_node) or node_text(type_node)) if type_node is not None else "int"
        storage = {node_text(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")}
        if "volatile" in storage or "volatile" in type_name.split():
            type_name = "volatile " + type_name
        is_shared = "__shared__" in text.split("=")[0]
        is_extern = "extern" in storage or text.lstrip().startswith("extern")
        for decl in node.children_by_field_name("declarator"):
            self._declarator(decl, type_name, is_shared, is_extern, node)

    def _structured_binding(self, decl, value, stmt) -> None:
        """`auto [H, K] = shape;`: each name is the struct's member in its place (`shape.H`)."""
        names = [node_text(c) for c in decl.named_children if c.type == "identifier"]
        text = node_text(value).strip() if value is not None else ""
        tname = self.types.get(text) or self.struct_params.get(text) or "" if text.isidentifier() else ""
        fields = self.layouts.fields_of(tname) if tname else None
        for i, name in enumerate(names):
            got = None
            if fields and i < len(fields):
                try:
                    got = self.rvalue(self._parse(f"{text}.{fields[i]}"), stmt, None)
                except (Unfollowable, ExprSyntaxError, MacroError):
                    got = None
            self.env[name] = got if got is not None else _data(name)

    def _declarator(self, decl, type_name, is_shared, is_extern, stmt) -> None:
        value = None
        if decl.type == "init_declarator":
            value = decl.child_by_field_name("value")
            decl = decl.child_by_field_name("declarator")
        elif decl.type == "function_declarator":
            # `Reader r(in);` in a body: read as a function's declaration by the grammar, but `in` is a
            # variable of the kernel, so it is an object built from it (`int n(len);` likewise)
            ident, plist = decl.child_by_field_name("declarator"), decl.child_by_field_name("parameters")
            params = plist.named_children if plist is not None else []
            if ident is None or ident.type != "identifier" or not params or not all(
                    p.type == "parameter_declaration" and p.named_child_count == 1 and
                    p.named_children[0].type == "type_identifier" and node_text(p) in self.env for p in params):
                return
            decl, value = ident, plist
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
        if decl.type == "structured_binding_declarator":
            self._structured_binding(decl, value, stmt)
            return
        name = node_text(decl)
        if name in self.macros:      # `#define SWEEP_X __temp_x__`: the name the compiler declares
            expanded = self.macros.expand(name).strip()
            if expanded.isidentifier():
                name = expanded
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
            if value is not None:
                self._initializer_reads(value, stmt)
            return
        self.shared_scalars.pop(name, None)
        if is_shared and not pointers:
            t, size, assumed = self._elem_type(base_type)
            arr = MemoryArray(name, "shared", t, size, (1,), line, is_extern, assumed, scalar=True)
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
            self.var_axes[name] = 0                 # no value yet: what is assigned to it brings its axes
            self.var_inputs.pop(name, None)
            scalar = self.layouts.resolve(self.types.get(base_type, base_type) or base_type)
            if not pointers and scalar not in ir.INT_KINDS and scalar not in ir.FLOAT_TYPES:
                # a struct or vector with no value yet: its fields' assignments bring what it is made of
                self.var_inputs[name] = ()
                self.record_guards[name] = tuple(self.guards)
            return
        if value.type in ("argument_list", "initializer_list", "parameter_list") and not pointers:
            # `const int nz{2 * lmax + 1};`, `int n(len);`: a scalar's one initializer is its value
            items = [c for c in value.named_children if c.type != "comment"]
            scalar = self.layouts.resolve(self.types.get(base_type, base_type) or base_type)
            if len(items) == 1 and items[0].type not in ("initializer_list", "initializer_pair") and \
                    (scalar in ir.INT_KINDS or scalar in ir.FLOAT_TYPES):
                value = items[0]
        if value.type in ("argument_list", "initializer_list", "parameter_list"):
            # `dim3 b(32, 8)` / `float4 v{...}`: not an index; what its elements read is read
            members = self.constructed_members(base_type, value, stmt) if value.type != "initializer_list" else None
            if members is None and value.type != "parameter_list":
                self._initializer_reads(value, stmt)
            self.env[name] = ir.Sym(name, "unknown", base_type)
            self.var_axes[name] = uniform.UNKNOWN
            self.var_inputs.pop(name, None)
            # `Reader r(in);` with `Reader(const float *p) : base_(p) {}`: the members the constructor
            # sets from its arguments, read where a method of `r` reads them
            for field, v in (members or {}).items():
                self.env[f"{name}.{field}"] = v
            return
        expr, exact = self._parse_node(value)
        since = len(self.table.accesses)
        # `constexpr auto is_fp = std::is_floating_point<T>::value;`: the trait of the instance's type,
        # 1 or 0 (an `if constexpr (is_fp)` then keeps the arm the instance compiles)
        trait = self._type_traits(value) if not pointers and "is_" in node_text(value) else None
        val = trait if isinstance(trait, ir.Num) else self.rvalue(expr, stmt, value if exact else None)
        self.var_scope[name] = self._scope(expr)      # after the walk: a helper's result scope is known
        axes = self.var_axes[name] = self._value_axes(expr, since, val)
        self._set_inputs(name, self._value_inputs(expr, since, val, axes))
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

    def _initializer_reads(self, value, stmt) -> None:
        """The loads in a braced or parenthesized initializer (`float4 v = {a[i], a[i + 1], 0, 0};`)."""
        raw = value.text
        if b"[" not in raw and b"*" not in raw and b"->" not in raw and b"." not in raw:
            return          # `dim3 block(32, 8)`, `{0}`: nothing read from memory
        expr, exact = self._parse_node(value)
        self.rvalue(expr, stmt, value if exact else None)

    def file_variable(self, name: str) -> bool:
        """A `__shared__`, `__constant__` or `__device__` variable of file or namespace scope that the
        kernel names: made known to the walk the first time it is named, as the same declaration in
        the kernel would be (its extents read with the macros where it stands). False where the unit
        has none of that name, or it is a pointer (what it points to is not known)."""
        var = self.variables.get(name)
        if var is None and "::" in name:
            var = self.variables.get(name.split("::")[-1])
        if var is None:
            return False
        base_type = " ".join(w for w in var.type_text.split() if w not in ("const", "volatile", "__restrict__"))
        if var.pointers:
            return self._launch_wide_variable(name, var, base_type)
        if var.space == "constant" and not var.dims and self._launch_wide_variable(name, var, base_type):
            return True
        saved = self.src, self.line
        self.src, self.line = var.file, var.line
        try:
            if var.dims:
                self._array(name, base_type, list(var.dims), var.space == "shared", var.extern, var.line, None,
                            var.space)
            else:
                t, size, assumed = self._elem_type(base_type)
                arr = MemoryArray(name, var.space, t, size, (1,), var.line, var.extern, assumed, scalar=True)
                self.table.arrays[name] = arr
                self.shared_scalars[name] = Ptr(arr, ir.Num(0), t, size)
                self.types[name] = base_type
        finally:
            self.src, self.line = saved
        if var.volatile:
            self.volatile.add(name)
        return True

    def global_pointer(self, name: str, base_type: str, line: int) -> MemoryArray:
        """`name`, a pointer to global memory one value for the launch (a kernel's pointer parameter, a
        `__constant__` pointer): an array of its element type from offset 0."""
        t, size, assumed = self._elem_type(base_type)
        arr = MemoryArray(name, "global", t, size, (), line, size_assumed=assumed)
        self.table.arrays[name] = arr
        self.env[name] = Ptr(arr, ir.Num(0), t, size)
        return arr

    def _launch_wide_variable(self, name: str, var, base_type: str) -> bool:
        """A `__constant__` scalar or a pointer of file scope (`__constant__ uint32_t d_size;`,
        `__constant__ hash64_t *d_light;`, set by the host with cudaMemcpyToSymbol): one value for the
        whole launch, as a kernel's parameter is, and a pointer points to global memory (a kernel
        cannot write `__constant__` memory, and a `__device__` pointer is read as the host left it).
        An integer is a size of the launch, `--param` gives it. False for a pointer to pointers (not
        followed) and a scalar of another type (a record: a variable in constant memory)."""
        if var.pointers > 1 or var.dims:
            return False
        if var.pointers:
            self.global_pointer(name, base_type, var.line)
            self.var_scope[name] = uniform.BLOCK
            self.types[name] = base_type
            return True
        t = self.types.get(base_type, base_type)
        if t not in ir.INT_KINDS:
            t = self.layouts.resolve(t)
        if t not in ir.INT_KINDS or ir.type_size(t) is None:
            return False
        self.env[name] = ir.Sym(name, "param", t)
        self.table.params[name] = t
        self.var_scope[name] = uniform.BLOCK
        self.types[name] = base_type
        return True

    def _array(self, name, base_type, dims, is_shared, is_extern, line, value, space: str | None = None) -> None:
        t, size, assumed = self._elem_type(base_type)
        extents: list[int | None] = []
        exprs: list[ir.Expr | None] = []     # an extent the launch's values give (`BN + B_PAD`), as written
        for d in dims:
            if d is None:
                extents.append(None)
                exprs.append(None)
                continue
            x = None
            try:
                e = self._parse(d if isinstance(d, str) else node_text(d))
                # an extent read from memory (`float t[len[i]]`, seen where a damaged file misparses)
                # is no constant, and no access of the kernel either
                if ir.of_type(e, ir.Subscript) or ir.of_type(e, ir.Deref):
                    v = None
                else:
                    x = self.rvalue(e, None, None)
                    v = self.const_int(x)
            except (Unfollowable, ExprSyntaxError, MacroError):
                v = None
            extents.append(v)
            exprs.append(x if v is None and isinstance(x, ir.Expr) and
                         all(s.kind == "param" for s in ir.symbols(x)) and ir.symbols(x) else None)
        if is_extern and extents == [None] and self.launch.smem is not None:
            smem = self.const_int(self.launch.smem)
            if smem:
                extents = [smem // size]
        space = space or ("shared" if is_shared else "local")
        view, view_size = t, size
        if space == "shared" and len(extents) == 1 and not assumed:
            # `__shared__ float4 stage[N]` read as `(float*)stage`: the array's unit is the narrowest
            # type the kernel views it through, and its own type a view of 4 of those (an index of
            # the narrow view, `tile[33 * t]`, is exact in bytes, not rounded to a float4)
            narrow = self._narrowest_view(name, size)
            if narrow is not None:
                t, ratio = narrow[0], size // narrow[1]
                size = narrow[1]
                extents = [e * ratio if e is not None else None for e in extents]
                exprs = [ir.mul(x, ir.Num(ratio)) if x is not None else None for x in exprs]
        arr = MemoryArray(name, space, t, size, tuple(extents), line, is_extern, assumed, dim_exprs=tuple(exprs))
        old = self.table.arrays.get(name)
        if is_extern and space == "shared" and old is not None and old.extern and old.space == "shared" and \
                old.line == line and old.elem_type == t and old.elem_size == size:
            arr = old       # the same declaration walked again (a helper's `extern __shared__ T s[]`, called twice)
        elif space == "shared":
            # a `__shared__` variable is one per block for each instance of its function, however often
            # its declaration is reached: a helper's `static __shared__ float s[32]`, called twice, is
            # one array (the second call's stores meet the first call's reads); `reduce<max_op>` and
            # `reduce<sum_op>` have one each
            key = (name, line, self.instance)
            got = self.shared_decls.get(key)
            if got is not None and got.elem_type == t and got.elem_size == size and got.dims == arr.dims:
                arr = got
            else:
                self.shared_decls[key] = arr
        self.table.arrays[name] = arr
        self.env[name] = Ptr(arr, ir.Num(0), view, view_size)
        self.types[name] = base_type

    def _narrowest_view(self, name: str, size: int) -> tuple[str, int] | None:
        """The narrowest element type the kernel's text casts a pointer to array `name` to
        (`(float*)stage`, `reinterpret_cast<int*>(&buf[0])`), where it divides `size`."""
        body = self.fn.body
        if body is None or size <= 1:
            return None
        text = node_text(body)
        if name not in text:
            return None
        best = None
        for m in re.finditer(r"(?:\(\s*(?:const\s+|volatile\s+)*([A-Za-z_][\w:]*)\s*\*\s*\)|reinterpret_cast\s*<\s*"
                             r"(?:const\s+)?([A-Za-z_][\w:]*)\s*\*\s*>\s*\()\s*\(?\s*&?\s*" + re.escape(name) + r"\b",
                             text):
            tn = m.group(1) or m.group(2)
            got, sz, assumed = self._elem_type(tn)
            if assumed or not sz or sz >= size or size % sz:
                continue
            if best is None or sz < best[1]:
                best = (got, sz)
        return best

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


_SHARED_MEMORY_IDIOM = re.compile(r"\(?\s*SharedMemory\s*<[^<>]*>\s*\(\s*\)\s*\)?")
