"""The filter row's layout: one line where the field has room, else the field below.

In one line, the choice of what the table shows, the Sync Space button and the field
all gave way in a narrow table (a small screen with the details pane): the choice was
cut to "Ganzer B… (Stand 22:30)" and the field to ten letters of its placeholder. Here
the field keeps its natural width beside the others or goes to a line of its own, with
the count of what it lets through; the line above keeps the choice whole and the
button at its end.

One line:  [choice] [field (takes the spare room)] [count] [button]
Two lines: [choice] ........................................ [button]
           [field (takes the spare room)] ................... [count]

Which it is depends on the field's natural width, not on the count: typing, which
makes the count appear, never moves the field to another line.
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QLayoutItem, QStyle, QWidget, QWidgetItem

from cardviewer.ui.arranged_layout import ArrangedLayout


class Part(Enum):
    """The parts of the row, in the order they are laid out and focused."""

    CHOICE = "choice"
    FIELD = "field"
    COUNT = "count"
    BUTTON = "button"


class FilterRowLayout(ArrangedLayout):
    """Lays out the filter `field`, its `count` and the `button`, and a choice before them
    once `set_choice()` gives one."""

    def __init__(self, parent: QWidget, field: QWidget, count: QWidget, button: QWidget) -> None:
        super().__init__(parent)
        self._parts: dict[Part, QLayoutItem] = {}
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(8)
        for part, widget in ((Part.FIELD, field), (Part.COUNT, count), (Part.BUTTON, button)):
            self._put(part, widget)

    def set_choice(self, widget: QWidget) -> None:
        """Put `widget` first, before the field (at the start of the upper line)."""
        self._put(Part.CHOICE, widget)

    def _put(self, part: Part, widget: QWidget) -> None:
        self.addChildWidget(widget)
        self._parts[part] = QWidgetItem(widget)
        self.invalidate()

    # What every QLayout provides

    def addItem(self, item: QLayoutItem) -> None:
        raise TypeError("the filter row's parts are named: use set_choice()")

    def _items(self) -> list[QLayoutItem]:
        return [self._parts[part] for part in Part if part in self._parts]

    def count(self) -> int:
        return len(self._parts)

    def itemAt(self, index: int) -> QLayoutItem | None:
        items = self._items()
        return items[index] if 0 <= index < len(items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        item = self.itemAt(index)
        if item is not None:
            self._parts = {part: kept for part, kept in self._parts.items() if kept is not item}
        return item

    def sizeHint(self) -> QSize:
        """Everything on one line, the field at its natural width."""
        shown = self._shown()
        width = sum(self._hint(part).width() for part in shown)
        width += self.spacing() * max(len(shown) - 1, 0)
        return self._with_margins(QSize(width, self._line_height(shown)))

    def minimumSize(self) -> QSize:
        """Two lines, each as narrow as its parts allow."""
        upper, lower = self._lines(one_line=False)
        width = max(self._least_width(upper), self._least_width(lower))
        height = self._line_height(upper) + self.spacing() + self._line_height(lower)
        return self._with_margins(QSize(width, height))

    # The arrangement

    def fits_one_line(self, width: int) -> bool:
        """Whether the row, `width` wide with its margins, keeps the field on one line.

        The field at its natural width beside the choice and the button; the count,
        which comes and goes as the filter is typed, is not counted in.
        """
        margins = self.contentsMargins()
        room = width - margins.left() - margins.right()
        parts = [part for part in self._shown() if part != Part.COUNT]
        needed = sum(self._hint(part).width() for part in parts)
        return needed + self.spacing() * max(len(parts) - 1, 0) <= room

    def _shown(self) -> list[Part]:
        """The parts on show; a count with nothing to say takes no room."""
        return [
            part
            for part in Part
            if part in self._parts
            and not self._parts[part].isEmpty()
            and (part != Part.COUNT or self._hint(part).width() > 0)
        ]

    def _lines(self, *, one_line: bool) -> tuple[list[Part], list[Part]]:
        shown = self._shown()
        if one_line:
            return shown, []
        upper: list[Part] = [part for part in shown if part in (Part.CHOICE, Part.BUTTON)]
        return upper, [part for part in shown if part not in upper]

    def _hint(self, part: Part) -> QSize:
        widget = self._parts[part].widget()
        # A widget's own hint: its layout item's stays empty until it is first shown.
        return widget.sizeHint() if widget is not None else self._parts[part].sizeHint()

    def _least(self, part: Part) -> int:
        """The narrowest `part` may be: the field and the choice give way, the rest not."""
        widget = self._parts[part].widget()
        if part in (Part.FIELD, Part.CHOICE) and widget is not None:
            return widget.minimumSizeHint().width()
        return self._hint(part).width()

    def _least_width(self, line: list[Part]) -> int:
        return sum(self._least(part) for part in line) + self.spacing() * max(len(line) - 1, 0)

    def _line_height(self, line: list[Part]) -> int:
        return max((self._hint(part).height() for part in line), default=0)

    def _with_margins(self, size: QSize) -> QSize:
        return size.grownBy(self.contentsMargins())

    def _arrange(self, rect: QRect, *, place: bool) -> int:
        """Lay the parts out in `rect` (or only measure); the height it takes."""
        area = rect.marginsRemoved(self.contentsMargins())
        one_line = self.fits_one_line(rect.width())
        top = area.top()
        height = 0
        for line in self._lines(one_line=one_line):
            if not line:
                continue
            if height:
                top += height + self.spacing()
            height = self._line_height(line)
            if place:
                self._place_line(line, QRect(area.left(), top, area.width(), height), area)
        count = self._parts.get(Part.COUNT)
        if place and count is not None and Part.COUNT not in self._shown():
            count.setGeometry(QRect(area.topLeft(), QSize(0, 0)))  # not left where it was
        margins = self.contentsMargins()
        return top - area.top() + height + margins.top() + margins.bottom()

    def _place_line(self, line: list[Part], row: QRect, area: QRect) -> None:
        """The parts of `line` left to right in `row`.

        The field takes the room left over, or gives it up down to its least; the
        choice keeps its natural width where it can and gives way where it must. What
        comes after either sits at the end of the line, as does a line without them.
        """
        widths = {part: self._hint(part).width() for part in line}
        growing = next((part for part in (Part.FIELD, Part.CHOICE) if part in line), None)
        if growing is not None:
            others = sum(width for part, width in widths.items() if part != growing)
            room = row.width() - others - self.spacing() * (len(line) - 1)
            wanted = room if growing == Part.FIELD else min(room, widths[growing])
            widths[growing] = max(wanted, self._least(growing))
        at_end = line[line.index(growing) + 1 :] if growing is not None else line
        spare = row.width() - sum(widths.values()) - self.spacing() * (len(line) - 1)
        widget = self.parentWidget()
        left = row.left()
        for part in line:
            if at_end and part == at_end[0]:
                left += max(spare, 0)
            size = QSize(widths[part], min(self._hint(part).height(), row.height()))
            place = QRect(QPoint(left, row.top() + (row.height() - size.height()) // 2), size)
            if widget is not None:
                place = QStyle.visualRect(widget.layoutDirection(), area, place)
            self._parts[part].setGeometry(place)
            left += widths[part] + self.spacing()
