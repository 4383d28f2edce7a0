"""Ctrl+C noted while the window loads, and acted on once the window can end cleanly.

Python raises KeyboardInterrupt wherever the main thread happens to be. While Qt is
being loaded that is inside shiboken's own start, which then aborts the process ("Fatal
Python error") or crashes it; a little later, a traceback; later still, inside Qt's
event processing, the press is lost and the window stays. So until the app listens
for Ctrl+C itself (`controller.amain`), a press is only noted, and the app ends as soon
as it listens, as it does on any later Ctrl+C.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class NotedInterrupt:
    """A SIGINT handler that only notes the press."""

    def __init__(self) -> None:
        self.pressed = False

    def __call__(self, _signum: int, _frame: FrameType | None) -> None:
        self.pressed = True


@contextmanager
def interrupts_noted() -> Iterator[NotedInterrupt]:
    """Note Ctrl+C instead of raising KeyboardInterrupt, until the block ends.

    Whoever installs a handler inside the block takes over; `pressed_before` tells it
    whether the person already asked to stop. Only the main thread can set handlers:
    elsewhere (a test's thread), nothing changes; nor where Ctrl+C is ignored (a program
    started in the background, or with `nohup`), as it then stays.
    """
    noted = NotedInterrupt()
    main_thread = threading.current_thread() is threading.main_thread()
    if not main_thread or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield noted
        return
    previous = signal.signal(signal.SIGINT, noted)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, previous)


def pressed_before(previous: object) -> bool:
    """Whether `previous`, the SIGINT handler one replaced, noted a press."""
    return isinstance(previous, NotedInterrupt) and previous.pressed
