"""Which local copy the window shows and offers, as jobs end and accounts change.

Three ways the table showed a copy that was not the one the window said:

- a sync runs on while the person opens another space; when it ended, its copy came
  into the table under the other space's name, to be exported as that space's;
- signed in as another account over the window (the session had ended), the copy of
  the account before stayed on screen, with the switch gone;
- a copy that a sync found damaged (and set aside) or written by a newer version of
  CardViewer stayed offered in the switch, or shown, with every command working on it.

So a sync's copy is shown only where it is the copy of the space open for the account
signed in; another account goes back to the pages, offering its own copies; and a copy
a sync refused is shown and offered no more. (A copy whose file was removed meanwhile
stays shown until the pages are chosen, as ever.)
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject

from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.session_state import AccountLabel
from cardviewer.ui.whole_space_jobs import JobResult, WholeSpaceJobs
from cardviewer.ui.whole_space_view import WholeSpaceView

log = logging.getLogger(__name__)


class CopyWindow(Protocol):
    """The main window, as far as the copy it shows is concerned."""

    whole_space: WholeSpaceView
    jobs: WholeSpaceJobs
    account_label: AccountLabel

    def target_request(self) -> PageRequest | None: ...


class CopyInView(QObject):
    """Keeps the copy the window shows and offers that of the space open and account."""

    def __init__(self, window: CopyWindow) -> None:
        super().__init__(window.whole_space)
        self._window = window
        self._whole_space = window.whole_space
        window.account_label.accountChanged.connect(self._account_changed)
        window.jobs.copyRefused.connect(self._copy_refused)

    def show_synced(self, result: JobResult) -> bool:
        """Show the copy the sync of `result` made, if it is the space open's for the
        account signed in; False where it is another's (it stays on disk, offered when
        its space is opened)."""
        if result.path != self._path_open():
            log.info("%s was synced; another space (or account) is open", result.request.space_id)
            return False
        self._whole_space.show_copy(result.path)
        return True

    def _path_open(self) -> Path | None:
        target = self._window.target_request()
        return None if target is None else self._whole_space.store_path(target.space_id)

    def _account_changed(self) -> None:
        log.info("another account signed in: back to the pages, its own copies offered")
        self._whole_space.show_pages(offer_shown=False)  # that account's: not opened again
        self._offer_again()

    def _copy_refused(self, path: Path) -> None:
        """A sync found the copy at `path` damaged (and set it aside) or too new."""
        shown = self._whole_space.model
        if shown is not None and shown.path == path:
            log.info("the copy shown can no longer be read: back to the pages")
            self._whole_space.show_pages()  # which offers it no more
        elif path == self._path_open():
            self._offer_again()

    def _offer_again(self) -> None:
        target = self._window.target_request()
        self._whole_space.offer(None if target is None else target.space_id)
