"""## What it does
Names a construct the model could not follow: an index that depends on data loaded from memory
(indirect access), a statement kind it does not model, a loop update it cannot express. The
access is listed, never silently skipped.

## Why is this bad?
It is not a bug in your kernel: it says where cudalint's analysis stops, so that a clean report
is not mistaken for a proof.

## Example
```cuda
y[row] += val[j] * x[col_idx[j]];    // x's index is data: not simulated
```

## Use instead
Nothing to change in the kernel. Give sizes with `--param`, or a launch with
`// cudalint: launch`, where the note says one is missing.
"""
CODE = "CL901"
NAME = "analysis-limit"
CATEGORY = "parse"
SEVERITY = "info"
