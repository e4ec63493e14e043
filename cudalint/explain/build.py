"""Two-tree table + simulation + findings of one kernel -> the explain data (KernelView)."""
from __future__ import annotations

import math
import re

import numpy as np

from ..analysis.banks import count_wavefronts
from ..analysis.coalescing import warp_sectors
from ..analysis.simulate import SECTOR, WARP, AnalysisLimit, Simulation
from ..diagnostic import Diagnostic
from ..edits import _kernel_lines, pad_declaration
from ..index import ir
from ..index.evaluate import Evaluator
from ..index.parse import parse_expr
from ..index.printer import to_c
from ..index.terms import decompose, has_coord
from ..model.table import Access, TwoTreeTable
from ..rules import BY_CODE
from .data import (AccessView, Derivation, DimView, Finding, IteratorRow, KernelView, Lane, Rewrite,
                   TreeRow, WarpPicture)
from .terms import (Evaluated, Scope, four_questions, iterator_levels, max_check, parse_written, pattern_of, substitute,
                    symbolize, term_rows)

PHASES = ("load", "compute", "store")
BANKS = 32


def _dims(t: tuple[int, int, int]) -> str:
    n = 3 if t[2] > 1 else 2 if t[1] > 1 else 1
    return " x ".join(str(v) for v in t[:n])


