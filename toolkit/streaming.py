"""Incremental decoding: :class:`StreamDecoder` turns ids into text as soon as the text is complete;
:class:`DecodeStream` is the same under Hugging Face's name and call form.

>>> from toolkit import Tokenizer
>>> from algorithms import BPE
>>> sd = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[])).stream_decoder()
>>> sd.feed(0), sd.feed(1), sd.flush()
('a', ' b', '')
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from toolkit.arguments import check_flag
from toolkit.errors import InputError

__all__ = ["StreamDecoder", "DecodeStream"]


def _as_ids(token_id: Any) -> list[int]:
    """One id, or a list of them (HF's ``step`` takes either); ``decode`` checks each id."""
    if isinstance(token_id, (list, tuple)):
        return list(token_id)
    if isinstance(token_id, (str, bytes, bytearray)) or hasattr(token_id, "__iter__"):
        raise InputError(f"expected an id or a list of ids, got {type(token_id).__name__} {token_id!r:.60}")
    return [token_id]


def _prefix_ids(ids: Any) -> list[int]:
    """The ``ids=`` prefix as a list (``decode`` checks each id)."""
    if ids is None or isinstance(ids, (str, bytes, bytearray)) or not hasattr(ids, "__iter__"):
        raise InputError(f"ids must be a sequence of integer ids, got {type(ids).__name__} {ids!r:.60}")
    return list(ids)


class StreamDecoder:
    """Incremental decoding: :meth:`feed` one id at a time, get the text that became complete.

    ``ids`` starts from a prefix already shown; ``skip_special_tokens`` defaults to ``True`` like
    :meth:`Tokenizer.decode <toolkit.Tokenizer.decode>`. ``copy.copy`` gives an independent decoder.

    Works with every decoder. Text is held back while it ends in an incomplete UTF-8 sequence (shown
    as U+FFFD by the decoder), so a 4-byte emoji split over 4 byte tokens prints once, whole. The ids
    already printed are kept as context only until the next output, so memory stays small.

    >>> from algorithms import ByteLevelBPE
    >>> from pretokenizers import ByteLevel
    >>> from toolkit import Tokenizer, decoders
    >>> tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel())
    >>> stream = tok.stream_decoder()
    >>> [stream.feed(i) for i in tok.encode_ids("é!")]   # é is two bytes: nothing until both came
    ['', 'é', '!']
    """

    def __init__(self, tokenizer: Any, *, skip_special_tokens: bool = True, ids: Iterable[int] | None = None) -> None:
        self._tokenizer = tokenizer
        self._skip = check_flag(skip_special_tokens, "skip_special_tokens")
        self._ids: list[int] = []
        self._context = 0  # how many of _ids were already printed
        self._printed = ""  # decode(_ids[:_context])
        if ids is not None:
            self._start_from(ids)

    def _start_from(self, ids: Iterable[int]) -> None:
        """Take ``ids`` as already shown (HF's ``DecodeStream(ids=...)``): they are context only. An
        incomplete UTF-8 character at their end is not shown yet: the ids that hold it stay pending."""
        prefix = _prefix_ids(ids)
        self._decode(prefix)  # every id checked before anything changes
        context = len(prefix)
        while context > max(0, len(prefix) - 3) and self._decode(prefix[:context]).endswith("\ufffd"):
            context -= 1
        self._ids, self._context = prefix, context
        self._printed = self._decode(prefix[:context])

    def __copy__(self) -> StreamDecoder:
        """An independent decoder in the same state (``copy.copy``; HF's ``DecodeStream`` copies too)."""
        other = StreamDecoder.__new__(StreamDecoder)
        other.__dict__.update(self.__dict__)
        other._ids = list(self._ids)
        return other

    def _decode(self, ids: list[int]) -> str:
        return self._tokenizer.decode(ids, skip_special_tokens=self._skip)

    def feed(self, token_id: int | list[int]) -> str:
        """Add one id (or a list of ids); return the newly completed text (possibly empty). An id that
        ``decode`` refuses raises its :class:`~toolkit.errors.InputError` and leaves the decoder as it was.

        Printed text is never printed again. Should the ids decode to text that no longer starts with
        what was printed (a byte-fallback run that a later byte makes invalid turns into U+FFFD
        characters), the text past the printed length is returned, where HF's ``DecodeStream`` raises.
        """
        added = _as_ids(token_id)
        self._ids += added
        try:
            text = self._decode(self._ids)
        except BaseException:
            del self._ids[len(self._ids) - len(added):]  # nothing else changed: the decoder is as before
            raise
        if text.endswith("\ufffd"):
            return self._release_settled(text, len(added))
        if len(text) <= len(self._printed) and text == self._printed:
            return ""
        new = text[len(self._printed):]
        # Keep only the ids just printed as context for the next call.
        self._ids = self._ids[self._context:]
        self._context = len(self._ids)
        self._printed = self._decode(self._ids)
        return new

    def _release_settled(self, text: str, fresh: int) -> str:
        """``text`` ends in U+FFFD: hold it back, but print what can no longer change.

        An incomplete UTF-8 sequence is at most 3 bytes, so it lies within the last 3 ids. When 4 or
        more ids are waiting (invalid bytes, not an incomplete character) and decoding splits cleanly
        before the last 3 (the two parts decode to ``text``), the first part is final: print it. Without
        this, a stream of invalid bytes would be re-decoded whole at every id (quadratic time). The
        ``fresh`` ids of this call are not released with them: a list that ends inside a character
        waits whole, as in HF.
        """
        cut = len(self._ids) - max(3, fresh)
        if cut - self._context < 1:
            return ""
        head = self._decode(self._ids[:cut])
        tail = self._decode(self._ids[cut:])
        if not tail or head + tail != text or not head.startswith(self._printed):
            return ""
        new = head[len(self._printed):]
        self._ids = self._ids[self._context:]
        self._context = cut - self._context
        self._printed = self._decode(self._ids[: self._context])
        return new

    def flush(self) -> str:
        """Return whatever is still held back (an incomplete sequence decodes with U+FFFD) and reset."""
        text = self._decode(self._ids)
        new = text[len(self._printed):]  # as in feed: printed text is not printed again
        self._ids, self._context, self._printed = [], 0, ""
        return new


class DecodeStream:
    """Hugging Face's ``tokenizers.decoders.DecodeStream``: the same arguments and defaults
    (``skip_special_tokens=False``), ``step(tokenizer, id)`` with one id or a list, ``None`` while
    no new text is complete. It runs a :class:`StreamDecoder` (``ids``: a prefix already shown).

    >>> from toolkit import Tokenizer
    >>> from algorithms import BPE
    >>> tok = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[]))
    >>> stream = DecodeStream()
    >>> stream.step(tok, 0), stream.step(tok, [1, 0])
    ('a', ' b a')
    """

    def __init__(self, ids: Iterable[int] | None = None, skip_special_tokens: bool = False) -> None:
        self._skip = check_flag(skip_special_tokens, "skip_special_tokens")
        self._prefix = None if ids is None else _prefix_ids(ids)  # each id checked by the first step
        self._stream: StreamDecoder | None = None

    def step(self, tokenizer: Any, id: int | list[int]) -> str | None:  # noqa: A002 (HF's argument name)
        """Add the next id (or list of ids); return the text that became complete, or ``None``."""
        stream = self._stream
        if stream is None:
            stream = StreamDecoder(tokenizer, skip_special_tokens=self._skip, ids=self._prefix)
            self._stream = stream
        else:
            stream._tokenizer = tokenizer  # HF decodes with the tokenizer of each call
        return stream.feed(id) or None

    def __copy__(self) -> DecodeStream:
        other = DecodeStream.__new__(DecodeStream)
        other.__dict__.update(self.__dict__)
        other._stream = copy.copy(self._stream) if self._stream is not None else None
        return other

