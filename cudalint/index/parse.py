"""Expression text → typed IR, read with the LALR tables and lexers lark builds from
grammars/index.lark (a Lark tree where a text is left to lark's own loop).

Source text is never evaluated: every IR node is built from the parse.
"""
from __future__ import annotations

import functools
import operator
import re

from lark import Lark, Tree
from lark.exceptions import LarkError
from lark.lexer import UnlessCallback

from ..grammar import ExprSyntaxError, _parser
from . import ir

# One index or condition, macros expanded: real ones stay under 2,000 characters; a 200,000-term
# macro body would take seconds and hundreds of MB to parse, for nothing the analysis could use.
MAX_EXPRESSION_CHARS = 20_000


MAX_LITERAL_BITS = 64


def _int_literal(text: str) -> int | float:
    if len(text) > 400:       # past any 64-bit literal; Python's int() refuses 4300 digits with an error of its own
        raise ExprSyntaxError(f"number `{text[:20]}…` has {len(text)} characters: too large for C")
    t = text.rstrip("uUlL")
    if t[:2] in ("0x", "0X", "0b", "0B"):
        v = int(t, 16 if t[1] in "xX" else 2)
    elif any(c in t for c in ".eE") or text[-1:] in "fF":
        return float(t.rstrip("fF"))       # 1e999 is inf, as a C compiler reads it (with a warning)
    else:
        v = int(t, 8) if len(t) > 1 and t.startswith("0") else int(t)
    if v >= 1 << MAX_LITERAL_BITS:     # C has no integer type for it
        raise ExprSyntaxError(f"integer literal `{text}` does not fit in 64 bits")
    return v


# C's longer spellings of one type, as the model names it (`long int` is `long`)
_TYPE_WORDS = {"unsigned int": "unsigned", "signed int": "int", "signed": "int", "short int": "short",
               "unsigned short int": "unsigned short", "long int": "long", "unsigned long int": "unsigned long",
               "long long int": "long long", "unsigned long long int": "unsigned long long",
               "long unsigned int": "unsigned long", "long double": "double"}


_REF, _ARRAY_REF = object(), object()      # `T&` and `T(&)[N]` in a cast's type


def _reference_cast(t: ir.TypeRef, x: ir.Expr, span=(0, 0)) -> ir.Expr:
    """A cast to a reference as the pointer cast it is: `reinterpret_cast<float4&>(a[i])` reads
    `*(float4*)&a[i]`; `reinterpret_cast<int4(&)[N]>(arr)` views the array as `(int4*)arr`, and
    `reinterpret_cast<int4(&)[N]>(a[k])` the elements from `a[k]` on as `(int4*)&a[k]`."""
    if t.ref == "&":
        return ir.Deref(ir.Cast(ir.TypeRef(t.name, t.pointers + 1), ir.AddrOf(x)), span)
    if t.ref:          # an array decays to its address; an element (`b[4 * i]`) is viewed from its address
        element = isinstance(x, (ir.Subscript, ir.Deref, ir.Member))
        return ir.Cast(ir.TypeRef(t.name, t.pointers + 1), ir.AddrOf(x) if element else x)
    return ir.Cast(t, x)


