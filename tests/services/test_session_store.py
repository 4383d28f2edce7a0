"""The saved session: the token in the keyring or the private file, privacy, and every
damaged file read as "none"."""

import dataclasses
import json
import logging
import os
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from keyring.backends import chainer, fail, null

from cardviewer.api import CardsClient
from cardviewer.api.models import Session
from cardviewer.paths import config_dir
from cardviewer.services.session_store import MAX_FILE_BYTES, SessionStore, StoredSession
from cardviewer.services.token_vault import KeyringVault
from tests.services.keyrings import (
    ForgetfulKeyring,
    LockedKeyring,
    MemoryKeyring,
    use_as_system_keyring,
)

TOKEN = "tok-3f9a1c-secret"
EXPIRES = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
KEYRING_ENTRY = ("CardViewer", "access-token")
LOGGER = "cardviewer.services.session_store"


def stored(**changes: Any) -> StoredSession:
    base = StoredSession(
        server_url="https://api.example.com",
        email="ada@example.com",
        access_token=TOKEN,
        session_id="sess-42",
        expires_at=EXPIRES,
    )
    return dataclasses.replace(base, **changes)


WITHOUT_TOKEN = {
    "version": 2,
    "server_url": "https://api.example.com",
    "email": "ada@example.com",
    "session_id": "sess-42",
    "expires_at": "2030-01-02T03:04:05+00:00",
    "access_token_in": "keyring",
}
WITH_TOKEN = {**WITHOUT_TOKEN, "access_token_in": "file", "access_token": TOKEN}
VERSION_1 = {
    "version": 1,
    "server_url": "https://api.example.com",
    "email": "ada@example.com",
    "access_token": TOKEN,
    "session_id": "sess-42",
    "expires_at": "2030-01-02T03:04:05+00:00",
}


def damaged(base: dict[str, Any] = WITH_TOKEN, **changes: Any) -> bytes:
    """A valid file with some values changed; a value of `...` removes the key."""
    document = {**base, **changes}
    return json.dumps({k: v for k, v in document.items() if v is not ...}).encode()


@pytest.fixture(autouse=True)
def system_keyring():
    """The system keyring of every test here: in memory, never the machine's own."""
    yield from use_as_system_keyring(MemoryKeyring())


@pytest.fixture
def keyring_backend():
    return MemoryKeyring()


@pytest.fixture
def store(tmp_path, keyring_backend):
    """A store whose token goes to a working keyring."""
    return SessionStore(tmp_path / "session.json", KeyringVault(keyring_backend))


@pytest.fixture
def file_store(tmp_path):
    """A store on a system without a usable keyring: the token goes to the file."""
    return SessionStore(tmp_path / "session.json", KeyringVault(fail.Keyring()))


@pytest.fixture(params=["keyring", "file"])
def any_store(request, store, file_store):
    return store if request.param == "keyring" else file_store


def read_document(store: SessionStore) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(store.path.read_text(encoding="utf-8"))
    return document


# Either place


def test_nothing_saved_loads_as_none(any_store):
    assert any_store.load() is None


def test_a_saved_session_loads_back_equal(any_store):
    session = stored(expires_at=datetime(2030, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=2))))
    any_store.save(session)
    assert any_store.load() == session


def test_another_store_on_the_same_file_loads_it(any_store):
    any_store.save(stored())
    assert SessionStore(any_store.path, any_store.vault).load() == stored()


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_file_is_readable_by_this_user_only(any_store):
    any_store.save(stored())
    assert stat.S_IMODE(any_store.path.stat().st_mode) == 0o600


def test_saving_again_replaces_the_session(any_store):
    any_store.save(stored())
    any_store.save(stored(access_token="tok-2", email="grace@example.com"))
    loaded = any_store.load()
    assert loaded is not None
    assert (loaded.access_token, loaded.email) == ("tok-2", "grace@example.com")
    assert TOKEN not in any_store.path.read_text(encoding="utf-8")


def test_clear_forgets_the_session_and_tolerates_nothing_saved(any_store):
    any_store.clear()
    any_store.save(stored())
    any_store.clear()
    assert not any_store.path.exists()
    assert any_store.load() is None


def test_save_creates_a_missing_folder(tmp_path, keyring_backend):
    store = SessionStore(tmp_path / "new" / "session.json", KeyringVault(keyring_backend))
    store.save(stored())
    assert store.load() == stored()


# In the keyring


