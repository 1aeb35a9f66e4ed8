"""The vocabulary helpers every model and trainer of :mod:`algorithms` shares.

* :func:`check_vocab` — a ``token -> id`` mapping checked in bulk, not with pydantic (vocabularies
  have 100 000+ entries), entry by entry only to name a problem; :func:`parse_merges`,
  :func:`check_special_tokens`;
* :func:`build_pair_table` — the ``(left_id, right_id) -> rank`` table both BPE models encode with;
* :func:`checked_word_counts` — the trainers' input check; :func:`select_alphabet` — their alphabet;
* :class:`VocabLookup` — the vocabulary accessors of a model.

A wrong *shape* raises :class:`~toolkit.errors.ConfigError` (``vocab`` is not an object, an id is not
an integer); inconsistent *content* raises :class:`~toolkit.errors.VocabularyError` (negative or
duplicate ids, a merge naming an unknown token, a special token missing from the vocabulary).

>>> check_vocab({"a": 0, "b": 0}, where="BPE")
Traceback (most recent call last):
...
toolkit.errors.VocabularyError: BPE.vocab: ids must be unique, but 'a' and 'b' both have id 0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from operator import itemgetter
from typing import Annotated, Any

from pydantic import BeforeValidator, StrictStr

from toolkit import limits
from toolkit.errors import ConfigError, TrainingError, VocabularyError
from toolkit.options import OptionDict

__all__ = [
    "SpecialTokenIds",
    "SpecialTokens",
    "VocabLookup",
    "build_pair_table",
    "check_initial_alphabet",
    "check_special_tokens",
    "check_vocab",
    "checked_word_counts",
    "merges_to_json",
    "ordered_vocab",
    "parse_merges",
    "held_special_tokens",
    "select_alphabet",
    "without_special_results",
]


def _token_names(value: Any) -> Any:
    """A model's ``special_tokens`` as read back (``{token: id}``) names the same tokens: its keys."""
    return list(value) if isinstance(value, Mapping) else value


#: A model's ``special_tokens`` option: a list of vocabulary entries (or the ``{token: id}`` the model
#: shows, read as its tokens, so ``m.special_tokens = m.special_tokens`` changes nothing).
SpecialTokens = Annotated[list[StrictStr], BeforeValidator(_token_names)]


class SpecialTokenIds(OptionDict):
    """A model's special tokens as it holds them, ``{token: id}``; ``+`` a list gives the list of
    tokens to assign, so ``model.special_tokens += ["[PAD]"]`` adds one as for any list option.

    >>> from algorithms import WordLevel
    >>> m = WordLevel({"[UNK]": 0, "[PAD]": 1, "a": 2}, unk_token="[UNK]", special_tokens=["[UNK]"])
    >>> m.special_tokens += ["[PAD]"]
    >>> dict(m.special_tokens)
    {'[UNK]': 0, '[PAD]': 1}
    """

    __slots__ = ()

    def __add__(self, other: Any) -> list[str]:
        return [*self, *other]

    __iadd__ = __add__  # type: ignore[assignment]


def held_special_tokens(model: Any, specials: Mapping[str, int]) -> SpecialTokenIds:
    """The checked ``{token: id}`` a model keeps in its ``special_tokens`` attribute."""
    return SpecialTokenIds(specials, f"{model._where()}.special_tokens")


