"""Tokenizer files saved by an earlier version load and behave exactly as they did.

``tests/fixtures/`` holds three small trained tokenizers (BPE with ``<unk>`` and ``##``, GPT-2 style byte-level
BPE, BERT style WordPiece) and ``expected.json``, the ids, tokens, offsets, type ids and decodings they gave for
a set of texts (accents, CJK, emoji, control characters, special tokens allowed or not, pairs) when they were
written by ``tests/fixtures/make_fixtures.py``. A change of behaviour or of the file format fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolkit import Tokenizer
from toolkit.serialization import VERSION

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPECTED: dict[str, list[dict[str, Any]]] = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
ARGS = ("pair", "allowed_special", "add_special_tokens")


def _cases() -> list[Any]:
    return [
        pytest.param(name, case, id=f"{name.removesuffix('.json')}-{i}")
        for name, cases in EXPECTED.items()
        for i, case in enumerate(cases)
    ]


@pytest.fixture(scope="module")
def tokenizers() -> dict[str, Tokenizer]:
    return {name: Tokenizer.load(FIXTURES / name) for name in EXPECTED}


def test_the_fixtures_cover_what_they_claim() -> None:
    assert sorted(EXPECTED) == ["bpe_unk_prefix.json", "byte_level_gpt2.json", "wordpiece_bert.json"]
    for name, cases in EXPECTED.items():
        assert (FIXTURES / name).stat().st_size < 100_000
        assert len(cases) >= 20
        assert any(c.get("allowed_special") for c in cases) and any("pair" in c for c in cases)


@pytest.mark.parametrize("name,case", _cases())
def test_encodes_as_when_saved(tokenizers: dict[str, Tokenizer], name: str, case: dict[str, Any]) -> None:
    tok = tokenizers[name]
    args = {k: case[k] for k in ARGS if k in case}
    enc = tok.encode(case["text"], **args)
    assert enc.ids == case["ids"]
    assert enc.tokens == case["tokens"]
    assert [list(span) for span in enc.offsets] == case["offsets"]
    assert enc.type_ids == case["type_ids"]
    assert tok.decode(enc.ids, skip_special_tokens=False) == case["decode"]
    assert tok.decode(enc.ids, skip_special_tokens=True) == case["decode_skip_special"]
    if "pair" not in case:  # the ids-only fast path agrees
        assert tok.encode_ids(case["text"], **args) == case["ids"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_batch_and_trusted_loading_agree(tokenizers: dict[str, Tokenizer], name: str) -> None:
    cases = [c for c in EXPECTED[name] if not any(k in c for k in ARGS)]
    batch = tokenizers[name].encode_batch([c["text"] for c in cases])
    assert [e.ids for e in batch] == [c["ids"] for c in cases]
    trusted = Tokenizer.load(FIXTURES / name, trusted=True)
    assert [trusted.encode_ids(c["text"]) for c in cases] == [c["ids"] for c in cases]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_saving_again_writes_the_same_document(tokenizers: dict[str, Tokenizer], name: str, tmp_path: Path) -> None:
    """The file format is stable: a loaded file saves back to the same JSON document, plus the options
    added since the fixture was written, at their defaults (BPE-dropout: ``dropout`` and ``seed``), in
    the current format version (2 writes ``Split`` patterns as ``{"Regex": ...}``; no fixture has one)."""
    tokenizers[name].save(tmp_path / name)
    saved = json.loads((tmp_path / name).read_text(encoding="utf-8"))
    fixture = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    added_since = {"dropout": None, "seed": None} if fixture["model"]["type"] in ("BPE", "ByteLevelBPE") else {}
    assert saved == {**fixture, "version": VERSION, "model": {**fixture["model"], **added_since}}
