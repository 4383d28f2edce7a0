"""The page bar: describes the page shown and asks for others."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt

from cardviewer.api import PageMeta
from cardviewer.ui.page_bar import PageBar


def meta(current: int, last: int = 24, total: int = 240, per_page: int = 10) -> PageMeta:
    first = (current - 1) * per_page + 1
    on_page = current <= last and total > 0
    return PageMeta.model_validate(
        {
            "current_page": current,
            "last_page": last,
            "per_page": per_page,
            "total": total,
            "from": first if on_page else None,
            "to": min(first + per_page - 1, total) if on_page else None,
        }
    )


@pytest.fixture
def bar(qtbot):
    widget = PageBar()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_disabled_while_nothing_is_loaded(bar):
    assert not bar.isEnabled()
    bar.set_meta(meta(1))
    assert bar.isEnabled()
    bar.set_meta(None)
    assert not bar.isEnabled()


def test_describes_the_page_shown(bar):
    bar.set_meta(meta(2))
    assert bar.page_spin.value() == 2
    assert bar.page_spin.maximum() == 24
    assert bar.of_label.text() == "of 24"
    assert bar.summary_label.text() == "Showing 11\u201320 of 240 cards"


@pytest.mark.parametrize(
    ("current", "first", "previous", "next_", "last"),
    [
        (1, False, False, True, True),
        (2, True, True, True, True),
        (24, True, True, False, False),
    ],
)
def test_buttons_without_a_page_to_go_to_are_disabled(bar, current, first, previous, next_, last):
    bar.set_meta(meta(current))
    assert bar.first_button.isEnabled() is first
    assert bar.previous_button.isEnabled() is previous
    assert bar.next_button.isEnabled() is next_
    assert bar.last_button.isEnabled() is last


def test_single_page_disables_every_button(bar):
    bar.set_meta(meta(1, last=1, total=3))
    buttons = [bar.first_button, bar.previous_button, bar.next_button, bar.last_button]
    assert not any(b.isEnabled() for b in buttons)
    assert bar.summary_label.text() == "Showing 1\u20133 of 3 cards"


def test_buttons_request_their_pages(bar, qtbot):
    bar.set_meta(meta(5))
    for button, page in [
        (bar.first_button, 1),
        (bar.previous_button, 4),
        (bar.next_button, 6),
        (bar.last_button, 24),
    ]:
        with qtbot.waitSignal(bar.pageRequested) as blocker:
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert blocker.args == [page]


def test_the_bar_shows_what_was_loaded_not_what_was_asked(bar, qtbot):
    bar.set_meta(meta(5))
    with qtbot.waitSignal(bar.pageRequested):
        qtbot.mouseClick(bar.next_button, Qt.MouseButton.LeftButton)
    assert bar.page_spin.value() == 5
    # Until the new page arrives, Next still asks for page 6, never 7.
    with qtbot.waitSignal(bar.pageRequested) as blocker:
        qtbot.mouseClick(bar.next_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [6]


def test_typing_a_number_and_enter_jumps(bar, qtbot):
    bar.set_meta(meta(1))
    bar.page_spin.setFocus()
    bar.page_spin.selectAll()
    qtbot.keyClicks(bar.page_spin, "17")
    with qtbot.waitSignal(bar.pageRequested) as blocker:
        qtbot.keyClick(bar.page_spin, Qt.Key.Key_Return)
    assert blocker.args == [17]


def test_typing_does_not_jump_before_enter(bar, qtbot):
    bar.set_meta(meta(1))
    bar.page_spin.selectAll()
    with qtbot.assertNotEmitted(bar.pageRequested):
        qtbot.keyClicks(bar.page_spin, "17")


def test_numbers_beyond_the_last_page_are_refused(bar, qtbot):
    bar.set_meta(meta(1, last=3, total=30))
    bar.page_spin.selectAll()
    qtbot.keyClicks(bar.page_spin, "9")
    with qtbot.assertNotEmitted(bar.pageRequested):
        qtbot.keyClick(bar.page_spin, Qt.Key.Key_Return)


def test_confirming_the_current_page_requests_nothing(bar, qtbot):
    bar.set_meta(meta(3))
    with qtbot.assertNotEmitted(bar.pageRequested):
        bar.set_meta(meta(4))
        qtbot.keyClick(bar.page_spin, Qt.Key.Key_Return)


def test_empty_space_and_page_past_the_end(bar):
    bar.set_meta(meta(1, last=1, total=0))
    assert bar.summary_label.text() == "No cards"
    bar.set_meta(meta(30, last=24))
    assert bar.summary_label.text() == "No cards on this page (240 in total)"
    assert bar.page_spin.value() == 30
    assert bar.previous_button.isEnabled()
    assert not bar.next_button.isEnabled()
    assert bar.last_button.isEnabled()


def test_from_past_the_end_previous_and_last_go_to_the_last_page(bar, qtbot):
    bar.set_meta(meta(30, last=24))
    for button in (bar.previous_button, bar.last_button):
        with qtbot.waitSignal(bar.pageRequested) as requested:
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert requested.args == [24]


def test_counts_have_the_locales_thousands_separator(bar):
    QLocale.setDefault(QLocale("en_US"))
    try:
        bar.set_meta(meta(1500, last=2000, total=20000))
    finally:
        QLocale.setDefault(QLocale.system())
    assert bar.summary_label.text() == "Showing 14,991\u201315,000 of 20,000 cards"
    assert bar.of_label.text() == "of 2,000"
