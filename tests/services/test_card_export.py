"""Writing cards in a format: every column the cards have, headed in English by default."""

from __future__ import annotations

import asyncio
import csv
import threading
from pathlib import Path

import openpyxl
import pytest

from cardviewer.api.models import parse_card
from cardviewer.services import card_export
from cardviewer.services.card_columns import ENGLISH_TITLES, ColumnTitles
from cardviewer.services.card_export import (
    ExportFormat,
    suggested_space_filename,
    write_cards,
    write_cards_now,
    write_table,
)
from cardviewer.services.card_store import CardStore
from cardviewer.services.stoppable import Stopped
from cardviewer.services.store_schema import StoreError, StoreProblem
from cardviewer.services.time_zone import local_zone_name
from tests.services.test_card_columns import card

ZONE = local_zone_name()
ENGLISH_HEADER = (
    "ID,Avatar URL,Name,Username,Position,Public,Connected cards,Connects,Subscriptions,"
    f"Created ({ZONE}),Updated ({ZONE})"
)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("cards.csv", ExportFormat.CSV),
        ("cards.XLSX", ExportFormat.XLSX),
        ("cards.xlsx", ExportFormat.XLSX),
        ("cards.txt", ExportFormat.CSV),
        ("cards.xml", ExportFormat.CSV),
        ("cards.zip", ExportFormat.CSV),
        ("cards", ExportFormat.CSV),
    ],
)
def test_the_suffix_decides_the_format(name, fmt):
    assert ExportFormat.of(Path(name)) is fmt


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("cards.csv", ExportFormat.CSV),
        ("cards.XLSX", ExportFormat.XLSX),
        ("cards.txt", None),
        ("cards", None),
        (".xlsx", None),
    ],
)
def test_the_suffix_names_a_format_or_none(name, fmt):
    assert ExportFormat.named_by(Path(name)) is fmt


@pytest.mark.parametrize(
    ("name", "fmt"), [("cards", ExportFormat.XLSX), ("cards.txt", ExportFormat.CSV)]
)
def test_a_format_given_is_written_at_the_name_as_it_is(tmp_path, name, fmt):
    target = tmp_path / name
    assert write_cards_now(target, [card()], with_emails=False, export_format=fmt) == 1
    assert [p.name for p in tmp_path.iterdir()] == [name]
    magic = b"PK" if fmt is ExportFormat.XLSX else b"\xef\xbb\xbf"
    assert target.read_bytes().startswith(magic)


@pytest.mark.parametrize(
    ("space", "fmt", "name"),
    [
        ("acme1EU01demo01", ExportFormat.CSV, "acme1EU01demo01-all.csv"),
        ("a/b:c", ExportFormat.XLSX, "a_b_c-all.xlsx"),
        ("..", ExportFormat.CSV, "cards-all.csv"),
    ],
)
def test_suggested_file_names(space, fmt, name):
    assert suggested_space_filename(space, fmt) == name


def test_csv_is_headed_in_english_and_written_as_text(tmp_path):
    target = tmp_path / "cards.csv"
    cards = [card(), card(display_name="=cmd", department="Sales")]
    assert write_cards_now(target, cards, with_emails=False, delimiter=";") == 2
    lines = target.read_bytes().decode("utf-8-sig").split("\r\n")
    assert lines[0] == ENGLISH_HEADER.replace(",", ";") + ";Department"
    assert lines[1].split(";")[0] == "c1", "the card's id comes first"
    assert lines[2].split(";")[2] == "'=cmd", "a formula-like cell is neutralised"
    assert lines[1].split(";")[5] == "yes"


def test_titles_given_head_the_file(tmp_path):
    target = tmp_path / "cards.csv"
    german = ColumnTitles({**ENGLISH_TITLES.by_key, "display_name": "Anzeigename"}, "Bild-URL")
    write_cards_now(target, [card()], with_emails=False, titles=german)
    header = target.read_bytes().decode("utf-8-sig").split("\r\n")[0].split(",")
    assert header[:3] == ["ID", "Bild-URL", "Anzeigename"]


def test_a_workbook_is_typed_and_titled(tmp_path):
    target = tmp_path / "cards.xlsx"
    assert asyncio.run(write_cards(target, [card()], with_emails=True, title="Acme")) == 1
    workbook = openpyxl.load_workbook(target)
    rows = [list(row) for row in workbook.active.iter_rows(values_only=True)]
    assert rows[0] == [*ENGLISH_HEADER.split(","), "E-mails"]
    assert rows[1][0] == "c1"
    assert rows[1][5] is True
    assert rows[1][7] == 1234
    assert workbook.properties.title == "Acme"


