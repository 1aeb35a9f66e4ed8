"""Hostile or broken files: every problem is a typed error naming it; nothing in a file is executed;
user regexes from files run under a timeout.

Covers the toolkit's own JSON (``Tokenizer.from_json`` / ``load``), Hugging Face ``tokenizer.json``,
``.tiktoken`` rank files, GPT-2 ``encoder.json`` + ``vocab.bpe`` and BERT ``vocab.txt``: a catalogue
of named defects (each with the error class and the words the message must contain), then
hypothesis fuzzers that mutate valid files at random — any outcome but a clean load or a
:class:`~toolkit.errors.ToolkitError` fails.
"""

from __future__ import annotations

import base64
import copy
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolkit.limits as limits
from test_robustness_support import fuzzed, pipelines
from toolkit import Tokenizer
from toolkit.errors import (
    ConfigError,
    InputError,
    SerializationError,
    ToolkitError,
    VocabularyError,
)

ROOT = Path(__file__).resolve().parent.parent
CATASTROPHIC = r"(a|a)+$"  # 2**n paths on "a" * n + "!" in the regex module
TRAP = "a" * 40 + "!"


@pytest.fixture
def short_regex_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regex timeouts of 0.3 s instead of 5 s (Replace reads the limit per text, Split per construction)."""
    monkeypatch.setattr(limits, "REGEX_TIMEOUT", 0.3)


def _doc(name: str) -> dict[str, Any]:
    return json.loads(pipelines()[name].to_json())


def _small_bpe_doc() -> dict[str, Any]:
    return {
        "format": "tokenizer-toolkit", "version": 1, "normalizer": None, "post_processor": None, "decoder": None,
        "pre_tokenizer": {"type": "Whitespace"},
        "model": {"type": "BPE", "vocab": {"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, "merges": [["a", "b"]],
                  "unk_token": "[UNK]", "special_tokens": ["[UNK]"]},
        "metadata": {},
    }


def _small_wp_doc() -> dict[str, Any]:
    return {
        "format": "tokenizer-toolkit", "version": 1,
        "model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 1, "##b": 2}, "unk_token": "[UNK]"},
    }


def _set(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``doc`` with the dotted ``path`` set (``value`` ``...`` deletes it)."""
    doc = copy.deepcopy(doc)
    node: Any = doc
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if value is ...:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


