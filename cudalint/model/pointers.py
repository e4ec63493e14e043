"""Kernels launched through a function pointer: `void (*kernel)(float *, int) = &copy;` then
`kernel<<<grid, threads>>>(...)`, the pointer set in an `if`, a `switch` or a loop, or picked from an
array of kernels (`kernels[k]<<<...>>>`)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..source.cufile import LaunchSite, node_text


@dataclass(frozen=True)
class PointerTarget:
    kernel: str
    template_args: tuple[str, ...]
    line: int                       # where the pointer is set to this kernel


@dataclass
class PointerLaunch:
    var: str                                                   # the pointer the launch calls through
    targets: list[PointerTarget] = field(default_factory=list)  # empty: its value is not traced


_MAX_HOPS = 4      # `a = b; b = &k;` chains followed this deep


def pointer_launch(site: LaunchSite) -> PointerLaunch | None:
    """What a launch calls through, or None for a launch of a named function (`copy<<<...>>>`)."""
    cached = site.__dict__.get("_pointer_launch", False)
    if cached is not False:
        return cached
    result = _trace(site)
    site.__dict__["_pointer_launch"] = result
    return result


def _trace(site: LaunchSite) -> PointerLaunch | None:
    if site.node is None:
        return None
    var = _callee_variable(site.node.child_by_field_name("function"))
    if var is None or (var == site.kernel and var in _function_names(site.file)):
        return None             # `copy<<<...>>>` with `copy` a function of the file
    scopes = []
    if site.host is not None:
        scopes.append(site.host.node)
    if _declared_at_file_scope(site.file.tree.root_node, var):
        scopes.append(site.file.tree.root_node)
    for scope in scopes:
        values = _values(scope, var)
        if values is not None:
            found: dict[str, PointerTarget] = {}
            for v in values:
                for t in _targets(v, scope, {var}):
                    found.setdefault(t.kernel, t)
            return PointerLaunch(var, list(found.values()))
    return None


def _function_names(src) -> set[str]:
    names = src.__dict__.get("_function_names")
    if names is None:
        names = src.__dict__["_function_names"] = {f.name for f in src.functions}
    return names


def _declared_at_file_scope(root, var: str) -> bool:
    """A top-level (or namespace-level) variable named `var`, found without walking function bodies."""
    stack = [root]
    while stack:
        n = stack.pop()
        for c in n.named_children:
            if c.type == "declaration":
                if any(_declared(d) == (var, True) for d in c.children_by_field_name("declarator")):
                    return True
            elif c.type in ("namespace_definition", "declaration_list", "linkage_specification"):
                stack.append(c)
    return False


def _callee_variable(fn) -> str | None:
    """`kernel`, `(*kernel)` and `kernels[k]` call through the variable named; `copy` or
    `copy<float>` may name a function, which `_values` tells apart."""
    while fn is not None:
        if fn.type == "parenthesized_expression" and fn.named_children:
            fn = fn.named_children[0]
        elif fn.type == "pointer_expression" and node_text(fn).lstrip().startswith("*"):
            fn = fn.child_by_field_name("argument")
        elif fn.type == "subscript_expression":
            fn = fn.child_by_field_name("argument")
        else:
            break
    return node_text(fn) if fn is not None and fn.type == "identifier" else None


def _values(scope, var: str, prune: bool = True) -> list | None:
    """Every value `var` is given in `scope` (initializer and `=` assignments), or None when `var`
    is not declared there as a variable. What declares or assigns `var` holds its name: a subtree
    whose text does not is not walked (most of a host function or a file), the name's bytes being
    its characters for an ASCII name (`prune=False`: every node is, as the pruned walk must agree)."""
    declared = False
    values = []
    word = var.encode() if prune and var.isascii() else None
    stack = [(scope, False)]
    while stack:
        n, in_function = stack.pop()
        if word is not None and word not in n.text:
            continue
        t = n.type
        if t in ("parameter_declaration", "declaration") and not in_function:
            for d in n.children_by_field_name("declarator"):
                name, is_variable = _declared(d)
                if name == var and is_variable:
                    declared = True
                    if d.type == "init_declarator" and d.child_by_field_name("value") is not None:
                        values.append(d.child_by_field_name("value"))
        elif t == "assignment_expression" and node_text(n.child_by_field_name("operator")) == "=":
            if _callee_variable(n.child_by_field_name("left")) == var:
                values.append(n.child_by_field_name("right"))
        # at file scope, a function's locals are not the pointer, but its assignments are
        inside = in_function or (t == "function_definition" and n is not scope)
        stack.extend((c, inside) for c in reversed(n.named_children))
    return values if declared else None


def _declared(d) -> tuple[str | None, bool]:
    """The name a declarator declares, and whether it is a variable (not a function prototype)."""
    is_variable = True
    while d is not None and d.type != "identifier":
        if d.type == "function_declarator":
            inner = d.child_by_field_name("declarator")
            if inner is not None and inner.type in ("identifier", "qualified_identifier"):
                is_variable = False   # `void copy(float *);`, not `void (*copy)(float *);`
            d = inner
        elif d.type in ("parenthesized_declarator", "reference_declarator"):
            d = d.named_children[0] if d.named_children else None
        else:
            d = d.child_by_field_name("declarator")
    return (node_text(d) if d is not None else None), is_variable


def _targets(value, scope, seen: set[str]) -> list[PointerTarget]:
    """Functions a pointer value names: `&copy`, `copy`, `ns::copy`, `&copy<float>`, `c ? &a : &b`,
    `{&a, &b}`, `(fn_t)&a`, or another pointer's values."""
    t = value.type
    line = value.start_point[0] + 1
    if t == "identifier":
        name = node_text(value)
        if name not in seen and len(seen) < _MAX_HOPS:
            other = _values(scope, name)
            if other is not None:
                return [x for v in other for x in _targets(v, scope, seen | {name})]
        return [PointerTarget(name, (), line)]
    if t == "qualified_identifier":
        name = value.child_by_field_name("name")
        return _targets(name, scope, seen) if name is not None else []
    if t == "template_function":
        name = node_text(value.child_by_field_name("name")).split("::")[-1]
        args = value.child_by_field_name("arguments")
        return [PointerTarget(name, tuple(node_text(a) for a in args.named_children) if args is not None else (),
                              line)]
    if t == "pointer_expression" and node_text(value).lstrip().startswith("&"):
        return _targets(value.child_by_field_name("argument"), scope, seen)
    if t == "subscript_expression":         # `kernels[k]`, an array of kernels
        return _targets(value.child_by_field_name("argument"), scope, seen)
    if t == "parenthesized_expression" and value.named_children:
        return _targets(value.named_children[0], scope, seen)
    if t == "cast_expression":
        return _targets(value.child_by_field_name("value"), scope, seen)
    if t == "conditional_expression":
        return [x for f in ("consequence", "alternative") if value.child_by_field_name(f) is not None
                for x in _targets(value.child_by_field_name(f), scope, seen)]
    if t == "initializer_list":
        return [x for c in value.named_children for x in _targets(c, scope, seen)]
    return []
