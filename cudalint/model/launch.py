"""Launch configurations: `--launch`, `// cudalint: launch` annotations, and `<<<grid, block, smem>>>`
sites (in any linted file), with `dim3` variables and ceil-div expressions resolved on the host side."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..index import ir
from ..index.parse import ExprSyntaxError, parse_expr
from ..preprocess.macros import MacroError
from ..source.cufile import FunctionDef, LaunchSite, node_text
from .pointers import pointer_launch
from .table import LaunchConfig


# host helpers that round a division up, as grids are sized: `ceil_div(N, 256)` is `(N + 255) / 256`
CEIL_DIV = {"ceil_div", "CEIL_DIV", "ceilDiv", "div_up", "DIV_UP", "divUp", "iDivUp", "cdiv", "ceildiv", "CeilDiv",
            "DIVUP", "round_up_div"}


_ATOM = re.compile(r"[\w.]*")     # a name, a number or a member: nothing a grid expression repeats


@dataclass
class CliLaunch:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]


def _num3(dims) -> tuple[ir.Expr, ir.Expr, ir.Expr]:
    d = list(dims) + [1] * (3 - len(dims))
    return tuple(ir.Num(int(x)) if not isinstance(x, ir.Expr) else x for x in d[:3])


class HostResolver:
    """Values of host variables before a launch: `dim3 grid((n + 255) / 256)`, `int threads = 256;`."""

    def __init__(self, site: LaunchSite, kernel: FunctionDef | None, constants: dict | None = None):
        self.site = site
        self.macros = site.file.macros.at(site.line)
        self.constants = constants if constants is not None else {}
        self._resolving: set[str] = set()
        self.env: dict[str, object] = {}
        self.param_names: dict[str, str] = {}
        self.arg_exprs: dict[ir.Expr, str] = {}
        self.facts: dict[str, int] = {}     # sizes fixed by the branch the launch is in

        if kernel is not None:
            # host names passed straight to a kernel parameter are that parameter
            for p, a in zip(kernel.params, site.args):
                a = a.strip()
                if a.isidentifier() and not p.pointers:
                    self.param_names[a] = p.name
                elif not p.pointers and not _ATOM.fullmatch(a):
                    # `k<<<ceil_div(B * T, 256), 256>>>(..., B * T)`: the grid's `B * T` is the kernel's `BT`
                    try:
                        self.arg_exprs.setdefault(self._parse(a), p.name)
                    except (ExprSyntaxError, MacroError):
                        pass
        if site.host is not None:
            for ann in site.host.annotations:      # `// cudalint: param n=1000` above the host function
                self.env.update({k: ir.Num(v) for k, v in ann.params.items()})
        if site.host is not None and site.host.body is not None:
            self._walk_host(site.host, site.node.start_byte)

    def _parse(self, text: str) -> ir.Expr:
        if self.macros.uses_macro(text):
            text = self.macros.expand(text)
        return parse_expr(text)

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
               tuple(self.arg_exprs.items()))
        walks = host.__dict__.setdefault("_host_walks", {})
        states = walks.setdefault(key, {0: (dict(self.env), {})})
        start = max(k for k in states if k <= before)
        self.env, self.facts = dict(states[start][0]), dict(states[start][1])
        for i in range(start, before):
            self._statement(kids[i], stop)
            if (i + 1) % self.SNAPSHOT_EVERY == 0 or i + 1 == before:
                states[i + 1] = (dict(self.env), dict(self.facts))
        for c in kids[before:]:
            if c.start_byte >= stop:
                return
            self._statement(c, stop)

    def _walk(self, node, stop: int) -> None:
        for c in node.named_children:
            if c.start_byte >= stop:
                return
            self._statement(c, stop)

    def _statement(self, c, stop: int) -> None:
        if c.type == "declaration":
            self._declaration(c)
        elif c.type == "expression_statement" and c.named_children:
            text = node_text(c.named_children[0])
            try:
                if self.macros.uses_macro(text):
                    text = self.macros.expand(text)
                # only an assignment (`=`, `+=`, `++`) changes a host value: calls and the like are
                # not parsed
                e = parse_expr(text) if "=" in text or "++" in text or "--" in text else None
            except (ExprSyntaxError, MacroError):
                return
            if isinstance(e, ir.Assign):
                self._assign(e)
        elif c.type == "compound_statement" or (c.end_byte > stop and c.type.endswith(("statement", "clause"))):
            self._branch_fact(c, stop)
            self._walk(c, stop)
            if c.type in ("for_statement", "while_statement", "do_statement") and c.end_byte > stop:
                self._loop_carried(c, stop)

    def _loop_carried(self, loop, stop: int) -> None:
        """`for (int Ns = 1; Ns < N; Ns *= R) k<<<...>>>(Ns, ...)`: what the loop's update or its body
        after the launch assigns takes another value at each launch; it is not the initial constant."""
        update = loop.child_by_field_name("update")
        nodes = [update] if update is not None else []
        stack = [loop.child_by_field_name("body")]
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
                if target is not None and target.type == "identifier":
                    self.env.pop(node_text(target), None)

    def _branch_fact(self, node, stop: int) -> None:
        """`if (bs == 16) k<16><<<grid, dim3(bs, bs)>>>` and `case 16:` under `switch (bs)`: in the
        launch's branch the size is that constant."""
        text = None
        if node.type == "if_statement":
            cons, cond = node.child_by_field_name("consequence"), node.child_by_field_name("condition")
            if cons is not None and cond is not None and cons.start_byte <= stop < cons.end_byte:
                text = node_text(cond)
        elif node.type == "case_statement" and node.parent is not None and node.parent.parent is not None:
            switch, value = node.parent.parent, node.child_by_field_name("value")
            cond = switch.child_by_field_name("condition") if switch.type == "switch_statement" else None
            if cond is not None and value is not None:
                text = f"{node_text(cond)} == ({node_text(value)})"
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

    def _declaration(self, node) -> None:
        type_node = node.child_by_field_name("type")
        tname = node_text(type_node) if type_node is not None else ""
        for d in node.children_by_field_name("declarator"):
            if d.type == "function_declarator" and tname.strip() == "dim3":
                # `dim3 block(TILE, TILE);` parses as a function declaration (C++'s vexing parse)
                name = node_text(d.child_by_field_name("declarator"))
                params = d.child_by_field_name("parameters")
                try:
                    self.env[name] = ("dim3", [self.value(self._parse(node_text(a))) for a in params.named_children])
                except (ExprSyntaxError, MacroError):
                    self.env.pop(name, None)
                continue
            if d.type != "init_declarator":
                continue
            name = node_text(d.child_by_field_name("declarator")).lstrip("*& ")
            value = d.child_by_field_name("value")
            try:
                if value.type == "argument_list":       # dim3 grid(a, b)
                    args = [self.value(self._parse(node_text(a))) for a in value.named_children]
                    self.env[name] = ("dim3", args)
                elif value.type == "initializer_list":  # dim3 grid{a, b}
                    args = [self.value(self._parse(node_text(a))) for a in value.named_children]
                    self.env[name] = ("dim3", args)
                else:
                    e = self._parse(node_text(value))
                    v = self.value(e)
                    if tname.strip() == "dim3" and not isinstance(v, tuple):
                        v = ("dim3", [v])
                    self.env[name] = v
            except (ExprSyntaxError, MacroError):
                self.env.pop(name, None)

    def _assign(self, e: ir.Assign) -> None:
        t = e.target
        if isinstance(t, ir.Member) and isinstance(t.base, ir.Name) and t.field in "xyz":
            cur = self.env.get(t.base.name)
            if isinstance(cur, tuple):
                args = list(cur[1]) + [ir.Num(1)] * (3 - len(cur[1]))
                args["xyz".index(t.field)] = self.value(e.value)
                self.env[t.base.name] = ("dim3", args)
        elif isinstance(t, ir.Name) and e.op == "=":
            self.env[t.name] = self.value(e.value)

    def value(self, e: ir.Expr):
        if e in self.arg_exprs:
            return ir.Sym(self.arg_exprs[e], "param")
        match e:
            case ir.Name(name=n):
                if n in self.env:
                    return self.env[n]
                c = lookup_constant(self.constants, n)
                if c is not None and n not in self._resolving:
                    self._resolving.add(n)
                    try:
                        return self.value(parse_expr(c.file.macros.at(c.line).expand(c.text)))
                    except (ExprSyntaxError, MacroError):
                        pass
                    finally:
                        self._resolving.discard(n)
                return ir.Sym(self.param_names.get(n, n), "param")
            case ir.Call(fn="dim3", args=args):
                return ("dim3", [self.value(a) for a in args])
            case ir.Cast(expr=x):
                return self.value(x)
            case ir.Bin(op=op, left=l, right=r):
                lv, rv = self.value(l), self.value(r)
                if isinstance(lv, tuple) or isinstance(rv, tuple):
                    return ir.Sym("?", "unknown")
                return ir.Bin(op, lv, rv)
            case ir.Un(op=op, operand=o):
                v = self.value(o)
                return ir.Un(op, v) if isinstance(v, ir.Expr) else v
            case ir.Cond(cond=c, then=a, other=b):
                return ir.Cond(self.value(c), self.value(a), self.value(b))
            case ir.Call(fn=fn, args=(a, b)) if fn.split("::")[-1] in CEIL_DIV:
                a, b = self.value(a), self.value(b)
                if isinstance(a, ir.Expr) and isinstance(b, ir.Expr):
                    return ir.Bin("/", ir.Bin("-", ir.Bin("+", a, b), ir.Num(1)), b)
            case ir.Call(fn=fn, args=args) if fn.split("::")[-1] in ("min", "max") and len(args) == 2:
                return ir.Call(fn.split("::")[-1], tuple(self.value(a) for a in args))
            case ir.Member(base=ir.Name(name=b), field=f) if f in "xyz":
                cur = self.env.get(b)
                if isinstance(cur, tuple):
                    args = list(cur[1]) + [ir.Num(1)] * 3
                    return args["xyz".index(f)]
        if isinstance(e, (ir.Num, ir.Sym)):
            return e
        return ir.Sym(str(e), "unknown")

    def dims(self, text: str) -> tuple[ir.Expr, ir.Expr, ir.Expr] | None:
        try:
            v = self.value(self._parse(text))
        except (ExprSyntaxError, MacroError):
            return None
        if isinstance(v, tuple):
            return _num3(v[1])
        if isinstance(v, ir.Sym) and v.kind == "unknown":
            return None     # `block[d][fp]`: a dim3 the host code hides; not (?, 1, 1)
        return _num3([v])


