"""Loops of a kernel's walk: each `for` / `while` becomes an Iterator (its trip counter, step and
condition), and the variables the body carries from one iteration to the next are followed."""
from __future__ import annotations

import bisect
import functools
import re

from ..index import ir
from ..index.parse import ExprSyntaxError
from ..preprocess.macros import MacroError
from ..source.cufile import condition_of, node_text
from .table import AREA, Iterator, SLIDE, short_text as _short
from .symbols import Ptr, Unfollowable, _data, _scale

_WORD = re.compile(r"[A-Za-z_]\w*")


class Loops:
    """Loops: `for` and `while` become Iterators with a trip counter; carried updates are followed."""

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
        var, step, more = None, None, []
        if update is not None:
            upd = self._parse(node_text(update))
            for a in _assignments(upd):
                if var is None and isinstance(a.target, ir.Name):
                    var, step = a.target.name, a
                else:
                    more.append(a)      # `i++, in += 2`: the update's other steps
        self._loop(node, var, step, cond_node, body, "for", more)

    def range_for(self, node) -> None:
        """`for (auto& v : items)`: a loop whose count the model does not know, its variable each
        element in turn (a value the model does not follow); the range is read where it is an expression."""
        right = node.child_by_field_name("right")
        if right is not None and right.type != "initializer_list":
            self.expression(right, node)
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type not in ("identifier", "structured_binding_declarator"):
            decl = decl.child_by_field_name("declarator") or next(
                (c for c in decl.named_children if c.type in ("identifier", "reference_declarator",
                                                               "pointer_declarator")), None)
        names = [decl] if decl is not None and decl.type == "identifier" else \
            [c for c in (decl.named_children if decl is not None else ()) if c.type == "identifier"]
        for n in names:
            self.env[node_text(n)] = ir.Sym(node_text(n), "unknown")
        self._loop(node, None, None, None, node.child_by_field_name("body"), "while")

    def while_statement(self, node) -> None:
        cond_node = node.child_by_field_name("condition")
        if cond_node is not None and cond_node.type in ("parenthesized_expression", "condition_clause"):
            cond_node = condition_of(cond_node)
        body = node.child_by_field_name("body")
        self._loop(node, None, None, cond_node, body, "do" if node.type == "do_statement" else "while")

    def _loop(self, node, var, step, cond_node, body, kind, more=()) -> None:
        line = node.start_point[0] + 1
        carried = self._carried_updates(body, var, step, more)
        start = self.env.get(var) if var is not None else None
        # The trip counter is named after the loop variable when the two coincide (0, 1, 2, ...).
        unit = var is not None and var in carried and _is_unit(start, carried[var])
        name = var if unit else f"iter({var or 'loop@' + str(line)})"
        if any(o.trip.name == name for o in self.loops):
            # a loop inside one with a counter of the same name (a helper's `for (int i ...)` inlined
            # in the caller's `i` loop): another counter
            name = f"iter({var}@{line})"
        trip = ir.Sym(name, "iter", "int")
        parent = self.loops[-1] if self.loops else None
        it = Iterator(var or f"loop@{line}", trip, trip, None, line, AREA, parent)
        it.unroll = _unroll_pragma(node, getattr(self.src, "body_pragmas", None) or {})
        exits: dict[str, ir.Expr] = {}
        for name, (op, inc) in carried.items():
            cur = self.env.get(name)
            init = node.child_by_field_name("initializer") if name == var else None
            scoped = init is not None and init.type == "declaration"      # `for (int i = ...)`: i ends with it
            if not scoped and (op, inc) == ("+=", ir.Num(1)) and isinstance(cur, ir.Expr) and \
                    not self._is_data(name, cur):
                after = self._exit_value(name, cur, cond_node, body, carried)
                if after is not None:
                    exits[name] = after
            if self._is_data(name, cur):
                self.env[name] = _data(name)  # an accumulator, not an index
                continue
            value = self._step_value(cur, op, inc, trip)
            if value is None:
                # what the loop starts with is known: the first iteration reads it (`s = gid * 512`
                # before `s = (s + 16) & (size - 1)`), the later ones a value not followed
                self.env[name] = ir.Cond(ir.Bin("==", trip, ir.Num(0)), cur, ir.Sym(name, "unknown")) \
                    if isinstance(cur, ir.Expr) and ir.symbols(cur) and \
                    not any(x.kind in ("data", "unknown") for x in ir.symbols(cur)) else ir.Sym(name, "unknown")
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
        in_cond = len(self.table.accesses)
        try:
            # a do-while's test stands after its body, where its reads are reported
            at = cond_node.parent if kind == "do" and cond_node is not None and cond_node.parent is not None else node
            cond = self.condition(cond_node, at) if cond_node is not None else ir.Num(1)
        finally:
            self.cond_loop = None
        cond_reads = self.table.accesses[in_cond:] if kind == "do" else []
        it.cond = cond
        self.table.iterators.append(it)
        self.loops.append(it)
        guard_mark = len(self.guards)
        self.guards.append(cond)
        mark = len(self.table.accesses)
        if self.var_inputs and body is not None:
            # a local the body assigns holds, from the second iteration on, what the body gave it
            for n in self._assignments_under(body)[2]:
                target = n.child_by_field_name("left") or n.child_by_field_name("argument")
                for name in _WORD.findall(node_text(target) if target is not None else node_text(n)):
                    self.var_inputs.pop(name, None)
        saved_assigns = self._loop_assigns
        if body is not None:
            self._loop_assigns = (self.walk_root, body.start_byte, body.end_byte, self._assignments_under(body))
        try:
            self._scoped(lambda: self.stmt(body))
        finally:
            self._loop_assigns = saved_assigns
        for a in cond_reads:
            # `do { ... } while (c)`: the test reads after the body, every iteration
            a.seq = self._next_seq()
        it.seq_end = self._next_seq()
        del self.guards[guard_mark:]
        self.loops.pop()
        it.has_barrier = any(b.is_block for b in self.table.barriers[barriers:])
        new = self.table.accesses[mark:]
        it.moves_global = any(a.space == "global" and a.kind == "load" for a in new) and \
            any(a.space in ("shared", "local") and a.kind == "store" for a in new)
        it.kind = SLIDE if (it.grid_stride or (it.moves_global and it.has_barrier)) else AREA
        # After the loop the carried variables hold values the model does not enumerate, but for a
        # counter that stops at its bound.
        for name in carried:
            if name in exits:
                self.env[name] = exits[name]
            elif isinstance(self.env.get(name), ir.Expr):
                self.env[name] = ir.Sym(name, "unknown")

    def _exit_value(self, name: str, start: ir.Expr, cond_node, body, carried) -> ir.Expr | None:
        """The value a counter stepped by 1 holds when its loop ends: `while (h < a && h < b) ++h;`
        leaves `h` at max(start, min(a, b)), where the loop has no other way out (no `break`,
        `return`, `goto`) and its bounds do not change in it. None where that cannot be told."""
        if cond_node is None or any(w in (body.text if body is not None else b"")
                                    for w in (b"break", b"return", b"goto", b"throw")):
            return None
        try:
            cond = self._parse_node(cond_node)[0]
        except (ExprSyntaxError, MacroError):
            return None
        bounds = []
        stack = [cond]
        while stack:
            c = stack.pop()
            if c.__class__ is ir.Bin and c.op == "&&":
                stack += [c.left, c.right]
                continue
            if c.__class__ is not ir.Bin or c.op not in ("<", "<=", ">", ">="):
                return None
            op, left, right = c.op, c.left, c.right
            if right == ir.Name(name):
                op, left, right = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op], right, left
            if left != ir.Name(name) or op not in ("<", "<=") or any(n.name in carried for n in ir.of_type(right, ir.Name)):
                return None
            b = self._invariant(right)
            if b is None:
                return None
            bounds.append(b if op == "<" else ir.add(b, ir.Num(1)))
        if not bounds:
            return None
        low = bounds[0]
        for b in bounds[1:]:
            low = ir.Call("min", (low, b))
        return ir.Call("max", (start, low))

    def _is_data(self, name, cur) -> bool:
        t = self.types.get(name, "")
        t = self.types.get(t, t)
        if isinstance(cur, ir.Sym) and cur.kind == "data":
            return True
        return not isinstance(cur, Ptr) and t in ir.FLOAT_TYPES

    def _carried_updates(self, body, var, step, more=()) -> dict[str, tuple[str, object]]:
        """Variables updated in the loop by a loop-invariant step: `x += c`, `p += BK`, `s >>= 1`,
        `x ^= c`, `x %= M`, and a step wrapped around (`x += c; x %= M;`, `x = (x + c) % M`)."""
        found: dict[str, tuple[str, object]] = {}
        assigns = []
        if step is not None:
            assigns.append(step)
        assigns.extend(more)
        if body is not None:
            for n in self._assignments_under(body)[2]:
                try:
                    got = _assignments(self._parse(node_text(n)))
                except (ExprSyntaxError, MacroError):
                    continue
                # `for (int k = 0; ...; k++)` inside the body: another k, declared there
                assigns.extend(a for a in got if not (isinstance(a.target, ir.Name) and
                                                      _declared_between(n, a.target.name, body)))
        bad: dict[str, None] = {}       # in the order met: the notes about them come in this order
        updates: dict[str, list[tuple[str, object]]] = {}
        for k, a in enumerate(assigns):
            if not isinstance(a.target, ir.Name):
                continue
            name = a.target.name
            if name not in self.env:
                continue
            steps = _steps(a, name)
            if steps is None:
                bad[name] = None
                continue
            mine = updates.setdefault(name, [])
            if k == 0 and step is not None:      # the loop's own update runs after its body
                mine.extend((op, inc, True) for op, inc in steps)
            else:
                at = next((i for i, u in enumerate(mine) if u[2]), len(mine))
                mine[at:at] = [(op, inc, False) for op, inc in steps]
        for name, mine in updates.items():
            ops = [(op, inc) for op, inc, _ in mine]
            if len(ops) == 1:
                found[name] = ops[0]
            elif len(ops) == 2 and ops[0][0] in ("+=", "-=") and ops[1][0] == "%=":
                found[name] = ("wrap" + ops[0][0], (ops[0][1], ops[1][1]))
            else:
                bad[name] = None
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

    def _invariant(self, inc) -> ir.Expr | None:
        """A loop's step as a value the model follows (no load, no call but a cooperative group's
        `warp.size()`), else None."""
        for n in inc.walk():
            if isinstance(n, (ir.Subscript, ir.Deref, ir.Assign)):
                return None
            if isinstance(n, ir.Call) and (n.args or n.fn.rpartition(".")[0] not in self.groups):
                return None
        try:
            inc_v = self.rvalue(inc, None, None)
        except Unfollowable:
            return None
        if isinstance(inc_v, Ptr) or not isinstance(inc_v, ir.Expr):
            return None
        if any(s.kind in ("data", "unknown") for s in ir.symbols(inc_v)):
            return None
        return inc_v

    def _step_value(self, cur, op, inc, trip):
        if op == "?" or inc is None or cur is None:
            return None
        if op.startswith("wrap"):
            parts = []
            for x in inc:
                v = self._invariant(x)
                if v is None:
                    return None
                parts.append(v)
            inc_v = tuple(parts)
        else:
            inc_v = self._invariant(inc)
            if inc_v is None:
                return None
        if isinstance(cur, Ptr):
            if op not in ("+=", "-="):
                return None
            delta = ir.mul(trip, inc_v)
            delta = delta if op == "+=" else ir.Un("-", delta)
            return Ptr(cur.array, ir.add(cur.offset, _scale(delta, cur)), cur.view, cur.view_size)
        if not isinstance(cur, ir.Expr):
            return None
        first = ir.Bin("==", trip, ir.Num(0))
        if op.startswith("wrap"):              # `x += c; x %= M;`: (x + t * c) % M after the first iteration
            step_v, mod = inc_v
            moved = ir.add(cur, ir.mul(trip, step_v)) if op == "wrap+=" else ir.Bin("-", cur, ir.mul(trip, step_v))
            return ir.Cond(first, cur, ir.Bin("%", moved, mod))
        if op == "%=":                         # idempotent after the first iteration
            return ir.Cond(first, cur, ir.Bin("%", cur, inc_v))
        if op == "^=":                         # toggles: x, x ^ c, x, ...
            return ir.Cond(ir.Bin("&", trip, ir.Num(1)), ir.Bin("^", cur, inc_v), cur)
        if op == "+=":
            return ir.add(cur, ir.mul(trip, inc_v))
        if op == "-=":
            return ir.Bin("-", cur, ir.mul(trip, inc_v))
        if op == ">>=":
            return ir.Bin(">>", cur, ir.mul(trip, inc_v))
        if op == "<<=":
            return ir.Bin("<<", cur, ir.mul(trip, inc_v))
        if op == "ceil/=" or op in ("*=", "/=") and isinstance(inc_v, ir.Num) and inc_v.value in (2, 4, 8, 16):
            shift = ir.mul(trip, ir.Num(inc_v.value.bit_length() - 1))
            if op == "ceil/=":                 # x divided by d rounded up, t times: by d^t rounded up
                return ir.Bin(">>", ir.Bin("-", ir.add(cur, ir.Bin("<<", ir.Num(1), shift)), ir.Num(1)), shift)
            return ir.Bin("<<" if op == "*=" else ">>", cur, shift)
        return None


