"""GPT-2 exactness: Tokenizer.from_gpt2 gives tiktoken's and Hugging Face's ids on real text.

tiktoken and HF are built from the *same local files* (``../shared/corpora/vocab/gpt2``), offline.
Every file under ``corpora/english`` is compared (a 2 MB slice of each Gutenberg part, the whole of
tinyshakespeare), plus the Thai, Chinese and French samples. Skips cleanly without the shared data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA, require, shared_path, slow_params
from toolkit import Tokenizer

tiktoken = require("tiktoken")
tiktoken_load = require("tiktoken.load")

pytestmark = pytest.mark.parity

SLICE = 2_000_000  # characters per Gutenberg part (CI time); tinyshakespeare and the samples are whole
ENGLISH = [f"english/gutenberg_part0{i}.txt" for i in range(1, 7)] + ["english/tinyshakespeare_input.txt"]
MULTILINGUAL = [
    "multilingual/thai_wisesight_sentiment_neg.txt",
    "multilingual/chinese_xiyouji_pg23962-0.txt",
    "multilingual/french_entre_nous_pg44157-0.txt",
]
#: The parity on whole files: Gutenberg parts 3 to 6 run with -m slow (about 2 s each).
CORPUS_PARAMS = slow_params(ENGLISH + MULTILINGUAL, slow=ENGLISH[2:6])
ENDOFTEXT = "<|endoftext|>"


def read_corpus(relative: str) -> str:
    """The text as stored: CRLF and the BOM are kept (newline=""), they are part of what we test."""
    with open(shared_path(relative), encoding="utf-8", newline="") as fh:
        text = fh.read()
    return text[:SLICE] if "gutenberg" in relative else text


def first_difference(ours: list[int], theirs: list[int]) -> str:
    i = next((k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    return f"first difference at token {i}: ours {ours[i:i + 8]} vs reference {theirs[i:i + 8]} (lengths {len(ours)}, {len(theirs)})"


@pytest.fixture(scope="module")
def gpt2_files() -> tuple[Path, Path]:
    return shared_path("vocab/gpt2/encoder.json"), shared_path("vocab/gpt2/vocab.bpe")


@pytest.fixture(scope="module")
def ours(gpt2_files: tuple[Path, Path]) -> Tokenizer:
    return Tokenizer.from_gpt2(*gpt2_files)


def tiktoken_gpt2_pattern() -> str:
    # tiktoken's own GPT-2 pattern (not ours): the reference must be independent of our constants.
    from tiktoken_ext.openai_public import r50k_pat_str

    return r50k_pat_str


@pytest.fixture(scope="module")
def reference(gpt2_files: tuple[Path, Path]):
    encoder_json, vocab_bpe = gpt2_files
    ranks = tiktoken_load.data_gym_to_mergeable_bpe_ranks(vocab_bpe_file=str(vocab_bpe), encoder_json_file=str(encoder_json))
    return tiktoken.Encoding(
        "gpt2-local", pat_str=tiktoken_gpt2_pattern(), mergeable_ranks=ranks, special_tokens={ENDOFTEXT: 50256}
    )


def make_hf_gpt2(gpt2_files: tuple[Path, Path]):
    tokenizers = require("tokenizers")
    from tokenizers import decoders, models, pre_tokenizers

    hf = tokenizers.Tokenizer(models.BPE.from_file(str(gpt2_files[0]), str(gpt2_files[1])))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    return hf


@pytest.fixture(scope="module")
def hf_gpt2(gpt2_files: tuple[Path, Path]):
    return make_hf_gpt2(gpt2_files)


def test_loads_the_gpt2_vocabulary(ours: Tokenizer) -> None:
    assert ours.vocab_size == 50257
    assert ours.special_tokens == {ENDOFTEXT: 50256}
    assert len(ours.model.merges) == 50000
    assert ours.encode_ids("Hello world") == [15496, 995]


@pytest.mark.parametrize("relative", CORPUS_PARAMS)
def test_ids_identical_to_tiktoken(ours: Tokenizer, reference, relative: str) -> None:
    text = read_corpus(relative)
    expected = reference.encode_ordinary(text)
    got = ours.encode_ids(text)
    assert got == expected, f"{relative}: {first_difference(got, expected)}"
    assert ours.decode(got) == text


def test_special_tokens_like_tiktoken(ours: Tokenizer, reference) -> None:
    text = f"Hello{ENDOFTEXT} world {ENDOFTEXT}{ENDOFTEXT}!"
    # Default: ordinary text, as encode_ordinary / encode(disallowed_special=()).
    assert ours.encode_ids(text) == reference.encode(text, disallowed_special=()) == reference.encode_ordinary(text)
    assert 50256 not in ours.encode_ids(text)
    assert ours.encode_ids(text, allowed_special="all") == reference.encode(text, allowed_special="all")
    assert ours.encode_ids(text, allowed_special={ENDOFTEXT}) == reference.encode(text, allowed_special={ENDOFTEXT})
    assert ours.encode(text, allowed_special="all").ids == reference.encode(text, allowed_special="all")
    assert ours.decode(ours.encode_ids(text, allowed_special="all"), skip_special_tokens=False) == text


def sample_lines() -> list[str]:
    lines: list[str] = []
    for relative in ["english/tinyshakespeare_input.txt", *MULTILINGUAL]:
        with open(shared_path(relative), encoding="utf-8", newline="") as fh:
            lines += [line for _, line in zip(range(1500), fh)]
    return lines


def test_ids_and_offsets_identical_to_hf(ours: Tokenizer, hf_gpt2) -> None:
    lines = sample_lines()
    assert len(lines) > 5000
    for line, hf_enc in zip(lines, hf_gpt2.encode_batch(lines)):
        enc = ours.encode(line)
        assert enc.ids == hf_enc.ids, line
        assert enc.offsets == hf_enc.offsets, line
        assert enc.tokens == hf_enc.tokens, line
    assert ours.decode(ours.encode_ids(lines[3])) == hf_gpt2.decode(hf_gpt2.encode(lines[3]).ids)


def test_encode_equals_encode_ids_on_a_slice(ours: Tokenizer) -> None:
    text = read_corpus("english/gutenberg_part03.txt")[:200_000]
    assert ours.encode(text).ids == ours.encode_ids(text)


def test_hf_vocab_json_merges_txt_names_work_too(ours: Tokenizer, gpt2_files: tuple[Path, Path], tmp_path: Path) -> None:
    # HF calls the same files vocab.json + merges.txt; our own export of GPT-2 must reload identically.
    vocab_path, merges_path = ours.save_vocab_merges(tmp_path)
    assert (vocab_path.name, merges_path.name) == ("vocab.json", "merges.txt")
    again = Tokenizer.from_gpt2(vocab_path, merges_path)
    text = read_corpus("english/tinyshakespeare_input.txt")[:100_000]
    assert again.encode_ids(text) == ours.encode_ids(text)
    # The merges file is byte-identical to OpenAI's vocab.bpe apart from the trailing newline layout.
    original = Path(gpt2_files[1]).read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert merges_path.read_text(encoding="utf-8").rstrip("\n").split("\n") == original


def test_bad_gpt2_files(tmp_path: Path, gpt2_files: tuple[Path, Path]) -> None:
    from toolkit.errors import SerializationError, VocabularyError

    bad_merges = tmp_path / "vocab.bpe"
    bad_merges.write_text("#version: 0.2\nĠ t\nĠt he llo\n", encoding="utf-8")
    with pytest.raises(SerializationError, match=r"vocab.bpe:3: .*two tokens"):
        Tokenizer.from_gpt2(gpt2_files[0], bad_merges)
    unknown = tmp_path / "unknown.bpe"
    unknown.write_text("#version: 0.2\nĠ t\nzzzz qqqq\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"unknown.bpe:3: .*'zzzz'"):
        Tokenizer.from_gpt2(gpt2_files[0], unknown)
    bad_encoder = tmp_path / "encoder.json"
    bad_encoder.write_text('{"a": 0, "b": "one"}', encoding="utf-8")
    with pytest.raises(SerializationError, match=r"encoder.json: token 'b' has id 'one'"):
        Tokenizer.from_gpt2(bad_encoder, gpt2_files[1])


def test_corpora_present_means_all_files_compared() -> None:
    # Guard against silently comparing nothing: when the corpora exist, every listed file exists.
    if not CORPORA.is_dir():
        pytest.skip("shared corpora absent")
    assert all((CORPORA / r).is_file() for r in ENGLISH + MULTILINGUAL)


def test_hf_gpt2_tokenizer_json_imports_exactly(gpt2_files: tuple[Path, Path], reference, tmp_path: Path) -> None:
    """The tokenizer.json HF writes for GPT-2 (ByteLevel post-processor without trimming, the
    <|endoftext|> added token) imports to a tokenizer with tiktoken's ids."""
    from tokenizers import processors

    hf_gpt2 = make_hf_gpt2(gpt2_files)
    hf_gpt2.post_processor = processors.ByteLevel(trim_offsets=False)
    hf_gpt2.add_special_tokens([ENDOFTEXT])
    path = tmp_path / "tokenizer.json"
    hf_gpt2.save(str(path))
    imported = Tokenizer.from_hf_json(path)
    assert type(imported.model).__name__ == "ByteLevelBPE"
    assert imported.special_tokens == {ENDOFTEXT: 50256}
    text = read_corpus("english/tinyshakespeare_input.txt")
    assert imported.encode_ids(text) == reference.encode_ordinary(text)
    lines = text.split("\n")[:2000]
    for line, expected in zip(lines, hf_gpt2.encode_batch(lines)):
        assert imported.encode(line).offsets == expected.offsets


