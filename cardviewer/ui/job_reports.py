"""What the window shows when an export or a sync ends or fails.

A synced space goes into the table from its local copy, if it is the space open; an
ended or cancelled job leaves a note in the status bar, a failed one an error in the
error bar (the table shown stays). The texts stay in the "MainWindow" translation
context; a sentence with a count is handed in by the window (`JobPlurals`), since the
translation tools mark a plural only where `tr()` gets it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale, QObject

from cardviewer.services.store_copies import Changes
from cardviewer.ui.eliding_status_bar import ElidingStatusBar
from cardviewer.ui.error_bar import ErrorBar
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.page_messages import Counted
from cardviewer.ui.painting_note import PaintingNote
from cardviewer.ui.whole_space_jobs import JobKind, JobResult, WholeSpaceJobs


def changes_text(changes: Changes | None) -> str:
    """What a sync changed since the one before, in one short sentence.

    It follows "Synced 240 cards." in the status bar, which has to fit a small screen.
    """
    if changes is None:
        return QCoreApplication.translate("MainWindow", "This is the first sync.")
    if not changes.any:
        text = QCoreApplication.translate("MainWindow", "Nothing changed since the last sync.")
    else:
        text = QCoreApplication.translate(
            "MainWindow", "Since the last sync: %1 added, %2 removed, %3 changed."
        )
        counts = (("%1", changes.added), ("%2", changes.removed), ("%3", changes.changed))
        for marker, ids in counts:
            text = text.replace(marker, QLocale().toString(len(ids)))
    # The addresses count as a change only where both copies hold them: said apart.
    if changes.emails_dropped:
        note = QCoreApplication.translate(
            "MainWindow", "E-mail addresses left out: Include e-mails was off."
        )
    elif changes.emails_added:
        note = QCoreApplication.translate(
            "MainWindow",
            "E-mail addresses added; no card counts as changed for them.",
        )
    else:
        return text
    return f"{text} {note}"


@dataclass(frozen=True)
class JobPlurals:
    """The sentences with a count, translated where the window calls `tr()`."""

    cards_exported: Counted
    """That many cards were written to the file %1 (more than one)."""
    cards_synced: Counted
    """That many cards of the space were synced into its local copy (%1: what changed)."""


class JobReports(QObject):
    """Shows what the jobs of a window report."""

    def __init__(
        self,
        jobs: WholeSpaceJobs,
        error_bar: ErrorBar,
        status: ElidingStatusBar,
        plurals: JobPlurals,
        show_synced: Callable[[JobResult], bool] | None = None,
    ) -> None:
        super().__init__(status)  # gone with the window, so a late report finds no one
        self._jobs, self._plurals = jobs, plurals
        self._show_synced = show_synced
        """Shows a sync's copy where it is the space open's; False where it is not."""
        self._error_bar, self._status = error_bar, status
        self._told = ""
        """The status bar's "Synced 240 cards." of the last sync, until a job fails: it
        no longer holds beside the failure (a file exported stays said)."""
        self._said: str | None = None
        """What the last job put in the error bar (why it failed, or a note of entries
        it left out), while the bar may show it: the next job to end takes it away."""
        jobs.finished.connect(self._on_finished)
        jobs.failed.connect(self._on_failed)
        jobs.statusMessage.connect(status.showMessage)
        self.painting_note = PaintingNote(jobs.painting, status)
        """How far a phone list has come, with Cancel, while one is painted."""
        status.addPermanentWidget(self.painting_note)

    @property
    def export_all_dialog(self) -> ExportAllDialog | None:
        """The progress of Export All or Sync Space, while one runs."""
        progress = self._jobs.progress
        return progress if isinstance(progress, ExportAllDialog) else None

    def _on_finished(self, result: JobResult) -> None:
        # A job that failed before is done with: its failure no longer holds.
        if self._said is not None and self._error_bar.message == self._said:
            self._error_bar.hide()  # a note too, which `hide_error` leaves
        self._said = None
        if result.kind is JobKind.SYNC:
            if result.count == 1:  # English has no catalogue to find its singular in
                message = QCoreApplication.translate("MainWindow", "Synced 1 card. %1")
            else:
                message = self._plurals.cards_synced(result.count)
            message = message.replace("%1", changes_text(result.changes)).strip()
            if self._show_synced is not None and not self._show_synced(result):
                # Another space was opened meanwhile: its name says which was synced.
                space = QCoreApplication.translate("MainWindow", "Space %1: %2")
                message = space.replace("%1", result.request.space_id).replace("%2", message)
        elif result.kind is JobKind.PRINT:
            message = QCoreApplication.translate(
                "MainWindow", "The phone list went to the printer."
            )
        elif result.count == 1:
            message = QCoreApplication.translate("MainWindow", "Exported 1 card to %1")
            message = message.replace("%1", str(result.path))
        else:
            message = self._plurals.cards_exported(result.count).replace("%1", str(result.path))
        self._status.showMessage(message)
        self._told = message if result.kind is JobKind.SYNC else ""
        if result.skipped:  # the file or copy lacks them: said whole, not only logged
            self._said = _left_out_text(result)
            self._error_bar.show_info(self._said)

    def show_failure(self, message: str, detail: str) -> None:
        """A job's or a local copy's failure, in the error bar (the table stays)."""
        self._error_bar.show_error(message, detail, retryable=False)

    def _on_failed(self, message: str, detail: str) -> None:
        # "Synced 240 cards." of the job before no longer holds beside the failure.
        if self._told and self._status.whole_message() == self._told:
            self._status.clearMessage()
        self._told = ""
        self._error_bar.show_error(message, detail, retryable=False)
        self._said = message


def _left_out_text(result: JobResult) -> str:
    """Entries of a whole space's pages that are not cards, left out of the file or copy."""
    if result.skipped == 1:
        said = QCoreApplication.translate(
            "MainWindow", "1 entry the server sent was not a card and was left out."
        )
    else:
        said = QCoreApplication.translate(
            "MainWindow", "%1 entries the server sent were not cards and were left out."
        ).replace("%1", QLocale().toString(result.skipped))
    if result.changes is not None and result.changes.removed:
        said += " " + QCoreApplication.translate(
            "MainWindow", "Some of the cards counted as removed may be among them."
        )
    return said
