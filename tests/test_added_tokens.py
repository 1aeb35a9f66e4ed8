"""Added tokens against Hugging Face ``tokenizers``: every flag combination on real text.

Our tokenizers (a lowercasing BERT WordPiece pipeline and a byte-level GPT-2 pipeline, trained on
Python's own text) are exported to ``tokenizer.json`` and loaded in HF; the same added tokens go into
both, and ids, tokens, offsets and decoded text must agree, with special tokens allowed (HF's
default) and not allowed (HF's ``encode_special_tokens=True``, our default). Also: JSON round trips,
hypothesis properties, the typed errors of bad input, and the tiktoken names against tiktoken.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import require
from hypothesis import given
from hypothesis import strategies as st
from test_interop_hf_json import byte_level_gpt2, sample_texts, wordpiece_bert

from toolkit import AddedToken, Tokenizer
from toolkit.errors import ConfigError, SerializationError

tokenizers = require("tokenizers")

FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")
COMBINATIONS = [dict(zip(FLAGS, values)) for values in itertools.product((False, True), repeat=5)]
#: Contents that test each rule: case (normalized), inside words (single_word), spaces (strip), overlap
#: (longest first), non-ASCII, and a token whose text the model would split.
CONTENTS = ["<tool>", "Yes", "new york", "is", "<tool>call", "été", "ab"]

_PIPELINES: dict[str, Tokenizer] = {}


def pipeline(name: str) -> Tokenizer:
    if name not in _PIPELINES:
        _PIPELINES[name] = {"bert": wordpiece_bert, "byte_level": byte_level_gpt2}[name]()
    return Tokenizer.from_json(_PIPELINES[name].to_json())


def texts_with_tokens(seed: int, count: int = 40) -> list[str]:
    """Real lines with the contents typed in at random places, with and without spaces and case."""
    rnd = random.Random(seed)
    lines = [t for t in sample_texts() if t.strip()]
    out = []
    for _ in range(count):
        words = rnd.choice(lines).split(" ")
        for _ in range(rnd.randint(1, 4)):
            content = rnd.choice(CONTENTS + ["NEW YORK", "yes", "IS"])
            glue = rnd.choice(["", " ", "  ", "\t", "x"])
            words.insert(rnd.randint(0, len(words)), glue + content + rnd.choice(["", " ", "  ", "y"]))
        out.append(" ".join(words))
    return out + ["", "<tool><tool>call", "isis is", " new york ", "Yes<tool>yes"]


def hf_of(tok: Tokenizer, tmp_path: Path, name: str = "tokenizer.json") -> Any:
    path = tmp_path / name
    tok.to_hf_json(path)
    return tokenizers.Tokenizer.from_file(str(path))


def add_both(tok: Tokenizer, hf: Any, flags: dict[str, bool]) -> None:
    ours = [AddedToken(c, **flags) for c in CONTENTS]
    theirs = [tokenizers.AddedToken(c, **flags) for c in CONTENTS]
    if flags["special"]:
        assert tok.add_special_tokens(ours) == hf.add_special_tokens(theirs)
    else:
        assert tok.add_tokens(ours) == hf.add_tokens(theirs)


def assert_same(tok: Tokenizer, hf: Any, texts: list[str], *, typed_specials_as_text: bool = True) -> None:
    modes = (("all", False), ((), True)) if typed_specials_as_text else (("all", False),)
    for allowed, split_specials in modes:
        hf.encode_special_tokens = split_specials
        for text in texts:
            enc, expected = tok.encode(text, allowed_special=allowed), hf.encode(text)
            assert (enc.ids, enc.tokens, enc.offsets) == (expected.ids, expected.tokens, expected.offsets), text
            assert tok.encode_ids(text, allowed_special=allowed) == expected.ids, text
            assert tok.decode(enc.ids) == hf.decode(expected.ids), text
            assert tok.decode(enc.ids, skip_special_tokens=False) == hf.decode(expected.ids, skip_special_tokens=False)
    hf.encode_special_tokens = False


@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize("name", ["bert", "byte_level"])
def test_default_flags_are_decided_when_added_like_hf(name: str, special: bool, tmp_path: Path) -> None:
    """``AddedToken(c)`` without ``normalized=``: HF decides ``normalized = not special`` when the token
    is added, so ``add_special_tokens`` makes it unnormalized; an explicit value stays. Empty contents
    are skipped, and ``str()`` is the content."""
    tok = pipeline(name)
    hf = hf_of(tok, tmp_path)
    ours = [AddedToken(c) for c in CONTENTS] + [AddedToken("NEW", normalized=True), AddedToken(""), ""]
    theirs = [tokenizers.AddedToken(c) for c in CONTENTS] + [tokenizers.AddedToken("NEW", normalized=True),
                                                            tokenizers.AddedToken(""), ""]
    add = (lambda t, items: t.add_special_tokens(items)) if special else (lambda t, items: t.add_tokens(items))
    assert add(tok, ours) == add(hf, theirs) == len(CONTENTS) + 1
    assert {i: (str(t), t.normalized, t.special) for i, t in tok.get_added_tokens_decoder().items()} == {
        i: (str(t), t.normalized, t.special) for i, t in hf.get_added_tokens_decoder().items()
    }
    assert_same(tok, hf, texts_with_tokens(seed=7 + special) + ["new NEW New", "x <TOOL> y"])
    # A pickled token keeps the default undecided
    again = pickle.loads(pickle.dumps(AddedToken("<t2>")))
    assert again.normalized is True and tok.add_special_tokens([again]) == 1
    assert tok.get_added_tokens_decoder()[tok.token_to_id("<t2>")].normalized is False


@pytest.mark.parametrize("flags", COMBINATIONS, ids=lambda f: "-".join(k for k, v in f.items() if v) or "plain")
@pytest.mark.parametrize("name", ["bert", "byte_level"])
def test_every_flag_combination_like_hf(name: str, flags: dict[str, bool], tmp_path: Path) -> None:
    tok = pipeline(name)
    hf = hf_of(tok, tmp_path)
    add_both(tok, hf, flags)
    assert tok.get_vocab() == hf.get_vocab()
    assert tok.get_vocab_size() == hf.get_vocab_size()
    assert {i: t.content for i, t in tok.get_added_tokens_decoder().items()} == {
        i: t.content for i, t in hf.get_added_tokens_decoder().items()
    }
    texts = texts_with_tokens(seed=len(name) * 31 + sum(v << i for i, v in enumerate(flags.values())))
    assert_same(tok, hf, texts)
    # Exported with the added tokens, HF reads the same flags and gives the same ids; so do we.
    again = hf_of(tok, tmp_path, "again.json")
    assert_same(tok, again, texts[:10])
    # Read from a file, special tokens are the model's: one that is also a vocabulary entry ("is",
    # "ab") is then never produced from ordinary text (a deliberate difference, docs/migrating.md).
    # (With single_word, a refused match is ordinary text too.)
    imported = Tokenizer.from_hf_json(tmp_path / "again.json")
    assert imported.get_added_tokens_decoder() == tok.get_added_tokens_decoder()
    if not (flags["special"] and flags["single_word"]):
        assert_same(imported, hf, texts[:10], typed_specials_as_text=not flags["special"])
    assert_same(Tokenizer.from_json(tok.to_json()), hf, texts[:10])


def test_mixed_flags_and_specials_like_hf(tmp_path: Path) -> None:
    """Several kinds at once, the model's own special tokens included, in HF's id order."""
    tok = pipeline("byte_level")
    hf = hf_of(tok, tmp_path)
    plain = [("<tool>", {"rstrip": True}), ("is", {"single_word": True}), "Yes", ("ab", {"lstrip": True})]
    special = [("<|user|>", {"lstrip": True, "rstrip": True}), "<|end|>"]
    for kind, args in (("add_tokens", plain), ("add_special_tokens", special)):  # the same arguments to both
        getattr(tok, kind)([a if isinstance(a, str) else AddedToken(a[0], **a[1]) for a in args])
        getattr(hf, kind)([a if isinstance(a, str) else tokenizers.AddedToken(a[0], **a[1]) for a in args])
    texts = [t.replace("the", " <|user|> ").replace("an", "<|end|>") for t in texts_with_tokens(7)]
    assert_same(tok, hf, texts)


def test_added_ids_follow_the_model_vocabulary_as_hf(tmp_path: Path) -> None:
    tok = pipeline("bert")
    hf = hf_of(tok, tmp_path)
    size = tok.get_vocab_size()
    known = tok.id_to_token(100)
    assert tok.add_tokens(["brandnew", known, "brandnew"]) == hf.add_tokens(["brandnew", known, "brandnew"]) == 2
    assert tok.token_to_id("brandnew") == hf.token_to_id("brandnew") == size
    assert tok.token_to_id(known) == hf.token_to_id(known) == 100  # already known: keeps its id
    assert tok.add_special_tokens(["[NEW]"]) == hf.add_special_tokens(["[NEW]"]) == 1
    assert tok.token_to_id("[NEW]") == hf.token_to_id("[NEW]") == size + 1
    assert tok.add_tokens([AddedToken("brandnew", single_word=True)]) == 1  # new flags: replaced, same id
    assert tok.get_added_tokens_decoder()[size] == AddedToken("brandnew", single_word=True)
    assert tok.get_vocab_size(with_added_tokens=False) == size
    assert tok.n_vocab == size + 2
    assert "[NEW]" in tok.special_tokens and tok.id_to_token(size + 1) == "[NEW]"


def test_longest_match_first_and_offsets_into_original_text() -> None:
    tok = pipeline("bert")
    tok.add_tokens(["new", "new york", AddedToken("YORK CITY", normalized=False)])
    text = "I love NEW YORK CITY and New York"
    enc = tok.encode(text)
    added = [(t, text[s:e]) for t, (s, e) in zip(enc.tokens, enc.offsets) if t in ("new", "new york", "YORK CITY")]
    # Raw-text tokens are cut first, so "NEW" cannot become "new york" across them (as HF).
    assert added == [("new", "NEW"), ("YORK CITY", "YORK CITY"), ("new york", "New York")]


def test_json_and_pickle_round_trip_keep_added_tokens() -> None:
    tok = pipeline("byte_level")
    tok.add_tokens([AddedToken("<tool>", single_word=True, rstrip=True), "Yes"])
    tok.add_special_tokens(["<|end|>"])
    text = "Yes <tool> x<|end|>"
    for other in (Tokenizer.from_json(tok.to_json()), pickle.loads(pickle.dumps(tok))):
        assert other.get_added_tokens_decoder() == tok.get_added_tokens_decoder()
        assert other.encode(text, allowed_special="all").ids == tok.encode(text, allowed_special="all").ids
    assert "added_tokens" in tok.to_dict()
    assert tok.encode_batch([text, text], num_workers=2)[1].ids == tok.encode(text).ids


# ------------------------------------------------------------------------------------ properties
_ALPHABET = st.sampled_from(["<tool>", "Yes", "yes", " ", "  ", "is", "a", "é", "\n", "ab", "<", "x", "<|end|>"])


@given(parts=st.lists(_ALPHABET, max_size=25), flags=st.sampled_from(COMBINATIONS))
def test_properties_of_added_tokens(parts: list[str], flags: dict[str, bool]) -> None:
    tok = _property_pipeline(tuple(flags.items()))
    text = "".join(parts)
    for allowed in ((), "all"):
        enc = tok.encode(text, allowed_special=allowed)
        assert tok.encode_ids(text, allowed_special=allowed) == enc.ids
        for token_id, token, (s, e) in zip(enc.ids, enc.tokens, enc.offsets):
            assert 0 <= s <= e <= len(text)
            added = tok.get_added_tokens_decoder().get(token_id)
            if added is not None and not added.normalized and token_id != tok.token_to_id("<|end|>"):
                assert token == text[s:e] and token.strip() in (added.content, added.content.strip())
        assert all(b[0] >= a[0] for a, b in zip(enc.offsets, enc.offsets[1:]))  # in text order
    # Byte-level: nothing is lost, except the whitespace that lstrip / rstrip tokens take in (as HF).
    if not (flags["lstrip"] or flags["rstrip"]):
        assert tok.decode(tok.encode_ids(text), skip_special_tokens=False) == text


_PROPERTY_CACHE: dict[Any, Tokenizer] = {}


def _property_pipeline(key: Any) -> Tokenizer:
    if key not in _PROPERTY_CACHE:
        tok = pipeline("byte_level")
        flags = dict(key)
        tokens = [AddedToken(c, **flags) for c in ("<tool>", "Yes", "is", "ab")]
        (tok.add_special_tokens if flags["special"] else tok.add_tokens)(tokens)
        tok.add_special_tokens(["<|end|>"])
        _PROPERTY_CACHE[key] = tok
    return _PROPERTY_CACHE[key]


# ------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: AddedToken(5), "content must be a str"),  # type: ignore[arg-type]
        (lambda: AddedToken("x", lstrip=1), "lstrip must be True or False"),  # type: ignore[arg-type]
        (lambda: AddedToken("x", normalized="no"), "normalized must be True or False"),  # type: ignore[arg-type]
    ],
)
def test_bad_added_token_is_a_config_error(make: Any, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        make()


def test_added_token_is_immutable_and_hashable() -> None:
    token = AddedToken("x", rstrip=True)
    with pytest.raises(ConfigError, match="immutable"):
        token.rstrip = False  # type: ignore[misc]
    assert {token: 1}[AddedToken("x", rstrip=True)] == 1
    assert AddedToken("<s>", special=True).normalized is False and AddedToken("a").normalized is True
    assert copy.copy(token) == token == pickle.loads(pickle.dumps(token))


def test_bad_arguments_to_add_tokens() -> None:
    tok = pipeline("bert")
    with pytest.raises(ConfigError, match="str or AddedToken"):
        tok.add_tokens([3])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="list of str or AddedToken"):
        tok.add_tokens(3)  # type: ignore[arg-type]
    assert tok.add_special_tokens([""]) == tok.add_tokens(["", AddedToken("")]) == 0  # skipped, as in HF


@pytest.mark.parametrize(
    "entry, match",
    [
        ({"id": 5, "content": ""}, "content: must be a non-empty string"),
        ({"id": -1, "content": "x"}, "id: must be an integer from 0 to 2147483647"),
        ({"id": 5, "content": "x", "lstrip": "yes"}, "lstrip: must be true or false"),
        ("x", "must be an object"),
    ],
)
def test_bad_added_tokens_in_our_file(entry: Any, match: str) -> None:
    doc = pipeline("bert").to_dict()
    doc["added_tokens"] = [entry]
    with pytest.raises(SerializationError, match=match):
        Tokenizer.from_dict(doc)
    doc["added_tokens"] = [{"id": 900, "content": "a"}, {"id": 900, "content": "b"}]
    with pytest.raises(SerializationError, match="already the id of 'a'"):
        Tokenizer.from_dict(doc)


@pytest.mark.parametrize(("added", "text"), [
    ([("<new0>", True, True), ("\n", True, False)], "<new0>\n"),
    ([("<new0>", True, True), ("\n", True, False)], "a <new0> \nb"),
    ([(" x", True, True)], " x x"),
    ([(" x", True, True)], " x  x x"),
    ([("ab", False, True), ("b", True, False)], "ab b"),
    ([("ab", False, True), ("cd", False, False)], "ab  cd"),
])
def test_a_match_whose_text_the_previous_rstrip_took_is_clamped_as_in_hf(
    added: list[tuple[str, bool, bool]], text: str
) -> None:
    """HF never starts an lstrip token before the end of the previous match (whose rstrip may have taken
    its first characters), and drops it when nothing is left."""
    from algorithms import WordLevel
    from pretokenizers import WhitespaceSplit

    vocab = {"[UNK]": 0, "a": 1, "b": 2, "x": 3}
    ours = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, "[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    ours.add_tokens([AddedToken(c, lstrip=lstrip, rstrip=rstrip, normalized=False) for c, lstrip, rstrip in added])
    hf.add_tokens([tokenizers.AddedToken(c, lstrip=lstrip, rstrip=rstrip, normalized=False) for c, lstrip, rstrip in added])
    a, b = ours.encode(text), hf.encode(text)
    assert (a.ids, a.tokens, a.offsets) == (b.ids, b.tokens, b.offsets)
    assert ours.encode_ids(text) == b.ids


def test_matches_inside_the_rstrip_of_the_previous_token_are_dropped() -> None:
    """Where two later matches fall inside the whitespace an rstrip took, HF panics ("bad split"); ours
    drops them: the text is covered once."""
    from algorithms import WordLevel
    from pretokenizers import WhitespaceSplit

    ours = Tokenizer(WordLevel({"[UNK]": 0, "a": 1, "b": 2}, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    ours.add_tokens([AddedToken("<new0>", lstrip=True, rstrip=True, normalized=False),
                     AddedToken("\n", lstrip=True, normalized=False)])
    enc = ours.encode("a <new0>  \n\nb")
    assert enc.tokens == ["a", " <new0>  \n\n", "b"] and enc.offsets == [(0, 1), (1, 12), (12, 13)]


#: Metaspace(prepend_scheme="first") gives the "▁" only to the start of the text: text after an added
#: token (special, or normalized=False) is not the start, in HF as in ours.
_FIRST_VOCAB = {"[UNK]": 0, "▁": 1, "▁hello": 2, "hello": 3, "▁world": 4, "world": 5, "▁x": 6, "x": 7}


def _metaspace_first_pair() -> tuple[Tokenizer, Any]:
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(_FIRST_VOCAB, unk_token="[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace(prepend_scheme="first")
    hf.add_tokens([tokenizers.AddedToken("<sep>", normalized=False), tokenizers.AddedToken("<n>", normalized=True)])
    hf.add_special_tokens(["<s>"])
    return Tokenizer.from_str(hf.to_str()), hf


_METASPACE_FIRST = _metaspace_first_pair()


@given(parts=st.lists(st.sampled_from(["hello", "world", "x", " ", "  ", "<sep>", "<n>", "<s>", "hello world"]),
                      max_size=8))
def test_metaspace_first_after_added_tokens_like_hf(parts: list[str]) -> None:
    ours, hf = _METASPACE_FIRST
    text = "".join(parts)
    mine, theirs = ours.encode(text, allowed_special="all"), hf.encode(text)
    assert (mine.ids, mine.tokens, mine.offsets) == (theirs.ids, theirs.tokens, theirs.offsets), text
    assert ours.encode_ids(text, allowed_special="all") == theirs.ids
    hf.encode_special_tokens = True
    try:
        assert ours.encode(text).ids == ours.encode_ids(text) == hf.encode(text).ids, text
    finally:
        hf.encode_special_tokens = False



def _single_word_pair() -> tuple[Tokenizer, Any]:
    from algorithms import WordLevel
    from pretokenizers import WhitespaceSplit

    vocab = {"[UNK]": 0, "x": 1}
    ours = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    ours.add_tokens([AddedToken("x", single_word=True)])
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, "[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    hf.add_tokens([tokenizers.AddedToken("x", single_word=True)])
    return ours, hf


def _single_word_texts(step: int) -> list[str]:
    points = [c for c in range(0, 0x110000, step) if not 0xD800 <= c < 0xE000]
    # letters the installed regex module knows and HF's Unicode 15.1 does not, and a mark
    points += [0x3D000, 0x1ACF, 0x558, 0x31350, 0x0301]
    # 500 code points a text, each once after and once before a token "x", separated by spaces
    return [" ".join(t for c in points[k:k + 500] for t in (f"x{chr(c)}", f"{chr(c)}x"))
            for k in range(0, len(points), 500)]


@pytest.mark.parametrize("step", [pytest.param(1, marks=pytest.mark.slow), 97])
def test_single_word_uses_hfs_word_characters_on_every_code_point(step: int) -> None:
    """HF's ``single_word`` asks the Rust regex crate's ``\\w`` (Unicode 15.1); the installed
    ``regex`` module's tables are newer. Every code point (slow set; every 97th by default) before
    and after the token."""
    ours, hf = _single_word_pair()
    texts = _single_word_texts(step)
    expected = [e.ids for e in hf.encode_batch(texts)]
    assert [ours.encode(t).ids for t in texts] == expected
    assert ours.encode("x\U0003d000").ids == [1, 0]  # not a letter for HF yet: "x" is a single word


def test_the_special_tokens_are_gathered_once_until_a_token_is_added_or_an_option_changes(monkeypatch: Any) -> None:
    """``allowed_special="all"`` and every text holding an added token need the special tokens; gathering
    them read every added token on each call (Gemma 3's 6,415: 15 times the encode itself). Kept until
    a token is added or an option changes, and then gathered anew."""
    from algorithms import WordLevel
    from pretokenizers import Whitespace
    from toolkit.added_tokens import AddedVocabulary

    tok = Tokenizer(WordLevel({"[UNK]": 0, "[CLS]": 1, "hi": 2}, unk_token="[UNK]", special_tokens=["[CLS]"]),
                    pre_tokenizer=Whitespace())
    tok.add_special_tokens([f"<s{i}>" for i in range(50)])
    gathered = []
    real = AddedVocabulary.special_tokens.fget
    monkeypatch.setattr(AddedVocabulary, "special_tokens", property(lambda self: gathered.append(1) or real(self)))
    for _ in range(20):
        assert tok.encode_ids("<s3> hi [CLS]", allowed_special="all") == [6, 2, 1]
        assert tok.encode("<s3> hi", allowed_special="all").special_tokens_mask == [1, 0]
    assert len(gathered) == 1
    tok.add_special_tokens(["<new>"])
    assert tok.encode_ids("<new> hi", allowed_special="all") == [tok.token_to_id("<new>"), 2]
    tok.model.special_tokens = []
    assert "[CLS]" not in tok.special_tokens
    assert tok.encode_ids("[CLS]", allowed_special="all") == tok.encode_ids("[CLS]") != [1]
    assert tok.special_tokens == dict(tok.special_tokens)  # a copy the caller may change
    tok.special_tokens["x"] = 1
    assert "x" not in tok.special_tokens
    before = len(gathered)
    for _ in range(10):
        tok.encode_ids("<new> hi", allowed_special="all")
    assert len(gathered) == before


def test_adding_tokens_one_at_a_time_reads_the_model_vocabulary_once(monkeypatch: Any) -> None:
    """Each add read the whole model vocabulary (Llama 3: 128k tokens, 500 adds 1.9 s, HF 0.1 s); the
    next id and the vocabulary size are kept per model and option generation, and stay exact."""
    from algorithms import WordLevel

    model = WordLevel({"[UNK]": 0, "a": 1, "b": 7}, unk_token="[UNK]")
    tok = Tokenizer(model)
    reads = []
    real = type(model).get_vocab
    monkeypatch.setattr(type(model), "get_vocab", lambda self: reads.append(1) or real(self))
    for i in range(30):
        tok.add_tokens([f"<t{i}>"])
        assert tok.get_vocab_size() == 3 + i + 1
    assert len(reads) == 30 + 1  # the size once per add (the tokens changed), the next id once (it was 60)
    assert tok.token_to_id("<t0>") == 8 and tok.token_to_id("<t29>") == 37  # after the largest id, 7
    before = len(reads)
    for _ in range(10):
        tok.get_vocab_size()
    assert len(reads) == before
    tok.add_tokens(["a", AddedToken("<t3>")])  # "a" is the model's (its id 1): no new id; "<t3>" held already
    assert tok.token_to_id("a") == 1 and tok.get_vocab_size() == 33
    tok.model = WordLevel({"[UNK]": 0, "z": 50}, unk_token="[UNK]")  # another model: another next id
    tok.add_tokens(["<new>"])
    assert tok.token_to_id("<new>") == 51 and tok.get_vocab_size() == len(tok.get_vocab())