# ---- small helpers ---------------------------------------------------------------------------
def _unroll_pragma(node, held: dict[int, str]) -> int | None:
    """`#pragma unroll` (0) or `#pragma unroll N` (N) right before a loop; None without one. `held`:
    the pragmas the file's parse left out, by line (between a statement's head and its body)."""
    prev = node.prev_sibling
    while prev is not None and prev.type == "comment":
        prev = prev.prev_sibling
    if prev is not None and prev.type == "preproc_call":
        text = node_text(prev)
    else:
        row = node.start_point[0] - 1
        while row in held and "unroll" not in held[row]:
            row -= 1
        if row not in held:
            return None
        text = held[row]
    words = text.split()
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


def _steps(a: ir.Assign, name: str) -> list[tuple[str, ir.Expr]] | None:
    """The updates of `name` an assignment makes, as compound ones: `x += c` as is, `x = x * c` as
    `x *= c`, `x = (x + c) % M` as `x += c` then `x %= M`; None for any other assignment."""
    if a.op in ("+=", "-=", "*=", "<<=", ">>=", "/=", "%=", "^="):
        return [(a.op, a.value)]
    v, me = a.value, ir.Name(name)
    if a.op != "=" or not isinstance(v, ir.Bin):
        return None
    if v.op in ("+", "-", "*", "/", "%", "^", "<<", ">>") and v.left == me:
        return [(v.op + "=", v.right)]
    if v.op in ("+", "*", "^") and v.right == me:
        return [(v.op + "=", v.left)]
    halved = _ceil_division(v, me)
    if halved is not None:
        return [("ceil/=", ir.Num(halved))]
    if v.op == "%" and isinstance(v.left, ir.Bin) and v.left.op in ("+", "-") and v.left.left == me:
        return [(v.left.op + "=", v.left.right), ("%=", v.right)]
    return None


