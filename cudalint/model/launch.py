"""Launch configurations: `--launch`, `// cudalint: launch` annotations, and `<<<grid, block, smem>>>`
sites (in any linted file), with what the host program gives them, each value with its provenance:

- the launch's grid and block, host variables and helpers evaluated (model/host.py), and where the
  launch is in a wrapper (`launch_kernel(dim3 grid, dim3 block, ...)`, a kernel passed to
  `launch(F f, dim3 g, dim3 b, Args... args)`), as the wrapper's calls give them;
- the values every launch (every call of a wrapper, callers' callers included) gives each integer
  parameter (`LaunchConfig.values`; a parameter one launch leaves untraced is open);
- the checks the host makes before every launch (`LaunchConfig.host_checks`), and the allocations
  the launches pass to pointer parameters (`LaunchConfig.extents`, in bytes)."""
from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass, replace

import numpy as np

from ..index import ir
from ..index.parse import ExprSyntaxError, balanced
from ..preprocess.macros import MacroError
from ..source.cufile import (INT_WORDS, FunctionDef, LaunchSite, Param, condition_of, expansion_statements,
                             kernel_operand, node_text)
from ..source.project import call_name, enclosing_host, member_class
from ..source.types import split_top_level, template_id
from . import dispatch, lists
from .host import (Budget, HostScope, OutOfBudget, _arity_fits, fold, is_open, program_value, substitute, unknown,
                   variadic_pack, with_edge)
from .host import lookup_constant  # noqa: F401 (model/defuse.py imports it from here)
from .pointers import pointer_launch
from .table import LaunchConfig


_ATOM = re.compile(r"[\w.]*")     # a name, a number or a member: nothing a grid expression repeats
_MEMBER_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")    # `p.n`, `cfg.dims.rows`


@dataclass
class CliLaunch:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]


def _num3(dims) -> tuple[ir.Expr, ir.Expr, ir.Expr]:
    d = list(dims) + [1] * (3 - len(dims))
    return tuple(ir.Num(int(x)) if not isinstance(x, ir.Expr) else x for x in d[:3])


class HostResolver(HostScope):
    """Values of host variables before a launch: `dim3 grid((n + 255) / 256)`, `int threads = 256;`,
    helpers evaluated (model/host.py); and what the host establishes there: checks on the kernel's
    values (`assert(n % 256 == 0)`) and the allocations of the pointers it passes.

    `bindings`: the values of the host function's own parameters at one of its calls (a wrapper's
    `grid`, `block`, `incx` from its caller); without, a parameter is an open host value."""

    def __init__(self, site: LaunchSite, kernel: FunctionDef | None, constants: dict | None = None,
                 project=None, bindings: dict | None = None, budget: Budget | None = None, depth: int = 0):
        super().__init__(site.file, site.line, constants, project, budget, depth)
        self.site = site
        self.bindings = dict(bindings or {})
        self.param_names: dict[str, str] = {}
        self.member_args: dict[str, str] = {}      # `p.n` passed to a kernel parameter -> that parameter
        self.arg_exprs: dict[ir.Expr, str] = {}
        self.facts: dict[str, int] = {}     # sizes fixed by the branch the launch is in
        self.checks: list[tuple[ir.Expr, frozenset[str]]] = []   # (condition, host names it reads)
        self.allocations: dict[str, object] = {}                # host pointer -> bytes (or unknown)
        self.inputs_passed_over: list[str] = []     # run-time inputs a launch's shape was read without
        self.kernel_params = {p.name for p in kernel.params} if kernel is not None else set()
        # kernel parameters the launch passes something else than the host name of their name
        self.shadowed = {p.name for p, a in zip(kernel.params, site.args) if a.strip() != p.name} \
            if kernel is not None else set()

        if kernel is not None:
            # host names passed straight to a kernel parameter are that parameter
            for p, a in zip(kernel.params, site.args):
                a = a.strip()
                if a.isidentifier() and not p.pointers and a not in self.bindings:
                    # a host name passed to several parameters (`nPlanes, nPlanes, nPlanes`) is the
                    # one of its own name, else the first
                    if a == p.name or a not in self.param_names:
                        self.param_names[a] = p.name
                elif _MEMBER_PATH.fullmatch(a) and not p.pointers and a.split(".")[0] not in self.bindings:
                    # `k<<<(p.n + 255) / 256, 256>>>(..., p.n)`: the grid's `p.n` is the kernel's `n`
                    self.member_args[a] = p.name
                elif not p.pointers and not _ATOM.fullmatch(a):
                    # `k<<<ceil_div(B * T, 256), 256>>>(..., B * T)`: the grid's `B * T` is the kernel's `BT`
                    try:
                        e = self._parse(a)
                        if fold(e) is None:         # a constant (`1 << 24`) stays the number it is
                            self.arg_exprs.setdefault(e, p.name)
                    except (ExprSyntaxError, MacroError):
                        pass
        if site.host is not None:
            for ann in site.host.annotations:      # `// cudalint: param n=1000` above the host function
                self.env.update({k: ir.Num(v) for k, v in ann.params.items()})
        if site.host is not None and site.host.body is not None:
            self._walk_host(site.host, site.node.start_byte)
            if site.expansion is not None:      # a macro's expansion, up to its launch
                self._walk(site.expansion[0], site.expansion[1].start_byte)

    def free_name(self, name: str):
        if name in self.bindings:
            return self.bindings[name]
        if name not in self.param_names and name in self.kernel_params and name in self.shadowed:
            # the host's `ny` where the launch passes `ny / 2` as the kernel's `ny`: another value
            return ir.Sym(f"host_{name}", "param")
        return ir.Sym(self.param_names.get(name, name), "param")

    def forget(self, name: str) -> None:
        self.env.pop(name, None)

    def value(self, e: ir.Expr):
        if e in self.arg_exprs:
            return ir.Sym(self.arg_exprs[e], "param")
        if isinstance(e, ir.Name) and e.name in self.param_names:
            # at the launch the host name is the kernel's parameter: that, where the host's own value is
            # not a number or an expression of the kernel's parameters (`int n = x.numel();`,
            # `int num_kernels = channels * height_col * width_col;`)
            v = super().value(e)
            if is_open(v) or not isinstance(v, ir.Expr) or \
                    any(x.kind == "param" and x.name not in self.kernel_params for x in ir.symbols(v)) or \
                    (not isinstance(v, ir.Sym) and any(x.kind == "param" and x.name == e.name for x in ir.symbols(v))):
                # `hidden_dim >>= 2;` before the launch: the kernel's `hidden_dim` is the host's value
                # after it, not the host's parameter of that name before it
                return ir.Sym(self.param_names[e.name], "param")
            return v
        if isinstance(e, ir.Member) and not e.arrow and e.field not in ("x", "y", "z"):
            # `dim3 block(param.size_per_head / 4, ...)` with `param` passed whole to the kernel: the
            # member is the kernel's `param.size_per_head`, open where the host gives no value
            path, base = [e.field], e.base
            while isinstance(base, ir.Member) and not base.arrow:
                path.insert(0, base.field)
                base = base.base
            if isinstance(base, ir.Name) and base.name not in self.env:
                if base.name in self.param_names:
                    return ir.Sym(".".join([self.param_names[base.name], *path]), "param")
                passed = self.member_args.get(".".join([base.name, *path]))
                if passed is not None:
                    return ir.Sym(passed, "param")
        return super().value(e)

    SNAPSHOT_EVERY = 32

    def _walk_host(self, host: FunctionDef, stop: int) -> None:
        """The host function's statements before the launch. The statements that end before it are
        read the same for every launch after them, so a host function launching K kernels is read
        once, not K times: the state after its first statements is kept on the function, for the
        launches that read it the same way (same macros, same kernel parameters for host names)."""
        kids = host.body.named_children
        before = next((i for i, c in enumerate(kids) if c.end_byte > stop), len(kids))
        key = (self.site.file.macros.epoch(self.site.line) if self.site.file is not None else self.site.line,
               id(self.site.file), id(self.constants), tuple(sorted(self.param_names.items())),
               tuple(self.arg_exprs.items()), id(self.project))
        if self.bindings:       # a call's values: the walk is that call's
            key += (tuple(sorted((k, repr(v)) for k, v in self.bindings.items())),)
        walks = host.__dict__.setdefault("_host_walks", {})
        states = walks.setdefault(key, {0: (dict(self.env), {}, [], {}, dict(self.pointees))})
        start = max(k for k in states if k <= before)
        env, facts, checks, allocs, pointees = states[start]
        self.env, self.facts, self.checks, self.allocations = dict(env), dict(facts), list(checks), dict(allocs)
        self.pointees = dict(pointees)
        for i in range(start, before):
            self._statement(kids[i], stop)
            if (i + 1) % self.SNAPSHOT_EVERY == 0 or i + 1 == before:
                states[i + 1] = (dict(self.env), dict(self.facts), list(self.checks), dict(self.allocations),
                                 dict(self.pointees))
        for c in kids[before:]:
            if c.start_byte >= stop:
                return
            self._statement(c, stop)

    def _walk(self, node, stop: int) -> None:
        skip = None
        if node.type == "if_statement":
            # the launch in the `else`: the `then` arm does not run on the way to it
            alt = node.child_by_field_name("alternative")
            if alt is not None and alt.start_byte <= stop < alt.end_byte:
                skip = node.child_by_field_name("consequence")
        for c in node.named_children:
            if c.start_byte >= stop:
                return
            if skip is not None and c.start_byte == skip.start_byte and c.end_byte == skip.end_byte:
                continue
            self._statement(c, stop)

    def _statement(self, c, stop: int) -> None:
        try:
            self._statement_inner(c, stop)
        except OutOfBudget:
            pass

    def _statement_inner(self, c, stop: int) -> None:
        if c.type == "declaration":
            self._forget_checks(c)
            self.declaration(c)
            self._allocation_declaration(c)
        elif c.type == "expression_statement" and c.named_children and not c.start_byte < stop < c.end_byte:
            e = c.named_children[0]
            self._forget_checks(e)
            self._host_check(e)
            self._allocation_call(e)
            self.expression(e)
            self._pitch_call(e)
        elif c.type == "if_statement" and c.end_byte <= stop:
            self._if_before(c, stop)
        elif c.type == "compound_statement" or (c.end_byte > stop and c.type.endswith(("statement", "clause"))
                                                and c.type != "expression_statement"):
            self._branch_fact(c, stop)
            looped = c.type in ("for_statement", "while_statement", "do_statement") and c.end_byte > stop
            if looped:
                # what the loop assigns after the launch (or in its update) is the last iteration's at
                # the launch, also where the body reads it before (`lastLevel = offset / n` with
                # `offset = lastLevel / 2` after the launch)
                self._loop_carried(c, stop)
            self._walk(c, stop)
            if looped:
                self._loop_carried(c, stop)
        elif c.end_byte <= stop and c.type in ("for_statement", "while_statement", "do_statement",
                                               "switch_statement", "for_range_loop", "try_statement"):
            self._assigned_in(c)
        elif c.start_byte < stop < c.end_byte:
            # the launch inside an expression: a lambda's body (`AT_DISPATCH_FLOATING_TYPES(..., [&] {
            # dim3 blocks(...); k<<<blocks, threads>>>(...); })`) is read up to it
            for k in c.named_children:
                if k.start_byte <= stop < k.end_byte:
                    self._statement(k, stop)
                    break

    def _if_before(self, node, stop: int) -> None:
        """An `if` that ends before the launch: `if (n % 4) return;` leaves its condition false;
        `if (n % 256) blocks++;` leaves `blocks` one of two values (a conditional value)."""
        if self._early_exit(node):
            return
        cond = node.child_by_field_name("condition")
        then, alt = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
        if alt is not None and alt.type == "else_clause":
            alt = alt.named_children[0] if alt.named_children else None
        try:
            c = self.value(self._parse(node_text(cond).strip())) if cond is not None else None
        except (ExprSyntaxError, MacroError):
            c = None
        if not isinstance(c, ir.Expr) or then is None:
            self._assigned_in(node)
            return
        before = (dict(self.env), list(self.checks), dict(self.allocations), dict(self.facts))
        self._statement(then, stop)
        env_a = self.env
        self.env, self.checks, self.allocations, self.facts = (dict(before[0]), list(before[1]), dict(before[2]),
                                                               dict(before[3]))
        if alt is not None:
            self._statement(alt, stop)
        env_b = self.env
        self.checks, self.allocations, self.facts = before[1], before[2], before[3]
        known = fold(c)
        if known is not None:
            self.env = env_a if known else env_b
            return
        self.env = {}
        for k in {*env_a, *env_b, *before[0]}:
            if (k in before[0] and (k not in env_a or k not in env_b)):
                continue        # an arm forgot it (`std::swap(a, b)`, a reference argument): open
            va, vb = env_a.get(k, before[0].get(k)), env_b.get(k, before[0].get(k))
            if va is not None and va == vb:
                self.env[k] = va
            elif isinstance(va, ir.Expr) and isinstance(vb, ir.Expr):
                self.env[k] = ir.Cond(c, va, vb)
            elif va is not None or vb is not None:
                self.env[k] = unknown(k)
        self._forget_checks(node)

    def _assigned_in(self, node) -> None:
        """What a statement before the launch assigns in its inner blocks (an `if` not taken, a loop) is
        not a value the walk knows after it."""
        if not _ASSIGNS.search(node.text):
            return
        for t in _walk_types(node, ("assignment_expression", "update_expression")):
            target = t.child_by_field_name("left") or t.child_by_field_name("argument")
            if target is not None and target.type == "field_expression":
                # `grid.x = m / 64` in a `case` of a switch before the launch: that edge is not known
                base, field = target.child_by_field_name("argument"), target.child_by_field_name("field")
                name = node_text(base) if base is not None and base.type == "identifier" else None
                cur = self.env.get(name) if name is not None else None
                f = node_text(field) if field is not None else ""
                if name is not None and isinstance(cur, tuple) and f in ("x", "y", "z"):
                    self.env[name] = with_edge(cur, f, unknown(f"{name}.{f}"))
                elif name is not None and name in self.env:
                    self.env[name] = unknown(name)
                if name is not None:
                    self.checks = [(c, names) for c, names in self.checks if name not in names]
            elif target is not None and target.type == "identifier":
                name = node_text(target)
                if name in self.env:
                    self.env[name] = unknown(name)
                self.checks = [(c, names) for c, names in self.checks if name not in names]

    # ---- what the host establishes before the launch -----------------------------------------
    def _forget_checks(self, node) -> None:
        """A check on `n` says nothing about `n` once it is assigned again."""
        if not self.checks or not _ASSIGNS.search(node.text):
            return
        for t in _walk_types(node, ("assignment_expression", "update_expression", "init_declarator")):
            target = t.child_by_field_name("left") or t.child_by_field_name("argument") or \
                t.child_by_field_name("declarator")
            if target is not None:
                name = node_text(target).lstrip("*& ")
                self.checks = [(c, names) for c, names in self.checks if name not in names]

    def _record_check(self, text: str, negate: bool = False) -> None:
        try:
            e = self._parse(text)
        except (ExprSyntaxError, MacroError):
            return
        names = frozenset(n.name for n in e.walk() if isinstance(n, ir.Name))
        v = self.value(e)
        if not isinstance(v, ir.Expr):
            return
        if negate:
            v = ir.negate(v)
        for c in _selected(_as_condition(v)):
            for part in ir.conjuncts(c):
                self.checks.append((part, names))

    def _host_check(self, e) -> None:
        """`assert(c)`, `CHECK(c)`, `CHECK_EQ(a, b)`, `TORCH_CHECK(c, "...")`: `c` holds after it."""
        if e.type != "call_expression":
            return
        fn = e.child_by_field_name("function")
        args = e.child_by_field_name("arguments")
        if fn is None or args is None:
            return
        name = node_text(fn).split("::")[-1]
        kids = [a for a in args.named_children if a.type != "comment"]
        if name in _CHECK_ONE and kids:
            self._record_check(node_text(kids[0]))
        elif name in _CHECK_TWO and len(kids) >= 2:
            self._record_check(f"({node_text(kids[0])}) {_CHECK_TWO[name]} ({node_text(kids[1])})")

    def _early_exit(self, node) -> bool:
        """`if (n % 4) return;`, `if (n % 4 != 0) throw ...;`: past it, the condition is false."""
        cons, cond = node.child_by_field_name("consequence"), node.child_by_field_name("condition")
        if cons is None or cond is None or node.child_by_field_name("alternative") is not None:
            return False
        stmts = cons.named_children if cons.type == "compound_statement" else [cons]
        stmts = [s for s in stmts if s.type != "comment"]
        if not stmts:
            return False
        last = stmts[-1]
        exits = last.type in ("return_statement", "throw_statement", "break_statement", "continue_statement") or (
            last.type == "expression_statement" and last.named_children and
            last.named_children[0].type == "call_expression" and
            node_text(last.named_children[0].child_by_field_name("function")).split("::")[-1] in _NO_RETURN)
        if exits:
            self._record_check(node_text(cond).strip(), negate=True)
        return bool(exits)

    def _allocation_call(self, e) -> None:
        """`cudaMalloc(&p, bytes)`, `cudaMalloc((void**)&p, n * sizeof(float))`, `cudaMallocManaged`,
        also inside a checking macro (`CUDA_CHECK(cudaMalloc(...))`); `p = new float[n]`."""
        if e.type == "assignment_expression":
            left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
            if left is not None and left.type == "identifier" and right is not None:
                self.allocations.pop(node_text(left), None)
                bytes_ = self._new_bytes(right)
                if bytes_ is not None:
                    self.allocations[node_text(left)] = bytes_
            return
        for target, size in self._calls_to(e, b"Malloc", _DEVICE_ALLOC, 2):
            target = _uncast(target)
            if isinstance(target, ir.AddrOf) and isinstance(target.expr, ir.Name):
                self.allocations[target.expr.name] = self.value(size)

    def _calls_to(self, e, word: bytes, names, count: int, exact: bool = False):
        """The calls in `e` of the functions `names` (`e`'s text holding `word` first), each as its
        first `count` arguments parsed (with `exact`, only calls of `count` arguments); a call with
        fewer, or whose arguments the parser does not read, is left out."""
        if word not in e.text:
            return
        for call in _walk_types(e, ("call_expression",)):
            fn = call.child_by_field_name("function")
            if fn is None or node_text(fn).split("::")[-1] not in names:
                continue
            args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
            if len(args) < count or (exact and len(args) != count):
                continue
            try:
                yield [self._parse(node_text(a)) for a in args[:count]]
            except (ExprSyntaxError, MacroError):
                continue

    # the pitch cudaMallocPitch returns: the row's bytes rounded up to the device's pitch alignment
    # (cudaDeviceProp::texturePitchAlignment, 512 bytes on the GPUs of compute capability 7 to 10)
    PITCH_ALIGNMENT = 512

    def _pitch_call(self, e) -> None:
        """`cudaMallocPitch(&p, &pitch, width_bytes, height)`: `pitch` is `width_bytes` rounded up to
        PITCH_ALIGNMENT, and `p` holds `pitch * height` bytes."""
        for target, pitch, width, height in self._calls_to(e, b"MallocPitch", ("cudaMallocPitch", "hipMallocPitch"),
                                                           4, exact=True):
            target, pitch = _uncast(target), _uncast(pitch)
            if not (isinstance(pitch, ir.AddrOf) and isinstance(pitch.expr, ir.Name)):
                continue
            a = ir.Num(self.PITCH_ALIGNMENT)
            value = ir.Bin("*", ir.Bin("/", ir.Bin("+", self.value(width), ir.Num(self.PITCH_ALIGNMENT - 1)), a), a)
            self.env[pitch.expr.name] = value
            if isinstance(target, ir.AddrOf) and isinstance(target.expr, ir.Name):
                self.allocations[target.expr.name] = ir.Bin("*", value, self.value(height))

    def _new_bytes(self, node):
        """The bytes of `new float[n]`: None when the expression is no such allocation."""
        if node.type != "new_expression":
            return None
        t, decl = node.child_by_field_name("type"), node.child_by_field_name("declarator")
        if t is None or decl is None or decl.type != "new_declarator":
            return None
        size = _elem_size(node_text(t))
        count = decl.named_children[0] if decl.named_children else None
        if size is None or count is None:
            return unknown("new")
        try:
            return ir.Bin("*", self.value(self._parse(node_text(count))), ir.Num(size))
        except (ExprSyntaxError, MacroError):
            return unknown("new")

    def _allocation_declaration(self, node) -> None:
        """`float *p = new float[n];`, `std::vector<float> v(n);`, `thrust::device_vector<float> d(n);`."""
        type_node = node.child_by_field_name("type")
        tname = node_text(type_node).replace(" ", "") if type_node is not None else ""
        container = next((c for c in _CONTAINERS if tname.startswith(c + "<")), None)
        for d in node.children_by_field_name("declarator"):
            if d.type == "function_declarator" and container is not None:
                # `std::vector<float> v(n);` parses as a function declaration (C++'s vexing parse)
                value = d.child_by_field_name("parameters")
            elif d.type == "init_declarator":
                value = d.child_by_field_name("value")
            else:
                continue
            name = node_text(d.child_by_field_name("declarator")).lstrip("*& ")
            self.allocations.pop(name, None)
            if value is None:
                continue
            if container is not None and value.type in ("argument_list", "parameter_list") and value.named_children:
                size = _elem_size(tname[len(container) + 1:].rsplit(">", 1)[0].split(",")[0])
                if size is None:
                    continue
                try:
                    n = self.value(self._parse(node_text(value.named_children[0])))
                except (ExprSyntaxError, MacroError):
                    continue
                if isinstance(n, ir.Expr):
                    self.allocations[name] = ir.Bin("*", n, ir.Num(size))
            else:
                got = self._new_bytes(value)
                if got is not None:
                    self.allocations[name] = got

    def pointer_base(self, text: str) -> str | None:
        """The host variable whose memory a pointer argument is: `p`, `(float*)p`, `v.data()`,
        `thrust::raw_pointer_cast(d.data())`, `thrust::raw_pointer_cast(&d[0])`, `&v[0]`."""
        try:
            e = self._parse(text)
        except (ExprSyntaxError, MacroError):
            return None
        for _ in range(6):
            match e:
                case ir.Name(name=n):
                    return n
                case ir.Cast(expr=x):
                    e = x
                case ir.Call(fn=fn, args=(x,)) if fn.split("::")[-1] == "raw_pointer_cast":
                    e = x
                case ir.Call(fn=fn, args=()) if fn.endswith((".data", ".get")) and fn[:-5].isidentifier():
                    return fn.rsplit(".", 1)[0]
                case ir.AddrOf(expr=ir.Subscript(base=ir.Name(name=n), index=ir.Num(value=0))):
                    return n
                case _:
                    return None
        return None

    def _loop_carried(self, loop, stop: int) -> None:
        """`for (int Ns = 1; Ns < N; Ns *= R) k<<<...>>>(Ns, ...)`: what the loop's update or its body
        after the launch assigns takes another value at each launch; it is not the initial constant."""
        update = loop.child_by_field_name("update")
        nodes = [update] if update is not None else []
        body = loop.child_by_field_name("body")
        fresh = _set_each_iteration(body, stop)
        stack = [body]
        while stack:
            n = stack.pop()
            if n is None:
                continue
            if n.start_byte >= stop and n.type in ("assignment_expression", "update_expression"):
                nodes.append(n)
            stack.extend(n.children)
        for n in nodes:
            for t in _walk_types(n, ("assignment_expression", "update_expression")):
                target = t.child_by_field_name("left") or t.child_by_field_name("argument")
                if target is not None and target.type == "identifier" and node_text(target) not in fresh:
                    self.env.pop(node_text(target), None)

    def _branch_fact(self, node, stop: int) -> None:
        """`if (bs == 16) k<16><<<grid, dim3(bs, bs)>>>` and `case 16:` under `switch (bs)`: in the
        launch's branch the size is that constant; and any condition of the launch's branch holds at it."""
        text = None
        if node.type == "if_statement":
            cons, cond = node.child_by_field_name("consequence"), node.child_by_field_name("condition")
            alt = node.child_by_field_name("alternative")
            if cons is not None and cond is not None and cons.start_byte <= stop < cons.end_byte:
                text = node_text(cond)
                self._record_check(text.strip())
            elif cond is not None and alt is not None and alt.start_byte <= stop < alt.end_byte:
                self._record_check(node_text(cond).strip(), negate=True)
        elif node.type == "case_statement" and node.parent is not None and node.parent.parent is not None:
            switch, value = node.parent.parent, node.child_by_field_name("value")
            cond = switch.child_by_field_name("condition") if switch.type == "switch_statement" else None
            if cond is not None and value is not None:
                text = f"{node_text(cond)} == ({node_text(value)})"
                self._record_check(text)        # a call passing another value never takes this case
        if text is None:
            return
        try:
            e = self._parse(text)
        except (ExprSyntaxError, MacroError):
            return
        if not (isinstance(e, ir.Bin) and e.op == "=="):
            return
        for name, num in ((e.left, e.right), (e.right, e.left)):
            if isinstance(name, ir.Name) and isinstance(num, ir.Num) and isinstance(num.value, int):
                v = self.value(name)
                if isinstance(v, ir.Sym) and v.kind == "param":
                    self.facts[v.name] = num.value

    def _decided(self, e: ir.Expr) -> ir.Expr:
        """`threads = n > 1024 ? 1024 : n` at a launch in `case 256:` of `switch (n)`, or past
        `if (n > 1024) return;`: the arm the launch's branch decides (its facts give the size, its
        checks the condition)."""
        if not isinstance(e, ir.Expr) or fold(e) is not None:
            return e
        if self.facts:
            e = substitute(e, {s: ir.Num(self.facts[s.name]) for s in ir.symbols(e)
                               if s.kind == "param" and s.name in self.facts})
        held = {c for c, _ in self.checks}
        # `if (threadsY == 4) k<<<g, threads>>>` with `dim3 threads(32, threadsY)`: the value the
        # branch compares is that number in it
        equal = {}
        for c in held:
            if isinstance(c, ir.Bin) and c.op == "==":
                for a, b in ((c.left, c.right), (c.right, c.left)):
                    if fold(b) is not None and fold(a) is None:
                        equal[a] = ir.Num(fold(b))
        if equal:
            e = substitute(e, equal)
        if not ir.of_type(e, ir.Cond):
            return e
        def truth(c) -> bool | None:
            known = fold(c)
            if known is not None:
                return bool(known)
            cond = _as_condition(c)
            if cond in held:
                return True
            if _as_condition(ir.negate(cond)) in held:
                return False
            if isinstance(c, ir.Bin) and c.op in ("&&", "||"):
                a, b = truth(c.left), truth(c.right)
                if c.op == "&&":
                    return False if a is False or b is False else True if a and b else None
                return True if a or b else False if a is False and b is False else None
            if isinstance(c, ir.Un) and c.op == "!":
                t = truth(c.operand)
                return None if t is None else not t
            return _in_range(cond, held)

        for _ in range(8):
            mapping = {}
            for c in ir.of_type(e, ir.Cond):
                t = truth(c.cond)
                if t is not None:
                    mapping[c] = c.then if t else c.other
                elif c.then == c.other:         # `colors <= 3 ? 4 : 4`: one value either way
                    mapping[c] = c.then
            if not mapping:
                break
            e = substitute(e, mapping)
        return e

    MAX_BLOCK_CHOICES = 4

    def block_choices(self, text: str) -> tuple[tuple[int, int, int], ...]:
        """`dim3 threads(32, threadsY)` with `threadsY` 4 or 8 as the host's branches go: each block
        the launch may run, where every arm is a number (at most MAX_BLOCK_CHOICES of them)."""
        try:
            v = self.value(self._parse(text))
        except (ExprSyntaxError, MacroError, OutOfBudget):
            return ()
        if isinstance(v, ir.Sym) and v.kind == "unknown":
            return ()
        dims = tuple(self._decided(program_value(d, self.inputs_passed_over))
                     for d in _num3(v[1] if isinstance(v, tuple) else [v]))
        per_dim = []
        for d in dims:
            arms = _arms(d)
            if arms is None:
                return ()
            per_dim.append(arms)
        out = []
        for x in per_dim[0]:
            for y in per_dim[1]:
                for z in per_dim[2]:
                    if x > 0 and y > 0 and z > 0 and x * y * z <= 1024 and (x, y, z) not in out:
                        out.append((x, y, z))
        return tuple(out) if 1 < len(out) <= self.MAX_BLOCK_CHOICES else ()

    def dims(self, text: str, block: bool = False) -> tuple[ir.Expr, ir.Expr, ir.Expr] | None:
        try:
            v = self.value(self._parse(text))
        except (ExprSyntaxError, MacroError):
            return None
        if isinstance(v, ir.Sym) and v.kind == "unknown":
            return None     # `block[d][fp]`: a dim3 the host code hides; not (?, 1, 1)
        dims = _num3(v[1] if isinstance(v, tuple) else [v])
        # a block or grid the command line may change is analysed at the program's own (the kernel's
        # sizes stay open: a value the program passes to the kernel is its parameter)
        dims = tuple(program_value(d, self.inputs_passed_over) for d in dims)
        dims = tuple(self._decided(d) for d in dims)
        if block and any(ir.of_type(d, ir.Cond) for d in dims):
            # `threads = n > 512 ? 512 : n`: a block of one shape or another, as the host's values go;
            # not one shape (the analysis reads a block as one), but where every edge is a number or
            # a clamp of an open size to a number (`dim3 block(1, min(dim, 1024))`), the block at
            # that number: the launch's own shape for every size past it
            capped = [_cap(d) for d in dims]
            if all(c is not None for c in capped) and any(fold(d) is None for d in dims):
                return tuple(ir.Num(c) for c in capped)
            return None
        return dims



