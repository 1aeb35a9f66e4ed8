"""Behaviour of the BPE merge-learning engine (``algorithms._merges.learn_merges``).

Checked against: the worked examples of SPEC §5, the slow reference oracle
(``algorithms.reference``) on random corpora, and Hugging Face ``tokenizers``' ``BpeTrainer`` (random
corpora and tinyshakespeare, character level and byte level).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import islice

import pytest
import regex
from hypothesis import example, given, settings
from hypothesis import strategies as st

from algorithms._merges import MAX_SYMBOL_ID, learn_merges
from algorithms.reference.bpe import reference_bpe_merges, reference_learn_merges
from conftest import require, shared_path
from toolkit.bytelevel import BYTE_TO_CHAR, to_byte_level

GPT2_PATTERN = regex.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


# -- helpers -----------------------------------------------------------------------------------


class StringVocab:
    """Ids assigned like HF ``BpeTrainer``: special tokens, then the sorted alphabet, then merges.

    ``merge_symbol`` reuses the id of a merged string that already exists and refuses (``None``)
    merged tokens longer than ``max_len``.
    """

    def __init__(self, alphabet: Sequence[str], special_tokens: Sequence[str] = (), max_len: int | None = None):
        self.tokens: list[str] = list(dict.fromkeys([*special_tokens, *alphabet]))
        self.ids = {t: i for i, t in enumerate(self.tokens)}
        self.max_len = max_len
        self.refused: set[tuple[int, int]] = set()
        self.asked: Counter[tuple[int, int]] = Counter()

    def merge_symbol(self, left: int, right: int) -> int | None:
        self.asked[left, right] += 1
        merged = self.spell(self.tokens[left], self.tokens[right])
        if self.max_len is not None and len(merged) > self.max_len:
            self.refused.add((left, right))
            return None
        if merged not in self.ids:
            self.ids[merged] = len(self.tokens)
            self.tokens.append(merged)
        return self.ids[merged]

    def spell(self, left: str, right: str) -> str:
        return left + right

    def encode(self, word: str) -> list[int]:
        return [self.ids[c] for c in word]


class SortedVocab(StringVocab):
    """A vocabulary where "ab" and "ba" are the same token: merges often reuse an existing id."""

    def spell(self, left: str, right: str) -> str:
        return "".join(sorted(left + right))


class PrefixVocab(StringVocab):
    """BPE with the continuing prefix "##": "#" + "###" spells "##", and "##" + "###" spells the
    *existing* "###", the right operand itself, reached from two initial symbols instead of one."""

    def __init__(self, alphabet: Sequence[str], special_tokens: Sequence[str] = (), max_len: int | None = None):
        super().__init__([*alphabet, *("##" + c for c in alphabet)], special_tokens, max_len)

    def spell(self, left: str, right: str) -> str:
        return left + right[2:]

    def encode(self, word: str) -> list[int]:
        return [self.ids[word[0]]] + [self.ids["##" + c] for c in word[1:]]


def run(
    engine: Callable[..., list[tuple[int, int, int]]],
    word_counts: Mapping[str, int],
    *,
    max_merges: int,
    special_tokens: Sequence[str] = (),
    max_len: int | None = None,
    vocab_class: type[StringVocab] = StringVocab,
    **options: object,
) -> tuple[list[tuple[str, str]], StringVocab, list[tuple[int, int, int]]]:
    """Train ``engine`` on string word counts; return the merges as strings, the vocab, the raw merges."""
    vocab = vocab_class(sorted({c for w in word_counts for c in w}), special_tokens, max_len)
    raw = engine(
        [vocab.encode(w) for w in word_counts],
        list(word_counts.values()),
        merge_symbol=vocab.merge_symbol,
        max_merges=max_merges,
        **options,
    )
    return [(vocab.tokens[a], vocab.tokens[b]) for a, b, _ in raw], vocab, raw


def replay_counts(word_counts: Mapping[str, int], merges: Sequence[tuple[str, str]]) -> list[int]:
    """Count of each merged pair at the moment it was merged, recomputed naively from strings."""
    splits = {w: list(w) for w in word_counts}
    seen = []
    for left, right in merges:
        total = 0
        for w, split in splits.items():
            total += word_counts[w] * sum(1 for p in zip(split, split[1:]) if p == (left, right))
            i, out = 0, []
            while i < len(split):
                if i + 1 < len(split) and (split[i], split[i + 1]) == (left, right):
                    out.append(left + right)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            splits[w] = out
        seen.append(total)
    return seen


def first_repeat(merges: Sequence[tuple[str, str]]) -> int:
    """Index of the first merge whose string was already produced by an earlier merge (or len)."""
    made: set[str] = set()
    for i, (a, b) in enumerate(merges):
        if a + b in made:
            return i
        made.add(a + b)
    return len(merges)


def hf_merges(trainer_json: str) -> list[tuple[str, str]]:
    merges = json.loads(trainer_json)["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in merges]  # type: ignore[misc]


# -- worked examples ---------------------------------------------------------------------------

TOY = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


@pytest.mark.parametrize("tie_break", ["ids", "first_occurrence"])
def test_spec_toy_corpus(tie_break: str) -> None:
    merges, vocab, raw = run(learn_merges, TOY, max_merges=3, tie_break=tie_break)
    assert merges == [("u", "g"), ("u", "n"), ("h", "ug")]
    assert replay_counts(TOY, merges) == [20, 16, 15]
    # The merged ids are the ones merge_symbol allocated, in merge order: b g h n p s u → 7, 8, 9.
    assert [n for _, _, n in raw] == [7, 8, 9]
    assert reference_bpe_merges(TOY, n_merges=3, tie_break=tie_break) == merges


def test_course_corpus_first_occurrence() -> None:
    """SPEC §5: byte-level words of the course's 4 sentences, first-occurrence ties → 19 merges."""
    text = [
        "This is the Hugging Face Course.",
        "This chapter is about tokenization.",
        "This section shows several tokenizer algorithms.",
        "Hopefully, you will be able to understand how they are trained and generate tokens.",
    ]
    word_counts = Counter(to_byte_level(w) for line in text for w in GPT2_PATTERN.findall(line))
    merges, _, _ = run(
        learn_merges, word_counts, max_merges=19, special_tokens=["<|endoftext|>"], tie_break="first_occurrence"
    )
    expected = "Ġ t|i s|e r|Ġ a|Ġt o|e n|T h|Th is|o u|s e|Ġto k|Ġtok en|n d|Ġ is|Ġt h|Ġth e|i n|Ġa b|Ġtoken i"
    assert [f"{a} {b}" for a, b in merges] == expected.split("|")
    assert run(reference_learn_merges, word_counts, max_merges=19, tie_break="first_occurrence")[0] == merges


