"""Fast paths against the slow, obviously correct definitions they replace.

- ``BertNormalizer``: the per-character translate tables and the ASCII path against the step-by-step
  methods (``_normalize_str_stepwise`` / ``_normalize_stepwise``), text and alignments;
- ``BertPreTokenizer``: the ``re`` patterns against the ``regex`` V1 definition, and ``split_slices``;
- ``ByteLevel``: ``pre_tokenize`` / ``split_slices`` against the pattern's spans and a per-character
  respelling;
- ``Piece.map_chars`` against a per-character construction;
- ``Tokenizer.encode`` (its per-piece caches, the ``split_slices`` path and the generic path) against a
  reference encoder written out here with explicit per-character alignments. The reference calls none
  of the Tokenizer's own helpers: it cuts special tokens with ``str.find`` (leftmost, then longest) and
  composes the components' public ``normalize`` / ``pre_tokenize`` itself.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms import ByteLevelBPE, WordPiece
from pretokenizers import CL100K_PATTERN, BertPreTokenizer, ByteLevel, Metaspace, Split, WhitespaceSplit
from pretokenizers import Sequence as PreSequence
from pretokenizers.bert import _ASCII_RE, _BERT_RE, _UNICODE_RE
from pretokenizers.patterns import GPT2_PATTERN
from conftest import shared_path
from toolkit import Tokenizer
from toolkit import normalizers as N
from toolkit.alignment import NormalizedString, Piece
from toolkit.bytelevel import BYTE_TO_CHAR, to_byte_level
from toolkit.normalizers import Regex

_CHARS = (
    "abcxyzABCXYZ019 .,;!?'\"-_()[]$€“”’‘—…\t\n\r\x00\x07\x1c\x7f\x85\u00a0\u3000\u200b\ufeff\ufffd\uffff"
    "éÉèÀçñßİıΣσς ﬁﬃǄ①½ｶﾞ가각中文豈𠀀🥰\u0300\u0301\u0316\u0323\u0345\u0307\u0f73\u0f71\u093e\u0b47\u0b3e"
    "\u1100\u1161\u11a8\u07fd\u1abf\u32ff\ua7f2\U00011930"
)
TEXT = st.text(alphabet=st.one_of(st.sampled_from(_CHARS), st.characters(exclude_categories=("Cs",))), max_size=40)
SPECIALS = ["[CLS]", "[SEP]", "<|endoftext|>", "<|im_start|>", "<|im_start|>assistant", "assistant", "<|im_end|>"]
SPECIAL_TEXT = st.lists(st.one_of(TEXT, st.sampled_from(SPECIALS)), max_size=4).map("".join)

BERT_OPTIONS = [
    dict(clean_text=c, handle_chinese_chars=h, strip_accents=s, lowercase=lo)
    for c in (True, False) for h in (True, False) for s in (None, True, False) for lo in (True, False)
]


def _spans(ns: NormalizedString) -> list[tuple[int, int]]:
    n = len(ns.normalized)
    return [ns.original_span(i, i + 1) for i in range(n)] + [ns.original_span(0, 0), ns.original_span(n, n)]


# --------------------------------------------------------------------------- BertNormalizer

@pytest.mark.parametrize("options", BERT_OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@given(text=TEXT)
def test_bert_normalizer_fast_paths_equal_the_stepwise_path(options: dict, text: str) -> None:
    n = N.BertNormalizer(**options)
    assert n.normalize_str(text) == n._normalize_str_stepwise(text)
    fast, slow = n.normalize(NormalizedString(text)), n._normalize_stepwise(NormalizedString(text))
    assert fast.normalized == slow.normalized
    assert _spans(fast) == _spans(slow)


@given(text=TEXT)
def test_bert_normalizer_fast_path_keeps_earlier_alignments(text: str) -> None:
    # After a length-changing normalizer, the fast path must carry the alignments it was given.
    n = N.BertNormalizer()
    ns = N.Replace("a", "aa").normalize(N.NFKC().normalize(NormalizedString(text)))
    fast, slow = n.normalize(ns), n._normalize_stepwise(ns)
    assert fast.normalized == slow.normalized
    assert _spans(fast) == _spans(slow)


_OTHER_BERT_OPTIONS = [{"lowercase": False, "strip_accents": True}, {"strip_accents": False}]


def _blocks(sample: str) -> list[str]:
    """Blocks of 256 code points (surrogates aside) joined by "q", so that marks meet the characters
    before them: ``"all"`` of them; ``"every 5th"`` block; ``"assigned"``: every block holding a character
    Python's Unicode database assigns (not Cn, Co or Cs), and every 5th of the others (unassigned and
    private-use code points, which the normalizer passes through alike)."""
    import unicodedata

    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    blocks = [chars[i : i + 256] for i in range(0, len(chars), 256)]

    def keep(k: int, block: list[str]) -> bool:
        if sample == "all" or k % 5 == 0:
            return True
        return sample == "assigned" and any(unicodedata.category(c) not in ("Cn", "Co") for c in block)

    return ["q".join(block) for k, block in enumerate(blocks) if keep(k, block)]


# Every code point costs about 8 s per configuration (each character is analysed once, the table being
# bounded): the default options run on every assigned block by default, the others on every 5th block;
# every configuration on every code point in -m slow.
@pytest.mark.parametrize(("options", "sample"), [
    ({}, "assigned"),
    *((o, "every 5th") for o in _OTHER_BERT_OPTIONS),
    *(pytest.param(o, "all", marks=pytest.mark.slow) for o in [{}, *_OTHER_BERT_OPTIONS]),
])
def test_bert_normalizer_per_character_table_on_every_code_point(options: dict, sample: str) -> None:
    n = N.BertNormalizer(**options)
    for block in _blocks(sample):
        assert n.normalize_str(block) == n._normalize_str_stepwise(block), hex(ord(block[0]))


def test_bert_normalizer_ascii_paths() -> None:
    n = N.BertNormalizer()
    assert n.normalize_str("Tab\tNL\nCR\rnul\x00del\x7f") == "tab nl cr nuldel"
    ns = n.normalize(NormalizedString("A\tB"))
    assert ns.normalized == "a b" and ns.alignments is None
    ns = n.normalize(NormalizedString("A\x00B"))
    assert ns.normalized == "ab" and _spans(ns) == _spans(n._normalize_stepwise(NormalizedString("A\x00B")))
    same = NormalizedString("abc")
    assert n.normalize(same) is same


# --------------------------------------------------------------------------- BertPreTokenizer

def test_bert_patterns_on_every_code_point() -> None:
    def contexts(cp: int) -> str:
        c = chr(cp)
        return f"a{c}b {c}{c}\t{c}"

    for cp in range(0x80):
        assert _ASCII_RE.findall(contexts(cp)) == _BERT_RE.findall(contexts(cp)), hex(cp)
    # A newline is whitespace, which no match of either pattern holds: the contexts of 4,096 code points
    # joined by newlines give the matches of each in turn. Lone surrogates are included: they are word
    # characters for both.
    for start in range(0, 0x110000, 4096):
        text = "\n".join(map(contexts, range(start, start + 4096)))
        if _UNICODE_RE.findall(text) != _BERT_RE.findall(text):
            for cp in range(start, start + 4096):  # name the code point
                assert _UNICODE_RE.findall(contexts(cp)) == _BERT_RE.findall(contexts(cp)), hex(cp)


@given(text=TEXT)
def test_bert_pre_tokenizer_paths_agree(text: str) -> None:
    pre = BertPreTokenizer()
    expected = [(m.group(), m.span()) for m in _BERT_RE.finditer(text)]
    assert pre.split_text(text) == [p for p, _ in expected]
    pieces, starts, spell = pre.split_slices(text)
    assert spell is None and [(p, (s, s + len(p))) for p, s in zip(pieces, starts)] == expected
    assert [(p.text, (p.start, p.end)) for p in pre.pre_tokenize([Piece(text, 0, len(text))])] == expected
    # A piece that already has a per-character table keeps using it.
    shifted = Piece(text, 1, len(text) + 1, [(i + 1, i + 2) for i in range(len(text))])
    assert [(p.text, (p.start, p.end)) for p in pre.pre_tokenize([shifted])] == [
        (p, (s + 1, e + 1)) for p, (s, e) in expected
    ]


# --------------------------------------------------------------------------- ByteLevel and Piece

def _respell(text: str, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Byte-level spelling, each byte character aligned to its source character's span."""
    out, align = "", []
    for c, span in zip(text, spans):
        bl = to_byte_level(c)
        out += bl
        align += [span] * len(bl)
    return out, align


