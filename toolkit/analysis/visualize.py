"""The token view: where a tokenizer cuts a text, as HTML for notebooks and plain text for terminals.

This module owns :func:`visualize` (also ``Tokenizer.visualize``) and :class:`TokenView`. Each token
is drawn over the original characters it covers, with alternating background colours, its id and
token string on hover (or printed under it with ``show_ids=True``). Several tokenizers are shown
side by side, one row each, for every text. What the boxes mean:

- a coloured box: one token and the text it covers (spaces inside a token are part of it);
- a box with a count (``東 ×3``): several tokens share these characters, e.g. a Chinese character
  split into its UTF-8 bytes by byte-level BPE (in plain text ``東×3``; when one of them is the
  unknown token, the plain text lists the tokens instead: ``f+[UNK]``);
- a red box: the unknown token (``[UNK]``) and the text it replaced;
- a grey pill: a special token (``[CLS]``) or a token that covers no text (Metaspace's ``▁``);
- plain text between boxes: characters no token covers (e.g. spaces dropped by a pre-tokenizer).

The plain-text form (``str(view)``) joins the tokens' texts with ``|``, shows a space inside a token
as ``␣``, a newline as ``↵`` and a tab as ``→``, and keeps text no token covers as it is, each
whitespace character of it as a plain space (a plain space between two tokens is text no token
covers, e.g. a space that WordPiece's pre-tokenizer dropped)::

    byte-level BPE  8 tokens  Phileas|␣Fogg|␣par|ie|␣vingt|␣mille|␣livres|.

>>> from toolkit import Tokenizer
>>> from algorithms import WordPiece
>>> from pretokenizers import Whitespace
>>> tok = Tokenizer(WordPiece({"[UNK]": 0, "hug": 1, "##s": 2}), pre_tokenizer=Whitespace())
>>> print(visualize(tok, "hugs hug mug"))
hug|s hug [UNK]
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from toolkit.errors import ConfigError, InputError, ToolkitError

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["visualize", "TokenView", "TokenRow", "Cell", "PALETTE"]

#: Background colours of consecutive tokens (pastel, readable with dark text).
PALETTE = ("#fde68a", "#a7f3d0", "#bfdbfe", "#fbcfe8", "#ddd6fe")

CellKind = Literal["token", "group", "unk", "special", "empty", "gap"]


@dataclass(frozen=True)
class Cell:
    """One box of the view: ``kind``, the original ``text`` it covers, and its tokens.

    ``kind`` is ``"token"`` (one token), ``"group"`` (several tokens sharing characters), ``"unk"``
    (the unknown token), ``"special"`` (a special token), ``"empty"`` (an ordinary token covering no
    text) or ``"gap"`` (text no token covers; ``ids`` is empty). ``unknown`` is true when one of the
    cell's tokens is the unknown token (a ``"group"`` can mix known and unknown tokens: NFKC turns
    Thai ``ำ`` into two characters, one of which the vocabulary may lack).
    """

    kind: CellKind
    text: str
    ids: tuple[int, ...] = ()
    tokens: tuple[str, ...] = ()
    unknown: bool = False  #: some token of the cell is the unknown token


@dataclass(frozen=True)
class TokenRow:
    """One tokenizer's view of one text: its name, the number of tokens and the cells in order."""

    name: str
    n_tokens: int
    cells: tuple[Cell, ...]

    def to_text(self) -> str:
        """The ``|``-separated plain text of this row (see the module docstring)."""
        out: list[str] = []
        previous_token = False
        for cell in self.cells:
            if cell.kind == "gap":
                out.append("".join(" " if ch.isspace() else ch for ch in cell.text))
                previous_token = False
                continue
            if previous_token:
                out.append("|")
            if cell.kind in ("special", "unk"):
                out.append(cell.tokens[0] if len(cell.tokens) == 1 else " ".join(cell.tokens))
            elif cell.kind == "empty":
                out.append(_visible(cell.tokens[0]))
            elif cell.kind == "group" and cell.unknown:  # e.g. NFKC made 2 characters of one, 1 unknown
                out.append("+".join(_visible(t) for t in cell.tokens))
            elif cell.kind == "group":
                out.append(f"{_visible(cell.text)}×{len(cell.ids)}")
            else:
                out.append(_visible(cell.text))
            previous_token = True
        return "".join(out)


