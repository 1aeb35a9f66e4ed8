"""Byte-level BPE: the :class:`ByteLevelBPE` model and the :class:`ByteLevelBPETrainer`.

This module owns BPE over UTF-8 bytes, where nothing is ever unknown. Pieces reach the model already
written in the GPT-2 byte-level alphabet (one character per byte, ``Ġ`` for a space) by the
``ByteLevel`` pre-tokenizer, and vocabulary keys use the same alphabet, as in Hugging Face files.

Two encoding modes share one core (:mod:`algorithms._bpe_encode`):

* **merges mode** — an explicit merge list applied by rank (Hugging Face ``models.BPE`` semantics);
  used by trained models and GPT-2 / Hugging Face files;
* **rank mode** — :meth:`ByteLevelBPE.from_ranks` takes tiktoken's ``bytes -> rank`` table: a piece
  that is itself a token is that token, otherwise repeatedly merge the adjacent pair whose
  concatenation has the lowest rank (``.tiktoken`` files such as cl100k). Special tokens may have ids
  beyond the ranks.

The trainer reserves ids 0..255 for the bytes, gives merge ``i`` the id ``256 + i`` and appends the
special tokens after the merges, so ``vocab_size = 256 + n_merges + n_special``.

>>> trainer = ByteLevelBPETrainer(vocab_size=259, special_tokens=["<|endoftext|>"])
>>> model = trainer.train({"Ġlow": 5, "Ġlower": 2, "Ġnewest": 6})
>>> model.merges, model.special_tokens
([('w', 'e'), ('Ġ', 'l')], {'<|endoftext|>': 258})
>>> model.encode_piece("Ġlowest")
(257, 111, 256, 115, 116)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import accumulate
from random import Random
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from algorithms._bpe_encode import (
    LONG_PIECE_THRESHOLD,
    merge_dropout,
    merge_ids,
    merge_short,
    pair_table_from_ranks,
)
from algorithms._merges import TieBreak, learn_merges
from algorithms._vocab import (
    VocabLookup,
    build_pair_table,
    check_special_tokens,
    check_vocab,
    checked_word_counts,
    merges_to_json,
    ordered_vocab,
    parse_merges,
    without_special_results,
)
from toolkit import limits
from toolkit.bytelevel import (
    BYTE_TO_CHAR,
    CHAR_TO_BYTE,
    byte_symbols,
    bytes_to_byte_level,
    from_byte_level,
)
from toolkit.errors import ConfigError, InputError, TrainingError, VocabularyError
from toolkit.interfaces import Model, Params, Trainer
from toolkit.progress import training_progress
from toolkit.registry import register

_BYTE_SYMBOLS = frozenset(BYTE_TO_CHAR)

__all__ = ["ByteLevelBPE", "ByteLevelBPETrainer"]


@register("ByteLevelBPE")
class ByteLevelBPE(VocabLookup, Model):
    """Byte-level BPE model: merges mode (HF semantics) or rank mode (tiktoken semantics).

    ``vocab`` maps byte-level strings (``"Ġthe"``) to ids and must contain the 256 single-byte tokens;
    ``merges`` lists ``(left, right)`` pairs in rank order, each producing ``left + right``. Without
    arguments the model is the plain byte tokenizer (ids 0..255, no merges), the untrained template
    of a byte-level pipeline. ``special_tokens`` is a list of vocabulary entries or a mapping
    ``{token: id}`` whose ids may lie beyond the vocabulary (they are added). ``ignore_merges=True``
    returns a piece that is a vocabulary entry as one token (required in rank mode). ``mode`` is
    ``"merges"`` or ``"ranks"`` (:meth:`from_ranks`; the ids of the regular tokens are their ranks).
    Every option can be assigned after construction; switching a rank-mode model to ``"merges"``
    uses the merges derived from its ranks (see :attr:`merges`).

    >>> m = ByteLevelBPE()
    >>> m.encode_piece("hĠé"[:2]), m.vocab_size
    ((104, 32), 256)
    >>> m = ByteLevelBPE.from_ranks({bytes([b]): b for b in range(256)} | {b"ab": 256}, special_tokens={"<s>": 300})
    >>> m.encode_piece("abab"), m.token_to_id("ab"), m.id_to_token(300)
    ((256, 256), 256, '<s>')
    """

    _state_names = ("vocab", "merges")

    class Params(Params):
        special_tokens: dict[str, int] | list[str] = {}
        ignore_merges: StrictBool = False
        mode: Literal["merges", "ranks"] = "merges"
        dropout: float | None = Field(None, ge=0.0, le=1.0, allow_inf_nan=False)
        seed: StrictInt | None = None

    #: Pieces longer than this (in bytes) use the O(n log n) long-piece merge.
    long_piece_threshold: int = LONG_PIECE_THRESHOLD

    def __init__(
        self, vocab: Mapping[str, int] | None = None, merges: Sequence[tuple[str, str]] | None = None, **options: Any
    ) -> None:
        super().__init__(**options)
        self._set_state(vocab, merges, check=True, where="ByteLevelBPE")

    @classmethod
    def from_ranks(cls, ranks: Mapping[bytes, int], *, special_tokens: Mapping[str, int] | None = None) -> ByteLevelBPE:
        """A rank-mode model from tiktoken ranks (token bytes → rank; the rank is the id).

        >>> m = ByteLevelBPE.from_ranks({bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257})
        >>> m.encode_piece("abc"), m.encode_piece("xabc")
        ((257,), (120, 257))
        """
        where = "ByteLevelBPE.from_ranks"
        _check_ranks(ranks, where=where)
        if special_tokens is not None and not isinstance(special_tokens, Mapping):
            raise ConfigError(f"{where}.special_tokens: must map token strings to ids in rank mode, got {special_tokens!r}")
        vocab = {bytes_to_byte_level(token): rank for token, rank in ranks.items()}
        options = {"special_tokens": special_tokens or {}, "ignore_merges": True, "mode": "ranks"}
        return cls._assemble(options, validate=False, where=where, vocab=vocab, check=False, ranks=ranks)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ construction
    def _set_state(
        self, vocab: Any = None, merges: Any = None, *, check: bool, where: str, ranks: Mapping[bytes, int] | None = None
    ) -> None:
        """Store the vocabulary (without added special tokens) and the merges; ``check=False`` trusts them.

        ``ranks`` (rank mode) are the regular tokens as bytes, when the caller has them already.
        """
        if vocab is None:
            vocab = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
        if merges is None and self.mode == "merges":
            merges = []
        if check:
            id_to_token = check_vocab(vocab, where=where)
            merge_list = parse_merges(merges, where=where) if merges is not None else None
        else:
            id_to_token = {i: t for t, i in vocab.items()}
            merge_list = [tuple(m) for m in merges] if merges is not None else None
        self._base_vocab: Mapping[str, int] = vocab
        self._base_ids = id_to_token
        self._merge_list: list[tuple[str, str]] | None = (  # type: ignore[assignment]
            None if merge_list is None else self._held("merges", merge_list)
        )
        self._given_ranks = ranks
        self._origin = where

    def _configure(self) -> None:
        """The tables of the mode: the pair table, byte ids, token lengths, the regular vocabulary."""
        super()._configure()
        self._rng = Random(self.seed)  # BPE-dropout's draws
        where = self._origin
        vocab, id_to_token = self._base_vocab, self._base_ids
        if self.mode == "ranks" and not self.ignore_merges:
            raise ConfigError(
                f"{where}.ignore_merges: rank mode (tiktoken semantics) always keeps a piece that is a token "
                "whole; ignore_merges must be true"
            )
        if any(t not in vocab for t in self.special_tokens) and isinstance(self.special_tokens, Mapping):
            vocab, id_to_token = dict(vocab), dict(id_to_token)  # the mapped special tokens are added
        specials = _add_special_tokens(self.special_tokens, vocab, id_to_token, where=where)  # type: ignore[arg-type]
        self._finish(vocab, id_to_token, specials, where=where)
        if self.mode == "ranks":
            ranks = self._ranks(specials, where=where)
            self._rank_id: Sequence[int] = range(max(ranks.values(), default=-1) + 1)  # a pair merges into its rank
            self._pair_rank = without_special_results(pair_table_from_ranks(ranks), self._rank_id, specials.values())
            self._merges: list[tuple[str, str]] | None = None  # derived on demand, see the merges property
        else:
            if self._merge_list is None:  # a rank-mode model switched to merges mode
                self._merge_list = self._held("merges", self._derived_merges(specials))
            self._merges = self._merge_list
            self._pair_rank, self._rank_id = build_pair_table(self._merges, self.vocab, specials.values(), where=where)

    def _ranks(self, specials: Mapping[str, int], *, where: str) -> dict[bytes, int]:
        """tiktoken's ``token bytes -> rank`` of the regular tokens (rank mode)."""
        if self._given_ranks is not None:
            special_ids = set(specials.values())
            return {b: r for b, r in self._given_ranks.items() if r not in special_ids}
        ranks: dict[bytes, int] = {}
        for token, token_id in self._base_vocab.items():
            if token in specials:
                continue
            # from_byte_level lets Latin-1 characters outside the alphabet ("\n") through: check here.
            bad = next((c for c in token if c not in CHAR_TO_BYTE), None)
            if bad is not None:
                raise VocabularyError(
                    f"{where}.vocab[{token!r}]: {bad!r} is not a byte-level character; rank-mode vocabularies "
                    "hold byte-level strings (and the special tokens)"
                )
            ranks[from_byte_level(token)] = token_id
        return ranks

    def _derived_merges(self, specials: Mapping[str, int]) -> list[tuple[str, str]]:
        """The merges of a rank table, as Hugging Face converts tiktoken files (see :attr:`merges`)."""
        table = pair_table_from_ranks(self._ranks(specials, where=self._origin))
        by_id = self._base_ids
        return [(by_id[left], by_id[right]) for _, left, right in sorted((m, l, r) for (l, r), m in table.items())]

    def _finish(self, vocab: Mapping[str, int], id_to_token: dict[int, str], specials: dict[str, int], *, where: str) -> None:
        """The tables both modes share: byte ids, token byte lengths, the regular vocabulary."""
        limits.check_vocab_size(len(vocab), where=f"{where}.vocab")
        self.vocab: dict[str, int]
        self._hold_state("vocab", ordered_vocab(vocab))
        self._id_to_token = id_to_token
        object.__setattr__(self, "special_tokens", specials)
        if not vocab:
            raise VocabularyError(f"{where}.vocab is empty: a byte-level vocabulary needs at least the 256 single-byte tokens")
        missing = [b for b, c in enumerate(BYTE_TO_CHAR) if c not in vocab or c in specials]
        if missing:
            shown = ", ".join(f"{BYTE_TO_CHAR[b]!r} (byte 0x{b:02X})" for b in missing[:5])
            raise VocabularyError(
                f"{where}.vocab: a byte-level vocabulary needs all 256 single-byte tokens; {len(missing)} missing: "
                f"{shown}{' ...' if len(missing) > 5 else ''}"
            )
        # Byte-level character -> id of its single-byte token: the initial symbols of a piece.
        self._char_ids = {c: vocab[c] for c in BYTE_TO_CHAR}
        # Regular tokens only (special tokens are never produced from ordinary text).
        self._regular = self.vocab
        if specials:
            self._regular = dict(self.vocab)  # a C-speed copy, then the few specials out
            for token in specials:
                self._regular.pop(token, None)
        # Byte length of each regular token (one byte-level character per byte), for tokenize().
        self._id_len = dict(zip(self._regular.values(), map(len, self._regular)))

    # ------------------------------------------------------------------ properties
    @property
    def merges(self) -> list[tuple[str, str]]:
        """``(left, right)`` byte-level token pairs in rank order.

        In rank mode they are derived from the ranks the way Hugging Face converts tiktoken files:
        every split of a token into two tokens, ordered by the token's rank, then the parts' ranks.
        """
        if self._merges is None:
            table = sorted((merged, left, right) for (left, right), merged in self._pair_rank.items())
            by_id = self._id_to_token
            self._merges = self._held("merges", [(by_id[left], by_id[right]) for _, left, right in table])
        return self._merges

    def ranks(self) -> dict[bytes, int]:
        """tiktoken-style ``token bytes -> id`` of the regular (non-special) tokens."""
        return {from_byte_level(t): i for t, i in self._regular.items()}

    def token_bytes(self, token_id: int) -> bytes | None:
        """The bytes of a regular token (``None`` for special tokens and unknown ids)."""
        token = self._id_to_token.get(token_id)
        if token is None or token in self.special_tokens:
            return None
        return from_byte_level(token)

    # ------------------------------------------------------------------ serialization
    def params(self) -> dict[str, Any]:
        """Vocabulary, merges (``None`` in rank mode) and options."""
        return {
            "vocab": dict(self.vocab),
            "merges": merges_to_json(self._merges) if self.mode == "merges" else None,  # type: ignore[arg-type]
            "special_tokens": dict(self.special_tokens),
            "ignore_merges": self.ignore_merges,
            "mode": self.mode,
            "dropout": self.dropout,
            "seed": self.seed,
        }

    @property
    def stochastic(self) -> bool:  # type: ignore[override]
        """True while ``dropout`` is above 0 (then every encoding draws anew and nothing is cached)."""
        return bool(self.dropout)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> ByteLevelBPE:
        """Rebuild from :meth:`to_dict` output. ``validate=False`` trusts the data (files we wrote)."""
        options = {k: v for k, v in data.items() if k not in ("type", "vocab", "merges")}
        if options.get("mode") == "ranks":
            options["ignore_merges"] = True  # tiktoken semantics; files may omit it
        return cls._assemble(  # type: ignore[no-any-return]
            options, validate=validate, where=where or "model",
            vocab=data.get("vocab"), merges=data.get("merges"), check=validate,
        )

    # ------------------------------------------------------------------ encoding
    def _symbols(self, piece: str) -> list[int]:
        syms = [*map(self._char_ids.get, piece)]
        if None in syms:
            bad = syms.index(None)
            raise InputError(
                f"ByteLevelBPE got a piece that is not in the byte-level alphabet ({piece[bad]!r} at index {bad} "
                f"of {piece[:40]!r}); put a ByteLevel pre-tokenizer in front of the model "
                "(ByteLevel(add_prefix_space=False, use_regex=False) keeps the text as it is, in one piece)"
            )
        return syms  # type: ignore[return-value]

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        if self.ignore_merges:
            whole = self._regular.get(piece)
            if whole is not None:
                return (whole,)
        syms = self._symbols(piece)
        if self.dropout:  # BPE-dropout (Hugging Face's): see algorithms._bpe_encode.merge_dropout
            return tuple(merge_dropout(syms, self._pair_rank, self._rank_id, self.dropout, self._rng)[0])
        if len(syms) <= self.long_piece_threshold:
            return tuple(merge_short(syms, self._pair_rank, self._rank_id))
        return tuple(merge_ids(syms, self._pair_rank, self._rank_id, threshold=self.long_piece_threshold))

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """``[(id, start, end), ...]``; spans index the byte-level characters of ``piece``.

        >>> ByteLevelBPE().tokenize("hi")
        [(104, 0, 1), (105, 1, 2)]
        """
        ids = self.encode_piece(piece)
        ends = list(accumulate(map(self._id_len.__getitem__, ids)))
        return list(zip(ids, [0, *ends[:-1]], ends))


