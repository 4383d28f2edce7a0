"""Every command's shortcut works from every widget of the main window that takes the cursor."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from cardviewer.api import CardsClient
from cardviewer.demo import DemoServer, Fault
from cardviewer.services.settings import Settings
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.window_commands import Command, CommandTarget, Need, command_table
from tests.ui.clients import single_try_client
from tests.ui.windows import Closer, open_window

LOAD_TIMEOUT = 10_000


class _AnyTarget:
    """Stands in for the window while only the table's rows are read."""

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


COMMANDS = [c for c in command_table(cast(CommandTarget, _AnyTarget())) if c.shortcut is not None]
SIGNED_OUT_ONLY = {"sign_in"}
"""Commands shown only while signed out."""
EDITING_KEYS = frozenset(
    QKeySequence(key).toString()
    for key in (
        *("Ctrl+A", "Ctrl+B", "Ctrl+D", "Ctrl+E", "Ctrl+F", "Ctrl+H", "Ctrl+K", "Ctrl+U"),
        *("Ctrl+W", "Ctrl+C", "Ctrl+Ins", "Ctrl+V", "Ctrl+X", "Ctrl+Z", "Ctrl+Y", "Shift+Ins"),
        *("Home", "End", "Ctrl+Home", "Ctrl+End", "Ctrl+Left", "Ctrl+Right", "Ctrl+Up"),
        *("Ctrl+Down", "Alt+Left", "Alt+Right", "Alt+Up", "Alt+Down", "PgUp", "PgDown"),
        *("Ctrl+Backspace", "Ctrl+Del", "Meta+A", "Meta+E", "Meta+K"),
    )
)
"""Keys a text field takes for editing on one desktop or another, in Qt's names.

Linux's Emacs-like keys (Ctrl+E to the end of the line, Ctrl+K and Ctrl+U delete),
macOS's (Command is Ctrl here, Control is Meta) and Windows's. The offscreen platform
the tests run on binds Windows's only, so a field taking all of them stands in for
the others.
"""


class EveryDesktopsField(QObject):
    """Makes a widget claim every editing key, as its own event handling would."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        claimed = (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and QKeySequence(event.keyCombination()).toString() in EDITING_KEYS
        )
        if claimed:
            event.accept()
        return claimed


@pytest.fixture
def client(demo_server: DemoServer, arun: Callable[..., Any]) -> Iterator[CardsClient]:
    client = single_try_client(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    yield client
    arun(client.aclose())


@pytest.fixture
def window(
    qtbot: QtBot, arun: Callable[..., Any], client: CardsClient, demo_server: DemoServer
) -> Iterator[MainWindow]:
    """Page 2 of the demo space, its first card in the details pane: every command is on."""
    closers: list[Closer] = []
    window = open_window(qtbot, client, Settings.load(), closers, email=demo_server.email)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.open_space(demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.go_to_page(2)
    window.table.selectRow(0)
    yield window
    for close in closers:
        arun(close())


def focusable_widgets(window: MainWindow) -> list[QWidget]:
    """Every widget of the window a person can put the cursor in now."""
    return [
        widget
        for widget in window.findChildren(QWidget)
        if widget.focusPolicy() != Qt.FocusPolicy.NoFocus
        and widget.isVisibleTo(window)
        and widget.isEnabled()
        and widget.focusProxy() is None
        and widget.window() is window
    ]


def deselect(widget: QWidget) -> None:
    """No text selected in `widget`: Copy is then the window's command."""
    edit = (
        widget.findChild(QLineEdit) if isinstance(widget, QComboBox | QAbstractSpinBox) else widget
    )
    if isinstance(edit, QLineEdit):
        edit.deselect()
    elif isinstance(edit, QLabel):
        edit.setSelection(0, 0)


def counting(window: MainWindow, command: Command) -> list[bool]:
    """The command's action, its handler replaced by a record of each time it fires."""
    action: QAction = window.commands[command.name]
    fired: list[bool] = []
    signal = action.toggled if command.checkable else action.triggered
    signal.disconnect(command_handler(window, command))
    signal.connect(lambda *_: fired.append(True))
    return fired


def command_handler(window: MainWindow, command: Command) -> Callable[..., object]:
    (row,) = [c for c in window.commands.commands if c.name == command.name]
    return row.handler


