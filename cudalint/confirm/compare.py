"""What the log measured, per access site, and how each static finding reads against it.

Per site: sectors per request (distinct 32-byte sectors of the real device addresses of one warp's
lanes at one dynamic instance, averaged over requests), the ideal (bytes of the distinct addresses
/ 32, rounded up), shared-memory wavefronts per request (the bank model CL401 uses, on the logged
lane addresses), the address step
between neighbouring threads along x and y, out-of-range accesses, elements stored by two threads
at one instance, and shared words written and accessed by two threads within one barrier interval.

A rule plugs in with one entry of CONFIRMERS: code -> function(measure, min_ratio) returning
(confirmed, summary).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..diagnostic import Diagnostic
from .instrument import Site
from .runner import Log

SECTOR = 32
WARP = 32
F_GLOBAL, F_SHARED, F_LOCAL, F_OOR = 1, 2, 4, 8
WARP_EPOCH = 1 << 20     # log_runtime.cuh's CL_WARP_EPOCH: __syncwarp()s above the block barriers


@dataclass
class SiteMeasure:
    site: int
    requests: int = 0
    weight: float = 0.0            # requests of the whole grid they stand for (sampled blocks weighted)
    sectors_per_request: float | None = None
    ideal_sectors: float | None = None
    wavefronts_per_request: float | None = None
    ideal_wavefronts: float | None = None
    x_step_bytes: int | None = None
    y_step_bytes: int | None = None
    out_of_range: int = 0
    min_index: int | None = None
    max_index: int | None = None
    overlapping_stores: int = 0
    race_words: int = 0

    @property
    def ratio(self) -> float | None:
        if self.sectors_per_request is None or not self.ideal_sectors:
            return None
        return self.sectors_per_request / self.ideal_sectors

    @property
    def ways(self) -> float | None:
        if self.wavefronts_per_request is None or not self.ideal_wavefronts:
            return None
        return self.wavefronts_per_request / self.ideal_wavefronts

    def metrics(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if v is not None and k not in ("site", "weight")}
        for k in ("sectors_per_request", "ideal_sectors", "wavefronts_per_request", "ideal_wavefronts"):
            if k in d:
                d[k] = round(float(d[k]), 2)
        return d


def measure(log: Log, sites: list[Site], block: tuple[int, int, int],
            block_weights: list[int] | None = None) -> dict[int, SiteMeasure]:
    """Per-site figures; a request counts as many times as blocks its (sampled) block stands for,
    and a site's weight in the kernel's totals is the number of requests it really made."""
    r = log.records
    out: dict[int, SiteMeasure] = {}
    if not len(r["site"]):
        return out
    nthreads = int(np.prod(block))
    nwarps = -(-nthreads // WARP)
    flags = r["flags"]
    width = ((flags >> 8) & 0xFF).astype(np.int64)
    oor = (flags & F_OOR) != 0
    inst_span = int(r["inst"].max()) + 1
    by_site = np.argsort(r["site"], kind="stable")
    bounds = np.searchsorted(r["site"][by_site], np.arange(len(sites) + 1))
    race = _race_records(r, oor, sites)
    slot_weight = np.asarray(block_weights or [1] * (int(r["slot"].max()) + 1), dtype=np.float64)
    for s in sites:
        idx = by_site[bounds[s.id]:bounds[s.id + 1]]
        if not len(idx):
            continue
        m = SiteMeasure(s.id)
        bad = idx[oor[idx]]
        if len(bad):
            m.out_of_range = len(bad)
            esize = s.array.elem_size if s.array is not None else int(width[bad].max())
            elems = r["off"][bad] // max(esize, 1)
            m.min_index, m.max_index = int(elems.min()), int(elems.max())
        good = idx[~oor[idx]]
        m.race_words = int(len(np.unique(r["addr"][good][race[good]] // 4))) if len(good) else 0
        if len(good):
            slot = r["slot"][good].astype(np.int64)
            tid = r["tid"][good].astype(np.int64)
            inst = r["inst"][good].astype(np.int64)
            addr = r["addr"][good].astype(np.int64)
            w = int(width[good].max())
            group = (slot * nwarps + tid // WARP) * inst_span + inst
            groups = np.unique(group)
            gw = slot_weight[groups // (nwarps * inst_span)]
            m.requests, m.weight = int(len(groups)), float(gw.sum())
            if log.counts is not None:
                m.weight = _executed_requests(log.counts[:, :, s.id], slot_weight) or m.weight
            space = int(flags[good[0]]) & (F_GLOBAL | F_SHARED)
            if space == F_GLOBAL:
                align = max((getattr(a, "align", 0) for a in s.accesses), default=0)
                m.sectors_per_request, m.ideal_sectors = _sectors(group, addr, w, gw, align)
            elif space == F_SHARED:
                m.wavefronts_per_request, m.ideal_wavefronts = _wavefronts(
                    group, tid % WARP, addr, w, gw, "store" if s.kind == "store" else "load")
            m.x_step_bytes, m.y_step_bytes = _steps(slot, inst, tid, addr, block, inst_span)
            if s.stores and s.kind != "atomic":
                # at one step: in one barrier interval of the block (a tree reduction's threads store
                # one element in turn, a barrier apart)
                block_epoch = r["epoch"][good].astype(np.int64) % WARP_EPOCH
                m.overlapping_stores = _overlaps(slot, inst * (WARP_EPOCH + 1) + block_epoch, tid, addr)
        out[s.id] = m
    return out


def _executed_requests(counts: np.ndarray, slot_weight: np.ndarray) -> float:
    """Warp requests the site really made (only some instances are logged): per warp, the most
    instances any of its lanes ran, summed, each block counted for the blocks it stands for."""
    slots, nthreads = counts.shape
    pad = (-nthreads) % WARP
    per_warp = np.pad(counts, ((0, 0), (0, pad))).reshape(slots, -1, WARP).max(axis=2).sum(axis=1)
    return float((per_warp * slot_weight[:slots]).sum())


def _distinct_rows(*cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows sorted by the columns (the first most significant): (order, mask of the first row of each
    distinct row). A lexsort, not np.unique(axis=0), which is slow on millions of records."""
    order = np.lexsort(tuple(reversed(cols)))
    first = np.zeros(len(order), dtype=bool)
    if len(order):
        first[0] = True
    for c in cols:
        sc = c[order]
        first[1:] |= sc[1:] != sc[:-1]
    return order, first


