"""What the status bar says when a job ends: entries left out of the pages too."""

from __future__ import annotations

from typing import Any

import pytest

from cardviewer.demo import pagination
from cardviewer.ui.main_window import MainWindow
from tests.ui.error_bars import looks_like_information
from tests.ui.test_whole_space_view import open_space, sync


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


@pytest.fixture
def two_entries_not_cards(monkeypatch):
    """Page 2 of the demo space with two entries that are not cards in place of cards."""
    body = pagination._body

    def with_two_that_are_not_cards(data: list[Any], **parts: Any) -> dict[str, Any]:
        made = body(data, **parts)
        if parts["page"] == 2:
            made["data"] = ["not a card", None, *made["data"][2:]]
        return made

    return lambda: monkeypatch.setattr(pagination, "_body", with_two_that_are_not_cards)


def test_entries_that_are_not_cards_are_said_after_a_sync(
    window, demo_server, qtbot, two_entries_not_cards
):
    """The sync said "2 removed", of cards the server may still have, and no more."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    two_entries_not_cards()
    sync(qtbot, window)
    said = window.status_bar.whole_message()
    assert said == "Synced 238 cards. Since the last sync: 0 added, 2 removed, 0 changed."
    assert looks_like_information(window.error_bar)
    assert window.error_bar.message == (
        "2 entries the server sent were not cards and were left out. Some of the cards "
        "counted as removed may be among them."
    )
