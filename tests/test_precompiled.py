"""``Precompiled``, ``Nmt`` and ``ByteLevel`` normalizers and the ``CTC`` decoder, against HF ``tokenizers``
and ``sentencepiece``: every code point through a real ``nmt_nfkc`` map, offsets, hostile maps, JSON."""

from __future__ import annotations

import base64
import struct
from pathlib import Path

import pytest
from conftest import require
from spm_models import ModelFactory, corpus_lines

from toolkit import Tokenizer
from toolkit.decoders import CTC
from toolkit.errors import ConfigError
from toolkit.interop.sentencepiece import from_sentencepiece, read_sentencepiece
from toolkit.normalizers import ByteLevel, Nmt, Precompiled
from toolkit.normalizers.precompiled import CharsMap, build_charsmap

SAMPLES = ["ﬁne ①　Ｘ", "ｶﾞｷﾞ", "a\r\nb", "e\u0301 é", "ﬁ\u0301x", "Ǆ ㍿ ﷺ", "ﾊﾟﾊﾟ ｱ", "x\u3099y", "", "plain text"]


@pytest.fixture(scope="module")
def nmt_nfkc(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The base64 ``nmt_nfkc`` map of a model trained by sentencepiece."""
    models = ModelFactory(tmp_path_factory.mktemp("spm_map"))
    path = models("fr", "bpe", False)
    return base64.b64encode(read_sentencepiece(path).normalizer_spec.get("precompiled_charsmap")).decode()


def _code_points_match_hf(charsmap: str, code_points: range | list[int]) -> None:
    tokenizers = require("tokenizers")
    hf = tokenizers.normalizers.Precompiled(base64.b64decode(charsmap))
    ours = Precompiled(charsmap)
    chars = [chr(cp) for cp in code_points if not 0xD800 <= cp < 0xE000]
    # One call per chunk: a separator with no rule ("|") keeps each code point apart (a combining mark
    # joins the separator's cluster, which has no rule either, so it is mapped on its own).
    for k in range(0, len(chars), 4096):
        chunk = chars[k : k + 4096]
        text = "|".join(chunk)
        if ours.normalize_str(text) != hf.normalize_str(text):
            bad = [c for c in chunk if ours.normalize_str(c) != hf.normalize_str(c)]
            pytest.fail(f"code points differ from HF: {[hex(ord(c)) for c in bad[:10]]}")


def test_code_points_match_hf(nmt_nfkc: str) -> None:
    """The rules of the BMP's first blocks and the CJK compatibility ranges, plus every 11th code point."""
    cps = sorted({*range(1, 0x3400), *range(0xF900, 0x10000), *range(0x3400, 0x110000, 11)})
    _code_points_match_hf(nmt_nfkc, cps)


@pytest.mark.slow
def test_every_code_point_matches_hf(nmt_nfkc: str) -> None:
    _code_points_match_hf(nmt_nfkc, range(1, 0x110000))


def _offsets_pipeline(normalizer: dict) -> dict:
    return {"version": "1.0", "added_tokens": [], "normalizer": normalizer, "pre_tokenizer": None,
            "post_processor": None, "decoder": None, "truncation": None, "padding": None,
            "model": {"type": "BPE", "vocab": {"[UNK]": 0}, "merges": [], "unk_token": "[UNK]", "dropout": None,
                      "continuing_subword_prefix": None, "end_of_word_suffix": None, "fuse_unk": False,
                      "byte_fallback": False, "ignore_merges": False}}


@pytest.mark.parametrize("which", ["Precompiled", "Nmt", "ByteLevel"])
def test_offsets_match_hf(nmt_nfkc: str, tmp_path: Path, which: str) -> None:
    """Each normalized character is one [UNK] token: its offsets are the alignment HF computes."""
    import json

    tokenizers = require("tokenizers")
    normalizer = {"type": which, **({"precompiled_charsmap": nmt_nfkc} if which == "Precompiled" else {})}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_offsets_pipeline(normalizer)), encoding="utf-8")
    hf = tokenizers.Tokenizer.from_file(str(path))
    ours = Tokenizer.from_hf_json(path)
    for text in [*SAMPLES, "tab\there\x07\u200b▁x\ufeff", "héllo wörld 中文 🙂"]:
        if not text:
            continue
        expected = hf.encode(text)
        got = ours.encode(text)
        assert got.offsets == expected.offsets, text
        assert ours.normalizer.normalize_str(text) == hf.normalizer.normalize_str(text), text