def _byte_level_reference(pre: ByteLevel, text: str) -> list[tuple[str, list[tuple[int, int]]]]:
    spans = [(i, i + 1) for i in range(len(text))]
    if pre.add_prefix_space and text and not text.startswith(" "):
        text, spans = " " + text, [(0, 0), *spans]
    return [_respell(text[s:e], spans[s:e]) for s, e in pre._spans(text) if e > s]


def _char_spans(piece: Piece) -> list[tuple[int, int]]:
    return [piece.span(i, i + 1) for i in range(len(piece.text))]


@pytest.mark.parametrize("options", [{}, {"add_prefix_space": False}, {"use_regex": False}])
@given(text=TEXT)
def test_byte_level_pre_tokenize_against_the_definition(options: dict, text: str) -> None:
    pre = ByteLevel(**options)
    got = [(p.text, _char_spans(p)) for p in pre.pre_tokenize([Piece(text, 0, len(text))])]
    assert got == _byte_level_reference(pre, text)
    sliced = pre.split_slices(text)
    if sliced is None:
        assert pre.add_prefix_space and text and not text.startswith(" ")
    else:
        pieces, starts, spell = sliced
        assert "".join(pieces) == text  # the GPT-2 pattern matches every character
        assert [text[s : s + len(p)] for p, s in zip(pieces, starts)] == pieces
        assert [spell(p) for p in pieces] == pre.split_text(text)


