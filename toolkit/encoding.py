"""The :class:`Encoding`: what encoding one text (or one pair of texts) produces.

Parallel lists, one entry per token: ids, token strings, character offsets into the *original* text,
type ids, the special-tokens mask, the attention mask and the word (pre-token) index each token came
from (``None`` for tokens a post-processor added). Like Hugging Face's ``Encoding`` it also knows which
tokens belong to which input sequence (``sequence_ids``, set by the post-processor, so RoBERTa-style
pairs whose type ids are all 0 still count two sequences), the parts cut off by truncation
(``overflowing``) and the alignment helpers (``token_to_chars``, ``char_to_token``, ``word_to_tokens``...).
The two rarely used attributes (sequence ranges, overflowing parts) cost nothing until set (``None``),
so batches of millions of tokens stay compact.

Truncating and padding one encoding are here; pairs, settings and the pipeline step are in
:mod:`toolkit.padding`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from toolkit.alignment import Span
from toolkit.errors import InputError, InputTypeError

__all__ = ["Encoding", "PackedEncodings", "pack_encodings", "unpack_encodings", "truncate_encoding", "pad_encoding", "pad_to"]

#: sequence index -> (start, end) token range; ``None``: one sequence covering every token.
Ranges = dict[int, tuple[int, int]]


def _index(value: Any, name: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise InputTypeError(f"{name} must be a non-negative integer, got {type(value).__name__} {value!r:.60}")
    value = value.__index__()
    if value < 0:
        raise InputError(f"{name} must be a non-negative integer, got {value}")
    return int(value)


@dataclass(slots=True)
class Encoding:
    """The result of :meth:`toolkit.Tokenizer.encode`.

    >>> enc = Encoding(ids=[5, 6], tokens=["hi", "!"], offsets=[(0, 2), (2, 3)])
    >>> len(enc), enc.type_ids, enc.attention_mask
    (2, [0, 0], [1, 1])
    """

    ids: list[int] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    offsets: list[Span] = field(default_factory=list)
    type_ids: list[int] = field(default_factory=list)
    special_tokens_mask: list[int] = field(default_factory=list)
    attention_mask: list[int] = field(default_factory=list)
    word_ids: list[int | None] = field(default_factory=list)
    #: the token range of each input sequence, flat ``(seq, start, end, ...)`` (compact: one small tuple),
    #: set by post-processors; ``None``: one sequence covering every token. See :attr:`sequence_ranges`.
    ranges: tuple[int, ...] | None = field(default=None, repr=False)
    #: the parts truncation cut off, each an Encoding (``None`` when there are none: see :attr:`overflowing`).
    overflow: list[Encoding] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        n = len(self.ids)
        if len(self.tokens) != n or len(self.offsets) != n:
            raise ValueError("Encoding: ids, tokens and offsets must have the same length")
        if not self.type_ids:
            self.type_ids = [0] * n
        if not self.special_tokens_mask:
            self.special_tokens_mask = [0] * n
        if not self.attention_mask:
            self.attention_mask = [1] * n
        if not self.word_ids:
            self.word_ids = [None] * n
        if not self.ranges:
            self.ranges = None
        if not self.overflow:
            self.overflow = None

    def __len__(self) -> int:
        return len(self.ids)

    # ------------------------------------------------------------------ HF's attributes
    @property
    def overflowing(self) -> list[Encoding]:
        """The parts cut off by truncation (with ``stride`` tokens of overlap), as Hugging Face's."""
        return self.overflow if self.overflow is not None else []

    @overflowing.setter
    def overflowing(self, value: Iterable[Encoding]) -> None:
        self.overflow = list(value) or None

    @property
    def sequence_ranges(self) -> Ranges | None:
        """Sequence index → ``(start, end)`` token range (``None``: one sequence covering every token)."""
        r = self.ranges
        return {r[i]: (r[i + 1], r[i + 2]) for i in range(0, len(r), 3)} if r else None

    @sequence_ranges.setter
    def sequence_ranges(self, value: Ranges | None) -> None:
        self.ranges = tuple(x for seq, (a, b) in sorted(value.items()) for x in (seq, a, b)) if value else None

    @property
    def words(self) -> list[int | None]:
        """Alias of :attr:`word_ids` (Hugging Face's older name)."""
        return self.word_ids

    @property
    def n_sequences(self) -> int:
        """How many input sequences this encoding holds (2 for a pair, also when every type id is 0)."""
        return len(self.ranges) // 3 if self.ranges else 1

    @property
    def sequence_ids(self) -> list[int | None]:
        """Per token, the index of the input sequence it came from; ``None`` for added special tokens
        and padding.

        >>> from toolkit.processors import RobertaProcessing
        >>> a, b = Encoding([5], ["hi"], [(0, 2)]), Encoding([6], ["yo"], [(0, 2)])
        >>> RobertaProcessing(("</s>", 2), ("<s>", 0)).process(a, b).sequence_ids
        [None, 0, None, None, 1, None]
        """
        if not self.ranges:
            return [0] * len(self.ids)
        out: list[int | None] = [None] * len(self.ids)
        # As HF: sequences 0 .. n_sequences - 1 in turn, a missing one covering every token (so a
        # part holding only the pair's range, {1: ...}, reads as sequence 0 throughout).
        for seq in range(self.n_sequences):
            start, end = self._range(seq)
            out[start:end] = [seq] * (end - start)
        return out

    def set_sequence_id(self, sequence_id: int) -> None:
        """Mark every token as coming from input sequence ``sequence_id``; the ranges of other
        sequences stay (as HF's, which inserts this one range)."""
        sequence_id = _index(sequence_id, "sequence_id")
        r = self.ranges or ()
        triples = {r[i]: r[i : i + 3] for i in range(0, len(r), 3)}
        triples[sequence_id] = (sequence_id, 0, len(self.ids))
        self.ranges = tuple(x for key in sorted(triples) for x in triples[key])

    def _range(self, sequence_index: int) -> tuple[int, int]:
        sequence_index = _index(sequence_index, "sequence_index")
        r = self.ranges or ()
        for i in range(0, len(r), 3):
            if r[i] == sequence_index:
                return r[i + 1], r[i + 2]
        return 0, len(self.ids)

    # ------------------------------------------------------------------ alignment helpers (HF's)
    def token_to_sequence(self, token_index: int) -> int | None:
        """The input sequence of token ``token_index`` (``None`` for an added special token)."""
        token_index = _index(token_index, "token_index")
        if token_index > len(self.ids):
            return None
        r = self.ranges
        if not r:
            return 0
        # Ranges that overlap (set_sequence_id on a post-processed encoding) give the highest sequence,
        # as sequence_ids does; HF's answer there depends on its hash map's order.
        found = [r[i] for i in range(0, len(r), 3) if r[i + 1] <= token_index < r[i + 2]]
        return max(found) if found else None

    def token_to_chars(self, token_index: int) -> Span | None:
        """The ``(start, end)`` character span of a token in its input text.

        >>> Encoding([5, 6], ["hi", "!"], [(0, 2), (2, 3)]).token_to_chars(1)
        (2, 3)
        """
        token_index = _index(token_index, "token_index")
        if self.token_to_sequence(token_index) is None or token_index >= len(self.ids):
            return None
        return tuple(self.offsets[token_index])  # type: ignore[return-value]

    def token_to_word(self, token_index: int) -> int | None:
        """The index of the word (pre-token) a token belongs to, in its input sequence."""
        token_index = _index(token_index, "token_index")
        if self.token_to_sequence(token_index) is None or token_index >= len(self.ids):
            return None
        return self.word_ids[token_index]

    def char_to_token(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The index of the token that covers character ``char_pos`` of input ``sequence_index``.

        >>> Encoding([5, 6], ["hi", "!"], [(0, 2), (2, 3)]).char_to_token(1)
        0
        """
        char_pos = _index(char_pos, "char_pos")
        start, end = self._range(sequence_index)
        for i in range(start, end):
            s, e = self.offsets[i]
            if s <= char_pos < e:
                return i
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The index of the word that covers character ``char_pos`` of input ``sequence_index``."""
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.token_to_word(token)

    def word_to_tokens(self, word_index: int, sequence_index: int = 0) -> tuple[int, int] | None:
        """The ``(start, end)`` token range of word ``word_index`` of input ``sequence_index``.

        >>> Encoding([5, 6, 7], ["hi", "##s", "!"], [(0, 2), (2, 3), (3, 4)], word_ids=[0, 0, 1]).word_to_tokens(0)
        (0, 2)
        """
        word_index = _index(word_index, "word_index")
        start, end = self._range(sequence_index)
        first = last = None
        for i in range(start, end):
            w = self.word_ids[i]
            if w is not None and w > word_index:
                break  # word ids grow along a sequence (HF stops at the first larger one too)
            if w == word_index:
                if first is None:
                    first = i
                last = i + 1
        return None if first is None or last is None else (first, last)

    def word_to_chars(self, word_index: int, sequence_index: int = 0) -> Span | None:
        """The ``(start, end)`` character span of word ``word_index`` of input ``sequence_index``."""
        tokens = self.word_to_tokens(word_index, sequence_index)
        if tokens is None or tokens[1] == 0:
            return None
        return self.offsets[tokens[0]][0], self.offsets[tokens[1] - 1][1]

    # ------------------------------------------------------------------ truncation and padding (toolkit.padding)
    def truncate(self, max_length: int, stride: int = 0, direction: str = "right") -> None:
        """Cut this encoding to ``max_length`` tokens in place; the rest goes to :attr:`overflowing`
        in windows that overlap by ``stride`` tokens (Hugging Face's ``Encoding.truncate``)."""
        truncate_encoding(self, max_length, stride, direction)

    def pad(
        self, length: int, direction: str = "right", pad_id: int = 0, pad_type_id: int = 0, pad_token: str = "[PAD]"
    ) -> None:
        """Pad this encoding (and its overflowing parts) to ``length`` tokens in place, as Hugging Face's."""
        pad_encoding(self, length, direction=direction, pad_id=pad_id, pad_type_id=pad_type_id, pad_token=pad_token)

    # ------------------------------------------------------------------ building
    def copy(self) -> Encoding:
        """An independent copy (lists copied, overflowing parts copied too)."""
        return Encoding(
            list(self.ids), list(self.tokens), list(self.offsets), list(self.type_ids),
            list(self.special_tokens_mask), list(self.attention_mask), list(self.word_ids),
            self.ranges,
            [o.copy() for o in self.overflow] if self.overflow else None,
        )

    def with_type_id(self, type_id: int) -> Encoding:
        """A copy whose type ids are all ``type_id``."""
        out = self.copy()
        out.type_ids = [type_id] * len(self.ids)
        if out.overflow:
            out.overflow = [o.with_type_id(type_id) for o in out.overflow]
        return out

    @staticmethod
    def special(token: str, token_id: int, type_id: int = 0) -> Encoding:
        """A one-token encoding for a special token added by a post-processor (offsets ``(0, 0)``)."""
        return Encoding([token_id], [token], [(0, 0)], [type_id], [1], [1], [None])

    def merge_with(self, other: Encoding, growing_offsets: bool = False) -> None:
        """Append ``other`` in place, as Hugging Face's ``merge_with``: sequence ranges shift, and
        overflowing parts combine (each of ours with ``other`` and each of its overflowing parts)."""
        if self.overflow or other.overflow:
            combined: list[Encoding] = []
            for mine in self.overflow or ():
                n = mine.copy()
                n.merge_with(other.copy(), growing_offsets)
                combined.append(n)
                for theirs in other.overflow or ():
                    n = mine.copy()
                    n.merge_with(theirs.copy(), growing_offsets)
                    combined.append(n)
            for theirs in other.overflow or ():
                n = self.copy()
                n.merge_with(theirs.copy(), growing_offsets)
                combined.append(n)
        else:
            combined = []
        n = len(self.ids)
        if other.ranges:  # shifted by our length; a sequence in both: the other's range wins (HF)
            theirs = other.ranges
            triples = {theirs[i]: (theirs[i], theirs[i + 1] + n, theirs[i + 2] + n) for i in range(0, len(theirs), 3)}
            mine = self.ranges or ()
            for i in range(0, len(mine), 3):
                triples.setdefault(mine[i], mine[i : i + 3])
            self.ranges = tuple(x for key in sorted(triples) for x in triples[key])
        self.ids += other.ids
        self.type_ids += other.type_ids
        self.tokens += other.tokens
        self.word_ids += other.word_ids
        shift = self.offsets[-1][1] if growing_offsets and self.offsets else 0
        self.offsets += [(s + shift, e + shift) for s, e in other.offsets] if shift else other.offsets
        self.special_tokens_mask += other.special_tokens_mask
        self.attention_mask += other.attention_mask
        self.overflow = combined or None

    @staticmethod
    def merge(encodings: Iterable[Encoding], growing_offsets: bool = True) -> Encoding:
        """One encoding from several, as Hugging Face's ``Encoding.merge`` (offsets grow by default)."""
        out = Encoding()
        for e in encodings:
            out.merge_with(e.copy(), growing_offsets)
        return out

    @staticmethod
    def concat(parts: Iterable[Encoding]) -> Encoding:
        """Concatenate encodings in order (used by post-processors; offsets are kept as they are).

        >>> a = Encoding([1], ["a"], [(0, 1)]); b = Encoding.special("[SEP]", 2)
        >>> Encoding.concat([a, b]).ids
        [1, 2]
        """
        out = Encoding()
        for p in parts:
            out.merge_with(p)
        return out


# ----------------------------------------------------------------------------- truncation and padding
# One encoding at a time (HF's Encoding.truncate / Encoding.pad); pairs, strategies, settings and the
# pipeline step are in toolkit.padding.
def _slice(enc: Encoding, start: int, stop: int) -> Encoding:
    return Encoding(enc.ids[start:stop], enc.tokens[start:stop], enc.offsets[start:stop], enc.type_ids[start:stop],
                    enc.special_tokens_mask[start:stop], enc.attention_mask[start:stop], enc.word_ids[start:stop])


def _windows(n: int, max_length: int, stride: int, direction: str) -> list[tuple[int, int]]:
    step = max_length - stride
    out: list[tuple[int, int]] = []
    if direction == "right":
        for start in range(0, n, step):
            stop = min(start + max_length, n)
            out.append((start, stop))
            if stop == n:
                break
    else:
        for last in range(n - 1, -1, -step):
            stop = last + 1
            start = max(stop - max_length, 0)
            out.append((start, stop))
            if start == 0:
                break
    return out


def check_stride(stride: int, max_length: int) -> None:
    """The windows of a truncation to ``max_length`` overlap by ``stride``, so it must be smaller."""
    if stride >= max_length:
        raise InputError(
            f"stride ({stride}) must be smaller than the length to truncate to ({max_length}); note that the "
            "length excludes the special tokens the post-processor adds: lower stride or raise max_length"
        )


def truncate_encoding(enc: Encoding, max_length: int, stride: int = 0, direction: str = "right") -> None:
    """Cut ``enc`` to ``max_length`` tokens in place; the cut-off windows (each ``max_length`` long,
    overlapping the previous one by ``stride``) become ``enc.overflowing`` (HF's ``Encoding.truncate``)."""
    max_length = _index(max_length, "max_length")
    stride = _index(stride, "stride")
    if direction not in ("right", "left"):
        raise InputError(f"direction must be 'right' or 'left', got {direction!r:.60}")
    n = len(enc.ids)
    if max_length >= n:
        return
    if max_length == 0:
        whole = enc.copy()
        enc.ids, enc.tokens, enc.offsets, enc.type_ids = [], [], [], []
        enc.special_tokens_mask, enc.attention_mask, enc.word_ids = [], [], []
        enc.ranges, enc.overflow = None, [whole]
        return
    check_stride(stride, max_length)
    windows = _windows(n, max_length, stride, direction)
    parts = [_slice(enc, start, stop) for start, stop in windows]
    first = parts[0]
    enc.ids, enc.tokens, enc.offsets, enc.type_ids = first.ids, first.tokens, first.offsets, first.type_ids
    enc.special_tokens_mask, enc.attention_mask, enc.word_ids = first.special_tokens_mask, first.attention_mask, first.word_ids
    enc.ranges = None  # as HF: truncating forgets the sequence ranges
    enc.overflow = parts[1:] or None


def pad_encoding(
    enc: Encoding, length: int, *, direction: str = "right", pad_id: int = 0, pad_type_id: int = 0,
    pad_token: str = "[PAD]",
) -> None:
    """Pad ``enc`` and its overflowing parts to ``length`` in place (padding: attention 0, special mask 1,
    offsets ``(0, 0)``, word id ``None``); longer encodings are left as they are."""
    if direction not in ("right", "left"):
        raise InputError(f"direction must be 'right' or 'left', got {direction!r:.60}")
    if not isinstance(pad_token, str):
        raise InputTypeError(f"pad_token must be a str, got {type(pad_token).__name__}")
    p = {"direction": direction, "pad_id": _index(pad_id, "pad_id"), "pad_type_id": _index(pad_type_id, "pad_type_id"),
         "pad_token": pad_token}
    pad_to(enc, _index(length, "length"), p)


def pad_to(enc: Encoding, length: int, p: Mapping[str, Any]) -> None:
    """Pad ``enc`` (and its overflowing parts) to ``length`` with the settings ``p`` (validated)."""
    for o in enc.overflow or ():
        pad_to(o, length, p)
    k = length - len(enc.ids)
    if k <= 0:
        return
    ids, type_ids, tokens = [p["pad_id"]] * k, [p["pad_type_id"]] * k, [p["pad_token"]] * k
    none: list[int | None] = [None] * k
    zeros, ones, spans = [0] * k, [1] * k, [(0, 0)] * k
    if p["direction"] == "right":
        enc.ids += ids
        enc.type_ids += type_ids
        enc.tokens += tokens
        enc.word_ids += none
        enc.attention_mask += zeros
        enc.special_tokens_mask += ones
        enc.offsets += spans
        return
    enc.ids = ids + enc.ids
    enc.type_ids = type_ids + enc.type_ids
    enc.tokens = tokens + enc.tokens
    enc.word_ids = none + enc.word_ids
    enc.attention_mask = zeros + enc.attention_mask
    enc.special_tokens_mask = ones + enc.special_tokens_mask
    enc.offsets = spans + enc.offsets
    if enc.ranges:
        enc.ranges = tuple(x + k if i % 3 else x for i, x in enumerate(enc.ranges))



#: The columns of :func:`pack_encodings`, in order; a column that is ``None`` holds every encoding's
#: default (type ids and special-tokens mask all 0, attention mask all 1).
PackedEncodings = tuple[
    array, array, list[str], array, "array | None", "array | None", "array | None", array, list[Any]
]


def _ints(values: Iterable[int]) -> array:
    """``values`` as a compact array: 32-bit when they fit (ids and offsets nearly always do)."""
    values = values if isinstance(values, list) else list(values)
    try:
        return array("i", values)
    except OverflowError:
        return array("q", values)


def _flat(rows: list[list[int]], default: int | None = None) -> array | None:
    """``rows`` concatenated; ``None`` if every value equals ``default``."""
    if default is not None and all(row.count(default) == len(row) for row in rows):
        return None
    return _ints(chain.from_iterable(rows))


def pack_encodings(encodings: Iterable[Encoding]) -> PackedEncodings:
    """The encodings as a few flat columns, to send between processes.

    Pickling a list of :class:`Encoding` objects costs more than encoding them (every list and offset
    tuple is its own pickled object); flat arrays of ints pickle as raw bytes (32-bit where the values
    fit), and a column holding only its default (no pairs, no special tokens, no padding) is left out.
    Token strings stay a list: they repeat, and pickle writes each distinct string object once.
    ``None`` word ids travel as -1. The rare sequence ranges and overflowing parts travel as a sparse
    list of ``(index, ranges, overflowing)``. :func:`unpack_encodings` is the inverse.

    >>> encs = [Encoding([5, 6], ["hi", "!"], [(0, 2), (2, 3)]), Encoding.special("[SEP]", 2)]
    >>> unpack_encodings(pack_encodings(encs)) == encs
    True
    """
    encodings = list(encodings)
    extras = [(i, e.ranges, e.overflow) for i, e in enumerate(encodings) if e.ranges or e.overflow]
    words = list(chain.from_iterable([e.word_ids for e in encodings]))
    if None in words:
        words = [-1 if w is None else w for w in words]
    return (
        _ints([len(e.ids) for e in encodings]),
        _flat([e.ids for e in encodings]),
        list(chain.from_iterable([e.tokens for e in encodings])),
        _ints(chain.from_iterable(chain.from_iterable([e.offsets for e in encodings]))),
        _flat([e.type_ids for e in encodings], 0),
        _flat([e.special_tokens_mask for e in encodings], 0),
        _flat([e.attention_mask for e in encodings], 1),
        _ints(words),
        extras,
    )  # type: ignore[return-value]


def unpack_encodings(packed: PackedEncodings) -> list[Encoding]:
    """The encodings of :func:`pack_encodings`, equal to the ones packed."""
    lengths, ids_a, tokens, offsets_a, type_a, special_a, attention_a, words_a, extras = packed
    ids = ids_a.tolist()
    flat = offsets_a.tolist()
    offsets = list(zip(flat[0::2], flat[1::2]))
    type_ids, special, attention = (a.tolist() if a is not None else [] for a in (type_a, special_a, attention_a))
    words: list[int | None] = words_a.tolist()
    if -1 in words:
        words = [None if w < 0 else w for w in words]
    out: list[Encoding] = []
    new = object.__new__
    pos = 0
    for n in lengths.tolist():
        end = pos + n
        e = new(Encoding)  # the columns are consistent by construction: skip __post_init__
        e.ids = ids[pos:end]
        e.tokens = tokens[pos:end]
        e.offsets = offsets[pos:end]
        e.type_ids = type_ids[pos:end] if type_a is not None else [0] * n
        e.special_tokens_mask = special[pos:end] if special_a is not None else [0] * n
        e.attention_mask = attention[pos:end] if attention_a is not None else [1] * n
        e.word_ids = words[pos:end]
        e.ranges = None
        e.overflow = None
        out.append(e)
        pos = end
    for i, ranges, overflow in extras:
        out[i].ranges = ranges
        out[i].overflow = overflow
    return out
