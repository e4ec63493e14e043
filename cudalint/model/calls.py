"""Calls in a kernel's walk: `__device__` helpers inlined (template arguments bound, depth
bounded), barriers and warp collectives recorded, cooperative-group methods resolved."""
from __future__ import annotations

import functools
import operator
import re

from ..index import ir
from ..index.parse import ExprSyntaxError
from ..preprocess.macros import MacroError
from ..source.cufile import FunctionDef, enclosing_class_template, node_text
from ..source.types import split_top_level, template_id
from . import uniform
from .host import CEIL_DIV
from .table import Barrier, short_text as _short
from .symbols import ADDRESS_VIEW, UNKNOWN_VIEW, Ptr, Unfollowable, _BUILTINS, _MAX_INLINE_DEPTH, _data, _is_barrier, group_scope


# Syntax nodes of `__device__` helper bodies inlined into one kernel, all calls together. Depth alone
# does not bound them: helpers five deep, each calling the next ten times, are 100,000 copies from
# 1.2 KB. The largest real kernel measured inlines a few thousand.
MAX_INLINED_NODES = 20_000


def _default_argument(p) -> str | None:
    """The text of a parameter's default argument (`int lanes = 1`), or None."""
    node = p.node.child_by_field_name("default_value") if getattr(p, "node", None) is not None else None
    return node_text(node) if node is not None else None


