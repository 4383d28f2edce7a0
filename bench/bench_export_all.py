"""Exporting a whole space of 10,000 cards at 20 ms latency, against a sequential loop.

The app's path is the "Export All Pages" dialog: pages fetched a few at a time, then one
CSV file written. The baseline is the natural script: one `httpx.AsyncClient` asking
for page after page. The limit is pages x latency / concurrency, the time the server's
latency alone imposes.

The export runs at the app's default of four pages at once, and again at eight (a
setting in Preferences). With four, no client can beat the sequential loop by more
than 4 x (latency + the loop's other time per page) / latency: less than six whenever
the loop spends under 10 ms per page besides the latency (about 3 to 5 ms here). Such
a speed-up target is shown with the most any client could reach, and not judged.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bench.common import DemoProcess, Result, report, run_in_qt

if TYPE_CHECKING:
    from bench.common import DemoProcess

CARDS = 10_000
LATENCY = 0.020
CONCURRENCY = 4
"""The app's default (`space_fetch.DEFAULT_CONCURRENCY`)."""
HIGHER_CONCURRENCY = 8
PAGES = CARDS // 10
SPEED_UP = 6.0
OF_LIMIT = 1.5


async def sequential_httpx(server: DemoProcess) -> float:
    import httpx

    started = time.perf_counter()
    rows = 0
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        login = await client.post(
            "/v1/auth/login",
            json={"email": server.email, "password": server.password},
            headers={"Accept": "application/json"},
        )
        client.headers["Authorization"] = f"Bearer {login.json()['access_token']}"
        client.headers["Accept"] = "application/json"
        page, last = 1, 1
        while page <= last:
            body = (await client.get(f"/v1/spaces/{server.space_id}/cards?page={page}")).json()
            rows += len(body["data"])
            last = body["meta"]["last_page"]
            page += 1
    assert rows == CARDS
    return time.perf_counter() - started


async def app_export(server: DemoProcess, folder: Path, concurrency: int = CONCURRENCY) -> float:
    from cardviewer.api import CardPage, CardsClient
    from cardviewer.ui.export_all_dialog import ExportAllDialog

    async with CardsClient(server.base_url) as client:
        await client.login(server.email, server.password)

        async def fetch(number: int) -> CardPage:
            return await client.list_cards(server.space_id, number)

        dialog = ExportAllDialog(
            fetch,
            folder / "all.csv",
            space_id=server.space_id,
            with_emails=False,
            concurrency=concurrency,
        )
        started = time.perf_counter()
        written = await dialog.run()
        took = time.perf_counter() - started
        dialog.deleteLater()
    assert written == CARDS
    return took


def measure(concurrencies: Sequence[int] = (CONCURRENCY, HIGHER_CONCURRENCY)) -> list[Result]:
    """The export at each number of pages at once, against one sequential baseline."""

    async def main() -> tuple[list[float], float]:
        with (
            DemoProcess(cards=CARDS, latency_ms=LATENCY * 1000) as server,
            tempfile.TemporaryDirectory() as folder,
        ):
            baseline = await sequential_httpx(server)
            measured = [await app_export(server, Path(folder), n) for n in concurrencies]
        return measured, baseline

    times, baseline = run_in_qt(main)
    results: list[Result] = []
    for concurrency, measured in zip(concurrencies, times, strict=True):
        limit = PAGES * LATENCY / concurrency
        reachable = baseline / limit  # the most any client could gain at this concurrency
        target = f"≥ {SPEED_UP:.0f}x faster (ratio ≤ {1 / SPEED_UP:.3f})"
        if reachable < SPEED_UP:
            target += f": out of reach at {concurrency} at once, at most {reachable:.1f}x"
        results += [
            Result(
                f"export all {CARDS:,} cards at {LATENCY * 1000:.0f} ms, {concurrency} at once, "
                "vs sequential httpx",
                measured,
                baseline,
                "s",
                target,
                measured * SPEED_UP <= baseline if reachable >= SPEED_UP else None,
            ),
            Result(
                f"export all {CARDS:,} cards, vs pages x latency / {concurrency}",
                measured,
                limit,
                "s",
                f"≤ {OF_LIMIT}x the limit",
                measured <= OF_LIMIT * limit,
            ),
        ]
    return results


if __name__ == "__main__":
    # `python -m bench.bench_export_all [concurrency …]`: the export at other settings.
    report(measure([int(n) for n in sys.argv[1:]] or (CONCURRENCY, HIGHER_CONCURRENCY)))
