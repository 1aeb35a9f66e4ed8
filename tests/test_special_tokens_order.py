"""Special tokens that are prefixes of each other: the longest allowed one wins, wherever it starts.

``<|im_start|>assistant`` and ``<|im_start|>`` are both special tokens of chat vocabularies; cutting the
shorter one first would leave ``assistant`` to the model and change the ids. The expected answers here
are written out by hand, so they do not depend on how the pipeline sorts its alternatives.
"""

from __future__ import annotations

import pytest

from algorithms import BPE
from toolkit import Tokenizer

SPECIALS = ["<|im_start|>", "<|im_start|>assistant", "<|im_end|>", "<|im_start|>assistant<|im_end|>"]


def _tokenizer() -> Tokenizer:
    vocab = {s: i for i, s in enumerate(SPECIALS)}
    for c in "<|>_abcdefghijklmnopqrstuvwxyz ":
        vocab.setdefault(c, len(vocab))
    return Tokenizer(BPE(vocab=vocab, merges=[], special_tokens=SPECIALS))


def test_the_longest_special_token_is_cut_first() -> None:
    tok = _tokenizer()
    enc = tok.encode("<|im_start|>assistant hi", allowed_special="all")
    assert enc.tokens == ["<|im_start|>assistant", " ", "h", "i"]
    assert enc.ids[0] == 1
    assert enc.offsets[0] == (0, 21)
    assert tok.encode_ids("<|im_start|>assistant hi", allowed_special="all") == enc.ids


def test_longest_first_over_three_nested_tokens() -> None:
    tok = _tokenizer()
    text = "<|im_start|>assistant<|im_end|><|im_start|>user<|im_end|>"
    enc = tok.encode(text, allowed_special="all")
    assert enc.tokens[:2] == ["<|im_start|>assistant<|im_end|>", "<|im_start|>"]
    assert enc.ids[:2] == [3, 0]
    assert enc.ids[-1] == 2
    assert tok.encode_ids(text, allowed_special="all") == enc.ids


@pytest.mark.parametrize(
    ("allowed", "first"),
    [({"<|im_start|>"}, ["<|im_start|>", "a"]), ({"<|im_start|>", "<|im_start|>assistant"}, ["<|im_start|>assistant"])],
)
def test_only_allowed_tokens_compete(allowed: set[str], first: list[str]) -> None:
    enc = _tokenizer().encode("<|im_start|>assistant", allowed_special=allowed)
    assert enc.tokens[: len(first)] == first
