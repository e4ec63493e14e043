"""Where the log goes: the model's Accesses and barriers, found again in the syntax at the spans
the model gives them, and the edits that route each through the access log.

The model is the one source of truth for what is an access and what is a barrier (their kind,
array, file, line and column); the syntax only says which characters to wrap. An Access whose
span is an expression (`A[i]`, `*(p + i)`) is wrapped there; one whose span is its statement (a
`__shared__` scalar, an index read through a macro, the pointer argument of `__ldg` or an atomic)
is wrapped at the expressions inside that statement that spell it: the same text, or a subscript
of the same array, or the scalar's name, or a function-like macro whose expansion is the access.

Each wrapped access becomes `(*__cl_addr(SITE, &(A[i]), ...))`: the real address is logged and
checked against its own buffer. Each barrier of the model advances the thread's barrier epoch:
`__syncthreads()` becomes `__cl_sync()`, `__syncwarp()` `__cl_syncwarp()`, cooperative-groups
barriers and `__syncthreads_count/and/or` are followed by the epoch's step.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..source.cufile import SourceFile, node_text

_POINTER_ARG_CALLS = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv", "atomicAdd", "atomicSub",
                      "atomicMax", "atomicMin", "atomicExch", "atomicCAS", "atomicAnd", "atomicOr", "atomicXor",
                      "atomicInc", "atomicDec", "atomicAdd_block", "atomicAdd_system", "atomicMax_block",
                      "atomicMin_block", "atomicExch_block", "atomicCAS_block"}
_NOT_EVALUATED = {"sizeof_expression", "alignof_expression", "decltype", "template_argument_list",
                  "offsetof_expression", "ERROR"}


@dataclass
class Site:
    """One instrumented place in the source, and the model Accesses it stands for."""
    id: int
    function: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str
    kind: str                      # load | store | update (load then store) | atomic
    root: str | None               # the array or pointer named at the access, as written
    pointer_arg: bool = False      # `__ldg(p)`: the site is the pointer, not the element
    check: str = "any"             # how the device checks it: buffer | array | any
    buffer: int = -1               # check == buffer: index of the kernel's pointer parameter
    array_bytes: int = 0           # check == array: bytes of the shared/local array `root`
    scalar: bool = False           # `root` is a scalar (`__shared__ int count`): its address is `&count`
    accesses: list = field(default_factory=list)
    path: str = ""
    width: int = 0                 # bytes the access moves where more than the element (a float4 view of floats)
    base: str | None = None        # the pointer the access is based on where it is a struct's member: `p.in`

    @property
    def array(self):
        return self.accesses[0].array if self.accesses else None

    @property
    def span(self) -> tuple[int, int, int, int]:
        return self.line, self.column, self.end_line, self.end_column

    @property
    def stores(self) -> bool:
        return self.kind in ("store", "update", "atomic")


@dataclass
class Edit:
    offset: int                    # byte offset in the file's text
    order: tuple                   # among edits at one offset: closing ones first, outer before inner
    text: str
    replaced: int = 0              # bytes of the original replaced


@dataclass
class FileEdits:
    """The edits of one file of the unit and what they stand for."""
    edits: list[Edit] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    barriers: int = 0
    unwrapped: list = field(default_factory=list)            # Accesses no place in the syntax stands for
    missed_barriers: list[int] = field(default_factory=list)  # lines of barrier calls the model does not hold


@dataclass
class _Candidate:
    node: object
    pointer_arg: bool
    root: str | None


def _span(node) -> tuple[int, int, int, int]:
    return node.start_point[0] + 1, node.start_point[1] + 1, node.end_point[0] + 1, node.end_point[1] + 1


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text or "")


def instrument_file(src: SourceFile, accesses: list, barriers: list, first_id: int) -> FileEdits:
    """The sites and barrier rewrites of one file: `accesses` and `barriers` are the model's
    objects that stand in this file (from every kernel of the unit; helpers repeat them)."""
    out = FileEdits()
    bodies = [f for f in src.functions if f.body is not None and (f.is_kernel or f.is_device)]
    candidates: list[_Candidate] = []
    for f in bodies:
        _collect(f.body, candidates)
    by_span = {_span(c.node): c for c in candidates}
    # one place may stand for several Accesses (a load and a store of `a[i] += x`, a helper inlined twice)
    chosen: dict[int, tuple[_Candidate, list]] = {}
    groups: dict[tuple, list] = {}
    for acc in accesses:
        groups.setdefault((acc.line, acc.column, acc.end_line, acc.end_column, acc.text, acc.array.name), []).append(acc)
    for (l1, c1, l2, c2, text, name), accs in groups.items():
        exact = by_span.get((l1, c1, l2, c2))
        found = [exact] if exact is not None else _inside(src, candidates, (l1, c1, l2, c2), text, name)
        if not found:
            out.unwrapped.extend(accs)
            continue
        for c in found:
            slot = chosen.setdefault((c.node.start_byte, c.node.end_byte), (c, []))
            slot[1].extend(a for a in accs if a not in slot[1])
    for (start, end), (c, accs) in sorted(chosen.items()):
        kinds = {a.kind for a in accs}
        atomic = any(a.atomic for a in accs)
        kind = "atomic" if atomic else "update" if kinds == {"load", "store"} else kinds.pop()
        node = c.node
        fn = _enclosing(bodies, node)
        site = Site(first_id + len(out.sites), fn.name if fn is not None else "?", *_span(node), node_text(node),
                    kind, c.root, c.pointer_arg, accesses=accs, path=src.path, base=_root(node, members=True))
        # the model reads `FETCH_FLOAT4(b[i])` as a 16-byte access of `b`; the syntax wraps the element
        wide = max(a.width for a in accs)
        if not c.pointer_arg and wide > accs[0].array.elem_size:
            site.width = wide
        elif not c.pointer_arg and 0 < wide < accs[0].array.elem_size and len({a.width for a in accs}) == 1:
            # one member of a struct element (`p[i].weight`): the log has the element's address and the
            # member's bytes, so a warp's sectors count the member, not the whole struct
            site.width = wide
        out.sites.append(site)
        depth = _depth(node)
        check = f"__CL_CHECK_{site.id}__"
        if c.pointer_arg:
            pre, post = f"__cl_addr({site.id}u, (", f"), {check})"
        else:
            pre, post = f"(*__cl_addr({site.id}u, &(", f"), {check}))"
        out.edits.append(Edit(node.start_byte, (1, depth), pre))
        out.edits.append(Edit(node.end_byte, (0, -depth), post))
    _barriers(src, bodies, barriers, out, [a.line for a in accesses])
    return out


def _collect(node, out: list[_Candidate]) -> None:
    """Every place in a function body that reads or writes memory by syntax: subscripts,
    dereferences, the pointer arguments of `__ldg`/atomics, and (for `__shared__` scalars and
    macros) plain names and calls, which are only chosen where the model puts an access."""
    t = node.type
    if t in _NOT_EVALUATED:
        return
    if t == "call_expression":
        callee = node.child_by_field_name("function")
        name = node_text(callee).split("::")[-1].split("<")[0].strip() if callee is not None else ""
        args = node.child_by_field_name("arguments")
        actual = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        if name in _POINTER_ARG_CALLS and actual:
            out.append(_Candidate(actual[0], True, _root(actual[0])))
            _address(actual[0], out)
            for a in actual[1:]:
                _collect(a, out)
            return
        out.append(_Candidate(node, False, None))          # a macro that expands to an access
    if t in ("subscript_expression",) or (t == "pointer_expression" and _op(node) == "*"):
        out.append(_Candidate(node, False, _root(node)))
        _address(node, out)
        return
    if t == "pointer_expression" and _op(node) == "&":
        _address(node.child_by_field_name("argument"), out)
        return
    if t == "field_expression" and _op(node) == "." and _member_of_name(node):
        # `s.done` of a `__shared__` struct variable: the member's own bytes
        out.append(_Candidate(node, False, _root(node)))
        return
    if t == "identifier" and not _declared_or_called(node):
        out.append(_Candidate(node, False, node_text(node)))
        return
    for c in node.named_children:
        _collect(c, out)


def _member_of_name(node) -> bool:
    """`s.a.b`: a member path from a plain name, with no subscript, call or `->` on the way."""
    while node.type == "field_expression" and _op(node) == ".":
        node = node.child_by_field_name("argument")
    return node is not None and node.type == "identifier"


def _address(node, out) -> None:
    """An address expression (`&A[i]`, `A + i`, the chain of `A[i][j]`): not an access itself, but
    its indexes and bases may hold accesses."""
    if node is None:
        return
    t = node.type
    if t == "subscript_expression":
        _address(node.child_by_field_name("argument"), out)
        idx = node.child_by_field_name("indices") or node.child_by_field_name("index")
        if idx is not None:
            _collect(idx, out)
        return
    if t == "pointer_expression" and _op(node) == "*":
        _collect(node.child_by_field_name("argument"), out)
        return
    if t == "parenthesized_expression":
        for c in node.named_children:
            _address(c, out)
        return
    if t == "identifier":
        return      # `&mean`, `A + i`'s base: names an address, reads nothing
    _collect(node, out)


def _declared_or_called(node) -> bool:
    p = node.parent
    if p is None:
        return True
    if p.type == "call_expression" and p.child_by_field_name("function") == node:
        return True
    if p.type in ("init_declarator", "declaration", "parameter_declaration", "array_declarator",
                  "pointer_declarator", "reference_declarator", "function_declarator") and \
            p.child_by_field_name("declarator") == node:
        return True
    return p.type in ("field_expression", "qualified_identifier", "labeled_statement", "goto_statement") and \
        p.child_by_field_name("argument") != node


def _inside(src: SourceFile, candidates: list[_Candidate], span, text: str, name: str) -> list[_Candidate]:
    """The places inside a statement span that spell the access: its own text first, then a
    subscript or dereference of its array, then its name (a scalar), then a macro expanding to it."""
    inner = [c for c in candidates if span[:2] <= _span(c.node)[:2] and _span(c.node)[2:] <= span[2:]]
    want = _norm(text)
    lead = _leading_name(text)
    memory = [c for c in inner if c.node.type not in ("identifier", "call_expression") or c.pointer_arg]
    same = [c for c in memory if _norm(node_text(c.node)) == want]
    if same:
        return same
    if text.isidentifier():          # a `__shared__` scalar, read or written by name
        return [c for c in inner if c.node.type == "identifier" and c.root == text]
    named = [c for c in memory if c.root is not None and c.root in (name, lead)]
    if named:
        return named
    return [c for c in inner if c.node.type in ("identifier", "call_expression") and _expands_to(src, c.node, want)]


def _expands_to(src: SourceFile, node, want: str) -> bool:
    """A function-like (or object-like) macro use whose expansion reads as the access."""
    from ..index.parse import ExprSyntaxError, parse_expr
    from ..preprocess.macros import MacroError
    text = node_text(node)
    head = text.split("(", 1)[0].strip()
    macros = src.macros.at(node.start_point[0] + 1)
    if macros.get(head) is None:
        return False
    try:
        return _norm(str(parse_expr(macros.expand(text)))) == want
    except (ExprSyntaxError, MacroError, RecursionError):
        return False


def _leading_name(text: str) -> str | None:
    m = re.match(r"\s*\**\s*\(?\s*([A-Za-z_]\w*)", text or "")
    return m.group(1) if m else None


def _enclosing(functions, node):
    for f in functions:
        if f.node.start_byte <= node.start_byte and node.end_byte <= f.node.end_byte:
            return f
    return None


def _depth(node) -> int:
    d = 0
    while node.parent is not None:
        d += 1
        node = node.parent
    return d


# ---- barriers ------------------------------------------------------------------------------------
_BARRIER_CALLS = re.compile(r"^(__syncthreads|__syncthreads_count|__syncthreads_and|__syncthreads_or|__syncwarp)$")


def _barriers(src: SourceFile, bodies, barriers: list, out: FileEdits, held_lines=()) -> None:
    """Each barrier of the model, at its line and column, advances the epoch it belongs to."""
    seen: set[tuple[int, int]] = set()
    calls = {}
    for f in bodies:
        _calls(f.body, calls)
    lines = {b.line for b in barriers} | set(held_lines)
    modeled = {f.node.start_byte for f in bodies if f.node is not None and
               any(f.node.start_point[0] < ln <= f.node.end_point[0] + 1 for ln in lines)}
    for b in barriers:
        key = (b.line, b.column)
        if key in seen:
            continue
        seen.add(key)
        node = calls.get(key)
        if node is None:
            continue
        callee = node.child_by_field_name("function")
        name = node_text(callee).split("::")[-1].strip()
        if name == "__syncthreads":
            out.edits.append(Edit(callee.start_byte, (2, 0), "__cl_sync", callee.end_byte - callee.start_byte))
        elif name == "__syncwarp":
            out.edits.append(Edit(callee.start_byte, (2, 0), "__cl_syncwarp", callee.end_byte - callee.start_byte))
        elif name.startswith("__syncthreads_"):
            depth = _depth(node)
            out.edits.append(Edit(node.start_byte, (1, depth), "__cl_epoch_after("))
            out.edits.append(Edit(node.end_byte, (0, -depth), ")"))
        elif b.collective:
            depth = _depth(node)        # a value the code uses: the epoch after it, the value kept
            out.edits.append(Edit(node.start_byte, (1, depth), "__cl_warp_after("))
            out.edits.append(Edit(node.end_byte, (0, -depth), ")"))
        elif b.scope in ("block", "warp") and node.parent is not None and \
                node.parent.type not in ("expression_statement", "comma_expression"):
            # a barrier whose value the code uses (`float sum = BlockReduce(temp).Sum(v)`): kept
            depth = _depth(node)
            helper = "__cl_epoch_kept(" if b.scope == "block" else "__cl_warp_after("
            out.edits.append(Edit(node.start_byte, (1, depth), helper))
            out.edits.append(Edit(node.end_byte, (0, -depth), ")"))
        elif b.scope in ("block", "warp"):
            depth = _depth(node)
            step = "__cl_epoch()" if b.scope == "block" else "__cl_warp_epoch()"
            out.edits.append(Edit(node.start_byte, (1, depth), "("))
            out.edits.append(Edit(node.end_byte, (0, -depth), f", {step})"))
        else:
            continue
        out.barriers += 1
    for (line, col), node in calls.items():
        callee = node.child_by_field_name("function")
        name = node_text(callee).split("::")[-1].strip()
        if not _BARRIER_CALLS.match(name) or (line, col) in seen:
            continue
        if name in ("__syncthreads", "__syncwarp") and _dead_to_the_model(node, modeled):
            # in code the model holds no barrier of (an `if constexpr` arm the instance discards, a
            # kernel no launch runs): the same call, counted as a barrier if it ever ran
            out.edits.append(Edit(callee.start_byte, (2, 0), "__cl_sync" if name == "__syncthreads" else
                                  "__cl_syncwarp", callee.end_byte - callee.start_byte))
            continue
        out.missed_barriers.append(line)


def _dead_to_the_model(node, modeled: set[int]) -> bool:
    """A call in an `if constexpr` arm, or in a function the model holds nothing of (`modeled`: the
    start bytes of those it holds an access or barrier of): code the model found never runs for the
    launches it read (the arm the instance discards, a kernel no launch runs)."""
    n = node.parent
    while n is not None:
        if n.type == "if_statement" and any(c.type == "constexpr" for c in n.children):
            return True
        if n.type == "function_definition":
            return n.start_byte not in modeled
        n = n.parent
    return False


def _calls(node, out: dict) -> None:
    if node.type == "call_expression":     # the outermost call at a place: `cg::this_thread_block().sync()`
        out.setdefault((node.start_point[0] + 1, node.start_point[1] + 1), node)
    for c in node.named_children:
        _calls(c, out)


# ---- small syntax helpers ------------------------------------------------------------------------
def _op(node) -> str:
    op = node.child_by_field_name("operator")
    return node_text(op) if op is not None else ""


def _root(node, members: bool = False) -> str | None:
    """The identifier an access is based on: `A` in `A[i]`, `reinterpret_cast<float4*>(&A[i])[0]`,
    `*(A + i)`, `s[ty][tx]`; with `members`, the member of a struct variable it is based on: `p.in`
    in `p.in[i]`, `p.view.data` in `p.view.data[i]` (None for `p->in[i]` or `p.row(r)[i]`)."""
    for _ in range(32):
        t = node.type
        if t == "identifier":
            return node_text(node)
        if members and t == "field_expression":
            return _member_path(node)
        if t in ("subscript_expression", "pointer_expression"):
            node = node.child_by_field_name("argument")
        elif t == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        elif t == "cast_expression":
            node = node.child_by_field_name("value")
        elif t == "call_expression":
            callee = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            if callee is None or args is None or not node_text(callee).split("<")[0].strip().endswith("_cast") \
                    or not args.named_children:
                return None
            node = args.named_children[0]
        elif t == "binary_expression" and _op(node) in ("+", "-"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            node = left if _root(left, members) is not None else right
        else:
            return None
        if node is None:
            return None
    return None


def _member_path(node) -> str | None:
    """`p.view.data` of a field expression made of `.` and names only."""
    parts = []
    while node.type == "field_expression":
        op = next((c for c in node.children if not c.is_named), None)
        field = node.child_by_field_name("field")
        if op is None or node_text(op) != "." or field is None:
            return None
        parts.append(node_text(field))
        node = node.child_by_field_name("argument")
        if node is None:
            return None
    if node.type != "identifier":
        return None
    return ".".join([node_text(node)] + parts[::-1])


def bind_checks(sites: list[Site], tables, kernels: dict, aliases: dict[str, str] | None = None) -> None:
    """Check a site against its own buffer where the site names a pointer parameter of its kernel
    directly (in the kernel's body); a `__shared__`/local array of known extent against that array;
    otherwise against every buffer (`any`)."""
    from .plan import pointer_members
    by_kernel = {t.kernel: t for t in tables}
    members: dict[str, list[str]] = {}
    for s in sites:
        table, fn, arr = by_kernel.get(s.function), kernels.get(s.function), s.array
        if table is None or fn is None or arr is None or table.arrays.get(arr.name) is not arr:
            continue
        if s.root != arr.name:
            # `p.in[i]` of a struct passed by value: its pointer members' buffers follow the parameters'
            if arr.space == "global" and s.base == arr.name and "." in arr.name:
                if fn.name not in members:
                    members[fn.name] = pointer_members(fn, table, aliases=aliases)
                if arr.name in members[fn.name]:
                    s.check = "buffer"
                    s.buffer = sum(1 for p in fn.params if p.pointers) + members[fn.name].index(arr.name)
            continue
        if arr.space == "global":
            pointers = [p.name for p in fn.params if p.pointers]
            if arr.name in pointers:
                s.check, s.buffer = "buffer", pointers.index(arr.name)
        elif arr.extent and not arr.size_assumed:   # a struct of unknown size (`cg::block_tile_memory`): any
            s.check, s.array_bytes = "array", arr.extent * arr.elem_size
            s.scalar = arr.scalar


def check_args(s: Site) -> str:
    width = f", {s.width}u" if s.width else ""
    if s.check == "buffer":
        return f"0, {s.buffer}, (const void*)0, 0ull{width}"
    if s.check == "array":
        # a shared scalar is its own buffer, named by its address (`atomicAdd(&count, 1)` as well)
        base = f"&({s.root})" if s.text.strip() == s.root or s.scalar else s.root
        return f"1, -1, (const void*)({base}), {s.array_bytes}ull{width}"
    return f"2, -1, (const void*)0, 0ull{width}"
