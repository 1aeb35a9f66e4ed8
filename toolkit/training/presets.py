"""Ready-made pipelines: an untrained :class:`~toolkit.Tokenizer` plus the trainer that fits it.

This module owns the preset table :data:`PRESETS` (name → constructor), which config files
(``preset = "chat"``) and the command line use, and the trainer of each preset. The pipelines
themselves are assembled by :mod:`toolkit.interop.pipelines`, as for the files they are read from.
Each preset returns ``(tokenizer, trainer)``; train with ``tokenizer.train(corpus, trainer)`` (which
returns the tokenizer), then encode, decode and save as usual. The untrained tokenizer already works:
a byte-level one encodes every byte as its own token.

* :func:`gpt2_style` — GPT-2: ``ByteLevel`` pre-tokenizer (GPT-2 regex, byte → ``Ġ`` alphabet),
  :class:`~algorithms.ByteLevelBPE`, ``ByteLevel`` decoder, ``<|endoftext|>``.
* :func:`chat` — byte-level "chat" preset: words with their leading space, groups of up to 3 digits,
  punctuation runs and spaces (:data:`CHAT_PATTERN`), 1024 tokens, ``<|im_start|>`` and ``<|im_end|>``
  after the merges, ``tie_break="ids"``.
* :func:`bert` — BERT: the :func:`bert_pipeline` (as HF's ``BertWordPieceTokenizer``) and a WordPiece trainer.
* :func:`t5_unigram` — T5/ALBERT-style SentencePiece Unigram: ``NFKC``, ``Metaspace`` pre-tokenizer and
  decoder, :class:`~algorithms.Unigram`, ``</s>`` appended, and a :class:`~algorithms.UnigramTrainer`.

>>> tok, trainer = PRESETS["chat"](vocab_size=280)
>>> tok = tok.train(["Phileas Fogg parie vingt mille livres.", "snake_case_name 12345"] * 3, trainer)
>>> tok.decode(tok.encode_ids("snake_case 12345!")) == "snake_case 12345!"
True

This module imports ``algorithms`` at import time; ``toolkit`` itself never imports it at start-up,
so the dependency rule of ``docs/architecture.md`` holds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from algorithms import ByteLevelBPETrainer, Unigram, UnigramTrainer, WordPieceTrainer
from pretokenizers import CHAT_PATTERN
from toolkit.errors import ConfigError
from toolkit.interfaces import ProgressCallback, Trainer
from toolkit.interop.bert_vocab import read_bert_vocab
from toolkit.interop.pipelines import BERT_SPECIAL_TOKENS, bert_tokenizer, byte_level_tokenizer, chat_tokenizer
from toolkit.tokenizer import Tokenizer

__all__ = ["PRESETS", "CHAT_PATTERN", "CHAT_SPECIAL_TOKENS", "gpt2_style", "chat", "bert_pipeline", "bert",
           "t5_unigram"]

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

    >>> tok, trainer = gpt2_style(vocab_size=265)
    >>> tok = tok.train(["Hello world, hello world!"] * 10, trainer)
    >>> tok.decode(tok.encode_ids("Hello world")), tok.vocab_size
    ('Hello world', 265)
    """
    tokenizer = byte_level_tokenizer(add_prefix_space=add_prefix_space)
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
    """The chat preset: :data:`CHAT_PATTERN` split, byte-level BPE, 1024 tokens.

    The pre-tokenizer is ``Sequence([Split(Regex(CHAT_PATTERN), "isolated"), ByteLevel(add_prefix_space=False, use_regex=False)])``:
    the pattern cuts the text, ``ByteLevel`` only maps each piece to the byte-level alphabet.

    >>> tok, trainer = chat(vocab_size=282)  # 256 bytes, 24 merges (all this text has), 2 special tokens
    >>> tok = tok.train(["<|im_start|> is ordinary text here"], trainer)
    >>> len(tok.model.merges), tok.special_tokens
    (24, {'<|im_start|>': 280, '<|im_end|>': 281})
    >>> tok.encode("<|im_start|> text", allowed_special="all").tokens
    ['<|im_start|>', 'Ġtext']
    """
    return chat_tokenizer(), _byte_level_trainer(vocab_size, special_tokens, min_frequency, tie_break, progress)


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
    special_tokens: Sequence[str] = BERT_SPECIAL_TOKENS,
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
    if isinstance(vocab, (str, os.PathLike)):
        vocab = read_bert_vocab(vocab)
        vocab.pop("", None)  # an empty line is a token WordPiece cannot hold (see from_bert_vocab)
    if vocab is not None:
        missing = [t for t in (cls_token, sep_token) if t not in vocab]
        if missing:
            raise ConfigError(f"bert_pipeline: the vocabulary has no {' or '.join(missing)} token")
        special_tokens = [t for t in special_tokens if t in vocab]
    return bert_tokenizer(
        vocab,
        lowercase=lowercase,
        unk_token=unk_token,
        sep_token=sep_token,
        cls_token=cls_token,
        special_tokens=special_tokens,
        clean_text=clean_text,
        handle_chinese_chars=handle_chinese_chars,
        strip_accents=strip_accents,
        continuing_subword_prefix=wordpieces_prefix,
        max_input_chars_per_word=max_input_chars_per_word,
    )


