"""The hand-off to ``transformers``: a directory that ``AutoTokenizer.from_pretrained`` loads.

:func:`save_pretrained` writes ``tokenizer.json`` (our HF export), ``tokenizer_config.json`` and
``special_tokens_map.json``. ``transformers`` needs to know which special token plays which role
(``pad_token``, ``unk_token``, ``cls_token``, ``sep_token``, ``mask_token``, ``bos_token``,
``eos_token``): :func:`special_token_roles` infers them from the usual names (``[PAD]``/``<pad>``,
``[CLS]``, ``<s>``/``</s>``, ``<|endoftext|>``, ``<|im_end|>``...; see :data:`ROLE_NAMES`), and a
keyword overrides any of them (``pad_token="<|pad|>"``, or ``None`` to leave a role unset). A
tokenizer with an end-of-sequence token but no padding token pads with the end-of-sequence token, as
is usual for GPT-2 style models; a template whose single sequence starts with a special token makes
it the beginning-of-sequence token; the special token ``enable_padding`` pads with is the padding
token. ``template=`` (a model's directory or its ``tokenizer_config.json``) carries that model's
settings over instead (roles, chat template, ``model_max_length``, padding side,
``add_bos_token``...: :data:`CARRIED`), so a tokenizer loaded from a model and saved again behaves in
``transformers`` as the original. ``model_input_names`` lists ``token_type_ids`` only when the
post-processor gives a second sequence other type ids (BERT), as the models that take them expect.
The directory is written all or nothing: the files go to a temporary directory first, which then
replaces the target (a new directory) or whose files replace the target's one by one (an existing
directory), and the files ``transformers`` would read instead of ours (:data:`STALE_FILES`) are
removed in the same step.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, SerializationError
from toolkit.interop._io import read_bytes, write_as_unit
from toolkit.interop.hf_floats import dumps_hf
from toolkit.interop.hf_json import to_hf_dict
from toolkit.serialization import parse_json, utf8

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
    "bos_token": ("<s>", "<bos>", "<|begin_of_text|>", "<|startoftext|>", "[BOS]", "<｜begin▁of▁sentence｜>",
                  "<|endoftext|>"),
    "eos_token": ("</s>", "<eos>", "<|end_of_text|>", "<|endoftext|>", "<|im_end|>", "<|eot_id|>", "[EOS]",
                  "<｜end▁of▁sentence｜>"),
}

#: The settings of a model's ``tokenizer_config.json`` that ``template=`` carries over (with the roles).
#: The class's own options among them (``legacy``: Llama's class keeps the ``▁`` of a word after a
#: special token only with ``legacy: true``) change what transformers gives, as for the original.
CARRIED = ("tokenizer_class", "chat_template", "model_max_length", "padding_side", "truncation_side",
           "add_bos_token", "add_eos_token", "add_prefix_space", "clean_up_tokenization_spaces",
           "model_input_names", "additional_special_tokens", "extra_special_tokens", "legacy",
           "spaces_between_special_tokens", "split_special_tokens", "do_lower_case", "strip_accents",
           "tokenize_chinese_chars")

#: The ChatML conversation format, written as ``chat_template`` for a tokenizer whose special tokens
#: include ``<|im_start|>`` and ``<|im_end|>`` (the chat preset), so ``apply_chat_template`` works.
CHATML_TEMPLATE = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + "
    "'<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

#: Files beside ``tokenizer_config.json`` that ``transformers`` reads and that would override what
#: ``save_pretrained`` writes; they are removed from the target directory in the same step.
STALE_FILES = ("chat_template.jinja", "chat_template.json", "added_tokens.json")

_MAX_LENGTH = 1_000_000_000_000_000_019_884_624_838_656  # transformers' "no limit" (int(1e30))


def _leading_special(tok: Tokenizer) -> str | None:
    """The special token a ``TemplateProcessing`` puts before a single sequence (Llama 3's
    ``<|begin_of_text|>``), if any."""
    single = getattr(tok.post_processor, "single", None)
    if type(tok.post_processor).__name__ != "TemplateProcessing" or not single or "SpecialToken" not in single[0]:
        return None
    return str(single[0]["SpecialToken"]["id"])


def special_token_roles(tok: Tokenizer, *, template: Mapping[str, Any] | None = None,
                        **overrides: str | None) -> dict[str, str]:
    """Role → special token: inferred from :data:`ROLE_NAMES` (or taken from ``template``, a
    ``tokenizer_config.json`` document), then ``overrides`` (``None`` unsets).

    BERT-style tokenizers (``[CLS]``/``[SEP]``) get no ``bos``/``eos``; byte-level ones without a
    padding token pad with their end-of-sequence token.
    """
    unknown = set(overrides) - set(ROLES)
    if unknown:
        raise ConfigError(f"save_pretrained: unknown role(s) {', '.join(sorted(unknown))}; roles: {', '.join(ROLES)}")
    if template is not None:
        return _template_roles(tok, template, overrides)
    specials = tok.special_tokens
    roles: dict[str, str] = {}
    for role in ROLES:
        found = next((name for name in ROLE_NAMES[role] if name in specials), None)
        if found is not None:
            roles[role] = found
    leading = _leading_special(tok)
    if leading is not None and leading not in ("[CLS]", "<s>", roles.get("cls_token")):
        roles["bos_token"] = leading
    if "cls_token" in roles and roles["cls_token"] == "[CLS]":
        for role in ("bos_token", "eos_token"):  # BERT: [CLS]/[SEP] are not bos/eos
            if roles.get(role) == "<|endoftext|>":
                del roles[role]
    if "pad_token" not in roles and "eos_token" in roles:
        roles["pad_token"] = roles["eos_token"]
    return _override(tok, roles, overrides)


def _template_roles(tok: Tokenizer, template: Mapping[str, Any], overrides: Mapping[str, str | None]) -> dict[str, str]:
    """The roles a model's ``tokenizer_config.json`` names (strings or ``AddedToken`` dicts), checked."""
    roles: dict[str, str] = {}
    for role in ROLES:
        value = template.get(role)
        token = value.get("content") if isinstance(value, Mapping) else value
        if token is None or role in overrides:
            continue
        if not isinstance(token, str) or tok.token_to_id(token) is None:
            raise ConfigError(f"save_pretrained: the template's {role} {token!r:.60} is not in this tokenizer's "
                              f"vocabulary; pass {role}=... (or None) to replace it")
        roles[role] = token
    return _override(tok, roles, overrides)


