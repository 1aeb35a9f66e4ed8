"""The :class:`Tokenizer` pipeline: normalize → pre-tokenize → model → post-process, and decode back.

This module owns the order of the stages, special-token handling (``allowed_special``), offsets back
into the original text, the fast ids-only path, streaming decode, training from a corpus, and the
tokenizer file (via :mod:`toolkit.serialization`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import regex

from toolkit.alignment import NormalizedString, Piece
from toolkit.encoding import Encoding
from toolkit.errors import ConfigError, InputError, SerializationError
from toolkit.interfaces import Decoder, Model, Normalizer, PostProcessor, PreTokenizer, Trainer
from toolkit.serialization import FORMAT, VERSION, atomic_write_text, build_components, check_document, parse_json

if TYPE_CHECKING:
    from toolkit.corpus import CorpusSource

__all__ = ["Tokenizer", "StreamDecoder", "AllowedSpecial"]

AllowedSpecial = Literal["all"] | Iterable[str]

_SURROGATE = regex.compile(r"[\ud800-\udfff]")


def _check_text(text: Any, what: str = "text") -> str:
    if not isinstance(text, str):
        raise InputError(f"{what} must be a str, got {type(text).__name__}")
    m = _SURROGATE.search(text)
    if m is not None:
        raise InputError(
            f"{what} contains a lone surrogate U+{ord(m.group()):04X} at index {m.start()}, which is not "
            "valid Unicode text; decode the input with errors='replace' (or fix its source) before encoding"
        )
    return text


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
        self._raw_cache: dict[str, tuple[int, ...]] = {}
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.decoder = decoder
        #: Free-form information stored in the file (e.g. how the tokenizer was trained).
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._special_patterns: dict[frozenset[str], Any] = {}

    def __repr__(self) -> str:
        parts = [f"model={self.model!r}"]
        for name in ("normalizer", "pre_tokenizer", "post_processor", "decoder"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        return f"Tokenizer({', '.join(parts)})"

    # ------------------------------------------------------------------ components
    # The model and the pre-tokenizer determine what the ids of a raw piece are: replacing either
    # must forget the pipeline's raw-piece cache.
    @property
    def model(self) -> Model:
        """The model (vocabulary and algorithm)."""
        return self._model

    @model.setter
    def model(self, value: Model) -> None:
        self._model = value
        self._raw_cache = {}

    @property
    def pre_tokenizer(self) -> PreTokenizer | None:
        """The pre-tokenizer, or ``None`` (the whole normalized text is one piece)."""
        return self._pre_tokenizer

    @pre_tokenizer.setter
    def pre_tokenizer(self, value: PreTokenizer | None) -> None:
        self._pre_tokenizer = value
        self._raw_cache = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_raw_cache"] = {}  # worker processes start with an empty cache
        return state

    def clear_cache(self) -> None:
        """Forget cached pieces; needed only after changing a model's vocabulary in place."""
        self._raw_cache = {}
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
        return self.model.token_to_id(token)

    def id_to_token(self, token_id: int) -> str | None:
        """The token string of ``token_id`` or ``None``."""
        return self.model.id_to_token(token_id)

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special tokens (``<|endoftext|>``, ``[CLS]``...) and their ids."""
        return self.model.special_tokens

    # ------------------------------------------------------------------ debugging helpers
    def normalize_str(self, text: str) -> str:
        """The text after the normalizer (unchanged without one)."""
        _check_text(text)
        return self.normalizer.normalize_str(text) if self.normalizer else text

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Pieces after normalization and pre-tokenization, with spans into the *original* text."""
        ns, pieces = self._pieces(_check_text(text))
        return [(p.text, ns.original_span(p.start, p.end)) for p in pieces]

    # ------------------------------------------------------------------ encoding
    def _allowed(self, allowed_special: AllowedSpecial) -> frozenset[str]:
        if allowed_special == "all":
            return frozenset(self.model.special_tokens)
        if isinstance(allowed_special, str):
            raise ConfigError('allowed_special must be "all" or a collection of special-token strings')
        allowed = frozenset(allowed_special)
        unknown = allowed - set(self.model.special_tokens)
        if unknown:
            raise ConfigError(
                f"allowed_special names tokens that are not special tokens of this tokenizer: "
                f"{', '.join(sorted(unknown))}; known: {', '.join(self.model.special_tokens) or 'none'}"
            )
        return allowed

    def _segments(self, text: str, allowed: frozenset[str]) -> list[tuple[int, int, int | None]]:
        """Cut ``text`` at allowed special tokens: ``(start, end, special_id or None)``."""
        if not allowed or not text:
            return [(0, len(text), None)] if text else []
        pattern = self._special_patterns.get(allowed)
        if pattern is None:
            alternatives = sorted(allowed, key=lambda s: (-len(s), s))  # longest first
            pattern = regex.compile("|".join(regex.escape(s) for s in alternatives))
            self._special_patterns[allowed] = pattern
        out: list[tuple[int, int, int | None]] = []
        pos = 0
        specials = self.model.special_tokens
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

    def _encode_sequence(self, text: str, allowed: frozenset[str], type_id: int) -> Encoding:
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        words: list[int | None] = []
        special_mask: list[int] = []
        model = self.model
        id_to_token = model.id_to_token
        word = 0
        for seg_start, seg_end, special_id in self._segments(text, allowed):
            if special_id is not None:
                ids.append(special_id)
                tokens.append(text[seg_start:seg_end])
                offsets.append((seg_start, seg_end))
                words.append(None)
                special_mask.append(1)
                continue
            ns, pieces = self._pieces(text[seg_start:seg_end])
            for piece in pieces:
                for token_id, start, end in model.tokenize(piece.text):
                    s, e = ns.original_span(*piece.span(start, end))
                    ids.append(token_id)
                    tokens.append(id_to_token(token_id))  # type: ignore[arg-type]
                    offsets.append((seg_start + s, seg_start + e))
                    words.append(word)
                    special_mask.append(0)
                word += 1
        n = len(ids)
        return Encoding(ids, tokens, offsets, [type_id] * n, special_mask, [1] * n, words)

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
        (or is ``"all"``). ``add_special_tokens`` lets the post-processor add ``[CLS]``/``[SEP]``...
        """
        allowed = self._allowed(allowed_special)
        enc = self._encode_sequence(_check_text(text), allowed, 0)
        enc_pair = None if pair is None else self._encode_sequence(_check_text(pair, "pair"), allowed, 1)
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
        _check_text(text)
        allowed = self._allowed(allowed_special) if allowed_special else frozenset()
        model = self.model
        get = model._cache.get
        encode_piece = model.encode_piece
        normalize = self.normalizer.normalize_str if self.normalizer is not None else None
        split_raw = self.pre_tokenizer.split_raw if self.pre_tokenizer is not None else None
        raw_cache = self._raw_cache
        raw_get = raw_cache.get
        out: list[int] = []
        for start, end, special_id in self._segments(text, allowed) if allowed else [(0, len(text), None)]:
            if special_id is not None:
                out.append(special_id)
                continue
            segment = text[start:end] if allowed else text
            if normalize is not None:
                segment = normalize(segment)
            if split_raw is None:
                if segment:
                    out += get(segment) or encode_piece(segment)
                continue
            pieces, spell = split_raw(segment)
            if spell is None:
                for piece in pieces:
                    out += get(piece) or encode_piece(piece)
                continue
            # Cache by the piece before respelling (e.g. " the" rather than "Ġthe"): a repeated
            # word then costs one look-up and no respelling.
            for piece in pieces:
                ids = raw_get(piece)
                if ids is None:
                    ids = model._encode_piece(spell(piece))
                    if len(raw_cache) >= model.cache_capacity:
                        raw_cache.clear()
                    raw_cache[piece] = ids
                out += ids
        if self.post_processor is not None:
            return self.post_processor.process_ids(out, add_special_tokens=add_special_tokens)
        return out

    def encode_batch(
        self,
        inputs: Sequence[str | tuple[str, str]],
        *,
        add_special_tokens: bool = True,
        allowed_special: AllowedSpecial = (),
    ) -> list[Encoding]:
        """Encode many texts (or ``(text, pair)`` tuples); equal to calling :meth:`encode` on each."""
        out = []
        for item in inputs:
            if isinstance(item, tuple):
                text, pair = item
            else:
                text, pair = item, None
            out.append(self.encode(text, pair, add_special_tokens=add_special_tokens, allowed_special=allowed_special))
        return out

    # ------------------------------------------------------------------ decoding
    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """Text of ``ids``. Unknown ids raise :class:`InputError`.

        >>> from algorithms import BPE
        >>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).decode([2, 0])
        'ab a'
        """
        id_to_token = self.model.id_to_token
        special_ids = set(self.model.special_tokens.values()) if skip_special_tokens else ()
        tokens: list[str] = []
        for token_id in ids:
            if skip_special_tokens and token_id in special_ids:
                continue
            token = id_to_token(token_id) if isinstance(token_id, int) and token_id >= 0 else None
            if token is None:
                raise InputError(
                    f"cannot decode id {token_id!r}: not in the vocabulary (ids are 0..{self.vocab_size - 1})"
                )
            tokens.append(token)
        if self.decoder is not None:
            return self.decoder.decode(tokens)
        return " ".join(tokens)

    def decode_batch(self, batch: Iterable[Iterable[int]], *, skip_special_tokens: bool = False) -> list[str]:
        """:meth:`decode` for each sequence of ids."""
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
        from toolkit.corpus import count_words

        if not isinstance(trainer, Trainer):
            raise ConfigError(f"trainer must be a Trainer, got {type(trainer).__name__}")
        counts = count_words(corpus, normalizer=self.normalizer, pre_tokenizer=self.pre_tokenizer)
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
        from toolkit.interop import load_hf_json

        return load_hf_json(path, strict=strict)

    def to_hf_json(self, path: str | os.PathLike[str], *, indent: int | None = None) -> None:
        """Write a Hugging Face ``tokenizer.json`` that ``tokenizers.Tokenizer.from_file`` loads."""
        from toolkit.interop import save_hf_json

        save_hf_json(self, path, indent=indent)

    @classmethod
    def from_gpt2(
        cls, encoder_json: str | os.PathLike[str], vocab_bpe: str | os.PathLike[str], *,
        special_tokens: Sequence[str] | None = None, add_prefix_space: bool = False,
    ) -> Tokenizer:
        """GPT-2 pipeline from ``encoder.json`` + ``vocab.bpe`` (or HF ``vocab.json`` + ``merges.txt``).

        >>> tok = Tokenizer.from_gpt2("encoder.json", "vocab.bpe")   # doctest: +SKIP
        """
        from toolkit.interop import from_gpt2

        return from_gpt2(encoder_json, vocab_bpe, special_tokens=special_tokens, add_prefix_space=add_prefix_space)

    @classmethod
    def from_tiktoken(
        cls, path: str | os.PathLike[str], *, pattern: str | None = None, special_tokens: Mapping[str, int] | None = None
    ) -> Tokenizer:
        """Byte-level pipeline from a ``.tiktoken`` rank file; ``pattern`` is a regex or a name
        (``CL100K_PATTERN``...). Both default to OpenAI's for a known file name (``cl100k_base``...).

        >>> from pretokenizers import CL100K_PATTERN
        >>> tok = Tokenizer.from_tiktoken("cl100k_base.tiktoken", pattern=CL100K_PATTERN)   # doctest: +SKIP
        """
        from toolkit.interop import from_tiktoken

        return from_tiktoken(path, pattern=pattern, special_tokens=special_tokens)

    @classmethod
    def from_bert_vocab(cls, vocab_txt: str | os.PathLike[str], *, lowercase: bool = True, **options: Any) -> Tokenizer:
        """BERT pipeline from a ``vocab.txt``, like HF's ``BertWordPieceTokenizer`` (options: ``unk_token``...).

        >>> tok = Tokenizer.from_bert_vocab("vocab.txt", lowercase=True)   # doctest: +SKIP
        """
        from toolkit.interop import from_bert_vocab

        return from_bert_vocab(vocab_txt, lowercase=lowercase, **options)

    def save_vocab_merges(self, folder: str | os.PathLike[str], *, prefix: str | None = None) -> tuple[Any, Any]:
        """Write ``vocab.json`` + ``merges.txt`` (BPE models); returns the two paths."""
        from toolkit.interop import save_vocab_merges

        return save_vocab_merges(self, folder, prefix=prefix)

    def save_bert_vocab(self, path: str | os.PathLike[str]) -> None:
        """Write the WordPiece vocabulary as a BERT ``vocab.txt``."""
        from toolkit.interop import save_bert_vocab

        save_bert_vocab(self, path)

    def save_tiktoken(self, path: str | os.PathLike[str]) -> None:
        """Write a byte-level BPE vocabulary as a ``.tiktoken`` rank file (special tokens excluded)."""
        from toolkit.interop import save_tiktoken

        save_tiktoken(self, path)

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

        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

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
        atomic_write_text(path, self.to_json(indent=indent))

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, trusted: bool = False) -> Tokenizer:
        """Read a tokenizer file written by :meth:`save`."""
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise SerializationError(f"{path}: no such tokenizer file") from None
        except UnicodeDecodeError as exc:
            raise SerializationError(f"{path}: not UTF-8 text (invalid byte at offset {exc.start})") from None
        except OSError as exc:
            raise SerializationError(f"{path}: cannot read: {exc.strerror}") from None
        return cls.from_dict(parse_json(text, source=str(path)), trusted=trusted, source=str(path))


class StreamDecoder:
    """Incremental decoding: :meth:`feed` one id at a time, get the text that became complete.

    Works with every decoder. Text is held back while it ends in an incomplete UTF-8 sequence (shown
    as U+FFFD by the decoder), so a 4-byte emoji split over 4 byte tokens prints once, whole. The ids
    already printed are kept as context only until the next output, so memory stays small.
    """

    def __init__(self, tokenizer: Tokenizer, *, skip_special_tokens: bool = False) -> None:
        self._tokenizer = tokenizer
        self._skip = skip_special_tokens
        self._ids: list[int] = []
        self._context = 0  # how many of _ids were already printed
        self._printed = ""  # decode(_ids[:_context])

    def _decode(self, ids: list[int]) -> str:
        return self._tokenizer.decode(ids, skip_special_tokens=self._skip)

    def feed(self, token_id: int) -> str:
        """Add one id; return the newly completed text (possibly empty)."""
        self._ids.append(token_id)
        text = self._decode(self._ids)
        if text.endswith("\ufffd") or len(text) <= len(self._printed) and text == self._printed:
            return ""
        new = text[len(self._printed):] if text.startswith(self._printed) else text
        # Keep only the ids just printed as context for the next call.
        self._ids = self._ids[self._context:]
        self._context = len(self._ids)
        self._printed = self._decode(self._ids)
        return new

    def flush(self) -> str:
        """Return whatever is still held back (an incomplete sequence decodes with U+FFFD) and reset."""
        text = self._decode(self._ids)
        new = text[len(self._printed):] if text.startswith(self._printed) else text
        self._ids, self._context, self._printed = [], 0, ""
        return new

