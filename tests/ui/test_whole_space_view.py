"""Sync Space and the whole space from its local copy, in the window, against the demo server."""

from __future__ import annotations

import csv
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, QLocale, Qt, QTime
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel, QStyle, QStylePainter

from cardviewer.api.models import Card, parse_card
from cardviewer.demo import Fault
from cardviewer.services import space_queries, store_schema
from cardviewer.services.card_store import CardStore
from cardviewer.services.store_schema import SCHEMA_VERSION, Generation
from cardviewer.services.text_collation import text_collator
from cardviewer.ui import whole_space_view
from cardviewer.ui.cards.change_delegate import ChangedCellDelegate
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.filter_row import FilterScope, scope_texts
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.preferences_dialog import PreferencesDialog, export_csv_delimiter
from cardviewer.ui.whole_space_view import (
    ADDED,
    CHANGED,
    FITTED_ROWS,
    PAGES,
    REMOVED,
    WHOLE_SPACE,
)

WAIT = 20_000
Flag = QItemSelectionModel.SelectionFlag


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


def open_space(qtbot, window: MainWindow, space_id: str) -> None:
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.open_space(space_id)


def sync(qtbot, window: MainWindow) -> SpaceTableModel:
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()  # its key works from every field: test_window_keys.py
    space = window.whole_space.model
    assert space is not None
    qtbot.waitUntil(lambda: not space.is_sorting, timeout=WAIT)
    return space


def choose(qtbot, window: MainWindow, choice: int) -> SpaceTableModel:
    """Pick `choice` in the switch, as a person does; the model shown once it answered."""
    switch = window.whole_space.switch
    switch.setCurrentIndex(choice)
    switch.activated.emit(choice)
    shown = window.whole_space.model
    assert shown is not None
    qtbot.waitUntil(lambda: not shown.is_sorting, timeout=WAIT)
    return shown


def whole_space_shown(qtbot, window: MainWindow) -> SpaceTableModel:
    """Chosen in the switch, as a person chooses it: the copy's model, once sorted."""
    return choose(qtbot, window, WHOLE_SPACE)


