"""Slow, readable reference implementations: the test oracles of every fast trainer and encoder."""
