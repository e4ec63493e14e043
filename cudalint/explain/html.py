"""One self-contained HTML page of the explain walk: inline CSS, an inline SVG per warp picture
(lanes against the sectors or banks they touch), no external assets and no network."""
from __future__ import annotations

from html import escape

from .data import AccessView, Finding, WarpPicture
from .glossary import TERMS, link
from .render import lane_rows, point_text, warp_summary

_MD = None


def _markdown():
    """CommonMark (markdown-it-py) without raw HTML and without links or images (what it renders
    holds names and code from the linted tree: `[Fix](https:e.co)` stays text); plain text gets the
    glossary's links."""
    global _MD
    if _MD is None:
        from markdown_it import MarkdownIt
        _MD = MarkdownIt("commonmark", {"html": False}).disable(["link", "image", "autolink"])
        _MD.add_render_rule("text", lambda self, tokens, i, options, env: link(escape(tokens[i].content)))
    return _MD


def md_inline(text: str) -> str:
    return _markdown().renderInline(text)


def md_block(text: str) -> str:
    return _markdown().render(text)

CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1200px;color:#1d2330;padding:0 16px}
h1{font-size:22px;border-bottom:2px solid #334;padding-bottom:4px;margin-top:36px}
h2{font-size:18px;margin-top:28px;color:#223}
h3{font-size:15px;margin-top:22px;color:#2a5d8f;text-transform:uppercase;letter-spacing:.05em}
table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid #ccd;padding:3px 8px;text-align:left;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
th{background:#eef1f6}
td.sep{border:none;background:#fff;width:10px}
.kv{margin:2px 0}.kv b{display:inline-block;min-width:80px}
.der{background:#f7f8fb;border-left:3px solid #8aa2c8;padding:6px 10px;margin:10px 0}
.der code.w{font-weight:600}
.tag{background:#dde8f7;color:#234;border-radius:3px;padding:0 5px;font-size:12px;margin-left:6px}
pre{margin:4px 0;font:13px ui-monospace,Menlo,Consolas,monospace}
.ok{color:#17702f}.bad{color:#b3261e;font-weight:600}.none{color:#444}
.acc{margin:16px 0;padding:8px 12px;border:1px solid #dde;border-radius:6px}
.acc h4{margin:0 0 6px 0;font-size:14px}
.finding{background:#fff6e5;border-left:4px solid #e0a000;padding:8px 12px;margin:10px 0}
.finding.error{background:#fdecea;border-left-color:#b3261e}
.finding .why{margin:6px 0}
.rw del{color:#b3261e;text-decoration:none}.rw ins{color:#17702f;text-decoration:none}
.note{color:#666;font-style:italic}
svg{display:block;margin:6px 0;max-width:100%;height:auto}
svg text{font:10px ui-monospace,Menlo,Consolas,monospace}
a.term{color:inherit;text-decoration:underline dotted #567}
dl.glossary dt{font-weight:600;margin-top:10px}dl.glossary dd{margin-left:18px}
.finding pre,.finding p{margin:4px 0}
.beside{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
pre.src{margin:6px 0;padding:8px;background:#f6f8fa;border:1px solid #ddd;font:12px ui-monospace,Menlo,Consolas,monospace;overflow-x:auto;max-width:100%}
pre.src .ln{color:#999;user-select:none}
"""

def _color(i: int, n: int) -> str:
    return f"hsl({(i * 360 // max(n, 1) + (i % 2) * 37) % 360},65%,{52 if i % 3 else 42}%)"


CHAR_W = 6.2        # px per character of the 10px monospace labels (DejaVu Sans Mono: 6.02)


def _label_row(centers: list[float], texts: list[str], y: float, room: float, **attrs) -> tuple[list[str], float]:
    """Labels centred under boxes `room` px apart: horizontal when the widest fits, else turned to run
    downwards, so that neighbours never overlap. Returns the elements and the height they take."""
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    widest = max((len(t) * CHAR_W for t in texts), default=0)
    if widest <= room - 2:
        return [f'<text x="{x:.1f}" y="{y + 10}" text-anchor="middle"{extra}>{escape(t)}</text>'
                for x, t in zip(centers, texts)], 14
    return [f'<text x="{x:.1f}" y="{y + 2}" transform="rotate(-90 {x:.1f} {y + 2})" text-anchor="end" '
            f'dominant-baseline="middle"{extra}>{escape(t)}</text>' for x, t in zip(centers, texts)], widest + 6


def warp_svg(w: WarpPicture) -> str:
    """Lanes 0..31 on top, the sectors (or banks) below, a line from each lane to what it touches."""
    step, x0, lane_y, unit_y, box = 34, 56, 18, 120, 26
    width = x0 + 32 * step + 20
    if w.space == "global":
        units = sorted({ln.unit for ln in w.lanes if ln.unit is not None})
        slot = (32 * step) / max(len(units), 1)
        pos = {u: x0 + slot * j + (slot - min(slot - 4, 60)) / 2 for j, u in enumerate(units)}
        uw = {u: min(slot - 4, 60) for u in units}
        label = "sector"
    else:
        units = list(range(32))
        pos = {u: x0 + u * step for u in units}
        uw = {u: box for u in units}
        label = "bank"
    colors = {u: _color(j, len(units)) for j, u in enumerate(units)}
    load: dict[int, set] = {}
    for ln in w.lanes:
        if ln.unit is not None:
            load.setdefault(ln.unit, set()).add(ln.address // 4)
    out = []
    out.append(f'<text x="4" y="{lane_y + 17}">lane</text><text x="4" y="{unit_y + 17}">{label}</text>')
    for ln in w.lanes:
        x = x0 + ln.lane * step
        fill = colors.get(ln.unit, "#ddd") if ln.unit is not None else "#eee"
        tip = (f"lane {ln.lane} threadIdx=({ln.tid[0]},{ln.tid[1]},{ln.tid[2]}) index {ln.index} "
               f"byte {ln.address} {label} {ln.unit}" if ln.unit is not None else f"lane {ln.lane} inactive")
        out.append(f'<rect x="{x}" y="{lane_y}" width="{box}" height="{box}" rx="3" fill="{fill}" '
                   f'stroke="#334" stroke-width="0.6"><title>{escape(tip)}</title></rect>')
        out.append(f'<text x="{x + box / 2}" y="{lane_y - 4}" text-anchor="middle">{ln.lane}</text>')
        if ln.unit is not None:
            ux = pos[ln.unit] + uw[ln.unit] / 2
            out.append(f'<line x1="{x + box / 2}" y1="{lane_y + box}" x2="{ux:.1f}" y2="{unit_y}" '
                       f'stroke="{colors[ln.unit]}" stroke-width="1.2" opacity="0.8"/>')
    for u in units:
        used = u in load
        ways = len(load.get(u, ()))
        stroke = "#b3261e" if (w.space == "shared" and ways > 1) else "#334"
        fill = colors[u] if used else "#f4f4f4"
        out.append(f'<rect x="{pos[u]:.1f}" y="{unit_y}" width="{uw[u]:.1f}" height="{box}" rx="3" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="{2 if stroke != "#334" else 0.6}">'
                   f'<title>{label} {u}{f" ({ways} distinct words)" if w.space == "shared" and used else ""}</title></rect>')
    slot = min((pos[b] - pos[a] for a, b in zip(units, units[1:])), default=step)
    labels, height = _label_row([pos[u] + uw[u] / 2 for u in units], [str(u) for u in units], unit_y + box + 2, slot)
    out.extend(labels)
    bottom = unit_y + box + 2 + height
    conflicted = [u for u in units if w.space == "shared" and len(load.get(u, ())) > 1]
    if conflicted:
        ways_labels, h = _label_row([pos[u] + uw[u] / 2 for u in conflicted],
                                    [f"{len(load[u])}-way" for u in conflicted], bottom, slot, fill="#b3261e")
        out.extend(ways_labels)
        bottom += h
    height = bottom + 6
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
            f'viewBox="0 0 {width} {height:.0f}" role="img" aria-label="warp lanes against {label}s">')
    return head + "".join(out) + "</svg>"


def _glossary() -> str:
    items = "".join(f'<dt id="g-{tid}">{escape(term)}</dt><dd>{md_inline(text)}</dd>' for tid, _, term, text in TERMS)
    return (f'<h1 id="glossary">Glossary</h1><p class="note">The Two Tree Framework\'s words, as this page uses '
            f'them.</p><dl class="glossary">{items}</dl>')


class HtmlWriter:
    def __init__(self):
        self.out: list[str] = []
        self.title = "cudalint explain"
        self.open: list[str] = []      # "acc" / "der" containers still open

    def _close(self, *kinds: str) -> None:
        while self.open and self.open[-1] in kinds:
            self.open.pop()
            self.out.append("</div>")

    def result(self) -> str:
        self._close("der", "acc")
        body = "\n".join(self.out)
        return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<title>{escape(self.title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n{_glossary()}\n'
                f'</body></html>\n')

    def heading(self, level: int, text: str) -> None:
        self._close("der", "acc")
        if level == 1 and self.title == "cudalint explain":
            self.title = f"cudalint explain: {text}"
        self.out.append(f"<h{level}>{link(escape(text))}</h{level}>")

    def kv(self, key: str, value: str) -> None:
        self.out.append(f'<div class="kv"><b>{link(escape(key))}</b> {md_inline(value)}</div>')

    def note(self, text: str) -> None:
        self.out.append(f'<p class="note">{md_inline(text)}</p>')

    def para(self, text: str) -> None:
        self._close("der", "acc")
        self.out.append(f"<p>{md_inline(text)}</p>")

    def table(self, headers: list[str], rows: list[tuple]) -> None:
        cell = lambda tag, x: '<td class="sep"></td>' if x == "|" else f"<{tag}>{link(escape(str(x)))}</{tag}>"
        h = "".join(cell("th", x) for x in headers)
        body = "".join("<tr>" + "".join(cell("td", x) for x in r) + "</tr>" for r in rows)
        self.out.append(f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>")

    def beside_source(self, lines: list[tuple[int, str]]) -> None:
        """The kernel's numbered source listing beside the element just written (the table)."""
        if not lines or not self.out:
            return
        width = len(str(lines[-1][0]))
        listing = "\n".join(f'<span class="ln">{n:>{width}}</span> {escape(text)}' for n, text in lines)
        self.out[-1] = f'<div class="beside">{self.out[-1]}<pre class="src">{listing}</pre></div>'

    def derivation(self, written: str, pattern: str, line: int | None, terms) -> None:
        tag = f'<span class="tag">{link(escape(pattern))}</span>' if pattern else ""
        where = f' <span class="note">line {line}</span>' if line else ""
        rows = "".join(f"<tr><td>{escape(e.strip())}</td><td>{escape(lvl)}</td>"
                       f"<td>{escape(' · '.join(how.split('  ')))}</td></tr>" for e, lvl, how in terms)
        table = f"<table>{rows}</table>" if terms else ""
        self._close("der")
        self.out.append(f'<div class="der"><code class="w">{escape(written)}</code>{tag}{where}{table}')
        self.open.append("der")

    def check(self, label: str, text: str, ok: bool | None) -> None:
        cls = "none" if ok is None else "ok" if ok else "bad"
        mark = "" if ok is None else " ✓" if ok else " ✗"
        self.out.append(f'<div class="kv"><b>{link(escape(label))}</b> <code class="{cls}">{escape(text)}{mark}</code></div>')

    def access_heading(self, a: AccessView) -> None:
        self._close("der", "acc")
        self.out.append(f'<div class="acc"><h4><code>{escape(a.text)}</code> — {escape(a.kind)} of '
                        f'{escape(a.space)} <code>{escape(a.array)}</code>, line {a.line}</h4>')
        self.open.append("acc")

    def warp(self, w: WarpPicture) -> None:
        unit = "sector" if w.space == "global" else "bank"
        rows = lane_rows(w)
        body = "".join("<tr><td colspan=5>…</td></tr>" if r is None else
                       "<tr>" + "".join(f"<td>{escape(x)}</td>" for x in r) + "</tr>" for r in rows)
        bad = w.units > max(w.ideal, 1) * (2 if w.space == "global" else 1)
        self._close("der")
        self.out.append(f'<div class="kv">{escape(point_text(w))}</div>{warp_svg(w)}'
                        f'<div class="kv {"bad" if bad else "ok"}">{escape(warp_summary(w))}</div>'
                        f"<details><summary>lanes</summary><table><thead><tr><th>lane</th><th>threadIdx</th>"
                        f"<th>index</th><th>byte</th><th>{unit}</th></tr></thead><tbody>{body}</tbody></table>"
                        f"</details>")

    def finding(self, f: Finding) -> None:
        self._close("der")
        parts = [f'<div class="finding {escape(f.severity)}"><b>{escape(f.code)} {escape(f.name)}</b> '
                 f'[{escape(f.category)}, {escape(f.severity)}] {escape(f.where)}<div>{md_inline(f.message)}</div>']
        if f.why:
            parts.append(f'<div class="why"><i>Why is this bad?</i> {md_block(f.why)}</div>')
        if f.rewrite_note:
            parts.append(f'<div class="why"><i>No mechanical rewrite:</i> {md_inline(f.rewrite_note)}</div>')
        if f.rewrites:
            parts.append('<div><i>Rewrite (checked by linting the rewritten file):</i></div><pre class="rw">' + "\n".join(
                f"<del>- {r.line}: {escape(r.original)}</del>\n<ins>+ {r.line}: {escape(r.rewritten)}</ins>"
                for r in f.rewrites) + "</pre>")
        if f.fix:
            parts.append(f"<div><i>Use instead:</i></div>{md_block(f.fix)}")
        parts.append("</div>")
        self.out.append("".join(parts))
