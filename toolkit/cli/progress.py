"""Progress display of the command line: :func:`progress_bar`, the bar ``--quiet`` / ``--progress`` ask for.

The bar itself is the core's :class:`toolkit.progress.ProgressBar` (the same one library training
draws), re-exported here for the command line.
"""

from __future__ import annotations

import sys

from toolkit.progress import ProgressBar

__all__ = ["ProgressBar", "progress_bar"]


def progress_bar(*, quiet: bool = False, force: bool = False) -> ProgressBar:
    """The bar on stderr: off with ``--quiet``, on with ``--progress``, else only on a terminal."""
    return ProgressBar(sys.stderr, enabled=False if quiet else (True if force else None))
