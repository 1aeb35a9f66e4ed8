"""Exports that cannot be represented are refused, naming what and the fix; what is written loads back.

vocab.json + merges.txt and BERT's vocab.txt hold only the vocabulary and are read as GPT-2's and
BERT's pipelines: ``convert`` (and ``save_tokenizer(..., exact=True)``) refuses a tokenizer they would
give back as another one. A ``.model`` file is refused for a piece sentencepiece refuses to load; a
malformed ``tokenizer_config.json`` template for a field transformers cannot read. Each refusal is a
typed error (one line on the command line, exit 1) and writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from algorithms import BPE, BPETrainer, ByteLevelBPE, Unigram, UnigramTrainer, WordPiece, WordPieceTrainer
from conftest import require
from pretokenizers import BertPreTokenizer, ByteLevel, Metaspace, Whitespace, WhitespaceSplit
from toolkit import Tokenizer, decoders, limits
from test_cli import one_line_error as cli_one_line_error
from test_cli import run
from toolkit.errors import SerializationError, VocabularyError
from toolkit.interop import files
from toolkit.interop.files import load_tokenizer, save_tokenizer
from toolkit.normalizers import BertNormalizer
from toolkit.processors import BertProcessing, TemplateProcessing

TEXT = [
    "The quick brown fox jumps over the lazy dog.",
    "Phileas Fogg parie vingt mille livres: 12345 snake_case naïve café!",
    "Tokenizers split text into subword units; tokenization isn't magic.",
] * 20
PROBES = ["The lazy dog, naïve café 12345!", "Hello World", "", "unknown ∑ ☃ symbols", "  spaced   out  "]
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def one_line_error(err: str) -> str:
    line = cli_one_line_error(err)
    assert line.startswith("tokenizer-toolkit: error: "), err
    return line


def observed(encoding: Any) -> tuple[Any, ...]:
    """Everything an encoding tells (``ranges=None`` is "one sequence covering every token")."""
    ranges = encoding.sequence_ranges or {0: (0, len(encoding.ids))}
    return (encoding.ids, encoding.tokens, encoding.offsets, encoding.type_ids, encoding.special_tokens_mask,
            encoding.attention_mask, encoding.word_ids, ranges)


def same_behaviour(a: Tokenizer, b: Tokenizer) -> None:
    for text in PROBES:
        assert observed(a.encode(text)) == observed(b.encode(text)), text
        assert observed(a.encode(text, "and a pair")) == observed(b.encode(text, "and a pair")), text
        assert a.decode(a.encode_ids(text)) == b.decode(b.encode_ids(text)), text
        assert a.encode(text, allowed_special="all").ids == b.encode(text, allowed_special="all").ids, text


# ---------------------------------------------------------------------------------------- builders
def char_bpe() -> Tokenizer:
    tok = Tokenizer(BPE(unk_token="[UNK]"), pre_tokenizer=Whitespace())
    return tok.train(TEXT, BPETrainer(vocab_size=120, special_tokens=["[UNK]", "<s>", "</s>"], show_progress=False))


def byte_bpe(specials: tuple[str, ...] = ("<|endoftext|>",)) -> Tokenizer:
    from algorithms import ByteLevelBPETrainer

    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel())
    return tok.train(TEXT, ByteLevelBPETrainer(vocab_size=300, special_tokens=list(specials), show_progress=False))


def bert(*, lowercase: bool = True, specials: list[str] | None = None, unk: str = "[UNK]", prefix: str = "##",
         processor: bool = True, normalizer: bool = True, pre: Any = None) -> Tokenizer:
    specials = specials or BERT_SPECIALS
    tok = Tokenizer(
        WordPiece(unk_token=unk, continuing_subword_prefix=prefix),
        normalizer=BertNormalizer(lowercase=lowercase) if normalizer else None,
        pre_tokenizer=pre or BertPreTokenizer(), decoder=decoders.WordPiece(prefix=prefix),
    )
    tok.train(TEXT, WordPieceTrainer(vocab_size=150, special_tokens=specials, continuing_subword_prefix=prefix,
                                     show_progress=False))
    if processor:
        cls, sep = (specials[2], specials[3]) if len(specials) > 3 else ("<s>", "</s>")
        tok.post_processor = BertProcessing(sep=(sep, tok.token_to_id(sep)), cls=(cls, tok.token_to_id(cls)))
    return tok


@pytest.fixture
def saved(tmp_path: Path):  # type: ignore[no-untyped-def]
    def save(tok: Tokenizer, name: str) -> Path:
        path = tmp_path / name
        tok.save(path)
        return path

    return save


# ---------------------------------------------------------------------------------------- 1. vocab.json + merges.txt
def test_a_character_level_bpe_is_not_converted_to_vocab_merges(saved, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source = saved(char_bpe(), "cbpe.json")
    code, out, err = run(["convert", str(source), str(tmp_path / "cbpe_vm")], capsys)
    line = one_line_error(err)
    assert code == 1 and out == ""
    assert line.startswith("tokenizer-toolkit: error: --to vocab-merges: the model is a character-level BPE")
    assert "save it as tokenizer.json instead" in line and "--to hf" in line
    assert not (tmp_path / "cbpe_vm").exists()  # nothing written, no folder made
    existing = tmp_path / "old"
    existing.mkdir()
    (existing / "vocab.json").write_text('{"keep": 0}')
    code, _, err = run(["convert", str(source), str(existing), "--to", "vocab-merges"], capsys)
    assert code == 1 and "character-level BPE" in one_line_error(err)
    assert sorted(p.name for p in existing.iterdir()) == ["vocab.json"] and (existing / "vocab.json").read_text() == '{"keep": 0}'
    with pytest.raises(SerializationError, match=r"save_vocab_merges: the model is a character-level BPE.*tokenizer\.json"):
        save_tokenizer(char_bpe(), tmp_path / "py_vm", format="vocab-merges", exact=True)
    assert not (tmp_path / "py_vm").exists()


def test_a_character_level_pair_names_the_file_and_the_fix_when_read(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    char_bpe().save_vocab_merges(tmp_path)  # the model-level writer: any BPE (read_bpe_model reads it back)
    with pytest.raises(VocabularyError, match=r"vocab\.json: not a GPT-2 byte-level vocabulary: \d+ of the 256 byte "
                                              r"characters are missing .*tokenizer\.json.*read_bpe_model"):
        load_tokenizer(tmp_path)
    code, _, err = run(["encode", str(tmp_path), "Hello"], capsys)
    assert code == 1 and f"{tmp_path / 'vocab.json'}: not a GPT-2 byte-level vocabulary" in one_line_error(err)


@pytest.mark.parametrize("specials, change, says", [
    (("<|endoftext|>", "<|im_start|>"), None, r"special tokens are \['<\|endoftext\|>', '<\|im_start\|>'\], where "
     r"these files are read with \['<\|endoftext\|>'\]"),
    (("<|endoftext|>",), lambda t: t.add_tokens(["hello"]), r"added tokens \['hello'\] are not stored"),
    (("<|endoftext|>",), lambda t: setattr(t, "pre_tokenizer", ByteLevel(add_prefix_space=True)),
     r"pre-tokenizer is .*'add_prefix_space': True"),
    (("<|endoftext|>",), lambda t: setattr(t, "decoder", None), r"decoder is none"),
    (("<|endoftext|>",), lambda t: setattr(t.model, "dropout", 0.5), r"its model has dropout=0\.5"),
], ids=["special", "added", "prefix-space", "decoder", "dropout"])
def test_a_byte_level_pipeline_the_gpt2_reader_would_change_is_refused(specials: tuple[str, ...], change: Any,
                                                                       says: str, saved, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    tok = byte_bpe(specials)
    if change is not None:
        change(tok)
    code, _, err = run(["convert", str(saved(tok, "bl.json")), str(tmp_path / "out"), "--to", "vocab-merges"], capsys)
    line = one_line_error(err)
    assert code == 1 and "read as GPT-2's byte-level pipeline" in line and "tokenizer.json instead" in line
    assert __import__("re").search(says, line), line
    assert not (tmp_path / "out").exists()


def test_a_byte_level_bpe_converts_to_vocab_merges_and_back_unchanged(saved, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    tok = byte_bpe()
    assert files.reader_options(tok, "vocab-merges") == {}
    code, _, err = run(["convert", str(saved(tok, "bl.json")), str(tmp_path / "vm"), "-q"], capsys)
    assert code == 0, err
    again = load_tokenizer(tmp_path / "vm")
    same_behaviour(again, tok)
    assert again.special_tokens == tok.special_tokens


# ---------------------------------------------------------------------------------------- 2. BERT vocab.txt
@pytest.mark.parametrize("make, says", [
    (lambda: bert(specials=["<unk>", "<s>", "</s>"], unk="<unk>"), "its unknown token is '<unk>', where a vocab.txt is read with '[UNK]'"),
    (lambda: bert(prefix="@@", normalizer=False, pre=WhitespaceSplit(), processor=False),
     "its continuation prefix is '@@', where a vocab.txt is read with '##'"),
    (lambda: bert(pre=WhitespaceSplit()), "this tokenizer's pre-tokenizer is {'type': 'WhitespaceSplit'}, where a vocab.txt is read with {'type': 'BertPreTokenizer'}"),
    (lambda: bert(processor=False), "this tokenizer's post-processor is none, where a vocab.txt is read with {'type': 'BertProcessing'"),
    (lambda: bert(normalizer=False), "this tokenizer's normalizer is none, where a vocab.txt is read with {'type': 'BertNormalizer'"),
    (lambda: bert(specials=["[UNK]", "[PAD]", "[CLS]", "[SEP]", "<extra>"]), "its special tokens are ['<extra>', '[CLS]'"),
], ids=["unk", "prefix", "pre-tokenizer", "post-processor", "normalizer", "specials"])
def test_a_wordpiece_a_vocab_txt_would_read_differently_is_refused(make: Any, says: str, saved, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    source = saved(make(), "wp.json")
    out = tmp_path / "wp.txt"
    out.write_text("previous\n")
    code, stdout, err = run(["convert", str(source), str(out)], capsys)
    line = one_line_error(err)
    assert code == 1 and stdout == ""
    assert line.startswith("tokenizer-toolkit: error: --to vocab-txt: a vocab.txt holds only the tokens and is read as "
                           "BERT's pipeline; ")
    assert says in line and line.endswith("save it as tokenizer.json instead (to_hf_json; --to hf on the command line)")
    assert out.read_text() == "previous\n"  # left intact
    with pytest.raises(SerializationError, match="save_bert_vocab: a vocab.txt holds only the tokens"):
        save_tokenizer(make(), tmp_path / "py.txt", format="vocab-txt", exact=True)
    assert not (tmp_path / "py.txt").exists()


@pytest.mark.parametrize("lowercase", [True, False], ids=["uncased", "cased"])
def test_a_bert_pipeline_converts_to_vocab_txt_and_back_unchanged(lowercase: bool, saved, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    tok = bert(lowercase=lowercase)
    out = tmp_path / "vocab.txt"
    code, _, err = run(["convert", str(saved(tok, "wp.json")), str(out), "-q"], capsys)
    assert code == 0, err
    case = [] if lowercase else ["--cased"]
    assert ("note:" in err and "--cased" in err) == (not lowercase)
    same_behaviour(load_tokenizer(out, lowercase=lowercase), tok)
    code, stdout, err = run(["encode", str(out), PROBES[1], "--format", "json", *case], capsys)
    assert code == 0, err
    encoding = tok.encode(PROBES[1])
    assert json.loads(stdout)["tokens"] == encoding.tokens and json.loads(stdout)["ids"] == encoding.ids
    code, _, err = run(["encode", str(saved(tok, "x.json")), "x", "--cased"], capsys)
    assert code == 2 and "the option lowercase applies to vocab-txt files only" in one_line_error(err)


def test_bert_spelled_as_a_template_and_added_tokens_still_converts(tmp_path: Path) -> None:
    """A Hugging Face BERT file: TemplateProcessing for [CLS] A [SEP], the special tokens also added tokens."""
    tok = bert()
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
                                            special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    tok.to_hf_json(tmp_path / "tokenizer.json")
    hf = Tokenizer.from_hf_json(tmp_path / "tokenizer.json")
    assert files.reader_options(hf, "vocab-txt") == {}
    save_tokenizer(hf, tmp_path / "vocab.txt", format="vocab-txt", exact=True)
    same_behaviour(load_tokenizer(tmp_path / "vocab.txt"), hf)
    tok.post_processor = TemplateProcessing(single="[CLS] $A", pair="[CLS] $A $B:1", special_tokens=[("[CLS]", cls)])
    with pytest.raises(SerializationError, match="post-processor is {'type': 'TemplateProcessing'"):
        files.reader_options(tok, "vocab-txt")


# ---------------------------------------------------------------------------------------- 3. SentencePiece pieces
def nul_unigram() -> Tokenizer:
    tok = Tokenizer(Unigram(), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())
    with pytest.warns(Warning):
        tok.train(["a\x00b c"] * 5, UnigramTrainer(vocab_size=20, unk_token="<unk>", show_progress=False))
    return tok


def test_a_piece_with_a_nul_character_is_refused(saved, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tok = nul_unigram()
    target = tmp_path / "nul.model"
    target.write_bytes(b"previous")
    with pytest.raises(SerializationError, match=r"save_sentencepiece: piece 1 '▁a\\x00b' contains a NUL character, "
                                                 r"which sentencepiece refuses .*tokenizer\.json instead"):
        tok.save_sentencepiece(target)
    assert target.read_bytes() == b"previous"
    code, _, err = run(["convert", str(saved(tok, "nul.json")), str(target)], capsys)
    assert code == 1 and "--to sentencepiece: piece 1 '▁a\\x00b' contains a NUL character" in one_line_error(err)
    assert target.read_bytes() == b"previous"


def test_a_lone_surrogate_and_a_too_long_piece_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unigram(piece: str) -> Tokenizer:
        model = Unigram([["<unk>", 0.0], ["▁a", -1.0], [piece, -2.0]], unk_id=0)
        return Tokenizer(model, pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())

    with pytest.raises(SerializationError, match=r"piece 2 '\\ud800' holds a lone surrogate .*not UTF-8"):
        unigram("\ud800").save_sentencepiece(tmp_path / "s.model")
    monkeypatch.setattr(limits, "MAX_TOKEN_LENGTH", 10_000)
    with pytest.raises(SerializationError, match=r"piece 2 'éééé.* is 8000 UTF-8 bytes long; sentencepiece refuses "
                                                 r"pieces of 8000 bytes or more"):
        unigram("é" * 4000).save_sentencepiece(tmp_path / "l.model")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    unigram("é" * 3999).save_sentencepiece(tmp_path / "ok.model")  # 7998 bytes: sentencepiece loads it


def test_added_tokens_a_model_file_cannot_hold_are_refused_by_convert(saved, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A ``.model`` holds only the model's pieces: ``convert`` (``exact=True``) refuses a pipeline whose added
    tokens are not among them (written, ``[CLS]`` came back as ``<unk>`` and its id was gone), and writes
    nothing; added tokens that are pieces of the model convert."""
    def unigram(*added: str) -> Tokenizer:
        tok = Tokenizer(Unigram([("<unk>", 0.0), ("▁a", -1.0), ("C", -2.0)], unk_id=0), pre_tokenizer=Metaspace(),
                        decoder=decoders.Metaspace())
        tok.add_special_tokens(list(added))
        return tok

    target = tmp_path / "out.model"
    with pytest.raises(SerializationError, match=r"save_sentencepiece: the added token\(s\) '\[CLS\]' are not pieces "
                                                 r"of the model.*tokenizer\.json instead"):
        save_tokenizer(unigram("[CLS]"), target, format="sentencepiece", exact=True)
    code, _, err = run(["convert", str(saved(unigram("[CLS]"), "cls.json")), str(target)], capsys)
    assert code == 1 and "'[CLS]' are not pieces of the model" in one_line_error(err)
    assert not target.exists()
    tok = unigram("C")  # a piece of the model: the file gives it back
    save_tokenizer(tok, target, format="sentencepiece", exact=True)
    assert load_tokenizer(target).encode_ids("a C") == tok.encode_ids("a C")