def _uncast(e):
    """`e` with the casts around it taken off (`(void**)&p` is `&p`)."""
    while isinstance(e, ir.Cast):
        e = e.expr
    return e


def _cap(e) -> int | None:
    """A block edge's number: itself, or the one number a clamp `n < C ? n : C` (or `min(n, C)`)
    takes where its other arm is an open size."""
    n = fold(e)
    if n is not None:
        return n
    if isinstance(e, ir.Call) and e.fn in ("min", "std::min") and len(e.args) == 2:
        nums = [fold(a) for a in e.args]
        return next((x for x in nums if x is not None), None) if nums.count(None) == 1 else None
    if isinstance(e, ir.Cond):
        arms = [fold(e.then), fold(e.other)]
        if arms.count(None) == 1 and isinstance(e.cond, ir.Bin) and e.cond.op in ("<", "<=", ">", ">="):
            num = next(x for x in arms if x is not None)
            size = e.then if arms[0] is None else e.other
            # `dim < 1024 ? dim : 1024`: the open arm is the size the test compares with the cap
            # (not a chain of other numbers, `w <= 4 ? 4 : w <= 8 ? 8 : 32`)
            for a, b in ((e.cond.left, e.cond.right), (e.cond.right, e.cond.left)):
                if a == size and fold(b) == num:
                    return num
    return None


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _bound(c) -> tuple[ir.Sym, str, int] | None:
    """`(x, op, k)` for a comparison of one value with a number (`c < 64`, `1024 >= c`)."""
    if not (isinstance(c, ir.Bin) and c.op in _FLIP):
        return None
    for a, b, op in ((c.left, c.right, c.op), (c.right, c.left, _FLIP[c.op])):
        k = fold(b)
        a = _uncast(a)
        if isinstance(k, int) and fold(a) is None and isinstance(a, ir.Sym):
            return a, op, k
    return None


def _in_range(cond, held) -> bool | None:
    """Whether `cond`, a comparison of one value with a number (`c > 256`), holds for every value
    the held comparisons of that value with numbers leave (`c < 64`: false), fails for every one,
    or neither (None): the arm of `threads = c > 256 ? 256 : c` the launch's branch takes."""
    got = _bound(cond)
    if got is None:
        return None
    x, op, k = got
    lo, hi = -(1 << 62), 1 << 62
    for c in (p for h in held for p in ir.conjuncts(h)):
        b = _bound(c)
        if b is None or b[0] != x:
            continue
        _, o, v = b
        if o in ("<", "<="):
            hi = min(hi, v - (o == "<"))
        elif o in (">", ">="):
            lo = max(lo, v + (o == ">"))
        elif o == "==":
            lo, hi = max(lo, v), min(hi, v)
    if lo > hi or (lo, hi) == (-(1 << 62), 1 << 62):
        return None
    test = {"<": (hi < k, lo >= k), "<=": (hi <= k, lo > k), ">": (lo > k, hi <= k), ">=": (lo >= k, hi < k),
            "==": (lo == hi == k, k < lo or k > hi), "!=": (k < lo or k > hi, lo == hi == k)}[op]
    return True if test[0] else False if test[1] else None


def _arms(e, depth: int = 0) -> list[int] | None:
    """The numbers a `c ? a : b` tree can be, None where a leaf is no number."""
    n = fold(e)
    if n is not None:
        return [n]
    if isinstance(e, ir.Cond) and depth < 4:
        a, b = _arms(e.then, depth + 1), _arms(e.other, depth + 1)
        return None if a is None or b is None else list(dict.fromkeys(a + b))
    return None


_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "&&", "||"}


def _selected(e: ir.Expr) -> list[ir.Expr]:
    """What a test of a value that conditional assignments left says of their conditions: `mode`
    after `if (c1) mode = 1; if (c2) mode = 2;` is `c2 ? 2 : c1 ? 1 : -1`, and `case 1:` of a
    `switch (mode)` runs only where c1 held and c2 did not. The test where nothing follows (a value
    not a number, an arm equal to it whose other arms may be too)."""
    if not (isinstance(e, ir.Bin) and e.op == "=="):
        return [e]
    sel, want = (e.left, e.right) if isinstance(e.left, ir.Cond) else (e.right, e.left)
    if not isinstance(sel, ir.Cond) or not isinstance(want, ir.Num):
        return [e]
    facts: list[ir.Expr] = []
    cur: ir.Expr = sel
    while isinstance(cur, ir.Cond):
        if not isinstance(cur.then, ir.Num):
            return [e]
        if cur.then.value != want.value:
            facts.append(ir.negate(cur.cond))       # its arm's value is another: the test failed
            cur = cur.other
            continue
        leaves = _leaves(cur.other)
        if leaves is None or want.value in leaves:
            return [e] if not facts else facts + [ir.Bin("==", cur, want)]
        return facts + [cur.cond]                   # no other way to the value: the test held
    if isinstance(cur, ir.Num):
        return facts if cur.value == want.value else [e]
    return facts + [ir.Bin("==", cur, want)]


def _leaves(e: ir.Expr) -> set | None:
    """The numbers a chain of conditional values may be, or None where one is not a number."""
    if isinstance(e, ir.Num):
        return {e.value}
    if isinstance(e, ir.Cond):
        a, b = _leaves(e.then), _leaves(e.other)
        return None if a is None or b is None else a | b
    return None


