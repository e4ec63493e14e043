"""One walk over the explain data, in the seed's order (table, iterators, indexes by phase with
their max checks and warp pictures, findings); the text, markdown and HTML writers lay it out."""
from __future__ import annotations

from .data import AccessView, Derivation, Explanation, ExprView, KernelView, TermRow, WarpPicture
from .terms import check_text

PHASE_TITLES = {"load": "Load phase", "compute": "Compute phase", "store": "Store phase"}


def term_lines(lhs: str, rows: list[TermRow]) -> list[tuple[str, str, str]]:
    """`= blockIdx.y * 32`, `Grid -> Global`, `stride TILE_SIZE` rows of a decomposition."""
    out = []
    for i, r in enumerate(rows):
        op = "=" if i == 0 else "+"
        if r.level == "offset":
            expr = str(r.stride_value) if r.stride_value is not None else r.stride
            how = ""
        else:
            if r.stride_value == 1 or r.stride == "1":
                expr = r.coord
            elif r.stride_value is not None:
                expr = f"{r.coord} * {r.stride_value}"
            else:
                expr = f"{r.coord} * {r.stride}"
            how = f"stride {r.stride}" if r.stride not in ("1", str(r.stride_value)) else ""
        if r.max_coord is not None and r.level != "offset":
            what = r.coord if " " not in r.coord else ""
            how = (how + "  " if how else "") + (f"max {what} = {r.max_coord}" if what else f"max {r.max_coord}")
        out.append((f"{' ' * len(lhs)} {op} {expr}", r.level, how))
    return out


def lane_rows(w: WarpPicture) -> list[tuple[str, ...] | None]:
    """The seed's warp table: first and last lane of each run (same threadIdx.y/z, constant step);
    None marks the elided lanes between."""
    lanes = w.lanes
    runs, start = [], 0
    for i in range(1, len(lanes) + 1):
        if i == len(lanes) or _breaks(lanes, start, i):
            runs.append((start, i - 1))
            start = i
    if len(runs) * 3 > 16:
        # no regular runs to fold (e.g. pairs of lanes): the first 8 lanes, then the last 4
        runs = [(i, i) for i in range(8)] + [(8, len(lanes) - 5)] + [(i, i) for i in range(len(lanes) - 4, len(lanes))]
    out: list[tuple[str, ...] | None] = []
    for a, b in runs:
        keep = [a] if a == b else [a, b] if b - a == 1 else [a, None, b]
        for k in keep:
            if k is None:
                out.append(None)
                continue
            ln = lanes[k]
            tid = f"({ln.tid[0]}, {ln.tid[1]})" if ln.tid[2] == 0 else f"({ln.tid[0]}, {ln.tid[1]}, {ln.tid[2]})"
            if ln.index is None:
                out.append((str(ln.lane), tid, "-", "-", "inactive"))
            else:
                out.append((str(ln.lane), tid, str(ln.index), str(ln.address), str(ln.unit)))
    return out


def _breaks(lanes, start: int, i: int) -> bool:
    cur, prev = lanes[i], lanes[i - 1]
    if cur.tid[1:] != prev.tid[1:] or (cur.index is None) != (prev.index is None):
        return True
    if cur.index is None or i - start < 2:
        return False
    return cur.index - prev.index != prev.index - lanes[i - 2].index