# ---------------------------------------------------------------------------------------- toolkit JSON
BPE = _small_bpe_doc()
WP = _small_wp_doc()
CASES: list[tuple[str, str, type[Exception], str]] = [
    # (id, JSON text, error class, words the message must contain)
    ("truncated", json.dumps(BPE)[:57], SerializationError, "not valid JSON"),
    ("empty", "", SerializationError, "not valid JSON"),
    ("not an object", "[1, 2]", SerializationError, "must be a JSON object"),
    ("wrong format", json.dumps(_set(BPE, "format", "other")), SerializationError, "format"),
    ("hf file", json.dumps({"version": "1.0", "added_tokens": [], "model": {}}), SerializationError, "from_hf_json"),
    ("newer version", json.dumps(_set(BPE, "version", 3)), SerializationError, "newer than this toolkit"),
    ("version as text", json.dumps(_set(BPE, "version", "1")), SerializationError, "version: must be an integer"),
    ("version 0", json.dumps(_set(BPE, "version", 0)), SerializationError, "version: must be >= 1"),
    ("unknown top-level", json.dumps(_set(BPE, "evil", 1)), SerializationError, "unknown top-level field(s): evil"),
    ("model missing", json.dumps(_set(BPE, "model", ...)), SerializationError, "model: required"),
    ("model not object", json.dumps(_set(BPE, "model", "BPE")), SerializationError, "model"),
    ("unknown model type", json.dumps(_set(BPE, "model.type", "BPEE")), SerializationError, "unknown model type 'BPEE'"),
    ("type not a string", json.dumps(_set(BPE, "model.type", ["BPE"])), SerializationError, "model.type"),
    ("unknown normalizer", json.dumps(_set(BPE, "normalizer", {"type": "Evil"})), SerializationError,
     "unknown normalizer type 'Evil'"),
    ("unknown nested type", json.dumps(_set(BPE, "pre_tokenizer", {"type": "Sequence", "pretokenizers": [{"type": "X"}]})),
     SerializationError, "pre_tokenizer.pretokenizers[0]"),
    ("unknown option", json.dumps(_set(BPE, "model.dropoutt", 0.1)), SerializationError, "model.dropoutt: unknown option"),
    ("vocab is a list", json.dumps(_set(BPE, "model.vocab", [["a", 1]])), SerializationError, "model.vocab"),
    ("id is text", json.dumps(_set(BPE, "model.vocab.ab", "3")), SerializationError, "model.vocab['ab']: id must be an integer"),
    ("id is float", json.dumps(_set(BPE, "model.vocab.ab", 3.0)), SerializationError, "id must be an integer"),
    ("id is bool", json.dumps(_set(BPE, "model.vocab.ab", True)), SerializationError, "id must be an integer"),
    ("id is null", json.dumps(_set(BPE, "model.vocab.ab", None)), SerializationError, "id must be an integer"),
    ("negative id", json.dumps(_set(BPE, "model.vocab.ab", -1)), SerializationError, "id must be >= 0"),
    ("duplicate id", json.dumps(_set(BPE, "model.vocab.ab", 1)), SerializationError, "'a' and 'ab' both have id 1"),
    ("huge id", json.dumps(_set(BPE, "model.vocab.ab", 10**30)), SerializationError, "MAX_TOKEN_ID"),
    ("5000-digit id", json.dumps(BPE).replace('"ab": 3', '"ab": ' + "9" * 5000), SerializationError,
     "not a valid tokenizer file"),
    ("infinite id", json.dumps(BPE).replace('"ab": 3', '"ab": 1e400'), SerializationError, "id must be an integer"),
    ("NaN id", json.dumps(BPE).replace('"ab": 3', '"ab": NaN'), SerializationError, "id must be an integer"),
    ("empty token", json.dumps(_set(BPE, "model.vocab.", 9)), SerializationError, "empty string cannot be a token"),
    ("merge of unknown token", json.dumps(_set(BPE, "model.merges", [["a", "zz"]])), SerializationError,
     "merges[0]: ('a', 'zz') uses 'zz'"),
    ("merge result missing", json.dumps(_set(BPE, "model.merges", [["b", "a"]])), SerializationError,
     "produces 'ba', which is not in the vocabulary"),
    ("duplicate merge", json.dumps(_set(BPE, "model.merges", [["a", "b"], ["a", "b"]])), SerializationError,
     "duplicate of merges[0]"),
    ("merge is a triple", json.dumps(_set(BPE, "model.merges", [["a", "b", "c"]])), SerializationError, "merges[0]"),
    ("merges is an object", json.dumps(_set(BPE, "model.merges", {"a": "b"})), SerializationError, "model.merges"),
    ("BPE vocabulary without [UNK]", json.dumps(_set(BPE, "model.vocab.[UNK]", ...)), SerializationError,
     "'[UNK]' is not in the vocabulary"),
    ("WordPiece vocabulary without [UNK]", json.dumps(_set(WP, "model.vocab.[UNK]", ...)), SerializationError,
     "'[UNK]' is not in the vocabulary"),
    ("WordPiece negative id", json.dumps(_set(WP, "model.vocab.a", -5)), SerializationError, "id must be >= 0"),
    ("WordPiece duplicate id", json.dumps(_set(WP, "model.vocab.a", 0)), SerializationError, "both have id 0"),
    ("WordPiece id text", json.dumps(_set(WP, "model.vocab.a", "1")), SerializationError, "id must be an int"),
    ("special token not in vocabulary", json.dumps(_set(BPE, "model.special_tokens", ["<s>"])), SerializationError,
     "'<s>' is not in the vocabulary"),
    ("byte-level vocabulary missing bytes", json.dumps({"format": "tokenizer-toolkit", "version": 1,
     "model": {"type": "ByteLevelBPE", "vocab": {"a": 0}}}), SerializationError, "needs all 256 single-byte tokens"),
    ("metadata not an object", json.dumps(_set(BPE, "metadata", [1])), SerializationError, "metadata: must be an object"),
    ("deeply nested", "[" * 200_000 + "]" * 200_000, SerializationError, "nested too deeply"),
    ("invalid regex", json.dumps(_set(BPE, "pre_tokenizer", {"type": "Split", "pattern": "(("})), SerializationError,
     "valid regular expression"),
    ("invalid Replace regex", json.dumps(_set(BPE, "normalizer", {"type": "Replace", "pattern": {"Regex": "[z-a]"},
     "content": ""})), SerializationError, "normalizer"),
    ("regex timeout switched off", json.dumps(_set(BPE, "pre_tokenizer", {"type": "Split", "pattern": CATASTROPHIC,
     "timeout": None})), SerializationError, "pre_tokenizer.timeout: null switches off the timeout"),
    ("regex timeout too long", json.dumps(_set(BPE, "pre_tokenizer", {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": r"\d+", "timeout": 1e308}]})), SerializationError,
     "pre_tokenizer.pretokenizers[0].timeout: 1e+308 s is more than the limit"),
    ("negative regex timeout", json.dumps(_set(BPE, "pre_tokenizer", {"type": "Split", "pattern": "x", "timeout": -1})),
     SerializationError, "timeout"),
]


@pytest.mark.parametrize(("text", "error", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_toolkit_file_is_a_typed_error_naming_the_problem(
    tmp_path: Path, text: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as info:
        Tokenizer.from_json(text)
    assert words in str(info.value)
    path = tmp_path / "tok.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error) as info:
        Tokenizer.load(path)
    assert str(info.value).startswith(str(path)) and words in str(info.value)


def test_file_level_load_errors(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="no such tokenizer file"):
        Tokenizer.load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b'{"format": "\xff\xfe"}')
    with pytest.raises(SerializationError, match=r"not UTF-8 text \(invalid byte at offset 12\)"):
        Tokenizer.load(tmp_path / "bin.json")
    with pytest.raises(SerializationError, match="cannot read"):
        Tokenizer.load(tmp_path)  # a folder
    with pytest.raises(SerializationError, match="expects a str"):
        Tokenizer.from_json(b"{}")  # type: ignore[arg-type]


def test_trusted_load_accepts_its_own_unguarded_split(tmp_path: Path) -> None:
    from pretokenizers import Split
    from toolkit import Regex

    tok = pipelines()["bpe"]
    mine = Tokenizer(tok.model, pre_tokenizer=Split(Regex(r"\w+|\W"), timeout=None))
    mine.save(tmp_path / "mine.json")
    with pytest.raises(SerializationError, match="trusted=True"):
        Tokenizer.load(tmp_path / "mine.json")
    assert Tokenizer.load(tmp_path / "mine.json", trusted=True).encode_ids("hi there") == mine.encode_ids("hi there")
    # Literal and shipped patterns cannot backtrack: they may run unguarded in any file.
    for split in (Split("-", timeout=None), Split(pipelines()["tiktoken"].pre_tokenizer.pretokenizers[0].pattern, timeout=None)):
        Tokenizer.from_json(Tokenizer(tok.model, pre_tokenizer=split).to_json())


# ---------------------------------------------------------------------------------------- nothing is executed
def test_type_names_never_import_or_execute_anything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "executed"
    (tmp_path / "evil_plugin_xyz.py").write_text(
        f"open({str(marker)!r}, 'w').write('pwned')\nclass Evil: pass\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for type_name in ("evil_plugin_xyz", "evil_plugin_xyz.Evil", "evil_plugin_xyz:Evil", "os.system",
                      "builtins.eval", "__import__", "pickle.loads", "subprocess.Popen"):
        for field in ("model", "normalizer", "pre_tokenizer", "post_processor", "decoder"):
            doc = _set(BPE, field, {"type": type_name, "args": ["touch /tmp/x"]})
            with pytest.raises(SerializationError, match="unknown"):
                Tokenizer.from_json(json.dumps(doc))
    assert not marker.exists()
    assert "evil_plugin_xyz" not in sys.modules


def test_source_has_no_code_loading_primitives() -> None:
    """No pickle, eval/exec, marshal or unsafe YAML anywhere a file could reach."""
    import re

    banned = re.compile(r"\b(pickle\.loads?|marshal\.loads?|eval\(|exec\(|yaml\.load\(|yaml\.unsafe_load|shelve\.)")
    offenders = []
    for package in ("toolkit", "algorithms", "pretokenizers"):
        for path in (ROOT / package).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if banned.search(code) and ">>>" not in line:
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, offenders


# ---------------------------------------------------------------------------------------- regex timeouts
def test_catastrophic_split_from_a_file_times_out(short_regex_timeout: None) -> None:
    doc = _set(BPE, "pre_tokenizer", {"type": "Split", "pattern": CATASTROPHIC, "timeout": 0.3})
    tok = Tokenizer.from_json(json.dumps(doc))
    for call in (tok.encode, tok.encode_ids, tok.pre_tokenize_str):
        t0 = time.perf_counter()
        with pytest.raises(InputError, match=r"Split pattern .* took longer than 0.3 s"):
            call(TRAP)
        assert time.perf_counter() - t0 < 5
    # Ordinary text still works: "aaa" ends nowhere near a trap; " " is not in the vocabulary.
    assert tok.encode_ids("aaa b") == [1, 1, 1, 0, 2]


def test_default_split_timeout_applies_to_file_patterns(monkeypatch: pytest.MonkeyPatch) -> None:
    from pretokenizers import split

    doc = _set(BPE, "pre_tokenizer", {"type": "Split", "pattern": CATASTROPHIC})
    tok = Tokenizer.from_json(json.dumps(doc))
    assert tok.pre_tokenizer.timeout == split.DEFAULT_TIMEOUT == limits.REGEX_TIMEOUT


@pytest.mark.parametrize("where", ["normalizer", "decoder"])
def test_catastrophic_replace_from_a_file_times_out(short_regex_timeout: None, where: str) -> None:
    spec = {"type": "Replace", "pattern": {"Regex": CATASTROPHIC}, "content": "x"}
    tok = Tokenizer.from_json(json.dumps(_set(BPE, where, spec)))
    if where == "decoder":
        # The decoder replaces token by token: 40 tokens "a" are 40 short texts, each replaced quickly.
        assert tok.decode([1] * 40 + [0], skip_special_tokens=False) == "x" * 40 + "[UNK]"
    t0 = time.perf_counter()
    with pytest.raises(InputError, match=r"Replace pattern .* took longer than 0.3 s"):
        tok.encode(TRAP) if where == "normalizer" else tok.decoder.decode([TRAP])  # the trap in one text
    assert time.perf_counter() - t0 < 5
    if where == "normalizer":
        with pytest.raises(InputError):
            tok.encode_ids(TRAP)
    # Literal (String) patterns are searched in linear time and never time out; they replace only themselves.
    literal = Tokenizer.from_json(json.dumps(_set(BPE, where, {**spec, "pattern": {"String": "(a|a)+$"}})))
    assert literal.encode_ids(TRAP) == [1] * 40 + [0]
    if where == "normalizer":
        assert literal.encode_ids("ab(a|a)+$") == [3, 0]  # "ab" then "x", not in the vocabulary
    else:
        assert literal.decode(literal.encode_ids(TRAP), skip_special_tokens=False) == "a" * 40 + "[UNK]"
        assert literal.decoder.decode(["b(a|a)+$c", TRAP]) == "bxc" + TRAP


def _hf_doc(**changes: Any) -> dict[str, Any]:
    hf = json.loads(json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "a": 1, "##b": 2}},
    }))
    hf.update(changes)
    return hf


def test_catastrophic_regexes_through_hf_import(tmp_path: Path, short_regex_timeout: None) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_hf_doc(pre_tokenizer={"type": "Split", "pattern": {"Regex": CATASTROPHIC},
                                                       "behavior": "Isolated", "invert": False})), encoding="utf-8")
    tok = Tokenizer.from_hf_json(path)
    with pytest.raises(InputError, match="took longer than"):
        tok.encode(TRAP)
    path.write_text(json.dumps(_hf_doc(normalizer={"type": "Replace", "pattern": {"Regex": CATASTROPHIC}, "content": ""})),
                    encoding="utf-8")
    tok = Tokenizer.from_hf_json(path)
    with pytest.raises(InputError, match="took longer than"):
        tok.encode_ids(TRAP)


