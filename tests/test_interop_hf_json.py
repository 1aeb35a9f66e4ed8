"""Hugging Face tokenizer.json both ways, checked against the real ``tokenizers`` library.

- Tokenizers we train (char-level BPE, byte-level BPE, WordPiece, in several pipelines) exported with
  ``to_hf_json`` load in ``tokenizers.Tokenizer.from_file`` and give identical ids, tokens, offsets
  and decoded text.
- Tokenizers HF trains, imported with ``from_hf_json``, give HF's ids and offsets.
- Components we cannot represent are ``SerializationError`` naming them; malformed files too.

Needs only Python's own ``pydoc_data`` text, no shared corpus.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from algorithms import BPE, BPETrainer, WordLevel, WordPiece, WordPieceTrainer
from conftest import require
from pretokenizers import BertPreTokenizer, Digits, Metaspace, Punctuation, Split, Whitespace, WhitespaceSplit
from pretokenizers import Sequence as PreSequence
from test_interop_tiktoken import TEST_TEXTS, training_lines
from toolkit import Tokenizer
from toolkit import decoders as D
from toolkit import normalizers as N
from toolkit import processors as P
from toolkit.errors import SerializationError
from toolkit.interop.hf_json import to_hf_dict
from toolkit.normalizers import Regex

tokenizers = require("tokenizers")


def sample_texts() -> list[str]:
    extra = [
        "Hello, y'all! How's it going? I'm fine -- we've 42 apples & 3.5 pears.",
        "ÉCOLE élève Ǆemal ﬁne ＦＵＬＬ width İstanbul",
        "tabs\tand\nnewlines\r\n and  double  spaces",
        "a" * 300,
    ]
    return TEST_TEXTS + extra + training_lines()[1::11]


def offsets_agree(enc: Any, expected: Any) -> bool:
    """Offsets equal, except the one documented difference: a token made only of a *prepended*
    Metaspace ``▁`` spans the empty string at its position here, while HF gives it the span of the
    character after it (``(0, 0)`` vs ``(0, 1)``)."""
    if enc.offsets == expected.offsets:
        return True
    if len(enc.offsets) != len(expected.offsets):
        return False
    for token, (s, e), (hs, he) in zip(enc.tokens, enc.offsets, expected.offsets):
        if (s, e) != (hs, he) and not (token == "▁" and s == e == hs and he == hs + 1):
            return False
    return True


def assert_same_as_hf(ours: Tokenizer, hf: Any, texts: list[str], *, pairs: bool = True) -> None:
    for text in texts:
        enc, expected = ours.encode(text), hf.encode(text)
        assert enc.ids == expected.ids, text
        assert enc.tokens == expected.tokens, text
        assert offsets_agree(enc, expected), (text, enc.offsets, expected.offsets)
        assert enc.type_ids == expected.type_ids, text
        assert ours.encode_ids(text) == expected.ids, text
        assert ours.decode(enc.ids, skip_special_tokens=False) == hf.decode(expected.ids, skip_special_tokens=False), text
        assert ours.decode(enc.ids) == hf.decode(expected.ids), text
    if pairs:
        for a, b in zip(texts[::5], texts[1::5]):
            enc, expected = ours.encode(a, b), hf.encode(a, b)
            assert (enc.ids, enc.type_ids) == (expected.ids, expected.type_ids)
            assert offsets_agree(enc, expected)


# ---------------------------------------------------------------------------- our models → HF
def char_bpe() -> Tokenizer:
    tok = Tokenizer(
        BPE(unk_token="[UNK]"),
        normalizer=N.Sequence([N.NFKC(), N.Lowercase()]),
        pre_tokenizer=Whitespace(),
    )
    tok.train(training_lines(), BPETrainer(vocab_size=600, special_tokens=["[UNK]", "<s>", "</s>"], unk_token="[UNK]"))
    tok.post_processor = P.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> $B:1 </s>:1",
        special_tokens=[("<s>", tok.token_to_id("<s>")), ("</s>", tok.token_to_id("</s>"))],
    )
    return tok


def char_bpe_suffix() -> Tokenizer:
    tok = Tokenizer(
        BPE(unk_token="<unk>", end_of_word_suffix="</w>"),
        normalizer=N.Sequence([N.NFD(), N.StripAccents(), N.Strip(), N.Replace("``", '"')]),
        pre_tokenizer=PreSequence([WhitespaceSplit(), Punctuation(), Digits(individual_digits=True)]),
        decoder=D.BPEDecoder(suffix="</w>"),
    )
    return tok.train(
        training_lines(),
        BPETrainer(vocab_size=500, special_tokens=["<unk>"], unk_token="<unk>", end_of_word_suffix="</w>"),
    )


def metaspace_bpe() -> Tokenizer:
    tok = Tokenizer(
        BPE(unk_token="<unk>"),
        normalizer=N.NFKC(),
        pre_tokenizer=Metaspace(),
        decoder=D.Metaspace(),
    )
    return tok.train(training_lines(), BPETrainer(vocab_size=500, special_tokens=["<unk>"], unk_token="<unk>"))


def byte_level_gpt2() -> Tokenizer:
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=700)
    return tok.train(training_lines(), trainer)


def byte_level_prefix_trim() -> Tokenizer:
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=600, add_prefix_space=True)
    tok = tok.train(training_lines(), trainer)
    tok.post_processor = P.ByteLevel(add_prefix_space=True, trim_offsets=True)
    return tok


def byte_level_chat() -> Tokenizer:
    from toolkit.training.presets import chat

    tok, trainer = chat(vocab_size=600)
    return tok.train(training_lines(), trainer)


def wordpiece_bert() -> Tokenizer:
    tok = Tokenizer(
        WordPiece(), normalizer=N.BertNormalizer(lowercase=True), pre_tokenizer=BertPreTokenizer(),
        decoder=D.WordPiece(),
    )
    # The course score keeps the test contents ("is", "ab") out of the vocabulary: adding an existing entry as a
    # special token is a documented difference (docs/migrating.md), tested on its own in test_added_tokens.py.
    tok.train(training_lines(), WordPieceTrainer(vocab_size=800, criterion="score"))
    tok.post_processor = P.BertProcessing(sep=("[SEP]", tok.token_to_id("[SEP]")), cls=("[CLS]", tok.token_to_id("[CLS]")))
    return tok


def wordpiece_cased_split() -> Tokenizer:
    tok = Tokenizer(
        WordPiece(), normalizer=N.NFC(),
        pre_tokenizer=PreSequence([Split(Regex(r"\s+"), behavior="removed"), Punctuation(behavior="isolated")]),
        decoder=D.WordPiece(cleanup=False),
    )
    return tok.train(training_lines(), WordPieceTrainer(vocab_size=700))


OURS = {
    "char_bpe": char_bpe,
    "char_bpe_suffix": char_bpe_suffix,
    "metaspace_bpe": metaspace_bpe,
    "byte_level_gpt2": byte_level_gpt2,
    "byte_level_prefix_trim": byte_level_prefix_trim,
    "byte_level_chat": byte_level_chat,
    "wordpiece_bert": wordpiece_bert,
    "wordpiece_cased_split": wordpiece_cased_split,
}


@pytest.mark.parametrize("name", list(OURS))
def test_our_trained_tokenizer_loads_in_hf_with_identical_results(name: str, tmp_path: Path) -> None:
    ours = OURS[name]()
    path = tmp_path / "tokenizer.json"
    ours.to_hf_json(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    assert hf.get_vocab() == ours.get_vocab()
    assert_same_as_hf(ours, hf, sample_texts())
    # ... and it comes back through our importer unchanged.
    again = Tokenizer.from_hf_json(path)
    for text in sample_texts():
        assert again.encode(text).ids == ours.encode(text).ids
    assert again.to_dict()["model"] == ours.to_dict()["model"]


def test_export_is_deterministic_and_valid_json(tmp_path: Path) -> None:
    ours = byte_level_gpt2()
    ours.to_hf_json(tmp_path / "a.json")
    ours.to_hf_json(tmp_path / "b.json", indent=2)
    a = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert a == json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert a["version"] == "1.0" and a["model"]["type"] == "BPE"
    assert a["added_tokens"] == [
        {"id": 699, "content": "<|endoftext|>", "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
    ]


# ---------------------------------------------------------------------------- HF models → ours
def hf_byte_level(*, trim_offsets: bool = False, add_prefix_space: bool = False):
    from tokenizers import decoders, models, pre_tokenizers, processors, trainers

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=trim_offsets)
    trainer = trainers.BpeTrainer(
        vocab_size=700, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(training_lines(), trainer)
    return tok


def hf_roberta():
    from tokenizers import processors

    tok = hf_byte_level(add_prefix_space=True)
    tok.add_special_tokens(["<s>", "</s>"])
    tok.post_processor = processors.RobertaProcessing(
        ("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")), trim_offsets=True, add_prefix_space=True
    )
    return tok


def hf_char_bpe():
    from tokenizers import models, normalizers, pre_tokenizers, processors, trainers

    tok = tokenizers.Tokenizer(models.BPE(unk_token="[UNK]", continuing_subword_prefix="##"))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(individual_digits=True)])
    trainer = trainers.BpeTrainer(
        vocab_size=600, special_tokens=["[UNK]", "[CLS]", "[SEP]"], continuing_subword_prefix="##", show_progress=False
    )
    tok.train_from_iterator(training_lines(), trainer)
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))],
    )
    return tok


def hf_wordpiece():
    from tokenizers.implementations import BertWordPieceTokenizer

    tok = BertWordPieceTokenizer(lowercase=True)
    tok.train_from_iterator(training_lines(), vocab_size=800, show_progress=False)
    return tok._tokenizer  # the underlying tokenizers.Tokenizer


def hf_metaspace(scheme: str = "always"):
    from tokenizers import decoders, models, normalizers, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE(unk_token="<unk>"))
    # With "first", HF prepends only when the piece starts at *original* offset 0, so a normalizer that
    # removes leading text (Strip) changes the result; ours looks at the normalized text (documented).
    steps = [normalizers.NFKC(), normalizers.Replace("``", '"')] + ([normalizers.Strip()] if scheme == "always" else [])
    tok.normalizer = normalizers.Sequence(steps)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme=scheme)
    tok.decoder = decoders.Metaspace(prepend_scheme=scheme)
    tok.train_from_iterator(training_lines(), trainers.BpeTrainer(vocab_size=500, special_tokens=["<unk>"], show_progress=False))
    return tok


HF = {
    "hf_byte_level": hf_byte_level,
    "hf_byte_level_trim": lambda: hf_byte_level(trim_offsets=True, add_prefix_space=True),
    "hf_roberta": hf_roberta,
    "hf_char_bpe": hf_char_bpe,
    "hf_wordpiece": hf_wordpiece,
    "hf_metaspace": hf_metaspace,
    "hf_metaspace_first": lambda: hf_metaspace("first"),
}


@pytest.mark.parametrize("name", list(HF))
def test_hf_trained_tokenizer_imports_with_identical_results(name: str, tmp_path: Path) -> None:
    hf = HF[name]()
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    ours = Tokenizer.from_hf_json(path)
    assert ours.get_vocab() == hf.get_vocab()
    assert_same_as_hf(ours, hf, sample_texts())
    # Export back: HF reads our file and agrees with itself.
    ours.to_hf_json(tmp_path / "again.json")
    again = tokenizers.Tokenizer.from_file(str(tmp_path / "again.json"))
    for text in sample_texts()[:20]:
        assert again.encode(text).ids == hf.encode(text).ids


def test_byte_level_model_detection(tmp_path: Path) -> None:
    hf_byte_level().save(str(tmp_path / "bl.json"))
    hf_char_bpe().save(str(tmp_path / "char.json"))
    assert type(Tokenizer.from_hf_json(tmp_path / "bl.json").model).__name__ == "ByteLevelBPE"
    assert type(Tokenizer.from_hf_json(tmp_path / "char.json").model).__name__ == "BPE"


def test_tiktoken_style_model_exports_with_ignore_merges(tmp_path: Path) -> None:
    """A rank-mode (tiktoken) model exports merges derived from its ranks plus ignore_merges=True."""
    from toolkit.interop import save_tiktoken

    ours = byte_level_chat()
    save_tiktoken(ours, tmp_path / "x.tiktoken")
    from toolkit.interop import tiktoken_pattern

    ranked = Tokenizer.from_tiktoken(tmp_path / "x.tiktoken", pattern=tiktoken_pattern(ours), special_tokens=ours.special_tokens)
    ranked.to_hf_json(tmp_path / "ranked.json")
    data = json.loads((tmp_path / "ranked.json").read_text(encoding="utf-8"))
    assert data["model"]["ignore_merges"] is True
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "ranked.json"))
    for text in sample_texts():
        assert hf.encode(text).ids == ranked.encode_ids(text) == ours.encode_ids(text), text


# ---------------------------------------------------------------------------- errors
def minimal(**overrides: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "hi": 1, "##s": 2}},
    }
    doc.update(overrides)
    return doc


def load(tmp_path: Path, doc: Any, *, strict: bool = True) -> Tokenizer:
    path = tmp_path / "tokenizer.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return Tokenizer.from_hf_json(path, strict=strict)


def test_minimal_document_loads(tmp_path: Path) -> None:
    assert load(tmp_path, minimal()).encode_ids("his hi x") == [1, 2, 1, 0]


@pytest.mark.parametrize(
    "overrides, needle",
    [
        ({"model": {"type": "WordLevelX", "vocab": {"a": 0}, "unk_token": "a"}}, "model: the HF model 'WordLevelX'"),
        ({"model": {"type": "Unigram", "unk_id": 0, "vocab": {"a": 0}}}, "model.vocab: must be a list"),
        ({"model": {"type": "Unigram", "unk_id": 3, "vocab": [["a", 0.0]]}}, "unk_id: 3 is not an id of the vocabulary"),
        ({"normalizer": {"type": "Precompiled", "precompiled_charsmap": "AAAA"}}, "too short for a precompiled character map"),
        ({"normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Precompiled", "precompiled_charsmap": "%%"}]}}, "must be base64"),
        ({"pre_tokenizer": {"type": "NoSuchPreTokenizer"}}, "pre-tokenizer 'NoSuchPreTokenizer'"),  # every HF one imports
        ({"decoder": {"type": "CTC", "pad_token": 5, "word_delimiter_token": "|", "cleanup": True}}, "pad_token"),
        ({"model": {"type": "BPE", "dropout": "0.1", "vocab": {"a": 0}, "merges": []}}, "model.dropout"),
        ({"truncation": {"max_length": 5, "strategy": "Sideways", "stride": 0, "direction": "Right"}}, "truncation.strategy"),
        ({"version": "2.0"}, "version: expected '1.0'"),
        ({"extra_field": 1}, "unknown top-level field(s) extra_field"),
        ({"model": None}, "model: required field is missing"),
        ({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"hi": 0}}}, "unk_token '[UNK]' is not in the vocabulary"),
        ({"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "("}, "behavior": "Isolated", "invert": False}}, "valid regular expression"),
        ({"pre_tokenizer": {"type": "Split", "pattern": {"Glob": "*"}, "behavior": "Isolated", "invert": False}}, "pre_tokenizer.pattern"),
        ({"added_tokens": [{"id": 5, "content": "hi", "special": True}]}, "'hi' has id 5 but the model vocabulary gives it 1"),
    ],
)
def test_unsupported_or_invalid_documents(tmp_path: Path, overrides: dict[str, Any], needle: str) -> None:
    with pytest.raises(SerializationError) as info:
        load(tmp_path, minimal(**overrides))
    assert needle in str(info.value)
    assert "tokenizer.json" in str(info.value)


def test_bad_json_names_the_position(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match=r"tokenizer.json: not valid JSON .*line 1, column"):
        load(tmp_path, '{"version": "1.0", "model": ')
    with pytest.raises(SerializationError, match="must be a JSON object"):
        load(tmp_path, "[1, 2]")


def test_our_own_format_is_pointed_to_load(tmp_path: Path) -> None:
    ours = Tokenizer(WordPiece({"[UNK]": 0, "a": 1}))
    ours.save(tmp_path / "tokenizer.json")
    with pytest.raises(SerializationError, match="use Tokenizer.load"):
        Tokenizer.from_hf_json(tmp_path / "tokenizer.json")


def test_truncation_and_added_tokens_are_read(tmp_path: Path) -> None:
    doc = minimal(
        added_tokens=[{"id": 3, "content": "<extra>", "special": False, "single_word": False, "lstrip": False,
                       "rstrip": False, "normalized": True}],
        truncation={"max_length": 5, "strategy": "LongestFirst", "stride": 0, "direction": "Right"},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tok = load(tmp_path, doc)
    assert tok.truncation == {"max_length": 5, "stride": 0, "strategy": "longest_first", "direction": "right"}
    # A non-special added token is matched in any text, as HF does.
    assert tok.special_tokens == {}
    assert tok.encode_ids("hi <extra>") == [1, 3]


@pytest.mark.parametrize(("vocab", "merges", "special", "text"), [
    ({"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, [("a", "b")], "ab", "ab a b"),
    ({"[UNK]": 0, "▁ab": 1, "c": 2, "▁abc": 3}, [("▁ab", "c")], "▁abc", "▁abc c"),
])
def test_a_special_token_a_merge_makes_stays_in_the_exported_vocabulary(
    tmp_path: Path, vocab: dict[str, int], merges: list[tuple[str, str]], special: str, text: str
) -> None:
    """The top-of-range special tokens leave the model vocabulary (HF numbers them after it), but not
    one that a merge makes: HF refuses such a file ("Token `ab` out of vocabulary", or panics)."""
    hf_tokenizers = require("tokenizers")
    tok = Tokenizer(BPE(vocab=vocab, merges=merges, unk_token="[UNK]"))
    tok.add_special_tokens([special])
    tok.to_hf_json(tmp_path / "t.json")
    assert special in json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["model"]["vocab"]
    hf = hf_tokenizers.Tokenizer.from_file(str(tmp_path / "t.json"))
    assert hf.encode(text).ids == tok.encode(text, allowed_special="all").ids
    assert Tokenizer.from_hf_json(tmp_path / "t.json").encode(text, allowed_special="all").ids == hf.encode(text).ids


@pytest.mark.parametrize("model", [
    WordPiece({"a": 0, "[UNK]": 1}, special_tokens=["[UNK]"]),
    BPE({"a": 0, "[UNK]": 1}, [], unk_token="[UNK]", special_tokens=["[UNK]"]),
    WordLevel({"a": 0, "<unk>": 1}, unk_token="<unk>", special_tokens=["<unk>"]),
    WordLevel({"<unk>": 0}, unk_token="<unk>", special_tokens=["<unk>"]),
], ids=["WordPiece", "BPE", "WordLevel", "WordLevel-only-unk"])
def test_a_special_unknown_token_at_the_top_stays_in_the_exported_vocabulary(model: Any) -> None:
    """The unknown token is looked up in HF's model vocabulary: the export dropped it there when it was
    a special token with the last id (as the other top-of-range special tokens are), and HF then failed
    at the first unknown word ("Missing [UNK] token from the vocabulary"). Found by
    tests/test_pipeline_fuzz_hf.py."""
    tok = Tokenizer(model, pre_tokenizer=WhitespaceSplit())
    doc = to_hf_dict(tok)
    assert model.unk_token in doc["model"]["vocab"]
    hf = tokenizers.Tokenizer.from_str(json.dumps(doc))
    vocab = tok.get_vocab()
    expected = [vocab.get(word, vocab[model.unk_token]) for word in ("a", "b")]
    assert hf.encode("a b").ids == tok.encode("a b").ids == expected
    assert hf.get_vocab_size() == tok.get_vocab_size()


def test_export_of_unrepresentable_component_names_it(tmp_path: Path) -> None:
    from toolkit.interfaces import Normalizer
    from toolkit.registry import register

    @register("InteropTestReverse")
    class Reverse(Normalizer):
        def normalize(self, ns):  # pragma: no cover - never called
            return ns

    tok = Tokenizer(WordPiece({"[UNK]": 0, "a": 1}), normalizer=Reverse())
    with pytest.raises(SerializationError, match="normalizer Reverse has no Hugging Face equivalent"):
        tok.to_hf_json(tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()


def test_an_unknown_decoder_is_refused_or_dropped_with_strict_false(tmp_path: Path) -> None:
    # strict (the default) refuses a decoder type this toolkit does not know and names the way out;
    # strict=False drops it with a warning, since it changes what decode returns, never the ids.
    doc = minimal(decoder={"type": "DecoderFromTheFuture"})
    with pytest.raises(SerializationError, match=r"decoder 'DecoderFromTheFuture'.*strict=False to drop it"):
        load(tmp_path, doc)
    with pytest.warns(UserWarning, match="DecoderFromTheFuture.*dropped"):
        tok = load(tmp_path, doc, strict=False)
    assert tok.decoder is None
    assert tok.encode_ids("his hi x") == load(tmp_path, minimal()).encode_ids("his hi x") == [1, 2, 1, 0]
    assert tok.decode([1, 2]) == "hi ##s"
    with pytest.raises(SerializationError, match="pre-tokenizer 'Nope'"):  # what changes ids is never dropped
        load(tmp_path, minimal(pre_tokenizer={"type": "Nope"}), strict=False)


def test_a_special_token_spelled_as_one_byte_survives_the_export(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A special ``é`` on a byte-level pipeline is also the token of the byte 0xE9: the export kept it
    special in the model too, and our loader then refused the file (a byte-level vocabulary needs all
    256 single-byte tokens). It stays special in the added tokens only, as in the pipeline saved."""
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel
    from toolkit import Tokenizer
    from toolkit.decoders import ByteLevel as ByteLevelDecoder

    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=ByteLevelDecoder())
    tok.add_special_tokens(["é", "<|end|>"])
    path = tmp_path / "tokenizer.json"
    tok.to_hf_json(path)
    back = Tokenizer.from_file(path)
    for text in ("café é", "é<|end|>x"):
        for allowed in ((), "all"):
            assert back.encode(text, allowed_special=allowed).ids == tok.encode(text, allowed_special=allowed).ids
    assert back.decode(back.encode_ids("café")) == "café"
    assert Tokenizer.from_str(back.to_str()).encode_ids("café é") == tok.encode_ids("café é")


