"""The components of a Hugging Face ``tokenizer.json``, converted one by one to ours and back.

This module owns the mapping between HF's serialized pipeline components and ours (the table is in
:mod:`toolkit.interop.hf_json` and ``docs/interop.md``): ``imp_<kind>(hf_dict, where)`` returns our
component dict, ``exp_<kind>(component)`` the HF dict; the truncation and padding settings likewise
(``truncation_from_hf``, ``padding_to_hf``...). A component or option with no equivalent is
:class:`Unsupported` (a :class:`~toolkit.errors.SerializationError` naming its path in the file).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, repeat
from typing import Any

from pretokenizers.pinned import from_hf_spelling, hf_spelling
from toolkit.bytelevel import BYTE_TO_CHAR, CHAR_TO_BYTE
from toolkit.decoders import SPACE
from toolkit.errors import ConfigError, SerializationError
from toolkit.interop.sentencepiece import extra_space_steps
from toolkit.padding import padding_params, truncation_params

__all__ = [
    "Json",
    "Unsupported",
    "contains_byte_level",
    "exp_decoder",
    "exp_model",
    "exp_normalizer",
    "exp_post_processor",
    "exp_pre_tokenizer",
    "imp_decoder",
    "imp_model",
    "imp_normalizer",
    "imp_post_processor",
    "imp_pre_tokenizer",
    "padding_from_hf",
    "padding_to_hf",
    "truncation_from_hf",
    "truncation_to_hf",
]

# HF's spelling of Split/Punctuation behaviours ↔ ours.
_BEHAVIOR_TO_HF = {
    "removed": "Removed",
    "isolated": "Isolated",
    "merged_with_previous": "MergedWithPrevious",
    "merged_with_next": "MergedWithNext",
    "contiguous": "Contiguous",
}
_BEHAVIOR_FROM_HF = {v: k for k, v in _BEHAVIOR_TO_HF.items()}

Json = dict[str, Any]


class Unsupported(SerializationError):
    """A component or option with no equivalent here. ``if_dropped`` (what dropping it changes) marks
    the ones ``strict=False`` may drop with a warning."""

    def __init__(self, message: str, *, if_dropped: str | None = None) -> None:
        super().__init__(message)
        self.if_dropped = if_dropped


# ============================================================================ small helpers
def _type(d: Any, where: str) -> str:
    if not isinstance(d, Mapping):
        raise SerializationError(f"{where}: must be an object with a \"type\" field, got {type(d).__name__}")
    t = d.get("type")
    if not isinstance(t, str):
        raise SerializationError(f"{where}.type: required field is missing or not a string")
    return t


def _field(d: Mapping[str, Any], name: str, where: str, default: Any = ...) -> Any:
    """``d[name]``, or ``default`` when absent (no default: a missing field is an error).

    Values are not type-checked here: the component built from them validates its options in full.
    """
    if name not in d:
        if default is ...:
            raise SerializationError(f"{where}.{name}: required field is missing")
        return default
    return d[name]


def _token_and_id(value: Any, where: str) -> tuple[str, int]:
    """HF's ``["[SEP]", 102]`` pairs."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], int):
        return value[0], value[1]
    raise SerializationError(f"{where}: expected [token, id], got {value!r}")


def _children(d: Mapping[str, Any], name: str, where: str) -> list[Any]:
    items = _field(d, name, where)
    if not isinstance(items, list):
        raise SerializationError(f"{where}.{name}: must be a list, got {type(items).__name__}")
    return items


def _pattern_from_hf(value: Any, where: str) -> tuple[str, bool]:
    """HF ``{"String": s}`` / ``{"Regex": r}`` → ``(pattern, is_literal)``."""
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, inner),) = value.items()
        if key in ("String", "Regex") and isinstance(inner, str):
            return inner, key == "String"
    raise SerializationError(f'{where}: expected {{"String": ...}} or {{"Regex": ...}}, got {value!r}')


