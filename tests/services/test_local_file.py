"""Reading the app's own files: bounded, any content survived, a damaged file set aside."""

from __future__ import annotations

import errno
import importlib.util
import logging
import os
import stat
from pathlib import Path

import pytest

from cardviewer.services import local_file
from cardviewer.services.local_file import (
    MAX_NESTING,
    DamagedFile,
    LocalFile,
    parse_json_object,
    read_bounded,
    set_aside,
)

LOGGER = "cardviewer.services.local_file"
POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "file.json"


@pytest.fixture(autouse=True)
def warnings_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def nested(depth: int) -> bytes:
    """A JSON object nesting `depth` deep: the object, then lists in it."""
    return b'{"a": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"


# Reading a bounded size


def test_no_file_is_none(path: Path) -> None:
    assert read_bounded(path, 10) is None


def test_a_file_whose_folder_is_a_file_is_none(path: Path) -> None:
    path.write_bytes(b"{}")
    assert read_bounded(path / "inside.json", 10) is None


def test_a_file_of_the_limit_is_read_and_one_byte_more_is_damaged(path: Path) -> None:
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, 100) == b"x" * 100
    path.write_bytes(b"x" * 101)
    with pytest.raises(DamagedFile, match="larger than 100 bytes"):
        read_bounded(path, 100)


def test_an_empty_file_is_read(path: Path) -> None:
    path.write_bytes(b"")
    assert read_bounded(path, 100) == b""


def test_a_folder_is_damaged(path: Path) -> None:
    path.mkdir()
    with pytest.raises(DamagedFile):
        read_bounded(path, 100)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_damaged_without_waiting_for_a_writer(path: Path) -> None:
    os.mkfifo(path)
    with pytest.raises(DamagedFile, match="not a regular file"):
        read_bounded(path, 100)


