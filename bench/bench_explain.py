"""Explain latency benchmark (not a test): `python bench/bench_explain.py [REPEATS]`.

For every sample: `explain` in one process (lint + explain data + text, markdown, json and html
rendering; best of REPEATS after one warm-up), then `python -m cudalint explain SAMPLE` cold, as a
learner runs it. Prints the slowest samples and the maximum of each; the target is < 1 s per sample.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET_S = 1.0


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    from cudalint.explain.cli import render_as
    from cudalint.explain.driver import explain_paths
    from cudalint.lint import Config
    samples = sorted(p for p in (ROOT / "samples").rglob("*") if p.suffix in (".cu", ".cuh"))
    explain_paths([str(samples[0])], Config())            # warm the parsers once
    inproc, cold = {}, {}
    for p in samples:
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            ex = explain_paths([str(p)], Config())
            for fmt in ("text", "markdown", "json", "html"):
                render_as(ex, fmt)
            best = min(best, time.perf_counter() - t0)
        inproc[p] = best
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cudalint", "explain", str(p)], cwd=ROOT, capture_output=True)
        cold[p] = time.perf_counter() - t0
    rel = lambda p: str(p.relative_to(ROOT))
    for title, times in (("in-process (4 formats)", inproc), ("cold CLI `python -m cudalint explain`", cold)):
        worst = sorted(times, key=times.get, reverse=True)
        print(f"{title}: max {max(times.values()):.3f} s ({rel(worst[0])}), "
              f"mean {sum(times.values()) / len(times):.3f} s over {len(times)} samples")
        for p in worst[1:4]:
            print(f"    {rel(p)}: {times[p]:.3f} s")
    over = [rel(p) for p in samples if max(inproc[p], cold[p]) >= TARGET_S]
    print(f"target < {TARGET_S:.0f} s per sample: " + ("met" if not over else "MISSED by " + ", ".join(over)))


if __name__ == "__main__":
    main()
