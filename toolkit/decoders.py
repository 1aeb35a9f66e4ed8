"""Decoders: turn the token strings of a sequence of ids back into text.

This module owns the built-in decoders: ``ByteLevel`` (byte-level alphabet → UTF-8 text),
``WordPiece`` (``##`` continuations and punctuation cleanup), ``Metaspace`` (``▁`` → space),
``BPEDecoder`` (end-of-word suffix → space), ``ByteFallback`` (``<0x41>`` byte tokens), ``Fuse``,
``Strip``, ``Replace``, ``CTC`` (speech models' output) and ``Sequence`` (which runs SentencePiece
files' ``Replace``, ``ByteFallback``, ``Fuse`` in one pass); and ``SentencePiece`` (sentencepiece's own
decoding, which no HF decoder chain reproduces). ``DecodeStream`` (HF's name
for streaming decode) is :class:`toolkit.streaming.DecodeStream`, re-exported here.

Every decoder implements :meth:`~toolkit.interfaces.Decoder.decode_chain` with Hugging Face's
semantics: it receives the list of token strings and returns a list of strings, so decoders chain in a
``Sequence`` exactly as in ``tokenizers``; :meth:`~toolkit.interfaces.Decoder.decode` joins the result.

>>> Sequence([Replace("▁", " "), ByteFallback(), Fuse(), Strip(left=1)]).decode(["▁Hi", "▁", "<0x21>"])
'Hi !'
"""

from __future__ import annotations

from itertools import compress, count, repeat
from operator import is_not
from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictStr, field_validator

from toolkit.bytelevel import CHAR_TO_BYTE, byte_piece_value, from_byte_level
from toolkit.interfaces import Container, Decoder, Params, children_validator
from toolkit.normalizers import PatternReplacement, replace_all
from toolkit.registry import register
from toolkit.streaming import DecodeStream

__all__ = [
    "ByteLevel",
    "WordPiece",
    "Metaspace",
    "BPEDecoder",
    "ByteFallback",
    "SentencePiece",
    "Fuse",
    "Strip",
    "Replace",
    "CTC",
    "Sequence",
    "DecodeStream",
]

NonNegativeInt = Annotated[int, Field(strict=True, ge=0)]
SPACE = "\u2581"  # SentencePiece's meta space


def _one_char(value: str) -> str:
    if len(value) != 1:
        raise ValueError(f"must be exactly one character, got {value!r}")
    return value


