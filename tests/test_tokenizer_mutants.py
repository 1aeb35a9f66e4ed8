"""Known answers for the pipeline's own code in ``toolkit/tokenizer.py`` that the mutation run showed unpinned.

Each test pins one behaviour a surviving mutant changed (see docs/testing.md, "tokenizer"): the exact
texts of errors and the argument they name, which arguments reach the next stage, the batch paths and
the files. Expected values are written out by hand, never computed by the code under test.
"""

from __future__ import annotations

import json

import pytest

import toolkit.tokenizer as tokenizer_module
from algorithms import BPE
from pretokenizers import Whitespace
from toolkit import Tokenizer, decoders
from toolkit.errors import ConfigError, CorpusError, InputError, SerializationError
from toolkit.normalizers import Lowercase

VOCAB = {"a": 0, "b": 1, "ab": 2, "<s>": 3, " ": 4, "<": 5, "s": 6, ">": 7}


def _tok(**parts: object) -> Tokenizer:
    return Tokenizer(BPE(vocab=dict(VOCAB), merges=[("a", "b")], special_tokens=["<s>"]), **parts)  # type: ignore[arg-type]


def _raises(kind: type[Exception], message: str, fn: object, *args: object, **kwargs: object) -> None:
    with pytest.raises(kind) as info:
        fn(*args, **kwargs)  # type: ignore[operator]
    assert str(info.value) == message


# ---------------------------------------------------------------- construction


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ({"normalizer": "x"}, "normalizer must be a Normalizer, got str"),
        ({"pre_tokenizer": 1}, "pre_tokenizer must be a PreTokenizer, got int"),
        ({"post_processor": []}, "post_processor must be a PostProcessor, got list"),
        ({"decoder": {}}, "decoder must be a Decoder, got dict"),
        ({"metadata": [1]}, "metadata must be a mapping (dict), got list"),
    ],
)
def test_constructor_names_the_wrong_component(parts: dict[str, object], message: str) -> None:
    _raises(ConfigError, message, _tok, **parts)


def test_constructor_model_checks() -> None:
    _raises(ConfigError, "model must be a Model, got str", Tokenizer, "bpe")
    _raises(ConfigError, "model is required, e.g. Tokenizer(BPE())", Tokenizer, None)


def test_metadata_is_copied_and_defaults_to_empty() -> None:
    meta = {"trained_on": "x"}
    tok = _tok(metadata=meta)
    assert tok.metadata == {"trained_on": "x"}
    meta["later"] = 1
    assert tok.metadata == {"trained_on": "x"}
    assert _tok().metadata == {}
    assert _tok(metadata=None).metadata == {}


def test_repr_lists_the_components_that_are_set() -> None:
    model = BPE(vocab={"a": 0}, merges=[])
    assert repr(Tokenizer(model)) == f"Tokenizer(model={model!r})"
    tok = Tokenizer(model, normalizer=Lowercase(), decoder=decoders.BPEDecoder())
    assert repr(tok) == f"Tokenizer(model={model!r}, normalizer=Lowercase(), decoder={tok.decoder!r})"


# ---------------------------------------------------------------- helpers and encode


def test_normalize_str_without_and_with_a_normalizer() -> None:
    assert _tok().normalize_str("AbC") == "AbC"
    assert _tok(normalizer=Lowercase()).normalize_str("AbC") == "abc"
    _raises(InputError, "text must be a str, got int", _tok().normalize_str, 5)


def test_pre_tokenize_str_spans_are_in_the_original_text() -> None:
    tok = _tok(normalizer=Lowercase(), pre_tokenizer=Whitespace())
    assert tok.pre_tokenize_str("AB  a") == [("ab", (0, 2)), ("a", (4, 5))]
    assert tok.pre_tokenize_str("") == []


def test_encode_pair_and_pretokenized_words() -> None:
    tok = _tok(pre_tokenizer=Whitespace())
    enc = tok.encode("ab a", "b")
    assert enc.ids == [2, 0, 1]
    assert enc.type_ids == [0, 0, 1]
    assert enc.offsets == [(0, 2), (3, 4), (0, 1)]
    words = tok.encode(["ab", "a"], ["b"], is_pretokenized=True)
    assert words.ids == [2, 0, 1]
    assert words.word_ids == [0, 1, 0]
    assert words.type_ids == [0, 0, 1]


