"""The log file: where it goes, how it rotates, and that no secret ever reaches it."""

import io
import json
import logging
import os
import stat
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from cardviewer.api import CardsClient
from cardviewer.log_setup import (
    HELD_RECORDS,
    LOG_FILE_NAME,
    REDACTED,
    HeldRecords,
    RedactingFilter,
    forget_secrets,
    hold_records,
    install_file_log,
    log_file_path,
    redact,
    remember_secret,
    remove_file_log,
)
from cardviewer.paths import log_dir

log = logging.getLogger("cardviewer.tests.log_setup")
PASSWORD = "Hunter2-Sécret!"


@pytest.fixture(autouse=True)
def no_file_log_left():
    yield
    remove_file_log()


@pytest.fixture
def debug_everywhere(caplog):
    """Everything at DEBUG, the HTTP libraries' traces included (restored afterwards)."""
    for name in (None, "httpx", "httpcore", "cardviewer"):
        caplog.set_level(logging.DEBUG, logger=name)


def read_log(tmp_path: Path) -> str:
    return (tmp_path / LOG_FILE_NAME).read_text(encoding="utf-8")


# Where and how


def test_the_file_gets_time_level_logger_and_message(tmp_path, debug_everywhere):
    path = install_file_log(tmp_path)
    assert path == tmp_path / LOG_FILE_NAME
    assert log_file_path() == path
    log.info("opened space %s", "sales")
    line = read_log(tmp_path).splitlines()[-1]
    assert line.endswith("INFO    cardviewer.tests.log_setup: opened space sales")
    assert line[:4].isdigit(), "starts with the date"


def test_the_default_folder_is_the_platforms_log_folder(debug_everywhere):
    path = install_file_log()
    assert path == log_dir() / LOG_FILE_NAME
    log.warning("hello")
    assert path is not None
    assert "hello" in path.read_text(encoding="utf-8")