class Calls:
    """Calls: __device__ helpers inlined, barriers, warp collectives, cooperative-group methods."""

    inlined_nodes = 0            # of this kernel's walk, against MAX_INLINED_NODES
    inline_limited = False       # the note that says so is made once

    def may_inline(self, fn: FunctionDef, node) -> bool:
        """Whether helper `fn` is inlined at this call: within the kernel's budget of inlined nodes.
        Past it, a CL901 note (once) and the call is read as a call to an unknown function."""
        cost = fn.body.descendant_count if fn.body is not None else 1
        if self.inlined_nodes + cost > MAX_INLINED_NODES:
            if not self.inline_limited:
                self.inline_limited = True
                self.note(node, f"`{fn.name}` and the helper calls after it are not inlined: the kernel's inlined "
                                f"helpers reach the {MAX_INLINED_NODES:,} syntax nodes cudalint follows in one kernel")
            return False
        self.inlined_nodes += cost
        return True

    def _specialization(self, name: str, targs: tuple[str, ...]) -> str | None:
        """The explicit specialization a call's template arguments pick where the template itself has
        no body (`template <> void store_shared<16>(...)` for `store_shared<granularity>(...)`, with
        `granularity` a constant 16): its name among the helpers, or None."""
        if not any(k.startswith(name + "<") for k in self.functions):
            return None
        words = []
        for text in targs:
            try:
                v = self.rvalue(self._parse(text), None, None)
            except (ExprSyntaxError, MacroError, Unfollowable):
                return None
            words.append(str(v.value) if isinstance(v, ir.Num) else " ".join(text.split()))
        key = f"{name}<{', '.join(words)}>"
        return key if key in self.functions else None

    def _bind_call_template(self, fn: FunctionDef, targs: tuple[str, ...], vals=(), args=(),
                            owner: str | None = None) -> None:
        """`spread<32>(t)`: the helper's template parameters take the call's template arguments
        (and its type parameters are type names in its body: `reinterpret_cast<T &>(u)`); a type
        parameter the call leaves out is deduced from the arguments (`vals`: their values). A member
        of a class template called through an instance (`owner`: `Traits<false>` of
        `Traits<false>::shift()`, or of `traits::shift()` with the kernel's `traits` bound to it)
        reads the class's parameters at the instance's arguments."""
        if owner is not None:
            self._bind_class_template(fn, owner)
        named = {tp.name for tp in fn.template_params if tp.is_type} - self.type_names
        if named:
            self.type_names = self.type_names | named
            self._type_key = frozenset(self.type_names)
        values = {tp.name for tp in fn.template_params if not tp.is_type}
        for name, t in self._deduced(fn, targs, vals, args).items():
            if name not in values:
                self.types[name] = t
                continue
            try:
                self.env[name] = self.rvalue(self._parse(t), None, None)
            except (ExprSyntaxError, MacroError, Unfollowable):
                pass
        self._bind_template_args(fn.template_params, targs)

    def _bind_template_args(self, params, texts) -> None:
        """Template parameters at the texts of their arguments (None: not given): a type parameter
        names its type in the body, a value is read as an expression, or stays a parameter of the
        program where it does not read."""
        # a type argument is written in the caller's names (`load<traits>(...)` in a kernel whose
        # `traits` is bound): read them all before the callee's names are bound
        texts = [self._caller_type(t) if tp.is_type and t is not None else t for tp, t in zip(params, texts)]
        for tp, text in zip(params, texts):
            if text is None:
                continue
            if tp.is_type:
                self.types[tp.name] = text
                continue
            try:
                self.env[tp.name] = self.rvalue(self._parse(text), None, None)
            except (ExprSyntaxError, MacroError, Unfollowable):
                self.env[tp.name] = ir.Sym(tp.name, "param")

    def _caller_type(self, text: str, depth: int = 0) -> str:
        """A type argument with the caller's bound names written in: its template type parameters
        (`traits`, `T` inside `Traits<T, N>`) at the types they are bound to, and its value
        parameters inside a class template's arguments at the numbers they hold."""
        t = text.strip()
        if t in self.type_names and self.types.get(t) and self.types[t] != t:
            return self.types[t]
        tid = template_id(t) if depth < 4 else None
        if tid is None:
            v = self.env.get(t) if depth and t.isidentifier() else None
            return str(v.value) if isinstance(v, ir.Num) else text
        return f"{tid[0]}<{', '.join(self._caller_type(a, depth + 1) for a in tid[1])}>"

    def _owner(self, fn: str) -> str | None:
        """The class template instance a qualified call names (`Traits<false>` of
        `Traits<false>::shift`, or of `traits::shift` where `traits` is a type the kernel binds)."""
        q, sep, _ = fn.rpartition("::")
        if not sep:
            return None
        q = q.strip()
        q = self.types.get(q) or q
        return q if q.endswith(">") else None

    def _bind_class_template(self, fn: FunctionDef, owner: str) -> None:
        cls, inst = enclosing_class_template(fn), template_id(owner)
        if cls is None or inst is None or inst[0].split("::")[-1] != cls[0]:
            return
        params, targs = cls[1], inst[1]
        self._bind_template_args(params, targs + [tp.default for tp in params[len(targs):]])

    def _deduced(self, fn: FunctionDef, targs: tuple[str, ...], vals, args) -> dict[str, str]:
        """The type template parameters a call leaves to deduction, from its arguments as C++
        deduces them: `T* p` given a pointer into an array of `unsigned char` is T = unsigned char
        (the type the pointer is seen through), `T v` or `T& v` given a variable the kernel declares
        `__half` is T = __half. A parameter no argument settles stays unbound."""
        left = {tp.name for tp in fn.template_params[len(targs):]}
        free = {tp.name for tp in fn.template_params[len(targs):] if tp.is_type}
        out: dict[str, str] = {}
        if not left:
            return out
        for p, v, a in zip(fn.params, vals, args):
            t = _base_type(p.type_name)
            mine = template_id(t) if not p.pointers else None
            if mine is not None:
                # `const Array<T, N>& src` given a local declared `Array<To, 8>`: each argument of the
                # class template its parameter names (`N` is a value: bound by the caller)
                got = self._arg_type(a) if isinstance(a, ir.Name) else None
                theirs = template_id(got) if got else None
                if theirs is not None and theirs[0] == mine[0] and len(theirs[1]) == len(mine[1]):
                    for x, y in zip(mine[1], theirs[1]):
                        if x in left and x not in out:
                            out[x] = y
                continue
            if t not in free or t in out:
                continue
            if p.pointers == 1 and isinstance(v, Ptr) and v.view and v.view != UNKNOWN_VIEW:
                out[t] = v.view
            elif not p.pointers:
                got = self._arg_type(a) if isinstance(a, (ir.Name, ir.Subscript)) else None
                if got and got not in free:
                    out[t] = got
        return out

    def _volatile_in(self, fn: FunctionDef) -> set[str]:
        """The names that are `volatile` inside helper `fn`: its own volatile parameters, and the
        caller's volatile names its parameters do not shadow."""
        params = {p.name for p in fn.params}
        return {n for n in self.volatile if n not in params} | {p.name for p in fn.params if p.volatile}

    def overload(self, fn: FunctionDef, args) -> FunctionDef:
        """The helper of `fn`'s name that a call with `args` calls: `dct(short *p, int stride)` and
        `dct(unsigned *v)` are told apart by their parameters' count; `accum(float* a, float2 b)` and
        `accum(float* a, float4 b)` by the types of the arguments where the kernel's declarations say
        them (`pIn[i]` of a `const float2* pIn`); else the first defined."""
        nargs = len(args)
        if fn.file is None:
            return fn
        same = [f for f in fn.file.functions
                if f.name == fn.name and f.body is not None and f.is_device and not f.is_kernel and len(f.params) == nargs]
        if len(same) > 1:
            kinds = [self._arg_type(a) for a in args]
            fits = [f for f in same if all(k is None or _base_type(p.type_name) == k for p, k in zip(f.params, kinds))]
            if len(fits) == 1:
                return fits[0]
        if len(fn.params) == nargs:
            return fn
        return same[0] if same else fn

    def _arg_type(self, a) -> str | None:
        """The element type of a call argument where the kernel's declarations say it: a variable's
        type, or the element a subscript of a pointer reads (template parameters bound)."""
        pointer = isinstance(a, ir.Subscript)
        if pointer:
            a = a.base
        if not isinstance(a, ir.Name):
            return None
        t = self.types.get(a.name)
        for _ in range(4):          # `T` bound to `float2` by the instantiation
            if t and self.types.get(t):
                t = self.types[t]
        if not t or (not pointer and isinstance(self.env.get(a.name), Ptr)):
            return None
        return _base_type(t)

    def _reference_aliases(self, params, args, stmt=None) -> dict:
        """The reference parameters a `__shared__` scalar is passed to (`int& total` given `count`),
        or an element in memory (`unsigned char& r` given `rgb[3 * i]`, `float& x` given `p[i].x`):
        that element itself in the helper, read and written there (`r = v;` stores to
        `rgb[3 * i]`), on the helper's side of its own barriers; no read at the call."""
        out = {}
        for p, a in zip(params, args):
            if not p.reference or p.pointers:
                continue
            if isinstance(a, ir.Name) and a.name in self.shared_scalars:
                out[p.name] = self.shared_scalars[a.name]
            elif _in_memory(a):
                try:
                    ptr = self.address(a, stmt, None)
                except Unfollowable:
                    continue
                if isinstance(ptr, Ptr):
                    out[p.name] = ptr
        return out

    def inline(self, fn: FunctionDef, args, stmt, targs: tuple[str, ...] = (), node=None) -> None:
        """A `__device__` helper called as a statement: walk its body with its parameters bound
        (`node`: the call's node, where the arguments' reads stand)."""
        scopes = [self._scope(a) for a in args]
        # a `__shared__` scalar or an element in memory passed by reference is itself in the helper,
        # not a read
        aliases = self._reference_aliases(fn.params, args, stmt)
        vals, axes = [], []
        for p, a in zip(fn.params, args):
            since = len(self.table.accesses)
            v = None if p.name in aliases else self.rvalue(a, stmt, node)
            vals.append(v)
            axes.append(uniform.UNKNOWN if p.name in aliases else self._value_axes(a, since, v))
        for a in args[len(fn.params):]:
            self.rvalue(a, stmt, node)
        # parameters the call leaves out take their default arguments (`lanes = 1`, `share = false`)
        defaults = [_default_argument(p) for p in fn.params[len(args):]]
        if defaults and all(d is not None for d in defaults):
            args = list(args)
            for d in defaults:
                try:
                    e = self._parse(d)
                    vals.append(self.rvalue(e, stmt, None))
                except (Unfollowable, ExprSyntaxError, MacroError):
                    e = None
                    vals.append(None)
                args.append(e)
                scopes.append(self._scope(e) if e is not None else uniform.THREAD)
                axes.append(0 if e is not None else uniform.UNKNOWN)     # a constant follows no thread
        saved = (self.env, self.types, self.helper, self.defs, self.src, self.path, self.line,
                 dict(self.groups), dict(self.group_sizes), set(self.grid_groups), dict(self.var_scope),
                 dict(self.shared_scalars), set(self.volatile), self.walk_root, dict(self.var_axes),
                 dict(self.var_inputs), dict(self.alias_exprs), self.type_names, self._type_key, self.instance,
                 self.call_no)
        self.calls_walked += 1
        self.call_no = self.calls_walked
        self.env = dict(self.env)
        self.volatile = self._volatile_in(fn)
        self.types = dict(self.types)
        self.defs = dict(self.defs)
        self._bind_call_template(fn, targs, vals, args)
        # which instance of the helper runs: its template arguments, given or deduced
        self.instance = (fn.name, fn.line, fn.file.path if fn.file is not None else "",
                         tuple(str(self.types.get(tp.name) if tp.is_type else self.env.get(tp.name))
                               for tp in fn.template_params))
        for p, v, a, sc, ax in zip(fn.params, vals, args, scopes, axes):
            if p.name in aliases:
                self.shared_scalars[p.name] = aliases[p.name]
                shown = self.alias_exprs.get(a.name) if isinstance(a, ir.Name) else a
                if shown is not None:
                    self.alias_exprs[p.name] = shown
                else:
                    self.alias_exprs.pop(p.name, None)
                continue
            self.shared_scalars.pop(p.name, None)
            self.alias_exprs.pop(p.name, None)
            self.env[p.name] = v
            self.types[p.name] = p.type_name
            self.var_scope[p.name] = sc
            self.var_axes[p.name] = ax
            self.var_inputs.pop(p.name, None)
            self._bind_group(p, a)
        self.helper = fn.name
        self.walk_root = fn.body
        if fn.file is not None:      # findings inside the helper stand where its text stands
            self.src, self.path = fn.file, fn.file.path
        self.depth += 1
        written: dict[str, tuple[object, int]] = {}
        try:
            if fn.body is not None:
                self._scoped(lambda: self.stmt(fn.body))
            # `fast_div_mod(x, y, i)` with `int &x, int &y`: what the helper leaves in a reference
            # parameter is the caller's variable's value after the call
            for p, a, v in zip(fn.params, args, vals):
                if p.reference and not p.pointers and isinstance(a, ir.Name) and p.name not in aliases and \
                        self.env.get(p.name) is not v:
                    written[a.name] = (self.env.get(p.name), self.var_scope.get(p.name, uniform.THREAD))
        finally:
            self.depth -= 1
            (self.env, self.types, self.helper, self.defs, self.src, self.path, self.line,
             self.groups, self.group_sizes, self.grid_groups, self.var_scope, self.shared_scalars,
             self.volatile, self.walk_root, self.var_axes, self.var_inputs, self.alias_exprs, self.type_names,
             self._type_key, self.instance, self.call_no) = saved
            for p, a in zip(fn.params, args):      # what the helper wrote through a reference is not followed
                if p.reference and isinstance(a, ir.Name) and a.name not in self.shared_scalars:
                    self.var_axes[a.name] = uniform.UNKNOWN
                    self.var_inputs.pop(a.name, None)
                    self.var_scope[a.name] = uniform.THREAD
        line = stmt.start_point[0] + 1 if stmt is not None else self.line
        for name, (value, scope) in written.items():
            if name in self.env and value is not None:
                self.env[name] = value
                self.var_scope[name] = scope
                self._def(name, line, f"{fn.name}(…)", set())

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
        if name in ("__cvta_generic_to_shared", "__cvta_generic_to_global") and len(args) == 1:
            # the address in the state space as an integer, for inline PTX's `[%0]`: the same bytes
            p = self.rvalue(args[0], stmt, node)
            if isinstance(p, Ptr):
                return Ptr(p.array, p.offset, ADDRESS_VIEW, 1, p.inner)
            return _data(name)
        if name in ("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv") and len(args) == 1:
            p = self.rvalue(args[0], stmt, node)
            if isinstance(p, Ptr):
                return self._record(p, ir.Num(0), "load", stmt, node, args[0])
            return _data(name)
        if name in ("__stcg", "__stcs", "__stwb", "__stwt") and len(args) == 2:
            # a store with a cache hint: `__stcs(p + i, v)` stores `v` at `p[i]`
            p = self.rvalue(args[0], stmt, node)
            self.rvalue(args[1], stmt, node)
            if isinstance(p, Ptr):
                self._record(p, ir.Num(0), "store", stmt, node, args[0])
            return _data(name)
        if name in ("atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch", "atomicCAS",
                    "atomicAnd", "atomicOr", "atomicXor", "atomicInc", "atomicDec") and args:
            p = self.rvalue(args[0], stmt, node)
            vals = self._rvalues(args[1:], stmt, node)
            if isinstance(p, Ptr):
                dropped = _result_dropped(stmt, name)
                if dropped and name == "atomicExch" and vals and vals[0].__class__ is ir.Num:
                    self.store_value = vals[0]      # `atomicExch(&flag, 1);` stores 1
                try:
                    self._record(p, ir.Num(0), "atomic-store" if dropped else "atomic", stmt, node, args[0])
                finally:
                    self.store_value = None
            return _data(name)
        if ("." in fn or "->" in fn) and self.depth < _MAX_INLINE_DEPTH:
            got = self._method_call(fn, args, stmt, node, targs)
            if isinstance(got, ir.Sym) and got.kind == "data" and all(a.__class__ is ir.Num for a in args):
                # `t.getSize(1)` returning `size_[i]` of a class the unit does not lay out
                got = self._parameter_query(fn, list(args)) or got
            if got is not None:
                return got
        if name not in self.functions and targs:
            special = self._specialization(name, targs)
            if special is not None:
                fn, name, targs = (fn[:-len(name)] if fn.endswith(name) else "") + special, special, ()
        if name in self.functions and self.depth < _MAX_INLINE_DEPTH and fn.split("::")[0] not in _LIBRARY_NAMESPACES \
                and self.may_inline(self.functions[name], node):
            f = self.overload(self.functions[name], args)
            ret = _single_return(f)
            if ret is not None:
                vals = self._rvalues(args, stmt, node)
                # a helper that reads no memory and no thread coordinate returns one value for
                # arguments that are one value (`floatToOrderedInt(beam)`)
                self.call_axes.pop(fn, None)
                if _thread_free(f):
                    self.call_scope[fn] = min((self._scope(a) for a in args), default=uniform.BLOCK)
                else:
                    self.call_scope.pop(fn, None)
                saved = self.env, self.types, self.src, self.line, self.path, self.volatile, self.type_names, \
                    self._type_key
                self.env, self.types = dict(self.env), dict(self.types)
                self.volatile = self._volatile_in(f)
                if f.file is not None:      # its accesses stand in the helper's own file
                    self.src, self.line, self.path = f.file, ret.start_point[0] + 1, f.file.path
                self._bind_call_template(f, targs, vals, args, self._owner(fn))
                for p, v, a in zip(f.params, vals, args):
                    self.env[p.name] = v
                    self._bind_group(p, a)
                self.depth += 1
                try:
                    expr, exact = self._parse_node(ret)
                    return self.rvalue(expr, ret.parent, ret if exact else None)
                finally:
                    self.depth -= 1
                    (self.env, self.types, self.src, self.line, self.path, self.volatile, self.type_names,
                     self._type_key) = saved
            return self._inline_returning(f, fn, name, args, stmt, node, targs)
        if len(args) == 1 and self._scalar_type(fn):
            # `Index_t(8)`, `size_t(n)`: a functional cast to an arithmetic type is its operand's value
            return self.rvalue(args[0], stmt, node)
        if name in ("sizeof", "alignof", "__alignof__") and len(args) == 1:
            size = self._sizeof(args[0], name == "sizeof")
            # its operand is not evaluated: nothing it names is read
            return ir.Num(size) if size is not None else _data(f"{name}()")
        if self.barrier_call(fn, args) or self._library_barrier(fn):
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
        if name in _PURE_MATH:
            # `floorf(h)` of a value loaded from memory is that value's kind: an index built from it
            # is indirect, not a call the model fails to read
            for v in vals:
                if isinstance(v, ir.Expr):
                    for s in ir.symbols(v):
                        if s.kind == "data" and not s.name.endswith("()"):
                            return s
        if name in CEIL_DIV and len(vals) == 2 and all(isinstance(v, ir.Expr) for v in vals):
            # a library's division rounded up whose body no file read shows (`at::cuda::ATenCeilDiv(n, 64)`)
            return ir.Bin("/", ir.add(vals[0], ir.add(vals[1], ir.Num(-1))), vals[1])
        got = self._parameter_query(fn, vals)
        if got is not None:
            return got
        return _data(f"{fn}()")      # a call the model does not follow (its value is data to it)

    _ARITHMETIC = frozenset(("int", "unsigned", "unsigned int", "long", "long long", "unsigned long",
                             "unsigned long long", "short", "unsigned short", "char", "unsigned char", "signed char",
                             "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
                             "uint32_t", "uint64_t", "float", "double", "bool", "long int", "unsigned long int",
                             "std::size_t", "std::int64_t", "std::int32_t", "std::uint32_t", "std::uint64_t"))

    def _scalar_type(self, fn: str) -> bool:
        """`fn` names an arithmetic type: a built-in one, or an alias of one (`typedef int Index_t;`)."""
        return self.layouts.resolve(fn) in self._ARITHMETIC

    def _parameter_query(self, fn: str, vals) -> ir.Sym | None:
        """`sizes.getSize(1)`, `x.size(0)`: a method the unit does not define, called on an object
        the kernel takes by value, with constant arguments: one value for the whole launch, which
        the program does not give here: an open size (tried as sizes are), not a value read from
        memory. A loop to it and a guard against it (`coarse != t.getSize(1) - 1`) then agree."""
        m = _METHOD_CALL.match(fn)
        if m is None or m.group("op") != "." or not m.group("recv").isidentifier():
            return None
        recv = m.group("recv")
        p = next((q for q in self.fn.params if q.name == recv), None)
        cur = self.env.get(recv)
        if p is None or p.pointers or p.reference or not isinstance(cur, ir.Sym) or cur.name != recv or \
                cur.kind != "unknown" or not all(isinstance(v, ir.Num) for v in vals):
            return None
        if not self._kept_whole(recv):
            return None
        name = f"{recv}.{m.group('method')}({', '.join(str(v) for v in vals)})"
        self.table.params.setdefault(name, "int")
        return ir.Sym(name, "param")

    def _kept_whole(self, name: str) -> bool:
        """The kernel's by-value object `name` keeps the value the launch gave it: the kernel only
        calls its methods with constant arguments and reads its members; it never passes it to a
        helper (which may take it by reference), assigns it, or calls a method on it with a
        thread's value (`rng.advance(i * 4)`: a generator's state, each thread's own)."""
        key = ("_kept_whole", name)
        got = self.members.get(key)
        if got is None:
            text = self.fn.body.text.decode("utf-8", "replace") if self.fn.body is not None else ""
            got = True
            for m in re.finditer(r"(?<![\w.])" + re.escape(name) + r"\b\s*(\.|->|\[)?\s*(\w+)?\s*(\()?", text):
                if m.group(1) == "[":
                    continue            # `t[i][j]`: what it points to, read or written, not the object
                if m.group(1) is None:
                    got = False         # the object itself: an argument, an assignment, its address
                    break
                if m.group(3):
                    depth, i = 1, m.end()
                    while i < len(text) and depth:
                        depth += {"(": 1, ")": -1}.get(text[i], 0)
                        i += 1
                    if re.search(r"[A-Za-z_]", text[m.end():i - 1]):
                        got = False     # a method given a name's value
                        break
            self.members[key] = got
        return got

    def _inline_returning(self, f: FunctionDef, fn: str, name: str, args, stmt, node, targs):
        """The value of helper `f` of several statements, its body walked with its parameters bound:
        what its returns give (_returned), else a value not followed."""
        saved_returns, self.return_scopes = self.return_scopes, []
        saved_axes, self.return_axes = self.return_axes, []
        saved_values, self.return_values = self.return_values, []
        saved_mark, self.return_mark = self.return_mark, len(self.guards)
        try:
            self.inline(f, args, stmt, targs, node)      # (which reads the arguments, where they stand)
            self.call_scope[fn] = min(self.return_scopes, default=uniform.THREAD)
            axes = self.return_axes
            self.call_axes[fn] = uniform.UNKNOWN if not axes or min(axes) < 0 else \
                functools.reduce(operator.or_, axes)
            value = _returned(self.return_values)
        finally:
            self.return_scopes, self.return_axes = saved_returns, saved_axes
            self.return_values, self.return_mark = saved_values, saved_mark
        return value if value is not None else _data(name)

    def constructed_members(self, type_name: str, args_node, stmt) -> dict | None:
        """The members a constructor of class `type_name` sets in its initializer list from its
        arguments (`Reader(const float *p, int n) : base_(p), n_(n) {}` called as `Reader r(in, 4)`:
        base_ is `in`, n_ is 4), the arguments read where they stand; None where the class has no
        such constructor (the arguments are then read as any initializer's)."""
        cls = type_name.split("<")[0].split("::")[-1].strip()
        ctor = self.functions.get(cls)
        if ctor is None or ctor.node is None or _class_body(ctor) is None:
            return None
        inits = next((c for c in ctor.node.children if c.type == "field_initializer_list"), None)
        if inits is None:
            return None
        plain = _plain_fields(ctor)
        plain -= _mutated_fields(ctor, plain)
        args = [c for c in args_node.named_children if c.type != "comment"]
        if len(args) != len(ctor.params):
            return None
        vals = []
        for a in args:
            try:
                expr, exact = self._parse_node(a)
            except (ExprSyntaxError, MacroError):
                return None
            vals.append(self.rvalue(expr, stmt, a if exact else None))
        saved = self.env
        self.env = {**self.env, **{p.name: v for p, v in zip(ctor.params, vals)}}
        out = {}
        try:
            for init in inits.named_children:
                if init.type != "field_initializer":
                    continue
                field = next((c for c in init.named_children if c.type == "field_identifier"), None)
                given = next((c for c in init.named_children if c.type in ("argument_list", "initializer_list")), None)
                items = [c for c in given.named_children if c.type != "comment"] if given is not None else []
                if field is None or len(items) != 1 or node_text(field) not in plain:
                    continue
                try:
                    e, _ = self._parse_node(items[0])
                    out[node_text(field)] = self.rvalue(e, None, None)
                except (ExprSyntaxError, MacroError, Unfollowable):
                    continue
        finally:
            self.env = saved
        return out

    def _receiver_types(self, f: FunctionDef, recv: str) -> dict[str, str]:
        """The class template's type parameters bound for a method called on an object of one of its
        instances (`SharedMem<float> sm; sm.getPointer()`: T is float in the method's body)."""
        t = self.types.get(recv.strip())
        if not t or "<" not in t or ">" not in t:
            return {}
        cls = _class_template_params(f)
        return {p: a for p, a in zip(cls, split_top_level(t[t.index("<") + 1:t.rindex(">")])) if p and a}

    def _method_call(self, fn: str, args, stmt, node, targs: tuple[str, ...]):
        """`view.lane(i)` of a struct whose method is one `return` (`return &data_[i * ncols_];`): its
        value, the members it names being those of the object it is called on. None where the call is
        not that (the walk then goes on as for any call)."""
        m = _METHOD_CALL.match(fn)
        if m is None:
            return None
        f = self.functions.get(m.group("method"))
        if f is None or f.node is None:
            return None
        members = _class_members(f)
        fields = None if members is None else set(members)
        ret = _single_return(f)
        if fields is not None and ret is None and f.body is not None and \
                not fields & set(re.findall(r"[A-Za-z_]\w*", node_text(f.body))) and b"this" not in f.body.text:
            # a method that reads nothing of its object (`T* getPointer() { extern __shared__ T s[];
            # return s; }`): the helper it is, whatever it is called on
            saved = self.types
            self.types = {**self.types, **self._receiver_types(f, m.group("recv"))}
            try:
                return self._inline_returning(f, m.group("method"), m.group("method"), args, stmt, node, targs)
            finally:
                self.types = saved
        recv = m.group("recv").strip()
        known = {fld: self.env[f"{recv}.{fld}"] for fld in (fields or ()) if f"{recv}.{fld}" in self.env}
        if known and f.body is not None and m.group("op") == "." and recv.isidentifier() and \
                members is not None and all(members.values()):
            # a method on a local object of pointers and scalars whose members its constructor set
            # (`TileReader r(tile + 32 * y); r.Sum()`): its body walked with those members' values,
            # its accesses standing where its text stands (an object holding a reference to storage,
            # a library block collective's `TempStorage &`, is the library's)
            saved = self.env, self.types
            # the class's other members are the object's too, not names of the caller's scope
            hidden = {fld: ir.Sym(fld, "unknown") for fld in members if fld not in known}
            self.env = {**self.env, **hidden, **known, **{f"this.{k}": v for k, v in known.items()}}
            self.types = {**self.types, **self._receiver_types(f, recv)}
            try:
                return self._inline_returning(f, m.group("method"), m.group("method"), args, stmt, node, targs)
            finally:
                self.env, self.types = saved
        if fields is None or ret is None:
            return None
        try:
            receiver = self._parse(m.group("recv"))
            expr = self._parse_node(ret)[0]
        except (ExprSyntaxError, MacroError):
            return None
        params = {p.name for p in f.params}
        if params & {n.name for n in ir.of_type(receiver, ir.Name)}:
            return None         # a parameter would hide a name the object is reached by
        expr = _on_object(expr, fields - params, receiver, m.group("op") == "->")
        vals = self._rvalues(args, stmt, node)
        saved = self.env, self.types, self.volatile, self.type_names, self._type_key
        self.env, self.types = dict(self.env), dict(self.types)
        self.volatile = self._volatile_in(f)
        self._bind_call_template(f, targs, vals, args)
        for p, v in zip(f.params, vals):
            self.env[p.name] = v
        self.depth += 1
        try:
            return self.rvalue(expr, stmt, None)
        finally:
            self.depth -= 1
            self.env, self.types, self.volatile, self.type_names, self._type_key = saved

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

    def _sizeof(self, arg: ir.Expr, size: bool) -> int | None:
        """`sizeof(T)`, `sizeof(x)`, `alignof(T)` from the unit's layouts (index/types.py): of a type,
        of a local or shared array (its extent times its element), of a pointer, of a typed local."""
        if isinstance(arg, (ir.Str, ir.Name)):
            text = arg.text if isinstance(arg, ir.Str) else arg.name
            got = self.env.get(text)
            if isinstance(arg, ir.Name) and got is not None:
                if isinstance(got, Ptr):
                    arr = self.table.arrays.get(text)
                    if arr is not None and arr is got.array and arr.space != "global" and arr.extent and size:
                        return arr.extent * arr.elem_size
                    return 8
                text = self.types.get(text)
                if not text:
                    return None
            t = self.layouts.resolve(self.types.get(text, text))
            if t.endswith(">"):
                t = self._instance_name(t)
            lay = self.layouts.layout(t)
            if lay is None:
                return None
            return lay.size if size else lay.align
        if isinstance(arg, ir.Subscript):          # `sizeof(s[0])`: an element of an array
            subs, root = 0, arg
            while isinstance(root, ir.Subscript):
                subs, root = subs + 1, root.base
            arr = self.table.arrays.get(root.name) if isinstance(root, ir.Name) else None
            if arr is not None and subs == max(1, len(arr.dims)) and not arr.size_assumed:
                return arr.elem_size if size else None
        return None

    def _instance_name(self, t: str) -> str:
        """`Array<T, N>` with the template arguments the walk binds written in (`Array<unsigned char,
        8>` inside `Store<unsigned char, 8>`): the instance a helper's `sizeof` asks of."""
        got = template_id(t)
        if got is None:
            return t
        base, found = got
        args = []
        for a in found:
            v = self.env.get(a)
            t = a
            for _ in range(8):          # `T` bound to the caller's `To`, bound in turn by the launch
                if not self.types.get(t) or self.types[t] == t:
                    break
                t = self.types[t]
            args.append(t if t != a else str(v.value) if isinstance(v, ir.Num) else a)
        return f"{base}<{', '.join(args)}>"

    def _library_barrier(self, fn: str) -> bool:
        """A CUB block collective (`BlockReduce(temp).Sum(v)`, `BlockScan(temp).ExclusiveSum(a, b)`,
        `BlockLoad(temp).Load(p, items)`, `BlockExchange`, `BlockRadixSort`...): its threads meet at a
        barrier inside it, so accesses before the call and after it are ordered across the block."""
        receiver, _, method = fn.rpartition(".")
        if method not in _CUB_METHODS or not receiver.endswith(")") or "(" not in receiver:
            return False
        ctor = receiver[:receiver.index("(")].strip()
        for _ in range(4):                       # typedef chains: BlockReduceT -> cub::BlockReduce<...>
            m = _CUB_BLOCK.search(ctor.split("<")[0].split("::")[-1])
            if m and m.group(1) in ("Load", "Store"):
                full = ctor
                for _ in range(4):               # `typedef cub::BlockLoad<T, 128, 4, ALG> BlockLoad;`
                    if "<" in full:
                        break
                    full = self.types.get(full) or self.typedefs.get(full) or ""
                return _exchanges(full, m.group(1)) if "<" in full else True
            if m:
                return True
            target = self.types.get(ctor) or self.typedefs.get(ctor)
            if not target:
                return False
            ctor = target
        return False

    def barrier_call(self, fn: str, args) -> bool:
        """A call of a barrier: `__syncthreads()`, `g.sync()`, `cg::sync(g)`. An unqualified `sync(x)`
        or `synchronize(x)` is cooperative groups' only where x is a group; a local (a lambda named
        `sync`) or a function of the program by that name is what it is, not a barrier."""
        if not _is_barrier(fn):
            return False
        if "::" in fn or "." in fn or fn.startswith("__"):
            return True
        if fn in self.env or fn in self.functions:
            return False
        if fn in ("sync", "synchronize"):
            group = args[0] if args else None
            return isinstance(group, ir.Name) and (group.name in self.groups or
                                                   group_scope(self.types.get(group.name, "")) is not None)
        return True

    def barrier(self, fn: str, args, stmt, node) -> None:
        """Record a barrier at its place in program order, with the guards and early exits it sits under."""
        for a in args:
            self.rvalue(a, stmt, node)    # `__syncthreads_count(s[i] > 0)` reads before it waits
        receiver = fn.rsplit(".", 1)[0] if fn.endswith(".sync") else ""
        if fn.split("::")[-1] in ("sync", "synchronize") and args and isinstance(args[0], ir.Name):
            receiver = args[0].name       # cg::sync(group), cg::synchronize(group)
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
# CUB's (and hipCUB's) block-wide collectives: each call ends after a barrier of the whole block
def _exchanges(text: str, kind: str) -> bool:
    """`cub::BlockLoad<T, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>` moves its items through shared memory
    between barriers; the direct, striped and vectorized algorithms (the default is direct) read and
    write each thread's own items with no barrier, and the warp-transposing ones exchange within a
    warp."""
    parts = split_top_level(text[text.index("<") + 1:text.rindex(">")] if ">" in text else "")
    if len(parts) < 4:
        return False                            # BLOCK_LOAD_DIRECT / BLOCK_STORE_DIRECT
    alg = parts[3].split("::")[-1].strip()
    if not re.fullmatch(r"BLOCK_(LOAD|STORE)_\w+", alg):
        return True                             # an algorithm named by a parameter: as a collective
    return alg == f"BLOCK_{kind.upper()}_TRANSPOSE"


