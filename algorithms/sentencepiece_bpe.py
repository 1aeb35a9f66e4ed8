"""SentencePiece's BPE encoder: score-based merging over ``(piece, score)`` pieces.

SentencePiece BPE models store no merge list: a text starts as characters and, repeatedly, the
adjacent pair whose concatenation is a piece with the **highest score** is merged (ties: the leftmost
pair), until no adjacent pair forms a piece. Pieces of type USER_DEFINED are found first (left to
right, the longest at each position) and never merged with a neighbour; pieces of type UNUSED take
part in merging and are then split back into the two symbols they were made of; what is left outside the vocabulary becomes
``unk_id``, or its UTF-8 bytes (``<0xE3>``...) with ``byte_fallback``. This is ``bpe_model.cc``.

Why a model of its own and not :class:`~algorithms.bpe.BPE` with merges derived from the scores
(what HF's converter does): rank-based merging picks among pairs by the rank of the *pair*, so two
different pairs that make the same piece (``ab`` + ``a`` and ``a`` + ``ba``) are ordered by their place
in the list instead of left to right, and UNUSED pieces have no place at all; this model is exact.

>>> m = SentencePieceBPE([("<unk>", 0.0), ("a", -1.0), ("b", -2.0), ("ab", -3.0), ("abb", -4.0)], unk_id=0)
>>> m.encode_piece("abbc"), m.tokenize("ba")
((4, 0), [(2, 0, 1), (1, 1, 2)])
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import Any

from pydantic import Field, StrictBool, StrictStr

from algorithms._vocab import SpecialTokens, check_special_tokens, held_special_tokens
from toolkit import limits
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.errors import InputError, VocabularyError
from toolkit.interfaces import Model, Params
from toolkit.normalizers.precompiled import user_symbols_pattern
from toolkit.registry import register

__all__ = ["SentencePieceBPE", "byte_piece", "check_scored_vocab"]


def byte_piece(b: int) -> str:
    """SentencePiece's name of a byte piece: ``<0x0A>``."""
    return f"<0x{b:02X}>"


def check_scored_vocab(vocab: Any, *, where: str) -> list[tuple[str, float]]:
    """``[(piece, score), ...]`` checked: unique non-empty pieces, finite scores, within the limits.

    >>> check_scored_vocab([["<unk>", 0], ("a", -1.5)], where="vocab")
    [('<unk>', 0.0), ('a', -1.5)]
    """
    if not isinstance(vocab, (list, tuple)):
        raise VocabularyError(f"{where}: the vocabulary must be a list of [piece, score] pairs, got {type(vocab).__name__}")
    limits.check_vocab_size(len(vocab), where=where)
    out: list[tuple[str, float]] = []
    seen: set[str] = set()
    for i, item in enumerate(vocab):
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], (int, float)) and not isinstance(item[1], bool)):
            raise VocabularyError(f"{where}[{i}]: expected [piece, score], got {item!r:.80}")
        piece, score = item[0], float(item[1])
        problem = limits.token_text_problem(piece)
        if problem is not None:
            raise VocabularyError(f"{where}[{i}]: {problem}")
        if not math.isfinite(score):
            raise VocabularyError(f"{where}[{i}]: the score of {piece!r} is {score}, expected a finite number")
        if piece in seen:
            raise VocabularyError(f"{where}[{i}]: {piece!r} occurs twice; every piece must be unique")
        seen.add(piece)
        out.append((piece, score))
    return out


