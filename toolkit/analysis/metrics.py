"""Measures of a tokenizer on texts: the metric definitions and what is counted per text.

This module owns :data:`METRICS` (every derived metric, its label, and which direction is better),
:class:`TokenizerMetrics` (one tokenizer's counts on the texts and the metrics derived from them),
:class:`TextStats`, how token surfaces are recovered from a vocabulary (``Ġ`` ``▁`` ``##`` markers,
byte-level alphabets), and how one text is measured. ``docs/compare.md`` defines every metric.
:func:`~toolkit.analysis.report.compare` uses it to build a report; :mod:`toolkit.analysis.sweep`
repeats it over vocabulary sizes.

>>> from algorithms import WordPiece
>>> from toolkit import Tokenizer
>>> token_surface(Tokenizer(WordPiece({"[UNK]": 0, "hug": 1, "##s": 2})), "##s")
b's'

Importing this module is cheap: the toolkit is imported inside the functions that need it.
"""

from __future__ import annotations

import copy
import math
import os
import re
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, InputError

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "TokenizerMetrics",
    "TextStats",
    "token_surface",
    "surface_function",
    "vocabulary_strings",
    "METRICS",
    "Texts",
    "DEFAULT_RENYI_ALPHA",
    "metric_label",
    "renyi_alpha_of",
    "renyi_entropy",
    "check_alpha",
    "check_bool",
]

Texts = str | Iterable[str] | Mapping[str, str | Iterable[str]]

_WORD = re.compile(r"\S+")  # whitespace-separated words: exactly the pieces of str.split()

#: The derived metrics of :class:`TokenizerMetrics`: name → (short label, description, better).
#: ``better`` is ``"higher"``, ``"lower"``, ``"closer to 1"`` (parity) or ``""`` (neither). Plots and the CLI
#: accept these names.
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
    # a diagnostic, not a score to maximize (docs/compare.md: its counterexamples)
    "renyi_efficiency": ("Rényi eff.", "Rényi entropy (order α, 2.5 by default) of the token distribution / log |V|",
                         ""),
    "shannon_efficiency": ("Shannon eff.", "Shannon entropy of the token distribution / log |V|", ""),
    "vocab_utilization": ("vocab used", "share of the vocabulary that occurs at least once in the texts", "higher"),
    "unreachable_tokens": ("unreachable", "tokens t with encode(decode([t])) != [t] (Land & Bartolo 2024)", "lower"),
    "parity": ("parity", "tokens / tokens of the same texts in the reference language (Petrov et al. 2023)",
               "closer to 1"),
}

#: The default order α of :attr:`TokenizerMetrics.renyi_efficiency` (Zouhar et al. 2023).
DEFAULT_RENYI_ALPHA = 2.5


def metric_label(metric: str, renyi_alpha: float = DEFAULT_RENYI_ALPHA) -> str:
    """The short label of ``metric`` in tables and plots; the Rényi efficiency names its order α when
    it is not the default.

    >>> metric_label("renyi_efficiency"), metric_label("renyi_efficiency", math.inf)
    ('Rényi eff.', 'Rényi eff. (α=∞)')
    """
    label = METRICS[metric][0]
    if metric == "renyi_efficiency" and renyi_alpha != DEFAULT_RENYI_ALPHA:
        label += f" (α={'∞' if math.isinf(renyi_alpha) else format(renyi_alpha, 'g')})"
    return label


def renyi_alpha_of(rows: Iterable[TokenizerMetrics]) -> float:
    """The order α ``rows`` were measured with (one run measures all with the same); the default for none."""
    return next((row.renyi_alpha for row in rows), DEFAULT_RENYI_ALPHA)


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


def non_text_tokens(tokenizer: Tokenizer) -> set[str]:
    """The special tokens (the model's and those added with ``add_special_tokens``) and the unknown
    token: tokens that stand for no text of their own."""
    model = tokenizer.model
    specials = set(model.special_tokens)
    specials.update(t.content for t in tokenizer.get_added_tokens_decoder().values() if t.special)
    unk = getattr(model, "unk_token", None)
    if unk:
        specials.add(unk)
    return specials


def for_measuring(tokenizer: Tokenizer) -> Tokenizer:
    """``tokenizer`` without truncation and padding (a shallow copy, when it has either): the metrics
    count the tokens of each text, not of a batch layout cut or filled to a length."""
    if tokenizer.truncation is None and tokenizer.padding is None:
        return tokenizer
    view = copy.copy(tokenizer)  # shares the model and its caches; the copy's settings are its own
    view.no_truncation()
    view.no_padding()
    return view