def test_encode_special_tokens_only_when_allowed() -> None:
    tok = _tok()
    assert tok.encode("a<s>").ids == [0, 5, 6, 7]
    assert tok.encode("a<s>", allowed_special="all").ids == [0, 3]
    assert tok.encode("a<s>", allowed_special=["<s>"]).ids == [0, 3]
    assert tok.encode("a<s>", allowed_special=None).ids == [0, 5, 6, 7]
    assert tok.encode("a", "<s>b", allowed_special="all").ids == [0, 3, 1]
    with pytest.raises(InputError, match="special token '<s>' at index 1, which disallowed_special forbids"):
        tok.encode("a<s>", disallowed_special="all")
    with pytest.raises(InputError, match="special token '<s>' at index 0, which disallowed_special forbids"):
        tok.encode("a", "<s>", disallowed_special=["<s>"])
    assert tok.encode("a<s>", allowed_special="all", disallowed_special="all").ids == [0, 3]
    _raises(InputError, "add_special_tokens must be True or False, got int 1", tok.encode, "a", add_special_tokens=1)
    _raises(InputError, "is_pretokenized must be True or False, got NoneType None", tok.encode, "a", is_pretokenized=None)


def test_special_tokens_are_marked_and_get_a_word_each() -> None:
    tok = _tok()
    tok.add_tokens(["ba"])  # an added token that is not special
    enc = tok.encode("a<s>ba", allowed_special="all")
    assert enc.tokens == ["a", "<s>", "ba"]
    assert enc.special_tokens_mask == [0, 1, 0]
    assert enc.word_ids == [0, 1, 2]
    assert enc.offsets == [(0, 1), (1, 4), (4, 6)]
    assert enc.attention_mask == [1, 1, 1]


def test_pretokenized_input_must_be_a_list_of_words() -> None:
    tok = _tok()
    _raises(InputError, "text: with is_pretokenized=True, give a list of words (str), got str", tok.encode, "ab",
            is_pretokenized=True)
    _raises(InputError, "pair: with is_pretokenized=True, give a list of words (str), got bytes", tok.encode, ["a"],
            b"b", is_pretokenized=True)
    _raises(InputError, "text[1] must be a str, got int", tok.encode, ["a", 3], is_pretokenized=True)


# ---------------------------------------------------------------- encode_ids


def test_encode_ids_cuts_allowed_special_tokens_and_normalizes_the_rest() -> None:
    tok = _tok(normalizer=Lowercase())
    assert tok.encode_ids("A<s>AB") == [0, 5, 6, 7, 2]
    assert tok.encode_ids("A<s>AB", allowed_special="all") == [0, 3, 2]
    assert tok.encode_ids("A<S>AB", allowed_special="all") == [0, 5, 6, 7, 2]  # cut before normalizing
    with pytest.raises(InputError, match="disallowed_special forbids"):
        tok.encode_ids("A<s>", disallowed_special="all")
    _raises(InputError, "add_special_tokens must be True or False, got str 'no'", tok.encode_ids, "a",
            add_special_tokens="no")
    assert tok.encode_ordinary("a<s>") == [0, 5, 6, 7]


def test_encode_ids_goes_through_encode_when_padding_is_on() -> None:
    tok = _tok()
    tok.enable_padding(length=4, pad_id=4, pad_token=" ")
    assert tok.encode_ids("ab<s>", allowed_special="all") == [2, 3, 4, 4]
    with pytest.raises(InputError, match="disallowed_special forbids"):
        tok.encode_ids("<s>", disallowed_special="all")


# ---------------------------------------------------------------- encode_batch


@pytest.mark.parametrize("workers", [0, -1, True, 1.5, "2"])
def test_encode_batch_refuses_a_bad_number_of_workers(workers: object) -> None:
    _raises(ConfigError, f"num_workers must be a positive integer or None, got {workers!r}", _tok().encode_batch, ["a"],
            num_workers=workers)


