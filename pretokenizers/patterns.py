"""The named split patterns of OpenAI's encodings, exactly as ``tiktoken`` defines them.

Each pattern cuts text into the pieces a byte-level BPE model encodes separately. The strings are
copied character for character from ``tiktoken_ext/openai_public.py`` (tiktoken 0.14): use them with
:class:`pretokenizers.Split` (or :class:`pretokenizers.ByteLevel`, which uses :data:`GPT2_PATTERN`) to
reproduce GPT-2, GPT-3.5/4 and GPT-4o pre-tokenization. They compile with the ``regex`` module (they
need ``\\p{..}`` classes, possessive quantifiers and scoped ``(?i:...)``), which tiktoken itself uses
for its pure-Python split path.

>>> import regex
>>> regex.findall(GPT2_PATTERN, "Hello world's 123!!")
['Hello', ' world', "'s", ' 123', '!!']
>>> regex.findall(CL100K_PATTERN, "Hello world's 12345!!")
['Hello', ' world', "'s", ' ', '123', '45', '!!']
"""

from __future__ import annotations

__all__ = [
    "GPT2_PATTERN",
    "CL100K_PATTERN",
    "O200K_PATTERN",
    "LLAMA3_PATTERN",
    "HF_GPT2_PATTERN",
    "CHAT_PATTERN",
    "NAMED_PATTERNS",
]

#: GPT-2 / r50k_base / p50k_base (tiktoken's ``r50k_pat_str``): contractions, letter runs, digit runs,
#: other-symbol runs, each with an optional leading space; whitespace runs keep their last space for
#: the next word. Equivalent to the original GPT-2 pattern (:data:`HF_GPT2_PATTERN`), written to run
#: faster (possessive quantifiers, ``\s++$``).
GPT2_PATTERN: str = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

#: cl100k_base (GPT-3.5 / GPT-4): case-insensitive contractions, a letter run may take one leading
#: non-letter/non-digit character, digits in groups of at most 3, newlines grouped.
CL100K_PATTERN: str = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

#: o200k_base (GPT-4o): like cl100k but words split at case changes (CamelCase) and keep their
#: contraction suffix.
O200K_PATTERN: str = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

#: Llama 3 (its ``tokenizer.json``, run by HF ``tokenizers``): cl100k's pattern without possessive
#: quantifiers, newlines grouped as runs.
LLAMA3_PATTERN: str = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

#: The original GPT-2 pattern, as Hugging Face's ``ByteLevel`` pre-tokenizer writes it. It splits
#: exactly like :data:`GPT2_PATTERN` (checked by the tests); kept for reference and HF interop.
HF_GPT2_PATTERN: str = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

#: The pattern of the "chat" preset (:mod:`toolkit.training.presets`): words with their leading
#: space, groups of at most 3 digits, punctuation runs, spaces. It matches no ``_``: use it through
#: :class:`~pretokenizers.Split` (behaviour ``"isolated"``), which keeps unmatched text as pieces so
#: nothing is lost.
CHAT_PATTERN: str = r""" ?[^\W\d_]+| ?\d{1,3}| ?[^\s\w]+|\s+(?!\S)|\s+"""

#: Name → pattern, for configs and the CLI (``"gpt2"``, ``"cl100k"``, ``"o200k"``, ``"llama3"``, ``"chat"``).
NAMED_PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "llama3": LLAMA3_PATTERN,
    "chat": CHAT_PATTERN,
}
