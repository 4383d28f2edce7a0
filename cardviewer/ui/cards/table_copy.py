"""Copying cells of the card table as text that pastes into a spreadsheet as a grid.

What is copied:

- The cells as shown: columns in the order the header shows them, hidden columns
  and rows left out, rows in the order on screen (sorted and filtered).
- Each cell as the CSV export writes it (`Column.export`): stable, untranslated text;
  the avatar column gives the picture's address. Other models give their display text.
- A selection that is not a rectangle becomes the grid of its rows and columns: every
  row with a selected cell, every column with a selected cell, blank where a cell of
  that grid is not selected. So two rows picked apart with Ctrl paste as two adjacent
  rows, not with the rows between them.

How the text is written: `services.clipboard_text`, which also copies a synced space's
rows from its local copy when there are too many to copy at once (`stored_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QCoreApplication,
    QIdentityProxyModel,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu, QTableView, QWidget

from cardviewer.api.models import Card
from cardviewer.services.card_columns import Column, export_header
from cardviewer.services.clipboard_text import StoredRows, clipboard_cell, grid_text
from cardviewer.ui.cards.card_table_model import CARD_ROLE, CardTableModel
from cardviewer.ui.cards.columns import column_titles
from cardviewer.ui.cards.space_table_model import SpaceTableModel

ModelIndex = QModelIndex | QPersistentModelIndex
OnCopied = Callable[[str], None]
"""Receives the status message after something was copied (or nothing could be)."""

COPY_CELL = "copyCellAction"
COPY_ROW = "copyRowAction"
COPY_EMAIL = "copyEmailAction"
COPY_SELECTION = "copySelectionAction"
"""Object names of the context menu's actions."""


# Texts of cells


class _CellTexts:
    """Export texts of a view's cells, looked up through any proxies to the card model."""

    def __init__(self, model: QAbstractItemModel) -> None:
        self.proxies: list[QAbstractProxyModel] = []
        base = model
        while isinstance(base, QAbstractProxyModel) and base.sourceModel() is not None:
            self.proxies.append(base)
            base = base.sourceModel()
        self.model = model
        self.cards = base if isinstance(base, CardTableModel | SpaceTableModel) else None
        self.columns: list[Column] = self.cards.columns if self.cards is not None else []
        self.titles = export_header(self.columns, column_titles())
        # Sorting, filtering and identity proxies map rows and columns independently:
        # then a row is mapped once, not once per cell (copying 10,000 rows stays quick).
        self.separable = all(
            isinstance(proxy, QSortFilterProxyModel | QIdentityProxyModel) for proxy in self.proxies
        )
        self._source_columns: dict[int, int] = {}

    def to_source(self, index: ModelIndex) -> ModelIndex:
        source = index
        for proxy in self.proxies:
            source = proxy.mapToSource(source)
        return source

    def text(self, index: ModelIndex) -> str:
        if self.cards is not None:
            source = self.to_source(index)
            card = self.cards.card(source.row())
            if card is not None and 0 <= source.column() < len(self.columns):
                return self.columns[source.column()].export(card)
        return _display_text(index.data(Qt.ItemDataRole.DisplayRole))

    def row(self, row: int, columns: Sequence[int], chosen: Container[int]) -> list[str]:
        """Texts of the `columns` of view row `row`; blank for columns not `chosen`."""
        if self.cards is None or not self.separable or not columns:
            return [self.text(self.model.index(row, c)) if c in chosen else "" for c in columns]
        card = self.cards.card(self.to_source(self.model.index(row, columns[0])).row())
        texts: list[str] = []
        for column in columns:
            source = self._source_columns.get(column)
            if source is None:
                source = self.to_source(self.model.index(row, column)).column()
                self._source_columns[column] = source
            if column not in chosen or card is None or not 0 <= source < len(self.columns):
                texts.append("")
            else:
                texts.append(self.columns[source].export(card))
        return texts

    def title(self, row: int, column: int) -> str:
        """The column's export heading; `row` is any row of the view, to map the column."""
        if self.cards is not None:
            source = self.to_source(self.model.index(row, column))
            if 0 <= source.column() < len(self.columns):
                return self.titles[source.column()]
        header = self.model.headerData(column, Qt.Orientation.Horizontal)
        return _display_text(header)

    def card(self, index: ModelIndex) -> Card | None:
        if self.cards is not None:
            return self.cards.card(self.to_source(index).row())
        card = index.data(CARD_ROLE)
        return card if isinstance(card, Card) else None


def _display_text(value: Any) -> str:
    return "" if value is None else str(value)


def _visible_columns(view: QTableView, columns: Collection[int]) -> list[int]:
    """`columns` without hidden ones, in the order the header shows them."""
    header = view.horizontalHeader()
    return sorted((c for c in columns if not view.isColumnHidden(c)), key=header.visualIndex)


def _visible_rows(view: QTableView, rows: Collection[int]) -> list[int]:
    """`rows` without hidden ones, in the order shown (a whole space's in one sort)."""
    header = view.verticalHeader()
    if header.hiddenSectionCount() == 0 and not header.sectionsMoved():
        return sorted(rows)
    return sorted((r for r in rows if not view.isRowHidden(r)), key=header.visualIndex)


