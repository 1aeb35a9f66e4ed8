"""Byte-level BPE: the :class:`ByteLevelBPE` model and the :class:`ByteLevelBPETrainer` (SPEC §4.3).

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
from typing import Any, Literal

from pydantic import Field

from algorithms._bpe_encode import (
    LONG_PIECE_THRESHOLD,
    merge_ids,
    merge_short,
    pair_table_from_ranks,
)
from algorithms._bpe_vocab import (
    VocabLookup,
    check_special_tokens,
    check_vocab,
    checked_word_counts,
    merges_to_json,
    ordered_vocab,
    parse_merges,
)
from algorithms._merges import learn_merges
from toolkit import limits
from toolkit.bytelevel import BYTE_TO_CHAR, CHAR_TO_BYTE, bytes_to_byte_level, from_byte_level
from toolkit.errors import ConfigError, InputError, TrainingError, VocabularyError
from toolkit.interfaces import Model, Params, ProgressCallback, Trainer, validate_params
from toolkit.registry import register

__all__ = ["ByteLevelBPE", "ByteLevelBPETrainer"]

SpecialTokens = Mapping[str, int] | Sequence[str]


@register("ByteLevelBPE")
class ByteLevelBPE(VocabLookup, Model):
    """Byte-level BPE model: merges mode (HF semantics) or rank mode (tiktoken semantics).

    ``vocab`` maps byte-level strings (``"Ġthe"``) to ids and must contain the 256 single-byte tokens;
    ``merges`` lists ``(left, right)`` pairs in rank order, each producing ``left + right``. Without
    arguments the model is the plain byte tokenizer (ids 0..255, no merges), the untrained template
    of a byte-level pipeline. ``special_tokens`` is a list of vocabulary entries or a mapping
    ``{token: id}`` whose ids may lie beyond the vocabulary (they are added). ``ignore_merges=True``
    returns a piece that is a vocabulary entry as one token (always the case in rank mode).

    >>> m = ByteLevelBPE()
    >>> m.encode_piece("hĠé"[:2]), m.vocab_size
    ((104, 32), 256)
    >>> m = ByteLevelBPE.from_ranks({bytes([b]): b for b in range(256)} | {b"ab": 256}, special_tokens={"<s>": 300})
    >>> m.encode_piece("abab"), m.token_to_id("ab"), m.id_to_token(300)
    ((256, 256), 256, '<s>')
    """

    class Params(Params):
        special_tokens: dict[str, int] = {}
        ignore_merges: bool = False
        mode: Literal["merges", "ranks"] = "merges"

    #: Pieces longer than this (in bytes) use the O(n log n) long-piece merge.
    long_piece_threshold: int = LONG_PIECE_THRESHOLD

    def __init__(
        self,
        vocab: Mapping[str, int] | None = None,
        merges: Sequence[tuple[str, str]] | None = None,
        *,
        special_tokens: SpecialTokens = (),
        ignore_merges: bool = False,
    ) -> None:
        super().__init__()
        self._setup_merges(vocab, merges, special_tokens, ignore_merges=ignore_merges, check=True, where="ByteLevelBPE")

    @classmethod
    def from_ranks(cls, ranks: Mapping[bytes, int], *, special_tokens: Mapping[str, int] | None = None) -> ByteLevelBPE:
        """A rank-mode model from tiktoken ranks (token bytes → rank; the rank is the id).

        >>> m = ByteLevelBPE.from_ranks({bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257})
        >>> m.encode_piece("abc"), m.encode_piece("xabc")
        ((257,), (120, 257))
        """
        model = cls.__new__(cls)
        Model.__init__(model)
        model._setup_ranks(ranks, special_tokens or {}, check=True, where="ByteLevelBPE.from_ranks")
        return model

    # ------------------------------------------------------------------ construction
    def _setup_merges(
        self, vocab: Any, merges: Any, special_tokens: Any, *, ignore_merges: bool, check: bool, where: str
    ) -> None:
        if vocab is None:
            vocab = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
        if check:
            id_to_token = check_vocab(vocab, where=where)
            merge_list = parse_merges(merges, where=where)
        else:
            id_to_token = {i: t for t, i in vocab.items()}
            merge_list = [tuple(m) for m in merges or ()]
        vocab = dict(vocab)
        specials = _add_special_tokens(special_tokens, vocab, id_to_token, where=where)
        self._mode = "merges"
        self._merges: list[tuple[str, str]] | None = merge_list  # type: ignore[assignment]
        self.ignore_merges = bool(ignore_merges)
        self._finish(vocab, id_to_token, specials, where=where)
        vocab_get = self.vocab.get
        pair_rank: dict[tuple[int, int], int] = {}
        rank_id: list[int] = []
        for rank, (left, right) in enumerate(merge_list):
            left_id = vocab_get(left)
            right_id = vocab_get(right)
            if left_id is None or right_id is None:
                missing = left if left_id is None else right
                raise VocabularyError(
                    f"{where}.merges[{rank}]: ({left!r}, {right!r}) uses {missing!r}, which is not in the vocabulary"
                )
            merged_id = vocab_get(left + right)
            if merged_id is None:
                raise VocabularyError(
                    f"{where}.merges[{rank}]: ({left!r}, {right!r}) produces {left + right!r}, which is not in "
                    "the vocabulary"
                )
            key = (left_id, right_id)
            if key in pair_rank:
                raise VocabularyError(
                    f"{where}.merges[{rank}]: ({left!r}, {right!r}) is a duplicate of merges[{pair_rank[key]}]"
                )
            pair_rank[key] = rank
            rank_id.append(merged_id)
        self._pair_rank = _without_special_results(pair_rank, rank_id, specials)
        self._rank_id: Sequence[int] = rank_id

    def _setup_ranks(self, ranks: Any, special_tokens: Any, *, check: bool, where: str) -> None:
        if check:
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
            if special_tokens is not None and not isinstance(special_tokens, Mapping):
                raise ConfigError(f"{where}.special_tokens: must map token strings to ids in rank mode, got {special_tokens!r}")
        vocab = {bytes_to_byte_level(token): rank for token, rank in ranks.items()}
        id_to_token = {rank: token for token, rank in vocab.items()}
        specials = _add_special_tokens(special_tokens, vocab, id_to_token, where=where)
        self._mode = "ranks"
        self._merges = None  # derived on demand, see the merges property
        self.ignore_merges = True  # tiktoken: a piece that is a token is that token
        self._finish(vocab, id_to_token, specials, where=where)
        self._rank_id = range(max(ranks.values(), default=-1) + 1)  # the merged id of a pair is its rank
        self._pair_rank = _without_special_results(pair_table_from_ranks(ranks), self._rank_id, specials)

    def _finish(self, vocab: dict[str, int], id_to_token: dict[int, str], specials: dict[str, int], *, where: str) -> None:
        """The tables both modes share: byte ids, token byte lengths, the regular vocabulary."""
        limits.check_vocab_size(len(vocab), where=f"{where}.vocab")
        self.vocab: dict[str, int] = ordered_vocab(vocab)
        self._id_to_token = id_to_token
        self.special_tokens = specials
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
        self._regular = {t: i for t, i in self.vocab.items() if t not in specials}
        # Byte length of each regular token (one byte-level character per byte), for tokenize().
        self._id_len = {token_id: len(token) for token, token_id in self._regular.items()}

    # ------------------------------------------------------------------ properties
    @property
    def mode(self) -> str:
        """``"merges"`` (explicit merge list) or ``"ranks"`` (tiktoken ranks)."""
        return self._mode

    @property
    def merges(self) -> list[tuple[str, str]]:
        """``(left, right)`` byte-level token pairs in rank order.

        In rank mode they are derived from the ranks the way Hugging Face converts tiktoken files:
        every split of a token into two tokens, ordered by the token's rank, then the parts' ranks.
        """
        if self._merges is None:
            table = sorted((merged, left, right) for (left, right), merged in self._pair_rank.items())
            by_id = self._id_to_token
            self._merges = [(by_id[left], by_id[right]) for _, left, right in table]
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
            "merges": merges_to_json(self._merges) if self._mode == "merges" else None,  # type: ignore[arg-type]
            "special_tokens": dict(self.special_tokens),
            "ignore_merges": self.ignore_merges,
            "mode": self._mode,
        }

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "ByteLevelBPE", "vocab": {...}, "merges": [[l, r], ...] | null, ...}``, ordered by id."""
        return {"type": self.type_name, **self.params()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> ByteLevelBPE:
        """Rebuild from :meth:`to_dict` output. ``validate=False`` trusts the data (files we wrote)."""
        where = where or "model"
        options = {k: v for k, v in data.items() if k not in ("type", "vocab", "merges")}
        if validate:
            options = validate_params(cls.Params, options, where=where)
        specials = options.get("special_tokens", {})
        model = cls.__new__(cls)
        Model.__init__(model)
        vocab = data.get("vocab")
        if options.get("mode", "merges") == "ranks":
            if validate:
                check_vocab(vocab, where=where)
            ranks: dict[bytes, int] = {}
            for token, token_id in (vocab or {}).items():
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
            model._setup_ranks(ranks, specials, check=validate, where=where)
        else:
            model._setup_merges(
                vocab, data.get("merges"), specials,
                ignore_merges=options.get("ignore_merges", False), check=validate, where=where,
            )
        return model

    # ------------------------------------------------------------------ encoding
    def _symbols(self, piece: str) -> list[int]:
        syms = [*map(self._char_ids.get, piece)]
        if None in syms:
            bad = syms.index(None)
            raise InputError(
                f"ByteLevelBPE got a piece that is not in the byte-level alphabet ({piece[bad]!r} at index {bad} "
                f"of {piece[:40]!r}); put a ByteLevel pre-tokenizer in front of the model "
                "(ByteLevel(use_regex=False) keeps the text in one piece)"
            )
        return syms  # type: ignore[return-value]

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        if self.ignore_merges:
            whole = self._regular.get(piece)
            if whole is not None:
                return (whole,)
        syms = self._symbols(piece)
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


def _without_special_results(
    pair_rank: dict[tuple[int, int], int], rank_id: Sequence[int], specials: Mapping[str, int]
) -> dict[tuple[int, int], int]:
    """The pair table without the merges whose result is a special token: ordinary text must never
    turn into a special id (trainers never learn such merges; a foreign file may contain them)."""
    if not specials:
        return pair_rank
    special_ids = set(specials.values())
    return {pair: rank for pair, rank in pair_rank.items() if rank_id[rank] not in special_ids}


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
    merges: ``vocab_size = 256 + n_merges + n_special`` (SPEC §4.3). Merges are learned as in
    :class:`~algorithms.bpe.BPETrainer` (``tie_break="ids"``: smallest ``(left_id, right_id)`` on equal
    counts). A pair whose bytes are already a token is skipped rather than merged into it, so every
    merge adds exactly one token and merge ranks equal ``id - 256`` (tiktoken-compatible ranks).
    Word counts must be byte-level strings, as the ``ByteLevel`` pre-tokenizer produces.

    >>> model = ByteLevelBPETrainer(vocab_size=257).train({"aaa": 3})
    >>> model.merges, model.encode_piece("aaaa")
    ([('a', 'a')], (256, 256))
    """

    class Params(Params):
        vocab_size: int = Field(30000, ge=1)
        min_frequency: int = Field(0, ge=0)
        special_tokens: list[str] = []
        max_token_length: int | None = Field(None, ge=1)
        tie_break: Literal["ids", "first_occurrence"] = "ids"

    def __init__(
        self,
        *,
        vocab_size: int = 30000,
        min_frequency: int = 0,
        special_tokens: Sequence[str] = (),
        max_token_length: int | None = None,
        tie_break: Literal["ids", "first_occurrence"] = "ids",
        progress: ProgressCallback | None = None,
    ) -> None:
        given = dict(
            vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=list(special_tokens),
            max_token_length=max_token_length, tie_break=tie_break,
        )
        opts = validate_params(self.Params, given, where=type(self).__name__)
        limits.check_trainer_options(opts["vocab_size"], opts["special_tokens"], where=type(self).__name__)
        if len(set(opts["special_tokens"])) != len(opts["special_tokens"]):
            raise ConfigError(f"{type(self).__name__}.special_tokens: contains duplicates: {opts['special_tokens']}")
        if any(not t for t in opts["special_tokens"]):
            raise ConfigError(f"{type(self).__name__}.special_tokens: the empty string cannot be a special token")
        minimum = 256 + len(opts["special_tokens"])
        if opts["vocab_size"] < minimum:
            raise ConfigError(
                f"{type(self).__name__}.vocab_size: {opts['vocab_size']} is too small: a byte-level vocabulary holds "
                f"the 256 bytes plus {len(opts['special_tokens'])} special token(s), so vocab_size must be at least "
                f"{minimum}"
            )
        self.vocab_size: int = opts["vocab_size"]
        self.min_frequency: int = opts["min_frequency"]
        self.special_tokens: list[str] = opts["special_tokens"]
        self.max_token_length: int | None = opts["max_token_length"]
        self.tie_break: Literal["ids", "first_occurrence"] = opts["tie_break"]
        self.progress = progress

    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> ByteLevelBPE:
        """Learn a :class:`ByteLevelBPE` from ``word_counts`` (byte-level piece → frequency).

        ``model`` is an optional :class:`ByteLevelBPE` template; its ``ignore_merges`` is kept.
        """
        if model is not None and not isinstance(model, ByteLevelBPE):
            raise ConfigError(
                f"ByteLevelBPETrainer trains ByteLevelBPE models; the tokenizer's model is a {type(model).__name__}"
            )
        items = checked_word_counts(word_counts)
        words: list[list[int]] = []
        counts: list[int] = []
        char_to_byte = CHAR_TO_BYTE.get
        for word, count in items:
            symbols = [*map(char_to_byte, word)]
            if None in symbols:
                bad = word[symbols.index(None)]
                raise TrainingError(
                    f"ByteLevelBPETrainer expects byte-level words (as the ByteLevel pre-tokenizer produces), but "
                    f"{word[:40]!r} contains {bad!r}; add a ByteLevel pre-tokenizer to the pipeline"
                )
            words.append(symbols)  # type: ignore[arg-type]
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

        learned = learn_merges(
            words,
            counts,
            merge_symbol=merge_symbol,
            max_merges=self.vocab_size - 256 - len(self.special_tokens),
            min_frequency=self.min_frequency,
            tie_break=self.tie_break,
            progress=self.progress,
        )
        strings = [bytes_to_byte_level(b) for b in token_bytes]
        vocab = {s: i for i, s in enumerate(strings)}
        merges = [(strings[a], strings[b]) for a, b, _ in learned]
        specials = {t: len(strings) + k for k, t in enumerate(self.special_tokens)}
        result = ByteLevelBPE.__new__(ByteLevelBPE)
        Model.__init__(result)
        result._setup_merges(
            vocab, merges, specials,
            ignore_merges=model.ignore_merges if model is not None else False,
            check=False, where="ByteLevelBPETrainer",
        )
        return result
