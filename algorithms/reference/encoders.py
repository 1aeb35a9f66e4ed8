"""Slow, readable reference encoders: the test oracles of the fast encoding paths.

Each function encodes one piece the way the definition reads, sharing no code with the fast models:

* :func:`reference_bpe` — character-level BPE: split into characters (continuing prefix, end-of-word
  suffix), unknown characters as ``unk_token`` (fused runs with ``fuse_unk``) or ``<0xNN>`` bytes
  with ``byte_fallback``, then repeatedly merge the adjacent pair of lowest rank (leftmost first);
* :func:`reference_byte_level_bpe` — byte-level BPE, merges mode (a merge list) or rank mode
  (tiktoken: merge the adjacent pair whose concatenation has the lowest rank);
* :func:`reference_wordpiece` — longest-match-first with ``##`` continuations, the whole word
  ``unk_token`` when some position has no match or the word is too long.

>>> vocab = {"a": 0, "b": 1, "ab": 2}
>>> reference_bpe("abb", vocab, [("a", "b")])
[2, 1]
>>> reference_wordpiece("abc", {"[UNK]": 0, "a": 1, "##b": 2})
[0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["reference_bpe", "reference_byte_level_bpe", "reference_wordpiece"]


def _merge_lowest_rank(symbols: list[str], rank_of: dict[tuple[str, str], int], merged: dict[tuple[str, str], str]) -> list[str]:
    """Merge the leftmost adjacent pair of lowest rank until no adjacent pair has a rank."""
    while True:
        best = None
        for i in range(len(symbols) - 1):
            rank = rank_of.get((symbols[i], symbols[i + 1]))
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, i)
        if best is None:
            return symbols
        i = best[1]
        symbols = symbols[:i] + [merged[(symbols[i], symbols[i + 1])]] + symbols[i + 2 :]


def reference_bpe(
    piece: str,
    vocab: Mapping[str, int],
    merges: Sequence[tuple[str, str]],
    *,
    unk_token: str | None = None,
    continuing_subword_prefix: str | None = None,
    end_of_word_suffix: str | None = None,
    fuse_unk: bool = False,
    byte_fallback: bool = False,
    ignore_merges: bool = False,
    special_tokens: Sequence[str] = (),
) -> list[int]:
    """The ids of ``piece`` under character-level BPE (Hugging Face ``models.BPE`` semantics).

    Raises ``KeyError`` for an unknown character when there is no ``unk_token`` (the fast model
    raises :class:`~toolkit.errors.InputError`).
    """
    if not piece:
        return []
    if ignore_merges and piece in vocab and piece not in special_tokens:
        return [vocab[piece]]
    prefix = continuing_subword_prefix or ""
    suffix = end_of_word_suffix or ""
    # 1. Characters as symbols (a token string each); an unknown character is the unk_token symbol.
    symbols: list[str] = []
    unknown_before = False
    for i, c in enumerate(piece):
        s = (prefix + c if i > 0 else c) + (suffix if i == len(piece) - 1 else "")
        fallback = [f"<0x{b:02X}>" for b in c.encode("utf-8", "surrogatepass")]
        if s in vocab:
            symbols.append(s)
        elif byte_fallback and all(t in vocab for t in fallback):
            symbols.extend(fallback)
        elif unk_token is None:
            raise KeyError(c)
        elif not (fuse_unk and unknown_before):  # fuse_unk: one unknown token for the whole run
            symbols.append(unk_token)
        unknown_before = s not in vocab and not (byte_fallback and all(t in vocab for t in fallback))
    # 2. Merges by rank; a merge producing a special token never applies.
    rank_of: dict[tuple[str, str], int] = {}
    merged: dict[tuple[str, str], str] = {}
    for rank, (left, right) in enumerate(merges):
        result = left + (right[len(prefix):] if prefix and right.startswith(prefix) else right)
        if result not in special_tokens and (left, right) not in rank_of:
            rank_of[(left, right)] = rank
            merged[(left, right)] = result
    return [vocab[s] for s in _merge_lowest_rank(symbols, rank_of, merged)]


def reference_byte_level_bpe(
    piece: str,
    vocab: Mapping[str, int],
    merges: Sequence[tuple[str, str]] | None = None,
    *,
    ignore_merges: bool = False,
    special_tokens: Sequence[str] = (),
) -> list[int]:
    """The ids of a byte-level ``piece`` (one character per byte, as ``ByteLevel`` writes it).

    With ``merges`` (merges mode) pairs merge by their rank in the list; with ``merges=None`` (rank
    mode, tiktoken) a piece that is a token is that token, otherwise the adjacent pair whose
    concatenation has the lowest id merges first.
    """
    regular = {t: i for t, i in vocab.items() if t not in special_tokens}
    if (ignore_merges or merges is None) and piece in regular:
        return [regular[piece]]
    symbols = list(piece)
    if merges is None:
        rank_of: dict[tuple[str, str], int] = {}
        merged: dict[tuple[str, str], str] = {}
        for token, token_id in regular.items():
            for i in range(1, len(token)):
                if token[:i] in regular and token[i:] in regular:
                    rank_of[(token[:i], token[i:])] = token_id
                    merged[(token[:i], token[i:])] = token
        return [regular[s] for s in _merge_lowest_rank(symbols, rank_of, merged)]
    rank_of, merged = {}, {}
    for rank, (left, right) in enumerate(merges):
        if left + right not in special_tokens and (left, right) not in rank_of:
            rank_of[(left, right)] = rank
            merged[(left, right)] = left + right
    return [vocab[s] for s in _merge_lowest_rank(symbols, rank_of, merged)]


def reference_wordpiece(
    word: str,
    vocab: Mapping[str, int],
    *,
    unk_token: str = "[UNK]",
    continuing_subword_prefix: str = "##",
    max_input_chars_per_word: int = 100,
    special_tokens: Sequence[str] = (),
) -> list[int]:
    """The ids of ``word`` under WordPiece: longest match first, the whole word unknown on failure."""
    if not word:
        return []
    if len(word) > max_input_chars_per_word:
        return [vocab[unk_token]]
    regular = {t: i for t, i in vocab.items() if t not in special_tokens}
    out: list[int] = []
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):  # longest candidate first
            candidate = word[start:end] if start == 0 else continuing_subword_prefix + word[start:end]
            if candidate in regular:
                out.append(regular[candidate])
                start = end
                break
        else:
            return [vocab[unk_token]]
    return out
