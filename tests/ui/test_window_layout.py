"""The window's layout: saved into the settings, restored from them, reset to the first."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QMainWindow, QSplitter, QTableView, QWidget

from cardviewer.services.settings import Settings
from cardviewer.ui.card_area import DEFAULT_SPLITTER_SIZES
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.column_layout import ColumnLayout, TableColumns
from cardviewer.ui.window_layout import DEFAULT_SIZE, WindowLayout, first_size


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


class ScreenOf:
    """A screen whose free area (without the task bar) is `width` x `height`."""

    def __init__(self, width: int, height: int) -> None:
        self._free = QRect(0, 0, width, height)

    def availableGeometry(self) -> QRect:
        return QRect(self._free)


@pytest.mark.parametrize(
    ("free", "size"),
    [
        ((1920, 1040), (1180, 720)),  # a desktop: the window as designed
        ((1366, 728), (1180, 655)),  # a common laptop: the window's foot above the task bar
        ((800, 600), (720, 540)),  # a projector: all of it on screen
    ],
)
def test_a_window_opens_at_its_first_size_made_to_fit_the_screen(free, size):
    assert first_size(ScreenOf(*free)) == QSize(*size)  # type: ignore[arg-type]


def test_without_a_screen_the_first_size_is_the_designed_one():
    assert first_size(None) == DEFAULT_SIZE


def test_the_test_screen_is_a_desktop_s(qtbot, settings):
    """The suite's offscreen screen (tests/offscreen-screen.json), not Qt's 800 x 800."""
    parts = make_parts(qtbot, settings)
    assert first_size(parts.window.screen()) == DEFAULT_SIZE


def test_on_a_small_screen_the_details_pane_keeps_its_share(qtbot, settings, monkeypatch):
    """The table is not squeezed to leave the details pane its designed width."""
    parts = make_parts(qtbot, settings)
    monkeypatch.setattr(parts.window, "screen", lambda: ScreenOf(800, 600))
    parts.layout.first()
    parts.window.show()
    assert parts.window.size() == QSize(720, 540)
    table, details = parts.splitter.sizes()
    designed_table, designed_details = DEFAULT_SPLITTER_SIZES
    assert table / (table + details) == pytest.approx(
        designed_table / (designed_table + designed_details), abs=0.02
    )
