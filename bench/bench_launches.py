"""How many kernels run on the launch their program gives (not a test).

    python bench/bench_launches.py [--part1 /tmp/realcode] [--part2 /tmp/realcode2] [--json]
    python bench/bench_launches.py --tree /tmp/kaldi_full [--tree ...]

For each repository of part 1 (the folders of /tmp/realcode, linted together as one run over the
folder) and each repository of part 2 (linted from its own root, as `cudalint .` there): the kernels
defined in the linted files; those with a launch site in the linted files; of those, the ones whose
launch is resolved (grid and block computed from the program: numbers, or expressions of the
kernel's own parameters, members of a structure it takes by value among them, and of names whose
values the program gives, such as the elements of a compile-time list a lambda is run over;
nothing assumed or left to an unknown host value); those whose block is
resolved and whose grid is computed as an expression of host values the program does not give
(`min((ious.numel() + 511) / 512, 4096)`: "shape"); those whose grid and block are taken whole from
the parameters of the launching function, passed on by every call in the linted files up to a
function none of them calls ("fwd": kaldi's `cudaF_copy(dim3 Gr, dim3 Bl, ...)`, called only from
C++ files outside the tree: the configuration is computed outside the linted files, and the
shares are also given over the other kernels); and the kernels' integer parameters that the
host code gives (a value or a set of values: derived) against those it leaves open. `--tree ROOT`
measures that tree alone, linted from its root as part 2 is. Only the source, preprocessing and
launch stages run: no kernel is analysed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudalint.index import ir                                  # noqa: E402
from cudalint.config import Resolver                          # noqa: E402
from cudalint.lint import collect_paths, context_paths, read_project   # noqa: E402
from cudalint.model.host import substitute                    # noqa: E402
from cudalint.model.launch import _over_params, resolve_launch  # noqa: E402
from cudalint.source.project import Project                    # noqa: E402


def forwarded(cfg, names: set[str], sites, project) -> bool:
    """The grid and the block are the launching function's own parameters, passed on whole
    (`void cudaF_copy(dim3 Gr, dim3 Bl, ...) { _copy<<<Gr, Bl>>>(...); }`), and no call in the linted
    files gives them: the launch's configuration is computed outside them."""
    host = {p.name for s in sites if s.host is not None for p in s.host.params} - names
    dims = [d for d in (cfg.grid or ()) + (cfg.block or ())]
    free = {x.name for d in dims for x in _walk(d)} - names
    return bool(cfg.grid) and bool(cfg.block) and bool(free) and free <= host and \
        all(_passed_through(project, s.host, free) for s in sites if s.host is not None)


def _passed_through(project, fn, names: set[str], depth: int = 0) -> bool:
    """Every call of `fn` in the linted files passes `names` on from its own caller's parameters
    (kaldi's `cuda_copy(Gr, Bl, ...)` calling `cudaF_copy(Gr, Bl, ...)`), up to a function that no
    linted file calls."""
    callers = project.callers(fn)
    if not callers:
        return True
    if depth >= 4:
        return False
    index = [i for i, p in enumerate(fn.params) if p.name in names]
    for caller, call in callers:
        args_node = call.child_by_field_name("arguments") if call is not None else None
        args = [a.text.decode() for a in args_node.named_children if a.type != "comment"] if args_node else []
        passed = {args[i].strip() for i in index if i < len(args)}
        if not passed or not passed <= {p.name for p in caller.params}:
            return False
        if not _passed_through(project, caller, passed, depth + 1):
            return False
    return True


def _walk(e):
    return (x for x in e.walk() if isinstance(x, (ir.Sym, ir.Name)))


def computed(dims, kernel, values=()) -> bool:
    """Every edge a number or an expression of the kernel's own parameters, a member of a structure
    the kernel takes by value among them (`dA.rows` of `MatrixDim dA`), as the launch reads them,
    and of the names whose values the program gives (`values`: a template value each element of a
    compile-time list gives)."""
    if dims is None:
        return False
    sub = {x: ir.Num(1) for d in dims for x in _walk(d) if isinstance(x, ir.Sym) and x.name in values}
    return all(not any(isinstance(x, ir.Name) for x in _walk(d)) and _over_params(substitute(d, sub), kernel)
               for d in dims)


