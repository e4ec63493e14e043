"""Accesses of a kernel's walk: every subscript / dereference of an array the model knows becomes
an Access (index in elements of the array, space, load/store, guards, loops, statement text)."""
from __future__ import annotations

import re

from ..index import ir
from ..index.types import template_arguments
from ..source.cufile import node_text, type_words
from . import uniform
from .table import Access, MemoryArray, short_text as _short
from .host import substitute
from .symbols import UNKNOWN_VIEW, Ptr, Unfollowable, _data, _names, _scale


_BUILTIN_NAMES = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
_UNIFORM_KINDS = ("param", "block", "blockdim", "griddim", "uniform")   # one value in every thread of a block


# `cuda::atomic<T, scope>`, `cuda::std::atomic<T>`, `std::atomic_ref<T>`: atomic types by name
_ATOMIC_TYPE = re.compile(r"(?:const\s+|volatile\s+)*(?:::)?(?:cuda::)?(?:std::)?atomic(?:_ref)?\s*<")


class Accesses:
    """Accesses: every subscript and dereference of a known array becomes an Access."""

    def address(self, x: ir.Expr, stmt, node):
        """`&A[i]` → pointer to element i of A (no memory access)."""
        if x.__class__ is ir.Name and self.variables and x.name not in self.env and x.name not in self.shared_scalars:
            self.file_variable(x.name)
        match x:
            case ir.Name(name=n) if n in self.shared_scalars:
                return self.shared_scalars[n]
            case ir.Subscript():
                ptr, index = self._element(x, stmt, node)
                if ptr is None:
                    return ir.Sym("addr", "unknown")
                return self._pointer_into(x, ptr, index)
            case ir.Deref(expr=p):
                return self.rvalue(p, stmt, node)
            case ir.Member():
                got = self._member_address(x, stmt, node)
                if got is not None:
                    return got
        return ir.Sym("addr", "unknown")

    def _pointer_into(self, x: ir.Subscript, ptr: Ptr, index: ir.Expr, row_index: ir.Expr | None = None) -> Ptr:
        """The address `x` (`&A[i]`, or a row `buf[w]` of a 2-D array) names: a pointer into the array."""
        return Ptr(ptr.array, ir.add(ptr.offset, _scale(self._row_start(x, ptr, index), ptr)), ptr.view, ptr.view_size,
                   True, row_index)

    @staticmethod
    def _row_start(x: ir.Subscript, ptr, index):
        """`&tile[t]` of `float tile[32][32]`: the address of row t, t * 32 elements in (fewer
        subscripts than the array has dimensions name a row, not an element)."""
        n, cur = 0, x
        while isinstance(cur, ir.Subscript):
            n, cur = n + 1, cur.base
        dims = ptr.array.dims
        if ptr.offset != ir.Num(0) or ptr.inner or not 1 <= n < len(dims) or any(d is None for d in dims[n:]):
            return index
        row = 1
        for d in dims[n:]:
            row *= d
        return ir.mul(index, ir.Num(row))

    def _member_of(self, e: ir.Member, stmt, node):
        """(pointer to the struct, its index, the member's path, the member's layout) for member `e`
        of a struct in memory; None where it is not one or its layout is not known."""
        got = self._container(e, stmt, node)
        if got is None or got[1] is None:
            return None
        ptr, index, path = got
        if not isinstance(ptr, Ptr) or not isinstance(index, ir.Expr):
            return None
        m = self.layouts.member(ptr.view, ".".join(path), self.type_bindings(ptr.view))
        return None if m is None else (ptr, index, path, m)

    def _member_address(self, e: ir.Member, stmt, node) -> Ptr | None:
        """`&p[i].data`: a pointer to the member of element `i`, as a view of the array in the
        member's units (the struct's size and the member's offset whole multiples of its size)."""
        got = self._member_of(e, stmt, node)
        if got is None:
            return None
        ptr, index, path, m = got
        arr = ptr.array
        if m.count != 1 or not m.size or ptr.view_size != arr.elem_size or \
                arr.elem_size % m.size or m.offset % m.size:
            return None
        view = self._member_view(arr, m)
        ratio = arr.elem_size // m.size
        start = ir.add(ir.mul(ir.add(ptr.offset, index), ir.Num(ratio)), ir.Num(m.offset // m.size))
        return Ptr(view.array, start, m.type, m.size)

    def _member_view(self, arr: MemoryArray, m) -> Ptr:
        """Array `arr` seen in units of member `m`'s type (one view per array and type)."""
        key = (id(arr), m.size, m.type)
        view = self.members.get(key)
        if view is None:
            sub = MemoryArray(arr.name, arr.space, m.type, m.size, (), arr.line, arr.extern, arr.size_assumed)
            view = self.members[key] = Ptr(sub, ir.Num(0), m.type, m.size)
        return view

    def _element(self, e: ir.Expr, stmt, node):
        """For `base[i]...[j]` return (pointer of the innermost array, flat index in view units)."""
        chain = []
        cur = e
        while isinstance(cur, ir.Subscript):
            chain.append(cur.index)
            cur = cur.base
        chain.reverse()
        known = f"{cur.base.name}.{cur.field}" if cur.__class__ is ir.Member and cur.base.__class__ is ir.Name \
            else None
        if known is not None and isinstance(self.env.get(known), Ptr):
            base = self.env[known]      # a pointer member a local object's constructor set
        else:
            base = self._member_array(cur, stmt, node) if cur.__class__ is ir.Member else None
        if base is None and cur.__class__ is ir.Name and not isinstance(self.env.get(cur.name), Ptr):
            base = self.object_storage(cur.name)
        if base is None:
            base = self.rvalue(cur, stmt, node)
        if not isinstance(base, Ptr):
            return None, None
        idx = self._rvalues(chain, stmt, node)
        for i in idx:
            if not isinstance(i, ir.Expr):
                raise Unfollowable(f"index of `{_short(str(e))}` is a pointer")
        dims = base.array.dims      # a pointer's are (); a file-scope `__device__` array's are declared
        if len(idx) > 1 and len(dims) >= len(idx) and base.offset == ir.Num(0) and not base.inner:
            flat = idx[0]
            for k in range(1, len(idx)):
                d = dims[k]
                if d is None:
                    # `s_b[k][n]` of `half s_b[BK][BN + B_PAD]` with B_PAD the launch's: the row's
                    # length is that expression; one nothing gives leaves the row unknown
                    x = base.array.dim_exprs[k] if len(base.array.dim_exprs) > k else None
                    if x is None:
                        raise Unfollowable(f"`{_short(str(e))}`: the length of a row of `{base.array.name}` "
                                           f"is not known")
                    flat = ir.add(ir.mul(flat, x), idx[k])
                    continue
                flat = ir.add(ir.mul(flat, ir.Num(d)), idx[k])
            return base, flat
        if len(idx) > 1:
            raise Unfollowable(f"`{_short(str(e))}`: multi-dimensional subscript of a pointer")
        return base, idx[0]

    # ---- members of structs in memory ------------------------------------------------------
    def _container(self, e: ir.Member, stmt, node):
        """Where the struct holding member `e` lies: (pointer, index in its view's units, member path)
        for `p[i].a.b`, `p->a`, `(*p).a`, `s.a` (a struct variable in memory); None where `e` is a
        member of something else (a local struct, a vector value), before anything is evaluated."""
        path = [e.field]
        arrow, cur = e.arrow, e.base
        while not arrow and cur.__class__ is ir.Member:
            path.insert(0, cur.field)
            arrow, cur = cur.arrow, cur.base
        if arrow:
            if cur.__class__ is ir.Name and not isinstance(self.env.get(cur.name), Ptr):
                return None
            ptr, index = self.rvalue(cur, stmt, node), ir.Num(0)
        elif cur.__class__ is ir.Subscript:
            root = cur
            while root.__class__ is ir.Subscript:
                root = root.base
            if root.__class__ is ir.Name and root.name in _BUILTIN_NAMES:
                return None
            ptr, index = self._element(cur, stmt, node)
            if ptr is None:
                return cur, None, path         # not an array the model knows: the caller says so
        elif cur.__class__ is ir.Deref:
            ptr, index = self.rvalue(cur.expr, stmt, node), ir.Num(0)
        elif cur.__class__ is ir.Name:
            n = cur.name
            if n not in self.shared_scalars and n not in self.env and self.variables:
                self.file_variable(n)
            if n not in self.shared_scalars:
                return None
            ptr, index = self.shared_scalars[n], ir.Num(0)
        else:
            return None
        return ptr, index, path

    def member_access(self, e: ir.Member, kind: str, stmt, node):
        """A load or store of a member of a struct in memory: the member's bytes at
        `base + index * sizeof(struct) + offset` (index/types.py lays the struct out). None where
        `e` is not in memory; a member whose layout is not known is an access of the whole element,
        as before the layout was read."""
        try:
            got = self._container(e, stmt, node)
        except Unfollowable as exc:
            self.note(stmt, str(exc))
            return _data(_short(str(e)))
        if got is None:
            return None
        ptr, index, path = got
        if index is None:                     # `q[i].x` of a name that is no array: as a subscript
            return self.access(ptr, "load", stmt, node) and _data(_short(str(e)))
        if not isinstance(ptr, Ptr) or not isinstance(index, ir.Expr):
            return _data(_short(str(e)))
        m = self.layouts.member(ptr.view, ".".join(path), self.type_bindings(ptr.view))
        exact = ptr.view_size == ptr.array.elem_size or (ptr.array.elem_size and
                                                          ptr.view_size % ptr.array.elem_size == 0)
        if m is None or not exact:
            inner = e
            while inner.__class__ is ir.Member and not inner.arrow:
                inner = inner.base
            self._record(ptr, index, kind, stmt, node, inner.base if inner.__class__ is ir.Member else inner)
            return _data(_short(str(e)))
        if m.type.endswith("*") and m.count == 1 and kind == "load":
            return self._loaded_pointer(ptr, index, path, m.type)
        if m.count > 1 or m.type.endswith("*"):
            return _data(_short(str(e)))      # an array member decays to its address
        self._record(ptr, index, kind, stmt, node, e, width=m.size, member_offset=m.offset)
        return _data(_short(str(e)))

    def object_storage(self, name: str) -> Ptr | None:
        """`v[k]` of a local object whose class keeps its elements in itself (`Packed128 v;` holding
        `T payload[size]` and giving them through `operator[]`): an element of that array member, in
        the thread's registers. None for anything else: a class with a pointer member (a view of
        memory elsewhere), with no array member or more than one."""
        t = self.types.get(name)
        if t is None or name not in self.env or name in self.struct_params:
            return None
        key = ("storage", name, t)
        got = self.members.get(key)
        if got is not None or key in self.members:
            return got
        self.members[key] = None
        resolved = self.layouts.resolve(self.types.get(t, t))
        found = template_arguments(self.layouts, resolved)
        if found is None:
            return None
        sd, args = found
        arrays = [f for f in sd.fields if f.dims]
        if len(arrays) != 1 or any(f.pointers or f.reference for f in sd.fields) or \
                b"operator[]" not in _class_text(sd):
            return None
        m = self.layouts.member(resolved, arrays[0].name)
        if m is not None:
            elem, size, dims = m.type, m.size, tuple(m.dims) if m.dims else (m.count,)
        else:       # the class cannot be laid out (an extent it computes): its element type still says the size
            bindings = {k: self.layouts.resolve(v) for k, v in args.items()}
            elem, size, assumed = self._elem_type(self.layouts.resolve(arrays[0].type_text, bindings))
            if assumed:
                return None
            dims = tuple(None for _ in arrays[0].dims)
        if elem.endswith("*"):
            return None
        arr = MemoryArray(f"{name}.{arrays[0].name}", "local", elem, size, dims, self.line)
        self.table.arrays[arr.name] = arr
        got = self.members[key] = Ptr(arr, ir.Num(0), elem, size)
        return got

    # ---- pointers held in structs -------------------------------------------------------
    def _pointer_array(self, key, name: str, member_type: str) -> Ptr:
        """The memory a pointer member points to (`p.x` of `const float *x;`): an array of its own,
        global (what a kernel's struct argument carries), of the member's element type."""
        got = self.members.get(key)
        if got is None:
            base = " ".join(w for w in member_type.rstrip().removesuffix("*").split()
                            if w not in ("const", "volatile", "__restrict__", "__restrict"))
            t, size, assumed = self._elem_type(base or "void")
            arr = MemoryArray(name, "global", t, size, (), self.fn.line, size_assumed=assumed)
            self.table.arrays.setdefault(name, arr)
            got = self.members[key] = Ptr(arr, ir.Num(0), t, size)
        return got

    def _loaded_pointer(self, ptr: Ptr, index: ir.Expr, path: list[str], member_type: str):
        """A pointer member of a struct in memory (`d_unique[bx].d_in2`, `q->data`): the array it points
        to. Where every thread of a block loads it from one place (an index of sizes and block
        coordinates), its accesses are followed from that one start; else the start is a value each
        thread loads (an indirect access)."""
        flat = ir.add(ptr.offset, _scale(index, ptr))
        name = f"{ptr.array.name}[{_short(str(flat), 30)}].{'.'.join(path)}"
        got = self._pointer_array(("loaded", id(ptr.array), flat, tuple(path)), name, member_type)
        if all(s.kind in _UNIFORM_KINDS for s in ir.symbols(flat)):
            return got
        return Ptr(got.array, _data(name), got.view, got.view_size)

    def field_value(self, e: ir.Member):
        """A member of a struct the kernel takes by value (`p.x`, `params.d_out`, `p.sizes.n`), a value
        the launch gives: a pointer member points to an array of its own, an integer member is a size
        of the launch (open, as an integer parameter is). None for anything else."""
        cur, path = _dot_path(e)
        if cur.__class__ is not ir.Name or not path:
            return None
        root = self.env.get(cur.name)
        if root.__class__ is not ir.Sym or root.kind != "unknown" or root.name not in self.struct_params:
            # `v.size` of a local object whose class has a static constant `size`
            t = self.types.get(cur.name)
            if t is not None and len(path) == 1 and cur.name in self.env:
                got = self._member_constant(f"{t}::{path[0]}")
                if got is not None:
                    return got
            return None
        declared = self.layouts.declared(self.struct_params[root.name], ".".join(path))
        if declared is None:
            return None
        name = f"{root.name}.{'.'.join(path)}"
        if declared.endswith("*"):
            return self._pointer_array(("field", name), name, declared)
        t = self.layouts.resolve(self.types.get(declared, declared))
        if t in ir.INT_KINDS:
            return ir.Sym(name, "param", t)
        return None

    def _field_element(self, e: ir.Subscript) -> ir.Sym | None:
        """`t.size_[1]`: an element, at a constant index, of an integer array member of a struct the
        kernel takes by value: a value the launch gives, one for every thread (an open size, as
        `p.n` is). None for anything else."""
        cur, path = _dot_path(e.base)
        index = self.env.get(e.index.name) if e.index.__class__ is ir.Name else e.index
        if cur.__class__ is not ir.Name or not path or index.__class__ is not ir.Num:
            return None
        root = self.env.get(cur.name)
        if root.__class__ is not ir.Sym or root.kind != "unknown" or root.name not in self.struct_params:
            return None
        m = self.layouts.member(self.struct_params[root.name], ".".join(path), self.type_bindings(
            self.struct_params[root.name]))
        if m is None or len(m.dims) != 1 or not 0 <= index.value < m.dims[0]:
            return None
        t = self.layouts.resolve(m.type)
        if t not in ir.INT_KINDS:
            return None
        name = f"{root.name}.{'.'.join(path)}[{index.value}]"
        self.table.params.setdefault(name, t)
        return ir.Sym(name, "param", t)

    def _member_array(self, e: ir.Member, stmt, node) -> Ptr | None:
        """`s.arr` / `p->arr` / `p[i].arr` as an array: a pointer to the member's elements. A member of
        one struct (a struct variable, what a pointer points to) is an array of its own; the member
        of element `i` of an array of structs is a view of that array in the member's units, where
        the struct's size and the member's offset are whole multiples of the member's size."""
        got = self._member_of(e, stmt, node)
        if got is None:
            return None
        ptr, index, path, m = got
        if m.count < 2 or ptr.view_size != ptr.array.elem_size:
            return None
        arr = ptr.array
        if index == ir.Num(0) and ptr.offset == ir.Num(0) and (arr.dims == (1,) or arr.space == "global") and \
                (len(m.dims) > 1 or not self._aliased(ptr.view, path[0])):
            key = (id(arr), tuple(path))
            got = self.members.get(key)
            if got is None:
                sub = MemoryArray(f"{arr.name}.{'.'.join(path)}", arr.space, m.type, m.size, m.dims, arr.line,
                                  arr.extern, arr.size_assumed)
                self.table.arrays[sub.name] = sub
                got = self.members[key] = Ptr(sub, ir.Num(0), m.type, m.size)
            return got
        if arr.elem_size % m.size or m.offset % m.size:
            return None
        view = self._member_view(arr, m)
        ratio = arr.elem_size // m.size
        start = ir.add(ir.mul(ir.add(ptr.offset, index), ir.Num(ratio)), ir.Num(m.offset // m.size))
        return Ptr(view.array, start, m.type, m.size)

    def _aliased(self, view: str, top: str) -> bool:
        """Member `top` of a struct shares bytes with another member (a union's members, an anonymous
        union inside a struct): its elements are not an array of their own but a view of the
        variable's bytes, where a store through one member meets a read through the other. (A view
        has one dimension: a member of several is kept an array of its own, its aliases unseen.)"""
        lay = self.layouts.layout(view, self.type_bindings(view))
        m = lay.member(top) if lay is not None else None
        if m is None:
            return False
        end = m.offset + m.bytes
        return any(o is not m and o.offset < end and m.offset < o.offset + o.bytes for o in lay.members)

    def access(self, e: ir.Expr, kind: str, stmt, node):
        if isinstance(e, ir.Deref):
            p = self.rvalue(e.expr, stmt, node)
            if isinstance(p, Ptr):
                # `reinterpret_cast<T &>(u)` of a reference parameter `u`: the element it is bound to
                x = e.expr.expr if isinstance(e.expr, ir.Cast) else e.expr
                shown = self.alias_exprs.get(x.expr.name) if isinstance(x, ir.AddrOf) and \
                    isinstance(x.expr, ir.Name) else None
                return self._record(p, ir.Num(0), kind, stmt, node, e, shown=shown)
            return _data("deref")
        if isinstance(e, ir.Subscript) and kind == "load" and e.base.__class__ is ir.Member:
            got = self._field_element(e)
            if got is not None:
                return got
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
            if ptr.offset == ir.Num(0) and not ptr.inner and 1 <= len(chain) < len(ptr.array.dims):
                # `buf[w]` of `float buf[4][9]`: a row, which decays to its address; nothing is read
                if any(d is None for d in ptr.array.dims[len(chain):]):
                    return ir.Sym("addr", "unknown")
                return self._pointer_into(e, ptr, index,
                                          index if len(chain) == 1 and ptr.view_size == ptr.array.elem_size else None)
            if len(chain) > 1:
                dims_idx = tuple(self._rvalues(reversed(chain), stmt, node))
            return self._record(ptr, index, kind, stmt, node, e, dims_idx)
        return self.rvalue(e, stmt, node)

    def _record(self, ptr: Ptr, index: ir.Expr, kind: str, stmt, node, e, dims_idx=None, width: int | None = None,
                member_offset: int = 0, shown: ir.Expr | None = None):
        """`width`, `member_offset`: a member of a struct element moves `width` bytes at that offset."""
        arr = ptr.array
        flat = ir.add(ptr.offset, _scale(index, ptr))
        if dims_idx is None:
            dims_idx = (flat,)
        span = getattr(e, "span", (0, 0))
        if self._expanding is not None:      # the text of a macro's expansion has no place in the file
            line, col = self._expanding.start_point[0] + 1, self._expanding.start_point[1] + 1
            end_line, end_col = self._expanding.end_point[0] + 1, self._expanding.end_point[1] + 1
        elif node is not None and span != (0, 0):
            line, col, end_line, end_col = _locate(node, span)
        elif stmt is not None:
            line, col = stmt.start_point[0] + 1, stmt.start_point[1] + 1
            end_line, end_col = stmt.end_point[0] + 1, stmt.end_point[1] + 1
        else:       # read outside any statement (a helper called from a declaration's extent)
            line, col, end_line, end_col = self.line, 1, self.line, 1
        first_trips = ()
        if any(c.__class__ is ir.Cond for c in flat.walk()):
            flat, first_trips = _first_iteration(flat, {id(it.trip) for it in self.loops})
            if first_trips:
                dims_idx = (flat,) if len(dims_idx) == 1 else dims_idx
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
        if unresolved is None and ptr.view.startswith(UNKNOWN_VIEW):
            unresolved = (f"it goes through a cast to `{ptr.view[len(UNKNOWN_VIEW):]}`, whose size is not known "
                          f"where the kernel is compiled")
        unbound = arr.elem_type in self.types and not self.types[arr.elem_type]    # a template type no launch binds
        if unresolved is None and arr.size_assumed and not unbound and self.layouts.defines(arr.elem_type):
            unresolved = (f"the size of {type_words(arr.elem_type)} is not known: " + (
                "a member's type or extent is not known where the kernel is compiled" if "@" in arr.elem_type else
                "a type one of its members is declared with is not defined where the kernel is compiled"))
        # an atomic whose result the program drops (`atomicExch(&flag, 1);`) stores and reads nothing it uses
        kinds = ["load", "store"] if kind == "atomic" else ["store"] if kind == "atomic-store" else [kind]
        defs, reaching = self.defs, {}
        for n in _names(e):
            if n in defs:
                reaching[n] = defs[n]
        written = getattr(e, "index", None)
        deps = {}
        for n in (ir.of_type(written, ir.Name) if written is not None else ()):
            if isinstance(self.env.get(n.name), ir.Expr):
                deps[n.name] = {s.name for s in ir.symbols(self.env[n.name]) if s.kind == "thread"}
        if arr.space == "local" and "store" in kinds:
            # a register array's elements hold what its stores store: the axes of all of them, and of
            # which element each store picks (read back through any element, conservatively)
            got = _axes_bits(self.store_axes) if kind == "store" and not unresolved else uniform.UNKNOWN
            if got >= 0:
                picked = uniform.thread_mask(flat)
                got = uniform.UNKNOWN if picked < 0 else got | picked
            old = self.local_axes.get(arr.name, 0)
            self.local_axes[arr.name] = uniform.UNKNOWN if got < 0 or old < 0 else old | got
        moved = width or ptr.view_size
        align = 0
        if moved & (moved - 1):         # no power of two: moved in pieces of its alignment
            align = (self.layouts.align(ptr.view, self.type_bindings(ptr.view)) or 0) if width is None else 0
        if ptr.row_index is not None and len(arr.dims) == 2 and len(dims_idx) == 1:
            # through a row of a two-dimensional array (`float *out = buf[w]`): `out[i]` is
            # `buf[w][i]`, each subscript in its own dimension (a range question apart from a meeting)
            dims_idx = (ptr.row_index, _scale(index, ptr))
        atomic = kind.startswith("atomic") or self._atomic_type(arr.elem_type)
        for k in kinds:
            acc = Access(arr, k, flat, tuple(dims_idx), width or ptr.view_size, line, col, end_line, end_col,
                         tuple(self.guards) + first_trips, tuple(self.loops),
                         statement=self._statement_text(stmt), helper=self.helper, call=self.call_no, path=self.path,
                         unresolved=unresolved,
                         atomic=atomic, name_deps=deps, seq=self._next_seq(),
                         reaching=reaching,
                         value_scope=self.store_scope if k == "store" and kind == "store" else uniform.THREAD,
                         value_axes=self.store_axes if k == "store" and kind == "store" else None,
                         value_inputs=_inputs(self.store_inputs, arr) if k == "store" and kind == "store" else None,
                         volatile=_base_name(e) in self.volatile, written=e, alias=shown,
                         written_index=written if written is not None else index, member_offset=member_offset,
                         stored=self.store_value if k == "store" else None,
                         view=ptr.view if width is None and ptr.view_size != arr.elem_size else "",
                         align=align)
            self.table.accesses.append(acc)
        if arr.space == "local" and unresolved is None:
            if kind == "store":
                self._note_fill(arr, flat)
            elif kind == "load":
                filled = self.fills.get(arr.name)
                if filled is not None:
                    return substitute(filled[1], {filled[0]: flat})
        return _data(arr.name)

    def _atomic_type(self, t: str) -> bool:
        """An element of libcu++'s or the standard library's atomic type (`cuda::atomic<int,
        cuda::thread_scope_block>`, `cuda::std::atomic<T>`, through a typedef or a template type
        the launch binds): its operators (`++`, `+=`, `=`, reads) are atomic operations."""
        if "atomic" not in t and not self.types.get(t) and "atomic" not in (self.layouts.resolve(t) or ""):
            return False        # most elements: no atomic in the name or what it stands for
        for _ in range(8):
            if _ATOMIC_TYPE.match(t):
                return True
            nxt = self.types.get(t) or self.layouts.resolve(t)
            if not nxt or nxt == t:
                return False
            t = nxt
        return False

    # ---- register arrays filled in a loop --------------------------------------------------
    _FILL_KINDS = frozenset(("thread", "block", "blockdim", "griddim", "param"))

    def _note_fill(self, arr: MemoryArray, index: ir.Expr) -> None:
        """`for (t = 0; t < T; t++) idx[t] = threadIdx.x + t * blockDim.x;`: the one store of a register
        array, at its loop's counter, of a value made of that counter and the launch's values: element
        k of the array holds that value at t = k wherever the kernel reads it (an element the loop does
        not store holds nothing the program may read). Any other store to the array, an element
        passed to a helper by reference, the array passed whole: it is not followed."""
        name = arr.name
        if name in self.fills:          # a second store met in the walk
            self.fills[name] = None
            return
        value = self.store_expr
        counter = index if isinstance(index, ir.Sym) and index.kind == "iter" and \
            any(it.trip == index for it in self.loops) else None
        if counter is None or value is None or self.helper or not self._filled_once(name) or \
                any(s != counter and s.kind not in self._FILL_KINDS for s in ir.symbols(value)):
            self.fills[name] = None
            return
        self.fills[name] = (counter, value)

    def _filled_once(self, name: str) -> bool:
        """In the kernel's text, `name` is written at one place, by a plain assignment to an element,
        and read only as elements: not passed whole, nor by address, nor to a parameter taken by
        reference."""
        body = self.fn.body
        if body is None or name.encode() not in body.text:
            return False
        stores = 0
        stack = [body]
        while stack:
            n = stack.pop()
            if n.type == "identifier" and node_text(n) == name:
                up = n.parent
                if up is not None and up.type == "array_declarator":
                    continue
                if up is None or up.type != "subscript_expression" or up.child_by_field_name("argument") != n:
                    return False        # the array whole: passed, aliased, its address taken
                use = up.parent
                if use is None:
                    return False
                if use.type == "assignment_expression" and use.child_by_field_name("left") == up:
                    op = use.child_by_field_name("operator")
                    if op is None or node_text(op) != "=":
                        return False
                    stores += 1
                elif use.type in ("update_expression", "pointer_expression"):
                    return False
                elif use.type == "argument_list" and not self._by_value(use, up):
                    return False
                continue
            stack.extend(n.named_children)
        return stores == 1

    def _by_value(self, args_node, arg) -> bool:
        """The element `arg` of a call's arguments goes to a parameter taken by value (a helper of the
        unit that says so, or a CUDA intrinsic)."""
        call = args_node.parent
        fn = call.child_by_field_name("function") if call is not None else None
        name = node_text(fn).split("::")[-1].split("<")[0].strip() if fn is not None else ""
        helper = self.functions.get(name)
        if helper is None:
            return name.startswith("__") or name in ("min", "max", "abs", "printf")
        at = [a for a in args_node.named_children if a.type != "comment"].index(arg)
        return at < len(helper.params) and not helper.params[at].reference


def _dot_path(e: ir.Expr) -> tuple[ir.Expr, list[str]]:
    """`p.sizes.n` as (`p`, ["sizes", "n"]): the `.` members of `e`, down to what they are taken of."""
    path: list[str] = []
    while e.__class__ is ir.Member and not e.arrow:
        path.insert(0, e.field)
        e = e.base
    return e, path


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


def _subscript_indexes(e):
    while isinstance(e, ir.Subscript):
        yield e.index
        e = e.base


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


def _class_text(sd) -> bytes:
    """The source text of a struct definition, from its line to the end of its file's text that a
    class can span (enough to see whether it defines an operator)."""
    src = getattr(sd, "file", None)
    if src is None or not sd.line:
        return b""
    got = sd.__dict__.get("_text")
    if got is None:
        lines = src.text.splitlines()[sd.line - 1:]
        depth, out = 0, []
        for ln in lines:
            out.append(ln)
            depth += ln.count("{") - ln.count("}")
            if depth <= 0 and "}" in ln:
                break
        got = sd.__dict__["_text"] = "\n".join(out).encode()
    return got


def _inputs(inputs, arr) -> tuple | None:
    """A store's value inputs (`_value_inputs`), unless the value reads the array it is stored to:
    `c[k] = c[k] - d` in many threads reads what another writer may have stored already."""
    if inputs is None or any(name == arr.name for _, name in inputs):
        return None
    return tuple(e for e, _ in inputs)


def _axes_bits(axes) -> int:
    """A store's value axes (`store_axes`: threadIdx axis names, None where not followed) as
    thread_mask bits."""
    if axes is None:
        return uniform.UNKNOWN
    return sum({"threadIdx.x": 1, "threadIdx.y": 2, "threadIdx.z": 4}.get(a, 0) for a in axes)


def _first_iteration(e: ir.Expr, trips: set[int]) -> tuple[ir.Expr, tuple[ir.Expr, ...]]:
    """`e` at the first iteration of the loops around the access whose carried value the model
    follows only there (`trip == 0 ? start : unknown`, loops.py): each such choice taken as its
    start, and the tests `trip == 0` that the access then runs under (its later iterations read a
    value not followed, and are left out, not guessed)."""
    mapping: dict = {}
    found: list[ir.Expr] = []
    for x in e.walk():
        if x.__class__ is not ir.Cond or x in mapping:
            continue
        c = x.cond
        if c.__class__ is ir.Bin and c.op == "==" and c.right == ir.Num(0) and id(c.left) in trips and \
                any(s.kind == "unknown" for s in ir.symbols(x.other)):
            mapping[x] = x.then
            if c not in found:
                found.append(c)
    if not found:
        return e, ()
    for _ in range(4):          # a start that holds another loop's first-iteration choice
        nxt = substitute(e, mapping)
        if nxt == e:
            break
        e = nxt
    return e, tuple(found)
