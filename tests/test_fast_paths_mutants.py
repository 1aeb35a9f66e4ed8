"""Fast-path edges pinned down after a mutation run of ``toolkit/fast_paths.py`` (docs/testing.md).

``check_text``'s messages and size switch, ``piece_tokens``' mapping of zero-width tokens through a
respelling that writes one character as several, ``encode_ids`` through a pinned scanner without a
respelling (a plain ``Split`` of a named pattern before a character-level model), and an empty piece
from a pre-tokenizer in the middle of others. Expected values are written out by hand.
"""

from __future__ import annotations

import pickle

import pytest

from algorithms import BPE, ByteLevelBPE
from pretokenizers import CL100K_PATTERN, ByteLevel, Sequence, Split, WhitespaceSplit
from toolkit import Regex, Tokenizer, limits
from toolkit.alignment import Piece
from toolkit.bytelevel import BYTE_TO_CHAR
from toolkit.errors import InputError
from toolkit.fast_paths import check_text, piece_tokens, scan_ids_reference
from toolkit.interfaces import PreTokenizer
from toolkit.normalizers import NFC


def test_check_text_messages_and_size_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError) as err:
        check_text(5)
    assert str(err.value) == "text must be a str, got int"
    with pytest.raises(InputError) as err:
        check_text("a\ud800b")
    assert str(err.value) == (
        "text contains a lone surrogate U+D800 at index 1, which is not valid Unicode text; decode the input with "
        "errors='replace' (or fix its source) before encoding"
    )
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 3)
    with pytest.raises(InputError, match=r"^document has 4 characters, more than the limit of 3 "):
        check_text("abcd", "document")
    with pytest.raises(InputError, match=r"^text has 4 characters"):
        check_text("abcd")  # sized by default
    assert check_text("abcd", sized=False) == "abcd"


class _Stub:
    """A model reduced to what piece_tokens uses: fixed tokens for one spelled text."""

    def __init__(self, found: list[tuple[int, int, int]]) -> None:
        self.found = found

    def tokenize(self, text: str) -> list[tuple[int, int, int]]:
        assert text == "xxyy"
        return self.found

    def id_to_token(self, token_id: int) -> str:
        return f"t{token_id}"


def _double(text: str) -> str:
    return "".join(c * 2 for c in text)  # every character spelled as two


def test_piece_tokens_maps_zero_width_tokens_through_a_respelling() -> None:
    # "xy" spelled "xxyy": spelled characters 0-1 come from x (0), 2-3 from y (1).
    stub = _Stub([(1, 0, 0), (2, 0, 3), (3, 3, 4), (4, 4, 4)])
    assert piece_tokens(stub, "xy", _double) == (  # type: ignore[arg-type]
        (1, 2, 3, 4), ("t1", "t2", "t3", "t4"), ((0, 0), (0, 2), (1, 2), (2, 2))
    )
    assert piece_tokens(_Stub([(7, 0, 4)]), "xy", _double) == (7, "t7", 0, 2)  # type: ignore[arg-type]


def test_encode_ids_through_a_plain_scanner() -> None:
    # cl100k cuts "ab ab  cd\n" into "ab", " ab", " ", " cd", "\n" (no respelling: a character-level model).
    vocab = {" ": 0, "a": 1, "b": 2, "c": 3, "d": 4, "\n": 5, "ab": 6, " ab": 7}
    tok = Tokenizer(BPE(vocab, [("a", "b"), (" ", "ab")]), pre_tokenizer=Split(Regex(CL100K_PATTERN)))
    expected = [6, 7, 0, 0, 3, 4, 5]
    assert tok.encode_ids("ab ab  cd\n") == expected
    assert tok.encode_ids("ab ab  cd\n" * 2) == expected * 2  # now through the caches
    assert tok.encode("ab ab  cd\n").ids == expected
    assert scan_ids_reference(tok._current_caches(), "ab ab  cd\n") == expected


class _EmptyFirst(PreTokenizer):
    """Cuts a text into an empty piece, then the text itself."""

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for p in pieces:
            out += [Piece("", p.start, p.start), p]
        return out


def test_an_empty_piece_is_skipped_not_the_rest() -> None:
    tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=_EmptyFirst())
    enc = tok.encode("ab")
    assert enc.ids == [2] and enc.offsets == [(0, 2)] and enc.word_ids == [0]


