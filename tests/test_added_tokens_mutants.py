"""Known answers for ``toolkit/added_tokens.py`` that the mutation run showed unpinned (docs/testing.md,
"added_tokens"): token identity and texts, storing and adding tokens, and the convenience cut.
Expected values are written out by hand."""

from __future__ import annotations

import pytest

from toolkit.added_tokens import (
    AddedToken,
    AddedVocabulary,
    as_added_token,
    read_added_tokens,
)
from conftest import raises_exactly
from toolkit.errors import ConfigError, SerializationError


def test_added_token_identity_and_text() -> None:
    assert hash(AddedToken("a")) == hash(AddedToken("a"))
    assert hash(AddedToken("a")) != hash(AddedToken("b"))
    assert repr(AddedToken("a")) == "AddedToken('a', normalized=True)"
    assert repr(AddedToken("<s>", special=True, lstrip=True)) == "AddedToken('<s>', lstrip=True, special=True)"
    raises_exactly(SerializationError, "w: must be an object, got int", AddedToken.from_dict, 5, where="w")
    raises_exactly(ConfigError, "added tokens must be str or AddedToken, got int 5", as_added_token, 5, special=False)


def test_read_added_tokens_names_the_entry() -> None:
    raises_exactly(SerializationError, "s: added_tokens[1]: must be an object, got int", read_added_tokens,
            [{"id": 3, "content": "x"}, 5], source="s")


def test_put_replaces_an_entry_of_the_same_content_and_refuses_a_taken_id() -> None:
    v = AddedVocabulary()
    v.put(AddedToken("a"), 5)
    v.put(AddedToken("a"), 6)
    assert v.get_vocab() == {"a": 6}
    assert v.decoder == {6: AddedToken("a")}
    raises_exactly(ConfigError, "added token 'b': id 6 already belongs to 'a'", v.put, AddedToken("b"), 6)


def test_add_numbers_new_tokens_after_the_model_and_keeps_known_ones() -> None:
    v = AddedVocabulary()
    assert v.add([AddedToken("a")], model_size=0, lookup=lambda c: None) == 1
    assert v.get_vocab() == {"a": 0}
    v = AddedVocabulary()
    assert v.add([AddedToken("a"), AddedToken("b")], model_size=1, lookup=lambda c: None) == 2
    assert v.add([AddedToken("a"), AddedToken("c")], model_size=1, lookup=lambda c: None) == 1  # "a" is known
    assert v.decoder == {1: AddedToken("a"), 2: AddedToken("b"), 3: AddedToken("c")}
    assert v.add([AddedToken("a", special=True)], model_size=1, lookup=lambda c: None) == 1  # new flags, same id
    assert v.decoder == {1: AddedToken("a", special=True), 2: AddedToken("b"), 3: AddedToken("c")}
    assert len(v) == 3
    assert v.add([AddedToken("z")], model_size=1, lookup={"z": 0}.get) == 1  # the model's id
    assert v.token_to_id("z") == 0


def test_vocabularies_compare_by_their_tokens_and_ids() -> None:
    a, b = AddedVocabulary(), AddedVocabulary()
    assert a == b
    a.put(AddedToken("x"), 3)
    assert a != b
    b.put(AddedToken("x"), 3)
    assert a == b
    assert a != {3: AddedToken("x")}


def test_id_to_token_and_the_convenience_cut() -> None:
    from toolkit.normalizers import Lowercase

    v = AddedVocabulary()
    v.add([AddedToken("<think>"), AddedToken("ab")], model_size=10, lookup=lambda c: None)
    assert (v.id_to_token(10), v.id_to_token(11), v.id_to_token(12)) == ("<think>", "ab", None)
    cut = v.cut("x<think>AB", Lowercase(), frozenset())
    # Both tokens match on the normalized text; the text segment keeps the raw piece it came from.
    assert [(s.token_id, s.token, s.start, s.end, s.nstart, s.nend) for s in cut] == [
        (None, "x", 0, 10, 0, 1), (10, "<think>", 1, 8, 0, 0), (11, "ab", 8, 10, 0, 0)]
    raw = v.cut("<s>a", None, frozenset(["<s>"]), {"<s>": 0})  # a special token matches on the raw text
    assert [(s.token_id, s.token, s.start, s.end, s.ns is None, s.nstart, s.nend) for s in raw] == [
        (0, "<s>", 0, 3, True, 0, 0), (None, "a", 3, 4, False, 0, 1)]
    assert [(s.token_id, s.start, s.end) for s in v.cut("<s>a", None, frozenset())] == [(None, 0, 4)]


def test_the_convenience_cut_normalizes_token_contents() -> None:
    from toolkit.normalizers import Lowercase

    v = AddedVocabulary()
    v.add([AddedToken("CD")], model_size=10, lookup=lambda c: None)  # matched on normalized text as "cd"
    assert [(s.token_id, s.start, s.end) for s in v.cut("xCD", Lowercase(), frozenset())][1:] == [(10, 1, 3)]


@pytest.mark.parametrize("bad", ["x", True, -1, None])
def test_read_added_tokens_refuses_a_bad_id(bad: object) -> None:
    raises_exactly(SerializationError, "s: added_tokens[0].id: must be an integer from 0 to 2147483647 "
                   f"(toolkit.limits.MAX_TOKEN_ID), got {bad!r}",
            read_added_tokens, [{"id": bad, "content": "a"}], source="s")


def test_from_dict_names_added_tokens_by_default() -> None:
    raises_exactly(SerializationError, "added_tokens: must be an object, got list", AddedToken.from_dict, [])
    assert AddedToken.from_dict({"content": "<s>", "special": True}) == AddedToken("<s>", special=True)


def test_a_special_token_that_is_not_allowed_does_not_hide_the_next_one() -> None:
    from algorithms import BPE
    from toolkit import Tokenizer

    vocab = {"<a>": 0, "<b>": 1, "<": 2, "a": 3, ">": 4, "b": 5}
    tok = Tokenizer(BPE(vocab=vocab, merges=[], special_tokens=["<a>", "<b>"]))
    assert tok.encode_ids("<a><b>", allowed_special=["<b>"]) == [2, 3, 4, 1]
    assert tok.encode("<a><b>", allowed_special=["<b>"]).ids == [2, 3, 4, 1]
    assert tok.encode_ids("<a><b>", allowed_special=["<a>"]) == [0, 2, 5, 4]


def test_an_added_token_needs_text() -> None:
    raises_exactly(ConfigError, "AddedToken content must be a str, got int 5", AddedToken, 5)
