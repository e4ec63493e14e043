"""Compile a translation unit once and run each of its kernels' jobs, in a child process with a
timeout, and read the access logs back.

The parent (`run_unit`) never imports CuPy; the child (`python -m cudalint.confirm.runner DIR`)
does: it compiles the unit with NVRTC (cupy.RawModule, the kernels' name expressions), or where
NVRTC cannot, with `nvcc -cubin` and the real headers (compiled modules are cached on disk, keyed
on the text, the options and the GPU), then for each job fills the buffers with random data at
their logical size, writes the log's control block, launches the sampled blocks and saves the log
as `DIR/log_K.npz`. It reports each step on stdout (`compiled`, `ran K`, `failed K ...`); its
stderr goes to a file the parent reads one line of, so no traceback of the child ever reaches the
user. A kernel that faults or hangs ends its child; the jobs after it run in a fresh one.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Word offsets of the control block `__cl_ctl`; they mirror the enum in log_runtime.cuh.
CL_COUNT, CL_SITE, CL_SLOT, CL_TID, CL_INST, CL_EPOCH, CL_FLAGS, CL_ADDR, CL_OFF, CL_COUNTERS = range(10)
CL_CAPACITY, CL_NSITES, CL_NBUF, CL_NTHREADS, CL_GRID = range(10, 15)
CL_MAX_BUF, CL_MAX_BLOCKS = 64, 64
CL_BASE = CL_GRID + 3
CL_BYTES = CL_BASE + CL_MAX_BUF
CL_BLOCKS = CL_BYTES + CL_MAX_BUF
CL_REQUESTS = CL_BLOCKS + 3 * CL_MAX_BLOCKS
CL_WORDS = CL_REQUESTS + 1
FIELDS = (("site", "uint32"), ("slot", "uint32"), ("tid", "uint32"), ("inst", "uint32"), ("epoch", "uint32"),
          ("flags", "uint32"), ("addr", "uint64"), ("off", "int64"))
EXIT_NO_GPU = 3
EXIT_COMPILE = 4
EXIT_JOB = 5
EXIT_INTERNAL = 6
COMPILE_TIMEOUT = 300.0


class ArgumentMismatch(Exception):
    """The compiled kernel takes a struct argument at another size than the type table laid it out."""


class RunError(Exception):
    """The instrumented run did not produce a log (compile error, timeout, fault); one line."""


class CompileFailed(RunError):
    """The unit does not compile (the compiler's first errors)."""


@dataclass
class Log:
    """The records of one run (numpy arrays, one entry per record) and what the run reported."""
    records: dict[str, np.ndarray]
    asked: int                  # records the kernel asked to write (past capacity: counted only)
    out_of_range: int           # out-of-range events, all of them (also past capacity)
    compile_s: float
    run_s: float
    wall_s: float
    counts: np.ndarray | None = None   # [block slot, thread, site]: instances each thread ran
    backend: str = ""

    @property
    def truncated(self) -> bool:
        return self.asked > len(self.records["site"])


@dataclass
class UnitRun:
    """What the child made of a unit: per job a Log or a RunError, and the compile."""
    results: dict
    compile_s: float = 0.0
    backend: str = ""
    wall_s: float = 0.0
    other: list = None            # lines on the child's stdout that are not its reports (a profiler's)

    def __post_init__(self):
        self.other = [] if self.other is None else self.other


def cache_dir() -> str:
    return os.environ.get("CUDALINT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cudalint", "confirm")


def run_unit(sources: dict[str, str], options: list[str], jobs: list[dict], timeout: float,
             plain: bool = False, runner: list[str] | None = None, definitions: list | None = None) -> UnitRun:
    """Compile the unit once and run `jobs` (Job.to_json()) in order; a job that hangs or faults
    costs only itself. `runner`: the command that starts the child (ncu wraps it)."""
    out = UnitRun({})
    t0 = time.perf_counter()
    threads = max([int(np.prod(j["block"])) for j in jobs] + [1])
    if threads > 256:     # the log's call needs registers too: leave room for the largest block launched
        options = list(options) + [f"--maxrregcount={min(255, 65536 // threads // 8 * 8)}"]
    with tempfile.TemporaryDirectory(prefix="cudalint-confirm-") as tmp:
        d = Path(tmp)
        for variant, text in sources.items():
            (d / f"{variant}.cu").write_text(text, encoding="utf-8")
        spec = {"variants": sorted(sources), "options": options, "jobs": jobs, "plain": plain,
                "definitions": definitions or [],
                "names": list(dict.fromkeys(j["name_expression"] for j in jobs)), "cache": cache_dir()}
        (d / "unit.json").write_text(json.dumps(spec), encoding="utf-8")
        pending = list(range(len(jobs)))
        while pending:
            _child_pass(d, pending, out, timeout, runner)
    out.wall_s = time.perf_counter() - t0
    return out


def _child_pass(d: Path, pending: list[int], out: UnitRun, timeout: float, runner) -> None:
    """One child: compile (or load the cached module), then the pending jobs until one fails."""
    (d / "todo.json").write_text(json.dumps(pending))
    err_path = d / f"stderr-{pending[0]}.txt"
    cmd = (runner or []) + [sys.executable, "-m", "cudalint.confirm.runner", str(d)]
    with open(err_path, "w") as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, env=child_env(),
                             start_new_session=True)
    lines: queue.Queue = queue.Queue()

    def read():
        for raw in p.stdout:
            lines.put(raw.decode("utf-8", errors="replace").rstrip("\n"))
        lines.put(None)
    threading.Thread(target=read, daemon=True).start()
    compiled = out.backend != ""
    deadline = time.monotonic() + (timeout if compiled else max(COMPILE_TIMEOUT, timeout))
    job_start = time.perf_counter()
    while True:
        try:
            line = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            _kill(p)
            if not compiled:
                msg = f"the copy did not compile within {max(COMPILE_TIMEOUT, timeout):g} s"
                for k in list(pending):
                    out.results[k] = CompileFailed(msg)
                pending.clear()
            else:
                k = pending.pop(0)
                out.results[k] = RunError(f"did not finish within {timeout:g} s (it may loop forever); stopped "
                                          f"(raise the limit with --confirm-timeout)")
            return
        if line is None:
            break
        word, _, rest = line.partition(" ")
        if word == "compiled":
            backend, seconds = rest.split()
            out.backend, out.compile_s, compiled = backend, float(seconds), True
            deadline = time.monotonic() + timeout         # now the kernels' own limit
            job_start = time.perf_counter()
        elif word == "ran":
            k = int(rest)
            out.results[k] = _read_log(d, k, out, time.perf_counter() - job_start)
        elif word == "failed":
            k, _, msg = rest.partition(" ")
            out.results[int(k)] = RunError(msg)
        else:
            out.other.append(line)
            continue
        if word in ("ran", "failed"):
            pending.remove(int(rest.split()[0]))
            job_start = time.perf_counter()
            deadline = time.monotonic() + timeout
    code = p.wait()
    if not pending or code == EXIT_JOB:     # the job that failed said so; the rest go to a fresh child
        return
    reason = _last_line(d, err_path)
    if code == EXIT_COMPILE or not compiled:
        for k in list(pending):
            out.results[k] = CompileFailed(reason) if code == EXIT_COMPILE else \
                RunError(f"confirm mode could not start on the GPU ({reason})")
        pending.clear()
        return
    k = pending.pop(0)
    out.results[k] = RunError(f"the run stopped ({reason or f'exit {code}'})")


