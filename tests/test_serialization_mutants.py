"""Known answers for ``toolkit/serialization.py`` that the mutation run showed unpinned (docs/testing.md,
"serialization"): the version 1 → 2 upgrade of pre-tokenizers, and where and how atomic writes refuse
or report a target. Expected values are written out by hand.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from toolkit import limits
from toolkit.errors import SerializationError
from toolkit.serialization import (
    atomic_write_bytes,
    atomic_write_text,
    upgrade_document,
)


def _v1(pre_tokenizer: object) -> dict[str, object]:
    return {"version": 1, "pre_tokenizer": pre_tokenizer}


def _upgraded(pre_tokenizer: object) -> object:
    out = upgrade_document(_v1(pre_tokenizer))
    assert out["version"] == 2
    return out["pre_tokenizer"]


# ---------------------------------------------------------------- version 1 documents


def test_byte_level_gets_version_1s_default_unless_it_says_otherwise() -> None:
    assert _upgraded({"type": "ByteLevel", "use_regex": False}) == {
        "type": "ByteLevel", "use_regex": False, "add_prefix_space": False}
    assert _upgraded({"type": "ByteLevel", "add_prefix_space": True}) == {"type": "ByteLevel", "add_prefix_space": True}
    assert _upgraded({"type": "Whitespace"}) == {"type": "Whitespace"}


def test_a_split_pattern_is_a_regex_unless_literal() -> None:
    assert _upgraded({"type": "Split", "pattern": r"\d+", "behavior": "isolated", "literal": False}) == {
        "type": "Split", "pattern": {"Regex": r"\d+"}, "behavior": "isolated"}
    assert _upgraded({"type": "Split", "pattern": "."}) == {"type": "Split", "pattern": {"Regex": "."}}
    assert _upgraded({"type": "Split", "pattern": ".", "literal": True}) == {"type": "Split", "pattern": {"String": "."}}


@pytest.mark.parametrize(
    "spec",
    [
        {"type": "Split", "pattern": {"Regex": "a+"}},  # already in version 2's shape
        {"type": "Split", "pattern": "x", "literal": "yes"},  # malformed: left for the component check
        {"type": "Other", "pattern": "x"},  # not a Split
        {"type": "Sequence"},  # no list of children
        {"type": "Sequence", "pretokenizers": "ByteLevel"},
    ],
)
def test_anything_else_is_left_as_it_is(spec: object) -> None:
    assert _upgraded(spec) == spec


def test_a_document_without_a_pre_tokenizer_object_is_left_as_it_is() -> None:
    doc = _v1("ByteLevel")
    assert upgrade_document(doc) is doc


def test_children_are_upgraded_down_to_the_nesting_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_NESTING_DEPTH", 2)

    def nested(levels: int) -> dict[str, object]:
        spec: dict[str, object] = {"type": "ByteLevel"}
        for _ in range(levels):
            spec = {"type": "Sequence", "pretokenizers": [spec]}
        return spec

    done = {"type": "ByteLevel", "add_prefix_space": False}
    assert _upgraded(nested(1)) == {"type": "Sequence", "pretokenizers": [done]}
    assert _upgraded(nested(2)) == {"type": "Sequence", "pretokenizers": [{"type": "Sequence", "pretokenizers": [done]}]}
    # The ByteLevel at depth 3 is past the limit of 2: left as it is (the depth check then names it).
    assert _upgraded(nested(3)) == nested(3)


# ---------------------------------------------------------------- atomic writes


def test_a_symlink_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write_text(link, "new é")
    assert link.is_symlink()
    assert real.read_bytes() == "new é".encode()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_what_is_not_a_regular_file_is_refused_by_name(tmp_path: Path) -> None:
    def refused(path: Path | str, kind: str) -> None:
        with pytest.raises(SerializationError) as info:
            atomic_write_bytes(path, b"x")
        assert str(info.value) == f"cannot write {path}: it is a {kind}, not a regular file; save to a file path instead"

    refused(tmp_path, "folder")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(fifo, "FIFO")
    if Path("/dev/null").exists():
        refused("/dev/null", "device or special file")


def test_a_failing_write_names_the_path_and_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_space(*args: object, **kwargs: object) -> object:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "mkstemp", no_space)
    with pytest.raises(SerializationError) as info:
        atomic_write_text(tmp_path / "t.json", "x")
    assert str(info.value) == f"cannot write {tmp_path / 't.json'}: No space left on device"

    def bare(*args: object, **kwargs: object) -> object:
        raise OSError("the disk said no")  # no strerror: the exception's text is the reason

    monkeypatch.setattr(tempfile, "mkstemp", bare)
    with pytest.raises(SerializationError) as info:
        atomic_write_text(str(tmp_path / "t.json"), "x")
    assert str(info.value) == f"cannot write {tmp_path / 't.json'}: the disk said no"
    assert not (tmp_path / "t.json").exists()


def test_a_document_built_in_memory_is_checked_for_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    from algorithms import BPE
    from toolkit import Tokenizer

    doc = Tokenizer(BPE(vocab={"a": 0}, merges=[])).to_dict()
    monkeypatch.setattr(limits, "MAX_NESTING_DEPTH", 4)
    assert Tokenizer.from_dict({**doc, "metadata": {"x": [["ok"]]}}).metadata == {"x": [["ok"]]}  # 4 levels
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_dict({**doc, "metadata": {"x": [[["deep"]]]}}, source="mem")  # 5 levels
    assert str(info.value) == (
        "mem: nested more than 4 levels deep (toolkit.limits.MAX_NESTING_DEPTH); a Sequence inside a Sequence "
        "inside ... is never needed: flatten it")


def test_parse_json_names_its_source_and_checks_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit import Tokenizer
    from toolkit.serialization import parse_json

    with pytest.raises(SerializationError) as info:
        Tokenizer.from_json("{")  # parse_json's default source
    assert str(info.value).startswith("<string>: not valid JSON (")
    monkeypatch.setattr(limits, "MAX_NESTING_DEPTH", 4)
    assert parse_json("[[[[1]]]]", source="s") == [[[[1]]]]
    with pytest.raises(SerializationError) as info:
        parse_json("[[[[[1]]]]]", source="s")
    assert str(info.value).startswith("s: nested more than 4 levels deep")


def test_a_trusted_document_skips_the_vocabulary_checks() -> None:
    """What ``trusted=True`` is for: the per-token checks of a large vocabulary are skipped, shown here
    by a vocabulary only those checks refuse (two tokens with one id)."""
    from algorithms import BPE
    from toolkit import Tokenizer

    doc = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[])).to_dict()
    doc["model"]["vocab"] = {"a": 0, "b": 0}
    assert Tokenizer.from_dict(doc, trusted=True).get_vocab() == {"a": 0, "b": 0}
    with pytest.raises(SerializationError, match="^<dict>: model"):
        Tokenizer.from_dict(doc)
