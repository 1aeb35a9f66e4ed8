"""Plots of comparison results (matplotlib, optional: ``pip install "tokenizer-toolkit[compare]"``).

This module owns the figures of the comparison tools:

- :func:`plot_token_lengths` — how long the tokens are, per tokenizer (share of tokens by length);
- :func:`plot_sweep` — a metric (bytes per token by default) against vocabulary size, one curve per
  pipeline (:func:`toolkit.analysis.sweep.sweep`);
- :func:`plot_languages` — a metric (fertility by default) per language, bars per tokenizer;
- :func:`save_plots` — all that apply, as PNG files (what ``tokenizer-toolkit compare`` writes).

Every function returns a :class:`matplotlib.figure.Figure` built without ``pyplot`` (no global state,
no GUI backend needed); pass ``ax=`` to draw into an axes of your own figure instead. A tokenizer
keeps its colour in every plot (the order of the report). Notebooks display the returned figure
(``%matplotlib inline``); scripts call ``fig.savefig("plot.png")``.

>>> from toolkit.analysis import compare                # doctest: +SKIP
>>> fig = plot_token_lengths(compare(tokenizers, texts))   # doctest: +SKIP
>>> fig.savefig("token_lengths.png")                  # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.analysis.metrics import METRICS, metric_label, renyi_alpha_of
from toolkit.errors import ConfigError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


# A ComparisonReport and a SweepResult: not imported, because their plot methods import this module.
_Report = Any
_Sweep = Any

__all__ = ["plot_token_lengths", "plot_sweep", "plot_languages", "save_plots", "COLORS"]

#: Colours given to tokenizers in order (Okabe–Ito, readable by colour-blind viewers).
COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def _require_matplotlib() -> type[Figure]:
    """matplotlib's ``Figure`` class; without matplotlib a :class:`ConfigError` saying how to install it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ConfigError(
            'plots need matplotlib: pip install "tokenizer-toolkit[compare]" (or pip install matplotlib)'
        ) from None
    return Figure