def _kill(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    p.wait()


def _last_line(d: Path, err_path: Path) -> str:
    """The child's one-line reason: its compile report, else the last line of its stderr that is
    not part of a traceback."""
    compile_err = d / "compile_error.txt"
    if compile_err.exists():
        return compile_err.read_text().strip()
    try:
        text = err_path.read_text(errors="replace")
    except OSError:
        return ""
    keep = [x.strip() for x in text.splitlines() if x.strip() and not x.startswith((" ", "\t", "Traceback"))]
    return keep[-1][:300] if keep else ""


def _read_log(d: Path, k: int, out: UnitRun, wall: float) -> Log:
    meta = json.loads((d / f"meta_{k}.json").read_text())
    with np.load(d / f"log_{k}.npz") as z:
        records = {name: z[name] for name, _ in FIELDS}
        counts = z["counts"]
    return Log(records, meta["asked"], meta["out_of_range"], out.compile_s, meta["run_s"], wall, counts, out.backend)


def child_env() -> dict:
    """The child imports this same copy of cudalint."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


# ---- the child process --------------------------------------------------------------------------
class CompileError(Exception):
    pass


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _child(d: Path) -> int:
    try:
        import cupy as cp
    except ImportError:
        print("cupy is not installed", file=sys.stderr)
        return EXIT_NO_GPU
    try:
        if cp.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no device")
    except Exception as exc:   # CUDARuntimeError without a driver
        print(f"no CUDA GPU is available ({exc})", file=sys.stderr)
        return EXIT_NO_GPU
    spec = json.loads((d / "unit.json").read_text())
    todo = json.loads((d / "todo.json").read_text())
    t0 = time.perf_counter()
    try:
        module, kernels, backend, left_out = compile_unit(cp, d, spec)
    except CompileError as exc:
        (d / "compile_error.txt").write_text(str(exc))
        return EXIT_COMPILE
    _say(f"compiled {backend} {time.perf_counter() - t0:.3f}")
    for k in todo:
        job = spec["jobs"][k]
        why = left_out.get(_base_name(job["name_expression"]))
        if job["name_expression"] not in kernels and why is not None:
            _say(f"failed {k} kernel `{job['name_expression']}` does not compile, left out of the run's copy "
                 f"({why})")
            continue
        if job["name_expression"] not in kernels:
            _say(f"failed {k} the compiler cannot instantiate `{job['name_expression']}` (its template arguments "
                 f"are not values this file gives)")
            continue
        try:
            _run_job(cp, d, k, job, module, kernels[job["name_expression"]], spec["plain"])
        except ArgumentMismatch as exc:     # refused before the launch: the context is whole
            _say(f"failed {k} {exc}")
            continue
        except Exception as exc:     # a fault ends the CUDA context: the next job needs a fresh child
            _say(f"failed {k} {_first_line(exc)}")
            return EXIT_JOB
        _say(f"ran {k}")
    return 0


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def compile_unit(cp, d: Path, spec: dict):
    """NVRTC first; nvcc with the real headers where NVRTC cannot. (module, {expr: kernel}, backend,
    {kernel name: why it was left out}): a definition the compiler rejects is left out and the
    unit compiled again (a kernel is compiled with what it needs, not the whole file), up to
    MAX_LEFT_OUT rounds; the kernels left out (or that need what was) are named with the error."""
    names = list(spec["names"])
    options = tuple(spec["options"])
    errors = []
    left_out: dict[str, str] = {}
    nvrtc_options = ("--std=c++17",) + options + _cuda_includes(cp)
    gone: set = set()
    if "nvrtc" in spec["variants"]:
        code = (d / "nvrtc.cu").read_text(encoding="utf-8")
        for _ in range(len(names) + MAX_LEFT_OUT + 1):
            try:
                mod = cp.RawModule(code=code, options=nvrtc_options, name_expressions=names)
                return mod, {n: mod.get_function(n) for n in names}, "nvrtc", left_out
            except Exception as exc:   # NVRTC's log: keep the error lines
                log = str(exc)
                bad = re.search(r'Input name expression was: "\s*(.*?)\s*"', log)
                name = _same_name(bad.group(1), names) if bad else None
                if name is not None:
                    names.remove(name)      # one kernel NVRTC cannot name: the others still run
                    continue
                code, names = _leave_out(code, log, spec, names, left_out, gone)
                if code is None:
                    errors.append(_errors(log))
                    break
                if not names:
                    errors.append("no kernel compiles: " + _errors(log))
                    break
        else:
            errors.append("no kernel could be named")
    if "nvcc" in spec["variants"]:
        names = list(spec["names"])
        left_out.clear()
        try:
            mod, kernels, backend = _nvcc(cp, d, spec, names, options, left_out)
            return mod, kernels, backend, left_out
        except CompileError as exc:
            errors.append(str(exc))
    raise CompileError(errors[-1] if errors else "nothing to compile")


MAX_LEFT_OUT = 8


def _cuda_includes(cp) -> tuple[str, ...]:
    """The CUDA toolkit's CCCL headers (`cub/`, `thrust/`, `cuda/`), which NVRTC finds only by -I."""
    try:
        root = cp.cuda.get_cuda_path()
    except Exception:
        return ()
    d = os.path.join(root, "include", "cccl") if root else ""
    return (f"-I{d}",) if d and os.path.isdir(d) else ()
_ERROR_AT = re.compile(r"^(.+?)\((\d+)\): (?:catastrophic )?error\b:?\s*(.*)$|^(.+?):(\d+):\d+: error: (.*)$", re.MULTILINE)
_LINE_DIRECTIVE = re.compile(r'^#line (\d+) "((?:[^"\\]|\\.)*)"\s*$')


def _leave_out(code: str, log: str, spec: dict, names: list[str], left_out: dict,
               gone: set | None = None) -> tuple[str | None, list[str]]:
    """The unit without the file-scope definitions the compiler's errors stand in (spec["definitions"],
    found through the text's `#line` directives), and the name expressions whose kernel is no longer
    there; None where no error stands in one (nothing to leave out: the unit does not compile)."""
    where: dict[tuple[str, int], str] = {}
    for m in _ERROR_AT.finditer(log):
        path, line, msg = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5), m.group(6))
        key = (os.path.normpath(path.strip()), int(line))
        if key not in where or "__cl_" in where[key]:     # the log's calls fail only because of another error
            where[key] = msg.strip()
    if not where:
        return None, names
    hit = []
    for path, first, last, fname in spec.get("definitions", []):
        key = os.path.normpath(path)
        msgs = [where[(key, n)] for n in range(first, last + 1) if (key, n) in where]
        msg = next((m for m in msgs if "__cl_" not in m), msgs[0] if msgs else None)
        if msg is not None:
            hit.append((key, first, last, fname, msg))
    if any("__cl_" not in h[4] for h in hit):     # the others fail through these: seen again in the next round
        hit = [h for h in hit if "__cl_" not in h[4]]
    if not hit:
        return None, names
    lines = code.split("\n")
    path, number = "", 0
    at: dict[tuple[str, int], int] = {}
    for i, text in enumerate(lines):
        m = _LINE_DIRECTIVE.match(text)
        if m is not None:
            number, path = int(m.group(1)), os.path.normpath(m.group(2).replace('\\"', '"').replace("\\\\", "\\"))
            continue
        at.setdefault((path, number), i)
        number += 1
    changed = False
    for key, first, last, fname, msg in hit:
        for n in range(first, last + 1):
            i = at.get((key, n))
            if i is not None and lines[i]:
                lines[i] = ""
                changed = True
        if fname:
            left_out.setdefault(fname, f"{os.path.basename(key)}:{first}: {msg}"[:300])
    if not changed:
        return None, names
    gone = set() if gone is None else gone
    gone.update((key, first) for key, first, _, _, _ in hit)
    kept = {f for p, first, _, f in spec.get("definitions", []) if f and (os.path.normpath(p), first) not in gone}
    names = [n for n in names if _base_name(n) in kept or _base_name(n) not in left_out]
    return "\n".join(lines), names


