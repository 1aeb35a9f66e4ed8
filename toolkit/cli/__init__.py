"""The command line, ``tokenizer-toolkit <command>``: argument parsing, the commands and their output.

>>> from toolkit.cli import main
>>> main(["--version"])  # doctest: +SKIP
"""

from toolkit.cli.main import ProgressBar, build_parser, main

__all__ = ["main", "build_parser", "ProgressBar"]
