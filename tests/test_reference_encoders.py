"""The fast encoders equal the slow, readable references of :mod:`algorithms.reference.encoders`:
known answers, then hypothesis properties on random vocabularies, merges and words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms import BPE, ByteLevelBPE, WordPiece
from algorithms.reference.encoders import reference_bpe, reference_byte_level_bpe, reference_wordpiece
from toolkit.bytelevel import BYTE_TO_CHAR, from_byte_level
from toolkit.errors import InputError


# ------------------------------------------------------------------------------------ known answers
def test_known_answers() -> None:
    vocab = {"[UNK]": 0, "h": 1, "u": 2, "g": 3, "ug": 4, "hug": 5}
    merges = [("u", "g"), ("h", "ug")]
    assert reference_bpe("hugx", vocab, merges, unk_token="[UNK]") == [5, 0]
    assert BPE(vocab, merges, unk_token="[UNK]").encode_piece("hugx") == (5, 0)
    assert reference_bpe("xxh", vocab, merges, unk_token="[UNK]", fuse_unk=True) == [0, 1]
    bytes_vocab = {c: b for b, c in enumerate(BYTE_TO_CHAR)} | {"ab": 256, "abc": 257}
    assert reference_byte_level_bpe("abcab", bytes_vocab, [("a", "b"), ("ab", "c")]) == [257, 256]
    assert reference_byte_level_bpe("xabc", bytes_vocab, None) == [120, 257]
    wp = {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3}
    assert reference_wordpiece("unaffable", wp) == [1, 2, 3] == list(WordPiece(wp).encode_piece("unaffable"))
    assert reference_wordpiece("unaffable", wp, max_input_chars_per_word=5) == [0]


# ------------------------------------------------------------------------------------ BPE
@st.composite
def bpe_models(draw: st.DrawFn) -> tuple[dict, list, dict]:
    chars = draw(st.lists(st.sampled_from("abcd"), min_size=1, max_size=4, unique=True))
    prefix = draw(st.sampled_from([None, "##"]))
    suffix = draw(st.sampled_from([None, "</w>"]))
    tokens: list[str] = []
    for c in chars:
        for t in (c, (prefix or "") + c):
            tokens.append(t)
            if suffix:
                tokens.append(t + suffix)
    tokens = list(dict.fromkeys(tokens))
    merges: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(0, 12))):
        left = draw(st.sampled_from(tokens))
        right = draw(st.sampled_from(tokens))
        if (left, right) in merges:
            continue
        merges.append((left, right))
        new = left + (right[len(prefix):] if prefix and right.startswith(prefix) else right)
        if new not in tokens:
            tokens.append(new)
    unk = draw(st.sampled_from([None, "[UNK]"]))
    if unk:
        tokens.append(unk)
    byte_fallback = draw(st.booleans())
    if byte_fallback:
        tokens += [f"<0x{b:02X}>" for b in draw(st.lists(st.sampled_from(b"ef\xc3\xa9"), unique=True))]
    ids = draw(st.permutations(range(len(tokens))))
    vocab = dict(zip(tokens, ids))
    options = {
        "unk_token": unk,
        "continuing_subword_prefix": prefix,
        "end_of_word_suffix": suffix,
        "fuse_unk": draw(st.booleans()),
        "byte_fallback": byte_fallback,
        "ignore_merges": draw(st.booleans()),
        "special_tokens": draw(st.lists(st.sampled_from(tokens), unique=True, max_size=2)),
    }
    return vocab, merges, options


@given(bpe_models(), st.lists(st.text("abcdeé", max_size=8), min_size=1, max_size=5))
def test_bpe_equals_the_reference(model: tuple[dict, list, dict], words: list[str]) -> None:
    vocab, merges, options = model
    bpe = BPE(vocab, merges, **options)
    for word in words:
        try:
            expected = reference_bpe(word, vocab, merges, **options)
        except KeyError:
            with pytest.raises(InputError):
                bpe._encode_piece(word)
            continue
        assert list(bpe._encode_piece(word)) == expected
        assert [t for t, _, _ in bpe.tokenize(word)] == expected
        bpe.long_piece_threshold = 0  # the long-piece merge too
        assert list(bpe._encode_piece(word)) == expected
        del bpe.long_piece_threshold


# ------------------------------------------------------------------------------------ byte-level BPE
@st.composite
def byte_level_models(draw: st.DrawFn) -> tuple[dict, list]:
    tokens = list(BYTE_TO_CHAR)
    merges: list[tuple[str, str]] = []
    pool = list("abcd")
    for _ in range(draw(st.integers(0, 12))):
        left, right = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        if (left, right) in merges or left + right in tokens:
            continue
        merges.append((left, right))
        tokens.append(left + right)
        pool.append(left + right)
    merged_ids = draw(st.permutations(range(256, len(tokens))))
    vocab = {t: i for i, t in enumerate(BYTE_TO_CHAR)} | dict(zip(tokens[256:], merged_ids))
    return vocab, merges


@given(byte_level_models(), st.booleans(), st.lists(st.text("abcde", max_size=30), min_size=1, max_size=5))
def test_byte_level_bpe_equals_the_reference(model: tuple[dict, list], ignore: bool, words: list[str]) -> None:
    vocab, merges = model
    merges_model = ByteLevelBPE(vocab, merges, ignore_merges=ignore)
    ranks_model = ByteLevelBPE.from_ranks({from_byte_level(t): i for t, i in vocab.items()})
    for word in words:
        assert list(merges_model._encode_piece(word)) == reference_byte_level_bpe(word, vocab, merges, ignore_merges=ignore)
        assert list(ranks_model._encode_piece(word)) == reference_byte_level_bpe(word, vocab, None)


# ------------------------------------------------------------------------------------ WordPiece
@given(
    st.lists(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=12, unique=True),
    st.sampled_from(["##", "@@", ""]),
    st.integers(1, 8),
    st.lists(st.text("abcd", max_size=10), min_size=1, max_size=6),
    st.data(),
)
def test_wordpiece_equals_the_reference(pieces: list[str], prefix: str, max_chars: int, words: list[str], data: st.DataObject) -> None:
    tokens = list(dict.fromkeys(["[UNK]", *(p if i % 2 else prefix + p for i, p in enumerate(pieces))]))
    ids = data.draw(st.permutations(range(len(tokens))))
    vocab = dict(zip(tokens, ids))
    specials = data.draw(st.lists(st.sampled_from(tokens), unique=True, max_size=2))
    options = {"continuing_subword_prefix": prefix, "max_input_chars_per_word": max_chars, "special_tokens": specials}
    model = WordPiece(vocab, **options)
    for word in words:
        expected = reference_wordpiece(word, vocab, **options)
        assert list(model._encode_piece(word)) == expected
        assert [t for t, _, _ in model.tokenize(word)] == expected
