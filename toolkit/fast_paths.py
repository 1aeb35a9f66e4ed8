"""The encode fast paths of :class:`~toolkit.Tokenizer` and the caches they keep.

``encode`` caches the tokens of each piece with spans relative to the piece, so a repeated word costs
one look-up instead of a model call, one ``id_to_token`` and two span mappings per token; a long piece
that the model merges word by word (``BPE.cut_words``: Gemma 3's whole line) is assembled from its
words' entries.
``encode_ids`` caches ids by *raw* piece (before a per-piece respelling such as byte-level ``Ġ``), so
a repeated word costs one look-up and no respelling. :class:`PipelineCaches` holds both; the
pipeline drops it whenever its model or pre-tokenizer is replaced or any component option changes
(:func:`toolkit.options.generation`). ``tests/test_fast_paths.py`` checks every path against the
slow, piece-by-piece pipeline (``tests/test_llm_speed_paths.py`` the word-by-word one too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

from toolkit import limits, options
from toolkit.alignment import NormalizedString, Piece
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.errors import InputError, InputTypeError
from toolkit.interfaces import Model, PreTokenizer
from toolkit.unicode_tables import WHITESPACE_RANGES

__all__ = [
    "Columns",
    "PieceTokens",
    "PipelineCaches",
    "check_text",
    "encode_pieces",
    "encode_slices",
    "piece_tokens",
    "scan_ids",
    "scan_ids_reference",
    "segment_ids",
]

#: The tokens of a piece: (ids, token strings, (start, end) of each token in the piece), or, for the
#: one-token pieces that most pieces are, one flat (id, token, start, end), faster to unpack.
PieceTokens = tuple[tuple[int, ...], tuple[str, ...], tuple[tuple[int, int], ...]] | tuple[int, str, int, int]

Spell = Callable[[str], str] | None

#: The White_Space characters of the pinned tables (tiktoken's and HF's ``\s``), the rule of scan_ids.
_WHITESPACE = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in WHITESPACE_RANGES) + "]")
#: Longer words are encoded every time rather than kept in the chunk memo.
MAX_CHUNK = 64
#: Longer texts between words are scanned every time rather than kept.
MAX_SCANNED = 256


def check_text(text: Any, what: str = "text", *, sized: bool = True) -> str:
    """``text`` if it is a ``str`` within the input limit and free of lone surrogates; else :class:`InputError`.
    ``sized=False`` skips the size limit (``encode_ids``: its memory is linear in the ids).

    >>> check_text("fine")
    'fine'
    """
    if not isinstance(text, str):
        raise InputTypeError(f"{what} must be a str, got {type(text).__name__}")
    if sized:
        limits.check_input_size(text, what)
    m = limits.lone_surrogate(text)
    if m is not None:
        raise InputError(
            f"{what} contains a lone surrogate U+{ord(m.group()):04X} at index {m.start()}, which is not "
            "valid Unicode text; decode the input with errors='replace' (or fix its source) before encoding"
        )
    return text


class PipelineCaches:
    """The caches of one pipeline, with the model and pre-tokenizer whose results they hold.

    An encode call takes the model and pre-tokenizer from here, together with the caches, so a thread
    that replaces ``tokenizer.model`` while another encodes never mixes one model's ids into the
    other's cache. ``generation`` is the option generation they were filled under: a pipeline compares
    it with :func:`toolkit.options.generation` and starts new caches when an option changed since.
    """

    __slots__ = ("capacity", "chunks", "generation", "model", "pre_tokenizer", "raw", "scan_chunk", "scan_encode", "scanned",
                 "scanner", "tokens")

    def __init__(self, model: Model, pre_tokenizer: PreTokenizer | None) -> None:
        self.model = model
        self.pre_tokenizer = pre_tokenizer
        self.capacity = capacity = model.cache_capacity
        #: ``encode_ids``: raw piece (before respelling) -> ids.
        self.raw: BoundedCache = BoundedCache(capacity, longest=MAX_CACHED_PIECE)
        #: ``encode``: respelling (``None``: none) -> {piece: :data:`PieceTokens`}.
        self.tokens: dict[Spell, BoundedCache] = {}
        self.generation = options.generation()
        #: ``encode_ids`` through :func:`scan_ids`: the pre-tokenizer's scanner, and word -> ids of " " + word.
        self.scanner = None if pre_tokenizer is None else pre_tokenizer.scanner()
        self.chunks: BoundedCache = BoundedCache(capacity, longest=MAX_CHUNK)
        #: ``encode_ids`` through :func:`scan_ids`: any other text scanned alone -> its ids (the ends of
        #: short texts, whitespace runs with the word after them); apart from ``chunks``, so that
        #: rarely repeated texts never push the words out.
        self.scanned: BoundedCache = BoundedCache(capacity, longest=MAX_SCANNED)
        self.scan_encode = None if self.scanner is None else _piece_encoder(
            model, self.raw, self.scanner[0].findall, self.scanner[1]
        )
        self.scan_chunk = None if self.scan_encode is None else _chunk_scanner(self.scan_encode, self.scanned)

    def tokens_for(self, spell: Spell) -> BoundedCache:
        """The piece-token cache of pieces respelled by ``spell``."""
        cache = self.tokens.get(spell)
        if cache is None:
            cache = self.tokens[spell] = BoundedCache(self.capacity, longest=MAX_CACHED_PIECE)
        return cache

    def entries(self) -> int:
        """How many entries these caches hold: it grows by one for each piece encoded that none held
        (a full cache starts again from empty, so it can also fall)."""
        return len(self.raw) + len(self.chunks) + len(self.scanned) + sum(map(len, self.tokens.values()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.model, self.pre_tokenizer))  # pickled (a spawned worker): empty caches


def piece_tokens(model: Model, raw: str, spell: Spell) -> PieceTokens:
    """The tokens of ``spell(raw)``, spans mapped back to characters of ``raw`` as :meth:`Piece.span`
    maps them (``spell`` writes each character as one or more characters, on its own)."""
    text = raw if spell is None else spell(raw)
    found = model.tokenize(text)
    if len(text) == len(raw) and found:  # one character for one: the spans hold as they are
        if len(found) == 1:
            token_id, s, e = found[0]
            return token_id, model.id_to_token(token_id), s, e
        ids, starts, ends = zip(*found)  # columns at C speed
        return ids, tuple(map(model.id_to_token, ids)), tuple(zip(starts, ends))
    spans = tuple((s, e) for _, s, e in found)
    if len(text) != len(raw):
        source = [i for i, c in enumerate(raw) for _ in range(len(spell(c)))]  # type: ignore[misc]
        end = len(raw)  # source[k]: the character of raw that spelled character k comes from
        spans = tuple(
            (source[s], source[e - 1] + 1) if e > s else (source[s], source[s]) if s < len(source) else (end, end)
            for s, e in spans
        )
    id_to_token = model.id_to_token
    if len(found) == 1:
        token_id = found[0][0]
        return token_id, id_to_token(token_id), spans[0][0], spans[0][1]  # type: ignore[return-value]
    return tuple(t[0] for t in found), tuple(id_to_token(t[0]) for t in found), spans  # type: ignore[misc]


def _cached_piece_tokens(cache: BoundedCache, model: Model, raw: str, spell: Spell) -> PieceTokens:
    """:func:`piece_tokens`, kept in ``cache`` (the cache miss of the two encode paths)."""
    return cache.put(raw, piece_tokens(model, raw, spell))  # type: ignore[no-any-return]


class Columns:
    """The growing columns of one sequence's :class:`~toolkit.Encoding` (lists, appended in place)."""

    __slots__ = ("ids", "offsets", "specials", "tokens", "words")

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.tokens: list[str] = []
        self.offsets: list[tuple[int, int]] = []
        self.words: list[int | None] = []
        self.specials: list[int] = []  # indices of the special tokens


