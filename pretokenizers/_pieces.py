"""Small, fast helpers that cut and rewrite :class:`~toolkit.alignment.Piece` objects.

They produce exactly what :meth:`Piece.slice` / :meth:`Piece.map_chars` would, without a Python call
per character where the rewrite is one character for one character, and without a method call per
sub-piece of a piece without a per-character table (``align is None``, the common case).
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from toolkit.alignment import Piece, Span

__all__ = ["split_pieces", "keep_matches", "with_prefix", "one_to_one"]


def split_pieces(pieces: list[Piece], spans_of: Callable[[str], list[Span]]) -> list[Piece]:
    """Cut every piece at the spans ``spans_of(piece.text)`` returns (empty pieces are skipped)."""
    out: list[Piece] = []
    for piece in pieces:
        text = piece.text
        if not text:
            continue
        spans = spans_of(text)
        if len(spans) == 1 and spans[0] == (0, len(text)):
            out.append(piece)
        elif piece.align is None:
            start = piece.start
            out.extend([Piece(text[s:e], start + s, start + e) for s, e in spans])
        else:
            out.extend(piece.slice(s, e) for s, e in spans)
    return out


def keep_matches(compiled: regex.Pattern[str], pieces: list[Piece]) -> list[Piece]:
    """The non-empty matches of ``compiled`` in each piece, as pieces; the rest of the text is dropped."""
    out: list[Piece] = []
    for piece in pieces:
        text = piece.text
        if piece.align is None:
            start = piece.start
            for m in compiled.finditer(text):
                s, e = m.span()
                if e > s:
                    out.append(piece if (s == 0 and e == len(text)) else Piece(m.group(), start + s, start + e))
            continue
        for m in compiled.finditer(text):
            s, e = m.span()
            if e > s:
                out.append(piece if (s == 0 and e == len(text)) else piece.slice(s, e))
    return out


def _char_spans(piece: Piece) -> list[Span]:
    if piece.align is not None:
        return list(piece.align)
    s = piece.start
    e = s + len(piece.text)
    return list(zip(range(s, e), range(s + 1, e + 1)))


def with_prefix(piece: Piece, prefix: str) -> Piece:
    """``prefix + piece``; the prefix characters stand for the empty span at the piece start.

    Same result as ``piece.map_chars(lambda c: c, prefix=prefix)``.
    """
    start = piece.start
    return Piece(prefix + piece.text, start, piece.end, [(start, start)] * len(prefix) + _char_spans(piece))


def one_to_one(piece: Piece, new_text: str) -> Piece:
    """The piece with its text replaced by ``new_text`` of the same length, character for character
    (each character still stands for what it stood for, so the alignment is kept as it is)."""
    if new_text == piece.text:
        return piece
    return Piece(new_text, piece.start, piece.end, piece.align)