@pytest.mark.parity
def test_sentencepiece_matching_equals_its_normalizer(models_fr: tuple[Path, list[str]]) -> None:
    spm = require("sentencepiece")
    path, lines = models_fr
    sp = spm.SentencePieceProcessor(model_file=str(path))
    normalizer = from_sentencepiece(path).normalizer
    for line in [*lines, *SAMPLES, "  two  spaces\u3000and ideographic  "]:
        assert normalizer.normalize_str(line) == sp.normalize(line), line


@pytest.fixture(scope="module")
def models_fr(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    models = ModelFactory(tmp_path_factory.mktemp("spm_fr"))
    return models("fr", "unigram", False), corpus_lines("fr")[:3000:5]


def test_the_two_matching_rules_differ_only_inside_clusters() -> None:
    rules = {"ｶ": "カ", "ｶﾞ": "ガ", "\r": " ", "e": "E"}
    hf = Precompiled(build_charsmap(rules))
    sp = Precompiled(build_charsmap(rules), matching="sentencepiece")
    assert hf.normalize_str("e\u0301x") == "Ex"  # HF: the shortest rule of a short cluster replaces all of it
    assert sp.normalize_str("e\u0301x") == "E\u0301x"
    assert hf.normalize_str("ｶﾞ!") == "カﾞ!"  # a cluster of 6 bytes or more: character by character
    assert sp.normalize_str("ｶﾞ!") == "ガ!"  # sentencepiece: the longest rule
    assert hf.normalize_str("a\r\nb") == "a b"  # CR LF is one cluster
    assert sp.normalize_str("a\r\nb") == "a \nb"
    assert hf.normalize_str("ｶ ｶ") == sp.normalize_str("ｶ ｶ") == "カ カ"
    tokenizers = require("tokenizers")
    real = tokenizers.normalizers.Precompiled(base64.b64decode(build_charsmap(rules)))
    for text in ["e\u0301x", "ｶﾞ!", "a\r\nb", "ｶ ｶ"]:
        assert hf.normalize_str(text) == real.normalize_str(text)


def test_build_charsmap_is_read_by_sentencepiece_and_hf(models_fr: tuple[Path, list[str]], tmp_path: Path) -> None:
    """A hand-made map, put in a real model, normalizes the same in sentencepiece, HF and here."""
    spm = require("sentencepiece")
    tokenizers = require("tokenizers")
    from toolkit.interop.spm_proto import serialize_model

    rules = {"Ⅻ": "XII", "ß": "ss", "ǆ": "dž", "ab": "X", "a": "Y"}
    charsmap = build_charsmap(rules)
    assert CharsMap(base64.b64decode(charsmap)).rules == {k: v for k, v in rules.items() if len(k) == 1}
    proto = read_sentencepiece(models_fr[0])
    proto.normalizer_spec.set("precompiled_charsmap", base64.b64decode(charsmap))
    (tmp_path / "custom.model").write_bytes(serialize_model(proto))
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "custom.model"))
    ours = from_sentencepiece(tmp_path / "custom.model").normalizer
    for text in ["Ⅻ ß", "abab a", "ǆ"]:
        assert ours.normalize_str(text) == sp.normalize(text)
    hf = tokenizers.normalizers.Precompiled(base64.b64decode(charsmap))
    for text in ["Ⅻ ß", "ǆ", "b"]:
        assert Precompiled(charsmap).normalize_str(text) == hf.normalize_str(text)


