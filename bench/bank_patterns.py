"""Shared-memory wavefronts of 8- and 16-byte loads and stores: cudalint's bank model against ncu.

Each pattern is one 16-byte (LDS.128 / STS.128) or 8-byte (LDS.64 / STS.64) access whose lane
addresses (in bytes) are a function of the lane, made once as a load and once as a store. On a
machine with a GPU, nvcc and ncu:

    python bench/bank_patterns.py --gpu

compiles two kernels per pattern, profiles the shared-memory wavefronts, bank conflicts and
instruction counts (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}`,
`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}`, `smsp__sass_inst_executed_op_shared_{ld,st}`)
and prints measured against modelled wavefronts and conflicts per instruction. Without `--gpu` it
prints the model next to the figures measured on an H100 (CUDA 13.0), which the unit tests hold
the model to.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

# name: (bytes per lane, the byte address as terms (op, k, bytes): `lane op k` times `bytes`,
# op "/" (lane / k), "%" (lane % k) or "*" (lane itself, k unused); no term: every lane at 0)
PATTERNS = {
    "P1_lane16": (16, [("*", 1, 16)]),
    "P2_quarters_same_banks": (16, [("/", 8, 512)]),
    "P3_quarters_identical_128B": (16, [("%", 8, 16)]),
    "P4_half_uniform": (16, [("/", 16, 32)]),
    "P5_halves_identical_256B": (16, [("%", 16, 16)]),
    "P6_rows_of_4_lanes": (16, [("/", 4, 32)]),
    "P7_all_same": (16, []),
    "P8_quarter_uniform_distinct": (16, [("/", 8, 16)]),
    "P9_lane32": (16, [("*", 1, 32)]),
    "P11_quarter_pairs_128B": (16, [("%", 8, 16), ("/", 16, 128)]),
    "P12_quarters_256B_apart": (16, [("/", 8, 256)]),
    "P13_lane_pairs": (16, [("/", 2, 16)]),
    "W1_rows_80B_apart": (16, [("/", 4, 80), ("%", 4, 16)]),
    "L1_lane8": (8, [("*", 1, 8)]),
    "L2_halves_identical": (8, [("%", 16, 8)]),
    "L3_lane16": (8, [("*", 1, 16)]),
    "L4_half_uniform_same_banks": (8, [("/", 16, 256)]),
    "L5_quads_uniform": (8, [("/", 4, 8)]),
}


def addresses(terms) -> np.ndarray:
    lane = np.arange(32, dtype=np.int64)
    part = {"/": lambda k: lane // k, "%": lambda k: lane % k, "*": lambda k: lane}
    return sum((part[op](k) * nbytes for op, k, nbytes in terms), np.zeros(32, dtype=np.int64))


def c_expression(terms) -> str:
    part = {"/": "(lane / {k})", "%": "(lane % {k})", "*": "lane"}
    return " + ".join(part[op].format(k=k) + f" * {nbytes}" for op, k, nbytes in terms) or "0"


# ncu on an H100 (sm_90): (wavefronts, bank conflicts) per warp-level instruction
MEASURED_H100 = {
    "load": {
        "P1_lane16": (4, 0), "P2_quarters_same_banks": (4, 2), "P3_quarters_identical_128B": (4, 0),
        "P4_half_uniform": (2, 0), "P5_halves_identical_256B": (4, 0), "P6_rows_of_4_lanes": (2, 0),
        "P7_all_same": (2, 0), "P8_quarter_uniform_distinct": (2, 0), "P9_lane32": (8, 4),
        "P11_quarter_pairs_128B": (4, 0), "P12_quarters_256B_apart": (4, 2), "P13_lane_pairs": (2, 0),
        "W1_rows_80B_apart": (8, 4),
        "L1_lane8": (2, 0), "L2_halves_identical": (2, 0), "L3_lane16": (4, 2),
        "L4_half_uniform_same_banks": (2, 1), "L5_quads_uniform": (1, 0),
    },
    "store": {
        "P1_lane16": (4, 0), "P2_quarters_same_banks": (4, 0), "P3_quarters_identical_128B": (4, 0),
        "P4_half_uniform": (4, 0), "P5_halves_identical_256B": (4, 0), "P6_rows_of_4_lanes": (4, 0),
        "P7_all_same": (4, 0), "P8_quarter_uniform_distinct": (4, 0), "P9_lane32": (8, 4),
        "P11_quarter_pairs_128B": (4, 0), "P12_quarters_256B_apart": (4, 0), "P13_lane_pairs": (4, 0),
        "W1_rows_80B_apart": (8, 4),
        "L1_lane8": (2, 0), "L2_halves_identical": (2, 0), "L3_lane16": (4, 2),
        "L4_half_uniform_same_banks": (2, 0), "L5_quads_uniform": (2, 0),
    },
}

ITERATIONS = 1000


def modelled(name: str, kind: str = "load") -> tuple[int, int]:
    """cudalint's (wavefronts, wavefronts - ideal) for one request of the pattern."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from cudalint.analysis.banks import count_wavefronts
    width, terms = PATTERNS[name]
    addr = addresses(terms)[None, :]
    wf = count_wavefronts(addr, np.ones((1, 32), dtype=bool), width, kind)
    return int(wf.wavefronts[0]), int(wf.wavefronts[0] - wf.ideal[0])


