"""The access token in the operating system's credential store, where there is one.

macOS has the Keychain, Windows the Credential Manager, Linux desktops the Secret
Service (GNOME Keyring, KWallet). The `keyring` package speaks to each of them. A
headless Linux box often has none: `keyring` then picks a backend that fails on every
call, or one that silently keeps nothing. Such a vault reports itself unusable, and
the caller keeps the token elsewhere (the private session file).

Every keyring failure, whatever its type, surfaces as `VaultError`: a credential store
can fail in many ways (locked, D-Bus gone, a prompt dismissed, a value too long for
the Windows Credential Manager), and each means the same here: not available now.
"""

from __future__ import annotations

import enum
import logging
from typing import TYPE_CHECKING

from cardviewer import APP_NAME

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

log = logging.getLogger(__name__)

SERVICE = APP_NAME
ENTRY = "access-token"


class TokenLocation(enum.Enum):
    """Where the saved access token is kept."""

    KEYRING = "keyring"
    FILE = "file"


class VaultError(Exception):
    """The credential store could not be used just now."""


class KeyringVault:
    """One entry in a keyring: the saved access token.

    `backend` None means the keyring `keyring` chose for this system (looked up on
    each use, so a test or the person's configuration decides); tests pass their own.
    """

    def __init__(
        self,
        backend: KeyringBackend | None = None,
        *,
        service: str = SERVICE,
        entry: str = ENTRY,
    ) -> None:
        self._backend = backend
        self.service = service
        self.entry = entry

    @property
    def backend(self) -> KeyringBackend:
        if self._backend is not None:
            return self._backend
        # Imported on first use: `keyring` is slow to import and to pick its backend,
        # and a start without a saved sign-in never needs it.
        import keyring

        return keyring.get_keyring()

    def name(self) -> str:
        """The backend's name for log lines, such as "macOS Keyring"."""
        try:
            return type(self.backend).name
        except Exception:
            return "unknown keyring"

    def is_usable(self) -> bool:
        """Whether a token stored here would really be kept."""
        try:
            return _is_usable(self.backend)
        except Exception as error:
            log.info("The system keyring cannot be used: %s", _describe(error))
            return False

    def store(self, token: str) -> None:
        """Keep `token`, replacing an earlier one; read back to be sure it is kept."""
        try:
            self.backend.set_password(self.service, self.entry, token)
            kept = self.backend.get_password(self.service, self.entry)
        except Exception as error:
            raise VaultError(_describe(error)) from error
        if kept != token:
            raise VaultError("the keyring did not keep the token")

    def fetch(self) -> str | None:
        """The kept token, or None when there is none."""
        try:
            return self.backend.get_password(self.service, self.entry)
        except Exception as error:
            raise VaultError(_describe(error)) from error

    def delete(self) -> None:
        """Forget the kept token; none kept is fine."""
        from keyring.errors import PasswordDeleteError  # as `keyring` in `backend`

        try:
            self.backend.delete_password(self.service, self.entry)
        except PasswordDeleteError:
            return  # nothing was kept
        except Exception as error:
            raise VaultError(_describe(error)) from error


def _is_usable(backend: KeyringBackend) -> bool:
    from keyring.backends import chainer, fail, null  # as `keyring` in `backend`

    # fail.Keyring raises on every call; null.Keyring (a way people switch keyring off)
    # accepts a token and keeps nothing; a chainer with nothing to chain does the same.
    if isinstance(backend, fail.Keyring | null.Keyring):
        return False
    if isinstance(backend, chainer.ChainerBackend):
        return bool(backend.backends)
    return True


def _describe(error: BaseException) -> str:
    """The error's type and text, for a log line (the log filter masks any token)."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
