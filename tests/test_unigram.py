"""The Unigram model: known answers, Hugging Face parity, n-best, sampling, options and bad input."""

from __future__ import annotations

import collections
import json
import math

import pytest
from conftest import shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import Unigram
from algorithms._lattice import build_table, nbest, viterbi
from toolkit import Tokenizer
from toolkit.errors import ConfigError, InputError, VocabularyError
from toolkit.interfaces import build

tokenizers = pytest.importorskip("tokenizers")

VOCAB = [("<unk>", 0.0), ("a", -2.0), ("b", -2.0), ("ab", -3.0), ("▁", -1.0), ("▁a", -1.5), ("<0x78>", -5.0)]


def _pieces(model: Unigram, text: str) -> list[str]:
    return [model.id_to_token(i) for i in model.encode_piece(text)]


# --------------------------------------------------------------------------- known answers

def test_viterbi_known_answers() -> None:
    model = Unigram(VOCAB, 0)
    assert _pieces(model, "abba") == ["ab", "b", "a"]  # -3 -2 -2 beats -2 -2 -2 -2
    assert _pieces(model, "▁ab") == ["▁a", "b"]  # -1.5 -2 beats -1 -3
    assert model.tokenize("axxb") == [(1, 0, 1), (0, 1, 3), (2, 3, 4)]  # two unknown characters, one <unk>
    assert model.encode_piece("") == () and model.tokenize("") == []


def test_ties_go_to_the_earliest_start_then_the_shortest_piece() -> None:
    # "ab" alone and "a"+"b" both score -2: the lattice keeps the first candidate found for position 2,
    # which is "ab" (it starts at 0, before "b" starting at 1 is examined).
    model = Unigram([("a", -1.0), ("b", -1.0), ("ab", -2.0)])
    assert _pieces(model, "ab") == ["ab"]
    # "a"+"bc" and "ab"+"c" tie at -3: the edge into position 3 from start 1 ("bc") is examined before
    # the one from start 2 ("c"), and a later candidate must score strictly higher.
    model = Unigram([("a", -1.0), ("b", -1.0), ("c", -1.0), ("ab", -2.0), ("bc", -2.0)])
    assert _pieces(model, "abc") == ["a", "bc"]


def test_byte_fallback() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0)] + [(f"<0x{b:02X}>", -5.0) for b in range(256)]
    model = Unigram(vocab, 0, True)
    assert _pieces(model, "aé") == ["a", "<0xC3>", "<0xA9>"]
    # the fused unknown run spans every byte token
    assert model.tokenize("éé")[0][1:] == (0, 2) and len(model.tokenize("éé")) == 4
    partial = Unigram(VOCAB, 0, True)  # "<0x78>" only: "xy" falls back to <unk>
    assert _pieces(partial, "xy") == ["<unk>"] and _pieces(partial, "x") == ["<0x78>"]


def test_unknown_without_unk_id_is_a_typed_error() -> None:
    with pytest.raises(InputError, match="unk_id"):
        Unigram([("a", -1.0)]).encode_piece("ab")
    with pytest.raises(VocabularyError, match="no vocabulary"):
        Unigram().encode_piece("a")


@pytest.mark.parametrize(
    ("vocab", "error", "match"),
    [
        ({"a": -1.0}, ConfigError, "list of"),
        ([("a", -1.0, 3)], ConfigError, "pair"),
        ([("", -1.0)], VocabularyError, "non-empty"),
        ([("a", "x")], VocabularyError, "finite"),
        ([("a", float("nan"))], VocabularyError, "finite"),
        ([("a", -1.0), ("a", -2.0)], VocabularyError, "twice"),
    ],
)
def test_bad_vocabularies(vocab: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        Unigram(vocab)  # type: ignore[arg-type]


def test_bad_options() -> None:
    with pytest.raises(VocabularyError, match="unk_id"):
        Unigram(VOCAB, 99)
    with pytest.raises(ConfigError):
        Unigram(VOCAB, 0, alpha=-1.0)
    with pytest.raises(ConfigError):
        Unigram(VOCAB, 0, True, "x")  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match="n must be"):
        Unigram(VOCAB, 0).nbest("ab", -1)


def test_special_tokens_are_not_matched_inside_text() -> None:
    vocab = [("<unk>", 0.0), ("</s>", 0.0), ("<", -1.0), ("/", -1.0), ("s", -1.0), (">", -1.0)]
    assert _pieces(Unigram(vocab, 0), "</s>") == ["</s>"]  # HF: every piece is matched
    special = Unigram(vocab, 0, special_tokens=["</s>"])
    assert _pieces(special, "</s>") == ["<", "/", "s", ">"] and special.special_tokens == {"</s>": 1}