def surface_function(tokenizer: Tokenizer) -> Callable[[str], bytes | None]:
    """A function giving the bytes each token string of ``tokenizer`` stands for (see :func:`token_surface`).

    The rules are chosen once from the pipeline: byte-level tokens (a ``ByteLevelBPE`` model, or a
    ``ByteLevel`` pre-tokenizer or decoder) are mapped back to their bytes; the model's
    ``continuing_subword_prefix`` (``##``) and ``end_of_word_suffix`` are removed; a ``Metaspace``
    replacement character (``▁``), or one the decoder replaces by a space (Llama 2, Gemma), stands
    for a space; with a ``ByteFallback`` decoder (or a model with ``byte_fallback``) a ``<0xNN>`` piece
    is its byte. Special tokens (the unknown token included) have no surface: ``None``.

    >>> from toolkit import Tokenizer
    >>> from algorithms import WordPiece
    >>> f = surface_function(Tokenizer(WordPiece({"[UNK]": 0, "hug": 1, "##s": 2})))
    >>> f("##s"), f("hug"), f("[UNK]")
    (b's', b'hug', None)
    """
    from toolkit.bytelevel import byte_piece_value, from_byte_level

    model = tokenizer.model
    specials = non_text_tokens(tokenizer)
    prefix = getattr(model, "continuing_subword_prefix", None) or ""
    suffix = getattr(model, "end_of_word_suffix", None) or ""
    parts = [tokenizer.pre_tokenizer, tokenizer.decoder]
    types_ = [c for p in parts if p is not None for c in _component_types(p.to_dict())]
    byte_level = type(model).__name__ == "ByteLevelBPE" or any(c["type"] == "ByteLevel" for c in types_)
    replacement = next((c.get("replacement", "▁") for c in types_ if c["type"] == "Metaspace"), None)
    if replacement is None:  # SentencePiece pipelines without Metaspace: the decoder turns ▁ into a space
        replacement = next((c["pattern"].get("String") for c in types_ if c["type"] == "Replace"
                            and c.get("content") == " " and isinstance(c.get("pattern"), dict)
                            and len(c["pattern"].get("String") or "") == 1), None)
    byte_pieces = bool(getattr(model, "byte_fallback", False)) or any(c["type"] == "ByteFallback" for c in types_)
    # An added token the model does not have stands for its own text, even where its characters are
    # in the byte-level alphabet ("café": é is the byte 0xE9 there)
    added = {t.content for t in tokenizer.get_added_tokens_decoder().values()
             if not t.special and model.token_to_id(t.content) is None}

    def surface(token: str) -> bytes | None:
        if token in specials:
            return None
        if token in added:
            return token.encode("utf-8", "surrogatepass")
        if byte_pieces:
            value = byte_piece_value(token)
            if value is not None:
                return bytes([value])
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
    """Characters of a surface; an incomplete UTF-8 sequence (part of a character) counts as one.

    >>> _char_length(" é".encode()), _char_length(b"\\xbb\\xbf"), _char_length(b"a\\xe4\\xb8")
    (2, 1, 2)
    """
    tail = len(surface) - len(surface.lstrip(_CONTINUATION))  # the end of a character begun before
    # decode() replaces an incomplete sequence at the end by one U+FFFD, but each byte of a leading
    # run of continuation bytes by one of its own: that run counts once here.
    return (1 if tail else 0) + len(surface[tail:].decode("utf-8", "replace"))


_CONTINUATION = bytes(range(0x80, 0xC0))


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


