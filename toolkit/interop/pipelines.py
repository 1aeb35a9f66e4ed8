"""The standard pipelines: GPT-2 (byte-level merges), tiktoken (ranks), chat and BERT.

This module owns which normalizer, pre-tokenizer, model, post-processor and decoder make up each
standard pipeline, trained (a vocabulary read from a file) or untrained (a preset about to be
trained). It is the one place these pipelines are assembled: the file readers
(:mod:`~toolkit.interop.gpt2`, :mod:`~toolkit.interop.tiktoken_files`, :mod:`~toolkit.interop.bert_vocab`)
parse and check the files and call these constructors, and so do the presets of
:mod:`toolkit.training.presets`.

Components are imported inside the functions: ``toolkit`` never imports ``algorithms`` or
``pretokenizers`` at start-up (see docs/architecture.md), and interop is itself loaded lazily.

>>> from toolkit.bytelevel import BYTE_TO_CHAR
>>> tok = byte_level_tokenizer(vocab={c: i for i, c in enumerate(BYTE_TO_CHAR)}, merges=[])
>>> tok.encode_ids("hé"), tok.decode(tok.encode_ids("hé"))
([104, 195, 169], 'hé')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError

if TYPE_CHECKING:
    from toolkit.interfaces import Model, PreTokenizer
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "byte_level_tokenizer", "tiktoken_tokenizer", "chat_tokenizer", "bert_tokenizer", "BERT_SPECIAL_TOKENS",
    "pipeline_difference", "SAVE_AS_HF_JSON",
]

#: The special tokens of HF's BertWordPieceTokenizer (those present in a vocabulary are special).
BERT_SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def _byte_level(model: Model, pre_tokenizer: PreTokenizer, metadata: Mapping[str, Any] | None) -> Tokenizer:
    """A byte-level BPE pipeline: ``pre_tokenizer``, ``model``, the ``ByteLevel(trim_offsets=False)``
    post-processor and the ``ByteLevel`` decoder: what ``transformers``' converters of GPT-2 and
    tiktoken files and HF's ``ByteLevelBPETokenizer`` build (the post-processor adds no token and keeps
    the offsets; it marks the tokens' sequence, so padding and a pair's parts read as HF's)."""
    from toolkit.decoders import ByteLevel as ByteLevelDecoder
    from toolkit.processors import ByteLevel as ByteLevelProcessor
    from toolkit.tokenizer import Tokenizer

    return Tokenizer(model, pre_tokenizer=pre_tokenizer, post_processor=ByteLevelProcessor(trim_offsets=False),
                     decoder=ByteLevelDecoder(), metadata=metadata)


def _split_then_bytes(pattern: str, *, trusted: bool) -> PreTokenizer:
    """``Sequence([Split(Regex(pattern), "isolated"), ByteLevel(use_regex=False)])``: cut with the regex ``pattern``, then
    write each piece in the byte-level alphabet.

    ``isolated``: matches become pieces and any text the pattern skips still forms pieces, so nothing
    is lost. The regex timeout guards user patterns against catastrophic backtracking; ``trusted``
    (our named patterns) drops it, which roughly halves the split time on long texts.
    """
    from pretokenizers import ByteLevel, Sequence as PreSequence, Split
    from toolkit.normalizers import Regex

    split = Split(Regex(pattern), behavior="isolated", **({"timeout": None} if trusted else {}))
    return PreSequence([split, ByteLevel(add_prefix_space=False, use_regex=False)])


def byte_level_tokenizer(
    *,
    vocab: Mapping[str, int] | None = None,
    merges: Sequence[tuple[str, str]] | None = None,
    special_tokens: Mapping[str, int] | None = None,
    add_prefix_space: bool = False,
    metadata: Mapping[str, Any] | None = None,
) -> Tokenizer:
    """GPT-2 pipeline: ``ByteLevel`` pre-tokenizer + ``ByteLevelBPE(vocab, merges)`` + ``ByteLevel(trim_offsets=False)``
    post-processor + ``ByteLevel`` decoder.

    Without ``vocab`` the model is untrained (the 256 bytes), ready for a ``ByteLevelBPETrainer``.
    """
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel

    if vocab is None:
        model = ByteLevelBPE()
    else:
        model = ByteLevelBPE(dict(vocab), [tuple(m) for m in merges or ()], special_tokens=dict(special_tokens or {}))
    return _byte_level(model, ByteLevel(add_prefix_space=add_prefix_space, use_regex=True), metadata)


def tiktoken_tokenizer(
    ranks: Mapping[bytes, int],
    *,
    pattern: str,
    special_tokens: Mapping[str, int] | None = None,
    trusted_pattern: bool = False,
    metadata: Mapping[str, Any] | None = None,
) -> Tokenizer:
    """tiktoken pipeline: ``Split(Regex(pattern))`` + ``ByteLevel(use_regex=False)`` + ``ByteLevelBPE.from_ranks``.

    tiktoken cuts the text with ``pattern`` and runs rank-based BPE on the UTF-8 bytes of each match;
    here the split is the ``Split`` pre-tokenizer and the bytes are written in the byte-level alphabet,
    which the model expects. ``trusted_pattern=True`` runs the split without the regex timeout.
    """
    from algorithms import ByteLevelBPE

    model = ByteLevelBPE.from_ranks(dict(ranks), special_tokens=dict(special_tokens or {}))
    return _byte_level(model, _split_then_bytes(pattern, trusted=trusted_pattern), metadata)


def chat_tokenizer() -> Tokenizer:
    """The untrained chat pipeline: ``CHAT_PATTERN`` split, byte-level BPE, ``ByteLevel(trim_offsets=False)``
    post-processor and ``ByteLevel`` decoder."""
    from algorithms import ByteLevelBPE
    from pretokenizers import CHAT_PATTERN

    return _byte_level(ByteLevelBPE(), _split_then_bytes(CHAT_PATTERN, trusted=False), None)