def test_sentencepiece_refuses_what_we_refuse_and_loads_what_we_write(tmp_path: Path) -> None:
    spm = require("sentencepiece")
    from toolkit.interop.spm_proto import NORMAL, UNIGRAM, UNKNOWN, ModelProto, Piece, serialize_model

    for piece, says in (("x\x00y", "null character"), ("", "must not be empty"), ("x" * 8000, "too long")):
        proto = ModelProto(pieces=[Piece("<unk>", 0.0, UNKNOWN), Piece("▁a", -1.0, NORMAL), Piece(piece, -2.0, NORMAL)])
        proto.trainer_spec.set("model_type", UNIGRAM)
        with pytest.raises(Exception, match=says):  # the check is needed: sentencepiece itself refuses these
            spm.SentencePieceProcessor(model_proto=serialize_model(proto))
    tok = Tokenizer(Unigram(), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())
    tok.train(TEXT, UnigramTrainer(vocab_size=80, unk_token="<unk>", show_progress=False))
    tok.save_sentencepiece(tmp_path / "ok.model")
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "ok.model"))
    again = load_tokenizer(tmp_path / "ok.model")
    for text in TEXT[:3]:
        assert sp.encode(text) == tok.encode_ids(text) == again.encode_ids(text), text


# ---------------------------------------------------------------------------------------- 4. transformers templates
def chat() -> Tokenizer:
    from algorithms import ByteLevelBPETrainer

    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel())
    return tok.train(TEXT, ByteLevelBPETrainer(vocab_size=300, special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
                                               show_progress=False))


