"""A text field that cannot be changed, looking like one.

Qt paints a read-only line edit exactly like an editable one, so a person clicks into
it, types, and wonders why nothing happens. On the window's background instead of a
field's it reads as a value shown, which can still be selected and copied. The
background follows the palette: when the desktop turns dark, so does the field.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLineEdit

_GROUPS = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled)


def make_read_only(edit: QLineEdit) -> None:
    """Make `edit` read-only and paint it on the window's background, now and later."""
    edit.setReadOnly(True)
    _OnWindowBackground(edit)


class _OnWindowBackground(QObject):
    """Gives its line edit the window's colour as background whenever the palette changes."""

    def __init__(self, edit: QLineEdit) -> None:
        super().__init__(edit)
        self._edit = edit
        edit.installEventFilter(self)
        self._follow()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._edit and event.type() == QEvent.Type.PaletteChange:
            self._follow()
        return False

    def _follow(self) -> None:
        current = self._edit.palette()
        role = QPalette.ColorRole
        if all(current.color(g, role.Base) == current.color(g, role.Window) for g in _GROUPS):
            return  # also ends the change event that setting the palette sends
        # Only the background is set: every other colour stays inherited, and follows.
        palette = QPalette()
        for group in _GROUPS:
            palette.setColor(group, role.Base, current.color(group, role.Window))
        self._edit.setPalette(palette)
