"""Known answers for the pipeline's own code in ``toolkit/tokenizer.py`` that the mutation run showed unpinned.

Each test pins one behaviour a surviving mutant changed (see docs/testing.md, "tokenizer"): the exact
texts of errors and the argument they name, which arguments reach the next stage, the batch paths and
the files. Expected values are written out by hand, never computed by the code under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import toolkit.limits as limits
import toolkit.tokenizer as tokenizer_module
from algorithms import BPE
from pretokenizers import Whitespace
from toolkit import Tokenizer, decoders, processors
from conftest import raises_exactly
from toolkit.errors import ConfigError, CorpusError, InputError, SerializationError
from toolkit.normalizers import Lowercase

FOLDER = "cannot write {}: it is a folder, not a regular file; save to a file path instead"
VOCAB = {"a": 0, "b": 1, "ab": 2, "<s>": 3, " ": 4, "<": 5, "s": 6, ">": 7}


def _tok(**parts: object) -> Tokenizer:
    return Tokenizer(BPE(vocab=dict(VOCAB), merges=[("a", "b")], special_tokens=["<s>"]), **parts)  # type: ignore[arg-type]


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
    raises_exactly(ConfigError, message, _tok, **parts)


def test_constructor_model_checks() -> None:
    raises_exactly(ConfigError, "model must be a Model, got str", Tokenizer, "bpe")
    raises_exactly(ConfigError, "model is required, e.g. Tokenizer(BPE())", Tokenizer, None)


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
    raises_exactly(InputError, "text must be a str, got int", _tok().normalize_str, 5)


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
    raises_exactly(InputError, "add_special_tokens must be True or False, got int 1", tok.encode, "a", add_special_tokens=1)
    raises_exactly(InputError, "is_pretokenized must be True or False, got NoneType None", tok.encode, "a", is_pretokenized=None)


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
    raises_exactly(InputError, "text: with is_pretokenized=True, give a list of words (str), got str", tok.encode, "ab",
            is_pretokenized=True)
    raises_exactly(InputError, "pair: with is_pretokenized=True, give a list of words (str), got bytes", tok.encode, ["a"],
            b"b", is_pretokenized=True)
    raises_exactly(InputError, "text[1] must be a str, got int", tok.encode, ["a", 3], is_pretokenized=True)


# ---------------------------------------------------------------- encode_ids


def test_encode_ids_cuts_allowed_special_tokens_and_normalizes_the_rest() -> None:
    tok = _tok(normalizer=Lowercase())
    assert tok.encode_ids("A<s>AB") == [0, 5, 6, 7, 2]
    assert tok.encode_ids("A<s>AB", allowed_special="all") == [0, 3, 2]
    assert tok.encode_ids("A<S>AB", allowed_special="all") == [0, 5, 6, 7, 2]  # cut before normalizing
    with pytest.raises(InputError, match="disallowed_special forbids"):
        tok.encode_ids("A<s>", disallowed_special="all")
    raises_exactly(InputError, "add_special_tokens must be True or False, got str 'no'", tok.encode_ids, "a",
            add_special_tokens="no")
    assert tok.encode_ordinary("a<s>") == [0, 5, 6, 7]


def test_encode_ids_checks_the_text_and_has_no_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # The checks are skipped only for an ASCII str: bytes (which have isascii too) and other types are
    # refused; a non-ASCII text is checked for lone surrogates but not for size (memory is linear).
    tok = _tok()
    for bad in (b"ab", 5):
        with pytest.raises(InputError, match="text must be a str"):
            tok.encode_ids(bad)  # type: ignore[arg-type]
    accented = Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2, "\u00e9": 3}, merges=[("a", "b")]))
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 4)
    assert accented.encode_ids("ab\u00e9ab") == [2, 3, 2]  # not ASCII, over the limit
    with pytest.raises(InputError, match="MAX_INPUT_CHARS"):
        accented.encode("ab\u00e9ab")  # full Encodings keep the limit


def test_encode_ids_of_a_long_text_cuts_allowed_special_tokens() -> None:
    # Texts of _PAUSE_GC_FROM characters and more take the branch that pauses the collector.
    tok = _tok()
    text = "ab" * (tokenizer_module._PAUSE_GC_FROM // 2) + "<s>a"
    ids = tok.encode_ids(text, allowed_special="all")
    assert len(text) >= tokenizer_module._PAUSE_GC_FROM and ids == [2] * (len(text) // 2 - 2) + [3, 0]
    assert tok.encode_ids(text) == [2] * (len(text) // 2 - 2) + [5, 6, 7, 0]


def test_from_dict_checks_the_nesting_of_a_dict_built_in_memory() -> None:
    deep: dict = {"a": 1}
    for _ in range(limits.MAX_NESTING_DEPTH + 1):
        deep = {"x": deep}
    raises_exactly(SerializationError, "<dict>: nested more than 64 levels deep (toolkit.limits.MAX_NESTING_DEPTH); a "
            "Sequence inside a Sequence inside ... is never needed: flatten it", Tokenizer.from_dict, deep)


def test_encode_ids_goes_through_encode_when_padding_is_on() -> None:
    tok = _tok()
    tok.enable_padding(length=4, pad_id=4, pad_token=" ")
    assert tok.encode_ids("ab<s>", allowed_special="all") == [2, 3, 4, 4]
    with pytest.raises(InputError, match="disallowed_special forbids"):
        tok.encode_ids("<s>", disallowed_special="all")


# ---------------------------------------------------------------- encode_batch


@pytest.mark.parametrize("workers", [0, -1, True, 1.5, "2"])
def test_encode_batch_refuses_a_bad_number_of_workers(workers: object) -> None:
    raises_exactly(ConfigError, f"num_workers must be a positive integer or None, got {workers!r}", _tok().encode_batch, ["a"],
            num_workers=workers)


def test_encode_batch_refuses_what_is_not_a_list_of_texts() -> None:
    tok = _tok()
    one = "encode_batch expects a list of texts (or (text, pair) tuples), got one string; use encode"
    raises_exactly(InputError, one, tok.encode_batch, "ab")
    raises_exactly(InputError, one, tok.encode_batch, b"ab")
    raises_exactly(InputError, "encode_batch expects a list of texts (or (text, pair) tuples), got int", tok.encode_batch, 5)
    raises_exactly(InputError, "add_special_tokens must be True or False, got int 0", tok.encode_batch, ["a"],
            add_special_tokens=0)
    raises_exactly(InputError, "is_pretokenized must be True or False, got str 'y'", tok.encode_batch, ["a"],
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
    raises_exactly(InputError, "skip_special_tokens must be True or False, got int 1", tok.decode, [0], skip_special_tokens=1)


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
        raises_exactly(InputError, f"decode_batch expects a list of id sequences, got {shown}", tok.decode_batch, bad)


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
    raises_exactly(ConfigError, "trainer must be a Trainer, got str", tok.train, ["ab"], "bpe")
    raises_exactly(CorpusError, "corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got int 5",
            tok.train, 5, BPETrainer())
    raises_exactly(CorpusError, "corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got bytes "
            "b'ab'; decode bytes to str first", tok.train, b"ab", BPETrainer())
    raises_exactly(CorpusError, "corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got "
            "bytearray bytearray(b'ab')", tok.train, bytearray(b"ab"), BPETrainer())


def test_train_uses_the_pipeline_and_returns_itself() -> None:
    from algorithms import BPETrainer

    tok = Tokenizer(BPE(), normalizer=Lowercase(), pre_tokenizer=Whitespace())
    assert tok.train(["AB ab", "ab"], BPETrainer(vocab_size=3, show_progress=False)) is tok
    assert tok.get_vocab() == {"a": 0, "b": 1, "ab": 2}
    assert tok.encode_ids("AB") == [2]


# ---------------------------------------------------------------- files


def test_to_dict_is_the_whole_document() -> None:
    tok = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[]), metadata={"m": 1})
    model = {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": [], "unk_token": None,
             "continuing_subword_prefix": None, "end_of_word_suffix": None, "special_tokens": [], "fuse_unk": False,
             "byte_fallback": False, "ignore_merges": False, "dropout": None, "seed": None}
    plain = {"format": "tokenizer-toolkit", "version": 2, "normalizer": None, "pre_tokenizer": None, "model": model,
             "post_processor": None, "decoder": None, "metadata": {"m": 1}}
    assert tok.to_dict() == plain
    assert list(tok.to_dict()) == ["format", "version", "normalizer", "pre_tokenizer", "model", "post_processor",
                                   "decoder", "metadata"]
    tok.normalizer, tok.pre_tokenizer, tok.decoder = Lowercase(), Whitespace(), decoders.Fuse()
    tok.post_processor = processors.TemplateProcessing(single="$A", special_tokens=[])
    tok.enable_truncation(3)
    tok.enable_padding(pad_id=1, pad_token="b")
    tok.add_tokens(["zz"])
    full = tok.to_dict()
    assert full["normalizer"] == {"type": "Lowercase"}
    assert full["pre_tokenizer"] == {"type": "Whitespace"}
    assert full["decoder"] == {"type": "Fuse"}
    assert full["post_processor"]["type"] == "TemplateProcessing"
    assert full["truncation"] == {"max_length": 3, "stride": 0, "strategy": "longest_first", "direction": "right"}
    assert full["padding"] == {"length": None, "pad_to_multiple_of": None, "pad_id": 1, "pad_token": "b",
                               "pad_type_id": 0, "direction": "right"}
    assert full["added_tokens"] == [{"id": 2, "content": "zz", "single_word": False, "lstrip": False, "rstrip": False,
                                     "normalized": True, "special": False}]
    again = Tokenizer.from_dict(full)
    assert again.to_dict() == full
    assert (again.truncation["max_length"], again.padding["pad_id"]) == (3, 1)
    assert again.encode("AB zz").ids == [0, 1, 2]


def test_to_json_and_from_json() -> None:
    tok = Tokenizer(BPE(vocab={"é": 0}, merges=[]), metadata={"note": "ü"})
    text = tok.to_json()
    assert text.startswith('{"format": "tokenizer-toolkit", "version": 2, ')
    assert '"é": 0' in text and '"note": "ü"' in text  # not ASCII-escaped
    assert tok.to_json(indent=1).startswith('{\n "format": "tokenizer-toolkit",\n "version": 2,')
    raises_exactly(ConfigError, "indent must be None or an integer 0..64, got -1", tok.to_json, indent=-1)
    again = Tokenizer.from_json(text)
    assert again.metadata == {"note": "ü"} and again.encode_ids("é") == [0]
    raises_exactly(SerializationError, "from_json expects a str, got bytes", Tokenizer.from_json, text.encode())
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_json('{"format": "tokenizer-toolkit", "version": 2, "model": 3}')
    assert str(info.value).startswith("<string>: ")


def test_from_dict_names_its_source_and_validates_unless_trusted() -> None:
    doc = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[])).to_dict()
    doc["model"]["vocab"] = {"a": 0, "b": 0}  # two tokens with one id
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_dict(doc)
    assert str(info.value).startswith("<dict>: ")
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_dict(doc, source="my.json")
    assert str(info.value).startswith("my.json: ")
    del doc["metadata"]
    doc["model"]["vocab"] = {"a": 0, "b": 1}
    assert Tokenizer.from_dict(doc, trusted=True).metadata == {}


def test_save_and_load(tmp_path: Path) -> None:
    tok = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[]))
    tok.save(tmp_path / "t.json", pretty=False)
    assert (tmp_path / "t.json").read_text(encoding="utf-8") == tok.to_json()
    tok.save(str(tmp_path / "i.json"), indent=3)
    assert (tmp_path / "i.json").read_text(encoding="utf-8") == tok.to_json(indent=3)
    assert Tokenizer.load(tmp_path / "i.json").to_dict() == tok.to_dict()
    assert Tokenizer.load(str(tmp_path / "t.json"), trusted=True).encode_ids("ab") == [0, 1]
    missing = tmp_path / "none.json"
    raises_exactly(SerializationError, f"{missing}: no such tokenizer file", Tokenizer.load, missing)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff"}')
    raises_exactly(SerializationError, f"{bad}: not UTF-8 text (invalid byte at offset 7)", Tokenizer.load, bad)
    raises_exactly(SerializationError, f"{tmp_path}: cannot read: Is a directory", Tokenizer.load, tmp_path)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 3", Tokenizer.load, 3)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "tokenizer-toolkit", "version": 2, "model": 3}', encoding="utf-8")
    with pytest.raises(SerializationError) as info:
        Tokenizer.load(broken)
    assert str(info.value).startswith(f"{broken}: ")
    with pytest.raises(SerializationError) as info:
        Tokenizer.load(tmp_path / "empty.json") if (tmp_path / "empty.json").write_text("{", encoding="utf-8") else None
    assert str(info.value).startswith(f"{tmp_path / 'empty.json'}: ")
    raises_exactly(SerializationError, FOLDER.format(tmp_path), tok.save, tmp_path)


# ---------------------------------------------------------------- other file formats (reached by name)


def _byte_level() -> Tokenizer:
    return Tokenizer.load(Path(__file__).parent / "fixtures" / "byte_level_gpt2.json")


def test_gpt2_files_round_trip_with_their_options(tmp_path: Path) -> None:
    tok = _byte_level()
    vocab, merges = tok.save_vocab_merges(tmp_path, prefix="p")
    assert (vocab, merges) == (tmp_path / "p-vocab.json", tmp_path / "p-merges.txt")
    assert tok.save_vocab_merges(str(tmp_path)) == (tmp_path / "vocab.json", tmp_path / "merges.txt")
    again = Tokenizer.from_gpt2(vocab, str(merges))
    assert again.encode("hello world").tokens == ["he", "l", "lo", "Ġw", "or", "ld"]
    spaced = Tokenizer.from_gpt2(vocab, merges, add_prefix_space=True)
    assert spaced.encode("hello").tokens == ["Ġ", "he", "l", "lo"]
    assert again.encode("<|endoftext|>", allowed_special="all").tokens == ["<|endoftext|>"]  # the default
    special = Tokenizer.from_gpt2(vocab, merges, special_tokens=["<|fim_prefix|>"])
    assert special.encode("<|fim_prefix|><|endoftext|>", allowed_special="all").tokens[0] == "<|fim_prefix|>"
    with pytest.raises(ConfigError, match=re.escape("not special tokens of this tokenizer: <|endoftext|>")):
        special.encode("hi", allowed_special=["<|endoftext|>"])
    raises_exactly(SerializationError, "encoder_json must be a file path (str or os.PathLike), got int 1", Tokenizer.from_gpt2,
            1, merges)
    raises_exactly(SerializationError, "vocab_bpe must be a file path (str or os.PathLike), got NoneType None",
            Tokenizer.from_gpt2, vocab, None)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 2", tok.save_vocab_merges, 2)


def test_tiktoken_files_round_trip_with_their_options(tmp_path: Path) -> None:
    tok = _byte_level()
    tok.save_tiktoken(tmp_path / "x.tiktoken")
    again = Tokenizer.from_tiktoken(str(tmp_path / "x.tiktoken"), pattern="gpt2", special_tokens={"<|end|>": 600})
    assert again.encode("hello world<|end|>", allowed_special="all").tokens == ["he", "l", "lo", "Ġw", "or", "ld",
                                                                               "<|end|>"]
    words = Tokenizer.from_tiktoken(tmp_path / "x.tiktoken", pattern=r"\S+|\s+")
    assert words.encode("a  b").tokens == ["a", "ĠĠ", "b"]  # the two spaces are one piece: not GPT-2's pattern
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", Tokenizer.from_tiktoken, 1)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", tok.save_tiktoken, 1)


def test_hf_json_round_trip_with_its_options(tmp_path: Path) -> None:
    tok = _byte_level()
    tok.to_hf_json(tmp_path / "tokenizer.json", indent=2)
    text = (tmp_path / "tokenizer.json").read_text(encoding="utf-8")
    assert text.startswith('{\n  "version": "1.0",')
    tok.to_hf_json(str(tmp_path / "flat.json"))
    assert "\n" not in (tmp_path / "flat.json").read_text(encoding="utf-8").strip()
    assert Tokenizer.from_hf_json(tmp_path / "tokenizer.json").encode_ids("hello") == tok.encode_ids("hello")
    assert Tokenizer.load_any(str(tmp_path / "tokenizer.json")).encode_ids("hello") == tok.encode_ids("hello")
    data = json.loads(text)
    data["normalizer"] = {"type": "Sequence", "normalizers": [{"type": "NoSuchNormalizer"}]}
    (tmp_path / "odd.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SerializationError, match="NoSuchNormalizer"):
        Tokenizer.from_hf_json(tmp_path / "odd.json")
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", Tokenizer.from_hf_json, 1)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", Tokenizer.load_any, 1)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", tok.to_hf_json, 1)
    raises_exactly(SerializationError, FOLDER.format(tmp_path), tok.to_hf_json, tmp_path)


def test_load_any_honours_format_and_options(tmp_path: Path) -> None:
    tok = _byte_level()
    tok.save(tmp_path / "ours.json")
    with pytest.raises(SerializationError):
        Tokenizer.load_any(tmp_path / "ours.json", format="tiktoken")
    assert Tokenizer.load_any(tmp_path / "ours.json", format="toolkit").encode_ids("hi") == tok.encode_ids("hi")
    tok.save_tiktoken(tmp_path / "x.tiktoken")
    words = Tokenizer.load_any(tmp_path / "x.tiktoken", pattern=r"\S+|\s+")
    assert words.encode("a  b").tokens == ["a", "ĠĠ", "b"]


def test_bert_vocab_round_trip_with_its_options(tmp_path: Path) -> None:
    from algorithms import WordPiece

    wp = Tokenizer(WordPiece({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "a": 3, "##b": 4, "<c>": 5}), pre_tokenizer=Whitespace())
    wp.save_bert_vocab(tmp_path / "vocab.txt")
    assert (tmp_path / "vocab.txt").read_text(encoding="utf-8") == "[UNK]\n[CLS]\n[SEP]\na\n##b\n<c>\n"
    assert Tokenizer.from_bert_vocab(tmp_path / "vocab.txt").encode("AB").tokens == ["[CLS]", "a", "##b", "[SEP]"]
    cased = Tokenizer.from_bert_vocab(str(tmp_path / "vocab.txt"), lowercase=False)
    assert cased.encode("AB ab").tokens == ["[CLS]", "[UNK]", "a", "##b", "[SEP]"]
    assert Tokenizer.from_bert_vocab(tmp_path / "vocab.txt", cls_token="<c>").encode("ab").tokens == [
        "<c>", "a", "##b", "[SEP]"]
    raises_exactly(SerializationError, "vocab_txt must be a file path (str or os.PathLike), got int 1",
            Tokenizer.from_bert_vocab, 1)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", wp.save_bert_vocab, 1)


def test_sentencepiece_round_trip(tmp_path: Path) -> None:
    from algorithms import Unigram
    from pretokenizers import Metaspace

    pieces = [("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("b", -2.0), ("▁ab", -1.5)]
    uni = Tokenizer(Unigram(pieces, unk_id=0), pre_tokenizer=Metaspace())
    uni.save_sentencepiece(tmp_path / "m.model")
    again = Tokenizer.from_sentencepiece(str(tmp_path / "m.model"))
    assert (again.encode("ab a").tokens, again.encode_ids("ab a")) == (["▁ab", "▁", "a"], [4, 1, 2])
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", Tokenizer.from_sentencepiece, 1)
    raises_exactly(SerializationError, "path must be a file path (str or os.PathLike), got int 1", uni.save_sentencepiece, 1)
    raises_exactly(SerializationError, FOLDER.format(tmp_path), uni.save_sentencepiece, tmp_path)


def test_visualize_passes_its_options_on() -> None:
    tok = Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2, "<s>": 3}, merges=[("a", "b")]),
                    post_processor=processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 3)]))
    assert tok.visualize("abba").to_text() == "<s>|ab|b|a"
    assert tok.visualize("abba", add_special_tokens=False).to_text() == "ab|b|a"
    assert tok.visualize("abba").show_ids is False
    assert tok.visualize(["ab", "ba"], show_ids=True).show_ids is True
    assert tok.visualize(["ab", "ba"]).texts == ["ab", "ba"]


def test_encode_batch_pretokenized_items_are_not_checked_as_text() -> None:
    tok = _tok()
    raises_exactly(InputError, "text: with is_pretokenized=True, give a list of words (str), got str", tok.encode_batch,
            ["a<s>"], is_pretokenized=True, disallowed_special="all")


def test_encode_batch_passes_add_special_tokens_on() -> None:
    tok = _tok(post_processor=processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 3)]))
    assert [e.ids for e in tok.encode_batch(["ab"])] == [[3, 2]]
    assert [e.ids for e in tok.encode_batch(["ab"], add_special_tokens=False)] == [[2]]


def test_load_names_the_file_over_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit import limits

    Tokenizer(BPE(vocab={"a": 0}, merges=[])).save(tmp_path / "t.json")
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 10)
    raises_exactly(SerializationError, f"{tmp_path / 't.json'}: more than 10 bytes, the limit (toolkit.limits.MAX_FILE_BYTES) "
            "for one file or input; split it or raise the limit", Tokenizer.load, tmp_path / "t.json")


def test_pre_tokenize_str_without_a_pre_tokenizer_is_one_piece() -> None:
    assert _tok().pre_tokenize_str("ab a") == [("ab a", (0, 4))]
    assert _tok(normalizer=Lowercase()).pre_tokenize_str("AB") == [("ab", (0, 2))]


def test_encode_ids_has_no_size_limit_unlike_encode(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit import limits

    tok = _tok()
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 3)
    assert tok.encode_ids("abab") == [2, 2]
    with pytest.raises(InputError, match="more than the limit of 3"):
        tok.encode("abab")


def test_encode_ids_with_padding_passes_add_special_tokens_on() -> None:
    tok = _tok(post_processor=processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 3)]))
    tok.enable_padding(length=3, pad_id=4, pad_token=" ")
    assert tok.encode_ids("ab") == [3, 2, 4]
    assert tok.encode_ids("ab", add_special_tokens=False) == [2, 4, 4]
    tok.no_padding()
    tok.enable_truncation(2)
    assert tok.encode_ids("abab<s>", allowed_special="all") == [3, 2]


def _split_document() -> dict[str, object]:
    """A document whose Split regex has no timeout: refused from an untrusted file, fine when trusted."""
    from pretokenizers import Split
    from toolkit import Regex

    tok = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[]),
                    pre_tokenizer=Split(Regex("a+"), behavior="isolated", timeout=None))
    return tok.to_dict()


def test_trusted_documents_skip_the_checks_for_files_from_elsewhere(tmp_path: Path) -> None:
    doc = _split_document()
    assert Tokenizer.from_dict(doc, trusted=True).encode("aab").tokens == ["a", "a", "b"]
    with pytest.raises(SerializationError, match="^d.json: pre_tokenizer.timeout: null switches off the timeout"):
        Tokenizer.from_dict(doc, source="d.json")
    text = json.dumps(doc)
    assert Tokenizer.from_json(text, trusted=True).encode_ids("ab") == [0, 1]
    with pytest.raises(SerializationError, match="^<string>: pre_tokenizer.timeout: null switches off"):
        Tokenizer.from_json(text)
    (tmp_path / "t.json").write_text(text, encoding="utf-8")
    assert Tokenizer.load(tmp_path / "t.json", trusted=True).encode_ids("ab") == [0, 1]
    with pytest.raises(SerializationError, match="pre_tokenizer.timeout: null switches off"):
        Tokenizer.load(tmp_path / "t.json")


def test_from_dict_errors_name_the_source() -> None:
    doc = Tokenizer(BPE(vocab={"a": 0}, merges=[])).to_dict()
    for field, value, message in (
        ("version", 99, "src.json: version"),
        ("truncation", 3, "src.json: truncation: must be an object or null, got int"),
        ("added_tokens", 3, "src.json: added_tokens: must be a list, got int"),
    ):
        with pytest.raises(SerializationError) as info:
            Tokenizer.from_dict({**doc, field: value}, source="src.json")
        assert str(info.value).startswith(message)


def test_train_reports_counting_to_the_trainers_progress_and_warns_when_short() -> None:
    from algorithms import BPETrainer
    from toolkit.errors import VocabSizeWarning

    calls: list[tuple[str, int, int]] = []
    Tokenizer(BPE()).train(["ab ab", "ab"], BPETrainer(vocab_size=3, progress=lambda *a: calls.append(a)))
    assert ("counting", 7, 7) in calls  # 7 characters counted of 7
    with pytest.warns(VocabSizeWarning, match="vocab_size=10 cannot be reached: training stopped at 3 tokens"):
        Tokenizer(BPE()).train(["ab"], BPETrainer(vocab_size=10, show_progress=False))


def test_an_option_changed_after_encoding_renews_the_caches() -> None:
    tok = Tokenizer(BPE(vocab=dict(VOCAB), merges=[("a", "b")], unk_token="<s>"), pre_tokenizer=Whitespace())
    assert tok.encode_ids("zz zz") == [3, 3, 3, 3]
    assert tok.encode("zz zz").ids == [3, 3, 3, 3]
    tok.model.fuse_unk = True  # the cached ids of "zz" are stale now; the pre-tokenizer still splits
    assert tok.encode_ids("zz zz") == [3, 3]
    assert tok.encode("zz zz").ids == [3, 3]


def test_special_tokens_are_cut_before_the_rest_is_normalized() -> None:
    tok = _tok(normalizer=Lowercase())
    enc = tok.encode("A<s>AB", allowed_special="all")
    assert enc.ids == [0, 3, 2]
    assert enc.offsets == [(0, 1), (1, 4), (4, 6)]
    assert tok.encode("A<S>AB", allowed_special="all").ids == [0, 5, 6, 7, 2]
    assert tok.encode("A<s>AB").ids == [0, 5, 6, 7, 2]


def test_pretokenized_words_take_allowed_special_tokens_and_type_id_0() -> None:
    tok = _tok()
    enc = tok.encode(["a<s>", "b"], is_pretokenized=True, allowed_special="all")
    assert enc.ids == [0, 3, 1]
    assert enc.word_ids == [0, 0, 1]
    assert enc.type_ids == [0, 0, 0]
    assert tok.encode(["a<s>"], is_pretokenized=True).ids == [0, 5, 6, 7]
    raises_exactly(InputError, "text: with is_pretokenized=True, give a list of words (str), got set", tok.encode, {"a"},
            is_pretokenized=True)
    raises_exactly(InputError, "text: with is_pretokenized=True, give a list of words (str), got int", tok.encode, 5,
            is_pretokenized=True)


def test_encode_ordinary_adds_no_special_tokens() -> None:
    tok = _tok(post_processor=processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 3)]))
    assert tok.encode_ids("ab") == [3, 2]
    assert tok.encode_ordinary("ab<s>") == [2, 5, 6, 7]


def test_decode_bytes_of_tokens_outside_the_byte_alphabet_and_lone_surrogates() -> None:
    vocab = {"Ã": 0, "©": 1, "a": 2, "<中>": 3}
    tok = Tokenizer(BPE(vocab=vocab, merges=[], special_tokens=["<中>"]), decoder=decoders.ByteLevel())
    assert tok.decode_bytes([3, 2]) == "<中>a".encode()  # '中' is no byte-level character: its UTF-8 bytes
    with pytest.raises(ConfigError, match="lone surrogate \\(U\\+D800\\)"):
        tok.add_tokens(["\ud800x"])  # no text holds it (HF refuses it too), and no file could
    assert tok.get_vocab_size() == 4


def test_train_keeps_the_models_options_and_reads_a_corpus_object() -> None:
    from algorithms import BPETrainer
    from toolkit.training.reading import Corpus

    tok = Tokenizer(BPE(unk_token="[UNK]"))
    tok.train(["ab ab"], BPETrainer(vocab_size=4, show_progress=False))
    assert tok.get_vocab() == {"[UNK]": 0, " ": 1, "a": 2, "b": 3}
    assert tok.model.unk_token == "[UNK]"
    tok = Tokenizer(BPE())
    tok.train(Corpus(texts=["ab", "ab"]), BPETrainer(vocab_size=3, show_progress=False))  # iter_texts, no __iter__
    assert tok.get_vocab() == {"a": 0, "b": 1, "ab": 2}


def test_the_pair_takes_the_same_special_token_options() -> None:
    tok = _tok()
    words = tok.encode(["a"], ["<s>", "b"], is_pretokenized=True, allowed_special="all")
    assert (words.ids, words.type_ids) == ([0, 3, 1], [0, 1, 1])
    assert tok.encode("a", "<s>", allowed_special=["<s>"], disallowed_special="all").ids == [0, 3]
    raises_exactly(InputError, "pair must be a str, got int", tok.encode, "a", 5)
    raises_exactly(InputError, "pair must be a str, got int", tok.encode, "a", 5, disallowed_special="all")


def test_a_segment_that_normalizes_to_nothing_does_not_end_the_text() -> None:
    from toolkit.normalizers import Strip

    tok = _tok(normalizer=Strip())
    enc = tok.encode(" <s> ab", allowed_special="all")  # " " strips to nothing, then the token and "ab"
    assert enc.ids == [3, 2]
    assert enc.offsets == [(1, 4), (5, 7)]
    assert tok.encode_ids(" <s> ab", allowed_special="all") == [3, 2]


def test_respelled_and_plain_pieces_do_not_share_cached_tokens() -> None:
    # With add_prefix_space, "a " takes the general path (a space is added): its last piece is the
    # respelled space "Ġ". " 1Ġ" starts with a space, so it takes the slice path, whose raw piece "Ġ"
    # (U+0120, UTF-8 C4 A0) is respelled "Äł": the cached tokens of the respelled "Ġ" must not be used.
    tok = _byte_level()
    tok.pre_tokenizer.add_prefix_space = True
    assert tok.encode("a ").tokens == ["Ġa", "Ġ"]
    assert tok.encode(" 1Ġ").tokens == ["Ġ", "1", "Ä", "ł"]


def test_tokens_added_after_encoding_are_cut_at_once() -> None:
    # encode_ids remembers that a pipeline has nothing to cut at; adding a token must end that.
    from algorithms import BPE as _BPE

    tok = Tokenizer(_BPE(vocab={"a": 0, "b": 1}, merges=[]))
    assert tok.encode_ids("abab") == [0, 1, 0, 1]
    tok.add_tokens(["ba"])
    assert tok.encode_ids("abab") == [0, 2, 1]
    tok.add_special_tokens(["aa"])
    assert tok.encode_ids("aab") == [0, 0, 1]  # a special token is text unless allowed
    assert tok.encode_ids("aab", allowed_special="all") == [3, 1]
