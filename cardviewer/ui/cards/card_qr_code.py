"""The details pane's QR code: the card's contact for a phone's camera, to copy or save.

The code is painted module by module in whole device pixels, so it stays sharp at any
scale and a camera reads it from the screen. Copy puts it on the clipboard as an image
(for a document or an e-mail); Save writes a PNG or an SVG file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import segno
from PySide6.QtCore import QCoreApplication, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QImage, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from cardviewer.api.models import Card
from cardviewer.services.card_qr import BORDER, PNG_SUFFIX, card_qr, dark_modules, write_qr
from cardviewer.services.csv_export import safe_file_stem
from cardviewer.services.phone_list import qr_image
from cardviewer.ui.error_text import write_failure_text

MODULE_PIXELS = 3
"""Logical pixels per module on screen: a code of 65 modules is 219 pixels wide."""
LEAST_MODULE_PIXELS = 2
"""Pixels per module in a narrow pane, still read by a phone held close to the screen."""
COPY_SCALE = 8
"""Pixels per module of the image put on the clipboard."""

AskPath = Callable[[Path], Path | None]
"""Asks where to save, starting from a suggested file; None: the person cancelled."""


class QrCodePicture(QWidget):
    """The code itself, a whole number of device pixels a module, centred in its room.

    `MODULE_PIXELS` a module where the pane has room; down to `LEAST_MODULE_PIXELS` in a
    narrow pane, rather than pushing the pane wider than the window.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._modules: list[list[bool]] = []
        self._image: QImage | None = None
        """The code as last painted, kept for the next paint at the same scale."""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_modules(self, modules: list[list[bool]]) -> None:
        self._modules = modules
        self._image = None
        self.setMaximumSize(self.sizeHint())
        self.updateGeometry()
        self.update()

    def _side(self, module_pixels: int) -> int:
        return (len(self._modules) + 2 * BORDER) * module_pixels if self._modules else 0

    def sizeHint(self) -> QSize:
        return QSize(self._side(MODULE_PIXELS), self._side(MODULE_PIXELS))

    def minimumSizeHint(self) -> QSize:
        return QSize(self._side(LEAST_MODULE_PIXELS), self._side(LEAST_MODULE_PIXELS))

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._modules:
            return
        ratio = self.devicePixelRatioF()
        modules = len(self._modules) + 2 * BORDER
        # Whole device pixels a module: a fraction would blur the edges a camera needs.
        room = min(self.width(), self.height()) * ratio
        scale = max(1, int(room // modules))
        image = self._image
        if image is None or image.width() != modules * scale or image.devicePixelRatio() != ratio:
            image = self._image = qr_image(self._modules, scale)
            image.setDevicePixelRatio(ratio)
        side = image.width() / ratio
        painter = QPainter(self)
        painter.drawImage(QPointF((self.width() - side) / 2, (self.height() - side) / 2), image)
        painter.end()


class CardQrCode(QWidget):
    """A card's QR code with Copy and Save buttons; hidden while there is no card."""

    copied = Signal(str)
    """A note for the status bar: what was copied or saved."""
    failed = Signal(str, str)
    """A file could not be saved: the message, and the detail for the log's reader."""

    def __init__(self, ask_path: AskPath, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ask_path = ask_path
        self._qr: segno.QRCode | None = None
        self._modules: list[list[bool]] = []
        self._card: Card | None = None
        self.picture = QrCodePicture(self)
        self.too_long_label = QLabel(
            self.tr("This card's contact is too long for a QR code."), self
        )
        self.too_long_label.setWordWrap(True)
        self.too_long_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.copy_button = QPushButton(self.tr("Copy QR Code"), self)
        self.copy_button.setToolTip(self.tr("The code as a picture, for a document or an e-mail"))
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton(self.tr("Save QR Code…"), self)
        self.save_button.setToolTip(self.tr("As a PNG picture, or as SVG to print at any size"))
        self.save_button.clicked.connect(self.save)
        buttons = QHBoxLayout()  # two short texts: side by side, as wide as the code
        buttons.setSpacing(6)
        for button in (self.copy_button, self.save_button):
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.too_long_label)
        layout.addLayout(buttons)
        self.set_card(None)

    @property
    def modules(self) -> list[list[bool]]:
        """The code shown, row by row without its border (empty without a card)."""
        return self._modules

    def set_card(self, card: Card | None) -> None:
        """Show the code of `card`'s contact; nothing for None."""
        self._card = card
        self._qr = card_qr(card) if card is not None else None
        self._modules = dark_modules(self._qr) if self._qr is not None else []
        self.picture.set_modules(self._modules)
        too_long = card is not None and self._qr is None
        self.picture.setVisible(not too_long)
        self.too_long_label.setVisible(too_long)
        self.copy_button.setEnabled(self._qr is not None)
        self.save_button.setEnabled(self._qr is not None)
        who = (card.display_name or "") if card is not None else ""
        name = QCoreApplication.translate("CardQrCode", "QR code of the contact %1")
        self.picture.setAccessibleName(name.replace("%1", who).strip())
        self.picture.setToolTip(
            self.tr("A phone's camera reads this code and offers to save the contact.")
        )
        self.setVisible(card is not None)

    def copy(self) -> None:
        """Put the code on the clipboard as an image."""
        if self._qr is None:
            return
        QGuiApplication.clipboard().setImage(qr_image(self.modules, COPY_SCALE))
        self.copied.emit(self.tr("Copied the QR code."))

    def save(self) -> None:
        """Ask where, then save the code as PNG or SVG (by the name chosen)."""
        if self._qr is None or self._card is None:
            return
        stem = safe_file_stem(self._card.display_name or self._card.uuid or "card")
        path = self._ask_path(Path(f"{stem}-qr{PNG_SUFFIX}"))
        if path is None:
            return
        try:
            write_qr(path, self._qr)
        except OSError as error:
            message = self.tr("The QR code could not be saved as %1. %2")
            message = message.replace("%1", str(path)).replace("%2", write_failure_text(error))
            self.failed.emit(message, repr(error))
            return
        self.copied.emit(self.tr("Saved the QR code to %1").replace("%1", str(path)))
