"""The shortcuts that keep cudalint fast on whole repositories give the answers of the long way.

No test here is timed: each states what a shortcut must agree with (a DAG walked as a tree, a
trip count scanned iteration by iteration, a header read again in every unit, a race searched
pair by pair) and fails where it does not. bench/ measures the speed.
"""
import itertools
import os
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cudalint.analysis import races, simulate, trips
from cudalint.analysis.overlaps import _no_repeat
from cudalint.index import ir
from cudalint.index.evaluate import Evaluator
from cudalint.index.parse import _parser, parse_expr
from cudalint.lint import Config, lint_paths
from cudalint.preprocess import Preprocessor, file_key

TX = ir.Sym("threadIdx.x", "thread", "unsigned")
T = ir.Sym("t", "iter")


def _sample_tables(*kernels) -> list:
    """The two-tree tables of the kernel files given and of every sample (the folder's own .cu
    files), linted together."""
    root = os.path.join(os.path.dirname(__file__), "..", "samples")
    paths = [str(k) for k in kernels] + sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".cu"))
    return lint_paths(paths, Config(debug=True)).tables


def nested_ifs(n: int) -> ir.Expr:
    """`i` after n statements `if (threadIdx.x & 2^k) i = i + k;`, built as the model builds it."""
    i = TX
    for k in range(n):
        cond = ir.Bin("&", TX, ir.Num(1 << k))
        i = ir.Cond(cond, ir.Bin("+", i, ir.Num(k + 1)), i)
    return i


def test_a_value_built_by_sequential_ifs_is_walked_and_evaluated_as_the_dag_it_is():
    e = nested_ifs(40)                       # as a tree: 2^40 leaves
    nodes = list(e.walk())
    assert len(nodes) == len({id(n) for n in nodes}) < 400
    lanes = np.arange(256)
    expected = lanes + sum(np.where(lanes & (1 << k), k + 1, 0) for k in range(40))
    assert np.array_equal(Evaluator({"threadIdx.x": lanes}).value(e), expected)


def test_a_dag_prints_within_bounds_and_small_ones_print_whole():
    assert str(nested_ifs(2)) == ("threadIdx.x & 2 ? (threadIdx.x & 1 ? threadIdx.x + 1 : threadIdx.x) + 2 : "
                                  "threadIdx.x & 1 ? threadIdx.x + 1 : threadIdx.x")
    text = str(nested_ifs(30))
    assert len(text) <= 20_001 and "…" in text


def test_nested_ifs_before_an_access_lint_with_a_short_message(tmp_path):
    body = "\n".join(f"  if (threadIdx.x & {1 << k}) i = i + {k + 1};" for k in range(24))
    (tmp_path / "k.cu").write_text(f"__global__ void k(float* a, int n) {{\n  int i = threadIdx.x * n;\n{body}\n"
                                   f"  a[i] = 0.0f;\n}}\n")
    # n given: a stride nothing gives would make the column walk no warning (1 is as likely as any)
    result = lint_paths([str(tmp_path / "k.cu")], Config(params={"n": 4096}))
    assert result.diagnostics and all(len(d.message) < 400 for d in result.diagnostics)


def test_equal_nodes_hash_alike_and_unequal_ones_compare_unequal():
    a, b = parse_expr("x * 4 + y"), parse_expr("(x * 4) + y")
    assert ir.Bin("+", a, ir.Num(1)) == ir.Bin("+", b, ir.Num(1))
    assert hash(ir.Bin("+", a, ir.Num(1))) == hash(ir.Bin("+", b, ir.Num(1)))
    assert ir.Bin("+", a, ir.Num(1)) != ir.Bin("+", a, ir.Num(2))


# ---- trip counts ----------------------------------------------------------------------------
def scanned(cond: ir.Expr, env: dict) -> int | None:
    """The count the iteration-by-iteration scan finds (the closed form turned off)."""
    saved = trips._closed_trips
    trips._closed_trips = lambda *a: None
    try:
        return counted(cond, env)
    finally:
        trips._closed_trips = saved


def counted(cond: ir.Expr, env: dict) -> int | None:
    from types import SimpleNamespace
    fake = SimpleNamespace(_params_env=lambda exprs: {}, _block_samples=lambda mode: [(0, 0, 0)],
                           tid={"threadIdx.x": np.arange(64), "threadIdx.y": np.zeros(64, dtype=np.int64),
                                "threadIdx.z": np.zeros(64, dtype=np.int64)}, nthreads=64)
    it = SimpleNamespace(cond=cond, trip=T)
    return simulate.Simulation._trip_count(fake, it, dict(env))


@settings(max_examples=150, deadline=None)
@given(start=st.integers(-50, 50), step=st.integers(-6, 9), lane=st.integers(0, 3),
       bound=st.integers(-100, 3000), op=st.sampled_from(["<", "<=", ">", ">=", "!="]),
       flip=st.booleans(), extra=st.booleans())
def test_affine_trip_counts_in_closed_form_match_the_scan(start, step, lane, bound, op, flip, extra):
    value = ir.Bin("+", ir.Bin("+", ir.Num(start), ir.Bin("*", TX, ir.Num(lane))), ir.Bin("*", T, ir.Num(step)))
    cond = ir.Bin(op, ir.Sym("n", "param"), value) if flip else ir.Bin(op, value, ir.Sym("n", "param"))
    if extra:
        cond = ir.Bin("&&", cond, ir.Bin("<", TX, ir.Num(40)))
    env = {"n": np.int64(bound)}
    assert counted(cond, env) == scanned(cond, env)


@settings(max_examples=300, deadline=None)
@given(start=st.integers(-2**62, 2**62) | st.integers(-50, 50), step=st.integers(-2**40, 2**40) | st.integers(-6, 9),
       bound=st.integers(-2**62, 2**62) | st.integers(-100, 3000), op=st.sampled_from(["<", "<=", ">", ">="]),
       flip=st.booleans())
def test_trip_counts_of_loops_no_lane_tells_apart_match_the_scan(start, step, bound, op, flip):
    """`k < K`, `i >= n - 3 * t`: the same count worked out on integers, large values included
    (past the closed form's bounds the scan decides)."""
    value = ir.Bin("+", ir.Num(start), ir.Bin("*", T, ir.Num(step)))
    cond = ir.Bin(op, ir.Sym("n", "param"), value) if flip else ir.Bin(op, value, ir.Sym("n", "param"))
    env = {"n": np.int64(bound)}
    assert counted(cond, env) == scanned(cond, env)


def test_a_block_stride_loop_over_a_billion_is_counted_as_the_scan_gives_up():
    cond = ir.Bin("<", ir.Bin("+", TX, ir.Bin("*", T, ir.Num(64))), ir.Sym("n", "param"))
    for n in (1000, 10**6, 10**9):
        assert counted(cond, {"n": np.int64(n)}) == scanned(cond, {"n": np.int64(n)})


# ---- headers read once ------------------------------------------------------------------------
HEADER = """\
    #pragma once
    #ifndef TILE
    #define TILE 16
    #endif
    #if TILE > 16
    #define WIDE 1
    #include "wide.h"
    #endif
    #ifdef EXTRA
    #define FROM_EXTRA EXTRA
    #undef EXTRA
    #endif
    #define HDR_TILE (TILE * 2)
    __device__ int h() { return HDR_TILE; }
    """

UNITS = {
    "a.cu": '#include "h.h"\nint a = HDR_TILE;\n',
    "b.cu": '#define TILE 32\n#include "h.h"\n#include "h.h"\nint b = WIDE;\n',
    "c.cu": '#define EXTRA 3\n#include "h.h"\nint c = FROM_EXTRA;\n',
    "d.cu": '#include "g.h"\n#include "h.h"\nint d = G;\n',
    "e.cu": '#define TILE 16\n#include "h.h"\n',
    "f.cu": '#include "h.h"\n#define TILE 64\n#include "g.h"\n',
}


