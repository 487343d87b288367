"""Reports as documents: sections of text, tables and figures, written as HTML + PNG + Markdown.

The HTML is self-contained (figures embedded as base64 PNG); the same figures are written
as PNG files beside it, and a Markdown summary links them.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


# ------------------------------------------------------------------ formatting
def num(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def ci_text(est, lo, hi, digits: int = 2, pct: bool = False) -> str:
    """'12.30 [11.00, 13.60]', or '45.1% [43.0, 47.2]' with pct (values are shares)."""
    if pct:
        if est is None or not math.isfinite(est):
            return "–"
        if lo is None or not math.isfinite(lo):
            return f"{100 * est:.{digits}f}%"
        return f"{100 * est:.{digits}f}% [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    if est is None or not math.isfinite(est):
        return "–"
    if lo is None or not math.isfinite(lo):
        return num(float(est), digits)
    return f"{num(float(est), digits)} [{num(float(lo), digits)}, {num(float(hi), digits)}]"


#: the most decimals `human` shows (a number finer than this reads as 0)
MAX_DECIMALS = 4


def decimals_for(width: float, magnitude: float = 0.0) -> int:
    """Decimals that show two significant digits of `width` (a CI's half-width), or three of
    `magnitude` when there is no width; never more than MAX_DECIMALS."""
    ref = width if width and math.isfinite(width) and width > 0 else abs(magnitude)
    if not ref or not math.isfinite(ref):
        return 2
    return int(min(MAX_DECIMALS, max(0, (1 if width and width > 0 else 2) - math.floor(math.log10(ref)))))


def human(x, decimals: int = 2, signed: bool = False) -> str:
    """A number for a person: thousands separators, fixed decimals, no exponent, no "-0"
    (`-6.1e-31` -> "0.00", `2013.4` -> "2,013"); "–" for a missing value."""
    if x is None or not math.isfinite(float(x)):
        return "–"
    text = f"{float(x):{'+' if signed else ''},.{decimals}f}"
    if float(text.replace(",", "")) == 0:
        text = f"{0.0:.{decimals}f}"
    return text


def ci_human(est, lo, hi, signed: bool = False, mult: float = 1.0, decimals: int | None = None) -> str:
    """`est [lo, hi]` in human form, the decimals set by the interval's width (two significant
    digits of the half-width): `-0.94 [-1.18, -0.70]`, `+2,013 [+1,990, +2,040]`."""
    e, a, b = (float(v) * mult if v is not None and math.isfinite(float(v)) else float("nan") for v in (est, lo, hi))
    if not math.isfinite(e):
        return "–"
    if decimals is None:
        decimals = decimals_for((b - a) / 2 if math.isfinite(a) and math.isfinite(b) else 0.0, e)
        if e:  # and no more than three significant digits of the estimate
            decimals = min(decimals, decimals_for(0.0, e))
    if not (math.isfinite(a) and math.isfinite(b)):
        return human(e, decimals, signed)
    return f"{human(e, decimals, signed)} [{human(a, decimals, signed)}, {human(b, decimals, signed)}]"


def ci_col(df: pd.DataFrame, name: str, digits: int = 2, pct: bool = False) -> list:
    return [ci_text(e, lo, hi, digits, pct) for e, lo, hi in zip(df[name], df[f"{name}_lo"], df[f"{name}_hi"], strict=False)]


def md_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v).replace("|", "/") for v in row) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------ figures
def figure(title: str, xlabel: str, ylabel: str, size=(7.5, 4.2)):
    fig, ax = plt.subplots(figsize=size, dpi=100)
    ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def bars_ci(ax, labels, est, lo, hi, colors=None, ref: float | None = None, ref_label: str = "",
            label: str | None = None, offset: float = 0.0, width: float = 0.7, fmt: str = "{:.3g}"):
    """Bars with 95% CI error bars (and an optional dashed reference line)."""
    x = np.arange(len(labels)) + offset
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    yerr = np.vstack([np.nan_to_num(est - lo), np.nan_to_num(hi - est)])
    ax.bar(x, est, width=width, color=colors or PALETTE[0], alpha=0.85, label=label,
           yerr=yerr, capsize=4, error_kw={"elinewidth": 1.2, "label": None})
    ax.set_xticks(np.arange(len(labels)))
    ax.set_xticklabels([str(v) for v in labels], rotation=0 if max((len(str(v)) for v in labels), default=0) < 12 else 20)
    if ref is not None and math.isfinite(ref):
        ax.axhline(ref, color="grey", ls="--", lw=1, label=ref_label or None)
    return x


def lines_ci(ax, x, est, lo, hi, label: str, color=None, marker="o"):
    """A line with 95% CI error bars."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    yerr = np.vstack([np.nan_to_num(est - lo), np.nan_to_num(hi - est)])
    ax.errorbar(np.asarray(x), est, yerr=yerr, label=label, color=color, marker=marker, ms=4,
                capsize=3, lw=1.5)


def png_bytes(fig) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