def encode_slices(
    out: Columns, model: Model, cache: BoundedCache, ns: NormalizedString,
    sliced: tuple[list[str], list[int], Spell], seg_start: int, word: int,
) -> int:
    """Append the tokens of pieces that are plain slices of ``ns.normalized`` (``split_slices``
    output: pieces, their starts, the respelling); return the next word index.

    One loop with everything in locals: this is the hot path of ``encode`` for BERT and GPT-2 style
    pipelines, where a helper call per token is a large share of the time (measured: docs/benchmarks.md,
    "Design measurements").
    """
    raws, starts, spell = sliced
    ids, tokens, offsets, words = out.ids, out.tokens, out.offsets, out.words
    align = ns.alignments
    original_span = ns.original_span
    get = cache.get
    # A model that merges a long piece word by word (BPE.cut_words) has each word's tokens kept instead.
    cut_words = getattr(model, "cut_words", None) if spell is None else None
    for raw, start in zip(raws, starts):
        entry = get(raw)
        if entry is None:
            cut = cut_words(raw) if cut_words is not None else None
            if cut is not None and len(cut) > 1:
                _encode_words(out, model, cache, ns, raw, cut, start, seg_start, word)
                word += 1
                continue
            entry = _cached_piece_tokens(cache, model, raw, spell)
        if len(entry) == 4:  # one token: (id, token, start, end)
            token_id, token, s, e = entry
            ids.append(token_id)
            tokens.append(token)
            words.append(word)
            if align is None:  # normalized positions are original positions
                offsets.append((seg_start + start + s, seg_start + start + e))
            else:
                s, e = original_span(start + s, start + e)
                offsets.append((seg_start + s, seg_start + e))
        else:
            piece_ids, piece_tokens_, spans = entry
            ids += piece_ids
            tokens += piece_tokens_
            words += [word] * len(piece_ids)
            if align is not None:
                for s, e in spans:
                    s, e = original_span(start + s, start + e)
                    offsets.append((seg_start + s, seg_start + e))
            elif seg_start + start:
                base = seg_start + start
                offsets += [(base + s, base + e) for s, e in spans]
            else:  # the piece starts an unaligned text (Gemma 3's whole line): its spans are its offsets
                offsets += spans
        word += 1
    return word


