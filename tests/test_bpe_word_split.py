"""BPE cuts long pieces into words where no token can span the cut (SentencePiece-style ``▁`` vocabularies).

The cut is an optimisation (each word merged on its own, through the model's caches): the ids and spans
must equal merging the whole piece, for any merge table, including tokens that hold ``▁`` after another
character (which forbid a cut there), unknown characters, byte fallback and fused unknowns.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import BPE

ALPHABET = ["▁", "a", "b", "c"]


def random_bpe(seed: int, **options) -> BPE:
    rnd = random.Random(seed)
    vocab = {t: i for i, t in enumerate(["<unk>", *ALPHABET])}
    if options.get("byte_fallback"):
        for b in range(256):
            vocab[f"<0x{b:02X}>"] = len(vocab)
    merges = []
    tokens = list(ALPHABET)
    for _ in range(rnd.randint(0, 25)):
        a, b = rnd.choice(tokens), rnd.choice(tokens)
        if a + b not in vocab and len(a + b) <= 6:
            vocab[a + b] = len(vocab)
            merges.append((a, b))
            tokens.append(a + b)
    return BPE(vocab=vocab, merges=merges, unk_token="<unk>", **options)


def unsplit(model: BPE) -> BPE:
    """The same model merging every piece whole (the slow, obvious reference)."""
    ref = BPE.from_dict(model.to_dict())
    object.__setattr__(ref, "_word_start", None)
    return ref


TEXT = st.text(alphabet=st.sampled_from([*ALPHABET, "▁", "▁", "z", "é"]), min_size=0, max_size=60)


@settings(max_examples=300)
@given(seed=st.integers(0, 10_000), text=TEXT, options=st.sampled_from(
    [{}, {"byte_fallback": True}, {"fuse_unk": True}, {"byte_fallback": True, "fuse_unk": True}]))
def test_cutting_into_words_changes_nothing(seed, text, options):
    model = random_bpe(seed, **options)
    ref = unsplit(model)
    assert model.encode_piece(text) == ref.encode_piece(text)
    assert model.tokenize(text) == ref.tokenize(text)
    # again, and inside a longer piece: the words come from the caches now, spans shifted
    assert model.tokenize(text) == ref.tokenize(text)
    assert model.tokenize("▁abc▁" + text) == ref.tokenize("▁abc▁" + text)


def test_a_long_piece_is_cut_before_each_word_marker_no_token_spans():
    model = BPE(vocab={"<unk>": 0, "▁": 1, "a": 2, "b": 3, "▁a": 4, "b▁": 5}, merges=[("▁", "a"), ("b", "▁")],
                unk_token="<unk>")
    piece = "▁a▁a▁a▁a▁a▁a▁a▁a▁ab▁a▁a"  # 23 characters: cut before every "▁" except the one after "b"
    assert model._word_start is not None
    assert [m.start() for m in model._word_start.finditer(piece, 1)] == [2, 4, 6, 8, 10, 12, 14, 16, 21]
    assert model.encode_piece(piece) == (4,) * 8 + (4, 3, 4, 4)  # "▁ab▁a": ▁a first (rank 0), then b stays
    assert "▁a" in model.piece_cache  # the words went through the cache
    assert model.tokenize(piece)[-2:] == [(4, 19, 21), (4, 21, 23)]


def test_no_cut_when_a_cut_could_change_the_ids():
    vocab = {"▁": 0, "a": 1, "▁a": 2}
    assert BPE(vocab={"a": 0, "b": 1}, merges=[])._word_start is None  # no word marker in the vocabulary
    assert BPE(vocab=vocab, merges=[("▁", "a")], ignore_merges=True)._word_start is None  # whole-piece look-up
    assert BPE(vocab=vocab, merges=[("▁", "a")], dropout=0.5)._word_start is None
    assert BPE(vocab={**vocab, "##a": 3}, merges=[("▁", "a")], continuing_subword_prefix="##")._word_start is None
    model = BPE(vocab=vocab, merges=[("▁", "a")])
    assert model._word_start is not None
    model.ignore_merges = True  # a live change takes effect
    assert model._word_start is None


def test_every_mark_inside_a_token_forbids_a_cut_after_its_character():
    # A token may start with "▁" and hold several more: each "▁" after the first character names the
    # character before it (never cut there), however many there are and wherever the first one is.
    from algorithms.bpe import _word_starts

    pattern = _word_starts({"▁": 0, "▁a▁b": 1, "c▁d▁e▁f": 2, "g▁h▁i": 3})
    text = "x▁a▁b▁c▁d▁e▁g▁h▁z▁q"
    assert [m.start() for m in pattern.finditer(text, 1)] == [1, 5, 17]  # after x, b and z only
    # The same through a model: merging the whole piece makes "g▁h▁i"; an eager cut would not.
    vocab = {"<unk>": 0, "▁": 1, "g": 2, "h": 3, "i": 4, "g▁": 5, "g▁h": 6, "g▁h▁": 7, "g▁h▁i": 8}
    merges = [("g", "▁"), ("g▁", "h"), ("g▁h", "▁"), ("g▁h▁", "i")]
    model = BPE(vocab=vocab, merges=merges, unk_token="<unk>")
    piece = "▁g▁h▁i" * 3
    assert model.encode_piece(piece) == (1, 8) * 3 == unsplit(model).encode_piece(piece)
