"""The differences from HF ``tokenizers`` that docs/migrating.md lists, pinned on both sides.

Each test asserts our behaviour and, with ``tokenizers`` installed, HF's, so that a change on either
side shows up here and the document stays true.
"""

from __future__ import annotations

import json

import pytest

from conftest import require

from algorithms import WordLevel
from pretokenizers import WhitespaceSplit
from toolkit import Tokenizer
from toolkit.decoders import CTC
from toolkit.errors import ConfigError, InputError
from toolkit.normalizers import Precompiled, Prepend
from toolkit.interop.hf_json import to_hf_dict
from toolkit.normalizers.precompiled import build_charsmap
from toolkit.processors import BertProcessing, TemplateProcessing

VOCAB = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "</s>": 3, "a": 4, "b": 5, "c": 6, "ab": 7, "cd": 8}


def _pair(post_processor: object, hf_post_processor: object) -> tuple[Tokenizer, object]:
    ours = Tokenizer(WordLevel(VOCAB, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit(),
                     post_processor=post_processor)
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(VOCAB, "[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    hf.post_processor = hf_post_processor
    return ours, hf


def test_encode_refuses_a_text_over_the_input_limit_where_encode_ids_and_hf_take_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.limits

    tokenizers = require("tokenizers")
    monkeypatch.setattr(toolkit.limits, "MAX_INPUT_CHARS", 10)  # the real limit, 2**22, is the same rule
    ours = Tokenizer(WordLevel({"[UNK]": 0, "ab": 1}, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, "ab": 1}, unk_token="[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    text = "ab " * 4  # 12 characters
    with pytest.raises(InputError, match="MAX_INPUT_CHARS"):
        ours.encode(text)
    assert ours.encode_ids(text) == hf.encode(text).ids == [1, 1, 1, 1]
    ours.enable_truncation(3)  # encode_ids then cuts the ids, still without the limit
    hf.enable_truncation(3)
    assert ours.encode_ids(text) == hf.encode(text).ids == [1, 1, 1]


def test_a_max_length_below_the_added_specials_still_truncates() -> None:
    tokenizers = require("tokenizers")
    ours, hf = _pair(BertProcessing(), tokenizers.processors.BertProcessing(("[SEP]", 2), ("[CLS]", 1)))
    ours.enable_truncation(1)
    hf.enable_truncation(1)
    enc = ours.encode("a b")
    assert enc.tokens == ["[CLS]", "[SEP]"] and [o.tokens for o in enc.overflowing] == [["[CLS]", "a", "b", "[SEP]"]]
    assert hf.encode("a b").tokens == ["[CLS]", "a", "b", "[SEP]"] and hf.encode("a b").overflowing == []


def test_overflowing_parts_get_the_post_processors_type_ids() -> None:
    tokenizers = require("tokenizers")
    template = TemplateProcessing(single="$A:1 </s>", special_tokens=[("</s>", 3)])
    ours, hf = _pair(template, tokenizers.processors.TemplateProcessing(single="$A:1 </s>", special_tokens=[("</s>", 3)]))
    ours.enable_truncation(2)
    hf.enable_truncation(2)
    assert [o.type_ids for o in ours.encode("a b c").overflowing] == [[1, 0], [1, 0]]
    assert [o.type_ids for o in hf.encode("a b c").overflowing] == [[0, 0], [0, 0]]
    assert ours.encode("a b c").ids == hf.encode("a b c").ids


def test_ctc_with_an_empty_word_delimiter_replaces_nothing() -> None:
    tokenizers = require("tokenizers")
    assert CTC(word_delimiter_token="").decode(["ab"]) == "ab"
    assert tokenizers.decoders.CTC(word_delimiter_token="").decode(["ab"]) == " a b "


def test_precompiled_offsets_after_a_deletion_at_the_start() -> None:
    tokenizers = require("tokenizers")
    charsmap = build_charsmap({"x": ""})
    ours = Tokenizer(WordLevel(VOCAB, unk_token="[UNK]"), normalizer=Precompiled(charsmap),
                     pre_tokenizer=WhitespaceSplit())
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(VOCAB, "[UNK]"))
    hf.normalizer = tokenizers.normalizers.Precompiled(__import__("base64").b64decode(charsmap))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    assert ours.encode("xab cd").offsets == [(1, 3), (4, 6)]
    assert hf.encode("xab cd").offsets == [(0, 2), (3, 5)]
    assert ours.encode("xab cd").ids == hf.encode("xab cd").ids == [7, 8]


def test_precompiled_offsets_of_a_deletion_after_an_expansion() -> None:
    tokenizers = require("tokenizers")
    charsmap = build_charsmap({"\u00bd": "12", "\x0b": ""})
    vocab = {"a": 0, "12": 1, "b": 2, "[UNK]": 3}
    ours = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), normalizer=Precompiled(charsmap),
                     pre_tokenizer=WhitespaceSplit())
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, "[UNK]"))
    hf.normalizer = tokenizers.normalizers.Precompiled(__import__("base64").b64decode(charsmap))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    text = "a \u00bd\x0b b"
    assert ours.encode(text).offsets == [(0, 1), (2, 3), (5, 6)]  # "12" came from the ½ alone
    assert hf.encode(text).offsets == [(0, 1), (2, 4), (5, 6)]  # takes in the deleted \x0b
    assert ours.encode(text).ids == hf.encode(text).ids == [0, 1, 2]


def test_a_special_token_added_again_as_ordinary_is_decoded_as_text() -> None:
    tokenizers = require("tokenizers")
    ours, hf = _pair(None, None)
    for tok in (ours, hf):
        tok.add_special_tokens(["<s>"])
        tok.add_tokens(["<s>"])
        assert not tok.get_added_tokens_decoder()[9].special
    ids = ours.encode("a <s> b").ids
    assert ids == hf.encode("a <s> b").ids == [4, 9, 5]
    assert ours.decode(ids) == Tokenizer.from_str(ours.to_str()).decode(ids) == "a <s> b"
    assert hf.decode(ids) == "a b"  # HF still skips it until reloaded from its own file
    assert tokenizers.Tokenizer.from_str(hf.to_str()).decode(ids) == "a <s> b"


