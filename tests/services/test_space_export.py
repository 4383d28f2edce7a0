"""Exporting a whole space: every page fetched, then one file; a failure writes nothing."""

from __future__ import annotations

import asyncio
import csv
from typing import Any

import openpyxl
import pytest

from cardviewer.api import CardPage
from cardviewer.api.errors import ServerError
from cardviewer.services.space_export import export_space
from cardviewer.services.space_fetch import FetchProgress
from tests.services.test_card_columns import card


def page(number: int, last: int, **fields: Any) -> CardPage:
    cards = (card(uuid=f"c{number}", display_name=f"Card {number}", **fields),)
    meta = {"current_page": number, "last_page": last, "per_page": 1, "total": last}
    return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})


def test_every_page_is_written_in_order_with_every_column(tmp_path):
    events: list[str] = []

    async def fetch(number: int) -> CardPage:
        events.append(f"fetch {number}")
        return page(number, 3, **({"department": "Sales"} if number == 3 else {}))

    def writing(count: int) -> None:
        events.append(f"writing {count}")

    progress: list[FetchProgress] = []
    target = tmp_path / "all.csv"
    count = asyncio.run(
        export_space(
            fetch,
            target,
            with_emails=False,
            concurrency=1,
            on_progress=progress.append,
            on_writing=writing,
        )
    )
    assert count == 3
    assert events == ["fetch 1", "fetch 2", "fetch 3", "writing 3"]
    assert progress[-1].pages_done == 3
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:3] == ["ID", "Avatar URL", "Name"]
    assert rows[0][-1] == "Department"
    assert [row[2] for row in rows[1:]] == ["Card 1", "Card 2", "Card 3"]
    assert [row[-1] for row in rows[1:]] == ["", "", "Sales"]


def test_a_failed_fetch_writes_nothing_and_keeps_an_earlier_file(tmp_path):
    target = tmp_path / "all.xlsx"
    target.write_bytes(b"earlier")
    writing: list[int] = []

    async def fetch(number: int) -> CardPage:
        if number == 2:
            raise ServerError("The server had a problem.", 500)
        return page(number, 4)

    with pytest.raises(ServerError):
        asyncio.run(export_space(fetch, target, with_emails=False, on_writing=writing.append))
    assert writing == []
    assert target.read_bytes() == b"earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["all.xlsx"]


def test_the_options_are_given_by_name(tmp_path):
    async def fetch(number: int) -> CardPage:
        return page(number, 1)

    with pytest.raises(TypeError):
        asyncio.run(export_space(fetch, tmp_path / "all.csv", True))  # type: ignore[call-arg]
    assert list(tmp_path.iterdir()) == []


def test_a_name_ending_in_xlsx_makes_a_workbook_of_typed_cells(tmp_path):
    async def fetch(number: int) -> CardPage:
        return page(number, 2)

    target = tmp_path / "all.xlsx"
    assert asyncio.run(export_space(fetch, target, with_emails=False)) == 2
    rows = list(openpyxl.load_workbook(target).active.iter_rows(values_only=True))
    assert [row[2] for row in rows[1:]] == ["Card 1", "Card 2"]
    assert rows[1][5] is True
    assert rows[1][7] == 1234
