"""What every trainer promises, each point found broken by a review and pinned here: the model is a
function of the word counts (not of their order), a trained model always saves and loads, the
template's encoding options are kept, a post-processor that names other ids than the trained ones is
an error, and hostile counts give typed errors. Expected values by hand or from the slow references."""

from __future__ import annotations

import io
import random
import sys
import warnings
from pathlib import Path

import pytest

from algorithms import (
    BPE,
    BPETrainer,
    ByteLevelBPE,
    ByteLevelBPETrainer,
    Unigram,
    UnigramTrainer,
    WordLevel,
    WordLevelTrainer,
    WordPieceTrainer,
)
from algorithms.reference.wordpiece import reference_wordpiece_trainer
from pretokenizers import ByteLevel, Whitespace
from toolkit import Tokenizer
from toolkit.errors import ConfigError, TrainingError
from toolkit.training.presets import PRESETS

COUNTS = {}
_rng = random.Random(1)
for _ in range(300):
    _w = "".join(_rng.choice("abcdefgh") for _ in range(_rng.randint(1, 7)))
    COUNTS[_w] = COUNTS.get(_w, 0) + _rng.randint(1, 3)

TRAINERS = {
    "bpe_prefix": lambda: BPETrainer(vocab_size=60, continuing_subword_prefix="##", show_progress=False),
    "bpe_suffix": lambda: BPETrainer(vocab_size=60, end_of_word_suffix="</w>", show_progress=False),
    "wordpiece_frequency": lambda: WordPieceTrainer(vocab_size=60, criterion="frequency", show_progress=False),
    "wordpiece_likelihood": lambda: WordPieceTrainer(vocab_size=60, show_progress=False),
    "unigram": lambda: UnigramTrainer(vocab_size=40, show_progress=False),
    "word_level": lambda: WordLevelTrainer(vocab_size=40, show_progress=False),
}


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_the_model_does_not_depend_on_the_order_of_the_counts(name: str) -> None:
    """Ties between pairs are broken by symbol ids, and ``##a`` / ``a</w>`` got their ids in the order
    the words came; Unigram's float sums followed that order too (ids permuted on real text)."""
    items = list(COUNTS.items())
    models = set()
    for seed in range(6):
        random.Random(seed).shuffle(items)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            models.add(Tokenizer(TRAINERS[name]().train(dict(items))).to_json())
    assert len(models) == 1


def test_a_post_processor_with_other_ids_than_the_trained_ones_is_an_error_and_the_model_is_kept() -> None:
    tok, trainer = PRESETS["bert"](vocab_size=60)
    trainer.special_tokens = ["[UNK]", "[SEP]", "[CLS]", "[PAD]", "[MASK]"]  # [SEP] now gets id 1, not 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ConfigError) as info:
            tok.train(["hello world, hello there"] * 20, trainer)
    assert str(info.value).startswith(
        "post_processor: adds '[SEP]' with id 3, but the trained vocabulary has it at id 1; use id 1 (the model is "
        "trained and kept"
    )
    assert tok.token_to_id("[SEP]") == 1 and tok.token_to_id("hello") is not None  # trained, kept
    from toolkit.processors import BertProcessing

    tok.post_processor = BertProcessing(("[SEP]", 1), ("[CLS]", 2))
    assert tok.encode("hello").ids[0] == 2 and tok.encode("hello").ids[-1] == 1


@pytest.mark.parametrize("make", [BPETrainer, WordPieceTrainer, UnigramTrainer, WordLevelTrainer])
def test_a_word_with_a_lone_surrogate_is_refused_before_training(make: type) -> None:
    with pytest.raises(TrainingError, match=r"lone surrogate U\+D800.*errors='replace'"):
        make(show_progress=False).train({"a\ud800b": 2, "ab": 3})


def test_a_lone_surrogate_in_the_text_of_tokenizer_train_is_refused() -> None:
    with pytest.raises(TrainingError, match=r"lone surrogate U\+DC80"):
        Tokenizer(BPE(), pre_tokenizer=Whitespace()).train(["x\udc80y z"], BPETrainer(show_progress=False))


