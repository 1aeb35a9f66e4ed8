"""WordPiece quality (issue 15): bytes per token on held-out text for every criterion, HF and BPE.

For each corpus the words are counted once (``BertNormalizer(lowercase=True)`` + ``BertPreTokenizer``)
and, at each vocabulary size, on *the same counts*: our ``WordPieceTrainer`` with each ``criterion``
(``likelihood``, the default; ``score``, the course's; ``frequency``, HF's proxy) and our ``BPETrainer``
(default options); HF ``tokenizers``' ``WordPieceTrainer`` trains on the same text with its own
BERT normalizer and pre-tokenizer (the frequency vocabulary is checked identical to it). Every
vocabulary encodes the held-out text through the same pipeline; reported: UTF-8 bytes per token
(higher is better), the ``[UNK]`` rate, and training seconds (ours on the same counts).

    .venv/bin/python examples/benchmarks/bench_wordpiece_quality.py                # full grid
    .venv/bin/python examples/benchmarks/bench_wordpiece_quality.py --quick        # seconds
    .venv/bin/python examples/benchmarks/bench_wordpiece_quality.py --corpora english --sizes 8000
    ... --plot docs/img/wordpiece_criteria.png
    ... --rows run1.err run2.err --plot docs/img/wordpiece_criteria.png   # table + plot of earlier runs
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402

CRITERIA = ("likelihood", "score", "frequency")


def corpora(quick: bool) -> dict[str, tuple[str, str]]:
    """name -> (training text, held-out text)."""
    if quick or not C.have_shared():
        text = C.fallback_text()
        cut = len(text) * 4 // 5
        return {"fallback": (text[:cut], text[cut:])}
    base = str(C.CORPORA)

    def read(*parts: str) -> str:
        with open(os.path.join(base, *parts), encoding="utf-8-sig") as f:
            return f.read()

    def split(text: str) -> tuple[str, str]:  # the last tenth, cut at a line, is held out
        cut = text.rfind("\n", 0, len(text) * 9 // 10) + 1
        return text[:cut], text[cut:]

    eng = read("english", "gutenberg_part01.txt") + read("english", "gutenberg_part02.txt")
    held = read("english", "gutenberg_part03.txt")[:2_000_000]
    out = {"english": (eng, held)}
    for name, file in (("french", "french_entre_nous_pg44157-0.txt"), ("chinese", "chinese_xiyouji_pg23962-0.txt"),
                       ("thai", "thai_wisesight_sentiment_neg.txt")):
        out[name] = split(read("multilingual", file))
    return out


def pipeline() -> tuple[Any, Any]:
    from pretokenizers import BertPreTokenizer
    from toolkit.normalizers import BertNormalizer

    return BertNormalizer(lowercase=True), BertPreTokenizer()


def hf_vocab(text: str, vocab_size: int) -> tuple[dict[str, int], float]:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=C.BERT_SPECIALS, show_progress=False)
    lines = text.splitlines(keepends=True)
    t = time.perf_counter()
    tok.train_from_iterator(lines, trainer, length=len(lines))
    return tok.get_vocab(), time.perf_counter() - t


def evaluate(model: Any, held: str) -> tuple[float, float]:
    """Bytes per token and [UNK] rate of ``held`` encoded line by line (no special tokens added)."""
    from toolkit.tokenizer import Tokenizer

    norm, pre = pipeline()
    tok = Tokenizer(model, normalizer=norm, pre_tokenizer=pre)
    unk = model.token_to_id("[UNK]")
    n = n_unk = 0
    for line in held.splitlines(keepends=True):
        ids = tok.encode_ids(line, add_special_tokens=False)
        n += len(ids)
        n_unk += sum(1 for i in ids if i == unk)
    return len(held.encode("utf-8")) / max(1, n), n_unk / max(1, n)


def run_corpus(name: str, train: str, held: str, sizes: list[int]) -> list[dict[str, Any]]:
    from algorithms import BPETrainer, WordPiece, WordPieceTrainer
    from toolkit.training.corpus import count_corpus

    norm, pre = pipeline()
    counts = count_corpus(train.splitlines(keepends=True), normalizer=norm, pre_tokenizer=pre, num_workers=2).counts
    rows = []
    for size in sizes:
        row: dict[str, Any] = {"corpus": name, "size": size, "mb": len(train.encode()) / 1e6}
        for crit in CRITERIA:
            t = time.process_time()  # CPU seconds: steadier than wall time on a shared machine
            model = WordPieceTrainer(vocab_size=size, special_tokens=C.BERT_SPECIALS, criterion=crit).train(counts)
            row[f"{crit}_s"] = time.process_time() - t
            row[crit], row[f"{crit}_unk"] = evaluate(model, held)
            if crit == "frequency":
                freq_vocab = model.get_vocab()
        t = time.process_time()
        bpe = BPETrainer(vocab_size=size, special_tokens=C.BERT_SPECIALS, unk_token="[UNK]").train(counts)
        row["bpe_s"] = time.process_time() - t
        row["bpe"], row["bpe_unk"] = evaluate(bpe, held)
        try:
            vocab, row["hf_s"] = hf_vocab(train, size)
        except ImportError:
            rows.append(row)
            continue
        row["hf"], row["hf_unk"] = evaluate(WordPiece(vocab, unk_token="[UNK]"), held)
        row["identical"] = freq_vocab == vocab
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    headers = ["corpus", "vocab", "likelihood (default)", "score", "frequency", "HF WordPiece", "BPE",
               "default / HF", "[UNK] default / HF", "frequency == HF", "train CPU s: default / BPE / score",
               "default / BPE time"]
    out = []
    for r in rows:
        hf = r.get("hf")
        out.append([
            r["corpus"], f"{r['size']:,}", f"{r['likelihood']:.3f}", f"{r['score']:.3f}", f"{r['frequency']:.3f}",
            f"{hf:.3f}" if hf else "n/a", f"{r['bpe']:.3f}", f"{r['likelihood'] / hf:.3f}" if hf else "n/a",
            f"{r['likelihood_unk']:.4%} / {r['hf_unk']:.4%}" if hf else "n/a",
            {True: "yes", False: "NO"}.get(r.get("identical"), "n/a"),
            f"{r['likelihood_s']:.2f} / {r['bpe_s']:.2f} / {r['score_s']:.2f}",
            f"{r['likelihood_s'] / max(r['bpe_s'], 1e-9):.2f}x",
        ])
    print(C.md_table(headers, out))


def plot(rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted({r["corpus"] for r in rows}, key=[r["corpus"] for r in rows].index)
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.6), squeeze=False)
    series = [("likelihood", "likelihood (default)", "o-"), ("score", "course score", "s-"),
              ("frequency", "frequency", "^-"), ("hf", "HF WordPieceTrainer", "x--"), ("bpe", "BPE", "d:")]
    for ax, name in zip(axes[0], names):
        sub = [r for r in rows if r["corpus"] == name]
        for key, label, style in series:
            pts = [(r["size"], r[key]) for r in sub if r.get(key)]
            if pts:
                ax.plot(*zip(*pts), style, label=label)
        ax.set_xscale("log")
        ax.set_title(name)
        ax.set_xlabel("vocabulary size")
        ax.set_ylabel("bytes per token (held out)")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--corpora", default="english,french,chinese,thai")
    ap.add_argument("--sizes", default="8000,16000,32000")
    ap.add_argument("--plot", default=None, help="write the PNG plot here")
    ap.add_argument("--rows", nargs="+", metavar="LOG", default=None,
                    help="no training: table and plot from the rows earlier runs printed to stderr")
    args = ap.parse_args()
    if args.rows:
        import ast

        rows = [ast.literal_eval(line) for path in args.rows for line in open(path, encoding="utf-8")
                if line.startswith("{'corpus'")]
        report(rows)
        if args.plot:
            plot(rows, args.plot)
        return
    sizes = [300, 600] if args.quick else [int(s) for s in args.sizes.split(",")]
    texts = corpora(args.quick)
    wanted = list(texts) if args.quick else [c for c in args.corpora.split(",") if c in texts]
    C.header("WordPiece quality: bytes per token by criterion")
    rows = []
    for name in wanted:
        rows += run_corpus(name, *texts[name], sizes)
    report(rows)
    if args.plot:
        plot(rows, args.plot)
    C.footer()


if __name__ == "__main__":
    main()