def views_of(pre, path):
    """What a unit gives the lint: its own view whole (macros at every line included), and of each
    header the text, inactive lines, includes and problems. (A header's own macro table is that of
    the unit that read it first: the run keeps one view per header, the first unit's.)"""
    out = {}
    for k, v in pre.unit(str(path), path.read_text()).items():
        out[k] = (v.text, v.includes, v.reached, v.problems, v.inactive)
        if k == file_key(str(path)):
            out[k] += tuple(sorted(v.macros.at(line).macros.items()) for line in range(1, 8))
    return out


def test_a_header_read_once_gives_every_unit_what_reading_it_again_gives(tmp_path):
    (tmp_path / "h.h").write_text(textwrap.dedent(HEADER))
    (tmp_path / "wide.h").write_text("#define WIDE_TILE (TILE * TILE)\n")
    (tmp_path / "g.h").write_text('#define G 7\n#include "h.h"\n')
    shared = Preprocessor()
    for name, text in UNITS.items():
        (tmp_path / name).write_text(text)
    for name in UNITS:          # each unit against a preprocessor that never saw another
        path = tmp_path / name
        assert views_of(shared, path) == views_of(Preprocessor(), path), name
    assert any(len(r) for r in shared._readings.values())


# ---- races -----------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 70)), min_size=1, max_size=30),
       st.lists(st.tuples(st.integers(0, 40), st.integers(0, 70)), min_size=1, max_size=30))
def test_the_owner_test_of_a_pair_never_misses_a_race(x, y):
    fx = races.Footprint(np.array([u for u, _ in x]), np.array([t for _, t in x]))
    fy = races.Footprint(np.array([u for u, _ in y]), np.array([t for _, t in y]))
    if races._no_thread_shares(fx, fy):
        assert races._shared_pair(fx, fy, False) is None and races._shared_pair(fx, fy, True) is None


# ---- the parser kept on disk -------------------------------------------------------------------
@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _parser.cache_clear()
    yield tmp_path / "cudalint"
    _parser.cache_clear()


def parses(text):
    return repr(_parser("index.lark").parse(text))


def test_a_parser_read_from_the_cache_parses_as_one_built(fresh_cache):
    built = parses("a[(i + 1) * n] = *(p + 2)")
    assert list(fresh_cache.glob("index.lark-*.json"))
    _parser.cache_clear()
    assert parses("a[(i + 1) * n] = *(p + 2)") == built


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file ownership")
def test_a_cache_file_others_may_write_or_a_broken_one_is_not_read(fresh_cache):
    parses("x")
    (cache,) = fresh_cache.glob("index.lark-*.json")
    cache.write_bytes(b"not JSON")
    _parser.cache_clear()
    assert parses("x + 1")                        # rebuilt, and written again whole
    assert cache.read_bytes() != b"not JSON"
    os.chmod(cache, 0o666)
    _parser.cache_clear()
    from cudalint.index import parse
    loaded = []
    real_load = parse.Lark.load
    parse.Lark.load = classmethod(lambda cls, f: loaded.append(1) or real_load(f))
    try:
        assert parses("y")
    finally:
        parse.Lark.load = real_load
    assert not loaded


# ---- the source walk -------------------------------------------------------------------------
def structure(path):
    from cudalint.source.cufile import SourceFile
    src = SourceFile(str(path), path.read_text(errors="replace"))
    return ([(f.name, f.line, f.is_kernel) for f in src.functions], [(s.kernel, s.line, s.config) for s in src.launches],
            sorted(src.constants), sorted(src.typedefs), sorted(src.prototypes), sorted(src.annotations))


LAUNCHES = """\
__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }
void run(float* a) {
  int n = 4;
  k<<<1, 32>>>(a);
  k< < <1, 32> > >(a);
  k<<
    <2, 64>>>(a);
  auto f = [&]() { k<<<3, 32>>>(a); };
  n = n * 2;   // cudalint: param n=8
}
"""


def test_statements_the_source_walk_passes_over_hold_no_launch_or_annotation(tmp_path, monkeypatch):
    from pathlib import Path
    from cudalint.source import cufile
    (tmp_path / "l.cu").write_text(LAUNCHES)
    files = [tmp_path / "l.cu"] + sorted(Path(__file__).parent.parent.glob("samples/**/*.cu*"))
    fast = [structure(p) for p in files]
    assert len(fast[0][1]) == 4
    monkeypatch.setattr(cufile, "_plain", lambda node: False)      # every statement walked
    assert [structure(p) for p in files] == fast


# ---- values shared between accesses; what a run keeps alive -----------------------------------
SHARED_TERMS = """\
__global__ void add(const float* a, const float* b, float* c, const int* m, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    if (row < n && col < n)
      c[row * n + col + k] = a[row * n + col + k] + b[(row * n + col) / 2 + k] + m[k * n + row];
  }
}
void run(const float* a, const float* b, float* c, const int* m) {
  dim3 block(16, 16);
  dim3 grid(4096, 4096);
  add<<<grid, block>>>(a, b, c, m, 65536);
}
"""


def _results(sim, table, accesses=None):
    """What a result says of each access of `table` (or of `accesses`)."""
    out = []
    for acc in table.accesses if accesses is None else accesses:
        r = sim.result(acc)
        out.append((acc.text, [(d.lo, d.hi, d.at_max, d.at_min) for d in r.ranges],
                    [(str(o.node), o.ctype, o.value) for o in r.overflows], r.strides,
                    r.coalescing and (r.coalescing.sectors_per_request, r.coalescing.ideal_sectors), r.error))
    return out


def test_accesses_sharing_terms_get_what_each_gets_alone(tmp_path):
    """Accesses over the same rows reuse each other's subexpressions (and the 32-bit overflows
    found inside them): every result equals the one a simulation that keeps nothing computes."""
    (tmp_path / "k.cu").write_text(SHARED_TERMS)
    (table,) = lint_paths([str(tmp_path / "k.cu")], Config(debug=True)).tables
    shared = simulate.Simulation(table)
    alone = simulate.Simulation(table)
    alone._kept.room = 0
    got, want = _results(shared, table), _results(alone, table)
    assert got == want
    assert any(r[2] for r in want)                  # `row * n + col` passes 2^31-1 here
    assert shared._kept.values and not alone._kept.values


def test_a_kernels_simulation_is_freed_when_its_analysis_ends(tmp_path):
    """Nothing a kernel's analysis builds outlives it through cached errors: an expression that
    does not parse and a macro that refers to itself are remembered as messages, not as exceptions
    whose tracebacks hold the frames (and tables and simulations) of every caller."""
    import gc
    import weakref
    (tmp_path / "k.cu").write_text(textwrap.dedent("""\
        #define LOOP (LOOP + 1)
        __global__ void k(float* a, int n) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          int j = LOOP;
          float w = a[i] @ 2;
          if (i < n) a[i] = a[i] * 2.0f;
        }
        void run(float* a, int n) { k<<<(n + 255) / 256, 256>>>(a, n); }
        """))
    sims = []
    real_init = simulate.Simulation.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        sims.append(weakref.ref(self))
    was = gc.isenabled()
    gc.disable()
    simulate.Simulation.__init__ = init
    try:
        for _ in range(2):              # the second run meets the errors in the caches
            lint_paths([str(tmp_path / "k.cu")], Config(), tables=False)
        alive = [r for r in sims if r() is not None]
    finally:
        simulate.Simulation.__init__ = real_init
        if was:
            gc.enable()
    assert sims and not alive