def test_tie_break_rules_differ() -> None:
    # "zy" comes first in the corpus, "ab" has the smaller ids; both are counted 3.
    word_counts = {"zy": 3, "ab": 3}
    assert run(learn_merges, word_counts, max_merges=1)[0] == [("a", "b")]
    assert run(learn_merges, word_counts, max_merges=1, tie_break="first_occurrence")[0] == [("z", "y")]


def test_runs_count_every_position_and_merge_left_to_right() -> None:
    # "aaaa" holds (a, a) three times; merging gives "aa aa", then (aa, aa) once.
    merges, _, _ = run(learn_merges, {"aaaa": 1, "bc": 2}, max_merges=3)
    assert merges == [("a", "a"), ("b", "c"), ("aa", "aa")]
    # "aaa" holds (a, a) twice (2 > 1 for "bc"); it becomes "aa a", so (aa, a) then counts 1 and,
    # with the larger id, comes after the other pairs counted 1.
    merges, _, _ = run(learn_merges, {"aaa": 1, "bc": 1, "xy": 1}, max_merges=4)
    assert merges == [("a", "a"), ("b", "c"), ("x", "y"), ("aa", "a")]
    assert replay_counts({"aaa": 1, "bc": 1, "xy": 1}, merges) == [2, 1, 1, 1]


def test_min_frequency_stops_training() -> None:
    merges, _, _ = run(learn_merges, TOY, max_merges=100, min_frequency=15)
    assert merges == [("u", "g"), ("u", "n"), ("h", "ug")]  # next best: (p, un)/(p, ug)... at 12 < 15
    assert run(learn_merges, TOY, max_merges=100, min_frequency=21)[0] == []