def _as_condition(v: ir.Expr) -> ir.Expr:
    """A condition in one spelling: `!(n % 4)` is `n % 4 == 0`, `if (n % 4)` is `n % 4 != 0`."""
    if isinstance(v, ir.Un) and v.op == "!" and not (isinstance(v.operand, ir.Bin) and v.operand.op in _COMPARISONS):
        return ir.Bin("==", v.operand, ir.Num(0))
    if not (isinstance(v, ir.Bin) and v.op in _COMPARISONS) and not (isinstance(v, ir.Un) and v.op == "!"):
        return ir.Bin("!=", v, ir.Num(0))
    return v


_ASSIGNS = re.compile(rb"[^=!<>]=[^=]|\+\+|--")     # text that may assign (`=`, `+=`, `++`), not `==`

# checks that abort when their condition is false (assert, glog, Caffe, PyTorch, Kaldi)
_CHECK_ONE = {"assert", "CHECK", "DCHECK", "TORCH_CHECK", "TORCH_INTERNAL_ASSERT", "AT_ASSERT", "AT_ASSERTM",
              "KALDI_ASSERT", "static_assert", "CUDA_KERNEL_ASSERT", "PADDLE_ENFORCE", "ASSERT"}
_CHECK_TWO = {"CHECK_EQ": "==", "CHECK_NE": "!=", "CHECK_LT": "<", "CHECK_LE": "<=", "CHECK_GT": ">",
              "CHECK_GE": ">=", "DCHECK_EQ": "==", "DCHECK_NE": "!=", "DCHECK_LT": "<", "DCHECK_LE": "<=",
              "DCHECK_GT": ">", "DCHECK_GE": ">=", "TORCH_CHECK_EQ": "==", "TORCH_CHECK_LT": "<"}
_NO_RETURN = {"exit", "abort", "_exit", "quick_exit", "std::terminate", "terminate", "KALDI_ERR", "LOG_FATAL"}
_DEVICE_ALLOC = {"cudaMalloc", "cudaMallocManaged", "cudaMallocAsync", "hipMalloc", "hipMallocManaged"}
_CONTAINERS = ("std::vector", "thrust::device_vector", "thrust::host_vector", "thrust::universal_vector",
               "vector")


def _elem_size(tname: str) -> int | None:
    words = [w for w in tname.replace("*", " * ").split() if w not in ("const", "volatile", "struct", "unsigned",
                                                                          "signed")]
    if "*" in words:
        return 8
    name = " ".join(words)
    if name in ("", "int") and "unsigned" in tname:
        return 4
    return ir.type_size(name)


def _walk_types(node, types):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            yield n
        stack.extend(n.children)


def _explicit_instances(kernel: FunctionDef, project, template: dict) -> dict:
    """A kernel no launch of the linted files names, instantiated explicitly in its unit (`template
    __global__ void sort_pairs<1024>(float*);`, a library's kernels launched from elsewhere): the
    values those instantiations give its template value parameters, {parameter: ((values...),
    words)}; a type parameter every instantiation gives one type is bound to it (in `template`)."""
    name = kernel.name.split("::")[-1]
    use = re.compile(rb"\btemplate\s+(?:(?:__global__|__launch_bounds__\s*\([^()]*\)|void|static|inline)\s+)*"
                     + re.escape(name.encode()) + rb"\s*<([^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*)>\s*\(")
    found: list[tuple[list[str], int]] = []
    for f in project.unit_files(kernel.file):
        if f.tree is None:
            continue
        text = f.tree.root_node.text
        for m in use.finditer(text):
            args = split_top_level(m.group(1).decode("utf-8", "replace"))
            if len(args) <= len(kernel.template_params):
                found.append((args, text.count(b"\n", 0, m.start()) + 1))
    out: dict = {}
    for i, tp in enumerate(kernel.template_params):
        got = [(a[i], line) for a, line in found if len(a) > i]
        if not got or len(got) < len(found):
            continue
        where = f"explicit instantiation{'s' if len(got) > 1 else ''} at line{'s' if len(got) > 1 else ''} " + \
            ", ".join(str(line) for _, line in got[:3]) + (", ..." if len(got) > 3 else "")
        if tp.is_type:
            types = {a for a, _ in got}
            if len(types) == 1:
                template[tp.name] = types.pop()
            continue
        vals = [int(a, 0) for a, _ in got if re.fullmatch(r"-?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*", a)
                and not a.rstrip("uUlL").startswith("-0")] if all(
            re.fullmatch(r"-?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*", a) for a, _ in got) else []
        if vals:
            out[tp.name] = (tuple(sorted(set(vals))), where)
    return out


def _host_template_values(kernel: FunctionDef, site: LaunchSite, template: dict, project, resolver=None) -> dict:
    """The values of the kernel's template value parameters that the launch passes on from the
    host function's own (`template <int B_PAD = 8> void launch(...) { k<..., B_PAD><<<...>>>(...); }`):
    the host template's instantiations in the launch's unit (`launch<0>`, `launch<8>`, an
    enumerator `launch<algo_a>`: called or taken as a pointer), those the `if`s around the launch
    let through (`if (ALGO == algo_a || ALGO == algo_b) k<ALGO><<<...>>>`), else its default
    argument. {kernel parameter: ((values...), words)}."""
    host = site.host
    if host is None or not host.template_params:
        return {}
    out: dict = {}
    name = call_name(host.name)
    # the host template's type arguments the analysis is bound to (`launch<__half, 16>` beside
    # `launch<float, 32>`, analysed with T = __half): an instantiation is one tuple, and only those
    # with these types give the values
    pins: dict[int, str] = {}
    for tp, arg in zip(kernel.template_params, site.template_args):
        j = next((i for i, h in enumerate(host.template_params) if h.is_type and h.name == arg.strip()), None)
        bound = template.get(tp.name)
        if tp.is_type and j is not None and isinstance(bound, str) and bound.strip() != arg.strip():
            pins[j] = _plain_type(bound)

    def values_of(k: int) -> tuple[tuple[int, ...], str] | None:
        """The values the host template's instantiations pass as its `k`th parameter."""
        found = _passed_values(host, k, site, project, resolver, pins)
        if found is None:
            return None     # an instantiation passes a name not followed (`launch<D, parallel_blocks>`): open
        if resolver is not None and found:
            found = [v for v in found if _launched_at(site, host.template_params[k].name, v, resolver)]
        values = tuple(sorted(set(found)))
        default = host.template_params[k].default
        if values:
            return values, f"the instantiations of `{name}` pass {', '.join(map(str, values))}"
        if default is not None and (v := _template_number(default, None)) is not None:
            return (v,), f"`{name}`'s default template argument"
        return None

    def value_param(text: str) -> int | None:
        return next((i for i, h in enumerate(host.template_params) if h.name == text.strip() and not h.is_type), None)

    for tp, arg in zip(kernel.template_params, site.template_args):
        if tp.is_type:
            # a class template's instance naming the host's value parameters (`Traits<T, doShift>`):
            # each the instantiations give one value is written in, as nvcc's instance has it
            bound = template.get(tp.name)
            tid = template_id(bound) if isinstance(bound, str) else None
            if tid is None or not any(value_param(a) is not None for a in tid[1]):
                continue
            args = []
            for a in tid[1]:
                k = value_param(a)
                got = values_of(k) if k is not None else None
                args.append(str(got[0][0]) if got is not None and len(got[0]) == 1 else a)
                if got is not None and len(got[0]) > 1:
                    # several: the name stays in the instance, a value of the program each run takes
                    out.setdefault(a.strip(), got)
            template[tp.name] = f"{tid[0]}<{', '.join(args)}>"
            continue
        if isinstance(template.get(tp.name), ir.Num):
            continue
        k = value_param(arg)
        if k is not None and (got := values_of(k)) is not None:
            out[tp.name] = got
    return out


MAX_PASSED_ON = 4   # host templates a template value is followed through (`Dispatch<isBackward>` -> `Run<..., isBackward>`)


def _passed_values(host: FunctionDef, k: int, site: LaunchSite, project, resolver, pins: dict,
                   depth: int = 0, memo: dict | None = None) -> list[int] | None:
    """The numbers the instantiations of host template `host` in the launch's unit pass as its `k`th
    parameter; an instantiation that passes a value parameter of the host template it is written
    in (`run<T, Op, isBackward>` in `template <bool isBackward> void dispatch(...)`) gives the values
    that template's instantiations pass, followed up to MAX_PASSED_ON templates (a recursion's own
    parameter passed on in its place adds none). None where one passes a name not followed."""
    memo = {} if memo is None else memo
    key = (id(host), k, tuple(sorted(pins.items())))
    if key in memo:
        return memo[key]
    memo[key] = None        # a template reached again through its own uses: not followed
    name = call_name(host.name)
    found: list[int] = []
    for f, text in _instance_texts(host, site, project):
        for args, at, _ in _template_uses(text, name):
            if len(args) <= k or any(j < len(args) and _plain_type(args[j]) != t for j, t in pins.items()):
                continue
            v = _template_number(args[k], resolver)
            if v is not None:
                found.append(v)
                continue
            outer = _written_in(f, at) if f is not None else None
            j = next((i for i, h in enumerate(outer.template_params) if not h.is_type and h.name == args[k].strip()),
                     None) if outer is not None else None
            if j is None:
                return None
            if outer is host and j == k:
                continue        # the recursion passes its own value on: no other
            if depth >= MAX_PASSED_ON:
                return None
            got = _passed_values(outer, j, site, project, resolver, {}, depth + 1, memo)
            if got is None:
                return None
            found += got
    memo[key] = found = sorted(set(found))
    return found


def _written_in(f, at: int) -> FunctionDef | None:
    """The host function of file `f` that holds byte `at` of its code text (`_code_text`, which
    starts where the syntax tree's root does)."""
    root = f.tree.root_node
    return enclosing_host(f, root.descendant_for_byte_range(root.start_byte + at, root.start_byte + at))


def _template_uses(text: bytes, name: str):
    """The argument lists of the uses `name<...>` in `text`, each split at its top-level commas
    (`run<T, OperatorAdd<T>, false>`: three), with the bytes where each starts and where it ends
    (after its `>`); a use whose `<` is no template's (a `;`, `{` or `}` before its `>`) is left out."""
    for m in re.finditer(rb"\b" + re.escape(name.encode()) + rb"\s*<", text):
        depth, i, n = 1, m.end(), len(text)
        while i < n and depth:
            c = text[i:i + 1]
            if c in (b";", b"{", b"}"):
                break
            depth += (c == b"<") - (c == b">")
            i += 1
        if depth == 0:
            yield split_top_level(text[m.end():i - 1].decode("utf-8", "replace")), m.start(), i


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\r?\n)*[^\n]*", re.M)


def _instance_texts(host: FunctionDef, site: LaunchSite, project) -> list[tuple]:
    """The code of the launch's unit where the host template's instantiations are looked for: a
    macro's definition is no code until it is used (`#define BN(N) ... run<T, N, 64>(...)`), so
    the definitions are left out and the uses' expansions put in (those in host functions that call
    the template, and the file-scope ones that instantiate templates); comments are no code either."""
    files = [f for f in project.unit_files(site.file) if f.tree is not None]
    texts: list[tuple] = [(f, _code_text(f)) for f in files]
    texts += [(None, node_text(call).encode("utf-8", "surrogateescape")) for _, call, _, _, _ in _macro_calls(host, project)]
    texts += [(None, t.encode("utf-8", "surrogateescape")) for t in instantiating_macros(files)]
    return texts


def _code_text(f) -> bytes:
    """A file's text with its macro definitions and comments blanked, made once a file."""
    got = f.__dict__.get("_code_text")
    if got is None:
        text = _DEFINE.sub(lambda m: b" " * len(m.group(0)), f.tree.root_node.text)
        got = f.__dict__["_code_text"] = _code_only(text.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape")
    return got


def _template_number(text: str, resolver: HostResolver | None) -> int | None:
    """A template value argument as a number: written as one, or (with `resolver`) folded on the host
    side (an enumerator, a constant); None otherwise."""
    text = text.strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    got = _fold_host(resolver, text) if resolver is not None else None
    return got.value if isinstance(got, ir.Num) and isinstance(got.value, int) else None


def _launched_at(site: LaunchSite, name: str, value: int, resolver: HostResolver) -> bool:
    """Whether the `if`s around the launch in its host function let it run where the host's template
    parameter `name` is `value` (a test that does not fold to a number lets it run)."""
    node = site.node
    word = re.compile(rf"\b{re.escape(name)}\b")
    while node is not None and node.parent is not None and node.type != "function_definition":
        up = node.parent
        if up.type == "if_statement":
            cond = up.child_by_field_name("condition")
            inner = condition_of(cond) if cond is not None else None
            text = node_text(inner) if inner is not None else ""
            if text and word.search(text):
                got = _fold_host(resolver, word.sub(str(value), text))
                if isinstance(got, ir.Num):
                    taken = up.child_by_field_name("consequence")
                    inside = taken is not None and taken.start_byte <= node.start_byte < taken.end_byte
                    if bool(got.value) != inside:
                        return False
        node = up
    return True


def _fold_host(resolver: HostResolver, text: str):
    """A template value argument resolved on the host side (`sgemm<BM, BN>` with `const int BM = 64;`)."""
    from ..index.evaluate import Evaluator, Unknown
    try:
        v = resolver.value(resolver._parse(text))
    except (ExprSyntaxError, MacroError):
        return text
    if isinstance(v, ir.Expr):
        try:
            return ir.Num(int(Evaluator({}).value(v)))
        except (Unknown, TypeError, ValueError):
            return text
    return text


def _constant_arguments(kernel: FunctionDef, site: LaunchSite, resolver: HostResolver) -> dict[str, int]:
    """Integer kernel parameters the launch passes a constant for: `k<<<g, b>>>(out, in, 1024)`,
    `k<<<g, b>>>(out, N)` with `#define N 4096` or `const int N = 4096;` on the host."""
    out = {}
    for p, a in zip(kernel.params, site.args):
        if p.pointers and a.strip() in ("NULL", "nullptr", "0", "(void*)0"):
            # `if (probs != NULL)` in the kernel: this launch passes none (the model's NULL test)
            out[f"{p.name} == NULL"], out[f"{p.name} != NULL"] = 1, 0
            continue
        if p.pointers or not a.strip():
            continue
        v = _fold_host(resolver, a)
        if isinstance(v, ir.Num):
            out[p.name] = v.value
    return out


def launch_from_site(site: LaunchSite, kernel: FunctionDef, r: HostResolver | None = None) -> LaunchConfig:
    r = r or HostResolver(site, kernel)
    grid = r.dims(site.config[0]) if site.config else None
    block = r.dims(site.config[1], block=True) if len(site.config) > 1 else None
    choices = r.block_choices(site.config[1]) if block is None and len(site.config) > 1 else ()
    smem = None
    if len(site.config) > 2:
        try:
            smem = r.value(r._parse(site.config[2]))
            smem = smem if isinstance(smem, ir.Expr) else None
        except (ExprSyntaxError, MacroError):
            smem = None
    rel = site.file.path
    return LaunchConfig(grid, block, smem, f"{rel}:{site.line}", block_choices=choices)


def _site_rank(kernel: FunctionDef, site: LaunchSite) -> int:
    """Launches in the kernel's own file first, then in files that include it, then the rest of its units."""
    key = kernel.file.key if kernel.file else ""
    if site.file.key == key:
        return 0
    return 1 if key in site.file.includes else 2


def _kernel_sites(kernel: FunctionDef, sites: list[LaunchSite], project=None) -> tuple[list[LaunchSite], list[str]]:
    """The launches of a kernel, best first: by name, through a function pointer set to it, through
    a host function's parameter its callers pass it to, or else through a pointer whose value is not
    traced and could be this kernel."""
    own: list[LaunchSite] = []
    untraced: list[tuple[LaunchSite, str]] = []
    for s in sites:
        p = pointer_launch(s)
        if p is None:
            if (s.kernel == kernel.name and _arity_of_template(kernel, s)) or _specialization_site(kernel, s):
                own.append(s)
        elif not p.targets:
            passed = _passed_kernel(s, p.var, kernel, project)
            if passed:
                own.extend(passed)
            else:
                untraced.append((s, p.var))
        else:
            for t in p.targets:
                if t.kernel == kernel.name:
                    own.append(replace(s, kernel=t.kernel, template_args=list(t.template_args) or s.template_args))
    assumptions: list[str] = []
    if project is not None and any(tp.is_type for tp in kernel.template_params):
        kept = [s for s in own if not _other_overload(kernel, s, project)]
        if own and not kept:
            return [], [f"{_UNREACHED}: the launch at {own[0].file.path}:{own[0].line} calls another kernel "
                        f"template of the name, the one its arguments' types match"]
        own = kept
    if project is not None and (kernel.template_params or _specialized(kernel)):
        kept = [s for s in own if _instances_launched(kernel, s, project)]
        if own and not kept:
            return [], [f"{_UNREACHED}: the launch at {own[0].file.path}:{own[0].line} runs it for none of "
                        f"the types the program instantiates it with"]
        own = kept
    kfile = kernel.file.path if kernel.file else None
    if not own:
        for s, var in untraced:
            if s.file.path == kfile and len(s.args) == len(kernel.params):
                own.append(s)
                assumptions.append(f"launch through the function pointer `{var}` at line {s.line}: "
                                   f"its configuration assumed for this kernel")
    return sorted(own, key=lambda s: _site_rank(kernel, s)), assumptions[:1]


def _other_overload(kernel: FunctionDef, site: LaunchSite, project) -> bool:
    """The launch calls another kernel template of the name: at every instance its host template is
    made for, the arguments' pointer types rule this one out, by deducing one of its type parameters
    as two types (`pad(T* dst, const T* src)` called with a `float*` and a `const unsigned char*`) or
    by pointing to another type than a parameter it writes (`const unsigned char* src` given a
    `const float*`), and another of the name's overloads is there. Only the arithmetic types are
    compared: a typedef (`uint8_t`) may be either."""
    if site.host is None or not any(f is not kernel and f.is_kernel and f.name == kernel.name
                                    for u in project.unit_files(site.file) for f in u.functions):
        return False
    want = {tp.name for tp in kernel.template_params[len(site.template_args):] if tp.is_type}
    given = {tp.name for tp in kernel.template_params[:len(site.template_args)]}
    host = _caller_names(site.host)
    deduced: dict[str, set[str]] = {}
    fixed: list[tuple[str, str]] = []
    for kp, text in zip(kernel.params, site.args):
        hp = host.get(text.strip())
        if hp is None or not kp.pointers or hp.pointers != kp.pointers:
            continue
        if kp.type_name in want:
            deduced.setdefault(kp.type_name, set()).add(_plain_type(hp.type_name))
        elif kp.type_name not in given:
            fixed.append((_plain_type(kp.type_name), _plain_type(hp.type_name)))
    twice = [types for types in deduced.values() if len(types) > 1]
    if not twice and not fixed:
        return False
    own = {tp.name for tp in site.host.template_params if tp.is_type}
    instances: list[dict[str, str]] | None = [{}]
    if any(t in own for types in twice for t in types) or any(t in own for _, t in fixed):
        instances = _host_type_instances(site.host, site, project)
    if not instances:
        return False        # the host's types are not known: the call may match at one of them

    def differ(types) -> bool:
        named = {_ARITHMETIC.get(t) for t in types}
        return None not in named and len(named) > 1

    return all(any(differ({_plain_type(b.get(t, t)) for t in types}) for types in twice) or
               any(differ({a, _plain_type(b.get(t, t))}) for a, t in fixed) for b in instances)


# the arithmetic types by what they are (`unsigned` is `unsigned int`)
_ARITHMETIC = {
    **{t: t for t in ("float", "double", "char", "signed char", "unsigned char", "short", "unsigned short", "int",
                      "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "bool",
                      "__half", "__nv_bfloat16", "__half2")},
    "unsigned": "unsigned int", "signed": "int", "signed int": "int", "short int": "short",
    "unsigned short int": "unsigned short", "long int": "long", "unsigned long int": "unsigned long",
    "long long int": "long long", "unsigned long long int": "unsigned long long", "signed short": "short",
}


def _never_instantiated(kernel: FunctionDef, project) -> str | None:
    """Why a kernel template is compiled by nothing in the program, or None. nvcc compiles a
    template's body only for the instances something names (a launch, an explicit instantiation,
    a pointer taken to `k<T>`); a template no file of its translation units names apart from its
    own definition is never compiled there (a leftover copy of a kernel beside the one the program
    launches). Said only where those units launch other kernels, so that they are a program, not a
    library's header whose users launch the template from files not linted."""
    if not kernel.template_params or kernel.file is None or kernel.node is None:
        return None
    home = kernel.file
    if not project.units_of.get(home.key):
        return None         # a header no linted unit includes: its users are elsewhere
    files = project.unit_files(home)
    keys = {f.key for f in files}
    if not any(s.file.key in keys for s in project.sites):
        return None
    name = kernel.name.split("<", 1)[0].split("::")[-1].strip()
    word = re.compile(r"\b" + re.escape(name) + r"\b")
    first, last = kernel.node.start_point[0], kernel.node.end_point[0]
    for f in files:
        text = _code_only(f.text)
        for m in word.finditer(text):
            if f is home and first <= text.count("\n", 0, m.start()) <= last:
                continue
            return None
        # a name a macro pastes together (`name##_kernel<T><<<g, b>>>`) may be this one
        for m in _PASTED.finditer(text):
            piece = m.group(1) or m.group(2)
            if name.endswith(piece) or name.startswith(piece):
                return None
    # a local header not found may name it where it comes after the definition (nothing else
    # declares the name: a header read before the definition cannot name the template)
    for root in project.units(home):
        unit = project.files.get(root)
        order = list(unit.reached) if unit is not None else [root]
        later = set(order[order.index(home.key) + 1:]) if home.key in order else set()
        for f in files:
            if f.key in later or f is home:
                if any(_missing_include(p) and (f is not home or p.line > first) for p in f.problems):
                    return None
    return (f"nothing in the files compiled with it names `{name}` apart from its definition (no launch, "
            f"explicit instantiation or pointer to an instance), so no instance of the template is compiled")


def _missing_include(problem) -> bool:
    return problem.message.startswith("`#include") and "not found" in problem.message


_PASTED = re.compile(r"##\s*(\w+)|(\w+)(?=\s*##)")
_COMMENT = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)


