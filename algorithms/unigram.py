"""Unigram: the :class:`Unigram` model (SentencePiece / Hugging Face ``models.Unigram`` semantics).

The vocabulary is a list of ``(piece, log-probability)``; a piece's id is its position. A word is cut
where the sum of the scores of its pieces is highest (Viterbi, :mod:`algorithms._lattice`). A
character that no piece covers is an unknown node scored ``min(score) - 10``; consecutive unknown
characters become one ``unk_id`` token, or with ``byte_fallback=True`` the ``<0xNN>`` pieces of their
UTF-8 bytes. :meth:`Unigram.nbest` lists the best segmentations; with ``alpha`` above 0 every
encoding draws one (subword regularization: ``alpha``, ``nbest_size``, ``seed``, as Hugging Face's
``Unigram`` and SentencePiece's ``SampleEncode``), and the caches are off while it does. The trainer is in
:mod:`algorithms.unigram_trainer`.

>>> model = Unigram([("<unk>", 0.0), ("a", -2.0), ("b", -2.0), ("ab", -3.0)], unk_id=0)
>>> [model.id_to_token(i) for i in model.encode_piece("abba")]
['ab', 'b', 'a']
>>> model.tokenize("axxb")    # the two unknown characters are one <unk> token
[(1, 0, 1), (0, 1, 3), (2, 3, 4)]
"""

from __future__ import annotations

import math
import random
import struct
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field, StrictBool, StrictInt

from algorithms._lattice import Edge, build_table, nbest, sample, viterbi
from algorithms._vocab import SpecialTokens, check_special_tokens, held_special_tokens
from algorithms.sentencepiece_bpe import byte_piece
from toolkit import limits
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.errors import ConfigError, InputError, VocabularyError
from toolkit.interfaces import Model, Params
from toolkit.registry import register

__all__ = ["UNK_PENALTY", "Unigram", "check_unigram_vocab"]

#: How much lower than the lowest piece an unknown character scores (SentencePiece's kUnkPenalty).
UNK_PENALTY = 10.0


def _f32(x: float) -> float:
    """``x`` rounded to float32."""
    return struct.unpack("f", struct.pack("f", x))[0]  # type: ignore[no-any-return]


def check_unigram_vocab(vocab: Any, *, where: str) -> list[tuple[str, float]]:
    """Check a ``[(piece, score), ...]`` list (lists or tuples of two); return it as tuples.

    >>> check_unigram_vocab([["<unk>", 0], ("a", -1.5)], where="Unigram")
    [('<unk>', 0.0), ('a', -1.5)]
    """
    if isinstance(vocab, (str, bytes, Mapping)) or not isinstance(vocab, Sequence):
        raise ConfigError(
            f"{where}.vocab: must be a list of [piece, score] pairs (Unigram ids are positions), "
            f"got {type(vocab).__name__}"
        )
    limits.check_vocab_size(len(vocab), where=f"{where}.vocab")
    out: list[tuple[str, float]] = []
    seen: dict[str, int] = {}
    max_len = limits.MAX_TOKEN_LENGTH
    for i, item in enumerate(vocab):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise ConfigError(f"{where}.vocab[{i}]: must be a [piece, score] pair, got {item!r:.80}")
        piece, score = item
        if not isinstance(piece, str) or not piece:
            raise VocabularyError(f"{where}.vocab[{i}]: the piece must be a non-empty string, got {piece!r:.80}")
        if len(piece) > max_len:
            raise VocabularyError(f"{where}.vocab[{i}]: piece of {len(piece)} characters exceeds {max_len}")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise VocabularyError(
                f"{where}.vocab[{i}]: the score of {piece!r:.40} must be a finite number (a log-probability), "
                f"got {score!r:.40}"
            )
        if piece in seen:
            raise VocabularyError(
                f"{where}.vocab: piece {piece!r:.40} appears twice (ids {seen[piece]} and {i}); pieces must be unique"
            )
        seen[piece] = i
        out.append((piece, float(score)))
    return out