def test_json_round_trip_and_live_options() -> None:
    model = Unigram(VOCAB, 0, True, seed=3)
    rebuilt = build("model", json.loads(json.dumps(model.to_dict())))
    assert rebuilt == model and rebuilt.to_dict()["type"] == "Unigram"
    tok = Tokenizer(model)
    assert Tokenizer.from_json(tok.to_json()).model == model
    assert Tokenizer.from_json(tok.to_json(), trusted=True).model == model
    assert _pieces(model, "x") == ["<0x78>"]
    model.byte_fallback = False
    assert _pieces(model, "x") == ["<unk>"]
    assert model.to_dict()["byte_fallback"] is False


# --------------------------------------------------------------------------- n-best and sampling

def test_nbest_is_ordered_and_starts_with_viterbi() -> None:
    model = Unigram(VOCAB, 0)
    found = model.nbest_ids("abab", 10)
    scores = [s for _, s in found]
    assert scores == sorted(scores, reverse=True)
    assert found[0][0] == list(model.encode_piece("abab"))
    assert len(found) == 4  # {a b, ab} x {a b, ab}
    assert model.nbest("abab", 2) == [["ab", "ab"], ["a", "b", "ab"]]
    assert model.nbest("abab", 0) == []


def _all_segmentations(vocab: list[tuple[str, float]], text: str) -> list[float]:
    table = dict(vocab)
    out: list[float] = []

    def walk(pos: int, score: float) -> None:
        if pos == len(text):
            out.append(score)
            return
        for end in range(pos + 1, len(text) + 1):
            if text[pos:end] in table:
                walk(end, score + table[text[pos:end]])

    walk(0, 0.0)
    return sorted(out, reverse=True)


_ALPHA = st.sampled_from("abc")
_VOCABS = st.lists(
    st.tuples(st.text(_ALPHA, min_size=2, max_size=4), st.floats(-12, -0.1, allow_nan=False)), max_size=12
).map(lambda extra: [(c, -3.0) for c in "abc"] + list({p: (p, s) for p, s in extra}.values()))


@settings(max_examples=60, deadline=None)
@given(_VOCABS, st.text(_ALPHA, max_size=9), st.integers(1, 8))
def test_nbest_scores_equal_the_exhaustive_list(vocab: list[tuple[str, float]], text: str, n: int) -> None:
    found = nbest(build_table(vocab), text, -20.0, n)
    expected = _all_segmentations(vocab, text)[:n]
    assert [round(s, 9) for _, s in found] == [round(s, 9) for s in expected]


def test_sampling_is_reproducible_with_a_seed_and_follows_the_distribution() -> None:
    vocab = [("a", math.log(0.4)), ("b", math.log(0.4)), ("ab", math.log(0.2))]
    one = Unigram(vocab, alpha=1.0, seed=5)
    two = Unigram(vocab, alpha=1.0, seed=5)
    draws = [one.encode_piece("ab") for _ in range(4000)]
    assert draws[:50] == [two.encode_piece("ab") for _ in range(50)]
    # p(a b) = 0.16 / (0.16 + 0.2), p(ab) = 0.2 / 0.36
    share = collections.Counter(draws)[(0, 1)] / len(draws)
    assert abs(share - 0.16 / 0.36) < 0.04
    assert one.stochastic and one.piece_cache.capacity == 0 and not one.piece_cache
    nb = Unigram(vocab, alpha=1.0, nbest_size=1, seed=5)
    assert not nb.stochastic and {nb.encode_piece("ab") for _ in range(20)} == {(2,)}
    two_best = Unigram(vocab, alpha=0.5, nbest_size=2, seed=1)
    assert {two_best.encode_piece("ab") for _ in range(200)} == {(0, 1), (2,)}


def test_sampling_is_off_in_the_pipeline_caches_too() -> None:
    vocab = [("a", math.log(0.4)), ("b", math.log(0.4)), ("ab", math.log(0.2))]
    tok = Tokenizer(Unigram(vocab, seed=2))
    assert {tuple(tok.encode_ids("ab")) for _ in range(30)} == {(2,)}
    tok.model.alpha = 1.0
    assert len({tuple(tok.encode_ids("ab")) for _ in range(60)}) == 2
    assert len({tuple(tok.encode("ab").ids) for _ in range(60)}) == 2