@pytest.mark.parametrize("config, field", [
    ({"added_tokens_decoder": {"0": {"content": ["x"]}}}, "added_tokens_decoder['0'].content is [\"x\"]"),
    ({"added_tokens_decoder": {}, "additional_special_tokens": [{"content": ["x"]}]},
     "additional_special_tokens[0].content is [\"x\"]"),
    ({"additional_special_tokens": [["x"]]}, "additional_special_tokens[0] is [\"x\"], where transformers expects a token"),
    ({"added_tokens_decoder": ["x"]}, "added_tokens_decoder is [\"x\"]"),
    ({"added_tokens_decoder": {"zero": {"content": "x"}}}, "added_tokens_decoder key 'zero'"),
    ({"added_tokens_decoder": {"0": {"content": "x", "special": "yes"}}}, "added_tokens_decoder['0'].special is \"yes\""),
    ({"eos_token": {"content": 5}}, "eos_token.content is 5"),
    ({"extra_special_tokens": {"image_token": ["<img>"]}}, "extra_special_tokens['image_token'] is [\"<img>\"]"),
    ({"padding_side": 5}, "padding_side is 5, where transformers expects \"left\" or \"right\""),
    ({"chat_template": [1]}, "chat_template is [1]"),
    ({"model_input_names": "input_ids"}, "model_input_names is \"input_ids\""),
], ids=["decoder-content", "additional-content", "additional-list", "decoder-list", "decoder-key", "decoder-flag",
        "role-content", "extra-dict", "padding-side", "chat-template", "input-names"])