def test_text_is_written_as_utf8(tmp_path, debug_everywhere):
    path = install_file_log(tmp_path)
    # Handed to the file's handler alone: pytest's own capture of a lone surrogate breaks
    # the report a worker process of the parallel run sends back.
    (handler,) = (
        h
        for h in logging.getLogger().handlers
        if isinstance(h, logging.FileHandler) and Path(h.baseFilename) == path
    )
    record = log.makeRecord(
        log.name, logging.INFO, __file__, 0, "Zoë Müller, 山田 太郎 🎉, bad \ud800 half", (), None
    )
    handler.handle(record)
    text = (tmp_path / LOG_FILE_NAME).read_bytes().decode("utf-8")
    assert "Zoë Müller, 山田 太郎 🎉, bad \\ud800 half" in text


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_log_files_are_readable_by_this_user_only(tmp_path, debug_everywhere):
    install_file_log(tmp_path, max_bytes=500, backup_count=1)
    for n in range(20):
        log.info("line %d %s", n, "x" * 40)
    for path in (tmp_path / LOG_FILE_NAME, tmp_path / f"{LOG_FILE_NAME}.1"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_file_rotates_and_keeps_a_few_older_ones(tmp_path, debug_everywhere):
    install_file_log(tmp_path, max_bytes=2_000, backup_count=3)
    for n in range(400):
        log.info("line %04d %s", n, "x" * 60)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [LOG_FILE_NAME, *(f"{LOG_FILE_NAME}.{n}" for n in (1, 2, 3))]
    assert all(p.stat().st_size <= 2_000 for p in tmp_path.iterdir())
    assert "line 0399" in read_log(tmp_path)
    assert "line 0000" not in "".join(p.read_text(encoding="utf-8") for p in tmp_path.iterdir())


def test_installing_again_replaces_the_handler(tmp_path, debug_everywhere):
    first, second = tmp_path / "first", tmp_path / "second"
    install_file_log(first)
    install_file_log(second)
    log.info("only once")
    assert "only once" not in (first / LOG_FILE_NAME).read_text(encoding="utf-8")
    assert read_log(second).count("only once") == 1


# Before the file opens (the start opens it after the sign-in window paints)


def test_records_logged_before_the_file_opens_are_written_first(tmp_path, debug_everywhere):
    hold_records()
    log.warning("early %s", "warning")
    log.info("signed in with password=%s", PASSWORD)
    install_file_log(tmp_path)
    log.info("after")
    lines = read_log(tmp_path).splitlines()
    assert [line.split(": ", 1)[1] for line in lines] == [
        "early warning",
        f"signed in with password={REDACTED}",
        "after",
    ]
    assert PASSWORD not in read_log(tmp_path)


def test_records_are_held_once(tmp_path, debug_everywhere):
    hold_records()
    log.info("once")
    install_file_log(tmp_path / "first")
    remove_file_log()
    install_file_log(tmp_path / "second")
    assert read_log(tmp_path / "first").count("once") == 1
    assert "once" not in read_log(tmp_path / "second")


def test_held_records_are_bounded_and_the_newest_kept(tmp_path, debug_everywhere):
    hold_records()
    for n in range(HELD_RECORDS + 5):
        log.info("record %d", n)
    install_file_log(tmp_path)
    lines = read_log(tmp_path).splitlines()
    assert len(lines) == HELD_RECORDS
    assert lines[-1].endswith(f"record {HELD_RECORDS + 4}")


def test_removing_drops_records_held_for_a_file_never_opened(tmp_path, debug_everywhere):
    hold_records()
    log.info("never written")
    remove_file_log()
    install_file_log(tmp_path)
    assert "never written" not in read_log(tmp_path)
    assert not any(isinstance(h, HeldRecords) for h in logging.getLogger().handlers)


def test_removing_stops_the_file_log(tmp_path, debug_everywhere):
    install_file_log(tmp_path)
    remove_file_log()
    remove_file_log()  # twice is fine
    log.info("after removal")
    assert log_file_path() is None
    assert "after removal" not in read_log(tmp_path)
    assert not any(
        getattr(h, "baseFilename", None) == str(tmp_path / LOG_FILE_NAME)
        for h in logging.getLogger().handlers
    )


def test_a_folder_that_cannot_be_created_skips_the_file_with_a_warning(tmp_path, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="cardviewer.log_setup"):
        assert install_file_log(blocker / "logs") is None
    assert log_file_path() is None
    assert any("Not writing a log file" in r.getMessage() for r in caplog.records)


def test_a_file_that_cannot_be_opened_skips_the_file_with_a_warning(tmp_path, caplog):
    (tmp_path / LOG_FILE_NAME).mkdir()
    with caplog.at_level(logging.WARNING, logger="cardviewer.log_setup"):
        assert install_file_log(tmp_path) is None
    assert any("Not writing a log file" in r.getMessage() for r in caplog.records)
    log.warning("the app carries on")


# No secrets


def test_secrets_never_reach_the_file_but_the_rest_does(tmp_path, demo_server, debug_everywhere):
    token = demo_server.issue_token()["access_token"]
    install_file_log(tmp_path)
    # A header's value runs to the end of its line: everything after it is taken out.
    log.debug("request headers: Accept: application/json\nAuthorization: Bearer %s", token)
    log.info("login body %s", json.dumps({"email": "ada@example.com", "password": PASSWORD}))
    log.info("sign-in form email=ada%%40example.com&password=%s&remember=1", PASSWORD)
    log.info("answer {'access_token': '%s', 'expires_at': '2030'}", token)
    log.info("the token itself: %s (end)", token)
    try:
        raise RuntimeError(f"server refused token {token}")
    except RuntimeError:
        log.exception("listing the cards failed")

    text = read_log(tmp_path)
    assert token not in text
    assert token.split(".")[2][:40] not in text, "no part of the signature either"
    assert PASSWORD not in text
    for kept in (
        "Accept: application/json",
        "ada@example.com",
        "remember=1",
        "'expires_at': '2030'",
        "the token itself: [redacted] (end)",
        "listing the cards failed",
        "RuntimeError: server refused token [redacted]",
        "Traceback (most recent call last)",
    ):
        assert kept in text


def test_without_the_filter_the_token_would_be_there(tmp_path, demo_server, debug_everywhere):
    """Guards the test above: the file does show what the filter lets through."""
    token = demo_server.issue_token()["access_token"]
    path = install_file_log(tmp_path)
    handler = next(
        h for h in logging.getLogger().handlers if getattr(h, "baseFilename", "") == str(path)
    )
    for unwanted in [f for f in handler.filters if isinstance(f, RedactingFilter)]:
        handler.removeFilter(unwanted)
    log.info("the token itself: %s", token)
    assert token in read_log(tmp_path)


def test_a_real_sign_in_at_debug_level_logs_neither_token_nor_password(
    tmp_path, demo_server, arun, debug_everywhere, monkeypatch
):
    monkeypatch.setattr(demo_server, "password", PASSWORD)

    async def sign_in_and_list() -> str:
        async with CardsClient(demo_server.base_url) as client:
            session = await client.login(demo_server.email, PASSWORD)
            await client.list_cards(demo_server.space_id, with_emails=True)
            return session.access_token

    install_file_log(tmp_path)
    token = arun(sign_in_and_list())
    remove_file_log()

    text = read_log(tmp_path)
    assert "httpcore" in text, "the HTTP trace was logged"
    assert "/cards" in text
    assert token not in text
    assert token.split(".")[2][:40] not in text
    assert PASSWORD not in text


def test_the_filter_works_on_any_handler_and_on_stack_text():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("cardviewer.tests.any_handler")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("Authorization: Basic dXNlcjpwYXNz", stack_info=True)
        logger.warning("broken %d format", "password=hunter2")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    text = stream.getvalue()
    assert "dXNlcjpwYXNz" not in text
    assert "Authorization: [redacted]" in text
    assert "Stack (most recent call last)" in text
    assert "hunter2" not in text
    assert "broken %d format" in text, "a record with wrong arguments is still written"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("Authorization: Bearer abc.def", "Authorization: [redacted]"),
        ("proxy-authorization: Basic dXNl", "proxy-authorization: [redacted]"),
        (
            "{'Authorization': 'Bearer x', 'Accept': '*/*'}",
            "{'Authorization': '[redacted]', 'Accept': '*/*'}",
        ),
        (
            "(b'authorization', b'Bearer x'), (b'host', b'h')",
            "(b'authorization', b'[redacted]'), (b'host', b'h')",
        ),
        ("sent Bearer abc123== upstream", f"sent Bearer {REDACTED} upstream"),
        ("jwt eyJ0eXAi.eyJzdWIi.c2ln_-9 here", f"jwt {REDACTED} here"),
        (
            '{"email": "a@b.c", "password": "p\\"w d"}',
            f'{{"email": "a@b.c", "password": {REDACTED}}}',
        ),
        (
            '"{\\"password\\": \\"se cret\\", \\"x\\": 1}"',
            f'"{{\\"password\\": {REDACTED}, \\"x\\": 1}}"',
        ),
        ("email=a%40b.c&password=hunter2&x=1", f"email=a%40b.c&password={REDACTED}&x=1"),
        ("new_password: hunter2", f"new_password: {REDACTED}"),
        (
            '{"access_token": "abc", "session_id": "s"}',
            f'{{"access_token": {REDACTED}, "session_id": "s"}}',
        ),
        ("refresh_token=abc expires", f"refresh_token={REDACTED} expires"),
        ("the saved session keeps its token in the keyring", None),
        ("token_location=keyring", None),
        ("authorization failed", None),
        ("page 3 of 24, 10 per page", None),
        ("password=", None),
    ],
)
def test_redact(text, redacted):
    expected = text if redacted is None else redacted
    assert redact(text) == expected
    assert redact(expected) == expected, "redacting twice changes nothing"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        (
            "GET https://cdn.example/a.png?X-Amz-Signature=abc&exp=1 done",
            "GET https://cdn.example/a.png done",
        ),
        (
            "avatar URL('https://cdn.example/a.png?sig=abc#top')",
            "avatar URL('https://cdn.example/a.png')",
        ),
        (
            '{"src": "https:\\/\\/cdn.example\\/a.png?sig=abc"}',
            '{"src": "https:\\/\\/cdn.example\\/a.png"}',
        ),
        (
            "at https://admin:hunter2@api.example.com/v1",
            f"at https://{REDACTED}@api.example.com/v1",
        ),
        ("at http://ada@127.0.0.1:8765?x=1", f"at http://{REDACTED}@127.0.0.1:8765"),
        ("https://api.example.com/v1/spaces/s/cards -> 200", None),
        ("write to ada@example.com about https://example.com/@ada", None),
    ],
)
def test_web_addresses_lose_their_query_and_user_info(text, redacted):
    expected = text if redacted is None else redacted
    assert redact(text) == expected
    assert redact(expected) == expected


