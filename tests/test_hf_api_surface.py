"""Same name, same meaning: the methods and properties of our main classes against Hugging Face's.

For every public name that HF ``tokenizers``' ``dir()`` lists on ``Tokenizer``, ``Encoding``,
``AddedToken``, the four models, the four trainers, ``DecodeStream`` and every normalizer,
pre-tokenizer, post-processor and decoder we also have, this file checks that ours

* exists, as a method where HF's is one and as a property where HF's is one;
* takes HF's parameters: the ones HF takes by position in HF's order, the others by HF's keyword,
  with HF's defaults;
* as a property, holds HF's value on equal objects, and can be set where HF's can;
* gives HF's results on a few small calls (the ``*_CALLS`` tables; an exception on both sides counts
  as the same result, since the exception types differ by design).

Each difference is one line (``"Tokenizer.encode: keyword 'sequence' is 'text' here"``). Each class has
an allow-list of the known ones, each with its reason, in one of four forms:

* ``bug: ...``: matching HF is right and cheap; fix it, then delete the entry;
* ``migrating.md: "..."``: deliberate, and the quoted text is in docs/migrating.md (checked; a remark
  may follow: ``migrating.md: "..."; remark``);
* ``not in migrating.md: ...``: looks deliberate, but docs/migrating.md does not list it yet;
* ``HF: ...``: nothing to match (HF's own value is unusable).

A new difference fails the test, and so does an entry whose difference is gone.

Where HF's signatures come from: ``__text_signature__``, except that how many arguments HF takes by
position is asked of HF itself (its text signatures show keyword-only parameters as positional), a
constructor's defaults are also read from what HF builds without arguments (HF's text signatures
write ``None`` for "not given": ``BPE(fuse_unk=None)`` builds ``fuse_unk=False``; ours may have either),
and the few text signatures naming keywords HF does not accept are corrected in
``HF_SIGNATURE_FIXES``, which ``test_hf_keywords_read_here_are_ones_hf_accepts`` keeps honest.
"""

from __future__ import annotations

import ast
import base64
import inspect
import json
import pickle
import re
import tempfile
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conftest import require

hf = require("tokenizers")

import algorithms  # noqa: E402  (after the skip: nothing to compare without HF)
import pretokenizers  # noqa: E402
from toolkit import AddedToken, Encoding, Tokenizer, decoders, normalizers, processors  # noqa: E402
from toolkit.normalizers.precompiled import build_charsmap  # noqa: E402
from toolkit.options import Configurable  # noqa: E402
from toolkit.registry import registered  # noqa: E402

EMPTY = inspect.Parameter.empty
MIGRATING = Path(__file__).resolve().parent.parent / "docs" / "migrating.md"


# ============================================================================ reading signatures
@dataclass(frozen=True)
class Param:
    name: str
    default: Any = EMPTY  # EMPTY: required
    positional: bool = True  # may be given by position
    keyword: bool = True  # may be given by keyword (HF: not before a "/")
    built: Any = EMPTY  # HF constructors: the value HF builds when the argument is left out


#: HF text signatures that name a keyword HF does not accept, corrected (the name HF's own "missing
#: argument" error gives); "/" marks parameters whose HF keyword is an internal name.
HF_SIGNATURE_FIXES = {
    "model.token_to_id": "(self, token)",  # HF says "(self, tokens)"
    "pre_tokenizers.pre_tokenize_str": "(self, s)",  # HF says "(self, sequence)"
    "pre_tokenizers.Sequence": "(self, pre_tokenizers)",  # HF says "(self, pretokenizers)"
    "decoders.Sequence": "(self, decoders, /)",  # HF's keyword is "decoders_py"
    "processors.Sequence": "(self, processors, /)",  # HF's keyword is "processors_py"
}


def _parse_text_signature(text: str) -> list[Param]:
    """The parameters of an HF ``__text_signature__`` (``**kwargs`` left out)."""
    params: list[Param] = []
    keyword_only = False
    for part in (p.strip() for p in text.strip()[1:-1].split(",")):
        if part == "/":
            params = [Param(p.name, p.default, True, False) for p in params]
        elif part == "*":
            keyword_only = True
        elif part and part not in ("self", "$self", "cls", "$cls") and not part.startswith("**"):
            name, _, default = part.partition("=")
            value: Any = EMPTY
            if default.strip():
                try:
                    value = ast.literal_eval(default.strip())
                except (ValueError, SyntaxError):
                    value = default.strip()
            params.append(Param(name.split(":")[0].strip(), value, not keyword_only))
    return params


def _hf_max_positional(func: Callable[..., Any]) -> int | None:
    """How many arguments ``func`` takes by position, from HF's own error for too many."""
    try:
        func(*[object()] * 40)
    except TypeError as exc:
        if "takes no arguments" in str(exc):
            return 0
        match = re.search(r"takes (?:from \d+ to )?(\d+) positional", str(exc))
        return int(match.group(1)) if match else None
    except Exception:  # noqa: BLE001  (HF took all 40 and failed later)
        return None
    return None


def hf_params(func: Callable[..., Any], fix_key: str = "", built: Any = None) -> list[Param]:
    """HF's parameters of ``func``: its text signature (or its fix), as many positional as HF takes;
    for a constructor, ``built``: an object HF builds without arguments, whose properties (or saved
    state) are the values HF really defaults to."""
    params = _parse_text_signature(HF_SIGNATURE_FIXES.get(fix_key) or func.__text_signature__)
    n = _hf_max_positional(func)
    if n is not None:
        params = [Param(p.name, p.default, p.positional and i < n, p.keyword) for i, p in enumerate(params)]
    if built is None:
        return params
    state = _hf_state(built)
    out = []
    for p in params:
        value = EMPTY
        if p.default is not EMPTY:
            value = getattr(built, p.name) if _is_property(type(built), p.name) else state.get(p.name, EMPTY)
        out.append(Param(p.name, p.default, p.positional, p.keyword, value))
    return out


def _hf_state(obj: Any) -> dict[str, Any]:
    """The JSON state HF saves for ``obj`` (a trainer's is wrapped: ``{"BpeTrainer": {...}}``)."""
    try:
        state = json.loads(obj.__getstate__())
    except Exception:  # noqa: BLE001
        return {}
    if isinstance(state, dict) and len(state) == 1 and isinstance(next(iter(state.values())), dict):
        state = next(iter(state.values()))
    return state if isinstance(state, dict) else {}