# ---------------------------------------------------------------------------------------- foreign formats
HF_CASES = [
    ("truncated", lambda p: p.write_text(json.dumps(_hf_doc())[:50]), "not valid JSON"),
    ("version", lambda p: p.write_text(json.dumps(_hf_doc(version="2.0"))), "version: expected '1.0'"),
    ("Unigram", lambda p: p.write_text(json.dumps(_hf_doc(model={"type": "Unigramm", "vocab": []}))), "'Unigramm' has no equivalent"),
    ("vocab list", lambda p: p.write_text(json.dumps(_hf_doc(model={"type": "WordPiece", "vocab": []}))), "model.vocab"),
    ("missing [UNK]", lambda p: p.write_text(json.dumps(_hf_doc(model={"type": "WordPiece", "vocab": {"a": 0}}))), "[UNK]"),
    ("added id negative", lambda p: p.write_text(json.dumps(_hf_doc(added_tokens=[{"id": -1, "content": "x", "special": True}]))),
     "added_tokens[0].id"),
    ("added id clash", lambda p: p.write_text(json.dumps(_hf_doc(added_tokens=[{"id": 5, "content": "a", "special": True}]))),
     "'a' has id 5"),
    ("not UTF-8", lambda p: p.write_bytes(b'{"version": "1.0\xff"}'), "not UTF-8"),
    ("bad behavior", lambda p: p.write_text(json.dumps(_hf_doc(pre_tokenizer={"type": "Split", "pattern": {"Regex": "x"},
                                                                              "behavior": "Explode"}))), "behavior"),
    # Found by the fuzzer: these used to escape as TypeError.
    ("behavior is a list", lambda p: p.write_text(json.dumps(_hf_doc(pre_tokenizer={
        "type": "Split", "pattern": {"Regex": "x"}, "behavior": []}))), "pre_tokenizer.behavior: unknown behavior []"),
    ("Punctuation behavior is a list", lambda p: p.write_text(json.dumps(_hf_doc(pre_tokenizer={
        "type": "Punctuation", "behavior": ["Isolated"]}))), "pre_tokenizer.behavior"),
    ("Sequence of true", lambda p: p.write_text(json.dumps(_hf_doc(pre_tokenizer={
        "type": "Sequence", "pretokenizers": True}))), "pre_tokenizer.pretokenizers: must be a list"),
]


