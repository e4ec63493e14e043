"""Recall and false alarms of the range rules on a labelled suite of out-of-bounds bugs (not a test).

    python bench/bench_oob.py SUITE_DIR LABELS [--show]

LABELS: one kernel file a line, tab-separated, relative to SUITE_DIR:

    PATH <TAB> bug|ok <TAB> CLASS [<TAB> LINE]

A `bug` file is found when cudalint reports a CL201, CL202 or CL203 warning or error at LINE (or
anywhere in the file where no line is given); an `ok` file (the fixed twin) is a false alarm when
it gets any such warning or error. Infos are counted apart: they state a condition, they are not a
verdict. The suite is linted as a user runs it, one whole process, `--format json`, from
SUITE_DIR, so that includes next to a file resolve as they do for its users.
Printed: recall and false alarms overall and per class; --show lists the misses and the alarms.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANGE = {"CL201", "CL202", "CL203"}


def read_labels(path: Path) -> list[tuple[str, bool, str, int | None]]:
    rows = []
    for ln in path.read_text().splitlines():
        if not ln.strip() or ln.startswith("#"):
            continue
        cols = ln.split("\t")
        line = int(cols[3]) if len(cols) > 3 and cols[3].strip() else None
        rows.append((os.path.normpath(cols[0]), cols[1].strip() == "bug", cols[2].strip() if len(cols) > 2 else "", line))
    return rows


def lint(suite: Path, files: list[str]) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "cudalint", "--format", "json", "--exit-zero", "-j", "2", *files],
                         cwd=suite, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"cudalint failed ({out.returncode}): {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout)["diagnostics"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", type=Path)
    ap.add_argument("labels", type=Path)
    ap.add_argument("--show", action="store_true", help="list the misses and the false alarms")
    a = ap.parse_args()
    rows = read_labels(a.labels)
    diags = collections.defaultdict(list)
    for d in lint(a.suite, sorted({r[0] for r in rows})):
        if d["code"] in RANGE:
            diags[os.path.normpath(d["path"])].append(d)
    per = collections.defaultdict(lambda: [0, 0, 0, 0, 0])    # bugs, found, infos-only, twins, alarms
    misses, alarms = [], []
    for path, bug, cls, line in rows:
        got = [d for d in diags[path] if line is None or d["line"] == line]
        verdicts = [d for d in got if d["severity"] in ("warning", "error")]
        p = per[cls]
        if bug:
            p[0] += 1
            if verdicts:
                p[1] += 1
            else:
                p[2] += bool(got)
                misses.append((path, line, [f"{d['code']} {d['severity']} l{d['line']}" for d in diags[path]]))
        else:
            p[3] += 1
            bad = [d for d in diags[path] if d["severity"] in ("warning", "error")]
            if bad:
                p[4] += 1
                alarms.append((path, [f"{d['code']} l{d['line']}: {d['message']}" for d in bad]))
    tot = [sum(p[k] for p in per.values()) for k in range(5)]
    print(f"{'class':<14}{'bugs':>6}{'found':>7}{'info':>6}{'twins':>7}{'alarms':>8}")
    for cls in sorted(per):
        p = per[cls]
        print(f"{cls:<14}{p[0]:>6}{p[1]:>7}{p[2]:>6}{p[3]:>7}{p[4]:>8}")
    rec = tot[1] / tot[0] if tot[0] else 0.0
    print(f"{'all':<14}{tot[0]:>6}{tot[1]:>7}{tot[2]:>6}{tot[3]:>7}{tot[4]:>8}")
    print(f"recall {tot[1]}/{tot[0]} = {rec:.0%}; false alarms {tot[4]}/{tot[3]}")
    if a.show:
        for path, line, seen in misses:
            print(f"MISS  {path}:{line or '*'}  seen: {', '.join(seen) or 'nothing'}")
        for path, msgs in alarms:
            print(f"ALARM {path}: " + " | ".join(msgs))


if __name__ == "__main__":
    main()
