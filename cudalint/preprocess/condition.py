"""`#if` / `#elif` conditions, evaluated by pcpp's C99 preprocessor-expression evaluator (64-bit
intmax arithmetic, `defined`, function-like macros, character constants), with the macros in
effect at the directive. An identifier that is not a macro is 0, as in C."""
from __future__ import annotations

import re

_HAS = re.compile(r"__has_include(?:_next)?\s*\(\s*(?:\"([^\"]*)\"|<([^>]*)>)\s*\)")
_HAS_OTHER = re.compile(r"__has_(?:builtin|attribute|cpp_attribute|feature|extension)\s*\(\s*[^)]*\)")


MAX_KEPT_DEFINITIONS = 20_000


class ConditionError(Exception):
    """The condition cannot be evaluated (a syntax error, a division by zero)."""


def _engine_class():
    import pcpp

    class Engine(pcpp.Preprocessor):
        """pcpp with C's rules for names it does not know and errors collected, not printed."""

        def __init__(self):
            super().__init__()
            self.errors: list[str] = []

        def on_unknown_macro_in_expr(self, ident):
            return 0

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

    def reset(self) -> None:
        self.engine.macros = dict(self._start)

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
        if not text.strip():
            raise ConditionError("empty condition")
        self.engine.errors = []
        try:
            value, _ = self.engine.evalexpr(self.engine.tokenize(text))
        except Exception as exc:     # pcpp raises its own parser errors on malformed input
            raise ConditionError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        if self.engine.errors:
            raise ConditionError(_short_error(self.engine.errors[0]))
        return bool(value)


def _short_error(msg: str) -> str:
    m = re.search(r"due to (\w+)\('([^']*)'\)", msg)
    if m:
        return {"ZeroDivisionError": "division by zero"}.get(m.group(1), f"{m.group(1)}: {m.group(2)}")
    return msg.splitlines()[0][:120]