def test_encode_batch_refuses_what_is_not_a_list_of_texts() -> None:
    tok = _tok()
    one = "encode_batch expects a list of texts (or (text, pair) tuples), got one string; use encode"
    _raises(InputError, one, tok.encode_batch, "ab")
    _raises(InputError, one, tok.encode_batch, b"ab")
    _raises(InputError, "encode_batch expects a list of texts (or (text, pair) tuples), got int", tok.encode_batch, 5)
    _raises(InputError, "add_special_tokens must be True or False, got int 0", tok.encode_batch, ["a"],
            add_special_tokens=0)
    _raises(InputError, "is_pretokenized must be True or False, got str 'y'", tok.encode_batch, ["a"],
            is_pretokenized="y")


def test_encode_batch_items_pairs_and_words() -> None:
    tok = _tok(pre_tokenizer=Whitespace())
    out = tok.encode_batch(["ab a", ("a", "b"), ["b", "ab"]])
    assert [e.ids for e in out] == [[2, 0], [0, 1], [1, 2]]
    assert [e.type_ids for e in out] == [[0, 0], [0, 1], [0, 1]]
    words = tok.encode_batch([["ab", "a"], (["a"], ["b", "b"])], is_pretokenized=True)
    assert [e.ids for e in words] == [[2, 0], [0, 1, 1]]
    assert [e.word_ids for e in words] == [[0, 1], [0, 0, 1]]
    assert tok.encode_batch(iter(["a", "b"]))[1].ids == [1]
    assert tok.encode_batch([]) == []


def test_encode_batch_special_tokens() -> None:
    tok = _tok()
    assert [e.ids for e in tok.encode_batch(["a<s>"])] == [[0, 5, 6, 7]]
    assert [e.ids for e in tok.encode_batch(["a<s>"], allowed_special="all")] == [[0, 3]]
    assert [e.ids for e in tok.encode_batch(["a<s>"], allowed_special=iter(["<s>"]))] == [[0, 3]]
    assert [e.ids for e in tok.encode_batch(["a<s>", "<s>"], allowed_special="all", disallowed_special="all")] == [
        [0, 3], [3]]
    with pytest.raises(ConfigError, match="allowed_special names tokens that are not special tokens"):
        tok.encode_batch(["a"], allowed_special=["<t>"])


@pytest.mark.parametrize("item", ["b<s>", ("a", "b<s>"), ["a", "b<s>"], ("a<s>", "b"), ["<s>", "b"]])
def test_encode_batch_checks_disallowed_special_tokens_in_texts_and_pairs(item: object) -> None:
    tok = _tok()
    with pytest.raises(InputError, match="which disallowed_special forbids"):
        tok.encode_batch(["a", item], disallowed_special="all")
    with pytest.raises(InputError, match="which disallowed_special forbids"):
        tok.encode_batch([item], disallowed_special=["<s>"])
    assert len(tok.encode_batch([item], disallowed_special=None)) == 1
    assert len(tok.encode_batch([item], disallowed_special="all", allowed_special=["<s>"])) == 1


def test_encode_batch_encodes_in_this_process_unless_several_workers_and_items(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int, bool, object]] = []

    def fake(tokenizer: Tokenizer, items: list[object], workers: int, add: bool, allowed: object) -> list[object]:
        calls.append((len(items), workers, add, allowed))
        return [tokenizer.encode(i) for i in items]  # type: ignore[arg-type]

    monkeypatch.setattr(tokenizer_module, "encode_in_processes", fake)
    tok = _tok()
    assert [e.ids for e in tok.encode_batch(["ab", "b"], num_workers=1)] == [[2], [1]]
    assert [e.ids for e in tok.encode_batch(["ab"], num_workers=2)] == [[2]]
    assert [e.ids for e in tok.encode_batch(["ab", "b"])] == [[2], [1]]
    assert calls == []
    tok.encode_batch(["ab", "b"], num_workers=2, add_special_tokens=False, allowed_special=["<s>"])
    tok.encode_batch(["ab", "b", "a"], num_workers=3, allowed_special="all")
    assert calls == [(2, 2, False, ("<s>",)), (3, 3, True, "all")]


def test_encode_batch_pads_to_the_longest_when_padding_is_on() -> None:
    tok = _tok(pre_tokenizer=Whitespace())
    tok.enable_padding(pad_id=4, pad_token=" ")
    out = tok.encode_batch(["ab a b", "a"])
    assert [e.ids for e in out] == [[2, 0, 1], [0, 4, 4]]
    assert [e.attention_mask for e in out] == [[1, 1, 1], [1, 0, 0]]


