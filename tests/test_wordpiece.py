"""WordPiece: the SPEC §5 vectors, the encoder's contract, the exact trainer against its slow oracle,
options, errors and serialization.

The BERT pipeline's parity with Hugging Face ``tokenizers`` is in ``test_bert_parity.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import WordPiece, WordPieceTrainer
from algorithms import _wordpiece_likelihood as wp_likelihood_module
from algorithms import _wordpiece_runs as wp_trainer_module
from algorithms.reference.wordpiece import reference_wordpiece_trainer
from pretokenizers import BertPreTokenizer
from toolkit import Tokenizer
from toolkit.errors import ConfigError, SerializationError, ToolkitError, TrainingError, VocabularyError
from toolkit.interfaces import build

from conftest import shared_path

TOY = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}

COURSE = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
COURSE_ALPHABET = (
    "##a ##b ##c ##d ##e ##f ##g ##h ##i ##k ##l ##m ##n ##o ##p ##r ##s ##t ##u ##v ##w ##y ##z "
    ", . C F H T a b c g h i s t u w y"
).split()
COURSE_MERGES = (
    "ab ##fu Fa Fac ##ct ##ful ##full ##fully Th ch ##hm cha chap chapt ##thm Hu Hug Hugg sh th is "
    "##thms ##za ##zat ##ut"
).split()


def _tokens(model: WordPiece, word: str) -> list[str]:
    return [model.id_to_token(i) for i, _, _ in model.tokenize(word)]  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------- SPEC §5
def test_toy_merges_first_occurrence() -> None:
    result = WordPieceTrainer(criterion="score", vocab_size=12, special_tokens=["[UNK]"], tie_break="first_occurrence").train_merges(TOY)
    assert result.merges == [
        ("##g", "##s", "##gs"),  # 5 / (20 * 5) = 1/20
        ("h", "##u", "hu"),  # every pair at 1/36: the first one met wins
        ("hu", "##gs", "hugs"),  # 1/15
        ("hu", "##g", "hug"),
    ]
    assert result.tokens == ["[UNK]", "##g", "##n", "##s", "##u", "b", "h", "p", "##gs", "hu", "hugs", "hug"]


def test_toy_merges_ids_tie_break_differs_only_on_ties() -> None:
    result = WordPieceTrainer(criterion="score", vocab_size=12, special_tokens=["[UNK]"]).train_merges(TOY)
    # Same unique best first; then the 1/36 tie goes to the smallest (left_id, right_id): (##u, ##g).
    assert result.merges[:2] == [("##g", "##s", "##gs"), ("##u", "##g", "##ug")]


def test_toy_encodings() -> None:
    vocab = ["[UNK]", "b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hug"]
    model = WordPiece({t: i for i, t in enumerate(vocab)})
    assert _tokens(model, "hugs") == ["hug", "##s"]
    assert _tokens(model, "bugs") == ["b", "##u", "##gs"]
    assert _tokens(model, "mug") == ["[UNK]"]
    assert _tokens(model, "bum") == ["[UNK]"]  # b ##u match, then nothing for "m": the whole word
    assert model.tokenize("bugs") == [(1, 0, 1), (7, 1, 2), (8, 2, 4)]
    assert model.tokenize("bum") == [(0, 0, 3)]


@pytest.fixture(scope="module")
def course_tokenizer() -> Tokenizer:
    tok = Tokenizer(WordPiece(), pre_tokenizer=BertPreTokenizer())
    return tok.train(COURSE, WordPieceTrainer(criterion="score", vocab_size=70, special_tokens=SPECIALS, tie_break="first_occurrence"))


def test_course_vocabulary_in_exact_order(course_tokenizer: Tokenizer) -> None:
    vocab = course_tokenizer.get_vocab()
    assert sorted(vocab.values()) == list(range(70))
    assert sorted(vocab, key=vocab.__getitem__) == SPECIALS + COURSE_ALPHABET + COURSE_MERGES


def test_course_encodings(course_tokenizer: Tokenizer) -> None:
    assert course_tokenizer.encode("Hugging").tokens == ["Hugg", "##i", "##n", "##g"]
    assert course_tokenizer.encode("HOgging").tokens == ["[UNK]"]
    enc = course_tokenizer.encode("This is the Hugging Face Course!")
    assert enc.tokens == (
        "Th ##i ##s is th ##e Hugg ##i ##n ##g Fac ##e C ##o ##u ##r ##s ##e [UNK]".split()
    )
    assert enc.offsets[:3] == [(0, 2), (2, 3), (3, 4)]
    assert enc.offsets[-1] == (31, 32)  # "!" is its own word, unknown as a whole
    assert course_tokenizer.encode_ids("This is the Hugging Face Course!") == enc.ids


# ---------------------------------------------------------------------------------------------- encoding
def test_longest_match_first_and_spans() -> None:
    model = WordPiece({"[UNK]": 0, "un": 1, "una": 2, "##ff": 3, "##aff": 4, "##able": 5, "##a": 6, "##ble": 7})
    # "una" is longer than "un", so it wins although "un ##aff ##able" would also cover the word;
    # then "##able" beats "##a".
    assert _tokens(model, "unaffable") == ["una", "##ff", "##able"]
    assert model.tokenize("unaffable") == [(2, 0, 3), (3, 3, 5), (5, 5, 9)]
    assert model.encode_piece("unaffable") == (2, 3, 5)


def test_max_input_chars_per_word_is_inclusive() -> None:
    model = WordPiece({"[UNK]": 0, "a": 1, "##a": 2}, max_input_chars_per_word=5)
    assert model.encode_piece("aaaaa") == (1, 2, 2, 2, 2)
    assert model.tokenize("aaaaaa") == [(0, 0, 6)]
    assert model.encode_piece("aaaaaa") == (0,)


def test_continuation_tokens_are_not_word_starts_and_vice_versa() -> None:
    model = WordPiece({"[UNK]": 0, "a": 1, "##b": 2})
    assert _tokens(model, "ab") == ["a", "##b"]
    assert _tokens(model, "b") == ["[UNK]"]  # "##b" only continues a word
    assert _tokens(model, "aa") == ["[UNK]"]  # "a" only starts one
    assert _tokens(model, "##b") == ["##b"]  # a word that really starts with "##" matches literally


def test_custom_prefix_and_empty_prefix() -> None:
    model = WordPiece({"<unk>": 0, "ab": 1, "@@c": 2}, unk_token="<unk>", continuing_subword_prefix="@@")
    assert _tokens(model, "abc") == ["ab", "@@c"]
    bare = WordPiece({"[UNK]": 0, "ab": 1, "c": 2}, continuing_subword_prefix="")
    assert _tokens(bare, "abc") == ["ab", "c"]
    assert _tokens(bare, "cab") == ["c", "ab"]


def test_empty_piece_and_untrained_model() -> None:
    model = WordPiece({"[UNK]": 0, "a": 1})
    assert model.tokenize("") == [] and model.encode_piece("") == ()
    with pytest.raises(VocabularyError, match="no vocabulary"):
        WordPiece().encode_piece("abc")


def _naive_wordpiece(vocab: dict[str, int], word: str, unk: int, prefix: str, max_chars: int) -> list[tuple[int, int, int]]:
    """The textbook loop, with no length cap on the candidates: the oracle for the fast encoder."""
    if len(word) > max_chars:
        return [(unk, 0, len(word))]
    out, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            candidate = word[start:end] if start == 0 else prefix + word[start:end]
            if candidate in vocab:
                out.append((vocab[candidate], start, end))
                start = end
                break
        else:
            return [(unk, 0, len(word))]
    return out


@settings(max_examples=200)
@given(
    tokens=st.lists(st.text(alphabet="ab#c", min_size=1, max_size=5), min_size=1, max_size=25, unique=True),
    words=st.lists(st.text(alphabet="ab#cd", min_size=1, max_size=12), min_size=1, max_size=10),
    max_chars=st.integers(1, 15),
)
def test_encoder_matches_naive_longest_match(tokens: list[str], words: list[str], max_chars: int) -> None:
    vocab = {"[UNK]": 0} | {t: i + 1 for i, t in enumerate(tokens)}
    model = WordPiece(vocab, max_input_chars_per_word=max_chars)
    for word in words:
        expected = _naive_wordpiece(vocab, word, 0, "##", max_chars)
        assert model.tokenize(word) == expected
        assert model.tokenize(word) == expected  # cached
        assert model.encode_piece(word) == tuple(i for i, _, _ in expected)


def test_tokenize_result_is_not_shared_with_the_cache() -> None:
    model = WordPiece({"[UNK]": 0, "a": 1})
    model.tokenize("a").append((9, 9, 9))
    assert model.tokenize("a") == [(1, 0, 1)]


def test_caches_are_bounded_cleared_and_not_pickled() -> None:
    import pickle

    model = WordPiece({"[UNK]": 0, "a": 1, "##a": 2})
    model.cache_capacity = 3
    for n in range(1, 10):
        assert model.tokenize("a" * n)[0] == (1, 0, 1)
        assert model.encode_piece("a" * n) == (1,) + (2,) * (n - 1)
        assert len(model._tok_cache) <= 3 and len(model.piece_cache) <= 3
    clone = pickle.loads(pickle.dumps(model))
    assert clone._tok_cache == {} and clone.piece_cache == {}
    assert clone.tokenize("aa") == model.tokenize("aa")
    model.clear_cache()
    assert model._tok_cache == {} and model.piece_cache == {}


# ---------------------------------------------------------------------------------------------- model errors
def test_vocab_without_unk_fails_at_construction_and_load() -> None:
    with pytest.raises(VocabularyError, match=r"'\[UNK\]' is not in the vocabulary.*unk_token"):
        WordPiece({"a": 0, "##b": 1})
    with pytest.raises(VocabularyError, match="'<unk>'"):
        WordPiece({"[UNK]": 0}, unk_token="<unk>")
    doc = {"type": "WordPiece", "vocab": {"a": 0}, "unk_token": "[UNK]"}
    for validate in (True, False):
        with pytest.raises(VocabularyError, match="UNK"):
            WordPiece.from_dict(doc, validate=validate)


@pytest.mark.parametrize(
    ("vocab", "error", "message"),
    [
        ({"[UNK]": 0, "a": 0}, VocabularyError, "both have id 0"),
        ({"[UNK]": 0, "a": -1}, VocabularyError, ">= 0"),
        ({"[UNK]": 0, "a": "1"}, ConfigError, "id must be an integer"),
        ({"[UNK]": 0, "a": True}, ConfigError, "id must be an integer"),
        ({"[UNK]": 0, 5: 1}, ConfigError, "must be a string"),
        ({"[UNK]": 0, "": 1}, VocabularyError, "empty string"),
        ([("[UNK]", 0)], ConfigError, "must be an object mapping"),
    ],
)
def test_invalid_vocabularies_are_rejected(vocab: dict, error: type, message: str) -> None:
    # The shape (types) of a vocabulary is a ConfigError, its content a VocabularyError (as for BPE).
    with pytest.raises(error, match=message):
        WordPiece(vocab)
    with pytest.raises(error, match=message):
        WordPiece.from_dict({"type": "WordPiece", "vocab": vocab})


@pytest.mark.parametrize(
    "options",
    [
        {"max_input_chars_per_word": 0},
        {"max_input_chars_per_word": "100"},
        {"unk_token": ""},
        {"unk_token": None},
        {"continuing_subword_prefix": 3},
        {"special_tokens": "[UNK]"},
    ],
)
def test_invalid_model_options_are_config_errors(options: dict) -> None:
    with pytest.raises(ConfigError):
        WordPiece({"[UNK]": 0}, **options)
    with pytest.raises(ConfigError):
        WordPiece.from_dict({"type": "WordPiece", "vocab": {"[UNK]": 0}, **options})


def test_unknown_option_in_file_is_named() -> None:
    with pytest.raises(ConfigError, match="max_chars"):
        build("model", {"type": "WordPiece", "vocab": {"[UNK]": 0}, "max_chars": 3})


def test_special_tokens_must_be_in_vocab() -> None:
    model = WordPiece({"[UNK]": 0, "[CLS]": 7}, special_tokens=["[CLS]", "[UNK]"])
    assert model.special_tokens == {"[CLS]": 7, "[UNK]": 0}
    with pytest.raises(VocabularyError, match="MASK"):
        WordPiece({"[UNK]": 0}, special_tokens=["[MASK]"])


# ---------------------------------------------------------------------------------------------- model files
def test_to_dict_is_deterministic_and_round_trips() -> None:
    a = WordPiece({"b": 2, "[UNK]": 0, "##c": 1}, special_tokens=["[UNK]"], max_input_chars_per_word=7)
    b = WordPiece({"##c": 1, "b": 2, "[UNK]": 0}, special_tokens=["[UNK]"], max_input_chars_per_word=7)
    d = a.to_dict()
    assert json.dumps(d) == json.dumps(b.to_dict())
    assert d == {
        "type": "WordPiece",
        "vocab": {"[UNK]": 0, "##c": 1, "b": 2},  # id order
        "unk_token": "[UNK]",
        "continuing_subword_prefix": "##",
        "max_input_chars_per_word": 7,
        "special_tokens": ["[UNK]"],
    }
    for validate in (True, False):
        again = build("model", json.loads(json.dumps(d)), validate=validate)
        assert isinstance(again, WordPiece) and again == a
        assert again.tokenize("bc") == a.tokenize("bc") == [(2, 0, 1), (1, 1, 2)]


def test_tokenizer_file_round_trip(tmp_path, course_tokenizer: Tokenizer) -> None:
    path = tmp_path / "wp.json"
    course_tokenizer.save(path)
    for trusted in (False, True):
        loaded = Tokenizer.load(path, trusted=trusted)
        assert loaded.get_vocab() == course_tokenizer.get_vocab()
        text = "This is the Hugging Face Course!"
        assert loaded.encode(text).ids == course_tokenizer.encode(text).ids


def test_missing_unk_in_tokenizer_file_is_a_serialization_error(course_tokenizer: Tokenizer) -> None:
    doc = course_tokenizer.to_dict()
    del doc["model"]["vocab"]["[UNK]"]
    with pytest.raises(SerializationError, match="UNK"):
        Tokenizer.from_dict(doc)


def test_vocab_file(tmp_path) -> None:
    path = tmp_path / "vocab.txt"
    path.write_text("[PAD]\n[UNK]\n[CLS]\nhug\n##s  \n", encoding="utf-8")
    assert WordPiece.read_vocab_file(path) == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "hug": 3, "##s": 4}
    model = WordPiece.from_file(path)
    assert model.special_tokens == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2}
    assert model.encode_piece("hugs") == (3, 4)
    with pytest.raises(SerializationError, match="missing.txt: no such vocab.txt"):
        WordPiece.read_vocab_file(tmp_path / "missing.txt")
    path.write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match="UNK"):
        WordPiece.from_file(path)
    path.write_bytes(b"[UNK]\n\xff\n")
    with pytest.raises(SerializationError, match="UTF-8"):
        WordPiece.read_vocab_file(path)
    # one reader for vocab.txt (HF's read_file): a blank line is the token "", CRLF ends a line
    path.write_bytes(b"[UNK]\r\n\r\nhug\r\n")
    assert WordPiece.read_vocab_file(path) == {"[UNK]": 0, "": 1, "hug": 2}


# ---------------------------------------------------------------------------------------------- trainer vs oracle
def _random_counts(rng: random.Random, alphabet: str, n_words: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _ in range(n_words):
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        counts[word] = counts.get(word, 0) + rng.choice([1, 1, 2, 3, 7, 40])
    return counts


corpora = st.dictionaries(
    st.text(alphabet=st.sampled_from("aab#cdé"), min_size=1, max_size=8),
    st.sampled_from([1, 1, 2, 3, 5, 17, 100]),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300)
@given(
    counts=corpora,
    vocab_size=st.integers(1, 45),
    tie_break=st.sampled_from(["ids", "first_occurrence"]),
    min_frequency=st.sampled_from([0, 0, 2, 6]),
    prefix=st.sampled_from(["##", "##", "#", ""]),
    limit_alphabet=st.sampled_from([None, None, 1, 3]),
    initial_alphabet=st.sampled_from([(), ("a",), ("z",)]),
    special_tokens=st.sampled_from([("[UNK]",), (), ("a", "[UNK]", "##b")]),
    criterion=st.sampled_from(["score", "likelihood"]),
    discount=st.sampled_from([0, 1, 3, 3, 5]),
)
def test_fast_trainer_equals_reference(
    counts, vocab_size, tie_break, min_frequency, prefix, limit_alphabet, initial_alphabet, special_tokens, criterion,
    discount,
) -> None:
    options = dict(
        criterion=criterion,
        likelihood_discount=discount,
        vocab_size=vocab_size,
        tie_break=tie_break,
        min_frequency=min_frequency,
        continuing_subword_prefix=prefix,
        limit_alphabet=limit_alphabet,
        initial_alphabet=initial_alphabet,
        special_tokens=special_tokens,
    )
    fast = WordPieceTrainer(**options).train_merges(counts)
    slow = reference_wordpiece_trainer(counts, **options)
    assert fast.merges == slow.merges
    assert fast.tokens == slow.tokens
    assert fast.n_base == slow.n_base


@pytest.mark.parametrize("criterion", ["score", "likelihood", "likelihood:0", "likelihood:1"])
@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
@pytest.mark.parametrize(("slack_degree", "slack_shift"), [(0, 1), (2, 2), (4, 5), (24, 3), (10**9, 3)])
def test_fast_trainer_equals_reference_for_every_bound_setting(
    monkeypatch, tie_break, slack_degree, slack_shift, criterion
) -> None:
    criterion, _, discount = criterion.partition(":")
    # The fast trainer keeps *upper bounds* of scores in its heap for tokens in many pairs; these
    # knobs force the bound machinery on everything (0) or off (10**9). The result must not change.
    monkeypatch.setattr(wp_trainer_module._Run, "slack_degree", slack_degree)
    monkeypatch.setattr(wp_trainer_module._Run, "slack_shift", slack_shift)
    # The likelihood mode's bounds: every pair exact (0) or far looser than the default.
    monkeypatch.setattr(wp_likelihood_module._LikelihoodRun, "headroom_share", {1: 0.0, 2: 2.0}.get(slack_shift, 0.25))
    monkeypatch.setattr(wp_trainer_module._Run, "heap_slack", 0)  # rebuild the heap often, too
    rng = random.Random(slack_degree * 7 + slack_shift)
    for _ in range(12):
        counts = _random_counts(rng, rng.choice(["ab", "abc", "abcde", "xyz#"]), rng.randint(3, 30))
        vs = rng.randint(5, 80)
        options = dict(vocab_size=vs, special_tokens=["[UNK]"], tie_break=tie_break, criterion=criterion,
                       likelihood_discount=int(discount or 3))
        fast = WordPieceTrainer(**options).train_merges(counts)
        assert fast.merges == reference_wordpiece_trainer(counts, **options).merges


def _tied_group(n: int) -> dict[str, int]:
    # n words "<rare character>e": every pair (c, ##e) scores 1 / f(##e), and the pairs stay tied as
    # f(##e) falls with each merge; f(##e) >= 32 puts its bound frequency below f(##e)
    return {chr(0x4E00 + i) + "e": 1 for i in range(n)}


def test_a_group_of_tied_scores_is_not_popped_at_every_merge(monkeypatch) -> None:
    # The bounds of the whole group sat above its exact score, so each of the n merges popped and
    # re-pushed every member left: n**2 / 2 exact scores (44 s at 32k tokens on 3 MB of English).
    calls = 0
    exact = wp_trainer_module._Run._exact_key

    def counted(self, *args):
        nonlocal calls
        calls += 1
        return exact(self, *args)

    monkeypatch.setattr(wp_trainer_module._Run, "_exact_key", counted)
    n = 2000
    result = WordPieceTrainer(vocab_size=10**6, special_tokens=[], criterion="score").train_merges(_tied_group(n))
    assert len(result.merges) == n
    assert calls < 40 * n  # n**2 / 2 = 2,000,000 before


@pytest.mark.parametrize("criterion", ["score", "likelihood"])
@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_tied_groups_merge_as_the_reference_does(criterion: str, tie_break: str) -> None:
    counts = _tied_group(70)
    counts.update({"x" + chr(0x4E00 + i) + "e": 2 for i in range(0, 70, 3)})  # members leave the group
    options = dict(vocab_size=400, special_tokens=["[UNK]"], tie_break=tie_break, criterion=criterion)
    fast = WordPieceTrainer(**options).train_merges(counts)
    assert fast.merges == reference_wordpiece_trainer(counts, **options).merges


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_fast_trainer_equals_reference_on_shakespeare(tie_break: str) -> None:
    path = shared_path("english/tinyshakespeare_input.txt")
    pre = BertPreTokenizer()
    with open(path, encoding="utf-8") as fh:
        lines = [next(fh) for _ in range(3000)]
    counts = Counter(w for line in lines for w in pre.split_text(line))
    fast = WordPieceTrainer(criterion="score", vocab_size=260, tie_break=tie_break).train_merges(counts)
    slow = reference_wordpiece_trainer(counts, vocab_size=260, tie_break=tie_break)
    assert len(fast.merges) > 150
    assert fast.merges == slow.merges


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_scores_are_compared_exactly_not_as_floats(tie_break: str) -> None:
    # (a, ##b) scores (m+1) / ((m+1)(m+1)) = 1/(m+1); (c, ##d) scores 1/m, which is larger, yet both
    # round to the same float. Float scores would tie and the tie-break would pick (a, ##b) (smaller
    # ids, met first); exact comparison must pick (c, ##d).
    m = 2**60
    assert 1 / m == 1 / (m + 1)
    counts = {"ab": m + 1, "cd": m}
    merges = WordPieceTrainer(criterion="score", vocab_size=100, special_tokens=["[UNK]"], tie_break=tie_break).train_merges(counts).merges
    assert merges == [("c", "##d", "cd"), ("a", "##b", "ab")]
    assert reference_wordpiece_trainer(counts, vocab_size=100, special_tokens=["[UNK]"], tie_break=tie_break).merges == merges


def test_real_ties_use_the_tie_break() -> None:
    # Every pair scores 1/4: "ids" takes the smallest (left_id, right_id), "first_occurrence" the
    # pair met first in corpus order.
    counts = {"cd": 4, "ab": 4}
    ids = WordPieceTrainer(criterion="score", vocab_size=9, special_tokens=["[UNK]"]).train_merges(counts).merges
    first = WordPieceTrainer(criterion="score", vocab_size=9, special_tokens=["[UNK]"], tie_break="first_occurrence").train_merges(counts).merges
    assert ids[0] == ("a", "##b", "ab")
    assert first[0] == ("c", "##d", "cd")


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_runs_of_one_symbol_merge_as_often_as_they_are_rewritten(tie_break: str) -> None:
    # "##a ##a ##a ##a" holds (##a, ##a) three times but the merge rewrites it twice (left to
    # right, no overlap): freq(##a) must drop by 4, to 0, not by 6. The next scores depend on it.
    counts = {"bbaaaa": 1, "bb": 5}
    fast = WordPieceTrainer(criterion="score", vocab_size=40, special_tokens=["[UNK]"], tie_break=tie_break).train_merges(counts)
    assert fast.merges[:2] == [
        ("##a", "##a", "##aa"),  # 3 / (4 * 4)
        ("##aa", "##aa", "##aaaa"),  # 1 / (2 * 2): with freq(##a) = 4 - 6 it could not be chosen
    ]  # then (b, ##b) and (##b, ##aaaa) tie at 6 / (6 * 6) = 1 / (6 * 1)
    assert fast.merges == reference_wordpiece_trainer(counts, vocab_size=40, special_tokens=["[UNK]"], tie_break=tie_break).merges


def test_more_tokens_than_symbol_ids_is_a_training_error(monkeypatch) -> None:
    # Symbols are stored as characters (chr(id)); training beyond the code space stops with a clear
    # error instead of a ValueError from chr(). The limit is lowered here so the test stays small.
    monkeypatch.setattr(wp_trainer_module, "MAX_SYMBOL_ID", 9)
    counts = {"abcdef": 5, "bcdefa": 3}
    with pytest.raises(TrainingError, match="at most 10 tokens"):
        WordPieceTrainer(criterion="score", vocab_size=30, special_tokens=["[UNK]"]).train_merges(counts)
    with pytest.raises(TrainingError, match="at most 10 tokens"):
        WordPieceTrainer(criterion="score", vocab_size=30, special_tokens=[f"[S{i}]" for i in range(12)] + ["[UNK]"]).train_merges(counts)


# ---------------------------------------------------------------------------------------------- trainer options
def test_vocab_size_is_reached_exactly_and_the_alphabet_is_never_cut() -> None:
    counts = _random_counts(random.Random(3), "abcdefg", 60)
    for vs in (30, 60):
        model = WordPieceTrainer(criterion="score", vocab_size=vs).train(counts)
        assert model.vocab_size == vs
        assert sorted(model.get_vocab().values()) == list(range(vs))
    symbols = {w[0] for w in counts} | {"##" + c for w in counts for c in w[1:]}
    tiny = WordPieceTrainer(criterion="score", vocab_size=1).train(counts)
    assert sorted(tiny.get_vocab(), key=tiny.get_vocab().__getitem__) == SPECIALS + sorted(symbols)


def test_training_stops_when_no_pair_reaches_min_frequency() -> None:
    counts = {"ab": 5, "cd": 2, "ef": 1}
    result = WordPieceTrainer(criterion="score", vocab_size=100, min_frequency=2, special_tokens=["[UNK]"]).train_merges(counts)
    assert [m[2] for m in result.merges] == ["cd", "ab"]  # 2/(2*2) beats 5/(5*5); "ef" occurs once
    assert "ef" not in result.tokens
    everything = WordPieceTrainer(criterion="score", vocab_size=100, special_tokens=["[UNK]"]).train_merges(counts)
    assert {m[2] for m in everything.merges} == {"ab", "cd", "ef"}


def test_min_frequency_skips_rare_pairs_even_when_they_score_best() -> None:
    # (x, ##y) scores 1/1 but occurs once; with min_frequency=2 the frequent pair is merged instead.
    counts = {"xy": 1, "ab": 3, "a": 5}
    result = WordPieceTrainer(criterion="score", vocab_size=100, min_frequency=2, special_tokens=["[UNK]"]).train_merges(counts)
    assert result.merges == [("a", "##b", "ab")]


def test_limit_alphabet_keeps_the_most_frequent_characters_and_never_spans_dropped_ones() -> None:
    counts = {"abz": 10, "ab": 10, "q": 1}
    result = WordPieceTrainer(criterion="score", vocab_size=100, special_tokens=["[UNK]"], limit_alphabet=2).train_merges(counts)
    assert result.tokens[: result.n_base] == ["[UNK]", "##b", "a"]  # z and q are rarer than a and b
    assert all("z" not in new and "q" not in new for _, _, new in result.merges)
    assert result.merges == [("a", "##b", "ab")]  # learned from both words; nothing crosses "z"
    model = WordPieceTrainer(criterion="score", vocab_size=100, limit_alphabet=2).train(counts)
    assert model.tokenize("abz") == [(model.token_to_id("[UNK]"), 0, 3)]


def test_initial_alphabet_adds_both_forms() -> None:
    result = WordPieceTrainer(criterion="score", vocab_size=1, special_tokens=["[UNK]"], initial_alphabet=["é", "a"]).train_merges({"ab": 1})
    assert result.tokens == ["[UNK]", "##a", "##b", "##é", "a", "é"]
    limited = WordPieceTrainer(criterion="score", vocab_size=1, special_tokens=["[UNK]"], initial_alphabet=["é"], limit_alphabet=1)
    assert limited.train_merges({"ab": 9}).tokens == ["[UNK]", "##é", "é"]


def test_special_tokens_come_first_and_may_coincide_with_symbols() -> None:
    result = WordPieceTrainer(criterion="score", vocab_size=6, special_tokens=["[UNK]", "a", "[X]"]).train_merges({"ab": 2})
    assert result.tokens == ["[UNK]", "a", "[X]", "##b", "ab"]  # "a" is both; then no pair is left


def test_a_merge_spelling_an_existing_token_reuses_its_id() -> None:
    # A word that really starts with "##" (no pre-tokenizer): "#" + "###" spells "##", and then
    # "##" + "##a" spells "##a", which is already the continuation symbol "a". One token, one id.
    counts = {"##a": 5, "ba": 1}
    result = WordPieceTrainer(criterion="score", vocab_size=100, special_tokens=["[UNK]"]).train_merges(counts)
    assert result.merges == [("#", "###", "##"), ("b", "##a", "ba"), ("##", "##a", "##a")]
    assert result.tokens == ["[UNK]", "#", "###", "##a", "b", "##", "ba"]
    assert result.merges == reference_wordpiece_trainer(counts, vocab_size=100, special_tokens=["[UNK]"]).merges
    model = WordPieceTrainer(criterion="score", vocab_size=100, special_tokens=["[UNK]"]).train(counts)
    assert _tokens(model, "##a") == ["##a"] and _tokens(model, "ba") == ["ba"]


def test_ids_tie_break_does_not_depend_on_word_order() -> None:
    rng = random.Random(11)
    counts = _random_counts(rng, "abcdef", 80)
    items = list(counts.items())
    rng.shuffle(items)
    a = WordPieceTrainer(vocab_size=120).train(counts)
    b = WordPieceTrainer(vocab_size=120).train(dict(items))
    assert a == b


def test_training_is_deterministic_and_does_not_modify_counts() -> None:
    counts = _random_counts(random.Random(5), "abcdé#", 50)
    before = dict(counts)
    trainer = WordPieceTrainer(vocab_size=90, tie_break="first_occurrence")
    assert trainer.train(counts).to_dict() == trainer.train(counts).to_dict()
    assert counts == before


def test_progress_callback() -> None:
    calls: list[tuple[str, int, int]] = []
    counts = _random_counts(random.Random(2), "abcdefghij", 300)
    trainer = WordPieceTrainer(vocab_size=400, progress=lambda *a: calls.append(a))
    trainer.train(counts)
    assert calls[0][0] == "merges" and calls[0][1] == 0
    assert calls[-1][1] == calls[-1][2]
    assert [c[1] for c in calls] == sorted(c[1] for c in calls)
    assert "progress" not in trainer.to_dict()


def test_template_model_options_are_kept() -> None:
    template = WordPiece(unk_token="<unk>", max_input_chars_per_word=4)
    model = WordPieceTrainer(vocab_size=30, special_tokens=["<unk>"]).train({"abc": 3, "abcde": 1}, model=template)
    assert model.unk_token == "<unk>" and model.max_input_chars_per_word == 4
    assert model.special_tokens == {"<unk>": 0}
    assert model.tokenize("abcde") == [(0, 0, 5)]  # longer than 4 characters


def test_unk_token_must_be_a_special_token() -> None:
    with pytest.raises(TrainingError, match=r"unk_token '\[UNK\]' is not among special_tokens"):
        WordPieceTrainer(special_tokens=["[PAD]"]).train({"ab": 1})


@pytest.mark.parametrize(
    "counts", [{}, {"": 4}, {"a": 0}], ids=["empty", "empty-word", "zero-count"]
)
def test_nothing_to_train_on_is_a_training_error(counts: dict) -> None:
    with pytest.raises(TrainingError, match="nothing to train on"):
        WordPieceTrainer().train(counts)


@pytest.mark.parametrize("counts", [{"a": -1}, {"a": 1.5}, {3: 1}, ["a"]])
def test_bad_word_counts_are_training_errors(counts) -> None:
    with pytest.raises(TrainingError):
        WordPieceTrainer().train(counts)


@pytest.mark.parametrize(
    "options",
    [
        {"vocab_size": 0},
        {"vocab_size": "100"},
        {"min_frequency": -1},
        {"tie_break": "random"},
        {"limit_alphabet": -2},
        {"initial_alphabet": ["ab"]},
        {"initial_alphabet": "abc"},
        {"special_tokens": ["[UNK]", ""]},
        {"special_tokens": "[UNK]"},
        {"continuing_subword_prefix": None},
        {"progress": 3},
    ],
)
def test_bad_trainer_options_are_config_errors(options: dict) -> None:
    with pytest.raises(ConfigError):
        WordPieceTrainer(**options)


def test_trainer_serializes_and_unknown_keys_are_named() -> None:
    trainer = WordPieceTrainer(vocab_size=500, min_frequency=2, tie_break="first_occurrence", initial_alphabet=["x"])
    d = trainer.to_dict()
    assert d["type"] == "WordPieceTrainer" and d["tie_break"] == "first_occurrence"
    again = build("trainer", json.loads(json.dumps(d)))
    assert again == trainer
    with pytest.raises(ConfigError, match="vocabsize"):
        build("trainer", {"type": "WordPieceTrainer", "vocabsize": 10})
    with pytest.raises(ToolkitError):
        build("trainer", {"type": "WordPieceTrainer", "tie_break": "nope"})


def test_train_through_the_pipeline_and_round_trip(tmp_path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(COURSE * 3) + "\n", encoding="utf-8")
    tok = Tokenizer(WordPiece(), pre_tokenizer=BertPreTokenizer())
    assert tok.train(corpus, WordPieceTrainer(vocab_size=90)) is tok
    assert tok.vocab_size == 90
    text = "Hopefully you understand how the tokenizer is trained."
    enc = tok.encode(text)
    assert tok.encode_ids(text) == enc.ids
    for (start, end), token in zip(enc.offsets, enc.tokens):
        assert text[start:end] == token.removeprefix("##") or token == "[UNK]"
    again = Tokenizer.from_json(tok.to_json())
    assert again.encode(text).ids == enc.ids
