"""The parallel sample: a few sentences the project wrote, aligned across languages, for parity.

This module owns :func:`parallel_sample`, the loader of ``parallel_sample.json`` (shipped in the
package): 20 everyday sentences in English, French, German, Spanish, Thai and Chinese, sentence *i*
of every language saying the same thing. It lets cross-lingual parity
(``compare(..., reference="en")``), the notebooks and the tests run offline; for real measurements
use a larger parallel corpus of your own (e.g. FLORES-200, as Petrov et al. 2023 do).

>>> sample = parallel_sample(["en", "th"])
>>> len(sample["en"]) == len(sample["th"]) == 20, sample["en"][6]
(True, 'Children learn languages faster than adults.')
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from toolkit.errors import ConfigError

__all__ = ["parallel_sample", "SAMPLE_LANGUAGES"]

#: The languages of the sample, in order: their codes and English names.
SAMPLE_LANGUAGES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "th": "Thai",
                    "zh": "Chinese (Simplified)"}


@cache
def _data() -> dict[str, Any]:
    text = resources.files("toolkit.analysis").joinpath("parallel_sample.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def parallel_sample(languages: Iterable[str] | None = None) -> dict[str, list[str]]:
    """``{language code: sentences}`` of the parallel sample (all of :data:`SAMPLE_LANGUAGES` by default).

    ``languages`` is a list of codes, or one code (``"th"``, not its letters). An unknown code is a
    :class:`~toolkit.errors.ConfigError` listing the available ones.
    """
    langs: dict[str, list[str]] = _data()["languages"]
    if isinstance(languages, str):
        languages = [languages]
    elif languages is not None and not isinstance(languages, Iterable):
        raise ConfigError(f"parallel_sample: languages must be a list of codes ({', '.join(langs)}), "
                          f"got {type(languages).__name__}")
    wanted = list(langs) if languages is None else list(languages)
    unknown = [lang for lang in wanted if lang not in langs]
    if unknown:
        raise ConfigError(f"parallel_sample: no language {', '.join(map(repr, unknown))}; "
                          f"the sample has {', '.join(langs)}")
    return {lang: list(langs[lang]) for lang in wanted}
