"""Writing cards to a CSV or Excel file with every column they have.

Shared by the page export, the whole-space export and `cardviewer export`. The
columns are decided from all the cards at once, so a field that only some cards have
still gets its column; many cards are written in a worker thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable, Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardviewer.services.card_columns import (
    ENGLISH_TITLES,
    Column,
    ColumnTitles,
    build_columns,
    export_header,
)
from cardviewer.services.card_store import CardStore
from cardviewer.services.csv_export import safe_file_stem, write_csv
from cardviewer.services.stoppable import Painted, check
from cardviewer.services.store_schema import Generation, StoreError, StoreProblem
from cardviewer.services.time_zone import local_zone_name
from cardviewer.services.xlsx_export import write_xlsx

if TYPE_CHECKING:
    from cardviewer.api.models import Card


COLUMN_SAMPLE = 200
"""Cards of a local copy whose values decide the kind of a field the specification lacks."""
STORE_BLOCK = 500
"""Cards read from a local copy at once while writing them."""


class ExportFormat(Enum):
    """The file types an export can write, by their suffix."""

    CSV = ".csv"
    XLSX = ".xlsx"

    @classmethod
    def of(cls, path: Path) -> ExportFormat:
        """The format a file name asks for; anything but `.xlsx` is CSV."""
        return cls.XLSX if path.suffix.lower() == cls.XLSX.value else cls.CSV

    @classmethod
    def named_by(cls, path: Path) -> ExportFormat | None:
        """The format the suffix of `path` names; None for a suffix that names none."""
        suffix = path.suffix.lower()
        return next((member for member in cls if member.value == suffix), None)


def suggested_space_filename(space_id: str, export_format: ExportFormat) -> str:
    """`<space>-all.csv` (or `.xlsx`), safe on Windows, macOS and Linux."""
    return f"{safe_file_stem(space_id)}-all{export_format.value}"


async def write_cards(
    path: Path,
    cards: list[Card],
    *,
    with_emails: bool,
    title: str = "",
    delimiter: str = ",",
    titles: ColumnTitles = ENGLISH_TITLES,
    export_format: ExportFormat | None = None,
) -> int:
    """Write `cards` in a worker thread, so many thousand do not freeze the window.

    Returns the number of rows; see `write_cards_now()`.
    """
    return await asyncio.to_thread(
        write_cards_now,
        path,
        cards,
        with_emails=with_emails,
        title=title,
        delimiter=delimiter,
        titles=titles,
        export_format=export_format,
    )


def write_cards_now(
    path: Path,
    cards: list[Card],
    *,
    with_emails: bool,
    title: str = "",
    delimiter: str = ",",
    titles: ColumnTitles = ENGLISH_TITLES,
    export_format: ExportFormat | None = None,
) -> int:
    """Write `cards` with every column they have; returns the number of rows.

    The format is `export_format`, else the one the suffix of `path` asks for
    (`ExportFormat.of`); the file is written at `path` as it is, never renamed.
    `delimiter` separates CSV cells, `title` names the workbook and `titles` head the
    columns and give a CSV file's flags their words. Times are local, to the second in
    both formats, and their headings name the zone. Raises `OSError` when the file
    cannot be written; an earlier file of that name then stays as it was.
    """
    columns = build_columns(cards, with_emails=with_emails, titles=titles)
    return _write_cards(
        path,
        columns,
        cards,
        export_format=export_format or ExportFormat.of(path),
        title=title,
        delimiter=delimiter,
        titles=titles,
    )


def write_stored_cards_now(
    path: Path,
    store_path: Path,
    positions: Sequence[int],
    *,
    title: str = "",
    delimiter: str = ",",
    titles: ColumnTitles = ENGLISH_TITLES,
    export_format: ExportFormat | None = None,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
    generation: Generation | None = None,
) -> int:
    """Write the cards at `positions` of the local copy at `store_path`, in that order.

    The cards are read a block at a time as they are written, so a whole space of
    100,000 cards is never in memory; the columns are those the window shows for it.
    Between blocks `painted` hears how many are written and `stop` ends it (`Stopped`,
    the earlier file left as it was). Otherwise as `write_cards_now()`. The cards are
    those of the copy `generation` (the one shown) when given, else the current one.
    """
    with CardStore.open(store_path, create=False) as store:
        copy = generation or store.current
        columns = build_columns(
            list(store.cards_at(positions[:COLUMN_SAMPLE], copy).values()),
            with_emails=copy is not None and copy.with_emails,
            titles=titles,
            more_fields=store.extra_fields(copy),
        )

        return _write_cards(
            path,
            columns,
            stored_cards(store, positions, generation=copy, stop=stop, painted=painted),
            export_format=export_format or ExportFormat.of(path),
            title=title,
            delimiter=delimiter,
            titles=titles,
        )


def stored_cards(
    store: CardStore,
    positions: Sequence[int],
    *,
    generation: Generation | None = None,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
) -> Iterator[Card]:
    """The cards at `positions` of the copy `generation` (default: the current one), in
    that order, read `STORE_BLOCK` at a time.

    Before each block `stop` is looked at (`Stopped`); after each, `painted` hears how
    many positions are done. A copy that newer syncs have removed meanwhile ends it
    (`StoreError`, `StoreProblem.REPLACED`) rather than leave its cards out.
    """
    for start in range(0, len(positions), STORE_BLOCK):
        check(stop)
        block = positions[start : start + STORE_BLOCK]
        found = store.cards_at(block, generation)
        if (
            generation is not None
            and len(found) < len(block)
            and store.kept_copy(generation.id) is None
        ):
            raise StoreError(
                f"copy {generation.id} was replaced by newer syncs", StoreProblem.REPLACED
            )
        yield from (found[position] for position in block if position in found)
        if painted is not None:
            painted(start + len(block))


def _write_cards(
    path: Path,
    columns: Sequence[Column],
    cards: Iterable[Card],
    *,
    export_format: ExportFormat,
    title: str,
    delimiter: str,
    titles: ColumnTitles,
) -> int:
    if export_format is ExportFormat.XLSX:
        rows: Iterable[list[Any]] = (
            [column.cell_value(card) for column in columns] for card in cards
        )
    else:
        rows = ([column.export(card) for column in columns] for card in cards)
    return write_table(
        path,
        columns,
        rows,
        export_format=export_format,
        title=title,
        delimiter=delimiter,
        titles=titles,
    )


def write_table(
    path: Path,
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    *,
    export_format: ExportFormat,
    title: str = "",
    delimiter: str = ",",
    titles: ColumnTitles = ENGLISH_TITLES,
    first_heading: str | None = None,
) -> int:
    """Write the header of `columns` and `rows`, cells made for `export_format`.

    The rows are read once, one at a time, so they may come from a spool on disk
    (`ExportSpool`); see `write_cards_now` for the rest. With `first_heading`, each row
    starts with a cell of a column of that name, before those of `columns`.
    """
    header = export_header(columns, titles, zone=local_zone_name())
    if first_heading is not None:
        header = [first_heading, *header]
    if export_format is ExportFormat.XLSX:
        return write_xlsx(path, header, rows, title=title)
    return write_csv(path, header, rows, delimiter=delimiter)
