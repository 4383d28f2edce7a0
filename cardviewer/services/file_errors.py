"""Why a file could not be written, in plain words a person can act on.

The window, `cardviewer export` and the writers sort a failed write the same way
(`write_problem`); the window says it in the reader's language, the others in
English (`ADVICE`). A failure none of these cover keeps the system's own words.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

_QUOTA_EXCEEDED = getattr(errno, "EDQUOT", errno.ENOSPC)


class WriteProblem(enum.Enum):
    """A failed write a person can do something about."""

    NOT_ALLOWED = "not allowed"
    NO_FOLDER = "no folder"
    FOLDER_IN_THE_WAY = "folder in the way"
    DISK_FULL = "disk full"
    READ_ONLY = "read-only"
    FILE_READ_ONLY = "file read-only"
    TEMPORARY_FULL = "temporary folder full"
    """The disk of the system's temporary folder, where a whole-space export keeps its
    rows until the last page, is full: not the disk of the file written."""


class ReadOnlyFile(PermissionError):
    """The file to replace is read-only for this user.

    A new file takes its name by a rename, which only the folder's permissions allow or
    refuse: without this, an export would replace a file the person made read-only, as
    neither `cp` nor a shell's `>` does."""


class TemporaryFileError(OSError):
    """A temporary file in the system's temporary folder could not be made or written
    (`filename`: that folder)."""


@contextlib.contextmanager
def in_temporary_folder() -> Iterator[None]:
    """The block's `OSError` as a `TemporaryFileError`: it reads and writes a temporary
    file, and the file the person named is not at fault."""
    try:
        yield
    except TemporaryFileError:
        raise
    except OSError as error:
        folder = tempfile.gettempdir()
        raise TemporaryFileError(error.errno, error.strerror or str(error), folder) from error


ADVICE: Mapping[WriteProblem, str] = {
    WriteProblem.NOT_ALLOWED: "You are not allowed to write there; choose another folder.",
    WriteProblem.NO_FOLDER: "The folder does not exist (any more); choose another folder.",
    WriteProblem.FOLDER_IN_THE_WAY: "A folder of that name is in the way; choose another name.",
    WriteProblem.DISK_FULL: "The disk is full.",
    WriteProblem.READ_ONLY: "The disk is read-only; choose another folder.",
    WriteProblem.FILE_READ_ONLY: "The file is read-only; choose another name.",
    WriteProblem.TEMPORARY_FULL: "The disk of the temporary folder is full; make room there.",
}
"""What to tell, and what to do, for each problem; the window's text before translation."""


def write_problem(error: OSError) -> WriteProblem | None:
    """The problem behind `error`; None when it is none of the known ones."""
    if isinstance(error, TemporaryFileError):
        full = error.errno in (errno.ENOSPC, _QUOTA_EXCEEDED)
        return WriteProblem.TEMPORARY_FULL if full else None
    if isinstance(error, ReadOnlyFile):
        return WriteProblem.FILE_READ_ONLY
    if isinstance(error, PermissionError):
        return WriteProblem.NOT_ALLOWED
    if isinstance(error, FileNotFoundError | NotADirectoryError):  # or a file in its place
        return WriteProblem.NO_FOLDER
    if isinstance(error, IsADirectoryError):
        return WriteProblem.FOLDER_IN_THE_WAY
    if error.errno in (errno.ENOSPC, _QUOTA_EXCEEDED):
        return WriteProblem.DISK_FULL
    if error.errno == errno.EROFS:
        return WriteProblem.READ_ONLY
    return None


def explain_write_failure(error: OSError) -> str:
    """A sentence for a failed write: the advice for a known problem, else the system's words."""
    problem = write_problem(error)
    if problem is WriteProblem.TEMPORARY_FULL and error.filename:
        return f"The disk of the temporary folder ({error.filename}) is full; make room there."
    if problem is not None:
        return ADVICE[problem]
    return error.strerror or str(error)


def in_plain_words(error: OSError, path: Path) -> OSError:
    """The same kind of error with the same `errno`, its message a sentence naming `path`.

    For the log and for a caller that shows the message as it is.
    """
    problem = write_problem(error)
    if problem is WriteProblem.NOT_ALLOWED:
        reason = f"you are not allowed to write to the folder {path.parent}"
    elif problem is WriteProblem.NO_FOLDER:
        reason = f"the folder {path.parent} does not exist (any more)"
    elif problem is WriteProblem.FOLDER_IN_THE_WAY:
        reason = "a folder of that name is in the way"
    elif problem is WriteProblem.DISK_FULL:
        reason = "the disk is full"
    elif problem is WriteProblem.READ_ONLY:
        reason = "the disk is read-only"
    elif problem is WriteProblem.FILE_READ_ONLY:
        reason = "the file is read-only"
    elif problem is WriteProblem.TEMPORARY_FULL:
        reason = f"the disk of the temporary folder {error.filename or ''} is full"
    else:
        reason = (error.strerror or str(error)).rstrip(".").lower()
    message = f"Could not save {path.name}: {reason}. Any earlier file is unchanged."
    try:
        plain = type(error)(message)
    except Exception:  # a subclass that wants other arguments
        plain = OSError(message)
    # Set after construction: with errno and strerror given, str() would lead with
    # "[Errno 28]"; with errno alone the message stays the sentence above.
    plain.errno = error.errno
    return plain
