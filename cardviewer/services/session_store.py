"""Keeping a sign-in across restarts: the session token, never the password.

The session lives in one small JSON file, readable by this user only:

    {
      "version": 1,
      "server_url": "https://api.example.com",
      "email": "ada@example.com",
      "access_token": "…",
      "session_id": "…",
      "expires_at": "2030-01-01T12:00:00+00:00"
    }

A file that cannot be read, is not JSON, or does not have exactly this shape is
treated as no session: the person signs in again, which is always safe.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardviewer.api.models import Session
from cardviewer.paths import config_dir
from cardviewer.services.atomic_file import write_atomically

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
FILE_NAME = "session.json"
_TEXT_FIELDS = ("server_url", "email", "access_token", "session_id")
_REQUIRED_TEXT = ("server_url", "access_token")


@dataclass(frozen=True)
class StoredSession:
    """A session as saved: whom it signs in, where, and until when."""

    server_url: str
    email: str
    # Kept out of repr() so that logging the object never prints the token.
    access_token: str = field(repr=False)
    session_id: str
    expires_at: datetime

    def is_expired(self, now: datetime | None = None) -> bool:
        return (now or datetime.now(UTC)) >= self.expires_at

    @classmethod
    def from_session(cls, server_url: str, email: str, session: Session) -> StoredSession:
        return cls(
            server_url=server_url,
            email=email,
            access_token=session.access_token,
            session_id=session.session_id,
            expires_at=session.expires_at,
        )


class CorruptSessionFile(ValueError):
    """The session file does not have the shape this version writes."""


class SessionStore:
    """Loads, saves and forgets the one saved session."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / FILE_NAME

    def load(self) -> StoredSession | None:
        """The saved session, or None when there is none or it cannot be used."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            log.warning("Cannot read the saved session %s: %s", self.path, error)
            return None
        try:
            return _parse(raw)
        except CorruptSessionFile as error:
            # The reason names a field, never its value: the file holds a token.
            log.warning("Ignoring the saved session %s: %s", self.path, error)
            return None

    def save(self, session: StoredSession) -> None:
        """Replace the saved session (file mode 0600). Raises `OSError` on failure."""
        document = {
            "version": FORMAT_VERSION,
            "server_url": session.server_url,
            "email": session.email,
            "access_token": session.access_token,
            "session_id": session.session_id,
            "expires_at": session.expires_at.isoformat(),
        }
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = json.dumps(document, indent=2).encode("utf-8") + b"\n"
        write_atomically(self.path, data, private=True)
        log.debug("Saved the session for %s", session.server_url)

    def clear(self) -> None:
        """Forget the saved session; nothing saved is fine. Raises `OSError` on failure."""
        self.path.unlink(missing_ok=True)


def _parse(raw: bytes) -> StoredSession:
    try:
        document: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CorruptSessionFile("not a JSON document") from error
    if not isinstance(document, dict):
        raise CorruptSessionFile("not a JSON object")
    if document.get("version") != FORMAT_VERSION:
        raise CorruptSessionFile(f"not format version {FORMAT_VERSION}")
    texts: dict[str, str] = {}
    for name in _TEXT_FIELDS:
        value = document.get(name)
        if not isinstance(value, str):
            raise CorruptSessionFile(f"{name!r} is missing or not text")
        if name in _REQUIRED_TEXT and not value.strip():
            raise CorruptSessionFile(f"{name!r} is empty")
        texts[name] = value
    return StoredSession(
        server_url=texts["server_url"],
        email=texts["email"],
        access_token=texts["access_token"],
        session_id=texts["session_id"],
        expires_at=_parse_timestamp(document.get("expires_at")),
    )


def _parse_timestamp(value: Any) -> datetime:
    if not isinstance(value, str):
        raise CorruptSessionFile("'expires_at' is missing or not text")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as error:
        raise CorruptSessionFile("'expires_at' is not a timestamp") from error
    if moment.tzinfo is None:
        raise CorruptSessionFile("'expires_at' has no time zone")
    return moment
