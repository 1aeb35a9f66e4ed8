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
from toolkit.normalizers.precompiled import build_charsmap
from toolkit.registry import lookup, registered

# --------------------------------------------------------------------------- the table

_CHARSMAP_A = build_charsmap({"ﬁ": "fi", "①": "1", "Ｗ": "W"})
_CHARSMAP_B = build_charsmap({"ｌ": "l", "Ǆ": "DŽ"})

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
    # issue 13 (pad): RobertaProcessing
    ("post_processor", "RobertaProcessing", "sep"): (("[SEP]", 3), ("[SEP]", -3)),
    ("post_processor", "RobertaProcessing", "cls"): (("[CLS]", 1), 7),
    ("post_processor", "RobertaProcessing", "trim_offsets"): (False, "yes"),
    ("post_processor", "RobertaProcessing", "add_prefix_space"): (False, 2),
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
    ("decoder", "SentencePiece", "add_dummy_prefix"): (True, "yes"),
    ("decoder", "SentencePiece", "remove_extra_whitespaces"): (True, 1),
    ("decoder", "SentencePiece", "byte_fallback"): (True, None),
    ("decoder", "WordPiece", "prefix"): ("@@", None),
    ("decoder", "WordPiece", "cleanup"): (False, "no"),
    # pre-tokenizers
    ("pre_tokenizer", "ByteLevel", "add_prefix_space"): (False, "x"),
    ("pre_tokenizer", "ByteLevel", "use_regex"): (False, "x"),
    ("pre_tokenizer", "ByteLevel", "trim_offsets"): (False, "x"),
    ("pre_tokenizer", "Digits", "individual_digits"): (True, "x"),
    ("pre_tokenizer", "Metaspace", "replacement"): ("%", "ab"),
    ("pre_tokenizer", "Metaspace", "prepend_scheme"): ("first", "x"),
    ("pre_tokenizer", "Metaspace", "split"): (False, "x"),
    ("pre_tokenizer", "Punctuation", "behavior"): ("removed", "x"),
    ("pre_tokenizer", "Sequence", "pretokenizers"): ([{"type": "Whitespace"}], [42]),
    ("pre_tokenizer", "Split", "pattern"): ({"Regex": "-"}, 5),
    ("pre_tokenizer", "Split", "behavior"): ("removed", "x"),
    ("pre_tokenizer", "Split", "invert"): (True, "x"),
    ("pre_tokenizer", "Split", "timeout"): (1.0, -1.0),
    # issue 17 (pre-tokenizers of issue 14)
    ("pre_tokenizer", "CharDelimiterSplit", "delimiter"): ("-", "ab"),
    ("pre_tokenizer", "FixedLength", "length"): (3, 0),
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
    ("trainer", "ByteLevelBPETrainer", "initial_alphabet"): (["a", "Ġ"], ["中"]),
    ("trainer", "WordPieceTrainer", "vocab_size"): (12, 0),
    ("trainer", "WordPieceTrainer", "min_frequency"): (3, -1),
    ("trainer", "WordPieceTrainer", "special_tokens"): (["[UNK]"], 5),
    ("trainer", "WordPieceTrainer", "continuing_subword_prefix"): ("@@", 5),
    ("trainer", "WordPieceTrainer", "limit_alphabet"): (3, -1),
    ("trainer", "WordPieceTrainer", "initial_alphabet"): (["z"], 5),
    ("trainer", "WordPieceTrainer", "tie_break"): ("first_occurrence", "x"),
    ("trainer", "WordPieceTrainer", "criterion"): ("score", "x"),
    ("trainer", "WordPieceTrainer", "end_of_word_suffix"): ("</w>", 5),
    ("trainer", "WordPieceTrainer", "likelihood_discount"): (0, -1),
    # unigram helper (issue 14)
    ("model", "Unigram", "unk_id"): (1, -1),
    ("model", "Unigram", "byte_fallback"): (True, "x"),
    ("model", "Unigram", "special_tokens"): (["<unk>"], 5),
    ("model", "Unigram", "alpha"): (0.5, -1.0),
    ("model", "Unigram", "nbest_size"): (1, -2),
    ("model", "Unigram", "seed"): (7, "x"),
    ("model", "Unigram", "match_byte_pieces"): (False, "no"),
    ("trainer", "UnigramTrainer", "vocab_size"): (40, 0),
    ("trainer", "UnigramTrainer", "max_sentence_length"): (5, 0),
    ("trainer", "UnigramTrainer", "show_progress"): (False, "x"),
    ("trainer", "UnigramTrainer", "special_tokens"): (["<s>"], 5),
    ("trainer", "UnigramTrainer", "shrinking_factor"): (0.5, 1.5),
    ("trainer", "UnigramTrainer", "unk_token"): ("<unk>", 5),
    ("trainer", "UnigramTrainer", "max_piece_length"): (3, 0),
    ("trainer", "UnigramTrainer", "n_sub_iterations"): (1, 0),
    ("trainer", "UnigramTrainer", "initial_alphabet"): (["z"], 5),
    ("trainer", "UnigramTrainer", "seed_size"): (10, 0),
    ("trainer", "UnigramTrainer", "character_coverage"): (0.9, 0.0),
    ("trainer", "UnigramTrainer", "split_by_unicode_script"): (True, "x"),
    ("trainer", "UnigramTrainer", "split_by_number"): (False, "x"),
    ("trainer", "UnigramTrainer", "split_digits"): (True, "x"),
    ("model", "WordLevel", "unk_token"): ("hello", ""),
    ("model", "WordLevel", "special_tokens"): (["<unk>"], 5),
    ("trainer", "WordLevelTrainer", "vocab_size"): (3, -1),
    ("trainer", "WordLevelTrainer", "min_frequency"): (3, -1),
    ("trainer", "WordLevelTrainer", "show_progress"): (False, "x"),
    ("trainer", "WordLevelTrainer", "special_tokens"): (["<unk>"], 5),
    ("model", "BPE", "dropout"): (1.0, 1.5),
    ("model", "BPE", "seed"): (3, "x"),
    ("model", "ByteLevelBPE", "dropout"): (1.0, -0.1),
    ("model", "ByteLevelBPE", "seed"): (3, "x"),
    # spm helper (issue 14)
    ("model", "Unigram", "float32"): (True, "x"),
    ("normalizer", "Precompiled", "precompiled_charsmap"): (_CHARSMAP_B, "not base64!"),
    ("normalizer", "Precompiled", "matching"): ("sentencepiece", "x"),
    ("model", "SentencePieceBPE", "unk_id"): (1, -1),
    ("model", "SentencePieceBPE", "byte_fallback"): (False, "x"),
    ("model", "SentencePieceBPE", "special_tokens"): (["<s>"], 5),
    ("model", "SentencePieceBPE", "unused"): (["ab"], 5),
    ("model", "SentencePieceBPE", "user_defined"): (["b"], [3]),
    ("model", "Unigram", "user_defined"): (["ab"], "ab"),
    ("model", "Unigram", "unused"): (["ab"], "ab"),
    ("normalizer", "Precompiled", "user_defined_symbols"): (["①x"], [None]),
    ("normalizer", "Precompiled", "remove_extra_whitespaces"): (True, "x"),
    ("decoder", "CTC", "pad_token"): ("[PAD]", 5),
    ("decoder", "CTC", "word_delimiter_token"): ("_", None),
    ("decoder", "CTC", "cleanup"): (False, "x"),
    # show_progress (Trainer.Params, every trainer): a bar while training on a terminal or in a notebook
    ("trainer", "BPETrainer", "show_progress"): (False, "sometimes"),
    ("trainer", "ByteLevelBPETrainer", "show_progress"): (False, "sometimes"),
    ("trainer", "WordPieceTrainer", "show_progress"): (False, "sometimes"),
}

