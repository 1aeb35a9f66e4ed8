"""Comparison reports: :func:`compare` and :class:`ComparisonReport`, rendered as tables.

This module owns running the measures of :mod:`toolkit.analysis.metrics` over several tokenizers on
the same texts (per language when the texts are grouped), the pairwise tables (vocabulary overlap,
words tokenized identically), and every rendering of a report: plain text (``str(report)``, what the
CLI prints), Markdown, a pandas-free dict / JSON, and HTML in notebooks (``_repr_html_``). The table
helpers here are shared with :mod:`toolkit.analysis.sweep`.

>>> from toolkit import Tokenizer
>>> from algorithms import BPE
>>> from pretokenizers import Whitespace
>>> tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=Whitespace())
>>> report = compare({"toy": tok}, ["ab ab b"])
>>> report["toy"].tokens, report["toy"].fertility, report["toy"].bytes_per_token
(3, 1.0, 2.3333333333333335)
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.analysis.metrics import (
    METRICS,
    TextStats,
    Texts,
    TokenizerMetrics,
    _check_tokenizers,
    _grouped_texts,
    _jaccard,
    _measure_text,
    _Probe,
    _ratio,
    _Tally,
    _text_stats,
    _time_encoding,
    _training_seconds,
    vocabulary_strings,
)
from toolkit.errors import ConfigError, InputError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from toolkit.tokenizer import Tokenizer

__all__ = ["compare", "ComparisonReport"]


# --------------------------------------------------------------------------------------- compare
def compare(
    tokenizers: Mapping[str, Tokenizer],
    texts: Texts,
    *,
    training_seconds: Mapping[str, float] | None = None,
    measure_speed: bool = True,
    timing_repeats: int = 1,
) -> ComparisonReport:
    """Encode the same ``texts`` with every tokenizer and measure them side by side.

    ``tokenizers`` maps a display name to a :class:`~toolkit.Tokenizer`. ``texts`` is a string, an
    iterable of strings, or a mapping ``{language: texts}``; with a mapping, the report also holds one
    sub-report per language (:attr:`ComparisonReport.languages`, e.g. fertility on Chinese vs
    English). Texts are encoded with ``add_special_tokens=False``: ``[CLS]``/``[SEP]`` added by a
    post-processor are not counted. ``training_seconds`` gives training times by name (otherwise they
    are read from the tokenizer's metadata when recorded there). ``measure_speed`` times
    ``encode_ids`` over all texts, best of ``timing_repeats`` passes.

    >>> from toolkit import Tokenizer
    >>> from algorithms import BPE, WordPiece
    >>> from pretokenizers import Whitespace
    >>> bpe = Tokenizer(BPE({"[UNK]": 0, "h": 1, "u": 2, "g": 3, "hu": 4, "hug": 5},
    ...                     [("h", "u"), ("hu", "g")], unk_token="[UNK]"), pre_tokenizer=Whitespace())
    >>> wp = Tokenizer(WordPiece({"[UNK]": 0, "hug": 1, "##s": 2}), pre_tokenizer=Whitespace())
    >>> r = compare({"BPE": bpe, "WordPiece": wp}, ["hug hugs"], measure_speed=False)
    >>> r["BPE"].tokens, r["BPE"].unk_tokens, r["WordPiece"].tokens, r.identical_words["BPE"]["WordPiece"]
    (3, 1, 3, 0.5)
    """
    toks = _check_tokenizers(tokenizers)
    groups = _grouped_texts(texts)
    if not any(groups.values()):
        raise InputError("compare: no texts to measure")
    if not isinstance(timing_repeats, int) or timing_repeats < 1:
        raise ConfigError(f"compare: timing_repeats must be a positive integer, got {timing_repeats!r}")
    known = dict(training_seconds or {})
    unknown = set(known) - set(toks)
    if unknown:
        raise ConfigError(f"compare: training_seconds names unknown tokenizers: {', '.join(sorted(unknown))}")
    per_group = {lang: _measure_group(toks, items) for lang, items in groups.items()}
    names = list(toks)
    vocab_sets = {name: vocabulary_strings(tok) for name, tok in toks.items()}
    overlap = {a: {b: _jaccard(vocab_sets[a], vocab_sets[b]) for b in names} for a in names}
    all_texts = [t for items in groups.values() for t in items]
    encode_seconds = (
        {name: _time_encoding(tok, all_texts, timing_repeats) for name, tok in toks.items()} if measure_speed else {}
    )
    train = {name: known.get(name, _training_seconds(tok)) for name, tok in toks.items()}
    build = _ReportBuilder(toks, overlap, train)
    if list(groups) == [None]:
        return build(per_group[None], encode_seconds)
    report = build(_GroupTally.total(per_group.values(), names), encode_seconds)
    report.languages = {str(lang): build(group, {}) for lang, group in per_group.items()}
    return report


@dataclass
class _GroupTally:
    """What was counted on one group of texts: the texts, each tokenizer's tally, identical words per pair."""

    stats: TextStats
    tallies: dict[str, _Tally]
    same: dict[tuple[str, str], int]

    @classmethod
    def total(cls, groups: Iterable[_GroupTally], names: Sequence[str]) -> _GroupTally:
        """The sum of several groups (every language together)."""
        out = cls(TextStats(), {name: _Tally() for name in names}, {})
        for group in groups:
            out.stats = out.stats + group.stats
            for name in names:
                out.tallies[name].add(group.tallies[name])
            for key, n in group.same.items():
                out.same[key] = out.same.get(key, 0) + n
        return out


def _measure_group(toks: Mapping[str, Tokenizer], items: list[str]) -> _GroupTally:
    """Measure every tokenizer on one group of texts, and the words each pair cuts identically."""
    probes = [_Probe(name, tok) for name, tok in toks.items()]
    names = [p.name for p in probes]
    stats, words = _text_stats(items)
    tallies = {name: _Tally() for name in names}
    same = {(a, b): 0 for i, a in enumerate(names) for b in names[i + 1:]}
    for text, text_words in zip(items, words):
        segs = {p.name: _measure_text(p, text, text_words, tallies[p.name]) for p in probes}
        for a, b in same:
            same[(a, b)] += sum(x == y for x, y in zip(segs[a], segs[b]))
    return _GroupTally(stats, tallies, same)


@dataclass
class _ReportBuilder:
    """Turns a :class:`_GroupTally` into a :class:`ComparisonReport` (whole texts or one language)."""

    toks: Mapping[str, Tokenizer]
    overlap: dict[str, dict[str, float]]
    train: Mapping[str, float | None]

    def __call__(self, group: _GroupTally, timed: Mapping[str, float]) -> ComparisonReport:
        stats, toks = group.stats, self.toks
        rows = [
            TokenizerMetrics(
                name=name, algorithm=type(toks[name].model).__name__, vocab_size=toks[name].vocab_size, text=stats,
                tokens=t.tokens, split_words=t.split_words, unk_tokens=t.unk_tokens, unk_words=t.unk_words,
                roundtrip_texts=t.roundtrip, token_lengths=dict(sorted(t.lengths.items())),
                encode_seconds=timed.get(name), train_seconds=self.train[name],
            )
            for name, t in group.tallies.items()
        ]
        names = list(toks)
        identical: dict[str, dict[str, float | None]] = {
            a: {b: 1.0 if stats.words else None for b in names} for a in names
        }
        for (a, b), n in group.same.items():
            identical[a][b] = identical[b][a] = _ratio(n, stats.words)
        return ComparisonReport(rows, overlap=self.overlap, identical_words=identical, text=stats)


# ------------------------------------------------------------------------------------ rendering
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


#: Columns of the main table: metric name and formatting kind.
_COLUMNS: list[tuple[str, str]] = [
    ("vocab_size", "int"),
    ("tokens", "int"),
    ("bytes_per_token", "float"),
    ("chars_per_token", "float"),
    ("fertility", "float"),
    ("split_word_share", "pct"),
    ("unk_rate", "pct"),
    ("unk_word_share", "pct"),
    ("mean_token_length", "float"),
    ("roundtrip_share", "pct"),
    ("throughput", "rate"),
    ("train_seconds", "seconds"),
]

#: Metrics shown per language.
_LANGUAGE_METRICS: list[tuple[str, str]] = [
    ("fertility", "float"),
    ("bytes_per_token", "float"),
    ("unk_word_share", "pct"),
]


@dataclass
class _Table:
    """A table of already formatted cells; rendered as text, Markdown or HTML."""

    title: str
    header: list[str]
    rows: list[list[str]]
    align: list[str]  # "l" or "r" per column
    best: list[set[int]] = field(default_factory=list)  # per row: indexes of cells to emphasise (HTML)
    note: str = ""

    def text(self) -> str:
        widths = [max(len(h), *(len(r[i]) for r in self.rows)) for i, h in enumerate(self.header)]

        def line(cells: Sequence[str]) -> str:
            out = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, self.align)]
            return "  ".join(out).rstrip()

        rule = "  ".join("-" * w for w in widths)
        parts = [self.title, line(self.header), rule, *(line(r) for r in self.rows)]
        if self.note:
            parts.append(self.note)
        return "\n".join(parts)

    def markdown(self) -> str:
        def esc(cell: str) -> str:
            return cell.replace("|", "\\|")

        head = "| " + " | ".join(esc(h) for h in self.header) + " |"
        rule = "|" + "|".join("---:" if a == "r" else "---" for a in self.align) + "|"
        body = ["| " + " | ".join(esc(c) for c in r) + " |" for r in self.rows]
        parts = [f"### {self.title}", "", head, rule, *body]
        if self.note:
            parts += ["", self.note]
        return "\n".join(parts)

    def html(self) -> str:
        th = "".join(  # headers wrap (at spaces and after "/"), so a wide table still fits the page
            f'<th class="{"num" if a == "r" else ""}">{html.escape(h).replace("/", "/<wbr>")}</th>'
            for h, a in zip(self.header, self.align)
        )
        body = []
        for r, row in enumerate(self.rows):
            best = self.best[r] if r < len(self.best) else set()
            cells = []
            for i, (cell, a) in enumerate(zip(row, self.align)):
                cls = " ".join(c for c in ("num" if a == "r" else "", "best" if i in best else "") if c)
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
.tkc-report table.tkc td.best{font-weight:700;color:#065f46}
.tkc-report .tkc-note{color:#6b7280;font-size:12px;margin-top:3px}
</style>"""


def _best_cells(rows: Sequence[TokenizerMetrics], metrics: Sequence[str], offset: int) -> list[set[int]]:
    """Per row, the columns holding the best value of a metric that has a "better" direction."""
    best: list[set[int]] = [set() for _ in rows]
    if len(rows) < 2:
        return best
    for col, name in enumerate(metrics):
        direction = METRICS[name][2]
        values = [r.metric(name) for r in rows]
        present = [v for v in values if v is not None]
        if not direction or len(present) < 2 or len(set(present)) < 2:
            continue
        target = max(present) if direction == "higher" else min(present)
        for i, v in enumerate(values):
            if v == target:
                best[i].add(col + offset)
    return best


def _metrics_table(title: str, rows: Sequence[TokenizerMetrics], columns: Sequence[tuple[str, str]],
                   note: str = "") -> _Table:
    shown = [(name, kind) for name, kind in columns if any(r.metric(name) is not None for r in rows)]
    header = ["tokenizer", "algorithm", *(METRICS[n][0] for n, _ in shown)]
    body = [[r.name, r.algorithm, *(_fmt_number(r.metric(n), k) for n, k in shown)] for r in rows]
    align = ["l", "l", *("r" for _ in shown)]
    return _Table(title, header, body, align, _best_cells(rows, [n for n, _ in shown], 2), note)


def _matrix_table(title: str, matrix: Mapping[str, Mapping[str, float | None]], note: str) -> _Table:
    names = list(matrix)
    body = [[a, *(_fmt_number(matrix[a][b], "pct") for b in names)] for a in names]
    return _Table(title, ["", *names], body, ["l", *("r" for _ in names)], note=note)


@dataclass
class ComparisonReport:
    """The result of :func:`compare`: one :class:`TokenizerMetrics` row per tokenizer, plus pairwise tables.

    - ``rows``: the metrics, in the order the tokenizers were given (``report[name]`` finds one);
    - ``overlap[a][b]``: Jaccard similarity of the two vocabularies' decoded token strings;
    - ``identical_words[a][b]``: share of word occurrences both tokenizers cut at the same places;
    - ``text``: what was measured (:class:`TextStats`);
    - ``languages``: ``{language: ComparisonReport}`` when the texts were grouped by language.

    Renderings: ``str(report)`` / :meth:`to_text` (plain text), :meth:`to_markdown`, :meth:`to_dict` /
    :meth:`to_json` (no pandas needed), and ``_repr_html_`` for notebooks.

    >>> from toolkit import Tokenizer
    >>> from algorithms import BPE
    >>> report = compare({"chars": Tokenizer(BPE({"a": 0, "b": 1}, []))}, "ab", measure_speed=False)
    >>> report.to_dict()["tokenizers"][0]["bytes_per_token"]
    1.0
    """

    rows: list[TokenizerMetrics]
    overlap: dict[str, dict[str, float]]
    identical_words: dict[str, dict[str, float | None]]
    text: TextStats
    languages: dict[str, ComparisonReport] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The tokenizer names, in order."""
        return [r.name for r in self.rows]

    def __getitem__(self, name: str) -> TokenizerMetrics:
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(f"no tokenizer named {name!r} in this report; names: {', '.join(self.names)}")

    def __iter__(self) -> Iterator[TokenizerMetrics]:
        return iter(self.rows)

    def __repr__(self) -> str:
        langs = f", languages {', '.join(self.languages)}" if self.languages else ""
        return f"ComparisonReport({', '.join(map(repr, self.names))} on {self.text.texts:,} texts{langs})"

    def __len__(self) -> int:
        return len(self.rows)

    # ---------------------------------------------------------------------------------- data
    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON-compatible data: ``{"text", "tokenizers", "vocab_overlap",
        "identical_words", "languages"}``; ``tokenizers`` is the list of rows (:meth:`TokenizerMetrics.to_dict`)."""
        return {
            "text": self.text.to_dict(),
            "tokenizers": [r.to_dict() for r in self.rows],
            "vocab_overlap": self.overlap,
            "identical_words": self.identical_words,
            "languages": {lang: sub._language_dict() for lang, sub in self.languages.items()},
        }

    def _language_dict(self) -> dict[str, Any]:
        return {"text": self.text.to_dict(), "tokenizers": [r.to_dict() for r in self.rows],
                "identical_words": self.identical_words}

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    # ---------------------------------------------------------------------------------- tables
    def _summary(self) -> str:
        t = self.text
        langs = f" in {len(self.languages)} languages ({', '.join(self.languages)})" if self.languages else ""
        return f"{t.texts:,} texts, {t.bytes:,} UTF-8 bytes, {t.chars:,} characters, {t.words:,} whitespace words{langs}"

    def tables(self) -> list[_Table]:
        """The tables every rendering shows: metrics, per-language metrics, overlap, identical words."""
        out = [_metrics_table("Tokenizers", self.rows, _COLUMNS,
                              "Special tokens added by post-processors are not counted; see docs/compare.md.")]
        if self.languages:
            for metric, kind in _LANGUAGE_METRICS:
                langs = list(self.languages)
                header = ["tokenizer", *langs]
                body = [[name, *(_fmt_number(self.languages[lang][name].metric(metric), kind) for lang in langs)]
                        for name in self.names]
                label, description, _ = METRICS[metric]
                title = f"{label[0].upper()}{label[1:]} by language"
                out.append(_Table(title, header, body, ["l", *("r" for _ in langs)], note=description))
        if len(self.rows) > 1:
            out.append(_matrix_table("Vocabulary overlap (Jaccard)", self.overlap,
                                     "Jaccard similarity |A ∩ B| / |A ∪ B| of the decoded token strings "
                                     "(markers Ġ ▁ ## and special tokens removed)."))
            out.append(_matrix_table("Words tokenized identically", self.identical_words,
                                     "Share of whitespace words both tokenizers cut at the same character positions."))
        return out

    def to_text(self) -> str:
        """Plain-text tables (what the CLI prints)."""
        return "\n\n".join([f"Comparison on {self._summary()}", *(t.text() for t in self.tables())])

    def __str__(self) -> str:
        return self.to_text()

    def to_markdown(self, *, title: str | None = "Tokenizer comparison") -> str:
        """Markdown tables (GitHub flavour), under an optional ``## title``."""
        head = [f"## {title}", ""] if title else []
        return "\n\n".join(["\n".join([*head, f"Measured on {self._summary()}."]), *(t.markdown() for t in self.tables())]) + "\n"

    def _repr_html_(self) -> str:
        body = "".join(t.html() for t in self.tables())
        return f'{_HTML_STYLE}<div class="tkc-report"><div class="tkc-sub">{html.escape(self._summary())}</div>{body}</div>'

    def to_html(self) -> str:
        """The HTML fragment notebooks show (styles included)."""
        return self._repr_html_()

    # ---------------------------------------------------------------------------------- plots
    def plot_token_lengths(self, **options: Any) -> Figure:
        """Histogram of token lengths per tokenizer (:func:`toolkit.analysis.plots.plot_token_lengths`)."""
        from toolkit.analysis.plots import plot_token_lengths

        return plot_token_lengths(self, **options)

    def plot_languages(self, **options: Any) -> Figure:
        """A metric per language and tokenizer (:func:`toolkit.analysis.plots.plot_languages`)."""
        from toolkit.analysis.plots import plot_languages

        return plot_languages(self, **options)
