"""Vocabulary-size sweeps: train pipelines at several sizes and measure each result.

This module owns :func:`sweep` (count the corpus once per distinct normalizer + pre-tokenizer, train a
copy of each trainer at every size, measure like :func:`~toolkit.analysis.report.compare`) and
:class:`SweepResult` (the points, their curves, and their renderings).

>>> result = SweepResult([], counting_seconds={})
>>> result.series("bytes_per_token")
{}
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.analysis.metrics import (
    DEFAULT_RENYI_ALPHA,
    Texts,
    TokenizerMetrics,
    _grouped_texts,
    check_alpha,
    check_bool,
    metric_label,
    renyi_alpha_of,
)
from toolkit.analysis.report import compare
from toolkit.analysis.tables import _HTML_STYLE, _fmt_number, _Table
from toolkit.errors import ConfigError, TrainingError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from toolkit.interfaces import Trainer
    from toolkit.tokenizer import Tokenizer
    from toolkit.training.corpus import CorpusSource

__all__ = ["sweep", "SweepPoint", "SweepResult"]


@dataclass(frozen=True)
class SweepPoint:
    """One trained tokenizer of a sweep: its pipeline name, the requested size, and its metrics.

    ``metrics.vocab_size`` is the size actually reached (smaller than requested when the corpus has
    too few pairs to merge); ``metrics.train_seconds`` is the trainer's time.
    """

    name: str
    requested_vocab_size: int
    metrics: TokenizerMetrics


@dataclass
class SweepResult:
    """The result of :func:`sweep`: one :class:`SweepPoint` per (pipeline, vocabulary size).

    >>> result = SweepResult([], counting_seconds={})
    >>> result.series("bytes_per_token")
    {}
    """

    points: list[SweepPoint]
    counting_seconds: dict[str, float]
    tokenizers: dict[tuple[str, int], Tokenizer] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The pipeline names, in order."""
        return list(dict.fromkeys(p.name for p in self.points))

    def __repr__(self) -> str:
        sizes = sorted({p.requested_vocab_size for p in self.points})
        return f"SweepResult({', '.join(map(repr, self.names))} at vocab sizes {sizes})"

    def series(self, metric: str = "bytes_per_token") -> dict[str, list[tuple[int, float | int | None]]]:
        """``{name: [(vocab_size, value), ...]}`` sorted by vocabulary size: one curve per pipeline."""
        out: dict[str, list[tuple[int, float | int | None]]] = {}
        for p in self.points:
            out.setdefault(p.name, []).append((p.metrics.vocab_size, p.metrics.metric(metric)))
        return {name: sorted(values, key=lambda item: item[0]) for name, values in out.items()}

    def to_dict(self) -> dict[str, Any]:
        """``{"counting_seconds": {...}, "points": [{"name", "requested_vocab_size", **metrics}, ...]}``."""
        return {
            "counting_seconds": self.counting_seconds,
            "points": [{"name": p.name, "requested_vocab_size": p.requested_vocab_size,
                        **{k: v for k, v in p.metrics.to_dict().items() if k != "name"}} for p in self.points],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def _table(self) -> _Table:
        columns = [("vocab_size", "int"), ("bytes_per_token", "float"), ("fertility", "float"),
                   ("split_word_share", "pct"), ("unk_word_share", "pct"), ("mean_token_length", "float"),
                   ("renyi_efficiency", "float"), ("shannon_efficiency", "float"), ("vocab_utilization", "pct"),
                   ("unreachable_tokens", "int"), ("train_seconds", "seconds")]
        alpha = renyi_alpha_of(p.metrics for p in self.points)
        header = ["pipeline", "requested", *(metric_label(n, alpha) for n, _ in columns)]
        body = [[p.name, f"{p.requested_vocab_size:,}", *(_fmt_number(p.metrics.metric(n), k) for n, k in columns)]
                for p in self.points]
        return _Table("Vocabulary-size sweep", header, body, ["l", *("r" for _ in range(len(columns) + 1))],
                      note="Metrics on the evaluation texts; vocab is the size reached, requested the size asked for.")

    def to_text(self) -> str:
        """A plain-text table, one line per trained tokenizer."""
        return self._table().text()

    def __str__(self) -> str:
        return self.to_text()

    def to_markdown(self) -> str:
        """A Markdown table, one line per trained tokenizer."""
        return self._table().markdown() + "\n"

    def _repr_html_(self) -> str:
        return f'{_HTML_STYLE}<div class="tkc-report">{self._table().html()}</div>'

    def plot(self, metric: str = "bytes_per_token", **options: Any) -> Figure:
        """One curve per pipeline: ``metric`` against vocabulary size (:func:`toolkit.analysis.plots.plot_sweep`)."""
        from toolkit.analysis.plots import plot_sweep

        return plot_sweep(self, metric=metric, **options)


def _with_vocab_size(trainer: Trainer, vocab_size: int) -> Trainer:
    """A copy of ``trainer`` with another ``vocab_size`` (its progress callback is carried over).

    The copy draws no bar of its own (``show_progress=False``): a sweep is many short trainings, and
    the sweep's ``progress`` reports them as one ``"sweep"`` stage (``--quiet`` silences that).
    """
    from toolkit.interfaces import build

    data = trainer.to_dict()
    if "vocab_size" not in data:
        raise ConfigError(f"sweep: {type(trainer).__name__} has no vocab_size option")
    quiet = {"show_progress": False} if "show_progress" in data else {}
    copy = build("trainer", {**data, "vocab_size": vocab_size, **quiet})
    if hasattr(trainer, "progress"):
        copy.progress = trainer.progress
    return copy


def _reusable(corpus: Any) -> Any:
    """A one-shot iterator of texts becomes a list (the corpus is read for counting and for texts)."""
    if isinstance(corpus, Iterator):
        return list(corpus)
    return corpus


def sweep(
    pipelines: Mapping[str, tuple[Tokenizer, Trainer]],
    corpus: CorpusSource,
    *,
    vocab_sizes: Sequence[int],
    texts: Texts | None = None,
    num_workers: int | None = 1,
    keep_tokenizers: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
    renyi_alpha: float = DEFAULT_RENYI_ALPHA,
    check_unreachable: bool = True,
) -> SweepResult:
    """Train each pipeline at every size in ``vocab_sizes`` on ``corpus`` and measure each result.

    ``pipelines`` maps a name to ``(untrained tokenizer, trainer)``, what the presets return
    (``toolkit.training.presets.bert(...)``...). The corpus is counted **once per distinct normalizer +
    pre-tokenizer** (two pipelines that cut text the same way share one count), then each trainer is
    copied with each vocabulary size and trained on those counts. Each trained tokenizer is measured
    like :func:`compare` on ``texts`` (default: the training corpus itself) without timing encoding;
    ``train_seconds`` is the trainer's time. ``keep_tokenizers`` keeps the trained tokenizers in
    :attr:`SweepResult.tokenizers` keyed by ``(name, requested size)``. ``progress(stage, done, total)``
    hears ``"sweep"`` with the number of tokenizers trained so far. ``renyi_alpha`` and
    ``check_unreachable`` are :func:`compare`'s: plot ``"renyi_efficiency"`` against vocabulary size
    to see where a larger vocabulary stops using its tokens evenly.

    >>> from toolkit.training.presets import gpt2_style
    >>> result = sweep({"byte-level": gpt2_style()}, ["low lower lowest newer wider"] * 20, vocab_sizes=[260, 270])
    >>> [(p.requested_vocab_size, p.metrics.vocab_size) for p in result.points]
    [(260, 260), (270, 270)]
    """
    from toolkit.training.corpus import count_words, iter_texts

    sizes = _checked_sizes(pipelines, vocab_sizes)
    alpha = check_alpha(renyi_alpha, "sweep: renyi_alpha")
    check_bool(keep_tokenizers, "sweep: keep_tokenizers")
    check_bool(check_unreachable, "sweep: check_unreachable")
    if progress is not None and not callable(progress):  # else a TypeError after the first training
        raise ConfigError(f"sweep: progress must be a function (stage, done, total), got {type(progress).__name__}")
    corpus = _reusable(corpus)
    groups = _grouped_texts(texts if texts is not None else list(iter_texts(corpus)))
    eval_texts: Texts = groups[None] if list(groups) == [None] else {str(k): v for k, v in groups.items()}
    total = len(pipelines) * len(sizes)
    counts_by_split: dict[str, Any] = {}
    counting: dict[str, float] = {}
    result = SweepResult([], counting)
    for name, (template, trainer) in pipelines.items():
        key = json.dumps([template.normalizer.to_dict() if template.normalizer else None,
                          template.pre_tokenizer.to_dict() if template.pre_tokenizer else None], sort_keys=True)
        t0 = time.perf_counter()
        if key not in counts_by_split:
            counts_by_split[key] = count_words(corpus, normalizer=template.normalizer,
                                               pre_tokenizer=template.pre_tokenizer, num_workers=num_workers)
        counting[name] = time.perf_counter() - t0
        for size in sizes:
            tok = _train_at(name, template, trainer, size, counts_by_split[key])
            measured = compare({name: tok}, eval_texts, measure_speed=False, renyi_alpha=alpha,
                               check_unreachable=check_unreachable)
            result.points.append(SweepPoint(name, size, measured.rows[0]))
            if keep_tokenizers:
                result.tokenizers[(name, size)] = tok
            if progress is not None:
                progress("sweep", len(result.points), total)
    return result


def _checked_sizes(pipelines: Any, vocab_sizes: Sequence[int]) -> list[int]:
    """``vocab_sizes`` as a list, once ``pipelines`` and the sizes are checked."""
    from toolkit.interfaces import Trainer
    from toolkit.tokenizer import Tokenizer

    if not isinstance(pipelines, Mapping) or not pipelines:
        raise ConfigError("sweep: pipelines must be a non-empty mapping of names to (tokenizer, trainer) pairs")
    for name, pair in pipelines.items():
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], Tokenizer) and isinstance(pair[1], Trainer)):
            raise ConfigError(f"sweep: {name!r} must be a (Tokenizer, Trainer) pair, e.g. toolkit.training.presets.bert()")
    if isinstance(vocab_sizes, (str, bytes)) or not isinstance(vocab_sizes, Iterable):
        hint = f" (one size: vocab_sizes=[{vocab_sizes}])" if isinstance(vocab_sizes, int) else ""
        raise ConfigError(f"sweep: vocab_sizes must be a list of positive integers, got {vocab_sizes!r:.60}{hint}")
    sizes = list(vocab_sizes)
    if not sizes or any(not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in sizes):
        raise ConfigError(f"sweep: vocab_sizes must be a non-empty list of positive integers, got {vocab_sizes!r}")
    repeated = sorted({v for v in sizes if sizes.count(v) > 1})
    if repeated:  # each size would be trained again and its results kept under the same key
        raise ConfigError(f"sweep: vocab_sizes lists {', '.join(map(str, repeated))} more than once; give each size once")
    return sizes


def _train_at(name: str, template: Tokenizer, trainer: Trainer, size: int, counts: Any) -> Tokenizer:
    """A copy of ``template`` whose model ``trainer`` trained at ``size`` on ``counts`` (time in metadata)."""
    from toolkit.tokenizer import Tokenizer

    try:
        trainer_v = _with_vocab_size(trainer, size)
        t1 = time.perf_counter()
        model = trainer_v.train(counts, model=template.model)
    except (ConfigError, TrainingError) as exc:  # e.g. a size below the alphabet: name the point
        raise type(exc)(f"sweep: {name} at vocab_size={size}: {exc}") from exc
    seconds = time.perf_counter() - t1
    tok = Tokenizer.from_dict(template.to_dict(), trusted=True)
    tok._use_trained_model(model)  # as Tokenizer.train: added tokens move past the trained vocabulary
    tok.metadata = {"training": {"stats": {"training_seconds": seconds}}}
    return tok