def _check_ranks(ranks: Any, *, where: str) -> None:
    """tiktoken ranks: a mapping of distinct non-empty ``bytes`` to distinct integers >= 0."""
    if not isinstance(ranks, Mapping):
        raise ConfigError(f"{where}: ranks must be a mapping of token bytes to ranks, got {type(ranks).__name__}")
    limits.check_vocab_size(len(ranks), where=where)
    max_len, max_id = limits.MAX_TOKEN_LENGTH, limits.MAX_TOKEN_ID
    seen: dict[int, bytes] = {}
    for token, rank in ranks.items():
        if not isinstance(token, bytes) or not token:
            raise ConfigError(f"{where}: rank key {token!r} must be non-empty bytes")
        if not isinstance(rank, int) or isinstance(rank, bool):
            raise ConfigError(f"{where}: rank of {token!r} must be an integer, got {rank!r}")
        if rank < 0:
            raise VocabularyError(f"{where}: rank of {token!r} must be >= 0, got {rank}")
        if rank > max_id or len(token) > max_len:
            limits.check_token(token, rank, where=where)
        other = seen.get(rank)
        if other is not None:
            raise VocabularyError(f"{where}: ranks must be unique, but {other!r} and {token!r} both have rank {rank}")
        seen[rank] = token


def _add_special_tokens(
    special_tokens: Any, vocab: dict[str, int], id_to_token: dict[int, str], *, where: str
) -> dict[str, int]:
    """Resolve ``special_tokens`` (list of vocabulary entries, or ``{token: id}``) into ``{token: id}``,
    adding mapped tokens that are not in ``vocab`` yet (``vocab``/``id_to_token`` are updated)."""
    out: dict[str, int] = {}
    if isinstance(special_tokens, Mapping):
        for token, token_id in special_tokens.items():
            if not isinstance(token, str) or not token:
                raise ConfigError(f"{where}.special_tokens: {token!r} must be a non-empty string")
            if not isinstance(token_id, int) or isinstance(token_id, bool) or token_id < 0:
                raise ConfigError(f"{where}.special_tokens[{token!r}]: id must be an integer >= 0, got {token_id!r}")
            limits.check_token(token, token_id, where=f"{where}.special_tokens")
            existing = vocab.get(token)
            if existing is not None and existing != token_id:
                raise VocabularyError(
                    f"{where}.special_tokens[{token!r}]: id {token_id} differs from its vocabulary id {existing}"
                )
            owner = id_to_token.get(token_id)
            if owner is not None and owner != token:
                raise VocabularyError(
                    f"{where}.special_tokens[{token!r}]: id {token_id} is already the id of {owner!r}"
                )
            vocab[token] = token_id
            id_to_token[token_id] = token
            out[token] = token_id
        return out
    if isinstance(special_tokens, (str, bytes)) or not isinstance(special_tokens, Sequence):
        raise ConfigError(f"{where}.special_tokens: must be a list of tokens or a mapping token -> id, got {special_tokens!r}")
    return check_special_tokens(
        special_tokens, vocab, where=where, missing="give its id with a mapping (special_tokens={{{token!r}: id}}) to add it"
    )


