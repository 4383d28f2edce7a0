"""Copying from the card table: cells as shown, as a grid a spreadsheet pastes."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import (
    QCoreApplication,
    QItemSelection,
    QItemSelectionModel,
    QPoint,
    Qt,
    QTranslator,
)
from PySide6.QtGui import QAction, QGuiApplication, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QMenu, QTableView

from cardviewer.services.clipboard_text import StoredRows
from cardviewer.ui.cards import table_copy
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.card_table_view import CardTableView
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.cards.table_copy import (
    COPY_CELL,
    COPY_EMAIL,
    COPY_ROW,
    COPY_SELECTION,
    build_context_menu,
    cell_text,
    copy_selection,
    first_email,
    row_as_tsv,
    selection_as_tsv,
    stored_rows,
)
from tests.ui.cards.test_card_filter_model import LoadCards, load_cards, make_card
from tests.ui.cards.test_space_table_model import synced_store

__all__ = ["load_cards"]  # the fixture, shared with the filter model's tests

SELECT = QItemSelectionModel.SelectionFlag.Select
CLEAR_AND_SELECT = QItemSelectionModel.SelectionFlag.ClearAndSelect
ROWS = QItemSelectionModel.SelectionFlag.Rows
SENTINEL = "clipboard before"

PEOPLE = [
    make_card(
        1,
        display_name="Zoë Müller",
        username="zoe",
        position="Head of Legal",
        emails=["zoe@legal.example", "zm@private.example"],
    ),
    make_card(2, display_name="John Smith", username="jsmith", position="Sales", emails=[]),
    make_card(
        3,
        display_name="Jane Doe",
        username="jane",
        position="Counsel",
        emails=["jane@legal.example"],
    ),
]


class Table:
    """A table view on a filter model on a card table model, as the window has them."""

    def __init__(self, qtbot: Any, model: CardTableModel) -> None:
        self.model = model
        self.proxy = CardFilterModel()
        self.proxy.setSourceModel(model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setColumnHidden(self.col("uuid"), True)  # as the window starts
        qtbot.addWidget(self.view)

    def col(self, key: str) -> int:
        number = self.model.column_of(key)
        assert number is not None, key
        return number

    def select(self, *ranges: tuple[int, str, int, str]) -> None:
        """Select cell ranges given as (top row, left key, bottom row, right key)."""
        selection = QItemSelection()
        for top, left, bottom, right in ranges:
            selection.select(
                self.proxy.index(top, self.col(left)), self.proxy.index(bottom, self.col(right))
            )
        self.view.selectionModel().select(selection, CLEAR_AND_SELECT)

    def select_rows(self, *rows: int) -> None:
        self.view.selectionModel().clear()
        for row in rows:
            self.view.selectionModel().select(self.proxy.index(row, 0), SELECT | ROWS)

    def expected_row(self, row: int, keys: list[str]) -> list[str]:
        """The cells of the proxy's `row` as the CSV export writes them."""
        card = self.proxy.card(row)
        assert card is not None
        return [self.model.columns[self.col(key)].export(card) for key in keys]

    def visible_keys(self) -> list[str]:
        header = self.view.horizontalHeader()
        logical = [header.logicalIndex(v) for v in range(header.count())]
        return [self.model.columns[c].key for c in logical if not self.view.isColumnHidden(c)]

    def menu_at(self, row: int, key: str, messages: list[str] | None = None) -> QMenu:
        index = self.proxy.index(row, self.col(key)) if row >= 0 else self.proxy.index(-1, -1)
        on_copied = messages.append if messages is not None else None
        return build_context_menu(self.view, index, self.view, on_copied=on_copied)


@pytest.fixture
def table(qtbot, load_cards: LoadCards) -> Table:
    return Table(qtbot, load_cards(PEOPLE))


@pytest.fixture
def clipboard(qapp):
    board = QGuiApplication.clipboard()
    board.setText(SENTINEL)
    return board


def action(menu: QMenu, name: str) -> QAction:
    found = menu.findChild(QAction, name)
    assert found is not None, name
    return found


def parse_tsv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text), delimiter="\t"))


# The selection


def test_selection_in_the_order_shown_with_a_moved_and_a_hidden_column(table):
    table.view.setColumnHidden(table.col("username"), True)
    header = table.view.horizontalHeader()
    header.moveSection(header.visualIndex(table.col("position")), 0)
    table.select((0, "avatar", 0, "position"), (2, "avatar", 2, "position"))
    assert selection_as_tsv(table.view) == (
        "Head of Legal\thttps://cdn.example/avatars/a1.jpg\tZoë Müller\n"
        "Counsel\thttps://cdn.example/avatars/a3.jpg\tJane Doe"
    )
    assert selection_as_tsv(table.view, with_header=True).split("\n")[0] == (
        "Position\tAvatar URL\tName"
    )


