"""The macros' module lives in the preprocessor (preprocess/macros.py), below source; this name
still imports it for code written against it."""
from ..preprocess.macros import (MAX_EXPANSION_TOKENS, Macro, MacroError, MacroTable,  # noqa: F401
                                 parse_define, tokenize)
