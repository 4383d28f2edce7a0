"""The longest GUI-thread stall while a page with 10 avatars, one of them 4000 x 4000, loads.

The window is open on page 1; each run moves to the next page with the avatar cache
emptied, as a person paging through a space does.

A Qt timer due every millisecond beats as often as the GUI thread is free; the longest
gap between two beats is the longest time the window could not react. The baseline is the
same heartbeat over an idle window for as long.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from cardviewer.api import CardPage
    from cardviewer.demo import DemoServer

from bench.common import Result, report, run_in_qt

TARGET_MS = 16.0


class Heartbeat:
    """A timer due every millisecond on the GUI thread; the longest gap between its beats.

    A gap longer than the interval is the time the thread could not react. The beat is
    kept light on purpose: a zero-interval timer would take the thread (and Python's
    interpreter lock) from the work being measured, slowing what runs on other threads.
    """

    INTERVAL_MS = 1

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.longest = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(self.INTERVAL_MS)
        self._timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self.longest = 0.0
        self._timer.start()

    def stop(self) -> float:
        self._timer.stop()
        return self.longest * 1000

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Not beating while the benchmark does work of its own (a baseline's repaints)."""
        self._timer.stop()
        try:
            yield
        finally:
            self._last = time.perf_counter()
            self._timer.start()


def with_huge_avatar(server: DemoServer) -> Callable[[CardPage], CardPage]:
    def edit(page: CardPage) -> CardPage:
        first = page.cards[0]
        assert first.avatar is not None
        huge = first.avatar.model_copy(update={"src": f"{server.avatar_base_url}/avatars/huge.jpg"})
        cards = (first.model_copy(update={"avatar": huge}), *page.cards[1:])
        return page.model_copy(update={"cards": cards})

    return edit


def measure(runs: int = 5) -> Result:
    from bench.viewer import Viewer
    from cardviewer.demo import DemoConfig, DemoServer

    async def main() -> tuple[float, float]:
        loading: list[float] = []
        idle: list[float] = []
        with DemoServer(DemoConfig()) as server, tempfile.TemporaryDirectory() as folder:
            viewer = Viewer(server, Path(folder), edit=with_huge_avatar(server))
            await viewer.start()
            await viewer.show_page(1)  # the window's first page also sizes its columns
            await viewer.avatars_settled()
            for page in range(2, runs + 2):
                viewer.avatars.clear()  # every run decodes the huge avatar again
                await asyncio.sleep(0.1)
                beat = Heartbeat()
                beat.start()
                started = time.perf_counter()
                await viewer.show_page(page)
                await viewer.avatars_settled()
                await asyncio.sleep(0.05)  # the repaints after the last avatar
                took = time.perf_counter() - started
                loading.append(beat.stop())
                beat.start()
                await asyncio.sleep(took)
                idle.append(beat.stop())
            await viewer.aclose()
        return max(loading), max(idle)

    measured, baseline = run_in_qt(main)
    return Result(
        "longest GUI stall, page with a 4000x4000 avatar",
        measured,
        baseline,
        "ms",
        f"< {TARGET_MS:.0f} ms",
        measured < TARGET_MS,
    )


if __name__ == "__main__":
    report([measure()])
