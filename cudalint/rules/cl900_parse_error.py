"""## What it does
Reports a region of the file that tree-sitter-cuda could not parse, a file that is not valid
UTF-8, or a `// cudalint:` comment (launch, param, suppression) it cannot read. The rest of the
file is still analysed.

A region tree-sitter misreads (info) says where cudalint's reading stops, not what the kernel does
wrong: like CL901 it is counted, on one stderr line that names each file not fully parsed, and
printed with `--show-limits`. The note on a file that is not UTF-8 and an annotation cannot be
read are always printed.

## Why is this bad?
cudalint cannot see indexes inside a region it could not read, so findings there are missed.
Often the cause is a macro that changes the syntax (`KERNEL_LOOP(i, n) { ... }`) or an
unbalanced brace.

## Example
```cuda
__global__ void k(float* a) { a[threadIdx.x] = 1.0f;     // missing `}`
```

## Use instead
Balance the braces, or give cudalint the macro's definition (`-D NAME=VALUE` or a local
`#include` it can read). Write annotations as `// cudalint: launch grid=(X,Y,Z) block=(X,Y,Z)`,
`// cudalint: param N=1024`, `// cudalint: ignore[CL101] -- reason`.
"""
CODE = "CL900"
NAME = "parse-error"
CATEGORY = "parse"
SEVERITY = "warning"
