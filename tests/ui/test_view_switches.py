"""Switching views keeps the status bar and the page from the server true to the view."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt

from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.whole_space_view import ADDED, PAGES, WHOLE_SPACE
from tests.ui.test_whole_space_view import WAIT, choose, open_space, sync, synced_with_changes


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


def test_a_view_s_note_goes_when_another_view_is_chosen(window, demo_server, qtbot):
    """The note "Cards added by the last sync: 1." stayed over the whole space and the pages."""
    synced_with_changes(qtbot, window, demo_server.space_id)
    choose(qtbot, window, ADDED)
    assert window.statusBar().currentMessage() == "Cards added by the last sync: 1."
    choose(qtbot, window, WHOLE_SPACE)
    assert window.statusBar().currentMessage() == ""
    choose(qtbot, window, ADDED)
    window.statusBar().showMessage("Exported 1 card to one.csv")  # of something else
    choose(qtbot, window, WHOLE_SPACE)
    assert window.statusBar().currentMessage() == "Exported 1 card to one.csv"


def first_name_on_the_page(window: MainWindow) -> str:
    name = window.model.column_of("display_name")
    assert name is not None
    return str(window.model.index(0, name).data(Qt.ItemDataRole.DisplayRole))


def test_the_pages_shown_after_a_sync_are_asked_for_again(window, demo_server, qtbot):
    """The page loaded before the sync listed a card the sync had said was renamed or
    removed."""
    open_space(qtbot, window, demo_server.space_id)
    space = demo_server.spaces[demo_server.space_id]
    first, *rest = space.cards
    renamed = dataclasses.replace(first, display_name="Zoë Renamed")
    demo_server.spaces[demo_server.space_id] = dataclasses.replace(space, cards=(renamed, *rest))
    assert first_name_on_the_page(window) != "Zoë Renamed"
    sync(qtbot, window)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        choose_pages(window)
    assert first_name_on_the_page(window) == "Zoë Renamed"
    choose(qtbot, window, WHOLE_SPACE)
    with qtbot.assertNotEmitted(window.pages.pageLoaded, wait=300):
        choose_pages(window)  # no sync since: the page shown is the server's


def choose_pages(window: MainWindow) -> None:
    switch = window.whole_space.switch
    switch.setCurrentIndex(PAGES)
    switch.activated.emit(PAGES)


def test_a_note_cut_short_by_a_narrow_window_goes_too(window, qtbot):
    """The status bar shows a long note cut with "…": the note compared with what it
    shows stayed."""
    window.resize(640, 480)
    long_note = "Showing the local copy: " + "a very long label " * 20
    window.whole_space.statusMessage.emit(long_note, 5000)
    assert window.statusBar().currentMessage() != long_note, "cut short"
    window.whole_space.notesOver.emit()
    assert window.status_bar.whole_message() == ""


def test_opening_another_space_after_a_sync_asks_for_its_page_alone(
    window, demo_server, qtbot, monkeypatch
):
    """Back on the pages to open another space, the page before was asked for again
    first, and its request called off at once by the new one."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    retried: list[bool] = []
    original = window.pages.retry

    def retry() -> None:
        retried.append(True)
        original()

    monkeypatch.setattr(window.pages, "retry", retry)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.open_space(demo_server.space_id)
    assert retried == []
