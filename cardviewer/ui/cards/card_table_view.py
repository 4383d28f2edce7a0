"""The card table as the window shows it: rows selected whole, sortable, copyable.

Rows are tall enough for an avatar; columns can be moved, and their header has its own
menu (the window fills it). Copying reports what it did through `copied`; many rows of
a synced space are handed to `copy_stored`, to be copied off the window's thread.

Tab, Shift+Tab and Ctrl+Tab leave the table for the window's next control, as in any
other field; the arrow keys, Home, End and the page keys move within it. A table that
took Tab for its cells would keep a keyboard user in it, cell after cell, for good.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QItemSelectionModel,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from cardviewer.services.clipboard_text import StoredRows
from cardviewer.ui.cards.table_copy import build_context_menu, copy_selection, stored_rows


class CardTableView(QTableView):
    """The table over `model` (a page's filter model, or a whole space's model).

    Rows have room for avatars of `avatar_size` pixels.
    """

    copied = Signal(str)
    """What was copied, as the status bar says it."""

    def __init__(
        self, model: QAbstractItemModel, avatar_size: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.menu: QMenu | None = None
        self.copy_stored: Callable[[StoredRows], None] | None = None
        """Copies many rows of a synced space off the window's thread (the window's
        jobs do); without it every selection is copied at once."""
        self._headers_selection: QItemSelectionModel | None = None
        self.setModel(model)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setTabKeyNavigation(False)  # Tab goes on to the next control
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setCornerButtonEnabled(False)
        rows = self.verticalHeader()
        rows.hide()
        # The text's height as the window sets it, and never less than an avatar needs.
        text_height = (parent or self).fontMetrics().height()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(max(avatar_size + 8, text_height + 12))
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(True)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        header.setSortIndicatorClearable(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setAccessibleName(QCoreApplication.translate("MainWindow", "Cards"))
        header.setSectionsMovable(True)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self.show_menu)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        """Show `model`, with the selection models of the one before deleted.

        Qt makes a selection model for the table and for each header at every new model
        and leaves the old ones to the caller: three objects more each time the window
        switched between the pages and the whole space.
        """
        super().setModel(model)
        kept = (self.selectionModel(), self._headers_selection)
        for owner in (self, self.horizontalHeader(), self.verticalHeader()):
            for child in owner.findChildren(
                QItemSelectionModel, options=Qt.FindChildOption.FindDirectChildrenOnly
            ):
                if not any(child is keep for keep in kept):
                    child.deleteLater()

    def setSelectionModel(self, selectionModel: QItemSelectionModel) -> None:  # noqa: N803
        """Select in `selectionModel`; the headers are given one that stays empty.

        At every paint a header asks its selection model whether the columns it
        paints, and those beside them, are wholly selected, for its style. Qt answers
        by asking the table's model about every row, a call into Python each: with the
        100,000 rows of a whole space selected (Ctrl+A), a header's paint took seconds.
        The headers show no selection here (`setHighlightSections(False)`).
        """
        super().setSelectionModel(selectionModel)
        model = selectionModel.model()
        if self._headers_selection is None:
            self._headers_selection = QItemSelectionModel(model, self)
        else:
            self._headers_selection.setModel(model)
        self.horizontalHeader().setSelectionModel(self._headers_selection)
        self.verticalHeader().setSelectionModel(self._headers_selection)

    def reset(self) -> None:
        """After a model reset (a new sort or filter), lay the rows out at once.

        Qt's view lays them out on a timer after the paint the reset asks for, and then
        paints every row on screen a second time: some 5 to 10 ms of the window's
        thread for each sort, filter or key typed in the filter, for nothing.
        """
        super().reset()
        self.executeDelayedItemsLayout()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+Tab and Ctrl+Shift+Tab leave the table too, as they leave a text area."""
        key, modifiers = event.key(), event.modifiers()
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and (
            modifiers & Qt.KeyboardModifier.ControlModifier
        ):
            backwards = key == Qt.Key.Key_Backtab or bool(
                modifiers & Qt.KeyboardModifier.ShiftModifier
            )
            if self.focusNextPrevChild(not backwards):
                event.accept()
                return
        super().keyPressEvent(event)

    def selected_rows(self) -> list[int]:
        """The rows with a cell selected, in order.

        Read from the selection's ranges: `selectedRows()` makes an index per row, which
        for every card of a whole space (Ctrl+A) holds the window up.
        """
        ranges = self.selectionModel().selection().toList()
        return sorted({row for part in ranges for row in range(part.top(), part.bottom() + 1)})

    def copy_selection(self) -> None:
        """Copy the selected cells as a grid that pastes into a spreadsheet.

        With nothing selected, the current row is selected and copied: the keyboard
        moves the current row without always selecting it.
        """
        current = self.currentIndex()
        if not self.selectionModel().hasSelection() and current.isValid():
            self.selectRow(current.row())
        if self.copy_stored is not None and (rows := stored_rows(self)) is not None:
            self.copy_stored(rows)  # the window tells how it goes
            return
        self.copied.emit(copy_selection(self))

    def show_menu(self, position: QPoint) -> None:
        """The copy menu for the cell at `position` (in the viewport)."""
        menu = build_context_menu(
            self,
            self.indexAt(position),
            self.window(),
            on_copied=self.copied.emit,
            copy_selected=self.copy_selection,
        )
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.menu = menu
        menu.popup(self.viewport().mapToGlobal(position))
