"""The card table view: whole rows, sortable, tall enough for avatars, copying reported."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QAbstractTableModel, QEvent, QItemSelectionModel, QLocale, QObject, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QApplication, QMainWindow

from cardviewer.api import CardPage
from cardviewer.api.models import parse_card
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.card_table_view import CardTableView
from cardviewer.ui.cards.table_copy import COPY_CELL

AVATAR = 48


@pytest.fixture
def window(qtbot) -> QMainWindow:
    """Holds the table and its models for as long as the test runs."""
    cards = tuple(parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(3))
    meta = {"current_page": 1, "last_page": 1, "per_page": 3, "total": 3}
    model = CardTableModel()
    page = CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})
    model.show_page(PageRequest("space", 1, False), page)
    window = QMainWindow()
    qtbot.addWidget(window)
    proxy = CardFilterModel(window, locale=QLocale(QLocale.Language.English))
    model.setParent(window)
    proxy.setSourceModel(model)
    view = CardTableView(proxy, AVATAR, window)
    window.setCentralWidget(view)
    window.show()
    qtbot.waitExposed(window)
    return window


@pytest.fixture
def table(window: QMainWindow) -> CardTableView:
    view = window.centralWidget()
    assert isinstance(view, CardTableView)
    return view


def name_column(view: CardTableView) -> int:
    model = view.model()
    return next(
        column
        for column in range(model.columnCount())
        if model.headerData(column, Qt.Orientation.Horizontal) == "Name"
    )


def test_rows_are_selected_whole_and_sorted_by_the_header(table):
    assert table.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows
    assert table.isSortingEnabled()
    assert table.horizontalHeader().sectionsMovable()
    assert table.verticalHeader().isHidden()
    assert table.horizontalHeader().sortIndicatorSection() == -1, "in the server's order"


def test_rows_have_room_for_an_avatar(table):
    assert table.rowHeight(0) >= AVATAR + 8


def test_copying_without_a_selection_copies_the_current_row(table, qtbot):
    column = name_column(table)
    table.setCurrentIndex(table.model().index(1, column))
    table.clearSelection()
    with qtbot.waitSignal(table.copied) as copied:
        table.copy_selection()
    assert copied.args == ["Copied 1 row"]
    assert table.selectionModel().isRowSelected(1)
    assert "Person 1" in QApplication.clipboard().text()


def test_the_menu_copies_the_cell_it_was_opened_on(table, qtbot):
    cell = table.model().index(2, name_column(table))
    table.show_menu(table.visualRect(cell).center())
    menu = table.menu
    assert menu is not None
    assert menu.parent() is table.window()
    (copy_cell,) = [a for a in menu.actions() if a.objectName() == COPY_CELL]
    with qtbot.waitSignal(table.copied) as copied:
        copy_cell.trigger()
    assert copied.args == ["Copied 1 cell"]
    assert QApplication.clipboard().text() == "Person 2"
    menu.close()


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self.paints += event.type() == QEvent.Type.Paint
        return False


def test_a_new_answer_is_painted_once(qtbot):
    """A model reset lays the rows out at once: Qt's view would lay them out on a timer
    after the paint the reset asked for, and paint every row on screen a second time."""
    model = QStandardItemModel(50, 4)
    view = CardTableView(model, AVATAR)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    counter = PaintCounter()
    view.viewport().installEventFilter(counter)
    view.viewport().repaint()  # whatever was due is painted now, before the count
    qtbot.wait(50)
    counter.paints = 0
    model.beginResetModel()
    for row in range(50):
        model.setItem(row, 0, QStandardItem(f"Row {row}"))
    model.endResetModel()
    qtbot.waitUntil(lambda: counter.paints > 0)
    qtbot.wait(100)  # a second paint would come meanwhile
    assert counter.paints == 1
    assert view.indexAt(view.viewport().rect().topLeft()).data() == "Row 0"


class CountedRows(QAbstractTableModel):
    """Many rows, counting the calls Qt makes into Python for the number of rows."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows
        self.asked = 0

    def rowCount(self, parent: object = None) -> int:
        self.asked += 1
        return self.rows

    def columnCount(self, parent: object = None) -> int:
        return 4

    def data(self, index: object, role: int = 0) -> object:
        return None


def test_a_header_paints_without_asking_about_every_selected_row(qtbot):
    """A header asked whether each column it paints was wholly selected, and Qt asked the
    model about every row for it: with a whole space of 100,000 rows selected (Ctrl+A),
    each paint of the header held the window up for seconds."""
    model = CountedRows(20_000)
    view = CardTableView(model, AVATAR)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    model.asked = 0
    view.selectAll()
    assert view.selectionModel().isRowSelected(19_999)
    qtbot.wait(10)  # the paints the selection asked for
    for header in (view.horizontalHeader(), view.verticalHeader()):
        header.show()
        header.viewport().repaint()
    assert model.asked < 1_000
    view.setModel(second := CountedRows(20_000))  # a new model, a new selection model
    view.selectAll()
    qtbot.wait(10)
    second.asked = 0
    view.horizontalHeader().viewport().repaint()
    assert second.asked < 100


def test_a_new_model_leaves_no_selection_model_behind(qtbot):
    """The table kept the selection models of every model before, its own and the two
    its headers were given: three more objects each time the view switched between the
    pages and the whole space."""
    view = CardTableView(CountedRows(10), AVATAR)
    qtbot.addWidget(view)
    models = [CountedRows(10) for _ in range(10)]
    for model in models:
        view.setModel(model)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    kept = view.findChildren(QItemSelectionModel)
    assert len(kept) == 2, "the table's and the headers' shared one"
    assert view.selectionModel() in kept
    assert view.selectionModel().model() is models[-1]
    assert view.horizontalHeader().selectionModel() in kept
    view.selectAll()
    assert view.selectionModel().isRowSelected(9)
