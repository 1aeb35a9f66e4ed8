"""The metrics of the tokenization literature in ``compare``: known answers worked out by hand.

The tiny corpus and tokenizers are those of tests/test_compare.py: on ``["hug hugs", "ugh é"]`` the
BPE tokenizer produces ``hug hug s | u g h [UNK]``: 7 tokens, ``hug`` twice and five others once,
over a vocabulary of 7. So, with natural logarithms (the base cancels in every efficiency):

- Shannon entropy ``H = -(2/7 ln 2/7 + 5 · 1/7 ln 1/7)``; efficiency ``H / ln 7``;
- Rényi entropy of order 2.5 ``H = ln((2/7)^2.5 + 5 (1/7)^2.5) / (1 - 2.5)``; efficiency ``H / ln 7``;
- utilization 6/7 (only ``hu`` is never used).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from conftest import CORPORA, require, slow_params
from test_compare import TEXTS, bpe, byte_level, wordpiece
from algorithms import BPE
from pretokenizers import Metaspace
from toolkit import ConfigError, InputError, Tokenizer, decoders
from toolkit.analysis import METRICS, compare, parallel_sample, sweep, unreachable_tokens
from toolkit.analysis.metrics import TextStats, TokenizerMetrics, renyi_entropy
from toolkit.analysis.parallel import SAMPLE_LANGUAGES
from toolkit.analysis.report import _best_of

NEW = ["renyi_efficiency", "shannon_efficiency", "vocab_utilization", "unreachable_tokens", "parity"]
LN7 = math.log(7)


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return compare({"BPE": bpe(), "WordPiece": wordpiece(), "byte-level": byte_level()}, TEXTS, measure_speed=False)


def test_the_new_metrics_are_named_in_METRICS() -> None:
    assert all(name in METRICS for name in NEW)
    assert METRICS["parity"][2] == "closer to 1" and METRICS["unreachable_tokens"][2] == "lower"
    # a diagnostic (docs/compare.md): no direction is marked better
    assert METRICS["renyi_efficiency"][2] == METRICS["shannon_efficiency"][2] == ""


# ------------------------------------------------------------------------------ entropy
def test_renyi_entropy_known_values() -> None:
    # p = 1/4, 1/4, 1/2
    assert renyi_entropy([1, 1, 2], 1) == pytest.approx(-(0.5 * math.log(0.25) + 0.5 * math.log(0.5)))
    assert renyi_entropy([1, 1, 2], 2) == pytest.approx(-math.log(0.25**2 * 2 + 0.5**2))
    assert renyi_entropy([1, 1, 2], 0.5) == pytest.approx(2 * math.log(2 * 0.5 + 0.5**0.5))
    assert renyi_entropy([1, 1, 2], math.inf) == pytest.approx(math.log(2))
    # Uniform: log n for every order; one type: 0 (never -0.0); nothing counted: None.
    for alpha in (0.5, 1, 2.5, 7, math.inf):
        assert renyi_entropy([3] * 8, alpha) == pytest.approx(math.log(8))
    assert str(renyi_entropy([5], 2.5)) == "0.0"
    assert renyi_entropy([], 2.5) is None and renyi_entropy([0, 0], 1) is None
    # Rényi entropy does not increase with the order.
    values = [renyi_entropy([1, 2, 3, 10, 40], a) for a in (0.5, 1, 2, 2.5, 5, math.inf)]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("alpha", [0, -1, math.nan, True, "2.5", None])
def test_a_bad_alpha_is_a_config_error(alpha: object) -> None:
    with pytest.raises(ConfigError, match="renyi_alpha must be a number > 0"):
        compare({"x": bpe()}, TEXTS, measure_speed=False, renyi_alpha=alpha)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="alpha"):
        renyi_entropy([1, 2], alpha)  # type: ignore[arg-type]


def test_efficiencies_by_hand(report) -> None:  # type: ignore[no-untyped-def]
    row = report["BPE"]
    assert dict(row.token_counts) == {6: 2, 4: 1, 1: 1, 2: 1, 3: 1, 0: 1}  # hug×2, s, h, u, g, [UNK]
    shannon = -(2 / 7 * math.log(2 / 7) + 5 * (1 / 7) * math.log(1 / 7)) / LN7
    renyi = math.log((2 / 7) ** 2.5 + 5 * (1 / 7) ** 2.5) / (1 - 2.5) / LN7
    assert row.shannon_efficiency == pytest.approx(shannon) and round(shannon, 4) == 0.8982
    assert row.renyi_efficiency == pytest.approx(renyi) and round(renyi, 4) == 0.8560
    assert row.renyi_alpha == 2.5 and row.renyi(1) == pytest.approx(shannon)
    # WordPiece: hug hug ##s | [UNK] [UNK] -> counts 2, 1, 2 over a vocabulary of 6.
    wp = report["WordPiece"]
    assert wp.shannon_efficiency == pytest.approx(-(2 * 0.4 * math.log(0.4) + 0.2 * math.log(0.2)) / math.log(6))
    # Byte-level: 9 tokens, all different, vocabulary 259: every order gives ln 9 / ln 259.
    bl = report["byte-level"]
    assert bl.renyi_efficiency == pytest.approx(math.log(9) / math.log(259)) == bl.shannon_efficiency


def test_alpha_is_configurable_and_one_is_shannon() -> None:
    r2 = compare({"BPE": bpe()}, TEXTS, measure_speed=False, renyi_alpha=2)
    assert r2["BPE"].renyi_efficiency == pytest.approx(-math.log(4 / 49 + 5 / 49) / LN7)
    assert r2["BPE"].to_dict()["renyi_alpha"] == 2.0
    r1 = compare({"BPE": bpe()}, TEXTS, measure_speed=False, renyi_alpha=1)
    assert r1["BPE"].renyi_efficiency == pytest.approx(r1["BPE"].shannon_efficiency)


def test_efficiency_is_undefined_without_tokens_or_with_one_token_type() -> None:
    m = TokenizerMetrics("x", "BPE", 1, TextStats(1, 1, 1, 1), tokens=1, token_counts={0: 1})
    assert m.renyi_efficiency is None and m.vocab_utilization == 1.0  # log |V| = 0
    empty = TokenizerMetrics("x", "BPE", 10, TextStats())
    assert empty.renyi_efficiency is None and empty.shannon_efficiency is None and empty.vocab_utilization == 0
    assert empty.parity is None and empty.unreachable_tokens is None


# ------------------------------------------------------------------------------ utilization
def test_vocab_utilization_and_never_used_tokens(report) -> None:  # type: ignore[no-untyped-def]
    assert report["BPE"].vocab_utilization == 6 / 7
    assert report["WordPiece"].vocab_utilization == 3 / 6
    assert report["byte-level"].vocab_utilization == 9 / 259
    assert report.never_used["BPE"] == ["hu"]
    assert report.never_used["WordPiece"] == ["h", "##u", "##g"]  # id order
    assert len(report.never_used["byte-level"]) == 250 and "hu" in report.never_used["byte-level"]
    text = report.to_text()
    assert "Never-used tokens" in text and "'h' '##u' '##g'" in text
    assert "'Ā' 'ā' 'Ă' 'ă' 'Ą' 'ą' 'Ć' 'ć' …" in text  # 8 shown, the rest in to_dict()
    assert report.to_dict()["never_used"]["WordPiece"] == ["h", "##u", "##g"]


def test_per_language_utilization() -> None:
    r = compare({"BPE": bpe()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False)
    assert r.languages["en"]["BPE"].vocab_utilization == 2 / 7  # hug, s
    assert r.languages["fr"]["BPE"].vocab_utilization == 4 / 7  # u, g, h, [UNK]
    assert r.languages["en"].never_used["BPE"] == ["[UNK]", "h", "u", "g", "hu"]
    assert "Vocab used by language" in r.to_text()


# ------------------------------------------------------------------------------ unreachable
def abc() -> Tokenizer:
    # "abc" decodes to "abc", which encodes as ab|c: the merge (a, bc) needs "bc" first, but (a, b) wins.
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    return Tokenizer(BPE(vocab, [("a", "b"), ("b", "c"), ("a", "bc")]))


def test_unreachable_token_by_hand() -> None:
    r = unreachable_tokens(abc())
    assert (r.checked, r.count, r.partial, r.continuation, r.specials) == (6, 1, 0, 0, 0)
    u = r.unreachable[0]
    assert (u.id, u.token, u.text, u.encoded) == (5, "abc", "abc", ("ab", "c"))
    assert r.to_dict()["tokens"] == [{"id": 5, "token": "abc", "text": "abc", "encoded": ["ab", "c"]}]
    assert unreachable_tokens(abc(), ids=[0, 1, 2]).checked == 3  # a sample of the ids
    assert unreachable_tokens(abc(), ids=[5]).count == 1
    rep = compare({"abc": abc()}, ["abcab"], measure_speed=False)
    assert rep["abc"].unreachable_tokens == 1 and rep.unreachable["abc"].count == 1
    assert "'abc' → 'abc' → 'ab' 'c'" in rep.to_text() and "Unreachable tokens" in rep.to_markdown()
    assert rep.to_dict()["unreachable"]["abc"]["count"] == 1
    skipped = compare({"abc": abc()}, ["abcab"], measure_speed=False, check_unreachable=False)
    assert skipped["abc"].unreachable_tokens is None and "Unreachable tokens" not in skipped.to_text()


def test_unreachable_skips_specials_continuations_and_partial_bytes(report) -> None:  # type: ignore[no-untyped-def]
    wp = report.unreachable["WordPiece"]
    assert (wp.checked, wp.continuation, wp.specials, wp.count) == (2, 3, 1, 0)  # hug, h; ##s ##u ##g; [UNK]
    bl = report.unreachable["byte-level"]
    # 128 ASCII bytes + hu, hug, Ġhug are checked; the 128 bytes 0x80-0xFF are parts of characters.
    assert (bl.checked, bl.partial, bl.count) == (131, 128, 0)
    assert report.unreachable["BPE"].specials == 1 and report.unreachable["BPE"].checked == 6


def test_a_token_reachable_only_after_another_one_is_reachable() -> None:
    # SentencePiece style: "ing" decodes to "ing", which alone encodes to "▁ing"; after a newline it is "ing".
    vocab = {"▁": 0, "i": 1, "n": 2, "g": 3, "in": 4, "ing": 5, "▁ing": 6, "\n": 7, "▁\n": 8}
    merges = [("i", "n"), ("in", "g"), ("▁", "ing"), ("▁", "\n")]
    tok = Tokenizer(BPE(vocab, merges), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())
    assert tok.encode("ing").tokens == ["▁ing"] and tok.encode("\ning").tokens == ["▁\n", "ing"]
    assert unreachable_tokens(tok).count == 0
    # Without the newline in the vocabulary there is no second chance: "ing" and friends are unreachable.
    no_newline = {k: v for k, v in vocab.items() if "\n" not in k}
    tok2 = Tokenizer(BPE(no_newline, merges[:3]), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace())
    assert "ing" in [u.token for u in unreachable_tokens(tok2).unreachable]


# ------------------------------------------------------------------------------ parity
def test_parity_by_hand() -> None:
    r = compare({"BPE": bpe(), "bl": byte_level()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False,
                reference="en")
    # BPE: en 3 tokens (hug hug s), fr 4 (u g h [UNK]); byte-level: en 3, fr 6 (u g h Ġ Ã ©).
    assert r.languages["en"]["BPE"].parity == 1.0 and r.languages["fr"]["BPE"].parity == 4 / 3
    assert r.languages["fr"]["bl"].parity == 6 / 3
    # The overall row: all tokens / (languages × reference tokens), the mean over the languages.
    assert r["BPE"].parity == 7 / 6 and r["bl"].parity == 9 / 6
    assert r.reference == "en" and r.to_dict()["reference"] == "en"
    text = r.to_text()
    assert "Parity by language" in text and "tokens of the same texts in en" in text
    assert "| BPE | 1.00 | **1.33** |" in r.to_markdown()  # closer to 1 than 2.00
    assert r.languages["fr"]["BPE"].to_dict()["counts"]["reference_tokens"] == 3
    assert compare({"BPE": bpe()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False)["BPE"].parity is None


def test_parity_errors() -> None:
    with pytest.raises(ConfigError, match="parallel texts"):
        compare({"x": bpe()}, TEXTS, measure_speed=False, reference="en")
    with pytest.raises(ConfigError, match="'de' is not one of the languages"):
        compare({"x": bpe()}, {"en": ["a"], "fr": ["b"]}, measure_speed=False, reference="de")
    with pytest.raises(InputError, match="en: 2, fr: 1"):
        compare({"x": bpe()}, {"en": ["hug", "hugs"], "fr": ["ugh"]}, measure_speed=False, reference="en")


def test_closer_to_one_is_best() -> None:
    assert _best_of([0.8, 1.1, 1.3], "closer to 1") == {1}
    assert _best_of([0.5, 2.0, None], "closer to 1") == {0, 1}  # equally far in ratio terms: a tie
    assert _best_of([1.0, 1.0], "closer to 1") == set() and _best_of([2.0, 1.0], "higher") == {0}
    # Ratios of token counts: |log(3/2)| and |log(2/3)| differ in the last bit as floats, still a tie.
    assert abs(math.log(3 / 2)) != abs(math.log(2 / 3))
    assert _best_of([3 / 2, 2 / 3, 2.0], "closer to 1") == {0, 1}
    assert _best_of([1.0 + 1e-6, 1.0 - 1e-6 + 1e-7], "closer to 1") == {1}  # near, but not a tie


# ------------------------------------------------------------------------------ the parallel sample
def test_the_parallel_sample() -> None:
    sample = parallel_sample()
    assert list(sample) == list(SAMPLE_LANGUAGES) == ["en", "fr", "de", "es", "th", "zh"]
    assert {len(v) for v in sample.values()} == {20}
    assert all(s and s == s.strip() and "\n" not in s for v in sample.values() for s in v)
    assert sample["fr"][6] == "Les enfants apprennent les langues plus vite que les adultes."
    assert sample["zh"][6] == "孩子学习语言比成年人快。" and sample["th"][6] == "เด็กเรียนภาษาได้เร็วกว่าผู้ใหญ่"
    assert sum(" " in s for s in sample["zh"]) == 0  # written without spaces
    sample["en"].clear()
    assert len(parallel_sample(["en"])["en"]) == 20  # a copy each time
    with pytest.raises(ConfigError, match="no language 'xx'; the sample has en, fr"):
        parallel_sample(["xx"])


def test_the_sample_is_package_data() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "analysis/parallel_sample.json" in config["tool"]["setuptools"]["package-data"]["toolkit"]
    data = json.loads((root / "toolkit" / "analysis" / "parallel_sample.json").read_text(encoding="utf-8"))
    assert data["license"].startswith("MIT") and set(data["languages"]) == set(SAMPLE_LANGUAGES)


# ------------------------------------------------------------------------------ renderings and plots
def test_best_value_per_language_is_marked_in_every_rendering() -> None:
    r = compare({"BPE": bpe(), "WordPiece": wordpiece()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False)
    lines = r.to_text().splitlines()
    start = lines.index("Fertility by language")
    assert lines[start + 3].split() == ["BPE", "1.50", "2.00"]
    assert lines[start + 4].split() == ["WordPiece", "1.50", "1.00*"]
    assert "| WordPiece | 1.50 | **1.00** |" in r.to_markdown()
    assert 'class="num best"' in r.to_html()


def test_plots_of_the_new_metrics(tmp_path: Path) -> None:
    require("matplotlib")
    from toolkit.analysis.plots import plot_languages, save_plots
    from toolkit.training.presets import gpt2_style

    r = compare({"BPE": bpe(), "bl": byte_level()}, {"en": TEXTS[:1], "fr": TEXTS[1:]}, measure_speed=False,
                reference="en")
    fig = plot_languages(r, metric="parity")
    ax = fig.axes[0]
    assert ax.get_ylabel() == "parity (closer to 1 is better)"
    assert any(list(line.get_ydata()) == [1.0, 1.0] for line in ax.get_lines())  # the parity line
    result = sweep({"bl": gpt2_style()}, ["low lower lowest newer wider newest widest"] * 20, vocab_sizes=[260, 280])
    curve = result.series("renyi_efficiency")["bl"]
    assert len(curve) == 2 and curve[0][0] == 260 and all(0 < y < 1 for _, y in curve)
    assert "Rényi eff." in result.to_text() and "unreachable" in result.to_text()
    written = save_plots(r, tmp_path, sweep=result, sweep_metrics=("renyi_efficiency",))
    assert [p.name for p in written] == ["token_lengths.png", "fertility_by_language.png",
                                         "bytes_per_token_by_language.png", "renyi_efficiency_by_language.png",
                                         "parity_by_language.png", "sweep_renyi_efficiency.png"]
    assert result.plot("renyi_efficiency").axes[0].get_ylabel() == "Rényi eff."
    with pytest.raises(ConfigError, match="renyi_alpha"):
        sweep({"bl": gpt2_style()}, ["low"], vocab_sizes=[260], renyi_alpha=0)


# ------------------------------------------------------------------------------ CLI
def test_cli_with_a_tokenizer_json_contender_and_the_parallel_sample(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=300)
    tok = tok.train([s for v in parallel_sample().values() for s in v], trainer)
    tok.to_hf_json(tmp_path / "tokenizer.json")  # a Hugging Face tokenizer.json, as the LLMs ship
    tok.save(tmp_path / "ours.json")
    out = tmp_path / "out"
    code = main(["compare", "-t", f"hf={tmp_path / 'tokenizer.json'}", "-t", f"ours={tmp_path / 'ours.json'}",
                 "--parallel-sample", "--renyi-alpha", "3", "--no-plots", "-o", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "Parity by language" in printed.out and "Unreachable tokens" in printed.out
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    rows = data["report"]["tokenizers"]
    assert [r["name"] for r in rows] == ["hf", "ours"]
    assert rows[0]["tokens"] == rows[1]["tokens"] and rows[0]["renyi_alpha"] == 3.0  # the same tokenizer
    assert data["report"]["reference"] == "en" and set(data["report"]["languages"]) == set(SAMPLE_LANGUAGES)
    assert data["config"]["parallel_sample"] is True
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "the parallel sample of tokenizer-toolkit" in md and "Parity reference: en" in md
    # --no-unreachable and --reference with --lang files
    (tmp_path / "en.txt").write_text("hug hugs\nugh\n", encoding="utf-8")
    (tmp_path / "fr.txt").write_text("hugs hug\nugh é\n", encoding="utf-8")
    code = main(["compare", "-t", str(tmp_path / "ours.json"), "--lang", f"en={tmp_path / 'en.txt'}",
                 "--lang", f"fr={tmp_path / 'fr.txt'}", "--reference", "fr", "--no-unreachable", "--json",
                 "--no-plots", "-o", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    report = json.loads(printed.out)["report"]
    assert report["languages"]["fr"]["tokenizers"][0]["parity"] == 1.0 and report["unreachable"] == {}


def test_compare_takes_tokenizer_files(tmp_path: Path) -> None:
    from toolkit import SerializationError

    byte_level().to_hf_json(tmp_path / "tokenizer.json")
    bpe().save(tmp_path / "ours.json")
    r = compare({"hf": tmp_path / "tokenizer.json", "ours": str(tmp_path / "ours.json"), "obj": bpe()}, TEXTS,
                measure_speed=False)
    assert r["hf"].tokens == 9 and r["hf"].algorithm == "ByteLevelBPE" and r["ours"].tokens == r["obj"].tokens == 7
    with pytest.raises(SerializationError, match="missing.json"):
        compare({"x": tmp_path / "missing.json"}, TEXTS, measure_speed=False)
    with pytest.raises(ConfigError, match="must be a Tokenizer or a tokenizer file path"):
        compare({"x": 3}, TEXTS, measure_speed=False)  # type: ignore[dict-item]


def test_cli_errors_of_the_new_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main

    bpe().save(tmp_path / "bpe.json")
    (tmp_path / "en.txt").write_text("hug\n", encoding="utf-8")
    (tmp_path / "fr.txt").write_text("hug\nhugs\n", encoding="utf-8")
    t = ["compare", "-t", str(tmp_path / "bpe.json"), "--no-plots", "-o", str(tmp_path / "x")]
    assert main([*t, "--texts", str(tmp_path / "en.txt"), "--reference", "en"]) == 2
    assert "reference needs texts per language" in capsys.readouterr().err
    assert main([*t, "--texts", str(tmp_path / "en.txt"), "--parallel-sample"]) == 2
    assert "either texts or parallel_sample" in capsys.readouterr().err
    assert main([*t, "--parallel-sample", "--renyi-alpha", "0"]) == 2
    assert "renyi_alpha" in capsys.readouterr().err
    assert main([*t, "--lang", f"en={tmp_path / 'en.txt'}", "--lang", f"fr={tmp_path / 'fr.txt'}",
                 "--reference", "en"]) != 0
    err = capsys.readouterr().err
    assert "parallel texts" in err and err.count("\n") == 1


# ------------------------------------------------------------------------------ real LLM tokenizers
LLM = CORPORA / "vocab" / "llm"


def _hf_unreachable(path: Path, ids: list[int]) -> set[int]:
    """The same definition computed with HF tokenizers (a token alone, or after a newline)."""
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer.from_file(str(path))
    special = {i for i, t in hf.get_added_tokens_decoder().items() if t.special}
    anchor = hf.encode("\n", add_special_tokens=False).ids
    out = set()
    for i in ids:
        if i in special:
            continue
        text = hf.decode([i], skip_special_tokens=False)
        if "\ufffd" in text and "\ufffd" not in hf.id_to_token(i):
            continue
        if hf.encode(text, add_special_tokens=False).ids == [i]:
            continue
        again = hf.encode(hf.decode([*anchor, i], skip_special_tokens=False), add_special_tokens=False).ids
        if not anchor or again != [*anchor, i]:
            out.add(i)
    return out


def _load_llm(name: str) -> Tokenizer:
    """An LLM tokenizer of ../shared (skipped when the shared corpora are absent)."""
    from toolkit.interop.files import load_tokenizer

    path = LLM / name / "tokenizer.json"
    if not path.is_file():
        pytest.skip(f"shared corpora absent ({path})")
    return load_tokenizer(path)


LLMS = ("gpt4o", "llama3", "llama2", "qwen3", "gemma3", "deepseek_v3")


@pytest.mark.parity
@pytest.mark.parametrize("name", slow_params(LLMS, slow={"gemma3"}))
def test_unreachable_tokens_agree_with_hf_on_a_sample(name: str) -> None:
    path = LLM / name / "tokenizer.json"
    tok = _load_llm(name)
    ids = list(range(0, tok.vocab_size, 97)) + [3413, 3914, 99494] * (name == "gpt4o")
    ours = unreachable_tokens(tok, ids=ids)
    assert {u.id for u in ours.unreachable} == _hf_unreachable(path, ids)
    if name == "gpt4o":
        assert {3413, 3914, 99494} <= {u.id for u in ours.unreachable}  # " I'" → " I" "'"; "\n//"; " 亚洲AV"


@pytest.mark.parity
def test_cli_compare_with_an_llm_tokenizer_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit.cli import main

    path = LLM / "gpt4o" / "tokenizer.json"
    if not path.is_file():
        pytest.skip(f"shared corpora absent ({path})")
    code = main(["compare", "-t", f"GPT-4o={path}", "--parallel-sample", "--no-unreachable", "--no-plots", "--json",
                 "-o", str(tmp_path)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    report = json.loads(printed.out)["report"]
    row = report["tokenizers"][0]
    assert row["vocab_size"] == 200_000 and row["algorithm"] == "ByteLevelBPE"
    hf = require("tokenizers").Tokenizer.from_file(str(path))  # the token count is HF's, sentence by sentence
    assert row["tokens"] == sum(len(hf.encode(s, add_special_tokens=False).ids)
                                for v in parallel_sample().values() for s in v)
    en = report["languages"]["en"]["tokenizers"][0]["tokens"]
    th = report["languages"]["th"]["tokenizers"][0]
    assert th["parity"] == th["tokens"] / en


@pytest.mark.slow
@pytest.mark.parity
def test_unreachable_tokens_of_gpt4o_in_full() -> None:
    path = LLM / "gpt4o" / "tokenizer.json"
    r = unreachable_tokens(_load_llm("gpt4o"))
    assert r.count == 12 and r.partial == 1584 and r.checked == 198_414
    assert {u.id for u in r.unreachable} == _hf_unreachable(path, [u.id for u in r.unreachable])
