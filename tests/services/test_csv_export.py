"""CSV export: what Excel needs (BOM, CRLF), what survives, and what must never run."""

import csv
import errno
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardviewer.services.csv_export import suggested_filename, write_csv

HEADER = ["Display name", "Position", "E-mails"]


def read_back(path: Path, delimiter: str = ",") -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as file:
        return list(csv.reader(file, delimiter=delimiter))


def test_text_of_every_kind_survives_the_round_trip(tmp_path):
    rows = [
        ["Zoë Müller-Lüdenscheidt", "Geschäftsführerin", "zoe@example.com; z@example.de"],
        ["山田 太郎", "エンジニア", ""],
        ['Anna "Ann" Smith, PhD', "Line one\nLine two\r\nLine three", "a@b.c"],
        ["Emoji 🎉", "Tab\tinside", "semi;colon"],
    ]
    target = tmp_path / "cards.csv"
    assert write_csv(target, HEADER, rows) == 4
    assert read_back(target) == [HEADER, *rows]


def test_the_file_starts_with_a_bom_and_ends_lines_with_crlf(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, ["a", "b"], [["1", "2"], ["3", "4"]])
    assert target.read_bytes() == b"\xef\xbb\xbfa,b\r\n1,2\r\n3,4\r\n"


def test_only_cells_that_need_it_are_quoted(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, ["plain", "comma"], [["word", "a,b"], ['say "hi"', ""]])
    assert target.read_bytes().decode("utf-8-sig") == (
        'plain,comma\r\nword,"a,b"\r\n"say ""hi""",\r\n'
    )


def test_a_semicolon_delimiter_for_excel_in_comma_decimal_locales(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, ["a", "b"], [["1,5", "x;y"]], delimiter=";")
    assert target.read_bytes().decode("utf-8-sig") == 'a;b\r\n1,5;"x;y"\r\n'
    assert read_back(target, delimiter=";") == [["a", "b"], ["1,5", "x;y"]]


@pytest.mark.parametrize("delimiter", ["", ";;", '"', "\n"])
def test_a_delimiter_that_cannot_separate_cells_is_refused(tmp_path, delimiter):
    with pytest.raises(ValueError, match="separate"):
        write_csv(tmp_path / "x.csv", ["a"], [], delimiter=delimiter)
    assert not (tmp_path / "x.csv").exists()


def test_the_delimiter_is_passed_by_name_only(tmp_path):
    with pytest.raises(TypeError):
        write_csv(tmp_path / "cards.csv", HEADER, [], ";")  # type: ignore[call-arg]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://evil","click")', '\'=HYPERLINK("http://evil","click")'),
        ("+1+2", "'+1+2"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("a=b", "a=b"),
        ("1-2", "1-2"),
        ("ada@example.com", "ada@example.com"),
        (" =1+1", " =1+1"),
        ("'quoted", "'quoted"),
        ("", ""),
        ("+49 30 1234567", "'+49 30 1234567"),
        ("-", "'-"),
        ("-3", "-3"),
        ("-0", "-0"),
        ("-999999999999999", "-999999999999999"),
        # Read otherwise by a spreadsheet: leading zeros dropped, digits past 15 lost, a
        # point that is a thousands separator in German.
        ("-0012", "'-0012"),
        ("-1234567890123456", "'-1234567890123456"),
        ("-1.5", "'-1.5"),
        ("-3+cmd|' /C calc'!A0", "'-3+cmd|' /C calc'!A0"),
        ("-3-", "'-3-"),
        ("-\u0663", "'-\u0663"),
        ("=", "'="),
        ('=1+1,"two"\nthree', '\'=1+1,"two"\nthree'),
        ("\t", "'\t"),
    ],
)
def test_formula_cells_are_neutralised_and_others_left_alone(tmp_path, cell, written):
    target = tmp_path / "cards.csv"
    write_csv(target, [cell], [[cell, "x"]])
    assert read_back(target) == [[written], [written, "x"]]