def unit_strip(w: WarpPicture) -> str:
    """One letter per lane, one letter per distinct sector (global) or bank (shared)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    seen: dict[int, str] = {}
    out = []
    for ln in w.lanes:
        if ln.unit is None:
            out.append(".")
            continue
        if ln.unit not in seen:
            seen[ln.unit] = letters[len(seen) % len(letters)]
        out.append(seen[ln.unit])
    s = "".join(out)
    return " ".join(s[i:i + 8] for i in range(0, len(s), 8))


def warp_summary(w: WarpPicture) -> str:
    if w.space == "global":
        s = f"{w.units} sector{'s' if w.units != 1 else ''} for this request (ideal {w.ideal})"
        if w.average is not None:
            s += f"; {w.average:.2f} sectors/request over all simulated requests (ideal {w.average_ideal:.2f})"
        return s
    if w.units <= max(w.ideal, 1):
        n = max(w.units, 1)
        return f"no bank conflict: {n} wavefront{'s' if n != 1 else ''}" + (
            f" ({n} phases of {32 // n} lanes for {w.width}-byte accesses)" if n > 1 else "")
    ways = -(-w.units // max(w.ideal, 1))
    return f"{ways}-way bank conflict: {w.units} wavefronts where {w.ideal} would do"


def point_text(w: WarpPicture) -> str:
    blk = [f"{k}={v}" for k, v in w.point.items() if k.startswith("blockIdx")]
    its = [f"{k}={v}" for k, v in w.point.items() if not k.startswith("blockIdx")]
    return "warp 0 of block 0" + (f" at {', '.join(its)}" if its else "") + (f" ({', '.join(blk)})" if blk else "")


def render(ex: Explanation, w) -> str:
    for p in ex.problems:
        w.note(f"parse: {p}")
    if ex.expr is not None:
        _expr(ex.expr, w)
    for k in ex.kernels:
        _kernel(k, w)
    return w.result()


def _expr(e: ExprView, w) -> None:
    w.heading(1, f"Expression  {e.expr}")
    w.kv("launch", f"grid ({', '.join(map(str, e.grid))}) x block ({', '.join(map(str, e.block))})")
    if e.defines:
        w.kv("defines", ", ".join(f"{k} = {v}" for k, v in e.defines.items()))
    for a in e.assumptions:
        w.kv("assumes", a)
    _decomposition(w, "index", e.expr, e.terms, e.pattern)
    if e.check is not None:
        w.check("max check", check_text(e.check), e.check.ok)


def _kernel(k: KernelView, w) -> None:
    w.heading(1, f"Kernel {k.name}  ({k.path}:{k.line})")
    w.kv("launch", k.launch)
    if k.sizes:
        w.kv("sizes", ", ".join(f"{n} = {v}" for n, v in k.sizes.items()))
    for a in k.assumptions:
        w.kv("assumes", a)
    for n in k.notes:
        w.note(n)

    w.heading(2, "1. Two Tree Table")
    w.table(["Level", "Size", "Index", "|", "Index", "Size", "Level"],
            [(r.exec_level, r.exec_size, r.exec_index, "|", ", ".join(r.mem_index) or "-", r.mem_size, r.mem_level)
             for r in k.table])
    w.beside_source(k.source)

    w.heading(2, "2. Iterators")
    if k.iterators:
        rows = []
        for it in k.iterators:
            trips = "not computed" if it.trips is None else f"{it.trips} iterations"
            formula = f"{it.formula} = {trips}" if it.formula and it.trips is not None and \
                it.formula != str(it.trips) else trips
            rows.append((it.name, it.kind, it.levels, f"line {it.line}", it.header, formula))
        w.table(["Iterator", "Kind", "Levels", "Where", "Condition", "Count"], rows)
        w.para("SLIDE: the level needs new data each iteration (memory size / tile size); "
               "AREA: it sweeps a region it already holds (memory size / execution size).")
    else:
        w.para("No loops: every thread makes each access once.")

    w.heading(2, "3. Indexes by phase, with max checks and warp pictures")
    attached: set[tuple[int, str]] = set()
    for phase in ("load", "compute", "store"):
        ders, accs = k.phases.get(phase, []), k.accesses.get(phase, [])
        if not ders and not accs:
            continue
        w.heading(3, PHASE_TITLES[phase])
        for d in ders:
            _derivation(w, d)
        for a in accs:
            _access(w, a, k, attached)

    rest = [f for f in k.findings if (f.line, f.code) not in attached]
    if rest:
        w.heading(2, "4. Other findings")
        for f in rest:
            w.finding(f)
    if not k.findings:
        w.para("No findings for this kernel.")


def _decomposition(w, title: str, written: str, rows: list[TermRow], pattern: str, line: int | None = None):
    lhs = written.split(" = ")[0] if " = " in written else ""
    w.derivation(written, pattern, line, term_lines(lhs, rows))


def _derivation(w, d: Derivation) -> None:
    _decomposition(w, d.name, d.written, d.terms, d.pattern, d.line)
    if d.questions:
        w.check("four questions", "; ".join(d.questions), None)
    if d.check is not None:
        w.check("max check", check_text(d.check), d.check.ok)


def _access(w, a: AccessView, k: KernelView, attached: set) -> None:
    w.access_heading(a)
    if a.note:
        w.note(a.note)
    for dv in a.dims:
        if (len(dv.terms) == 1 and dv.terms[0].coord == dv.written) or all(t.level == "offset" for t in dv.terms):
            # a variable decomposed above: only its check against this array
            if dv.check is not None:
                w.check(f"[{dv.written}] max check", check_text(dv.check), dv.check.ok)
            continue
        _decomposition(w, "index", dv.written, dv.terms, "")
        if dv.check is not None:
            w.check("max check", check_text(dv.check), dv.check.ok)
    if a.warp is not None:
        w.warp(a.warp)
    for f in k.findings:
        if f.line == a.line and f.code in a.findings and (f.line, f.code) not in attached:
            attached.add((f.line, f.code))
            w.finding(f)