@register("ByteLevel", kind="decoder")
class ByteLevel(Decoder):
    """Maps byte-level characters (``Ġ`` for a space...) back to bytes and decodes them as UTF-8.

    Invalid UTF-8 becomes U+FFFD. A token holding a character outside the byte-level alphabet
    contributes its own UTF-8 bytes instead (as Hugging Face does for added tokens).

    >>> ByteLevel().decode(["Hello", "Ġw", "Ã¶rld", "<|end|>"])
    'Hello wörld<|end|>'
    """

    class Params(Params):
        """No options."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        try:
            data = from_byte_level("".join(tokens))
        except ValueError:  # some token is not in the byte-level alphabet: decide token by token
            table = CHAR_TO_BYTE
            parts = []
            for token in tokens:
                if all(c in table for c in token):
                    parts.append(from_byte_level(token))
                else:
                    parts.append(token.encode("utf-8", "surrogatepass"))
            data = b"".join(parts)
        return [data.decode("utf-8", "replace")]


# Hugging Face's cleanup of tokenization artifacts, applied in this order to each token.
_CLEANUP = (
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" ' ", "'"),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" do not", " don't"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
)


def cleanup(text: str) -> str:
    """Remove spaces before punctuation and in English contractions (``" n't"`` → ``"n't"``...).

    >>> cleanup("i do not know , he 's sure .")
    "i don't know, he's sure."
    """
    for old, new in _CLEANUP:
        text = text.replace(old, new)
    return text


@register("WordPiece", kind="decoder")
class WordPiece(Decoder):
    """Joins WordPiece tokens: ``##``-prefixed tokens glue to the previous one, others get a space.

    The first token is kept as it is. With ``cleanup`` each token is cleaned as in Hugging Face
    (spaces before ``. ? ! ,`` and in contractions removed), token by token.

    >>> WordPiece().decode(["un", "##aff", "##able", "!", "it", "'s"])
    "unaffable! it's"
    """

    class Params(Params):
        prefix: StrictStr = "##"
        cleanup: StrictBool = True

    positional = ("prefix", "cleanup")
    prefix: str
    cleanup: bool

    def decode_chain(self, tokens: list[str]) -> list[str]:
        prefix, n = self.prefix, len(self.prefix)
        out = []
        for i, token in enumerate(tokens):
            if i:
                token = token[n:] if token.startswith(prefix) else " " + token
            out.append(cleanup(token) if self.cleanup else token)
        return out


@register("Metaspace", kind="decoder")
class Metaspace(Decoder):
    """Turns the ``▁`` replacement character back into spaces (SentencePiece style).

    Unless ``prepend_scheme`` is ``"never"``, the replacement characters of the first token are
    dropped (they stand for the space the pre-tokenizer prepended), as Hugging Face does. ``split``
    only matters to the pre-tokenizer; it is kept for the same JSON.

    >>> Metaspace().decode(["▁Hey", "▁friend", "!"]), Metaspace(prepend_scheme="never").decode(["▁Hey"])
    ('Hey friend!', ' Hey')
    """

    class Params(Params):
        replacement: StrictStr = "▁"
        prepend_scheme: Literal["always", "first", "never"] = "always"
        split: StrictBool = True

        _one = field_validator("replacement")(_one_char)

    positional = ("replacement", "prepend_scheme", "split")
    replacement: str
    prepend_scheme: str
    split: bool

    def decode_chain(self, tokens: list[str]) -> list[str]:
        rep = self.replacement
        drop_first = self.prepend_scheme != "never"
        return [t.replace(rep, "" if i == 0 and drop_first else " ") for i, t in enumerate(tokens)]


@register("BPEDecoder", kind="decoder")
class BPEDecoder(Decoder):
    """For BPE models with an end-of-word ``suffix``: the suffix becomes a space (nothing at the end).

    >>> BPEDecoder(suffix="</w>").decode(["hug</w>", "gi", "ng</w>", "!</w>"])
    'hug ging !'
    """

    class Params(Params):
        suffix: StrictStr = "</w>"

    positional = ("suffix",)
    suffix: str

    def decode_chain(self, tokens: list[str]) -> list[str]:
        last = len(tokens) - 1
        return [t.replace(self.suffix, "" if i == last else " ") for i, t in enumerate(tokens)]


@register("ByteFallback", kind="decoder")
class ByteFallback(Decoder):
    """Turns runs of byte tokens (``<0xE2>``...) into text; an invalid run gives one U+FFFD per byte.

    >>> ByteFallback().decode(["a", "<0xE2>", "<0x82>", "<0xAC>", "b", "<0xE2>", "<0x82>"])
    'a€b��'
    """

    class Params(Params):
        """No options."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()

        def flush() -> None:
            try:
                out.append(pending.decode("utf-8"))
            except UnicodeDecodeError:
                out.extend(["\ufffd"] * len(pending))
            pending.clear()

        for token in tokens:
            byte = byte_piece_value(token)
            if byte is not None:
                pending.append(byte)
                continue
            if pending:
                flush()
            out.append(token)
        if pending:
            flush()
        return out


