"""A bar chart of cards created per month, painted with the palette's colours.

Painted here rather than with a chart library: Qt's own charts come with PySide6's
add-ons (a 175 MB download) and need OpenGL, which would push the app's bundle past
its size and a fresh machine past what it has; a column of bars per month and a year
under them is a few lines of `QPainter`, sharp at any scale and in either colour scheme.
"""

from __future__ import annotations

import math
from datetime import date

from PySide6.QtCore import QCoreApplication, QDate, QEvent, QLocale, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

MIN_BAR = 3
"""Least width of a bar in pixels; below it the chart asks for a wider window."""
TICKS = 4
"""Steps between the lines across the chart, at the most, from 0 to above the largest
month."""


def tick_step(largest: int, ticks: int = TICKS) -> int:
    """The count between the lines across: 1, 2 or 5 times a power of ten, the least
    with which `ticks` steps reach `largest`, so that the lines read 0, 2, 4, 6, 8 and
    not 0, 2, 4, 5, 7."""
    rough = max(largest, 1) / ticks
    power: int = 10 ** max(math.floor(math.log10(rough)), 0)
    return next(factor * power for factor in (1, 2, 5, 10) if factor * power >= rough)


def month_name(month: date) -> str:
    """ "March 2021", in the reader's language."""
    return QLocale().toString(QDate(month.year, month.month, 1), "MMMM yyyy")


def short_month_name(month: date) -> str:
    """ "Mar" ("März"), in the reader's language: the label under a month's bar."""
    return QLocale().standaloneMonthName(month.month, QLocale.FormatType.ShortFormat)


