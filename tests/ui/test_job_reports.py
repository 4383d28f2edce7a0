"""What the window says when a job ends: entries the pages left out too."""

from __future__ import annotations

import pytest

from cardviewer.demo import pagination
from cardviewer.ui.main_window import MainWindow
from tests.ui.error_bars import looks_like_information
from tests.ui.test_whole_space_view import open_space, sync


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


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


def test_the_note_of_entries_left_out_goes_with_the_next_job(
    window, demo_server, qtbot, two_entries_not_cards, monkeypatch
):
    """It stayed above the table after a sync that left nothing out."""
    open_space(qtbot, window, demo_server.space_id)
    every_entry_a_card = pagination._body
    two_entries_not_cards()
    sync(qtbot, window)
    assert window.error_bar.isVisible()
    monkeypatch.setattr(pagination, "_body", every_entry_a_card)
    sync(qtbot, window)
    assert not window.error_bar.isVisible()