# ============================================================================ import: HF dict → our dict
def imp_normalizer(d: Any, where: str) -> Json:
    t = _type(d, where)
    if t in ("NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents", "Nmt", "ByteLevel"):
        return {"type": t}
    if t == "Precompiled":
        return {"type": "Precompiled", "precompiled_charsmap": _field(d, "precompiled_charsmap", where)}
    if t == "Strip":
        return {
            "type": "Strip",
            "left": _field(d, "strip_left", where, True),
            "right": _field(d, "strip_right", where, True),
        }
    if t == "Replace":
        _pattern_from_hf(_field(d, "pattern", where), f"{where}.pattern")  # validate the shape
        return {"type": "Replace", "pattern": d["pattern"], "content": _field(d, "content", where)}
    if t == "Prepend":
        return {"type": "Prepend", "prepend": _field(d, "prepend", where)}
    if t == "BertNormalizer":
        return {
            "type": "BertNormalizer",
            "clean_text": _field(d, "clean_text", where, True),
            "handle_chinese_chars": _field(d, "handle_chinese_chars", where, True),
            "strip_accents": _field(d, "strip_accents", where, None),
            "lowercase": _field(d, "lowercase", where, True),
        }
    if t == "Sequence":
        items = _children(d, "normalizers", where)
        return {
            "type": "Sequence",
            "normalizers": [imp_normalizer(c, f"{where}.normalizers[{i}]") for i, c in enumerate(items)],
        }
    raise Unsupported(f"{where}: the HF normalizer {t!r} has no equivalent in tokenizer-toolkit")


def _metaspace_fields(d: Mapping[str, Any], where: str) -> Json:
    replacement = _field(d, "replacement", where, "▁")
    if "prepend_scheme" in d:
        scheme = d["prepend_scheme"]
        if d.get("add_prefix_space") is False and scheme != "never":  # HF refuses this contradiction too
            raise SerializationError(
                f"{where}: add_prefix_space false contradicts prepend_scheme {scheme!r}; "
                'remove add_prefix_space (prepend_scheme replaced it) or set prepend_scheme to "never"'
            )
    else:  # tokenizers < 0.19 wrote add_prefix_space instead of prepend_scheme
        scheme = "always" if _field(d, "add_prefix_space", where, True) else "never"
    return {"replacement": replacement, "prepend_scheme": scheme, "split": _field(d, "split", where, True)}


def imp_pre_tokenizer(d: Any, where: str) -> Json:
    t = _type(d, where)
    if t == "ByteLevel":
        return {
            "type": "ByteLevel",
            "add_prefix_space": _field(d, "add_prefix_space", where, True),
            "use_regex": _field(d, "use_regex", where, True),
            "trim_offsets": _field(d, "trim_offsets", where, True),
        }
    if t == "Split":
        pattern, literal = _pattern_from_hf(_field(d, "pattern", where), f"{where}.pattern")
        behavior = _field(d, "behavior", where)
        if not isinstance(behavior, str) or behavior not in _BEHAVIOR_FROM_HF:
            raise SerializationError(
                f"{where}.behavior: unknown behavior {behavior!r}; expected one of {', '.join(_BEHAVIOR_FROM_HF)}"
            )
        return {
            "type": "Split",
            # Oniguruma's X{n,m}+ kept as HF reads it
            "pattern": {"String": pattern} if literal else {"Regex": from_hf_spelling(pattern)},
            "behavior": _BEHAVIOR_FROM_HF[behavior],
            "invert": _field(d, "invert", where, False),
        }
    if t in ("Whitespace", "WhitespaceSplit", "BertPreTokenizer"):
        return {"type": t}
    if t == "Punctuation":
        behavior = _field(d, "behavior", where, "Isolated")
        if not isinstance(behavior, str) or behavior not in _BEHAVIOR_FROM_HF:
            raise SerializationError(f"{where}.behavior: unknown behavior {behavior!r}")
        return {"type": "Punctuation", "behavior": _BEHAVIOR_FROM_HF[behavior]}
    if t == "Digits":
        return {"type": "Digits", "individual_digits": _field(d, "individual_digits", where, False)}
    if t == "Metaspace":
        return {"type": "Metaspace", **_metaspace_fields(d, where)}
    # UnicodeScripts, CharDelimiterSplit, FixedLength: HF's fields as they are.
    if t == "UnicodeScripts":
        return {"type": t}
    if t == "CharDelimiterSplit":
        return {"type": t, "delimiter": _field(d, "delimiter", where)}
    if t == "FixedLength":
        return {"type": t, "length": _field(d, "length", where, 5)}
    if t == "Sequence":
        items = _children(d, "pretokenizers", where)
        return {
            "type": "Sequence",
            "pretokenizers": [imp_pre_tokenizer(c, f"{where}.pretokenizers[{i}]") for i, c in enumerate(items)],
        }
    raise Unsupported(f"{where}: the HF pre-tokenizer {t!r} has no equivalent in tokenizer-toolkit")


