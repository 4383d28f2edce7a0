"""Icons of one colour that follow the palette: the styles' own grey glyphs.

The styles' own icons (the arrows of Open and of the page buttons, where the desktop
has none) are near-black shapes that vanish on a dark palette. Drawn in the palette's
button text colour, they follow it, also when the desktop turns dark or light while
the app runs. Apart from `colour_scheme`, which the start needs before its first
paint: these Qt types (the painter's, the image's, an icon engine's) are set up with
their enums on first use, after it.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication, QIcon, QIconEngine, QImage, QPainter, QPalette, QPixmap


def in_text_colour(icon: QIcon) -> QIcon:
    """`icon`, drawn in the palette's button text colour if it is a grey glyph.

    The styles' own icons (the arrows of Open and of the page buttons, where the desktop
    has none) are near-black shapes that vanish on a dark palette; so drawn, they
    follow it. A coloured icon is left as it is.
    """
    return QIcon(_TextColouredIcon(icon))


GREY = 24
"""How far apart a pixel's red, green and blue may be for the pixel to count as grey."""


def _is_grey(image: QImage) -> bool:
    """Whether every pixel of `image` that shows is a shade of grey."""
    argb = image.convertToFormat(QImage.Format.Format_ARGB32)  # kept while its bits are read
    data = bytes(argb.constBits())
    for n in range(0, len(data), 4):
        blue, green, red, alpha = data[n : n + 4]
        if alpha > 32 and max(red, green, blue) - min(red, green, blue) > GREY:
            return False
    return True


class _TextColouredIcon(QIconEngine):
    """Paints its source's shape in the current palette's button text colour, if grey."""

    def __init__(self, source: QIcon) -> None:
        super().__init__()
        self._source = source
        self._grey: bool | None = None

    def clone(self) -> QIconEngine:
        return _TextColouredIcon(self._source)

    def actualSize(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QSize:
        return self._source.actualSize(size, mode, state)

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        shape = self._source.pixmap(size, scale, QIcon.Mode.Normal, state)
        if shape.isNull():
            return shape
        if self._grey is None:
            self._grey = _is_grey(shape.toImage())
        if not self._grey:
            return self._source.pixmap(size, scale, mode, state)
        disabled = mode == QIcon.Mode.Disabled
        group = QPalette.ColorGroup.Disabled if disabled else QPalette.ColorGroup.Active
        painter = QPainter(shape)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
        painter.fillRect(
            QRect(0, 0, shape.width(), shape.height()),
            QGuiApplication.palette().color(group, QPalette.ColorRole.ButtonText),
        )
        painter.end()
        return shape

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        scale = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, scale))