def test_sync_shows_every_card_of_the_space_from_its_copy(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    total = window.model.page.meta.total
    assert not window.whole_space.switch.isVisible(), "nothing synced yet"
    space = sync(qtbot, window)

    assert window.table.model() is space
    assert space.rowCount() == total
    switch = window.whole_space.switch
    assert switch.isVisible()
    assert switch.currentIndex() == WHOLE_SPACE
    assert switch.currentText().startswith("Whole space (synced ")
    assert not window.page_bar.isVisible()
    assert window.export_action.text() == "&Export Cards Shown…"
    assert "This is the first sync." in window.statusBar().currentMessage()
    assert "all cards of the space" in window.filter_edit.placeholderText()

    last = space.card(total - 1)
    assert last is not None
    assert last.username is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText(last.username)
    assert space.rowCount() >= 1
    assert window.filter_count_label.text() == f"{space.rowCount()} of {total} shown"
    window.table.setCurrentIndex(space.index(0, 1))
    assert window.details_pane.card is not None

    switch.activated.emit(PAGES)
    assert window.table.model() is window.proxy
    assert window.whole_space.model is None
    assert window.page_bar.isVisible()
    assert window.export_action.text() == "&Export Page…"
    assert "this page" in window.filter_edit.placeholderText()


def test_a_filter_leaving_no_card_greys_out_what_works_on_the_cards_shown(
    window, demo_server, qtbot
):
    """They said "There are no cards to export." when clicked; the filter itself and
    the overview, which are of the whole space, stay."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    on_cards_shown = [
        window.export_action,
        window.export_vcards_action,
        window.export_pdf_action,
        window.print_action,
        window.copy_action,
    ]
    assert all(action.isEnabled() for action in on_cards_shown)
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText("no such card anywhere")
    assert space.rowCount() == 0
    assert not any(action.isEnabled() for action in on_cards_shown)
    assert window.filter_edit.isEnabled()
    assert window.overview_action.isEnabled()
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.clear()
    assert all(action.isEnabled() for action in on_cards_shown)


def test_a_space_that_cannot_be_opened_leaves_the_copy_of_the_page_shown_offered(
    window, demo_server, qtbot
):
    """The switch went, as the space asked for has no copy, while the table still
    showed the page of the space before, whose copy is there."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.whole_space.switch.activated.emit(PAGES)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space("no-such-space")
    assert window.model.current_request is not None
    assert window.model.current_request.space_id == demo_server.space_id, "its page stays"
    switch = window.whole_space.switch
    assert switch.isVisible()
    assert switch.itemText(WHOLE_SPACE).startswith("Whole space (synced ")
    space = whole_space_shown(qtbot, window)
    assert space.path == window.whole_space.store_path(demo_server.space_id)


def test_a_second_sync_says_what_changed(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    space = sync(qtbot, window)
    assert "Nothing changed since the last sync." in window.statusBar().currentMessage()
    switch = window.whole_space.switch
    for choice, title in [
        (ADDED, "No cards added in the last sync"),
        (CHANGED, "No cards changed in the last sync"),
    ]:
        window.statusBar().clearMessage()
        switch.setCurrentIndex(choice)
        with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
            switch.activated.emit(choice)
        assert window.stack.currentWidget() is window.empty_page
        assert window.empty_page.title_label.text() == title
        assert window.statusBar().currentMessage() == "", "said once, in the middle"
        assert not window.export_action.isEnabled(), "nothing to export"
        assert not window.filter_edit.isEnabled(), "nothing to filter"
    removed = choose(qtbot, window, REMOVED)
    assert removed.shown_count() == 0
    assert window.stack.currentWidget() is window.empty_page
    assert window.empty_page.title_label.text() == "No cards removed in the last sync"
    switch.setCurrentIndex(WHOLE_SPACE)
    switch.activated.emit(WHOLE_SPACE)
    assert window.stack.currentWidget() is window.table


def test_a_sync_without_the_e_mail_addresses_says_they_are_no_longer_in_the_copy(
    window, demo_server, qtbot
):
    """They count as a change only where both copies hold them: a sync with Include
    e-mails left unticked said "Nothing changed", and they were gone."""
    window.include_emails_check.setChecked(True)
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.include_emails_check.setChecked(False)
    qtbot.waitUntil(lambda: not window.pages.is_loading, timeout=WAIT)
    sync(qtbot, window)
    said = window.statusBar().currentMessage()
    assert said.endswith(
        "Nothing changed since the last sync. E-mail addresses left out: Include e-mails was off."
    ), said
    window.include_emails_check.setChecked(True)
    qtbot.waitUntil(lambda: not window.pages.is_loading, timeout=WAIT)
    sync(qtbot, window)
    assert (
        window.statusBar()
        .currentMessage()
        .endswith("E-mail addresses added; no card counts as changed for them.")
    )


def test_a_synced_space_opens_from_its_copy_when_the_server_fails(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    total = window.model.page.meta.total
    sync(qtbot, window)
    window.whole_space.switch.activated.emit(PAGES)
    demo_server.faults.inject(Fault.SERVICE_UNAVAILABLE, times=10)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space(demo_server.space_id)
    assert window.error_bar.isVisible()
    assert window.whole_space.switch.isVisible(), "the copy is offered though the server fails"
    assert whole_space_shown(qtbot, window).rowCount() == total
    assert window.export_action.isEnabled(), "the copy's cards can be saved offline"


def test_the_whole_space_chosen_says_when_its_copy_was_synced(window, demo_server, qtbot):
    """The note repeated the switch's label: "Showing the local copy: Whole space
    (synced 14:02)."."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.whole_space.switch.activated.emit(PAGES)
    whole_space_shown(qtbot, window)
    when = window.whole_space.switch.currentText().removeprefix("Whole space (synced ")
    assert window.status_bar.whole_message() == (
        f"Showing the whole space from its local copy, synced {when.removesuffix(')')}."
    )


def test_a_copy_synced_by_the_command_line_is_offered_and_shown(
    window, demo_server, qtbot, monkeypatch
):
    from cardviewer import cli_sync
    from cardviewer.cli import PASSWORD_VARIABLE

    monkeypatch.setenv(PASSWORD_VARIABLE, demo_server.password)
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    command = [*account, "--space", demo_server.space_id, "--quiet"]
    with ThreadPoolExecutor(1) as thread:  # a loop of its own, beside the window's
        ran = thread.submit(cli_sync.main, command)
        qtbot.waitUntil(ran.done, timeout=WAIT)
    assert ran.result() == 0
    open_space(qtbot, window, demo_server.space_id)
    assert window.whole_space.switch.isVisible(), "the copy `cardviewer sync` wrote is the window's"
    assert whole_space_shown(qtbot, window).rowCount() == window.model.page.meta.total


def test_a_copy_that_cannot_be_opened_is_explained_and_the_page_stays(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    with CardStore.open(path):
        pass
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    assert not window.whole_space.show_copy(path)
    assert "newer version of CardViewer" in window.error_bar.text_label.text()
    assert window.table.model() is window.proxy


def test_a_copy_found_damaged_as_it_is_offered_is_said_once(window, demo_server, qtbot):
    """Set aside with a log line alone: the switch just lost its choice."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    window.whole_space.show_pages()
    path.write_bytes(b"\0garbage" * 4096)
    open_space(qtbot, window, demo_server.space_id)
    assert "damaged; it is set aside" in window.error_bar.text_label.text()
    assert not window.whole_space.switch.isVisible()
    window.error_bar.hide_error()
    open_space(qtbot, window, demo_server.space_id)
    assert window.error_bar.isHidden(), "once: the copy is gone now"


def test_a_copy_in_use_by_another_program_is_explained_left_alone_and_opens_later(
    window, demo_server, qtbot, monkeypatch
):
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 50)  # how long a reader waits
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.whole_space.switch.activated.emit(PAGES)
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    other = sqlite3.connect(path, isolation_level=None)  # another program, holding it all
    try:
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("INSERT INTO state (key, value) VALUES ('other program', 1)")
        window.whole_space.switch.activated.emit(WHOLE_SPACE)
        assert window.table.model() is window.proxy, "the pages stay"
        assert window.error_bar.isVisible()
        assert window.error_bar.text_label.text() == (
            "The local copy is in use by another program; try again."
        )
        assert not [p for p in path.parent.iterdir() if "damaged" in p.name], "not set aside"
        other.execute("ROLLBACK")
    finally:
        other.close()
    window.whole_space.switch.activated.emit(WHOLE_SPACE)
    assert window.whole_space.model is not None
    assert window.table.model() is window.whole_space.model
    assert not window.error_bar.isVisible(), "the failure before is over"


def preferences(window: MainWindow, *, agree: bool = True) -> PreferencesDialog:
    """Preferences opened from the window; its question before removing answered `agree`."""
    window.open_preferences()
    dialog = window.preferences_dialog
    assert dialog is not None
    dialog.confirm_removal = lambda: agree  # type: ignore[method-assign]
    return dialog


def test_preferences_removes_the_local_copies(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    assert path.exists()
    dialog = preferences(window, agree=False)
    dialog.remove_copies_button.click()
    qtbot.wait(100)
    assert path.exists(), "the person said no"
    assert dialog.remove_copies_button.isEnabled()
    dialog.reject()
    dialog = preferences(window)
    dialog.remove_copies_button.click()  # once the sync's tidying is called off
    qtbot.waitUntil(lambda: not path.exists(), timeout=WAIT)
    assert window.table.model() is window.proxy
    assert not window.whole_space.switch.isVisible()
    assert window.statusBar().currentMessage() == "Removed the synced space from this computer."
    dialog.reject()
    dialog = preferences(window)
    assert not dialog.remove_copies_button.isEnabled()
    dialog.reject()


def test_remove_local_copies_follows_a_sync_ending_while_preferences_are_open(
    window, demo_server, qtbot
):
    """Greyed out as Preferences opened before the first sync ended, it stayed so."""
    open_space(qtbot, window, demo_server.space_id)
    demo_server.config.latency = 0.2
    window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.jobs.progress is not None, timeout=WAIT)
    dialog = preferences(window)
    assert not dialog.remove_copies_button.isEnabled(), "nothing synced yet"
    qtbot.waitUntil(dialog.remove_copies_button.isEnabled, timeout=WAIT)
    assert window.whole_space.has_copies()
    dialog.remove_copies_button.click()
    qtbot.waitUntil(lambda: not window.whole_space.has_copies(), timeout=WAIT)
    assert not dialog.remove_copies_button.isEnabled(), "none left to remove"
    dialog.reject()


def test_preferences_removes_the_local_copies_once_a_sync_under_way_is_called_off(
    window, demo_server, qtbot
):
    """Removed under it, the sync went on writing into a file that was gone, then said
    both that it synced and that its copy was gone."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    demo_server.config.latency = 0.3
    results: list[object] = []
    window.jobs.finished.connect(results.append)
    window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.jobs.progress is not None, timeout=WAIT)
    dialog = preferences(window)
    dialog.remove_copies_button.click()
    removed = "Removed the synced space from this computer."
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == removed, timeout=WAIT)
    assert not window.jobs.fetching_whole_space
    assert not path.exists()
    qtbot.wait(500)
    assert results == []
    assert not window.error_bar.isVisible()
    dialog.reject()


def exported_shown(qtbot, window: MainWindow, target: Path) -> tuple[Path, list[list[str]]]:
    """Export Cards Shown into `target`: the file name suggested, and the rows written.
    Its file dialog says what it saves (it was titled "Export Page")."""
    asked: list[Path] = []

    def ask(suggested: Path, title: str = "") -> Path:
        assert title == "Export Cards Shown"
        asked.append(suggested)
        return target

    window.ask_export_path = ask  # type: ignore[method-assign]
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.export_action.trigger()
    text = target.read_text("utf-8-sig")
    delimiter = export_csv_delimiter(window.settings)
    return asked[0], list(csv.reader(text.splitlines(), delimiter=delimiter))


def cards_shown(space: SpaceTableModel) -> list[Card | None]:
    return [space.card(row) for row in range(space.rowCount())]


GONE = parse_card({"uuid": "gone0000000001", "display_name": "Gone Person"})
"""The card the second sync of `synced_with_changes` removed."""


def synced_with_changes(
    qtbot, window: MainWindow, space_id: str
) -> tuple[SpaceTableModel, list[Card]]:
    """The whole space after a second sync that added its first card, changed its second
    and removed `GONE`; and the cards of the space."""
    open_space(qtbot, window, space_id)
    sync(qtbot, window)
    path = window.whole_space.store_path(space_id)
    assert path is not None
    with CardStore.open(path) as store:  # a copy before: one card short, one renamed, one more
        every = list(store.cards())
        earlier = store.begin_sync()
        renamed = every[1].model_copy(update={"display_name": "Renamed"})
        earlier.add([renamed, *every[2:], GONE])
        earlier.finish()
    return sync(qtbot, window), every


def test_the_cards_the_last_sync_added_changed_or_removed_are_shown_each_alone(
    window, demo_server, qtbot, tmp_path
):
    space, every = synced_with_changes(qtbot, window, demo_server.space_id)
    gone = GONE
    assert "Since the last sync: 1 added, 1 removed, 1 changed." in (
        window.statusBar().currentMessage()
    )
    switch = window.whole_space.switch
    assert [switch.itemText(n) for n in range(ADDED, switch.count())] == [
        "Added by the last sync",
        "Removed by the last sync",
        "Changed by the last sync",
    ]
    assert choose(qtbot, window, ADDED) is space
    assert cards_shown(space) == every[:1]
    assert window.statusBar().currentMessage() == "Cards added by the last sync: 1."
    assert window.filter_edit.placeholderText() == "Filter the cards shown (Ctrl+F)"
    window.table.setCurrentIndex(space.index(0, 1))
    assert window.details_pane.change_label.text() == "Added by the last sync", "as the others"
    assert choose(qtbot, window, CHANGED) is space
    assert cards_shown(space) == every[1:2]
    chosen = window.exports.chosen_cards()  # a vCard or PDF file's: named as a CSV file's
    assert chosen is not None
    assert chosen.stem == f"{demo_server.space_id}-changed"
    assert window.statusBar().currentMessage() == "Cards changed by the last sync: 1."
    # What changed in the card: its name, marked in the table and told in the details.
    name = space.column_of("display_name")
    assert name is not None
    assert space.index(0, name).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert isinstance(window.table.itemDelegate(), ChangedCellDelegate), "also when selected"
    window.table.setCurrentIndex(space.index(0, 1))
    pane = window.details_pane
    assert pane.card == every[1]
    assert pane.change_label.isVisible()
    assert pane.change_label.text() == "Changed by the last sync: Name"
    was = pane.findChild(QLabel, "before_display_name")
    assert was is not None
    assert was.isVisible()
    assert was.text() == "Before: Renamed"

    # Removed cards, as the copy before had them: shown, selected and exported alike.
    removed = choose(qtbot, window, REMOVED)
    assert removed is not space
    assert switch.currentIndex() == REMOVED
    assert cards_shown(removed) == [gone]
    with qtbot.waitSignal(removed.queryFinished, timeout=WAIT):
        window.filter_edit.setText("gone")
    assert window.filter_count_label.text() == "1 of 1 shown", "of the removed cards"
    with qtbot.waitSignal(removed.queryFinished, timeout=WAIT):
        window.filter_edit.setText("zzzqqq")
    no_match = window.filter_row.no_match_page
    assert no_match is not None
    assert window.stack.currentWidget() is no_match
    assert no_match.title_label.text() == "No card shown matches \u201czzzqqq\u201d"
    with qtbot.waitSignal(removed.queryFinished, timeout=WAIT):
        window.filter_edit.clear()
    assert window.statusBar().currentMessage() == (
        "Cards removed by the last sync: 1, as the sync before had them."
    )
    window.table.setCurrentIndex(removed.index(0, 1))
    assert window.details_pane.card == gone
    assert window.details_pane.change_label.isVisible(), "no longer in the space: said"
    assert window.details_pane.change_label.text() == "Removed by the last sync"
    suggested, rows = exported_shown(qtbot, window, Path(tmp_path) / "removed.csv")
    assert suggested.name == f"{demo_server.space_id}-removed.csv"
    assert [row[0] for row in rows[1:]] == [gone.uuid]
    assert not removed.is_superseded(), "the copy before is not a newer one"

    again = choose(qtbot, window, WHOLE_SPACE)
    assert again is not removed
    assert not isinstance(window.table.itemDelegate(), ChangedCellDelegate), "no cost elsewhere"
    window.table.setCurrentIndex(again.index(0, 1))
    assert window.details_pane.card is not None
    assert window.details_pane.change_label.isHidden()
    assert again.rowCount() == len(every)
    assert switch.currentIndex() == WHOLE_SPACE
    assert window.filter_edit.placeholderText() == "Filter all cards of the space (Ctrl+F)"


def test_export_saves_the_cards_shown_of_the_whole_space_in_their_order(
    window, demo_server, qtbot, tmp_path
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    name = space.column_of("display_name")
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText("mü")
    shown = [space.card(row) for row in range(space.rowCount())]
    assert 1 < len(shown) < space.total_count()
    suggested, rows = exported_shown(qtbot, window, Path(tmp_path) / "shown.csv")
    assert suggested.name == f"{demo_server.space_id}-shown.csv"
    assert [row[2] for row in rows[1:]] == [card.display_name for card in shown if card]
    assert [row[0] for row in rows[1:]] == [card.uuid for card in shown if card]
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.clear()
    suggested, rows = exported_shown(qtbot, window, Path(tmp_path) / "all.csv")
    assert suggested.name == f"{demo_server.space_id}-all.csv", "every card, not some"
    assert len(rows) == 1 + space.total_count()


def test_an_export_asked_for_as_a_sort_comes_in_waits_for_every_row(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    """The first rows of a sort of a large space come first: exported then, the file
    named for every card held those first rows alone."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    total = space.rowCount()
    name = space.column_of("display_name")
    assert name is not None
    slowed_whole_answers(monkeypatch, 1.0)
    window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: space.rowCount() == space_queries.FIRST_ROWS, timeout=WAIT)
    assert space.is_sorting
    notes: list[str] = []
    window.statusBar().messageChanged.connect(notes.append)
    suggested, rows = exported_shown(qtbot, window, Path(tmp_path) / "all.csv")
    assert "Waiting for the cards shown to be sorted; then this goes on." in notes
    assert suggested.name == f"{demo_server.space_id}-all.csv"
    assert len(rows) == 1 + total
    assert [row[0] for row in rows[1:]] == [card.uuid for card in cards_shown(space) if card]


def sorting_slowly(qtbot, window: MainWindow, demo_server, monkeypatch) -> SpaceTableModel:
    """The demo space synced and shown whole, sorted by Name with the whole answer held
    back a second: its first rows are in, the rest to come."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    name = space.column_of("display_name")
    assert name is not None
    slowed_whole_answers(monkeypatch, 1.0)
    window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: space.rowCount() == space_queries.FIRST_ROWS, timeout=WAIT)
    return space


def exporting_to(window: MainWindow, target: Path) -> list[Path]:
    """The window's exports write to `target`; the names it suggested, as they come."""
    asked: list[Path] = []

    def ask(suggested: Path, title: str = "") -> Path:
        asked.append(suggested)
        return target

    window.ask_export_path = ask  # type: ignore[method-assign]
    return asked


def test_an_export_waiting_for_a_sort_goes_on_with_a_newer_copy_shown_meanwhile(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    """The window shows a copy another program synced, and lets go of the one whose sort
    the export waited for: that sort's end never comes."""
    space = sorting_slowly(qtbot, window, demo_server, monkeypatch)
    asked = exporting_to(window, tmp_path / "all.csv")
    window.export_action.trigger()
    assert asked == [], "it waits"
    synced_elsewhere(space.path, dropping=0)
    window.whole_space.follow_newer_copy()
    assert window.whole_space.model is not space
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT) as done:
        pass
    assert [path.name for path in asked] == [f"{demo_server.space_id}-all.csv"]
    assert done.args[0].count == window.whole_space.model.total_count()


def test_an_export_waiting_for_a_sort_is_called_off_with_a_note_when_the_pages_are_shown(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    """The cards it waited for are no longer shown: it neither runs on the page nor
    vanishes without a word."""
    sorting_slowly(qtbot, window, demo_server, monkeypatch)
    asked: list[Path] = []
    window.ask_export_path = lambda suggested, title="": asked.append(suggested)
    notes: list[str] = []
    window.statusBar().messageChanged.connect(notes.append)
    window.export_action.trigger()
    switch = window.whole_space.switch
    switch.setCurrentIndex(PAGES)
    switch.activated.emit(PAGES)
    called_off = "The whole space is no longer shown, so what waited for its sort was called off."
    qtbot.waitUntil(lambda: called_off in notes, timeout=WAIT)
    qtbot.wait(1500)  # the slowed answer's time: nothing more comes of it
    assert asked == []


def test_back_on_the_pages_a_filter_matching_no_card_of_the_page_says_so_of_the_page(
    window, demo_server, qtbot
):
    """It said that no card of the space matched, of a name the whole space had just shown."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    last = space.card(space.rowCount() - 1)
    assert last is not None
    name = last.display_name
    assert name
    assert name not in {card.display_name for card in window.model.page.cards}
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText(name)
    assert space.rowCount() >= 1
    switch = window.whole_space.switch
    switch.setCurrentIndex(PAGES)
    switch.activated.emit(PAGES)
    page = window.filter_row.no_match_page
    assert page is not None
    qtbot.waitUntil(lambda: window.stack.currentWidget() is page, timeout=WAIT)
    said = scope_texts(FilterScope.PAGE).no_match_title.replace("%1", name)
    assert page.title_label.text() == said


def test_the_current_card_stays_current_in_a_new_order(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    window.table.setCurrentIndex(space.index(5, 1))
    chosen = space.card(5)
    name = space.column_of("display_name")
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    current = window.table.currentIndex()
    assert current.row() != 5
    assert space.card(current.row()) == chosen
    assert window.details_pane.card == chosen
    viewport = window.table.viewport()
    qtbot.waitUntil(lambda: viewport.rect().contains(window.table.visualRect(current)))


def test_a_failed_sync_is_explained_and_the_copy_before_it_stays(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    total = space.rowCount()
    demo_server.faults.inject(Fault.SERVICE_UNAVAILABLE, times=50)
    with qtbot.waitSignal(window.jobs.failed, timeout=WAIT):
        window.sync_action.trigger()
    message = window.error_bar.text_label.text()
    assert message.startswith(f"{demo_server.space_id} could not be synced. ")
    assert window.whole_space.model is space, "the copy shown stays"
    assert space.rowCount() == total
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    with CardStore.open(path) as store:
        assert store.current is not None
        assert store.current.card_count == total


def menu_titles(window: MainWindow) -> list[str]:
    menu = window.columns.header_menu(window)
    try:
        return [action.text() for action in menu.actions()]
    finally:
        menu.close()


def test_the_whole_space_has_its_own_columns_arranged_as_the_person_left_them_on_the_pages(
    window, demo_server, qtbot
):
    window.include_emails_check.setChecked(True)
    open_space(qtbot, window, demo_server.space_id)
    header = window.table.horizontalHeader()
    position = window.model.column_of("position")
    assert position is not None
    window.columns.set_visible(position, False)  # as from the header menu
    space = sync(qtbot, window)  # a copy with the cards' e-mails
    window.whole_space.switch.activated.emit(PAGES)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.include_emails_check.setChecked(False)
    assert "E-mails" not in menu_titles(window)

    window.whole_space.switch.activated.emit(WHOLE_SPACE)
    space = window.whole_space.model
    assert space is not None
    titles = [column.title for column in space.columns]
    assert "E-mails" in titles
    by_place = sorted(range(len(titles)), key=header.visualIndex)
    assert menu_titles(window) == [titles[logical] for logical in by_place]
    assert header.isSectionHidden(space.column_of("position"))
    assert not header.isSectionHidden(space.column_of("display_name"))

    window.whole_space.switch.activated.emit(PAGES)
    assert "E-mails" not in menu_titles(window)
    assert header.isSectionHidden(window.model.column_of("position")), "kept on the pages"


def selected_ids(window: MainWindow, space: SpaceTableModel) -> set[str]:
    rows = {index.row() for index in window.table.selectionModel().selectedRows()}
    return {str(card.uuid) for row in rows if (card := space.card(row)) is not None}


def three_chosen(qtbot, window: MainWindow, space_id: str) -> SpaceTableModel:
    """A space synced and shown whole, row 7 current and rows 2 and 3 selected too."""
    open_space(qtbot, window, space_id)
    space = sync(qtbot, window)
    window.table.setCurrentIndex(space.index(7, 1))
    for row in (2, 3):
        window.table.selectionModel().select(space.index(row, 1), Flag.Select | Flag.Rows)
    return space


def test_the_selected_cards_stay_selected_across_a_sort_and_a_filter(
    window, demo_server, qtbot, monkeypatch
):
    space = three_chosen(qtbot, window, demo_server.space_id)
    table = window.table
    chosen = selected_ids(window, space)
    current = space.card(7)
    assert current is not None
    assert len(chosen) == 3

    name = space.column_of("display_name")
    assert name is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    assert selected_ids(window, space) == chosen
    assert space.card(table.currentIndex().row()) == current

    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText("no such card anywhere")
    assert space.rowCount() == 0
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText("")
    assert selected_ids(window, space) == chosen, "kept while no card matched"

    monkeypatch.setattr(whole_space_view, "KEPT_SELECTION", 2)
    table.selectAll()
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        table.sortByColumn(name, Qt.SortOrder.AscendingOrder)
    assert selected_ids(window, space) == {current.uuid}, "of too many, the current card only"


def test_cards_taken_out_of_the_selection_stay_out_across_a_sort(window, demo_server, qtbot):
    """Else the next sort selects them again, and Export as vCards takes those three
    cards instead of every card shown."""
    space = three_chosen(qtbot, window, demo_server.space_id)
    table, selection = window.table, window.table.selectionModel()
    name = space.column_of("display_name")
    assert name is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        table.sortByColumn(name, Qt.SortOrder.AscendingOrder)
    assert len(selected_ids(window, space)) == 3
    selection.clearSelection()  # Ctrl+click on each: the current card stays
    current = space.card(table.currentIndex().row())
    assert current is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    assert space.card(table.currentIndex().row()) == current
    assert selected_ids(window, space) <= {current.uuid}, "at most the current card, as clicked"
    chosen = window.exports.chosen_cards()
    assert chosen is not None
    assert chosen.stem.endswith("-all"), "every card, not the three"
    assert chosen.count == space.rowCount()


def slowed_whole_answers(monkeypatch, seconds: float) -> None:
    """Every whole answer of a sort or filter takes `seconds` more, as of a large space;
    its first rows come as ever."""
    monkeypatch.setattr(space_queries, "FIRST_WITHIN", 10.0)  # on a busy machine too
    ordered = CardStore.ordered

    def slow(store: CardStore, *args: Any, **options: Any) -> list[int]:
        if options.get("limit") is None:
            time.sleep(seconds)
        return ordered(store, *args, **options)

    monkeypatch.setattr(CardStore, "ordered", slow)


def first_by_name_current(qtbot, window: MainWindow, space_id: str) -> tuple[SpaceTableModel, int]:
    """A space of more cards than the first rows of an answer, synced and sorted by name,
    its first card current; the model, and the name's column."""
    open_space(qtbot, window, space_id)
    space = sync(qtbot, window)
    assert space.rowCount() > space_queries.FIRST_ROWS
    name = space.column_of("display_name")
    assert name is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.table.sortByColumn(name, Qt.SortOrder.AscendingOrder)
    window.table.setCurrentIndex(space.index(0, name))
    return space, name


def test_a_card_chosen_among_the_first_rows_of_a_sort_stays_chosen_when_the_rest_come(
    window, demo_server, qtbot, monkeypatch
):
    """The card current before the sort is not among the first rows; the person picks
    another meanwhile, which the rest of the answer must not take away."""
    space, name = first_by_name_current(qtbot, window, demo_server.space_id)
    table = window.table
    slowed_whole_answers(monkeypatch, 1.0)
    table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: space.rowCount() == space_queries.FIRST_ROWS, timeout=WAIT)
    assert space.is_sorting
    table.setCurrentIndex(space.index(3, name))
    chosen = space.card(3)
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        pass
    assert space.rowCount() > space_queries.FIRST_ROWS
    assert table.currentIndex().row() == 3
    assert space.card(3) == chosen
    assert window.details_pane.card == chosen


def sorted_names(window: MainWindow, rows: int) -> list[str]:
    model, column = window.table.model(), window.columns.model.column_of("display_name")
    assert column is not None
    return [str(model.index(row, column).data()) for row in range(rows)]


def test_the_order_chosen_stays_when_the_table_switches_between_pages_and_whole_space(
    window, demo_server, qtbot
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    header = window.table.horizontalHeader()
    name = space.column_of("display_name")
    assert name is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)

    window.whole_space.switch.activated.emit(PAGES)
    shown = window.model.page
    assert shown is not None
    on_page = sorted_names(window, len(shown.cards))
    assert on_page == sorted(on_page, key=text_collator().sortKey, reverse=True)
    assert header.sortIndicatorSection() == window.model.column_of("display_name")
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder

    connects = window.model.column_of("connects")
    assert connects is not None
    window.table.sortByColumn(connects, Qt.SortOrder.AscendingOrder)
    window.whole_space.switch.activated.emit(WHOLE_SPACE)
    space = window.whole_space.model
    assert space is not None
    qtbot.waitUntil(lambda: not space.is_sorting, timeout=WAIT)
    counts = [card.connects for row in range(space.rowCount()) if (card := space.card(row))]
    assert counts == sorted(counts, key=lambda count: (count is None, count))
    assert header.sortIndicatorSection() == space.column_of("connects")


@pytest.mark.parametrize("locale", ["en_US", "de_DE", "en_GB"])
def test_the_switch_names_the_sync_time_in_hours_and_minutes(qapp, locale):
    now = datetime.now().astimezone().replace(hour=15, minute=18, second=42)
    before = QLocale()
    QLocale.setDefault(QLocale(locale))
    try:
        label = whole_space_view.synced_label(Generation(1, now, 240))
    finally:
        QLocale.setDefault(before)
    time = QLocale(locale).toString(QTime(15, 18), QLocale.FormatType.ShortFormat)
    assert label == f"Whole space (synced {time})"
    assert "42" not in label


def drawn_choice(
    qtbot, label: str, width: Callable[[whole_space_view.SourceSwitch], int] | None = None
) -> str:
    """The text a switch offering `label` draws at the `width` it is given (its least by
    default)."""
    switch = whole_space_view.SourceSwitch()
    qtbot.addWidget(switch)
    switch.offer(label)
    switch.setCurrentIndex(WHOLE_SPACE)
    assert switch.minimumSizeHint().width() < switch.sizeHint().width()
    given = width(switch) if width is not None else switch.minimumSizeHint().width()
    switch.resize(given, switch.sizeHint().height())
    drawn: list[str] = []
    real_draw = QStylePainter.drawControl

    def draw(painter, element, option):
        if element == QStyle.ControlElement.CE_ComboBoxLabel:
            drawn.append(option.currentText)
        real_draw(painter, element, option)

    QStylePainter.drawControl = draw  # type: ignore[method-assign]
    try:
        switch.grab()
    finally:
        QStylePainter.drawControl = real_draw  # type: ignore[method-assign]
    assert switch.toolTip() == label
    assert drawn
    return drawn[-1]


def test_a_narrow_switch_cuts_its_text_with_an_ellipsis_and_keeps_it_whole_as_tooltip(qtbot):
    label = "Whole space (synced on a long, long day of the year)"
    drawn = drawn_choice(qtbot, label)
    assert drawn.endswith("…")
    assert len(drawn) < len(label)


@pytest.mark.parametrize("label", ["Whole space (synced 14:02)", "Ganzer Bereich (Stand 14:02)"])
def test_a_narrow_switch_keeps_the_sync_time_and_cuts_the_words_before_it(qtbot, label):
    words, time = label.split(" (")
    assert drawn_choice(qtbot, label, width=lambda _switch: 10_000) == label
    a_word = QFontMetrics(QApplication.font()).horizontalAdvance("space")
    drawn = drawn_choice(qtbot, label, width=lambda switch: switch.sizeHint().width() - a_word)
    assert drawn.startswith(words[:2])
    assert drawn.endswith(f"… ({time}")
    assert drawn_choice(qtbot, label).endswith(f"({time}"), "at the least width too"


def test_the_current_card_is_found_again_in_the_rest_of_an_answer(
    window, demo_server, qtbot, monkeypatch
):
    """A card the first rows of a new order do not hold is current again once the rest
    of the answer comes, and in view."""
    monkeypatch.setattr(space_queries, "FIRST_WITHIN", 10.0)  # first rows on a busy machine too
    space, name = first_by_name_current(qtbot, window, demo_server.space_id)
    table = window.table
    first = space.card(0)
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    row = table.currentIndex().row()
    assert row >= space_queries.FIRST_ROWS, "it came with the rest of the answer"
    assert space.card(row) == first
    qtbot.waitUntil(
        lambda: table.visualRect(table.currentIndex()).intersects(table.viewport().rect())
    )


def test_a_slow_sort_of_the_whole_space_says_so_until_its_rows_come(
    window, demo_server, qtbot, monkeypatch
):
    """As the first sort after the reader's language changed, which ranks every text."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    ordered = CardStore.ordered

    def slow(store: CardStore, *args, **options):
        time.sleep(0.6)
        return ordered(store, *args, **options)

    monkeypatch.setattr(CardStore, "ordered", slow)
    label = window.filter_row.count_label
    name = space.column_of("display_name")
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
        qtbot.waitUntil(lambda: label.text() == "Sorting…", timeout=WAIT)
    assert label.text() == f"{space.total_count()} cards", "no filter typed: the space's count"


def test_whole_space_columns_fit_their_content_as_the_view_would_size_them(
    window, demo_server, qtbot
):
    """Measured from the model's texts directly, as Qt measures the cells' own."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    space = window.whole_space.model
    assert space is not None
    assert window.table.model() is space
    table, header = window.table, window.table.horizontalHeader()
    assert space.rowCount() > FITTED_ROWS
    grid = 1 if table.showGrid() else 0
    for column in range(header.count()):
        if column == space.column_of("avatar") or header.isSectionHidden(column):
            continue
        # What `resizeColumnToContents` works out, over the rows the fitting measures.
        cells = max(
            table.sizeHintForIndex(space.index(row, column)).width() for row in range(FITTED_ROWS)
        )
        expected = max(cells + grid, header.sectionSizeHint(column))
        assert window.columns.content_width(column) == expected, column


def test_a_filtered_whole_space_fits_a_screen_800_pixels_wide(language, window, demo_server, qtbot):
    """The switch, the filter, the count of a large space and Sync Space beside the pane."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.show()
    qtbot.waitExposed(window)
    window.filter_row.filter_edit.setText("a")
    window.filter_row.show_count(99_999, 100_000)  # as wide as a count comes
    window.resize(800, 600)
    qtbot.wait(50)
    assert window.width() <= 800, language


def test_a_new_sync_keeps_the_order_the_filter_and_the_current_card(window, demo_server, qtbot):
    """Syncing again while the whole space is shown shows the new copy as the old one was."""
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    name = space.column_of("display_name")
    assert name is not None
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.table.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    window.filter_edit.setText("a")
    qtbot.waitUntil(lambda: not space.is_sorting, timeout=WAIT)
    window.table.setCurrentIndex(space.index(5, name))
    chosen = space.card(5)
    selection = window.table.selectionModel()
    selection.select(space.index(8, name), Flag.Select | Flag.Rows)
    selected = selected_cards(window, space)
    assert len(selected) == 2
    names = shown_names(space)

    space = sync(qtbot, window)
    qtbot.waitUntil(lambda: window.details_pane.card == chosen, timeout=WAIT)
    current = window.table.currentIndex()
    assert space.card(current.row()) == chosen
    assert selected_cards(window, space) == selected
    assert shown_names(space) == names, "the same cards, in the same order"
    assert window.table.horizontalHeader().sortIndicatorSection() == name
    assert window.filter_edit.text() == "a"
    viewport = window.table.viewport()
    qtbot.waitUntil(lambda: viewport.rect().contains(window.table.visualRect(current)))


def shown_names(space: SpaceTableModel) -> list[str | None]:
    return [card.display_name for row in range(space.rowCount()) if (card := space.card(row))]


def selected_cards(window: MainWindow, space: SpaceTableModel) -> list[str | None]:
    rows = sorted({index.row() for index in window.table.selectionModel().selectedIndexes()})
    return [card.uuid for row in rows if (card := space.card(row))]


def synced_elsewhere(path: Path, *, dropping: int) -> None:
    """Another program's sync of the copy at `path` (a scheduled `cardviewer sync`, another
    window's): the same cards as the copy now, but for the one at place `dropping`."""
    with CardStore.open(path) as store:
        current = store.current
        assert current is not None
        kept = [card for place, card in enumerate(store.cards()) if place != dropping]
        sync = store.begin_sync(with_emails=current.with_emails)
        sync.add(kept)
        sync.finish()


def test_a_sync_by_another_program_is_shown_with_the_current_card_kept(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    view = window.whole_space
    assert view.follows_newer_copies, "it looks for newer copies while the space is shown"
    window.table.setCurrentIndex(space.index(5, 2))
    chosen = space.card(5)
    view.follow_newer_copy()
    assert view.model is space, "nothing newer: the copy shown stays"

    synced_elsewhere(space.path, dropping=0)
    view.follow_newer_copy()
    newer = view.model
    assert newer is not None
    assert newer is not space
    assert newer.rowCount() == space.rowCount() - 1
    qtbot.waitUntil(lambda: window.details_pane.card == chosen, timeout=WAIT)
    assert newer.card(window.table.currentIndex().row()) == chosen
    when = window.whole_space.switch.currentText().removeprefix("Whole space (synced ")
    assert window.status_bar.whole_message() == (
        f"Synced again meanwhile, at {when.removesuffix(')')}."
    ), "not the switch's label again"

    window.whole_space.switch.activated.emit(PAGES)
    assert not view.follows_newer_copies, "not while the pages are shown"


def test_the_window_s_own_sync_is_not_taken_for_another_program_s(
    window, demo_server, qtbot, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    monkeypatch.setattr(type(window.jobs), "fetching_whole_space", property(lambda _: True))
    synced_elsewhere(space.path, dropping=0)  # as the window's sync makes its copy current
    window.whole_space.follow_newer_copy()
    assert window.whole_space.model is space, "the sync shows its copy once it is done"


def test_an_export_keeps_to_the_copy_shown_when_another_program_synced_meanwhile(
    window, demo_server, qtbot, tmp_path
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    shown = [card.uuid for row in range(space.rowCount()) if (card := space.card(row))]
    synced_elsewhere(space.path, dropping=0)  # not followed yet: the copy shown stays
    target = Path(tmp_path) / "shown.csv"
    window.ask_export_path = lambda suggested, title="": target
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.export_action.trigger()
    delimiter = export_csv_delimiter(window.settings)
    rows = list(csv.reader(target.read_text("utf-8-sig").splitlines(), delimiter=delimiter))
    assert [row[0] for row in rows[1:]] == shown


def test_a_newer_copy_that_cannot_be_opened_is_said_once_and_the_copy_shown_stays(
    window, demo_server, qtbot, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    synced_elsewhere(space.path, dropping=0)

    def newer_version(*_args: object, **_options: object) -> SpaceTableModel:
        raise store_schema.StoreError("schema 99", store_schema.StoreProblem.NEWER_VERSION)

    monkeypatch.setattr(whole_space_view, "SpaceTableModel", newer_version)
    failures: list[str] = []
    window.whole_space.failed.connect(lambda text, _detail: failures.append(text))
    window.whole_space.follow_newer_copy()
    assert window.whole_space.model is space
    assert failures == [
        "The local copy was written by a newer version of CardViewer and is left as it is; "
        "update CardViewer to use it."
    ]
    assert not window.whole_space.follows_newer_copies, "not tried again every few seconds"


def test_the_notes_of_the_changes_shown_fit_a_small_window_whole(
    language, window, demo_server, qtbot
):
    """Cut in the middle, a German note lost what it was about."""
    synced_with_changes(qtbot, window, demo_server.space_id)
    window.show()
    window.resize(720, 540)  # what a screen of 800 x 600 gives the window
    qtbot.waitExposed(window)
    bar = window.status_bar
    for choice in (ADDED, REMOVED, CHANGED):
        bar.clearMessage()
        choose(qtbot, window, choice)
        qtbot.waitUntil(lambda: bar.whole_message() != "", timeout=WAIT)
        assert bar.currentMessage() == bar.whole_message(), (language, choice)


def test_a_sync_the_session_ended_goes_on_into_the_copy_of_the_account_signed_in(
    window, demo_server, qtbot
):
    """The sign-in over the window may be another account's: its cards must not go into
    the copy of the account before, which signing out would then leave behind."""
    space_id = demo_server.space_id
    open_space(qtbot, window, space_id)
    before = window.whole_space.store_path(space_id)
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.jobs.signInNeeded, timeout=WAIT):
        window.sync_action.trigger()
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT) as done:
        window.signed_in_again("someone@example.com", demo_server.base_url)
    now = window.whole_space.store_path(space_id)
    assert now != before
    assert done.args[0].path == now
    assert before is not None
    assert not before.exists(), "no copy (nor cards of this account) for the one before"


def test_sync_space_asked_for_during_a_sort_begins_once_the_sort_is_done(
    window, demo_server, qtbot, monkeypatch
):
    """A sort may write to the copy (its first in a language the copy was not synced in
    ranks the texts anew): a sync begun meanwhile failed, saying another program held
    the copy."""
    space = sorting_slowly(qtbot, window, demo_server, monkeypatch)
    notes: list[str] = []
    window.statusBar().messageChanged.connect(notes.append)
    window.sync_action.trigger()
    assert "Waiting for the cards shown to be sorted; then this goes on." in notes
    assert not window.jobs.fetching_whole_space, "it waits"
    qtbot.waitUntil(lambda: window.jobs.fetching_whole_space, timeout=WAIT)
    assert not space.is_sorting
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT) as done:
        pass
    assert done.args[0].count == space.total_count()


def test_the_whole_space_of_a_space_without_cards_says_so_as_its_pages_do(
    window, demo_server, qtbot
):
    """It showed the headings of an empty table, unexplained."""
    open_space(qtbot, window, demo_server.empty_space_id)
    sync(qtbot, window)
    assert window.whole_space.shows_whole_space
    assert window.stack.currentWidget() is window.empty_page
    assert window.empty_page.title_label.text() == "No cards"
    assert not window.filter_edit.isEnabled()
    assert not window.export_action.isEnabled()


def test_a_space_that_cannot_be_loaded_points_to_its_synced_copy(window, demo_server, qtbot):
    """With the server out of reach, the centre said to enter a space id and press Open,
    which had been done, and nothing pointed to the copy that could be shown."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.whole_space.show_pages()
    demo_server.faults.inject(Fault.DROP_CONNECTION, times=10)
    window.pages.clear()
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space(demo_server.space_id)
    assert window.stack.currentWidget() is window.hint_page
    qtbot.waitUntil(lambda: window.hint_page.title_label.text() == "No cards shown")
    assert window.hint_page.text_label.text() == (
        "The space's cards could not be loaded. Choose the whole space above to browse "
        "its synced copy."
    )
    assert window.whole_space.switch.isVisible()
    window.pages.clear()  # another space, never synced, that cannot be loaded either
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space(demo_server.empty_space_id)
    qtbot.waitUntil(lambda: "the message above says why" in window.hint_page.text_label.text())
    assert not window.whole_space.offers_copy


def test_signed_out_the_note_and_its_sign_in_stay_over_the_synced_copy_and_back(
    window, demo_server, qtbot
):
    """Showing the copy hid the note, and returning to the pages did not bring it back:
    nothing said any more how to sign in again."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    window.whole_space.show_pages()
    window.jobs.signInNeeded.emit()  # as a request meets the session's end
    assert window.is_signed_out
    note = window.error_bar.message
    assert note.startswith("You are signed out because your session has ended. The cards")
    whole_space_shown(qtbot, window)
    assert not window.error_bar.isHidden()
    assert window.error_bar.message == note
    window.whole_space.show_pages()
    assert not window.error_bar.isHidden()


def test_preferences_stay_open_where_the_person_says_no_to_signing_out(window, demo_server, qtbot):
    """Asked whether to sign out, the synced spaces going with it: Cancel closed
    Preferences all the same, their edits lost."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    dialog = preferences(window)
    window.whole_space.confirm_sign_out = lambda: False
    signed_out: list[bool] = []
    window.signOutRequested.connect(lambda: signed_out.append(True))
    dialog.sign_out_button.click()
    qtbot.wait(50)
    assert window.preferences_dialog is dialog
    assert signed_out == []
    window.whole_space.confirm_sign_out = lambda: True
    dialog.sign_out_button.click()
    assert signed_out == [True]
    qtbot.waitUntil(lambda: window.preferences_dialog is None)


def test_an_export_and_a_sync_asked_for_during_one_sort_both_go_on(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    """Sync Space took the place of an export waiting for the same sort: the export,
    promised with "then this goes on", never came."""
    sorting_slowly(qtbot, window, demo_server, monkeypatch)
    target: Path = tmp_path / "shown.csv"
    asked = exporting_to(window, target)
    window.export_action.trigger()
    window.sync_action.trigger()
    assert asked == [], "both wait"
    qtbot.waitUntil(lambda: window.jobs.fetching_whole_space, timeout=WAIT)
    assert [path.name for path in asked] == [f"{demo_server.space_id}-all.csv"]
    qtbot.waitUntil(target.exists, timeout=WAIT)


def test_local_copies_that_cannot_be_removed_are_not_said_gone(
    window, demo_server, qtbot, monkeypatch
):
    """A copy whose folder may not be changed stayed, and the note said none was left."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None

    def refused(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "unlink", refused)
    dialog = preferences(window)
    dialog.remove_copies_button.click()
    kept = (
        "Some synced spaces could not be removed from this computer; the log says which, and why."
    )
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == kept, timeout=WAIT)
    assert path.exists()
    assert dialog.remove_copies_button.isEnabled(), "to try again"
    dialog.reject()
