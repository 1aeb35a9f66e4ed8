"""The Tokenizer pipeline: stage order, offsets into the original text, special tokens, fast path,
pairs, streaming decode and input errors. Algorithm details are tested in their own files."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms import BPE, WordPiece
from pretokenizers import (
    BertPreTokenizer,
    ByteLevel,
    Digits,
    Metaspace,
    Punctuation,
    Split,
    Whitespace,
    WhitespaceSplit,
)
from pretokenizers import Sequence as PreSequence
from toolkit import ConfigError, InputError, Tokenizer
from toolkit import normalizers as N
from toolkit.processors import BertProcessing
from toolkit.normalizers import Regex

# Texts whose length changes under normalization: ligatures, decomposed/precomposed accents,
# dotted capital I (lowercases to two characters), CJK, control characters, emoji with modifiers.
TRICKY = [
    "Ｈｅｌｌｏ ﬁne ﬂow",
    "Café crème, Ǆemal ÅSTRÖM",
    "İstanbul İİ ﬃ",
    "e\u0301le\u0300ve na\u0308ive",
    "中文字符 and 日本語テキスト",
    "tab\there\x00nul\x07bell \ufffd",
    "👍🏽 family 👨‍👩‍👧 ok",
    "  leading and trailing  ",
    "ΣΊΣΥΦΟΣ ὈΔΥΣΣΕΎΣ",
    "x²³ ½ ①②",
]

NORMALIZERS = {
    "NFC": N.NFC(),
    "NFD": N.NFD(),
    "NFKC": N.NFKC(),
    "NFKD": N.NFKD(),
    "Lowercase": N.Lowercase(),
    "StripAccents": N.Sequence([N.NFD(), N.StripAccents()]),
    "Replace": N.Replace("ﬁ", "fi"),
    "BertNormalizer": N.BertNormalizer(lowercase=True),
    "BertNormalizer-cased": N.BertNormalizer(lowercase=False),
    "NFKC+Lowercase": N.Sequence([N.NFKC(), N.Lowercase()]),
}


def _char_model() -> BPE:
    """A BPE with no merges over every character we use: one token per character."""
    chars = sorted(set("".join(TRICKY)) | set("".join(s.lower() for s in TRICKY)))
    vocab = {"[UNK]": 0}
    for c in chars:
        vocab.setdefault(c, len(vocab))
    return BPE(vocab=vocab, merges=[], unk_token="[UNK]")


@pytest.mark.parametrize("name", list(NORMALIZERS))
@pytest.mark.parametrize("text", TRICKY)
def test_pieces_map_back_to_the_original_text_they_came_from(name: str, text: str) -> None:
    normalizer = NORMALIZERS[name]
    tok = Tokenizer(_char_model(), normalizer=normalizer, pre_tokenizer=WhitespaceSplit())
    pieces = tok.pre_tokenize_str(text)
    assert "".join(p for p, _ in pieces) == "".join(tok.normalize_str(text).split())
    last = 0
    for piece, (start, end) in pieces:
        assert 0 <= start <= end <= len(text) and start >= last
        last = end
        # The original substring normalizes to exactly this piece.
        assert "".join(normalizer.normalize_str(text[start:end]).split()) == piece


@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_token_offsets_cover_the_original_characters(name: str) -> None:
    tok = Tokenizer(_char_model(), normalizer=NORMALIZERS[name], pre_tokenizer=WhitespaceSplit())
    for text in TRICKY:
        enc = tok.encode(text)
        assert len(enc.offsets) == len(enc.ids)
        for (start, end) in enc.offsets:
            assert 0 <= start < end <= len(text)
            assert not text[start:end].isspace()
        starts = [s for s, _ in enc.offsets]
        assert starts == sorted(starts)


def test_nfkc_ligature_offsets_point_at_the_ligature() -> None:
    tok = Tokenizer(_char_model(), normalizer=N.NFKC(), pre_tokenizer=WhitespaceSplit())
    enc = tok.encode("a ﬁ b")
    assert enc.tokens == ["a", "f", "i", "b"]
    assert enc.offsets == [(0, 1), (2, 3), (2, 3), (4, 5)]


def test_lowercase_dotted_i_offsets() -> None:
    tok = Tokenizer(_char_model(), normalizer=N.Lowercase())
    enc = tok.encode("İx")
    assert "".join(enc.tokens) == "i\u0307x"
    assert enc.offsets == [(0, 1), (0, 1), (1, 2)]


def test_strip_accents_offsets_on_decomposed_and_precomposed_text() -> None:
    tok = Tokenizer(_char_model(), normalizer=N.Sequence([N.NFD(), N.StripAccents()]))
    for text in ("café", "cafe\u0301"):
        enc = tok.encode(text)
        assert enc.tokens == ["c", "a", "f", "e"]
        # As in HF: a removed mark's span belongs to no token; "é" (one char) stays whole.
        assert enc.offsets[-1] == (3, 4)


def test_bert_normalizer_offsets_with_chinese_padding_and_controls() -> None:
    tok = Tokenizer(_char_model(), normalizer=N.BertNormalizer(), pre_tokenizer=BertPreTokenizer())
    text = "A中\x00文B"
    pieces = tok.pre_tokenize_str(text)
    assert pieces == [("a", (0, 1)), ("中", (1, 2)), ("文", (3, 4)), ("b", (4, 5))]


PRE_TOKENIZERS = {
    "Whitespace": Whitespace(),
    "WhitespaceSplit": WhitespaceSplit(),
    "BertPreTokenizer": BertPreTokenizer(),
    "Punctuation": Punctuation(),
    "Digits": Digits(individual_digits=True),
    "Split": Split(Regex(r"\d+"), behavior="isolated"),
    "Metaspace": Metaspace(),
    "ByteLevel": ByteLevel(add_prefix_space=True),
    "Sequence": PreSequence([WhitespaceSplit(), Digits()]),
}


@pytest.mark.parametrize("name", list(PRE_TOKENIZERS))
@given(text=st.text(max_size=60))
def test_pre_tokenizer_spans_are_the_original_substrings(name: str, text: str) -> None:
    from toolkit.bytelevel import to_byte_level

    tok = Tokenizer(_char_model(), pre_tokenizer=PRE_TOKENIZERS[name])
    pieces = tok.pre_tokenize_str(text)
    last = 0
    for piece, (start, end) in pieces:
        assert 0 <= start <= end <= len(text) and start >= last
        last = end
        source = text[start:end]
        if name == "ByteLevel":
            assert piece in (to_byte_level(source), "Ġ" + to_byte_level(source))
        elif name == "Metaspace":
            assert piece.replace("▁", " ") in (source, " " + source)
        else:
            assert piece == source


# ----------------------------------------------------------------------------- special tokens


def _bpe_with_specials() -> Tokenizer:
    vocab = {"<|endoftext|>": 0, "[UNK]": 1}
    for c in "<|>abcdefghijklmnopqrstuvwxyz ":
        vocab.setdefault(c, len(vocab))
    vocab["ab"] = len(vocab)
    model = BPE(vocab=vocab, merges=[("a", "b")], unk_token="[UNK]", special_tokens=["<|endoftext|>"])
    return Tokenizer(model)


def test_special_tokens_are_ordinary_text_unless_allowed() -> None:
    tok = _bpe_with_specials()
    text = "ab<|endoftext|>ab"
    plain = tok.encode(text)
    assert 0 not in plain.ids
    assert "".join(plain.tokens) == text
    assert tok.encode_ids(text) == plain.ids
    allowed = tok.encode(text, allowed_special={"<|endoftext|>"})
    assert allowed.tokens == ["ab", "<|endoftext|>", "ab"]
    assert allowed.ids[1] == 0
    assert allowed.offsets == [(0, 2), (2, 15), (15, 17)]
    assert tok.encode_ids(text, allowed_special="all") == allowed.ids
    assert tok.encode_batch([text, text]) == [plain, plain]


def test_unknown_allowed_special_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="not special tokens"):
        _bpe_with_specials().encode("x", allowed_special={"<|nope|>"})
    with pytest.raises(ConfigError, match="collection"):
        _bpe_with_specials().encode("x", allowed_special="<|endoftext|>")


def test_skip_special_tokens_in_decode() -> None:
    tok = _bpe_with_specials()
    ids = tok.encode_ids("ab<|endoftext|>c", allowed_special="all")
    assert tok.decode(ids, skip_special_tokens=True) == "ab c"


# ----------------------------------------------------------------------------- pairs, post-processing


def test_pair_encoding_with_bert_processing() -> None:
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "hi": 4, "there": 5, "##s": 6}
    tok = Tokenizer(
        WordPiece(vocab=vocab, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]),
        pre_tokenizer=BertPreTokenizer(),
        post_processor=BertProcessing(sep=("[SEP]", 3), cls=("[CLS]", 2)),
    )
    enc = tok.encode("hi", "theres")
    assert enc.tokens == ["[CLS]", "hi", "[SEP]", "there", "##s", "[SEP]"]
    assert enc.type_ids == [0, 0, 0, 1, 1, 1]
    assert enc.special_tokens_mask == [1, 0, 1, 0, 0, 1]
    assert enc.offsets == [(0, 0), (0, 2), (0, 0), (0, 5), (5, 6), (0, 0)]
    assert tok.encode_ids("hi") == [2, 4, 3]
    assert tok.encode_ids("hi", add_special_tokens=False) == [4]
    assert tok.encode("hi", add_special_tokens=False).ids == [4]


# ----------------------------------------------------------------------------- input errors, decoding


def test_lone_surrogates_are_an_input_error() -> None:
    tok = _bpe_with_specials()
    for call in (tok.encode, tok.encode_ids, tok.normalize_str):
        with pytest.raises(InputError, match="surrogate U\\+D800 at index 2"):
            call("ab\ud800")


def test_non_string_input_is_an_input_error() -> None:
    with pytest.raises(InputError, match="must be a str"):
        _bpe_with_specials().encode(b"bytes")  # type: ignore[arg-type]


def test_decoding_unknown_ids_is_an_input_error() -> None:
    tok = _bpe_with_specials()
    with pytest.raises(InputError, match="cannot decode id 9999"):
        tok.decode([9999])
    with pytest.raises(InputError, match="cannot decode id -1"):
        tok.decode([-1])


def test_stream_decoder_matches_decode_for_wordpiece() -> None:
    from toolkit.decoders import WordPiece as WordPieceDecoder

    vocab = {"[UNK]": 0, "hug": 1, "##s": 2, "!": 3, "you": 4}
    tok = Tokenizer(WordPiece(vocab=vocab), pre_tokenizer=BertPreTokenizer(), decoder=WordPieceDecoder())
    ids = tok.encode_ids("hugs you!")
    sd = tok.stream_decoder()
    streamed = "".join(sd.feed(i) for i in ids) + sd.flush()
    assert streamed == tok.decode(ids) == "hugs you!"


def test_empty_text() -> None:
    tok = _bpe_with_specials()
    assert tok.encode("").ids == []
    assert tok.encode_ids("") == []
    assert tok.decode([]) == ""


def test_tokenizer_rejects_wrong_component_types() -> None:
    with pytest.raises(ConfigError, match="normalizer must be a Normalizer"):
        Tokenizer(_char_model(), normalizer=Whitespace())  # type: ignore[arg-type]


def test_pipeline_caches_follow_option_changes_and_model_swaps() -> None:
    """A component option changed after encoding takes effect in the next call (the pipeline's caches
    belong to an option generation), and the caches travel with the model they were filled by."""
    from algorithms import BPE
    from pretokenizers import Whitespace

    from toolkit import options

    tok = Tokenizer(BPE(vocab={"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, merges=[("a", "b")], unk_token="[UNK]"),
                    pre_tokenizer=Whitespace())
    assert tok.encode_ids("ab ab") == [3, 3] and tok.encode("ab").ids == [3]
    before = tok._caches
    options.bump_generation()
    assert tok.encode_ids("ab") == [3] and tok._caches is not before
    other = BPE(vocab={"[UNK]": 0, "a": 1, "b": 2}, merges=[], unk_token="[UNK]")
    tok.model = other
    assert tok._caches.model is other and tok.encode_ids("ab ab") == [1, 2, 1, 2]


# --------------------------------------------------------------------------- what the caches derive, renewed

def _cafe_pipeline(strip_accents: bool) -> Any:
    from algorithms import WordLevel
    from pretokenizers import WhitespaceSplit
    from toolkit import normalizers
    from toolkit.added_tokens import AddedToken
    tok = Tokenizer(WordLevel({"[UNK]": 0, "cafe": 1}, unk_token="[UNK]"),
                    normalizer=normalizers.BertNormalizer(lowercase=False, strip_accents=strip_accents),
                    pre_tokenizer=WhitespaceSplit())
    tok.add_tokens([AddedToken("Café")])
    return tok


@pytest.mark.parametrize("renew", [
    lambda tok: tok.clear_cache(),
    lambda tok: setattr(tok, "model", tok.model),
    lambda tok: setattr(tok, "pre_tokenizer", tok.pre_tokenizer),
], ids=["clear_cache", "model", "pre_tokenizer"])
def test_an_option_change_takes_effect_on_added_tokens_when_caches_are_renewed_first(renew: Any) -> None:
    """New caches took the current option generation, and the added-token matcher (built with the old
    normalizer options) was kept: the change never reached the added tokens."""
    tok = _cafe_pipeline(False)
    assert tok.encode("Café").tokens == ["Café"]  # warm, the matcher built for the accents kept
    tok.normalizer.strip_accents = True
    renew(tok)
    fresh = _cafe_pipeline(True)
    assert tok.encode("Café").tokens == fresh.encode("Café").tokens == ["Cafe"]
    assert tok.encode_ids("Café") == fresh.encode_ids("Café")


def test_copy_copy_of_a_tokenizer_is_independent() -> None:
    """As in Hugging Face: the copy's added tokens and options never change the original, warm or cold."""
    from algorithms import WordLevel
    from pretokenizers import Whitespace
    for warm in (False, True):
        tok = Tokenizer(WordLevel({"[UNK]": 0, "hello": 1, "world": 2}, unk_token="[UNK]"), pre_tokenizer=Whitespace())
        if warm:
            tok.encode("hello NEW world")
        other = copy.copy(tok)
        other.add_tokens(["NEW"])
        other.model.unk_token = "hello"
        assert other.encode("hello NEW world").tokens == ["hello", "NEW", "world"]
        assert tok.encode("hello NEW world").tokens == ["hello", "[UNK]", "world"]
        assert tok.token_to_id("NEW") is None and tok.get_vocab_size() == 3 and tok.model.unk_token == "[UNK]"


