"""Reading files a stranger wrote: regular files only, and never more than a bounded number of bytes.

A linter runs on pull requests. A path may name a FIFO (opening it for reading waits for a writer
forever), a device (`/dev/zero` never ends), or a sparse file of many gigabytes; none of them may
hang the run or exhaust its memory. Every file cudalint reads (sources, included headers,
configuration, baselines, ignore files) comes through here.
"""
from __future__ import annotations

import os
import re
import stat

MAX_SOURCE_BYTES = 32 << 20    # 400x the largest real-world .cu file measured (77 kB); generated tables run to MBs
HEAD_BYTES = 8192              # a NUL byte here means a binary file: nothing more is read


class InputError(Exception):
    """The file cannot be read: the message is one line, `cannot read PATH: reason`."""


def _mib(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}".replace(".0 ", " ")
    return f"{n} bytes"


def read_regular(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, binary_check: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; InputError otherwise.

    The file is opened without blocking (a FIFO is refused, not waited on) and checked with fstat
    on the descriptor itself, so a path swapped between the check and the read changes nothing."""
    name = os.fsdecode(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        try:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise InputError(f"cannot read {name}: is a directory")
            if not stat.S_ISREG(st.st_mode):
                raise InputError(f"cannot read {name}: not a regular file ({_kind(st.st_mode)})")
            if st.st_size > limit:
                raise InputError(f"cannot read {name}: file too large ({_mib(st.st_size)}; the limit is "
                                 f"{_mib(limit)})")
            return read_stream(f, name, limit, binary_check)
        except OSError as exc:
            raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None


def read_stream(f, name: str, limit: int = MAX_SOURCE_BYTES, binary_check: bool = True) -> bytes:
    """At most `limit` bytes of an open binary stream (standard input); the first block is checked
    for NUL bytes before the rest is read."""
    head = f.read(HEAD_BYTES)
    if head is None:        # a non-blocking read with nothing to give (/proc/kmsg): it never ends
        raise InputError(f"cannot read {name}: no data without waiting (not a plain file)")
    if binary_check and b"\x00" in head:
        raise InputError(f"cannot read {name}: binary file (contains NUL bytes)")
    rest = f.read(limit + 1 - len(head)) if len(head) == HEAD_BYTES else b""
    if rest is None:
        raise InputError(f"cannot read {name}: no data without waiting (not a plain file)")
    data = head + (rest or b"")
    if len(data) > limit:
        raise InputError(f"cannot read {name}: file too large (more than {_mib(limit)})")
    return data


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


# Files a run reads to decide how to read the others (configuration, ignore files) that could not be
# used: one line each, said once per run, and the run goes on without them.
_SKIPPED: dict[str, tuple[bool, str]] = {}      # path -> (an error: the run cannot pass, line)


_QUIET = [0]


def skipped(path: str, message: str, error: bool = False) -> None:
    """Record that `path` was not used, and why (`message` names it)."""
    if _QUIET[0]:
        return
    got = _SKIPPED.get(path)
    if got is None or (error and not got[0]):
        _SKIPPED[path] = (error, message)


def take_skipped() -> list[tuple[str, bool, str]]:
    """The files skipped since the last call: (path, error, message)."""
    out = [(p, e, m) for p, (e, m) in _SKIPPED.items()]
    _SKIPPED.clear()
    return out


class quiet_skips:
    """While scanning files that are only context to the linted ones: what they could not use is
    theirs, not the run's."""

    def __enter__(self):
        _QUIET[0] += 1

    def __exit__(self, *exc):
        _QUIET[0] -= 1


def compiler_lines(text: str) -> str:
    """Line endings as the compiler reads them: a lone CR (old Mac files) ends a line too, so a `//`
    comment ends there and not at the end of the file. Each CR becomes a LF in place: offsets and
    line numbers stay the compiler's."""
    return re.sub(r"\r(?!\n)", "\n", text) if "\r" in text else text
