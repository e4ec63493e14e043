"""Whole-repository speed against the cost of parsing (not a test).

    python bench/bench_corpus.py [CORPUS] [--runs N]

CORPUS (default /tmp/realcode, the real-code recipe's 267 files) is linted as a user runs it,
`cudalint --format json --exit-zero -j J CORPUS`, a whole process each time, with -j 1 and -j 2;
the yardstick is a whole process that only reads and parses the same .cu/.cuh files with
tree-sitter (imports included, as in the lint). Runs alternate (parse, -j 1, -j 2, parse, ...) so
that each ratio compares runs made under the same load: the machine may be shared. Printed:
medians of wall and CPU seconds, and the median over rounds of lint / parse, wall and CPU.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PARSE_ONLY = """
import os, sys
import tree_sitter_cuda
from tree_sitter import Language, Parser
parser = Parser(Language(tree_sitter_cuda.language()))
n = 0
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for f in sorted(files):
        if f.endswith((".cu", ".cuh")):
            with open(os.path.join(root, f), "rb") as fh:
                parser.parse(fh.read())
            n += 1
print(n)
"""


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default="/tmp/realcode")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env_note = "" if os.environ.get("PYTHONDONTWRITEBYTECODE") is None else \
        " (PYTHONDONTWRITEBYTECODE is set: every process compiles its modules)"
    parse = [sys.executable, "-c", PARSE_ONLY, args.corpus]
    lint = {j: [sys.executable, "-m", "cudalint", "--format", "json", "--exit-zero", "-j", str(j), args.corpus]
            for j in (1, 2)}
    nfiles = timed(parse)[2].strip()          # warm the file cache and the interpreter's
    timed(lint[1])
    rows: dict[str, list[tuple[float, float]]] = {"parse": [], "j1": [], "j2": []}
    for _ in range(args.runs):
        rows["parse"].append(timed(parse)[:2])
        rows["j1"].append(timed(lint[1])[:2])
        rows["j2"].append(timed(lint[2])[:2])
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
    print(f"{args.corpus}: {nfiles} files, {args.runs} rounds{env_note}")
    print(f"  tree-sitter parse only   wall {med['parse'][0]:6.2f} s   cpu {med['parse'][1]:6.2f} s")
    for j in (1, 2):
        k = f"j{j}"
        wall = statistics.median(a[0] / b[0] for a, b in zip(rows[k], rows["parse"]))
        cpu = statistics.median(a[1] / b[1] for a, b in zip(rows[k], rows["parse"]))
        print(f"  cudalint -j {j}            wall {med[k][0]:6.2f} s   cpu {med[k][1]:6.2f} s   "
              f"lint/parse: wall {wall:5.1f}x  cpu {cpu:5.1f}x")


if __name__ == "__main__":
    main()
