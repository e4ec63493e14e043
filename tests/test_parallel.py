"""Forked workers: results in item order whoever computed them, failures reported, never lost."""
import os
import time

import pytest

from cudalint import parallel

pytestmark = pytest.mark.skipif(not parallel.available(), reason="no fork on this platform")


def test_results_in_item_order_computed_by_several_processes():
    def fn(i):
        time.sleep(0.002)
        return i * i, os.getpid()

    pids = parallel.fork_map(fn, list(range(200)), jobs=3)
    assert [r for r, _ in pids] == [i * i for i in range(200)]
    assert os.getpid() in {p for _, p in pids} and len({p for _, p in pids}) >= 2   # the parent works too


def test_an_exception_in_a_worker_is_raised_in_the_parent():
    parent = os.getpid()

    def fn(i):
        if os.getpid() == parent:
            time.sleep(0.01)              # a slow parent: the worker surely takes some items
        elif i % 7 == 3:
            raise ValueError(f"bad item {i}")
        return i

    with pytest.raises(RuntimeError, match="ValueError: bad item"):
        parallel.fork_map(fn, list(range(50)), jobs=2)


def test_a_worker_that_dies_is_reported():
    parent = os.getpid()

    def fn(i):
        if os.getpid() != parent:
            os._exit(3)
        time.sleep(0.01)
        return i

    with pytest.raises(RuntimeError, match="exit code 3"):
        parallel.fork_map(fn, list(range(20)), jobs=2)
