"""What a worker process sends back pickles: a run that keeps the kernels' tables (`--format full`,
explain, confirm) over many kernels analyses them in forked processes and gets every table back."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cudalint.lint import Config, lint_paths

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

# a struct whose array extent is an expression of the unit's constants: its type table folds it
STRUCTS = """
#define N 8
struct Rec { float v[N * 2]; int k; };
""" + "".join(f"""
__global__ void k{i}(Rec *r, float *out, int n) {{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) out[t] = r[t].v[{i}] + r[t].k;
}}
""" for i in range(10))


def test_a_result_that_does_not_pickle_is_worked_out_by_the_parent():
    from cudalint import parallel

    def fn(x):          # a closure holds what pickle cannot send: each result holds one
        return (x * 2, lambda: x)

    got = parallel.fork_map(fn, list(range(12)), 2)
    assert [g[0] for g in got] == [x * 2 for x in range(12)]
    assert [g[1]() for g in got] == list(range(12))


def test_full_format_in_parallel_reports_the_findings(tmp_path):
    f = tmp_path / "recs.cu"
    f.write_text(STRUCTS)
    run = [sys.executable, "-m", "cudalint", "--exit-zero", "--format", "full", str(f)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    one = subprocess.run(run + ["-j", "1"], capture_output=True, text=True, cwd=ROOT, env=env)
    two = subprocess.run(run + ["-j", "2"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert "internal error" not in one.stderr + two.stderr
    assert "CL101" in one.stdout          # each thread reads a field of a 68-byte record
    assert one.stdout == two.stdout