@pytest.mark.parametrize(("write", "words"), [c[1:] for c in HF_CASES], ids=[c[0] for c in HF_CASES])
def test_broken_hf_tokenizer_json(tmp_path: Path, write: Any, words: str) -> None:
    path = tmp_path / "tokenizer.json"
    write(path)
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_hf_json(path)
    assert words in str(info.value) and str(path) in str(info.value)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


TIKTOKEN_CASES = [
    ("bad base64", "YQ== 0\nnot*base64 1\n", SerializationError, ":2: invalid base64 token"),
    ("bad padding", "YQ== 0\nYg= 1\n", SerializationError, ":2: invalid base64"),
    ("rank not a number", "YQ== zero\n", SerializationError, ":1: rank 'zero' is not a non-negative integer"),
    ("negative rank", "YQ== -1\n", SerializationError, "is not a non-negative integer"),
    ("three fields", "YQ== 0 extra\n", SerializationError, ":1: expected '<base64 token> <rank>'"),
    ("duplicate token", "YQ== 0\nYQ== 1\n", VocabularyError, ":2: token b'a' is listed twice"),
    ("duplicate rank", "YQ== 0\nYg== 0\n", VocabularyError, ":2: rank 0 is used twice"),
    ("empty token", "= 0\n", SerializationError, ":1:"),
    ("non-ASCII", "YQ== 0\nYg==\u00a01\n", SerializationError, "ASCII"),
    ("empty file", "\n\n", SerializationError, "has no tokens"),
    ("huge rank", "".join(f"{_b64(bytes([b]))} {b}\n" for b in range(256)) + f"YWI= {2**40}\n", VocabularyError, "MAX_TOKEN_ID"),
    ("huge token", "".join(f"{_b64(bytes([b]))} {b}\n" for b in range(256)) + f"{_b64(b'x' * 5000)} 256\n",
     VocabularyError, "MAX_TOKEN_LENGTH"),
    ("missing bytes", "YQ== 0\n", VocabularyError, "needs all 256 single-byte tokens"),
]


