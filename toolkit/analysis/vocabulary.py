"""Measures of a vocabulary itself: unreachable tokens, and the tokens a text never uses.

This module owns :func:`unreachable_tokens` (the under-trained "glitch token" indicator of Land &
Bartolo 2024: a token ``t`` is unreachable when encoding the text it decodes to never gives ``[t]``)
and :func:`never_used` (the tokens of a vocabulary absent from counted ids). ``docs/compare.md``
defines both; :func:`~toolkit.analysis.report.compare` reports them.

>>> from algorithms import BPE
>>> from toolkit import Tokenizer
>>> vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
>>> tok = Tokenizer(BPE(vocab, [("a", "b"), ("b", "c"), ("a", "bc")]))
>>> [u.token for u in unreachable_tokens(tok).unreachable]   # "abc" encodes as ab|c: (a, bc) never applies
['abc']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.analysis.metrics import as_tokenizer, for_measuring, non_text_tokens
from toolkit.errors import ConfigError, InputError

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["Unreachable", "UnreachableReport", "unreachable_tokens", "never_used"]

#: Context tried when a token's text alone does not encode back to it: a token that SentencePiece-style
#: pipelines only produce after another token (``ing`` without ``▁``) is reachable after a newline.
_ANCHOR = "\n"


@dataclass(frozen=True)
class Unreachable:
    """One unreachable token: its id, its string, the text it decodes to, and what that text encodes to."""

    id: int
    token: str
    text: str
    encoded: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.token!r} → {self.text!r} → {' '.join(map(repr, self.encoded))}"


@dataclass(frozen=True)
class UnreachableReport:
    """The result of :func:`unreachable_tokens` on one tokenizer.

    ``checked`` tokens were decoded and encoded again; ``unreachable`` lists those that did not come
    back (by id). Not checked: special tokens (``specials``), tokens standing for part of a UTF-8
    character (``partial``: their text alone is not valid text, e.g. 1,584 byte tokens of GPT-4o) and
    continuation tokens (``##ing``: ``continuation``), which only ever follow another token.
    """

    checked: int = 0
    unreachable: list[Unreachable] = field(default_factory=list)
    partial: int = 0
    continuation: int = 0
    specials: int = 0

    @property
    def count(self) -> int:
        """Number of unreachable tokens."""
        return len(self.unreachable)

    def to_dict(self, *, examples: int | None = None) -> dict[str, Any]:
        """Counts and the unreachable tokens (the first ``examples`` of them; all with ``None``)."""
        shown = self.unreachable if examples is None else self.unreachable[:examples]
        return {
            "count": self.count, "checked": self.checked, "partial_utf8": self.partial,
            "continuation": self.continuation, "special": self.specials,
            "tokens": [{"id": u.id, "token": u.token, "text": u.text, "encoded": list(u.encoded)} for u in shown],
        }


def _encoder(tok: Tokenizer) -> Any:
    """``encode_ids`` without post-processor specials; text it cannot encode gives ``[]``."""
    encode = tok.encode_ids

    def run(text: str) -> list[int]:
        try:
            return encode(text, add_special_tokens=False)
        except InputError:  # a character the model cannot encode (no unknown token): nothing comes back
            return []

    return run


def _decoder(tok: Tokenizer) -> Any:
    """The text of one token string: the decoder's, or the token itself (``decode`` without its checks)."""
    decoder = tok.decoder
    if decoder is None:
        return lambda token: token
    return lambda token: decoder.decode([token])


def unreachable_tokens(tokenizer: Tokenizer, ids: Iterable[int] | None = None) -> UnreachableReport:
    """Which tokens of ``tokenizer`` can never come out of encoding text (Land & Bartolo 2024).

    For every ordinary token ``t`` the text ``s = decode([t])`` is encoded: ``t`` is reachable when
    that gives ``[t]``. Each distinct text is encoded once, however many tokens decode to it.
    Pipelines that decode a lone token without its context (SentencePiece's ``▁`` is removed at the
    start of a text, so ``ing`` and ``▁ing`` both decode to ``ing``) get a second chance: ``t`` is
    also reachable when ``decode(encode("\\n") + [t])`` encodes to ``encode("\\n") + [t]``. Not
    checked: special tokens, continuation tokens (``##ing``) and tokens for part of a UTF-8 character.
    A 200,000-token vocabulary takes a few seconds (one encode per token); ``ids`` checks only those
    token ids (a sample).

    >>> from algorithms import BPE
    >>> from toolkit import Tokenizer
    >>> vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    >>> r = unreachable_tokens(Tokenizer(BPE(vocab, [("a", "b"), ("b", "c"), ("a", "bc")])))
    >>> r.checked, r.count, str(r.unreachable[0])
    (6, 1, "'abc' → 'abc' → 'ab' 'c'")
    """
    tokenizer = for_measuring(as_tokenizer(tokenizer, "unreachable_tokens: tokenizer"))
    model = tokenizer.model
    specials = non_text_tokens(tokenizer)
    prefix = getattr(model, "continuing_subword_prefix", None) or ""
    encode, decode = _encoder(tokenizer), _decoder(tokenizer)
    anchor = encode(_ANCHOR)
    texts: dict[int, str] = {}
    partial = continuation = special = 0
    wanted = None if ids is None else _token_ids(ids)
    vocab = sorted(tokenizer.get_vocab().items(), key=lambda item: item[1])
    if wanted is not None:
        vocab = [(token, i) for token, i in vocab if i in wanted]
    for token, token_id in vocab:
        if token in specials:
            special += 1
        elif prefix and token.startswith(prefix) and len(token) > len(prefix):
            continuation += 1
        else:
            text = decode(token)
            if "\ufffd" in text and "\ufffd" not in token:
                partial += 1  # part of a UTF-8 character (a byte token): no text decodes to it alone
            else:
                texts[token_id] = text
    encoded = {text: encode(text) for text in set(texts.values())}  # each distinct text once
    bad = [
        Unreachable(token_id, tokenizer.id_to_token(token_id) or "", text, tuple(_tokens(tokenizer, encoded[text])))
        for token_id, text in texts.items()
        if encoded[text] != [token_id] and not (anchor and _reachable_after(tokenizer, encode, anchor, token_id))
    ]
    return UnreachableReport(len(texts), bad, partial, continuation, special)


def _token_ids(ids: Any) -> set[int]:
    """``ids`` (an iterable of integer token ids, e.g. a ``range``) as a set; anything else is a
    :class:`ConfigError`: a string would be its characters, and no token id is a character."""
    from toolkit.arguments import as_index

    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        raise ConfigError(f"unreachable_tokens: ids must be an iterable of token ids (e.g. range(0, n, 20)), "
                          f"got {type(ids).__name__} {ids!r:.60}")
    out = set()
    for i in ids:
        index = as_index(i)
        if index is None:
            raise ConfigError(f"unreachable_tokens: ids must hold integer token ids, got {type(i).__name__} {i!r:.60}")
        out.add(index)
    return out


def _reachable_after(tokenizer: Tokenizer, encode: Any, anchor: list[int], token_id: int) -> bool:
    """``token_id`` comes back when its text follows the anchor's tokens."""
    ids = encode(tokenizer.decode([*anchor, token_id]))
    return ids == [*anchor, token_id]


def _tokens(tokenizer: Tokenizer, ids: list[int]) -> list[str]:
    return [tokenizer.id_to_token(i) or f"<{i}>" for i in ids]


def never_used(tokenizer: Tokenizer, counts: Mapping[int, int]) -> list[str]:
    """The tokens of ``tokenizer`` (in id order, special tokens included) whose id is not in ``counts``.

    >>> from algorithms import BPE
    >>> from toolkit import Tokenizer
    >>> never_used(Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])), {2: 5})
    ['a', 'b']
    """
    tokenizer = as_tokenizer(tokenizer, "never_used: tokenizer")
    if not isinstance(counts, Mapping):
        raise ConfigError(f"never_used: counts must be a mapping of token ids to counts, got {type(counts).__name__}")
    return [token for token, i in sorted(tokenizer.get_vocab().items(), key=lambda item: item[1]) if i not in counts]
