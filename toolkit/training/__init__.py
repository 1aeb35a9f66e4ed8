"""Training tooling around the core: reading and counting corpora, config files, presets.

- :mod:`.reading` (sources, files, streaming), :mod:`.tasks` (counting one task), :mod:`.corpus`
  (``count_words``, ``count_corpus``: the local process pool), :mod:`.dask_backend` (Dask);
- :mod:`.config` (``TrainingConfig``, ``train_from_config``), :mod:`.config_files` (TOML/YAML/JSON files,
  ``--set`` overrides), :mod:`.results` (``TrainingResult``);
- :mod:`.presets` (``PRESETS``: ``gpt2_style``, ``chat``, ``bert``, ``bert_pipeline``).

>>> from toolkit.training.presets import gpt2_style
>>> tok, trainer = gpt2_style(vocab_size=300)
"""