class _ToIR:
    """One method per rule of the grammar: (the rule's span in the text, its children already built) -> IR."""

    def number(self, span, c):
        return ir.Num(_int_literal(str(c[0])))

    def name(self, span, c):
        n = str(c[0])
        if n in ("true", "false"):
            return ir.Num(1 if n == "true" else 0)
        if n in ("nullptr", "NULL"):
            return ir.Num(0)
        return ir.Name(n)

    def scoped_name(self, span, c):
        return ir.Name(f"{c[0]}::{c[1]}")

    def string(self, span, c):
        # `"a" "b"`: adjacent literals are one
        return ir.Str(str(c[0])) if len(c) == 1 else ir.Str('"' + "".join(str(x)[1:-1] for x in c) + '"')

    char = string

    def comma(self, span, c):
        return ir.Comma(c[0], c[1])

    def assign(self, span, c):
        return ir.Assign(str(c[1]), c[0], c[2])

    def ternary(self, span, c):
        return ir.Cond(c[0], c[1], c[2])

    def _chain(op):
        def f(self, span, c):
            return ir.Bin(op, c[0], c[1])
        return f

    logor = _chain("||")
    logand = _chain("&&")
    bitor = _chain("|")
    bitxor = _chain("^")
    bitand = _chain("&")

    def binop(self, span, c):
        return ir.Bin(str(c[1]), c[0], c[2])

    def c_cast(self, span, c):
        return _reference_cast(c[0], c[1], span)

    def cxx_cast(self, span, c):
        return _reference_cast(c[1], c[2], span)

    def ref(self, span, c):
        return _REF

    def array_ref(self, span, c):
        return _ARRAY_REF

    def init_list(self, span, c):
        # `{a[i], b[j]}`: a braced initializer; its elements are read (a call the model does not follow)
        return ir.Call("{}", tuple(c[0] or ()))

    def functional_cast(self, span, c):
        args = tuple(c[1] or ())
        if len(args) == 1:
            return ir.Cast(ir.TypeRef(str(c[0])), args[0])
        return ir.Call(str(c[0]), args)

    def type_name(self, span, c):
        # its symbols are words (QUALIFIER, TYPE) and `*`s (POINTER), tokens or their text
        ref = next((t for t in c if t is _REF or t is _ARRAY_REF), None)
        c = [t for t in c if t is not ref and t is not None]
        words = [str(t) for t in c if t != "*"]
        words = [w for w in words if w not in _QUALIFIERS]
        name = " ".join(words)
        if _CAST_MARK in name:     # a name marked as a type: its text is the source's, at the same place
            words = [w for w in re.findall(r"[A-Za-z_][\w:]*" + _TEMPLATE_ARGS + "?", _source[0][span[0]:span[1]])
                     if w not in _QUALIFIERS]
            name = " ".join(words)
        name = re.sub(r"\s+", " ", name)
        name = _TYPE_WORDS.get(name, name)
        pointers = sum(1 for t in c if t == "*")
        return ir.TypeRef(name, pointers, "&" if ref is _REF else "(&)[]" if ref is _ARRAY_REF else "")

    def prefix(self, span, c):
        return ir.Assign("+=" if str(c[0]) == "++" else "-=", c[1], ir.Num(1))

    def postfix_op(self, span, c):
        return ir.Assign("+=" if str(c[1]) == "++" else "-=", c[0], ir.Num(1), post=True)

    def address_of(self, span, c):
        return ir.AddrOf(c[0])

    def deref(self, span, c):
        return ir.Deref(c[0], span)

    def neg(self, span, c):
        if isinstance(c[0], ir.Num):
            return ir.Num(-c[0].value)
        return ir.Un("-", c[0])

    def lognot(self, span, c):
        return ir.Un("!", c[0])

    def bitnot(self, span, c):
        return ir.Un("~", c[0])

    def sizeof_type(self, span, c):
        size = c[0].size
        return ir.Num(size) if size else ir.Call("sizeof", (ir.Str(str(c[0])),))

    def sizeof_expr(self, span, c):
        return ir.Call("sizeof", (c[0],))

    def subscript(self, span, c):
        return ir.Subscript(c[0], c[1], span)

    def call(self, span, c):
        fn = c[0]
        name = fn.name if isinstance(fn, ir.Name) else str(fn)
        return ir.Call(name, tuple(c[1] or ()), _template_args.get(span[0], ()))

    def member(self, span, c):
        return ir.Member(c[0], str(c[1]), False, span)

    def arrow_member(self, span, c):
        return ir.Member(c[0], str(c[1]), True, span)

    def args(self, span, c):
        return list(c)


_RULES = {name: getattr(_ToIR(), name) for name in vars(_ToIR) if not name.startswith("_")}


def _to_ir(tree: Tree):
    """The tree bottom-up through _RULES, as lark's Transformer walks it, without the wrapper it
    builds around a method at every node. Only for the texts _FastParser leaves to lark's own loop."""
    kids = [_to_ir(c) if isinstance(c, Tree) else c for c in tree.children]
    rule = _RULES.get(tree.data)
    return rule((tree.meta.start_pos, tree.meta.end_pos), kids) if rule is not None else \
        Tree(tree.data, kids, tree.meta)