# Options a case needs set beforehand, on the component and on the fresh one (a rank-mode
# ByteLevelBPE always keeps whole-token pieces, so it needs ignore_merges=True).
PREREQUISITES: dict[Key, dict[str, Any]] = {
    ("model", "ByteLevelBPE", "mode"): {"ignore_merges": True},
    ("normalizer", "Precompiled", "remove_extra_whitespaces"): {"matching": "sentencepiece"},
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
    ("pre_tokenizer", "CharDelimiterSplit"): {"delimiter": " "},  # issue 17
    ("model", "WordPiece"): {"vocab": {"[UNK]": 0, "hel": 1, "##lo": 2, "a": 3, "##b": 4}},
    ("trainer", "UnigramTrainer"): {"vocab_size": 30},
    ("model", "WordLevel"): {"vocab": {"<unk>": 0, "hello": 1, "ab": 2, "world": 3}},
    ("normalizer", "Precompiled"): {"precompiled_charsmap": _CHARSMAP_A},
    ("model", "SentencePieceBPE"): {
        "vocab": [["<unk>", 0.0], ["<s>", 0.0], ["h", -1.0], ["e", -1.0], ["l", -1.0], ["o", -1.0], ["a", -1.0],
                  ["b", -1.0], ["ab", -2.0], ["he", -3.0], ["ll", -4.0], ["hell", -5.0], ["lo", -6.0],
                  *([f"<0x{b:02X}>", 0.0] for b in range(256))],
        "unk_id": 0, "byte_fallback": True,
    },
    ("model", "Unigram"): {
        "vocab": [["<unk>", 0.0], ["h", -3.0], ["e", -3.0], ["l", -2.5], ["o", -3.0], ["hel", -4.0], ["lo", -3.5],
                  ["a", -2.0], ["b", -2.0], ["ab", -3.0], ["<0x78>", -6.0]],
        "unk_id": 0, "seed": 1,
    },
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


def _containers(value: Any) -> list[Any]:
    """The lists and dicts of an option's value, outermost first (nested ones too)."""
    out = []
    if isinstance(value, (list, dict)):
        out.append(value)
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ():
        out.extend(_containers(item))
    return out


_IN_PLACE: list[tuple[str, Callable[[Any], Any]]] = [
    ("append", lambda c: c.append(c[0] if c else "x")),
    ("extend", lambda c: c.extend(["x"])),
    ("insert", lambda c: c.insert(0, "x")),
    ("pop", lambda c: c.pop()),
    ("clear", lambda c: c.clear()),
    ("sort", lambda c: c.sort()),
    ("reverse", lambda c: c.reverse()),
    ("setitem", lambda c: c.__setitem__(0 if isinstance(c, list) else "x", "x")),
    ("delitem", lambda c: c.__delitem__(0 if isinstance(c, list) else next(iter(c), "x"))),
]
_IN_PLACE_DICT: list[tuple[str, Callable[[Any], Any]]] = [
    ("update", lambda c: c.update({"x": 1})),
    ("setdefault", lambda c: c.setdefault("x", 1)),
    ("popitem", lambda c: c.popitem()),
    ("pop", lambda c: c.pop("x", None)),
    ("clear", lambda c: c.clear()),
    ("setitem", lambda c: c.__setitem__("x", 1)),
]


def _container_options() -> list[Any]:
    """The options whose declared type may hold a list or dict (the others cannot be changed in place)."""
    return [pytest.param(key, id="-".join(key)) for key in _all_options()
            if any(word in str(lookup(key[0], key[1]).Params.model_fields[key[2]].annotation)
                   for word in ("list", "dict", "tuple"))]


@pytest.mark.parametrize("key", _container_options())
def test_changing_a_container_option_in_place_is_refused_and_changes_nothing(key: Key) -> None:
    """A list or dict option changed in place would bypass validation and leave derived tables stale
    (the value would say one thing, the behaviour another): every mutating call is a ConfigError that
    names the option and the fix, and the component is as it was."""
    kind, name, option = key
    valid, _ = CASES[key]
    needed = PREREQUISITES.get(key, {})
    component = make(kind, name, **needed, **{option: copy.deepcopy(valid)})
    containers = _containers(getattr(component, option))
    if not containers:
        pytest.skip("the option holds no list or dict")
    before, acted = component.to_dict(), behaviour(kind, component)
    for held in containers:
        for label, change in _IN_PLACE_DICT if isinstance(held, dict) else _IN_PLACE:
            with pytest.raises(ConfigError, match=rf"\.{option} cannot be changed in place.*assign a new"):
                change(held)
            assert component.to_dict() == before, label
    assert behaviour(kind, component) == acted


def test_augmented_assignment_of_a_list_option_takes_effect() -> None:
    """``opt += [...]`` builds a new list and assigns it, so it is validated and takes effect."""
    from algorithms import BPETrainer
    trainer = BPETrainer(vocab_size=20, special_tokens=["[UNK]"], show_progress=False)
    trainer.special_tokens += ["[PAD]"]
    assert trainer.special_tokens == ["[UNK]", "[PAD]"]
    assert trainer.train({"ab": 3}).special_tokens == {"[UNK]": 0, "[PAD]": 1}
    with pytest.raises(ConfigError):
        trainer.special_tokens += [3]  # validated like the constructor
    assert trainer.special_tokens == ["[UNK]", "[PAD]"]


def test_to_dict_returns_plain_values_the_caller_may_change() -> None:
    from algorithms import BPETrainer
    trainer = BPETrainer(special_tokens=["[UNK]"])
    data = trainer.to_dict()
    data["special_tokens"].append("[PAD]")
    assert type(data["special_tokens"]) is list
    assert trainer.special_tokens == ["[UNK]"]


@pytest.mark.parametrize("make", [
    lambda: __import__("algorithms").BPE({"[UNK]": 0, "[PAD]": 1, "a": 2}, [], unk_token="[UNK]", special_tokens=["[UNK]"]),
    lambda: __import__("algorithms").WordPiece({"[UNK]": 0, "[PAD]": 1, "a": 2}, special_tokens=["[UNK]"]),
    lambda: __import__("algorithms").WordLevel({"[UNK]": 0, "[PAD]": 1, "a": 2}, unk_token="[UNK]", special_tokens=["[UNK]"]),
    lambda: __import__("algorithms").Unigram([("[UNK]", 0.0), ("[PAD]", 0.0), ("a", -1.0)], 0, special_tokens=["[UNK]"]),
    lambda: __import__("algorithms").SentencePieceBPE([("[UNK]", 0.0), ("[PAD]", 0.0), ("a", -1.0)], unk_id=0,
                                                      special_tokens=["[UNK]"]),
])
def test_a_models_special_tokens_read_as_ids_and_assign_back(make: Any) -> None:
    """A model shows ``special_tokens`` as ``{token: id}``; assigning that back changes nothing, and
    ``+= [token]`` adds one, as for any list option."""
    model = make()
    assert dict(model.special_tokens) == {"[UNK]": 0}
    model.special_tokens = model.special_tokens
    assert model.params()["special_tokens"] == ["[UNK]"]
    model.special_tokens += ["[PAD]"]
    assert dict(model.special_tokens) == {"[UNK]": 0, "[PAD]": 1} and model.params()["special_tokens"] == ["[UNK]", "[PAD]"]
    assert model.encode_piece("[PAD]") != (1,)  # a special token is never matched inside text


# --------------------------------------------------------------------------- a model's vocabulary and merges

def _models_with_state() -> list[Any]:
    """Every registered model built with a small vocabulary, for each attribute of its state."""
    from algorithms import BPE, ByteLevelBPE, Unigram, WordLevel
    built = {
        "BPE": lambda: BPE({"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, [("a", "b")], unk_token="[UNK]"),
        "ByteLevelBPE": lambda: ByteLevelBPE({**ByteLevelBPE().vocab, "ab": 256}, [("a", "b")]),
        "Unigram": lambda: Unigram([("[UNK]", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5)], 0),
        "WordLevel": lambda: WordLevel({"[UNK]": 0, "a": 1, "ab": 2}, unk_token="[UNK]"),
    }
    names = {name for _, name, cls in registered("model") if cls._state_names}
    assert names == set(built), "a model with state attributes needs an entry here"
    return [pytest.param(built[name], attr, id=f"{name}-{attr}") for name in sorted(names)
            for attr in lookup("model", name)._state_names]


@pytest.mark.parametrize(("make", "attr"), _models_with_state())
def test_a_models_vocabulary_and_merges_cannot_change_in_place_or_by_assignment(make: Any, attr: str) -> None:
    """The model's tables are built from its vocabulary and merges, so a change would not take effect
    (``clear_cache()`` used to be documented as the way, and was not): every change is a ConfigError
    naming the fix, and the model is as it was; copies and pickles stay read-only too."""
    import pickle

    model = make()
    before, ids = model.to_dict(), model.encode_piece("ab")
    held = getattr(model, attr)
    for label, change in _IN_PLACE_DICT if isinstance(held, dict) else _IN_PLACE:
        with pytest.raises(ConfigError, match=rf"\.{attr} cannot be changed: .*build a new model"):
            change(held)
        assert model.to_dict() == before, label
    with pytest.raises(ConfigError, match=rf"\.{attr} cannot be changed"):
        setattr(model, attr, copy.deepcopy(held))
    with pytest.raises(ConfigError, match=rf"\.{attr} cannot be changed"):
        setattr(model, attr, held + held if isinstance(held, list) else {**held, "zz": 99})
    assert model.to_dict() == before and model.encode_piece("ab") == ids
    for other in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert getattr(other, attr) == held
        with pytest.raises(ConfigError):
            change(getattr(other, attr))


def test_a_changed_copy_of_the_vocabulary_builds_the_model_the_error_points_to() -> None:
    from algorithms import BPE
    model = BPE({"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, [("a", "b")], unk_token="[UNK]")
    vocab, merges = dict(model.vocab), list(model.merges)
    vocab["abb"] = 4
    merges.append(("ab", "b"))
    assert BPE(vocab, merges, unk_token="[UNK]").encode_piece("abb") == (4,)


def test_a_regex_cannot_change_and_copies_as_itself() -> None:
    """Components compile a Regex when they are built, and it hashes by its pattern: a Regex is
    immutable (as HF's); a component takes a new pattern by assignment of its option."""
    import pickle

    from pretokenizers import Split
    r = Regex("-")
    split = Split(r, "removed")
    for change in (lambda: setattr(r, "pattern", " "), lambda: delattr(r, "pattern"), lambda: setattr(r, "compiled", None)):
        with pytest.raises(ConfigError, match="a Regex cannot be changed.*split.pattern = Regex"):
            change()
    assert r.pattern == "-" and split.split_text("a-b c") == ["a", "b c"]
    assert copy.copy(r) is r and copy.deepcopy(r) is r and pickle.loads(pickle.dumps(r)) == r
    split.pattern = Regex(" ")
    assert split.split_text("a-b c") == ["a-b", "c"]
