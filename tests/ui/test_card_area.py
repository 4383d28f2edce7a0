"""The window's middle: the hint first, the table or an empty page after, details beside."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QLineEdit, QSplitter, QTableView, QWidget

from cardviewer.ui.card_area import (
    DEFAULT_SPLITTER_SIZES,
    NARROWED_DETAILS_SHARE,
    CardArea,
    CardStack,
)
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


def test_a_narrower_window_narrows_the_details_too_and_a_wider_one_gives_their_width_back(
    area, qtbot
):
    """The cards alone gave way: at 800 pixels the table had half the window."""
    _cards, details = area.sizes()
    assert details == DEFAULT_SPLITTER_SIZES[1]
    area.resize(780, 500)
    cards, narrowed = area.sizes()
    assert narrowed == round(780 * NARROWED_DETAILS_SHARE)
    assert cards > narrowed
    area.resize(500, 500)
    least = area.widget(1).minimumSizeHint().width()
    assert area.sizes()[1] == max(200, least)
    area.resize(1180, 500)
    assert area.sizes()[1] == DEFAULT_SPLITTER_SIZES[1], "back to its width"


def test_a_width_the_person_dragged_to_is_the_one_the_details_come_back_to(area):
    total = sum(area.sizes())
    area.moveSplitter(total - 500, 1)  # the pane 500 wide
    dragged = area.sizes()[1]
    assert dragged > DEFAULT_SPLITTER_SIZES[1]
    area.resize(780, 500)
    assert area.sizes()[1] < dragged
    area.resize(1180, 500)
    assert area.sizes()[1] == dragged
    area.setSizes([900, 280])  # the window's own layout (Reset View)
    area.resize(780, 500)
    area.resize(1180, 500)
    assert area.sizes()[1] == 280