# What a reduction does with the symbols it takes off the stack: a level handing its one child up
# (`?additive: multiplicative`) leaves it in place, `"(" expr ")"` hands up its middle one with the
# parentheses' extent, a `_rule` gives its list to be spliced into its parent's, any other builds IR.
_UNIT, _WIDEN, _SPLICE, _BUILD = range(4)

# A text of more nodes than this is read by lark's loop and _to_ir, whose recursion (two frames a
# level) decides, as it always has, whether it is nested too deeply; real expressions stay under 120.
_FAST_MAX_NODES = 200


class _FastParser:
    """Reads an expression with the LALR tables and the lexers lark built from index.lark, in a loop
    of its own that builds the IR at each reduction: no Token objects, no parse tree, no positions
    carried through lark's node metadata, no second walk; under a third of the time lark's loop and
    _to_ir take.

    Spans are lark's (`propagate_positions`): a node runs from the start of its first symbol to the
    end of its last one, anonymous tokens included, and a node handed up through a rule with more
    symbols (`"(" expr ")"`, `"+" cast`) takes that rule's extent. A second stack keeps the extent of
    each symbol on the parser's stack.

    A text this loop does not read to the end (a syntax error, a number C cannot hold) is left to
    lark's own loop, which raises the error cudalint has always reported, with lark's message."""

    def __init__(self, lark: Lark):
        table = lark.parser.parser.parser.parse_table
        self._start, self._end = table.start_states["start"], table.end_states["start"]
        # state -> symbol -> the state it shifts to (>= 0), or ~n for self._reductions[n]: a
        # _reduction(rule), or for a level handing its child up (1, None, _UNIT, its _Chain, None)
        self._actions: dict[int, dict[str, int]] = {}
        self._reductions: list[tuple] = []
        numbers: dict = {}
        for state, row in table.states.items():
            out = self._actions[state] = {}
            for symbol, (action, arg) in row.items():
                if str(action) == "Shift":
                    out[symbol] = arg
                else:
                    if arg not in numbers:
                        numbers[arg] = len(self._reductions)
                        self._reductions.append(_reduction(arg))
                    out[symbol] = ~numbers[arg]
        self._chain_units()
        self._lexers = _Lexers(lark.parser.lexer.lexers)
        self._lexers[self._start]       # the first one a text needs: another lark's fails here
        self._space = _ignored_space(lark.lexer_conf)

    def _chain_units(self) -> None:
        """Five reductions in six hand a child up a level of precedence, and then another, as long
        as the next token does not continue the expression at that level: each becomes one step
        through a _Chain."""
        for row in self._actions.values():
            for symbol, act in row.items():
                if act < 0 and self._reductions[~act][2] == _UNIT:
                    chain = _Chain(self, symbol, self._reductions[~act][1])
                    self._reductions.append((1, None, _UNIT, chain, None))
                    row[symbol] = ~(len(self._reductions) - 1)

    def read(self, src: str):
        """The IR of `src`, or None where lark's own loop is to read it."""
        try:
            return self._read(src)
        except Exception:       # lark's loop raises the syntax error, or _to_ir what building a node raised
            return None

    def _read(self, src: str):
        actions, reductions, lexers, end = self._actions, self._reductions, self._lexers, self._end
        space, skip = self._space, _SPACE_RUN
        UNIT, WIDEN, BUILD = _UNIT, _WIDEN, _BUILD
        state = self._start                     # the state on top of the stack
        stack = [state]
        values: list = []                       # a token is its text
        spans: list[tuple[int, int]] = []       # the extent of each value in the text
        nodes, pos, n = 0, 0, len(src)
        while True:
            if pos < n and src[pos] in space:   # what the lexer would match and drop, passed over at once
                pos = skip(src, pos).end()
            if pos < n:
                match, keywords, ignore = lexers[state]
                m = match(src, pos)
                if m is None:
                    return None
                symbol = m.lastgroup
                if symbol in ignore:
                    pos = m.end()
                    continue
                value = m.group()
                keyword = keywords.get(symbol)
                if keyword is not None:
                    symbol = keyword[value]
                start, pos = pos, m.end()
            else:
                symbol = "$END"
            row = actions[state]
            while True:
                act = row[symbol]                   # KeyError: a syntax error
                if act >= 0:
                    break
                size, origin, kind, pick, build = reductions[~act]
                if kind == UNIT:
                    state = stack[-1] = pick[stack[-2]]
                elif size == 1 and kind == BUILD:       # a node of one symbol: its extent is that symbol's
                    values[-1] = build(spans[-1], pick(values[-1:]))
                    nodes += 1
                    state = stack[-1] = actions[stack[-2]][origin]
                else:
                    s = values[-size:]
                    span = (spans[-size][0], spans[-1][1])
                    del stack[-size:], values[-size:], spans[-size:]
                    if kind == BUILD:
                        values.append(build(span, pick(s)))
                        nodes += 1
                    elif kind == WIDEN:
                        values.append(s[pick])
                    else:
                        values.append(pick(s))
                    spans.append(span)
                    state = actions[stack[-1]][origin]
                    stack.append(state)
                if state == end:
                    return values[-1] if nodes <= _FAST_MAX_NODES else None
                row = actions[state]
            if symbol == "$END":
                return None
            state = act
            stack.append(act)
            values.append(value)
            spans.append((start, pos))


