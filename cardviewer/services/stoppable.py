"""A long write on a worker thread: told how far it has come, called off between cards.

A phone list or the vCards of a whole space (with photos downloaded) take seconds to
minutes; the window shows how far they have come and offers Cancel. The writer tells
the count now and then through `Painted` and looks at a `threading.Event` between cards.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

PROGRESS_EVERY = 250
"""Cards written between two reports of progress: a few a second for a whole space."""

Painted = Callable[[int], None]
"""Told how many cards are written so far, now and then and once at the end."""


class Stopped(Exception):
    """The job was called off before its last card (`stop` was set)."""


def check(stop: threading.Event | None) -> None:
    """Raise `Stopped` when `stop` is set."""
    if stop is not None and stop.is_set():
        raise Stopped("the job was called off")
