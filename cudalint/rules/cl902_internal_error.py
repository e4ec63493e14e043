"""## What it does
Reports a kernel cudalint failed to analyse because of an error inside cudalint itself, with the
error's type (`OverflowError`, `RecursionError`, ...). The other kernels and files are still
analysed and reported, and the run exits 2.

## Why is this bad?
It is not a finding about your kernel: it is a bug in cudalint, and whatever the failed kernel
holds is not checked. A clean report for that kernel would be a false assurance, so the run does
not pass.

## Example
```cuda
__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }   // what triggers it depends on the bug
```

## Use instead
Please report it with the file (or a reduced copy) and the message; `--debug` prints the
traceback.
"""
CODE = "CL902"
NAME = "internal-error"
CATEGORY = "parse"
SEVERITY = "error"
