"""The fast paths of ``encode`` and ``decode`` on today's LLM files against the slow paths beside them.

- ``BPE.cut_words`` (one ``re.split``) against the cuts ``BPE.tokenize`` makes (``_word_cuts``);
- ``piece_tokens``' columns (one ``zip``) against its general path, which maps each span;
- ``encode`` of a long piece the model merges word by word (Gemma 3's whole line), each word's tokens
  from the pipeline cache (``toolkit.fast_paths._encode_words``), against the reference encoder of
  ``test_fast_paths`` and against the same pipeline with a model that merges every piece whole;
- ``Split`` / ``Sequence.split_slices`` for ``removed`` + ``invert`` (GPT-4o) and several tiling
  ``Split``s (DeepSeek-V3) against ``pre_tokenize``;
- the decoder chain ``Replace``, ``ByteFallback``, ``Fuse`` (Gemma 3; with ``Strip``, Llama 2) in one pass
  against each decoder's ``decode_chain`` in turn, and the listed byte tokens against ``byte_piece_value``.
"""

from __future__ import annotations

from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bpe_word_split import random_bpe, unsplit
from test_fast_paths import TEXT, _check, _small_byte_level

from algorithms import BPE
from pretokenizers import ByteLevel, Split
from pretokenizers import Sequence as PreSequence
from pretokenizers.patterns import O200K_PATTERN
from toolkit import Tokenizer
from toolkit import decoders as D
from toolkit import normalizers as N
from toolkit.alignment import Piece
from toolkit.bytelevel import byte_piece_value, to_byte_level
from toolkit.decoders import _BYTE_PIECES
from toolkit.fast_paths import piece_tokens
from toolkit.normalizers import Regex

# --------------------------------------------------------------------------- BPE.cut_words

OPTIONS = [{}, {"byte_fallback": True, "fuse_unk": True}]
WORD_TEXT = st.text(alphabet=st.sampled_from(["▁", "a", "b", "c", "z", "é", " "]), max_size=60)


@settings(max_examples=200)
@given(seed=st.integers(0, 10_000), text=WORD_TEXT)
def test_cut_words_are_the_cuts_of_tokenize(seed: int, text: str) -> None:
    model = random_bpe(seed)
    cuts = model._word_cuts(text) if model._word_start is not None else []
    bounds = [0, *cuts, len(text)]
    expected = [text[a:b] for a, b in zip(bounds, bounds[1:])] if cuts else [text]
    assert model.cut_words(text) == expected


def test_cut_words_without_word_marker_or_with_options_that_merge_whole() -> None:
    assert BPE({"a": 0, "b": 1}, []).cut_words("ab" * 20) == ["ab" * 20]
    vocab = {"▁": 0, "a": 1, "▁a": 2}
    assert BPE(vocab, [("▁", "a")], ignore_merges=True).cut_words("▁a" * 20) == ["▁a" * 20]
    assert BPE(vocab, [("▁", "a")], dropout=0.5).cut_words("▁a" * 20) == ["▁a" * 20]
    assert BPE(vocab, [("▁", "a")]).cut_words("▁a" * 8) == ["▁a" * 8]  # 16 characters: merged whole
    assert BPE(vocab, [("▁", "a")]).cut_words("▁a" * 9) == ["▁a"] * 9


# --------------------------------------------------------------------------- encode, word by word

SPECIALS = ["<bos>", "<start_of_turn>", "<unused1>"]
#: Lines of words, long enough to be cut (> 16 characters), with special tokens typed in between.
WORDS = ["ab", "abc", "ca", "b", "▁a", "zé", "ﬁa", "  ", " ", "\n"]
LINE = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SPECIALS), TEXT), max_size=14).map(" ".join)


def _gemma_like(seed: int, normalizer: N.Normalizer, **options: bool) -> Tokenizer:
    """A Gemma 3 shaped pipeline (Replace(" ", "▁"), Split(" ", merged_with_previous)) on a random BPE."""
    model = random_bpe(seed, **options)
    vocab = model.get_vocab()
    for token in SPECIALS:
        vocab[token] = len(vocab)
    model = BPE(vocab, model.merges, unk_token="<unk>", special_tokens=SPECIALS, **options)
    return Tokenizer(model, normalizer=normalizer, pre_tokenizer=Split(" ", "merged_with_previous"))


NORMALIZERS = {
    "gemma": lambda: N.Replace(" ", "▁"),  # unaligned: a line's entry is its tokens' offsets
    "aligned": lambda: N.Sequence([N.Replace("ﬁ", "fi"), N.Replace(" ", "▁")]),  # per-character alignments
    "prepend": lambda: N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")]),  # Llama 2's normalizer
}


