"""Side-by-side comparison of tokenizers: metrics, vocabulary overlap, vocabulary-size sweeps, reports.

This module owns the comparison tools (``docs/compare.md`` defines every metric precisely):

- :func:`compare` encodes the same texts with several tokenizers and returns a
  :class:`ComparisonReport`: per tokenizer, vocabulary size, tokens, bytes and characters per token,
  fertility (tokens per whitespace-separated word), share of words split into 2+ tokens, unknown-token
  rate, share of words touched by an unknown token, mean token length, round-trip share, encode
  throughput and training time when known; between tokenizers, vocabulary overlap (Jaccard on decoded
  token strings) and the share of words tokenized identically. Texts may be grouped by language.
- :func:`sweep` trains each pipeline at several vocabulary sizes on one corpus, counting the corpus
  once per distinct normalizer + pre-tokenizer, and collects the same metrics (:class:`SweepResult`)
  for compression-vs-vocabulary-size curves.
- Reports render as a plain-text table (``str(report)``), Markdown, a pandas-free dict / JSON, and
  HTML in notebooks (``_repr_html_``). Plots live in :mod:`toolkit.analysis.plots` (matplotlib, optional extra
  ``compare``); the token view in :mod:`toolkit.analysis.visualize`; the ``compare`` command in
  :mod:`toolkit.cli.compare` (registered through :func:`register_cli`).

>>> from toolkit import Tokenizer
>>> from algorithms import BPE
>>> from pretokenizers import Whitespace
>>> tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=Whitespace())
>>> report = compare({"toy": tok}, ["ab ab b"])
>>> report["toy"].tokens, report["toy"].fertility, report["toy"].bytes_per_token
(3, 1.0, 2.3333333333333335)

``toolkit.analysis.metrics`` is this module *and* callable: ``toolkit.analysis.metrics(tokenizers, texts)`` is
:func:`compare`. Importing this module is cheap: the toolkit, matplotlib and the CLI code are
imported inside the functions that need them.
"""

from __future__ import annotations

import html
import json
import math
import re
import sys
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, InputError, TrainingError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from toolkit.training.corpus import CorpusSource
    from toolkit.interfaces import Trainer
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "compare",
    "sweep",
    "ComparisonReport",
    "TokenizerMetrics",
    "TextStats",
    "SweepPoint",
    "SweepResult",
    "token_surface",
    "surface_function",
    "vocabulary_strings",
    "METRICS",
    "register_cli",
]

Texts = str | Iterable[str] | Mapping[str, str | Iterable[str]]

_WORD = re.compile(r"\S+")  # whitespace-separated words: exactly the pieces of str.split()

#: The derived metrics of :class:`TokenizerMetrics`: name → (short label, description, better).
#: ``better`` is ``"higher"``, ``"lower"`` or ``""`` (neither). Plots and the CLI accept these names.
METRICS: dict[str, tuple[str, str, str]] = {
    "vocab_size": ("vocab", "tokens in the vocabulary, special tokens included", ""),
    "tokens": ("tokens", "tokens produced for all texts (no post-processor specials)", "lower"),
    "bytes_per_token": ("bytes/token", "UTF-8 bytes of the texts / tokens (compression)", "higher"),
    "chars_per_token": ("chars/token", "characters of the texts / tokens", "higher"),
    "fertility": ("fertility", "tokens / whitespace-separated words", "lower"),
    "split_word_share": ("split words", "share of words covered by 2 or more tokens", "lower"),
    "unk_rate": ("[UNK] tokens", "share of tokens that are the unknown token", "lower"),
    "unk_word_share": ("[UNK] words", "share of words touched by an unknown token", "lower"),
    "mean_token_length": ("mean len", "mean characters per token (decoded, unknown tokens excluded)", ""),
    "roundtrip_share": ("round trip", "share of texts with decode(encode(text)) == text", "higher"),
    "throughput": ("encode", "UTF-8 bytes encoded per second (encode_ids)", "higher"),
    "train_seconds": ("train", "training time in seconds, when known", "lower"),
}


