"""Training tooling around the core: reading and counting corpora, config files, presets.

>>> from toolkit.training.presets import gpt2_style
>>> tok, trainer = gpt2_style(vocab_size=300)
"""