def bert(
    *,
    vocab_size: int = 30522,
    lowercase: bool = True,
    special_tokens: Sequence[str] = BERT_SPECIAL_TOKENS,
    min_frequency: int = 0,
    limit_alphabet: int | None = None,
    tie_break: str = "ids",
    criterion: str = "likelihood",
    progress: ProgressCallback | None = None,
) -> tuple[Tokenizer, WordPieceTrainer]:
    """An untrained BERT pipeline (:func:`bert_pipeline`) and the real-WordPiece trainer that fits it.

    >>> tok, trainer = bert(vocab_size=30)
    >>> tok = tok.train(["Hugging hugs huggable pugs", "Hugs!"] * 3, trainer)
    >>> tok.encode("hugs").tokens, tok.vocab_size
    (['[CLS]', 'hugs', '[SEP]'], 30)
    """
    tokenizer = bert_pipeline(None, lowercase=lowercase, special_tokens=special_tokens)
    trainer = WordPieceTrainer(
        vocab_size=vocab_size,
        special_tokens=list(special_tokens),
        min_frequency=min_frequency,
        limit_alphabet=limit_alphabet,
        tie_break=tie_break,  # type: ignore[arg-type]
        criterion=criterion,  # type: ignore[arg-type]
        progress=progress,
    )
    return tokenizer, trainer


# ---------------------------------------------------------------------------------- T5 / ALBERT Unigram
def t5_unigram(
    *,
    vocab_size: int = 32000,
    special_tokens: Sequence[str] = ("<pad>", "</s>", "<unk>"),
    unk_token: str = "<unk>",
    eos_token: str | None = "</s>",
    character_coverage: float = 1.0,
    split_by_unicode_script: bool = True,
    progress: ProgressCallback | None = None,
) -> tuple[Tokenizer, UnigramTrainer]:
    """An untrained SentencePiece-style Unigram pipeline (T5's layout: ``<pad>`` 0, ``</s>`` 1, ``<unk>`` 2)
    and its trainer: ``NFKC``, ``Metaspace`` (``▁`` before every word) and its decoder, ``eos_token``
    appended to every sequence (``None``: nothing; ALBERT: pass its special tokens and ``eos_token=None``);
    no piece mixes two scripts (``split_by_unicode_script``, SentencePiece's default).

    >>> tok, trainer = t5_unigram(vocab_size=19)
    >>> tok = tok.train(["the lower the newest", "the widest lowest"] * 5, trainer)
    >>> tok.encode("the lowest").tokens[-1], tok.decode(tok.encode_ids("the lowest"), skip_special_tokens=True)
    ('</s>', 'the lowest')
    """
    from pretokenizers import Metaspace
    from toolkit.decoders import Metaspace as MetaspaceDecoder
    from toolkit.normalizers import NFKC
    from toolkit.processors import TemplateProcessing

    specials = list(dict.fromkeys(special_tokens))
    post = None
    if eos_token is not None:
        if eos_token not in specials:
            raise ConfigError(f"t5_unigram: eos_token {eos_token!r} must be one of special_tokens {specials}")
        eos = (eos_token, specials.index(eos_token) + (unk_token not in specials))
        post = TemplateProcessing(single=f"$A {eos_token}", pair=f"$A {eos_token} $B {eos_token}", special_tokens=[eos])
    tokenizer = Tokenizer(Unigram(), NFKC(), Metaspace(), post, MetaspaceDecoder())
    trainer = UnigramTrainer(
        vocab_size=vocab_size, special_tokens=specials, unk_token=unk_token,
        character_coverage=character_coverage, split_by_unicode_script=split_by_unicode_script, progress=progress,
    )
    return tokenizer, trainer


#: Preset name → constructor of the untrained pipeline: ``preset = "<name>"`` in a training config
#: (the config's sections then override the preset's). Each returns ``(tokenizer, trainer)``, except
#: :func:`bert_pipeline`, which returns the tokenizer only: the config's trainer (by default the
#: WordPiece trainer, whose special tokens ``[PAD] [UNK] [CLS] [SEP] [MASK]`` get ids 0-4) trains it.
PRESETS: dict[str, Callable[..., tuple[Tokenizer, Trainer] | Tokenizer]] = {
    "gpt2_style": gpt2_style,
    "chat": chat,
    "bert": bert,
    "bert_pipeline": bert_pipeline,
    "t5_unigram": t5_unigram,
}
