"""Exporting a whole space: every card once, in order, typed; Cancel and failures leave no file."""

from __future__ import annotations

import asyncio
import csv
import itertools
import math
import threading

import openpyxl
import pytest
from PySide6.QtCore import QLocale, Qt

from cardviewer import i18n
from cardviewer.api import CardPage, CardsClient
from cardviewer.api.errors import ServerError
from cardviewer.api.models import parse_card
from cardviewer.services.card_store import CardStore
from cardviewer.services.csv_export import neutralize_formula
from cardviewer.services.space_fetch import FetchProgress
from cardviewer.services.store_sync import StoreSync
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.plain_text import plain_tooltip

WAIT = 20_000


@pytest.fixture
def client(demo_server, arun):
    client = CardsClient(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    yield client
    arun(client.aclose())


def fetcher(client: CardsClient, space_id: str, *, with_emails: bool = False):
    async def fetch(number: int) -> CardPage:
        return await client.list_cards(space_id, number, with_emails=with_emails)

    return fetch


def all_names(arun, client, space_id) -> list[str]:
    async def collect() -> list[str]:
        names: list[str] = []
        for number in range(1, 25):
            page = await client.list_cards(space_id, number)
            names.extend(card.display_name or "" for card in page.cards)
        return names

    result: list[str] = arun(collect())
    return result


def test_csv_of_the_whole_space(qtbot, arun, client, demo_server, tmp_path):
    target = tmp_path / "all.csv"
    dialog = ExportAllDialog(
        fetcher(client, demo_server.space_id, with_emails=True),
        target,
        space_id=demo_server.space_id,
        with_emails=True,
    )
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Export All Pages"
    assert dialog.title_label.text() == f"Exporting all cards of {demo_server.space_id}"
    assert dialog.file_label.text() == "To all.csv"
    assert dialog.file_label.toolTip() == plain_tooltip(str(target))
    assert arun(dialog.run(), timeout=WAIT) == 240
    assert dialog.progress_label.text() == "Writing 240 cards…"
    assert not dialog.cancel_button.isEnabled()
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:3] == ["ID", "Avatar URL", "Name"]
    assert "E-mails" in rows[0]
    expected = all_names(arun, client, demo_server.space_id)
    assert [row[2] for row in rows[1:]] == [neutralize_formula(name) for name in expected]
    assert not dialog.isVisible()


def test_xlsx_of_the_whole_space_is_typed(qtbot, arun, client, demo_server, tmp_path):
    target = tmp_path / "all.xlsx"
    dialog = ExportAllDialog(
        fetcher(client, demo_server.space_id),
        target,
        space_id=demo_server.space_id,
        with_emails=False,
    )
    qtbot.addWidget(dialog)
    assert arun(dialog.run(), timeout=WAIT) == 240
    sheet = openpyxl.load_workbook(target).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 241
    header = list(rows[0])
    connects = header.index("Connects")
    public = header.index("Public")
    assert all(isinstance(row[connects], int) for row in rows[1:])
    assert all(isinstance(row[public], bool) for row in rows[1:])
    assert sheet.freeze_panes == "A2"


def test_a_field_seen_only_on_a_later_page_gets_its_column(qtbot, arun, tmp_path):
    base = {
        "uuid": "c",
        "username": "u",
        "display_name": "Name",
        "public": True,
        "connected_cards": 1,
        "connects": 2,
        "subscriptions": None,
        "created_at": "2024-04-19T22:53:03.000000Z",
        "updated_at": "2024-04-19T22:53:03.000000Z",
    }

    async def fetch(number: int) -> CardPage:
        extra = {"department": "Sales"} if number == 3 else {}
        card = {**base, "uuid": f"c{number}", "display_name": f"Card {number}", **extra}
        cards = (parse_card(card),)
        meta = {"current_page": number, "last_page": 3, "per_page": 1, "total": 3}
        return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})

    target = tmp_path / "all.csv"
    dialog = ExportAllDialog(fetch, target, space_id="s", with_emails=False)
    qtbot.addWidget(dialog)
    assert arun(dialog.run()) == 3
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][-1] == "Department"
    assert [row[-1] for row in rows[1:]] == ["", "", "Sales"]