def _runs(*cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Already sorted columns: (start index of each run of equal rows, run lengths)."""
    n = len(cols[0])
    new = np.zeros(n, dtype=bool)
    if n:
        new[0] = True
    for c in cols:
        new[1:] |= c[1:] != c[:-1]
    starts = np.nonzero(new)[0]
    return starts, np.diff(np.r_[starts, n])


def _per_group_distinct(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Distinct values per group, in the order of np.unique(group)."""
    order, first = _distinct_rows(group, value)
    g = group[order][first]
    starts = np.r_[True, g[1:] != g[:-1]]
    return np.diff(np.r_[np.nonzero(starts)[0], len(g)])


def _sectors(group, addr, width, weights, align: int = 0) -> tuple[float, float]:
    from ..analysis.coalescing import piece_width, run_ideal
    piece = piece_width(width, align)
    if piece != width:
        # moved in pieces, each a request of its own, as the static side counts it
        k = width // piece
        group = (group[None, :] * k + np.arange(k)[:, None]).ravel()
        addr = (addr[None, :] + piece * np.arange(k)[:, None]).ravel()
        weights = np.repeat(weights, k)
        width = piece
    first, last = addr // SECTOR, (addr + width - 1) // SECTOR
    sectors = _per_group_distinct(np.concatenate([group, group]), np.concatenate([first, last]))
    distinct = _per_group_distinct(group, addr)
    ideal = np.ceil(distinct * width / SECTOR)
    if width * WARP < 4 * SECTOR:
        # narrow elements in one contiguous run take its sectors wherever it starts
        groups, row = np.unique(group, return_inverse=True)
        lo = np.full(len(groups), np.iinfo(np.int64).max, dtype=np.int64)
        hi = np.full(len(groups), -1, dtype=np.int64)
        np.minimum.at(lo, row, addr)
        np.maximum.at(hi, row, addr)
        ideal = run_ideal(ideal, lo, hi, distinct, width)
    return float(np.average(sectors, weights=weights)), float(np.average(ideal, weights=weights))


def _wavefronts(group, lane, addr, width, weights, kind="load") -> tuple[float, float]:
    """Per request (one warp's lanes at one instance), the wavefronts and the ideal of CL401's bank
    model (analysis/banks.py), averaged with the requests' weights."""
    from ..analysis.banks import count_wavefronts
    groups, row = np.unique(group, return_inverse=True)
    req_addr = np.zeros((len(groups), WARP), dtype=np.int64)
    req_mask = np.zeros((len(groups), WARP), dtype=bool)
    req_addr[row, lane] = addr
    req_mask[row, lane] = True
    wf = count_wavefronts(req_addr, req_mask, width, kind)
    return float(np.average(wf.wavefronts, weights=weights)), float(np.average(wf.ideal, weights=weights))


def _steps(slot, inst, tid, addr, block, inst_span) -> tuple[int | None, int | None]:
    """Most common address step from a thread to its neighbour along x and along y, same instance."""
    bx, by, _ = block
    nthreads = int(np.prod(block))
    key = (slot * inst_span + inst) * nthreads + tid
    order = np.argsort(key)
    ks, av = key[order], addr[order]
    out = []
    for step, ok in ((1, tid % bx < bx - 1), (bx, (tid // bx) % by < by - 1)):
        if (step == 1 and bx < 2) or (step == bx and by < 2):
            out.append(None)
            continue
        want = key[ok] + step
        pos = np.searchsorted(ks, want)
        pos = np.minimum(pos, len(ks) - 1)
        hit = ks[pos] == want
        if not hit.any():
            out.append(None)
            continue
        d = av[pos[hit]] - addr[ok][hit]
        vals, counts = np.unique(d, return_counts=True)
        out.append(int(vals[np.argmax(counts)]))
    return out[0], out[1]


def _overlaps(slot, inst, tid, addr) -> int:
    """Elements (slot, instance, address) stored by more than one thread."""
    order, first = _distinct_rows(slot, inst, addr, tid)
    rows = [c[order][first] for c in (slot, inst, addr)]
    _, sizes = _runs(*rows)
    return int((sizes > 1).sum())


def _race_records(r, oor, sites: list[Site]) -> np.ndarray:
    """Records on shared bytes that another thread of the block also touched in the same barrier
    interval, with at least one of them a (non-atomic) store. Bytes, not words: four threads that
    each write one byte of a word do not race."""
    shared = ((r["flags"] & F_SHARED) != 0) & ~oor
    out = np.zeros(len(r["site"]), dtype=bool)
    if not shared.any():
        return out
    storing = np.array([s.stores and s.kind != "atomic" for s in sites] + [False])
    idx = np.nonzero(shared)[0]
    width = np.maximum((r["flags"][idx] >> 8) & 0xFF, 1).astype(np.int64)
    unit = int(min(width.min(), 4))
    reps = np.minimum(np.maximum(width // unit, 1), 16)
    owner = np.repeat(np.arange(len(idx)), reps)                         # each record over its units
    step = np.arange(len(owner)) - np.repeat(np.cumsum(reps) - reps, reps)
    epoch = r["epoch"][idx].astype(np.int64)[owner]
    block_epoch, warp_epoch = epoch % WARP_EPOCH, epoch // WARP_EPOCH
    tid = r["tid"][idx].astype(np.int64)[owner]
    word = r["addr"][idx].astype(np.int64)[owner] // unit + step
    slot = r["slot"][idx].astype(np.int64)[owner]
    store = storing[np.minimum(r["site"][idx], len(sites))][owner]
    # two warps are ordered only by a block barrier; two lanes of one warp also by __syncwarp()
    across = _racing([slot, block_epoch, word], tid // WARP, store)
    within = _racing([slot, block_epoch, tid // WARP, warp_epoch, word], tid, store)
    hit = np.bincount(owner, weights=(across | within), minlength=len(idx)) > 0
    out[idx] = hit
    return out


def _racing(key: list[np.ndarray], who: np.ndarray, store: np.ndarray) -> np.ndarray:
    """Rows whose group (equal `key` columns) holds a store and more than one distinct `who`."""
    order = np.lexsort(tuple(reversed(key + [who])))
    n = len(order)
    gnew = np.zeros(n, dtype=bool)
    if n:
        gnew[0] = True
    for c in key:
        sc = c[order]
        gnew[1:] |= sc[1:] != sc[:-1]
    ws = who[order]
    wnew = gnew.copy()
    wnew[1:] |= ws[1:] != ws[:-1]
    gid = np.cumsum(gnew) - 1
    distinct = np.bincount(gid, weights=wnew)
    stores = np.bincount(gid, weights=store[order]) > 0
    res = np.zeros(n, dtype=bool)
    res[order] = (distinct[gid] > 1) & stores[gid]
    return res


def kernel_totals(measures: dict[int, SiteMeasure], sites: list[Site]) -> dict:
    """Over the whole kernel, weighted by each site's requests: global load and store sectors per
    request (Nsight Compute's l1tex sectors / requests) and shared load and store wavefronts per
    request (its shared wavefronts / shared instructions)."""
    out = {}
    for what, kinds in (("load", ("load", "update")), ("store", ("store", "update"))):
        for name, value in ((f"{what}_sectors_per_request", "sectors_per_request"),
                            (f"shared_{what}_wavefronts_per_request", "wavefronts_per_request")):
            req = total = 0.0
            for s in sites:
                m = measures.get(s.id)
                v = getattr(m, value) if m is not None else None
                if v is None or s.kind not in kinds:
                    continue
                req += m.weight
                total += v * m.weight
            if req:
                out[name] = round(total / req, 2)
    return out


# ---- static findings against the measurement ----------------------------------------------------
def _coalescing(m: SiteMeasure, min_ratio: float):
    if m.sectors_per_request is None:
        return None
    ok = m.ratio is not None and m.ratio >= min_ratio
    return ok, f"{m.sectors_per_request:.1f} sectors/request measured (ideal {m.ideal_sectors:.1f})"


def _thread_y_major(m: SiteMeasure, min_ratio: float):
    if m.x_step_bytes is None or m.y_step_bytes is None:
        return None
    ok = abs(m.x_step_bytes) > abs(m.y_step_bytes)
    extra = f", {m.sectors_per_request:.1f} sectors/request" if m.sectors_per_request is not None else ""
    return ok, f"threadIdx.x steps {m.x_step_bytes} bytes, threadIdx.y {m.y_step_bytes} bytes measured{extra}"


def _range(m: SiteMeasure, min_ratio: float):
    if not m.out_of_range:
        return False, f"no out-of-range index in {m.requests} requests measured"
    return True, f"{m.out_of_range} out-of-range accesses measured (indexes {m.min_index}..{m.max_index})"


def _overflow(m: SiteMeasure, min_ratio: float):
    """A wrapped 32-bit index shows as an address outside the buffer; one that wraps back inside
    cannot be told from a right one by its address."""
    if not m.out_of_range:
        return None
    return True, f"{m.out_of_range} accesses outside the buffer measured (indexes {m.min_index}..{m.max_index})"


def _overlap(m: SiteMeasure, min_ratio: float):
    return m.overlapping_stores > 0, f"{m.overlapping_stores} elements stored by two threads measured"


def _banks(m: SiteMeasure, min_ratio: float):
    """A bank finding names its worst request; the log keeps the mean over requests, so any excess
    over the ideal shows conflicting requests (a sorting network conflicts at some strides only)."""
    if m.wavefronts_per_request is None:
        return None
    excess = m.wavefronts_per_request - (m.ideal_wavefronts or 0)
    return excess > 0.005, (f"{m.wavefronts_per_request:.2f} wavefronts/request measured, ideal "
                            f"{m.ideal_wavefronts:.2f}")


def _race(m: SiteMeasure, min_ratio: float):
    return m.race_words > 0, f"{m.race_words} shared words touched by two threads between barriers measured"


CONFIRMERS = {"CL101": _coalescing, "CL102": _thread_y_major, "CL201": _range, "CL202": _range,
              "CL203": _overflow, "CL302": _overlap, "CL401": _banks, "CL501": _race}


def _merge(ms: list[SiteMeasure]) -> SiteMeasure:
    """Several sites for one finding (an access inside a statement macro): the worst one speaks."""
    return max(ms, key=lambda m: (m.out_of_range, m.ratio or 0, m.ways or 0, m.requests))


def confirm_diagnostics(diags: list[Diagnostic], table, sites: list[Site], measures: dict[int, SiteMeasure],
                        min_ratio: float) -> None:
    """Set `confirmed`, `measured` on each finding of this kernel that a measurement speaks to."""
    for d in diags:
        if d.code not in CONFIRMERS or not _of(d, table):
            continue
        if "launch" in d.metrics:       # made at another launch of the kernel than the one run
            d.measured = {"summary": f"not measured: the run is the kernel's first launch, the finding is {d.metrics['launch']}"}
            continue
        hits = sites_of(d, table, sites)
        ms = [measures[s.id] for s in hits if s.id in measures]
        if not hits:
            continue
        if not ms:
            d.confirmed = False
            d.measured = {"requests": 0, "summary": "the access did not run in the sampled blocks"}
            continue
        m = _merge(ms)
        merged = _merged(hits, table) if d.code == "CL401" else None
        if merged:
            d.measured = {**m.metrics(), "summary": f"not measured: {merged}"}
            continue
        verdict = CONFIRMERS[d.code](m, min_ratio)
        if verdict is None:
            continue
        d.confirmed, summary = verdict
        d.measured = {**m.metrics(), "summary": summary}


def sites_of(d: Diagnostic, table, sites: list[Site]) -> list[Site]:
    """The instrumented sites a finding speaks of: its access, else the accesses of its line; of this
    kernel's table alone (the sites of a unit are its kernels' together, and two kernels may share
    a name: a template and its explicit specialization)."""
    return [s for s in sites if any(_same(d, a, table) and a in table.accesses for a in s.accesses)] or \
        [s for s in sites if s.line == d.line and s.path == d.path and
         any(a in table.accesses for a in s.accesses) and (s.array is None or s.array.name == d.array)]


def _merged(sites: list[Site], table) -> str | None:
    """Why the log cannot speak to the banks of these sites: nvcc merges (or may merge) their
    accesses into wider requests, while the log sees them one by one."""
    for s in sites:
        for a in s.accesses:
            m = table.merges.get(a) or table.possible_merges.get(a)
            if m is not None:
                return (f"nvcc {'merges' if a in table.merges else 'may merge'} this access with its neighbours "
                        f"into {m.width}-byte requests, and the log sees them one by one")
    return None


def _of(d: Diagnostic, table) -> bool:
    """A finding of this kernel (two programs of one directory may each have a `kernel1`)."""
    if d.kernel != table.kernel:
        return False
    return d.path == table.path or any((a.path or table.path) == d.path for a in table.accesses)


def _same(d: Diagnostic, acc, table) -> bool:
    return (acc.path or table.path) == d.path and acc.line == d.line and acc.column == d.column and \
        acc.array.name == d.array and acc.kind == d.access


def _race_explained(s: Site, diags: list[Diagnostic], table) -> bool:
    """A measured race the static findings already account for: another access of the same array
    has a CL501 (its write and read are named there) or a CL302 (two threads store one element), or
    a barrier of the kernel is divergent (CL502), so barrier epochs no longer line up between threads."""
    mine = [d for d in diags if _of(d, table)]
    if any(d.code == "CL502" for d in mine):
        return True
    return s.array is not None and any(d.code in ("CL501", "CL302") and d.array == s.array.name for d in mine)


def doubts(table, sim, job, sites: list[Site]) -> dict:
    """Sites whose measurement says nothing about the program: their index or guard is read from a
    buffer the run filled with random data, or depends on a value cudalint chose (a size, the block
    shape, the grid) where the program gives none, or their buffer got a default size."""
    from ..index import ir
    chosen: set[str] = {n.split("=")[0] for n in job.invented if not n.startswith(("blockDim", "gridDim"))}
    if any(n.startswith("blockDim") for n in job.invented) or sim.family.block_names:
        chosen |= {f"{b}.{a}" for b in ("threadIdx", "blockDim") for a in "xyz"}
    if any(n.startswith("gridDim") for n in job.invented):
        chosen |= {f"{b}.{a}" for b in ("blockIdx", "gridDim") for a in "xyz"}
    defaulted = {a.name for a in job.buffers() if a.origin.startswith("no index")}
    mine = set(map(id, table.accesses))
    out: dict[int, str] = {}
    for s in sites:
        accs = [a for a in s.accesses if id(a) in mine]
        exprs = [e for a in accs for e in (a.index, *a.guards)]
        exprs += [e for a in accs for it in a.loops for e in (it.cond, it.value) if e is not None]
        syms = {x for e in exprs for x in e.walk() if isinstance(x, ir.Sym)}
        data = sorted({x.name for x in syms if x.kind == "data"} | {"memory" for a in accs if a.unresolved
                                                                    and not any(x.kind == "data" for x in syms)})
        used = sorted({x.name for x in syms if x.kind != "data"} & chosen)
        if data:
            out[s.id] = (f"the index is read from {', '.join(f'`{n}`' for n in data)}, which the run filled with "
                         f"random data")
        elif used:
            given = [v for v in job.invented if v.split("=")[0] in used or
                     (v.startswith("blockDim") and any(u.startswith(("threadIdx", "blockDim")) for u in used)) or
                     (v.startswith("gridDim") and any(u.startswith(("blockIdx", "gridDim")) for u in used))]
            out[s.id] = f"measured only under values cudalint chose ({', '.join(given or job.invented)})"
        elif s.array is not None and s.array.name in defaulted:
            out[s.id] = f"`{s.array.name}` got a default size in the run (no index of it is followed)"
        unfollowed = [it.var for a in accs for it in a.loops if sim.trip_count(it) is None]
        if unfollowed and s.array is not None and s.array.space == "global":
            # the buffer was sized from the iterations the model follows: an index past it says nothing
            out[(s.id, "range")] = (f"the run sized `{s.array.name}` without the bound of the loop over "
                                    f"`{unfollowed[0]}`, which the model does not follow")
    return out


def dynamic_findings(diags: list[Diagnostic], table, sites: list[Site], measures: dict[int, SiteMeasure],
                     min_ratio: float, rules: dict, doubt: dict[int, str] | None = None,
                     duplicates: frozenset[int] = frozenset()) -> list[Diagnostic]:
    """Measured inefficiencies and errors at sites that no static finding of the kind covers. A
    measurement `doubt` speaks against (invented values, random indexes) is listed as info with why.
    `duplicates`: the stores (ids) where the static side found threads storing one element, each the
    same value (`stats[g] = s` built from the group's loads): their measured overlaps are those."""
    out = []
    mine = set(map(id, table.accesses))
    for s in sites:
        m = measures.get(s.id)
        if m is None or not any(id(a) in mine for a in s.accesses):
            continue
        covered = {d.code for d in diags for a in s.accesses if _same(d, a, table)}
        # an overflowing index expression is reported once, on one of the accesses sharing it
        covered |= {d.code for d in diags if d.code == "CL203" and _of(d, table) and d.line == s.line}
        # every thread stores the same value (the static side's reading of the store): not a race
        same_value = any(a.kind == "store" for a in s.accesses) and \
            all(a.value_scope >= 1 or id(a) in duplicates for a in s.accesses if a.kind == "store" and id(a) in mine)
        found = []
        if m.out_of_range and not covered & {"CL201", "CL202", "CL203"}:
            code = "CL202" if (s.array is None or s.array.space == "global") else "CL201"
            found.append((code, f"`{s.text}` measured {m.out_of_range} out-of-range accesses "
                                f"(indexes {m.min_index}..{m.max_index})", _range(m, min_ratio)[1]))
        if m.ratio is not None and m.ratio >= min_ratio and not covered & {"CL101", "CL102"}:
            found.append(("CL101", f"{_kind(s)} of `{s.text}` measured {m.sectors_per_request:.2f} sectors per warp "
                                   f"request where {m.ideal_sectors:.2f} would do ({m.ratio:.1f}x)",
                          _coalescing(m, min_ratio)[1]))
        if m.overlapping_stores and "CL302" not in covered and not same_value:
            found.append(("CL302", f"`{s.text}`: {m.overlapping_stores} elements stored by two threads of a block "
                                   f"at one step measured", _overlap(m, min_ratio)[1]))
        if m.ways is not None and m.ways >= 2 and "CL401" not in covered and not _merged([s], table):
            found.append(("CL401", f"{_kind(s)} of `{s.text}` measured {m.wavefronts_per_request:.1f} shared-memory "
                                   f"wavefronts per request ({m.ways:.1f}-way bank conflict)", _banks(m, min_ratio)[1]))
        if m.race_words and "CL501" not in covered and not same_value and not _race_explained(s, diags, table):
            found.append(("CL501", f"`{s.text}`: {m.race_words} shared words written and accessed by two threads "
                                   f"with no barrier between them measured", _race(m, min_ratio)[1]))
        for code, msg, summary in found:
            rule = rules.get(code)
            if rule is None:        # a rule this version does not ship
                continue
            why = (doubt or {}).get(s.id) or \
                ((doubt or {}).get((s.id, "range")) if code in ("CL201", "CL202", "CL203") else None)
            severity = "info" if why else rule.SEVERITY
            tail = f" (not a finding: {why})" if why else " (not predicted by the static analysis)"
            d = Diagnostic(s.path or table.path, s.line, s.column,
                           s.end_line, s.end_column, rule.CODE, rule.NAME, rule.CATEGORY, severity,
                           msg + tail, table.kernel)
            if s.array is not None:
                d.array, d.access, d.space = s.array.name, s.accesses[0].kind, s.array.space
            d.confirmed, d.source = (None if why else True), "dynamic"
            d.measured = {**m.metrics(), "summary": summary}
            out.append(d)
    return out


def _kind(s: Site) -> str:
    return {"update": "load and store", "atomic": "atomic"}.get(s.kind, s.kind)