_CUB_BLOCK = re.compile(r"^Block(Reduce|Scan|Load|Store|Exchange|RadixSort|Histogram|Discontinuity|Shuffle|"
                        r"AdjacentDifference|RunLengthDecode|MergeSort)\w*$")
_CUB_METHODS = {"Reduce", "Sum", "InclusiveSum", "ExclusiveSum", "InclusiveScan", "ExclusiveScan", "Load", "Store",
                "StripedToBlocked", "BlockedToStriped", "WarpStripedToBlocked", "BlockedToWarpStriped",
                "ScatterToBlocked", "ScatterToStriped", "ScatterToStripedGuarded", "ScatterToStripedFlagged",
                "Sort", "SortDescending", "SortBlockedToStriped", "SortDescendingBlockedToStriped", "Histogram",
                "Composite", "FlagHeads", "FlagTails", "FlagHeadsAndTails", "Offset", "Rotate", "Up", "Down",
                "SubtractLeft", "SubtractRight", "SubtractLeftPartialTile", "SubtractRightPartialTile", "Max", "Min"}
# functions of their arguments alone: what an index built from them depends on is what they read
_PURE_MATH = {"floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf", "rint", "rintf",
              "lrint", "lrintf", "llrint", "llrintf", "lround", "lroundf", "fabs", "fabsf", "sqrt", "sqrtf",
              "exp", "expf", "log", "logf", "__float2int_rd", "__float2int_rn", "__float2int_ru", "__float2int_rz",
              "__float2uint_rd", "__float2uint_rn", "__float2uint_ru", "__float2uint_rz", "__double2int_rd",
              "__double2int_rn", "__double2int_ru", "__double2int_rz", "__float2ll_rd", "__float2ll_rn",
              "__half2float", "__bfloat162float", "fminf", "fmaxf", "fmin", "fmax"}