def test_cancel_writes_nothing_and_keeps_an_earlier_file(qtbot, arun, qloop, tmp_path):
    target = tmp_path / "all.csv"
    target.write_text("earlier export", encoding="utf-8")
    started = asyncio.Event()

    async def fetch(number: int) -> CardPage:
        meta = {"current_page": number, "last_page": 50, "per_page": 10, "total": 500}
        if number > 1:
            started.set()
            await asyncio.sleep(30)
        # Full, as the total says, of entries that are not cards: nothing to read.
        return CardPage.model_validate({"cards": (), "skipped": 10, "meta": meta, "links": {}})

    dialog = ExportAllDialog(fetch, target, space_id="s", with_emails=False)
    qtbot.addWidget(dialog)
    task = qloop.create_task(dialog.run())
    qtbot.waitUntil(started.is_set, timeout=WAIT)
    assert dialog.isVisible()
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() is None
    assert target.read_text(encoding="utf-8") == "earlier export"
    assert [p.name for p in tmp_path.iterdir()] == ["all.csv"]


def test_a_failure_raises_and_writes_nothing(qtbot, arun, tmp_path):
    async def fetch(number: int) -> CardPage:
        if number == 2:
            raise ServerError("The server had a problem.", 500)
        meta = {"current_page": number, "last_page": 5, "per_page": 10, "total": 50}
        # Full, as the total says, of entries that are not cards: nothing to read.
        return CardPage.model_validate({"cards": (), "skipped": 10, "meta": meta, "links": {}})

    target = tmp_path / "all.xlsx"
    dialog = ExportAllDialog(fetch, target, space_id="s", with_emails=False)
    qtbot.addWidget(dialog)
    with pytest.raises(ServerError):
        arun(dialog.run())
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_progress_reads_as_pages_cards_and_time_left(qtbot, tmp_path):
    async def never(number: int) -> CardPage:
        raise AssertionError(f"page {number} was not to be fetched")

    dialog = ExportAllDialog(never, tmp_path / "all.csv", space_id="s", with_emails=False)
    qtbot.addWidget(dialog)
    assert dialog.describe(FetchProgress(12, 24, 120, 6.0)) == (
        "Page 12 of 24 · 120 cards · about 6 s left"
    )
    assert dialog.describe(FetchProgress(3, 1000, 30, 3.0)).endswith("about 17 min left")
    assert dialog.describe(FetchProgress(3, 100, 30, 3.0)).endswith("about 2 min left")
    assert dialog.describe(FetchProgress(1, 240, 10, 0.5)) == "Page 1 of 240 · 10 cards"
    QLocale.setDefault(QLocale("en_US"))
    try:
        assert dialog.describe(FetchProgress(1, 2000, 10, 0.5)) == "Page 1 of 2,000 · 10 cards"
        assert dialog.describe(FetchProgress(2000, 2000, 20000, 60.0)) == (
            "Page 2,000 of 2,000 · 20,000 cards"
        )
    finally:
        QLocale.setDefault(QLocale.system())
    assert dialog.describe(FetchProgress(24, 24, 240, 6.0)) == "Page 24 of 24 · 240 cards"
    assert dialog.describe(FetchProgress(1, 1, 1, 0.1)) == "Page 1 of 1 · 1 card"


def test_a_page_waited_for_says_so_instead_of_the_time_left(qtbot, tmp_path):
    """A page the server failed for a while is tried again (`OUTAGE_PATIENCE`): the
    progress stood still for a minute, saying nothing."""

    async def never(number: int) -> CardPage:
        raise AssertionError(f"page {number} was not to be fetched")

    dialog = ExportAllDialog(never, tmp_path / "all.csv", space_id="s", with_emails=False)
    qtbot.addWidget(dialog)
    waiting = FetchProgress(12, 24, 120, 6.0, retrying_in=7.5)
    assert dialog.describe(waiting) == (
        "Page 12 of 24 · 120 cards\nThe server is not responding; trying again in 8 s."
    )
    first = FetchProgress(0, 0, 0, 1.0, retrying_in=1.0)
    assert dialog.describe(first) == (
        "Fetching the first page…\nThe server is not responding; trying again in 1 s."
    )
    now = FetchProgress(12, 24, 120, 6.0, retrying_in=0.0)
    assert dialog.describe(now).endswith("\nThe server is not responding; trying again…")
    asked = FetchProgress(12, 24, 120, 6.0, retrying_in=25.0, asked_to_wait=True)
    assert dialog.describe(asked).endswith("\nThe server asked to wait; trying again in 25 s.")
    asked = FetchProgress(12, 24, 120, 6.0, retrying_in=0.0, asked_to_wait=True)
    assert dialog.describe(asked).endswith("\nThe server asked to wait; trying again…")
    silent = FetchProgress(12, 24, 120, 6.0, unanswered_for=9.9)
    assert dialog.describe(silent) == (
        "Page 12 of 24 · 120 cards\nThe server has not answered for 9 s; still waiting…"
    )
    silent = FetchProgress(0, 0, 0, 5.0, unanswered_for=5.0)
    assert dialog.describe(silent) == (
        "Fetching the first page…\nThe server has not answered for 5 s; still waiting…"
    )