@pytest.mark.parametrize(
    "blob, needle",
    [
        (b"\x01\x02", "too short"),
        (struct.pack("<I", 6) + b"\0" * 8, "not a multiple of 4"),
        (struct.pack("<I", 64) + b"\0" * 8, "the trie claims 64 bytes"),
    ],
)
def test_hostile_maps_are_config_errors(blob: bytes, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        Precompiled(base64.b64encode(blob).decode())


def test_a_rule_pointing_past_the_table_is_a_config_error() -> None:
    good = base64.b64decode(build_charsmap({"x": "y"}))
    (size,) = struct.unpack_from("<I", good)
    with pytest.raises(ConfigError, match="past the replacement table"):
        CharsMap(good[: 4 + size])  # the replacement table cut off
    with pytest.raises(ConfigError, match="must be base64"):
        Precompiled("not base64!")


def test_nmt_every_code_point_matches_hf() -> None:
    tokenizers = require("tokenizers")
    hf = tokenizers.normalizers.Nmt()
    text = "".join(chr(cp) for cp in range(1, 0x3000)) + "\ufeff\ufffd\u2581x"
    assert Nmt().normalize_str(text) == hf.normalize_str(text)


def test_byte_level_normalizer_matches_hf() -> None:
    tokenizers = require("tokenizers")
    hf = tokenizers.normalizers.ByteLevel()
    for text in [*SAMPLES, "héllo wörld 中文 🙂 \n\t"]:
        assert ByteLevel().normalize_str(text) == hf.normalize_str(text)


@pytest.mark.parametrize("options", [{}, {"cleanup": False}, {"pad_token": "[PAD]", "word_delimiter_token": "_"}])
def test_ctc_matches_hf(options: dict) -> None:
    tokenizers = require("tokenizers")
    hf = tokenizers.decoders.CTC(**options)
    ours = CTC(**options)
    for tokens in (["<pad>", "h", "h", "e", "l", "l", "<pad>", "l", "o", "|", "|", "w", "o", "r", "l", "d", "<pad>"],
                   ["[PAD]", "a", "_", "b", "b", " ", ".", "i", "'", "m"], ["do", " not", "|", "go"], []):
        assert ours.decode(tokens) == hf.decode(tokens), tokens


def test_json_round_trips(nmt_nfkc: str) -> None:
    from toolkit.interfaces import build

    for kind, component in [("normalizer", Precompiled(nmt_nfkc, matching="sentencepiece")), ("normalizer", Nmt()),
                            ("normalizer", ByteLevel()), ("decoder", CTC(pad_token="[PAD]", cleanup=False))]:
        again = build(kind, component.to_dict())
        assert again == component and type(again) is type(component)
    p = Precompiled(nmt_nfkc)
    p.matching = "sentencepiece"
    assert p == Precompiled(nmt_nfkc, matching="sentencepiece")


@pytest.mark.parity
@pytest.mark.parametrize("lang", ["en", "fr", "th", "zh"])
def test_corpus_lines_and_offsets_match_hf(nmt_nfkc: str, tmp_path: Path, lang: str) -> None:
    """Every line of each corpus normalizes as in HF; offsets of every 20th line too."""
    import json

    tokenizers = require("tokenizers")
    hf_norm = tokenizers.normalizers.Precompiled(base64.b64decode(nmt_nfkc))
    ours = Precompiled(nmt_nfkc)
    lines = corpus_lines(lang)
    for line in lines:
        assert ours.normalize_str(line) == hf_norm.normalize_str(line), line
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_offsets_pipeline({"type": "Precompiled", "precompiled_charsmap": nmt_nfkc})))
    hf, tok = tokenizers.Tokenizer.from_file(str(path)), Tokenizer.from_hf_json(path)
    for line in lines[::20]:
        if line:
            assert tok.encode(line).offsets == hf.encode(line).offsets, line


# ------------------------------------------------------------------------ bounded on hostile input
class _CountingSearch:
    """A compiled pattern whose ``search`` calls are counted."""

    def __init__(self, compiled: object) -> None:
        self.compiled, self.calls = compiled, 0

    def search(self, text: str, pos: int = 0) -> object:
        self.calls += 1
        return self.compiled.search(text, pos)  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["Ａ" * 2000, "Ａ" * 1000 + "@@" + "Ａ" * 1000])