def test_whole_rows_give_every_visible_column(table):
    table.view.setColumnHidden(table.col("created_at"), True)
    header = table.view.horizontalHeader()
    after_avatar = header.visualIndex(table.col("avatar")) + 1
    header.moveSection(header.visualIndex(table.col("emails")), after_avatar)
    table.select_rows(2, 0)
    keys = table.visible_keys()
    assert keys[:3] == ["avatar", "emails", "display_name"]
    assert "created_at" not in keys
    assert parse_tsv(selection_as_tsv(table.view)) == [
        table.expected_row(0, keys),
        table.expected_row(2, keys),
    ]
    assert parse_tsv(selection_as_tsv(table.view))[0][1] == "zoe@legal.example; zm@private.example"


def test_rows_follow_the_sorting_and_filtering_on_screen(table):
    table.proxy.sort(table.col("display_name"), Qt.SortOrder.DescendingOrder)
    table.select((0, "display_name", 2, "display_name"))
    assert selection_as_tsv(table.view) == "Zoë Müller\nJohn Smith\nJane Doe"
    table.proxy.set_filter_text("legal")
    table.select((0, "display_name", 1, "display_name"))
    assert selection_as_tsv(table.view) == "Zoë Müller\nJane Doe"


def test_a_selection_that_is_not_a_rectangle_is_padded_with_blank_cells(table):
    table.select((0, "display_name", 0, "display_name"), (2, "position", 2, "position"))
    assert selection_as_tsv(table.view) == "Zoë Müller\t\n\tCounsel"
    assert parse_tsv(selection_as_tsv(table.view)) == [["Zoë Müller", ""], ["", "Counsel"]]


def test_rows_only_selected_in_hidden_columns_are_left_out(table):
    table.view.setColumnHidden(table.col("username"), True)
    table.select((0, "display_name", 0, "display_name"), (1, "username", 1, "username"))
    assert selection_as_tsv(table.view) == "Zoë Müller"


def test_columns_only_selected_in_hidden_rows_are_left_out(table):
    table.view.setRowHidden(1, True)
    table.select((0, "display_name", 0, "display_name"), (1, "position", 1, "position"))
    assert selection_as_tsv(table.view) == "Zoë Müller"


def test_nothing_selected_is_empty(table):
    assert selection_as_tsv(table.view) == ""
    assert selection_as_tsv(table.view, with_header=True) == ""


def test_tabs_line_breaks_and_quotes_inside_values(qtbot, load_cards):
    cards = [
        make_card(1, display_name="Tab\there", position="Head of\nLegal"),
        make_card(2, display_name='"The" boss', position='Says "hi"'),
    ]
    table = Table(qtbot, load_cards(cards))
    table.select((0, "display_name", 1, "position"))
    text = selection_as_tsv(table.view)
    assert text.count("\n") == 2  # the row break and the one inside the quoted cell
    assert parse_tsv(text) == [
        ["Tab\there", "user-1", "Head of\nLegal"],
        ['"The" boss', "user-2", 'Says "hi"'],
    ]


def test_text_that_looks_like_a_formula_is_guarded(qtbot, load_cards):
    cards = [make_card(1, display_name='=HYPERLINK("http://evil.example")', score=-3)]
    table = Table(qtbot, load_cards(cards))
    table.select((0, "display_name", 0, "display_name"), (0, "score", 0, "score"))
    assert selection_as_tsv(table.view) == '\'=HYPERLINK("http://evil.example")\t-3'


def test_a_plain_qt_model_copies_its_display_text(qtbot):
    model = QStandardItemModel(2, 2)
    model.setHorizontalHeaderLabels(["A", "B"])
    for row in range(2):
        for column in range(2):
            model.setItem(row, column, QStandardItem(f"r{row}c{column}"))
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.selectAll()
    assert selection_as_tsv(view, with_header=True) == "A\tB\nr0c0\tr0c1\nr1c0\tr1c1"


# The clipboard


def test_copy_selection_puts_the_text_on_the_clipboard(table, clipboard):
    table.select_rows(0, 2)
    assert copy_selection(table.view) == "Copied 2 rows"
    assert clipboard.text() == selection_as_tsv(table.view)
    table.select((1, "display_name", 1, "display_name"))
    assert copy_selection(table.view) == "Copied 1 cell"
    assert clipboard.text() == "John Smith"
    table.select((1, "display_name", 1, "position"))
    assert copy_selection(table.view) == "Copied 1 row"
    assert clipboard.text() == "John Smith\tjsmith\tSales"
    assert copy_selection(table.view, with_header=True) == "Copied 1 row"
    assert clipboard.text() == "Name\tUsername\tPosition\nJohn Smith\tjsmith\tSales"


