"""The empty-state page: plain text, a headline, and a button only when there is a way on."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QPixmap

from cardviewer.ui.state_page import StatePage


@pytest.fixture
def page(qtbot):
    widget = StatePage(QPixmap(16, 16))
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_it_shows_a_headline_and_a_sentence_without_a_button(page):
    page.set_text("No space open", "Enter a space id and press Open.")
    assert page.title_label.text() == "No space open"
    assert page.text_label.text() == "Enter a space id and press Open."
    assert page.action_button.isHidden()


def test_an_action_text_shows_the_button_and_none_hides_it_again(page, qtbot):
    page.set_text("Nothing here", "There are no cards on this page.", "Go to the Last Page (3)")
    assert page.action_button.isVisible()
    assert page.action_button.text() == "Go to the Last Page (3)"
    with qtbot.waitSignal(page.action_button.clicked):
        qtbot.mouseClick(page.action_button, Qt.MouseButton.LeftButton)
    page.set_text("No cards", "This space has no cards yet.")
    assert page.action_button.isHidden()


def test_text_is_plain_never_markup(page):
    page.set_text("<b>space</b>", "<i>id</i>")
    assert page.title_label.textFormat() == Qt.TextFormat.PlainText
    assert page.text_label.textFormat() == Qt.TextFormat.PlainText


def test_the_headline_stands_out_and_the_sentence_is_muted(page):
    assert page.title_label.font().pointSizeF() > page.text_label.font().pointSizeF()
    # In the palette's colour for muted text, whichever palette is current when painted.
    assert page.text_label.foregroundRole() == QPalette.ColorRole.PlaceholderText
    assert page.title_label.foregroundRole() == QPalette.ColorRole.WindowText


def test_at_its_smallest_size_every_line_of_its_texts_shows(page, qtbot):
    page.set_text(
        "No card on this page matches “someone who is not here”",
        "Clear the filter (Esc) to see every card of this page again.",
        "Clear Filter",
    )
    smallest = page.minimumSizeHint()
    page.resize(smallest)
    qtbot.waitUntil(lambda: page.size() == smallest)
    for label in (page.title_label, page.text_label):
        qtbot.waitUntil(lambda label=label: label.height() > 0)
        assert label.heightForWidth(label.width()) <= label.height(), label.text()
    assert page.text_label.width() >= page.text_label.fontMetrics().averageCharWidth() * 20