def test_with_a_keyring_the_file_holds_no_token(store, keyring_backend):
    store.save(stored())
    assert read_document(store) == WITHOUT_TOKEN
    assert TOKEN.encode() not in store.path.read_bytes()
    assert keyring_backend.secrets == {KEYRING_ENTRY: TOKEN}


def test_saving_again_replaces_the_keyring_entry(store, keyring_backend):
    store.save(stored())
    store.save(stored(access_token="tok-2"))
    assert keyring_backend.secrets == {KEYRING_ENTRY: "tok-2"}


def test_clear_also_deletes_the_keyring_entry(store, keyring_backend):
    store.save(stored())
    store.clear()
    assert keyring_backend.secrets == {}
    assert not store.path.exists()


def test_a_missing_keyring_entry_means_no_session(store, keyring_backend, caplog):
    store.save(stored())
    keyring_backend.secrets.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert store.load() is None
    assert any(
        "keyring no longer has the token" in r.getMessage() and str(store.path) in r.getMessage()
        for r in caplog.records
    )


def test_a_keyring_that_is_gone_since_the_save_means_no_session(store, caplog):
    store.save(stored())
    later = SessionStore(store.path, KeyringVault(fail.Keyring()))
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert later.load() is None
    assert any("cannot be used now" in r.getMessage() for r in caplog.records)


def test_a_keyring_that_fails_to_read_means_no_session(store, caplog):
    store.save(stored())
    later = SessionStore(store.path, KeyringVault(LockedKeyring()))
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert later.load() is None
    assert any("KeyringLocked" in r.getMessage() for r in caplog.records)


def test_the_default_store_uses_the_system_keyring_and_config_folder(system_keyring):
    store = SessionStore()
    assert store.path == config_dir() / "session.json"
    store.save(stored())
    assert system_keyring.secrets == {KEYRING_ENTRY: TOKEN}
    assert SessionStore().load() == stored()


def test_a_real_login_is_saved_without_password_or_token_in_the_file(
    demo_server, arun, store, keyring_backend
):
    async def sign_in() -> Session:
        async with CardsClient(demo_server.base_url) as client:
            return await client.login(demo_server.email, demo_server.password)

    session = arun(sign_in())
    store.save(StoredSession.from_session(demo_server.base_url, demo_server.email, session))

    text = store.path.read_text(encoding="utf-8")
    document = json.loads(text)
    assert set(document) == set(WITHOUT_TOKEN)
    assert demo_server.password not in document.values()
    assert session.access_token not in text
    assert keyring_backend.secrets == {KEYRING_ENTRY: session.access_token}
    loaded = store.load()
    assert loaded is not None
    assert loaded.access_token == session.access_token
    assert not loaded.is_expired()


# In the file, when no keyring can keep it


def test_without_a_keyring_the_token_is_in_the_file(file_store, caplog):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        file_store.save(stored())
    assert read_document(file_store) == WITH_TOKEN
    assert not caplog.records, "an absent keyring is normal, not worth a warning"


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param(fail.Keyring(), id="fail"),
        pytest.param(null.Keyring(), id="null"),
        pytest.param(LockedKeyring(), id="locked"),
        pytest.param(ForgetfulKeyring(), id="keeps-nothing"),
    ],
)
def test_a_keyring_that_cannot_keep_the_token_leaves_it_in_the_file(tmp_path, backend):
    store = SessionStore(tmp_path / "session.json", KeyringVault(backend))
    store.save(stored())
    assert read_document(store) == WITH_TOKEN
    assert store.load() == stored()


def test_a_chainer_with_nothing_to_chain_leaves_the_token_in_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    store = SessionStore(tmp_path / "session.json", KeyringVault(chainer.ChainerBackend()))
    store.save(stored())
    assert read_document(store) == WITH_TOKEN


def test_a_keyring_that_starts_failing_loses_its_old_token(store, keyring_backend, caplog):
    store.save(stored(access_token="tok-old"))
    keyring_backend.fail_writes = True
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        store.save(stored())
    assert keyring_backend.secrets == {}
    assert read_document(store) == WITH_TOKEN
    assert store.load() == stored()
    assert any("cannot keep the token" in r.getMessage() for r in caplog.records)
    assert not any(TOKEN in r.getMessage() for r in caplog.records)


def test_a_locked_keyring_does_not_stop_clear(tmp_path, caplog):
    store = SessionStore(tmp_path / "session.json", KeyringVault(LockedKeyring()))
    store.save(stored())
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        store.clear()
    assert not store.path.exists()
    assert any("Cannot remove the token" in r.getMessage() for r in caplog.records)


# Version 1 and where the token is


