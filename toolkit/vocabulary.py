"""The vocabulary side of :class:`~toolkit.Tokenizer`: the model's tokens plus the added ones.

This module owns what the pipeline exposes about tokens (HF ``tokenizers`` and tiktoken names):
``add_tokens`` / ``add_special_tokens``, ``get_vocab(with_added_tokens=)``, ``get_vocab_size``,
``n_vocab``, the id look-ups, the checks of ``allowed_special`` / ``disallowed_special`` and the
cutter (:class:`toolkit.added_tokens.Cutter`) an encode call uses. The matching rules themselves are
in :mod:`toolkit.added_tokens`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal

import regex

from toolkit import options
from toolkit.added_tokens import AddedToken, AddedVocabulary, Cutter, as_added_token, check_added_ids, implied_tokens
from toolkit.arguments import as_index
from toolkit.cache import BoundedCache
from toolkit.errors import ConfigError, InputError, InputTypeError
from toolkit.interfaces import Model

__all__ = ["AllowedSpecial", "VocabularyMixin"]

#: ``"all"``, a collection of special-token strings, or ``None`` / empty: none (the same in every encode method).
AllowedSpecial = Literal["all"] | Iterable[str] | None


class VocabularyMixin:
    """Token look-ups and added tokens of a pipeline (mixed into :class:`~toolkit.Tokenizer`)."""

    model: Model
    normalizer: Any
    _added: AddedVocabulary
    _special_patterns: Any

    # ------------------------------------------------------------------ added tokens
    def add_tokens(self, tokens: Iterable[str | AddedToken] | str | AddedToken) -> int:
        """Add tokens matched in any text (HF ``add_tokens``); return how many were added.

        A ``str`` becomes ``AddedToken(content)`` (``normalized=True``); an empty one is skipped, as in
        HF. A token the vocabulary already has keeps its id; a new one gets the next id after the model's
        vocabulary.

        >>> from algorithms import BPE
        >>> from pretokenizers import Whitespace
        >>> from toolkit import Tokenizer
        >>> tok = Tokenizer(BPE(vocab={"a": 0, "b": 1}, merges=[]), pre_tokenizer=Whitespace())
        >>> tok.add_tokens(["<tool>", AddedToken("ab", single_word=True)])
        2
        >>> tok.encode("a<tool>b ab").tokens
        ['a', '<tool>', 'b', 'ab']
        """
        return self._add(tokens, special=False)

    def add_special_tokens(self, tokens: Iterable[str | AddedToken] | str | AddedToken) -> int:
        """Add special tokens (HF ``add_special_tokens``; every token is marked ``special``): matched
        only when ``allowed_special`` names them, skipped by ``decode`` by default."""
        return self._add(tokens, special=True)

    def _add(self, tokens: Any, *, special: bool) -> int:
        items = [tokens] if isinstance(tokens, (str, AddedToken)) else tokens
        if not isinstance(items, Iterable):
            raise ConfigError(f"tokens must be a list of str or AddedToken, got {type(tokens).__name__}")
        converted = [as_added_token(t, special=special) for t in items]
        count = self._added.add(converted, **self._id_rule())
        self._renew_patterns()
        return count

    def _id_rule(self) -> dict[str, Any]:
        """How :meth:`AddedVocabulary.add` numbers new tokens for the current model: the model's id of a
        token it holds, else the next id after its vocabulary."""
        model = self.model
        return {"model_size": self._model_size(), "lookup": model.token_to_id, "implied": model.special_tokens}

    def _model_size(self) -> int:
        """How many ids the model's vocabulary spans (its largest id + 1, at least its size). Kept per
        model and option generation, apart from :meth:`_derived`'s cache, which adding a token renews:
        else adding tokens one at a time would read the whole vocabulary each time."""
        model, generation = self.model, options.generation()
        found = self.__dict__.get("_model_size_of")
        if found is None or found[0] is not model or found[1] != generation:
            vocab_ids = model.get_vocab().values()
            found = (model, generation, max(len(vocab_ids), max(vocab_ids, default=-1) + 1))
            self.__dict__["_model_size_of"] = found
        return found[2]  # type: ignore[no-any-return]

    def _renumber_added_tokens(self) -> None:
        """Give the added tokens ids that agree with a new model (after training), in their order, as
        adding them to it would: the ids they had may now be the model's own tokens'."""
        if len(self._added):
            tokens = [token for _, token in sorted(self._added.decoder.items())]
            self._added = AddedVocabulary()
            self._added.add(tokens, **self._id_rule())  # (the caller renews the patterns)

    def get_added_tokens_decoder(self) -> dict[int, AddedToken]:
        """id → :class:`AddedToken` of every added token, the model's special tokens included (HF's
        flags for them: ``special=True, normalized=False``)."""
        out = implied_tokens(self.model.special_tokens)
        out.update(self._added.decoder)
        return dict(sorted(out.items()))

    def _put_added_tokens(self, entries: list[tuple[int, AddedToken]], *, source: str) -> None:
        """Store added tokens with their ids as a file lists them, after checking those ids against the
        model's vocabulary (:func:`~toolkit.added_tokens.check_added_ids`)."""
        check_added_ids(entries, self.model, source=source)
        for token_id, token in entries:
            self._added.put(token, token_id)
        self._renew_patterns()

    def _added_tokens_json(self) -> list[dict[str, Any]]:
        return [{"id": i, **t.to_dict()} for i, t in self._added.decoder.items()]

    # ------------------------------------------------------------------ vocabulary
    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]:
        """Token string → id (HF default: added tokens included; the model's own special tokens are
        part of its vocabulary either way)."""
        vocab = self.model.get_vocab()
        if with_added_tokens and len(self._added):
            vocab.update(self._added.get_vocab())
        return vocab

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        """The number of tokens (HF's name and default)."""
        if not with_added_tokens or not len(self._added):
            return self.model.vocab_size
        # the count merges the whole vocabulary
        return self._derived("size", lambda: len(self.get_vocab(with_added_tokens=True)), self.model)  # type: ignore[no-any-return]

    @property
    def vocab_size(self) -> int:
        """Number of tokens in the vocabulary, special and added tokens included."""
        return self.get_vocab_size()

    @property
    def n_vocab(self) -> int:
        """tiktoken's ``n_vocab``: the largest id + 1."""
        return max(self.get_vocab().values(), default=-1) + 1

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token`` or ``None`` (added tokens first, as HF)."""
        if not isinstance(token, str):
            raise InputTypeError(f"token must be a str, got {type(token).__name__} {token!r:.60}")
        found = self._added.token_to_id(token)
        return self.model.token_to_id(token) if found is None else found

    def id_to_token(self, token_id: int) -> str | None:
        """The token string of ``token_id`` or ``None``."""
        index = as_index(token_id)
        if index is None:
            raise InputTypeError(f"token_id must be an int, got {type(token_id).__name__} {token_id!r:.60}")
        found = self._added_strings().get(index)
        return self.model.id_to_token(index) if found is None else found

    def _added_strings(self) -> dict[int, str]:
        """id → the string an added token decodes to: its content, normalized when it is matched on
        normalized text (HF's ``id_to_token``)."""
        normalizer = self.normalizer
        return self._derived("strings", lambda: {  # type: ignore[no-any-return]
            i: normalizer.normalize_str(t.content) if t.normalized and normalizer is not None else t.content
            for i, t in self._added.decoder.items()
        }, normalizer)

    def _derived(self, key: str, build: Callable[[], Any], *sources: Any) -> Any:
        """``build()``, kept under ``key`` until a token is added (:meth:`_renew_patterns`), an option
        changes, or one of the components ``sources`` it reads is replaced."""
        patterns = self._special_patterns  # read once (see _renew_patterns)
        generation = options.generation()
        found = patterns.get(key)
        if found is not None and found[0] == generation and all(map(operator.is_, found[1], sources)):
            return found[2]
        value = build()
        patterns.put(key, (generation, sources, value))
        return value

    def _token_table(self) -> list[str | None]:
        """``table[id]``: the string ``decode`` gives id ``id`` (an added token's first, as
        :func:`~toolkit.arguments.ids_to_tokens` looks them up), ``None`` for an id that names nothing.
        Empty when the ids are too sparse to list."""
        model = self.model

        def build() -> list[str | None]:
            added = self._added_strings() if len(self._added) else {}
            top = max(self._model_size(), max(added, default=-1) + 1)
            if top > 2 * (model.vocab_size + len(added)) + 1024:  # a list as long as the largest id: dense ids only
                return []
            table = [*map(model.id_to_token, range(top))]
            for i, s in added.items():
                table[i] = s
            return table

        return self._derived("table", build, model, self.normalizer)  # type: ignore[no-any-return]

    def _literal_ids(self) -> frozenset[int]:
        """The ids whose token stands for its own text rather than for bytes in a byte-level pipeline
        (tiktoken's rule): special tokens, and added tokens the model does not hold."""
        model = self.model

        def build() -> frozenset[int]:
            held = model.id_to_token
            return self._special_info(model)[2] | {i for i in self._added.decoder if held(i) is None}

        return self._derived("literal ids", build, model)  # type: ignore[no-any-return]

    def _skipped_ids(self) -> frozenset[int]:
        """The ids ``decode`` skips: special tokens whose decoded string is a special token's text (HF
        compares strings, so a special token whose normalized text differs is kept). Kept until a token
        is added or an option changes: every ``decode`` needs it, and with hundreds of special tokens
        (Llama 3) building it dominates decoding one id (measured: docs/benchmarks.md, "Design
        measurements")."""
        model = self.model

        def build() -> frozenset[int]:
            specials, strings = self._specials(model), self._added_strings()
            return frozenset(i for i in specials.values() if strings.get(i, model.id_to_token(i)) in specials)

        return self._derived("skipped", build, model, self.normalizer)  # type: ignore[no-any-return]

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special tokens (``<|endoftext|>``, ``[CLS]``...) and their ids."""
        return dict(self._specials(self.model))

    def _specials(self, model: Model) -> Mapping[str, int]:
        """The special tokens of ``model`` and the added ones, ``{token: id}`` (read-only, shared)."""
        return self._special_info(model)[0]

    def _special_info(self, model: Model) -> tuple[Mapping[str, int], frozenset[str], frozenset[int]]:
        """:meth:`_specials`, its tokens and its ids. Kept until a token is added or an option changes:
        building them reads every added token (Gemma 3 has 6,415), which every encode with
        ``allowed_special`` and every text holding an added token needs."""

        def build() -> tuple[Mapping[str, int], frozenset[str], frozenset[int]]:
            added = self._added.special_tokens if len(self._added) else None
            specials = MappingProxyType({**model.special_tokens, **added} if added else dict(model.special_tokens))
            return specials, frozenset(specials), frozenset(specials.values())

        return self._derived("specials", build, model)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ special-token arguments
    def _allowed(self, allowed_special: AllowedSpecial | None, specials: Mapping[str, int] | None = None) -> frozenset[str]:
        """``allowed_special`` checked against ``specials`` (default: this pipeline's special tokens)."""
        return self._special_set(allowed_special, "allowed_special", specials)

    def _special_set(self, value: Any, name: str, specials: Mapping[str, int] | None = None) -> frozenset[str]:
        specials = self._specials(self.model) if specials is None else specials
        if value is None:
            return frozenset()
        if isinstance(value, str) and value == "all":
            info = self._special_info(self.model)
            return info[1] if specials is info[0] else frozenset(specials)
        if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Iterable):
            raise ConfigError(
                f'{name} must be "all", None or a collection of special-token strings, '
                f"got {type(value).__name__} {value!r:.60}"
                + (f" (for one token write [{value!r:.60}])" if isinstance(value, str) else "")
            )
        items = list(value)
        for item in items:
            if not isinstance(item, str):
                raise ConfigError(f"{name} must hold special-token strings, got {type(item).__name__} {item!r:.60}")
        chosen = frozenset(items)
        unknown = chosen - set(specials)
        if unknown:
            raise ConfigError(
                f"{name} names tokens that are not special tokens of this tokenizer: "
                f"{', '.join(sorted(unknown))}; known: {', '.join(specials) or 'none'}"
            )
        return chosen

    def _check_disallowed(self, text: str, disallowed_special: Any, allowed: frozenset[str], specials: Mapping[str, int]) -> None:
        """tiktoken's check: the specials of ``disallowed_special`` (``"all"``: every special token
        not in ``allowed``) must not occur in ``text``."""
        if disallowed_special == () or disallowed_special is None:
            return
        forbidden = self._special_set(disallowed_special, "disallowed_special", specials)
        if disallowed_special == "all":
            forbidden -= allowed
        if not forbidden:
            return
        key = ("disallowed", forbidden)
        pattern = self._special_patterns.get(key)
        if pattern is None:
            alternatives = sorted(forbidden, key=lambda s: (-len(s), s))
            pattern = self._special_patterns.put(key, regex.compile("|".join(map(regex.escape, alternatives))))
        m = pattern.search(text)
        if m is not None:
            raise InputError(
                f"text contains the special token {m.group()!r} at index {m.start()}, which disallowed_special "
                f"forbids; pass allowed_special=[{m.group()!r}] to encode it as that special token, or "
                "disallowed_special=() to encode it as ordinary text"
            )

    def _cutter(self, model: Model) -> Cutter | None:
        """The cutter of added and special tokens for ``model`` and the current normalizer (kept until
        a token is added or an option changes); ``None`` when there is nothing to cut at."""
        normalizer = self.normalizer
        patterns = self._special_patterns  # read once (see _renew_patterns)
        found = patterns.get("cutter")
        if found is not None and found[0] is model and found[1] is normalizer:
            return found[2]  # type: ignore[no-any-return]
        if not len(self._added) and not model.special_tokens:
            cutter = None
        else:
            cutter = self._added.cutter(model.special_tokens, None if normalizer is None else normalizer.normalize_str)
        patterns.put("cutter", (model, normalizer, cutter))
        return cutter

    def _renew_patterns(self) -> None:
        """Forget what was derived from the added tokens (cutters, patterns, "nothing to cut"): after the
        tokens change. A new cache rather than clearing the old one: a thread that read the old one
        before the change stores its stale result there, never in the cache that replaces it."""
        self._special_patterns = BoundedCache(64)
