"""Paints the avatar cell: the thumbnail centred at its own size, never rescaled.

A plain item delegate squeezes the decoration into the view's icon size and puts it
at the left edge; a thumbnail made for the screen's pixel ratio then turns blurry.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QSize, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from cardviewer.ui.cards.change_delegate import deepen_changed_selection

MARGIN = 4
"""Logical pixels between the picture and the cell's edges."""


class AvatarDelegate(QStyledItemDelegate):
    """For the avatar column: selection and focus as usual, the picture centred on top."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        deepen_changed_selection(item)  # a picture the last sync changed, selected
        item.features &= ~QStyleOptionViewItem.ViewItemFeature.HasDecoration
        item.icon = QIcon()
        item.text = ""
        style = item.widget.style() if item.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, item.widget)
        pixmap = _pixmap(index)
        if pixmap is None:
            return
        size = pixmap.deviceIndependentSize()
        rect = item.rect
        # Whole logical pixels, so the picture's pixels meet the screen's one to one.
        x = rect.x() + math.floor((rect.width() - size.width()) / 2)
        y = rect.y() + math.floor((rect.height() - size.height()) / 2)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawPixmap(QPointF(x, y), pixmap)
        painter.restore()

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        pixmap = _pixmap(index)
        if pixmap is None:
            return super().sizeHint(option, index)
        size = pixmap.deviceIndependentSize()
        return QSize(math.ceil(size.width()) + 2 * MARGIN, math.ceil(size.height()) + 2 * MARGIN)


def _pixmap(index: QModelIndex | QPersistentModelIndex) -> QPixmap | None:
    value = index.data(Qt.ItemDataRole.DecorationRole)
    return value if isinstance(value, QPixmap) and not value.isNull() else None
