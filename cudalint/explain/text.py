"""Plain-text and markdown layout of the explain walk (render.py)."""
from __future__ import annotations

from .data import AccessView, Finding, WarpPicture
from .render import lane_rows, point_text, unit_strip, warp_summary

_CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}


class TextWriter:
    def __init__(self, color: bool = False):
        self.color = color
        self.out: list[str] = []

    def c(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        return "\033[" + ";".join(_CODES[s] for s in styles) + "m" + text + "\033[0m"

    def line(self, text: str = "") -> None:
        self.out.append(text)

    def result(self) -> str:
        return "\n".join(s.rstrip() for s in self.out).strip("\n") + "\n"

    # ---- blocks ------------------------------------------------------------------------------
    def heading(self, level: int, text: str) -> None:
        if level == 1:
            self.line()
            self.line(self.c(text, "bold"))
            self.line(self.c("=" * len(text), "bold"))
        elif level == 2:
            self.line()
            self.line(self.c(text, "bold"))
        else:
            self.line()
            self.line(self.c(f"  -- {text} --", "cyan"))

    def kv(self, key: str, value: str) -> None:
        self.line(f"{key + ':':<9} {value}")

    def note(self, text: str) -> None:
        self.line(self.c(f"    note: {text}", "dim"))

    def para(self, text: str) -> None:
        self.line()
        self.line(f"  {text}")

    def table(self, headers: list[str], rows: list[tuple]) -> None:
        cols = list(zip(*([headers] + [list(map(str, r)) for r in rows])))
        widths = [max(len(x) for x in col) for col in cols]
        fmt = lambda r: "  " + "  ".join(str(x).ljust(wd) for x, wd in zip(r, widths))
        self.line(self.c(fmt(headers).rstrip(), "bold"))
        for r in rows:
            self.line(fmt(r))

    def derivation(self, written: str, pattern: str, line: int | None, terms) -> None:
        self.line()
        tag = f"  [{pattern}]" if pattern else ""
        where = f"  (line {line})" if line else ""
        self.line("    " + self.c(written, "bold") + self.c(tag, "cyan") + self.c(where, "dim"))
        if not terms:
            return
        w1 = max(len(t[0]) for t in terms)
        w2 = max(len(t[1]) for t in terms)
        for expr, level, how in terms:
            self.line(f"    {expr.ljust(w1)}   {level.ljust(w2)}   {self.c(how, 'dim')}")

    def check(self, label: str, text: str, ok: bool | None) -> None:
        style = () if ok is None else ("green",) if ok else ("red", "bold")
        self.line(f"      {label}: " + self.c(text, *style))

    def access_heading(self, a: AccessView) -> None:
        self.line()
        self.line(f"  {self.c(a.text, 'bold')}   {a.kind} of {a.space} `{a.array}`, line {a.line}")

    def warp(self, w: WarpPicture) -> None:
        unit = "sector" if w.space == "global" else "bank"
        self.line(f"      {point_text(w)}:")
        headers = ("lane", "threadIdx", "index", "byte", unit)
        rows = lane_rows(w)
        widths = [max([len(h)] + [len(r[i]) for r in rows if r]) for i, h in enumerate(headers)]
        self.line("        " + "  ".join(h.rjust(wd) for h, wd in zip(headers, widths)))
        for r in rows:
            self.line("        " + ("..." .rjust(widths[0]) if r is None else
                                    "  ".join(x.rjust(wd) for x, wd in zip(r, widths))))
        self.line(f"        {unit} of each lane: {unit_strip(w)}")
        bad = w.units > max(w.ideal, 1) * (2 if w.space == "global" else 1)
        self.line("        " + self.c(warp_summary(w), "red" if bad else "green"))

    def beside_source(self, lines: list[tuple[int, str]]) -> None:
        """The kernel's source beside what was just written: a page shows it; a terminal has the file."""

    def finding(self, f: Finding) -> None:
        sev = "red" if f.severity == "error" else "yellow"
        self.line()
        self.line("    " + self.c(f"{f.code} {f.name}", sev, "bold") + f" [{f.category}, {f.severity}] {f.where}")
        self.line(f"      {f.message}")
        if f.why:
            self.line("      Why is this bad?")
            for ln in f.why.splitlines():
                self.line(f"        {ln}")
        if f.rewrite_note:
            self.line(f"      No mechanical rewrite: {f.rewrite_note}")
        if f.rewrites:
            self.line("      Rewrite (checked: the rewritten file no longer has this finding and has no new one):")
            for r in f.rewrites:
                self.line(self.c(f"        - {r.line}: {r.original}", "red"))
                self.line(self.c(f"        + {r.line}: {r.rewritten}", "green"))
        if f.fix:
            self.line("      Use instead:")
            for ln in f.fix.splitlines():
                if not ln.startswith("```"):
                    self.line(f"        {ln}")


class MarkdownWriter(TextWriter):
    def __init__(self):
        super().__init__(False)

    def heading(self, level: int, text: str) -> None:
        self.line()
        self.line("#" * level + " " + text)
        self.line()

    def kv(self, key: str, value: str) -> None:
        self.line(f"- **{key}**: {value}")

    def note(self, text: str) -> None:
        self.line(f"> note: {text}")
        self.line()

    def para(self, text: str) -> None:
        self.line(text)
        self.line()

    def table(self, headers: list[str], rows: list[tuple]) -> None:
        esc = lambda s: str(s).replace("|", "\\|") if str(s) != "|" else " "
        self.line("| " + " | ".join(esc(h) for h in headers) + " |")
        self.line("|" + "---|" * len(headers))
        for r in rows:
            self.line("| " + " | ".join(esc(x) for x in r) + " |")
        self.line()

    def derivation(self, written: str, pattern: str, line: int | None, terms) -> None:
        tag = f" *{pattern}*" if pattern else ""
        where = f" (line {line})" if line else ""
        self.line(f"`{written}`{tag}{where}")
        self.line()
        if terms:
            self.line("```")
            w1 = max(len(t[0]) for t in terms)
            w2 = max(len(t[1]) for t in terms)
            for expr, level, how in terms:
                self.line(f"{expr.ljust(w1)}   {level.ljust(w2)}   {how}")
            self.line("```")
            self.line()

    def check(self, label: str, text: str, ok: bool | None) -> None:
        mark = "" if ok is None else " ✓" if ok else " ✗"
        self.line(f"- {label}: `` {text} ``{mark}")     # double backticks: the text may hold `names`
        self.line()

    def access_heading(self, a: AccessView) -> None:
        self.line(f"#### `{a.text}` — {a.kind} of {a.space} `{a.array}`, line {a.line}")
        self.line()

    def warp(self, w: WarpPicture) -> None:
        t = TextWriter(False)
        t.warp(w)
        self.line("```")
        for ln in t.out:
            self.line(ln[6:] if ln.startswith("      ") else ln)
        self.line("```")
        self.line()

    def finding(self, f: Finding) -> None:
        self.line(f"> **{f.code} {f.name}** [{f.category}, {f.severity}] {f.where}: {f.message}")
        self.line(">")
        if f.why:
            self.line("> *Why is this bad?* " + " ".join(f.why.split()))
            self.line(">")
        if f.rewrite_note:
            self.line(f"> No mechanical rewrite: {f.rewrite_note}")
            self.line(">")
        if f.rewrites:
            self.line("> Rewrite (checked by linting the rewritten file):")
            self.line("> ```diff")
            for r in f.rewrites:
                self.line(f"> - {r.original}")
                self.line(f"> + {r.rewritten}")
            self.line("> ```")
        if f.fix:
            self.line("> *Use instead:*")
            self.line(">")
            for ln in f.fix.splitlines():
                self.line(f"> {ln}")
        self.line()
