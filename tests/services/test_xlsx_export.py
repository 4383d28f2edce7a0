"""Excel workbooks: typed cells, text never becomes a formula, frozen header, atomic."""

from __future__ import annotations

import errno
import os
import zipfile
from datetime import datetime, timedelta, timezone

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


def test_integers_of_twelve_digits_and_more_show_every_digit(tmp_path):
    """Excel's General format showed 123456789012 as 1.23457E+11; shorter ones keep it."""
    path = tmp_path / "ids.xlsx"
    numbers = [12345678901, 123456789012, -123456789012, 999_999_999_999_999, 2.5]
    write_xlsx(path, ["n"], [[number] for number in numbers])
    sheet = openpyxl.load_workbook(path).active
    cells = [row[0] for row in sheet.iter_rows(min_row=2)]
    assert [cell.value for cell in cells] == numbers
    assert [cell.number_format for cell in cells] == ["General", "0", "0", "0", "General"]


def test_a_time_before_excels_calendar_is_written_as_text(tmp_path):
    """0001-01-01, a server's placeholder, was a negative serial: an error cell."""
    path = tmp_path / "old.xlsx"
    times = [datetime(1, 1, 1), datetime(1899, 12, 31, 1, 0), datetime(1900, 3, 1)]
    write_xlsx(path, ["t"], [[time] for time in times])
    cells = [row[0] for row in openpyxl.load_workbook(path).active.iter_rows(min_row=2)]
    assert [cell.value for cell in cells] == [
        "0001-01-01 00:00:00",
        "1899-12-31 01:00:00",
        datetime(1900, 3, 1),
    ]


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


def widths(path) -> dict[str, int]:
    """Each column's width in characters, as Excel shows it (without its padding)."""
    sheet = openpyxl.load_workbook(path).active
    return {letter: int(dim.width) for letter, dim in sheet.column_dimensions.items()}


def test_each_kind_of_value_gets_the_width_it_needs(tmp_path):
    """Header text plus 2, at least 6; numbers and text plus 1; dates 20; flags 6."""
    path = tmp_path / "widths.xlsx"
    header = ["Id", "Connects", "Created", "On", "Note", "Sh"]
    row: list[CellValue] = [1234567890, 5, datetime(2020, 1, 1), True, "x" * 30, "ab"]
    write_xlsx(path, header, [row])
    assert widths(path) == {"A": 11, "B": 10, "C": 20, "D": 6, "E": 31, "F": 6}


def test_text_is_as_wide_as_its_longest_line_and_capped_at_sixty(tmp_path):
    """A multi-line value needs its longest line, plus 1; nothing is wider than 60."""
    path = tmp_path / "lines.xlsx"
    write_xlsx(path, ["A", "B", "C", "D"], [["ab\n" + "c" * 9 + "\nd", "y" * 60, "z", "w" * 59]])
    assert widths(path) == {"A": 10, "B": 60, "C": 6, "D": 60}


def test_cells_beyond_the_header_get_their_own_widths(tmp_path):
    """A row longer than the header widens columns of its own; an empty one takes no room."""
    path = tmp_path / "beyond.xlsx"
    write_xlsx(path, ["A"], [["a", "text", True, 12, ""], ["b"]])
    assert widths(path) == {"A": 6, "B": 5, "C": 6, "D": 3, "E": 0}
    rows = list(openpyxl.load_workbook(path).active.iter_rows(values_only=True))
    assert rows[1] == ("a", "text", True, 12)


def test_text_longer_than_excel_allows_is_cut_at_its_limit(tmp_path):
    """Excel holds at most 32,767 characters in a cell; a longer value keeps exactly that many."""
    path = tmp_path / "long.xlsx"
    write_xlsx(path, ["Note"], [["x" * 40_000]])
    assert openpyxl.load_workbook(path).active["A2"].value == "x" * 32_767


def test_a_time_with_a_zone_is_written_as_its_wall_clock_time(tmp_path):
    """Excel has no zones: an aware time is written as the clock showed it, not refused."""
    path = tmp_path / "zoned.xlsx"
    summer_in_berlin = timezone(timedelta(hours=2))
    write_xlsx(path, ["Created"], [[datetime(2020, 1, 1, 8, 30, tzinfo=summer_in_berlin)]])
    assert openpyxl.load_workbook(path).active["A2"].value == datetime(2020, 1, 1, 8, 30)


def test_rows_are_written_out_as_they_come(tmp_path):
    """Constant-memory mode: text is written inline in each row, with no table of all strings."""
    path = tmp_path / "streamed.xlsx"
    write_xlsx(path, HEADER, ROWS)
    with zipfile.ZipFile(path) as workbook:
        assert "xl/sharedStrings.xml" not in workbook.namelist()


def test_the_title_is_only_taken_by_name(tmp_path):
    """A fourth positional argument is refused rather than taken as the title."""
    with pytest.raises(TypeError):
        write_xlsx(tmp_path / "x.xlsx", HEADER, ROWS, "Acme")  # type: ignore[call-arg]


def test_a_lone_surrogate_a_server_sent_is_written_as_a_question_mark(tmp_path):
    """UTF-8 cannot carry it: it ended the export with a `UnicodeEncodeError`."""
    path = tmp_path / "cards.xlsx"
    rows: list[list[CellValue]] = [["Broken \ud83e escape", "ok"], ["José", "陈雪"]]
    assert write_xlsx(path, ["Name", "field \udc00"], rows) == 2
    values = [list(row) for row in openpyxl.load_workbook(path).active.iter_rows(values_only=True)]
    assert values == [["Name", "field ?"], ["Broken ? escape", "ok"], ["José", "陈雪"]]
