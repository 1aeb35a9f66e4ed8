"""Added tokens: :class:`AddedToken` and the :class:`AddedVocabulary` that cuts text at them.

This module owns the matching rules of Hugging Face ``tokenizers`` (``AddedVocabulary``): tokens are
found leftmost-longest, first on the raw text (tokens with ``normalized=False``), then on the
normalized text of what is left (``normalized=True``); ``single_word`` refuses a match touching a
word character, ``lstrip`` / ``rstrip`` take the whitespace beside it into the token. Special
tokens are matched only when allowed (``allowed_special``); otherwise their text is ordinary text
(HF's ``encode_special_tokens=True``). Ids of new tokens follow the model's vocabulary, as in HF.

>>> vocab = AddedVocabulary()
>>> vocab.add([AddedToken("<think>")], model_size=10, lookup=lambda s: None)
1
>>> [(s.token, s.start, s.end) for s in vocab.cut("a<think>b", None, frozenset()) if s.token_id is not None]
[('<think>', 1, 8)]
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

import regex

from toolkit import limits
from toolkit.alignment import NormalizedString
from toolkit.errors import ConfigError, SerializationError
from toolkit.unicode_tables import RANGES

__all__ = ["FLAGS", "AddedToken", "AddedVocabulary", "Segment", "implied_token", "implied_tokens"]

#: The boolean options of an added token, in HF's order.
FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")

# HF uses the Rust ``regex`` crate's Unicode ``\w`` and ``\s``. ``\w`` (Alphabetic, M, Nd, Pc,
# Join_Control) at HF's Unicode version, pinned (the installed ``regex`` module's tables are newer:
# 17,559 code points differ); White_Space has not changed since.
_WORD_STARTS, _WORD_ENDS = zip(*RANGES["hf_word"])
_SPACE = regex.compile(r"\p{White_Space}")


def _is_word(ch: str) -> bool:
    r"""Whether ``ch`` is a word character for ``single_word`` (HF's ``\w``)."""
    i = bisect_right(_WORD_STARTS, ord(ch)) - 1
    return i >= 0 and ord(ch) <= _WORD_ENDS[i]


class AddedToken:
    """A token matched in text before the model sees it, with HF ``tokenizers``' options.

    ``normalized`` defaults to ``not special`` (HF's default), decided again when
    ``add_special_tokens`` marks the token special: ``AddedToken("<tool>")`` is normalized, but added
    with ``add_special_tokens`` it is not, unless ``normalized=True`` was given. Immutable and
    hashable: build a new one to change an option. An empty ``content`` is allowed, and adding it does
    nothing (as in HF).

    >>> AddedToken("<tool>", rstrip=True)
    AddedToken('<tool>', rstrip=True, normalized=True)
    >>> AddedToken("<s>", special=True).normalized, str(AddedToken("<s>"))
    (False, '<s>')
    """

    __slots__ = ("content", *FLAGS, "_normalized_given")
    content: str
    single_word: bool
    lstrip: bool
    rstrip: bool
    normalized: bool
    special: bool
    _normalized_given: bool

    def __init__(
        self, content: str, *, single_word: bool = False, lstrip: bool = False, rstrip: bool = False,
        normalized: bool | None = None, special: bool = False,
    ) -> None:
        if not isinstance(content, str):
            raise ConfigError(f"AddedToken content must be a str, got {type(content).__name__} {content!r:.60}")
        problem = limits.surrogate_problem(content)
        if problem is not None:  # no text can hold it, and no file either (HF refuses it too)
            raise ConfigError(f"AddedToken content {problem}; give the token as valid text")
        values = {"single_word": single_word, "lstrip": lstrip, "rstrip": rstrip,
                  "normalized": (not special) if normalized is None else normalized, "special": special}
        for name, value in values.items():
            if value is not True and value is not False:
                raise ConfigError(f"AddedToken {name} must be True or False, got {value!r:.60}")
        object.__setattr__(self, "content", content)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_normalized_given", normalized is not None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise ConfigError(f"AddedToken is immutable; build a new one, e.g. AddedToken(content, {name}=...)")

    def _key(self) -> tuple[Any, ...]:
        return (self.content, *(getattr(self, f) for f in FLAGS))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AddedToken) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        flags = "".join(f", {f}=True" for f in FLAGS if getattr(self, f))
        return f"AddedToken({self.content!r}{flags})"

    def __str__(self) -> str:
        return self.content  # as HF's: the token's text

    def _arguments(self) -> tuple[Any, ...]:
        """The arguments of :func:`_rebuild` that make this token again: ``normalized`` as given (``None``
        when it was left to the default, which ``special`` then decides)."""
        return (*self._key()[:4], self.normalized if self._normalized_given else None, self.special)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, self._arguments())

    def to_dict(self) -> dict[str, Any]:
        """HF's field names: ``content`` and the five flags."""
        return {"content": self.content, **{f: getattr(self, f) for f in FLAGS}}

    @classmethod
    def from_dict(cls, data: Any, *, where: str = "added_tokens") -> AddedToken:
        """From HF's ``added_tokens`` entry (``id`` ignored; absent flags take HF's defaults)."""
        if not isinstance(data, Mapping):
            raise SerializationError(f"{where}: must be an object, got {type(data).__name__}")
        for name in FLAGS:
            if name in data and not isinstance(data[name], bool):
                raise SerializationError(f"{where}.{name}: must be true or false, got {data[name]!r:.60}")
        content = data.get("content")
        if not isinstance(content, str) or not content:
            raise SerializationError(f"{where}.content: must be a non-empty string, got {content!r:.60}")
        return cls(content, **{f: data[f] for f in FLAGS if f in data})


