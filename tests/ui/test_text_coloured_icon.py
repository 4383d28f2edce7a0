"""Grey glyphs drawn in the palette's button text colour; coloured icons left alone."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication

from cardviewer.ui.colour_scheme import dark_palette
from cardviewer.ui.text_coloured_icon import in_text_colour

ROLE = QPalette.ColorRole


def glyph(colour: QColor) -> QIcon:
    """A 16-pixel icon: a square of `colour` on a clear ground."""
    pixmap = QPixmap(16, 16)
    pixmap.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pixmap)
    painter.fillRect(4, 4, 8, 8, colour)
    painter.end()
    return QIcon(pixmap)


def middle(icon: QIcon, mode: QIcon.Mode = QIcon.Mode.Normal) -> QColor:
    return icon.pixmap(QSize(16, 16), mode).toImage().pixelColor(8, 8)


def test_a_grey_glyph_is_drawn_in_the_button_text_colour_of_the_palette_now(qapp: QApplication):
    icon = in_text_colour(glyph(QColor("#0d0d0d")))
    before = QGuiApplication.palette()
    try:
        QApplication.setPalette(dark_palette())
        assert middle(icon) == dark_palette().color(ROLE.ButtonText)
        disabled = dark_palette().color(QPalette.ColorGroup.Disabled, ROLE.ButtonText)
        assert middle(icon, QIcon.Mode.Disabled) == disabled
    finally:
        QApplication.setPalette(before)
    assert middle(icon) == before.color(ROLE.ButtonText)
    assert icon.pixmap(QSize(16, 16)).toImage().pixelColor(1, 1).alpha() == 0  # still clear


def test_a_coloured_icon_keeps_its_colours(qapp: QApplication):
    blue = QColor("#1d99f3")
    icon = in_text_colour(glyph(blue))
    before = QGuiApplication.palette()
    try:
        QApplication.setPalette(dark_palette())
        assert middle(icon) == blue
    finally:
        QApplication.setPalette(before)
