"""Which unfinished copies of a store are still being written: a lock for each sync.

A sync the disk filling up stops cannot drop what it wrote either (dropping needs room
too), and a killed one never tries: its rows stay. Left for a later sync to drop once
it succeeds, on a disk that stays nearly full they kept every later sync from doing
so. A sync that begins drops them first, but only those of syncs that have ended: two
windows, or a window and `cardviewer sync`, may sync one space at once.

So each sync holds an exclusive lock on a file of its own beside the store for its
life (`SyncLock`), which the system lets go of when its process ends, however it ends.
A sync whose lock can be taken is one no process writes any more. The lock is of the
open file (`flock`, or `msvcrt.locking` on Windows), so two syncs of one process are
told apart as well as two of two processes.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def lock_path(store: Path, generation: int) -> Path:
    """The lock file of the sync writing copy `generation` of the store at `store`."""
    return store.with_name(f"{store.name}.sync-{generation}")


CHANGES_JOB_SUFFIX = ".changes-job"
"""Of the lock file a `cardviewer sync --changes` run holds for its whole run."""


def changes_job_path(store: Path) -> Path:
    """The lock file of a `cardviewer sync --changes` run of the store at `store`: one
    run at a time, so that a second does not take the changes of the first's file."""
    return store.with_name(f"{store.name}{CHANGES_JOB_SUFFIX}")


class SyncLock:
    """An exclusive lock on a file, held until `release`, or until the process ends."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, path: Path) -> SyncLock | None:
        """The lock of `path` (made if need be, readable by this user only); None while
        another holds it. Raises `OSError` where the file cannot be made.

        A holder that lets go removes the file while it holds it: one opened just
        before is then locked where no one looks any more, and a third process would
        make a new file and lock that too. So the file locked must still be the one
        at `path`, or it is opened again.
        """
        for _ in range(TRIES):
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                _lock(descriptor)
            except OSError:
                os.close(descriptor)
                return None
            if _still_there(descriptor, path):
                return cls(path, descriptor)
            os.close(descriptor)
        return None

    def release(self) -> None:
        """Remove the file and let go of it: the sync has ended, finished or dropped."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        if os.name == "nt":  # an open file cannot be removed there
            os.close(descriptor)
        with contextlib.suppress(OSError):  # removed with the store meanwhile, say
            self.path.unlink()  # POSIX: while held, so no one locks a file about to go
        if os.name != "nt":
            os.close(descriptor)


TRIES = 5
"""Times a lock is taken again whose file was removed as it was taken."""


def _still_there(descriptor: int, path: Path) -> bool:
    """Whether the file open at `descriptor` is the one at `path` (not removed since)."""
    opened = os.fstat(descriptor)
    try:
        there = path.stat()
    except FileNotFoundError:
        return False
    return (opened.st_dev, opened.st_ino) == (there.st_dev, there.st_ino)


if os.name == "nt":
    import msvcrt

    def _lock(descriptor: int) -> None:
        msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]

else:
    import fcntl

    def _lock(descriptor: int) -> None:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