def test_an_ordinary_token_added_again_as_special_is_skipped_at_once() -> None:
    tokenizers = require("tokenizers")
    ours, hf = _pair(None, None)
    ours.normalizer, hf.normalizer = Prepend("▁"), tokenizers.normalizers.Prepend("▁")
    for tok in (ours, hf):
        tok.add_tokens(["<p>"])  # normalized: matched, and named by id_to_token, as "▁<p>"
        assert tok.id_to_token(9) == "▁<p>"
        tok.add_special_tokens(["<p>"])
        assert tok.get_added_tokens_decoder()[9].special
    ids = [4, 9, 5]
    assert ours.decode(ids) == Tokenizer.from_str(ours.to_str()).decode(ids) == "a b"
    assert hf.decode(ids) == "a ▁<p> b"  # HF keeps its normalized text until reloaded from its own file
    assert tokenizers.Tokenizer.from_str(hf.to_str()).decode(ids) == "a b"


def test_pre_tokenize_str_lists_no_empty_piece() -> None:
    tokenizers = require("tokenizers")
    from pretokenizers import Sequence

    assert Sequence([]).pre_tokenize_str("") == []
    assert tokenizers.pre_tokenizers.Sequence([]).pre_tokenize_str("") == [("", (0, 0))]
    ours, hf = _pair(None, None)
    ours.pre_tokenizer, hf.pre_tokenizer = Sequence([]), tokenizers.pre_tokenizers.Sequence([])
    assert ours.encode("").ids == hf.encode("").ids == []


def test_post_process_gives_the_first_sequence_its_id() -> None:
    tokenizers = require("tokenizers")
    template = dict(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    ours, hf = _pair(TemplateProcessing(**template), tokenizers.processors.TemplateProcessing(**template))
    mine = ours.post_process(ours.encode("a b", add_special_tokens=False), ours.encode("c", add_special_tokens=False))
    theirs = hf.post_process(hf.encode("a b", add_special_tokens=False), hf.encode("c", add_special_tokens=False))
    assert (mine.ids, mine.type_ids, mine.offsets) == (theirs.ids, theirs.type_ids, theirs.offsets)
    assert mine.sequence_ids == ours.encode("a b", "c").sequence_ids == hf.encode("a b", "c").sequence_ids
    assert mine.sequence_ids == [None, 0, 0, None, 1, None]
    assert theirs.sequence_ids == [None, None, None, None, 1, None]


def test_the_stream_decoder_prints_invalid_bytes_once_four_ids_wait() -> None:
    tokenizers = require("tokenizers")
    from toolkit.interop.pipelines import byte_level_tokenizer

    ours = byte_level_tokenizer()
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    ff, a = ours.token_to_id("ÿ"), ours.token_to_id("a")  # the byte 0xFF never starts a character
    ids = [ff, ff, ff, ff, a]
    stream = ours.stream_decoder()
    mine = [stream.feed(i) for i in ids]
    hf_stream = tokenizers.decoders.DecodeStream(skip_special_tokens=True)
    theirs = [hf_stream.step(hf, i) for i in ids]
    assert mine == ["", "", "", "\ufffd", "\ufffd\ufffd\ufffda"]
    assert theirs == [None, None, None, None, "\ufffd\ufffd\ufffd\ufffda"]
    assert "".join(mine) == "".join(t or "" for t in theirs) == ours.decode(ids) == hf.decode(ids)


def test_metaspace_first_after_a_normalizer_that_adds_leading_text() -> None:
    tokenizers = require("tokenizers")
    from pretokenizers import Metaspace, WhitespaceSplit
    from pretokenizers import Sequence as PreSequence
    from toolkit.normalizers import BertNormalizer

    vocab = {"[UNK]": 0, "▁中": 1, "中": 2, "▁a": 3, "a": 4}
    ours = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), normalizer=BertNormalizer(handle_chinese_chars=True),
                     pre_tokenizer=PreSequence([WhitespaceSplit(), Metaspace(prepend_scheme="first")]))
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    assert ours.encode("中a").tokens == ["中", "a"]  # " 中 a": "中" does not start the normalized text
    assert hf.encode("中a").tokens == ["▁中", "a"]  # it starts at original offset 0
    assert ours.encode("a中").tokens == hf.encode("a中").tokens == ["▁a", "中"]


def test_a_trimmed_unigram_unknown_token_keeps_its_span() -> None:
    tokenizers = require("tokenizers")
    from algorithms import Unigram
    from toolkit.processors import ByteLevel as ByteLevelProcessor

    ours = Tokenizer(Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0)], 0), post_processor=ByteLevelProcessor())
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    mine, theirs = ours.encode("a\u3000b"), hf.encode("a\u3000b")
    assert mine.ids == theirs.ids == [1, 0, 2]
    assert (mine.tokens[1], mine.offsets[1]) == ("<unk>", (1, 2))
    assert (theirs.tokens[1], theirs.offsets[1]) == ("\u3000", (2, 2))
    # an unknown run that ends in whitespace: HF trims the whitespace off its span (found by the pipeline fuzz)
    mine, theirs = ours.encode("a€\u3000b"), hf.encode("a€\u3000b")
    assert mine.ids == theirs.ids == [1, 0, 2]
    assert (mine.tokens[1], mine.offsets[1]) == ("<unk>", (1, 3))
    assert (theirs.tokens[1], theirs.offsets[1]) == ("€\u3000", (1, 2))


