"""The comparison tools as a notebook user meets them: metrics by hand on the algorithms the other
compare tests leave out (WordLevel, Unigram behind Metaspace), properties over random texts, and the
inputs that used to be silently misread or to fail deep inside (file names as texts, a mapping of texts
given to ``visualize``, option flags given as strings, a preset pair or a Hugging Face tokenizer where a
tokenizer goes, an untrained tokenizer among several, plots of unmeasured metrics, Markdown that lost
``<unk>``).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms import BPE, Unigram, WordLevel, WordPiece
from conftest import require
from pretokenizers import Metaspace, Whitespace
from toolkit import ConfigError, InputError, Tokenizer, VocabularyError, decoders
from toolkit.analysis import compare, parallel_sample, sweep, unreachable_tokens, visualize
from toolkit.training.presets import bert, gpt2_style


def word_level() -> Tokenizer:
    vocab = {"[UNK]": 0, "the": 1, "cat": 2, "sat": 3}
    return Tokenizer(WordLevel(vocab, unk_token="[UNK]"), pre_tokenizer=Whitespace())


def unigram() -> Tokenizer:
    pieces = [("<unk>", 0.0), ("▁", -1.0), ("▁a", -1.0), ("a", -2.0), ("b", -2.0)]
    return Tokenizer(Unigram(pieces, unk_id=0), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())


def wordpiece() -> Tokenizer:
    vocab = {"[UNK]": 0, "hug": 1, "##s": 2}
    return Tokenizer(WordPiece(vocab), pre_tokenizer=Whitespace(), decoder=decoders.WordPiece())


def char_bpe() -> Tokenizer:  # no unknown token: a character outside "abc" cannot be encoded
    return Tokenizer(BPE({"a": 0, "b": 1, "c": 2, "ab": 3}, [("a", "b")]), pre_tokenizer=Whitespace())


# ------------------------------------------------------------------------------------- metrics by hand
def test_word_level_metrics_by_hand() -> None:
    # "the cat sat" -> the|cat|sat; "the dog" -> the|[UNK]: 5 tokens, 18 bytes = 18 characters, 5 words
    report = compare({"wl": word_level()}, ["the cat sat", "the dog"], measure_speed=False)
    m = report["wl"]
    assert (m.tokens, m.text.bytes, m.text.chars, m.text.words) == (5, 18, 18, 5)
    assert m.bytes_per_token == m.chars_per_token == 18 / 5
    assert m.fertility == 1.0 and m.split_word_share == 0.0  # one token per word
    assert m.unk_rate == 1 / 5 and m.unk_word_share == 1 / 5  # "dog"
    assert m.mean_token_length == 3.0  # the, cat, sat, the: the [UNK] has no length
    assert m.roundtrip_share == 1 / 2  # "the dog" decodes to "the [UNK]"
    assert m.vocab_utilization == 1.0 and report.never_used["wl"] == []
    p = [2 / 5, 1 / 5, 1 / 5, 1 / 5]  # the twice; cat, sat, [UNK] once
    assert math.isclose(m.shannon_efficiency, -sum(x * math.log(x) for x in p) / math.log(4))
    assert math.isclose(m.renyi_efficiency, math.log(sum(x ** 2.5 for x in p)) / (1 - 2.5) / math.log(4))


def test_unigram_behind_metaspace_metrics_by_hand() -> None:
    # "a b" -> ▁a (0,1) | ▁ (1,2) | b (2,3): the lone ▁ is the space before "b" and covers no word, so
    # "b" is one token and no word is split; lengths " a" 2, " " 1, "b" 1.
    tok = unigram()
    assert tok.encode("a b").tokens == ["▁a", "▁", "b"]
    m = compare({"u": tok}, "a b", measure_speed=False)["u"]
    assert (m.tokens, m.text.words, m.split_words) == (3, 2, 0)
    assert m.fertility == 1.5 and m.bytes_per_token == 1.0
    assert m.mean_token_length == 4 / 3 and m.roundtrip_share == 1.0
    assert m.vocab_utilization == 3 / 5


TOKENIZERS = {"wl": word_level(), "u": unigram(), "wp": wordpiece()}
TEXT = st.text(st.sampled_from(list("the catsb  hug\né.")), max_size=14)


@given(st.lists(TEXT, min_size=1, max_size=4).filter(lambda ts: all(t.strip() for t in ts)))
def test_counts_add_up_over_texts_and_a_string_is_a_list_of_one(texts: list[str]) -> None:
    whole = compare(TOKENIZERS, texts, measure_speed=False, check_unreachable=False)
    parts = [compare(TOKENIZERS, text, measure_speed=False, check_unreachable=False) for text in texts]
    counts = ("tokens", "split_words", "unk_tokens", "unk_words", "roundtrip_texts")
    for name in TOKENIZERS:
        for count in counts:
            assert getattr(whole[name], count) == sum(getattr(p[name], count) for p in parts), (name, count)
        assert whole[name].text == sum((p[name].text for p in parts), start=type(whole.text)())
        assert whole[name].split_words <= whole[name].text.words
    single = compare(TOKENIZERS, [texts[0]], measure_speed=False, check_unreachable=False)
    assert parts[0].to_dict() == single.to_dict()


# ------------------------------------------------------------------------------------- texts
@pytest.mark.parametrize("texts", ["held_out.txt", ["data/en.txt", "data/fr.txt"], {"en": "en.txt"}])
def test_texts_that_are_file_names_are_refused(texts: object) -> None:
    # sweep() and Tokenizer.train read a str corpus as a path; compare used to measure the name itself
    with pytest.raises(InputError, match=r"file names.*read_text"):
        compare({"wl": word_level()}, texts, measure_speed=False)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="file names"):
        sweep({"bl": gpt2_style()}, ["low lower"] * 3, vocab_sizes=[260], texts=texts)  # type: ignore[arg-type]


def test_texts_with_a_file_name_among_words_are_measured() -> None:
    report = compare({"wl": word_level()}, ["see notes.txt", "notes.txt"], measure_speed=False)
    assert report.text.texts == 2 and report.text.words == 3


def test_visualize_refuses_a_mapping_of_texts_and_takes_tokenizer_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="mapping"):  # it used to show the keys "en", "fr"
        visualize(word_level(), {"en": ["the cat"], "fr": ["le chat"]})  # type: ignore[arg-type]
    word_level().save(tmp_path / "wl.json")
    view = visualize({"file": tmp_path / "wl.json", "object": word_level()}, "the cat")
    assert [row.to_text() for row in view.rows[0]] == ["the cat", "the cat"]
    assert view.names == ["file", "object"]


def test_parallel_sample_takes_one_code() -> None:
    assert parallel_sample("th") == parallel_sample(["th"])  # not the languages "t" and "h"
    with pytest.raises(ConfigError, match="list of codes"):
        parallel_sample(5)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- typed errors
@pytest.mark.parametrize("call", [
    lambda: compare({"wl": word_level()}, "the cat", measure_speed="no"),
    lambda: compare({"wl": word_level()}, "the cat", check_unreachable="False"),
    lambda: compare({"wl": word_level()}, "the cat", timing_repeats=True),
    lambda: sweep({"bl": gpt2_style()}, ["low"] * 3, vocab_sizes=[260], keep_tokenizers="yes"),
    lambda: sweep({"bl": gpt2_style()}, ["low"] * 3, vocab_sizes=[260], check_unreachable=0),
    lambda: visualize(word_level(), "the cat", show_ids="no"),
    lambda: visualize(word_level(), "the cat", add_special_tokens=None),
], ids=["measure_speed", "check_unreachable", "timing_repeats", "keep_tokenizers", "sweep_check_unreachable",
        "show_ids", "add_special_tokens"])
def test_a_flag_that_is_not_a_bool_is_a_config_error(call: object) -> None:
    with pytest.raises(ConfigError, match="must be|positive integer"):
        call()  # type: ignore[operator]


def test_a_preset_pair_or_a_hugging_face_tokenizer_gets_the_fix() -> None:
    with pytest.raises(ConfigError, match=r"\(tokenizer, trainer\) pair: train it first"):
        compare({"wp": bert()}, "hug")  # type: ignore[dict-item]
    with pytest.raises(ConfigError, match=r"\(tokenizer, trainer\) pair"):
        visualize({"wp": bert()}, "hug")  # type: ignore[dict-item]
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token="[UNK]"))
    with pytest.raises(ConfigError, match=r"got tokenizers\.Tokenizer \(Hugging Face\).*from_str"):
        compare({"hf": hf}, "hug")
    assert isinstance(Tokenizer.from_str(hf.to_str()), Tokenizer)  # the fix the message gives works


def test_a_tokenizer_that_cannot_encode_is_named_with_the_text() -> None:
    untrained, _ = bert()
    with pytest.raises(VocabularyError, match=r"^compare: 'untrained' on texts\[0\]: .*train it"):
        compare({"ok": word_level(), "untrained": untrained}, ["the cat"], measure_speed=False)
    with pytest.raises(InputError, match=r"^compare: 'chars' on texts\['th'\]\[1\]: .*unk_token"):
        compare({"chars": char_bpe()}, {"en": ["ab c", "ab"], "th": ["ab", "ไทย"]}, measure_speed=False)
    with pytest.raises(VocabularyError, match=r"^visualize: 'untrained' on texts\[1\]: "):
        visualize({"ok": word_level(), "untrained": untrained}, ["", "the cat"])


@pytest.mark.parametrize("ids", ["abc", 3, [1.5], [None]])
def test_unreachable_ids_must_be_token_ids(ids: object) -> None:
    # "abc" used to check nothing (its characters are no ids) and 3 to fail with a TypeError
    with pytest.raises(ConfigError, match="ids must"):
        unreachable_tokens(word_level(), ids=ids)  # type: ignore[arg-type]
    assert unreachable_tokens(word_level(), ids=range(2, 4)).checked == 2  # cat, sat


def test_sweep_sizes_and_progress_are_checked_before_training() -> None:
    with pytest.raises(ConfigError, match=r"vocab_sizes=\[300\]"):
        sweep({"bl": gpt2_style()}, ["low"] * 3, vocab_sizes=300)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="progress must be a function"):
        sweep({"bl": gpt2_style()}, ["low"] * 3, vocab_sizes=[260], progress="bar")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- renderings
def test_to_dict_is_a_copy_of_the_report() -> None:
    report = compare({"wl": word_level(), "u": unigram()}, {"en": ["the cat"], "xx": ["a b"]}, measure_speed=False)
    data = report.to_dict()
    data["vocab_overlap"]["wl"]["wl"] = None
    data["identical_words"]["wl"].clear()
    data["never_used"]["wl"].clear()
    data["languages"]["en"]["identical_words"]["u"]["u"] = None
    assert report.overlap["wl"]["wl"] == 1.0 and report.languages["xx"].overlap["wl"]["wl"] == 1.0
    assert report.identical_words["wl"]["u"] is not None and report.never_used["wl"] == ["sat"]
    assert report.languages["en"].identical_words["u"]["u"] == 1.0
    assert report.to_dict() == compare({"wl": word_level(), "u": unigram()}, {"en": ["the cat"], "xx": ["a b"]},
                                       measure_speed=False).to_dict()


def test_markdown_shows_angle_brackets_and_underscores_as_written() -> None:
    vocab = {"<unk>": 0, "__init__": 1, "a*b": 2, "x": 3}
    tok = Tokenizer(WordLevel(vocab, unk_token="<unk>"), pre_tokenizer=Whitespace())
    md = compare({"<mine>": tok}, "x", measure_speed=False).to_markdown()
    assert r"'\<unk>' '\_\_init\_\_' 'a\*b'" in md  # the never-used tokens: <unk> used to vanish as a tag
    assert r"| \<mine> |" in md
    assert "<unk>" in compare({"<mine>": tok}, "x", measure_speed=False).to_text()  # plain text unchanged


# ------------------------------------------------------------------------------------- plots
@pytest.fixture(scope="module")
def curves() -> object:
    return sweep({"bl": gpt2_style()}, ["low lower lowest"] * 5, vocab_sizes=[260, 262], check_unreachable=False)


def test_plotting_a_metric_no_sweep_measures_is_an_error(curves: object, tmp_path: Path) -> None:
    require("matplotlib")
    from toolkit.analysis.plots import save_plots

    for metric in ("throughput", "parity"):  # an empty figure before
        with pytest.raises(ConfigError, match=f"'{metric}' was not measured"):
            curves.plot(metric)  # type: ignore[attr-defined]
    report = compare({"wl": word_level()}, "the cat", measure_speed=False)
    with pytest.raises(ConfigError, match="'throughput' was not measured"):
        save_plots(report, tmp_path / "out", sweep=curves, sweep_metrics=("bytes_per_token", "throughput"))
    assert not (tmp_path / "out").exists()  # checked before anything is written


def test_save_plots_takes_one_metric_as_a_string(curves: object, tmp_path: Path) -> None:
    require("matplotlib")
    from toolkit.analysis.plots import save_plots

    written = save_plots(None, tmp_path, sweep=curves, sweep_metrics="fertility")  # not "f", "e", ...
    assert [p.name for p in written] == ["sweep_fertility.png"]


def test_without_matplotlib_save_plots_makes_no_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from toolkit.analysis.plots import save_plots

    report = compare({"wl": word_level()}, "the cat", measure_speed=False)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ConfigError, match=r'pip install "tokenizer-toolkit\[compare\]"'):
        save_plots(report, tmp_path / "plots")
    with pytest.raises(ConfigError, match="needs matplotlib|pip install"):
        report.plot_token_lengths()
    assert not (tmp_path / "plots").exists()


def test_sweep_refuses_a_size_given_twice() -> None:
    from toolkit.analysis.sweep import sweep
    from toolkit.training.presets import gpt2_style

    with pytest.raises(ConfigError, match="270 more than once"):
        sweep({"bl": gpt2_style()}, ["low lower lowest"] * 5, vocab_sizes=[270, 260, 270])


def test_the_cli_reports_table_keeps_a_tokenizer_name_as_written(tmp_path) -> None:
    from toolkit.cli import main
    from toolkit.training.presets import bert_pipeline

    bert_pipeline({"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "hug": 5}).save(tmp_path / "wp.json")
    (tmp_path / "en.txt").write_text("hug hugs\n", encoding="utf-8")
    out = tmp_path / "report"
    code = main(["compare", "-t", f"<mine>={tmp_path / 'wp.json'}", "--texts", str(tmp_path / "en.txt"), "-o", str(out),
                 "--no-plots"])
    assert code == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    assert f"| \\<mine> | `{tmp_path / 'wp.json'}` |" in md  # shown as written, not read as an HTML tag