@pytest.mark.parametrize("normalizer", list(NORMALIZERS))
@settings(max_examples=150)
@given(seed=st.integers(0, 10_000), text=LINE, options=st.sampled_from(OPTIONS))
def test_encode_word_by_word_equals_the_reference_encoder(normalizer: str, seed: int, text: str, options: dict) -> None:
    tok = _gemma_like(seed, NORMALIZERS[normalizer](), **options)
    _check(tok, text)  # twice each: the second time through the caches (words, then lines)
    whole = Tokenizer(unsplit(tok.model), normalizer=tok.normalizer, pre_tokenizer=tok.pre_tokenizer)
    for allowed in ((), "all"):
        for _ in range(2):
            got, expected = tok.encode(text, allowed_special=allowed), whole.encode(text, allowed_special=allowed)
            assert (got.ids, got.tokens, got.offsets, got.word_ids) == (expected.ids, expected.tokens, expected.offsets,
                                                                        expected.word_ids)


def test_encode_word_by_word_keeps_a_line_entry_only_where_offsets_are_spans() -> None:
    merges = [("a", "b"), ("ab", "c"), ("▁", "ab"), ("▁", "abc"), ("c", "a"), ("▁", "ca")]
    vocab = {t: i for i, t in enumerate(["<unk>", "<bos>", "▁", "a", "b", "c", "!", *(a + b for a, b in merges)])}
    tok = Tokenizer(BPE(vocab, merges, unk_token="<unk>", special_tokens=["<bos>"]), normalizer=N.Replace(" ", "▁"),
                    pre_tokenizer=Split(" ", "merged_with_previous"))
    line = "ab abc ca b ab abc ca"
    first = tok.encode(line)
    cache = tok._current_caches().tokens_for(None)
    assert "▁abc" in cache and line.replace(" ", "▁") in cache  # the words, and the line at offset 0
    assert tok.encode(line) == first
    tok.encode("<bos>" + line + "!", allowed_special="all")  # after a special token: words only
    assert line.replace(" ", "▁") + "!" not in cache


def _piece_tokens_general(model, raw: str, spell) -> tuple:
    """``piece_tokens`` by its general path only (each span mapped through the respelling)."""
    text = raw if spell is None else spell(raw)
    found = model.tokenize(text)
    source = [i for i, c in enumerate(raw) for _ in range(len(c if spell is None else spell(c)))]
    spans = tuple(
        (source[s], source[e - 1] + 1) if e > s else (source[s], source[s]) if s < len(source) else (len(raw), len(raw))
        for _, s, e in found
    )
    if len(found) == 1:
        return found[0][0], model.id_to_token(found[0][0]), *spans[0]
    return tuple(t[0] for t in found), tuple(model.id_to_token(t[0]) for t in found), spans


@settings(max_examples=200)
@given(seed=st.integers(0, 10_000), text=WORD_TEXT, options=st.sampled_from(OPTIONS))
def test_piece_tokens_columns_equal_the_general_path(seed: int, text: str, options: dict) -> None:
    model = random_bpe(seed, **options)
    assert piece_tokens(model, text, None) == _piece_tokens_general(model, text, None)
    byte_level = _small_byte_level()
    assert piece_tokens(byte_level, text, to_byte_level) == _piece_tokens_general(byte_level, text, to_byte_level)


# --------------------------------------------------------------------------- split_slices

_SPLITS = [
    Split(Regex(O200K_PATTERN), "removed", invert=True),  # GPT-4o: the matches tile any text
    Split(Regex(r"[a-c]+|\s+"), "removed", invert=True),  # matches with gaps between them: the spans path
    Split(Regex(r"\d+"), "isolated"),
]
BYTES = ByteLevel(add_prefix_space=False, use_regex=False)
_SEQUENCES = [
    PreSequence([Split(Regex(O200K_PATTERN), "removed", invert=True), BYTES]),
    PreSequence([Split(Regex(r"[a-c]+|\s+"), "removed", invert=True), Split(Regex(r"\d"), "isolated")]),
    PreSequence([Split(Regex(r"\p{N}{1,3}"), "isolated"), Split(Regex(r"[a-c]+"), "removed", invert=True),
                 Split(Regex(r"\s+"), "isolated"), BYTES]),
    PreSequence([Split(Regex(r"\d"), "isolated"), Split(Regex(r"\s+"), "merged_with_previous")]),  # one does not tile
]


@pytest.mark.parametrize("pre", _SPLITS + _SEQUENCES, ids=range(len(_SPLITS) + len(_SEQUENCES)))
@given(text=TEXT)
def test_split_slices_are_the_pre_tokenized_pieces(pre, text: str) -> None:
    pieces, starts, spell = pre.split_slices(text)
    expected = [(p.text, p.start) for p in pre.pre_tokenize([Piece(text, 0, len(text))])]
    respell = spell or (lambda piece: piece)
    assert [(respell(p), s) for p, s in zip(pieces, starts)] == expected
    assert all(text[s : s + len(p)] == p for p, s in zip(pieces, starts))


