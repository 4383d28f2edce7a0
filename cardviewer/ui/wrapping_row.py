"""A row of buttons that wraps onto more lines when the room is too narrow for one.

A plain `QHBoxLayout` of buttons is as wide as all their texts together, and German
texts made the details pane, and so the window, wider than a small screen. Here each
line takes as many buttons as fit at their natural width and shares the rest of the
width out among them, so a line looks like an ordinary button row; a narrow pane gets
two or three lines instead of clipped or overlapping buttons.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize
from PySide6.QtWidgets import QLayoutItem, QWidget

from cardviewer.ui.arranged_layout import ArrangedLayout


class WrappingRow(ArrangedLayout):
    """Buttons in a row, on as many lines as the width needs, each line filled out."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing

    # What every QLayout provides

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def sizeHint(self) -> QSize:
        """One line of every button at its natural width."""
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown)
        width += self._spacing * max(len(shown) - 1, 0)
        height = max((item.sizeHint().height() for item in shown), default=0)
        return self._with_margins(QSize(width, height))

    def minimumSize(self) -> QSize:
        """As narrow as the widest button, one above the other."""
        shown = self._shown()
        width = max((item.sizeHint().width() for item in shown), default=0)
        return self._with_margins(QSize(width, self._lines_height(self._lines(width))))

    # The arrangement

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _with_margins(self, size: QSize) -> QSize:
        margins: QMargins = self.contentsMargins()
        return size.grownBy(margins)

    def _lines(self, width: int) -> list[list[QLayoutItem]]:
        """The buttons on each line: as many as fit at their natural width, at least one."""
        lines: list[list[QLayoutItem]] = []
        used = 0
        for item in self._shown():
            natural = item.sizeHint().width()
            if lines and used + self._spacing + natural <= width:
                lines[-1].append(item)
                used += self._spacing + natural
            else:
                lines.append([item])
                used = natural
        return lines

    def _lines_height(self, lines: list[list[QLayoutItem]]) -> int:
        heights = [max(item.sizeHint().height() for item in line) for line in lines]
        return sum(heights) + self._spacing * max(len(heights) - 1, 0)

    def _arrange(self, rect: QRect, *, place: bool) -> int:
        """Lay the buttons out in `rect` (or only measure), and return the height it takes."""
        area = rect.marginsRemoved(self.contentsMargins())
        lines = self._lines(area.width())
        top = area.top()
        for line in lines:
            height = max(item.sizeHint().height() for item in line)
            if place:
                natural = sum(item.sizeHint().width() for item in line)
                spare = max(area.width() - natural - self._spacing * (len(line) - 1), 0)
                left = area.left()
                share, left_over = divmod(spare, len(line))
                for index, item in enumerate(line):
                    # The spare room shared out; the last button takes what rounding left.
                    width = item.sizeHint().width() + share
                    if index == len(line) - 1:
                        width += left_over
                    item.setGeometry(QRect(QPoint(left, top), QSize(width, height)))
                    left += width + self._spacing
            top += height + self._spacing
        margins = self.contentsMargins()
        return self._lines_height(lines) + margins.top() + margins.bottom()