def test_bpe_byte_fallback_spells_only_the_characters() -> None:
    tokenizers = require("tokenizers")
    from algorithms import BPE

    vocab = {"a": 0, "b": 1, **{f"<0x{b:02X}>": 2 + b for b in range(256)}}
    ours = Tokenizer(BPE(vocab, [], end_of_word_suffix="</w>", byte_fallback=True), pre_tokenizer=WhitespaceSplit())
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    assert ours.encode("ab").tokens == ["a", "<0x62>"] and ours.encode("ab").offsets == [(0, 1), (1, 2)]
    assert hf.encode("ab").tokens == ["a", "<0x62>", "<0x3C>", "<0x2F>", "<0x77>", "<0x3E>"]


@pytest.mark.parametrize("fuse_unk", [False, True])
def test_bpe_byte_fallback_keeps_the_unknown_token_where_the_character_is(fuse_unk: bool) -> None:
    """Found by tests/test_pipeline_fuzz_hf.py: HF holds an unknown character's token back past the
    byte tokens of the characters after it (and fuses the unknowns on both sides of them)."""
    tokenizers = require("tokenizers")
    from algorithms import BPE

    vocab = {"[UNK]": 0, "a": 1, "<0x62>": 2}  # "b" falls back to its byte; "c" has no token at all
    ours = Tokenizer(BPE(vocab, [], unk_token="[UNK]", byte_fallback=True, fuse_unk=fuse_unk))
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    mine, theirs = ours.encode("cbca"), hf.encode("cbca")
    assert list(zip(mine.tokens, mine.offsets)) == [("[UNK]", (0, 1)), ("<0x62>", (1, 2)), ("[UNK]", (2, 3)), ("a", (3, 4))]
    if fuse_unk:
        assert list(zip(theirs.tokens, theirs.offsets)) == [("<0x62>", (0, 1)), ("[UNK]", (1, 3)), ("a", (3, 4))]
    else:
        assert list(zip(theirs.tokens, theirs.offsets)) == [
            ("<0x62>", (0, 1)), ("[UNK]", (1, 2)), ("[UNK]", (2, 3)), ("a", (3, 4))]
    assert ours.encode("ab").ids == hf.encode("ab").ids == [1, 2]  # no unknown character: the same


def test_the_byte_tokens_of_a_prepended_metaspace_span_nothing() -> None:
    tokenizers = require("tokenizers")
    from algorithms import BPE
    from pretokenizers import Metaspace

    vocab = {"[UNK]": 0, "h": 1, "i": 2, **{f"<0x{b:02X}>": 3 + b for b in range(256)}}
    ours = Tokenizer(BPE(vocab, [], unk_token="[UNK]", byte_fallback=True), pre_tokenizer=Metaspace())
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    mine, theirs = ours.encode("hi"), hf.encode("hi")
    assert mine.tokens == theirs.tokens == ["<0xE2>", "<0x96>", "<0x81>", "h", "i"]  # the bytes of "▁"
    assert mine.offsets == [(0, 0), (0, 0), (0, 0), (0, 1), (1, 2)]
    assert theirs.offsets == [(0, 1), (0, 1), (0, 1), (0, 1), (1, 2)]


@pytest.mark.parametrize("trim", [False, True])
def test_a_prepended_metaspace_spelled_by_byte_level_and_a_trimmed_prepended_g_span_nothing(trim: bool) -> None:
    tokenizers = require("tokenizers")
    from algorithms import Unigram
    from pretokenizers import ByteLevel, Metaspace, Sequence
    from toolkit.processors import ByteLevel as ByteLevelProcessor

    vocab = [("<unk>", 0.0), ("Ġ", -1.0), ("!", -1.0), ("âĸģ", -1.0)]
    processor = ByteLevelProcessor(add_prefix_space=False) if trim else None
    for pre, token in ((ByteLevel(), "Ġ"), (Sequence([Metaspace(), ByteLevel(add_prefix_space=False)]), "âĸģ")):
        ours = Tokenizer(Unigram(vocab, 0), pre_tokenizer=pre, post_processor=processor)
        hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
        mine, theirs = ours.encode("!"), hf.encode("!")
        assert mine.tokens == theirs.tokens == [token, "!"]
        assert mine.offsets == [(0, 0), (0, 1)]
        assert theirs.offsets == [(1, 1) if trim and token == "Ġ" else (0, 1), (0, 1)]


def test_a_list_option_changed_in_place_is_refused_where_hf_ignores_it() -> None:
    tokenizers = require("tokenizers")
    from algorithms import BPETrainer
    from toolkit.errors import ConfigError
    hf = tokenizers.trainers.BpeTrainer(special_tokens=["a"])
    hf.special_tokens.append("b")  # HF's getter returns a copy: nothing changes, silently
    assert [t.content for t in hf.special_tokens] == ["a"]
    ours = BPETrainer(special_tokens=["a"])
    with pytest.raises(ConfigError, match="cannot be changed in place.*assign a new list"):
        ours.special_tokens.append("b")
    assert ours.special_tokens == ["a"]
    hf.special_tokens += ["c"]
    ours.special_tokens += ["c"]  # a new list, assigned: takes effect in both
    assert [t.content for t in hf.special_tokens] == ours.special_tokens == ["a", "c"]


def _llama2() -> tuple[Tokenizer, object]:
    from conftest import shared_path
    tokenizers = require("tokenizers")
    path = shared_path("vocab/llm/llama2/tokenizer.json")
    return Tokenizer.from_file(path), tokenizers.Tokenizer.from_file(str(path))


def test_a_stream_whose_byte_run_turns_invalid_goes_on_without_printing_text_again() -> None:
    """<0xE2> <0x82> <0xAC> print "€"; <0xFF> makes the run invalid, so decode turns all four bytes
    into U+FFFD. HF's DecodeStream raises there; ours prints what follows the printed length."""
    from toolkit.decoders import DecodeStream
    tokenizers = require("tokenizers")
    ours, hf = _llama2()
    ids = [229, 133, 175, 258, 272]  # <0xE2> <0x82> <0xAC> <0xFF> ▁the
    theirs = tokenizers.decoders.DecodeStream()
    assert [theirs.step(hf, i) for i in ids[:4]] == [None, None, "€", None]
    with pytest.raises(Exception, match="Invalid prefix"):
        theirs.step(hf, ids[4])
    stream = DecodeStream()
    out = [stream.step(ours, i) for i in ids]
    assert out == [None, None, "€", None, "\ufffd" * 3 + " the"]
    assert ours.decode(ids) == hf.decode(ids) == "\ufffd" * 4 + " the"  # same length: "€" stands for one


