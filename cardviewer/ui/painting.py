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
from dataclasses import dataclass
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
    EXPORT = "export"
    """The cards shown of a whole space, saved as CSV or a workbook."""


class Paint(Protocol):
    """Paints the list (or writes the vCards), stopping when `stop` is set; `painted`
    hears the count now and then."""

    def __call__(self, *, stop: threading.Event, painted: Painted) -> int: ...


@dataclass(eq=False)
class _Run:
    """One painting under way: its stop, what it makes, how far it has come."""

    stop: threading.Event
    made: Made
    total: int
    count: int = 0


class Painting(QObject):
    """Phone lists being painted, vCards written, rows copied: `advanced` tells of the
    newest, `cancel()` stops it.

    A print started while a PDF is still being written, say, runs beside it; the
    progress shown, and what Cancel stops, is that of the one started last. When it
    ends, the one before it is shown again (`resumed`).
    """

    advanced = Signal(int, int)
    """Cards painted so far, of how many; (0, total) when a painting starts."""
    resumed = Signal()
    """The newest painting ended and the one before it is shown again (`made`); its
    progress follows on `advanced`."""
    ended = Signal()
    """No painting runs any more: each is done, failed or cancelled."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runs: list[_Run] = []

    @property
    def running(self) -> bool:
        return bool(self._runs)

    @property
    def made(self) -> Made:
        """What the newest painting makes (a phone list when none runs)."""
        return self._runs[-1].made if self._runs else Made.PHONE_LIST

    def cancel(self) -> None:
        """Stop the newest painting after the card it is on; it raises `Stopped`."""
        if self._runs:
            self._runs[-1].stop.set()

    async def run(self, paint: Paint, total: int, made: Made = Made.PHONE_LIST) -> int:
        """Run `paint`, which makes `made`, on a thread of its own; the number of cards
        it painted."""
        run = _Run(threading.Event(), made, total)
        self._runs.append(run)
        loop = asyncio.get_running_loop()

        def painted(count: int) -> None:  # on the painting thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: the app is ending
                loop.call_soon_threadsafe(self._advance, run, count)

        self.advanced.emit(0, total)
        try:
            return await asyncio.to_thread(paint, stop=run.stop, painted=painted)
        except asyncio.CancelledError:
            run.stop.set()  # the window is closing: the thread stops soon, writing nothing
            raise
        finally:
            newest = self._runs[-1] is run
            self._runs.remove(run)
            if not self._runs:
                self.ended.emit()
            elif newest:
                before = self._runs[-1]
                self.resumed.emit()
                self.advanced.emit(before.count, before.total)

    def _advance(self, run: _Run, count: int) -> None:
        run.count = count
        if self._runs and self._runs[-1] is run:
            self.advanced.emit(count, run.total)
