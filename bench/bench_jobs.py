"""Parallel linting benchmark (not a test): `python bench/bench_jobs.py [RUNS]`.

Lints samples/ with -j 1 and -j 2, interleaved, RUNS times each (default 7): in one process
(`lint_paths`, parse + analysis, imports excluded) and as a user runs it (`python -m cudalint
samples`, cold start included). Prints medians, minima and the median speed-up over adjacent pairs (the machine may be shared), and
checks that both give the same diagnostics.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    from cudalint.lint import Config, lint_paths
    samples = str(ROOT / "samples")
    lint_paths([samples], Config())                         # warm the parsers once
    inproc = {1: [], 2: []}
    outputs = {}
    for _ in range(runs):
        for j in (1, 2):
            t0 = time.perf_counter()
            r = lint_paths([samples], Config(jobs=j))
            inproc[j].append(time.perf_counter() - t0)
            outputs[j] = [d.to_json() for d in r.diagnostics]
    assert outputs[1] == outputs[2], "-j 2 changed the diagnostics"
    cli = {1: [], 2: []}
    for _ in range(runs):
        for j in (1, 2):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cudalint", "samples", "-j", str(j), "--exit-zero"], cwd=ROOT,
                           capture_output=True, check=True)
            cli[j].append(time.perf_counter() - t0)
    n = len(list((ROOT / "samples").rglob("*.cu*")))
    print(f"samples/: {n} files, {len(outputs[1])} diagnostics, identical with -j 1 and -j 2")
    for name, t in (("lint_paths (in process)", inproc), ("python -m cudalint samples", cli)):
        m1, m2 = statistics.median(t[1]), statistics.median(t[2])
        # Runs alternate -j 1 / -j 2, so each pair saw about the same load from other processes.
        pairs = statistics.median(a / b for a, b in zip(t[1], t[2]))
        print(f"{name:<28} -j 1: {m1:.3f} s   -j 2: {m2:.3f} s   (median of {runs}; min {min(t[1]):.3f} / "
              f"{min(t[2]):.3f})   speed-up {pairs:.2f}x (median over pairs)")


if __name__ == "__main__":
    main()
