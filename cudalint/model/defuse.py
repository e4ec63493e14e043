"""Def-use in a kernel's walk: assignments (plain and compound), and the value an expression has
where it is read, names resolved through the definitions that reach them."""
from __future__ import annotations

from ..index import ir
from ..index.parse import ExprSyntaxError
from ..preprocess.macros import MacroError
from . import uniform
from .table import short_text as _short
from .symbols import (ADDRESS_VIEW, Ptr, Unfollowable, _BUILTINS, _MAX_INLINE_DEPTH, _MISSING, _data, _names,
                      _needs_cast, _scale, UNKNOWN_VIEW, group_scope)


# the methods of a cooperative group that return a dim3 of built-in coordinates
_GROUP_DIM3 = frozenset(("thread_index", "group_index", "dim_threads", "group_dim", "block_index", "dim_blocks"))


class DefUse:
    """Assignments and the values names hold: def-use edges, pointer arithmetic, constants."""

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
            case ir.Call(fn=fn, args=args) if self.barrier_call(fn, args):
                self.barrier(fn, args, stmt, node)
                return
            case ir.Call(fn=fn, args=args, targs=targs) if fn in self.functions and self.depth < _MAX_INLINE_DEPTH \
                    and self.may_inline(self.functions[fn], node):
                self.inline(self.overload(self.functions[fn], args), args, stmt, targs, node)
                return
        self.rvalue(e, stmt, node)

    def assign(self, e: ir.Assign, stmt, node) -> None:
        target = e.target
        if target.__class__ is ir.Name and self.variables and target.name not in self.env and \
                target.name not in self.shared_scalars:
            self.file_variable(target.name)      # a store to a file-scope variable
        since = len(self.table.accesses)
        if isinstance(target, ir.Name) and target.name in self.shared_scalars:
            got = self.rvalue(e.value, stmt, node)
            scope = self._scope(e.value) if e.op == "=" else uniform.THREAD
            if e.op != "=":
                self.rvalue(target, stmt, node)
            self.store_scope, self.store_value = scope, _constant_stored(got, e.op)
            axes = self._value_axes(e.value, since, got) if e.op == "=" else uniform.UNKNOWN
            self.store_axes = uniform.mask_axes(axes) if e.op == "=" else None
            self.store_inputs = self._value_inputs(e.value, since, got, axes) if e.op == "=" else None
            try:
                self._record(self.shared_scalars[target.name], ir.Num(0), "store", stmt, node, target,
                             shown=self.alias_exprs.get(target.name))
            finally:
                self.store_scope, self.store_axes, self.store_value = uniform.THREAD, None, None
                self.store_inputs = None
            return
        if isinstance(target, ir.Name):
            name = target.name
            value = self.rvalue(e.value, stmt, node)
            keep = e.op != "=" or bool(self.guards)
            axes = self._value_axes(e.value, since, value)
            self._set_axes(name, axes, keep)
            if e.op == "=" and self.guards:
                # `if (gi < groups) sum = red[gi];`: the value is the old one or the new one as the
                # test goes, a function of the three
                old = self.var_inputs.get(name)
                tests = [(g, "") for g in self.guards if uniform.thread_mask(g) >= 0]
                new = self._value_inputs(e.value, since, value, axes) \
                    if old is not None and len(tests) == len(self.guards) else None
                self._set_inputs(name, None if new is None else tuple(dict.fromkeys(old + new + tuple(tests))))
            else:
                self._set_inputs(name, None if keep else self._value_inputs(e.value, since, value, axes))
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
            # an assignment read outside any statement (an array extent `t[n = 4]`): the line walked
            line = stmt.start_point[0] + 1 if stmt is not None else self.line
            self._def(name, line, _short(str(e.value)), _names(e.value))
            return
        if isinstance(target, ir.Member):
            got = self.rvalue(e.value, stmt, node)
            scope = self._scope(e.value) if e.op == "=" else uniform.THREAD
            axes = self._value_axes(e.value, since, got)
            if e.op != "=":
                self.member_access(target, "load", stmt, node)
            self.store_scope, self.store_value = scope, _constant_stored(got, e.op)
            self.store_axes = uniform.mask_axes(axes) if e.op == "=" else None
            self.store_inputs = self._value_inputs(e.value, since, got, axes) if e.op == "=" else None
            try:
                if self.member_access(target, "store", stmt, node) is None:
                    root = _root_name(target)
                    if root is not None:        # a field of a local struct or vector: part of its value
                        self._set_axes(root, axes, True)
                        # what the whole value is a function of: its fields' values together (`s.x =
                        # sum * inv; s.y = sum;` in a `float2 s;`), where each is set outright, under
                        # no condition the declaration was not under
                        old = self.var_inputs.get(root)
                        new = self._value_inputs(e.value, since, got, axes) \
                            if e.op == "=" and old is not None and \
                            tuple(self.guards) == self.record_guards.get(root) else None
                        self._set_inputs(root, None if new is None else tuple(dict.fromkeys(old + new)))
                    if not isinstance(target.base, ir.Name):
                        self.rvalue(target.base, stmt, node)      # `f(x).y = v`: what the base reads
            finally:
                self.store_scope, self.store_axes, self.store_value = uniform.THREAD, None, None
                self.store_inputs = None
            return  # else a field of a struct/vector local: not an index
        # store to memory
        got = self.rvalue(e.value, stmt, node)
        scope = self._scope(e.value) if e.op == "=" else uniform.THREAD
        axes = self._value_axes(e.value, since, got) if e.op == "=" else uniform.UNKNOWN
        if e.op != "=":
            self.access(target, "load", stmt, node)
        self.store_scope, self.store_value = scope, _constant_stored(got, e.op)
        self.store_axes = uniform.mask_axes(axes) if e.op == "=" else None
        self.store_inputs = self._value_inputs(e.value, since, got, axes) if e.op == "=" else None
        self.store_expr = got if e.op == "=" and isinstance(got, ir.Expr) else None
        try:
            self.access(target, "store", stmt, node)
        finally:
            self.store_scope, self.store_axes, self.store_value = uniform.THREAD, None, None
            self.store_expr = self.store_inputs = None

    # ---- which threads a value follows (CL302: threads that store one value do not conflict) ----
    # Axes are thread_mask bits (uniform.py), UNKNOWN where the value reads what the model does not follow.
    def _set_axes(self, name: str, mask: int, keep: bool) -> None:
        """A local takes a value following `mask`; `keep`: it may keep its old one (a compound
        assignment, or one under a guard, where the threads the guard leaves out keep it), so it
        follows both, and the guards' axes too."""
        if keep and mask >= 0:
            old = self.var_axes.get(name, 0)
            mask = uniform.UNKNOWN if old < 0 else mask | old
            for g in [*self.guards, *(it.cond for it in self.loops if it.cond is not None)]:
                if mask < 0:
                    break
                got = uniform.thread_mask(g)
                if got < 0:
                    got = self.guard_axes.get(g, got)
                mask = uniform.UNKNOWN if got < 0 else mask | got
        self.var_axes[name] = mask

    def _value_axes(self, e: ir.Expr, since: int, value) -> int:
        """The threadIdx axes the value of `e` follows, just walked (`value`: what the walk gave,
        its accesses recorded from `since` on): those it names, those of the addresses it loads
        from (shared or global: one address holds one value for all), of the locals it reads, and
        of a helper's result. UNKNOWN where it reads a register array, a data-dependent address, a
        warp collective or a call the model does not follow."""
        m = 0
        accesses = self.table.accesses
        for i in range(since, len(accesses)):
            a = accesses[i]
            if a.kind != "load":
                continue
            if a.atomic or a.unresolved:
                return uniform.UNKNOWN
            got = uniform.thread_mask(a.index)
            if a.space == "local":      # a register array: each thread's own, holding what was stored
                held = self.local_axes.get(a.array.name, uniform.UNKNOWN)
                got = uniform.UNKNOWN if held < 0 or got < 0 else held | got
            if got < 0:
                return got
            m |= got
        if isinstance(value, Ptr):
            got = uniform.thread_mask(value.offset)
            if got < 0:
                return got
            m |= got
        var_axes = self.var_axes
        names, calls = self._outer(e)
        for name in names:
            got = var_axes[name] if name in var_axes else self._name_axes(name)
            if got < 0:
                return got
            m |= got
        helper = False
        for c in calls:
            fn = c.fn
            if fn in self.call_scope:       # a helper of several returns: its result's scope
                if self.call_scope[fn] != uniform.BLOCK:
                    got = self.call_axes.get(fn, uniform.UNKNOWN)
                    if got < 0:
                        return uniform.UNKNOWN
                    m |= got
            elif fn in self.functions:
                helper = True
            elif not uniform.pure(fn.split("::")[-1].rsplit(".", 1)[-1]):
                return uniform.UNKNOWN
        if helper and isinstance(value, ir.Expr):   # a helper's one return may name threadIdx itself
            got = self._named_mask(value)
            if got < 0:
                return got
            m |= got
        for mb in ir.of_type(e, ir.Member):
            if mb.base.__class__ is ir.Name and mb.base.name == "threadIdx":
                m |= {"x": 1, "y": 2, "z": 4}.get(mb.field, 0)
        return m

    def _set_inputs(self, name: str, inputs: tuple[tuple[ir.Expr, str], ...] | None) -> None:
        if inputs is None:
            self.var_inputs.pop(name, None)
        else:
            self.var_inputs[name] = inputs

    def _value_inputs(self, e: ir.Expr, since: int, value, axes: int) -> tuple[tuple[ir.Expr, str], ...] | None:
        """What the value of `e`, just walked, is a function of, thread by thread: the indexes of the
        loads it makes, the resolved values of the locals it reads (or, for a local holding loaded
        data, what that value was a function of) and the threadIdx it names. Threads equal on all of
        them compute one value: `mean[g] = sum[g] * inv`, stored by every thread of group g, is one
        value however many threads store it. Parts that follow no threadIdx are left out (one value
        in the block). None where the value reads what the model does not follow (a helper's result,
        a local assigned under a guard or in parts). Each comes with the array it loads from ("" for
        none): a value read from the array the store writes may be another writer's. `axes`: the
        value's `_value_axes`, which its caller has worked out."""
        if axes < 0:
            return None
        if isinstance(value, ir.Expr) and uniform.thread_mask(value) >= 0:
            return ((value, ""),)     # the value itself, computed from what the model follows
        out: list[tuple[ir.Expr, str]] = []
        accesses = self.table.accesses
        for i in range(since, len(accesses)):
            a = accesses[i]
            if a.kind == "load":
                if a.space == "local":
                    return None     # one element of two threads' register arrays: two values
                out.append((a.index, a.array.name))
        if isinstance(value, Ptr) and uniform.thread_mask(value.offset) > 0:
            out.append((value.offset, ""))
        names, calls = self._outer(e)
        for name in names:
            if (self.var_axes[name] if name in self.var_axes else self._name_axes(name)) == 0:
                continue        # one value in the block
            got = self.env.get(name)
            if isinstance(got, ir.Expr) and uniform.thread_mask(got) >= 0:
                out.append((got, ""))
                continue
            kept = self.var_inputs.get(name)
            if kept is None:
                return None
            out.extend(kept)
        for c in calls:
            if c.fn in self.call_scope or c.fn in self.functions:
                return None     # a helper's result: what it reads is its own
        for mb in ir.of_type(e, ir.Member):
            if mb.base.__class__ is ir.Name and mb.base.name == "threadIdx" and mb.field in ("x", "y", "z"):
                out.append((self._builtin("threadIdx", mb.field), ""))
        return tuple(out)

    def _outer(self, e: ir.Expr) -> tuple[list[str], list[ir.Call]]:
        """The names and calls `e` reads other than in the address of a load from memory: that
        address is the load's index, counted as such (`sum[i / 2]` reads the element i / 2, not i;
        `*m.ptr(r, 0)` the element the accessor's pointer names)."""
        names: list[str] = []
        calls: list[ir.Call] = []
        stack = [e]
        seen = set()
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            cls = n.__class__
            if cls is ir.Name:
                names.append(n.name)
                continue
            if cls is ir.Deref or (cls is ir.Subscript and self._memory_base(n.base)) or \
                    (cls is ir.Member and n.arrow and self._memory_base(n.base)):
                continue
            if isinstance(n, ir.Call):
                calls.append(n)
            stack.extend(c for c in n.children() if isinstance(c, ir.Expr))
        return names, calls

    def _memory_base(self, base: ir.Expr) -> bool:
        """`base` names memory a load reads (a pointer, a shared or global array): what indexes it is
        an address."""
        while base.__class__ is ir.Subscript or base.__class__ is ir.Member:
            base = base.base
        return base.__class__ is ir.Name and (isinstance(self.env.get(base.name), Ptr) or
                                              base.name in self.table.arrays)

    @staticmethod
    def _named_mask(value: ir.Expr) -> int:
        """The threadIdx a helper's result names (its loads are read as accesses)."""
        m = 0
        for s in ir.symbols(value):
            if s.kind == "thread":
                b = uniform.thread_mask(s)
                if b < 0:
                    return b
                m |= b
        return m

    def _name_axes(self, name: str) -> int:
        v = self.env.get(name, _MISSING)
        if v is _MISSING or v is None:
            return 0        # a constant, a macro, a file-scope variable: one value for all
        if isinstance(v, Ptr):
            return uniform.thread_mask(v.offset)
        if isinstance(v, ir.Expr):
            got = uniform.thread_mask(v)
            if got < 0 and self.var_scope.get(name) == uniform.BLOCK:
                return 0        # an argument (`float scale`): data, but one value for the whole launch
            return got
        return uniform.UNKNOWN
    def _compound(self, cur, op, value):
        if isinstance(cur, Ptr) and isinstance(value, ir.Expr) and op in ("+=", "-="):
            delta = value if op == "+=" else ir.Un("-", value)
            return Ptr(cur.array, ir.add(cur.offset, _scale(delta, cur)), cur.view, cur.view_size)
        if isinstance(cur, ir.Expr) and isinstance(value, ir.Expr):
            bop = op[:-1]
            if bop in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"):
                return ir.Bin(bop, cur, value) if bop != "+" else ir.add(cur, value)
        return ir.Sym("?", "unknown")

    def _group_dim3(self, fn: str, axis: str) -> ir.Expr | None:
        """`block.thread_index().x`, `block.group_index().y`, `block.dim_threads().x` of a thread
        block group, `grid.block_index().x` and `grid.dim_blocks().x` of a grid group: the built-in
        coordinate they are. None for a group of another shape (a tile's index is not threadIdx)."""
        receiver, _, method = fn.rpartition(".")
        grid = receiver in self.grid_groups or "grid" in receiver
        scope = "grid" if grid else self.groups.get(receiver) or group_scope(receiver) or ""
        builtin = {("block", "thread_index"): "threadIdx", ("block", "group_index"): "blockIdx",
                   ("block", "dim_threads"): "blockDim", ("block", "group_dim"): "blockDim",
                   ("grid", "block_index"): "blockIdx", ("grid", "dim_blocks"): "gridDim",
                   ("grid", "group_dim"): "gridDim"}.get((scope, method))
        if builtin is None:
            return None
        if builtin == "threadIdx":
            self.table.thread_axes.add(f"threadIdx.{axis}")
        return self._builtin(builtin, axis)

    def rvalue(self, e: ir.Expr, stmt, node):
        """Resolve names and record loads; returns an IR expression or a Ptr."""
        # names, numbers and operators are most of what comes here: tested first, by class
        cls = e.__class__
        if cls is ir.Name:
            n = e.name
            if n in self.shared_scalars:
                return self._record(self.shared_scalars[n], ir.Num(0), "load", stmt, node, e,
                                    shown=self.alias_exprs.get(n))
            got = self.env.get(n, _MISSING)
            if got is not _MISSING:
                return got
            if n in self.macros:
                return self.rvalue(self._parse(n), stmt, node)
            value = self._constant(n, stmt)
            if value is not None:
                return value
            if n in ir.STD_CONSTANTS:
                return ir.Num(ir.STD_CONSTANTS[n])
            if self.variables and self.file_variable(n):
                return self.rvalue(e, stmt, node)
            self.table.free_names.add(n)
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
            case ir.Member(base=ir.Name(name=b), field=f) if f"{b}.{f}" in self.env:
                return self.env[f"{b}.{f}"]      # a member a local object's constructor set
            case ir.Member(base=ir.Call(fn=fn, args=()), field=f) if f in ("x", "y", "z") and \
                    fn.rpartition(".")[2] in _GROUP_DIM3 and (got := self._group_dim3(fn, f)) is not None:
                return got
            case ir.Member():
                got = self.member_access(e, "load", stmt, node)
                if got is not None:
                    return got
                got = self.field_value(e)
                if got is not None:
                    return got
                self.rvalue(e.base, stmt, node)  # a member of a local struct or vector: no access
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
                    name, size, assumed = self._elem_type(t.name)
                    if assumed and not self.unbound_type(t.name):
                        # a view of a type the unit does not lay out (`(typename Pack<T, 8>::type*)p`):
                        # its width is not known, nor what an access through it moves (a template
                        # type no launch binds is tried at 4 and 2 bytes instead)
                        name = UNKNOWN_VIEW + name
                    return Ptr(v.array, v.offset, name, size)
                if isinstance(v, Ptr) and v.view == ADDRESS_VIEW and not t.pointers:
                    return v        # `(uint32_t)__cvta_generic_to_shared(p)`: still the address
                if isinstance(v, Ptr):
                    return ir.Sym("ptr", "unknown")
                tname = self.types.get(t.name, t.name)
                return ir.Cast(ir.TypeRef(tname, t.pointers), v) if tname in ir.INT_KINDS or tname in ir.FLOAT_TYPES else v
            case ir.Subscript() | ir.Deref():
                return self.access(e, "load", stmt, node)
            case ir.AddrOf(expr=x):
                return self.address(x, stmt, node)
            case ir.Assign():
                # `a[k++]`: the index is k before the update (`a[++k]`: after it)
                before = self.rvalue(e.target, stmt, node) if e.post and isinstance(e.target, ir.Name) else None
                self.assign(e, stmt, node)
                if before is not None:
                    return before
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
        if c is None and "::" in name:
            return self._member_constant(name)
        if c is None or name in self._resolving:
            return None
        self._resolving.add(name)
        saved = self.src, self.line
        self.src, self.line = c.file, c.line
        try:
            e = self._parse(c.text)
            # a constant's value reads no memory and changes nothing: one that would (a local of some
            # function mistaken for a constant) is none, and is not walked into this kernel's table
            value = None if any(n.__class__ in _NOT_CONSTANT for n in e.walk()) else self.rvalue(e, stmt, None)
        except (ExprSyntaxError, MacroError, Unfollowable):
            value = None
        finally:
            self.src, self.line = saved
            self._resolving.discard(name)
        if not isinstance(value, ir.Expr) or _opaque(value):
            return None
        self.table.constants.setdefault(name, value)     # what explain shows `TILE_DIM` stands for
        return value

    def _member_constant(self, name: str):
        """`x128::size` where `using x128 = Packed128<floatX>;` and Packed128's `static constexpr size_t
        size = sizeof(int4) / sizeof(ElementType);`: the member of the class template, its parameters
        bound to the alias's arguments (index/types.py folds it)."""
        from ..index.types import constant_value, template_arguments
        from .launch import lookup_constant
        prefix, _, member = name.rpartition("::")
        target = self.types.get(prefix) or prefix
        target = self.layouts.resolve(target)
        got = template_arguments(self.layouts, target)
        if got is None:
            return None
        sd, args = got
        c = lookup_constant(self.constants, f"{sd.name}::{member}")
        if c is None:
            return None
        bindings = {k: self.layouts.resolve(self.types.get(v, v)) for k, v in args.items()}
        v = constant_value(c.text, c.file, c.line, self.constants, self.layouts, bindings)
        return ir.Num(v) if v is not None else None

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


def _constant_stored(value, op: str) -> ir.Num | None:
    """The number a store writes (`flag = 1`), where the program gives it."""
    return value if op == "=" and value.__class__ is ir.Num else None


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


_NOT_CONSTANT = (ir.Subscript, ir.Deref, ir.Assign, ir.AddrOf, ir.Comma)


def _opaque(e: ir.Expr) -> bool:
    return any(s.kind in ("data", "unknown") for s in ir.symbols(e))


def _root_name(e: ir.Expr) -> str | None:
    """The local a member or subscript chain starts from: `v` in `v.x`, `v.a[2].y`."""
    while isinstance(e, (ir.Member, ir.Subscript)):
        e = e.base
    return e.name if isinstance(e, ir.Name) else None
