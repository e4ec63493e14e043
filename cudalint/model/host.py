"""The host program's values, evaluated: what a launch's grid, block and arguments are.

A host expression becomes IR over the launch's symbols (the kernel's parameters, the host's open
names). Host helpers are evaluated, not matched by name: a call to a host function of the unit
(`inline int CAFFE_GET_BLOCKS(const int N) { return (N + CAFFE_CUDA_NUM_THREADS - 1) / ...; }`,
`constexpr div_up`, `dim3 cuda_gridsize(size_t n)`, default arguments) runs its body on the
argument values: declarations, assignments, `return`, and `if`s (decided where the condition folds
to a number, else both arms kept as a conditional value). A loop, a call with effects or anything
else the evaluation does not follow makes the result open. Every evaluation spends a shared budget
of statements, and helpers nest at most MAX_DEPTH deep.
"""
from __future__ import annotations

import re

from ..index import ir
from ..index.parse import ExprSyntaxError, parse_expr
from ..source.cufile import FunctionDef, node_text
from ..source.project import is_member
from ..source.types import builtin_size, split_top_level
from ..preprocess.macros import MacroError

MAX_STEPS = 400     # statements evaluated for one launch, over every helper and caller it reads
MAX_DEPTH = 6       # helpers calling helpers; wrappers called by wrappers

# host helpers that round a division up, as grids are sized: `ceil_div(N, 256)` is `(N + 255) / 256`
# (kept for helpers whose body the run does not see: a library's header not linted)
CEIL_DIV = {"ceil_div", "CEIL_DIV", "ceilDiv", "div_up", "DIV_UP", "divUp", "iDivUp", "cdiv", "ceildiv", "CeilDiv",
            "DIVUP", "round_up_div", "div_ceil", "DivUp", "ATenCeilDiv", "divup", "div_round_up"}


class OutOfBudget(Exception):
    """The evaluation spent its statements: what it was computing is open."""


class Budget:
    def __init__(self, steps: int = MAX_STEPS):
        self.steps = steps

    def spend(self, n: int = 1) -> None:
        self.steps -= n
        if self.steps < 0:
            raise OutOfBudget


def unknown(why: str) -> ir.Sym:
    return ir.Sym(why, "unknown")


# Conversions of text the program reads when it runs (its command line, its environment): what
# they give is open, and a value the program sets where they give none is its own.
_INPUT_CALLS = frozenset(("atoi", "atol", "atoll", "atof", "strtol", "strtoul", "strtoll", "strtoull", "strtod",
                          "strtof", "stoi", "stol", "stoll", "stoul", "stoull", "stof", "stod"))
INPUT = "input:"


def is_input(v) -> bool:
    """A value read when the program runs (`atoi(argv[1])`), and nothing else."""
    return isinstance(v, ir.Sym) and v.kind == "unknown" and v.name.startswith(INPUT)


def program_value(e: ir.Expr, taken: list[str] | None = None) -> ir.Expr:
    """`e` with each choice between a run-time input and a value of the program's own (`argc > 1 ?
    atoi(argv[1]) : 8`, or `dimx = 8; if (argc > 2) dimx = atoi(argv[1]);`) taken at the program's
    value; the inputs passed over are added to `taken`."""
    if isinstance(e, ir.Cond):
        for side, other in ((e.then, e.other), (e.other, e.then)):
            if is_input(side) and not is_open(other):
                if taken is not None:
                    taken.append(side.name[len(INPUT):])
                return program_value(other, taken)
        return e
    if isinstance(e, ir.Bin):
        left, right = program_value(e.left, taken), program_value(e.right, taken)
        return e if left is e.left and right is e.right else ir.Bin(e.op, left, right)
    if isinstance(e, ir.Call) and e.fn in ("min", "max"):
        args = tuple(program_value(a, taken) for a in e.args)
        return e if all(a is b for a, b in zip(args, e.args)) else ir.Call(e.fn, args)
    return e


def is_open(v) -> bool:
    """A value holding something the host code does not give (unknown)."""
    if isinstance(v, tuple):
        return any(is_open(x) for x in v[1])
    if not isinstance(v, ir.Expr):
        return True
    return any(s.kind == "unknown" for s in ir.symbols(v))