def _rebuild(content: str, single_word: bool, lstrip: bool, rstrip: bool, normalized: bool | None,
             special: bool) -> AddedToken:
    return AddedToken(content, single_word=single_word, lstrip=lstrip, rstrip=rstrip, normalized=normalized,
                      special=special)


def implied_token(content: str) -> AddedToken:
    """A model's special token as an added token, with HF's flags for it (``special=True``, so not normalized).

    >>> implied_token("<s>")
    AddedToken('<s>', special=True)
    """
    return AddedToken(content, special=True)


def implied_tokens(specials: Mapping[str, int]) -> dict[int, AddedToken]:
    """id → :func:`implied_token` of each of a model's special tokens (token → id)."""
    return {i: implied_token(c) for c, i in specials.items()}


def as_added_token(value: Any, *, special: bool) -> AddedToken:
    """A ``str`` or :class:`AddedToken` given to ``add_tokens`` / ``add_special_tokens`` (the latter
    marks every token special, as HF does: then ``normalized`` defaults to False unless given)."""
    if isinstance(value, str):
        return AddedToken(value, special=special)
    if isinstance(value, AddedToken):
        if special and not value.special:
            return _rebuild(*value._arguments()[:5], True)
        return value
    raise ConfigError(f"added tokens must be str or AddedToken, got {type(value).__name__} {value!r:.60}")


class Segment(NamedTuple):
    """A part of the input: an added token (``token_id`` set) or text for the pipeline.

    ``start`` / ``end`` are offsets in the original text of the cut raw piece (for text: where its
    normalized form ``ns`` begins); ``ns.normalized[nstart:nend]`` is the text or the token matched.
    """

    token_id: int | None
    token: str
    start: int
    end: int
    ns: NormalizedString | None
    nstart: int
    nend: int


