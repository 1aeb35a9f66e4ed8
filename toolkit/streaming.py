"""Incremental decoding: :class:`StreamDecoder` turns ids into text as soon as the text is complete.

>>> from toolkit import Tokenizer
>>> from algorithms import BPE
>>> sd = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[])).stream_decoder()
>>> sd.feed(0), sd.feed(1), sd.flush()
('a', ' b', '')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolkit.errors import InputError

__all__ = ["StreamDecoder"]


class StreamDecoder:
    """Incremental decoding: :meth:`feed` one id at a time, get the text that became complete.

    ``ids`` starts from a prefix already shown; ``skip_special_tokens`` defaults to ``True`` like
    :meth:`Tokenizer.decode <toolkit.Tokenizer.decode>`. ``copy.copy`` gives an independent decoder.

    Works with every decoder. Text is held back while it ends in an incomplete UTF-8 sequence (shown
    as U+FFFD by the decoder), so a 4-byte emoji split over 4 byte tokens prints once, whole. The ids
    already printed are kept as context only until the next output, so memory stays small.
    """

    def __init__(self, tokenizer: Any, *, skip_special_tokens: bool = True, ids: Iterable[int] | None = None) -> None:
        if skip_special_tokens is not True and skip_special_tokens is not False:
            raise InputError(f"skip_special_tokens must be True or False, got {skip_special_tokens!r:.60}")
        self._tokenizer = tokenizer
        self._skip = skip_special_tokens
        self._ids: list[int] = []
        self._context = 0  # how many of _ids were already printed
        self._printed = ""  # decode(_ids[:_context])
        if ids is not None:
            self._start_from(ids)

    def _start_from(self, ids: Iterable[int]) -> None:
        """Take ``ids`` as already shown (HF's ``DecodeStream(ids=...)``): they are context only. An
        incomplete UTF-8 character at their end is not shown yet: the ids that hold it stay pending."""
        if ids is None or isinstance(ids, (str, bytes, bytearray)) or not hasattr(ids, "__iter__"):
            raise InputError(f"ids must be a sequence of integer ids, got {type(ids).__name__} {ids!r:.60}")
        prefix = list(ids)
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

    def feed(self, token_id: int) -> str:
        """Add one id; return the newly completed text (possibly empty). An id that ``decode`` refuses
        raises its :class:`~toolkit.errors.InputError` and leaves the decoder as it was."""
        self._ids.append(token_id)
        try:
            text = self._decode(self._ids)
        except BaseException:
            self._ids.pop()  # nothing else changed yet: the decoder is exactly as before the call
            raise
        if text.endswith("\ufffd"):
            return self._release_settled(text)
        if len(text) <= len(self._printed) and text == self._printed:
            return ""
        new = text[len(self._printed):] if text.startswith(self._printed) else text
        # Keep only the ids just printed as context for the next call.
        self._ids = self._ids[self._context:]
        self._context = len(self._ids)
        self._printed = self._decode(self._ids)
        return new

    def _release_settled(self, text: str) -> str:
        """``text`` ends in U+FFFD: hold it back, but print what can no longer change.

        An incomplete UTF-8 sequence is at most 3 bytes, so it lies within the last 3 ids. When 4 or
        more ids are waiting (invalid bytes, not an incomplete character) and decoding splits cleanly
        before the last 3 (the two parts decode to ``text``), the first part is final: print it. Without
        this, a stream of invalid bytes would be re-decoded whole at every id (quadratic time).
        """
        cut = len(self._ids) - 3
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
        new = text[len(self._printed):] if text.startswith(self._printed) else text
        self._ids, self._context, self._printed = [], 0, ""
        return new

