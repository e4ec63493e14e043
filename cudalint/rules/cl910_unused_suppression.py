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

`--fix` removes an unused suppression (or the selectors of it that suppress nothing), and the
comment with it when nothing else was said there.
"""
import re

CODE = "CL910"
NAME = "unused-suppression"
CATEGORY = "suppression"
SEVERITY = "warning"
EXAMPLE_KERNEL = """
__global__ void example(float* out, float sum, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
$CODE
}
void run(float* out, int n) { example<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(out, 1.0f, n); }
"""

# a suppression directive in a line's comment, with its selector list and ` -- reason` (up to the
# end of the comment, or a second `//` comment on the line)
_DIRECTIVE = re.compile(r"cudalint\s*:\s*(ignore|disable|file-ignore)(?![\w-])(\s*\[[^\]\n]*\])?"
                        r"(\s*--(?:(?!//|\*/).)*)?")


def help(d) -> str | None:
    f = d.facts
    if f.get("why") == "unknown":
        return "name rules by code (`CL101`), code prefix, name or category: `cudalint rule --all` lists them"
    if f.get("why") == "unused":
        return "remove the suppression: nothing it names is reported where it applies"
    return None


def removal(d, line: str) -> str | None:
    """`line` without the unused suppression `d` reports (or without the selectors of it that are
    unused), and without a comment left empty; None when the line should go as a whole; the line
    itself when it cannot be done (a suppression spread over lines)."""
    f = d.facts
    if f.get("why") != "unused":
        return line
    kind = {"file_ignore": "file-ignore"}.get(f["kind"], f["kind"])
    m = next((m for m in _DIRECTIVE.finditer(line) if m.group(1) == kind), None)
    if m is None:
        return line
    kept = [x for x in f["selectors"] if x not in f["idle"]]
    if kept and m.group(2):                  # drop the unused selectors only
        at = line.index("[", m.start(2))
        return line[:at] + "[" + ", ".join(kept) + "]" + line[m.end(2):]
    head, tail = line[:m.start()].rstrip(" \t,;:"), line[m.end():]
    opener = re.search(r"(//+|/\*+)\s*$", head)
    if opener:                               # the suppression was all the comment said
        head = head[:opener.start()].rstrip()
        tail = tail.strip()
        if opener.group().startswith("/*") and tail.startswith("*/"):
            tail = tail[2:].strip()
        new = head + ("  " + tail if head and tail else tail)
    else:
        new = head + tail.rstrip() if tail.strip() else head
    return new if new.strip() else None
