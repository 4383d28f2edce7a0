"""Any bytes in a local file, and the app still starts: every loader, fed anything.

Each loader of a file the app reads (the settings, the saved session, the
administrator's site file, an avatar file) is given arbitrary bytes and crafted
damage: JSON nested 100,000 deep, a file of 50 MB, NUL bytes, JSON of the wrong types,
a folder or a file that cannot be read in the file's place. Whatever it is given, it
raises nothing, gives what it gives when there is no file, logs one line, and keeps
the damaged file beside as `NAME.damaged` with the bytes it had (the site file, the
administrator's, stays where it is instead).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.services.avatar_disk_cache import SUFFIX, AvatarDiskCache
from cardviewer.services.session_store import SessionStore
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import FILE_NAME, SiteConfig, load_site_config
from cardviewer.services.token_vault import KeyringVault
from tests.properties import examples
from tests.services.keyrings import MemoryKeyring

TOKEN = "tok-3f9a1c-secret"
URL = "https://cdn.example/avatars/a1.jpg"
PICTURE = b"\x89PNG\r\n\x1a\n\x00\x00 picture"
FIFTY_MB = 50 * 1024 * 1024


def picture_file(header: bytes) -> bytes:
    """An avatar file: a header line, then the picture."""
    return header + b"\n" + PICTURE


def json_file(document: bytes) -> bytes:
    return document


@dataclass(frozen=True)
class Loader:
    """How one kind of file is read, and what a damaged one gives."""

    name: str
    file_name: str
    load: Callable[[Path], object]
    empty: Callable[[Path], object]
    """What the loader gives when there is no file."""
    frame: Callable[[bytes], bytes]
    """A file of this kind around a JSON document (an avatar's is its header line)."""
    usable: bytes
    """A file the loader uses; it stays usable with spaces added at its end."""
    wrong: tuple[bytes, ...]
    """JSON objects of the wrong shape for this loader, each with `TOKEN` in it."""
    sets_aside: bool = True

    def path(self, folder: Path) -> Path:
        return folder / self.file_name


def load_session(path: Path) -> object:
    return SessionStore(path, KeyringVault(MemoryKeyring())).load()


SESSION = {
    "version": 2,
    "server_url": "https://api.example.com",
    "email": "ada@example.com",
    "session_id": "sess-42",
    "expires_at": "2030-01-02T03:04:05+00:00",
    "access_token_in": "file",
    "access_token": TOKEN,
}


def session(**changes: object) -> bytes:
    return json.dumps({**SESSION, **changes}).encode()


def avatar_header(**changes: object) -> bytes:
    header = {"url": URL, "etag": None, "last_modified": None, "fresh_until": 1e10}
    return json.dumps({**header, **changes}).encode()


LOADERS = [
    Loader(
        "settings",
        "settings.json",
        load=Settings.load,
        empty=lambda path: Settings(path=path),
        frame=json_file,
        usable=b'{"last_email": "ada@example.com"}',
        wrong=(json.dumps({"last_space": TOKEN + "\x00"}).encode(),),
    ),
    Loader(
        "session",
        "session.json",
        load=load_session,
        empty=lambda path: None,
        frame=json_file,
        usable=session(),
        wrong=(
            session(version="2"),
            session(version=3),
            session(access_token_in="cloud"),
            session(expires_at=1893456000),
            session(email=None),
            session(access_token=TOKEN + "\x00"),
        ),
    ),
    Loader(
        "site",
        FILE_NAME,
        load=lambda path: load_site_config([path]),
        empty=lambda path: SiteConfig(),
        frame=json_file,
        usable=b'{"server_url": "https://cards.example.com"}',
        wrong=(
            json.dumps({"server_url": f"https://{TOKEN}.example\x00"}).encode(),
            json.dumps({"server_url": [TOKEN]}).encode(),
            json.dumps({"server_url": f"https://{TOKEN}.example", "lock_server": "yes"}).encode(),
        ),
        sets_aside=False,
    ),
    Loader(
        "avatar",
        hashlib.sha256(URL.encode()).hexdigest() + SUFFIX,
        load=lambda path: AvatarDiskCache(path.parent).get(URL),
        empty=lambda path: None,
        frame=picture_file,
        usable=picture_file(avatar_header()),
        wrong=(
            avatar_header(etag=TOKEN, fresh_until="soon"),
            avatar_header(url=URL + TOKEN),
            avatar_header(etag=TOKEN + "\x00"),
        ),
    ),
]
ALL = pytest.mark.parametrize("loader", LOADERS, ids=[loader.name for loader in LOADERS])
SETTING_ASIDE = pytest.mark.parametrize(
    "loader", [loader for loader in LOADERS if loader.sets_aside], ids=lambda loader: loader.name
)


class Lines(logging.Handler):
    """The messages of the warnings logged."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def warnings_logged() -> Iterator[list[str]]:
    """The app's warnings while the block runs (caplog is one per test, not per input)."""
    logger = logging.getLogger("cardviewer")
    handler, level = Lines(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def load_damaged(loader: Loader, folder: Path) -> str:
    """Load the damaged file in `folder`: nothing raised, no file's result, one line."""
    path = loader.path(folder)
    with warnings_logged() as lines:
        assert loader.load(path) == loader.empty(path)
    assert len(lines) == 1, lines
    assert TOKEN not in lines[0]
    return lines[0]


def copy_of(loader: Loader, folder: Path) -> Path:
    """Where the damaged file is now: beside, as NAME.damaged (the site file: in place)."""
    path = loader.path(folder)
    if not loader.sets_aside:
        assert sorted(folder.iterdir()) == [path]
        return path
    assert not path.exists()
    assert not path.is_symlink()
    return path.with_name(path.name + ".damaged")


def assert_kept(loader: Loader, folder: Path, content: bytes) -> None:
    copy = copy_of(loader, folder)
    assert copy.read_bytes() == content
    if loader.sets_aside and os.name == "posix":
        assert stat.S_IMODE(copy.stat().st_mode) == 0o600


def is_json_object(content: bytes) -> bool:
    try:
        return isinstance(json.loads(content.decode("utf-8-sig")), dict)
    except (ValueError, RecursionError):
        return False


@ALL
def test_the_usable_files_used_here_are_used(tmp_path: Path, loader: Loader) -> None:
    """Guards the cases below: each differs from a file the loader uses."""
    path = loader.path(tmp_path)
    for content in (loader.usable, loader.usable + b" " * 1000):
        path.write_bytes(content)
        with warnings_logged() as lines:
            assert loader.load(path) != loader.empty(path)
        assert lines == []
        assert sorted(tmp_path.iterdir()) == [path]


@ALL
@settings(max_examples=examples(75), deadline=None)
@given(data=st.data())
def test_any_bytes_give_what_no_file_gives_one_line_and_a_copy(
    loader: Loader, data: st.DataObject
) -> None:
    text = st.text().map(lambda text: text.encode("utf-8"))
    content = data.draw(
        st.one_of(st.binary(), text, st.binary().map(loader.frame), text.map(loader.frame)).filter(
            lambda content: not is_json_object(content)
        ),
        label="content",
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        loader.path(folder).write_bytes(content)
        load_damaged(loader, folder)
        assert_kept(loader, folder, content)


JSON_DAMAGE = {
    "100000-nested-brackets": b"[" * 100_000,
    "3000-nested-objects": b'{"a":' * 3_000,
    "deep-within-the-parser": b'{"a": ' + b"[" * 100 + b"]" * 100 + b"}",
    "a-list": b"[]",
    "text": b'"text"',
    "a-number": b"42",
    "null": b"null",
    "true": b"true",
    "not-utf8": b'{"a": "\xff"}',
    "nul-in-json": b'{"a": 1}\x00',
    "nul-escaped": b'{"a": "\\u0000"}',
    "half-a-utf16-pair": b'{"a": "\\ud800"}',
    "not-a-number": b'{"a": NaN}',
    "a-number-too-large": b'{"a": 1e400}',
    "an-integer-too-long": b'{"a": ' + b"9" * 5_000 + b"}",
}


@ALL
@pytest.mark.parametrize("damage", JSON_DAMAGE.values(), ids=JSON_DAMAGE.keys())
def test_damaged_json(tmp_path: Path, loader: Loader, damage: bytes) -> None:
    content = loader.frame(damage)
    loader.path(tmp_path).write_bytes(content)
    load_damaged(loader, tmp_path)
    assert_kept(loader, tmp_path, content)


@ALL
def test_json_of_the_wrong_shape(tmp_path: Path, loader: Loader) -> None:
    for content in map(loader.frame, loader.wrong):
        assert TOKEN.encode() in content
        with tempfile.TemporaryDirectory(dir=tmp_path) as name:
            folder = Path(name)
            loader.path(folder).write_bytes(content)
            load_damaged(loader, folder)
            assert_kept(loader, folder, content)


@ALL
@pytest.mark.parametrize(
    "content",
    [b"\x00" * 1_000, b"\x00", bytes(range(256))],
    ids=["nul-bytes", "one-nul", "every-byte"],
)
def test_binary_noise(tmp_path: Path, loader: Loader, content: bytes) -> None:
    loader.path(tmp_path).write_bytes(content)
    load_damaged(loader, tmp_path)
    assert_kept(loader, tmp_path, content)


@ALL
def test_a_file_of_50_mb_is_not_read_whole(tmp_path: Path, loader: Loader) -> None:
    """Usable but for its size: only the start is read, and the file is kept whole."""
    content = loader.usable.ljust(FIFTY_MB)
    loader.path(tmp_path).write_bytes(content)
    assert "larger than" in load_damaged(loader, tmp_path)
    copy = copy_of(loader, tmp_path)
    assert copy.stat().st_size == FIFTY_MB
    assert copy.read_bytes() == content


@ALL
def test_a_folder_in_place_of_the_file(tmp_path: Path, loader: Loader) -> None:
    path = loader.path(tmp_path)
    path.mkdir()
    (path / "inside").write_bytes(b"kept")
    load_damaged(loader, tmp_path)
    assert (copy_of(loader, tmp_path) / "inside").read_bytes() == b"kept"


@ALL
@pytest.mark.skipif(os.name != "posix", reason="symbolic links as POSIX has them")
def test_a_file_that_cannot_be_read(tmp_path: Path, loader: Loader) -> None:
    """A link to itself cannot be opened, by root either (permissions do not stop root)."""
    path = loader.path(tmp_path)
    path.symlink_to(path.name)
    assert "cannot be read" in load_damaged(loader, tmp_path)
    assert copy_of(loader, tmp_path).is_symlink()


@ALL
@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="POSIX permissions; root ignores them"
)
def test_a_file_without_read_permission(tmp_path: Path, loader: Loader) -> None:
    path = loader.path(tmp_path)
    path.write_bytes(loader.usable)
    path.chmod(0)
    assert "cannot be read" in load_damaged(loader, tmp_path)
    copy = copy_of(loader, tmp_path)
    copy.chmod(0o600)
    assert copy.read_bytes() == loader.usable


@SETTING_ASIDE
def test_a_second_damaged_file_keeps_the_first_copy(tmp_path: Path, loader: Loader) -> None:
    path = loader.path(tmp_path)
    path.write_bytes(b"first damage")
    load_damaged(loader, tmp_path)
    path.write_bytes(b"second damage")
    assert f"{path.name}.damaged-2" in load_damaged(loader, tmp_path)
    assert path.with_name(path.name + ".damaged").read_bytes() == b"first damage"
    assert path.with_name(path.name + ".damaged-2").read_bytes() == b"second damage"