class VocabLookup:
    """The vocabulary accessors of a model that keeps ``vocab`` (token → id, ordered by id, special
    tokens included) and ``_id_to_token`` (its inverse)."""

    vocab: dict[str, int]
    _id_to_token: dict[int, str]

    def get_vocab(self) -> dict[str, int]:
        """Token string → id, special tokens included (a copy, ordered by id)."""
        return dict(self.vocab)

    @property
    def vocab_size(self) -> int:
        """Number of tokens, special tokens included."""
        return len(self.vocab)

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token`` (a special token too), or ``None``."""
        return self.vocab.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        """The token string of ``token_id``, or ``None``."""
        return self._id_to_token.get(token_id)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_vocab(vocab: Any, *, where: str) -> dict[int, str]:
    """Check a ``token -> id`` mapping; return the inverse ``id -> token``.

    Valid vocabularies are checked in bulk (C-speed passes over the tokens and the ids); any doubt
    falls back to :func:`_check_vocab_items`, which names the first bad entry.

    >>> check_vocab({"a": 0, "b": 1}, where="BPE")
    {0: 'a', 1: 'b'}
    """
    if not isinstance(vocab, Mapping):
        hint = ("; read a vocab.json with toolkit.interop.read_vocab_json (and merges.txt with read_merges_txt)"
                if isinstance(vocab, (str, bytes)) or hasattr(vocab, "__fspath__") else "")
        raise ConfigError(f"{where}.vocab: must be an object mapping token strings to ids, got {type(vocab).__name__}{hint}")
    limits.check_vocab_size(len(vocab), where=f"{where}.vocab")
    tokens = list(vocab)
    ids = list(vocab.values())
    if (
        set(map(type, tokens)) <= {str}
        and set(map(type, ids)) <= {int}  # exact types: a bool is not an id
        and min(ids, default=0) >= 0
        and max(ids, default=0) <= limits.MAX_TOKEN_ID
        and min(map(len, tokens), default=1) > 0
        and max(map(len, tokens), default=0) <= limits.MAX_TOKEN_LENGTH
        and _no_surrogate("".join(tokens))
    ):
        inverse = dict(zip(ids, tokens))
        if len(inverse) == len(ids):
            return inverse
    return _check_vocab_items(vocab, where=where)


def _no_surrogate(text: str) -> bool:
    """True when ``text`` holds no lone surrogate (the one rule of :func:`limits.token_text_problem`
    beyond emptiness and length)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_vocab_items(vocab: Mapping[Any, Any], *, where: str) -> dict[int, str]:
    """:func:`check_vocab` entry by entry: the reference, and the path that names the first problem."""
    max_len, max_id = limits.MAX_TOKEN_LENGTH, limits.MAX_TOKEN_ID
    inverse: dict[int, str] = {}
    for token, token_id in vocab.items():
        if not isinstance(token, str):
            raise ConfigError(f"{where}.vocab: token {token!r} must be a string, got {type(token).__name__}")
        if not _is_int(token_id):
            raise ConfigError(f"{where}.vocab[{token!r}]: id must be an integer, got {token_id!r}")
        if token_id < 0:
            raise VocabularyError(f"{where}.vocab[{token!r}]: id must be >= 0, got {token_id}")
        if not token:
            raise VocabularyError(f"{where}.vocab: the empty string cannot be a token (id {token_id})")
        if token_id > max_id or len(token) > max_len:
            limits.check_token(token, token_id, where=f"{where}.vocab")
        if not token.isascii() and (problem := limits.token_text_problem(token)) is not None:
            raise VocabularyError(f"{where}.vocab: {problem} (id {token_id})")  # a lone surrogate
        other = inverse.get(token_id)
        if other is not None:
            raise VocabularyError(f"{where}.vocab: ids must be unique, but {other!r} and {token!r} both have id {token_id}")
        inverse[token_id] = token
    return inverse


def parse_merges(merges: Any, *, where: str) -> list[tuple[str, str]]:
    """Normalize a merge list to ``[(left, right), ...]``.

    Accepts pairs (``["a", "b"]``/tuples, the current Hugging Face format) and ``"a b"`` strings (the
    ``merges.txt`` / older ``tokenizer.json`` format). A list of one form is checked in bulk; anything
    else goes through :func:`_parse_merge_items`, which names the first bad merge.

    >>> parse_merges([["a", "b"], "ab c"], where="BPE")
    [('a', 'b'), ('ab', 'c')]
    """
    if merges is None:
        return []
    if isinstance(merges, (str, bytes, Mapping)) or not isinstance(merges, Iterable):
        raise ConfigError(f"{where}.merges: must be a list of [left, right] pairs, got {type(merges).__name__}")
    merges = merges if isinstance(merges, list) else list(merges)
    kinds = set(map(type, merges))
    if kinds == {str}:
        pairs = [merge.split(" ") for merge in merges]
        if set(map(len, pairs)) == {2}:
            lefts, rights = zip(*pairs)
            if "" not in lefts and "" not in rights:
                return list(zip(lefts, rights))
    elif kinds and kinds <= {list, tuple} and set(map(len, merges)) == {2}:
        tokens = list(chain.from_iterable(merges))
        if set(map(type, tokens)) == {str}:
            return list(zip(tokens[0::2], tokens[1::2]))
    return _parse_merge_items(merges, where=where)


