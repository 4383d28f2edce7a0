"""The details pane's QR code: the card's contact for a phone's camera, to copy or save.

The code is painted module by module in whole device pixels, so it stays sharp at any
scale and a camera reads it from the screen. Copy puts it on the clipboard as an image
(for a document or an e-mail); Save writes a PNG or an SVG file.

Making a code takes about 15 ms (the QR standard has every mask tried and scored), so it
is made on a thread of its own, once the selection has rested on a card for a moment
(`SETTLE_MS`): an arrow key held down moves through the table without a code made for
each card passed over, whose making held Python's lock (the GIL) for most of each key's
time. A code asked for while a newer card is already chosen is not made.
"""

from __future__ import annotations

import logging
import math
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import segno
import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QPointF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from cardviewer.api.models import Card
from cardviewer.services.card_qr import BORDER, PNG_SUFFIX, card_qr, dark_modules, write_qr
from cardviewer.services.csv_export import safe_file_stem
from cardviewer.services.phone_list import qr_image
from cardviewer.ui.error_text import write_failure_text
from cardviewer.ui.wrapping_row import WrappingRow

MODULE_PIXELS = 3
"""Logical pixels per module on screen: a code of 65 modules is 219 pixels wide."""
LEAST_MODULE_PIXELS = 2
"""Pixels per module in a narrow pane, still read by a phone held close to the screen."""
COPY_SCALE = 8
"""Pixels per module of the image put on the clipboard."""
SETTLE_MS = 120
"""How long a card stays chosen before its code is made: longer than the time between
two repeats of a held key (30 to 40 ms), short enough to seem at once."""

log = logging.getLogger(__name__)

_MAKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="QR codes")
"""One thread for every pane's codes: one code is made at a time, in the order asked."""


class _Delivery(QObject):
    """Brings a made code back to the window's thread, to a pane that may be gone.

    It lives as long as the app: a pane closed while its code was being made is simply
    not answered, where a signal of the pane itself would be sent from a deleted object.
    """

    made = Signal(object, int, object, bool)

    def __init__(self) -> None:
        super().__init__()
        self.made.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @staticmethod
    def _deliver(
        pane: weakref.ref[CardQrCode], number: int, qr: segno.QRCode | None, failed: bool
    ) -> None:
        shown = pane()
        if shown is not None and shiboken6.isValid(shown):
            shown.show_made(number, qr, failed)


_delivery: _Delivery | None = None


def _delivery_here() -> _Delivery:
    """The one delivery, made on first use on the window's thread, where it delivers."""
    global _delivery
    if _delivery is None:
        _delivery = _Delivery()
    return _delivery


