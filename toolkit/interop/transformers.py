"""The hand-off to ``transformers``: a directory that ``AutoTokenizer.from_pretrained`` loads.

:func:`save_pretrained` writes ``tokenizer.json`` (our HF export), ``tokenizer_config.json`` and
``special_tokens_map.json``. ``transformers`` needs to know which special token plays which role
(``pad_token``, ``unk_token``, ``cls_token``, ``sep_token``, ``mask_token``, ``bos_token``,
``eos_token``): :func:`special_token_roles` infers them from the usual names (``[PAD]``/``<pad>``,
``[CLS]``, ``<s>``/``</s>``, ``<|endoftext|>``, ``<|im_end|>``...; see :data:`ROLE_NAMES`), and a
keyword overrides any of them (``pad_token="<|pad|>"``, or ``None`` to leave a role unset). A
tokenizer with an end-of-sequence token but no padding token pads with the end-of-sequence token, as
is usual for GPT-2 style models. The directory is written all or nothing: the files go to a
temporary directory first, which then replaces the target (a new directory) or whose files replace
the target's one by one (an existing directory).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, SerializationError
from toolkit.interop._io import write_as_unit
from toolkit.interop.hf_json import to_hf_dict

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["ROLES", "ROLE_NAMES", "save_pretrained", "special_token_roles", "transformers_files"]

ROLES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")

#: The names each role is inferred from, first match wins (only special tokens of the tokenizer count).
ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "pad_token": ("[PAD]", "<pad>", "<|pad|>", "<|padding|>", "<PAD>"),
    "unk_token": ("[UNK]", "<unk>", "<|unk|>", "<UNK>", "<|endoftext|>"),
    "cls_token": ("[CLS]", "<cls>", "<s>"),
    "sep_token": ("[SEP]", "<sep>", "</s>"),
    "mask_token": ("[MASK]", "<mask>", "<|mask|>"),
    "bos_token": ("<s>", "<bos>", "<|begin_of_text|>", "<|startoftext|>", "[BOS]", "<|endoftext|>"),
    "eos_token": ("</s>", "<eos>", "<|end_of_text|>", "<|endoftext|>", "<|im_end|>", "<|eot_id|>", "[EOS]"),
}

_MAX_LENGTH = 1_000_000_000_000_000_019_884_624_838_656  # transformers' "no limit" (int(1e30))


def special_token_roles(tok: Tokenizer, **overrides: str | None) -> dict[str, str]:
    """Role → special token: inferred from :data:`ROLE_NAMES`, then ``overrides`` (``None`` unsets).

    BERT-style tokenizers (``[CLS]``/``[SEP]``) get no ``bos``/``eos``; byte-level ones without a
    padding token pad with their end-of-sequence token.
    """
    unknown = set(overrides) - set(ROLES)
    if unknown:
        raise ConfigError(f"save_pretrained: unknown role(s) {', '.join(sorted(unknown))}; roles: {', '.join(ROLES)}")
    specials = tok.special_tokens
    roles: dict[str, str] = {}
    for role in ROLES:
        found = next((name for name in ROLE_NAMES[role] if name in specials), None)
        if found is not None:
            roles[role] = found
    if "cls_token" in roles and roles["cls_token"] == "[CLS]":
        for role in ("bos_token", "eos_token"):  # BERT: [CLS]/[SEP] are not bos/eos
            if roles.get(role) == "<|endoftext|>":
                del roles[role]
    if "pad_token" not in roles and "eos_token" in roles:
        roles["pad_token"] = roles["eos_token"]
    for role, token in overrides.items():
        if token is None:
            roles.pop(role, None)
            continue
        if not isinstance(token, str):
            raise ConfigError(f"save_pretrained: {role} must be a str or None, got {type(token).__name__}")
        if tok.token_to_id(token) is None:
            raise ConfigError(f"save_pretrained: {role}={token!r} is not in the vocabulary; add it as a special token first")
        roles[role] = token
    return {role: roles[role] for role in ROLES if role in roles}


def transformers_files(tok: Tokenizer, **overrides: str | None) -> dict[str, Any]:
    """File name → JSON document of the three files (nothing written)."""
    roles = special_token_roles(tok, **overrides)
    document = to_hf_dict(tok)
    # transformers sets truncation and padding per call (padding=True, truncation=True, max_length=...):
    # our settings become its defaults (model_max_length, padding_side) instead of the backend's.
    document["truncation"] = None
    document["padding"] = None
    truncation, padding = tok.truncation, tok.padding
    decoder = {
        str(a["id"]): {k: a[k] for k in ("content", "lstrip", "normalized", "rstrip", "single_word", "special")}
        for a in document["added_tokens"]
    }
    config: dict[str, Any] = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": truncation["max_length"] if truncation else _MAX_LENGTH,
        "padding_side": padding["direction"] if padding else "right",
        "truncation_side": truncation["direction"] if truncation else "right",
        "clean_up_tokenization_spaces": False,
        "added_tokens_decoder": decoder,
        **roles,
    }
    return {"tokenizer.json": document, "tokenizer_config.json": config, "special_tokens_map.json": dict(roles)}


def save_pretrained(tok: Tokenizer, directory: str | os.PathLike[str], **overrides: str | None) -> list[str]:
    """Write the directory for ``transformers.AutoTokenizer.from_pretrained``; the paths written."""
    if not isinstance(directory, (str, os.PathLike)):
        raise SerializationError(f"directory must be a path, got {type(directory).__name__}")
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise SerializationError(f"{target}: exists and is not a directory; give a directory path")
    files = transformers_files(tok, **overrides)

    def write(staging: Path) -> list[Path]:
        for name, doc in files.items():
            (staging / name).write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return [staging / name for name in files]

    try:
        write_as_unit(target, write)
    except OSError as exc:
        raise SerializationError(f"{target}: cannot write: {exc.strerror}") from None
    return [str(target / name) for name in files]


def load_pretrained(directory: str | os.PathLike[str], **options: Any) -> Tokenizer:
    """Read the ``tokenizer.json`` of a ``save_pretrained`` directory (ours or transformers')."""
    from toolkit.interop.hf_json import load_hf_json

    path = Path(directory)
    if not (path / "tokenizer.json").is_file():
        raise SerializationError(f"{path}: no tokenizer.json in this directory (a transformers tokenizer directory has one)")
    return load_hf_json(path / "tokenizer.json", **{k: v for k, v in options.items() if k == "strict"})


def roles_summary(roles: Mapping[str, str]) -> str:
    """``pad=[PAD] unk=[UNK] ...`` for messages."""
    return " ".join(f"{role[:-6]}={token}" for role, token in roles.items())
