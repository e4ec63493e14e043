"""Confirm mode: instrument the kernels, run them on the GPU with CuPy, and turn each static
finding into a measured fact (or withdraw it).

Nothing here is imported by a plain lint run; CuPy itself is imported only by `available()` and by
the child process that launches the kernel (runner.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

INSTALL_HINT = "pip install 'cudalint[gpu]'"
DEFAULT_TIMEOUT = 30.0


class ConfirmUnavailable(Exception):
    """CuPy or a GPU is missing: one line, exit 2."""


@dataclass
class KernelRun:
    """What confirm mode did with one kernel, for the summary lines."""
    path: str
    kernel: str
    ran: bool
    reason: str = ""
    blocks: str = ""
    records: int = 0
    truncated: bool = False
    out_of_range: int = 0
    seconds: float = 0.0          # the child process: CuPy start, compile, allocation, run, read-back
    compile_s: float = 0.0
    run_s: float = 0.0
    totals: dict = field(default_factory=dict)
    hardware: dict = field(default_factory=dict)
    buffers: list[str] = field(default_factory=list)
    sites: list = field(default_factory=list)       # (Site, SiteMeasure) of each access that ran
    backend: str = ""             # nvrtc | nvcc
    invented: list[str] = field(default_factory=list)   # values cudalint chose for the run
    values: list[str] = field(default_factory=list)     # the program's values it ran with, and whence
    conditions: list[str] = field(default_factory=list)  # each condition's two runs, in a few words
    unit_s: float = 0.0           # the whole unit: compile (once) and every kernel's run
    unit_kernels: int = 0

    def line(self) -> str:
        head = f"cudalint confirm: {self.path}: {self.kernel}:"
        if not self.ran:
            return f"{head} not run: {self.reason}"
        shared = f", shared by the file's {self.unit_kernels} kernels" if self.unit_kernels > 1 else ""
        parts = [f"ran {self.blocks}", f"{self.records} accesses logged" +
                 (" (log full: later records counted, not kept)" if self.truncated else ""),
                 f"{self.seconds:.2f} s (compile {self.compile_s:.2f} s with {self.backend or 'nvrtc'}{shared}; "
                 f"kernel {self.run_s:.3f} s)"]
        if self.totals:
            parts.append(", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in self.totals.items()))
        if self.hardware:
            parts.append("ncu: " + ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in self.hardware.items()))
        elif self.reason:
            parts.append(self.reason)
        if self.values:
            parts.append("the program's values: " + ", ".join(self.values))
        if self.buffers:
            parts.append("buffers " + ", ".join(self.buffers))
        parts.extend(self.conditions)
        if self.invented:
            names = [v.split("=")[0] for v in self.invented if not v.startswith(("blockDim", "gridDim"))
                     and "." not in v.split("=")[0]]     # a struct's members: no option gives them
            hint = " ".join(f"--param {n}=VALUE" for n in names[:3]) or f"--launch {self.kernel}:grid=X,Y,Z:block=X,Y,Z"
            parts.append(f"values cudalint chose: {', '.join(self.invented)} (give {hint}); what is measured "
                         f"only under them is info, not a finding")
        return f"{head} " + "; ".join(parts)


def available() -> None:
    """Raise ConfirmUnavailable naming what is missing (CuPy, or a usable NVIDIA GPU)."""
    try:
        import cupy
    except ImportError:
        raise ConfirmUnavailable(f"--confirm needs CuPy, which is not installed: {INSTALL_HINT}") from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:   # no driver / no device: CuPy raises its CUDA runtime error
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfirmUnavailable(f"--confirm needs an NVIDIA GPU with a working driver, and none is available "
                                 f"({first})") from None
    if count < 1:
        raise ConfirmUnavailable("--confirm needs an NVIDIA GPU, and none is available")


def confirm_result(result, cfg, mode: str = "log", timeout: float = DEFAULT_TIMEOUT,
                   smem: dict[str, int] | None = None) -> list[KernelRun]:
    """Run every linted kernel that has a known launch, confirm or refute its findings in place
    (`confirmed`, `measured`), add the measured findings the static pass missed (`source: dynamic`),
    and return what was run (`smem`: dynamic shared memory bytes by kernel, where not computed)."""
    available()
    from .session import confirm_tables
    return confirm_tables(result, cfg, mode, timeout, smem)
