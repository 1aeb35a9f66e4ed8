"""Pre-tokenizers: cut (normalized) text into the pieces a model encodes one by one.

Every class follows Hugging Face ``tokenizers.pre_tokenizers`` where the name is the same, keeps
offsets (each piece knows the span of text it came from) and serializes to JSON through the
component registry.

===================  ==========================================================================
:class:`ByteLevel`   GPT-2: split with :data:`GPT2_PATTERN`, spell pieces in the byte alphabet (Ġ)
:class:`Split`       literal text (a ``str``) or a ``Regex``, with a delimiter behaviour; lossless unless "removed"
:class:`Whitespace`  ``\\w+|[^\\w\\s]+``: words and symbol runs, whitespace dropped
:class:`WhitespaceSplit`  runs of non-whitespace
:class:`BertPreTokenizer`  whitespace dropped, each punctuation character alone
:class:`Punctuation`  punctuation characters as delimiters, with a behaviour
:class:`Digits`      numbers apart (runs, or each digit alone)
:class:`Metaspace`   SentencePiece style: spaces become ``▁`` and start pieces
:class:`Sequence`    several pre-tokenizers in a row
:class:`UnicodeScripts`  cut where the script changes (Latin, Han, Thai...), HF's Unicode 9.0 table
:class:`CharDelimiterSplit`  split at one character, dropped
:class:`FixedLength`  chunks of ``length`` characters
===================  ==========================================================================

The split patterns of OpenAI's encodings are :data:`GPT2_PATTERN`, :data:`CL100K_PATTERN` and
:data:`O200K_PATTERN` (exactly tiktoken's strings); give them to ``Split`` as a ``Regex`` (a ``str``
is literal text, as in Hugging Face).

>>> from pretokenizers import Split, CL100K_PATTERN
>>> from toolkit import Regex
>>> Split(Regex(CL100K_PATTERN)).split_text("I'm 12345 years old")
['I', "'m", ' ', '123', '45', ' years', ' old']
"""

__tokenizer_toolkit__ = True  # this distribution's package (checked by toolkit.registry.check_installation)

from pretokenizers.bert import BertPreTokenizer
from pretokenizers.bytelevel import ByteLevel
from pretokenizers.char_delimiter import CharDelimiterSplit
from pretokenizers.digits import Digits
from pretokenizers.fixed_length import FixedLength
from pretokenizers.metaspace import Metaspace
from pretokenizers.patterns import CHAT_PATTERN, CL100K_PATTERN, GPT2_PATTERN, HF_GPT2_PATTERN, LLAMA3_PATTERN, O200K_PATTERN
from pretokenizers.punctuation import Punctuation
from pretokenizers.sequence import Sequence
from pretokenizers.split import Split
from pretokenizers.unicode_scripts import UnicodeScripts
from pretokenizers.whitespace import Whitespace, WhitespaceSplit

__all__ = [
    "ByteLevel",
    "Split",
    "Whitespace",
    "WhitespaceSplit",
    "BertPreTokenizer",
    "Punctuation",
    "Digits",
    "Metaspace",
    "Sequence",
    "UnicodeScripts",
    "CharDelimiterSplit",
    "FixedLength",
    "GPT2_PATTERN",
    "CL100K_PATTERN",
    "O200K_PATTERN",
    "LLAMA3_PATTERN",
    "HF_GPT2_PATTERN",
    "CHAT_PATTERN",
]
