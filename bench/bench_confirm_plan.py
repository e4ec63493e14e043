"""Confirm mode up to the GPU, on a machine without one: per repository, the kernels linted, those
with a launch in the program, those confirm mode plans a run for, and (with --compile) those whose
instrumented unit compiles the way the GPU run compiles it (runner.compile_unit: NVRTC first, then
`nvcc -cubin` with the real headers), with every reason a kernel stops before the GPU, counted.

NVRTC is loaded from libnvrtc.so (CUDALINT_NVRTC=PATH, else the system's); the GPU's architecture
is taken as sm_90 (--arch sm_XX). Each item is linted from its own directory as `.`, as its users
would lint it.

Usage: python bench/bench_confirm_plan.py [--compile] [--arch sm_90] [--json OUT.json] [-v] DIR...
"""
from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudalint.confirm.runner import CompileError, compile_unit  # noqa: E402
from cudalint.confirm.session import prepare  # noqa: E402
from cudalint.config import Config  # noqa: E402
from cudalint.lint import lint_paths  # noqa: E402

NO_LAUNCH = ("no launch", "template argument")     # bench_confirm.py's test: kernels without a launch


class Nvrtc:
    """NVRTC through its C API: compile a text with name expressions, as CuPy's RawModule does."""

    def __init__(self, path: str | None = None):
        path = path or os.environ.get("CUDALINT_NVRTC") or ctypes.util.find_library("nvrtc")
        if not path:
            raise OSError("libnvrtc not found (set CUDALINT_NVRTC=/path/to/libnvrtc.so)")
        for builtins in sorted(Path(path).resolve().parent.glob("libnvrtc-builtins.so*")):
            ctypes.CDLL(str(builtins), mode=ctypes.RTLD_GLOBAL)    # NVRTC opens it by name
            break
        self.lib = ctypes.CDLL(path)

    def compile(self, code: str, options: tuple, names: list[str]) -> None:
        lib, prog = self.lib, ctypes.c_void_p()
        if lib.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"unit.cu", 0, None, None):
            raise RuntimeError("nvrtcCreateProgram failed")
        try:
            for n in names:
                lib.nvrtcAddNameExpression(prog, n.encode())
            opts = [o.encode() for o in options]
            arr = (ctypes.c_char_p * len(opts))(*opts)
            rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetProgramLog(prog, buf)
            if rc:
                raise RuntimeError(buf.value.decode(errors="replace"))
            for n in names:
                lowered = ctypes.c_char_p()
                if lib.nvrtcGetLoweredName(prog, n.encode(), ctypes.byref(lowered)):
                    raise RuntimeError(f'name expression not valid\nInput name expression was: "{n}"')
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(prog))


class CupyStandIn:
    """What runner.compile_unit asks of CuPy, without a GPU: RawModule compiles (NVRTC, or loads
    nvcc's cubin) and hands back name-only functions; the device is `arch`."""

    def __init__(self, nvrtc: Nvrtc, arch: str, include: str):
        outer = self

        class RawModule:
            def __init__(self, code=None, options=(), name_expressions=(), path=None):
                if code is not None:
                    opts = tuple(options) + (f"-arch={arch}", f"-I{include}")
                    outer.nvrtc.compile(code, opts, list(name_expressions))

            def get_function(self, name):
                return name

        class _Device:
            compute_capability = arch.split("_")[-1]

        class _Cuda:
            Device = _Device

            @staticmethod
            def get_cuda_path():
                return os.path.dirname(include)

            @staticmethod
            def get_nvcc_path():
                return shutil.which("nvcc")
        self.nvrtc = nvrtc
        self.RawModule = RawModule
        self.cuda = _Cuda


def lint_dir(item: str):
    here = os.getcwd()
    os.chdir(item)
    try:
        cfg = Config()
        res = lint_paths(["."], cfg)
        return res, cfg
    finally:
        os.chdir(here)


def short(reason: str) -> str:
    """A reason without its kernel's names, to count alike reasons together."""
    r = re.sub(r"`[^`]*`", "`_`", reason)
    r = re.sub(r"\S+\.(cu|cuh|h|hpp|cpp|cc)\b(:\d+)*", "FILE", r)
    r = re.sub(r"\d+", "N", r)
    return r[:160]


