"""Contract tests over the registry: every component serializes and loads back; bad documents fail typed.

Also the plugin test: a component defined here registers, works in a pipeline, saves and loads back.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolkit import RegistryError, SerializationError, Tokenizer
from toolkit.errors import ConfigError
from toolkit.interfaces import Component, Model, Normalizer, Params, build
from toolkit.registry import register, registered, lookup

# Components that cannot be built with no arguments get an example here. A newly registered
# component without defaults must be added, so the contract keeps covering every component.
EXAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    ("normalizer", "Replace"): {"pattern": "a", "content": "b"},
    ("normalizer", "Prepend"): {"prepend": "▁"},
    ("normalizer", "Sequence"): {"normalizers": []},
    ("pre_tokenizer", "Split"): {"pattern": r"\s+", "behavior": "removed"},
    ("pre_tokenizer", "Sequence"): {"pretokenizers": []},
    ("pre_tokenizer", "CharDelimiterSplit"): {"delimiter": "|"},  # issue 17
    ("decoder", "Sequence"): {"decoders": []},
    ("decoder", "Replace"): {"pattern": "▁", "content": " "},
    ("post_processor", "TemplateProcessing"): {
        "single": "[CLS] $A [SEP]",
        "pair": "[CLS] $A [SEP] $B:1 [SEP]:1",
        "special_tokens": [["[CLS]", 1], ["[SEP]", 2]],
    },
    ("post_processor", "Sequence"): {"processors": []},
    ("model", "WordPiece"): {"vocab": {"[UNK]": 0, "a": 1, "##b": 2}},
    ("normalizer", "Precompiled"): {"precompiled_charsmap": "BAAAAAAAAAA="},  # spm helper: an empty map
}


def _instance(kind: str, name: str, cls: type) -> Component:
    data = {"type": name, **EXAMPLES.get((kind, name), {})}
    return build(kind, json.loads(json.dumps(data)))


def _all_components() -> list[tuple[str, str, type]]:
    builtin = {"toolkit", "algorithms", "pretokenizers"}
    return [(k, n, c) for k, n, c in registered() if c.__module__.split(".")[0] in builtin]


@pytest.mark.parametrize("kind,name,cls", _all_components(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_component_round_trips_through_json(kind: str, name: str, cls: type) -> None:
    obj = _instance(kind, name, cls)
    assert isinstance(obj, cls)
    data = obj.to_dict()
    assert data["type"] == name
    text = json.dumps(data)
    again = build(kind, json.loads(text))
    assert again == obj
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(data, sort_keys=True)
    # Trusted loading (no validation) gives the same object too.
    assert build(kind, json.loads(text), validate=False) == obj


@pytest.mark.parametrize("name,cls", [(n, c) for k, n, c in _all_components() if k == "model"],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_model_encodes_the_empty_piece_as_nothing(name: str, cls: type) -> None:
    model = _instance("model", name, cls)
    assert tuple(model.encode_piece("")) == ()
    assert list(model.tokenize("")) == []


@pytest.mark.parametrize("kind", ["normalizer", "pre_tokenizer", "model", "trainer", "post_processor", "decoder"])
def test_unknown_type_is_a_typed_error_naming_it(kind: str) -> None:
    with pytest.raises(RegistryError, match="NoSuchThing"):
        build(kind, {"type": "NoSuchThing"})


@pytest.mark.parametrize("kind,name,cls", _all_components(), ids=lambda v: v if isinstance(v, str) else "")
def test_unknown_option_is_a_typed_error_naming_it(kind: str, name: str, cls: type) -> None:
    data = {"type": name, **EXAMPLES.get((kind, name), {}), "no_such_option": 1}
    with pytest.raises(ConfigError, match="no_such_option"):
        build(kind, data)


# The four Sequence containers share toolkit.interfaces.Container: one child of each kind.
CONTAINERS = {
    "normalizer": ("normalizers", {"type": "Lowercase"}),
    "pre_tokenizer": ("pretokenizers", {"type": "Whitespace"}),
    "decoder": ("decoders", {"type": "Fuse"}),
    "post_processor": ("processors", {"type": "ByteLevel"}),
}


@pytest.mark.parametrize("kind", sorted(CONTAINERS))
def test_sequence_containers_take_instances_or_dicts_and_name_bad_children(kind: str) -> None:
    field, child = CONTAINERS[kind]
    cls = lookup(kind, "Sequence")
    built = build(kind, child)
    seq = cls([built, child])  # an instance and a dict
    assert len(seq) == 2 and list(seq) == [built, built] and seq[1] == built
    assert getattr(seq, field) == seq.children == [built, built]
    data = seq.to_dict()
    assert list(data) == ["type", field] and [c["type"] for c in data[field]] == [child["type"]] * 2
    assert build(kind, json.loads(json.dumps(data))) == seq
    with pytest.raises(ConfigError, match=rf"Sequence'\.{field}\[1\]: must be a"):
        cls([built, 42])
    with pytest.raises(ConfigError, match=rf"{field}: must be a list of {kind} objects, got str"):
        cls("Lowercase")
    with pytest.raises(RegistryError, match=rf"{kind}\.{field}\[0\]: .*NoSuchThing"):
        build(kind, {"type": "Sequence", field: [{"type": "NoSuchThing"}]}, where=kind)


def test_every_registered_component_is_reachable_by_lookup() -> None:
    comps = _all_components()
    kinds = {k for k, _, _ in comps}
    assert kinds == {"normalizer", "pre_tokenizer", "model", "trainer", "post_processor", "decoder"}
    for kind, name, cls in comps:
        assert lookup(kind, name) is cls
        assert cls.type_name == name


def test_duplicate_registration_is_an_error() -> None:
    from toolkit.normalizers import Lowercase

    class Other(Normalizer):
        def normalize(self, text):  # pragma: no cover - never called
            return text

    with pytest.raises(RegistryError, match="already registered"):
        register("Lowercase")(Other)
    assert lookup("normalizer", "Lowercase") is Lowercase


def test_register_rejects_non_components() -> None:
    with pytest.raises(RegistryError, match="kind"):

        @register("Nope")
        class Nope:  # noqa: B903 - a plain class on purpose
            pass


# --------------------------------------------------------------------------- the plugin test


@register("TestShout")
class Shout(Normalizer):
    """Upper-cases text; a plugin defined outside the toolkit."""

    class Params(Params):
        exclaim: bool = False

    def __init__(self, *, exclaim: bool = False) -> None:
        self.exclaim = exclaim

    def normalize(self, text):
        out = text.map_chars(str.upper)
        if self.exclaim:
            n = len(out.normalized)
            out = out.rewrite([(0, n, out.normalized), (n, n, "!")])
        return out


@register("TestCharModel")
class CharModel(Model):
    """One token per character; ids are code points. A plugin model."""

    class Params(Params):
        offset: int = 0

    def __init__(self, *, offset: int = 0) -> None:
        super().__init__()
        self.offset = offset

    def tokenize(self, piece):
        return [(ord(c) + self.offset, i, i + 1) for i, c in enumerate(piece)]

    def _encode_piece(self, piece):
        return tuple(ord(c) + self.offset for c in piece)

    def get_vocab(self):
        return {}

    def token_to_id(self, token):
        return ord(token) + self.offset if len(token) == 1 else None

    def id_to_token(self, token_id):
        return chr(token_id - self.offset) if token_id >= self.offset else None


def test_plugin_components_work_in_a_pipeline_and_round_trip(tmp_path) -> None:
    from pretokenizers import WhitespaceSplit

    tok = Tokenizer(CharModel(offset=1), normalizer=Shout(exclaim=True), pre_tokenizer=WhitespaceSplit())
    enc = tok.encode("hi yo")
    assert enc.tokens == ["H", "I", "Y", "O", "!"]
    assert enc.ids == [ord(c) + 1 for c in "HIYO!"]
    assert enc.offsets == [(0, 1), (1, 2), (3, 4), (4, 5), (5, 5)]
    assert tok.encode_ids("hi yo") == enc.ids
    path = tmp_path / "plugin.json"
    tok.save(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["normalizer"] == {"type": "TestShout", "exclaim": True}
    assert doc["model"] == {"type": "TestCharModel", "offset": 1}
    again = Tokenizer.load(path)
    assert isinstance(again.normalizer, Shout) and again.normalizer.exclaim is True
    assert again.encode("hi yo").ids == enc.ids


# --------------------------------------------------------------------------- broken documents


def _doc(**overrides: Any) -> dict[str, Any]:
    doc = {
        "format": "tokenizer-toolkit",
        "version": 1,
        "normalizer": None,
        "pre_tokenizer": None,
        "model": {"type": "TestCharModel", "offset": 0},
        "post_processor": None,
        "decoder": None,
        "metadata": {},
    }
    doc.update(overrides)
    return doc


def test_minimal_document_loads() -> None:
    tok = Tokenizer.from_json(json.dumps(_doc()))
    assert tok.encode_ids("ab") == [97, 98]


@pytest.mark.parametrize(
    "text,match",
    [
        ('{"format": "tokenizer-toolkit", "version": 1, "model": {', "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps(_doc(version=3)), "version: file format version 3 is newer"),
        (json.dumps(_doc(version="1")), "version: must be an integer"),
        (json.dumps(_doc(format="other")), "format: expected"),
        (json.dumps({k: v for k, v in _doc().items() if k != "model"}), "model: required"),
        (json.dumps(_doc(model={"type": "Nope"})), "model.type: unknown model type 'Nope'"),
        (json.dumps(_doc(model={"offset": 1})), "model.type: required"),
        (json.dumps(_doc(model={"type": "TestCharModel", "offset": "x"})), "offset"),
        (json.dumps(_doc(model={"type": "TestCharModel", "ofset": 1})), "ofset: unknown option"),
        (json.dumps(_doc(normalizer={"type": "Nope"})), "normalizer.type: unknown normalizer type"),
        (json.dumps(_doc(extra=1)), "unknown top-level field"),
        (json.dumps(_doc(metadata=[])), "metadata: must be an object"),
        (json.dumps({"added_tokens": [], "model": {}}), "from_hf_json"),
    ],
)
def test_broken_documents_fail_with_a_serialization_error_naming_the_field(text: str, match: str) -> None:
    with pytest.raises(SerializationError, match=match):
        Tokenizer.from_json(text)


def test_load_missing_or_non_utf8_file(tmp_path) -> None:
    with pytest.raises(SerializationError, match="no such tokenizer file"):
        Tokenizer.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(SerializationError, match="not UTF-8"):
        Tokenizer.load(bad)


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path, monkeypatch) -> None:
    import os

    path = tmp_path / "tok.json"
    path.write_text("previous", encoding="utf-8")

    def fail_rename(src, dst):  # the write completed, the final rename fails (e.g. disk full, crash)
        raise OSError("simulated failure")

    monkeypatch.setattr(os, "replace", fail_rename)
    with pytest.raises(SerializationError, match="simulated"):
        Tokenizer(CharModel()).save(path)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tok.json"]
    Tokenizer(CharModel()).save(path)
    assert Tokenizer.load(path).encode_ids("a") == [97]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tok.json"]


def test_save_into_missing_folder_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(SerializationError, match="does not exist"):
        Tokenizer(CharModel()).save(tmp_path / "nope" / "tok.json")


def test_failed_discovery_is_retried_not_left_empty(monkeypatch) -> None:
    import toolkit.registry as reg

    monkeypatch.setattr(reg, "_discovered", False)
    monkeypatch.setattr(reg, "_BUILTIN_MODULES", ("toolkit.no_such_module_for_test",))
    with pytest.raises(ModuleNotFoundError):
        reg._discover()
    assert reg._discovered is False  # the next look-up tries again
