"""A value of the details pane that says where it is cut off at the pane's edge.

Values wrap at spaces, so a word wider than the pane (an e-mail address, a link) runs
past its edge and is cut there; nothing on screen said so, and a cut address read like
a whole one. The label paints "…" over the end of each line cut. The text itself stays
whole: what a person selects and copies is the whole address, and the tooltip shows it
(`is_cut`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QTextDocument, QTextLine, QTextOption
from PySide6.QtWidgets import QLabel

MARK = "\N{HORIZONTAL ELLIPSIS}"
ColorRole = QPalette.ColorRole
_LINE_BREAK = re.compile("[\n\r\u2028\u2029]")
"""Where a plain-text document starts a new line."""


class Cut(NamedTuple):
    """A line cut at the label's edge, in the text's own coordinates."""

    top: float
    height: float
    baseline: float
    mark_at: float
    """Where "…" goes: after the last character that fits before it."""
    last: int
    """The position in the text of the line's last character (for the selection)."""


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
        """Where the label lays its text out (no frame, text aligned left)."""
        margin = self.margin()
        area = self.contentsRect().adjusted(margin, margin, -margin, -margin)
        return area.adjusted(max(self.indent(), 0), 0, 0, 0)

    def _lay_out(self, text: str, width: int) -> list[Cut]:
        """The text laid out as the label lays it out: a plain-text document, wrapped at
        spaces, its line breaks (also a lone CR or U+2029) its own, tabs at tab stops."""
        metrics = self.fontMetrics()
        quick = "\t" not in text  # a tab's width depends on where it stands
        widest = max(map(metrics.horizontalAdvance, _LINE_BREAK.split(text)))
        if width <= 0 or (quick and widest <= width):
            return []  # every line fits unwrapped: the common case, and quick
        document = QTextDocument()
        document.setDocumentMargin(0)
        document.setDefaultFont(self.font())
        option = QTextOption(self.alignment())
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        document.setDefaultTextOption(option)
        document.setPlainText(text)
        document.setTextWidth(width)
        room = width - metrics.horizontalAdvance(MARK)
        places = document.documentLayout()
        cuts: list[Cut] = []
        block = document.begin()
        while block.isValid():
            top = places.blockBoundingRect(block).top()
            lines = block.layout()
            for n in range(lines.lineCount()):
                line = lines.lineAt(n)
                if line.naturalTextWidth() <= width:
                    continue
                # The character under the mark's place goes wholly: no half letters.
                under = line.xToCursor(room, QTextLine.CursorPosition.CursorOnCharacter)
                mark_at = min(_x_of(line.cursorToX(under)), room)
                last = block.position() + line.textStart() + line.textLength() - 1
                at = top + line.y()
                cuts.append(Cut(at, line.height(), at + line.ascent(), mark_at, last))
            block = block.next()
        return cuts

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        cuts = self.cut_lines()
        if not cuts:
            return
        area = self._text_area()
        palette = self.palette()
        first = self.selectionStart()
        selected = range(first, first + len(self.selectedText())) if first >= 0 else range(0)
        painter = QPainter(self)
        painter.setFont(self.font())
        for cut in cuts:
            # The end of a line selected is painted as selected: the whole of it is copied.
            chosen = cut.last in selected
            fill = palette.brush(ColorRole.Highlight if chosen else self.backgroundRole())
            ink = palette.color(ColorRole.HighlightedText if chosen else self.foregroundRole())
            left = area.x() + cut.mark_at
            hidden = QRectF(left, area.y() + cut.top, area.right() + 1 - left, cut.height)
            painter.fillRect(hidden, fill)
            painter.setPen(ink)
            painter.drawText(QPointF(left, area.y() + cut.baseline), MARK)
        painter.end()


def _x_of(found: object) -> float:
    """The x of `QTextLine.cursorToX`, which gives it with the cursor position."""
    assert isinstance(found, tuple)
    return float(found[0])
