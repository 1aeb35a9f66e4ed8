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
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.analysis.metrics import (
    DEFAULT_RENYI_ALPHA,
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
    check_alpha,
    check_bool,
    metric_label,
    renyi_alpha_of,
    vocabulary_strings,
)
from toolkit.analysis.tables import _HTML_STYLE, _fmt_number, _Table
from toolkit.analysis.vocabulary import UnreachableReport, never_used, unreachable_tokens
from toolkit.errors import ConfigError, InputError, ToolkitError

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
    renyi_alpha: float = DEFAULT_RENYI_ALPHA,
    reference: str | None = None,
    check_unreachable: bool = True,
) -> ComparisonReport:
    """Encode the same ``texts`` with every tokenizer and measure them side by side.

    ``tokenizers`` maps a display name to a :class:`~toolkit.Tokenizer` or to a tokenizer file of any
    format :func:`~toolkit.interop.files.load_tokenizer` reads (ours, Hugging Face ``tokenizer.json``,
    ``.tiktoken``, GPT-2 ``vocab.json`` + ``merges.txt``, BERT ``vocab.txt``). ``texts`` is a string, an
    iterable of strings, or a mapping ``{language: texts}``; with a mapping, the report also holds one
    sub-report per language (:attr:`ComparisonReport.languages`, e.g. fertility on Chinese vs
    English). Texts are encoded with ``add_special_tokens=False``: ``[CLS]``/``[SEP]`` added by a
    post-processor are not counted. ``training_seconds`` gives training times by name (otherwise they
    are read from the tokenizer's metadata when recorded there). ``measure_speed`` times
    ``encode_ids`` over all texts, best of ``timing_repeats`` passes.

    The metrics of the literature: ``renyi_efficiency`` of order ``renyi_alpha`` and
    ``shannon_efficiency`` (Zouhar et al. 2023), ``vocab_utilization`` (the tokens never used are in
    :attr:`ComparisonReport.never_used`), ``unreachable_tokens`` (Land & Bartolo 2024; skipped with
    ``check_unreachable=False``, it encodes every token once) and, when ``reference`` names a language
    of parallel texts (the same number of texts per language, text *i* a translation of text *i*),
    ``parity`` (Petrov et al. 2023): each language's tokens divided by the reference language's.

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
    if not any(not text.isspace() for group in groups.values() for text in group if text):
        raise InputError("compare: the texts hold only whitespace, so there is nothing to measure; "
                         "give texts with words")
    alpha = check_alpha(renyi_alpha, "compare: renyi_alpha")
    check_bool(measure_speed, "compare: measure_speed")
    check_bool(check_unreachable, "compare: check_unreachable")
    _check_parallel(groups, reference)
    if not isinstance(timing_repeats, int) or isinstance(timing_repeats, bool) or timing_repeats < 1:
        raise ConfigError(f"compare: timing_repeats must be a positive integer, got {timing_repeats!r}")
    if training_seconds is not None and not isinstance(training_seconds, Mapping):
        raise ConfigError("compare: training_seconds must be a mapping of tokenizer names to seconds, got "
                          f"{type(training_seconds).__name__}")
    known = dict(training_seconds or {})
    bad = {name: v for name, v in known.items()
           if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < math.inf}
    if bad:
        name, value = next(iter(bad.items()))
        raise ConfigError(f"compare: training_seconds[{name!r}] must be a finite number of seconds >= 0, got {value!r}")
    unknown = set(known) - set(toks)
    if unknown:
        raise ConfigError(f"compare: training_seconds names unknown tokenizers: {', '.join(sorted(unknown))}")
    per_group = {lang: _measure_group(toks, items, "texts" if lang is None else f"texts[{lang!r}]")
                 for lang, items in groups.items()}
    names = list(toks)
    vocab_sets = {name: vocabulary_strings(tok) for name, tok in toks.items()}
    overlap = {a: {b: _jaccard(vocab_sets[a], vocab_sets[b]) for b in names} for a in names}
    all_texts = [t for items in groups.values() for t in items]
    encode_seconds = (
        {name: _time_encoding(tok, all_texts, timing_repeats) for name, tok in toks.items()} if measure_speed else {}
    )
    train = {name: known.get(name, _training_seconds(tok)) for name, tok in toks.items()}
    unreachable = {name: unreachable_tokens(tok) for name, tok in toks.items()} if check_unreachable else {}
    build = _ReportBuilder(toks, overlap, train, alpha, unreachable)
    if list(groups) == [None]:
        return build(per_group[None], encode_seconds)
    ref = {name: per_group[reference].tallies[name].tokens for name in names} if reference is not None else {}
    report = build(_GroupTally.total(per_group.values(), names), encode_seconds,
                   {name: n * len(groups) for name, n in ref.items()})
    report.languages = {str(lang): build(group, {}, ref) for lang, group in per_group.items()}
    report.reference = reference
    return report


def _check_parallel(groups: Mapping[str | None, list[str]], reference: str | None) -> None:
    """With a ``reference`` language, the texts must be parallel: grouped, the same number per language."""
    if reference is None:
        return
    if not isinstance(reference, str) or list(groups) == [None]:
        raise ConfigError("compare: reference names a language of parallel texts: "
                          "compare(toks, {'en': [...], 'fr': [...]}, reference='en')")
    if reference not in groups:
        langs = ", ".join(map(str, groups))
        raise ConfigError(f"compare: reference {reference!r} is not one of the languages ({langs})")
    sizes = {lang: len(items) for lang, items in groups.items()}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{lang}: {n}" for lang, n in sizes.items())
        raise InputError(f"compare: parity needs parallel texts, the same number per language (text i of each "
                         f"language translating text i of the others); got {listed}")


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


def _measure_group(toks: Mapping[str, Tokenizer], items: list[str], where: str = "texts") -> _GroupTally:
    """Measure every tokenizer on one group of texts, and the words each pair cuts identically.

    A tokenizer that cannot encode a text (an untrained model, a character outside a vocabulary
    without an unknown token) raises its error prefixed with its name and the text's index."""
    probes = [_Probe(name, tok) for name, tok in toks.items()]
    names = [p.name for p in probes]
    stats, words = _text_stats(items)
    tallies = {name: _Tally() for name in names}
    same = {(a, b): 0 for i, a in enumerate(names) for b in names[i + 1:]}
    for i, (text, text_words) in enumerate(zip(items, words)):
        segs = {}
        for p in probes:
            try:
                segs[p.name] = _measure_text(p, text, text_words, tallies[p.name])
            except ToolkitError as exc:  # which of the tokenizers, on which text: a notebook compares several
                raise type(exc)(f"compare: {p.name!r} on {where}[{i}]: {exc}") from exc
        for a, b in same:
            same[(a, b)] += sum(x == y for x, y in zip(segs[a], segs[b]))
    return _GroupTally(stats, tallies, same)