def test_split_slices_follow_a_changed_behavior() -> None:
    split = Split(Regex(r"\s+"), "isolated")
    assert split.split_slices("a b") == (["a", " ", "b"], [0, 1, 2], None)
    split.behavior = "removed"
    assert split.split_slices("a b") == (["a", "b"], [0, 2], None)
    split.invert = True
    assert split.split_slices("a b") == ([" "], [1], None)


# --------------------------------------------------------------------------- decoders

BYTE_TOKENS = ["<0x41>", "<0x0A>", "<0x20>", "<0x7F>", "<0xE2>", "<0x82>", "<0xAC>", "<0xff>", "<0x80>", "<0xC3>",
               "<0xA9>", "<0x+F>"]
TOKEN = st.one_of(
    st.sampled_from(BYTE_TOKENS),
    st.sampled_from(["▁", "▁ab", "a▁", "▁▁", "<0x41>A", "<0x", "<0xZZ>", "<0x41", "x<0x41>", "<0_41>", "<0▁41>", "",
                     " ", "中", "\ufffd", "_", "A"]),
    st.text(max_size=4),
)
REPLACES = [("▁", " "), ("▁", ""), ("_", "x"), ("a", "<"), ("x", "▁"), ("▁", "<"), ("é", "y"), (" ", "▁"), ("A", "é")]


def _slow(chain: D.Sequence, tokens: list[str]) -> str:
    return "".join(reduce(lambda acc, d: d.decode_chain(acc), chain.decoders, list(tokens)))


@pytest.mark.parametrize("strip", [False, True], ids=["gemma", "llama2"])
@pytest.mark.parametrize("pattern,content", REPLACES)
@given(tokens=st.lists(TOKEN, max_size=20))
def test_replace_byte_fallback_fuse_in_one_pass(strip: bool, pattern: str, content: str, tokens: list[str]) -> None:
    decoders = [D.Replace(pattern, content), D.ByteFallback(), D.Fuse()] + ([D.Strip(" ", 1, 0)] if strip else [])
    chain = D.Sequence(decoders)
    assert D._replace_fallback_fuse(*decoders[:3])
    assert chain.decode(tokens) == _slow(chain, tokens)
    assert D._replaced_bytes_fused(pattern, content, tokens) == _slow(D.Sequence(decoders[:3]), tokens)


def test_ascii_byte_tokens_are_mapped_and_any_other_byte_token_takes_the_runs() -> None:
    chain = D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(), D.Strip(" ", 1, 0)])
    for tokens in (["▁Hi", "<0x0A>", "▁there", "<0x20>", "<0x41>", "<0x0A>"],  # ASCII only: mapped
                   ["▁a", "<0xE2>", "<0x41>", "▁b", "<0x0A>", "<0xC3>", "<0xA9>"],  # an invalid run, a valid one
                   ["<0x3C>", "<0x30>", "x", "<0x41>", ">"]):  # ASCII bytes spelling "<0x": the runs path too
        assert chain.decode(tokens) == _slow(chain, tokens)
    assert chain.decode(["▁a", "<0xE2>", "<0x41>"]) == "a\ufffd\ufffd"


@pytest.mark.parametrize("first", [D.Replace(Regex("▁"), " "), D.Replace("▁▁", " "), D.Replace("▁", "  ")],
                         ids=["regex", "two-characters", "longer-content"])
@given(tokens=st.lists(TOKEN, max_size=12))
def test_other_replace_chains_take_the_slow_path(first: D.Replace, tokens: list[str]) -> None:
    chain = D.Sequence([first, D.ByteFallback(), D.Fuse()])
    assert not D._replace_fallback_fuse(*chain.decoders)
    assert chain.decode(tokens) == _slow(chain, tokens)


def test_the_byte_tokens_listed_are_those_byte_piece_value_reads() -> None:
    alphabet = "0123456789abcdefABCDEFgxX+- ٣\u2581"
    every = {f"<0x{a}{b}>" for a in alphabet for b in alphabet}
    assert {t for t in every if byte_piece_value(t) is not None} == set(_BYTE_PIECES)
    assert all(_BYTE_PIECES[t] == byte_piece_value(t) for t in _BYTE_PIECES)


@given(token=st.one_of(st.text(min_size=6, max_size=6), st.text(max_size=8)))
def test_any_token_is_a_byte_token_as_byte_piece_value_says(token: str) -> None:
    assert _BYTE_PIECES.get(token) == byte_piece_value(token)