# ---------------------------------------------------------------- decoding


def test_decode_skips_special_tokens_by_default_and_joins_with_spaces() -> None:
    tok = _tok()
    assert tok.decode([3, 2, 0]) == "ab a"
    assert tok.decode([3, 2, 0], skip_special_tokens=False) == "<s> ab a"
    assert tok.decode([]) == ""
    _raises(InputError, "skip_special_tokens must be True or False, got int 1", tok.decode, [0], skip_special_tokens=1)


def test_decode_with_a_decoder_and_added_tokens() -> None:
    tok = _tok(decoder=decoders.Fuse())
    assert tok.decode([3, 2, 0]) == "aba"
    assert tok.decode([3, 2, 0], skip_special_tokens=False) == "<s>aba"
    tok.add_tokens(["zz"])
    assert tok.decode([0, 8, 1]) == "azzb"
    tok.add_special_tokens(["<t>"])
    assert tok.decode([0, 9, 1]) == "ab"
    assert tok.decode([0, 9, 1], skip_special_tokens=False) == "a<t>b"


def test_decode_bytes_of_byte_level_tokens_and_of_text() -> None:
    # 'é' is C3 A9 in UTF-8; its byte-level characters are 'Ã' (C3) and '©' (A9).
    vocab = {"Ã": 0, "©": 1, "a": 2, "<s>": 3}
    tok = Tokenizer(BPE(vocab=vocab, merges=[], special_tokens=["<s>"]), decoder=decoders.ByteLevel())
    assert tok.decode_bytes([2, 0]) == b"a\xc3"
    assert tok.decode_bytes([0, 1]) == "é".encode()
    assert tok.decode_bytes([3, 2]) == b"<s>a"  # special tokens included, as their own text
    plain = _tok()
    assert plain.decode_bytes([3, 2, 0]) == b"<s> ab a"
    fused = _tok(decoder=decoders.Fuse())
    assert fused.decode_bytes([2, 0]) == b"aba"


def test_decode_batch() -> None:
    tok = _tok()
    assert tok.decode_batch([[3, 2], [0]]) == ["ab", "a"]
    assert tok.decode_batch([[3, 2]], skip_special_tokens=False) == ["<s> ab"]
    assert tok.decode_batch(iter([[1]])) == ["b"]
    for bad, shown in ((None, "NoneType None"), ("ab", "str 'ab'"), (b"", "bytes b''"), (5, "int 5")):
        _raises(InputError, f"decode_batch expects a list of id sequences, got {shown}", tok.decode_batch, bad)


def test_stream_decoder_passes_its_options_on() -> None:
    tok = _tok()
    sd = tok.stream_decoder()
    assert (sd.feed(3), sd.feed(2), sd.feed(0)) == ("", "ab", " a")
    sd = tok.stream_decoder(skip_special_tokens=False)
    assert (sd.feed(3), sd.feed(2)) == ("<s>", " ab")
    sd = tok.stream_decoder(ids=[2])
    assert sd.feed(0) == " a"


# ---------------------------------------------------------------- training


def test_train_checks_its_arguments() -> None:
    from algorithms import BPETrainer

    tok = Tokenizer(BPE())
    _raises(ConfigError, "trainer must be a Trainer, got str", tok.train, ["ab"], "bpe")
    _raises(CorpusError, "corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got int 5",
            tok.train, 5, BPETrainer())
    _raises(CorpusError, "corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got bytes "
            "b'ab'; decode bytes to str first", tok.train, b"ab", BPETrainer())
    _raises(CorpusError, "corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got "
            "bytearray bytearray(b'ab')", tok.train, bytearray(b"ab"), BPETrainer())


def test_train_uses_the_pipeline_and_returns_itself() -> None:
    from algorithms import BPETrainer

    tok = Tokenizer(BPE(), normalizer=Lowercase(), pre_tokenizer=Whitespace())
    assert tok.train(["AB ab", "ab"], BPETrainer(vocab_size=3, show_progress=False)) is tok
    assert tok.get_vocab() == {"a": 0, "b": 1, "ab": 2}
    assert tok.encode_ids("AB") == [2]