@pytest.mark.parametrize(("content", "error", "words"), [c[1:] for c in TIKTOKEN_CASES], ids=[c[0] for c in TIKTOKEN_CASES])
def test_broken_tiktoken_file(tmp_path: Path, content: str, error: type[Exception], words: str) -> None:
    path = tmp_path / "bad.tiktoken"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(error) as info:
        Tokenizer.from_tiktoken(path, pattern="cl100k")
    assert words in str(info.value)


def test_broken_gpt2_and_bert_files(tmp_path: Path) -> None:
    encoder, merges = tmp_path / "encoder.json", tmp_path / "vocab.bpe"
    byte_vocab = {c: i for i, c in enumerate(pipelines()["gpt2"].model.get_vocab()) if i < 256}
    cases = [
        ('["a"]', "#version: 0.2\n", SerializationError, "encoder.json"),
        (json.dumps(byte_vocab | {"ab": "257"}), "#version: 0.2\n", ToolkitError, "ab"),
        (json.dumps(byte_vocab), "#version: 0.2\na b c\n", SerializationError, "vocab.bpe:2"),
        (json.dumps(byte_vocab), "#version: 0.2\na zz\n", ToolkitError, "zz"),
        (json.dumps(byte_vocab), "#version: 0.2\na b\n", ToolkitError, "ab"),
        (json.dumps(byte_vocab | {"ab": 10**12}), "", ToolkitError, "MAX_TOKEN_ID"),
    ]
    for vocab_text, merges_text, error, words in cases:
        encoder.write_text(vocab_text, encoding="utf-8")
        merges.write_text(merges_text, encoding="utf-8")
        with pytest.raises(error) as info:
            Tokenizer.from_gpt2(encoder, merges)
        assert words in str(info.value), str(info.value)
    vocab = tmp_path / "vocab.txt"
    for content, words in (("[CLS]\n[SEP]\nhello\n", "[UNK]"),
                           ("[UNK]\n[CLS]\n[SEP]\n" + "x" * 5000 + "\n", "MAX_TOKEN_LENGTH")):
        vocab.write_text(content, encoding="utf-8")
        with pytest.raises(ToolkitError) as info:
            Tokenizer.from_bert_vocab(vocab)
        assert words in str(info.value), str(info.value)
    vocab.write_bytes(b"[UNK]\n\xff\n")
    with pytest.raises(SerializationError, match="not UTF-8"):
        Tokenizer.from_bert_vocab(vocab)


