"""Replacing a file in one step: the old content or the new, never half, never a leftover."""

import logging
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardviewer.services.atomic_file import PRIVATE_MODE, write_atomically
from cardviewer.services.file_errors import ReadOnlyFile, WriteProblem, write_problem

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_writes_a_new_file(tmp_path):
    target = tmp_path / "new.bin"
    write_atomically(target, b"hello")
    assert target.read_bytes() == b"hello"
    assert [p.name for p in tmp_path.iterdir()] == ["new.bin"]


def test_replaces_an_existing_file(tmp_path):
    target = tmp_path / "file.txt"
    target.write_bytes(b"old content that is longer")
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["file.txt"]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=4096))
def test_any_bytes_arrive_unchanged(tmp_path, data):
    target = tmp_path / "any.bin"
    write_atomically(target, data)
    assert target.read_bytes() == data


@posix_only
def test_private_file_is_readable_by_this_user_only(tmp_path):
    target = tmp_path / "secret.json"
    write_atomically(target, b"token")
    target.chmod(0o644)
    write_atomically(target, b"token", private=True)
    assert mode(target) == 0o600


@posix_only
def test_private_file_is_never_readable_by_others_even_while_written(tmp_path, monkeypatch):
    """The mode is set when the file is created, not after the data is in it."""
    modes_while_written = []
    real_fsync = os.fsync

    def fsync_and_look(fd):
        modes_while_written.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_and_look)
    write_atomically(tmp_path / "secret.json", b"token", private=True)
    assert modes_while_written
    assert modes_while_written[0] == 0o600


@posix_only
def test_ordinary_file_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomically(tmp_path / "plain.txt", b"x")
    finally:
        os.umask(old)
    assert mode(tmp_path / "plain.txt") == 0o644


def test_missing_folder_raises_and_leaves_nothing(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_atomically(tmp_path / "gone" / "file.txt", b"x")
    assert list(tmp_path.iterdir()) == []


def test_failed_replace_removes_the_temporary_file(tmp_path):
    target = tmp_path / "is-a-folder"
    target.mkdir()
    (target / "inside.txt").write_bytes(b"kept")
    with pytest.raises(OSError):  # noqa: PT011 - the kind differs per platform
        write_atomically(target, b"x")
    assert [p.name for p in tmp_path.iterdir()] == ["is-a-folder"]
    assert (target / "inside.txt").read_bytes() == b"kept"


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_failure_while_writing_keeps_the_earlier_file(tmp_path, monkeypatch, failure):
    target = tmp_path / "file.txt"
    target.write_bytes(b"earlier")

    def fail(_fd):
        raise failure

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(type(failure)):
        write_atomically(target, b"later")
    assert target.read_bytes() == b"earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["file.txt"]


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="POSIX permissions; root ignores them"
)
def test_read_only_folder_raises_and_keeps_the_earlier_file(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    target = folder / "file.txt"
    target.write_bytes(b"earlier")
    folder.chmod(0o500)
    try:
        with pytest.raises(PermissionError):
            write_atomically(target, b"later")
    finally:
        folder.chmod(0o700)
    assert target.read_bytes() == b"earlier"
    assert [p.name for p in folder.iterdir()] == ["file.txt"]


def read_only_for_the_person(monkeypatch, target: Path) -> None:
    """`target` read-only, as for a person: root may write anything."""
    target.chmod(0o444)
    if os.geteuid() == 0:
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, m: m != os.W_OK and real_access(p, m))


@posix_only
def test_a_file_read_only_for_this_user_is_not_replaced(tmp_path, monkeypatch):
    target = tmp_path / "file.txt"
    target.write_bytes(b"earlier")
    read_only_for_the_person(monkeypatch, target)
    with pytest.raises(ReadOnlyFile) as refused:
        write_atomically(target, b"later")
    assert write_problem(refused.value) is WriteProblem.FILE_READ_ONLY
    assert target.read_bytes() == b"earlier"
    assert mode(target) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["file.txt"]


@posix_only
def test_a_private_file_of_the_app_s_own_is_replaced_though_read_only(tmp_path, monkeypatch):
    """Settings or a session restored read-only from a backup were no longer saved."""
    target = tmp_path / "settings.json"
    target.write_bytes(b"earlier")
    read_only_for_the_person(monkeypatch, target)
    write_atomically(target, b"later", private=True)
    assert target.read_bytes() == b"later"
    assert mode(target) == PRIVATE_MODE


