"""Vocabulary and merge-list checks shared by the BPE models, their trainers and ``from_dict``, and
the vocabulary look-ups both BPE models expose (:class:`VocabLookup`).

Vocabularies can hold 100 000+ entries, so they are checked with explicit loops (one pass, one dict
look-up per entry) instead of pydantic. Every problem raises a typed error naming the bad entry:

* :class:`~toolkit.errors.ConfigError` — the *shape* is wrong (``vocab`` is not an object, an id is
  not an integer, a merge is not a pair of strings);
* :class:`~toolkit.errors.VocabularyError` — the content is inconsistent (negative or duplicate ids,
  a merge naming an unknown token, a merged token missing from the vocabulary, a special token or
  ``unk_token`` that is not in the vocabulary).

>>> check_vocab({"a": 0, "b": 0}, where="BPE")
Traceback (most recent call last):
...
toolkit.errors.VocabularyError: BPE.vocab: ids must be unique, but 'a' and 'b' both have id 0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolkit import limits
from toolkit.errors import ConfigError, TrainingError, VocabularyError

__all__ = [
    "VocabLookup",
    "checked_word_counts",
    "check_vocab", "parse_merges", "check_special_tokens", "ordered_vocab", "merges_to_json"]



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

    >>> check_vocab({"a": 0, "b": 1}, where="BPE")
    {0: 'a', 1: 'b'}
    """
    if not isinstance(vocab, Mapping):
        raise ConfigError(f"{where}.vocab: must be an object mapping token strings to ids, got {type(vocab).__name__}")
    limits.check_vocab_size(len(vocab), where=f"{where}.vocab")
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
        other = inverse.get(token_id)
        if other is not None:
            raise VocabularyError(f"{where}.vocab: ids must be unique, but {other!r} and {token!r} both have id {token_id}")
        inverse[token_id] = token
    return inverse


def parse_merges(merges: Any, *, where: str) -> list[tuple[str, str]]:
    """Normalize a merge list to ``[(left, right), ...]``.

    Accepts pairs (``["a", "b"]``/tuples, the current Hugging Face format) and ``"a b"`` strings (the
    ``merges.txt`` / older ``tokenizer.json`` format).

    >>> parse_merges([["a", "b"], "ab c"], where="BPE")
    [('a', 'b'), ('ab', 'c')]
    """
    if merges is None:
        return []
    if isinstance(merges, (str, bytes, Mapping)) or not isinstance(merges, Iterable):
        raise ConfigError(f"{where}.merges: must be a list of [left, right] pairs, got {type(merges).__name__}")
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
) -> dict[str, int]:
    """Special tokens given as a list of strings that must be in ``vocab``; return ``{token: id}``.

    ``missing`` is the fix named when a token is not in ``vocab`` (a ``str.format`` template that may
    use ``{token!r}``).

    >>> check_special_tokens(["<s>"], {"a": 0, "<s>": 1}, where="BPE")
    {'<s>': 1}
    """
    if isinstance(special_tokens, (str, bytes)) or not isinstance(special_tokens, Iterable):
        raise ConfigError(f"{where}.special_tokens: must be a list of token strings, got {special_tokens!r}")
    out: dict[str, int] = {}
    for token in special_tokens:
        if not isinstance(token, str):
            raise ConfigError(f"{where}.special_tokens: {token!r} is not a string")
        token_id = vocab.get(token)
        if token_id is None:
            raise VocabularyError(
                f"{where}.special_tokens: {token!r} is not in the vocabulary; " + missing.format(token=token)
            )
        out[token] = token_id
    return out


def ordered_vocab(vocab: Mapping[str, int]) -> dict[str, int]:
    """The vocabulary sorted by id: the canonical (deterministic) order in files and ``get_vocab``."""
    return dict(sorted(vocab.items(), key=lambda item: item[1]))


def merges_to_json(merges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Merges as JSON arrays ``[["a", "b"], ...]`` (the Hugging Face ``tokenizer.json`` form)."""
    return [[left, right] for left, right in merges]


def checked_word_counts(word_counts: Mapping[str, int]) -> list[tuple[str, int]]:
    """The ``(word, count)`` items, checked; words with a zero count are skipped."""
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
        if count and word:
            items.append((word, count))
    if not items:
        raise TrainingError(
            "cannot train on an empty corpus: no words after normalization and pre-tokenization "
            "(check the corpus path and that the pre-tokenizer does not drop everything)"
        )
    return items