def test_oversized_files_are_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(pipelines()["bpe"].to_json(), encoding="utf-8")
    with pytest.raises(SerializationError, match="MAX_FILE_BYTES"):
        Tokenizer.load(big)
    for reader in (Tokenizer.from_hf_json, Tokenizer.from_tiktoken, Tokenizer.from_bert_vocab):
        with pytest.raises(SerializationError, match="MAX_FILE_BYTES"):
            reader(big)


# ---------------------------------------------------------------------------------------- fuzzers
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True) | st.text(max_size=8)
    | st.sampled_from(["BPE", "WordPiece", "ByteLevelBPE", "Sequence", "Split", "[UNK]", "Ġ", "##", "(a|a)+$"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=10,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in list(node.items())[:40]:
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:40]):
            out += _paths(value, (*prefix, i))
    return out


def _same_kind(value: Any) -> st.SearchStrategy[Any]:
    """A plausible replacement of the same JSON type (so more mutants load and get exercised)."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.sampled_from([0, 1, -1, 255, 256, 2**31 - 1, 2**31, 10**12, value + 1, value - 1]) | st.integers(-3, 600)
    if isinstance(value, float):
        return st.sampled_from([0.0, -1.0, 1e-9, 1e308, float("inf"), float("nan"), value * 2])
    if isinstance(value, str):
        return st.sampled_from(["", " ", "##", "Ġ", "▁", "[UNK]", "<|endoftext|>", "$A", "$B:1", "(a|a)+$", "\\", "a",
                                value + value, value[:1], value.upper()]) | st.text(max_size=5)
    if isinstance(value, list):
        return st.permutations(value) if value else st.just([])
    if isinstance(value, dict):
        if not value:
            return st.just({})
        return st.sets(st.sampled_from(list(value)), max_size=2).map(
            lambda drop: {k: v for k, v in value.items() if k not in drop}
        )
    return st.just(value)


def _mutate(doc: Any, data: st.DataObject) -> Any:
    """Change 1 to 3 places of ``doc``. Most changes are gentle (a value inside a component becomes another
    of the same JSON type), so a fair share of the mutants still load and get exercised past the envelope
    checks (test_a_fair_share_of_mutants_load_and_run holds the share); the rest are wild: delete, add or
    replace anything, the whole document and its envelope included."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(doc)
        inner = [p for p in paths if len(p) >= 2 and p[-1] != "type"]  # a new type name is a wild change
        if inner and data.draw(st.integers(0, 9)) < 8:
            path = data.draw(st.sampled_from(inner))
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = data.draw(_same_kind(parent[path[-1]]))
            continue
        path = data.draw(st.sampled_from(paths))
        if not path:
            doc = data.draw(_json_values)
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["same kind", "replace", "delete", "add"]))
        if action == "delete" and isinstance(parent, (dict, list)):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=8))] = data.draw(_json_values)
        elif action == "same kind":
            parent[path[-1]] = data.draw(_same_kind(parent[path[-1]]))
        else:
            parent[path[-1]] = data.draw(_json_values)
    return doc


def _kitchen_sink_doc() -> dict[str, Any]:
    """Every built-in normalizer, pre-tokenizer, post-processor and decoder in one document, so the
    mutation fuzzer reaches all their options."""
    import pretokenizers as pt
    from algorithms import WordPiece
    from toolkit import decoders as d
    from toolkit import normalizers as n
    from toolkit import processors as p

    model = WordPiece({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "a": 3, "##b": 4, "▁": 5, "<0x41>": 6},
                      special_tokens=["[UNK]", "[CLS]", "[SEP]"])
    tok = Tokenizer(
        model,
        normalizer=n.Sequence([n.NFC(), n.NFKD(), n.Lowercase(), n.StripAccents(), n.Strip(), n.Replace("x", "y"),
                               n.Replace(n.Regex(r"\d+"), "0"), n.Prepend("▁"), n.BertNormalizer(), n.NFKC(), n.NFD()]),
        pre_tokenizer=pt.Sequence([pt.Split(r"\s+", behavior="removed"), pt.Punctuation(), pt.Digits(individual_digits=True),
                                   pt.Metaspace(), pt.WhitespaceSplit(), pt.BertPreTokenizer(), pt.Whitespace(),
                                   pt.ByteLevel(use_regex=False)]),
        post_processor=p.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
                                            special_tokens=[("[CLS]", 1), ("[SEP]", 2)]),
        decoder=d.Sequence([d.Replace("▁", " "), d.ByteFallback(), d.Fuse(), d.Strip(left=1), d.Metaspace(),
                            d.WordPiece(), d.BPEDecoder(), d.ByteLevel()]),
    )
    return tok.to_dict()


