"""Analysis tooling: comparison metrics and reports, sweeps over vocabulary sizes, plots, token views.

>>> from toolkit.analysis import compare
"""

from toolkit.analysis.metrics import METRICS, ComparisonReport, SweepResult, TokenizerMetrics, compare, sweep
from toolkit.analysis.visualize import TokenView, visualize

__all__ = ["compare", "sweep", "ComparisonReport", "SweepResult", "TokenizerMetrics", "METRICS", "visualize", "TokenView"]
