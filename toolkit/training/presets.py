"""Ready-made pipelines: an untrained :class:`~toolkit.Tokenizer` plus the trainer that fits it.

This module owns the preset constructors. Each returns ``(tokenizer, trainer)``; train with
``tokenizer.train(corpus, trainer)`` (which returns the tokenizer), then encode, decode and save as
usual. The untrained tokenizer already works: a byte-level one encodes every byte as its own token.

* :func:`gpt2_style` — GPT-2: ``ByteLevel`` pre-tokenizer (GPT-2 regex, byte → ``Ġ`` alphabet),
  :class:`~algorithms.ByteLevelBPE`, ``ByteLevel`` decoder, ``<|endoftext|>``.
* :func:`chat` — the byte-level "chat" preset of SPEC §5: words with their leading space, groups of
  up to 3 digits, punctuation runs and spaces (:data:`CHAT_PATTERN`), 1024 tokens, ``<|im_start|>`` and
  ``<|im_end|>`` after the merges, ``tie_break="ids"``.

>>> tok, trainer = chat()
>>> tok = tok.train(["Phileas Fogg parie vingt mille livres.", "snake_case_name 12345"] * 3, trainer)
>>> tok.decode(tok.encode_ids("snake_case 12345!")) == "snake_case 12345!"
True

This module imports ``algorithms`` and ``pretokenizers`` at import time; ``toolkit`` itself never
imports it at start-up, so the dependency rule of ``docs/architecture.md`` holds.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from algorithms import ByteLevelBPE, ByteLevelBPETrainer, WordPieceTrainer
from pretokenizers import ByteLevel, Split
from pretokenizers import Sequence as PreTokenizerSequence
from toolkit import decoders
from toolkit.interfaces import ProgressCallback
from toolkit.tokenizer import Tokenizer

__all__ = ["CHAT_PATTERN", "CHAT_SPECIAL_TOKENS", "gpt2_style", "chat", "bert_pipeline", "bert"]

#: The chat preset's split pattern (SPEC §5): a word with its leading space, 1–3 digits, a run of
#: punctuation, trailing spaces, other spaces. It matches no ``_``; ``Split(..., "isolated")`` keeps
#: such unmatched text as pieces of its own, so pre-tokenization stays lossless.
CHAT_PATTERN = r" ?[^\W\d_]+| ?\d{1,3}| ?[^\s\w]+|\s+(?!\S)|\s+"

#: The chat preset's special tokens, appended after the merges (ids 1022 and 1023 at 1024 tokens).
CHAT_SPECIAL_TOKENS = ("<|im_start|>", "<|im_end|>")


def gpt2_style(
    *,
    vocab_size: int = 50257,
    special_tokens: Sequence[str] = ("<|endoftext|>",),
    add_prefix_space: bool = False,
    min_frequency: int = 0,
    tie_break: str = "ids",
    progress: ProgressCallback | None = None,
) -> tuple[Tokenizer, ByteLevelBPETrainer]:
    """A GPT-2 style byte-level BPE pipeline and its trainer.

    ``vocab_size`` counts the 256 bytes, the merges and the special tokens (GPT-2: 256 + 50 000 + 1).

    >>> tok, trainer = gpt2_style(vocab_size=300)
    >>> tok = tok.train(["Hello world, hello world!"] * 10, trainer)
    >>> tok.decode(tok.encode_ids("Hello world")), tok.vocab_size <= 300
    ('Hello world', True)
    """
    tokenizer = Tokenizer(
        ByteLevelBPE(),
        pre_tokenizer=ByteLevel(add_prefix_space=add_prefix_space),
        decoder=decoders.ByteLevel(),
    )
    return tokenizer, _byte_level_trainer(vocab_size, special_tokens, min_frequency, tie_break, progress)



def _byte_level_trainer(
    vocab_size: int,
    special_tokens: Sequence[str],
    min_frequency: int,
    tie_break: str,
    progress: ProgressCallback | None,
) -> ByteLevelBPETrainer:
    """The trainer of both byte-level presets."""
    return ByteLevelBPETrainer(
        vocab_size=vocab_size,
        special_tokens=list(special_tokens),
        min_frequency=min_frequency,
        tie_break=tie_break,  # type: ignore[arg-type]
        progress=progress,
    )

def chat(
    *,
    vocab_size: int = 1024,
    special_tokens: Sequence[str] = CHAT_SPECIAL_TOKENS,
    min_frequency: int = 0,
    tie_break: str = "ids",
    progress: ProgressCallback | None = None,
) -> tuple[Tokenizer, ByteLevelBPETrainer]:
    """The SPEC §5 chat preset: :data:`CHAT_PATTERN` split, byte-level BPE, 1024 tokens.

    The pre-tokenizer is ``Sequence([Split(CHAT_PATTERN, behavior="isolated"), ByteLevel(use_regex=False)])``:
    the pattern cuts the text, ``ByteLevel`` only maps each piece to the byte-level alphabet.

    >>> tok, trainer = chat(vocab_size=300)
    >>> tok = tok.train(["<|im_start|> is ordinary text here"], trainer)  # too little text for 42 merges
    >>> len(tok.model.merges), tok.special_tokens
    (24, {'<|im_start|>': 280, '<|im_end|>': 281})
    >>> tok.encode("<|im_start|> text", allowed_special="all").tokens
    ['<|im_start|>', 'Ġtext']
    """
    tokenizer = Tokenizer(
        ByteLevelBPE(),
        pre_tokenizer=PreTokenizerSequence(
            [Split(CHAT_PATTERN, behavior="isolated"), ByteLevel(add_prefix_space=False, use_regex=False)]
        ),
        decoder=decoders.ByteLevel(),
    )
    return tokenizer, _byte_level_trainer(vocab_size, special_tokens, min_frequency, tie_break, progress)


# --------------------------------------------------------------------------------------------- BERT
def bert_pipeline(
    vocab: dict[str, int] | str | os.PathLike[str] | None = None,
    *,
    lowercase: bool = True,
    strip_accents: bool | None = None,
    clean_text: bool = True,
    handle_chinese_chars: bool = True,
    unk_token: str = "[UNK]",
    cls_token: str = "[CLS]",
    sep_token: str = "[SEP]",
    special_tokens: Sequence[str] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
    wordpieces_prefix: str = "##",
    max_input_chars_per_word: int = 100,
) -> Tokenizer:
    """The BERT pipeline (as Hugging Face's ``BertWordPieceTokenizer``): ``BertNormalizer``,
    ``BertPreTokenizer``, :class:`~algorithms.WordPiece`, ``BertProcessing`` and the ``WordPiece`` decoder.

    ``vocab`` is a token → id mapping, the path of a BERT ``vocab.txt``, or ``None`` for an untrained
    pipeline (train it with the trainer of :func:`bert`; ``special_tokens`` then get the first ids, in
    order, and ``BertProcessing`` uses those). With a vocabulary, the ``special_tokens`` it lacks are
    simply not special; ``[CLS]``, ``[SEP]`` and ``unk_token`` must be present.

    >>> tok = bert_pipeline({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hug": 3, "##s": 4, "!": 5})
    >>> enc = tok.encode("HUGS!")
    >>> enc.tokens, enc.offsets
    (['[CLS]', 'hug', '##s', '!', '[SEP]'], [(0, 0), (0, 3), (3, 4), (4, 5), (0, 0)])
    >>> tok.decode(enc.ids, skip_special_tokens=True)
    'hugs!'
    """
    from algorithms import WordPiece
    from pretokenizers import BertPreTokenizer
    from toolkit.errors import ConfigError
    from toolkit.normalizers import BertNormalizer
    from toolkit.processors import BertProcessing

    options = dict(
        unk_token=unk_token, continuing_subword_prefix=wordpieces_prefix, max_input_chars_per_word=max_input_chars_per_word
    )
    if vocab is None:
        model = WordPiece(**options)
        missing = [t for t in (cls_token, sep_token) if t not in special_tokens]
        if missing:
            raise ConfigError(f"bert_pipeline: {', '.join(missing)} must be among special_tokens {list(special_tokens)!r}")
        ids = {t: i for i, t in enumerate(special_tokens)}  # the trainer gives specials the first ids
    else:
        table = WordPiece.read_vocab_file(vocab) if isinstance(vocab, (str, os.PathLike)) else dict(vocab)
        model = WordPiece(table, special_tokens=[t for t in special_tokens if t in table], **options)
        missing = [t for t in (cls_token, sep_token) if t not in table]
        if missing:
            raise ConfigError(f"bert_pipeline: the vocabulary has no {' or '.join(missing)} token")
        ids = table
    return Tokenizer(
        model,
        normalizer=BertNormalizer(
            clean_text=clean_text, handle_chinese_chars=handle_chinese_chars, strip_accents=strip_accents, lowercase=lowercase
        ),
        pre_tokenizer=BertPreTokenizer(),
        post_processor=BertProcessing(sep=(sep_token, ids[sep_token]), cls=(cls_token, ids[cls_token])),
        decoder=decoders.WordPiece(prefix=wordpieces_prefix),
    )


def bert(
    *,
    vocab_size: int = 30522,
    lowercase: bool = True,
    special_tokens: Sequence[str] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
    min_frequency: int = 0,
    limit_alphabet: int | None = None,
    tie_break: str = "ids",
    progress: ProgressCallback | None = None,
) -> tuple[Tokenizer, WordPieceTrainer]:
    """An untrained BERT pipeline (:func:`bert_pipeline`) and the real-WordPiece trainer that fits it.

    >>> tok, trainer = bert(vocab_size=60)
    >>> tok = tok.train(["Hugging hugs huggable pugs", "Hugs!"] * 3, trainer)
    >>> tok.encode("hugs").tokens[0], tok.vocab_size <= 60
    ('[CLS]', True)
    """
    tokenizer = bert_pipeline(None, lowercase=lowercase, special_tokens=special_tokens)
    trainer = WordPieceTrainer(
        vocab_size=vocab_size,
        special_tokens=list(special_tokens),
        min_frequency=min_frequency,
        limit_alphabet=limit_alphabet,
        tie_break=tie_break,  # type: ignore[arg-type]
        progress=progress,
    )
    return tokenizer, trainer
