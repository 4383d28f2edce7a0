"""The saved session: round trip, privacy, and every damaged file read as "none"."""

import dataclasses
import json
import logging
import os
import stat
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from cardviewer.api import CardsClient
from cardviewer.api.models import Session
from cardviewer.paths import config_dir
from cardviewer.services.session_store import SessionStore, StoredSession

TOKEN = "tok-3f9a1c-secret"
EXPIRES = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


def stored(**changes: Any) -> StoredSession:
    base = StoredSession(
        server_url="https://api.example.com",
        email="ada@example.com",
        access_token=TOKEN,
        session_id="sess-42",
        expires_at=EXPIRES,
    )
    return dataclasses.replace(base, **changes)


VALID = {
    "version": 1,
    "server_url": "https://api.example.com",
    "email": "ada@example.com",
    "access_token": TOKEN,
    "session_id": "sess-42",
    "expires_at": "2030-01-02T03:04:05+00:00",
}


def damaged(**changes: Any) -> bytes:
    """The valid file with some values changed; a value of `...` removes the key."""
    document = {**VALID, **changes}
    return json.dumps({k: v for k, v in document.items() if v is not ...}).encode()


@pytest.fixture
def store(tmp_path):
    return SessionStore(tmp_path / "session.json")


def test_nothing_saved_loads_as_none(store):
    assert store.load() is None


def test_a_saved_session_loads_back_equal(store):
    session = stored(expires_at=datetime(2030, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=2))))
    store.save(session)
    assert store.load() == session


def test_the_file_is_the_documented_json(store):
    store.save(stored())
    assert json.loads(store.path.read_text(encoding="utf-8")) == VALID


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_file_is_readable_by_this_user_only(store):
    store.save(stored())
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600


def test_saving_again_replaces_the_session(store):
    store.save(stored())
    store.save(stored(access_token="tok-2", email="grace@example.com"))
    loaded = store.load()
    assert loaded is not None
    assert (loaded.access_token, loaded.email) == ("tok-2", "grace@example.com")


def test_clear_forgets_the_session_and_tolerates_nothing_saved(store):
    store.clear()
    store.save(stored())
    store.clear()
    assert not store.path.exists()
    assert store.load() is None


def test_default_location_is_the_config_folder():
    store = SessionStore()
    assert store.path == config_dir() / "session.json"
    store.save(stored())
    assert SessionStore().load() == stored()


def test_save_creates_a_missing_folder(tmp_path):
    store = SessionStore(tmp_path / "new" / "session.json")
    store.save(stored())
    assert store.load() == stored()


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


def test_a_real_login_is_saved_without_the_password(demo_server, arun, store):
    async def sign_in() -> Session:
        async with CardsClient(demo_server.base_url) as client:
            return await client.login(demo_server.email, demo_server.password)

    session = arun(sign_in())
    store.save(StoredSession.from_session(demo_server.base_url, demo_server.email, session))

    document = json.loads(store.path.read_text(encoding="utf-8"))
    assert set(document) == set(VALID)
    assert demo_server.password not in document.values()
    loaded = store.load()
    assert loaded is not None
    assert loaded.access_token == session.access_token
    assert not loaded.is_expired()


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"not json at all", id="not-json"),
        pytest.param(damaged()[:40], id="truncated"),
        pytest.param(b"\xff\xfe\x00garbage", id="not-utf8"),
        pytest.param(b"[1, 2, 3]", id="a-list"),
        pytest.param(b"null", id="null"),
        pytest.param(b"{}", id="empty-object"),
        pytest.param(b'{"theme": "dark", "token": "x"}', id="foreign-shape"),
        pytest.param(damaged(version=...), id="no-version"),
        pytest.param(damaged(version=2), id="newer-version"),
        pytest.param(damaged(access_token=...), id="no-token"),
        pytest.param(damaged(access_token=""), id="blank-token"),
        pytest.param(damaged(access_token=123), id="number-token"),
        pytest.param(damaged(server_url=None), id="null-server"),
        pytest.param(damaged(email=["ada@example.com"]), id="list-email"),
        pytest.param(damaged(expires_at=...), id="no-expiry"),
        pytest.param(damaged(expires_at="tomorrow"), id="word-expiry"),
        pytest.param(damaged(expires_at=1893456000), id="number-expiry"),
        pytest.param(damaged(expires_at="2030-01-02T03:04:05"), id="expiry-without-zone"),
    ],
)
def test_a_damaged_file_is_ignored_with_a_warning(store, caplog, content):
    store.path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="cardviewer.services.session_store"):
        assert store.load() is None
    assert any(str(store.path) in r.getMessage() for r in caplog.records)
    assert not any(TOKEN in r.getMessage() for r in caplog.records)


def test_an_unreadable_path_is_ignored_with_a_warning(store, caplog):
    store.path.mkdir()
    with caplog.at_level(logging.WARNING, logger="cardviewer.services.session_store"):
        assert store.load() is None
    assert caplog.records


def test_the_valid_document_used_above_does_load(store):
    """Guards the damaged-file cases: each differs from a file that works."""
    store.path.write_bytes(damaged())
    assert store.load() == stored()
