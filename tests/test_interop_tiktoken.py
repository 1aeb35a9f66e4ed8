"""cl100k exactness and the .tiktoken format: Tokenizer.from_tiktoken gives tiktoken's ids.

The reference is ``tiktoken.Encoding`` built offline from the same local ``cl100k_base.tiktoken``
(``tiktoken.load.load_tiktoken_bpe`` on a path needs no network) with tiktoken's own cl100k pattern.
Also: ``allowed_special`` matches tiktoken's ``encode(..., allowed_special=...)``, our byte-level
models exported with ``save_tiktoken`` load in tiktoken with identical ids, and malformed files fail
with typed errors.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from conftest import require, shared_path
from test_interop_gpt2 import CORPUS_PARAMS, first_difference, read_corpus
from toolkit import Tokenizer
from toolkit.errors import ConfigError, SerializationError, VocabularyError

tiktoken = require("tiktoken")
tiktoken_load = require("tiktoken.load")

CL100K_SPECIALS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


def tiktoken_pattern_of(function_name: str) -> str:
    """tiktoken's own ``pat_str`` for an encoding, read from its source without calling it (calling
    would download the ranks)."""
    from tiktoken_ext import openai_public

    tree = ast.parse(inspect.getsource(getattr(openai_public, function_name)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "pat_str" and isinstance(value, ast.Constant):
                    return value.value
    raise AssertionError(f"no literal pat_str in tiktoken_ext.openai_public.{function_name}")


@pytest.fixture(scope="module")
def cl100k_path() -> Path:
    return shared_path("vocab/tiktoken/cl100k_base.tiktoken")


@pytest.fixture(scope="module")
def ours(cl100k_path: Path) -> Tokenizer:
    from pretokenizers import CL100K_PATTERN

    return Tokenizer.from_tiktoken(cl100k_path, pattern=CL100K_PATTERN, special_tokens=CL100K_SPECIALS)


@pytest.fixture(scope="module")
def reference(cl100k_path: Path):
    ranks = tiktoken_load.load_tiktoken_bpe(str(cl100k_path))
    return tiktoken.Encoding(
        "cl100k-local", pat_str=tiktoken_pattern_of("cl100k_base"), mergeable_ranks=ranks, special_tokens=CL100K_SPECIALS
    )


@pytest.mark.parity
@pytest.mark.parametrize("relative", CORPUS_PARAMS)
def test_ids_identical_to_tiktoken(ours: Tokenizer, reference, relative: str) -> None:
    text = read_corpus(relative)
    expected = reference.encode_ordinary(text)
    got = ours.encode_ids(text)
    assert got == expected, f"{relative}: {first_difference(got, expected)}"
    assert ours.decode(got) == text


SPECIAL_TEXTS = [
    "hello <|endoftext|> world",
    "<|fim_prefix|>def f(x):<|fim_suffix|>    return x<|fim_middle|>",
    "a<|endoftext|><|endoftext|>b <|endofprompt|>",
    "<|endoftext|",  # incomplete: never special
    "text with <|im_start|> which cl100k does not know",
]


@pytest.mark.parametrize("text", SPECIAL_TEXTS)
def test_allowed_special_like_tiktoken(ours: Tokenizer, reference, text: str) -> None:
    # Default: special tokens are ordinary text, like encode_ordinary / encode(disallowed_special=()).
    assert ours.encode_ids(text) == reference.encode_ordinary(text) == reference.encode(text, disallowed_special=())
    assert ours.encode_ids(text, allowed_special="all") == reference.encode(text, allowed_special="all")
    some = {"<|endoftext|>"}
    assert ours.encode_ids(text, allowed_special=some) == reference.encode(text, allowed_special=some, disallowed_special=())
    assert ours.encode(text, allowed_special="all").ids == reference.encode(text, allowed_special="all")
    assert ours.decode(ours.encode_ids(text, allowed_special="all"), skip_special_tokens=False) == text


def test_special_tokens_written_in_the_byte_alphabet_give_their_utf8_bytes_as_in_tiktoken(cl100k_path: Path) -> None:
    """``é``, ``ÿ``, ``Ġ`` are byte-level characters too: a special token made of them still stands for
    its own text in tiktoken, and in our ``decode_bytes`` family (``decode`` follows HF: migrating.md)."""
    from pretokenizers import CL100K_PATTERN

    specials = {**CL100K_SPECIALS, "<|café|>": 100300, "[Ġÿ]": 100301}
    mine = Tokenizer.from_tiktoken(cl100k_path, pattern=CL100K_PATTERN, special_tokens=specials)
    ranks = tiktoken_load.load_tiktoken_bpe(str(cl100k_path))
    ref = tiktoken.Encoding("cl100k-plus", pat_str=tiktoken_pattern_of("cl100k_base"), mergeable_ranks=ranks,
                            special_tokens=specials)
    text = "a<|café|>b [Ġÿ] é<|endoftext|>"
    ids = ref.encode(text, allowed_special="all")
    assert mine.encode_ids(text, allowed_special="all") == ids
    assert mine.decode_bytes(ids) == ref.decode_bytes(ids) == text.encode()
    assert mine.decode_tokens_bytes(ids) == ref.decode_tokens_bytes(ids)
    assert mine.decode_single_token_bytes(100301) == ref.decode_single_token_bytes(100301) == "[Ġÿ]".encode()
    assert mine.decode_bytes_batch([ids, ids[:2]]) == ref.decode_bytes_batch([ids, ids[:2]])
    mine.add_tokens(["<é>"])  # an added token stands for its text too
    added = mine.token_to_id("<é>")
    assert mine.decode_bytes([added, ids[0]]) == "<é>a".encode()


def test_known_file_names_get_openai_defaults(cl100k_path: Path, ours: Tokenizer) -> None:
    default = Tokenizer.from_tiktoken(cl100k_path)
    assert default.special_tokens == CL100K_SPECIALS
    text = "The 12345 quick brown foxes' jumped!!\r\n\r\n  over"
    assert default.encode_ids(text) == ours.encode_ids(text)
    assert Tokenizer.from_tiktoken(cl100k_path, pattern="cl100k").encode_ids(text) == ours.encode_ids(text)
    assert default.vocab_size == 100256 + len(CL100K_SPECIALS)


def test_special_ids_must_not_collide_with_ranks(cl100k_path: Path) -> None:
    with pytest.raises(VocabularyError, match="already the rank"):
        Tokenizer.from_tiktoken(cl100k_path, pattern="cl100k", special_tokens={"<|x|>": 5})


def test_a_special_token_spelled_like_a_vocabulary_token_is_refused(tmp_path: Path) -> None:
    """tiktoken keeps special tokens apart from the ranks, so a special token may read like one (``"a"``,
    ``"Ġthe"``); our vocabulary writes every rank in the byte-level alphabet, where that string already
    names a token. Refused with the fix (docs/migrating.md, "From tiktoken")."""
    import base64

    tiktoken = pytest.importorskip("tiktoken")
    path = tmp_path / "bytes.tiktoken"
    path.write_text("".join(f"{base64.b64encode(bytes([b])).decode()} {b}\n" for b in range(256)))
    ranks = {bytes([b]): b for b in range(256)}
    for special, spelled in (("a", b"a"), ("Ġ", b" ")):
        peer = tiktoken.Encoding("bytes", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={special: 300})
        assert peer.encode(special, allowed_special="all") == [300]  # tiktoken accepts it
        with pytest.raises(VocabularyError, match=rf"special_tokens: '{special}' \(id 300\) is also how the vocabulary "
                                                  rf"writes the token of rank {spelled[0]} .* give the special token a "
                                                  rf"text that is not a vocabulary token, e.g. '<\|{special}\|>'"):
            Tokenizer.from_tiktoken(path, pattern=r"\S+|\s+", special_tokens={special: 300})
    peer = tiktoken.Encoding("bytes", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={"<|a|>": 300})
    assert Tokenizer.from_tiktoken(path, pattern=r"\S+|\s+", special_tokens={"<|a|>": 300}).encode_ids(
        "a<|a|>", allowed_special="all") == peer.encode("a<|a|>", allowed_special="all") == [97, 300]


def test_an_unknown_file_needs_its_pattern(tmp_path: Path) -> None:
    """A .tiktoken file does not record its split pattern: guessing one would silently change the ids
    (GPT-2's "12345" is one piece, cl100k's two), so a file not named after an OpenAI encoding needs it."""
    import base64

    from pretokenizers import CL100K_PATTERN, GPT2_PATTERN

    path = tmp_path / "mine.tiktoken"
    path.write_text("".join(f"{base64.b64encode(bytes([b])).decode()} {b}\n" for b in range(256)))
    with pytest.raises(ConfigError, match=r"mine.tiktoken: a .tiktoken file does not record its split pattern .*"
                                          r"pass pattern= \(command line: --pattern\)"):
        Tokenizer.from_tiktoken(path)
    tok = Tokenizer.from_tiktoken(path, pattern="cl100k")
    assert tok.pre_tokenizer.pretokenizers[0].regex_text == CL100K_PATTERN and tok.special_tokens == {}
    assert tok.encode_ids("hi") == [104, 105]
    assert Tokenizer.from_tiktoken(path, pattern="gpt2").pre_tokenizer.pretokenizers[0].regex_text == GPT2_PATTERN
    with pytest.raises(ConfigError, match="pattern"):
        Tokenizer.from_tiktoken(path, pattern="")


def test_json_to_tiktoken_to_json_keeps_the_pattern(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI round trip names the pattern to pass back; with it, the ids are the original's."""
    from toolkit.cli import main
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=300)
    tok = tok.train(["12345 and 678, said the count, 12345 times."] * 20, trainer)
    tok.save(tmp_path / "gpt2.json")
    assert main(["convert", str(tmp_path / "gpt2.json"), str(tmp_path / "x.tiktoken")]) == 0
    err = capsys.readouterr().err
    assert "does not record its split pattern; load it with --pattern GPT2_PATTERN" in err
    assert main(["convert", str(tmp_path / "x.tiktoken"), str(tmp_path / "back.json")]) != 0
    assert "--pattern" in capsys.readouterr().err and not (tmp_path / "back.json").exists()
    assert main(["convert", str(tmp_path / "x.tiktoken"), str(tmp_path / "back.json"), "--pattern", "GPT2_PATTERN"]) == 0
    back = Tokenizer.load(tmp_path / "back.json")
    for text in ["12345", "x 1,000,000 y", "it's 3.14159"]:
        assert back.encode_ids(text) == tok.encode_ids(text)


