"""WordPiece: the :class:`WordPiece` model, greedy longest-match-first encoding (BERT).

A word is encoded by taking the longest prefix found in the vocabulary, then the longest
``##``-prefixed continuation, and so on (Hugging Face / BERT semantics). If some position has no
match, or the word is longer than ``max_input_chars_per_word`` characters, the **whole word** becomes
``unk_token``. The trainer lives in :mod:`algorithms.wordpiece_trainer`.

>>> wp = WordPiece({"[UNK]": 0, "hug": 1, "##s": 2, "b": 3, "##u": 4, "##gs": 5})
>>> [wp.id_to_token(i) for i, _, _ in wp.tokenize("hugs")], wp.tokenize("bugs")
(['hug', '##s'], [(3, 0, 1), (4, 1, 2), (5, 2, 4)])
>>> wp.tokenize("mug")   # no token starts with "m": the whole word is unknown
[(0, 0, 3)]
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, StrictInt, StrictStr

from algorithms._vocab import SpecialTokens, check_special_tokens, check_vocab, held_special_tokens, ordered_vocab
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.errors import VocabularyError
from toolkit.interfaces import Model, Params
from toolkit.registry import register, tool

__all__ = ["WordPiece", "DEFAULT_SPECIAL_TOKENS"]

#: The BERT special tokens, in BERT's order; the trainer's default ``special_tokens``.
DEFAULT_SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


@register("WordPiece")
class WordPiece(Model):
    """WordPiece model: greedy longest-match-first encoding with ``##`` continuations (BERT).

    ``vocab`` maps tokens to ids (``None`` or empty: an untrained template for ``Tokenizer.train``).
    Options (keyword-only, each assignable after construction):

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
        unk_token: StrictStr = Field("[UNK]", min_length=1)
        continuing_subword_prefix: StrictStr = "##"
        # Words are cut only up to this length (longer ones are unk): 10 000 keeps one word's cost bounded.
        max_input_chars_per_word: StrictInt = Field(100, ge=1, le=10_000)
        special_tokens: SpecialTokens = []

    def __init__(self, vocab: Mapping[str, int] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._set_state(vocab, check=True, where="WordPiece")

    def _set_state(self, vocab: Any = None, *, check: bool, where: str) -> None:
        """Store the vocabulary; ``check=False`` trusts it."""
        if check and vocab is not None:
            check_vocab(vocab, where=where)
        self._vocab: dict[str, int] = dict(vocab) if vocab else {}
        self._ids: dict[int, str] = {i: t for t, i in self._vocab.items()}
        self._origin = where

    def _configure(self) -> None:
        """Check the unknown and special tokens; derive the look-up tables the encoder uses."""
        super()._configure()
        where, vocab = self._origin, self._vocab
        if vocab and self.unk_token not in vocab:
            raise VocabularyError(
                f"{where}: unk_token {self.unk_token!r} is not in the vocabulary ({len(vocab)} tokens); "
                f"add {self.unk_token!r} to the vocabulary, or pass the unknown token it uses as unk_token=..."
            )
        specials = check_special_tokens(self.special_tokens, vocab, where=where)
        object.__setattr__(self, "special_tokens", held_special_tokens(self, specials))
        prefix = self.continuing_subword_prefix
        plen = len(prefix)
        # Special tokens are never matched inside text: typed "[CLS]" is ordinary text.
        self._words: dict[str, int] = {t: i for t, i in vocab.items() if t not in specials} if specials else vocab
        # Continuation tokens keyed without their prefix: the inner loop then looks up plain slices of
        # the word instead of building prefix + slice strings.
        self._cont: dict[str, int] = {t[plen:]: i for t, i in self._words.items() if t.startswith(prefix) and len(t) > plen}
        # No token is longer than this: a longer word cannot be one token, so _encode_piece skips
        # that look-up.
        self._max_first = max(map(len, vocab), default=0)
        # The token lengths that occur, longest first: the search tries only those, so one long token
        # (a 1,000-character "##aaa...") adds one look-up per position, not a thousand.
        # ``_first_lengths[r]``: those at most ``r`` (the rest of the word), for r up to the longest.
        self._first_lengths = _lengths_upto({len(t) for t in self._words})
        self._cont_lengths = _lengths_upto({len(t) for t in self._cont})
        self._unk_id: int | None = vocab.get(self.unk_token)

    def _new_caches(self) -> None:
        super()._new_caches()
        self._tok_cache: BoundedCache = BoundedCache(self.cache_capacity, longest=MAX_CACHED_PIECE)

    # -------------------------------------------------------------------------------- (de)serialization
    def params(self) -> dict[str, Any]:
        return {
            "vocab": ordered_vocab(self._vocab),
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
        options = {k: v for k, v in data.items() if k not in ("type", "vocab")}
        return cls._assemble(  # type: ignore[no-any-return]
            options, validate=validate, where=where or "model 'WordPiece'", vocab=data.get("vocab"), check=validate
        )

    @classmethod
    def read_vocab_file(cls, path: str | Path) -> dict[str, int]:
        """Read a BERT ``vocab.txt``: one token per line, the id is the line number (HF's
        ``WordPiece.read_file``; the reader is :func:`toolkit.interop.read_bert_vocab`).

        >>> WordPiece.read_vocab_file("vocab.txt")   # doctest: +SKIP
        {'[PAD]': 0, '[UNK]': 1, ...}
        """
        return tool("read_bert_vocab")(path)  # type: ignore[no-any-return]

    read_file = read_vocab_file  # HF's name

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
        lengths = self._first_lengths
        out: list[tuple[int, int, int]] = []
        start = 0
        while start < n:
            # Longest candidate first, among the lengths the vocabulary has.
            rest = n - start
            for size in lengths[rest if rest < len(lengths) else -1]:
                token_id = get(word[start : start + size])
                if token_id is not None:
                    break
            else:
                return None
            out.append((token_id, start, start + size))
            start += size
            get = self._cont.get
            lengths = self._cont_lengths
        return out

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """``[(id, start, end), ...]`` for ``piece``; an unknown word is one ``unk`` token spanning it.

        >>> WordPiece({"[UNK]": 0, "a": 1, "##b": 2}).tokenize("abc")
        [(0, 0, 3)]
        """
        cache = self._tok_cache  # read once (see Configurable._reconfigure)
        cached = cache.get(piece)
        if cached is None:
            if not piece:
                return []
            out = self._match(piece)
            cached = cache.put(piece, ((self._unknown(), 0, len(piece)),) if out is None else tuple(out))
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
        lengths = self._first_lengths
        ids: list[int] = []
        start = 0
        while start < n:
            rest = n - start
            for size in lengths[rest if rest < len(lengths) else -1]:
                token_id = get(piece[start : start + size])
                if token_id is not None:
                    break
            else:
                return (self._unknown(),)
            ids.append(token_id)
            start += size
            get = self._cont.get
            lengths = self._cont_lengths
        return tuple(ids)


def _lengths_upto(lengths: set[int]) -> list[list[int]]:
    """``out[r]``: the lengths of ``lengths`` that are at most ``r``, longest first (r up to the largest)."""
    desc = sorted(lengths, reverse=True)
    return [[size for size in desc if size <= r] for r in range(max(lengths, default=0) + 1)]