def test_a_system_without_non_blocking_opens_reads_a_file_all_the_same(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Windows: the module loaded afresh where `os` has no `O_NONBLOCK`."""
    monkeypatch.delattr(os, "O_NONBLOCK", raising=False)
    spec = importlib.util.spec_from_file_location("local_file_elsewhere", local_file.__file__)
    assert spec is not None
    assert spec.loader is not None
    elsewhere = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(elsewhere)
    path.write_bytes(b'{"a": 1}')
    assert elsewhere.read_bounded(path, 100) == b'{"a": 1}'
    assert path.read_bytes() == b'{"a": 1}'


@POSIX
def test_a_link_to_itself_cannot_be_read_and_is_damaged(path: Path) -> None:
    """A file that cannot be read, even by root (which permissions do not stop)."""
    path.symlink_to(path)
    with pytest.raises(DamagedFile) as raised:
        read_bounded(path, 100)
    assert str(raised.value) == f"it cannot be read: {os.strerror(errno.ELOOP)}"


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="POSIX permissions; root ignores them"
)
def test_a_file_that_cannot_be_read_is_damaged(path: Path) -> None:
    path.write_bytes(b"{}")
    path.chmod(0)
    with pytest.raises(DamagedFile, match="cannot be read"):
        read_bounded(path, 100)


# Any content into a JSON object or a reason


def test_a_json_object_is_parsed() -> None:
    assert parse_json_object(b'{"a": [1, 2.5, "x", null, true]}') == {
        "a": [1, 2.5, "x", None, True]
    }


def test_text_beyond_ascii_is_read() -> None:
    content = '{"name": "Zoë 😀", "pair": "\\ud83d\\ude00"}'.encode()
    assert parse_json_object(content) == {"name": "Zoë 😀", "pair": "😀"}


def test_a_byte_order_mark_only_where_allowed() -> None:
    with pytest.raises(DamagedFile, match="not JSON"):
        parse_json_object(b'\xef\xbb\xbf{"a": 1}')
    assert parse_json_object(b'\xef\xbb\xbf{"a": 1}', allow_bom=True) == {"a": 1}
    with pytest.raises(TypeError):
        parse_json_object(b'\xef\xbb\xbf{"a": 1}', True)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        pytest.param(b"\xff\xfe{}", "not UTF-8", id="not-utf8"),
        pytest.param(b"", "not JSON", id="empty"),
        pytest.param(b'{"a": ', "not JSON", id="truncated"),
        pytest.param(b'{"a": 1}\x00', "not JSON", id="nul-after"),
        pytest.param(b'{"a": "\x00"}', "not JSON", id="raw-nul-in-text"),
        pytest.param(b"[]", "not a JSON object", id="list"),
        pytest.param(b'"text"', "not a JSON object", id="text"),
        pytest.param(b"42", "not a JSON object", id="number"),
        pytest.param(b"null", "not a JSON object", id="null"),
        pytest.param(b'{"a": "x\\u0000y"}', "NUL", id="nul-in-value"),
        pytest.param(b'{"a\\u0000": 1}', "NUL", id="nul-in-key"),
        pytest.param(b'{"a": ["\\u0000"]}', "NUL", id="nul-in-list"),
        pytest.param(b'{"a": "\\u0000", "b": "text"}', "NUL", id="nul-before-a-text"),
        pytest.param(b'{"a": "\\ud800"}', "UTF-16", id="half-a-pair"),
        pytest.param(b'{"\\udfff": 1}', "UTF-16", id="half-a-pair-in-a-key"),
        pytest.param(b'{"a": NaN}', "number", id="nan"),
        pytest.param(b'{"a": -Infinity}', "number", id="infinity"),
        pytest.param(b'{"a": 1e400}', "number", id="too-large-float"),
        pytest.param(b'{"a": ' + b"9" * 5000 + b"}", "number", id="too-long-integer"),
        pytest.param(b"[" * 100_000, "deeper", id="100000-brackets"),
        pytest.param(b'{"a":' * 100_000, "deeper", id="100000-objects"),
        pytest.param(nested(500), "deeper", id="500-deep"),
    ],
)
def test_anything_but_a_json_object_is_damaged_and_says_why(content: bytes, reason: str) -> None:
    with pytest.raises(DamagedFile, match=reason):
        parse_json_object(content)


def test_nesting_up_to_the_limit_is_read() -> None:
    assert parse_json_object(nested(32))
    with pytest.raises(DamagedFile, match="deeper than 32 levels"):
        parse_json_object(nested(33))
    with pytest.raises(DamagedFile, match="deeper"):
        parse_json_object(b'{"a": ' + b'{"a": ' * MAX_NESTING + b"1" + b"}" * (MAX_NESTING + 1))


def test_a_reason_never_repeats_the_content() -> None:
    secret = b"tok-3f9a1c-secret"
    for content in (
        b'{"t": "' + secret,
        b'["' + secret + b'"]',
        b'{"t": "' + secret + b'\\u0000"}',
    ):
        with pytest.raises(DamagedFile) as raised:
            parse_json_object(content)
        assert secret.decode() not in str(raised.value)


# Setting a damaged file aside


def test_a_damaged_file_is_kept_beside_with_one_line_in_the_log(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path.write_bytes(b"damaged")
    copy = set_aside(path, DamagedFile("it is not JSON"), what="the test file", instead="X")
    assert copy == path.with_name("file.json.damaged")
    assert copy.read_bytes() == b"damaged"
    assert not path.exists()
    (line,) = lines(caplog)
    assert line == (
        f"The test file {path} is damaged: it is not JSON; it is kept as file.json.damaged and X"
    )


def test_an_earlier_copy_is_never_replaced(path: Path) -> None:
    copies = []
    for number in range(1, 11):
        path.write_bytes(b"damage %d" % number)
        copies.append(set_aside(path, DamagedFile("damaged"), what="it", instead="so"))
    assert [copy.name for copy in copies if copy is not None] == [
        "file.json.damaged",
        *(f"file.json.damaged-{number}" for number in range(2, 11)),
    ]
    for number, copy in enumerate(copies, start=1):
        assert copy is not None
        assert copy.read_bytes() == b"damage %d" % number


def test_past_the_last_copy_the_file_stays_and_the_line_says_so(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for _ in range(10):
        path.write_bytes(b"kept")
        set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    caplog.clear()
    path.write_bytes(b"one too many")
    assert set_aside(path, DamagedFile("damaged"), what="the file", instead="so") is None
    assert path.read_bytes() == b"one too many"
    assert len(list(path.parent.iterdir())) == 11
    assert lines(caplog) == [
        f"The file {path} is damaged: damaged; it cannot be set aside"
        " (10 damaged copies are kept already) and stays where it is; so"
    ]


def test_the_what_and_the_instead_are_given_by_name(path: Path) -> None:
    path.write_bytes(b"damaged")
    with pytest.raises(TypeError):
        set_aside(path, DamagedFile("damaged"), "it", "so")  # type: ignore[call-arg]
    assert path.read_bytes() == b"damaged"


def test_a_name_taken_by_a_folder_or_link_is_not_replaced(path: Path) -> None:
    first = path.with_name("file.json.damaged")
    first.mkdir()
    (path.parent / "file.json.damaged-2").symlink_to(path.parent / "elsewhere")
    path.write_bytes(b"damaged")
    copy = set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    assert copy == path.with_name("file.json.damaged-3")
    assert first.is_dir()


def test_a_folder_in_place_of_the_file_is_set_aside(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_bytes(b"kept")
    copy = set_aside(path, DamagedFile("it is not a regular file"), what="it", instead="so")
    assert copy is not None
    assert (copy / "inside").read_bytes() == b"kept"
    assert not path.exists()


@POSIX
def test_the_copy_is_private_whatever_the_file_was(path: Path) -> None:
    path.write_bytes(b"damaged")
    path.chmod(0o644)
    copy = set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    assert copy is not None
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600


@POSIX
def test_a_copy_that_cannot_be_made_private_is_kept_all_the_same(
    path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """As a file left by a run as root: its owner alone may change its mode."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    path.write_bytes(b"damaged")
    monkeypatch.setattr(os, "chmod", refuse)
    copy = set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    assert copy == path.with_name("file.json.damaged")
    assert copy.read_bytes() == b"damaged"
    assert len(lines(caplog)) == 1


def test_without_posix_permissions_the_copy_keeps_its_mode(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Windows, whose `chmod` only sets or clears a read-only flag."""
    path.write_bytes(b"damaged")
    path.chmod(0o644)
    mode = stat.S_IMODE(path.stat().st_mode)
    monkeypatch.setattr(os, "name", "nt")
    copy = set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    monkeypatch.undo()
    assert copy is not None
    assert stat.S_IMODE(copy.stat().st_mode) == mode


@POSIX
def test_a_folder_set_aside_is_private(path: Path) -> None:
    path.mkdir(mode=0o755)
    path.chmod(0o755)
    copy = set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    assert copy is not None
    assert stat.S_IMODE(copy.stat().st_mode) == 0o700


@POSIX
def test_a_link_set_aside_leaves_its_target_alone(path: Path, tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_bytes(b"damaged")
    target.chmod(0o644)
    path.symlink_to(target)
    copy = set_aside(path, DamagedFile("damaged"), what="it", instead="so")
    assert copy is not None
    assert copy.is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


# Together


def parse_number(content: bytes) -> int:
    document = parse_json_object(content)
    if not isinstance(document.get("n"), int):
        raise DamagedFile("'n' is no number")
    return int(document["n"])


def load(path: Path) -> int | None:
    return LocalFile("the file", 100, "so").load(path, parse_number)


def test_a_usable_file_is_parsed_and_stays(path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path.write_bytes(b'{"n": 7}')
    assert load(path) == 7
    assert path.read_bytes() == b'{"n": 7}'
    assert not lines(caplog)


def test_no_file_is_none_without_a_word(path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert load(path) is None
    assert not lines(caplog)
    assert not list(path.parent.iterdir())


@pytest.mark.parametrize(
    "content",
    [b'{"n": "7"}', b"[7]", b'{"n": 7}' + b" " * 100],
    ids=["the-parser-refuses", "not-an-object", "too-large"],
)
def test_a_damaged_file_is_set_aside_with_one_line(
    path: Path, caplog: pytest.LogCaptureFixture, content: bytes
) -> None:
    path.write_bytes(content)
    assert load(path) is None
    assert path.with_name("file.json.damaged").read_bytes() == content
    assert not path.exists()
    assert len(lines(caplog)) == 1
    assert caplog.records[0].name == LOGGER


def test_an_error_that_is_not_damage_is_not_swallowed(path: Path) -> None:
    def broken(content: bytes) -> int:
        raise RuntimeError("a mistake in the program")

    path.write_bytes(b"{}")
    with pytest.raises(RuntimeError):
        LocalFile("it", 100, "so").load(path, broken)
    assert path.exists()
