"""In the status bar while a phone list is painted: how far it has come, and Cancel.

A phone list of a page is done before anyone would read a progress bar, so the note
shows only when the painting is still running after `SHOW_AFTER_MS`. The window stays
usable meanwhile; Cancel stops the painting after the card it is on.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QTimer
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QSizePolicy, QWidget

from cardviewer.ui.announcements import announce
from cardviewer.ui.painting import Painting

SHOW_AFTER_MS = 400


def painted_text(count: int, total: int) -> str:
    """The count as "1,250 of 100,000 cards", in the reader's language and numbers."""
    text = QCoreApplication.translate("PaintingNote", "%1 of %2 cards")
    return text.replace("%1", QLocale().toString(count)).replace("%2", QLocale().toString(total))


class PaintingNote(QWidget):
    """A progress bar of the cards painted and a Cancel button; hidden between paintings."""

    def __init__(self, painting: Painting, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._painting = painting
        self.bar = QProgressBar(self)
        self.bar.setAccessibleName(self.tr("Phone list"))
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setToolTip(self.tr("Stop making the phone list"))
        self.cancel_button.setAccessibleName(self.tr("Cancel the phone list"))
        self.cancel_button.clicked.connect(self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        # As wide as the bar and the button: the status bar's room stays its messages'.
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self._show_later = QTimer(self)
        self._show_later.setSingleShot(True)
        self._show_later.setInterval(SHOW_AFTER_MS)
        self._show_later.timeout.connect(self._show)
        painting.advanced.connect(self._advance)
        painting.ended.connect(self._end)
        self.hide()

    def _advance(self, count: int, total: int) -> None:
        if count == 0:  # as wide as its longest text, the rest of the bar for messages
            widest = self.bar.fontMetrics().horizontalAdvance(painted_text(total, total))
            self.bar.setFixedWidth(widest + 4 * self.bar.fontMetrics().averageCharWidth())
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(min(count, total))
        self.bar.setFormat(painted_text(count, total))
        if count == 0 and not self.isVisible():
            self._show_later.start()

    def _show(self) -> None:
        if self._painting.running:
            self.cancel_button.setEnabled(True)
            self.show()

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)  # said once; the card being painted finishes
        self._painting.cancel()
        announce(self, self.tr("Cancelling the phone list…"))

    def _end(self) -> None:
        self._show_later.stop()
        self.hide()
