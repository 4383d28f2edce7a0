"""The window's middle: the hint first, the table or an empty page after, details beside."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QLineEdit, QSplitter, QTableView, QWidget

from cardviewer.ui.card_area import DEFAULT_SPLITTER_SIZES, CardArea, CardStack
from cardviewer.ui.cards.card_details import CardDetailsPane
from cardviewer.ui.page_messages import StateText


@pytest.fixture
def host(qtbot) -> QWidget:
    """Holds the area and its parts for as long as the test runs."""
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def area(qtbot, host: QWidget) -> CardArea:
    stack = CardStack(
        QTableView(host), QIcon(QPixmap(16, 16)), StateText("No space open", "Open one."), host
    )
    widget = CardArea(QLineEdit(host), stack, CardDetailsPane(None, host), host)
    host.resize(1200, 600)
    host.show()
    qtbot.waitExposed(host)
    widget.resize(1180, 500)
    return widget


def stack_of(area: CardArea) -> CardStack:
    stack = area.findChild(CardStack)
    assert stack is not None
    return stack


def test_it_starts_with_the_hint(area):
    stack = stack_of(area)
    assert stack.currentWidget() is stack.hint_page
    assert stack.hint_page.title_label.text() == "No space open"


def test_an_empty_page_says_why_and_the_table_comes_back(area):
    stack = stack_of(area)
    stack.show_empty(StateText("Nothing here", "No cards on this page.", "Go to the Last Page"))
    assert stack.currentWidget() is stack.empty_page
    assert stack.empty_page.action_button.text() == "Go to the Last Page"
    stack.show_table()
    assert stack.currentWidget() is stack.table


def test_the_details_sit_beside_the_cards_and_stay(area):
    assert isinstance(area, QSplitter)
    assert area.count() == 2
    assert area.objectName() == "detailsSplitter"
    assert not area.childrenCollapsible()
    assert len(DEFAULT_SPLITTER_SIZES) == area.count()


def test_the_details_pane_offers_its_hint_only_beside_cards(area):
    stack, pane = stack_of(area), area.findChild(CardDetailsPane)
    assert pane is not None
    assert pane.placeholder_label.text() == "", "no space open: nothing to select"
    stack.show_table()
    assert pane.placeholder_label.text() == "Select a card to see its details."
    stack.show_empty(StateText("No cards", "This space has no cards yet."))
    assert pane.placeholder_label.text() == ""