# ------------------------------------------------------------------ documents
@dataclass
class Section:
    title: str
    key: str
    blocks: list = field(default_factory=list)

    def text(self, text: str):
        self.blocks.append(("p", text))

    def note(self, text: str):
        self.blocks.append(("note", text))

    def bullets(self, items: list):
        self.blocks.append(("ul", list(items)))

    def links(self, items: list):
        """A list of (text, href) links (to pages beside the document)."""
        self.blocks.append(("links", list(items)))

    def table(self, df: pd.DataFrame, caption: str = ""):
        self.blocks.append(("table", df.reset_index(drop=True), caption))

    def figure(self, name: str, fig, caption: str = ""):
        self.blocks.append(("fig", name, png_bytes(fig), caption))

    def answer(self, question: str, sentence: str, support: str, name: str, fig, caption: str = ""):
        """A question answered in one sentence, what the data can and cannot support, and a
        chart beside them (HTML: side by side; Markdown: one after the other)."""
        self.blocks.append(("answer", question, sentence, support, name,
                            png_bytes(fig) if fig is not None else None, caption))

    @property
    def figures(self) -> list:
        return [b[1] if b[0] == "fig" else b[4] for b in self.blocks
                if b[0] == "fig" or (b[0] == "answer" and b[5] is not None)]


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1000px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #444}h2{margin-top:2em;border-bottom:1px solid #bbb}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f0f0f0}
td:first-child,th:first-child{text-align:left}caption{caption-side:top;text-align:left;font-weight:600;padding:.3em 0}
figure{margin:1em 0}figcaption{font-size:.9em;color:#555}img{max-width:100%}
.note{background:#fff7e0;border-left:4px solid #e0a800;padding:.4em .8em}
nav a{margin-right:1em}code{background:#f4f4f4;padding:0 .2em}
.answer{display:flex;gap:1.2em;align-items:flex-start;border-top:1px solid #ddd;padding:.5em 0}
.answer>div{flex:1 1 55%}.answer h3{margin:.2em 0 .3em;font-size:1.05em}.answer figure{flex:0 0 40%;margin:0}
.answer .lead{font-size:1.05em;margin:.2em 0}.answer .support{font-size:.88em;color:#444;margin:.3em 0}
"""


def _inline(text: str) -> str:
    """Escape, then `code` and **bold** as in Markdown."""
    out = html.escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Document:
    """A report: a title, an intro, sections; written as HTML, PNGs beside it and Markdown."""

    def __init__(self, title: str, intro: str = ""):
        self.title = title
        self.intro = intro
        self.sections: list[Section] = []

    def section(self, title: str, key: str | None = None) -> Section:
        sec = Section(title, key or _slug(title))
        self.sections.append(sec)
        return sec

    def figure_names(self) -> list:
        return [n for s in self.sections for n in s.figures]

    def write(self, html_path) -> dict:
        """Write FILE.html, FILE-<figure>.png beside it and FILE.md; return the paths."""
        html_path = Path(html_path)
        html_path.parent.mkdir(parents=True, exist_ok=True)
        stem = html_path.stem
        parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>"
                 f"<style>{_CSS}</style></head><body><h1>{html.escape(self.title)}</h1>"]
        md = [f"# {self.title}", ""]
        if self.intro:
            parts.append(f"<p>{_inline(self.intro)}</p>")
            md += [self.intro, ""]
        parts.append("<nav>" + "".join(f"<a href='#{s.key}'>{html.escape(s.title)}</a>" for s in self.sections) + "</nav>")
        pngs = []

        def figure(name, data, caption):
            """A figure: its PNG beside the page, inline in the HTML, linked from the .md."""
            png = html_path.with_name(f"{stem}-{name}.png")
            png.write_bytes(data)
            pngs.append(png)
            b64 = base64.b64encode(data).decode("ascii")
            parts.append(f"<figure id='fig-{name}'><img alt='{html.escape(caption or name)}' "
                         f"src='data:image/png;base64,{b64}'>"
                         f"<figcaption>{_inline(caption)}</figcaption></figure>")
            md.append(f"![{caption or name}]({png.name})")
            md.append("")

        for sec in self.sections:
            parts.append(f"<section id='{sec.key}'><h2>{html.escape(sec.title)}</h2>")
            md += [f"## {sec.title}", ""]
            for block in sec.blocks:
                kind = block[0]
                if kind == "p":
                    parts.append(f"<p>{_inline(block[1])}</p>")
                    md += [block[1], ""]
                elif kind == "note":
                    parts.append(f"<p class='note'>{_inline(block[1])}</p>")
                    md += [f"> {block[1]}", ""]
                elif kind == "ul":
                    parts.append("<ul>" + "".join(f"<li>{_inline(t)}</li>" for t in block[1]) + "</ul>")
                    md += [f"- {t}" for t in block[1]] + [""]
                elif kind == "links":
                    parts.append("<ul>" + "".join(f"<li><a href='{html.escape(href, quote=True)}'>"
                                                  f"{html.escape(text)}</a></li>" for text, href in block[1])
                                 + "</ul>")
                    md += [f"- [{text}]({href})" for text, href in block[1]] + [""]
                elif kind == "table":
                    df, caption = block[1], block[2]
                    table = df.to_html(index=False, escape=True, border=0, na_rep="–")
                    if caption:
                        table = table.replace(">", f"><caption>{html.escape(caption)}</caption>", 1)
                    parts.append(table)
                    if caption:
                        md += [f"**{caption}**", ""]
                    md += [md_table(df), ""]
                elif kind == "answer":
                    question, sentence, support, name, data, caption = block[1:]
                    parts.append(f"<div class='answer' id='answer-{name}'><div><h3>{html.escape(question)}</h3>"
                                 f"<p class='lead'><b>{_inline(sentence)}</b></p>"
                                 f"<p class='support'>{_inline(support)}</p></div>")
                    md += [f"### {question}", "", f"**{sentence}**", "", support, ""]
                    if data is not None:
                        figure(name, data, caption)
                    parts.append("</div>")
                elif kind == "fig":
                    figure(block[1], block[2], block[3])
            parts.append("</section>")
        parts.append("</body></html>")
        html_path.write_text("\n".join(parts), encoding="utf-8")
        md_path = html_path.with_suffix(".md")
        md_path.write_text("\n".join(md), encoding="utf-8")
        return {"html": html_path, "markdown": md_path, "figures": pngs}
