"""`#if` / `#elif` conditions, evaluated by pcpp's C99 preprocessor-expression evaluator (64-bit
intmax arithmetic, `defined`, function-like macros, character constants), with the macros in
effect at the directive. An identifier that is not a macro is 0, as in C, but `true` (C++, as nvcc
compiles .cu files) is 1."""
from __future__ import annotations

import re
import time

_HAS = re.compile(r"__has_include(?:_next)?\s*\(\s*(?:\"([^\"]*)\"|<([^>]*)>)\s*\)")
_HAS_OTHER = re.compile(r"__has_(?:builtin|attribute|cpp_attribute|feature|extension)\s*\(\s*[^)]*\)")


MAX_KEPT_DEFINITIONS = 20_000
# Budgets of macro expansion in conditions: tokens handled for one `#if` and for a whole unit, and
# seconds for one `#if`. Real code's largest conditions expand to a few hundred tokens; twenty
# self-doubling macros make a 1 KB file's `#if` expand to 2^20.
MAX_CONDITION_TOKENS = 200_000
MAX_UNIT_CONDITION_TOKENS = 2_000_000
MAX_CONDITION_SECONDS = 2.0


_ALTERNATIVES = {"and": "&&", "or": "||", "not": "!", "bitand": "&", "bitor": "|", "xor": "^", "compl": "~",
                 "not_eq": "!="}
_ALTERNATIVE = re.compile(r"\b(?:and|or|not|bitand|bitor|xor|compl|not_eq)\b")


class ConditionError(Exception):
    """The condition cannot be evaluated (a syntax error, a division by zero)."""


class ConditionBudget(ConditionError):
    """The condition's expansion goes past a budget: the message names the limit."""


def _engine_class():
    import pcpp

    class Engine(pcpp.Preprocessor):
        """pcpp with C's rules for names it does not know and errors collected, not printed."""

        def __init__(self):
            super().__init__()
            self.errors: list[str] = []
            self.budget = 0           # tokens left for this condition
            self.deadline = 0.0

        def expand_macros(self, tokens, expanding_from=[]):      # noqa: B006 (pcpp's signature)
            self._spend(len(tokens))
            out = super().expand_macros(tokens, expanding_from)
            self._spend(len(out))
            return out

        def macro_expand_args(self, macro, args):
            out = super().macro_expand_args(macro, args)
            self._spend(len(out))
            return out

        def _spend(self, n: int) -> None:
            self.budget -= n
            if self.budget < 0:
                raise ConditionBudget("its macros expand past the "
                                      f"{MAX_CONDITION_TOKENS:,} tokens cudalint evaluates in one condition")
            if time.monotonic() > self.deadline:
                raise ConditionBudget(f"its macros take longer than the {MAX_CONDITION_SECONDS:g} s cudalint "
                                      f"gives one condition")

        def on_unknown_macro_in_expr(self, ident):
            # nvcc compiles .cu files as C++, where `true` in a condition is 1 (C reads it as 0)
            name = getattr(ident, "value", ident)
            return 1 if name == "true" else 0

        def on_unknown_macro_in_defined_expr(self, tok):
            return False

        def on_unknown_macro_function_in_expr(self, ident):
            return lambda *args: 0

        def on_error(self, file, line, msg):
            self.errors.append(msg)

    return Engine