def test_a_formula_cell_that_needs_quoting_is_guarded_inside_the_quotes(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, ["a"], [['=SUM(A1;A2) "x"']], delimiter=";")
    assert target.read_bytes().decode("utf-8-sig") == 'a\r\n"\'=SUM(A1;A2) ""x"""\r\n'


def test_rows_may_come_from_a_generator(tmp_path):
    target = tmp_path / "cards.csv"
    assert write_csv(target, ["n"], ([str(i)] for i in range(25))) == 25
    assert len(read_back(target)) == 26


def test_no_rows_writes_the_header_only(tmp_path):
    target = tmp_path / "cards.csv"
    assert write_csv(target, HEADER, []) == 0
    assert read_back(target) == [HEADER]


def test_text_that_utf8_cannot_hold_is_replaced_not_fatal(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, ["name"], [["bad \ud800 half"]])
    assert read_back(target) == [["name"], ["bad ? half"]]


def test_a_vanished_folder_raises_in_plain_words(tmp_path):
    folder = tmp_path / "gone"
    with pytest.raises(FileNotFoundError, match=r"folder .*gone does not exist") as caught:
        write_csv(folder / "cards.csv", HEADER, [["a", "b", "c"]])
    assert caught.value.errno == errno.ENOENT
    assert "[Errno" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_removed_after_an_export_raises_in_plain_words(tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    write_csv(folder / "cards.csv", HEADER, [])
    (folder / "cards.csv").unlink()
    folder.rmdir()
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_csv(folder / "cards.csv", HEADER, [])


@pytest.fixture
def earlier_export(tmp_path) -> tuple[Path, bytes]:
    """A file exported before, and its bytes: a failed export must leave them as they are."""
    target = tmp_path / "cards.csv"
    write_csv(target, HEADER, [["earlier", "x", "y"]])
    return target, target.read_bytes()


def failing_on_write(failure: OSError):
    """`os.fdopen` whose files raise `failure` when written to (as a full disk does)."""
    real_fdopen = os.fdopen

    class FailingFile:
        def __init__(self, file):
            self._file = file

        def __enter__(self):
            return self

        def __exit__(self, *_exc):
            self._file.close()

        def write(self, _data):
            raise failure

        def __getattr__(self, name):
            return getattr(self._file, name)

    return lambda fd, *args, **kwargs: FailingFile(real_fdopen(fd, *args, **kwargs))


def test_a_full_disk_while_writing_keeps_the_earlier_file(tmp_path, monkeypatch, earlier_export):
    target, before = earlier_export
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "fdopen", failing_on_write(full))
    with pytest.raises(OSError, match=r"^Could not save cards\.csv: the disk is full\.") as caught:
        write_csv(target, HEADER, [["later", "x", "y"]])
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.__cause__ is full
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


def test_a_full_disk_while_flushing_keeps_the_earlier_file(tmp_path, monkeypatch, earlier_export):
    target, before = earlier_export

    def disk_full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="the disk is full"):
        write_csv(target, HEADER, [["later", "x", "y"]])
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


def test_permission_denied_keeps_the_earlier_file(tmp_path, monkeypatch, earlier_export):
    """Root may write anywhere, so the refusal is injected where the file is created."""
    target, before = earlier_export
    real_open = os.open

    def refusing_open(path, flags, mode=0o777, **kwargs):
        if Path(path).parent == tmp_path and Path(path).name.endswith(".tmp"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    with pytest.raises(PermissionError, match="not allowed to write to the folder") as caught:
        write_csv(target, HEADER, [["later", "x", "y"]])
    assert caught.value.errno == errno.EACCES
    assert str(tmp_path) in str(caught.value)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


def test_a_read_only_disk_keeps_the_earlier_file(tmp_path, monkeypatch, earlier_export):
    target, before = earlier_export

    def read_only(_self, _target):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "replace", read_only)
    with pytest.raises(OSError, match="the disk is read-only"):
        write_csv(target, HEADER, [["later", "x", "y"]])
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


