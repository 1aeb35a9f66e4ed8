"""Property tests (hypothesis) over every algorithm and pipeline shape.

For random text — full Unicode, mixed with special-token strings and characters that stress
alignment (combining marks, ZWJ sequences, NUL, CJK, RTL, emoji...):

* lossless pipelines (byte-level: GPT-2 style, chat preset, tiktoken rank mode) decode back to the
  input exactly, also through the stream decoder;
* offsets are in bounds, non-decreasing, and ``text[start:end]`` is each token's source;
* a JSON save/load round trip gives identical encodings; ``encode_ids`` equals ``encode(...).ids``;
* ``encode_batch`` equals ``encode`` per item (texts and pairs);
* WordPiece tokens are always vocabulary entries;
* the stream decoder prints exactly ``decode(ids)`` for any id sequence (invalid UTF-8 included).

The ``ci`` profile (default) runs 100 examples per test; ``HYPOTHESIS_PROFILE=slow`` runs 2000 and
is marked ``slow`` here only where one example is expensive. Every input tried is counted
(:func:`test_robustness_support.fuzzed`).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_robustness_support import ALL, LOSSLESS, SPECIALS, TRICKY, describe, fuzzed, pipelines, special_ids, unk_id
from toolkit import Tokenizer

# ------------------------------------------------------------------------------------ strategies
_pieces = st.one_of(
    st.text(max_size=12),  # any Unicode scalar value (hypothesis never generates lone surrogates)
    st.text(alphabet=st.characters(codec="utf-8", categories=("Ll", "Lu", "Nd", "Zs", "Po")), max_size=12),
    st.sampled_from(TRICKY),
    st.sampled_from(SPECIALS),
)
#: Text mixing arbitrary Unicode, tricky characters and special-token strings.
texts = st.lists(_pieces, max_size=12).map("".join)
pipeline_names = st.sampled_from(ALL)

_fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class _Pipelines(dict):
    def __repr__(self) -> str:  # keep hypothesis' failure reports short
        return f"<pipelines {', '.join(self)}>"


@pytest.fixture(scope="module")
def toks() -> dict[str, Tokenizer]:
    return _Pipelines(pipelines())


@pytest.fixture(scope="module")
def reloaded(toks: dict[str, Tokenizer]) -> dict[str, Tokenizer]:
    """Every pipeline after a JSON round trip (validated load, as for a file from elsewhere)."""
    return _Pipelines({name: Tokenizer.from_json(tok.to_json()) for name, tok in toks.items()})


# ------------------------------------------------------------------------------------ lossless
@_fixture_ok
@given(name=st.sampled_from(LOSSLESS), text=texts)
def test_lossless_pipelines_decode_back_exactly(toks: dict[str, Tokenizer], name: str, text: str) -> None:
    fuzzed("lossless_round_trip")
    tok = toks[name]
    ids = tok.encode_ids(text)
    assert tok.decode(ids) == text
    # Special strings typed in the text stay text: no special id, and the round trip still holds.
    assert not set(ids) & special_ids(tok)
    allowed = tok.encode_ids(text, allowed_special="all")
    assert tok.decode(allowed, skip_special_tokens=False) == text
    stream = tok.stream_decoder(skip_special_tokens=False)
    assert "".join(stream.feed(i) for i in allowed) + stream.flush() == text


@_fixture_ok
@given(name=st.sampled_from(LOSSLESS), data=st.binary(max_size=40))
def test_lossless_pipelines_round_trip_decoded_bytes(toks: dict[str, Tokenizer], name: str, data: bytes) -> None:
    fuzzed("lossless_bytes")
    text = data.decode("utf-8", "replace")  # what a caller gets from arbitrary bytes
    tok = toks[name]
    assert tok.decode(tok.encode_ids(text)) == text


# ------------------------------------------------------------------------------------ offsets
def _check_offsets(tok: Tokenizer, name: str, text: str, enc) -> None:  # noqa: ANN001
    unk = unk_id(tok)
    prev_start = prev_end = 0
    for token_id, token, (start, end), special in zip(enc.ids, enc.tokens, enc.offsets, enc.special_tokens_mask):
        if special:  # added by the post-processor: (0, 0), no source text
            continue
        assert 0 <= start <= end <= len(text), (token, start, end)
        assert start >= prev_start and end >= prev_end, f"offsets go backwards at {token!r}: {enc.offsets}"
        prev_start, prev_end = start, end
        source = text[start:end]
        if name in LOSSLESS:
            raw = tok.model.token_bytes(token_id)
            assert raw is not None and raw in source.encode("utf-8"), (token, source)
            if start < end and raw == source.encode("utf-8"):
                continue
            # A token holding part of a multi-byte character covers that whole character.
            assert len(source) <= len(raw), (token, source)
        elif token_id == unk:
            assert source, (token, source)
        elif name == "bert":
            normalized = tok.normalize_str(source).strip()
            assert token in (normalized, "##" + normalized), (token, source)
        elif name == "wordpiece":
            # a word's first token is its text as written, even one spelled "##0" (as HF's WordPiece)
            assert token in (source, "##" + source), (token, source)
        elif name == "bpe_metaspace":
            spelled = source.replace(" ", "▁")  # a prepended "▁" covers the empty span before the text
            assert token in (spelled, "▁" + spelled), (token, source)
        else:
            assert token == source, (token, source)


@_fixture_ok
@given(name=pipeline_names, text=texts)
def test_offsets_in_bounds_monotonic_and_matching(toks: dict[str, Tokenizer], name: str, text: str) -> None:
    fuzzed("offsets")
    tok = toks[name]
    enc = tok.encode(text)
    _check_offsets(tok, name, text, enc)
    enc_all = tok.encode(text, allowed_special="all")
    for token, (start, end), special in zip(enc_all.tokens, enc_all.offsets, enc_all.special_tokens_mask):
        if special and start < end:  # a special token typed in the text (not one the post-processor added)
            assert text[start:end] == token


# ------------------------------------------------------------------------------------ files and fast paths
@_fixture_ok
@given(name=pipeline_names, text=texts, pair=st.none() | texts)
def test_json_round_trip_gives_identical_encodings(
    toks: dict[str, Tokenizer], reloaded: dict[str, Tokenizer], name: str, text: str, pair: str | None
) -> None:
    fuzzed("json_round_trip")
    before, after = toks[name], reloaded[name]
    assert after.encode(text, pair) == before.encode(text, pair)
    assert after.encode(text, allowed_special="all") == before.encode(text, allowed_special="all")
    assert after.encode_ids(text) == before.encode_ids(text)


@_fixture_ok
@given(name=pipeline_names, text=texts)
def test_encode_ids_equals_encode(toks: dict[str, Tokenizer], name: str, text: str) -> None:
    fuzzed("encode_ids_vs_encode")
    tok = toks[name]
    assert tok.encode_ids(text) == tok.encode(text).ids
    assert tok.encode_ids(text, allowed_special="all") == tok.encode(text, allowed_special="all").ids


@_fixture_ok
@given(
    name=pipeline_names,
    items=st.lists(st.one_of(texts, st.tuples(texts, texts)), max_size=6),
    allowed=st.sampled_from(["all", ()]),
)
def test_encode_batch_equals_encode_per_item(toks: dict[str, Tokenizer], name: str, items: list, allowed) -> None:  # noqa: ANN001
    fuzzed("encode_batch_vs_encode")
    tok = toks[name]
    expected = [
        tok.encode(i[0], i[1], allowed_special=allowed) if isinstance(i, tuple) else tok.encode(i, allowed_special=allowed)
        for i in items
    ]
    assert tok.encode_batch(items, allowed_special=allowed) == expected


@_fixture_ok
@given(name=st.sampled_from(["bert", "wordpiece"]), text=texts)
def test_wordpiece_tokens_are_vocabulary_entries(toks: dict[str, Tokenizer], name: str, text: str) -> None:
    fuzzed("wordpiece_in_vocab")
    tok = toks[name]
    vocab = tok.get_vocab()
    for allowed in ((), "all"):
        enc = tok.encode(text, allowed_special=allowed)
        for token_id, token in zip(enc.ids, enc.tokens):
            assert vocab.get(token) == token_id, describe((token, token_id))


# ------------------------------------------------------------------------------------ special tokens
_plain = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="<>|[]"), max_size=10)


@_fixture_ok
@given(name=pipeline_names, parts=st.lists(st.one_of(_plain, st.sampled_from(SPECIALS), st.sampled_from(" \n\t")), max_size=10))
def test_special_ids_only_where_allowed(toks: dict[str, Tokenizer], name: str, parts: list[str]) -> None:
    fuzzed("special_injection")
    tok = toks[name]
    text = "".join(parts)
    specials = special_ids(tok) - {unk_id(tok)}  # [UNK] legitimately stands for unknown text
    enc = tok.encode(text)
    # Only the post-processor's own [CLS]/[SEP] (special mask 1) may carry special ids.
    assert not {i for i, m in zip(enc.ids, enc.special_tokens_mask) if not m} & specials, describe(text)
    assert tok.encode_ids(text) == enc.ids
    assert tok.encode_batch([text])[0] == enc
    bare = tok.encode(text, add_special_tokens=False).ids
    assert not set(bare) & specials, describe(text)
    # Allowed: exactly one special id per special-token string typed (the plain parts cannot form one).
    enc = tok.encode(text, allowed_special="all", add_special_tokens=False)
    expected = [p for p in parts if p in tok.special_tokens]
    got = [text[s:e] for i, (s, e) in zip(enc.ids, enc.offsets) if i in special_ids(tok) and text[s:e] == tok.id_to_token(i)]
    assert got == expected, describe(text)


# ------------------------------------------------------------------------------------ stream decoder
@_fixture_ok
@given(name=st.sampled_from(LOSSLESS), ids=st.lists(st.integers(0, 419), max_size=30), skip=st.booleans())
def test_stream_decoder_prints_exactly_decode(toks: dict[str, Tokenizer], name: str, ids: list[int], skip: bool) -> None:
    fuzzed("stream_decoder")
    tok = toks[name]
    ids = [i if tok.id_to_token(i) is not None else i % 256 for i in ids]
    stream = tok.stream_decoder(skip_special_tokens=skip)
    pieces = [stream.feed(i) for i in ids]
    assert "".join(pieces) + stream.flush() == tok.decode(ids, skip_special_tokens=skip)


def test_stream_decoder_is_linear_on_invalid_bytes(toks: dict[str, Tokenizer], monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream of invalid UTF-8 used to be re-decoded whole at every id (quadratic): the ids decoded
    in total must stay proportional to the ids fed (counted, not timed)."""
    tok = toks["gpt2"]
    decoded = [0]
    real_decode = tok.decode

    def counting_decode(ids, **options):  # type: ignore[no-untyped-def]
        decoded[0] += len(ids)
        return real_decode(ids, **options)

    monkeypatch.setattr(tok, "decode", counting_decode)
    stream = tok.stream_decoder()
    n = 20_000
    out = "".join(stream.feed(0x80) for _ in range(n)) + stream.flush()
    assert out == "\ufffd" * n
    assert decoded[0] <= 20 * n, f"{decoded[0]} ids decoded for {n} fed: not linear"


def test_a_word_spelled_like_a_continuation_token_is_that_token(toks) -> None:  # noqa: ANN001
    """Found by the property above: the word ``##0`` is the vocabulary's ``##0`` at (0, 3), as in HF."""
    tok = toks["wordpiece"]
    if "##0" not in tok.get_vocab():
        pytest.skip("the trained vocabulary has no ##0")
    enc = tok.encode("##0")
    assert enc.tokens == ["##0"] and enc.offsets == [(0, 3)]
    _check_offsets(tok, "wordpiece", "##0", enc)
