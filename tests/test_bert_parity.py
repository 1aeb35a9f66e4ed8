"""The BERT pipeline against Hugging Face ``tokenizers``' ``BertWordPieceTokenizer``.

With the real BERT vocabularies (``../shared/corpora/vocab/bert``), our pipeline — ``BertNormalizer``,
``BertPreTokenizer``, ``WordPiece``, ``BertProcessing``, ``WordPiece`` decoder, built by
:func:`toolkit.training.presets.bert_pipeline` — must give identical ids **and** offsets on every line of the
shared corpora. Skips when the corpora or ``tokenizers`` are absent. The full Gutenberg part is
``slow``; the default run checks its first 800 kB.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import require, shared_path
from toolkit import Tokenizer
from toolkit.errors import ConfigError
from toolkit.interop.bert_vocab import read_bert_vocab
from toolkit.training.presets import bert, bert_pipeline

pytestmark = pytest.mark.parity

VOCABS = {
    "uncased": ("vocab/bert/bert-base-uncased-vocab.txt", True),
    "cased": ("vocab/bert/bert-base-cased-vocab.txt", False),
}

# name -> (path under corpora, number of leading characters to use or None for all)
CORPORA = {
    "tinyshakespeare": ("english/tinyshakespeare_input.txt", None),
    "gutenberg01-800kB": ("english/gutenberg_part01.txt", 800_000),
    "thai": ("multilingual/thai_wisesight_sentiment_neg.txt", None),
    "chinese": ("multilingual/chinese_xiyouji_pg23962-0.txt", None),
    "french": ("multilingual/french_entre_nous_pg44157-0.txt", None),
}


def _lines(relative: str, limit: int | None) -> list[str]:
    text = shared_path(relative).read_text(encoding="utf-8")
    if limit is not None and len(text) > limit:
        text = text[: text.rindex("\n", 0, limit)]
    return text.split("\n")


@pytest.fixture(scope="module", params=sorted(VOCABS))
def pair(request) -> tuple[str, object, Tokenizer]:
    """``(vocab name, HF tokenizer, our tokenizer)`` for one BERT vocabulary."""
    hf_module = require("tokenizers")
    relative, lowercase = VOCABS[request.param]
    path = shared_path(relative)
    hf = hf_module.BertWordPieceTokenizer(str(path), lowercase=lowercase)
    return request.param, hf, bert_pipeline(path, lowercase=lowercase)


def _compare(vocab: str, hf, ours: Tokenizer, lines: list[str]) -> None:
    expected = hf.encode_batch(lines)
    mismatches: list[str] = []
    for i, (line, want) in enumerate(zip(lines, expected)):
        got = ours.encode(line)
        if got.ids != want.ids or got.offsets != want.offsets:
            if len(mismatches) < 5:
                pairs = zip(zip(got.ids, got.offsets), zip(want.ids, want.offsets))
                j = next((k for k, (a, b) in enumerate(pairs) if a != b), min(len(got), len(want)))
                mismatches.append(
                    f"line {i} {line[:80]!r}: token {j}: ours {got.tokens[j:j + 3]} {got.offsets[j:j + 3]} "
                    f"HF {want.tokens[j:j + 3]} {want.offsets[j:j + 3]}"
                )
            else:
                mismatches.append("")
        assert ours.encode_ids(line) == want.ids, f"encode_ids differs from HF's ids on line {i}"
    if mismatches:
        shown = "\n".join(m for m in mismatches if m)
        pytest.fail(f"{len(mismatches)} of {len(lines)} lines differ from HF ({vocab}):\n{shown}")


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_ids_and_offsets_match_hf(pair, corpus: str) -> None:
    vocab, hf, ours = pair
    _compare(vocab, hf, ours, _lines(*CORPORA[corpus]))


@pytest.mark.slow
def test_ids_and_offsets_match_hf_on_a_whole_gutenberg_part(pair) -> None:
    vocab, hf, ours = pair
    _compare(vocab, hf, ours, _lines("english/gutenberg_part01.txt", None))


@pytest.mark.parametrize("corpus", ["tinyshakespeare", "french", "chinese"])
def test_pairs_and_decoding_match_hf(pair, corpus: str) -> None:
    vocab, hf, ours = pair
    lines = _lines(*CORPORA[corpus])[:3000]
    for a, b in zip(lines[::2], lines[1::2]):
        want, got = hf.encode(a, b), ours.encode(a, b)
        assert (got.ids, got.offsets, got.type_ids, got.special_tokens_mask) == (
            want.ids, want.offsets, want.type_ids, want.special_tokens_mask
        ), (a, b)
        # HF's decode skips special tokens by default.
        assert ours.decode(want.ids, skip_special_tokens=True) == hf.decode(want.ids), (a, b)


def test_hand_picked_inputs_match_hf(pair) -> None:
    vocab, hf, ours = pair
    texts = [
        "",
        "   ",
        "Hello, World!",
        "unaffable naïve café résumé",
        "\t tabs\nand\r\nnewlines\x00 and controls\x07",
        "中文字符 mixed with English",
        "a" * 99 + " " + "b" * 101,  # max_input_chars_per_word is 100
        "x" * 100,
        "don't stop-believing (1999) $100 #hashtag @user",
        "emoji 🙂👍🏽 and symbols € © ™",
        "[CLS] typed in text is ordinary text [SEP]",
    ]
    for text in texts:
        want, got = hf.encode(text), ours.encode(text)
        if "[CLS]" in text:
            # HF matches its added special tokens inside text; ours treats them as text unless
            # allowed_special says otherwise. With allowed_special="all" both agree.
            got = ours.encode(text, allowed_special="all")
        assert (got.ids, got.offsets) == (want.ids, want.offsets), text


# ---------------------------------------------------------------------------------------------- the presets
def test_bert_pipeline_from_path_and_from_dict_agree(pair) -> None:
    vocab, _, ours = pair
    relative, lowercase = VOCABS[vocab]
    table = read_bert_vocab(shared_path(relative))
    table.pop("", None)
    again = bert_pipeline(table, lowercase=lowercase)
    text = "The quick brown fox, naïvely — 42 times."
    assert again.encode(text) == ours.encode(text)
    assert ours.special_tokens == {t: table[t] for t in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")}
    restored = Tokenizer.from_json(ours.to_json(), trusted=True)
    assert restored.encode(text) == ours.encode(text)


def test_bert_pipeline_needs_cls_and_sep() -> None:
    with pytest.raises(ConfigError, match="SEP"):
        bert_pipeline({"[UNK]": 0, "[CLS]": 1})
    with pytest.raises(ConfigError, match="CLS"):
        bert_pipeline(None, special_tokens=["[UNK]", "[SEP]"])


def test_bert_preset_trains_a_working_pipeline(tmp_path: Path) -> None:
    tok, trainer = bert(vocab_size=120, tie_break="first_occurrence")
    lines = [
        "This is the Hugging Face Course.",
        "This chapter is about tokenization.",
        "This section shows several tokenizer algorithms.",
        "Hopefully, you will be able to understand how they are trained and generate tokens.",
    ]
    tok.train(lines * 2, trainer)
    enc = tok.encode("THIS is about Tokenizers!", "pair")
    assert enc.tokens[0] == "[CLS]" and enc.tokens[-1] == "[SEP]"
    assert enc.type_ids[-2:] == [1, 1] and enc.type_ids[0] == 0
    assert tok.token_to_id("[CLS]") == 2 and tok.token_to_id("[SEP]") == 3
    assert tok.decode(tok.encode_ids("this is about tokenization."), skip_special_tokens=True) == (
        "this is about tokenization."
    )
    path = tmp_path / "bert.json"
    tok.save(path)
    assert Tokenizer.load(path).encode("THIS is about Tokenizers!", "pair") == enc