_VISIBLE = str.maketrans({" ": "␣", "\n": "↵", "\t": "→", "\r": "␍"})


def _visible(text: str) -> str:
    return text.translate(_VISIBLE)


def _cells(tokenizer: Tokenizer, text: str, *, add_special_tokens: bool) -> TokenRow:
    """Cut ``text`` into cells from the encoding's tokens and offsets."""
    enc = tokenizer.encode(text, add_special_tokens=add_special_tokens)
    unk = getattr(tokenizer.model, "unk_token", None)
    unk_id = tokenizer.token_to_id(unk) if unk else None
    cells: list[Cell] = []
    pos = 0
    items = list(zip(enc.ids, enc.tokens, enc.offsets, enc.special_tokens_mask))
    i = 0
    while i < len(items):
        token_id, token, (s, e), special = items[i]
        if special or e <= s:
            kind: CellKind = "special" if special or token_id in tokenizer.special_tokens.values() else "empty"
            cells.append(Cell(kind, text[s:e], (token_id,), (token,)))
            i += 1
            continue
        if s > pos:
            cells.append(Cell("gap", text[pos:s]))
        # Tokens whose spans overlap (pieces of one character) form one group.
        start, end = max(s, pos), e
        ids, toks = [token_id], [token]
        j = i + 1
        while j < len(items):
            nid, ntok, (ns, ne), nspecial = items[j]
            if nspecial or ne <= ns or ns >= end:
                break
            ids.append(nid)
            toks.append(ntok)
            end = max(end, ne)
            j += 1
        covered = text[start:end]
        unknown = unk_id is not None and unk_id in ids
        if len(ids) > 1:
            kind = "group"
        elif unknown:
            kind = "unk"
        else:
            kind = "token"
        cells.append(Cell(kind, covered, tuple(ids), tuple(toks), unknown))
        pos = max(pos, end)
        i = j
    if pos < len(text):
        cells.append(Cell("gap", text[pos:]))
    return TokenRow("", len(enc.ids), tuple(cells))


_STYLE = """<style>
.tkv{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:14px;color:#111827;margin:6px 0}
.tkv .tkv-text{color:#4b5563;font-size:12px;margin:10px 0 4px;white-space:pre-wrap}
.tkv .tkv-grid{display:grid;grid-template-columns:max-content 1fr;gap:6px 12px;align-items:start}
.tkv .tkv-name{font-weight:600;white-space:nowrap;padding-top:3px}
.tkv .tkv-count{display:block;font-weight:400;color:#6b7280;font-size:11px}
.tkv .tkv-row{line-height:2.1;white-space:pre-wrap;word-break:break-word;
  font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.tkv .tkv-t{display:inline-block;color:#111827;border-radius:3px;padding:0 1px;margin:0 1px 0 0;line-height:1.5;
  vertical-align:top;text-align:center}
.tkv .tkv-t sub{font-size:10px;color:#374151;margin-left:1px}
.tkv .tkv-id{display:block;font-size:9px;line-height:1.1;color:#4b5563}
.tkv .tkv-ws{color:#9ca3af}
.tkv .tkv-unk{background:#fecaca;outline:1px dashed #dc2626;color:#7f1d1d}
.tkv .tkv-special{background:#e5e7eb;color:#374151;border-radius:9px;padding:0 6px;font-size:12px}
.tkv .tkv-gap{color:#9ca3af}
.tkv .tkv-legend{color:#6b7280;font-size:11px;margin-top:8px}
</style>"""

_SHOWN_WHITESPACE = {" ": "·", "\n": "↵", "\t": "→", "\r": "␍"}


def _html_text(text: str) -> str:
    """Escape ``text``; whitespace inside a token is drawn as a faint ``·``/``↵``/``→``."""
    out = []
    for ch in text:
        shown = _SHOWN_WHITESPACE.get(ch)
        out.append(f'<span class="tkv-ws">{shown}</span>' if shown else html.escape(ch))
    return "".join(out)


