"""Byte-level BPE: training layout, lossless round trips, rank mode, streaming, specials, presets.

Covers :mod:`algorithms.byte_level_bpe` (``ByteLevelBPE`` in merges and rank mode,
``ByteLevelBPETrainer``), the long-piece path of :mod:`algorithms._bpe_encode` and
:mod:`toolkit.training.presets`. Tests that need ``../shared/corpora`` or a peer library skip without them.
"""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms import ByteLevelBPE, ByteLevelBPETrainer
from algorithms._bpe_encode import merge_long, merge_short
from conftest import require, shared_path
from toolkit import Regex, Tokenizer
from toolkit.training import presets
from toolkit.bytelevel import BYTE_TO_CHAR, to_byte_level
from toolkit.errors import ConfigError, InputError, SerializationError, TrainingError, VocabularyError

SAMPLE = [
    "Phileas Fogg parie vingt mille livres.",
    "Le tour du monde en quatre-vingts jours, 1872 — édition illustrée 🙂",
    "snake_case_names and CamelCaseNames with digits 12345 and 3.14159!",
    "日本語のテキストと中文文本，还有ภาษาไทย และ emoji 👩‍👩‍👧 ✨",
    "  indented   text\twith\ttabs\nand newlines\r\n",
] * 4

# Unicode the round trip must survive: emoji (with ZWJ and skin tones), CJK, Thai, combining marks,
# controls, the byte-level alphabet itself, and text that looks like special tokens.
TRICKY = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list("🙂👍🏽👩‍👧日本語中文ภาษาไทยéé\u0301\u200d\x00\x1b\x7f\r\n\t ĠĊ_<|>")),
    ),
    max_size=60,
) | st.sampled_from(["<|im_start|>", "a<|im_end|>b", "<|endoftext|>", "__init__", "🙂" * 5])


@pytest.fixture(scope="module")
def gpt2_tok() -> Tokenizer:
    tok, trainer = presets.gpt2_style(vocab_size=600)
    return tok.train(SAMPLE, trainer)


def python_docs() -> list[str]:
    """~460 kB of English prose that ships with Python (used by the demo too)."""
    from pydoc_data.topics import topics

    return list(topics.values())


@pytest.fixture(scope="module")
def chat_tok() -> Tokenizer:
    tok, trainer = presets.chat()
    return tok.train(python_docs() + SAMPLE, trainer)


# ---------------------------------------------------------------------------------------------
# Training layout (SPEC §4.3)
# ---------------------------------------------------------------------------------------------


def test_bytes_then_merges_then_specials() -> None:
    tok, _ = presets.gpt2_style()
    tok.train(SAMPLE, ByteLevelBPETrainer(vocab_size=300, special_tokens=["<a>", "<b>"]))
    model = tok.model
    assert isinstance(model, ByteLevelBPE)
    vocab = model.get_vocab()
    assert [vocab[BYTE_TO_CHAR[b]] for b in range(256)] == list(range(256))
    assert len(model.merges) == 300 - 256 - 2
    for rank, (left, right) in enumerate(model.merges):
        assert vocab[left + right] == 256 + rank
    assert model.special_tokens == {"<a>": 298, "<b>": 299}
    assert tok.vocab_size == 300 and sorted(vocab.values()) == list(range(300))


def test_chat_preset_layout_and_round_trip(chat_tok: Tokenizer) -> None:
    assert chat_tok.vocab_size == 1024
    assert chat_tok.special_tokens == {"<|im_start|>": 1022, "<|im_end|>": 1023}
    assert len(chat_tok.model.merges) == 766
    for text in ["snake_case_name", "__dunder__ _x_ a_b", "x" + "_" * 9, "_", "Phileas Fogg_42"]:
        assert chat_tok.decode(chat_tok.encode_ids(text)) == text
        assert chat_tok.decode(chat_tok.encode(text).ids) == text


def test_early_stop_puts_specials_right_after_the_merges() -> None:
    model = ByteLevelBPETrainer(vocab_size=1000, special_tokens=["<s>"]).train({"abab": 3})
    assert model.merges == [("a", "b"), ("ab", "ab")]
    assert model.special_tokens == {"<s>": 258} and model.vocab_size == 259