_SPACE_RUN = re.compile(r"[ \t\f\r\n]+").match
_SPACE_PATTERN = "(?:[ \t\x0c\r\n])+"       # lark's common.WS, as its lexer compiles it


def _ignored_space(lexer_conf) -> frozenset[str]:
    """The characters _read passes over without asking the lexer: those of common.WS, where the
    grammar ignores it and nothing else, and no other terminal's pattern can start with one of them
    (then the lexer, in any state, matches a run of them as one WS token and drops it); none else."""
    ignored = [t for t in lexer_conf.terminals if t.name in set(lexer_conf.ignore)]
    if len(ignored) != 1 or ignored[0].pattern.to_regexp() != _SPACE_PATTERN:
        return frozenset()
    chars = " \t\f\r\n"
    for t in lexer_conf.terminals:
        if t is ignored[0]:
            continue
        pattern = re.compile(t.pattern.to_regexp(), lexer_conf.g_regex_flags)
        if any(pattern.match(c + rest) for c in chars for rest in ("", "a", "0", " ", "long")):
            return frozenset()
    return frozenset(chars)


class _Chain(dict):
    """Where the parser, in one state and before one token, hands the child on top of its stack up
    a level (`?additive: multiplicative`): the state below the child -> the state the parser is in
    once it has handed it up every level it goes (the next one's _Chain, if any, after this one).
    Found when first met."""

    def __init__(self, parser: _FastParser, symbol: str, origin: str):
        super().__init__()
        self._parser, self._symbol, self._origin = parser, symbol, origin

    def __missing__(self, under: int) -> int:
        parser = self._parser
        to = parser._actions[under][self._origin]
        then = parser._actions[to].get(self._symbol)
        if to != parser._end and then is not None and then < 0 and parser._reductions[~then][2] == _UNIT:
            to = parser._reductions[~then][3][under]
        self[under] = to
        return to


class _Lexers(dict):
    """lark's contextual lexer, state -> (match, keywords, ignored): in each state of the parser, the
    terminals that may come next (`*` is POINTER in a type name, MUL_OP after an operand) as one
    regular expression, and the keywords a NAME may spell (`sizeof`). Made for a state when it is
    first met, as lark does: compiling them all would take longer than linting a small file."""

    def __init__(self, lexers):
        super().__init__()
        self._lark = lexers         # state -> lark's BasicLexer

    def __missing__(self, state):
        basic = self._lark[state]
        (pattern,) = basic.scanner._mres
        if not all(isinstance(c, UnlessCallback) for c in basic.callback.values()):
            raise NotImplementedError("lexer callbacks")
        keywords = {name: _Keywords(name, c.scanner.fullmatch) for name, c in basic.callback.items()}
        got = self[state] = (pattern.match, keywords, basic.ignore_types)
        return got


