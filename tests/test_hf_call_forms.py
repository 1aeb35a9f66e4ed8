"""Hugging Face's call forms where ours used to differ: ``BertProcessing``/``RobertaProcessing`` take
``cls_token=`` (the keyword of current HF versions), ``decode(ids, False)`` and ``decode_batch(b,
False)`` take the flag by position, ``save(path, pretty=...)`` writes indented by default as HF does,
and ``Precompiled`` takes the map's bytes as HF's does. Each is compared with the real library."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from algorithms import WordPiece
from conftest import require
from pretokenizers import Whitespace
from toolkit import Tokenizer
from toolkit.errors import ConfigError, InputError
from toolkit.interop.hf_json import to_hf_dict
from toolkit.normalizers import Precompiled
from toolkit.normalizers.precompiled import build_charsmap
from toolkit.processors import BertProcessing, RobertaProcessing

VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "hello": 4, "world": 5}


def _tokenizer() -> Tokenizer:
    tok = Tokenizer(WordPiece(VOCAB, unk_token="[UNK]", special_tokens=["[CLS]", "[SEP]", "[PAD]", "[UNK]"]),
                    pre_tokenizer=Whitespace())
    tok.post_processor = BertProcessing(("[SEP]", 3), cls_token=("[CLS]", 2))
    return tok


def test_cls_token_is_hugging_faces_keyword_for_cls() -> None:
    hf = require("tokenizers").processors
    ours = BertProcessing(sep=("[SEP]", 3), cls_token=("[CLS]", 2))
    theirs = hf.BertProcessing(sep=("[SEP]", 3), cls_token=("[CLS]", 2))
    assert ours.to_dict() == json.loads(theirs.__getstate__()) == BertProcessing(("[SEP]", 3), ("[CLS]", 2)).to_dict()
    roberta = RobertaProcessing(("</s>", 2), cls_token=("<s>", 0), trim_offsets=False)
    assert roberta.cls == ("<s>", 0) and roberta.to_dict()["cls"] == ["<s>", 0]
    with pytest.raises(ConfigError, match="'cls_token' is another name of option 'cls'; give one of them"):
        BertProcessing(cls=("[CLS]", 2), cls_token=("[CLS]", 2))


def test_decode_takes_skip_special_tokens_by_position_as_hf() -> None:
    tok = _tokenizer()
    ids = tok.encode("hello world").ids
    assert ids == [2, 4, 5, 3]
    assert tok.decode(ids, False) == tok.decode(ids, skip_special_tokens=False) == "[CLS] hello world [SEP]"
    assert tok.decode(ids) == "hello world"
    assert tok.decode_batch([ids, [4]], False) == ["[CLS] hello world [SEP]", "hello"]
    hf = require("tokenizers").Tokenizer.from_str(json.dumps(to_hf_dict(tok)))
    assert hf.decode(ids, False) == tok.decode(ids, False)
    assert hf.decode_batch([ids, [4]], False) == tok.decode_batch([ids, [4]], False)


def test_save_is_pretty_by_default_as_hf_and_compact_on_request(tmp_path: Path) -> None:
    tok = _tokenizer()
    tok.save(tmp_path / "pretty.json")
    tok.save(tmp_path / "compact.json", False)
    tok.save(tmp_path / "four.json", indent=4)
    pretty, compact = (tmp_path / "pretty.json").read_text(), (tmp_path / "compact.json").read_text()
    assert pretty == tok.to_str(pretty=True) == tok.to_json(indent=2) and "\n  " in pretty
    assert compact == tok.to_str() and "\n" not in compact
    assert (tmp_path / "four.json").read_text() == tok.to_json(indent=4)
    for name in ("pretty.json", "compact.json", "four.json"):
        assert Tokenizer.load(tmp_path / name).encode("hello world") == tok.encode("hello world")
    with pytest.raises(InputError, match="pretty must be True or False"):
        tok.save(tmp_path / "x.json", "yes")  # type: ignore[arg-type]
    assert not (tmp_path / "x.json").exists()


def test_precompiled_takes_the_maps_bytes_as_hf_and_stores_base64() -> None:
    hf = require("tokenizers").normalizers
    encoded = build_charsmap({"ﬁ": "fi", "①": "1"})
    blob = base64.b64decode(encoded)
    ours = Precompiled(blob)
    assert ours.precompiled_charsmap == encoded and ours == Precompiled(encoded)
    assert ours.normalize_str("ﬁne ①") == hf.Precompiled(blob).normalize_str("ﬁne ①") == "fine 1"
    with pytest.raises(ConfigError, match="precompiled_charsmap"):
        Precompiled(b"\x00\x01")  # bytes, but not a charsmap


def test_strip_decoder_has_hfs_start_and_stop_attributes() -> None:
    from toolkit.decoders import Strip

    hf = require("tokenizers").decoders.Strip(content="_", left=1, right=2)
    ours = Strip(content="_", left=1, right=2)
    assert (ours.start, ours.stop) == (hf.start, hf.stop) == (1, 2)
    ours.start, hf.start = 3, 3
    assert ours.left == 3 and ours.decode(["___a__"]) == hf.decode(["___a__"]) == "a"
    with pytest.raises(ConfigError, match="right"):
        ours.stop = -1


def test_from_str_reads_hf_documents_whatever_their_tokens() -> None:
    """A token (or added token) named ``format`` does not make an HF document look like ours."""
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, "format": 1, "a": 2}, unk_token="[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    hf.add_tokens(["version"])
    ours = Tokenizer.from_str(hf.to_str())
    assert ours.encode_ids("a format version") == hf.encode("a format version").ids == [2, 1, 3]
    assert Tokenizer.from_str(ours.to_str()).encode_ids("a format version") == [2, 1, 3]


def test_from_str_names_the_string_in_its_errors_and_checks_our_documents() -> None:
    from toolkit.errors import SerializationError

    for model, problem in ((None, "model: required field is missing"), ([1], "model: must be an object")):
        with pytest.raises(SerializationError, match=f"^<string>: {problem}"):  # an HF document without a model object
            Tokenizer.from_str(json.dumps({"version": "1.0", "added_tokens": [], "model": model}))
    with pytest.raises(SerializationError, match=r"^from_str expects a str, got bytes \(the bytes of a file: from_buffer\)"):
        Tokenizer.from_str(b"{}")  # type: ignore[arg-type]
    ours = json.loads(_tokenizer().to_str())
    ours["model"]["vocab"]["world"] = 4  # a string is not trusted as a file we wrote
    with pytest.raises(SerializationError, match="^<string>: model.vocab: ids must be unique"):
        Tokenizer.from_str(json.dumps(ours))


def test_bpe_takes_hfs_cache_capacity_keyword() -> None:
    from algorithms import BPE

    tokenizers = require("tokenizers")
    vocab, merges = {"a": 0, "b": 1, "ab": 2}, [("a", "b")]
    tokenizers.models.BPE(vocab, merges, cache_capacity=10)  # HF's keyword
    model = BPE(vocab, merges, cache_capacity=10)
    assert model.cache_capacity == 10 and model.encode_piece("ab") == (2,)
    assert "cache_capacity" not in json.dumps(model.to_dict())  # a size of this process, not of the file
    for bad in (-1, True, 2.5, "10"):
        with pytest.raises(ConfigError, match=r"BPE\.cache_capacity: must be an integer >= 0"):
            BPE(vocab, merges, cache_capacity=bad)


@pytest.mark.parametrize(("name", "options"), [
    ("ByteLevel", {"add_prefix_space": 1}), ("ByteLevel", {"trim_offsets": 0}), ("ByteLevel", {"use_regex": 1}),
    ("Digits", {"individual_digits": 1}), ("Metaspace", {"split": 0}),
])
def test_a_flag_is_a_bool_not_an_int(name: str, options: dict[str, int]) -> None:
    """HF's bindings refuse 0 and 1 for a flag; so do ours (one rule for every component)."""
    import pretokenizers

    tokenizers = require("tokenizers")
    with pytest.raises(ConfigError, match="bool"):
        getattr(pretokenizers, name)(**options)
    with pytest.raises(Exception):  # noqa: B017 - HF raises TypeError or its own exception type
        getattr(tokenizers.pre_tokenizers, name)(**options)