def test_pairs_spelling_an_existing_token_are_not_merged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # Real corpora practically never offer such a pair, so a stub engine proposes one: after "ab",
    # "bc" and "ab"+"c", the pair "a"+"bc" spells "abc" again and must be refused (None), keeping
    # one token per merge and ranks = ids - 256.
    import algorithms.byte_level_bpe as module

    answers: list[int | None] = []

    def engine(words, counts, *, merge_symbol, **options):  # type: ignore[no-untyped-def]
        a, b, c = ord("a"), ord("b"), ord("c")
        ab, bc = merge_symbol(a, b), merge_symbol(b, c)
        abc = merge_symbol(ab, c)
        answers.extend([ab, bc, abc, merge_symbol(a, bc)])
        return [(a, b, ab), (b, c, bc), (ab, c, abc)]

    monkeypatch.setattr(module, "learn_merges", engine)
    model = ByteLevelBPETrainer(vocab_size=300, special_tokens=["<s>"]).train({"abc": 1})
    assert answers == [256, 257, 258, None]
    assert model.merges == [("a", "b"), ("b", "c"), ("ab", "c")] and model.special_tokens == {"<s>": 259}


def test_merge_never_spells_a_special_token() -> None:
    model = ByteLevelBPETrainer(vocab_size=300, special_tokens=["ab"]).train({"ab": 50, "abc": 2})
    assert ("a", "b") not in model.merges
    assert model.encode_piece("ab") == (97, 98)


def test_deterministic_json_and_save_load(tmp_path: object) -> None:
    def train() -> Tokenizer:
        tok, trainer = presets.chat(vocab_size=400)
        return tok.train(SAMPLE, trainer)

    a, b = train(), train()
    assert a.to_json() == b.to_json()
    path = tmp_path / "chat.json"  # type: ignore[operator]
    a.save(path)
    for trusted in (False, True):
        loaded = Tokenizer.load(path, trusted=trusted)
        assert loaded.to_json() == a.to_json()
        for text in SAMPLE[:5]:
            assert loaded.encode_ids(text) == a.encode_ids(text)
            assert loaded.encode(text, allowed_special="all").offsets == a.encode(text, allowed_special="all").offsets


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_template_ignore_merges_kept_and_tie_break(tie_break: str) -> None:
    model = ByteLevelBPETrainer(vocab_size=270, tie_break=tie_break).train(  # type: ignore[arg-type]
        {"ab": 5, "cd": 5, "ef": 5}, model=ByteLevelBPE(ignore_merges=True)
    )
    assert model.ignore_merges
    assert model.merges == [("a", "b"), ("c", "d"), ("e", "f")]
    model = ByteLevelBPETrainer(vocab_size=270, tie_break=tie_break).train({"ef": 5, "cd": 5, "ab": 5})  # type: ignore[arg-type]
    assert model.merges[0] == (("a", "b") if tie_break == "ids" else ("e", "f"))


# ---------------------------------------------------------------------------------------------
# Lossless encoding
# ---------------------------------------------------------------------------------------------


@given(TRICKY)
def test_round_trip_gpt2_style(gpt2_tok: Tokenizer, text: str) -> None:
    ids = gpt2_tok.encode_ids(text)
    assert gpt2_tok.decode(ids) == text
    enc = gpt2_tok.encode(text)
    assert enc.ids == ids
    assert all(0 <= s <= e <= len(text) for s, e in enc.offsets)
    assert all(i < 600 - 1 for i in ids)  # the special token never comes from ordinary text


@given(TRICKY)
def test_round_trip_chat_and_stream_decoder(chat_tok: Tokenizer, text: str) -> None:
    ids = chat_tok.encode_ids(text)
    assert chat_tok.decode(ids) == text
    assert 1022 not in ids and 1023 not in ids
    stream = chat_tok.stream_decoder()
    assert "".join(stream.feed(i) for i in ids) + stream.flush() == text


def test_tokenize_spans_are_byte_spans_of_the_piece(gpt2_tok: Tokenizer) -> None:
    model = gpt2_tok.model
    piece = to_byte_level(" édition 🙂")
    tokens = model.tokenize(piece)
    assert [t for t, _, _ in tokens] == list(model.encode_piece(piece))
    assert tokens[0][1] == 0 and tokens[-1][2] == len(piece)
    assert all(a[2] == b[1] for a, b in zip(tokens, tokens[1:]))
    text = "une édition 🙂!"
    offsets = gpt2_tok.encode(text).offsets
    # Byte tokens inside one character all point at that character; spans never go backwards.
    assert offsets[0][0] == 0 and offsets[-1][1] == len(text)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(offsets, offsets[1:]))
    emoji = text.index("🙂")
    assert any(s <= emoji < e for s, e in offsets)


