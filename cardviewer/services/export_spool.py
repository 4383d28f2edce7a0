"""The rows of a whole-space export, kept on disk until every page is in.

A file's columns cover every card, so its header is known only when the last page has
arrived: a field that only the last card has still gets its column. Keeping every card
until then would hold the whole space in memory (gigabytes for 100,000 cards). The
spool turns each page's cards into their cells as the page arrives, keeps them in an
unnamed temporary file (readable by this user only, gone when closed), remembers which
fields the specification does not list appeared, in order, and reads the rows back
once, with every column, to be written.

The cells are the ones `write_cards_now` writes: text for CSV (`Column.export`),
typed cells for a workbook (`Column.cell_value`).
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator, Sequence
from typing import IO, Any

from cardviewer.api.models import Card
from cardviewer.services.card_columns import (
    ENGLISH_TITLES,
    Column,
    ColumnTitles,
    build_columns,
    title_from_key,
)
from cardviewer.services.file_errors import in_temporary_folder

_Row = tuple[list[Any], dict[str, Any] | None]


class ExportSpool:
    """Cells of the cards added so far, on disk; `rows()` gives them back with every column."""

    def __init__(
        self, *, with_emails: bool, typed: bool, titles: ColumnTitles = ENGLISH_TITLES
    ) -> None:
        self._typed = typed
        self._titles = titles
        self._fixed = build_columns((), with_emails=with_emails, titles=titles)
        self._extra: dict[str, Column] = {}
        self._missing: Any = None if typed else ""
        with in_temporary_folder():
            self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._batches = 0
        self.count = 0

    def add(self, cards: Sequence[Card]) -> None:
        """Turn `cards` into cells and put them on disk."""
        rows: list[_Row] = []
        for card in cards:
            cells = [self._cell(column, card) for column in self._fixed]
            extra = card.model_extra
            rows.append((cells, self._extra_cells(card, extra) if extra else None))
        # One pickle per page, each on its own: a shared pickler's memo would keep
        # every row alive.
        with in_temporary_folder():
            pickle.dump(rows, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._batches += 1
        self.count += len(rows)

    def columns(self) -> list[Column]:
        """Every column of the cards added: the known ones, then the others as they came."""
        return [*self._fixed, *self._extra.values()]

    def rows(self) -> Iterator[list[Any]]:
        """The rows, in the order their cards were added, one cell per column of `columns()`."""
        keys = list(self._extra)
        missing = self._missing
        with in_temporary_folder():
            self._file.flush()
            self._file.seek(0)
        for _ in range(self._batches):
            with in_temporary_folder():
                batch: list[_Row] = pickle.load(self._file)  # our own file, nobody else's
            for cells, extra in batch:
                if keys:
                    known = extra or {}
                    cells.extend(known.get(key, missing) for key in keys)
                yield cells

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ExportSpool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _cell(self, column: Column, card: Card) -> Any:
        return column.cell_value(card) if self._typed else column.export(card)

    def _extra_cells(self, card: Card, extra: dict[str, Any]) -> dict[str, Any]:
        cells = {}
        for key in extra:
            column = self._extra.get(key)
            if column is None:
                title = self._titles.by_key.get(key) or title_from_key(key)
                column = Column(
                    key, title, extra=True, flag_words=(self._titles.yes, self._titles.no)
                )
                self._extra[key] = column
            cells[key] = self._cell(column, card)
        return cells