def test_copying_nothing_leaves_the_clipboard_alone(table, clipboard):
    assert copy_selection(table.view) == "Nothing to copy"
    assert clipboard.text() == SENTINEL


# The context menu


def test_menu_offers_the_copy_actions(table):
    menu = table.menu_at(0, "display_name")
    assert [a.text() for a in menu.actions()] == [
        "Copy Cell",
        "Copy Row",
        "Copy E-mail",
        "",
        "Copy Selection",
    ]
    assert action(menu, COPY_CELL).isEnabled()
    assert action(menu, COPY_ROW).isEnabled()
    assert action(menu, COPY_EMAIL).isEnabled()
    assert not action(menu, COPY_SELECTION).isEnabled()  # nothing selected


def test_copy_cell(table, clipboard):
    messages: list[str] = []
    action(table.menu_at(2, "position", messages), COPY_CELL).trigger()
    assert clipboard.text() == "Counsel"
    assert messages == ["Copied 1 cell"]
    action(table.menu_at(0, "avatar", messages), COPY_CELL).trigger()
    assert clipboard.text() == "https://cdn.example/avatars/a1.jpg"
    assert messages == ["Copied 1 cell", "Copied 1 cell"]
    assert cell_text(table.view, table.proxy.index(0, table.col("public"))) == "yes"


def test_copy_row_in_the_order_shown(table, clipboard):
    messages: list[str] = []
    table.view.setColumnHidden(table.col("avatar"), True)
    header = table.view.horizontalHeader()
    header.moveSection(header.visualIndex(table.col("position")), 0)
    table.proxy.sort(table.col("display_name"), Qt.SortOrder.AscendingOrder)
    action(table.menu_at(0, "public", messages), COPY_ROW).trigger()  # Jane Doe
    keys = table.visible_keys()
    assert keys[:3] == ["position", "display_name", "username"]
    assert parse_tsv(clipboard.text()) == [table.expected_row(0, keys)]
    assert clipboard.text().startswith("Counsel\tJane Doe\tjane\tyes\t")
    assert clipboard.text() == row_as_tsv(table.view, 0)
    assert messages == ["Copied 1 row"]


def test_copy_email_copies_the_first_address(table, clipboard):
    messages: list[str] = []
    action(table.menu_at(0, "connects", messages), COPY_EMAIL).trigger()
    assert clipboard.text() == "zoe@legal.example"
    assert messages == ["Copied the e-mail address zoe@legal.example"]


def test_copy_email_is_disabled_for_a_card_without_addresses(table):
    assert first_email(table.view, table.proxy.index(1, 0)) is None
    assert not action(table.menu_at(1, "display_name"), COPY_EMAIL).isEnabled()


def test_copy_email_is_disabled_when_emails_were_not_loaded(qtbot, load_cards):
    cards = [make_card(1, emails=None), make_card(2, emails=None)]
    table = Table(qtbot, load_cards(cards, with_emails=False))
    assert table.model.column_of("emails") is None
    menu = table.menu_at(0, "display_name")
    assert not action(menu, COPY_EMAIL).isEnabled()
    assert action(menu, COPY_CELL).isEnabled()


def test_copy_selection_from_the_menu(table, clipboard):
    messages: list[str] = []
    table.select((0, "display_name", 2, "display_name"))
    menu = table.menu_at(1, "position", messages)
    assert action(menu, COPY_SELECTION).isEnabled()
    action(menu, COPY_SELECTION).trigger()
    assert clipboard.text() == "Zoë Müller\nJohn Smith\nJane Doe"
    assert messages == ["Copied 3 rows"]


def test_below_the_last_row_only_the_selection_can_be_copied(table):
    table.select_rows(0)
    menu = table.menu_at(-1, "display_name")
    assert not action(menu, COPY_CELL).isEnabled()
    assert not action(menu, COPY_ROW).isEnabled()
    assert not action(menu, COPY_EMAIL).isEnabled()
    assert action(menu, COPY_SELECTION).isEnabled()


def test_a_menu_left_open_over_a_new_page_copies_nothing(table, clipboard, load_cards):
    messages: list[str] = []
    menu = table.menu_at(0, "display_name", messages)
    load_cards([make_card(9)], model=table.model)
    action(menu, COPY_CELL).trigger()
    action(menu, COPY_ROW).trigger()
    action(menu, COPY_EMAIL).trigger()
    assert clipboard.text() == SENTINEL
    assert messages == [
        "Nothing to copy",
        "Nothing to copy",
        "This card has no e-mail address.",
    ]


