"""ByteLevelBPE model and trainer edges pinned down after a mutation run of ``algorithms/byte_level_bpe.py``.

Each test here kills mutants that survived ``make mutate MODULES=byte_level_bpe`` (docs/testing.md): the
place every error names (constructor, ``from_ranks``, ``from_dict``, the trainer) and the exact texts,
the bounds of rank tables and special-token ids, a rank-mode model switched to merges mode, mapped
special tokens that must not stay in the vocabulary after they are removed, and the trainer's
``max_token_length``, ``min_frequency`` and ``progress``. Expected values are written out by hand.
"""

from __future__ import annotations

import pytest

from algorithms import ByteLevelBPE, ByteLevelBPETrainer
from toolkit import limits
from toolkit.errors import ConfigError, InputError, TrainingError, VocabularyError


def _gpt2_byte_chars() -> list[str]:
    # GPT-2's bytes_to_unicode, written out independently of toolkit.bytelevel: printable bytes map to
    # themselves, the others to U+0100 onwards in byte order.
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars: dict[int, str] = {b: chr(b) for b in keep}
    extra = 0
    for b in range(256):
        if b not in chars:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


CHARS = _gpt2_byte_chars()
BYTES = {c: b for b, c in enumerate(CHARS)}  # the plain byte vocabulary: ids 0..255
RANKS = {bytes([b]): b for b in range(256)}


def test_errors_name_the_constructor_and_from_ranks() -> None:
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.vocab: ids must be unique"):
        ByteLevelBPE({**BYTES, "ab": 0})
    with pytest.raises(ConfigError, match=r"^ByteLevelBPE\.merges: must be a list of \[left, right\] pairs, got str$"):
        ByteLevelBPE(BYTES, "a b")  # type: ignore[arg-type]
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.merges\[0\]: \('a', 'zz'\) uses 'zz', which is not"):
        ByteLevelBPE(BYTES, [("a", "zz")])
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.from_ranks: rank of b'ab' must be >= 0, got -1$"):
        ByteLevelBPE.from_ranks({**RANKS, b"ab": -1})
    with pytest.raises(ConfigError, match=r"^ByteLevelBPE\.from_ranks: ranks must be a mapping of token bytes to "
                       r"ranks, got list$"):
        ByteLevelBPE.from_ranks([b"a"])  # type: ignore[arg-type]


def test_later_errors_name_where_the_model_came_from() -> None:
    missing = "is not in the vocabulary; give its id with a mapping (special_tokens={'<zz>': id}) to add it"
    model = ByteLevelBPE()
    with pytest.raises(VocabularyError) as err:
        model.special_tokens = ["<zz>"]
    assert str(err.value) == f"ByteLevelBPE.special_tokens: '<zz>' {missing}"
    ranked = ByteLevelBPE.from_ranks(RANKS)
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.from_ranks\.special_tokens: '<zz>' is not in"):
        ranked.special_tokens = ["<zz>"]
    trained = ByteLevelBPETrainer(vocab_size=257).train({"ab": 2})
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPETrainer\.special_tokens: '<zz>' is not in"):
        trained.special_tokens = ["<zz>"]


def test_rank_mode_requires_ignore_merges_with_its_exact_reason() -> None:
    model = ByteLevelBPE.from_ranks(RANKS)
    with pytest.raises(ConfigError) as err:
        model.ignore_merges = False
    assert str(err.value) == (
        "ByteLevelBPE.from_ranks.ignore_merges: rank mode (tiktoken semantics) always keeps a piece that is a "
        "token whole; ignore_merges must be true"
    )


def test_missing_byte_tokens_are_listed_five_at_most() -> None:
    with pytest.raises(VocabularyError) as err:
        ByteLevelBPE({c: i for i, c in enumerate(CHARS[6:])})
    assert str(err.value) == (
        "ByteLevelBPE.vocab: a byte-level vocabulary needs all 256 single-byte tokens; 6 missing: "
        "'Ā' (byte 0x00), 'ā' (byte 0x01), 'Ă' (byte 0x02), 'ă' (byte 0x03), 'Ą' (byte 0x04) ..."
    )
    with pytest.raises(VocabularyError) as err:
        ByteLevelBPE({c: i for i, c in enumerate(CHARS[5:])})
    assert str(err.value).endswith("5 missing: 'Ā' (byte 0x00), 'ā' (byte 0x01), 'Ă' (byte 0x02), 'ă' (byte 0x03), "
                                   "'Ą' (byte 0x04)")