def _override(tok: Tokenizer, roles: dict[str, str], overrides: Mapping[str, str | None]) -> dict[str, str]:
    """``roles`` with ``overrides`` applied (``None`` unsets a role), each token checked, in :data:`ROLES` order."""
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


def read_template(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``tokenizer_config.json`` document of a model directory (or the file itself)."""
    source = Path(path)
    if source.is_dir():
        source = source / "tokenizer_config.json"
    try:
        text = read_bytes(source, what="tokenizer_config.json").decode("utf-8-sig")  # a BOM is dropped
    except UnicodeDecodeError as exc:
        raise SerializationError(f"{source}: not UTF-8 (invalid byte at offset {exc.start})") from None
    document = parse_json(text, source=str(source), decoded=True)  # bounded nesting, typed errors with the position
    if not isinstance(document, dict):
        raise SerializationError(f"{source}: a tokenizer_config.json holds a JSON object, this one a "
                                 f"{type(document).__name__}")
    _check_template(document, source)
    return document


_BOOLEANS = ("add_bos_token", "add_eos_token", "add_prefix_space", "clean_up_tokenization_spaces", "legacy",
             "spaces_between_special_tokens", "split_special_tokens", "do_lower_case", "strip_accents",
             "tokenize_chinese_chars")


def _check_template(document: Mapping[str, Any], source: Path) -> None:
    """Refuse, naming the field, a ``tokenizer_config.json`` whose roles, added tokens or carried settings
    (:data:`CARRIED`) have a shape ``transformers`` does not read (a token's ``content`` that is not a
    string...): copied over, they would make a directory it refuses; used, they would fail here."""

    def bad(field: str, value: Any, expected: str) -> SerializationError:
        return SerializationError(
            f"{source}: {field} is {json.dumps(value, ensure_ascii=False, default=repr)[:60]}, where transformers "
            f"expects {expected}; correct the file, or give another --template (template=...)"
        )

    def check_token(field: str, value: Any) -> None:
        """A token: a string, or an ``AddedToken`` object whose ``content`` is one."""
        if isinstance(value, Mapping):
            if not isinstance(value.get("content"), str):
                raise bad(f"{field}.content", value.get("content"), "the token's text, a string")
        elif not isinstance(value, str):
            raise bad(field, value, "a token: a string or an AddedToken object {\"content\": \"...\"}")

    for role in ROLES:
        if document.get(role) is not None:
            check_token(role, document[role])
    decoder = document.get("added_tokens_decoder")
    if decoder is not None:
        if not isinstance(decoder, Mapping):
            raise bad("added_tokens_decoder", decoder, "an object {id: AddedToken}")
        for key, entry in decoder.items():
            if not (key.isascii() and key.isdigit()):
                raise bad(f"added_tokens_decoder key {key!r}", key, "a token id (decimal digits)")
            if not isinstance(entry, Mapping):
                raise bad(f"added_tokens_decoder[{key!r}]", entry, "an AddedToken object {\"content\": \"...\"}")
            check_token(f"added_tokens_decoder[{key!r}]", entry)
            for flag in ("lstrip", "normalized", "rstrip", "single_word", "special"):
                if flag in entry and not isinstance(entry[flag], bool):
                    raise bad(f"added_tokens_decoder[{key!r}].{flag}", entry[flag], "true or false")
    for key in ("additional_special_tokens", "extra_special_tokens"):
        value = document.get(key)
        if value is None:
            continue
        if isinstance(value, list):
            for i, token in enumerate(value):
                check_token(f"{key}[{i}]", token)
        elif key == "extra_special_tokens" and isinstance(value, Mapping):  # Gemma 3: {"image_token": "<...>"}
            for name, token in value.items():
                check_token(f"{key}[{name!r}]", token)
        else:
            raise bad(key, value, "a list of tokens")
    settings: dict[str, tuple[Any, str]] = {
        "tokenizer_class": (lambda v: isinstance(v, str), "a class name, a string"),
        "chat_template": (lambda v: isinstance(v, str) or (isinstance(v, list) and all(
            isinstance(t, Mapping) and isinstance(t.get("name"), str) and isinstance(t.get("template"), str)
            for t in v)), "a string, or a list of {\"name\": ..., \"template\": ...} objects"),
        "model_max_length": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0,
                             "a positive number"),
        "padding_side": (lambda v: v in ("left", "right"), '"left" or "right"'),
        "truncation_side": (lambda v: v in ("left", "right"), '"left" or "right"'),
        "model_input_names": (lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
                              "a list of input names (strings)"),
        **{name: (lambda v: isinstance(v, bool), "true or false") for name in _BOOLEANS},
    }
    for key, (valid, expected) in settings.items():
        if document.get(key) is not None and not valid(document[key]):
            raise bad(key, document[key], expected)


def _type_ids_used(tok: Tokenizer) -> bool:
    """Whether the post-processor gives a second sequence type ids other than 0 (BERT-style models
    take ``token_type_ids``; GPT-style and RoBERTa-style ones do not)."""
    processor = tok.post_processor
    steps = getattr(processor, "processors", None) or [processor]
    for step in steps:
        kind = type(step).__name__
        if kind == "BertProcessing":
            return True
        if kind == "TemplateProcessing" and any(part.get(k, {}).get("type_id", 0)
                                                for part in step.pair for k in ("Sequence", "SpecialToken")):
            return True
    return False


def _specials_in_id_order(tok: Tokenizer) -> list[str]:
    return sorted(tok.special_tokens, key=tok.special_tokens.__getitem__)


def _list_added_specials(tok: Tokenizer, config: dict[str, Any], template: Mapping[str, Any],
                         roles: Mapping[str, str]) -> None:
    """Add the special tokens the template's ``added_tokens_decoder`` does not know (added to the
    model's tokenizer since) to its list of additional special tokens, so that transformers counts
    them special too. A template without that table cannot tell them apart: nothing is added."""
    decoder = template.get("added_tokens_decoder")
    if not isinstance(decoder, Mapping):
        return
    known = set(roles.values())
    known.update(entry.get("content") for entry in decoder.values() if isinstance(entry, Mapping))
    key = next((k for k in ("additional_special_tokens", "extra_special_tokens")
                if isinstance(config.get(k), list)), None)
    listed = config[key] if key is not None else []
    known.update(t.get("content") if isinstance(t, Mapping) else t for t in listed)
    new = [t for t in _specials_in_id_order(tok) if t not in known]
    if new:
        config[key or "additional_special_tokens"] = [*listed, *new]


def transformers_files(tok: Tokenizer, *, template: str | os.PathLike[str] | None = None,
                       **overrides: str | None) -> dict[str, Any]:
    """File name → JSON document of the three files (nothing written)."""
    carried = read_template(template) if template is not None else None
    roles = special_token_roles(tok, template=carried, **overrides)
    padding = tok.padding
    if padding and "pad_token" not in overrides:  # set on this tokenizer: it wins, as truncation does
        pad = tok.id_to_token(padding["pad_id"])
        # only a special token: transformers would make a role's ordinary token special (and drop it
        # from decode(skip_special_tokens=True))
        if pad is not None and pad in tok.special_tokens:
            roles = {role: pad if role == "pad_token" else roles[role] for role in ROLES
                     if role in roles or role == "pad_token"}
    document = to_hf_dict(tok)
    # transformers sets truncation and padding per call (padding=True, truncation=True, max_length=...):
    # our settings become its defaults (model_max_length, padding_side) instead of the backend's.
    document["truncation"] = None
    document["padding"] = None
    truncation = tok.truncation
    decoder = {
        str(a["id"]): {k: a[k] for k in ("content", "lstrip", "normalized", "rstrip", "single_word", "special")}
        for a in document["added_tokens"]
    }
    config: dict[str, Any] = {"tokenizer_class": "PreTrainedTokenizerFast", "clean_up_tokenization_spaces": False}
    if carried is None:
        config["model_max_length"] = _MAX_LENGTH
        config["padding_side"] = config["truncation_side"] = "right"
        config["model_input_names"] = (["input_ids", "token_type_ids", "attention_mask"] if _type_ids_used(tok)
                                       else ["input_ids", "attention_mask"])
        # the special tokens no role names, so that transformers counts them special too
        others = [t for t in _specials_in_id_order(tok) if t not in roles.values()]
        if others:
            config["additional_special_tokens"] = others
        if {"<|im_start|>", "<|im_end|>"} <= set(tok.special_tokens):
            config["chat_template"] = CHATML_TEMPLATE
    else:  # the model's class decides what its file does not say (Llama pads on the left)
        config.update({key: carried[key] for key in CARRIED if key in carried})
        # a role the file sets to null stays unset (Qwen's class would otherwise default unk_token)
        config.update({role: None for role in ROLES
                       if role not in roles and (role in carried or role in overrides)})
        _list_added_specials(tok, config, carried, roles)
    if truncation:  # set on this tokenizer: it wins over the template
        config["model_max_length"] = truncation["max_length"]
        config["truncation_side"] = truncation["direction"]
    if padding:
        config["padding_side"] = padding["direction"]
    config["added_tokens_decoder"] = decoder
    config.update(roles)
    return {"tokenizer.json": document, "tokenizer_config.json": config, "special_tokens_map.json": dict(roles)}


def save_pretrained(tok: Tokenizer, directory: str | os.PathLike[str], *,
                    template: str | os.PathLike[str] | None = None, **overrides: str | None) -> list[str]:
    """Write the directory for ``transformers.AutoTokenizer.from_pretrained``; the paths written.

    ``template``: a model's directory (or its ``tokenizer_config.json``) whose settings and roles to
    carry over; ``pad_token="<pad>"`` and the other roles override (``None``: unset).

    >>> save_pretrained(tok, "out", template="llama3")   # doctest: +SKIP
    """
    if not isinstance(directory, (str, os.PathLike)):
        raise SerializationError(f"directory must be a path, got {type(directory).__name__}")
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise SerializationError(f"{target}: exists and is not a directory; give a directory path")
    files = transformers_files(tok, template=template, **overrides)
    data = {name: utf8((dumps_hf(doc, indent=2) if name == "tokenizer.json"
                        else json.dumps(doc, ensure_ascii=False, indent=2)) + "\n", path=target / name)
            for name, doc in files.items()}

    def write(staging: Path) -> list[Path]:
        for name, content in data.items():
            (staging / name).write_bytes(content)
        return [staging / name for name in files]

    try:
        write_as_unit(target, write, remove=STALE_FILES)
    except OSError as exc:
        raise SerializationError(f"{target}: cannot write: {exc.strerror}") from None
    return [str(target / name) for name in files]


def load_pretrained(directory: str | os.PathLike[str], *, strict: bool = True) -> Tokenizer:
    """Read the ``tokenizer.json`` of a ``save_pretrained`` directory (ours or transformers');
    ``strict`` as :func:`toolkit.interop.hf_json.load_hf_json`.

    Without padding or truncation, whatever the file says: transformers applies both per call, and
    its ``save_pretrained`` leaves the state of the last call in the file (a default call of the
    loaded tokenizer neither pads nor truncates). ``Tokenizer.from_file(dir / "tokenizer.json")``
    keeps them, as HF ``tokenizers`` does.
    """
    from toolkit.interop.hf_json import load_hf_json

    path = Path(directory)
    if not (path / "tokenizer.json").is_file():
        raise SerializationError(f"{path}: no tokenizer.json in this directory (a transformers tokenizer directory has one)")
    tok = load_hf_json(path / "tokenizer.json", strict=strict)
    tok.no_padding()
    tok.no_truncation()
    return tok
