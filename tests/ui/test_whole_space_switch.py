"""The switch above the table: pages, whole space, and the last sync's changes, each saying
in the centre what it holds, whatever was shown before and whatever its file does."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cardviewer.demo.data import DemoSpace
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.state_page import StatePage
from cardviewer.ui.whole_space_view import ADDED, PAGES, REMOVED, SourceSwitch
from tests.ui.test_whole_space_view import (
    WAIT,
    choose,
    open_space,
    sync,
    synced_with_changes,
)


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


def synced_twice_without_changes(qtbot, window: MainWindow, space_id: str) -> None:
    open_space(qtbot, window, space_id)
    sync(qtbot, window)
    sync(qtbot, window)


def centre_says(window: MainWindow) -> str:
    """What the centre shows: the table, or the title of the page shown instead."""
    shown = window.stack.currentWidget()
    if shown is window.table:
        return "table"
    assert isinstance(shown, StatePage)
    return shown.title_label.text()


def test_the_pages_come_back_with_their_cards_after_a_change_view_said_it_was_empty(
    window, demo_server, qtbot
):
    synced_twice_without_changes(qtbot, window, demo_server.space_id)
    choose(qtbot, window, ADDED)
    assert centre_says(window) == "No cards added in the last sync"
    window.whole_space.switch.setCurrentIndex(PAGES)
    window.whole_space.switch.activated.emit(PAGES)
    assert window.table.model() is window.proxy
    assert window.proxy.rowCount() == 10
    assert centre_says(window) == "table"


def test_an_empty_page_says_so_again_when_the_whole_space_gives_way_to_it(
    window, demo_server, qtbot
):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    space = demo_server.spaces[demo_server.space_id]
    demo_server.spaces[demo_server.space_id] = DemoSpace(space.uuid, space.name, ())
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.refresh()  # the page, loaded again while the whole space is shown
    assert centre_says(window) == "table", "the whole space's cards, still"
    window.whole_space.switch.setCurrentIndex(PAGES)
    window.whole_space.switch.activated.emit(PAGES)
    assert centre_says(window) == window.messages.empty_page(window.model.page.meta).title


def test_a_change_view_chosen_again_keeps_saying_it_is_empty(window, demo_server, qtbot):
    synced_twice_without_changes(qtbot, window, demo_server.space_id)
    choose(qtbot, window, ADDED)
    window.whole_space.switch.activated.emit(ADDED)  # the same choice picked again
    qtbot.wait(100)
    assert centre_says(window) == "No cards added in the last sync"


def test_an_answer_for_a_view_left_behind_says_nothing_of_the_view_shown(
    window, demo_server, qtbot
):
    """The worker of the view before may have answered just before the switch: its answer
    then still waits in the window's queue as the new view is shown."""
    space, _every = synced_with_changes(qtbot, window, demo_server.space_id)
    switch = window.whole_space.switch
    switch.setCurrentIndex(ADDED)
    switch.activated.emit(ADDED)  # the same model is asked for the added cards
    time.sleep(0.3)  # its worker answers meanwhile; the answer waits in the queue
    switch.setCurrentIndex(REMOVED)
    switch.activated.emit(REMOVED)  # the removed cards: a model of the copy before
    removed = window.whole_space.model
    assert removed is not None
    assert removed is not space
    qtbot.waitUntil(lambda: not removed.is_sorting, timeout=WAIT)
    qtbot.wait(100)
    assert removed.rowCount() == 1
    assert centre_says(window) == "table"


def test_the_copy_shown_stays_offered_when_its_file_is_gone(window, demo_server, qtbot):
    """Removed by another window's Preferences, say: the table shows the copy still,
    and the switch is the way back to the pages."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{space.path}{suffix}").unlink(missing_ok=True)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.refresh()  # F5 while the whole space is shown: the copy is offered again
    switch = window.whole_space.switch
    assert window.table.model() is space
    assert switch.isVisible()
    assert switch.currentText().startswith("Whole space (synced ")
    switch.setCurrentIndex(PAGES)
    switch.activated.emit(PAGES)
    assert window.table.model() is window.proxy
    assert not switch.isVisible(), "no copy to offer any more"


def test_an_export_of_a_copy_whose_file_is_gone_says_so_and_makes_no_store(
    window, demo_server, qtbot, tmp_path
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{space.path}{suffix}").unlink(missing_ok=True)
    target = tmp_path / "cards.csv"
    window.ask_export_path = lambda _suggested, title="": target
    with qtbot.waitSignal(window.jobs.failed, timeout=WAIT):
        window.export_action.trigger()
    assert "The local copy is gone from this computer; Sync Space makes a new one." in (
        window.error_bar.message
    )
    assert not space.path.exists(), "no empty store in its place"
    assert not target.exists()


def test_the_switch_s_first_choice_has_its_tooltip_and_the_switch_a_name(qtbot):
    """Its tooltip was empty until another choice was offered; its name said "Show"."""
    switch = SourceSwitch()
    qtbot.addWidget(switch)
    assert switch.toolTip() == "Pages from the server"
    assert switch.accessibleName() == "Cards shown"
