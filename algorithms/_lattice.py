"""The Unigram lattice: every way of cutting one piece into vocabulary pieces, and what is computed on it.

A *table* maps every prefix of every vocabulary piece to ``(id, score)`` when the prefix is itself a
piece, and to ``False`` when it only starts one; a walk from a position stops at the first slice that
no piece starts with, so building the lattice of a text of ``n`` characters costs ``n`` times the
longest match, linear in ``n``. A character that no one-character piece covers gets an *unknown*
edge (id ``None``) scored ``unk_score``, as in SentencePiece and Hugging Face.

* :func:`viterbi` — the best segmentation, with SentencePiece's ties (earliest start wins, then the
  shortest piece: a later candidate must score strictly higher);
* :func:`nbest` — the ``n`` best segmentations in order (A* with the exact Viterbi heuristic);
* :func:`sample` — one segmentation drawn with probability proportional to ``exp(alpha * score)``
  (forward filtering, backward sampling: SentencePiece's ``SampleEncode``);
* :func:`marginals` — the expected count of every piece under the model (the trainer's E-step).

>>> table = build_table([("a", -1.0), ("b", -1.0), ("ab", -1.5)])
>>> viterbi(table, "abab", -20.0)
[(0, 2, 2), (2, 4, 2)]
"""

from __future__ import annotations

import heapq
import math
import random
from array import array
from collections.abc import Iterable

__all__ = ["Edge", "build_table", "edges", "marginals", "nbest", "sample", "viterbi"]

#: ``(start, end, id)``: one piece of a segmentation; ``id`` is ``None`` for an unknown character.
Edge = tuple[int, int, "int | None"]
Table = dict[str, "tuple[int, float] | bool"]


def build_table(pieces: Iterable[tuple[str, float]], skip: frozenset[int] = frozenset()) -> Table:
    """The prefix table of ``(piece, score)`` items, ids by position; ids in ``skip`` are left out."""
    table: Table = {}
    for i, (piece, score) in enumerate(pieces):
        if i in skip:
            continue
        for k in range(1, len(piece)):
            table.setdefault(piece[:k], False)
        table[piece] = (i, score)
    return table


def edges(table: Table, text: str, unk_score: float) -> list[list[tuple[int, int | None, float]]]:
    """``out[s]``: the edges ``(end, id, score)`` starting at ``s``, shortest first."""
    n = len(text)
    get = table.get
    out: list[list[tuple[int, int | None, float]]] = []
    for s in range(n):
        row: list[tuple[int, int | None, float]] = []
        single = False
        e = s + 1
        while e <= n:
            hit = get(text[s:e])
            if hit is None:
                break
            if hit is not False:
                row.append((e, hit[0], hit[1]))  # type: ignore[index]
                single = single or e == s + 1
            e += 1
        if not single:
            row.insert(0, (s + 1, None, unk_score))
        out.append(row)
    return out


#: sentencepiece's ``kScoreResetThreshold``: beyond it, float32 path scores are shifted back to 0.
_SCORE_RESET = 100_000.0


def viterbi(table: Table, text: str, unk_score: float, *, float32: bool = False) -> list[Edge]:
    """The best segmentation of ``text`` as ``(start, end, id)``; unknown characters have id ``None``.

    ``float32``: path scores are summed in float32, as ``sentencepiece`` (0.2.3) does, so that its ties
    (which depend on the rounding of the sums over the whole sentence) come out the same. A float64 sum
    of two float32 values rounded once (through a one-element ``array("f")``) is the float32 sum: double
    rounding is harmless at 53 >= 2 * 24 + 2 bits. As in sentencepiece, a best score at the current
    start beyond +-``_SCORE_RESET`` is subtracted from the scores of every position reached so far,
    so that sums on a long text round at the scale of a short one.
    """
    n = len(text)
    f32 = array("f", [unk_score])
    if float32:
        unk_score = f32[0]
    get = table.get
    best = [0.0] * (n + 1)
    start_of = [-1] * (n + 1)
    id_of: list[int | None] = [None] * (n + 1)
    frontier = 0  # no position beyond it is reached yet (sentencepiece's max_frontier)
    for s in range(n):
        base = best[s]
        if float32 and not -_SCORE_RESET <= base <= _SCORE_RESET:
            for i in range(s + 1, min(frontier, n) + 1):
                if start_of[i] >= 0:  # reached: shifted in float32, as sentencepiece stores it
                    f32[0] = best[i] - base
                    best[i] = f32[0]
            best[s] = base = 0.0
        single = False
        e = s + 1
        while e <= n:
            hit = get(text[s:e])
            if hit is None:
                break
            if hit is not False:
                cand = hit[1] + base  # type: ignore[index]
                if float32:
                    f32[0] = cand
                    cand = f32[0]
                if start_of[e] < 0 or cand > best[e]:
                    best[e], start_of[e], id_of[e] = cand, s, hit[0]  # type: ignore[index]
                if e == s + 1:
                    single = True
            e += 1
        if e > frontier:  # every end from s, its unknown edge's too, is at most e
            frontier = e
        if not single:
            cand = unk_score + base
            if float32:
                f32[0] = cand
                cand = f32[0]
            if start_of[s + 1] < 0 or cand > best[s + 1]:
                best[s + 1], start_of[s + 1], id_of[s + 1] = cand, s, None
    out: list[Edge] = []
    e = n
    while e > 0:
        s = start_of[e]
        out.append((s, e, id_of[e]))
        e = s
    out.reverse()
    return out


