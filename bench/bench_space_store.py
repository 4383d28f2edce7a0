"""A synced space of 100,000 cards browsed from its local copy: sort, filter, scroll.

Timed from the heading click or key to the first rows painted, through the real model
and a real table view: the model's first answer arrives, then the view's viewport is
painted. The baseline of each row is that same paint of the rows already shown, so the
ratio says how much a sort or filter adds to a repaint. A timer due every millisecond
beats as often as the GUI thread is free (`Heartbeat`); its longest gap while sorting,
filtering and scrolling from top to bottom is the longest stall.

The copy is built from the demo server's sample data once per size and schema, and
kept in the temporary folder for the next run (building 100,000 cards takes a minute).
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from bench.bench_gui_stall import Heartbeat
from bench.common import Result, report, rss_bytes, run_in_qt

if TYPE_CHECKING:
    from cardviewer.api.models import Card
    from cardviewer.services.card_store import CardStore

SORT_TARGET_MS = 150.0
FILTER_TARGET_MS = {100_000: 30.0, 10_000: 16.0}
STALL_TARGET_MS = 16.0
MEMORY_TARGET_MB = 120.0
OPEN_RATIO = 1.5
LOCALE = "de_DE"
TYPED = "mül"
"""Typed one key at a time, then taken back: every keystroke is one filter."""


def store_for(count: int) -> Path:
    """The local copy of a demo space of `count` cards, built on first use."""
    from cardviewer.api.models import parse_card
    from cardviewer.demo.spaces import build_spaces

    def demo_cards(_store: CardStore) -> Iterator[Card]:
        space = next(iter(build_spaces(count).values()))
        for card in space.cards:
            yield parse_card(card.to_json(space, "http://127.0.0.1:1", with_emails=True))

    return built_once(f"cardviewer-bench-{count}", demo_cards)


def built_once(
    name: str, cards: Callable[[CardStore], Iterable[Card]], *, start_from: Path | None = None
) -> Path:
    """A local copy in the temporary folder, kept for the next run: on first use, a copy
    of `start_from` (or a new store) with `cards(store)` synced into it as the window
    syncs (building 100,000 cards takes a minute)."""
    from PySide6.QtCore import QLocale

    from cardviewer.services.card_store import CardStore
    from cardviewer.services.store_schema import SCHEMA_VERSION
    from cardviewer.services.text_collation import text_collator

    path = Path(tempfile.gettempdir()) / f"{name}-v{SCHEMA_VERSION}.sqlite"
    if path.exists():
        return path
    partial = path.with_suffix(".partial")
    for leftover in partial.parent.glob(partial.name + "*"):
        leftover.unlink()
    if start_from is not None:
        shutil.copy(start_from, partial)  # its mode too: readable by this user only
    with CardStore.open(partial) as store:
        chosen = cards(store)
        sync = store.begin_sync(with_emails=True)
        batch = []
        for card in chosen:
            batch.append(card)
            if len(batch) == 100:
                sync.add(batch)
                batch = []
        sync.add(batch)
        sync.finish(text_collator(QLocale(LOCALE)).sortKey, LOCALE)  # as the window syncs
    partial.rename(path)
    return path


async def _first_rows(model, view, action) -> float:
    """Seconds from `action()` to the first rows of its answer painted.

    The paint is the one the answer asks for (the view's posted update), delivered at
    once, as the window's event loop delivers it next: a `repaint()` here would paint
    the rows, and that posted update would paint them a second time.
    """
    from PySide6.QtCore import QCoreApplication, QEventLoop

    loop = QEventLoop()
    model.modelReset.connect(loop.quit)
    model.queryFinished.connect(loop.quit)
    started = time.perf_counter()
    action()
    loop.exec()
    QCoreApplication.sendPostedEvents()
    took = time.perf_counter() - started
    model.modelReset.disconnect(loop.quit)
    model.queryFinished.disconnect(loop.quit)
    await _settled(model)
    _idle(view)
    # The window's loop turns before a person's next click or key, however quick: its
    # timers run then. Without this turn, the paint above and the next action's would
    # count as one stall, as no window could have them.
    await asyncio.sleep(0)
    return took


def _idle(view) -> None:
    """Paint what the rest of the answer changed, as the window does before the next key.

    A person's next key comes tens of milliseconds after the last at the quickest, and
    the window paints the whole answer meanwhile; without this, the next measurement
    would start with that paint still to do.
    """
    from PySide6.QtCore import QCoreApplication

    # The window's own paint of what changed (its posted update requests); no second,
    # forced repaint of the whole table, which the window never does.
    QCoreApplication.sendPostedEvents()


async def _settled(model) -> None:
    """Until every row of the last sort or filter is in."""
    if model.is_sorting:
        done = asyncio.Event()
        model.queryFinished.connect(done.set)
        await done.wait()
        model.queryFinished.disconnect(done.set)


def _repaint(view) -> float:
    started = time.perf_counter()
    view.viewport().repaint()
    return time.perf_counter() - started


def window_shown(folder: Path, copy: Path | None) -> float:
    """Seconds to show a main window painted: empty, or with the whole space of `copy`.

    No server: the window has no source of pages, as when the network is gone.
    """
    from cardviewer.services.settings import Settings
    from cardviewer.ui.cards.card_pages import CardPages
    from cardviewer.ui.cards.card_table_model import CardTableModel
    from cardviewer.ui.main_window import MainWindow

    started = time.perf_counter()
    pages = CardPages(CardTableModel())
    window = MainWindow(pages, Settings.load(folder / "settings.json"), store_folder=folder)
    if copy is not None:
        window.whole_space.show_copy(copy)
    window.show()
    window.repaint()
    took = time.perf_counter() - started
    window.whole_space.close()
    window.close()
    window.deleteLater()
    return took


def measure_size(count: int) -> list[Result]:
    from PySide6.QtCore import QAbstractItemModel, QLocale, Qt

    from cardviewer.garbage_collection import freeze_survivors
    from cardviewer.ui.cards.card_table_view import CardTableView
    from cardviewer.ui.cards.space_table_model import SpaceTableModel

    path = store_for(count)
    label = f"{count:,} cards"

    def shown(model: QAbstractItemModel) -> tuple[CardTableView, float]:
        """The window's table over `model`, shown and painted; seconds it took."""
        started = time.perf_counter()
        view = CardTableView(model, avatar_size=32)
        view.resize(1000, 700)
        view.show()
        view.repaint()
        return view, time.perf_counter() - started

    async def main() -> list[Result]:
        # The reader's language, as when the copy was synced: the window's model then
        # sorts by the ranks the sync gave, as the bench's own model does.
        QLocale.setDefault(QLocale(LOCALE))
        empty_times, open_times = [], []
        with tempfile.TemporaryDirectory() as folder:
            for _ in range(5):  # alternated, so that both see the same machine
                empty_times.append(window_shown(Path(folder), None))
                open_times.append(window_shown(Path(folder), path))
        empty, opening = statistics.median(empty_times), statistics.median(open_times)
        results: list[Result] = [
            Result(
                f"open a synced space of {label} offline: window with its first rows painted",
                opening * 1000,
                empty * 1000,
                "ms",
                f"≤ {OPEN_RATIO}x an empty main window",
                opening <= OPEN_RATIO * empty,
            )
        ]
        freeze_survivors()  # as the app does before its main window is built
        before = rss_bytes()
        model = SpaceTableModel(path, locale=QLocale(LOCALE))
        view, _took = shown(model)  # the window's table
        await _settled(model)
        view.viewport().repaint()
        beat = Heartbeat()
        beat.start()
        for key, title in (("display_name", "Name"), ("connects", "Connects")):
            column = model.column_of(key)
            assert column is not None
            times = []
            for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder) * 2:
                click = partial(view.sortByColumn, column, order)  # as a heading click does
                times.append(await _first_rows(model, view, click))
            with beat.paused():  # the baseline's five repaints in a row are no sort's
                paint = statistics.median(_repaint(view) for _ in range(5))
            measured = max(times) * 1000
            results.append(
                Result(
                    f"sort by {title}, {label}: click to first rows",
                    measured,
                    paint * 1000,
                    "ms",
                    f"≤ {SORT_TARGET_MS:.0f} ms",
                    measured <= SORT_TARGET_MS,
                )
            )
        keys = []
        for typed in [TYPED[: n + 1] for n in range(len(TYPED))] + ["mü", "m", ""]:
            keys.append(await _first_rows(model, view, partial(model.set_filter_text, typed)))
        with beat.paused():
            paint = statistics.median(_repaint(view) for _ in range(5))
        target = FILTER_TARGET_MS.get(count, 30.0)
        measured = max(keys) * 1000
        results.append(
            Result(
                f"filter keystroke, {label}: key to first rows (slowest of {len(keys)})",
                measured,
                paint * 1000,
                "ms",
                f"≤ {target:.0f} ms",
                measured <= target,
            )
        )
        scrollbar = view.verticalScrollBar()
        step = max(1, scrollbar.maximum() // 400)
        for value in range(0, scrollbar.maximum() + step, step):
            scrollbar.setValue(value)
            await asyncio.sleep(0)
        stall = beat.stop()
        beat.start()
        await asyncio.sleep(1.0)
        idle = beat.stop()
        results.append(
            Result(
                f"longest GUI stall, {label}: sort, filter, scroll top to bottom",
                stall,
                idle,
                "ms",
                f"≤ {STALL_TARGET_MS:.0f} ms",
                stall <= STALL_TARGET_MS,
            )
        )
        grown = (rss_bytes() - before) / 2**20
        results.append(
            Result(
                f"memory browsing, {label}: growth (baseline: resident before opening)",
                grown,
                before / 2**20,
                "MB",
                f"≤ {MEMORY_TARGET_MB:.0f} MB",
                grown <= MEMORY_TARGET_MB,
            )
        )
        view.close()
        model.close()
        return results

    return run_in_qt(main)


def measure() -> list[Result]:
    return [*measure_size(10_000), *measure_size(100_000)]


if __name__ == "__main__":
    import sys

    sizes = [int(arg) for arg in sys.argv[1:]] or [10_000, 100_000]
    report([result for size in sizes for result in measure_size(size)])