class _Keywords(dict):
    """What lark's lexer makes of a word its terminal matched (a NAME that spells `sizeof` is that
    keyword): the word -> the keyword's terminal, or the terminal itself; asked of lark once a word."""

    def __init__(self, terminal: str, fullmatch):
        super().__init__()
        self._terminal, self._fullmatch = terminal, fullmatch

    def __missing__(self, word: str) -> str:
        got = self[word] = self._fullmatch(word) or self._terminal
        return got


def _reduction(rule) -> tuple:
    """(size, origin, kind, pick, build) for one rule of the grammar: lark's child filter
    (parse_tree_builder.maybe_create_child_filter) worked out once. The symbols kept are those that
    are not anonymous tokens; an absent `[item]` stands as None; the symbols of a `_rule`
    (`("," assign)*`) are spliced into its parent's. NotImplementedError for a shape this grammar
    does not have."""
    expansion, options = rule.expansion, rule.options
    name = rule.alias or options.template_source or rule.origin.name
    if not expansion or options.keep_all_tokens:
        raise NotImplementedError(name)
    nones = [0] * (len(expansion) + 1)          # how many Nones stand before each symbol, and after
    if options.empty_indices:
        nones = [len(ones) for ones in "".join("01"[e] for e in options.empty_indices).split("0")]
    kept, pending = [], 0       # (index in the expansion, spliced, Nones before it)
    for i, symbol in enumerate(expansion):
        pending += nones[i]
        if not (symbol.is_term and symbol.filter_out):
            kept.append((i, not symbol.is_term and symbol.name.startswith("_"), pending))
            pending = 0
    trailing = pending + nones[-1]
    size, origin = len(expansion), rule.origin.name
    if options.expand1 and not rule.alias and len(kept) + trailing <= 1:
        if len(kept) != 1 or kept[0][1] or kept[0][2] or expansion[kept[0][0]].is_term:
            raise NotImplementedError(name)
        return (size, origin, _UNIT if size == 1 else _WIDEN, kept[0][0], None)
    if any(spliced or before for _, spliced, before in kept) or trailing:
        pick = functools.partial(_kept, kept, trailing)
    elif not kept:                         # `type_ref: "&"`: the rule's name is all it says
        pick = _nothing
    elif len(kept) == 1:
        pick = operator.itemgetter(slice(kept[0][0], kept[0][0] + 1))
    else:
        pick = operator.itemgetter(*(i for i, _, _ in kept))
    if origin.startswith("_"):
        if options.expand1:
            raise NotImplementedError(name)
        return (size, origin, _SPLICE, pick, None)
    if name not in _RULES:
        raise NotImplementedError(name)
    return (size, origin, _BUILD, pick, _RULES[name])


def _nothing(s):
    return ()


def _kept(kept, trailing, s):
    """The kept symbols of a reduction where an absent [item] stands as None or a `_rule` is spliced."""
    out: list = []
    for i, spliced, before in kept:
        out += [None] * before
        if not spliced:
            out.append(s[i])
        elif out:
            out += s[i]
        else:       # left recursion (`__args_star_0: __args_star_0 "," assign`): its list grows
            out = s[i]
    return out + [None] * trailing if trailing else out


@functools.lru_cache(maxsize=None)
def _fast_parser() -> _FastParser | None:
    """None where lark keeps its tables or lexers otherwise than lark 1.3 does, or the grammar has a
    shape _reduction does not know: every text is then read by lark's loop."""
    try:
        return _FastParser(_parser("index.lark"))
    except Exception:
        return None


_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def strip_comments(text: str) -> str:
    """Comments inside an expression become spaces of the same length (offsets stay exact)."""
    if "/" not in text:
        return text
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


# `SharedMemory<T>()`, `warpReduce<float, 32>(v)`, `cg::tiled_partition<32>(block)`: a call with
# template arguments (names, numbers, `::`, `*`, no operators); `static_cast<T>(x)` is a cast.
_TEMPLATE_CALL = re.compile(r"\b(?P<name>[A-Za-z_][\w:]*)\s*(?P<args><[\w\s,:*\xa7]*>)(?=\s*(?:::\s*[A-Za-z_]\w*\s*)?[({])")


# template arguments of the calls of the expression being transformed, by the call's start
_template_args: dict[int, tuple[str, ...]] = {}


