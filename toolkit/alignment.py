"""Text that remembers where it came from: :class:`NormalizedString` and :class:`Piece`.

Normalizers change text (NFKC, lowercasing, accent stripping can make it shorter or longer), yet
``Encoding.offsets`` must be spans of the *original* text. A :class:`NormalizedString` keeps, for every
character of the normalized text, the span of original characters it came from. Pre-tokenizers cut the
normalized text into :class:`Piece` objects; a piece whose text is not a plain slice (the byte-level
alphabet, a Metaspace ``▁``) keeps a span per character too. Chaining the two maps any token back to
the original text.

Identity is the common case (no normalizer, ASCII lowercasing, plain regex splits), so both classes
store ``None`` instead of a per-character table until the text really changes length or order.

>>> ns = NormalizedString("Ǆe").rewrite([(0, 1, "DŽ"), (1, 2, "e")])
>>> ns.normalized, ns.original_span(0, 2), ns.original_span(2, 3)
('DŽe', (0, 1), (1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["NormalizedString", "Piece", "Span"]

Span = tuple[int, int]


class NormalizedString:
    """A normalized text with, for each of its characters, the original span it came from.

    ``alignments`` is ``None`` while the normalized text is aligned one-to-one with the original.

    >>> ns = NormalizedString("Héllo")
    >>> ns.normalized, ns.original_span(1, 3)
    ('Héllo', (1, 3))
    """

    __slots__ = ("original", "normalized", "alignments")

    def __init__(self, original: str, normalized: str | None = None, alignments: list[Span] | None = None):
        self.original = original
        self.normalized = original if normalized is None else normalized
        self.alignments = alignments

    def __repr__(self) -> str:
        return f"NormalizedString(original={self.original!r}, normalized={self.normalized!r})"

    def _char_span(self, i: int) -> Span:
        a = self.alignments
        return (i, i + 1) if a is None else a[i]

    def _position(self, i: int) -> int:
        """Original position of the boundary before normalized character ``i`` (``i`` may be the end)."""
        if i < len(self.normalized):
            return self._char_span(i)[0]
        if not self.normalized:
            return len(self.original) if self.alignments is None else 0
        return self._char_span(len(self.normalized) - 1)[1]

    def original_span(self, start: int, end: int) -> Span:
        """Span of the original text that produced ``normalized[start:end]``.

        >>> NormalizedString("abc").original_span(1, 2)
        (1, 2)
        """
        if self.alignments is None:
            return (start, end)
        if end <= start:
            p = self._position(start)
            return (p, p)
        a = self.alignments
        return (a[start][0], a[end - 1][1])

    def rewrite(self, segments: Iterable[tuple[int, int, str]]) -> NormalizedString:
        """Return a new string where each ``(start, end, replacement)`` segment is replaced.

        The segments must cover ``normalized`` from 0 to its end, in order (``start == end`` inserts).
        A replacement of the same length as its segment keeps the per-character alignment; any other
        replacement aligns each of its characters to the whole original span of the segment.

        >>> NormalizedString("ab").rewrite([(0, 1, "xy"), (1, 2, "")]).normalized
        'xy'
        """
        segs = list(segments)
        pos = 0
        same_shape = True
        for start, end, rep in segs:
            if start != pos or end < start:
                raise ValueError(f"rewrite segments must be contiguous; got ({start}, {end}) at {pos}")
            pos = end
            if len(rep) != end - start:
                same_shape = False
        if pos != len(self.normalized):
            raise ValueError(f"rewrite segments end at {pos}, text has {len(self.normalized)} characters")
        text = "".join(rep for _, _, rep in segs)
        if same_shape:
            return NormalizedString(self.original, text, self.alignments)
        old = self.alignments
        new: list[Span] = []
        for start, end, rep in segs:
            if not rep:
                continue
            if len(rep) == end - start:
                new.extend(((i, i + 1) for i in range(start, end)) if old is None else old[start:end])
            else:
                span = self.original_span(start, end)
                new.extend([span] * len(rep))
        return NormalizedString(self.original, text, new)

    def map_chars(self, fn: Callable[[str], str]) -> NormalizedString:
        """Replace every character ``c`` by ``fn(c)`` (which may be empty or several characters).

        >>> NormalizedString("ß!").map_chars(lambda c: c.upper()).normalized
        'SS!'
        """
        return self.rewrite((i, i + 1, fn(c)) for i, c in enumerate(self.normalized))


@dataclass(slots=True)
class Piece:
    """One pre-token: its text and where it sits in the normalized string.

    ``start``/``end`` is the span of the normalized string the piece covers. ``align`` is ``None`` when
    character ``i`` of ``text`` stands for normalized character ``start + i``: ``text`` is
    ``normalized[start:end]`` or a one-for-one respelling of it (the byte-level spelling of ASCII
    text, Metaspace's ``▁`` for a space), so no per-character table is built for the common case.
    Otherwise it holds, per character of ``text``, the normalized span that character stands for
    (several byte-level characters can stand for one ``é``).

    >>> p = Piece("hello", 6, 11)
    >>> p.slice(1, 3), p.span(1, 3)
    (Piece(text='el', start=7, end=9, align=None), (7, 9))
    """

    text: str
    start: int
    end: int
    align: list[Span] | None = None

    def span(self, i: int, j: int) -> Span:
        """Normalized span of ``text[i:j]``."""
        a = self.align
        if a is None:
            return (self.start + i, self.start + j)
        if j <= i:
            p = a[i][0] if i < len(a) else self.end
            return (p, p)
        return (a[i][0], a[j - 1][1])

    def moved(self, delta: int) -> Piece:
        """The same piece ``delta`` characters further along the normalized string.

        >>> Piece("ab", 3, 5).moved(-1)
        Piece(text='ab', start=2, end=4, align=None)
        """
        align = None if self.align is None else [(s + delta, e + delta) for s, e in self.align]
        return Piece(self.text, self.start + delta, self.end + delta, align)

    def slice(self, i: int, j: int) -> Piece:
        """The sub-piece ``text[i:j]`` with its own span."""
        s, e = self.span(i, j)
        return Piece(self.text[i:j], s, e, None if self.align is None else self.align[i:j])

    def map_chars(self, fn: Callable[[str], str], *, prefix: str = "") -> Piece:
        """Replace each character by ``fn(char)`` and optionally prepend ``prefix``.

        Prefix characters stand for the empty span at the piece start. Used by the byte-level
        pre-tokenizer, whose output is not a slice of the input (:mod:`pretokenizers._pieces` gives the
        same result faster for one-for-one rewrites and prefixes, as Metaspace's).
        """
        reps = [fn(c) for c in self.text]
        text = "".join(reps)
        if not prefix and len(text) == len(self.text) and "" not in reps:
            # Every character became one character: each still stands for what it stood for.
            return self if text == self.text else Piece(text, self.start, self.end, self.align)
        start = self.start
        end = start + len(self.text)
        spans = self.align if self.align is not None else zip(range(start, end), range(start + 1, end + 1))
        align: list[Span] = [(start, start)] * len(prefix)
        for span, rep in zip(spans, reps):
            align.extend([span] * len(rep))
        return Piece(prefix + text, start, self.end, align)