@given(ids=st.lists(st.integers(min_value=-2, max_value=12), max_size=30), skip=st.booleans())
def test_decode_of_a_list_through_the_token_table_equals_the_checked_loop(ids: list[int], skip: bool) -> None:
    """``decode`` of a list of ints reads a cached id -> string table at C speed; any other iterable takes
    the checked loop. Both give the same text, or the same error naming the same id."""
    from algorithms import WordLevel
    from toolkit.added_tokens import AddedToken
    tok = Tokenizer(WordLevel({"[UNK]": 0, "[CLS]": 1, "a": 2, "b": 3, "c": 5}, unk_token="[UNK]", special_tokens=["[CLS]"]),
                    normalizer=N.Lowercase())
    tok.add_tokens([AddedToken("XY"), "zz"])  # ids 6 and 7; "XY" is normalized: decodes as "xy"
    tok.add_special_tokens(["<s>", "a"])  # 8; "a" keeps the model's id 2 and is now special
    outcomes = []
    for given_ids in (list(ids), tuple(ids), iter(list(ids))):
        try:
            outcomes.append(tok.decode(given_ids, skip_special_tokens=skip))
        except InputError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1] == outcomes[2]


def test_copy_copy_is_independent_in_hf_tokenizers_too() -> None:
    """The behaviour ``test_copy_copy_of_a_tokenizer_is_independent`` asks of ours, checked on HF's."""
    from conftest import require
    hf = require("tokenizers")
    tok = hf.Tokenizer(hf.models.WordLevel({"[UNK]": 0, "hello": 1, "world": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = hf.pre_tokenizers.Whitespace()
    tok.encode("hello NEW world")
    other = copy.copy(tok)
    other.add_tokens(["NEW"])
    assert other.encode("hello NEW world").tokens == ["hello", "NEW", "world"]
    assert tok.encode("hello NEW world").tokens == ["hello", "[UNK]", "world"] and tok.get_vocab_size() == 3