_LIBRARY_NAMESPACES = frozenset({"cg", "cooperative_groups", "std", "cub", "thrust", "cuda", "nvcuda", "wmma"})


def _base_type(t: str) -> str:
    return " ".join(w for w in t.replace("*", " ").replace("&", " ").split()
                    if w not in ("const", "volatile", "__restrict__", "struct"))


MAX_RETURNS = 4


def _returned(returns) -> ir.Expr | Ptr | None:
    """The value of a helper of several statements (`if (i >= n) return false; ... return true;`,
    `int t = 1 - a / b; return (a + t * b) / b - t;`): each return's value where the helper's own
    guards on it hold, the last one's otherwise; the pointer its one unguarded return gives
    (`extern __shared__ T s[]; return s;`: the block's dynamic shared memory). A value that names
    a counter of the helper's own loops (`for (...) if (k[i] == key) return i;`) means nothing
    outside it and stays the helper's (data to the caller), as does a floating-point number."""
    if len(returns) == 1 and not returns[0][0] and isinstance(returns[0][1], Ptr):
        return returns[0][1]
    if not returns or len(returns) > MAX_RETURNS or not all(_caller_value(v) for _, v in returns):
        return None
    value = returns[-1][1]
    for guards, v in reversed(returns[:-1]):
        if v == value:
            continue
        if not guards:
            return None         # an earlier return not under a guard of the helper's: not followed
        cond = guards[0]
        for g in guards[1:]:
            cond = ir.Bin("&&", cond, g)
        value = ir.Cond(cond, v, value)
    return value


