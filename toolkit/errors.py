"""The toolkit's one exception hierarchy.

Every error the toolkit raises on purpose is a :class:`ToolkitError`, so callers can catch one class.
Subclasses say which kind of thing was wrong; the message names the problem and, where there is one,
the fix. ``ValueError`` is a base too, so code that already catches ``ValueError`` keeps working.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "ToolkitError",
    "ConfigError",
    "SerializationError",
    "RegistryError",
    "VocabularyError",
    "InputError",
    "InputTypeError",
    "TrainingError",
    "CorpusError",
    "VocabSizeWarning",
    "did_you_mean",
]


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known name to a misspelled one, else ``""``.

    >>> did_you_mean("bpee", ["bpe", "wordpiece"])
    " (did you mean 'bpe'?)"
    """
    if not isinstance(name, str) or not name:
        return ""
    known = list(known)
    folded = {k.lower().replace("-", "_"): k for k in known}
    key = name.lower().replace("-", "_")
    match = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.6)
    if not match:  # a prefix of exactly one name: "gpt2" -> "gpt2_style"
        match = [k for k in folded if k.startswith(key)][:2]
        match = match if len(match) == 1 else []
    return f" (did you mean {folded[match[0]]!r}?)" if match and folded[match[0]] != name else ""


class ToolkitError(ValueError):
    """Base class of every error raised on purpose by the toolkit."""


class ConfigError(ToolkitError):
    """A component option or a training configuration is invalid (wrong value, unknown key...)."""


class SerializationError(ToolkitError):
    """A tokenizer file cannot be read or written: malformed JSON, missing or wrong fields, newer version."""


class RegistryError(ToolkitError):
    """A component type is unknown, or a plugin tried to register a name that is already taken."""


class VocabularyError(ToolkitError):
    """A vocabulary or merge list is inconsistent (missing ``[UNK]``, duplicate ids, unknown merge parts...)."""


class InputError(ToolkitError):
    """Text or ids given to encode/decode cannot be processed (lone surrogates, unknown ids...)."""


class InputTypeError(InputError, TypeError):
    """An argument to encode/decode/look-up has the wrong type (``encode(None)``, ``decode(["1"])``...).
    A ``TypeError`` too, as HF ``tokenizers`` raises for these, so both ``except`` clauses catch it."""


class TrainingError(ToolkitError):
    """Training cannot run or cannot produce the requested model (empty corpus, vocab too small...)."""


class CorpusError(ToolkitError):
    """A corpus source cannot be read: missing file, invalid UTF-8, unreadable mid-way."""


class VocabSizeWarning(UserWarning):
    """Training stopped below the requested ``vocab_size``: the corpus has no more pairs to merge."""