def _drop_template_arguments(src: str, original: str) -> str:
    """A call's template arguments become spaces (offsets stay exact) and are kept aside, by the
    call's position, for the Call node (`_template_args`), as `original` (the text before names were
    marked as types, of the same length) writes them."""
    def blank(m):
        if m.group("name").endswith("_cast") or m.group("name").split("::")[-1] in ("sizeof", "alignof"):
            return m.group(0)
        args = m.group("args")
        inner = original[m.start("args") + 1:m.end("args") - 1]
        _template_args[m.start("name")] = tuple(a.strip() for a in inner.split(",") if a.strip())
        return m.group(0)[: m.start("args") - m.start()] + " " * len(args)
    return _TEMPLATE_CALL.sub(blank, src)


# `(T)y`, `(real)(a + b)`, `(Acc *)p`, `(glm::vec3*)p`: a parenthesized name followed by an operand,
# or by `*`s and `)` (a qualified name by those alone), is a C-style cast whatever the unit says of
# the name (a parenthesized expression cannot be followed by an operand, nor hold a name and a
# trailing `*`). Not after a name or `)`/`]` (a call's arguments), nor a name the language keeps for
# itself.
_CAST_OF_NAME = re.compile(
    r"(?<![\w\])\]])(\(\s*(?:const\s+)?)(?!(?:sizeof|alignof|return|const|volatile|case|new|delete|throw)\b)"
    r"(?:([A-Za-z_]\w*)"
    r"(?=(?:\s*\*+\s*(?:const\s*|__restrict__\s*)*\))|\s*\)\s*(?:[A-Za-z_0-9'\"(!~]|\.\d))"
    # a qualified name only with a pointer's `*` (`(std::max)(a, b)` calls a function)
    r"|([A-Za-z_]\w*(?:::[A-Za-z_]\w*)+)(?=\s*\*+\s*(?:const\s*|__restrict__\s*)*\)))")

_TRAILING_COMMA = re.compile(r",(\s*\})")

_CAST_MARK = "\xa7"
# a template argument list of types and numbers, one level of nesting (`<float>`, `<Pair<K, V>, 4>`)
_TEMPLATE_ARGS = r"(?:\s*<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)"
# `sizeof(Array<T, N>)`: a class template's instance in `sizeof`/`alignof` is a type (marked as one)
_SIZEOF_TEMPLATE = re.compile(r"(\b(?:sizeof|alignof|__alignof__)\s*\(\s*(?:const\s+)?)"
                              r"((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*" + _TEMPLATE_ARGS + r")(?=\s*\**\s*\))")
_QUALIFIERS = ("const", "volatile", "__restrict__", "__restrict", "restrict")
_source = [""]          # the text being parsed, before names were marked as types


def _mark(m: re.Match) -> str:
    name = m.group(2) or m.group(3)
    return m.group(1) + _CAST_MARK * len(name)


_LINE_SPLICE = re.compile(r"\\[ \t]*\r?\n")

_PARSED: dict = {}          # (text, type names) -> IR or the error: one parse per distinct text a run
_PARSED_MAX = 50_000


def parse_expr(text: str, type_names: frozenset[str] = frozenset()) -> ir.Expr:
    """Parse one C expression. `type_names` are identifiers known to name types
    (template type parameters, typedefs) so that `(T)x` parses as a cast. The IR is immutable, so
    a text parsed once (a loop body read again for every loop around it) is not parsed again."""
    key = (text, type_names)
    got = _PARSED.get(key)
    if got is None:
        try:
            try:
                got = _parse_expr(text, type_names)
            except ExprSyntaxError:
                got = _parse_shadowing(text, type_names)
        except ExprSyntaxError as exc:
            # kept as a message alone: its traceback and the lark error it replaced hold frames,
            # and through them every caller's locals (a kernel's table and simulation), for as
            # long as the text stays here
            got = ExprSyntaxError(str(exc))
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = got
    if isinstance(got, ExprSyntaxError):
        raise ExprSyntaxError(str(got))
    return got


# type names that are no keywords of C++: a kernel may name a variable so (`int half = dim / 2;`)
_SHADOWABLE = re.compile(r"\b(?:__)?(?:half2?|nv_bfloat162?|size_t|ssize_t|ptrdiff_t|u?int(?:8|16|32|64)_t)\b")


