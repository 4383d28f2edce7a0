"""Times in exported files: the same second in CSV and Excel, under a heading naming the zone."""

from __future__ import annotations

import csv
import io
import time
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

from cardviewer.services.card_columns import EXPORT_TIME_FORMAT
from cardviewer.services.card_export import write_cards_now
from tests.services.test_card_columns import card


@pytest.fixture
def in_berlin(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def written(tmp_path: Path, name: str) -> list[list[object]]:
    """Header and rows of the file `name` that the cards below are written to."""
    target = tmp_path / name
    cards = [
        card(updated_at="2024-04-20T08:00:00.500000Z"),
        card(updated_at="2024-12-31T22:59:59.999999Z"),
    ]
    write_cards_now(target, cards, with_emails=False)
    if target.suffix == ".xlsx":
        sheet = openpyxl.load_workbook(io.BytesIO(target.read_bytes())).active
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    with target.open(encoding="utf-8-sig", newline="") as handle:
        return [list(row) for row in csv.reader(handle)]


def test_csv_and_excel_write_the_same_second(in_berlin, tmp_path):
    text_rows, typed_rows = written(tmp_path, "cards.csv"), written(tmp_path, "cards.xlsx")
    updated = text_rows[0].index("Updated (Europe/Berlin)")
    texts = [row[updated] for row in text_rows[1:]]
    typed = [row[updated] for row in typed_rows[1:]]
    assert texts == ["2024-04-20 10:00:00", "2024-12-31 23:59:59"], "the fraction dropped"
    times = [value for value in typed if isinstance(value, datetime)]
    assert len(times) == len(typed)
    assert [value.strftime(EXPORT_TIME_FORMAT) for value in times] == texts
    assert all(value.microsecond == 0 for value in times)


@pytest.mark.parametrize("name", ["cards.csv", "cards.xlsx"])
def test_the_headings_of_times_name_the_zone(in_berlin, tmp_path, name):
    header = written(tmp_path, name)[0]
    assert "Created (Europe/Berlin)" in header
    assert "Updated (Europe/Berlin)" in header
    assert "Name" in header, "other headings are as they were"