def test_stream_decoder_holds_incomplete_utf8() -> None:
    from pretokenizers import ByteLevel
    from toolkit import decoders

    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel())
    ids = tok.encode_ids("Bravo 🙂 !")
    assert ids[6:10] == list("🙂".encode())  # four byte tokens, no merge
    stream = tok.stream_decoder()
    out = [stream.feed(i) for i in ids]
    assert out[:6] == ["B", "r", "a", "v", "o", " "]
    assert out[6:10] == ["", "", "", "🙂"]
    assert "".join(out[10:]) + stream.flush() == " !"


def test_piece_outside_the_byte_level_alphabet_is_an_input_error() -> None:
    with pytest.raises(InputError, match="ByteLevel pre-tokenizer"):
        ByteLevelBPE().encode_piece("\n")
    with pytest.raises(TrainingError, match="byte-level words"):
        ByteLevelBPETrainer(vocab_size=300).train({"a\nb": 3})


# ---------------------------------------------------------------------------------------------
# Special tokens
# ---------------------------------------------------------------------------------------------


def test_special_tokens_are_ordinary_text_unless_allowed(chat_tok: Tokenizer) -> None:
    text = "<|im_start|>user\nhi_there<|im_end|>"
    plain = chat_tok.encode_ids(text)
    assert 1022 not in plain and 1023 not in plain and chat_tok.decode(plain) == text
    allowed = chat_tok.encode_ids(text, allowed_special="all")
    assert allowed == [1022] + chat_tok.encode_ids("user\nhi_there") + [1023]
    assert chat_tok.encode_ids(text, allowed_special={"<|im_end|>"}) == chat_tok.encode_ids("<|im_start|>user\nhi_there") + [1023]
    # Never merged with neighbours, wherever it sits.
    glued = "x<|im_end|>y<|im_end|><|im_end|>"
    assert chat_tok.encode_ids(glued, allowed_special="all") == chat_tok.encode_ids("x") + [1023] + chat_tok.encode_ids("y") + [1023, 1023]
    enc = chat_tok.encode(glued, allowed_special="all")
    assert enc.tokens[1] == "<|im_end|>" and enc.offsets[1] == (1, 11)
    assert chat_tok.decode(allowed, skip_special_tokens=False) == text
    assert chat_tok.decode(allowed, skip_special_tokens=True) == "user\nhi_there"


# ---------------------------------------------------------------------------------------------
# Rank mode (tiktoken semantics)
# ---------------------------------------------------------------------------------------------


@given(TRICKY)
def test_rank_mode_equals_merges_mode_on_a_trained_model(gpt2_tok: Tokenizer, text: str) -> None:
    model = gpt2_tok.model
    ranked = ByteLevelBPE.from_ranks(model.ranks(), special_tokens=model.special_tokens)
    as_ranks = Tokenizer(ranked, pre_tokenizer=gpt2_tok.pre_tokenizer, decoder=gpt2_tok.decoder)
    assert as_ranks.encode_ids(text) == gpt2_tok.encode_ids(text)
    assert as_ranks.get_vocab() == gpt2_tok.get_vocab()


def test_rank_mode_on_corpus_text_and_files(gpt2_tok: Tokenizer, tmp_path: object) -> None:
    model = gpt2_tok.model
    ranked = ByteLevelBPE.from_ranks(model.ranks(), special_tokens=model.special_tokens)
    assert ranked.mode == "ranks" and model.mode == "merges"
    for line in SAMPLE:
        for piece in gpt2_tok.pre_tokenizer.split_text(line):  # type: ignore[union-attr]
            assert ranked.encode_piece(piece) == model.encode_piece(piece)
            assert ranked.tokenize(piece) == model.tokenize(piece)
    # Merges derived from the ranks hold every split of each token into two tokens (as Hugging Face
    # converts tiktoken files): the trained merges and possibly more. With ignore_merges they encode
    # exactly like rank mode.
    assert set(model.merges) <= set(ranked.merges)
    derived = ByteLevelBPE(ranked.get_vocab(), ranked.merges, special_tokens=ranked.special_tokens, ignore_merges=True)
    for line in SAMPLE:
        for piece in gpt2_tok.pre_tokenizer.split_text(line):  # type: ignore[union-attr]
            assert derived.encode_piece(piece) == ranked.encode_piece(piece)
    data = ranked.to_dict()
    assert data["merges"] is None and data["mode"] == "ranks"
    again = ByteLevelBPE.from_dict(json.loads(json.dumps(data)))
    assert again.mode == "ranks" and again == ranked
    tok = Tokenizer(ranked, pre_tokenizer=gpt2_tok.pre_tokenizer, decoder=gpt2_tok.decoder)
    path = tmp_path / "ranked.json"  # type: ignore[operator]
    tok.save(path)
    assert Tokenizer.load(path).encode_ids(SAMPLE[3]) == gpt2_tok.encode_ids(SAMPLE[3])


