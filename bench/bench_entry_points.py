"""Do the entry points agree? `python bench/bench_entry_points.py [ROOT...]` (not a test: too slow
for the suite, which runs the same comparison over samples/ in tests/test_entry_points.py).

For every .cu/.cuh file under each ROOT (default: /tmp/realcode, then each repository of
/tmp/realcode2, each linted from its own root as its users would), the findings (path, line,
column, code, severity) of:

- `cudalint check --format json FILE`,
- `cudalint - --stdin-filename FILE < FILE`,
- `cudalint explain --format json FILE` (its kernels' findings lists),
- the engine's API, `Workspace(config).findings(FILE)`,

are compared; every file where they differ is printed with what each entry point reported, and the
last line counts the mismatches (the target is 0).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Finding = tuple[str, int, int, str, str]     # path, line, column, code, severity


def _main(argv: list[str], stdin: bytes | None = None) -> tuple[int, str]:
    from cudalint.cli import main
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(argv)
    finally:
        sys.stdin = saved
    return code, out.getvalue()


def _from_json(text: str) -> set[Finding]:
    if not text.strip():
        return set()
    return {(d["path"], d["line"], d["column"], d["code"], d["severity"]) for d in json.loads(text)["diagnostics"]}


def entry_point_findings(path: str) -> dict[str, set[Finding]]:
    """What each entry point reports for `path` (relative to the current directory, the project's
    root). Explain lists the findings of its kernels only, and every note (CL901): the others are
    compared on the same part."""
    from cudalint.config import Resolver
    from cudalint.engine import Workspace

    code, text = _main(["check", "--format", "json", "--exit-zero", "-j", "1", path])
    check = _from_json(text) if code != 2 else {("error", 0, 0, "exit", "2")}
    in_kernels = {(d["path"], d["line"], d["column"], d["code"], d["severity"])
                  for d in (json.loads(text)["diagnostics"] if code != 2 and text.strip() else [])
                  if d.get("kernel") and d["code"] not in ("CL900", "CL901")}
    with open(path, "rb") as f:
        data = f.read()
    code, text = _main(["-", "--stdin-filename", path, "--format", "json", "--exit-zero", "-j", "1"], data)
    stdin = _from_json(text) if code != 2 else {("error", 0, 0, "exit", "2")}
    engine = {(d.path, d.line, d.column, d.code, d.severity)
              for d in Workspace(Resolver({}, jobs=1).run_config()).findings(path)}
    code, text = _main(["explain", "--format", "json", path])
    explain: set[Finding] = set()
    if code == 0:
        for k in json.loads(text)["kernels"]:
            explain |= {(f.get("path") or k["path"], f["line"], f["column"], f["code"], f["severity"])
                        for f in k["findings"] if f["code"] != "CL901"}
    return {"check": check, "stdin": stdin, "engine": engine, "explain": explain, "check, in kernels": in_kernels}


def mismatches(path: str) -> dict[str, set[Finding]] | None:
    """None when every entry point agrees on `path`, else what each reported."""
    got = entry_point_findings(path)
    check = got["check"]
    # explain lists its kernels' findings: check's kernel-less ones (CL900, CL910) aside
    if got["stdin"] != check or got["engine"] != check or got["explain"] != got.pop("check, in kernels"):
        return got
    return None


def files_under(root: str) -> list[str]:
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        out += sorted(os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith((".cu", ".cuh")))
    return out


def main() -> int:
    roots = sys.argv[1:] or ["/tmp/realcode", *sorted(str(p) for p in Path("/tmp/realcode2").glob("*"))]
    total = bad = 0
    t0 = time.perf_counter()
    here = os.getcwd()
    for root in roots:
        os.chdir(root)
        try:
            for f in files_under("."):
                total += 1
                got = mismatches(f)
                if got is not None:
                    bad += 1
                    print(f"MISMATCH {root}/{f}")
                    every = set().union(*got.values())
                    for finding in sorted(every):
                        who = [k for k, v in got.items() if finding in v]
                        print(f"  {finding}: {', '.join(who)}")
        finally:
            os.chdir(here)
    print(f"{total} files, {bad} mismatches, {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