def test_encode_ids_through_a_respelling_without_scanner() -> None:
    # WhitespaceSplit has no scanner, ByteLevel(use_regex=False) only respells: the raw-piece cache path.
    vocab = {c: b for b, c in enumerate(BYTE_TO_CHAR)} | {"ab": 256, "abc": 257}
    model = ByteLevelBPE(vocab, [("a", "b"), ("ab", "c")])
    tok = Tokenizer(model, pre_tokenizer=Sequence([WhitespaceSplit(), ByteLevel(add_prefix_space=False, use_regex=False)]))
    assert tok.encode_ids("ab abc  ab") == [256, 257, 256]
    assert tok.encode_ids("ab abc  ab") == [256, 257, 256]  # from the raw-piece cache
    assert tok.encode_ids("é") == [0xC3, 0xA9]


def test_encode_ids_through_a_respelling_scanner() -> None:
    # GPT-2's ByteLevel: pieces "ab", " ab", " ab", " abc" spelled "ab", "Ġab", "Ġab", "Ġabc"; the
    # words after the first go through the chunk memo, the second call reads them from it.
    vocab = {c: b for b, c in enumerate(BYTE_TO_CHAR)} | {"ab": 256, "Ġab": 257}
    tok = Tokenizer(ByteLevelBPE(vocab, [("a", "b"), ("Ġ", "ab")]), pre_tokenizer=ByteLevel(add_prefix_space=False))
    expected = [256, 257, 257, 257, 99]
    assert tok.encode_ids("ab ab ab abc") == expected
    assert tok.encode_ids("ab ab ab abc") == expected
    assert tok.encode_ids("abc ab") == [256, 99, 257]


def test_pipeline_caches_pickle_empty_with_their_model() -> None:
    tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=WhitespaceSplit())
    assert tok.encode_ids("ab ab") == [2, 2]
    caches = tok._current_caches()
    caches.raw.put("ab", (2,))
    clone = pickle.loads(pickle.dumps(caches))  # what a worker process receives
    assert clone.model.vocab == {"a": 0, "b": 1, "ab": 2} and clone.pre_tokenizer is not None
    assert len(clone.raw) == 0 and clone.tokens == {} and len(clone.scanned) == len(clone.chunks) == 0


def test_offsets_of_several_tokens_go_through_the_normalizer_alignment() -> None:
    # NFC composes "e" + U+0301 into "é" (2 UTF-8 bytes): both byte tokens cover both original characters.
    tok = Tokenizer(ByteLevelBPE(), normalizer=NFC(), pre_tokenizer=ByteLevel(add_prefix_space=False))
    enc = tok.encode("ae\u0301 xe\u0301")
    assert enc.ids == [97, 0xC3, 0xA9, 32, 120, 0xC3, 0xA9]
    assert enc.offsets == [(0, 1), (1, 3), (1, 3), (3, 4), (4, 5), (5, 7), (5, 7)]


def test_every_cache_of_a_pipeline_bounds_its_keys_and_takes_the_models_capacity() -> None:
    # Bounded memory: no cache keeps a piece, chunk or scanned text longer than its limit, and each
    # holds at most the model's cache capacity (here not the default, so a default would show).
    from toolkit.cache import MAX_CACHED_PIECE
    from toolkit.fast_paths import MAX_CHUNK, MAX_SCANNED

    model = ByteLevelBPE(vocab={c: i for i, c in enumerate(ByteLevel.alphabet())}, merges=[])
    model.cache_capacity = 77
    tok = Tokenizer(model, pre_tokenizer=Sequence([Split(Regex(CL100K_PATTERN)), ByteLevel(add_prefix_space=False, use_regex=False)]))
    long_word = "x" * (MAX_CACHED_PIECE + 5)
    text = f"a {long_word} b " + "y" * (MAX_CHUNK + 1) + " c\n" + "\n" * MAX_SCANNED + " d " + long_word
    tok.encode_ids(text)
    tok.encode(text)
    caches = tok._current_caches()
    limited = [("raw", caches.raw, MAX_CACHED_PIECE), ("chunks", caches.chunks, MAX_CHUNK),
               ("scanned", caches.scanned, MAX_SCANNED)]
    limited += [("tokens", cache, MAX_CACHED_PIECE) for cache in caches.tokens.values()]
    assert len(limited) == 4 and all(len(cache) for _, cache, _ in limited)  # every cache was used
    for name, cache, longest in limited:
        assert (name, cache.capacity, cache.longest) == (name, 77, longest)
        assert all(len(key) <= longest for key in cache), name
