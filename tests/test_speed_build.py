"""The shortcuts that read source files and build each kernel's two-tree table give the answers of
the long way.

No test here is timed: each states what a shortcut must agree with and fails where it does not.
"""
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from cudalint.source import macros

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

# C-ish text: every kind of token the macro tokenizer tells apart, and what lies between them
_C_TEXT = st.lists(st.sampled_from(list("aZ_09.eE+-*/%<>=!&|^~?:;,#()[]{}'\"\\ \t\n") + ["->", "##", "0x1f", "é"]),
                   max_size=40).map("".join)


def _sample_lines() -> list[str]:
    return [line for p in sorted(SAMPLES.glob("*.cu")) for line in p.read_text().splitlines()]


# ---- source/macros.py --------------------------------------------------------------------------
# The tokenizer as it was written first: one named group per kind of token, a match object per token.
_NAMED_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eE][+-])*)
  | (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<op>\#\#|\#|->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|::|.)
""", re.VERBOSE | re.DOTALL)


def _tokens_the_long_way(text: str) -> list[str]:
    return [m.group(0) for m in _NAMED_TOKEN.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(_C_TEXT)
def test_macro_tokens_are_those_of_the_named_group_tokenizer(text):
    assert macros.tokenize(text) == _tokens_the_long_way(text)


def test_macro_tokens_of_every_sample_line_are_those_of_the_named_group_tokenizer():
    lines = _sample_lines()
    assert lines
    for line in lines:
        assert macros.tokenize(line) == _tokens_the_long_way(line), line
