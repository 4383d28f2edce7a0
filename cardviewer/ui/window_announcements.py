"""What the main window has a screen reader say when something changes out of its focus.

A person who cannot see the window hears where the keyboard is, not that the page they
asked for has arrived, that an error showed above the table, or what the status bar
says. The window's parts report those changes as signals; this object turns each into
an announcement (`announcements.announce`), after the window has shown it:

- a page arrived: which one of how many, and what it shows;
- an error or a note in the error bar (said at once, interrupting);
- a message in the status bar (what was copied, an export's or sync's end);
- while Export All or Sync Space runs, how far it has come, every few seconds.

The filter row says itself how many cards its filter lets through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar

from cardviewer.ui.announcements import announce
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.error_bar import ErrorBar
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.page_bar import PageBar

PROGRESS_EVERY_MS = 5000
"""How often a running export or sync says how far it has come (when that changed)."""


class WindowAnnouncements(QObject):
    """Announces pages, errors and status messages of one main window.

    Made once the window has connected its own slots, so that what is said is what
    the window shows by then. `error_sources` are the signals after which the error
    bar may have a new message.
    """

    def __init__(
        self,
        pages: CardPages,
        page_bar: PageBar,
        error_bar: ErrorBar,
        status: QStatusBar,
        error_sources: list[Any],
    ) -> None:
        super().__init__(status)
        self._page_bar, self._error_bar = page_bar, error_bar
        pages.pageLoaded.connect(self._page_loaded)
        for signal in error_sources:
            signal.connect(self._error_shown)
        status.messageChanged.connect(lambda text: announce(status, text))

    def _page_loaded(self, *_args: object) -> None:
        announce(self._page_bar, self._page_bar.spoken_summary())

    def _error_shown(self, *_args: object) -> None:
        bar = self._error_bar
        if bar.isVisibleTo(bar.window()) and bar.message:
            announce(bar, bar.message, assertive=True)


class ProgressAnnouncer(QObject):
    """Says the text of `label` every `PROGRESS_EVERY_MS`, when it changed, while it lives."""

    def __init__(self, label: QLabel) -> None:
        super().__init__(label)
        self._label = label
        self._said = label.text()
        self._timer = QTimer(self)
        self._timer.setInterval(PROGRESS_EVERY_MS)
        self._timer.timeout.connect(self._say)
        self._timer.start()

    def _say(self) -> None:
        text = self._label.text()
        if text != self._said and self._label.isVisible():
            self._said = text
            announce(self._label, text)


def announcing_progress(
    open_progress: Callable[..., ExportAllDialog],
) -> Callable[..., ExportAllDialog]:
    """`open_progress`, whose dialogs say how far they have come (`ProgressAnnouncer`)."""

    def opened(*args: Any, **kwargs: Any) -> ExportAllDialog:
        dialog = open_progress(*args, **kwargs)
        ProgressAnnouncer(dialog.progress_label)
        return dialog

    return opened
