"""Interoperability: read and write the vocabulary files of Hugging Face, OpenAI and BERT.

This package owns every foreign file format the toolkit understands, in both directions:

- Hugging Face ``tokenizer.json``: :func:`load_hf_json` / :func:`save_hf_json` (:mod:`.hf_json`; each
  component is converted by :mod:`.hf_components`);
- GPT-2 ``encoder.json`` + ``vocab.bpe`` (HF ``vocab.json`` + ``merges.txt``): :func:`from_gpt2`,
  :func:`read_bpe_model` / :func:`save_vocab_merges` (:mod:`.gpt2`);
- tiktoken ``.tiktoken`` rank files: :func:`from_tiktoken` / :func:`save_tiktoken`, plus
  :func:`tiktoken_pattern` (:mod:`.tiktoken_files`);
- BERT ``vocab.txt``: :func:`from_bert_vocab` / :func:`save_bert_vocab` (:mod:`.bert_vocab`);
- SentencePiece ``.model``: :func:`from_sentencepiece` / :func:`save_sentencepiece` (:mod:`.sentencepiece`,
  the protobuf wire format in :mod:`.spm_proto`);
- the standard pipelines these files describe (GPT-2, tiktoken, chat, BERT), which the presets of
  :mod:`toolkit.training.presets` build too: :mod:`.pipelines`;
- any of these formats at once (detect, load, save; the CLI and ``Tokenizer.load_any``): :mod:`.files`.

Each format has exactly one reader and one writer.

The :class:`~toolkit.Tokenizer` methods of the same names are thin wrappers over these functions, and
this package is imported only when one of them is called. Problems in a file are
:class:`~toolkit.errors.SerializationError` (format) or :class:`~toolkit.errors.VocabularyError`
(content) naming the file and, where there is one, the line. The formats are documented in
``docs/interop.md``.

>>> from toolkit import Tokenizer
>>> tok = Tokenizer.from_gpt2("encoder.json", "vocab.bpe")          # doctest: +SKIP
>>> tok.to_hf_json("tokenizer.json")                                # doctest: +SKIP
"""

from toolkit.interop.bert_vocab import from_bert_vocab, read_bert_vocab, save_bert_vocab, write_bert_vocab
from toolkit.interop.gpt2 import (
    from_gpt2,
    read_bpe_model,
    read_merges_txt,
    read_vocab_json,
    save_vocab_merges,
    write_merges_txt,
    write_vocab_json,
)
from toolkit.interop.hf_json import from_hf_dict, load_hf_json, save_hf_json, to_hf_dict
from toolkit.interop.sentencepiece import from_sentencepiece, read_sentencepiece, save_sentencepiece
from toolkit.interop.tiktoken_files import (
    from_tiktoken,
    read_tiktoken,
    save_tiktoken,
    tiktoken_pattern,
    write_tiktoken,
)

__all__ = [
    "load_hf_json",
    "save_hf_json",
    "from_hf_dict",
    "to_hf_dict",
    "from_gpt2",
    "read_vocab_json",
    "read_merges_txt",
    "read_bpe_model",
    "write_vocab_json",
    "write_merges_txt",
    "save_vocab_merges",
    "from_tiktoken",
    "read_tiktoken",
    "write_tiktoken",
    "save_tiktoken",
    "tiktoken_pattern",
    "from_bert_vocab",
    "read_bert_vocab",
    "write_bert_vocab",
    "save_bert_vocab",
    "from_sentencepiece",
    "read_sentencepiece",
    "save_sentencepiece",
]