def _caller_value(v) -> bool:
    """A returned value that means the same in the caller: an integer, or an expression of values
    that are the caller's too (no counter of the helper's loops, nothing the model does not follow:
    a binary search's result stays the helper's, data read from memory)."""
    if isinstance(v, ir.Num):
        return isinstance(v.value, int)
    return isinstance(v, ir.Expr) and not any(s.kind in ("iter", "unknown") for s in ir.symbols(v))


def _single_return(fn: FunctionDef):
    body = fn.body
    if body is None:
        return None
    stmts = [c for c in body.named_children if c.type != "comment"]
    if len(stmts) == 1 and stmts[0].type == "return_statement" and stmts[0].named_children:
        return stmts[0].named_children[0]
    return None


def _result_dropped(stmt, name: str) -> bool:
    """Statement `stmt` is the call of atomic `name` alone (`atomicAdd(&sum[i], v);`): its result,
    the value the location held, goes nowhere."""
    if stmt is None or stmt.type != "expression_statement" or not stmt.named_children:
        return False
    call = stmt.named_children[0]
    if call.type != "call_expression":
        return False
    fn = call.child_by_field_name("function")
    return fn is not None and node_text(fn).split("::")[-1] == name


_METHOD_CALL = re.compile(r"^(?P<recv>.+)(?P<op>\.|->)(?P<method>[A-Za-z_]\w*)$", re.DOTALL)


