"""Export All and Sync Space against a server whose pages do not add up: stopped, explained.

The server answers page 1 properly, so the space opens; what it answers for the other
pages is what the whole-space fetch must not believe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt

from cardviewer.api import CardsClient
from cardviewer.api.retry import RetryPolicy
from cardviewer.services.card_store import CardStore
from cardviewer.services.settings import Settings
from cardviewer.ui.main_window import MainWindow
from tests.ui.windows import Closer, open_window

WAIT = 10_000
SPACE = "hostile1space01"

Page = Callable[[int], dict[str, Any]]


def envelope(page: int, *, cards: int = 10, total: int = 25) -> dict[str, Any]:
    return {
        "data": [
            {"uuid": f"c{page}-{n}", "display_name": f"Card {page}.{n}"} for n in range(cards)
        ],
        "links": {},
        "meta": {
            "current_page": page,
            "last_page": max(1, -(-total // 10)),
            "per_page": 10,
            "total": total,
        },
    }


def always_page_1(asked: int) -> dict[str, Any]:
    """Whatever page is asked for, page 1 comes back."""
    return envelope(1)


def more_cards_than_the_total(asked: int) -> dict[str, Any]:
    """3 pages for 25 cards, every one of them full."""
    return envelope(asked)


HOSTILE: dict[str, tuple[Page, str]] = {
    "always_page_1": (always_page_1, "The server sent page 1 when page 2 was asked for."),
    "more_cards_than_the_total": (
        more_cards_than_the_total,
        "The server sent more cards than it says the space has.",
    ),
}


@pytest.fixture(params=sorted(HOSTILE))
def hostile(request: pytest.FixtureRequest) -> tuple[Page, str]:
    return HOSTILE[request.param]


@pytest.fixture
def make_window(qtbot, arun) -> Iterator[Callable[[Page], MainWindow]]:
    closers: list[Closer] = []

    def make(pages: Page) -> MainWindow:
        def answer(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, json=pages(int(request.url.params["page"])))

        client = CardsClient(
            "https://cards.example",
            token="t",
            transport=httpx.MockTransport(answer),
            retry=RetryPolicy(attempts=1),
        )
        window = open_window(qtbot, client, Settings.load(), closers)
        closers.append(client.aclose)  # after the window's model, which uses it
        window.space_edit.clear()
        qtbot.keyClicks(window.space_edit, SPACE)
        with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
            qtbot.keyClick(window.space_edit, Qt.Key.Key_Return)
        return window

    yield make
    for close in closers:
        arun(close())


def test_export_all_stops_and_says_why(make_window, hostile, qtbot, tmp_path, monkeypatch):
    pages, reason = hostile
    window = make_window(pages)
    target = tmp_path / "everyone.csv"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested, title="": target)
    with qtbot.waitSignal(window.jobs.failed, timeout=WAIT):
        window.export_all_action.trigger()
    assert not window.error_bar.isHidden()
    assert window.error_bar.message == (
        f"The cards of {SPACE} could not be exported. {reason} Nothing was saved."
    )
    assert not target.exists()


def test_sync_stops_says_why_and_keeps_the_page(make_window, hostile, qtbot):
    pages, reason = hostile
    window = make_window(pages)
    shown = [window.model.card(row) for row in range(window.model.rowCount())]
    with qtbot.waitSignal(window.jobs.failed, timeout=WAIT):
        window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.export_all_dialog is None, timeout=WAIT)
    assert not window.error_bar.isHidden()
    assert window.error_bar.message == f"{SPACE} could not be synced. {reason}"
    assert [window.model.card(row) for row in range(window.model.rowCount())] == shown
    assert window.whole_space.model is None
    assert window.table.model() is window.proxy
    copy = window.whole_space.store_path(SPACE)
    assert copy is not None
    with CardStore.open(copy) as store:
        assert store.current is None, "no copy of what the server sent"