@register("SentencePieceBPE")
class SentencePieceBPE(Model):
    """SentencePiece BPE: highest-scoring adjacent pair first, leftmost on ties (see the module doc).

    ``vocab`` is ``[(piece, score), ...]``; a piece's id is its index. Options:

    - ``unk_id``: the id of the unknown piece (``None``: unknown characters raise at encode time
      unless ``byte_fallback`` covers them);
    - ``byte_fallback``: unknown text becomes the pieces ``<0x00>``..``<0xFF>`` of its UTF-8 bytes;
    - ``special_tokens``: control pieces (``<s>``...), never matched inside text;
    - ``unused``: pieces of SentencePiece type UNUSED (merged through, then split back);
    - ``user_defined``: pieces of SentencePiece type USER_DEFINED (each kept whole, never merged).

    >>> m = SentencePieceBPE([("<unk>", 0.0), ("a", -1.0), ("b", -2.0), ("ab", -3.0)], unk_id=0, user_defined=["b"])
    >>> m.encode_piece("ab"), SentencePieceBPE(m.get_scores(), unk_id=0).encode_piece("ab")
    ((1, 2), (3,))
    """

    class Params(Params):
        unk_id: int | None = Field(None, ge=0, strict=True)
        byte_fallback: StrictBool = False
        special_tokens: SpecialTokens = []
        unused: list[StrictStr] = []
        user_defined: list[StrictStr] = []

    unk_id: int | None
    byte_fallback: bool

    def __init__(self, vocab: Sequence[tuple[str, float]] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._set_state(vocab, check=True, where="SentencePieceBPE")

    def _set_state(self, vocab: Any = None, *, check: bool = True, where: str) -> None:
        pieces = check_scored_vocab(list(vocab or []), where=f"{where}.vocab") if check else [tuple(v) for v in vocab or []]
        self._pieces: list[tuple[str, float]] = pieces  # type: ignore[assignment]
        self._vocab = {p: i for i, (p, _) in enumerate(pieces)}
        self._origin = where

    def _configure(self) -> None:
        super()._configure()
        where, vocab, n = self._origin, self._vocab, len(self._pieces)
        if self.unk_id is not None and n and self.unk_id >= n:
            raise VocabularyError(f"{where}: unk_id {self.unk_id} is not an id of the {n} pieces; pass the id of '<unk>'")
        specials = check_special_tokens(self.special_tokens, vocab, where=where)
        object.__setattr__(self, "special_tokens", held_special_tokens(self, specials))
        check_special_tokens(self.unused, vocab, where=where, option="unused", missing="unused pieces must be pieces")
        check_special_tokens(self.user_defined, vocab, where=where, option="user_defined",
                             missing="user-defined pieces must be pieces")
        self._user = user_symbols_pattern(self.user_defined)
        closed = set(self.special_tokens)
        if self.unk_id is not None and n:
            closed.add(self._pieces[self.unk_id][0])
        self._bytes: list[int | None] = [vocab.get(byte_piece(b)) for b in range(256)]
        if self.byte_fallback:
            closed.update(byte_piece(b) for b in range(256))
            missing_bytes = [byte_piece(b) for b in range(256) if self._bytes[b] is None]
            if n and missing_bytes:
                raise VocabularyError(f"{where}: byte_fallback needs the 256 pieces <0x00>..<0xFF>; missing {missing_bytes[:3]}")
        # The pieces merging may build, with their scores (control, unknown and byte pieces are not).
        self._scores: dict[str, float] = {p: s for p, s in self._pieces if p not in closed}
        self._unused: frozenset[str] = frozenset(self.unused)
        # The pieces a symbol left after merging may be: an UNUSED one that cannot be split back (a
        # character) is unknown, as in sentencepiece.
        self._final: dict[str, float] = {p: s for p, s in self._scores.items() if p not in self._unused}

    def _new_caches(self) -> None:
        super()._new_caches()
        self._tok_cache: BoundedCache = BoundedCache(self.cache_capacity, longest=MAX_CACHED_PIECE)

    def params(self) -> dict[str, Any]:
        return {
            "vocab": [[p, s] for p, s in self._pieces],
            "unk_id": self.unk_id,
            "byte_fallback": self.byte_fallback,
            "special_tokens": list(self.special_tokens),
            "unused": list(self.unused),
            "user_defined": list(self.user_defined),
        }

    @classmethod
    def from_dict(cls, data: Any, *, validate: bool = True, where: str | None = None) -> SentencePieceBPE:
        options = {k: v for k, v in data.items() if k not in ("type", "vocab")}
        return cls._assemble(  # type: ignore[no-any-return]
            options, validate=validate, where=where or "model 'SentencePieceBPE'", vocab=data.get("vocab"), check=validate
        )

    # -------------------------------------------------------------------------------- vocabulary
    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    def get_scores(self) -> list[tuple[str, float]]:
        """``[(piece, score), ...]`` in id order."""
        return list(self._pieces)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        return self._pieces[token_id][0] if 0 <= token_id < len(self._pieces) else None

    # -------------------------------------------------------------------------------- encoding
    def _symbols(self, piece: str) -> tuple[list[int], list[int], list[bool] | None]:
        """Starts and ends of the initial symbols (characters, and user-defined pieces whole), and
        which are frozen (``None``: no user-defined piece)."""
        n = len(piece)
        if self._user is None:
            return list(range(n)), list(range(1, n + 1)), None
        start: list[int] = []
        end: list[int] = []
        frozen: list[bool] = []
        pos = 0
        for m in self._user.finditer(piece):
            s, e = m.span()
            start += range(pos, s)
            end += range(pos + 1, s + 1)
            frozen += [False] * (s - pos)
            start.append(s)
            end.append(e)
            frozen.append(True)
            pos = e
        start += range(pos, n)
        end += range(pos + 1, n + 1)
        frozen += [False] * (n - pos)
        return start, end, frozen

    def _merge(self, piece: str) -> list[tuple[int, int]]:
        """Character spans of the symbols left after merging ``piece`` (bpe_model.cc's agenda)."""
        scores = self._scores
        start, end, frozen = self._symbols(piece)
        n = len(start)
        if not n:
            return []
        prev = list(range(-1, n - 1))
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        alive = [True] * n
        agenda: list[tuple[float, int, int, int]] = []
        push = heapq.heappush

        def add(left: int, right: int) -> None:
            if left < 0 or right < 0 or frozen is not None and (frozen[left] or frozen[right]):
                return
            score = scores.get(piece[start[left] : end[right]])
            if score is not None:
                push(agenda, (-score, left, right, end[right] - start[left]))

        for i in range(n - 1):
            add(i, i + 1)
        rev: dict[str, tuple[str, str]] = {}
        while agenda:
            _, left, right, size = heapq.heappop(agenda)
            if not (alive[left] and alive[right]) or end[right] - start[left] != size or nxt[left] != right:
                continue
            if self._unused and piece[start[left] : end[right]] in self._unused:
                rev[piece[start[left] : end[right]]] = (piece[start[left] : end[left]], piece[start[right] : end[right]])
            end[left] = end[right]
            alive[right] = False
            nxt[left] = nxt[right]
            if nxt[right] >= 0:
                prev[nxt[right]] = left
            add(prev[left], left)
            add(left, nxt[left])
        spans: list[tuple[int, int]] = []
        i = 0
        while i >= 0 and n:
            spans.extend(self._resegment(piece, start[i], end[i], rev))
            i = nxt[i]
        return spans

    def _resegment(self, piece: str, s: int, e: int, rev: dict[str, tuple[str, str]]) -> list[tuple[int, int]]:
        """The spans of ``piece[s:e]`` with every UNUSED piece split back into the two it was merged from,
        and those again (sentencepiece's re-segmentation); an explicit stack, as a chain of UNUSED pieces
        may be a thousand levels deep."""
        out: list[tuple[int, int]] = []
        todo = [(s, e)]
        while todo:
            s, e = todo.pop()
            text = piece[s:e]
            if text in self._unused and text in rev:
                k = s + len(rev[text][0])
                todo.append((k, e))
                todo.append((s, k))  # the left part first
            else:
                out.append((s, e))
        return out

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        cache = self._tok_cache  # read once (see Configurable._reconfigure)
        cached = cache.get(piece)
        if cached is not None:
            return list(cached)
        out: list[tuple[int, int, int]] = []
        vocab, scores = self._vocab, self._final
        unknown_from = -1  # start of the current run of unknown symbols (one token, as sentencepiece)
        spans = self._merge(piece)
        for k, (s, e) in enumerate(spans):
            text = piece[s:e]
            if text in scores:
                out.append((vocab[text], s, e))
                continue
            if unknown_from < 0:
                unknown_from = s
            if k + 1 < len(spans) and piece[spans[k + 1][0] : spans[k + 1][1]] not in scores:
                continue
            out.extend(self._unknown(piece, unknown_from, e))
            unknown_from = -1
        cache.put(piece, tuple(out))
        return out

    def _unknown(self, piece: str, s: int, e: int) -> list[tuple[int, int, int]]:
        if self.byte_fallback:
            return [(self._bytes[b], k, k + 1) for k in range(s, e)  # type: ignore[misc]
                    for b in piece[k].encode("utf-8", "surrogatepass")]
        if self.unk_id is None:
            raise InputError(
                f"SentencePieceBPE: {piece[s:e]!r:.40} is not in the vocabulary and the model has no unk_id "
                "(set unk_id, or byte_fallback=True with <0x00>..<0xFF> pieces)"
            )
        return [(self.unk_id, s, e)]

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        return tuple(t for t, _, _ in self.tokenize(piece))
