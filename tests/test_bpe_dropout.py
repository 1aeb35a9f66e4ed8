"""BPE-dropout on BPE and ByteLevelBPE: HF semantics at 0 and 1, seeds, no caching, files both ways."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import BPE, BPETrainer, ByteLevelBPE, ByteLevelBPETrainer
from toolkit import Tokenizer
from toolkit.errors import ConfigError
from toolkit.interfaces import build

tokenizers = pytest.importorskip("tokenizers")

COUNTS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5, "unhugged": 3}


def _bpe(**options: object) -> BPE:
    trained = BPETrainer(vocab_size=30, special_tokens=["<unk>"]).train(COUNTS)
    return BPE(trained.get_vocab(), trained.merges, unk_token="<unk>", **options)  # type: ignore[arg-type]


def test_zero_and_none_change_nothing() -> None:
    plain, zero = _bpe(), _bpe(dropout=0.0, seed=1)
    for word in [*COUNTS, "hugspun", "xhug"]:
        assert zero.encode_piece(word) == plain.encode_piece(word) and zero.tokenize(word) == plain.tokenize(word)
    assert not zero.stochastic and zero.piece_cache.capacity > 0


def test_one_skips_every_merge() -> None:
    model = _bpe(dropout=1.0)
    assert [model.id_to_token(i) for i in model.encode_piece("hugs")] == ["h", "u", "g", "s"]


def test_seeded_draws_repeat_and_vary() -> None:
    one, two = _bpe(dropout=0.5, seed=7), _bpe(dropout=0.5, seed=7)
    draws = [one.encode_piece("unhugged") for _ in range(200)]
    assert draws == [two.encode_piece("unhugged") for _ in range(200)]
    assert len(set(draws)) > 3 and one.stochastic and one.piece_cache.capacity == 0


@settings(max_examples=50, deadline=None)
@given(st.text("hugspbnedx", min_size=1, max_size=12), st.floats(0.0, 1.0), st.integers(0, 100))
def test_every_draw_spells_the_piece(word: str, p: float, seed: int) -> None:
    model = _bpe(dropout=p, seed=seed)
    spans = model.tokenize(word)
    assert [s for _, s, _ in spans] == sorted(s for _, s, _ in spans) and spans[-1][2] == len(word)
    tokens = [model.id_to_token(i) for i, _, _ in spans]
    assert "".join(t if t != "<unk>" else word[s:e] for t, (_, s, e) in zip(tokens, spans)) == word


def test_pipeline_caches_are_off_while_dropout_is_on() -> None:
    tok = Tokenizer(_bpe(seed=3))
    assert len({tuple(tok.encode_ids("unhugged")) for _ in range(20)}) == 1
    tok.model.dropout = 0.5
    assert len({tuple(tok.encode_ids("unhugged")) for _ in range(60)}) > 1
    assert len({tuple(tok.encode("unhugged").ids) for _ in range(60)}) > 1
    tok.model.dropout = None
    assert len({tuple(tok.encode_ids("unhugged")) for _ in range(20)}) == 1


def test_byte_level_bpe_dropout() -> None:
    trained = ByteLevelBPETrainer(vocab_size=300).train({"Ġhello": 5, "Ġworld": 4})
    model = ByteLevelBPE(trained.get_vocab(), trained.merges, dropout=1.0)
    assert len(model.encode_piece("Ġhello")) == 6
    model.dropout = 0.0
    assert len(model.encode_piece("Ġhello")) == 1


def test_saved_and_loaded() -> None:
    model = _bpe(dropout=0.25, seed=9)
    again = build("model", json.loads(json.dumps(model.to_dict())))
    assert again == model and again.dropout == 0.25 and again.seed == 9
    with pytest.raises(ConfigError):
        _bpe(dropout=1.5)
    with pytest.raises(ConfigError):
        _bpe(dropout=-0.1)


def test_tokenizer_json_both_ways(tmp_path) -> None:  # type: ignore[no-untyped-def]
    tok = Tokenizer(_bpe(dropout=1.0))
    path = tmp_path / "tokenizer.json"
    tok.to_hf_json(path)
    assert json.loads(path.read_text())["model"]["dropout"] == 1.0
    hf = tokenizers.Tokenizer.from_file(str(path))
    # dropout 1.0 is deterministic in both: no merge at all
    assert hf.encode("hugs").tokens == [tok.model.id_to_token(i) for i in tok.encode_ids("hugs")]
    back = Tokenizer.from_hf_json(path)
    assert back.model.dropout == 1.0
    hf.model.dropout = 0.0
    hf.save(str(path))
    assert Tokenizer.from_hf_json(path).encode_ids("unhugged") == hf.encode("unhugged").ids