def press_everywhere(
    qtbot: QtBot, window: MainWindow, command: Command, fired: list[bool], *, greedy: bool
) -> list[str]:
    """Press each of the command's shortcuts in each focusable widget; where it did not fire.

    `greedy` fields claim every key of `EDITING_KEYS` first, as on some desktop they would.
    """
    action = window.commands[command.name]
    assert action.isEnabled()
    assert action.isVisible()
    widgets = focusable_widgets(window)
    assert widgets
    greed = EveryDesktopsField(window)
    missed: list[str] = []
    for widget in widgets:
        if greedy:
            widget.installEventFilter(greed)  # its own handling: before any filter
        for shortcut in action.shortcuts():
            widget.clearFocus()
            widget.setFocus(Qt.FocusReason.OtherFocusReason)
            assert widget.hasFocus(), widget
            deselect(widget)
            before = len(fired)
            qtbot.keySequence(widget, shortcut)
            if len(fired) != before + 1:
                name = widget.objectName() or widget.accessibleName() or type(widget).__name__
                missed.append(f"{shortcut.toString()} in {name}")
    return missed


KEY_SCHEMES = pytest.mark.parametrize(
    "greedy", [False, True], ids=["this desktop", "every desktop"]
)


@KEY_SCHEMES
@pytest.mark.parametrize(
    "command", [c for c in COMMANDS if c.name not in SIGNED_OUT_ONLY], ids=lambda c: c.name
)
def test_each_shortcut_works_from_every_field(
    qtbot: QtBot, window: MainWindow, command: Command, greedy: bool, demo_server: DemoServer
):
    if command.needs & Need.LOADING:
        demo_server.config.latency = 30.0  # a page on its way, so that Stop Loading is on
        window.go_to_page(3)
    fired = counting(window, command)
    assert press_everywhere(qtbot, window, command, fired, greedy=greedy) == []


@KEY_SCHEMES
@pytest.mark.parametrize(
    "command", [c for c in COMMANDS if c.name in SIGNED_OUT_ONLY], ids=lambda c: c.name
)
def test_signed_out_shortcuts_work_from_every_field(
    qtbot: QtBot, window: MainWindow, command: Command, demo_server: DemoServer, greedy: bool
):
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=LOAD_TIMEOUT):
        window.refresh_action.trigger()
    fired = counting(window, command)
    assert press_everywhere(qtbot, window, command, fired, greedy=greedy) == []


def test_the_fields_are_among_the_widgets_tried(window: MainWindow):
    widgets = focusable_widgets(window)
    for field in (
        window.space_combo,
        window.filter_edit,
        window.page_bar.page_spin,
        window.table,
        window.details_pane.name_label,
    ):
        assert field in widgets


def test_copy_with_text_selected_in_a_field_copies_that_text(qtbot: QtBot, window: MainWindow):
    (copy,) = [c for c in COMMANDS if c.name == "copy"]
    fired = counting(window, copy)
    qtbot.keySequence(window, "Ctrl+F")
    qtbot.keyClicks(window.filter_edit, "zzz-no-card")
    window.filter_edit.selectAll()
    qtbot.keySequence(window.filter_edit, QKeySequence(QKeySequence.StandardKey.Copy))
    assert fired == []
    assert QGuiApplication.clipboard().text() == "zzz-no-card"


def test_keys_no_command_uses_still_edit(qtbot: QtBot, window: MainWindow):
    window.filter_edit.setFocus()
    qtbot.keyClicks(window.filter_edit, "ada lovelace")
    qtbot.keyClick(window.filter_edit, Qt.Key.Key_Home)
    assert window.filter_edit.cursorPosition() == 0
    qtbot.keyClick(window.filter_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert window.filter_edit.selectedText() == "ada lovelace"


def test_an_unavailable_commands_key_keeps_its_editing_meaning(window: MainWindow):
    field = window.filter_edit
    field.installEventFilter(EveryDesktopsField(window))
    field.clearFocus()
    field.setFocus()

    def field_takes_ctrl_e() -> bool:
        event = QKeyEvent(
            QEvent.Type.ShortcutOverride, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier
        )
        event.ignore()
        QApplication.sendEvent(field, event)
        return event.isAccepted()

    assert not field_takes_ctrl_e()  # Export Page
    window.export_action.setEnabled(False)
    assert field_takes_ctrl_e()  # the end of the line, on Linux
