"""The keyring vault: what it keeps, when it counts as usable, and how it fails."""

import pytest
from keyring.backends import chainer, fail, null

from cardviewer.services.token_vault import KeyringVault, VaultError
from tests.services.keyrings import (
    ForgetfulKeyring,
    LockedKeyring,
    MemoryKeyring,
    use_as_system_keyring,
)

TOKEN = "eyJ0eXAi.eyJhdWQi.c2lnbmF0dXJl"


@pytest.fixture(autouse=True)
def system_keyring():
    yield from use_as_system_keyring(MemoryKeyring())


def test_a_stored_token_is_fetched_back_and_deleted():
    backend = MemoryKeyring()
    vault = KeyringVault(backend)
    assert vault.fetch() is None
    vault.store(TOKEN)
    assert vault.fetch() == TOKEN
    assert backend.secrets == {("CardViewer", "access-token"): TOKEN}
    vault.store("tok-2")
    assert vault.fetch() == "tok-2"
    vault.delete()
    assert vault.fetch() is None
    assert backend.secrets == {}


def test_deleting_when_nothing_is_kept_is_fine():
    KeyringVault(MemoryKeyring()).delete()


def test_without_a_backend_the_system_keyring_is_used(system_keyring: MemoryKeyring):
    vault = KeyringVault()
    assert vault.backend is system_keyring
    vault.store(TOKEN)
    assert system_keyring.secrets == {("CardViewer", "access-token"): TOKEN}


@pytest.mark.parametrize(
    ("backend", "usable"),
    [
        pytest.param(MemoryKeyring(), True, id="working"),
        pytest.param(LockedKeyring(), True, id="locked-is-there"),
        pytest.param(fail.Keyring(), False, id="fail"),
        pytest.param(null.Keyring(), False, id="null"),
    ],
)
def test_which_keyrings_count_as_usable(backend, usable):
    assert KeyringVault(backend).is_usable() is usable


def test_a_chainer_is_usable_only_with_something_to_chain(monkeypatch):
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    assert not KeyringVault(chainer.ChainerBackend()).is_usable()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [MemoryKeyring()])
    assert KeyringVault(chainer.ChainerBackend()).is_usable()


def test_a_failing_system_keyring_lookup_counts_as_unusable(monkeypatch):
    def broken() -> None:
        raise RuntimeError("no D-Bus session")

    monkeypatch.setattr("keyring.get_keyring", broken)
    assert not KeyringVault().is_usable()


@pytest.mark.parametrize("operation", ["store", "fetch", "delete"])
def test_every_keyring_failure_is_a_vault_error(operation):
    vault = KeyringVault(LockedKeyring())
    call = getattr(vault, operation)
    with pytest.raises(VaultError, match="KeyringLocked: the collection is locked"):
        call(TOKEN) if operation == "store" else call()


def test_the_fail_keyring_raises_a_vault_error_too():
    with pytest.raises(VaultError, match="NoKeyringError"):
        KeyringVault(fail.Keyring()).store(TOKEN)


def test_a_keyring_that_keeps_nothing_is_caught_when_storing():
    with pytest.raises(VaultError, match="did not keep"):
        KeyringVault(ForgetfulKeyring()).store(TOKEN)


def test_the_backend_name_is_for_log_lines():
    assert KeyringVault(MemoryKeyring()).name() == "keyrings MemoryKeyring"


class EncodingKeyring(MemoryKeyring):
    """Keeps each secret as bytes, as a real store does: what it gives back is a new string."""

    def __init__(self) -> None:
        super().__init__()
        self.stored: dict[tuple[str, str], bytes] = {}

    def get_password(self, service: str, username: str) -> str | None:
        value = self.stored.get((service, username))
        return None if value is None else value.decode()

    def set_password(self, service: str, username: str, password: str) -> None:
        self.stored[(service, username)] = password.encode()


def test_a_token_read_back_equal_counts_as_kept():
    vault = KeyringVault(EncodingKeyring())
    vault.store(TOKEN)
    assert vault.fetch() == TOKEN


def test_the_service_and_entry_are_given_by_name():
    with pytest.raises(TypeError):
        KeyringVault(MemoryKeyring(), "Other")  # type: ignore[call-arg]
    backend = MemoryKeyring()
    KeyringVault(backend, service="Other", entry="token").store(TOKEN)
    assert backend.secrets == {("Other", "token"): TOKEN}


def test_a_failing_system_keyring_lookup_has_no_name(monkeypatch):
    def broken() -> None:
        raise RuntimeError("no D-Bus session")

    monkeypatch.setattr("keyring.get_keyring", broken)
    assert KeyringVault().name() == "unknown keyring"