def test_a_file_that_cannot_be_written_raises_and_leaves_nothing(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_cards_now(tmp_path / "gone" / "cards.xlsx", [card()], with_emails=False)
    assert list(tmp_path.iterdir()) == []


def test_the_options_are_given_by_name(tmp_path):
    target = tmp_path / "cards.csv"
    with pytest.raises(TypeError):
        write_cards_now(target, [card()], True)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        asyncio.run(write_cards(target, [card()], True))  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        write_table(target, [], [], ExportFormat.CSV)  # type: ignore[call-arg]
    assert list(tmp_path.iterdir()) == []


def test_cards_of_a_local_copy_are_written_in_the_order_asked_a_block_at_a_time(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(card_export, "STORE_BLOCK", 2)  # several blocks of a few cards
    monkeypatch.setattr(card_export, "COLUMN_SAMPLE", 1)  # the field below is not sampled
    people = [parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(5)]
    people[4] = parse_card({"uuid": "c4", "display_name": "Person 4", "theme": "dark"})
    with CardStore.open(tmp_path / "space.sqlite") as store:
        sync = store.begin_sync(with_emails=True)
        sync.add(people)
        sync.finish()
    out = tmp_path / "shown.csv"
    count = card_export.write_stored_cards_now(
        out, tmp_path / "space.sqlite", [4, 0, 2, 3], delimiter=","
    )
    assert count == 4
    rows = list(csv.reader(out.read_text("utf-8-sig").splitlines()))
    assert rows[0][-2:] == ["E-mails", "Theme"]
    assert [row[0] for row in rows[1:]] == ["c4", "c0", "c2", "c3"]
    assert [row[2] for row in rows[1:]] == ["Person 4", "Person 0", "Person 2", "Person 3"]
    assert [row[-1] for row in rows[1:]] == ["dark", "", "", ""]


def test_cards_of_a_local_copy_tell_their_progress_and_stop_between_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(card_export, "STORE_BLOCK", 2)
    people = [parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(5)]
    with CardStore.open(tmp_path / "space.sqlite") as store:
        sync = store.begin_sync()
        sync.add(people)
        sync.finish()
    out = tmp_path / "shown.csv"
    told: list[int] = []
    card_export.write_stored_cards_now(
        out, tmp_path / "space.sqlite", range(5), painted=told.append
    )
    assert told == [2, 4, 5]
    out.write_text("the file before", "utf-8")
    stop = threading.Event()

    def stop_after_first_block(count: int) -> None:
        stop.set()

    with pytest.raises(Stopped):
        card_export.write_stored_cards_now(
            out, tmp_path / "space.sqlite", range(5), stop=stop, painted=stop_after_first_block
        )
    assert out.read_text("utf-8") == "the file before"
    assert sorted(path.name for path in tmp_path.iterdir() if "shown" in path.name) == ["shown.csv"]


def test_cards_of_the_copy_shown_are_written_though_a_newer_one_is_current(tmp_path):
    """A window's export keeps to the copy it shows, and tells when newer syncs removed it."""
    path = tmp_path / "space.sqlite"

    def synced(name: str) -> None:
        people = [parse_card({"uuid": f"c{n}", "display_name": f"{name} {n}"}) for n in range(3)]
        with CardStore.open(path) as store:
            sync = store.begin_sync()
            sync.add(people)
            sync.finish()

    synced("Old")
    with CardStore.open(path) as store:
        shown = store.current
    assert shown is not None
    synced("New")  # another program's sync: the copy shown is now the one before
    out = tmp_path / "shown.csv"
    card_export.write_stored_cards_now(out, path, [2, 0], generation=shown)
    rows = list(csv.reader(out.read_text("utf-8-sig").splitlines()))
    assert [row[2] for row in rows[1:]] == ["Old 2", "Old 0"]

    synced("Newer")  # and another: the copy shown is gone
    with pytest.raises(StoreError) as raised:
        card_export.write_stored_cards_now(out, path, [2, 0], generation=shown)
    assert raised.value.problem is StoreProblem.REPLACED
    assert [row[2] for row in csv.reader(out.read_text("utf-8-sig").splitlines())][1:] == [
        "Old 2",
        "Old 0",
    ], "the file before stays"


def test_cards_of_the_copy_shown_have_its_columns(tmp_path, monkeypatch):
    """The removed cards, of the copy before: a field only they had, past the cards read
    for the columns, had no column, as the current copy has no such field."""
    monkeypatch.setattr(card_export, "COLUMN_SAMPLE", 1)
    path = tmp_path / "space.sqlite"
    people = [
        parse_card({"uuid": "a", "display_name": "Ada"}),
        parse_card({"uuid": "b", "display_name": "Bob", "legacy_field": "only on Bob"}),
    ]
    with CardStore.open(path) as store:
        for batch in (people, people[:1]):
            sync = store.begin_sync()
            sync.add(batch)
            sync.finish()
        before = store.previous
    out = tmp_path / "removed.csv"
    card_export.write_stored_cards_now(out, path, [0, 1], generation=before)
    headings, *rows = csv.reader(out.read_text("utf-8-sig").splitlines())
    assert headings[-1] == "Legacy field"
    assert [row[-1] for row in rows] == ["", "only on Bob"]
