"""The overview's bar chart: one bar a month, said in a sentence, saved as a picture."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QEvent, QLocale, QPoint
from PySide6.QtGui import QColor, QHelpEvent, QPalette
from PySide6.QtWidgets import QApplication, QToolTip

from cardviewer.ui.month_chart import TICKS, MonthChart, month_name, tick_step

MONTHS = [(date(2025, 11, 1), 3), (date(2025, 12, 1), 0), (date(2026, 1, 1), 7)]


def test_the_chart_says_its_span_and_its_busiest_month(qtbot):
    chart = MonthChart()
    qtbot.addWidget(chart)
    assert chart.summary() == "No card says when it was made."
    chart.set_months(MONTHS)
    assert chart.accessibleDescription() == (
        f"From {month_name(MONTHS[0][0])} to {month_name(MONTHS[-1][0])}; "
        f"the most in {month_name(MONTHS[-1][0])}: 7."
    )
    assert month_name(date(2026, 1, 1)) == QLocale().toString(
        QLocale().toDate("2026-01-01", "yyyy-MM-dd"), "MMMM yyyy"
    )


def test_the_bars_are_painted_in_the_highlight_colour_tallest_highest(qtbot):
    chart = MonthChart()
    qtbot.addWidget(chart)
    chart.set_months(MONTHS)
    chart.resize(400, 200)
    image = chart.image(scale=1)
    bar = chart.palette().color(QPalette.ColorRole.Highlight)

    def top_of_bar(index: int) -> int:
        plot = chart.plot_area()
        x = int(plot.left() + plot.width() / len(MONTHS) * (index + 0.5))
        column = [QColor(image.pixel(x, y)) for y in range(image.height())]
        return next((y for y, colour in enumerate(column) if colour == bar), image.height())

    assert top_of_bar(2) < top_of_bar(0) < top_of_bar(1), "7 above 3 above none"


def test_the_month_under_the_pointer_is_its_tooltip(qtbot):
    chart = MonthChart()
    qtbot.addWidget(chart)
    chart.set_months(MONTHS)
    chart.resize(400, 200)
    chart.show()
    qtbot.waitExposed(chart)
    plot = chart.plot_area()
    x = int(plot.left() + plot.width() / len(MONTHS) * 2.5)
    point = QPoint(x, int(plot.center().y()))
    QApplication.sendEvent(chart, QHelpEvent(QEvent.Type.ToolTip, point, chart.mapToGlobal(point)))
    assert QToolTip.text() == f"{month_name(MONTHS[2][0])}: 7"


def test_each_bar_has_its_month_under_it_where_every_one_fits(qtbot):
    chart = MonthChart()
    qtbot.addWidget(chart)
    chart.set_months(MONTHS)
    chart.resize(400, 200)
    locale = QLocale()
    assert chart.month_labels() == [
        locale.standaloneMonthName(month, QLocale.FormatType.ShortFormat) for month in (11, 12, 1)
    ]
    line = chart.fontMetrics().height()
    assert chart.plot_area().bottom() <= chart.height() - 2 * line, "room for months and years"

    years = [(date(2019 + n // 12, n % 12 + 1, 1), n % 5) for n in range(84)]
    chart.set_months(years)
    assert chart.month_labels() == [], "seven years of months: the years alone"
    assert chart.plot_area().bottom() > chart.height() - 2 * line


def test_the_years_under_the_bars_never_overlap(qtbot):
    """A span starting in November has its first year two bars before the next one's."""
    chart = MonthChart()
    qtbot.addWidget(chart)
    months = [(date(2019 + (n + 10) // 12, (n + 10) % 12 + 1, 1), n % 7) for n in range(74)]
    chart.set_months(months)
    metrics = chart.fontMetrics()
    for width in (300, 420, 560, 720):
        chart.resize(width, 200)
        labels = chart.year_labels()
        ends = [left + metrics.horizontalAdvance(year) for left, year in labels]
        assert all(end <= width for end in ends), width
        assert all(end < after for end, (after, _) in zip(ends, labels[1:], strict=False)), width
        assert [year for _left, year in labels][-3:] == ["2023", "2024", "2025"], width
    chart.resize(1400, 200)
    assert chart.year_labels()[0][1] == "2019", "room for it: kept"


@pytest.mark.parametrize(
    ("largest", "step"),
    [(0, 1), (1, 1), (4, 1), (5, 2), (7, 2), (8, 2), (9, 5), (40, 10), (41, 20), (1234, 500)],
)
def test_the_lines_across_step_by_one_two_or_five_times_a_power_of_ten(largest, step):
    """Four steps at the most reach the largest month: 0, 2, 4, 6, 8, not 0, 2, 4, 5, 7."""
    assert tick_step(largest) == step
    assert step * TICKS >= largest
