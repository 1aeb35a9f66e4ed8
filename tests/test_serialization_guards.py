"""The envelope checks of a tokenizer file (toolkit/serialization.py) that no other test pins down.

Each test here kills a mutant that survived the rest of the suite (see docs/testing.md): a check that
can be deleted without a test noticing is a check nobody relies on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from algorithms import BPE
from toolkit import Tokenizer
from toolkit.errors import SerializationError


def _document() -> dict:
    model = BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])
    return json.loads(Tokenizer(model).to_json())


@pytest.mark.parametrize("version", [True, False, 1.0, "1", None, [1]])
def test_a_version_that_is_not_an_integer_is_refused(tmp_path: Path, version: object) -> None:
    # ``True == 1`` in Python: without the bool guard a file with "version": true loads as version 1.
    doc = _document()
    doc["version"] = version
    path = tmp_path / "tok.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SerializationError, match=r"version: must be an integer, got "):
        Tokenizer.load(path)
    with pytest.raises(SerializationError, match=r"<string>: version: must be an integer"):
        Tokenizer.from_json(json.dumps(doc))


def test_a_missing_version_is_refused() -> None:
    doc = _document()
    del doc["version"]
    with pytest.raises(SerializationError, match=r"version: must be an integer, got None"):
        Tokenizer.from_json(json.dumps(doc))


@pytest.mark.parametrize("version", [0, -1])
def test_a_version_below_one_is_refused(version: int) -> None:
    doc = _document()
    doc["version"] = version
    with pytest.raises(SerializationError, match=rf"version: must be >= 1, got {version}"):
        Tokenizer.from_json(json.dumps(doc))


def test_a_newer_version_names_the_upgrade() -> None:
    doc = _document()
    doc["version"] = 3
    with pytest.raises(SerializationError, match=r"version 3 is newer than this toolkit supports \(2\); upgrade"):
        Tokenizer.from_json(json.dumps(doc))


def test_version_one_loads() -> None:
    doc = {**_document(), "version": 1}  # documents of format version 1 still load
    assert Tokenizer.from_json(json.dumps(doc)).encode_ids("ab") == [2]


# Error messages name the problem and the fix: the exact wording is part of the behaviour.
@pytest.mark.parametrize(("doc", "message"), [
    ([1], "<string>: the document must be a JSON object, got list"),
    ({"format": "x", "added_tokens": []}, "<string>: format: expected 'tokenizer-toolkit', got 'x' (this looks like a "
                                           "Hugging Face tokenizer.json: use Tokenizer.from_hf_json)"),
    ({"format": "x"}, "<string>: format: expected 'tokenizer-toolkit', got 'x'"),
])
def test_envelope_messages(doc: object, message: str) -> None:
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_json(json.dumps(doc))
    assert str(info.value) == message


def test_unknown_fields_and_metadata_messages() -> None:
    doc = {**_document(), "zeta": 1, "alpha": 2}
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_json(json.dumps(doc))
    assert str(info.value) == "<string>: unknown top-level field(s): alpha, zeta"
    doc = {**_document(), "metadata": [1]}
    with pytest.raises(SerializationError) as info:
        Tokenizer.from_json(json.dumps(doc))
    assert str(info.value) == "<string>: metadata: must be an object, got list"


def test_truncated_json_message(tmp_path: Path) -> None:
    path = tmp_path / "tok.json"
    path.write_text(json.dumps(_document())[:20], encoding="utf-8")
    with pytest.raises(SerializationError) as info:
        Tokenizer.load(path)
    assert str(info.value).startswith(f"{path}: not valid JSON (")
    assert str(info.value).endswith("); the file may be truncated or not a tokenizer file")


def test_saved_files_are_utf8_with_unix_newlines_and_no_temporary_left(tmp_path: Path) -> None:
    model = BPE(vocab={"é": 0, "中": 1, "é中": 2}, merges=[("é", "中")])
    path = tmp_path / "tok.json"
    Tokenizer(model).save(path, indent=2)
    raw = path.read_bytes()
    assert "é中".encode() in raw and b"\r\n" not in raw and b"\n" in raw
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tok.json"]
    assert Tokenizer.load(path).encode_ids("é中") == [2]


@pytest.mark.parametrize("name", ["tok.json/", "missing/", "tok.json/.", "."])
def test_a_save_to_a_path_ending_in_a_slash_is_refused_and_writes_nothing(tmp_path: Path, name: str) -> None:
    # Path() would drop the slash and write a file "tok.json"; Hugging Face's save fails there too.
    with pytest.raises(SerializationError, match="ends with a slash or a dot, which names a folder; give a file path"):
        Tokenizer(BPE({"a": 0}, [])).save(f"{tmp_path}/{name}")
    assert list(tmp_path.iterdir()) == []


def test_write_problem_says_what_the_save_would_refuse(tmp_path: Path) -> None:
    from toolkit.serialization import write_problem

    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert write_problem(tmp_path / "new" / "deeper" / "tok.json") is None  # the caller makes the folders
    assert write_problem(tmp_path / "file") is None  # replaced by the save
    assert write_problem(tmp_path) == "it is a folder, not a regular file; save to a file path instead"
    assert write_problem(tmp_path / "file" / "tok.json") == f"{tmp_path / 'file'} is a file, not a folder; give another path"
    assert write_problem(f"{tmp_path}/x/") == "the path ends with a slash or a dot, which names a folder; give a file path"
    assert write_problem("") == "the path is empty; give a file path"


def test_write_problem_follows_links_as_the_save_does(tmp_path: Path) -> None:
    import os

    from toolkit.serialization import write_problem

    (tmp_path / "real").mkdir()
    (tmp_path / "to-file.json").symlink_to(tmp_path / "real" / "tok.json")  # dangling: its target is created
    assert write_problem(tmp_path / "to-file.json") is None
    (tmp_path / "to-nowhere.json").symlink_to(tmp_path / "missing" / "tok.json")
    assert write_problem(tmp_path / "to-nowhere.json") == (
        f"it is a link to {tmp_path / 'missing' / 'tok.json'}, whose folder does not exist; create "
        f"{tmp_path / 'missing'} or give another path")
    (tmp_path / "dangling-dir").symlink_to(tmp_path / "gone")
    assert write_problem(tmp_path / "dangling-dir" / "tok.json") == (
        f"{tmp_path / 'dangling-dir'} is a link to {tmp_path / 'gone'}, which does not exist; create it or give another path")
    read, write = os.pipe()  # /dev/stdout into a pipe: a link to a pipe that is no path
    try:
        assert write_problem(f"/proc/self/fd/{write}") == "it is a FIFO, not a regular file; save to a file path instead"
    finally:
        os.close(read)
        os.close(write)


def test_a_save_through_a_link_replaces_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel
    from toolkit.interop.gpt2 import save_vocab_merges

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "vocab.json").write_text("old", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "vocab.json").symlink_to(elsewhere / "vocab.json")
    (out / "merges.txt").symlink_to(elsewhere / "new-merges.txt")  # dangling: created
    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False))
    save_vocab_merges(tok, out)
    assert (out / "vocab.json").is_symlink() and (out / "merges.txt").is_symlink()
    assert (elsewhere / "vocab.json").read_text(encoding="utf-8").startswith("{")
    assert (elsewhere / "new-merges.txt").read_text(encoding="utf-8").startswith("#version")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["new-merges.txt", "vocab.json"]  # no copy, no backup left
    assert sorted(p.name for p in out.iterdir()) == ["merges.txt", "vocab.json"]
