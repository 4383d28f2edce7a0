"""A changed cell stays marked in a selected row.

The view of changed cards tints the cells that changed (`change_marks.change_tint`),
but a selected row is painted in the selection's colour from edge to edge, tint and
all: the cells that changed could no longer be told apart from the others in the very
row the person was looking at. While the table marks changes, their cells in a selected
row take a deeper shade of the selection's colour, its text kept.

The delegate is the table's only while the model marks changes: a delegate written in
Python costs every cell's paint some microseconds, a sixth more for a screenful.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

DEEPER = 140
"""How much darker (`QColor.darker`) the selection's colour is under a changed cell:
white text stays readable on it, in the light scheme and in the dark."""

_SELECTED = QStyle.StateFlag.State_Selected
_NO_BRUSH = Qt.BrushStyle.NoBrush


@runtime_checkable
class ChangeMarking(Protocol):
    """A model that may mark the cells the last sync changed (the whole space's)."""

    @property
    def marks_changes(self) -> bool: ...


class ChangedCellDelegate(QStyledItemDelegate):
    """Paints a changed cell of a selected row in a deeper selection colour."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        deepen_changed_selection(option)


def deepen_changed_selection(option: QStyleOptionViewItem) -> None:
    """A changed cell of a selected row takes `deeper_selection` (also the avatar's,
    which its own delegate paints)."""
    # The model gives a background to the changed cells alone (`change_tint`).
    if option.state & _SELECTED and option.backgroundBrush.style() != _NO_BRUSH:
        option.palette = deeper_selection(option.palette)


def deeper_selection(palette: QPalette) -> QPalette:
    """`palette` with the selection's colour deeper, window active or not."""
    deeper = QPalette(palette)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        colour = palette.color(group, QPalette.ColorRole.Highlight).darker(DEEPER)
        deeper.setColor(group, QPalette.ColorRole.Highlight, colour)
    return deeper


class ChangeMarksOnSelection:
    """Gives `table` a `ChangedCellDelegate` while the model it shows marks changes."""

    def __init__(self, table: QTableView) -> None:
        self._table = table
        self._plain: QAbstractItemDelegate = table.itemDelegate()
        self.delegate = ChangedCellDelegate(table)
        self._model: QAbstractItemModel | None = None
        self._marking: ChangeMarking | None = None
        """The same model, as the one that may mark changes."""

    def follow(self, model: object) -> None:
        """Follow `model`, the table's from now on; one that marks no changes (the
        pages') leaves the table its plain delegate."""
        if self._model is not None:
            self._model.modelReset.disconnect(self._choose)
        self._model = self._marking = None
        if isinstance(model, QAbstractItemModel) and isinstance(model, ChangeMarking):
            self._model, self._marking = model, model
            # Marks begin or end with a new query's answer, which resets the model.
            model.modelReset.connect(self._choose)
        self._choose()

    def _choose(self) -> None:
        marking = self._marking is not None and self._marking.marks_changes
        wanted = self.delegate if marking else self._plain
        if self._table.itemDelegate() is not wanted:
            self._table.setItemDelegate(wanted)
