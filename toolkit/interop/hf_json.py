"""Hugging Face ``tokenizer.json`` (schema version ``"1.0"``): import and export.

This module owns the document: its top-level fields, ``added_tokens``, reading and writing the file.
Each component is converted by :mod:`toolkit.interop.hf_components`:

==================  ===========================================================================
stage               HF types mapped both ways
==================  ===========================================================================
normalizer          NFC NFD NFKC NFKD Lowercase StripAccents Strip Replace Prepend BertNormalizer
                    Precompiled (SentencePiece's character map) Nmt ByteLevel Sequence
pre_tokenizer       ByteLevel Split Whitespace WhitespaceSplit BertPreTokenizer Punctuation Digits
                    Metaspace UnicodeScripts CharDelimiterSplit FixedLength Sequence
model               BPE (→ our ``BPE``, or ``ByteLevelBPE`` for byte-level pipelines; ``dropout``
                    and ``byte_fallback`` kept), WordPiece, Unigram (``unk_id``, ``byte_fallback``),
                    WordLevel; our ``SentencePieceBPE`` is written as HF's converter does (a BPE
                    with merges ordered by score)
post_processor      TemplateProcessing BertProcessing RobertaProcessing ByteLevel Sequence
decoder             ByteLevel WordPiece Metaspace BPEDecoder ByteFallback Fuse Strip Replace CTC
                    Sequence
==================  ===========================================================================

``added_tokens`` are read and written in full (id, content, ``single_word``, ``lstrip``, ``rstrip``,
``normalized``, ``special``); special ones are also the model's special tokens. ``truncation`` and
``padding`` are read and written (:mod:`toolkit.padding`). A component we lack is a
:class:`~toolkit.errors.SerializationError` naming it and its path in the file.

Known difference (documented in ``docs/interop.md``): special tokens typed in text are ordinary
text unless ``allowed_special`` names them (HF's ``encode_special_tokens=True``); non-special added
tokens are matched in any text, as in HF.

>>> from toolkit import Tokenizer
>>> tok = Tokenizer.from_hf_json("tokenizer.json")   # doctest: +SKIP
>>> tok.to_hf_json("exported.json")                  # doctest: +SKIP
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from toolkit.added_tokens import read_added_tokens
from toolkit.errors import ConfigError, SerializationError, ToolkitError
from toolkit.interop._io import PathLike, read_text, write_text
from toolkit.interop.hf_components import (
    Json,
    Unsupported,
    contains_byte_level,
    exp_decoder,
    exp_model,
    exp_normalizer,
    exp_post_processor,
    exp_pre_tokenizer,
    imp_decoder,
    imp_model,
    imp_normalizer,
    imp_post_processor,
    imp_pre_tokenizer,
    padding_from_hf,
    padding_to_hf,
    truncation_from_hf,
    truncation_to_hf,
)
from toolkit.interop.hf_floats import dumps_hf, hf_float
from toolkit.serialization import parse_json
from toolkit.runtime import gc_paused
from toolkit.arguments import check_indent

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["HF_VERSION", "load_hf_json", "save_hf_json", "from_hf_dict", "to_hf_dict", "to_hf_tokenizer"]

#: The ``tokenizer.json`` schema version we read and write.
HF_VERSION = "1.0"

_TOP_LEVEL = {"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer", "model",
              "post_processor", "decoder"}


# ============================================================================ import
def from_hf_dict(data: Any, *, strict: bool = True, source: str = "<dict>") -> Tokenizer:
    """Build a :class:`~toolkit.Tokenizer` from a parsed HF ``tokenizer.json`` document. Its floats are
    taken as they are: parse the text with ``json.loads(text, parse_float=hf_float)``
    (:mod:`toolkit.interop.hf_floats`) to get HF's reading of a Unigram's scores, as :func:`load_hf_json` does.

    >>> d = {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": {"type": "Whitespace"},
    ...      "post_processor": None, "decoder": None, "truncation": None, "padding": None,
    ...      "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "hi": 1}}}
    >>> from_hf_dict(d).encode_ids("hi yo")
    [1, 0]
    """
    from toolkit.interfaces import build
    from toolkit.tokenizer import Tokenizer

    _check_document(data, source)
    convert = _Converter(strict, source)
    truncation = convert(truncation_from_hf, data.get("truncation"))
    padding = convert(padding_from_hf, data.get("padding"))
    added = read_added_tokens(data.get("added_tokens"), source=source)
    # Special tokens are the model's (their ids must agree with its vocabulary); every entry, with its
    # flags, also goes to the pipeline's added vocabulary, which matches them as HF does.
    specials = {token.content: token_id for token_id, token in added if token.special}
    byte_level = contains_byte_level(data.get("pre_tokenizer"))
    converters: dict[str, Callable[[Any, str], Any]] = {
        "normalizer": imp_normalizer,
        "pre_tokenizer": imp_pre_tokenizer,
        "model": lambda d, where: imp_model(d, where, byte_level=byte_level, specials=specials),
        "post_processor": imp_post_processor,
        "decoder": imp_decoder,
    }
    parts: dict[str, Any] = {}
    for kind, converter in converters.items():
        hf_spec = data.get(kind)
        spec = None if hf_spec is None else convert(converter, hf_spec, kind)
        if spec is None:
            parts[kind] = None
            continue
        try:
            parts[kind] = build(kind, spec, where=kind)
        except ToolkitError as exc:
            raise SerializationError(f"{source}: {exc}") from None
    tok = Tokenizer(**parts, metadata={"source": "huggingface"})
    tok._truncation, tok._padding = truncation, padding
    tok._put_added_tokens(added, source=source)
    return tok


def _check_document(data: Any, source: str) -> None:
    """The top level of a ``tokenizer.json``: an object of schema 1.0 with known fields and a model."""
    if not isinstance(data, Mapping):
        raise SerializationError(f"{source}: a tokenizer.json must be a JSON object, got {type(data).__name__}")
    if data.get("format") == "tokenizer-toolkit":
        raise SerializationError(
            f"{source}: this is a tokenizer-toolkit file, not a Hugging Face one; use Tokenizer.load"
        )
    version = data.get("version")
    if version != HF_VERSION:
        raise SerializationError(
            f"{source}: version: expected {HF_VERSION!r} (Hugging Face tokenizer.json), got {version!r}"
        )
    unknown = set(data) - _TOP_LEVEL
    if unknown:
        raise SerializationError(f"{source}: unknown top-level field(s) {', '.join(sorted(unknown))}")
    if data.get("model") is None:
        raise SerializationError(f"{source}: model: required field is missing")


class _Converter:
    """Runs one conversion step: every problem is reported with the file name, and settings that do
    not change ids are dropped with a warning when not ``strict``."""

    def __init__(self, strict: bool, source: str) -> None:
        self.strict = strict
        self.source = source

    def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except Unsupported as exc:
            if self.strict or exc.if_dropped is None:
                hint = f"; load with strict=False to drop it ({exc.if_dropped})" if exc.if_dropped else ""
                raise SerializationError(f"{self.source}: {exc}{hint}") from None
            warnings.warn(f"{self.source}: {exc}; dropped ({exc.if_dropped})", stacklevel=3)
            return None
        except SerializationError as exc:
            raise SerializationError(f"{self.source}: {exc}") from None


def load_hf_json(path: PathLike, *, strict: bool = True) -> Tokenizer:
    """Read a Hugging Face ``tokenizer.json`` file (see :func:`from_hf_dict`)."""
    source = os.fspath(path)
    # floats as HF reads them (a Unigram's scores decide its ties: toolkit.interop.hf_floats)
    data = parse_json(read_text(path, what="tokenizer.json"), source=source, decoded=True, parse_float=hf_float)
    with gc_paused():  # a large model builds hundreds of thousands of cycle-free tuples and dicts
        return from_hf_dict(data, strict=strict, source=source)


# ============================================================================ export
def to_hf_dict(tok: Tokenizer) -> Json:
    """The HF ``tokenizer.json`` document of ``tok`` (schema 1.0) as a dict.

    >>> from algorithms import WordPiece
    >>> from toolkit import Tokenizer
    >>> to_hf_dict(Tokenizer(WordPiece({"[UNK]": 0, "a": 1}, special_tokens=["[UNK]"])))["added_tokens"][0]["content"]
    '[UNK]'
    """
    decoder = tok.get_added_tokens_decoder()
    added = [{"id": token_id, **token.to_dict()} for token_id, token in decoder.items()]
    model = exp_model(tok.model)
    if isinstance(model.get("vocab"), dict):
        model["vocab"] = _vocab_for_hf(model["vocab"], decoder, _tokens_the_model_needs(model))
    return {
        "version": HF_VERSION,
        "truncation": truncation_to_hf(tok.truncation),
        "padding": padding_to_hf(tok.padding),
        "added_tokens": added,
        "normalizer": exp_normalizer(tok.normalizer) if tok.normalizer is not None else None,
        "pre_tokenizer": exp_pre_tokenizer(tok.pre_tokenizer) if tok.pre_tokenizer is not None else None,
        "post_processor": exp_post_processor(tok.post_processor) if tok.post_processor is not None else None,
        "decoder": exp_decoder(tok.decoder) if tok.decoder is not None else None,
        "model": model,
    }


def _tokens_the_model_needs(model: Mapping[str, Any]) -> set[str]:
    """The tokens HF's model must find in its own vocabulary: the unknown token (HF's BPE, WordPiece
    and WordLevel look it up there, and fail at the first unknown word without it) and the tokens the
    merges make (``a + b``, and ``a + b`` without ``b``'s continuing-subword prefix: HF refuses a merge
    whose result is not in the model vocabulary)."""
    prefix = model.get("continuing_subword_prefix") or ""
    out: set[str] = {model["unk_token"]} if isinstance(model.get("unk_token"), str) else set()
    for merge in model.get("merges") or ():
        a, b = merge.split(" ", 1) if isinstance(merge, str) else merge
        out.add(a + b)
        if prefix and b.startswith(prefix):
            out.add(a + b[len(prefix):])
    return out


def _vocab_for_hf(vocab: dict[str, int], added: Mapping[int, Any],
                  needed: AbstractSet[str] = frozenset()) -> dict[str, int]:
    """The model vocabulary to write so that HF gives every added token its id.

    HF ignores the ``id`` of an added token missing from the model vocabulary and numbers it after
    the vocabulary (in list order). So the special tokens at the top of the id range leave the
    vocabulary when HF's numbering then gives every added token its id (Llama 3, DeepSeek), unless the
    model needs one there (``needed``: the unknown token, or a merge's result, which HF refuses
    otherwise); otherwise every added token is written into the vocabulary, where its id is kept.
    """
    out = dict(vocab)
    by_id = {i: t for t, i in out.items()}
    ids = sorted(by_id)
    for token_id, token in sorted(added.items(), reverse=True):
        if token.content not in out:
            continue
        if (token.special and ids and ids[-1] == token_id and by_id[token_id] == token.content
                and token.content not in needed):
            del out[token.content]
            ids.pop()
            continue
        break
    next_id = len(out)
    for token_id, token in sorted(added.items()):
        if out.get(token.content) == token_id:
            continue
        if token.content in out or token_id != next_id:
            return {**vocab, **{t.content: i for i, t in added.items()}}
        next_id += 1
    return out


def to_hf_tokenizer(tok: Tokenizer) -> Any:
    """``tok`` as a Hugging Face ``tokenizers.Tokenizer`` (the same ids, built from :func:`to_hf_dict`),
    for code that needs HF's object, such as ``transformers``'
    ``PreTrainedTokenizerFast(tokenizer_object=...)``."""
    try:
        import tokenizers
    except ImportError:
        raise ConfigError('to_hf needs Hugging Face tokenizers: pip install tokenizers') from None
    return tokenizers.Tokenizer.from_str(dumps_hf(to_hf_dict(tok)))


def save_hf_json(tok: Tokenizer, path: PathLike, *, indent: int | None = None) -> None:
    """Write ``tok`` as a Hugging Face ``tokenizer.json``, atomically.

    ``tokenizers.Tokenizer.from_file`` loads the file and gives the same ids (see docs/interop.md).
    """
    write_text(path, dumps_hf(to_hf_dict(tok), indent=check_indent(indent)))
