"""Sync Space of 100,000 cards at 20 ms latency: its time, and the window's longest stall.

The sync runs as the window runs it (`sync_space` on the qasync loop, the store written
on worker threads, 8 pages at once) against the demo server in a process of its own;
a timer due every millisecond beats meanwhile on the GUI thread (`Heartbeat`). Baselines: the
least any client can take, pages x latency / concurrency, and the timer over the idle
loop for as long. Two more rows, shown and not judged, say where the time goes: the
pages, until the last card is handed to the writer, and what comes after the last page
(the texts ranked and the sort keys indexed by the writer, the copy made current).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bench.bench_gui_stall import Heartbeat
from bench.common import DemoProcess, Result, report, run_in_qt

CARDS = 100_000
LATENCY_MS = 20.0
CONCURRENCY = 8
TIME_RATIO = 1.5
STALL_TARGET_MS = 50.0


def measure(cards: int = CARDS) -> list[Result]:
    from cardviewer.api import CardPage, CardsClient
    from cardviewer.services.card_store import CardStore
    from cardviewer.services.space_sync import sync_space

    label = f"{cards:,} cards"

    async def main(server: DemoProcess, folder: Path) -> tuple[float, float, float, float, int]:
        async with CardsClient(server.base_url) as client:
            await client.login(server.email, server.password)
            pages = (await client.list_cards(server.space_id, 1)).meta.last_page

            async def fetch(number: int) -> CardPage:
                return await client.list_cards(server.space_id, number)

            with CardStore.open(folder / "space.sqlite") as store:
                beat = Heartbeat()
                beat.start()
                started = time.perf_counter()
                last_page = started

                def finishing() -> None:
                    nonlocal last_page
                    last_page = time.perf_counter()

                await sync_space(
                    store,
                    fetch,
                    concurrency=CONCURRENCY,
                    collation="de_DE",
                    on_finishing=finishing,
                )
                took = time.perf_counter() - started
                stall = beat.stop()
                beat.start()
                await asyncio.sleep(min(took, 5.0))
                return took, last_page - started, stall, beat.stop(), pages

    with (
        DemoProcess(cards=cards, latency_ms=LATENCY_MS) as server,
        tempfile.TemporaryDirectory() as folder,
    ):
        took, fetched, stall, idle, pages = run_in_qt(lambda: main(server, Path(folder)))
    floor = pages * LATENCY_MS / 1000 / CONCURRENCY
    return [
        Result(
            f"sync, {label} at {LATENCY_MS:.0f} ms latency, {CONCURRENCY} at once",
            took,
            floor,
            "s",
            f"<= {TIME_RATIO}x pages x latency / {CONCURRENCY}",
            took <= TIME_RATIO * floor,
        ),
        Result(
            f"sync, {label}: the pages, until the last card is handed on",
            fetched,
            floor,
            "s",
            "— (where the time goes)",
            None,
        ),
        Result(
            f"sync, {label}: after the last page (rank, index, make current)",
            took - fetched,
            took,
            "s",
            "— (its share of the sync)",
            None,
        ),
        Result(
            f"longest GUI stall during the sync of {label}",
            stall,
            idle,
            "ms",
            f"< {STALL_TARGET_MS:.0f} ms",
            stall < STALL_TARGET_MS,
        ),
    ]


if __name__ == "__main__":
    import sys

    report(measure(int(sys.argv[1]) if len(sys.argv) > 1 else CARDS))
