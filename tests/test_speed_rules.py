"""The shortcuts that keep the rules fast give the answers of the long way.

No test here is timed: each states what a shortcut must agree with (requests counted one by one,
a figure worked out in full, a value found again from the start) and fails where it does not.
bench/ measures the speed.
"""
from functools import lru_cache

import numpy as np
from hypothesis import given, settings, strategies as st

from cudalint.analysis import banks, races
from cudalint.analysis.simulate import Simulation
from cudalint.lint import Config, lint_paths

from conftest import SAMPLES


@lru_cache(maxsize=None)
def sample_tables():
    """The model of every sample kernel (the samples cover the idioms the rules know)."""
    return tuple(lint_paths([str(SAMPLES)], Config(debug=True)).tables)


def sims():
    for table in sample_tables():
        yield table, Simulation(table)


# ---- bank wavefronts ---------------------------------------------------------------------------
def _long_way(addr, mask, width, kind):
    wf = banks._count(addr, mask, width, kind)
    return wf.wavefronts.tolist(), wf.ideal.tolist(), wf.ways.tolist()


def _counted(addr, mask, width, kind):
    wf = banks.count_wavefronts(addr, mask, width, kind)
    return wf.wavefronts.tolist(), wf.ideal.tolist(), wf.ways.tolist()


lanes = st.lists(st.integers(0, 80), min_size=32, max_size=32)
live = st.lists(st.booleans(), min_size=32, max_size=32)


@settings(max_examples=200, deadline=None)
@given(offsets=lanes, mask=live, shifts=st.lists(st.integers(0, 64), min_size=1, max_size=6),
       width=st.sampled_from([1, 2, 4, 8, 16]), kind=st.sampled_from(["load", "store"]), cold=st.booleans(),
       full=st.booleans())
def test_requests_of_one_shape_are_counted_as_each_alone(offsets, mask, shifts, width, kind, cold, full):
    """Requests that are one shape moved by whole words (a loop that does not change the pattern) take
    one count for all: each must get what counting it alone gives, from a cold shape table or not,
    with every lane active (nothing masked) or not."""
    if cold:
        banks._SHAPES.clear()
    m = np.array(mask) | full
    m[0] = True
    addr = np.array([[o * width + s * banks.WORD for o in offsets] for s in shifts], dtype=np.int64)
    ms = np.tile(m, (len(shifts), 1))
    assert _counted(addr, ms, width, kind) == _long_way(addr, ms, width, kind)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(lanes, live), min_size=1, max_size=5), repeat=st.integers(1, 3),
       width=st.sampled_from([4, 8, 16]), kind=st.sampled_from(["load", "store"]), full=st.booleans())
def test_requests_of_several_shapes_are_counted_as_each_alone(rows, repeat, width, kind, full):
    addr = np.array([[o * width for o in r] for r, _ in rows] * repeat, dtype=np.int64)
    mask = np.array([m for _, m in rows] * repeat) | full
    mask[:, 0] = True
    assert _counted(addr, mask, width, kind) == _long_way(addr, mask, width, kind)


def _figures(bc):
    return None if bc is None else (bc.ways, bc.least_ways, bc.wavefronts_per_request, bc.ideal_wavefronts,
                                    bc.requests, bc.phases, bc.worst, str(bc.term), bc.term_ways, bc.padding,
                                    bc.maybe_ways)


def test_a_conflict_under_the_threshold_is_none_and_one_at_it_is_worked_out_in_full():
    """bank_conflict with `at_least` stops after the count where the worst request is under it: the
    accesses it answers must be those whose full figures reach it, with the same figures."""
    seen = set()
    for table, sim in sims():
        for acc in table.accesses:
            if acc.space != "shared" or acc.unresolved or sim.result(acc).error:
                continue
            full = banks.bank_conflict(sim, acc)
            for least in (2, 3, 4, 8):
                got = banks.bank_conflict(sim, acc, least)
                if full is None or full.ways < least:
                    assert got is None, acc.text
                else:
                    assert _figures(got) == _figures(full), acc.text
                seen.add(got is None)
    assert seen == {True, False}


