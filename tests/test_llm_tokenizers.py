"""Today's LLM tokenizer files (Llama 2, Llama 3, Qwen3, DeepSeek-V3, GPT-4o, Gemma 3) against HF.

Each ``tokenizer.json`` of the shared corpora loads with ``Tokenizer.from_hf_json`` and gives the
ids, tokens and offsets of ``tokenizers.Tokenizer.from_file`` on the English, French, Thai and
Chinese corpora, special and added tokens included; exported back with ``to_hf_json`` HF reproduces
the same ids. Our default (special tokens typed in text are text) is compared with HF's
``encode_special_tokens=True``, ``allowed_special="all"`` with HF's default. The default set samples
lines; the ``slow`` set runs every line.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import pytest
from conftest import require, shared_path, slow_params

from toolkit import Tokenizer

tokenizers = require("tokenizers")

NAMES = ["llama2", "llama3", "qwen3", "deepseek_v3", "gpt4o", "gemma3"]
#: Gemma 3 (262k tokens, the slowest to encode) is sampled with -m slow only; its every line too.
SAMPLED = slow_params(NAMES, slow={"gemma3"})
CORPORA = [
    "english/tinyshakespeare_input.txt",
    "multilingual/french_entre_nous_pg44157-0.txt",
    "multilingual/thai_wisesight_sentiment_neg.txt",
    "multilingual/chinese_xiyouji_pg23962-0.txt",
]


def llm_path(name: str) -> Path:
    return shared_path(f"vocab/llm/{name}/tokenizer.json")


@lru_cache(maxsize=2)
def load_pair(name: str) -> tuple[Tokenizer, Any]:
    path = llm_path(name)
    return Tokenizer.from_hf_json(path), tokenizers.Tokenizer.from_file(str(path))


@cache
def corpus_lines(relative: str) -> list[str]:
    text = shared_path(relative).read_text(encoding="utf-8")
    return text.splitlines(keepends=True)  # CRLF and the BOM kept: the tokenizers see them too


def sample(lines: list[str], n: int, seed: int) -> list[str]:
    return lines if n >= len(lines) else random.Random(seed).sample(lines, n)


def typed_lines(tok: Tokenizer, seed: int) -> list[str]:
    """Corpus lines with special and added tokens typed in, glued to words and between spaces."""
    rnd = random.Random(seed)
    added = [t.content for t in tok.get_added_tokens_decoder().values()]
    lines = sample(corpus_lines(CORPORA[0]), 24, seed) + sample(corpus_lines(CORPORA[3]), 12, seed)
    out = []
    for line in lines:
        for _ in range(3):
            token = rnd.choice(added)
            at = rnd.randint(0, len(line))
            line = line[:at] + rnd.choice(["", " ", "\n"]) + token + rnd.choice(["", " ", "x"]) + line[at:]
        out.append(line)
    return out


def assert_lines_like_hf(tok: Tokenizer, hf: Any, lines: list[str], *, allowed: Any = (), pair: bool = False) -> None:
    hf.encode_special_tokens = allowed != "all"
    try:
        for i, line in enumerate(lines):
            for add in (True, False):
                enc = tok.encode(line, allowed_special=allowed, add_special_tokens=add)
                expected = hf.encode(line, add_special_tokens=add)
                assert enc.ids == expected.ids, (i, line)
                assert enc.tokens == expected.tokens, (i, line)
                assert enc.offsets == expected.offsets, (i, line)
                assert tok.encode_ids(line, allowed_special=allowed, add_special_tokens=add) == expected.ids, line
            if i % 5 == 0:
                assert tok.decode(enc.ids) == hf.decode(expected.ids), line
                assert tok.decode(enc.ids, skip_special_tokens=False) == hf.decode(expected.ids, skip_special_tokens=False)
                assert_stream_like_hf(tok, hf, enc.ids)
    finally:
        hf.encode_special_tokens = False


def assert_stream_like_hf(tok: Tokenizer, hf: Any, ids: list[int]) -> None:
    """``DecodeStream`` gives HF's chunks step by step, with HF's default and both flag values; a
    list of ids in one step gives the same text."""
    from toolkit.decoders import DecodeStream
    for options in ({}, {"skip_special_tokens": True}, {"skip_special_tokens": False}):
        ours, theirs = DecodeStream(**options), tokenizers.decoders.DecodeStream(**options)
        assert [ours.step(tok, i) for i in ids] == [theirs.step(hf, i) for i in ids], (ids, options)
        half = len(ids) // 2
        ours, theirs = DecodeStream(**options), tokenizers.decoders.DecodeStream(**options)
        assert [ours.step(tok, ids[:half]), ours.step(tok, ids[half:])] == [
            theirs.step(hf, ids[:half]), theirs.step(hf, ids[half:])], (ids, options)


@pytest.mark.parity
@pytest.mark.parametrize("name", slow_params(["llama2", "gemma3"], slow={"gemma3"}))
def test_streams_of_byte_pieces_stepped_in_lists_like_hf(name: str) -> None:
    """Byte-fallback runs decode all or nothing: a list of ids that ends inside a run must not print
    U+FFFD for bytes a later id completes ("🫠🫠" as eight <0xNN> pieces in lists of three), and a
    run invalid from its first byte prints as one run."""
    from toolkit.decoders import DecodeStream

    tok, hf = load_pair(name)
    lines = sample(corpus_lines("multilingual/chinese_xiyouji_pg23962-0.txt"), 12, seed=3)
    lines += sample(corpus_lines("multilingual/thai_wisesight_sentiment_neg.txt"), 6, seed=4) + ["🫠🫠 🇫🇷🇯🇵"]
    for line in lines:
        ids = hf.encode(line, add_special_tokens=False).ids
        for size in (2, 3, 4):
            chunks = [ids[k:k + size] for k in range(0, len(ids), size)]
            ours, theirs = DecodeStream(), tokenizers.decoders.DecodeStream()
            assert [ours.step(tok, c) for c in chunks] == [theirs.step(hf, c) for c in chunks], (line, size)
    if name == "llama2":  # bytes are ids 3..258; 272 is "▁the"
        b = [0xF8, 0x48, 0x48, 0x48, 0xE4, 0xB8, 0xAD]
        for skip in (False, True):
            ids = [x + 3 for x in b] + [272]
            stream = tok.stream_decoder(skip_special_tokens=skip)
            assert "".join(stream.feed(i) for i in ids) + stream.flush() == tok.decode(ids) == hf.decode(ids)
        ids = [0xF8 + 3, 1, 1, 1, 0xE4 + 3, 0xB8 + 3, 0xAD + 3, 272]  # skipped <s> inside the run
        stream = tok.stream_decoder()
        assert "".join(stream.feed(i) for i in ids) + stream.flush() == tok.decode(ids) == "\ufffd" * 4 + " the"
        # the context kept after a step must decode to some text: a skipped <unk> alone would make the
        # next step's text start with " 😀", whose space Llama 2's Strip decoder removes
        chunks = [[119, 0], [23423, 5, 428, 259], [3176], [28705, 17422], [0], [35, 243, 162, 155], [131]]
        ours, theirs = DecodeStream(skip_special_tokens=True), tokenizers.decoders.DecodeStream(skip_special_tokens=True)
        assert [ours.step(tok, c) for c in chunks] == [theirs.step(hf, c) for c in chunks]


@pytest.mark.parity
@pytest.mark.parametrize("name", SAMPLED)
def test_sampled_corpus_lines_like_hf(name: str) -> None:
    tok, hf = load_pair(name)
    for k, relative in enumerate(CORPORA):
        assert_lines_like_hf(tok, hf, sample(corpus_lines(relative), 36, seed=k))


@pytest.mark.parity
@pytest.mark.parametrize("name", SAMPLED)
def test_typed_special_and_added_tokens_like_hf(name: str) -> None:
    tok, hf = load_pair(name)
    lines = typed_lines(tok, seed=len(name))
    assert_lines_like_hf(tok, hf, lines, allowed="all")
    assert_lines_like_hf(tok, hf, lines, allowed=())


#: The export round trip of the three largest files (Gemma 3's 262k tokens takes about 13 s) runs
#: with ``-m slow``; the default run exports one file of each family.
_EXPORT_DEFAULT = ("llama2", "llama3", "qwen3")


@pytest.mark.parity
@pytest.mark.parametrize("name", slow_params(NAMES, default=_EXPORT_DEFAULT))
def test_export_round_trip_gives_hf_the_same_ids(name: str, tmp_path: Path) -> None:
    tok, hf = load_pair(name)
    tok.to_hf_json(tmp_path / "tokenizer.json")
    again = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert again.get_vocab() == hf.get_vocab()
    assert {i: str(t) for i, t in again.get_added_tokens_decoder().items()} == {
        i: str(t) for i, t in hf.get_added_tokens_decoder().items()
    }
    lines = sample(corpus_lines(CORPORA[0]), 30, 1) + sample(corpus_lines(CORPORA[2]), 30, 2) + typed_lines(tok, 3)
    for line in lines:
        assert again.encode(line).ids == hf.encode(line).ids, line


def test_vocabulary_and_added_tokens_like_hf() -> None:
    for name in ("qwen3", "deepseek_v3"):  # the two with non-special added tokens outside the model vocabulary
        tok, hf = load_pair(name)
        assert tok.get_vocab() == hf.get_vocab()
        assert tok.get_vocab_size() == hf.get_vocab_size()
        for token_id, token in hf.get_added_tokens_decoder().items():
            ours = tok.get_added_tokens_decoder()[token_id]
            assert (ours.content, ours.special, ours.normalized, ours.lstrip, ours.rstrip, ours.single_word) == (
                token.content, token.special, token.normalized, token.lstrip, token.rstrip, token.single_word)
            assert tok.id_to_token(token_id) == hf.id_to_token(token_id)


@pytest.mark.slow
@pytest.mark.parity
@pytest.mark.parametrize("relative", CORPORA)
@pytest.mark.parametrize("name", NAMES)
def test_every_corpus_line_like_hf(name: str, relative: str) -> None:
    tok, hf = load_pair(name)
    hf.encode_special_tokens = True
    try:
        for line in corpus_lines(relative):
            enc, expected = tok.encode(line), hf.encode(line)
            assert (enc.ids, enc.tokens, enc.offsets) == (expected.ids, expected.tokens, expected.offsets), line
            assert tok.encode_ids(line) == expected.ids, line
    finally:
        hf.encode_special_tokens = False