def test_max_merges_and_exhaustion() -> None:
    assert run(learn_merges, TOY, max_merges=0)[0] == []
    assert len(run(learn_merges, TOY, max_merges=2)[0]) == 2
    # Every word ends as one token: then no pair is left and training stops early.
    merges, vocab, _ = run(learn_merges, TOY, max_merges=1000)
    assert {"hug", "pug", "pun", "bun", "hugs"} <= set(vocab.tokens)
    assert len(merges) < 1000


def test_existing_id_is_recorded_but_not_counted() -> None:
    # merge_symbol gives both pairs the same token 4. Reusing an existing token does not grow the
    # vocabulary, so that merge is recorded but does not count toward max_merges.
    words, counts = [[0, 1], [2, 3]], [5, 4]
    same = {(0, 1): 4, (2, 3): 4}
    assert learn_merges(words, counts, merge_symbol=lambda a, b: same[a, b], max_merges=1) == [(0, 1, 4)]
    assert learn_merges(words, counts, merge_symbol=lambda a, b: same[a, b], max_merges=2) == [(0, 1, 4), (2, 3, 4)]
    # The reused token forms pairs again like any other: (4, 4) in "0 1 2 3" → "4 4".
    got = learn_merges([[0, 1, 2, 3]], [1], merge_symbol=lambda a, b: same.get((a, b), 5), max_merges=2)
    assert got == [(0, 1, 4), (2, 3, 4), (4, 4, 5)]


def test_refused_pairs_are_dropped() -> None:
    asked: list[tuple[int, int]] = []
    next_id = iter(range(7, 100))

    def merge_symbol(a: int, b: int) -> int | None:
        asked.append((a, b))
        return None if (a, b) == (ids["u"], ids["g"]) else next(next_id)  # "ug" may never be merged

    ids = {c: i for i, c in enumerate("bghnpsu")}
    words = [[ids[c] for c in w] for w in TOY]
    merges = learn_merges(words, list(TOY.values()), merge_symbol=merge_symbol, max_merges=2)
    # (u, g) is the best pair (20): asked once, then dropped for good. Then (p, u) 17 is merged,
    # which leaves (u, n) at 4, so (h, u) 15 is next.
    assert asked == [(ids["u"], ids["g"]), (ids["p"], ids["u"]), (ids["h"], ids["u"])]
    assert merges == [(ids["p"], ids["u"], 7), (ids["h"], ids["u"], 8)]


def test_progress_and_determinism() -> None:
    words = [[i % 7, (i * 3) % 5, i % 2, (i * 5) % 7] for i in range(200)]
    counts = [1 + i % 9 for i in range(200)]
    calls: list[tuple[str, int, int]] = []

    def train(progress: Callable[[str, int, int], None] | None = None) -> list[tuple[int, int, int]]:
        ids = iter(range(100, 10_000))
        return learn_merges(words, counts, merge_symbol=lambda a, b: next(ids), max_merges=40, progress=progress)

    first = train(lambda *args: calls.append(args))
    assert len(first) == 40
    assert first == train() == train()
    assert words[0] == [0, 0, 0, 0] and counts[0] == 1  # inputs untouched
    assert calls[-1] == ("merges", 40, 40)
    assert [done for _, done, _ in calls] == sorted({done for _, done, _ in calls})
    assert all(stage == "merges" and total == 40 for stage, _, total in calls)


_DETERMINISM_SCRIPT = """
import random
from algorithms._merges import learn_merges
rng = random.Random(7)
words = [[rng.randrange(6) for _ in range(rng.randint(1, 9))] for _ in range(500)]
counts = [rng.randint(1, 4) for _ in words]
for tie_break in ("ids", "first_occurrence"):
    ids = iter(range(6, 10_000))
    print(learn_merges(words, counts, merge_symbol=lambda a, b: next(ids), max_merges=150, tie_break=tie_break))
"""


