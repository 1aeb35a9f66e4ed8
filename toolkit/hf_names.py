"""Hugging Face ``tokenizers``' names for what :class:`~toolkit.Tokenizer` already does.

``from_file`` / ``from_str`` / ``from_buffer`` / ``to_str`` / ``get_vocab_size`` / ``train_from_iterator`` /
``save_pretrained`` / ``encode_batch_fast`` and the ``async_*`` variants: each is a line or two over the
toolkit's own method, so code written for HF runs unchanged. (``from_file`` and ``from_str`` read our
tokenizer file *or* an HF ``tokenizer.json``.)

>>> from toolkit import Tokenizer
>>> from algorithms import WordPiece
>>> tok = Tokenizer(WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
>>> Tokenizer.from_str(tok.to_str()).get_vocab_size()
2
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterable
from typing import Any

from toolkit.errors import ConfigError, CorpusError, InputTypeError, SerializationError
from toolkit.registry import lookup, tool

__all__ = ["HFNames", "PreTokenized", "batch_item"]


class PreTokenized(tuple):  # type: ignore[type-arg]
    """One ``encode_batch`` item marked as pre-tokenized (it travels to worker processes as is)."""

    def __new__(cls, item: Any) -> PreTokenized:
        return super().__new__(cls, (item,))

    def __getnewargs__(self) -> tuple[Any]:  # pickled (to worker processes) as the item it wraps
        return (self[0],)


def batch_item(item: Any) -> tuple[Any, Any, bool]:
    """``(text, pair or None, is_pretokenized)`` of one ``encode_batch`` item, as HF reads them: a pair
    is a tuple or a 2-item list (of texts; pre-tokenized: of word lists)."""
    pretokenized = isinstance(item, PreTokenized)
    if pretokenized:
        item = item[0]
    if isinstance(item, (tuple, list)) and (
        not pretokenized or (len(item) == 2 and all(isinstance(x, (list, tuple)) for x in item))
    ):
        if len(item) != 2:
            raise InputTypeError(f"encode_batch: a pair must be a (text, pair) tuple or list of 2 items, got {len(item)} items")
        return item[0], item[1], pretokenized
    return item, None, pretokenized


class HFNames:
    """Mixin of :class:`~toolkit.Tokenizer`: HF's names (see the module docstring)."""

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Any:
        """Load a tokenizer file: ours, or a Hugging Face ``tokenizer.json`` (detected from the content)."""
        return cls.load_any(path)  # type: ignore[attr-defined, no-any-return]

    @classmethod
    def from_str(cls, json_text: str) -> Any:
        """Load from a JSON string: our document, or a Hugging Face ``tokenizer.json`` document."""
        if not isinstance(json_text, str):
            hint = " (the bytes of a file: from_buffer)" if isinstance(json_text, (bytes, bytearray)) else ""
            raise SerializationError(f"from_str expects a str, got {type(json_text).__name__}{hint}")
        from toolkit.serialization import parse_json

        data = parse_json(json_text)
        # HF's document has top-level "added_tokens" and no "format" (tokens named "format" are elsewhere)
        if isinstance(data, dict) and "format" not in data and "added_tokens" in data:
            model = data.get("model")
            if isinstance(model, dict) and model.get("type") == "Unigram":  # its scores as HF reads them
                data = parse_json(json_text, parse_float=tool("hf_float"))
            return tool("from_hf_dict")(data, source="<string>")
        return cls._from_document(data, trusted=False, source="<string>")  # type: ignore[attr-defined]

    @classmethod
    def from_buffer(cls, buffer: bytes) -> Any:
        """Load from the bytes of a tokenizer file (HF's ``from_buffer``): :meth:`from_str` of its UTF-8 text.

        >>> from toolkit import Tokenizer
        >>> from algorithms import WordLevel
        >>> Tokenizer.from_buffer(Tokenizer(WordLevel({"<unk>": 0})).to_str().encode()).get_vocab_size()
        1
        """
        if not isinstance(buffer, (bytes, bytearray, memoryview)):
            raise InputTypeError(f"from_buffer takes the bytes of a tokenizer file, got {type(buffer).__name__}")
        try:
            text = bytes(buffer).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SerializationError(
                f"<buffer>: not UTF-8 text (invalid byte at offset {exc.start}); a tokenizer file is UTF-8 JSON"
            ) from None
        return cls.from_str(text)

    # HF's coroutine variants (tokenizers 0.22): the same call in a worker thread, so an event loop
    # (an async server) goes on serving while a long batch is encoded.
    async def async_encode(self, text: Any, pair: Any = None, is_pretokenized: bool = False,
                           add_special_tokens: bool = True, **options: Any) -> Any:
        """:meth:`encode`, awaitable (HF's ``async_encode``)."""
        encode = self.encode  # type: ignore[attr-defined]
        return await asyncio.to_thread(encode, text, pair, is_pretokenized, add_special_tokens, **options)

    async def async_encode_batch(self, inputs: Any, is_pretokenized: bool = False, add_special_tokens: bool = True,
                                 **options: Any) -> Any:
        """:meth:`encode_batch`, awaitable (HF's ``async_encode_batch``).

        >>> import asyncio
        >>> from toolkit import Tokenizer
        >>> from algorithms import WordLevel
        >>> tok = Tokenizer(WordLevel({"<unk>": 0, "hi": 1}))
        >>> [e.ids for e in asyncio.run(tok.async_encode_batch(["hi", "yo"]))]
        [[1], [0]]
        """
        encode_batch = self.encode_batch  # type: ignore[attr-defined]
        return await asyncio.to_thread(encode_batch, inputs, is_pretokenized, add_special_tokens, **options)

    async def async_encode_batch_fast(self, inputs: Any, is_pretokenized: bool = False,
                                      add_special_tokens: bool = True, **options: Any) -> Any:
        """:meth:`encode_batch_fast`, awaitable (HF's ``async_encode_batch_fast``)."""
        fast = self.encode_batch_fast
        return await asyncio.to_thread(fast, inputs, is_pretokenized, add_special_tokens, **options)

    async def async_decode_batch(self, sequences: Any, skip_special_tokens: bool = True) -> Any:
        """:meth:`decode_batch`, awaitable (HF's ``async_decode_batch``)."""
        return await asyncio.to_thread(self.decode_batch, sequences, skip_special_tokens)  # type: ignore[attr-defined]

    def encode_batch_fast(self, inputs: Any, is_pretokenized: bool = False, add_special_tokens: bool = True,
                          **options: Any) -> Any:
        """HF's faster ``encode_batch`` without offsets; ours is :meth:`encode_batch`, offsets included
        (they cost little here; HF's variant gives ``(0, 0)`` for every token)."""
        return self.encode_batch(inputs, is_pretokenized, add_special_tokens, **options)  # type: ignore[attr-defined]

    def to_str(self, pretty: bool = False) -> str:
        """The tokenizer as our JSON document (``pretty``: indented), as HF's ``to_str``."""
        return self.to_json(indent=2 if pretty else None)  # type: ignore[attr-defined, no-any-return]

    def train_from_iterator(self, iterator: Iterable[Any], trainer: Any = None, length: int | None = None) -> None:
        """Train on texts from ``iterator`` (strings, or lists of strings: batches, as HF accepts);
        ``trainer=None`` uses the model's trainer with its defaults (``BPE`` → ``BPETrainer``...).
        ``length`` is only a progress hint in HF and is accepted for the same calls."""
        if length is not None and (isinstance(length, bool) or not isinstance(length, int) or length < 0):
            raise ConfigError(f"length must be a non-negative integer or None, got {length!r:.60}")
        if isinstance(iterator, (str, bytes)) or not hasattr(iterator, "__iter__"):
            raise CorpusError(f"train_from_iterator expects an iterable of texts, got {type(iterator).__name__}")
        self.train(_flatten(iterator), trainer)  # type: ignore[attr-defined]

    @property
    def encode_special_tokens(self) -> bool:
        """HF's switch for special tokens typed in text: ``True`` encodes them as text, which is what
        ``encode`` always does here (``encode(..., allowed_special="all")`` matches them as HF's
        default ``False`` does). Setting it to ``False`` is refused rather than ignored."""
        return True

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        if value is not True:
            raise ConfigError(
                f"encode_special_tokens={value!r}: special tokens typed in text are always encoded as text here; "
                "pass encode(..., allowed_special='all') (or a set of them) to match them, as HF does with False "
                "(transformers' PreTrainedTokenizerFast sets it: give it tokenizer_object=tok.to_hf())"
            )

    def _model_trainer(self) -> Any:
        """The trainer of this pipeline's model with its defaults (``BPE`` → ``BPETrainer()``), as HF's
        ``trainer=None``."""
        return lookup("trainer", f"{self.model.type_name}Trainer")()  # type: ignore[attr-defined]

    def save_pretrained(self, directory: str | os.PathLike[str], *, template: str | os.PathLike[str] | None = None,
                        **roles: Any) -> list[str]:
        """Write ``tokenizer.json``, ``tokenizer_config.json`` and ``special_tokens_map.json`` so that
        ``transformers.AutoTokenizer.from_pretrained(directory)`` works; ``template``: the directory of
        the model this tokenizer came from, whose settings to carry over (see
        :func:`toolkit.interop.transformers.save_pretrained`; roles: ``pad_token="[PAD]"``...).

        >>> tok.save_pretrained("out", template="path/to/model")   # doctest: +SKIP
        """
        return tool("save_pretrained")(self, directory, template=template, **roles)  # type: ignore[no-any-return]


def _flatten(iterator: Iterable[Any]) -> Iterable[str]:
    for item in iterator:
        if isinstance(item, str):
            yield item
        elif isinstance(item, (list, tuple)):
            for text in item:
                if not isinstance(text, str):
                    raise CorpusError(f"train_from_iterator: a batch must hold str, got {type(text).__name__}")
                yield text
        else:
            raise CorpusError(f"train_from_iterator: expected str or a list of str, got {type(item).__name__} "
                              f"{json.dumps(repr(item))[:60]}")
