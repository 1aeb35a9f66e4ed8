"""NormalizedString and Piece (toolkit/alignment.py) on hand-computed answers: the identity case
(no table), empty texts, insertions, the checks of ``rewrite``. Written for mutants that survived the
pipeline tests (docs/testing.md)."""

from __future__ import annotations

import pytest

from toolkit.alignment import NormalizedString, Piece


def test_identity_keeps_no_table_and_maps_positions_to_themselves() -> None:
    ns = NormalizedString("abc")
    assert ns.original == ns.normalized == "abc" and ns.alignments is None
    assert [ns._char_span(i) for i in range(3)] == [(0, 1), (1, 2), (2, 3)]
    assert [ns._position(i) for i in range(4)] == [0, 1, 2, 3]
    same = ns.rewrite([(0, 1, "A"), (1, 3, "BC")])  # same lengths: still no table
    assert (same.original, same.normalized, same.alignments) == ("abc", "ABC", None)


def test_empty_normalized_text_positions() -> None:
    gone = NormalizedString("ab").rewrite([(0, 2, "")])
    assert (gone.original, gone.normalized, gone.alignments) == ("ab", "", [])
    assert gone._position(0) == 0 and gone.original_span(0, 0) == (0, 0)
    kept = NormalizedString("ab", "")  # empty without a table: the boundary is the original's end
    assert kept._position(0) == 2


def test_rewrite_with_tables_and_insertions() -> None:
    ns = NormalizedString("aßc").rewrite([(0, 1, "a"), (1, 2, "ss"), (2, 2, "+"), (2, 3, "c")])
    assert ns.original == "aßc" and ns.normalized == "ass+c"
    assert ns.alignments == [(0, 1), (1, 2), (1, 2), (2, 2), (2, 3)]
    assert [ns._position(i) for i in range(6)] == [0, 1, 1, 2, 2, 3]
    assert ns.original_span(1, 3) == (1, 2) and ns.original_span(3, 3) == (2, 2) and ns.original_span(4, 4) == (2, 2)
    again = ns.rewrite([(0, 5, "X")])  # a table through a second rewrite
    assert (again.original, again.normalized, again.alignments) == ("aßc", "X", [(0, 3)])
    upper = ns.rewrite([(0, 3, "ASS"), (3, 5, "+C")])  # same shape over a table keeps the table
    assert upper.alignments == ns.alignments and upper.original == "aßc"


@pytest.mark.parametrize(("segments", "message"), [
    ([(1, 2, "x")], r"^rewrite segments must be contiguous; got \(1, 2\) at 0$"),
    ([(0, 2, "x"), (1, 3, "y")], r"^rewrite segments must be contiguous; got \(1, 3\) at 2$"),
    ([(0, 2, "x"), (2, 1, "")], r"^rewrite segments must be contiguous; got \(2, 1\) at 2$"),
    ([(0, 2, "xy")], r"^rewrite segments end at 2, text has 3 characters$"),
    ([(0, 2, "x")], r"^rewrite segments end at 2, text has 3 characters$"),
])
def test_rewrite_refuses_segments_that_do_not_tile(segments: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NormalizedString("abc").rewrite(segments)


def test_piece_spans_with_a_table() -> None:
    p = Piece("Ġé", 4, 5, [(4, 4), (4, 5)])
    assert p.span(0, 2) == (4, 5) and p.span(1, 1) == (4, 4) and p.span(2, 2) == (5, 5) and p.span(0, 0) == (4, 4)
    assert p.slice(1, 2) == Piece("é", 4, 5, [(4, 5)])
    plain = Piece("hello", 6, 11)
    assert plain.span(2, 2) == (8, 8) and plain.slice(0, 0) == Piece("", 6, 6, None)


def test_replace_of_another_length_spans_the_whole_match_where_hf_takes_its_last_character() -> None:
    """docs/migrating.md: the documented difference, pinned on both sides (ids are equal)."""
    from conftest import require

    from algorithms import WordLevel
    from pretokenizers import Split
    from toolkit import Regex, Tokenizer
    from toolkit.normalizers import Replace

    vocab = {"o": 0, " ": 1, "x": 2, "X": 3, "Y": 4, "[UNK]": 5}
    cases = [(" {2,}", " ", "o   x", [(0, 1), (1, 4), (4, 5)], [(0, 1), (3, 4), (4, 5)]),
             ("abc", "XY", "xabcx", [(0, 1), (1, 4), (1, 4), (4, 5)], [(0, 1), (3, 4), (3, 4), (4, 5)])]
    ours = {}
    for pattern, content, text, spans, _ in cases:
        tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), normalizer=Replace(Regex(pattern), content),
                        pre_tokenizer=Split(Regex("."), "isolated"))
        ours[text] = tok.encode(text)
        assert ours[text].offsets == spans
    tokenizers = require("tokenizers")
    for pattern, content, text, _, spans in cases:
        hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, "[UNK]"))
        hf.normalizer = tokenizers.normalizers.Replace(tokenizers.Regex(pattern), content)
        hf.pre_tokenizer = tokenizers.pre_tokenizers.Split(tokenizers.Regex("."), "isolated")
        assert hf.encode(text).offsets == spans and hf.encode(text).ids == ours[text].ids


def test_replace_of_one_character_by_one_keeps_each_character_where_it_was_as_hf() -> None:
    """A literal replaced by a text of its length (Gemma's " " -> "▁") keeps one original character per
    normalized character: HF's offsets for one character by one, and the rewrite of the general (regex)
    path for several (where HF differs, docs/migrating.md)."""
    from conftest import require

    from algorithms import WordLevel
    from pretokenizers import Split
    from toolkit import Regex, Tokenizer
    from toolkit.normalizers import Prepend, Replace, Sequence

    tokenizers = require("tokenizers")
    H = tokenizers.normalizers
    vocab = {c: i for i, c in enumerate("abxy▁éz")} | {"[UNK]": 7}
    texts = ["ab ab", " abab z ", "aab bé ab", "", "é", "  "]

    def ours(normalizer):
        tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), normalizer=normalizer, pre_tokenizer=Split(Regex("."), "isolated"))
        return [(e.ids, e.offsets) for e in map(tok.encode, texts)]

    for ours_norm, hf_norm in [
        (Replace(" ", "▁"), H.Replace(" ", "▁")),
        (Sequence([Prepend("▁"), Replace(" ", "▁")]), H.Sequence([H.Prepend("▁"), H.Replace(" ", "▁")])),
    ]:
        hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, "[UNK]"))
        hf.normalizer = hf_norm
        hf.pre_tokenizer = tokenizers.pre_tokenizers.Split(tokenizers.Regex("."), "isolated")
        assert ours(ours_norm) == [(e.ids, e.offsets) for e in map(hf.encode, texts)], ours_norm
    for literal, content in [(" ", "▁"), ("ab", "xy"), ("b", "é")]:
        assert ours(Replace(literal, content)) == ours(Replace(Regex(literal), content))
    assert ours(Replace("ab", "xy"))[0][1] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
