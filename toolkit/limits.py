"""The toolkit's documented maximums, in one place, and the checks that enforce them.

A tokenizer reads text and files from strangers. These ceilings bound the time and memory one call
can take; each is enforced with a typed error naming the limit and how to work around it:

==========================  ================  ======================================================
limit                       value             enforced
==========================  ================  ======================================================
``MAX_INPUT_CHARS``         4 194 304 chars   ``encode``/``encode_batch`` (text and pair each; not
                            (2**22)           ``encode_ids``, linear in its ids) → :class:`InputError`;
                                              padding ``length`` → :class:`ConfigError`
``MAX_VOCAB_SIZE``          4 194 304 tokens  loading/constructing a model, trainer ``vocab_size``
                            (2**22)           → :class:`VocabularyError` / :class:`ConfigError`
``MAX_TOKEN_ID``            2**31 - 1         loading/constructing a model (ids fit in int32)
                                              → :class:`VocabularyError`
``MAX_TOKEN_LENGTH``        1024 characters   loading/constructing a model (vocabulary and special
                                              tokens); trainers never create longer tokens
``MAX_FILE_BYTES``          1 GiB             reading a tokenizer or vocabulary file
                                              → :class:`SerializationError`
``REGEX_TIMEOUT``           5 s               time budget of a user regex per text: ``Replace``'s,
                                              and ``Split``'s default ``timeout`` → :class:`InputError`
``MAX_REGEX_TIMEOUT``       60 s              largest ``Split`` timeout an untrusted file may ask
                                              for (nor may it disable the guard) → ``Split``'s
                                              validation, :class:`SerializationError` on load
``MAX_REGEX_REPEAT``        100 000           product of the repetition counts (``{n}``, ``{n,m}``)
                                              nested in a user regex: bounds compiling it
                                              (``Split``, ``Replace``) → :class:`ConfigError`
``MAX_PINNED_LENGTH``       4 000 000 chars   a user ``Split`` pattern with its Unicode classes
                                              written as pinned ranges (``\\p{L}`` is 12 680)
                                              → :class:`ConfigError`
``MAX_NESTING_DEPTH``       64                JSON nesting of a tokenizer file (toolkit or HF), so
                                              ``Sequence`` in ``Sequence`` → :class:`SerializationError`
``MAX_DOCUMENT_BYTES``      64 MiB            one document of a training corpus file (a line, a
                            (2**26)           JSON line, a whole file with ``document="file"``)
                                              → :class:`CorpusError`
==========================  ================  ======================================================

``MAX_INPUT_CHARS`` also bounds the text *after* normalization (NFKC turns ``"ﷺ"`` into 18
characters, a ``Replace`` content may be long): a normalizer whose output would be longer raises
:class:`InputError`. Files are read with a bounded reader (:func:`read_bounded`), so a FIFO or a
device (``st_size`` 0) cannot get past ``MAX_FILE_BYTES``.

Why these values: the largest real vocabularies have about 260 000 tokens and their longest tokens
128 bytes (GPT-2, cl100k), so the model limits sit 16x and 8x above real files. One ``encode`` makes
at most 4 tokens per (normalized) character, each a few hundred bytes with its offsets (the worst
case measured is in docs/robustness.md). Split longer documents, use
:meth:`~toolkit.Tokenizer.encode_batch`, or ``encode_ids``, which has no size limit.

The checks read this module's attributes at call time, so a program that deliberately needs more
can raise a limit (``toolkit.limits.MAX_INPUT_CHARS = 50_000_000``) before loading or encoding;
worker processes of ``encode_batch(num_workers=...)`` receive the values of the calling process.

>>> check_input_size("hello")
>>> check_vocab_size(10, where="BPE.vocab")
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from itertools import chain, compress
from typing import Any

from toolkit.errors import ConfigError, InputError, SerializationError, ToolkitError, VocabularyError

__all__ = [
    "MAX_INPUT_CHARS",
    "MAX_VOCAB_SIZE",
    "MAX_TOKEN_ID",
    "MAX_TOKEN_LENGTH",
    "MAX_FILE_BYTES",
    "REGEX_TIMEOUT",
    "MAX_REGEX_TIMEOUT",
    "MAX_REGEX_REPEAT",
    "MAX_PINNED_LENGTH",
    "MAX_NESTING_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "snapshot",
    "restore",
    "check_input_size",
    "check_vocab_size",
    "check_token",
    "check_trainer_options",
    "token_text_problem",
    "lone_surrogate",
    "lone_surrogate_in",
    "surrogate_problem",
    "max_trained_token_length",
    "check_file_size",
    "check_normalized_size",
    "check_nesting_depth",
    "read_bounded",
]

#: Characters in one text given to ``encode`` (a pair's second text is checked on its own).
MAX_INPUT_CHARS: int = 1 << 22
#: Entries in one vocabulary, special tokens included.
MAX_VOCAB_SIZE: int = 1 << 22
#: Largest token id (ids are stored as 32-bit signed integers by most model code).
MAX_TOKEN_ID: int = (1 << 31) - 1
#: Characters in one token string (byte-level tokens: one character per byte).
MAX_TOKEN_LENGTH: int = 1024
#: Bytes in one tokenizer / vocabulary file.
MAX_FILE_BYTES: int = 1 << 30
#: Seconds a user regex (``Split``, ``Replace``) may spend on one text by default.
REGEX_TIMEOUT: float = 5.0
#: Largest ``Split`` timeout a validated (untrusted) tokenizer file may set.
MAX_REGEX_TIMEOUT: float = 60.0
#: Product of the counted repetitions nested in one user regex (``(?:a{1000}){100}`` is 100 000).
MAX_REGEX_REPEAT: int = 100_000
#: Characters of a user pattern with its Unicode classes pinned (about 300 uses of ``\\p{L}``).
MAX_PINNED_LENGTH: int = 4_000_000
#: Levels of JSON objects/arrays in one tokenizer file (real files use fewer than 10).
MAX_NESTING_DEPTH: int = 64
#: Longest document (in bytes) training reads from a corpus file: counting holds a document's pieces at
#: once (about 20x its size), so a file with no line ends would otherwise take memory without bound.
MAX_DOCUMENT_BYTES: int = 1 << 26

_NAMES = ("MAX_INPUT_CHARS", "MAX_VOCAB_SIZE", "MAX_TOKEN_ID", "MAX_TOKEN_LENGTH", "MAX_FILE_BYTES",
          "REGEX_TIMEOUT", "MAX_REGEX_TIMEOUT", "MAX_REGEX_REPEAT", "MAX_PINNED_LENGTH", "MAX_NESTING_DEPTH",
          "MAX_DOCUMENT_BYTES")


def snapshot() -> dict[str, Any]:
    """The current values of every limit (sent to worker processes, see :func:`restore`)."""
    module = sys.modules[__name__]
    return {name: getattr(module, name) for name in _NAMES}


def restore(values: Mapping[str, Any]) -> None:
    """Set limits from a :func:`snapshot`."""
    module = sys.modules[__name__]
    for name, value in values.items():
        if name in _NAMES:
            setattr(module, name, value)


def check_input_size(text: str, what: str = "text") -> None:
    """Raise :class:`InputError` when ``text`` is longer than :data:`MAX_INPUT_CHARS`.

    >>> import toolkit.limits as L
    >>> L.check_input_size("x" * (L.MAX_INPUT_CHARS + 1))
    Traceback (most recent call last):
    ...
    toolkit.errors.InputError: text has 4,194,305 characters, more than the limit of 4,194,304 (toolkit.limits.MAX_INPUT_CHARS); split it (by line or paragraph) and encode the parts, e.g. with encode_batch
    """
    limit = MAX_INPUT_CHARS
    if len(text) > limit:
        raise InputError(
            f"{what} has {len(text):,} characters, more than the limit of {limit:,} "
            "(toolkit.limits.MAX_INPUT_CHARS); split it (by line or paragraph) and encode the parts, "
            "e.g. with encode_batch"
        )


def check_vocab_size(size: int, *, where: str, error: type[Exception] = VocabularyError) -> None:
    """Raise ``error`` when a vocabulary of ``size`` entries exceeds :data:`MAX_VOCAB_SIZE`."""
    limit = MAX_VOCAB_SIZE
    if size > limit:
        raise error(
            f"{where}: {size:,} tokens is more than the limit of {limit:,} (toolkit.limits.MAX_VOCAB_SIZE)"
        )


def check_token(token: str | bytes, token_id: int | None, *, where: str) -> None:
    """Raise :class:`VocabularyError` for a token longer than :data:`MAX_TOKEN_LENGTH` or an id above
    :data:`MAX_TOKEN_ID` (types and signs are checked by the callers)."""
    if len(token) > MAX_TOKEN_LENGTH:
        raise VocabularyError(
            f"{where}: token {token[:40]!r}... is {len(token):,} characters long, more than the limit of "
            f"{MAX_TOKEN_LENGTH:,} (toolkit.limits.MAX_TOKEN_LENGTH)"
        )
    if token_id is not None and token_id > MAX_TOKEN_ID:
        raise VocabularyError(
            f"{where}: id {token_id} of {token[:40]!r} is larger than the limit of {MAX_TOKEN_ID} "
            "(toolkit.limits.MAX_TOKEN_ID)"
        )


def token_text_problem(token: str) -> str | None:
    """Why ``token`` cannot be a token of a saved file (empty, too long, a lone surrogate), or ``None``.

    The one rule set of loading and training, so a trainer never writes a file the loader refuses.

    >>> token_text_problem("[UNK]"), token_text_problem("")
    (None, 'the empty string cannot be a token')
    """
    if not token:
        return "the empty string cannot be a token"
    if len(token) > MAX_TOKEN_LENGTH:
        return (
            f"{token[:40]!r}... is {len(token):,} characters long, more than the limit of "
            f"{MAX_TOKEN_LENGTH:,} (toolkit.limits.MAX_TOKEN_LENGTH)"
        )
    return surrogate_problem(token)


def surrogate_problem(text: str) -> str | None:
    """Why ``text`` is not text (its first lone surrogate), or ``None``.

    >>> surrogate_problem("a\\ud800")
    "'a\\\\ud800' holds a lone surrogate (U+D800), which is not text"
    """
    bad = lone_surrogate(text)
    return None if bad is None else f"{text[:40]!r} holds a lone surrogate (U+{ord(bad.group()):04X}), which is not text"


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> re.Match[str] | None:
    """The first lone surrogate of ``text`` (not valid Unicode text: no file can hold it), or ``None``.

    >>> lone_surrogate("ok"), lone_surrogate("a\\ud800b").start()
    (None, 1)
    """
    return None if text.isascii() else _SURROGATE.search(text)  # isascii() is O(1) in CPython


def lone_surrogate_in(data: Any) -> tuple[str, str] | None:
    """Where a parsed document (dicts, lists, strings) holds a lone surrogate, as ``(path, string)``:
    ``"metadata.x"``, ``"added_tokens[3]"``, ``"a key of metadata"``; ``None`` if nowhere.

    A JSON escape such as ``"\\ud800"`` without its pair decodes to one; no file can hold it.

    >>> lone_surrogate_in({"a": ["ok", "x\\ud800"]})
    ('a[1]', 'x\\ud800')
    """
    if not _holds_lone_surrogate(data):  # the common case: no path strings built for a large document
        return None
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if lone_surrogate(value):
                return path, value
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and lone_surrogate(key):
                    return (f"a key of {path}" if path else "a key"), key
                stack.append((item, f"{path}.{key}" if path else str(key)))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return None


def _holds_lone_surrogate(data: Any) -> bool:
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):  # lone_surrogate() inlined: this walk visits every string of a file
            if not value.isascii() and _SURROGATE.search(value):
                return True
        elif isinstance(value, dict):
            if any(isinstance(k, str) and not k.isascii() and _SURROGATE.search(k) for k in value):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def check_trainer_options(
    vocab_size: int,
    special_tokens: Iterable[str],
    *,
    where: str,
    initial_alphabet: Iterable[str] = (),
    affixes: Iterable[str | None] = (),
) -> None:
    """Trainer options checked with the loader's rules (:func:`token_text_problem`), so a trained
    model always loads again: ``vocab_size`` within :data:`MAX_VOCAB_SIZE`, valid special tokens (the
    ``unk_token`` included) and alphabet characters, and a subword prefix plus suffix that leave room
    for one character within :data:`MAX_TOKEN_LENGTH` and hold no lone surrogate. Raises :class:`ConfigError`."""
    check_vocab_size(vocab_size, where=f"{where}.vocab_size", error=ConfigError)
    for token in special_tokens:
        problem = token_text_problem(token)
        if problem is not None:
            raise ConfigError(f"{where}.special_tokens: {problem}")
    for char in initial_alphabet:
        if len(char) == 1 and _SURROGATE.fullmatch(char):
            raise ConfigError(f"{where}.initial_alphabet: {token_text_problem(char)}")
    affixes = [a for a in affixes if a]
    for affix in affixes:
        problem = surrogate_problem(affix)  # (a long affix: the length check below)
        if problem is not None:
            raise ConfigError(f"{where}: continuing_subword_prefix / end_of_word_suffix: {problem}")
    overhead = sum(map(len, affixes))
    if overhead >= MAX_TOKEN_LENGTH:
        raise ConfigError(
            f"{where}: continuing_subword_prefix and end_of_word_suffix have {overhead:,} characters; with "
            f"one character of text a token would exceed {MAX_TOKEN_LENGTH:,} (toolkit.limits.MAX_TOKEN_LENGTH)"
        )


def max_trained_token_length(user_limit: int | None, overhead: int = 0) -> int:
    """The longest token (in characters of the original text) a trainer may create: the trainer's own
    ``max_token_length`` when set, and never more than :data:`MAX_TOKEN_LENGTH` minus ``overhead``
    (the characters a prefix/suffix adds to the token string)."""
    cap = max(1, MAX_TOKEN_LENGTH - overhead)
    return cap if user_limit is None else min(user_limit, cap)


def check_file_size(size: int, *, source: str) -> None:
    """Raise :class:`SerializationError` when a file to read is larger than :data:`MAX_FILE_BYTES`."""
    limit = MAX_FILE_BYTES
    if size > limit:
        raise SerializationError(
            f"{source}: the file has {size:,} bytes, more than the limit of {limit:,} "
            "(toolkit.limits.MAX_FILE_BYTES) for a tokenizer or vocabulary file"
        )


def check_normalized_size(length: int, *, where: str) -> None:
    """Raise :class:`InputError` when a normalizer would make a text longer than :data:`MAX_INPUT_CHARS`
    (``length`` is the output's length, computed before building it where that is cheap)."""
    limit = MAX_INPUT_CHARS
    if length > limit:
        raise InputError(
            f"{where}: the normalized text would have {length:,} characters, more than the limit of "
            f"{limit:,} (toolkit.limits.MAX_INPUT_CHARS, which also bounds the text after normalization); "
            "split the text and encode the parts"
        )


def check_nesting_depth(data: Any, *, source: str) -> None:
    """Raise :class:`SerializationError` when parsed JSON nests objects/arrays more than
    :data:`MAX_NESTING_DEPTH` levels deep (checked without recursion).

    It walks the document one level at a time, and each level in C-speed passes (the types of its
    values, then the children of its dicts and lists), so the merge lists of large LLM files stay cheap
    (measured: docs/benchmarks.md, "Loading today's LLM tokenizer files"). Dicts and lists are
    recognized as :func:`isinstance` does (subclasses too).

    >>> check_nesting_depth({"a": [[1]]}, source="x")
    """
    limit = MAX_NESTING_DEPTH
    level: list[Any] = [data]
    depth = 0
    while True:
        types = set(map(type, level))
        dict_types = {t for t in types if issubclass(t, dict)}
        list_types = {t for t in types if issubclass(t, list)}
        if not dict_types and not list_types:
            return
        depth += 1
        if depth > limit:
            raise _too_deep(source)
        dicts = compress(level, map(dict_types.__contains__, map(type, level)))
        lists = compress(level, map(list_types.__contains__, map(type, level)))
        level = [*chain.from_iterable(map(dict.values, dicts)), *chain.from_iterable(lists)]


def _too_deep(source: str) -> SerializationError:
    return SerializationError(
        f"{source}: nested more than {MAX_NESTING_DEPTH} levels deep (toolkit.limits.MAX_NESTING_DEPTH); "
        "a Sequence inside a Sequence inside ... is never needed: flatten it"
    )


def read_bounded(
    fh: Any, *, source: str, chunk: int = 1 << 20, error: type[ToolkitError] = SerializationError
) -> bytes:
    """All bytes of the open binary file ``fh``, refusing more than :data:`MAX_FILE_BYTES` with ``error``.

    It counts what it reads rather than trusting ``st_size`` (0 for a FIFO or ``/dev/zero``).
    """
    limit = MAX_FILE_BYTES
    parts: list[bytes] = []
    total = 0
    while True:
        block = fh.read(min(chunk, limit + 1 - total))
        if not block:
            return b"".join(parts)
        parts.append(block)
        total += len(block)
        if total > limit:
            raise error(
                f"{source}: more than {limit:,} bytes, the limit (toolkit.limits.MAX_FILE_BYTES) for one file "
                "or input; split it or raise the limit"
            )
