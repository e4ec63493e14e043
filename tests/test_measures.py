"""The figures DESIGN.md measured on an H100 with ncu, reproduced by the warp simulator (within 5%)."""
import pytest

from cudalint.analysis.simulate import Simulation
from cudalint.lint import Config, lint_paths

from conftest import SAMPLES

SIZES = {"M": 3000, "K": 4000, "N": 3000}


def _figures(path, params):
    result = lint_paths([str(path)], Config(params=params, debug=True))
    (table,) = result.tables
    sim = Simulation(table, params)
    out = {}
    for acc in table.accesses:
        if acc.space == "global":
            out[(acc.array.name, acc.kind)] = sim.result(acc).coalescing.sectors_per_request
    return out, result


def test_naive_matmul_row_from_threadIdx_y_matches_hardware():
    f, result = _figures(SAMPLES / "matmul_naive_good.cu", SIZES)
    assert f[("left", "load")] == pytest.approx(1.0, rel=0.05)    # broadcast
    assert f[("right", "load")] == pytest.approx(4.0, rel=0.05)
    assert (f[("left", "load")] + f[("right", "load")]) / 2 == pytest.approx(2.50, rel=0.05)
    assert f[("out", "store")] == pytest.approx(4.00, rel=0.05)
    assert not [d for d in result.diagnostics if d.code.startswith("CL1")]


def test_naive_matmul_row_from_threadIdx_x_matches_hardware():
    f, result = _figures(SAMPLES / "matmul_naive_bad.cu", SIZES)
    assert f[("left", "load")] == pytest.approx(32.0, rel=0.05)
    assert f[("right", "load")] == pytest.approx(1.0, rel=0.05)
    assert (f[("left", "load")] + f[("right", "load")]) / 2 == pytest.approx(16.50, rel=0.05)
    assert f[("out", "store")] == pytest.approx(32.00, rel=0.05)
    # x and y swapped is the cause: one CL102 finding on the store, carrying CL101's figures
    store = next(d for d in result.diagnostics if d.code == "CL102" and d.access == "store")
    assert store.subsumes == ["CL101"]
    assert store.metrics["sectors_per_request"] == pytest.approx(32.0, rel=0.05)
    assert store.metrics["ideal_sectors"] == pytest.approx(4.0, rel=0.05)
    assert "32 sectors/request, ideal 4" in store.message


def test_register_tiled_gemm_store_is_16_sectors():
    f, result = _figures(SAMPLES / "gemm_regtile.cu", {})
    assert f[("C", "store")] == pytest.approx(16.0, rel=0.05)
    d = next(d for d in result.diagnostics if d.code == "CL101")
    assert d.metrics["sectors_per_request"] == pytest.approx(16.0, rel=0.05)
    assert d.metrics["ideal_sectors"] == pytest.approx(4.0, rel=0.05)
    assert "threadIdx.x * 4" in d.message


def test_stride_mismatch_shows_the_seed_max_check():
    result = lint_paths([str(SAMPLES / "gemm_regtile_stride_mismatch.cu")], Config(debug=True))
    cl201 = next(d for d in result.diagnostics if d.code == "CL201")
    assert "7*32 + 3 = 227 > 31" in cl201.message
    assert cl201.metrics["max_index"] == 227 and cl201.metrics["extent"] == 32
    cl301 = next(d for d in result.diagnostics if d.code == "CL301")
    assert "make it 4" in cl301.message