def test_a_stream_started_from_ids_does_not_print_their_text_again() -> None:
    """HF prints the text of a prefix character that was cut in two again; ours only the rest."""
    from toolkit.decoders import DecodeStream
    tokenizers = require("tokenizers")
    ours, hf = _llama2()
    ids = hf.encode("é😀x 👨", add_special_tokens=False).ids  # 👨 is four byte tokens
    cut = next(k for k in range(1, len(ids)) if hf.decode(ids[:k]).endswith("\ufffd"))
    theirs, mine = tokenizers.decoders.DecodeStream(ids=ids[:cut]), DecodeStream(ids=ids[:cut])
    hf_out = "".join(filter(None, (theirs.step(hf, i) for i in ids[cut:])))
    our_out = "".join(filter(None, (mine.step(ours, i) for i in ids[cut:])))
    shown = hf.decode(ids[:cut]).rstrip("\ufffd")
    assert shown + our_out == hf.decode(ids)
    assert hf_out.startswith(shown) and hf_out != our_out


def test_stream_decoder_skips_special_tokens_where_decode_stream_keeps_them() -> None:
    from toolkit.decoders import DecodeStream
    tokenizers = require("tokenizers")
    ours, hf = _llama2()
    ids = [1, 22557]  # <s> ▁Hello
    theirs = tokenizers.decoders.DecodeStream()
    assert [DecodeStream().step(ours, i) for i in ids[:1]] == [theirs.step(hf, ids[0])] == ["<s>"]
    sd = ours.stream_decoder()  # our own name: the default of decode
    assert [sd.feed(i) for i in ids] == ["", "Hello"]


def test_a_single_template_with_b_is_refused_where_hf_panics_on_encode() -> None:
    from toolkit.errors import ConfigError
    tokenizers = require("tokenizers")
    hf_template = tokenizers.processors.TemplateProcessing(single="$B", pair="$A $B", special_tokens=[])
    _, hf = _pair(None, hf_template)
    with pytest.raises(BaseException, match="index out of bounds"):  # a Rust panic
        hf.encode("a b")
    with pytest.raises(ConfigError, match=r"\$B"):
        TemplateProcessing(single="$B", pair="$A $B", special_tokens=[])


def test_byte_level_after_bert_processing_keeps_its_sequence_ranges() -> None:
    from toolkit.processors import ByteLevel, Sequence
    tokenizers = require("tokenizers")
    p = tokenizers.processors
    ours, hf = _pair(Sequence([BertProcessing(("[SEP]", 2), ("[CLS]", 1)), ByteLevel(trim_offsets=False)]),
                     p.Sequence([p.BertProcessing(("[SEP]", 2), ("[CLS]", 1)), p.ByteLevel(trim_offsets=False)]))
    mine, theirs = ours.encode("a b", "c"), hf.encode("a b", "c")
    assert (mine.ids, mine.type_ids, mine.offsets) == (theirs.ids, theirs.type_ids, theirs.offsets)
    assert mine.sequence_ids == [None, 0, 0, None, 1, None]
    assert theirs.sequence_ids == [0, 0, 0, 0, 1, 1]
    ours.post_processor = Sequence([ByteLevel(trim_offsets=False), BertProcessing(("[SEP]", 2), ("[CLS]", 1))])
    hf.post_processor = p.Sequence([p.ByteLevel(trim_offsets=False), p.BertProcessing(("[SEP]", 2), ("[CLS]", 1))])
    assert ours.encode("a b", "c").sequence_ids == hf.encode("a b", "c").sequence_ids == [None, 0, 0, None, 1, None]