WRONG_TYPES = {
    "encode(None)": lambda t: t.encode(None),
    "encode(bytes)": lambda t: t.encode(b"hello"),
    "encode(str, is_pretokenized=True)": lambda t: t.encode("hello world", is_pretokenized=True),
    "encode_batch(3-item list)": lambda t: t.encode_batch([["hello", "world", "hello"]]),
    "decode([float])": lambda t: t.decode([4.0]),
    "decode([str])": lambda t: t.decode(["4"]),
    "token_to_id(None)": lambda t: t.token_to_id(None),
    "post_process(None)": lambda t: t.post_process(None),
    "post_process('abc')": lambda t: t.post_process("abc"),
    "num_special_tokens_to_add(None)": lambda t: t.num_special_tokens_to_add(None),
    "num_special_tokens_to_add('yes')": lambda t: t.num_special_tokens_to_add("yes"),
    "Encoding.char_to_token(None)": lambda t: t.encode("hello world").char_to_token(None),
    "Encoding.truncate(2.5)": lambda t: t.encode("hello world").truncate(2.5),
    "Encoding.pad('8')": lambda t: t.encode("hello world").pad("8"),
    "Encoding.set_sequence_id(None)": lambda t: t.encode("hello world").set_sequence_id(None),
    "Encoding.token_to_chars('1')": lambda t: t.encode("hello world").token_to_chars("1"),
    "Encoding.word_to_tokens(1.0)": lambda t: t.encode("hello world").word_to_tokens(1.0),
}