def _class_template_params(f: FunctionDef) -> list[str | None]:
    """The type parameters of the class template whose body defines method `f`, in order (None in
    the place of a value parameter; none for a method of a plain class)."""
    body = _class_body(f)
    cls = body.parent if body is not None else None
    decl = cls.parent if cls is not None else None
    if decl is None or decl.type != "template_declaration":
        return []
    params = decl.child_by_field_name("parameters")
    out = []
    for p in (params.named_children if params is not None else ()):
        names = [c for c in p.named_children if c.type in ("type_identifier", "identifier")]
        typed = p.type in ("type_parameter_declaration", "optional_type_parameter_declaration")
        out.append(node_text(names[-1]) if names and typed else None)
    return out


def _class_body(f: FunctionDef):
    """The member list of the class whose body defines method `f` (a member template's too); None
    where `f` is no method."""
    body = f.node.parent if f.node is not None else None
    if body is not None and body.type == "template_declaration":
        body = body.parent
    return body if body is not None and body.type == "field_declaration_list" else None


def _class_members(f: FunctionDef) -> dict[str, bool] | None:
    """The data members of the class whose body defines method `f`, each with whether it is a
    pointer or an arithmetic scalar (`const float *p_;`, `int n_;`), not a reference, an array or an
    object; None where `f` is no method."""
    body = _class_body(f)
    if body is None:
        return None
    out: dict[str, bool] = {}
    for c in body.named_children:
        if c.type != "field_declaration":
            continue
        t = c.child_by_field_name("type")
        scalar = t is not None and t.type in ("primitive_type", "sized_type_specifier")
        for d in c.children_by_field_name("declarator"):
            crossed = []        # the declarators around the name (`*`, `&`, `[N]`)
            while d is not None and d.type not in ("field_identifier", "identifier"):
                crossed.append(d.type)
                d = d.child_by_field_name("declarator") or (d.named_children[0] if d.named_children else None)
            if d is not None:
                out[node_text(d)] = d.type == "field_identifier" and \
                    all(x == "pointer_declarator" for x in crossed) and (bool(crossed) or scalar)
    return out


