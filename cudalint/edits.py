"""Whole-line edits of a file, and the one cudalint derives from the model alone: padding a
`__shared__` tile's inner dimension (CL401). `--fix` proves and applies edits; explain shows them."""
from __future__ import annotations

import re
from dataclasses import dataclass

STATIC_SHARED_LIMIT = 48 * 1024    # bytes of static __shared__ memory a kernel may declare


@dataclass(frozen=True)
class Edit:
    line: int
    old: str             # the whole line, without its line ending
    new: str | None      # None: the line goes


def pad_declaration(table, acc, pad: int, lines: list[str], kernel_lines: range) -> Edit | None:
    """CL401: `__shared__ float tile[32][32]` -> `tile[32][32 + 1]`, where nothing can tell: the
    tile is static, every mention of it in the kernel is a full subscript (no pointer, no `&`, no
    `sizeof`), and the kernel's static shared memory stays within 48 KiB."""
    arr = acc.array
    if arr.space != "shared" or arr.extern or len(arr.dims) < 2 or not all(arr.dims) or not 0 < arr.line <= len(lines):
        return None
    uses = [a for a in table.accesses if a.array is arr or a.array.name == arr.name]
    if any(len(a.dim_texts) != len(arr.dims) for a in uses):
        return None
    static = sum(a.extent * a.elem_size for a in table.arrays.values()
                 if a.space == "shared" and not a.extern and a.extent)
    grown = arr.extent // arr.dims[-1] * pad * arr.elem_size
    if static + grown > STATIC_SHARED_LIMIT:
        return None
    name = re.escape(arr.name)
    access_lines = {a.line for a in uses}
    for n in kernel_lines:
        code = _code(lines[n - 1])
        for m in re.finditer(rf"(?<![\w.]){name}\b", code):
            after = code[m.end():].lstrip()
            before = code[:m.start()].rstrip()
            if n == arr.line and "__shared__" in code:
                continue
            if n not in access_lines or not after.startswith("[") or before.endswith("&"):
                return None
    decl = lines[arr.line - 1]
    m = re.search(rf"(?<![\w.]){name}\s*((?:\[[^\[\]]*\]\s*){{{len(arr.dims)}}})", _code(decl))
    if m is None:
        return None
    groups = re.findall(r"\[[^\[\]]*\]", m.group(1))
    last = groups[-1][1:-1].strip()
    new_groups = "".join(groups[:-1]) + f"[{last} + {pad}]"
    new = decl[:m.start(1)] + new_groups + decl[m.start(1) + len(m.group(1).rstrip()):]
    return Edit(arr.line, decl, new) if new != decl else None


def _code(line: str) -> str:
    """The line without a trailing `//` comment (string literals in kernels are rare enough)."""
    return line.split("//", 1)[0]


def _kernel_lines(src, kernel: str, table) -> range:
    fn = next((k for k in src.kernels if k.name == kernel and k.body is not None), None)
    if fn is None:
        return range(table.line, table.line + 1)
    return range(fn.node.start_point[0] + 1, fn.node.end_point[0] + 2)