def _parse_shadowing(text: str, type_names: frozenset[str]) -> ir.Expr:
    """An expression that reads only once a type name in it is read as a variable's name: where
    `j >= half` does not parse with `half` the type, `half` is a variable of that name."""
    failed = None
    for word in sorted(set(_SHADOWABLE.findall(text))):
        # a name of the same length (the spans of the accesses stay exact) that the text does not hold
        alias = next((a for a in (c + word[1:] for c in "QZXJ") if not re.search(r"\b" + a + r"\b", text)), None)
        if alias is None:
            continue
        try:
            got = _parse_expr(re.sub(r"\b" + re.escape(word) + r"\b", alias, text), type_names)
        except ExprSyntaxError as exc:
            failed = failed or exc
            continue
        return _renamed(got, alias, word, {})
    raise ExprSyntaxError(str(failed)) if failed else _first_error(text, type_names)


def _first_error(text: str, type_names: frozenset[str]) -> ExprSyntaxError:
    try:
        _parse_expr(text, type_names)
    except ExprSyntaxError as exc:
        return exc
    return ExprSyntaxError("cannot read")


def _renamed(e, alias: str, word: str, done: dict):
    """`e` with the name `alias` read back as `word` (nodes are shared: each is rebuilt once)."""
    if not isinstance(e, ir.Expr):
        if isinstance(e, tuple):
            return tuple(_renamed(x, alias, word, done) for x in e)
        return e
    got = done.get(id(e))
    if got is not None:
        return got
    if isinstance(e, ir.Name):
        got = ir.Name(word) if e.name == alias else e
    else:
        got = object.__new__(type(e))
        got.__dict__.update({k: _renamed(v, alias, word, done) for k, v in e.__dict__.items()
                             if not k.startswith("_")})
    done[id(e)] = got
    return got


# `::exp(x)`: a name of the global namespace is that name (blanked, so that spans stay where they are)
_GLOBAL_SCOPE = re.compile(r"(?<![\w)\]>:])::(?=\s*[A-Za-z_])")


def _lambdas_blanked(text: str) -> str:
    """`Reduce(v, [](float a, float b) { return a + b; })`: a lambda is a value cudalint does not
    follow, read as the name `__lambda` (its span blanked around it, so that spans stay where they are)."""
    out, i, n = [], 0, len(text)
    while i < n:
        j = text.find("[", i)
        if j < 0:
            break
        before = text[:j].rstrip()
        if before and before[-1] not in "(,=?:{" and not before.endswith("return"):
            out.append(text[i:j + 1])       # a subscript
            i = j + 1
            continue
        end = _lambda_end(text, j)
        if end is None:
            out.append(text[i:j + 1])
            i = j + 1
            continue
        out.append(text[i:j])
        width = end - j
        out.append("__lambda".ljust(width) if width >= 8 else "__lambda")
        i = end
    out.append(text[i:])
    return "".join(out)


def _lambda_end(text: str, j: int) -> int | None:
    """The end of the lambda starting at `text[j] == '['`: captures, parameters, then a braced body."""
    k = balanced(text, j, "[", "]")
    if k is None:
        return None
    rest = text[k:].lstrip()
    k = len(text) - len(rest)
    if rest.startswith("("):
        k = balanced(text, k, "(", ")")
        if k is None:
            return None
    brace = text.find("{", k)
    if brace < 0 or not re.fullmatch(r"[\s\w:<>&*,\->]*", text[k:brace]):
        return None
    return balanced(text, brace, "{", "}")


def balanced(text, start: int, open_: str, close: str) -> int | None:
    """The offset just past the bracket that closes the one at `start` (`open_` there), in a text
    or its bytes; None where it is not closed."""
    if isinstance(text, bytes):
        open_, close = ord(open_), ord(close)      # (a byte of bytes is a number)
    depth = 0
    for k in range(start, len(text)):
        c = text[k]
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return k + 1
    return None


# `std::is_same<T, half2>::value`, `Packed128<float>::size`: a member of a class template's
# instance, read as the member of the template (`Packed128::size`), padded to the text's width
_TEMPLATE_MEMBER = re.compile(r"\b([A-Za-z_][\w:]*)\s*<((?:[^<>;()]|<[^<>;()]*>)*)>\s*::\s*([A-Za-z_]\w*)")


