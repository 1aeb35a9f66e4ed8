"""The comparison tooling against what a review found it got wrong: a tokenizer's truncation and
padding do not change what is measured, SentencePiece-style token strings (``<0x0A>``, ``▁`` that the
decoder turns into a space) have their real surface, special tokens added with ``add_special_tokens``
are not text, large Rényi orders stay finite, and ``--max-bytes`` is a limit. Values by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

from algorithms import BPE, WordPiece
from pretokenizers import Whitespace
from toolkit import Tokenizer, decoders
from toolkit.analysis import compare
from toolkit.analysis.metrics import non_text_tokens, renyi_entropy, token_surface, vocabulary_strings
from toolkit.analysis.vocabulary import unreachable_tokens
from toolkit.cli.compare import read_texts

VOCAB = {"[UNK]": 0, "[PAD]": 1, "hug": 2, "##s": 3, "the": 4, "dog": 5}


def _wordpiece() -> Tokenizer:
    return Tokenizer(WordPiece(VOCAB, special_tokens=["[UNK]", "[PAD]"]), pre_tokenizer=Whitespace())


def test_truncation_and_padding_do_not_change_the_measures() -> None:
    plain, laid_out = _wordpiece(), _wordpiece()
    laid_out.enable_truncation(max_length=2)
    laid_out.enable_padding(length=6, pad_id=1, pad_token="[PAD]")
    texts = ["hug the dog hugs", "the"]
    a = compare({"t": plain}, texts, measure_speed=False)["t"]
    b = compare({"t": laid_out}, texts, measure_speed=False)["t"]
    assert (b.tokens, b.bytes_per_token) == (a.tokens, a.bytes_per_token) == (6, 19 / 6)  # 16 + 3 bytes
    assert unreachable_tokens(laid_out).count == unreachable_tokens(plain).count == 0
    assert laid_out.truncation is not None and laid_out.padding is not None  # the caller's settings stay


def test_sentencepiece_byte_pieces_and_spaces_without_metaspace_have_their_surface() -> None:
    vocab = {"<unk>": 0, **{f"<0x{b:02X}>": 1 + b for b in range(256)}, "▁the": 257, "▁": 258, "t": 259}
    tok = Tokenizer(BPE(vocab, [], unk_token="<unk>", byte_fallback=True))
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                     decoders.Strip(" ", 1, 0)])
    assert token_surface(tok, "<0x0A>") == b"\n" and token_surface(tok, "▁the") == b" the"
    assert b"the" in vocabulary_strings(tok) and b"\xe4" in vocabulary_strings(tok)


def test_special_tokens_added_to_the_pipeline_are_not_text() -> None:
    tok = _wordpiece()
    tok.add_special_tokens(["<mask2>"])
    tok.add_tokens(["hugging"])
    assert {"<mask2>", "[UNK]", "[PAD]"} <= non_text_tokens(tok) and "hugging" not in non_text_tokens(tok)
    assert b"<mask2>" not in vocabulary_strings(tok) and b"hugging" in vocabulary_strings(tok)
    assert unreachable_tokens(tok).count == 0


def test_renyi_entropy_of_a_large_order_is_the_min_entropy_limit() -> None:
    assert math.isclose(renyi_entropy([1, 1, 2], 1000), math.log(2) * 1000 / 999)
    assert renyi_entropy([1, 1, 2], math.inf) == math.log(2)
    report = compare({"t": _wordpiece()}, ["hug the dog"], measure_speed=False, renyi_alpha=math.inf)
    assert json.loads(report.to_json())["tokenizers"][0]["renyi_alpha"] == "inf"  # valid JSON, no Infinity
    # the tables name an order other than the default (the JSON has it as renyi_alpha)
    assert "Rényi eff. (α=∞)" in report.to_markdown()
    default = compare({"t": _wordpiece()}, ["hug the dog"], measure_speed=False)
    assert "Rényi eff. |" in default.to_markdown() and "α=" not in default.to_markdown()
    third = compare({"t": _wordpiece()}, ["hug the dog"], measure_speed=False, renyi_alpha=0.5)
    assert "Rényi eff. (α=0.5)" in third.to_markdown()


def test_a_share_just_below_one_does_not_print_as_one() -> None:
    from toolkit.analysis.tables import _fmt_number

    assert [_fmt_number(v, "pct") for v in (1.0, 0.9996, 0.9994, 0.0004, 0.0)] == [
        "100.0%", ">99.9%", "99.9%", "<0.1%", "0%"]


def test_an_added_token_stands_for_its_own_text_on_a_byte_level_pipeline() -> None:
    from toolkit.training.presets import gpt2_style

    tok = gpt2_style()[0]
    tok.add_tokens(["café"])  # é is a character of the byte-level alphabet (the byte 0xE9)
    assert token_surface(tok, "café") == "café".encode()
    assert token_surface(tok, "ĠcafÃ©") == b" caf\xc3\xa9"


def test_max_bytes_is_a_limit_even_inside_the_first_line(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("é" * 50 + "\nsecond line\n", encoding="utf-8")
    assert read_texts([str(tmp_path / "t.txt")], max_bytes=11) == ["é" * 5]  # 10 bytes; half an é is left out
    assert read_texts([str(tmp_path / "t.txt")], max_bytes=1000) == ["é" * 50 + "\n", "second line\n"]


def test_bad_inputs_of_visualize_and_compare_are_typed_errors() -> None:
    import pytest

    from toolkit.analysis.visualize import visualize
    from toolkit.errors import ConfigError, InputError

    tok = _wordpiece()
    with pytest.raises(InputError, match="texts must be a str or a list of str, got NoneType"):
        visualize(tok, None)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="got bytes; decode bytes to str first"):
        visualize(tok, b"ab")  # type: ignore[arg-type]
    for bad in ("'fast'", "nan", "inf", "-1.0"):  # nan would reach to_json() as NaN, which is not JSON
        value = "fast" if bad == "'fast'" else float(bad)
        with pytest.raises(ConfigError, match=rf"training_seconds\['t'\] must be a finite number of seconds >= 0, got {bad}"):
            compare({"t": tok}, ["hug"], training_seconds={"t": value}, measure_speed=False)  # type: ignore[dict-item]
    with pytest.raises(ConfigError, match="training_seconds must be a mapping of tokenizer names to seconds, got list"):
        compare({"t": tok}, ["hug"], training_seconds=[3.0], measure_speed=False)  # type: ignore[arg-type]