def bench(item: str, cp, verbose: bool, cache: str) -> dict:
    t0 = time.perf_counter()
    res, cfg = lint_dir(item)
    here = os.getcwd()
    os.chdir(item)
    try:
        runs, work, _ = prepare(res, cfg)
        compiled_runs = set()
        if cp is not None:
            for w in work:
                if not w.pending:
                    continue
                jobs = [job for _, _, _, job in w.pending]
                names = list(dict.fromkeys(j.name_expression for j in jobs))
                with tempfile.TemporaryDirectory(prefix="cudalint-plan-") as tmp:
                    d = Path(tmp)
                    for variant, text in w.unit.sources.items():
                        (d / f"{variant}.cu").write_text(text, encoding="utf-8")
                    spec = {"variants": sorted(w.unit.sources), "options": w.unit.options, "names": names,
                            "cache": cache, "definitions": w.unit.definitions}
                    try:
                        _, kernels, backend, left_out = compile_unit(cp, d, spec)
                    except CompileError as exc:
                        for run, _, _, _ in w.pending:
                            run.reason = f"{os.path.basename(w.root.path)} does not compile: {exc}"
                        continue
                for run, _, _, job in w.pending:
                    if job.name_expression in kernels:
                        compiled_runs.add(id(run))
                        run.reason = f"compiled ({backend})"
                    elif job.name_expression.split("<")[0].split("::")[-1].strip() in left_out:
                        run.reason = f"does not compile, left out: {left_out[job.name_expression.split('<')[0].split('::')[-1].strip()]}"
                    else:
                        run.reason = f"the compiler cannot instantiate `{job.name_expression}`"
    finally:
        os.chdir(here)
    planned = {id(r) for w in work for r, _, _, _ in w.pending}
    launched = [r for r in runs if id(r) in planned or not r.reason.startswith(NO_LAUNCH)]
    stopped = Counter(short(r.reason) for r in launched
                      if id(r) not in planned or (cp is not None and id(r) not in compiled_runs))
    out = {"item": item, "kernels": len(runs), "launched": len(launched), "planned": len(planned),
           "compiled": len(compiled_runs) if cp is not None else None, "seconds": round(time.perf_counter() - t0, 1),
           "reasons": stopped.most_common(), "no_launch": sum(1 for r in runs if r not in launched)}
    if verbose:
        out["kernels_stopped"] = [{"path": r.path, "kernel": r.kernel, "reason": r.reason} for r in launched
                                  if id(r) not in planned or (cp is not None and id(r) not in compiled_runs)]
    return out


def main(argv: list[str]) -> int:
    out_json = argv[argv.index("--json") + 1] if "--json" in argv else None
    arch = argv[argv.index("--arch") + 1] if "--arch" in argv else "sm_90"
    skip = {i + 1 for i, a in enumerate(argv) if a in ("--json", "--arch")}
    items = [a for i, a in enumerate(argv) if not a.startswith("-") and i not in skip]
    cp = None
    if "--compile" in argv:
        cuda = os.environ.get("CUDA_PATH") or "/usr/local/cuda"     # where CuPy looks when CUDA_PATH is not set
        include = os.path.join(cuda, "include")
        cp = CupyStandIn(Nvrtc(), arch, include)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cudalint-plan-cache-") as cache:
        for item in items:
            r = bench(item, cp, "-v" in argv, cache)
            rows.append(r)
            print(f"{r['item']}: {r['kernels']} kernels, {r['launched']} with a launch, {r['planned']} planned"
                  + (f", {r['compiled']} compiled" if cp is not None else "") + f" ({r['seconds']} s)", flush=True)
            for reason, n in r["reasons"]:
                print(f"    {n:4d}  {reason}")
            for k in r.get("kernels_stopped", []):
                print(f"    - {k['path']}: {k['kernel']}: {k['reason'][:300]}")
    launched = sum(r["launched"] for r in rows)
    done = sum((r["compiled"] if cp is not None else r["planned"]) for r in rows)
    print(f"\n{'repository':<28} {'kernels':>7} {'launched':>8} {'planned':>7} {'compiled':>8}")
    for r in rows:
        print(f"{os.path.basename(r['item'].rstrip('/')):<28} {r['kernels']:>7} {r['launched']:>8} {r['planned']:>7} "
              f"{r['compiled'] if r['compiled'] is not None else '-':>8}")
    if launched:
        print(f"{'all':<28} {sum(r['kernels'] for r in rows):>7} {launched:>8} {sum(r['planned'] for r in rows):>7} "
              f"{done if cp is not None else '-':>8}  ({100 * done / launched:.0f}% of launched "
              f"{'compiled' if cp is not None else 'planned'})")
    if out_json:
        Path(out_json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