def _encode_words(
    out: Columns, model: Model, cache: BoundedCache, ns: NormalizedString, raw: str, words: list[str], start: int,
    seg_start: int, word: int,
) -> None:
    """Append the tokens of ``raw``, a piece at ``start`` in ``ns.normalized`` that the model merges as the
    ``words`` it cuts it into (``BPE.cut_words``); all are word ``word`` of the encoding.

    The model's tokens of ``raw`` are each word's tokens, spans shifted by the word's start: each word's
    entry comes from ``cache``, so a new line (Gemma 3: the whole line is one piece) costs a look-up per
    word, where the model's ``tokenize`` and :func:`piece_tokens` built each token's span three times over.
    ``raw`` gets its entry too when its offsets are its spans (a piece at the start of an unaligned text):
    then it is three slices."""
    ids, tokens, offsets = out.ids, out.tokens, out.offsets
    first = len(ids)
    align = ns.alignments
    original_span = ns.original_span
    get = cache.get
    base = start if align is not None else start + seg_start  # where the word starts
    for w in words:
        entry = get(w) or _cached_piece_tokens(cache, model, w, None)
        if len(entry) == 4:  # one token: (id, token, start, end)
            token_id, token, s, e = entry
            ids.append(token_id)
            tokens.append(token)
            if align is None:
                offsets.append((base + s, base + e))
            else:
                s, e = original_span(base + s, base + e)
                offsets.append((seg_start + s, seg_start + e))
        else:
            ids += entry[0]
            tokens += entry[1]
            for s, e in entry[2]:
                if align is None:
                    offsets.append((base + s, base + e))
                else:
                    s, e = original_span(base + s, base + e)
                    offsets.append((seg_start + s, seg_start + e))
        base += len(w)
    out.words += [word] * (len(ids) - first)
    if align is None and start + seg_start == 0:  # (two words give two tokens or more: the three-column form)
        cache.put(raw, (tuple(ids[first:]), tuple(tokens[first:]), tuple(offsets[first:])))


def encode_pieces(
    out: Columns, model: Model, cache: BoundedCache, ns: NormalizedString, pieces: list[Piece], seg_start: int, word: int
) -> int:
    """Append the tokens of :class:`Piece` objects (any pre-tokenizer), each token mapped through its
    piece's alignment; return the next word index."""
    identity = ns.alignments is None
    get = cache.get
    for piece in pieces:
        piece_text = piece.text
        if not piece_text:
            continue
        entry = get(piece_text) or _cached_piece_tokens(cache, model, piece_text, None)
        if len(entry) == 4:
            entry = ((entry[0],), (entry[1],), ((entry[2], entry[3]),))
        piece_ids, piece_tokens_, spans = entry
        out.ids += piece_ids
        out.tokens += piece_tokens_
        if identity and piece.align is None:  # character i of the piece is original start + i
            base = seg_start + piece.start
            out.offsets += [(base + s, base + e) for s, e in spans]
        else:
            for s, e in spans:
                s, e = ns.original_span(*piece.span(s, e))
                out.offsets.append((seg_start + s, seg_start + e))
        out.words += [word] * len(piece_ids)
        word += 1
    return word


def segment_ids(model: Model, pre_tokenizer: PreTokenizer | None, raw_cache: BoundedCache, segment: str) -> list[int]:
    """The ids of a normalized text without special tokens: split, then look up or encode each piece."""
    piece_cache = model.piece_cache
    if pre_tokenizer is None:
        return list(piece_cache.get(segment) or model.encode_piece(segment)) if segment else []
    out: list[int] = []
    pieces, spell = pre_tokenizer.split_raw(segment)
    if spell is None:
        get = piece_cache.get
        encode_piece = model.encode_piece
        for piece in pieces:
            out += get(piece) or encode_piece(piece)
        return out
    # Cache by the piece before respelling (e.g. " the" rather than "Ġthe"): a repeated word then
    # costs one look-up and no respelling.
    raw_get = raw_cache.get
    encode_uncached = model._encode_piece
    for piece in pieces:
        ids = raw_get(piece)
        if ids is None:
            ids = raw_cache.put(piece, encode_uncached(spell(piece)))
        out += ids
    return out


