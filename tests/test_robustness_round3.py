"""Reliability, round three: inputs a hostile-input review got through as raw Python errors, hangs or
unbounded memory, each as a test that failed before its fix (docs/robustness.md lists the contract).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from algorithms import BPE
from conftest import require
from pretokenizers import Whitespace
from toolkit import Tokenizer
from toolkit.analysis.vocabulary import never_used, unreachable_tokens
from toolkit.errors import ConfigError, InputTypeError
from toolkit.training.config import TrainingConfig
from toolkit.training.corpus import count_corpus
from toolkit.training.dask_backend import scheduler_problem


def _tok() -> Tokenizer:
    return Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=Whitespace())


@pytest.mark.parametrize("ids", [None, b"hi", bytearray(b"hi"), "ab", 5])
def test_the_bytes_decoders_refuse_what_is_no_sequence_of_ids(ids: object) -> None:
    tok = _tok()
    for call in (tok.decode_bytes, tok.decode_tokens_bytes, lambda x: tok.decode_bytes_batch([x])):
        with pytest.raises(InputTypeError, match="ids must be a sequence of integer ids"):
            call(ids)
    assert tok.decode_bytes((0, 1)) == tok.decode_bytes(iter([0, 1])) == b"a b"


def test_vocabulary_analyses_take_a_tokenizer_or_its_file_and_name_anything_else(tmp_path: Path) -> None:
    tok = _tok()
    path = tmp_path / "tok.json"
    tok.save(path)
    assert never_used(str(path), {2: 1}) == never_used(tok, {2: 1}) == ["a", "b"]
    assert unreachable_tokens(path).checked == unreachable_tokens(tok).checked == 3
    for call, message in ((lambda: unreachable_tokens(None), "unreachable_tokens: tokenizer must be a Tokenizer"),
                          (lambda: never_used(None, {}), "never_used: tokenizer must be a Tokenizer"),
                          (lambda: never_used(tok, None), "never_used: counts must be a mapping")):
        with pytest.raises(ConfigError, match=message):
            call()


@pytest.mark.parametrize(("option", "value"), [("pre_tokenizer", 5), ("normalizer", "NFKC")])
def test_count_corpus_names_a_component_of_the_wrong_kind(option: str, value: object) -> None:
    with pytest.raises(ConfigError, match=f"{option}: must be a"):
        count_corpus(["a b"], **{option: value})


@pytest.mark.parametrize("address", ["localhost", "tcp://localhost:abc", "http://localhost:8786", "tcp://h:99999", ""])
def test_a_dask_scheduler_address_is_checked_before_connecting(address: str, corpus_file: Path) -> None:
    assert scheduler_problem(address) is not None
    config = {"algorithm": "bpe", "corpus": {"files": [str(corpus_file)]}, "trainer": {"vocab_size": 300},
              "backend": "dask", "scheduler": address}
    with pytest.raises(ConfigError, match="is not a Dask scheduler address; write it as tcp://host:port"):
        TrainingConfig.from_dict(config)
    for good in ("tcp://10.0.0.5:8786", "localhost:8786", "tls://[::1]:1", "inproc://10.0.0.1/1/2"):
        assert scheduler_problem(good) is None


def test_a_yaml_config_that_aliases_expand_without_bound_is_refused(tmp_path: Path, corpus_file: Path) -> None:
    require("yaml")
    levels = ['  a: &a ["lol", "lol"]'] + [
        f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)
    ]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(f"algorithm: bpe\ncorpus: {{files: [{corpus_file}]}}\ntrainer: {{vocab_size: 300}}\n"
                    "metadata:\n" + "\n".join(levels) + "\n")
    with pytest.raises(ConfigError, match="expands to more than .* values through its aliases"):
        TrainingConfig.from_file(bomb)
    cycle = tmp_path / "cycle.yaml"
    cycle.write_text(f"algorithm: bpe\ncorpus: &c\n  files: [{corpus_file}]\n  x: *c\n")
    with pytest.raises(ConfigError):
        TrainingConfig.from_file(cycle)
    fine = tmp_path / "fine.yaml"  # an alias or two, as people use them, is fine
    fine.write_text(f"algorithm: bpe\ncorpus: {{files: [{corpus_file}]}}\ntrainer: {{vocab_size: 300}}\n"
                    "metadata: {a: &s [x, y], b: *s, c: *s}\n")
    assert TrainingConfig.from_file(fine).metadata == {"a": ["x", "y"], "b": ["x", "y"], "c": ["x", "y"]}
