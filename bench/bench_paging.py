"""Next page painted: with the page fetched in the background, and without.

The window shows a page; "Next" is pressed and the time until the table has painted
the new page is measured (an event filter on the table's viewport). With prefetch the
next page is already in the cache; without it, one round trip is the floor. The demo
server runs in its own process with 50 ms of latency.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench.common import DemoProcess, Result, median, report, run_in_qt

if TYPE_CHECKING:
    from bench.viewer import Viewer

LATENCY = 0.050
PAINT_TARGET_MS = 16.0
ROUND_TRIP_SLACK_MS = 10.0


async def next_page_painted(viewer: Viewer, page: int) -> float:
    from PySide6.QtCore import QEvent, QObject

    painted: asyncio.Future[float] = asyncio.get_running_loop().create_future()
    viewport = viewer.window.table.viewport()

    class Watcher(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            page_shown = viewer.model.page
            if (
                watched is viewport
                and event.type() == QEvent.Type.Paint
                and page_shown is not None
                and page_shown.meta.current_page == page
                and not painted.done()
            ):
                painted.set_result(time.perf_counter())
            return False

    watcher = Watcher()
    viewport.installEventFilter(watcher)
    try:
        started = time.perf_counter()
        viewer.window.go_to_page(page)
        finished = await asyncio.wait_for(painted, 10)
    finally:
        viewport.removeEventFilter(watcher)
    return (finished - started) * 1000


def measure(runs: int = 10) -> list[Result]:
    from bench.viewer import Viewer

    async def main() -> tuple[list[float], list[float], list[float]]:
        warm: list[float] = []
        cold: list[float] = []
        trips: list[float] = []
        with (
            DemoProcess(cards=400, latency_ms=LATENCY * 1000) as server,
            tempfile.TemporaryDirectory() as folder,
        ):
            for prefetch, times in ((True, warm), (False, cold)):
                viewer = Viewer(server, Path(folder), prefetch=prefetch)
                await viewer.start()
                await viewer.show_page(1)
                for page in range(2, runs + 2):
                    while viewer.pages.is_prefetching:  # noqa: ASYNC110 - a few polls
                        await asyncio.sleep(0.005)
                    await asyncio.sleep(0.05)
                    times.append(await next_page_painted(viewer, page))
                await viewer.aclose()
            from cardviewer.api import CardsClient

            async with CardsClient(server.base_url) as client:
                await client.login(server.email, server.password)
                for page in range(1, runs + 1):
                    started = time.perf_counter()
                    await client.list_cards(server.space_id, page)
                    trips.append((time.perf_counter() - started) * 1000)
        return warm, cold, trips

    warm, cold, trips = run_in_qt(main)
    trip = median(trips)
    return [
        Result(
            "next page painted, prefetched",
            median(warm),
            trip,
            "ms",
            f"< {PAINT_TARGET_MS:.0f} ms",
            median(warm) < PAINT_TARGET_MS,
        ),
        Result(
            f"next page painted, not prefetched ({LATENCY * 1000:.0f} ms latency)",
            median(cold),
            trip,
            "ms",
            f"≤ round trip + {ROUND_TRIP_SLACK_MS:.0f} ms",
            median(cold) <= trip + ROUND_TRIP_SLACK_MS,
        ),
    ]


if __name__ == "__main__":
    report(measure())