@dataclass
class _ReportBuilder:
    """Turns a :class:`_GroupTally` into a :class:`ComparisonReport` (whole texts or one language)."""

    toks: Mapping[str, Tokenizer]
    overlap: dict[str, dict[str, float]]
    train: Mapping[str, float | None]
    alpha: float
    unreachable: Mapping[str, UnreachableReport]

    def __call__(self, group: _GroupTally, timed: Mapping[str, float],
                 reference_tokens: Mapping[str, int] | None = None) -> ComparisonReport:
        stats, toks, ref = group.stats, self.toks, reference_tokens or {}
        rows = [
            TokenizerMetrics(
                name=name, algorithm=type(toks[name].model).__name__, vocab_size=toks[name].vocab_size, text=stats,
                tokens=t.tokens, split_words=t.split_words, unk_tokens=t.unk_tokens, unk_words=t.unk_words,
                roundtrip_texts=t.roundtrip, token_lengths=dict(sorted(t.lengths.items())),
                encode_seconds=timed.get(name), train_seconds=self.train[name], token_counts=t.ids,
                renyi_alpha=self.alpha, reference_tokens=ref.get(name),
                unreachable=self.unreachable[name].count if name in self.unreachable else None,
            )
            for name, t in group.tallies.items()
        ]
        names = list(toks)
        identical: dict[str, dict[str, float | None]] = {
            a: {b: 1.0 if stats.words else None for b in names} for a in names
        }
        for (a, b), n in group.same.items():
            identical[a][b] = identical[b][a] = _ratio(n, stats.words)
        unused = {name: never_used(toks[name], t.ids) for name, t in group.tallies.items()}
        return ComparisonReport(rows, overlap=self.overlap, identical_words=identical, text=stats,
                                never_used=unused, unreachable=dict(self.unreachable))