_SEEDS = {
    "kitchen_sink": _kitchen_sink_doc,
    "bpe": lambda: _small_bpe_doc(),
    "wordpiece": lambda: _small_wp_doc(),
    "bert": lambda: _doc("bert"),
    "chat": lambda: _doc("chat"),
    "tiktoken": lambda: _doc("tiktoken"),
}
_seed_cache: dict[str, Any] = {}


def _seed(name: str) -> Any:
    if name not in _seed_cache:
        _seed_cache[name] = _SEEDS[name]()
    return _seed_cache[name]


def _exercise(tok: Tokenizer) -> None:
    """A loaded tokenizer must work or fail with a ToolkitError, never crash otherwise."""
    for text in ("hello world", "a b ab", "", "Ġ[UNK] <|im_end|>"):
        try:
            ids = tok.encode_ids(text)
            tok.encode(text)
            tok.decode(ids)
        except ToolkitError:
            pass


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(name=st.sampled_from(sorted(_SEEDS)), data=st.data())
def test_fuzz_mutated_toolkit_files(name: str, data: st.DataObject) -> None:
    fuzzed("mutated_toolkit_json")
    doc = _mutate(_seed(name), data)
    try:
        text = json.dumps(doc, allow_nan=True)
    except (ValueError, TypeError):
        return
    try:
        tok = Tokenizer.from_json(text)
    except ToolkitError:
        return
    fuzzed("mutated_toolkit_json (loaded)")
    _exercise(tok)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(name=st.sampled_from(["bpe", "wordpiece", "bert"]), cut=st.integers(0, 10**6), garbage=st.binary(max_size=8))
def test_fuzz_truncated_and_corrupted_files(tmp_path_factory: Any, name: str, cut: int, garbage: bytes) -> None:
    fuzzed("truncated_toolkit_json")
    raw = json.dumps(_seed(name)).encode()
    cut %= len(raw) + 1
    path = tmp_path_factory.mktemp("fuzz") / "tok.json"
    path.write_bytes(raw[:cut] + garbage + raw[cut + len(garbage):])
    try:
        _exercise(Tokenizer.load(path))
    except ToolkitError:
        pass


@pytest.mark.filterwarnings("ignore::UserWarning")
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_fuzz_mutated_hf_files(data: st.DataObject) -> None:
    from toolkit.interop import hf_json

    fuzzed("mutated_hf_json")
    doc = _mutate(data.draw(st.sampled_from(_hf_seeds())), data)
    try:
        tok = hf_json.from_hf_dict(doc, strict=data.draw(st.booleans()))
    except ToolkitError:
        return
    fuzzed("mutated_hf_json (loaded)")
    _exercise(tok)