@posix_only
def test_a_file_on_a_read_only_disk_is_said_to_be_on_one(tmp_path, monkeypatch):
    """Not "choose another name": another name on that disk fails as well."""
    target = tmp_path / "file.txt"
    target.write_bytes(b"earlier")
    read_only_for_the_person(monkeypatch, target)
    real_statvfs = os.statvfs

    class ReadOnlyDisk:
        def __init__(self, folder: object) -> None:
            self._real = real_statvfs(folder)  # type: ignore[arg-type]

        @property
        def f_flag(self) -> int:
            return self._real.f_flag | os.ST_RDONLY

    monkeypatch.setattr(os, "statvfs", ReadOnlyDisk)
    with pytest.raises(OSError, match="Read-only file system") as refused:
        write_atomically(target, b"later")
    assert write_problem(refused.value) is WriteProblem.READ_ONLY
    assert target.read_bytes() == b"earlier"


def test_private_is_passed_by_name_only(tmp_path):
    with pytest.raises(TypeError):
        write_atomically(tmp_path / "file.txt", b"x", True)  # type: ignore[call-arg]
    assert list(tmp_path.iterdir()) == []


# Durability: what reaches the disk, and in which order


class DiskCalls:
    """Records `os.open`, `os.fsync`, `os.replace` and `os.close`, and still does them.

    An fsync records the file's size at that moment: what has reached the file so far.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.names: dict[int, str] = {}
        real_open, real_fsync, real_replace, real_close = os.open, os.fsync, os.replace, os.close

        def record_open(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
            fd = real_open(path, flags, mode, **kwargs)
            self.names[fd] = Path(path).name
            self.events.append(("open", Path(path).name))
            return fd

        def record_fsync(fd: int) -> None:
            status = os.fstat(fd)
            size = status.st_size if stat.S_ISREG(status.st_mode) else None
            self.events.append(("fsync", self.names.get(fd), size))
            real_fsync(fd)

        def record_replace(source: Any, target: Any) -> None:
            real_replace(source, target)
            self.events.append(("replace", Path(source).name, Path(target).name))

        def record_close(fd: int) -> None:
            self.events.append(("close", self.names.get(fd)))
            real_close(fd)

        monkeypatch.setattr(os, "open", record_open)
        monkeypatch.setattr(os, "fsync", record_fsync)
        monkeypatch.setattr(os, "replace", record_replace)
        monkeypatch.setattr(os, "close", record_close)


def open_fds() -> list[str]:
    return sorted(fd.name for fd in Path("/proc/self/fd").iterdir())


needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


@posix_only
def test_the_data_is_on_disk_before_the_rename_and_the_rename_after(tmp_path, monkeypatch):
    """The file is flushed and fsynced under its temporary name, then the folder is synced."""
    folder = tmp_path / "folder"
    folder.mkdir()
    calls = DiskCalls(monkeypatch)
    write_atomically(folder / "file.txt", b"new content")
    temporary = calls.events[0][1]
    assert re.fullmatch(r"\.file\.txt\.[0-9a-f]{8}\.tmp", temporary)
    assert calls.events == [
        ("open", temporary),
        ("fsync", temporary, len(b"new content")),  # flushed: all of it, not a buffer's worth
        ("replace", temporary, "file.txt"),
        ("open", "folder"),
        ("fsync", "folder", None),
        ("close", "folder"),
    ]
    assert (folder / "file.txt").read_bytes() == b"new content"


@posix_only
@needs_proc
def test_no_file_descriptor_is_left_open(tmp_path):
    before = open_fds()
    write_atomically(tmp_path / "file.txt", b"x")
    write_atomically(tmp_path / "file.txt", b"y", private=True)
    assert open_fds() == before


@needs_proc
def test_no_file_descriptor_is_left_open_when_the_folder_sync_fails(tmp_path, monkeypatch):
    real_fsync = os.fsync

    def fail_on_folders(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fail_on_folders)
    before = open_fds()
    write_atomically(tmp_path / "file.txt", b"x")
    assert open_fds() == before


def test_a_folder_that_cannot_be_synced_still_gets_the_file(tmp_path, monkeypatch, caplog):
    """Some file systems refuse to fsync a folder; the rename has happened all the same."""
    real_fsync = os.fsync

    def fail_on_folders(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fail_on_folders)
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.atomic_file")
    write_atomically(tmp_path / "file.txt", b"x")
    assert (tmp_path / "file.txt").read_bytes() == b"x"
    assert "Could not flush folder" in caplog.text


def test_a_folder_that_cannot_be_opened_still_gets_the_file(tmp_path, monkeypatch):
    """Windows cannot open a folder at all; the rename is atomic there without the sync."""
    real_open = os.open

    def refuse_folders(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        if Path(path).is_dir():
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", refuse_folders)
    write_atomically(tmp_path / "file.txt", b"x")
    assert (tmp_path / "file.txt").read_bytes() == b"x"
