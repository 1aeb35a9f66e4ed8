"""Analysis tooling: comparison metrics and reports, sweeps over vocabulary sizes, plots, token views.

- :mod:`.metrics`: the metric definitions (:data:`METRICS`, :class:`TokenizerMetrics`) and how a text is measured;
- :mod:`.report`: :func:`compare` and :class:`ComparisonReport` with its tables;
- :mod:`.sweep`: :func:`sweep` and :class:`SweepResult`;
- :mod:`.vocabulary`: unreachable and never-used tokens; :mod:`.parallel`: the parallel sample;
- :mod:`.tables`: table rendering (text, Markdown, HTML);
- :mod:`.plots` (matplotlib) and :mod:`.visualize` (:func:`visualize`, :class:`TokenView`).

>>> from toolkit.analysis import compare
"""

from toolkit.analysis.metrics import METRICS, TokenizerMetrics
from toolkit.analysis.parallel import parallel_sample
from toolkit.analysis.report import ComparisonReport, compare
from toolkit.analysis.sweep import SweepResult, sweep
from toolkit.analysis.visualize import TokenView, visualize
from toolkit.analysis.vocabulary import UnreachableReport, unreachable_tokens

__all__ = ["compare", "sweep", "ComparisonReport", "SweepResult", "TokenizerMetrics", "METRICS", "visualize",
           "TokenView", "parallel_sample", "unreachable_tokens", "UnreachableReport"]