# --------------------------------------------------------------------------- Hugging Face parity

def _hf(vocab: list[tuple[str, float]], unk_id: int | None, byte_fallback: bool) -> object:
    return tokenizers.models.Unigram(vocab, unk_id, byte_fallback)


def _hf_tokens(hf_model: object, text: str) -> list[tuple[int, int, int]]:
    starts = {len(text[:i].encode()): i for i in range(len(text) + 1)}
    return [(t.id, starts[t.offsets[0]], starts[t.offsets[1]]) for t in hf_model.tokenize(text)]  # type: ignore[attr-defined]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.text("abcé▁", min_size=1, max_size=4), st.floats(-15, -0.5)), min_size=1, max_size=20),
    st.text("abcdé▁", max_size=16),
    st.booleans(),
)
def test_hugging_face_parity_on_random_vocabularies(vocab: list[tuple[str, float]], text: str, fallback: bool) -> None:
    vocab = [("<unk>", 0.0)] + list({p: (p, s) for p, s in vocab if p != "<unk>"}.values())
    if fallback:
        vocab += [("<0x64>", -9.0), ("<0xC3>", -9.0)]  # "d" falls back; "é" only when a piece covers it
    ours = Unigram(vocab, 0, fallback)
    assert ours.tokenize(text) == _hf_tokens(_hf(vocab, 0, fallback), text)


def test_hugging_face_parity_on_real_text() -> None:
    path = shared_path("english/tinyshakespeare_input.txt")
    lines = path.read_text(encoding="utf-8").splitlines()[:4000]
    hf = tokenizers.Tokenizer(tokenizers.models.Unigram())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
    trainer = tokenizers.trainers.UnigramTrainer(vocab_size=800, unk_token="<unk>", show_progress=False)
    hf.train_from_iterator(lines, trainer)
    data = json.loads(hf.to_str())["model"]
    vocab = [(p, s) for p, s in data["vocab"]]
    ours = Unigram(vocab, data["unk_id"])
    hf_model = _hf(vocab, data["unk_id"], False)
    words = {"▁" + w for line in lines for w in line.split()} | {w + "Ωq" for w in ("▁the", "▁x")}
    for word in sorted(words):
        assert ours.tokenize(word) == _hf_tokens(hf_model, word), word


def test_viterbi_is_linear_in_the_input() -> None:
    # Counted, not timed: the lattice walk looks up at most (longest piece + 1) slices per position.
    vocab = [("a" * k, -float(k)) for k in range(1, 9)]
    lookups = 0

    class Counting(dict):  # type: ignore[type-arg]
        def get(self, key: str, default: object = None) -> object:
            nonlocal lookups
            lookups += 1
            return super().get(key, default)

    table = Counting(build_table(vocab))
    for size in (1_000, 4_000):
        lookups = 0
        assert len(viterbi(table, "a" * size, -20.0)) == size // 8
        assert lookups <= 9 * size


