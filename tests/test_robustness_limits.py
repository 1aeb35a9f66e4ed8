"""Documented limits (``toolkit/limits.py``) are enforced with clear, typed errors — at load time, at
construction, at encode time — and trainers never produce a model that would break them.

Most tests lower a limit with ``monkeypatch`` (the checks read ``toolkit.limits`` at call time), so they
run in milliseconds; the real input limit is also checked at its real size.
"""

from __future__ import annotations

import base64
import doctest
import json
import re
from pathlib import Path

import pytest

import toolkit.limits as limits
from test_robustness_support import pipelines
from toolkit import Tokenizer
from toolkit.bytelevel import BYTE_TO_CHAR
from toolkit.errors import ConfigError, InputError, SerializationError, ToolkitError, VocabularyError

ROOT = Path(__file__).resolve().parent.parent


def test_limit_values_and_docs_agree() -> None:
    assert limits.MAX_INPUT_CHARS == 4_194_304
    assert limits.MAX_VOCAB_SIZE == 4_194_304
    assert limits.MAX_TOKEN_ID == 2**31 - 1
    assert limits.MAX_TOKEN_LENGTH == 1024
    assert limits.MAX_FILE_BYTES == 2**30
    assert limits.REGEX_TIMEOUT == 5.0 and limits.MAX_REGEX_TIMEOUT == 60.0
    from pretokenizers.split import DEFAULT_TIMEOUT

    assert DEFAULT_TIMEOUT == limits.REGEX_TIMEOUT
    doc = (ROOT / "docs" / "robustness.md").read_text(encoding="utf-8")
    for name in limits.snapshot():
        assert f"`{name}`" in doc, f"docs/robustness.md does not document {name}"
    result = doctest.testmod(limits)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------------------------------- input size
def test_real_input_limit_is_enforced_before_any_work() -> None:
    tok = pipelines()["bert"]
    too_long = "a" * (limits.MAX_INPUT_CHARS + 1)
    for call in (lambda: tok.encode(too_long), lambda: tok.encode_ids(too_long), lambda: tok.encode("ok", too_long),
                 lambda: tok.encode_batch(["ok", too_long]), lambda: tok.normalize_str(too_long)):
        with pytest.raises(InputError, match=r"4,194,305 characters, more than the limit of 4,194,304 \(toolkit.limits"):
            call()


def test_input_limit_boundaries_and_raising_it(monkeypatch: pytest.MonkeyPatch) -> None:
    tok = pipelines()["chat"]
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 100)
    assert tok.decode(tok.encode_ids("x" * 100)) == "x" * 100
    with pytest.raises(InputError, match="pair has 101 characters"):
        tok.encode("fine", "y" * 101)
    with pytest.raises(InputError, match="MAX_INPUT_CHARS"):
        tok.pre_tokenize_str("z" * 101)
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 1000)  # a program may raise it deliberately
    assert tok.encode("x" * 101).ids == tok.encode_ids("x" * 101)


# ---------------------------------------------------------------------------------------- vocabulary size
def test_vocabulary_size_limit_everywhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from algorithms import BPE, ByteLevelBPE, WordPiece

    monkeypatch.setattr(limits, "MAX_VOCAB_SIZE", 300)
    big = {f"t{i}": i for i in range(301)}
    for make in (lambda: BPE(big), lambda: WordPiece(big | {"[UNK]": 301})):
        with pytest.raises(VocabularyError, match=r"vocab: 30[12] tokens is more than the limit of 300"):
            make()
    ranks = {bytes([b]): b for b in range(256)} | {f"x{i}".encode(): 256 + i for i in range(45)}
    with pytest.raises(VocabularyError, match="MAX_VOCAB_SIZE"):
        ByteLevelBPE.from_ranks(ranks)
    with pytest.raises(VocabularyError, match="MAX_VOCAB_SIZE"):
        ByteLevelBPE.from_ranks({bytes([b]): b for b in range(256)}, special_tokens={f"<{i}>": 300 + i for i in range(45)})
    for name in ("chat", "bert", "tiktoken", "bpe_metaspace"):  # 420 / 300+ tokens
        text = pipelines()[name].to_json()
        if len(pipelines()[name].get_vocab()) > 300:
            with pytest.raises(SerializationError, match="MAX_VOCAB_SIZE"):
                Tokenizer.from_json(text)
    path = tmp_path / "x.tiktoken"
    pipelines()["chat"].save_tiktoken(path)
    with pytest.raises(VocabularyError, match="MAX_VOCAB_SIZE"):
        Tokenizer.from_tiktoken(path, pattern="cl100k")
    path = tmp_path / "tokenizer.json"
    pipelines()["chat"].to_hf_json(path)
    with pytest.raises(SerializationError, match="MAX_VOCAB_SIZE"):
        Tokenizer.from_hf_json(path)


