"""The window's layout: saved into the settings, restored from them, reset to the first."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMainWindow, QSplitter, QTableView, QWidget

from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.column_layout import ColumnLayout, TableColumns
from cardviewer.ui.window_layout import DEFAULT_SIZE, WindowLayout


class Parts:
    """A window with a splitter and a details pane, and the layout that keeps them."""

    def __init__(self, settings: Settings) -> None:
        self.window = QMainWindow()
        self.splitter = QSplitter(self.window)
        self.table = QTableView(self.splitter)
        self.details = QWidget(self.splitter)
        self.window.setCentralWidget(self.splitter)
        model = CardTableModel(parent=self.window)
        self.table.setModel(model)
        columns = TableColumns(self.table, model, ColumnLayout.from_json(""), avatar_size=32)
        self.layout = WindowLayout(self.window, self.splitter, self.details, columns, settings)


@pytest.fixture
def settings() -> Settings:
    return Settings.load()


def make_parts(qtbot, settings: Settings) -> Parts:
    parts = Parts(settings)
    qtbot.addWidget(parts.window)
    parts.window.show()
    qtbot.waitExposed(parts.window)
    return parts


def test_the_layout_saved_comes_back_in_the_next_window(qtbot, settings):
    first = make_parts(qtbot, settings)
    first.window.resize(700, 500)
    first.splitter.setSizes([500, 200])
    first.details.hide()
    settings.details_visible = False
    first.layout.save()
    saved = Settings.load(settings.path)
    assert saved.window_geometry
    assert saved.splitter_state
    assert saved.header_state

    second = make_parts(qtbot, saved)
    second.layout.restore()
    assert second.window.size() == first.window.size()
    assert second.details.isHidden()


def test_nothing_saved_leaves_the_window_as_built(qtbot, settings):
    parts = make_parts(qtbot, settings)
    parts.window.resize(640, 480)
    parts.layout.restore()
    assert parts.window.size().width() == 640


def test_reset_brings_the_first_size_back(qtbot, settings):
    parts = make_parts(qtbot, settings)
    parts.window.resize(640, 480)
    parts.layout.reset()
    assert parts.window.size() == DEFAULT_SIZE
