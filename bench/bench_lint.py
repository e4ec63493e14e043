"""Throughput and cold-start benchmark (not a test): `python bench/bench_lint.py [N]`.

Generates N kernel files shaped like the samples (naive and tiled matmul, vector add with a
ceil-div grid, transposes, reductions), lints them in one process, and prints files/s and ms per
file; then times `python -m cudalint one.cu` cold, as a pre-commit hook runs it.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TEMPLATES = [
    """__global__ void mm{i}(const float* a, const float* b, float* c, int M, int N, int K) {{
  int row = blockIdx.{r} * blockDim.{r} + threadIdx.{r};
  int col = blockIdx.{q} * blockDim.{q} + threadIdx.{q};
  if (row < M && col < N) {{
    float s = 0.0f;
    for (int k = 0; k < K; ++k) s += a[row * K + k] * b[k * N + col];
    c[row * N + col] = s;
  }}
}}
void run{i}(const float* a, const float* b, float* c, int M, int N, int K) {{
  dim3 block({bx}, {by});
  dim3 grid((N + {bx} - 1) / {bx}, (M + {by} - 1) / {by});
  mm{i}<<<grid, block>>>(a, b, c, M, N, K);
}}
""",
    """#define TILE {t}
__global__ void tiled{i}(const float* A, const float* B, float* C, int M, int N, int K) {{
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + {pad}];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < K / TILE; ++t) {{
    As[ty][tx] = A[row * K + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }}
  C[row * N + col] = sum;
}}
void run{i}(const float* A, const float* B, float* C, int M, int N, int K) {{
  dim3 block(TILE, TILE);
  dim3 grid(N / TILE, M / TILE);
  tiled{i}<<<grid, block>>>(A, B, C, M, N, K);
}}
""",
    """__global__ void add{i}(const float* a, const float* b, float* c, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  {guard}c[i] = a[i] + b[i];
}}
void run{i}(const float* a, const float* b, float* c, int n) {{ add{i}<<<(n + {bs} - 1) / {bs}, {bs}>>>(a, b, c, n); }}
""",
    """__global__ void reduce{i}(const float* in, float* out, int n) {{
  __shared__ float s[{bs}];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {{
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }}
  if (tid == 0) out[blockIdx.x] = s[0];
}}
void run{i}(const float* in, float* out, int n) {{ reduce{i}<<<(n + {bs2} - 1) / {bs2}, {bs}>>>(in, out, n); }}
""",
]


def generate(n: int, out: Path) -> list[Path]:
    files = []
    for i in range(n):
        kind = i % len(TEMPLATES)
        bs = (128, 256, 512)[i % 3]
        text = TEMPLATES[kind].format(i=i, r="xy"[i % 2], q="yx"[i % 2], bx=(32, 16)[i % 2], by=(8, 16)[i % 2],
                                      t=(16, 32)[i % 2], pad=i % 2, guard=("if (i < n) ", "")[i % 2], bs=bs,
                                      bs2=bs * 2)
        p = out / f"k{i:04d}.cu"
        p.write_text(text)
        files.append(p)
    return files


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as d:
        files = generate(n, Path(d))
        t0 = time.perf_counter()
        from cudalint.lint import Config, lint_paths
        import_s = time.perf_counter() - t0
        lint_paths([str(files[0])], Config())          # warm the parsers once
        t0 = time.perf_counter()
        result = lint_paths([str(p) for p in files], Config())
        dt = time.perf_counter() - t0
        print(f"batch: {n} files, {len(result.diagnostics)} diagnostics in {dt:.2f} s: "
              f"{n / dt:.1f} files/s, {1000 * dt / n:.1f} ms/file (imports {import_s:.2f} s)")
        cold = []
        for _ in range(7):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cudalint", str(files[0])], cwd=ROOT, capture_output=True)
            cold.append(time.perf_counter() - t0)
        print(f"cold start `python -m cudalint one.cu`: median {statistics.median(cold):.3f} s "
              f"(min {min(cold):.3f}, max {max(cold):.3f}, 7 runs)")


if __name__ == "__main__":
    main()
