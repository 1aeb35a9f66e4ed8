"""Comparison tools: metrics checked by hand, renderings, sweeps, the token view, plots, the CLI.

The tiny corpus is two texts, ``"hug hugs"`` and ``"ugh é"`` (14 UTF-8 bytes, 13 characters, 4
whitespace words), measured with three hand-made tokenizers whose every token can be listed:

============  =======================================  =====================================
tokenizer     "hug hugs"                               "ugh é"
============  =======================================  =====================================
BPE           hug | hug s            (3 tokens)        u g h | [UNK]            (4 tokens)
WordPiece     hug | hug ##s          (3 tokens)        [UNK] | [UNK]            (2 tokens)
byte-level    hug | Ġhug s           (3 tokens)        u g h | Ġ Ã ©            (6 tokens)
============  =======================================  =====================================

so every number below is worked out in the comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from algorithms import BPE, ByteLevelBPE, WordPiece
from conftest import require
from pretokenizers import ByteLevel, Metaspace, Whitespace
from toolkit import ConfigError, InputError, Tokenizer, TrainingError, VocabSizeWarning, decoders
from toolkit.bytelevel import BYTE_TO_CHAR
from toolkit.analysis import METRICS, ComparisonReport, SweepResult, TokenView, compare, sweep, visualize
from toolkit.analysis.metrics import surface_function, token_surface, vocabulary_strings

TEXTS = ["hug hugs", "ugh é"]


def bpe() -> Tokenizer:
    vocab = {"[UNK]": 0, "h": 1, "u": 2, "g": 3, "s": 4, "hu": 5, "hug": 6}
    return Tokenizer(BPE(vocab, [("h", "u"), ("hu", "g")], unk_token="[UNK]"), pre_tokenizer=Whitespace())


def wordpiece() -> Tokenizer:
    vocab = {"[UNK]": 0, "hug": 1, "##s": 2, "h": 3, "##u": 4, "##g": 5}
    return Tokenizer(WordPiece(vocab), pre_tokenizer=Whitespace(), decoder=decoders.WordPiece())


def byte_level() -> Tokenizer:
    vocab = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
    vocab.update({"hu": 256, "hug": 257, "Ġhug": 258})
    model = ByteLevelBPE(vocab, [("h", "u"), ("hu", "g"), ("Ġ", "hug")])
    return Tokenizer(model, pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel())


@pytest.fixture(scope="module")
def report() -> ComparisonReport:
    return compare({"BPE": bpe(), "WordPiece": wordpiece(), "byte-level": byte_level()}, TEXTS, measure_speed=False)


# ------------------------------------------------------------------------------ the tokenizers
def test_the_hand_made_tokenizers_cut_as_the_docstring_says() -> None:
    assert bpe().encode(TEXTS[0]).tokens == ["hug", "hug", "s"]
    assert bpe().encode(TEXTS[1]).tokens == ["u", "g", "h", "[UNK]"]
    assert wordpiece().encode(TEXTS[0]).tokens == ["hug", "hug", "##s"]
    assert wordpiece().encode(TEXTS[1]).tokens == ["[UNK]", "[UNK]"]
    assert byte_level().encode(TEXTS[0]).tokens == ["hug", "Ġhug", "s"]
    enc = byte_level().encode(TEXTS[1])
    assert enc.tokens == ["u", "g", "h", "Ġ", "Ã", "©"]
    assert enc.offsets[-3:] == [(3, 4), (4, 5), (4, 5)]  # the two bytes of é share its span


# ------------------------------------------------------------------------------ metrics by hand
def test_text_statistics(report: ComparisonReport) -> None:
    # "hug hugs": 8 bytes, 8 chars, 2 words; "ugh é": 6 bytes (é is 2), 5 chars, 2 words.
    assert report.text.to_dict() == {"texts": 2, "bytes": 14, "chars": 13, "words": 4}


def test_bpe_metrics_by_hand(report: ComparisonReport) -> None:
    m = report["BPE"]
    assert (m.algorithm, m.vocab_size, m.tokens) == ("BPE", 7, 7)  # 3 + 4 tokens
    assert m.bytes_per_token == 14 / 7 == 2.0
    assert m.chars_per_token == 13 / 7
    assert m.fertility == 7 / 4
    assert (m.split_words, m.split_word_share) == (2, 0.5)  # "hugs" (hug|s) and "ugh" (u|g|h)
    assert (m.unk_tokens, m.unk_rate) == (1, 1 / 7)  # é
    assert (m.unk_words, m.unk_word_share) == (1, 0.25)
    assert dict(m.token_lengths) == {1: 4, 3: 2}  # hug hug s u g h; [UNK] has no length
    assert m.mean_token_length == 10 / 6  # (4·1 + 2·3) / 6
    assert m.roundtrip_share == 0.0  # no decoder: tokens are joined with spaces
    assert m.throughput is None and m.train_seconds is None


def test_wordpiece_metrics_by_hand(report: ComparisonReport) -> None:
    m = report["WordPiece"]
    assert (m.tokens, m.bytes_per_token, m.fertility) == (5, 14 / 5, 5 / 4)
    assert m.split_words == 1  # only "hugs"; "ugh" is one [UNK]
    assert (m.unk_tokens, m.unk_rate, m.unk_words, m.unk_word_share) == (2, 0.4, 2, 0.5)
    assert dict(m.token_lengths) == {1: 1, 3: 2}  # hug hug ##s ("##" is not text)
    assert m.mean_token_length == 7 / 3
    # The WordPiece decoder rebuilds "hug hugs" (hug + ##s → hugs); "ugh é" comes back as "[UNK] [UNK]".
    assert (m.roundtrip_texts, m.roundtrip_share) == (1, 0.5)


def test_byte_level_metrics_by_hand(report: ComparisonReport) -> None:
    m = report["byte-level"]
    assert (m.algorithm, m.vocab_size, m.tokens) == ("ByteLevelBPE", 259, 9)  # 3 + 6
    assert m.bytes_per_token == 14 / 9
    assert m.fertility == 9 / 4
    assert m.split_words == 3  # hugs (Ġhug|s), ugh (u|g|h), é (two byte tokens)
    assert (m.unk_tokens, m.unk_words) == (0, 0)
    # hug=3, Ġhug=" hug"=4, s u g h Ġ=1 each, Ã and © are parts of é: one character each
    assert dict(m.token_lengths) == {1: 7, 3: 1, 4: 1}
    assert m.mean_token_length == 14 / 9
    assert m.roundtrip_share == 1.0


def test_identical_words_by_hand(report: ComparisonReport) -> None:
    same = report.identical_words
    # BPE/WordPiece: hug, hugs (hug|s), é ([UNK] both) agree; ugh (u|g|h vs [UNK]) differs.
    assert same["BPE"]["WordPiece"] == same["WordPiece"]["BPE"] == 0.75
    # BPE/byte-level: hug, hugs (Ġhug covers the space before the word), ugh agree; é ([UNK] vs 2 bytes) differs.
    assert same["BPE"]["byte-level"] == 0.75
    # WordPiece/byte-level: hug and hugs agree.
    assert same["WordPiece"]["byte-level"] == 0.5
    assert all(same[n][n] == 1.0 for n in report.names)


def test_vocabulary_overlap_by_hand(report: ComparisonReport) -> None:
    assert vocabulary_strings(bpe()) == {b"h", b"u", b"g", b"s", b"hu", b"hug"}
    assert vocabulary_strings(wordpiece()) == {b"hug", b"s", b"h", b"u", b"g"}
    bl = vocabulary_strings(byte_level())
    assert len(bl) == 258 and b"hug" in bl and b" " in bl  # 256 bytes + hu + hug (Ġhug is " hug" → "hug")
    assert report.overlap["BPE"]["WordPiece"] == 5 / 6
    assert report.overlap["BPE"]["byte-level"] == 6 / 258
    assert report.overlap["WordPiece"]["byte-level"] == 5 / 258
    assert report.overlap["BPE"]["BPE"] == 1.0


def test_languages_give_sub_reports_and_the_same_totals(report: ComparisonReport) -> None:
    toks = {"BPE": bpe(), "WordPiece": wordpiece(), "byte-level": byte_level()}
    by_lang = compare(toks, {"a": TEXTS[:1], "b": TEXTS[1:]}, measure_speed=False)
    assert list(by_lang.languages) == ["a", "b"]
    assert by_lang.to_dict()["tokenizers"] == report.to_dict()["tokenizers"]
    assert by_lang.identical_words == report.identical_words
    a, b = by_lang.languages["a"], by_lang.languages["b"]
    assert (a["BPE"].tokens, b["BPE"].tokens) == (3, 4)
    assert (a["byte-level"].fertility, b["byte-level"].fertility) == (1.5, 3.0)
    assert b.identical_words["BPE"]["WordPiece"] == 0.5  # é agrees ([UNK] both), ugh does not
    assert a.identical_words["WordPiece"]["byte-level"] == 1.0


def test_token_covering_no_text_counts_for_the_word_it_starts() -> None:
    # Metaspace prepends "▁", a token with the empty span (0, 0): it belongs to the first word.
    tok = Tokenizer(BPE({"▁": 0, "a": 1, "b": 2}, []), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())
    assert tok.encode("ab").offsets == [(0, 0), (0, 1), (1, 2)]
    m = compare({"m": tok}, ["ab"], measure_speed=False)["m"]
    assert (m.tokens, m.fertility, m.split_words, m.roundtrip_share) == (3, 3.0, 1, 1.0)
    assert dict(m.token_lengths) == {1: 3}  # "▁" stands for a space


def test_post_processor_specials_are_not_counted() -> None:
    from toolkit.training.presets import bert_pipeline

    tok = bert_pipeline({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hug": 3, "##s": 4})
    assert tok.encode("hugs").tokens == ["[CLS]", "hug", "##s", "[SEP]"]
    assert compare({"bert": tok}, "hugs", measure_speed=False)["bert"].tokens == 2


def test_speed_and_training_time() -> None:
    tok = bpe()
    tok.metadata = {"training": {"stats": {"training_seconds": 1.5}}}
    r = compare({"a": tok, "b": bpe()}, TEXTS * 10, training_seconds={"b": 2.0}, timing_repeats=2)
    assert r["a"].throughput is not None and r["a"].throughput > 0 and r["a"].encode_seconds > 0
    assert (r["a"].train_seconds, r["b"].train_seconds) == (1.5, 2.0)


def test_token_surfaces() -> None:
    assert token_surface(byte_level(), "Ġhug") == b" hug"
    assert token_surface(byte_level(), "Ã") == b"\xc3"
    assert token_surface(wordpiece(), "##s") == b"s"
    assert token_surface(wordpiece(), "[UNK]") is None
    meta = Tokenizer(BPE({"▁a": 0}, []), pre_tokenizer=Metaspace())
    assert surface_function(meta)("▁a") == b" a"
    suffix = Tokenizer(BPE({"a</w>": 0, "[UNK]": 1}, [], end_of_word_suffix="</w>", unk_token="[UNK]"))
    assert token_surface(suffix, "a</w>") == b"a"


def test_input_errors() -> None:
    with pytest.raises(ConfigError, match="mapping"):
        compare(bpe(), TEXTS)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="must be a Tokenizer"):
        compare({"x": 3.5}, TEXTS)  # type: ignore[dict-item]
    with pytest.raises(ConfigError, match="cannot tell the tokenizer format"):  # a string is a tokenizer file
        compare({"x": "not a tokenizer"}, TEXTS)
    with pytest.raises(InputError, match=r"texts\[1\]"):
        compare({"x": bpe()}, ["ok", 3])  # type: ignore[list-item]
    with pytest.raises(InputError, match="no texts"):
        compare({"x": bpe()}, [])
    with pytest.raises(InputError, match="bytes"):
        compare({"x": bpe()}, b"abc")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unknown tokenizers"):
        compare({"x": bpe()}, TEXTS, training_seconds={"y": 1.0})
    with pytest.raises(ConfigError, match="unknown metric"):
        compare({"x": bpe()}, TEXTS, measure_speed=False)["x"].metric("speed")


def test_compare_is_exported_by_the_analysis_package() -> None:
    import toolkit.analysis

    assert toolkit.analysis.compare is compare
    assert toolkit.analysis.compare({"x": bpe()}, TEXTS, measure_speed=False)["x"].tokens == 7


# ------------------------------------------------------------------------------ renderings
def test_plain_text_rendering(report: ComparisonReport) -> None:
    text = str(report)
    assert text == report.to_text()
    assert text.startswith("Comparison on 2 texts, 14 UTF-8 bytes, 13 characters, 4 whitespace words")
    lines = text.splitlines()
    headers = [line for line in lines if line.startswith("tokenizer ")]
    header, vocab_header = headers[0], headers[1]  # compression and coverage; vocabulary, round trip and speed
    for label in ("tokens", "bytes/token", "fertility", "split words", "[UNK] tokens", "mean len"):
        assert label in header
    for label in ("vocab", "Rényi eff.", "Shannon eff.", "vocab used", "unreachable", "round trip"):
        assert label in vocab_header
    assert "encode" not in vocab_header and "train" not in vocab_header  # not measured: no empty columns
    bpe_rows = [line.split() for line in lines if line.startswith("BPE ")]
    # The best value of each column with a direction carries a "*" (the literature metrics: test_compare_literature.py).
    assert bpe_rows[0] == ["BPE", "BPE", "7", "2.00", "1.86", "1.75", "50.0%", "14.3%", "25.0%", "1.67"]
    assert bpe_rows[1] == ["BPE", "BPE", "7", "0.86", "0.90", "85.7%*", "0", "0%"]  # Rényi, Shannon: diagnostics
    assert "* best value of a column" in text
    assert "Vocabulary overlap (Jaccard)" in text and "Words tokenized identically" in text
    overlap_row = next(line for line in lines if line.startswith("BPE ") and "83.3%" in line)
    assert overlap_row.split() == ["BPE", "100.0%", "83.3%", "2.3%"]


def test_markdown_rendering(report: ComparisonReport) -> None:
    md = report.to_markdown()
    assert md.startswith("## Tokenizer comparison\n\nMeasured on 2 texts")
    assert "### Tokenizers" in md
    assert "| tokenizer | algorithm | tokens | bytes/token |" in md
    assert "### Vocabulary, round trip and speed" in md
    assert "| tokenizer | algorithm | vocab | Rényi eff. | Shannon eff. | vocab used | unreachable | round trip |" in md
    assert "|---|---|---:|---:|---:|" in md
    # the best values in bold
    assert "| WordPiece | WordPiece | **5** | **2.80** | **2.60** | **1.25** | **25.0%** | 40.0% | 50.0% | 2.33 |" in md
    assert "| WordPiece | WordPiece | 6 | 0.56 | 0.59 | 50.0% | 0 | 50.0% |" in md
    assert "|  | BPE | WordPiece | byte-level |" in md
    assert report.to_markdown(title=None).startswith("Measured on")
    # A "|" inside a cell is escaped.
    odd = compare({"a|b": bpe()}, TEXTS, measure_speed=False).to_markdown()
    assert "| a\\|b | BPE |" in odd


def test_dict_and_json_rendering(report: ComparisonReport) -> None:
    data = report.to_dict()
    assert json.loads(report.to_json()) == json.loads(json.dumps(data))
    assert set(data) == {"text", "tokenizers", "vocab_overlap", "identical_words", "languages", "never_used",
                         "unreachable", "reference"}
    row = data["tokenizers"][2]
    assert row["name"] == "byte-level" and row["algorithm"] == "ByteLevelBPE"
    assert set(METRICS) <= set(row)
    assert row["counts"] == {"texts": 2, "bytes": 14, "chars": 13, "words": 4, "tokens": 9, "split_words": 3,
                             "unk_tokens": 0, "unk_words": 0, "roundtrip_texts": 2, "distinct_tokens": 9,
                             "reference_tokens": None}
    assert row["token_lengths"] == {"1": 7, "3": 1, "4": 1}
    assert row["throughput"] is None
    assert data["vocab_overlap"]["BPE"]["WordPiece"] == 5 / 6


def test_html_rendering(report: ComparisonReport) -> None:
    page = report._repr_html_()
    assert page == report.to_html()
    assert page.startswith("<style>") and '<table class="tkc">' in page
    assert "<th" in page and "bytes/<wbr>token" in page and "2.80" in page  # headers may wrap after "/"
    assert 'class="num best"' in page  # the best value of a column is emphasised
    escaped = compare({"<b>x</b>": bpe()}, TEXTS, measure_speed=False)._repr_html_()
    assert "<b>x</b>" not in escaped and "&lt;b&gt;x&lt;/b&gt;" in escaped


def test_language_tables_in_every_rendering() -> None:
    r = compare({"BPE": bpe(), "bl": byte_level()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False)
    assert "Fertility by language" in r.to_text()
    assert "### Fertility by language" in r.to_markdown()
    assert "| BPE | 1.50 | **2.00** |" in r.to_markdown()  # the best per language in bold (en: a tie, unmarked)
    assert "Fertility by language" in r._repr_html_()
    assert set(r.to_dict()["languages"]) == {"en", "fr"}
    assert "in 2 languages (en, fr)" in r.to_text()


# ------------------------------------------------------------------------------ sweep
CORPUS = ["low lower lowest newer wider newest widest", "the lowest and the newest"] * 20


def test_sweep_counts_once_per_split_and_trains_each_size(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.training.corpus
    from toolkit.training.presets import bert, gpt2_style

    calls: list[object] = []
    real = toolkit.training.corpus.count_words

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(kwargs.get("pre_tokenizer"))
        return real(*args, **kwargs)

    monkeypatch.setattr(toolkit.training.corpus, "count_words", counting)
    pipelines = {"byte-level": gpt2_style(), "byte-level again": gpt2_style(min_frequency=2), "WordPiece": bert()}
    result = sweep(pipelines, iter(CORPUS), vocab_sizes=[270, 280], keep_tokenizers=True)
    assert len(calls) == 2  # the two byte-level pipelines cut text the same way: one count
    assert [(p.name, p.requested_vocab_size) for p in result.points] == [
        ("byte-level", 270), ("byte-level", 280), ("byte-level again", 270), ("byte-level again", 280),
        ("WordPiece", 270), ("WordPiece", 280)]
    assert result.names == ["byte-level", "byte-level again", "WordPiece"]
    bl = [p.metrics for p in result.points if p.name == "byte-level"]
    assert [m.vocab_size for m in bl] == [270, 280]
    assert bl[0].bytes_per_token < bl[1].bytes_per_token  # more merges, fewer tokens
    assert all(p.metrics.train_seconds is not None for p in result.points)
    # The measured tokens equal encoding the corpus with the kept tokenizer.
    tok = result.tokenizers[("byte-level", 280)]
    assert bl[1].tokens == sum(len(tok.encode_ids(t)) for t in CORPUS)
    assert result.series("vocab_size")["WordPiece"][0][0] <= 270


def test_sweep_on_separate_texts_and_languages() -> None:
    from toolkit.training.presets import gpt2_style

    result = sweep({"bl": gpt2_style()}, CORPUS, vocab_sizes=[280], texts={"en": ["the newest"], "xx": ["wider"]})
    m = result.points[0].metrics
    assert m.text.texts == 2 and m.text.words == 3
    assert result.tokenizers == {}  # not kept by default


def test_sweep_point_with_added_tokens_equals_train_then_compare() -> None:
    # An added token's id before training belongs to a trained token after it: the sweep renumbers the
    # added tokens as Tokenizer.train does (two tokens on one id decoded "<think>" for a merge before).
    import warnings

    from toolkit.training.presets import gpt2_style

    def pipeline():  # noqa: ANN202
        tok, trainer = gpt2_style(vocab_size=280)
        tok.add_tokens(["<think>"])
        return tok, trainer

    texts = ["the newest <think> wider", "The lowest widest."]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VocabSizeWarning)
        tok, trainer = pipeline()
        trained = tok.train(CORPUS, trainer)
        result = sweep({"bl": pipeline()}, CORPUS, vocab_sizes=[280], texts=texts, keep_tokenizers=True)
    swept = result.tokenizers[("bl", 280)]
    assert swept.get_vocab() == trained.get_vocab()
    assert swept.token_to_id("<think>") >= swept.model.vocab_size  # past the trained vocabulary
    assert [swept.decode(swept.encode_ids(t)) for t in texts] == texts
    expected = compare({"bl": trained}, texts, measure_speed=False).rows[0].to_dict()
    got = result.points[0].metrics.to_dict()
    assert {k: v for k, v in got.items() if k != "train_seconds"} == {
        k: v for k, v in expected.items() if k != "train_seconds"}


def test_sweep_renderings() -> None:
    from toolkit.training.presets import gpt2_style

    result = sweep({"bl": gpt2_style()}, CORPUS, vocab_sizes=[260, 280])
    text = str(result)
    assert text.startswith("Vocabulary-size sweep") and "requested" in text
    assert "| bl | 260 | 260 |" in result.to_markdown()
    assert '<table class="tkc">' in result._repr_html_()
    data = json.loads(result.to_json())
    assert [p["requested_vocab_size"] for p in data["points"]] == [260, 280]
    assert data["points"][0]["counts"]["texts"] == len(CORPUS)
    assert set(data["counting_seconds"]) == {"bl"}


def test_sweep_errors() -> None:
    from toolkit.training.presets import gpt2_style

    with pytest.raises(ConfigError, match=r"sweep: bl at vocab_size=100: .* too small"):
        sweep({"bl": gpt2_style()}, CORPUS, vocab_sizes=[100])
    with pytest.raises(TrainingError, match="sweep: bl at vocab_size=300"):
        sweep({"bl": gpt2_style()}, [""], vocab_sizes=[300], texts=["x"])  # nothing to train on
    with pytest.raises(ConfigError, match="vocab_sizes"):
        sweep({"bl": gpt2_style()}, CORPUS, vocab_sizes=[])
    with pytest.raises(ConfigError, match=r"\(Tokenizer, Trainer\) pair"):
        sweep({"bl": bpe()}, CORPUS, vocab_sizes=[300])  # type: ignore[dict-item]
    assert SweepResult([], {}).series() == {}


# ------------------------------------------------------------------------------ token view
def test_token_view_plain_text() -> None:
    toks = {"BPE": bpe(), "WordPiece": wordpiece(), "byte-level": byte_level()}
    view = visualize(toks, TEXTS)
    assert view.names == ["BPE", "WordPiece", "byte-level"]
    assert str(view) == view.to_text() == (
        "'hug hugs'\n"
        "BPE         3 tokens  hug hug|s\n"
        "WordPiece   3 tokens  hug hug|s\n"
        "byte-level  3 tokens  hug|␣hug|s\n"
        "\n"
        "'ugh é'\n"
        "BPE         4 tokens  u|g|h [UNK]\n"
        "WordPiece   2 tokens  [UNK] [UNK]\n"
        "byte-level  6 tokens  u|g|h|␣|é×2"
    )
    # One tokenizer, one text: just the tokens.
    assert str(byte_level().visualize("hug\thugs\n")) == "hug|→|hug|s|↵"  # GPT-2 split: hug \t hugs \n
    assert str(visualize(bpe(), "hugs hug")) == "hug|s hug"


def test_token_view_cells() -> None:
    view = visualize({"bl": byte_level(), "wp": wordpiece()}, "hugs é")
    bl, wp = view.rows[0]
    assert [(c.kind, c.text, c.ids) for c in bl.cells] == [
        ("token", "hug", (257,)), ("token", "s", (ord("s"),)), ("token", " ", (32,)), ("group", "é", (0xC3, 0xA9))]
    assert [(c.kind, c.text) for c in wp.cells] == [("token", "hug"), ("token", "s"), ("gap", " "), ("unk", "é")]
    assert repr(view) == "TokenView(1 text(s) × 2 tokenizer(s))"


def test_token_view_group_with_an_unknown_token() -> None:
    from toolkit.normalizers import NFKC

    # NFKC turns the ligature "ﬁ" into "f" + "i": two tokens for one original character, "i" unknown.
    tok = Tokenizer(BPE({"[UNK]": 0, "f": 1}, [], unk_token="[UNK]"), normalizer=NFKC())
    view = visualize(tok, "ﬁ")
    (cell,) = view.rows[0][0].cells
    assert (cell.kind, cell.text, cell.ids, cell.unknown) == ("group", "ﬁ", (1, 0), True)
    assert str(view) == "f+[UNK]"
    assert "tkv-unk" in view.to_html() and "<sub>×2</sub>" in view.to_html()
    m = compare({"t": tok}, "ﬁ", measure_speed=False)["t"]
    assert (m.tokens, m.unk_tokens, m.unk_words, m.split_words) == (2, 1, 1, 1)


def test_token_view_html(tmp_path: Path) -> None:
    from toolkit.training.presets import bert_pipeline

    bert = bert_pipeline({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hug": 3, "##s": 4})
    view = visualize({"bert": bert, "bl": byte_level()}, ["hugs <é>"], show_ids=True)
    page = view._repr_html_()
    assert page == view.to_html() and page.startswith("<style>")
    assert "tkv-special" in page and "[CLS]" in page  # the post-processor's tokens are grey pills
    assert "tkv-unk" in page  # "<", "é", ">" are three unknown words for this BERT
    assert "&lt;" in page and "<é>" not in page  # text is escaped
    assert "<sub>×2</sub>" in page  # é is two byte tokens
    assert 'title="id 257 · &#x27;hug&#x27;"' in page  # ids on hover
    assert '<span class="tkv-id">3</span>' in page  # and printed with show_ids
    assert "background:#fde68a" in page and "background:#a7f3d0" in page  # alternating colours
    view.save(tmp_path / "view.html")
    saved = (tmp_path / "view.html").read_text(encoding="utf-8")
    assert saved.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in saved
    assert str(view) == ("bert  7 tokens  [CLS]|hug|s [UNK]|[UNK]|[UNK]|[SEP]\n"
                         "bl    7 tokens  hug|s|␣|<|é×2|>")


def test_tokenizer_visualize_method() -> None:
    view = bpe().visualize("hugs")
    assert isinstance(view, TokenView) and str(view) == "hug|s"
    # Truncation and padding are a batch layout, left out as in compare (the tokenizer keeps them).
    laid_out = bpe()
    laid_out.enable_truncation(max_length=1)
    laid_out.enable_padding(length=6, pad_token="[UNK]")
    assert str(visualize(laid_out, "hugs hug")) == "hug|s hug"
    assert laid_out.encode("hugs hug").tokens == ["hug", "[UNK]", "[UNK]", "[UNK]", "[UNK]", "[UNK]"]
    with pytest.raises(InputError):
        visualize(bpe(), [])
    with pytest.raises(ConfigError):
        visualize({"x": 3}, "a")  # type: ignore[dict-item]


# ------------------------------------------------------------------------------ plots
def test_plots(tmp_path: Path, report: ComparisonReport) -> None:
    require("matplotlib")
    from matplotlib.figure import Figure

    from toolkit.analysis.plots import plot_languages, plot_sweep, plot_token_lengths, save_plots
    from toolkit.training.presets import gpt2_style

    fig = plot_token_lengths(report)
    assert isinstance(fig, Figure) and fig.axes[0].get_xlabel().startswith("token length")
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["1", "2", "3", "4+"]
    langs = compare({"BPE": bpe(), "bl": byte_level()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False)
    assert isinstance(langs.plot_languages(metric="bytes_per_token"), Figure)
    result = sweep({"bl": gpt2_style()}, CORPUS, vocab_sizes=[260, 280])
    sweep_fig = result.plot()
    assert sweep_fig.axes[0].get_xlabel() == "vocabulary size"
    assert [line.get_label() for line in sweep_fig.axes[0].get_lines()] == ["bl"]
    written = save_plots(langs, tmp_path, sweep=result, sweep_metrics=("bytes_per_token", "fertility"))
    assert [p.name for p in written] == ["token_lengths.png", "fertility_by_language.png",
                                         "bytes_per_token_by_language.png", "renyi_efficiency_by_language.png",
                                         "sweep_bytes_per_token.png", "sweep_fertility.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in written)
    with pytest.raises(ConfigError, match="grouped by language"):
        plot_languages(report)
    with pytest.raises(ConfigError, match="unknown metric"):
        plot_sweep(result, metric="nope")


# ------------------------------------------------------------------------------ CLI
@pytest.fixture
def files(tmp_path: Path) -> Path:
    bpe().save(tmp_path / "bpe.json")
    byte_level().save(tmp_path / "bl.json")
    (tmp_path / "en.txt").write_text("hug hugs\nhugs hug\n", encoding="utf-8")
    (tmp_path / "fr.txt").write_text("ugh é\n", encoding="utf-8")
    return tmp_path


def test_cli_writes_report_and_plots(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("matplotlib")
    from toolkit.cli import main

    out = files / "report"
    code = main(["compare", "-t", str(files / "bpe.json"), "-t", f"bytes={files / 'bl.json'}",
                 "--texts", str(files / "en.txt"), "-o", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert printed.out.startswith("Comparison on 2 texts, 18 UTF-8 bytes")
    assert f"wrote report.md, report.json, token_lengths.png to {out}" in printed.out
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Tokenizer comparison")
    assert f"| bpe | `{files / 'bpe.json'}` |" in md and "| bytes |" in md
    assert "### Tokenizers" in md and "![token lengths](token_lengths.png)" in md
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [r["name"] for r in data["report"]["tokenizers"]] == ["bpe", "bytes"]
    assert data["report"]["tokenizers"][0]["tokens"] == 6  # hug | hug s, hug s | hug: Whitespace drops "\n"
    assert (out / "token_lengths.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_config_with_training_languages_and_sweep(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("matplotlib")
    from toolkit.cli import main

    train = files / "train.toml"
    train.write_text(
        'algorithm = "byte_level_bpe"\n'
        "[corpus]\n"
        'texts = ["hug hugs hugged hugging", "pug pugs bug bugs"]\n'
        '[pre_tokenizer]\ntype = "ByteLevel"\n'
        "[trainer]\nvocab_size = 270\n"
        '[decoder]\ntype = "ByteLevel"\n',
        encoding="utf-8",
    )
    config = files / "compare.toml"
    config.write_text(
        f'output_dir = "{files / "out"}"\n'
        f'[texts]\nen = "{files / "en.txt"}"\nfr = ["{files / "fr.txt"}"]\n'
        "[tokenizers]\n"
        f'bpe = "{files / "bpe.json"}"\n'
        f'trained = {{ config = "{train}", set = ["trainer.vocab_size=265"] }}\n'
        "[sweep]\nvocab_sizes = [260, 270]\nmetrics = [\"bytes_per_token\", \"fertility\"]\n",
        encoding="utf-8",
    )
    code = main(["compare", str(config), "-q"])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "Vocabulary-size sweep" in printed.out and "wrote" not in printed.out  # -q: no summary line
    out = files / "out"
    names = sorted(p.name for p in out.iterdir())
    assert names == ["bytes_per_token_by_language.png", "fertility_by_language.png", "renyi_efficiency_by_language.png",
                     "report.json", "report.md", "sweep_bytes_per_token.png", "sweep_fertility.png",
                     "token_lengths.png"]
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    trained = data["report"]["tokenizers"][1]
    assert trained["vocab_size"] == 265 and trained["train_seconds"] is not None
    assert set(data["report"]["languages"]) == {"en", "fr"}
    assert [p["requested_vocab_size"] for p in data["sweep"]["points"]] == [260, 270]
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "- en: " in md and "### Vocabulary-size sweep" in md and "trained from" in md


def test_cli_json_and_no_plots(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main

    out = files / "j"
    code = main(["compare", "-t", str(files / "bpe.json"), "--lang", f"en={files / 'en.txt'}",
                 "--lang", f"fr={files / 'fr.txt'}", "--json", "--no-plots", "-o", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    data = json.loads(printed.out)
    assert data["report"]["text"]["texts"] == 3 and set(data["report"]["languages"]) == {"en", "fr"}
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.md"]


def test_cli_errors(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main

    assert main(["compare", "--texts", str(files / "en.txt"), "-o", str(files / "x")]) == 2
    assert "no tokenizers" in capsys.readouterr().err
    assert main(["compare", "-t", str(files / "bpe.json"), "-o", str(files / "x")]) == 2
    assert "no evaluation texts" in capsys.readouterr().err
    bad = files / "bad.toml"
    bad.write_text('texts = ["a"]\n[tokenizers]\nx = { file = "a.json", confg = "b" }\n', encoding="utf-8")
    assert main(["compare", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "tokenizers.x.confg: unknown field" in err and err.count("\n") == 1
    assert main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "missing.txt"), "-o", str(files / "x")]) == 1
    assert "missing.txt" in capsys.readouterr().err
    assert main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "--sweep", "300"]) == 2
    assert "training configs" in capsys.readouterr().err
    assert main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "--sweep", "a,b"]) == 2
    assert "comma-separated integers" in capsys.readouterr().err
    for sizes in ("300,,400", "300,", ",300"):  # an empty item is a typo, not a size to skip
        assert main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "--sweep", sizes]) == 2
        assert f"--sweep expects comma-separated integers, got '{sizes}'" in capsys.readouterr().err


def test_cli_refuses_an_output_folder_it_cannot_write_before_measuring(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolkit.analysis.report
    from toolkit.cli import main

    monkeypatch.setattr(toolkit.analysis.report, "compare", None)  # measuring would fail the test
    (files / "afile").write_text("keep", encoding="utf-8")
    (files / "taken" / "report.md").mkdir(parents=True)
    (files / "plot" / "token_lengths.png").mkdir(parents=True)
    for output, says in ((files / "afile", f"{files / 'afile'} is a file, not a folder"),
                         (files / "afile" / "deeper", f"{files / 'afile'} is a file, not a folder"),
                         (files / "taken", "cannot write report.md there: it is a folder, not a regular file"),
                         (files / "plot", "cannot write token_lengths.png there: it is a folder, not a regular file")):
        code = main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "-o", str(output)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and f"compare: output_dir (-o DIR) {output}: " in err and says in err, err
    assert main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "-o", ""]) == 2
    assert "compare: output_dir (-o DIR): the path is empty" in capsys.readouterr().err  # not the default folder
    assert (files / "afile").read_text(encoding="utf-8") == "keep"
    assert [p.name for p in (files / "taken").iterdir()] == ["report.md"]


def test_cli_writes_its_files_all_or_none(files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.cli.compare
    from toolkit.cli import main

    out = files / "out"
    argv = ["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "--no-plots", "-o", str(out), "-q"]
    assert main(argv) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken(*args: object) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(toolkit.cli.compare, "_markdown", broken)  # report.json is written, report.md fails
    assert main([*argv, "--texts", str(files / "fr.txt")]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the previous run's reports, and nothing else


def test_cli_writes_through_a_linked_report(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main

    out = files / "out"
    out.mkdir()
    (files / "kept.md").write_text("old", encoding="utf-8")
    (out / "report.md").symlink_to(files / "kept.md")
    (out / "report.json").symlink_to("new.json")  # dangling, relative: its target is created
    code = main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "en.txt"), "--no-plots", "-o", str(out), "-q"])
    assert code == 0, capsys.readouterr().err
    assert (out / "report.md").is_symlink() and (files / "kept.md").read_text(encoding="utf-8").startswith("# Tokenizer comparison")
    assert (out / "report.json").is_symlink() and json.loads((out / "new.json").read_text(encoding="utf-8"))["report"]
    assert sorted(p.name for p in out.iterdir()) == ["new.json", "report.json", "report.md"]


def test_cli_file_format_options_blame_and_markdown_names(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main

    # A file whose format cannot be told: --from names it, as in encode / convert (the error says so).
    vocab = files / "words"
    vocab.write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhug\n##s\n", encoding="utf-8")
    out = files / "f"
    assert main(["compare", "-t", str(vocab), "--texts", str(files / "en.txt"), "-o", str(out), "-q", "--no-plots"]) == 2
    assert "--from FMT" in capsys.readouterr().err
    code = main(["compare", "-t", f"a|b={vocab}", "--from", "vocab-txt", "--texts", str(files / "en.txt"),
                 "-o", str(out), "-q", "--no-plots"])
    assert code == 0, capsys.readouterr().err
    # A name holding "|" stays one Markdown cell.
    assert f"| a\\|b | `{vocab}` |" in (out / "report.md").read_text(encoding="utf-8")
    assert main(["compare", "--from", "hf", "--texts", str(files / "en.txt")]) == 2
    assert "--from applies to -t files" in capsys.readouterr().err
    # A bad option over a valid config file is the command line's fault, not the file's.
    config = files / "c.toml"
    config.write_text(f'texts = ["{files / "en.txt"}"]\n[tokenizers]\nbpe = "{files / "bpe.json"}"\n', encoding="utf-8")
    assert main(["compare", str(config), "--renyi-alpha", "-1", "-q"]) == 2
    assert f"command line (over {config}): renyi_alpha:" in capsys.readouterr().err
    # A boolean is no number (pydantic alone reads true as 1: Shannon's alpha, one timing pass, one byte).
    base = config.read_text(encoding="utf-8")
    for key in ("renyi_alpha = true", "timing_repeats = true", "max_bytes = false", "vocab_size = true"):
        config.write_text(key + "\n" + base, encoding="utf-8")  # top-level keys go before the first table
        assert main(["compare", str(config), "-q", "--no-plots"]) == 2
        assert f"{key.split()[0]}: expected a number, got {key.split()[-1]}" in capsys.readouterr().err
    config.write_text(base + "[sweep]\nvocab_sizes = [300, true]\n", encoding="utf-8")
    assert main(["compare", str(config), "-q", "--no-plots"]) == 2
    assert "sweep.vocab_sizes: expected a number, got true" in capsys.readouterr().err


def test_cli_drops_a_byte_order_mark_and_writes_strict_json(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main
    from toolkit.cli.compare import read_texts

    (files / "bom.txt").write_bytes("\ufeffhug hugs\nhugs\n".encode())
    assert read_texts([str(files / "bom.txt")], max_bytes=10**6) == ["hug hugs\n", "hugs\n"]

    def refuse(name: str) -> None:
        raise AssertionError(f"not strict JSON: {name}")

    code = main(["compare", "-t", str(files / "bpe.json"), "--texts", str(files / "bom.txt"), "--renyi-alpha", "inf",
                 "--json", "--no-plots", "-o", str(files / "inf")])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    for text in (printed.out, (files / "inf" / "report.json").read_text(encoding="utf-8")):
        data = json.loads(text, parse_constant=refuse)
        assert data["config"]["renyi_alpha"] == "inf"
    assert data["report"]["text"]["bytes"] == len("hug hugs\nhugs\n")


def test_a_whitespace_token_covers_no_word_whatever_its_span() -> None:
    """Llama 2 (a Prepend normalizer) gives the leading ▁ the first character's span: "東" at the start of a
    text is no more split than after a space (both ▁ + 東)."""
    from conftest import shared_path

    llama2 = Tokenizer.from_file(shared_path("vocab/llm/llama2/tokenizer.json"))
    plain = llama2.encode("東", add_special_tokens=False)
    assert plain.tokens == ["▁", "東"] and plain.offsets[0] == (0, 1)
    for text in ("東", "a 東", "。", "a 。"):
        report = compare({"llama2": llama2}, [text], measure_speed=False, check_unreachable=False)
        assert report["llama2"].split_word_share == 0.0, text


def test_texts_of_only_whitespace_are_refused() -> None:
    with pytest.raises(InputError, match="only whitespace, so there is nothing to measure"):
        compare({"BPE": bpe()}, ["", " \n", "\t"], measure_speed=False)


def test_plots_and_sweeps_refuse_metrics_they_never_measure() -> None:
    require("matplotlib")
    from toolkit.analysis.plots import plot_languages
    from toolkit.cli.compare import SweepSpec

    report = compare({"BPE": bpe()}, {"en": ["hug hugs"], "fr": ["ugh"]}, measure_speed=False)
    with pytest.raises(ConfigError, match="'parity' was not measured .*reference="):
        plot_languages(report, metric="parity")
    with pytest.raises(ConfigError, match="'throughput' was not measured"):
        plot_languages(report, metric="throughput")
    with pytest.raises(Exception, match="throughput is not measured in a sweep"):
        SweepSpec.model_validate({"vocab_sizes": [300], "metrics": ["throughput"]})