# ------------------------------------------------------------------------------------ rendering
#: Columns of the main table (how well each tokenizer compresses and covers the text) and of the second
#: one (its vocabulary, round trip and speed): metric name and formatting kind. Two tables, not one,
#: so that each fits a notebook page.
_COLUMNS: list[tuple[str, str]] = [
    ("tokens", "int"),
    ("bytes_per_token", "float"),
    ("chars_per_token", "float"),
    ("fertility", "float"),
    ("split_word_share", "pct"),
    ("unk_rate", "pct"),
    ("unk_word_share", "pct"),
    ("mean_token_length", "float"),
    ("parity", "float"),
]
_VOCAB_COLUMNS: list[tuple[str, str]] = [
    ("vocab_size", "int"),
    ("renyi_efficiency", "float"),
    ("shannon_efficiency", "float"),
    ("vocab_utilization", "pct"),
    ("unreachable_tokens", "int"),
    ("roundtrip_share", "pct"),
    ("throughput", "rate"),
    ("train_seconds", "seconds"),
]

#: Metrics shown per language (``parity`` only with a reference language).
_LANGUAGE_METRICS: list[tuple[str, str]] = [
    ("fertility", "float"),
    ("bytes_per_token", "float"),
    ("unk_word_share", "pct"),
    ("renyi_efficiency", "float"),
    ("vocab_utilization", "pct"),
    ("parity", "float"),
]

#: Tokens listed per tokenizer in the never-used and unreachable tables (every one is in ``to_dict()``).
EXAMPLES = 8


def _best_of(values: Sequence[float | int | None], direction: str) -> set[int]:
    """Indexes of the best values (``direction`` of :data:`METRICS`); none when fewer than 2 differ."""
    present = [v for v in values if v is not None]
    if not direction or len(present) < 2 or len(set(present)) < 2:
        return set()
    if direction == "closer to 1":  # 1.5 and 2/3 tie: |log| equal up to rounding
        target = min(abs(math.log(v)) if v > 0 else math.inf for v in present)
        return {i for i, v in enumerate(values)
                if v is not None and v > 0 and math.isclose(abs(math.log(v)), target, rel_tol=1e-9, abs_tol=1e-12)}
    goal = max(present) if direction == "higher" else min(present)
    return {i for i, v in enumerate(values) if v == goal}


def _best_cells(rows: Sequence[TokenizerMetrics], metrics: Sequence[str], offset: int) -> list[set[int]]:
    """Per row, the columns holding the best value of a metric that has a "better" direction."""
    best: list[set[int]] = [set() for _ in rows]
    for col, name in enumerate(metrics):
        for i in _best_of([r.metric(name) for r in rows], METRICS[name][2]):
            best[i].add(col + offset)
    return best


def _metrics_table(title: str, rows: Sequence[TokenizerMetrics], columns: Sequence[tuple[str, str]],
                   note: str = "") -> _Table:
    shown = [(name, kind) for name, kind in columns if any(r.metric(name) is not None for r in rows)]
    alpha = renyi_alpha_of(rows)
    header = ["tokenizer", "algorithm", *(metric_label(n, alpha) for n, _ in shown)]
    body = [[r.name, r.algorithm, *(_fmt_number(r.metric(n), k) for n, k in shown)] for r in rows]
    align = ["l", "l", *("r" for _ in shown)]
    return _Table(title, header, body, align, _best_cells(rows, [n for n, _ in shown], 2), note)


def _matrix_table(title: str, matrix: Mapping[str, Mapping[str, float | None]], note: str) -> _Table:
    names = list(matrix)
    body = [[a, *(_fmt_number(matrix[a][b], "pct") for b in names)] for a in names]
    return _Table(title, ["", *names], body, ["l", *("r" for _ in names)], note=note)