def _template_member(m) -> str:
    name = f"{m.group(1)}::{m.group(3)}"
    return name + " " * (len(m.group(0)) - len(name))


# `cuda::std::max`, `std::is_same::value`: a name of several scopes is read by its last two parts
# (as the unit's constants are looked up: `Traits::qk`), padded to the text's width
_NESTED_NAME = re.compile(r"\b((?:[A-Za-z_]\w*::)+)((?:[A-Za-z_]\w*::)[A-Za-z_]\w*)")


def _nested_name(m) -> str:
    return m.group(2) + " " * len(m.group(1))


# C++'s alternative tokens (`and`, `not_eq`, ...), written as their operators padded to their length
# so that every span stays where it was; a string or character literal is passed over whole
_ALT_TOKENS = {"and": "&&", "or": "||", "not": "!", "not_eq": "!=", "bitand": "&", "bitor": "|", "xor": "^",
               "compl": "~", "and_eq": "&=", "or_eq": "|=", "xor_eq": "^="}
_ALT_WORDS = "|".join(sorted(_ALT_TOKENS, key=len, reverse=True))
_ALT_TOKEN_HINT = re.compile(rf"\b(?:{_ALT_WORDS})\b")
_ALT_TOKEN = re.compile(rf'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|(?<![\w.>:])\b({_ALT_WORDS})\b(?!\s*::)')


def _alt_token(m) -> str:
    word = m.group(1)
    return m.group(0) if word is None else _ALT_TOKENS[word].ljust(len(word))


def _parse_expr(text: str, type_names: frozenset[str]) -> ir.Expr:
    text = strip_comments(text)
    if "::" in text:
        text = _GLOBAL_SCOPE.sub("  ", text)
    if "[" in text and "{" in text:
        text = _lambdas_blanked(text)
    if ">::" in text or "> ::" in text:
        text = _TEMPLATE_MEMBER.sub(_template_member, text)
    if text.count("::") > 1:
        text = _NESTED_NAME.sub(_nested_name, text)
    if _ALT_TOKEN_HINT.search(text):        # `i < n and j < m`: C++'s alternative spellings
        text = _ALT_TOKEN.sub(_alt_token, text)
    if "\\" in text:       # a backslash-newline splices two lines (translation phase 2)
        text = _LINE_SPLICE.sub(lambda m: " " * len(m.group(0)), text)
    src = text
    if type_names:
        # The names of casts and cast-like template arguments are marked as types, letter for letter
        # (spans stay exact; type_name reads the name back from `_source`).
        # a class template's instance is one type name (`static_cast<const BBoxT<float>*>(p)`)
        names = "|".join(map(re.escape, sorted(type_names)))
        src = re.sub(r"(?<=[(<])(\s*(?:const\s+)?)((?:" + names + r")\b" + _TEMPLATE_ARGS + r"?)"
                     r"(?=\s*\**\s*(?:[)>&]|\(\s*&))", _mark, text)
    if "(" in src:
        src = _CAST_OF_NAME.sub(_mark, src)
    if "of" in src and "<" in src:
        src = _SIZEOF_TEMPLATE.sub(_mark, src)
    if "}" in src:
        # `{ a, b, c, }`: a braced list's trailing comma (blanked: spans stay where they are)
        src = _TRAILING_COMMA.sub(r" \1", src)
    _source[0] = text
    _template_args.clear()
    if "<" in src and ">" in src:
        src = _drop_template_arguments(src, text)
    if len(src) > MAX_EXPRESSION_CHARS:
        raise ExprSyntaxError(f"expression of {len(src)} characters (after macro expansion); cudalint reads up "
                              f"to {MAX_EXPRESSION_CHARS}")
    fast = _fast_parser()
    got = fast.read(src) if fast is not None else None
    if got is not None:
        return got
    try:
        tree = _parser("index.lark").parse(src)
        return _to_ir(tree)
    except LarkError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ExprSyntaxError(first) from None
    except RecursionError:
        raise ExprSyntaxError("expression nested too deeply") from None