def imp_decoder(d: Any, where: str) -> Json:
    t = _type(d, where)
    if t == "ByteLevel":
        return {"type": "ByteLevel"}
    if t == "WordPiece":
        return {
            "type": "WordPiece",
            "prefix": _field(d, "prefix", where, "##"),
            "cleanup": _field(d, "cleanup", where, True),
        }
    if t == "Metaspace":
        return {"type": "Metaspace", **_metaspace_fields(d, where)}
    if t == "BPEDecoder":
        return {"type": "BPEDecoder", "suffix": _field(d, "suffix", where, "</w>")}
    if t in ("ByteFallback", "Fuse"):
        return {"type": t}
    if t == "CTC":
        return {
            "type": "CTC",
            "pad_token": _field(d, "pad_token", where, "<pad>"),
            "word_delimiter_token": _field(d, "word_delimiter_token", where, "|"),
            "cleanup": _field(d, "cleanup", where, True),
        }
    if t == "Strip":
        return {
            "type": "Strip",
            "content": _field(d, "content", where, " "),
            "left": _field(d, "start", where, 0),
            "right": _field(d, "stop", where, 0),
        }
    if t == "Replace":
        _pattern_from_hf(_field(d, "pattern", where), f"{where}.pattern")
        return {"type": "Replace", "pattern": d["pattern"], "content": _field(d, "content", where)}
    if t == "Sequence":
        items = _children(d, "decoders", where)
        return {
            "type": "Sequence",
            "decoders": [imp_decoder(c, f"{where}.decoders[{i}]") for i, c in enumerate(items)],
        }
    # Every decoder of HF tokenizers 0.23 imports; a newer one changes only what decode returns.
    raise Unsupported(f"{where}: the HF decoder {t!r} has no equivalent in tokenizer-toolkit",
                      if_dropped="decode then joins the tokens with spaces; ids are unchanged")


def imp_post_processor(d: Any, where: str) -> Json:
    t = _type(d, where)
    if t == "TemplateProcessing":
        # Our TemplateProcessing reads and writes HF's JSON form of templates and special tokens.
        return {
            "type": "TemplateProcessing",
            "single": _field(d, "single", where),
            "pair": _field(d, "pair", where),
            "special_tokens": _field(d, "special_tokens", where, {}),
        }
    if t == "BertProcessing":
        return {"type": "BertProcessing", "sep": _field(d, "sep", where), "cls": _field(d, "cls", where)}
    if t == "ByteLevel":
        return {
            "type": "ByteLevel",
            "add_prefix_space": _field(d, "add_prefix_space", where, True),
            "trim_offsets": _field(d, "trim_offsets", where, True),
            "use_regex": _field(d, "use_regex", where, True),
        }
    if t == "RobertaProcessing":
        if "trim_offsets" not in d or "add_prefix_space" not in d:
            # HF reads such an entry (its fields have no defaults there) as the next kind that fits,
            # BertProcessing: [CLS] A [SEP] B [SEP] with type id 1 on B. The same file, the same ids.
            return imp_post_processor({"type": "BertProcessing", "sep": _field(d, "sep", where),
                                       "cls": _field(d, "cls", where)}, where)
        return {
            "type": "RobertaProcessing",
            "sep": list(_token_and_id(_field(d, "sep", where), f"{where}.sep")),
            "cls": list(_token_and_id(_field(d, "cls", where), f"{where}.cls")),
            "trim_offsets": _field(d, "trim_offsets", where, True),
            "add_prefix_space": _field(d, "add_prefix_space", where, True),
        }
    if t == "Sequence":
        items = _children(d, "processors", where)
        return {
            "type": "Sequence",
            "processors": [imp_post_processor(c, f"{where}.processors[{i}]") for i, c in enumerate(items)],
        }
    raise Unsupported(f"{where}: the HF post-processor {t!r} has no equivalent in tokenizer-toolkit")


