"""How much of the kernels' memory traffic reaches the analysis (not a test).

    PYTHONPATH=<checkout> python bench/coverage.py [ROOT ...] [--by-repo DIR] [--reasons N] [--json FILE]

(the checkout PYTHONPATH names is the one measured: main's figures come from main's checkout)

Each ROOT is linted as its users would lint it (the working directory set to ROOT, path `.`);
`--by-repo DIR` lints DIR once and splits the figures by its first-level folders (one repository
each, as ../shared/realcode part 1 is laid out). Without arguments: part 1 (/tmp/realcode, split by
repository) and every repository of part 2 (/tmp/realcode2/<repo>, each from its own root).

Printed per repository:
- kernels analysed (with a body, within the size limit), and kernels that failed (CL902);
- global and shared accesses in the model, those simulated, and those not by reason; an index
  loaded from memory (an indirect access: nothing static can follow it) is counted apart;
- statements of kernel bodies, and the CL901 notes saying a statement was not read;
- accesses whose element size is assumed, and of those the ones whose type the translation unit
  defines (a struct, a typedef: the size is there to be read);
- kernel-body lines that touch memory (a subscript, `->`, a unary `*`, a load/store intrinsic or
  an atomic) with no access of the model on them.

The measure (issue "read the whole kernel"): simulated >= 95% of global and shared accesses
(indirect ones apart), statements not read <= 0.5%, no assumed size where the type is in the unit,
memory lines without an access < 5%.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

from cudalint.config import Resolver                     # noqa: E402
from cudalint.lint import MAX_KERNEL_NODES, collect_paths, context_paths, read_project   # noqa: E402
from cudalint.source.cufile import node_text              # noqa: E402
from cudalint.source.project import Project               # noqa: E402

PART1 = "/tmp/realcode"
PART2 = "/tmp/realcode2"

# nodes that are statements of a kernel body (a compound statement only groups them)
STATEMENTS = {"expression_statement", "declaration", "if_statement", "for_statement", "while_statement",
              "do_statement", "return_statement", "switch_statement", "break_statement", "continue_statement",
              "labeled_statement", "case_statement", "goto_statement", "try_statement", "for_range_loop"}
# calls that read or write memory through a pointer argument
MEMORY_CALL = re.compile(r"^(?:__ld(?:g|cg|ca|cs|lu|cv)|__st(?:cg|cs|wb|wt)|atomic\w+|__nv_atomic\w*)$")
INDIRECT = "index loaded from memory"
DETAILS: list[str] = []          # every access not simulated and memory line missed (--details)


def reason(message: str, carried: set[str] = frozenset()) -> str:
    """A not-simulated message reduced to its cause (`carried`: names whose update across a loop's
    iterations the model did not follow)."""
    if "a value loaded from memory" in message:
        return INDIRECT
    if "depends on the call" in message:
        return "index from a call not followed"
    if "which the model does not follow" in message:
        m = re.search(r"depends on `([^`]*)`", message)
        what = m.group(1) if m else ""
        if "." in what or "->" in what:
            return "index from a struct member"
        if what in carried:
            return "index from a loop-carried update not followed"
        if what in ("?", "ptr", "addr", "ptrdiff"):
            return f"index not followed ({what})"
        return "index from a name not followed"
    if "not a finite integer" in message:
        return "index not a finite integer"
    if "too large" in message or "exceeds" in message:
        return "simulation too large"
    return re.sub(r"`[^`]*`", "`…`", message)[:70]


def memory_lines(body) -> set[int]:
    """Lines of a kernel body holding a memory reference (1-based, in the kernel's file)."""
    out: set[int] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        t = n.type
        if t == "subscript_expression":
            if not _address_only(n):
                out.add(n.start_point[0] + 1)
        elif t == "field_expression":
            op = n.child_by_field_name("operator")
            if op is not None and node_text(op) == "->":
                out.add(n.start_point[0] + 1)
        elif t == "pointer_expression":
            op = n.child_by_field_name("operator")
            if op is not None and node_text(op) == "*":
                out.add(n.start_point[0] + 1)
        elif t == "call_expression":
            f = n.child_by_field_name("function")
            if f is not None and MEMORY_CALL.match(node_text(f).split("::")[-1]):
                out.add(n.start_point[0] + 1)
        if t in ("comment", "string_literal"):
            continue
        stack.extend(n.named_children)
    return out


def _address_only(sub) -> bool:
    """`&a[i][j]` (each subscript of it): an address taken, no access."""
    top = sub
    while top.parent is not None and top.parent.type == "subscript_expression" and \
            top.parent.child_by_field_name("argument") == top:
        top = top.parent
    while top.parent is not None and top.parent.type == "parenthesized_expression":
        top = top.parent
    parent = top.parent
    op = parent.child_by_field_name("operator") if parent is not None and parent.type == "pointer_expression" else None
    return op is not None and node_text(op) == "&"


def statements(body) -> int:
    count, stack = 0, [body]
    while stack:
        n = stack.pop()
        if n.type in STATEMENTS:
            count += 1
        stack.extend(c for c in n.named_children if c.type not in ("comment",))
    return count


_STRUCT = r"\b(?:struct|class|union)\s+(?:__align__\s*\(\s*\w+\s*\)\s*|alignas\s*\(\s*\w+\s*\)\s*)*{name}\s*[{{:]"


def type_in_unit(project: Project, src, name: str, unbound: set[str] = frozenset()) -> bool:
    """The translation unit defines `name` (a struct, class or union, or a typedef/using alias), and
    no template parameter left unbound (`unbound`) decides which (`InternalType<T>::scalar_t`)."""
    if unbound and set(re.findall(r"\w+", name)) & unbound:
        return False
    base = name.split("<")[0].split("::")[-1].strip()
    if not re.fullmatch(r"\w+", base):
        return False
    types = getattr(project, "types_for", None)
    if types is not None:
        return types(src).defines(base)
    pat = re.compile(_STRUCT.format(name=re.escape(base)))
    for f in project.unit_files(src):
        if base in f.typedefs or pat.search(f.text):
            return True
    return False


class Figures:
    def __init__(self):
        self.kernels = self.failed = 0
        self.accesses = Counter()          # space -> accesses in the model
        self.simulated = Counter()
        self.not_simulated: dict[str, Counter] = defaultdict(Counter)   # space -> reason -> count
        self.statements = self.not_read = 0
        self.assumed = self.assumed_in_unit = 0
        self.memory_lines = self.memory_lines_missed = 0
        self.examples: dict[str, list[str]] = defaultdict(list)

    def add(self, other: "Figures") -> None:
        self.kernels += other.kernels
        self.failed += other.failed
        self.accesses.update(other.accesses)
        self.simulated.update(other.simulated)
        for k, v in other.not_simulated.items():
            self.not_simulated[k].update(v)
        self.statements += other.statements
        self.not_read += other.not_read
        self.assumed += other.assumed
        self.assumed_in_unit += other.assumed_in_unit
        self.memory_lines += other.memory_lines
        self.memory_lines_missed += other.memory_lines_missed
        for k, v in other.examples.items():
            self.examples[k].extend(v[:max(0, 5 - len(self.examples[k]))])

    def example(self, key: str, where: str) -> None:
        if len(self.examples[key]) < 5:
            self.examples[key].append(where)

    def share(self, space: str) -> tuple[int, int, int]:
        """(simulated, counted, indirect): indirect accesses are left out of `counted`."""
        indirect = self.not_simulated[space][INDIRECT]
        return self.simulated[space], self.accesses[space] - indirect, indirect

    def as_dict(self) -> dict:
        return {"kernels": self.kernels, "failed": self.failed, "accesses": dict(self.accesses),
                "simulated": dict(self.simulated),
                "not_simulated": {k: dict(v) for k, v in self.not_simulated.items()},
                "statements": self.statements, "not_read": self.not_read, "assumed": self.assumed,
                "assumed_in_unit": self.assumed_in_unit, "memory_lines": self.memory_lines,
                "memory_lines_missed": self.memory_lines_missed}


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "   - "


def analyse_kernel(fn, src, project, cfg, fig: Figures) -> None:
    from cudalint.analysis.family import derive
    from cudalint.analysis.simulate import AnalysisLimit, Simulation
    from cudalint.model.build import KernelBuilder
    from cudalint.model.launch import resolve_launch
    fcfg = cfg.for_file(src.path)
    if fn.body.descendant_count > MAX_KERNEL_NODES:
        return
    fig.kernels += 1
    lines = memory_lines(fn.body)
    fig.statements += statements(fn.body)
    fig.memory_lines += len(lines)
    try:
        launch, template, _ = resolve_launch(fn, project.sites_for(fn), fcfg.launches, project)
        table = KernelBuilder(fn, launch, project.functions_for(src), template, project.constants_for(src),
                              project.typedefs_for(src), project.types_for(src), project.variables_for(src)).build()
        family = derive(table, {**table.launch.params, **fcfg.params})
        try:
            sim = Simulation(table, fcfg.params, family.primary, family)
        except AnalysisLimit:
            sim = None
    except Exception as exc:     # noqa: BLE001 - what cudalint reports as CL902
        fig.failed += 1
        fig.example("failed", f"{src.path}:{fn.line} {fn.name}: {type(exc).__name__}: {exc}")
        fig.memory_lines_missed += len(lines)
        return
    for n in table.notes:
        if n.message.startswith("cannot read") or "is not followed by the model" in n.message:
            fig.not_read += 1
            DETAILS.append(f"unread\t\t{n.path or src.path}:{n.line}\t{n.message[:160]}")
            fig.example("not read", f"{n.path or src.path}:{n.line}: {n.message[:110]}")
    carried = {m.group(1) for n in table.notes
               if (m := re.match(r"`(\w+)` changes across iterations", n.message))}
    covered: set[int] = set()
    for acc in table.accesses:
        if (acc.path or table.path) == src.path:
            covered.update(range(acc.line, acc.end_line + 1))
        space = acc.space
        if space == "local":
            continue
        fig.accesses[space] += 1
        err = acc.unresolved or (sim.error(acc) if sim is not None else "kernel not simulated (block size)")
        if err:
            why = reason(err, carried)
            fig.not_simulated[space][why] += 1
            fig.example(f"{space}: {why}", f"{acc.path or src.path}:{acc.line}: {acc.text}")
            DETAILS.append(f"{space}\t{why}\t{acc.path or src.path}:{acc.line}\t{acc.text}\t{err}")
        else:
            fig.simulated[space] += 1
        if acc.array.size_assumed:
            fig.assumed += 1
            unbound = {t.name for t in fn.template_params if t.is_type} - set(table.template_bindings)
            if type_in_unit(project, src, acc.array.elem_type, unbound):
                fig.assumed_in_unit += 1
                fig.example("assumed size, type in unit", f"{acc.path or src.path}:{acc.line}: {acc.text} "
                                                          f"({acc.array.elem_type})")
    missed = lines - covered
    fig.memory_lines_missed += len(missed)
    for ln in sorted(missed):
        DETAILS.append(f"line\t\t{src.path}:{ln}\t{src.lines[ln - 1].strip()[:100] if ln <= len(src.lines) else ''}")
    for ln in sorted(missed)[:2]:
        text = src.lines[ln - 1].strip() if ln <= len(src.lines) else ""
        fig.example("memory line, no access", f"{src.path}:{ln}: {text[:90]}")


def lint_root(root: str, by_repo: bool) -> dict[str, Figures]:
    """Figures of one run over `root` (cwd = root, path `.`), by repository when `by_repo`."""
    here = os.getcwd()
    os.chdir(root)
    try:
        cfg = Resolver({}, None, jobs=1).run_config()
        errors: list = []
        files = collect_paths(["."], cfg, errors)
        sources, read = read_project(files, cfg, context_paths(files, cfg), errors)
        project = Project(sources, list(read))
        out: dict[str, Figures] = defaultdict(Figures)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for src in sources:
                key = os.path.basename(root.rstrip("/"))
                if by_repo:
                    parts = Path(os.path.relpath(src.path, ".")).parts
                    key = parts[0] if len(parts) > 1 else "."
                for fn in src.kernels:
                    if fn.body is not None:
                        analyse_kernel(fn, src, project, cfg, out[key])
        return out
    finally:
        os.chdir(here)


def report(rows: dict[str, Figures], reasons: int) -> str:
    head = (f"{'repository':38} {'kern':>5} {'glob':>6} {'sim':>6} {'shar':>5} {'sim':>6} {'indir':>5} "
            f"{'stmts':>6} {'unread':>6} {'assum':>5} {'inUnit':>6} {'memLn':>6} {'noAcc':>6}")
    out = [head, "-" * len(head)]
    total = Figures()
    for name in sorted(rows):
        f = rows[name]
        total.add(f)
        out.append(_row(name, f))
    out.append("-" * len(head))
    out.append(_row("TOTAL", total))
    out.append("")
    for space in ("global", "shared"):
        reasons_of = total.not_simulated[space]
        if reasons_of:
            out.append(f"not simulated, {space}:")
            for why, n in reasons_of.most_common(reasons):
                out.append(f"  {n:6d}  {why}")
                for ex in total.examples.get(f"{space}: {why}", [])[:3]:
                    out.append(f"            e.g. {ex}")
    for key in ("not read", "assumed size, type in unit", "memory line, no access", "failed"):
        if total.examples.get(key):
            out.append(f"{key}, e.g.:")
            out += [f"  {ex}" for ex in total.examples[key][:5]]
    return "\n".join(out)


def _row(name: str, f: Figures) -> str:
    gs, gn, gi = f.share("global")
    ss, sn, si = f.share("shared")
    return (f"{name[:38]:38} {f.kernels:5d} {f.accesses['global']:6d} {_pct(gs, gn):>6} {f.accesses['shared']:5d} "
            f"{_pct(ss, sn):>6} {gi + si:5d} {f.statements:6d} {_pct(f.not_read, f.statements):>6} "
            f"{f.assumed:5d} {f.assumed_in_unit:6d} {f.memory_lines:6d} {_pct(f.memory_lines_missed, f.memory_lines):>6}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="*", help="repositories, each linted from its own root")
    ap.add_argument("--by-repo", action="append", default=[], help="a folder of repositories, linted once")
    ap.add_argument("--reasons", type=int, default=12, help="reasons listed per space")
    ap.add_argument("--json", help="write the figures as JSON here")
    ap.add_argument("--details", help="write every access not simulated, statement not read and memory line "
                                      "without an access here (tab-separated)")
    args = ap.parse_args(argv)
    plan = [(r, True) for r in args.by_repo] + [(r, False) for r in args.roots]
    if not plan:
        plan = [(PART1, True)] + [(str(p), False) for p in sorted(Path(PART2).iterdir()) if p.is_dir()] \
            if Path(PART2).is_dir() else [(PART1, True)]
    dump = {}
    for root, by_repo in plan:
        t0 = time.perf_counter()
        with contextlib.redirect_stderr(open(os.devnull, "w")):
            rows = lint_root(os.path.abspath(root), by_repo)
        print(f"== {root} ({time.perf_counter() - t0:.1f} s)")
        print(report(rows, args.reasons))
        print()
        dump[root] = {k: v.as_dict() for k, v in rows.items()}
    if args.details:
        Path(args.details).write_text("\n".join(DETAILS) + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(dump, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
