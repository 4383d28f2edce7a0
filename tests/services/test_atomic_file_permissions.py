"""Replacing a file keeps what surrounds it: its permissions, and a symbolic link to it."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from cardviewer.services.atomic_file import write_atomically
from cardviewer.services.csv_export import write_csv
from cardviewer.services.xlsx_export import write_xlsx

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions and links")

Writer = Callable[[Path], None]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def raw(path: Path) -> None:
    write_atomically(path, b"new content")


def csv_file(path: Path) -> None:
    write_csv(path, ["Name", "E-mail"], [["Ada", "ada@example.com"]])


def xlsx_file(path: Path) -> None:
    write_xlsx(path, ["Name", "E-mail"], [["Ada", "ada@example.com"]])


WRITERS = {"write_atomically": raw, "write_csv": csv_file, "write_xlsx": xlsx_file}


@pytest.fixture(params=list(WRITERS.values()), ids=list(WRITERS))
def write(request: pytest.FixtureRequest) -> Writer:
    writer: Writer = request.param
    return writer


@posix_only
@pytest.mark.parametrize("earlier", [0o600, 0o640, 0o604, 0o444], ids=oct)
def test_a_replaced_file_keeps_its_mode(tmp_path, write, earlier):
    target = tmp_path / "out.csv"
    target.write_bytes(b"earlier")
    target.chmod(earlier)
    old = os.umask(0o022)
    try:
        write(target)
    finally:
        os.umask(old)
    assert mode(target) == earlier
    assert target.read_bytes() != b"earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


@posix_only
def test_a_private_export_is_never_readable_by_others_while_written(tmp_path, monkeypatch):
    """The earlier mode is on the new file before any data is in it."""
    target = tmp_path / "out.csv"
    target.write_bytes(b"earlier")
    target.chmod(0o600)
    modes_while_written = []
    real_fsync = os.fsync

    def fsync_and_look(fd: int) -> None:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            modes_while_written.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_and_look)
    old = os.umask(0o022)
    try:
        write_atomically(target, b"ada@example.com")
    finally:
        os.umask(old)
    assert modes_while_written == [0o600]


@posix_only
def test_a_new_file_follows_the_umask(tmp_path, write):
    old = os.umask(0o027)
    try:
        write(tmp_path / "new.csv")
    finally:
        os.umask(old)
    assert mode(tmp_path / "new.csv") == 0o640


@posix_only
def test_a_private_file_becomes_private_whatever_the_earlier_mode(tmp_path):
    target = tmp_path / "settings.json"
    target.write_bytes(b"{}")
    target.chmod(0o644)
    write_atomically(target, b"{}", private=True)
    assert mode(target) == 0o600


@posix_only
def test_a_symbolic_link_is_written_through_and_kept(tmp_path, write):
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir()
    real = elsewhere / "cards.csv"
    real.write_bytes(b"earlier")
    real.chmod(0o640)
    link = tmp_path / "out.csv"
    link.symlink_to(real)
    write(link)
    assert link.is_symlink()
    assert link.resolve() == real.resolve()
    assert real.read_bytes() != b"earlier"
    assert mode(real) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "shared"]
    assert [p.name for p in elsewhere.iterdir()] == ["cards.csv"], "no temporary file left"


@posix_only
def test_a_relative_link_through_links_reaches_the_last_target(tmp_path):
    (tmp_path / "data").mkdir()
    real = tmp_path / "data" / "cards.csv"
    real.write_bytes(b"earlier")
    (tmp_path / "middle.csv").symlink_to(Path("data") / "cards.csv")
    (tmp_path / "out.csv").symlink_to("middle.csv")
    write_atomically(tmp_path / "out.csv", b"new")
    assert real.read_bytes() == b"new"
    assert (tmp_path / "out.csv").is_symlink()
    assert (tmp_path / "middle.csv").is_symlink()


@posix_only
def test_a_link_to_a_file_not_there_yet_creates_its_target(tmp_path):
    (tmp_path / "data").mkdir()
    link = tmp_path / "out.xlsx"
    link.symlink_to(tmp_path / "data" / "cards.xlsx")
    xlsx_file(link)
    assert link.is_symlink()
    sheet = openpyxl.load_workbook(tmp_path / "data" / "cards.xlsx").active
    assert sheet is not None
    assert sheet["A2"].value == "Ada"


@posix_only
def test_a_failed_write_through_a_link_keeps_the_target_and_the_link(tmp_path, monkeypatch):
    real = tmp_path / "cards.csv"
    real.write_bytes(b"earlier")
    link = tmp_path / "out.csv"
    link.symlink_to(real)

    def fail(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="disk is full"):
        csv_file(link)
    assert link.is_symlink()
    assert real.read_bytes() == b"earlier"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.csv", "out.csv"]