def test_rank_mode_whole_piece_and_special_ids_beyond_ranks() -> None:
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"bc": 257, b"abc": 258, b"xyz": 259}
    model = ByteLevelBPE.from_ranks(ranks, special_tokens={"<|endoftext|>": 1000})
    # tiktoken: a piece that is a token is that token even when merges could not build it.
    assert model.encode_piece("xyz") == (259,)
    assert model.encode_piece("xyzz") == tuple(b"xyzz")
    assert model.encode_piece("abc") == (258,)
    assert model.encode_piece("<|endoftext|>") != (1000,)
    assert model.id_to_token(1000) == "<|endoftext|>" and model.token_to_id("<|endoftext|>") == 1000
    assert model.token_bytes(259) == b"xyz" and model.token_bytes(1000) is None


@pytest.mark.parity
def test_rank_mode_matches_tiktoken_cl100k() -> None:
    tiktoken = require("tiktoken")
    from pretokenizers import CL100K_PATTERN, ByteLevel, Sequence, Split

    ranks = {}
    with open(shared_path("vocab/tiktoken/cl100k_base.tiktoken"), "rb") as fh:
        for line in fh:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    specials = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258}
    enc = tiktoken.Encoding("cl100k_test", pat_str=CL100K_PATTERN, mergeable_ranks=ranks, special_tokens=specials)
    tok = Tokenizer(
        ByteLevelBPE.from_ranks(ranks, special_tokens=specials),
        pre_tokenizer=Sequence(
            [Split(Regex(CL100K_PATTERN), behavior="isolated"), ByteLevel(add_prefix_space=False, use_regex=False)]
        ),
    )
    texts = [
        shared_path("english/tinyshakespeare_input.txt").read_text(encoding="utf-8")[:20000],
        shared_path("multilingual/thai_wisesight_sentiment_neg.txt").read_text(encoding="utf-8")[:20000],
        shared_path("multilingual/chinese_xiyouji_pg23962-0.txt").read_text(encoding="utf-8")[:5000],
        "Hello <|endoftext|> world",
    ]
    for text in texts:
        assert tok.encode_ids(text) == enc.encode_ordinary(text)
    assert tok.encode_ids(texts[-1], allowed_special="all") == enc.encode(texts[-1], allowed_special="all")


# ---------------------------------------------------------------------------------------------
# Long pieces: the linked-list path
# ---------------------------------------------------------------------------------------------


@given(st.text(alphabet="abcé Ġ🙂", max_size=120))
def test_long_path_equals_list_path(gpt2_tok: Tokenizer, text: str) -> None:
    model = gpt2_tok.model
    piece = to_byte_level(text)
    syms = model._symbols(piece)
    expected = merge_short(list(syms), model._pair_rank, model._rank_id)
    assert merge_long(list(syms), model._pair_rank, model._rank_id)[0] == expected
    tiny = ByteLevelBPE.from_dict(model.to_dict(), validate=False)
    tiny.long_piece_threshold = 1
    assert list(tiny.encode_piece(piece)) == expected
    assert tiny.tokenize(piece) == model.tokenize(piece)


@given(
    st.lists(st.text(alphabet="abcd", min_size=2, max_size=5), max_size=25, unique=True),
    st.text(alphabet="abcd", max_size=60),
)
def test_long_path_with_foreign_rank_orders(tokens: list[str], text: str) -> None:
    # Arbitrary rank tables: a token may rank below its own parts, so a merge can create a pair
    # ranked below the one being processed (the interrupt case of merge_long).
    ranks = {bytes([b]): b for b in range(256)}
    for token in tokens:
        ranks[token.encode()] = len(ranks)
    model = ByteLevelBPE.from_ranks(ranks)
    syms = model._symbols(text)
    expected = merge_short(list(syms), model._pair_rank, model._rank_id)
    assert merge_long(list(syms), model._pair_rank, model._rank_id)[0] == expected


