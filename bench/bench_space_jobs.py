"""Scrolling a synced space of 100,000 cards while the app works through all of them.

Export Cards Shown (CSV, Excel, vCards, a phone list), copying every row (Ctrl+A,
Ctrl+C) and the space's overview read each card of the local copy and make its texts:
seconds of Python. The window must scroll as it does without them. Each row scrolls
the window's table from top to bottom and back, a step at a time (a screenful of new
rows each), for as long as the job runs, started as the app starts it (in a process
of its own through `process_job`); its figure is the
median step, its baseline the median step of the same scroll with no job running.
The longest step and the job's time are in the row's name.

Target: the median step at most 1.5x the baseline. On a thread beside the window's,
these jobs made it 2 to 17x (Python's lock, which every paint needs, held by the job).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

from bench.bench_space_store import LOCALE, _settled, store_for
from bench.common import Result, report, run_in_qt

CARDS = 100_000
RATIO = 1.5


def measure(cards: int = CARDS) -> list[Result]:
    from PySide6.QtCore import QLocale

    from cardviewer.services.page_loader import PageRequest
    from cardviewer.services.process_job import in_a_process
    from cardviewer.services.space_overview import overview_of_copy
    from cardviewer.services.vcard_export import VCardVersion, write_stored_vcards
    from cardviewer.ui.cards.card_export import stored_cards_writer
    from cardviewer.ui.cards.card_table_view import CardTableView
    from cardviewer.ui.cards.space_table_model import SpaceTableModel
    from cardviewer.ui.cards.table_copy import stored_rows
    from cardviewer.ui.chosen_cards import ChosenCards
    from cardviewer.ui.phone_list_output import (
        painted_elsewhere,
        phone_list_texts,
        write_chosen_pdf,
    )

    path = store_for(cards)
    label = f"{cards:,} cards"

    async def main() -> list[Result]:
        QLocale.setDefault(QLocale(LOCALE))
        model = SpaceTableModel(path, locale=QLocale(LOCALE))
        view = CardTableView(model, avatar_size=32)
        view.resize(1000, 700)
        view.show()
        await _settled(model)
        scrollbar = view.verticalScrollBar()
        step = max(1, scrollbar.maximum() // 400)

        async def scroll(busy: Callable[[], bool]) -> list[float]:
            """Milliseconds of each step, down and up again, while `busy()`."""
            steps, value, direction = [], 0, step
            while busy():
                started = time.perf_counter()
                scrollbar.setValue(value)
                view.viewport().repaint()  # now, not when the loop comes round to it
                steps.append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(0)  # the job's answers come through the loop
                if not 0 <= value + direction <= scrollbar.maximum():
                    direction = -direction
                value += direction
            return steps

        passes = iter(range(2 * (scrollbar.maximum() // step + 1)))
        alone = statistics.median(await scroll(lambda: next(passes, None) is not None))

        async def during(job: Awaitable[object]) -> tuple[list[float], float]:
            started = time.perf_counter()
            task = asyncio.ensure_future(job)
            steps = await scroll(lambda: not task.done())
            await task
            return steps, time.perf_counter() - started

        results = []
        with tempfile.TemporaryDirectory() as folder:

            def export(suffix: str) -> Callable[[], Awaitable[object]]:
                target = Path(folder) / f"shown.{suffix}"
                write = stored_cards_writer(store_path=path, positions=model.positions())
                return lambda: in_a_process(write, target)

            jobs = [
                (f"export {label} shown to {suffix}", export(suffix)) for suffix in ("csv", "xlsx")
            ]
            view.selectAll()
            rows = stored_rows(view)
            assert rows is not None
            jobs.append((f"copy {label} (Ctrl+A, Ctrl+C)", lambda: in_a_process(rows.text)))
            view.clearSelection()

            vcards = partial(
                write_stored_vcards,
                Path(folder) / "shown.vcf",
                store_path=path,
                positions=model.positions(),
                version=VCardVersion.V3,
            )
            chosen = ChosenCards(
                PageRequest(path.stem, 1, True),
                "shown",
                store_path=path,
                positions=model.positions(),
            )
            phone_list = painted_elsewhere(
                partial(
                    write_chosen_pdf,
                    Path(folder) / "shown.pdf",
                    chosen=chosen,
                    texts=phone_list_texts(chosen),
                )
            )
            jobs += [
                (f"export {label} shown as vCards", lambda: in_a_process(vcards)),
                (f"overview of {label}", lambda: in_a_process(overview_of_copy, path)),
                (f"export {label} shown as a phone list (PDF)", lambda: in_a_process(phone_list)),
            ]
            for name, job in jobs:
                steps, took = await during(job())
                median = statistics.median(steps)
                results.append(
                    Result(
                        f"scroll while the app does: {name}: median step (longest "
                        f"{max(steps):.0f} ms, {len(steps)} steps, job {took:.1f} s)",
                        median,
                        alone,
                        "ms",
                        f"≤ {RATIO}x the same scroll alone",
                        median <= RATIO * alone,
                    )
                )
        view.close()
        model.close()
        return results

    return run_in_qt(main)


if __name__ == "__main__":
    import sys

    report(measure(int(sys.argv[1]) if len(sys.argv) > 1 else CARDS))