def our_params(func: Callable[..., Any]) -> list[Param]:
    """Our parameters of a function or bound method (``*args`` and ``**kwargs`` left out)."""
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [Param(p.name, p.default, p.kind in kinds, p.kind is not inspect.Parameter.POSITIONAL_ONLY)
            for p in inspect.signature(func).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def our_constructor(cls: type) -> list[Param]:
    """Our constructor's parameters. A component's (:class:`Configurable`): those of its ``__init__``
    (a model's ``vocab``, ``merges``), then its ``positional`` options (when the ``__init__`` passes
    ``*args`` on), then, keyword-only, its other options, their aliases and the keyword-only
    parameters of the ``__init__`` methods it inherits (``cache_capacity``, ``progress``)."""
    if not issubclass(cls, Configurable):
        return our_params(cls)
    fields = cls.Params.model_fields

    def default(name: str) -> Any:
        field = fields[name]
        return EMPTY if field.is_required() else field.get_default(call_default_factory=True)

    init = inspect.signature(cls.__init__).parameters.values()
    out = [p for p in our_params(cls.__init__)[1:] if p.positional]
    if any(p.kind is p.VAR_POSITIONAL for p in init):
        out += [Param(n, default(n)) for n in cls.positional]
    out += [Param(n, default(n), False) for n in fields if n not in {p.name for p in out}]
    out += [Param(alias, default(n), False) for alias, n in cls.aliases.items()]
    for klass in cls.__mro__:
        if "__init__" in vars(klass):
            out += [p for p in our_params(klass.__init__) if not p.positional and p.name not in {q.name for q in out}]
    return out


def signature_differences(name: str, theirs: list[Param], ours: list[Param]) -> list[str]:
    """HF's parameters against ours: the order of those HF takes by position, keywords, defaults.
    Ours may take more (by keyword, or optional), and HF's keyword-only ones by position too."""
    out = []
    mine = {p.name: p for p in ours}
    our_positional = [p.name for p in ours if p.positional]
    for i, p in enumerate(theirs):
        ours_p = mine.get(p.name) if p.keyword else None
        if p.positional:
            if i >= len(our_positional):
                out.append(f"{name}: {p.name!r} is keyword-only here" if ours_p else f"{name}: no parameter {p.name!r}")
            elif our_positional[i] != p.name and ours_p is None:  # (HF's keyword may be an alias here)
                if p.keyword:
                    out.append(f"{name}: keyword {p.name!r} is {our_positional[i]!r} here")
                ours_p = mine[our_positional[i]]
        elif ours_p is None:
            out.append(f"{name}: no keyword {p.name!r}")
        if ours_p is None:
            continue
        hf_default = p.default if p.built is EMPTY else p.built
        if p.default is EMPTY and ours_p.default is not EMPTY:
            out.append(f"{name}: {p.name!r} has a default here ({ours_p.default!r}), HF requires it")
        elif p.default is not EMPTY and ours_p.default is EMPTY:
            out.append(f"{name}: {p.name!r} is required here (HF's default: {hf_default!r})")
        elif p.default is not EMPTY and not any(_same(d, ours_p.default) for d in (p.default, p.built)):
            out.append(f"{name}: {p.name!r} defaults to {ours_p.default!r} here (HF: {hf_default!r})")
    for i, p in enumerate(ours):
        hf_positional = i < len(theirs) and theirs[i].positional
        if p.default is EMPTY and p.name not in {q.name for q in theirs} and not (p.positional and hf_positional):
            out.append(f"{name}: requires {p.name!r}, which HF does not take")
    return out


# ============================================================================ comparing values
COMPONENTS = (hf.models.Model, hf.normalizers.Normalizer, hf.pre_tokenizers.PreTokenizer, hf.processors.PostProcessor,
              hf.decoders.Decoder, hf.trainers.Trainer, Configurable)
ENCODING_FIELDS = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask", "word_ids",
                   "sequence_ids", "n_sequences")
TOKEN_FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")


def _comparable(value: Any) -> Any:
    """A value of either library in plain Python: ``AddedToken``s and ``Encoding``s as dicts, HF's
    ``Token`` as our ``(id, start, end)``, a component as its class name, tuples as lists."""
    if isinstance(value, COMPONENTS):
        return f"<{type(value).__name__}>"
    if isinstance(value, hf.Token):
        return [value.id, *value.offsets]
    if isinstance(value, (hf.AddedToken, AddedToken)):
        return {"content": value.content, **{f: getattr(value, f) for f in TOKEN_FLAGS}}
    if isinstance(value, (hf.Encoding, Encoding)):
        fields = {f: _comparable(getattr(value, f)) for f in ENCODING_FIELDS}
        return fields | {"overflowing": [_comparable(e) for e in value.overflowing]}
    if isinstance(value, (list, tuple)):
        return [_comparable(v) for v in value]
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items()}
    return value


def _same(a: Any, b: Any) -> bool:
    a, b = _comparable(a), _comparable(b)
    return type(a) is type(b) and a == b


#: what differed, for the failure message (the differences themselves are short, stable lines)
DETAILS: dict[str, str] = {}


def _differs(key: str, theirs: Any, ours: Any) -> str:
    DETAILS[key] = f"here {ours!r:.300}\n      HF   {theirs!r:.300}"
    return key


# ============================================================================ comparing classes
def _is_property(cls: type, name: str) -> bool:
    try:
        attr = inspect.getattr_static(cls, name)
    except AttributeError:
        return False
    return type(attr).__name__ == "getset_descriptor" or isinstance(attr, property)


def hf_names(cls: type) -> list[str]:
    return sorted(n for n in dir(cls) if not n.startswith("_"))


def surface_differences(prefix: str, theirs: type, ours: type, hf_obj: Any, our_obj: Any, *,
                        fix_kind: str = "", skip: Iterable[str] = ()) -> list[str]:
    """Every public name of HF's class ``theirs`` (but ``skip``) against ours: that it exists, is a
    method or a property as HF's, takes HF's parameters, holds HF's value. ``hf_obj``/``our_obj``: equal
    instances; ``fix_kind``: the prefix of this class's keys in ``HF_SIGNATURE_FIXES``."""
    out = []
    for name in hf_names(theirs):
        label = f"{prefix}{name}"
        if name in skip:
            continue
        if not hasattr(our_obj, name):
            out.append(f"{label}: missing")
        elif _is_property(theirs, name):
            out += _property_differences(label, name, hf_obj, our_obj)
        elif isinstance(inspect.getattr_static(ours, name, None), property) or not callable(getattr(our_obj, name)):
            out.append(f"{label}: a method in HF, not here")
        elif getattr(getattr(hf_obj, name), "__text_signature__", None):
            their_params = hf_params(getattr(hf_obj, name), f"{fix_kind}.{name}")
            out += signature_differences(label, their_params, our_params(getattr(our_obj, name)))
    return out