def _trained(hf_trainer: object, trainer: object, texts: list[str]) -> tuple[Tokenizer, object]:
    from algorithms import BPE
    from pretokenizers import Whitespace
    tokenizers = require("tokenizers")
    bpe = type(trainer).__name__ == "BPETrainer"
    ours = Tokenizer(BPE() if bpe else WordLevel(unk_token="[UNK]"), pre_tokenizer=Whitespace())
    ours.train(texts, trainer)
    hf = tokenizers.Tokenizer(tokenizers.models.BPE() if bpe else tokenizers.models.WordLevel(unk_token="[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.train_from_iterator(texts, hf_trainer)
    return ours, hf


def test_a_merge_that_would_spell_a_special_token_is_not_learned() -> None:
    from algorithms import BPETrainer
    tokenizers = require("tokenizers")
    ours, hf = _trained(tokenizers.trainers.BpeTrainer(vocab_size=10, special_tokens=["ab"], show_progress=False),
                        BPETrainer(vocab_size=10, special_tokens=["ab"], show_progress=False), ["ab ab ab cd"])
    assert [list(m) for m in json.loads(hf.to_str())["model"]["merges"]] == [["a", "b"], ["c", "d"]]
    assert [list(m) for m in ours.model.merges] == [["c", "d"]]
    assert ours.encode("ab").tokens == ["a", "b"]  # typed text never reaches the special token


def test_word_level_numbers_a_special_token_that_is_also_a_word_once() -> None:
    from algorithms import WordLevelTrainer
    tokenizers = require("tokenizers")
    ours, hf = _trained(tokenizers.trainers.WordLevelTrainer(special_tokens=["[UNK]", "the"], show_progress=False),
                        WordLevelTrainer(special_tokens=["[UNK]", "the"], show_progress=False), ["the cat the"])
    assert ours.get_vocab() == {"[UNK]": 0, "the": 1, "cat": 2}
    assert hf.get_vocab()["the"] == 2 and hf.get_vocab()["cat"] == 3 and 1 not in hf.get_vocab().values()


def test_trainers_take_special_tokens_as_strings() -> None:
    from algorithms import BPETrainer
    from toolkit import AddedToken
    from toolkit.errors import ConfigError
    tokenizers = require("tokenizers")
    tokenizers.trainers.BpeTrainer(special_tokens=[tokenizers.AddedToken("<mask>", lstrip=True)])
    with pytest.raises(ConfigError, match="special_tokens"):
        BPETrainer(special_tokens=[AddedToken("<mask>", lstrip=True, special=True)])


def test_a_bool_is_not_an_id_and_an_id_out_of_range_has_no_token() -> None:
    require("tokenizers")
    ours, hf = _pair(None, None)
    with pytest.raises(InputError, match="a bool, not an integer id"):
        ours.decode([True, 5])
    assert hf.decode([True, 5]) == "[CLS] b"
    assert ours.id_to_token(-1) is None and ours.id_to_token(10**12) is None
    for out_of_range in (-1, 10**12):
        with pytest.raises(OverflowError):
            hf.id_to_token(out_of_range)


def test_padding_targets_and_pad_ids_are_bounded() -> None:
    from toolkit.errors import ConfigError

    ours = Tokenizer(WordLevel(VOCAB, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    for options in ({"length": 10**7}, {"pad_to_multiple_of": 10**7}, {"pad_id": 2**31}):
        with pytest.raises(ConfigError, match="must be at most"):
            ours.enable_padding(**options)
    ours.enable_padding(length=4_194_304, pad_id=8)  # the limit itself is accepted
    with pytest.raises(ConfigError, match="pad_id=9 names no token"):
        ours.enable_padding(pad_id=9)  # decode would refuse the padded ids
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(Tokenizer(WordLevel(VOCAB, unk_token="[UNK]")))))
    hf.enable_padding(length=10**7, pad_id=2**31)  # HF takes any u32
    assert hf.padding["length"] == 10**7 and hf.padding["pad_id"] == 2**31


def test_metaspace_first_after_a_normalizer_that_expands_the_first_character() -> None:
    tokenizers = require("tokenizers")
    from pretokenizers import Metaspace, Punctuation
    from pretokenizers import Sequence as PreSequence
    from toolkit.normalizers import NFKC

    vocab = {"[UNK]": 0, "▁": 1, ".": 2, "▁.": 3, "a": 4}
    ours = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), normalizer=NFKC(),
                     pre_tokenizer=PreSequence([Punctuation(), Metaspace(prepend_scheme="first", split=False)]))
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    assert ours.encode("…").tokens == ["▁.", ".", "."]  # "..." : only the piece that starts the text
    assert hf.encode("…").tokens == ["▁.", "▁.", "▁."]  # every piece at original offset 0


def test_split_has_a_default_behavior_where_hf_requires_one() -> None:
    tokenizers = require("tokenizers")
    from pretokenizers import Split

    assert Split(" ").pre_tokenize_str("a b") == Split(" ", "isolated").pre_tokenize_str("a b")
    assert Split(" ", "isolated").pre_tokenize_str("a b") == tokenizers.pre_tokenizers.Split(
        " ", "isolated").pre_tokenize_str("a b") == [("a", (0, 1)), (" ", (1, 2)), ("b", (2, 3))]
    with pytest.raises(TypeError):
        tokenizers.pre_tokenizers.Split(" ")


def test_strip_decoder_strips_a_short_token_as_far_as_it_goes_where_hf_panics() -> None:
    tokenizers = require("tokenizers")
    from toolkit.decoders import Strip

    assert Strip(" ", 0, 1).decode(["", "ab "]) == "ab"
    assert Strip(" ", 1, 1).decode([" ", " b "]) == "b"
    assert Strip(" ", 0, 1).decode(["a ", "b "]) == tokenizers.decoders.Strip(" ", 0, 1).decode(["a ", "b "]) == "ab"
    for strip, tokens in (((" ", 0, 1), [""]), ((" ", 1, 1), [" "])):
        with pytest.raises(BaseException):  # noqa: B017, PT011 (pyo3's PanicException derives from BaseException)
            tokenizers.decoders.Strip(*strip).decode(tokens)


def test_bert_processing_reads_a_list_as_the_token_and_id_pair() -> None:
    tokenizers = require("tokenizers")

    assert BertProcessing(["[SEP]", 2], ["[CLS]", 1]).to_dict() == BertProcessing(("[SEP]", 2), ("[CLS]", 1)).to_dict()
    with pytest.raises(TypeError):
        tokenizers.processors.BertProcessing(["[SEP]", 2], ("[CLS]", 1))


def test_prepend_of_nothing_keeps_the_offsets() -> None:
    tokenizers = require("tokenizers")

    ours = Tokenizer(WordLevel({"[UNK]": 0, "a": 1, "b": 2}, unk_token="[UNK]"), normalizer=Prepend(""),
                     pre_tokenizer=WhitespaceSplit())
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(ours)))
    assert ours.encode("a b").offsets == [(0, 1), (2, 3)]
    assert hf.encode("a b").offsets == [(0, 0), (2, 3)]


def _train_both(model: str, texts: list[str], **options: object) -> tuple[Tokenizer, object]:
    """The same WhitespaceSplit pipeline trained by us and by HF (``model``: "BPE" or "WordPiece")."""
    import algorithms

    tokenizers = require("tokenizers")
    ours = Tokenizer(getattr(algorithms, model)(), pre_tokenizer=WhitespaceSplit())
    ours.train_from_iterator(texts, getattr(algorithms, f"{model}Trainer")(show_progress=False, **options))
    hf_model = tokenizers.models.BPE() if model == "BPE" else tokenizers.models.WordPiece(unk_token="[UNK]")
    hf = tokenizers.Tokenizer(hf_model)
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    hf_options = {k: v for k, v in options.items() if k != "criterion"}
    hf.train_from_iterator(texts, getattr(tokenizers.trainers, f"{model}Trainer".replace("BPE", "Bpe"))(
        show_progress=False, **hf_options))
    return ours, hf