def test_any_other_failure_keeps_the_systems_reason(tmp_path, monkeypatch, earlier_export):
    target, before = earlier_export
    monkeypatch.setattr(os, "fdopen", failing_on_write(OSError(errno.EIO, "Input/output error")))
    with pytest.raises(OSError, match=r"cards\.csv: input/output error") as caught:
        write_csv(target, HEADER, [["later", "x", "y"]])
    assert caught.value.errno == errno.EIO
    assert target.read_bytes() == before


def test_a_folder_in_the_way_raises_in_plain_words(tmp_path):
    target = tmp_path / "cards.csv"
    target.mkdir()
    (target / "inside.txt").write_bytes(b"kept")
    with pytest.raises(OSError, match=r"Could not save cards\.csv") as caught:
        write_csv(target, HEADER, [])
    if isinstance(caught.value, IsADirectoryError):  # Windows says "access denied"
        assert "a folder of that name is in the way" in str(caught.value)
    assert (target / "inside.txt").read_bytes() == b"kept"
    assert [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


def test_rows_that_fail_midway_leave_the_earlier_file_untouched(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, HEADER, [["earlier", "x", "y"]])
    before = target.read_bytes()

    def rows() -> Iterator[list[str]]:
        yield ["first", "x", "y"]
        raise RuntimeError("the data ran out")

    with pytest.raises(RuntimeError):
        write_csv(target, HEADER, rows())
    assert target.read_bytes() == before


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="POSIX permissions; root ignores them"
)
def test_a_read_only_folder_raises_and_keeps_the_earlier_file(tmp_path):
    target = tmp_path / "cards.csv"
    write_csv(target, HEADER, [["earlier", "x", "y"]])
    before = target.read_bytes()
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(PermissionError, match="not allowed to write"):
            write_csv(target, HEADER, [["later", "x", "y"]])
    finally:
        tmp_path.chmod(0o700)
    assert target.read_bytes() == before


cells = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.lists(cells, min_size=3, max_size=3), max_size=6))
def test_any_text_reads_back_as_written_apart_from_the_formula_guard(tmp_path, rows):
    target = tmp_path / "any.csv"
    write_csv(target, HEADER, rows)
    guarded = [
        ["'" + c if c[:1] in ("=", "+", "-", "@", "\t", "\r") else c for c in r] for r in rows
    ]
    assert read_back(target) == [HEADER, *guarded]


@pytest.mark.parametrize(
    ("space", "page", "name"),
    [
        ("3f2a9c", 1, "3f2a9c-page-1.csv"),
        ("sales team", 12, "sales team-page-12.csv"),
        ('a/b\\c:d*e?f"g<h>i|j', 2, "a_b_c_d_e_f_g_h_i_j-page-2.csv"),
        ("line\nbreak\ttab\x00", 3, "line_break_tab_-page-3.csv"),
        ("..hidden..", 1, "hidden-page-1.csv"),
        ("   ", 1, "cards-page-1.csv"),
        ("", 4, "cards-page-4.csv"),
        ("Geschäft 東京", 1, "Geschäft 東京-page-1.csv"),
        ("x" * 300, 1, "x" * 150 + "-page-1.csv"),
        ("東" * 100, 1, "東" * 50 + "-page-1.csv"),
    ],
)
def test_suggested_filename(space, page, name):
    assert suggested_filename(space, page) == name


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(space=st.text(max_size=300), page=st.integers(1, 10_000))
def test_a_suggested_filename_can_always_be_created(tmp_path, space, page):
    name = suggested_filename(space, page)
    assert name.endswith(f"-page-{page}.csv")
    assert not re.search(r'[\x00-\x1f\x7f<>:"/\\|?*]', name)
    assert not name.startswith((".", " "))
    target = tmp_path / name
    write_csv(target, ["a"], [])
    assert target.exists()
    target.unlink()
