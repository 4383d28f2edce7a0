"""Writing cards to a CSV or Excel file with every column they have.

Shared by the "Export All Pages" dialog and the command-line export. The columns are
decided from all the cards at once, so a field that only some cards have still gets
its column; rows are made and written in a worker thread.
"""

from __future__ import annotations

import asyncio
import re
from enum import Enum
from pathlib import Path

from cardviewer.api.models import Card
from cardviewer.services.csv_export import write_csv
from cardviewer.services.xlsx_export import write_xlsx
from cardviewer.ui.cards.columns import Column, build_columns, export_header

_UNSAFE_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]')


class ExportFormat(Enum):
    """The file types an export can write, by their suffix."""

    CSV = ".csv"
    XLSX = ".xlsx"

    @classmethod
    def of(cls, path: Path) -> ExportFormat:
        """The format a file name asks for; anything but `.xlsx` is CSV."""
        return cls.XLSX if path.suffix.lower() == cls.XLSX.value else cls.CSV


def suggested_space_filename(space_id: str, export_format: ExportFormat) -> str:
    """`<space>-all.csv` (or `.xlsx`), safe on Windows, macOS and Linux."""
    space = _UNSAFE_IN_FILE_NAMES.sub("_", space_id).strip(" .")[:150].rstrip(" .") or "cards"
    return f"{space}-all{export_format.value}"


async def write_cards(path: Path, cards: list[Card], *, with_emails: bool, title: str = "") -> int:
    """Write `cards` with every column they have; returns the number of rows.

    The columns are decided here; the rows are made and written in a worker thread,
    so a workbook of many thousand cards does not freeze the window.
    """
    columns = build_columns(cards, with_emails=with_emails)
    header = export_header(columns)
    return await asyncio.to_thread(_write, path, header, columns, cards, title)


def _write(
    path: Path, header: list[str], columns: list[Column], cards: list[Card], title: str
) -> int:
    if ExportFormat.of(path) is ExportFormat.XLSX:
        rows_typed = ([column.cell_value(card) for column in columns] for card in cards)
        return write_xlsx(path, header, rows_typed, title=title)
    rows = ([column.export(card) for column in columns] for card in cards)
    return write_csv(path, header, rows)