# -------------------------------------------------------------------------------------- entropy
def check_alpha(alpha: Any, where: str = "renyi_alpha") -> float:
    """``alpha`` as a float once checked: a number > 0 (``math.inf`` allowed), else :class:`ConfigError`."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or math.isnan(alpha) or alpha <= 0:
        raise ConfigError(f"{where} must be a number > 0 (1 is Shannon entropy, 2.5 the usual choice), got {alpha!r}")
    return float(alpha)


def renyi_entropy(counts: Iterable[int], alpha: float = DEFAULT_RENYI_ALPHA) -> float | None:
    """Rényi entropy of order ``alpha`` (natural log) of the distribution the ``counts`` give.

    ``H_α = log(Σ p_i^α) / (1 - α)``; ``alpha = 1`` is Shannon's ``-Σ p_i log p_i``, ``math.inf`` the
    min-entropy ``-log max p_i``. ``None`` when the counts sum to 0.

    >>> round(renyi_entropy([1, 1, 2], 1), 6), round(renyi_entropy([1, 1, 2], 2), 6)
    (1.039721, 0.980829)
    """
    alpha = check_alpha(alpha, "alpha")
    values = [c for c in counts if c > 0]
    total = sum(values)
    if not total:
        return None
    if alpha == 1:
        h = -sum(c / total * math.log(c / total) for c in values)
    elif math.isinf(alpha):
        h = -math.log(max(values) / total)
    else:  # log Σ p^α as α log p_max + log Σ (p / p_max)^α: the sum is at least 1, so a large α cannot
        # round it to 0 (p^α underflows from α of about 300)
        top = max(values)
        h = (alpha * math.log(top / total) + math.log(sum((c / top) ** alpha for c in values))) / (1 - alpha)
    return h if h > 0 else 0.0  # one token type: 0, not the -0.0 of log(1) / (1 - α)


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
    token_counts: Mapping[int, int] = field(default_factory=dict, repr=False)
    renyi_alpha: float = DEFAULT_RENYI_ALPHA
    unreachable: int | None = None
    reference_tokens: int | None = None

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

    def renyi(self, alpha: float) -> float | None:
        """Rényi efficiency of any order ``alpha``: ``H_α(p) / log |V|`` over :attr:`token_counts`."""
        if self.vocab_size < 2:
            return None
        h = renyi_entropy(self.token_counts.values(), alpha)
        return None if h is None else h / math.log(self.vocab_size)

    @property
    def renyi_efficiency(self) -> float | None:
        """Rényi efficiency of order :attr:`renyi_alpha` (Zouhar et al. 2023): ``H_α(p) / log |V|``."""
        return self.renyi(self.renyi_alpha)

    @property
    def shannon_efficiency(self) -> float | None:
        """Shannon efficiency: ``H(p) / log |V|``, the Rényi efficiency of order 1."""
        return self.renyi(1.0)

    @property
    def vocab_utilization(self) -> float | None:
        """Share of the vocabulary's tokens that occur at least once in the texts."""
        return _ratio(len(self.token_counts), self.vocab_size)

    @property
    def unreachable_tokens(self) -> int | None:
        """Tokens that encoding their own decoded text does not give back (``None``: not checked)."""
        return self.unreachable

    @property
    def parity(self) -> float | None:
        """Tokens / tokens of the same texts in the reference language; ``None`` without a reference."""
        return None if self.reference_tokens is None else _ratio(self.tokens, self.reference_tokens)

    def metric(self, name: str) -> float | int | None:
        """A metric by its name in :data:`METRICS` (``"bytes_per_token"``, ``"fertility"``...)."""
        if name not in METRICS:
            raise ConfigError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
        return getattr(self, name)

    def to_dict(self) -> dict[str, Any]:
        """Counts and derived metrics as JSON-compatible values (``None`` where undefined; an infinite
        ``renyi_alpha`` as the string ``"inf"``)."""
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
                "distinct_tokens": len(self.token_counts),
                "reference_tokens": self.reference_tokens,
            },
            "renyi_alpha": "inf" if math.isinf(self.renyi_alpha) else self.renyi_alpha,  # JSON has no infinity
            "token_lengths": {str(k): v for k, v in sorted(self.token_lengths.items())},
            "encode_seconds": self.encode_seconds,
        }


class _Tally:
    """Running counts of one tokenizer over texts (see :func:`_measure_text`)."""

    __slots__ = ("tokens", "split_words", "unk_tokens", "unk_words", "roundtrip", "lengths", "ids")

    def __init__(self) -> None:
        self.tokens = self.split_words = self.unk_tokens = self.unk_words = self.roundtrip = 0
        self.lengths: Counter[int] = Counter()
        self.ids: Counter[int] = Counter()  # how often each token id occurs (entropy, utilization)

    def add(self, other: _Tally) -> None:
        self.tokens += other.tokens
        self.split_words += other.split_words
        self.unk_tokens += other.unk_tokens
        self.unk_words += other.unk_words
        self.roundtrip += other.roundtrip
        self.lengths.update(other.lengths)
        self.ids.update(other.ids)


