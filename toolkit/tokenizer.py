"""The :class:`Tokenizer` pipeline: normalize → pre-tokenize → model → post-process, and decode back.

This module owns the order of the stages and the tokenizer file. Special and added tokens are in
:mod:`toolkit.vocabulary` and :mod:`toolkit.added_tokens`, offsets back into the original text in
:mod:`toolkit.alignment`, the fast paths and their caches in :mod:`toolkit.fast_paths`, worker
processes in :mod:`toolkit.batch`, streaming in :mod:`toolkit.streaming`, the methods for other
libraries' files in :mod:`toolkit.file_formats`; file formats and corpus reading are tooling, reached
by name (:data:`toolkit.registry.TOOLS`).
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit import limits, options
from toolkit.alignment import NormalizedString, Piece
from toolkit.batch import encode_in_processes
from toolkit.cache import BoundedCache
from toolkit.encoding import Encoding
from toolkit.file_formats import FileFormats
from toolkit.errors import ConfigError, CorpusError, InputError, InputTypeError, SerializationError
from toolkit.arguments import ComponentSlot, check_batch, check_flag, check_id_sequence, check_indent, check_path, ids_to_tokens, writing
from toolkit.fast_paths import Columns, PipelineCaches, check_text, encode_pieces, encode_slices, scan_ids, segment_ids
from toolkit.hf_names import HFNames, PreTokenized, batch_item
from toolkit.interfaces import Decoder, Model, Normalizer, PostProcessor, PreTokenizer, Trainer
from toolkit.padding import TruncationPadding, pad_batch, post_process, post_process_ids, settings_from_dict
from toolkit.registry import tool
from toolkit.runtime import gc_paused
from toolkit.streaming import StreamDecoder
from toolkit.tiktoken_names import TiktokenNames, token_bytes
from toolkit.vocabulary import AllowedSpecial, VocabularyMixin
from toolkit.added_tokens import AddedVocabulary, Segment, read_added_tokens
from toolkit.serialization import FORMAT, VERSION, atomic_write_text, build_components, check_document, parse_json
from toolkit.progress import training_progress

__all__ = ["Tokenizer", "StreamDecoder", "AllowedSpecial"]

#: What :meth:`Tokenizer.train` reads: texts, or a path / paths of text files (or a tooling ``Corpus``).
CorpusSource = str | os.PathLike[str] | Iterable[str] | Iterable[os.PathLike[str]] | Any
#: Held while a pipeline replaces its caches (rare: a component or an option changed), so that the
#: model and the caches filled by it are always replaced together.
_CACHES_LOCK = threading.Lock()
#: ``encode_ids`` pauses the cyclic garbage collector for texts of at least this many characters.
_PAUSE_GC_FROM = 1 << 16
_NONE: tuple[()] = ()  # the default of allowed_special / disallowed_special, compared by identity first
_NO_SPECIALS: frozenset[str] = frozenset()


def _later_pieces(pre_tokenizer: PreTokenizer, text: str) -> list[Piece]:
    """The pieces of ``text``, normalized text that follows an added token, so not the start of the
    text: pre-tokenized as if at position 1, then put back at 0. A position-sensitive pre-tokenizer
    (``Metaspace(prepend_scheme="first")``) then gives it no prefix, as in HF, where a part after an
    added token does not start at offset 0."""
    return [p.moved(-1) for p in pre_tokenizer.pre_tokenize([Piece(text, 1, len(text) + 1)]) if p.text]


class Tokenizer(TruncationPadding, HFNames, TiktokenNames, VocabularyMixin, FileFormats):
    """A complete tokenizer: the pipeline of components plus encode/decode/train/save; truncation and
    padding (:mod:`toolkit.padding`), Hugging Face's names (:mod:`toolkit.hf_names`), added tokens
    (:mod:`toolkit.vocabulary`) and other libraries' files (:mod:`toolkit.file_formats`) come from mixins.

    >>> from algorithms import BPE
    >>> from pretokenizers import Whitespace
    >>> tok = Tokenizer(BPE(vocab={"[UNK]": 0, "h": 1, "i": 2, "hi": 3}, merges=[("h", "i")], unk_token="[UNK]"),
    ...                 pre_tokenizer=Whitespace())
    >>> tok.encode("hi ih").tokens
    ['hi', 'i', 'h']
    """

    def __init__(
        self,
        model: Model,
        normalizer: Normalizer | None = None,
        pre_tokenizer: PreTokenizer | None = None,
        post_processor: PostProcessor | None = None,
        decoder: Decoder | None = None,
        *,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        for value, cls, name in (
            (model, Model, "model"),
            (normalizer, Normalizer, "normalizer"),
            (pre_tokenizer, PreTokenizer, "pre_tokenizer"),
            (post_processor, PostProcessor, "post_processor"),
            (decoder, Decoder, "decoder"),
        ):
            if value is not None and not isinstance(value, cls):
                raise ConfigError(f"{name} must be a {cls.__name__}, got {type(value).__name__}")
        if model is None:
            raise ConfigError("model is required, e.g. Tokenizer(BPE())")
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.decoder = decoder
        if metadata is not None and not isinstance(metadata, Mapping):
            raise ConfigError(f"metadata must be a mapping (dict), got {type(metadata).__name__}")
        #: Free-form information stored in the file (e.g. how the tokenizer was trained).
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._special_patterns: BoundedCache = BoundedCache(64)
        self._added = AddedVocabulary()

    def __repr__(self) -> str:
        parts = [f"model={self.model!r}"]
        for name in ("normalizer", "pre_tokenizer", "post_processor", "decoder"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        return f"Tokenizer({', '.join(parts)})"

    def __copy__(self) -> Tokenizer:
        """An independent copy, as ``copy.copy`` of a Hugging Face tokenizer: a shallow one would share
        the components and the added tokens, so a change to either would change both."""
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ components
    normalizer = ComponentSlot(Normalizer)
    post_processor = ComponentSlot(PostProcessor)
    decoder = ComponentSlot(Decoder)

    # The model and the pre-tokenizer determine what the ids of a raw piece are: replacing either
    # must forget the pipeline's raw-piece cache.
    @property
    def model(self) -> Model:
        """The model (vocabulary and algorithm)."""
        return self._model

    @model.setter
    def model(self, value: Model) -> None:
        if not isinstance(value, Model):
            raise ConfigError(f"model must be a Model, got {type(value).__name__}")
        with _CACHES_LOCK:
            self._model = value
            self._forget_caches()

    @property
    def pre_tokenizer(self) -> PreTokenizer | None:
        """The pre-tokenizer, or ``None`` (the whole normalized text is one piece)."""
        return self._pre_tokenizer

    @pre_tokenizer.setter
    def pre_tokenizer(self, value: PreTokenizer | None) -> None:
        if value is not None and not isinstance(value, PreTokenizer):
            raise ConfigError(f"pre_tokenizer must be a PreTokenizer or None, got {type(value).__name__}")
        with _CACHES_LOCK:
            self._pre_tokenizer = value
            self._forget_caches()

    def _forget_caches(self) -> None:
        self._caches = PipelineCaches(self._model, self.__dict__.get("_pre_tokenizer"))
        # The new caches take the current option generation, so _current_caches will not see a change
        # made before this call: what was derived from the options is renewed here too.
        self._renew_patterns()

    def _current_caches(self) -> PipelineCaches:
        """The caches with the model and pre-tokenizer they belong to (read together, see
        :class:`~toolkit.fast_paths.PipelineCaches`); new ones if an option changed since."""
        caches = self._caches
        if caches.generation != options.generation():
            # Under the lock, from the components as they are now: a thread that read the old caches
            # must not put them back after another thread replaced the model.
            with _CACHES_LOCK:
                caches = self._caches
                if caches.generation != options.generation():
                    caches = self._caches = PipelineCaches(self._model, self.__dict__.get("_pre_tokenizer"))
                    self._renew_patterns()
        return caches

    def _use_trained_model(self, model: Model) -> None:
        """Make ``model``, just trained, this pipeline's: the added tokens get ids after its vocabulary
        (their old ids may belong to trained tokens now) and their matching patterns are renewed."""
        self.model = model
        self._renumber_added_tokens()
        self._renew_patterns()

    def clear_cache(self) -> None:
        """Forget cached pieces, to free their memory (caches never serve stale results: an option
        change renews them, and a model's vocabulary cannot change in place)."""
        with _CACHES_LOCK:
            self._forget_caches()
        self.model.clear_cache()

    # ------------------------------------------------------------------ debugging helpers
    def normalize_str(self, text: str) -> str:
        """The text after the normalizer (unchanged without one)."""
        check_text(text)
        return self.normalizer.normalize_str(text) if self.normalizer else text

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Pieces after normalization and pre-tokenization, with spans into the *original* text."""
        ns, pieces = self._pieces(check_text(text))
        return [(p.text, ns.original_span(p.start, p.end)) for p in pieces]

    # ------------------------------------------------------------------ encoding
    def _pieces(self, text: str) -> tuple[NormalizedString, list[Piece]]:
        ns = NormalizedString(text)
        if self.normalizer is not None:
            ns = self.normalizer.normalize(ns)
        n = ns.normalized
        pieces = [Piece(n, 0, len(n))] if n else []
        if self.pre_tokenizer is not None and pieces:
            pieces = self.pre_tokenizer.pre_tokenize(pieces)
        return ns, [p for p in pieces if p.text]

    def _segments(self, text: str, allowed: frozenset[str], model: Model, normalizer: Any) -> list[Segment]:
        """``text`` cut at added tokens and allowed special tokens; the rest normalized."""
        cutter = self._cutter(model)
        if cutter is not None and cutter.active(allowed):
            return cutter.cut(text, normalizer, allowed)
        ns = NormalizedString(text)
        if normalizer is not None:
            ns = normalizer.normalize(ns)
        return [Segment(None, "", 0, len(text), ns, 0, len(ns.normalized))]

    def _encode_sequence(
        self, text: str, allowed: frozenset[str], type_id: int, caches: PipelineCaches | None = None
    ) -> Encoding:
        """One sequence: cut at added tokens, normalize, pre-tokenize, tokenize, offsets."""
        out = Columns()
        caches = self._current_caches() if caches is None else caches
        model, normalizer, pre_tokenizer = caches.model, self.normalizer, caches.pre_tokenizer
        special_ids: frozenset[int] | None = None  # looked up at the first added token only
        word = 0
        for seg in self._segments(text, allowed, model, normalizer):
            if seg.token_id is not None:  # an added token: one token; a non-special one is a word (as HF)
                if special_ids is None:
                    special_ids = self._special_info(model)[2]
                special = seg.token_id in special_ids
                if special:
                    out.specials.append(len(out.ids))
                out.ids.append(seg.token_id)
                out.tokens.append(seg.token)
                out.offsets.append((seg.start, seg.end))
                out.words.append(word)  # a word of its own, as in HF (special or not)
                word += 1
                continue
            ns, a, b = seg.ns, seg.nstart, seg.nend
            if a == b:
                continue
            normalized = ns.normalized if b - a == len(ns.normalized) else ns.normalized[a:b]
            # Pieces that are plain slices of the normalized text (BERT, GPT-2 byte level) have tokens
            # whose spans relative to the piece depend on its text alone: they come from a cache.
            sliced = pre_tokenizer.split_slices(normalized) if pre_tokenizer is not None else None
            if sliced is not None:
                if a:
                    sliced = (sliced[0], [start + a for start in sliced[1]], sliced[2])
                word = encode_slices(out, model, caches.tokens_for(sliced[2]), ns, sliced, seg.start, word)
                continue
            if pre_tokenizer is None:
                pieces = [Piece(normalized, a, b)]
            elif a == 0 and seg.start > 0 and pre_tokenizer.position_sensitive:  # text after an added token
                pieces = _later_pieces(pre_tokenizer, normalized)
            else:
                pieces = pre_tokenizer.pre_tokenize([Piece(normalized, a, b)])
            word = encode_pieces(out, model, caches.tokens_for(None), ns, pieces, seg.start, word)
        n = len(out.ids)
        special_mask = [0] * n
        for i in out.specials:
            special_mask[i] = 1
        return Encoding(out.ids, out.tokens, out.offsets, [type_id] * n, special_mask, [1] * n, out.words)

    def _encode_words(self, words: Any, allowed: frozenset[str], type_id: int, caches: PipelineCaches, name: str) -> Encoding:
        """Pre-tokenized input: each word encoded on its own; its tokens get the word's index and
        offsets within the word (as HF's ``is_pretokenized=True``)."""
        if isinstance(words, (str, bytes)) or not isinstance(words, (list, tuple)):
            raise InputTypeError(f"{name}: with is_pretokenized=True, give a list of words (str), got {type(words).__name__}")
        parts = [self._encode_sequence(check_text(w, f"{name}[{i}]"), allowed, type_id, caches) for i, w in enumerate(words)]
        for i, part in enumerate(parts):
            part.word_ids = [i] * len(part.ids)
        return Encoding.concat(parts)

    def encode(
        self,
        text: str | Sequence[str],
        pair: str | Sequence[str] | None = None,
        is_pretokenized: bool = False,
        add_special_tokens: bool = True,
        *,
        allowed_special: AllowedSpecial = (),
        disallowed_special: AllowedSpecial = (),
    ) -> Encoding:
        """Encode ``text`` (and optionally ``pair``) into an :class:`Encoding` with offsets.

        Added tokens (:meth:`add_tokens`) are matched in any text. Special tokens typed inside the
        text are ordinary text unless ``allowed_special`` names them (or is ``"all"``; ``None`` or
        empty: none); ``disallowed_special`` (tiktoken's name; ``"all"``: every special token not
        allowed) raises :class:`InputError` instead when one occurs. ``add_special_tokens`` lets the
        post-processor add ``[CLS]``/``[SEP]``... ``is_pretokenized``: ``text`` (and ``pair``) are lists
        of words. Then truncation and padding run if enabled (:meth:`enable_truncation`, :meth:`enable_padding`).

        >>> from algorithms import WordLevel
        >>> from pretokenizers import Whitespace
        >>> tok = Tokenizer(WordLevel({"[UNK]": 0, "hello": 1, "world": 2}, unk_token="[UNK]"),
        ...                 pre_tokenizer=Whitespace())
        >>> enc = tok.encode("hello world!")
        >>> enc.ids, enc.tokens, enc.offsets
        ([1, 2, 0], ['hello', 'world', '[UNK]'], [(0, 5), (6, 11), (11, 12)])
        """
        caches = self._current_caches()  # one model for the whole call, even if another thread swaps it
        allowed: frozenset[str] = frozenset()
        specials: Mapping[str, int] = {}
        if not (allowed_special == () or allowed_special is None) or not (
            disallowed_special == () or disallowed_special is None
        ):
            specials = self._specials(caches.model)
            allowed = self._allowed(allowed_special, specials)
        check_flag(add_special_tokens, "add_special_tokens")
        if check_flag(is_pretokenized, "is_pretokenized"):
            enc = self._encode_words(text, allowed, 0, caches, "text")
            enc_pair = None if pair is None else self._encode_words(pair, allowed, 1, caches, "pair")
        else:
            self._check_disallowed(check_text(text), disallowed_special, allowed, specials)
            enc = self._encode_sequence(text, allowed, 0, caches)
            enc_pair = None
            if pair is not None:
                self._check_disallowed(check_text(pair, "pair"), disallowed_special, allowed, specials)
                enc_pair = self._encode_sequence(pair, allowed, 1, caches)
        return post_process(self.post_processor, enc, enc_pair, add_special_tokens=add_special_tokens,
                            truncation=self._truncation, padding=self._padding)

    def encode_ids(
        self, text: str, *, allowed_special: AllowedSpecial = (), add_special_tokens: bool = True,
        disallowed_special: AllowedSpecial = (),
    ) -> list[int]:
        """The ids of ``text`` only: the fastest path, equal to ``encode(text).ids``.

        >>> from algorithms import BPE
        >>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).encode_ids("abab")
        [2, 2]
        """
        # The checks are called only where they can fail (they are most of a short line's cost).
        if type(text) is not str or not text.isascii():  # isascii() is O(1): an ASCII str is fine
            check_text(text, sized=False)  # no size limit: time and memory are linear in the text
        if add_special_tokens is not True:
            check_flag(add_special_tokens, "add_special_tokens")
        caches = self._current_caches()  # one model for the whole call, even if another thread swaps it
        allowed = _NO_SPECIALS
        if not (allowed_special is _NONE or allowed_special == () or allowed_special is None) or not (
            disallowed_special is _NONE or disallowed_special == () or disallowed_special is None
        ):
            specials = self._specials(caches.model)
            allowed = self._allowed(allowed_special, specials)
            self._check_disallowed(text, disallowed_special, allowed, specials)
        if len(text) < _PAUSE_GC_FROM:
            out = self._text_ids(text, caches, allowed)
        else:  # a long text fills the caches with cycle-free containers: the collector would rescan them
            with gc_paused():
                out = self._text_ids(text, caches, allowed)
        post_processor = self._post_processor  # the slot's value, read without its descriptor (hot path)
        if self._truncation is not None or self._padding is not None:
            return post_process_ids(post_processor, out, add_special_tokens=add_special_tokens,
                                    truncation=self._truncation, padding=self._padding)
        if post_processor is not None:
            return post_processor.process_ids(out, add_special_tokens=add_special_tokens)
        return out

    def encode_ordinary(self, text: str) -> list[int]:
        """tiktoken's ``encode_ordinary``: the ids of ``text`` with every special token as text and no
        special tokens added around it (added non-special tokens still match).

        >>> from algorithms import BPE
        >>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).encode_ordinary("ab")
        [2]
        """
        return self.encode_ids(text, add_special_tokens=False)

    def _text_ids(self, text: str, caches: PipelineCaches, allowed: frozenset[str]) -> list[int]:
        """The ids of ``text``: cut at added and ``allowed`` special tokens, each part normalized, then
        through the scanner or :func:`segment_ids`."""
        normalizer = self._normalizer  # the slot's value, read without its descriptor (hot path)
        # "Nothing to cut with no special token allowed" is remembered for these caches in
        # _special_patterns, which adding tokens renews (the caches change with any option).
        cutter = None
        patterns = self._special_patterns  # read once (see _renew_patterns)
        if allowed or patterns.get("plain") is not caches:
            cutter = self._cutter(caches.model)
            if cutter is not None and not cutter.active(allowed):
                cutter = None
            if cutter is None and not allowed:
                patterns.put("plain", caches)
        if cutter is None:  # the common call: nothing to cut at
            if normalizer is not None:
                text = normalizer.normalize_str(text)
            if caches.scanner is not None:
                return scan_ids(caches, text)
            return segment_ids(caches.model, caches.pre_tokenizer, caches.raw, text)
        out: list[int] = []
        pre_tokenizer = caches.pre_tokenizer
        later = pre_tokenizer is not None and pre_tokenizer.position_sensitive
        for part in cutter.cut_ids(text, None if normalizer is None else normalizer.normalize_str, allowed):
            if type(part) is int:
                out.append(part)
            elif later and out:  # text after an added token (nothing before the text's start: no ids)
                get, encode_piece = caches.model.piece_cache.get, caches.model.encode_piece
                for piece in _later_pieces(pre_tokenizer, part):  # type: ignore[arg-type]
                    out += get(piece.text) or encode_piece(piece.text)
            elif caches.scanner is not None:
                out += scan_ids(caches, part)  # type: ignore[arg-type]
            else:
                out += segment_ids(caches.model, caches.pre_tokenizer, caches.raw, part)  # type: ignore[arg-type]
        return out

    def encode_batch(
        self,
        inputs: Sequence[Any],
        is_pretokenized: bool = False,
        add_special_tokens: bool = True,
        *,
        allowed_special: AllowedSpecial = (),
        disallowed_special: AllowedSpecial = (),
        num_workers: int | None = None,
    ) -> list[Encoding]:
        """Encode many texts (or pairs: ``(text, pair)`` tuples or 2-item lists; with ``is_pretokenized``,
        lists of words or pairs of them); equal to calling :meth:`encode` on each, then padded to the
        longest of the batch if padding is enabled.

        ``num_workers`` > 1 encodes in that many processes, this one and ``num_workers - 1`` workers:
        the inputs are cut into one contiguous share per process (balanced by characters), this
        process encodes the first while each worker encodes one of the others, and the encodings come
        back in input order, identical to the serial ones (an error is the one the serial loop would
        raise first). Workers are *forked* on Linux from a process with one thread (they inherit the
        tokenizer and its warm caches), else *spawned* (safe with threads); this process encodes alone
        when the batch is under ``toolkit.batch.MIN_PARALLEL_CHARS`` characters, when its first items
        (the probe) find nearly every piece cached already, or when no start is safe (a
        daemon, a spawning child, or spawning from a script without an ``if __name__ == "__main__":``
        guard, which a worker would re-run), so no script hangs. The results travel back as flat
        arrays that this process turns into ``Encoding`` objects again (measured in
        ``docs/benchmarks.md``). ``None`` or ``1``: this process.

        >>> from algorithms import BPE
        >>> tok = Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")]))
        >>> [e.ids for e in tok.encode_batch(["ab", ("a", "b")])]
        [[2], [0, 1]]
        """
        if num_workers is not None and (
            not isinstance(num_workers, int) or isinstance(num_workers, bool) or num_workers < 1
        ):
            raise ConfigError(f"num_workers must be a positive integer or None, got {num_workers!r}")
        if isinstance(inputs, (str, bytes)):
            raise InputError("encode_batch expects a list of texts (or (text, pair) tuples), got one string; use encode")
        if not hasattr(inputs, "__iter__"):
            raise InputError(f"encode_batch expects a list of texts (or (text, pair) tuples), got {type(inputs).__name__}")
        check_flag(add_special_tokens, "add_special_tokens")
        if check_flag(is_pretokenized, "is_pretokenized"):
            inputs = [PreTokenized(item) for item in inputs]
        # Validate once, in a form that pickles and survives being iterated more than once.
        allowed: AllowedSpecial = "all" if allowed_special == "all" else tuple(sorted(self._allowed(allowed_special)))
        items = list(inputs)
        if disallowed_special != () and disallowed_special is not None:
            specials = self._specials(self.model)
            for item in items:
                text, pair, pretokenized = batch_item(item)  # a pair is a tuple or a 2-item list
                for text in () if pretokenized else (text, pair):
                    if isinstance(text, str):
                        self._check_disallowed(text, disallowed_special, frozenset(self._allowed(allowed)), specials)
        if num_workers is not None and num_workers > 1 and len(items) > 1:
            out = encode_in_processes(self, items, num_workers, add_special_tokens, allowed)
        else:
            with gc_paused():  # the results are many small cycle-free lists: collecting them is wasted time
                out = [self._encode_item(item, add_special_tokens, allowed) for item in items]
        return pad_batch(out, self._padding) if self._padding is not None else out

    def _encode_item(self, item: Any, add_special_tokens: bool, allowed: AllowedSpecial) -> Encoding:
        text, pair, pretokenized = batch_item(item)
        return self.encode(text, pair, is_pretokenized=pretokenized, add_special_tokens=add_special_tokens,
                           allowed_special=allowed)

    # ------------------------------------------------------------------ decoding
    def _tokens_of(self, ids: Iterable[int], skip_special_tokens: bool) -> list[str]:
        skip = check_flag(skip_special_tokens, "skip_special_tokens")
        skipped = self._skipped_ids() if skip else frozenset()
        if type(ids) is list and ids and set(map(type, ids)) == {int}:
            # The usual call (a list of ints): the table at C speed; anything it cannot name takes the
            # checked loop below, whose error names the id.
            table = self._token_table()
            if 0 <= min(ids) and max(ids) < len(table):
                tokens = [*map(table.__getitem__, ids)]
                if None not in tokens:
                    if skipped and not skipped.isdisjoint(ids):
                        return [t for i, t in zip(ids, tokens) if i not in skipped]  # type: ignore[misc]
                    return tokens  # type: ignore[return-value]
        added = self._added_strings() if len(self._added) else None
        return ids_to_tokens(self.model, ids, skip, added, skipped)

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = True) -> str:
        """Text of ``ids`` (integers; a bool, an unknown id or anything else raises :class:`InputError`).
        Special tokens are left out unless ``skip_special_tokens=False`` (HF's default).

        >>> from algorithms import BPE
        >>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).decode([2, 0])
        'ab a'
        """
        tokens = self._tokens_of(ids, skip_special_tokens)
        if self.decoder is not None:
            return self.decoder.decode(tokens)
        return " ".join(tokens)

    def decode_bytes(self, tokens: Iterable[int]) -> bytes:
        """tiktoken's ``decode_bytes``: the bytes of the ids ``tokens`` (tiktoken's name), special tokens
        included; byte-level tokens give their exact bytes even when they end inside a UTF-8 character,
        special and added tokens the UTF-8 of their text (as tiktoken's special tokens)."""
        check_id_sequence(tokens)  # before list(): bytes would iterate as ids
        ids = tokens if type(tokens) is list else list(tokens)
        strings = self._tokens_of(ids, False)
        if self._byte_level():
            literal = self._literal_ids()
            if literal.isdisjoint(ids):
                return b"".join(token_bytes(t, byte_level=True) for t in strings)
            return b"".join(t.encode("utf-8", "surrogatepass") if i in literal else token_bytes(t, byte_level=True)
                            for i, t in zip(ids, strings))
        text = self.decoder.decode(strings) if self.decoder is not None else " ".join(strings)
        return text.encode("utf-8", "surrogatepass")

    def decode_batch(self, batch: Iterable[Iterable[int]], skip_special_tokens: bool = True) -> list[str]:
        """:meth:`decode` for each sequence of ids."""
        batch = check_batch(batch, "decode_batch", "id sequences")
        return [self.decode(ids, skip_special_tokens=skip_special_tokens) for ids in batch]

    def stream_decoder(self, *, skip_special_tokens: bool = True, ids: Iterable[int] | None = None) -> StreamDecoder:
        """A decoder that takes ids one at a time and returns text as soon as it is complete;
        ``ids``: the prefix already shown (HF's ``DecodeStream(ids=...)``), used as context only.

        >>> from algorithms import BPE
        >>> sd = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[])).stream_decoder()
        >>> sd.feed(0), sd.feed(1), sd.flush()
        ('a', ' b', '')
        """
        return StreamDecoder(self, skip_special_tokens=skip_special_tokens, ids=ids)

    # ------------------------------------------------------------------ training
    def train(self, corpus: CorpusSource, trainer: Trainer | None = None) -> Tokenizer:
        """Train the model on ``corpus`` with ``trainer`` (``None``: the model's trainer with its
        defaults, ``BPE`` → ``BPETrainer()``, as HF's); returns ``self``.

        Progress (counting, then merging) is drawn when ``trainer.show_progress`` and stderr is a
        terminal or this runs in a notebook; a ``vocab_size`` the corpus cannot fill is a
        :class:`~toolkit.errors.VocabSizeWarning`.

        ``corpus`` is an iterable of strings, or a path / list of paths to UTF-8 text files (read line
        by line, never whole). A list of strings is read as paths when every string names an existing
        file or folder, else as texts (:meth:`train_from_iterator` always reads texts); a list where
        some name files and some do not is a :class:`~toolkit.errors.CorpusError` (a mistyped path). A
        file that is mostly NUL bytes (binary, or UTF-16 text) is a ``CorpusError`` too. The normalizer
        and pre-tokenizer of this pipeline cut the text into the word counts the trainer learns from.

        >>> from algorithms import WordLevel, WordLevelTrainer
        >>> from pretokenizers import Whitespace
        >>> tok = Tokenizer(WordLevel(unk_token="[UNK]"), pre_tokenizer=Whitespace())
        >>> trainer = WordLevelTrainer(special_tokens=["[UNK]"], show_progress=False)
        >>> tok.train(["the cat", "the dog"], trainer).encode("the bird").tokens
        ['the', '[UNK]']
        """
        if trainer is None:
            trainer = self._model_trainer()
        if not isinstance(trainer, Trainer):
            raise ConfigError(f"trainer must be a Trainer, got {type(trainer).__name__}")
        if isinstance(corpus, (bytes, bytearray)) or not (
            isinstance(corpus, (str, os.PathLike)) or hasattr(corpus, "__iter__") or hasattr(corpus, "iter_texts")
        ):
            raise CorpusError(
                f"corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got "
                f"{type(corpus).__name__} {corpus!r:.60}" + ("; decode bytes to str first" if isinstance(corpus, bytes) else "")
            )
        with training_progress(trainer) as progress:  # one display for counting and merging (show_progress)
            counts = tool("count_words")(
                corpus, normalizer=self.normalizer, pre_tokenizer=self.pre_tokenizer, progress=progress
            )
            self._use_trained_model(trainer.train(counts, model=self.model))
        mismatch = self._special_id_mismatch()
        if mismatch is not None:
            raise ConfigError(
                f"post_processor: {mismatch} (the model is trained and kept: give the post-processor the "
                "trained ids, e.g. BertProcessing((\"[SEP]\", tok.token_to_id(\"[SEP]\")), ...), then encode)"
            )
        trainer.check_reached(self.model)  # a VocabSizeWarning when the corpus ran out of pairs
        return self

    def _special_id_mismatch(self) -> str | None:
        """What is wrong when a special token the post-processor adds has another id in the trained
        vocabulary (a post-processor built before training names ids the trainer may have given other
        tokens: every encoding would be wrong); ``None`` when they agree."""
        processor = self.post_processor
        if processor is None:
            return None
        try:
            added = processor.process(Encoding([], [], []), Encoding([], [], []))
        except (ConfigError, InputError):  # a post-processor for single sequences
            added = processor.process(Encoding([], [], []), None)
        for token_id, token in zip(added.ids, added.tokens):
            actual = self.token_to_id(token)
            if actual != token_id:
                where = "no such token" if actual is None else f"it at id {actual}"
                fix = f"use id {actual}" if actual is not None else "add it to trainer.special_tokens"
                return f"adds {token!r} with id {token_id}, but the trained vocabulary has {where}; {fix}"
        return None

    def visualize(self, text: str | Sequence[str], *, add_special_tokens: bool = True, show_ids: bool = False) -> Any:
        """Token boundaries of ``text``: a :class:`toolkit.analysis.visualize.TokenView` (HTML in notebooks,
        ``|``-separated plain text with ``str()``). Several tokenizers: :func:`toolkit.analysis.visualize.visualize`.

        >>> print(tok.visualize("Phileas Fogg"))   # doctest: +SKIP
        Phileas|␣Fogg
        """
        return tool("visualize")(self, text, add_special_tokens=add_special_tokens, show_ids=show_ids)

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict[str, Any]:
        """The JSON document as a dict (see :mod:`toolkit.serialization`)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "normalizer": self.normalizer.to_dict() if self.normalizer else None,
            "pre_tokenizer": self.pre_tokenizer.to_dict() if self.pre_tokenizer else None,
            "model": self.model.to_dict(),
            "post_processor": self.post_processor.to_dict() if self.post_processor else None,
            "decoder": self.decoder.to_dict() if self.decoder else None,
            **({"truncation": self.truncation} if self._truncation is not None else {}),
            **({"padding": self.padding} if self._padding is not None else {}),
            "metadata": self.metadata,
            **({"added_tokens": self._added_tokens_json()} if len(self._added) else {}),
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The tokenizer as a JSON document; :class:`SerializationError` when ``metadata`` holds what
        JSON cannot, or nests deeper than a file may (the loader would refuse the file)."""
        import json

        indent = check_indent(indent)
        try:
            limits.check_nesting_depth({"metadata": self.metadata}, source="metadata")  # the document's depth
            return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)
        except SerializationError:
            raise SerializationError(
                f"metadata: nested more than {limits.MAX_NESTING_DEPTH - 1} levels deep, so the saved file could "
                "not be read back (toolkit.limits.MAX_NESTING_DEPTH counts the document's own level): flatten it"
            ) from None
        except (TypeError, ValueError) as exc:  # what json.dumps refuses can only come from the metadata
            raise SerializationError(
                f"metadata: {exc}; metadata may hold JSON values only (str, int, float, bool, None, lists, and "
                "dicts with str keys)"
            ) from None

    @classmethod
    def from_dict(cls, data: Any, *, trusted: bool = False, source: str = "<dict>") -> Tokenizer:
        """Rebuild from :meth:`to_dict` output (validated in full unless ``trusted``)."""
        limits.check_nesting_depth(data, source=source)  # a dict built in memory is not parsed by parse_json
        return cls._from_document(data, trusted=trusted, source=source)

    @classmethod
    def _from_document(cls, data: Any, *, trusted: bool, source: str) -> Tokenizer:
        """:meth:`from_dict` of a document whose nesting depth is checked (by :func:`parse_json`)."""
        doc = check_document(data, source=source)
        parts = build_components(doc, validate=not trusted, source=source)
        tok = cls(**parts, metadata=doc.get("metadata") or {})
        tok._truncation, tok._padding = settings_from_dict(doc, source)
        tok._put_added_tokens(read_added_tokens(doc.get("added_tokens"), source=source), source=source)
        return tok

    @classmethod
    def from_json(cls, text: str, *, trusted: bool = False) -> Tokenizer:
        """Load from a JSON string; every problem is a :class:`SerializationError` naming the field.

        ``trusted=True`` skips full validation of large vocabularies (only for files you wrote).
        """
        if not isinstance(text, str):
            raise SerializationError(f"from_json expects a str, got {type(text).__name__}")
        return cls._from_document(parse_json(text), trusted=trusted, source="<string>")

    def save(self, path: str | os.PathLike[str], pretty: bool = True, *, indent: int | None = None) -> None:
        """Write the tokenizer file atomically (temporary file, then rename): indented by 2 as Hugging
        Face's ``save(path, pretty=True)``, on one line with ``pretty=False``, or by ``indent``."""
        check_flag(pretty, "pretty")
        with writing(path):
            atomic_write_text(path, self.to_json(indent=indent if indent is not None else 2 if pretty else None))

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, trusted: bool = False) -> Tokenizer:
        """Read a tokenizer file written by :meth:`save`."""
        check_path(path, "path")
        try:
            with open(path, "rb") as fh:
                text = limits.read_bounded(fh, source=str(path)).decode("utf-8")
        except FileNotFoundError:
            raise SerializationError(f"{path}: no such tokenizer file") from None
        except UnicodeDecodeError as exc:
            raise SerializationError(f"{path}: not UTF-8 text (invalid byte at offset {exc.start})") from None
        except OSError as exc:
            raise SerializationError(f"{path}: cannot read: {exc.strerror}") from None
        return cls._from_document(parse_json(text, source=str(path), decoded=True), trusted=trusted, source=str(path))
