"""BPE model and trainer edges left open by ``tests/test_bpe_exact.py`` after a mutation run of
``algorithms/bpe.py`` (docs/testing.md): byte fallback of a lone surrogate (the model's own API takes
any ``str``), the merge-list error's place, the trainer's option checks (shared with the loader), and
the name that later errors of a trained model give. Expected values are written out by hand.
"""

from __future__ import annotations

import pytest

from algorithms.bpe import BPE, BPETrainer
from toolkit.errors import ConfigError, VocabularyError


def test_byte_fallback_of_a_lone_surrogate_gives_its_three_bytes() -> None:
    # U+D800 in UTF-8 with surrogatepass is ED A0 80; the model API accepts such strings.
    model = BPE({"a": 0, "<0xED>": 1, "<0xA0>": 2, "<0x80>": 3}, [], byte_fallback=True)
    assert model.tokenize("a\ud800") == [(0, 0, 1), (1, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert model.encode_piece("\ud800a") == (1, 2, 3, 0)


def test_merge_list_errors_name_the_model() -> None:
    with pytest.raises(ConfigError, match=r"^BPE\.merges: must be a list of \[left, right\] pairs, got str$"):
        BPE({"a": 0}, "a b")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"unk_token": "\ud800"}, r"^BPETrainer\.special_tokens: '\\ud800' holds a lone surrogate"),
        ({"special_tokens": ["\ud800"]}, r"^BPETrainer\.special_tokens: '\\ud800' holds a lone surrogate"),
        ({"initial_alphabet": ["\ud800"]}, r"^BPETrainer\.initial_alphabet: '\\ud800' holds a lone surrogate"),
        ({"vocab_size": 1 << 23}, r"^BPETrainer\.vocab_size: 8,388,608 tokens is more than the limit"),
        ({"continuing_subword_prefix": "#" * 1000, "end_of_word_suffix": "<" * 24},
         r"^BPETrainer: continuing_subword_prefix and end_of_word_suffix have 1,024 characters"),
    ],
)
def test_trainer_options_are_checked_with_the_loaders_rules(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        BPETrainer(**options)


def test_a_trained_model_names_its_trainer_in_later_errors() -> None:
    model = BPETrainer(vocab_size=10).train({"ab": 2})
    with pytest.raises(VocabularyError, match=r"^BPETrainer\.special_tokens: '<zz>' is not in the vocabulary"):
        model.special_tokens = ["<zz>"]


def test_dropout_applies_on_the_path_with_unknown_characters() -> None:
    # fuse_unk sends a piece with an unknown character through the span-keeping path: dropout=1
    # must skip every merge there too.
    vocab = {"[UNK]": 0, "a": 1, "b": 2, "ab": 3}
    kept = BPE(vocab, [("a", "b")], unk_token="[UNK]", fuse_unk=True)
    assert kept.tokenize("abxy") == [(3, 0, 2), (0, 2, 4)]
    dropped = BPE(vocab, [("a", "b")], unk_token="[UNK]", fuse_unk=True, dropout=1.0)
    assert dropped.tokenize("abxy") == [(1, 0, 1), (2, 1, 2), (0, 2, 4)]
