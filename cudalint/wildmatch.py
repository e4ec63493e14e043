"""`.gitignore` patterns, read and matched as git reads and matches them, in time linear in the
pattern times the name.

A repository's ignore files come from strangers: a line git accepts must never stop a run (`!`, a
lone `\\`, `[z-a]` and an unclosed `[` are lines git reads and that match nothing), and a pattern
such as `*a*a*a*a*a*a*a*a*a*a*b` must not backtrack for minutes against a long name (a regular
expression does). So a pattern is a list of tokens run as a set of states over the name's
characters (Thompson's construction): each character advances every state at once, never more
than the pattern's length of them.
"""
from __future__ import annotations

from dataclasses import dataclass

# tokens
_LIT, _ONE, _STAR, _ANY, _DIRS, _CLASS = range(6)
# _STAR: any run of characters but `/`; _ANY: any run at all (`/**` at the end);
# _DIRS: nothing, or any run ending with `/` (`**/` at the start, `/**/` inside)

_POSIX = {
    "alnum": str.isalnum, "alpha": str.isalpha, "blank": lambda c: c in " \t", "cntrl": lambda c: ord(c) < 32 or c == "\x7f",
    "digit": lambda c: "0" <= c <= "9", "graph": lambda c: c.isprintable() and c != " ", "lower": str.islower,
    "print": str.isprintable, "punct": lambda c: c.isprintable() and not c.isalnum() and c != " ",
    "space": str.isspace, "upper": str.isupper, "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}


class _Invalid(Exception):
    """A pattern git would match nothing with (an unclosed class, a trailing backslash)."""


def _class(p: str, i: int):
    """The bracket expression starting after `[` at p[i]: (test, index after `]`)."""
    negate = i < len(p) and p[i] in "!^"
    if negate:
        i += 1
    items: list = []
    first = True
    while True:
        if i >= len(p):
            raise _Invalid
        c = p[i]
        if c == "]" and not first:
            i += 1
            break
        first = False
        if c == "[" and p.startswith("[:", i):
            end = p.find(":]", i + 2)
            if end < 0:
                raise _Invalid
            test = _POSIX.get(p[i + 2:end])
            if test is None:
                raise _Invalid
            items.append(test)
            i = end + 2
            continue
        if c == "\\":
            i += 1
            if i >= len(p):
                raise _Invalid
            c = p[i]
        i += 1
        if i + 1 < len(p) and p[i] == "-" and p[i + 1] != "]":
            hi = p[i + 1]
            i += 2
            if hi == "\\":
                if i >= len(p):
                    raise _Invalid
                hi = p[i]
                i += 1
            items.append((c, hi))       # a reversed range (`z-a`) holds nothing, as in git
        else:
            items.append((c, c))

    def test(ch: str, items=tuple(items), negate=negate) -> bool:
        if ch == "/":
            return False
        got = any(it(ch) if callable(it) else it[0] <= ch <= it[1] for it in items)
        return got != negate
    return test, i


def _compile(p: str) -> list:
    toks: list = []
    i, n = 0, len(p)
    while i < n:
        c = p[i]
        if c == "*":
            j = i
            while j < n and p[j] == "*":
                j += 1
            run = j - i
            at_start = i == 0 or p[i - 1] == "/"
            if run >= 2 and at_start and (j == n or p[j] == "/"):
                if j == n:
                    toks.append((_ANY, None))
                else:
                    toks.append((_DIRS, None))
                    j += 1                   # the `/` is part of `**/`
            else:
                toks.append((_STAR, None))
            i = j
        elif c == "?":
            toks.append((_ONE, None))
            i += 1
        elif c == "[":
            test, i = _class(p, i + 1)
            toks.append((_CLASS, test))
        elif c == "\\":
            if i + 1 >= n:
                raise _Invalid
            toks.append((_LIT, p[i + 1]))
            i += 2
        else:
            toks.append((_LIT, c))
            i += 1
    return toks


def _match(toks: list, name: str) -> bool:
    """Whether the tokens match the whole of `name`: a set of (token index, inside a `**/` run
    that has not yet ended with `/`) states, advanced one character at a time."""
    n = len(toks)

    def close(states: set) -> set:
        todo = list(states)
        while todo:
            k, mid = todo.pop()
            if k < n and not mid and toks[k][0] in (_STAR, _ANY, _DIRS):
                s = (k + 1, False)
                if s not in states:
                    states.add(s)
                    todo.append(s)
        return states

    states = close({(0, False)})
    for ch in name:
        nxt = set()
        for k, mid in states:
            if k >= n:
                continue
            kind, arg = toks[k]
            if kind == _LIT:
                if ch == arg:
                    nxt.add((k + 1, False))
            elif kind == _ONE:
                if ch != "/":
                    nxt.add((k + 1, False))
            elif kind == _CLASS:
                if arg(ch):
                    nxt.add((k + 1, False))
            elif kind == _STAR:
                if ch != "/":
                    nxt.add((k, False))
            elif kind == _ANY:
                nxt.add((k, False))
            else:       # _DIRS
                nxt.add((k, ch != "/"))
        if not nxt:
            return False
        states = close(nxt)
    return any(k == n and not mid for k, mid in states)


@dataclass
class Pattern:
    tokens: list
    negated: bool
    dir_only: bool
    anchored: bool           # holds a `/` (not at its end): matched against the whole relative path

    def __post_init__(self):
        # most lines are a name (`build`) or an extension (`*.o`): compared, not run
        lits = [a for k, a in self.tokens[1:] if k == _LIT]
        self.exact = "".join(a for _, a in self.tokens) if all(k == _LIT for k, _ in self.tokens) else None
        self.suffix = "".join(lits) if self.tokens and self.tokens[0][0] == _STAR and \
            len(lits) == len(self.tokens) - 1 and "/" not in lits else None

    def matches(self, rel: str, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        name = rel if self.anchored else rel.rsplit("/", 1)[-1]
        if self.exact is not None:
            return name == self.exact
        if self.suffix is not None:
            return name.endswith(self.suffix) and "/" not in name
        return _match(self.tokens, name)


def parse_line(line: str) -> Pattern | None:
    """One line of an ignore file; None for a blank line, a comment or a line git matches nothing with."""
    line = line.rstrip("\r\n")
    if not line or line.startswith("#"):
        return None
    # trailing spaces go, unless the last one is escaped
    end = len(line)
    while end > 0 and line[end - 1] == " " and not (end >= 2 and line[end - 2] == "\\"):
        end -= 1
    line = line[:end]
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    dir_only = line.endswith("/") and not line.endswith("\\/")
    if dir_only:
        line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    line = line.removeprefix("/")
    try:
        return Pattern(_compile(line), negated, dir_only, anchored)
    except _Invalid:
        return None


class IgnoreFile:
    """The patterns of one ignore file, in order: the last that matches decides."""

    def __init__(self, lines):
        self.patterns = [p for p in map(parse_line, lines) if p is not None]

    def verdict(self, rel: str, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a `!pattern`; None: no pattern matches."""
        for p in reversed(self.patterns):
            if p.matches(rel, is_dir):
                return not p.negated
        return None
