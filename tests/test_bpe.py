"""Character-level BPE: SPEC §5 vectors, Hugging Face parity, encoding options, files, errors.

Covers :mod:`algorithms.bpe` (``BPE``, ``BPETrainer``) and the shared encoding core
:mod:`algorithms._bpe_encode`. Parity tests compare with Hugging Face ``tokenizers`` on
``../shared/corpora`` and skip when the data or the library is absent.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms import BPE, BPETrainer
from algorithms._bpe_encode import merge_long, merge_short
from conftest import require, shared_path
from toolkit import Tokenizer
from toolkit.errors import ConfigError, InputError, SerializationError, TrainingError, VocabularyError

TOY = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}

COURSE = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
COURSE_MERGES = [
    ("Ġ", "t"), ("i", "s"), ("e", "r"), ("Ġ", "a"), ("Ġt", "o"), ("e", "n"), ("T", "h"), ("Th", "is"),
    ("o", "u"), ("s", "e"), ("Ġto", "k"), ("Ġtok", "en"), ("n", "d"), ("Ġ", "is"), ("Ġt", "h"),
    ("Ġth", "e"), ("i", "n"), ("Ġa", "b"), ("Ġtoken", "i"),
]


def toy_model(**options: object) -> BPE:
    trained = BPETrainer(vocab_size=11, unk_token="[UNK]").train(TOY)
    return BPE(trained.get_vocab(), trained.merges, unk_token="[UNK]", **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# SPEC §5 worked examples
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_toy_corpus_merges(tie_break: str) -> None:
    model = BPETrainer(vocab_size=11, unk_token="[UNK]", tie_break=tie_break).train(TOY)  # type: ignore[arg-type]
    assert model.merges == [("u", "g"), ("u", "n"), ("h", "ug")]
    assert list(model.get_vocab()) == ["[UNK]", "b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"]
    assert model.unk_token == "[UNK]" and model.special_tokens == {"[UNK]": 0}


def test_toy_corpus_merge_counts_follow_the_spec() -> None:
    # Each merge count from SPEC §5, checked by stopping training just below / at it.
    assert BPETrainer(vocab_size=11, unk_token="[UNK]", min_frequency=15).train(TOY).merges[-1] == ("h", "ug")
    assert BPETrainer(vocab_size=11, unk_token="[UNK]", min_frequency=16).train(TOY).merges == [("u", "g"), ("u", "n")]
    assert BPETrainer(vocab_size=11, unk_token="[UNK]", min_frequency=21).train(TOY).merges == []


@pytest.mark.parametrize(
    ("word", "tokens", "offsets"),
    [
        ("bug", ["b", "ug"], [(0, 1), (1, 3)]),
        ("mug", ["[UNK]", "ug"], [(0, 1), (1, 3)]),
        ("thug", ["[UNK]", "hug"], [(0, 1), (1, 4)]),
        ("hugs", ["hug", "s"], [(0, 3), (3, 4)]),
    ],
)
def test_toy_corpus_encoding(word: str, tokens: list[str], offsets: list[tuple[int, int]]) -> None:
    tok = Tokenizer(toy_model())
    enc = tok.encode(word)
    assert enc.tokens == tokens
    assert enc.offsets == offsets
    assert tok.encode_ids(word) == enc.ids


def test_course_corpus_first_occurrence() -> None:
    from pretokenizers import ByteLevel

    tok = Tokenizer(BPE(), pre_tokenizer=ByteLevel(add_prefix_space=False))
    trainer = BPETrainer(vocab_size=50, special_tokens=["<|endoftext|>"], tie_break="first_occurrence")
    tok.train(COURSE, trainer)
    assert tok.model.merges == COURSE_MERGES
    assert tok.vocab_size == 50
    assert tok.token_to_id("<|endoftext|>") == 0
    assert tok.encode("This is not a token.").tokens == ["This", "Ġis", "Ġ", "n", "o", "t", "Ġa", "Ġtoken", "."]


# ---------------------------------------------------------------------------------------------
# Parity with Hugging Face tokenizers
# ---------------------------------------------------------------------------------------------


def _hf_merges(hf_tokenizer: object) -> list[tuple[str, str]]:
    model = json.loads(hf_tokenizer.to_str())["model"]  # type: ignore[attr-defined]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]  # type: ignore[misc]


def _parity(corpus_file: str, held_out_file: str) -> None:
    hf = require("tokenizers")
    from pretokenizers import ByteLevel
    from toolkit.training.corpus import iter_file_lines

    lines = list(iter_file_lines(shared_path(corpus_file)))
    specials = ["<|endoftext|>"]

    ours = Tokenizer(BPE(), pre_tokenizer=ByteLevel(add_prefix_space=False))
    ours.train(iter(lines), BPETrainer(vocab_size=8000, special_tokens=specials,
                                       initial_alphabet=ByteLevel.alphabet(), tie_break="ids"))

    theirs = hf.Tokenizer(hf.models.BPE())
    theirs.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    theirs.train_from_iterator(
        iter(lines),
        trainer=hf.trainers.BpeTrainer(vocab_size=8000, special_tokens=specials, show_progress=False,
                                       initial_alphabet=hf.pre_tokenizers.ByteLevel.alphabet()),
    )
    assert len(ours.model.merges) > 7000
    assert ours.model.merges == _hf_merges(theirs)
    assert ours.get_vocab() == theirs.get_vocab()

    # Encoding parity: HF's BPE model loaded with our vocabulary and merges, on text it did not see.
    loaded = hf.Tokenizer(hf.models.BPE(vocab=ours.get_vocab(), merges=ours.model.merges))
    loaded.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    held_out = list(iter_file_lines(shared_path(held_out_file)))[:3000]
    expected = loaded.encode_batch(held_out)
    for text, enc in zip(held_out, expected):
        assert ours.encode_ids(text) == enc.ids, text
    for text, enc in list(zip(held_out, expected))[:300]:
        mine = ours.encode(text)
        assert mine.ids == enc.ids and mine.tokens == enc.tokens and mine.offsets == enc.offsets, text


@pytest.mark.parity
def test_hf_parity_tinyshakespeare() -> None:
    _parity("english/tinyshakespeare_input.txt", "english/gutenberg_part01.txt")


@pytest.mark.parity
def test_hf_parity_gutenberg() -> None:
    _parity("english/gutenberg_part01.txt", "english/tinyshakespeare_input.txt")


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"continuing_subword_prefix": "##"},
        {"end_of_word_suffix": "</w>"},
        {"continuing_subword_prefix": "##", "end_of_word_suffix": "</w>"},
        {"fuse_unk": True},
        {"byte_fallback": True},
        {"end_of_word_suffix": "</w>", "fuse_unk": True},
        {"continuing_subword_prefix": "##", "fuse_unk": True},
    ],
)
def test_encoding_options_match_hf(options: dict[str, object]) -> None:
    hf = require("tokenizers")
    words = Counter("low lower newest widest lowest slower newer wider hug pug hugs".split() * 3)
    prefix = options.get("continuing_subword_prefix")
    suffix = options.get("end_of_word_suffix")
    model = BPETrainer(vocab_size=60, unk_token="<unk>", continuing_subword_prefix=prefix,  # type: ignore[arg-type]
                       end_of_word_suffix=suffix).train(words)  # type: ignore[arg-type]
    vocab = model.get_vocab()
    if options.get("byte_fallback"):
        for b in (0xC3, 0xA9, 0xE2, 0x82, 0xAC):  # é and €
            vocab[f"<0x{b:02X}>"] = len(vocab)
    ours = BPE(vocab, model.merges, unk_token="<unk>", **options)  # type: ignore[arg-type]
    theirs = hf.models.BPE(vocab=vocab, merges=model.merges, unk_token="<unk>", **options)
    for word in ["lowest", "newer", "xlow", "lowxx", "éwider€", "q", "hugsz", "zzhug", "l", "wéé"]:
        expected = [(t.id, *t.offsets) for t in theirs.tokenize(word)]
        assert ours.encode_piece(word) == tuple(t for t, _, _ in expected), word
        if word.isascii():  # HF's model-level offsets count bytes; ours count characters
            assert ours.tokenize(word) == expected, word
        else:
            assert [t for t, _, _ in ours.tokenize(word)] == [t for t, _, _ in expected], word


# ---------------------------------------------------------------------------------------------
# Encoding behaviour
# ---------------------------------------------------------------------------------------------


def test_unknown_characters_are_unk_one_by_one_or_fused() -> None:
    assert toy_model().tokenize("xyhug") == [(0, 0, 1), (0, 1, 2), (10, 2, 5)]
    assert toy_model(fuse_unk=True).tokenize("xyhugz") == [(0, 0, 2), (10, 2, 5), (0, 5, 6)]
    assert toy_model(fuse_unk=True).encode_piece("xyhugz") == (0, 10, 0)


def test_unknown_character_without_unk_token_is_an_input_error() -> None:
    model = BPE({"a": 0}, [])
    with pytest.raises(InputError, match=r"'z' \(U\+007A\).*no unk_token"):
        model.encode_piece("az")
    with pytest.raises(InputError):
        model.tokenize("za")


def test_byte_fallback_uses_byte_tokens_before_unk() -> None:
    vocab = {"<unk>": 0, "a": 1, "<0xC3>": 2, "<0xA9>": 3}
    model = BPE(vocab, [], unk_token="<unk>", byte_fallback=True)
    assert model.tokenize("aéz") == [(1, 0, 1), (2, 1, 2), (3, 1, 2), (0, 2, 3)]


def test_ignore_merges_returns_whole_vocabulary_pieces_but_never_specials() -> None:
    vocab = {"<s>": 0, "a": 1, "b": 2, "ab": 3, "ba": 4, "aba": 5, "<": 6, "s": 7, ">": 8}
    merges = [("a", "b"), ("b", "a")]
    assert BPE(vocab, merges + [("ab", "a")]).encode_piece("aba") == (5,)
    plain = BPE(vocab, merges, special_tokens=["<s>"])
    whole = BPE(vocab, merges, special_tokens=["<s>"], ignore_merges=True)
    with pytest.raises(VocabularyError):
        BPE(vocab, merges + [("ab", "x")])
    assert plain.encode_piece("aba") == (3, 1)
    assert whole.encode_piece("aba") == (5,) and whole.tokenize("aba") == [(5, 0, 3)]
    assert whole.encode_piece("<s>") == (6, 7, 8)


def test_merges_apply_by_rank_leftmost_first() -> None:
    vocab = {"a": 0, "b": 1, "aa": 2, "ab": 3, "aab": 4}
    # rank order beats position: "ab" (rank 0) before "aa" (rank 1)
    assert BPE(vocab, [("a", "b"), ("a", "a")]).encode_piece("aab") == (0, 3)
    assert BPE(vocab, [("a", "a"), ("a", "b"), ("aa", "b")]).encode_piece("aab") == (4,)
    # equal rank: leftmost first, non-overlapping
    assert BPE(vocab, [("a", "a")]).tokenize("aaa") == [(2, 0, 2), (0, 2, 3)]


def test_trainer_template_options_are_kept() -> None:
    template = BPE(unk_token="[UNK]", fuse_unk=True, continuing_subword_prefix="##")
    tok = Tokenizer(template).train(["hug pug hugs"] * 3, BPETrainer(vocab_size=40))
    model = tok.model
    assert isinstance(model, BPE)
    assert model.unk_token == "[UNK]" and model.fuse_unk and model.continuing_subword_prefix == "##"
    assert model.token_to_id("[UNK]") == 0
    assert "##g" in model.get_vocab()
    tokens = [model.id_to_token(i) for i in model.encode_piece("zzhug")]
    assert tokens[0] == "[UNK]" and tokens.count("[UNK]") == 1  # "z", "##z" fused


def test_trainer_prefix_and_suffix_tokens() -> None:
    model = BPETrainer(vocab_size=40, continuing_subword_prefix="##", end_of_word_suffix="</w>").train(TOY)
    vocab = model.get_vocab()
    assert {"h", "##u", "##g</w>", "##s</w>"} <= set(vocab)
    assert ("h", "##u") in model.merges and ("hu", "##g</w>") in model.merges and "hug</w>" in vocab
    assert [model.id_to_token(i) for i in model.encode_piece("hugs")][-1].endswith("</w>")


def test_limit_alphabet_keeps_most_frequent_and_initial_alphabet() -> None:
    counts = {"aaaa": 5, "bbb": 5, "cc": 5, "d": 5, "é": 1}
    model = BPETrainer(vocab_size=4, limit_alphabet=3, initial_alphabet=["z"]).train(counts)
    assert list(model.get_vocab()) == ["a", "b", "z", "aa"]  # c, d, é dropped from the words too
    model = BPETrainer(vocab_size=100, initial_alphabet=["z", "é"]).train({"ab": 3})
    assert list(model.get_vocab())[:4] == ["a", "b", "z", "é"]


def test_max_token_length_and_min_frequency() -> None:
    counts = {"abcdefgh": 50, "abcd": 10}
    assert max(len(t) for t in BPETrainer(vocab_size=100).train(counts).get_vocab()) == 8
    for limit in (2, 3, 5):
        model = BPETrainer(vocab_size=100, max_token_length=limit).train(counts)
        assert max(len(t) for t in model.get_vocab()) <= limit
    assert "abc" in BPETrainer(vocab_size=100, max_token_length=3).train({"abc": 5}).get_vocab()
    assert BPETrainer(vocab_size=100, min_frequency=61).train(counts).merges == []
    # Only pairs seen 60 times: a b, then c d (ids (2, 3) < (ab, c) = (8, 2)), then ab cd.
    model = BPETrainer(vocab_size=100, min_frequency=60).train(counts)
    assert model.merges == [("a", "b"), ("c", "d"), ("ab", "cd")]


def test_reused_merge_strings_keep_one_id_like_hf(monkeypatch: pytest.MonkeyPatch) -> None:
    # "ab"+"c" and "a"+"bc" both spell "abc": the second merge reuses the id (HF BpeTrainer). Real
    # corpora rarely offer this, so a stub engine proposes the pairs.
    import algorithms.bpe as module

    def engine(words, counts, *, merge_symbol, **options):  # type: ignore[no-untyped-def]
        a, b, c = 0, 1, 2
        ab, bc = merge_symbol(a, b), merge_symbol(b, c)
        abc = merge_symbol(ab, c)
        again = merge_symbol(a, bc)
        assert (ab, bc, abc, again) == (3, 4, 5, 5)
        return [(a, b, ab), (b, c, bc), (ab, c, abc), (a, bc, again)]

    monkeypatch.setattr(module, "learn_merges", engine)
    model = BPETrainer(vocab_size=30).train({"abc": 1})
    assert model.merges == [("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")]
    assert model.get_vocab() == {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    assert model.encode_piece("abc") == (5,)


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_prefix_merge_that_spells_its_right_operand(monkeypatch: pytest.MonkeyPatch, tie_break: str) -> None:
    # With continuing_subword_prefix="##", the word "###" (a Markdown heading) is "# ## ##" -> "#"+"###"
    # spells "##", then "##"+"###" spells "###", the right operand's own id. HF records such a merge
    # and goes on; training used to stop with a ValueError from the merge engine.
    import algorithms.bpe as module
    from algorithms.reference.bpe import reference_learn_merges

    counts = Counter("### Title ### ## subtitle ###a #### x ## notes: a##b ### c ###".split())
    trainer = BPETrainer(vocab_size=60, continuing_subword_prefix="##", tie_break=tie_break)
    model = trainer.train(counts)
    assert ("#", "###") in model.merges and ("##", "###") in model.merges
    assert [model.id_to_token(i) for i in model.encode_piece("###")] == ["###"]
    monkeypatch.setattr(module, "learn_merges", lambda *a, progress=None, **k: reference_learn_merges(*a, **k))
    assert trainer.train(counts).merges == model.merges  # the slow oracle agrees
    # HF's BPE model loaded with this vocabulary and these merges encodes alike.
    hf = require("tokenizers")
    theirs = hf.models.BPE(vocab=model.get_vocab(), merges=model.merges, continuing_subword_prefix="##")
    for word in ["###", "####", "######", "##", "#", "###a", "a##b", "subtitle##"]:
        assert model.encode_piece(word) == tuple(t.id for t in theirs.tokenize(word)), word


def test_a_pair_merged_twice_is_ranked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # "#" + "####" spells the existing "###", which re-forms ("###", "###"), merged before: the engine
    # reports the merge twice (as HF's trainer would); the model ranks the pair once, at its first merge.
    import algorithms.bpe as module

    raw: list[tuple[int, int, int]] = []
    engine = module.learn_merges
    monkeypatch.setattr(module, "learn_merges", lambda *a, **k: raw.extend(engine(*a, **k)) or list(raw))
    counts = {"a##ba": 5, "#b####": 3, "a": 2, "####": 1, "#abbabb": 1, "#": 1}
    model = BPETrainer(vocab_size=15, special_tokens=[], continuing_subword_prefix="##").train(counts)
    pairs = [(a, b) for a, b, _ in raw]
    assert len(pairs) == len(set(pairs)) + 1  # one pair merged twice...
    assert model.merges == list(dict.fromkeys(model.merges)) and len(model.merges) == len(raw) - 1  # ...ranked once
    assert ("###", "###") in model.merges and model.vocab_size == 15
    assert [model.id_to_token(i) for i in model.encode_piece("#b####")] == ["#b####"]
    assert BPE(model.get_vocab(), model.merges, continuing_subword_prefix="##").encode_piece("a##ba") == model.encode_piece("a##ba")


def test_special_tokens_come_first_in_order() -> None:
    model = BPETrainer(vocab_size=20, special_tokens=["<s>", "</s>", "<pad>"], unk_token="<unk>").train(TOY)
    assert list(model.get_vocab())[:5] == ["<unk>", "<s>", "</s>", "<pad>", "b"]
    model = BPETrainer(vocab_size=20, special_tokens=["<s>", "<unk>"], unk_token="<unk>").train(TOY)
    assert model.special_tokens == {"<s>": 0, "<unk>": 1} and model.unk_token == "<unk>"


def test_merge_never_produces_a_special_token() -> None:
    model = BPETrainer(vocab_size=30, special_tokens=["ab"]).train({"ab": 100, "abc": 5})
    assert model.special_tokens == {"ab": 0}
    assert ("a", "b") not in model.merges
    assert 0 not in model.encode_piece("abab")


# ---------------------------------------------------------------------------------------------
# The two merge paths (list for short pieces, linked list + rank buckets for long ones)
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_model() -> BPE:
    text = ["abracadabra banana bandana cabana", "aaa aaaa abab baba cab dab"] * 5
    return Tokenizer(BPE(unk_token="?")).train(text, BPETrainer(vocab_size=40, special_tokens=["?"])).model  # type: ignore[return-value]


@given(st.text(alphabet="abcdnr?", max_size=80))
def test_long_path_equals_list_path(small_model: BPE, text: str) -> None:
    long_model = BPE.from_dict(small_model.to_dict())
    long_model.long_piece_threshold = 1
    assert long_model.encode_piece(text) == small_model._encode_piece(text)
    assert long_model.tokenize(text) == small_model.tokenize(text)
    syms = [small_model.vocab.get(c, 0) for c in text]
    ids = merge_short(list(syms), small_model._pair_rank, small_model._rank_id)
    assert merge_long(list(syms), small_model._pair_rank, small_model._rank_id)[0] == ids


def test_tokenize_spans_cover_the_piece(small_model: BPE) -> None:
    piece = "abracadabra?bandanaxx"
    tokens = small_model.tokenize(piece)
    assert [t for t, _, _ in tokens] == list(small_model.encode_piece(piece))
    assert tokens[0][1] == 0 and tokens[-1][2] == len(piece)
    assert all(a[2] == b[1] for a, b in zip(tokens, tokens[1:]))


def test_one_million_identical_characters_encode_fast() -> None:
    model = BPETrainer(vocab_size=20).train({"a" * 64: 1})
    tok = Tokenizer(model)  # no pre-tokenizer: the whole text is one piece
    ids = tok.encode_ids("a" * 1_000_000)
    assert sum(len(model.id_to_token(i)) for i in ids) == 1_000_000  # type: ignore[arg-type]
    assert len(ids) < 1_000_000 // 16


def test_one_megabyte_without_spaces() -> None:
    text = shared_path("english/tinyshakespeare_input.txt").read_text(encoding="utf-8")
    text = "".join(text.split())[:1_000_000]
    model = BPETrainer(vocab_size=500, unk_token="<unk>").train(Counter(text[i:i + 50] for i in range(0, 200_000, 50)))
    tok = Tokenizer(model)
    ids = tok.encode_ids(text)
    spans = tok.encode(text).offsets
    assert "".join(text[s:e] for s, e in spans) == text
    assert len(ids) == len(spans) < len(text) // 2


# ---------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------


def test_to_dict_round_trip_and_deterministic_json(tmp_path: object) -> None:
    def train() -> Tokenizer:
        return Tokenizer(BPE(unk_token="[UNK]")).train(
            ["the quick brown fox jumps over the lazy dog"] * 4,
            BPETrainer(vocab_size=80, special_tokens=["[PAD]"], continuing_subword_prefix="##"),
        )

    a, b = train(), train()
    assert a.to_json() == b.to_json()
    data = a.model.to_dict()
    assert data["type"] == "BPE" and list(data["vocab"].values()) == sorted(data["vocab"].values())
    assert data["merges"][0] == list(a.model.merges[0])
    for validate in (True, False):
        again = BPE.from_dict(json.loads(json.dumps(data)), validate=validate)
        assert again == a.model and again.merges == a.model.merges
    path = tmp_path / "tok.json"  # type: ignore[operator]
    a.save(path)
    loaded = Tokenizer.load(path)
    text = "the lazy quick dogs jump"
    assert loaded.encode(text).ids == a.encode(text).ids
    assert loaded.model.special_tokens == {"[UNK]": 0, "[PAD]": 1}


def test_trainer_serializes_without_progress() -> None:
    trainer = BPETrainer(vocab_size=100, special_tokens=["<s>"], progress=lambda *a: None)
    data = trainer.to_dict()
    assert data["type"] == "BPETrainer" and "progress" not in data
    assert BPETrainer.from_dict(data).to_dict() == data


def test_progress_callback_is_called() -> None:
    calls: list[tuple[str, int, int]] = []
    BPETrainer(vocab_size=11, unk_token="[UNK]", progress=lambda *a: calls.append(a)).train(TOY)
    assert calls and calls[-1] == ("merges", 3, 3)


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vocab", "merges", "options", "error", "message"),
    [
        ({"a": 0, "b": 0}, [], {}, VocabularyError, "'a' and 'b' both have id 0"),
        ({"a": -1}, [], {}, VocabularyError, r"vocab\['a'\]: id must be >= 0"),
        ({"a": "0"}, [], {}, ConfigError, r"vocab\['a'\]: id must be an integer"),
        ({"a": True}, [], {}, ConfigError, "id must be an integer"),
        ({"": 0}, [], {}, VocabularyError, "empty string"),
        (["a"], [], {}, ConfigError, "vocab: must be an object"),
        ({"a": 0, "ab": 1}, [("a", "b")], {}, VocabularyError, r"merges\[0\].*uses 'b'"),
        ({"a": 0, "b": 1}, [("a", "b")], {}, VocabularyError, r"merges\[0\].*produces 'ab'"),
        ({"a": 0, "b": 1, "ab": 2}, [("a", "b"), "a b"], {}, VocabularyError, r"merges\[1\].*duplicate of merges\[0\]"),
        ({"a": 0}, [("a",)], {}, ConfigError, r"merges\[0\]: must be a pair"),
        ({"a": 0}, ["a b c"], {}, ConfigError, r"merges\[0\].*not of the form"),
        ({"a": 0}, "a b", {}, ConfigError, "merges: must be a list"),
        ({"a": 0}, [], {"unk_token": "[UNK]"}, VocabularyError, "unk_token: '\\[UNK\\]' is not in the vocabulary"),
        ({"a": 0}, [], {"special_tokens": ["<s>"]}, VocabularyError, "special_tokens: '<s>' is not in the vocabulary"),
        ({"a": 0}, [], {"unk_token": 5}, ConfigError, "unk_token: .*string"),
        ({1: 0}, [], {}, ConfigError, "token 1 must be a string"),
        ({"a": 0}, [], {"special_tokens": "a"}, ConfigError, "special_tokens: .*list"),
        ({"a": 0}, [], {"special_tokens": [1]}, ConfigError, "special_tokens"),
    ],
)
def test_model_errors(vocab: object, merges: object, options: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        BPE(vocab, merges, **options)  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        BPE.from_dict({"type": "BPE", "vocab": vocab, "merges": merges, **options})


def test_from_dict_errors_name_the_field() -> None:
    with pytest.raises(ConfigError, match="model.fuse_unkk: unknown option"):
        BPE.from_dict({"type": "BPE", "vocab": {}, "merges": [], "fuse_unkk": True})
    with pytest.raises(ConfigError, match="model.fuse_unk"):
        BPE.from_dict({"type": "BPE", "vocab": {}, "merges": [], "fuse_unk": "maybe"})
    doc = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])).to_dict()
    doc["model"]["merges"].append(["b", "a"])
    with pytest.raises(SerializationError, match=r"merges\[1\].*produces 'ba'"):
        Tokenizer.from_dict(doc)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"vocab_size": 0}, "vocab_size"),
        ({"vocab_size": "big"}, "vocab_size"),
        ({"min_frequency": -1}, "min_frequency"),
        ({"tie_break": "random"}, "tie_break"),
        ({"initial_alphabet": ["ab"]}, "initial_alphabet: entries must be single characters"),
        ({"limit_alphabet": -2}, "limit_alphabet"),
        ({"max_token_length": 0}, "max_token_length"),
    ],
)
def test_trainer_option_errors(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        BPETrainer(**options)


def test_training_errors() -> None:
    with pytest.raises(TrainingError, match="empty corpus"):
        BPETrainer().train({})
    with pytest.raises(TrainingError, match="empty corpus"):
        BPETrainer().train({"abc": 0, "": 4})
    assert not BPETrainer(vocab_size=5, unk_token="[UNK]").train(TOY).merges  # below the base: HF's alphabet
    with pytest.raises(TrainingError, match="non-negative integer"):
        BPETrainer().train({"abc": -1})
    with pytest.raises(TrainingError, match="key 3 is not a string"):
        BPETrainer().train({3: 1})  # type: ignore[dict-item]
    with pytest.raises(TrainingError, match="expects word counts"):
        BPETrainer().train(["abc"])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="trains BPE models"):
        BPETrainer().train(TOY, model=object())  # type: ignore[arg-type]
    with pytest.raises(TrainingError, match="empty corpus"):
        Tokenizer(BPE()).train([], BPETrainer())
