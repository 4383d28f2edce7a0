"""The spool of a whole-space export gives back exactly the rows written without it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import openpyxl
import pytest

from cardviewer.api import CardPage
from cardviewer.api.models import Card
from cardviewer.services.card_columns import ENGLISH_TITLES, ColumnTitles
from cardviewer.services.card_export import write_cards_now
from cardviewer.services.export_spool import ExportSpool
from cardviewer.services.space_export import export_space
from tests.services.test_card_columns import card

pytestmark = pytest.mark.anyio

GERMAN = ColumnTitles(
    {**ENGLISH_TITLES.by_key, "display_name": "Name", "theme": "Design"},
    avatar_url="Avatar-URL",
    yes="ja",
    no="nein",
)


@pytest.fixture
def anyio_backend():
    return "asyncio"


def space_cards() -> list[Card]:
    """Cards whose extra fields differ, one appearing only on the very last card."""
    cards = [
        card(uuid=f"c{n}", display_name=f"Person {n}", public=n % 2 == 0, connects=n)
        for n in range(23)
    ]
    cards[3] = card(uuid="c3", theme="dark", is_business=True)
    cards[10] = card(uuid="c10", is_business=False, subscriptions=[{"plan": "team", "seats": 3}])
    cards[-1] = card(uuid="c22", favourite_colour="green", theme={"name": "light"})
    return cards


def pages_of(cards: list[Card], per_page: int = 10) -> dict[int, CardPage]:
    chunks = [cards[n : n + per_page] for n in range(0, len(cards), per_page)]
    last = len(chunks)
    return {
        number: CardPage.model_validate(
            {
                "cards": tuple(chunk),
                "meta": {
                    "current_page": number,
                    "last_page": last,
                    "per_page": per_page,
                    "total": len(cards),
                },
                "links": {},
            }
        )
        for number, chunk in enumerate(chunks, start=1)
    }


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
@pytest.mark.parametrize("titles", [ENGLISH_TITLES, GERMAN], ids=["english", "german"])
async def test_the_spooled_export_is_the_export_of_every_card_at_once(tmp_path, suffix, titles):
    cards = space_cards()
    pages = pages_of(cards)

    async def fetch(number: int) -> CardPage:
        return pages[number]

    streamed, whole = tmp_path / f"streamed{suffix}", tmp_path / f"whole{suffix}"
    count = await export_space(
        fetch, streamed, with_emails=True, titles=titles, delimiter=";", title="t"
    )
    assert count == len(cards)
    write_cards_now(whole, cards, with_emails=True, titles=titles, delimiter=";", title="t")
    if suffix == ".csv":
        assert streamed.read_bytes() == whole.read_bytes()
    else:
        assert sheet_values(streamed) == sheet_values(whole)
    header = sheet_values(streamed)[0] if suffix == ".xlsx" else None
    if header is not None:
        assert header[-3:] == [titles.by_key["theme"], "Is business", "Favourite colour"]


def sheet_values(path: Path) -> list[list[object]]:
    sheet = openpyxl.load_workbook(path).active
    assert sheet is not None
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def test_rows_come_back_in_order_with_a_cell_for_every_column():
    cards = space_cards()
    with ExportSpool(with_emails=False, typed=False) as spool:
        spool.add(cards[:10])
        spool.add(cards[10:])
        columns = spool.columns()
        rows = list(spool.rows())
    assert spool.count == len(cards)
    keys = [column.key for column in columns]
    assert keys[-3:] == ["theme", "is_business", "favourite_colour"]
    assert all(len(row) == len(columns) for row in rows)
    name = keys.index("display_name")
    assert [row[name] for row in rows] == [c.display_name or "" for c in cards]
    assert rows[3][-3:] == ["dark", "yes", ""]
    assert rows[-1][-3:] == ['{"name":"light"}', "", "green"]


def test_a_workbook_spool_keeps_cells_typed():
    with ExportSpool(with_emails=False, typed=True) as spool:
        spool.add([card(uuid="c1", is_business=True)])
        row = next(spool.rows())
    assert row[-1] is True
    assert None in row  # a missing value stays empty, not ""


def test_the_spool_leaves_no_file_with_a_name_behind_or_meanwhile(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the spool goes
    with ExportSpool(with_emails=True, typed=False) as spool:
        spool.add(space_cards())
        assert list(tmp_path.iterdir()) == []  # no name another user could open
        assert len(list(spool.rows())) == len(space_cards())
    assert list(tmp_path.iterdir()) == []