def _merges_from_hf(merges: Any, where: str) -> list[Sequence[str]]:
    """Merges as ``[[l, r], ...]`` (tokenizers >= 0.20, returned as they are) or ``["l r", ...]``
    (older files, split into pairs)."""
    if not isinstance(merges, list):
        raise SerializationError(f"{where}: must be a list")
    # The usual file (tokenizers >= 0.20): pairs of strings, checked in C-speed passes (large LLM
    # files hold hundreds of thousands of merges); anything else takes the loop, which names it.
    kinds = set(map(type, merges))
    if kinds == {list} and set(map(len, merges)) == {2}:
        if set(map(type, chain.from_iterable(merges))) == {str}:
            return merges
    elif kinds == {str}:  # older files (Llama 3): "left right"
        pairs = list(map(str.split, merges, repeat(" ")))
        if set(map(len, pairs)) == {2}:
            return pairs
    out: list[Sequence[str]] = []
    for i, m in enumerate(merges):
        if isinstance(m, str):
            parts = m.split(" ")
            if len(parts) != 2:
                raise SerializationError(
                    f"{where}[{i}]: a merge string must be two tokens separated by one space, got {m!r}"
                )
            out.append((parts[0], parts[1]))
        elif isinstance(m, list) and len(m) == 2 and all(isinstance(p, str) for p in m):
            out.append((m[0], m[1]))
        else:
            raise SerializationError(f"{where}[{i}]: a merge must be \"left right\" or [left, right], got {m!r}")
    return out


def contains_byte_level(pre: Any) -> bool:
    if not isinstance(pre, Mapping):
        return False
    if pre.get("type") == "ByteLevel":
        return True
    if pre.get("type") == "Sequence":
        children = pre.get("pretokenizers")
        return isinstance(children, list) and any(contains_byte_level(c) for c in children)
    return False


def imp_model(d: Any, where: str, *, byte_level: bool, specials: dict[str, int]) -> Json:
    """HF model → our model dict. ``specials`` (content → id) come from ``added_tokens``."""
    t = _type(d, where)
    if t not in ("BPE", "WordPiece", "Unigram", "WordLevel"):
        raise Unsupported(
            f"{where}: the HF model {t!r} has no equivalent in tokenizer-toolkit "
            "(BPE, WordPiece, Unigram and WordLevel are supported)"
        )
    if t == "Unigram":
        return _imp_unigram(d, where, specials)
    vocab = _field(d, "vocab", where)
    if not isinstance(vocab, Mapping):
        raise SerializationError(f"{where}.vocab: must be an object {{token: id}}")
    vocab = dict(vocab)
    for token, token_id in specials.items():
        if token in vocab and vocab[token] != token_id:
            raise SerializationError(
                f"added_tokens: {token!r} has id {token_id} but the model vocabulary gives it {vocab[token]}"
            )
    if t == "WordLevel":
        vocab.update(specials)
        return {"type": "WordLevel", "vocab": vocab, "unk_token": _field(d, "unk_token", where, "<unk>"),
                "special_tokens": list(specials)}
    if t == "WordPiece":
        vocab.update(specials)
        return {
            "type": "WordPiece",
            "vocab": vocab,
            "unk_token": _field(d, "unk_token", where, "[UNK]"),
            "continuing_subword_prefix": _field(d, "continuing_subword_prefix", where, "##"),
            "max_input_chars_per_word": _field(d, "max_input_chars_per_word", where, 100),
            "special_tokens": list(specials),
        }
    return _imp_bpe(d, where, vocab, byte_level=byte_level, specials=specials)


