"""The API layer's sentences, shown in the interface's language."""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator

import httpx
import pytest
from PySide6.QtCore import QLocale

from cardviewer import i18n
from cardviewer.api import CardsClient
from cardviewer.api.address import normalize_server_url
from cardviewer.api.errors import (
    CardViewerError,
    ConnectFailed,
    InvalidCredentials,
    InvalidInput,
    RateLimited,
    Sentence,
    ServerError,
    map_exceptions,
)
from cardviewer.api.retry import Wait, WaitUnit, wait_to_tell
from cardviewer.services.file_errors import ADVICE, ReadOnlyFile, TemporaryFileError, WriteProblem
from cardviewer.services.store_schema import StoreError, StoreProblem
from cardviewer.ui import error_text as error_text_module
from cardviewer.ui.error_text import (
    error_text,
    failure_reason_text,
    store_error_text,
    wait_text,
    write_failure_text,
)


@pytest.fixture
def german(qapp) -> Iterator[None]:
    i18n.install_translators(qapp, "de")
    yield
    i18n.remove_translators()
    QLocale.setDefault(QLocale.system())


def raised(statement) -> CardViewerError:
    with pytest.raises(CardViewerError) as caught:
        statement()
    return caught.value


def test_a_sentence_is_english_text_with_its_template() -> None:
    sentence = Sentence("There is no page %1; pages start at 1.", 0)
    assert sentence == "There is no page 0; pages start at 1."
    assert sentence.template == "There is no page %1; pages start at 1."
    assert sentence.values == ("0",)


def test_in_english_the_sentence_is_shown_as_it_is(qapp) -> None:
    error = raised(lambda: normalize_server_url("http://cards.example.com"))
    assert error_text(error) == str(error)
    assert "is not encrypted" in error_text(error)


def test_in_german_the_sentence_is_translated_with_its_values(german) -> None:
    error = raised(lambda: normalize_server_url("http://cards.example.com"))
    assert error_text(error) == (
        "Die Adresse http://cards.example.com ist nicht verschlüsselt (http://). "
        "Verwenden Sie https://, damit Ihr Passwort und Ihr Anmelde-Token im Netzwerk "
        "nicht mitgelesen werden können."
    )
    assert "is not encrypted" in str(error), "the log keeps the English"


def test_a_network_failure_is_translated(german) -> None:
    def fail() -> None:
        with map_exceptions("cards.example.com"):
            raise httpx.ConnectError("refused")

    error = raised(fail)
    assert isinstance(error, ConnectFailed)
    assert error_text(error) == (
        "Der Server cards.example.com ist nicht erreichbar. "
        "Prüfen Sie die Serveradresse und Ihre Netzwerkverbindung."
    )


def test_the_clients_own_checks_are_translated(german, arun) -> None:
    async def sign_in_without_an_address() -> None:
        async with CardsClient("https://cards.example.com") as client:
            await client.login("", "secret")

    with pytest.raises(InvalidInput) as caught:
        arun(sign_in_without_an_address())
    assert error_text(caught.value) == "Bitte geben Sie Ihre E-Mail-Adresse ein."


def test_the_servers_own_words_are_shown_as_they_came(german) -> None:
    error = InvalidCredentials("Access data do not match!", 422)
    assert error_text(error) == "Access data do not match!"


def test_other_errors_are_their_text(german) -> None:
    assert error_text(OSError("disk full")) == "disk full"


def test_a_translation_that_does_not_fit_falls_back_to_english(qapp, monkeypatch, caplog):
    class BrokenCatalog:
        @staticmethod
        def translate(context: str, text: str) -> str:
            return "Keine Seite %2"

    monkeypatch.setattr(error_text_module, "QCoreApplication", BrokenCatalog)
    error = InvalidInput(Sentence("There is no page %1; pages start at 1.", 0))
    with caplog.at_level(logging.WARNING):
        assert error_text(error) == "There is no page 0; pages start at 1."
    assert "does not fit" in caplog.text


# How long the server asked to wait


def seconds(count: int) -> str:
    return f"{count} seconds"


def minutes(count: int) -> str:
    return f"about {count} minutes"


@pytest.mark.parametrize(
    ("retry_after", "said"),
    [
        (None, None),
        (0, None),
        (1.9, None),
        (2, "2 seconds"),
        (60, "60 seconds"),
        (119.4, "119 seconds"),
        (120, "about 2 minutes"),
        (300, "about 5 minutes"),
        (3600 * 24, "about 1440 minutes"),
        (float("inf"), None),
    ],
)
def test_the_wait_is_said_in_seconds_then_minutes(retry_after, said):
    error = RateLimited("Too many requests.", 429, retry_after)
    assert wait_text(error, seconds, minutes) == said


def test_only_the_server_can_ask_for_a_wait():
    error = ConnectFailed("No connection.")
    error.retry_after = 30  # type: ignore[attr-defined]
    assert wait_text(error, seconds, minutes) is None
    assert wait_to_tell(error) is None