def _property_differences(label: str, name: str, hf_obj: Any, our_obj: Any) -> list[str]:
    ours = getattr(our_obj, name)
    if callable(ours) and not isinstance(ours, COMPONENTS):
        return [f"{label}: a property in HF, a method here"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Encoding.words
        try:
            theirs = getattr(hf_obj, name)
        except Exception:  # noqa: BLE001  (HF's getter fails: normalizers.Replace.pattern, "Cannot get pattern")
            return []
    out = [] if _same(theirs, ours) else [_differs(f"{label}: value differs", theirs, ours)]
    try:
        setattr(hf_obj, name, theirs)  # HF's can be set: so must ours be
    except Exception:  # noqa: BLE001  (read-only, or TemplateProcessing.single, whose value HF cannot read back)
        return out
    try:
        setattr(our_obj, name, ours)
    except Exception as exc:  # noqa: BLE001
        out.append(f"{label}: can be set in HF, not here ({type(exc).__name__})")
    return out


def call_differences(prefix: str, calls: dict[str, Callable[[Any], Any]], make: Callable[[], tuple[Any, Any]]) -> list[str]:
    """Each call on a fresh pair ``make()`` of equal objects, HF's and ours: the same result."""
    out = []
    for label, call in calls.items():
        results = []
        for obj in make():
            try:
                with warnings.catch_warnings():
                    if not _ours(obj):  # HF's own deprecations (Encoding.words) are not ours to report
                        warnings.simplefilter("ignore", DeprecationWarning)
                    results.append(_comparable(call(obj)))
            except Exception:  # noqa: BLE001
                results.append("raises")
        theirs, ours = results
        if not _same(theirs, ours):
            out.append(_differs(f"{prefix}{label}: result differs", theirs, ours))
    return out


def check(found: Iterable[str], known: dict[str, str], what: str) -> None:
    """``found`` is exactly the allow-list ``known``."""
    found = sorted(set(found))
    new = [d + (f"\n      {DETAILS[d]}" if d in DETAILS else "") for d in found if d not in known]
    gone = [d for d in known if d not in found]
    message = f"{what}: "
    if new:
        message += ("differences from Hugging Face that the allow-list does not hold: fix them, or list them "
                    "with the reason ('bug: ...', 'migrating.md: \"...\"' once documented...):\n    " + "\n    ".join(new))
    if gone:
        message += "\nallow-list entries that no longer happen (fixed? delete them):\n    " + "\n    ".join(gone)
    assert not new and not gone, message


def _known(known: dict[str, str], name: str) -> dict[str, str]:
    """The entries of ``known`` about the class ``name`` (``"BPE.save: missing"``, ``"BPE(): ..."``)."""
    return {k: v for k, v in known.items() if k.startswith((f"{name}.", f"{name}():"))}


# ============================================================================ the objects compared
VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "hello": 5, "world": 6, "##s": 7, "he": 8,
         "##llo": 9, "!": 10, "a": 11, "b": 12}


def _pipelines() -> tuple[Any, Tokenizer]:
    """A small BERT pipeline, HF's and ours (HF's built from ours: the same ids)."""
    ours = Tokenizer(
        algorithms.WordPiece(VOCAB, unk_token="[UNK]", special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]),
        normalizer=normalizers.BertNormalizer(), pre_tokenizer=pretokenizers.BertPreTokenizer(),
        post_processor=processors.BertProcessing(("[SEP]", 3), ("[CLS]", 2)), decoder=decoders.WordPiece(),
    )
    return ours.to_hf(), ours


def _bare() -> tuple[Any, Tokenizer]:
    """The same pipelines without post-processor (for the processors' ``process``)."""
    theirs, ours = _pipelines()
    ours.post_processor = None
    theirs.post_processor = None
    return theirs, ours


def _ours(obj: Any) -> bool:
    return isinstance(obj, (Tokenizer, Encoding, Configurable, AddedToken, decoders.DecodeStream))


def _text_file(folder: str, text: str) -> str:
    path = Path(folder) / "corpus.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _saved(tok: Any, save: Callable[[str], Any]) -> Any:
    """What ``save(path)`` returns, whether the file is indented, and the ids of ``from_file(path)``."""
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/tok.json"
        returned = save(path)
        text = Path(path).read_text(encoding="utf-8")
        return returned, "\n" in text, type(tok).from_file(path).encode("hello worlds").ids


def _trained(tok: Any, train: Callable[[Any, Any, str], Any]) -> Any:
    """Train a fresh WordLevel pipeline of ``tok``'s library: ``train(tokenizer, trainer, folder)``;
    what it returns (the tokenizer? ``None``?) and the vocabulary learned."""
    if _ours(tok):
        word_level = Tokenizer(algorithms.WordLevel(unk_token="<unk>"), pre_tokenizer=pretokenizers.WhitespaceSplit())
        trainer = algorithms.WordLevelTrainer(vocab_size=4, special_tokens=["<unk>"], show_progress=False)
    else:
        word_level = hf.Tokenizer(hf.models.WordLevel(unk_token="<unk>"))
        word_level.pre_tokenizer = hf.pre_tokenizers.WhitespaceSplit()
        trainer = hf.trainers.WordLevelTrainer(vocab_size=4, special_tokens=["<unk>"], show_progress=False)
    with tempfile.TemporaryDirectory() as folder:
        returned = train(word_level, trainer, folder)
    return {"returns itself": returned is word_level, "returns None": returned is None, "vocab": word_level.get_vocab()}


