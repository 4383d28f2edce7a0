"""A details value cut at the pane's edge says so with "…", and stays whole underneath."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel

from cardviewer.ui.cards.value_label import ValueLabel

ADDRESS = "maximilian.mueller@acme.example.com"


@pytest.fixture
def label(qtbot) -> ValueLabel:
    widget = ValueLabel()
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setWordWrap(True)
    widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    widget.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def half_width(text: str, label: QLabel) -> int:
    return label.fontMetrics().horizontalAdvance(text) // 2


def painted(widget: QLabel) -> QImage:
    return widget.grab().toImage()


def ink_between(image: QImage, left: int, right: int, top: int, bottom: int) -> int:
    """How many pixels in the box differ from the label's background."""
    background = image.pixelColor(image.width() - 1, image.height() - 1)
    return sum(
        image.pixelColor(x, y) != background
        for x in range(max(0, left), min(right, image.width()))
        for y in range(max(0, top), min(bottom, image.height()))
    )


def test_a_word_wider_than_the_label_is_marked_where_it_is_cut(label):
    label.setText(f"short\n{ADDRESS}\nshort")
    label.resize(half_width(ADDRESS, label), 200)
    (cut,) = label.cut_lines()
    assert label.is_cut()
    line = label.fontMetrics().lineSpacing()
    assert line - 2 <= cut.top <= line + 2, "the second line, not the first or the last"
    assert 0 < cut.mark_at < label.width()

    label.resize(2 * half_width(ADDRESS, label) + 10, 200)
    assert not label.is_cut()
    assert label.cut_lines() == []


def test_the_mark_is_painted_at_the_end_of_the_cut_line_and_nowhere_else(label, qtbot):
    label.setText(ADDRESS)
    width = half_width(ADDRESS, label)
    label.resize(width, 60)
    plain = QLabel(ADDRESS)
    plain.setWordWrap(True)
    plain.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    qtbot.addWidget(plain)
    plain.resize(width, 60)
    plain.show()
    (cut,) = label.cut_lines()
    marked, unmarked = painted(label), painted(plain)
    line = label.fontMetrics().lineSpacing()
    start = int(cut.mark_at)
    assert marked.copy(0, 0, start, line) == unmarked.copy(0, 0, start, line), "text kept"
    assert marked.copy(start, 0, width - start, line) != unmarked.copy(
        start, 0, width - start, line
    ), "the cut end is painted over with the mark"
    assert ink_between(marked, start, width, 0, line) > 0, "the mark itself shows"
    assert marked.copy(0, line, width, 60 - line) == unmarked.copy(0, line, width, 60 - line)


def test_what_is_selected_and_copied_is_the_whole_text(label):
    label.setText(ADDRESS)
    label.resize(half_width(ADDRESS, label), 60)
    assert label.is_cut()
    label.setSelection(0, len(ADDRESS))
    assert label.selectedText() == ADDRESS
    assert label.text() == ADDRESS


def test_text_that_fits_is_painted_as_a_plain_label_paints_it(label, qtbot):
    label.setText("Head of Sales\nBerlin")
    label.resize(300, 60)
    plain = QLabel("Head of Sales\nBerlin")
    plain.setWordWrap(True)
    plain.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    qtbot.addWidget(plain)
    plain.resize(300, 60)
    plain.show()
    assert not label.is_cut()
    assert painted(label) == painted(plain)


def test_the_cut_text_is_painted_over_in_the_palette_s_colours(label):
    label.setText(ADDRESS)
    label.resize(half_width(ADDRESS, label), 60)
    palette = label.palette()
    palette.setColor(label.backgroundRole(), QColor("#202020"))
    palette.setColor(label.foregroundRole(), QColor("#f0f0f0"))
    label.setPalette(palette)
    label.setAutoFillBackground(True)
    (cut,) = label.cut_lines()
    image = painted(label)
    line = label.fontMetrics().lineSpacing()
    mark_end = int(cut.mark_at) + label.fontMetrics().horizontalAdvance("\N{HORIZONTAL ELLIPSIS}")

    def colours(left: int, right: int) -> set[str]:
        return {image.pixelColor(x, y).name() for x in range(left, right) for y in range(line)}

    assert colours(mark_end + 1, label.width()) == {"#202020"}, "no cut letter shows"
    mark = colours(int(cut.mark_at), mark_end + 1)
    assert any(QColor(colour).lightness() > 0x60 for colour in mark), "the mark, light as text"


def test_a_text_cut_in_a_wider_font_is_found_cut_without_new_text(label):
    """JSON values change the label's font, not always its text."""
    label.setText("iiiiiiiiiiiiiiii")
    label.resize(label.fontMetrics().horizontalAdvance("iiiiiiiiiiiiiiii") + 4, 60)
    assert not label.is_cut()
    wide = label.font()
    wide.setPointSizeF(wide.pointSizeF() * 3)
    label.setFont(wide)
    assert label.is_cut()
