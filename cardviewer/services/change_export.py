"""The cards a sync added, removed or changed, in one file to bring a CRM in step.

`cardviewer sync --changes FILE` writes it after each sync, for a scheduled job: a
first column says what happened to each card (`added`, `removed`, `changed`), the
others are an export's, the card's id first. A program reading it adds or updates the
added and changed cards by id and deletes the removed ones.

Each file says what changed since the copy the file before was written from, which
the store keeps until then (`CardStore.mark_changes_file`): a Sync Space in the window
between two runs of the job loses nothing. The first file for a copy lists every card
as added, for a reader that starts with none. Removed cards are as that kept copy had
them.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardviewer.services.card_columns import (
    ENGLISH_TITLES,
    Column,
    ColumnTitles,
    build_columns,
)
from cardviewer.services.card_export import (
    COLUMN_SAMPLE,
    ExportFormat,
    stored_cards,
    write_table,
)
from cardviewer.services.card_store import CardStore, damaged
from cardviewer.services.stoppable import check
from cardviewer.services.store_copies import CHANGE_ORDER, Change
from cardviewer.services.store_schema import (
    Generation,
    StoreError,
    StoreProblem,
    is_damage,
    passing_problem,
)

CHANGE_HEADING = "Change"
"""The heading of the first column; its cells are `Change` values (`added`, …)."""


@dataclass(frozen=True)
class ChangesWritten:
    """What a file of changes holds, and what the next one will start from."""

    counts: Mapping[Change, int]
    """Cards of each change in the file."""
    copy_lost: bool = False
    """The copy the file before was written from is gone (an older CardViewer removed
    it): this file lists every card as added, and cards removed since are not in it."""
    marked: bool = True
    """False: the copy written from was replaced meanwhile, and the next file repeats
    this one's changes."""
    first: bool = False
    """The first file written from this copy, which lists every card as added (not one
    whose copy before is lost, `copy_lost`)."""

    @property
    def cards(self) -> int:
        return sum(self.counts.values())


def write_changes_now(
    path: Path,
    store_path: Path,
    *,
    export_format: ExportFormat,
    delimiter: str = ",",
    titles: ColumnTitles = ENGLISH_TITLES,
    stop: threading.Event | None = None,
) -> ChangesWritten:
    """Write what changed in the copy at `store_path` since the last file to `path`, and
    remember its current copy as this file's.

    Cards are read a block at a time as they are written, `stop` looked at between
    blocks and once more before the copy is remembered (`Stopped`). Whenever it raises,
    the next file says what this one would have: `OSError` when the file cannot be
    written (an earlier file stays as it was), `StoreError` when the copy cannot be
    read, or cannot note that the file is written.
    """
    try:
        # Not made anew where it is gone (Remove Local Copies while the job ran): the
        # file would have been said written, with nothing in it.
        with CardStore.open(store_path, create=False) as store:
            current = store.current
            if current is None:
                raise StoreError(
                    "The local copy of this space holds no synced copy; the next sync makes one.",
                    StoreProblem.GONE,
                )
            lost = store.changes_file_copy_lost
            last = store.changes_file_copy
            parts = _parts(store, current, last)
            sample = store.cards_at(store.ordered(None, limit=COLUMN_SAMPLE), current)
            # Removed cards are as the copy before had them, with its fields.
            more_fields = in_file_order(
                store.changes_file_fields(), store.extra_fields(last, current)
            )
            columns = build_columns(
                list(sample.values()),
                with_emails=current.with_emails,
                titles=titles,
                more_fields=more_fields,
            )
            write_table(
                path,
                columns,
                _rows(store, parts, columns, export_format, stop),
                export_format=export_format,
                title=CHANGE_HEADING,
                delimiter=delimiter,
                titles=titles,
                first_heading=CHANGE_HEADING,
            )
            check(stop)
            marked = _marked(store, current, more_fields, path, stop)
    except sqlite3.Error as error:
        if is_damage(error):  # set aside: the next sync makes a new copy, and file
            raise damaged(store_path) from error
        raise StoreError(
            f"The changes could not be read from the local copy ({error}); the next "
            "file will hold them.",
            passing_problem(error) or StoreProblem.NOT_READ,
        ) from error
    counts = {change: len(positions) for change, _copy, positions in parts}
    first = last is None and not lost
    return ChangesWritten(counts, copy_lost=lost, marked=marked, first=first)


def in_file_order(kept: Sequence[str], fields: Sequence[str]) -> list[str]:
    """`fields` in the order the file before had its columns (`kept`), those new since
    after them: a card's keys sent in another order move no column, ever."""
    present = set(fields)
    ordered = [field for field in kept if field in present]
    listed = set(ordered)
    return [*ordered, *(field for field in fields if field not in listed)]


def _marked(
    store: CardStore,
    current: Generation,
    fields: Sequence[str],
    path: Path,
    stop: threading.Event | None,
) -> bool:
    """`mark_changes_file`, its failure said as the file's: written, but not noted."""
    try:
        return store.mark_changes_file(current, fields=fields, stop=stop)
    except sqlite3.Error as error:  # another program holds the store, say
        raise StoreError(
            f"{path} is written, but the local copy could not note it ({error}); the "
            "next file will hold these changes again.",
            passing_problem(error) or StoreProblem.NOT_WRITTEN,
        ) from error


def _parts(
    store: CardStore, current: Generation, last: Generation | None
) -> list[tuple[Change, Generation, list[int]]]:
    """Each change since the copy `last` (None: every card is new), the copy its cards
    are read from, and their positions there."""
    if last is None:
        return [(Change.ADDED, current, store.ordered(None))]
    parts = []
    for change in CHANGE_ORDER:
        copy = last if change is Change.REMOVED else current
        parts.append((change, copy, store.changed_between(change, current, last)))
    return parts


def _rows(
    store: CardStore,
    parts: Sequence[tuple[Change, Generation, list[int]]],
    columns: Sequence[Column],
    export_format: ExportFormat,
    stop: threading.Event | None,
) -> Iterator[list[Any]]:
    for change, copy, positions in parts:
        for card in stored_cards(store, positions, generation=copy, stop=stop):
            if export_format is ExportFormat.XLSX:
                yield [change.value, *(column.cell_value(card) for column in columns)]
            else:
                yield [change.value, *(column.export(card) for column in columns)]
