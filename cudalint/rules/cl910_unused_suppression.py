"""## What it does
Reports a `// cudalint: ignore[...]`, `disable[...]` or `file-ignore[...]` comment that
suppresses no finding: the code it names is not reported where it applies, the name is no rule
code or category, the directive itself is misspelt (`// cudalint: ignroe[CL101]`), or an `enable`
has no `disable` above it to end.

## Why is this bad?
A suppression outlives the finding it was written for. Once the kernel is fixed, or the comment
names the wrong rule (`ignore[CL102]` where CL101 fires), it hides nothing today and will hide
a real finding tomorrow; and a reader takes it for a statement that the line is still wrong.

## Example
```cuda
// the row now comes from threadIdx.y, so nothing is uncoalesced any more
out[row * n + col] = sum;   // cudalint: ignore[CL101]
```

## Use instead
```cuda
out[row * n + col] = sum;
```
"""
CODE = "CL910"
NAME = "unused-suppression"
CATEGORY = "suppression"
SEVERITY = "warning"
