"""tiktoken's ``Encoding`` names for what :class:`~toolkit.Tokenizer` already does.

``max_token_value``, ``eot_token``, ``special_tokens_set``, ``is_special_token``,
``encode_single_token``, ``decode_single_token_bytes``, ``decode_tokens_bytes``,
``token_byte_values``, ``encode_ordinary_batch`` and ``decode_bytes_batch``, each a few lines over
the pipeline, so code written for tiktoken runs unchanged. The names tiktoken shares with the rest
of the pipeline live beside their siblings: ``encode_ordinary`` and ``decode_bytes`` in
:mod:`toolkit.tokenizer`, ``n_vocab`` in :mod:`toolkit.vocabulary`. Where tiktoken raises
``KeyError`` (an id or token it does not know), these raise :class:`~toolkit.errors.InputError`.

>>> from toolkit import Tokenizer, decoders
>>> from algorithms import ByteLevelBPE
>>> ranks = {bytes([b]): b for b in range(256)} | {b"hi": 256}
>>> tok = Tokenizer(ByteLevelBPE.from_ranks(ranks, special_tokens={"<|endoftext|>": 257}),
...                 decoder=decoders.ByteLevel())
>>> tok.encode_single_token("hi"), tok.decode_single_token_bytes(256), tok.eot_token, tok.max_token_value
(256, b'hi', 257, 257)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from toolkit.arguments import as_index, check_batch, check_id_sequence
from toolkit.bytelevel import bytes_to_byte_level, from_byte_level, is_byte_level
from toolkit.errors import InputError, InputTypeError

__all__ = ["TiktokenNames", "token_bytes"]


class TiktokenNames:
    """Mixin of :class:`~toolkit.Tokenizer`: tiktoken's names (see the module docstring)."""

    @property
    def max_token_value(self) -> int:
        """The largest id, special tokens included (``n_vocab - 1``)."""
        return self.n_vocab - 1  # type: ignore[attr-defined, no-any-return]

    @property
    def eot_token(self) -> int:
        """The id of ``<|endoftext|>``; an :class:`InputError` when it is not a special token here."""
        found = self._specials(self.model).get("<|endoftext|>")  # type: ignore[attr-defined]
        if found is None:
            raise InputError("eot_token: '<|endoftext|>' is not a special token of this tokenizer")
        return found  # type: ignore[no-any-return]

    @property
    def special_tokens_set(self) -> set[str]:
        """The special tokens' strings (those of the model and the added special tokens)."""
        return set(self._specials(self.model))  # type: ignore[attr-defined]

    def is_special_token(self, token: int) -> bool:
        """Whether id ``token`` is a special token's."""
        index = as_index(token)  # numpy and torch integers too, as decode takes them
        if index is None:
            raise InputTypeError(f"is_special_token expects an int id, got {type(token).__name__} {token!r:.60}")
        return index in self._special_info(self.model)[2]  # type: ignore[attr-defined]

    def _byte_level(self) -> bool:
        """Whether token strings spell bytes in the byte-level alphabet (the ``ByteLevel`` decoder)."""
        return getattr(self.decoder, "type_name", None) == "ByteLevel"  # type: ignore[attr-defined]

    def encode_single_token(self, text_or_bytes: str | bytes) -> int:
        """The id of the one token spelled ``text_or_bytes`` (special tokens included); an
        :class:`InputError` when no single token spells it."""
        if isinstance(text_or_bytes, str):
            raw = text_or_bytes.encode("utf-8", "surrogatepass")
        elif isinstance(text_or_bytes, (bytes, bytearray)):
            raw = bytes(text_or_bytes)
        else:
            raise InputTypeError(f"encode_single_token expects str or bytes, got {type(text_or_bytes).__name__}")
        try:
            text: str | None = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        specials = self._specials(self.model)  # type: ignore[attr-defined]
        if text is not None and text in specials:
            return specials[text]  # type: ignore[no-any-return]
        token = bytes_to_byte_level(raw) if self._byte_level() else text
        found = self.token_to_id(token) if token is not None else None  # type: ignore[attr-defined]
        if found is None or found in specials.values():
            raise InputError(f"encode_single_token: no single token spells {text_or_bytes!r:.60}")
        return found  # type: ignore[no-any-return]

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of the token with id ``token`` (special tokens included)."""
        return self.decode_bytes([token])  # type: ignore[attr-defined, no-any-return]

    def decode_tokens_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        """:meth:`decode_single_token_bytes` of each id: the bytes behind each token."""
        check_id_sequence(tokens)
        return [self.decode_single_token_bytes(t) for t in tokens]

    def token_byte_values(self) -> list[bytes]:
        """The bytes of every token that is not special, sorted (tiktoken's order)."""
        specials = self._specials(self.model)  # type: ignore[attr-defined]
        byte_level = self._byte_level()
        vocab = self.get_vocab()  # type: ignore[attr-defined]
        return sorted(token_bytes(t, byte_level=byte_level) for t in vocab if t not in specials)

    def encode_ordinary_batch(self, text: Sequence[str], *, num_threads: int = 8) -> list[list[int]]:
        """:meth:`encode_ordinary` of each text (``num_threads`` is accepted; this process encodes)."""
        texts = check_batch(text, "encode_ordinary_batch", "texts")
        return [self.encode_ordinary(t) for t in texts]  # type: ignore[attr-defined]

    def decode_bytes_batch(self, batch: Iterable[Sequence[int]], *, num_threads: int = 8) -> list[bytes]:
        """:meth:`decode_bytes` of each sequence of ids (``num_threads`` is accepted, as above)."""
        batch = check_batch(batch, "decode_bytes_batch", "id sequences")
        return [self.decode_bytes(ids) for ids in batch]  # type: ignore[attr-defined]


def token_bytes(token: str, *, byte_level: bool) -> bytes:
    """The bytes a token string stands for: in a byte-level pipeline a byte-level token's bytes,
    otherwise (and for other tokens, such as added ones) its UTF-8."""
    if byte_level and is_byte_level(token):
        return from_byte_level(token)
    return token.encode("utf-8", "surrogatepass")