@dataclass(frozen=True)
class _Spans:
    """The selected columns of each row of a selection: `every` row's, or `by_row`."""

    every: frozenset[int] | None = None
    by_row: Mapping[int, frozenset[int]] = field(default_factory=dict)

    def __getitem__(self, row: int) -> frozenset[int]:
        return self.every if self.every is not None else self.by_row[row]


def _selected_grid(view: QTableView) -> tuple[list[int], list[int], _Spans]:
    """Rows and columns of the selection as shown, and the selected columns of each row.

    One range (Ctrl+A in a whole space: 100,000 rows; a click; Shift+click) gives every
    row the same columns, and no row is looked at alone.
    """
    selection_model = view.selectionModel()
    if view.model() is None or selection_model is None:
        return [], [], _Spans()
    selection = selection_model.selection()
    parts = [selection.at(n) for n in range(selection.count())]
    parts = [part for part in parts if part.isValid() and not part.parent().isValid()]
    if len(parts) == 1:
        span = frozenset(range(parts[0].left(), parts[0].right() + 1))
        columns = _visible_columns(view, span)
        rows = _visible_rows(view, range(parts[0].top(), parts[0].bottom() + 1))
        return (rows, columns, _Spans(every=span)) if columns else ([], [], _Spans())
    selected: dict[int, frozenset[int]] = {}
    for part in parts:
        span = frozenset(range(part.left(), part.right() + 1))
        for row in range(part.top(), part.bottom() + 1):
            earlier = selected.get(row, span)
            selected[row] = earlier if span <= earlier else earlier | span
    rows = _visible_rows(view, selected.keys())
    all_columns: set[int] = set()
    for span in {selected[row] for row in rows}:  # of the rows shown only
        all_columns |= span
    columns = _visible_columns(view, all_columns)
    if not columns:
        return [], [], _Spans()
    rows = [row for row in rows if not selected[row].isdisjoint(columns)]
    return rows, columns, _Spans(by_row=selected)


def _selection_rows(view: QTableView, with_header: bool) -> tuple[list[list[str]], int, int]:
    """The selection as rows of cell texts, with the number of rows and columns selected."""
    rows, columns, selected = _selected_grid(view)
    model = view.model()
    if not rows:
        return [], 0, 0
    texts = _CellTexts(model)
    lines: list[list[str]] = []
    if with_header:
        lines.append([texts.title(rows[0], column) for column in columns])
    lines.extend(texts.row(row, columns, selected[row]) for row in rows)
    return lines, len(rows), len(columns)


IMMEDIATE_ROWS = 250
"""Rows of a synced space copied at once on the window's thread (some 15 ms, each card
read and written); more are copied from its local copy off that thread (`stored_rows`)."""


def stored_rows(view: QTableView, *, with_header: bool = False) -> StoredRows | None:
    """The selected rows of a synced space, to be copied from its local copy off the
    window's thread; None when they are `IMMEDIATE_ROWS` or fewer, or not a space's."""
    texts = _CellTexts(view.model())
    space = texts.cards
    if not isinstance(space, SpaceTableModel) or texts.proxies or space.generation is None:
        return None  # before the selection is gone through: the caller goes through it
    rows, columns, selected = _selected_grid(view)
    if len(rows) <= IMMEDIATE_ROWS:
        return None
    index_of = {column: n for n, column in enumerate(columns)}
    made: dict[frozenset[int], frozenset[int]] = {}

    def indexes(span: frozenset[int]) -> frozenset[int]:
        """`span`'s columns as places in `columns`, made once for rows selected alike."""
        found = made.get(span)
        if found is None:
            found = made[span] = frozenset(index_of[c] for c in span if c in index_of)
        return found

    if selected.every is not None:
        chosen = [indexes(selected.every)] * len(rows)
    else:
        chosen = [indexes(selected[row]) for row in rows]
    shown, every_column = space.positions(), space.columns
    return StoredRows(
        space.path,
        space.generation.id,
        [shown[row] for row in rows],
        [every_column[column] for column in columns],
        chosen,
        [texts.title(rows[0], column) for column in columns] if with_header else None,
    )


def selection_as_tsv(view: QTableView, *, with_header: bool = False) -> str:
    """The selected cells as tab-separated text that pastes into a spreadsheet as a grid.

    With `with_header` the first line holds the column titles (as the CSV export
    writes them). Empty when nothing is selected.
    """
    lines, _rows, _columns = _selection_rows(view, with_header)
    return grid_text(lines)


def row_as_tsv(view: QTableView, row: int, *, with_header: bool = False) -> str:
    """Every visible cell of `row`, in the order the header shows the columns."""
    model = view.model()
    if model is None or not 0 <= row < model.rowCount():
        return ""
    texts = _CellTexts(model)
    columns = _visible_columns(view, range(model.columnCount()))
    lines = [texts.row(row, columns, columns)]
    if with_header:
        lines.insert(0, [texts.title(row, column) for column in columns])
    return grid_text(lines)