def _dim3(args: list) -> tuple:
    """`dim3(...)` of host values: a copy of another dim3 (`dim3(grid)`) is that dim3; an argument
    that is itself a dim3 anywhere else is no number."""
    if len(args) == 1 and isinstance(args[0], tuple):
        return args[0]
    return ("dim3", [unknown("dim3") if isinstance(a, tuple) else a for a in args])


def with_edge(dims: tuple, field: str, value) -> tuple:
    """A `dim3` value with one edge (`x`, `y` or `z`) replaced, the edges it leaves out 1."""
    args = list(dims[1]) + [ir.Num(1)] * (3 - len(dims[1]))
    args["xyz".index(field)] = value
    return ("dim3", args)


def fold(v) -> int | None:
    """The number an expression of constants is, None when it is not one."""
    if isinstance(v, ir.Num) and isinstance(v.value, int):
        return v.value
    if not isinstance(v, ir.Expr) or ir.symbols(v) or \
            any(isinstance(x, ir.Num) and not isinstance(x.value, int) for x in v.walk()):
        return None
    from ..index.evaluate import Evaluator, Unknown
    try:
        return int(Evaluator({}).value(v))
    except (Unknown, TypeError, ValueError, ZeroDivisionError, OverflowError, ArithmeticError):
        return None


def lookup_constant(constants: dict, name: str):
    """A constant by the name the code uses: exactly, or by its last part (`TILE` for `ns::TILE`,
    `x128::size` for `Packed128::size` is not guessed) when only one constant has it."""
    c = constants.get(name)
    if c is not None or not constants:
        return c
    tails = _TAILS.get(id(constants))
    if tails is None or tails[0] is not constants or tails[1] != len(constants):
        index: dict[str, list[str]] = {}
        for k in constants:
            index.setdefault(k.split("::")[-1], []).append(k)
        if len(_TAILS) >= 256:       # tables of runs past: dropped
            _TAILS.clear()
        tails = _TAILS[id(constants)] = (constants, len(constants), index)
    hits = [constants[k] for k in tails[2].get(name.split("::")[-1], ())
            if (k.endswith("::" + name) if "::" in name else not _class_member(k, constants[k]))]
    return hits[0] if len(hits) == 1 else None


def _class_member(key: str, const) -> bool:
    """`traits::qk` where `traits` is a struct or class: a member is named through its class (or
    inside it), never by its bare name as a namespace's constant is."""
    if "::" not in key:
        return False
    owner = key.rsplit("::", 1)[0]
    return owner in getattr(getattr(const, "file", None), "structs", {})


# the constants of a unit by the last part of their names, for each constants table asked (kept with it)
_TAILS: dict[int, tuple] = {}


# `Log2<32>::value`: a member of a class template's instance, written with its arguments
_INSTANCE_MEMBER = re.compile(r"\b([A-Za-z_]\w*)\s*<([^<>;{}]*)>\s*::\s*([A-Za-z_]\w*)")


