"""BERT ``vocab.txt`` files: read, write, and the BERT pipeline built from them.

This module owns the WordPiece vocabulary file: one token per line, the id is the 0-based line number,
continuation pieces carry the ``##`` prefix, and ``[UNK]`` must be present. Lines are split on ``\\n``
only and trailing Unicode whitespace is removed, exactly as Hugging Face reads them (so
bert-base-chinese's ``U+2028`` line is the empty token, as in HF); a repeated token keeps its last line.

The pipeline mirrors HF's ``BertWordPieceTokenizer``: ``BertNormalizer`` (clean text, CJK spacing,
accents stripped when lowercasing, lowercase), ``BertPreTokenizer``, ``WordPiece``, ``BertProcessing``
(``[CLS] A [SEP] B [SEP]``) and the ``WordPiece`` decoder.

>>> from toolkit import Tokenizer
>>> tok = Tokenizer.from_bert_vocab("bert-base-uncased-vocab.txt", lowercase=True)   # doctest: +SKIP
>>> tok.encode("Hello, world!").tokens                                               # doctest: +SKIP
['[CLS]', 'hello', ',', 'world', '!', '[SEP]']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import SerializationError, VocabularyError
from toolkit.interop._io import PathLike, numbered_lines, read_text, rstrip_ws, write_text
from toolkit.interop.pipelines import BERT_SPECIAL_TOKENS, SAVE_AS_HF_JSON, bert_tokenizer, pipeline_difference

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "BERT_SPECIAL_TOKENS", "read_bert_vocab", "write_bert_vocab", "from_bert_vocab", "save_bert_vocab", "reader_options",
]

def read_bert_vocab(path: PathLike) -> dict[str, int]:
    """Read ``vocab.txt`` into ``{token: line index}``.

    A token repeated on a later line takes that line's index, and the earlier index is left unused,
    exactly as Hugging Face ``tokenizers`` reads the file (``WordPiece.read_file``).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    >>> _ = open(p, "w").write("[UNK]\\nhug\\n##s\\nhug\\n")
    >>> read_bert_vocab(p)
    {'[UNK]': 0, 'hug': 3, '##s': 2}
    """
    vocab: dict[str, int] = {}
    for number, line in numbered_lines(read_text(path, what="vocab.txt")):
        vocab[rstrip_ws(line)] = number - 1
    if not vocab:
        raise SerializationError(f"{os.fspath(path)}: vocab.txt is empty")
    return vocab


def write_bert_vocab(vocab: Mapping[str, int], path: PathLike) -> None:
    """Write ``{token: id}`` as ``vocab.txt``: ids must be exactly ``0..n-1`` (the line numbers)."""
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    for expected, (token, token_id) in enumerate(by_id):
        if token_id != expected:
            raise SerializationError(
                f"cannot write vocab.txt: ids must be 0..{len(by_id) - 1} without gaps (the id is the line "
                f"number), but id {expected} is missing (next is {token_id} for {token!r}); save such a vocabulary "
                "as tokenizer.json (save, to_hf_json)"
            )
        if "\n" in token or "\r" in token or rstrip_ws(token) != token:
            raise SerializationError(
                f"cannot write vocab.txt: token {token!r} (id {token_id}) contains a line break or ends with "
                "whitespace, which vocab.txt cannot hold"
            )
    write_text(path, "".join(f"{token}\n" for token, _ in by_id))


def from_bert_vocab(
    vocab_txt: PathLike,
    *,
    lowercase: bool = True,
    unk_token: str = "[UNK]",
    sep_token: str = "[SEP]",
    cls_token: str = "[CLS]",
    clean_text: bool = True,
    handle_chinese_chars: bool = True,
    strip_accents: bool | None = None,
    continuing_subword_prefix: str = "##",
    max_input_chars_per_word: int = 100,
) -> Tokenizer:
    """The BERT tokenizer of a ``vocab.txt``, equal to HF's ``BertWordPieceTokenizer(vocab, lowercase=...)``.

    ``strip_accents=None`` follows ``lowercase`` (as in BERT). ``[CLS]`` and ``[SEP]`` must be in the
    vocabulary for the ``BertProcessing`` post-processor; ``[UNK]`` must be in it for WordPiece.
    The special tokens (``[PAD] [UNK] [CLS] [SEP] [MASK]`` that are present) stay ordinary text unless
    ``allowed_special`` names them (HF always extracts them).

    >>> tok = from_bert_vocab("vocab.txt", lowercase=False)   # doctest: +SKIP
    """
    vocab = read_bert_vocab(vocab_txt)
    # An empty line (bert-base-chinese's "\u2028" line, once trailing whitespace is removed) is an
    # empty token: HF keeps it in its vocabulary but can never produce it; WordPiece cannot hold it.
    # Dropping it leaves every other id unchanged (ids are line numbers).
    vocab.pop("", None)
    for token, role in ((unk_token, "unk_token"), (cls_token, "cls_token"), (sep_token, "sep_token")):
        if token not in vocab:
            raise VocabularyError(
                f"{os.fspath(vocab_txt)}: the vocabulary has no {token!r} line ({role}); a BERT vocab.txt needs "
                f"it (pass {role}=... if it is spelled differently)"
            )
    specials = [t for t in dict.fromkeys((*BERT_SPECIAL_TOKENS, unk_token, cls_token, sep_token)) if t in vocab]
    return bert_tokenizer(
        vocab,
        lowercase=lowercase,
        unk_token=unk_token,
        sep_token=sep_token,
        cls_token=cls_token,
        special_tokens=specials,
        clean_text=clean_text,
        handle_chinese_chars=handle_chinese_chars,
        strip_accents=strip_accents,
        continuing_subword_prefix=continuing_subword_prefix,
        max_input_chars_per_word=max_input_chars_per_word,
        metadata={"source": "bert_vocab", "file": Path(vocab_txt).name},
    )


def save_bert_vocab(tok: Tokenizer, path: PathLike) -> None:
    """Write the vocabulary of a WordPiece tokenizer as ``vocab.txt`` (special tokens included).

    Only the vocabulary is saved; pass the same options (``lowercase``...) to :func:`from_bert_vocab`.
    """
    if type(tok.model).__name__ != "WordPiece":
        raise SerializationError(
            f"save_bert_vocab: the model is {type(tok.model).__name__}; vocab.txt holds WordPiece vocabularies "
            "(use save_vocab_merges for BPE)"
        )
    write_bert_vocab(tok.model.get_vocab(), path)


def reader_options(tok: Tokenizer) -> dict[str, Any]:
    """The options with which :func:`from_bert_vocab` reads the ``vocab.txt`` of ``tok`` back as ``tok``
    (``{"lowercase": False}`` for a cased BERT, else ``{}``).

    A ``vocab.txt`` holds only the tokens; its readers (ours, HF's ``BertWordPieceTokenizer``) build
    BERT's pipeline around them: ``[UNK]``, ``##`` continuations, ``BertNormalizer``,
    ``BertPreTokenizer``, ``[CLS] A [SEP]`` and the ``WordPiece`` decoder. Any other pipeline would
    come back as a different tokenizer: a :class:`SerializationError` names the difference.
    """
    model = tok.model
    if type(model).__name__ != "WordPiece":
        raise SerializationError(f"save_bert_vocab: the model is {type(model).__name__}; vocab.txt holds WordPiece "
                                 "vocabularies (use save_vocab_merges for BPE)")
    params = model.params()
    why = _model_difference(params, model.get_vocab())
    normalizer = tok.normalizer.to_dict() if tok.normalizer is not None else None
    lowercase = normalizer.get("lowercase", True) if normalizer and normalizer["type"] == "BertNormalizer" else True
    if why is None:
        vocab = {t: i for t, i in model.get_vocab().items() if t}
        specials = [t for t in BERT_SPECIAL_TOKENS if t in vocab]
        # strip_accents equal to lowercase is the default (None) spelled out: the same normalizer
        strip = normalizer.get("strip_accents") if normalizer and normalizer.get("strip_accents") == lowercase else None
        reference = bert_tokenizer(vocab, lowercase=bool(lowercase), strip_accents=strip, special_tokens=specials)
        if set(model.special_tokens) != set(specials):
            why = (f"its special tokens are {sorted(model.special_tokens)!r:.80}, where a vocab.txt makes special "
                   f"the BERT tokens it holds, {specials!r}")
        else:
            why = pipeline_difference(tok, reference, read_as="a vocab.txt is read with")
    if why is not None:
        raise SerializationError(f"save_bert_vocab: a vocab.txt holds only the tokens and is read as BERT's pipeline; "
                                 f"{why}: {SAVE_AS_HF_JSON}")
    return {} if lowercase else {"lowercase": False}


def _model_difference(params: Mapping[str, Any], vocab: Mapping[str, int]) -> str | None:
    """How a WordPiece model's options differ from those of a ``vocab.txt`` reader, or ``None``."""
    if params["unk_token"] != "[UNK]":
        return f"its unknown token is {params['unk_token']!r}, where a vocab.txt is read with '[UNK]'"
    missing = [t for t in ("[UNK]", "[CLS]", "[SEP]") if t not in vocab]
    if missing:
        return (f"its vocabulary has no {' or '.join(map(repr, missing))}, which BERT's pipeline needs "
                "([UNK] for unknown words, [CLS] A [SEP] around each text)")
    if params["continuing_subword_prefix"] != "##":
        return (f"its continuation prefix is {params['continuing_subword_prefix']!r}, where a vocab.txt is read "
                "with '##'")
    if params["max_input_chars_per_word"] != 100:
        return (f"its max_input_chars_per_word is {params['max_input_chars_per_word']}, where a vocab.txt is read "
                "with 100")
    return None