def test_same_merges_in_processes_with_different_hash_seeds() -> None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _DETERMINISM_SCRIPT],
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": root},
            capture_output=True, text=True, check=True, cwd=root,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1 and "(" in outputs.pop()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        learn_merges([[0, 1]], [1, 2], merge_symbol=lambda a, b: 2, max_merges=1)
    with pytest.raises(ValueError, match="tie_break"):
        learn_merges([[0, 1]], [1], merge_symbol=lambda a, b: 2, max_merges=1, tie_break="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="invalid id"):
        learn_merges([[0, 1]], [1], merge_symbol=lambda a, b: MAX_SYMBOL_ID + 1, max_merges=1)
    with pytest.raises(ValueError, match=">= 0"):
        learn_merges([[0, 1]], [-1], merge_symbol=lambda a, b: 2, max_merges=1)


# -- engine == reference on random corpora ----------------------------------------------------

# Few letters and repeated runs, so that ties, overlapping runs ("aaaa", "abab"), words with several
# occurrences of a pair and stale index entries happen all the time. (A merge re-creating an existing
# string is rare with real strings; SortedVocab below forces it.)
small_corpora = st.dictionaries(
    st.text(alphabet="aab", min_size=1, max_size=9) | st.text(alphabet="abcd", min_size=1, max_size=6),
    st.integers(min_value=0, max_value=6),
    min_size=1,
    max_size=16,
)


@settings(max_examples=300)
@given(
    word_counts=small_corpora,
    max_merges=st.integers(0, 25),
    min_frequency=st.integers(0, 4),
    tie_break=st.sampled_from(["ids", "first_occurrence"]),
    max_len=st.none() | st.integers(2, 4),
)
def test_engine_matches_reference(
    word_counts: dict[str, int], max_merges: int, min_frequency: int, tie_break: str, max_len: int | None
) -> None:
    options = dict(max_merges=max_merges, min_frequency=min_frequency, tie_break=tie_break, max_len=max_len)
    merges, vocab, raw = run(learn_merges, word_counts, **options)  # type: ignore[arg-type]
    expected, _, expected_raw = run(reference_learn_merges, word_counts, **options)  # type: ignore[arg-type]
    assert raw == expected_raw
    # The limits hold on their own, too.
    new_tokens = len({n for _, _, n in raw})
    assert new_tokens <= max_merges
    assert all(count >= max(min_frequency, 1) for count in replay_counts(word_counts, merges))
    assert not vocab.refused & {(a, b) for a, b, _ in raw}
    assert all(vocab.asked[pair] == 1 for pair in vocab.refused)
    if max_len is not None:
        assert all(len(a + b) <= max_len for a, b in merges)


@settings(max_examples=200)
@given(word_counts=small_corpora, max_merges=st.integers(0, 25), tie_break=st.sampled_from(["ids", "first_occurrence"]))
def test_words_given_as_strings_train_as_their_ids(word_counts: dict[str, int], max_merges: int, tie_break: str) -> None:
    """A word may come as the str of its symbols (``chr(id)`` each, as the byte-level trainer gives them)."""
    ids = [[ord(c) for c in w] for w in word_counts]
    counts = list(word_counts.values())

    def learn(words: list) -> list[tuple[int, int, int]]:
        fresh = iter(range(0x110, 0x10000))
        return learn_merges(words, counts, merge_symbol=lambda a, b: next(fresh), max_merges=max_merges,
                            tie_break=tie_break)  # type: ignore[arg-type]

    assert learn(list(word_counts)) == learn(ids)


@settings(max_examples=200)
@given(
    word_counts=small_corpora,
    max_merges=st.integers(0, 25),
    tie_break=st.sampled_from(["ids", "first_occurrence"]),
    max_len=st.none() | st.integers(2, 5),
)
@example(word_counts={"baababbab": 2, "bba": 2, "aab": 5, "abbabbbba": 3}, max_merges=3, tie_break="first_occurrence", max_len=None)
def test_engine_matches_reference_when_ids_are_reused(
    word_counts: dict[str, int], max_merges: int, tie_break: str, max_len: int | None
) -> None:
    """merge_symbol may return an existing id: the token then forms pairs again like any other."""
    options = dict(max_merges=max_merges, tie_break=tie_break, max_len=max_len, vocab_class=SortedVocab)
    _, vocab, raw = run(learn_merges, word_counts, **options)  # type: ignore[arg-type]
    assert raw == run(reference_learn_merges, word_counts, **options)[2]  # type: ignore[arg-type]
    assert len({n for _, _, n in raw}) <= max_merges
    assert all(vocab.asked[pair] == 1 for pair in vocab.refused)  # a refused pair is dropped for good


def test_a_merge_may_return_the_id_of_one_of_its_operands() -> None:
    # The "###" of a Markdown heading: "# ## ##" -> ("#", "###") gives "##", then ("##", "###")
    # gives "###", the id of the right operand. Hugging Face records it and goes on; so must we.
    word_counts = {"###": 9, "##": 3}
    for tie_break in ("ids", "first_occurrence"):
        merges, vocab, raw = run(learn_merges, word_counts, max_merges=5, tie_break=tie_break, vocab_class=PrefixVocab)
        assert merges == [("#", "###"), ("##", "###")]
        assert raw[1][2] == raw[1][1]  # the merged token is the right operand
        assert raw == run(reference_learn_merges, word_counts, max_merges=5, tie_break=tie_break, vocab_class=PrefixVocab)[2]


@settings(max_examples=300)
@given(
    word_counts=st.dictionaries(st.text(alphabet="##ab", min_size=1, max_size=9), st.integers(1, 6), min_size=1, max_size=12),
    max_merges=st.integers(0, 25),
    tie_break=st.sampled_from(["ids", "first_occurrence"]),
)
# Found by a fuzzer: without recomputing the heap keys after a mismatched reuse, merge 12 differs.
@example(
    word_counts={"ab##aa": 2, "##bba##b": 6, "###b##": 1, "##": 5, "a#aa": 2, "baa##aab": 4, "b": 1, "#ab": 2,
                 "#ba###b": 1, "##baab#b": 4},
    max_merges=14,
    tie_break="first_occurrence",
)
def test_engine_matches_reference_with_a_continuing_prefix(word_counts: dict[str, int], max_merges: int, tie_break: str) -> None:
    """Tokens reached from different numbers of initial symbols keep first_occurrence exact."""
    options = dict(max_merges=max_merges, tie_break=tie_break, vocab_class=PrefixVocab)
    raw = run(learn_merges, word_counts, **options)[2]  # type: ignore[arg-type]
    assert raw == run(reference_learn_merges, word_counts, **options)[2]  # type: ignore[arg-type]


# -- parity with Hugging Face tokenizers -------------------------------------------------------


def hf_train_words(word_counts: Mapping[str, int], vocab_size: int, min_frequency: int = 0) -> list[tuple[str, str]]:
    """Merges of HF ``BpeTrainer`` on exactly these word counts (words contain no whitespace)."""
    tokenizers = require("tokenizers")
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=min_frequency, show_progress=False)
    tok.train_from_iterator([" ".join([w] * n) for w, n in word_counts.items() if n], trainer)
    return hf_merges(tok.to_str())