def test_vocabulary_size_limit_counts_added_special_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_VOCAB_SIZE", 256)
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.vocab: 257 tokens is more than the limit of 256"):
        ByteLevelBPE(special_tokens={"<s>": 256})


def test_rank_table_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.from_ranks: id 2147483648 of b'ab' is larger"):
        ByteLevelBPE.from_ranks({**RANKS, b"ab": limits.MAX_TOKEN_ID + 1})
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.from_ranks\.special_tokens: id 2147483648 of '<s>'"):
        ByteLevelBPE.from_ranks(RANKS, special_tokens={"<s>": limits.MAX_TOKEN_ID + 1})
    monkeypatch.setattr(limits, "MAX_TOKEN_LENGTH", 2)
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.from_ranks: token b'abc'\.\.\. is 3 characters long"):
        ByteLevelBPE.from_ranks({**RANKS, b"abc": 256})
    assert ByteLevelBPE.from_ranks({**RANKS, b"ab": 256}).encode_piece("ab") == (256,)  # at the limit: fine


def test_special_token_ids_of_a_mapping() -> None:
    for bad in (True, "1", -1):
        with pytest.raises(ConfigError, match=r"^ByteLevelBPE\.from_ranks\.special_tokens\['<s>'\]: id must be an "
                           r"integer >= 0, got "):
            ByteLevelBPE.from_ranks(RANKS, special_tokens={"<s>": bad})  # type: ignore[dict-item]
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.special_tokens\['<s>'\]: id 0 is already the id of 'Ā'$"):
        ByteLevelBPE(special_tokens={"<s>": 0})
    shifted = ByteLevelBPE({c: b + 1 for b, c in enumerate(CHARS)}, special_tokens={"<s>": 0})  # id 0 is free here
    assert shifted.token_to_id("<s>") == 0 and shifted.encode_piece("a") == (98,)


def test_special_tokens_of_the_wrong_type_in_a_trusted_file() -> None:
    with pytest.raises(ConfigError) as err:
        ByteLevelBPE.from_dict({"vocab": BYTES, "merges": [], "special_tokens": "<s>"}, validate=False)
    assert str(err.value) == "model.special_tokens: must be a list of tokens or a mapping token -> id, got '<s>'"


def test_from_dict_checks_the_vocabulary_unless_trusted() -> None:
    data = {"vocab": {**BYTES, "ab": 5}, "merges": []}
    with pytest.raises(VocabularyError, match=r"^model\.vocab: ids must be unique"):
        ByteLevelBPE.from_dict(data)


def test_removed_mapped_special_tokens_leave_the_vocabulary() -> None:
    model = ByteLevelBPE()
    model.special_tokens = {"<s>": 256}
    assert model.vocab_size == 257
    model.special_tokens = {}
    assert model.vocab_size == 256 and "<s>" not in model.vocab
    assert model.to_dict()["vocab"] == BYTES


def test_merges_are_only_those_given() -> None:
    # "ab" is in the vocabulary but no merge makes it: Hugging Face's BPE gives the two bytes.
    model = ByteLevelBPE({**BYTES, "ab": 256})
    assert model.encode_piece("ab") == (97, 98) and model.merges == []


def test_a_merge_that_spells_a_special_token_never_applies() -> None:
    model = ByteLevelBPE({**BYTES, "ab": 256}, [("a", "b")], special_tokens=["ab"])
    assert model.encode_piece("ab") == (97, 98)


@pytest.mark.parametrize("route", ["from_ranks", "from_dict"])
def test_a_rank_model_switched_to_merges_mode_derives_its_merges(route: str) -> None:
    ranks = {**RANKS, b"ab": 257, b"abab": 300}
    model = ByteLevelBPE.from_ranks(ranks, special_tokens={"<s>": 256})
    if route == "from_dict":
        model = ByteLevelBPE.from_dict(model.to_dict())
    model.mode = "merges"
    assert model.merges == [("a", "b"), ("ab", "ab")]
    assert model.encode_piece("ababab") == (300, 257)


def test_rank_mode_from_a_file_with_a_special_token_between_regular_ids() -> None:
    # The saved vocabulary lists "<s>" (256) before "ab" (257): ranks are read past it.
    model = ByteLevelBPE.from_ranks({**RANKS, b"ab": 257}, special_tokens={"<s>": 256})
    loaded = ByteLevelBPE.from_dict(model.to_dict())
    assert loaded.encode_piece("abab") == (257, 257)
    assert loaded.ranks() == {**RANKS, b"ab": 257}


