"""tokenizer-toolkit: a pure-Python, pluggable, multi-algorithm tokenizer toolkit.

The core package: the component interfaces, the :class:`Tokenizer` pipeline, :class:`Encoding`,
normalizers, post-processors, decoders, serialization and the component registry. Algorithms live in
the ``algorithms`` package and pre-tokenizers in ``pretokenizers``; both are found via the registry.
Importing ``toolkit`` checks that those two names are this toolkit's packages, not another project's
(:func:`toolkit.registry.check_installation`).

>>> from toolkit import Tokenizer
>>> from algorithms import BPE
>>> Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")])).encode("ab").tokens
['ab']
"""

from toolkit.encoding import Encoding
from toolkit.errors import (
    ConfigError,
    CorpusError,
    InputError,
    InputTypeError,
    RegistryError,
    SerializationError,
    ToolkitError,
    TrainingError,
    VocabularyError,
    VocabSizeWarning,
)
from toolkit.registry import check_installation, register
from toolkit.tokenizer import StreamDecoder, Tokenizer
from toolkit.added_tokens import AddedToken
from toolkit.normalizers.patterns import Regex  # as tokenizers.Regex: Split(Regex(...)), Replace(Regex(...))

check_installation()

__version__ = "0.1.0"

__all__ = [
    "Tokenizer",
    "Encoding",
    "StreamDecoder",
    "register",
    "ToolkitError",
    "ConfigError",
    "SerializationError",
    "RegistryError",
    "VocabularyError",
    "InputError",
    "InputTypeError",
    "TrainingError",
    "CorpusError",
    "VocabSizeWarning",
    "AddedToken",
    "Regex",
]