# ---- races -----------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-40, 40), st.integers(0, 70)), min_size=1, max_size=40),
       st.booleans(), st.sampled_from([0, 3000]))
def test_footprints_of_several_samples_give_each_units_only_thread(pieces, in_order, far):
    """Footprints.of keys each (sample, unit) once, sorted, with its only thread or -2: whether its
    input comes in order or not, and with few samples (each key sorted with its thread in one
    number) or many (sorted on its own)."""
    pieces = [(s + far, u, t) for s, u, t in pieces]
    if in_order:
        pieces = sorted(pieces)
    sample, units, threads = (np.array(x, dtype=np.int64) for x in zip(*pieces))
    got = races.Footprints.of(units, threads, sample)
    owners: dict = {}
    for s, u, t in pieces:
        owners.setdefault((s, u), set()).add(t)
    want = sorted(owners)
    assert [divmod(int(k), races.SPAN) for k in got.keys] == [(s, u + races.SPAN // 2) for s, u in want]
    assert got.own.tolist() == [next(iter(owners[k])) if len(owners[k]) == 1 else -2 for k in want]
    warps = [{t // 32 for t in owners[k]} for k in want]
    assert got.warp_own.tolist() == [next(iter(w)) if len(w) == 1 else -2 for w in warps]


footprint_pieces = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 12), st.integers(0, 100)), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(footprint_pieces, footprint_pieces, st.booleans())
def test_samples_found_sharing_at_once_are_those_the_exact_search_finds_a_pair_in(x, y, by_warp):
    """The test of every sample at once (by thread, or by warp where only a warp barrier lies
    between) must pass exactly the samples where the exact search finds two threads (of two warps)
    touching one unit."""
    def batch(p):
        sample, units, threads = (np.array(v, dtype=np.int64) for v in zip(*p))
        return races.Footprints.of(units, threads, sample)

    def alone(p, n):
        got = [(u, t) for s, u, t in p if s == n]
        return races.Footprint(np.array([u for u, _ in got], dtype=np.int64),
                               np.array([t for _, t in got], dtype=np.int64))

    sharing = races._samples_sharing(batch(x), batch(y), 3, by_warp)
    for n in range(3):
        assert sharing[n] == (races._shared_pair(alone(x, n), alone(y, n), by_warp) is not None)


def _race(r):
    return (r.first.text, r.first.line, r.second.text, r.second.line, r.loop and r.loop.line, r.threads, r.byte,
            r.same_warp, r.warp_barrier)


def _each_alone(table):
    """The races of a kernel searched pair by pair, each pair in a simulation of its own, sample by
    sample (the batches of footprints turned off): nothing one pair works out reaches another."""
    out, reported = [], set()
    shared = [a for a in table.accesses if a.space == "shared" and not a.unresolved]
    for second in sorted(shared, key=lambda a: (a.kind != "load", a.seq)):
        for first in shared:
            if id(second) in reported:
                break
            if first is second or first.kind != "store" or first.array is not second.array or \
                    (first.atomic and second.atomic) or (second.kind == "store" and first.seq >= second.seq) or \
                    any(races._one_thread(g) and g in second.guards for g in first.guards):
                continue
            sim = Simulation(table)
            if sim.result(second).error or sim.result(first).error:
                continue
            own = races.Ownership(sim)
            own.footprints = lambda *a, **k: None
            race = races._pair(sim, own, races.taken_barriers(sim, table.barriers), first, second)
            if race is not None:
                out.append(race)
                reported.add(id(second))
    return out


def test_races_found_together_are_those_each_pair_finds_alone():
    found = 0
    for table, sim in sims():
        got = [_race(r) for r in races.find_races(sim)]
        assert got == [_race(r) for r in _each_alone(table)], table.kernel
        found += len(got)
    assert found


# ---- strides -----------------------------------------------------------------------------------
def test_where_an_access_runs_is_taken_from_its_range_rows_as_its_guards_give_it():
    """Where each access runs over its coalescing instances (CL301 reads it, the coalescing figures
    use it) is taken from the rows of its range instances: it must be the mask its guards give over
    the coalescing instances themselves."""
    from cudalint.analysis.simulate import guard_value
    from cudalint.index.evaluate import Unknown
    taken = 0
    for table, sim in sims():
        fresh = Simulation(table)
        for acc in table.accesses:
            if acc.unresolved or sim.result(acc).error:
                continue
            try:
                env, n = fresh.instances(acc, "coalescing")
            except (Unknown, MemoryError):
                continue
            want = np.ones((n, fresh.nthreads), dtype=bool)
            for g in acc.guards:
                v = guard_value(env, g, want.shape, fresh.uniform_data())
                if v is not None:
                    want &= v
            assert np.array_equal(sim.instance_mask(acc, "coalescing"), want), acc.text
            taken += sim._within(acc, "coalescing", "range") is not None
    assert taken


def test_what_cl301_reads_on_the_spot_is_what_it_works_out_the_long_way():
    """A constant stride's value and sizes are read on the spot, and a coordinate other than a
    thread's runs over all its values: each must be what the long way gives."""
    from cudalint.index import ir
    from cudalint.rules import cl301_stride_mismatch as cl301
    constants = others = 0
    for table, sim in sims():
        for acc in table.accesses:
            if acc.unresolved:
                continue
            for _, terms in cl301._analysed(acc):
                for t in terms:
                    assert cl301._params_in(t.stride) == frozenset(s.name for s in ir.symbols(t.stride)
                                                                   if s.kind == "param")
                    for ones in (True, False):
                        assert cl301._numeric(sim, t.stride, ones) == cl301._numeric_of(sim, t.stride, ones)
                    constants += cl301._constant(t.stride) is not None
                    if isinstance(t.coord, ir.Sym) and t.coord.kind != "thread":
                        assert cl301._coord_max(sim, t.coord, acc, running_only=True) == \
                            cl301._coord_max(sim, t.coord, acc)
                        others += 1
    assert constants and others


def _groups(sim, terms):
    from cudalint.rules import cl301_stride_mismatch as cl301
    out: dict = {}
    for t in terms:
        if not t.is_offset:
            out.setdefault(cl301._group_key(sim, cl301._params_in(t.stride)), []).append(t)
    return out


def test_a_group_of_terms_of_one_kind_of_coordinate_has_no_mismatch():
    """radix_mismatch passes over a group whose coordinates are all of one kind (one term, or
    `threadIdx.y * W + threadIdx.x`): worked out in full, such a group must give nothing, whatever
    the offsets read with it."""
    from cudalint.index import ir
    from cudalint.rules import cl301_stride_mismatch as cl301
    several = 0
    for table, sim in sims():
        for acc in table.accesses:
            if acc.unresolved:
                continue
            for _, terms in cl301._analysed(acc):
                copies = cl301._copies(sim, acc, terms)
                # the check passes over a subscript whose terms span one level: so do those it keeps
                # where it reads it together with others
                if not cl301._levels(sim, terms):
                    assert not cl301._levels(sim, cl301._unrolled(sim, acc, terms)[0])
                for key, ts in _groups(sim, terms).items():
                    if len({t.coord.kind for t in ts if isinstance(t.coord, ir.Sym)}) >= 2:
                        continue
                    for offsets in (None, [{}], copies, [{key: 0}, {key: 3}]):
                        assert cl301._group_mismatch(sim, acc, key, ts, offsets) is None, acc.text
                    several += len(ts) > 1
    assert several


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["x", "y", "z"]), st.integers(1, 5000)), min_size=2, max_size=4),
       st.sampled_from(["thread", "block"]), st.sampled_from(["load", "store"]))
