"""tiktoken ``.tiktoken`` rank files: read, write, and the byte-level pipeline built from them.

This module owns the ``.tiktoken`` format: one line per token, ``<base64 of the token's bytes> <rank>``,
ranks unique and (for OpenAI's files) dense from 0. The rank is both the token id and the merge
priority: encoding repeatedly joins the adjacent pair whose concatenation has the lowest rank
(``ByteLevelBPE.from_ranks``). The file holds neither the split pattern nor the special tokens; the
caller names them (``pattern=CL100K_PATTERN``, ``special_tokens={...}``), or they default to OpenAI's
for a file named after a known encoding (``cl100k_base.tiktoken`` ...).

It also writes our byte-level models as ``.tiktoken`` files, and tells which split pattern a
byte-level pipeline uses (:func:`tiktoken_pattern`), the one thing a ``tiktoken.Encoding`` needs besides
the ranks and the special tokens.

>>> from toolkit import Tokenizer
>>> tok = Tokenizer.from_tiktoken("cl100k_base.tiktoken")   # doctest: +SKIP
>>> tok.encode_ids("hello world")                           # doctest: +SKIP
[15339, 1917]
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import regex

from toolkit import limits
from toolkit.bytelevel import from_byte_level
from toolkit.errors import ConfigError, SerializationError, VocabularyError, did_you_mean
from toolkit.interop._io import PathLike, numbered_lines, read_bytes, where, write_text
from toolkit.interop.pipelines import tiktoken_tokenizer

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "KNOWN_ENCODINGS",
    "read_tiktoken",
    "write_tiktoken",
    "resolve_pattern",
    "from_tiktoken",
    "save_tiktoken",
    "ranks_of",
    "tiktoken_pattern",
    "pattern_name",
]

_ENDOFTEXT, _ENDOFPROMPT = "<|endoftext|>", "<|endofprompt|>"
_FIM = ("<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>")

#: OpenAI's encodings: file stem → (pattern name, special tokens). Facts from tiktoken_ext.openai_public.
KNOWN_ENCODINGS: dict[str, tuple[str, dict[str, int]]] = {
    "r50k_base": ("GPT2_PATTERN", {_ENDOFTEXT: 50256}),
    "p50k_base": ("GPT2_PATTERN", {_ENDOFTEXT: 50256}),
    "cl100k_base": (
        "CL100K_PATTERN",
        {_ENDOFTEXT: 100257, _FIM[0]: 100258, _FIM[1]: 100259, _FIM[2]: 100260, _ENDOFPROMPT: 100276},
    ),
    "o200k_base": ("O200K_PATTERN", {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018}),
}

# Short names accepted for ``pattern=`` besides the constants themselves and raw regexes.
_PATTERN_ALIASES = {
    "gpt2": "GPT2_PATTERN", "r50k": "GPT2_PATTERN", "r50k_base": "GPT2_PATTERN", "p50k_base": "GPT2_PATTERN",
    "cl100k": "CL100K_PATTERN", "cl100k_base": "CL100K_PATTERN",
    "o200k": "O200K_PATTERN", "o200k_base": "O200K_PATTERN",
}


def read_tiktoken(path: PathLike) -> dict[bytes, int]:
    """Read a ``.tiktoken`` file into ``{token bytes: rank}``.

    Every non-empty line must be ``<base64> <rank>``; bad base64, a non-integer or negative rank, and a
    repeated token or rank are :class:`SerializationError` / :class:`VocabularyError` naming the line.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "tiny.tiktoken")
    >>> _ = open(p, "w").write("YQ== 0\\nYg== 1\\nYWI= 2\\n")
    >>> read_tiktoken(p)
    {b'a': 0, b'b': 1, b'ab': 2}
    """
    data = read_bytes(path, what=".tiktoken file")
    data = data.removeprefix(b"\xef\xbb\xbf")  # a BOM an editor added: tiktoken reads such a file too
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SerializationError(
            f"{where(path, line)}: a .tiktoken file is ASCII (base64 and digits); found byte "
            f"0x{data[exc.start]:02x} at offset {exc.start}"
        ) from None
    ranks: dict[bytes, int] = {}
    rank_line: dict[int, int] = {}
    for number, line in numbered_lines(text):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise SerializationError(
                f"{where(path, number)}: expected '<base64 token> <rank>', got {_clip(line)!r}"
            )
        encoded, rank_text = parts
        try:
            token = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise SerializationError(
                f"{where(path, number)}: invalid base64 token {_clip(encoded)!r} ({exc})"
            ) from None
        if not token:
            raise SerializationError(f"{where(path, number)}: the token is empty (base64 {encoded!r})")
        if not rank_text.isascii() or not rank_text.isdigit():
            raise SerializationError(
                f"{where(path, number)}: rank {_clip(rank_text)!r} is not a non-negative integer"
            )
        if len(rank_text) > 10 or int(rank_text) > limits.MAX_TOKEN_ID:  # (int() refuses 4,300+ digits)
            raise VocabularyError(
                f"{where(path, number)}: rank {_clip(rank_text)!r} is larger than any token id "
                f"(at most {limits.MAX_TOKEN_ID}, toolkit.limits.MAX_TOKEN_ID)"
            )
        rank = int(rank_text)
        if token in ranks:
            raise VocabularyError(
                f"{where(path, number)}: token {token!r} is listed twice (first with rank {ranks[token]})"
            )
        if rank in rank_line:
            raise VocabularyError(f"{where(path, number)}: rank {rank} is used twice (also on line {rank_line[rank]})")
        ranks[token] = rank
        rank_line[rank] = number
    if not ranks:
        raise SerializationError(f"{os.fspath(path)}: the .tiktoken file has no tokens")
    return ranks


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def write_tiktoken(ranks: Mapping[bytes, int], path: PathLike) -> None:
    """Write ``{token bytes: rank}`` as a ``.tiktoken`` file, sorted by rank (as tiktoken writes them)."""
    ordered = sorted(ranks.items(), key=lambda kv: kv[1])
    lines = [f"{base64.b64encode(token).decode('ascii')} {rank}" for token, rank in ordered]
    write_text(path, "\n".join(lines) + "\n")


def resolve_pattern(pattern: str) -> str:
    """The regex for ``pattern``: a constant name of :mod:`pretokenizers` (``"CL100K_PATTERN"``,
    ``"CHAT_PATTERN"``), a short name (``"cl100k"``, ``"gpt2"``, ``"o200k"``, ``"chat"``, ``"cl100k_base"``)
    or a regex, returned as is.

    >>> resolve_pattern("cl100k") == resolve_pattern("CL100K_PATTERN") == resolve_pattern("Cl100k")
    True
    >>> resolve_pattern(r"\\w+")
    '\\\\w+'
    >>> resolve_pattern("CL100K_PATTERNX")
    Traceback (most recent call last):
    toolkit.errors.ConfigError: pattern: unknown pattern name 'CL100K_PATTERNX' (did you mean 'CL100K_PATTERN'?); ...
    """
    import pretokenizers

    if not isinstance(pattern, str) or not pattern:
        raise ConfigError("pattern must be a non-empty regex string or a pattern name such as 'CL100K_PATTERN'")
    name = _PATTERN_ALIASES.get(pattern, pattern)
    for candidate in (name, name.upper() + "_PATTERN"):
        value = getattr(pretokenizers, candidate, None) if candidate.endswith("_PATTERN") else None
        if isinstance(value, str):
            return value
    if "PATTERN" in pattern and pattern.replace("_", "").isalnum() and pattern.isupper():
        # an upper-case name is never meant as a regex: a misspelled name would silently match itself
        known = [n for n in dir(pretokenizers) if n.endswith("_PATTERN")]
        raise ConfigError(f"pattern: unknown pattern name {pattern!r}{did_you_mean(pattern, known)}; the names are "
                          f"{', '.join(known)} and {', '.join(_PATTERN_ALIASES)}, or give a regular expression")
    return pattern


def from_tiktoken(
    path: PathLike,
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
) -> Tokenizer:
    """A byte-level tokenizer from a ``.tiktoken`` file, ids identical to ``tiktoken.Encoding``.

    Pipeline: ``Split(Regex(pattern), behavior="isolated")`` then ``ByteLevel(use_regex=False)`` (bytes →
    ``Ġ``-alphabet), ``ByteLevelBPE.from_ranks`` (rank = id = merge priority), ``ByteLevel`` decoder.
    ``pattern`` and ``special_tokens`` default to OpenAI's for a file named after a known encoding
    (``cl100k_base``, ``o200k_base``, ``r50k_base``, ``p50k_base``); any other file must be given its
    ``pattern`` (the file does not record it, and guessing would change the ids) and has no special
    tokens unless given. Special tokens are ordinary text unless ``allowed_special`` names them
    (tiktoken's ``encode_ordinary``); with ``allowed_special`` they match tiktoken's ``encode``.

    >>> from pretokenizers import CL100K_PATTERN
    >>> tok = from_tiktoken("cl100k_base.tiktoken", pattern=CL100K_PATTERN)  # doctest: +SKIP
    >>> tok.encode_ids("<|endoftext|>", allowed_special="all")               # doctest: +SKIP
    [100257]
    """
    if special_tokens is not None and not isinstance(special_tokens, Mapping):
        raise ConfigError(
            f"special_tokens must map each special token to its id, e.g. {{'<|endoftext|>': 100257}} (a .tiktoken "
            f"file holds no special tokens, so their ids must be given), got {type(special_tokens).__name__} "
            f"{special_tokens!r:.60}"
        )
    stem = Path(path).name.split(".")[0]
    known = KNOWN_ENCODINGS.get(stem)
    if special_tokens is None:
        special_tokens = dict(known[1]) if known is not None else {}
    ranks = read_tiktoken(path)  # a broken file is reported first, whatever the options
    _check_specials(ranks, special_tokens, source=path)
    if pattern is None:
        if known is None:
            raise ConfigError(
                f"{os.fspath(path)}: a .tiktoken file does not record its split pattern and {stem!r} is not one of "
                f"OpenAI's encodings ({', '.join(KNOWN_ENCODINGS)}); pass pattern= (command line: --pattern), "
                "e.g. 'GPT2_PATTERN', 'CL100K_PATTERN', 'O200K_PATTERN' or the regex the file was trained with"
            )
        pattern = known[0]
    regex_text = resolve_pattern(pattern)
    return tiktoken_tokenizer(
        ranks,
        pattern=regex_text,
        trusted_pattern=regex_text in _named_regexes(),
        special_tokens=dict(special_tokens),
        metadata={"source": "tiktoken", "file": Path(path).name},
    )


def pattern_name(tok: Tokenizer) -> str:
    """How to name ``tok``'s split pattern to :func:`from_tiktoken`: a constant's name, else the regex.

    >>> from toolkit.interop.pipelines import byte_level_tokenizer
    >>> pattern_name(byte_level_tokenizer(add_prefix_space=False))
    'GPT2_PATTERN'
    """
    regex_text = tiktoken_pattern(tok)
    return next((name for name, value in _named_patterns().items() if value == regex_text), regex_text)


#: The shipped patterns that match every character, so tiktoken and ``Split`` cut text alike with them.
_NAMED_PATTERNS = ("GPT2_PATTERN", "CL100K_PATTERN", "O200K_PATTERN", "LLAMA3_PATTERN")


def _named_patterns() -> dict[str, str]:
    import pretokenizers

    return {name: getattr(pretokenizers, name) for name in _NAMED_PATTERNS}


def _named_regexes() -> set[str]:
    return set(_named_patterns().values())


def _check_specials(ranks: Mapping[bytes, int], special_tokens: Mapping[str, int], *, source: PathLike) -> None:
    used = set(ranks.values())
    seen: dict[int, str] = {}
    for token, token_id in special_tokens.items():
        if not isinstance(token, str) or not token:
            raise ConfigError(f"special_tokens: keys must be non-empty strings, got {token!r}")
        if not isinstance(token_id, int) or isinstance(token_id, bool) or token_id < 0:
            raise ConfigError(f"special_tokens: {token!r} has id {token_id!r}; ids must be non-negative integers")
        if token_id in used:
            raise VocabularyError(
                f"special_tokens: {token!r} has id {token_id}, which is already the rank of a token in "
                f"{os.fspath(source)}; special ids must lie outside the ranks"
            )
        if token_id in seen:
            raise VocabularyError(f"special_tokens: {seen[token_id]!r} and {token!r} both have id {token_id}")
        seen[token_id] = token
        try:
            spelled = from_byte_level(token)
        except ValueError:
            continue
        if spelled in ranks:
            # tiktoken keeps special tokens apart from the ranks; our vocabulary writes every rank in the
            # byte-level alphabet, where this string already names a token
            raise VocabularyError(
                f"special_tokens: {token!r} (id {token_id}) is also how the vocabulary writes the token of rank "
                f"{ranks[spelled]} in {os.fspath(source)} (the bytes {spelled!r} in the byte-level alphabet), and "
                "one token string cannot have two ids; give the special token a text that is not a vocabulary "
                f"token, e.g. '<|{token}|>'"
            )


def ranks_of(model: Any) -> dict[bytes, int]:
    """``{token bytes: id}`` of a byte-level BPE model, special tokens excluded.

    Works for a rank-mode model (its ranks) and a merge-trained one (its vocabulary in the
    ``Ġ``-alphabet, turned back into bytes).
    """
    if callable(getattr(model, "ranks", None)):
        return dict(model.ranks())
    specials = set(getattr(model, "special_tokens", {}) or {})
    out: dict[bytes, int] = {}
    for token, token_id in model.get_vocab().items():
        if token in specials:
            continue
        try:
            out[from_byte_level(token)] = token_id
        except ValueError:
            raise SerializationError(
                f"cannot write a .tiktoken file: token {token!r} (id {token_id}) is not written in the "
                "byte-level alphabet, so it has no byte sequence"
            ) from None
    return out


def save_tiktoken(tok: Tokenizer, path: PathLike) -> None:
    """Write the ranks of a byte-level BPE tokenizer as a ``.tiktoken`` file (specials excluded).

    The file records token bytes and ids only: to rebuild the tokenizer pass the same pattern and
    special tokens to :func:`from_tiktoken` (or ``tiktoken.Encoding``); a pre-tokenizer no tiktoken
    pattern reproduces is refused (:func:`tiktoken_pattern`). Ids are ranks, so a model
    trained with merges gives the same ids in rank mode when its merges are in id order (ours are).
    """
    if type(tok.model).__name__ != "ByteLevelBPE":
        raise SerializationError(
            f"save_tiktoken: the model is {type(tok.model).__name__}; .tiktoken files hold byte-level BPE "
            "models only (bytes → rank)"
        )
    tiktoken_pattern(tok)  # a pre-tokenizer tiktoken cannot reproduce is refused before anything is written
    write_tiktoken(ranks_of(tok.model), path)


def tiktoken_pattern(tok: Tokenizer) -> str:
    """The split regex a ``tiktoken.Encoding`` needs to reproduce ``tok``'s pre-tokenization.

    ``ByteLevel(use_regex=True, add_prefix_space=False)`` is the GPT-2 pattern;
    ``Sequence([Split(Regex(p)), ByteLevel(use_regex=False)])`` (what :func:`from_tiktoken` and the chat
    preset build) is ``p`` (a literal ``Split`` pattern is escaped). tiktoken *drops* text its pattern
    does not match, while ``Split`` keeps it as pieces of its own, so for any pattern other than the
    named ones (which match every character) a catch-all alternative is appended: a run of characters
    where ``p`` does not match, exactly the gap pieces ``Split(behavior="isolated")`` produces.

    >>> from toolkit.interop.pipelines import tiktoken_tokenizer
    >>> tok = tiktoken_tokenizer({bytes([b]): b for b in range(256)}, pattern=r"[a-z]+")
    >>> tiktoken_pattern(tok)
    '(?:[a-z]+)|(?:(?!(?:[a-z]+))[\\\\s\\\\S])+'
    """
    import pretokenizers

    pre = tok.pre_tokenizer
    name = type(pre).__name__
    if name == "ByteLevel" and getattr(pre, "use_regex", False) and not getattr(pre, "add_prefix_space", False):
        return str(pretokenizers.GPT2_PATTERN)
    if name == "Sequence":
        children = list(getattr(pre, "pretokenizers", []))
        if (
            len(children) == 2
            and type(children[0]).__name__ == "Split"
            and getattr(children[0], "behavior", None) == "isolated"
            and not getattr(children[0], "invert", False)
            and type(children[1]).__name__ == "ByteLevel"
            and not getattr(children[1], "use_regex", True)
            and not getattr(children[1], "add_prefix_space", False)
        ):
            split = children[0]
            pattern = split.regex_text if split.regex_text is not None else regex.escape(split.pattern)
            if pattern in _named_regexes():
                return pattern
            return f"(?:{pattern})|(?:(?!(?:{pattern}))[\\s\\S])+"
    raise SerializationError(
        f"no tiktoken split pattern for the pre-tokenizer {pre!r}: tiktoken supports ByteLevel (GPT-2 regex, "
        "no prefix space) or Sequence([Split(Regex(pattern), behavior='isolated'), ByteLevel(use_regex=False)])"
    )
