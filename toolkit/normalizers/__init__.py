"""Normalizers: Unicode forms, case, accents, edits, BERT's cleaning, and their ``Sequence``."""

from toolkit.normalizers._all import *  # noqa: F401,F403
from toolkit.normalizers._all import __all__  # noqa: F401
from toolkit.normalizers._all import WHITESPACE, PatternReplacement, compile_pattern, parse_pattern, pattern_to_json, replace_all  # noqa: F401
