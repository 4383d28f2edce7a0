"""A lock held by one process (or one open file) at a time, until it lets go or ends."""

from __future__ import annotations

from cardviewer.services import sync_lock
from cardviewer.services.sync_lock import SyncLock


def test_a_lock_is_held_once_and_taken_again_once_let_go(tmp_path):
    path = tmp_path / "space.sqlite.sync-1"
    held = SyncLock.take(path)
    assert held is not None
    assert SyncLock.take(path) is None
    held.release()
    assert not path.exists(), "the file goes with it"
    again = SyncLock.take(path)
    assert again is not None
    again.release()


def test_a_lock_let_go_as_it_is_taken_is_taken_on_the_file_there_now(tmp_path, monkeypatch):
    """The holder removed the file this one had just opened: this one then held a file
    no one looks at any more, and a third took a new one beside it."""
    path = tmp_path / "space.sqlite.changes-job"
    holder = SyncLock.take(path)
    assert holder is not None
    lock = sync_lock._lock
    released: list[bool] = []

    def let_go_meanwhile(descriptor: int) -> None:
        if not released:
            released.append(True)
            holder.release()  # removes the file the descriptor has open
        lock(descriptor)

    monkeypatch.setattr(sync_lock, "_lock", let_go_meanwhile)
    taken = SyncLock.take(path)
    assert taken is not None
    assert path.exists()
    assert SyncLock.take(path) is None, "the file there now is the one held"
    taken.release()


def test_a_lock_whose_file_keeps_going_is_not_taken(tmp_path, monkeypatch):
    path = tmp_path / "space.sqlite.changes-job"
    monkeypatch.setattr(sync_lock, "_still_there", lambda descriptor, path: False)
    assert SyncLock.take(path) is None
