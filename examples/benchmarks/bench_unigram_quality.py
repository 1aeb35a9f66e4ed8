"""UnigramTrainer against SentencePiece's and Hugging Face's Unigram trainers on the same pre-split text.

How the three are made comparable: every line's whitespace runs become one space; each word gets a
``▁`` prefix (our Metaspace, SentencePiece's dummy prefix and whitespace escaping, HF's Metaspace);
no normalization (SentencePiece ``normalization_rule_name=identity``); every character kept
(``character_coverage=1.0``); SentencePiece without its script and number splitting rules (ours and
HF have none), without ``<s>``/``</s>``, one thread, every sentence read; ``max_piece_length`` 16.

Measured per model, with its own scores: the corpus log-likelihood of the Viterbi segmentation of
every word, bytes per token (UTF-8 bytes of the words without their ``▁``, over tokens), and the
vocabulary overlap with SentencePiece's. Times: training from the prepared input (our word counts,
SentencePiece's text file, HF's lines).

    python examples/benchmarks/bench_unigram_quality.py FILE... --vocab-size 8000 [--vocab-size 32000]

``--held-out 0.1`` trains on the first 90% of the lines and also measures both models on the last 10%.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

from algorithms import Unigram, UnigramTrainer


def words_of(paths: list[str], limit: int | None) -> tuple[list[str], collections.Counter[str]]:
    text = "".join(Path(p).read_text(encoding="utf-8-sig") for p in paths)
    if limit:
        text = text[:limit]
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    counts = collections.Counter("▁" + w for line in lines for w in line.split(" "))
    return lines, counts


def quality(vocab: list[tuple[str, float]], counts: collections.Counter[str]) -> tuple[float, float, int]:
    model = Unigram(vocab, 0)
    scores = [s for _, s in vocab]
    likelihood, tokens, size = 0.0, 0, 0
    for word, n in counts.items():
        ids = model.encode_piece(word)
        tokens += n * len(ids)
        likelihood += n * sum(scores[i] for i in ids)
        size += n * len(word[1:].encode())
    return likelihood, size / tokens, tokens


def train_ours(counts: collections.Counter[str], size: int, by_script: bool) -> tuple[list[tuple[str, float]], float]:
    start = time.perf_counter()
    model = UnigramTrainer(vocab_size=size, unk_token="<unk>", show_progress=False,
                           split_by_unicode_script=by_script).train(counts)
    return model.vocab, time.perf_counter() - start


def train_spm(lines: list[str], size: int, folder: str, by_script: bool) -> tuple[list[tuple[str, float]], float]:
    import sentencepiece as spm

    path = os.path.join(folder, "input.txt")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    start = time.perf_counter()
    spm.SentencePieceTrainer.train(
        input=path, model_prefix=os.path.join(folder, "spm"), vocab_size=size, model_type="unigram",
        character_coverage=1.0, normalization_rule_name="identity", split_by_unicode_script=by_script,
        split_by_number=by_script, max_sentencepiece_length=16, bos_id=-1, eos_id=-1, num_threads=1,
        input_sentence_size=0, max_sentence_length=1 << 20, minloglevel=2,
    )
    elapsed = time.perf_counter() - start
    proc = spm.SentencePieceProcessor(model_file=os.path.join(folder, "spm.model"))
    return [(proc.id_to_piece(i), proc.get_score(i)) for i in range(proc.get_piece_size())], elapsed


def train_hf(lines: list[str], size: int) -> float:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=size, unk_token="<unk>", show_progress=False)
    start = time.perf_counter()
    tok.train_from_iterator(lines, trainer)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--vocab-size", type=int, action="append", required=True)
    parser.add_argument("--limit", type=int, default=None, help="characters of the corpus to use")
    parser.add_argument("--no-hf", action="store_true")
    parser.add_argument("--held-out", type=float, default=0.0, help="share of the lines (the last ones) held out")
    parser.add_argument("--split-by-unicode-script", action="store_true",
                        help="both trainers keep SentencePiece's rule (spm's default; HF has none, so its times are without)")
    args = parser.parse_args()
    lines, counts = words_of(args.files, args.limit)
    held: collections.Counter[str] = collections.Counter()
    if args.held_out:
        cut = int(len(lines) * (1 - args.held_out))
        lines, rest = lines[:cut], lines[cut:]
        counts = collections.Counter("▁" + w for line in lines for w in line.split(" "))
        held = collections.Counter("▁" + w for line in rest for w in line.split(" "))
    size_mb = sum(len(line.encode()) + 1 for line in lines) / 1e6
    print(f"{size_mb:.1f} MB, {len(counts):,} distinct words, {sum(counts.values()):,} words", flush=True)
    rows = []
    for size in args.vocab_size:
        ours, t_ours = train_ours(counts, size, args.split_by_unicode_script)
        with tempfile.TemporaryDirectory() as folder:
            theirs, t_spm = train_spm(lines, size, folder, args.split_by_unicode_script)
        t_hf = None if args.no_hf else train_hf(lines, size)
        (ll_o, bpt_o, _), (ll_s, bpt_s, _) = quality(ours, counts), quality(theirs, counts)
        overlap = len({p for p, _ in ours} & {p for p, _ in theirs}) / len(theirs)
        rows.append((size, ll_o, ll_s, bpt_o, bpt_s, overlap, t_ours, t_spm, t_hf))
        print(json.dumps(rows[-1]), flush=True)
        if held:
            (hl_o, hb_o, _), (hl_s, hb_s, _) = quality(ours, held), quality(theirs, held)
            print(f"held out, {size:,}: log-lik ours {hl_o:,.0f} spm {hl_s:,.0f} ({100 * (hl_o - hl_s) / abs(hl_s):+.2f}%), "
                  f"bytes/token ours {hb_o:.3f} spm {hb_s:.3f} ({100 * (hb_o - hb_s) / hb_s:+.2f}%)", flush=True)
    print("\n| vocab | log-lik ours | log-lik spm | diff | bytes/token ours | spm | diff | overlap | ours s | spm s | HF s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for size, ll_o, ll_s, bpt_o, bpt_s, overlap, t_o, t_s, t_h in rows:
        print(
            f"| {size:,} | {ll_o:,.0f} | {ll_s:,.0f} | {100 * (ll_o - ll_s) / abs(ll_s):+.2f}% | {bpt_o:.3f} | "
            f"{bpt_s:.3f} | {100 * (bpt_o - bpt_s) / bpt_s:+.2f}% | {overlap:.1%} | {t_o:.1f} | {t_s:.1f} | "
            f"{'-' if t_h is None else f'{t_h:.1f}'} |"
        )
    print("\nCommand: `" + shlex.join([Path(sys.executable).name, *sys.argv]) + "`")


if __name__ == "__main__":
    main()