@functools.lru_cache(maxsize=64)
def _code_only(text: str) -> str:
    """The text with its comments blanked (a name a comment mentions is no use of it); line breaks,
    and the bytes each character takes in UTF-8, kept (a place in it is one in the file)."""
    def blank(m):
        t = m.group(0)
        return t if t[0] in "\"'" else re.sub(
            r"[^\n]", lambda c: " " * len(c.group(0).encode("utf-8", "surrogateescape")), t)
    return _COMMENT.sub(blank, text)


def _arity_of_template(kernel: FunctionDef, site: LaunchSite) -> bool:
    """Whether the launch's template argument list can be this kernel's: of two kernel templates of
    one name (`k<CTA, WARP>` beside `k<NPR, CTA, WARP>`), the count decides which it launches; a
    list longer than the parameters, or shorter with a parameter left that has no default and is no
    type (the call's arguments deduce those), is another overload's."""
    n = len(site.template_args)
    if not n or not kernel.template_params:
        return True
    if n > len(kernel.template_params):
        return False
    return all(tp.default is not None or tp.is_type for tp in kernel.template_params[n:])


_UNREACHED = "not launched"
_TEMPLATE_TYPE = re.compile(r"([\w:]+)\s*<(.*)>", re.S)
UNREACHED = "unreached"         # the origin of a kernel the program's launches never run


def _instances_launched(kernel: FunctionDef, site: LaunchSite, project) -> bool:
    """Whether the launch runs this kernel's body for some instance its host template is made for.
    `if (std::is_same<T, __half>::value) k<<<g, b>>>(out, in)` in `template <typename T> void
    run(T* out, ...)` instantiated for float and __half launches `k<__half>` alone, and where the
    kernel has an explicit specialization for __half the template's own body never runs: the
    generic kernel is not launched there, the specialization is. True where the instances are not
    known (a host function of no type parameters, instantiations not found)."""
    host = site.host
    if host is None or not any(tp.is_type for tp in host.template_params):
        return True
    base = kernel.name.split("<", 1)[0].strip()
    mine = _specialized(kernel)
    primary = kernel if mine is None else next(
        (f for u in project.unit_files(site.file) for f in u.functions
         if f.is_kernel and f.name.split("<", 1)[0].strip() == base and f.template_params), None)
    if primary is None:
        return True
    written = _kernel_types_written(primary, site)
    if not written:
        return True
    instances = _host_type_instances(host, site, project)
    if instances is None:
        # the instances are not all known (the host template is instantiated from another
        # template, or under an `#ifdef` the run does not take); a test the launch is under may
        # still say which type runs it, whatever they are
        forced, excluded = _forced_types(site)
        own = {tp.name for tp in host.template_params}
        spec = _specialization_types(primary, kernel) if mine is not None else None
        if mine is not None and spec is None:
            return True         # the types it is for are not known
        if mine is not None and any(all(t in x for t in written if t in own) and
                                    [_plain_type(x.get(t, t)) for t in written] == spec for x in excluded):
            return False        # the `else` of the test that picks this specialization's types
        if not all(t in forced for t in written if t in own):
            return True
        instances = [forced]
    # the explicit specializations of the template in the unit, by the types they are for
    specials = [t for u in project.unit_files(site.file) for f in u.functions
                if f.is_kernel and f.name.split("<", 1)[0].strip() == base
                for t in [_specialization_types(primary, f)] if t is not None]
    spec = _specialization_types(primary, kernel) if mine is not None else None
    if mine is not None and spec is None:
        return True
    for binding in instances:
        if not _guards_let_through(site, binding):
            continue
        types = [_plain_type(binding.get(t, t)) for t in written]
        if mine is not None:
            if types == spec:
                return True
        elif types not in specials:
            return True
    return False


def _forced_types(site: LaunchSite) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The types the `if`s around the launch pin its host template's parameters to (a launch in the
    branch of `if (len % 8 == 0 && std::is_same<T, __half>::value)` runs with T = __half alone),
    and the bindings it never runs with (in the `else` of `if (is_same<T1, A>::value &&
    is_same<T2, B>::value)`: not T1 = A, T2 = B)."""
    out: dict[str, str] = {}
    excluded: list[dict[str, str]] = []
    if site.host is None:
        return out, excluded
    own = {tp.name for tp in site.host.template_params if tp.is_type}
    node = site.node
    while node is not None and node.parent is not None and node.type != "function_definition":
        up = node.parent
        if up.type == "if_statement":
            taken = up.child_by_field_name("consequence")
            cond = up.child_by_field_name("condition")
            inner = condition_of(cond) if cond is not None else None
            if taken is not None and inner is not None:
                pins, whole = _type_pins(node_text(inner), own)
                if taken.start_byte <= node.start_byte < taken.end_byte:
                    for k, v in pins.items():
                        out.setdefault(k, v)
                elif whole and pins:
                    excluded.append(pins)
        node = up
    return out, excluded


def _type_pins(text: str, own: set[str]) -> tuple[dict[str, str], bool]:
    """The `is_same<T, X>` conjuncts of a test (`&&` at the top: each holds where it does) as
    {T: X}, and whether the test is made of them alone."""
    from .statements import _TRAIT
    pins: dict[str, str] = {}
    whole = True
    for part in re.split(r"&&", text):
        m = _TRAIT.fullmatch(part.strip().strip("()").strip())
        args = [a.strip() for a in split_top_level(m.group(2) or m.group(3) or "")] \
            if m is not None and m.group(1) == "is_same" else []
        if len(args) == 2 and args[0] in own and args[1] not in own:
            pins.setdefault(args[0], _plain_type(args[1]))
        elif len(args) == 2 and args[1] in own and args[0] not in own:
            pins.setdefault(args[1], _plain_type(args[0]))
        else:
            whole = False
    return pins, whole


def _specialized(fn: FunctionDef) -> bool | None:
    """`template <> __global__ void k(__half* out, ...)`: an explicit specialization (True), else None."""
    up = fn.node.parent if fn.node is not None else None
    if up is None or up.type != "template_declaration" or fn.template_params:
        return None
    params = up.child_by_field_name("parameters")
    return True if params is not None and not params.named_children else None


def specialization_args(fn: FunctionDef, files) -> list[str] | None:
    """The template arguments of an explicit specialization whose name does not write them
    (`template <> __global__ void axpy8(__half* y, ...)` of `template <typename T> __global__ void
    axpy8(T* y, ...)`: `__half`), from the primary template of its name among `files`; None for
    any other kernel."""
    if "<" in fn.name or _specialized(fn) is None:
        return None
    primary = next((f for u in files for f in u.functions
                    if f.is_kernel and f.name == fn.name and f.template_params), None)
    return _specialization_types(primary, fn) if primary is not None else None


def _specialization_types(primary: FunctionDef, fn: FunctionDef) -> list[str] | None:
    """The types an explicit specialization is for, in the order of the template's type parameters,
    from its name (`k<__half>`) or matched off its parameters (`__half* out` for `T* out`)."""
    if _specialized(fn) is None:
        return None
    tps = [tp.name for tp in primary.template_params]
    if "<" in fn.name and fn.name.endswith(">"):
        args = [_plain_type(a) for a in split_top_level(fn.name[fn.name.index("<") + 1:-1])]
        return args if len(args) == len(tps) else None
    got: dict[str, str] = {}
    for pp, sp in zip(primary.params, fn.params):
        if pp.pointers != sp.pointers:
            continue
        if pp.type_name in tps:
            got.setdefault(pp.type_name, _plain_type(sp.type_name))
            continue
        # `Param<T1, T2> param` against `Param<__nv_fp8_e4m3, __nv_bfloat16> param`
        a, b = _TEMPLATE_TYPE.fullmatch(pp.type_name.strip()), _TEMPLATE_TYPE.fullmatch(sp.type_name.strip())
        if a is not None and b is not None and a.group(1) == b.group(1):
            for x, y in zip(split_top_level(a.group(2)), split_top_level(b.group(2))):
                if x.strip() in tps:
                    got.setdefault(x.strip(), _plain_type(y))
    return [got[t] for t in tps] if all(t in got for t in tps) and len(primary.params) == len(fn.params) else None


def _dispatched_types(kernel: FunctionDef, site: LaunchSite, template: dict, project=None) -> list[str]:
    """Type template arguments a launch writes with a name its host function gives a type: an alias
    declared before it (`using scalar_t = float;`) of a type the unit lays out, or the type of the
    AT_DISPATCH_* lambda it stands in (`k<scalar_t><<<...>>>`), bound to the type of the family the
    analysis reads (model/dispatch.py), the family named in the assumption returned. An alias of a
    type the unit cannot size (`at::acc_type<scalar_t, true>`) leaves the name open, tried at the
    widths a program may bind."""
    around = dispatch.at_site(site)
    aliases = _host_aliases(site)
    out = []
    for tp in kernel.template_params:
        if not tp.is_type:
            continue
        name = template.get(tp.name, "").strip()
        if name in aliases:
            sized = project is not None and site.file is not None and \
                project.types_for(site.file).size(aliases[name]) is not None
            if sized:
                template[tp.name] = aliases[name]
        elif (d := around.get(name)) is not None and d.read_as is not None:
            template[tp.name] = d.read_as
            if d.words() not in out:
                out.append(d.words())
    return out


_ALIAS = re.compile(r"\busing\s+(\w+)\s*=\s*([^;{}=]+?)\s*;|\btypedef\s+([^;{}]+?)\s+(\w+)\s*;")


def _host_aliases(site: LaunchSite) -> dict[str, str]:
    """The type aliases the launch's host function declares before it: {name: type}."""
    host = site.host
    if host is None or host.body is None or site.node is None:
        return {}
    text = host.body.text[:site.node.start_byte - host.body.start_byte]
    if b"using" not in text and b"typedef" not in text:
        return {}
    return {(m.group(1) or m.group(4)): (m.group(2) or m.group(3)).strip()
            for m in _ALIAS.finditer(_code_only(text.decode("utf-8", "replace")))}


def _host_instance_types(kernel: FunctionDef, site: LaunchSite, template: dict, project) -> list[str]:
    """Type template arguments the launch passes on from its host template's own (`crop<T><<<...>>>`
    in `template <typename T> void launchCrop(T* in, ...)`): the types of the host template's
    instantiations in the unit whose `if`s let the launch run (`launchCrop<uint8_t>(...)`), the first
    of them bound (the others named in the assumption returned)."""
    host = site.host
    if project is None or host is None or not any(tp.is_type for tp in host.template_params):
        return []
    own = {tp.name for tp in host.template_params if tp.is_type}
    open_ = [tp.name for tp in kernel.template_params if tp.is_type and template.get(tp.name, "").strip() in own]
    if not open_:
        return []
    instances = [b for b in (_host_type_instances(host, site, project) or []) if _guards_let_through(site, b)]
    if not instances:
        return []
    first = instances[0]
    for name in open_:
        template[name] = first.get(template[name].strip(), template[name])
    if len(instances) == 1:
        return []
    hname = call_name(host.name)
    shown = ", ".join(f"<{', '.join(b.values())}>" for b in instances[:4])
    return [f"`{hname}` is instantiated as {shown}{' ...' if len(instances) > 4 else ''}; analysed with the "
            f"first: {', '.join(f'{n} = {template[n]}' for n in open_)}"]


def _kernel_types_written(kernel: FunctionDef, site: LaunchSite) -> list[str] | None:
    """The kernel's template arguments as the launch writes them, leaves them to deduction (a type,
    in the host function's names: `T`) or to their defaults (a value), None where one is not known."""
    out = []
    host = _caller_names(site.host) if site.host is not None else {}
    for k, tp in enumerate(kernel.template_params):
        if k < len(site.template_args):
            out.append(site.template_args[k].strip())
            continue
        if not tp.is_type:         # a value: its default (`int VecLen = 1`), as a specialization writes it
            if tp.default is None:
                return None
            out.append(tp.default.strip())
            continue
        got = None
        for kp, text in zip(kernel.params, site.args):
            hp = host.get(text.strip())
            if kp.type_name == tp.name and hp is not None and hp.pointers == kp.pointers:
                got = hp.type_name
                break
        if got is None:
            return None
        out.append(got)
    return out


_LOCAL_POINTER = re.compile(r"(?:^|[;{}\n])\s*(?:const\s+)?([A-Za-z_][\w:]*)\s*(?:const\s*)?(\*+)\s*(?:const\s+)?"
                            r"([A-Za-z_]\w*)\s*=")