def _walk_types(node, types):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            yield n
        stack.extend(n.children)


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


def lookup_constant(constants: dict, name: str):
    """A constant by the name the code uses: exactly, or by its last part (`TILE` for `ns::TILE`,
    `x128::size` for `Packed128::size` is not guessed) when only one constant has it."""
    c = constants.get(name)
    if c is not None or not constants:
        return c
    tail = name.split("::")[-1]
    hits = [v for k, v in constants.items() if k.split("::")[-1] == tail and
            (k.endswith("::" + name) if "::" in name else True)]
    return hits[0] if len(hits) == 1 else None


def launch_from_site(site: LaunchSite, kernel: FunctionDef, r: HostResolver | None = None) -> LaunchConfig:
    r = r or HostResolver(site, kernel)
    grid = r.dims(site.config[0]) if site.config else None
    block = r.dims(site.config[1]) if len(site.config) > 1 else None
    smem = None
    if len(site.config) > 2:
        try:
            smem = r.value(r._parse(site.config[2]))
            smem = smem if isinstance(smem, ir.Expr) else None
        except (ExprSyntaxError, MacroError):
            smem = None
    rel = site.file.path
    return LaunchConfig(grid, block, smem, f"{rel}:{site.line}")


def _site_rank(kernel: FunctionDef, site: LaunchSite) -> int:
    """Launches in the kernel's own file first, then in files that include it, then the rest of its units."""
    key = kernel.file.key if kernel.file else ""
    if site.file.key == key:
        return 0
    return 1 if key in site.file.includes else 2