def _piece_encoder(
    model: Model, raw_cache: BoundedCache, findall: Callable[[str], list[str]], spell: Spell
) -> Callable[[str], list[int]]:
    """``encode(text)``: the ids of the pieces ``findall`` cuts ``text`` into, each through the cache."""
    if spell is None:
        get, encode_piece = model.piece_cache.get, model.encode_piece

        def encode_plain(text: str) -> list[int]:
            out: list[int] = []
            for piece in findall(text):
                out += get(piece) or encode_piece(piece)
            return out

        return encode_plain
    raw_get, put, encode_uncached = raw_cache.get, raw_cache.put, model._encode_piece

    def encode(text: str) -> list[int]:
        out: list[int] = []
        for piece in findall(text):
            ids = raw_get(piece)
            if ids is None:
                ids = put(piece, encode_uncached(spell(piece)))
            out += ids
        return out

    return encode


def _chunk_scanner(encode: Callable[[str], list[int]], scanned: BoundedCache) -> Callable[[str], Sequence[int]]:
    """``scan(chunk)``: the ids of ``chunk`` scanned alone, kept in ``scanned`` unless it is long."""
    get, put = scanned.get, scanned.put

    def scan(chunk: str) -> Sequence[int]:
        ids = get(chunk)
        if ids is None:
            ids = encode(chunk)
            put(chunk, tuple(ids))  # a tuple of ints leaves the garbage collector's lists
        return ids  # type: ignore[no-any-return]

    return scan


def scan_ids(caches: PipelineCaches, text: str) -> list[int]:
    """The ids of ``text`` through the pre-tokenizer's scanner, a space-separated word at a time.

    The rule (proven for the pinned named patterns by ``tests/test_exact_codepoints.py`` and the
    property tests of ``tests/test_encode_speed_paths.py``): in ``text.split(" ")``, a part ``w`` that
    is not the first, is not empty and holds no whitespace is a piece boundary on both sides: no match
    of these patterns runs over a space except at its start or inside a whitespace run, and ``w`` has
    none. So ``" " + w`` is scanned on its own and its ids kept in ``caches.chunks`` (a repeated word
    costs one look-up); the parts between such words are joined back and scanned with the pattern,
    together with the word that follows them (so a trailing whitespace run splits as in the full text).
    A first part free of whitespace (``"The"`` of ``"The end\\n"``) is a chunk of its own too. Chunks
    other than words are kept in ``caches.scanned`` under the text scanned (lines and chat turns share
    their ends). :func:`scan_ids_reference` is the plain scan it must equal.
    """
    prefix = caches.scanner[2]  # type: ignore[index]
    if prefix and text and text[0] != " ":
        text = " " + text
    encode, scan = caches.scan_encode, caches.scan_chunk
    memo = caches.chunks
    get, put, has_space = memo.get, memo.put, _WHITESPACE.search
    out: list[int] = []
    parts = text.split(" ")
    first = parts[0]
    pending: list[str] | None = None  # parts waiting for the pattern, to be joined by " "
    if len(parts) > 1 and first and not has_space(first):  # a chunk of its own at the start
        out += scan(first)
    else:
        pending = [first]
    for w in islice(parts, 1, None):
        ids = get(w)
        if ids is None:
            if not w or has_space(w):
                if pending is None:
                    pending = ["", w]  # "" stands for the space in front of w
                else:
                    pending.append(w)
                continue
            if pending is None:
                ids = put(w, tuple(encode(" " + w)))  # a tuple of ints leaves the garbage collector's lists
        if pending is not None:
            # Scanned together with the word: alone, the parts could end in a whitespace run that
            # ``\s++$`` takes whole, where the full text splits it (cl100k's "\n " before " word").
            pending.append(w)
            out += scan(" ".join(pending))
            pending = None
            continue
        out += ids
    if pending is not None:
        out += scan(" ".join(pending))
    return out


def scan_ids_reference(caches: PipelineCaches, text: str) -> list[int]:
    """:func:`scan_ids` the obvious way: scan the whole text, encode each piece (no memo)."""
    compiled, spell, prefix = caches.scanner  # type: ignore[misc]
    if prefix and text and text[0] != " ":
        text = " " + text
    model = caches.model
    out: list[int] = []
    for piece in compiled.findall(text):
        out += model.encode_piece(piece if spell is None else spell(piece))
    return out