def cell_text(view: QTableView, index: ModelIndex) -> str:
    """One cell as clipboard text."""
    if not index.isValid():
        return ""
    return clipboard_cell(_CellTexts(view.model()).text(index))


def first_email(view: QTableView, index: ModelIndex) -> str | None:
    """The first e-mail address of the card in the row of `index`, if it has one.

    None as well when the page was loaded without e-mail addresses.
    """
    if not index.isValid() or view.model() is None:
        return None
    card = _CellTexts(view.model()).card(index)
    if card is None or not card.emails:
        return None
    return next((address for address in card.emails if address.strip()), None)


# The clipboard


def _to_clipboard(text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    clipboard.setText(text)


def _nothing_copied() -> str:
    return QCoreApplication.translate("TableCopy", "Nothing to copy")


def rows_copied(rows: int) -> str:
    """The note "Copied 1,250 rows", in the reader's language and numbers."""
    if rows == 1:
        return QCoreApplication.translate("TableCopy", "Copied 1 row")
    # Not a `%n` plural: the catalogue tools read only `tr()` calls as plurals.
    text = QCoreApplication.translate("TableCopy", "Copied %1 rows")
    return text.replace("%1", QLocale().toString(rows))


def _cell_copied() -> str:
    return QCoreApplication.translate("TableCopy", "Copied 1 cell")


def copy_selection(view: QTableView, *, with_header: bool = False) -> str:
    """Put the selected cells on the clipboard; returns a message for the status bar.

    With nothing selected the clipboard is left alone.
    """
    lines, rows, columns = _selection_rows(view, with_header)
    if rows == 0:
        return _nothing_copied()
    _to_clipboard(grid_text(lines))
    return _cell_copied() if rows == 1 and columns == 1 else rows_copied(rows)


def copy_cell(view: QTableView, index: ModelIndex) -> str:
    """Put one cell on the clipboard; returns a message for the status bar."""
    if not index.isValid():
        return _nothing_copied()
    _to_clipboard(cell_text(view, index))
    return _cell_copied()


def copy_row(view: QTableView, row: int) -> str:
    """Put the visible cells of one row on the clipboard; returns a status message."""
    model = view.model()
    if model is None or not 0 <= row < model.rowCount():
        return _nothing_copied()
    _to_clipboard(row_as_tsv(view, row))
    return rows_copied(1)


def copy_email(view: QTableView, index: ModelIndex) -> str:
    """Put the card's first e-mail address on the clipboard; returns a status message."""
    address = first_email(view, index)
    if address is None:
        return QCoreApplication.translate("TableCopy", "This card has no e-mail address.")
    _to_clipboard(clipboard_cell(address))
    return QCoreApplication.translate("TableCopy", "Copied the e-mail address %1").replace(
        "%1", address
    )


# The context menu


def build_context_menu(
    view: QTableView,
    index: ModelIndex,
    parent: QWidget | None = None,
    *,
    on_copied: OnCopied | None = None,
    copy_selected: Callable[[], None] | None = None,
) -> QMenu:
    """The table's context menu for the cell at `index` (invalid: below the last row).

    Each action copies to the clipboard and passes its status message to `on_copied`;
    Copy Selection calls `copy_selected` instead if given (the view's own copying).
    The actions act on the cell as it was when the menu opened; if the page changes
    meanwhile they copy nothing. The caller shows the menu and deletes it afterwards.
    """
    clicked = QPersistentModelIndex(index)
    menu = QMenu(parent)

    def report(message: str) -> None:
        if on_copied is not None:
            on_copied(message)

    copy_cell_action = menu.addAction(QCoreApplication.translate("TableCopy", "Copy Cell"))
    copy_cell_action.setObjectName(COPY_CELL)
    copy_cell_action.setEnabled(clicked.isValid())
    copy_cell_action.triggered.connect(lambda: report(copy_cell(view, clicked)))

    copy_row_action = menu.addAction(QCoreApplication.translate("TableCopy", "Copy Row"))
    copy_row_action.setObjectName(COPY_ROW)
    copy_row_action.setEnabled(clicked.isValid())
    copy_row_action.triggered.connect(
        lambda: report(copy_row(view, clicked.row()) if clicked.isValid() else _nothing_copied())
    )

    copy_email_action = menu.addAction(QCoreApplication.translate("TableCopy", "Copy E-mail"))
    copy_email_action.setObjectName(COPY_EMAIL)
    copy_email_action.setEnabled(first_email(view, index) is not None)
    copy_email_action.triggered.connect(lambda: report(copy_email(view, clicked)))

    menu.addSeparator()
    copy_selection_action = menu.addAction(
        QCoreApplication.translate("TableCopy", "Copy Selection")
    )
    copy_selection_action.setObjectName(COPY_SELECTION)
    selection_model = view.selectionModel()
    copy_selection_action.setEnabled(selection_model is not None and selection_model.hasSelection())
    if copy_selected is not None:
        copy_selection_action.triggered.connect(copy_selected)
    else:
        copy_selection_action.triggered.connect(lambda: report(copy_selection(view)))
    return menu