def test_max_token_length_is_the_longest_token_where_hfs_stops_one_short() -> None:
    ours, hf = _train_both("BPE", ["abc abc abc"], vocab_size=30, max_token_length=3)
    assert set(ours.get_vocab()) == {"a", "b", "c", "ab", "abc"}
    assert set(hf.get_vocab()) == {"a", "b", "c", "ab"}
    ours2, _ = _train_both("BPE", ["abc abc abc"], vocab_size=30, max_token_length=2)
    assert ours2.get_vocab() == hf.get_vocab()  # HF's n is our n - 1


def test_affixed_symbols_are_numbered_by_code_point_where_hf_uses_its_word_order() -> None:
    ours, hf = _train_both("BPE", ["aacba"], vocab_size=8, continuing_subword_prefix="##")
    assert [ours.token_to_id(t) for t in ("##a", "##b", "##c")] == [3, 4, 5]
    assert [hf.token_to_id(t) for t in ("##a", "##c", "##b")] == [3, 4, 5]  # one word: its order
    assert "##ba" in ours.get_vocab() and "##cb" in hf.get_vocab()
    plain, hf_plain = _train_both("BPE", ["aacba cab"], vocab_size=9)  # no affix: HF's vocabulary
    assert plain.get_vocab() == hf_plain.get_vocab()


def test_a_repeated_special_token_counts_once_and_an_empty_one_is_refused() -> None:
    from algorithms import BPETrainer, WordLevelTrainer, WordPieceTrainer

    for criterion in ("frequency", "likelihood", "score"):
        ours, hf = _train_both("WordPiece", ["hug pug pun bun hugs"] * 3, vocab_size=12, criterion=criterion,
                               special_tokens=["[UNK]", "[UNK]", "[PAD]"])
        assert [ours.token_to_id(t) for t in ("[UNK]", "[PAD]")] == [hf.token_to_id(t) for t in ("[UNK]", "[PAD]")] == [0, 1]
    for make in (BPETrainer, WordPieceTrainer, WordLevelTrainer):
        with pytest.raises(ConfigError, match="special_tokens: the empty string cannot be a token"):
            make(special_tokens=["[UNK]", ""])


def test_a_special_token_that_is_a_character_of_the_text() -> None:
    tokenizers = require("tokenizers")
    ours, hf = _train_both("WordPiece", ["a b ab ab"], vocab_size=30, criterion="frequency",
                           special_tokens=["[UNK]", "a"])
    assert ours.encode("a b").tokens == ["[UNK]", "b"]
    assert hf.encode("a b").tokens == ["a", "b"]  # HF matches it anywhere in the text
    assert hf.encode("ba").tokens == ours.encode("ba", allowed_special="all").tokens == ["b", "a"]
    bpe, _ = _train_both("BPE", ["a b ab ab"], vocab_size=30, special_tokens=["[UNK]", "a"])
    assert bpe.encode("a").ids == [bpe.token_to_id("a")]
    assert tokenizers  # imported for the skip when HF is absent


def _lowercase_pair(normalizer: str = "Lowercase") -> tuple[Tokenizer, object]:
    """The same WordLevel pipeline in HF and (loaded from HF's JSON) ours, with ``normalizer``."""
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, "[UNK]"))
    hf.normalizer = getattr(tokenizers.normalizers, normalizer)()
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    return Tokenizer.from_str(hf.to_str()), hf


def test_decode_skips_special_tokens_by_id_where_hf_compares_their_text() -> None:
    ours, hf = _lowercase_pair()
    for tok in (ours, hf):
        tok.add_special_tokens(["<s>"])
        tok.add_tokens(["<S>"])  # ordinary, normalized: matches "<S>" as "<s>"
    ids = hf.encode("<S>").ids
    assert ours.encode("<S>").ids == ids
    assert ours.decode(ids) == "<s>" and hf.decode(ids) == ""  # kept (as its normalized text), HF skips it


def test_an_added_token_added_again_unnormalized_decodes_as_its_content_at_once() -> None:
    from toolkit import AddedToken

    tokenizers = require("tokenizers")
    ours, hf = _lowercase_pair()
    ours.add_tokens([AddedToken("AB")])
    ours.add_tokens([AddedToken("AB", normalized=False)])
    hf.add_tokens([tokenizers.AddedToken("AB")])
    hf.add_tokens([tokenizers.AddedToken("AB", normalized=False)])
    ids = hf.encode("AB").ids
    assert ours.encode("AB").ids == ids
    assert ours.decode(ids) == "AB" and hf.decode(ids) == "ab"
    assert tokenizers.Tokenizer.from_str(hf.to_str()).decode(ids) == "AB"  # HF once reloaded


def test_an_added_token_the_normalizer_deletes_matches_nothing() -> None:
    ours, hf = _lowercase_pair("BertNormalizer")
    for tok in (ours, hf):
        tok.add_tokens(["\u200b"])
    assert ours.encode("ab").tokens == ["ab"]
    assert hf.encode("ab").tokens == ["a", "b"]  # HF: the empty text matches everywhere


def test_two_added_tokens_normalizing_alike_match_as_the_first_added() -> None:
    from toolkit.normalizers import NFKC, Lowercase, Sequence

    tok = Tokenizer(WordLevel(VOCAB, unk_token="[UNK]"), normalizer=Sequence([NFKC(), Lowercase()]),
                    pre_tokenizer=WhitespaceSplit())
    tok.add_tokens(["AB", "ＡＢ"])  # both normalize to "ab"; HF picks one in hash-map order
    first = tok.token_to_id("AB")
    assert tok.encode("AB ＡＢ ab").ids == [first] * 3


# --------------------------------------------------------------------------- trainers
_TRAIN_TEXT = ["low lower lowest newer newest widest"] * 10


