"""toolkit.runtime.gc_paused: the collector is off inside, its state is restored, and what the block
allocated skips the young generations without losing cyclic garbage or frozen objects."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from toolkit.runtime import gc_paused


@pytest.fixture(autouse=True)
def _collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_paused_inside_and_restored_after() -> None:
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()  # a caller that had it off keeps it off
    gc.enable()


def test_objects_made_inside_leave_the_youngest_generation() -> None:
    with gc_paused():
        data = [[i] for i in range(1000)]
    ids = {id(x) for x in data}
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert not ids & young
    assert ids <= {id(o) for o in gc.get_objects(generation=2)}
    assert gc.get_freeze_count() == 0


def test_cycles_made_inside_are_still_collected() -> None:
    class Node:
        pass

    with gc_paused():
        a, b = Node(), Node()
        a.other, b.other = b, a
        marker = id(a)
    del a, b
    gc.collect()
    assert marker not in {id(o) for o in gc.get_objects()}


def test_objects_frozen_by_the_program_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with gc_paused():
            data = [[i] for i in range(100)]
        assert gc.get_freeze_count() == frozen  # not released by an unfreeze
        assert data
    finally:
        gc.unfreeze()