_SPLITS = [
    Split(Regex(pattern), behavior, invert=invert)
    for pattern in (r"\s+", r"[aeiou]*", r"(\d)", CL100K_PATTERN, "")
    for behavior in ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")
    for invert in (False, True)
] + [Split("ab", "isolated"), Split(" ", "removed")]


@pytest.mark.parametrize("pre", _SPLITS, ids=lambda p: f"{p.regex_text!r}-{p.behavior}-{p.invert}")
@given(text=TEXT)
def test_split_slices_are_the_pre_tokenized_pieces(pre: Split, text: str) -> None:
    """``Split.split_slices`` (the cached path of ``encode``) gives the pieces and spans of ``pre_tokenize``."""
    pieces, starts, spell = pre.split_slices(text)
    expected = [(p.text, p.start) for p in pre.pre_tokenize([Piece(text, 0, len(text))])]
    assert spell is None and list(zip(pieces, starts)) == expected
    assert all(text[s : s + len(p)] == p for p, s in zip(pieces, starts))


_SEQUENCES = [
    PreSequence([Split(Regex(r"\p{N}{1,3}"), "isolated"), Split(Regex(r"[aeiou]+"), "isolated"),
                 Split(Regex(CL100K_PATTERN), "isolated"), ByteLevel(add_prefix_space=False, use_regex=False)]),
    PreSequence([Split(Regex(r"\s+"), "removed"), Split(Regex(r"[aeiou]*"), "merged_with_next", invert=True)]),
    PreSequence([Split(" ", "isolated"), Split(Regex("(a)"), "contiguous"), Split(Regex(r"\d"), "merged_with_previous")]),
]


