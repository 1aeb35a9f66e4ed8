"""Config files: loading (TOML, YAML, JSON), overrides, validation of every field, training, metadata.

Every example config in ``examples/configs`` trains here with a small vocabulary on a small corpus,
and the result loads and encodes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from toolkit import ConfigError, Tokenizer, TrainingError
from toolkit.training.config import TrainingConfig, apply_overrides, read_config_file, train_from_config
from toolkit.interfaces import Model, Params, Trainer
from toolkit.registry import register

from conftest import SMALL_CORPUS, require

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "configs").glob("*.toml"))

def _base(corpus: Path, **extra: Any) -> dict[str, Any]:
    return {
        "algorithm": "byte_level_bpe",
        "corpus": {"files": [str(corpus)]},
        "pre_tokenizer": {"type": "ByteLevel"},
        "trainer": {"vocab_size": 300, "special_tokens": ["<|endoftext|>"]},
        "decoder": "ByteLevel",
        **extra,
    }


# ---------------------------------------------------------------------------------------- examples
def test_there_is_one_example_config_per_use_case() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"bpe", "byte_level_bpe", "wordpiece", "gpt2_style", "bert_style", "chat"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_config_trains_loads_and_encodes(path: Path, corpus_file: Path, tmp_path: Path) -> None:
    overrides = [f'corpus.files=["{corpus_file}"]', f"output={tmp_path / 'tok.json'}"]
    if path.stem != "chat":  # the chat preset's size is part of its definition
        overrides.append("trainer.vocab_size=400")
    config = TrainingConfig.from_file(path, overrides=overrides)
    result = train_from_config(config)
    assert result.output == tmp_path / "tok.json"
    tok = Tokenizer.load(result.output)
    assert tok.vocab_size == (1024 if path.stem == "chat" else 400) or tok.vocab_size < 400
    enc = tok.encode("The quick brown fox, 12345!")
    assert enc.ids and len(enc.ids) == len(enc.offsets)
    assert result.tokens > 0 and result.bytes_per_token > 1.0
    if path.stem in ("byte_level_bpe", "gpt2_style", "chat"):
        text = "Any text: naïve 東京 🙂 snake_case"
        assert tok.decode(tok.encode_ids(text)) == text


def test_chat_preset_config_matches_the_library_preset(corpus_file: Path, tmp_path: Path) -> None:
    from toolkit.training.presets import chat

    config = TrainingConfig.from_file(ROOT / "examples/configs/chat.toml", overrides=[f'corpus.files=["{corpus_file}"]'])
    tok, trainer = config.build()
    ref_tok, ref_trainer = chat()
    assert tok.pre_tokenizer == ref_tok.pre_tokenizer and tok.decoder == ref_tok.decoder
    assert trainer == ref_trainer
    trained = train_from_config(config, write=False).tokenizer
    n = trained.vocab_size  # 1024 on a big enough corpus; this one runs out of pairs first
    assert trained.special_tokens == {"<|im_start|>": n - 2, "<|im_end|>": n - 1}


# ---------------------------------------------------------------------------------------- loading
def test_toml_yaml_and_json_give_the_same_config(tmp_path: Path, corpus_file: Path) -> None:
    data = _base(corpus_file)
    (tmp_path / "c.json").write_text(json.dumps(data))
    (tmp_path / "c.toml").write_text(
        f'algorithm = "byte_level_bpe"\ndecoder = "ByteLevel"\n[corpus]\nfiles = ["{corpus_file}"]\n'
        '[pre_tokenizer]\ntype = "ByteLevel"\n[trainer]\nvocab_size = 300\nspecial_tokens = ["<|endoftext|>"]\n'
    )
    configs = [TrainingConfig.from_file(tmp_path / "c.json"), TrainingConfig.from_file(tmp_path / "c.toml")]
    yaml = require("yaml")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(data))
    configs.append(TrainingConfig.from_file(tmp_path / "c.yaml"))
    assert configs[0] == configs[1] == configs[2]


def test_yaml_without_pyyaml_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "c.yml").write_text("algorithm: bpe\n")
    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml now raises ImportError
    with pytest.raises(ConfigError, match=r"needs PyYAML: pip install \"tokenizer-toolkit\[yaml\]\""):
        read_config_file(tmp_path / "c.yml")


@pytest.mark.parametrize(
    "name,text,message",
    [
        ("c.toml", "algorithm = \n", "invalid TOML"),
        ("c.json", "{", "invalid JSON"),
        ("c.ini", "", "unsupported config file type '.ini'"),
        ("c.json", "[1]", "must be a table/mapping"),
    ],
)
def test_unreadable_config_files(tmp_path: Path, name: str, text: str, message: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(ConfigError, match=message):
        TrainingConfig.from_file(tmp_path / name)
    with pytest.raises(ConfigError, match="no such config file"):
        TrainingConfig.from_file(tmp_path / "missing.toml")


def test_overrides_parse_toml_values_and_paths() -> None:
    data: dict[str, Any] = {"trainer": {"vocab_size": 1000}, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": "a"}]}}
    apply_overrides(
        data,
        [
            "trainer.vocab_size=500",
            'trainer.special_tokens=["<s>", "</s>"]',
            "trainer.tie_break=first_occurrence",  # not TOML: kept as a string
            "pre_tokenizer.pretokenizers.0.pattern=\\s+",
            "num_workers=2",
            "normalizer=NFKC",
            "corpus.files=data/x.txt",
        ],
    )
    assert data["trainer"] == {"vocab_size": 500, "special_tokens": ["<s>", "</s>"], "tie_break": "first_occurrence"}
    assert data["pre_tokenizer"]["pretokenizers"][0]["pattern"] == "\\s+"
    assert data["num_workers"] == 2 and data["normalizer"] == "NFKC" and data["corpus"] == {"files": "data/x.txt"}
    with pytest.raises(ConfigError, match="expected KEY=VALUE"):
        apply_overrides({}, ["novalue"])
    with pytest.raises(ConfigError, match="is not an index"):
        apply_overrides(data, ["pre_tokenizer.pretokenizers.3.pattern=x"])
    with pytest.raises(ConfigError, match="trainer.vocab_size is a int, not a table"):
        apply_overrides(data, ["trainer.vocab_size.x=1"])


def test_a_section_can_be_removed_with_none(corpus_file: Path) -> None:
    config = TrainingConfig.from_dict({**_base(corpus_file), "preset": "chat", "decoder": "none"})
    assert config.decoder is None and config.pre_tokenizer is not None


# ---------------------------------------------------------------------------------------- validation
def _error(data: Mapping[str, Any]) -> str:
    with pytest.raises(ConfigError) as info:
        TrainingConfig.from_dict(data)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_every_bad_field_is_listed_with_its_path(corpus_file: Path, tmp_path: Path) -> None:
    data = _base(corpus_file)
    data["trainer"] = {"vocab_size": 100, "special_tokens": ["<|endoftext|>"]}
    data["pre_tokenizer"] = {"type": "Split", "pattern": {"Regex": "(unclosed"}, "behavior": "isolated"}
    data["corpus"] = {"files": [str(corpus_file), str(tmp_path / "missing.txt")], "errors": "ignore"}
    data["normalizer"] = {"type": "Lowercase", "shout": True}
    data["num_workers"] = 0
    data["colour"] = "blue"
    message = _error(data)
    for fragment in (
        "corpus.errors:",
        "num_workers:",
        "colour: unknown field",
    ):
        assert fragment in message
    # The schema errors stop before the components are built; fix them and the rest is reported.
    data["corpus"]["errors"] = "strict"
    del data["num_workers"], data["colour"]
    message = _error(data)
    assert "trainer.vocab_size: 100 is too small" in message and "at least 257" in message
    assert "pre_tokenizer" in message and "(unclosed" in message
    assert "normalizer.shout: unknown option" in message
    assert "corpus.files[1]: corpus file" in message and "missing.txt does not exist" in message


def test_a_boolean_is_no_number_of_workers(corpus_file: Path) -> None:
    # pydantic reads ``true`` as 1 for an int field: ``num_workers = true`` would count in one process.
    for value in (True, False):
        assert f"num_workers: expected a number of processes, got {str(value).lower()}" in _error(
            {**_base(corpus_file), "num_workers": value})


def test_unknown_algorithm_lists_the_known_ones(corpus_file: Path) -> None:
    message = _error({**_base(corpus_file), "algorithm": "sentencepiece"})
    assert "algorithm: unknown algorithm 'sentencepiece' (did you mean 'sentencepiecebpe'?)" in message
    assert "; known: BPE, ByteLevelBPE, " in message and "Unigram, WordLevel, WordPiece" in message
    assert "WordPiece (case, '_' and '-' are ignored)" in message


def test_unknown_component_types_name_the_section(corpus_file: Path) -> None:
    message = _error({**_base(corpus_file), "decoder": {"type": "Nope"}})
    assert "decoder.type: unknown decoder type 'Nope'" in message


def test_an_unknown_model_type_is_reported_alone(corpus_file: Path) -> None:
    data = {k: v for k, v in _base(corpus_file).items() if k != "algorithm"}
    message = _error({**data, "model": {"type": "bpe"}})
    assert "model.type: unknown model type 'bpe' (did you mean 'BPE'?)" in message
    assert "trainer" not in message  # not also "no trainer is registered as 'bpeTrainer'"


def test_model_and_algorithm_must_agree(corpus_file: Path) -> None:
    message = _error({**_base(corpus_file), "model": {"type": "WordPiece"}})
    assert "algorithm: 'byte_level_bpe' selects model type 'ByteLevelBPE' but model.type is 'WordPiece'" in message
    message = _error({k: v for k, v in _base(corpus_file).items() if k != "algorithm"})
    assert "model.type: required field is missing" in message


def test_a_trainer_that_does_not_fit_the_pipeline_is_caught_before_counting(corpus_file: Path) -> None:
    # Byte-level BPE needs byte-level pieces: without the ByteLevel pre-tokenizer training would fail.
    message = _error({**_base(corpus_file), "pre_tokenizer": None})
    assert message.count("trainer:") == 1 and "ByteLevel pre-tokenizer" in message
    assert "found by a trial run on the text 'a b', before the corpus is read" in message  # not the user's 'a b'
    message = _error({**_base(corpus_file), "trainer": {"type": "WordPieceTrainer"}})
    assert "trainer: WordPieceTrainer trains WordPiece models; the tokenizer's model is a ByteLevelBPE" in message
    message = _error({**_base(corpus_file), "algorithm": "bpe", "trainer": {"type": "ByteLevelBPETrainer"}})
    assert "trainer: ByteLevelBPETrainer trains ByteLevelBPE models; the tokenizer's model is a BPE" in message


def test_corpus_needs_files(corpus_file: Path) -> None:
    assert "corpus.files: required" in _error({**_base(corpus_file), "corpus": {}})
    assert "corpus: required field is missing" in _error({k: v for k, v in _base(corpus_file).items() if k != "corpus"})


def test_output_must_not_be_a_directory(corpus_file: Path, tmp_path: Path) -> None:
    assert "output:" in _error({**_base(corpus_file), "output": str(tmp_path)})


def test_training_never_writes_over_its_inputs(corpus_file: Path, tmp_path: Path) -> None:
    """The output may not be a corpus file or the config file (through another spelling of the path
    either): checked before any text is read, and the input is left as it was."""
    config_path = tmp_path / "train.json"
    config_path.write_text(json.dumps(_base(corpus_file)), encoding="utf-8")
    config = TrainingConfig.from_file(config_path)
    before = corpus_file.read_bytes()
    for target, kind in [(corpus_file, "a corpus file"), (tmp_path / "x" / ".." / "corpus.txt", "a corpus file"),
                         (config_path, "the config file")]:
        with pytest.raises(ConfigError, match=f"output: .* is {kind} of this training .* give another output path"):
            train_from_config(config, output=target)
    assert corpus_file.read_bytes() == before and json.loads(config_path.read_text())["algorithm"] == "byte_level_bpe"
    assert "output: the path holds a NUL character" in _error({**_base(corpus_file), "output": "a\0b.json"})
    with pytest.raises(ConfigError, match="NUL character"):
        train_from_config(config, output=str(tmp_path / "a\0b.json"))


def test_an_empty_unknown_token_is_refused_before_training(corpus_file: Path) -> None:
    """A BPE whose unk_token is "" would be trained and saved with "" as a token, which loading refuses."""
    data = {"algorithm": "bpe", "corpus": {"files": [str(corpus_file)]}, "model": {"unk_token": ""},
            "trainer": {"vocab_size": 60}}
    assert "model.unk_token: String should have at least 1 character" in _error(data)


def test_metadata_that_json_cannot_hold_is_refused_before_training(corpus_file: Path) -> None:
    import datetime

    assert "metadata: Object of type date is not JSON serializable" in _error({**_base(corpus_file), "metadata": {"when": datetime.date(2020, 1, 1)}})
    assert "metadata: Out of range float values" in _error({**_base(corpus_file), "metadata": {"x": float("nan")}})


@pytest.mark.skipif(sys.platform != "linux", reason="needs a file system that takes any bytes as a name")
def test_a_corpus_file_whose_name_is_not_utf8_is_recorded_with_escapes(tmp_path: Path) -> None:
    folder = tmp_path / "latin"
    folder.mkdir()
    (folder / "caf\udce9.txt").write_text(SMALL_CORPUS, encoding="utf-8")  # the file name's byte is 0xE9
    result = train_from_config(TrainingConfig.from_dict(_base(folder)), output=tmp_path / "out.json")
    paths = [f["path"] for f in Tokenizer.load(tmp_path / "out.json").metadata["training"]["corpus"]["files"]]
    assert paths == [str(folder / "caf\\xe9.txt")] and result.output == tmp_path / "out.json"


def test_presets_are_found_in_toolkit_presets(corpus_file: Path) -> None:
    assert "preset: unknown preset 'nope'; known:" in _error({**_base(corpus_file), "preset": "nope"})
    config = TrainingConfig.from_dict({"preset": "gpt2_style", "corpus": {"files": [str(corpus_file)]}, "trainer": {"vocab_size": 300}})
    assert config.model["type"] == "ByteLevelBPE" and config.trainer["vocab_size"] == 300
    assert config.trainer["special_tokens"] == ["<|endoftext|>"]  # kept from the preset


@pytest.mark.parametrize("name", ["gpt2_style", "chat", "bert", "bert_pipeline"])
def test_every_preset_of_the_table_trains_from_a_config(name: str, corpus_file: Path) -> None:
    from toolkit.training.presets import PRESETS

    assert name in PRESETS
    size = 1024 if name == "chat" else 300
    config = TrainingConfig.from_dict({"preset": name, "corpus": {"files": [str(corpus_file)]}, "trainer": {"vocab_size": size}})
    tok = train_from_config(config).tokenizer
    assert 0 < tok.vocab_size <= size
    enc = tok.encode("The quick brown fox", "jumps")
    if name.startswith("bert"):  # the post-processor's [CLS]/[SEP] ids are those the trainer gave them
        assert (enc.tokens[0], enc.ids[0]) == ("[CLS]", tok.token_to_id("[CLS]")) and enc.tokens[-1] == "[SEP]"


def test_a_preset_that_builds_something_else_is_a_config_error(corpus_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit.training import presets

    monkeypatch.setitem(presets.PRESETS, "broken", lambda: "not a pipeline")
    assert "preset: 'broken' built str; a preset builds a Tokenizer or a (Tokenizer, Trainer) pair" in _error(
        {**_base(corpus_file), "preset": "broken"}
    )


# ---------------------------------------------------------------------------------------- plugins
@register("ConfigTestCharModel")
class CharModel(Model):
    """A plugin model: one id per character; proves configs use the registry, not a fixed list."""

    class Params(Params):
        pass

    def __init__(self, vocab: dict[str, int] | None = None) -> None:
        super().__init__()
        self.vocab = dict(vocab or {})
        self.inverse = {i: t for t, i in self.vocab.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name, "vocab": self.vocab}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> CharModel:
        return cls(data.get("vocab"))

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        return [(self.vocab[c], i, i + 1) for i, c in enumerate(piece)]

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        return tuple(self.vocab[c] for c in piece)

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        return self.inverse.get(token_id)


@register("ConfigTestCharModelTrainer")
class CharTrainer(Trainer):
    class Params(Params):
        vocab_size: int = 10

    def __init__(self, *, vocab_size: int = 10) -> None:
        self.vocab_size = vocab_size

    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> CharModel:
        chars = sorted({c for w in word_counts for c in w})
        return CharModel({c: i for i, c in enumerate(chars)})


def test_plugin_algorithms_work_in_configs(corpus_file: Path) -> None:
    config = TrainingConfig.from_dict(
        {"algorithm": "config_test_char_model", "corpus": {"files": [str(corpus_file)]}, "pre_tokenizer": "Whitespace"}
    )
    assert config.trainer["type"] == "ConfigTestCharModelTrainer"
    tok = train_from_config(config, write=False).tokenizer
    assert tok.encode("fox").tokens == ["f", "o", "x"]


def test_a_plugin_trainer_that_makes_another_model_type_is_caught_before_counting(corpus_file: Path) -> None:
    # The built-in trainers refuse a model of another type; a plugin's may not check.
    message = _error({**_base(corpus_file), "algorithm": "bpe", "trainer": {"type": "ConfigTestCharModelTrainer"}})
    assert "trainer: ConfigTestCharModelTrainer trains ConfigTestCharModel models, but model.type is BPE; make them match" in message


# ---------------------------------------------------------------------------------------- training
def test_metadata_records_the_effective_config_and_the_corpus_fingerprint(corpus_file: Path, tmp_path: Path) -> None:
    config = TrainingConfig.from_dict({**_base(corpus_file), "metadata": {"owner": "tests"}})
    result = train_from_config(config, output=tmp_path / "t.json")
    meta = Tokenizer.load(tmp_path / "t.json").metadata
    assert meta["owner"] == "tests"
    training = meta["training"]
    digest = hashlib.sha256(corpus_file.read_bytes()).hexdigest()
    assert training["corpus"]["files"] == [{"path": str(corpus_file), "bytes": len(SMALL_CORPUS.encode()), "sha256": digest}]
    effective = training["config"]
    assert effective["trainer"]["type"] == "ByteLevelBPETrainer" and effective["trainer"]["tie_break"] == "ids"
    assert effective["pre_tokenizer"] == {"type": "ByteLevel", "add_prefix_space": True, "use_regex": True, "trim_offsets": True}
    assert training["stats"]["tokens"] == result.tokens
    # The recorded config trains the same tokenizer again.
    again = train_from_config(TrainingConfig.from_dict(effective), write=False).tokenizer
    assert again.get_vocab() == result.tokenizer.get_vocab()


def test_bytes_per_token_is_measured_on_the_training_corpus(corpus_file: Path) -> None:
    result = train_from_config(TrainingConfig.from_dict(_base(corpus_file)), write=False)
    tok = result.tokenizer
    lines = SMALL_CORPUS.splitlines(keepends=True)
    assert result.tokens == sum(len(tok.encode_ids(line)) for line in lines)
    assert result.corpus_bytes == len(SMALL_CORPUS.encode("utf-8"))
    assert "bytes/token" in result.summary() and "vocab 300" in result.summary()


def test_gzip_and_jsonl_corpora_train(tmp_path: Path) -> None:
    import gzip

    gz = tmp_path / "c.txt.gz"
    gz.write_bytes(gzip.compress(SMALL_CORPUS.encode()))
    jl = tmp_path / "c.jsonl"
    jl.write_text("".join(json.dumps({"body": line}) + "\n" for line in SMALL_CORPUS.splitlines()))
    for files, extra in (([str(gz)], {}), ([str(jl)], {"field": "body"})):
        config = TrainingConfig.from_dict(
            {"algorithm": "wordpiece", "corpus": {"files": files, **extra}, "pre_tokenizer": "BertPreTokenizer",
             "trainer": {"vocab_size": 120}}
        )
        tok = train_from_config(config, write=False).tokenizer
        assert tok.vocab_size == 120 and tok.encode("the fox").tokens


def test_a_failed_run_leaves_the_previous_file_untouched(corpus_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    out.write_text("previous")
    data = {
        "algorithm": "wordpiece", "corpus": {"files": [str(corpus_file)]}, "pre_tokenizer": "BertPreTokenizer",
        "trainer": {"vocab_size": 120}, "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 2]},
    }
    with pytest.raises(ConfigError, match=r"post_processor: adds '\[SEP\]' with id 102, but the trained vocabulary has it at id 3"):
        train_from_config(TrainingConfig.from_dict(data), output=out)
    assert out.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt", "t.json"]  # no temporary file left


def test_parallel_training_gives_the_same_tokenizer(corpus_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit.training import corpus as corpus_mod
    from toolkit.training import tasks

    monkeypatch.setattr(tasks, "_MIN_CHUNK", 1000)
    monkeypatch.setattr(corpus_mod, "_PARALLEL_THRESHOLD", 0)
    one = train_from_config(TrainingConfig.from_dict({**_base(corpus_file), "num_workers": 1}), write=False)
    two = train_from_config(TrainingConfig.from_dict({**_base(corpus_file), "num_workers": 2}), write=False)
    assert two.workers == 2
    assert one.tokenizer.model.merges == two.tokenizer.model.merges


def test_progress_hears_counting_and_training(corpus_file: Path) -> None:
    stages: list[str] = []
    train_from_config(TrainingConfig.from_dict(_base(corpus_file)), write=False, progress=lambda s, d, t: stages.append(s))
    assert stages[0] == "counting" and len(set(stages)) >= 2


def test_dask_backend_fields_are_validated(corpus_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.training.config as config_mod

    assert 'scheduler: only used with backend = "dask"' in _error({**_base(corpus_file), "scheduler": "tcp://x:8786"})
    assert "backend:" in _error({**_base(corpus_file), "backend": "spark"})
    monkeypatch.setattr(config_mod, "_dask_available", lambda: False)
    assert 'backend: "dask" needs Dask distributed: pip install "tokenizer-toolkit[dask]"' in _error(
        {**_base(corpus_file), "backend": "dask"}
    )


def test_overrides_reach_into_a_presets_components(corpus_file: Path) -> None:
    config = TrainingConfig.from_file(
        ROOT / "examples/configs/chat.toml",
        overrides=[f'corpus.files=["{corpus_file}"]', "pre_tokenizer.pretokenizers.0.pattern.Regex=\\w+|\\s+", "trainer.vocab_size=300"],
    )
    assert config.pre_tokenizer["pretokenizers"][0]["pattern"] == {"Regex": "\\w+|\\s+"}
    assert config.trainer["vocab_size"] == 300 and config.trainer["special_tokens"] == ["<|im_start|>", "<|im_end|>"]
    assert TrainingConfig.from_dict({"corpus": {"files": [str(corpus_file)]}}, overrides=["preset=chat"]).model["type"] == "ByteLevelBPE"


@pytest.mark.parametrize("content, said", [
    ("", "held 0 document(s) and no text: check the corpus paths"),
    ("   \n", "held 1 document(s), 4 bytes: the normalizer and pre-tokenizer leave nothing of it"),
])
def test_an_empty_corpus_is_named_with_what_it_held(tmp_path: Path, content: str, said: str) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(content, encoding="utf-8")
    data = {"algorithm": "wordpiece", "corpus": {"files": [str(corpus)]}, "pre_tokenizer": "Whitespace",
            "trainer": {"vocab_size": 100}, "output": str(tmp_path / "out.json")}
    with pytest.raises(TrainingError) as info:
        train_from_config(TrainingConfig.from_dict(data))
    assert str(info.value).startswith(f"cannot train on an empty corpus: the corpus files ({corpus}) {said}")
    assert not (tmp_path / "out.json").exists()
