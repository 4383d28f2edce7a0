"""Exporting a synced space of 100,000 cards from its local copy: memory and time.

What Export Cards Shown does while the whole space is shown, in a process of its own
(`export_child.py`), to CSV and to Excel. The baseline is the script anyone would write
first over the same copy: `sqlite3` reading each card's JSON in order and the `csv`
module writing its fields, run in the same pass.

Targets: at most 200 MB resident for CSV and for Excel (the cards are read a block at
a time as they are written); the time is shown against the plain script's, not judged
(the app writes every column, in the reader's formats).
"""

from __future__ import annotations

import sys
import tempfile

from bench.bench_export_space import MEMORY_LIMIT_MB, run_child
from bench.bench_space_store import store_for
from bench.common import Result, report

CARDS = 100_000


def measure(cards: int = CARDS) -> list[Result]:
    import os

    store = store_for(cards)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        plain_time, plain_peak = run_child(
            "plain-store", str(store), f"{folder}/plain.csv", env=env
        )
        app = {
            suffix: run_child("store", str(store), f"{folder}/all.{suffix}", env=env)
            for suffix in ("csv", "xlsx")
        }
    name = f"export {cards:,} cards from the local copy"
    results = []
    for suffix, title in (("csv", "CSV"), ("xlsx", "Excel")):
        seconds, peak = app[suffix]
        results += [
            Result(
                f"{name} to {title}: peak memory, vs the plain script's",
                peak,
                plain_peak,
                "MB",
                f"≤ {MEMORY_LIMIT_MB:.0f} MB",
                peak <= MEMORY_LIMIT_MB,
            ),
            Result(
                f"{name} to {title}: time, vs a plain sqlite3 + csv script",
                seconds,
                plain_time,
                "s",
                "shown, not judged",
                None,
            ),
        ]
    return results


if __name__ == "__main__":
    report(measure(int(sys.argv[1]) if sys.argv[1:] else CARDS))
