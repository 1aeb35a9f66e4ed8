"""Rendering of comparison tables: number formats, and one table as plain text, Markdown or HTML.

This module owns :class:`_Table` (cells already formatted, the best cells marked: ``*`` in plain text,
bold in Markdown and HTML), the number formats and the HTML style the reports and sweeps share.

>>> print(_Table("T", ["name", "x"], [["a", "1.00"], ["b", "2.00"]], ["l", "r"], [set(), {1}]).text())
T
name      x
----  -----
a      1.00
b     2.00*
* best value of a column
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["markdown_cell", "markdown_text"]

BEST_NOTE = "* best value of a column"


def markdown_cell(text: str) -> str:
    """``text`` as one Markdown table cell: ``|`` escaped, line breaks as spaces.

    >>> markdown_cell("a|b")
    'a\\\\|b'
    """
    return " ".join(text.splitlines()).replace("|", "\\|")


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_<"})


def markdown_text(text: str) -> str:
    """A table cell of a report (a name, a value, token examples) as literal Markdown text: ``<unk>``
    would be read as an HTML tag and vanish, ``'__init__'`` turn bold; a backslash escapes each.

    >>> print(markdown_text("'<unk>' '__init__'"))
    '\\<unk>' '\\_\\_init\\_\\_'
    """
    return markdown_cell(text.translate(_MARKDOWN_SPECIAL))


def _fmt_number(value: Any, kind: str) -> str:
    if value is None:
        return "–"
    if kind == "int":
        return f"{value:,}"
    if kind == "pct":
        if value == 0:
            return "0%"
        if value < 0.0005:
            return "<0.1%"
        if 0.9995 <= value < 1:  # would round to 100.0%, beside a true 100.0%
            return ">99.9%"
        return f"{value:.1%}"
    if kind == "rate":
        return _fmt_rate(value)
    if kind == "seconds":
        return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"
    return f"{value:.2f}"


def _fmt_rate(bytes_per_second: float) -> str:
    for unit, size in (("MB/s", 1e6), ("KB/s", 1e3)):
        if bytes_per_second >= size:
            return f"{bytes_per_second / size:.2f} {unit}"
    return f"{bytes_per_second:.0f} B/s"


@dataclass
class _Table:
    """A table of already formatted cells; rendered as text, Markdown or HTML."""

    title: str
    header: list[str]
    rows: list[list[str]]
    align: list[str]  # per column: "l" left, "r" right (numbers), "w" left and wrapping (lists of examples)
    best: list[set[int]] = field(default_factory=list)  # per row: indexes of cells to emphasise (HTML)
    note: str = ""

    def _best(self, r: int) -> set[int]:
        return self.best[r] if r < len(self.best) else set()

    def _marked(self) -> bool:
        return any(self.best)

    def text(self) -> str:
        mark = self._marked()
        rows = [[c + ("*" if i in self._best(r) else " " if mark and a == "r" else "") for i, (c, a)
                 in enumerate(zip(row, self.align))] for r, row in enumerate(self.rows)]
        header = [h + (" " if mark and a == "r" else "") for h, a in zip(self.header, self.align)]
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

        def line(cells: Sequence[str]) -> str:
            out = [c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(cells, widths, self.align)]
            return "  ".join(out).rstrip()

        rule = "  ".join("-" * w for w in widths)
        parts = [self.title, line(header), rule, *(line(r) for r in rows)]
        if self.note:
            parts.append(self.note)
        if mark:
            parts.append(BEST_NOTE)
        return "\n".join(parts)

    def markdown(self) -> str:
        head = "| " + " | ".join(markdown_text(h) for h in self.header) + " |"
        rule = "|" + "|".join("---:" if a == "r" else "---" for a in self.align) + "|"
        body = ["| " + " | ".join(f"**{markdown_text(c)}**" if i in self._best(r) else markdown_text(c)
                                 for i, c in enumerate(row)) + " |"
                for r, row in enumerate(self.rows)]
        parts = [f"### {self.title}", "", head, rule, *body]
        bold = "Bold: the best value of a column" if self._marked() else ""
        notes = [n if n.endswith(".") else n + "." for n in (self.note, bold) if n]
        if notes:
            parts += ["", " ".join(notes)]
        return "\n".join(parts)

    def html(self) -> str:
        th = "".join(  # headers wrap (at spaces and after "/"), so a wide table still fits the page
            f'<th class="{"num" if a == "r" else ""}">{html.escape(h).replace("/", "/<wbr>")}</th>'
            for h, a in zip(self.header, self.align)
        )
        body = []
        for r, row in enumerate(self.rows):
            best = self._best(r)
            cells = []
            for i, (cell, a) in enumerate(zip(row, self.align)):
                kind = {"r": "num", "w": "wrap"}.get(a, "")
                cls = " ".join(c for c in (kind, "best" if i in best else "") if c)
                cells.append(f'<td class="{cls}">{html.escape(cell)}</td>')
            body.append("<tr>" + "".join(cells) + "</tr>")
        note = f'<div class="tkc-note">{html.escape(self.note)}</div>' if self.note else ""
        return (f'<div class="tkc-title">{html.escape(self.title)}</div>'
                f'<table class="tkc"><thead><tr>{th}</tr></thead><tbody>{"".join(body)}</tbody></table>{note}')


_HTML_STYLE = """<style>
.tkc-report{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:13px;color:#1f2937;margin:4px 0;
  max-width:100%;overflow-x:auto}
.tkc-report .tkc-title{font-weight:600;margin:12px 0 4px}
.tkc-report .tkc-sub{color:#6b7280;margin-bottom:4px}
.tkc-report table.tkc{border-collapse:collapse;margin:0}
.tkc-report table.tkc th,.tkc-report table.tkc td{padding:3px 4px;border-bottom:1px solid #e5e7eb;
  text-align:left;white-space:nowrap}
.tkc-report table.tkc th{background:#f3f4f6;font-weight:600;white-space:normal;vertical-align:bottom}
.tkc-report table.tkc .num{text-align:right;font-variant-numeric:tabular-nums}
.tkc-report table.tkc td.wrap{white-space:normal;min-width:12em}
.tkc-report table.tkc td.best{font-weight:700;color:#065f46}
.tkc-report .tkc-note{color:#6b7280;font-size:12px;margin-top:3px}
</style>"""
