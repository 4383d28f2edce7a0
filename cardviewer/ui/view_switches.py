"""What the window does as the table switches between the pages and the whole space.

A note of the view left ("Cards added by the last sync: 2.") stayed in the status bar
over the next view for the rest of its seconds, saying what that view is not. And the
page from the server, shown again after a sync, was the one loaded before it: it could
list a card the sync had just said was removed. So a view's notes go with it, and the
page is asked for again when the pages are chosen after a sync.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject

from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.eliding_status_bar import ElidingStatusBar
from cardviewer.ui.whole_space_jobs import JobKind, JobResult, WholeSpaceJobs
from cardviewer.ui.whole_space_view import PAGES, WholeSpaceView


class SwitchingWindow(Protocol):
    """The main window, as far as its views are concerned."""

    whole_space: WholeSpaceView
    jobs: WholeSpaceJobs
    pages: CardPages
    status_bar: ElidingStatusBar

    @property
    def is_signed_out(self) -> bool: ...


class ViewSwitches(QObject):
    """Keeps the status bar and the page shown true to the view chosen in `window`."""

    def __init__(self, window: SwitchingWindow) -> None:
        status_bar = window.status_bar
        super().__init__(status_bar)
        self._window = window
        self._status_bar = status_bar
        self._note = ""  # the status bar's note of the view shown, if any
        self._page_before_sync = False
        window.whole_space.statusMessage.connect(self._show_note)
        window.whole_space.notesOver.connect(self._withdraw_note)
        # After the view's own slot: the pages are shown by then. Not on every return
        # to the pages: opening another space asks for its own first page.
        window.whole_space.switch.activated.connect(self._switched)
        window.jobs.finished.connect(self._finished)
        window.pages.pageLoaded.connect(self._page_loaded)

    def _show_note(self, text: str, milliseconds: int) -> None:
        self._note = text
        self._status_bar.showMessage(text, milliseconds)

    def _withdraw_note(self) -> None:
        """Another view chosen: its note goes, not a message of anything else since."""
        if self._note and self._status_bar.whole_message() == self._note:  # cut, maybe
            self._status_bar.clearMessage()
        self._note = ""

    def _finished(self, result: JobResult) -> None:
        if result.kind is JobKind.SYNC:
            self._page_before_sync = True

    def _page_loaded(self) -> None:
        self._page_before_sync = False

    def _switched(self, choice: int) -> None:
        if choice == PAGES and self._page_before_sync and not self._window.is_signed_out:
            self._window.pages.retry()  # the page asked for last, if any