hf_small_corpora = st.dictionaries(
    st.text(alphabet="aab", min_size=1, max_size=9) | st.text(alphabet="abcd", min_size=1, max_size=6),
    st.integers(min_value=1, max_value=6),
    min_size=1,
    max_size=12,
)


@settings(max_examples=100)
@given(word_counts=hf_small_corpora, max_merges=st.integers(1, 25), min_frequency=st.integers(0, 4))
def test_engine_matches_hf_on_random_corpora(word_counts: dict[str, int], max_merges: int, min_frequency: int) -> None:
    alphabet = len({c for w in word_counts for c in w})
    ours, _, _ = run(learn_merges, word_counts, max_merges=max_merges, min_frequency=min_frequency)
    theirs = hf_train_words(word_counts, alphabet + max_merges, min_frequency)
    # After a merge whose string already exists, HF's trainer departs from a recount (it never resets
    # a merged pair's count, and keeps one word set per heap entry), so the comparison stops there.
    # Such merges are rare: none in 32k merges on 18 MB of English.
    n = first_repeat(ours)
    assert ours[:n] == theirs[:n]
    if n == len(ours):
        assert ours == theirs


@pytest.mark.parity
def test_char_level_parity_with_hf_on_shakespeare(corpora: object) -> None:
    tokenizers = require("tokenizers")
    path = shared_path("english/tinyshakespeare_input.txt")
    with open(path, encoding="utf-8") as f:
        lines = list(islice(f, 4000))
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    specials = ["<unk>", "<s>"]
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=1500, special_tokens=specials, show_progress=False)
    tok.train_from_iterator(lines, trainer)
    # The same words, from HF's own pre-tokenizer, in first-occurrence order.
    word_counts = Counter(w for line in lines for w, _ in tok.pre_tokenizer.pre_tokenize_str(line))
    base = len(specials) + len({c for w in word_counts for c in w})
    ours, _, _ = run(learn_merges, word_counts, max_merges=1500 - base, special_tokens=specials)
    assert len(ours) == 1500 - base
    assert ours == hf_merges(tok.to_str())