def test_strides_of_one_kind_of_coordinate_never_leave_a_hole_or_overlap(coords, kind, access_kind):
    """However far apart the strides of coordinates of one kind are, the full reading of their group
    finds no mismatch (one level of the two-tree table: its radix is the kernel's choice)."""
    from cudalint.index import ir
    from cudalint.index.terms import Term
    from cudalint.rules import cl301_stride_mismatch as cl301
    table, sim = next((t, s) for t, s in sims() if any(not a.unresolved and a.kind == access_kind
                                                       for a in t.accesses))
    acc = next(a for a in table.accesses if not a.unresolved and a.kind == access_kind)
    name = "threadIdx" if kind == "thread" else "blockIdx"
    terms = [Term(ir.Sym(f"{name}.{axis}", kind), ir.Num(stride)) for axis, stride in coords]
    assert cl301._group_mismatch(sim, acc, (), terms, None) is None


def _groups_by_text(accesses, sim):
    """CL301's groups of accesses the long way: every subscript keyed by the text of its terms and of
    the other subscripts."""
    from cudalint.rules import cl301_stride_mismatch as cl301
    groups, where = {}, {}
    for acc in accesses:
        if acc.unresolved:
            continue
        for k, terms in cl301._analysed(acc):
            kept = cl301._unrolled(sim, acc, terms)[0]
            shape = tuple(str(t) for t in kept if not t.is_offset)
            rest = tuple(str(d) for j, d in enumerate(acc.dims) if j != k) if k >= 0 else ()
            key = (acc.array.name, acc.kind, k, shape, rest)
            groups.setdefault(key, []).append((acc, terms))
            where[(id(acc), k)] = key
    return groups, where