@pytest.mark.parametrize("text", ["abc", "abcbcabc", "xbcabcbcbc", "bcbcabca"])
def test_long_path_interrupts_for_lower_ranked_new_pairs(text: str) -> None:
    # "abc" ranks below its part "bc", and "bcx"-style right pairs below "bc" too: merging "bc"
    # creates lower-ranked pairs on both sides, which must be merged before the next "bc".
    ranks = {bytes([b]): b for b in range(256)} | {b"abc": 256, b"bca": 257, b"bc": 300}
    model = ByteLevelBPE.from_ranks(ranks)
    syms = model._symbols(text)
    expected = merge_short(list(syms), model._pair_rank, model._rank_id)
    assert merge_long(list(syms), model._pair_rank, model._rank_id)[0] == expected


def test_one_million_identical_bytes(gpt2_tok: Tokenizer) -> None:
    from pretokenizers import ByteLevel

    model = ByteLevelBPETrainer(vocab_size=270).train({"a" * 64: 1})
    tok = Tokenizer(model, pre_tokenizer=ByteLevel(add_prefix_space=False, use_regex=False))
    ids = tok.encode_ids("a" * 1_000_000)
    assert sum(len(model.token_bytes(i)) for i in ids) == 1_000_000  # type: ignore[arg-type]
    assert len(ids) < 1_000_000 // 32


def test_one_megabyte_without_spaces(gpt2_tok: Tokenizer) -> None:
    from pretokenizers import ByteLevel

    text = shared_path("english/tinyshakespeare_input.txt").read_text(encoding="utf-8")
    text = "".join(text.split())[:1_000_000]
    tok = Tokenizer(gpt2_tok.model, pre_tokenizer=ByteLevel(add_prefix_space=False, use_regex=False), decoder=gpt2_tok.decoder)
    ids = tok.encode_ids(text)
    assert tok.decode(ids) == text


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


def _bytes_vocab() -> dict[str, int]:
    return {c: b for b, c in enumerate(BYTE_TO_CHAR)}


@pytest.mark.parametrize(
    ("vocab", "merges", "specials", "error", "message"),
    [
        ({"a": 0}, [], (), VocabularyError, "needs all 256 single-byte tokens; 255 missing"),
        ({}, [], (), VocabularyError, "vocab is empty: .* needs at least the 256 single-byte tokens"),
        (_bytes_vocab() | {"ab": 3}, [], (), VocabularyError, "'\\\\x03'|both have id 3"),
        (_bytes_vocab() | {"ab": -1}, [], (), VocabularyError, "id must be >= 0"),
        (_bytes_vocab() | {"ab": 1.5}, [], (), ConfigError, "id must be an integer"),
        (_bytes_vocab(), [("a", "b")], (), VocabularyError, r"merges\[0\].*produces 'ab'"),
        (_bytes_vocab(), [("a", "zz")], (), VocabularyError, r"merges\[0\].*uses 'zz'"),
        (_bytes_vocab() | {"ab": 256}, [("a", "b"), ("a", "b")], (), VocabularyError, "duplicate"),
        (_bytes_vocab(), [], ["<s>"], VocabularyError, "'<s>' is not in the vocabulary"),
        (_bytes_vocab(), [], {"<s>": 5}, VocabularyError, "id 5 is already the id of"),
        (_bytes_vocab(), [], {"a": 300}, VocabularyError, "differs from its vocabulary id 97"),
        (_bytes_vocab(), [], {"<s>": -3}, ConfigError, "id must be an integer >= 0"),
        (_bytes_vocab(), [], "<s>", ConfigError, "special_tokens.*valid list"),
        (_bytes_vocab(), [], {"": 300}, ConfigError, "must be a non-empty string"),
        (_bytes_vocab(), [], [7], ConfigError, "special_tokens.*valid string"),
    ],
)
def test_model_errors(vocab: object, merges: object, specials: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        ByteLevelBPE(vocab, merges, special_tokens=specials)  # type: ignore[arg-type]


def test_special_tokens_as_a_list_of_vocabulary_entries() -> None:
    model = ByteLevelBPE(_bytes_vocab() | {"<s>": 256}, [], special_tokens=["<s>"])
    assert model.special_tokens == {"<s>": 256}
    assert model.encode_piece("<s>") == tuple(b"<s>")


def test_from_ranks_errors() -> None:
    base = {bytes([b]): b for b in range(256)}
    with pytest.raises(VocabularyError, match="256 single-byte tokens; 1 missing"):
        ByteLevelBPE.from_ranks({k: v for k, v in base.items() if k != b"\x00"})
    with pytest.raises(VocabularyError, match="both have rank 3"):
        ByteLevelBPE.from_ranks(base | {b"ab": 3})
    with pytest.raises(VocabularyError, match="must be >= 0"):
        ByteLevelBPE.from_ranks(base | {b"ab": -1})
    with pytest.raises(ConfigError, match="non-empty bytes"):
        ByteLevelBPE.from_ranks(base | {"ab": 300})  # type: ignore[operator]
    with pytest.raises(ConfigError, match="must be an integer"):
        ByteLevelBPE.from_ranks(base | {b"ab": "300"})  # type: ignore[operator]
    with pytest.raises(VocabularyError, match="already the id of"):
        ByteLevelBPE.from_ranks(base, special_tokens={"<s>": 7})
    with pytest.raises(ConfigError, match="must be a mapping"):
        ByteLevelBPE.from_ranks([b"a"])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="must map token strings to ids"):
        ByteLevelBPE.from_ranks(base, special_tokens=["<s>"])  # type: ignore[arg-type]