# ----------------------------------------------------------------------------- entries HF reads its own way
def _word_level_doc(**components: Any) -> str:
    from tokenizers import models

    base = tokenizers.Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1, "b": 2, "<s>": 3, "</s>": 4}, unk_token="[UNK]"))
    base.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    doc = json.loads(base.to_str())
    doc.update(components)
    return json.dumps(doc)


@pytest.mark.parametrize("drop", [(), ("trim_offsets",), ("add_prefix_space",), ("trim_offsets", "add_prefix_space")])
def test_a_roberta_entry_without_its_flags_reads_as_hf_reads_it(drop: tuple[str, ...]) -> None:
    # HF's RobertaProcessing fields have no defaults: an entry missing one loads as BertProcessing
    # (type id 1 on the second text, one separator between the texts). The same file, the same ids.
    entry = {"type": "RobertaProcessing", "sep": ["</s>", 4], "cls": ["<s>", 3], "trim_offsets": True,
             "add_prefix_space": True}
    for key in drop:
        del entry[key]
    text = _word_level_doc(post_processor=entry)
    ours, theirs = Tokenizer.from_str(text), tokenizers.Tokenizer.from_str(text)
    for args in (("a b",), ("a", "b a"), ("b", "")):
        mine, hf = ours.encode(*args), theirs.encode(*args)
        assert (mine.ids, mine.type_ids, mine.special_tokens_mask, mine.offsets) == (
            hf.ids, hf.type_ids, hf.special_tokens_mask, hf.offsets), (drop, args)
    assert (ours.post_processor.to_dict()["type"] == "RobertaProcessing") == (not drop)


