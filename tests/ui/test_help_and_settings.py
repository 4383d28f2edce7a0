"""Preferences once at a time, the avatar caches cleared, the log folder, the About box."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMainWindow, QMessageBox

from cardviewer import __version__
from cardviewer.paths import log_dir
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.settings import Settings
from cardviewer.ui.help_and_settings import HelpAndSettings


@pytest.fixture
def window(qtbot) -> QMainWindow:
    widget = QMainWindow()
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.fixture
def loaders(qloop, arun) -> Iterator[tuple[AvatarLoader, AvatarLoader]]:
    table, details = AvatarLoader(use_disk_cache=False), AvatarLoader(use_disk_cache=False)
    yield table, details
    for loader in (table, details):
        arun(loader.aclose())


def make_help(
    window: QMainWindow,
    avatars: AvatarLoader | None = None,
    details_avatars: AvatarLoader | None = None,
) -> HelpAndSettings:
    return HelpAndSettings(
        window,
        Settings.load(),
        signed_in=lambda: True,
        avatars=avatars,
        details_avatars=details_avatars,
    )


def test_preferences_open_once_and_are_forgotten_when_closed(window, qtbot):
    part = make_help(window)
    part.open_preferences()
    dialog = part.preferences_dialog
    assert dialog is not None
    assert dialog.parent() is window
    part.open_preferences()
    assert part.preferences_dialog is dialog, "raised, not opened again"
    dialog.reject()
    qtbot.waitUntil(lambda: part.preferences_dialog is None)


def test_signing_out_in_preferences_asks_the_window_which_closes_them_once_agreed(window, qtbot):
    """The window may still ask whether to sign out: said no to, Preferences stay."""
    part = make_help(window)
    part.open_preferences()
    dialog = part.preferences_dialog
    assert dialog is not None
    with qtbot.waitSignal(part.signOutRequested):
        dialog.signOutRequested.emit()
    assert part.preferences_dialog is dialog
    part.close_preferences()
    qtbot.waitUntil(lambda: part.preferences_dialog is None)


def test_saved_preferences_are_said(window, qtbot):
    part = make_help(window)
    part.open_preferences()
    dialog = part.preferences_dialog
    assert dialog is not None
    with qtbot.waitSignal(part.statusMessage) as said:
        dialog.settingsChanged.emit()
    assert said.args == ["Preferences saved.", 5000]
    dialog.reject()


def test_without_avatars_there_is_nothing_to_clear(window, qtbot):
    part = make_help(window)
    with qtbot.assertNotEmitted(part.avatarsCleared), qtbot.assertNotEmitted(part.statusMessage):
        part.clear_avatar_cache()


def test_clearing_forgets_the_table_s_and_the_details_avatars(window, qtbot, loaders):
    table, details = loaders
    part = make_help(window, avatars=table, details_avatars=details)
    with (
        qtbot.waitSignal(part.detailsAvatarsCleared),
        qtbot.waitSignal(part.avatarsCleared),
        qtbot.waitSignal(part.statusMessage) as said,
    ):
        part.clear_avatar_cache()
    assert said.args == ["The avatar cache is cleared.", 5000]


def test_the_log_folder_opens_or_its_failure_is_said(window, qtbot, monkeypatch):
    part = make_help(window)
    opened: list[QUrl] = []

    def open_url(url: QUrl) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    with qtbot.assertNotEmitted(part.statusMessage):
        part.open_log_folder()
    assert [url.toLocalFile() for url in opened] == [str(log_dir())]
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: False)
    with qtbot.waitSignal(part.statusMessage) as said:
        part.open_log_folder()
    assert said.args == [f"Could not open the log folder {log_dir()}", 8000]


def test_about_names_the_version_without_blocking(window):
    make_help(window).show_about()
    (box,) = [box for box in window.findChildren(QMessageBox) if box.isVisible()]
    assert __version__ in box.text()
    assert "Python" in box.informativeText()
    box.close()