def _plain_fields(f: FunctionDef) -> set[str]:
    """The data members of method `f`'s class that are pointers or arithmetic scalars: not
    references, arrays or objects (a `TempStorage &` of a library's block collective is storage whose
    layout and barriers are the library's)."""
    return {n for n, plain in (_class_members(f) or {}).items() if plain}


def _mutated_fields(f: FunctionDef, fields: set[str]) -> set[str]:
    """The members of method `f`'s class that a method body assigns to (`_size = 0;`, `++_size`,
    `this->n += k`): their constructor's value does not hold for the object's life."""
    body = _class_body(f)
    if body is None or not fields:
        return set()
    text = b" ".join(c.child_by_field_name("body").text for c in _class_functions(body)
                     if c.child_by_field_name("body") is not None).decode("utf-8", "replace")
    out = set()
    for name in fields:
        n = re.escape(name)
        if re.search(rf"(?<![\w.>]){n}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|(?<![\w.>]){n}\s*(?:\+\+|--)|"
                     rf"(?:\+\+|--)\s*{n}\b|(?:this\s*->\s*){n}\s*(?:[-+*/%&|^]?=(?!=)|\+\+|--)", text):
            out.add(name)
    return out


def _class_functions(body):
    """The method definitions in a class body (member templates' too)."""
    for c in body.named_children:
        if c.type == "function_definition":
            yield c
        elif c.type == "template_declaration":
            yield from (d for d in c.named_children if d.type == "function_definition")


