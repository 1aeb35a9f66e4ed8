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
from toolkit.bytelevel import byte_piece_value
from toolkit.errors import InputError, InputTypeError

__all__ = ["StreamDecoder", "DecodeStream"]



def _as_ids(token_id: Any) -> list[int]:
    """One id, or a list of them (a list, a tuple or a NumPy array: HF's ``step`` takes either);
    ``decode`` checks each id."""
    if isinstance(token_id, (list, tuple)):
        return list(token_id)
    if hasattr(token_id, "tolist") and not isinstance(token_id, (str, bytes, bytearray)):
        value = token_id.tolist()  # a NumPy array (or a NumPy integer: one id)
        return value if isinstance(value, list) else [value]
    if isinstance(token_id, (str, bytes, bytearray)) or hasattr(token_id, "__iter__"):
        raise InputTypeError(f"expected an id or a list of ids, got {type(token_id).__name__} {token_id!r:.60}")
    return [token_id]


def _poison(at: list[int], data: bytes) -> list[int] | None:
    """For the bytes ``data`` of a run of byte pieces at indices ``at``: ``[]`` when they are whole
    characters, ``None`` when they end inside one (a later byte decides), else the indices of the
    bytes of their first error. Those bytes are invalid whatever follows them, so a run that starts
    with them prints U+FFFD per byte, as the whole run does."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":
            return None
        return at[exc.start:exc.end if exc.reason == "invalid start byte" else exc.end + 1]
    return []


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
    as U+FFFD by the decoder), so a 4-byte emoji split over 4 byte tokens prints once, whole. A run of
    byte-fallback pieces (``<0xF0>``...), which decodes all or nothing, prints once it is valid text,
    or one U+FFFD per byte once no later byte can make it valid. The ids already printed are kept as
    context only until the next output, so memory stays small.

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
        self._byte_memo: dict[Any, Any] = {}  # id -> _byte_value, for one tokenizer
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
        other._byte_memo = {}
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
        except BaseException as exc:
            del self._ids[len(self._ids) - len(added):]  # nothing else changed: the decoder is as before
            if isinstance(exc, InputError):
                try:
                    self._decode(added)
                except InputError as own:  # the same error, its position counted in the caller's ids
                    raise own from None
            raise
        if text.endswith("\ufffd"):
            return self._release_settled(text, len(added))
        if len(text) <= len(self._printed) and text == self._printed:
            return ""
        new = text[len(self._printed):]
        self._advance(self._context, len(self._ids))  # the ids just printed stay as context
        return new

    def _release_settled(self, text: str, fresh: int) -> str:
        """``text`` ends in U+FFFD: hold it back, but print what can no longer change.

        An incomplete UTF-8 sequence is at most 3 bytes, so it lies within the last 3 ids. When 4 or
        more ids are waiting (invalid bytes, not an incomplete character) and decoding splits cleanly
        before the last 3 (the two parts decode to ``text``), the first part is final: print it. Without
        this, a stream of invalid bytes would be re-decoded whole at every id (quadratic time). The
        ``fresh`` ids of this call are not released with them: a list that ends inside a character
        waits whole, as in HF. A cut inside the run of byte pieces at the end is final only when no
        later byte can make the run valid (:meth:`_run_before`).
        """
        cut = len(self._ids) - max(3, fresh)
        if cut - self._context < 1:
            return ""
        head = self._decode(self._ids[:cut])
        if not head.startswith(self._printed):
            return ""
        run = self._run_before(cut)
        if run is not None and self._run_goes_on(cut, to_end=True):
            # inside the run of byte pieces still open at the end: final only when no later byte can
            # make the run valid; the ids after the cut then print after the run's error as in the run
            keep = _poison(*run)
            if not keep:
                return ""
            context = [self._ids[i] for i in keep]
            rest = self._decode(context + self._ids[cut:])[len(self._decode(context)):]
        else:
            rest = self._decode(self._ids[cut:])
        if not rest or head + rest != text:
            return ""
        new = head[len(self._printed):]
        self._advance(self._context, cut)
        return new

    def _advance(self, drop: int, context: int) -> None:
        """Drop the first ``drop`` ids (printed, no longer needed as context) and make the ids before
        index ``context`` the printed context. ``ByteFallback`` decodes a run of byte pieces all or
        nothing (one U+FFFD per byte when the run is not valid UTF-8), so the ids after a drop inside a
        run decode alone as they did in the run only when the bytes dropped are whole characters; when
        they hold an error, the ids of that error stay (a *poison*: the rest of the run then prints
        U+FFFD per byte, as in the whole run); when a character crosses the drop, nothing is dropped."""
        ids = self._ids
        # The context must decode to some text: decoders treat the start of the text apart (Llama 2's
        # Strip drops a leading space), and skipped special tokens decode to nothing.
        printed = self._decode(ids[drop:context])
        while not printed and 0 < drop < context:
            drop -= 1
            printed = self._decode(ids[drop:context])
        keep: list[int] = []
        run = self._run_before(drop) if drop else None
        if run is not None and self._run_goes_on(drop, to_end=False):
            poison = _poison(*run)
            if poison is None:
                drop = 0  # a character crosses the drop
            else:
                keep = poison
            printed = None
        self._ids = [ids[i] for i in keep] + ids[drop:]
        self._context = len(keep) + context - drop
        self._printed = printed if printed is not None else self._decode(self._ids[: self._context])

    def _byte_value(self, token_id: int) -> int | None:
        """The byte a ``<0xNN>`` piece stands for; ``None`` for another token; ``-1`` for an id that
        decoding leaves out (a special token when they are skipped)."""
        memo = self._byte_memo
        if memo.get("tokenizer") is not self._tokenizer:  # DecodeStream passes one with each step
            memo.clear()
            memo["tokenizer"] = self._tokenizer
        if token_id in memo:
            return memo[token_id]  # type: ignore[no-any-return]
        tokens_of = getattr(self._tokenizer, "_tokens_of", None)
        if tokens_of is None:
            return None
        tokens = tokens_of([token_id], self._skip)
        value = -1 if not tokens else byte_piece_value(tokens[0])
        if len(memo) < 4096:
            memo[token_id] = value
        return value

    def _run_before(self, k: int) -> tuple[list[int], bytes] | None:
        """The byte pieces of the run that ends just before index ``k`` (skipped ids inside it ignored):
        their indices and bytes, from the run's start (or the first id kept); ``None`` when the id
        before ``k`` is not in such a run."""
        at: list[int] = []
        values: list[int] = []
        i = k
        while i > 0:
            value = self._byte_value(self._ids[i - 1])
            if value is None:
                break
            i -= 1
            if value >= 0:
                at.append(i)
                values.append(value)
        if not at:
            return None
        at.reverse()
        values.reverse()
        return at, bytes(values)

    def _run_goes_on(self, k: int, *, to_end: bool) -> bool:
        """Whether the run before index ``k`` continues at ``k`` (a byte piece follows, skipped ids
        aside); with ``to_end``, whether it is still open: byte pieces (or skipped ids) to the end."""
        found = False
        for token_id in self._ids[k:]:
            value = self._byte_value(token_id)
            if value is None:
                return found and not to_end
            if value >= 0:
                found = True
                if not to_end:
                    return True
        return found

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

