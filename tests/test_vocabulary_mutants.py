"""Known answers for ``toolkit/vocabulary.py`` that the mutation run showed unpinned (docs/testing.md,
"vocabulary"): the vocabulary look-ups of a pipeline with added tokens. Expected values by hand."""

from __future__ import annotations

import pytest

from algorithms import BPE
from toolkit import Tokenizer
from toolkit.errors import InputError


class _NumpyLikeInt:
    """An integer type that is not ``int`` but has ``__index__`` (as numpy and torch integers)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def _tok() -> Tokenizer:
    tok = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[]))
    tok.add_tokens(["zz"])
    return tok


def test_get_vocab_with_and_without_added_tokens() -> None:
    tok = _tok()
    assert tok.get_vocab() == {"a": 0, "b": 1, "zz": 2}
    assert tok.get_vocab(with_added_tokens=False) == {"a": 0, "b": 1}


def test_token_to_id_looks_up_added_tokens_then_the_model() -> None:
    tok = _tok()
    assert (tok.token_to_id("zz"), tok.token_to_id("a"), tok.token_to_id("q")) == (2, 0, None)
    with pytest.raises(InputError) as info:
        tok.token_to_id(5)
    assert str(info.value) == "token must be a str, got int 5"


def test_id_to_token_takes_integer_like_ids() -> None:
    tok = _tok()
    assert (tok.id_to_token(2), tok.id_to_token(1), tok.id_to_token(7)) == ("zz", "b", None)
    assert tok.id_to_token(_NumpyLikeInt(2)) == "zz"
    assert tok.id_to_token(_NumpyLikeInt(0)) == "a"
    for bad, shown in ((True, "bool True"), ("1", "str '1'"), (1.0, "float 1.0")):
        with pytest.raises(InputError) as info:
            tok.id_to_token(bad)
        assert str(info.value) == f"token_id must be an int, got {shown}"
