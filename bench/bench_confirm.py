"""Confirm mode over the samples on a GPU: per kernel, the static findings and what the
instrumented run made of them, the logged sectors per request and the time of the run (compile
included). Usage: python bench/bench_confirm.py [--ncu] [--param NAME=VALUE ...] [SAMPLE...]"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudalint.confirm import confirm_result  # noqa: E402
from cudalint.lint import Config, lint_paths  # noqa: E402

SHARED = "shared_load_wavefronts_per_request"


def targets(args: list[str]) -> list[list[str]]:
    if args:
        return [[a] for a in args]
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "samples").glob("*.cu"))
    return [[f] for f in files] + [["samples/headers"]]   # the header's kernel is launched from its runner


def main(argv: list[str]) -> int:
    mode = "ncu" if "--ncu" in argv else "log"
    params = {argv[i + 1].split("=")[0]: int(argv[i + 1].split("=")[1]) for i, a in enumerate(argv) if a == "--param"}
    args = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--param")]
    print(f"{'sample':<36} {'kernel':<20} {'static':<22} {'conf':>4} {'ref':>4} {'dyn':>4} "
          f"{'ld s/r':>7} {'st s/r':>7} {'ncu ld':>7} {'ncu st':>7} {'sh wf':>6} {'ncu sh':>6} {'records':>8} {'s':>6}")
    worst = 0.0
    for paths in targets(args):
        cfg = Config(params=params)
        res = lint_paths([str(ROOT / p) for p in paths], cfg)
        t0 = time.perf_counter()
        runs = confirm_result(res, cfg, mode)
        total = time.perf_counter() - t0
        for r in runs:
            mine = [d for d in res.diagnostics if d.kernel == r.kernel and d.path == r.path]
            static = sorted({d.code for d in mine if d.source == "static" and d.code not in ("CL901", "CL900")})
            conf = sum(1 for d in mine if d.source == "static" and d.confirmed is True)
            ref = sum(1 for d in mine if d.source == "static" and d.confirmed is False)
            dyn = sorted(d.code for d in mine if d.source == "dynamic")
            name = Path(r.path).name
            if not r.ran:
                print(f"{name:<36} {r.kernel:<20} not run: {r.reason}")
                continue
            worst = max(worst, r.seconds)
            f = lambda d, k: f"{d[k]:.2f}" if k in d else "-"   # noqa: E731
            print(f"{name:<36} {r.kernel:<20} {','.join(static) or 'clean':<22} {conf:>4} {ref:>4} "
                  f"{','.join(dyn) or '-':>4} {f(r.totals, 'load_sectors_per_request'):>7} "
                  f"{f(r.totals, 'store_sectors_per_request'):>7} {f(r.hardware, 'load_sectors_per_request'):>7} "
                  f"{f(r.hardware, 'store_sectors_per_request'):>7} {f(r.totals, SHARED):>6} "
                  f"{f(r.hardware, SHARED):>6} {r.records:>8} {r.seconds:>6.2f}")
            for d in mine:
                if d.confirmed is False or d.source == "dynamic":
                    print(f"    {d.code} {d.source} line {d.line}: {d.measured.get('summary') if d.measured else ''}")
        del total
    print(f"slowest instrumented run (compile included): {worst:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
