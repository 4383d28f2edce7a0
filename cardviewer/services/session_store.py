"""Keeping a sign-in across restarts: the session token, never the password.

The access token goes to the operating system's credential store (see `token_vault`)
where there is a usable one; the session file then holds only what is not secret:

    {
      "version": 2,
      "server_url": "https://api.example.com",
      "email": "ada@example.com",
      "session_id": "…",
      "expires_at": "2030-01-01T12:00:00+00:00",
      "access_token_in": "keyring"
    }

Without a usable credential store (common on headless Linux) the token stays in the
file, `"access_token_in": "file"` with `"access_token": "…"` beside it. Either way the
file is readable by this user only (0600) and replaced in one step. Files of version 1,
which always held the token, are still read.

A file that cannot be read, is larger than `MAX_FILE_BYTES`, is not JSON, or does not
have exactly this shape is treated as no session, and so is a file whose token the
keyring no longer has: the person signs in again, which is always safe. Such a damaged
file is renamed to `session.json.damaged` (see `local_file`), readable by this user
only as the file was, with one line in the log that names what is wrong, never a
value; the next sign-in with "Keep me signed in" writes a new file.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardviewer.api.address import normalize_server_url
from cardviewer.api.errors import InvalidInput
from cardviewer.api.expiry import has_expired
from cardviewer.log_setup import remember_secret
from cardviewer.paths import private_folder, session_file
from cardviewer.services.atomic_file import write_atomically
from cardviewer.services.local_file import DamagedFile, LocalFile, parse_json_object
from cardviewer.services.token_vault import KeyringVault, TokenLocation, VaultError

if TYPE_CHECKING:
    # Only named: deciding whether a session is saved must not import pydantic.
    from cardviewer.api.models import Session

log = logging.getLogger(__name__)

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_FILE_BYTES = 64 * 1024
"""The most of the session file read. It holds a few hundred bytes, and a token of a
few more where there is no keyring; a larger file is damaged, and reading no more
keeps one of gigabytes from holding up the start."""
_FILE = LocalFile("the saved session", MAX_FILE_BYTES, "signing in is needed")
_TEXT_FIELDS = ("server_url", "email", "session_id")
_TOKEN = re.compile(r"[!-~]+")
"""A token an HTTP header can carry: visible ASCII, no spaces (RFC 6750's and more)."""


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
        return has_expired(self.expires_at, now)

    @classmethod
    def from_session(cls, server_url: str, email: str, session: Session) -> StoredSession:
        return cls(
            server_url=server_url,
            email=email,
            access_token=session.access_token,
            session_id=session.session_id,
            expires_at=session.expires_at,
        )


class CorruptSessionFile(DamagedFile):
    """The session file does not have a shape this version reads."""


@dataclass(frozen=True)
class _SavedFile:
    """What the session file says; `access_token` is None when the keyring has it."""

    server_url: str
    email: str
    session_id: str
    expires_at: datetime
    access_token: str | None = field(repr=False)

    def with_token(self, token: str) -> StoredSession:
        return StoredSession(
            server_url=self.server_url,
            email=self.email,
            access_token=token,
            session_id=self.session_id,
            expires_at=self.expires_at,
        )


class SessionStore:
    """Loads, saves and forgets the one saved session.

    `vault` None uses the system keyring when it is usable; tests pass their own.
    """

    def __init__(self, path: Path | None = None, vault: KeyringVault | None = None) -> None:
        self.path = path if path is not None else session_file()
        self.vault = vault if vault is not None else KeyringVault()
        self.damaged = False
        """The last `load` found the file damaged (and set it aside): a session lost."""

    def load(self) -> StoredSession | None:
        """The saved session, or None when there is none or it cannot be used."""
        saved, self.damaged = _FILE.read(self.path, _parse)
        if saved is None:
            return None
        token = saved.access_token
        if token is None:
            token = self._token_from_vault()
            if token is None:
                return None
        # Known to this process from now on: no log may show it, wherever it turns up.
        remember_secret(token)
        return saved.with_token(token)

    def save(self, session: StoredSession) -> None:
        """Replace the saved session (file mode 0600). Raises `OSError` on failure."""
        location = TokenLocation.FILE
        if self.vault.is_usable():
            try:
                self.vault.store(session.access_token)
                location = TokenLocation.KEYRING
            except VaultError as error:
                log.warning(
                    "The system keyring (%s) cannot keep the token, so it is saved in %s: %s",
                    self.vault.name(),
                    self.path,
                    error,
                )
                self._forget_vault_token()
        document: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "server_url": session.server_url,
            "email": session.email,
            "session_id": session.session_id,
            "expires_at": session.expires_at.isoformat(),
            "access_token_in": location.value,
        }
        if location is TokenLocation.FILE:
            document["access_token"] = session.access_token
        private_folder(self.path.parent)
        if self.path.is_dir() and not self.path.is_symlink():
            # An empty folder in the file's place is debris; a full one is left alone
            # (rmdir refuses) and the save fails with that reason.
            self.path.rmdir()
        data = json.dumps(document, indent=2).encode("utf-8") + b"\n"
        write_atomically(self.path, data, private=True)
        log.debug("Saved the session for %s (token in the %s)", session.server_url, location.value)

    def clear(self) -> None:
        """Forget the saved session; nothing saved is fine. Raises `OSError` on failure.

        The keyring entry goes first: should the file then stay, it points at nothing
        and loads as no session.
        """
        if self.vault.is_usable():
            self._forget_vault_token()
        self.path.unlink(missing_ok=True)

    def _token_from_vault(self) -> str | None:
        if not self.vault.is_usable():
            log.warning(
                "The saved session %s keeps its token in the system keyring, which cannot "
                "be used now; signing in again is needed",
                self.path,
            )
            return None
        try:
            token = self.vault.fetch()
        except VaultError as error:
            log.warning("Cannot read the saved session's token from the keyring: %s", error)
            return None
        if not token:
            log.warning(
                "The keyring no longer has the token of the saved session %s; "
                "signing in again is needed",
                self.path,
            )
            return None
        return token

    def _forget_vault_token(self) -> None:
        try:
            self.vault.delete()
        except VaultError as error:
            log.warning("Cannot remove the token from the keyring: %s", error)