class HostScope:
    """Evaluation of host expressions in one scope: names from `env`, then the unit's constants,
    then `free_name` (a launch's host function: a kernel parameter or an open host value; a helper's
    body: open)."""

    def __init__(self, file, line: int, constants: dict | None, project=None, budget: Budget | None = None,
                 depth: int = 0):
        self.file = file
        self.line = line
        self.macros = file.macros.at(line) if file is not None else None
        self.constants = constants if constants is not None else {}
        self.project = project
        self.budget = budget or Budget()
        self.depth = depth
        self.env: dict[str, object] = {}
        self.pointees: dict[str, str] = {}     # a pointer local -> the type it points to (`sizeof(*p)`)
        self._resolving: set[str] = set()
        self.constants_used: dict[str, object] = {}     # name -> Constant read for a value
        self.helpers_used: list[FunctionDef] = []       # host helpers evaluated for a value

    # ---- names -----------------------------------------------------------------------------
    def free_name(self, name: str):
        return unknown(name)

    def forget(self, name: str) -> None:
        """A variable whose value the evaluation does not know."""
        self.env[name] = unknown(name)

    def _parse(self, text: str) -> ir.Expr:
        if self.macros is not None and self.macros.uses_macro(text):
            text = self.macros.expand(text)
        if "::" in text and "<" in text:
            text = self._instance_members(text)
        # `at::cuda::ATenCeilDiv`: parse_expr reads a name of several scopes by its last two parts
        # (a constant is found by its qualified tail, a helper by its name)
        return parse_expr(text)

    def _instance_members(self, text: str, depth: int = 0) -> str:
        """`Log2<32>::value` of a class template whose value its instances set apart (`template <>
        struct Log2<1> { static constexpr unsigned value = 0; };`, `value = 1 + Log2<x / 2>::value`
        in the template): the number the compiler folds, the template's parameters bound to the
        arguments and the specializations taken where they match; left as written where an argument
        or a step is not a number the program gives (the parse then reads no value for it)."""
        if depth > 32 or self.project is None:
            return text

        def one(m) -> str:
            name, args, member = m.group(1), m.group(2), m.group(3)
            if not any((k.startswith(name + "<") or f"::{name}<" in k) and k.endswith("::" + member)
                       for k in self.constants):
                return m.group(0)
            values = [self._number(a, depth) for a in split_top_level(args)]
            if any(v is None for v in values):
                return m.group(0)
            c = lookup_constant(self.constants, f"{name}<{','.join(map(str, values))}>::{member}")
            if c is None:
                c = lookup_constant(self.constants, f"{name}::{member}")
                structs = self.project.types_for(self.file).structs if self.file is not None else {}
                sd = next((v for k, v in structs.items() if k == name or k.endswith("::" + name)), None)
                if c is None or sd is None or len(sd.template_params) != len(values):
                    return m.group(0)
                body = c.text
                for p, v in zip(sd.template_params, values):
                    body = re.sub(rf"\b{re.escape(p)}\b", f"({v})", body)
            else:
                body = c.text
            got = self._number(body, depth + 1)
            return str(got) if got is not None else m.group(0)
        return _INSTANCE_MEMBER.sub(one, text)

    def _number(self, text: str, depth: int) -> int | None:
        try:
            v = self.value(parse_expr(self._instance_members(text, depth + 1)))
        except (ExprSyntaxError, MacroError):
            return None
        got = fold(v) if isinstance(v, ir.Expr) else None
        return int(got) if isinstance(got, (int, bool)) else None

    def value(self, e: ir.Expr):
        match e:
            case ir.Name(name=n):
                if n in self.env:
                    return self.env[n]
                c = lookup_constant(self.constants, n)
                if c is not None and n not in self._resolving:
                    self._resolving.add(n)
                    try:
                        v = self.value(parse_expr(c.file.macros.at(c.line).expand(c.text)))
                        self.constants_used.setdefault(n, c)
                        return v
                    except (ExprSyntaxError, MacroError):
                        pass
                    finally:
                        self._resolving.discard(n)
                if n in ir.STD_CONSTANTS:          # `dim3 threads(warpSize, 16)`, `INT_MAX` in host code
                    return ir.Num(ir.STD_CONSTANTS[n])
                return self.free_name(n)
            case ir.Call(fn="dim3", args=args):
                return _dim3([self.value(a) for a in args])
            case ir.Cast(expr=x):
                return self.value(x)
            case ir.Bin(op=op, left=l, right=r):
                lv, rv = self.value(l), self.value(r)
                if isinstance(lv, tuple) or isinstance(rv, tuple):
                    return unknown("?")
                return ir.Bin(op, lv, rv)
            case ir.Un(op=op, operand=o):
                v = self.value(o)
                return ir.Un(op, v) if isinstance(v, ir.Expr) else v
            case ir.Cond(cond=c, then=a, other=b):
                cv = self.value(c)
                known = fold(cv)
                if known is not None:
                    return self.value(a) if known else self.value(b)
                av, bv = self.value(a), self.value(b)
                if isinstance(av, tuple) or isinstance(bv, tuple) or not isinstance(cv, ir.Expr):
                    return unknown("?")
                return ir.Cond(cv, av, bv)
            case ir.Call(fn="sizeof", args=(ir.Deref(expr=ir.Name(name=p)) | ir.Subscript(base=ir.Name(name=p)),)) \
                    if p in self.pointees and (size := builtin_size(self.pointees[p])) is not None:
                # `cudaMalloc(&d, sizeof(*d) * n)`: the size of what the pointer local points to
                return ir.Num(size)
            case ir.Call(fn=fn) if fn.split("::")[-1] in _INPUT_CALLS:
                return ir.Sym(INPUT + str(e), "unknown")
            case ir.Call(fn=fn, args=args):
                got = self.call(fn, args)
                if got is not None:
                    return got
            case ir.Member(base=ir.Name(name=b), field=f) if f in ("x", "y", "z"):
                cur = self.env.get(b)
                if isinstance(cur, tuple):
                    args = list(cur[1]) + [ir.Num(1)] * 3
                    return args["xyz".index(f)]
        if isinstance(e, (ir.Num, ir.Sym)):
            return e
        return unknown(str(e))

    def call(self, fn: str, args: tuple):
        """A call's value: a host helper evaluated, `min`/`max` kept, a ceil-div; None: not evaluated."""
        short = fn.split("::")[-1]
        if short in ("min", "max") and len(args) == 2:
            return ir.Call(short, tuple(self.value(a) for a in args))
        if short in ("ceil", "ceilf") and len(args) == 1 and isinstance(args[0], ir.Bin) and args[0].op == "/":
            # `ceil(n / (double)256)`, `ceil(float(n) / 256)`: the integers' division rounded up
            a, b = (self.value(_uncast(x)) for x in (args[0].left, args[0].right))
            if isinstance(a, ir.Expr) and isinstance(b, ir.Expr) and \
                    any(_uncast(x) != x for x in (args[0].left, args[0].right)):
                return ir.Bin("/", ir.Bin("-", ir.Bin("+", a, b), ir.Num(1)), b)
        fns = self.project.host_functions(self.file, short) if self.project is not None and "." not in fn else []
        if "::" not in fn:          # `NumCols()`: a member of a class the call does not name, not evaluated
            fns = [f for f in fns if not is_member(f.node)]
        for f in fns:
            if _arity_fits(f, len(args)):
                if all(f is not h for h in self.helpers_used):
                    self.helpers_used.append(f)
                return evaluate_call(f, [self.value(a) for a in args], self.project, self.budget, self.depth + 1)
        if short in CEIL_DIV and len(args) == 2:
            a, b = self.value(args[0]), self.value(args[1])
            if isinstance(a, ir.Expr) and isinstance(b, ir.Expr):
                return ir.Bin("/", ir.Bin("-", ir.Bin("+", a, b), ir.Num(1)), b)
        return None     # a call the host code does not let cudalint evaluate: open, named by its text

    def mutating_call(self, node) -> None:
        """A call that may change the caller's variables: `std::swap(a, b)` exchanges them; a helper
        of the unit given a variable by non-const reference (`void f(int& n)`) leaves it open; an
        address (`&dimGrid`) is read by out_call."""
        fn, args_node = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if fn is None or args_node is None:
            return
        args = [node_text(a).strip() for a in args_node.named_children if a.type != "comment"]
        name = node_text(fn).split("::")[-1].strip()
        if name == "swap" and len(args) == 2 and all(a.isidentifier() for a in args):
            a, b = args
            va, vb = self.env.get(a), self.env.get(b)
            for k, v in ((a, vb), (b, va)):
                if v is None:
                    self.forget(k)
                else:
                    self.env[k] = v
            return
        if any(a.startswith("&") for a in args):
            self.out_call(node)
        if self.project is None or "." in name or "->" in name:
            return
        for f in self.project.host_functions(self.file, name):
            if _arity_fits(f, len(args)) and len(args) <= len(f.params):
                for p, a in zip(f.params, args):
                    if p.reference and a.isidentifier() and not _const_param(p):
                        self.forget(a)

    def out_call(self, node) -> None:
        """`GetBlockSizes(rows, cols, &dimGrid, &dimBlock)`: a helper that sets the caller's variables
        through pointers (`dimBlock->x = 64;`, `*n = 4;`). Its body is run on the arguments' values and
        what it stores is the variables' value; where it cannot be followed (no body in the unit, a
        loop over an open size), each variable passed by address is open."""
        fn, args_node = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if fn is None or args_node is None:
            return
        args = [a for a in args_node.named_children if a.type != "comment"]
        outs = _out_arguments(args)
        if not outs:
            return
        name = node_text(fn).split("::")[-1].strip()
        fns = self.project.host_functions(self.file, name) if self.project is not None and "." not in name \
            and "->" not in name else []
        f = next((f for f in fns if _arity_fits(f, len(args)) and len(args) <= len(f.params)), None)
        got = None
        if f is not None and all(f.params[i].pointers for i in outs):
            try:
                values = [self.env.get(outs[i], unknown(outs[i])) if i in outs else
                          self.value(self._parse(node_text(a))) for i, a in enumerate(args)]
                if all(f is not h for h in self.helpers_used):
                    self.helpers_used.append(f)
                got = evaluate_out(f, values, {f.params[i].name for i in outs}, self.project, self.budget,
                                   self.depth + 1)
            except (ExprSyntaxError, MacroError):
                got = None
        for i, var in outs.items():
            v = got.get(f.params[i].name) if got is not None and f is not None else None
            if v is not None and not (isinstance(v, ir.Sym) and v.kind == "unknown"):
                self.env[var] = v
            elif isinstance(self.env.get(var), tuple):
                self.env[var] = unknown(var)        # a `dim3` the helper sets as cudalint cannot follow
            else:
                self.forget(var)

    # ---- statements --------------------------------------------------------------------------
    def _structured_binding(self, target, value) -> None:
        """`auto [H, K] = shape;` with `shape` a parameter of a struct type: `shape.H`, `shape.K`."""
        names = [node_text(c) for c in target.named_children if c.type == "identifier"]
        text = node_text(value).strip() if value is not None else ""
        host = getattr(getattr(self, "site", None), "host", None)
        ptype = next((p.type_name for p in (host.params if host is not None else ()) if p.name == text), None)
        fields = None
        if ptype is not None and self.project is not None and self.file is not None:
            fields = self.project.types_for(self.file).fields_of(ptype)
        for i, name in enumerate(names):
            if fields and i < len(fields):
                try:
                    self.env[name] = self.value(self._parse(f"{text}.{fields[i]}"))
                    continue
                except (ExprSyntaxError, MacroError):
                    pass
            self.forget(name)

    def declaration(self, node) -> None:
        type_node = node.child_by_field_name("type")
        tname = node_text(type_node).strip() if type_node is not None else ""
        for d in node.children_by_field_name("declarator"):
            if d.type == "function_declarator" and (tname == "dim3" or _integer_type(tname)):
                # `dim3 block(TILE, TILE);`, `int threads(CU1DBLOCK);` parse as function declarations (C++'s
                # vexing parse); in a function's body they are variables
                name = node_text(d.child_by_field_name("declarator"))
                params = d.child_by_field_name("parameters")
                try:
                    args = [self.value(self._parse(node_text(a))) for a in params.named_children]
                    if tname == "dim3":
                        self.env[name] = _dim3(args)
                    elif len(args) == 1 and isinstance(args[0], ir.Expr):
                        self.env[name] = args[0]
                    else:
                        self.forget(name)
                except (ExprSyntaxError, MacroError):
                    self.forget(name)
                continue
            if d.type == "identifier" and tname == "dim3":
                self.env[node_text(d)] = ("dim3", [ir.Num(1), ir.Num(1), ir.Num(1)])   # dim3's constructor
                continue
            if d.type != "init_declarator":
                if d.type == "identifier":      # `int x;`: a new, unknown value
                    self.forget(node_text(d))
                elif d.type == "pointer_declarator":     # `unsigned int *p;`: what `sizeof(*p)` is
                    inner = d.child_by_field_name("declarator")
                    if inner is not None and inner.type == "identifier":
                        self.pointees[node_text(inner)] = tname
                continue
            target = d.child_by_field_name("declarator")
            value = d.child_by_field_name("value")
            if target is not None and target.type == "structured_binding_declarator":
                self._structured_binding(target, value)
                continue
            name = node_text(target).lstrip("*& ")
            if target is not None and target.type == "pointer_declarator":
                self.pointees[name] = tname
            try:
                if value.type in ("argument_list", "initializer_list"):     # dim3 grid(a, b) / grid{a, b}
                    args = [self.value(self._parse(node_text(a))) for a in value.named_children]
                    if tname == "dim3":
                        self.env[name] = _dim3(args)
                    else:
                        self.env[name] = args[0] if len(args) == 1 else unknown(name)
                else:
                    v = self.value(self._parse(node_text(value)))
                    if isinstance(v, ir.Sym) and v.kind == "unknown":
                        # `const int threads = state.get_int64("Threads");`: a value the host code does
                        # not let cudalint compute is open, under the variable's own name
                        self.forget(name)
                        continue
                    if tname == "dim3" and not isinstance(v, tuple):
                        v = ("dim3", [v])
                    self.env[name] = v
            except (ExprSyntaxError, MacroError):
                self.forget(name)

    def assign(self, e: ir.Assign) -> None:
        t = e.target
        if isinstance(e.value, ir.Assign) and e.op == "=":
            # `N = M = K = 2048;`: the inner assignment first, its target's value is this one's
            self.assign(e.value)
            e = ir.Assign(e.op, t, e.value.target)
        if isinstance(t, ir.Member) and isinstance(t.base, ir.Name) and t.field in ("x", "y", "z"):
            cur = self.env.get(t.base.name)
            if isinstance(cur, tuple):
                self.env[t.base.name] = with_edge(cur, t.field, self.value(e.value) if e.op == "=" else
                                                  unknown(t.base.name))
        elif isinstance(t, ir.Name):
            if e.op == "=":
                self.env[t.name] = self.value(e.value)
            elif e.op[:-1] in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"):
                cur = self.env[t.name] if t.name in self.env else self.value(t)
                v = self.value(e.value)
                self.env[t.name] = ir.Bin(e.op[:-1], cur, v) if isinstance(cur, ir.Expr) and \
                    isinstance(v, ir.Expr) else unknown(t.name)
            else:
                self.env[t.name] = unknown(t.name)

    def expression(self, node) -> None:
        """An expression statement: an assignment changes a value; a call changes the variables it is
        given the addresses of (`out_call`), and is otherwise read for nothing."""
        text = node_text(node)
        if node.type == "call_expression":
            self.mutating_call(node)
            return
        if "=" not in text and "++" not in text and "--" not in text:
            return
        try:
            e = self._parse(text)
        except (ExprSyntaxError, MacroError):
            return
        if isinstance(e, ir.Assign):
            self.assign(e)


