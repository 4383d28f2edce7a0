"""Sorting the card table and choosing its columns from the keyboard.

The table sorts by a click on a column's heading, and the heading's menu shows or hides
columns on a right click; the header never takes the keyboard's focus, so a person
without a mouse could do neither. The View menu's *Sort by Column* sorts by the column
of the current cell, as a click on its heading does (A to Z, Z to A, then the space's
own order), and says so in the status bar; *Columns…* opens the heading's menu.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtWidgets import QStatusBar, QTableView, QWidget

from cardviewer.ui.cards.column_layout import TableColumns
from cardviewer.ui.export_commands import NOTE_MS


def sort_by_current_column(table: QTableView, status_bar: QStatusBar) -> None:
    """Sort `table` by its current cell's column (without one, its first column shown
    that has a heading): ascending, descending, then in the space's order, as clicks on
    the heading go; `status_bar` says which (a screen reader reads it out)."""
    said = _sorted(table)
    if said:
        status_bar.showMessage(said, NOTE_MS)


def _sorted(table: QTableView) -> str:
    header, model = table.horizontalHeader(), table.model()
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(header.count())]
    column = table.currentIndex().column()
    if column < 0 or header.isSectionHidden(column) or not titles[column]:
        shown = (header.logicalIndex(place) for place in range(header.count()))
        column = next((c for c in shown if titles[c] and not header.isSectionHidden(c)), -1)
    if column < 0:
        return ""
    ascending, descending = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder
    if header.sortIndicatorSection() != column:
        header.setSortIndicator(column, ascending)
    elif header.sortIndicatorOrder() == ascending:
        header.setSortIndicator(column, descending)
    else:
        header.setSortIndicator(-1, ascending)
        return QCoreApplication.translate("MainWindow", "Sorted in the space's own order.")
    if header.sortIndicatorOrder() == ascending:
        said = QCoreApplication.translate("MainWindow", "Sorted by %1, ascending.")
    else:
        said = QCoreApplication.translate("MainWindow", "Sorted by %1, descending.")
    return said.replace("%1", str(titles[column]))


def open_columns_menu(columns: TableColumns, parent: QWidget) -> None:
    """The heading's menu of columns, at the table's top left, its first entry chosen so
    that the arrow keys and Space work at once."""
    menu = columns.open_menu = columns.header_menu(parent)
    table = columns.table
    menu.popup(table.mapToGlobal(QPoint(0, table.horizontalHeader().height())))
    entries = menu.actions()
    if entries:
        menu.setActiveAction(entries[0])