# ------------------------------------------------------------------------------------- surfaces
def _component_types(data: Any) -> Iterator[dict[str, Any]]:
    """Every component dict inside a serialized component (``Sequence`` children included)."""
    if isinstance(data, dict):
        if "type" in data:
            yield data
        for value in data.values():
            yield from _component_types(value)
    elif isinstance(data, list):
        for value in data:
            yield from _component_types(value)


def surface_function(tokenizer: Tokenizer) -> Callable[[str], bytes | None]:
    """A function giving the bytes each token string of ``tokenizer`` stands for (see :func:`token_surface`).

    The rules are chosen once from the pipeline: byte-level tokens (a ``ByteLevelBPE`` model, or a
    ``ByteLevel`` pre-tokenizer or decoder) are mapped back to their bytes; the model's
    ``continuing_subword_prefix`` (``##``) and ``end_of_word_suffix`` are removed; a ``Metaspace``
    replacement character (``▁``) stands for a space. Special tokens (the unknown token included)
    have no surface: ``None``.

    >>> from toolkit import Tokenizer
    >>> from algorithms import WordPiece
    >>> f = surface_function(Tokenizer(WordPiece({"[UNK]": 0, "hug": 1, "##s": 2})))
    >>> f("##s"), f("hug"), f("[UNK]")
    (b's', b'hug', None)
    """
    from toolkit.bytelevel import from_byte_level

    model = tokenizer.model
    specials = set(model.special_tokens)
    unk = getattr(model, "unk_token", None)
    if unk:
        specials.add(unk)
    prefix = getattr(model, "continuing_subword_prefix", None) or ""
    suffix = getattr(model, "end_of_word_suffix", None) or ""
    parts = [tokenizer.pre_tokenizer, tokenizer.decoder]
    types_ = [c for p in parts if p is not None for c in _component_types(p.to_dict())]
    byte_level = type(model).__name__ == "ByteLevelBPE" or any(c["type"] == "ByteLevel" for c in types_)
    replacement = next((c.get("replacement", "▁") for c in types_ if c["type"] == "Metaspace"), None)

    def surface(token: str) -> bytes | None:
        if token in specials:
            return None
        if prefix and token.startswith(prefix) and len(token) > len(prefix):
            token = token[len(prefix):]
        if suffix and token.endswith(suffix) and len(token) > len(suffix):
            token = token[: -len(suffix)]
        if byte_level:
            try:
                return from_byte_level(token)
            except ValueError:
                pass  # a token outside the byte-level alphabet (an added token): its own text
        if replacement:
            token = token.replace(replacement, " ")
        return token.encode("utf-8", "surrogatepass")

    return surface


def token_surface(tokenizer: Tokenizer, token: str) -> bytes | None:
    """The bytes of text ``token`` stands for, markers removed; ``None`` for special/unknown tokens.

    ``Ġthe`` → ``b" the"`` (byte-level), ``##ing`` → ``b"ing"`` (WordPiece), ``▁the`` → ``b" the"``
    (Metaspace). This is the "decoded token string" that vocabulary overlap and token lengths use.

    >>> from toolkit.training.presets import gpt2_style
    >>> token_surface(gpt2_style()[0], "ĠcafÃ©")
    b' caf\\xc3\\xa9'
    """
    return surface_function(tokenizer)(token)


def _char_length(surface: bytes) -> int:
    """Characters of a surface; an incomplete UTF-8 sequence (part of a character) counts as one."""
    return len(surface.decode("utf-8", "replace"))