def test_menu_and_messages_go_through_translation(table, clipboard):
    class Shouting(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            return source.upper() if context == "TableCopy" else None

    translator = Shouting()
    QCoreApplication.installTranslator(translator)
    messages: list[str] = []
    try:
        menu = table.menu_at(0, "display_name", messages)
        action(menu, COPY_CELL).trigger()
    finally:
        QCoreApplication.removeTranslator(translator)
    assert [a.text() for a in menu.actions() if a.text()] == [
        "COPY CELL",
        "COPY ROW",
        "COPY E-MAIL",
        "COPY SELECTION",
    ]
    assert messages == ["COPIED 1 CELL"]


def test_many_rows_copy(qtbot, load_cards, clipboard):
    cards = [make_card(n) for n in range(2_000)]
    table = Table(qtbot, load_cards(cards))
    table.proxy.set_filter_text("user-1")  # 1, 10-19, 100-199, 1000-1999
    table.view.selectAll()
    assert copy_selection(table.view) == "Copied 1111 rows"
    lines = clipboard.text().split("\n")
    assert len(lines) == 1_111
    assert lines[0].split("\t")[1:3] == ["Person 1", "user-1"]


# Many rows of a synced space


@pytest.fixture
def space_view(qtbot, tmp_path, monkeypatch) -> Iterator[CardTableView]:
    """A whole space of 30 cards shown sorted by name, and fewer rows copied at once."""
    monkeypatch.setattr(table_copy, "IMMEDIATE_ROWS", 5)
    people = [make_card(n, display_name=f"Person {n:02}", position=f"=Role {n}") for n in range(30)]
    model = SpaceTableModel(synced_store(tmp_path / "space.sqlite", people))
    view = CardTableView(model, avatar_size=32)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: not model.is_sorting, timeout=5_000)
    name = model.column_of("display_name")
    assert name is not None
    with qtbot.waitSignal(model.queryFinished, timeout=5_000):
        view.sortByColumn(name, Qt.SortOrder.DescendingOrder)
    yield view
    model.close()


def test_many_rows_of_a_synced_space_are_copied_from_its_copy_as_shown(space_view, clipboard):
    handed: list[StoredRows] = []
    space_view.copy_stored = handed.append
    space_view.horizontalHeader().moveSection(3, 0)
    space_view.hideColumn(space_view.model().column_of("username"))
    space_view.selectAll()
    space_view.selectionModel().select(  # one cell less in the second row
        space_view.model().index(1, space_view.model().column_of("position")),
        QItemSelectionModel.SelectionFlag.Deselect,
    )
    at_once = selection_as_tsv(space_view, with_header=True)
    assert len(at_once.split("\n")) == 31
    assert "'=Role 29" in at_once, "the first row's position, its formula guarded"
    assert "'=Role 28" not in at_once, "the second row's position is not selected"
    space_view.copy_selection()
    assert len(handed) == 1
    assert clipboard.text() == SENTINEL, "handed on, not copied here"
    assert handed[0].text() == selection_as_tsv(space_view)
    with_titles = stored_rows(space_view, with_header=True)
    assert with_titles is not None
    assert with_titles.text() == at_once


def test_the_menu_hands_many_rows_on_too_and_few_are_copied_at_once(space_view, clipboard):
    handed: list[StoredRows] = []
    messages: list[str] = []
    space_view.copy_stored = handed.append
    space_view.copied.connect(messages.append)
    space_view.selectAll()
    space_view.show_menu(QPoint(5, 5))
    assert space_view.menu is not None
    action(space_view.menu, COPY_SELECTION).trigger()
    assert len(handed) == 1
    assert len(handed[0].positions) == 30
    space_view.clearSelection()
    space_view.selectRow(0)
    space_view.copy_selection()
    assert len(handed) == 1, "one row: copied at once"
    assert messages == ["Copied 1 row"]
    assert "\tPerson 29\t" in clipboard.text()


def test_without_the_window_many_rows_are_copied_at_once(space_view, clipboard):
    messages: list[str] = []
    space_view.copied.connect(messages.append)
    space_view.selectAll()
    space_view.copy_selection()
    assert messages == ["Copied 30 rows"]
    lines = clipboard.text().split("\n")
    assert len(lines) == 30
    assert ["\tPerson 29\t" in lines[0], "\tPerson 00\t" in lines[-1]] == [True, True]
    every = stored_rows(space_view)
    assert every is not None
    assert every.text() == clipboard.text(), "the same from the copy as at once"