def _ceil_division(v: ir.Bin, me: ir.Name) -> int | None:
    """d where `v` is x divided by d rounded up, d a power of two: `(x + 1) >> 1`, `(1 + x) / 2`,
    `(x + 3) >> 2` (a tree reduction over a count that may be odd). None otherwise."""
    if v.op not in (">>", "/") or not isinstance(v.right, ir.Num) or not isinstance(v.right.value, int) or \
            not isinstance(v.left, ir.Bin) or v.left.op != "+":
        return None
    n = v.right.value
    if not 0 < n < (31 if v.op == ">>" else 1 << 30):
        return None
    d = 1 << n if v.op == ">>" else n
    if d < 2 or d & (d - 1):
        return None
    s, t = v.left.left, v.left.right
    k = t if s == me else s if t == me else None
    return d if isinstance(k, ir.Num) and k.value == d - 1 else None


def _assignments(e: ir.Expr) -> list[ir.Assign]:
    return list(ir.of_type(e, ir.Assign))


@functools.lru_cache(maxsize=1)
def _assignments_query():
    from tree_sitter import Query
    from ..source.cufile import _parser
    return Query(_parser().language, "[(assignment_expression) (update_expression)] @a")


def _declared_between(node, name: str, top) -> bool:
    """`name` is declared in a scope that holds `node` inside `top`: a `for` loop's initializer
    around it, or a declaration before it in a block around it (so the `name` it assigns is that
    declaration's, not the one `top`'s loop carries)."""
    child, cur = node, node.parent
    while cur is not None:
        if cur.type in ("for_statement", "for_range_loop"):
            init = cur.child_by_field_name("initializer") or cur.child_by_field_name("declarator")
            if init is not None and init.type == "declaration" and name in _declared_names(init):
                return True
        elif cur.type == "compound_statement":
            for c in cur.named_children:
                if c.start_byte >= child.start_byte:
                    break
                if c.type == "declaration" and name in _declared_names(c):
                    return True
        if cur.start_byte == top.start_byte and cur.end_byte == top.end_byte and cur.type == top.type:
            return False
        child, cur = cur, cur.parent
    return False


def _declared_names(decl) -> set[str]:
    out = set()
    for d in decl.children_by_field_name("declarator"):
        while d is not None and d.type not in ("identifier", "field_identifier"):
            d = d.child_by_field_name("declarator")
        if d is not None:
            out.add(node_text(d))
    return out


def _assignment_nodes(node) -> list:
    """The assignments and `++`/`--` under `node`, itself included, in the order a walk meets them
    (a parent before what it holds): found by a tree-sitter query, in C, not by a walk of every
    node in Python (for every loop, again for each loop around it)."""
    from tree_sitter import QueryCursor
    found = QueryCursor(_assignments_query()).captures(node).get("a", [])
    return sorted(found, key=lambda n: (n.start_byte, -n.end_byte))


def _is_unit(start, carried) -> bool:
    op, inc = carried
    return isinstance(start, ir.Num) and start.value == 0 and op == "+=" and inc == ir.Num(1)
