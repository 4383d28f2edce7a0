"""Replacing a file in one step, so a reader sees the old content or the new, never half.

The data goes to a temporary file in the same folder (so `os.replace` is a rename on
one file system), is flushed to disk, and then takes the target's name. Whatever goes
wrong, the temporary file is removed and the earlier file stays as it was.

Replacing a file keeps what the person set up around it: a symbolic link stays a link
and its target gets the new content (replaced in the target's folder), the new file
gets the earlier file's permissions, so an export someone made private stays so, and
a file that is read-only for this user is not replaced by an export (`ReadOnlyFile`).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from cardviewer.services.file_errors import ReadOnlyFile

log = logging.getLogger(__name__)

# O_BINARY matters on Windows only: without it "\n" would become "\r\n".
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
PRIVATE_MODE = 0o600


def write_atomically(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write `data` to `path` in one step; `private` files are readable by this user only.

    A private file is created with mode 0600, so its content is never readable by
    others, not even for a moment. Any other file keeps the mode of the file it
    replaces; a new one gets the umask's default. A symbolic link at `path` is
    followed: its target is replaced, the link stays. Raises `OSError` when the file
    cannot be written (`ReadOnlyFile`: the file at `path`, not a private one, is
    read-only for this user); the earlier file at `path`, if any, is then left untouched.
    """
    with open_atomically(path, private=private) as file:
        file.write(data)


@contextlib.contextmanager
def open_atomically(path: Path, *, private: bool = False) -> Iterator[BinaryIO]:
    """A file to write `path`'s new content into, a piece at a time; see `write_atomically`.

    The content takes `path`'s name when the block ends without an exception; an
    exception leaves the earlier file as it was, and no temporary file behind. A large
    export is written this way without ever being whole in memory.
    """
    path = written_path(Path(path))
    if not private:  # the app's own private files are its to replace
        _refuse_read_only(path)
    temporary = _temporary_beside(path)
    mode = None if private else _earlier_mode(path)
    fd = os.open(temporary, _CREATE_FLAGS, PRIVATE_MODE if private else 0o666)
    try:
        with os.fdopen(fd, "wb") as file:
            if mode is not None:
                os.fchmod(file.fileno(), mode)
            yield file
            file.flush()
            os.fsync(file.fileno())
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    _sync_folder(path.parent)


def unwritable(path: Path) -> OSError | None:
    """The `OSError` that writing `path` (`open_atomically`) would meet first, or None:
    no folder, a folder in its place, a file or disk that may not be changed, no right
    to write there. A whole-space export asks before it fetches the first page, not
    after the last; the check leaves nothing behind."""
    path = written_path(Path(path))
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        _refuse_read_only(path)
        temporary = _temporary_beside(path)
        os.close(os.open(temporary, _CREATE_FLAGS, PRIVATE_MODE))
        temporary.unlink()
    except OSError as error:
        return error
    return None


def _temporary_beside(path: Path) -> Path:
    """A new file's name in `path`'s folder, hidden, for its content until it is whole.

    A random name (os.urandom: `secrets` would pull in hashlib and random at start)."""
    return path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")


def written_path(path: Path) -> Path:
    """The file that writing to `path` replaces: the target of a symbolic link, or `path`.

    Replacing the link itself would cut it from the file the person keeps elsewhere.
    """
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _refuse_read_only(path: Path) -> None:
    """Raise `ReadOnlyFile` for a file at `path` the person may not change; an `OSError`
    saying so for one on a read-only disk, where another name would fail as well."""
    if not path.is_file() or os.access(path, os.W_OK):
        return
    if hasattr(os, "statvfs") and os.statvfs(path.parent).f_flag & os.ST_RDONLY:
        raise OSError(errno.EROFS, "Read-only file system", str(path))
    raise ReadOnlyFile(errno.EACCES, "Read-only file", str(path))


def _earlier_mode(path: Path) -> int | None:
    """The permission bits of the regular file at `path`; None when there is none.

    Windows has no such bits, only a read-only flag, which would make the rename fail.
    """
    if os.name != "posix":
        return None
    try:
        status = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    # Permission bits only: set-user-id and the like are not carried to new content.
    return stat.S_IMODE(status.st_mode) & 0o777


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # Windows cannot open folders; the rename is still atomic there.
    try:
        os.fsync(fd)
    except OSError as error:
        log.debug("Could not flush folder %s: %s", folder, error)
    finally:
        os.close(fd)