# ============================================================================ Tokenizer
TOKENIZER_KNOWN = {
    "Tokenizer.add_tokens('zz'): result differs":
        'migrating.md: "`add_tokens("word")` and `add_special_tokens("[X]")` take one token alone"',
    "Tokenizer.async_encode: keyword 'sequence' is 'text' here": 'migrating.md: "keywords as the plain methods\' (`text=`, `inputs=`"',
    "Tokenizer.async_encode_batch: keyword 'input' is 'inputs' here": 'migrating.md: "keywords as the plain methods\' (`text=`, `inputs=`"',
    "Tokenizer.async_encode_batch_fast: keyword 'input' is 'inputs' here":
        'migrating.md: "keywords as the plain methods\' (`text=`, `inputs=`"',
    "Tokenizer.from_pretrained: missing": 'migrating.md: "| `Tokenizer.from_pretrained(name)` | none |"',
    "Tokenizer.decode_batch: keyword 'sequences' is 'batch' here": 'migrating.md: "HF\'s keyword `sequences=` is our `batch=`"',
    "Tokenizer.encode: keyword 'sequence' is 'text' here": 'migrating.md: "HF\'s keyword `sequence=` is our `text=`"',
    "Tokenizer.encode_batch: keyword 'input' is 'inputs' here": 'migrating.md: "HF\'s keyword `input=` is our `inputs=`"',
    "Tokenizer.encode_batch_fast: keyword 'input' is 'inputs' here": 'migrating.md: "`encode_batch_fast(input=)`"',
    "Tokenizer.encode_batch_fast(...): result differs":
        'migrating.md: "HF\'s fast variant leaves tokens empty and offsets `(0, 0)`"',
    "Tokenizer.from_str: keyword 'json' is 'json_text' here": 'migrating.md: "HF\'s keyword `json=` is our `json_text=`"',
    "Tokenizer.id_to_token: keyword 'id' is 'token_id' here": 'migrating.md: "HF\'s keyword `id=` is our `token_id=`"',
    "Tokenizer.train: keyword 'files' is 'corpus' here": 'migrating.md: "HF\'s keyword `files=` is our `corpus=`"',
    "Tokenizer.train(files, trainer): result differs": 'migrating.md: "returns the tokenizer (HF: `None`)"',
    "Tokenizer.encode_special_tokens: value differs": 'migrating.md: "`encode_special_tokens` is always `True`"',
}

TOKENIZER_CALLS: dict[str, Callable[[Any], Any]] = {
    "encode(text)": lambda t: t.encode("Hello worlds!"),
    "encode(text, pair)": lambda t: t.encode("hello", "world a"),
    "encode(words, is_pretokenized=True)": lambda t: t.encode(["hello", "worlds"], is_pretokenized=True),
    "encode(words, words, is_pretokenized=True)": lambda t: t.encode(["hello", "world"], ["a"], is_pretokenized=True),
    "encode(text, None, False, False)": lambda t: t.encode("hello b", None, False, False),
    "encode('')": lambda t: t.encode(""),
    "encode_batch([text, (text, pair)])": lambda t: t.encode_batch(["hello", ("a", "b")]),
    "encode_batch([words, (words, words)], is_pretokenized=True)": lambda t: t.encode_batch(
        [["hello"], (["hello"], ["a", "b"])], is_pretokenized=True),
    "encode_batch(texts, add_special_tokens=False)": lambda t: t.encode_batch(["hello a"], add_special_tokens=False),
    "encode_batch([])": lambda t: t.encode_batch([]),
    "encode_batch_fast(...)": lambda t: t.encode_batch_fast(["hello world", "a"]),
    "encode_batch_fast(...).ids": lambda t: [e.ids for e in t.encode_batch_fast(["hello world", ("a", "b")])],
    "decode(ids)": lambda t: t.decode([2, 5, 7, 3, 11]),
    "decode(ids, False)": lambda t: t.decode([2, 5, 7, 3], False),
    "decode([])": lambda t: t.decode([]),
    "decode_batch(batch)": lambda t: t.decode_batch([[2, 5, 3], [8, 9], []]),
    "decode_batch(batch, skip_special_tokens=False)": lambda t: t.decode_batch([[2, 5, 3]], skip_special_tokens=False),
    "token_to_id(token)": lambda t: [t.token_to_id(x) for x in ("hello", "##s", "[CLS]", "nope")],
    "id_to_token(id)": lambda t: [t.id_to_token(i) for i in (0, 5, 7, 99)],
    "get_vocab()": lambda t: t.get_vocab(),
    "get_vocab(False)": lambda t: t.get_vocab(False),
    "get_vocab_size()": lambda t: (t.get_vocab_size(), t.get_vocab_size(with_added_tokens=False)),
    "get_added_tokens_decoder()": lambda t: t.get_added_tokens_decoder(),
    "add_tokens([...])": lambda t: (
        t.add_tokens(["new", (AddedToken if _ours(t) else hf.AddedToken)("<n>", lstrip=True), "hello"]),
        t.add_tokens(["new"]), t.add_tokens([]), t.encode("a new b <n>").tokens, t.get_added_tokens_decoder(),
        t.token_to_id("new"), t.id_to_token(13), t.get_vocab_size(), t.get_vocab_size(False), t.get_vocab(False)),
    "add_tokens('zz')": lambda t: t.add_tokens("zz"),
    "add_special_tokens(['<x>', '[CLS]'])": lambda t: (
        t.add_special_tokens(["<x>", "[CLS]"]), t.add_special_tokens(["<x>"]), t.get_added_tokens_decoder(),
        t.decode(t.encode("a b").ids + [t.token_to_id("<x>")])),
    "num_special_tokens_to_add(is_pair)": lambda t: (t.num_special_tokens_to_add(False), t.num_special_tokens_to_add(is_pair=True)),
    "post_process(encoding)": lambda t: t.post_process(t.encode("hello", add_special_tokens=False)),
    "post_process(encoding, pair)": lambda t: t.post_process(t.encode("hello", add_special_tokens=False),
                                                              t.encode("a", add_special_tokens=False)),
    "post_process(encoding, None, False)": lambda t: t.post_process(t.encode("hello", add_special_tokens=False), None, False),
    "truncation, padding (defaults)": lambda t: (t.truncation, t.padding),
    "enable_truncation(3)": lambda t: (t.enable_truncation(3), t.truncation, t.encode("hello world a b"))[1:],
    "enable_truncation(7, stride=1, strategy='only_first', direction='left')": lambda t: (
        t.enable_truncation(7, stride=1, strategy="only_first", direction="left"), t.truncation,
        t.encode("hello world a b a", "b"))[1:],
    "no_truncation()": lambda t: (t.enable_truncation(3), t.no_truncation(), t.truncation)[2],
    "enable_padding()": lambda t: (t.enable_padding(), t.padding, t.encode_batch(["hello", "a b hello"]))[1:],
    "enable_padding(direction='left', pad_id=4, pad_token='[MASK]', length=6)": lambda t: (
        t.enable_padding(direction="left", pad_id=4, pad_token="[MASK]", length=6), t.padding, t.encode("a"))[1:],
    "enable_padding(pad_to_multiple_of=4, pad_type_id=1)": lambda t: (
        t.enable_padding(pad_to_multiple_of=4, pad_type_id=1), t.padding, t.encode_batch(["a b", "a", ("a", "b")]))[1:],
    "enable_truncation(4), enable_padding(length=6)": lambda t: (
        t.enable_truncation(4), t.enable_padding(length=6), t.encode("hello world a b"))[2],
    "no_padding()": lambda t: (t.enable_padding(), t.no_padding(), t.padding)[2],
    "from_str(to_str())": lambda t: type(t).from_str(t.to_str()).encode("hello worlds").ids,
    "from_str(to_str(pretty=True))": lambda t: type(t).from_str(t.to_str(pretty=True)).encode("hello").ids,
    "to_str() is one line, to_str(True) not": lambda t: ("\n" in t.to_str(), "\n" in t.to_str(True)),
    "save(path), from_file(path)": lambda t: _saved(t, lambda path: t.save(path)),
    "save(path, pretty=False)": lambda t: _saved(t, lambda path: t.save(path, pretty=False)),
    "train_from_iterator(texts, trainer)": lambda t: _trained(t, lambda w, tr, _: w.train_from_iterator(["a b a c", "b a"], tr)),
    "train_from_iterator(batches, trainer=, length=)": lambda t: _trained(
        t, lambda w, tr, _: w.train_from_iterator([["a b a c"], ["b a"]], trainer=tr, length=2)),
    "train(files, trainer)": lambda t: _trained(t, lambda w, tr, folder: w.train([_text_file(folder, "a b a c\nb a\n")], tr)),
    "pickle round trip": lambda t: pickle.loads(pickle.dumps(t)).encode("hello worlds").ids,
}


