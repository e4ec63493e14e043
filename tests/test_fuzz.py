"""A small, fixed fuzz budget for CI: mutated samples (hostile snippets, flipped bytes, huge numbers,
deep nesting, bytes that are not UTF-8), each linted beside a good file in every output format,
under ulimit -v 1 GiB and a 10 s limit (bench/fuzz.py; `python bench/fuzz.py 2000` for the long run)."""
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
fuzz = pytest.importorskip("fuzz", reason="bench/fuzz.py")


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the harness forks a process per case")
def test_mutated_samples_give_no_traceback_no_abort_no_hang_and_well_formed_output():
    counts, failures, times = fuzz.fuzz(60, seed=13, jobs=2, dirs=[ROOT / "samples"])
    assert counts["cases"] == 60
    assert [(o.case, o.fmt, o.problems, o.stderr[-300:]) for o in failures] == []
    assert counts["exit 1"] > 0                      # the good file's findings came through