def _figure(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """A new figure and axes (``pyplot``-free), or ``ax`` and its figure."""
    figure_class = _require_matplotlib()
    if ax is not None:
        return ax.figure, ax  # type: ignore[return-value]
    fig = figure_class(figsize=size, dpi=100, layout="constrained")
    return fig, fig.add_subplot()


def _style(ax: Axes) -> None:
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(axis="y", color="#e5e7eb", linewidth=0.8)
    ax.set_axisbelow(True)


def _label(metric: str, alpha: float) -> str:
    better = METRICS[metric][2]
    hint = f" ({better} is better)" if better else ""
    return f"{metric_label(metric, alpha)}{hint}"


def _title(metric: str, alpha: float) -> str:
    label = metric_label(metric, alpha)
    return label[0].upper() + label[1:]


def _check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ConfigError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")


def plot_token_lengths(
    report: _Report, *, max_length: int | None = None, ax: Axes | None = None, title: str | None = None
) -> Figure:
    """Share of tokens of each length (in characters of their decoded text), bars per tokenizer.

    Lengths from ``max_length`` on are gathered in the last bar (``12+``); by default ``max_length``
    is the longest token seen, at most 16. Unknown tokens have no length and are left out (see
    ``docs/compare.md``: a byte-level token holding part of a character counts as one character).
    """
    rows = list(report.rows)
    if max_length is None:
        longest = max((n for row in rows for n in row.token_lengths), default=2)
        max_length = max(2, min(16, longest))
    if not isinstance(max_length, int) or max_length < 2:
        raise ConfigError(f"max_length must be an integer >= 2, got {max_length!r}")
    fig, ax = _figure(ax, (9, 4.2))
    lengths = list(range(1, max_length + 1))
    width = 0.8 / max(1, len(rows))
    for k, row in enumerate(rows):
        total = sum(row.token_lengths.values())
        shares = []
        for n in lengths:
            count = row.token_lengths.get(n, 0)
            if n == max_length:
                count = sum(v for length, v in row.token_lengths.items() if length >= max_length)
            shares.append(100 * count / total if total else 0.0)
        xs = [n + (k - (len(rows) - 1) / 2) * width for n in lengths]
        ax.bar(xs, shares, width=width, color=COLORS[k % len(COLORS)], label=row.name)
    ax.set_xticks(lengths, [str(n) if n < max_length else f"{n}+" for n in lengths])
    ax.set_xlabel("token length (characters of the decoded token, spaces included)")
    ax.set_ylabel("share of tokens (%)")
    ax.set_title(title or "Token lengths")
    ax.legend(frameon=False)
    _style(ax)
    return fig


def plot_sweep(
    result: _Sweep, *, metric: str = "bytes_per_token", ax: Axes | None = None, log_x: bool = True,
    title: str | None = None,
) -> Figure:
    """``metric`` against the vocabulary size reached, one line per pipeline of the sweep.

    A metric a sweep never measures (``throughput``, ``parity``) is a :class:`ConfigError`, not an
    empty plot."""
    series = _sweep_series(result, metric)
    fig, ax = _figure(ax, (7.5, 4.5))
    sizes: set[int] = set()
    for k, (name, points) in enumerate(series.items()):
        xs = [x for x, y in points if y is not None]
        ys = [y for x, y in points if y is not None]
        sizes.update(xs)
        ax.plot(xs, ys, marker="o", linewidth=2, markersize=5, color=COLORS[k % len(COLORS)], label=name)
    if log_x and len(sizes) > 1 and min(sizes) > 0:
        ax.set_xscale("log")
    if sizes:
        ticks = sorted(sizes)
        ax.set_xticks(ticks, [f"{t:,}" for t in ticks])
        ax.minorticks_off()
    alpha = renyi_alpha_of(p.metrics for p in result.points)
    ax.set_xlabel("vocabulary size")
    ax.set_ylabel(_label(metric, alpha))
    ax.set_title(title or f"{_title(metric, alpha)} vs vocabulary size")
    ax.legend(frameon=False)
    _style(ax)
    return fig


def _sweep_series(result: _Sweep, metric: str) -> dict[str, list[tuple[int, Any]]]:
    """``result.series(metric)`` once the metric is known and was measured at some point of the sweep."""
    _check_metric(metric)
    series: dict[str, list[tuple[int, Any]]] = result.series(metric)
    if series and all(y is None for points in series.values() for _, y in points):
        raise ConfigError(f"plot_sweep: {metric!r} was not measured at any vocabulary size (a sweep measures no "
                          "throughput nor parity; plot bytes_per_token, fertility, renyi_efficiency...)")
    return series


def plot_languages(
    report: _Report, *, metric: str = "fertility", ax: Axes | None = None, log: bool | None = None,
    title: str | None = None,
) -> Figure:
    """``metric`` for each language (``compare(..., {"en": [...], "zh": [...]})``), bars per tokenizer.

    ``log`` uses a logarithmic axis; by default it does when values differ by more than 20×
    (fertility on Chinese or Thai text, which has no spaces, is far above English). Each bar is
    labelled with its value; ``metric="parity"`` (``compare(..., reference=...)``) draws a dashed
    line at 1, where a language costs as many tokens as the reference.
    """
    _check_metric(metric)
    if not report.languages:
        raise ConfigError("plot_languages needs a report over texts grouped by language: compare(tokenizers, {'en': [...], ...})")
    fig, ax = _figure(ax, (9, 4.5))
    langs = list(report.languages)
    names = report.names
    width = 0.8 / max(1, len(names))
    values: list[float] = []
    for k, name in enumerate(names):
        ys = [report.languages[lang][name].metric(metric) for lang in langs]
        if all(y is None for y in ys):
            raise ConfigError(f"plot_languages: {metric!r} was not measured for {name!r} in any language "
                              + ("(compare(..., reference=...) measures parity)" if metric == "parity" else
                                 "(per language, throughput and training time are not measured)"))
        xs = [i + (k - (len(names) - 1) / 2) * width for i in range(len(langs))]
        heights = [float(y) if y is not None else 0.0 for y in ys]
        values += [h for h in heights if h > 0]
        bars = ax.bar(xs, heights, width=width, color=COLORS[k % len(COLORS)], label=name)
        ax.bar_label(bars, labels=[_short(y) for y in ys], fontsize=7.5, padding=2)
    if log is None:
        log = bool(values) and min(values) > 0 and max(values) / min(values) > 20
    if log:
        ax.set_yscale("log")
    if metric == "parity":
        ax.axhline(1.0, color="#6b7280", linewidth=1, linestyle="--")  # parity: as many tokens as the reference
    ax.set_xticks(range(len(langs)), langs)
    ax.set_xlabel("language")
    alpha = renyi_alpha_of(report.rows)
    ax.set_ylabel(_label(metric, alpha) + (" — log scale" if log else ""))
    ax.set_title(title or f"{_title(metric, alpha)} by language")
    ax.margins(y=0.12)
    ax.legend(frameon=False)
    _style(ax)
    return fig


def _short(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, int) or (isinstance(value, float) and value >= 100):
        return f"{value:,.0f}"
    if isinstance(value, float) and value < 1 and value != 0 and math.log10(abs(value)) < -1:
        return f"{value:.3f}"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def save_plots(
    report: _Report | None, folder: str | os.PathLike[str], *, sweep: _Sweep | None = None,
    sweep_metrics: Sequence[str] = ("bytes_per_token",), dpi: int = 120,
) -> list[Path]:
    """Write every plot that applies as PNG into ``folder``; return the paths written.

    ``token_lengths.png`` (with a report); ``fertility_by_language.png``,
    ``bytes_per_token_by_language.png``, ``renyi_efficiency_by_language.png`` and, with a reference
    language, ``parity_by_language.png`` (when the report has languages); and ``sweep_<metric>.png``
    for each of ``sweep_metrics`` (with a sweep; ``"renyi_efficiency"`` draws efficiency against
    vocabulary size; one name alone may be a string). Every metric and matplotlib are checked before
    the folder is made or anything is written.
    """
    if isinstance(sweep_metrics, str):  # one metric, not its letters
        sweep_metrics = (sweep_metrics,)
    for metric in sweep_metrics:
        if sweep is None:
            _check_metric(metric)
        else:
            _sweep_series(sweep, metric)
    _require_matplotlib()
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    plan = _plan(report=report is not None, languages=bool(report is not None and report.languages),
                 reference=getattr(report, "reference", None) is not None,
                 sweep_metrics=sweep_metrics if sweep is not None and sweep.points else ())
    written: list[Path] = []
    for name, kind, metric in plan:
        if kind == "lengths":
            fig = plot_token_lengths(report)  # type: ignore[arg-type]
        elif kind == "languages":
            fig = plot_languages(report, metric=metric)  # type: ignore[arg-type]
        else:
            fig = plot_sweep(sweep, metric=metric)  # type: ignore[arg-type]
        fig.savefig(out / name, dpi=dpi)
        written.append(out / name)
    return written


def plot_names(*, report: bool = True, languages: bool = False, reference: bool = False,
               sweep_metrics: Sequence[str] = ()) -> list[str]:
    """The files :func:`save_plots` writes: with a report, for one with ``languages`` (and a
    ``reference`` language), and for a sweep drawing ``sweep_metrics``.

    >>> plot_names(languages=True)
    ['token_lengths.png', 'fertility_by_language.png', 'bytes_per_token_by_language.png', 'renyi_efficiency_by_language.png']
    """
    return [name for name, _, _ in _plan(report=report, languages=languages, reference=reference,
                                         sweep_metrics=sweep_metrics)]


def _plan(*, report: bool, languages: bool, reference: bool, sweep_metrics: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(file name, plot kind, metric)`` of each plot :func:`save_plots` draws, in order."""
    plan = []
    if report:
        plan.append(("token_lengths.png", "lengths", ""))
        if languages:
            metrics = ["fertility", "bytes_per_token", "renyi_efficiency", *(["parity"] if reference else [])]
            plan += [(f"{metric}_by_language.png", "languages", metric) for metric in metrics]
    return plan + [(f"sweep_{metric}.png", "sweep", metric) for metric in sweep_metrics]
