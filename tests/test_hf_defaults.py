"""Issue 13: HF's defaults for ``ByteLevel`` and ``Split``, files of format version 1, and the load-time checks.

* ``pretokenizers.ByteLevel()`` has Hugging Face's defaults (``add_prefix_space=True``...), and
  ``Split(pattern)`` reads a ``str`` as literal text and a ``Regex`` as a regex, both compared with HF.
* Files saved before (format version 1: no ``add_prefix_space`` meant ``False``, a ``Split`` pattern
  string was a regex) load with the meaning they were saved with; configs must say ``Regex``/``String``.
* The fast load-time checks (nesting depth, vocabulary, merges, pair table) agree with slow,
  obviously correct references on hostile inputs.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import _vocab
from algorithms._vocab import build_pair_table, check_vocab, parse_merges
from conftest import require
from pretokenizers import CL100K_PATTERN, ByteLevel, Sequence, Split
from toolkit import Regex, Tokenizer, limits
from toolkit.errors import ConfigError, SerializationError, ToolkitError, VocabularyError
from toolkit.serialization import VERSION, upgrade_document
from toolkit.training.config import TrainingConfig

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TEXTS = ["Hello world", " leading space", "a.b-c  d", "naïve café 12345", "", "x"]


# ---------------------------------------------------------------------------------------------- HF defaults
def test_byte_level_defaults_are_hugging_faces() -> None:
    H = require("tokenizers").pre_tokenizers
    hf = json.loads(H.ByteLevel().__getstate__())
    ours = ByteLevel().to_dict()
    assert {k: hf[k] for k in ("add_prefix_space", "trim_offsets", "use_regex")} == {
        k: ours[k] for k in ("add_prefix_space", "trim_offsets", "use_regex")
    } == {"add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    for text in TEXTS:
        assert [p for p, _ in ByteLevel().pre_tokenize_str(text)] == [p for p, _ in H.ByteLevel().pre_tokenize_str(text)]


def test_byte_level_prefix_space_matches_hf_on_text() -> None:
    H = require("tokenizers").pre_tokenizers
    for text in ("Hello world", "naïve café", "x"):
        assert ByteLevel().split_text(text) == [p for p, _ in H.ByteLevel().pre_tokenize_str(text)]
    assert ByteLevel().split_text("Hi") == ["ĠHi"] and ByteLevel(add_prefix_space=False).split_text("Hi") == ["Hi"]


@pytest.mark.parametrize("behavior", ["isolated", "removed", "merged_with_previous", "merged_with_next", "contiguous"])
@pytest.mark.parametrize("pattern", [".", "a*", "-", " ", r"\s+"])
def test_split_str_is_literal_and_regex_is_a_regex_as_in_hf(pattern: str, behavior: str) -> None:
    tokenizers = require("tokenizers")
    H = tokenizers.pre_tokenizers
    text = "a.b-c  d...aab a*b \\s+x"
    for invert in (False, True):
        assert Split(pattern, behavior, invert).pre_tokenize_str(text) == H.Split(pattern, behavior, invert).pre_tokenize_str(text)
        assert Split(Regex(pattern), behavior, invert).pre_tokenize_str(text) == H.Split(
            tokenizers.Regex(pattern), behavior, invert
        ).pre_tokenize_str(text)


def test_a_named_regex_given_as_text_is_refused_with_the_fix() -> None:
    with pytest.raises(ConfigError, match=r"CL100K_PATTERN regex given as a str.*pass Regex\(CL100K_PATTERN\)"):
        Split(CL100K_PATTERN)
    assert Split(Regex(CL100K_PATTERN)).split_text("I'm 12345") == ["I", "'m", " ", "123", "45"]


def test_split_json_forms_map_one_to_one_onto_hf() -> None:
    from toolkit.interop.hf_components import exp_pre_tokenizer, imp_pre_tokenizer

    for ours in (Split("-", "merged_with_next"), Split(Regex(r"\s+"), "removed", True)):
        hf = exp_pre_tokenizer(ours)
        assert hf["pattern"] == ours.to_dict()["pattern"]  # {"String": ...} / {"Regex": ...} on both sides
        back = imp_pre_tokenizer(hf, "pre_tokenizer")
        assert Split.from_dict(back) == Split.from_dict({**ours.to_dict(), "timeout": back.get("timeout", ours.timeout)})
    tokenizers = require("tokenizers")
    for hf_pt in (tokenizers.pre_tokenizers.Split("-", "isolated"), tokenizers.pre_tokenizers.Split(tokenizers.Regex("-+"), "isolated")):
        data = json.loads(hf_pt.__getstate__())
        ours = Split.from_dict(imp_pre_tokenizer(data, "pre_tokenizer"))
        assert exp_pre_tokenizer(ours)["pattern"] == data["pattern"]
        assert ours.pre_tokenize_str("a-b--c") == hf_pt.pre_tokenize_str("a-b--c")


def test_byte_level_hf_export_always_writes_add_prefix_space() -> None:
    from toolkit.interop.hf_components import exp_pre_tokenizer, imp_pre_tokenizer

    for value in (True, False):
        hf = exp_pre_tokenizer(ByteLevel(add_prefix_space=value))
        assert hf["add_prefix_space"] is value
        assert imp_pre_tokenizer(hf, "p")["add_prefix_space"] is value
    assert imp_pre_tokenizer({"type": "ByteLevel"}, "p")["add_prefix_space"] is True  # HF's default, explicit


# ---------------------------------------------------------------------------------------------- old files
def _v1(pre_tokenizer: Any) -> dict[str, Any]:
    vocab = {c: i for i, c in enumerate(ByteLevel.alphabet())}
    return {"format": "tokenizer-toolkit", "version": 1, "pre_tokenizer": pre_tokenizer,
            "model": {"type": "ByteLevelBPE", "vocab": vocab, "merges": []}}


def test_a_version_1_file_keeps_its_meaning() -> None:
    doc = _v1({"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": r"\d+", "behavior": "isolated", "invert": False, "literal": False, "timeout": 5.0},
        {"type": "Split", "pattern": ".", "literal": True},
        {"type": "ByteLevel", "use_regex": False},
    ]})
    tok = Tokenizer.from_json(json.dumps(doc))
    split_re, split_lit, byte_level = tok.pre_tokenizer.pretokenizers
    assert split_re.pattern == Regex(r"\d+") and split_lit.pattern == "." and byte_level.add_prefix_space is False
    assert tok.pre_tokenizer.split_text("ab12.c") == ["ab", "12", ".", "c"]  # no space added, \d+ a regex
    saved = json.loads(tok.to_json())
    assert saved["version"] == VERSION == 2
    assert [p.get("pattern") for p in saved["pre_tokenizer"]["pretokenizers"]] == [{"Regex": r"\d+"}, {"String": "."}, None]
    assert saved["pre_tokenizer"]["pretokenizers"][2]["add_prefix_space"] is False
    assert Tokenizer.from_json(json.dumps(saved)).encode_ids("ab12.c") == tok.encode_ids("ab12.c")


def test_a_version_1_byte_level_keeps_a_stored_prefix_space_and_the_fixture_none() -> None:
    assert Tokenizer.from_json(json.dumps(_v1({"type": "ByteLevel", "add_prefix_space": True}))).pre_tokenizer.add_prefix_space
    assert Tokenizer.from_json(json.dumps(_v1({"type": "ByteLevel"}))).pre_tokenizer.add_prefix_space is False
    assert Tokenizer.load(FIXTURES / "byte_level_gpt2.json").pre_tokenizer.add_prefix_space is False


def test_version_2_reads_plain_strings_as_python_does() -> None:
    doc = {**_v1({"type": "Split", "pattern": "."}), "version": 2}
    tok = Tokenizer.from_json(json.dumps(doc))
    assert tok.pre_tokenizer.pattern == "." and tok.pre_tokenizer.split_text("a.b") == ["a", ".", "b"]
    assert Tokenizer.from_json(json.dumps({**_v1({"type": "ByteLevel"}), "version": 2})).pre_tokenizer.add_prefix_space


@pytest.mark.parametrize("bad", [{"type": "Split", "pattern": "x", "literal": "yes"}, {"type": "Split", "pattern": 3}])
def test_a_malformed_version_1_split_is_named(bad: dict[str, Any]) -> None:
    with pytest.raises(SerializationError, match="pre_tokenizer"):
        Tokenizer.from_json(json.dumps(_v1(bad)))


def test_upgrade_leaves_current_documents_alone() -> None:
    doc = {"version": 2, "pre_tokenizer": {"type": "Split", "pattern": "x"}}
    assert upgrade_document(doc) is doc


# ---------------------------------------------------------------------------------------------- configs
def _config(pattern: Any) -> dict[str, Any]:
    return {"algorithm": "byte_level_bpe", "corpus": {"texts": ["a-b c-d"] * 3}, "trainer": {"vocab_size": 260},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": pattern}, {"type": "ByteLevel", "use_regex": False, "add_prefix_space": False}]}}


def test_a_config_says_regex_or_string() -> None:
    literal, _ = TrainingConfig.from_dict(_config({"String": "-"})).build()
    regex, _ = TrainingConfig.from_dict(_config({"Regex": "[-c]"})).build()
    assert literal.pre_tokenizer.split_text("a-c") == ["a", "-", "c"]
    assert regex.pre_tokenizer.split_text("a-cb") == ["a", "-", "c", "b"]


@pytest.mark.parametrize(("pattern", "message"), [
    ("-", "pre_tokenizer.pretokenizers[0].pattern: write {Regex = '-'} for a regular expression or {String = '-'}"),
    ({"Regexp": "-"}, 'pre_tokenizer.pretokenizers[0].pattern'),
    ({"Regex": "("}, "valid regular expression"),
])
def test_a_bad_config_pattern_is_one_line(pattern: Any, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        TrainingConfig.from_dict(_config(pattern))
    assert message in str(info.value) and "\n" not in str(info.value)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_the_pattern_hint_is_valid_toml_for_the_same_pattern(pattern: str) -> None:
    """The ``{Regex = ...}`` the message suggests, pasted into a TOML file, reads back as the pattern
    (a backslash stays one backslash: ``'\\s+'`` is a literal string)."""
    import re
    import tomllib

    with pytest.raises(ConfigError) as info:
        TrainingConfig.from_dict(_config(pattern))
    suggested = re.search(r"write \{Regex = (.*)\} for a regular expression or \{String = ", str(info.value))
    assert suggested is not None, str(info.value)
    assert tomllib.loads(f"pattern = {{Regex = {suggested.group(1)}}}")["pattern"] == {"Regex": pattern}


# ---------------------------------------------------------------------------------------------- load-time checks
def _reference_depth(value: Any) -> int:
    """Obviously correct (recursive): how deeply dicts and lists nest; tuples and scalars count 0."""
    if isinstance(value, dict):
        return 1 + max(map(_reference_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_reference_depth, value), default=0)
    return 0


_leaves = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.tuples(st.lists(st.integers(), max_size=2)))
_json = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=2), inner, max_size=4),
        st.dictionaries(st.text(max_size=2), inner, max_size=3).map(OrderedDict),
    ),
    max_leaves=40,
)


def _nest(value: Any, levels: int) -> Any:
    for i in range(levels):
        value = [value] if i % 2 else {"k": value}
    return value


@settings(max_examples=300, deadline=None)
@given(value=_json, extra=st.integers(0, 70))
def test_nesting_depth_check_agrees_with_the_recursive_reference(value: Any, extra: int) -> None:
    data = _nest(value, extra)
    expected = _reference_depth(data) > limits.MAX_NESTING_DEPTH
    try:
        limits.check_nesting_depth(data, source="x")
        raised = False
    except SerializationError:
        raised = True
    assert raised == expected


def test_nesting_depth_check_at_the_limit_and_on_a_cycle() -> None:
    assert _reference_depth(_nest(1, limits.MAX_NESTING_DEPTH)) == limits.MAX_NESTING_DEPTH
    limits.check_nesting_depth(_nest(1, limits.MAX_NESTING_DEPTH), source="x")
    with pytest.raises(SerializationError, match="MAX_NESTING_DEPTH"):
        limits.check_nesting_depth(_nest([], limits.MAX_NESTING_DEPTH), source="x")
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(SerializationError, match="nested more than"):
        limits.check_nesting_depth({"a": loop}, source="x")


def _outcome(call: Any) -> Any:
    try:
        return ("ok", call())
    except ToolkitError as exc:
        return (type(exc).__name__, str(exc))


_tokens = st.one_of(st.text(max_size=4), st.sampled_from(["", "a", "\ud800", "x" * 1025]), st.integers(0, 3))
_ids = st.one_of(st.integers(-2, 6), st.sampled_from([True, 1.0, limits.MAX_TOKEN_ID + 1, "1"]))


@settings(max_examples=400, deadline=None)
@given(items=st.lists(st.tuples(_tokens, _ids), max_size=8))
def test_bulk_vocabulary_check_agrees_with_the_entry_by_entry_reference(items: list[tuple[Any, Any]]) -> None:
    vocab = dict(items)
    assert _outcome(lambda: check_vocab(vocab, where="BPE")) == _outcome(lambda: _vocab._check_vocab_items(vocab, where="BPE"))


_merge = st.one_of(
    st.tuples(st.text("ab ", max_size=2), st.text("ab ", max_size=2)).map(list),
    st.tuples(st.text("ab", max_size=2), st.text("ab", max_size=2)),
    st.text("ab ", max_size=5),
    st.sampled_from([["a"], ["a", "b", "c"], [1, "a"], None, ("a", 2)]),
)


@settings(max_examples=400, deadline=None)
@given(merges=st.lists(_merge, max_size=6))
def test_bulk_merge_parsing_agrees_with_the_merge_by_merge_reference(merges: list[Any]) -> None:
    expected = _outcome(lambda: _vocab._parse_merge_items(merges, where="BPE"))
    assert _outcome(lambda: parse_merges(merges, where="BPE")) == expected
    assert _outcome(lambda: parse_merges(iter(merges), where="BPE")) == expected


def _reference_pair_table(merges: list[tuple[str, str]], vocab: dict[str, int], specials: set[int], prefix: str | None) -> Any:
    """The pair table merge by merge (the algorithm before it was vectorized)."""
    pair_rank: dict[tuple[int, int], int] = {}
    rank_id: list[int] = []
    for rank, (left, right) in enumerate(merges):
        if left not in vocab or right not in vocab:
            missing = left if left not in vocab else right
            raise VocabularyError(f"BPE.merges[{rank}]: ({left!r}, {right!r}) uses {missing!r}, which is not in the vocabulary")
        merged = left + (right[len(prefix):] if prefix and right.startswith(prefix) else right)
        if merged not in vocab:
            raise VocabularyError(f"BPE.merges[{rank}]: ({left!r}, {right!r}) produces {merged!r}, which is not in the vocabulary")
        key = (vocab[left], vocab[right])
        if key in pair_rank:
            raise VocabularyError(f"BPE.merges[{rank}]: ({left!r}, {right!r}) is a duplicate of merges[{pair_rank[key]}]")
        pair_rank[key] = rank
        rank_id.append(vocab[merged])
    return {p: r for p, r in pair_rank.items() if rank_id[r] not in specials}, rank_id


@settings(max_examples=400, deadline=None)
@given(
    tokens=st.lists(st.text("ab#", min_size=1, max_size=3), min_size=1, max_size=10, unique=True),
    merges=st.lists(st.tuples(st.text("ab#", min_size=1, max_size=2), st.text("ab#", min_size=1, max_size=3)), max_size=8),
    n_specials=st.integers(0, 2),
    prefix=st.sampled_from([None, "#"]),
)
def test_bulk_pair_table_agrees_with_the_merge_by_merge_reference(
    tokens: list[str], merges: list[tuple[str, str]], n_specials: int, prefix: str | None
) -> None:
    vocab = {t: i for i, t in enumerate(tokens)}
    specials = set(range(n_specials))
    got = _outcome(lambda: build_pair_table(merges, vocab, specials, prefix=prefix, where="BPE"))
    assert got == _outcome(lambda: _reference_pair_table(merges, vocab, specials, prefix))


def test_ordered_vocab_sorts_only_when_needed() -> None:
    assert list(_vocab.ordered_vocab({"b": 1, "a": 0})) == ["a", "b"]
    assert list(_vocab.ordered_vocab({"a": 0, "b": 5})) == ["a", "b"]
    assert list(_vocab.ordered_vocab({"a": 0, "b": 0, "c": -1})) == ["c", "a", "b"]  # stable, like sorted()


def test_a_sequence_of_split_and_byte_level_round_trips_through_hf_json(tmp_path: Path) -> None:
    tokenizers = require("tokenizers")
    from algorithms import ByteLevelBPE

    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=Sequence([Split(Regex(r"\w+|\s+|[^\w\s]+")), ByteLevel(use_regex=False)]))
    tok.to_hf_json(tmp_path / "t.json")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "t.json"))
    for text in ("Hello, world!", "a  b"):
        assert hf.encode(text).ids == tok.encode_ids(text)
    assert Tokenizer.from_hf_json(tmp_path / "t.json").pre_tokenizer == tok.pre_tokenizer