def _make(
    asked: list[int],
    number: int,
    card: Card,
    delivery: _Delivery,
    pane: weakref.ref[CardQrCode],
) -> None:
    """On the making thread: the code of `card`, unless a newer card was set since."""
    if number != asked[0]:
        return
    failed = False
    try:
        qr = card_qr(card)
    except Exception:  # a fault in making one code must not stop the next
        log.exception("the QR code of card %s could not be made", card.uuid)
        qr, failed = None, True
    delivery.made.emit(pane, number, qr, failed)


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
        self._waiting = False
        self._image: QImage | None = None
        """The code as last painted, kept for the next paint at the same scale."""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_modules(self, modules: list[list[bool]]) -> None:
        self._modules = modules
        self._waiting = False
        self._image = None
        self.setMaximumSize(self.sizeHint())
        self.updateGeometry()
        self.update()

    def wait(self) -> None:
        """Show nothing until the next code, keeping the room of the last one.

        An old card's code is never shown beside a new card's name: a phone would save
        the wrong contact. The room stays, so the pane does not jump meanwhile.
        """
        self._waiting = True
        self.update()

    def _side(self, module_pixels: int) -> int:
        return (len(self._modules) + 2 * BORDER) * module_pixels if self._modules else 0

    def sizeHint(self) -> QSize:
        return QSize(self._side(MODULE_PIXELS), self._side(MODULE_PIXELS))

    def minimumSizeHint(self) -> QSize:
        return QSize(self._side(LEAST_MODULE_PIXELS), self._side(LEAST_MODULE_PIXELS))

    def hasHeightForWidth(self) -> bool:
        return bool(self._modules)

    def heightForWidth(self, width: int) -> int:
        """As tall as the code painted at that width: a narrow pane drawing it smaller
        gets no empty band above and below it."""
        ratio = self.devicePixelRatioF()
        modules = len(self._modules) + 2 * BORDER
        width = min(width, self.maximumWidth())  # a layout offers its own width
        scale = max(1, int(width * ratio // modules))
        return min(math.ceil(modules * scale / ratio), self._side(MODULE_PIXELS))

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._modules or self._waiting:
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
    codeShown = Signal()
    """The code of the card set last is shown, or said to be too long for one."""
    saved = Signal(Path)
    """The code was saved in this file: its folder is where the next save is offered."""

    def __init__(self, ask_path: AskPath, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ask_path = ask_path
        self._qr: segno.QRCode | None = None
        self._modules: list[list[bool]] = []
        self._card: Card | None = None
        self._asked = [0]
        """How many cards were set: the number of the one whose code is wanted. Read by
        the making thread, which skips the codes no longer wanted."""
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._make_code)
        self.picture = QrCodePicture(self)
        self.no_code_label = QLabel(self.tr("This card's contact is too long for a QR code."), self)
        self.no_code_label.setWordWrap(True)
        self.no_code_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.copy_button = QPushButton(self.tr("Copy QR Code"), self)
        self.copy_button.setToolTip(self.tr("The code as a picture, for a document or an e-mail"))
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton(self.tr("Save QR Code…"), self)
        self.save_button.setToolTip(self.tr("As a PNG picture, or as SVG to print at any size"))
        self.save_button.clicked.connect(self.save)
        # Side by side where the pane has room, one above the other where it has not:
        # in German the two are wider than a narrow pane.
        buttons = WrappingRow(spacing=6)
        for button in (self.copy_button, self.save_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.no_code_label)
        layout.addLayout(buttons)
        self.set_card(None)

    @property
    def modules(self) -> list[list[bool]]:
        """The code shown, row by row without its border (empty without a card)."""
        return self._modules

    def set_card(self, card: Card | None) -> None:
        """Show the code of `card`'s contact once it is made; nothing for None.

        `codeShown` says when it is. Copy and Save wait for it.
        """
        self._asked[0] += 1
        self._card = card
        self._qr = None
        self._modules = []
        self.copy_button.setEnabled(False)
        self.save_button.setEnabled(False)
        who = (card.display_name or "") if card is not None else ""
        name = QCoreApplication.translate("CardQrCode", "QR code of the contact %1")
        self.picture.setAccessibleName(name.replace("%1", who).strip())
        self.picture.setToolTip(
            self.tr("A phone's camera reads this code and offers to save the contact.")
        )
        if card is None:
            self._settle.stop()
            self.picture.set_modules([])
            self.setVisible(False)
            return
        # Nothing said of a card before until this one's code is made: "too long for a
        # code" stayed beside each card a held key passed over.
        self.no_code_label.setVisible(False)
        self.picture.setVisible(True)
        self.picture.wait()
        self.setVisible(True)
        self._settle.start()  # again from the start, while the choice moves on

    def _make_code(self) -> None:
        if self._card is not None:
            pane = weakref.ref(self)
            _MAKER.submit(_make, self._asked, self._asked[0], self._card, _delivery_here(), pane)

    def show_made(self, number: int, qr: segno.QRCode | None, failed: bool) -> None:
        """Show the code made for the `number`th card set, if that is still the card."""
        if number != self._asked[0]:
            return  # a newer card was set meanwhile: its code comes next
        self._qr = qr
        self._modules = dark_modules(qr) if qr is not None else []
        self.picture.set_modules(self._modules)
        self.picture.setVisible(qr is not None)
        self.no_code_label.setText(
            self.tr("No QR code could be made for this card.")
            if failed
            else self.tr("This card's contact is too long for a QR code.")
        )
        self.no_code_label.setVisible(qr is None)
        self.copy_button.setEnabled(qr is not None)
        self.save_button.setEnabled(qr is not None)
        layout = self.layout()
        if layout is not None:
            layout.activate()  # the code at its size now, not at the next turn of the loop
        self.codeShown.emit()

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
        self.saved.emit(path)
        self.copied.emit(self.tr("Saved the QR code to %1").replace("%1", str(path)))