@pytest.mark.parametrize("call", list(WRONG_TYPES))
def test_an_argument_of_the_wrong_type_is_a_type_error_as_in_hf(call: str) -> None:
    """HF raises ``TypeError`` for these; ours is an ``InputTypeError``, both a ``TypeError`` and an
    ``InputError`` (so ``except ValueError`` keeps catching it too)."""
    from toolkit.errors import InputTypeError

    tok = _tokenizer()
    hf = require("tokenizers").Tokenizer.from_str(json.dumps(to_hf_dict(tok)))
    with pytest.raises(TypeError):
        WRONG_TYPES[call](hf)
    with pytest.raises(InputTypeError) as caught:
        WRONG_TYPES[call](tok)
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, InputError)


def test_an_unknown_id_error_names_the_range_with_the_added_tokens() -> None:
    tok = _tokenizer()
    tok.add_tokens(["extra"])
    assert tok.decode([6]) == "extra"
    with pytest.raises(InputError, match=r"cannot decode id 7: not in the vocabulary \(ids are 0\.\.6\)"):
        tok.decode([7])


def test_token_to_sequence_agrees_with_sequence_ids_after_set_sequence_id() -> None:
    """HF's answer for overlapping ranges depends on its hash map's order; ours is the highest
    sequence, as ``sequence_ids`` gives (one of HF's answers)."""
    enc = _tokenizer().encode("hello world")
    enc.set_sequence_id(1)
    assert enc.sequence_ids == [1, 1, 1, 1]
    assert [enc.token_to_sequence(i) for i in range(len(enc))] == enc.sequence_ids


def test_train_without_a_trainer_uses_the_models_as_hf(tmp_path: Path) -> None:
    """``tok.train(files)``: HF's ``trainer=None`` picks the model's trainer with its defaults (ours
    required one; ``train_from_iterator`` already had the default)."""
    tokenizers = require("tokenizers")
    from algorithms import BPE

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest\nnew newer newest\n" * 20, encoding="utf-8")
    ours = Tokenizer(BPE(), pre_tokenizer=Whitespace())
    assert ours.train([str(corpus)]) is ours
    hf = tokenizers.Tokenizer(tokenizers.models.BPE())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.train([str(corpus)])
    assert ours.get_vocab() == hf.get_vocab()
    assert ours.encode("lowest newer").ids == hf.encode("lowest newer").ids


def test_process_takes_add_special_tokens_by_position_as_hf() -> None:
    tokenizers = require("tokenizers")
    tok = _tokenizer()
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(tok)))
    ours = tok.post_processor.process(tok.encode("hello", add_special_tokens=False), None, False)
    theirs = hf.post_processor.process(hf.encode("hello", add_special_tokens=False), None, False)
    assert ours.ids == theirs.ids == [4]


def test_encode_special_tokens_reads_true_and_refuses_false() -> None:
    tokenizers = require("tokenizers")
    tok = _tokenizer()
    assert tok.encode_special_tokens is True  # what encode does here; HF's default is False
    tok.encode_special_tokens = True
    with pytest.raises(ConfigError, match="allowed_special='all'"):
        tok.encode_special_tokens = False
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(tok)))
    hf.encode_special_tokens = True  # the same behaviour as ours
    assert tok.encode("hello [SEP]").ids == hf.encode("hello [SEP]").ids


