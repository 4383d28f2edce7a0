"""In the status bar while a phone list is painted, vCards or the cards shown are written
or many rows are copied: how far it has come, and Cancel.

A phone list of a page is done before anyone would read a progress bar, so the note
shows only when the painting is still running after `SHOW_AFTER_MS`. The window stays
usable meanwhile; Cancel stops the painting shown after the card it is on, and one
still running from before is shown again. Its names say what is being made, for a
screen reader too.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QTimer
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QSizePolicy, QWidget

from cardviewer.ui.announcements import announce
from cardviewer.ui.painting import Made, Painting

SHOW_AFTER_MS = 400


def painted_text(count: int, total: int) -> str:
    """The count as "1,250 of 100,000 cards", in the reader's language and numbers."""
    text = QCoreApplication.translate("PaintingNote", "%1 of %2 cards")
    return text.replace("%1", QLocale().toString(count)).replace("%2", QLocale().toString(total))


def note_texts(made: Made) -> tuple[str, str, str, str]:
    """The bar's name, Cancel's tooltip and name, and what is said at Cancel, for `made`."""
    if made is Made.VCARDS:
        return (
            QCoreApplication.translate("PaintingNote", "vCards"),
            QCoreApplication.translate("PaintingNote", "Stop saving the vCards"),
            QCoreApplication.translate("PaintingNote", "Cancel the vCards"),
            QCoreApplication.translate("PaintingNote", "Cancelling the vCards…"),
        )
    if made is Made.PRINT:
        return (
            QCoreApplication.translate("PaintingNote", "Printing"),
            QCoreApplication.translate("PaintingNote", "Stop printing the phone list"),
            QCoreApplication.translate("PaintingNote", "Cancel printing"),
            QCoreApplication.translate("PaintingNote", "Cancelling printing…"),
        )
    if made is Made.EXPORT:
        return (
            QCoreApplication.translate("PaintingNote", "Export"),
            QCoreApplication.translate("PaintingNote", "Stop saving the cards"),
            QCoreApplication.translate("PaintingNote", "Cancel the export"),
            QCoreApplication.translate("PaintingNote", "Cancelling the export…"),
        )
    if made is Made.COPY:
        return (
            QCoreApplication.translate("PaintingNote", "Copying"),
            QCoreApplication.translate("PaintingNote", "Stop copying the rows"),
            QCoreApplication.translate("PaintingNote", "Cancel copying"),
            QCoreApplication.translate("PaintingNote", "Cancelling the copy…"),
        )
    return (
        QCoreApplication.translate("PaintingNote", "Phone list"),
        QCoreApplication.translate("PaintingNote", "Stop making the phone list"),
        QCoreApplication.translate("PaintingNote", "Cancel the phone list"),
        QCoreApplication.translate("PaintingNote", "Cancelling the phone list…"),
    )


class PaintingNote(QWidget):
    """A progress bar of the cards painted and a Cancel button; hidden between paintings."""

    def __init__(self, painting: Painting, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._painting = painting
        self.bar = QProgressBar(self)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.clicked.connect(self._cancel)
        self._cancelling = ""
        self._name(Made.PHONE_LIST)
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
        self._total = -1
        painting.advanced.connect(self._advance)
        painting.resumed.connect(self._resume)
        painting.ended.connect(self._end)
        self.hide()

    def _name(self, made: Made) -> None:
        name, stop, cancel, self._cancelling = note_texts(made)
        self.bar.setAccessibleName(name)
        self.cancel_button.setToolTip(stop)
        self.cancel_button.setAccessibleName(cancel)

    def _advance(self, count: int, total: int) -> None:
        if count == 0:  # named for what it makes
            self._name(self._painting.made)
        if total != self._total:  # as wide as its longest text
            self._total = total
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

    def _resume(self) -> None:
        """The painting shown ended; the one before it is shown again, with its Cancel."""
        self._name(self._painting.made)
        self.cancel_button.setEnabled(True)

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)  # said once; the card being painted finishes
        self._painting.cancel()
        announce(self, self._cancelling)

    def _end(self) -> None:
        self._show_later.stop()
        self.hide()