def _imp_unigram(d: Any, where: str, specials: dict[str, int]) -> Json:
    """HF Unigram → our Unigram. A special added token inside the piece list must be the piece at its
    position, and becomes a special piece; one after the list stays an added token of the pipeline
    (as ``add_special_tokens`` on a Unigram tokenizer makes it)."""
    vocab = _field(d, "vocab", where)
    if not isinstance(vocab, list):
        raise SerializationError(f"{where}.vocab: must be a list of [piece, score] pairs")
    inside = {token: token_id for token, token_id in specials.items() if token_id < len(vocab)}
    for token, token_id in inside.items():
        entry = vocab[token_id]
        piece = entry[0] if isinstance(entry, (list, tuple)) and entry else entry
        if piece != token:
            raise SerializationError(
                f"added_tokens: {token!r} has id {token_id} but the Unigram piece at that position is {piece!r:.60}"
            )
    return {
        "type": "Unigram",
        "vocab": vocab,
        "unk_id": _field(d, "unk_id", where, None),
        "byte_fallback": _field(d, "byte_fallback", where, False),
        "special_tokens": list(inside),
    }


def _spm_bpe_merges(pieces: list[tuple[str, float]], closed: set[str]) -> list[tuple[str, str]]:
    """The merges of a SentencePiece BPE model for a rank-based BPE: every split of every piece into two
    pieces, ordered by the score of the piece they make (as HF's ``SentencePieceExtractor``)."""
    ids = {p: i for i, (p, _) in enumerate(pieces) if p not in closed}
    found: list[tuple[float, int, int, int, str, str]] = []
    for piece, score in pieces:
        if piece not in ids:
            continue
        for k in range(1, len(piece)):
            left, right = piece[:k], piece[k:]
            if left in ids and right in ids:
                found.append((-score, ids[piece], ids[left], ids[right], left, right))
    found.sort()
    return [(left, right) for *_, left, right in found]


def _imp_bpe(d: Any, where: str, vocab: dict[str, int], *, byte_level: bool, specials: dict[str, int]) -> Json:
    """HF BPE → our ``ByteLevelBPE`` (a plain BPE over the 256 byte characters of a byte-level pipeline) or ``BPE``."""
    dropout = _field(d, "dropout", where, None)
    if dropout is not None and (isinstance(dropout, bool) or not isinstance(dropout, (int, float))):
        raise SerializationError(f"{where}.dropout: must be a number between 0 and 1 or null, got {dropout!r}")
    dropout = None if dropout is None else float(dropout)
    merges = _merges_from_hf(_field(d, "merges", where, []), f"{where}.merges")
    options = {
        "unk_token": _field(d, "unk_token", where, None),
        "continuing_subword_prefix": _field(d, "continuing_subword_prefix", where, None),
        "end_of_word_suffix": _field(d, "end_of_word_suffix", where, None),
        "fuse_unk": _field(d, "fuse_unk", where, False),
        "byte_fallback": _field(d, "byte_fallback", where, False),
        "ignore_merges": _field(d, "ignore_merges", where, False),
    }
    # A byte-level pipeline with a plain BPE over the 256 byte characters is our ByteLevelBPE
    # (nothing is ever unknown); anything with unk/prefix/suffix/byte fallback stays a BPE.
    plain = not any(options[k] for k in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix",
                                         "byte_fallback"))
    if byte_level and plain and all(c in vocab for c in BYTE_TO_CHAR):
        # A special token spelled as one byte (a special "é", the byte 0xE9) stays the byte's token in
        # the model, which needs all 256, and special in the pipeline's added tokens only, as HF keeps
        # it and as add_special_tokens(["é"]) leaves our model
        model_specials = {token: i for token, i in specials.items() if token not in CHAR_TO_BYTE}
        return {
            "type": "ByteLevelBPE",
            "vocab": {token: i for token, i in vocab.items() if token not in model_specials},
            "merges": merges,
            "special_tokens": model_specials,
            "ignore_merges": options["ignore_merges"],
            "mode": "merges",
            "dropout": dropout,
        }
    vocab.update(specials)
    return {
        "type": "BPE",
        "vocab": vocab,
        "merges": merges,
        **options,
        "special_tokens": list(specials),
        "dropout": dropout,
    }