def _host_locals(host: FunctionDef | None) -> dict:
    """The pointer locals a host function declares (`T* pout = out.data<T>();`): name -> a Param-like
    record of their element type and pointer count, for deducing a kernel's types from them."""
    if host is None or host.body is None:
        return {}
    got = host.__dict__.get("_pointer_locals")
    if got is None:
        got = {}
        for m in _LOCAL_POINTER.finditer(node_text(host.body)):
            got.setdefault(m.group(3), Param(m.group(3), m.group(1), len(m.group(2))))
        host.__dict__["_pointer_locals"] = got       # read once a host function
    return got


def _host_type_instances(host: FunctionDef, site: LaunchSite, project) -> list[dict[str, str]] | None:
    """The host template's instantiations in the launch's unit (`run<float>(...)`, `template void
    run<__half>(...)`), each as {type parameter: type}; None where none is found or one passes a
    name of another template."""
    cache = project.__dict__.setdefault("_host_type_instances", {})
    key = (id(host), id(site.file))
    if key not in cache:
        cache[key] = (_type_instances(host, site, project), host)     # the host kept: its id stays its own
    return cache[key][0]


_TYPE_WORDS = frozenset({"int", "char", "short", "long", "unsigned", "signed", "float", "double", "bool"})


def deduced_instantiations(host: FunctionDef, name: str, text: bytes) -> list[tuple[int, list[str]]]:
    """The explicit instantiations of host template `name` that leave its arguments to deduction
    (`template void padRgb(float* dst, const unsigned char* src, int w);`), each as the template
    arguments its parameter types give (a parameter written `T*` and instantiated `float*`: float),
    with where it starts; one whose types do not give every parameter of the template is left out."""
    if b"template" not in text:
        return []
    out = []
    pattern = rb"\btemplate\s+(?!<)[^;{}()]*?\b" + re.escape(name.encode()) + rb"\s*\(([^;{}]*)\)\s*;"
    for m in re.finditer(pattern, text):
        written = split_top_level(m.group(1).decode("utf-8", "replace"))
        if len(written) != len(host.params):
            continue
        binding: dict[str, str] = {}
        for hp, w in zip(host.params, written):
            words = re.sub(r"[*&]", " ", w.split("=", 1)[0]).split()
            words = [x for x in words if x not in ("const", "volatile", "__restrict__", "__restrict")]
            if len(words) > 1 and words[-1] not in _TYPE_WORDS:
                words = words[:-1]      # the parameter's name
            if any(tp.is_type and tp.name == hp.type_name for tp in host.template_params) and \
                    w.count("*") == hp.pointers and words:
                binding.setdefault(hp.type_name, " ".join(words))
        args = [binding.get(tp.name) for tp in host.template_params]
        if all(a is not None for a in args):
            out.append((m.start(), [a for a in args if a is not None]))
    return out


def instantiating_macros(files) -> list[str]:
    """The expansions of the statement macros at file scope that instantiate templates
    (`INSTANTIATE_LAYER_GPU_FUNCS(ReLULayer);` writing `template void ReLULayer<float>::Forward_gpu(...)`)."""
    out = []
    for f in files:
        got = f.__dict__.get("_instantiating")
        if got is None:
            got = []
            for i, line in enumerate(f.text.splitlines(), 1):
                m = _MACRO_LINE.match(line)
                if m is None:
                    continue
                table = f.macros.at(i)
                if table.get(m.group(1)) is None:
                    continue
                try:
                    text = table.expand(line.strip())
                except MacroError:      # a budget spent, a bad invocation
                    continue
                if "template" in text:
                    got.append(text)
            f.__dict__["_instantiating"] = got      # read once a file
        out += got
    return out


_MACRO_LINE = re.compile(r"([A-Z_][A-Z0-9_]*)\s*\(.*\)\s*;?\s*$")


def _type_instances(host: FunctionDef, site: LaunchSite, project) -> list[dict[str, str]] | None:
    name = call_name(host.name)
    params = [tp for tp in host.template_params]
    out: list[dict[str, str]] = []
    cls = member_class(host.node)
    if cls and cls != "?" and all(tp.is_type for tp in params):
        # a member of a class template (`template <typename Dtype> void ReLULayer<Dtype>::Forward_gpu`),
        # instantiated with its class: `template void ReLULayer<float>::Forward_gpu(...)`, written
        # in the unit or by a macro there (`INSTANTIATE_LAYER_GPU_FUNCS(ReLULayer);`)
        member = re.compile(r"\b" + re.escape(cls) + r"\s*<([^<>;{}()]*)>\s*::\s*" + re.escape(name) + r"\s*\(")
        files = project.unit_files(site.file)
        for text in [f.text for f in files] + instantiating_macros(files):
            for m in member.finditer(text):
                args = split_top_level(m.group(1))
                binding = {tp.name: a.strip() for tp, a in zip(params, args)}
                if len(args) == len(params) and not set(binding.values()) & {tp.name for tp in params} \
                        and binding not in out:
                    out.append(binding)
        if out:
            return out
    for f in project.unit_files(site.file):
        if f.tree is None:
            continue
        text = f.tree.root_node.text
        dispatches = dispatch.calls(text)
        # `run<float>(...)`, `run<Matrix<float>, 4>(...)`: a call of an instance, nested arguments too
        calls = [(at, args) for args, at, end in _template_uses(text, name) if text[end:end + 64].lstrip()[:1] == b"("]
        if dispatches:          # `run(x.data_ptr<scalar_t>(), n)` in a dispatch's lambda: its types deduced
            calls += _deduced_calls(host, name, f, text, dispatches)
        calls += deduced_instantiations(host, name, text)
        for start, args in calls:
            if len(args) != len(params):
                continue
            binding = {tp.name: a.strip() for tp, a in zip(params, args) if tp.is_type}
            if dispatches:      # `run<scalar_t>(...)` in a dispatch's lambda: the type it reads
                names = _read_as(dispatches, start)
                binding = {k: names.get(v, v) for k, v in binding.items()}
            if any(v in {tp.name for tp in params} for v in binding.values()):
                return None         # passed on from another template: not all instances are here
            if binding not in out:
                out.append(binding)
    return out or None


def _deduced_calls(host: FunctionDef, name: str, f, text: bytes, dispatches) -> list[tuple[int, list[str]]]:
    """The calls of host template `name` inside dispatch lambdas that leave its type arguments to
    deduction, each as (offset, the template arguments deduced): every type parameter deduced from
    the arguments (`x.data_ptr<scalar_t>()`), value parameters left out (none may be open)."""
    if any(not tp.is_type for tp in host.template_params):
        return []
    want = {tp.name for tp in host.template_params}
    out = []
    call = re.compile(rb"\b" + re.escape(name.encode()) + rb"\s*\(")
    for d in dispatches:
        for m in call.finditer(text, d.start, d.end):
            start = m.start()
            if f is host.file and host.node is not None and host.node.start_byte <= start < host.node.end_byte:
                continue
            close = _closing(text, m.end())
            if close is None:
                continue
            args = split_top_level(text[m.end():close].decode("utf-8", "replace"))
            got = _deduced(host.params, args, want, {}, _read_as(dispatches, start))
            if len(got) == len(want):
                out.append((start, [got[tp.name] for tp in host.template_params]))
    return out


def _read_as(dispatches, offset: int) -> dict[str, str]:
    """What the type names of the dispatch lambdas around `offset` are read as: {"scalar_t": "float"}."""
    return {n: d.read_as for n, d in dispatch.names_at(dispatches, offset).items() if d.read_as}


def _closing(text: bytes, i: int) -> int | None:
    """The offset of the `)` that closes the parenthesis opened just before offset `i`."""
    end = balanced(text, i - 1, "(", ")")
    return None if end is None else end - 1


def _guards_let_through(site: LaunchSite, binding: dict[str, str]) -> bool:
    """Whether the `if`s around the launch let it run for this instance: type traits of its types
    (`std::is_same<T, __half>::value`) folded to 1 or 0 (a test that does not fold lets it run)."""
    from .statements import _TRAIT
    node = site.node
    while node is not None and node.parent is not None and node.type != "function_definition":
        up = node.parent
        if up.type == "if_statement":
            cond = up.child_by_field_name("condition")
            inner = condition_of(cond) if cond is not None else None
            text = node_text(inner) if inner is not None else ""
            got = _trait_value(text, binding, _TRAIT) if text else None
            if got is not None:
                taken = up.child_by_field_name("consequence")
                inside = taken is not None and taken.start_byte <= node.start_byte < taken.end_byte
                if got != inside:
                    return False
        node = up
    return True


def _trait_value(text: str, binding: dict[str, str], trait) -> bool | None:
    """A condition of `&&`, `||` and `!` over type traits of `binding`'s types and other tests: True
    or False where the traits decide it whatever the other tests give, else None."""
    from ..index.parse import parse_expr
    unknown = False

    def fold(m) -> str:
        nonlocal unknown
        args = [_plain_type(binding.get(a.strip(), a.strip()))
                for a in split_top_level(m.group(2) or m.group(3) or "")]
        if m.group(1) == "is_same" and len(args) == 2 and not any(a in binding for a in args):
            return " 1 " if args[0] == args[1] else " 0 "
        unknown = True
        return m.group(0)
    folded, count = trait.subn(fold, text)
    if not count:
        return None
    try:
        return _three_valued(parse_expr(folded))
    except Exception:       # noqa: BLE001 - a test cudalint cannot read decides nothing
        return None


def _three_valued(e: ir.Expr) -> bool | None:
    """`e` as the traits folded into it decide it: True, False, or None where other tests do."""
    if isinstance(e, ir.Num):
        return bool(e.value)
    if isinstance(e, ir.Un) and e.op == "!":
        v = _three_valued(e.operand)
        return None if v is None else not v
    if isinstance(e, ir.Bin) and e.op in ("&&", "||"):
        a, b = _three_valued(e.left), _three_valued(e.right)
        if e.op == "&&":
            return False if False in (a, b) else True if a is True and b is True else None
        return True if True in (a, b) else False if a is False and b is False else None
    return None


def _plain_type(t: str) -> str:
    words = [w for w in t.replace("&", " ").split() if w not in ("const", "volatile", "typename")]
    name = " ".join(words)
    return {"half": "__half", "nv_bfloat16": "__nv_bfloat16", "half2": "__half2"}.get(name, name)


def _specialization_site(kernel: FunctionDef, site: LaunchSite) -> bool:
    """A launch of the template an explicit specialization (`template <> __global__ void
    k<float>(...)`) specializes, with arguments that are these or the launching template's own
    parameters (`k<T><<<...>>>` in a host template instantiated for float)."""
    name = kernel.name
    if "<" not in name or not name.endswith(">") or site.kernel != name.split("<", 1)[0].strip():
        return False
    mine = [a.strip() for a in split_top_level(name[name.index("<") + 1:-1])]
    theirs = [a.strip() for a in site.template_args]
    if len(mine) != len(theirs):
        return False
    host_params = {tp.name for tp in site.host.template_params} if site.host is not None else set()
    return all(a == b or b in host_params for a, b in zip(mine, theirs))


def _passed_kernel(site: LaunchSite, var: str, kernel: FunctionDef, project) -> list[LaunchSite]:
    """`template <typename F, typename... Args> void launch(F f, dim3 g, dim3 b, Args... args)
    { f<<<g, b>>>(args...); }` called as `launch(scale, grid, block, x, n)`: the launch is this
    kernel's when a call passes it as `f`; the kernel's arguments are the call's (a pack's elements
    are named `args__0`, `args__1`, ... in the calls' values). A call passing an instance
    (`launch(scale<3>, ...)`) gives its template arguments: one launch for each instance passed."""
    host = site.host
    if project is None or host is None:
        return []
    names = [q.name for q in host.params]
    if var not in names:
        return []
    index = names.index(var)
    # a call passing a kernel of this name that is another one (defined in a unit of its own) is not its
    passing = [(caller, call, args[index]) for caller, call, args in _calls(host, project)
               if len(args) > index and _names(args[index], kernel.name)
               and (caller.file is None or project.names_kernel(caller.file, kernel))]
    if not passing:
        return []
    args = site.args
    pack = variadic_pack(host)
    if pack is not None and len(args) == 1 and args[0].replace(" ", "") == pack + "...":
        args = [f"{pack}__{i}" for i in range(len(kernel.params))]
    instances: list[list[str]] = []
    for caller, call, text in passing:
        got = kernel_operand(text)
        targs = _at_call(got[1], kernel, caller, call, site, project) if got is not None and got[1] \
            else list(site.template_args)
        if targs not in instances:
            instances.append(targs)
    return [replace(site, kernel=kernel.name, args=list(args), through=index, template_args=targs) for targs in instances]


def _at_call(targs: list[str], kernel: FunctionDef, caller: FunctionDef, call, site: LaunchSite, project) -> list[str]:
    """The template value arguments of an instance a call passes (`linear_kernel(eval<n_dims>, ...)`),
    read where the call is: `const uint32_t n_dims = 3;` before it is 3; the rest as written."""
    out = list(targs)
    todo = [i for i, (tp, t) in enumerate(zip(kernel.template_params, targs))
            if not tp.is_type and not t.strip().isdigit()]
    if not todo or caller.file is None or caller.body is None:
        return out
    at = replace(site, host=caller, node=call, file=caller.file, line=call.start_point[0] + 1, args=[], config=[],
                 through=None)
    r = HostResolver(at, None, project.constants_for(caller.file), project)
    for i in todo:
        v = _fold_host(r, out[i])
        if isinstance(v, ir.Num):
            out[i] = str(v.value)
    return out


def _names(text: str, kernel: str) -> bool:
    """An argument that is the kernel: `scale`, `&scale`, `scale<float>`, `ns::scale`."""
    t = text.strip().lstrip("&").strip()
    t = t.split("<", 1)[0].strip()
    return t.split("::")[-1] == kernel


def _call_targs(call) -> tuple[str, ...]:
    """The template arguments a call names its function with (`launch<16, 32>(...)`)."""
    f = call.child_by_field_name("function")
    targs = f.child_by_field_name("arguments") if f is not None and f.type == "template_function" else None
    return tuple(node_text(a).strip() for a in targs.named_children if a.type != "comment") \
        if targs is not None else ()


def _calls(fn: FunctionDef, project) -> list[tuple[FunctionDef, object, list[str]]]:
    out = []
    for caller, call in project.callers(fn):
        args_node = call.child_by_field_name("arguments")
        out.append((caller, call, [node_text(a) for a in args_node.named_children if a.type != "comment"]
                    if args_node is not None else []))
    return out + [(caller, call, args) for caller, call, args, _, _ in _macro_calls(fn, project)]


_MACRO_USE = re.compile(rb"\b([A-Z_][A-Z0-9_]*)\s*\(")


def _macro_uses(project) -> list[tuple]:
    """Each use of a macro with arguments after it in the body of a host function of the run,
    indexed once: (file, function, the macros there, the names the macro's body writes, the use's
    text, its start and end in the body)."""
    got = project.__dict__.get("_macro_uses")
    if got is None:
        got, words = [], {}
        for src in project.files.values():
            if src.tree is None or not hasattr(src.macros, "at"):
                continue
            for g in src.functions:
                if g.is_kernel or g.is_device or g.body is None:
                    continue
                body, table = g.body.text, None
                for m in _MACRO_USE.finditer(body):
                    table = table or src.macros.at(g.line)
                    mac = table.get(m.group(1).decode())
                    close = _closing(body, m.end()) if mac is not None else None
                    if close is None:
                        continue
                    if id(mac) not in words:    # the names the macro's body writes, read once a macro
                        words[id(mac)] = (frozenset(re.findall(r"\w+", getattr(mac, "body", "") or "")), mac)
                    got.append((src, g, table, words[id(mac)][0], body[m.start():close + 1].decode("utf-8", "replace"),
                                m.start(), m.end()))
        project.__dict__["_macro_uses"] = got
    return got


def _macro_calls(fn: FunctionDef, project) -> list[tuple]:
    """The calls of host function `fn` that a statement macro writes in a host function's body
    (`#define BN(N) if (n % N == 0) { run<T, N, 64>(...); }` used as `BN(16) else BN(8)`): (caller,
    the call in the macro's expansion, its arguments, the macro's use in the caller, the expansion's
    statements). What the expansion tests before the call (`n % 16 == 0`) is the caller's check there."""
    cache = project.__dict__.setdefault("_macro_calls", {})
    key = (fn.file.key if fn.file is not None else "", fn.line, fn.name)
    if key in cache:
        return cache[key][0]
    out: list[tuple] = []
    name = call_name(fn.name)
    for src, g, table, written, use, start, end in _macro_uses(project):
        if g is fn or len(out) >= MAX_CALLS or name not in written:
            continue
        if not project.call_reaches(src, fn):
            continue
        try:
            text = table.expand(use)
        except MacroError:
            continue
        statements = expansion_statements(text)
        anchor = g.body.descendant_for_byte_range(g.body.start_byte + start, g.body.start_byte + end)
        if statements is None or anchor is None:
            continue
        stack = [statements]
        while stack:
            n = stack.pop()
            if n.type == "call_expression" and _callee_name(n) == name:
                args_node = n.child_by_field_name("arguments")
                args = [node_text(a) for a in args_node.named_children if a.type != "comment"] \
                    if args_node is not None else []
                out.append((g, n, args, anchor, (statements, n)))
            stack.extend(reversed(n.named_children))
    cache[key] = (out, fn)      # (fn kept: the key's file and line stay its own)
    return out


def _callee_name(call) -> str | None:
    """The plain name a call names its function with (`run` of `run<T, 16>(...)`, of `ns::run(...)`)."""
    f = call.child_by_field_name("function")
    if f is not None and f.type == "template_function":
        f = f.child_by_field_name("name")
    return node_text(f).split("::")[-1].strip() if f is not None else None


