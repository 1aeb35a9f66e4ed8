"""The four algorithms side by side: ``examples/compare.toml`` and the compare config's ``corpus``,
``vocab_size`` and ``parallel_sample`` languages; Unigram's unknown piece counted by the metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from algorithms import Unigram
from toolkit import ConfigError, Tokenizer
from toolkit.analysis import compare
from toolkit.cli.compare import CompareConfig

ALGORITHMS = {"BPE": "BPE", "byte-level BPE": "ByteLevelBPE", "WordPiece": "WordPiece", "Unigram": "Unigram"}


def test_the_shipped_config_trains_the_four_algorithms_at_one_size_on_four_languages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolkit.cli import main

    monkeypatch.chdir(ROOT)  # the config's paths are relative to the repository folder
    out = tmp_path / "out"
    code = main(["compare", "examples/compare.toml", "-o", str(out), "--no-plots", "--no-unreachable", "-q"])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    rows = data["report"]["tokenizers"]
    assert {r["name"]: r["algorithm"] for r in rows} == ALGORITHMS
    assert {r["vocab_size"] for r in rows} == {400}  # equal sizes: `vocab_size` applies to every config
    assert list(data["report"]["languages"]) == ["en", "fr", "th", "zh"]
    assert data["report"]["reference"] == "en"
    for lang in ("en", "fr", "th", "zh"):
        assert [r["name"] for r in data["report"]["languages"][lang]["tokenizers"]] == list(ALGORITHMS)
    sizes = {(p["name"], p["requested_vocab_size"]) for p in data["sweep"]["points"]}
    assert sizes == {(name, size) for name in ALGORITHMS for size in (300, 400, 500)}
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "corpus examples/data/en.txt, examples/data/fr.txt" in md and "trainer.vocab_size=400" in md
    assert "Fertility by language" in printed.out and "Unigram" in printed.out


def test_corpus_and_vocab_size_override_every_training_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolkit.cli import main

    corpus = ROOT / "examples" / "data" / "en.txt"
    texts = tmp_path / "en.txt"
    texts.write_text("hugs and bugs\n", encoding="utf-8")
    configs = ROOT / "examples" / "configs"
    out = tmp_path / "out"
    code = main(["compare", "-c", f"u={configs / 'unigram.toml'}", "-c", f"b={configs / 'bpe.toml'}",
                 "--corpus", str(corpus), "--vocab-size", "100", "--texts", str(texts),
                 "--no-plots", "--json", "-o", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    rows = json.loads(printed.out)["report"]["tokenizers"]
    assert [(r["name"], r["vocab_size"]) for r in rows] == [("u", 100), ("b", 100)]


def test_the_config_fields_and_their_errors() -> None:
    config = CompareConfig.from_dict({"corpus": "a.txt", "vocab_size": 100, "parallel_sample": ["en", "th"]})
    assert config.corpus == ["a.txt"] and config.vocab_size == 100 and config.parallel_sample == ["en", "th"]
    with pytest.raises(ConfigError, match="vocab_size"):
        CompareConfig.from_dict({"vocab_size": 0})
    with pytest.raises(ConfigError, match="either texts or parallel_sample"):
        CompareConfig.from_dict({"parallel_sample": ["en"], "texts": ["a.txt"]})


def test_an_unknown_parallel_sample_language_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolkit.cli import main

    Tokenizer(Unigram([("<unk>", 0.0), ("a", -1.0)], unk_id=0)).save(tmp_path / "u.json")
    config = tmp_path / "c.toml"
    config.write_text(f'parallel_sample = ["en", "xx"]\n[tokenizers]\nu = "{tmp_path / "u.json"}"\n', encoding="utf-8")
    assert main(["compare", str(config), "--no-plots", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no language 'xx'" in err and "the sample has en, fr" in err


def test_unigram_unknown_pieces_count_as_unknown() -> None:
    model = Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -1.0), ("b", -2.0)], unk_id=0)
    assert model.unk_token == "<unk>" and Unigram([("a", 0.0)]).unk_token is None
    tok = Tokenizer(model)
    report = compare({"u": tok}, ["ab xa"], measure_speed=False, check_unreachable=False)
    assert report["u"].unk_tokens == 1 and report["u"].unk_word_share == 0.5  # " x" is one unknown piece
