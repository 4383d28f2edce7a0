"""The window's command shortcuts work from whichever of its fields has the cursor.

Qt asks the focused widget first whether it wants a key for itself (a
`ShortcutOverride` event), and text fields say yes to their editing keys: on Linux
Ctrl+E moves to the end of the line, Ctrl+A to its start, Ctrl+K and Ctrl+U delete;
everywhere Ctrl+C copies the field's text. A command with such a shortcut would then
do nothing while the cursor is in the space field, the filter or the page number.
`CommandKeys` answers that question for every widget of the window: a key that is the
shortcut of an enabled command runs the command. Keys no command uses, and those of a
command that is unavailable, keep their editing meaning. One exception follows the
desktop's rule: with text selected in the field, Copy copies that text.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, Slot
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)


class CommandKeys(QObject):
    """Lets the shortcuts of `actions` win over the editing keys of `window`'s widgets.

    Each widget of the window is watched from the moment it first takes the focus, so
    fields made later (the details pane's values) are covered too.
    """

    def __init__(self, window: QWidget, actions: Iterable[QAction]) -> None:
        super().__init__(window)
        self._window = window
        self._actions = tuple(actions)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._watch_focus)

    def command_for(self, event: QKeyEvent) -> QAction | None:
        """The enabled command whose shortcut `event` is, if any."""
        key = QKeySequence(event.keyCombination())
        for action in self._actions:
            if not (action.isEnabled() and action.isVisible()):
                continue
            for shortcut in action.shortcuts():
                if shortcut.matches(key) == QKeySequence.SequenceMatch.ExactMatch:
                    return action
        return None

    @Slot(QWidget, QWidget)
    def _watch_focus(self, _old: QWidget | None, now: QWidget | None) -> None:
        if now is not None and now.window() is self._window:
            now.installEventFilter(self)  # installed once, however often it is focused

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if self.command_for(event) is None:
            return False
        if event.matches(QKeySequence.StandardKey.Copy) and has_selected_text(watched):
            return False
        # Not the field's key: the shortcut goes on to the window's command.
        event.ignore()
        return True


def has_selected_text(widget: QObject) -> bool:
    """Whether `widget` shows text the person selected (in a combo or spin box: in its field)."""
    if isinstance(widget, QComboBox | QAbstractSpinBox):
        edit = widget.findChild(QLineEdit)
        return edit is not None and edit.hasSelectedText()
    if isinstance(widget, QLineEdit | QLabel):
        return widget.hasSelectedText()
    if isinstance(widget, QTextEdit | QPlainTextEdit):
        return widget.textCursor().hasSelection()
    return False