def _base_name(expr: str) -> str:
    return expr.split("<", 1)[0].split("::")[-1].strip()


def _same_name(shown: str, names: list[str]) -> str | None:
    """The name expression NVRTC quotes (`" k < T >"`) among ours (`k<T>`)."""
    want = re.sub(r"\s+", "", shown)
    return next((n for n in names if re.sub(r"\s+", "", n) == want), None)


def _errors(log: str) -> str:
    lines = [x.strip() for x in log.splitlines()]
    errs = [x for x in lines if re.search(r"\berror\b", x) and not x.startswith(("nvcc", "`nvcc`"))]
    return " | ".join(errs[:2]) if errs else (lines[-1] if lines else "unknown error")


def _nvcc(cp, d: Path, spec: dict, names: list[str], options: tuple, left_out: dict):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        try:
            nvcc = cp.cuda.get_nvcc_path()
        except Exception:
            nvcc = None
    if not nvcc:
        raise CompileError("nvcc is not on PATH")
    arch = f"sm_{cp.cuda.Device().compute_capability}"
    code = (d / "nvcc.cu").read_text(encoding="utf-8")
    key = hashlib.sha256(json.dumps([code, names, options, arch, "nvcc-2"]).encode()).hexdigest()[:32]
    cache = Path(spec["cache"])
    cubin, table = cache / f"{key}.cubin", cache / f"{key}.json"
    if not (cubin.exists() and table.exists()):
        cubin.parent.mkdir(parents=True, exist_ok=True)
        src = d / "unit_nvcc.cu"
        out = d / "unit.cubin"
        gone: set = set()
        for _ in range(8 + MAX_LEFT_OUT):   # a header this machine lacks, a definition that does not compile: left out
            src.write_text(code + "\nvoid __cl_instantiate() {\n" + "".join(f"  (void)&{n};\n" for n in names) + "}\n",
                           encoding="utf-8")
            p = subprocess.run([nvcc, "-cubin", f"-arch={arch}", "-std=c++17", "--expt-relaxed-constexpr", "-w",
                                *[o.replace("--maxrregcount=", "-maxrregcount=") for o in options],
                                "-o", str(out), str(src)], capture_output=True, text=True)
            if p.returncode == 0:
                break
            log = p.stdout + p.stderr
            missing = re.search(r'cannot open source file "([^"]+)"|fatal error: ([^:]+): No such file', log)
            if missing is not None:
                name = missing.group(1) or missing.group(2)
                code = re.sub(r'^\s*#\s*include\s*[<"]' + re.escape(name) + r'[>"].*$', "", code, flags=re.MULTILINE)
                continue
            smaller, names = _leave_out(code, log, spec, names, left_out, gone)
            if smaller is None:
                raise CompileError(_errors(log))
            if not names:
                raise CompileError("no kernel compiles: " + _errors(log))
            code = smaller
        else:
            raise CompileError(_errors(p.stdout + p.stderr))
        entries = cubin_entries(out.read_bytes())
        mangled = {n: match_entry(n, entries) for n in names}
        missing_names = [n for n, m in mangled.items() if m is None]
        if missing_names:
            raise CompileError(f"kernel `{missing_names[0]}` not found in the compiled module")
        tmp = cubin.with_suffix(f".tmp{os.getpid()}")
        shutil.copyfile(out, tmp)
        os.replace(tmp, cubin)
        table.write_text(json.dumps({"mangled": mangled, "left_out": left_out}))
    saved = json.loads(table.read_text())
    mangled = saved["mangled"]
    left_out.update(saved["left_out"])
    mod = cp.RawModule(path=str(cubin))
    return mod, {n: mod.get_function(mangled[n]) for n in mangled}, "nvcc"


