"""The local copy of the whole space shown becomes unreadable (damaged on disk, say): the
window says so once in its error bar, shows what it can, and keeps working."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtCore import Qt

from cardviewer.api.models import Card
from cardviewer.services.card_store import CardStore
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.whole_space_view import PAGES
from tests.ui.test_whole_space_view import WAIT, open_space, sync

UNREADABLE = (
    "The local copy could not be read, so the cards shown may be incomplete or not in the "
    "order asked for. Sync Space makes a new copy."
)


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


def malformed(*_args: object, **_options: object) -> list[int]:
    raise sqlite3.DatabaseError("database disk image is malformed")


def test_a_filter_the_copy_cannot_answer_is_said_and_the_rows_shown_stay(
    window, demo_server, qtbot, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    shown = space.rowCount()
    monkeypatch.setattr(CardStore, "ordered", malformed)
    monkeypatch.setattr(CardStore, "first_ordered", malformed)
    with qtbot.waitSignal(space.queryFinished, timeout=WAIT):
        window.filter_edit.setText("zzzqqq")
    assert window.error_bar.isVisible()
    assert window.error_bar.message == UNREADABLE
    assert space.rowCount() == shown
    window.whole_space.switch.setCurrentIndex(PAGES)
    window.whole_space.switch.activated.emit(PAGES)
    assert window.table.model() is window.proxy


def test_rows_that_cannot_be_read_are_said_once_not_raised_at_every_cell(
    window, demo_server, qtbot, monkeypatch
):
    open_space(qtbot, window, demo_server.space_id)
    space = sync(qtbot, window)
    table = window.table
    window.show()
    qtbot.waitExposed(window)
    table.setFocus()
    table.setCurrentIndex(space.index(0, 2))

    def damaged(*_args: object, **_options: object) -> dict[int, Card]:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(CardStore, "cards_at", damaged)
    with qtbot.captureExceptions() as raised:
        qtbot.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        table.viewport().repaint()
        qtbot.keyClick(table, Qt.Key.Key_PageUp)
        table.viewport().repaint()
    assert raised == []
    assert table.currentIndex().row() > space.rowCount() // 2, "the last rows, read now"
    assert window.error_bar.message == UNREADABLE
