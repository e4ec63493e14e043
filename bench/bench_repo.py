"""A repository linted whole against its files linted one by one (not a test).

    python bench/bench_repo.py [--files N] [--keep DIR] [--singles K]

Generates a repository shaped like a quantized-inference library (the kind that motivated this
benchmark had 273 files): a few large headers of template kernels (tiled matrix products with
shared-memory tiles, quantized dot products, reductions, flash-attention-like loops) included by
many short template-instance files that each instantiate one kernel and launch it, a common header
of macros, constants and `__device__` helpers included by everything, and ordinary .cu files with
kernels of their own. It is a git work tree (a `.git` folder), so a file linted alone is read with
the files that include it or launch its kernels, as in a real checkout.

Printed: the files, kernels and findings; the time of `cudalint DIR` (whole process, -j 1); the
time of `cudalint FILE` for every file (or for K files spread over the kinds with --singles K,
then scaled to all), and the sum; the slowest single files. The measure: the directory run costs
no more than the sum of its files run one by one.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMON = """#pragma once
#define WARP_SIZE 32
#define QK 32
#define CUDA_CHECK(x) do { (void)(x); } while (0)
#ifndef TILE
#define TILE 16
#endif
static const int kBlockReduce = 256;
enum { QTYPE_Q4 = 0, QTYPE_Q8 = 1, QTYPE_F16 = 2 };

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__device__ __forceinline__ int dequant_index(int block, int lane) {
  return block * QK + lane;
}
"""

HEADER_TOP = """#pragma once
#include "common.cuh"
"""

# a large header's preprocessor traffic: its own configuration macros and feature tests
HEADER_MACROS = """#define {P}_CFG_{i} ({i} * QK + TILE)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {arch}
#define {P}_USE_{i} 1
#else
#define {P}_USE_{i} 0
#endif
"""

HEADER = """
template <int BM, int BN, int BK>
__global__ void {p}_gemm(const float* A, const float* B, float* C, int M, int N, int K) {{
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BM + ty, col = blockIdx.x * BN + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += BK) {{
    if (row < M && t + tx < K) As[ty][tx] = A[row * K + t + tx];
    if (col < N && t + ty < K) Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < BK; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }}
  if (row < M && col < N) C[row * N + col] = acc;
}}

template <int QT, int NWARPS>
__global__ void {p}_mul_mat_vec(const char* vx, const float* y, float* dst, int ncols, int nrows) {{
  const int row = blockIdx.x * NWARPS + threadIdx.y;
  if (row >= nrows) return;
  float tmp = 0.0f;
  for (int i = threadIdx.x; i < ncols / QK; i += WARP_SIZE) {{
    const int ib = row * (ncols / QK) + i;
    tmp += (float)vx[ib * (QT == QTYPE_Q4 ? 18 : 34)] * y[i * QK + threadIdx.x % QK];
  }}
  tmp = warp_reduce_sum(tmp);
  if (threadIdx.x == 0) dst[row] = tmp;
}}

template <int BLOCK>
__global__ void {p}_reduce_rows(const float* x, float* out, int ncols) {{
  __shared__ float s[BLOCK];
  const int row = blockIdx.x;
  float sum = 0.0f;
  for (int col = threadIdx.x; col < ncols; col += BLOCK) sum += x[row * ncols + col];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {{
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }}
  if (threadIdx.x == 0) out[row] = s[0];
}}

template <int D, int NCOLS>
__global__ void {p}_flash_attn(const float* Q, const float* Kc, const float* V, float* O, int kv_len, float scale) {{
  __shared__ float kq[NCOLS][D];
  const int head = blockIdx.y;
  const int tid = threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < kv_len; k0 += NCOLS) {{
    for (int j = 0; j < NCOLS; ++j)
      kq[j][tid] = Kc[(head * kv_len + k0 + j) * D + tid] * Q[head * D + tid] * scale;
    __syncthreads();
    for (int j = 0; j < NCOLS; ++j) acc += kq[j][tid] * V[(head * kv_len + k0 + j) * D + tid];
    __syncthreads();
  }}
  O[head * D + tid] = acc;
}}
"""

INSTANCE = """// generated: one instance of a template kernel and its launcher
#include "../{h}.cuh"

void {h}_launch_{i}(const float* a, const float* b, float* c, const char* q, int M, int N, int K) {{
{body}
}}
"""

LAUNCHES = [
    "  dim3 block({bn}, {bm});\n  dim3 grid((N + {bn} - 1) / {bn}, (M + {bm} - 1) / {bm});\n"
    "  {p}_gemm<{bm}, {bn}, {bk}><<<grid, block>>>(a, b, c, M, N, K);",
    "  dim3 block(WARP_SIZE, {nw});\n  {p}_mul_mat_vec<{qt}, {nw}><<<(M + {nw} - 1) / {nw}, block>>>(q, b, c, K, M);",
    "  {p}_reduce_rows<{blk}><<<M, {blk}>>>(a, c, N);",
    "  {p}_flash_attn<{d}, {nc}><<<dim3(1, M), {d}>>>(a, b, c, c, N, 0.125f);",
]

PLAIN = """#include "../include/common.cuh"

