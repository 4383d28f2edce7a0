"""The table sorted, and its columns shown or hidden, from the keyboard alone."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu

from cardviewer.ui.main_window import MainWindow
from tests.ui.test_whole_space_view import open_space, sync

ASCENDING, DESCENDING = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder


@pytest.fixture
def window(demo_window: MainWindow, demo_server, qtbot) -> MainWindow:
    open_space(qtbot, demo_window, demo_server.space_id)
    return demo_window


def sorted_by(window: MainWindow) -> tuple[int, Qt.SortOrder]:
    header = window.table.horizontalHeader()
    return header.sortIndicatorSection(), header.sortIndicatorOrder()


def column(window: MainWindow, key: str) -> int:
    found = window.columns.model.column_of(key)
    assert found is not None
    return found


def test_sort_by_column_goes_as_clicks_on_the_current_cell_s_heading(window, qtbot):
    position = column(window, "position")
    window.table.setCurrentIndex(window.proxy.index(0, position))
    window.sort_action.trigger()
    assert sorted_by(window) == (position, ASCENDING)
    texts = [window.proxy.index(row, position).data() for row in range(window.proxy.rowCount())]
    assert texts == sorted(texts, key=str.casefold)
    assert window.statusBar().currentMessage() == "Sorted by Position, ascending."
    window.sort_action.trigger()
    assert sorted_by(window) == (position, DESCENDING)
    assert window.statusBar().currentMessage() == "Sorted by Position, descending."
    window.sort_action.trigger()
    assert sorted_by(window)[0] == -1
    assert window.statusBar().currentMessage() == "Sorted in the space's own order."


def test_without_a_current_cell_the_first_column_with_a_heading_is_sorted(window):
    """The avatar column, first, has no heading to say."""
    window.table.setCurrentIndex(window.proxy.index(-1, -1))
    window.sort_action.trigger()
    assert sorted_by(window) == (column(window, "display_name"), ASCENDING)
    assert window.statusBar().currentMessage() == "Sorted by Name, ascending."


def test_the_whole_space_is_sorted_from_the_keyboard_too(window, qtbot):
    space = sync(qtbot, window)
    name = column(window, "display_name")
    window.table.setCurrentIndex(space.index(0, name))
    window.sort_action.trigger()
    qtbot.waitUntil(lambda: not space.is_sorting)
    texts = [space.index(row, name).data() for row in range(space.rowCount())]
    assert sorted_by(window) == (name, ASCENDING)
    assert texts[0] <= texts[-1]


def test_columns_opens_the_heading_s_menu_ready_for_the_keys(window, qtbot):
    window.columns_action.trigger()
    menu = window.columns.open_menu
    assert isinstance(menu, QMenu)
    qtbot.waitUntil(menu.isVisible)
    first = menu.actions()[0]
    assert menu.activeAction() is first
    assert (first.text(), first.isChecked()) == ("ID", False), "hidden until shown"
    ids = column(window, "uuid")
    assert window.table.horizontalHeader().isSectionHidden(ids)
    qtbot.keyClick(menu, Qt.Key.Key_Return)
    assert not window.table.horizontalHeader().isSectionHidden(ids)