MAX_CALLS = 16          # calls of a wrapper (and of its callers) read for its parameters' values
MAX_WRAPPER_DEPTH = 4   # wrappers called by wrappers


@dataclass
class CallContext:
    """One call of a launch's host function: its parameters' values there, and the allocations of
    the pointers it passes (bytes, in the caller's values)."""
    values: dict
    allocations: dict
    where: str              # "path:line" of the call
    wrapper: str            # the host function called
    checks: tuple = ()      # the caller's checks before the call (in the caller's values)
    targs: tuple = ()       # the call's template arguments as written (`launch<16>(...)`: ("16",))


def call_contexts(fn: FunctionDef, project, budget: Budget, depth: int = 0,
                  passing: tuple[int, str] | None = None) -> list[CallContext]:
    """The calls of a host function in the run's files, each with its arguments' values, callers'
    callers followed up to MAX_WRAPPER_DEPTH (a caller nobody calls leaves its own parameters open).
    `passing`: only the calls that pass this kernel as this parameter."""
    if project is None or fn is None or not fn.params or depth >= MAX_WRAPPER_DEPTH:
        return []
    cache = project.__dict__.setdefault("_call_contexts", {})
    key = (fn.file.key if fn.file is not None else "", fn.line, fn.name, depth, passing)
    if key not in cache:
        cache[key] = _call_contexts(fn, project, budget, depth, passing)
    return cache[key]


def _call_contexts(fn: FunctionDef, project, budget: Budget, depth: int, passing) -> list[CallContext]:
    """Each call read once, in the caller's own names (a walk of the caller every call in it shares);
    then, for each call of the caller, that call's values put in the caller's parameters."""
    out: list[CallContext] = []
    pack = variadic_pack(fn)
    cls = member_class(fn.node)
    written = {id(call): (anchor, expansion) for _, call, _, anchor, expansion in _macro_calls(fn, project)}
    for caller, call, args in _calls(fn, project):
        if not _arity_fits(fn, len(args)):
            continue
        anchor, expansion = written.get(id(call), (call, None))
        if cls is not None and expansion is None and not _own_call(call, caller, cls):
            continue
        if passing is not None and not (len(args) > passing[0] and _names(args[passing[0]], passing[1])):
            continue
        if budget.steps <= 0:
            return out
        line = anchor.start_point[0] + 1
        # a call a macro writes: the caller read up to the macro's use, then the expansion up to the call
        site = LaunchSite(fn.name, [], [], args, caller, line, caller.file, anchor, expansion=expansion)
        r = HostResolver(site, None, project.constants_for(caller.file), project, budget=budget, depth=depth + 1)
        values, allocs, bases = {}, {}, {}
        named = list(zip([q.name for q in fn.params], args, [q.pointers for q in fn.params]))
        if pack is not None:      # `args...`: each element by its place
            named += [(f"{pack}__{i}", a, True) for i, a in enumerate(args[len(fn.params):])]
        for name, a, pointer in named:
            try:
                values[name] = r.value(r._parse(a))
            except (ExprSyntaxError, MacroError, OutOfBudget):
                values[name] = unknown(name)
            if pointer:
                bases[name] = base = r.pointer_base(a)
                if base is not None and base in r.allocations:
                    allocs[name] = r.allocations[base]
        for p in fn.params[len(args):]:
            default = p.node.child_by_field_name("default_value") if p.node is not None else None
            try:
                values[p.name] = r.value(r._parse(node_text(default))) if default is not None else unknown(p.name)
            except (ExprSyntaxError, MacroError, OutOfBudget):
                values[p.name] = unknown(p.name)
        checks = tuple(c for c, _ in r.checks)
        outer = call_contexts(caller, project, budget, depth + 1) if caller.params else []
        for ctx in outer or [None]:
            if ctx is None:
                out.append(CallContext(values, allocs, f"{caller.file.path}:{line}", fn.name, checks,
                                       _call_targs(call)))
            else:
                sub = {ir.Sym(k, "param"): v for k, v in ctx.values.items() if isinstance(v, ir.Expr)}
                # a `dim3` the caller's caller gives, passed on whole (`cudaF_copy(Gr, Bl, ...)` in
                # `inline void cuda_copy(dim3 Gr, dim3 Bl, ...)`)
                whole = {ir.Sym(k, "param"): v for k, v in ctx.values.items() if isinstance(v, tuple)}
                put = (lambda v: whole[v] if isinstance(v, ir.Sym) and v in whole else _put(v, sub))
                more = {k: _put(ctx.allocations[b], {}) for k, b in bases.items()
                        if k not in allocs and b in ctx.allocations}
                out.append(CallContext({k: put(v) for k, v in values.items()},
                                       {**{k: put(v) for k, v in allocs.items()}, **more},
                                       f"{caller.file.path}:{line}, from {ctx.where}", fn.name,
                                       tuple(put(c) for c in checks) + tuple(ctx.checks), _call_targs(call)))
            if len(out) >= MAX_CALLS:
                return out
    return out


def _own_call(call, caller: FunctionDef, cls: str) -> bool:
    """A member function's call that is its own: `f(...)` or `this->f(...)` in a member of the same
    class. `m.f(...)` names an object whose class a lookup by name cannot tell (another class's `f`)."""
    fn = call.child_by_field_name("function")
    if fn is None or member_class(caller.node) != cls:
        return False
    if fn.type == "field_expression":
        arg = fn.child_by_field_name("argument")
        return arg is not None and node_text(arg) == "this"
    return fn.type in ("identifier", "qualified_identifier", "template_function")


def _put(v, sub: dict):
    """A value (an expression, or a dim3's edges) with a call's values in the caller's parameters."""
    if not sub:
        return v
    if isinstance(v, tuple):
        return (v[0], [substitute(x, sub) if isinstance(x, ir.Expr) else x for x in v[1]])
    return substitute(v, sub) if isinstance(v, ir.Expr) else v


def _computed(dims, kernel: FunctionDef) -> bool:
    """Every edge a number or an expression of the kernel's own parameters: nothing open."""
    if dims is None:
        return False
    names = {p.name for p in kernel.params}
    return all(isinstance(x, ir.Sym) and x.kind == "param" and x.name in names
               for d in dims for x in ir.symbols(d))


def _over_params(e, kernel: FunctionDef) -> bool:
    """The expression reads the kernel's parameters alone: a parameter, or a member of a structure
    the kernel takes by value (`p.kernel_w` of `const Params p`, the member the host set)."""
    names = {p.name for p in kernel.params}
    records = {p.name for p in kernel.params if not p.pointers}
    return isinstance(e, ir.Expr) and all(
        x.kind == "param" and (x.name in names or ("." in x.name and x.name.split(".", 1)[0] in records))
        for x in ir.symbols(e))


def _where(path: str) -> str:
    import os
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith("..") else path


def _constant_words(r: HostScope) -> str:
    """`const int NUM_THREADS = 512` in include/x.h: the constants a value was read from."""
    out = []
    for name, c in r.constants_used.items():
        line = c.file.lines[c.line - 1].strip().rstrip(";") if 0 < c.line <= len(c.file.lines) else f"{name} = {c.text}"
        out.append(f"`{line}` in {_where(c.file.path)}")
    return "; ".join(out[:2])


class _SiteValues:
    """A launch site read in each of its call contexts: its configuration and its arguments' values."""

    def __init__(self, site: LaunchSite, kernel: FunctionDef, project, budget: Budget):
        constants = project.constants_for(site.file) if project is not None else None
        self.site = site
        self.base = HostResolver(site, kernel, constants, project, budget=budget)
        passing = (site.through, kernel.name) if site.through is not None else None
        self.contexts = call_contexts(site.host, project, budget, passing=passing) \
            if passing is not None or _needs_callers(site, kernel, self.base) else []
        # no call of the launching function takes the launch's branch (`if (axis) ... else k<<<...>>>`
        # where every call passes true): the launch never runs
        self.unreached = False
        if self.contexts and self.base.checks:
            # a call whose values make the launch's branch false never reaches it (`if (block_size == 16)
            # k<16><<<...>>>` for a call passing 32)
            every = len(self.contexts) < MAX_CALLS and budget.steps > 0     # not cut short
            self.contexts = [ctx for ctx in self.contexts if _reaches(ctx, self.base)]
            self.unreached = every and not self.contexts
        # each call's values, read off the launch as the host function reads it without a kernel's
        # names (a walk every kernel launched there shares), the call's values put in its parameters
        self._reading = (constants, project, budget)
        self.raw = self.plain if self.contexts else self.base
        self.readers: list[tuple[HostResolver, CallContext | None]] = \
            [(self.raw, ctx) for ctx in self.contexts] or [(self.base, None)]

    def config(self, kernel: FunctionDef) -> tuple[LaunchConfig, CallContext | None, list, int]:
        """The configuration of the launch: as its own host function gives it, else as the calls of that
        function give it (the first call that gives it, and the others that give another one); and how
        many calls leave the block open. A call whose block is computed and whose grid is an expression
        of host values the program does not give (`dim3 grid(n_blocks(NumCols(), 16))` in a C++
        caller) is taken where no call gives both."""
        cfg = launch_from_site(self.site, kernel, self.base)
        if _computed(cfg.grid, kernel) and _computed(cfg.block, kernel) or not self.contexts:
            return cfg, None, [], 0
        got, shaped, open_blocks = [], [], 0
        for ctx in self.contexts:
            c = LaunchConfig(self._dims(ctx, 0, kernel), self._dims(ctx, 1, kernel), cfg.smem, cfg.origin)
            if not _computed(c.block, kernel):
                open_blocks += 1
            elif _computed(c.grid, kernel):
                got.append((c, ctx))
            elif c.grid is not None:
                shaped.append((c, ctx))
        got = got or shaped
        if not got:
            return cfg, None, [], 0
        return got[0][0], got[0][1], got, open_blocks

    def _dims(self, ctx: CallContext, index: int, kernel: FunctionDef):
        """A grid or block as one call of the host function gives it: the launch's own reading, with
        the call's values in the parameters the launch does not pass straight to the kernel. A `dim3`
        parameter the call gives no `dim3` for is open (not a size with y and z of 1)."""
        if len(self.site.config) <= index:
            return None
        text = self.site.config[index].strip()
        v = ctx.values.get(text)
        if isinstance(v, tuple):            # `dim3 grid` given by the call
            dims = tuple(_caller_terms(d, ctx, self.base, kernel) for d in _num3(v[1]))
        elif text in ctx.values and _dim3_param(self.site.host, text):
            return None
        else:
            dims = self.base.dims(text, block=index == 1)
            if dims is None:
                return None
            sub = {ir.Sym(k, "param"): _caller_terms(x, ctx, self.base, kernel) for k, x in ctx.values.items()
                   if isinstance(x, ir.Expr) and k not in self.base.param_names}
            dims = tuple(substitute(d, sub) for d in dims)
        if index == 1 and any(ir.of_type(d, ir.Cond) for d in dims):
            return None
        return dims

    def factors(self, index: int) -> list[int]:
        """The constant factor each reading of the launch gives the kernel's argument `index` where it
        is a product of values the program leaves open and numbers (`n = m * c` in `case 32:`, where
        c is 32: a multiple of 32); 1 where it is not one."""
        raw = self._host_argument(index)
        if raw is None:
            return [1]
        return [_constant_factor(v) if isinstance(v, ir.Expr) and fold(v) is None else 1
                for v in self._per_reader(raw, facts=True)]

    def _host_argument(self, index: int) -> ir.Expr | None:
        """The kernel's argument `index` as the host computes it, in the host's names (a host local
        passed under its own name is read as its value: `const int n = m * c;`); None where not read."""
        text = self.site.args[index].strip()
        got = self.raw.env.get(text) if text.isidentifier() else None
        if isinstance(got, ir.Expr):
            return got
        try:
            raw = self.raw.value(self.raw._parse(text))
        except (ExprSyntaxError, MacroError, OutOfBudget):
            return None
        return raw if isinstance(raw, ir.Expr) else None

    def block_multiple(self, index: int) -> set | None:
        """Where every reading of the launch passes the kernel's argument `index` as a multiple of the
        block's x edge for every value the launch's branch allows (`n = m * c` under a block of `c > 256
        ? 256 : c` where the branch has `c < 64`; the block 256 where it has `(c & 1023) == 0`): the
        edges' numbers (None for an edge of open values); else None."""
        if len(self.site.config) < 2:
            return None
        edges = self._block_edges()
        raw = self._host_argument(index) if edges is not None else None
        if raw is None:
            return None
        sizes = self._per_reader(raw, facts=True)
        out = set()
        for p, b, (r, ctx) in zip(sizes, edges, self.readers):
            if not (isinstance(p, ir.Expr) and isinstance(b, ir.Expr)) or fold(p) is not None:
                return None     # (a number the launch passes is its value: no check to say)
            # the launch's own checks read as the size and the edge are (in the call's values), and
            # the caller's checks before the call
            own = [self._in_reader(c, r.facts, ctx) for c, _ in r.checks if isinstance(c, ir.Expr)]
            if not _divides(b, p, own + list(ctx.checks if ctx is not None else ())):
                return None
            out.add(fold(b))
        return out

    def _block_edges(self) -> list | None:
        """The block's x edge in each reading (worked out once for the launch's arguments)."""
        if "_edges" not in self.__dict__:
            try:
                dims = self.raw.dims(self.site.config[1], block=True)
            except (ExprSyntaxError, MacroError, OutOfBudget):
                dims = None
            self._edges = self._per_reader(dims[0], facts=True) if dims is not None else None
        return self._edges

    @staticmethod
    def _in_reader(v: ir.Expr, facts: dict, ctx: CallContext | None) -> ir.Expr:
        """A value of the launch read in one reading: the sizes its branch fixes and the call's values
        put in."""
        if facts:
            v = substitute(v, {ir.Sym(k, "param"): ir.Num(x) for k, x in facts.items() if isinstance(x, int)})
        if ctx is not None:
            v = substitute(v, {ir.Sym(k, "param"): x for k, x in ctx.values.items() if isinstance(x, ir.Expr)})
        return v

    def _per_reader(self, raw, facts: bool = False) -> list:
        """`raw`, a value read off the launch, in each reading: the reading's call values put in its
        names, and with `facts`, the sizes the launch's branch fixes (`case 32:`)."""
        out = []
        for r, ctx in self.readers:
            v = raw
            if isinstance(v, ir.Expr):
                v = self._in_reader(v, r.facts if facts else {}, ctx)
            out.append(v)
        return out

    def argument(self, index: int, kernel: FunctionDef) -> list:
        """The value each reading of the launch gives the kernel's argument `index`: numbers, or None (open)."""
        try:
            raw = self.raw.value(self.raw._parse(self.site.args[index]))
        except (ExprSyntaxError, MacroError, OutOfBudget):
            return [None]
        return [fold(v) for v in self._per_reader(raw)]

    @functools.cached_property
    def plain(self) -> HostResolver:
        """The launch read as its host function reads it, without the kernel's names (`N` for the `N`
        it passes is the host's value): made where asked."""
        constants, project, budget = self._reading
        return HostResolver(self.site, None, constants, project, budget=budget)

    def default(self, index: int) -> list:
        """The value each reading gives argument `index` where the command line may set it and the
        program gives its own otherwise (`argc > 2 ? atoi(argv[2]) : 8`, `N = 8; if (argc > 2) N =
        ...`): that number, or None."""
        try:
            raw = self.plain.value(self.plain._parse(self.site.args[index]))
        except (ExprSyntaxError, MacroError, OutOfBudget):
            return [None]
        out = []
        for v in (self._per_reader(raw) if self.contexts else [raw]):
            taken: list[str] = []
            d = fold(program_value(v, taken)) if isinstance(v, ir.Expr) else None
            out.append(d if taken else None)
        return out


def _reaches(ctx: CallContext, r: HostResolver) -> bool:
    """Whether the launch can run at this call: no condition that holds at the launch (its branch,
    the host's checks before it) is false with the call's values."""
    # (a name a check reads as the kernel's parameter another host name is passed as, `grid_size` as
    # `count`, is not the host function's own `count`)
    kernel_side = set(r.param_names.values())
    sub = {ir.Sym(k, "param"): v for k, v in ctx.values.items()
           if isinstance(v, ir.Expr) and k not in r.param_names and k not in kernel_side}
    if not sub:
        return True
    return all(fold(substitute(c, sub)) != 0 for c, _ in r.checks if isinstance(c, ir.Expr))


def _dim3_param(host: FunctionDef | None, name: str) -> bool:
    return host is not None and any(p.name == name and p.type_name.split("::")[-1] == "dim3" and not p.pointers
                                    for p in host.params)


def _caller_terms(e, ctx: CallContext, r: HostResolver, kernel: FunctionDef):
    """A call's grid or block edge in the kernel's terms: a value the call passes on to a kernel
    parameter (through the wrapper's parameter of that name) is that parameter; any other name of
    the caller is the caller's open value, even where a kernel parameter has the same name."""
    if not isinstance(e, ir.Expr) or not ir.symbols(e):
        return e
    names = {p.name for p in kernel.params}
    passed = {}
    for host_name, kernel_name in r.param_names.items():
        v = ctx.values.get(host_name)
        if isinstance(v, ir.Expr) and ir.symbols(v) and not is_open(v):
            passed[v] = ir.Sym(f"\0{kernel_name}", "param")
    e = substitute(e, passed) if passed else e
    clash = {x: unknown(f"{ctx.wrapper}: {x.name}") for x in ir.symbols(e)
             if x.kind == "param" and x.name in names}
    e = substitute(e, clash) if clash else e
    back = {x: ir.Sym(x.name[1:], "param") for x in ir.symbols(e) if x.kind == "param" and x.name.startswith("\0")}
    return substitute(e, back) if back else e