def test_user_symbols_are_searched_again_only_after_one_is_found(text: str) -> None:
    """With user-defined symbols, the map's rules alone used to run one symbol search per rule applied
    (each over the rest of the text: quadratic on full-width text); a search that finds none ends them."""
    p = Precompiled(build_charsmap({"Ａ": "A"}), matching="sentencepiece", user_defined_symbols=["<user>", "@@"])
    counter = _CountingSearch(p._user)
    p._user = counter  # type: ignore[assignment]
    assert p.normalize_str(text) == text.replace("Ａ", "A")
    assert counter.calls <= 2


def test_a_map_key_longer_than_the_limit_or_a_looping_trie_is_refused() -> None:
    from toolkit.normalizers.precompiled import MAX_KEY_BYTES

    fine = Precompiled(build_charsmap({"a" * (MAX_KEY_BYTES - 1) + "b": "x", "a": "A"}), matching="sentencepiece")
    assert fine.normalize_str("a" * (MAX_KEY_BYTES - 1) + "b" + "a") == "xA"
    assert fine.normalize_str("a" * 3 * MAX_KEY_BYTES) == "A" * 3 * MAX_KEY_BYTES  # each walk stops early
    long_key = Precompiled(build_charsmap({"a" * 2 * MAX_KEY_BYTES + "b": "x"}), matching="sentencepiece")
    with pytest.raises(ConfigError, match=f"a rule's key is longer than {MAX_KEY_BYTES} bytes"):
        long_key.normalize_str("a" * 10_000)
    two_byte_chars = Precompiled(build_charsmap({"é" * (MAX_KEY_BYTES // 2 + 1) + "b": "x"}), matching="sentencepiece")
    with pytest.raises(ConfigError, match=f"longer than {MAX_KEY_BYTES} bytes"):  # bytes, not characters
        two_byte_chars.normalize_str("é" * MAX_KEY_BYTES)
    # a hand-made trie whose "a" link leads back to the node it left: no tool writes one, sentencepiece refuses it
    units = [0] * 1024
    units[0] = 256 << 10
    units[353] = (865 << 10) | 0x100 | 0x61
    units[609] = 0x61 | (353 << 10)
    units[865] = 0x61 | (97 << 10)
    blob = struct.pack(f"<I{len(units)}I", 4 * len(units), *units) + b"x\0"
    looping = Precompiled(blob, matching="sentencepiece")
    with pytest.raises(ConfigError, match="or the trie loops"):
        looping.normalize_str("a" * 10_000)


def test_user_symbols_longer_than_a_token_are_refused() -> None:
    too_long = r"user_defined_symbols: symbol .* is 1,025 characters long.*MAX_TOKEN_LENGTH"
    with pytest.raises(ConfigError, match=too_long):
        Precompiled(Precompiled.EMPTY, user_defined_symbols=["a" * 1025])


def test_the_symbol_pattern_is_built_in_memory_linear_in_the_symbols() -> None:
    """Each symbol's chain of trie nodes used to keep the pattern of every suffix (length squared)."""
    import random
    import tracemalloc

    from toolkit.normalizers.precompiled import user_symbols_pattern, user_symbols_reference

    rng = random.Random(0)
    symbols = ["".join(rng.choice("abcd") for _ in range(1000)) for _ in range(20)]
    tracemalloc.start()
    try:
        pattern = user_symbols_pattern(symbols)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000  # 20 x 1000 characters of symbols (5 MB here); with every suffix kept, 17 MB
    text = "x" + symbols[3] + symbols[7][:500] + symbols[7]
    reference = user_symbols_reference(symbols)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in reference.finditer(text)]


def test_a_rule_that_writes_much_is_refused_before_its_output_is_built() -> None:
    import tracemalloc

    from toolkit import limits
    from toolkit.errors import InputError

    p = Precompiled(build_charsmap({"a": "\U0001F600" * 1000}), matching="sentencepiece")
    n = limits.MAX_INPUT_CHARS // 1000 + 1
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match="the normalized text would have"):
            p.normalize_str("a" * n)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * limits.MAX_INPUT_CHARS // 10  # the output (4 bytes a character) was never joined