def test_tokenizer_matches_hf() -> None:
    theirs, ours = _pipelines()
    found = signature_differences("Tokenizer()", hf_params(hf.Tokenizer), our_params(Tokenizer))
    found += surface_differences("Tokenizer.", hf.Tokenizer, Tokenizer, theirs, ours)
    found += call_differences("Tokenizer.", TOKENIZER_CALLS, _pipelines)
    check(found, TOKENIZER_KNOWN, "Tokenizer")


# ============================================================================ Encoding
ENCODING_KNOWN: dict[str, str] = {}

TEXT, PAIR = "Hello worlds! hello", "a b"


def _encodings() -> tuple[Any, Encoding]:
    """One pair encoded by the two pipelines (equal: the same ids, offsets and sequences)."""
    theirs, ours = _pipelines()
    return theirs.encode(TEXT, PAIR), ours.encode(TEXT, PAIR)


def _each(method: str, n: int, *extra: Any) -> Callable[[Any], Any]:
    """``[e.method(i, *extra) for i in range(n)]``."""
    return lambda e: [getattr(e, method)(i, *extra) for i in range(n)]


ENCODING_CALLS: dict[str, Callable[[Any], Any]] = {
    "the encoding": lambda e: e,
    "len()": len,
    "words": lambda e: e.words,
    "char_to_token(i)": _each("char_to_token", len(TEXT) + 1),
    "char_to_token(i, 1)": _each("char_to_token", len(PAIR) + 1, 1),
    "char_to_word(i)": _each("char_to_word", len(TEXT) + 1),
    "char_to_word(i, sequence_index=1)": lambda e: [e.char_to_word(i, sequence_index=1) for i in range(len(PAIR))],
    "token_to_chars(i)": _each("token_to_chars", 12),
    "token_to_word(i)": _each("token_to_word", 12),
    "token_to_sequence(i)": _each("token_to_sequence", 12),
    "word_to_tokens(i)": _each("word_to_tokens", 5),
    "word_to_tokens(i, 1)": _each("word_to_tokens", 3, 1),
    "word_to_chars(i)": _each("word_to_chars", 5),
    "word_to_chars(i, 1)": _each("word_to_chars", 3, 1),
    "set_sequence_id(1)": lambda e: (e.set_sequence_id(1), e)[1],
    "pad(14)": lambda e: (e.pad(14), e)[1],
    "pad(14, direction='left', pad_id=4, pad_type_id=1, pad_token='[MASK]')": lambda e: (
        e.pad(14, direction="left", pad_id=4, pad_type_id=1, pad_token="[MASK]"), e)[1],
    "pad(3)": lambda e: (e.pad(3), e)[1],
    "truncate(4)": lambda e: (e.truncate(4), e)[1],
    "truncate(5, 2)": lambda e: (e.truncate(5, 2), e)[1],
    "truncate(5, stride=1, direction='left')": lambda e: (e.truncate(5, stride=1, direction="left"), e)[1],
    "Encoding.merge([e, e])": lambda e: type(e).merge([e, e]),
    "Encoding.merge([e, e], growing_offsets=False)": lambda e: type(e).merge([e, e], growing_offsets=False),
    "pickle round trip": lambda e: pickle.loads(pickle.dumps(e)),
}


def test_encoding_matches_hf() -> None:
    theirs, ours = _encodings()
    found = surface_differences("Encoding.", hf.Encoding, Encoding, theirs, ours)
    found += call_differences("Encoding.", ENCODING_CALLS, _encodings)
    check(found, ENCODING_KNOWN, "Encoding")


# ============================================================================ AddedToken
ADDED_TOKEN_KNOWN = {
    "AddedToken(): 'content' is required here (HF's default: '')":
        'migrating.md: "`AddedToken()` needs its content (HF\'s default is `""`)"',
    "AddedToken(): 'normalized' defaults to None here (HF: True)": 'migrating.md: "same defaults (`normalized = not special`"',
    "AddedToken.content: can be set in HF, not here (ConfigError)": 'migrating.md: "**`AddedToken` is immutable** (HF\'s can be changed in place)"',
    "AddedToken.special: can be set in HF, not here (ConfigError)": 'migrating.md: "**`AddedToken` is immutable** (HF\'s can be changed in place)"',
}


def _added_tokens() -> tuple[Any, AddedToken]:
    return hf.AddedToken("<tool>", lstrip=True), AddedToken("<tool>", lstrip=True)


ADDED_TOKEN_CALLS: dict[str, Callable[[Any], Any]] = {
    "the token": lambda a: a,
    "str()": str,
    "AddedToken(content, special=True)": lambda a: type(a)("<s>", special=True),
    "AddedToken(content, normalized=True, special=True)": lambda a: type(a)("<s>", normalized=True, special=True),
    "AddedToken(content, single_word=, rstrip=, normalized=False)": lambda a: type(a)("x", single_word=True, rstrip=True,
                                                                                       normalized=False),
    "== equal tokens, other flags, the content": lambda a: (
        a == type(a)("<tool>", lstrip=True), a == type(a)("<tool>"), a == "<tool>"),
    "pickle round trip": lambda a: pickle.loads(pickle.dumps(a)),
}


