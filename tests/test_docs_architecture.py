"""The examples of docs/architecture.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_plugin_example_registers_a_component_with_live_options() -> None:
    from toolkit import Tokenizer
    from toolkit.interfaces import build

    (block,) = _python_blocks()
    namespace: dict[str, object] = {}
    # not "DocShout": the registry doctest registers that name in the same process
    exec(compile(block.replace('"Shout"', '"ArchitectureShout"'), str(DOC), "exec"), namespace)
    shout = namespace["Shout"](whisper=True)  # type: ignore[operator]
    assert shout.normalize_str("Hi") == "hi"
    shout.whisper = False
    assert shout.normalize_str("Hi") == "HI"
    assert build("normalizer", shout.to_dict()) == shout
    from algorithms import WordPiece

    tok = Tokenizer(WordPiece({"[UNK]": 0, "HI": 1}), normalizer=shout)
    assert Tokenizer.from_json(tok.to_json()).encode("hi").tokens == ["HI"]