class KernelExplainer:
    def __init__(self, table: TwoTreeTable, sim: Simulation | None, source, diags: list[Diagnostic],
                 only_line: int | None = None, verify=None):
        self.table = table
        self.sim = sim
        self.src = source
        self.diags = diags
        self.only_line = only_line
        self.verify = verify          # (path, {line: new text}) -> diagnostics of the rewritten file, or None
        # predecessors in the def-use graph, read off the edge list (networkx is not worth its import here)
        self.uses: dict[str, list[str]] = {}
        for d, u in table.def_use:
            self.uses.setdefault(u, []).append(d)
        self.constants = self._constants()
        self._evaluated: dict[Access, Evaluated] = {}
        self.env = self._env()

    # ---- values ------------------------------------------------------------------------------
    def _constants(self) -> dict[str, ir.Expr]:
        """Object-like macros with an integer value, by name (TILE_SIZE -> 32)."""
        out: dict[str, ir.Expr] = {}
        macros = getattr(self.src, "macros", None)
        if macros is None:
            return out
        for name, m in macros.macros.items():
            if m.params is not None or not m.body.strip():
                continue
            try:
                e = parse_expr(macros.expand(name))
            except Exception:  # a macro body that is not an expression (a statement, a type)
                continue
            if all(isinstance(n, (ir.Num, ir.Bin, ir.Un)) for n in e.walk()):
                out[name] = e
        for name, e in self.table.constants.items():   # `const int TILE_DIM = 32;`, as the model read it
            if name not in out and all(isinstance(n, (ir.Num, ir.Bin, ir.Un)) for n in e.walk()):
                out[name] = e
        for name, value in self.table.template_bindings.items():   # sgemm<64, 64, 8, 8>: BM = 64
            e = parse_written(value)
            if e is not None and all(isinstance(n, (ir.Num, ir.Bin, ir.Un)) for n in e.walk()):
                out[name] = e
        return out

    def _env(self) -> dict:
        if self.sim is None:
            return {}
        env = self.sim.base_env()
        for p in self.table.params:
            env[p] = np.int64(self.sim.param(p))
        return env

    def evaluated(self, acc: Access | None) -> Evaluated:
        if acc is None or self.sim is None or acc.unresolved:
            return Evaluated(self.env)
        if acc in self._evaluated:
            return self._evaluated[acc]
        try:
            env, mask = self.sim.instance_env(acc)
        except Exception:  # the access cannot be simulated: the terms are shown without values
            return Evaluated(self.env)
        env = {**self.env, **env}

        def run(exprs):
            return [np.broadcast_to(np.asarray(Evaluator(env).value(e)), mask.shape) for e in exprs]
        self._evaluated[acc] = Evaluated(self.env, mask, run)
        return self._evaluated[acc]

    def scope(self, acc: Access | None, reaching: dict[str, str]) -> Scope:
        locals_ = {}
        iters = {it.var: it for it in (acc.loops if acc else ())}
        iters.update({it.trip.name: it for it in (acc.loops if acc else ())})
        for name, d in reaching.items():
            it = self._loop_def(d)
            if it is not None:
                iters[name] = it
            elif d in self.table.def_values:
                locals_[name] = self.table.def_values[d]
        return Scope(locals_, iters, dict(self.constants), set(self.table.params),
                     getattr(self.src, "macros", None),
                     slide={it.trip.name for it in self.table.iterators if it.kind == "SLIDE"},
                     memory=self._memory())

    def _memory(self) -> frozenset[str]:
        """The memory levels the kernel has (the table's memory tree): Global and Register always."""
        return frozenset({"Global", "Register", *(a.level for a in self.table.arrays.values())})

    def _loop_def(self, d: str):
        name, _, line = d.rpartition("@")
        for it in self.table.iterators:
            if it.var == name and str(it.line) == line:
                return it
        return None

    def _reaching_of_def(self, d: str) -> dict[str, str]:
        return {p.rpartition("@")[0]: p for p in self.uses.get(d, ())}

    # ---- the view ----------------------------------------------------------------------------
    def build(self) -> KernelView:
        t, sim = self.table, self.sim
        accesses = [a for a in t.accesses if self.only_line is None or a.line == self.only_line]
        if self.only_line is not None and not accesses:
            # a definition line (`int aCol = ...`): the accesses its value flows into
            here = {d for d in t.def_values if d.rpartition("@")[2] == str(self.only_line)}
            accesses = [a for a in t.accesses if here & set(self._derivation_ids([a])[0])]
        derivs, first_acc = self._derivation_ids(accesses)
        phases: dict[str, list[Derivation]] = {p: [] for p in PHASES}
        flattened: set[str] = set()
        limits = self._limits(accesses)
        for d in derivs:
            der = self._derivation(d, first_acc[d], flattened, limits)
            if der is not None:
                phases[first_acc[d].phase].append(der)
        views: dict[str, list[AccessView]] = {p: [] for p in PHASES}
        for a in accesses:
            views[a.phase].append(self._access(a))
        lines = {a.line for a in accesses}
        findings = [self._finding(d) for d in self.diags if self.only_line is None or d.line in lines]
        if sim is not None:
            launch = f"grid ({', '.join(map(str, sim.grid))}) x block ({', '.join(map(str, sim.block))})"
            launch += f" from {t.launch.origin}" if sim.launch_known else " (assumed)"
            sizes = {p: sim.param(p) for p in t.params}
            assumptions = list(sim.assumptions)
            if sim.defaulted_params:
                assumptions.append("sizes not given, assumed " + ", ".join(
                    f"{n}={sim.params[n]}" for n in sim.defaulted_params) + " (give --param NAME=VALUE)")
        else:
            launch, sizes, assumptions = "not simulated", {}, list(t.assumptions)
        notes = [f"line {n.line}: {n.message}" for n in t.notes]
        return KernelView(t.kernel, t.path, t.line, launch, bool(sim and sim.launch_known), sizes, assumptions,
                          self._tree(accesses), self._iterators(), phases, views, findings, notes, self._source())

    def _source(self) -> list[tuple[int, str]]:
        """The kernel's lines as its file has them, numbered (the page shows them beside the table)."""
        lines = getattr(self.src, "lines", None)
        if not lines or self.src.path != self.table.path:
            return []
        return [(n, lines[n - 1]) for n in _kernel_lines(self.src, self.table.kernel, self.table) if n <= len(lines)]

    # ---- two-tree table ----------------------------------------------------------------------
    def _tree(self, accesses: list[Access]) -> list[TreeRow]:
        t, sim = self.table, self.sim
        used = {s.name for a in t.accesses for s in a.index.walk() if isinstance(s, ir.Sym)}
        bidx = [f"blockIdx.{a}" for a in "xyz" if f"blockIdx.{a}" in used] or ["blockIdx.x"]
        tidx = [f"threadIdx.{a}" for a in "xyz" if f"threadIdx.{a}" in used] or ["threadIdx.x"]
        levels = t.memory_levels()
        names: dict[str, list[str]] = {"Global": [], "Shared": [], "Register": []}
        for a in t.accesses:
            # source order (reaching is filled from a set)
            for n, d in sorted(a.reaching.items(), key=lambda nd: (int(nd[1].rpartition("@")[2] or 0)
                                                                   if nd[1].rpartition("@")[2].isdigit() else 0, nd[0])):
                if n in t.arrays or n in t.params:
                    continue
                lvl = a.array.level
                if (d in t.def_values and has_coord(t.def_values[d])) or self._loop_def(d) is not None:
                    if n not in names[lvl]:
                        names[lvl].append(n)
        reg_iters = sorted({it.var for it in t.iterators if it.kind != "SLIDE" and not it.moves_global and any(
            a.space == "local" and any(isinstance(s, ir.Sym) and s == it.trip for s in a.index.walk())
            for a in t.accesses)}, key=lambda v: [it.var for it in t.iterators].index(v))
        grid = _dims(sim.grid) if sim else "gridDim"
        block = _dims(sim.block) if sim else "blockDim"
        if sim and not sim.launch_known:   # unknowns stay symbols; the simulated values are said
            grid = f"gridDim (assumed {grid})"
            block = f"blockDim (assumed {block})"

        def mem(level):
            arrs = levels[level]
            if not arrs:
                return "-"
            if level == "Global":
                sizes = ""
                if self.sim:
                    unknown = [p for p in t.params if p in self.sim.defaulted_params]
                    known = [f"{p} = {self.sim.param(p)}" for p in t.params if p not in unknown]
                    vals = sorted({self.sim.param(p) for p in unknown})
                    if unknown:
                        known.append(f"{', '.join(unknown)} unknown (assumed {', '.join(map(str, vals))})")
                    sizes = ", ".join(known)
                return ", ".join(a.name for a in arrs) + (f"  ({sizes})" if sizes else "")
            return ", ".join(a.name + "".join(f"[{d if d is not None else '?'}]" for d in a.dims) for a in arrs)
        return [
            TreeRow("Grid", grid, ", ".join(bidx), "Global", names["Global"], mem("Global")),
            TreeRow("Block", block, ", ".join(tidx), "Shared", names["Shared"], mem("Shared")),
            TreeRow("Thread", "1", ", ".join(reg_iters) or "-", "Register", names["Register"], mem("Register")),
        ]

    def _iterators(self) -> list[IteratorRow]:
        out = []
        for it in self.table.iterators:
            header = self._loop_header(it)
            formula, trips = "", None
            if self.sim is not None:
                trips = self.sim.trip_count(it)
                formula = self._bound_formula(it, header)
            note = "grid-stride" if it.grid_stride else ""
            out.append(IteratorRow(it.var, it.line, it.kind, iterator_levels(it, self._memory()), header, formula,
                                   trips, note))
        return out

    def _loop_header(self, it) -> str:
        lines = getattr(self.src, "lines", [])
        if 0 < it.line <= len(lines):
            m = re.search(r"\bfor\s*\(([^;]*);([^;]*);", lines[it.line - 1])
            if m:
                return " ".join(m.group(2).split())
            m = re.search(r"\bwhile\s*\((.*)\)", lines[it.line - 1])
            if m:
                return " ".join(m.group(1).split())
        return to_c(it.cond) if it.cond is not None else ""

    def _bound_formula(self, it, header: str) -> str:
        """The loop bound with launch sizes and macros written in: `K / TILE_SIZE` -> `1024 / 32`."""
        e = parse_written(header)
        if not (isinstance(e, ir.Bin) and e.op in ("<", "<=", "!=")
                and isinstance(e.left, ir.Name) and e.left.name == it.var):
            return ""
        written = header.split(e.op, 1)[1].strip() if e.op in header else to_c(e.right)
        bound = self._numbers(e.right, written)
        if it.trip.name == it.var:
            return bound
        # a loop that does not count 0, 1, 2, ...: the bound over the step (`i += blockDim.x * gridDim.x`)
        step = next((t.stride for t in decompose(it.value) if t.coord == it.trip), None)
        v = Evaluated(self.env).scalar(step) if step is not None else None
        return f"ceil({bound} / {v})" if v else ""

    def _numbers(self, e: ir.Expr, written: str) -> str:
        """`written` with each size replaced by its value, parentheses as the code has them:
        `(TILE_SIZE * TILE_SIZE) / (blockDim.x * blockDim.y)` -> `(32 * 32) / (8 * 8)`."""
        scope = Scope({}, {}, dict(self.constants), set(self.table.params), getattr(self.src, "macros", None))
        values: dict[str, ir.Expr] = {}
        sym = symbolize(e, scope, values)
        numbers = {}
        ev = Evaluated(self.env)
        for s in sym.walk():
            if isinstance(s, ir.Sym) and s.kind in ("param", "blockdim", "griddim"):
                v = ev.scalar(substitute(s, values))
                if v is not None:
                    numbers[s.name] = v
        for name in sorted(numbers, key=len, reverse=True):
            written = re.sub(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", str(numbers[name]), written)
        return " ".join(written.split())

    # ---- index variables ---------------------------------------------------------------------
    def _derivation_ids(self, accesses):
        """Definitions the accesses' indexes are built from, bottom-up (by line), each with the
        first access it reaches."""
        first: dict[str, Access] = {}
        for a in accesses:
            stack = [d for n, d in a.reaching.items() if n not in self.table.arrays]
            while stack:
                d = stack.pop()
                if d in first:
                    continue
                if self._loop_def(d) is not None or d not in self.table.def_values:
                    continue
                if not has_coord(self.table.def_values[d]):
                    continue
                first[d] = a
                stack.extend(self.uses.get(d, ()))
        order = sorted(first, key=lambda d: (int(d.rpartition("@")[2] or 0), d))
        return order, first

    def _limits(self, accesses) -> dict[str, tuple[int, str]]:
        """Largest allowed value of a variable used as a whole subscript (`As[sRow][sCol]`), or as
        the unit-stride column of a global `row * pitch + col`."""
        out: dict[str, tuple[int, str]] = {}
        for a in accesses:
            subs = self._subscripts(a)
            if a.array.dims and len(subs) == len(a.array.dims):
                for k, (text, dim) in enumerate(zip(subs, a.array.dims)):
                    if dim is not None and re.fullmatch(r"[A-Za-z_]\w*", text):
                        out.setdefault(text, (dim - 1, f"{a.array.name} dimension {k + 1} has {dim}"))
            elif a.space == "global" and len(subs) == 1:
                e = parse_written(subs[0])
                if e is None:
                    continue
                scope = self.scope(a, a.reaching)
                _, rows, _ = term_rows(e, scope, Evaluated(self.env))
                coords = [r for r in rows if r.level != "offset"]
                if len(coords) == 2:
                    unit = [r for r in coords if r.stride_value == 1]
                    other = [r for r in coords if r.stride_value not in (None, 1)]
                    if unit and other and re.fullmatch(r"[A-Za-z_]\w*", unit[0].coord):
                        o = other[0]
                        out.setdefault(unit[0].coord, (o.stride_value - 1,
                                                       f"row length {o.stride} = {o.stride_value}"
                                                       if o.stride != str(o.stride_value) else
                                                       f"row length {o.stride_value}"))
        return out

    def _derivation(self, d: str, acc: Access, flattened: set[str], limits) -> Derivation | None:
        text = self.table.definitions.get(d, "")
        name, _, line = d.rpartition("@")
        _, _, written_text = text.partition(" = ")
        e = parse_written(written_text)
        if e is None:
            return None
        scope = self.scope(acc, self._reaching_of_def(d))
        ev = self.evaluated(acc)
        _, rows, _ = term_rows(e, scope, ev)
        whole = ev.extremes(self.table.def_values[d])
        lim = limits.get(name)
        check = max_check(rows, whole, lim[0] if lim else None, lim[1] if lim else "")
        block = self.sim.block if self.sim else (1, 1, 1)
        pattern = pattern_of(name, e, rows, block, flattened)
        if pattern in ("Flatten", "Stride"):
            flattened.add(name)
        questions = four_questions(rows) if not pattern else []
        if questions:
            pattern = "four questions"
        return Derivation(name, int(line), f"{name} = {written_text}", pattern, rows, check, questions)

    # ---- accesses ----------------------------------------------------------------------------
    def _subscripts(self, a: Access) -> list[str]:
        """The subscripts as written, of the array itself: `((float4*)&B[i * N + j])[0]` -> `i * N + j`."""
        e = parse_written(a.text)
        chains = []
        for node in (e.walk() if e is not None else ()):
            subs, cur = [], node
            while isinstance(cur, ir.Subscript):
                subs.insert(0, to_c(cur.index))
                cur = cur.base
            if subs and isinstance(cur, ir.Name) and cur.name == a.array.name:
                chains.append(subs)
        return max(chains, key=len) if chains else [a.source_index or "0"]

    def _access(self, a: Access) -> AccessView:
        ev = self.evaluated(a)
        scope = self.scope(a, a.reaching)
        subs = self._subscripts(a)
        dims = []
        res = self.sim.result(a) if self.sim is not None and not a.unresolved else None
        per_dim = a.array.dims and len(subs) == len(a.array.dims)
        for k, text in enumerate(subs):
            e = parse_written(text)
            if e is None:
                dims.append(DimView(text, [], None))
                continue
            it = scope.iterators.get(text)
            if it is not None and it.value != it.trip:
                e = it.value      # a loop variable that is itself an index: show what it is made of
                text = f"{text} = {to_c(it.value)}"
            _, rows, values = term_rows(e, scope, ev)
            if per_dim:
                limit = a.array.dims[k] - 1 if a.array.dims[k] is not None else None
                limit_text = f"{a.array.name} dimension {k + 1} has {a.array.dims[k]}"
                resolved = a.dims[k] if len(a.dims) == len(subs) else None
            else:
                ext = a.array.extent
                limit = ext - 1 if ext is not None else None
                limit_text = "" if ext is not None else f"`{a.array.name}` is a pointer: its extent is not declared"
                resolved = None
                full = ev.extremes(a.index) if len(subs) == 1 else None
                moves = self._pointer_moves(a.array.name)
                if moves and full is not None:
                    limit_text += (f"; `{a.array.name}` itself is moved by " + ", ".join(
                        f"`{t}` (line {ln})" for ln, t in moves) + f": the element index reaches {full[1]}")
            # the range CL201 judges (every thread, the loops' extremes, the guards), where the
            # simulation keeps one (arrays with a declared extent); else the index's own extremes
            ranges = res.ranges if res is not None and not res.error else []
            kept = ranges[k] if per_dim and len(ranges) == len(subs) else \
                ranges[0] if not per_dim and len(subs) == 1 and len(ranges) == 1 else None
            whole = (kept.lo, kept.hi) if kept is not None else \
                ev.extremes(resolved if resolved is not None else substitute(symbolize(e, scope, {}), values))
            dims.append(DimView(text, rows, max_check(rows, whole, limit, limit_text)))
        warp = self._warp(a) if self.sim is not None and res is not None and not res.error else None
        codes = [d.code for d in self.diags if d.line == a.line and (d.array in (None, a.array.name))]
        note = (a.unresolved or (res.error if res else "") or "") if (a.unresolved or res) else ""
        return AccessView(a.line, a.text, a.array.name, a.space, a.kind, a.phase, to_c(a.index), dims, warp,
                          sorted(set(codes)), note or "")

    def _pointer_moves(self, name: str) -> list[tuple[int, str]]:
        """`A += cRow * BM * K;` statements that move a pointer parameter, as written."""
        out = []
        for d in self.table.definitions:
            n, _, line = d.rpartition("@")
            if n == name and line.isdigit() and (text := self._line(int(line))) is not None:
                out.append((int(line), " ".join(text.split())))
        return sorted(out)

    def _warp(self, a: Access) -> WarpPicture | None:
        if a.space not in ("global", "shared"):
            return None
        sim = self.sim
        point = {"blockIdx.x": 0, "blockIdx.y": 0, "blockIdx.z": 0}
        for it in a.loops:
            point[it.trip.name] = 0
        try:
            tids, index, mask = sim.warp_lanes(a, point)
        except Exception:  # the index needs a value the simulation does not have
            return None
        es, width = a.array.elem_size, a.width
        lanes = []
        addrs = set()
        for ln in range(WARP):
            tid = (int(tids["threadIdx.x"][ln]), int(tids["threadIdx.y"][ln]), int(tids["threadIdx.z"][ln]))
            if not mask[ln]:
                lanes.append(Lane(ln, tid, None, None, None))
                continue
            idx = int(index[ln])
            addr = int(a.byte_address(idx))
            addrs.add(addr)
            unit = addr // SECTOR if a.space == "global" else (addr // 4) % BANKS    # the lane's first
            lanes.append(Lane(ln, tid, idx, addr, unit))
        if not addrs:
            return None
        lane_addr = np.array([[ln.address if ln.address is not None else 0 for ln in lanes]], dtype=np.int64)
        lane_mask = np.array([[ln.address is not None for ln in lanes]])
        if a.space == "global":
            # the count CL101 makes of each request (analysis.coalescing.warp_sectors)
            sectors, distinct = warp_sectors(lane_addr, lane_mask, width)
            n_units = int(sectors[0])
            ideal = math.ceil(int(distinct[0]) * width / SECTOR)
        else:
            # the same count CL401 makes: phases for 8/16-byte accesses, broadcast of one word
            wf = count_wavefronts(lane_addr, lane_mask, width, a.kind)
            n_units, ideal = int(wf.wavefronts[0]), int(wf.ideal[0])
        avg = avg_ideal = None
        res = sim.result(a)
        if res.coalescing is not None:
            avg, avg_ideal = res.coalescing.sectors_per_request, res.coalescing.ideal_sectors
        shown = {k: v for k, v in point.items() if not k.startswith("blockIdx") or sim.grid["xyz".index(k[-1])] > 1}
        return WarpPicture(a.space, es, width, shown, lanes, n_units, ideal, avg, avg_ideal)

    # ---- findings ----------------------------------------------------------------------------
    def _finding(self, d: Diagnostic) -> Finding:
        rule = BY_CODE.get(d.code)
        doc = (rule.__doc__ or "") if rule else ""
        rewrites, note = self._rewrites(d), ""
        if rewrites and self.verify is not None:
            rewrites, note = self._verified(d, rewrites)
        return Finding(d.code, d.name, d.category, d.severity, d.line, d.column, d.message,
                       _section(doc, "Why is this bad?"), _section(doc, "Use instead"), rewrites, note,
                       d.path if d.path and d.path != self.table.path else "")

    def _verified(self, d: Diagnostic, rewrites: list[Rewrite]) -> tuple[list[Rewrite], str]:
        """A rewrite is offered only when linting the rewritten file removes the finding and adds none."""
        lines = getattr(self.src, "lines", [])
        after = self.verify(self.table.path, {r.line: lines[r.line - 1].replace(r.original, r.rewritten)
                                              for r in rewrites})
        if after is None:
            return [], "the rewritten file could not be analysed"
        before = {(x.line, x.code) for x in self.diags if x.severity in ("warning", "error")}
        mine = {(x.line, x.code) for x in after if x.kernel == self.table.kernel and x.severity in ("warning", "error")}
        new = sorted(mine - before)
        if (d.line, d.code) in mine or new:
            what = ", ".join(f"{c} on line {ln}" for ln, c in new) or f"{d.code} on line {d.line}"
            return [], (f"rewriting line{'s' if len(rewrites) > 1 else ''} "
                        f"{', '.join(str(r.line) for r in rewrites)} mechanically would leave {what}; "
                        f"change it by hand")
        return rewrites, ""

    def _rewrites(self, d: Diagnostic) -> list[Rewrite]:
        acc = next((a for a in self.table.accesses if a.line == d.line and a.array.name == d.array), None)
        if acc is None:
            return []
        if d.code == "CL102":
            return self._swap_axes(d, acc)
        if d.code == "CL301" and "expected_stride" in d.metrics:
            return self._fix_stride(acc, d.metrics["stride"], d.metrics["expected_stride"])
        if d.code == "CL401" and d.metrics.get("padding") and self.src is not None:
            e = pad_declaration(self.table, acc, d.metrics["padding"], self.src.lines,
                                _kernel_lines(self.src, self.table.kernel, self.table))
            return [Rewrite(e.line, e.old.strip(), e.new.strip())] if e is not None else []
        return []

    def _line(self, n: int) -> str | None:
        lines = getattr(self.src, "lines", [])
        return lines[n - 1] if 0 < n <= len(lines) else None

    def _swap_axes(self, d: Diagnostic, acc: Access) -> list[Rewrite]:
        """CL102: swap threadIdx.x/y (blockIdx, blockDim too) in the definitions the index uses."""
        axis = "z" if "stride_z" in d.metrics else "y"
        out = []
        for n in sorted(acc.name_deps, key=lambda n: acc.reaching.get(n, "").rpartition("@")[2].zfill(8)):
            deps = acc.name_deps[n]
            if not deps or ("threadIdx.x" in deps) == (f"threadIdx.{axis}" in deps):
                continue
            dd = acc.reaching.get(n)
            orig = self._line(int(dd.rpartition("@")[2] or 0)) if dd else None
            if orig is None:
                continue
            new = re.sub(r"\b(threadIdx|blockIdx|blockDim|gridDim)\.([x" + axis + r"])\b",
                         lambda m: f"{m.group(1)}.{axis if m.group(2) == 'x' else 'x'}", orig)
            if new != orig:
                out.append(Rewrite(int(dd.rpartition("@")[2]), orig.strip(), new.strip()))
        return out

    def _fix_stride(self, acc: Access, stride: int, expected: int) -> list[Rewrite]:
        """CL301: in the definition holding the term `coord * STRIDE`, put the name (or number)
        whose value is the span of the level below: `threadIdx.x * TILE_SIZE` -> `threadIdx.x * WPT`."""
        ev = Evaluated(self.env)
        names = sorted(n for n, e in self.constants.items() if ev.scalar(e) == expected)
        replacement = names[0] if names else str(expected)
        ids, _ = self._derivation_ids([acc])
        candidates = [(int(d.rpartition("@")[2]), self.table.definitions[d].partition(" = ")[2],
                       self.scope(acc, self._reaching_of_def(d))) for d in reversed(ids)]
        candidates.append((acc.line, acc.text, self.scope(acc, acc.reaching)))
        for line, text, scope in candidates:
            e = parse_written(text)
            orig = self._line(line)
            if e is None or orig is None:
                continue
            _, rows, _ = term_rows(e, scope, ev)
            for r in rows:
                if r.level == "offset" or r.stride_value != stride or not re.fullmatch(r"\w+", r.stride):
                    continue
                pat = re.escape(r.coord) + r"(\s*\*\s*)" + re.escape(r.stride) + r"\b"
                new = re.sub(pat, lambda m: r.coord + m.group(1) + replacement, orig, count=1)
                if new != orig:
                    return [Rewrite(line, orig.strip(), new.strip())]
        return []


def _section(doc: str, title: str) -> str:
    m = re.search(r"^##\s*" + re.escape(title) + r"\s*\n(.*?)(?=^##\s|\Z)", doc, re.S | re.M)
    return m.group(1).strip() if m else ""


def explain_table(table, params, source, diags, only_line=None, verify=None, simulate=None) -> KernelView:
    """`simulate`: table -> the Simulation check's findings were made with (the engine's), else one
    under `params`."""
    try:
        sim, why = (simulate(table) if simulate is not None else Simulation(table, params)), ""
    except AnalysisLimit as exc:
        sim, why = None, str(exc)
    view = KernelExplainer(table, sim, source, diags, only_line, verify).build()
    if sim is None:
        view.launch = f"not simulated: {why}"
    return view