def _needs_callers(site: LaunchSite, kernel: FunctionDef, r: HostResolver) -> bool:
    """The launch reads its host function's parameters (a wrapper's `grid`, `incx`, pointers)."""
    host = site.host
    if host is None or not host.params:
        return False
    names = {p.name for p in host.params}
    words = set()
    for text in [*site.config[:2], *site.args]:
        words |= set(re.findall(r"[A-Za-z_]\w*", text))
    return bool(words & names)


def _values(kernel: FunctionDef, readings: list[_SiteValues]) -> tuple[dict, dict, list, dict]:
    """The values every launch (and every call of a wrapper) gives each integer parameter, those of
    each launch or call together, and the program's defaults of those the command line may set."""
    values, provenance, defaults = {}, {}, {}
    calls: list[dict] = [{} for s in readings for _ in s.readers]
    for i, p in enumerate(kernel.params):
        if p.pointers or p.reference or not readings or any(len(s.site.args) <= i for s in readings) or \
                p.type_name.split()[-1] not in INT_WORDS and p.type_name.split()[-1] != "bool":
            continue
        got: list = []
        for s in readings:
            got += s.argument(i, kernel)
        if got and any(v is None for v in got):
            # a value the command line may set: each launch's default where every one has one (tried
            # beside the values its role gives: a warning holds at the program's own too)
            dflt = [d for s in readings for d in s.default(i)]
            if all(d is not None or v is not None for d, v in zip(dflt, got)):
                defaults[p.name] = tuple(sorted({d if v is None else v for d, v in zip(dflt, got)}))
        if not got or any(v is None for v in got):
            continue
        vals = tuple(sorted(set(got)))
        values[p.name] = vals
        for call, v in zip(calls, got):        # (one value per reader, as `argument` gives them)
            call[p.name] = v
        shown = ", ".join(map(str, vals))
        through = sorted({ctx.wrapper for s in readings for _, ctx in s.readers if ctx is not None})
        names = ", ".join(f"`{w}`" for w in through)
        const = _read_words(readings[0].base, readings[0].site.args[i]) \
            if len(vals) == 1 and not through else ""
        if const:
            provenance[p.name] = const
        elif len(vals) == 1:
            provenance[p.name] = f"every {'call of ' + names if through else 'launch'} passes {shown}"
        else:
            provenance[p.name] = f"the {'calls of ' + names if through else 'launches'} pass {shown}"
    return values, provenance, calls, defaults


def _read_words(r: HostResolver, text: str) -> str:
    """Where a value comes from, when a constant or a helper of the program gives it: the constants
    and helpers its evaluation reads (`const int NUM_THREADS = 512` in include/x.h)."""
    used, helpers = r.constants_used, r.helpers_used
    r.constants_used, r.helpers_used = {}, []
    try:
        r.value(r._parse(text))
        parts = [_constant_words(r)] if r.constants_used else []
        parts += [f"`{h.name}` ({_where(h.file.path)}:{h.line}) evaluated" for h in r.helpers_used[:1]]
        return "; ".join(p for p in parts if p)
    except (ExprSyntaxError, MacroError, OutOfBudget):
        return ""
    finally:
        r.constants_used, r.helpers_used = {**used, **r.constants_used}, helpers + r.helpers_used


def _constant_factor(e: ir.Expr) -> int:
    """The number a product is a multiple of by its constant factors (`m * 32`, `b * h * w * 4 <<
    1`): 1 where it is no product."""
    return math.prod(f.value for f in _factors(e)
                     if isinstance(f, ir.Num) and isinstance(f.value, int) and f.value > 0)


def _factors(e: ir.Expr) -> list[ir.Expr]:
    """The factors of a product (`b * h * w * c`, `m << 2` as `m` and 4), casts taken off."""
    e = _uncast(e)
    if isinstance(e, ir.Bin) and e.op == "*":
        return _factors(e.left) + _factors(e.right)
    if isinstance(e, ir.Bin) and e.op == "<<" and isinstance(e.right, ir.Num) and \
            isinstance(e.right.value, int) and 0 <= e.right.value < 31:
        return _factors(e.left) + [ir.Num(1 << e.right.value)]
    return [e]


_TRIED = 1 << 14        # the values of one host name a divisibility is checked over


def _divides(edge: ir.Expr, size: ir.Expr, checks: list) -> bool:
    """Whether the block edge divides the size for every value of the host's names the checks allow
    where the block is a real one (1 to 1024 threads): decided on the factors of the size that the
    edge's one open name (or, for a numeric edge, one name the checks bound) fixes, every other
    factor taken as 1 (`m * c` over an edge `c`; `m * c` over 256 where `(c & 1023) == 0`)."""
    factors = _factors(size)
    checks = [p for c in checks if isinstance(c, ir.Expr) for p in ir.conjuncts(c)]
    names = {x for x in ir.symbols(edge)}
    if any(x.kind != "param" for x in names) or len(names) > 1:
        return False
    if not names:
        # a numeric edge: any one name the checks bound may make its factors a multiple of it
        checked = {x for c in checks if isinstance(c, ir.Expr) for x in ir.symbols(c)}
        candidates = {x for f in factors for x in ir.symbols(f) if x in checked and x.kind == "param"}
        if any(_divides_over(edge, factors, checks, {x}) for x in candidates):
            return True
    return _divides_over(edge, factors, checks, names)


def _divides_over(edge: ir.Expr, factors: list[ir.Expr], checks: list, names: set) -> bool:
    """_divides on the factors that `names` (none, or one) fix."""
    from ..index.evaluate import Evaluator, Unknown
    fixed = [f for f in factors if set(ir.symbols(f)) <= names]
    if not fixed:
        return False
    if not names:
        whole, one = fold(functools.reduce(lambda a, b: ir.Bin("*", a, b), fixed)), fold(edge)
        return isinstance(whole, int) and isinstance(one, int) and 0 < one <= 1024 and whole % one == 0
    (x,) = names
    values = np.arange(1, _TRIED, dtype=np.int64)
    ev = Evaluator({x.name: values}, exact=False)
    try:
        with np.errstate(all="ignore"):
            edges = np.broadcast_to(np.asarray(ev.value(edge), dtype=np.int64), values.shape)
            made = np.ones_like(values)
            for f in fixed:
                made = made * np.broadcast_to(np.asarray(ev.value(f), dtype=np.int64), values.shape)
            ok = (edges >= 1) & (edges <= 1024)
            for c in checks:
                if isinstance(c, ir.Expr) and set(ir.symbols(c)) <= names:
                    ok &= np.broadcast_to(np.asarray(ev.value(c)) != 0, ok.shape)
    except (Unknown, ValueError, TypeError, ZeroDivisionError, OverflowError, ArithmeticError):
        return False
    return bool(ok.any()) and bool((made[ok] % edges[ok] == 0).all())


def _block_multiples(kernel: FunctionDef, readings: list[_SiteValues]) -> set:
    """`n % blockDim.x == 0` for an integer parameter every launch passes as a multiple of its
    block's x edge (`n = m * c` under a block of `c`): the grid `(n + c - 1) / c` has no partial last
    block, and every thread of a grid-stride loop over n makes the same trips."""
    out = set()
    for i, p in enumerate(kernel.params):
        if p.pointers or p.reference or not p.name or p.type_name.split()[-1] not in INT_WORDS or \
                any(len(s.site.args) <= i for s in readings):
            continue
        edges: set = set()
        for s in readings:
            got = s.block_multiple(i)
            if got is None:
                break
            edges |= got
        else:
            if not readings:
                continue
            # one number at every launch: a multiple of it, said as the host's own checks are
            k = next(iter(edges)) if len(edges) == 1 else None
            div = ir.Num(k) if isinstance(k, int) else ir.Sym("blockDim.x", "blockdim")
            out.add(ir.Bin("==", ir.Bin("%", ir.Sym(p.name, "param"), div), ir.Num(0)))
    return out


def _multiples(kernel: FunctionDef, readings: list[_SiteValues]) -> set:
    """`n % k == 0` for an integer parameter every launch passes as a product with the factor k (`n
    = batch * h * w * group * gc` in the `case 32:` of `switch (gc)`): the host establishes it."""
    out = set()
    for i, p in enumerate(kernel.params):
        if p.pointers or p.reference or not p.name or p.type_name.split()[-1] not in INT_WORDS or \
                any(len(s.site.args) <= i for s in readings):
            continue
        ks = [k for s in readings for k in s.factors(i)]
        if not ks:
            continue
        k = functools.reduce(math.gcd, ks)
        if k > 1:
            out.add(ir.Bin("==", ir.Bin("%", ir.Sym(p.name, "param"), ir.Num(k)), ir.Num(0)))
    return out


def _checks(kernel: FunctionDef, readings: list[_SiteValues]) -> list[ir.Expr]:
    """Conditions over the kernel's parameters that the host establishes before every launch."""
    common = None
    multiples = _multiples(kernel, readings) | _block_multiples(kernel, readings) if readings else set()
    for s in readings:
        own = _own_checks(s.base, kernel) | multiples
        for r, ctx in s.readers:
            # a wrapper's caller checks its own names: those it passes on are the kernel's parameters
            mapped = [_in_kernel_terms(c, ctx, s.base) for c in ctx.checks] if ctx is not None else []
            here = own | {c for c in mapped if _over_params(c, kernel) and ir.symbols(c)}
            common = here if common is None else _either(common, here)
    return sorted(common or (), key=str)


def _own_checks(r: HostResolver, kernel: FunctionDef) -> set:
    """The launching function's own checks over the kernel's parameters: a name the launch passes
    straight to a kernel parameter is that parameter; a check on any other host name (one passed as
    `arrayLength / 1024`, or not passed) says nothing of the kernel's values."""
    return {c for c, names in r.checks if not _unpassed(c, names, r) and _over_params(c, kernel) and ir.symbols(c)}


def _unpassed(c, names, r: HostResolver) -> bool:
    """A check that reads a host name the launch does not pass straight to a kernel parameter under
    the same name's value (`arrayLength` checked, `arrayLength / 1024` passed as the kernel's
    `arrayLength`): what it says is of the host's value, not the parameter's."""
    return any(x.kind == "param" and x.name in names and x.name not in r.param_names
               for x in ir.symbols(c)) if isinstance(c, ir.Expr) else True


def _extents(kernel: FunctionDef, readings: list[_SiteValues]) -> dict[str, ir.Expr]:
    """Pointer parameters' bytes, where every launch passes an allocation whose size is known."""
    out = {}
    for i, p in enumerate(kernel.params):
        if not p.pointers:
            continue
        sizes = []
        for s in readings:
            if len(s.site.args) <= i:
                sizes.append(None)
                continue
            base = s.base.pointer_base(s.site.args[i])
            local = s.base.allocations.get(base) if base is not None else None
            for _, ctx in s.readers:
                got = local
                if got is None and ctx is not None and base in ctx.allocations:
                    got = _in_kernel_terms(ctx.allocations[base], ctx, s.base)
                sizes.append(got)
        if sizes and all(_over_params(x, kernel) for x in sizes) and len(set(sizes)) == 1:
            n = fold(sizes[0])
            out[p.name] = ir.Num(n) if n is not None else sizes[0]
    return out


def _derived(kernel: FunctionDef, readings: list[_SiteValues]) -> dict[str, ir.Expr]:
    """Integer parameters every launch passes as one expression of the kernel's other parameters
    (`int count = n / 3;` passed as `count`, with `n` passed as `n`), as the launch's own host
    function reads them (whatever its callers pass, the relation holds), and only over names the
    host passes straight to the kernel parameter of the same name (so `n` is the kernel's `n`)."""
    out: dict[str, ir.Expr] = {}
    if not readings:
        return out
    for i, p in enumerate(kernel.params):
        if p.pointers or p.reference or not p.name:
            continue
        got = set()
        for s in readings:
            r = s.base
            if len(s.site.args) <= i:
                got.add(None)
                break
            # the argument's own expression (`bsize * bsize` passed as `bsize_sq`), not the parameter
            # it is read as everywhere else in the launch
            saved, r.arg_exprs = r.arg_exprs, {e: n for e, n in r.arg_exprs.items() if n != p.name}
            try:
                v = r.value(r._parse(s.site.args[i]))
            except (ExprSyntaxError, MacroError, OutOfBudget):
                got.add(None)
                break
            finally:
                r.arg_exprs = saved
            ok = isinstance(v, ir.Expr) and fold(v) is None and not is_open(v) and bool(ir.symbols(v)) and \
                all(x.kind == "param" and x.name != p.name and r.param_names.get(x.name) == x.name
                    for x in ir.symbols(v)) and not ir.of_type(v, ir.Call)
            got.add(v if ok else None)
        if len(got) == 1 and None not in got:
            out[p.name] = got.pop()
    return out


def _in_kernel_terms(e, ctx: CallContext, r: HostResolver):
    """A caller's allocation size in the kernel's parameters: the caller's value for a wrapper
    parameter that the wrapper passes straight to the kernel is that kernel parameter."""
    mapping = {}
    for host_name, kernel_name in r.param_names.items():
        v = ctx.values.get(host_name)
        if isinstance(v, ir.Expr) and ir.symbols(v) and not is_open(v):    # a number stays a number
            mapping[v] = ir.Sym(kernel_name, "param")
    return substitute(e, mapping) if mapping and isinstance(e, ir.Expr) else e


def _incomplete(kernel: FunctionDef, project) -> list[str]:
    """A kernel whose unit misses a local header: its macros and helpers are unknown (said once)."""
    files = project.unit_files(kernel.file) if project is not None and kernel.file is not None else \
        [kernel.file] if kernel.file is not None else []
    for f in files:
        for p in f.problems:
            if _missing_include(p):
                name = p.message.split("`")[1]
                return [f"the file is incomplete: `{name}` is not found, so its macros and helpers are unknown "
                        f"(give -I DIR or a compile_commands.json)"]
    return []


def kernel_launches(kernel: FunctionDef, sites: list[LaunchSite], project=None) -> list[LaunchSite]:
    """The launches of a kernel, best first (the first is the one `resolve_launch` reads)."""
    return _kernel_sites(kernel, sites, project)[0]


def _deduced_types(kernel: FunctionDef, site: LaunchSite, project=None) -> dict[str, str]:
    """Type template arguments the launch leaves to deduction (`count<128><<<g, b>>>(keys, hits)`
    with `template <unsigned B, typename T> __global__ void count(const int*, T* hits)`): where a
    kernel parameter is written `T` or `T*` and the launch passes a parameter of the host function
    of as many pointers, T is that parameter's type."""
    want = {tp.name for tp in kernel.template_params[len(site.template_args):] if tp.is_type}
    if not want or site.host is None:
        return {}
    names = {n: d.read_as for n, d in dispatch.at_site(site).items() if d.read_as}
    owned = {tp.name for tp in site.host.template_params if tp.is_type}

    def own(t: str) -> bool:
        # a type parameter of the host's own whose instantiations the unit gives (read at those): one
        # whose instances are not found leaves the kernel's parameter as it was (its default, or
        # open); the unit is scanned for them only where a deduction meets such a name
        if t not in owned or project is None:
            return False
        instances = _host_type_instances(site.host, site, project) or []
        return bool(instances) and all(t in b for b in instances)

    return _deduced(kernel.params, site.args, want, _caller_names(site.host), names, own)


def _caller_names(host: FunctionDef) -> dict:
    """The names a launch's arguments may be in its host function: its parameters, and the pointer
    locals it declares (`T* pout = out.data<T>();`), each with its element type and pointer count."""
    names = {hp.name: hp for hp in host.params if hp.name}
    names.update({n: d for n, d in _host_locals(host).items() if n not in names})
    return names


def _deduced(params, args, want: set[str], host: dict, names: dict[str, str] | None = None,
             own=lambda t: False) -> dict[str, str]:
    """Template argument deduction from a call's arguments: where a parameter is written `T` or `T*`
    and the argument is a name of the caller's of as many pointers, or an expression whose pointer
    type it writes (`x.data_ptr<float>()`, `(float*)p + k`, `static_cast<float*>(p)`), T is that type
    (`names`: what the caller's type names stand for, `scalar_t` in a dispatch's lambda; `own(t)`: `t`
    is one of the caller's type template parameters, a `T` of the caller's own being another than the
    kernel's `T`, whose instances the caller's instantiations give)."""
    names = names or {}
    out: dict[str, str] = {}
    for kp, text in zip(params, args):
        if kp.type_name not in want:
            continue
        hp = host.get(text.strip())
        if hp is not None:
            t = names.get(hp.type_name, hp.type_name) if hp.pointers == kp.pointers else None
        else:
            t = written_pointer_type(text) if kp.pointers == 1 else None
            t = names.get(t, t) if t is not None else None
        if t is not None and (t not in want or own(t)):
            out.setdefault(kp.type_name, t)
    return out


# an argument that writes its pointer type: a tensor's typed accessor or a cast, then `+ offset`
_WRITTEN_POINTER = re.compile(
    r"\s*(?:[\w.:>\[\]-]+?\s*(?:\.|->)\s*(?:data_ptr|data|mutable_data_ptr|const_data_ptr)\s*<\s*(?P<a>[\w:]+)\s*>\s*\(\s*\)"
    r"|\(\s*(?:const\s+)?(?P<b>[\w:]+)\s*(?:const\s*)?\*\s*\)\s*[\w(]"
    r"|(?:static|reinterpret)_cast\s*<\s*(?:const\s+)?(?P<c>[\w:]+)\s*(?:const\s*)?\*\s*>\s*\()")