def test_tokenizer_json_both_ways(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lines = shared_path("english/tinyshakespeare_input.txt").read_text(encoding="utf-8").splitlines()[:3000]
    hf = tokenizers.Tokenizer(tokenizers.models.Unigram())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
    hf.decoder = tokenizers.decoders.Metaspace()
    trainer = tokenizers.trainers.UnigramTrainer(vocab_size=600, unk_token="<unk>", special_tokens=["<unk>", "</s>"],
                                                 show_progress=False)
    hf.train_from_iterator(lines, trainer)
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    ours = Tokenizer.from_hf_json(path)
    assert isinstance(ours.model, Unigram) and ours.model.special_tokens == {"<unk>": 0, "</s>": 1}
    for line in lines[:300] + ["Zebras qu¡xotic 42"]:
        assert ours.encode_ids(line) == hf.encode(line).ids, line
    out = tmp_path / "ours.json"
    ours.to_hf_json(out)
    again = tokenizers.Tokenizer.from_file(str(out))
    assert [again.encode(line).ids for line in lines[:100]] == [hf.encode(line).ids for line in lines[:100]]


_BF_VOCAB = [("<unk>", 0.0), ("▁", -2.0), ("▁the", -3.0), ("e", -3.5), ("h", -4.0), ("t", -4.0), ("he", -3.8)] + [
    (f"<0x{b:02X}>", -9.0) for b in range(256)]


@settings(max_examples=80, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_decode_encode_round_trip_with_byte_fallback(text: str) -> None:
    from pretokenizers import Metaspace
    from toolkit import decoders

    tok = Tokenizer(Unigram(_BF_VOCAB, 0, True), pre_tokenizer=Metaspace(prepend_scheme="never"),
                    decoder=decoders.Sequence([decoders.ByteFallback(), decoders.Metaspace(prepend_scheme="never")]))
    ids = tok.encode_ids(text)
    assert 0 not in ids  # nothing is unknown: every byte has its piece
    assert tok.decode(ids) == text


def test_which_options_sample_is_hugging_faces_rule() -> None:
    """``alpha`` above 0 samples, unless ``nbest_size`` is 1; ``None`` and 0 are "no alpha" and "every
    segmentation", as in HF's ``Unigram(vocab, unk_id, byte_fallback, alpha, nbest_size)``."""
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5), ("abab", -2.5)]
    cases = [(None, None), (0.1, None), (0.1, 1), (0.1, 2), (None, 3), (0.0, None), (1.0, 0)]
    for alpha, nbest_size in cases:
        ours = Tokenizer(Unigram(vocab, 0, False, alpha, nbest_size, seed=1))
        theirs = tokenizers.Tokenizer(tokenizers.models.Unigram(vocab, 0, False, alpha, nbest_size))
        ours_found = {tuple(ours.encode("abababab").tokens) for _ in range(200)}
        theirs_found = {tuple(theirs.encode("abababab").tokens) for _ in range(200)}
        assert (len(ours_found) > 1) == (len(theirs_found) > 1), (alpha, nbest_size)
        assert ours.model.stochastic == (len(theirs_found) > 1)
        if nbest_size == 2:  # only the two best are drawn ("abab" has no ties among them)
            assert {tuple(ours.encode("abab").tokens) for _ in range(100)} == {("abab",), ("ab", "ab")} == {
                tuple(theirs.encode("abab").tokens) for _ in range(100)
            }


def test_files_with_sentencepieces_sampling_switch_still_load() -> None:
    vocab = [["a", -1.0], ["b", -1.0], ["ab", -1.5]]
    on = Unigram.from_dict({"type": "Unigram", "vocab": vocab, "enable_sampling": True, "alpha": 0.2, "nbest_size": -1})
    assert (on.alpha, on.nbest_size, on.stochastic) == (0.2, None, True)
    two = Unigram.from_dict({"type": "Unigram", "vocab": vocab, "enable_sampling": True, "alpha": 0.2, "nbest_size": 2})
    assert (two.alpha, two.nbest_size, two.stochastic) == (0.2, 2, True)
    for off in ({"enable_sampling": False, "alpha": 0.1, "nbest_size": -1}, {"enable_sampling": True, "nbest_size": 0}):
        model = Unigram.from_dict({"type": "Unigram", "vocab": vocab, **off})
        assert (model.alpha, model.stochastic) == (None, False)
    assert "enable_sampling" not in on.to_dict()


def test_nbest_keeps_a_bounded_agenda_on_repetitive_text(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Repetitive text ties countless partial paths: ``nbest_size=10000`` from a file took 23 s and 1 GB
    on one 300-character word. Past ``_MAX_AGENDA`` entries the best ``min(512, 10 n)`` are kept, as HF
    and SentencePiece do; the list stays ordered, starts with Viterbi's and holds real segmentations.
    Checked with a small limit (the agenda's size is counted, no clock)."""
    import heapq

    from algorithms import _lattice

    sizes: list[int] = []
    real_push = heapq.heappush

    def counting_push(queue, item):  # type: ignore[no-untyped-def]
        real_push(queue, item)
        sizes.append(len(queue))

    monkeypatch.setattr(heapq, "heappush", counting_push)
    monkeypatch.setattr(_lattice, "_MAX_AGENDA", 300)
    monkeypatch.setattr(_lattice, "_KEPT_AGENDA", 100)
    vocab = [(c, -3.0) for c in "the"] + [("th", -4.0), ("he", -4.0), ("the", -5.0), ("et", -4.5), ("eth", -6.0)]
    scores_of = dict(vocab)
    text = "the" * 30
    found = nbest(build_table(vocab), text, -20.0, 200)
    assert len(found) == 200 and max(sizes) <= 300 + len(vocab)
    scores = [s for _, s in found]
    assert scores == sorted(scores, reverse=True)
    assert math.isclose(scores[0], 30 * -5.0)  # Viterbi's: "the" thirty times
    for path, score in found:
        assert "".join(text[a:b] for a, b, _ in path) == text
        assert math.isclose(score, sum(scores_of[text[a:b]] for a, b, _ in path), abs_tol=1e-9)
