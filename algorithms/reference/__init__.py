"""Slow, readable reference implementations: the test oracles of the BPE (byte-level included), WordPiece
and Unigram trainers and encoders (WordLevel has no fast path to check)."""