def _kernel_sites(kernel: FunctionDef, sites: list[LaunchSite]) -> tuple[list[LaunchSite], list[str]]:
    """The launches of a kernel, best first: by name, through a function pointer set to it, or else
    through a pointer whose value is not traced and could be this kernel."""
    own: list[LaunchSite] = []
    untraced: list[tuple[LaunchSite, str]] = []
    for s in sites:
        p = pointer_launch(s)
        if p is None:
            if s.kernel == kernel.name:
                own.append(s)
        elif not p.targets:
            untraced.append((s, p.var))
        else:
            for t in p.targets:
                if t.kernel == kernel.name:
                    own.append(replace(s, kernel=t.kernel, template_args=list(t.template_args) or s.template_args))
    assumptions: list[str] = []
    kfile = kernel.file.path if kernel.file else None
    if not own:
        for s, var in untraced:
            if s.file.path == kfile and len(s.args) == len(kernel.params):
                own.append(s)
                assumptions.append(f"launch through the function pointer `{var}` at line {s.line}: "
                                   f"its configuration assumed for this kernel")
    return sorted(own, key=lambda s: _site_rank(kernel, s)), assumptions[:1]


def resolve_launch(kernel: FunctionDef, sites: list[LaunchSite], cli: dict[str, CliLaunch], project=None
                   ) -> tuple[LaunchConfig, dict[str, str], list[str]]:
    """The launch a kernel is analysed with, its template arguments, and assumptions made."""
    template: dict[str, str] = {}
    params: dict[str, int] = {}
    for ann in kernel.annotations:
        params.update(ann.params)
    resolver = None
    kernel_sites, assumptions = _kernel_sites(kernel, sites)
    if kernel_sites:
        site = kernel_sites[0]
        resolver = HostResolver(site, kernel, project.constants_for(site.file) if project is not None else None)
        params = {**_constant_arguments(kernel, site, resolver), **resolver.facts, **params}
        for tp, arg in zip(kernel.template_params, site.template_args):
            template[tp.name] = arg if tp.is_type else _fold_host(resolver, arg)
        if len(kernel_sites) > 1:
            others = {f"{s.file.path}:{s.line}" for s in kernel_sites[1:]}
            assumptions.append(f"launched at {len(kernel_sites)} sites; analysed with the one at "
                               f"{site.file.path}:{site.line} (others: {', '.join(sorted(others))})")
    if kernel.name in cli:
        c = cli[kernel.name]
        cfg = LaunchConfig(_num3(c.grid), _num3(c.block), None, "--launch")
    elif any(a.kind == "launch" and a.block for a in kernel.annotations):
        ann = next(a for a in kernel.annotations if a.kind == "launch" and a.block)
        grid = _num3(ann.grid) if ann.grid else None
        cfg = LaunchConfig(grid, _num3(ann.block), ir.Num(ann.smem) if ann.smem else None,
                           f"annotation at line {ann.line}")
    elif kernel_sites:
        cfg = launch_from_site(kernel_sites[0], kernel, resolver)
    else:
        cfg = LaunchConfig(None, None, None, "assumed")
    cfg.params = params
    return cfg, template, assumptions