def test_a_version_1_file_is_still_read(store, keyring_backend):
    store.path.write_bytes(damaged(VERSION_1))
    assert store.load() == stored()
    assert keyring_backend.secrets == {}


def test_a_version_1_file_moves_the_token_to_the_keyring_at_the_next_save(store, keyring_backend):
    store.path.write_bytes(damaged(VERSION_1))
    session = store.load()
    assert session is not None
    store.save(session)
    assert read_document(store) == WITHOUT_TOKEN
    assert keyring_backend.secrets == {KEYRING_ENTRY: TOKEN}


def test_a_loaded_token_comes_from_where_the_file_says(store, keyring_backend):
    store.save(stored())
    fresh = SessionStore(store.path, KeyringVault(keyring_backend))
    assert fresh.load() == stored()
    store.path.write_bytes(damaged(access_token="tok-in-the-file"))
    assert fresh.load() == stored(access_token="tok-in-the-file")
    assert keyring_backend.secrets == {KEYRING_ENTRY: TOKEN}


# Other fields


def test_repr_never_shows_the_token():
    assert TOKEN not in repr(stored())
    assert "ada@example.com" in repr(stored())


def test_expiry_is_judged_against_now_or_a_given_moment():
    session = stored(expires_at=EXPIRES)
    assert not session.is_expired(EXPIRES - timedelta(seconds=1))
    assert session.is_expired(EXPIRES)
    assert stored(expires_at=datetime.now(UTC) - timedelta(minutes=1)).is_expired()
    assert not stored(expires_at=datetime.now(UTC) + timedelta(hours=1)).is_expired()


def test_from_session_copies_what_login_returned():
    session = Session(access_token=TOKEN, session_id="sess-42", expires_at=EXPIRES)
    assert StoredSession.from_session("https://api.example.com", "ada@example.com", session) == (
        stored()
    )


# Damaged files


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"not json at all", id="not-json"),
        pytest.param(damaged()[:40], id="truncated"),
        pytest.param(damaged(VERSION_1)[:-1], id="truncated-at-the-end"),
        pytest.param(b"\xff\xfe\x00garbage", id="not-utf8"),
        pytest.param(bytes(range(256)), id="binary"),
        pytest.param(b"\x00" * 64, id="zeros"),
        pytest.param(b"[1, 2, 3]", id="a-list"),
        pytest.param(b'"session"', id="a-string"),
        pytest.param(b"null", id="null"),
        pytest.param(b"{}", id="empty-object"),
        pytest.param(b'{"theme": "dark", "token": "x"}', id="foreign-shape"),
        pytest.param(damaged(version=...), id="no-version"),
        pytest.param(damaged(version=3), id="newer-version"),
        pytest.param(damaged(version="2"), id="text-version"),
        pytest.param(damaged(version=True), id="true-version"),
        pytest.param(damaged(version=2.0), id="fraction-version"),
        pytest.param(damaged(VERSION_1, access_token=...), id="v1-no-token"),
        pytest.param(damaged(VERSION_1, access_token_in="keyring", access_token=...), id="v1-kr"),
        pytest.param(damaged(access_token=...), id="no-token"),
        pytest.param(damaged(access_token=""), id="blank-token"),
        pytest.param(damaged(access_token="  "), id="spaces-token"),
        pytest.param(damaged(access_token=123), id="number-token"),
        pytest.param(damaged(access_token_in=...), id="no-token-place"),
        pytest.param(damaged(access_token_in="cloud"), id="unknown-token-place"),
        pytest.param(damaged(access_token_in=["file"]), id="list-token-place"),
        pytest.param(damaged(server_url=None), id="null-server"),
        pytest.param(damaged(server_url=""), id="blank-server"),
        pytest.param(damaged(email=["ada@example.com"]), id="list-email"),
        pytest.param(damaged(session_id={"id": 1}), id="object-session-id"),
        pytest.param(damaged(WITHOUT_TOKEN, session_id=...), id="no-session-id"),
        pytest.param(damaged(expires_at=...), id="no-expiry"),
        pytest.param(damaged(expires_at="tomorrow"), id="word-expiry"),
        pytest.param(damaged(expires_at=1893456000), id="number-expiry"),
        pytest.param(damaged(expires_at="2030-01-02T03:04:05"), id="expiry-without-zone"),
        pytest.param(b"[" * 100_000, id="nested-brackets"),
        pytest.param(damaged(server_url="::not an address"), id="server-no-address"),
        pytest.param(damaged(server_url="http://cards.example.com"), id="server-plain-http"),
        pytest.param(damaged(access_token=f"{TOKEN}\r\nX-Injected: 1"), id="token-two-lines"),
        pytest.param(damaged(access_token=f"{TOKEN}é"), id="token-not-ascii"),
        pytest.param(damaged(session_id="sess\u0000"), id="nul-in-text"),
        pytest.param(damaged().ljust(MAX_FILE_BYTES + 1), id="too-large"),
    ],
)
def test_a_damaged_file_is_kept_beside_with_a_warning_and_replaced_at_the_next_save(
    store, caplog, content
):
    store.path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert store.load() is None
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert str(store.path) in warning
    assert not any(TOKEN in r.getMessage() for r in caplog.records)
    copy = store.path.with_name("session.json.damaged")
    assert copy.read_bytes() == content
    store.save(stored())
    assert store.load() == stored()
    assert copy.read_bytes() == content


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_damaged_file_with_a_token_is_kept_private(store):
    store.path.write_bytes(damaged(version=3))
    store.path.chmod(0o644)
    assert store.load() is None
    copy = store.path.with_name("session.json.damaged")
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600


