"""Every option of every model and trainer can be assigned after construction: the result equals a
freshly constructed component with that value; an invalid value raises a typed error and leaves the
component unchanged."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from algorithms import BPE, BPETrainer, ByteLevelBPE, ByteLevelBPETrainer, WordPiece, WordPieceTrainer
from toolkit.bytelevel import BYTE_TO_CHAR
from toolkit.errors import ConfigError, VocabularyError

WORDS = ["hug", "hugs", "pug", "bun", "éx", "h"]
COUNTS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}

BPE_VOCAB = {"[UNK]": 0, "[X]": 1, "h": 2, "u": 3, "g": 4, "s": 5, "ug": 6, "hug": 7, "<0xC3>": 8, "<0xA9>": 9,
             "##u": 10, "##g": 11, "##s": 12, "hu": 13, "g</w>": 14, "ug</w>": 15, "p": 16, "b": 17, "n": 18}
BPE_MERGES = [("u", "g"), ("h", "ug"), ("h", "u")]
BL_VOCAB = {c: b for b, c in enumerate(BYTE_TO_CHAR)} | {"ug": 256, "hug": 257, "<s>": 258}
BL_MERGES = [("u", "g"), ("h", "ug")]
WP_VOCAB = {"[UNK]": 0, "[X]": 1, "hug": 2, "##s": 3, "p": 4, "##ug": 5, "@@s": 6, "b": 7, "##un": 8, "[CLS]": 9}


def _bpe(**o: Any) -> BPE:
    return BPE(BPE_VOCAB, BPE_MERGES, **{"unk_token": "[UNK]", **o})


def _bl(**o: Any) -> ByteLevelBPE:
    return ByteLevelBPE(BL_VOCAB, BL_MERGES, **o)


def _wp(**o: Any) -> WordPiece:
    return WordPiece(WP_VOCAB, **o)


def _ids(model: Any, words: list[str]) -> list[Any]:
    out = []
    for w in words:
        try:
            out.append((model.encode_piece(w), [t for t, _, _ in model.tokenize(w)]))
        except Exception as exc:  # an unknown character without unk_token: the same error both ways
            out.append(type(exc).__name__)
    return out


MODELS: list[tuple[Callable[..., Any], str, Any, list[str]]] = [
    (_bpe, "unk_token", "[X]", WORDS),
    (_bpe, "unk_token", None, ["hug", "hugs"]),
    (_bpe, "byte_fallback", True, WORDS),
    (_bpe, "fuse_unk", True, ["xxhug", "xhxx"]),
    (_bpe, "ignore_merges", True, WORDS),
    (_bpe, "continuing_subword_prefix", "##", WORDS),
    (_bpe, "end_of_word_suffix", "</w>", ["g", "ug", "hug"]),
    (_bpe, "special_tokens", ["[X]", "hug"], WORDS),
    (_bl, "ignore_merges", True, ["hug", "hugs", "ug"]),
    (_bl, "special_tokens", {"<s>": 258, "<t>": 300}, ["hug", "<s>"]),
    (_bl, "special_tokens", ["hug"], ["hug", "hugs"]),
    (_wp, "unk_token", "[X]", ["hug", "zzz"]),
    (_wp, "max_input_chars_per_word", 3, ["hug", "hugs", "pug"]),
    (_wp, "continuing_subword_prefix", "@@", ["hug", "hugs", "pug"]),
    (_wp, "special_tokens", ["[CLS]", "[UNK]"], ["hug", "[CLS]"]),
]


@pytest.mark.parametrize(("make", "name", "value", "words"), MODELS, ids=lambda x: x if isinstance(x, str) else None)
def test_model_option_assignment_equals_construction(make: Callable[..., Any], name: str, value: Any, words: list[str]) -> None:
    model = make()
    clone = copy.copy(model)
    _ids(model, words)  # fill the per-piece caches first: an assignment must not serve stale ids
    setattr(model, name, value)
    fresh = make(**{name: value})
    assert model.to_dict() == fresh.to_dict()
    assert _ids(model, words) == _ids(fresh, words)
    assert clone.to_dict() == make().to_dict()  # a copy made before is unaffected
    assert pickle.loads(pickle.dumps(model)).to_dict() == fresh.to_dict()


@pytest.mark.parametrize(
    ("make", "name", "value", "error"),
    [
        (_bpe, "unk_token", "[NOPE]", VocabularyError),
        (_bpe, "unk_token", 5, ConfigError),
        (_bpe, "fuse_unk", "maybe", ConfigError),
        (_bpe, "special_tokens", ["nope"], VocabularyError),
        (_bpe, "continuing_subword_prefix", "@@", VocabularyError),  # ("h", "ug") would need "hug" unchanged: ok
        (_bl, "special_tokens", {"<s>": 3}, VocabularyError),
        (_bl, "mode", "nope", ConfigError),
        (_bl, "mode", "ranks", ConfigError),  # rank mode needs ignore_merges=True
        (_wp, "unk_token", "[NOPE]", VocabularyError),
        (_wp, "unk_token", "", ConfigError),
        (_wp, "max_input_chars_per_word", 0, ConfigError),
        (_wp, "special_tokens", ["[NOPE]"], VocabularyError),
    ],
)
def test_invalid_model_option_leaves_the_model_unchanged(make: Callable[..., Any], name: str, value: Any, error: type) -> None:
    model = make()
    before, ids = model.to_dict(), _ids(model, WORDS)
    try:
        setattr(model, name, value)
    except error:
        pass
    else:  # a value that turned out valid must equal construction
        assert model.to_dict() == make(**{name: value}).to_dict()
        return
    assert model.to_dict() == before and _ids(model, WORDS) == ids


def test_byte_level_mode_switch_round_trips() -> None:
    model = _bl(ignore_merges=True)
    model.mode = "ranks"
    assert model.to_dict() == ByteLevelBPE.from_dict({**_bl(ignore_merges=True).to_dict(), "mode": "ranks", "merges": None}).to_dict()
    assert model.encode_piece("hugs") == (257, ord("s"))
    model.mode = "merges"
    assert model.merges == BL_MERGES and model.encode_piece("hugs") == (257, ord("s"))


TRAINERS: list[tuple[type, str, Any]] = [
    (BPETrainer, "vocab_size", 14),
    (BPETrainer, "min_frequency", 12),
    (BPETrainer, "special_tokens", ["[UNK]", "[X]"]),
    (BPETrainer, "limit_alphabet", 4),
    (BPETrainer, "initial_alphabet", ["z"]),
    (BPETrainer, "continuing_subword_prefix", "##"),
    (BPETrainer, "end_of_word_suffix", "</w>"),
    (BPETrainer, "max_token_length", 2),
    (BPETrainer, "tie_break", "first_occurrence"),
    (BPETrainer, "unk_token", "[UNK]"),
    (ByteLevelBPETrainer, "vocab_size", 258),
    (ByteLevelBPETrainer, "min_frequency", 12),
    (ByteLevelBPETrainer, "special_tokens", ["<s>"]),
    (ByteLevelBPETrainer, "max_token_length", 2),
    (ByteLevelBPETrainer, "tie_break", "first_occurrence"),
    (WordPieceTrainer, "vocab_size", 14),
    (WordPieceTrainer, "min_frequency", 12),
    (WordPieceTrainer, "special_tokens", ["[UNK]", "[X]"]),
    (WordPieceTrainer, "continuing_subword_prefix", "@@"),
    (WordPieceTrainer, "limit_alphabet", 4),
    (WordPieceTrainer, "initial_alphabet", ["z"]),
    (WordPieceTrainer, "tie_break", "first_occurrence"),
]
BASE = {BPETrainer: {"vocab_size": 20}, ByteLevelBPETrainer: {"vocab_size": 262}, WordPieceTrainer: {"vocab_size": 20}}


@pytest.mark.parametrize(("cls", "name", "value"), TRAINERS, ids=lambda x: x if isinstance(x, str) else None)
def test_trainer_option_assignment_equals_construction(cls: type, name: str, value: Any) -> None:
    trainer = cls(**BASE[cls])
    setattr(trainer, name, value)
    fresh = cls(**{**BASE[cls], name: value})
    assert trainer.to_dict() == fresh.to_dict()
    assert trainer.train(COUNTS).to_dict() == fresh.train(COUNTS).to_dict()


@pytest.mark.parametrize(
    ("cls", "name", "value"),
    [
        (BPETrainer, "vocab_size", 0),
        (BPETrainer, "initial_alphabet", ["ab"]),
        (BPETrainer, "tie_break", "nope"),
        (ByteLevelBPETrainer, "vocab_size", 100),
        (ByteLevelBPETrainer, "special_tokens", ["<s>", "<s>"]),
        (WordPieceTrainer, "special_tokens", ["", "[UNK]"]),
        (WordPieceTrainer, "limit_alphabet", -1),
        (WordPieceTrainer, "min_frequency", "2"),
    ],
)
def test_invalid_trainer_option_raises_and_leaves_it_unchanged(cls: type, name: str, value: Any) -> None:
    trainer = cls(**BASE[cls])
    before = trainer.to_dict()
    with pytest.raises(ConfigError):
        setattr(trainer, name, value)
    assert trainer.to_dict() == before


def test_trainers_stay_pure_functions_of_the_counts() -> None:
    for cls in (BPETrainer, ByteLevelBPETrainer, WordPieceTrainer):
        trainer = cls(**BASE[cls])
        counts = dict(COUNTS)
        assert trainer.train(counts).to_dict() == trainer.train(counts).to_dict() and counts == COUNTS