def check_byte_level_parity(relative: str, vocab_size: int) -> None:
    """Byte-level merges of HF ``BpeTrainer`` on a whole file == ours on the same word counts."""
    tokenizers = require("tokenizers")
    path = shared_path(relative)
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=vocab_size, initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train([str(path)], trainer)
    # HF reads the file line by line, and numbers the 256 byte characters in code point order (so
    # Ġ, byte 32, comes after the printable ASCII bytes): ties are broken on those ids.
    word_counts: Counter[str] = Counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            word_counts.update(to_byte_level(w) for w in GPT2_PATTERN.findall(line))
    vocab = StringVocab(sorted(BYTE_TO_CHAR))
    raw = learn_merges(
        [vocab.encode(w) for w in word_counts],
        list(word_counts.values()),
        merge_symbol=vocab.merge_symbol,
        max_merges=vocab_size - 256,
    )
    ours = [(vocab.tokens[a], vocab.tokens[b]) for a, b, _ in raw]
    assert len(ours) == vocab_size - 256
    assert ours == hf_merges(tok.to_str())


@pytest.mark.parity
def test_byte_level_parity_with_hf_on_full_shakespeare(corpora: object) -> None:
    check_byte_level_parity("english/tinyshakespeare_input.txt", 8000)


@pytest.mark.slow
@pytest.mark.parity
def test_byte_level_parity_with_hf_on_gutenberg(corpora: object) -> None:
    check_byte_level_parity("english/gutenberg_part01.txt", 32000)


def test_engine_matches_reference_on_real_text(corpora: object) -> None:
    path = shared_path("english/tinyshakespeare_input.txt")
    with open(path, encoding="utf-8") as f:
        text = "".join(islice(f, 300))
    word_counts = Counter(GPT2_PATTERN.findall(text))
    for tie_break in ("ids", "first_occurrence"):
        ours = run(learn_merges, word_counts, max_merges=150, tie_break=tie_break)[2]
        assert ours == run(reference_learn_merges, word_counts, max_merges=150, tie_break=tie_break)[2]


class _CountingWords(list):  # type: ignore[type-arg]
    """The engine's list of word splits, counting how often a split is read (a search follows each read)."""

    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        _CountingWords.reads += 1
        return super().__getitem__(index)


@pytest.mark.parametrize("trainer_name", ["BPETrainer", "WordPieceTrainer"])
def test_a_long_run_of_one_symbol_is_searched_once_per_merge(trainer_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A word is listed once per occurrence of a pair; after a merge rewrote it whole, the engine must
    not search it again for every other occurrence (that cost its length per occurrence: quadratic
    on one long run; docs/robustness.md). Counted, not timed: the splits read per training stay near the
    number of merges, where the quadratic engine read one per occurrence (16,000 here)."""
    import warnings

    import algorithms
    from algorithms._merges import _Splits
    from toolkit import Tokenizer

    original = _Splits.__init__

    def counting_init(self: _Splits, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)
        self.words = _CountingWords(self.words)

    monkeypatch.setattr(_Splits, "__init__", counting_init)
    _CountingWords.reads = 0
    model = algorithms.BPE() if trainer_name == "BPETrainer" else algorithms.WordPiece()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Tokenizer(model).train(["\x00" * 8192], getattr(algorithms, trainer_name)(show_progress=False))
    assert 0 < _CountingWords.reads < 500
