"""Post-processors: special tokens, type ids, masks, offsets and word ids as Hugging Face produces them.

Hand-computed expectations first; then parity with ``tokenizers.processors`` on real HF encodings
(a word-level HF tokenizer produces them, so offsets and word ids are genuine).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import require
from toolkit.encoding import Encoding
from toolkit.errors import ConfigError, RegistryError
from toolkit.interfaces import build
from toolkit.processors import BertProcessing, ByteLevel, Sequence, TemplateProcessing

SPECIALS = [("[CLS]", 101), ("[SEP]", 102)]


def _a() -> Encoding:
    return Encoding([7, 8], ["hello", "world"], [(0, 5), (6, 11)], word_ids=[0, 1])


def _b() -> Encoding:
    return Encoding([9], ["bye"], [(0, 3)], word_ids=[0])


def _fields(e: Encoding) -> tuple:
    return e.ids, e.tokens, e.type_ids, e.special_tokens_mask, e.offsets, e.word_ids, e.attention_mask


BERT_SINGLE = (
    [101, 7, 8, 102],
    ["[CLS]", "hello", "world", "[SEP]"],
    [0, 0, 0, 0],
    [1, 0, 0, 1],
    [(0, 0), (0, 5), (6, 11), (0, 0)],
    [None, 0, 1, None],
    [1, 1, 1, 1],
)
BERT_PAIR = (
    [101, 7, 8, 102, 9, 102],
    ["[CLS]", "hello", "world", "[SEP]", "bye", "[SEP]"],
    [0, 0, 0, 0, 1, 1],
    [1, 0, 0, 1, 0, 1],
    [(0, 0), (0, 5), (6, 11), (0, 0), (0, 3), (0, 0)],
    [None, 0, 1, None, 0, None],
    [1, 1, 1, 1, 1, 1],
)
NO_SPECIALS_PAIR = (
    [7, 8, 9],
    ["hello", "world", "bye"],
    [0, 0, 1],
    [0, 0, 0],
    [(0, 5), (6, 11), (0, 3)],
    [0, 1, 0],
    [1, 1, 1],
)

BERT_TEMPLATES = [
    TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=SPECIALS),
    TemplateProcessing(single=["[CLS]", "$0", "[SEP]"], pair=["[CLS]:0", "$A:0", "[SEP]:0", "$B:1", "[SEP]:1"],
                       special_tokens=[(101, "[CLS]"), (102, "[SEP]")]),
    TemplateProcessing(single="[CLS] $ [SEP]", pair="[CLS] $a [SEP] $b:1 [SEP]:1",
                       special_tokens={"[CLS]": 101, "[SEP]": 102}),
]


@pytest.mark.parametrize("processor", [BertProcessing(), *BERT_TEMPLATES], ids=["Bert", "str", "list", "alt"])
def test_bert_layout(processor) -> None:
    assert _fields(processor.process(_a())) == BERT_SINGLE
    assert _fields(processor.process(_a(), _b())) == BERT_PAIR
    assert _fields(processor.process(_a(), _b(), add_special_tokens=False)) == NO_SPECIALS_PAIR
    assert processor.process(_a(), add_special_tokens=False).ids == [7, 8]
    assert processor.added_tokens(is_pair=False) == 2 and processor.added_tokens(is_pair=True) == 3
    assert processor.process_ids([7, 8]) == [101, 7, 8, 102]
    assert processor.process_ids([7, 8], add_special_tokens=False) == [7, 8]


def test_process_does_not_modify_its_inputs() -> None:
    a, b = _a(), _b()
    b.type_ids = [0]
    BertProcessing().process(a, b)
    TemplateProcessing(single="[CLS] $A", pair="$B:3 $A:2", special_tokens=SPECIALS).process(a, b)
    ByteLevel().process(a, b)
    assert _fields(a) == _fields(_a()) and b.type_ids == [0]


def test_template_type_ids_order_and_multi_token_specials() -> None:
    tp = TemplateProcessing(
        single="$0 [SEP]",
        pair="[CLS]:2 $B:3 [SEP] $A:5 <2fr>:1",
        special_tokens=[("[CLS]", 101), ("[SEP]", 102), {"id": "<2fr>", "ids": [1, 2], "tokens": ["to", "fr"]}],
    )
    out = tp.process(_a(), _b())
    assert out.ids == [101, 9, 102, 7, 8, 1, 2]
    assert out.tokens == ["[CLS]", "bye", "[SEP]", "hello", "world", "to", "fr"]
    assert out.type_ids == [2, 3, 0, 5, 5, 1, 1]
    assert out.special_tokens_mask == [1, 0, 1, 0, 0, 1, 1]
    assert out.word_ids == [None, 0, None, 0, 1, None, None]
    assert out.offsets == [(0, 0), (0, 3), (0, 0), (0, 5), (6, 11), (0, 0), (0, 0)]
    assert tp.added_tokens(is_pair=True) == 4 and tp.added_tokens(is_pair=False) == 1
    # Without special tokens the template still orders the sequences and sets their type ids.
    plain = tp.process(_a(), _b(), add_special_tokens=False)
    assert plain.ids == [9, 7, 8] and plain.type_ids == [3, 5, 5]
    # "$1" is the first sequence with type id 1.
    assert TemplateProcessing(single="$1").process(_a()).type_ids == [1, 1]


def test_template_defaults_are_hugging_faces() -> None:
    tp = TemplateProcessing()
    assert tp.process(_a()).ids == [7, 8]
    assert _fields(tp.process(_a(), _b())) == NO_SPECIALS_PAIR
    assert tp.to_dict() == {
        "type": "TemplateProcessing",
        "single": [{"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {},
    }


@pytest.mark.parametrize("template", ["", " $A", "$A ", "[CLS]  $A", "$A\t[CLS]", "[CLS]\n$A"])
def test_a_string_template_is_cut_at_single_spaces_as_hfs(template: str) -> None:
    """An empty piece is refused (``single=""`` used to give empty encodings silently); a piece is
    separated by one space only, so a tab or newline is part of a piece, which does not read."""
    with pytest.raises(ConfigError, match="empty piece|cannot read template piece|does not define"):
        TemplateProcessing(single=template, special_tokens=[("[CLS]", 2)])
    hf = require("tokenizers").processors.TemplateProcessing
    with pytest.raises(Exception):  # noqa: B017, PT011 (HF: ValueError or its own exception types)
        hf(single=template, special_tokens=[("[CLS]", 2)])


def test_empty_sequences() -> None:
    empty = Encoding()
    out = BertProcessing().process(empty, empty)
    assert out.ids == [101, 102, 102] and out.type_ids == [0, 0, 1] and out.word_ids == [None] * 3


@given(ids=st.lists(st.integers(0, 1000), max_size=20), add=st.booleans())
def test_process_ids_equals_process(ids: list[int], add: bool) -> None:
    enc = Encoding(ids, ["x"] * len(ids), [(0, 1)] * len(ids))
    processors = [
        BertProcessing(),
        *BERT_TEMPLATES,
        TemplateProcessing(single="<s> $A </s> $A <s>:1", special_tokens=[("<s>", 0), ("</s>", 2)]),
        ByteLevel(),
        Sequence([ByteLevel(), TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 0)])]),
    ]
    for p in processors:
        assert p.process_ids(list(ids), add_special_tokens=add) == p.process(enc, add_special_tokens=add).ids


# --------------------------------------------------------------------------- ByteLevel


def test_byte_level_trims_spaces_out_of_offsets() -> None:
    enc = Encoding([1, 2, 3, 4], ["Hello", "Ġworld", "ĠĠ", "!Ġ"], [(0, 5), (5, 11), (11, 13), (13, 15)])
    assert ByteLevel(add_prefix_space=False).process(enc).offsets == [(0, 5), (6, 11), (13, 13), (13, 14)]
    assert ByteLevel(trim_offsets=False).process(enc).offsets == enc.offsets
    # With add_prefix_space, the first token's single leading Ġ was added, not read: keep it.
    first = Encoding([1, 2], ["Ġhi", "Ġyou"], [(0, 2), (2, 6)])
    assert ByteLevel(add_prefix_space=True).process(first).offsets == [(0, 2), (3, 6)]
    assert ByteLevel(add_prefix_space=False).process(first).offsets == [(1, 2), (3, 6)]
    assert ByteLevel().process(enc).ids == [1, 2, 3, 4] and ByteLevel().added_tokens(is_pair=True) == 0


def test_sequence_chains_trimming_then_template() -> None:
    template = TemplateProcessing(single="<s> $A", pair="<s> $A </s> $B:1", special_tokens=[("<s>", 0), ("</s>", 2)])
    seq = Sequence([ByteLevel(add_prefix_space=False), template])
    a = Encoding([5, 6], ["Hi", "Ġthere"], [(0, 2), (2, 8)])
    out = seq.process(a, a)
    assert out.ids == [0, 5, 6, 2, 5, 6]
    assert out.offsets == [(0, 0), (0, 2), (3, 8), (0, 0), (0, 2), (3, 8)]
    assert out.type_ids == [0, 0, 0, 0, 1, 1]
    assert seq.added_tokens(is_pair=True) == 2 and len(seq) == 2 and isinstance(seq[0], ByteLevel)


# --------------------------------------------------------------------------- parity with Hugging Face


@pytest.fixture(scope="module")
def hf():
    tokenizers = require("tokenizers")
    from tokenizers import models, pre_tokenizers

    words = ["hello", "world", "foo", "bar", "é", "中"]
    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(words)}}
    tok = tokenizers.Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return tokenizers, tok


def _ours(e) -> Encoding:
    return Encoding(list(e.ids), list(e.tokens), [tuple(o) for o in e.offsets], word_ids=list(e.word_ids))


def _hf_fields(e) -> tuple:
    return (e.ids, e.tokens, e.type_ids, e.special_tokens_mask, [tuple(o) for o in e.offsets], e.word_ids,
            e.attention_mask)


TEMPLATES = [
    ("[CLS] $A [SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1"),
    ("$0 [SEP]", "[CLS]:2 $B:3 [SEP] $A:5"),
    ("$A", "$A $B"),
    ("<s> $1 <s>:4", "$b:1 <s> $a"),
    (["[CLS]", "$A"], ["$B", "[SEP]:1", "$A"]),
]
TEXTS = [("hello world", "foo  bar é"), ("", "中"), ("bar", ""), ("hello unknown  words", "x y z")]


def test_parity_with_hugging_face_processors(hf) -> None:
    tokenizers, tok = hf
    P = tokenizers.processors
    specials = [("[CLS]", 101), ("[SEP]", 102), ("<s>", 0)]
    pairs = [(BertProcessing(), P.BertProcessing(("[SEP]", 102), ("[CLS]", 101))),
             (BertProcessing(sep=("</s>", 2), cls=("<s>", 0)), P.BertProcessing(("</s>", 2), ("<s>", 0)))]
    pairs += [(TemplateProcessing(single=s, pair=p, special_tokens=specials),
               P.TemplateProcessing(single=s, pair=p, special_tokens=specials)) for s, p in TEMPLATES]
    checked = 0
    for text, pair_text in TEXTS:
        a = tok.encode(text, add_special_tokens=False)
        b = tok.encode(pair_text, add_special_tokens=False)
        for ours, theirs in pairs:
            for add in (True, False):
                for pair in (False, True):
                    expected = theirs.process(a, b if pair else None, add)
                    got = ours.process(_ours(a), _ours(b) if pair else None, add_special_tokens=add)
                    assert _fields(got) == _hf_fields(expected), (ours, text, pair_text, add, pair)
                    checked += 1
                assert ours.process_ids(list(a.ids), add_special_tokens=add) == theirs.process(a, None, add).ids
            assert ours.added_tokens(is_pair=False) == theirs.num_special_tokens_to_add(False)
            assert ours.added_tokens(is_pair=True) == theirs.num_special_tokens_to_add(True)
    assert checked == len(TEXTS) * len(pairs) * 4


BYTE_TEXTS = ["Hello  world ", " leading space", "a\n\nb  c", "   ", "x", "  two  spaces  ", "é \u3000 中 !?"]


def test_byte_level_parity_with_hugging_face(hf) -> None:
    tokenizers, _ = hf
    from tokenizers import models, pre_tokenizers

    P = tokenizers.processors
    for prefix in (True, False):
        pre = pre_tokenizers.ByteLevel(add_prefix_space=prefix, use_regex=True)
        for text in BYTE_TEXTS:
            pieces = [p for p, _ in pre.pre_tokenize_str(text)]
            tok = tokenizers.Tokenizer(models.WordLevel({p: i for i, p in enumerate(dict.fromkeys(pieces))}))
            tok.pre_tokenizer = pre
            enc = tok.encode(text, add_special_tokens=False)
            for trim in (True, False):
                for aps in (True, False):
                    expected = P.ByteLevel(add_prefix_space=aps, trim_offsets=trim).process(enc, enc)
                    got = ByteLevel(add_prefix_space=aps, trim_offsets=trim).process(_ours(enc), _ours(enc))
                    assert _fields(got) == _hf_fields(expected), (text, prefix, trim, aps)
            template_hf = P.TemplateProcessing(single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", 0)])
            seq_hf = P.Sequence([P.ByteLevel(add_prefix_space=False), template_hf])
            seq = Sequence([ByteLevel(add_prefix_space=False),
                            TemplateProcessing(single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", 0)])])
            assert _fields(seq.process(_ours(enc), _ours(enc))) == _hf_fields(seq_hf.process(enc, enc))


def test_json_matches_hugging_face(hf) -> None:
    tokenizers, _ = hf
    P = tokenizers.processors
    pairs = [
        (BertProcessing(), P.BertProcessing(("[SEP]", 102), ("[CLS]", 101))),
        (ByteLevel(trim_offsets=False), P.ByteLevel(trim_offsets=False)),
        (TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=SPECIALS),
         P.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=SPECIALS)),
        (Sequence([ByteLevel(), BertProcessing()]),
         P.Sequence([P.ByteLevel(), P.BertProcessing(("[SEP]", 102), ("[CLS]", 101))])),
    ]
    for ours, theirs in pairs:
        expected = json.loads(theirs.__getstate__())
        assert ours.to_dict() == expected
        assert build("post_processor", expected) == ours  # HF's JSON loads as it is


# --------------------------------------------------------------------------- serialization and errors

ALL = [
    BertProcessing(sep=("</s>", 2), cls=("<s>", 0)),
    TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=SPECIALS),
    TemplateProcessing(single="$0", special_tokens=[{"id": "x", "ids": [1, 2], "tokens": ["a", "b"]}]),
    ByteLevel(add_prefix_space=False),
    Sequence([ByteLevel(), TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 0)])]),
]


@pytest.mark.parametrize("processor", ALL, ids=lambda p: type(p).__name__)
def test_json_round_trip(processor) -> None:
    data = json.loads(json.dumps(processor.to_dict()))
    again = build("post_processor", data)
    assert type(again) is type(processor) and again == processor and again.to_dict() == data
    assert build("post_processor", data, validate=False) == processor
    assert _fields(again.process(_a(), _b())) == _fields(processor.process(_a(), _b()))


@pytest.mark.parametrize(
    "data,match",
    [
        ({"type": "TemplateProcessing", "single": "[CLS] $A"}, r"special_tokens.*'\[CLS\]'"),
        ({"type": "TemplateProcessing", "pair": "$A [SEP]", "special_tokens": [["[SEP]", 1]]}, r"pair.*\$A and \$B"),
        ({"type": "TemplateProcessing", "single": "$A $B"}, r"single.*\$B"),
        ({"type": "TemplateProcessing", "single": "$C"}, r"single.*'\$C'"),
        ({"type": "TemplateProcessing", "single": "$A:x"}, r"single.*type id"),
        ({"type": "TemplateProcessing", "single": "a:1:2 $A"}, r"single.*'a:1:2'"),
        ({"type": "TemplateProcessing", "single": 5}, "single"),
        ({"type": "TemplateProcessing", "special_tokens": [{"id": "x", "ids": [1, 2], "tokens": ["a"]}]},
         r"special_tokens.*same length"),
        ({"type": "TemplateProcessing", "special_tokens": [["[CLS]", -1]]}, r"special_tokens.*non-negative"),
        ({"type": "TemplateProcessing", "special_tokens": [["[CLS]"]]}, "special_tokens"),
        ({"type": "TemplateProcessing", "templates": "$A"}, "templates"),
        ({"type": "BertProcessing", "sep": "[SEP]"}, "sep"),
        ({"type": "BertProcessing", "cls": ["[CLS]", -5]}, "cls"),
        ({"type": "BertProcessing", "cls": ["[CLS]", "101"]}, "cls"),
        ({"type": "ByteLevel", "trim_offsets": "yes"}, "trim_offsets"),
        ({"type": "Sequence", "processors": [{"type": "ByteLevel", "trim": True}]}, r"processors\[0\]\.trim"),
        ({"type": "Sequence"}, "processors"),
    ],
)
def test_bad_options_are_config_errors_naming_the_field(data, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        build("post_processor", data)


def test_unknown_child_type_is_a_registry_error_naming_it() -> None:
    with pytest.raises(RegistryError, match=r"processors\[1\].*'NoSuchThing'"):
        build("post_processor", {"type": "Sequence", "processors": [{"type": "ByteLevel"}, {"type": "NoSuchThing"}]})


def test_constructor_errors() -> None:
    with pytest.raises(ConfigError, match="special_tokens"):
        TemplateProcessing(single="[CLS] $A")
    with pytest.raises(ConfigError, match="sep"):
        BertProcessing(sep=("[SEP]",))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="twice"):
        TemplateProcessing(special_tokens=[("[CLS]", 1), ("[CLS]", 2)])


@given(st.lists(st.tuples(st.integers(0, 30000), st.integers(0, 50), st.sampled_from([0, 1]), st.none() | st.integers(0, 9)),
                max_size=6),
       st.sampled_from([0, 1]))
def test_bert_single_sequence_fast_path_equals_the_generic_driver(rows: list, type_id: int) -> None:
    # BertProcessing builds the one-sequence result directly; it must equal what the shared driver
    # (copy with type id 0, three parts, concatenation) builds, special-token masks and word ids included.
    from toolkit.processors import _EncodingsProcessor

    enc = Encoding([r[0] for r in rows], [f"t{r[0]}" for r in rows], [(r[1], r[1] + 1) for r in rows],
                   [type_id] * len(rows), [r[2] for r in rows], [1] * len(rows), [r[3] for r in rows])
    proc = BertProcessing(sep=("[SEP]", 102), cls=("[CLS]", 101))
    fast = proc.process(enc)
    assert fast == _EncodingsProcessor.process(proc, enc)
    assert fast.ids[0] == 101 and fast.ids[-1] == 102 and set(fast.type_ids) <= {0}
    assert fast.ids[1:-1] == enc.ids and fast.ids is not enc.ids
    assert proc.process(enc, add_special_tokens=False) == _EncodingsProcessor.process(proc, enc, add_special_tokens=False)


# --------------------------------------------------------------------------- options after construction


def test_options_after_construction() -> None:
    tp = TemplateProcessing("[CLS] $A", "[CLS] $A $B:1", [("[CLS]", 1)])  # HF's positional order
    tp.single = "$A [CLS]"
    assert tp.process_ids([5]) == [5, 1] and tp.added_tokens(is_pair=False) == 1
    tp.special_tokens = {"[CLS]": 7}
    assert tp.process_ids([5]) == [5, 7]
    with pytest.raises(ConfigError, match="does not define"):
        tp.single = "$A [X]"
    assert tp.process_ids([5]) == [5, 7] and tp.single == TemplateProcessing(single="$A [CLS]", special_tokens={"[CLS]": 7}).single
    bert = BertProcessing(("</s>", 2), ("<s>", 0))
    bert.cls = ("[CLS]", 101)
    assert bert.process_ids([5]) == [101, 5, 2]
    with pytest.raises(ConfigError):
        bert.sep = ("[SEP]", -1)
    assert bert.to_dict() == {"type": "BertProcessing", "sep": ["</s>", 2], "cls": ["[CLS]", 101]}


def test_sequence_item_assignment() -> None:
    from toolkit.normalizers import NFC
    from toolkit.options import generation

    seq = Sequence([ByteLevel(), BertProcessing()])
    start = generation()
    seq[1] = {"type": "TemplateProcessing", "single": "<s> $A", "special_tokens": [["<s>", 0]]}
    assert seq.process_ids([5]) == [0, 5] and generation() == start + 1
    with pytest.raises(ConfigError, match=r"processors\[0\]: must be a PostProcessor"):
        seq[0] = NFC()
    seq.processors = [BertProcessing()]
    assert seq.process_ids([5]) == [101, 5, 102]
    with pytest.raises(ConfigError):
        seq.processors = "BertProcessing"
    assert seq.to_dict()["processors"] == [BertProcessing().to_dict()]


@pytest.mark.parametrize("add_special_tokens", [True, False])
@pytest.mark.parametrize("processor", [
    TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=SPECIALS),
    BertProcessing(), ByteLevel(trim_offsets=True), ByteLevel(trim_offsets=False),
    Sequence([ByteLevel(trim_offsets=True), BertProcessing()]),
], ids=["template", "bert", "bytelevel-trim", "bytelevel", "sequence"])
def test_process_leaves_its_inputs_as_they_were(processor, add_special_tokens) -> None:
    # encode hands its own encodings to a faster path that changes them in place; the public
    # process (HF's) must copy, whatever the encodings hold (a pair, overflowing parts, ranges).
    a, b = _a(), _b()
    a.overflow = [Encoding([5], ["Ġx"], [(12, 14)], word_ids=[2])]
    a.set_sequence_id(1)
    for pair in (None, b):
        before = [(_fields(e), e.ranges, [_fields(o) for o in e.overflowing]) for e in (a, b)]
        processor.process(a, pair, add_special_tokens=add_special_tokens)
        assert [(_fields(e), e.ranges, [_fields(o) for o in e.overflowing]) for e in (a, b)] == before


@given(st.lists(st.tuples(st.integers(0, 30000), st.integers(0, 50), st.sampled_from([0, 1]), st.none() | st.integers(0, 9)),
                max_size=6),
       st.sampled_from(["$A", "[CLS] $A", "$A:1 [SEP]", "[CLS] [SEP]:1 $A:2 [M] [SEP]", "[M] $B:1".replace("$B", "$1")]),
       st.sampled_from([0, 1]))
def test_template_single_sequence_fast_path_equals_the_generic_driver(rows: list, single: str, type_id: int) -> None:
    # TemplateProcessing builds the one-sequence result in one go; it must equal the shared driver's
    # concatenation of a part per template piece (ranges, masks, type ids and word ids included).
    from toolkit.processors import _EncodingsProcessor

    enc = Encoding([r[0] for r in rows], [f"t{r[0]}" for r in rows], [(r[1], r[1] + 1) for r in rows],
                   [type_id] * len(rows), [r[2] for r in rows], [1] * len(rows), [r[3] for r in rows])
    proc = TemplateProcessing(single=single, special_tokens=[("[CLS]", 1), ("[SEP]", 2),
                                                            {"id": "[M]", "ids": [3, 4], "tokens": ["<m>", "</m>"]}])
    fast = proc.process(enc)
    generic = _EncodingsProcessor._process_owned(proc, enc.copy(), None, True)  # type: ignore[arg-type]
    assert fast == generic and fast.ranges == generic.ranges
    assert fast.ids is not enc.ids