def _integer_type(tname: str) -> bool:
    from ..source.cufile import INT_WORDS
    words = tname.replace("const", " ").split()
    return bool(words) and all(w in INT_WORDS or w in ("unsigned", "signed", "long", "short") for w in words)


def _const_param(p) -> bool:
    return p.node is not None and any(c.type == "type_qualifier" and node_text(c) == "const" for c in p.node.children)


def _out_arguments(args: list) -> dict[int, str]:
    """The arguments that are a variable's address (`&dimGrid`), by place."""
    out = {}
    for i, a in enumerate(args):
        t = node_text(a).strip()
        if t.startswith("&") and t[1:].strip().isidentifier():
            out[i] = t[1:].strip()
    return out


def _uncast(e: ir.Expr) -> ir.Expr:
    """An integer expression under a conversion to floating point: `(double)n`, `1.0 * n`, `n * 1.0f`."""
    while True:
        if isinstance(e, ir.Cast):
            e = e.expr
        elif isinstance(e, ir.Bin) and e.op == "*" and ir.Num(1.0) in (e.left, e.right):
            e = e.right if e.left == ir.Num(1.0) else e.left
        else:
            break
    if isinstance(e, ir.Num) and isinstance(e.value, float) and e.value.is_integer():
        return ir.Num(int(e.value))
    return e


