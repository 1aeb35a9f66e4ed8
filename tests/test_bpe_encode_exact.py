"""The BPE encoding core (``algorithms/_bpe_encode.py``) against a naive oracle written here.

Written for the mutants that survived a mutation run of the module (docs/testing.md): the long-piece
merge is checked directly (not only through models, whose pieces are short), including a stale entry
in the middle of a rank's bucket, and the dispatch of ``merge_ids``/``merge_with_positions`` to
BPE-dropout. The oracle is the textbook loop: merge the leftmost pair of lowest rank until none applies.
"""

from __future__ import annotations

import random

import pytest

from algorithms._bpe_encode import (
    merge_dropout,
    merge_ids,
    merge_long,
    merge_short,
    merge_with_positions,
)


def oracle(syms: list[int], pair_rank: dict[tuple[int, int], int], rank_id: list[int]) -> tuple[list[int], list[int]]:
    """(ids, index of the first initial symbol of each id), by repeated linear scans."""
    ids, starts = list(syms), list(range(len(syms)))
    while True:
        best: tuple[int, int] | None = None
        for i in range(len(ids) - 1):
            r = pair_rank.get((ids[i], ids[i + 1]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            return ids, starts
        r, i = best
        ids[i : i + 2] = [rank_id[r]]
        del starts[i + 1]


def random_table(rng: random.Random, alphabet: int, n_merges: int) -> tuple[dict[tuple[int, int], int], list[int]]:
    """A Hugging Face style merge table: merge k joins two existing ids into the new id alphabet + k."""
    pair_rank: dict[tuple[int, int], int] = {}
    rank_id: list[int] = []
    while len(rank_id) < n_merges:
        pair = (rng.randrange(alphabet + len(rank_id)), rng.randrange(alphabet + len(rank_id)))
        if pair not in pair_rank:
            pair_rank[pair] = len(rank_id)
            rank_id.append(alphabet + len(rank_id))
    return pair_rank, rank_id


def test_long_merge_matches_the_oracle_on_random_tables() -> None:
    rng = random.Random(20)
    for _ in range(400):
        alphabet = rng.randint(1, 4)
        pair_rank, rank_id = random_table(rng, alphabet, rng.randint(1, 12))
        syms = [rng.randrange(alphabet) for _ in range(rng.randint(0, 70))]
        expected = oracle(syms, pair_rank, rank_id)
        assert merge_long(list(syms), pair_rank, rank_id) == expected, (syms, pair_rank)
        assert merge_short(list(syms), pair_rank, rank_id) == expected[0]
        assert merge_with_positions(list(syms), pair_rank, rank_id, threshold=0) == expected
        assert merge_with_positions(list(syms), pair_rank, rank_id) == expected
        assert merge_ids(list(syms), pair_rank, rank_id, threshold=0) == expected[0]


def test_a_huge_piece_linked_in_arrays_merges_as_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    import algorithms._bpe_encode as bpe_encode

    monkeypatch.setattr(bpe_encode, "_HUGE_PIECE", 4)  # every piece above 4 symbols takes the array path
    rng = random.Random(21)
    for _ in range(200):
        alphabet = rng.randint(1, 4)
        pair_rank, rank_id = random_table(rng, alphabet, rng.randint(1, 12))
        syms = [rng.randrange(alphabet) for _ in range(rng.randint(0, 70))]
        assert merge_long(list(syms), pair_rank, rank_id) == oracle(syms, pair_rank, rank_id), (syms, pair_rank)


def test_a_stale_entry_does_not_end_its_rank() -> None:
    # a=0 b=1 c=2; "bc" (rank 0, id 3) then "ab" (rank 1, id 4). In "abcab" the first (a, b) is stale
    # once "bc" is merged; the second (a, b) must still merge.
    pair_rank = {(1, 2): 0, (0, 1): 1}
    assert merge_long([0, 1, 2, 0, 1], pair_rank, [3, 4]) == ([0, 3, 4], [0, 1, 3])


def test_absorbed_symbols_are_skipped() -> None:
    # "aaaa" with a=1: (a, a) -> 2, (aa, aa) -> 3; the absorbed second "a" must not merge again.
    assert merge_long([1, 1, 1, 1, 1], {(1, 1): 0, (2, 2): 1}, [2, 3]) == ([3, 1], [0, 4])
    assert merge_long([0, 1, 1, 1], {(1, 1): 0, (0, 2): 1}, [2, 3]) == ([3, 1], [0, 3])


@pytest.mark.parametrize("merge", [merge_ids, merge_with_positions])
def test_dropout_dispatch(merge) -> None:  # type: ignore[no-untyped-def]
    pair_rank, rank_id = {(0, 1): 0, (2, 2): 1}, [2, 3]
    syms = [0, 1, 0, 1, 0]
    plain = ([3, 0], [0, 4])

    def ids(result):  # type: ignore[no-untyped-def]
        return result if merge is merge_ids else result[0]

    expected_plain = plain[0] if merge is merge_ids else plain
    # No dropout, or no generator: the ordinary merge (an rng alone never drops anything).
    assert merge(list(syms), pair_rank, rank_id) == expected_plain
    assert merge(list(syms), pair_rank, rank_id, rng=random.Random(0)) == expected_plain
    assert merge(list(syms), pair_rank, rank_id, dropout=1.0) == expected_plain
    # dropout=1 skips every merge; a vanishing dropout merges as usual (through the dropout path).
    dropped = merge(list(syms), pair_rank, rank_id, dropout=1.0, rng=random.Random(0))
    assert ids(dropped) == syms
    if merge is merge_with_positions:
        assert dropped == (syms, [0, 1, 2, 3, 4])
    assert merge(list(syms), pair_rank, rank_id, dropout=1e-12, rng=random.Random(0)) == expected_plain


def test_dropout_merge_with_a_vanishing_rate_matches_the_oracle() -> None:
    # No draw falls below 1e-12: Hugging Face's dropout loop must then merge exactly as plain BPE.
    rng = random.Random(21)
    for _ in range(300):
        alphabet = rng.randint(1, 4)
        pair_rank, rank_id = random_table(rng, alphabet, rng.randint(1, 10))
        syms = [rng.randrange(alphabet) for _ in range(rng.randint(0, 30))]
        expected = oracle(syms, pair_rank, rank_id)
        assert merge_dropout(list(syms), pair_rank, rank_id, 1e-12, random.Random(0)) == expected, (syms, pair_rank)
    # Queued candidates of a symbol absorbed since must be dropped, not merged (found by a search
    # against the oracle): a b c d e, (a, b) absorbs b before (b, c) is popped.
    ab_cd = {(0, 1): 0, (1, 2): 1, (3, 4): 2, (2, 7): 3}
    assert merge_dropout([0, 1, 2, 3, 4], ab_cd, [5, 6, 7, 8], 1e-12, random.Random(0)) == ([5, 8], [0, 2])
    table = {(2, 0): 0, (1, 2): 1, (2, 1): 2, (1, 4): 3, (0, 3): 4, (5, 6): 5, (5, 5): 6, (4, 9): 7, (5, 0): 8, (11, 1): 9}
    syms = [0, 1, 1, 2, 1, 2, 2, 0, 0, 2, 0, 1]
    ids = list(range(3, 13))
    assert merge_dropout(list(syms), table, ids, 1e-12, random.Random(0)) == oracle(syms, table, ids)
    assert merge_ids([], {(0, 1): 0}, [2], dropout=0.5, rng=random.Random(0)) == []
    assert merge_ids([0, 1], {(0, 1): 0}, [2], dropout=1e-12, rng=random.Random(0)) == [2]


def test_a_skipped_merge_lets_the_next_candidate_merge() -> None:
    # a b c with (a, b) rank 0 and (b, c) rank 1, dropout 0.5: skipping (a, b) leaves (b, c) to be tried,
    # so all three outcomes occur (a bc with probability 1/4); each seed gives one of them.
    pair_rank, rank_id = {(0, 1): 0, (1, 2): 1}, [3, 4]
    outcomes = {tuple(merge_ids([0, 1, 2], pair_rank, rank_id, dropout=0.5, rng=random.Random(seed))) for seed in range(200)}
    assert outcomes == {(3, 2), (0, 4), (0, 1, 2)}


def test_merge_long_hands_a_table_of_lower_ranked_pairs_to_the_heap(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A table where each merge makes a pair ranked below it (``aa a`` before ``a a``; Gemma 3's runs of
    ``▁``) interrupted the bucket at every merge, and each interruption put the rest of the bucket back
    and sorted it again: quadratic (40,000 ``a``: 1.8 s). Past a few interruptions the heap of
    ``merge_dropout`` finishes the piece, from the same state: the same ids and positions."""
    import random

    from algorithms import _bpe_encode

    calls = []
    real = _bpe_encode.merge_dropout
    monkeypatch.setattr(_bpe_encode, "merge_dropout", lambda *a: calls.append(len(a[0])) or real(*a))
    table, rank_id = {(1, 0): 0, (0, 0): 1}, [2, 1]  # a=0, aa=1, aaa=2: "aa a" ranks first
    ids, at = _bpe_encode.merge_long([0] * 4000, table, rank_id)
    assert calls and (ids, at) == real([0] * 4000, table, rank_id, 0.0, random.Random(0))
    rng = random.Random(7)
    for _ in range(300):  # random tables, lower-ranked pairs included: the heap's answer
        syms = [rng.randrange(3) for _ in range(rng.randint(2, 300))]
        table, rank_id = {}, []
        for new in range(3, 3 + rng.randint(1, 10)):
            pair = (rng.randrange(new), rng.randrange(new))
            if pair not in table:
                table[pair] = len(rank_id)
                rank_id.append(new)
        assert _bpe_encode.merge_long(list(syms), table, rank_id) == real(list(syms), table, rank_id, 0.0, random.Random(0))
