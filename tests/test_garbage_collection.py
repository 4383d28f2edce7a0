"""Cyclic garbage collected on the GUI thread, and long-lived objects left out of it."""

from __future__ import annotations

import gc
import weakref

from cardviewer.garbage_collection import MainThreadGarbageCollector, freeze_survivors


class Node:
    """An object that can be part of a reference cycle."""

    partner: Node | None = None


def test_garbage_is_collected_on_the_gui_thread_only(qapp):
    collector = MainThreadGarbageCollector()
    gc.enable()
    collector.start()
    try:
        assert not gc.isenabled()
        node = Node()
        node.partner = node
        ref = weakref.ref(node)
        del node
        keep: list[list[int]] = [[] for _ in range(gc.get_threshold()[0] + 10)]
        collector.collect_if_due()
        assert ref() is None
        assert keep
    finally:
        collector.stop()
    assert gc.isenabled()


def test_survivors_are_left_out_of_later_collections_and_garbage_is_collected_first():
    garbage = Node()
    garbage.partner = garbage
    gone = weakref.ref(garbage)
    del garbage
    kept = Node()
    freeze_survivors()
    assert gone() is None, "collected, not kept for good"
    assert not any(seen is kept for seen in gc.get_objects()), "no collection looks at it"
    later = Node()
    assert any(seen is later for seen in gc.get_objects())
