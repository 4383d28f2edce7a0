"""The cards the last sync changed, of a synced space of 100,000 cards: open and scroll.

The view of changed cards reads each one's value before the sync from the copy before
it, and marks the cells that differ. Scrolling it top to bottom, a screenful of cards
never shown before at each step, is timed by its longest stall against the same scroll
of the whole space in the same run: the ratio says what reading the cards before adds.
Opening the view compares the two copies once (about half a second at this size); its
first rows painted are shown next to the whole space's, not judged (no target is set).

The copy is the one `bench_space_store` builds, with a second sync that changed every
50th card's position and removed every 97th, kept in the temporary folder.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench.bench_gui_stall import Heartbeat
from bench.bench_space_store import LOCALE, built_once, store_for
from bench.common import Result, report, run_in_qt

if TYPE_CHECKING:
    from cardviewer.api.models import Card
    from cardviewer.services.card_store import CardStore

COUNT = 100_000
STALL_RATIO = 1.5
CHANGED_EVERY = 50
REMOVED_EVERY = 97


def changed_store_for(count: int) -> Path:
    """A copy of `count` cards and a second sync of it that changed and removed some."""

    def changed(store: CardStore) -> list[Card]:
        kept = []
        for number, card in enumerate(list(store.cards())):
            if number % REMOVED_EVERY == 5:
                continue
            if number % CHANGED_EVERY == 3:
                card = card.model_copy(update={"position": f"{card.position or ''} (new)"})
            kept.append(card)
        return kept

    return built_once(f"cardviewer-bench-changes-{count}", changed, start_from=store_for(count))


def measure_size(count: int) -> list[Result]:
    from PySide6.QtCore import QLocale

    from cardviewer.services.store_copies import Change
    from cardviewer.ui.cards.card_table_view import CardTableView
    from cardviewer.ui.cards.space_table_model import SpaceTableModel

    path = changed_store_for(count)
    label = f"{count:,} cards"

    async def opened(change: Change | None) -> tuple[SpaceTableModel, CardTableView, float]:
        """The table of the whole space or of a change, shown; seconds to its first rows."""
        started = time.perf_counter()
        model = SpaceTableModel(path, locale=QLocale(LOCALE), change=change)
        view = CardTableView(model, avatar_size=32)
        view.resize(1000, 700)
        view.show()
        if model.is_sorting:  # a change's rows come once the copies are compared
            done = asyncio.Event()
            model.queryFinished.connect(done.set)
            await done.wait()
            model.queryFinished.disconnect(done.set)
        view.viewport().repaint()
        took = time.perf_counter() - started
        await asyncio.sleep(0.3)  # shown on screen before its scroll is timed
        return model, view, took

    async def scrolled(view: CardTableView, steps: int | None) -> float:
        """The longest stall scrolling top to bottom: `steps` of it, or a screenful each."""
        scrollbar = view.verticalScrollBar()
        step = max(1, scrollbar.maximum() // steps) if steps else max(1, scrollbar.pageStep())
        beat = Heartbeat()
        beat.start()
        for value in range(0, scrollbar.maximum() + step, step):
            scrollbar.setValue(value)
            await asyncio.sleep(0)
        return beat.stop()

    async def main() -> list[Result]:
        QLocale.setDefault(QLocale(LOCALE))
        whole, whole_view, whole_open = await opened(None)
        whole_stall = await scrolled(whole_view, 400)  # as `space-store` scrolls it
        whole_view.close()
        whole.close()
        changed, changed_view, changed_open = await opened(Change.CHANGED)
        rows = changed.rowCount()
        changed_stall = await scrolled(changed_view, None)
        changed_view.close()
        changed.close()
        return [
            Result(
                f"open the changed cards of {label} ({rows:,}): first rows painted",
                changed_open * 1000,
                whole_open * 1000,
                "ms",
                "none set (the copies are compared once)",
                None,
            ),
            Result(
                f"scroll the changed cards of {label}: longest stall (baseline: whole space)",
                changed_stall,
                whole_stall,
                "ms",
                f"≤ {STALL_RATIO}x the whole space's",
                changed_stall <= STALL_RATIO * whole_stall,
            ),
        ]

    return run_in_qt(main)


def measure() -> list[Result]:
    return measure_size(COUNT)


if __name__ == "__main__":
    import sys

    report(measure_size(int(sys.argv[1]) if len(sys.argv) > 1 else COUNT))