@pytest.fixture
def clean_secrets():
    forget_secrets()
    yield
    forget_secrets()


def test_remembered_secrets_are_taken_out_wherever_and_however_written(clean_secrets):
    token, password = "opaque-T0ken-4f9a2c7e", "Pässwörd with spaces & more"
    remember_secret(token)
    remember_secret(password)
    text = " | ".join(
        [
            f"bare {token} in a sentence",
            json.dumps({"odd_name": token, "pw": password}),
            repr(json.dumps({"pw": password})),
            repr(password.encode()),
            f"form=a&p={quote_plus(password)}&q={quote(password, safe='')}",
        ]
    )
    result = redact(text)
    for leaked in (token, password, "T0ken-4f9a", "with spaces", "w\\u00f6rd", "w%C3%B6rd"):
        assert leaked not in result
    assert result.startswith(f"bare {REDACTED} in a sentence")
    assert '"odd_name": "[redacted]"' in result


def test_short_values_are_left_to_the_patterns(clean_secrets):
    remember_secret("demo")
    remember_secret("")
    remember_secret(None)
    assert redact("cardviewer.demo started") == "cardviewer.demo started"


def test_the_filter_takes_out_remembered_secrets(tmp_path, debug_everywhere, clean_secrets):
    remember_secret("s3cr3t-value-known")
    install_file_log(tmp_path)
    log.info("the server said: %s", {"weird": "s3cr3t-value-known"})
    remove_file_log()
    assert "s3cr3t-value-known" not in read_log(tmp_path)
    assert f"'weird': '{REDACTED}'" in read_log(tmp_path)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_missing_log_folder_is_created_private(tmp_path, debug_everywhere):
    old = os.umask(0o022)
    try:
        install_file_log(tmp_path / "new" / "logs")
    finally:
        os.umask(old)
    for folder in (tmp_path / "new", tmp_path / "new" / "logs"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