def test_the_groups_cl301_reads_with_are_those_the_texts_of_their_terms_give():
    """CL301 groups only the subscripts it asks for, and keys an access alone by what its key's parts
    count: each subscript asked for must be grouped, in program order, with the accesses the texts of
    their terms group it with."""
    from cudalint.rules import cl301_stride_mismatch as cl301
    asked = together = 0
    for table, sim in sims():
        needed = {(id(acc), k) for acc in table.accesses if not acc.unresolved
                  for k, terms in cl301._analysed(acc) if cl301._levels(sim, terms)}
        for wanted in (needed, None):
            groups, where = cl301._same_position(table.accesses, sim, wanted)
            long_groups, long_where = _groups_by_text(table.accesses, sim)
            for pair in (needed if wanted is not None else long_where):
                got = [(id(a), id(ts)) for a, ts in groups[where[pair]]]
                assert got == [(id(a), id(ts)) for a, ts in long_groups[long_where[pair]]]
                asked += 1
                together += len(got) > 1
    assert asked and together


# ---- the trial family --------------------------------------------------------------------------
def test_the_threads_of_a_block_shape_kept_for_the_run_are_those_worked_out_anew():
    """The family keeps the threads of each block shape it tries: whether kept or not, they must be
    each thread's coordinates, x fastest, and the family of every sample kernel the same."""
    from cudalint.analysis import family
    for block in [(256, 1, 1), (32, 8, 1), (16, 16, 4), (7, 3, 5)]:
        for _ in range(2):
            env = family._env(block)
            threads = [(x, y, z) for z in range(block[2]) for y in range(block[1]) for x in range(block[0])]
            assert list(zip(env["threadIdx.x"], env["threadIdx.y"], env["threadIdx.z"])) == threads
            assert [env[f"blockDim.{a}"] for a in "xyz"] == list(block)
            env["threadIdx.x"] = None           # a caller's own copy: the kept one is untouched
    warm = [family.derive(t, dict(t.launch.params)) for t in sample_tables()]
    family._THREADS.clear()
    cold = [family.derive(t, dict(t.launch.params)) for t in sample_tables()]
    assert warm == cold