def test_a_malformed_template_names_the_field(config: dict[str, Any], field: str, saved, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    template = tmp_path / "tpl" / "bad"
    template.mkdir(parents=True)
    (template / "tokenizer_config.json").write_text(json.dumps(config))
    source = saved(chat(), "chat.json")
    code, _, err = run(["convert", str(source), str(tmp_path / "out"), "--to", "transformers", "--template", str(template)],
                       capsys)
    line = one_line_error(err)
    assert code == 1 and f"{template / 'tokenizer_config.json'}: {field}" in line, line
    assert "correct the file, or give another --template" in line and "internal error" not in line
    assert not (tmp_path / "out").exists()
    with pytest.raises(SerializationError, match="where transformers expects"):
        chat().save_pretrained(tmp_path / "py", template=template)
    assert not (tmp_path / "py").exists()
    # the same file picked up beside the input
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config))
    code, _, err = run(["convert", str(source), str(tmp_path / "out2"), "--to", "transformers"], capsys)
    assert code == 1 and f"{tmp_path / 'tokenizer_config.json'}: {field}" in one_line_error(err)
    assert not (tmp_path / "out2").exists()


def test_a_well_formed_template_is_carried_over(saved, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tok = chat()
    config = {
        "added_tokens_decoder": {str(tok.token_to_id("<|endoftext|>")): {
            "content": "<|endoftext|>", "lstrip": False, "normalized": False, "rstrip": False, "single_word": False,
            "special": True}},
        "additional_special_tokens": [{"content": "<|im_start|>"}], "extra_special_tokens": {"end": "<|im_end|>"},
        "eos_token": {"__type": "AddedToken", "content": "<|im_end|>"}, "padding_side": "left",
        "chat_template": [{"name": "default", "template": "{{ messages }}"}], "model_max_length": 1e30,
        "model_input_names": ["input_ids", "attention_mask"], "legacy": None,
    }
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config))
    code, _, err = run(["convert", str(saved(tok, "chat.json")), str(tmp_path / "out"), "--to", "transformers", "-q"], capsys)
    assert code == 0, err
    written = json.loads((tmp_path / "out" / "tokenizer_config.json").read_text())
    assert written["eos_token"] == "<|im_end|>" and written["padding_side"] == "left"
    same_behaviour(load_tokenizer(tmp_path / "out"), tok)
