"""The filter row's layout: one line where the field has room, else the field below."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QComboBox, QLabel, QToolButton, QVBoxLayout, QWidget

from cardviewer.ui.filter_row import CountLabel, FilterField
from cardviewer.ui.filter_row_layout import FilterRowLayout


class Row(QWidget):
    """A filter row's parts in the layout, the choice given as the window gives it."""

    def __init__(self, *, choice: bool = True) -> None:
        super().__init__()
        self.field = FilterField(self)
        self.field.setPlaceholderText("Filter all cards of the space (Ctrl+F)")
        self.count = CountLabel(self)
        self.button = QToolButton(self)
        self.button.setText("Bereich synchronisieren")
        self.layout_ = FilterRowLayout(self, self.field, self.count, self.button)
        self.choice = QComboBox(self)
        self.choice.addItem("Ganzer Bereich (Stand 22:30)")
        if choice:
            self.layout_.set_choice(self.choice)
        else:
            self.choice.hide()

    def natural_one_line(self) -> int:
        """The least width that keeps every part on one line at its natural width."""
        parts = [self.field, self.button] + ([self.choice] if self.choice.isVisible() else [])
        return sum(part.sizeHint().width() for part in parts) + 8 * (len(parts) - 1)


@pytest.fixture
def row(qtbot) -> Row:
    widget = Row()
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def laid_out(row: Row, width: int) -> None:
    """The row given `width` and the height it asks for at that width."""
    row.setFixedSize(width, row.heightForWidth(width))
    row.layout_.activate()


def overlapping(*widgets: QWidget) -> list[tuple[str, str]]:
    shown = [widget for widget in widgets if widget.isVisible() and widget.width() > 0]
    return [
        (type(a).__name__, type(b).__name__)
        for n, a in enumerate(shown)
        for b in shown[n + 1 :]
        if a.geometry().intersects(b.geometry())
    ]


def test_where_the_field_has_its_natural_width_everything_is_on_one_line(row):
    width = row.natural_one_line() + 100
    laid_out(row, width)
    middles = {part.geometry().center().y() for part in (row.choice, row.field, row.button)}
    assert len(middles) == 1, "one line"
    assert row.choice.x() == 0
    assert row.button.geometry().right() == width - 1
    assert row.field.width() == row.field.sizeHint().width() + 100, "the field takes the room"
    assert row.field.x() > row.choice.geometry().right()


def test_a_narrow_row_keeps_the_choice_whole_and_puts_the_field_below(row):
    width = row.natural_one_line() - 1
    laid_out(row, width)
    assert row.choice.width() == row.choice.sizeHint().width(), "the choice is not cut short"
    assert row.choice.y() == row.button.y()
    assert row.button.geometry().right() == width - 1
    assert row.field.y() > row.choice.geometry().bottom(), "the field on a line of its own"
    assert row.field.geometry() == QRect(0, row.field.y(), width, row.field.height()), (
        "the field spans the row, with no room kept for a count it does not show"
    )
    assert row.height() >= row.field.geometry().bottom() + 1
    assert not overlapping(row.choice, row.field, row.count, row.button)


def test_typing_shows_the_count_without_moving_the_field_to_another_line(row):
    for width in (row.natural_one_line(), row.natural_one_line() - 1):
        laid_out(row, width)
        line = row.field.y()
        row.count.setText("12 of 240 shown")
        laid_out(row, width)
        assert row.field.y() == line, f"at {width} px"
        assert row.count.width() == row.count.sizeHint().width()
        assert row.count.geometry().right() < row.button.x() or row.count.y() != row.button.y()
        assert not overlapping(row.choice, row.field, row.count, row.button)
        row.count.clear()


def test_beside_the_count_below_the_field_gives_it_room(row):
    width = row.natural_one_line() - 1
    row.count.setText("18 von 240 angezeigt")
    laid_out(row, width)
    assert row.count.geometry().center().y() == row.field.geometry().center().y()
    assert row.count.geometry().right() == width - 1
    assert row.field.x() + row.field.width() + 8 == row.count.x(), "the field takes the rest"


def test_without_a_choice_the_field_stays_beside_the_button(qtbot):
    row = Row(choice=False)
    qtbot.addWidget(row)
    row.show()
    width = row.natural_one_line()
    laid_out(row, width)
    assert row.field.y() == row.button.y()
    assert row.field.x() == 0
    assert row.button.geometry().right() == width - 1


def test_at_its_least_width_each_part_keeps_its_least(row):
    least = row.layout_.minimumSize()
    laid_out(row, least.width())
    assert row.height() >= least.height()
    assert row.field.width() >= row.field.minimumSizeHint().width()
    assert row.choice.width() >= row.choice.minimumSizeHint().width()
    assert row.button.width() == row.button.sizeHint().width()
    assert not overlapping(row.choice, row.field, row.count, row.button)


def test_a_parent_layout_gives_the_row_its_two_lines(qtbot):
    """Over the table, the row's second line is not drawn over the table's top."""
    parent = QWidget()
    qtbot.addWidget(parent)
    column = QVBoxLayout(parent)
    row = Row()
    below = QLabel("the table", parent)
    column.addWidget(row)
    column.addWidget(below, 1)
    parent.resize(row.natural_one_line() - 40, 300)
    parent.show()
    qtbot.waitExposed(parent)
    assert row.field.y() > row.choice.geometry().bottom()
    assert row.geometry().bottom() < below.y()
    assert row.field.geometry().bottom() < row.height()