@pytest.mark.parametrize("add_prefix_space", [True, False, None])
@pytest.mark.parametrize("scheme", ["always", "never", "first", None])
def test_metaspace_add_prefix_space_against_prepend_scheme_as_hf(add_prefix_space: bool | None, scheme: str | None) -> None:
    # HF refuses add_prefix_space false beside a prepend_scheme other than "never"; a file of
    # tokenizers < 0.19 (add_prefix_space alone) is read by its meaning here, where HF 0.23 refuses
    # add_prefix_space false (docs/migrating.md).
    entry: dict[str, Any] = {"type": "Metaspace", "replacement": "▁", "split": True}
    if add_prefix_space is not None:
        entry["add_prefix_space"] = add_prefix_space
    if scheme is not None:
        entry["prepend_scheme"] = scheme
    text = _word_level_doc(pre_tokenizer=entry, decoder=entry)
    try:
        theirs = tokenizers.Tokenizer.from_str(text)
    except Exception:  # noqa: BLE001 - HF's error type is its own
        theirs = None
    if theirs is None and scheme is not None:
        with pytest.raises(SerializationError, match="contradicts prepend_scheme"):
            Tokenizer.from_str(text)
        return
    ours = Tokenizer.from_str(text)
    expected = scheme or ("never" if add_prefix_space is False else "always")
    assert ours.pre_tokenizer.to_dict()["prepend_scheme"] == expected
    if theirs is not None:
        for sample in ("a b", " a", "b  a "):
            assert ours.pre_tokenizer.pre_tokenize_str(sample) == theirs.pre_tokenizer.pre_tokenize_str(sample)