def test_bad_base64_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.tiktoken"
    path.write_text("IQ== 0\nIg== 1\n%%%% 2\n", encoding="ascii")
    with pytest.raises(SerializationError, match=r"broken.tiktoken:3: invalid base64"):
        Tokenizer.from_tiktoken(path, pattern="cl100k")


# ---------------------------------------------------------------------------- export of our models
TRAIN_TEXT_LINES = 3000


def training_lines() -> list[str]:
    """Text that ships with Python (no shared corpus needed)."""
    from pydoc_data.topics import topics

    lines = [line for doc in topics.values() for line in doc.splitlines() if line.strip()]
    return lines[:TRAIN_TEXT_LINES]


TEST_TEXTS = [
    "The quick brown fox jumps over the lazy dog.",
    "def f(x):\n    return x ** 2  # square\n\n\n",
    "Ünïcödé façade — naïve café, 中文字符, ภาษาไทย, emoji 🙂👍🏽!",
    "   leading spaces and trailing   ",
    "numbers 1234567 and 3.14159, snake_case_names",
    "",
]


@pytest.fixture(scope="module")
def trained_byte_level() -> Tokenizer:
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=700)
    return tok.train(training_lines(), trainer)


@pytest.fixture(scope="module")
def trained_chat() -> Tokenizer:
    from toolkit.training.presets import chat

    tok, trainer = chat(vocab_size=600)
    return tok.train(training_lines(), trainer)


