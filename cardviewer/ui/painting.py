"""A phone list painted, vCards written, or a whole space's rows copied, off the window's
thread: how far it has come, and Cancel.

A whole space's phone list takes seconds (100,000 cards, about 16), its vCards with
photos minutes (the pictures downloaded a few at a time). The painting runs
on a thread of its own (`asyncio.to_thread`) and hears of a stop through a
`threading.Event`; its reports of progress come back to the window's thread through
the loop, and only those of the painting still running are passed on.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from enum import Enum
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from cardviewer.services.stoppable import Painted


class Made(Enum):
    """What a painting makes, for the words that show it."""

    PHONE_LIST = "phone list"
    VCARDS = "vCards"
    PRINT = "print"
    COPY = "copy"


class Paint(Protocol):
    """Paints the list (or writes the vCards), stopping when `stop` is set; `painted`
    hears the count now and then."""

    def __call__(self, *, stop: threading.Event, painted: Painted) -> int: ...


class Painting(QObject):
    """Phone lists being painted, vCards written: `advanced` tells of the newest,
    `cancel()` stops all.

    A print started while a PDF is still being written, say, runs beside it; the
    progress shown is that of the one started last.
    """

    advanced = Signal(int, int)
    """Cards painted so far, of how many; (0, total) when a painting starts."""
    ended = Signal()
    """No painting runs any more: each is done, failed or cancelled."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stops: list[threading.Event] = []
        self._made: list[Made] = []

    @property
    def running(self) -> bool:
        return bool(self._stops)

    @property
    def made(self) -> Made:
        """What the newest painting makes (a phone list when none runs)."""
        return self._made[-1] if self._made else Made.PHONE_LIST

    def cancel(self) -> None:
        """Stop after the card being painted; each painting raises `Stopped`."""
        for stop in self._stops:
            stop.set()

    async def run(self, paint: Paint, total: int, made: Made = Made.PHONE_LIST) -> int:
        """Run `paint`, which makes `made`, on a thread of its own; the number of cards
        it painted."""
        stop = threading.Event()
        self._stops.append(stop)
        self._made.append(made)
        loop = asyncio.get_running_loop()

        def painted(count: int) -> None:  # on the painting thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: the app is ending
                loop.call_soon_threadsafe(self._advance, stop, count, total)

        self.advanced.emit(0, total)
        try:
            return await asyncio.to_thread(paint, stop=stop, painted=painted)
        except asyncio.CancelledError:
            stop.set()  # the window is closing: the thread stops soon, writing nothing
            raise
        finally:
            del self._made[self._stops.index(stop)]
            self._stops.remove(stop)
            if not self._stops:
                self.ended.emit()

    def _advance(self, stop: threading.Event, count: int, total: int) -> None:
        if self._stops and self._stops[-1] is stop:
            self.advanced.emit(count, total)