def _title(cell: Cell) -> str:
    parts = [f"id {i} · {t!r}" for i, t in zip(cell.ids, cell.tokens)]
    if cell.kind == "group":
        parts.append(f"{len(cell.ids)} tokens share {cell.text!r}")
    if cell.unknown:
        parts.append(f"unknown: {cell.text!r} is not (entirely) in the vocabulary")
    elif cell.kind == "empty":
        parts.append("covers no text")
    return html.escape("\n".join(parts), quote=True)


def _row_html(row: TokenRow, *, show_ids: bool) -> str:
    out = []
    colour = 0
    for cell in row.cells:
        if cell.kind == "gap":
            out.append(f'<span class="tkv-gap">{html.escape(cell.text)}</span>')
            continue
        ids = f'<span class="tkv-id">{" ".join(map(str, cell.ids))}</span>' if show_ids else ""
        if cell.kind in ("special", "empty"):
            label = html.escape(cell.tokens[0]) if cell.kind == "special" else _html_text(cell.tokens[0])
            out.append(f'<span class="tkv-t tkv-special" title="{_title(cell)}">{label}{ids}</span>')
            continue
        if cell.kind == "unk":
            out.append(f'<span class="tkv-t tkv-unk" title="{_title(cell)}">{_html_text(cell.text)}{ids}</span>')
            colour += 1
            continue
        count = f"<sub>×{len(cell.ids)}</sub>" if cell.kind == "group" else ""
        if cell.unknown:
            out.append(f'<span class="tkv-t tkv-unk" title="{_title(cell)}">{_html_text(cell.text)}{count}{ids}</span>')
        else:
            background = PALETTE[colour % len(PALETTE)]
            out.append(f'<span class="tkv-t" style="background:{background}" title="{_title(cell)}">'
                       f"{_html_text(cell.text)}{count}{ids}</span>")
        colour += 1
    return "".join(out)


