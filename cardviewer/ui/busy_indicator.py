"""The status bar's sign that a page is loading, the note saying which one, and Stop."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QProgressBar, QStatusBar, QToolButton

from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.page_messages import loading_title

INDICATOR_SIZE = QSize(100, 12)


class BusyIndicator(QProgressBar):
    """A small bar without an end, shown in `status` only while `pages` loads one.

    `stop_button` (the `stop` command) is shown with it; the window puts both in the bar.
    """

    def __init__(self, status: QStatusBar, pages: CardPages, stop: QAction) -> None:
        super().__init__(status)
        self._status, self._pages = status, pages
        self.setRange(0, 0)
        self.setTextVisible(False)
        self.setFixedSize(INDICATOR_SIZE)
        self.hide()
        self.stop_button = QToolButton(status)
        self.stop_button.setDefaultAction(stop)
        self.stop_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.stop_button.setAutoRaise(True)
        self.stop_button.hide()
        pages.loadingChanged.connect(self._show_loading)

    def _show_loading(self, loading: bool) -> None:
        """Show or hide the bar; while loading, say which page of which space comes."""
        self.setVisible(loading)
        self.stop_button.setVisible(loading)
        pending = self._pages.pending_request
        if loading and pending is not None:
            self._status.showMessage(loading_title(pending))
        elif not loading:
            self._status.clearMessage()
