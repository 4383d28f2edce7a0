"""Replacing a file in one step, so a reader sees the old content or the new, never half.

The data goes to a temporary file in the same folder (so `os.replace` is a rename on
one file system), is flushed to disk, and then takes the target's name. Whatever goes
wrong, the temporary file is removed and the earlier file stays as it was.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

# O_BINARY matters on Windows only: without it "\n" would become "\r\n".
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def write_atomically(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write `data` to `path` in one step; `private` files are readable by this user only.

    A private file is created with mode 0600, so its content is never readable by
    others, not even for a moment. Raises `OSError` when the file cannot be written;
    the earlier file at `path`, if any, is then left untouched.
    """
    path = Path(path)
    # A random name (os.urandom: `secrets` would pull in hashlib and random at start).
    temporary = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    fd = os.open(temporary, _CREATE_FLAGS, 0o600 if private else 0o666)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    _sync_folder(path.parent)


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