def _sampling_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options written with SentencePiece's switch (``enable_sampling``; ``nbest_size`` -1 for all, 0
    and 1 for none), in Hugging Face's terms (``alpha`` above 0 samples; ``nbest_size`` ``None`` for
    all, 1 for none).

    >>> _sampling_options({"enable_sampling": True, "alpha": 0.1, "nbest_size": -1})
    {'alpha': 0.1, 'nbest_size': None}
    >>> _sampling_options({"enable_sampling": False, "alpha": 0.1, "nbest_size": -1, "seed": 3})
    {'seed': 3, 'alpha': None, 'nbest_size': None}
    """
    out = {k: v for k, v in options.items() if k not in ("enable_sampling", "alpha", "nbest_size")}
    n = options.get("nbest_size", -1)
    samples = options["enable_sampling"] is True and n not in (0, 1)
    out["alpha"] = options.get("alpha", 0.1) if samples else None
    out["nbest_size"] = n if samples and isinstance(n, int) and n > 1 else None
    return out


@register("Unigram")
class Unigram(Model):
    """Unigram language-model segmentation (SentencePiece; Hugging Face ``models.Unigram``).

    ``Unigram(vocab, unk_id=None, byte_fallback=False, alpha=None, nbest_size=None)`` as in Hugging
    Face: ``vocab`` is a list of
    ``(piece, score)`` (``None`` or empty: an untrained template for ``Tokenizer.train``). Options,
    each assignable after construction:

    - ``unk_id``: the id of the unknown piece; ``None``: an uncovered character is an error (unless
      ``byte_fallback`` covers it).
    - ``byte_fallback``: unknown characters become ``<0xNN>`` pieces of their UTF-8 bytes when the
      vocabulary has them all.
    - ``special_tokens``: pieces that are special (never matched inside text).
    - ``alpha``, ``nbest_size``, ``seed``: subword regularization as in Hugging Face (SentencePiece's
      ``SampleEncode``): with ``alpha`` above 0 every encoding draws a segmentation with probability
      proportional to ``exp(alpha * score)``; ``nbest_size`` ``None`` or 0 (or SentencePiece's -1)
      draws from every segmentation, ``n > 1`` from the ``n`` best, 1 does not sample; ``seed`` makes
      the draws reproducible.
    - ``float32`` (``False``): sum path scores in float32 as ``sentencepiece`` does (its ties, exactly;
      ``.model`` files load with it); ``False`` sums in float64 as Hugging Face does.
    - ``match_byte_pieces`` (``True``): a ``<0xNN>`` piece typed in the text matches as that piece, as
      in Hugging Face; ``False``: byte pieces only stand for the bytes of uncovered characters, as in
      ``sentencepiece`` (``.model`` files load with it), so typed ``<0x41>`` stays text, and, with
      sentencepiece's piece types, the unknown piece's score is the lowest of the NORMAL pieces only
      (not byte or special pieces; Hugging Face: of all pieces).
    - ``unused``: pieces of SentencePiece type UNUSED: they keep their ids but are never matched in
      text, as in ``sentencepiece`` (``.model`` files load with it; not written to ``tokenizer.json``).
    - ``user_defined``: pieces of SentencePiece type USER_DEFINED, scored as ``sentencepiece`` 0.2
      scores them so that they are (nearly) always chosen: ``0.1 * n - 0.1`` for a piece of ``n`` UTF-8
      bytes, whatever its own score and the others' (measured against the library, docs/interop.md).

    >>> Unigram([("<unk>", 0.0), ("x", -1.0)], 0).params()["vocab"]
    [['<unk>', 0.0], ['x', -1.0]]
    """

    _state_names = ("vocab",)

    class Params(Params):
        unk_id: StrictInt | None = Field(None, ge=0)
        byte_fallback: StrictBool = False
        special_tokens: SpecialTokens = []
        alpha: float | None = Field(None, ge=0.0, allow_inf_nan=False)
        nbest_size: StrictInt | None = Field(None, ge=-1, le=10_000)
        seed: StrictInt | None = None
        # SentencePiece sums path scores in float32; its ties depend on that rounding.
        float32: StrictBool = False
        match_byte_pieces: StrictBool = True
        user_defined: list[str] = []
        unused: list[str] = []

    positional = ("unk_id", "byte_fallback", "alpha", "nbest_size")

    def __init__(self, vocab: Sequence[tuple[str, float]] | None = None, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self._set_state(vocab, check=True, where="Unigram")

    def _set_state(self, vocab: Any = None, *, check: bool, where: str) -> None:
        """Store the vocabulary; ``check=False`` trusts it."""
        if vocab is None:
            vocab = []
        self.vocab: list[tuple[str, float]]
        self._hold_state("vocab", check_unigram_vocab(vocab, where=where) if check else [(p, float(s)) for p, s in vocab])
        self._ids: dict[str, int] = {p: i for i, (p, _) in enumerate(self.vocab)}
        self._origin = where

    @property
    def stochastic(self) -> bool:  # type: ignore[override]
        """Whether encoding samples (then no cache stores anything)."""
        return bool(self.alpha) and self.nbest_size != 1

    def _configure(self) -> None:
        """Check ``unk_id`` and the special tokens; build the prefix table, the caches and the generator."""
        super()._configure()
        where, vocab = self._origin, self.vocab
        if self.unk_id is not None and vocab and self.unk_id >= len(vocab):
            raise VocabularyError(
                f"{where}.unk_id: {self.unk_id} is not an id of the vocabulary ({len(vocab)} pieces, ids 0 to "
                f"{len(vocab) - 1}); pass the position of the unknown piece, or unk_id=None"
            )
        specials = check_special_tokens(self.special_tokens, self._ids, where=where)
        object.__setattr__(self, "special_tokens", held_special_tokens(self, specials))
        # Special pieces are never matched inside text (typed "</s>" is ordinary text), nor byte pieces
        # where they only stand for bytes (SentencePiece's BYTE type).
        skip = frozenset(specials.values())
        byte_ids = [self._ids.get(byte_piece(b)) for b in range(256)]
        if not self.match_byte_pieces:
            skip |= {i for i in byte_ids if i is not None}
        unused = check_special_tokens(self.unused, self._ids, where=where, option="unused",
                                      missing="unused pieces must be pieces")
        skip |= set(unused.values())
        user = check_special_tokens(self.user_defined, self._ids, where=where, option="user_defined",
                                    missing="user-defined pieces must be pieces")
        self._table = build_table(self._scored(vocab, user), skip)
        self._regular = {p: i for p, i in self._ids.items() if i not in skip} if skip else self._ids
        # The unknown piece's score: sentencepiece takes the minimum over its NORMAL pieces, so a
        # user-defined piece's own score (replaced in the lattice) never lowers it, nor do UNUSED ones
        # and, where byte pieces follow sentencepiece's types (match_byte_pieces=False, .model files),
        # BYTE, CONTROL and UNKNOWN ones. Hugging Face takes the minimum over its whole vocabulary.
        user_ids = frozenset(user.values())
        not_normal = user_ids | set(unused.values())
        if not self.match_byte_pieces:
            not_normal |= skip
        self._min_score = min((s for i, (_, s) in enumerate(vocab) if i not in not_normal), default=0.0)
        self._unk_score = self._min_score - UNK_PENALTY
        self._fallback_ids = byte_ids if self.byte_fallback else []
        self._rng = random.Random(self.seed)

    @staticmethod
    def _scored(vocab: list[tuple[str, float]], user: Mapping[str, int]) -> list[tuple[str, float]]:
        """``vocab`` with the lattice score of each user-defined piece (``user``: piece -> id;
        ``unigram_model.cc``'s bonus: ``0.1 * (n - 1)`` for ``n`` UTF-8 bytes, a float, in sentencepiece 0.2.3)."""
        if not user:
            return vocab
        out = list(vocab)
        for piece, i in user.items():
            out[i] = (piece, _f32(0.1 * (len(piece.encode("utf-8", "surrogatepass")) - 1)))
        return out

    def _new_caches(self) -> None:
        super()._new_caches()
        self._tok_cache: BoundedCache = BoundedCache(self.cache_capacity, longest=MAX_CACHED_PIECE)

    # -------------------------------------------------------------------------------- (de)serialization
    def params(self) -> dict[str, Any]:
        return {
            "vocab": [[p, s] for p, s in self.vocab],
            "unk_id": self.unk_id,
            "byte_fallback": self.byte_fallback,
            "special_tokens": list(self.special_tokens),
            "alpha": self.alpha,
            "nbest_size": self.nbest_size,
            "seed": self.seed,
            "float32": self.float32,
            "match_byte_pieces": self.match_byte_pieces,
            "user_defined": list(self.user_defined),
            "unused": list(self.unused),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> Unigram:
        """Rebuild from :meth:`to_dict` output; ``validate=False`` trusts the vocabulary."""
        options = {k: v for k, v in data.items() if k not in ("type", "vocab")}
        if "enable_sampling" in options:  # files of versions with SentencePiece's switch
            options = _sampling_options(options)
        return cls._assemble(  # type: ignore[no-any-return]
            options, validate=validate, where=where or "model 'Unigram'", vocab=data.get("vocab"), check=validate
        )

    # -------------------------------------------------------------------------------- vocabulary
    def get_vocab(self) -> dict[str, int]:
        return dict(self._ids)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def unk_token(self) -> str | None:
        """The unknown piece, ``vocab[unk_id]`` (``None`` without ``unk_id``), as other models name it."""
        if self.unk_id is None or self.unk_id >= len(self.vocab):
            return None
        return self.vocab[self.unk_id][0]

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        return self.vocab[token_id][0] if isinstance(token_id, int) and 0 <= token_id < len(self.vocab) else None

    def score(self, token: str) -> float | None:
        """The score (log-probability) of ``token``, or ``None``."""
        token_id = self._ids.get(token)
        return None if token_id is None else self.vocab[token_id][1]

    # -------------------------------------------------------------------------------- encoding
    def _tokens(self, piece: str, path: list[Edge]) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` of a segmentation: runs of unknown characters fused, then byte fallback."""
        out: list[tuple[int, int, int]] = []
        i, size = 0, len(path)
        while i < size:
            s, e, token_id = path[i]
            if token_id is not None:
                out.append((token_id, s, e))
                i += 1
                continue
            while i + 1 < size and path[i + 1][2] is None:  # consecutive unknown characters: one token
                i += 1
                e = path[i][1]
            i += 1
            out += self._unknown(piece, s, e)
        return out

    def _unknown(self, piece: str, s: int, e: int) -> list[tuple[int, int, int]]:
        text = piece[s:e]
        found = self._regular.get(text)  # as HF: the fused string itself, if it is a piece
        if found is not None:
            return [(found, s, e)]
        if self.byte_fallback:
            ids = [self._fallback_ids[b] for b in text.encode("utf-8", "surrogatepass")]
            if None not in ids:
                return [(t, s, e) for t in ids]  # type: ignore[misc]
        if self.unk_id is None:
            if not self.vocab:
                raise VocabularyError(
                    "Unigram: the model has no vocabulary; train it (Tokenizer.train) or load one (Unigram(vocab))"
                )
            raise InputError(
                f"{text!r:.40} (at {s} in {piece!r:.60}) is not covered by the Unigram vocabulary and the model has "
                "no unk_id; set unk_id to the unknown piece's id, or byte_fallback=True with <0x00>..<0xFF> pieces"
            )
        return [(self.unk_id, s, e)]

    def _segment(self, piece: str) -> list[Edge]:
        if self.stochastic:
            if self.nbest_size is not None and self.nbest_size > 1:
                found = nbest(self._table, piece, self._unk_score, self.nbest_size)
                weights = [self.alpha * score for _, score in found]
                top = max(weights)
                return self._rng.choices([p for p, _ in found], [math.exp(w - top) for w in weights])[0]
            return sample(self._table, piece, self._unk_score, self.alpha, self._rng)
        return viterbi(self._table, piece, self._unk_score, float32=self.float32)

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """``[(id, start, end), ...]`` of ``piece`` (the best segmentation, or a sampled one)."""
        cache = self._tok_cache  # read once (see Configurable._reconfigure)
        cached = cache.get(piece)
        if cached is None:
            if not piece:
                return []
            cached = cache.put(piece, tuple(self._tokens(piece, self._segment(piece))))
        return list(cached)

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        if not piece:
            return ()
        return tuple(t for t, _, _ in self._tokens(piece, self._segment(piece)))

    def nbest(self, piece: str, n: int) -> list[list[str]]:
        """The ``n`` best segmentations of ``piece`` as piece strings, best first.

        >>> Unigram([("a", -1.0), ("b", -1.0), ("ab", -1.5)]).nbest("ab", 2)
        [['ab'], ['a', 'b']]
        """
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ConfigError(f"Unigram.nbest: n must be a non-negative integer, got {n!r}")
        return [[self.vocab[t][0] for t in ids] for ids, _ in self.nbest_ids(piece, n)]

    def nbest_ids(self, piece: str, n: int) -> list[tuple[list[int], float]]:
        """The ``n`` best segmentations of ``piece`` as ``(ids, score)``, best first."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ConfigError(f"Unigram.nbest_ids: n must be a non-negative integer, got {n!r}")
        return [
            ([t for t, _, _ in self._tokens(piece, path)], score)
            for path, score in nbest(self._table, piece, self._unk_score, n)
        ]