def test_from_dict_and_file_errors() -> None:
    with pytest.raises(ConfigError, match="model.mode"):
        ByteLevelBPE.from_dict({"type": "ByteLevelBPE", "mode": "tiktoken"})
    with pytest.raises(ConfigError, match="model.extra: unknown option"):
        ByteLevelBPE.from_dict({"type": "ByteLevelBPE", "extra": 1})
    with pytest.raises(VocabularyError, match="is not a byte-level character"):
        ByteLevelBPE.from_dict({"type": "ByteLevelBPE", "mode": "ranks", "vocab": _bytes_vocab() | {"\n": 300}})
    doc = Tokenizer(ByteLevelBPE()).to_dict()
    del doc["model"]["vocab"]["Ġ"]
    with pytest.raises(SerializationError, match=r"'Ġ' \(byte 0x20\)"):
        Tokenizer.from_dict(doc)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"vocab_size": 255}, "vocab_size: 255 is too small.*at least 256"),
        ({"vocab_size": 257, "special_tokens": ["<a>", "<b>"]}, "at least 258"),
        ({"special_tokens": ["<a>", "<a>"]}, "duplicates"),
        ({"special_tokens": [""]}, "empty string"),
        ({"tie_break": "alphabetical"}, "tie_break"),
        ({"min_frequency": -1}, "min_frequency"),
        ({"max_token_length": 0}, "max_token_length"),
    ],
)
def test_trainer_option_errors(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ByteLevelBPETrainer(**options)


def test_training_errors() -> None:
    with pytest.raises(TrainingError, match="empty corpus"):
        ByteLevelBPETrainer(vocab_size=300).train({})
    with pytest.raises(ConfigError, match="trains ByteLevelBPE models"):
        ByteLevelBPETrainer(vocab_size=300).train({"a": 1}, model=object())  # type: ignore[arg-type]
    tok, trainer = presets.gpt2_style()
    with pytest.raises(TrainingError, match="empty corpus"):
        tok.train(["", ""], trainer)


def test_hf_recipe_initial_alphabet_is_accepted_and_changes_nothing() -> None:
    """HF's byte-level recipe passes ``initial_alphabet=ByteLevel.alphabet()``; ours always has the
    256 byte symbols, so the option may list them and changes nothing; anything else is refused."""
    from algorithms import ByteLevelBPETrainer
    from pretokenizers import ByteLevel
    from toolkit.errors import ConfigError
    counts = {"Ġhello": 5, "Ġworld": 3, "hello": 2}
    plain = ByteLevelBPETrainer(vocab_size=270, show_progress=False).train(counts)
    recipe = ByteLevelBPETrainer(vocab_size=270, initial_alphabet=ByteLevel.alphabet(), show_progress=False).train(counts)
    assert recipe.get_vocab() == plain.get_vocab() and recipe.merges == plain.merges
    with pytest.raises(ConfigError, match="initial_alphabet: '中' is not one of the 256 byte symbols"):
        ByteLevelBPETrainer(initial_alphabet=["中"])
