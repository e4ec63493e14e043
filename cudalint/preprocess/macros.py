"""`#define` macros (object- and function-like) and their expansion inside expression text."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

# no capturing group: findall gives each token's text (in C, without a match object per token)
_TOKEN = re.compile(r"""
    \s+                                         # white space
  | [A-Za-z_]\w*                                # identifier
  | \.?\d(?:[\w.]|[eE][+-])*                     # number
  | "(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'        # string, character
  | \#\#|\#|->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|::|.     # operator
""", re.VERBOSE | re.DOTALL)


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


@dataclass(frozen=True)
class Macro:
    name: str
    body: str
    params: tuple[str, ...] | None = None   # None: object-like
    line: int = 0
    path: str = ""
    variadic: bool = False


class MacroTable:
    """Macros visible to a file, in the order the preprocessor met them: each name keeps its
    definitions and `#undef`s with the line of the file where they take effect (0: before the
    file starts: -D, the includer's macros), so `at(line)` sees what the compiler sees there.
    -D definitions (forced) win over the file's own."""

    def __init__(self) -> None:
        self.events: dict[str, list[tuple[int, Macro | None]]] = {}
        self.forced: set[str] = set()
        self.line: int | None = None          # None: the table at the end of the file
        # shared with the views: the lines where macros change, and what expansions gave at each
        # epoch between them (a kernel's statements ask again and again); emptied by any change
        self._known: dict = {}

    def define(self, macro: Macro, force: bool = False, line: int = 0) -> None:
        self._known.clear()
        if macro.name in self.forced and not force:
            return
        if force:
            self.forced.add(macro.name)
            self.events[macro.name] = [(0, macro)]
            return
        self.events.setdefault(macro.name, []).append((line, macro))

    def undefine(self, name: str, line: int = 0) -> None:
        self._known.clear()
        if name in self.forced:
            return
        if name in self.events:
            self.events[name].append((line, None))

    def update(self, other: "MacroTable") -> None:
        self._known.clear()
        for name, evs in other.events.items():
            if name in other.forced:
                self.forced.add(name)
                self.events[name] = list(evs)
            elif name not in self.forced:
                self.events.setdefault(name, []).extend(evs)

    def at(self, line: int) -> "MacroTable":
        """The table as it stands at `line` of the file (a view sharing the definitions)."""
        view = MacroTable.__new__(MacroTable)
        view.events, view.forced, view.line, view._known = self.events, self.forced, line, self._known
        return view

    def epoch(self, line: int | None) -> int:
        """How many of the lines where a macro changes come at or before `line` (-1 for the table at
        the end of the file): two lines of one epoch see the same macros."""
        lines = self._known.get("lines")
        if lines is None:
            lines = self._known["lines"] = sorted({ln for evs in self.events.values() for ln, _ in evs})
        return -1 if line is None else bisect.bisect_right(lines, line)

    def get(self, name: str) -> Macro | None:
        evs = self.events.get(name)
        if not evs:
            return None
        if self.line is None:
            return evs[-1][1]
        found = None
        for line, m in evs:      # a handful of events per name: a scan beats bisect's set-up
            if line > self.line:
                break
            found = m
        return found

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    @property
    def macros(self) -> dict[str, Macro]:
        """Name -> definition of every macro defined at this point."""
        return {n: m for n in self.events if (m := self.get(n)) is not None}

    def expand(self, text: str, max_steps: int = 2000) -> str:
        """Expand every macro in `text`. A macro is not re-expanded inside its own expansion."""
        key = ("expand", self.epoch(self.line), text, max_steps)
        got = self._known.get(key)
        if got is None:
            try:
                got = "".join(_expand(tokenize(text), self, frozenset(), [max_steps]))
            except MacroError as exc:
                got = MacroError(str(exc))      # the message alone: a traceback would hold the callers' frames
            self._known[key] = got
        if isinstance(got, MacroError):
            raise MacroError(str(got))
        return got

    def uses_macro(self, text: str) -> bool:
        key = ("uses", self.epoch(self.line), text)
        got = self._known.get(key)
        if got is None:
            got = False
            for t in _WORD.findall(text):
                if self.get(t) is not None:
                    got = True
                    break
            self._known[key] = got
        return got


_WORD = re.compile(r"[A-Za-z_]\w*")


class MacroError(ValueError):
    pass


def _split_args(tokens: list[str], start: int) -> tuple[list[list[str]], int] | None:
    """tokens[start] is '('; return the argument token lists and the index after ')'."""
    depth, args, cur = 0, [], []
    i = start
    while i < len(tokens):
        t = tokens[i]
        if t == "(":
            depth += 1
            if depth > 1:
                cur.append(t)
        elif t == ")":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, i + 1
            cur.append(t)
        elif t == "," and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(t)
        i += 1
    return None


# Tokens one expansion may produce: real index expressions expand to a few hundred; a hostile
# macro (a 200,000-term body, or one that doubles at every level) would otherwise take seconds and
# hundreds of MB before the parser refuses it.
MAX_EXPANSION_TOKENS = 20_000
MAX_EXPANSION_CHARS = 64 * MAX_EXPANSION_TOKENS


def _expand(tokens: list[str], table: MacroTable, hidden: frozenset, budget: list[int]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if len(out) > MAX_EXPANSION_TOKENS:
            raise MacroError(f"macro expansion longer than {MAX_EXPANSION_TOKENS} tokens")
        t = tokens[i]
        if t in hidden and t in table:
            # C leaves the name as it is; cudalint would look the macro up again on its own output
            # and go round for ever (`#define A B + 1` with `#define B A + 1`)
            raise MacroError(f"macro `{t}` refers to itself")
        m = table.get(t)
        if m is None:
            out.append(t)
            i += 1
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise MacroError("macro expansion too deep")
        if m.params is None:
            out.extend(_expand(tokenize(m.body), table, hidden | {t}, budget))
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].isspace():
            j += 1
        if j >= len(tokens) or tokens[j] != "(":
            out.append(t)
            i += 1
            continue
        split = _split_args(tokens, j)
        if split is None:
            raise MacroError(f"unbalanced parentheses in a use of macro {t}")
        args, i = split
        if args == [[]] and not m.params:
            args = []
        expanded = []
        for a in args:      # a loop: a comprehension would make cells of _expand's arguments in every call
            expanded.append(_expand(a, table, hidden, budget))
        body = _substitute(m, expanded)
        out.extend(_expand(body, table, hidden | {t}, budget))
    return out


def _substitute(m: Macro, args: list[list[str]]) -> list[str]:
    params = list(m.params or ())
    binding = {}
    for k, p in enumerate(params):
        binding[p] = args[k] if k < len(args) else []
    if m.variadic:
        rest = args[len(params):]
        va: list[str] = []
        for k, a in enumerate(rest):
            if k:
                va.append(",")
            va.extend(a)
        binding["__VA_ARGS__"] = va
    body = tokenize(m.body)
    out: list[str] = []
    chars = 0       # of the pieces `#` and `##` make: one token each, of any length
    k = 0
    while k < len(body):
        # checked while it is built: 10,000 uses of a parameter given a 20,000-token argument would
        # make 200 million tokens before a check after it
        if len(out) > MAX_EXPANSION_TOKENS or chars > MAX_EXPANSION_CHARS:
            raise MacroError(f"macro expansion longer than {MAX_EXPANSION_TOKENS} tokens")
        t = body[k]
        if t == "#" and k + 1 < len(body):
            nxt = k + 1
            while nxt < len(body) and body[nxt].isspace():
                nxt += 1
            if nxt < len(body) and body[nxt] in binding:
                out.append('"' + "".join(binding[body[nxt]]).strip() + '"')
                chars += len(out[-1])
                k = nxt + 1
                continue
        if t == "##":
            while out and out[-1].isspace():
                out.pop()
            k += 1
            while k < len(body) and body[k].isspace():
                k += 1
            if k < len(body):
                nxt = body[k]
                piece = "".join(binding[nxt]) if nxt in binding else nxt
                out[-1:] = [(out[-1] if out else "") + piece]
                chars += len(piece)
                k += 1
            continue
        if t in binding:
            out.extend(binding[t])
        else:
            out.append(t)
        k += 1
    return [t for t in out if t != ""]


_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?(.*)$", re.DOTALL)


def parse_define(text: str, line: int = 0, path: str = "") -> Macro | None:
    """A `#define` directive's text (continuation lines already joined)."""
    text = text.replace("\\\n", " ")
    m = _DEFINE.match(text)
    if not m:
        return None
    name, has_params, params, body = m.group(1), m.group(2), m.group(3), m.group(4)
    body = re.sub(r"//.*$", "", body, flags=re.MULTILINE)
    body = re.sub(r"/\*.*?\*/", " ", body, flags=re.DOTALL).strip()
    if has_params is None:
        return Macro(name, body, None, line, path)
    plist = [p.strip() for p in params.split(",") if p.strip()]
    variadic = bool(plist) and plist[-1] == "..."
    if variadic:
        plist = plist[:-1]
    return Macro(name, body, tuple(plist), line, path, variadic)