class _Matcher:
    """Leftmost-longest literal matching (HF's Aho-Corasick ``LeftmostLongest``): at the first
    position where a token starts, the longest token starting there."""

    def __init__(self, contents: Mapping[str, int]) -> None:
        self.ids = dict(contents)
        lengths: dict[str, set[int]] = {}
        for content in contents:
            lengths.setdefault(content[0], set()).add(len(content))
        self.lengths = {c: sorted(ls, reverse=True) for c, ls in lengths.items()}
        chars = "".join(sorted(lengths))
        self.first = regex.compile("[" + "".join(regex.escape(c) for c in chars) + "]") if chars else None

    def find(self, text: str) -> Iterator[tuple[int, int, int]]:
        if self.first is None:
            return
        ids, lengths, search, pos, size = self.ids, self.lengths, self.first.search, 0, len(text)
        while (m := search(text, pos)) is not None:
            i = m.start()
            for n in lengths[text[i]]:
                if i + n > size:
                    continue
                token_id = ids.get(text[i:i + n])
                if token_id is not None:
                    yield i, i + n, token_id
                    pos = i + n
                    break
            else:
                pos = i + 1


class AddedVocabulary:
    """The added tokens of a tokenizer (id → :class:`AddedToken`) and the cutting of text at them."""

    def __init__(self) -> None:
        self._by_id: dict[int, AddedToken] = {}
        self._ids: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._by_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AddedVocabulary) and self._by_id == other._by_id

    # ------------------------------------------------------------------ contents
    @property
    def decoder(self) -> dict[int, AddedToken]:
        """id → :class:`AddedToken`, in id order."""
        return dict(sorted(self._by_id.items()))

    def get_vocab(self) -> dict[str, int]:
        return dict(self._ids)

    def token_to_id(self, content: str) -> int | None:
        return self._ids.get(content)

    def id_to_token(self, token_id: int) -> str | None:
        token = self._by_id.get(token_id)
        return None if token is None else token.content

    @property
    def special_tokens(self) -> dict[str, int]:
        return {t.content: i for i, t in self._by_id.items() if t.special}

    def put(self, token: AddedToken, token_id: int) -> None:
        """Store ``token`` under ``token_id`` (a file's entry); replaces an entry of the same content."""
        old = self._ids.get(token.content)
        if old is not None:
            del self._by_id[old]
        if token_id in self._by_id:
            raise ConfigError(
                f"added token {token.content!r}: id {token_id} already belongs to {self._by_id[token_id].content!r}"
            )
        self._by_id[token_id] = token
        self._ids[token.content] = token_id

    def add(self, tokens: Iterable[AddedToken], *, model_size: int, lookup: Callable[[str], int | None],
            implied: Mapping[str, int] | None = None) -> int:
        """Add ``tokens`` as HF does; return how many were added or changed.

        A token already known (``lookup``: the model's id of a content, or this vocabulary's) keeps its
        id; a new one gets the next id after the model's vocabulary (``model_size``) and the added ones.
        ``implied``: the model's special tokens, held as added tokens with HF's flags for them
        (``special=True``) unless this vocabulary holds them otherwise: adding one so is no change.
        """
        added = 0
        top = max(self._by_id, default=-1)  # then a running maximum: k tokens cost O(k), not O(k^2)
        by_id, ids = self._by_id, self._ids
        for token in tokens:
            # HF skips empty tokens too; a token held with the same flags is no change (contents are unique)
            if not token.content or by_id.get(ids.get(token.content, -1)) == token:
                continue
            if implied and token.content in implied and token.content not in ids and token == implied_token(
                token.content
            ):
                continue
            token_id = self._ids.get(token.content)
            if token_id is None:
                token_id = lookup(token.content)
            if token_id is None:
                token_id = max(model_size, top + 1)
            by_id.pop(ids.get(token.content, -1), None)
            by_id[token_id] = token
            ids[token.content] = token_id
            top = max(top, token_id)
            added += 1
        return added

    # ------------------------------------------------------------------ cutting
    def cutter(self, specials: Mapping[str, int], normalize_str: Callable[[str], str] | None) -> Cutter:
        """The matcher over these tokens plus ``specials`` (the model's special tokens, HF's default
        flags), with the contents of ``normalized`` tokens normalized by ``normalize_str``."""
        tokens = implied_tokens(specials)
        tokens.update(self._by_id)
        return Cutter(tokens, normalize_str)

    def cut(
        self, text: str, normalizer: Any, allowed: frozenset[str], specials: Mapping[str, int] | None = None
    ) -> list[Segment]:
        """``text`` cut at added tokens (convenience; the pipeline keeps a :class:`Cutter`)."""
        normalize_str = None if normalizer is None else normalizer.normalize_str
        return self.cutter(specials or {}, normalize_str).cut(text, normalizer, allowed)