@pytest.mark.parametrize("pre", _SEQUENCES, ids=range(len(_SEQUENCES)))
@given(text=TEXT)
def test_sequence_split_slices_are_the_pre_tokenized_pieces(pre: PreSequence, text: str) -> None:
    """A Sequence of Splits (and a last byte-level respelling) slices as its ``pre_tokenize`` cuts."""
    pieces, starts, spell = pre.split_slices(text)
    expected = [(p.text, p.start) for p in pre.pre_tokenize([Piece(text, 0, len(text))])]
    respell = spell or (lambda piece: piece)
    assert [(respell(p), s) for p, s in zip(pieces, starts)] == expected
    assert all(text[s : s + len(p)] == p for p, s in zip(pieces, starts))


@given(text=TEXT)
def test_gpt2_pattern_tiles_every_text(text: str) -> None:
    import regex

    assert "".join(regex.findall(GPT2_PATTERN, text)) == text


@given(text=TEXT, prefix=st.sampled_from(["", "▁", "ab"]), shifted=st.booleans())
def test_map_chars_against_a_per_character_construction(text: str, prefix: str, shifted: bool) -> None:
    align = [(2 * i, 2 * i + 2) for i in range(len(text))] if shifted else None
    piece = Piece(text, 0, 2 * len(text) if shifted else len(text), align)
    for fn in (str.upper, to_byte_level, lambda c: "" if c == "a" else c, lambda c: "_" if c == " " else c):
        mapped = piece.map_chars(fn, prefix=prefix)
        out, spans = prefix, [(0, 0)] * len(prefix)
        for i, c in enumerate(text):
            out += fn(c)
            spans += [piece.span(i, i + 1)] * len(fn(c))
        assert mapped.text == out and _char_spans(mapped) == spans
        assert (mapped.start, mapped.end) == (piece.start, piece.end)


# --------------------------------------------------------------------------- Tokenizer.encode

def _cut_specials(text: str, allowed: frozenset[str]) -> list[tuple[int, int, str | None]]:
    """``(start, end, special token or None)``: scan with ``str.find``; the leftmost occurrence of an
    allowed token is cut first, and of the tokens found there the longest (``<|im_start|>assistant``
    before ``<|im_start|>``)."""
    out: list[tuple[int, int, str | None]] = []
    pos = 0
    while pos < len(text):
        found = [(i, -len(t), t) for t in allowed if t and (i := text.find(t, pos)) >= 0]
        if not found:
            break
        start, _, token = min(found)
        if start > pos:
            out.append((pos, start, None))
        out.append((start, start + len(token), token))
        pos = start + len(token)
    if pos < len(text):
        out.append((pos, len(text), None))
    return out


def _normalize(n: object, ns: NormalizedString) -> NormalizedString:
    """The normalizer applied by hand: a Sequence child by child, BertNormalizer step by step."""
    if isinstance(n, N.Sequence):
        for child in n:
            ns = _normalize(child, ns)
        return ns
    if isinstance(n, N.BertNormalizer):
        return n._normalize_stepwise(ns)
    return n.normalize(ns) if n is not None else ns