def _parse(raw: bytes) -> _SavedFile:
    # Its reasons, like those below, name a field, never its value: the file may hold a token.
    document = parse_json_object(raw)
    version = document.get("version")
    # type() rather than isinstance(): JSON `true` is a bool, and bool is an int.
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise CorruptSessionFile(f"its 'version' is not one of {READABLE_VERSIONS}")
    texts = {name: _text(document, name) for name in _TEXT_FIELDS}
    if not texts["server_url"].strip():
        raise CorruptSessionFile("'server_url' is empty")
    try:
        normalize_server_url(texts["server_url"])
    except InvalidInput as error:
        raise CorruptSessionFile("'server_url' is no address the app signs in to") from error
    token: str | None
    location = "file" if version == 1 else document.get("access_token_in")
    if location == TokenLocation.FILE.value:
        token = _text(document, "access_token")
        if not token.strip():
            raise CorruptSessionFile("'access_token' is empty")
        if not _TOKEN.fullmatch(token):
            raise CorruptSessionFile("'access_token' is no token an HTTP header can carry")
    elif location == TokenLocation.KEYRING.value:
        token = None
    else:
        raise CorruptSessionFile("'access_token_in' is neither 'keyring' nor 'file'")
    return _SavedFile(
        server_url=texts["server_url"],
        email=texts["email"],
        session_id=texts["session_id"],
        expires_at=_parse_timestamp(document.get("expires_at")),
        access_token=token,
    )


def _text(document: dict[str, Any], name: str) -> str:
    value = document.get(name)
    if not isinstance(value, str):
        raise CorruptSessionFile(f"{name!r} is missing or not text")
    return value


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