class Conditions:
    """Macros as pcpp holds them, kept in step with the scanner, and the evaluation of conditions."""

    def __init__(self):
        self.engine = _engine_class()()
        self._start = dict(self.engine.macros)
        # the macro pcpp makes of a definition, by its text: its lexer and the copies it makes are a
        # define's whole cost, and a header read in many units (or a file that includes itself)
        # defines the same text again and again; pcpp reads a macro without changing it once made
        self._made: dict[str, object] = {}
        self.unit_left = MAX_UNIT_CONDITION_TOKENS

    def reset(self) -> None:
        self.engine.macros = dict(self._start)
        self.unit_left = MAX_UNIT_CONDITION_TOKENS

    def snapshot(self) -> dict:
        return dict(self.engine.macros)

    def restore(self, macros: dict) -> None:
        self.engine.macros = dict(macros)

    def define(self, name: str, params: tuple[str, ...] | None, body: str, variadic: bool = False) -> None:
        if params is None:
            head = name
        else:
            head = f"{name}({', '.join(list(params) + (['...'] if variadic else []))})"
        text = f"{head} {body}".strip()
        made = self._made.get(text)
        if made is not None:
            self.engine.macros[name] = made
            return
        before = self.engine.macros.get(name)
        try:
            self.engine.define(text)
        except Exception:      # a body pcpp cannot tokenize: the macro is then unknown to conditions
            self.engine.macros.pop(name, None)
            return
        if len(self._made) >= MAX_KEPT_DEFINITIONS:
            self._made.clear()
        made = self.engine.macros.get(name)
        if made is not None and made is not before:     # pcpp made it (it may refuse a definition)
            self._made[text] = made

    def undef(self, name: str) -> None:
        self.engine.macros.pop(name, None)

    def evaluate(self, text: str, has_include) -> bool:
        """Truth of a condition's text; `has_include(name, angled)` answers `__has_include`."""
        text = _HAS.sub(lambda m: "1" if has_include(m.group(1) or m.group(2), m.group(2) is not None) else "0", text)
        text = _HAS_OTHER.sub("0", text)
        if "and" in text or "or" in text or "not" in text:
            # C++'s alternative tokens (`#if defined(X) and Y == 64`), spelled as the evaluator reads them
            text = _ALTERNATIVE.sub(lambda m: _ALTERNATIVES[m.group(0)], text)
        text = self._defined_written(text)
        if not text.strip():
            raise ConditionError("empty condition")
        self.engine.errors = []
        if self.unit_left <= 0:
            raise ConditionBudget(f"the unit's conditions already expanded {MAX_UNIT_CONDITION_TOKENS:,} tokens, "
                                  f"all cudalint evaluates in one unit")
        engine = self.engine
        engine.budget = start = min(MAX_CONDITION_TOKENS, self.unit_left)
        engine.deadline = time.monotonic() + MAX_CONDITION_SECONDS
        try:
            value, _ = engine.evalexpr(engine.tokenize(text))
        except ConditionBudget:
            if start < MAX_CONDITION_TOKENS and engine.budget < 0:
                raise ConditionBudget(f"the unit's conditions expand past the {MAX_UNIT_CONDITION_TOKENS:,} "
                                      f"tokens cudalint evaluates in one unit") from None
            raise
        except RecursionError:
            raise ConditionBudget("its macros nest deeper than cudalint follows") from None
        except Exception as exc:     # pcpp raises its own parser errors on malformed input
            raise ConditionError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        finally:
            self.unit_left = max(0, self.unit_left - (start - engine.budget))
        if self.engine.errors:
            raise ConditionError(_short_error(self.engine.errors[0]))
        return bool(value)

    def _defined_written(self, text: str) -> str:
        """`text` with each object-like macro whose body tests `defined` written out (`#define BF16
        (defined(V) && V >= 11)`; `#if BF16`), as the compilers read it: `defined(V)` then sees the
        name V, where expanding V first would leave `defined(12080)`."""
        macros = self.engine.macros

        def body(m: re.Match) -> str:
            got = macros.get(m.group(0))
            if got is None or getattr(got, "arglist", None) is not None or \
                    not any(getattr(t, "value", None) == "defined" for t in getattr(got, "value", ())):
                return m.group(0)
            return "(" + "".join(t.value for t in got.value) + ")"
        for _ in range(4):      # (such a body naming another: a few levels)
            if not any(w in macros for w in _WORD.findall(text)):
                break
            new = _WORD.sub(body, text)
            if new == text:
                break
            text = new
        return text


_WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def _short_error(msg: str) -> str:
    m = re.search(r"due to (\w+)\('([^']*)'\)", msg)
    if m:
        return {"ZeroDivisionError": "division by zero"}.get(m.group(1), f"{m.group(1)}: {m.group(2)}")
    return msg.splitlines()[0][:120]