class _Probe:
    """One tokenizer prepared for measuring: unknown id and a per-id token-length cache."""

    def __init__(self, name: str, tokenizer: Tokenizer) -> None:
        self.name = name
        self.tokenizer = tokenizer
        unk = getattr(tokenizer.model, "unk_token", None)
        self.unk_id = tokenizer.token_to_id(unk) if unk else None
        self.surface = surface_function(tokenizer)
        self._lengths: dict[int, int | None] = {}
        self._blank: dict[int, bool] = {}

    def blank(self, token_id: int) -> bool:
        """Whether the token stands for whitespace only (``▁``, ``Ġ``, a newline): it covers no word."""
        try:
            return self._blank[token_id]
        except KeyError:
            token = self.tokenizer.id_to_token(token_id)
            s = self.surface(token) if token is not None else None
            self._blank[token_id] = blank = bool(s) and not s.strip()  # type: ignore[union-attr]
            return blank

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
    tally.ids.update(enc.ids)
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
        # A "▁" or "Ġ" alone stands for the space before a word, whatever its span ((0, 0) after Metaspace,
        # the first character's after a Prepend normalizer): it covers no word.
        if probe.blank(token_id):
            continue
        # The words this token covers: the first word ending after s, then on while words start before e.
        # A token covering no text belongs to the word starting there.
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
        out[name] = for_measuring(as_tokenizer(tok, f"compare: {name!r}"))
    return out


def as_tokenizer(tok: Any, where: str) -> Tokenizer:
    """``tok`` itself, or the tokenizer in file ``tok`` (ours, ``tokenizer.json``, ``.tiktoken``,
    ``vocab.txt``...); anything else is a :class:`ConfigError` naming ``where``."""
    from toolkit.tokenizer import Tokenizer

    if isinstance(tok, (str, os.PathLike)):
        from toolkit.interop.files import load_tokenizer

        tok = load_tokenizer(tok)
    if not isinstance(tok, Tokenizer):
        raise ConfigError(f"{where} must be a Tokenizer or a tokenizer file path, got {_kind_of(tok)}")
    return tok


def _kind_of(value: Any) -> str:
    """What ``value`` is, with the fix for the look-alikes: a preset's untrained ``(tokenizer, trainer)``
    pair, and Hugging Face's own ``Tokenizer`` (same class name, another package)."""
    from toolkit.tokenizer import Tokenizer

    kind = type(value)
    module = kind.__module__.split(".")[0]
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Tokenizer):
        return "a (tokenizer, trainer) pair: train it first, tok.train(corpus, trainer) (sweep() takes pairs)"
    if module == "tokenizers":
        return f"{module}.{kind.__name__} (Hugging Face): convert it with toolkit.Tokenizer.from_str(hf.to_str())"
    if module == "transformers":
        return (f"{module}.{kind.__name__} (Hugging Face): convert it with "
                "toolkit.Tokenizer.from_str(hf.backend_tokenizer.to_str())")
    return kind.__name__


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
    else:
        groups = {None: _text_list(texts, "texts")}
    _refuse_file_names(groups)
    return groups


def _refuse_file_names(groups: Mapping[str | None, list[str]]) -> None:
    """Texts that are all file names (``"held_out.txt"``) are a mistake: ``Tokenizer.train`` and
    ``sweep`` read a ``str`` corpus as a path, but the texts measured are the strings themselves."""
    from toolkit.training.reading import _looks_like_a_path

    items = [t for group in groups.values() for t in group]
    if items and all(map(_looks_like_a_path, items)):  # stops at the first text that is no file name
        raise InputError(
            f"compare: the texts ({items[0]!r}...) are file names, but texts are measured as given, not read "
            f"from files: pass the file's lines, e.g. Path({items[0]!r}).read_text(encoding='utf-8')"
            ".splitlines(keepends=True)"
        )


def check_bool(value: Any, where: str) -> bool:
    """``value`` when it is ``True`` or ``False``; anything else (``"no"``, ``0``, ``None``) is a
    :class:`ConfigError` naming ``where``: a truthy string would silently mean "yes"."""
    if value is not True and value is not False:
        raise ConfigError(f"{where} must be True or False, got {value!r:.60}")
    return value


def _text_stats(texts: Sequence[str]) -> tuple[TextStats, list[list[tuple[int, int]]]]:
    words = [[m.span() for m in _WORD.finditer(t)] for t in texts]
    stats = TextStats(len(texts), sum(len(t.encode("utf-8", "surrogatepass")) for t in texts),
                      sum(len(t) for t in texts), sum(len(w) for w in words))
    return stats, words
