"""The standard pipelines the interop readers build: GPT-2 (merges), tiktoken (ranks) and BERT.

This module owns how a foreign vocabulary becomes a complete :class:`~toolkit.Tokenizer`: which
pre-tokenizer, model, post-processor and decoder reproduce the reference library. The file readers
(:mod:`~toolkit.interop.gpt2`, :mod:`~toolkit.interop.tiktoken_files`,
:mod:`~toolkit.interop.bert_vocab`) parse and check the files, then call these constructors.

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

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["byte_level_tokenizer", "tiktoken_tokenizer", "bert_tokenizer"]


def byte_level_tokenizer(
    *,
    vocab: Mapping[str, int],
    merges: Sequence[tuple[str, str]],
    special_tokens: Mapping[str, int] | None = None,
    add_prefix_space: bool = False,
    metadata: Mapping[str, Any] | None = None,
) -> Tokenizer:
    """GPT-2 pipeline: ``ByteLevel`` pre-tokenizer + ``ByteLevelBPE(vocab, merges)`` + ``ByteLevel`` decoder."""
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel
    from toolkit.decoders import ByteLevel as ByteLevelDecoder
    from toolkit.tokenizer import Tokenizer

    model = ByteLevelBPE(dict(vocab), [tuple(m) for m in merges], special_tokens=dict(special_tokens or {}))
    return Tokenizer(
        model,
        pre_tokenizer=ByteLevel(add_prefix_space=add_prefix_space, use_regex=True),
        decoder=ByteLevelDecoder(),
        metadata=metadata,
    )


def tiktoken_tokenizer(
    ranks: Mapping[bytes, int],
    *,
    pattern: str,
    special_tokens: Mapping[str, int] | None = None,
    trusted_pattern: bool = False,
    metadata: Mapping[str, Any] | None = None,
) -> Tokenizer:
    """tiktoken pipeline: ``Split(pattern)`` + ``ByteLevel(use_regex=False)`` + ``ByteLevelBPE.from_ranks``.

    tiktoken cuts the text with ``pattern`` and runs rank-based BPE on the UTF-8 bytes of each match;
    here the split is the ``Split`` pre-tokenizer (``isolated``: matches become pieces, and any text the
    pattern skips still forms pieces, so nothing is lost) and the bytes are written in the byte-level
    alphabet by ``ByteLevel(use_regex=False)``, which the model expects. ``trusted_pattern=True``
    (our named patterns) runs the split without the regex timeout that guards user patterns, which
    roughly halves the split time on long texts.
    """
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel, Sequence as PreSequence, Split
    from toolkit.decoders import ByteLevel as ByteLevelDecoder
    from toolkit.tokenizer import Tokenizer

    model = ByteLevelBPE.from_ranks(dict(ranks), special_tokens=dict(special_tokens or {}))
    # The regex timeout guards against user patterns that backtrack catastrophically; ours are safe.
    split = Split(pattern, behavior="isolated", **({"timeout": None} if trusted_pattern else {}))
    pre = PreSequence([split, ByteLevel(add_prefix_space=False, use_regex=False)])
    return Tokenizer(model, pre_tokenizer=pre, decoder=ByteLevelDecoder(), metadata=metadata)


def bert_tokenizer(
    vocab: Mapping[str, int],
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
    BertProcessing, WordPiece decoder."""
    from algorithms import WordPiece
    from pretokenizers import BertPreTokenizer
    from toolkit.decoders import WordPiece as WordPieceDecoder
    from toolkit.normalizers import BertNormalizer
    from toolkit.processors import BertProcessing
    from toolkit.tokenizer import Tokenizer

    model = WordPiece(
        dict(vocab),
        unk_token=unk_token,
        continuing_subword_prefix=continuing_subword_prefix,
        max_input_chars_per_word=max_input_chars_per_word,
        special_tokens=list(special_tokens),
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
        post_processor=BertProcessing(sep=(sep_token, vocab[sep_token]), cls=(cls_token, vocab[cls_token])),
        decoder=WordPieceDecoder(prefix=continuing_subword_prefix),
        metadata=metadata,
    )
