"""The :class:`Tokenizer` pipeline: normalize → pre-tokenize → model → post-process, and decode back.

This module owns the order of the stages, special-token handling (``allowed_special``), offsets back
into the original text and the tokenizer file. The fast paths and their caches are in
:mod:`toolkit.fast_paths`, worker processes in :mod:`toolkit.batch`, streaming in
:mod:`toolkit.streaming`; file formats and corpus reading are tooling, reached by name
(:data:`toolkit.registry.TOOLS`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import regex

from toolkit import limits, options
from toolkit.alignment import NormalizedString, Piece
from toolkit.batch import encode_in_processes
from toolkit.cache import BoundedCache
from toolkit.encoding import Encoding
from toolkit.errors import ConfigError, CorpusError, InputError, SerializationError
from toolkit.arguments import ComponentSlot, check_flag, check_indent, check_path, ids_to_tokens, writing
from toolkit.fast_paths import Columns, PipelineCaches, check_text, encode_pieces, encode_slices, scan_ids, segment_ids
from toolkit.interfaces import Decoder, Model, Normalizer, PostProcessor, PreTokenizer, Trainer
from toolkit.registry import tool
from toolkit.runtime import gc_paused
from toolkit.streaming import StreamDecoder
from toolkit.serialization import FORMAT, VERSION, atomic_write_text, build_components, check_document, parse_json

__all__ = ["Tokenizer", "StreamDecoder", "AllowedSpecial"]

#: ``"all"``, a collection of special-token strings, or ``None`` / empty: none (the same in every encode method).
AllowedSpecial = Literal["all"] | Iterable[str] | None
#: What :meth:`Tokenizer.train` reads: texts, or a path / paths of text files (or a tooling ``Corpus``).
CorpusSource = str | os.PathLike[str] | Iterable[str] | Iterable[os.PathLike[str]] | Any
#: Held while a pipeline replaces its caches (rare: a component or an option changed), so that the
#: model and the caches filled by it are always replaced together.
_CACHES_LOCK = threading.Lock()

class Tokenizer:
    """A complete tokenizer: the pipeline of components plus encode/decode/train/save.

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

    def __repr__(self) -> str:
        parts = [f"model={self.model!r}"]
        for name in ("normalizer", "pre_tokenizer", "post_processor", "decoder"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        return f"Tokenizer({', '.join(parts)})"

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
                    self._special_patterns.clear()
        return caches

    def clear_cache(self) -> None:
        """Forget cached pieces; needed only after changing a model's vocabulary in place."""
        with _CACHES_LOCK:
            self._forget_caches()
        self.model.clear_cache()

    # ------------------------------------------------------------------ vocabulary
    def get_vocab(self) -> dict[str, int]:
        """Token string → id, special tokens included."""
        return self.model.get_vocab()

    @property
    def vocab_size(self) -> int:
        """Number of tokens in the vocabulary, special tokens included."""
        return self.model.vocab_size

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token`` or ``None``."""
        if not isinstance(token, str):
            raise InputError(f"token must be a str, got {type(token).__name__} {token!r:.60}")
        return self.model.token_to_id(token)

    def id_to_token(self, token_id: int) -> str | None:
        """The token string of ``token_id`` or ``None``."""
        if type(token_id) is not int:
            if isinstance(token_id, bool) or not hasattr(token_id, "__index__"):
                raise InputError(f"token_id must be an int, got {type(token_id).__name__} {token_id!r:.60}")
            token_id = token_id.__index__()  # numpy and torch integers
        return self.model.id_to_token(token_id)

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special tokens (``<|endoftext|>``, ``[CLS]``...) and their ids."""
        return self.model.special_tokens

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
    def _allowed(self, allowed_special: AllowedSpecial | None, specials: Mapping[str, int] | None = None) -> frozenset[str]:
        """``allowed_special`` checked against ``specials`` (default: the model's special tokens)."""
        specials = self.model.special_tokens if specials is None else specials
        if allowed_special is None:
            return frozenset()
        if isinstance(allowed_special, str) and allowed_special == "all":
            return frozenset(specials)
        if isinstance(allowed_special, (str, bytes, bytearray)) or not isinstance(allowed_special, Iterable):
            raise ConfigError(
                f'allowed_special must be "all", None or a collection of special-token strings, '
                f"got {type(allowed_special).__name__} {allowed_special!r:.60}"
                + (f" (for one token write [{allowed_special!r:.60}])" if isinstance(allowed_special, str) else "")
            )
        items = list(allowed_special)
        for item in items:
            if not isinstance(item, str):
                raise ConfigError(
                    f"allowed_special must hold special-token strings, got {type(item).__name__} {item!r:.60}"
                )
        allowed = frozenset(items)
        unknown = allowed - set(specials)
        if unknown:
            raise ConfigError(
                f"allowed_special names tokens that are not special tokens of this tokenizer: "
                f"{', '.join(sorted(unknown))}; known: {', '.join(specials) or 'none'}"
            )
        return allowed

    def _segments(
        self, text: str, allowed: frozenset[str], specials: Mapping[str, int] | None = None
    ) -> list[tuple[int, int, int | None]]:
        """Cut ``text`` at allowed special tokens: ``(start, end, special_id or None)``; ``specials`` is
        the special tokens of the model the caller encodes with (default: the current model's)."""
        if not allowed or not text:
            return [(0, len(text), None)] if text else []
        pattern = self._special_patterns.get(allowed)
        if pattern is None:
            alternatives = sorted(allowed, key=lambda s: (-len(s), s))  # longest first
            pattern = self._special_patterns.put(allowed, regex.compile("|".join(map(regex.escape, alternatives))))
        out: list[tuple[int, int, int | None]] = []
        pos = 0
        specials = self.model.special_tokens if specials is None else specials
        for m in pattern.finditer(text):
            if m.start() > pos:
                out.append((pos, m.start(), None))
            out.append((m.start(), m.end(), specials[m.group()]))
            pos = m.end()
        if pos < len(text):
            out.append((pos, len(text), None))
        return out

    def _pieces(self, text: str) -> tuple[NormalizedString, list[Piece]]:
        ns = NormalizedString(text)
        if self.normalizer is not None:
            ns = self.normalizer.normalize(ns)
        n = ns.normalized
        pieces = [Piece(n, 0, len(n))] if n else []
        if self.pre_tokenizer is not None and pieces:
            pieces = self.pre_tokenizer.pre_tokenize(pieces)
        return ns, [p for p in pieces if p.text]

    def _encode_sequence(
        self, text: str, allowed: frozenset[str], type_id: int, caches: PipelineCaches | None = None
    ) -> Encoding:
        """One sequence: cut at allowed specials, normalize, pre-tokenize, tokenize, offsets."""
        out = Columns()
        caches = self._current_caches() if caches is None else caches
        model, normalizer, pre_tokenizer = caches.model, self.normalizer, caches.pre_tokenizer
        word = 0
        for seg_start, seg_end, special_id in self._segments(text, allowed, model.special_tokens):
            if special_id is not None:
                out.specials.append(len(out.ids))
                out.ids.append(special_id)
                out.tokens.append(text[seg_start:seg_end])
                out.offsets.append((seg_start, seg_end))
                out.words.append(None)
                continue
            ns = NormalizedString(text[seg_start:seg_end])
            if normalizer is not None:
                ns = normalizer.normalize(ns)
            normalized = ns.normalized
            if not normalized:
                continue
            # Pieces that are plain slices of the normalized text (BERT, GPT-2 byte level) have tokens
            # whose spans relative to the piece depend on its text alone: they come from a cache.
            sliced = pre_tokenizer.split_slices(normalized) if pre_tokenizer is not None else None
            if sliced is not None:
                word = encode_slices(out, model, caches.tokens_for(sliced[2]), ns, sliced, seg_start, word)
                continue
            pieces = [Piece(normalized, 0, len(normalized))]
            if pre_tokenizer is not None:
                pieces = pre_tokenizer.pre_tokenize(pieces)
            word = encode_pieces(out, model, caches.tokens_for(None), ns, pieces, seg_start, word)
        n = len(out.ids)
        special_mask = [0] * n
        for i in out.specials:
            special_mask[i] = 1
        return Encoding(out.ids, out.tokens, out.offsets, [type_id] * n, special_mask, [1] * n, out.words)

    def encode(
        self,
        text: str,
        pair: str | None = None,
        *,
        add_special_tokens: bool = True,
        allowed_special: AllowedSpecial = (),
    ) -> Encoding:
        """Encode ``text`` (and optionally ``pair``) into an :class:`Encoding` with offsets.

        Special tokens typed inside the text are ordinary text unless ``allowed_special`` names them
        (or is ``"all"``; ``None`` or empty: none). ``add_special_tokens`` lets the post-processor add
        ``[CLS]``/``[SEP]``...
        """
        caches = self._current_caches()  # one model for the whole call, even if another thread swaps it
        allowed = self._allowed(allowed_special, caches.model.special_tokens)
        check_flag(add_special_tokens, "add_special_tokens")
        enc = self._encode_sequence(check_text(text), allowed, 0, caches)
        enc_pair = None if pair is None else self._encode_sequence(check_text(pair, "pair"), allowed, 1, caches)
        if self.post_processor is not None:
            return self.post_processor.process(enc, enc_pair, add_special_tokens=add_special_tokens)
        return enc if enc_pair is None else Encoding.concat([enc, enc_pair])

    def encode_ids(
        self, text: str, *, allowed_special: AllowedSpecial = (), add_special_tokens: bool = True
    ) -> list[int]:
        """The ids of ``text`` only: the fastest path, equal to ``encode(text).ids``.

        >>> from algorithms import BPE
        >>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).encode_ids("abab")
        [2, 2]
        """
        check_text(text, sized=False)  # no size limit: time and memory are linear in the text
        check_flag(add_special_tokens, "add_special_tokens")
        caches = self._current_caches()  # one model for the whole call, even if another thread swaps it
        if allowed_special == () or allowed_special is None:
            out = self._segment_ids(text, caches)  # the common call: no special tokens to look for
        else:
            specials = caches.model.special_tokens
            out = []
            for start, end, special_id in self._segments(text, self._allowed(allowed_special, specials), specials):
                if special_id is None:
                    out += self._segment_ids(text[start:end], caches)
                else:
                    out.append(special_id)
        if self.post_processor is not None:
            return self.post_processor.process_ids(out, add_special_tokens=add_special_tokens)
        return out

    def _segment_ids(self, segment: str, caches: PipelineCaches) -> list[int]:
        """The ids of a text without special tokens (normalized here, then :func:`segment_ids`)."""
        if self.normalizer is not None:
            segment = self.normalizer.normalize_str(segment)
        if caches.scanner is not None:
            return scan_ids(caches, segment)
        return segment_ids(caches.model, caches.pre_tokenizer, caches.raw, segment)

    def encode_batch(
        self,
        inputs: Sequence[str | tuple[str, str]],
        *,
        add_special_tokens: bool = True,
        allowed_special: AllowedSpecial = (),
        num_workers: int | None = None,
    ) -> list[Encoding]:
        """Encode many texts (or ``(text, pair)`` tuples); equal to calling :meth:`encode` on each.

        ``num_workers`` > 1 encodes in that many worker processes: the inputs are cut into contiguous
        chunks (about four per worker), each worker receives the tokenizer once, and the encodings come
        back in input order, identical to the serial ones (an error is the one the serial loop would
        raise first). Workers are *spawned* (safe with threads, the same on every platform); this
        process encodes alone when the batch is under ``toolkit.batch.MIN_PARALLEL_CHARS`` characters
        or spawning is unsafe (a script without an ``if __name__ == "__main__":`` guard, which a worker
        would re-run, a daemon, a spawning child), so no script hangs. Starting them costs
        a fraction of a second, and the results travel back as flat arrays that this process turns
        into ``Encoding`` objects again, so on two cores two workers gain little (measured in
        ``docs/benchmarks.md``); the share of the work done in parallel grows with the number of
        cores. ``None`` or ``1``: this process.

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
        # Validate once, in a form that pickles and survives being iterated more than once.
        allowed: AllowedSpecial = "all" if allowed_special == "all" else tuple(sorted(self._allowed(allowed_special)))
        items = list(inputs)
        if num_workers is not None and num_workers > 1 and len(items) > 1:
            return encode_in_processes(self, items, num_workers, add_special_tokens, allowed)
        with gc_paused():  # the results are many small cycle-free lists: collecting them is wasted time
            return [self._encode_item(item, add_special_tokens, allowed) for item in items]

    def _encode_item(self, item: str | tuple[str, str], add_special_tokens: bool, allowed: AllowedSpecial) -> Encoding:
        if isinstance(item, tuple):
            if len(item) != 2:
                raise InputError(f"encode_batch: a pair must be a (text, pair) tuple of 2 strings, got {len(item)} items")
            text, pair = item
        else:
            text, pair = item, None
        return self.encode(text, pair, add_special_tokens=add_special_tokens, allowed_special=allowed)

    # ------------------------------------------------------------------ decoding
    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """Text of ``ids`` (integers; a bool, an unknown id or anything else raises :class:`InputError`).

        >>> from algorithms import BPE
        >>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).decode([2, 0])
        'ab a'
        """
        tokens = ids_to_tokens(self.model, ids, check_flag(skip_special_tokens, "skip_special_tokens"))
        if self.decoder is not None:
            return self.decoder.decode(tokens)
        return " ".join(tokens)

    def decode_batch(self, batch: Iterable[Iterable[int]], *, skip_special_tokens: bool = False) -> list[str]:
        """:meth:`decode` for each sequence of ids."""
        if batch is None or isinstance(batch, (str, bytes)) or not hasattr(batch, "__iter__"):
            raise InputError(f"decode_batch expects a list of id sequences, got {type(batch).__name__} {batch!r:.60}")
        return [self.decode(ids, skip_special_tokens=skip_special_tokens) for ids in batch]

    def stream_decoder(self, *, skip_special_tokens: bool = False) -> StreamDecoder:
        """A decoder that takes ids one at a time and returns text as soon as it is complete.

        >>> from algorithms import BPE
        >>> sd = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[])).stream_decoder()
        >>> sd.feed(0), sd.feed(1), sd.flush()
        ('a', ' b', '')
        """
        return StreamDecoder(self, skip_special_tokens=skip_special_tokens)

    # ------------------------------------------------------------------ training
    def train(self, corpus: CorpusSource, trainer: Trainer) -> Tokenizer:
        """Train the model on ``corpus`` with ``trainer``; returns ``self``.

        ``corpus`` is an iterable of strings, or a path / list of paths to UTF-8 text files (read line
        by line, never whole). The normalizer and pre-tokenizer of this pipeline cut the text into the
        word counts the trainer learns from.
        """
        if not isinstance(trainer, Trainer):
            raise ConfigError(f"trainer must be a Trainer, got {type(trainer).__name__}")
        if isinstance(corpus, (bytes, bytearray)) or not (
            isinstance(corpus, (str, os.PathLike)) or hasattr(corpus, "__iter__") or hasattr(corpus, "iter_texts")
        ):
            raise CorpusError(
                f"corpus must be texts (an iterable of str), a path, a list of paths or a Corpus, got "
                f"{type(corpus).__name__} {corpus!r:.60}" + ("; decode bytes to str first" if isinstance(corpus, bytes) else "")
            )
        counts = tool("count_words")(corpus, normalizer=self.normalizer, pre_tokenizer=self.pre_tokenizer)
        self.model = trainer.train(counts, model=self.model)
        self._special_patterns.clear()
        return self

    # ------------------------------------------------------------------ interop (toolkit.interop, imported lazily)
    @classmethod
    def from_hf_json(cls, path: str | os.PathLike[str], *, strict: bool = True) -> Tokenizer:
        """Load a Hugging Face ``tokenizer.json``; a component we cannot represent is a
        :class:`SerializationError` naming it (``strict=False`` drops the ones that never change ids).

        >>> tok = Tokenizer.from_hf_json("tokenizer.json")   # doctest: +SKIP
        """
        return tool("load_hf_json")(check_path(path, "path"), strict=strict)

    def to_hf_json(self, path: str | os.PathLike[str], *, indent: int | None = None) -> None:
        """Write a Hugging Face ``tokenizer.json`` that ``tokenizers.Tokenizer.from_file`` loads."""
        with writing(path):
            tool("save_hf_json")(self, path, indent=indent)

    @classmethod
    def load_any(cls, path: str | os.PathLike[str], *, format: str = "auto", **options: Any) -> Tokenizer:
        """Load a tokenizer file of any supported format, detected from its content unless ``format``
        names it (``"toolkit"``, ``"hf"``, ``"vocab-txt"``, ``"vocab-merges"``, ``"tiktoken"``).

        >>> tok = Tokenizer.load_any("tokenizer.json")   # doctest: +SKIP
        """
        return tool("load_any")(check_path(path, "path"), format=format, **options)

    @classmethod
    def from_gpt2(
        cls, encoder_json: str | os.PathLike[str], vocab_bpe: str | os.PathLike[str], *,
        special_tokens: Sequence[str] | None = None, add_prefix_space: bool = False,
    ) -> Tokenizer:
        """GPT-2 pipeline from ``encoder.json`` + ``vocab.bpe`` (or HF ``vocab.json`` + ``merges.txt``).

        >>> tok = Tokenizer.from_gpt2("encoder.json", "vocab.bpe")   # doctest: +SKIP
        """
        return tool("from_gpt2")(
            check_path(encoder_json, "encoder_json"), check_path(vocab_bpe, "vocab_bpe"),
            special_tokens=special_tokens, add_prefix_space=add_prefix_space,
        )

    @classmethod
    def from_tiktoken(
        cls, path: str | os.PathLike[str], *, pattern: str | None = None, special_tokens: Mapping[str, int] | None = None
    ) -> Tokenizer:
        """Byte-level pipeline from a ``.tiktoken`` rank file; ``pattern`` is a regex or a name
        (``CL100K_PATTERN``...). Both default to OpenAI's for a known file name (``cl100k_base``...).

        >>> from pretokenizers import CL100K_PATTERN
        >>> tok = Tokenizer.from_tiktoken("cl100k_base.tiktoken", pattern=CL100K_PATTERN)   # doctest: +SKIP
        """
        return tool("from_tiktoken")(check_path(path, "path"), pattern=pattern, special_tokens=special_tokens)

    @classmethod
    def from_bert_vocab(cls, vocab_txt: str | os.PathLike[str], *, lowercase: bool = True, **options: Any) -> Tokenizer:
        """BERT pipeline from a ``vocab.txt``, like HF's ``BertWordPieceTokenizer`` (options: ``unk_token``...).

        >>> tok = Tokenizer.from_bert_vocab("vocab.txt", lowercase=True)   # doctest: +SKIP
        """
        return tool("from_bert_vocab")(check_path(vocab_txt, "vocab_txt"), lowercase=lowercase, **options)

    def save_vocab_merges(self, folder: str | os.PathLike[str], *, prefix: str | None = None) -> tuple[Any, Any]:
        """Write ``vocab.json`` + ``merges.txt`` (BPE models); returns the two paths."""
        with writing(folder):
            return tool("save_vocab_merges")(self, folder, prefix=prefix)  # type: ignore[no-any-return]

    def save_bert_vocab(self, path: str | os.PathLike[str]) -> None:
        """Write the WordPiece vocabulary as a BERT ``vocab.txt``."""
        with writing(path):
            tool("save_bert_vocab")(self, path)

    def save_tiktoken(self, path: str | os.PathLike[str]) -> None:
        """Write a byte-level BPE vocabulary as a ``.tiktoken`` rank file (special tokens excluded)."""
        with writing(path):
            tool("save_tiktoken")(self, path)

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
            "metadata": self.metadata,
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The tokenizer as a JSON document."""
        import json

        return json.dumps(self.to_dict(), ensure_ascii=False, indent=check_indent(indent))

    @classmethod
    def from_dict(cls, data: Any, *, trusted: bool = False, source: str = "<dict>") -> Tokenizer:
        """Rebuild from :meth:`to_dict` output (validated in full unless ``trusted``)."""
        doc = check_document(data, source=source)
        parts = build_components(doc, validate=not trusted, source=source)
        return cls(**parts, metadata=doc.get("metadata") or {})

    @classmethod
    def from_json(cls, text: str, *, trusted: bool = False) -> Tokenizer:
        """Load from a JSON string; every problem is a :class:`SerializationError` naming the field.

        ``trusted=True`` skips full validation of large vocabularies (only for files you wrote).
        """
        if not isinstance(text, str):
            raise SerializationError(f"from_json expects a str, got {type(text).__name__}")
        return cls.from_dict(parse_json(text), trusted=trusted, source="<string>")

    def save(self, path: str | os.PathLike[str], *, indent: int | None = None) -> None:
        """Write the tokenizer file atomically (temporary file, then rename)."""
        with writing(path):
            atomic_write_text(path, self.to_json(indent=indent))

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
        return cls.from_dict(parse_json(text, source=str(path)), trusted=trusted, source=str(path))