def _hf_seeds() -> list[dict[str, Any]]:
    from toolkit.interop import hf_json

    if "hf" not in _seed_cache:
        sink = Tokenizer.from_dict(_seed("kitchen_sink"))
        _seed_cache["hf"] = [hf_json.to_hf_dict(sink)] + [
            hf_json.to_hf_dict(pipelines()[n]) for n in ("bert", "bpe", "chat", "tiktoken", "bpe_metaspace")
        ]
    return _seed_cache["hf"]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_fair_share_of_mutants_load_and_run() -> None:
    """The mutation fuzzers above prove little if nearly every mutant is refused at the envelope: a fixed
    run of the same mutator must load (and exercise) a fair share of its mutants, from most seeds."""
    from toolkit.interop import hf_json

    tried: Counter[str] = Counter()
    loaded: Counter[str] = Counter()

    @settings(max_examples=240, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(name=st.sampled_from([*sorted(_SEEDS), "hf"]), data=st.data())
    def run(name: str, data: st.DataObject) -> None:
        seed = data.draw(st.sampled_from(_hf_seeds())) if name == "hf" else _seed(name)
        doc = _mutate(seed, data)
        tried[name] += 1
        try:
            tok = hf_json.from_hf_dict(doc) if name == "hf" else Tokenizer.from_json(json.dumps(doc, allow_nan=True))
        except (ToolkitError, ValueError):
            return
        loaded[name] += 1
        _exercise(tok)

    run()
    share = sum(loaded.values()) / sum(tried.values())
    assert share >= 0.2, (share, dict(loaded), dict(tried))
    assert len(loaded) >= len(tried) - 2, (dict(loaded), dict(tried))  # not just one easy seed


_tiktoken_lines = st.lists(
    st.one_of(
        st.tuples(st.binary(min_size=1, max_size=4).map(_b64), st.integers(0, 400).map(str)).map(" ".join),
        st.text(alphabet="YQWIb=+/ 0123456789-\t", max_size=12),
        st.text(max_size=6),
    ),
    max_size=8,
)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(lines=_tiktoken_lines, keep_bytes=st.booleans())
def test_fuzz_tiktoken_files(tmp_path_factory: Any, lines: list[str], keep_bytes: bool) -> None:
    fuzzed("tiktoken_files")
    base = [f"{_b64(bytes([b]))} {b}" for b in range(256)] if keep_bytes else []
    path = tmp_path_factory.mktemp("fuzz") / "x.tiktoken"
    path.write_text("\n".join(base + lines) + "\n", encoding="utf-8", errors="surrogatepass")
    try:
        _exercise(Tokenizer.from_tiktoken(path, pattern="cl100k"))
    except ToolkitError:
        pass


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(tokens=st.lists(st.one_of(st.text(max_size=6), st.sampled_from(["[UNK]", "[CLS]", "[SEP]", "##a", "a", "##"])),
                       max_size=12), lowercase=st.booleans())
def test_fuzz_bert_vocab_files(tmp_path_factory: Any, tokens: list[str], lowercase: bool) -> None:
    fuzzed("bert_vocab_files")
    path = tmp_path_factory.mktemp("fuzz") / "vocab.txt"
    path.write_text("\n".join(tokens) + "\n", encoding="utf-8", errors="surrogatepass")
    try:
        _exercise(Tokenizer.from_bert_vocab(path, lowercase=lowercase))
    except ToolkitError:
        pass


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    extra=st.dictionaries(st.text(max_size=4), st.one_of(st.integers(-3, 600), st.text(max_size=3), st.none()), max_size=4),
    merges=st.lists(st.text(max_size=7), max_size=6),
)
def test_fuzz_gpt2_files(tmp_path_factory: Any, extra: dict, merges: list[str]) -> None:  # noqa: ANN001
    fuzzed("gpt2_files")
    folder = tmp_path_factory.mktemp("fuzz")
    vocab = {c: i for c, i in list(pipelines()["gpt2"].model.get_vocab().items())[:256]} | extra
    (folder / "encoder.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "vocab.bpe").write_text("#version: 0.2\n" + "\n".join(merges) + "\n", encoding="utf-8", errors="surrogatepass")
    try:
        _exercise(Tokenizer.from_gpt2(folder / "encoder.json", folder / "vocab.bpe"))
    except ToolkitError:
        pass


_CONFIG_SEEDS = [
    {"algorithm": "bpe", "corpus": {"texts": ["a b c ab abc", "abc cab"]}, "trainer": {"vocab_size": 30}},
    {"algorithm": "wordpiece", "corpus": {"texts": ["a b c ab abc"]}, "trainer": {"vocab_size": 30},
     "normalizer": {"type": "Lowercase"}, "pre_tokenizer": {"type": "Whitespace"}},
    {"algorithm": "byte_level_bpe", "corpus": {"texts": ["a b c ab abc"]}, "trainer": {"vocab_size": 300},
     "pre_tokenizer": {"type": "ByteLevel"}, "decoder": {"type": "ByteLevel"}},
]


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_fuzz_mutated_training_configs(data: st.DataObject) -> None:
    """An untrusted training config (in-memory corpus, nothing written) fails only with ToolkitErrors."""
    from toolkit.training.config import TrainingConfig, train_from_config

    fuzzed("mutated_training_config")
    doc = _mutate(data.draw(st.sampled_from(_CONFIG_SEEDS)), data)
    if isinstance(doc, dict):
        doc.pop("output", None)  # never write files from a fuzzed config
        corpus = doc.get("corpus")
        if not isinstance(corpus, dict) or set(corpus) - {"texts"} or not isinstance(corpus.get("texts"), list):
            return  # anything but in-memory texts would read the disk
    try:
        config = TrainingConfig.from_dict(doc)
        config.output = None
        result = train_from_config(config, write=False)
    except ToolkitError:
        return
    fuzzed("mutated_training_config (trained)")
    _exercise(result.tokenizer)


def test_config_error_is_a_toolkit_error() -> None:
    """The fuzzers accept ToolkitError only; make sure the typed errors really are ToolkitErrors."""
    for error in (ConfigError, SerializationError, VocabularyError, InputError):
        assert issubclass(error, ToolkitError) and issubclass(error, ValueError)