def test_training_keeps_the_models_affixes_where_hf_resets_them_to_the_trainers() -> None:
    from algorithms import BPE, BPETrainer
    from pretokenizers import Whitespace

    ours = Tokenizer(BPE(continuing_subword_prefix="##"), pre_tokenizer=Whitespace())
    ours.train_from_iterator(_TRAIN_TEXT, BPETrainer(vocab_size=25, show_progress=False))
    assert ours.model.continuing_subword_prefix == "##" and ours.encode("lowest").tokens == ["lo", "##west"]
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(continuing_subword_prefix="##"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.train_from_iterator(_TRAIN_TEXT, tokenizers.trainers.BpeTrainer(vocab_size=25, show_progress=False))
    assert hf.model.continuing_subword_prefix is None and hf.encode("lowest").tokens == ["lowest"]


def test_unigram_training_keeps_the_models_unknown_piece_where_hf_leaves_it_out() -> None:
    from algorithms import Unigram, UnigramTrainer
    from pretokenizers import Metaspace

    ours = Tokenizer(Unigram([("<unk>", 0.0), ("a", -1.0)], 0), pre_tokenizer=Metaspace())
    ours.train_from_iterator(_TRAIN_TEXT, UnigramTrainer(vocab_size=30, show_progress=False))
    assert ours.model.unk_id == 0 and ours.id_to_token(0) == "<unk>"
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.Unigram([("<unk>", 0.0), ("a", -1.0)], 0))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
    hf.train_from_iterator(_TRAIN_TEXT, tokenizers.trainers.UnigramTrainer(vocab_size=30, show_progress=False))
    assert hf.token_to_id("<unk>") is None and json.loads(hf.to_str())["model"]["unk_id"] is None


def test_every_trainer_refuses_a_model_of_another_type_as_hf_wordpiece_trainer_does() -> None:
    from algorithms import BPE, WordPieceTrainer

    ours = Tokenizer(BPE())
    with pytest.raises(ConfigError, match="WordPieceTrainer trains WordPiece models; the tokenizer's model is a BPE"):
        ours.train_from_iterator(_TRAIN_TEXT, WordPieceTrainer(vocab_size=40, show_progress=False))
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.BPE())
    with pytest.raises(Exception, match="WordPieceTrainer can only train a WordPiece"):
        hf.train_from_iterator(_TRAIN_TEXT, tokenizers.trainers.WordPieceTrainer(vocab_size=40, show_progress=False))


def test_unigram_lists_a_repeated_special_token_or_one_also_learned_once_where_hf_lists_it_twice() -> None:
    from algorithms import Unigram, UnigramTrainer
    from pretokenizers import Metaspace

    import random

    rng = random.Random(5)
    text = [" ".join("".join(rng.choice("lowernst") for _ in range(rng.randint(2, 6))) for _ in range(12)) for _ in range(40)]
    text += ["low"] * 40
    tokenizers = require("tokenizers")
    for specials, unk_ours, unk_hf in ((["<s>", "<s>", "<unk>"], 1, 2), (["<unk>", "▁low"], 0, 0)):
        ours = Tokenizer(Unigram(), pre_tokenizer=Metaspace())
        ours.train_from_iterator(text, UnigramTrainer(vocab_size=30, unk_token="<unk>", special_tokens=specials,
                                                             show_progress=False))
        tokens = [t for t, _ in ours.model.vocab]
        assert len(tokens) == len(set(tokens)) == 30 and ours.token_to_id("<unk>") == unk_ours
        hf = tokenizers.Tokenizer(tokenizers.models.Unigram())
        hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
        hf.train_from_iterator(text, tokenizers.trainers.UnigramTrainer(
            vocab_size=30, unk_token="<unk>", special_tokens=specials, show_progress=False))
        hf_tokens = [t for t, _ in json.loads(hf.to_str())["model"]["vocab"]]
        assert len(hf_tokens) > len(set(hf_tokens)) and hf_tokens.index("<unk>") == unk_hf


def test_wordpiece_likelihood_puts_initial_alphabet_characters_inside_words_too() -> None:
    from algorithms import WordPiece, WordPieceTrainer
    from pretokenizers import Whitespace

    results = {}
    for criterion in ("likelihood", "score", "frequency"):
        ours = Tokenizer(WordPiece(), pre_tokenizer=Whitespace())
        ours.train_from_iterator(_TRAIN_TEXT, WordPieceTrainer(vocab_size=60, initial_alphabet=["é"], criterion=criterion,
                                                               show_progress=False))
        results[criterion] = ours.encode("lowé").tokens
        assert ours.token_to_id("é") is not None
    assert results["likelihood"][-1] == results["score"][-1] == "##é" and results["frequency"] == ["[UNK]"]
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.train_from_iterator(_TRAIN_TEXT, tokenizers.trainers.WordPieceTrainer(
        vocab_size=60, initial_alphabet=["é"], special_tokens=["[UNK]"], show_progress=False))
    assert hf.token_to_id("é") is not None and hf.token_to_id("##é") is None and hf.encode("lowé").tokens == ["[UNK]"]


def test_train_from_iterator_refuses_a_str_where_hf_trains_on_its_characters() -> None:
    from toolkit.errors import CorpusError

    with pytest.raises(CorpusError, match="expects an iterable of texts, got str"):
        Tokenizer(WordLevel(VOCAB, unk_token="[UNK]")).train_from_iterator("hello")
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(unk_token="[UNK]"))
    hf.train_from_iterator("hello", tokenizers.trainers.WordLevelTrainer(special_tokens=["[UNK]"], show_progress=False))
    assert set(hf.get_vocab()) == {"[UNK]", "h", "e", "l", "o"}