def all_texts() -> list[str]:
    return TEST_TEXTS + training_lines()[::7]


@pytest.mark.parametrize("preset", ["trained_byte_level", "trained_chat"])
def test_save_tiktoken_loads_in_tiktoken_and_back(preset: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    from toolkit.interop import tiktoken_pattern

    tok: Tokenizer = request.getfixturevalue(preset)
    path = tmp_path / "mine.tiktoken"
    tok.save_tiktoken(path)
    ranks = tiktoken_load.load_tiktoken_bpe(str(path))
    assert len(ranks) == tok.vocab_size - len(tok.special_tokens)
    pattern = tiktoken_pattern(tok)
    enc = tiktoken.Encoding("mine", pat_str=pattern, mergeable_ranks=ranks, special_tokens=dict(tok.special_tokens))
    back = Tokenizer.from_tiktoken(path, pattern=pattern, special_tokens=tok.special_tokens)
    for text in all_texts():
        ids = tok.encode_ids(text)
        assert enc.encode_ordinary(text) == ids, text
        assert back.encode_ids(text) == ids, text
        assert back.decode(ids) == text


def test_save_tiktoken_refuses_other_models(tmp_path: Path) -> None:
    from algorithms import WordPiece

    with pytest.raises(SerializationError, match="byte-level BPE"):
        Tokenizer(WordPiece({"[UNK]": 0})).save_tiktoken(tmp_path / "x.tiktoken")


def test_cl100k_round_trips_through_its_own_export(ours: Tokenizer, cl100k_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "cl100k_base.tiktoken"
    ours.save_tiktoken(path)
    assert path.read_bytes() == cl100k_path.read_bytes()