def _spm_bytes(data: bytes) -> str:
    """``data`` as sentencepiece decodes byte pieces: each valid UTF-8 character, and one U+FFFD for
    every byte that does not start one (HF's ``ByteFallback`` replaces every byte of an invalid run)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    i = 0
    while i < len(data):
        lead = data[i]
        size = 1 if lead < 0x80 else 2 if 0xC2 <= lead < 0xE0 else 3 if 0xE0 <= lead < 0xF0 else 4 if 0xF0 <= lead < 0xF5 else 0
        try:
            out.append(data[i : i + size].decode("utf-8") if size else "\ufffd")
            i += max(size, 1)
        except UnicodeDecodeError:  # truncated, overlong, a surrogate or above U+10FFFF: this byte only
            out.append("\ufffd")
            i += 1
    return "".join(out)


@register("SentencePiece", kind="decoder")
class SentencePiece(Decoder):
    """Decodes pieces as ``sentencepiece`` does (``.model`` files load with it; HF has no such decoder).

    ``▁`` becomes a space; with ``byte_fallback``, runs of ``<0xNN>`` pieces become their UTF-8 text,
    one U+FFFD per byte that starts no valid character; the leading ``▁`` of the first piece is
    dropped when ``add_dummy_prefix`` or ``remove_extra_whitespaces`` is on, and with
    ``remove_extra_whitespaces`` that of every piece while the text is still empty.

    >>> SentencePiece(add_dummy_prefix=True, remove_extra_whitespaces=True).decode(["▁", "▁Hi", "▁there"])
    'Hi there'
    >>> SentencePiece(byte_fallback=True).decode(["<0x7E>", "<0x8E>", "▁x"])
    '~\ufffd x'
    """

    class Params(Params):
        add_dummy_prefix: StrictBool = False
        remove_extra_whitespaces: StrictBool = False
        byte_fallback: StrictBool = False

    add_dummy_prefix: bool
    remove_extra_whitespaces: bool
    byte_fallback: bool

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()
        # sentencepiece's "beginning of sentence" state: a leading ▁ is dropped while it holds
        at_start = self.add_dummy_prefix or self.remove_extra_whitespaces
        for token in tokens:
            byte = byte_piece_value(token) if self.byte_fallback else None
            if byte is not None:
                pending.append(byte)
                continue
            if pending:
                out.append(_spm_bytes(bytes(pending)))
                pending.clear()
                at_start = False  # bytes always give text
            if at_start and token.startswith(SPACE):
                token = token[1:]
            text = token.replace(SPACE, " ")
            out.append(text)
            at_start = at_start and self.remove_extra_whitespaces and not text
        if pending:
            out.append(_spm_bytes(bytes(pending)))
        return out


@register("Fuse", kind="decoder")
class Fuse(Decoder):
    """Joins all tokens into one string (so later decoders see whole text).

    >>> Fuse().decode_chain(["a", "b", "c"])
    ['abc']
    """

    class Params(Params):
        """No options."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]


@register("Strip", kind="decoder")
class Strip(Decoder):
    """Removes up to ``left`` leading and ``right`` trailing ``content`` characters from each token.

    >>> Strip(content=" ", left=1).decode([" Hello", " world"])
    'Helloworld'
    """

    class Params(Params):
        content: StrictStr = " "
        left: NonNegativeInt = 0
        right: NonNegativeInt = 0

        _one = field_validator("content")(_one_char)

    positional = ("content", "left", "right")
    content: str
    left: int
    right: int

    # Hugging Face's attribute names (and JSON keys) for ``left`` and ``right``; assigning them sets those.
    start = property(lambda self: self.left, lambda self, value: setattr(self, "left", value))
    stop = property(lambda self: self.right, lambda self, value: setattr(self, "right", value))

    def decode_chain(self, tokens: list[str]) -> list[str]:
        c = self.content
        out = []
        for token in tokens:
            start = 0
            while start < min(self.left, len(token)) and token[start] == c:
                start += 1
            end = len(token)
            # Never strip from the right what was stripped from the left (Hugging Face's newer rule).
            limit = max(len(token) - min(self.right, len(token) - start), start)
            while end > limit and token[end - 1] == c:
                end -= 1
            out.append(token[start:end])
        return out