def _on_object(e: ir.Expr, fields: set[str], obj: ir.Expr, arrow: bool) -> ir.Expr:
    """A method's expression with its class's members (`data_`, `this->data_`) read from `obj`."""
    match e:
        case ir.Name(name=n) if n in fields:
            return ir.Member(obj, n, arrow)
        case ir.Member(base=ir.Name(name="this"), field=f):
            return ir.Member(obj, f, arrow)
        case ir.Member(base=b, field=f, arrow=a):
            return ir.Member(_on_object(b, fields, obj, arrow), f, a)
        case ir.Subscript(base=b, index=i):
            return ir.Subscript(_on_object(b, fields, obj, arrow), _on_object(i, fields, obj, arrow))
        case ir.AddrOf(expr=x):
            return ir.AddrOf(_on_object(x, fields, obj, arrow))
        case ir.Deref(expr=x):
            return ir.Deref(_on_object(x, fields, obj, arrow))
        case ir.Bin(op=op, left=l, right=r):
            return ir.Bin(op, _on_object(l, fields, obj, arrow), _on_object(r, fields, obj, arrow))
        case ir.Un(op=op, operand=o):
            return ir.Un(op, _on_object(o, fields, obj, arrow))
        case ir.Cond(cond=c, then=a, other=b):
            return ir.Cond(*(_on_object(x, fields, obj, arrow) for x in (c, a, b)))
        case ir.Cast(type=t, expr=x):
            return ir.Cast(t, _on_object(x, fields, obj, arrow))
        case ir.Call(fn=fn, args=args, targs=targs):
            return ir.Call(fn, tuple(_on_object(a, fields, obj, arrow) for a in args), targs)
    return e


_THREAD_WORDS = re.compile(rb"threadIdx|laneid|clock|asm|\[|->|\*\s*\w|atomic|shfl|rand")


def _thread_free(f: FunctionDef) -> bool:
    """Helper `f` computes its result from its arguments alone: its text names no thread coordinate,
    no memory (a subscript, `->`, a dereference), no atomic, shuffle, clock or random source."""
    got = f.__dict__.get("_thread_free")
    if got is None:
        text = f.body.text if f.body is not None else b"["
        got = f.__dict__["_thread_free"] = _THREAD_WORDS.search(text) is None
    return got


def _in_memory(a) -> bool:
    """An argument that names an element in memory: `a[i]`, `p[i].x`, `p->x`, `*p`."""
    while isinstance(a, ir.Member) and not a.arrow:
        a = a.base
    return isinstance(a, (ir.Subscript, ir.Deref, ir.Member))