@pytest.mark.parametrize("trainer", ["BPETrainer", "ByteLevelBPETrainer", "WordPieceTrainer"])
def test_trainers_refuse_a_vocab_size_above_the_limit(trainer: str) -> None:
    import algorithms

    cls = getattr(algorithms, trainer)
    with pytest.raises(ConfigError, match=r"vocab_size: 4,194,305 tokens is more than the limit"):
        cls(vocab_size=limits.MAX_VOCAB_SIZE + 1)
    with pytest.raises(ConfigError, match="MAX_TOKEN_LENGTH"):
        cls(vocab_size=1000, special_tokens=["[UNK]", "<" + "x" * 2000 + ">"])
    cls(vocab_size=limits.MAX_VOCAB_SIZE)  # the limit itself is allowed


# ---------------------------------------------------------------------------------------- tokens
def test_token_length_and_id_limits() -> None:
    from algorithms import BPE, ByteLevelBPE, WordPiece

    long_token = "a" * (limits.MAX_TOKEN_LENGTH + 1)
    for make in (lambda: BPE({"a": 0, long_token: 1}), lambda: WordPiece({"[UNK]": 0, long_token: 1}),
                 lambda: ByteLevelBPE(special_tokens={long_token: 256})):
        with pytest.raises(VocabularyError, match=r"1,025 characters long, more than the limit of 1,024"):
            make()
    BPE({"a": 0, "a" * limits.MAX_TOKEN_LENGTH: 1})  # exactly the limit is fine
    for make in (lambda: BPE({"a": 0, "b": 2**31}), lambda: WordPiece({"[UNK]": 0, "b": 2**31}),
                 lambda: ByteLevelBPE(special_tokens={"<s>": 2**31}),
                 lambda: ByteLevelBPE.from_ranks({bytes([b]): b for b in range(256)} | {b"ab": 2**31})):
        with pytest.raises(VocabularyError, match=r"id 2147483648 .* larger than the limit of 2147483647"):
            make()
    BPE({"a": 0, "b": 2**31 - 1})