def _arity_fits(f: FunctionDef, n: int) -> bool:
    if f.body is None or (n > len(f.params) and variadic_pack(f) is None):
        return False
    return all(p.node is not None and p.node.type == "optional_parameter_declaration" for p in f.params[n:])


def variadic_pack(f: FunctionDef) -> str | None:
    """The name of a function's trailing parameter pack (`Args... args`), None without one."""
    got = f.__dict__.get("_pack", False)
    if got is not False:
        return got
    got = None
    decl = f.node.child_by_field_name("declarator") if f.node is not None else None
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    params = decl.child_by_field_name("parameters") if decl is not None else None
    last = params.named_children[-1] if params is not None and params.named_children else None
    if last is not None and last.type == "variadic_parameter_declaration":
        names = [c for c in last.named_children if c.type in ("variadic_declarator", "identifier")]
        if names:
            got = node_text(names[-1]).lstrip(". ").strip() or None
    f.__dict__["_pack"] = got
    return got


class _Stop(Exception):
    """A statement the evaluation does not follow."""


_THROW = object()       # an arm that throws (or aborts): no value comes out of it


class FunctionScope(HostScope):
    """A host helper's body, run on its arguments' values."""

    def __init__(self, fn: FunctionDef, project, budget: Budget, depth: int):
        constants = project.constants_for(fn.file) if project is not None and fn.file is not None else {}
        super().__init__(fn.file, fn.line, constants, project, budget, depth)
        self.fn = fn

    outs: frozenset = frozenset()     # pointer parameters the caller passed a variable's address to

    def assign(self, e: ir.Assign) -> None:
        """Stores through an out parameter: `grid->x = n`, `(*grid).x = n`, `*n = 4` (see out_call)."""
        t = e.target
        if isinstance(t, ir.Member) and isinstance(t.base, ir.Deref):
            t = ir.Member(t.base.expr, t.field, True)
        if isinstance(t, ir.Member) and t.arrow and isinstance(t.base, ir.Name) and t.base.name in self.outs:
            e = ir.Assign(e.op, ir.Member(t.base, t.field), e.value)
        elif isinstance(t, ir.Deref) and isinstance(t.expr, ir.Name) and t.expr.name in self.outs:
            e = ir.Assign(e.op, t.expr, e.value)
        super().assign(e)

    def value(self, e: ir.Expr):
        if isinstance(e, ir.Member) and isinstance(e.base, ir.Name) and e.arrow and e.base.name in self.outs:
            e = ir.Member(e.base, e.field)
        elif isinstance(e, ir.Deref) and isinstance(e.expr, ir.Name) and e.expr.name in self.outs:
            e = e.expr
        return super().value(e)

    def fork(self) -> "FunctionScope":
        other = FunctionScope.__new__(FunctionScope)
        other.__dict__.update(self.__dict__)
        other.env = dict(self.env)
        other.pointees = dict(self.pointees)
        return other

    def run(self, stmts: list):
        """The value the statements return; None when they fall through; _THROW when they throw."""
        for i, s in enumerate(stmts):
            self.budget.spend()
            if self.file is not None:
                self.macros = self.file.macros.at(s.start_point[0] + 1)
            t = s.type
            if t == "declaration":
                self.declaration(s)
            elif t == "expression_statement":
                if s.named_children:
                    self.expression(s.named_children[0])
            elif t == "return_statement":
                kids = [c for c in s.named_children if c.type != "comment"]
                if not kids:
                    return unknown("return")
                try:
                    return self.value(self._parse(node_text(kids[0])))
                except (ExprSyntaxError, MacroError):
                    return unknown("return")
            elif t == "throw_statement":
                return _THROW
            elif t == "compound_statement":
                got = self.run(list(s.named_children))
                if got is not None:
                    return got
            elif t == "if_statement":
                got = self._if(s, stmts[i + 1:])
                if got is not _FALLTHROUGH:
                    return got
            elif t in ("comment", "empty_statement", "static_assert_declaration", "using_declaration",
                       "alias_declaration", "type_definition"):
                continue
            else:
                raise _Stop(t)
        return None

    def _if(self, s, rest: list):
        cond = s.child_by_field_name("condition")
        then, other = s.child_by_field_name("consequence"), s.child_by_field_name("alternative")
        if other is not None and other.type == "else_clause":
            other = other.named_children[0] if other.named_children else None
        try:
            c = self.value(self._parse(node_text(cond).strip()))
        except (ExprSyntaxError, MacroError):
            raise _Stop("if") from None
        known = fold(c)
        if known is not None:
            arm = then if known else other
            got = self.run([arm]) if arm is not None else None
            return _FALLTHROUGH if got is None else got
        a, b = self.fork(), self.fork()
        ra = a.run([then])
        rb = b.run([other]) if other is not None else None
        if ra is None and rb is None:           # both arms fall through: values merge
            for k in set(a.env) | set(b.env):
                va, vb = a.env.get(k), b.env.get(k)
                if va == vb:
                    self.env[k] = va
                elif isinstance(va, ir.Expr) and isinstance(vb, ir.Expr) and isinstance(c, ir.Expr):
                    self.env[k] = ir.Cond(c, va, vb)
                else:
                    self.env[k] = unknown(k)
            return _FALLTHROUGH
        if ra is None:
            a_rest = a.run(rest)
            ra = a_rest if a_rest is not None else unknown("return")
        if rb is None:
            b_rest = b.run(rest)
            rb = b_rest if b_rest is not None else unknown("return")
        if ra is _THROW:
            return rb
        if rb is _THROW:
            return ra
        if isinstance(ra, ir.Expr) and isinstance(rb, ir.Expr) and isinstance(c, ir.Expr):
            return ir.Cond(c, ra, rb)
        return unknown("if")


