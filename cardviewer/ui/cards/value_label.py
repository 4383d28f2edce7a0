"""A value of the details pane that says where it is cut off at the pane's edge.

Values wrap at spaces, so a word wider than the pane (an e-mail address, a link) runs
past its edge and is cut there; nothing on screen said so, and a cut address read like
a whole one. The label paints "…" over the end of each line cut. The text itself stays
whole: what a person selects and copies is the whole address, and the tooltip shows it
(`is_cut`).
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF
from PySide6.QtGui import QPainter, QPaintEvent, QTextLayout, QTextLine, QTextOption
from PySide6.QtWidgets import QLabel

MARK = "\N{HORIZONTAL ELLIPSIS}"


class Cut(NamedTuple):
    """A line cut at the label's edge, in the text's own coordinates."""

    top: float
    baseline: float
    mark_at: float
    """Where "…" goes: after the last character that fits before it."""


class ValueLabel(QLabel):
    """A word-wrapped plain-text label marking each line cut at its edge with "…"."""

    def __init__(self) -> None:
        super().__init__()
        self._cuts: tuple[str, int, list[Cut]] | None = None

    def is_cut(self) -> bool:
        """A word of the text is wider than the label: part of it is not shown."""
        return bool(self.cut_lines())

    def cut_lines(self) -> list[Cut]:
        """The lines cut at the label's edge, as it is now wide."""
        text, width = self.text(), self._text_area().width()
        if self._cuts is None or self._cuts[:2] != (text, width):
            self._cuts = (text, width, self._lay_out(text, width))
        return self._cuts[2]

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._cuts = None  # the same text may be wider in the new font (JSON's)

    def _text_area(self) -> QRect:
        margin = self.margin()
        return self.contentsRect().adjusted(margin, margin, -margin, -margin)

    def _lay_out(self, text: str, width: int) -> list[Cut]:
        """The text wrapped at spaces as the label wraps it, a paragraph a line."""
        metrics = self.fontMetrics()
        if width <= 0 or max(map(metrics.horizontalAdvance, text.split("\n"))) <= width:
            return []  # every line fits unwrapped: the common case, and quick
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        room = width - metrics.horizontalAdvance(MARK)
        cuts: list[Cut] = []
        top = 0.0
        for paragraph in text.split("\n"):
            layout = QTextLayout(paragraph, self.font())
            layout.setTextOption(option)
            layout.beginLayout()
            while (line := layout.createLine()).isValid():
                line.setLineWidth(width)
                if line.naturalTextWidth() > width:
                    # The character under the mark's place goes wholly: no half letters.
                    under = line.xToCursor(room, QTextLine.CursorPosition.CursorOnCharacter)
                    mark_at = _x_of(line.cursorToX(under))
                    cuts.append(Cut(top, top + line.ascent(), min(mark_at, room)))
                top += line.height()
            layout.endLayout()
        return cuts

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        cuts = self.cut_lines()
        if not cuts:
            return
        area = self._text_area()
        height = self.fontMetrics().height()
        painter = QPainter(self)
        background = self.palette().brush(self.backgroundRole())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setFont(self.font())
        for cut in cuts:
            left = area.x() + cut.mark_at
            hidden = QRectF(left, area.y() + cut.top, area.right() + 1 - left, height)
            painter.fillRect(hidden, background)
            painter.drawText(QPointF(left, area.y() + cut.baseline), MARK)
        painter.end()


def _x_of(found: object) -> float:
    """The x of `QTextLine.cursorToX`, which gives it with the cursor position."""
    assert isinstance(found, tuple)
    return float(found[0])