def _parse_merge_items(merges: Iterable[Any], *, where: str) -> list[tuple[str, str]]:
    """:func:`parse_merges` merge by merge: the reference, and the path that names the first problem."""
    out: list[tuple[str, str]] = []
    for rank, merge in enumerate(merges):
        if isinstance(merge, str):
            parts = merge.split(" ")
            if len(parts) != 2 or not parts[0] or not parts[1]:
                raise ConfigError(f"{where}.merges[{rank}]: {merge!r} is not of the form \"left right\"")
            out.append((parts[0], parts[1]))
            continue
        if (
            not isinstance(merge, (list, tuple))
            or len(merge) != 2
            or not isinstance(merge[0], str)
            or not isinstance(merge[1], str)
        ):
            raise ConfigError(f"{where}.merges[{rank}]: must be a pair of token strings, got {merge!r}")
        out.append((merge[0], merge[1]))
    return out


def check_special_tokens(
    special_tokens: Any,
    vocab: Mapping[str, int],
    *,
    where: str,
    missing: str = "special tokens must be vocabulary entries (trainers add them for you)",
    option: str = "special_tokens",
) -> dict[str, int]:
    """Special tokens given as a list of strings that must be in ``vocab``; return ``{token: id}``.

    ``missing`` is the fix named when a token is not in ``vocab`` (a ``str.format`` template that may
    use ``{token!r}``); ``option`` names the option in errors (other lists of pieces use this check too).

    >>> check_special_tokens(["<s>"], {"a": 0, "<s>": 1}, where="BPE")
    {'<s>': 1}
    """
    if isinstance(special_tokens, (str, bytes)) or not isinstance(special_tokens, Iterable):
        raise ConfigError(f"{where}.{option}: must be a list of token strings, got {special_tokens!r}")
    out: dict[str, int] = {}
    for token in special_tokens:
        if not isinstance(token, str):
            raise ConfigError(f"{where}.{option}: {token!r} is not a string")
        token_id = vocab.get(token)
        if token_id is None:
            raise VocabularyError(
                f"{where}.{option}: {token!r} is not in the vocabulary; " + missing.format(token=token)
            )
        out[token] = token_id
    return out


def ordered_vocab(vocab: Mapping[str, int]) -> dict[str, int]:
    """The vocabulary sorted by id: the canonical (deterministic) order in files and ``get_vocab``.

    >>> ordered_vocab({"b": 1, "a": 0})
    {'a': 0, 'b': 1}
    """
    ids = list(vocab.values())
    if set(map(type, ids)) <= {int} and all(map(int.__lt__, ids, ids[1:])):
        return dict(vocab)  # already in id order (the files we and HF write): no sort
    return dict(sorted(vocab.items(), key=itemgetter(1)))


