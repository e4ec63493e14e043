"""Statements and control flow of a kernel's walk: blocks and their scopes, `if` conditions that
become guards (and the early exits that guard what follows), `switch`, statement macros."""
from __future__ import annotations

import functools
import re

from ..index import ir
from ..index.parse import ExprSyntaxError
from ..preprocess.macros import MacroError
from ..source.cufile import condition_of, node_text
from ..source.types import split_top_level
from .table import Exit, short_text as _short
from . import uniform
from .symbols import Ptr, Unfollowable, _data


# an expansion that begins a statement: `do { ... } while (0)`, `if (...) ...`, `{ ... }`
_STATEMENT_START = re.compile(r"(?:do|if|for|while|switch)\b|\{")


class Statements:
    """The walk over statements: blocks, if/else (guards and early exits), switch, macro statements."""

    def stmt(self, node) -> str | None:
        """Walk one statement; return 'return'/'break'/'continue' if it always leaves."""
        t = node.type
        self.line = node.start_point[0] + 1
        try:
            if t == "compound_statement":
                return self.block(node.named_children)
            if t == "declaration":
                self.declaration(node)
            elif t == "expression_statement":
                if (m := _TEMPLATE_TYPE_DECLARATION.fullmatch(node_text(node))) is not None:
                    self.template_type_declaration(m, node)
                elif node.named_children and node.named_children[0].type == "gnu_asm_expression":
                    self.asm_statement(node.named_children[0], node)
                elif node.named_children:
                    try:
                        self.expression(node.named_children[0], node)
                    except (ExprSyntaxError, MacroError):
                        if not self.statements_macro(node):
                            raise
                    if _traps(node):
                        # `__trap();` ends the launch: nothing after it runs, and no thread that
                        # made it waits at a barrier as an exited thread does
                        return "trap"
            elif t == "if_statement":
                return self.if_statement(node)
            elif t == "for_statement":
                self.for_statement(node)
            elif t in ("while_statement", "do_statement"):
                self.while_statement(node)
            elif t == "for_range_loop":
                self.range_for(node)
            elif t == "return_statement":
                if node.named_children:
                    if self.return_scopes is not None:
                        self.return_scopes.append(self._scope(self._parse_node(node.named_children[0])[0]))
                    since = len(self.table.accesses)
                    if self.return_values is not None:
                        value = node.named_children[0]
                        expr, exact = self._parse_node(value)
                        self.return_values.append((tuple(self.guards[self.return_mark:]),
                                                   self.rvalue(expr, node, value if exact else None)))
                    else:
                        self.expression(node.named_children[0], node)
                    if self.return_axes is not None:
                        self.return_axes.append(self._return_axes(node.named_children[0], since))
                return "return"
            elif t in ("break_statement", "continue_statement"):
                return t.split("_")[0]
            elif t == "switch_statement":
                self.switch_statement(node)
            elif t == "function_definition" and self.macros.uses_macro(node_text(node).split("{", 1)[0]):
                self.macro_statement(node)
            elif t in ("labeled_statement", "case_statement", "try_statement"):
                for c in node.named_children:
                    if c.type.endswith("statement"):
                        self.stmt(c)
            elif t == "static_assert_declaration":
                self.static_assertion(node)
            elif t in ("ERROR",):
                pass  # reported as CL900 by the source stage
            elif t in ("comment", "preproc_call", "preproc_def", "preproc_function_def", "empty_statement",
                       "type_definition", "alias_declaration", "static_assert_declaration",
                       "goto_statement", "using_declaration", "template_declaration",
                       "preproc_include", "namespace_alias_definition"):
                if t in ("type_definition", "alias_declaration"):
                    self._local_type(node)
            else:
                self.note(node, f"statement of kind `{t}` is not followed by the model")
        except Unfollowable as exc:
            self.note(node, str(exc))
            self._unread_exit(node)
        except (ExprSyntaxError, MacroError) as exc:
            self.note(node, f"cannot read `{_short(node_text(node))}`: {exc}")
            self._unread_exit(node)
            self._unread_barrier(node)
        except RecursionError:
            self.note(node, "expression nested too deeply")
            self._unread_exit(node)
        return None

    def static_assertion(self, node) -> None:
        """`static_assert(TILE == 8 || TILE == 16, "...")`: no instance that fails it compiles, so a
        condition on the launch's values alone holds for every trial that is a program's."""
        cond = node.child_by_field_name("condition")
        if cond is None:
            return
        try:
            e = self.condition(cond, node)
        except (ExprSyntaxError, MacroError, Unfollowable):
            return
        names = ir.symbols(e)
        if names and all(s.kind == "param" for s in names) and e not in self.table.static_checks:
            self.table.static_checks.append(e)

    def _return_axes(self, node, since: int) -> int:
        """The threadIdx axes a helper's returned value follows (its loads recorded from `since`);
        UNKNOWN where it calls a helper whose result is not followed."""
        e = self._parse_node(node)[0]
        for c in ir.of_type(e, ir.Call):
            if c.fn in self.functions and self.call_axes.get(c.fn, uniform.UNKNOWN) < 0:
                return uniform.UNKNOWN
        return self._value_axes(e, since, None)

    def _type_traits(self, cond) -> ir.Expr | None:
        """The condition of an `if constexpr` on type traits of the instance's types
        (`std::is_same_v<T, float>`, `std::is_floating_point<T>::value`), each trait folded to 1 or
        0; None where it names none, or a type the instance does not bind."""
        if cond is None:
            return None
        text = node_text(cond)
        unknown = False

        def fold(m) -> str:
            nonlocal unknown
            args = [self._bound_type(a) for a in split_top_level(m.group(2) or m.group(3) or "")]
            if any(a is None for a in args):
                unknown = True
                return m.group(0)
            kind = m.group(1)
            if kind == "is_same" and len(args) == 2:
                return "1" if args[0] == args[1] else "0"
            if kind == "is_floating_point" and len(args) == 1:
                return "1" if args[0] in ir.FLOAT_TYPES or args[0] in ("half", "__half", "__nv_bfloat16") else "0"
            if kind == "is_integral" and len(args) == 1:
                return "1" if args[0] in ir.INT_KINDS or args[0] in ("bool", "char") else "0"
            unknown = True
            return m.group(0)
        folded, count = _TRAIT.subn(fold, text)
        if not count or unknown:
            return None
        try:
            val = self.rvalue(self._parse(folded), None, None)
        except (ExprSyntaxError, MacroError, Unfollowable):
            return None
        return val if isinstance(val, ir.Expr) else None

    def _bound_type(self, text: str) -> str | None:
        """A type as the instance binds it (`T` -> `float`, a typedef to its target), qualifiers
        dropped; None for a template type the instance leaves open."""
        words = [w for w in text.replace("&", " ").split() if w not in ("const", "volatile", "typename")]
        name = " ".join(words)
        seen = set()
        while name in self.types and name not in seen:
            seen.add(name)
            name = self.types[name]
            if not name:
                return None
        return name.replace("std::", "").strip() or None

    def asm_statement(self, asm, stmt) -> None:
        """`asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));`: its inputs are read. An instruction
        that touches no memory, no other lane and no special register (`%laneid`, `%clock`) is a
        function of its inputs: its outputs follow the threads those do (two threads that give it
        one value get one back). Otherwise, and for an output that is not a local, what it writes is
        a value the model does not follow; the statement is noted as not read."""
        code = asm.child_by_field_name("assembly_code")
        template = node_text(code) if code is not None else ""
        outputs: list[tuple[str, object]] = []
        inputs: list[tuple[str, object]] = []
        for lst in asm.named_children:
            if lst.type in ("gnu_asm_output_operand_list", "gnu_asm_input_operand_list"):
                for op in lst.named_children:
                    value, constraint = op.child_by_field_name("value"), op.child_by_field_name("constraint")
                    if value is not None:
                        (outputs if lst.type.startswith("gnu_asm_output") else inputs).append(
                            (node_text(constraint) if constraint is not None else "", value))
        if self._asm_memory(template, outputs, inputs, stmt):
            return
        pure = _ASM_IMPURE.search(template) is None
        axes, scope = 0, uniform.BLOCK
        feeds: list | None = []
        for constraint, value in inputs + [(c, v) for c, v in outputs if "+" in c]:
            e = self._parse(node_text(value))
            since = len(self.table.accesses)
            got = self.rvalue(e, stmt, None)
            a = self._value_axes(e, since, got)
            ins = self._value_inputs(e, since, got, a)
            axes = uniform.UNKNOWN if a < 0 or axes < 0 else axes | a
            scope = min(scope, self._scope(e))
            feeds = None if ins is None or feeds is None else feeds + list(ins)
        if not pure:
            axes, scope, feeds = uniform.UNKNOWN, uniform.THREAD, None
        for _, value in outputs:
            text = node_text(value).strip()
            if not text.isidentifier():
                pure = False        # a store through the operand: not followed
                continue
            self.env[text] = _data(text)
            self.var_axes[text] = axes
            self.var_scope[text] = scope
            self._set_inputs(text, None if feeds is None else tuple(feeds))
        if not pure:
            self.note(stmt, f"cannot read `{_short(node_text(stmt))}`: inline PTX the model does not follow")

    def _asm_memory(self, template: str, outputs: list, inputs: list, stmt) -> bool:
        """Inline PTX that is one load or store of shared or global memory (`st.shared.v4.u32 [%0],
        {%1, %2, %3, %4};` at `__cvta_generic_to_shared(p)`, `ld.global.nc.v2.f32 {%0, %1}, [%2];`)
        or one asynchronous copy (`cp.async.cg.shared.global [%0], [%1], 16;`): the accesses it makes,
        as wide as it says. False where it is something else, or its address is not followed."""
        text = template.strip()
        if not text.startswith('"') or not text.endswith('"'):
            return False
        body = " ".join(part.strip() for part in re.findall(r'"((?:\\.|[^"\\])*)"', text))
        body = body.replace("\\n", " ").replace("\\t", " ").strip().rstrip(";").strip()
        if ";" in body:
            return False        # several instructions
        operands = [v for _, v in outputs] + [v for _, v in inputs]
        if (m := _PTX_COPY.fullmatch(body)) is not None:
            moves = [("store", int(m.group("dst")), int(m.group("doff") or 0), "shared"),
                     ("load", int(m.group("src")), int(m.group("soff") or 0), "global")]
            width = int(m.group("bytes"))
        elif (m := _PTX_MEMORY.fullmatch(body)) is not None:
            width = int(m.group("bits")) // 8 * int(m.group("vec") or 1)
            kind = "load" if m.group("op") == "ld" else "store"
            at, off = (m.group("addr"), m.group("off")) if kind == "store" else (m.group("addr2"), m.group("off2"))
            if at is None:
                return False
            moves = [(kind, int(at), int(off or 0), m.group("space"))]
        else:
            return False
        ptrs = []
        for kind, at, off, space in moves:
            if at >= len(operands):
                return False
            e = self._parse(node_text(operands[at]))
            p = self.rvalue(e, stmt, None)
            if not isinstance(p, Ptr) or p.array.space != space or off % max(p.array.elem_size, 1):
                return False
            ptrs.append((kind, e, Ptr(p.array, ir.add(p.offset, ir.Num(off // max(p.array.elem_size, 1))),
                                      _VIEWS.get(width, f"char[{width}]"), width, p.inner)))
        for constraint, value in inputs:
            if not any(value is operands[at] for _, at, _, _ in moves):
                self.rvalue(self._parse(node_text(value)), stmt, None)      # the values stored: read
        for kind, e, p in ptrs:
            self._record(p, ir.Num(0), kind, stmt, None, e)
        for _, value in outputs:
            name = node_text(value).strip()
            if name.isidentifier():
                self.env[name] = _data(name)        # a loaded value
                self.var_axes[name] = uniform.UNKNOWN
                self.var_scope[name] = uniform.THREAD
        return True

    def _unread_exit(self, node) -> None:
        """A statement not read that may leave (`if (j >= half) return;`): what follows runs under a
        condition cudalint does not know, never as if nothing guarded it."""
        kind = _exit_kind(node)
        if kind is not None:
            self._exit_guard(ir.Sym(f"unread@{node.start_point[0] + 1}", "unknown"), node, kind)

    def _unread_barrier(self, node) -> None:
        """A statement not read that calls a block barrier (`T best = BlockReduce(temp).Reduce(v,
        max_op<T>);`, whose template argument the expression grammar does not take): the block still
        meets there, so the accesses before and after it stay ordered."""
        if node.type not in ("expression_statement", "declaration"):
            return
        for fn in _callees(node_text(node)):
            if self.barrier_call(fn, []) or self._library_barrier(fn):
                self.barrier(fn, [], node, node)
                return

    def _local_type(self, node) -> None:
        """`typedef cub::BlockReduce<float, 256> BlockReduce;`, `using real = float;` in a kernel: a type
        name (`(real)x` is a cast) standing for its target (sizes, library collectives)."""
        target = node.child_by_field_name("type")
        text = node_text(target) if target is not None else ""
        names = [node.child_by_field_name("name")] if node.type == "alias_declaration" else \
            [c for c in node.children_by_field_name("declarator") if c.type == "type_identifier"]
        for n in names:
            if n is None:
                continue
            self.type_names.add(node_text(n))
            if text:
                self.types[node_text(n)] = " ".join(w for w in text.split() if w not in ("typename", "const"))
        self._type_key = frozenset(self.type_names)

    def block(self, children) -> str | None:
        mark = len(self.guards)
        leaves = None
        children = children if isinstance(children, list) else list(children)
        skip = None
        for i, c in enumerate(children):
            if leaves is not None:
                break  # unreachable code after an unconditional return/break/continue
            if c is skip:
                continue
            if c.type == "expression_statement" and i + 1 < len(children) and self._macro_head(c):
                # `CUDA_1D_KERNEL_LOOP(i, n)` then `{ ... }`, read by tree-sitter as a call missing its `;`
                self.line = c.start_point[0] + 1
                self.macro_statement(c, children[i + 1])
                skip = children[i + 1]
                continue
            leaves = self.stmt(c)
        self._drop_guards(mark)
        return leaves

    def _macro_head(self, node) -> bool:
        """A statement that is a macro call missing its `;` whose expansion opens a loop or an `if`:
        the head of the statement after it."""
        if not node.has_error or not node.named_children or node.named_children[0].type != "call_expression":
            return False
        if not any(c.is_missing for c in node.children):
            return False
        fn = node.named_children[0].child_by_field_name("function")
        m = self.macros.get(node_text(fn)) if fn is not None else None
        return m is not None and m.body.lstrip().startswith(("for", "while", "if"))

    def _drop_guards(self, mark: int) -> None:
        """Leave a scope: its guards end here, but its early exits still bind the code after the
        enclosing `if` (collected in nested_exits for it)."""
        if len(self.guards) > mark:
            exits = self.exits
            for g in self.guards[mark:]:
                if id(g) in exits and exits[id(g)].guard is g:
                    self.nested_exits.append(exits[id(g)])
            del self.guards[mark:]

    def _scoped(self, walk):
        """Walk a loop body, a switch or a helper: exits inside end with it (break/continue are
        its own; a return there is not followed past it)."""
        saved, self.nested_exits = self.nested_exits, []
        try:
            return walk()
        finally:
            self.nested_exits = saved

    def switch_statement(self, node) -> None:
        """Each case under its test (`default` under none of the others'), running on into the next
        case's statements until a `break` (C's fall-through: `case 15: probe(j); case 7: probe(j);`);
        after the switch a variable one of the paths out changed holds, by the case taken, the value
        that path gave it (the value before the switch where no case is taken)."""
        cond_node = node.child_by_field_name("condition")
        inner = condition_of(cond_node)
        cond = self.condition(inner, node)
        body = node.child_by_field_name("body")
        cases = [c for c in (body.named_children if body is not None else ()) if c.type == "case_statement"]
        values = [c.child_by_field_name("value") for c in cases]       # None: `default`
        tests: list[ir.Expr | None] = []
        for value in values:
            test: ir.Expr | None = None
            if value is not None:
                try:
                    test = ir.Bin("==", cond, self.rvalue(self._parse(node_text(value)), node, None))
                except (ExprSyntaxError, MacroError, Unfollowable):
                    test = None
            tests.append(test)
        has_default = any(v is None for v in values)
        if has_default:
            others = [t for t, v in zip(tests, values) if v is not None]
            known = [t for t in others if t is not None]
            default = functools.reduce(lambda a, b: ir.Bin("&&", a, b), [ir.negate(t) for t in known]) \
                if known and len(known) == len(others) else None
            tests = [t if v is not None else default for t, v in zip(tests, values)]
        saved = dict(self.env)
        paths: list[tuple[ir.Expr | None, dict]] = []   # (the tests that lead there, the values left with)
        group: list[ir.Expr | None] = []        # the tests of the cases a walk runs on through
        running: dict | None = None             # the values a case that runs on into the next leaves
        for case, value, test in zip(cases, values, tests):
            if running is None:
                group, self.env = [test], dict(saved)
            else:
                # entered here (the values before the switch) or run on into from the case before
                group.append(test)
                self.env = self._merged(saved, [(test, saved), (None, running)]) if test is not None else \
                    self._merged(saved, [(None, running), (None, saved)])
            guard = functools.reduce(lambda a, b: ir.Bin("||", a, b), group) if None not in group else None
            mark = len(self.guards)
            if guard is not None:
                self.guards.append(guard)

            def walk_case(case=case, value=value):
                for c in case.named_children:
                    if c is not value and c.type.endswith(("statement", "declaration")):
                        leaves = self.stmt(c)
                        if leaves is not None:
                            return leaves
                return None
            leaves = self._scoped(walk_case)
            del self.guards[mark:]
            running = self.env if leaves is None else None
            if leaves == "break":
                paths.append((guard, self.env))
        if running is not None:
            paths.append((guard, running))
        if not has_default:
            paths.append((None, saved))         # no case taken
        self.env = self._merged(saved, paths)

    @staticmethod
    def _merged(before: dict, paths: list) -> dict:
        """The values after branches that join: one where every path gives it, else by the path's
        test (`t1 ? v1 : t2 ? v2 : v`), the last path's value the rest's; a name a path's test does
        not tell apart is unknown after."""
        if not paths:
            return dict(before)
        out = dict(before)
        for k in set().union(*(env.keys() for _, env in paths)):
            vals = [env.get(k, before.get(k)) for _, env in paths]
            first = vals[0]
            if all(v is first or v == first for v in vals):
                if first is None:
                    out.pop(k, None)
                else:
                    out[k] = first
                continue
            if all(isinstance(v, ir.Expr) for v in vals) and all(t is not None for t, _ in paths[:-1]):
                acc = vals[-1]
                for (test, _), v in zip(reversed(paths[:-1]), reversed(vals[:-1])):
                    acc = ir.Cond(test, v, acc)
                out[k] = acc
            else:
                out[k] = ir.Sym(k, "unknown")
        return out

    def macro_statement(self, node, body_node=None) -> None:
        """`CUDA_KERNEL_LOOP(i, n) { ... }` reads as a function definition until the macro is
        expanded: expand the head, re-parse it in place (same lines and columns), and walk it.
        `body_node`: the statement after a head tree-sitter read as a statement of its own."""
        if body_node is None:
            head, rest = node_text(node).split("{", 1)
            rest = " {" + rest
        else:
            head = node_text(node.named_children[0])
            gap = body_node.start_point[0] - node.end_point[0]
            rest = ("\n" * gap + " " * body_node.start_point[1] if gap > 0 else " ") + node_text(body_node)
        # the expansion on one line, then the lines the head spans: the body keeps its own lines
        expanded = self.macros.expand(head).replace("\n", " ") + "\n" * head.count("\n")
        self._walk_text(node, expanded + rest)

    def statements_macro(self, node) -> bool:
        """`SUM(8);` where `#define SUM(s) if (tid < s) { a[tid] += a[tid + s]; }`, `LOG(...);` where it
        is `do {} while (0)`: a macro used as a statement that expands to statements is walked as
        those statements (at the macro's line). False where the expansion is no statement."""
        text = node_text(node)
        if self._expanding is not None:
            return False           # already in the expansion of a macro statement: not expanded again
        if not self.macros.uses_macro(text):
            return False
        expanded = self.macros.expand(text).replace("\n", " ").strip()
        if not expanded.strip("; "):
            return True            # `DEBUG_PRINT(x);` where the build defines it as nothing: no statement
        if not (_STATEMENT_START.match(expanded) or ";" in expanded.rstrip("; ")):
            return False
        self._expanding = node       # what the expansion reads stands where the macro is used
        try:
            self._walk_text(node, expanded)
        finally:
            self._expanding = None
        return True

    def _walk_text(self, node, text: str) -> None:
        """Parse `text` (C statements standing where `node` stands: same line and column) and walk it."""
        from ..source.cufile import _parser
        row, col = node.start_point
        pad = "\n" * row if row else ""
        prefix = "void __cudalint_scope() {" if row else ""
        text = prefix + pad + " " * col + text + "}"
        tree = _parser().parse(text.encode("utf-8"))
        self._keep = getattr(self, "_keep", []) + [tree]
        body = tree.root_node.named_children[0].child_by_field_name("body") if row else tree.root_node
        if body is None:
            self.note(node, f"cannot follow the macro statement `{_short(node_text(node))}`")
            return
        saved, self.walk_root = self.walk_root, body     # a tree of its own
        try:
            for c in body.named_children:
                self.stmt(c)
        finally:
            self.walk_root = saved

    def expression(self, node, stmt) -> None:
        expr, exact = self._parse_node(node)
        self.effect(expr, stmt, node if exact else None)

    def if_statement(self, node) -> str | None:
        cond_node = node.child_by_field_name("condition")
        cond_inner = condition_of(cond_node) if cond_node is not None and cond_node.named_children else cond_node
        constexpr = any(c.type == "constexpr" for c in node.children)
        traits = self._type_traits(cond_inner) if constexpr else None
        cond = self.condition(cond_inner, node) if traits is None else traits
        if isinstance(cond, ir.Expr) and not isinstance(cond, ir.Num) and not ir.symbols(cond):
            value = self.const_int(cond)    # `8 == sizeof(uint2)` of an instance's sizes: a number
            cond = ir.Num(int(value != 0)) if value is not None else cond
        then = node.child_by_field_name("consequence")
        other = node.child_by_field_name("alternative")
        if other is not None and other.type == "else_clause":
            # `else // why` and then the statement: the comment is no statement of the else
            other = next((c for c in other.named_children if c.type != "comment"), None)
        if other is not None and traits is None and not isinstance(cond, ir.Num):
            read = self._block_uniform(cond_inner)
            if read is not None:
                self.table.block_conditions[cond] = read
        if isinstance(cond, ir.Num) and isinstance(cond.value, (int, bool)):
            # `if (nIsPow2)` with the template's `false`, `if (blockSize >= 512)` with 256: the compiler
            # keeps only the arm the instance takes (as `if constexpr` does)
            live = then if cond.value else other
            return self.stmt(live) if live is not None else None
        before = dict(self.env)
        mark, outer_exits = len(self.guards), self.nested_exits
        self.nested_exits = []
        if other is None and self._kernel_tail(node):
            # `if (i < n) { ...; __syncthreads(); ... }` at the kernel's end: the threads that fail the
            # test run nothing more and exit, as after `if (i >= n) return;` (synccheck agrees)
            self.exits[id(cond)] = Exit(cond, node.start_point[0] + 1, "return")
        # an `if constexpr` on the size of a type cudalint cannot size (`sizeof(Array<T, N>)` with a
        # `T` no launch binds): which arm an instance compiles rests on a width cudalint would choose
        constexpr = constexpr and isinstance(cond, ir.Expr) and \
            any(x.kind == "data" and x.name in ("sizeof()", "alignof()", "__alignof__()") for x in ir.symbols(cond))
        if constexpr:
            self.table.open_constexpr.append(cond)
        self.guards.append(cond)
        leaves_then = self.stmt(then) if then is not None else None
        self._drop_guards(mark + 1)
        then_exits, self.nested_exits = self.nested_exits, []
        del self.guards[mark:]
        env_then = self.env
        self.env = dict(before)
        leaves_else = None
        if other is not None:
            self.guards.append(ir.negate(cond))
            if constexpr:
                self.table.open_constexpr.append(self.guards[-1])
            leaves_else = self.stmt(other)
            self._drop_guards(mark + 1)
            del self.guards[mark:]
        else_exits, self.nested_exits = self.nested_exits, outer_exits
        env_else = self.env
        # Merge: a variable set in a branch holds `cond ? then : else` afterwards.
        merged = dict(before)
        for k in set(env_then) | set(env_else):
            a, b = env_then.get(k, before.get(k)), env_else.get(k, before.get(k))
            if leaves_then:
                merged[k] = b
            elif leaves_else:
                merged[k] = a
            elif a is b or a == b:
                merged[k] = a
            elif isinstance(a, ir.Expr) and isinstance(b, ir.Expr):
                merged[k] = ir.Cond(cond, a, b)
            elif isinstance(a, Ptr) and isinstance(b, Ptr) and a.array is b.array and a.view == b.view:
                merged[k] = Ptr(a.array, ir.Cond(cond, a.offset, b.offset), a.view, a.view_size)
            else:
                merged[k] = a if a is not None else b
            if merged[k] is None:       # set only in a branch that leaves: unknown after, as before the `if`
                del merged[k]
        self.env = merged
        if leaves_then and leaves_else:
            return leaves_then
        if leaves_then in ("return", "continue", "break", "trap"):
            self._exit_guard(ir.negate(cond), node, leaves_then)   # the rest runs only where cond is false
        elif leaves_else in ("return", "continue", "break", "trap"):
            self._exit_guard(cond, node, leaves_else)
        # `if (a) { if (b) return; }`: the rest runs where !a || !b
        for exits, taken, leaves in ((then_exits, cond, leaves_then), (else_exits, ir.negate(cond), leaves_else)):
            if leaves is None:
                for e in exits:
                    self._exit_guard(ir.Bin("||", ir.negate(taken), e.guard), None, e.kind, e.line)
        return None

    def _kernel_tail(self, node) -> bool:
        """Nothing of the kernel runs after `node` for a thread that passes over it: it is the last
        statement of the kernel's body, or of an `if` arm that is (not of a loop's body, nor of a
        helper's: the caller goes on)."""
        body = getattr(self.fn, "body", None)
        if body is None:
            return False
        cur = node
        for _ in range(64):
            nxt = cur.next_named_sibling
            while nxt is not None and nxt.type == "comment":
                nxt = nxt.next_named_sibling
            if nxt is not None:
                return False
            parent = cur.parent
            if parent is None:
                return False
            if parent.type == "compound_statement":
                if parent.start_byte == body.start_byte and parent.end_byte == body.end_byte:
                    return True
                cur = parent
            elif parent.type == "else_clause" and parent.parent is not None:
                cur = parent.parent
            elif parent.type == "if_statement":
                cur = parent
            else:
                return False
        return False

    def _exit_guard(self, guard: ir.Expr, node, kind: str, line: int = 0) -> None:
        self.guards.append(guard)
        self.exits[id(guard)] = Exit(guard, line or node.start_point[0] + 1, kind)

    def _block_uniform(self, node) -> frozenset[str] | None:
        """The arrays a condition reads where, as written, it has one value in every thread of the
        block at this step: made of the launch's values, loop counters every thread steps alike, and
        loads from addresses made of those (`conf[blockIdx.x * top_k + r] > thr`); None where it may
        differ between threads. (Where the kernel also stores to an array it reads, threads may read
        it before and after the store: races.py leaves such a condition out.)"""
        try:
            expr, _ = self._parse_node(node)
        except (Unfollowable, ExprSyntaxError, MacroError):
            return None
        if self._scope(expr) < uniform.BLOCK:
            return None
        read = set()
        for n in ir.of_type(expr, ir.Name):
            v = self.env.get(n.name)
            if isinstance(v, Ptr):
                read.add(v.array.name)
            elif n.name in self.shared_scalars:
                read.add(self.shared_scalars[n.name].array.name)
            elif n.name not in self.env:
                read.add(n.name)
        return frozenset(read)

    def condition(self, node, stmt) -> ir.Expr:
        if node is None:
            return ir.Num(1)
        expr, exact = self._parse_node(node)
        since = len(self.table.accesses)
        val = self.rvalue(expr, stmt, node if exact else None)
        if isinstance(val, ir.Expr) and uniform.thread_mask(val) < 0:
            # a test of loaded values (`if (m < tile[ty][j])`): the threads it splits, as a value's
            # axes (the addresses it loads, the locals it reads), for what is assigned under it
            self.guard_axes[val] = self._value_axes(expr, since, val)
        return val if isinstance(val, ir.Expr) else ir.Num(1)


_CALLEE = re.compile(r"([A-Za-z_][\w:]*(?:<[^<>;]*>)?\s*\([^()]*\)\s*\.\s*\w+|[A-Za-z_][\w:.]*)\s*\(")


def _callees(text: str) -> list[str]:
    """The functions a statement calls, as written before their argument lists (`__syncthreads`,
    `BlockReduce(temp).Reduce`), for a statement the expression grammar does not read."""
    return [" ".join(m.group(1).split()) for m in _CALLEE.finditer(text)]


def _exit_kind(node) -> str | None:
    """`return`, `continue` or `break` where the statement may take one out of the code after it
    (a `break`/`continue` of a loop or switch inside it does not)."""
    if node.type in ("for_statement", "while_statement", "do_statement", "for_range_loop", "switch_statement",
                     "declaration", "expression_statement"):
        return "return" if node.type not in ("declaration", "expression_statement") and \
            _has(node, "return_statement", False) else None
    if node.type == "return_statement" or _traps(node):
        return "return"
    if _has(node, "return_statement", False) or any(_traps(n) for n in _statements_in(node)):
        return "return"
    for kind in ("continue", "break"):
        if _has(node, f"{kind}_statement", True):
            return kind
    return None


# calls that end the thread (and the launch with it): what follows them runs in no thread that made them
_TRAPS = frozenset(("__trap", "__builtin_trap", "__builtin_unreachable"))


def _traps(node) -> bool:
    """`__trap();`: an expression statement that calls a function that never returns."""
    if node.type != "expression_statement" or not node.named_children:
        return False
    call = node.named_children[0]
    fn = call.child_by_field_name("function") if call.type == "call_expression" else None
    return fn is not None and node_text(fn) in _TRAPS


def _statements_in(node):
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == "expression_statement":
            yield n
        elif n.type != "lambda_expression":
            stack.extend(n.named_children)


def _has(node, kind: str, stop_at_loops: bool) -> bool:
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == kind:
            return True
        if n.type == "lambda_expression" or (stop_at_loops and n.type in (
                "for_statement", "while_statement", "do_statement", "for_range_loop", "switch_statement")):
            continue
        stack.extend(n.named_children)
    return False


_TEMPLATE_TYPE_DECLARATION = re.compile(
    r"\s*(?P<type>(?:const\s+)?[A-Za-z_][\w:]*\s*<[\w\s,:*]*>)\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[^;]+?)\s*;\s*")


# inline PTX whose outputs are not a function of its inputs alone: special registers (`%laneid`,
# `%clock`, `%tid`), memory, other lanes (shuffles, votes, matrix fragments), barriers
_ASM_IMPURE = re.compile(r"%%?(?:tid|ntid|laneid|warpid|nwarpid|clock|clock64|globaltimer\w*|smid|nsmid|gridid|"
                         r"lanemask\w*|ctaid|nctaid|envreg\d+|pm\d+|dynamic_smem_size|total_smem_size)\b|"
                         r"\b(?:ld|st|atom|red|shfl|vote|bar|barrier|match|cp|mma|wmma|ldmatrix|stmatrix|redux|"
                         r"activemask|tex|tld4|suld|sust|sured|prefetch|prefetchu|mbarrier|membar|fence|isspacep|"
                         r"cvta|griddepcontrol|elect|setmaxnreg|tcgen05|wgmma|multimem)\b")


# one load or store of inline PTX: `ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];`, `st.shared.u32 [%0+4], %1;`
_PTX_MEMORY = re.compile(
    r"(?P<op>ld|st)(?:\.(?:volatile|relaxed|acquire|release|weak|mmio))?(?:\.(?:cta|cluster|gpu|sys))?"
    r"\.(?P<space>shared|global)(?:::cta)?(?:\.(?:ca|cg|cs|lu|cv|wb|wt|nc|L1::\w+|L2::\w+))*"
    r"(?:\.v(?P<vec>2|4|8))?\.(?:b|u|s|f)(?P<bits>8|16|32|64)\s+"
    r"(?:\[\s*%(?P<addr>\d+)\s*(?:\+\s*(?P<off>\d+))?\s*\]\s*,\s*(?:\{[^{}]*\}|%\d+)"
    r"|(?:\{[^{}]*\}|%\d+)\s*,\s*\[\s*%(?P<addr2>\d+)\s*(?:\+\s*(?P<off2>\d+))?\s*\])")
# an asynchronous copy of global bytes into shared memory: `cp.async.cg.shared.global [%0], [%1], 16;`
_PTX_COPY = re.compile(
    r"cp\.async\.(?:ca|cg)\.shared(?:::cta)?\.global(?:\.L2::\w+)*\s+\[\s*%(?P<dst>\d+)\s*(?:\+\s*(?P<doff>\d+))?\s*\]"
    r"\s*,\s*\[\s*%(?P<src>\d+)\s*(?:\+\s*(?P<soff>\d+))?\s*\]\s*,\s*(?P<bytes>4|8|16)(?:\s*,\s*%\d+)?")
_VIEWS = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "uint2", 16: "uint4", 32: "char[32]"}


# type traits an `if constexpr` asks of the instance's types
_TRAIT = re.compile(r"(?:\bstd\s*::\s*)?\b(is_same|is_floating_point|is_integral)"
                    r"(?:_v\s*<([^<>]*)>|\s*<([^<>]*)>\s*::\s*value)")