class Cutter:
    """Cuts text at added tokens (built once per pipeline state, see :meth:`AddedVocabulary.cutter`).

    Which specials the matcher holds depends on ``allowed``: the allowed ones, and, when there are
    non-special tokens, the others too, matched and then passed over as text (HF's
    ``encode_special_tokens=True``: their text is never cut by a shorter added token). Without
    non-special tokens only the allowed specials are searched (tiktoken's ``allowed_special``).
    """

    def __init__(self, tokens: Mapping[int, AddedToken], normalize_str: Callable[[str], str] | None) -> None:
        self.tokens = dict(tokens)
        self.normalize_str = normalize_str
        #: Nothing to look for unless specials are allowed (the common case: one scan is skipped).
        self.has_plain = any(not t.special for t in self.tokens.values())
        self._matchers: dict[frozenset[str], tuple[_Matcher, _Matcher]] = {}

    def active(self, allowed: frozenset[str]) -> bool:
        """Whether text can contain anything to cut (else the caller encodes it whole)."""
        return self.has_plain or bool(allowed)

    def matchers(self, allowed: frozenset[str]) -> tuple[_Matcher, _Matcher]:
        """The raw and the normalized matcher for ``allowed`` (kept for the last few sets)."""
        found = self._matchers.get(allowed)
        if found is not None:
            return found
        raw: dict[str, int] = {}
        normalized: dict[str, int] = {}
        for i, t in self.tokens.items():
            if t.special and not self.has_plain and t.content not in allowed:
                continue
            if not t.normalized:
                raw.setdefault(t.content, i)
                continue
            content = self.normalize_str(t.content) if self.normalize_str is not None else t.content
            if content:
                normalized.setdefault(content, i)
        if len(self._matchers) >= 16:
            self._matchers.clear()
        found = self._matchers[allowed] = (_Matcher(raw), _Matcher(normalized))
        return found

    def find(self, text: str, matcher: _Matcher, allowed: frozenset[str]) -> list[tuple[int, int, int | None]]:
        """HF's ``find_matches``: ``(start, end, id or None)`` covering ``text``."""
        out: list[tuple[int, int, int | None]] = []
        cursor = 0
        n = len(text)
        for start, stop, token_id in matcher.find(text):
            token = self.tokens[token_id]
            if token.special and token.content not in allowed:
                continue  # the text of a special token that is not allowed is ordinary text
            if token.single_word and ((start > 0 and _is_word(text[start - 1])) or (stop < n and _is_word(text[stop]))):
                continue
            if token.lstrip:
                # HF: never before the end of the previous match, whose rstrip may have taken this
                # match's first characters; what is left of the match may then be nothing
                start = max(start, cursor)
                while start > cursor and _SPACE.match(text[start - 1]):
                    start -= 1
                if start >= stop:
                    continue
            if token.rstrip:
                while stop < n and _SPACE.match(text[stop]):
                    stop += 1
            if cursor < start:
                out.append((cursor, start, None))
            out.append((start, stop, token_id))
            cursor = stop
        if cursor < n:
            out.append((cursor, n, None))
        return out

    def cut(self, text: str, normalizer: Any, allowed: frozenset[str]) -> list[Segment]:
        """Raw matches first; each piece left is normalized (``normalizer.normalize``) and searched
        for ``normalized`` tokens."""
        raw, norm = self.matchers(allowed)
        out: list[Segment] = []
        for start, end, token_id in self.find(text, raw, allowed):
            piece = text[start:end]
            if token_id is not None:
                out.append(Segment(token_id, piece, start, end, None, 0, 0))
                continue
            ns = NormalizedString(piece)
            if normalizer is not None:
                ns = normalizer.normalize(ns)
            normalized = ns.normalized
            for a, b, nid in self.find(normalized, norm, allowed):
                if nid is None:
                    out.append(Segment(None, normalized[a:b], start, end, ns, a, b))
                else:
                    s, e = ns.original_span(a, b)
                    out.append(Segment(nid, normalized[a:b], start + s, start + e, None, 0, 0))
        return out

    def cut_ids(self, text: str, normalize_str: Callable[[str], str] | None, allowed: frozenset[str]) -> list[int | str]:
        """:meth:`cut` for the ids-only path: token ids and normalized texts, in order."""
        raw, norm = self.matchers(allowed)
        out: list[int | str] = []
        for start, end, token_id in self.find(text, raw, allowed):
            if token_id is not None:
                out.append(token_id)
                continue
            piece = text[start:end]
            normalized = normalize_str(piece) if normalize_str is not None else piece
            for a, b, nid in self.find(normalized, norm, allowed):
                out.append(normalized[a:b] if nid is None else nid)
        return out