def cubin_entries(data: bytes) -> list[str]:
    """The kernel entry points of a cubin (ELF64): functions with an `.nv.info.NAME` section."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]

    def name_at(table_off: int, off: int) -> str:
        end = data.index(b"\x00", table_off + off)
        return data[table_off + off:end].decode("utf-8", errors="replace")
    strtab_off = sections[shstrndx][4]
    names = [name_at(strtab_off, s[0]) for s in sections]
    return [n[len(".nv.info."):] for n in names if n.startswith(".nv.info.")]


_BUILTIN_TYPES = {"void": "v", "bool": "b", "char": "c", "signed char": "a", "unsigned char": "h", "short": "s",
                  "unsigned short": "t", "int": "i", "unsigned": "j", "unsigned int": "j", "long": "l",
                  "unsigned long": "m", "long long": "x", "unsigned long long": "y", "float": "f", "double": "d",
                  "size_t": "m", "int64_t": "l", "uint64_t": "m", "int32_t": "i", "uint32_t": "j", "uint": "j"}


def _itanium_name(symbol: str) -> tuple[str, str]:
    """(function name, raw template arguments) of a mangled name: `_Z5sgemmILi64EEvPf` -> (sgemm, Li64E)."""
    if not symbol.startswith("_Z"):
        return symbol, ""          # extern "C"
    s, i = symbol, 2
    nested = i < len(s) and s[i] == "N"
    i += nested
    name = ""
    while i < len(s):
        if s[i] == "L" and nested:       # an internal-linkage prefix
            i += 1
            continue
        m = re.match(r"\d+", s[i:])
        if m is None:
            break
        n = int(m.group(0))
        i += len(m.group(0))
        name = s[i:i + n]
        i += n
        if not nested:
            break
    if i >= len(s) or s[i] != "I":
        return name, ""
    depth, j = 1, i + 1
    while j < len(s) and depth:
        c = s[j]
        if c == "L":                      # a literal: L<type><value>E
            k = s.find("E", j)
            j = len(s) if k < 0 else k + 1
            continue
        if c.isdigit():                   # a source name: <length><identifier>
            m = re.match(r"\d+", s[j:])
            j += len(m.group(0)) + int(m.group(0))
            continue
        if c in "IN":
            depth += 1
        elif c == "E":
            depth -= 1
        j += 1
    return name, s[i + 1:j - 1]


def match_entry(expr: str, entries: list[str]) -> str | None:
    """The entry point a name expression (`ns::sgemm<64, 64, 8>`) compiled to: by name, then, among
    several instantiations, by the mangled template arguments."""
    base = expr.split("<", 1)[0].split("::")[-1].strip()
    found = [(e, _itanium_name(e)) for e in entries]
    same = [(e, targs) for e, (name, targs) in found if name == base]
    if len(same) == 1:
        return same[0][0]
    if not same:
        return None
    args = [a.strip() for a in _template_args(expr)]
    pattern = "".join(_mangled_arg(a) for a in args)
    hits = [e for e, targs in same if re.fullmatch(pattern, targs)]
    return hits[0] if len(hits) == 1 else None


def _template_args(expr: str) -> list[str]:
    if "<" not in expr:
        return []
    inner = expr[expr.index("<") + 1:expr.rindex(">")]
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch in "<(" 
        depth -= ch in ">)"
        cur += ch
    return out + [cur]


def _mangled_arg(a: str) -> str:
    a = re.sub(r"\s+", " ", a.replace("const ", "")).strip()
    if re.fullmatch(r"-?\d+[uUlL]*", a):
        v = int(re.sub(r"[uUlL]", "", a))
        return f"L[a-z]{'n' if v < 0 else ''}{abs(v)}E"
    if a in ("true", "false"):
        return f"Lb{1 if a == 'true' else 0}E"
    if a in _BUILTIN_TYPES:
        return _BUILTIN_TYPES[a]
    if re.fullmatch(r"[A-Za-z_]\w*", a):
        return f"(?:{len(a)}{a}|.+?)"
    return ".*?"


def _run_job(cp, d: Path, k: int, job: dict, module, kernel, plain: bool) -> None:
    held = [m for a in job["args"] for m in a.get("members", ())]       # the buffers of structs' pointer members
    need = sum(max(int(a["elements"]), 1) * np.dtype(a["dtype"]).itemsize for a in job["args"] + held
               if a["kind"] == "buffer") + (0 if plain else int(job["capacity"]) * 40)
    free = cp.cuda.runtime.memGetInfo()[0]
    if need > 0.8 * free:
        raise MemoryError(f"its buffers and log need {need / 2**30:.1f} GiB and the GPU has {free / 2**30:.1f} GiB "
                          f"free; give smaller sizes with --param")
    cp.random.seed(0)
    args, buffers = [], []
    for a in job["args"]:
        if a["kind"] == "scalar":
            args.append(np.dtype(a["dtype"]).type(a["value"]))
            continue
        if a["kind"] == "struct":      # filled below, once its members' buffers are there
            args.append(None)
            continue
        buf = _random(cp, max(int(a["elements"]), 1), np.dtype(a["dtype"]))
        buffers.append(buf)
        args.append(buf)
    # the pointer members' buffers after the parameters' (the order instrument.bind_checks numbers them in)
    addresses = {}
    for m in held:
        buf = _random(cp, max(int(m["elements"]), 1), np.dtype(m["dtype"]))
        buffers.append(buf)
        addresses[m["name"]] = buf.data.ptr
    for i, a in enumerate(job["args"]):
        if a["kind"] == "struct":     # a struct by value: its bytes, as CuPy passes a one-element numpy array
            args[i] = struct_value(a, addresses)
    sizes = param_sizes(kernel)
    for i, a in enumerate(job["args"]):
        if a["kind"] == "struct" and sizes is not None and i < len(sizes) and sizes[i] != int(a["elements"]):
            raise ArgumentMismatch(f"the compiler lays out parameter `{a['name']}` of `{job['kernel']}` in {sizes[i]} "
                                   f"bytes, cudalint's type table in {a['elements']}: not run")
    smem = int(job["smem"])
    if smem > 48 * 1024:
        kernel.max_dynamic_shared_size_bytes = smem
    if plain:   # the original kernel on its whole grid, for a profiler to count
        kernel(tuple(job["grid"]), tuple(job["block"]), tuple(args), shared_mem=smem)
        cp.cuda.Device().synchronize()
        (d / f"meta_{k}.json").write_text(json.dumps({"asked": 0, "out_of_range": 0, "run_s": 0.0}))
        np.savez(d / f"log_{k}.npz", counts=np.zeros((0, 0, 0), np.uint32),
                 **{name: np.zeros(0, t) for name, t in FIELDS})
        return
    nthreads = int(np.prod(job["block"]))
    slots = len(job["blocks"])
    cap = int(job["capacity"])
    log = {name: cp.zeros(cap, dtype=t) for name, t in FIELDS}
    count = cp.zeros(2, dtype=cp.uint32)
    counters = cp.zeros(slots * nthreads * (job["nsites"] + 1), dtype=cp.uint32)
    requests = cp.zeros(slots * (-(-nthreads // 32)) * max(job["nsites"], 1), dtype=cp.uint32)
    ctl = np.zeros(CL_WORDS, dtype=np.uint64)
    ctl[CL_COUNT] = count.data.ptr
    for i, (name, _) in enumerate(FIELDS):
        ctl[CL_SITE + i] = log[name].data.ptr
    ctl[CL_COUNTERS] = counters.data.ptr
    ctl[CL_REQUESTS] = requests.data.ptr
    ctl[CL_CAPACITY], ctl[CL_NSITES], ctl[CL_NBUF], ctl[CL_NTHREADS] = cap, job["nsites"], min(len(buffers), CL_MAX_BUF), \
        nthreads
    ctl[CL_GRID:CL_GRID + 3] = job["grid"]
    for i, b in enumerate(buffers[:CL_MAX_BUF]):
        ctl[CL_BASE + i] = b.data.ptr
        ctl[CL_BYTES + i] = b.nbytes
    for i, blk in enumerate(job["blocks"][:CL_MAX_BLOCKS]):
        ctl[CL_BLOCKS + 3 * i:CL_BLOCKS + 3 * i + 3] = blk
    module.get_global("__cl_ctl").copy_from_host(ctl.ctypes.data, ctl.nbytes)
    t1 = time.perf_counter()
    kernel((min(slots, CL_MAX_BLOCKS), 1, 1), tuple(job["block"]), tuple(args), shared_mem=smem)
    cp.cuda.Device().synchronize()
    run_s = time.perf_counter() - t1
    asked, oor = (int(x) for x in count.get())
    n = min(asked, cap)
    counts = counters.get().reshape(slots, nthreads, job["nsites"] + 1)[:, :, :-1]
    np.savez(d / f"log_{k}.npz", counts=counts, **{name: log[name][:n].get() for name, _ in FIELDS})
    (d / f"meta_{k}.json").write_text(json.dumps({"asked": asked, "out_of_range": oor, "run_s": run_s}))
    del log, counters, requests, buffers, args
    cp.get_default_memory_pool().free_all_blocks()


def param_sizes(kernel) -> list[int] | None:
    """The bytes of each parameter of a compiled kernel (the driver's cuFuncGetParamInfo, CUDA 12.4);
    None where the driver or CuPy does not tell."""
    import ctypes
    try:
        handle = kernel.kernel.ptr         # cupy.RawKernel -> cupy.cuda.function.Function
        get = ctypes.CDLL("libcuda.so.1").cuFuncGetParamInfo
    except (AttributeError, OSError):
        return None
    get.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)]
    out: list[int] = []
    for i in range(4096):
        offset, size = ctypes.c_size_t(), ctypes.c_size_t()
        if get(ctypes.c_void_p(handle), i, ctypes.byref(offset), ctypes.byref(size)) != 0:
            break               # past the last parameter (or a driver that cannot say: nothing to compare)
        out.append(int(size.value))
    return out or None


def struct_bytes(a: dict, addresses: dict[str, int] | None = None) -> bytes:
    """The bytes of a struct argument (Arg.to_json()): each scalar member's value at its offset, each
    pointer member's buffer address (`addresses` by the member's name, `p.in`), the rest zero."""
    raw = bytearray(int(a["elements"]))
    for name, dtype, offset, count, value in a["fields"]:
        dt = np.dtype(dtype)
        if dt.kind != "V":             # a type with no numpy dtype stays zero
            chunk = (np.asarray(value, dtype=dt.newbyteorder("<")) if isinstance(value, list)
                     else np.full(int(count), value, dtype=dt.newbyteorder("<"))).tobytes()
            raw[offset:offset + len(chunk)] = chunk
    for m in a.get("members", ()):
        raw[m["offset"]:m["offset"] + 8] = struct.pack("<Q", int((addresses or {}).get(m["name"], 0)))
    return bytes(raw)


def struct_value(a: dict, addresses: dict[str, int] | None = None) -> np.ndarray:
    """A struct argument as CuPy passes one by value: a one-element numpy array of its bytes."""
    return np.frombuffer(struct_bytes(a, addresses), dtype=np.dtype((np.void, max(int(a["elements"]), 1)))).copy()


def _random(cp, n: int, dt: np.dtype):
    """Random data made on the device: floats in [0, 1), integers in [0, 64) (small enough to be
    valid indexes of most arrays when a kernel reads them as indexes)."""
    if dt.kind == "f":
        return cp.random.random(n, dtype=np.float32).astype(dt, copy=False)
    return cp.random.randint(0, 2 if dt.kind == "b" else 64, n, dtype=np.int32).astype(dt, copy=False)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)     # the parent gone: end quietly, no BrokenPipeError
    try:
        return _child(Path(argv[0]))
    except BaseException as exc:    # never a traceback: one line for the parent to read
        print(_first_line(exc), file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
