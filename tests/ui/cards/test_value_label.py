"""A details value cut at the pane's edge says so with "…", and stays whole underneath."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QLabel

from cardviewer.ui.cards.value_label import ValueLabel

ADDRESS = "maximilian.mueller@acme.example.com"


def set_up(widget: QLabel) -> QLabel:
    """As the details pane sets up its values."""
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setWordWrap(True)
    widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    widget.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    return widget


@pytest.fixture
def label(qtbot) -> ValueLabel:
    widget = ValueLabel()
    set_up(widget)
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


@pytest.mark.parametrize(
    "text",
    [
        f"{ADDRESS}\tSales Engineer\n{ADDRESS}\nBerlin",
        f"one\rtwo\r{ADDRESS}\nthree",
        f"one\u2029two\u2029{ADDRESS}\nthree",
        f"Head of {ADDRESS} Sales and more words to wrap\n{ADDRESS}",
    ],
    ids=["tab", "carriage return", "paragraph separator", "wrapped words"],
)
def test_the_marks_are_on_the_lines_the_label_cuts_and_no_other(label, qtbot, text):
    """Found against the label's own painting: where it differs from a plain label's
    is exactly the cut lines' ends. (A lone CR, or a tab after a cut word, put the mark
    a line off when the text was laid out apart from the label's own rules.)"""
    plain = set_up(QLabel())
    qtbot.addWidget(plain)
    width = half_width(ADDRESS, label) + 20
    for widget in (label, plain):
        widget.setText(text)
        widget.resize(width, 200)
    plain.show()
    cuts = label.cut_lines()
    assert cuts
    marked, unmarked = painted(label), painted(plain)
    differs = {
        (x, y)
        for y in range(marked.height())
        for x in range(marked.width())
        if marked.pixelColor(x, y) != unmarked.pixelColor(x, y)
    }
    bands = [(cut, range(int(cut.top), int(cut.top + cut.height) + 1)) for cut in cuts]
    for x, y in differs:
        assert any(y in band and x >= int(cut.mark_at) for cut, band in bands), (x, y)
    for cut, band in bands:
        assert any(y in band for _x, y in differs), f"the cut line at {cut.top} is marked"
    # The lines a plain label cuts are those whose letters run to its edge.
    edge = {
        y
        for y in range(unmarked.height())
        for x in range(width - 6, width)
        if unmarked.pixelColor(x, y) != unmarked.pixelColor(width - 1, unmarked.height() - 1)
    }
    assert edge
    for y in edge:
        assert any(y in band for _cut, band in bands), f"row {y} runs to the edge, unmarked"


def test_a_selected_cut_line_is_marked_as_selected(label):
    """The selection runs on under the mark: the whole line is what is copied."""
    label.setText(f"{ADDRESS}\nBerlin")
    label.resize(half_width(ADDRESS, label), 60)
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor("#3060c0"))
    label.setPalette(palette)
    (cut,) = label.cut_lines()
    mark_end = int(cut.mark_at) + label.fontMetrics().horizontalAdvance("\N{HORIZONTAL ELLIPSIS}")

    def end_colours() -> set[str]:
        image = painted(label)
        return {
            image.pixelColor(x, y).name()
            for x in range(mark_end + 1, label.width())
            for y in range(int(cut.top) + 2, int(cut.top + cut.height) - 2)
        }

    assert "#3060c0" not in end_colours()
    label.setSelection(0, len(label.text()))
    assert end_colours() == {"#3060c0"}
    label.setSelection(len(ADDRESS) + 1, 3)  # only "Ber": the cut line is not selected
    assert "#3060c0" not in end_colours()