def vocabulary_strings(tokenizer: Tokenizer) -> set[bytes]:
    """The decoded token strings of the vocabulary, the set vocabulary overlap compares.

    Each ordinary token's surface (:func:`token_surface`) with surrounding ASCII whitespace removed,
    so ``Ġthe``, ``▁the``, ``the`` and ``##the`` are all ``b"the"``; a token that is only whitespace
    (``Ġ``, ``ĊĊ``) keeps its whitespace. Special and unknown tokens are left out.

    >>> from toolkit import Tokenizer
    >>> from algorithms import WordPiece
    >>> sorted(vocabulary_strings(Tokenizer(WordPiece({"[UNK]": 0, "hug": 1, "##hug": 2, "##s": 3}))))
    [b'hug', b's']
    """
    surface = surface_function(tokenizer)
    out: set[bytes] = set()
    for token in tokenizer.get_vocab():
        s = surface(token)
        if s is not None:
            out.add(s.strip() or s)
    return out


def _jaccard(a: set[bytes], b: set[bytes]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 1.0


# -------------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class TextStats:
    """What was measured: number of texts, their UTF-8 bytes, characters and whitespace words."""

    texts: int = 0
    bytes: int = 0
    chars: int = 0
    words: int = 0

    def __add__(self, other: TextStats) -> TextStats:
        return TextStats(self.texts + other.texts, self.bytes + other.bytes, self.chars + other.chars,
                         self.words + other.words)

    def to_dict(self) -> dict[str, int]:
        """``{"texts": ..., "bytes": ..., "chars": ..., "words": ...}``."""
        return {"texts": self.texts, "bytes": self.bytes, "chars": self.chars, "words": self.words}


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


@dataclass(frozen=True)
class TokenizerMetrics:
    """The measurements of one tokenizer on one set of texts: raw counts and derived metrics.

    The counts are exact integers; the derived metrics (properties) divide them and are ``None``
    when the denominator is zero. ``token_lengths`` maps a token length in characters to the number
    of tokens of that length (unknown tokens excluded). See ``docs/compare.md`` for the definitions.

    >>> m = TokenizerMetrics("x", "BPE", 10, TextStats(1, 8, 8, 2), tokens=4, split_words=1)
    >>> m.bytes_per_token, m.fertility, m.split_word_share
    (2.0, 2.0, 0.5)
    """

    name: str
    algorithm: str
    vocab_size: int
    text: TextStats
    tokens: int = 0
    split_words: int = 0
    unk_tokens: int = 0
    unk_words: int = 0
    roundtrip_texts: int = 0
    token_lengths: Mapping[int, int] = field(default_factory=dict)
    encode_seconds: float | None = None
    train_seconds: float | None = None

    # The derived metrics ------------------------------------------------------------------------
    @property
    def bytes_per_token(self) -> float | None:
        """UTF-8 bytes of the texts per token (compression: higher means fewer tokens)."""
        return _ratio(self.text.bytes, self.tokens)

    @property
    def chars_per_token(self) -> float | None:
        """Characters (code points) of the texts per token."""
        return _ratio(self.text.chars, self.tokens)

    @property
    def fertility(self) -> float | None:
        """Tokens per whitespace-separated word (``len(text.split())``)."""
        return _ratio(self.tokens, self.text.words)

    @property
    def split_word_share(self) -> float | None:
        """Share of words whose characters are covered by two or more tokens."""
        return _ratio(self.split_words, self.text.words)

    @property
    def unk_rate(self) -> float | None:
        """Share of tokens that are the model's unknown token (always 0 for byte-level BPE)."""
        return _ratio(self.unk_tokens, self.tokens)

    @property
    def unk_word_share(self) -> float | None:
        """Share of words touched by at least one unknown token."""
        return _ratio(self.unk_words, self.text.words)

    @property
    def mean_token_length(self) -> float | None:
        """Mean length in characters of the tokens' decoded strings (unknown tokens excluded)."""
        n = sum(self.token_lengths.values())
        return _ratio(sum(k * v for k, v in self.token_lengths.items()), n)

    @property
    def roundtrip_share(self) -> float | None:
        """Share of texts that decode back exactly: ``decode(encode(text)) == text``."""
        return _ratio(self.roundtrip_texts, self.text.texts)

    @property
    def throughput(self) -> float | None:
        """UTF-8 bytes per second of ``encode_ids`` over the texts; ``None`` when not measured."""
        if self.encode_seconds is None or self.encode_seconds <= 0:
            return None
        return self.text.bytes / self.encode_seconds

    def metric(self, name: str) -> float | int | None:
        """A metric by its name in :data:`METRICS` (``"bytes_per_token"``, ``"fertility"``...)."""
        if name not in METRICS:
            raise ConfigError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
        return getattr(self, name)

    def to_dict(self) -> dict[str, Any]:
        """Counts and derived metrics as JSON-compatible values (``None`` where undefined)."""
        return {
            "name": self.name,
            "algorithm": self.algorithm,
            **{k: self.metric(k) for k in METRICS},
            "counts": {
                **self.text.to_dict(),
                "tokens": self.tokens,
                "split_words": self.split_words,
                "unk_tokens": self.unk_tokens,
                "unk_words": self.unk_words,
                "roundtrip_texts": self.roundtrip_texts,
            },
            "token_lengths": {str(k): v for k, v in sorted(self.token_lengths.items())},
            "encode_seconds": self.encode_seconds,
        }


class _Tally:
    """Running counts of one tokenizer over texts (see :func:`_measure_text`)."""

    __slots__ = ("tokens", "split_words", "unk_tokens", "unk_words", "roundtrip", "lengths")

    def __init__(self) -> None:
        self.tokens = self.split_words = self.unk_tokens = self.unk_words = self.roundtrip = 0
        self.lengths: Counter[int] = Counter()

    def add(self, other: _Tally) -> None:
        self.tokens += other.tokens
        self.split_words += other.split_words
        self.unk_tokens += other.unk_tokens
        self.unk_words += other.unk_words
        self.roundtrip += other.roundtrip
        self.lengths.update(other.lengths)


class _Probe:
    """One tokenizer prepared for measuring: unknown id and a per-id token-length cache."""

    def __init__(self, name: str, tokenizer: Tokenizer) -> None:
        self.name = name
        self.tokenizer = tokenizer
        unk = getattr(tokenizer.model, "unk_token", None)
        self.unk_id = tokenizer.token_to_id(unk) if unk else None
        self.surface = surface_function(tokenizer)
        self._lengths: dict[int, int | None] = {}

    def length(self, token_id: int) -> int | None:
        try:
            return self._lengths[token_id]
        except KeyError:
            token = self.tokenizer.id_to_token(token_id)
            s = self.surface(token) if token is not None else None
            n = None if s is None else _char_length(s)
            self._lengths[token_id] = n
            return n


# A word's segmentation: the token spans clipped to the word, each flagged when it is the unknown token.
Segmentation = tuple[tuple[int, int, bool], ...]


def _measure_text(probe: _Probe, text: str, words: list[tuple[int, int]], tally: _Tally) -> list[Segmentation]:
    """Encode ``text`` once; add its counts to ``tally``; return each word's segmentation."""
    tok = probe.tokenizer
    enc = tok.encode(text, add_special_tokens=False)
    ends = [e for _, e in words]
    segs: list[list[tuple[int, int, bool]]] = [[] for _ in words]
    unk_id = probe.unk_id
    lengths = tally.lengths
    for token_id, (s, e) in zip(enc.ids, enc.offsets):
        tally.tokens += 1
        is_unk = token_id == unk_id
        if is_unk:
            tally.unk_tokens += 1
        else:
            n = probe.length(token_id)
            if n is not None:
                lengths[n] += 1
        # The words this token covers: the first word ending after s, then on while words start before e.
        # A token covering no text (e.g. Metaspace's "▁" at (0, 0)) belongs to the word starting there.
        i = bisect_right(ends, s)  # word ends increase
        while i < len(words):
            ws, we = words[i]
            if e > s:
                if ws >= e:
                    break
                segs[i].append((max(s, ws), min(e, we), is_unk))
            else:
                if ws <= s < we:
                    segs[i].append((s, s, is_unk))
                break
            i += 1
    for seg in segs:
        if len(seg) >= 2:
            tally.split_words += 1
        if any(flag for _, _, flag in seg):
            tally.unk_words += 1
    if tok.decode(enc.ids) == text:
        tally.roundtrip += 1
    return [tuple(seg) for seg in segs]


def _time_encoding(tokenizer: Tokenizer, texts: Sequence[str], repeats: int) -> float:
    """Best wall time of ``repeats`` passes of ``encode_ids`` over ``texts`` (caches already warm)."""
    encode = tokenizer.encode_ids
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        for text in texts:
            encode(text, add_special_tokens=False)
        best = min(best, time.perf_counter() - t0)
    return best


def _training_seconds(tokenizer: Tokenizer) -> float | None:
    """Training time recorded in the tokenizer's metadata (config training, sweeps), if any."""
    training = tokenizer.metadata.get("training")
    if isinstance(training, Mapping):
        for where in (training.get("stats"), training):
            if isinstance(where, Mapping):
                value = where.get("training_seconds")
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    return float(value)
    return None


# --------------------------------------------------------------------------------------- inputs
def _check_tokenizers(tokenizers: Any) -> dict[str, Tokenizer]:
    from toolkit.tokenizer import Tokenizer

    if isinstance(tokenizers, Tokenizer):
        raise ConfigError("compare: pass a mapping of names to tokenizers, e.g. {'BPE': tok}")
    if not isinstance(tokenizers, Mapping) or not tokenizers:
        raise ConfigError("compare: tokenizers must be a non-empty mapping of names to Tokenizer objects")
    out: dict[str, Tokenizer] = {}
    for name, tok in tokenizers.items():
        if not isinstance(name, str) or not name:
            raise ConfigError(f"compare: tokenizer names must be non-empty strings, got {name!r}")
        if not isinstance(tok, Tokenizer):
            raise ConfigError(f"compare: {name!r} must be a Tokenizer, got {type(tok).__name__}")
        out[name] = tok
    return out


def _text_list(texts: Any, where: str) -> list[str]:
    if isinstance(texts, str):
        return [texts]
    if isinstance(texts, (bytes, bytearray)):
        raise InputError(f"{where}: texts must be str, not bytes; decode them first")
    try:
        items = list(texts)
    except TypeError:
        raise InputError(f"{where}: texts must be a string or an iterable of strings, got {type(texts).__name__}") from None
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise InputError(f"{where}[{i}]: texts must be strings, got {type(t).__name__}")
    return items


def _grouped_texts(texts: Texts) -> dict[str | None, list[str]]:
    """``{language: texts}``; a plain iterable is one group named ``None``."""
    if isinstance(texts, Mapping):
        if not texts:
            raise InputError("compare: the texts mapping is empty")
        groups: dict[str | None, list[str]] = {}
        for lang, items in texts.items():
            if not isinstance(lang, str) or not lang:
                raise InputError(f"compare: language names must be non-empty strings, got {lang!r}")
            groups[lang] = _text_list(items, f"texts[{lang!r}]")
        return groups
    return {None: _text_list(texts, "texts")}


def _text_stats(texts: Sequence[str]) -> tuple[TextStats, list[list[tuple[int, int]]]]:
    words = [[m.span() for m in _WORD.finditer(t)] for t in texts]
    stats = TextStats(len(texts), sum(len(t.encode("utf-8", "surrogatepass")) for t in texts),
                      sum(len(t) for t in texts), sum(len(w) for w in words))
    return stats, words


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
    probes = [_Probe(name, tok) for name, tok in toks.items()]
    names = [p.name for p in probes]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]

    per_group: dict[str | None, tuple[TextStats, dict[str, _Tally], dict[tuple[str, str], int]]] = {}
    for lang, items in groups.items():
        stats, words = _text_stats(items)
        tallies = {name: _Tally() for name in names}
        same = dict.fromkeys(pairs, 0)
        for text, text_words in zip(items, words):
            segs = {p.name: _measure_text(p, text, text_words, tallies[p.name]) for p in probes}
            for a, b in same:
                same[(a, b)] += sum(x == y for x, y in zip(segs[a], segs[b]))
        per_group[lang] = (stats, tallies, same)

    vocab_sets = {name: vocabulary_strings(tok) for name, tok in toks.items()}
    overlap = {a: {b: _jaccard(vocab_sets[a], vocab_sets[b]) for b in names} for a in names}
    all_texts = [t for items in groups.values() for t in items]
    encode_seconds = (
        {name: _time_encoding(tok, all_texts, timing_repeats) for name, tok in toks.items()} if measure_speed else {}
    )
    train = {name: known.get(name, _training_seconds(tok)) for name, tok in toks.items()}

    def build(stats: TextStats, tallies: dict[str, _Tally], same: dict[tuple[str, str], int],
              timed: Mapping[str, float]) -> ComparisonReport:
        rows = [
            TokenizerMetrics(
                name=name, algorithm=type(toks[name].model).__name__, vocab_size=toks[name].vocab_size, text=stats,
                tokens=t.tokens, split_words=t.split_words, unk_tokens=t.unk_tokens, unk_words=t.unk_words,
                roundtrip_texts=t.roundtrip, token_lengths=dict(sorted(t.lengths.items())),
                encode_seconds=timed.get(name), train_seconds=train[name],
            )
            for name, t in tallies.items()
        ]
        identical: dict[str, dict[str, float | None]] = {
            a: {b: 1.0 if stats.words else None for b in names} for a in names
        }
        for (a, b), n in same.items():
            identical[a][b] = identical[b][a] = _ratio(n, stats.words)
        return ComparisonReport(rows, overlap=overlap, identical_words=identical, text=stats)

    if list(groups) == [None]:
        stats, tallies, same = per_group[None]
        return build(stats, tallies, same, encode_seconds)
    total_stats = TextStats()
    total_tallies = {name: _Tally() for name in names}
    total_same = dict.fromkeys(pairs, 0)
    languages: dict[str, ComparisonReport] = {}
    for lang, (stats, tallies, same) in per_group.items():
        total_stats = total_stats + stats
        for name in names:
            total_tallies[name].add(tallies[name])
        for key, n in same.items():
            total_same[key] += n
        languages[str(lang)] = build(stats, tallies, same, {})
    report = build(total_stats, total_tallies, total_same, encode_seconds)
    report.languages = languages
    return report


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
        th = "".join(f'<th class="{"num" if a == "r" else ""}">{html.escape(h)}</th>' for h, a in zip(self.header, self.align))
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
.tkc-report{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:13px;color:#1f2937;margin:4px 0}
.tkc-report .tkc-title{font-weight:600;margin:12px 0 4px}
.tkc-report .tkc-sub{color:#6b7280;margin-bottom:4px}
.tkc-report table.tkc{border-collapse:collapse;margin:0}
.tkc-report table.tkc th,.tkc-report table.tkc td{padding:3px 10px;border-bottom:1px solid #e5e7eb;
  text-align:left;white-space:nowrap}
.tkc-report table.tkc th{background:#f3f4f6;font-weight:600}
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


# ----------------------------------------------------------------------------------------- sweep
@dataclass(frozen=True)
class SweepPoint:
    """One trained tokenizer of a sweep: its pipeline name, the requested size, and its metrics.

    ``metrics.vocab_size`` is the size actually reached (smaller than requested when the corpus has
    too few pairs to merge); ``metrics.train_seconds`` is the trainer's time.
    """

    name: str
    requested_vocab_size: int
    metrics: TokenizerMetrics


@dataclass
class SweepResult:
    """The result of :func:`sweep`: one :class:`SweepPoint` per (pipeline, vocabulary size).

    >>> result = SweepResult([], counting_seconds={})
    >>> result.series("bytes_per_token")
    {}
    """

    points: list[SweepPoint]
    counting_seconds: dict[str, float]
    tokenizers: dict[tuple[str, int], Tokenizer] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The pipeline names, in order."""
        return list(dict.fromkeys(p.name for p in self.points))

    def __repr__(self) -> str:
        sizes = sorted({p.requested_vocab_size for p in self.points})
        return f"SweepResult({', '.join(map(repr, self.names))} at vocab sizes {sizes})"

    def series(self, metric: str = "bytes_per_token") -> dict[str, list[tuple[int, float | int | None]]]:
        """``{name: [(vocab_size, value), ...]}`` sorted by vocabulary size: one curve per pipeline."""
        out: dict[str, list[tuple[int, float | int | None]]] = {}
        for p in self.points:
            out.setdefault(p.name, []).append((p.metrics.vocab_size, p.metrics.metric(metric)))
        return {name: sorted(values, key=lambda item: item[0]) for name, values in out.items()}

    def to_dict(self) -> dict[str, Any]:
        """``{"counting_seconds": {...}, "points": [{"name", "requested_vocab_size", **metrics}, ...]}``."""
        return {
            "counting_seconds": self.counting_seconds,
            "points": [{"name": p.name, "requested_vocab_size": p.requested_vocab_size,
                        **{k: v for k, v in p.metrics.to_dict().items() if k != "name"}} for p in self.points],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def _table(self) -> _Table:
        columns = [("vocab_size", "int"), ("bytes_per_token", "float"), ("fertility", "float"),
                   ("split_word_share", "pct"), ("unk_word_share", "pct"), ("mean_token_length", "float"),
                   ("train_seconds", "seconds")]
        header = ["pipeline", "requested", *(METRICS[n][0] for n, _ in columns)]
        body = [[p.name, f"{p.requested_vocab_size:,}", *(_fmt_number(p.metrics.metric(n), k) for n, k in columns)]
                for p in self.points]
        return _Table("Vocabulary-size sweep", header, body, ["l", *("r" for _ in range(len(columns) + 1))],
                      note="Metrics on the evaluation texts; vocab is the size reached, requested the size asked for.")

    def to_text(self) -> str:
        """A plain-text table, one line per trained tokenizer."""
        return self._table().text()

    def __str__(self) -> str:
        return self.to_text()

    def to_markdown(self) -> str:
        """A Markdown table, one line per trained tokenizer."""
        return self._table().markdown() + "\n"

    def _repr_html_(self) -> str:
        return f'{_HTML_STYLE}<div class="tkc-report">{self._table().html()}</div>'

    def plot(self, metric: str = "bytes_per_token", **options: Any) -> Figure:
        """One curve per pipeline: ``metric`` against vocabulary size (:func:`toolkit.analysis.plots.plot_sweep`)."""
        from toolkit.analysis.plots import plot_sweep

        return plot_sweep(self, metric=metric, **options)


def _with_vocab_size(trainer: Trainer, vocab_size: int) -> Trainer:
    """A copy of ``trainer`` with another ``vocab_size`` (its progress callback is carried over)."""
    from toolkit.interfaces import build

    data = trainer.to_dict()
    if "vocab_size" not in data:
        raise ConfigError(f"sweep: {type(trainer).__name__} has no vocab_size option")
    copy = build("trainer", {**data, "vocab_size": vocab_size})
    if hasattr(trainer, "progress"):
        copy.progress = trainer.progress
    return copy


def _reusable(corpus: Any) -> Any:
    """A one-shot iterator of texts becomes a list (the corpus is read for counting and for texts)."""
    if isinstance(corpus, Iterator):
        return list(corpus)
    return corpus


def sweep(
    pipelines: Mapping[str, tuple[Tokenizer, Trainer]],
    corpus: CorpusSource,
    *,
    vocab_sizes: Sequence[int],
    texts: Texts | None = None,
    num_workers: int | None = 1,
    keep_tokenizers: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> SweepResult:
    """Train each pipeline at every size in ``vocab_sizes`` on ``corpus`` and measure each result.

    ``pipelines`` maps a name to ``(untrained tokenizer, trainer)``, what the presets return
    (``toolkit.training.presets.bert(...)``...). The corpus is counted **once per distinct normalizer +
    pre-tokenizer** (two pipelines that cut text the same way share one count), then each trainer is
    copied with each vocabulary size and trained on those counts. Each trained tokenizer is measured
    like :func:`compare` on ``texts`` (default: the training corpus itself) without timing encoding;
    ``train_seconds`` is the trainer's time. ``keep_tokenizers`` keeps the trained tokenizers in
    :attr:`SweepResult.tokenizers` keyed by ``(name, requested size)``. ``progress(stage, done, total)``
    hears ``"sweep"`` with the number of tokenizers trained so far.

    >>> from toolkit.training.presets import gpt2_style
    >>> result = sweep({"byte-level": gpt2_style()}, ["low lower lowest newer wider"] * 20, vocab_sizes=[260, 270])
    >>> [(p.requested_vocab_size, p.metrics.vocab_size) for p in result.points]
    [(260, 260), (270, 270)]
    """
    from toolkit.training.corpus import count_words, iter_texts
    from toolkit.interfaces import Trainer
    from toolkit.tokenizer import Tokenizer

    if not isinstance(pipelines, Mapping) or not pipelines:
        raise ConfigError("sweep: pipelines must be a non-empty mapping of names to (tokenizer, trainer) pairs")
    for name, pair in pipelines.items():
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], Tokenizer) and isinstance(pair[1], Trainer)):
            raise ConfigError(f"sweep: {name!r} must be a (Tokenizer, Trainer) pair, e.g. toolkit.training.presets.bert()")
    sizes = list(vocab_sizes)
    if not sizes or any(not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in sizes):
        raise ConfigError(f"sweep: vocab_sizes must be a non-empty list of positive integers, got {vocab_sizes!r}")
    corpus = _reusable(corpus)
    groups = _grouped_texts(texts if texts is not None else list(iter_texts(corpus)))
    eval_texts: Texts = groups[None] if list(groups) == [None] else {str(k): v for k, v in groups.items()}
    total = len(pipelines) * len(sizes)
    counts_by_split: dict[str, Any] = {}
    counting: dict[str, float] = {}
    points: list[SweepPoint] = []
    kept: dict[tuple[str, int], Tokenizer] = {}
    done = 0
    for name, (template, trainer) in pipelines.items():
        key = json.dumps([template.normalizer.to_dict() if template.normalizer else None,
                          template.pre_tokenizer.to_dict() if template.pre_tokenizer else None], sort_keys=True)
        t0 = time.perf_counter()
        if key not in counts_by_split:
            counts_by_split[key] = count_words(corpus, normalizer=template.normalizer,
                                               pre_tokenizer=template.pre_tokenizer, num_workers=num_workers)
        counting[name] = time.perf_counter() - t0
        counts = counts_by_split[key]
        for size in sizes:
            try:
                trainer_v = _with_vocab_size(trainer, size)
                t1 = time.perf_counter()
                model = trainer_v.train(counts, model=template.model)
            except (ConfigError, TrainingError) as exc:  # e.g. a size below the alphabet: name the point
                raise type(exc)(f"sweep: {name} at vocab_size={size}: {exc}") from exc
            seconds = time.perf_counter() - t1
            tok = Tokenizer.from_dict(template.to_dict(), trusted=True)
            tok.model = model
            tok.metadata = {"training": {"stats": {"training_seconds": seconds}}}
            sub = compare({name: tok}, eval_texts, measure_speed=False)
            row = sub.rows[0]
            points.append(SweepPoint(name, size, row))
            if keep_tokenizers:
                kept[(name, size)] = tok
            done += 1
            if progress is not None:
                progress("sweep", done, total)
    return SweepResult(points, counting, kept)
