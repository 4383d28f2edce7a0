"""The avatar delegate paints the thumbnail centred, at its logical size, unscaled."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QStyleOptionViewItem

from cardviewer.ui.cards.avatar_delegate import MARGIN, AvatarDelegate

RED = QColor("red")
WHITE = QColor("white")


def thumbnail(logical: int, ratio: float) -> QPixmap:
    image = QImage(round(logical * ratio), round(logical * ratio), QImage.Format.Format_RGB32)
    image.fill(RED)
    pixmap = QPixmap.fromImage(image)
    pixmap.setDevicePixelRatio(ratio)
    return pixmap


def model_with(decoration: object) -> QStandardItemModel:
    model = QStandardItemModel(1, 1)
    item = QStandardItem()
    item.setData(decoration, Qt.ItemDataRole.DecorationRole)
    model.setItem(0, 0, item)
    return model


def paint(delegate: AvatarDelegate, model: QStandardItemModel, size: QSize) -> QImage:
    canvas = QImage(size, QImage.Format.Format_RGB32)
    canvas.fill(WHITE)
    option = QStyleOptionViewItem()
    option.rect = QRect(0, 0, size.width(), size.height())
    painter = QPainter(canvas)
    delegate.paint(painter, option, model.index(0, 0))
    painter.end()
    return canvas


def red_columns(canvas: QImage, y: int) -> list[int]:
    return [x for x in range(canvas.width()) if canvas.pixelColor(x, y) == RED]


def test_thumbnail_is_centred_at_its_logical_size(qapp):
    model = model_with(thumbnail(32, 2.0))  # 64 x 64 pixels for a 32 x 32 place
    canvas = paint(AvatarDelegate(), model, QSize(100, 50))
    row = red_columns(canvas, 25)
    assert row == list(range(34, 66))  # 32 wide, (100 - 32) / 2 from the left
    assert canvas.pixelColor(50, 8) == WHITE
    assert canvas.pixelColor(50, 9) == RED
    assert canvas.pixelColor(50, 40) == RED
    assert canvas.pixelColor(50, 41) == WHITE


def test_size_hint_fits_the_thumbnail(qapp):
    model = model_with(thumbnail(32, 2.0))
    hint = AvatarDelegate().sizeHint(QStyleOptionViewItem(), model.index(0, 0))
    assert hint == QSize(32 + 2 * MARGIN, 32 + 2 * MARGIN)


def test_cell_without_a_picture_paints_only_the_background(qapp):
    canvas = paint(AvatarDelegate(), model_with(None), QSize(40, 40))
    assert all(red_columns(canvas, y) == [] for y in range(40))
