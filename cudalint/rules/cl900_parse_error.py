"""## What it does
Reports a region of the file that tree-sitter-cuda could not parse, or a file that is not valid
UTF-8. The rest of the file is still analysed.

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
`#include` it can read).
"""
CODE = "CL900"
NAME = "parse-error"
CATEGORY = "parse"
SEVERITY = "warning"
