"""What an error says, in the interface's language.

The API layer has no Qt; its sentences are `Sentence`s, English with the template
the catalogs know (context "ApiErrors"), and are translated here, where they are shown.
A message the server wrote itself is shown as it came. How long the server asked to
wait is said by the window's own plural sentences (`wait_text`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from cardviewer.api.errors import TRANSLATION_CONTEXT, CardViewerError, Sentence, fill_markers
from cardviewer.api.retry import WaitUnit, wait_to_tell
from cardviewer.services.file_errors import WriteProblem, write_problem
from cardviewer.services.store_schema import StoreError, StoreProblem

log = logging.getLogger(__name__)


def error_text(error: BaseException) -> str:
    """`str(error)`, translated where the catalog has its sentence."""
    message = getattr(error, "message", None)
    if not isinstance(message, Sentence):
        return str(error)
    translated = QCoreApplication.translate(TRANSLATION_CONTEXT, message.template)
    try:
        return fill_markers(translated, message.values)
    except IndexError as exc:
        log.warning("the translation of %r does not fit its values: %s", message.template, exc)
        return str(message)


def wait_text(
    error: CardViewerError, seconds: Callable[[int], str], minutes: Callable[[int], str]
) -> str | None:
    """When the server said to try again (`Retry-After`), if that is worth saying.

    `seconds` and `minutes` are the window's sentences with a count ("You can try
    again in %n seconds."), translated where the window calls `tr()` with the count:
    the translation tools find a plural only there.
    """
    wait = wait_to_tell(error)
    if wait is None:
        return None
    return (seconds if wait.unit is WaitUnit.SECONDS else minutes)(wait.amount)


def store_error_text(error: StoreError) -> str:
    """Why a local copy cannot be opened or written, in the interface's language."""
    if not error.copy_before and (made := _no_copy_made_text(error.problem)):
        return made
    if error.problem is StoreProblem.DISK_FULL:
        return QCoreApplication.translate(
            "MainWindow", "The disk is full; the local copy stays as it was."
        )
    if error.problem is StoreProblem.NEWER_VERSION:
        return QCoreApplication.translate(
            "MainWindow",
            "The local copy was written by a newer version of CardViewer and is left as "
            "it is; update CardViewer to use it.",
        )
    if error.problem is StoreProblem.REPLACED:
        return QCoreApplication.translate(
            "MainWindow",
            "The local copy shown was replaced by newer syncs meanwhile; try again.",
        )
    if error.problem is StoreProblem.IN_USE:
        return QCoreApplication.translate(
            "MainWindow", "The local copy is in use by another program; try again."
        )
    if error.problem is StoreProblem.GONE:
        return QCoreApplication.translate(
            "MainWindow", "The local copy is gone from this computer; Sync Space makes a new one."
        )
    if error.problem is StoreProblem.OVERTAKEN:
        return QCoreApplication.translate(
            "MainWindow", "Another program synced this space meanwhile; its copy is kept."
        )
    if error.problem is StoreProblem.DAMAGED:
        return QCoreApplication.translate(
            "MainWindow",
            "The local copy is damaged; it is set aside, and the next sync makes a new one.",
        )
    if error.problem is StoreProblem.READ_ONLY:
        return QCoreApplication.translate(
            "MainWindow",
            "The local copy may not be changed: its file, or the folder it is in, is "
            "read-only for you. It stays as it was.",
        )
    if error.problem is StoreProblem.NOT_READ:
        return QCoreApplication.translate(
            "MainWindow", "The local copy could not be read; it is left as it is."
        )
    return QCoreApplication.translate(
        "MainWindow", "The local copy could not be written; it stays as it was."
    )


def _no_copy_made_text(problem: StoreProblem) -> str | None:
    """Why a sync with no copy before (the space's first) made none, where the words
    for a copy kept would say that it stays as it was."""
    if problem is StoreProblem.DISK_FULL:
        return QCoreApplication.translate("MainWindow", "The disk is full; no local copy was made.")
    if problem is StoreProblem.READ_ONLY:
        return QCoreApplication.translate(
            "MainWindow",
            "The local copy may not be made: its file, or the folder it is in, is "
            "read-only for you.",
        )
    if problem is StoreProblem.NOT_WRITTEN:
        return QCoreApplication.translate(
            "MainWindow", "The local copy could not be written; none was made."
        )
    return None


def failure_reason_text(exc: OSError) -> str:
    """Why a file or folder the app keeps for itself (its settings, a local copy's
    folder) could not be written, in the interface's language: the reason alone, since
    choosing another folder is no way out there. The system's own words, which are
    English, only for a failure none of these cover."""
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return QCoreApplication.translate(
            "MainWindow", "A file is where a folder should be; move it away."
        )
    problem = write_problem(exc)
    if problem is WriteProblem.NOT_ALLOWED or problem is WriteProblem.FILE_READ_ONLY:
        return QCoreApplication.translate("MainWindow", "You are not allowed to write there.")
    if problem is WriteProblem.DISK_FULL:
        return QCoreApplication.translate("MainWindow", "The disk is full.")
    if problem is WriteProblem.READ_ONLY:
        return QCoreApplication.translate("MainWindow", "The disk is read-only.")
    if problem is WriteProblem.NO_FOLDER:
        return QCoreApplication.translate("MainWindow", "The folder does not exist (any more).")
    if problem is WriteProblem.FOLDER_IN_THE_WAY:
        return QCoreApplication.translate(
            "MainWindow", "A folder is where a file should be; move it away."
        )
    if problem is WriteProblem.TEMPORARY_FULL:
        return QCoreApplication.translate(
            "MainWindow", "The disk of the temporary folder is full; make room there."
        )
    return system_said_text(exc)


def system_said_text(exc: OSError) -> str:
    """The system's words for a failure the app has none of its own for, said to be
    the system's: they are in its language, not the interface's."""
    said = QCoreApplication.translate("MainWindow", "The system says: %1.")
    return said.replace("%1", (exc.strerror or str(exc)).rstrip("."))


def write_failure_text(exc: OSError) -> str:
    """A plain sentence for a failed file write (`file_errors.ADVICE`, translated)."""
    problem = write_problem(exc)
    if problem is WriteProblem.NOT_ALLOWED:
        return QCoreApplication.translate(
            "MainWindow", "You are not allowed to write there; choose another folder."
        )
    if problem is WriteProblem.NO_FOLDER:
        return QCoreApplication.translate(
            "MainWindow", "The folder does not exist (any more); choose another folder."
        )
    if problem is WriteProblem.FOLDER_IN_THE_WAY:
        return QCoreApplication.translate(
            "MainWindow", "A folder of that name is in the way; choose another name."
        )
    if problem is WriteProblem.DISK_FULL:
        return QCoreApplication.translate("MainWindow", "The disk is full.")
    if problem is WriteProblem.READ_ONLY:
        return QCoreApplication.translate(
            "MainWindow", "The disk is read-only; choose another folder."
        )
    if problem is WriteProblem.FILE_READ_ONLY:
        return QCoreApplication.translate(
            "MainWindow", "The file is read-only; choose another name."
        )
    if problem is WriteProblem.TEMPORARY_FULL:
        return QCoreApplication.translate(
            "MainWindow", "The disk of the temporary folder is full; make room there."
        )
    return system_said_text(exc)