def written_pointer_type(text: str) -> str | None:
    """The element type an argument's expression writes for the pointer it gives: `x.data_ptr<T>()`
    (`+ n * k` after it), `(T*)buf`, `static_cast<const T*>(p)`; None where it writes none."""
    m = _WRITTEN_POINTER.match(text)
    if m is None:
        return None
    return m.group("a") or m.group("b") or m.group("c")


def resolve_launch(kernel: FunctionDef, sites: list[LaunchSite], cli: dict[str, CliLaunch], project=None,
                   given: dict[str, int] | None = None,
                   only: int | None = None) -> tuple[LaunchConfig, dict[str, str], list[str]]:
    """The launch a kernel is analysed with, its template arguments, and assumptions made.
    `given`: the values of `--param` (and the configuration's `params`), which win. `only`: the
    index of one launch (in `kernel_launches`' order) read alone, with its own values."""
    template: dict[str, str] = {}
    params: dict[str, int] = {}
    provenance: dict[str, str] = {}
    for ann in kernel.annotations:
        params.update(ann.params)
        provenance.update({k: f"annotation at line {ann.line}" for k in ann.params})
    resolver = None
    kernel_sites, assumptions = _kernel_sites(kernel, sites, project)
    if only is not None:
        kernel_sites = kernel_sites[only:only + 1]
    readings: list[_SiteValues] = []
    site_cfg = None
    instantiated: dict = {}
    if not kernel_sites and kernel.template_params and project is not None and kernel.file is not None:
        instantiated = _explicit_instances(kernel, project, template)
        if not instantiated and not assumptions:
            why = _never_instantiated(kernel, project)
            if why is not None:
                assumptions = [f"{_UNREACHED}: {why}"]
    if kernel_sites:
        budget = Budget()
        readings = [_SiteValues(s, kernel, project, budget) for s in kernel_sites[:MAX_CALLS]]
        live = [r for r in readings if not r.unreached]
        if not live and len(kernel_sites) <= MAX_CALLS:
            dead = readings[0].site
            host = dead.host.name if dead.host is not None else "its host function"
            assumptions = [f"{_UNREACHED}: the launch at {dead.file.path}:{dead.line} is in a branch that no call of "
                           f"`{host}` in the program takes"]
            kernel_sites, readings = [], []
        elif len(live) < len(readings):
            kernel_sites = [r.site for r in live] + kernel_sites[MAX_CALLS:]
            readings = live
    if kernel_sites:
        site = kernel_sites[0]
        resolver = readings[0].base
        params = {**_constant_arguments(kernel, site, resolver), **resolver.facts, **params}
        for tp, arg in zip(kernel.template_params, site.template_args):
            template[tp.name] = arg if tp.is_type else _fold_host(resolver, arg)
        template.update({k: v for k, v in _deduced_types(kernel, site, project).items() if k not in template})
        assumptions += _dispatched_types(kernel, site, template, project)
        assumptions += _host_instance_types(kernel, site, template, project)
        instantiated = _host_template_values(kernel, site, template, project, resolver)
        if len(kernel_sites) > 1:
            # a site launching several instances (a kernel passed to a launcher as `k<3>` and `k<N>`)
            # is named with each instance's template arguments
            def where(s):
                same = any(o is not s and o.file is s.file and o.line == s.line for o in kernel_sites)
                return f"{s.file.path}:{s.line}" + (f" as `{kernel.name}<{', '.join(s.template_args)}>`" if same else "")
            others = {where(s) for s in kernel_sites[1:]}
            assumptions.append(f"launched at {len(kernel_sites)} sites; analysed with the one at "
                               f"{where(site)} (others: {', '.join(sorted(others))})")
        site_cfg, ctx, shapes, open_blocks = readings[0].config(kernel)
        passed_over = list(dict.fromkeys(t for r, _ in readings[0].readers for t in r.inputs_passed_over))
        if passed_over:
            assumptions.append(f"launch shape taken at the program's own values where "
                               f"{' and '.join(f'`{t}`' for t in passed_over[:2])} give{'s' if len(passed_over) == 1 else ''} "
                               f"none (a run-time input may change it)")
        if ctx is not None:
            site_cfg.origin = f"{site.file.path}:{site.line} (called at {ctx.where})"
            distinct = {(tuple(map(str, c.grid)), tuple(map(str, c.block))) for c, _ in shapes}
            if len(distinct) > 1:
                assumptions.append(f"`{ctx.wrapper}` is called with {len(distinct)} launch shapes; analysed "
                                   f"with the one of the call at {ctx.where}")
            if open_blocks:
                assumptions.append(f"{open_blocks} other call{'s' if open_blocks > 1 else ''} of `{ctx.wrapper}` "
                                   f"give{'' if open_blocks > 1 else 's'} a block cudalint does not compute; "
                                   f"analysed with the one of the call at {ctx.where}")
    if kernel.name in cli:
        c = cli[kernel.name]
        cfg = LaunchConfig(_num3(c.grid), _num3(c.block), None, "--launch")
        provenance.update(gridDim="--launch", blockDim="--launch")
    elif any(a.kind == "launch" and a.block for a in kernel.annotations):
        ann = next(a for a in kernel.annotations if a.kind == "launch" and a.block)
        grid = _num3(ann.grid) if ann.grid else None
        cfg = LaunchConfig(grid, _num3(ann.block), ir.Num(ann.smem) if ann.smem else None,
                           f"annotation at line {ann.line}")
        provenance.update(gridDim=f"annotation at line {ann.line}", blockDim=f"annotation at line {ann.line}")
    elif site_cfg is not None:
        cfg = site_cfg
        if cfg.block is not None and all(fold(b) is not None for b in cfg.block):
            words = _dims_words(readings[0], 1)
            provenance["blockDim"] = words or f"the launch at {cfg.origin}"
        if _computed(cfg.grid, kernel):
            provenance["gridDim"] = _dims_words(readings[0], 0) or f"the launch at {cfg.origin}"
    elif assumptions and assumptions[0].startswith(_UNREACHED + ":"):
        cfg = LaunchConfig(None, None, None, UNREACHED)
    else:
        cfg = LaunchConfig(None, None, None, "assumed")
    if readings:
        values, words, calls, cfg.defaults = _values(kernel, readings)
        cfg.values = values
        cfg.value_calls = calls
        for k, v in values.items():
            provenance.setdefault(k, words[k])
            if len(v) == 1 and k not in params:
                params[k] = v[0]
        cfg.host_checks = _checks(kernel, readings)
        cfg.extents = _extents(kernel, readings)
        cfg.derived = {k: v for k, v in _derived(kernel, readings).items()
                       if k not in params and k not in cfg.values and k not in (given or {})}
        for k, v in cfg.derived.items():
            provenance.setdefault(k, f"{k} = {v} at every launch")
    if readings and kernel_sites and len(readings) == 1:
        cfg.value_checks = _instance_checks(kernel, kernel_sites[0], readings[0], instantiated)
    elif len(readings) > 1:
        cfg.value_checks = _site_checks(kernel, readings)
    for k, (vs, words) in instantiated.items():
        if len(vs) == 1:
            template[k] = ir.Num(vs[0])
        elif k not in cfg.values:
            cfg.values[k] = vs
        provenance.setdefault(k, words)
    if kernel_sites and resolver is not None and kernel_sites[0].node is not None:
        _listed(kernel, kernel_sites[0], resolver, template, cfg, provenance, params)
    if kernel_sites and instantiated and site_cfg is not None and cfg is site_cfg:
        # `dim3 block(kW, kY); k<kY, kK, kW><<<m, block>>>` in `template <int kY, int kK, int kW> void
        # launch(...)`: the host template's parameters the launch passes to the kernel's are those
        # values in its grid and block too
        sub = {ir.Sym(arg.strip(), "param"): template[tp.name]
               for tp, arg in zip(kernel.template_params, kernel_sites[0].template_args)
               if not tp.is_type and tp.name in instantiated and isinstance(template.get(tp.name), ir.Num)
               and arg.strip().isidentifier()}
        if sub:
            cfg.block = tuple(substitute(b, sub) for b in cfg.block) if cfg.block is not None else None
            cfg.grid = tuple(substitute(g, sub) for g in cfg.grid) if cfg.grid is not None else None
            if cfg.block is not None and all(fold(b) is not None for b in cfg.block):
                provenance.setdefault("blockDim", f"the launch at {cfg.origin}")
    for k, v in (given or {}).items():
        if k in {p.name for p in kernel.params} | {t.name for t in kernel.template_params}:
            cfg.values[k] = (v,)
            provenance[k] = "--param"
    for k, v in params.items():      # annotations: given
        if k.isidentifier() and k not in cfg.values and k in provenance:
            cfg.values[k] = (v,)
    cfg.provenance = provenance
    cfg.params = params
    assumptions.extend(_incomplete(kernel, project))
    return cfg, template, assumptions


MAX_LISTED_RUNS = 64     # combinations of list elements read at one launch


def _listed(kernel: FunctionDef, site: LaunchSite, resolver: HostResolver, template: dict, cfg: LaunchConfig,
            provenance: dict, params: dict) -> None:
    """The values a generic lambda's parameter gives the launch in its body where a runner calls the
    lambda with each element of a compile-time list (`mp_for_each<mp_list_c<int, 64, 32, 16>>([&](auto
    NumTLP) { k<int(NumTLP), NumTLP / 4><<<...>>>(...); })`, model/lists.py): the kernel's template
    values, integer arguments, grid and block at each element, the values one element gives going
    together as one call's do."""
    listed = lists.listed_values(site.node, lambda t: _template_number(t, resolver))
    if not listed:
        return
    names = list(listed)
    syms = {n: resolver.free_name(n) for n in names}
    combos = [dict(zip(names, vs)) for vs in itertools.islice(
        itertools.product(*(listed[n][0] for n in names)), MAX_LISTED_RUNS)]
    runs: list[dict[str, int]] = [{} for _ in combos]
    words: dict[str, str] = {}
    rename: dict = {}

    def read(key: str, text: str) -> None:
        try:
            v = resolver.value(resolver._parse(text))
        except (ExprSyntaxError, MacroError):
            return
        if not isinstance(v, ir.Expr):
            return
        used = [n for n in names if syms[n] in ir.symbols(v)]
        got = [fold(substitute(v, {syms[n]: ir.Num(c[n]) for n in used})) for c in combos]
        if not used or any(g is None for g in got):
            return
        for r, g in zip(runs, got):
            r[key] = g
        words[key] = "; ".join(listed[n][1] for n in used)
        if isinstance(v, ir.Sym):
            rename.setdefault(v, ir.Sym(key, "param"))

    for tp, arg in zip(kernel.template_params, site.template_args):
        if not tp.is_type and not isinstance(template.get(tp.name), ir.Num) and tp.name not in cfg.values:
            read(tp.name, arg)
    for p, arg in zip(kernel.params, site.args):
        if not p.pointers and p.name not in cfg.values and p.name not in params and arg.strip():
            read(p.name, arg)
    dims = (cfg.grid or ()) + (cfg.block or ())
    for n in names:
        # the lambda's parameter in the grid or the block where no kernel name takes its value
        if syms[n] not in rename and any(syms[n] in ir.symbols(d) for d in dims):
            for r, c in zip(runs, combos):
                r[syms[n].name] = c[n]
            words[syms[n].name] = listed[n][1]
    if not words:
        return
    if rename:
        cfg.grid = tuple(substitute(g, rename) for g in cfg.grid) if cfg.grid is not None else None
        cfg.block = tuple(substitute(b, rename) for b in cfg.block) if cfg.block is not None else None
        # `if (numPlanes % NumTLP == 0)` around the launch: a check on the element's value
        cfg.host_checks = [substitute(c, rename) for c in cfg.host_checks]
    templated = {tp.name for tp in kernel.template_params}
    for k in words:
        values = tuple(sorted({r[k] for r in runs}))
        if k in templated:
            template[k] = ir.Num(values[0]) if len(values) == 1 else ir.Sym(k, "param")
        elif len(values) == 1:
            params.setdefault(k, values[0])
        cfg.values[k] = values
        provenance.setdefault(k, words[k])
    calls = cfg.value_calls or [{}]
    cfg.value_calls = list({tuple(sorted({**c, **r}.items())): {**c, **r} for c in calls for r in runs}.values())


def _instance_checks(kernel: FunctionDef, site: LaunchSite, s: _SiteValues, instantiated: dict) -> dict:
    """The checks the host makes before the calls that instantiate the launching function with each
    value of a template parameter the launch passes on: `if (n % 16 == 0) launch<16>(...)` runs the
    16 instance only where n is a multiple of 16. Each value's checks are those every call giving
    it makes (in the kernel's parameters)."""
    host = site.host
    out: dict = {}
    if host is None or not host.template_params:
        return out
    for tp, arg in zip(kernel.template_params, site.template_args):
        if tp.is_type or tp.name not in instantiated:
            continue
        k = next((i for i, h in enumerate(host.template_params) if h.name == arg.strip() and not h.is_type), None)
        if k is None:
            continue
        by_value: dict[int, set] = {}
        for _, ctx in s.readers:
            if ctx is None or len(ctx.targs) <= k or not re.fullmatch(r"-?\d+", ctx.targs[k]):
                return {}       # a call of the launcher the template value of which is not read here
            here = {c for c in (_in_kernel_terms(c, ctx, s.base) for c in ctx.checks)
                    if _over_params(c, kernel) and ir.symbols(c)}
            v = int(ctx.targs[k])
            by_value[v] = here if v not in by_value else by_value[v] & here
        out.update(_by_value(tp.name, by_value))
    return out


def _either(a: set, b: set) -> set:
    """What holds after either of two launches, given the checks before each: those they share,
    and of a bound each puts on one name the weaker (`kernel_w <= 4` before one, `kernel_w <= 2`
    before the other: `kernel_w <= 4`)."""
    out = a & b
    bounds_a, bounds_b = _bounds_of(a - out), _bounds_of(b - out)
    for key in bounds_a.keys() & bounds_b.keys():
        sym, op = key
        va, vb = bounds_a[key], bounds_b[key]
        out.add(ir.Bin(op, sym, ir.Num(max(va, vb) if op == "<=" else min(va, vb))))
    return out


def _bounds_of(checks: set) -> dict:
    """{(name, "<=" or ">="): bound} of the checks that bound one name by a number."""
    out: dict = {}
    for c in checks:
        if not (isinstance(c, ir.Bin) and c.op in ("<", "<=", ">", ">=")):
            continue
        sym, num, op = c.left, c.right, c.op
        if isinstance(sym, ir.Num) and isinstance(num, ir.Sym):
            sym, num, op = num, sym, _FLIP[op]
        if not (isinstance(sym, ir.Sym) and isinstance(num, ir.Num) and isinstance(num.value, int)):
            continue
        value = num.value - 1 if op == "<" else num.value + 1 if op == ">" else num.value
        key = (sym, "<=" if op in ("<", "<=") else ">=")
        old = out.get(key)
        out[key] = value if old is None else (min(old, value) if key[1] == "<=" else max(old, value))
    return out


def _by_value(name: str, by_value: dict[int, set]) -> dict:
    """{(template parameter, value): the checks every launch of that value makes}, where any."""
    return {(name, v): sorted(checks, key=str) for v, checks in by_value.items() if checks}


def _site_checks(kernel: FunctionDef, readings: list[_SiteValues]) -> dict:
    """Launches written out for each value of a template parameter (`if (nPlanes % 32 == 0)
    k<T, 32><<<...>>>`, `if (nPlanes % 24 == 0) k<T, 24><<<...>>>`): the checks made before the
    launches that give each value hold for that instance."""
    out: dict = {}
    owns = [_own_checks(s.base, kernel) for s in readings]
    for i, tp in enumerate(kernel.template_params):
        if tp.is_type:
            continue
        by_value: dict[int, set] = {}
        for s, own in zip(readings, owns):
            args = s.site.template_args
            if len(args) <= i or not re.fullmatch(r"-?\d+", args[i].strip()):
                by_value = {}
                break
            v = int(args[i].strip())
            by_value[v] = own if v not in by_value else _either(by_value[v], own)
        out.update(_by_value(tp.name, by_value))
    return out


def _dims_words(s: _SiteValues, index: int) -> str:
    """Where a launch's grid or block comes from, when a constant or a helper of the program gives it."""
    return _read_words(s.base, s.site.config[index]) if len(s.site.config) > index else ""


def _set_each_iteration(body, stop: int) -> set[str]:
    """The names a loop's body gives a value on every way to the launch, before it: declared there
    (`dim3 threads(16, 16);` is a new variable each iteration) or assigned by a statement of the body
    itself ahead of it (`threads = dim3(16, 16);`). What the body assigns after the launch does not
    reach the launch of the next iteration through them."""
    out: set[str] = set()
    if body is None:
        return out
    for c in (body.named_children if body.type == "compound_statement" else ()):
        if c.start_byte >= stop:
            break
        if c.type == "declaration":
            for d in c.children_by_field_name("declarator"):
                while d is not None and d.type not in ("identifier",):
                    d = d.child_by_field_name("declarator")
                if d is not None:
                    out.add(node_text(d))
        elif c.type == "expression_statement" and c.end_byte <= stop and c.named_children and \
                c.named_children[0].type == "assignment_expression":
            a = c.named_children[0]
            target, op = a.child_by_field_name("left"), a.child_by_field_name("operator")
            if target is not None and target.type == "identifier" and op is not None and node_text(op) == "=":
                out.add(node_text(target))      # (`total += n` carries the last iteration's value on)
    return out
