"""The option contract, over every registered component: each option can be changed after construction.

For every registered component of every kind and every option of its ``Params``:

* setting a new valid value gives a component equal to one constructed with that value: the same
  ``to_dict()`` and the same behaviour on sample inputs;
* setting an invalid value raises :class:`ConfigError` and leaves the component as it was.

``CASES`` holds one ``(new valid value, invalid value)`` per ``(kind, type, option)``; a registered
component with an option missing from it fails :func:`test_every_option_has_a_case`, so a new
component (or option) must add its entry here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from toolkit import decoders, processors
from toolkit.alignment import NormalizedString
from toolkit.encoding import Encoding
from toolkit.errors import ConfigError
from toolkit.normalizers import NFC, Lowercase, Regex
from toolkit.registry import lookup, registered

# --------------------------------------------------------------------------- the table

Key = tuple[str, str, str]  # (kind, type name, option)

CASES: dict[Key, tuple[Any, Any]] = {
    # normalizers
    ("normalizer", "BertNormalizer", "clean_text"): (False, "no"),
    ("normalizer", "BertNormalizer", "handle_chinese_chars"): (False, 1),
    ("normalizer", "BertNormalizer", "strip_accents"): (False, "x"),
    ("normalizer", "BertNormalizer", "lowercase"): (False, None),
    ("normalizer", "Prepend", "prepend"): ("▁", 3),
    ("normalizer", "Replace", "pattern"): (Regex("l+"), {"Regex": "("}),
    ("normalizer", "Replace", "content"): ("", 5),
    ("normalizer", "Sequence", "normalizers"): ([NFC(), Lowercase()], [42]),
    ("normalizer", "Strip", "left"): (False, "no"),
    ("normalizer", "Strip", "right"): (False, None),
    # post-processors
    ("post_processor", "BertProcessing", "sep"): (("</s>", 2), ("</s>", -1)),
    ("post_processor", "BertProcessing", "cls"): (("<s>", 0), "cls"),
    ("post_processor", "ByteLevel", "add_prefix_space"): (False, "x"),
    ("post_processor", "ByteLevel", "trim_offsets"): (False, 0.5),
    ("post_processor", "ByteLevel", "use_regex"): (False, None),
    ("post_processor", "Sequence", "processors"): ([processors.BertProcessing()], [NFC()]),
    ("post_processor", "TemplateProcessing", "single"): ("$A [SEP]", "$B"),
    ("post_processor", "TemplateProcessing", "pair"): ("$A [SEP] $B:1", "$A $A"),
    ("post_processor", "TemplateProcessing", "special_tokens"): ([("[CLS]", 5), ("[SEP]", 6)], [("[CLS]", 5)]),
    # decoders
    ("decoder", "BPEDecoder", "suffix"): ("@@", 1),
    ("decoder", "Metaspace", "replacement"): ("%", "ab"),
    ("decoder", "Metaspace", "prepend_scheme"): ("never", "sometimes"),
    ("decoder", "Metaspace", "split"): (False, "x"),
    ("decoder", "Replace", "pattern"): ({"Regex": "l+"}, {"Nope": "l"}),
    ("decoder", "Replace", "content"): ("", 5),
    ("decoder", "Sequence", "decoders"): ([decoders.Fuse()], ["x"]),
    ("decoder", "Strip", "content"): ("x", "xy"),
    ("decoder", "Strip", "left"): (1, -1),
    ("decoder", "Strip", "right"): (2, "2"),
    ("decoder", "WordPiece", "prefix"): ("@@", None),
    ("decoder", "WordPiece", "cleanup"): (False, "no"),
    # pre-tokenizers
    ("pre_tokenizer", "ByteLevel", "add_prefix_space"): (True, "x"),
    ("pre_tokenizer", "ByteLevel", "use_regex"): (False, "x"),
    ("pre_tokenizer", "ByteLevel", "trim_offsets"): (False, "x"),
    ("pre_tokenizer", "Digits", "individual_digits"): (True, "x"),
    ("pre_tokenizer", "Metaspace", "replacement"): ("%", "ab"),
    ("pre_tokenizer", "Metaspace", "prepend_scheme"): ("first", "x"),
    ("pre_tokenizer", "Metaspace", "split"): (False, "x"),
    ("pre_tokenizer", "Punctuation", "behavior"): ("removed", "x"),
    ("pre_tokenizer", "Sequence", "pretokenizers"): ([{"type": "Whitespace"}], [42]),
    ("pre_tokenizer", "Split", "pattern"): ("-", 5),
    ("pre_tokenizer", "Split", "behavior"): ("removed", "x"),
    ("pre_tokenizer", "Split", "invert"): (True, "x"),
    ("pre_tokenizer", "Split", "literal"): (True, "x"),
    ("pre_tokenizer", "Split", "timeout"): (1.0, -1.0),
    # models
    ("model", "BPE", "unk_token"): ("[UNK]", 5),
    ("model", "BPE", "continuing_subword_prefix"): ("##", 5),
    ("model", "BPE", "end_of_word_suffix"): ("</w>", 5),
    ("model", "BPE", "special_tokens"): (["[UNK]"], 5),
    ("model", "BPE", "fuse_unk"): (True, "x"),
    ("model", "BPE", "byte_fallback"): (True, "x"),
    ("model", "BPE", "ignore_merges"): (True, "x"),
    ("model", "ByteLevelBPE", "special_tokens"): ({"<s>": 1000}, {"<s>": "x"}),
    ("model", "ByteLevelBPE", "ignore_merges"): (True, "x"),
    ("model", "ByteLevelBPE", "mode"): ("ranks", "x"),
    ("model", "WordPiece", "unk_token"): ("a", ""),
    ("model", "WordPiece", "continuing_subword_prefix"): ("@@", 5),
    ("model", "WordPiece", "max_input_chars_per_word"): (2, 0),
    ("model", "WordPiece", "special_tokens"): (["[UNK]"], 5),
    # trainers
    ("trainer", "BPETrainer", "vocab_size"): (12, 0),
    ("trainer", "BPETrainer", "min_frequency"): (3, -1),
    ("trainer", "BPETrainer", "special_tokens"): (["<unk>"], 5),
    ("trainer", "BPETrainer", "limit_alphabet"): (3, -1),
    ("trainer", "BPETrainer", "initial_alphabet"): (["z"], 5),
    ("trainer", "BPETrainer", "continuing_subword_prefix"): ("##", 5),
    ("trainer", "BPETrainer", "end_of_word_suffix"): ("</w>", 5),
    ("trainer", "BPETrainer", "max_token_length"): (2, 0),
    ("trainer", "BPETrainer", "tie_break"): ("first_occurrence", "x"),
    ("trainer", "BPETrainer", "unk_token"): ("<unk>", 5),
    ("trainer", "ByteLevelBPETrainer", "vocab_size"): (258, 0),
    ("trainer", "ByteLevelBPETrainer", "min_frequency"): (3, -1),
    ("trainer", "ByteLevelBPETrainer", "special_tokens"): (["<s>"], 5),
    ("trainer", "ByteLevelBPETrainer", "max_token_length"): (2, 0),
    ("trainer", "ByteLevelBPETrainer", "tie_break"): ("first_occurrence", "x"),
    ("trainer", "WordPieceTrainer", "vocab_size"): (12, 0),
    ("trainer", "WordPieceTrainer", "min_frequency"): (3, -1),
    ("trainer", "WordPieceTrainer", "special_tokens"): (["[UNK]"], 5),
    ("trainer", "WordPieceTrainer", "continuing_subword_prefix"): ("@@", 5),
    ("trainer", "WordPieceTrainer", "limit_alphabet"): (3, -1),
    ("trainer", "WordPieceTrainer", "initial_alphabet"): (["z"], 5),
    ("trainer", "WordPieceTrainer", "tie_break"): ("first_occurrence", "x"),
    ("trainer", "WordPieceTrainer", "criterion"): ("score", "x"),
    ("trainer", "WordPieceTrainer", "end_of_word_suffix"): ("</w>", 5),
}

# Options a case needs set beforehand, on the component and on the fresh one (a rank-mode
# ByteLevelBPE always keeps whole-token pieces, so it needs ignore_merges=True).
PREREQUISITES: dict[Key, dict[str, Any]] = {
    ("model", "ByteLevelBPE", "mode"): {"ignore_merges": True},
}

# Options every instance of a type needs (the base the cases change one option of).
BASE_OPTIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("normalizer", "Prepend"): {"prepend": "#"},
    ("normalizer", "Replace"): {"pattern": "l", "content": "L"},
    ("normalizer", "Sequence"): {"normalizers": [{"type": "NFD"}]},
    ("post_processor", "Sequence"): {"processors": [{"type": "ByteLevel"}]},
    ("post_processor", "TemplateProcessing"): {
        "single": "[CLS] $A [SEP]",
        "pair": "[CLS] $A [SEP] $B:1 [SEP]:1",
        "special_tokens": [("[CLS]", 1), ("[SEP]", 2)],
    },
    ("decoder", "Replace"): {"pattern": "▁", "content": " "},
    ("decoder", "Sequence"): {"decoders": [{"type": "ByteFallback"}]},
    ("pre_tokenizer", "Sequence"): {"pretokenizers": [{"type": "Digits"}]},
    ("pre_tokenizer", "Split"): {"pattern": r"\s+"},
    ("model", "WordPiece"): {"vocab": {"[UNK]": 0, "hel": 1, "##lo": 2, "a": 3, "##b": 4}},
}

_BPE_VOCAB = {"[UNK]": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "##b": 5, "b</w>": 6}
_BPE_MERGES = [("a", "b")]
_WORD_COUNTS = {"hello": 5, "world": 3, "low": 4, "lower": 2, "hell": 1}


def _byte_level_model() -> tuple[dict[str, int], list[tuple[str, str]]]:
    trainer = lookup("trainer", "ByteLevelBPETrainer")(vocab_size=270)
    model = trainer.train(_WORD_COUNTS)
    return model.get_vocab(), list(model.merges)


def make(kind: str, name: str, **options: Any) -> Any:
    """A fresh component of ``(kind, name)`` with its base options and ``options``."""
    cls = lookup(kind, name)
    options = {**copy.deepcopy(BASE_OPTIONS.get((kind, name), {})), **options}
    if (kind, name) == ("model", "BPE"):
        return cls(dict(_BPE_VOCAB), list(_BPE_MERGES), **options)
    if (kind, name) == ("model", "ByteLevelBPE"):
        return cls(*_byte_level_model(), **options)
    return cls(**options)


# --------------------------------------------------------------------------- behaviour

_TEXTS = ["Héllo  WORLD 中文\t!", "  a b - 12 ", "ǅ ﬁ ① low", "hello", ""]
_TOKENS = ["▁He", "llo", "##b", "<0x41>", "Ġw", "</w>", " x ", "%a"]


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as exc:  # the same failure counts as the same behaviour
        return ("raised", type(exc).__name__)


def _encoding_fields(enc: Encoding) -> tuple[Any, ...]:
    return (enc.ids, enc.tokens, enc.offsets, enc.type_ids, enc.special_tokens_mask, enc.attention_mask,
            enc.word_ids)


def _aligned(normalizer: Any, text: str) -> tuple[str, list[tuple[int, int]]]:
    ns = normalizer.normalize(NormalizedString(text))
    return ns.normalized, [ns.original_span(i, i + 1) for i in range(len(ns.normalized))]


def behaviour(kind: str, component: Any) -> list[Any]:
    """What ``component`` does with the sample inputs of its kind."""
    if kind == "normalizer":
        return [_outcome(lambda t=t: (component.normalize_str(t), _aligned(component, t))) for t in _TEXTS]
    if kind == "pre_tokenizer":
        return [_outcome(lambda t=t: (component.split_text(t), component.pre_tokenize_str(t))) for t in _TEXTS]
    if kind == "decoder":
        return [_outcome(lambda: component.decode(_TOKENS)), _outcome(lambda: component.decode_chain(_TOKENS[:3]))]
    if kind == "post_processor":
        a = Encoding([7, 8], ["Ġhi", "Ġthere"], [(0, 3), (3, 9)])
        b = Encoding([9], ["Ġyo"], [(0, 3)])
        return [
            _outcome(lambda: _encoding_fields(component.process(a))),
            _outcome(lambda: _encoding_fields(component.process(a, b))),
            _outcome(lambda: _encoding_fields(component.process(a, b, add_special_tokens=False))),
            _outcome(lambda: component.process_ids([7, 8])),
            _outcome(lambda: component.added_tokens(is_pair=True)),
        ]
    if kind == "model":
        pieces = ["hello", "ab", "abc", "world", "xyz", "ab</w>"]
        return [_outcome(lambda p=p: (component.encode_piece(p), component.tokenize(p))) for p in pieces]
    if kind == "trainer":
        return [_outcome(lambda: component.train(dict(_WORD_COUNTS)).to_dict())]
    raise AssertionError(f"no sample inputs for kind {kind!r}")


# --------------------------------------------------------------------------- the tests

def _params(kind: str, name: str) -> list[str]:
    return list(lookup(kind, name).Params.model_fields)


_PACKAGES = ("toolkit", "algorithms", "pretokenizers")


def _components() -> list[tuple[str, str]]:
    """Every registered component of the project (plugins that other tests register are left out)."""
    return [(kind, name) for kind, name, cls in registered() if cls.__module__.split(".")[0] in _PACKAGES]


def _all_options() -> list[Key]:
    return [(kind, name, option) for kind, name in _components() for option in _params(kind, name)]


def _case_params() -> list[Any]:
    out = []
    for key in _all_options():
        marks = []
        out.append(pytest.param(key, id="-".join(key), marks=marks))
    return out


def test_every_option_has_a_case() -> None:
    missing = [key for key in _all_options() if key not in CASES]
    assert not missing, (
        "registered component options without an entry in tests/test_option_contract.py CASES "
        f"(add (new valid value, invalid value) for each): {missing}"
    )


def test_no_stale_cases() -> None:
    known = set(_all_options())
    assert not [key for key in CASES if key not in known]
    types = set(_components())
    assert not [key for key in set(BASE_OPTIONS) if key not in types]
    assert not [key for key in PREREQUISITES if key not in CASES]


@pytest.mark.parametrize("key", _case_params())
def test_valid_assignment_equals_construction(key: Key) -> None:
    kind, name, option = key
    if key not in CASES:
        pytest.fail(f"no case for {key}")  # reported in full by test_every_option_has_a_case
    valid, _ = CASES[key]
    needed = PREREQUISITES.get(key, {})
    component = make(kind, name, **needed)
    behaviour(kind, component)  # fill whatever the component caches under the old value
    setattr(component, option, copy.deepcopy(valid))
    fresh = make(kind, name, **needed, **{option: copy.deepcopy(valid)})
    assert component.to_dict() == fresh.to_dict()
    assert component.to_dict() != make(kind, name, **needed).to_dict(), "the new value must differ from the base"
    assert behaviour(kind, component) == behaviour(kind, fresh)


@pytest.mark.parametrize("key", _case_params())
def test_invalid_assignment_raises_and_changes_nothing(key: Key) -> None:
    kind, name, option = key
    if key not in CASES:
        pytest.fail(f"no case for {key}")
    _, invalid = CASES[key]
    needed = PREREQUISITES.get(key, {})
    component = make(kind, name, **needed)
    before, acted = component.to_dict(), behaviour(kind, component)
    with pytest.raises(ConfigError):
        setattr(component, option, invalid)
    assert component.to_dict() == before
    assert behaviour(kind, component) == acted
    with pytest.raises(ConfigError):
        make(kind, name, **needed, **{option: invalid})