@pytest.mark.parametrize("option", ["continuing_subword_prefix", "end_of_word_suffix"])
@pytest.mark.parametrize("make", [BPETrainer, WordPieceTrainer])
def test_an_affix_with_a_lone_surrogate_is_refused(make: type, option: str) -> None:
    with pytest.raises(ConfigError, match="continuing_subword_prefix / end_of_word_suffix: .* lone surrogate"):
        make(show_progress=False, **{option: "#\ud800"}).train({"ab": 2})


def test_word_level_training_keeps_something_loadable(tmp_path: Path) -> None:
    with pytest.raises(TrainingError,
                       match="^WordLevelTrainer: vocab_size=0 keeps no token; ask for a vocab_size of at least 1$"):
        WordLevelTrainer(vocab_size=0, show_progress=False).train({"a": 1})
    with pytest.raises(TrainingError, match="no word is seen at least min_frequency=10 times"):
        WordLevelTrainer(min_frequency=10, show_progress=False).train({"a": 1, "b": 2})
    model = WordLevelTrainer(show_progress=False).train({"a" * 2000: 5, "b": 1})  # too long to be a token
    assert model.get_vocab() == {"b": 0}
    from toolkit.limits import MAX_TOKEN_LENGTH

    longest = "a" * MAX_TOKEN_LENGTH  # the longest a token may be: kept
    assert WordLevelTrainer(show_progress=False).train({longest: 5, "b": 1}).get_vocab() == {longest: 0, "b": 1}
    Tokenizer(model).save(tmp_path / "wl.json")
    assert Tokenizer.load(tmp_path / "wl.json").encode("b").ids == [0]


def test_training_keeps_the_templates_dropout_and_seed_as_hf() -> None:
    tok = Tokenizer(BPE(unk_token="[UNK]", dropout=0.5, seed=3), pre_tokenizer=Whitespace())
    tok.train(["hello world"] * 5, BPETrainer(vocab_size=30, special_tokens=["[UNK]"], show_progress=False))
    assert (tok.model.dropout, tok.model.seed) == (0.5, 3)
    tok = Tokenizer(ByteLevelBPE(dropout=0.25, seed=4), pre_tokenizer=ByteLevel())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tok.train(["hello world"] * 5, ByteLevelBPETrainer(vocab_size=300, show_progress=False))
    assert (tok.model.dropout, tok.model.seed) == (0.25, 4)


def test_the_likelihood_criterion_ranks_pairs_of_huge_counts_as_the_reference() -> None:
    # f_a * f_b above 2**96 used to spill into the tier bits of the heap keys.
    counts = {"a": 2**62, "xb": 2**62, "ab": 1, "cd": 2, "xz": 5}
    options = dict(special_tokens=["[UNK]"], criterion="likelihood")
    fast = WordPieceTrainer(vocab_size=100, show_progress=False, **options).train_merges(counts).merges
    assert fast == reference_wordpiece_trainer(counts, vocab_size=100, **options).merges
    assert fast[-1] == ("a", "##b", "ab")  # seen once: merged last


def test_unigram_training_with_long_pieces_of_a_repetitive_word_stays_in_float_range() -> None:
    model = UnigramTrainer(vocab_size=20, max_piece_length=72, show_progress=False).train({"ab" * 40: 5, "x": 1})
    assert {"a", "b", "x"} <= {p for p, _ in model.vocab}  # (SentencePiece keeps only these too)


def test_trainer_options_are_strict_and_checked_before_training() -> None:
    with pytest.raises(ConfigError, match="vocab_size"):
        BPETrainer(vocab_size=True)
    with pytest.raises(ConfigError, match="byte-level character of byte 0x61"):
        ByteLevelBPETrainer(special_tokens=["a"])