def test_added_token_matches_hf() -> None:
    theirs, ours = _added_tokens()
    found = signature_differences("AddedToken()", hf_params(hf.AddedToken, built=hf.AddedToken()), our_constructor(AddedToken))
    found += surface_differences("AddedToken.", hf.AddedToken, AddedToken, theirs, ours)
    found += call_differences("AddedToken.", ADDED_TOKEN_CALLS, _added_tokens)
    check(found, ADDED_TOKEN_KNOWN, "AddedToken")


# ============================================================================ models
MODEL_NAMES = ("BPE", "WordPiece", "Unigram", "WordLevel")

MODELS_KNOWN = {
    **{f"{m}.tokenize: keyword 'sequence' is 'piece' here": 'migrating.md: "a model\'s `tokenize(sequence=)`"' for m in MODEL_NAMES},
    **{f"{m}.id_to_token: keyword 'id' is 'token_id' here": 'migrating.md: "`id_to_token(id=)` (the tokenizer\'s and the models\')"'
       for m in MODEL_NAMES},
    **{f"{m}.tokenize: result type: result differs": 'migrating.md: "returns `(id, start, end)` tuples, not `tokenizers.Token` objects"'
       for m in MODEL_NAMES},
    **{f"{m}.save: missing": 'migrating.md: "| `model.save(folder, prefix)` |"' for m in MODEL_NAMES},
    **{f"{m}.get_trainer: missing": 'migrating.md: "| `model.get_trainer()` |"' for m in MODEL_NAMES},
    "BPE.from_file: missing": 'migrating.md: "| `models.BPE.from_file(vocab, merges, **kwargs)` |"',
    "BPE.read_file: missing": 'migrating.md: "| `models.BPE.read_file(vocab, merges)` |"',
    "BPE.end_of_word_suffix: value differs": 'migrating.md: "and the model\'s attribute reads `None` (HF: `""`)"',
    "WordPiece.from_file: keyword 'vocab' is 'path' here": 'migrating.md: "`WordPiece.from_file(vocab=)`"',
    "WordPiece.read_file: keyword 'vocab' is 'path' here": 'migrating.md: "`WordPiece.from_file(vocab=)`"',
}

BPE_VOCAB = {"[UNK]": 0, "h": 1, "e": 2, "l": 3, "o": 4, "he": 5, "ll": 6, "hell": 7, "hello": 8}
BPE_MERGES = [("h", "e"), ("l", "l"), ("he", "ll"), ("hell", "o")]
UNIGRAM_VOCAB = [("<unk>", 0.0), ("h", -2.0), ("e", -2.0), ("l", -2.0), ("o", -2.0), ("he", -1.5), ("llo", -1.0),
                 ("hello", -4.5)]

#: model -> (args, keywords) of equal models in both libraries
MODEL_ARGS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "BPE": ((BPE_VOCAB, BPE_MERGES), {"unk_token": "[UNK]", "end_of_word_suffix": "", "dropout": 0.0}),
    "WordPiece": ((VOCAB,), {"unk_token": "[UNK]", "max_input_chars_per_word": 50}),
    "Unigram": ((UNIGRAM_VOCAB, 0, False), {}),
    "WordLevel": ((VOCAB, "[UNK]"), {}),
}

MODEL_CALLS: dict[str, Callable[[Any], Any]] = {
    "tokenize(piece)": lambda m: [m.tokenize(w) for w in ("hello", "hell", "worlds", "x", "he")],
    "tokenize: result type": lambda m: type(m.tokenize("hello")[0]).__name__,
    "token_to_id(token)": lambda m: [m.token_to_id(t) for t in ("hello", "he", "[UNK]", "<unk>", "##s", "nope")],
    "token_to_id(token=)": lambda m: m.token_to_id(token="hello"),
    "id_to_token(id)": lambda m: [m.id_to_token(i) for i in range(15)],
    "pickle round trip": lambda m: pickle.loads(pickle.dumps(m)).tokenize("hello"),
}


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_matches_hf(name: str) -> None:
    theirs, ours = getattr(hf.models, name), getattr(algorithms, name)
    args, kwargs = MODEL_ARGS[name]

    def make() -> tuple[Any, Any]:
        return theirs(*args, **kwargs), ours(*args, **kwargs)

    found = signature_differences(f"{name}()", hf_params(theirs, built=theirs()), our_constructor(ours))
    found += surface_differences(f"{name}.", theirs, ours, *make(), fix_kind="model")
    found += call_differences(f"{name}.", MODEL_CALLS, make)
    check(found, _known(MODELS_KNOWN, name), name)


# ============================================================================ trainers
TRAINERS = {"BpeTrainer": "BPETrainer", "WordPieceTrainer": "WordPieceTrainer", "UnigramTrainer": "UnigramTrainer",
            "WordLevelTrainer": "WordLevelTrainer"}  # HF name -> ours: "no `BpeTrainer` alias" (migrating.md)

TRAINERS_KNOWN = {
    **{f"{t}.special_tokens: value differs": 'migrating.md: "A trainer\'s `special_tokens` reads back as strings (HF: `AddedToken`s)"'
       for t in TRAINERS},
    "BpeTrainer(): no keyword 'progress_format'": 'migrating.md: "`BPETrainer`\'s `progress_format`"',
    "BpeTrainer.progress_format: missing": 'migrating.md: "`BPETrainer`\'s `progress_format`"',
    "BpeTrainer.get_word_count: missing": 'migrating.md: "| `trainers.BpeTrainer.get_word_count()` | none |"',
    "WordPieceTrainer(): 'special_tokens' defaults to ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] here (HF: [])":
        'migrating.md: "`WordPieceTrainer` defaults to `special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]`"',
}

#: HF trainer -> the options of the equal trainers whose properties are compared
TRAINER_OPTIONS: dict[str, dict[str, Any]] = {
    "BpeTrainer": {"vocab_size": 300, "min_frequency": 2, "special_tokens": ["<unk>"], "limit_alphabet": 50,
                   "initial_alphabet": ["x"], "continuing_subword_prefix": "##", "end_of_word_suffix": "</w>",
                   "max_token_length": 8, "show_progress": False},
    "WordPieceTrainer": {"vocab_size": 300, "min_frequency": 2, "special_tokens": ["[UNK]"], "limit_alphabet": 50,
                         "initial_alphabet": ["x"], "continuing_subword_prefix": "@@", "end_of_word_suffix": "</w>"},
    "UnigramTrainer": {"vocab_size": 300, "special_tokens": ["<unk>"], "initial_alphabet": ["x"], "unk_token": "<unk>",
                       "shrinking_factor": 0.5, "max_piece_length": 8, "n_sub_iterations": 3},
    "WordLevelTrainer": {"vocab_size": 300, "min_frequency": 2, "special_tokens": ["<unk>"], "show_progress": False},
}

