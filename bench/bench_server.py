"""Language server benchmark (not a test): `python bench/bench_server.py [FILE ...] [--edits N]`.

FILE (default: the real-code corpus's 313-line transpose.cu, five kernels) is opened in
`cudalint server`, started as an editor starts it, and edited as a user edits it: each edit types a
new statement into the first kernel's body, in place of the one typed before (a new text every
time, so no parse is reused; the file keeps its length).

- latency: for each of 30 single edits, and for 10 bursts of 12 keystrokes 40 ms apart, the time
  from the last didChange to the publishDiagnostics of that version, less the server's debounce
  (default 250 ms). Target: within 300 ms.
- memory: a server without debounce lints every one of N edits (default 1000); its resident memory
  after 100 edits and after N. Target: flat (the lint of an edit keeps nothing of the last one).
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from lsp_client import LspClient  # noqa: E402

DEFAULT = Path("/tmp/realcode/NVIDIA-developer-blog__code-samples/series/cuda-cpp/transpose/transpose.cu")
DEBOUNCE_MS = 250
TARGET_MS = 300


def body_line(text: str) -> int:
    """The 0-based line just inside the first kernel's body."""
    m = re.search(r"__global__[^{;]*\{", text)
    if m is None:
        raise SystemExit("no kernel with a body in the file")
    return text.count("\n", 0, m.end()) + 1


class Editor:
    def __init__(self, path: Path, debounce_ms: int):
        self.client = LspClient("--debounce", str(debounce_ms), cwd=ROOT)
        self.client.initialize(ROOT)
        self.uri = path.resolve().as_uri()
        self.text = path.read_text()
        self.line = body_line(self.text)
        self.version = 1
        self.client.open(self.uri, self.text, 1)
        _, self.diags = self.client.diagnostics(self.uri, 1, timeout=120)
        self.typed = 0
        self.current = ""               # the text of the line typed on

    def type_statement(self) -> float:
        """A new statement as the kernel's first line, in place of the one typed before (the file keeps
        its length); the time the change was sent."""
        self.typed += 1
        self.version += 1
        new = f"  int bench_{self.typed} = {self.typed};"
        if self.typed == 1:
            sent = self.client.edit(self.uri, self.version, self.line, 0, 0, new + "\n")
        else:
            sent = self.client.edit(self.uri, self.version, self.line, 0, len(self.current), new)
        self.current = new
        return sent

    def keystroke(self, ch: str, at: int) -> float:
        self.version += 1
        return self.client.edit(self.uri, self.version, self.line, at, at, ch)

    def published(self) -> tuple[float, list]:
        return self.client.diagnostics(self.uri, self.version, timeout=120)


def latency(path: Path, debounce_ms: int) -> tuple[list[float], list[float], int]:
    ed = Editor(path, debounce_ms)
    single, burst = [], []
    try:
        for _ in range(30):
            sent = ed.type_statement()
            got, _ = ed.published()
            single.append((got - sent) * 1000 - debounce_ms)
        for k in range(10):
            for i, ch in enumerate(f" x{k} = 1;"):     # appended to the statement typed before
                sent = ed.keystroke(ch, len(ed.current) + i)
                time.sleep(0.04)
            ed.current += f" x{k} = 1;"
            got, _ = ed.published()
            burst.append((got - sent) * 1000 - debounce_ms)
        assert ed.client.close() == 0
    finally:
        ed.client.kill()
    return single, burst, len(ed.diags)


def memory(path: Path, edits: int) -> dict[int, int]:
    ed = Editor(path, 0)
    rss = {0: ed.client.rss_kb()}
    try:
        for n in range(1, edits + 1):
            ed.type_statement()
            ed.published()
            if n in (10, 100, edits) or n % 250 == 0:
                rss[n] = ed.client.rss_kb()
        assert ed.client.close() == 0
    finally:
        ed.client.kill()
    return rss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, default=[DEFAULT])
    ap.add_argument("--edits", type=int, default=1000, help="edits of the memory run (0: none)")
    ap.add_argument("--debounce", type=int, default=DEBOUNCE_MS, help="the server's debounce, ms")
    args = ap.parse_args()
    worst = 0.0
    for path in args.files:
        single, burst, found = latency(path, args.debounce)
        lines = path.read_text().count("\n")
        for title, ms in (("single edits", single), ("bursts of keystrokes", burst)):
            print(f"{path.name} ({lines} lines, {found} findings): {title}: didChange -> publishDiagnostics "
                  f"less the {args.debounce} ms debounce: median {statistics.median(ms):.0f} ms, "
                  f"max {max(ms):.0f} ms over {len(ms)}")
            worst = max(worst, max(ms))
    verdict = "met" if worst <= TARGET_MS else f"MISSED ({worst:.0f} ms)"
    print(f"target within {TARGET_MS} ms of the debounce: {verdict}")
    if args.edits:
        rss = memory(args.files[0], args.edits)
        print(f"memory over {args.edits} edits of {args.files[0].name}, each linted: " +
              ", ".join(f"{n} edits {kb / 1024:.0f} MB" for n, kb in rss.items()))
        if 100 in rss:
            print(f"RSS from 100 to {args.edits} edits: {(rss[args.edits] - rss[100]) / 1024:+.1f} MB")


if __name__ == "__main__":
    main()
