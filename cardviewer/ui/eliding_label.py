"""A one-line label that can give up width: cut at its end with "…" when narrower than
its text, as the status bar's account gives way to a message that needs the room."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QWidget

from cardviewer.ui.plain_text import plain_tooltip

LEAST_LETTERS = 6
"""The letters it keeps however little room there is (then "…")."""


class ElidingLabel(QLabel):
    """Plain text on one line; given less than its whole text's width, it shows as much
    as fits and "…" (`is_cut`), its whole text in its tooltip, told to screen readers
    and in `whole_text`. It asks for its whole text's width, and at least
    `LEAST_LETTERS`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._whole = ""
        self._detail = ""

    def whole_text(self) -> str:
        return self._whole

    def set_whole_text(self, text: str, detail: str = "") -> None:
        """Show `text`, cut to the width the label has; `detail` is its tooltip, after
        the whole text when it is cut."""
        self._whole, self._detail = text, detail
        self.setAccessibleName(text)
        self.setAccessibleDescription(detail)  # the tooltip is markup: read as text
        self.updateGeometry()
        self._fit(told=True)

    def is_cut(self) -> bool:
        return self.text() != self._whole

    def sizeHint(self) -> QSize:
        return QSize(self._width_of(self._whole), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        least = self._whole
        if len(least) > LEAST_LETTERS:
            least = least[:LEAST_LETTERS] + "\N{HORIZONTAL ELLIPSIS}"
        return QSize(self._width_of(least), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()

    def _width_of(self, text: str) -> int:
        margins = self.contentsMargins()
        extra = margins.left() + margins.right() + 2 * self.margin()
        return self.fontMetrics().horizontalAdvance(text) + extra + 1

    def _fit(self, *, told: bool = False) -> None:
        """The text cut to the width given (whole until the label is shown), and its
        tooltip; `told`: the texts are new."""
        shown = self._whole
        if self.isVisible():
            width = self.contentsRect().width() - 2 * self.margin()
            shown = self.fontMetrics().elidedText(self._whole, Qt.TextElideMode.ElideRight, width)
        if shown == self.text() and not told:
            return
        self.setText(shown)
        lines = [self._whole] if shown != self._whole else []
        self.setToolTip(plain_tooltip("\n".join([*lines, self._detail]).strip("\n")))
