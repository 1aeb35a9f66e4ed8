"""Reliability, round two (issue 18): each attack that got through, as a test that failed before its fix.

The item number of the issue is in each test's name; docs/robustness.md lists them with their figures.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

import toolkit.limits as limits
from algorithms import BPETrainer, ByteLevelBPETrainer, WordPiece, WordPieceTrainer
from algorithms.reference.encoders import reference_wordpiece
from pretokenizers import Split, Whitespace
from toolkit import Tokenizer
from toolkit.errors import ConfigError, CorpusError, InputError, SerializationError, VocabularyError
from toolkit.interop._io import read_bytes
from toolkit.interop.hf_json import load_hf_json
from toolkit.normalizers import NFKC, Replace, Sequence
from toolkit.normalizers.patterns import Regex
from toolkit.processors import BertProcessing, TemplateProcessing
from toolkit.training import reading
from toolkit.training.corpus import count_corpus
from toolkit.training.reading import Corpus

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _doc(**parts: Any) -> str:
    model = {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 1, "[CLS]": 2, "[SEP]": 3}}
    return json.dumps({"format": "tokenizer-toolkit", "version": 1, "model": model, **parts})


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 1000)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 4096)


# ----------------------------------------------------------------------------------------------- 1
@pytest.mark.parametrize("timeout", ["100000", "1e9", True, [5], {"s": 5}])
def test_1_string_timeout_in_a_file_is_refused(timeout: Any) -> None:
    doc = _doc(pre_tokenizer={"type": "Split", "pattern": "(a+)+$", "timeout": timeout})
    with pytest.raises(SerializationError, match="timeout"):
        Tokenizer.from_json(doc)


def test_1_the_guard_sees_the_value_that_is_used() -> None:
    split = Split(Regex("(a+)+$"))
    with pytest.raises(ConfigError, match="timeout"):
        split.timeout = "100000"  # type: ignore[assignment]
    assert split.timeout == limits.REGEX_TIMEOUT
    with pytest.raises(SerializationError, match="MAX_REGEX_TIMEOUT"):
        Tokenizer.from_json(_doc(pre_tokenizer={"type": "Split", "pattern": "(a+)+$", "timeout": 100000}))


# ----------------------------------------------------------------------------------------------- 2
BOMBS = ["(?:a{65535}){65535}", "((a{400}){400})", "a{60000}b{60000}", "(?:(?:x{100}){100}){100}"]


@pytest.mark.parametrize("pattern", BOMBS)
def test_2_compiling_a_regex_bomb_is_a_typed_error(pattern: str) -> None:
    with pytest.raises(ConfigError, match="MAX_REGEX_REPEAT"):
        Split(Regex(pattern))
    with pytest.raises(ConfigError, match="MAX_REGEX_REPEAT"):
        Replace(Regex(pattern), "")
    with pytest.raises(SerializationError, match="MAX_REGEX_REPEAT"):
        Tokenizer.from_json(_doc(pre_tokenizer={"type": "Split", "pattern": pattern}))
    with pytest.raises(SerializationError, match="MAX_REGEX_REPEAT"):
        Tokenizer.from_json(_doc(normalizer={"type": "Replace", "pattern": {"Regex": pattern}, "content": ""}))


@pytest.mark.parametrize("pattern", [r"\p{N}{1,3}", "a{3}", "(?:ab{2,5}){100}", "[{}]{9}", r"\p{L}{2}", "a{,5}", "{"])
def test_2_ordinary_counted_patterns_still_compile(pattern: str) -> None:
    Split(Regex(pattern)).split_text("123 aaa {}")
    Replace(Regex(pattern), "-").normalize_str("123 aaa {}")


# ----------------------------------------------------------------------------------------------- 3, 5
def test_3_replace_cannot_multiply_the_text_past_the_limit(small_limits: None) -> None:
    tok = Tokenizer(WordPiece({"[UNK]": 0, "x": 1}), normalizer=Replace("a", "x" * 10_000), pre_tokenizer=Whitespace())
    for call in (tok.encode, tok.encode_ids):
        with pytest.raises(InputError, match="MAX_INPUT_CHARS"):
            call("a a")
    tok.normalizer = Replace(Regex("a"), "x" * 600)
    with pytest.raises(InputError, match="normalized text would have 1,201 characters"):
        tok.encode("a a")
    assert tok.encode_ids("a") == [0]  # 600 characters: within the limit


@pytest.mark.parametrize("form", ["NFKC", "NFKD"])
def test_5_nfkc_expansion_is_bounded_after_normalization(small_limits: None, form: str) -> None:
    from toolkit import normalizers

    text = "\ufdfa" * 60  # 60 characters, 1,080 after NFKC
    tok = Tokenizer(WordPiece({"[UNK]": 0}), normalizer=getattr(normalizers, form)(), pre_tokenizer=Whitespace())
    for call in (tok.encode, tok.encode_ids):
        with pytest.raises(InputError, match="after normalization"):
            call(text)
    with pytest.raises(InputError):
        Sequence([NFKC()]).normalize_str(text)
    assert set(tok.encode_ids("\ufdfa" * 50)) == {0}  # 900 characters: within the limit


def test_5_other_expanding_normalizers_are_bounded(small_limits: None) -> None:
    from toolkit.normalizers import BertNormalizer, Lowercase, Prepend

    with pytest.raises(InputError):
        BertNormalizer().normalize_str("中" * 400)  # 3 characters each
    with pytest.raises(InputError):
        Lowercase().normalize_str("\u0130" * 600)  # İ -> i + U+0307
    with pytest.raises(InputError):
        Prepend("x" * 600).normalize_str("y" * 500)


# ----------------------------------------------------------------------------------------------- 4
def test_4_max_input_chars_per_word_is_bounded() -> None:
    with pytest.raises(ConfigError, match="max_input_chars_per_word"):
        WordPiece({"[UNK]": 0}, max_input_chars_per_word=10**9)
    wp = WordPiece({"[UNK]": 0})
    with pytest.raises(ConfigError):
        wp.max_input_chars_per_word = 10_001


class _CountingDict(dict):  # type: ignore[type-arg]
    lookups = 0

    def get(self, key: Any, default: Any = None) -> Any:
        _CountingDict.lookups += 1
        return super().get(key, default)


def test_4_longest_match_cost_does_not_grow_with_the_longest_token() -> None:
    vocab = {"[UNK]": 0, "a": 1, "##b": 2, "##" + "c" * 1000: 3, "##cc": 4, "##c": 5}
    wp = WordPiece(vocab, max_input_chars_per_word=5000)
    wp._words, wp._cont = _CountingDict(wp._words), _CountingDict(wp._cont)
    for word in ["a" + "b" * 1500, "a" + "bc" * 750, "a" + "c" * 1499]:  # the long token fits, with room around it
        _CountingDict.lookups = 0
        ids = list(wp._encode_piece(word))
        assert ids == reference_wordpiece(word, vocab, max_input_chars_per_word=5000)
        assert [t for t, _, _ in wp.tokenize(word)] == ids
        # Four token lengths exist (1, 2, 3, 1002 with the prefix): at most a few look-ups a position.
        assert _CountingDict.lookups <= 2 * 4 * len(word), _CountingDict.lookups


# ----------------------------------------------------------------------------------------------- 6
def _fifo_with(tmp_path: Path, data: bytes) -> Path:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def writer() -> None:
        try:
            with open(fifo, "wb") as fh:
                fh.write(data)
        except BrokenPipeError:
            pass

    threading.Thread(target=writer, daemon=True).start()
    return fifo


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_6_a_fifo_cannot_bypass_the_file_size_limit(tmp_path: Path, small_limits: None) -> None:
    with pytest.raises(SerializationError, match="more than 4,096 bytes"):
        read_bytes(_fifo_with(tmp_path, b" " * 10_000))
    os.unlink(tmp_path / "pipe.json")
    with pytest.raises(SerializationError, match="more than 4,096 bytes"):
        load_hf_json(_fifo_with(tmp_path, b" " * 10_000))
    os.unlink(tmp_path / "pipe.json")
    with pytest.raises(SerializationError, match="more than 4,096 bytes"):
        WordPiece.read_vocab_file(_fifo_with(tmp_path, b"a\n" * 5_000))


def test_6_dev_zero_is_refused_without_reading_it_all(small_limits: None) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(SerializationError, match="MAX_FILE_BYTES"):
        read_bytes("/dev/zero")
    with pytest.raises(SerializationError, match="MAX_FILE_BYTES"):
        WordPiece.read_vocab_file("/dev/zero")


# ----------------------------------------------------------------------------------------------- 7
class _CountingBytes(bytes):
    """Blocks of a long line; counts the bytes copied by ``carry + block`` concatenations."""

    copied = 0

    def __add__(self, other: Any) -> bytes:
        _CountingBytes.copied += len(self) + len(other)
        return bytes(self) + bytes(other)

    def __radd__(self, other: Any) -> bytes:
        _CountingBytes.copied += len(self) + len(other)
        return bytes(other) + bytes(self)


class _CountingReader:
    def __init__(self, fh: Any) -> None:
        self._fh = fh

    def read(self, n: int = -1) -> bytes:
        return _CountingBytes(self._fh.read(n))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fh, name)

    def __enter__(self) -> _CountingReader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._fh.close()


def test_7_one_long_line_is_read_in_linear_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    size = 1 << 20
    path = tmp_path / "long.txt"
    path.write_bytes(b"ab " * (size // 3) + b"\nlast line\n")
    monkeypatch.setattr(reading, "_BLOCK", 4096)  # 256 blocks for the one line
    opened = reading._open_checked
    monkeypatch.setattr(reading, "_open_checked", lambda f: _CountingReader(opened(f)))
    _CountingBytes.copied = 0
    texts = list(Corpus(sources=[path]).iter_texts())
    assert texts == ["ab " * (size // 3) + "\n", "last line\n"]
    # Quadratic carry-over copies the line once per block (about 128 MB here); linear: at most twice.
    assert _CountingBytes.copied <= 2 * path.stat().st_size, _CountingBytes.copied


# ----------------------------------------------------------------------------------------------- 8
def test_8_num_workers_is_capped_at_the_useful_number(tmp_path: Path) -> None:
    paths = []
    for i in range(3):  # three files: three tasks
        paths.append(tmp_path / f"c{i}.txt")
        paths[-1].write_text("to be or not\n" * 100, encoding="utf-8")
    result = count_corpus([str(p) for p in paths], pre_tokenizer=Whitespace(), num_workers=40)
    assert 1 <= result.workers <= min(3, reading.default_num_workers())  # not 40 processes for 3 tasks
    assert result.counts["to"] == 300


# ----------------------------------------------------------------------------------------------- 9
def _nested(depth: int) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "Lowercase"}
    for _ in range(depth):
        d = {"type": "Sequence", "normalizers": [d]}
    return d


def test_9_deeply_nested_sequences_are_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="MAX_NESTING_DEPTH"):
        Tokenizer.from_json(_doc(normalizer=_nested(400)))
    with pytest.raises(SerializationError, match="MAX_NESTING_DEPTH"):
        Tokenizer.from_dict(json.loads(_doc(normalizer=_nested(400))))
    hf = {
        "version": "1.0", "added_tokens": [], "normalizer": _nested(400), "pre_tokenizer": None,
        "post_processor": None, "decoder": None, "truncation": None, "padding": None,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0}},
    }
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(hf), encoding="utf-8")
    with pytest.raises(SerializationError, match="MAX_NESTING_DEPTH"):
        load_hf_json(path)
    assert Tokenizer.from_json(_doc(normalizer=_nested(20))).encode_ids("A") == [1]  # within the bound


# ----------------------------------------------------------------------------------------------- 10
@pytest.mark.parametrize(
    "line, message",
    [
        ('{"text": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"text": "a", "n": ' + "9" * 5000 + "}", "digits"),
        ('{"text": "a\\ud800b"}', "lone surrogate"),
    ],
)
def test_10_hostile_jsonl_lines_are_corpus_errors(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"text": "fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        list(Corpus(sources=[path]).iter_texts())


def test_10_errors_replace_substitutes_lone_surrogates(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"text": "a\\ud800b\\udc00"}\n{"text": "\\ud83d\\ude00"}\n', encoding="utf-8")
    assert list(Corpus(sources=[path], errors="replace").iter_texts()) == ["a\ufffdb\ufffd", "\U0001f600"]


# ----------------------------------------------------------------------------------------------- 11
@pytest.mark.parametrize(
    "make",
    [
        lambda: BPETrainer(special_tokens=[""]),
        lambda: BPETrainer(unk_token=""),
        lambda: BPETrainer(continuing_subword_prefix="#" * 1024),
        lambda: BPETrainer(continuing_subword_prefix="#" * 600, end_of_word_suffix="$" * 424),
        lambda: BPETrainer(special_tokens=["<\ud800>"]),
        lambda: BPETrainer(initial_alphabet=["\udc80"]),
        lambda: WordPieceTrainer(special_tokens=["[UNK]", "\ud800"]),
        lambda: WordPieceTrainer(continuing_subword_prefix="#" * 1024),
        lambda: WordPieceTrainer(initial_alphabet=["\ud800"]),
        lambda: ByteLevelBPETrainer(special_tokens=["\udfff"]),
    ],
)
def test_11_trainer_options_the_loader_would_refuse(make: Any) -> None:
    with pytest.raises(ConfigError):
        make()


def test_11_a_trained_model_always_loads_again(tmp_path: Path) -> None:
    words = {"hello": 5, "world": 3, "help": 2}
    for trainer in (
        BPETrainer(vocab_size=40, continuing_subword_prefix="#" * 1023, special_tokens=["[UNK]"], unk_token="[UNK]"),
        WordPieceTrainer(vocab_size=40, continuing_subword_prefix="#" * 1023, special_tokens=["[UNK]"]),
    ):
        tok = Tokenizer(trainer.train(words), pre_tokenizer=Whitespace())
        tok.save(tmp_path / "t.json")
        assert Tokenizer.load(tmp_path / "t.json").encode_ids("hello world") == tok.encode_ids("hello world")


def test_11_the_loader_refuses_a_lone_surrogate_token() -> None:
    doc = json.loads(_doc())
    doc["model"]["vocab"]["\ud800"] = 9
    with pytest.raises(SerializationError, match="lone surrogate"):
        Tokenizer.from_dict(doc)
    with pytest.raises(VocabularyError, match="lone surrogate"):
        WordPiece({"[UNK]": 0, "x\udc00": 1})


# ----------------------------------------------------------------------------------------------- 12
def test_12_post_processor_ids_are_bounded() -> None:
    with pytest.raises(ConfigError, match="MAX_TOKEN_ID"):
        BertProcessing(sep=("[SEP]", 10**30), cls=("[CLS]", 1))
    with pytest.raises(ConfigError, match="MAX_TOKEN_ID"):
        TemplateProcessing(single="[CLS] $A", special_tokens=[("[CLS]", 2**31)])
    big = {"type": "BertProcessing", "sep": ["[SEP]", 10**30], "cls": ["[CLS]", 2]}
    with pytest.raises(SerializationError, match="MAX_TOKEN_ID"):
        Tokenizer.from_json(_doc(post_processor=big))
    template = {
        "type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                                                 {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 2**40}}],
        "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}},
    }
    with pytest.raises(SerializationError):
        Tokenizer.from_json(_doc(post_processor=template))  # a type id beyond 32 bits
    assert BertProcessing(sep=("[SEP]", limits.MAX_TOKEN_ID), cls=("[CLS]", 0)).sep[1] == limits.MAX_TOKEN_ID


# ----------------------------------------------------------------------------------------------- 14
def test_14_save_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    tok = Tokenizer.from_json(_doc())
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    tok.save(link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert Tokenizer.load(real).model == tok.model
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "new.json")
    tok.save(dangling)
    assert dangling.is_symlink() and Tokenizer.load(tmp_path / "new.json").model == tok.model


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_14_save_refuses_a_fifo_or_a_folder(tmp_path: Path) -> None:
    tok = Tokenizer.from_json(_doc())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SerializationError, match="FIFO"):
        tok.save(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    link = tmp_path / "to-fifo"
    link.symlink_to(fifo)
    with pytest.raises(SerializationError, match="FIFO"):
        tok.save(link)
    with pytest.raises(SerializationError, match="folder"):
        tok.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "to-fifo"]


# ----------------------------------------------------------------------------------------------- 16
def _bert(vocab: dict[str, int]) -> Tokenizer:
    from toolkit.interop.pipelines import bert_tokenizer

    return bert_tokenizer(vocab)


def test_16_nfd_offsets_of_a_precomposed_letter_and_a_mark() -> None:
    tok = _bert({"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "o": 5, "a": 6, "##o": 7, "##b": 8})
    enc = tok.encode("\u00d6\u0301 a\u00d6\u0301b", add_special_tokens=False)
    assert enc.offsets == [(0, 1), (3, 4), (4, 5), (6, 7)]  # as HF: the acute aligns to itself, then goes
    from toolkit.normalizers import NFD

    from toolkit.alignment import NormalizedString

    ns = NFD().normalize(NormalizedString("\u00d6\u0301"))
    assert ns.normalized == "O\u0308\u0301"
    assert [ns.original_span(i, i + 1) for i in range(3)] == [(0, 1), (0, 1), (1, 2)]


def test_16_offsets_match_hugging_face_bert() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    vocab_file = CORPORA / "vocab" / "bert" / "bert-base-uncased-vocab.txt"
    if not vocab_file.exists():
        pytest.skip("shared corpora absent")
    hf = tokenizers.BertWordPieceTokenizer(str(vocab_file), lowercase=True)
    ours = _bert(WordPiece.read_vocab_file(vocab_file))
    texts = ["\u00d6\u0301", "a\u00d6\u0301b c", "\u00e9\u0301x", "\u00d6\u0301\u00d6\u0301", "\u1eab\u0323", "Å\u0327\u0301 nai\u0308ve"]
    for text in texts:
        h, o = hf.encode(text, add_special_tokens=False), ours.encode(text, add_special_tokens=False)
        assert (o.ids, o.offsets) == (h.ids, h.offsets), text


# ----------------------------------------------------------------------------------------------- 20
def test_20_disk_full_names_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.serialization as serialization

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(serialization.os, "fsync", full)
    target = tmp_path / "tok.json"
    with pytest.raises(SerializationError, match=f"cannot write {target}: No space left"):
        Tokenizer.from_json(_doc()).save(target)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores permissions")
def test_20_read_only_folder_names_the_output_not_the_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(SerializationError) as info:
            Tokenizer.from_json(_doc()).save(folder / "tok.json")
    finally:
        folder.chmod(0o700)
    message = str(info.value)
    assert str(folder / "tok.json") in message and ".tmp" not in message and "ermission" in message


def test_20_permission_error_names_the_output_even_as_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    def denied(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / ".tok.json.abc.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(SerializationError, match=f"cannot write {tmp_path / 'tok.json'}: Permission denied") as info:
        Tokenizer.from_json(_doc()).save(tmp_path / "tok.json")
    assert ".tmp" not in str(info.value)


def test_build_refuses_deeply_nested_dicts_with_a_typed_error() -> None:
    """build() on a hand-made 400-deep Sequence dict (not through a file) is a ConfigError, not RecursionError."""
    from toolkit.errors import ConfigError
    from toolkit.interfaces import build

    data: dict = {"type": "Lowercase"}
    for _ in range(400):
        data = {"type": "Sequence", "normalizers": [data]}
    with pytest.raises(ConfigError, match="MAX_NESTING_DEPTH"):
        build("normalizer", data)
    shallow: dict = {"type": "Lowercase"}
    for _ in range(10):
        shallow = {"type": "Sequence", "normalizers": [shallow]}
    assert build("normalizer", shallow).normalize_str("AB") == "ab"


def test_tokenizer_load_reads_with_a_bound(tmp_path, monkeypatch) -> None:
    """Tokenizer.load counts the bytes it reads: a FIFO or a device cannot bypass MAX_FILE_BYTES."""
    import toolkit.limits as L
    from toolkit import SerializationError, Tokenizer

    monkeypatch.setattr(L, "MAX_FILE_BYTES", 4096)
    with pytest.raises(SerializationError, match="MAX_FILE_BYTES"):
        Tokenizer.load("/dev/zero")


# ------------------------------------------------------------------------ found by a later fuzzing review
@pytest.mark.parametrize("where", ["metadata", "normalizer", "decoder"])
def test_a_lone_surrogate_in_any_string_of_a_file_is_refused_at_load(tmp_path: Path, where: str) -> None:
    part = {"metadata": {"note": "x\ud800"}, "normalizer": {"type": "Prepend", "prepend": "\udc00"},
            "decoder": {"type": "WordPiece", "prefix": "\ud800"}}[where]
    path = tmp_path / "t.json"
    path.write_text(_doc(**{where: part}), encoding="utf-8")  # json.dumps writes the "\ud800" escape
    with pytest.raises(SerializationError, match=rf"^{path}: {where}\.\w+: .* holds a lone surrogate \(U\+D[8C]00\)"):
        Tokenizer.load(path)
    path.write_text(_doc(metadata={"note": "\ud83d\ude00"}), encoding="utf-8")  # a pair is one emoji: loads
    assert Tokenizer.load(path).metadata == {"note": "😀"}


def test_a_lone_surrogate_in_a_hf_file_and_a_template_is_refused(tmp_path: Path) -> None:
    from toolkit.interop.transformers import read_template

    hf = {"version": "1.0", "normalizer": {"type": "Prepend", "prepend": "\ud800"}, "model": {
        "type": "WordLevel", "vocab": {"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}}
    (tmp_path / "tokenizer.json").write_text(json.dumps(hf), encoding="utf-8")
    with pytest.raises(SerializationError, match=r"normalizer\.prepend: '\\ud800' holds a lone surrogate"):
        load_hf_json(tmp_path / "tokenizer.json")
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"pad_token": "\udfff"}), encoding="utf-8")
    with pytest.raises(SerializationError, match=r"pad_token: '\\udfff' holds a lone surrogate"):
        read_template(tmp_path)


def test_saving_text_made_with_a_lone_surrogate_is_a_typed_error_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    tok = Tokenizer.from_json(_doc())
    tok.save(path)
    before = path.read_bytes()
    tok.metadata = {"note": "\ud800"}
    with pytest.raises(SerializationError, match=r"cannot write .*t\.json: .* lone surrogate \(U\+D800\)"):
        tok.save(path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["t.json"]


def test_a_lone_surrogate_in_a_key_names_the_dict_holding_it() -> None:
    from toolkit.serialization import parse_json

    with pytest.raises(SerializationError, match=r"^<string>: a key of metadata: '\\ud800' holds a lone surrogate"):
        parse_json('{"metadata": {"\\ud800": 1}}')
    with pytest.raises(SerializationError, match=r"^<string>: a key: '\\udc00'"):
        parse_json('{"\\udc00": 1}')


def test_a_config_with_a_lone_surrogate_is_refused_before_training(tmp_path: Path) -> None:
    from toolkit.training.config import TrainingConfig

    config = {"algorithm": "bpe", "corpus": {"texts": ["low lower"]}, "trainer": {"vocab_size": 20},
              "metadata": {"a": "\ud800"}, "decoder": {"type": "WordPiece", "prefix": "\udc00"}}
    with pytest.raises(ConfigError) as info:
        TrainingConfig.from_dict(config)
    assert "metadata.a: '\\ud800' holds a lone surrogate" in str(info.value)
    assert "decoder.prefix: '\\udc00' holds a lone surrogate" in str(info.value)
    with pytest.raises(ConfigError, match=r"a key of metadata: '\\ud800' holds a lone surrogate"):
        TrainingConfig.from_dict({**config, "metadata": {"\ud800": 1}, "decoder": None})


def test_a_regex_nested_too_deeply_is_a_typed_error() -> None:
    with pytest.raises(ConfigError, match="nests its groups too deeply"):
        Split(Regex("(" * 400 + "a" + ")" * 400), "isolated")
    with pytest.raises(SerializationError, match="nests its groups too deeply"):
        Tokenizer.from_json(_doc(normalizer={"type": "Replace", "pattern": {"Regex": "(" * 400 + ")" * 400}, "content": "x"}))


def test_many_unicode_classes_in_a_pattern_are_bounded() -> None:
    from pretokenizers.pinned import pin

    # the same class repeated inside brackets is written once: the pinned text does not grow
    assert pin("[" + r"\p{L}" * 1000 + "]") == pin(r"[\p{L}]")
    assert Split(Regex("[" + r"\p{L}" * 1000 + r"\p{N}]+"), "isolated").pre_tokenize_str("ab1 c") \
        == [("ab1", (0, 3)), (" ", (3, 4)), ("c", (4, 5))]
    with pytest.raises(ConfigError, match=r"names Unicode classes .* so often .* name each class once"):
        Split(Regex(r"\p{L}" * 400), "isolated")
    assert Split(Regex("(?:" + "|".join([r"\p{L}+'\p{L}+", r"\p{Lu}\p{Ll}+", r"\p{N}+"] * 30) + ")"), "isolated")


def test_the_pinned_length_is_checked_after_the_last_class_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from pretokenizers.pinned import pin

    monkeypatch.setattr(limits, "MAX_PINNED_LENGTH", 20_000)
    assert pin(r"\p{L}x")  # 12,680 characters
    with pytest.raises(ConfigError, match="MAX_PINNED_LENGTH"):
        pin(r"\p{L}[\p{L}\p{N}]")  # 12,680, then 15,638 more in the last element


@pytest.mark.parametrize("field, value, limit", [
    ("length", 10**9, "MAX_INPUT_CHARS"), ("pad_to_multiple_of", 10**9, "MAX_INPUT_CHARS"),
    ("pad_id", 10**30, "MAX_TOKEN_ID"), ("pad_type_id", 2**40, "u32"),
])
def test_padding_settings_are_bounded(field: str, value: int, limit: str) -> None:
    tok = Tokenizer.from_json(_doc())
    with pytest.raises(ConfigError, match=rf"{field} must be at most .*{limit}"):
        tok.enable_padding(**{field: value})
    padding = {"direction": "right", "pad_id": 0, "pad_type_id": 0, "pad_token": "[UNK]", "length": None,
               "pad_to_multiple_of": None, field: value}
    with pytest.raises(SerializationError, match=rf"{field} must be at most"):
        Tokenizer.from_json(_doc(padding=padding))


def test_a_merge_that_would_read_as_the_header_is_not_written(tmp_path: Path) -> None:
    from toolkit.interop.gpt2 import write_merges_txt

    target = tmp_path / "merges.txt"
    with pytest.raises(SerializationError, match="starting with '#version', which readers skip"):
        write_merges_txt([("a", "b"), ("#version", "s")], target)
    assert not target.exists()
    write_merges_txt([("#", "version")], target)  # "# version" is a merge line
    assert target.read_text().splitlines()[1] == "# version"


def test_a_bom_is_dropped_from_configs_and_templates(tmp_path: Path) -> None:
    from toolkit.interop.transformers import read_template
    from toolkit.training.config import TrainingConfig

    config = tmp_path / "c.toml"
    config.write_text('\ufeffalgorithm = "bpe"\n[corpus]\ntexts = ["low lower"]\n[trainer]\nvocab_size = 20\n', encoding="utf-8")
    assert TrainingConfig.from_file(config).algorithm == "bpe"
    (tmp_path / "tokenizer_config.json").write_text('\ufeff{"pad_token": "<pad>"}', encoding="utf-8")
    assert read_template(tmp_path) == {"pad_token": "<pad>"}
    from toolkit.interop.tiktoken_files import read_tiktoken

    (tmp_path / "t.tiktoken").write_bytes(b"\xef\xbb\xbfYQ== 0\nYg== 1\n")  # tiktoken reads it as a, b
    assert read_tiktoken(tmp_path / "t.tiktoken") == {b"a": 0, b"b": 1}
