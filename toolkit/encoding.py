"""The :class:`Encoding`: what encoding one text (or one pair of texts) produces.

Parallel lists, one entry per token: ids, token strings, character offsets into the *original* text,
type ids (0 for the first sequence, 1 for the second of a pair), the special-tokens mask, the
attention mask and the word (pre-token) index each token came from (``None`` for special tokens).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field

from toolkit.alignment import Span

__all__ = ["Encoding", "PackedEncodings", "pack_encodings", "unpack_encodings"]


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

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def n_sequences(self) -> int:
        """1 for a single text, 2 for a pair (counted from the type ids)."""
        return 2 if any(self.type_ids) else 1

    def with_type_id(self, type_id: int) -> Encoding:
        """A copy whose type ids are all ``type_id``."""
        return Encoding(
            list(self.ids), list(self.tokens), list(self.offsets), [type_id] * len(self.ids),
            list(self.special_tokens_mask), list(self.attention_mask), list(self.word_ids),
        )

    @staticmethod
    def special(token: str, token_id: int, type_id: int = 0) -> Encoding:
        """A one-token encoding for a special token added by a post-processor (offsets ``(0, 0)``)."""
        return Encoding([token_id], [token], [(0, 0)], [type_id], [1], [1], [None])

    @staticmethod
    def concat(parts: Iterable[Encoding]) -> Encoding:
        """Concatenate encodings in order (used by post-processors).

        >>> a = Encoding([1], ["a"], [(0, 1)]); b = Encoding.special("[SEP]", 2)
        >>> Encoding.concat([a, b]).ids
        [1, 2]
        """
        out = Encoding()
        for p in parts:
            out.ids += p.ids
            out.tokens += p.tokens
            out.offsets += p.offsets
            out.type_ids += p.type_ids
            out.special_tokens_mask += p.special_tokens_mask
            out.attention_mask += p.attention_mask
            out.word_ids += p.word_ids
        return out


#: The columns of :func:`pack_encodings`, in order.
PackedEncodings = tuple[bytes, bytes, list[str], bytes, bytes, bytes, bytes, bytes]


def pack_encodings(encodings: Iterable[Encoding]) -> PackedEncodings:
    """The encodings as a few flat columns, to send between processes.

    Pickling a list of :class:`Encoding` objects costs more than encoding them (every list and offset
    tuple is its own pickled object); flat arrays of ints pickle as raw bytes. Token strings stay a
    list: they repeat, and pickle writes each distinct string object once. ``None`` word ids travel
    as -1. :func:`unpack_encodings` is the inverse.

    >>> encs = [Encoding([5, 6], ["hi", "!"], [(0, 2), (2, 3)]), Encoding.special("[SEP]", 2)]
    >>> unpack_encodings(pack_encodings(encs)) == encs
    True
    """
    lengths = array("q")
    ids: list[int] = []
    tokens: list[str] = []
    offsets: list[int] = []
    type_ids: list[int] = []
    special: list[int] = []
    attention: list[int] = []
    words: list[int] = []
    for e in encodings:
        lengths.append(len(e.ids))
        ids += e.ids
        tokens += e.tokens
        for start, end in e.offsets:
            offsets.append(start)
            offsets.append(end)
        type_ids += e.type_ids
        special += e.special_tokens_mask
        attention += e.attention_mask
        words += [-1 if w is None else w for w in e.word_ids]
    columns = (lengths, array("q", ids), array("q", offsets), array("q", type_ids), array("q", special),
               array("q", attention), array("q", words))
    lengths_b, ids_b, offsets_b, type_b, special_b, attention_b, words_b = (c.tobytes() for c in columns)
    return lengths_b, ids_b, tokens, offsets_b, type_b, special_b, attention_b, words_b


def unpack_encodings(packed: PackedEncodings) -> list[Encoding]:
    """The encodings of :func:`pack_encodings`, equal to the ones packed."""
    lengths_b, ids_b, tokens, offsets_b, type_b, special_b, attention_b, words_b = packed

    def column(data: bytes) -> list[int]:
        values = array("q")
        values.frombytes(data)
        return values.tolist()

    ids = column(ids_b)
    flat = column(offsets_b)
    offsets = list(zip(flat[0::2], flat[1::2]))
    type_ids = column(type_b)
    special = column(special_b)
    attention = column(attention_b)
    words = [None if w < 0 else w for w in column(words_b)]
    out: list[Encoding] = []
    new = object.__new__
    pos = 0
    for n in column(lengths_b):
        end = pos + n
        e = new(Encoding)  # the columns are consistent by construction: skip __post_init__
        e.ids = ids[pos:end]
        e.tokens = tokens[pos:end]
        e.offsets = offsets[pos:end]
        e.type_ids = type_ids[pos:end]
        e.special_tokens_mask = special[pos:end]
        e.attention_mask = attention[pos:end]
        e.word_ids = words[pos:end]
        out.append(e)
        pos = end
    return out
