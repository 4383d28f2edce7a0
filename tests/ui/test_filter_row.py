"""The filter row: typing filters the table's cards, the count follows, the scope is named."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QAction

from cardviewer.api import CardPage
from cardviewer.api.models import parse_card
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.filter_row import FilterRow

NAMES = ["Anna Berg", "Anton Frei", "Bruno Keller"]


@pytest.fixture
def row(qtbot):
    cards = tuple(
        parse_card({"uuid": f"c{n}", "display_name": name}) for n, name in enumerate(NAMES)
    )
    meta = {"current_page": 1, "last_page": 1, "per_page": 3, "total": 3}
    page = CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})
    model = CardTableModel()
    model.show_whole_space("space", False, [page])
    proxy = CardFilterModel(locale=QLocale(QLocale.Language.English))
    proxy.setSourceModel(model)
    load_all = QAction("Load All Pages")
    widget = FilterRow(proxy, load_all)
    qtbot.addWidget(widget)
    load_all.setParent(widget)
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


def test_blanks_alone_are_no_filter(row, qtbot):
    widget, _ = row
    qtbot.keyClicks(widget.filter_edit, "   ")
    assert widget.count_label.text() == ""


def test_the_placeholder_names_what_filtering_covers(row):
    widget, _ = row
    widget.describe_scope(whole_space=False)
    assert widget.filter_edit.placeholderText() == "Filter the cards of this page (Ctrl+F)"
    widget.describe_scope(whole_space=True)
    assert widget.filter_edit.placeholderText() == "Filter all cards of the space (Ctrl+F)"


def test_focus_selects_the_filter_to_type_over_it(row, qtbot):
    widget, _ = row
    widget.filter_edit.setText("Anna")
    widget.focus()
    qtbot.waitUntil(widget.filter_edit.hasFocus)
    assert widget.filter_edit.selectedText() == "Anna"


def test_the_load_all_button_is_the_action_and_the_count_is_plain(row):
    widget, _ = row
    assert widget.load_all_button.defaultAction().text() == "Load All Pages"
    assert widget.load_all_button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextOnly
    assert widget.count_label.textFormat() == Qt.TextFormat.PlainText
    assert widget.filter_edit.isClearButtonEnabled()