def _forward_best(rows: list[list[tuple[int, int | None, float]]], n: int) -> list[float]:
    """``best[e]``: the score of the best segmentation of ``text[:e]``."""
    best = [-math.inf] * (n + 1)
    best[0] = 0.0
    for s, row in enumerate(rows):
        base = best[s]
        for e, _, score in row:
            best[e] = max(best[e], base + score)
    return best


def nbest(table: Table, text: str, unk_score: float, n: int) -> list[tuple[list[Edge], float]]:
    """The ``n`` best segmentations of ``text`` with their scores, best first (ties: found first).

    A* from the end of the text backwards; the heuristic of a position is the exact score of the best
    segmentation of what precedes it, so complete paths come off the queue in order of their score.
    """
    size = len(text)
    if n <= 0:
        return []
    if size == 0:
        return [([], 0.0)]
    rows = edges(table, text, unk_score)
    ending: list[list[tuple[int, int | None, float]]] = [[] for _ in range(size + 1)]
    for s, row in enumerate(rows):
        for e, token_id, score in row:
            ending[e].append((s, token_id, score))
    best = _forward_best(rows, size)
    counter = 0
    # (-(suffix score + heuristic), tie counter, position, suffix score, suffix edges as a linked list)
    queue: list[tuple[float, int, int, float, tuple | None]] = [(-best[size], 0, size, 0.0, None)]
    results: list[tuple[list[Edge], float]] = []
    # Each complete path costs at most `size` pops; the bound keeps a pathological vocabulary finite.
    budget = max(10_000, 8 * n * (size + 1))
    while queue and len(results) < n and budget > 0:
        budget -= 1
        _, _, pos, suffix, chain = heapq.heappop(queue)
        if pos == 0:
            path: list[Edge] = []
            while chain is not None:
                path.append(chain[0])
                chain = chain[1]
            results.append((path, suffix))
            continue
        for s, token_id, score in ending[pos]:
            counter += 1
            g = suffix + score
            heapq.heappush(queue, (-(g + best[s]), counter, s, g, ((s, pos, token_id), chain)))
        if len(queue) > _MAX_AGENDA:
            # Repetitive text ties countless partial paths: keep the best few, as Hugging Face and
            # SentencePiece shrink their agenda (memory stays bounded; the list may then miss paths)
            queue = heapq.nsmallest(min(_KEPT_AGENDA, 10 * n), queue)
    return results


#: Hugging Face's agenda limits for :func:`nbest`: past ``_MAX_AGENDA`` entries, the best
#: ``min(_KEPT_AGENDA, 10 n)`` are kept.
_MAX_AGENDA = 100_000
_KEPT_AGENDA = 512


def _logsumexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if a < b:
        a, b = b, a
    return a + math.log1p(math.exp(b - a))


def sample(table: Table, text: str, unk_score: float, alpha: float, rng: random.Random) -> list[Edge]:
    """One segmentation drawn with probability proportional to ``exp(alpha * score)``.

    Forward pass: ``fwd[e]`` is the log of the summed weights of every segmentation of ``text[:e]``;
    then from the end, each step picks an edge ending there with probability
    ``exp(fwd[start] + alpha * score - fwd[end])``.
    """
    size = len(text)
    rows = edges(table, text, unk_score)
    ending: list[list[tuple[int, int | None, float]]] = [[] for _ in range(size + 1)]
    fwd = [-math.inf] * (size + 1)
    fwd[0] = 0.0
    for s, row in enumerate(rows):
        base = fwd[s]
        for e, token_id, score in row:
            weight = alpha * score
            ending[e].append((s, token_id, weight))
            fwd[e] = _logsumexp(fwd[e], base + weight)
    out: list[Edge] = []
    pos = size
    while pos > 0:
        total = fwd[pos]
        draw = rng.random()
        acc = 0.0
        chosen = ending[pos][-1]
        for cand in ending[pos]:
            acc += math.exp(fwd[cand[0]] + cand[2] - total)
            if draw < acc:
                chosen = cand
                break
        out.append((chosen[0], pos, chosen[1]))
        pos = chosen[0]
    out.reverse()
    return out


def marginals(table: Table, text: str, unk_score: float) -> tuple[float, list[tuple[int, float]]]:
    """``(log Z, [(id, expected count), ...])`` of ``text`` (forward-backward over its lattice).

    ``log Z`` is the log of the summed probabilities of every segmentation; unknown edges count for
    nothing. The trainer's E-step, written plainly; see :mod:`algorithms.unigram_trainer` for its fast twin.
    """
    size = len(text)
    rows = edges(table, text, unk_score)
    fwd = [-math.inf] * (size + 1)
    fwd[0] = 0.0
    for s, row in enumerate(rows):
        for e, _, score in row:
            fwd[e] = _logsumexp(fwd[e], fwd[s] + score)
    bwd = [-math.inf] * (size + 1)
    bwd[size] = 0.0
    for s in range(size - 1, -1, -1):
        for e, _, score in rows[s]:
            bwd[s] = _logsumexp(bwd[s], score + bwd[e])
    z = fwd[size]
    out = [
        (token_id, math.exp(fwd[s] + score + bwd[e] - z))
        for s, row in enumerate(rows)
        for e, token_id, score in row
        if token_id is not None
    ]
    return z, out