@register("ByteLevelBPETrainer")
class ByteLevelBPETrainer(Trainer):
    """Learns a :class:`ByteLevelBPE` model from byte-level word counts.

    Ids 0..255 are the bytes, merge ``i`` creates id ``256 + i``, and ``special_tokens`` follow the
    merges: ``vocab_size = 256 + n_merges + n_special``. Merges are learned as in
    :class:`~algorithms.bpe.BPETrainer` (``tie_break="ids"``: smallest ``(left_id, right_id)`` on equal
    counts). A pair whose bytes are already a token is skipped rather than merged into it, so every
    merge adds exactly one token and merge ranks equal ``id - 256`` (tiktoken-compatible ranks).
    Word counts must be byte-level strings, as the ``ByteLevel`` pre-tokenizer produces.

    >>> model = ByteLevelBPETrainer(vocab_size=257).train({"aaa": 3})
    >>> model.merges, model.encode_piece("aaaa")
    ([('a', 'a')], (256, 256))
    """

    class Params(Trainer.Params):
        vocab_size: StrictInt = Field(30000, ge=1)
        min_frequency: StrictInt = Field(0, ge=0)
        special_tokens: list[str] = []
        max_token_length: StrictInt | None = Field(None, ge=1)
        tie_break: TieBreak = "ids"
        #: HF's recipe passes ``pre_tokenizers.ByteLevel.alphabet()``: the 256 byte symbols are
        #: always there, so this may only list some of them and changes nothing.
        initial_alphabet: list[StrictStr] = []

    def _configure(self) -> None:
        where = type(self).__name__
        specials = self.special_tokens
        limits.check_trainer_options(self.vocab_size, specials, where=where)
        if len(set(specials)) != len(specials):
            raise ConfigError(f"{where}.special_tokens: contains duplicates: {specials}")
        outside = [c for c in self.initial_alphabet if c not in _BYTE_SYMBOLS]
        if outside:
            raise ConfigError(
                f"{where}.initial_alphabet: {outside[0]!r:.60} is not one of the 256 byte symbols; this trainer always "
                "starts from all of them (pretokenizers.ByteLevel.alphabet()), so leave initial_alphabet out"
            )
        if any(not t for t in specials):
            raise ConfigError(f"{where}.special_tokens: the empty string cannot be a special token")
        byte_chars = [t for t in specials if len(t) == 1 and t in CHAR_TO_BYTE]
        if byte_chars:
            t = byte_chars[0]
            raise ConfigError(
                f"{where}.special_tokens: {t!r} is the byte-level character of byte 0x{CHAR_TO_BYTE[t]:02X}, a "
                "token of every byte-level vocabulary already; choose another spelling (e.g. '<|...|>')"
            )
        minimum = 256 + len(specials)
        if self.vocab_size < minimum:
            raise ConfigError(
                f"{where}.vocab_size: {self.vocab_size} is too small: a byte-level vocabulary holds the 256 bytes "
                f"plus {len(specials)} special token(s), so vocab_size must be at least {minimum}"
            )

    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> ByteLevelBPE:
        """Learn a :class:`ByteLevelBPE` from ``word_counts`` (byte-level piece → frequency).

        ``model`` is an optional :class:`ByteLevelBPE` template; its ``ignore_merges``, ``dropout`` and
        ``seed`` are kept.
        """
        if model is not None and not isinstance(model, ByteLevelBPE):
            raise ConfigError(
                f"ByteLevelBPETrainer trains ByteLevelBPE models; the tokenizer's model is a {type(model).__name__}"
            )
        items = checked_word_counts(word_counts)
        words: list[str] = []  # symbol id = byte value, one character each
        counts: list[int] = []
        for word, count in items:
            symbols = byte_symbols(word)
            if symbols is None:
                bad = next(c for c in word if c not in CHAR_TO_BYTE)
                raise TrainingError(
                    f"ByteLevelBPETrainer expects byte-level words (as the ByteLevel pre-tokenizer produces), but "
                    f"{word[:40]!r} contains {bad!r}; add a ByteLevel pre-tokenizer to the pipeline"
                )
            words.append(symbols)
            counts.append(count)

        token_bytes: list[bytes] = [bytes([b]) for b in range(256)]
        known: set[bytes] = set(token_bytes)
        # Byte strings that would spell a special token in the byte-level alphabet: never merged into.
        reserved = {from_byte_level(t) for t in self.special_tokens if all(c in CHAR_TO_BYTE for c in t)}
        max_len = limits.max_trained_token_length(self.max_token_length)

        def merge_symbol(left: int, right: int) -> int | None:
            new = token_bytes[left] + token_bytes[right]
            if (max_len is not None and len(new) > max_len) or new in known or new in reserved:
                return None
            known.add(new)
            token_bytes.append(new)
            return len(token_bytes) - 1

        with training_progress(self) as progress:
            learned = learn_merges(
                words,
                counts,
                merge_symbol=merge_symbol,
                max_merges=self.vocab_size - 256 - len(self.special_tokens),
                min_frequency=self.min_frequency,
                tie_break=self.tie_break,
                progress=progress,
            )
        strings = [bytes_to_byte_level(b) for b in token_bytes]
        vocab = {s: i for i, s in enumerate(strings)}
        merges = [(strings[a], strings[b]) for a, b, _ in learned]
        specials = {t: len(strings) + k for k, t in enumerate(self.special_tokens)}
        options: dict[str, Any] = {"special_tokens": specials}
        if model is not None:  # the template's encoding options are kept (HF's trainers keep dropout too)
            options.update(ignore_merges=model.ignore_merges, dropout=model.dropout, seed=model.seed)
        return ByteLevelBPE._assemble(  # type: ignore[no-any-return]
            options, validate=False, where="ByteLevelBPETrainer", vocab=vocab, merges=merges, check=False
        )