def test_the_gpt2_pipeline_marks_sequences_as_hf_byte_level_bpe(ours: Tokenizer, gpt2_files: tuple[Path, Path]) -> None:
    """``from_gpt2`` builds what HF's ``ByteLevelBPETokenizer`` and ``transformers``' GPT-2 converter build,
    post-processor ``ByteLevel(trim_offsets=False)`` included: it adds nothing, but it marks each token's
    sequence, so padding and the parts of a truncated pair read as HF's."""
    tokenizers = require("tokenizers")
    hf = tokenizers.ByteLevelBPETokenizer(str(gpt2_files[0]), str(gpt2_files[1]))._tokenizer
    assert ours.post_processor.to_dict() == {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False,
                                             "use_regex": True}
    mine = Tokenizer.from_str(ours.to_str())  # not the module's fixture: padding and truncation are set below
    for tok in (mine, hf):
        tok.enable_padding(length=6, pad_id=0, pad_token="!")
    for text in ("hi", "Hello world"):
        a, b = mine.encode(text), hf.encode(text)
        assert (a.ids, a.sequence_ids, a.offsets) == (b.ids, b.sequence_ids, b.offsets)
        assert [a.token_to_sequence(i) for i in range(6)] == [b.token_to_sequence(i) for i in range(6)]
    for tok in (mine, hf):
        tok.no_padding()
        tok.enable_truncation(3)
    a, b = mine.encode("a b c", "d e f"), hf.encode("a b c", "d e f")
    assert [(o.ids, o.sequence_ids, o.n_sequences) for o in a.overflowing] == [
        (o.ids, o.sequence_ids, o.n_sequences) for o in b.overflowing]
