"""One state while a page loads: which page is on its way, and a way to stop waiting.

Without it the centre said "No space open" while the status bar said "Loading page 1…",
and the page box showed the page asked for while its summary described the page shown.
While a page is on its way the page bar names it; with no page to show meanwhile, the
centre does too, with Stop Loading. When it arrives, fails or is called off, both go
back to the page shown (or to the hint, when there is none).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QStatusBar

from cardviewer.ui.card_area import CardStack
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.page_bar import PageBar
from cardviewer.ui.page_messages import PageMessages

STOPPED_NOTE_MS = 5000


class SpaceChoice(Protocol):
    """Whether the table shows the whole space from its copy, and whether one is offered."""

    @property
    def shows_whole_space(self) -> bool: ...

    @property
    def offers_copy(self) -> bool: ...


class LoadingState(QObject):
    """Keeps the page bar and the centre saying the same thing about the page loading."""

    def __init__(
        self,
        pages: CardPages,
        stack: CardStack,
        page_bar: PageBar,
        status: QStatusBar,
        messages: PageMessages,
    ) -> None:
        super().__init__(status)
        self._pages, self._stack, self._page_bar = pages, stack, page_bar
        self._status, self._messages = status, messages
        self.space_choice: SpaceChoice | None = None
        """The choice between the pages and the whole space: while the whole space is
        shown, the centre is not the pages'."""
        self._failed = False
        pages.loadingChanged.connect(self._loading_changed)
        # Queued: after the window's own handler, which offers the space's copy (or not).
        pages.loadFailed.connect(self._load_failed, Qt.ConnectionType.QueuedConnection)
        stack.loading_page.action_button.clicked.connect(self.stop)

    def _pages_shown(self) -> bool:
        return self.space_choice is None or not self.space_choice.shows_whole_space

    def _load_failed(self, *_failure: object) -> None:
        self._failed = self._pages.page is None  # the bar above says why
        if self._failed and self._pages.pending_request is None and self._pages_shown():
            self._show_hint()

    def _show_hint(self) -> None:
        """How to open a space; where the last one asked for failed, that no cards are
        shown, and where the space has a synced copy, where to find it."""
        if not self._failed:
            self._stack.show_hint(self._messages.no_space())
            return
        offered = self.space_choice is not None and self.space_choice.offers_copy
        self._stack.show_hint(self._messages.not_loaded(copy_offered=offered))

    def stop(self) -> None:
        """Stop waiting for the page asked for; the page shown stays."""
        pending = self._pages.pending_request
        if pending is None:
            return
        self._pages.cancel()
        text = QCoreApplication.translate("MainWindow", "Stopped loading page %1.")
        self._status.showMessage(text.replace("%1", str(pending.page)), STOPPED_NOTE_MS)

    def show_page_state(self) -> None:
        """The centre as the pages say, back from the whole space: the page's cards, why
        it has none, the page on its way, or how to open a space."""
        pending, page = self._pages.pending_request, self._pages.page
        if page is None and pending is not None:
            self._stack.show_loading(self._messages.loading(pending))
        elif page is None:
            self._show_hint()
        elif page.is_empty:
            self._stack.show_empty(self._messages.empty_page(page.meta))
        else:
            self._stack.show_table()

    def _loading_changed(self, loading: bool) -> None:
        pending, page = self._pages.pending_request, self._pages.page
        if loading and pending is not None:
            self._failed = False
            self._page_bar.show_loading(pending.page, self._messages.loading_summary(pending))
            if page is None and self._pages_shown():
                self._stack.show_loading(self._messages.loading(pending))
        else:
            self._page_bar.set_meta(page.meta if page is not None else None)
            if page is None and self._stack.currentWidget() is self._stack.loading_page:
                self._show_hint()
