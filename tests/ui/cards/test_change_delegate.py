"""A changed cell stays marked in a selected row, and only the view of changes pays for it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QColor, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from cardviewer.ui.cards.avatar_delegate import AvatarDelegate
from cardviewer.ui.cards.change_delegate import (
    ChangedCellDelegate,
    ChangeMarksOnSelection,
    deeper_selection,
)
from cardviewer.ui.cards.change_marks import change_tint
from cardviewer.ui.colour_scheme import TEXT_CONTRAST, contrast, dark_palette


class MarkingModel(QStandardItemModel):
    """Two rows of three cells; the middle one of each changed, while marking."""

    def __init__(self) -> None:
        super().__init__(2, 3)
        self.marks_changes = True
        for row in range(2):
            for column in range(3):
                self.setItem(row, column, QStandardItem(""))
            self.item(row, 1).setBackground(change_tint(QApplication.palette()))

    def mark(self, marks: bool) -> None:
        self.beginResetModel()
        self.marks_changes = marks
        self.endResetModel()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_deeper_selection_stands_apart_and_its_text_reads(qapp, scheme):
    palette = QApplication.palette() if scheme == "light" else dark_palette()
    deeper = deeper_selection(palette)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        highlight = palette.color(group, QPalette.ColorRole.Highlight)
        shade = deeper.color(group, QPalette.ColorRole.Highlight)
        assert contrast(shade, highlight) >= 1.3, "told apart from the rest of the row"
        text = palette.color(group, QPalette.ColorRole.HighlightedText)
        assert contrast(shade, text) >= max(TEXT_CONTRAST, contrast(highlight, text))
        assert shade != change_tint(palette)


def colour_at(table: QTableView, row: int, column: int) -> QColor:
    """The colour painted at the lower right corner of a cell, away from any text."""
    rect = table.visualRect(table.model().index(row, column))
    image = table.viewport().grab().toImage()
    ratio = image.devicePixelRatio()
    return image.pixelColor(int((rect.right() - 3) * ratio), int((rect.bottom() - 3) * ratio))


def test_a_changed_cell_of_a_selected_row_is_painted_apart_only_while_marked(qtbot):
    table = QTableView()
    qtbot.addWidget(table)
    plain = table.itemDelegate()
    marks = ChangeMarksOnSelection(table)
    model = MarkingModel()
    table.setModel(model)
    marks.follow(model)
    table.resize(400, 200)
    table.show()
    qtbot.waitExposed(table)
    flags = QItemSelectionModel.SelectionFlag
    table.selectionModel().select(model.index(0, 0), flags.Select | flags.Rows)

    assert isinstance(table.itemDelegate(), ChangedCellDelegate)
    assert colour_at(table, 0, 1) != colour_at(table, 0, 2), "the changed cell, selected"
    assert colour_at(table, 1, 1) != colour_at(table, 1, 2), "the tint, not selected"

    model.mark(False)  # a query of the whole space after the changes: the same model
    table.selectionModel().select(model.index(0, 0), flags.Select | flags.Rows)
    assert table.itemDelegate() is plain
    assert colour_at(table, 0, 1) == colour_at(table, 0, 2), "the selection, edge to edge"
    model.mark(True)
    assert isinstance(table.itemDelegate(), ChangedCellDelegate)

    marks.follow(QStandardItemModel(1, 1))  # the pages' model marks nothing
    assert table.itemDelegate() is plain
    model.mark(False)
    model.mark(True)
    assert table.itemDelegate() is plain, "the model before is no longer followed"


def test_a_changed_picture_of_a_selected_row_is_painted_apart_too(qtbot):
    """The avatar column has a delegate of its own, which painted the selection over it."""
    table = QTableView()
    qtbot.addWidget(table)
    model = MarkingModel()
    table.setModel(model)
    ChangeMarksOnSelection(table).follow(model)
    table.setItemDelegateForColumn(1, AvatarDelegate(table))  # the changed column
    table.resize(400, 200)
    table.show()
    qtbot.waitExposed(table)
    flags = QItemSelectionModel.SelectionFlag
    table.selectionModel().select(model.index(0, 0), flags.Select | flags.Rows)
    assert colour_at(table, 0, 1) != colour_at(table, 0, 2)
