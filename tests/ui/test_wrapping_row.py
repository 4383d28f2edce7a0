"""The details pane's button row: one line where it fits, more lines where it does not."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QPushButton, QWidget

from cardviewer.ui.wrapping_row import WrappingRow

TEXTS = ("Benutzernamen kopieren", "E-Mails kopieren", "Als JSON kopieren")


@pytest.fixture
def row(qtbot) -> tuple[QWidget, WrappingRow, list[QPushButton]]:
    host = QWidget()
    qtbot.addWidget(host)
    layout = WrappingRow(host, spacing=6)
    layout.setContentsMargins(12, 8, 12, 12)
    buttons = [QPushButton(text, host) for text in TEXTS]
    for button in buttons:
        layout.addWidget(button)
    return host, layout, buttons


def _lines(buttons: list[QPushButton]) -> list[list[QPushButton]]:
    tops = sorted({button.y() for button in buttons})
    return [[b for b in buttons if b.y() == top] for top in tops]


def _check_placed(layout: WrappingRow, buttons: list[QPushButton], width: int) -> None:
    height = layout.heightForWidth(width)
    layout.setGeometry(QRect(0, 0, width, height))
    for button in buttons:
        assert button.width() >= button.sizeHint().width(), "a button narrower than its text"
        assert button.x() >= 12
        assert button.geometry().right() <= width - 12 - 1
        assert button.y() >= 8
        assert button.geometry().bottom() <= height - 12 - 1
    for line in _lines(buttons):
        line.sort(key=QPushButton.x)
        for left, right in itertools.pairwise(line):
            assert left.geometry().right() + 6 + 1 == right.x(), "overlap or a gap"
        assert line[0].x() == 12, "each line starts at the margin"
        assert line[-1].geometry().right() == width - 12 - 1, "each line fills the width"


def test_a_wide_row_is_one_line_filled_out(row):
    _, layout, buttons = row
    width = layout.sizeHint().width() + 100
    _check_placed(layout, buttons, width)
    assert len(_lines(buttons)) == 1


def test_a_narrow_row_wraps_onto_more_lines_and_grows_in_height(row):
    _, layout, buttons = row
    one_line = layout.heightForWidth(layout.sizeHint().width())
    widest = max(button.sizeHint().width() for button in buttons)
    width = layout.sizeHint().width() - 1
    _check_placed(layout, buttons, width)
    assert len(_lines(buttons)) == 2
    _check_placed(layout, buttons, widest + 24)
    assert len(_lines(buttons)) == 3
    assert layout.heightForWidth(widest + 24) > layout.heightForWidth(width) > one_line


def test_the_row_is_never_narrower_than_its_widest_button(row):
    _, layout, buttons = row
    widest = max(button.sizeHint().width() for button in buttons)
    assert layout.minimumSize().width() == widest + 24
    assert layout.minimumSize().height() == layout.heightForWidth(widest + 24)


def test_a_hidden_button_takes_no_room(row, qtbot):
    host, layout, buttons = row
    host.show()
    buttons[1].hide()
    width = layout.sizeHint().width()
    assert width == buttons[0].sizeHint().width() + 6 + buttons[2].sizeHint().width() + 24