def test_syncing_names_the_space_and_no_file(qtbot, tmp_path):
    async def never(number: int) -> CardPage:
        raise AssertionError(f"page {number} was not to be fetched")

    copy = tmp_path / "s-1.sqlite"
    dialog = ExportAllDialog(never, copy, space_id="s-1", with_emails=False, syncing=True)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Sync Space"
    assert dialog.title_label.text() == "Syncing all cards of s-1"
    assert dialog.file_label.isHidden()
    assert dialog.progress_label.text() == "Fetching the first page…"


def test_a_sync_says_it_finishes_the_copy_and_cannot_be_called_off_then(qtbot, arun, tmp_path):
    async def pages(number: int) -> CardPage:
        cards = tuple(parse_card({"uuid": f"c{n}"}) for n in range(10 * number - 10, 10 * number))
        meta = {"current_page": number, "last_page": 3, "per_page": 10, "total": 30}
        return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})

    copy = tmp_path / "s-1.sqlite"
    dialog = ExportAllDialog(pages, copy, space_id="s-1", with_emails=False, syncing=True)
    qtbot.addWidget(dialog)
    with CardStore.open(copy) as store:
        generation = arun(dialog.sync(store), timeout=WAIT)
    assert generation is not None
    assert generation.card_count == 30
    assert dialog.progress_label.text() == "Finishing the local copy…"
    assert not dialog.cancel_button.isEnabled()


def test_made_larger_its_lines_stay_together_above_cancel(qtbot, tmp_path):
    async def never(number: int) -> CardPage:
        raise AssertionError(f"page {number} was not to be fetched")

    dialog = ExportAllDialog(never, tmp_path / "all.csv", space_id="s-1", with_emails=False)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.resize(800, 600)
    qtbot.waitUntil(lambda: dialog.height() == 600)
    lines = (dialog.title_label, dialog.file_label, dialog.progress_bar, dialog.progress_label)
    for line in lines:
        assert line.height() == line.sizeHint().height(), line
    for upper, lower in itertools.pairwise(lines):
        assert lower.y() - (upper.y() + upper.height()) < 20, (upper, lower)
    cancel = dialog.cancel_button
    assert cancel.mapTo(dialog, cancel.rect().bottomLeft()).y() > dialog.height() - 30


def cards_fetch(total: int, per_page: int):
    """A space of `total` plain cards, `per_page` to a page."""
    last_page = math.ceil(total / per_page)

    async def fetch(number: int) -> CardPage:
        first = (number - 1) * per_page
        count = min(per_page, total - first)
        cards = tuple(
            parse_card({"uuid": f"c{n}", "display_name": f"Card {n}"})
            for n in range(first, first + count)
        )
        meta = {"current_page": number, "last_page": last_page, "per_page": per_page}
        return CardPage.model_validate(
            {"cards": cards, "meta": {**meta, "total": total}, "links": {}}
        )

    return fetch


def test_the_count_being_written_reads_in_the_locale(qtbot, arun, tmp_path):
    QLocale.setDefault(QLocale("en_US"))
    try:
        dialog = ExportAllDialog(
            cards_fetch(1200, 600), tmp_path / "all.csv", space_id="s", with_emails=False
        )
        qtbot.addWidget(dialog)
        assert arun(dialog.run(), timeout=WAIT) == 1200
        assert dialog.progress_label.text() == "Writing 1,200 cards…"
        one = ExportAllDialog(
            cards_fetch(1, 10), tmp_path / "one.csv", space_id="s", with_emails=False
        )
        qtbot.addWidget(one)
        assert arun(one.run(), timeout=WAIT) == 1
        assert one.progress_label.text() == "Writing 1 card…"
    finally:
        QLocale.setDefault(QLocale.system())


@pytest.fixture
def german(qapp):
    """The German interface, with German number formats; English again afterwards."""
    i18n.install_translators(qapp, "de")
    QLocale.setDefault(QLocale("de_DE"))
    yield
    i18n.remove_translators()
    QLocale.setDefault(QLocale.system())


