"""Replacing a file in one step: the old content or the new, never half, never a leftover."""

import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardviewer.services.atomic_file import write_atomically

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


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
