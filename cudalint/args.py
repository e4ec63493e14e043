"""Command-line values read the same way by `cudalint` and `cudalint explain`: exit codes, a parser
whose errors suggest the option meant, NAME=VALUE, 64-bit integers, --launch, and --color."""
from __future__ import annotations

import argparse
import os
import re

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        m = re.match(r"unrecognized arguments: (\S+)", message)
        if m and m.group(1).startswith("-"):
            from .didyoumean import hint
            option = m.group(1).split("=", 1)[0]
            message += hint(option, [o for o in self._option_string_actions if o.startswith("--")])
        raise _Usage(message)


class _Usage(Exception):
    pass


_MACRO_NAME = re.compile(r"[A-Za-z_]\w*")
_SIZE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\d+(?:, ?\d+)*\)|\[\d+\])?")


def _kv(text: str, what: str) -> tuple[str, str]:
    if "=" in text:
        k, v = text.split("=", 1)
    else:
        k, v = text, "1"
    # a size may be a member of a struct the kernel takes (`p.n`), or a query of one (`t.getSize(1)`,
    # `t.size_[1]`), as the findings name it
    name = _SIZE_NAME if what == "--param" else _MACRO_NAME
    if not name.fullmatch(k):
        raise _Usage(f"bad {what} `{text}`: expected NAME=VALUE")
    return k, v


INT64_MIN, INT64_MAX = -2**63, 2**63 - 1


def _int(text: str, what: str) -> int:
    if len(text) > 40:                  # no 64-bit integer is written longer (and int() has a digit limit)
        raise _Usage(f"bad {what} value `{text[:20]}…`: expected an integer from {INT64_MIN} to {INT64_MAX}")
    try:
        v = int(text, 0)
    except ValueError:
        raise _Usage(f"bad {what} value `{text}`: expected an integer") from None
    if not INT64_MIN <= v <= INT64_MAX:
        raise _Usage(f"bad {what} value `{text}`: expected an integer from {INT64_MIN} to {INT64_MAX}")
    return v


def _launch(text: str):
    from .model.launch import CliLaunch
    m = re.fullmatch(r"([A-Za-z_][\w:]*):grid=([\d,]+):block=([\d,]+)", text.replace(" ", ""))
    if not m:
        raise _Usage(f"bad --launch `{text}`: expected NAME:grid=X,Y,Z:block=X,Y,Z")

    def dims(s):
        v = [_int(x, "--launch") for x in s.split(",") if x]
        if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
            raise _Usage(f"bad --launch `{text}`: dimensions must be 1 to 3 positive integers")
        return tuple(v + [1] * (3 - len(v)))
    return m.group(1), CliLaunch(dims(m.group(2)), dims(m.group(3)))


def want_color(mode: str, to_terminal: bool) -> bool:
    """--color always/never wins; then NO_COLOR (off), FORCE_COLOR (on) and TERM=dumb (off), each
    when set and not empty, in that order (CPython's own order); else color on a terminal only."""
    if mode != "auto":
        return mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return to_terminal and os.environ.get("TERM") != "dumb"
