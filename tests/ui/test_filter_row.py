"""The filter row: typing filters the table's cards, the count follows, the scope is named."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QAction, QIcon, QKeyEvent
from PySide6.QtWidgets import QTableView, QWidget

from cardviewer import i18n
from cardviewer.api import CardPage
from cardviewer.api.models import parse_card
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.card_area import CardStack
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.filter_row import SAY_SORTING_AFTER_MS, FilterRow
from cardviewer.ui.page_messages import StateText

NAMES = ["Anna Berg", "Anton Frei", "Bruno Keller"]


@pytest.fixture
def row(qtbot):
    cards = tuple(
        parse_card({"uuid": f"c{n}", "display_name": name}) for n, name in enumerate(NAMES)
    )
    meta = {"current_page": 1, "last_page": 1, "per_page": 3, "total": 3}
    page = CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})
    model = CardTableModel()
    model.show_page(PageRequest("space", 1, False), page)
    proxy = CardFilterModel(locale=QLocale(QLocale.Language.English))
    proxy.setSourceModel(model)
    sync = QAction("Sync Space")
    widget = FilterRow(proxy, sync)
    qtbot.addWidget(widget)
    sync.setParent(widget)
    widget.show()
    qtbot.waitExposed(widget)
    for part in (model, proxy):
        part.setParent(widget)
    return widget, proxy


def test_typing_filters_the_cards_and_counts_them(row, qtbot):
    widget, proxy = row
    qtbot.keyClicks(widget.filter_edit, "an")
    assert proxy.rowCount() == 2
    assert widget.count_label.text() == "2 of 3 shown"
    widget.filter_edit.clear()
    assert proxy.rowCount() == 3
    assert widget.count_label.text() == "", "no count without a filter"


@pytest.mark.parametrize("changes", [False, True])
def test_the_whole_space_says_how_many_cards_it_has_without_a_filter(row, qtbot, changes):
    """Its pages have a bar that counts them; the whole space said its count only in a
    passing note, after a sync."""
    widget, _proxy = row
    widget.describe_scope(whole_space=True, changes=changes)
    assert widget.count_label.text() == "3 cards"
    qtbot.keyClicks(widget.filter_edit, "an")
    assert widget.count_label.text() == "2 of 3 shown"
    widget.filter_edit.clear()
    assert widget.count_label.text() == "3 cards"
    QLocale.setDefault(QLocale("en_US"))
    try:
        widget.show_count(100_000, 100_000)
        assert widget.count_label.text() == "100,000 cards"
    finally:
        QLocale.setDefault(QLocale.system())
    widget.show_count(1, 1)
    assert widget.count_label.text() == "1 card"
    widget.show_count(0, 0)
    assert widget.count_label.text() == ""
    widget.describe_scope(whole_space=False)
    assert widget.count_label.text() == "", "the page bar counts the pages' cards"


def test_the_whole_space_s_count_in_german(row, qapp):
    widget, _proxy = row
    i18n.install_translators(qapp, "de")
    QLocale.setDefault(QLocale("de_DE"))
    try:
        widget.describe_scope(whole_space=True)
        widget.show_count(100_000, 100_000)
        assert widget.count_label.text() == "100.000 Karten"
        widget.show_count(1, 1)
        assert widget.count_label.text() == "1 Karte"
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())


def test_blanks_alone_are_no_filter(row, qtbot):
    widget, _ = row
    qtbot.keyClicks(widget.filter_edit, "   ")
    assert widget.count_label.text() == ""


def test_the_placeholder_and_tooltip_name_what_filtering_covers(row):
    widget, _ = row
    assert widget.filter_edit.placeholderText() == "Filter the cards of this page (Ctrl+F)"
    assert widget.filter_edit.toolTip().endswith("apply to the page loaded.")
    widget.describe_scope(whole_space=True)
    assert widget.filter_edit.placeholderText() == "Filter all cards of the space (Ctrl+F)"
    assert widget.filter_edit.toolTip().endswith("apply to every card of the space.")
    widget.describe_scope(whole_space=True, changes=True)
    assert widget.filter_edit.placeholderText() == "Filter the cards shown (Ctrl+F)"
    assert widget.filter_edit.toolTip().endswith("of those the last sync changed so.")
    widget.describe_scope(whole_space=False)
    assert widget.filter_edit.placeholderText() == "Filter the cards of this page (Ctrl+F)"
    assert widget.filter_edit.toolTip().endswith("apply to the page loaded.")


def test_focus_selects_the_filter_to_type_over_it(row, qtbot):
    widget, _ = row
    widget.filter_edit.setText("Anna")
    widget.focus()
    qtbot.waitUntil(widget.filter_edit.hasFocus)
    assert widget.filter_edit.selectedText() == "Anna"


def test_the_button_is_the_action_and_the_count_is_plain(row):
    widget, _ = row
    assert widget.space_button.defaultAction().text() == "Sync Space"
    assert widget.space_button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextOnly
    assert widget.count_label.textFormat() == Qt.TextFormat.PlainText
    assert widget.filter_edit.isClearButtonEnabled()


@pytest.fixture
def covered(row, qtbot):
    """The row over a stack whose table shows the filtered cards."""
    widget, proxy = row
    table = QTableView()
    table.setModel(proxy)
    stack = CardStack(table, QIcon(), StateText("No space open", "Enter a space id."))
    qtbot.addWidget(stack)
    widget.cover(stack)
    stack.show_table()
    stack.show()
    qtbot.waitExposed(stack)
    return widget, stack


def test_escape_clears_the_filter_and_then_is_passed_on(row, qtbot):
    widget, proxy = row
    passed_on: list[int] = []

    class Parent(QWidget):
        def keyPressEvent(self, event: QKeyEvent) -> None:
            passed_on.append(event.key())

    parent = Parent()
    qtbot.addWidget(parent)
    widget.setParent(parent)
    parent.show()
    widget.filter_edit.setFocus()
    qtbot.keyClicks(widget.filter_edit, "an")
    qtbot.keyClick(widget.filter_edit, Qt.Key.Key_Escape)
    assert widget.filter_edit.text() == ""
    assert proxy.rowCount() == 3
    assert passed_on == []
    qtbot.keyClick(widget.filter_edit, Qt.Key.Key_Escape)
    assert passed_on == [Qt.Key.Key_Escape]
    widget.setParent(None)  # the fixture's to close


def test_a_filter_that_hides_every_card_says_so_in_place_of_the_table(covered, qtbot):
    widget, stack = covered
    widget.filter_edit.setText("<b>Zoë</b> %2")
    page = widget.no_match_page
    assert stack.currentWidget() is page
    assert page.title_label.text() == "No card on this page matches \u201c<b>Zoë</b> %2\u201d"
    assert page.title_label.textFormat() == Qt.TextFormat.PlainText
    assert "Esc" in page.text_label.text()
    assert page.action_button.text() == "Clear Filter"
    qtbot.keyClick(widget.filter_edit, Qt.Key.Key_Backspace)
    assert stack.currentWidget() is page, "still nothing: the page stays"
    qtbot.mouseClick(page.action_button, Qt.MouseButton.LeftButton)
    assert widget.filter_edit.text() == ""
    assert stack.currentWidget() is stack.table


def test_the_no_match_page_names_the_scope_and_cuts_a_long_filter(covered, qtbot):
    widget, stack = covered
    widget.describe_scope(whole_space=True)
    widget.filter_edit.setText("x" * 100)
    title = widget.no_match_page.title_label.text()
    assert title.startswith("No card of the space matches \u201c" + "x" * 39 + "\u2026")
    assert "space" in widget.no_match_page.text_label.text()
    widget.filter_edit.setText("anna")
    assert stack.currentWidget() is stack.table


def test_no_match_page_only_where_the_table_was(covered, qtbot):
    widget, stack = covered
    stack.show_empty(StateText("No cards", "This space has no cards yet."))
    widget.filter_edit.setText("nobody")
    assert stack.currentWidget() is stack.empty_page


def test_counts_follow_the_locale(row):
    widget, proxy = row
    proxy.set_filter_text("an")
    QLocale.setDefault(QLocale("en_US"))
    try:
        widget.show_count(1234, 20000)
    finally:
        QLocale.setDefault(QLocale.system())
    assert widget.count_label.text() == "1,234 of 20,000 shown"


def test_a_slow_answer_says_the_cards_are_being_sorted_until_it_comes(row, qtbot):
    """A whole space's first sort in another language ranks every text again first."""
    widget, _proxy = row
    widget.sorting_started()
    widget.sorting_finished()  # a quick answer: nothing said
    qtbot.wait(SAY_SORTING_AFTER_MS + 100)
    assert widget.count_label.text() == ""
    widget.sorting_started()
    qtbot.waitUntil(lambda: widget.count_label.text() == "Sorting…")
    widget.sorting_finished()
    assert widget.count_label.text() == "", "no filter: no count"
    qtbot.keyClicks(widget.filter_edit, "an")
    widget.sorting_started()
    qtbot.waitUntil(lambda: widget.count_label.text() == "Sorting…")
    widget.sorting_finished()
    assert widget.count_label.text() == "2 of 3 shown"


def test_another_target_takes_the_sorting_note_away(row, qtbot):
    """Back to the pages while the whole space still sorts: the pages' count is shown."""
    widget, proxy = row
    other = CardFilterModel(widget, locale=QLocale(QLocale.Language.English))
    other.setSourceModel(proxy.sourceModel())
    widget.set_target(other)
    widget.sorting_started()
    qtbot.waitUntil(lambda: widget.count_label.text() == "Sorting…")
    widget.set_target(proxy)
    qtbot.wait(SAY_SORTING_AFTER_MS + 100)
    assert widget.count_label.text() == ""
    widget.sorting_started()
    widget.set_target(other)  # the note not yet shown: it never is
    qtbot.wait(SAY_SORTING_AFTER_MS + 100)
    assert widget.count_label.text() == ""
