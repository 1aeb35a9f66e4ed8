"""Known answers for ``Piece.map_chars`` (``toolkit/alignment.py``) that the mutation run showed unpinned
(docs/testing.md, "alignment"): when a respelling keeps one character for one, and when it does not."""

from __future__ import annotations

from toolkit.alignment import Piece


def test_a_one_for_one_respelling_builds_no_table() -> None:
    p = Piece("ab", 3, 5)
    upper = p.map_chars(str.upper)
    assert upper == Piece("AB", 3, 5, None)  # each character still stands for the one it replaced
    assert upper.span(1, 2) == (4, 5)
    assert p.map_chars(lambda c: c) is p


def test_a_deleted_and_a_doubled_character_keep_their_spans() -> None:
    # 'a' is deleted and 'b' doubled: the text keeps its length, but both characters come from 'b'.
    q = Piece("ab", 3, 5).map_chars(lambda c: "" if c == "a" else c * 2)
    assert q == Piece("bb", 3, 5, [(4, 5), (4, 5)])
    assert q.span(0, 1) == (4, 5)
    assert q.span(0, 2) == (4, 5)