class TokenView:
    """Token boundaries of one or more texts under one or more tokenizers.

    ``rows[i]`` holds the :class:`TokenRow` of each tokenizer for ``texts[i]``. Jupyter shows the
    HTML (``_repr_html_``); ``str(view)`` / :meth:`to_text` is the plain-text fallback; :meth:`save`
    writes a standalone HTML page.

    >>> from toolkit import Tokenizer
    >>> from algorithms import BPE
    >>> view = visualize(Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])), "abba")
    >>> view.to_text(), view.rows[0][0].n_tokens
    ('ab|b|a', 3)
    """

    def __init__(self, texts: Sequence[str], rows: Sequence[Sequence[TokenRow]], *, show_ids: bool = False) -> None:
        self.texts = list(texts)
        self.rows = [list(r) for r in rows]
        self.show_ids = show_ids

    @property
    def names(self) -> list[str]:
        """The tokenizer names, in order."""
        return [r.name for r in self.rows[0]] if self.rows else []

    def to_text(self) -> str:
        """Plain text: one line per tokenizer and text (names and counts only with several tokenizers)."""
        single = len(self.names) == 1
        width = max((len(n) for n in self.names), default=0)
        blocks = []
        for text, rows in zip(self.texts, self.rows):
            if single:
                blocks.append(rows[0].to_text())
                continue
            counts = [f"{r.n_tokens} token{'s' if r.n_tokens != 1 else ''}" for r in rows]
            cw = max(len(c) for c in counts)
            lines = [f"{text!r}"] if len(self.texts) > 1 else []
            lines += [f"{r.name:<{width}}  {c:>{cw}}  {r.to_text()}" for r, c in zip(rows, counts)]
            blocks.append("\n".join(lines))
        return ("\n\n" if not single else "\n").join(blocks)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"TokenView({len(self.texts)} text(s) × {len(self.names)} tokenizer(s))"

    def to_html(self) -> str:
        """The HTML fragment (with its ``<style>``) that notebooks display."""
        blocks = []
        for text, rows in zip(self.texts, self.rows):
            grid = []
            for row in rows:
                name = html.escape(row.name) if row.name else "tokens"
                grid.append(f'<div class="tkv-name">{name}<span class="tkv-count">{row.n_tokens} tokens</span></div>'
                            f'<div class="tkv-row">{_row_html(row, show_ids=self.show_ids)}</div>')
            blocks.append(f'<div class="tkv-text">{html.escape(text)}</div><div class="tkv-grid">{"".join(grid)}</div>')
        legend = ('<div class="tkv-legend">Hover a token for its id. Coloured box: one token (· space, ↵ newline). '
                  '×n: n tokens share these characters. Red: unknown token. Grey: special token or a token '
                  'covering no text. Plain grey text: not covered by any token.</div>')
        return f'{_STYLE}<div class="tkv">{"".join(blocks)}{legend}</div>'

    def _repr_html_(self) -> str:
        return self.to_html()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a standalone HTML page (UTF-8) showing the view."""
        from toolkit.serialization import atomic_write_text

        page = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Token view</title></head>'
                f'<body style="margin:16px">{self.to_html()}</body></html>\n')
        atomic_write_text(path, page)


def visualize(
    tokenizers: Tokenizer | Mapping[str, Tokenizer | str | os.PathLike[str]],
    texts: str | Sequence[str],
    *,
    add_special_tokens: bool = True,
    show_ids: bool = False,
) -> TokenView:
    """Show where each tokenizer cuts each text: a :class:`TokenView` (HTML + ``|`` plain text).

    ``tokenizers`` is one tokenizer or a mapping ``{name: tokenizer}`` shown side by side (a value may be
    a tokenizer file, as in :func:`~toolkit.analysis.compare`).
    ``add_special_tokens`` lets post-processors add ``[CLS]``/``[SEP]`` (shown as grey pills);
    ``show_ids`` prints each token's id under it (hover shows it anyway). Truncation and padding are
    left out, as in :func:`~toolkit.analysis.compare`: the view shows each text's own tokens.

    >>> from toolkit import Tokenizer
    >>> from algorithms import BPE
    >>> tok = Tokenizer(BPE({"[UNK]": 0, "a": 1, "b": 2, "ab": 3}, [("a", "b")], unk_token="[UNK]"))
    >>> print(visualize({"bpe": tok, "same": tok}, "abc"))
    bpe   2 tokens  ab|[UNK]
    same  2 tokens  ab|[UNK]
    """
    from toolkit.analysis.metrics import as_tokenizer, check_bool, for_measuring
    from toolkit.tokenizer import Tokenizer

    if isinstance(tokenizers, Tokenizer):
        named: dict[str, Tokenizer] = {"": tokenizers}
    elif isinstance(tokenizers, Mapping) and tokenizers:  # the mapping compare() takes: files load the same way
        named = {str(name): as_tokenizer(tok, f"visualize: {name!r}") for name, tok in tokenizers.items()}
    else:
        raise ConfigError("visualize: pass a Tokenizer or a non-empty mapping {name: Tokenizer}")
    check_bool(add_special_tokens, "visualize: add_special_tokens")
    check_bool(show_ids, "visualize: show_ids")
    if isinstance(texts, Mapping):  # iterating it would show the keys ("en", "fr") instead of the texts
        raise InputError("visualize: texts must be a str or a list of str, got a mapping (of languages?); pass "
                         "its texts, e.g. [text for texts in sample.values() for text in texts]")
    if isinstance(texts, (bytes, bytearray)) or not (isinstance(texts, str) or hasattr(texts, "__iter__")):
        raise InputError(
            f"visualize: texts must be a str or a list of str, got {type(texts).__name__}"
            + ("; decode bytes to str first" if isinstance(texts, (bytes, bytearray)) else "")
        )
    items = [texts] if isinstance(texts, str) else list(texts)
    if not items:
        raise InputError("visualize: no text given")
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise InputError(f"visualize: texts[{i}] must be a str, got {type(t).__name__}")
    rows = []
    for i, text in enumerate(items):
        row = []
        for name, tok in named.items():
            try:
                r = _cells(for_measuring(tok), text, add_special_tokens=add_special_tokens)
            except ToolkitError as exc:  # which tokenizer (an untrained one...), on which text
                raise type(exc)(f"visualize: {f'{name!r} on ' if name else ''}texts[{i}]: {exc}") from exc
            row.append(TokenRow(name, r.n_tokens, r.cells))
        rows.append(row)
    return TokenView(items, rows, show_ids=show_ids)