class MonthChart(QWidget):
    """Cards created each month: one bar a month, the years written under them, and
    each month's name under its bar where every bar has room for one (a page's cards,
    a year or two; a whole space's years of months have their tooltips)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._months: list[tuple[date, int]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setAccessibleName(
            QCoreApplication.translate("SpaceOverview", "Cards created per month")
        )

    def set_months(self, months: list[tuple[date, int]]) -> None:
        self._months = months
        self.setAccessibleDescription(self.summary())
        self.updateGeometry()
        self.update()

    def summary(self) -> str:
        """The chart in a sentence, for a screen reader and for the tooltip over nothing."""
        if not self._months:
            return QCoreApplication.translate("SpaceOverview", "No card says when it was made.")
        busiest, most = max(self._months, key=lambda month: month[1])
        text = QCoreApplication.translate("SpaceOverview", "From %1 to %2; the most in %3: %4.")
        for marker, value in (
            ("%1", month_name(self._months[0][0])),
            ("%2", month_name(self._months[-1][0])),
            ("%3", month_name(busiest)),
            ("%4", QLocale().toString(most)),
        ):
            text = text.replace(marker, value)
        return text

    def sizeHint(self) -> QSize:
        return QSize(max(480, len(self._months) * 6 + self._left()), 220)

    def minimumSizeHint(self) -> QSize:
        return QSize(min(len(self._months), 120) * MIN_BAR + self._left() + 8, 140)

    def image(self, scale: float = 2.0) -> QImage:
        """The chart as a picture, `scale` times as sharp as on screen (Save Chart)."""
        image = QImage(
            int(self.width() * scale), int(self.height() * scale), QImage.Format.Format_ARGB32
        )
        image.setDevicePixelRatio(scale)
        image.fill(self.palette().color(QPalette.ColorRole.Base))
        painter = QPainter(image)
        self._paint(painter)
        painter.end()
        return image

    # Painting

    def _left(self) -> int:
        return self.fontMetrics().horizontalAdvance("00000") + 8

    def plot_area(self) -> QRectF:
        """Where the bars stand, under the labels of the counts."""
        return self._plot_area(named=bool(self.month_labels()))

    def _plot_area(self, *, named: bool) -> QRectF:
        metrics = self.fontMetrics()
        top = metrics.height() / 2
        lines = 2 if named else 1  # the months' names, the years
        bottom = self.height() - lines * metrics.height() - 6
        return QRectF(self._left(), top, self.width() - self._left() - 4, bottom - top)

    def month_labels(self) -> list[str]:
        """The names written under the bars, one a bar; none where a bar is too narrow
        for the widest of them."""
        if not self._months:
            return []
        names = [short_month_name(month) for month, _count in self._months]
        widest = max(self.fontMetrics().horizontalAdvance(name) for name in names)
        step = (self.width() - self._left() - 4) / len(self._months)
        return names if step >= widest + 6 else []

    def year_labels(self) -> list[tuple[float, str]]:
        """Where each year is written under the bars (its left edge) and the year: under
        each January and the first month. A first month too near the next January for
        both gives way to it, and a year with no room before the chart's edge is left
        out, rather than overlap.
        """
        if not self._months:
            return []
        named = bool(self.month_labels())
        plot = self._plot_area(named=named)
        step = plot.width() / len(self._months)
        metrics = self.fontMetrics()
        gap = metrics.horizontalAdvance(" ")
        placed: list[tuple[float, str]] = []
        for index, (month, _count) in enumerate(self._months):
            if month.month != 1 and index != 0:
                continue
            left = plot.left() + index * step + (step * 0.15 if named else 0)
            text = str(month.year)
            if left + metrics.horizontalAdvance(text) > self.width():
                continue
            if placed and left < placed[-1][0] + metrics.horizontalAdvance(placed[-1][1]) + gap:
                placed.pop()  # the first month's year, too near this January's
            placed.append((left, text))
        return placed

    def _largest(self) -> int:
        return max((count for _month, count in self._months), default=0) or 1

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self._paint(painter)
        painter.end()

    def _paint(self, painter: QPainter) -> None:
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        muted = QColor(palette.color(QPalette.ColorRole.PlaceholderText))
        names = self.month_labels()
        plot = self._plot_area(named=bool(names))
        counted = tick_step(self._largest())
        lines = math.ceil(self._largest() / counted)
        largest = counted * lines  # the top line: the bars are drawn to its scale
        painter.setFont(self.font())
        for tick in range(lines + 1):  # lines across, labelled with their count
            value = counted * tick
            y = plot.bottom() - plot.height() * value / largest
            painter.setPen(muted if tick else text)
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            label = QRectF(0, y - 10, self._left() - 6, 20)
            painter.setPen(muted)
            painter.drawText(label, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             QLocale().toString(value))  # fmt: skip
        if not self._months:
            return
        step = plot.width() / len(self._months)
        bar = palette.color(QPalette.ColorRole.Highlight)
        line = self.fontMetrics().height()
        for index, (_month, count) in enumerate(self._months):
            height = plot.height() * count / largest
            left = plot.left() + index * step
            painter.fillRect(
                QRectF(left + step * 0.15, plot.bottom() - height, step * 0.7, height), bar
            )
            painter.setPen(text)
            if names:
                under = QRectF(left, plot.bottom() + 3, step, line)
                painter.drawText(under, Qt.AlignmentFlag.AlignHCenter, names[index])
        painter.setPen(text)
        for year_left, year in self.year_labels():  # under the first bar of each year
            painter.drawText(QPointF(year_left, self.height() - 4), year)

    def _month_at(self, x: float) -> tuple[date, int] | None:
        plot = self.plot_area()
        if not self._months or not plot.left() <= x < plot.right():
            return None
        index = int((x - plot.left()) / (plot.width() / len(self._months)))
        return self._months[min(index, len(self._months) - 1)]

    def event(self, event: QEvent) -> bool:
        """A tooltip with the month under the pointer and its count (else the summary)."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            found = self._month_at(event.x())
            if found is None:
                said = self.summary()
            else:
                month, count = found
                said = f"{month_name(month)}: {QLocale().toString(count)}"
            QToolTip.showText(event.globalPos(), said, self)
            return True
        return super().event(event)