def test_overflows_found_in_a_dag_are_carried_once_per_node():
    """`if (threadIdx.x & m) i = i * 3 + k;` N times makes a DAG of N levels whose 32-bit products
    overflow at every level: each kept value carries the overflows inside it once each (a level
    met twice replays them; counted again at every level they would number 2^N), and the
    overflows an evaluator reports are those of one that keeps nothing."""
    from cudalint.index.evaluate import KeptValues
    i = ir.Bin("+", TX, ir.Num(100_000_000))
    for k in range(16):
        cond = ir.Bin("&", TX, ir.Num(1 << (k % 10)))
        i = ir.Cond(cond, ir.Bin("+", ir.Bin("*", i, ir.Num(3)), ir.Num(k)), i)
    env = {"threadIdx.x": np.arange(256)}
    kept = KeptValues()
    shared = Evaluator(env, track_overflow=True, kept=kept, kept_key="rows")
    alone = Evaluator(env, track_overflow=True)
    assert np.array_equal(shared.value(i), alone.value(i))
    assert list(shared.overflows.items()) == list(alone.overflows.items()) and alone.overflows
    nodes = sum(1 for _ in i.walk())
    assert max(len(v[3]) for v in kept.values.values()) <= nodes
    again = Evaluator(env, track_overflow=True, kept=kept, kept_key="rows")    # all of it from the kept values
    assert np.array_equal(again.value(i), alone.value(i)) and list(again.overflows.items()) == \
        list(alone.overflows.items())


# ---- strides read from the neighbouring lanes ------------------------------------------------------
EDGE_KERNELS = """
__global__ void wide(float* a, float* b, int n, int m) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  __shared__ float t[16][17];
  t[threadIdx.y][threadIdx.x] = a[row * n + col];
  __syncthreads();
  b[(col * m + row) % 4096] = t[threadIdx.x][threadIdx.y];
  b[(threadIdx.x ^ threadIdx.y) + (threadIdx.x >> 1) * n] = 1.0f;
  b[threadIdx.x < 7 ? threadIdx.x * 3 : n - threadIdx.y] = 2.0f;
  b[min(threadIdx.x * 5, (unsigned int)n) + (int64_t)threadIdx.y * m] = 3.0f;
}
__global__ void past_edge(float* a) {
  a[(int64_t)1 << (threadIdx.x + 55)] = 0.0f;   /* past the block's edge the shift loses its bit */
  a[(int64_t)threadIdx.x * 1152921504606846976 + threadIdx.y] = 0.0f;   /* 2^60 per lane */
  a[(int64_t)(1.0f * threadIdx.x) + threadIdx.y] = 0.0f;      /* floats: the edge is evaluated */
}
void run(float* a, float* b, int n, int m) {
  wide<<<dim3(4, 4), dim3(16, 16)>>>(a, b, n, m);
  past_edge<<<1, dim3(8, 4)>>>(a);
}
"""


def _strides_by_moving_the_block(sim, acc):
    """The long way: the index over the whole block moved one step along each axis; and whether
    that evaluation fails for some axis."""
    res = simulate.AccessResult()
    env, n = sim._instance_entry(acc, "coalescing")[:2]
    base = np.broadcast_to(Evaluator(env).value(acc.index), (n, sim.nthreads))
    fails = False
    axes = [(axis_i, axis) for axis_i, axis in enumerate("xyz") if sim.block[axis_i] >= 2]
    for axis_i, axis in axes:
        try:
            Evaluator({**env, f"threadIdx.{axis}": env[f"threadIdx.{axis}"] + 1}).value(acc.index)
        except Exception:
            fails = True
    try:
        sim._strides_moved(acc, res, env, n, base, axes)
    except Exception as exc:
        return (res.strides, type(exc).__name__), fails
    return (res.strides, None), fails


def _strides_as_simulated(sim, acc):
    res = simulate.AccessResult()
    try:
        sim._strides(acc, res)
    except Exception as exc:
        return res.strides, type(exc).__name__
    return res.strides, None


def test_strides_read_from_neighbouring_lanes_are_those_of_the_moved_block(tmp_path):
    """Every access of the samples and of kernels whose index fails only past the block's edge
    (a shift losing its bit, a product leaving int64) or holds floats: the same strides, and the
    same failure, as evaluating the whole block moved along each axis."""
    (tmp_path / "k.cu").write_text(EDGE_KERNELS)
    compared, failing = 0, 0
    for table in _sample_tables(tmp_path / "k.cu"):
        sim = simulate.Simulation(table)
        for acc in table.accesses:
            if acc.unresolved:
                continue
            try:
                sim._instance_entry(acc, "coalescing")
                Evaluator(sim._instance_entry(acc, "coalescing")[0]).value(acc.index)
            except Exception:
                continue        # the index itself is not computed: _result stops before strides
            want, fails = _strides_by_moving_the_block(sim, acc)
            assert _strides_as_simulated(sim, acc) == want, (table.kernel, acc.text)
            compared += 1
            failing += fails
    assert compared > 300 and failing >= 2


def _random_expr(rng, depth: int, ctype: str, numbers: list[int], shifts: int, casts: bool = False) -> ir.Expr:
    """A random integer expression of names x, y and z of C type `ctype`, the constants `numbers`,
    shifts mostly by a constant under `shifts`, and (with `casts`) conversions between integers."""
    def make(depth):
        if depth == 0 or rng.random() < 0.25:
            if rng.random() < 0.5:
                return ir.Sym(str(rng.choice(["x", "y", "z"])), "param", ctype)
            return ir.Num(int(rng.choice(numbers)))
        kind = rng.random()
        if kind < 0.7:
            op = str(rng.choice(["+", "-", "*", "/", "%", "&", "|", "^", "<", "==", "&&", "<<", ">>"]))
            right = ir.Num(int(rng.integers(0, shifts))) if op in ("<<", ">>") and rng.random() < 0.8 else make(depth - 1)
            return ir.Bin(op, make(depth - 1), right)
        if kind < 0.8:
            return ir.Un(str(rng.choice(["-", "!", "~"])), make(depth - 1))
        if kind < (0.87 if casts else 0.9):
            return ir.Cond(make(depth - 1), make(depth - 1), make(depth - 1))
        if casts and kind < 0.93:
            return ir.Cast(ir.TypeRef(str(rng.choice(["int", "unsigned", "long long"]))), make(depth - 1))
        return ir.Call(str(rng.choice(["min", "max", "abs", "__mul24"])), (make(depth - 1), make(depth - 1)))
    return make(depth)


def test_a_bound_shown_raise_free_holds_every_value_and_the_evaluation_never_raises():
    """Random integer expressions over bounded names: where raise_free_bound gives a bound, the
    evaluation succeeds and no value passes it."""
    from cudalint.index.evaluate import raise_free_bound
    rng = np.random.default_rng(7)
    names = ["x", "y", "z"]

    def make(depth):
        return _random_expr(rng, depth, "long long", [0, 1, 3, 7, 64, 1 << 20, 1 << 40, -5], 70)

    shown = 0
    for _ in range(3000):
        e = make(4)
        top = {n: int(rng.choice([3, 1000, 1 << 30, 1 << 61])) for n in names}
        env = {n: rng.integers(-top[n], top[n] + 1, size=64) for n in names}
        bound = raise_free_bound(e, {n: np.int64(v) for n, v in top.items()})
        if bound is None:
            continue
        shown += 1
        v = np.asarray(Evaluator(env).value(e))
        assert v.dtype.kind in "iu" and int(np.abs(v).max()) <= bound, str(e)
    assert shown > 1000