TRAINER_CALLS: dict[str, Callable[[Any], Any]] = {
    "pickle round trip": lambda t: (pickle.loads(pickle.dumps(t)).vocab_size, pickle.loads(pickle.dumps(t)).show_progress),
}


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_trainer_matches_hf(name: str) -> None:
    theirs, ours = getattr(hf.trainers, name), getattr(algorithms, TRAINERS[name])

    def make() -> tuple[Any, Any]:
        return theirs(**TRAINER_OPTIONS[name]), ours(**TRAINER_OPTIONS[name])

    found = signature_differences(f"{name}()", hf_params(theirs, built=theirs()), our_constructor(ours))
    found += surface_differences(f"{name}.", theirs, ours, *make(), fix_kind="trainer")
    found += call_differences(f"{name}.", TRAINER_CALLS, make)
    check(found, _known(TRAINERS_KNOWN, name), name)


# ============================================================================ components
OUR_MODULES = {"normalizer": normalizers, "pre_tokenizer": pretokenizers, "post_processor": processors, "decoder": decoders}
HF_MODULES = {"normalizer": hf.normalizers, "pre_tokenizer": hf.pre_tokenizers, "post_processor": hf.processors,
              "decoder": hf.decoders}
HF_BASES = {"normalizer": hf.normalizers.Normalizer, "pre_tokenizer": hf.pre_tokenizers.PreTokenizer,
            "post_processor": hf.processors.PostProcessor, "decoder": hf.decoders.Decoder}
SHORT = {"normalizer": "normalizers", "pre_tokenizer": "pre_tokenizers", "post_processor": "processors", "decoder": "decoders"}

COMPONENTS_KNOWN = {
    # the methods every component of a kind has (HF's base class), compared once: "normalizers.*."
    "normalizers.*.normalize_str: keyword 'sequence' is 'text' here": 'migrating.md: "a normalizer\'s `normalize_str(sequence=)`"',
    "normalizers.*.normalize: keyword 'normalized' is 'text' here":
        'migrating.md: "a custom normalizer\'s `normalize` and a custom pre-tokenizer\'s `pre_tokenize` take and return '
        'our `NormalizedString` and pieces"',
    "pre_tokenizers.*.pre_tokenize: keyword 'pretok' is 'pieces' here":
        'migrating.md: "a custom normalizer\'s `normalize` and a custom pre-tokenizer\'s `pre_tokenize` take and return '
        'our `NormalizedString` and pieces"',
    "pre_tokenizers.*.pre_tokenize_str: keyword 's' is 'text' here":
        'migrating.md: "a pre-tokenizer\'s `pre_tokenize_str(s=)` is our `text=`"',
    **{f"{kind}.*.custom: missing": 'migrating.md: "No `custom()` components."'
       for kind in ("decoders", "normalizers", "pre_tokenizers")},
    # constructors and properties
    "pre_tokenizers.Sequence(): keyword 'pre_tokenizers' is 'pretokenizers' here":
        'migrating.md: "`pre_tokenizers.Sequence(pre_tokenizers=)` is our `Sequence(pretokenizers=)`"',
    "pre_tokenizers.Split(): 'behavior' has a default here ('isolated'), HF requires it":
        'migrating.md: "`behavior` defaults to `"isolated"` (HF requires it"',
    "pre_tokenizers.Split.behavior: value differs": "HF: its getter gives its Rust name, 'mergedwithnext'; ours the value given",
    "processors.TemplateProcessing.single: value differs": "HF: its getter gives its Rust debug text, which its setter refuses",
    **{f"processors.{p}(): {o!r} has a default here ({d!r}), HF requires it":
       'migrating.md: "**`BertProcessing` and `RobertaProcessing` have defaults for `sep` and `cls`**"'
       for p, o, d in [("BertProcessing", "sep", ("[SEP]", 102)), ("BertProcessing", "cls_token", ("[CLS]", 101)),
                       ("RobertaProcessing", "sep", ("</s>", 2)), ("RobertaProcessing", "cls_token", ("<s>", 0))]},
}


def _charsmap() -> bytes:
    return base64.b64decode(build_charsmap({"ﬁ": "fi", "①": "1", "x": ""}))


#: "kind.Name" -> the arguments of an example (``m``: that library's module of the kind); default: none
EXAMPLE_ARGS: dict[str, Callable[[Any], tuple[Any, ...]]] = {
    "normalizers.Precompiled": lambda m: (_charsmap(),),
    "normalizers.Prepend": lambda m: ("▁",),
    "normalizers.Replace": lambda m: ("o", "0"),
    "normalizers.Sequence": lambda m: ([m.NFKC(), m.Lowercase()],),
    "pre_tokenizers.CharDelimiterSplit": lambda m: ("-",),
    "pre_tokenizers.Split": lambda m: ("-", "merged_with_next"),
    "pre_tokenizers.Sequence": lambda m: ([m.WhitespaceSplit(), m.Digits(True)],),
    "processors.BertProcessing": lambda m: (("[SEP]", 3), ("[CLS]", 2)),
    "processors.RobertaProcessing": lambda m: (("[SEP]", 3), ("[CLS]", 2)),
    "processors.TemplateProcessing": lambda m: ("[CLS] $A [SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1", [("[CLS]", 2), ("[SEP]", 3)]),
    "processors.Sequence": lambda m: ([m.ByteLevel(trim_offsets=True)],),
    "decoders.Replace": lambda m: ("▁", " "),
    "decoders.Sequence": lambda m: ([m.Replace("▁", " "), m.Strip(" ", 1, 0)],),
    "decoders.Strip": lambda m: ("▁", 1, 0),
}

SAMPLE = "  Héllo WORLD-wide ﬁ① 12\t中文 x-ray!  "
TOKENS = ["▁Hello", "##s", "Ġworld", "<0x41>", "<0xC3>", "<0xA9>", "|", "<pad>", "<pad>", "ab</w>", "c", "▁"]


def _process(p: Any, pair: bool, add_special_tokens: bool = True) -> Any:
    theirs, ours = _bare()
    tok = ours if _ours(p) else theirs
    return p.process(tok.encode("Hello worlds!"), tok.encode("a b") if pair else None, add_special_tokens)


