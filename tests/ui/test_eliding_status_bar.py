"""The status bar fits its message to the room its permanent widgets leave, cut with "…"."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow

from cardviewer.ui.eliding_label import ElidingLabel
from cardviewer.ui.eliding_status_bar import ElidingStatusBar
from tests.ui.test_nothing_clipped import status_message_clipped

LONG = "acme1EU01demo01-everyone-shown-with-photos-and-qr-codes-2026-11-27.vcf wird gespeichert…"


def cut(text: str) -> bool:
    """Whether `text` was cut: an ellipsis before its last character."""
    return "…" in text[:-1]


@pytest.fixture
def window(qtbot):
    window = QMainWindow()
    status = ElidingStatusBar(window)
    window.setStatusBar(status)
    account = QLabel("demo@cardviewer.example bei 127.0.0.1:42969", status)
    status.addPermanentWidget(account)
    qtbot.addWidget(window)
    window.resize(600, 200)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_a_message_that_fits_is_shown_whole(window, qtbot):
    status = window.statusBar()
    status.showMessage("Saved.")
    assert status.currentMessage() == status.whole_message() == "Saved."
    assert status.toolTip() == ""


def test_a_message_too_long_is_cut_in_its_middle_and_whole_in_its_tooltip(window, qtbot):
    status = window.statusBar()
    with qtbot.waitSignal(status.messageChanged) as told:
        status.showMessage(LONG)
    shown = status.currentMessage()
    assert cut(shown)
    assert shown.startswith("acme")
    assert shown.endswith("gespeichert…")
    assert status_message_clipped(status) == []
    assert status.whole_message() == status.toolTip() == told.args[0] == LONG


def test_the_message_is_fitted_again_when_its_room_changes(window, qtbot):
    status = window.statusBar()
    status.showMessage(LONG)
    window.resize(1400, 200)
    qtbot.waitUntil(lambda: status.currentMessage() == LONG)
    assert status.toolTip() == ""

    note = QLabel("0 of 100,000 cards " * 7, status)
    status.addPermanentWidget(note)  # a progress note comes after a moment
    qtbot.waitUntil(lambda: cut(status.currentMessage()))
    assert status_message_clipped(status) == []
    note.hide()
    qtbot.waitUntil(lambda: status.currentMessage() == LONG)


def test_refitting_tells_no_one(window, qtbot):
    status = window.statusBar()
    status.showMessage(LONG)
    told: list[str] = []
    status.messageChanged.connect(told.append)
    window.resize(1400, 200)
    qtbot.waitUntil(lambda: status.currentMessage() == LONG)
    window.resize(600, 200)
    qtbot.waitUntil(lambda: cut(status.currentMessage()))
    assert told == []


def test_a_message_that_timed_out_does_not_come_back(window, qtbot):
    status = window.statusBar()
    status.showMessage(LONG, 50)
    qtbot.waitUntil(lambda: status.currentMessage() == "", timeout=2000)
    window.resize(1400, 200)
    qtbot.wait(20)
    assert status.currentMessage() == status.whole_message() == ""


def test_a_new_message_replaces_a_cut_one(window, qtbot):
    status = window.statusBar()
    status.showMessage(LONG)
    status.showMessage("Saved.")
    assert status.currentMessage() == "Saved."
    status.clearMessage()
    assert status.whole_message() == ""


def test_a_menu_items_status_tip_is_fitted_as_a_message(window, qtbot):
    """Qt shows a hovered item's status tip through its own C++, past `showMessage`."""
    status = window.statusBar()
    action = QAction("Reset View", window)
    action.setStatusTip(LONG)
    with qtbot.waitSignal(status.messageChanged) as told:
        action.showStatusText(window)  # as a menu does when the item is hovered
    assert cut(status.currentMessage())
    assert status_message_clipped(status) == []
    assert status.whole_message() == status.toolTip() == told.args[0] == LONG

    action.setStatusTip("")
    action.showStatusText(window)  # the pointer left the item
    assert status.currentMessage() == status.whole_message() == ""


def test_a_bar_given_to_its_window_later_fits_its_status_tips(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    status = ElidingStatusBar()
    window.setStatusBar(status)
    window.resize(300, 200)
    window.show()
    action = QAction("Reset View", window)
    action.setStatusTip(LONG)
    action.showStatusText(window)
    assert cut(status.currentMessage())
    assert status.whole_message() == LONG


# The account gives way


ACCOUNT = "demo@cardviewer.example bei 127.0.0.1:42969"
SERVER = "http://127.0.0.1:42969"


@pytest.fixture
def with_account(qtbot):
    window = QMainWindow()
    status = ElidingStatusBar(window)
    window.setStatusBar(status)
    account = ElidingLabel(status)
    account.set_whole_text(ACCOUNT, SERVER)
    status.add_yielding_label(account)
    qtbot.addWidget(window)
    window.resize(720, 200)
    window.show()
    qtbot.waitExposed(window)
    return window, status, account


def test_the_account_gives_way_to_a_message_that_needs_its_room(with_account, qtbot):
    _window, status, account = with_account
    message = "Die Telefonliste wird an den Drucker gesendet…"
    assert not account.is_cut()
    note = QLabel("8.250 von 20.000 Karten  Abbrechen", status)
    status.addPermanentWidget(note)  # a job's progress beside the account
    status.showMessage(message)
    qtbot.waitUntil(lambda: status.currentMessage() == message)
    assert account.is_cut()
    assert account.text().endswith("…")
    assert account.text().startswith("demo@")
    assert account.whole_text() == account.accessibleName() == ACCOUNT
    assert ACCOUNT in account.toolTip()
    assert SERVER in account.toolTip()
    assert status_message_clipped(status) == []

    status.clearMessage()
    qtbot.waitUntil(lambda: not account.is_cut())
    assert account.text() == ACCOUNT
    assert ACCOUNT not in account.toolTip()
    assert SERVER in account.toolTip()


def test_the_account_keeps_a_few_letters_and_the_message_is_cut_after(with_account, qtbot):
    _window, status, account = with_account
    status.showMessage(LONG + " " + LONG)
    qtbot.waitUntil(lambda: account.is_cut() and cut(status.currentMessage()))
    qtbot.wait(50)  # the layout settled
    assert account.text() == ACCOUNT[:6] + "…"
    assert account.width() >= account.minimumSizeHint().width()
    assert status_message_clipped(status) == []


def test_a_message_that_fits_beside_the_account_leaves_it_whole(with_account, qtbot):
    _window, status, account = with_account
    status.showMessage("Saved.")
    qtbot.wait(50)
    assert status.currentMessage() == "Saved."
    assert not account.is_cut()


def test_the_account_is_whole_again_when_a_message_times_out(with_account, qtbot):
    _window, status, account = with_account
    status.showMessage(LONG, 100)
    qtbot.waitUntil(account.is_cut)
    qtbot.waitUntil(lambda: status.currentMessage() == "", timeout=2000)
    qtbot.waitUntil(lambda: not account.is_cut())
