"""Saving a table as an Excel workbook with typed cells, a frozen header and fitting widths.

Numbers, flags and times are written as such, so Excel sums, filters and sorts them
without "number stored as text" warnings. Text is always written as text: a value
from the server that starts with `=` is never turned into a formula, nor a URL-like
value into a link. The workbook is built in memory and replaces the file in one step.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cardviewer.services.atomic_file import write_atomically

if TYPE_CHECKING:
    import xlsxwriter.format
    import xlsxwriter.worksheet

CellValue = str | int | float | bool | datetime | None
DATE_FORMAT = "yyyy-mm-dd hh:mm:ss"
MIN_WIDTH = 6
MAX_WIDTH = 60
DATE_WIDTH = 20
SHEET_NAME = "Cards"
# Excel's limit for one cell; longer text is cut rather than making the file unreadable.
MAX_CELL_TEXT = 32_767


_NUMBERS = (int, float)
"""A tuple, not `int | float`, which `isinstance` would build anew for every cell."""
FIRST_DATE = datetime(1900, 3, 1)
"""Excel's dates begin in 1900, and count a 29 February 1900 that never was, which
LibreOffice does not: a time before March 1900 would be read as another day there (a
placeholder such as 0001-01-01 as an error), and is written as text."""
SHOWN_WHOLE = 10**11
"""From 12 digits on, Excel's General format shows an integer as 1.23457E+11; such
integers get a whole-number format, which shows every digit."""


def write_xlsx(
    path: Path, header: Sequence[str], rows: Iterable[Sequence[CellValue]], *, title: str = ""
) -> int:
    """Write `header` and `rows` to the workbook at `path`; returns the rows written.

    Raises `OSError` when the file cannot be written (an earlier file stays intact).
    """
    # Imported when a workbook is written: XlsxWriter takes about 25 ms to import.
    import xlsxwriter

    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(
        buffer,
        {
            # Each row goes to a temporary file as it is written, not kept as cells:
            # a whole space's workbook needs little more memory than one row.
            "constant_memory": True,
            "strings_to_formulas": False,
            "strings_to_urls": False,
            "strings_to_numbers": False,
            "remove_timezone": True,
        },
    )
    if title:
        workbook.set_properties({"title": title})
    sheet = workbook.add_worksheet(SHEET_NAME)
    bold = workbook.add_format({"bold": True})
    date = workbook.add_format({"num_format": DATE_FORMAT})
    whole = workbook.add_format({"num_format": "0"})
    widths = [max(MIN_WIDTH, len(text) + 2) for text in header]
    for column, text in enumerate(header):
        sheet.write_string(0, column, _encodable(text), bold)
    count = 0
    for count, row in enumerate(rows, start=1):
        for column, value in enumerate(row):
            width = _write(sheet, count, column, value, date, whole)
            if column < len(widths):
                widths[column] = max(widths[column], width)
            else:
                widths.append(width)
    for column, width in enumerate(widths):
        sheet.set_column(column, column, min(width, MAX_WIDTH))
    sheet.freeze_panes(1, 0)
    if header:
        sheet.autofilter(0, 0, count, len(header) - 1)
    workbook.close()
    write_atomically(Path(path), buffer.getvalue())
    return count


def _write(
    sheet: xlsxwriter.worksheet.Worksheet,
    row: int,
    column: int,
    value: CellValue,
    date: xlsxwriter.format.Format,
    whole: xlsxwriter.format.Format,
) -> int:
    """Write one typed cell; returns the width it needs in characters."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool):
        sheet.write_boolean(row, column, value)
        return 6
    if isinstance(value, _NUMBERS):
        if isinstance(value, int) and not -SHOWN_WHOLE < value < SHOWN_WHOLE:
            sheet.write_number(row, column, value, whole)  # every digit, not 1.23457E+11
        else:
            sheet.write_number(row, column, value)
        return len(str(value)) + 1
    if isinstance(value, datetime):
        if value.replace(tzinfo=None) < FIRST_DATE:  # before Excel's calendar
            sheet.write_string(row, column, f"{value.year:04}-{value:%m-%d %H:%M:%S}")
        else:
            sheet.write_datetime(row, column, value, date)
        return DATE_WIDTH
    text = _encodable(value[:MAX_CELL_TEXT])
    sheet.write_string(row, column, text)
    return max((len(line) for line in text.splitlines()), default=0) + 1


def _encodable(text: str) -> str:
    """`text` with a lone surrogate (a broken escape a server sent) as "?", as in CSV.

    The workbook is UTF-8, which cannot carry one: written as it is, it ended the
    export with a `UnicodeEncodeError` once its row was stored, a row or so later.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text
