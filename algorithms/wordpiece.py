"""WordPiece: the :class:`WordPiece` model (greedy longest-match-first encoding) and its real trainer.

This module owns:

- :class:`WordPiece` — the model. A word is encoded by taking the longest prefix found in the
  vocabulary, then the longest ``##``-prefixed continuation, and so on (Hugging Face / BERT
  semantics). If some position has no match, or the word is longer than
  ``max_input_chars_per_word`` characters, the **whole word** becomes ``unk_token``.
- :class:`WordPieceTrainer` — trains with the actual WordPiece criterion (SPEC §4.4): every step
  merges the adjacent pair maximising ``freq(pair) / (freq(first) * freq(second))``, compared exactly.
  (Hugging Face's ``WordPieceTrainer`` trains BPE and converts the result; this one does not.)
  Training is incremental: it shares the BPE engine's word splits, pair counts and pair index
  (:class:`algorithms._merges._Splits`) and adds an index from each token to the pairs that contain
  it and a priority queue of score upper bounds checked lazily, so a merge touches only the words
  containing the merged pair and re-pushes only the pairs whose bound it broke (see ``_Run``).

The slow test oracle that recomputes every score at every step lives in
:mod:`algorithms.reference.wordpiece`.

>>> wp = WordPiece({"[UNK]": 0, "hug": 1, "##s": 2, "b": 3, "##u": 4, "##gs": 5})
>>> [wp.id_to_token(i) for i, _, _ in wp.tokenize("hugs")], wp.tokenize("bugs")
(['hug', '##s'], [(3, 0, 1), (4, 1, 2), (5, 2, 4)])
>>> wp.tokenize("mug")   # no token starts with "m": the whole word is unknown
[(0, 0, 3)]
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from algorithms._merges import (
    _COUNT_SHIFT_FIRST,
    _ID_BITS,
    _ID_MASK,
    _OFFSET_SHIFT,
    _PAIR_BITS,
    _PAIR_MASK,
    _WORD_SHIFT,
    MAX_SYMBOL_ID,
    _Splits,
)
from toolkit import limits
from toolkit.errors import ConfigError, TrainingError, VocabularyError
from toolkit.interfaces import Model, Params, ProgressCallback, Trainer, validate_params
from toolkit.registry import register
from toolkit.runtime import gc_paused

__all__ = ["WordPiece", "WordPieceTrainer", "WordPieceTraining", "DEFAULT_SPECIAL_TOKENS"]

#: The BERT special tokens, in BERT's order; the trainer's default ``special_tokens``.
DEFAULT_SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


# ---------------------------------------------------------------------------------------------- model
def check_vocab(vocab: Any, *, where: str = "vocab") -> None:
    """Raise :class:`VocabularyError` unless ``vocab`` maps distinct ``str`` tokens to distinct ids ≥ 0."""
    if not isinstance(vocab, Mapping):
        raise VocabularyError(f"{where}: must be a mapping token -> id, got {type(vocab).__name__}")
    limits.check_vocab_size(len(vocab), where=where)
    max_len, max_id = limits.MAX_TOKEN_LENGTH, limits.MAX_TOKEN_ID
    seen: dict[int, str] = {}
    for token, token_id in vocab.items():
        if not isinstance(token, str):
            raise VocabularyError(f"{where}: token {token!r} is a {type(token).__name__}; tokens must be str")
        if not token:
            raise VocabularyError(f"{where}: the empty string is not a valid token")
        if type(token_id) is not int:  # bool is an int subclass but never a valid id
            raise VocabularyError(f"{where}[{token!r}]: id must be an int, got {token_id!r}")
        if token_id < 0:
            raise VocabularyError(f"{where}[{token!r}]: id must be >= 0, got {token_id}")
        if token_id > max_id or len(token) > max_len:
            limits.check_token(token, token_id, where=where)
        other = seen.get(token_id)
        if other is not None:
            raise VocabularyError(
                f"{where}: id {token_id} is used by both {other!r} and {token!r}; every token needs its own id"
            )
        seen[token_id] = token


@register("WordPiece")
class WordPiece(Model):
    """WordPiece model: greedy longest-match-first encoding with ``##`` continuations (BERT).

    Options (keyword-only after ``vocab``):

    - ``vocab``: token → id. ``None`` or empty makes an untrained template (for ``Tokenizer.train``).
    - ``unk_token`` (``"[UNK]"``): what a word that cannot be matched becomes; it must be in a
      non-empty ``vocab`` (checked here, so a broken vocabulary fails at load time, not mid-encode).
    - ``continuing_subword_prefix`` (``"##"``): marks tokens that continue a word.
    - ``max_input_chars_per_word`` (100): longer words (in characters) become ``unk_token``.
    - ``special_tokens``: tokens of ``vocab`` that are special (``[CLS]``...), see
      :attr:`toolkit.interfaces.Model.special_tokens`.

    >>> wp = WordPiece({"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3}, special_tokens=["[UNK]"])
    >>> wp.encode_piece("unaffable"), wp.tokenize("unable"), wp.special_tokens
    ((1, 2, 3), [(1, 0, 2), (3, 2, 6)], {'[UNK]': 0})
    """

    class Params(Params):
        vocab: dict[StrictStr, StrictInt] | None = None
        unk_token: StrictStr = Field("[UNK]", min_length=1)
        continuing_subword_prefix: StrictStr = "##"
        max_input_chars_per_word: StrictInt = Field(100, ge=1)
        special_tokens: list[StrictStr] = []

    def __init__(
        self,
        vocab: Mapping[str, int] | None = None,
        *,
        unk_token: str = "[UNK]",
        continuing_subword_prefix: str = "##",
        max_input_chars_per_word: int = 100,
        special_tokens: Sequence[str] = (),
        _trusted: bool = False,
    ) -> None:
        super().__init__()
        if not _trusted:
            _check_model_options(unk_token, continuing_subword_prefix, max_input_chars_per_word, special_tokens)
            if vocab is not None:
                check_vocab(vocab)
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self._vocab: dict[str, int] = dict(vocab) if vocab else {}
        self._ids: dict[int, str] = {i: t for t, i in self._vocab.items()}
        if self._vocab and unk_token not in self._vocab:
            raise VocabularyError(
                f"WordPiece: unk_token {unk_token!r} is not in the vocabulary ({len(self._vocab)} tokens); "
                f"add {unk_token!r} to the vocabulary, or pass the unknown token it uses as unk_token=..."
            )
        missing = [t for t in special_tokens if t not in self._vocab]
        if missing:
            raise VocabularyError(
                f"WordPiece: special token(s) {', '.join(map(repr, missing))} are not in the vocabulary; "
                "special tokens must be vocabulary entries (add them, or drop them from special_tokens)"
            )
        self.special_tokens = {t: self._vocab[t] for t in special_tokens}
        self._build_tables()

    def _build_tables(self) -> None:
        """Derive the look-up tables the encoder uses from ``_vocab``."""
        plen = len(self.continuing_subword_prefix)
        prefix = self.continuing_subword_prefix
        # Special tokens are never matched inside text: typed "[CLS]" is ordinary text (SPEC §3).
        specials = self.special_tokens
        self._words: dict[str, int] = {t: i for t, i in self._vocab.items() if t not in specials} if specials else self._vocab
        # Continuation tokens keyed without their prefix: the inner loop then looks up plain slices of
        # the word instead of building prefix + slice strings.
        self._cont: dict[str, int] = {t[plen:]: i for t, i in self._words.items() if t.startswith(prefix) and len(t) > plen}
        # No token is longer than these, so the longest-match search starts there instead of at the
        # end of the word (a 20-letter word costs a handful of look-ups, not 20 per position).
        self._max_first = max(map(len, self._vocab), default=0)
        self._max_cont = max(map(len, self._cont), default=0)
        self._unk_id: int | None = self._vocab.get(self.unk_token)
        self._tok_cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    # -------------------------------------------------------------------------------- (de)serialization
    def params(self) -> dict[str, Any]:
        return {
            "vocab": dict(sorted(self._vocab.items(), key=lambda kv: kv[1])),
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "special_tokens": list(self.special_tokens),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> WordPiece:
        """Rebuild from :meth:`to_dict` output; ``validate=False`` skips the per-entry vocabulary checks.

        The unknown token is checked either way (a missing ``[UNK]`` must fail at load time).
        """
        where = where or "model 'WordPiece'"
        options = {k: v for k, v in data.items() if k != "type"}
        if not validate:
            return cls(**options, _trusted=True)
        vocab = options.pop("vocab", None)
        options = validate_params(cls.Params, options, where=where)
        if vocab is not None:
            check_vocab(vocab, where=f"{where}.vocab")
        try:
            return cls(vocab, **options, _trusted=True)
        except VocabularyError as exc:
            raise VocabularyError(f"{where}: {exc}") from None

    @classmethod
    def read_vocab_file(cls, path: str | Path) -> dict[str, int]:
        """Read a BERT ``vocab.txt``: one token per line, the id is the line number.

        Trailing whitespace is stripped; a token repeated later takes the later line's id (as
        Hugging Face ``tokenizers`` does).
        """
        vocab: dict[str, int] = {}
        try:
            with open(path, encoding="utf-8") as fh:
                for i, line in enumerate(fh):
                    vocab[line.rstrip()] = i
        except FileNotFoundError:
            raise VocabularyError(f"vocabulary file {path} does not exist") from None
        except UnicodeDecodeError as exc:
            raise VocabularyError(f"vocabulary file {path} is not UTF-8 (invalid byte at offset {exc.start})") from None
        vocab.pop("", None)  # blank lines carry no token
        return vocab

    @classmethod
    def from_file(cls, path: str | Path, **options: Any) -> WordPiece:
        """A model from a BERT ``vocab.txt`` (see :meth:`read_vocab_file`); ``options`` as the constructor.

        ``special_tokens`` defaults to those of ``[PAD] [UNK] [CLS] [SEP] [MASK]`` present in the file.
        """
        vocab = cls.read_vocab_file(path)
        options.setdefault("special_tokens", [t for t in DEFAULT_SPECIAL_TOKENS if t in vocab])
        return cls(vocab, **options)

    # -------------------------------------------------------------------------------- vocabulary
    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        return self._ids.get(token_id)

    def clear_cache(self) -> None:
        super().clear_cache()
        self._tok_cache.clear()

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_tok_cache"] = {}
        return state

    # -------------------------------------------------------------------------------- encoding
    def _unknown(self) -> int:
        if self._unk_id is None:
            raise VocabularyError(
                "WordPiece: the model has no vocabulary; train it (Tokenizer.train) or load one "
                "(WordPiece(vocab) / WordPiece.from_file('vocab.txt'))"
            )
        return self._unk_id

    def _match(self, word: str) -> list[tuple[int, int, int]] | None:
        """Longest-match-first segmentation as ``(id, start, end)``, or ``None`` when the word is unknown."""
        n = len(word)
        if n > self.max_input_chars_per_word:
            return None
        get = self._words.get
        maxlen = self._max_first
        cont_get = self._cont.get
        out: list[tuple[int, int, int]] = []
        start = 0
        while start < n:
            end = start + maxlen
            if end > n:
                end = n
            # Longest candidate first; the vocabulary's longest token bounds the first try.
            while end > start:
                token_id = get(word[start:end])
                if token_id is not None:
                    break
                end -= 1
            else:
                return None
            out.append((token_id, start, end))
            start = end
            get = cont_get
            maxlen = self._max_cont
        return out

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """``[(id, start, end), ...]`` for ``piece``; an unknown word is one ``unk`` token spanning it.

        >>> WordPiece({"[UNK]": 0, "a": 1, "##b": 2}).tokenize("abc")
        [(0, 0, 3)]
        """
        cached = self._tok_cache.get(piece)
        if cached is None:
            if not piece:
                return []
            out = self._match(piece)
            cached = ((self._unknown(), 0, len(piece)),) if out is None else tuple(out)
            if len(self._tok_cache) >= self.cache_capacity:
                self._tok_cache.clear()
            self._tok_cache[piece] = cached
        return list(cached)

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        # The same search as _match, without building spans: this is the encode_ids hot path.
        n = len(piece)
        if not n:
            return ()
        if n > self.max_input_chars_per_word:
            return (self._unknown(),)
        get = self._words.get
        token_id = get(piece) if n <= self._max_first else None
        if token_id is not None:  # the common case: the whole word is a token
            return (token_id,)
        maxlen = self._max_first
        cont_get = self._cont.get
        ids: list[int] = []
        start = 0
        while start < n:
            end = start + maxlen
            if end > n:
                end = n
            while end > start:
                token_id = get(piece[start:end])
                if token_id is not None:
                    break
                end -= 1
            else:
                return (self._unknown(),)
            ids.append(token_id)
            start = end
            get = cont_get
            maxlen = self._max_cont
        return tuple(ids)


def _check_model_options(
    unk_token: Any, prefix: Any, max_chars: Any, special_tokens: Any
) -> None:
    if not isinstance(unk_token, str) or not unk_token:
        raise ConfigError(f"WordPiece: unk_token must be a non-empty str, got {unk_token!r}")
    if not isinstance(prefix, str):
        raise ConfigError(f"WordPiece: continuing_subword_prefix must be a str, got {prefix!r}")
    if type(max_chars) is not int or max_chars < 1:
        raise ConfigError(f"WordPiece: max_input_chars_per_word must be an int >= 1, got {max_chars!r}")
    if isinstance(special_tokens, str) or not all(isinstance(t, str) for t in special_tokens):
        raise ConfigError(f"WordPiece: special_tokens must be a sequence of str, got {special_tokens!r}")


# ---------------------------------------------------------------------------------------------- trainer
@dataclass
class WordPieceTraining:
    """What a training run learned: the vocabulary in id order and the merges in the order made.

    ``merges`` holds ``(left, right, new_token)``. Two different pairs can spell the same token
    (``a + ##bc`` and ``ab + ##c``); the second such merge adds no vocabulary entry, so
    ``len(tokens)`` can be smaller than ``n_base + len(merges)``.
    """

    tokens: list[str]
    merges: list[tuple[str, str, str]] = field(default_factory=list)
    #: Number of leading entries of ``tokens`` that are special tokens and alphabet (not merges).
    n_base: int = 0


@register("WordPieceTrainer")
class WordPieceTrainer(Trainer):
    """Trains a :class:`WordPiece` vocabulary with the WordPiece score, exactly and incrementally.

    Options (all keyword-only):

    - ``vocab_size`` (30000): target size, special tokens and alphabet included. The alphabet is never
      cut, so a tiny ``vocab_size`` yields specials + alphabet.
    - ``min_frequency`` (0): pairs seen fewer times are never merged; training stops when no pair
      reaches it.
    - ``special_tokens`` (``[PAD] [UNK] [CLS] [SEP] [MASK]``): the first ids, in this order. The
      model's ``unk_token`` must be one of them.
    - ``continuing_subword_prefix`` (``"##"``).
    - ``limit_alphabet`` (None): keep only this many distinct characters (the most frequent; ties by
      code point; ``initial_alphabet`` characters are always kept). Words with a dropped character are
      still learned from, but no pair spans the dropped character.
    - ``initial_alphabet`` (()): single characters always in the alphabet, both as word-initial
      symbols and as ``##`` continuations, even when absent from the corpus.
    - ``tie_break`` (``"ids"``): equal scores → smallest ``(left_id, right_id)``; ``"first_occurrence"``
      → the pair met first scanning the words in corpus order, left to right (the HF course).
    - ``progress``: ``progress(stage, done, total)`` callback; not serialized.

    >>> trainer = WordPieceTrainer(vocab_size=12, special_tokens=["[UNK]"], tie_break="first_occurrence")
    >>> model = trainer.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    >>> list(model.get_vocab())[-4:]
    ['##gs', 'hu', 'hugs', 'hug']
    """

    class Params(Params):
        vocab_size: StrictInt = Field(30000, ge=1)
        min_frequency: StrictInt = Field(0, ge=0)
        special_tokens: list[StrictStr] = list(DEFAULT_SPECIAL_TOKENS)
        continuing_subword_prefix: StrictStr = "##"
        limit_alphabet: StrictInt | None = Field(None, ge=0)
        initial_alphabet: list[StrictStr] = []
        tie_break: Literal["ids", "first_occurrence"] = "ids"

    def __init__(
        self,
        vocab_size: int = 30000,
        *,
        min_frequency: int = 0,
        special_tokens: Sequence[str] = DEFAULT_SPECIAL_TOKENS,
        continuing_subword_prefix: str = "##",
        limit_alphabet: int | None = None,
        initial_alphabet: Iterable[str] = (),
        tie_break: Literal["ids", "first_occurrence"] = "ids",
        progress: ProgressCallback | None = None,
    ) -> None:
        if isinstance(special_tokens, str) or isinstance(initial_alphabet, str):
            raise ConfigError(
                "WordPieceTrainer: special_tokens and initial_alphabet must be lists of strings, not one string"
            )
        opts = validate_params(
            self.Params,
            {
                "vocab_size": vocab_size,
                "min_frequency": min_frequency,
                "special_tokens": list(special_tokens),
                "continuing_subword_prefix": continuing_subword_prefix,
                "limit_alphabet": limit_alphabet,
                "initial_alphabet": list(initial_alphabet),
                "tie_break": tie_break,
            },
            where="WordPieceTrainer",
        )
        bad = [c for c in opts["initial_alphabet"] if len(c) != 1]
        if bad:
            raise ConfigError(f"WordPieceTrainer.initial_alphabet: entries must be single characters, got {bad!r}")
        specials = opts["special_tokens"]
        limits.check_trainer_options(opts["vocab_size"], specials, where="WordPieceTrainer")
        if len(set(specials)) != len(specials) or "" in specials:
            raise ConfigError(f"WordPieceTrainer.special_tokens: must be distinct non-empty strings, got {specials!r}")
        if progress is not None and not callable(progress):
            raise ConfigError("WordPieceTrainer.progress must be a callable progress(stage, done, total)")
        self.vocab_size: int = opts["vocab_size"]
        self.min_frequency: int = opts["min_frequency"]
        self.special_tokens: list[str] = specials
        self.continuing_subword_prefix: str = opts["continuing_subword_prefix"]
        self.limit_alphabet: int | None = opts["limit_alphabet"]
        self.initial_alphabet: list[str] = opts["initial_alphabet"]
        self.tie_break: Literal["ids", "first_occurrence"] = opts["tie_break"]
        self.progress = progress

    # -------------------------------------------------------------------------------- public API
    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> WordPiece:
        """Learn a vocabulary from ``word_counts`` and return a new :class:`WordPiece`.

        ``model`` (optional template): its ``unk_token`` and ``max_input_chars_per_word`` are kept
        when it is a :class:`WordPiece`.
        """
        unk_token = "[UNK]"
        max_chars = 100
        if isinstance(model, WordPiece):
            unk_token = model.unk_token
            max_chars = model.max_input_chars_per_word
        if unk_token not in self.special_tokens:
            raise TrainingError(
                f"WordPieceTrainer: the model's unk_token {unk_token!r} is not among special_tokens "
                f"{self.special_tokens!r}; add it (e.g. special_tokens=[..., {unk_token!r}])"
            )
        result = self.train_merges(word_counts)
        vocab = {t: i for i, t in enumerate(result.tokens)}
        return WordPiece(
            vocab,
            unk_token=unk_token,
            continuing_subword_prefix=self.continuing_subword_prefix,
            max_input_chars_per_word=max_chars,
            special_tokens=self.special_tokens,
            _trusted=True,
        )

    def train_merges(self, word_counts: Mapping[str, int]) -> WordPieceTraining:
        """Run training and return the vocabulary *and* the merges in order (for inspection/tests).

        >>> t = WordPieceTrainer(vocab_size=10, special_tokens=[], tie_break="first_occurrence")
        >>> t.train_merges({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}).merges[:2]
        [('##g', '##s', '##gs'), ('h', '##u', 'hu')]
        """
        items = _checked_counts(word_counts)
        with gc_paused():
            return _Run(self, items).run()




def _checked_counts(word_counts: Mapping[str, int]) -> list[tuple[str, int]]:
    if not isinstance(word_counts, Mapping):
        raise TrainingError(f"word_counts must be a mapping word -> count, got {type(word_counts).__name__}")
    items: list[tuple[str, int]] = []
    for word, count in word_counts.items():
        if not isinstance(word, str):
            raise TrainingError(f"word_counts: key {word!r} is a {type(word).__name__}, expected str")
        if type(count) is not int or count < 0:
            raise TrainingError(f"word_counts[{word!r}]: count must be an int >= 0, got {count!r}")
        if word and count:
            items.append((word, count))
    if not items:
        raise TrainingError("word_counts is empty: there is nothing to train on (check the corpus and pre-tokenizer)")
    return items


def select_alphabet(
    items: Sequence[tuple[str, int]], limit_alphabet: int | None, initial_alphabet: Iterable[str]
) -> set[str]:
    """The characters kept in the alphabet: all of them, or the ``limit_alphabet`` most frequent.

    Frequency is counted over character occurrences weighted by word counts; ties go to the smaller
    code point; ``initial_alphabet`` characters are always kept (and count toward the limit).
    """
    initial = set(initial_alphabet)
    if limit_alphabet is None:
        chars = set(initial)
        for word, _ in items:
            chars.update(word)
        return chars
    freq: dict[str, int] = {}
    for word, count in items:
        for c in word:
            freq[c] = freq.get(c, 0) + count
    others = sorted((c for c in freq if c not in initial), key=lambda c: (-freq[c], c))
    return initial | set(others[: max(0, limit_alphabet - len(initial))])


class _Run(_Splits):
    """One training run: the merge loop over :class:`algorithms._merges._Splits` (kept out of the
    trainer, which is pure).

    The splits, pair counts and pair index are the BPE engine's (:mod:`algorithms._merges`): each
    segment is a ``str`` with one character per symbol (``chr(token id)``), and a pair is the
    2-character string of its symbols. "Words" there are *segments* here: each word cut at characters
    outside the alphabet, in corpus order, so ``(segment index, character offset)`` orders occurrences
    like a left-to-right scan of the corpus and merges never reorder them: that is the
    ``first_occurrence`` key. On top of them this class keeps:

    - ``freq`` — weighted count of each token as a symbol in the current splits;
    - ``pairs_of`` — token id → the pairs containing it (pairs that vanished are pruned lazily):
      after merging ``(a, b)`` into ``ab`` exactly the pairs containing ``a``, ``b`` or ``ab`` change
      score;
    - ``heap`` — one int per entry, ``score key << 42 | pair code`` (``"ids"``) or
      ``score key << 114 | first position | pair code`` (``"first_occurrence"``), where the score keys
      are *upper bounds* of the pairs' current scores and the first positions lower bounds of
      their current first occurrences; :meth:`_pop_best` checks them.

    Why bounds: a merge lowers ``freq(a)`` and ``freq(b)``, which *raises* the score of every pair
    containing them, and tokens such as ``##s`` sit in thousands of pairs. Rescoring all of them at
    every merge (the direct incremental algorithm) cost 9.3 million heap pushes for a 32k vocabulary
    of 18 MB of English. Instead each token has a *bound frequency* ``g <= freq`` and heap keys use
    ``g``: a key stays an upper bound until ``freq`` drops below ``g``, and only then are the token's
    pairs re-pushed. Tokens in few pairs use ``g = freq`` (rescored at each change, which is cheap);
    tokens in more use ``g = freq - freq/32``, so they are rescored after their frequency fell by a
    32nd, not at every merge. On that corpus: 294k pushes and 88k pops, 0.70 s against 4.2 s, same
    merges. A looser slack is slower: bounds up to (4/3)² above the truth (``freq/4``) pull so many
    candidates out of the heap at every step that training takes three times as long.
    """

    #: Tokens in more pairs than this get slack bound frequencies (see the class docstring).
    slack_degree = 4
    #: The slack: such a token's bound frequency is ``freq - freq >> slack_shift``.
    slack_shift = 5
    #: Outdated heap entries tolerated beyond 4 per live pair before the heap is rebuilt.
    heap_slack = 10_000

    def __init__(self, trainer: WordPieceTrainer, items: list[tuple[str, int]]) -> None:
        self.trainer = trainer
        self.prefix = prefix = trainer.continuing_subword_prefix
        self.plen = len(prefix)
        self.min_count = max(1, trainer.min_frequency)

        alphabet = select_alphabet(items, trainer.limit_alphabet, trainer.initial_alphabet)
        symbols: set[str] = set()
        for c in trainer.initial_alphabet:
            symbols.add(c)
            symbols.add(prefix + c)
        for word, _ in items:
            if word[0] in alphabet:
                symbols.add(word[0])
            for c in word[1:]:
                if c in alphabet:
                    symbols.add(prefix + c)

        self.tokens: list[str] = list(trainer.special_tokens)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.tokens)}
        for s in sorted(symbols):
            if s not in self.ids:  # a special token may coincide with a symbol
                self.ids[s] = len(self.tokens)
                self.tokens.append(s)
        self.n_base = len(self.tokens)
        self._check_id(self.n_base - 1)

        # Split words into segments of symbol ids; a character outside the alphabet ends a segment.
        ids = self.ids
        segs: list[list[int]] = []
        seg_counts: list[int] = []
        seg_initial: list[bool] = []  # does the segment start the word (its first symbol unprefixed)?
        for word, count in items:
            cur: list[int] = []
            start = 0
            for i, c in enumerate(word):
                if c in alphabet:
                    cur.append(ids[c] if i == 0 else ids[prefix + c])
                    continue
                if cur:
                    segs.append(cur)
                    seg_counts.append(count)
                    seg_initial.append(start == 0)
                cur = []
                start = i + 1
            if cur:
                segs.append(cur)
                seg_counts.append(count)
                seg_initial.append(start == 0)
        super().__init__(segs, seg_counts, first_occurrence=trainer.tie_break == "first_occurrence")
        self.seg_initial = seg_initial
        # Characters of the original word a token covers when it continues a word: its length minus
        # the prefix. (A token's string alone does not say whether it starts the word: "##a" may be
        # the continuation "a" or a word that really starts with "##a"; see _position.)
        self.cont_len: list[int] = [len(t) - self.plen for t in self.tokens]

        self.freq: list[int] = [0] * len(self.tokens)
        freq = self.freq
        for s, count in zip(self.words, self.counts):
            for ch in s:
                freq[ord(ch)] += count
        self.pairs_of: list[set[str]] = [set() for _ in self.tokens]
        pairs_of = self.pairs_of
        for p in self.pair_counts:
            pairs_of[ord(p[0])].add(p)
            pairs_of[ord(p[1])].add(p)
        self.shift = self._score_shift(sum(freq))
        #: first_occurrence only: pair → a lower bound of its first position (as a heap-key field).
        self.first: dict[str, int] = {}
        if self.first_occurrence:
            self.first = {p: self._position(p) for p in self.pair_counts}
        # Bound frequencies (see the class docstring): g[t] <= freq[t] always.
        self.g: list[int] = [0] * len(self.tokens)
        for t in range(len(self.tokens)):
            self._set_bound(t)
        self.heap: list[int] = []
        self._rebuild_heap()
        self.merges: list[tuple[str, str, str]] = []

    # ------------------------------------------------------------------ scoring
    @staticmethod
    def _score_shift(total: int) -> int:
        """Bits ``K`` such that ``-((count << K) // den)`` orders scores exactly, as one integer.

        Every token frequency is at most ``total`` (the weighted number of symbols, which merges
        only shrink), so ``den = freq(first) * freq(second) <= total**2``. Two different scores
        ``c1/d1 != c2/d2`` differ by at least ``1 / (d1 * d2) >= 1 / total**4``; scaled by
        ``2**K >= 2 * total**4`` they differ by more than 1, so their floors differ, while equal
        scores get equal floors. The heap thus compares plain ints — as fast as floats (which can
        round distinct scores together) and several times faster than ``Fraction`` or a
        cross-multiplying key object.
        """
        return 4 * max(1, total).bit_length() + 1

    @staticmethod
    def _check_id(token_id: int) -> None:
        if token_id > MAX_SYMBOL_ID:
            raise TrainingError(
                f"WordPieceTrainer: training supports at most {MAX_SYMBOL_ID + 1:,} tokens "
                "(special tokens, alphabet and merges); lower vocab_size"
            )

    def _position(self, p: str) -> int:
        """The first occurrence of ``p`` as the heap-key field ``segment << 74 | offset << 42``.

        The offset counts characters of the word before the pair's left symbol: unlike the position
        in the current split it never changes under merges, so fields computed at different steps
        stay comparable.
        """
        si, k = self._first_live(p)
        offset = sum(map(self.cont_len.__getitem__, map(ord, self.words[si][:k])))
        if k and self.seg_initial[si]:
            offset += self.plen  # the segment's first symbol starts the word: it has no prefix
        return si << _WORD_SHIFT | offset << _OFFSET_SHIFT

    def _set_bound(self, t: int) -> None:
        """Reset the bound frequency of ``t``; the caller re-pushes the pairs of ``t``."""
        f = self.freq[t]
        self.g[t] = f if len(self.pairs_of[t]) <= self.slack_degree else f - (f >> self.slack_shift)

    def _push_all(self, pairs: Iterable[str]) -> list[str]:
        """Push fresh bound entries for the live pairs among ``pairs``; return the vanished ones."""
        heap = self.heap
        get = self.pair_counts.get
        g = self.g
        min_count = self.min_count
        shift = self.shift
        push = heapq.heappush
        vanished: list[str] = []
        # Smallest key = highest score (heapq is a min-heap); see _score_shift. Two loops, so that the
        # common "ids" case tests nothing else per pair.
        if self.first_occurrence:
            first = self.first
            for p in pairs:
                count = get(p, 0)
                if count >= min_count:
                    x, y = ord(p[0]), ord(p[1])
                    score = -((count << shift) // (g[x] * g[y]))
                    push(heap, score << _COUNT_SHIFT_FIRST | first[p] | x << _ID_BITS | y)
                elif not count:
                    vanished.append(p)
        else:
            for p in pairs:
                count = get(p, 0)
                if count >= min_count:
                    x, y = ord(p[0]), ord(p[1])
                    push(heap, -((count << shift) // (g[x] * g[y])) << _PAIR_BITS | x << _ID_BITS | y)
                elif not count:
                    vanished.append(p)
        return vanished

    def _rebuild_heap(self) -> None:
        self.heap = []
        self._push_all(self.pair_counts)
        heapq.heapify(self.heap)

    def _pop_best(self) -> tuple[str, Iterable[str]] | None:
        """The live pair with the best ``(score, tie key)``, found through the bound keys.

        Heap keys are upper bounds of the scores (and tie keys lower bounds), so pop entries, compute
        their exact keys, and stop once the heap's smallest entry cannot beat the best exact key
        found: nothing left in the heap can. Returns the pair and the other live pairs popped, which
        :meth:`_merge` pushes back together with the pairs it rescores.
        """
        heap = self.heap
        pair_counts = self.pair_counts
        freq = self.freq
        banned = self.banned
        fo = self.first_occurrence
        shift = self.shift
        min_count = self.min_count
        cont_len = self.cont_len
        max_len = limits.MAX_TOKEN_LENGTH - self.plen
        pop = heapq.heappop
        best: int | None = None
        seen: dict[int, str] = {}
        while heap:
            if best is not None and heap[0] >= best:
                break
            code = pop(heap) & _PAIR_MASK
            if code in seen:
                continue
            p = chr(code >> _ID_BITS) + chr(code & _ID_MASK)
            count = pair_counts.get(p, 0)
            if count < min_count or p in banned:
                continue  # merged away (or below min_frequency): its entries are outdated
            x, y = code >> _ID_BITS, code & _ID_MASK
            if cont_len[x] + cont_len[y] > max_len:
                banned.add(p)  # never merged: the token would exceed toolkit.limits.MAX_TOKEN_LENGTH
                continue
            seen[code] = p
            score = -((count << shift) // (freq[x] * freq[y]))
            if fo:
                self.first[p] = position = self._position(p)
                exact = score << _COUNT_SHIFT_FIRST | position | code
            else:
                exact = score << _PAIR_BITS | code
            if best is None or exact < best:
                best = exact
        if best is None:
            return None
        p = seen.pop(best & _PAIR_MASK)
        return p, seen.values()

    # ------------------------------------------------------------------ merging
    def _merge(self, ab: str, popped: Iterable[str]) -> None:
        a, b = ord(ab[0]), ord(ab[1])
        tokens = self.tokens
        new_str = tokens[a] + tokens[b][self.plen :]
        new = self.ids.get(new_str)
        if new is None:
            new = len(tokens)
            self._check_id(new)
            tokens.append(new_str)
            self.ids[new_str] = new
            self.cont_len.append(len(new_str) - self.plen)
            self.freq.append(0)
            self.g.append(0)
            self.pairs_of.append(set())
        self.merges.append((tokens[a], tokens[b], new_str))

        if a != b:
            merged = self.pair_counts[ab]  # occurrences of "a b" cannot overlap: each one merges
        else:
            # "a a a" counts the pair twice but merges once: count what str.replace will rewrite.
            words = self.words
            counts = self.counts
            merged = sum(counts[si] * words[si].count(ab) for si in set(self.where[ab]))
        formed = self._apply(ab, chr(new))
        self._record_formed(formed)
        freq = self.freq
        freq[a] -= merged
        freq[b] -= merged
        freq[new] += merged

        pairs_of = self.pairs_of
        for q in formed:
            pairs_of[ord(q[0])].add(q)
            pairs_of[ord(q[1])].add(q)
        if self.first_occurrence:
            first = self.first
            for q in formed:  # a new occurrence may be earlier than the recorded one
                first[q] = self._position(q)
        # The scores of the pairs containing a, b or the new token changed with their frequencies. A
        # lower frequency raises the scores: once freq falls below the bound frequency the pairs'
        # heap keys are no longer upper bounds, so they are re-pushed with a new bound. Formed pairs
        # (which all contain the new token) are counted higher than their heap keys say: re-pushed
        # too, by the new token's rescoring or on their own, with the pairs _pop_best popped and did
        # not choose.
        g = self.g
        reset = [t for t in {a, b, new} if freq[t] < g[t] or not g[t]]
        for t in reset:
            self._set_bound(t)
        for t in reset:  # after every reset: a pair may contain two of these tokens
            pairs = pairs_of[t]
            vanished = self._push_all(pairs)
            if vanished:
                pairs.difference_update(vanished)
        self._push_all(popped if new in reset else [*popped, *formed])
        # Outdated entries pile up; rebuild once they dominate so the heap stays O(live pairs).
        if len(self.heap) > 4 * len(self.pair_counts) + self.heap_slack:
            self._rebuild_heap()

    def run(self) -> WordPieceTraining:
        target = self.trainer.vocab_size
        progress = self.trainer.progress
        total = max(0, target - len(self.tokens))
        step = 0
        if progress is not None:
            progress("merges", 0, total)
        while len(self.tokens) < target:
            best = self._pop_best()
            if best is None:
                break
            self._merge(*best)
            step += 1
            if progress is not None and step % 100 == 0:
                progress("merges", min(total, len(self.tokens) - self.n_base), total)
        if progress is not None:
            progress("merges", total, total)
        return WordPieceTraining(list(self.tokens), self.merges, self.n_base)