def test_a_folder_in_place_of_the_file_is_set_aside_with_a_warning(store, caplog):
    store.path.mkdir()
    (store.path / "keep.txt").write_text("kept", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert store.load() is None
    assert any(
        r.levelno == logging.WARNING and str(store.path) in r.getMessage() for r in caplog.records
    )
    assert (store.path.with_name("session.json.damaged") / "keep.txt").exists()
    store.save(stored())
    assert store.load() == stored()


def test_an_empty_folder_in_place_of_the_file_is_replaced_at_the_next_save(store):
    store.path.mkdir()
    store.save(stored())
    assert store.path.is_file()
    assert store.load() == stored()


def test_a_folder_with_content_in_place_of_the_file_is_left_alone(store):
    store.path.mkdir()
    (store.path / "keep.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(OSError):  # noqa: PT011 - the kind differs per platform
        store.save(stored())
    assert (store.path / "keep.txt").read_text(encoding="utf-8") == "kept"
    assert sorted(p.name for p in store.path.parent.iterdir()) == ["session.json"]


@pytest.mark.parametrize("document", [WITH_TOKEN, WITHOUT_TOKEN, VERSION_1])
def test_the_valid_documents_used_above_do_load(store, keyring_backend, document):
    """Guards the damaged-file cases: each differs from a file that works."""
    keyring_backend.secrets[KEYRING_ENTRY] = TOKEN
    store.path.write_bytes(damaged(document))
    assert store.load() == stored()


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(damaged(access_token_in="cloud"), id="unknown-token-place"),
        pytest.param(damaged(access_token_in=["keyring"]), id="list-token-place"),
        pytest.param(damaged(access_token_in=...), id="no-token-place"),
        pytest.param(damaged(WITHOUT_TOKEN, access_token_in="Keyring"), id="other-case"),
    ],
)
def test_a_file_that_names_no_known_token_place_ignores_the_keyring(
    store, keyring_backend, content
):
    """Only `"access_token_in": "keyring"` takes the token from the keyring, even if it has one."""
    keyring_backend.secrets[KEYRING_ENTRY] = TOKEN
    store.path.write_bytes(content)
    assert store.load() is None


def test_the_file_is_indented_json_ending_in_a_newline(store):
    """The file is the documented layout: JSON indented by two spaces, then a newline."""
    store.save(stored())
    assert store.path.read_text(encoding="utf-8") == json.dumps(WITHOUT_TOKEN, indent=2) + "\n"


def test_a_stored_session_cannot_be_changed_and_can_be_a_key():
    """A stored session is a frozen value: equal ones hash alike, and no field can be set."""
    assert hash(stored()) == hash(stored())
    assert len({stored(), stored(), stored(email="grace@example.com")}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        stored().email = "grace@example.com"  # type: ignore[misc]


def test_importing_the_store_does_not_import_pydantic():
    """Deciding whether a session is saved must not import pydantic or the API models."""
    code = (
        "import sys, cardviewer.services.session_store\n"
        "print(sorted(m for m in ('pydantic', 'cardviewer.api.models') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_session_file_of_up_to_64_kib_is_read(store):
    """The limit written out: the constant is what is tested (a real file is ~1 KiB)."""
    assert MAX_FILE_BYTES == 65_536
    store.save(stored())
    content = store.path.read_bytes()
    store.path.write_bytes(content.ljust(65_536))
    assert store.load() == stored()
    store.path.write_bytes(content.ljust(65_537))
    assert store.load() is None