def read_added_tokens(items: Any, *, source: str) -> list[tuple[int, AddedToken]]:
    """``[(id, AddedToken)]`` of an ``added_tokens`` list (HF's entries: ``id``, ``content``, flags);
    every problem is a :class:`SerializationError` naming the entry."""
    if items is None:
        return []
    if not isinstance(items, list):
        raise SerializationError(f"{source}: added_tokens: must be a list, got {type(items).__name__}")
    out: list[tuple[int, AddedToken]] = []
    seen: dict[int, str] = {}
    ids: dict[str, int] = {}
    for i, item in enumerate(items):
        where = f"{source}: added_tokens[{i}]"
        token = AddedToken.from_dict(item, where=where)
        token_id = item.get("id")
        if not isinstance(token_id, int) or isinstance(token_id, bool) or not 0 <= token_id <= limits.MAX_TOKEN_ID:
            raise SerializationError(
                f"{where}.id: must be an integer from 0 to {limits.MAX_TOKEN_ID} (toolkit.limits.MAX_TOKEN_ID), "
                f"got {token_id!r:.60}"
            )
        if token_id in seen and seen[token_id] != token.content:
            raise SerializationError(f"{where}.id: {token_id} is already the id of {seen[token_id]!r}")
        if ids.get(token.content, token_id) != token_id:
            raise SerializationError(f"{where}: {token.content!r} is listed twice, with ids {ids[token.content]} and {token_id}")
        seen[token_id] = token.content
        ids[token.content] = token_id
        out.append((token_id, token))
    return out


def check_added_ids(entries: list[tuple[int, AddedToken]], model: Any, *, source: str) -> None:
    """The ids of a file's added tokens must agree with ``model``: a token the vocabulary holds keeps
    its id there, and an id the vocabulary gives another token is not reused (the two would encode and
    decode as each other). :class:`SerializationError` naming the entry."""
    for token_id, token in entries:
        known = model.token_to_id(token.content)
        if known is not None and known != token_id:
            raise SerializationError(
                f"{source}: added_tokens: {token.content!r} has id {token_id} but the model vocabulary gives it {known}"
            )
        other = model.id_to_token(token_id) if known is None else None
        if other is not None:
            raise SerializationError(
                f"{source}: added_tokens: {token.content!r} has id {token_id}, which the model vocabulary gives "
                f"to {other!r}; an added token needs an id of its own (from the vocabulary size up)"
            )