@register("Replace", kind="decoder")
class Replace(PatternReplacement, Decoder):
    """Replaces ``pattern`` by ``content`` in each token (same patterns as the ``Replace`` normalizer).

    >>> Replace("▁", " ").decode(["▁Hi", "▁there"])
    ' Hi there'
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [replace_all(self.pattern, self.content, t) for t in tokens]


@register("CTC", kind="decoder")
class CTC(Decoder):
    """Decodes the output of a CTC speech model (wav2vec2): repeated tokens collapse to one, then
    ``pad_token`` is removed and, with ``cleanup``, the WordPiece clean-up runs on each token and
    ``word_delimiter_token`` becomes a space; empty tokens are dropped (as Hugging Face).

    >>> CTC().decode(["<pad>", "h", "h", "e", "l", "l", "<pad>", "l", "o", "|", "w", "o", "r", "l", "d"])
    'hello world'
    """

    class Params(Params):
        pad_token: StrictStr = "<pad>"
        word_delimiter_token: StrictStr = "|"
        cleanup: StrictBool = True

    positional = ("pad_token", "word_delimiter_token", "cleanup")
    pad_token: str
    word_delimiter_token: str
    cleanup: bool

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, token in enumerate(tokens):
            if i and token == tokens[i - 1]:
                continue
            text = token.replace(self.pad_token, "") if self.pad_token else token
            if self.cleanup:
                text = cleanup(text)
                if self.word_delimiter_token:
                    text = text.replace(self.word_delimiter_token, " ")
            if text:
                out.append(text)
        return out


@register("Sequence", kind="decoder")
class Sequence(Container, Decoder):
    """Runs decoders one after the other, each on the previous one's output tokens.

    >>> Sequence([Replace("▁", " "), Strip(left=1)]).decode(["▁Hi", "▁there"])
    'Hithere'
    """

    children_field = "decoders"
    positional = ("decoders",)
    decoders: list[Decoder]

    class Params(Params):
        decoders: list[Any]

        _children = children_validator("decoders", "decoder")

    def decode_chain(self, tokens: list[str]) -> list[str]:
        decoders = self.decoders
        done = 0
        if len(decoders) >= 3 and _replace_fallback_fuse(decoders[0], decoders[1], decoders[2]):
            # SentencePiece files' chain (Gemma, Llama 2): one pass over the joined text, not three
            # over the tokens; the decoders after it (Llama 2's Strip) see the same one string.
            tokens = [_replaced_bytes_fused(decoders[0].pattern, decoders[0].content, tokens)]
            done = 3
        for d in decoders[done:]:
            tokens = d.decode_chain(tokens)
        return tokens


def _replace_fallback_fuse(first: Decoder, second: Decoder, third: Decoder) -> bool:
    """True for ``Replace(c, s)``, ``ByteFallback()``, ``Fuse()`` with ``c`` one character and ``s`` at most
    one (``▁`` → space): what :func:`_replaced_bytes_fused` does at once."""
    return (
        type(first) is Replace and type(second) is ByteFallback and type(third) is Fuse
        and type(first.pattern) is str and len(first.pattern) == 1 and len(first.content) <= 1
    )


#: Every byte-fallback token and its byte (:func:`~toolkit.bytelevel.byte_piece_value`'s rule, listed).
_BYTE_PIECES = {
    token: value
    for a in "0123456789abcdefABCDEF+"
    for b in "0123456789abcdefABCDEF+"
    if (value := byte_piece_value(token := f"<0x{a}{b}>")) is not None
}

#: The byte tokens of ASCII characters, and those characters.
_ASCII_BYTE_PIECES = {token: chr(value) for token, value in _BYTE_PIECES.items() if value < 0x80}
#: Every character a byte token may hold.
_BYTE_TOKEN_CHARACTERS = frozenset("".join(_BYTE_PIECES))


def _replaced_bytes_fused(pattern: str, content: str, tokens: list[str]) -> str:
    """``Sequence([Replace(pattern, content), ByteFallback(), Fuse()]).decode(tokens)`` for a one-character
    ``pattern`` and a ``content`` no longer (so ``replace_all`` is ``str.replace`` and never checks a size).

    A one-character pattern never spans two tokens, so replacing in the joined text replaces in each
    token. A text without ``<0x`` holds no byte token, so ``ByteFallback`` keeps every token. Nor does
    it when the byte tokens all stand for ASCII characters (Llama 2's ``<0x0A>``), each run decoding to
    its characters, and ``Replace`` neither changes nor makes a byte token (``pattern`` and ``content``
    are no characters of one) nor meets those characters (``pattern`` is not ASCII): the tokens are
    mapped at C speed. Else only the runs of byte tokens are visited, each decoded as ``ByteFallback``."""
    text = "".join(tokens).replace(pattern, content)
    if "<0x" not in text:
        return text
    if ord(pattern) >= 0x80 and content and content not in _BYTE_TOKEN_CHARACTERS:
        text = "".join(map(_ASCII_BYTE_PIECES.get, tokens, tokens)).replace(pattern, content)
        if "<0x" not in text:  # (a byte token left would still read <0x)
            return text
    tokens = [t.replace(pattern, content) for t in tokens]
    values = [*map(_BYTE_PIECES.get, tokens)]
    at = [*compress(count(), map(is_not, values, repeat(None)))]  # the byte tokens' indices, in C
    parts: list[str] = []
    done = k = 0
    while k < len(at):
        start = end = at[k]  # a run of byte tokens: start .. end
        while k + 1 < len(at) and at[k + 1] == end + 1:
            k += 1
            end += 1
        k += 1
        parts.append("".join(tokens[done:start]))
        data = bytes(values[start : end + 1])  # type: ignore[arg-type]
        try:
            parts.append(data.decode("utf-8"))
        except UnicodeDecodeError:
            parts.append("\ufffd" * len(data))
        done = end + 1
    parts.append("".join(tokens[done:]))
    return "".join(parts)