def test_tokens_added_before_training_get_ids_of_their_own_after_it() -> None:
    """HF keeps the ids they had (0 and 1 here), which training gives to its own tokens: "a" then
    decoded as "zebra"."""
    tok = Tokenizer(BPE(unk_token="[UNK]"), pre_tokenizer=Whitespace())
    tok.add_tokens(["zebra", "b"])
    tok.add_special_tokens(["<s>"])
    tok.train(["a b ab"] * 3, BPETrainer(vocab_size=20, special_tokens=["[UNK]"], show_progress=False))
    vocab = tok.model.get_vocab()
    assert tok.token_to_id("b") == vocab["b"]  # a token the model holds keeps the model's id
    size = len(vocab)
    assert (tok.token_to_id("zebra"), tok.token_to_id("<s>")) == (size, size + 1)
    assert tok.decode(tok.encode("a").ids) == "a"
    assert tok.encode("a zebra <s>", allowed_special="all").ids == [vocab["a"], size, size + 1]


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_a_trainer_refuses_a_model_of_another_type_and_leaves_the_tokenizer_as_it_was(name: str) -> None:
    """As HF ("WordPieceTrainer can only train a WordPiece"); the WordPiece trainer replaced the model."""
    trainer = TRAINERS[name]()
    other = ByteLevelBPE()
    tok = Tokenizer(other, pre_tokenizer=Whitespace())
    with pytest.raises(ConfigError, match=rf"^{type(trainer).__name__} trains \w+ models; the tokenizer's model is a ByteLevelBPE$"):
        tok.train_from_iterator(["ab cd ab"] * 5, trainer)
    assert tok.model is other



@pytest.mark.parametrize("make", [BPETrainer, ByteLevelBPETrainer, WordPieceTrainer, UnigramTrainer, WordLevelTrainer])
@pytest.mark.parametrize("show", [True, False])
def test_a_progress_callback_hears_the_training_whatever_show_progress(make: type, show: bool) -> None:
    """``show_progress`` decides the bar drawn when no callback is set; a callback (the command line's)
    hears every trainer's stages either way (before, Unigram and WordLevel went quiet with ``False``)."""
    heard: list[tuple[str, int, int]] = []
    trainer = make(vocab_size=300 if make is ByteLevelBPETrainer else 40, show_progress=show,
                   progress=lambda *event: heard.append(event))
    trainer.train(COUNTS)
    assert heard and all(0 <= done <= total for _, done, total in heard)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


_LAST_STAGE = {UnigramTrainer: "em", WordLevelTrainer: "words"}  # the others merge


@pytest.mark.parametrize("make", [BPETrainer, ByteLevelBPETrainer, WordPieceTrainer, UnigramTrainer, WordLevelTrainer])
def test_show_progress_draws_the_training_on_a_terminal_whoever_starts_it(
    make: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a callback, ``show_progress`` draws a bar of the trainer's stages: when the trainer is
    called by itself, and inside ``Tokenizer.train``'s bar (which counting opened); ``False`` draws nothing."""
    stage = _LAST_STAGE.get(make, "merges")
    size = 300 if make is ByteLevelBPETrainer else 40
    for show in (True, False):
        err = _Terminal()
        monkeypatch.setattr(sys, "stderr", err)
        make(vocab_size=size, show_progress=show).train(COUNTS)
        drawn = err.getvalue()
        assert (f"\r{stage} " in drawn and drawn.endswith("\n")) if show else drawn == "", (show, drawn[-200:])
    if make in (UnigramTrainer, WordLevelTrainer):
        err = _Terminal()
        monkeypatch.setattr(sys, "stderr", err)
        model = Unigram() if make is UnigramTrainer else WordLevel()
        Tokenizer(model, pre_tokenizer=Whitespace()).train_from_iterator(
            [" ".join(COUNTS)] * 3, make(vocab_size=size, special_tokens=["<unk>"]))
        drawn = err.getvalue()
        assert "counting" in drawn and f"\r{stage} " in drawn, drawn[-200:]
