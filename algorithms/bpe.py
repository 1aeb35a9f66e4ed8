"""Character-level BPE: the :class:`BPE` model and the :class:`BPETrainer`.

This module owns character-level byte-pair encoding with Hugging Face ``models.BPE`` semantics:

* a piece is split into characters (the first bare, the others with ``continuing_subword_prefix``
  when set, the last with ``end_of_word_suffix`` when set);
* a character missing from the vocabulary becomes ``unk_token`` on its own (consecutive ones are
  fused with ``fuse_unk=True``), or its UTF-8 bytes as ``<0xNN>`` tokens with ``byte_fallback=True``;
* merges are applied by rank, lowest first, leftmost first on equal rank, until none applies
  (the shared core in :mod:`algorithms._bpe_encode`).

The trainer turns word counts into such a model with Hugging Face ``BpeTrainer`` semantics (special
tokens, then the alphabet sorted by code point, then merges learned by
:func:`algorithms._merges.learn_merges`). With ``tie_break="ids"`` and the same pre-tokenization,
alphabet and special tokens, its merges are identical to Hugging Face's (without a
``continuing_subword_prefix`` or ``end_of_word_suffix``: HF numbers those symbols in hash-map order).

>>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
>>> model = BPETrainer(vocab_size=11, special_tokens=["[UNK]"]).train(counts)
>>> model.merges
[('u', 'g'), ('u', 'n'), ('h', 'ug')]
>>> model = BPE(model.get_vocab(), model.merges, unk_token="[UNK]")
>>> [model.id_to_token(i) for i in model.encode_piece("thug")]
['[UNK]', 'hug']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

from pydantic import Field, StrictBool, StrictInt

from algorithms._bpe_encode import LONG_PIECE_THRESHOLD, merge_ids, merge_with_positions
from algorithms._merges import TieBreak, learn_merges
from algorithms._vocab import (
    SpecialTokens,
    VocabLookup,
    build_pair_table,
    check_initial_alphabet,
    check_special_tokens,
    check_vocab,
    checked_word_counts,
    held_special_tokens,
    merges_to_json,
    ordered_vocab,
    parse_merges,
    select_alphabet,
)
from toolkit import limits
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.errors import ConfigError, InputError, VocabularyError
from toolkit.interfaces import Model, Params, Trainer
from toolkit.progress import training_progress
from toolkit.registry import register

__all__ = ["BPE", "BPETrainer", "TieBreak"]


def _byte_fallback_token(byte: int) -> str:
    # The sentencepiece / Hugging Face spelling: "<0x0A>".
    return f"<0x{byte:02X}>"


@register("BPE")
class BPE(VocabLookup, Model):
    """Character-level BPE model (Hugging Face ``models.BPE`` semantics).

    ``vocab`` maps token strings to ids; ``merges`` lists ``(left, right)`` pairs in rank order. The
    merged token of ``(left, right)`` is ``left + right`` with ``continuing_subword_prefix`` removed
    from ``right``; it must be in ``vocab``. ``special_tokens`` name vocabulary entries that the
    tokenizer can emit for ``allowed_special`` text. ``ignore_merges=True`` returns a piece that is a
    vocabulary entry as one token without merging (Hugging Face's option of the same name).

    >>> bpe = BPE({"[UNK]": 0, "b": 1, "g": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="[UNK]")
    >>> bpe.encode_piece("bug"), bpe.tokenize("mug")
    ((1, 4), [(0, 0, 1), (4, 1, 3)])
    """

    _state_names = ("vocab", "merges")

    class Params(Params):
        unk_token: str | None = Field(None, min_length=1)  # "" is no token (a saved file would be refused)
        continuing_subword_prefix: str | None = None
        end_of_word_suffix: str | None = None
        special_tokens: SpecialTokens = []
        fuse_unk: StrictBool = False
        byte_fallback: StrictBool = False
        ignore_merges: StrictBool = False
        dropout: float | None = Field(None, ge=0.0, le=1.0, allow_inf_nan=False)
        seed: StrictInt | None = None

    #: Pieces longer than this (in characters) use the O(n log n) long-piece merge.
    long_piece_threshold: int = LONG_PIECE_THRESHOLD

    def __init__(
        self, vocab: Mapping[str, int] | None = None, merges: Sequence[tuple[str, str]] | None = None, **options: Any
    ) -> None:
        super().__init__(**options)
        self._set_state(vocab, merges, check=True, where="BPE")

    # ------------------------------------------------------------------ construction
    def _set_state(self, vocab: Any = None, merges: Any = None, *, check: bool, where: str) -> None:
        """Store the vocabulary and the merges; ``check=False`` trusts them."""
        vocab = {} if vocab is None else vocab
        if check:
            id_to_token = check_vocab(vocab, where=where)
            merge_list = parse_merges(merges, where=where)
        else:
            id_to_token = {i: t for t, i in vocab.items()}
            merge_list = [tuple(m) for m in merges or ()]  # type: ignore[misc]
        self.vocab: dict[str, int]
        self.merges: list[tuple[str, str]]
        self._hold_state("vocab", ordered_vocab(vocab))
        self._hold_state("merges", merge_list)  # type: ignore[arg-type]
        self._id_to_token = id_to_token
        self._origin = where

    def _configure(self) -> None:
        """The look-up tables of the options, the vocabulary and the merges."""
        super()._configure()
        where = self._origin
        for name in ("continuing_subword_prefix", "end_of_word_suffix"):  # "" means none
            object.__setattr__(self, name, getattr(self, name) or None)
        specials = check_special_tokens(self.special_tokens, self.vocab, where=where)
        object.__setattr__(self, "special_tokens", held_special_tokens(self, specials))
        # An empty vocabulary is an untrained template (BPE(unk_token="[UNK]")): the trainer adds it.
        if self.unk_token is not None and self.unk_token not in self.vocab and self.vocab:
            raise VocabularyError(
                f"{where}.unk_token: {self.unk_token!r} is not in the vocabulary; add it (e.g. as a special "
                "token of the trainer) or set unk_token=None"
            )
        self._unk_id = self.vocab.get(self.unk_token) if self.unk_token is not None else None
        # Regular tokens only: ignore_merges must never turn ordinary text into a special token.
        self._regular = self.vocab
        if specials:
            self._regular = dict(self.vocab)  # a C-speed copy, then the few specials out
            for token in specials:
                del self._regular[token]
        prefix = self.continuing_subword_prefix
        self._pair_rank, rank_id = build_pair_table(
            self.merges, self.vocab, specials.values(), prefix=prefix, where=where
        )
        # A tuple of ints, which the garbage collector stops walking; a list of every merge (Gemma 3: 514,906)
        # is walked at each full collection, which encoding many texts triggers.
        self._rank_id = tuple(rank_id)
        self._fallback_ids = [self.vocab.get(_byte_fallback_token(b)) for b in range(256)] if self.byte_fallback else []
        # Continuation characters ("##a" -> "a"): looked up by the character alone on the hot path.
        self._cont_ids = (
            {t[len(prefix):]: i for t, i in self.vocab.items() if len(t) == len(prefix) + 1 and t.startswith(prefix)}
            if prefix
            else {}
        )
        self._plain = prefix is None and self.end_of_word_suffix is None
        # BPE-dropout: the merge skips each candidate with this probability; caches store nothing meanwhile.
        self._drop: dict[str, Any] = {"dropout": self.dropout, "rng": Random(self.seed)} if self.stochastic else {}
        self._word_start = _word_starts(self.vocab) if self._plain and not self.ignore_merges and not self.stochastic else None
        self._word_split = None if self._word_start is None else _word_splitter(self._word_start)

    def _new_caches(self) -> None:
        super()._new_caches()
        #: The tokens with spans of each word a long piece is cut into (:meth:`tokenize`).
        self._tok_cache: BoundedCache = BoundedCache(self.cache_capacity, longest=MAX_CACHED_PIECE)

    @property
    def stochastic(self) -> bool:  # type: ignore[override]
        """True while ``dropout`` is above 0 (then every encoding draws anew and nothing is cached)."""
        return bool(self.dropout)

    # ------------------------------------------------------------------ serialization
    def params(self) -> dict[str, Any]:
        """All options, the vocabulary and the merges (the inverse of the constructor)."""
        return {
            "vocab": dict(self.vocab),
            "merges": merges_to_json(self.merges),
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "special_tokens": list(self.special_tokens),
            "fuse_unk": self.fuse_unk,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": self.ignore_merges,
            "dropout": self.dropout,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> BPE:
        """Rebuild from :meth:`to_dict` output. ``validate=False`` trusts the data (files we wrote)."""
        options = {k: v for k, v in data.items() if k not in ("type", "vocab", "merges")}
        return cls._assemble(  # type: ignore[no-any-return]
            options, validate=validate, where=where or "model",
            vocab=data.get("vocab"), merges=data.get("merges"), check=validate,
        )

    # ------------------------------------------------------------------ encoding
    def _initial(self, piece: str) -> tuple[list[int], list[int], list[int]] | None:
        """Initial symbols ``(ids, starts, ends)`` (character spans), unknown characters as
        ``unk_token`` (a fused run with ``fuse_unk``) or byte-fallback tokens: the general path, taken
        when :meth:`_initial_fast` and :meth:`_fill_unknown` cannot give one symbol per character."""
        ids: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        vocab_get = self.vocab.get
        prefix = self.continuing_subword_prefix
        suffix = self.end_of_word_suffix
        last = len(piece) - 1
        unk_id = self._unk_id
        pending_unk: tuple[int, int] | None = None  # (start, end) of an unknown run not yet emitted
        for i, c in enumerate(piece):
            s = prefix + c if prefix is not None and i else c
            if suffix is not None and i == last:
                s += suffix
            token_id = vocab_get(s)
            fallback: list[int] | None = None
            if token_id is None and self.byte_fallback:
                fb = [self._fallback_ids[b] for b in c.encode("utf-8", "surrogatepass")]
                if None not in fb:
                    fallback = fb  # type: ignore[assignment]
            if token_id is not None or fallback is not None:
                if pending_unk is not None:
                    ids.append(unk_id)  # type: ignore[arg-type]
                    starts.append(pending_unk[0])
                    ends.append(pending_unk[1])
                    pending_unk = None
                for t in (token_id,) if fallback is None else fallback:
                    ids.append(t)  # type: ignore[arg-type]
                    starts.append(i)
                    ends.append(i + 1)
                continue
            if unk_id is None:
                raise InputError(
                    f"character {c!r} (U+{ord(c):04X}) at index {i} of {piece!r} is not in the BPE vocabulary and "
                    "the model has no unk_token; set unk_token (BPETrainer(unk_token=...) or BPE(unk_token=...)), "
                    "add the character with initial_alphabet, or use a byte-level model"
                )
            if pending_unk is not None and self.fuse_unk:
                pending_unk = (pending_unk[0], i + 1)
                continue
            if pending_unk is not None:
                ids.append(unk_id)
                starts.append(pending_unk[0])
                ends.append(pending_unk[1])
            pending_unk = (i, i + 1)
        if pending_unk is not None:
            ids.append(unk_id)  # type: ignore[arg-type]
            starts.append(pending_unk[0])
            ends.append(pending_unk[1])
        return ids, starts, ends

    def _initial_fast(self, piece: str) -> list[int | None]:
        """One id per character, ``None`` where the character needs unk/byte-fallback handling."""
        if self._plain:
            return [*map(self.vocab.get, piece)]
        cont_get = self._cont_ids.get if self.continuing_subword_prefix is not None else self.vocab.get
        ids = [self.vocab.get(piece[0]), *map(cont_get, piece[1:])]
        suffix = self.end_of_word_suffix
        if suffix is not None:
            last = piece[-1]
            if len(piece) > 1 and self.continuing_subword_prefix is not None:
                last = self.continuing_subword_prefix + last
            ids[-1] = self.vocab.get(last + suffix)
        return ids

    def _fill_unknown(self, piece: str, syms: list[int | None]) -> list[int] | None:
        """Replace the ``None`` of :meth:`_initial_fast` by ``unk_token``, one per character.

        Returns ``None`` when ``fuse_unk``/``byte_fallback`` change the number of symbols (then
        :meth:`_initial` handles the piece).
        """
        if self.fuse_unk or self.byte_fallback:
            return None
        unk_id = self._unk_id
        if unk_id is None:
            self._initial(piece)  # raises the InputError naming the first unknown character
        return [unk_id if s is None else s for s in syms]  # type: ignore[misc]

    def cut_words(self, piece: str) -> list[str]:
        """The words :meth:`tokenize` cuts ``piece`` into and merges on their own (``[piece]``: merged
        whole). The tokens of ``piece`` are each word's tokens, spans shifted by the word's start, so the
        pipeline's ``encode`` keeps each word's tokens in its cache rather than the whole piece's.

        >>> BPE({"▁": 0, "a": 1, "▁a": 2}, [("▁", "a")]).cut_words("▁a" * 9)
        ['▁a', '▁a', '▁a', '▁a', '▁a', '▁a', '▁a', '▁a', '▁a']
        """
        if self._word_split is None or len(piece) <= _SPLIT_FROM:
            return [piece]
        return self._word_split(piece)  # the cuts of _word_cuts, at C speed

    def _word_cuts(self, piece: str) -> list[int]:
        """Where a long piece is cut into words that no token spans (:func:`_word_starts`); none: merged whole."""
        if len(piece) <= _SPLIT_FROM:
            return []
        return [m.start() for m in self._word_start.finditer(piece, 1)]  # type: ignore[union-attr]

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        if not piece:
            return ()
        if self._word_start is not None:
            cuts = self._word_cuts(piece)
            if cuts:  # words no token spans: each merged on its own, through the piece cache
                encode, out, start = self.encode_piece, [], 0
                for end in cuts:
                    out += encode(piece[start:end])
                    start = end
                return (*out, *encode(piece[start:]))
        if self.ignore_merges:
            whole = self._regular.get(piece)
            if whole is not None:
                return (whole,)
        syms = self._initial_fast(piece)
        if None in syms:
            filled = self._fill_unknown(piece, syms)
            syms = filled if filled is not None else self._initial(piece)[0]  # type: ignore[assignment,index]
        return tuple(merge_ids(syms, self._pair_rank, self._rank_id, threshold=self.long_piece_threshold, **self._drop))  # type: ignore[arg-type]

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """``[(id, start, end), ...]`` with character spans inside ``piece``.

        >>> BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).tokenize("aba")
        [(2, 0, 2), (0, 2, 3)]
        """
        if not piece:
            return []
        if self._word_start is not None:
            cuts = self._word_cuts(piece)
            if cuts:  # as in _encode_piece: each word on its own, through a cache, spans shifted to the piece
                cache = self._tok_cache  # read once (see Configurable._reconfigure)
                get, put = cache.get, cache.put
                found, start = [], 0
                for end in [*cuts, len(piece)]:
                    word = piece[start:end]
                    tokens = get(word)
                    if tokens is None:
                        tokens = put(word, tuple(self.tokenize(word)))
                    found += [(t, s + start, e + start) for t, s, e in tokens]
                    start = end
                return found
        if self.ignore_merges:
            whole = self._regular.get(piece)
            if whole is not None:
                return [(whole, 0, len(piece))]
        syms = self._initial_fast(piece)
        if None in syms:
            syms = self._fill_unknown(piece, syms)  # type: ignore[assignment]
        if syms is not None:
            # One symbol per character: symbol k covers character k.
            ids, pos = merge_with_positions(syms, self._pair_rank, self._rank_id, threshold=self.long_piece_threshold, **self._drop)  # type: ignore[arg-type]
            bounds = pos[1:] + [len(piece)]
            return list(zip(ids, pos, bounds))
        syms, starts, ends = self._initial(piece)  # type: ignore[misc]
        n = len(syms)  # the merge consumes syms
        ids, pos = merge_with_positions(syms, self._pair_rank, self._rank_id, threshold=self.long_piece_threshold, **self._drop)
        last = [p - 1 for p in pos[1:]] + [n - 1]
        return [(t, starts[p], ends[q]) for t, p, q in zip(ids, pos, last)]


#: Pieces longer than this are cut into words before merging, when the vocabulary allows it.
_SPLIT_FROM = 16

#: The word marker of SentencePiece-style vocabularies (Llama 2, Gemma): a space written as U+2581.
_MARK = "\u2581"


def _word_starts(vocab: Mapping[str, int]) -> re.Pattern[str] | None:
    """Where a piece can be cut into words that merge on their own: before each ``▁`` whose previous
    character never precedes a ``▁`` inside a token (no merge can join across such a place, so the
    merges of each side are those of that side alone). ``None`` when ``▁`` is not a token.

    >>> [m.start() for m in _word_starts({"▁": 0, "a": 1, "b": 2, "b▁": 3}).finditer("▁a▁▁a▁b▁a", 1)]
    [2, 5]
    """
    if _MARK not in vocab:
        return None
    before = {_MARK}
    for token in vocab:
        at = token.find(_MARK, 1)
        while at > 0:
            before.add(token[at - 1])
            at = token.find(_MARK, at + 1)
    return re.compile("(?<=[^" + "".join(re.escape(c) for c in sorted(before)) + "])" + _MARK)


def _word_splitter(starts: re.Pattern[str]) -> Callable[[str], list[str]]:
    """``split(piece)``: ``piece`` cut where ``starts`` (:func:`_word_starts`) matches, the ``▁`` kept at
    the start of the next word: the same cuts, as a zero-width lookahead for ``re.split``.

    >>> _word_splitter(_word_starts({"▁": 0, "a": 1, "b": 2, "b▁": 3}))("▁a▁▁a▁b▁a")
    ['▁a', '▁▁a', '▁b▁a']
    """
    assert starts.pattern.endswith(_MARK)
    return re.compile(starts.pattern[: -len(_MARK)] + f"(?={_MARK})").split


@register("BPETrainer")
class BPETrainer(Trainer):
    """Learns a character-level :class:`BPE` model from word counts (Hugging Face ``BpeTrainer`` rules).

    Base vocabulary: ``special_tokens`` in order (plus ``unk_token`` first when it is set and not
    listed), then the alphabet (characters seen, plus ``initial_alphabet``; ``limit_alphabet`` keeps
    the most frequent) sorted by code point, then the ``continuing_subword_prefix`` /
    ``end_of_word_suffix`` variants met while splitting the words. Merges are then learned until the
    vocabulary has ``vocab_size`` tokens or no pair occurs ``min_frequency`` times. The token of a
    merge is ``left + right`` (``right`` without its continuing prefix); when that string already
    exists its id is reused, as Hugging Face does. ``tie_break`` orders pairs of equal count:
    ``"ids"`` (smallest ``(left_id, right_id)``, Hugging Face's rule) or ``"first_occurrence"``.

    Options other than ``progress`` (a ``callback(stage, done, total)``) are serialized.

    >>> trainer = BPETrainer(vocab_size=12, special_tokens=["[UNK]"])
    >>> model = trainer.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    >>> len(model.get_vocab()), model.merges
    (12, [('u', 'g'), ('u', 'n'), ('h', 'ug'), ('p', 'un')])
    """

    class Params(Trainer.Params):
        vocab_size: StrictInt = Field(30000, ge=1)
        min_frequency: StrictInt = Field(0, ge=0)
        special_tokens: list[str] = []
        limit_alphabet: StrictInt | None = Field(None, ge=0)
        initial_alphabet: list[str] = []
        continuing_subword_prefix: str | None = None
        end_of_word_suffix: str | None = None
        max_token_length: StrictInt | None = Field(None, ge=1)
        tie_break: TieBreak = "ids"
        unk_token: str | None = None

    def _configure(self) -> None:
        where = type(self).__name__
        limits.check_trainer_options(
            self.vocab_size, [*self.special_tokens, *([] if self.unk_token is None else [self.unk_token])],
            where=where, initial_alphabet=self.initial_alphabet,
            affixes=(self.continuing_subword_prefix, self.end_of_word_suffix),
        )
        check_initial_alphabet(self.initial_alphabet, where=where)
        for name in ("continuing_subword_prefix", "end_of_word_suffix"):  # "" means none
            object.__setattr__(self, name, getattr(self, name) or None)

    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> BPE:
        """Learn a :class:`BPE` model from ``word_counts`` (piece → frequency); see the class docstring.

        ``model`` is an optional :class:`BPE` template: its ``unk_token``, ``continuing_subword_prefix``,
        ``end_of_word_suffix``, ``fuse_unk``, ``byte_fallback``, ``ignore_merges``, ``dropout`` and ``seed``
        are kept (the trainer's own prefix, suffix and ``unk_token`` win when set).
        """
        if model is not None and not isinstance(model, BPE):
            raise ConfigError(f"BPETrainer trains BPE models; the tokenizer's model is a {type(model).__name__}")
        template = model
        unk_token = self.unk_token if self.unk_token is not None else (template.unk_token if template else None)
        prefix = self.continuing_subword_prefix or (template.continuing_subword_prefix if template else None)
        suffix = self.end_of_word_suffix or (template.end_of_word_suffix if template else None)
        items = checked_word_counts(word_counts)

        # 1. Special tokens (unk_token first when it is not listed), in order, without duplicates.
        specials = self.distinct_special_tokens
        if unk_token is not None and unk_token not in specials:
            specials.insert(0, unk_token)
        id_to_token: list[str] = list(specials)
        vocab: dict[str, int] = {t: i for i, t in enumerate(id_to_token)}

        # 2. The alphabet.
        for c in select_alphabet(items, self.initial_alphabet, self.limit_alphabet):
            if c not in vocab:
                vocab[c] = len(id_to_token)
                id_to_token.append(c)
        alphabet = {c for c in vocab if len(c) == 1}

        # 3. Words as symbol ids (characters outside the kept alphabet are dropped, as in HF).
        char_len: list[int] = [1] * len(id_to_token)  # characters of the original text each id covers
        words = _words_as_symbols(items, alphabet, prefix, suffix, vocab, id_to_token, char_len)
        counts = [count for _, count in items]

        # A vocab_size below the base vocabulary (specials + alphabet) learns no merge, as in HF; the
        # caller's check_reached warns that the model is larger than asked.
        learned = self._learn(words, counts, specials, prefix, suffix, vocab, id_to_token, char_len)
        # A pair can be merged twice when a later merge re-creates one of its tokens ("##" + "###"
        # spells the existing "###"). The model ranks each pair once, by its first merge, which is the
        # one that applies when encoding; the repeat adds no token.
        merges = list(dict.fromkeys((id_to_token[a], id_to_token[b]) for a, b, _ in learned))

        options: dict[str, Any] = {
            "unk_token": unk_token,
            "continuing_subword_prefix": prefix,
            "end_of_word_suffix": suffix,
            "special_tokens": specials,
            "fuse_unk": template.fuse_unk if template else False,
            "byte_fallback": template.byte_fallback if template else False,
            "ignore_merges": template.ignore_merges if template else False,
            "dropout": template.dropout if template else None,
            "seed": template.seed if template else None,
        }
        return BPE._assemble(options, validate=False, vocab=vocab, merges=merges, check=False, where="BPETrainer")  # type: ignore[no-any-return]

    def _learn(
        self,
        words: list[list[int]],
        counts: list[int],
        specials: list[str],
        prefix: str | None,
        suffix: str | None,
        vocab: dict[str, int],
        id_to_token: list[str],
        char_len: list[int],
    ) -> list[tuple[int, int, int]]:
        """The merges, as :func:`learn_merges` returns them; new tokens are added to the tables.

        A merge whose string already exists reuses its id (HF; learn_merges does not count it toward
        max_merges). One that would spell a special token is refused, so ordinary text can never
        encode to a special token's id.
        """
        special_set = set(specials)
        max_len = limits.max_trained_token_length(self.max_token_length, len(prefix or "") + len(suffix or ""))
        strip = len(prefix) if prefix else 0

        def merge_symbol(left: int, right: int) -> int | None:
            length = char_len[left] + char_len[right]
            if max_len is not None and length > max_len:
                return None
            a = id_to_token[left]
            b = id_to_token[right]
            if strip and b.startswith(prefix):  # type: ignore[arg-type]
                b = b[strip:]
            new = a + b
            if new in special_set:
                return None
            token_id = vocab.get(new)
            if token_id is None:
                token_id = vocab[new] = len(id_to_token)
                id_to_token.append(new)
                char_len.append(length)
            return token_id

        with training_progress(self) as progress:
            return learn_merges(
                words,
                counts,
                merge_symbol=merge_symbol,
                max_merges=self.vocab_size - len(id_to_token),
                min_frequency=self.min_frequency,
                tie_break=self.tie_break,
                progress=progress,
            )


def _words_as_symbols(
    items: list[tuple[str, int]],
    alphabet: set[str],
    prefix: str | None,
    suffix: str | None,
    vocab: dict[str, int],
    id_to_token: list[str],
    char_len: list[int],
) -> list[list[int]]:
    """Each word as symbol ids: its characters in ``alphabet``, with ``prefix`` after the first and
    ``suffix`` on the last; new symbols (``##a``, ``a</w>``) are added to ``vocab``/``id_to_token``/
    ``char_len`` in sorted order, so their ids (which break ties between pairs) do not depend on the
    order of the word counts."""
    if prefix is None and suffix is None:  # every symbol is a character of the alphabet, in vocab already
        return [[vocab[c] for c in word if c in alphabet] for word, _ in items]
    spelled: list[list[str]] = []
    for word, _ in items:
        last = len(word) - 1
        spelled.append([
            (prefix + c if prefix is not None and i else c) + (suffix if suffix is not None and i == last else "")
            for i, c in enumerate(word) if c in alphabet
        ])
    for s in sorted({s for symbols in spelled for s in symbols} - vocab.keys()):
        vocab[s] = len(id_to_token)
        id_to_token.append(s)
        char_len.append(1)
    return [[vocab[s] for s in symbols] for symbols in spelled]
