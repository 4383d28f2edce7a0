"""Exporting every page of a space to CSV or Excel, or syncing them all, with progress and Cancel.

The export is `export_space`, as in `cardviewer export --all`: pages are fetched a few
at a time, the columns are decided once every card is in, so a field that only
appears on page 40 still gets its column, and the file is written only at the end, in
one step: a cancelled or failed export leaves no partial file behind, and an earlier
file of that name stays as it was. A sync is `sync_space`, into the space's local
copy. The dialog shows the progress and offers Cancel.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from cardviewer.services.card_store import CardStore
from cardviewer.services.space_export import export_space
from cardviewer.services.space_fetch import DEFAULT_CONCURRENCY, FetchProgress, PageFetch
from cardviewer.services.space_sync import TidyLater, sync_space
from cardviewer.services.store_schema import Generation
from cardviewer.services.text_collation import collation_of
from cardviewer.ui.cards.columns import column_titles
from cardviewer.ui.eliding_label import ElidingLabel

log = logging.getLogger(__name__)


class ExportAllDialog(QDialog):
    """Shows how far the export has come and cancels it; `run()` does the export.

    `run()` returns the number of cards written, or None when the person cancelled.
    It raises the client's errors (`CardViewerError`) and `OSError` from writing.
    `syncing`, it fetches into the local copy of the space at `path` instead (`sync()`).
    A plain dialog rather than `QProgressDialog`, whose modal `setValue()` spins a
    nested event loop under the running asyncio loop.
    """

    def __init__(
        self,
        fetch: PageFetch,
        path: Path,
        *,
        space_id: str,
        with_emails: bool,
        concurrency: int = DEFAULT_CONCURRENCY,
        delimiter: str = ",",
        syncing: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._delimiter = delimiter
        self._fetch = fetch
        self.path = path
        self._space_id = space_id
        self.with_emails = with_emails
        """The cards' e-mail addresses are asked for (and a sync's copy holds them)."""
        self._concurrency = concurrency
        self._task: asyncio.Task[Any] | None = None
        self.cancelled = False
        self.skipped = 0
        """Entries of the pages fetched that are not cards, left out."""
        if syncing:
            self.setWindowTitle(self.tr("Sync Space"))
            heading = self.tr("Syncing all cards of %1").replace("%1", space_id)
        else:
            self.setWindowTitle(self.tr("Export All Pages"))
            heading = self.tr("Exporting all cards of %1").replace("%1", space_id)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(440)
        self.title_label = QLabel(heading)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        # A long file name is cut with "…" where the dialog is narrower than it; the
        # tooltip holds it whole, with its folder.
        self.file_label = ElidingLabel()
        if not syncing:
            self.file_label.set_whole_text(self.tr("To %1").replace("%1", path.name), str(path))
        self.file_label.setVisible(not syncing)
        self.progress_label = QLabel(self.tr("Fetching the first page…"))
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 0)
        self.progress_bar.setTextVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(self.file_label)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addStretch(1)  # made larger, the lines stay together above Cancel
        layout.addWidget(buttons)

    def describe(self, progress: FetchProgress) -> str:
        """'Page 12 of 24 · 120 cards · about 3 s left'; while a page that failed waits
        to be tried again, or the server keeps the pages asked for unanswered, a line
        saying so instead of the time left."""
        ahead = self._waiting_text(progress)
        if ahead is not None:
            if not progress.pages_total:  # the first page
                return self.tr("Fetching the first page…") + "\n" + ahead
            return self._pages_text(progress) + "\n" + ahead
        text = self._pages_text(progress)
        left = progress.seconds_left  # None until the pace is known
        if left is not None and progress.pages_done < progress.pages_total:
            if left < 60:
                text += " · " + self.tr("about %n s left", "", max(1, math.ceil(left)))
            else:
                text += " · " + self.tr("about %n min left", "", max(1, round(left / 60)))
        return text

    def _waiting_text(self, progress: FetchProgress) -> str | None:
        """What the fetch waits for on the server, and how long; None: pages come."""
        if progress.unanswered_for is not None:
            silent = math.floor(progress.unanswered_for)
            return self.tr("The server has not answered for %n s; still waiting…", "", silent)
        if progress.retrying_in is None:
            return None
        seconds = math.ceil(progress.retrying_in)  # 0: it is being tried again
        if progress.asked_to_wait and seconds:
            return self.tr("The server asked to wait; trying again in %n s.", "", seconds)
        if progress.asked_to_wait:
            return self.tr("The server asked to wait; trying again…")
        if seconds:
            return self.tr("The server is not responding; trying again in %n s.", "", seconds)
        return self.tr("The server is not responding; trying again…")

    def _pages_text(self, progress: FetchProgress) -> str:
        if progress.cards == 1:
            text = self.tr("Page %1 of %2 · 1 card")
        else:
            text = self.tr("Page %1 of %2 · %Ln cards", "", progress.cards)
        locale = QLocale()
        text = text.replace("%1", locale.toString(progress.pages_done))
        return text.replace("%2", locale.toString(progress.pages_total))

    def cancel(self) -> None:
        """Stop fetching; nothing is written. Too late once the file is being written.

        Before the fetch has started (a sync opens its local copy first), it never starts.
        Stopping takes a moment: a sync drops what it wrote (seconds at 100,000 cards),
        and the dialog says so until then.
        """
        if self._task is None:
            self.cancelled = True
        elif not self._task.done() and self.cancel_button.isEnabled():
            self.cancelled = True
            self._task.cancel()
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(self.tr("Cancelling…"))
            self.cancel_button.setEnabled(False)

    def reject(self) -> None:  # Esc and the window's close button
        self.cancel()

    def _on_progress(self, progress: FetchProgress) -> None:
        if self.cancelled:
            return  # "Cancelling…" stays
        self.skipped = progress.skipped
        self.progress_bar.setRange(0, progress.pages_total)
        self.progress_bar.setValue(progress.pages_done)
        self.progress_label.setText(self.describe(progress))

    async def run(self) -> int | None:
        """Fetch every page and write the file; the number of cards, None if cancelled."""
        result: int | None = await self._run(self._export())
        return result

    async def sync(
        self,
        store: CardStore,
        locale: QLocale | None = None,
        *,
        tidy_later: TidyLater | None = None,
    ) -> Generation | None:
        """Fetch every page into `store`'s new copy, shown once complete; None if cancelled.

        Raises `StoreError` when the copy cannot be written (the one before stays).
        The copy no longer needed is dropped before this returns, or by `tidy_later`
        (`sync_space`).
        """
        reader = locale if locale is not None else QLocale()
        work = sync_space(
            store,
            self._fetch,
            concurrency=self._concurrency,
            on_progress=self._on_progress,
            with_emails=self.with_emails,
            collation=collation_of(reader),
            on_finishing=self._on_finishing,
            tidy_later=tidy_later,
        )
        result: Generation | None = await self._run(work)
        return result

    async def _run(self, work: Coroutine[Any, Any, Any]) -> Any:
        if self.cancelled:
            work.close()  # never started: nothing to undo
            log.info("fetching all pages of %s was cancelled before it began", self._space_id)
            return None
        return await self._shown_while(work)

    async def _shown_while(self, work: Coroutine[Any, Any, Any]) -> Any:
        """Run `work` with the dialog open; None when Cancel stopped it."""
        self._task = asyncio.ensure_future(work)
        self.open()
        try:
            return await self._task
        except asyncio.CancelledError:
            if self.cancelled:
                log.info("fetching all pages of %s was cancelled", self._space_id)
                return None
            raise
        finally:
            if shiboken6.isValid(self):  # gone with its window when that closed first
                self.done(QDialog.DialogCode.Accepted)

    async def _export(self) -> int:
        count = await export_space(
            self._fetch,
            self.path,
            with_emails=self.with_emails,
            title=self._space_id,
            delimiter=self._delimiter,
            titles=column_titles(),
            concurrency=self._concurrency,
            on_progress=self._on_progress,
            on_writing=self._on_writing,
        )
        log.info("exported %d cards of %s to %s", count, self._space_id, self.path)
        return count

    def _on_finishing(self) -> None:
        """Every card is in; the copy is sorted and made current, which cannot be undone."""
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(self.tr("Finishing the local copy…"))
        self.cancel_button.setEnabled(False)

    def _on_writing(self, count: int) -> None:
        self.progress_bar.setRange(0, 0)
        if count == 1:  # English has no catalogue to find its singular in
            self.progress_label.setText(self.tr("Writing 1 card…"))
        else:
            self.progress_label.setText(self.tr("Writing %Ln cards…", "", count))
        # Writing cannot be interrupted half-way (the file is replaced in one step).
        self.cancel_button.setEnabled(False)
