"""Bugs found and false alarms on the Indigo suite's CUDA patterns (not a test).

    python bench/bench_indigo.py INDIGO_DIR [--show]

INDIGO_DIR is a checkout of the public Indigo suite (github.com/burtscher/IndigoSuite): its
`Generators/CUDA_sources/*.idg` are graph kernels in which tagged segments (`/*@boundsBug@*/`,
`/*@raceBug@*/`, `/*@atomicBug@*/`, `/*@syncBug@*/`, `/*@guardBug@*/`) plant one bug each, and others
(`/*@persistent@*/`, `/*@cond@*/`, ...) change the code without one. For every pattern this writes
the plain code, each option alone (bug-free) and each bug alone into a temporary folder with the
suite's header, lints it as a user runs cudalint (one process, `--format json`, from that folder),
and counts a bug variant found when any warning or error is reported in it, and a bug-free variant
a false alarm when one is. Infos are not counted: they state a condition, not a verdict.
"""
from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TAG = re.compile(r"/\*@([A-Za-z0-9]*)@\*/")
OPTIONS = ["", "persistent", "cond", "shfl", "reverse", "traverse", "break", "last", "float"]
BUGS = ["boundsBug", "raceBug", "atomicBug", "syncBug", "guardBug"]


def variant(text: str, chosen: str) -> str:
    """The code with the segments of `chosen` taken (the untagged text of each line otherwise)."""
    out = []
    for line in text.splitlines():
        parts = TAG.split(line)
        if len(parts) == 1:
            out.append(line)
            continue
        segs = {None: parts[0]}
        for k in range(1, len(parts), 2):
            segs.setdefault(parts[k], parts[k + 1])
        out.append(segs[chosen] if chosen in segs else segs[None])
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("indigo", help="a checkout of the Indigo suite")
    ap.add_argument("--show", action="store_true", help="list the misses and the false alarms")
    a = ap.parse_args()
    sources = sorted(glob.glob(os.path.join(a.indigo, "Generators", "CUDA_sources", "*.idg")))
    header = os.path.join(a.indigo, "Generators", "sources_include", "indigo_cuda.h")
    if not sources or not os.path.exists(header):
        print(f"no Indigo CUDA patterns under {a.indigo}", file=sys.stderr)
        return 2
    labels: list[tuple[str, str]] = []          # (file, "" for bug-free or the bug's tag)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(header, tmp)
        for idg in sources:
            name, text = Path(idg).stem, Path(idg).read_text()
            present = set(TAG.findall(text))
            for v in OPTIONS + BUGS:
                if v and v not in present:
                    continue
                fn = f"{name}__{v or 'base'}.cu"
                Path(tmp, fn).write_text(variant(text, v))
                labels.append((fn, v if v in BUGS else ""))
        p = subprocess.run([sys.executable, "-m", "cudalint", "--format", "json", "--exit-zero", "."], cwd=tmp,
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        found = collections.defaultdict(list)
        for d in json.loads(p.stdout)["diagnostics"]:
            if d["severity"] in ("warning", "error"):
                found[os.path.basename(d["path"])].append(f"{d['code']}:{d['line']}")
    per = collections.defaultdict(lambda: [0, 0])
    alarms = clean = 0
    for fn, bug in labels:
        if bug:
            per[bug][0] += 1
            per[bug][1] += bool(found.get(fn))
            if a.show and not found.get(fn):
                print("missed", fn)
        elif found.get(fn):
            alarms += 1
            if a.show:
                print("alarm ", fn, " ".join(found[fn]))
        else:
            clean += 1
    print(f"{'bug':12} {'variants':>8} {'found':>6}")
    for bug in BUGS:
        if per[bug][0]:
            print(f"{bug:12} {per[bug][0]:8} {per[bug][1]:6}")
    bugs = sum(v[0] for v in per.values())
    hit = sum(v[1] for v in per.values())
    print(f"found {hit}/{bugs} bug variants; false alarms on {alarms}/{alarms + clean} bug-free variants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
