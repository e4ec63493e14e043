"""The values a generic lambda's parameter takes where the lambda is run over a compile-time list of
integers. `mp_for_each<mp_list_c<int, 64, 32, 16>>([&](auto NumTLP) { k<NumTLP><<<...>>>(...); })`
calls the lambda once with each element (an `std::integral_constant`, which converts to its value),
so a launch in its body is made with each of them; a dispatch over such a list
(`dispatch<std::index_sequence<1, 2, 4>>(n, [&](auto V) { ... })`) calls it with one of them. Either
way the parameter is one of the list's numbers, and the launch is read at each.

The list is the runner's template argument or its first argument (`for_each(std::make_index_sequence<4>{}, ...)`),
written out or named by an alias in scope (`using kernel_block_t = mp_list_c<int, 64, 32, 16>;` in
the enclosing class): integers after an element type (`mp_list_c<int, ...>`,
`std::integer_sequence<int, ...>`), integers alone (`std::index_sequence<...>`), constants
(`mp_list<std::integral_constant<int, 64>, mp_int<32>>`), or a range `0 .. N-1`
(`std::make_index_sequence<N>`, `mp_iota_c<N>`)."""
from __future__ import annotations

import re
from typing import Callable

from ..source.cufile import _param, node_text
from ..source.types import template_id

# the callee's own name says it runs the lambda over the list's elements
_RUNNER = re.compile(r"(?i)for_?each|static_for|constexpr_for|dispatch")
# a range's template: its one argument is the count
_RANGE = re.compile(r"(?i)make_(?:index|integer|int)_?seq(?:uence)?|iota")
# an integer type, written first in a list of its values
_INT_TYPE = re.compile(r"(?:std::)?(?:u?int(?:8|16|32|64)?_t|size_t|ptrdiff_t|index_t)|(?:(?:unsigned|signed|long|short|int|char|bool)\s*)+")
MAX_LISTED = 64          # elements read from one list
MAX_ALIASES = 4          # aliases followed from a list's name

Fold = Callable[[str], "int | None"]


def listed_values(node, fold: Fold) -> dict[str, tuple[tuple[int, ...], str]]:
    """{the parameter of each generic lambda around `node` that a runner calls with the elements of
    a compile-time integer list: (its values, where they come from)}, the innermost lambda first."""
    out: dict[str, tuple[tuple[int, ...], str]] = {}
    while node is not None and node.type != "function_definition":
        if node.type == "lambda_expression":
            for name, got in _lambda_values(node, fold).items():
                out.setdefault(name, got)
        node = node.parent
    return out


def _lambda_values(lam, fold: Fold) -> dict[str, tuple[tuple[int, ...], str]]:
    names = _auto_params(lam)
    args = lam.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    if not names or call is None or call.type != "call_expression":
        return {}
    callee = call.child_by_field_name("function")
    if callee is None:
        return {}
    text = node_text(callee)
    tid = template_id(text)
    runner = (tid[0] if tid else text).split("::")[-1].strip()
    if not _RUNNER.search(runner):
        return {}
    lists = list(tid[1]) if tid else []
    first = next((a for a in args.named_children if a.type != "comment"), None)
    if first is not None and first is not lam:
        # `for_each(std::make_index_sequence<4>{}, ...)`: the list is the first argument's type
        m = re.fullmatch(r"\s*(.+?)\s*(?:\{\s*\}|\(\s*\))\s*", node_text(first), re.S)
        if m:
            lists.append(m.group(1))
    for written in lists:
        values = _list_values(written, lam, fold, 0)
        if values:
            what = "each" if re.search(r"(?i)each|for", runner) else "one"
            words = f"`{runner}` runs the lambda at line {lam.start_point[0] + 1} with {what} of " \
                    f"{', '.join(map(str, values))} (`{written.strip()}`)"
            # the lambda's first `auto` parameter is the element; a second is some other argument
            return {names[0]: (values, words)}
    return {}


def _auto_params(lam) -> list[str]:
    """The names of the lambda's parameters declared `auto` (a generic lambda's), `auto&&` too."""
    decl = lam.child_by_field_name("declarator")
    params = decl.child_by_field_name("parameters") if decl is not None else None
    read = [_param(p) for p in (params.named_children if params is not None else ())
            if p.type == "parameter_declaration"]
    return [p.name for p in read if p.type_name == "auto" and not p.pointers and p.name]


def _list_values(text: str, at, fold: Fold, depth: int) -> tuple[int, ...] | None:
    """The integers a compile-time list holds, in order; None where it is no such list."""
    text = re.sub(r"^\s*typename\s+", "", text).strip()
    tid = template_id(text)
    if tid is None:
        if depth >= MAX_ALIASES or not re.fullmatch(r"[A-Za-z_]\w*(?:::\w+)*", text):
            return None
        target = alias_in_scope(text.split("::")[-1], at)
        return _list_values(target, at, fold, depth + 1) if target is not None else None
    name, args = tid[0].split("::")[-1].strip(), [a.strip() for a in tid[1]]
    if _RANGE.search(name):
        count = fold(args[-1]) if args else None
        if count is None or not 0 < count <= MAX_LISTED:
            return None
        return tuple(range(count))
    ids = [template_id(a) for a in args]
    if args and all(t is not None for t in ids):
        # a list of constants: each an `integral_constant<int, 64>`, an `mp_int<32>`, an `Int<16>`
        got = [fold(t[1][-1]) if t is not None and t[1] else None for t in ids]
    else:
        if args and _INT_TYPE.fullmatch(args[0]):
            args = args[1:]         # the element type first: `mp_list_c<int, ...>`, `integer_sequence<int, ...>`
        got = [fold(a) for a in args]
    if not got or len(got) > MAX_LISTED or any(v is None for v in got):
        return None
    return tuple(v for v in got if v is not None)


def alias_in_scope(name: str, node) -> str | None:
    """The type an alias names where `node` is: the nearest `using name = ...;` or `typedef ... name;`
    declared in a block, class or namespace around it (before it, in a block)."""
    up = node
    while up is not None:
        if up.type in ("compound_statement", "field_declaration_list", "declaration_list", "translation_unit"):
            for c in up.named_children:
                if up.type == "compound_statement" and c.start_byte >= node.start_byte:
                    break
                got = _alias_of(c, name)
                if got is not None:
                    return got
        up = up.parent
    return None


def _alias_of(decl, name: str) -> str | None:
    if decl.type == "alias_declaration":
        n, t = decl.child_by_field_name("name"), decl.child_by_field_name("type")
        if n is not None and t is not None and node_text(n) == name:
            return node_text(t)
    elif decl.type == "type_definition":
        t = decl.child_by_field_name("type")
        names = [node_text(d) for d in decl.children_by_field_name("declarator")]
        if t is not None and names == [name]:
            return node_text(t)
    return None

