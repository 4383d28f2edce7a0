"""Excel workbooks: typed cells, text never becomes a formula, frozen header, atomic."""

from __future__ import annotations

import errno
import os
from datetime import datetime

import openpyxl
import pytest

from cardviewer.services.xlsx_export import MAX_WIDTH, CellValue, write_xlsx

HEADER = ["Name", "Public", "Connects", "Created", "Note"]
ROWS: list[list[CellValue]] = [
    ["José Sánchez Muñoz", True, 719, datetime(2019, 5, 9, 8, 30, 0), '=HYPERLINK("x")'],
    ["陈雪", False, 36, datetime(2019, 4, 18, 14, 0, 0), "line one\nline two"],
    ["Dr. Ana O'Neil, PhD", None, 2.5, None, "https://example.com"],
]


@pytest.fixture
def workbook(tmp_path):
    path = tmp_path / "cards.xlsx"
    assert write_xlsx(path, HEADER, ROWS, title="Acme") == 3
    return openpyxl.load_workbook(path)


def test_header_and_rows_read_back_typed(workbook):
    sheet = workbook.active
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert values[0] == HEADER
    assert values[1] == ROWS[0]
    assert values[2] == ROWS[1]
    assert values[3] == ["Dr. Ana O'Neil, PhD", None, 2.5, None, "https://example.com"]
    assert sheet["B2"].data_type == "b"
    assert sheet["C2"].data_type == "n"
    assert sheet["D2"].is_date


def test_text_that_looks_like_a_formula_stays_text(workbook):
    cell = workbook.active["E2"]
    assert cell.data_type == "s"
    assert cell.value == '=HYPERLINK("x")'
    assert workbook.active["E4"].hyperlink is None


def test_header_is_bold_frozen_and_filtered(workbook):
    sheet = workbook.active
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1])
    assert sheet.auto_filter.ref == "A1:E4"
    assert workbook.properties.title == "Acme"


def test_columns_are_as_wide_as_their_text_within_a_cap(tmp_path):
    path = tmp_path / "wide.xlsx"
    write_xlsx(path, ["A", "B"], [["x" * 30, "y" * 500]])
    sheet = openpyxl.load_workbook(path).active
    assert sheet.column_dimensions["A"].width == pytest.approx(31, abs=1)
    assert sheet.column_dimensions["B"].width == pytest.approx(MAX_WIDTH, abs=1)


def test_an_empty_table_is_a_header_only_workbook(tmp_path):
    path = tmp_path / "empty.xlsx"
    assert write_xlsx(path, HEADER, []) == 0
    rows = list(openpyxl.load_workbook(path).active.iter_rows(values_only=True))
    assert rows == [tuple(HEADER)]


def test_a_failed_write_leaves_the_earlier_file(tmp_path, monkeypatch):
    path = tmp_path / "cards.xlsx"
    write_xlsx(path, HEADER, ROWS)
    before = path.read_bytes()

    def disk_full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        write_xlsx(path, HEADER, ROWS[:1])
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.xlsx"]