def test_a_503_with_retry_after_is_said_too():
    error = ServerError("Unavailable.", 503)
    error.retry_after = 90
    assert wait_to_tell(error) == Wait(90, WaitUnit.SECONDS)
    assert wait_text(error, seconds, minutes) == "90 seconds"


STORE_PROBLEMS = {
    StoreProblem.NEWER_VERSION: "newer version of CardViewer",
    StoreProblem.IN_USE: "in use by another program",
    StoreProblem.DISK_FULL: "The disk is full",
    StoreProblem.READ_ONLY: "is read-only for you",
    StoreProblem.NOT_WRITTEN: "could not be written",
    StoreProblem.NOT_READ: "could not be read",
    StoreProblem.GONE: "is gone from this computer",
    StoreProblem.REPLACED: "replaced by newer syncs",
    StoreProblem.OVERTAKEN: "Another program synced this space meanwhile",
    StoreProblem.DAMAGED: "damaged; it is set aside",
}


@pytest.mark.parametrize("problem", list(StoreProblem))
def test_a_local_copy_that_cannot_be_used_says_why_by_its_problem_not_its_words(qapp, problem):
    error = StoreError("words for the log only", problem)
    assert STORE_PROBLEMS[problem] in store_error_text(error)


@pytest.mark.parametrize("problem", list(StoreProblem))
def test_a_local_copy_that_cannot_be_used_says_why_in_german(german, problem):
    text = store_error_text(StoreError("words for the log only", problem))
    assert text.startswith(("Die lokale Kopie", "Der Datenträger")), text
    assert STORE_PROBLEMS[problem] not in text


NO_COPY_MADE = {
    StoreProblem.DISK_FULL: "The disk is full; no local copy was made.",
    StoreProblem.READ_ONLY: "The local copy may not be made: its file, or the folder it is in, "
    "is read-only for you.",
    StoreProblem.NOT_WRITTEN: "The local copy could not be written; none was made.",
}


@pytest.mark.parametrize("problem", list(StoreProblem))
def test_a_first_sync_that_failed_does_not_say_its_copy_stays(qapp, problem):
    """A space never synced has no copy that could stay as it was."""
    error = StoreError("words for the log only", problem, copy_before=False)
    text = store_error_text(error)
    assert text == NO_COPY_MADE.get(problem, store_error_text(StoreError("", problem)))
    assert "stays as it was" not in text


@pytest.mark.parametrize("problem", list(NO_COPY_MADE))
def test_a_first_sync_that_failed_says_so_in_german(german, problem):
    text = store_error_text(StoreError("words for the log only", problem, copy_before=False))
    assert text.startswith(("Die lokale Kopie", "Der Datenträger")), text
    assert text != store_error_text(StoreError("", problem)), "not the words for a copy kept"


PROBLEMS = {
    WriteProblem.NOT_ALLOWED: PermissionError(errno.EACCES, "Permission denied"),
    WriteProblem.NO_FOLDER: FileNotFoundError(errno.ENOENT, "No such file or directory"),
    WriteProblem.FOLDER_IN_THE_WAY: IsADirectoryError(errno.EISDIR, "Is a directory"),
    WriteProblem.DISK_FULL: OSError(errno.ENOSPC, "No space left on device"),
    WriteProblem.READ_ONLY: OSError(errno.EROFS, "Read-only file system"),
    WriteProblem.FILE_READ_ONLY: ReadOnlyFile(errno.EACCES, "Read-only file"),
    WriteProblem.TEMPORARY_FULL: TemporaryFileError(errno.ENOSPC, "No space left on device"),
}


@pytest.mark.parametrize("problem", list(WriteProblem))
def test_a_failed_write_reads_as_the_cli_says_it_untranslated(qapp, problem):
    assert write_failure_text(PROBLEMS[problem]) == ADVICE[problem]


def test_any_other_failed_write_keeps_the_systems_words_said_as_its(qapp):
    said = write_failure_text(OSError(errno.EIO, "Input/output error"))
    assert said == "The system says: Input/output error."


@pytest.mark.parametrize("problem", list(WriteProblem))
def test_a_failure_of_a_file_the_app_keeps_says_why_in_german(german, problem):
    """The folder of a local copy, the settings: the system's English words, such as
    "(File exists)", stood in the German sentence."""
    english = {
        "Permission denied",
        "No such file or directory",
        "Is a directory",
        "No space left on device",
        "Read-only file system",
        "Read-only file",
    }
    said = failure_reason_text(PROBLEMS[problem])
    assert said
    assert not any(words in said for words in english), said
    assert "wählen Sie" not in said, "no other folder to choose: the app keeps it"


def test_a_file_where_a_folder_should_be_is_said_as_that(german):
    for error in (
        FileExistsError(errno.EEXIST, "File exists"),
        NotADirectoryError(errno.ENOTDIR, "Not a directory"),
    ):
        assert failure_reason_text(error) == (
            "Wo ein Ordner sein sollte, liegt eine Datei; verschieben Sie sie."
        )
    assert failure_reason_text(OSError(errno.EIO, "Input/output error")) == (
        "Das System meldet: Input/output error."
    )
