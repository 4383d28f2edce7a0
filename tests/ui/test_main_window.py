"""The main window against the demo server: opening spaces, paging, states, errors, export."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtCore import QItemSelectionModel, QLocale, Qt
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox, QToolBar

from cardviewer.demo import Fault
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.settings import Settings
from cardviewer.ui.cards.avatar_delegate import AvatarDelegate
from cardviewer.ui.cards.column_layout import FIT_REST_AFTER_MS
from cardviewer.ui.cards.table_copy import COPY_CELL
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.whole_space_jobs import JobKind, JobResult
from cardviewer.ui.whole_space_view import PAGES
from cardviewer.ui.window_layout import DEFAULT_SIZE
from tests.ui.clients import single_try_client
from tests.ui.error_bars import action_buttons, looks_like_information
from tests.ui.windows import Closer, open_window

LOAD_TIMEOUT = 10_000


@pytest.fixture
def client(demo_server, arun):
    client = single_try_client(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    yield client
    arun(client.aclose())


@pytest.fixture
def settings():
    return Settings.load()


@pytest.fixture
def make_window(qtbot, arun, client, settings, demo_server):
    closers: list[Closer] = []

    def make(settings: Settings = settings) -> MainWindow:
        return open_window(qtbot, client, settings, closers, email=demo_server.email)

    yield make
    for close in closers:
        arun(close())


@pytest.fixture
def window(make_window):
    return make_window()


def open_space(qtbot, window: MainWindow, space_id: str) -> None:
    window.space_edit.clear()
    qtbot.keyClicks(window.space_edit, space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        qtbot.keyClick(window.space_edit, Qt.Key.Key_Return)


def menu_titled(window: MainWindow, title: str) -> QMenu:
    (menu,) = [a.menu() for a in window.menuBar().actions() if a.text() == title]
    assert isinstance(menu, QMenu)
    return menu


def column_texts(window: MainWindow, key: str) -> list[str]:
    column = window.model.column_of(key)
    assert column is not None
    return [window.proxy.index(row, column).data() for row in range(window.proxy.rowCount())]


def test_starts_with_a_hint_and_nothing_to_do(window, demo_server):
    assert window.stack.currentWidget() is window.hint_page
    assert window.hint_page.text_label.text() == "Enter a space id and press Open."
    assert window.page_bar.isHidden()
    assert not window.export_action.isEnabled()
    assert not window.refresh_action.isEnabled()
    assert window.error_bar.isHidden()
    assert not window.filter_edit.isEnabled(), "no cards to filter yet"
    host = demo_server.base_url.removeprefix("http://")
    assert window.account_label.text() == f"{demo_server.email} on {host}"


def test_typing_a_space_and_enter_shows_its_first_page(window, demo_server, qtbot, settings):
    open_space(qtbot, window, demo_server.space_id)
    assert window.stack.currentWidget() is window.table
    assert not window.page_bar.isHidden()
    assert window.proxy.rowCount() == 10
    assert window.filter_edit.isEnabled()
    assert window.model.current_request == PageRequest(demo_server.space_id, 1, False)
    assert window.page_bar.page_spin.value() == 1
    assert window.page_bar.of_label.text() == "of 24"
    assert window.page_bar.summary_label.text() == "Showing 1\u201310 of 240 cards"
    assert demo_server.space_id in window.windowTitle()
    assert window.export_action.isEnabled()
    assert window.refresh_action.isEnabled()
    assert settings.recent_spaces == [demo_server.space_id]
    assert Settings.load().last_space == demo_server.space_id
    assert window.space_combo.itemText(0) == demo_server.space_id


def test_the_open_button_opens_the_typed_space(window, demo_server, qtbot):
    window.space_combo.setEditText(f"  {demo_server.space_id} ")
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.open_action.trigger()
    assert window.model.current_request is not None
    assert window.model.current_request.space_id == demo_server.space_id


def test_opening_nothing_asks_for_a_space_id(window, qtbot):
    window.space_combo.setEditText("   ")
    window.open_action.trigger()
    assert window.pages.pending_request is None
    assert window.statusBar().currentMessage() == "Enter the id of a space first."


def test_a_slow_first_page_is_one_loading_state_that_esc_stops(window, demo_server, qtbot):
    demo_server.config.latency = 30.0
    window.space_combo.setEditText(demo_server.space_id)
    window.open_space()
    assert window.stack.currentWidget() is window.stack.loading_page
    title = window.stack.loading_page.title_label.text()
    assert title == f"Loading page 1 of {demo_server.space_id}\u2026"
    assert window.stack.loading_page.action_button.text() == "Stop Loading"
    assert not window.busy_indicator.stop_button.isHidden()
    assert window.stop_loading_action.isEnabled()
    qtbot.keyClick(window.space_edit, Qt.Key.Key_Escape)
    assert not window.pages.is_loading
    assert window.stack.currentWidget() is window.hint_page
    assert window.busy_indicator.isHidden()
    assert window.busy_indicator.stop_button.isHidden()
    assert not window.stop_loading_action.isEnabled()
    assert window.statusBar().currentMessage() == "Stopped loading page 1."
    assert window.error_bar.isHidden()


def test_while_another_page_loads_the_page_bar_names_it_until_it_is_stopped(
    window, demo_server, qtbot
):
    open_space(qtbot, window, demo_server.space_id)
    demo_server.config.latency = 30.0
    window.go_to_page(17)
    bar = window.page_bar
    assert bar.page_spin.value() == 17
    assert bar.summary_label.text() == "Loading page 17\u2026"
    assert window.stack.currentWidget() is window.table  # page 1 stays meanwhile
    window.busy_indicator.stop_button.click()
    assert not window.pages.is_loading
    assert bar.page_spin.value() == 1
    assert bar.summary_label.text() == "Showing 1\u201310 of 240 cards"
    assert window.model.current_request == PageRequest(demo_server.space_id, 1, False)
    assert window.statusBar().currentMessage() == "Stopped loading page 17."


def test_recent_spaces_are_offered(make_window, qtbot):
    settings = Settings.load()
    settings.recent_spaces = ["space-b", "space-a"]
    settings.last_space = "space-b"
    window = make_window(settings)
    items = [window.space_combo.itemText(i) for i in range(window.space_combo.count())]
    assert items == ["space-b", "space-a"]
    assert window.space_text == "space-b"


def test_busy_while_loading(window, demo_server, qtbot):
    demo_server.config.latency = 0.2
    window.space_combo.setEditText(demo_server.space_id)
    window.open_space()
    assert not window.busy_indicator.isHidden()
    assert window.statusBar().currentMessage().startswith("Loading page 1 of ")
    qtbot.waitUntil(lambda: not window.pages.is_loading, timeout=LOAD_TIMEOUT)
    assert window.busy_indicator.isHidden()


def test_the_page_bar_moves_through_pages(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    first_names = column_texts(window, "display_name")
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        qtbot.mouseClick(window.page_bar.next_button, Qt.MouseButton.LeftButton)
    assert window.model.current_request == PageRequest(demo_server.space_id, 2, False)
    assert window.page_bar.summary_label.text() == "Showing 11\u201320 of 240 cards"
    assert column_texts(window, "display_name") != first_names
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        qtbot.mouseClick(window.page_bar.last_button, Qt.MouseButton.LeftButton)
    assert window.page_bar.page_spin.value() == 24
    assert not window.page_bar.next_button.isEnabled()


def test_leaving_the_space_field_does_not_reopen_the_space(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(2)
    window.activateWindow()
    window.space_edit.setFocus()
    qtbot.waitUntil(window.space_edit.hasFocus)
    window.table.setFocus()
    qtbot.waitUntil(window.table.hasFocus)
    assert window.pages.pending_request is None
    assert window.model.current_request == PageRequest(demo_server.space_id, 2, False)


def test_avatars_have_their_delegate_and_room(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    column = window.model.column_of("avatar")
    assert isinstance(window.table.itemDelegateForColumn(column), AvatarDelegate)
    assert window.table.rowHeight(0) >= 32 + 4
    assert window.table.columnWidth(column) >= 32 + 4


def test_columns_are_readable_but_never_huge(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    header = window.table.horizontalHeader()
    ids = window.model.column_of("uuid")
    assert ids is not None
    assert header.isSectionHidden(ids), "the card id is shown on request"
    for column in range(window.model.columnCount() - 1):
        if column != ids:
            assert 20 <= header.sectionSize(column) <= 280
    assert window.table.textElideMode() == Qt.TextElideMode.ElideRight
    assert window.table.alternatingRowColors()


def test_an_empty_space_says_so(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.empty_space_id)
    assert window.stack.currentWidget() is window.empty_page
    assert window.empty_page.text_label.text() == "This space has no cards yet."
    assert not window.export_action.isEnabled()
    # Said once, in the middle: no page bar of one empty page, nothing to filter.
    assert window.page_bar.isHidden()
    assert not window.filter_edit.isEnabled()
    window.filter_edit.setText("anna")
    assert window.filter_count_label.text() == "", 'no "0 of 0 shown"'


def test_a_page_past_the_end_says_so(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(30)
    assert window.stack.currentWidget() is window.empty_page
    assert window.empty_page.text_label.text() == "There are no cards on this page."
    assert window.page_bar.isVisible()
    assert window.page_bar.previous_button.isEnabled()


def test_an_unknown_space_is_explained(window, qtbot):
    window.space_combo.setEditText("no-such-space")
    with qtbot.waitSignal(window.pages.loadFailed, timeout=LOAD_TIMEOUT):
        window.open_space()
    assert not window.error_bar.isHidden()
    assert "space was not found" in window.error_bar.message
    assert window.error_bar.retry_button.isHidden()
    assert window.stack.currentWidget() is window.hint_page
    assert window.page_bar.isHidden()


def test_a_failure_keeps_the_page_and_retry_recovers(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    first_names = column_texts(window, "display_name")
    demo_server.faults.inject(Fault.HTML_502)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=LOAD_TIMEOUT):
        qtbot.mouseClick(window.page_bar.next_button, Qt.MouseButton.LeftButton)
    assert not window.error_bar.isHidden()
    assert "error 502" in window.error_bar.message
    assert column_texts(window, "display_name") == first_names
    assert window.page_bar.page_spin.value() == 1
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        qtbot.mouseClick(window.error_bar.retry_button, Qt.MouseButton.LeftButton)
    assert window.error_bar.isHidden()
    assert window.page_bar.page_spin.value() == 2


def test_an_ended_session_keeps_the_page_and_asks_to_sign_in(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    names = column_texts(window, "display_name")
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=LOAD_TIMEOUT):
        window.refresh_action.trigger()
    assert window.is_signed_out
    assert column_texts(window, "display_name") == names
    assert window.stack.currentWidget() is window.table
    assert window.account_label.text().startswith("Signed out (")
    assert looks_like_information(window.error_bar)
    assert "session has ended" in window.error_bar.message
    assert window.error_bar.retry_button.isHidden()
    assert window.sign_in_action.isVisible()
    assert not window.page_bar.isEnabled()
    assert not window.include_emails_check.isEnabled()
    [sign_in] = action_buttons(window.error_bar)
    with qtbot.waitSignal(window.signInRequested):
        qtbot.mouseClick(sign_in, Qt.MouseButton.LeftButton)


def test_signed_out_nothing_is_sent_and_refresh_asks_to_sign_in(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=LOAD_TIMEOUT):
        window.refresh_action.trigger()
    demo_server.clear_requests()
    with qtbot.waitSignal(window.signInRequested):
        window.refresh_action.trigger()
    with qtbot.waitSignal(window.signInRequested):
        window.go_to_page(3)
    assert window.pages.pending_request is None
    assert [r for r in demo_server.requests if r.server == "api"] == []


PAGING = ("first_page", "previous_page", "next_page", "last_page", "go_to_page")


def test_signed_out_paging_is_unavailable_and_the_status_bar_says_why(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(2)
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=LOAD_TIMEOUT):
        window.refresh_action.trigger()
    demo_server.clear_requests()
    bar = window.page_bar
    for name in PAGING:
        action = getattr(window, f"{name}_action")
        assert not action.isEnabled(), name
        window.table.setFocus()
        qtbot.keySequence(window.table, action.shortcut())
    for control in (bar.first_button, bar.previous_button, bar.next_button, bar.last_button):
        assert not control.isEnabled()
    assert not bar.page_spin.isEnabled()
    assert [r for r in demo_server.requests if r.server == "api"] == []
    assert window.statusBar().currentMessage() == (
        "Signed out: sign in to open other pages and spaces."
    )
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.signed_in_again(demo_server.email, demo_server.base_url)
    assert all(getattr(window, f"{name}_action").isEnabled() for name in PAGING)
    assert "Signed out" not in window.statusBar().currentMessage()


def test_signed_in_again_repeats_the_request_that_failed(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    window.include_emails_check.setChecked(True)
    qtbot.waitUntil(lambda: window.model.current_request.with_emails, timeout=LOAD_TIMEOUT)
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=LOAD_TIMEOUT):
        window.go_to_page(5)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.signed_in_again("someone@example.com", demo_server.base_url)
    assert window.model.current_request == PageRequest(demo_server.space_id, 5, True)
    assert not window.is_signed_out
    assert window.error_bar.isHidden()
    assert not window.sign_in_action.isVisible()
    assert window.page_bar.isEnabled()
    assert window.account_label.text().startswith("someone@example.com on ")


def test_refresh_loads_the_page_again(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    demo_server.clear_requests()
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.refresh_action.trigger()
    assert [r.path for r in demo_server.requests if r.server == "api"] == [
        f"/v1/spaces/{demo_server.space_id}/cards?page=1"
    ]
    assert window.refresh_action.shortcut().toString() == "F5"


def test_including_e_mails_reloads_with_an_e_mail_column(window, demo_server, qtbot, settings):
    open_space(qtbot, window, demo_server.space_id)
    assert window.model.column_of("emails") is None
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.include_emails_check.setChecked(True)
    assert window.model.current_request == PageRequest(demo_server.space_id, 1, True)
    assert window.model.column_of("emails") is not None
    assert sum("@" in text for text in column_texts(window, "emails")) >= 5
    assert settings.include_emails is True
    assert Settings.load().include_emails is True


def test_sorting_by_a_column_orders_the_page(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    column = window.model.column_of("username")
    window.table.sortByColumn(column, Qt.SortOrder.AscendingOrder)
    names = column_texts(window, "username")
    assert names == sorted(names, key=str.casefold)


def test_export_writes_the_page_as_csv(window, demo_server, qtbot, tmp_path, monkeypatch):
    open_space(qtbot, window, demo_server.space_id)
    asked = []

    def ask(suggested):
        asked.append(suggested)
        return tmp_path / "cards"

    monkeypatch.setattr(window, "ask_export_path", ask)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_action.trigger()
    assert asked[0].name == f"{demo_server.space_id}-page-1.csv"
    target = tmp_path / "cards.csv"
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:3] == ["ID", "Avatar URL", "Name"]
    assert len(rows) == 11
    assert [row[0] for row in rows[1:]] == [window.model.card(row).uuid for row in range(10)]
    assert [row[2] for row in rows[1:]] == [
        window.model.card(row).display_name or "" for row in range(10)
    ]
    assert window.status_bar.whole_message() == f"Exported 10 cards to {target}"
    assert window.export_action.shortcut().toString() == "Ctrl+E"
    file_menu = window.menuBar().actions()[0].menu()
    toolbar = window.findChild(QToolBar)
    assert window.export_action in file_menu.actions()
    assert window.export_action in toolbar.actions()
    # The next export starts in the folder chosen last.
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_action.trigger()
    assert asked[1].parent == tmp_path


def test_a_failed_export_is_explained(window, demo_server, qtbot, tmp_path, monkeypatch):
    open_space(qtbot, window, demo_server.space_id)
    target = tmp_path / "gone" / "cards.csv"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested: target)
    with qtbot.waitSignal(window.jobs.failed, timeout=10_000):
        window.export_action.trigger()
    assert not window.error_bar.isHidden()
    assert window.error_bar.message.startswith(f"The page could not be saved as {target}.")
    assert "folder does not exist" in window.error_bar.message
    assert window.error_bar.retry_button.isHidden()
    assert not target.exists()


def test_a_cancelled_export_writes_nothing(window, demo_server, qtbot, tmp_path, monkeypatch):
    open_space(qtbot, window, demo_server.space_id)
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested: None)
    with (
        qtbot.assertNotEmitted(window.jobs.finished, wait=200),
        qtbot.assertNotEmitted(window.jobs.failed),
    ):
        window.export_action.trigger()
    assert list(tmp_path.iterdir()) == []
    assert window.error_bar.isHidden()


def test_nothing_to_export_before_a_page_is_shown(window, monkeypatch):
    monkeypatch.setattr(window, "ask_export_path", pytest.fail)
    window.exports.export_page()
    assert window.statusBar().currentMessage() == "There are no cards to export."


def test_sign_out_and_close_are_signals(window, qtbot):
    window.whole_space.confirm_sign_out = pytest.fail  # no copy to lose: not asked
    with qtbot.waitSignal(window.signOutRequested):
        window.sign_out_action.trigger()
    assert window.quit_action.shortcut().toString() == "Ctrl+Q"
    with qtbot.waitSignal(window.closed):
        window.quit_action.trigger()
    assert not window.isVisible()


def test_about_opens_without_blocking(window, qtbot):
    window.about_action.trigger()
    boxes = [w for w in window.findChildren(QMessageBox) if w.isVisible()]
    assert len(boxes) == 1
    assert "CardViewer" in boxes[0].text()
    boxes[0].close()


def test_the_log_folder_opens_from_the_help_menu(window, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    from cardviewer.paths import log_dir

    opened = []

    def open_url(url):
        opened.append(url)
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    help_menu = window.menuBar().actions()[-1].menu()
    assert window.open_log_folder_action in help_menu.actions()
    window.open_log_folder_action.trigger()
    assert [url.toLocalFile() for url in opened] == [str(log_dir())]


def test_a_log_folder_that_cannot_be_opened_is_said(window, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: False)
    window.open_log_folder_action.trigger()
    assert window.statusBar().currentMessage().startswith("Could not open the log folder")


def read_rows(path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_export_all_writes_every_card_of_the_space(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    asked = []

    def ask(suggested, title=""):
        asked.append((suggested, title))
        return tmp_path / "everyone"

    monkeypatch.setattr(window, "ask_export_path", ask)
    assert window.export_all_action.shortcut().toString() == "Ctrl+Shift+E"
    assert window.export_all_action in window.menuBar().actions()[0].menu().actions()
    with qtbot.waitSignal(window.jobs.finished, timeout=LOAD_TIMEOUT):
        window.export_all_action.trigger()
        assert [(suggested.name, title) for suggested, title in asked] == [
            (f"{demo_server.space_id}-all.csv", "Export All Pages")
        ]
    target = tmp_path / "everyone.csv"
    rows = read_rows(target)
    assert rows[0][:3] == ["ID", "Avatar URL", "Name"]
    assert len(rows) - 1 == window.model.page.meta.total
    assert window.status_bar.whole_message() == f"Exported {len(rows) - 1} cards to {target}"
    assert window.error_bar.isHidden()


def test_export_all_to_a_workbook(window, demo_server, qtbot, tmp_path, monkeypatch):
    open_space(qtbot, window, demo_server.space_id)
    target = tmp_path / "everyone.xlsx"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested, title="": target)
    with qtbot.waitSignal(window.jobs.finished, timeout=LOAD_TIMEOUT):
        window.export_all_action.trigger()
    sheet = openpyxl.load_workbook(target, read_only=True).active
    assert sheet is not None
    assert sheet.max_row - 1 == window.model.page.meta.total


def test_a_failed_export_all_is_explained_and_writes_nothing(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    target = tmp_path / "everyone.csv"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested, title="": target)
    demo_server.faults.inject(Fault.HTML_502, times=100)
    with qtbot.waitSignal(window.jobs.failed, timeout=LOAD_TIMEOUT):
        window.export_all_action.trigger()
    assert not window.error_bar.isHidden()
    assert window.error_bar.message.startswith(
        f"The cards of {demo_server.space_id} could not be exported."
    )
    assert window.error_bar.message.endswith("Nothing was saved.")
    assert not target.exists()

    demo_server.faults.clear()  # the server well again: the export done over clears it
    with qtbot.waitSignal(window.jobs.finished, timeout=LOAD_TIMEOUT):
        window.export_all_action.trigger()
    assert target.exists()
    assert window.error_bar.isHidden(), "it said that nothing was saved"


def start_a_slow_export_all(window, demo_server, qtbot, target, monkeypatch) -> None:
    open_space(qtbot, window, demo_server.space_id)
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested, title="": target)
    demo_server.faults.inject(Fault.SLOW, times=100, delay=1.0)
    window.export_all_action.trigger()
    qtbot.waitUntil(lambda: window.export_all_dialog is not None, timeout=LOAD_TIMEOUT)


def test_a_cancelled_export_all_writes_nothing(window, demo_server, qtbot, tmp_path, monkeypatch):
    target = tmp_path / "everyone.csv"
    start_a_slow_export_all(window, demo_server, qtbot, target, monkeypatch)
    dialog = window.export_all_dialog
    assert dialog is not None
    with qtbot.waitSignal(window.jobs.statusMessage, timeout=LOAD_TIMEOUT):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert window.statusBar().currentMessage() == "Export cancelled; nothing was saved."
    assert window.export_all_dialog is None
    assert not target.exists()


def test_closing_the_window_stops_an_export_all(window, demo_server, qtbot, tmp_path, monkeypatch):
    target = tmp_path / "everyone.csv"
    start_a_slow_export_all(window, demo_server, qtbot, target, monkeypatch)
    ended: list[object] = []
    window.jobs.finished.connect(ended.append)
    window.jobs.failed.connect(lambda *args: ended.append(args))
    window.close()
    qtbot.waitUntil(lambda: window.export_all_dialog is None, timeout=LOAD_TIMEOUT)
    # Well before the slow export could end by itself (24 pages of 1 s, 4 at once).
    qtbot.waitUntil(lambda: not window.jobs.fetching_whole_space, timeout=3000)
    assert ended == []
    assert not target.exists()


def test_export_all_needs_an_open_space(window, monkeypatch):
    assert not window.export_all_action.isEnabled()
    monkeypatch.setattr(window, "ask_export_path", pytest.fail)
    window.exports.export_all()
    assert window.statusBar().currentMessage() == "Open a space first."


def test_a_page_exports_to_a_workbook(window, demo_server, qtbot, tmp_path, monkeypatch):
    open_space(qtbot, window, demo_server.space_id)
    target = tmp_path / "page.xlsx"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested: target)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_action.trigger()
    sheet = openpyxl.load_workbook(target, read_only=True).active
    assert sheet is not None
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("ID", "Avatar URL", "Name")
    assert [row[2] for row in rows[1:]] == [
        window.model.card(row).display_name for row in range(window.model.rowCount())
    ]


def test_an_exported_page_holds_every_value_of_its_cards(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.include_emails_check.setChecked(True)
    target = tmp_path / "page.csv"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested: target)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_action.trigger()
    head, *rows = read_rows(target)
    assert head[:2] == ["ID", "Avatar URL"]
    assert head[2:5] == ["Name", "Username", "Position"]
    assert "" not in head
    assert len(rows) == 10
    expected = demo_server.spaces[demo_server.space_id].cards[:10]
    column = {title: n for n, title in enumerate(head)}
    # A time's heading names the zone it is written in: "Created (Europe/Berlin)".
    [created] = [n for n, title in enumerate(head) if re.fullmatch(r"Created( \(.+\))?", title)]
    for row, card in zip(rows, expected, strict=True):
        assert len(row) == len(head)
        assert row[column["ID"]] == card.uuid
        assert row[column["Avatar URL"]].startswith(demo_server.avatar_base_url + "/avatars/")
        assert row[column["Name"]] == card.display_name
        assert row[column["Public"]] == ("yes" if card.public else "no")
        assert row[column["Connects"]] == str(card.connects)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row[created])
        assert row[column["E-mails"]] == "; ".join(e.email for e in card.emails)
        assert row[column["Space"]].startswith('{"uuid":')


def test_the_keyboard_pages_through_the_space(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    window.table.setFocus()
    last = window.model.page.meta.last_page
    assert not window.previous_page_action.isEnabled()

    def press(key: str) -> int:
        with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
            qtbot.keySequence(window.table, key)
        number: int = window.model.page.meta.current_page
        return number

    assert press("Ctrl+PgDown") == 2
    assert press("Ctrl+PgUp") == 1
    assert press("Alt+End") == last
    assert not window.next_page_action.isEnabled()
    assert press("Alt+Home") == 1
    qtbot.keySequence(window.table, "Ctrl+G")
    assert window.page_bar.page_spin.hasFocus()
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        qtbot.keyClicks(window.page_bar.page_spin, "3")
        qtbot.keyClick(window.page_bar.page_spin, Qt.Key.Key_Return)
    assert window.model.page.meta.current_page == 3
    go_menu = menu_titled(window, "&Go")
    assert window.go_to_page_action in go_menu.actions()


def test_the_column_layout_and_window_size_survive_a_restart(
    make_window, demo_server, qtbot, settings
):
    window = make_window()
    open_space(qtbot, window, demo_server.space_id)
    header = window.table.horizontalHeader()
    name, username = window.model.column_of("display_name"), window.model.column_of("username")
    assert name is not None
    assert username is not None
    header.moveSection(header.visualIndex(username), 1)
    header.resizeSection(name, 234)
    window.columns.set_visible(window.model.column_of("position") or 0, False)
    window.resize(720, 480)  # within the offscreen screen's 800 x 600
    window.close()

    again = make_window(Settings.load())
    assert (again.width(), again.height()) == (720, 480)
    open_space(qtbot, again, demo_server.space_id)
    header = again.table.horizontalHeader()
    assert header.visualIndex(username) == 1
    assert header.sectionSize(name) == 234
    assert header.isSectionHidden(again.model.column_of("position") or 0)


def test_the_header_menu_hides_columns_but_never_the_last(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    header = window.table.horizontalHeader()
    header.customContextMenuRequested.emit(header.rect().center())  # a right-click
    menu = window.header_menu
    titles = [action.text() for action in menu.actions() if action.isCheckable()]
    assert "Name" in titles
    assert "Avatar" in titles
    (position,) = [a for a in menu.actions() if a.text() == "Position"]
    position.setChecked(False)
    assert header.isSectionHidden(window.model.column_of("position") or 0)
    assert window.reset_view_action in menu.actions()
    menu.close()
    for logical in range(header.count() - 1):
        window.columns.set_visible(logical, False)
    header.customContextMenuRequested.emit(header.rect().center())  # a right-click
    (last,) = [a for a in window.header_menu.actions() if a.isCheckable() and a.isChecked()]
    assert not last.isEnabled()
    window.header_menu.close()


@pytest.mark.parametrize("with_emails", [False, True])
def test_columns_fit_their_content_as_the_view_would_size_them(
    window, demo_server, qtbot, with_emails
):
    window.include_emails_check.setChecked(with_emails)
    open_space(qtbot, window, demo_server.space_id)
    header = window.table.horizontalHeader()
    avatar = window.model.column_of("avatar")
    for column in range(header.count()):
        if column == avatar or header.isSectionHidden(column):
            continue
        window.table.resizeColumnToContents(column)
        assert window.columns.content_width(column) == header.sectionSize(column), column


def test_reset_view_brings_every_column_back(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    header = window.table.horizontalHeader()
    qtbot.wait(FIT_REST_AFTER_MS * 3)  # the columns out of view are fitted just after
    fitted = [header.sectionSize(i) for i in range(header.count())]
    header.moveSection(1, 3)
    header.resizeSection(2, 400)
    window.columns.set_visible(3, False)
    window.resize(700, 500)
    window.reset_view_action.trigger()
    assert [header.logicalIndex(v) for v in range(header.count())] == list(range(header.count()))
    hidden = [header.isSectionHidden(i) for i in range(header.count())]
    assert hidden == [column.key == "uuid" for column in window.model.columns]
    qtbot.waitUntil(lambda: [header.sectionSize(i) for i in range(header.count())] == fitted)
    assert window.size() == DEFAULT_SIZE


def test_preferences_choose_the_export_format_delimiter_and_concurrency(
    window, demo_server, qtbot, tmp_path, monkeypatch, settings
):
    open_space(qtbot, window, demo_server.space_id)
    assert window.preferences_action in window.menuBar().actions()[0].menu().actions()
    window.preferences_action.trigger()
    dialog = window.preferences_dialog
    assert dialog is not None
    settings.export_format, settings.csv_delimiter = "xlsx", ";"
    dialog.reject()
    qtbot.waitUntil(lambda: window.preferences_dialog is None)
    asked = []

    def ask(suggested, title=""):
        asked.append(suggested.name)
        return tmp_path / "page.csv"

    monkeypatch.setattr(window, "ask_export_path", ask)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_action.trigger()
    assert asked == [f"{demo_server.space_id}-page-1.xlsx"]
    assert (tmp_path / "page.csv").read_text(encoding="utf-8-sig").startswith("ID;Avatar URL;Name;")


def test_sign_out_from_preferences(window, qtbot):
    window.preferences_action.trigger()
    dialog = window.preferences_dialog
    assert dialog is not None
    with qtbot.waitSignal(window.signOutRequested):
        dialog.signOutRequested.emit()
    qtbot.waitUntil(lambda: window.preferences_dialog is None)


def test_clearing_the_avatar_cache_fetches_avatars_again(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    avatars = window.help.avatars
    assert avatars is not None
    url = next(u for row in range(window.model.rowCount()) if (u := avatar_url_of(window, row)))
    qtbot.waitUntil(lambda: avatars.pixmap(url) is not None, timeout=LOAD_TIMEOUT)
    window.help.clear_avatar_cache()
    assert avatars.pixmap(url) is None
    assert window.statusBar().currentMessage() == "The avatar cache is cleared."
    qtbot.waitUntil(lambda: avatars.pixmap(url) is not None, timeout=LOAD_TIMEOUT)


def avatar_url_of(window: MainWindow, row: int) -> str | None:
    card = window.model.card(row)
    return card.avatar.src if card is not None and card.avatar is not None else None


def test_the_details_pane_follows_the_selected_card(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    pane = window.details_pane
    assert pane.placeholder_label.isVisibleTo(pane)
    window.table.selectRow(2)
    second = window.model.card(window.proxy.mapToSource(window.proxy.index(2, 0)).row())
    assert pane.card is second
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(2)
    assert pane.placeholder_label.isVisibleTo(pane)  # the card shown before is not on this page


def test_a_saved_qr_code_s_folder_is_where_the_next_export_is_offered(
    window, demo_server, qtbot, tmp_path, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    code = window.details_pane.qr_code
    with qtbot.waitSignal(code.codeShown, timeout=LOAD_TIMEOUT):
        window.table.selectRow(0)
    folder = tmp_path / "Visitenkarten"
    folder.mkdir()
    asked: list[Path] = []

    def answer(suggested: Path, title: str = "") -> Path | None:
        asked.append(suggested)
        return folder / "ada.png" if title == "Save QR Code" else None

    monkeypatch.setattr(window, "ask_export_path", answer)
    code.save_button.click()
    assert (folder / "ada.png").exists()
    window.export_action.trigger()
    assert asked[-1].parent == folder
    assert Settings.load().export_folder == str(folder), "and after a restart"


def test_the_details_pane_hides_and_enter_brings_it_back(make_window, demo_server, qtbot):
    window = make_window()
    open_space(qtbot, window, demo_server.space_id)
    window.details_action.trigger()
    assert window.details_pane.isHidden()
    assert Settings.load().details_visible is False
    window.table.setFocus()
    window.table.selectRow(0)
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    assert not window.details_pane.isHidden()
    assert window.details_pane.card is window.model.card(
        window.proxy.mapToSource(window.proxy.index(0, 0)).row()
    )
    window.details_action.trigger()
    window.close()
    assert make_window(Settings.load()).details_pane.isHidden()


def test_a_hidden_details_pane_is_filled_as_it_shows_not_at_every_row(
    make_window, demo_server, qtbot, monkeypatch
):
    """Filling it was most of the work of each key moving down the table, hidden too:
    held down, the key fell behind."""
    window = make_window()
    open_space(qtbot, window, demo_server.space_id)
    window.details_action.trigger()
    assert window.details_pane.isHidden()
    filled: list[object] = []
    fill = window.details_pane.set_card

    def noted(card: object, *args: Any, **options: Any) -> None:
        filled.append(card)
        fill(card, *args, **options)

    monkeypatch.setattr(window.details_pane, "set_card", noted)
    window.table.setFocus()
    window.table.selectRow(0)
    for _ in range(5):
        qtbot.keyClick(window.table, Qt.Key.Key_Down)
    assert filled == []
    window.details_action.trigger()
    shown = window.model.card(window.proxy.mapToSource(window.proxy.index(5, 0)).row())
    assert filled == [shown]
    assert window.details_pane.card is shown
    qtbot.keyClick(window.table, Qt.Key.Key_Down)
    assert len(filled) == 2, "shown, it follows every row"


def test_the_filter_narrows_the_page_and_counts(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    names = column_texts(window, "display_name")
    qtbot.keySequence(window, "Ctrl+F")
    assert window.filter_edit.hasFocus()
    word = names[3].split()[-1]
    qtbot.keyClicks(window.filter_edit, word.upper())
    shown = column_texts(window, "display_name")
    assert names[3] in shown
    assert len(shown) < len(names)
    assert window.filter_count_label.text() == f"{len(shown)} of {len(names)} shown"
    assert "page" in window.filter_edit.placeholderText()
    window.filter_edit.clear()
    assert column_texts(window, "display_name") == names
    assert window.filter_count_label.text() == ""


def test_a_filter_that_matches_nothing_says_so_and_escape_clears_it(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    qtbot.keySequence(window, "Ctrl+F")
    qtbot.keyClicks(window.filter_edit, "<i>nobody</i>")
    page = window.filter_row.no_match_page
    assert window.stack.currentWidget() is page
    assert page.title_label.text() == "No card on this page matches \u201c<i>nobody</i>\u201d"
    qtbot.keyClick(window.filter_edit, Qt.Key.Key_Escape)
    assert window.filter_edit.text() == ""
    assert window.stack.currentWidget() is window.table


def test_counts_in_the_status_bar_have_the_locales_separators(window, tmp_path):
    request = PageRequest("space", 1, False)
    QLocale.setDefault(QLocale("en_US"))
    try:
        window.jobs.finished.emit(JobResult(JobKind.EXPORT_ALL, request, 20000, tmp_path / "a.csv"))
    finally:
        QLocale.setDefault(QLocale.system())
    assert window.statusBar().currentMessage().startswith("Exported 20,000 cards to ")


def test_sorting_by_a_number_column_is_numeric(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    connects = window.model.column_of("connects")
    assert connects is not None
    window.table.sortByColumn(connects, Qt.SortOrder.AscendingOrder)
    values = [int(text.replace(",", "")) for text in column_texts(window, "connects")]
    assert values == sorted(values)


def test_ctrl_c_copies_the_selected_rows_as_a_grid(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    window.table.setFocus()
    window.table.selectRow(0)
    window.table.selectionModel().select(
        window.proxy.index(1, 0),
        QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
    )
    qtbot.keySequence(window.table, "Ctrl+C")
    lines = QApplication.clipboard().text().split("\n")
    assert len(lines) == 2
    assert lines[0].split("\t")[1] == column_texts(window, "display_name")[0]
    assert window.statusBar().currentMessage() == "Copied 2 rows"
    assert window.copy_action in menu_titled(window, "&Edit").actions()


def test_the_table_menu_copies_a_cell(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    name = window.model.column_of("display_name")
    assert name is not None
    cell = window.proxy.index(2, name)
    window.table.show_menu(window.table.visualRect(cell).center())
    menu = window.table.menu
    (copy_cell,) = [a for a in menu.actions() if a.objectName() == COPY_CELL]
    copy_cell.trigger()
    assert QApplication.clipboard().text() == cell.data()
    menu.close()


def test_sync_space_lets_the_filter_cover_the_whole_space(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    total = window.model.page.meta.total
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(window.model.page.meta.last_page)
    last_card = window.model.card(0)
    assert last_card is not None
    last_name = last_card.username
    assert last_name is not None
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(1)
    assert window.sync_action in menu_titled(window, "&View").actions()
    assert window.space_button.defaultAction() is window.sync_action

    with qtbot.waitSignal(window.jobs.finished, timeout=LOAD_TIMEOUT):
        qtbot.keySequence(window, "Ctrl+Shift+Y")
    space = window.whole_space.model
    assert space is not None
    qtbot.waitUntil(lambda: not space.is_sorting, timeout=LOAD_TIMEOUT)
    assert window.table.model() is space
    assert space.rowCount() == total
    assert not window.page_bar.isVisible()
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Synced {total} cards.")
    assert "all cards of the space" in window.filter_edit.placeholderText()
    assert window.sync_action.isEnabled(), "a synced space can be synced again"
    with qtbot.waitSignal(space.queryFinished, timeout=LOAD_TIMEOUT):
        window.filter_edit.setText(last_name)
    found = [space.card(row) for row in range(space.rowCount())]
    assert last_card in found, "a card of the last page"
    assert window.filter_count_label.text() == f"{space.rowCount()} of {total} shown"

    switch = window.whole_space.switch
    switch.setCurrentIndex(PAGES)
    switch.activated.emit(PAGES)
    assert window.table.model() is window.proxy
    assert window.page_bar.isVisible()
    assert window.model.rowCount() < total
    assert "this page" in window.filter_edit.placeholderText()


def test_a_failed_first_sync_keeps_the_page(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    shown = [window.model.card(row) for row in range(window.model.rowCount())]
    demo_server.faults.inject(Fault.HTML_502, times=100)
    with qtbot.waitSignal(window.jobs.failed, timeout=LOAD_TIMEOUT):
        window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.export_all_dialog is None, timeout=LOAD_TIMEOUT)
    assert not window.error_bar.isHidden()
    assert window.error_bar.message.startswith(f"{demo_server.space_id} could not be synced. ")
    assert [window.model.card(row) for row in range(window.model.rowCount())] == shown
    assert window.whole_space.model is None
    assert window.table.model() is window.proxy
    assert window.page_bar.isVisible()


def test_signing_out_keeps_the_column_layout(make_window, demo_server, qtbot, arun):
    window = make_window()
    open_space(qtbot, window, demo_server.space_id)
    name = window.model.column_of("display_name")
    assert name is not None
    window.table.horizontalHeader().resizeSection(name, 246)
    arun(window.aclose())  # how the app ends a window it signs out of: no close event
    again = make_window(Settings.load())
    open_space(qtbot, again, demo_server.space_id)
    assert again.table.horizontalHeader().sectionSize(name) == 246


def test_only_widths_the_person_chose_are_remembered(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    viewport = window.table.viewport()
    before = viewport.width()
    window.resize(760, 520)  # the stretched last column follows the window
    qtbot.waitUntil(lambda: viewport.width() != before, timeout=LOAD_TIMEOUT)
    assert window.columns.layout.places == {}
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.include_emails_check.setChecked(True)  # a new set of columns
    assert window.columns.layout.places == {}


def test_a_first_page_that_failed_can_be_refreshed_as_its_retry_offers(window, demo_server, qtbot):
    """Started with the server away, the error bar offered Retry while Refresh (F5) was
    greyed out; shown the whole space, the bar is gone and F5 was the only way left."""
    demo_server.faults.inject(Fault.HTML_502)
    window.space_combo.setEditText(demo_server.space_id)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=LOAD_TIMEOUT):
        window.open_space()
    assert not window.error_bar.retry_button.isHidden()
    assert window.refresh_action.isEnabled()
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.refresh_action.trigger()
    assert window.page_bar.page_spin.value() == 1