COMPONENT_CALLS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "normalizer": {"normalize_str(text)": lambda c: c.normalize_str(SAMPLE), "normalize_str('')": lambda c: c.normalize_str("")},
    "pre_tokenizer": {"pre_tokenize_str(text)": lambda c: c.pre_tokenize_str(SAMPLE),
                      "pre_tokenize_str('')": lambda c: c.pre_tokenize_str(""),
                      "alphabet() (ByteLevel)": lambda c: sorted(type(c).alphabet()) if hasattr(c, "alphabet") else None},
    "post_processor": {
        "process(encoding)": lambda p: _process(p, False),
        "process(encoding, pair)": lambda p: _process(p, True),
        "process(encoding, pair, False)": lambda p: _process(p, True, False),
        "num_special_tokens_to_add(is_pair)": lambda p: (p.num_special_tokens_to_add(False), p.num_special_tokens_to_add(is_pair=True)),
    },
    "decoder": {"decode(tokens)": lambda d: d.decode(TOKENS), "decode(tokens=)": lambda d: d.decode(tokens=["a", "##b"]),
                "decode([])": lambda d: d.decode([])},
}


def _hf_components() -> list[tuple[str, str, type, type]]:
    """``(kind, name, HF's class, ours)`` of every registered component HF also has."""
    out = []
    for kind, name, cls in registered():
        theirs = getattr(HF_MODULES.get(kind), name, None)
        if isinstance(theirs, type):
            out.append((kind, name, theirs, cls))
    return out


def test_components_match_hf() -> None:
    found, seen_kinds = [], set()
    for kind, name, theirs, ours in _hf_components():
        key, example = f"{SHORT[kind]}.{name}", EXAMPLE_ARGS.get(f"{SHORT[kind]}.{name}", lambda m: ())

        def make(theirs: type = theirs, ours: type = ours, kind: str = kind, example: Any = example) -> tuple[Any, Any]:
            return theirs(*example(HF_MODULES[kind])), ours(*example(OUR_MODULES[kind]))

        base = hf_names(HF_BASES[kind])
        if kind not in seen_kinds:  # the base class's methods, once per kind
            seen_kinds.add(kind)
            found += surface_differences(f"{SHORT[kind]}.*.", HF_BASES[kind], ours, *make(), fix_kind=SHORT[kind])
        built = theirs() if key not in EXAMPLE_ARGS else make()[0]
        found += signature_differences(f"{key}()", hf_params(theirs, key, built), our_constructor(ours))
        found += surface_differences(f"{key}.", theirs, ours, *make(), fix_kind=SHORT[kind], skip=base)
        found += call_differences(f"{key}.", COMPONENT_CALLS[kind], make)
    assert len(_hf_components()) >= 40
    check(found, COMPONENTS_KNOWN, "components")


# ============================================================================ DecodeStream
DECODE_STREAM_KNOWN: dict[str, str] = {}


def _streams() -> tuple[Any, Any]:
    return hf.decoders.DecodeStream(skip_special_tokens=False), decoders.DecodeStream(skip_special_tokens=False)


def _stream(stream: Any) -> list[Any]:
    theirs, ours = _pipelines()
    return [stream.step(ours if _ours(stream) else theirs, i) for i in (2, 5, 7, 3, 11, 12)]


def test_decode_stream_matches_hf() -> None:
    found = signature_differences("DecodeStream()", hf_params(hf.decoders.DecodeStream), our_params(decoders.DecodeStream))
    found += surface_differences("DecodeStream.", hf.decoders.DecodeStream, decoders.DecodeStream, *_streams())
    found += call_differences("DecodeStream.", {"step(tokenizer, id)": _stream}, _streams)
    check(found, DECODE_STREAM_KNOWN, "DecodeStream")


# ============================================================================ the tables above stay honest
ALL_KNOWN = {**TOKENIZER_KNOWN, **ENCODING_KNOWN, **ADDED_TOKEN_KNOWN, **MODELS_KNOWN, **TRAINERS_KNOWN,
             **COMPONENTS_KNOWN, **DECODE_STREAM_KNOWN}


def _squeeze(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("difference", sorted(ALL_KNOWN))
def test_every_known_difference_states_its_reason(difference: str) -> None:
    """Each reason is a bug, a quote of docs/migrating.md (which must hold it), or says it is neither."""
    reason = ALL_KNOWN[difference]
    assert reason.startswith(("bug: ", 'migrating.md: "', "not in migrating.md: ", "HF: ")), (difference, reason)
    if reason.startswith("migrating.md: "):  # migrating.md: "quote", or migrating.md: "quote"; remark
        quote = reason.removeprefix('migrating.md: "').split('"; ')[0].removesuffix('"')
        assert _squeeze(quote) in _squeeze(MIGRATING.read_text(encoding="utf-8")), f"not in docs/migrating.md: {quote}"


def test_hf_keywords_read_here_are_ones_hf_accepts() -> None:
    """Every keyword read from HF (text signatures, ``HF_SIGNATURE_FIXES``) is one HF accepts: a call
    with that keyword alone never fails with "unexpected keyword argument" (nor runs: the value is
    ``object()``, which HF refuses as any argument)."""
    tok, _ = _pipelines()
    encoding = tok.encode("a")
    targets: list[tuple[str, Callable[..., Any], str]] = []
    targets += [(f"Tokenizer.{n}", getattr(tok, n), "") for n in hf_names(hf.Tokenizer)
                if not _is_property(hf.Tokenizer, n) and n != "from_pretrained" and not n.startswith("async")]
    targets += [(f"Encoding.{n}", getattr(encoding, n), "") for n in hf_names(hf.Encoding) if not _is_property(hf.Encoding, n)]
    for name, (args, kwargs) in MODEL_ARGS.items():
        model = getattr(hf.models, name)(*args, **kwargs)
        targets += [(f"{name}.{n}", getattr(model, n), f"model.{n}") for n in ("tokenize", "token_to_id", "id_to_token")]
    for kind, name, cls, _ in _hf_components():
        targets.append((f"{SHORT[kind]}.{name}()", cls, f"{SHORT[kind]}.{name}"))
    targets.append(("pre_tokenize_str", hf.pre_tokenizers.Whitespace().pre_tokenize_str, "pre_tokenizers.pre_tokenize_str"))
    refused = []
    for label, func, fix_key in targets:
        if not getattr(func, "__text_signature__", None) and fix_key not in HF_SIGNATURE_FIXES:
            continue
        for p in hf_params(func, fix_key):
            if not p.keyword:
                continue
            try:
                func(**{p.name: object()})
            except TypeError as exc:
                if "unexpected keyword argument" in str(exc):
                    refused.append(f"{label}: {p.name!r}")
            except Exception:  # noqa: BLE001  (any other failure: the keyword was taken)
                pass
    assert not refused, f"keywords HF does not accept (correct HF_SIGNATURE_FIXES): {refused}"
