"""The `make demo` job: train BPE, byte-level BPE, WordPiece, Unigram and WordLevel from `examples/configs`,
compare them.

The corpus is the Python reference documentation bundled with Python itself (``pydoc_data.topics``,
about 0.5 MB), written to ``out/corpus/`` first: every 10th topic is held out for the comparison.
Each algorithm is trained with the command line (``tokenizer-toolkit train examples/configs/<x>.toml``,
called in-process here), saved to ``out/``, reloaded, and compared side by side.

    python examples/demo.py                  # write the corpus, train the five, compare
    python examples/demo.py --write-corpus   # only write out/corpus/ in the current folder (to run the CLI by hand)
    python examples/demo.py --vocab-size 500 # smaller vocabularies, faster
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path("out/corpus/pydoc_topics.txt")  # the path the example configs name
HELD_OUT = Path("out/corpus/pydoc_topics_heldout.txt")
CONFIGS = {
    "BPE": "examples/configs/bpe.toml",
    "byte-level BPE": "examples/configs/byte_level_bpe.toml",
    "WordPiece": "examples/configs/wordpiece.toml",
    "Unigram": "examples/configs/unigram.toml",
    "WordLevel": "examples/configs/word_level.toml",
}
SAMPLES = [
    "Tokenizers split text into subword units: tokenization isn't magic!",
    "The with statement calls __enter__() and __exit__() — naïvely, café 東京 🙂",
]


def write_corpus() -> tuple[Path, Path]:
    """Write the training and held-out text of ``pydoc_data.topics`` (every 10th topic held out)."""
    from pydoc_data.topics import topics

    from toolkit.serialization import atomic_write_text

    train, held = [], []
    for i, key in enumerate(sorted(topics)):
        (held if i % 10 == 0 else train).append(topics[key].rstrip("\n") + "\n")
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(CORPUS, "".join(train))
    atomic_write_text(HELD_OUT, "".join(held))
    return CORPUS, HELD_OUT


def lossy_causes(tok, lines: list[str]) -> str:  # noqa: ANN001 - a Tokenizer
    """Why ``decode(encode(line)) != line``, counted over the lines: each line is put under the first
    cause that explains it (a leading space the decoder drops, the normalizer's rewriting, the rest)."""
    lost = [line for line in lines if tok.decode(tok.encode_ids(line)) != line]
    lead = [line for line in lost if line.startswith(" ") and tok.decode(tok.encode_ids(line)) == line[1:]]
    normalizer = tok.normalizer
    rewritten = [line for line in lost if line not in lead and normalizer is not None
                 and normalizer.normalize_str(line) != line]
    parts = [f"{len(lost):,} of {len(lines):,} held-out lines do not round-trip on their own"]
    if lead:
        parts.append(f"{len(lead):,} start with a space, which the {type(tok.decoder).__name__} decoder drops "
                     "with the ▁ it takes for the one the pre-tokenizer prepends")
    if rewritten:
        kind = type(normalizer).__name__
        how = {"NFKC": " (… becomes ...)", "BertNormalizer": " (lowercased, accents stripped)"}.get(kind, "")
        parts.append(f"{len(rewritten):,} are rewritten by the {kind} normalizer{how}")
    other = len(lost) - len(lead) - len(rewritten)
    if other:
        parts.append(f"{other:,} lose spaces the pre-tokenizer drops or text that became [UNK]")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-corpus", action="store_true", help="only write out/corpus/ and exit")
    parser.add_argument("--vocab-size", type=int, default=None, help="override trainer.vocab_size of every config")
    args = parser.parse_args(argv)
    if not args.write_corpus:  # --write-corpus writes out/corpus/ in the current folder, where the CLI will run
        os.chdir(ROOT)  # the configs' paths are relative to the repository root
    sys.path.insert(0, str(ROOT))

    from toolkit import Tokenizer
    from toolkit.cli import main as cli

    corpus, held_out = write_corpus()
    held_text = held_out.read_text(encoding="utf-8")
    print(f"corpus: pydoc_data.topics -> {corpus} ({corpus.stat().st_size:,} bytes), "
          f"held out -> {held_out} ({held_out.stat().st_size:,} bytes)")
    if args.write_corpus:
        return 0

    rows = []
    tokenizers: dict[str, Tokenizer] = {}
    for name, config in CONFIGS.items():
        print(f"\n$ tokenizer-toolkit train {config}")
        extra = ["--set", f"trainer.vocab_size={args.vocab_size}"] if args.vocab_size else []
        t0 = time.perf_counter()
        code = cli(["train", config, *extra])
        seconds = time.perf_counter() - t0
        if code != 0:
            return code
        tok = Tokenizer.load(Path("out") / Path(config).with_suffix(".json").name)
        tokenizers[name] = tok
        ids = tok.encode_ids(held_text)
        unk_token = getattr(tok.model, "unk_token", None)  # [UNK], Unigram's <unk>; byte-level BPE has none
        unk = tok.token_to_id(unk_token) if unk_token else None
        unk_share = ids.count(unk) / len(ids) if unk is not None and ids else 0.0
        exact = tok.decode(tok.encode_ids(held_text)) == held_text
        rows.append((name, tok.vocab_size, seconds, len(ids), len(held_text.encode()) / len(ids), unk_share, exact))

    print("\nHeld-out text (every 10th pydoc topic):")
    # "command s" is the whole `train` command (reading the config, saving the file) where the line the
    # command prints times the counting and the training only
    print(f"{'algorithm':<16}{'vocab':>7}{'command s':>11}{'tokens':>9}{'bytes/token':>13}{'unknown':>9}  round trip")
    for name, vocab, seconds, n, bpt, unk_share, exact in rows:
        print(f"{name:<16}{vocab:>7,}{seconds:>11.1f}{n:>9,}{bpt:>13.2f}{unk_share:>9.1%}  {'exact' if exact else 'lossy'}")
    for sample in SAMPLES:
        print(f"\n{sample!r}")
        for name, tok in tokenizers.items():
            tokens = tok.encode(sample).tokens
            print(f"  {name:<15}{len(tokens):>3}  {' '.join(tokens)}")
    lines = held_text.splitlines(keepends=True)
    for (name, *_, exact) in rows:
        if not exact:
            print(f"\n(lossy, {name}: {lossy_causes(tokenizers[name], lines)})")
    print("(WordPiece merges by criterion=\"likelihood\", the default: the pair whose merge most raises the training text's "
          "unigram log-likelihood)")
    print("Next: .venv/bin/tokenizer-toolkit inspect out/wordpiece.json")
    print("      .venv/bin/tokenizer-toolkit encode out/byte_level_bpe.json 'Hello world' --format tokens")
    return 0


if __name__ == "__main__":
    sys.exit(main())
