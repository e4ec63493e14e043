"""Confirm mode on a GPU over files or directories (each one item, as a user would name it on the
command line; default: every sample): per kernel, run or not and why; per rule, the static
findings confirmed, refuted and not run; every refuted finding and every dynamic-only finding;
per-item time, compile included; with --ncu, the hardware's figures beside the logged ones.

Usage: python bench/bench_confirm.py [--ncu] [--json OUT.json] [--param NAME=VALUE ...] [ITEM...]"""
from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudalint.confirm import confirm_result  # noqa: E402
from cudalint.confirm.compare import CONFIRMERS  # noqa: E402
from cudalint.lint import Config, lint_paths  # noqa: E402

FIGURES = ("load_sectors_per_request", "store_sectors_per_request", "shared_load_wavefronts_per_request",
           "shared_store_wavefronts_per_request")


def targets(args: list[str]) -> list[str]:
    if args:
        return args
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "samples").glob("*.cu"))
    return files + ["samples/headers", "samples/programs"]


def main(argv: list[str]) -> int:
    mode = "ncu" if "--ncu" in argv else "log"
    out_json = argv[argv.index("--json") + 1] if "--json" in argv else None
    params = {argv[i + 1].split("=")[0]: int(argv[i + 1].split("=")[1]) for i, a in enumerate(argv) if a == "--param"}
    skip = {i + 1 for i, a in enumerate(argv) if a in ("--param", "--json")}
    items = [a for i, a in enumerate(argv) if not a.startswith("--") and i not in skip]
    per_rule: dict[str, Counter] = {}
    report = {"items": [], "refuted": [], "dynamic": [], "not_run": [], "ncu": []}
    times = []
    resolved = ran = 0
    for item in targets(items):
        cfg = Config(params=params)
        res = lint_paths([item], cfg)
        t0 = time.perf_counter()
        runs = confirm_result(res, cfg, mode)
        wall = time.perf_counter() - t0
        times.append((wall, item))
        ok = [r for r in runs if r.ran]
        with_launch = [r for r in runs if r.ran or not r.reason.startswith(("no launch", "template argument"))]
        resolved += len(with_launch)
        ran += len(ok)
        report["items"].append({"item": item, "seconds": round(wall, 2), "kernels": len(runs),
                                "with_launch": len(with_launch), "ran": len(ok),
                                "backends": sorted({r.backend for r in ok})})
        print(f"{item}: {len(ok)}/{len(with_launch)} kernels run ({len(runs)} in all), {wall:.2f} s", flush=True)
        for r in runs:
            if r.ran:
                print(f"    {r.line()[:400]}")
            if not r.ran:
                report["not_run"].append({"item": item, "kernel": r.kernel, "reason": r.reason})
                print(f"    not run: {r.kernel}: {r.reason[:240]}")
        ran_kernels = {(r.path, r.kernel) for r in ok}
        for d in res.diagnostics:
            if d.source == "dynamic":
                report["dynamic"].append({"where": f"{d.path}:{d.line}", "code": d.code, "severity": d.severity,
                                          "kernel": d.kernel, "message": d.message})
                continue
            if d.severity not in ("warning", "error") or d.code not in CONFIRMERS:
                continue
            c = per_rule.setdefault(d.code, Counter())
            if (d.path, d.kernel) not in ran_kernels:
                c["not run"] += 1
            elif d.confirmed is True:
                c["confirmed"] += 1
            elif d.confirmed is False:
                c["refuted"] += 1
                report["refuted"].append({"where": f"{d.path}:{d.line}", "code": d.code, "kernel": d.kernel,
                                          "message": d.message,
                                          "measured": (d.measured or {}).get("summary", "")})
            else:
                c["not measured"] += 1
        for r in ok:
            if r.hardware:
                report["ncu"].append({"item": item, "kernel": r.kernel, "logged": r.totals, "ncu": r.hardware})
    print()
    print(f"kernels run / kernels with a resolved launch: {ran} / {resolved}")
    print(f"{'rule':<7} {'confirmed':>9} {'refuted':>8} {'not run':>8} {'not measured':>13}")
    for code in sorted(per_rule):
        c = per_rule[code]
        print(f"{code:<7} {c['confirmed']:>9} {c['refuted']:>8} {c['not run']:>8} {c['not measured']:>13}")
    for x in report["refuted"]:
        print(f"refuted {x['code']} {x['where']} ({x['kernel']}): {x['measured']}")
    for x in report["dynamic"]:
        print(f"dynamic {x['severity']} {x['code']} {x['where']} ({x['kernel']}): {x['message'][:200]}")
    for x in report["ncu"]:
        pairs = [f"{k.split('_per_')[0]} {x['logged'].get(k, '-')} / {x['ncu'].get(k, '-')}" for k in FIGURES
                 if k in x["logged"] or k in x["ncu"]]
        print(f"ncu {x['item']} {x['kernel']}: logged / ncu: {'; '.join(pairs)}")
    secs = sorted(t for t, _ in times)
    if secs:
        print(f"per-item time, compile included: median {statistics.median(secs):.2f} s, max {secs[-1]:.2f} s "
              f"({max(times)[1]})")
    report["rules"] = {k: dict(v) for k, v in per_rule.items()}
    report["ran"], report["resolved"] = ran, resolved
    if out_json:
        Path(out_json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