def test_trained_models_respect_the_token_length_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Training on one long repeated word could create a 2**k-character token that no file may hold."""
    from algorithms import BPETrainer, ByteLevelBPETrainer, WordPieceTrainer

    monkeypatch.setattr(limits, "MAX_TOKEN_LENGTH", 40)
    counts = {"a" * 500: 3, "ab" * 200: 2, "abc": 5}
    models = [
        BPETrainer(vocab_size=200, end_of_word_suffix="</w>").train(counts),
        ByteLevelBPETrainer(vocab_size=400).train(counts),
        WordPieceTrainer(vocab_size=200, special_tokens=["[UNK]"]).train(counts),
    ]
    for model in models:
        longest = max(map(len, model.get_vocab()))
        assert 30 <= longest <= 40, (type(model).__name__, longest)  # grew up to the limit, not past it
        again = Tokenizer.from_json(Tokenizer(model).to_json())  # and the file loads again
        assert again.get_vocab() == model.get_vocab()


def test_real_token_length_limit_on_a_pathological_corpus() -> None:
    from algorithms import BPETrainer

    model = BPETrainer(vocab_size=100).train({"a" * 5000: 2})
    assert max(map(len, model.get_vocab())) == limits.MAX_TOKEN_LENGTH
    Tokenizer.from_json(Tokenizer(model).to_json())


def test_limit_errors_name_the_field_in_files(tmp_path: Path) -> None:
    doc = json.loads(pipelines()["bpe"].to_json())
    doc["model"]["vocab"]["x" * 2000] = 999
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_json(json.dumps(doc))
    assert re.search(r"model\.vocab: token 'x+'\.\.\. is 2,000 characters long", str(info.value))
    path = tmp_path / "vocab.bpe"
    path.write_text("#version: 0.2\n", encoding="utf-8")
    vocab = {c: i for i, c in enumerate(BYTE_TO_CHAR)} | {"Ġthe": 2**40}
    (tmp_path / "encoder.json").write_text(json.dumps(vocab), encoding="utf-8")
    with pytest.raises(ToolkitError, match="MAX_TOKEN_ID"):
        Tokenizer.from_gpt2(tmp_path / "encoder.json", path)
    tik = tmp_path / "long.tiktoken"
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    tik.write_text("\n".join(lines + [f"{base64.b64encode(b'y' * 1025).decode()} 256"]) + "\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match="MAX_TOKEN_LENGTH"):
        Tokenizer.from_tiktoken(tik, pattern="cl100k")


def test_snapshot_and_restore_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    values = limits.snapshot()
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 7)
    assert limits.snapshot()["MAX_INPUT_CHARS"] == 7
    limits.restore(values)
    assert limits.snapshot() == values
    limits.restore({"NOT_A_LIMIT": 1})
    assert not hasattr(limits, "NOT_A_LIMIT")


# ---------------------------------------------------------------------------------------- regex guard
def _with_split(**split: object) -> str:
    doc = json.loads(pipelines()["bpe"].to_json())
    doc["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [{"type": "Split", **split}]}
    return json.dumps(doc)


def test_regex_limits_are_read_when_a_file_is_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Split`` guards itself: the timeout a file may ask for is checked against the current
    ``MAX_REGEX_TIMEOUT``, and only untrusted loads apply it (a program may do what it wants)."""
    from pretokenizers import Split
    from toolkit import Regex

    text = _with_split(pattern={"Regex": r"\w+"}, timeout=30.0)
    assert Tokenizer.from_json(text).pre_tokenizer[0].timeout == 30.0
    monkeypatch.setattr(limits, "MAX_REGEX_TIMEOUT", 10.0)
    message = r"pre_tokenizer\.pretokenizers\[0\]\.timeout: 30 s is more than the limit of 10 s"
    with pytest.raises(SerializationError, match=message):
        Tokenizer.from_json(text)
    assert Tokenizer.from_json(text, trusted=True).pre_tokenizer[0].timeout == 30.0
    assert Split(Regex(r"\w+"), timeout=30.0).timeout == 30.0 and Split(Regex(r"\w+"), timeout=None).timeout is None
    # The pattern's braces are not read as a message template.
    with pytest.raises(SerializationError, match=r"catastrophic regex \('\\\\p\{L\}\{2,\}'\)"):
        Tokenizer.from_json(_with_split(pattern={"Regex": r"\p{L}{2,}"}, timeout=None))
    # Literal and shipped patterns run unguarded whatever the file says.
    Tokenizer.from_json(_with_split(pattern={"String": "(a|a)+$"}, timeout=None))


def test_limits_are_only_numbers_and_checks() -> None:
    """The core's limits module knows no component: no import of ``pretokenizers``."""
    source = (ROOT / "toolkit" / "limits.py").read_text(encoding="utf-8")
    assert "pretokenizers" not in source and "check_regex_guards" not in source
