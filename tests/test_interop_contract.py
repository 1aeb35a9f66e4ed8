"""File writers and readers against hostile cases a review found: a writer never deletes what it did
not write, never leaves a file or folder behind when it fails, keeps permissions; a reader checks an
added token's id against the model (HF files and ours), reports malformed entries as typed errors, and
reads back what our exporters write (a Unigram pipeline with added tokens)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from algorithms import ByteLevelBPE, Unigram, WordPiece
from conftest import require
from pretokenizers import ByteLevel, Metaspace
from toolkit import Tokenizer
from toolkit.cli.main import main
from toolkit.errors import SerializationError, VocabularyError
from toolkit.interop.files import save_tokenizer
from toolkit.normalizers import Sequence, Strip


def _byte_level() -> Tokenizer:
    return Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False))


def test_a_folder_where_a_file_goes_is_an_error_and_stays_intact(tmp_path: Path) -> None:
    for fmt, name in (("vocab-merges", "vocab.json"), ("transformers", "tokenizer.json")):
        out = tmp_path / fmt
        (out / name).mkdir(parents=True)
        (out / name / "important.txt").write_text("precious")
        with pytest.raises(SerializationError, match=f"{name}: it is a folder, not a regular file"):
            save_tokenizer(_byte_level(), out, format=fmt)
        assert (out / name / "important.txt").read_text() == "precious"
        assert sorted(p.name for p in out.iterdir()) == [name]  # nothing else written, no staging left


def test_replaced_files_keep_their_permissions(tmp_path: Path) -> None:
    (tmp_path / "vocab.json").write_text("{}")
    os.chmod(tmp_path / "vocab.json", 0o600)
    _byte_level().save_vocab_merges(tmp_path)
    assert stat.S_IMODE(os.stat(tmp_path / "vocab.json").st_mode) == 0o600
    assert len(json.loads((tmp_path / "vocab.json").read_text())) == 256


def test_a_folder_that_cannot_be_made_is_a_typed_error_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(SerializationError, match="cannot write into this folder"):
        save_tokenizer(_byte_level(), tmp_path / "file" / "sub", format="vocab-merges")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_failed_convert_leaves_no_file_and_no_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "prefix.json"
    Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=True)).save(source)
    code = main(["convert", str(source), str(tmp_path / "a" / "b" / "out.tiktoken")])
    assert code == 1 and "no tiktoken split pattern" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prefix.json"]
    with pytest.raises(Exception, match="no tiktoken split pattern"):
        Tokenizer.load(source).save_tiktoken(tmp_path / "x.tiktoken")
    assert not (tmp_path / "x.tiktoken").exists()


_VOCAB = {"[UNK]": 0, "a": 1, "b": 2}


def _document(added: list) -> dict:
    base = Tokenizer(WordPiece(_VOCAB, special_tokens=["[UNK]"])).to_dict()
    return {**base, "added_tokens": added}


@pytest.mark.parametrize(("added", "message"), [
    ([{"id": 1, "content": "zzz"}], "'zzz' has id 1, which the model vocabulary gives to 'a'"),
    ([{"id": 5, "content": "a", "special": True}], "'a' has id 5 but the model vocabulary gives it 1"),
    ([{"id": 2**40, "content": "zzz"}], "must be an integer from 0 to 2147483647"),
    ([{"id": 3, "content": "zz"}, {"id": 4, "content": "zz"}], "'zz' is listed twice, with ids 3 and 4"),
])
def test_added_token_ids_must_agree_with_the_model(added: list, message: str, tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match=message):
        Tokenizer.from_dict(_document(added))
    hf = Tokenizer(WordPiece(_VOCAB, special_tokens=["[UNK]"])).to_hf_json(tmp_path / "t.json") or json.loads(
        (tmp_path / "t.json").read_text())
    (tmp_path / "t.json").write_text(json.dumps({**hf, "added_tokens": [
        {"special": False, "single_word": False, "lstrip": False, "rstrip": False, "normalized": True, **a}
        for a in added]}))
    with pytest.raises(SerializationError, match=message):
        Tokenizer.from_hf_json(tmp_path / "t.json")
    fine = Tokenizer.from_dict(_document([{"id": 3, "content": "zzz"}, {"id": 1, "content": "a"}]))
    assert fine.encode("zzz").ids == [3] and fine.encode("a").ids == [1]


def test_a_unigram_pipeline_with_added_tokens_reads_back_from_its_hf_export(tmp_path: Path) -> None:
    tokenizers = require("tokenizers")
    tok = Tokenizer(Unigram([("<unk>", 0.0), ("▁a", -1.0), ("b", -2.0), ("▁", -3.0)], unk_id=0),
                    pre_tokenizer=Metaspace())
    tok.add_special_tokens(["<sp>"])
    tok.add_tokens(["zz"])
    tok.to_hf_json(tmp_path / "t.json")
    again = Tokenizer.from_hf_json(tmp_path / "t.json")
    theirs = tokenizers.Tokenizer.from_file(str(tmp_path / "t.json"))
    for text in ("a b<sp>zz a", "ab zz"):
        assert again.encode(text, allowed_special="all").ids == theirs.encode(text).ids == tok.encode(
            text, allowed_special="all").ids


@pytest.mark.parametrize("entry", [5, {"a": 1}, []])
def test_a_malformed_unigram_piece_under_an_added_token_is_a_typed_error(entry: object, tmp_path: Path) -> None:
    doc = {"version": "1.0", "added_tokens": [{"id": 0, "content": "<unk>", "special": True}],
           "model": {"type": "Unigram", "unk_id": 0, "vocab": [entry]}}
    (tmp_path / "t.json").write_text(json.dumps(doc))
    with pytest.raises(SerializationError):
        Tokenizer.from_hf_json(tmp_path / "t.json")


def test_a_tiktoken_rank_with_thousands_of_digits_is_a_typed_error(tmp_path: Path) -> None:
    import base64

    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)] + ["YWI= " + "9" * 5000]
    (tmp_path / "huge.tiktoken").write_text("\n".join(lines) + "\n")
    with pytest.raises(VocabularyError, match="larger than any token id"):
        Tokenizer.from_tiktoken(tmp_path / "huge.tiktoken")


def test_save_sentencepiece_refuses_a_strip_it_cannot_express(tmp_path: Path) -> None:
    tok = Tokenizer(Unigram([("<unk>", 0.0), ("▁a", -1.0)], unk_id=0), normalizer=Sequence([Strip()]),
                    pre_tokenizer=Metaspace())
    with pytest.raises(SerializationError, match="strips the ends of the text"):
        tok.save_sentencepiece(tmp_path / "t.model")
    assert not (tmp_path / "t.model").exists()


def test_metadata_that_no_file_could_hold_is_refused_before_writing(tmp_path: Path) -> None:
    tok = _byte_level()
    tok.metadata = {"x": object()}
    with pytest.raises(SerializationError, match="metadata may hold JSON values only"):
        tok.save(tmp_path / "t.json")
    deep: dict = {}
    tok.metadata = deep
    for _ in range(63):
        deep["k"] = deep = {}
    with pytest.raises(SerializationError, match="metadata: nested more than 63 levels deep"):
        tok.save(tmp_path / "t.json")
    assert not (tmp_path / "t.json").exists()


# Oniguruma's classes: nested classes are unions, && intersects (the loosest operator; an empty side is
# the empty set), \H inside a class is "not a hex digit", \N inside a class the letter N.
_ONIGURUMA_CLASSES = [
    r"[a[bc]]+", r"[^a[bc]]+", r"[a-z&&[^aeiou]]+", r"[^a-z&&[^aeiou]]+", r"[\H]+", r"[x\H]+", r"[\N]+",
    r"[[:alpha:]]+", r"[a-c&&b-z&&[^c]]+", r"[[^a-c]x]+", r"[[a][b]]+", r"[a-z&&]+", r"[&&a]+", r"[^[a]b]+",
    r"[a-c[x-z]&&[^b]]+", r"[\h[x]]+", r"[]a]+", r"[^]a]+", r"[a-]+", r"[\p{L}&&[^a-z]]+", r"[^\p{L}&&\p{Lu}]+",
    r"[[^a]&&[^b]]+", r"[^[^a]]+", r"[\w&&[^\d_]]+", r"[^[:alpha:]&&[^\s]]+", r"x[^\H]y", r"(?i)[a-c&&[^b]]+",
    r"[^a]|[^b]", r"(?:[^a]|[^\n])+", r"[[^a][^b]]+",  # regex's own misreading of "[^a]|[^b]", worked around
]


@pytest.mark.parametrize("pattern", [r"\h+", r"\H+", r"\N+", r"[\h_]+", r"^\w+", r"\w+$", r"(?m)^a", r"^$",
                                     *_ONIGURUMA_CLASSES])
def test_split_reads_a_regex_as_hfs_oniguruma_does(pattern: str) -> None:
    from pretokenizers import Split
    from toolkit import Regex

    tokenizers = require("tokenizers")
    texts = ("ab1F \t\nxyz&_\na", "\n\nq\n", "DEADbeef 0x1f", "abc]xyz[e] aeiouBCD_12\n\t-&éN\\",
             "".join(map(chr, range(0x250))))
    for behavior in ("isolated", "removed"):  # removed: what matched is gone, so the match sets must agree
        hf = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior)
        for text in texts:
            assert Split(Regex(pattern), behavior).split_text(text) == [p for p, _ in hf.pre_tokenize_str(text)]


# Oniguruma's (Ruby syntax) inline "m" is dot-all; \Z also matches before a final newline; \b, \B and
# \p{Word} use its word characters (no joiners, ² ³ ¹ outside a class); \x{...}, \e and \cX escapes.
_ONIGURUMA_DIALECT = [
    r"(?m).", r"(?m:a.)", r"(?im)A.", r"(?i-m)A.", r"\Z", r"\s\Z", r"\b", r"\B", r"\bfoo\b", r"\p{Word}+",
    r"[\p{Word}]+", r"\x{263a}", r"[\x{263a}b]+", r"\x{1F600}", r"\e", r"\cA", r"[\cA-\cZ]+", r"\x41", r"(?x) a b ",
]


@pytest.mark.parametrize("pattern", _ONIGURUMA_DIALECT)
def test_oniguruma_flags_anchors_and_escapes_read_as_hf_reads_them(pattern: str) -> None:
    from pretokenizers import Split
    from toolkit import Regex
    from toolkit.normalizers import Replace

    tokenizers = require("tokenizers")
    texts = ("a\nb", "ab\n", "ab \n", "x\u200dy ² foo foobar afoo", "a☺b😀\x1b\x01\x02A", " ab  c ",
             "".join(map(chr, range(0x250))))
    hf_replace = tokenizers.normalizers.Replace(tokenizers.Regex(pattern), "|")
    hf_split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), "removed")
    for text in texts:
        assert Replace(Regex(pattern), "|").normalize_str(text) == hf_replace.normalize_str(text), text
        assert Split(Regex(pattern), "removed").split_text(text) == [p for p, _ in hf_split.pre_tokenize_str(text)]


def test_a_range_up_to_a_class_is_refused() -> None:
    from toolkit import Regex
    from toolkit.errors import ConfigError

    with pytest.raises(ConfigError, match=r"a range up to a character class \(a-\[\.\.\.\).*escape the dash"):
        Regex(r"[a-[bc]]")
    assert Regex(r"[a\-[bc]]").compiled.findall("a-bcd") == ["a", "-", "b", "c"]  # escaped: a literal dash


def test_replace_reads_oniguruma_classes_as_hf_does() -> None:
    from toolkit import Regex
    from toolkit.normalizers import Replace

    tokenizers = require("tokenizers")
    text = "".join(map(chr, range(0x180)))
    for pattern in _ONIGURUMA_CLASSES:
        hf = tokenizers.normalizers.Replace(tokenizers.Regex(pattern), "<>")
        assert Replace(Regex(pattern), "<>").normalize_str(text) == hf.normalize_str(text), pattern


def test_case_insensitive_regexes_fold_fully_as_oniguruma() -> None:
    from toolkit import Regex
    from toolkit.normalizers import Replace

    tokenizers = require("tokenizers")
    text = "ß ẞ ss SS ﬁ fi FI ǰ k K \u212a"
    for pattern in (r"(?i)ss", r"(?i)ß", r"(?i)fi", r"(?i)ﬁ", r"(?i)[ß]", r"(?i)k"):
        hf = tokenizers.normalizers.Replace(tokenizers.Regex(pattern), "|")
        assert Replace(Regex(pattern), "|").normalize_str(text) == hf.normalize_str(text), pattern


def test_word_class_is_oniguruma_s_on_every_assigned_code_point() -> None:
    """Oniguruma's \\w: no ZWNJ/ZWJ; outside a class also ² ³ ¹ ¼ ½ ¾ (regex's \\w differs on both)."""
    import unicodedata

    from pretokenizers import Split
    from toolkit import Regex

    tokenizers = require("tokenizers")
    text = "".join(chr(c) for c in range(0x110000)
                   if not 0xD800 <= c <= 0xDFFF and unicodedata.category(chr(c)) != "Cn")
    for pattern in (r"\w+", r"\W+", r"[\w-]+", r"[^\w]+", r"[\W\d]+", r"\w+|[^\w\s]+"):
        hf = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), "removed")
        assert Split(Regex(pattern), "removed").split_text(text) == [p for p, _ in hf.pre_tokenize_str(text)], pattern