def test_a_path_given_as_the_vocabulary_names_the_file_readers(tmp_path: Path) -> None:
    from algorithms import BPE

    with pytest.raises(ConfigError, match="read_vocab_json"):
        BPE(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt"))  # HF's deprecated file form


# ------------------------------------------------------------------ names the API-surface audit found missing
def test_async_variants_give_what_the_plain_methods_give() -> None:
    import asyncio

    tok = _tokenizer()
    texts = ["hello world", ("hello", "world"), "world hello hello"]

    async def run() -> tuple:
        return (await tok.async_encode("hello world", "world"), await tok.async_encode_batch(texts),
                await tok.async_encode_batch_fast(texts), await tok.async_decode_batch([[2, 4, 3], [5]], False))

    one, batch, fast, decoded = asyncio.run(run())
    assert one == tok.encode("hello world", "world")
    assert batch == tok.encode_batch(texts) == fast
    assert decoded == tok.decode_batch([[2, 4, 3], [5]], False) == ["[CLS] hello [SEP]", "world"]
    with pytest.raises(InputError):
        asyncio.run(tok.async_decode_batch([[99]]))  # errors reach the awaiting caller


def test_async_variants_pass_on_every_option() -> None:
    import asyncio

    tok = _tokenizer()
    text = "hello [SEP] world"

    async def run() -> tuple:
        return (await tok.async_encode(text, None, False, False), await tok.async_encode(text, allowed_special="all"),
                await tok.async_encode_batch([text], add_special_tokens=False),
                await tok.async_encode_batch([text], allowed_special="all"),
                await tok.async_encode_batch_fast([text], False, False),
                await tok.async_encode_batch_fast([text], allowed_special="all"),
                await tok.async_decode_batch([[2, 4, 3]]))

    plain, allowed, batch_plain, batch_allowed, fast_plain, fast_allowed, decoded = asyncio.run(run())
    assert plain.ids == batch_plain[0].ids == fast_plain[0].ids == [4, 1, 1, 1, 5]  # no [CLS] ... [SEP] added
    assert allowed.ids == batch_allowed[0].ids == fast_allowed[0].ids == [2, 4, 3, 5, 3]  # the typed [SEP] matched
    assert decoded == tok.decode_batch([[2, 4, 3]]) == ["hello"]  # skip_special_tokens=True by default, as HF


def test_from_buffer_reads_the_bytes_of_either_file() -> None:
    from toolkit.errors import InputTypeError, SerializationError

    tokenizers = require("tokenizers")
    tok = _tokenizer()
    hf_bytes = json.dumps(to_hf_dict(tok)).encode()
    for data in (tok.to_str().encode(), bytearray(hf_bytes), hf_bytes):
        loaded = Tokenizer.from_buffer(data)
        assert loaded.encode("hello world").ids == tok.encode("hello world").ids
    assert tokenizers.Tokenizer.from_buffer(hf_bytes).encode("hello world").ids == tok.encode("hello world").ids
    with pytest.raises(InputTypeError, match="bytes of a tokenizer file, got str"):
        Tokenizer.from_buffer(tok.to_str())  # type: ignore[arg-type]
    with pytest.raises(SerializationError, match="UTF-8"):
        Tokenizer.from_buffer(b"\xff" + hf_bytes)


def test_model_read_file_and_from_file_as_hf(tmp_path: Path) -> None:
    from algorithms import WordLevel
    from toolkit.interop import write_bert_vocab, write_vocab_json

    tokenizers = require("tokenizers")
    vocab = {"<unk>": 0, "[UNK]": 1, "hello": 2, "world": 3}
    write_vocab_json(vocab, tmp_path / "vocab.json")
    assert WordLevel.read_file(tmp_path / "vocab.json") == vocab == tokenizers.models.WordLevel.read_file(
        str(tmp_path / "vocab.json"))
    assert WordLevel.from_file(tmp_path / "vocab.json").unk_token == "<unk>"  # HF's None: the default
    model = WordLevel.from_file(tmp_path / "vocab.json", unk_token="[UNK]")
    assert model.unk_token == "[UNK]" and model.tokenize("nope") == [(1, 0, 4)]
    write_bert_vocab(vocab, tmp_path / "vocab.txt")
    assert WordPiece.read_file(tmp_path / "vocab.txt") == WordPiece.read_vocab_file(tmp_path / "vocab.txt") == vocab
    assert tokenizers.models.WordPiece.read_file(str(tmp_path / "vocab.txt")) == vocab


def test_adding_a_models_special_token_again_counts_as_hf() -> None:
    tokenizers = require("tokenizers")
    from toolkit import AddedToken

    tok = _tokenizer()
    hf = tok.to_hf()
    calls = [
        ("add_special_tokens", lambda m: ["[CLS]"]),  # already held so: no change (0)
        ("add_special_tokens", lambda m: ["<x>", "[SEP]"]),
        ("add_special_tokens", lambda m: ["[SEP]", "<y>", "[CLS]", "<z>"]),  # the tokens after one held so: 2
        ("add_special_tokens", lambda m: [m.AddedToken("[PAD]", special=True, lstrip=True)]),  # other flags: 1
        ("add_tokens", lambda m: ["[UNK]"]),  # as a non-special token: a change
        ("add_special_tokens", lambda m: ["[UNK]"]),  # special again: a change back
    ]
    for method, tokens in calls:
        ours = getattr(tok, method)(tokens(type("M", (), {"AddedToken": AddedToken})))
        theirs = getattr(hf, method)(tokens(tokenizers))
        assert ours == theirs, (method, ours, theirs)
    assert {i: t.content for i, t in tok.get_added_tokens_decoder().items()} == {
        i: t.content for i, t in hf.get_added_tokens_decoder().items()}