def _copied(matrix: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """A copy of a pairwise matrix (the report's own is shared with its per-language reports)."""
    return {a: dict(row) for a, row in matrix.items()}


@dataclass
class ComparisonReport:
    """The result of :func:`compare`: one :class:`TokenizerMetrics` row per tokenizer, plus pairwise tables.

    - ``rows``: the metrics, in the order the tokenizers were given (``report[name]`` finds one);
    - ``overlap[a][b]``: Jaccard similarity of the two vocabularies' decoded token strings;
    - ``identical_words[a][b]``: share of word occurrences both tokenizers cut at the same places;
    - ``text``: what was measured (:class:`TextStats`);
    - ``languages``: ``{language: ComparisonReport}`` when the texts were grouped by language;
    - ``never_used[name]``: the tokens (id order) that never occur in the texts;
    - ``unreachable[name]``: the :class:`~toolkit.analysis.vocabulary.UnreachableReport` of each tokenizer;
    - ``reference``: the reference language of ``parity``, if any.

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
    never_used: dict[str, list[str]] = field(default_factory=dict)
    unreachable: dict[str, UnreachableReport] = field(default_factory=dict)
    reference: str | None = None

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
        "identical_words", "languages"}``; ``tokenizers`` is the list of rows (:meth:`TokenizerMetrics.to_dict`).
        The data is a copy: editing it (say, blanking the matrices' diagonal for display) leaves the
        report as it was."""
        return {
            "text": self.text.to_dict(),
            "tokenizers": [r.to_dict() for r in self.rows],
            "vocab_overlap": _copied(self.overlap),
            "identical_words": _copied(self.identical_words),
            "never_used": {name: list(tokens) for name, tokens in self.never_used.items()},
            "unreachable": {name: u.to_dict() for name, u in self.unreachable.items()},
            "reference": self.reference,
            "languages": {lang: sub._language_dict() for lang, sub in self.languages.items()},
        }

    def _language_dict(self) -> dict[str, Any]:
        return {"text": self.text.to_dict(), "tokenizers": [r.to_dict() for r in self.rows],
                "identical_words": _copied(self.identical_words)}

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
                              "Special tokens added by post-processors are not counted; see docs/compare.md."),
               _metrics_table("Vocabulary, round trip and speed", self.rows, _VOCAB_COLUMNS)]
        if self.languages:
            out += [self._language_table(metric, kind) for metric, kind in _LANGUAGE_METRICS
                    if metric != "parity" or self.reference is not None]
        out.append(self._never_used_table())
        if self.unreachable:
            out.append(self._unreachable_table())
        if len(self.rows) > 1:
            out.append(_matrix_table("Vocabulary overlap (Jaccard)", self.overlap,
                                     "Jaccard similarity |A ∩ B| / |A ∪ B| of the decoded token strings "
                                     "(markers Ġ ▁ ## and special tokens removed)."))
            out.append(_matrix_table("Words tokenized identically", self.identical_words,
                                     "Share of whitespace words both tokenizers cut at the same character positions."))
        return out

    def _language_table(self, metric: str, kind: str) -> _Table:
        """``metric`` for each tokenizer (rows) and language (columns); the best per language marked."""
        langs = list(self.languages)
        values = [[self.languages[lang][name].metric(metric) for lang in langs] for name in self.names]
        body = [[name, *(_fmt_number(v, kind) for v in row)] for name, row in zip(self.names, values)]
        best: list[set[int]] = [set() for _ in self.names]
        for j in range(len(langs)):
            for i in _best_of([row[j] for row in values], METRICS[metric][2]):
                best[i].add(j + 1)
        _, description, _ = METRICS[metric]
        label = metric_label(metric, renyi_alpha_of(self.rows))
        if metric == "parity":
            description = f"tokens / tokens of the same texts in {self.reference} (Petrov et al. 2023); closer to 1 is better"
        title = f"{label[0].upper()}{label[1:]} by language"
        return _Table(title, ["tokenizer", *langs], body, ["l", *("r" for _ in langs)], best, description)

    def _never_used_table(self) -> _Table:
        body = []
        for row in self.rows:
            tokens = self.never_used.get(row.name, [])
            shown = " ".join(repr(t) for t in tokens[:EXAMPLES]) + (" …" if len(tokens) > EXAMPLES else "")
            body.append([row.name, f"{len(tokens):,}", _fmt_number(_ratio(len(tokens), row.vocab_size), "pct"), shown])
        return _Table("Never-used tokens", ["tokenizer", "never used", "share", "first by id"], body,
                      ["l", "r", "r", "w"], note="Vocabulary tokens that occur nowhere in the texts "
                      "(special tokens included); every one is in to_dict()['never_used'].")

    def _unreachable_table(self) -> _Table:
        body = []
        for row in self.rows:
            u = self.unreachable.get(row.name)
            if u is None:
                continue
            shown = "; ".join(str(x) for x in u.unreachable[:EXAMPLES]) + (" …" if u.count > EXAMPLES else "")
            body.append([row.name, f"{u.checked:,}", f"{u.count:,}", f"{u.partial:,}", shown])
        return _Table("Unreachable tokens", ["tokenizer", "checked", "unreachable", "partial UTF-8", "examples"], body,
                      ["l", "r", "r", "r", "w"], note="token → decoded text → what that text encodes to "
                      "(Land & Bartolo 2024); partial UTF-8 byte tokens and special tokens are not checked.")

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