def measure(paths: list[str]) -> dict:
    cfg = Resolver({}).run_config()         # the tree's configuration files apply, as `cudalint .` there
    hosts: list[str] = []
    files = collect_paths(paths, cfg, host=hosts)
    context = list(dict.fromkeys([*context_paths(files, cfg), *hosts]))
    sources, read = read_project(files, cfg, context, errors=[])
    project = Project(sources, read)
    linted = {s.key for s in sources}
    out = {"kernels": 0, "launched": 0, "forwarded": 0, "resolved": 0, "shape": 0, "block_known": 0, "int_params": 0,
           "derived": 0, "open": 0, "unresolved": []}
    for src in sources:
        for fn in src.kernels:
            if fn.body is None:
                continue
            out["kernels"] += 1
            sites = [s for s in project.sites_for(fn) if s.file.key in linted]
            if not any(s.kernel == fn.name for s in sites):
                continue
            out["launched"] += 1
            try:
                cfg_, _, _ = resolve_launch(fn, project.sites_for(fn), {}, project)
            except Exception as exc:       # a bench reports, it does not stop
                out["unresolved"].append(f"{src.path}:{fn.line} {fn.name}: {type(exc).__name__}: {exc}")
                continue
            names = {p.name for p in fn.params if not p.pointers}
            given = getattr(cfg_, "values", {}) or {}
            ok = computed(cfg_.grid, fn, given) and computed(cfg_.block, fn, given)
            fwd = not ok and forwarded(cfg_, names, [s for s in sites if s.kernel == fn.name], project)
            out["forwarded"] += fwd
            out["resolved"] += ok
            out["block_known"] += computed(cfg_.block, fn, given)
            # of the launches computed in the linted files
            out["shape"] += not fwd and computed(cfg_.block, fn, given) and cfg_.grid is not None
            if not ok:
                out["unresolved"].append(f"{src.path}:{fn.line} {fn.name}: grid {_show(cfg_.grid)} "
                                         f"block {_show(cfg_.block)}")
            values = getattr(cfg_, "values", {}) or {}
            for p in fn.params:
                if p.pointers or p.reference or p.type_name not in _INTS:
                    continue
                out["int_params"] += 1
                if p.name in values or p.name in cfg_.params:
                    out["derived"] += 1
                else:
                    out["open"] += 1
    return out


_INTS = {"int", "unsigned", "unsigned int", "long", "long long", "unsigned long", "short", "size_t", "int32_t",
         "uint32_t", "int64_t", "uint64_t", "index_t", "int64", "MatrixIndexT", "int32"}


def _show(dims) -> str:
    if dims is None:
        return "none"
    return "(" + ", ".join(str(d) for d in dims) + ")"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part1", default="/tmp/realcode")
    ap.add_argument("--part2", default="/tmp/realcode2")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--unresolved", action="store_true", help="list the launched kernels not resolved")
    ap.add_argument("--tree", action="append", default=[], metavar="ROOT",
                    help="measure this tree (linted from its root, as `cudalint .` there) instead of parts 1 and 2")
    a = ap.parse_args()
    rows = []
    start = time.perf_counter()
    here = os.getcwd()
    for root in a.tree:
        os.chdir(root)
        rows.append({"part": "tree", "repo": os.path.basename(os.path.normpath(root)), **measure(["."])})
        os.chdir(here)
    for part, base in (("1", a.part1), ("2", a.part2)) if not a.tree else ():
        if not os.path.isdir(base):
            continue
        for repo in sorted(os.listdir(base)):
            root = os.path.join(base, repo)
            if not os.path.isdir(root):
                continue
            if part == "2":
                os.chdir(root)
                got = measure(["."])
                os.chdir(here)
            else:
                got = measure([root])
            rows.append({"part": part, "repo": repo, **got})
    if a.json:
        print(json.dumps(rows, indent=1))
        return 0
    head = f"{'part':4} {'repository':40} {'kernels':>7} {'launched':>8} {'fwd':>4} {'resolved':>8} {'shape':>6} " \
           f"{'block':>6} {'int params':>10} {'derived':>7} {'open':>5}"
    print(head)
    tot: dict = {}
    for r in rows:
        print(f"{r['part']:4} {r['repo'][:40]:40} {r['kernels']:7} {r['launched']:8} {r['forwarded']:4} {r['resolved']:8} "
              f"{r.get('shape', 0):6} {r['block_known']:6} {r['int_params']:10} {r['derived']:7} {r['open']:5}")
        t = tot.setdefault(r["part"], {k: 0 for k in ("kernels", "launched", "forwarded", "resolved", "shape", "block_known",
                                                       "int_params", "derived", "open")})
        for k in t:
            t[k] += r[k]
        if a.unresolved:
            for u in r["unresolved"]:
                print("      " + u)
    for part, t in tot.items():
        share = 100 * t["resolved"] / t["launched"] if t["launched"] else 0
        own = t["launched"] - t["forwarded"]
        print(f"part {part}: {t['kernels']} kernels, {t['launched']} launched in the linted files, "
              f"{t['resolved']} resolved ({share:.0f}%); {t['forwarded']} take grid and block whole from a function "
              f"no linted file calls, of the other {own}: {t['resolved']} resolved "
              f"({100 * t['resolved'] / own if own else 0:.0f}%), {t['shape']} with a resolved block and a computed grid "
              f"({100 * t['shape'] / own if own else 0:.0f}); "
              f"block known {t['block_known']}; integer parameters "
              f"{t['int_params']}: {t['derived']} derived, {t['open']} open")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
