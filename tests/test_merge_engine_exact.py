"""The merge engine's edges that the broader tests of ``test_merge_engine.py`` do not pin down.

Each test here was written against a mutant that survived a mutation run of ``algorithms/_merges.py``
(docs/testing.md): exact error messages, the exact progress schedule, the symbol-id bounds, and a
corpus on which a wrong token length in the ``first_occurrence`` offsets changes the merges.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_merge_engine import SortedVocab, run

from algorithms._merges import MAX_SYMBOL_ID, learn_merges
from algorithms.reference.bpe import reference_learn_merges


def _fresh_ids(start: int = 1000) -> Callable[[int, int], int]:
    ids = iter(range(start, MAX_SYMBOL_ID))
    return lambda a, b: next(ids)


def test_negative_count_message() -> None:
    with pytest.raises(ValueError, match=r"^word counts must be >= 0$"):
        learn_merges([[0, 1]], [-1], merge_symbol=_fresh_ids(), max_merges=1)


def test_symbol_id_bounds_are_inclusive_and_named() -> None:
    # A negative id alone (the largest id is fine) is refused and named.
    with pytest.raises(ValueError, match=rf"^symbol ids must be in 0\.\.{MAX_SYMBOL_ID}, got -1$"):
        learn_merges([[-1, 5]], [1], merge_symbol=_fresh_ids(), max_merges=1)
    # One past the top is refused and named; the top itself is a valid symbol.
    with pytest.raises(ValueError, match=rf"^symbol ids must be in 0\.\.{MAX_SYMBOL_ID}, got {MAX_SYMBOL_ID + 1}$"):
        learn_merges([[0, MAX_SYMBOL_ID + 1]], [1], merge_symbol=_fresh_ids(), max_merges=1)
    assert learn_merges([[1, MAX_SYMBOL_ID]], [2], merge_symbol=lambda a, b: 7, max_merges=1) == [(1, MAX_SYMBOL_ID, 7)]
    # An id of 0 is a valid symbol too (the lower bound is inclusive).
    assert learn_merges([[0, 0]], [1], merge_symbol=lambda a, b: 9, max_merges=1) == [(0, 0, 9)]


@pytest.mark.parametrize(
    ("max_merges", "every"),
    [(10, 1), (150, 1), (200, 2), (300, 3)],
)
def test_progress_is_reported_every_hundredth_and_at_the_end(max_merges: int, every: int) -> None:
    # Distinct two-symbol words: every merge creates a new token, so exactly max_merges happen.
    words = [[2 * i, 2 * i + 1] for i in range(max_merges + 5)]
    calls: list[tuple[str, int, int]] = []
    merges = learn_merges(
        words, [1] * len(words), merge_symbol=_fresh_ids(), max_merges=max_merges,
        progress=lambda *args: calls.append(args),
    )
    assert len(merges) == max_merges
    expected = [d for d in range(1, max_merges + 1) if d % every == 0 or d == max_merges]
    assert calls == [("merges", d, max_merges) for d in expected]


def test_first_occurrence_offsets_use_both_operand_lengths() -> None:
    # Found by a search against the mutant ``length = len(right) + len(right)``: SortedVocab reuses
    # ids ("ab" and "ba" are one token), so merged tokens of unequal operand lengths decide ties.
    word_counts = {"bbaaabba": 3, "aaababb": 1, "aaa": 4, "bbaabb": 3, "babbb": 4, "aaabaa": 2}
    options = {"max_merges": 4, "tie_break": "first_occurrence", "vocab_class": SortedVocab}
    assert run(learn_merges, word_counts, **options)[2] == run(reference_learn_merges, word_counts, **options)[2]


def test_the_id_merge_symbol_returns_is_checked_with_inclusive_bounds() -> None:
    assert learn_merges([[1, 2]], [1], merge_symbol=lambda a, b: 0, max_merges=1) == [(1, 2, 0)]
    assert learn_merges([[1, 2]], [1], merge_symbol=lambda a, b: MAX_SYMBOL_ID, max_merges=1) == [(1, 2, MAX_SYMBOL_ID)]
    for bad in (-1, MAX_SYMBOL_ID + 1, True, 3.0):
        with pytest.raises(ValueError, match=rf"^merge_symbol\(1, 2\) returned an invalid id {bad!r}$"):
            learn_merges([[1, 2]], [1], merge_symbol=lambda a, b, bad=bad: bad, max_merges=1)


def test_a_first_merged_id_of_1_is_new_when_every_symbol_is_0() -> None:
    # The only initial symbol is 0, so id 1 is new and the one merge allowed is spent: (1, 1) stays.
    assert learn_merges([[0, 0, 0, 0]], [1], merge_symbol=_fresh_ids(1), max_merges=1) == [(0, 0, 1)]