def test_the_dialog_speaks_german(german, qtbot, arun, tmp_path):
    target = tmp_path / "alle.csv"
    dialog = ExportAllDialog(cards_fetch(1200, 600), target, space_id="s-1", with_emails=False)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Alle Seiten exportieren"
    assert dialog.title_label.text() == "Alle Karten von s-1 werden exportiert"
    assert dialog.file_label.text() == "Nach alle.csv"
    assert dialog.describe(FetchProgress(12, 24, 120, 6.0)) == (
        "Seite 12 von 24 · 120 Karten · noch etwa 6 s"
    )
    assert dialog.describe(FetchProgress(3, 1000, 30, 3.0)).endswith("noch etwa 17 min")
    assert dialog.describe(FetchProgress(1, 1, 1, 0.1)) == "Seite 1 von 1 · 1 Karte"
    assert dialog.describe(FetchProgress(3, 1000, 30, 3.0, retrying_in=2.0)) == (
        "Seite 3 von 1.000 · 30 Karten\nDer Server antwortet nicht; neuer Versuch in 2 s."
    )
    asked = FetchProgress(3, 1000, 30, 3.0, retrying_in=0.0, asked_to_wait=True)
    assert dialog.describe(asked).endswith("\nDer Server bat zu warten; neuer Versuch…")
    silent = FetchProgress(3, 1000, 30, 3.0, unanswered_for=61.0)
    assert dialog.describe(silent).endswith(
        "\nDer Server antwortet seit 61 s nicht; es wird weiter gewartet…"
    )
    assert arun(dialog.run(), timeout=WAIT) == 1200
    assert dialog.progress_label.text() == "1.200 Karten werden geschrieben…"

    one = ExportAllDialog(cards_fetch(1, 10), target, space_id="s-1", with_emails=False)
    qtbot.addWidget(one)
    assert arun(one.run(), timeout=WAIT) == 1
    assert one.progress_label.text() == "1 Karte wird geschrieben…"

    syncing = ExportAllDialog(
        cards_fetch(1, 10), tmp_path / "s-1.sqlite", space_id="s-1", with_emails=False, syncing=True
    )
    qtbot.addWidget(syncing)
    assert syncing.windowTitle() == "Bereich synchronisieren"
    assert syncing.title_label.text() == "Alle Karten von s-1 werden synchronisiert"


def test_a_sync_called_off_says_it_is_cancelling_until_it_has_dropped_its_rows(
    qtbot, qloop, tmp_path, monkeypatch
):
    """Dropping what a sync of 100,000 cards wrote takes seconds, on a worker thread:
    the dialog says so meanwhile, keeps saying it whatever page still lands, and ends
    once the rows are gone."""
    dropping, drop = threading.Event(), threading.Event()
    abandon = StoreSync.abandon

    def slow_abandon(sync: StoreSync) -> None:
        dropping.set()
        drop.wait(WAIT / 1000)
        abandon(sync)

    monkeypatch.setattr(StoreSync, "abandon", slow_abandon)
    started = asyncio.Event()

    async def pages(number: int) -> CardPage:
        meta = {"current_page": number, "last_page": 50, "per_page": 10, "total": 500}
        cards = tuple(parse_card({"uuid": f"c{n}"}) for n in range(10 * number - 10, 10 * number))
        if number > 1:
            started.set()
            await asyncio.sleep(30)
        return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})

    copy = tmp_path / "s-1.sqlite"
    dialog = ExportAllDialog(pages, copy, space_id="s-1", with_emails=False, syncing=True)
    qtbot.addWidget(dialog)
    with CardStore.open(copy) as store:
        task = qloop.create_task(dialog.sync(store))
        qtbot.waitUntil(started.is_set, timeout=WAIT)
        qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(dropping.is_set, timeout=WAIT)
        assert dialog.isVisible()
        assert dialog.progress_label.text() == "Cancelling…"
        assert not dialog.cancel_button.isEnabled()
        assert dialog.progress_bar.maximum() == 0  # busy, no count
        dialog._on_progress(FetchProgress(3, 50, 30, 1.0))  # a page that still lands
        assert dialog.progress_label.text() == "Cancelling…"
        drop.set()
        qtbot.waitUntil(task.done, timeout=WAIT)
        assert task.result() is None
        assert store.current is None
        assert list(store.cards()) == []


def test_a_long_file_name_is_cut_with_an_ellipsis_and_kept_whole_in_the_tooltip(qtbot, tmp_path):
    async def never(number: int) -> CardPage:
        raise AssertionError(f"page {number} was not to be fetched")

    name = "Export of every card of the Acme Europe space, version for the board meeting.csv"
    target = tmp_path / name
    dialog = ExportAllDialog(never, target, space_id="s-1", with_emails=False)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.resize(dialog.minimumSizeHint().width(), dialog.height())
    label = dialog.file_label
    qtbot.waitUntil(label.is_cut)
    assert label.text().startswith("To Export of every card")
    assert label.text().endswith("\N{HORIZONTAL ELLIPSIS}")
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert f"To {name}" in label.toolTip()
    assert str(target) in label.toolTip()
