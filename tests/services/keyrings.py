"""Keyrings for tests: each keeps its secrets in memory or fails on purpose.

None of them is ever chosen by `keyring` on its own (a negative priority), so a
test run never reaches the real credential store of the machine it runs on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.compat import properties
from keyring.errors import KeyringLocked, PasswordDeleteError

Backend = TypeVar("Backend", bound=KeyringBackend)


class MemoryKeyring(KeyringBackend):
    """A working keyring in a dict; `fail_writes` makes it refuse new secrets."""

    @properties.classproperty
    def priority(cls) -> float:  # noqa: N805 - a class property
        return -1

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}
        self.fail_writes = False

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        if self.fail_writes:
            raise KeyringLocked("the collection is locked")
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.secrets[(service, username)]
        except KeyError:
            raise PasswordDeleteError("no such secret") from None


class LockedKeyring(KeyringBackend):
    """A keyring that is there but refuses every call, as a locked one does."""

    @properties.classproperty
    def priority(cls) -> float:  # noqa: N805 - a class property
        return -1

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringLocked("the collection is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringLocked("the collection is locked")

    def delete_password(self, service: str, username: str) -> None:
        raise KeyringLocked("the collection is locked")


class ForgetfulKeyring(KeyringBackend):
    """A keyring that accepts every secret and keeps none."""

    @properties.classproperty
    def priority(cls) -> float:  # noqa: N805 - a class property
        return -1

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        pass

    def delete_password(self, service: str, username: str) -> None:
        raise PasswordDeleteError("no such secret")


def use_as_system_keyring(backend: Backend) -> Iterator[Backend]:
    """Make `backend` the system keyring for one test; afterwards one that always fails.

    The environment variable covers anything that sets `keyring` up afresh (a
    subprocess); after the test no code in this process can reach a real keyring.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
        keyring.set_keyring(backend)
        try:
            yield backend
        finally:
            keyring.set_keyring(fail.Keyring())