def merges_to_json(merges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Merges as JSON arrays ``[["a", "b"], ...]`` (the Hugging Face ``tokenizer.json`` form)."""
    return [[left, right] for left, right in merges]


def checked_word_counts(word_counts: Mapping[str, int]) -> list[tuple[str, int]]:
    """The ``(word, count)`` items of a trainer's input, checked; empty words and zero counts are skipped.
    A word with a lone surrogate is refused: no file could hold the vocabulary learnt from it.

    >>> checked_word_counts({"a": 2, "": 5, "b": 0})
    [('a', 2)]
    """
    if not isinstance(word_counts, Mapping):
        raise TrainingError(
            f"train() expects word counts (a mapping piece -> count), got {type(word_counts).__name__}; "
            "use Tokenizer.train(corpus, trainer) to count a corpus"
        )
    items: list[tuple[str, int]] = []
    for word, count in word_counts.items():
        if not isinstance(word, str):
            raise TrainingError(f"word counts: key {word!r} is not a string")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise TrainingError(f"word counts: the count of {word!r} must be a non-negative integer, got {count!r}")
        bad = limits.lone_surrogate(word)
        if bad is not None:
            raise TrainingError(
                f"word counts: {word!r:.60} holds a lone surrogate U+{ord(bad.group()):04X}, which is not valid "
                "Unicode text; decode the corpus with errors='replace' (or fix its source) before training"
            )
        if count and word:
            items.append((word, count))
    if not items:
        raise TrainingError(
            "cannot train on an empty corpus: nothing to train on after normalization and pre-tokenization "
            "(check the corpus path and that the pre-tokenizer does not drop everything)"
        )
    return items


def check_initial_alphabet(initial_alphabet: Iterable[str], *, where: str) -> None:
    """A trainer's ``initial_alphabet`` must hold single characters (:class:`ConfigError` otherwise)."""
    bad = [c for c in initial_alphabet if len(c) != 1]
    if bad:
        raise ConfigError(f"{where}.initial_alphabet: entries must be single characters, got {bad!r}")


def select_alphabet(items: Sequence[tuple[str, int]], initial: Iterable[str], limit: int | None) -> list[str]:
    """The alphabet a trainer starts from: the characters of ``items`` plus ``initial``, sorted by code point.

    ``limit`` keeps that many characters: ``initial`` ones first (they count as infinitely frequent),
    then the most frequent others (occurrences weighted by word count; ties keep the smaller code
    point, so the result is deterministic where Hugging Face leaves the order to its hash map).

    >>> select_alphabet([("aab", 1), ("c", 1)], ["z"], 2)
    ['a', 'z']
    """
    freq: dict[str, float] = {}
    get = freq.get
    for word, count in items:
        for c in word:
            freq[c] = get(c, 0) + count
    for c in initial:
        freq[c] = float("inf")
    kept = list(freq)
    if limit is not None and len(kept) > limit:
        kept.sort(key=lambda c: (-freq[c], c))
        kept = kept[:limit]
    return sorted(kept)


def build_pair_table(
    merges: Sequence[tuple[str, str]],
    vocab: Mapping[str, int],
    special_ids: Iterable[int] = (),
    *,
    prefix: str | None = None,
    where: str,
) -> tuple[dict[tuple[int, int], int], list[int]]:
    """``(pair_rank, rank_id)`` of a merge list: ``(left_id, right_id) -> rank`` and ``rank -> merged id``.

    The merged token of ``(left, right)`` is ``left + right``, without ``prefix`` at the start of
    ``right``. Every token must be in ``vocab``; a repeated pair is an error. A merge whose result is
    one of ``special_ids`` never applies (ordinary text must not turn into a special id; trainers
    never learn such merges, a foreign file may contain them). Built in bulk (look-ups mapped over
    whole columns); a problem is located by :func:`_first_merge_problem`.

    >>> build_pair_table([("a", "b")], {"a": 0, "b": 1, "ab": 2}, where="BPE")
    ({(0, 1): 0}, [2])
    """
    get = vocab.get
    tokens = list(chain.from_iterable(merges))
    if len(tokens) != 2 * len(merges):
        raise ConfigError(f"{where}.merges: every merge must be a pair of token strings")
    lefts, rights = tokens[0::2], tokens[1::2]
    if prefix:
        strip = len(prefix)
        tails = [right[strip:] if right.startswith(prefix) else right for right in rights]
    else:
        tails = rights
    left_ids = list(map(get, lefts))
    right_ids = list(map(get, rights))
    rank_id: list[int] = list(map(get, map(str.__add__, lefts, tails)))  # type: ignore[arg-type]
    pair_rank = dict(zip(zip(left_ids, right_ids), range(len(rank_id))))
    if len(pair_rank) != len(rank_id) or None in left_ids or None in right_ids or None in rank_id:
        raise _first_merge_problem(merges, vocab, prefix=prefix, where=where)
    return without_special_results(pair_rank, rank_id, special_ids), rank_id


def _first_merge_problem(
    merges: Sequence[tuple[str, str]], vocab: Mapping[str, int], *, prefix: str | None, where: str
) -> VocabularyError:
    """The error of the first merge that uses or produces a token outside ``vocab``, or repeats a pair."""
    strip = len(prefix) if prefix else 0
    seen: dict[tuple[int | None, int | None], int] = {}
    for rank, (left, right) in enumerate(merges):
        left_id, right_id = vocab.get(left), vocab.get(right)
        if left_id is None or right_id is None:
            missing = left if left_id is None else right
            return VocabularyError(
                f"{where}.merges[{rank}]: ({left!r}, {right!r}) uses {missing!r}, which is not in the vocabulary"
            )
        merged = left + (right[strip:] if strip and right.startswith(prefix) else right)  # type: ignore[arg-type]
        if merged not in vocab:
            return VocabularyError(
                f"{where}.merges[{rank}]: ({left!r}, {right!r}) produces {merged!r}, which is not in the vocabulary"
            )
        first = seen.setdefault((left_id, right_id), rank)
        if first != rank:
            return VocabularyError(f"{where}.merges[{rank}]: ({left!r}, {right!r}) is a duplicate of merges[{first}]")
    raise AssertionError("_first_merge_problem called on a valid merge list")  # pragma: no cover


def without_special_results(
    pair_rank: dict[tuple[int, int], int], rank_id: Sequence[int], special_ids: Iterable[int]
) -> dict[tuple[int, int], int]:
    """``pair_rank`` without the pairs whose merged id is one of ``special_ids``."""
    banned = set(special_ids)
    if banned.isdisjoint(rank_id):  # the usual case, checked at C speed
        return pair_rank
    return {pair: rank for pair, rank in pair_rank.items() if rank_id[rank] not in banned}