def _kernel(name: str, width: int, expr: str, kind: str) -> str:
    n = width // 4
    if kind == "load":
        regs = ", ".join(f"%{i}" for i in range(n))
        outs = ", ".join(f'"=f"(v[{i}])' for i in range(n))
        body = (f'float v[{n}]; asm volatile("ld.shared.v{n}.f32 {{{regs}}}, [%{n}];" : {outs} : "r"(base)); '
                f'for (int k = 0; k < {n}; ++k) acc += v[k];')
    else:
        regs = ", ".join(f"%{i + 1}" for i in range(n))
        ins = ", ".join(f'"f"(acc + {i})' for i in range(n))
        body = f'asm volatile("st.shared.v{n}.f32 [%0], {{{regs}}};" :: "r"(base), {ins}); acc += 1.0f;'
    fill = "for (int i = lane; i < 4096; i += 32) s[i] = i;\n  __syncthreads();" if kind == "load" else ""
    return f"""__global__ void {name}_{kind}(float* out) {{
  __shared__ __align__(16) float s[4096];
  int lane = threadIdx.x;
  {fill}
  unsigned base = (unsigned)__cvta_generic_to_shared(s) + ({expr});
  float acc = lane;
  for (int it = 0; it < {ITERATIONS}; ++it) {{ {body} }}
  out[lane] = acc;
}}
"""


def measure() -> dict[str, dict[str, tuple[float, float]]]:
    kinds = ("load", "store")
    src = [_kernel(n, PATTERNS[n][0], c_expression(PATTERNS[n][1]), k) for n in PATTERNS for k in kinds]
    src.append("int main() { float* o; cudaMalloc(&o, 4096);")
    src += [f"  {n}_{k}<<<1, 32>>>(o);" for n in PATTERNS for k in kinds]
    src.append("  return cudaDeviceSynchronize(); }")
    metrics = ",".join(f"{m}_{op}.sum" for op in ("ld", "st") for m in (
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op",
        "smsp__sass_inst_executed_op_shared"))
    with tempfile.TemporaryDirectory() as d:
        cu, exe = os.path.join(d, "patterns.cu"), os.path.join(d, "patterns")
        with open(cu, "w") as f:
            f.write("\n".join(src) + "\n")
        subprocess.run(["nvcc", "-arch=sm_90", "-O3", "-o", exe, cu], check=True)
        out = subprocess.run(["ncu", "--clock-control", "none", "--metrics", metrics, "--csv", exe],
                             check=True, capture_output=True, text=True).stdout
    rows = list(csv.reader(io.StringIO("\n".join(l for l in out.splitlines() if not l.startswith("==")))))
    head = rows[0]
    k, m, v = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
    got: dict[str, dict[str, float]] = {}
    for r in rows[1:]:
        if len(r) > v:
            got.setdefault(r[k].split("(")[0], {})[r[m]] = float(r[v].replace(",", ""))
    res: dict[str, dict[str, tuple[float, float]]] = {"load": {}, "store": {}}
    for kernel, g in got.items():
        name, _, kind = kernel.rpartition("_")
        op = "ld" if kind == "load" else "st"
        n = g.get(f"smsp__sass_inst_executed_op_shared_{op}.sum")
        if name in PATTERNS and n:
            res[kind][name] = (g[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"] / n,
                               g[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"] / n)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", action="store_true", help="measure with nvcc and ncu on this machine's GPU")
    args = ap.parse_args()
    measured = measure() if args.gpu else MEASURED_H100
    print(f"{'pattern':30s} {'kind':5s} {'bytes':>5s} {'measured wf/conf':>17s} {'model wf/conf':>14s}")
    agree = total = 0
    for kind in ("load", "store"):
        for name, (width, _) in PATTERNS.items():
            m = measured[kind].get(name)
            mod = modelled(name, kind)
            ok = m is not None and abs(m[0] - mod[0]) < 0.1 and abs(m[1] - mod[1]) < 0.1
            agree, total = agree + ok, total + 1
            shown = f"{m[0]:.2f} / {m[1]:.2f}" if m else "-"
            print(f"{name:30s} {kind:5s} {width:5d} {shown:>17s} {mod[0]:>7d} / {mod[1]:<5d} {'' if ok else 'DIFFERS'}")
    print(f"{agree} of {total} patterns agree")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
