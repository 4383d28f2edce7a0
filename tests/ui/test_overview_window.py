"""View → Overview over the demo server: from the page loaded, then from the local copy."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QImage

from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.overview_window import OverviewWindow

WAIT = 20_000


def open_space(qtbot, window: MainWindow, space_id: str) -> None:
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.open_space(space_id)


def overview_shown(qtbot, window: MainWindow) -> OverviewWindow:
    window.overview_action.trigger()
    shown = window.overview.window
    assert shown is not None
    assert shown.isVisible()
    qtbot.waitUntil(lambda: shown.save_chart_button.isEnabled(), timeout=WAIT)
    return shown


def test_without_a_copy_the_overview_is_of_the_page_and_says_so(demo_window, demo_server, qtbot):
    open_space(qtbot, demo_window, demo_server.space_id)
    shown = overview_shown(qtbot, demo_window)
    assert shown.windowTitle() == f"Overview of {demo_server.space_id}"
    assert shown.source_label.text().startswith("Only the 10 cards loaded from the server")
    assert shown.total("cards") == "10"
    assert shown.total("emails") == "not loaded"
    assert shown.most_connects.rowCount() == 10


def test_a_synced_space_is_overviewed_from_every_card_of_its_copy(demo_window, demo_server, qtbot):
    window = demo_window
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    window.whole_space.show_pages()  # the copy counts even while the pages are shown
    shown = overview_shown(qtbot, window)
    qtbot.waitUntil(lambda: shown.total("cards") == "240", timeout=WAIT)
    assert shown.source_label.text().startswith("Every card of the local copy synced")
    demo = next(iter(demo_server.spaces.values()))
    most = max(card.connects or 0 for card in demo.cards)
    top = shown.most_connects.item(0, 1)
    assert top is not None
    assert top.text() == QLocale().toString(most)
    assert "From " in shown.chart.accessibleDescription()
    assert shown.recently_updated.rowCount() == 10


def test_the_chart_is_saved_as_a_picture(
    demo_window, demo_server, qtbot, tmp_path: Path, monkeypatch
):
    window = demo_window
    open_space(qtbot, window, demo_server.space_id)
    shown = overview_shown(qtbot, window)
    target = tmp_path / "chart"
    asked: list[tuple[Path, str]] = []

    def answer(suggested: Path, title: str = "") -> Path:
        asked.append((suggested, title))
        return target

    monkeypatch.setattr(window, "ask_export_path", answer)
    shown.save_chart_button.click()
    assert asked[0][1] == "Save Chart"
    picture = QImage(str(target.with_suffix(".png")))
    assert not picture.isNull()
    assert picture.width() >= shown.chart.width()
    assert window.statusBar().currentMessage() == f"Saved the chart to {target}.png"
    assert window.jobs.export_dir == tmp_path, "the next export is offered beside it"

    monkeypatch.setattr(window, "ask_export_path", lambda *_a, **_k: tmp_path / "gone" / "c.png")
    shown.save_chart_button.click()
    assert window.error_bar.isVisible()
    assert window.error_bar.text_label.text().startswith("The chart could not be saved as")
    assert window.jobs.export_dir == tmp_path


def test_without_a_space_there_is_nothing_to_overview(demo_window):
    demo_window.overview.open()
    assert demo_window.overview.window is None
    assert demo_window.statusBar().currentMessage() == "Open a space first."


@pytest.mark.usefixtures("language")
def test_the_overview_is_read_whole_by_keyboard_and_screen_reader(demo_windows, demo_server, qtbot):
    from tests.ui.test_keyboard_and_names import keyboard_faults, naming_faults
    from tests.ui.test_nothing_clipped import SMALL_SCREEN, clipped, settle

    window = demo_windows()
    open_space(qtbot, window, demo_server.space_id)
    shown = overview_shown(qtbot, window)
    shown.activateWindow()
    qtbot.waitUntil(shown.isActiveWindow)
    assert naming_faults(shown) == []
    assert keyboard_faults(shown, shown.lists) == []
    for size in (shown.minimumSizeHint(), SMALL_SCREEN):
        shown.resize(size)
        settle(qtbot, shown)
        assert clipped(shown) == []


def test_a_copy_that_cannot_be_read_is_said_in_the_window(
    demo_window, demo_server, qtbot, tmp_path, monkeypatch
):
    import sqlite3

    from cardviewer.services.process_job import JobEnded
    from cardviewer.ui import overview_window

    window = demo_window
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()

    failures = [
        sqlite3.DatabaseError("database disk image is malformed"),  # as the process tells it
        JobEnded("killed"),
    ]

    async def broken(*_args, **_kwargs):
        raise failures.pop(0)

    monkeypatch.setattr(overview_window, "in_a_process", broken)
    for said in (
        "The local copy could not be read: database disk image is malformed",
        ("Working out the overview stopped unexpectedly; open it again."),
    ):
        window.overview_action.trigger()
        shown = window.overview.window
        assert shown is not None
        qtbot.waitUntil(lambda: shown.source_label.text() == said, timeout=WAIT)  # noqa: B023
        assert not shown.save_chart_button.isEnabled()
        shown.close()


def test_the_overview_opens_within_a_small_screen(qtbot, monkeypatch):
    """At 760 x 640 it stood 40 px below an 800 x 600 screen, Save and Close with it."""
    from PySide6.QtCore import QSize

    from cardviewer.ui.overview_window import DESIGNED_SIZE, OverviewWindow
    from tests.ui.test_window_layout import ScreenOf

    monkeypatch.setattr(OverviewWindow, "screen", lambda _self: ScreenOf(800, 600))
    small = OverviewWindow()
    qtbot.addWidget(small)
    assert small.size() == QSize(720, 540)
    monkeypatch.setattr(OverviewWindow, "screen", lambda _self: ScreenOf(1920, 1040))
    large = OverviewWindow()
    qtbot.addWidget(large)
    assert large.size() == DESIGNED_SIZE


@pytest.mark.usefixtures("language")
def test_a_small_screen_shows_six_names_a_list_and_the_chart_gives_way_to_more(
    demo_window, demo_server, qtbot
):
    """At 720 x 540, rows as tall as the table's cells showed four names a list."""
    open_space(qtbot, demo_window, demo_server.space_id)
    shown = overview_shown(qtbot, demo_window)
    shown.resize(720, 540)
    qtbot.waitUntil(lambda: shown.size().height() == 540)
    table = shown.most_connects

    def names_seen() -> int:
        bottom = table.viewport().height()
        return sum(
            1
            for row in range(table.rowCount())
            if table.rowViewportPosition(row) + table.rowHeight(row) <= bottom
        )

    assert names_seen() >= 6
    assert all(shown.lists.tabToolTip(tab) for tab in range(shown.lists.count()))
    before = names_seen()
    chart, lists = shown.splitter.sizes()
    shown.splitter.setSizes([chart - 100, lists + 100])
    assert names_seen() > before