def test_rank_mode_vocabulary_must_be_byte_level() -> None:
    with pytest.raises(VocabularyError) as err:
        ByteLevelBPE({**BYTES, "\n": 256}, mode="ranks", ignore_merges=True)
    assert str(err.value) == (
        "ByteLevelBPE.vocab['\\n']: '\\n' is not a byte-level character; rank-mode vocabularies hold byte-level "
        "strings (and the special tokens)"
    )


def test_input_outside_the_byte_level_alphabet_message() -> None:
    piece = "a" * 50 + "\n"
    with pytest.raises(InputError) as err:
        ByteLevelBPE().encode_piece(piece)
    assert str(err.value) == (
        f"ByteLevelBPE got a piece that is not in the byte-level alphabet ('\\n' at index 50 of {'a' * 40!r}); "
        "put a ByteLevel pre-tokenizer in front of the model "
        "(ByteLevel(add_prefix_space=False, use_regex=False) keeps the text as it is, in one piece)"
    )


def test_trainer_errors() -> None:
    with pytest.raises(ConfigError, match=r"^ByteLevelBPETrainer\.special_tokens: the empty string cannot be a token$"):
        ByteLevelBPETrainer(special_tokens=[""])
    with pytest.raises(ConfigError) as err:
        ByteLevelBPETrainer().train({"a": 1}, model=object())  # type: ignore[arg-type]
    assert str(err.value) == "ByteLevelBPETrainer trains ByteLevelBPE models; the tokenizer's model is a object"
    with pytest.raises(TrainingError) as err:
        ByteLevelBPETrainer().train({"a" * 50 + "\n": 1})
    assert str(err.value) == (
        f"ByteLevelBPETrainer expects byte-level words (as the ByteLevel pre-tokenizer produces), but {'a' * 40!r} "
        "contains '\\n'; add a ByteLevel pre-tokenizer to the pipeline"
    )


def test_trainer_vocab_size_equal_to_the_minimum() -> None:
    model = ByteLevelBPETrainer(vocab_size=257, special_tokens=["<s>"]).train({"ab": 5})
    assert model.merges == [] and model.vocab_size == 257 and model.token_to_id("<s>") == 256
    assert model.ignore_merges is False


def test_trainer_max_token_length_min_frequency_and_progress() -> None:
    # "abc": (a, b) and (b, c) tie at 5, the smaller ids win; "abc" (3 bytes) exceeds max_token_length=2.
    assert ByteLevelBPETrainer(vocab_size=300, max_token_length=2).train({"abc": 5}).merges == [("a", "b")]
    assert ByteLevelBPETrainer(vocab_size=300, min_frequency=2).train({"ab": 2, "cd": 1}).merges == [("a", "b")]
    calls: list[tuple[str, int, int]] = []
    ByteLevelBPETrainer(vocab_size=257, progress=lambda *a: calls.append(a)).train({"ab": 2})
    assert ("merges", 1, 1) in calls


def test_rank_table_size_limit_names_from_ranks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_VOCAB_SIZE", 255)
    with pytest.raises(VocabularyError, match=r"^ByteLevelBPE\.from_ranks: 256 tokens is more than the limit of 255"):
        ByteLevelBPE.from_ranks(RANKS)


def _dropout_model(**options: object) -> ByteLevelBPE:
    return ByteLevelBPE({**BYTES, "ab": 256, "abab": 257}, [("a", "b"), ("ab", "ab")], **options)


def test_a_vanishing_dropout_merges_as_without_dropout() -> None:
    # Every draw is above 1e-12: the dropout path runs and merges everything, as the plain merge does.
    assert _dropout_model(dropout=1e-12).encode_piece("ababab") == (257, 256) == _dropout_model().encode_piece("ababab")
    assert _dropout_model(dropout=1.0).encode_piece("abab") == (97, 98, 97, 98)


def test_dropout_draws_follow_the_seed() -> None:
    piece = "ab" * 40
    first = [_dropout_model(dropout=0.5, seed=7).encode_piece(piece) for _ in range(3)]
    assert first[0] == first[1] == first[2]  # each fresh model with seed 7 starts the same draws
    assert len({_dropout_model(dropout=0.5, seed=s).encode_piece(piece) for s in range(5)}) > 1