def test_sectors_counted_from_one_sort_are_those_of_each_lane():
    """Warp requests of 4-, 8- and 16-byte lanes, aligned and not, some lanes off, lanes in address
    order (not sorted again) or not: the sectors and distinct addresses of each request, as a
    lane-by-lane count gives them."""
    rng = np.random.default_rng(3)
    for width in (1, 2, 4, 8, 16):
        for spread, ordered in itertools.product((width, 4, 32, 100), (False, True)):
            addr = (rng.integers(0, 64, size=(40, 32)) * spread + rng.integers(0, 2, size=(40, 1)) * 4) \
                .astype(np.int64)
            if ordered:
                addr.sort(axis=1)
            mask = rng.random((40, 32)) < 0.8
            mask[0] = False
            for m in (mask, np.ones_like(mask)):        # some lanes off; all on
                sectors, addresses = simulate.warp_sectors(addr, m, width)
                for r in range(40):
                    lanes = addr[r][m[r]]
                    touched = {s for a in lanes for s in range(a // 32, (a + width - 1) // 32 + 1)}
                    assert sectors[r] == len(touched) and addresses[r] == len(set(lanes.tolist()))


@given(st.lists(st.lists(st.integers(-40, 40), min_size=8, max_size=8), min_size=1, max_size=6),
       st.integers(0, 255), st.integers(1, 1 << 40))
@settings(max_examples=300, deadline=None)
def test_the_no_repeat_check_finds_a_repeated_value_in_a_row_whichever_way_it_counts(rows, masking, scale):
    values = np.array(rows, dtype=np.int64) * np.int64(scale if scale % 2 else 1)
    mask = ((np.arange(values.size).reshape(values.shape) * 37 + masking) % 5) != 0 if masking % 3 else \
        np.ones(values.shape, dtype=bool)
    repeated = any(len(set(v[m].tolist())) < int(m.sum()) for v, m in zip(values, mask))
    assert _no_repeat(values, mask) == (not repeated)


def test_an_access_runs_where_every_one_of_its_guards_holds_loop_conditions_included():
    """The instances' mask leaves out the condition of a loop whose count is known and which reads
    only its own counter and numbers (it holds at every sampled iteration), and shares one mask
    between the accesses under the same guards: for every access of the samples, in every mode,
    it is the AND of all its guards evaluated over its own instances (a test of the thread index
    against a `__shared__` value read as the one lane it picks)."""
    compared = skipped = 0
    for table in _sample_tables():
        sim = simulate.Simulation(table)
        for acc in table.accesses:
            if acc.unresolved:
                continue
            for mode in ("range", "coalescing", "banks"):
                env, n = sim.instances(acc, mode)
                want = np.ones((n, sim.nthreads), dtype=bool)
                for g in acc.guards:
                    v = simulate.guard_value(env, g, want.shape, sim.uniform_data())
                    if v is not None:
                        want &= v
                assert np.array_equal(sim.instance_mask(acc, mode), want), (table.kernel, acc.text, mode)
                compared += 1
            skipped += any(sim._settled(it) for it in acc.loops)
    assert compared > 500 and skipped > 50


FAILING_INDEXES = """
__global__ void failing(float* a, const float* b, int n) {
  __shared__ float s[256];
  float f = 1.0f / (threadIdx.x - threadIdx.x);
  a[(int)f] = 0.0f;                                           /* inf: not a finite integer */
  a[(int64_t)threadIdx.x * 4611686018427387904 * 4] = 1.0f;   /* leaves int64 */
  a[threadIdx.x + (int)(b[0] * 2.0f)] = 2.0f;                 /* loaded from memory */
  if (threadIdx.x > 4096) s[threadIdx.x] = 3.0f;              /* never runs */
  s[threadIdx.x % 7] = a[threadIdx.x * 0.5f];                 /* a float subscript */
}
void run(float* a, const float* b, int n) { failing<<<4, 256>>>(a, b, n); }
"""


def test_the_error_and_whether_an_access_runs_are_those_of_its_whole_result(tmp_path):
    """Rules that only skip an access the simulation cannot follow, and the trials that only ask
    whether an access runs, are told without its whole result: the same answers, for every access
    of the samples and of a kernel whose indexes fail in each way they can."""
    (tmp_path / "k.cu").write_text(FAILING_INDEXES)
    errors = idle = compared = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        told, whole = simulate.Simulation(table), simulate.Simulation(table)
        for acc in table.accesses:
            res = whole.result(acc)
            assert (told.error(acc), told.executed(acc)) == (res.error, res.executed), (table.kernel, acc.text)
            assert told.result(acc).error == res.error
            compared += 1
            errors += res.error is not None
            idle += not res.executed
    assert compared > 500 and errors >= 3 and idle >= 1


def test_a_trial_told_only_which_findings_are_made_makes_the_same_ones():
    """A later trial reads only which findings its check makes: without their messages' figures
    (CL401's worst instance, term and padding), the same findings at the same places."""
    from cudalint.rules import CHECKS
    from cudalint.rules.base import Context, Options
    compared = 0
    for table in _sample_tables():
        only = frozenset(id(a) for a in table.accesses)
        made = []
        for verdicts in (False, True):
            ctx = Context(table, simulate.Simulation(table), Options(), only, verdicts)
            made.append(sorted((d.code, d.line, d.column, d.access, d.severity)
                               for rule in CHECKS for d in rule.check(ctx)))
        assert made[0] == made[1], table.kernel
        compared += sum(code == "CL401" for code, *_ in made[0])
    assert compared >= 20


BLOCKS_ALIKE = """
__global__ void tiles(float* out, const float* in, int n) {
  __shared__ float s[16][33];
  __shared__ float t[64];
  __shared__ int hits[32];
  __shared__ float rows[8][32];
  for (int k = 0; k < 6; ++k) {
    if (threadIdx.y < 12)
      s[threadIdx.y + k][threadIdx.x] = in[(blockIdx.y * 16 + threadIdx.y) * n + blockIdx.x * 32 + threadIdx.x];
    __syncthreads();
    t[(threadIdx.x * 3 + k) % 64] = s[threadIdx.x % 16][threadIdx.y * 2 + k];
    hits[threadIdx.x / 2] = k;
    rows[(blockIdx.y + k) % 8][threadIdx.x] = t[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 32 + threadIdx.x] = t[threadIdx.x] + (float)hits[threadIdx.y];
}
void run(float* out, const float* in) { tiles<<<dim3(8, 6), dim3(32, 16)>>>(out, in, 256); }

__global__ void unlaunched(float* out, const float* in, int n) {
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[(threadIdx.x + blockIdx.y) % 64] = in[i] * 2.0f;
  __syncthreads();
  out[i + blockIdx.z * n] = s[threadIdx.x % 64] + in[threadIdx.x];
  out[threadIdx.x / 2] = 0.0f;
}
"""


def test_blocks_whose_rows_equal_an_earlier_ones_are_left_out_with_every_result_kept(tmp_path):
    """A block whose coordinates along the axes an access's index and guards read (none, or some)
    an earlier sampled block already has is not simulated again for it, and every result says
    what simulating every sampled block says: ranges and where they are reached, overlapping
    stores, 32-bit overflows, coalescing, strides, threads past the grid's edge and errors, for
    kernels built to reach their ranges in later iterations and to overlap, with a known grid and
    with none (global accesses too), and for every access of the samples."""
    (tmp_path / "k.cu").write_text(BLOCKS_ALIKE)
    compared = overlaps = fewer = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        fewest, every = simulate.Simulation(table), simulate.Simulation(table)
        every.first_block_alone = False
        for acc in table.accesses:
            got, want = fewest.result(acc), every.result(acc)
            assert _results(fewest, table, [acc]) == _results(every, table, [acc]), (table.kernel, acc.text)
            assert (got.overlap, got.executed, got.excess) == (want.overlap, want.executed, want.excess), \
                (table.kernel, acc.text)
            compared += 1
            overlaps += want.overlap is not None
            if not acc.unresolved and want.error is None:
                fewer += fewest.instances(acc, "range")[1] < every.instances(acc, "range")[1]
    assert compared > 500 and overlaps >= 2 and fewer > 100


def _walked(e, wanted) -> list:
    """The nodes `wanted` picks, in the order a plain walk of `e` meets them."""
    return [n for n in ir.walk_all((e,)) if wanted(n)]


def test_symbols_and_nodes_of_a_class_come_in_walk_order_from_the_lists_nodes_below_keep():
    """symbols() and of_type() take the lists the nodes below already keep: the same symbols in the
    same order as a walk of the whole expression, for DAGs whose shared nodes kept theirs first,
    and for every index and guard of the samples, asked of each node below first or not at all."""
    def check(e, warm):
        for n in warm:
            ir.symbols(n), ir.of_type(n, ir.Bin), ir.of_type(n, ir.Name)
        for key in ("_syms", "_of_Bin", "_of_Name"):
            e.__dict__.pop(key, None)
        assert list(ir.symbols(e)) == list(dict.fromkeys(_walked(e, lambda n: isinstance(n, ir.Sym))))
        assert [id(n) for n in ir.of_type(e, ir.Bin)] == [id(n) for n in _walked(e, lambda n: isinstance(n, ir.Bin))]
        assert [id(n) for n in ir.of_type(e, ir.Name)] == [id(n) for n in _walked(e, lambda n: isinstance(n, ir.Name))]

    dag = nested_ifs(12)
    for k in (0, 3, 7):
        check(dag, [n for i, n in enumerate(ir.walk_all((dag,))) if i % (k + 2) == 1])
    x, y = ir.Name("x"), ir.Name("y")
    shared = ir.Bin("*", x, ir.Sym("blockIdx.x", "block"))
    twice = ir.Bin("+", ir.Bin("-", shared, ir.Name("x")), ir.Cond(y, shared, ir.Bin("+", TX, shared)))
    check(twice, [shared])
    check(twice, [twice.right])
    checked = 0
    for table in _sample_tables():
        for acc in table.accesses:
            for e in (acc.index, *acc.guards):
                check(e, [])
                checked += 1
    assert checked > 1000


def test_a_conditions_truth_is_its_value_compared_with_zero():
    """Evaluator.truth (a guard's or loop condition's comparisons at its top, and under && and ||,
    give their truth at once) says where `value != 0` does, for every guard of the samples over its
    access's instances, and for conditions over floats, mixed widths and nested logic."""
    lanes = np.arange(64)
    env = {"threadIdx.x": lanes, "n": np.int64(40), "f": np.float64(2.5)}
    n, f = ir.Sym("n", "param"), ir.Sym("f", "param", "float")
    conds = [ir.Bin("<", TX, n), ir.Bin("&&", ir.Bin(">=", TX, ir.Num(3)), ir.Bin("!=", ir.Bin("&", TX, ir.Num(4)), ir.Num(0))),
             ir.Bin("||", ir.Bin("<", ir.Cast(ir.TypeRef("float"), TX), f), TX), ir.Bin("-", TX, ir.Num(5)),
             ir.Bin("==", ir.Bin("<", TX, n), ir.Num(1)), ir.Un("!", ir.Bin(">", TX, n)), ir.Bin("<", n, ir.Num(41))]
    for c in conds:
        got, want = Evaluator(env).truth(c), np.asarray(Evaluator(env).value(c)) != 0
        assert type(got) is type(want) and np.array_equal(got, want), str(c)
    compared = 0
    for table in _sample_tables():
        sim = simulate.Simulation(table)
        for acc in table.accesses:
            if acc.unresolved:
                continue
            env, _ = sim.instances(acc, "range")
            for g in acc.guards:
                for c in simulate.conjuncts(g):
                    try:
                        want = np.asarray(Evaluator(env, exact=False).value(c)) != 0
                    except Exception as exc:        # noqa: BLE001 - the same failure, either way
                        with pytest.raises(type(exc)):
                            Evaluator(env, exact=False).truth(c)
                        continue
                    got = Evaluator(env, exact=False).truth(c)
                    assert type(got) is type(want) and np.array_equal(got, want), (table.kernel, str(c))
                    compared += 1
    assert compared > 300


def test_the_bounds_rows_carry_from_their_making_are_what_measuring_them_gives():
    """The columns of sampled blocks and iterations carry their max |value| from the Python
    integers they are made of (known_bound): each is what measuring the column gives, for every
    row set the samples' simulations make."""
    from cudalint.index import evaluate
    checked = 0
    for table in _sample_tables():
        evaluate._BOUNDS.clear()
        sim = simulate.Simulation(table)
        for acc in table.accesses:
            for mode in ("range", "coalescing", "banks"):
                sim.instances(acc, mode)
        for env, *_ in sim._rows.values():
            for name, v in env.items():
                if isinstance(v, np.ndarray) and id(v) in evaluate._BOUNDS:
                    assert evaluate._BOUNDS[id(v)][0] == max(int(v.max()), -int(v.min())), (table.kernel, name)
                    checked += 1
    assert checked > 500


FAILING_LATE = """
__global__ void late(float* a, int n) {
  for (int k = 0; k < 100; ++k)
    a[(long long)k * 200000000000000000LL + threadIdx.x] = 0.0f;    /* leaves int64 from k = 47 on */
  a[blockIdx.x * n + threadIdx.x] = 1.0f;
}
void run(float* a) { late<<<64, 128>>>(a, 1 << 20); }
"""


def test_a_trial_that_reads_no_range_figures_works_global_results_out_over_the_coalescing_rows(tmp_path):
    """A later trial whose rules read nothing the range instances give (CL101 and the like) works a
    global access's result out over its coalescing instances alone, where computing its index
    over the range instances cannot fail: the same coalescing figures, strides, error and whether
    it runs, for every global access of the samples and of a kernel whose indexes fail."""
    (tmp_path / "k.cu").write_text(FAILING_INDEXES + FAILING_LATE)
    compared = alone = late_error = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        trial, whole = simulate.Simulation(table), simulate.Simulation(table)
        trial.wanted = frozenset({"CL101", "CL102", "CL401", "CL501"})
        for acc in table.accesses:
            if acc.space != "global":
                continue
            got, want = trial.result(acc), whole.result(acc)
            assert (got.coalescing, got.strides, got.error, got.executed) == \
                (want.coalescing, want.strides, want.error, want.executed), (table.kernel, acc.text)
            compared += 1
            alone += not got.ranges and want.ranges == [] and trial._coalescing_alone(acc)
            late_error += table.kernel == "late" and want.error is not None
    assert compared > 200 and alone > 150, (compared, alone)
    assert late_error == 1


def test_a_span_shown_holds_every_value_and_the_evaluation_neither_raises_nor_overflows():
    """Random integer expressions over names of 32-bit type: where value_span gives a span from the
    least and greatest value of each name, the evaluation succeeds, every value lies in the span,
    and no 32-bit overflow is recorded."""
    from cudalint.index.evaluate import value_span
    rng = np.random.default_rng(11)
    names = ["x", "y", "z"]

    def make(depth):
        return _random_expr(rng, depth, "int", [0, 1, 2, 3, 7, 64, 1 << 20, -5, -1], 40, casts=True)

    def extremes(v):
        return int(v.min()), int(v.max())

    shown = exact = 0
    for _ in range(4000):
        e = make(4)
        env = {}
        for n in names:
            lo = int(rng.choice([-1000, -3, 0, 0, 5]))
            env[n] = rng.integers(lo, lo + int(rng.choice([1, 4, 1000, 1 << 20])), size=(8, 1) if n == "x" else 16)
        span = value_span(e, env, extremes)
        if span is None:
            continue
        shown += 1
        ev = Evaluator(env, track_overflow=True)
        v = np.asarray(ev.value(e))
        assert v.dtype.kind in "iu" and span[0] <= int(v.min()) and int(v.max()) <= span[1], str(e)
        assert not ev.overflows, str(e)
        exact += span == (int(v.min()), int(v.max()))
    assert shown > 1500 and exact > 500, (shown, exact)


IN_EXTENTS = """
__global__ void spans(float* out, const float* in, int n, int m) {
  __shared__ float s[16][33];
  __shared__ float t[64];
  __shared__ int u[128];
  float r[8];
  for (int k = 0; k < 8; ++k) r[k] = in[k];
  for (int k = 0; k < 6; ++k) {
    s[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x + k];
    __syncthreads();
    float a = s[threadIdx.x % 16][(threadIdx.y * 2 + k) & 31];       /* inside */
    float b = t[(threadIdx.x * 3 + k) % 64] + t[threadIdx.x >> 1];    /* inside */
    float c = t[threadIdx.x + k * 8];                                 /* past 63 from k = 5 */
    float d = t[min(threadIdx.x, 63u) - (k > 2 ? 1 : 0)];             /* below 0 at thread 0 */
    float e = u[(threadIdx.x / 4) * 4 + (k < 3 ? k : 3)];             /* inside */
    float f = r[k + 2];                                               /* past 7 from k = 6: never */
    float g = r[(threadIdx.x + k) % 8] + r[n];                        /* the second: n not known */
    float h = t[(threadIdx.x * m) % 64] + t[(threadIdx.x * 1073741824) >> 30];   /* a 32-bit overflow */
    if (threadIdx.x > 4096) a += t[threadIdx.x];                      /* runs nowhere */
    out[threadIdx.x + k] = a + b + c + d + e + f + g + h;
    __syncthreads();
    u[threadIdx.y * 8 + threadIdx.x % 8] = a;     /* threads (0, 1) and (8, 0) store to one element */
    s[threadIdx.y][(threadIdx.x + k) % 32] = b;   /* apart, but not from the terms */
    t[threadIdx.x * 2] = c;                        /* the rows of the block store to one element */
    u[threadIdx.x + 32 * threadIdx.y - 1] = d;     /* apart, and below 0 at thread 0 */
    t[threadIdx.x] = (float)k;                     /* one value for all */
    r[k] = e;
    __syncthreads();
  }
}
void run(float* out, const float* in) { spans<<<dim3(4, 2), dim3(32, 16)>>>(out, in, 256, 3); }
"""


def test_accesses_whose_spans_stay_inside_their_extents_report_what_their_ranges_report(tmp_path):
    """A load of a shared or local array whose index's spans keep it inside the array's extents
    has no ranges worked out, nor a store whose index's terms also keep its threads apart: every
    rule's findings, and each access's overflows, overlapping stores, error and whether it runs,
    are those of a simulation that works every range out, for the samples and for a kernel whose
    accesses stay inside, leave their array late, go below 0, overflow 32 bits, read a size not
    given, run nowhere, and store to one element from two threads."""
    from cudalint import lint
    (tmp_path / "k.cu").write_text(IN_EXTENTS)
    decided = compared = stores = overlaps = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        quick, whole = simulate.Simulation(table), simulate.Simulation(table)
        whole.spans_decide = False
        for acc in table.accesses:
            got, want = quick.result(acc), whole.result(acc)
            assert ([(str(o.node), o.value) for o in got.overflows], got.overlap, got.error, got.executed) == \
                ([(str(o.node), o.value) for o in want.overflows], want.overlap, want.error, want.executed), \
                (table.kernel, acc.text)
            decided += not got.ranges and bool(want.ranges)
            stores += acc.kind == "store" and not got.ranges and bool(want.ranges)
            overlaps += want.overlap is not None
            compared += 1
        found = [(d.code, d.line, d.column, d.message) for d in lint._check(table, quick, Config())]
        assert found == [(d.code, d.line, d.column, d.message) for d in lint._check(table, whole, Config())]
        if table.kernel == "spans":
            assert {d[0] for d in found} >= {"CL201", "CL203", "CL302"}, found
    assert compared > 500 and decided > 100 and stores > 30 and overlaps >= 3, (compared, decided, stores, overlaps)


NEVER_ENDS = """
__global__ void halves(float* a, int size) {
  extern __shared__ float s[];
  for (int stride = size / 4; stride >= size / 2048; stride >>= 1)     /* 0 >= 0 from 64 on, for ever */
    s[threadIdx.x] += a[threadIdx.x];
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)                   /* ends at 0 */
    s[threadIdx.x] += s[threadIdx.x + stride];
}
"""


def test_a_loop_whose_counter_is_only_a_shift_count_ends_or_not_as_the_scan_says(tmp_path):
    """Past 63 a shift by the counter gives one value, and so does a condition that holds the
    counter only there: a loop still running then runs for ever, and is given no count at once,
    as scanning it to its bound gives none; a loop that ends keeps its count."""
    (tmp_path / "k.cu").write_text(NEVER_ENDS)
    (table,) = lint_paths([str(tmp_path / "k.cu")], Config(debug=True)).tables
    sim = simulate.Simulation(table)
    loops = sorted(table.iterators, key=lambda it: it.line)
    assert all(trips._shift_count_only(it.cond, it.trip.name) for it in loops)
    counts = [sim._trip_count(it, sim.base_env()) for it in loops]
    saved = trips._SATURATES
    try:
        trips._SATURATES = False          # the scan to its bound
        assert [sim._trip_count(it, sim.base_env()) for it in loops] == counts
    finally:
        trips._SATURATES = saved
    assert counts[0] is None and counts[1] == (sim.block[0] // 2).bit_length()
    x = ir.Sym("x", "param")
    assert not trips._shift_count_only(ir.Bin("<", ir.Bin(">>", x, T), T), "t")       # also compared
    assert not trips._shift_count_only(ir.Bin(">", ir.Bin(">>", T, ir.Num(1)), x), "t")   # shifted itself


SAME_INDEX = """
__global__ void same(float* out, const float* in, int n) {
  __shared__ float s[512];
  __shared__ float h[128];
  __shared__ float g[512];
  __shared__ float p[512];
  s[threadIdx.x] = in[threadIdx.x];
  s[threadIdx.x] += 1.0f;                                  /* each its own element */
  h[threadIdx.x / 2] = in[threadIdx.x];
  h[threadIdx.x / 2] += 1.0f;                              /* two threads an element */
  *(float2*)&g[threadIdx.x] = make_float2(1.0f, 2.0f);
  float2 a = *(float2*)&g[threadIdx.x];                    /* neighbours share a float */
  *(float2*)&p[2 * threadIdx.x] = make_float2(1.0f, 2.0f);
  float2 b = *(float2*)&p[2 * threadIdx.x];                /* each its own pair */
  for (int k = 0; k < 4; ++k) {
    s[threadIdx.x + k] = in[k];
    out[k] = s[threadIdx.x + k];                           /* the next iteration's store meets it */
  }
  __shared__ float q[512];
  for (int k = 0; k < 4; ++k)
    q[threadIdx.x + k] = in[k];
  for (int k = 0; k < 4; ++k)
    out[k] += q[threadIdx.x + k];                          /* one text, two loops: neighbours meet */
  out[threadIdx.x] = s[threadIdx.x] + h[0] + a.x + b.y;
}
void run(float* out, const float* in) { same<<<4, 256>>>(out, in, 1024); }
"""


def test_a_pass_in_which_each_thread_touches_only_its_own_units_is_not_searched(tmp_path, monkeypatch):
    """A store and an access of one index (no loop but those around both, one width) whose terms
    keep any two threads a whole access apart cannot race within one pass, and that pass is not
    searched: the races found are those a search of every pass finds, for the samples and for a
    kernel whose same-index pairs share elements between threads (two threads an element, a
    float2 over neighbouring floats) or do not, in one pass or across iterations."""
    (tmp_path / "k.cu").write_text(SAME_INDEX)
    skipped = []
    own_units = races._own_units

    def counted(sim, w, r, common):
        got = own_units(sim, w, r, common)
        skipped.append(got)
        return got

    def found(table, search):
        monkeypatch.setattr(races, "_own_units", search)
        return [(id(x.first), id(x.second), x.loop and x.loop.line, x.threads, x.byte, x.same_warp, x.warp_barrier)
                for x in races.find_races(simulate.Simulation(table))]

    compared = raced = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        got, want = found(table, counted), found(table, lambda *a: False)
        assert got == want, table.kernel
        compared += 1
        raced += bool(want)
        if table.kernel == "same":
            assert len(want) == 9, want
    assert compared > 100 and raced > 5 and sum(skipped) > 20 and not all(skipped), (compared, raced, sum(skipped))


BANK_PATTERNS = """
__global__ void wide(float* out, const float* in) {
  __shared__ float a[32][32];
  __shared__ float b[32][33];
  __shared__ float c[1024];
  a[threadIdx.y][threadIdx.x] = in[threadIdx.x];           /* one bank a lane */
  b[threadIdx.x][threadIdx.y] = in[threadIdx.y];           /* 33 words apart: one bank a lane */
  __syncthreads();
  float v = a[threadIdx.x][threadIdx.y];                   /* 32 words apart: 32-way */
  v += c[0] + c[threadIdx.x * 3] + c[threadIdx.x * 2];     /* broadcast; apart; 2-way */
  v += c[threadIdx.x / 2] + c[threadIdx.z * 64 + threadIdx.x];
  out[threadIdx.x] = v;
}
__global__ void rows(float* out, const float* in) {
  __shared__ float p[16][16];
  __shared__ float q[16][17];
  __shared__ float r[16][18];
  p[threadIdx.y][threadIdx.x] = in[threadIdx.x];           /* two rows of 16: one bank a lane */
  q[threadIdx.y][threadIdx.x] = in[threadIdx.x];           /* 17 apart: the second row's last meets the first's first */
  r[threadIdx.x][threadIdx.y] = in[threadIdx.x];           /* 18 words a lane, the rows odd and even */
  __syncthreads();
  out[threadIdx.x] = p[threadIdx.x][threadIdx.y] + q[threadIdx.y][threadIdx.x] + r[threadIdx.y][threadIdx.x];
}
__global__ void odd(float* out, const float* in) {
  __shared__ float s[24][24];
  s[threadIdx.y][threadIdx.x] = in[threadIdx.x];           /* rows of 24: warps wrap */
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
}
__global__ void wrap(float* out, const float* in) {
  __shared__ float u[128];
  u[threadIdx.z * 64 + threadIdx.y * 16 + threadIdx.x] = in[threadIdx.x];   /* warp 1: rows of two z */
  __syncthreads();
  out[threadIdx.x] = u[threadIdx.x];
}
void run(float* out, const float* in) {
  wrap<<<4, dim3(16, 3, 2)>>>(out, in);
  wide<<<4, dim3(32, 8, 2)>>>(out, in);
  rows<<<4, dim3(16, 16)>>>(out, in);
  odd<<<4, dim3(24, 24)>>>(out, in);
}
"""


def test_accesses_whose_terms_ask_no_bank_twice_report_what_counting_their_requests_reports(tmp_path, monkeypatch):
    """A 4-byte shared access whose index steps each lane of a warp to a word of its own bank (or
    one word for all), as its terms show, has no requests counted: CL401's findings are those of
    counting every access's requests, for the samples and for kernels whose warps are one row or
    two of the block, stepped by 1, 3, 17, 18, 32 or 33 words, with a term no step says, and with
    rows that wrap past the block's (a warp of two z planes; rows of 24)."""
    from cudalint import lint
    from cudalint.analysis import banks
    (tmp_path / "k.cu").write_text(BANK_PATTERNS)
    free = []
    conflict_free = banks._conflict_free

    def counted(sim, acc, width):
        got = conflict_free(sim, acc, width)
        free.append(got)
        return got

    def found(table, check):
        monkeypatch.setattr(banks, "_conflict_free", check)
        return [(d.line, d.column, d.message, d.metrics) for d in
                lint._check(table, simulate.Simulation(table), Config(), codes={"CL401"})]

    compared = conflicts = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        got, want = found(table, counted), found(table, lambda *a: False)
        assert got == want, table.kernel
        compared += 1
        conflicts += len(want)
        if table.kernel in ("wide", "rows", "odd", "wrap"):
            assert len(want) == {"wide": 2, "rows": 4, "odd": 1, "wrap": 1}[table.kernel], (table.kernel, want)
    assert compared > 100 and conflicts > 20 and sum(free) > 50 and not all(free), (compared, conflicts, sum(free))


def test_an_accesss_texts_are_printed_when_first_read_and_say_what_was_written(tmp_path):
    """A kernel's accesses keep what was written and print their texts only when one is read (a
    message, explain, a fix): a run that reports nothing at an access prints none of its texts,
    and once read they are the access, its subscripts outermost first, and its index as written."""
    (tmp_path / "k.cu").write_text(textwrap.dedent("""\
        __global__ void k(float* out, const float* in) {
          __shared__ float tile[32][33];
          int x = threadIdx.x + 1;
          tile[threadIdx.y][x - 1] = in[blockIdx.x * 32 + threadIdx.x];
          __syncthreads();
          out[threadIdx.y   *   32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
        }
        void run(float* out, const float* in) { k<<<8, dim3(32, 32)>>>(out, in); }
        """))
    (table,) = lint_paths([str(tmp_path / "k.cu")], Config(debug=True)).tables
    assert not any({"text", "dim_texts", "source_index"} & set(a.__dict__) for a in table.accesses)
    got = sorted((a.line, a.column, a.text, a.dim_texts, a.source_index) for a in table.accesses)
    assert got == [(4, 3, "tile[threadIdx.y][x - 1]", ("threadIdx.y", "x - 1"), "x - 1"),
                   (4, 30, "in[blockIdx.x * 32 + threadIdx.x]", ("blockIdx.x * 32 + threadIdx.x",),
                    "blockIdx.x * 32 + threadIdx.x"),
                   (6, 3, "out[threadIdx.y * 32 + threadIdx.x]", ("threadIdx.y * 32 + threadIdx.x",),
                    "threadIdx.y * 32 + threadIdx.x"),
                   (6, 45, "tile[threadIdx.x][threadIdx.y]", ("threadIdx.x", "threadIdx.y"), "threadIdx.y")], got


def test_the_bounds_and_spans_of_an_expression_hold_no_environment_once_worked_out():
    """raise_free_bound and value_span keep nothing: the environment they read (arrays of every
    sampled row of a kernel) and the simulation whose extremes they ask are freed as soon as
    their callers drop them, with Python's collector off, as cudalint runs it (a function that
    calls itself through a closure would keep them in a reference cycle until its next pass:
    hundreds of MB over the real corpus)."""
    import gc
    import weakref
    from cudalint.index.evaluate import raise_free_bound, value_span

    class Extremes:
        def __call__(self, v):
            return int(v.min()), int(v.max())

    class Env(dict):
        pass

    e = ir.Bin("+", ir.Bin("*", ir.Sym("x", "param", "int"), ir.Num(4)), ir.Sym("y", "param", "int"))
    was = gc.isenabled()
    gc.disable()
    try:
        for ask in (lambda env, extremes: raise_free_bound(e, env) == 4 * 99 + 6,
                    lambda env, extremes: value_span(e, env, extremes) == (0, 4 * 99 + 6)):
            env, extremes = Env(x=np.arange(100), y=np.arange(7)), Extremes()
            held = [weakref.ref(env), weakref.ref(extremes)]
            assert ask(env, extremes)
            del env, extremes
            assert all(r() is None for r in held)
    finally:
        if was:
            gc.enable()


HOST_CALLS = """#include <cstdio>
__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
template <typename T> void launch_doubling_as(T *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
void relaunch_doubling(float *x, int n) { launch_doubling_as (x, n); launch_doubling_as<float>(x, n); launch_doubling_as
    (x, n); }
void call_twice(float *x, int n) { relaunch_doubling(x, n); relaunch_doubling  (x, n); printf("%d", n); elsewhere(x, n); }
int main() { float *x; cudaMalloc(&x, 1000 * sizeof(float)); call_twice(x, 1000); relaunch_doubling(x, 1000); return 0; }
"""


def test_calls_indexed_for_the_run_s_functions_are_those_a_scan_of_every_call_finds(tmp_path):
    """The callers of a host function are looked up in an index of the calls of the functions the
    run's files define (others are scanned for when asked), built with a pattern that gives nothing
    back: the same calls, in the same order, as the pattern that tries every shorter word finds."""
    import re
    from cudalint.lint import collect_paths, context_paths, read_project
    from cudalint.source.project import Project
    (tmp_path / "k.cu").write_text(HOST_CALLS)
    root = os.path.join(os.path.dirname(__file__), "..", "samples")
    paths = [str(tmp_path / "k.cu")] + sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".cu"))
    cfg = Config()
    sources, read = read_project(paths, cfg, context_paths(paths, cfg), errors=[])
    project = Project(sources, read)
    every: dict = {}
    for src in project.files.values():
        for m in re.finditer(rb"\b([A-Za-z_]\w*)\s*[(<]", src.tree.root_node.text):
            every.setdefault(m.group(1).decode(), []).append((src, m.start(1), m.end(1)))
    assert project.calls_named(set(n.encode() for n in every)) == every
    hosts = [fn for src in project.files.values() for fn in src.functions if fn.body is not None and not fn.is_kernel]
    for fn in hosts:
        project.callers(fn)
    assert set(project._call_index) < set(every)        # the library's calls (printf, cudaMalloc) are not indexed
    full = Project(sources, read)          # every call of every name indexed, as a scan finds them
    full._call_index = every
    full._host_homes = {}
    for fn in hosts:
        full._host_homes.setdefault(fn.name, set()).add(fn.file.key)
    for fn in hosts:
        assert [(h.name, c.start_byte) for h, c in project.callers(fn)] == \
            [(h.name, c.start_byte) for h, c in full.callers(fn)]
    (run,) = [fn for fn in hosts if fn.name == "relaunch_doubling"]
    assert [host.name for host, _ in project.callers(run)] == ["call_twice", "call_twice", "main"]
    (launch_doubling_as,) = [fn for fn in hosts if fn.name == "launch_doubling_as"]
    assert len(project.callers(launch_doubling_as)) == 3
    # a function of a file the run does not read: its calls are scanned for when asked
    (tmp_path / "other.cu").write_text("void elsewhere(float *x, int n) { }\n")
    other, _ = read_project([str(tmp_path / "other.cu")], cfg, [], errors=[])
    (elsewhere,) = other[0].functions
    assert [host.name for host, _ in project.callers(elsewhere)] == ["call_twice"]


EDGE_STEPS = """
__global__ void edges(float* a, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  a[y * n + x] = 0.0f;                                        /* one step along x and along y */
  a[(threadIdx.x * threadIdx.x + threadIdx.y) % 37 + blockIdx.x * 64] = 1.0f;   /* no one stride */
  a[((int64_t)1 << (threadIdx.x + 31)) + y] = 2.0f;           /* past int64 one step past the edge */
  a[(blockIdx.z * blockDim.z + threadIdx.z) * n * n + y * n + x] = 3.0f;
}
void run(float* a, int n) { edges<<<dim3(4, 4, 2), dim3(32, 4, 2)>>>(a, n); }
"""


def test_the_index_one_thread_on_read_from_neighbouring_lanes_is_that_of_the_moved_block(tmp_path):
    """How far an index moves when a thread coordinate grows by one (what tells a thread past the
    grid's edge) is read from the neighbouring lanes' values, only the lanes on the block's far edge
    evaluated: the same steps, and no step where evaluating the whole moved block fails."""
    (tmp_path / "k.cu").write_text(EDGE_STEPS)
    compared = failed = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        sim = simulate.Simulation(table)
        for acc in table.accesses:
            if acc.unresolved or sim.result(acc).error:
                continue
            env, shape, _, vals, _ = sim._values(acc, "range", [acc.index])
            for name in ("threadIdx.x", "threadIdx.y", "threadIdx.z"):
                sim.lanes_step = True
                read = sim._step(acc, env, name, shape, vals[0])
                sim.lanes_step = False
                moved = sim._step(acc, env, name, shape, vals[0])
                assert read == moved, (table.kernel, acc.text, name)
                compared += 1
                failed += moved is None
    assert compared > 1000 and failed >= 1


BARRIER_GUARDS = """
__global__ void guarded(float* a, int n, int m) {
  __shared__ float s[256];
  for (int k = 0; k < m; k += 64) {
    if (n > 4) {
      if (threadIdx.x < 1024) {                 /* reads the thread, splits no block */
        if (m > 2) {
          s[threadIdx.x] = a[k + threadIdx.x];
          __syncthreads();
        }
      }
      if (threadIdx.x < n) {                    /* splits the last block */
        if (m > 2) __syncthreads();
      }
    }
  }
}
void run(float* a, int n, int m) { guarded<<<4, 256>>>(a, n, m); }
"""


def test_a_barrier_splits_a_block_at_the_guard_found_when_every_guard_is_searched(tmp_path):
    """A barrier's divergence is looked for up to its last guard that reads the thread, and only in
    those: the same first splitting guard, block, threads and iterations as when every guard is
    evaluated and searched."""
    from cudalint.analysis import divergence
    (tmp_path / "k.cu").write_text(BARRIER_GUARDS)
    compared = found = 0
    for table in _sample_tables(tmp_path / "k.cu"):
        sim = simulate.Simulation(table)
        for b in table.barriers:
            if not b.is_block or not any(races.thread_dependent(g) for g in b.guards):
                continue
            got = [divergence._diverges(sim, b, every_guard) for every_guard in (False, True)]
            assert [d and (str(d.guard), d.reaches, d.misses, d.trips) for d in got] == \
                [d and (str(d.guard), d.reaches, d.misses, d.trips) for d in got[::-1]], (table.kernel, b.line)
            compared += 1
            found += got[1] is not None
    assert compared >= 6 and found >= 3


def test_the_mean_sectors_of_the_requests_are_numpys_mean():
    """The mean sectors (and ideal sectors) of an access's warp requests are summed and divided once:
    the float np.mean gives, for counts as they come (1 to 32 sectors, ideal ones from 1-, 4- and
    16-byte lanes) and as many as a large kernel's requests."""
    from cudalint.analysis.coalescing import _mean
    rng = np.random.default_rng(5)
    for n in (1, 3, 7, 64, 1000, 1 << 17):
        sectors = rng.integers(1, 33, size=n).astype(np.int64)
        for width in (1, 4, 16):
            ideal = np.ceil(rng.integers(1, 33, size=n) * width / 32)
            assert _mean(sectors) == float(np.mean(sectors)) and _mean(ideal) == float(np.mean(ideal))
