import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
_EXPECT = re.compile(r"//\s*expect:\s*([A-Z0-9, ]+)")


def sample_files():
    return sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".cu", ".cuh"))


def expected_findings(path: Path) -> set[tuple[int, str]]:
    """(line, code) pairs from `// expect: CL101, CL102` comments; `// expect-clean` means none."""
    out = set()
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = _EXPECT.search(line)
        if m:
            out |= {(n, c.strip()) for c in m.group(1).split(",") if c.strip()}
    return out


def is_annotated(path: Path) -> bool:
    text = path.read_text()
    return "// expect-clean" in text or bool(_EXPECT.search(text))
