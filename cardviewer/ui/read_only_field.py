"""A text field that cannot be changed, looking like one.

Qt paints a read-only line edit exactly like an editable one, so a person clicks into
it, types, and wonders why nothing happens. On the window's background instead of a
field's it reads as a value shown, which can still be selected and copied.
"""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLineEdit


def make_read_only(edit: QLineEdit) -> None:
    """Make `edit` read-only and paint it on the window's background."""
    edit.setReadOnly(True)
    palette = edit.palette()
    palette.setColor(QPalette.ColorRole.Base, palette.color(QPalette.ColorRole.Window))
    edit.setPalette(palette)
