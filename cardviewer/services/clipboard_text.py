"""Cells as text that pastes into a spreadsheet as a grid, and a whole space's rows so.

How the text is written:

- Cells are separated by tabs and rows by line feeds, with no line end after the last
  row, so a single cell pastes into a text field without a trailing line break. Qt
  writes the system's line ends (CRLF on Windows) to the clipboard itself.
- A cell containing a tab or a line break, or starting with a double quote, is put in
  double quotes with its quotes doubled. Excel, LibreOffice and Google Sheets read
  that as one cell and keep the line break; replacing the breaks by spaces would
  change the value.
- Cells pass the same formula guard as the CSV export (`neutralize_formula`): text
  from the server that starts like a formula gets a leading `'`, so pasting it into
  a spreadsheet never runs it. Copying is mostly done to paste into a spreadsheet,
  and a paste there is parsed like typed input. Plain numbers such as `-3` are
  left as they are: they cannot run anything and should stay numbers.

Rows of a synced space are copied from its local copy (`StoredRows`), a block of cards
at a time on a worker thread: all 100,000 of them take seconds, which the window's
thread must not spend.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cardviewer.services.card_columns import Column
from cardviewer.services.card_export import STORE_BLOCK
from cardviewer.services.card_store import CardStore
from cardviewer.services.csv_export import neutralize_formula
from cardviewer.services.stoppable import Painted, check

CELL_SEPARATOR = "\t"
LINE_END = "\n"
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def clipboard_cell(text: str) -> str:
    """One cell as clipboard text: formula-guarded, quoted when it would break the grid."""
    if not _PLAIN_NUMBER.fullmatch(text):
        text = neutralize_formula(text)
    if text.startswith('"') or "\t" in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def grid_text(rows: Sequence[Sequence[str]]) -> str:
    """Rows of cell texts as tab-separated lines (see `clipboard_cell`)."""
    return LINE_END.join(CELL_SEPARATOR.join(clipboard_cell(cell) for cell in row) for row in rows)


class CopyOutdated(Exception):
    """The copy the rows were chosen in is no longer kept: newer syncs replaced it."""


@dataclass(frozen=True)
class StoredRows:
    """Rows of a synced space to copy as a grid: the cards at `positions` of the copy
    `generation` at `store_path`, in that order.

    `columns` are the grid's columns in the order shown; `chosen` holds, for each row,
    the indexes of the columns selected in it (the others stay blank), and `titles`,
    if given, head the grid.
    """

    store_path: Path
    generation: int
    positions: Sequence[int]
    columns: Sequence[Column]
    chosen: Sequence[frozenset[int]]
    titles: Sequence[str] | None = None

    def text(self, *, stop: threading.Event | None = None, painted: Painted | None = None) -> str:
        """The grid, read `STORE_BLOCK` cards at a time; `painted` hears the rows done.

        Raises `Stopped` once `stop` is set, `CopyOutdated` if the copy the rows were
        chosen in is no longer kept, `StoreError` or `sqlite3.Error` if it cannot be
        read. That copy need not be the current one: the window shows its copy until
        it follows a newer sync, and the cards a sync removed are read from the copy
        before it.
        """
        lines: list[str] = []
        if self.titles is not None:
            lines.append(CELL_SEPARATOR.join(map(clipboard_cell, self.titles)))
        with CardStore.open(self.store_path, create=False) as store, store.snapshot():
            copy = store.kept_copy(self.generation)
            if copy is None:
                raise CopyOutdated(f"copy {self.generation} is no longer kept")
            for start in range(0, len(self.positions), STORE_BLOCK):
                check(stop)
                block = self.positions[start : start + STORE_BLOCK]
                found = store.cards_at(block, copy)
                for chosen, position in zip(self.chosen[start:], block, strict=False):
                    card = found.get(position)
                    lines.append(
                        CELL_SEPARATOR.join(
                            clipboard_cell(column.export(card))
                            if card is not None and n in chosen
                            else ""
                            for n, column in enumerate(self.columns)
                        )
                    )
                if painted is not None:
                    painted(start + len(block))
        return LINE_END.join(lines)
