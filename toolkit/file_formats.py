"""The :class:`~toolkit.Tokenizer` methods for other libraries' files: loading and saving Hugging Face
``tokenizer.json``, GPT-2, tiktoken, BERT ``vocab.txt`` and SentencePiece files.

Each is one call to the tooling function that knows the format (:mod:`toolkit.interop`), reached by
name through :data:`toolkit.registry.TOOLS` and imported on first use, so the core knows no format.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Self

from toolkit.arguments import check_path, writing
from toolkit.registry import tool

__all__ = ["FileFormats"]


class FileFormats:
    """Loaders (classmethods) and writers of other libraries' tokenizer files, mixed into ``Tokenizer``."""

    @classmethod
    def from_hf_json(cls, path: str | os.PathLike[str], *, strict: bool = True) -> Self:
        """Load a Hugging Face ``tokenizer.json``; a component we cannot represent is a
        :class:`SerializationError` naming it (``strict=False`` drops the ones that never change ids).

        >>> tok = Tokenizer.from_hf_json("tokenizer.json")   # doctest: +SKIP
        """
        return tool("load_hf_json")(check_path(path, "path"), strict=strict)

    def to_hf_json(self, path: str | os.PathLike[str], *, indent: int | None = None) -> None:
        """Write a Hugging Face ``tokenizer.json`` that ``tokenizers.Tokenizer.from_file`` loads."""
        with writing(path):
            tool("save_hf_json")(self, path, indent=indent)

    def to_hf(self) -> Any:
        """This tokenizer as a Hugging Face ``tokenizers.Tokenizer`` (needs ``tokenizers``; the same ids),
        for code that takes HF's object, such as ``transformers``:

        >>> fast = PreTrainedTokenizerFast(tokenizer_object=tok.to_hf())   # doctest: +SKIP
        """
        return tool("to_hf_tokenizer")(self)

    @classmethod
    def load_any(cls, path: str | os.PathLike[str], *, format: str = "auto", **options: Any) -> Self:
        """Load a tokenizer file of any supported format, detected from its content unless ``format``
        names it (``"toolkit"``, ``"hf"``, ``"vocab-txt"``, ``"vocab-merges"``, ``"tiktoken"``, ``"sentencepiece"``).

        >>> tok = Tokenizer.load_any("tokenizer.json")   # doctest: +SKIP
        """
        return tool("load_any")(check_path(path, "path"), format=format, **options)

    @classmethod
    def from_gpt2(
        cls, encoder_json: str | os.PathLike[str], vocab_bpe: str | os.PathLike[str], *,
        special_tokens: Sequence[str] | None = None, add_prefix_space: bool = False,
    ) -> Self:
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
    ) -> Self:
        """Byte-level pipeline from a ``.tiktoken`` rank file; ``pattern`` is a regex or a name
        (``CL100K_PATTERN``...). Both default to OpenAI's for a known file name (``cl100k_base``...).

        >>> from pretokenizers import CL100K_PATTERN
        >>> tok = Tokenizer.from_tiktoken("cl100k_base.tiktoken", pattern=CL100K_PATTERN)   # doctest: +SKIP
        """
        return tool("from_tiktoken")(check_path(path, "path"), pattern=pattern, special_tokens=special_tokens)

    @classmethod
    def from_bert_vocab(cls, vocab_txt: str | os.PathLike[str], *, lowercase: bool = True, **options: Any) -> Self:
        """BERT pipeline from a ``vocab.txt``, like HF's ``BertWordPieceTokenizer`` (options: ``unk_token``...).

        >>> tok = Tokenizer.from_bert_vocab("vocab.txt", lowercase=True)   # doctest: +SKIP
        """
        return tool("from_bert_vocab")(check_path(vocab_txt, "vocab_txt"), lowercase=lowercase, **options)

    @classmethod
    def from_sentencepiece(cls, path: str | os.PathLike[str]) -> Self:
        """The pipeline of a SentencePiece ``.model`` file (Unigram or BPE): same ids as ``sentencepiece``.

        >>> tok = Tokenizer.from_sentencepiece("spm.model")   # doctest: +SKIP
        """
        return tool("from_sentencepiece")(check_path(path, "path"))  # type: ignore[no-any-return]

    def save_sentencepiece(self, path: str | os.PathLike[str], **roles: str | None) -> None:
        """Write a SentencePiece-shaped pipeline (Unigram or SentencePieceBPE) as a ``.model`` file.

        ``bos_token=``, ``eos_token=``, ``pad_token=``: the special tokens sentencepiece's ``add_bos``,
        ``add_eos`` and ``pad_id`` use (``None``: none); by default inferred from their names
        (``<s>``, ``</s>``, ``<pad>``, ``<bos>``, ``[CLS]``, ...).

        >>> tok.save_sentencepiece("spm.model", bos_token="<s>")   # doctest: +SKIP
        """
        with writing(path):
            tool("save_sentencepiece")(self, path, **roles)

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