__global__ void {n}_scale(float* x, float s, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * s;
}}

__global__ void {n}_transpose(const float* in, float* out, int rows, int cols) {{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}}

__global__ void {n}_rowsum(const float* x, float* out, int n) {{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < n; ++j) s += x[row * n + j];
  out[row] = s;
}}

void {n}_run(float* x, float* y, int n) {{
  {n}_scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  {n}_transpose<<<grid, block>>>(x, y, n, n);
  {n}_rowsum<<<n / 128, 128>>>(x, y, n);
}}
"""

HEADERS = ["mmq", "mmvq", "reduce", "fattn", "quantize", "convert"]
COPIES = 6          # each header holds COPIES x 4 template kernels (the real ones run to thousands of lines)
MACROS = 40         # and COPIES x MACROS configuration macros


def generate(out: Path, files: int) -> list[Path]:
    (out / ".git").mkdir(parents=True)
    inc = out / "include"
    inst = out / "template-instances"
    src = out / "src"
    for d in (inc, inst, src):
        d.mkdir()
    (inc / "common.cuh").write_text(COMMON)
    for h in HEADERS:
        parts = [HEADER_TOP]
        for r in range(COPIES):
            parts += [HEADER_MACROS.format(P=h.upper(), i=r * MACROS + k, arch=(500, 700, 800, 900)[k % 4])
                      for k in range(MACROS)]
            parts.append(HEADER.format(p=f"{h}{'' if r == 0 else r}"))
        (inc / f"{h}.cuh").write_text("".join(parts))
    n_plain = max(1, files // 5)
    n_inst = max(1, files - n_plain - len(HEADERS) - 1)
    params = [dict(bm=bm, bn=bn, bk=bk, qt=qt, nw=nw, blk=blk, d=d, nc=nc)
              for bm, bn, bk in ((16, 16, 16), (32, 8, 8), (8, 32, 8))
              for qt, nw in ((0, 4), (1, 8))
              for blk in (128, 256)
              for d, nc in ((64, 4), (128, 8))]
    for i in range(n_inst):
        h = HEADERS[i % len(HEADERS)]
        p = params[i % len(params)]
        copy = (i // len(HEADERS)) % COPIES
        body = LAUNCHES[i % len(LAUNCHES)].format(p=f"{h}{'' if copy == 0 else copy}", **p)
        text = INSTANCE.format(h=h, i=i, body=body).replace('"../', '"../include/')
        (inst / f"{h}-instance-{i:03d}.cu").write_text(text)
    for i in range(n_plain):
        (src / f"op{i:03d}.cu").write_text(PLAIN.format(n=f"op{i:03d}"))
    return sorted(p for p in out.rglob("*") if p.suffix in (".cu", ".cuh"))


def run(args: list[str]) -> tuple[float, dict]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([sys.executable, "-m", "cudalint", "--format", "json", "--exit-zero", "-j", "1", *args],
                       cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"cudalint {' '.join(args)} failed: {p.stderr[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=273)
    ap.add_argument("--keep", help="generate the repository here and keep it")
    ap.add_argument("--singles", type=int, default=0, help="time this many single files (0: all of them)")
    args = ap.parse_args()
    out = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cudalint-repo-"))
    if out.exists() and args.keep:
        shutil.rmtree(out)
    files = generate(out, args.files)
    try:
        run([str(files[0])])        # warm the caches (files, grammar) once
        whole, report = run([str(out)])
        kernels = sum(len(f["kernels"]) for f in report["files"])
        print(f"{out}: {len(files)} files ({sum(1 for f in files if 'instance' in f.name)} template instances, "
              f"{len(HEADERS) + 1} headers), {kernels} kernels, {len(report['diagnostics'])} findings")
        print(f"  directory run (-j 1)          {whole:7.2f} s CPU")
        picked = files
        if args.singles and args.singles < len(files):
            step = len(files) / args.singles
            picked = [files[int(i * step)] for i in range(args.singles)]
        times = []
        for f in picked:
            t0 = time.perf_counter()
            cpu, _ = run([str(f)])
            times.append((cpu, time.perf_counter() - t0, f))
        total = sum(t for t, _, _ in times) * len(files) / len(picked)
        scaled = "" if picked is files else f" (scaled from {len(picked)})"
        print(f"  each file alone, summed        {total:7.2f} s CPU{scaled}")
        print(f"  directory / sum                {whole / total:7.2f}")
        for cpu, wall, f in sorted(times, reverse=True)[:5]:
            print(f"    {f.relative_to(out)}: {cpu:.2f} s CPU")
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