# ============================================================================ export: our component → HF dict
def _unsupported_export(kind: str, component: Any) -> SerializationError:
    return SerializationError(
    f"to_hf_json: the {kind} {type(component).__name__} has no Hugging Face equivalent"
    )


def exp_normalizer(n: Any) -> Json:
    d = n.to_dict()
    t = d["type"]
    if t in ("NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents", "Nmt", "ByteLevel"):
        return {"type": t}
    if t == "Precompiled":
        # HF has one matching rule (grapheme clusters); "sentencepiece" matching differs from it only where
        # a cluster starts with a character that has a rule of its own (docs/interop.md).
        hf = {"type": "Precompiled", "precompiled_charsmap": d["precompiled_charsmap"]}
        if not d["remove_extra_whitespaces"]:
            return hf
        # HF's steps for SentencePiece's space removal (which they apply inside user symbols too)
        return {"type": "Sequence", "normalizers": [hf, *extra_space_steps()]}
    if t == "Strip":
        return {"type": "Strip", "strip_left": d["left"], "strip_right": d["right"]}
    if t == "Replace":
        return {"type": "Replace", "pattern": d["pattern"], "content": d["content"]}
    if t == "Prepend":
        return {"type": "Prepend", "prepend": d["prepend"]}
    if t == "BertNormalizer":
        return {k: d[k] for k in ("type", "clean_text", "handle_chinese_chars", "strip_accents", "lowercase")}
    if t == "Sequence":
        return {"type": "Sequence", "normalizers": [exp_normalizer(c) for c in n.normalizers]}
    raise _unsupported_export("normalizer", n)


def exp_pre_tokenizer(p: Any) -> Json:
    d = p.to_dict()
    t = d["type"]
    if t == "ByteLevel":
        return {
            "type": "ByteLevel",
            "add_prefix_space": d["add_prefix_space"],
            "trim_offsets": d.get("trim_offsets", True),
            "use_regex": d["use_regex"],
        }
    if t == "Split":
        pattern = d["pattern"]  # {"String": s} or {"Regex": r}, as in HF
        return {
            "type": "Split",
            # Possessive intervals (cl100k's \p{N}{1,3}+) in a spelling Oniguruma reads the same way.
            "pattern": {"Regex": hf_spelling(pattern["Regex"])} if "Regex" in pattern else pattern,
            "behavior": _BEHAVIOR_TO_HF[d["behavior"]],
            "invert": d["invert"],
        }
    if t in ("Whitespace", "WhitespaceSplit", "BertPreTokenizer"):
        return {"type": t}
    if t == "Punctuation":
        return {"type": "Punctuation", "behavior": _BEHAVIOR_TO_HF[d["behavior"]]}
    if t == "Digits":
        return {"type": "Digits", "individual_digits": d["individual_digits"]}
    if t == "Metaspace":
        return {k: d[k] for k in ("type", "replacement", "prepend_scheme", "split")}
    # The same fields on both sides.
    if t in ("UnicodeScripts", "CharDelimiterSplit", "FixedLength"):
        return dict(d)
    if t == "Sequence":
        return {"type": "Sequence", "pretokenizers": [exp_pre_tokenizer(c) for c in p.pretokenizers]}
    raise _unsupported_export("pre-tokenizer", p)