def _pre_tokenize(pre: object, normalized: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """Pieces with per-character spans: the definitions above for BERT and ByteLevel, else each
    component's own ``pre_tokenize`` composed here (a Sequence child by child)."""
    if isinstance(pre, BertPreTokenizer):
        return [(m.group(), [(i, i + 1) for i in range(*m.span())]) for m in _BERT_RE.finditer(normalized)]
    if isinstance(pre, ByteLevel):
        return _byte_level_reference(pre, normalized)
    pieces = [Piece(normalized, 0, len(normalized))] if normalized else []
    for step in (pre if isinstance(pre, PreSequence) else [pre] if pre is not None else []):
        pieces = step.pre_tokenize(pieces) if pieces else pieces
    return [(p.text, _char_spans(p)) for p in pieces]


def _reference_encode(tok: Tokenizer, text: str, allowed: frozenset[str]) -> tuple[list, ...]:
    """encode() written out: cut at special tokens, normalize, cut with the definitions above into
    (text, per-character normalized spans), tokenize, map every token back."""
    ids, tokens, offsets, words, mask = [], [], [], [], []
    word = 0
    for seg_start, seg_end, special in _cut_specials(text, allowed):
        if special is not None:
            ids.append(tok.model.special_tokens[special])
            tokens.append(special)
            offsets.append((seg_start, seg_end))
            words.append(word)  # an allowed special token is a word of its own, as in HF
            word += 1
            mask.append(1)
            continue
        ns = _normalize(tok.normalizer, NormalizedString(text[seg_start:seg_end]))
        for piece_text, spans in _pre_tokenize(tok.pre_tokenizer, ns.normalized):
            if not piece_text:
                continue
            for token_id, s, e in tok.model.tokenize(piece_text):
                assert e > s
                start, end = ns.original_span(spans[s][0], spans[e - 1][1])
                ids.append(token_id)
                tokens.append(tok.id_to_token(token_id))
                offsets.append((seg_start + start, seg_start + end))
                words.append(word)
                mask.append(0)
            word += 1
    return ids, tokens, offsets, words, mask


def test_the_reference_cutter_on_nested_special_tokens() -> None:
    allowed = frozenset({"<|im_start|>", "<|im_start|>assistant", "assistant"})
    text = "x<|im_start|>assistant<|im_start|>y assistant"
    assert _cut_specials(text, allowed) == [
        (0, 1, None), (1, 22, "<|im_start|>assistant"), (22, 34, "<|im_start|>"), (34, 36, None), (36, 45, "assistant")
    ]
    assert _cut_specials("", allowed) == [] and _cut_specials("ab", frozenset()) == [(0, 2, None)]


def _check(tok: Tokenizer, text: str) -> None:
    for allowed in (frozenset(), frozenset(tok.special_tokens)):
        for _ in range(2):  # the second time through the per-piece caches
            enc = tok._encode_sequence(text, allowed, 0)
            got = (enc.ids, enc.tokens, enc.offsets, enc.word_ids, enc.special_tokens_mask)
            assert got == _reference_encode(tok, text, allowed)


def _small_wordpiece() -> WordPiece:
    words = ["[UNK]", "[CLS]", "[SEP]", "the", "##s", "##ing", "un", "##able", "中", "é", "e"]
    chars = sorted(set("abcxyzABCXYZ019.,;!?'\"-_()[]$€“”’‘—…") | set("abcxyz"))
    vocab = {t: i for i, t in enumerate(dict.fromkeys(words + chars + ["##" + c for c in chars]))}
    return WordPiece(vocab, special_tokens=["[CLS]", "[SEP]"])


def _small_byte_level(specials: tuple[str, ...] = ("<|endoftext|>",)) -> ByteLevelBPE:
    merges = [("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("Ã", "©"), ("a", "b"), ("Ġ", "Ġ")]
    vocab = {c: i for i, c in enumerate(BYTE_TO_CHAR)}
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    for special in specials:
        vocab[special] = len(vocab)
    return ByteLevelBPE(vocab, merges, special_tokens=list(specials))


PIPELINES = {
    "bert": lambda: Tokenizer(_small_wordpiece(), normalizer=N.BertNormalizer(), pre_tokenizer=BertPreTokenizer()),
    "bert-cased": lambda: Tokenizer(
        _small_wordpiece(), normalizer=N.BertNormalizer(lowercase=False), pre_tokenizer=BertPreTokenizer()
    ),
    "bert-nfkc": lambda: Tokenizer(
        _small_wordpiece(), normalizer=N.Sequence([N.NFKC(), N.BertNormalizer()]), pre_tokenizer=BertPreTokenizer()
    ),
    "byte-level": lambda: Tokenizer(_small_byte_level(), pre_tokenizer=ByteLevel(add_prefix_space=False)),
    "byte-level-prefix": lambda: Tokenizer(_small_byte_level(), pre_tokenizer=ByteLevel(add_prefix_space=True)),
    "byte-level-nfc": lambda: Tokenizer(_small_byte_level(), normalizer=N.NFKC(), pre_tokenizer=ByteLevel(add_prefix_space=False)),
    "byte-level-no-regex": lambda: Tokenizer(_small_byte_level(), pre_tokenizer=ByteLevel(add_prefix_space=False, use_regex=False)),
    # Generic path (no split_slices): Piece objects through a Sequence.
    "split+byte-level": lambda: Tokenizer(
        _small_byte_level(), pre_tokenizer=PreSequence([WhitespaceSplit(), ByteLevel(add_prefix_space=False, use_regex=False)])
    ),
    # split_slices of Split, and of a Sequence of a Split and a byte-level respelling (the LLM files).
    "llm-split+byte-level": lambda: Tokenizer(
        _small_byte_level(),
        pre_tokenizer=PreSequence([Split(Regex(CL100K_PATTERN), "isolated"), ByteLevel(add_prefix_space=False, use_regex=False)]),
    ),
    # split_slices of a Sequence of Splits, each cutting the pieces of the one before (DeepSeek-V3's).
    "llm-three-splits+byte-level": lambda: Tokenizer(
        _small_byte_level(),
        pre_tokenizer=PreSequence([Split(Regex(r"\p{N}{1,3}"), "isolated"), Split(Regex(r"[a-c]+"), "isolated"),
                                   Split(Regex(CL100K_PATTERN), "isolated"), ByteLevel(add_prefix_space=False, use_regex=False)]),
    ),
    "split-removed": lambda: Tokenizer(_small_wordpiece(), normalizer=N.Lowercase(), pre_tokenizer=Split(Regex(r"\s+"), "removed")),
    "split-merged": lambda: Tokenizer(
        _small_wordpiece(), pre_tokenizer=Split(Regex(r"[aeiou]*"), "merged_with_next", invert=True)
    ),
    "metaspace": lambda: Tokenizer(_small_wordpiece(), normalizer=N.Lowercase(), pre_tokenizer=Metaspace()),
    # Special tokens that are prefixes of each other: the longest one is cut first.
    "chat": lambda: Tokenizer(
        _small_byte_level(("<|im_start|>", "<|im_start|>assistant", "<|im_end|>", "assistant")),
        normalizer=N.Sequence([N.NFC(), N.Lowercase()]),
        pre_tokenizer=PreSequence([WhitespaceSplit(), ByteLevel(add_prefix_space=False, use_regex=False)]),
    ),
}


@pytest.mark.parametrize("name", list(PIPELINES))
@given(text=SPECIAL_TEXT)
def test_encode_equals_the_reference_encoder(name: str, text: str) -> None:
    _check(PIPELINES[name](), text)


def test_encode_equals_the_reference_encoder_on_real_vocabularies() -> None:
    bert = Tokenizer.from_bert_vocab(shared_path("vocab/bert/bert-base-uncased-vocab.txt"), lowercase=True)
    gpt2 = Tokenizer.from_gpt2(shared_path("vocab/gpt2/encoder.json"), shared_path("vocab/gpt2/vocab.bpe"))
    with open(shared_path("english/gutenberg_part01.txt"), encoding="utf-8") as fh:
        lines = [next(fh) for _ in range(3000)]
    lines += ["Ünïcödé “quotes” — and 中文 İİ \x00 tab\there", "x" * 300, "e\u0301 " * 5, ""]
    for line in lines:
        _check(bert, line)
        _check(gpt2, line)


def test_encode_caches_are_forgotten_with_the_model() -> None:
    tok = PIPELINES["bert"]()
    before = tok.encode("the unable").ids
    tok.model = WordPiece({"[UNK]": 0, "the": 1, "un": 2, "##able": 3})
    assert tok.encode("the unable").ids != before
    assert tok.encode("the unable").ids == [1, 2, 3]
