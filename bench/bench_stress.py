"""Inputs whose cost could grow faster than their size (not a test).

    python bench/bench_stress.py [--limit SECONDS]

Generates each shape at growing sizes and times `cudalint FILE` as a whole process (cold start
included), printing the curve; the measure is every shape under 2 s at the size named (marked
`*`), and a curve that grows with the input, not with its square or its exponential:

- nested ifs: N sequential `if (threadIdx.x & m) i = i + k;` before one access (the value of `i`
  is a DAG of N levels: 2^N paths);
- overflowing ifs: the same with `i = i * 3 + k`, whose 32-bit products overflow at every level
  (the overflows found inside each level are carried up the DAG);
- launches: one host function launching K kernels (each launch reads the host code before it);
- shared: S shared stores and loads with no barrier between them (S^2 pairs of accesses);
- block stride: a block-stride loop `for (i = threadIdx.x; i < n; i += blockDim.x)` with
  `--param n=...` up to 10^9 (its trip count);
- big kernel: one kernel with T statements of index arithmetic (a generated kernel).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def nested(n: int) -> str:
    body = "\n".join(f"  if (threadIdx.x & {1 << (k % 10)}) i = i + {k + 1};" for k in range(n))
    return f"__global__ void nested(float* a, int n) {{\n  int i = threadIdx.x * n;\n{body}\n  a[i] = 0.0f;\n}}\n"


def overflowing(n: int) -> str:
    body = "\n".join(f"  if (threadIdx.x & {1 << (k % 10)}) i = i * 3 + {k};" for k in range(n))
    return (f"__global__ void grows(float* a, int n) {{\n  int i = threadIdx.x + 100000000;\n{body}\n"
            f"  a[i] = 0.0f;\n}}\nvoid run(float* a) {{ grows<<<1, 256>>>(a, 1000); }}\n")


def launches(k: int) -> str:
    kernels = "\n".join(f"__global__ void k{j}(float* a, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; "
                        f"if (i < n) a[i] = {j}.0f; }}" for j in range(k))
    calls = "\n".join(f"  dim3 block{j}(256);\n  dim3 grid{j}((n + block{j}.x - 1) / block{j}.x);\n"
                      f"  k{j}<<<grid{j}, block{j}>>>(a, n);" for j in range(k))
    return f"{kernels}\nvoid run(float* a, int n) {{\n{calls}\n}}\n"


def shared(s: int) -> str:
    body = "\n".join(f"  s[threadIdx.x] = v + {j}.0f;\n  v += s[threadIdx.x];" for j in range(s))
    return (f"__global__ void sh(float* out) {{\n  __shared__ float s[256];\n  float v = 0.0f;\n{body}\n"
            f"  out[threadIdx.x] = v;\n}}\nvoid run(float* o) {{ sh<<<1, 256>>>(o); }}\n")


BLOCK_STRIDE = """__global__ void bs(const float* x, float* y, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    y[i] = 2.0f * x[i];
}
void run(const float* x, float* y, int n) { bs<<<1, 256>>>(x, y, n); }
"""


def big(t: int) -> str:
    body = "\n".join(f"  int v{j} = (blockIdx.x * blockDim.x + threadIdx.x) * {j % 7 + 1} + {j};\n"
                     f"  if (v{j} < n) out[v{j}] = in[v{j}] * {j}.0f;" for j in range(t))
    return (f"__global__ void big(const float* in, float* out, int n) {{\n{body}\n}}\n"
            f"void run(const float* in, float* out, int n) {{ big<<<(n + 255) / 256, 256>>>(in, out, n); }}\n")


SHAPES = [
    ("nested ifs N", nested, (4, 8, 12, 16, 24, 32), 16),
    ("overflow ifs N", overflowing, (4, 8, 16, 24, 32), 16),
    ("launches K", launches, (16, 32, 64, 128, 256), 128),
    ("shared S", shared, (8, 16, 32, 64, 128), 64),
    ("big kernel T", big, (25, 50, 100, 200), None),
]


def timed(args: list[str], limit: float) -> float | None:
    t0 = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-m", "cudalint", "--exit-zero", *args], cwd=ROOT, capture_output=True,
                       check=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=60.0, help="give up on one run after this many seconds")
    args = ap.parse_args()
    worst = []
    with tempfile.TemporaryDirectory() as d:
        timed([str(ROOT / "samples" / "vecadd_bad.cu")], args.limit)      # warm the caches once
        for title, make, sizes, bar in SHAPES:
            row = []
            for n in sizes:
                path = Path(d) / f"stress_{make.__name__}_{n}.cu"
                path.write_text(make(n))
                s = timed([str(path)], args.limit)
                row.append(f"{n}{'*' if n == bar else ''}: " + (f"{s:.2f} s" if s is not None else "timeout"))
                if n == bar:
                    worst.append((title, n, s))
            print(f"{title:<14} " + "   ".join(row))
        path = Path(d) / "block_stride.cu"
        path.write_text(BLOCK_STRIDE)
        row = []
        for n in (10**3, 10**6, 10**9):
            s = timed([str(path), "--param", f"n={n}"], args.limit)
            row.append(f"{n:.0e}{'*' if n == 10**9 else ''}: " + (f"{s:.2f} s" if s is not None else "timeout"))
            if n == 10**9:
                worst.append(("block stride n", n, s))
        print(f"{'block stride n':<14} " + "   ".join(row))
    over = [f"{t} {n}" for t, n, s in worst if s is None or s >= 2.0]
    print("every shape under 2 s at the size marked *: " + ("yes" if not over else "NO: " + ", ".join(over)))


if __name__ == "__main__":
    main()