_FALLTHROUGH = object()


def evaluate_call(fn: FunctionDef, args: list, project, budget: Budget, depth: int):
    """The value a host helper returns for these argument values (open when it cannot be followed)."""
    if depth > MAX_DEPTH or fn.body is None:
        return unknown(f"{fn.name}(...)")
    scope = FunctionScope(fn, project, budget, depth)
    try:
        for p, v in zip(fn.params, args):
            scope.env[p.name] = v
        for p in fn.params[len(args):]:
            default = p.node.child_by_field_name("default_value") if p.node is not None else None
            if default is None:
                return unknown(f"{fn.name}(...)")
            scope.env[p.name] = scope.value(scope._parse(node_text(default)))
        got = scope.run(list(fn.body.named_children))
    except (_Stop, OutOfBudget, ExprSyntaxError, MacroError, RecursionError):
        return unknown(f"{fn.name}(...)")
    if got is None or got is _THROW:
        return unknown(f"{fn.name}(...)")
    return got


def evaluate_out(fn: FunctionDef, args: list, outs: set[str], project, budget: Budget, depth: int) -> dict | None:
    """The values a helper leaves in its out parameters (`outs`, pointers the caller passed a
    variable's address to) for these argument values; None when it cannot be followed."""
    if depth > MAX_DEPTH or fn.body is None:
        return None
    scope = FunctionScope(fn, project, budget, depth)
    scope.outs = frozenset(outs)
    try:
        for p, v in zip(fn.params, args):
            scope.env[p.name] = v
        got = scope.run(list(fn.body.named_children))
    except (_Stop, OutOfBudget, ExprSyntaxError, MacroError, RecursionError):
        return None
    if got is _THROW:
        return None
    return {p: scope.env.get(p) for p in outs}


def substitute(e: ir.Expr, mapping: dict) -> ir.Expr:
    """`e` with each subexpression that is a key of `mapping` replaced by its value."""
    if e in mapping:
        return mapping[e]
    match e:
        case ir.Bin(op=op, left=l, right=r):
            return ir.Bin(op, substitute(l, mapping), substitute(r, mapping))
        case ir.Un(op=op, operand=o):
            return ir.Un(op, substitute(o, mapping))
        case ir.Cond(cond=c, then=a, other=b):
            return ir.Cond(substitute(c, mapping), substitute(a, mapping), substitute(b, mapping))
        case ir.Call(fn=fn, args=args, targs=targs):
            return ir.Call(fn, tuple(substitute(a, mapping) for a in args), targs)
        case ir.Cast(type=t, expr=x):
            return ir.Cast(t, substitute(x, mapping))
    return e