def exp_decoder(dec: Any) -> Json:
    d = dec.to_dict()
    t = d["type"]
    if t == "ByteLevel":
        return {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    if t == "WordPiece":
        return {"type": "WordPiece", "prefix": d["prefix"], "cleanup": d["cleanup"]}
    if t == "Metaspace":
        return {k: d[k] for k in ("type", "replacement", "prepend_scheme", "split")}
    if t == "BPEDecoder":
        return {"type": "BPEDecoder", "suffix": d["suffix"]}
    if t in ("ByteFallback", "Fuse"):
        return {"type": t}
    if t == "CTC":
        return {k: d[k] for k in ("type", "pad_token", "word_delimiter_token", "cleanup")}
    if t == "Strip":
        return {"type": "Strip", "content": d["content"], "start": d["left"], "stop": d["right"]}
    if t == "Replace":
        return {"type": "Replace", "pattern": d["pattern"], "content": d["content"]}
    if t == "Sequence":
        return {"type": "Sequence", "decoders": [exp_decoder(c) for c in dec.decoders]}
    if t == "SentencePiece":  # HF's converter's chain: the same text but at the edges (docs/interop.md)
        chain: list[Json] = [{"type": "Replace", "pattern": {"String": SPACE}, "content": " "}]
        chain += [{"type": "ByteFallback"}] if d["byte_fallback"] else []
        chain.append({"type": "Fuse"})
        if d["add_dummy_prefix"] or d["remove_extra_whitespaces"]:
            chain.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
        return {"type": "Sequence", "decoders": chain}
    raise _unsupported_export("decoder", dec)


def exp_post_processor(pp: Any) -> Json:
    d = pp.to_dict()
    t = d["type"]
    if t == "BertProcessing":
        return {"type": "BertProcessing", "sep": list(d["sep"]), "cls": list(d["cls"])}
    if t == "TemplateProcessing":
        # Stored in HF's JSON form already (templates as piece lists, special tokens as id/ids/tokens).
        return {k: d[k] for k in ("type", "single", "pair", "special_tokens")}
    if t == "ByteLevel":
        return {k: d[k] for k in ("type", "add_prefix_space", "trim_offsets", "use_regex")}
    if t == "RobertaProcessing":
        return {"type": "RobertaProcessing", "sep": list(d["sep"]), "cls": list(d["cls"]),
                "trim_offsets": d["trim_offsets"], "add_prefix_space": d["add_prefix_space"]}
    if t == "Sequence":
        return {"type": "Sequence", "processors": [exp_post_processor(c) for c in pp.processors]}
    raise _unsupported_export("post-processor", pp)


def _merges_to_hf(merges: list[tuple[str, str]]) -> list[Any]:
    # "left right" strings load in every tokenizers version; list pairs (>= 0.20) are needed only
    # when a token contains a space.
    if any(" " in left or " " in right for left, right in merges):
        return [[left, right] for left, right in merges]
    return [f"{left} {right}" for left, right in merges]


def exp_model(model: Any) -> Json:
    t = type(model).__name__
    vocab = dict(sorted(model.get_vocab().items(), key=lambda kv: kv[1]))
    if t == "WordPiece":
        return {
            "type": "WordPiece",
            "unk_token": model.unk_token,
            "continuing_subword_prefix": model.continuing_subword_prefix,
            "max_input_chars_per_word": model.max_input_chars_per_word,
            "vocab": vocab,
        }
    if t == "Unigram":
        return {"type": "Unigram", "unk_id": model.unk_id, "vocab": [[p, sc] for p, sc in model.vocab],
                "byte_fallback": model.byte_fallback}
    if t == "WordLevel":
        return {"type": "WordLevel", "vocab": vocab, "unk_token": model.unk_token}
    if t == "BPE":
        return {
            "type": "BPE",
            "dropout": model.dropout,
            "unk_token": model.unk_token,
            "continuing_subword_prefix": model.continuing_subword_prefix,
            "end_of_word_suffix": model.end_of_word_suffix,
            "fuse_unk": model.fuse_unk,
            "byte_fallback": model.byte_fallback,
            "ignore_merges": model.ignore_merges,
            "vocab": vocab,
            "merges": _merges_to_hf(list(model.merges)),
        }
    if t == "ByteLevelBPE":
        # Rank-mode models (tiktoken files) export the merges derived from their ranks, with
        # ignore_merges=True: a piece that is a token stays whole, as tiktoken does.
        return {
            "type": "BPE",
            "dropout": model.dropout,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": bool(model.ignore_merges),
            "vocab": vocab,
            "merges": _merges_to_hf(list(model.merges)),
        }
    if t == "SentencePieceBPE":
        # HF's converter's form: a rank-based BPE with merges ordered by the score of the merged piece.
        pieces = model.get_scores()
        closed = set(model.special_tokens) | ({pieces[model.unk_id][0]} if model.unk_id is not None else set())
        if model.byte_fallback:
            closed |= {f"<0x{b:02X}>" for b in range(256)}
        return {
            "type": "BPE",
            "dropout": None,
            "unk_token": pieces[model.unk_id][0] if model.unk_id is not None else None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": True,
            "byte_fallback": model.byte_fallback,
            "ignore_merges": False,
            "vocab": vocab,
            "merges": _merges_to_hf(_spm_bpe_merges(pieces, closed)),
        }
    raise SerializationError(
        f"to_hf_json: the model {t} has no Hugging Face equivalent (BPE, ByteLevelBPE, WordPiece, Unigram, WordLevel, "
        "SentencePieceBPE)"
    )


# ---------------------------------------------------------------------------------------- truncation, padding
_HF_STRATEGY = {"longest_first": "LongestFirst", "only_first": "OnlyFirst", "only_second": "OnlySecond"}


def _direction_from_hf(value: Any, where: str) -> str:
    if value not in ("Left", "Right"):
        raise SerializationError(f"{where}.direction: expected 'Left' or 'Right', got {value!r:.60}")
    return str(value).lower()


def truncation_to_hf(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The ``truncation`` field of a ``tokenizer.json``."""
    if params is None:
        return None
    return {"direction": params["direction"].capitalize(), "max_length": params["max_length"],
            "strategy": _HF_STRATEGY[params["strategy"]], "stride": params["stride"]}


def truncation_from_hf(d: Any, where: str = "truncation") -> dict[str, Any] | None:
    """Our settings from the ``truncation`` field of a ``tokenizer.json``."""
    if d is None:
        return None
    if not isinstance(d, Mapping):
        raise SerializationError(f"{where}: must be an object or null")
    strategies = {v: k for k, v in _HF_STRATEGY.items()}
    if d.get("strategy", "LongestFirst") not in strategies:
        raise SerializationError(f"{where}.strategy: expected one of {', '.join(strategies)}, got {d.get('strategy')!r:.60}")
    try:
        return truncation_params(d.get("max_length"), stride=d.get("stride", 0),
                                 strategy=strategies[d.get("strategy", "LongestFirst")],
                                 direction=_direction_from_hf(d.get("direction", "Right"), where))
    except ConfigError as exc:
        raise SerializationError(f"{where}: {exc}") from None


def padding_to_hf(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The ``padding`` field of a ``tokenizer.json``."""
    if params is None:
        return None
    strategy: Any = "BatchLongest" if params["length"] is None else {"Fixed": params["length"]}
    return {"strategy": strategy, "direction": params["direction"].capitalize(),
            "pad_to_multiple_of": params["pad_to_multiple_of"], "pad_id": params["pad_id"],
            "pad_type_id": params["pad_type_id"], "pad_token": params["pad_token"]}


def padding_from_hf(d: Any, where: str = "padding") -> dict[str, Any] | None:
    """Our settings from the ``padding`` field of a ``tokenizer.json``."""
    if d is None:
        return None
    if not isinstance(d, Mapping):
        raise SerializationError(f"{where}: must be an object or null")
    strategy = d.get("strategy", "BatchLongest")
    if strategy == "BatchLongest":
        length = None
    elif isinstance(strategy, Mapping) and set(strategy) == {"Fixed"}:
        length = strategy["Fixed"]
    else:
        raise SerializationError(f'{where}.strategy: expected "BatchLongest" or {{"Fixed": n}}, got {strategy!r:.60}')
    try:
        return padding_params(direction=_direction_from_hf(d.get("direction", "Right"), where),
                              pad_id=d.get("pad_id", 0), pad_type_id=d.get("pad_type_id", 0),
                              pad_token=d.get("pad_token", "[PAD]"), length=length,
                              pad_to_multiple_of=d.get("pad_to_multiple_of"))
    except ConfigError as exc:
        raise SerializationError(f"{where}: {exc}") from None