def _wordpiece_model(vocab: Mapping[str, int] | None, special_tokens: Sequence[str], **options: Any) -> tuple[Model, Mapping[str, int]]:
    """The WordPiece model and the ids the post-processor uses (an untrained model: the specials' first ids)."""
    from algorithms import WordPiece

    if vocab is None:
        return WordPiece(**options), {t: i for i, t in enumerate(special_tokens)}
    return WordPiece(dict(vocab), special_tokens=list(special_tokens), **options), vocab


def bert_tokenizer(
    vocab: Mapping[str, int] | None,
    *,
    lowercase: bool = True,
    unk_token: str = "[UNK]",
    sep_token: str = "[SEP]",
    cls_token: str = "[CLS]",
    special_tokens: Sequence[str] = (),
    clean_text: bool = True,
    handle_chinese_chars: bool = True,
    strip_accents: bool | None = None,
    continuing_subword_prefix: str = "##",
    max_input_chars_per_word: int = 100,
    metadata: Mapping[str, Any] | None = None,
) -> Tokenizer:
    """BERT pipeline, as HF's ``BertWordPieceTokenizer``: BertNormalizer, BertPreTokenizer, WordPiece,
    BertProcessing, WordPiece decoder.

    With ``vocab=None`` the model is untrained: ``special_tokens`` will get the first ids, in order
    (as the WordPiece trainer gives them), so they must include ``cls_token`` and ``sep_token``.
    Otherwise ``special_tokens`` are the vocabulary's special tokens (all in it).

    >>> tok = bert_tokenizer({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hug": 3, "##s": 4}, special_tokens=["[UNK]"])
    >>> tok.encode("Hugs").tokens
    ['[CLS]', 'hug', '##s', '[SEP]']
    """
    from pretokenizers import BertPreTokenizer
    from toolkit.decoders import WordPiece as WordPieceDecoder
    from toolkit.normalizers import BertNormalizer
    from toolkit.processors import BertProcessing
    from toolkit.tokenizer import Tokenizer

    if vocab is None:
        missing = [t for t in (cls_token, sep_token) if t not in special_tokens]
        if missing:
            raise ConfigError(f"bert_tokenizer: {', '.join(missing)} must be among special_tokens {list(special_tokens)!r}")
    model, ids = _wordpiece_model(
        vocab,
        special_tokens,
        unk_token=unk_token,
        continuing_subword_prefix=continuing_subword_prefix,
        max_input_chars_per_word=max_input_chars_per_word,
    )
    return Tokenizer(
        model,
        normalizer=BertNormalizer(
            clean_text=clean_text,
            handle_chinese_chars=handle_chinese_chars,
            strip_accents=strip_accents,
            lowercase=lowercase,
        ),
        pre_tokenizer=BertPreTokenizer(),
        post_processor=BertProcessing(sep=(sep_token, ids[sep_token]), cls=(cls_token, ids[cls_token])),
        decoder=WordPieceDecoder(prefix=continuing_subword_prefix),
        metadata=metadata,
    )


# ---------------------------------------------------------------------------------------- comparing
#: What a writer that refuses a pipeline its format cannot hold suggests instead.
SAVE_AS_HF_JSON = "save it as tokenizer.json instead (to_hf_json; --to hf on the command line)"

#: Texts (single and pair) on which two post-processors must mark the same tokens to count as one.
_PROBES = (("Hello, world!", None), ("a", "b c"), ("", None))


def _shown(component: Mapping[str, Any] | None, limit: int = 90) -> str:
    if component is None:
        return "none"
    text = repr(dict(component))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _same_processing(tok: Tokenizer, reference: Tokenizer) -> bool:
    """Whether the two post-processors add the same tokens with the same type ids and offsets (BERT's
    ``TemplateProcessing`` and ``BertProcessing``), all else being equal."""
    try:
        return all(tok.encode(text, pair) == reference.encode(text, pair) for text, pair in _PROBES)
    except Exception:  # noqa: BLE001 - a post-processor that fails here is not the reference's
        return False


def pipeline_difference(tok: Tokenizer, reference: Tokenizer, *, read_as: str) -> str | None:
    """The first component of ``tok``'s pipeline (normalizer, pre-tokenizer, post-processor, decoder,
    added tokens) that differs from ``reference``'s, described for an error message, or ``None``.

    ``reference`` is the tokenizer a file's reader would build (``read_as`` names it: "a vocab.txt is
    read with"); the models are compared by the caller. A post-processor differing only in form
    (``TemplateProcessing`` spelling out BERT's ``[CLS] A [SEP]``) counts as the same when it gives the
    same encodings on probe texts.
    """
    ours, theirs = tok.to_dict(), reference.to_dict()
    for part in ("normalizer", "pre_tokenizer", "post_processor", "decoder"):
        if ours[part] == theirs[part] or (part == "post_processor" and _same_processing(tok, reference)):
            continue
        name = part.replace("_", "-")
        return f"this tokenizer's {name} is {_shown(ours[part])}, where {read_as} {_shown(theirs[part])}"
    # An added token that only repeats a special token of the reference (as a Hugging Face file lists
    # them: special, not normalized, no stripping) changes nothing; any other is not in the file.
    specials = reference.special_tokens
    extra = [a["content"] for a in ours.get("added_tokens") or []
             if not (a["special"] and specials.get(a["content"]) == a["id"] and not a["normalized"]
                     and not (a["lstrip"] or a["rstrip"] or a["single_word"]))]
    if extra:
        return f"this tokenizer's added tokens {extra!r:.80} are not stored"
    return None
