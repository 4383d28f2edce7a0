"""A layout whose height follows its width, as a row that wraps onto more lines does.

Qt asks such a layout two things: how high it is at a width (`heightForWidth`), and to
place its items in a rectangle (`setGeometry`). Both are one arrangement, measured or
carried out; a subclass writes it once, in `_arrange`.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QLayout


class ArrangedLayout(QLayout):
    """Grows sideways; its height at a width is that of its arrangement (`_arrange`)."""

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    def _arrange(self, rect: QRect, *, place: bool) -> int:
        """Lay the items out in `rect` (or only measure), and return the height it takes."""
        raise NotImplementedError