@pytest.mark.parametrize("kind", ["bert", "roberta", "template", "none"])
def test_a_special_token_typed_in_the_text_is_marked_whatever_the_post_processor(kind: str) -> None:
    """Our mask is 1 for every special token, the typed ones included, with and without the post-processor's
    own; HF marks only those the post-processor adds. Padding given to ``post_process`` is content in both."""
    from toolkit.processors import RobertaProcessing

    tokenizers = require("tokenizers")
    P = tokenizers.processors
    ours_post, hf_post = {
        "bert": (BertProcessing(("[SEP]", 2), ("[CLS]", 1)), P.BertProcessing(("[SEP]", 2), ("[CLS]", 1))),
        "roberta": (RobertaProcessing(("[SEP]", 2), ("[CLS]", 1)), P.RobertaProcessing(("[SEP]", 2), ("[CLS]", 1))),
        "template": (TemplateProcessing("[CLS] $A [SEP]", "$A $B", [("[CLS]", 1), ("[SEP]", 2)]),
                     P.TemplateProcessing(single="[CLS] $A [SEP]", pair="$A $B", special_tokens=[("[CLS]", 1), ("[SEP]", 2)])),
        "none": (None, None),
    }[kind]
    ours, hf = _pair(ours_post, hf_post)
    ours.add_special_tokens(["</s>"])
    hf.add_special_tokens(["</s>"])
    for add in (True, False):
        mine, theirs = ours.encode("a </s> b", allowed_special="all", add_special_tokens=add), hf.encode("a </s> b", add_special_tokens=add)
        assert mine.ids == theirs.ids
        typed = mine.tokens.index("</s>")
        assert mine.special_tokens_mask[typed] == 1 and theirs.special_tokens_mask[typed] == 0
        assert [m for i, m in enumerate(mine.special_tokens_mask) if i != typed] == [
            m for i, m in enumerate(theirs.special_tokens_mask) if i != typed]
    if ours_post is not None:  # padding before post_process: content for both
        ours.enable_padding(length=6, pad_id=0)
        hf.enable_padding(length=6, pad_id=0)
        padded, hf_padded = ours.encode("a b", add_special_tokens=False), hf.encode("a b", add_special_tokens=False)
        ours.no_padding()
        hf.no_padding()
        mine, theirs = ours.post_process(padded), hf.post_process(hf_padded)
        assert (mine.special_tokens_mask, mine.attention_mask) == (theirs.special_tokens_mask, theirs.attention_mask)


def test_negative_indices_lone_surrogates_and_none_pairs() -> None:
    ours, hf = _pair(None, None)  # skips without tokenizers
    enc, hf_enc = ours.encode("a b"), hf.encode("a b")
    for method in ("char_to_token", "char_to_word", "word_to_tokens", "word_to_chars", "token_to_chars",
                   "token_to_word", "token_to_sequence"):
        with pytest.raises(InputError):
            getattr(enc, method)(-1)
        with pytest.raises(OverflowError):
            getattr(hf_enc, method)(-1)
    with pytest.raises(InputError, match="lone surrogate U\\+D800 at index 1"):
        ours.encode("a\ud800b")
    with pytest.raises(TypeError):
        hf.encode("a\ud800b")
    assert [e.ids for e in ours.encode_batch([("a b", None)])] == [hf.encode("a b").ids]
    with pytest.raises(TypeError):
        hf.encode_batch([("a b", None)])


@pytest.mark.parametrize(("pattern", "text", "ours", "hf"), [
    (r"[[:digit:]]", "a٣b", [("a٣b", (0, 3))], [("a", (0, 1)), ("b", (2, 3))]),
    (r"[[:punct:]]", "aⒶb", [("aⒶb", (0, 3))], [("a", (0, 1)), ("b", (2, 3))]),
    (r"\p{Extended_Pictographic}", "a★b", [("a★b", (0, 3))], [("a", (0, 1)), ("b", (2, 3))]),
    (r"(?i)\u0130", "aib", [("a", (0, 1)), ("b", (2, 3))], [("aib", (0, 3))]),
    (r"a{,}", "ab", [("b", (1, 2))], [("ab", (0, 2))]),
])
def test_regex_syntax_that_keeps_the_regex_modules_meaning(pattern: str, text: str, ours: list, hf: list) -> None:
    from pretokenizers import Split
    from toolkit.normalizers import Regex

    assert Split(Regex(pattern), "removed").pre_tokenize_str(text) == ours
    tokenizers = require("tokenizers")
    assert tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), "removed").pre_tokenize_str(text) == hf


def test_a_vocab_line_of_only_unicode_whitespace_is_blank() -> None:
    # bert-base-chinese's line 344 holds only U+2028: no token here, "" in HF (docs/migrating.md).
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "vocab.txt"
        path.write_text("[UNK]\n[CLS]\n[SEP]\n\u2028\nb\n", encoding="utf-8")
        ours = Tokenizer.from_bert_vocab(str(path))
        assert (ours.get_vocab_size(), ours.id_to_token(3), ours.token_to_id("b")) == (4, None, 4)
        with pytest.raises(InputError, match="id 3"):
            ours.decode([3])
        tokenizers = require("tokenizers")
        hf = tokenizers.Tokenizer(tokenizers.models.WordPiece.from_file(str(path), unk_token="[UNK]"))
        assert (hf.id_to_token(3), hf.token_to_id("b"), hf.get_vocab_size(), hf.decode([3])) == ("", 4, 5, "")


def test_special_tokens_at_the_top_are_exported_as_added_tokens_only() -> None:
    from algorithms import ByteLevelBPE, ByteLevelBPETrainer
    from pretokenizers import ByteLevel

    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False))
    tok.train(["hello world"] * 20, ByteLevelBPETrainer(vocab_size=270, special_tokens=["<|endoftext|>"],
                                                         show_progress=False))
    top = tok.token_to_id("<|endoftext|>")
    assert top == tok.get_vocab_size() - 1  # our trainer numbers special tokens after the rest
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer.from_str(json.dumps(to_hf_dict(tok)))
    assert hf.get_vocab_size(with_added_tokens=False) == tok.get_vocab_size() - 1  # docs/migrating.md
    assert hf.get_vocab_size() == tok.get_vocab_size() and hf.token_to_id("<|endoftext|>") == top
