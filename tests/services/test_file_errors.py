"""A failed write in plain words: sorted once, told the same in the window and the CLI."""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path

import pytest

from cardviewer.services.file_errors import (
    ADVICE,
    TemporaryFileError,
    WriteProblem,
    explain_write_failure,
    in_plain_words,
    in_temporary_folder,
    write_problem,
)


@pytest.mark.parametrize(
    ("error", "problem"),
    [
        (PermissionError(errno.EACCES, "Permission denied"), WriteProblem.NOT_ALLOWED),
        (FileNotFoundError(errno.ENOENT, "No such file or directory"), WriteProblem.NO_FOLDER),
        (NotADirectoryError(errno.ENOTDIR, "Not a directory"), WriteProblem.NO_FOLDER),
        (IsADirectoryError(errno.EISDIR, "Is a directory"), WriteProblem.FOLDER_IN_THE_WAY),
        (OSError(errno.ENOSPC, "No space left on device"), WriteProblem.DISK_FULL),
        (OSError(errno.EDQUOT, "Disk quota exceeded"), WriteProblem.DISK_FULL),
        (OSError(errno.EROFS, "Read-only file system"), WriteProblem.READ_ONLY),
        (OSError(errno.EIO, "Input/output error"), None),
        (OSError("no errno at all"), None),
        (TemporaryFileError(errno.ENOSPC, "No space left on device"), WriteProblem.TEMPORARY_FULL),
        (TemporaryFileError(errno.EIO, "Input/output error"), None),
    ],
)
def test_problems_are_sorted_by_kind_and_errno(error, problem):
    assert write_problem(error) is problem


def test_every_problem_has_advice():
    assert set(ADVICE) == set(WriteProblem)
    assert all(text.endswith(".") and text[0].isupper() for text in ADVICE.values())


def test_a_known_problem_is_explained_by_its_advice():
    error = PermissionError(errno.EACCES, "Permission denied")
    assert explain_write_failure(error) == (
        "You are not allowed to write there; choose another folder."
    )


def test_anything_else_keeps_the_systems_words():
    assert explain_write_failure(OSError(errno.EIO, "Input/output error")) == "Input/output error"
    assert explain_write_failure(OSError("cable unplugged")) == "cable unplugged"


def test_a_rewritten_error_keeps_its_kind_and_errno_and_names_the_file():
    original = FileNotFoundError(errno.ENOENT, "No such file or directory")
    plain = in_plain_words(original, Path("/exports/gone/cards.csv"))
    assert isinstance(plain, FileNotFoundError)
    assert plain.errno == errno.ENOENT
    assert str(plain) == (
        "Could not save cards.csv: the folder /exports/gone does not exist (any more). "
        "Any earlier file is unchanged."
    )
    assert write_problem(plain) is WriteProblem.NO_FOLDER


def test_a_rewritten_unknown_error_keeps_the_systems_reason():
    plain = in_plain_words(OSError(errno.EIO, "Input/output error"), Path("cards.csv"))
    assert (
        str(plain) == "Could not save cards.csv: input/output error. Any earlier file is unchanged."
    )
    assert plain.errno == errno.EIO


class _DeviceGone(OSError):
    """An error whose constructor wants more than a message."""

    def __init__(self, device: str, code: int) -> None:
        super().__init__(code, f"{device} is gone")


def test_a_rewritten_error_of_a_kind_that_wants_other_arguments_is_a_plain_os_error():
    plain = in_plain_words(_DeviceGone("usb0", errno.ENODEV), Path("cards.csv"))
    assert type(plain) is OSError
    assert plain.errno == errno.ENODEV
    assert str(plain) == "Could not save cards.csv: usb0 is gone. Any earlier file is unchanged."


def test_a_full_temporary_folder_is_not_the_file_s_disk():
    """A whole-space export keeps its rows in the system's temporary folder until the
    last page: its disk full was told as the disk of the file named being full."""
    with pytest.raises(TemporaryFileError) as raised, in_temporary_folder():
        raise OSError(errno.ENOSPC, "No space left on device")
    error = raised.value
    assert error.errno == errno.ENOSPC
    assert error.filename == tempfile.gettempdir()
    assert explain_write_failure(error) == (
        f"The disk of the temporary folder ({tempfile.gettempdir()}) is full; make room there."
    )
    plain = in_plain_words(error, Path("/exports/cards.csv"))
    assert write_problem(plain) is WriteProblem.TEMPORARY_FULL
    assert str(plain).startswith("Could not save cards.csv: the disk of the temporary folder ")
