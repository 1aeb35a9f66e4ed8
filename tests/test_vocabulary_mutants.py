"""Known answers for ``toolkit/vocabulary.py`` that the mutation run showed unpinned (docs/testing.md,
"vocabulary"): the vocabulary look-ups of a pipeline with added tokens. Expected values by hand."""

from __future__ import annotations

import pytest

from algorithms import BPE
from toolkit import Tokenizer
from toolkit.errors import ConfigError, InputError


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


def test_add_tokens_takes_one_token_or_a_list_and_numbers_after_the_largest_id() -> None:
    from toolkit.errors import ConfigError

    tok = Tokenizer(BPE(vocab={"a": 0, "b": 5}, merges=[]))
    assert tok.add_tokens("zz") == 1
    assert tok.get_vocab() == {"a": 0, "b": 5, "zz": 6}
    empty = Tokenizer(BPE())
    empty.add_tokens(["x"])
    assert empty.get_vocab() == {"x": 0}
    with pytest.raises(ConfigError) as info:
        tok.add_tokens(5)
    assert str(info.value) == "tokens must be a list of str or AddedToken, got int"


def test_allowed_special_errors_say_what_is_wrong() -> None:
    from toolkit.errors import ConfigError

    tok = Tokenizer(BPE(vocab={"a": 0, "<s>": 1}, merges=[], special_tokens=["<s>"]))
    cases = [
        ("<s>", ("allowed_special must be \"all\", None or a collection of special-token strings, got str '<s>' "
                 "(for one token write ['<s>'])")),
        (5, "allowed_special must be \"all\", None or a collection of special-token strings, got int 5"),
        ([5], "allowed_special must hold special-token strings, got int 5"),
        (["<u>", "<t>"], ("allowed_special names tokens that are not special tokens of this tokenizer: <t>, <u>; "
                          "known: <s>")),
    ]
    for value, message in cases:
        with pytest.raises(ConfigError) as info:
            tok.encode("a", allowed_special=value)
        assert str(info.value) == message
    with pytest.raises(ConfigError) as info:
        Tokenizer(BPE(vocab={"a": 0}, merges=[])).encode("a", allowed_special=["<t>"])
    assert str(info.value).endswith("known: none")


def test_id_to_token_follows_the_current_normalizer() -> None:
    # An added token matched on normalized text reads back normalized (HF's id_to_token), by the
    # normalizer the pipeline has now, not the one a cached answer was computed with.
    from toolkit import AddedToken
    from toolkit.normalizers import Lowercase

    tok = _tok()
    tok.add_tokens([AddedToken("HeLLo", normalized=True)])
    assert tok.id_to_token(3) == "HeLLo"
    tok.normalizer = Lowercase()
    assert tok.id_to_token(3) == "hello"
    tok.normalizer = None
    assert tok.id_to_token(3) == "HeLLo"


def _two_specials() -> Tokenizer:
    tok = Tokenizer(BPE(vocab={c: i for i, c in enumerate("abx <|>")}, merges=[]))
    tok.add_special_tokens(["<|a|>", "<|a|>x", "<|b|>"])
    return tok


def test_disallowed_special_names_the_longest_special_token_found() -> None:
    # "<|a|>x" starts with "<|a|>": the longer one is the token found (and named), as tiktoken does.
    tok = _two_specials()
    with pytest.raises(InputError) as info:
        tok.encode("ab <|a|>x", disallowed_special="all")
    assert str(info.value) == (
        "text contains the special token '<|a|>x' at index 3, which disallowed_special forbids; pass "
        "allowed_special=['<|a|>x'] to encode it as that special token, or disallowed_special=() to encode "
        "it as ordinary text"
    )
    with pytest.raises(InputError, match="'<\\|b\\|>' at index 1"):
        tok.encode_ids("a<|b|>", disallowed_special=["<|a|>", "<|b|>"])


def test_disallowed_special_checks_the_set_asked_for_each_call() -> None:
    # The compiled check is cached per forbidden set: a second set must not reuse the first one's.
    tok = _two_specials()
    assert tok.encode("<|b|>", disallowed_special=["<|a|>"]).ids  # "<|b|>" is allowed as plain text here
    with pytest.raises(InputError, match="'<\\|b\\|>'"):
        tok.encode("<|b|>", disallowed_special=["<|b|>"])
    assert tok.encode("<|a|>", disallowed_special="all", allowed_special=["<|a|>"]).tokens == ["<|a|>"]


def test_disallowed_special_errors_name_the_argument() -> None:
    tok = _two_specials()
    cases = [
        (["<nope>"], ("disallowed_special names tokens that are not special tokens of this tokenizer: <nope>; "
                      "known: <|a|>, <|a|>x, <|b|>")),
        (5, "disallowed_special must be \"all\", None or a collection of special-token strings, got int 5"),
        ([5], "disallowed_special must hold special-token strings, got int 5"),
    ]
    for value, message in cases:
        with pytest.raises(ConfigError) as info:
            tok.encode("a", disallowed_special=value)
        assert str(info.value) == message


def test_the_special_token_cutter_follows_a_replaced_model_and_normalizer() -> None:
    # The cutter is cached with the model and normalizer it was built for; replacing either (neither
    # clears that cache) must build it again.
    from toolkit import AddedToken
    from toolkit.normalizers import Lowercase

    first = BPE(vocab={"a": 0, "<s>": 1}, merges=[], special_tokens=["<s>"])
    second = BPE(vocab={"a": 0, "<t>": 1}, merges=[], special_tokens=["<t>"])
    tok = Tokenizer(first)
    assert tok.encode("a<s>", allowed_special="all").ids == [0, 1]
    tok.model = second
    assert tok.encode("a<t>", allowed_special="all").ids == [0, 1]
    tok.add_tokens([AddedToken("AB", normalized=True)])
    assert tok.encode("AB").ids == [2]
    tok.normalizer = Lowercase()  # the added token is now matched as "ab" in lowercased text
    assert tok.encode("AB").ids == [2]


def test_the_ids_decode_skips_follow_every_change_of_the_special_tokens() -> None:
    # decode keeps the set of skipped ids between calls (Llama 3's 256 special tokens made computing
    # it most of the time of decoding one id): a new special token, an option of the model, a
    # normalizer that changes what a normalized special token decodes to must each renew it
    from algorithms import WordLevel
    from pretokenizers import WhitespaceSplit
    from toolkit import AddedToken, Tokenizer
    from toolkit.normalizers import Lowercase

    tok = Tokenizer(WordLevel({"a": 0, "[UNK]": 1, "<s>": 2}, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    assert tok.decode([0, 2, 0]) == "a <s> a"
    tok.model.special_tokens = ["<s>"]
    assert tok.decode([0, 2, 0]) == "a a"
    tok.add_special_tokens(["<x>"])
    assert tok.decode([0, tok.token_to_id("<x>"), 0]) == "a a"
    tok.model.special_tokens = []
    assert tok.decode([0, 2, 0]) == "a <s> a"
    tok.add_special_tokens([AddedToken("<Y>", special=True, normalized=True)])
    y = tok.token_to_id("<Y>")
    assert tok.decode([0, y]) == "a"
    tok.normalizer = Lowercase()  # "<Y>" now decodes to "<y>", which is no special token's text (HF)
    assert tok.decode([0, y]) == "a <y>"
