"""`cardviewer export` against the demo server: files, passwords, sessions and exit codes."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import dataclasses
import errno
import getpass
import inspect
import io
import json
import logging
import os
import re
import select
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from cardviewer import cli
from cardviewer.api import CardPage, CardsClient, Session
from cardviewer.cli import PASSWORD_VARIABLE, ExitCode, main
from cardviewer.demo import Fault
from cardviewer.services import site_config
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.space_fetch import FetchProgress
from cardviewer.services.time_zone import local_zone_name


@pytest.fixture
def password(monkeypatch, demo_server):
    monkeypatch.setenv(PASSWORD_VARIABLE, demo_server.password)


def run(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main(list(args), stderr=err)
    return code, err.getvalue()


def exported(err: str, cards: int, space: str, where: object) -> bool:
    """`err` is the one line a successful export ends with, and nothing else."""
    said = rf"Exported {cards:,} cards of space {re.escape(space)} to {re.escape(str(where))}"
    return re.fullmatch(said + r" in \d+\.\d s\n", err) is not None


def account(demo_server) -> list[str]:
    return ["--server", demo_server.base_url, "--email", demo_server.email]


def read_csv(path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_all_pages_to_csv(demo_server, password, tmp_path):
    target = tmp_path / "all.csv"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--all", "-o", str(target)
    )
    assert code == ExitCode.OK
    assert exported(err, 240, demo_server.space_id, target), err
    rows = read_csv(target)
    assert len(rows) == 241
    assert rows[0] == [
        "ID",
        "Avatar URL",
        "Name",
        "Username",
        "Position",
        "Public",
        "Connected cards",
        "Connects",
        "Subscriptions",
        f"Created ({local_zone_name()})",
        f"Updated ({local_zone_name()})",
        "Redirection",
        "Is business",
        "Space",
    ]


def test_one_page_with_emails_to_xlsx(demo_server, password, tmp_path):
    target = tmp_path / "page"
    code, _ = run(
        *account(demo_server),
        "--space",
        demo_server.space_id,
        "--page",
        "2",
        "--with-emails",
        "--format",
        "xlsx",
        "-o",
        str(target),
    )
    assert code == ExitCode.OK
    assert [p.name for p in tmp_path.iterdir()] == ["page"], "the name given, no other"
    sheet = openpyxl.load_workbook(io.BytesIO(target.read_bytes())).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 11
    assert "E-mails" in rows[0]


@pytest.mark.parametrize(
    ("name", "fmt", "said"),
    [
        (
            "out.csv",
            "xlsx",
            "out.csv is the name of a CSV file, but --format xlsx asks for an "
            "Excel workbook: give a name ending in .xlsx, or leave out --format",
        ),
        (
            "out.XLSX",
            "csv",
            "out.XLSX is the name of an Excel workbook, but --format csv asks "
            "for a CSV file: give a name ending in .csv, or leave out --format",
        ),
    ],
)
def test_a_format_the_name_contradicts_is_refused(demo_server, password, tmp_path, name, fmt, said):
    code, err = run(
        *account(demo_server),
        "--space",
        demo_server.space_id,
        "--format",
        fmt,
        "-o",
        str(tmp_path / name),
    )
    assert (code, err) == (ExitCode.USAGE, f"error: {said}\n")
    assert list(tmp_path.iterdir()) == [], "nothing written, under no name"
    assert demo_server.requests == [], "refused before signing in"


@pytest.mark.parametrize(
    ("name", "fmt"), [("out.csv", "csv"), ("OUT.xlsx", "xlsx"), ("cards.txt", "xlsx")]
)
def test_a_format_that_fits_the_name_writes_that_name(demo_server, password, tmp_path, name, fmt):
    target = tmp_path / name
    code, err = run(
        *account(demo_server),
        "--space",
        demo_server.space_id,
        "--format",
        fmt,
        "-o",
        str(target),
    )
    assert code == ExitCode.OK
    assert exported(err, 10, demo_server.space_id, target), err
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert target.read_bytes().startswith(b"PK" if fmt == "xlsx" else b"\xef\xbb\xbf")


# The separator of CSV cells


def first_line(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig").splitlines()[0]


@pytest.mark.parametrize(("option", "separator"), [(",", ","), (";", ";"), ("tab", "\t")])
def test_the_delimiter_option_separates_the_cells(
    demo_server, password, tmp_path, option, separator
):
    Settings(csv_delimiter=";" if option == "," else ",").save()  # the option wins
    target = tmp_path / "page.csv"
    code, err = run(
        *account(demo_server),
        "--space",
        demo_server.space_id,
        "--delimiter",
        option,
        "-o",
        str(target),
    )
    assert code == ExitCode.OK
    assert exported(err, 10, demo_server.space_id, target), err
    heading = separator.join(["ID", "Avatar URL", "Name", "Username"])
    assert first_line(target).startswith(heading)
    assert [
        len(row) for row in csv.reader(target.open(encoding="utf-8-sig"), delimiter=separator)
    ] == [14] * 11


@pytest.mark.parametrize("decimal_point", [",", "."])
def test_without_the_option_the_saved_preference_separates(
    demo_server, password, tmp_path, monkeypatch, decimal_point
):
    monkeypatch.setattr(cli, "system_decimal_point", lambda: decimal_point)
    Settings(csv_delimiter=";").save()
    target = tmp_path / "all.csv"
    code, _ = run(
        *account(demo_server), "--space", demo_server.space_id, "--all", "-o", str(target)
    )
    assert code == ExitCode.OK
    assert first_line(target).startswith("ID;Avatar URL;Name;")


@pytest.mark.parametrize(("decimal_point", "separator"), [(",", ";"), (".", ",")])
def test_without_option_or_preference_the_locale_decides(
    demo_server, password, tmp_path, monkeypatch, decimal_point, separator
):
    monkeypatch.setattr(cli, "system_decimal_point", lambda: decimal_point)
    target = tmp_path / "page.csv"
    code, _ = run(*account(demo_server), "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.OK
    assert first_line(target).startswith(f"ID{separator}Avatar URL{separator}Name{separator}")


def test_a_delimiter_for_a_workbook_is_refused(demo_server, password, tmp_path):
    code, err = run(
        *account(demo_server),
        "--space",
        demo_server.space_id,
        "--delimiter",
        ";",
        "-o",
        str(tmp_path / "out.xlsx"),
    )
    assert code == ExitCode.USAGE
    assert "--delimiter is for CSV files" in err
    assert list(tmp_path.iterdir()) == []


def test_the_help_names_the_delimiter_and_its_default(capsys):
    assert run("--help")[0] == ExitCode.OK
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--delimiter {',' | ';' | tab}" in help_text
    assert "chosen in the app's Preferences" in help_text


def test_wrong_password_is_a_sign_in_failure(demo_server, monkeypatch, tmp_path):
    monkeypatch.setenv(PASSWORD_VARIABLE, "not the password")
    code, err = run(*account(demo_server), "--space", "x", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.SIGN_IN
    assert "not the password" not in err
    assert err.startswith("The e-mail address or password is not correct. (The server said: ")
    assert not (tmp_path / "x.csv").exists()


def test_no_password_and_no_saved_session_is_a_sign_in_needed(demo_server, monkeypatch, tmp_path):
    """It was a usage error (2): a scheduled job whose saved session Sign Out removed was
    sent to fix its arguments, where it needs a sign-in (3)."""
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    code, err = run(*account(demo_server), "--space", "x", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.SIGN_IN
    assert err == (
        "error: not signed in: there is no saved session (Sign Out in the app removes it), "
        "and no password is given. Sign in in the app with Keep me signed in, or set "
        f"{PASSWORD_VARIABLE} or run at a terminal to be asked.\n"
    )


def test_the_saved_session_is_used_without_a_password(demo_server, monkeypatch, tmp_path):
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    session = Session.model_validate(demo_server.issue_token())
    SessionStore().save(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    )
    target = tmp_path / "page.csv"
    code, _ = run("--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.OK
    assert len(read_csv(target)) == 11
    logins = [r for r in demo_server.requests if r.path.startswith("/v1/auth/login")]
    assert logins == []


def save_ended_session(demo_server) -> None:
    session = Session.model_validate(demo_server.issue_token())
    ended = dataclasses.replace(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session),
        expires_at=datetime.now(UTC) - timedelta(minutes=1),
    )
    SessionStore().save(ended)


@pytest.mark.parametrize("with_account", [False, True], ids=["alone", "same-account"])
def test_an_ended_saved_session_is_a_sign_in_failure(
    demo_server, monkeypatch, tmp_path, with_account
):
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    save_ended_session(demo_server)
    account_args = account(demo_server) if with_account else []
    target = tmp_path / "page.csv"
    code, err = run(*account_args, "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.SIGN_IN
    assert "saved session" in err
    assert "has ended; sign in again" in err
    assert PASSWORD_VARIABLE in err, "says how to sign in again"
    assert demo_server.requests == [], "the ended token is not sent"
    assert not target.exists()


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ([], "give --server and --email"),
        (["--server", "http://127.0.0.1:9"], "give --email"),
        (["--server", "http://127.0.0.1:9", "--email", "ada@example.com"], PASSWORD_VARIABLE),
        (["--email", "ada@example.com"], "give --server\n"),
    ],
    ids=["alone", "server", "server-and-email", "email"],
)
def test_a_saved_session_that_cannot_be_read_is_a_sign_in_failure(
    monkeypatch, tmp_path, given, said
):
    """A scheduled job relying on the saved session was told to give --server (2), as
    if it had been called wrongly, where the session it had was lost."""
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    saved = SessionStore().path
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text('{"version": 1, "server_url": ', encoding="utf-8")  # cut short
    code, err = run(*given, "--space", "s", "-o", str(tmp_path / "page.csv"))
    assert code == ExitCode.SIGN_IN
    assert "is damaged" in err, "the line saying why"
    assert (
        "error: the saved session could not be read (the line above says why); sign in again" in err
    )
    assert said in err
    code, err = run(*given, "--space", "s", "-o", str(tmp_path / "page.csv"))
    assert code == ExitCode.SIGN_IN, "once set aside, there is none: a sign-in is needed"
    assert "not signed in: there is no saved session" in err


def test_an_ended_saved_session_with_a_password_signs_in_again(demo_server, password, tmp_path):
    save_ended_session(demo_server)
    target = tmp_path / "page.csv"
    code, err = run(*account(demo_server), "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.OK
    assert exported(err, 10, demo_server.space_id, target), err
    assert len(read_csv(target)) == 11


@contextlib.contextmanager
def answering_login(status: int, body: dict[str, str]) -> Iterator[str]:
    """A loopback server that answers every login with `status` and `body`; its address."""
    content = json.dumps(body).encode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_login_the_server_cannot_read_is_a_sign_in_failure(password, tmp_path):
    """The platform's 500 for a login without a required field: said plainly, exit 3."""
    missing = {"message": 'Undefined array key "email"', "exception": "ErrorException"}
    with answering_login(500, missing) as server:
        code, err = run(
            "--server",
            server,
            "--email",
            "ada@example.com",
            "--space",
            "s",
            "-o",
            str(tmp_path / "x.csv"),
        )
    assert code == ExitCode.SIGN_IN
    assert err.startswith("The server could not read the sign-in request")
    assert "Undefined array key" not in err, "the server's words are for the log"
    assert "try again later" not in err


def test_a_login_the_server_fails_on_otherwise_is_a_server_failure(password, tmp_path):
    failed = {"message": "SQLSTATE[HY000] Connection refused", "exception": "PDOException"}
    with answering_login(500, failed) as server:
        code, err = run(
            "--server",
            server,
            "--email",
            "ada@example.com",
            "--space",
            "s",
            "-o",
            str(tmp_path / "x.csv"),
        )
    assert code == ExitCode.SERVER
    assert "try again later" in err


@pytest.mark.parametrize(
    ("retry_after", "said"),
    [(60, "You can try again in 60 seconds."), (300, "You can try again in about 5 minutes.")],
)
def test_a_wait_longer_than_the_client_waits_is_said(
    demo_server, password, tmp_path, retry_after, said
):
    demo_server.faults.inject(Fault.RATE_LIMITED, target="cards", retry_after=retry_after)
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "-o", str(tmp_path / "x.csv")
    )
    assert code == ExitCode.SERVER
    assert err == (
        f"The server is busy with too many requests. Please wait a moment. {said}\n"
        f"Nothing was written to {tmp_path / 'x.csv'}.\n"
    ), "what was left said after why, for a job's log"
    assert not (tmp_path / "x.csv").exists()


def test_an_unreachable_server_is_a_network_failure(password, demo_server, tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    code, err = run(
        "--server",
        f"http://127.0.0.1:{port}",
        "--email",
        demo_server.email,
        "--space",
        "x",
        "-o",
        str(tmp_path / "x.csv"),
    )
    assert code == ExitCode.NETWORK
    assert "Cannot reach" in err


def test_an_answer_that_stays_unreadable_is_a_server_failure(demo_server, password, tmp_path):
    demo_server.faults.inject(Fault.TRUNCATED_JSON, times=10, target="cards")
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "-o", str(tmp_path / "x.csv")
    )
    assert code == ExitCode.SERVER
    assert "not readable data" in err
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_cannot_be_written_keeps_the_earlier_one(demo_server, password, tmp_path):
    folder = tmp_path / "gone"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "-o", str(folder / "x.csv")
    )
    assert code == ExitCode.WRITE
    assert err == (
        f"Cannot write {folder / 'x.csv'}: "
        "The folder does not exist (any more); choose another folder.\n"
    ), "the window's words for it, untranslated"


@pytest.mark.parametrize("whole", [False, True], ids=["page", "all"])
def test_a_file_that_cannot_be_written_is_said_before_signing_in(demo_server, tmp_path, whole):
    """Said only once every page had come: 42 s for 100,000 cards."""
    target = tmp_path / "gone" / "x.csv"
    pages = ["--all"] if whole else []
    code, err = run(*account(demo_server), "--space", "s", *pages, "-o", str(target))
    assert code == ExitCode.WRITE, "with no password given, signing in would be refused"
    assert err == (
        f"Cannot write {target}: The folder does not exist (any more); choose another folder.\n"
    )
    code, err = run(*account(demo_server), "--space", "s", *pages, "-o", str(tmp_path))
    assert (code, err) == (
        ExitCode.WRITE,
        f"Cannot write {tmp_path}: A folder of that name is in the way; choose another name.\n",
    )
    assert list(tmp_path.iterdir()) == [], "nothing left of the check"


class FullDisk(io.BytesIO):
    """A temporary file on a disk that fills up at its first write."""

    def write(self, _data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def writelines(self, _lines: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("file_format", ["csv", "pdf"])
def test_a_full_temporary_folder_is_not_said_to_be_the_file_s_disk(
    qapp, demo_server, password, tmp_path, monkeypatch, file_format
):
    """The rows wait there until the last page: "The disk is full." sent the person to
    the file's disk, with room to spare. (`qapp`: the PDF is drawn in this process, which
    would otherwise make a bare `QGuiApplication`, and a later test's widgets abort.)"""
    monkeypatch.setattr(tempfile, "TemporaryFile", FullDisk)
    target = tmp_path / f"all.{file_format}"
    space = ["--space", demo_server.space_id, "--all"]
    code, err = run(*account(demo_server), *space, "-o", str(target))
    assert code == ExitCode.WRITE
    assert err == (
        f"Cannot write {target}: The disk of the temporary folder ({tempfile.gettempdir()}) "
        "is full; make room there.\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_file_is_not_replaced(demo_server, password, tmp_path, monkeypatch):
    """The new file took its name by a rename, which the folder allowed: the file the
    person made read-only was replaced, and kept its read-only mode."""
    target = tmp_path / "kept.csv"
    target.write_text("earlier\n")
    target.chmod(0o444)
    if os.name == "posix" and os.geteuid() == 0:  # root may write anything: as a person
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK and real_access(p, mode))
    code, err = run(*account(demo_server), "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.WRITE
    assert err == f"Cannot write {target}: The file is read-only; choose another name.\n"
    assert target.read_text() == "earlier\n"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.csv"]


def test_bad_arguments_are_usage_errors(tmp_path, capsys):
    assert run("--space", "x")[0] == ExitCode.USAGE  # no -o
    assert run("--space", "x", "--page", "0", "-o", str(tmp_path / "x.csv"))[0] == ExitCode.USAGE
    code, err = run("--space", "x", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.SIGN_IN, "nothing to sign in with: a sign-in, not an argument"
    assert "--server" in err


@pytest.mark.parametrize("option", ["-o", "--changes"])
def test_a_name_ending_in_a_folder_s_separator_is_refused(option, tmp_path, capsys):
    """`-o exports/` wrote a file called `exports`, with exit 0."""
    from cardviewer import cli_sync

    folder = f"{tmp_path / 'exports'}/"
    if option == "-o":
        code = main(["--space", "x", "-o", folder], stderr=io.StringIO())
    else:
        code = cli_sync.main(["--space", "x", "--changes", folder], stderr=io.StringIO())
    assert code == ExitCode.USAGE
    assert f"{folder} names a folder, not a file: add a file name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_saved_session_of_another_account_is_named_not_said_missing(
    demo_server, monkeypatch, tmp_path
):
    """ "there is no saved session" was said where there was one, of another e-mail; and
    the one saved was not used for its own address written in capitals."""
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    session = Session.model_validate(demo_server.issue_token())
    SessionStore().save(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    )
    target = tmp_path / "x.csv"
    other = ["--server", demo_server.base_url, "--email", "bob@example.com"]
    code, err = run(*other, "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.SIGN_IN
    host = demo_server.base_url.removeprefix("http://")
    assert err.startswith(
        f"error: not signed in: the saved session is {demo_server.email}'s on {host}, and "
        "no password is given."
    )
    capitals = ["--server", demo_server.base_url, "--email", demo_server.email.upper()]
    code, err = run(*capitals, "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.OK, err


def test_the_site_file_gives_the_server(demo_server, password, monkeypatch, tmp_path):
    site_file = tmp_path / "cardviewer-site.json"
    site_file.write_text(json.dumps({"server_url": demo_server.base_url}))
    monkeypatch.setattr(site_config, "candidate_paths", lambda: [site_file])
    target = tmp_path / "page.csv"
    code, err = run(
        "--email", demo_server.email, "--space", demo_server.space_id, "-o", str(target)
    )
    assert code == ExitCode.OK, err
    assert len(read_csv(target)) > 1


def test_without_a_server_anywhere_a_sign_in_is_needed(password, monkeypatch, tmp_path):
    monkeypatch.setattr(site_config, "candidate_paths", lambda: [tmp_path / "none.json"])
    code, err = run("--email", "a@example.com", "--space", "s", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.SIGN_IN
    assert "and no --server is given, nor a site file. Sign in in the app with" in err
    assert err.endswith("or give --server.\n")


@pytest.mark.parametrize("userinfo", ["admin:s3cret-pw@", "s3cret-pw@"])
def test_a_server_address_with_a_password_is_refused_and_never_repeated(
    demo_server, password, tmp_path, private_user_dirs, userinfo
):
    server = demo_server.base_url.replace("://", f"://{userinfo}")
    code, err = run(
        "--server",
        server,
        "--email",
        demo_server.email,
        "--space",
        "x",
        "-v",
        "-o",
        str(tmp_path / "x.csv"),
    )
    assert code == ExitCode.USAGE
    assert "must not contain a user name or password" in err
    assert "s3cret-pw" not in err
    assert demo_server.requests == [], "nothing was sent"
    for path in (p for p in private_user_dirs.rglob("*") if p.is_file()):
        assert b"s3cret-pw" not in path.read_bytes(), path


def test_verbose_logs_neither_token_nor_password_and_are_put_back(
    demo_server, monkeypatch, tmp_path
):
    secret = "a-l0ng-Demo-passw0rd"
    monkeypatch.setattr(demo_server, "password", secret)
    monkeypatch.setenv(PASSWORD_VARIABLE, secret)
    tokens: list[str] = []
    login = CardsClient.login

    async def keep_token(self: CardsClient, email: str, password: str) -> Session:
        session = await login(self, email, password)
        tokens.append(session.access_token)
        return session

    monkeypatch.setattr(CardsClient, "login", keep_token)
    demo_server.faults.inject(Fault.TRUNCATED_JSON, times=1, target="cards")
    root = logging.getLogger()
    before = (list(root.handlers), root.level, logging.getLogger("httpcore").level)

    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "-v", "-o", str(tmp_path / "x.csv")
    )

    assert code == ExitCode.OK, "the cut answer was read again"
    assert "DEBUG" in err, "-v logged the details"
    assert "/cards: HTTP 200 on attempt 1/4; trying again in" in err
    assert tokens
    assert tokens[0] not in err
    assert tokens[0].split(".")[-1][:30] not in err
    assert secret not in err
    assert (list(root.handlers), root.level, logging.getLogger("httpcore").level) == before


# For scripts: JSON lines, standard output, a quiet run, a summary


def sent_page(demo_server, number: int, *, with_emails: bool = False) -> list[dict[str, object]]:
    """The card objects of a page exactly as the server sends them."""
    import httpx

    token = demo_server.issue_token()["access_token"]
    query = "&with=emails" if with_emails else ""
    response = httpx.get(
        f"{demo_server.base_url}/v1/spaces/{demo_server.space_id}/cards?page={number}{query}",
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
    )
    data: list[dict[str, object]] = response.json()["data"]
    return data


def test_json_lines_hold_each_card_as_the_server_sent_it(demo_server, password, tmp_path):
    # Values the app sets aside stay as sent: this answer and the one fetched below.
    demo_server.faults.inject(Fault.WRONG_TYPES, times=2)
    target = tmp_path / "page.jsonl"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--page", "2", "-o", str(target)
    )
    assert code == ExitCode.OK
    *warnings, last = err.splitlines(keepends=True)
    assert exported(last, 10, demo_server.space_id, target), err
    assert warnings == [], "written as sent: nothing was set aside"
    lines = target.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == sent_page(demo_server, 2)
    assert all("\n" not in line for line in lines)


def test_values_of_the_wrong_type_are_told_in_a_line_a_page(demo_server, password, tmp_path):
    demo_server.faults.inject(Fault.WRONG_TYPES, times=2)
    target = tmp_path / "all.csv"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--all", "-o", str(target)
    )
    assert code == ExitCode.OK
    warnings = [line for line in err.splitlines() if line.startswith("WARNING")]
    assert [line.split(": ", 1)[1].split(";")[0] for line in warnings] == [
        "page 1: ignored invalid fields in 5 of 10 cards: avatar (1), connects (1), "
        "created_at (1), display_name (1), public (1)",
        "page 2: ignored invalid fields in 5 of 10 cards: avatar (1), connects (1), "
        "created_at (1), display_name (1), public (1)",
    ]


def test_every_card_as_json_lines_to_standard_output(demo_server, password, tmp_path):
    out = io.BytesIO()
    err = io.StringIO()
    options = ["--all", "--with-emails", "--format", "jsonl", "-o", "-"]
    code = main(
        [*account(demo_server), "--space", demo_server.space_id, *options],
        stderr=err,
        stdout=out,
    )
    assert code == ExitCode.OK
    assert exported(err.getvalue(), 240, demo_server.space_id, "standard output")
    cards = [json.loads(line) for line in out.getvalue().decode("utf-8").splitlines()]
    assert len(cards) == 240
    assert cards[:10] == sent_page(demo_server, 1, with_emails=True)
    assert list(tmp_path.iterdir()) == [], "nothing left behind"


def test_csv_to_standard_output_and_quiet_says_nothing(demo_server, password):
    out = io.BytesIO()
    err = io.StringIO()
    arguments = [*account(demo_server), "--space", demo_server.space_id, "-q", "-o", "-"]
    assert main(arguments, stderr=err, stdout=out) == ExitCode.OK
    assert err.getvalue() == ""
    rows = list(csv.reader(io.StringIO(out.getvalue().decode("utf-8-sig"))))
    assert rows[0][:3] == ["ID", "Avatar URL", "Name"]
    assert len(rows) == 11


def test_a_failed_export_to_standard_output_writes_nothing_there(demo_server, password):
    demo_server.faults.inject(Fault.TRUNCATED_JSON, times=100)
    out = io.BytesIO()
    err = io.StringIO()
    arguments = [*account(demo_server), "--space", demo_server.space_id, "--all", "-o", "-"]
    assert main(arguments, stderr=err, stdout=out) == ExitCode.SERVER
    assert out.getvalue() == b""
    assert "Exported" not in err.getvalue()


class Terminal(io.BytesIO):
    def isatty(self) -> bool:
        return True


def test_a_workbook_is_not_written_to_a_terminal(demo_server, password):
    err = io.StringIO()
    arguments = [*account(demo_server), "--space", demo_server.space_id, "--format", "xlsx"]
    code = main([*arguments, "-o", "-"], stderr=err, stdout=Terminal())
    assert code == ExitCode.USAGE
    assert "redirect standard output" in err.getvalue()
    assert demo_server.requests == [], "refused before signing in"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--format", "jsonl", "-o", "cards.csv"], "cards.csv is the name of a CSV file"),
        (["--format", "csv", "-o", "cards.jsonl"], "cards.jsonl is the name of a JSON lines"),
        (["--delimiter", ";", "-o", "cards.jsonl"], "--delimiter is for CSV files"),
    ],
)
def test_json_lines_are_named_and_separated_as_such(demo_server, password, arguments, said):
    code, err = run(*account(demo_server), "--space", demo_server.space_id, *arguments)
    assert code == ExitCode.USAGE
    assert said in err


def test_input_that_ends_at_the_password_prompt_is_no_password_not_a_traceback(
    demo_server, tmp_path, monkeypatch
):
    """Ctrl+D at "Password for …:" (or a terminal whose input closes) was a traceback
    and 1."""
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    asked: list[str] = []

    def input_ended(prompt: str, stream: Any = None) -> str:
        asked.append(prompt)
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", input_ended)
    target = tmp_path / "cards.csv"
    code, err = run(*account(demo_server), "--space", demo_server.space_id, "-o", str(target))
    assert asked == [f"Password for {demo_server.email}: "]
    assert code == ExitCode.SIGN_IN
    assert err == (
        f"\nerror: not signed in: no password was typed (the input ended); set "
        f"{PASSWORD_VARIABLE}, or type it when asked.\n"
    )
    assert not target.exists()


def test_input_that_ends_when_the_session_ends_midway_stops_as_without_a_terminal(
    demo_server, password, tmp_path, monkeypatch
):
    """Asked again for the password after the server ended the session, the input ended."""
    demo_server.faults.inject(Fault.REVOKED_TOKEN, target="cards")
    monkeypatch.delenv(PASSWORD_VARIABLE)
    session = Session.model_validate(demo_server.issue_token())
    SessionStore().save(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    )
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)

    def input_ended(prompt: str, stream: Any = None) -> str:
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", input_ended)
    target = tmp_path / "cards.csv"
    code, err = run(*account(demo_server), "--space", demo_server.space_id, "-o", str(target))
    assert code == ExitCode.SIGN_IN, err
    assert "Traceback" not in err
    assert "Your sign-in has expired or was ended. Please sign in again." in err
    assert not target.exists()


def test_help_shows_an_example(capsys):
    assert main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert "examples:" in shown
    assert "cardviewer export --server https://cards.example.com" in shown
    assert "--format jsonl -o -" in shown


@pytest.mark.parametrize(
    ("done", "line"),
    [
        (FetchProgress(1, 100, 10, 0.1), "Page 1 of 100, 10 cards, 100 cards/s"),
        (
            FetchProgress(20, 100, 200, 4.0),
            "Page 20 of 100, 200 cards, 50 cards/s, about 16 s left",
        ),
        (
            FetchProgress(1_000, 10_000, 10_000, 100.0),
            "Page 1,000 of 10,000, 10,000 cards, 100 cards/s, about 15 min left",
        ),
        (FetchProgress(100, 100, 1_000, 2.0), "Page 100 of 100, 1,000 cards, 500 cards/s"),
        (
            FetchProgress(1_000, 10_000, 10_000, 100.0, retrying_in=14.2),
            "Page 1,000 of 10,000, 10,000 cards, the server is not responding; "
            "trying again in 15 s",
        ),
        (
            FetchProgress(0, 0, 0, 3.0, retrying_in=2.0),
            "Fetching the first page, the server is not responding; trying again in 2 s",
        ),
        (
            FetchProgress(0, 0, 0, 3.0, retrying_in=0.0, asked_to_wait=True),
            "Fetching the first page, the server asked to wait; trying again",
        ),
        (
            FetchProgress(1_000, 10_000, 10_000, 100.0, unanswered_for=12.7),
            "Page 1,000 of 10,000, 10,000 cards, "
            "the server has not answered for 12 s, still waiting",
        ),
        (
            FetchProgress(0, 0, 0, 6.0, unanswered_for=6.0),
            "Fetching the first page, the server has not answered for 6 s, still waiting",
        ),
    ],
    ids=[
        "first",
        "later",
        "many",
        "last",
        "waiting",
        "waiting for the first",
        "asked",
        "unanswered",
        "first unanswered",
    ],
)
def test_progress_says_pages_cards_rate_and_time_left(done, line):
    assert cli.progress_line(done) == line


def test_the_summary_counts_one_card_as_one():
    target = cli.Output(Path("one.csv"), "csv", ",")
    assert (
        cli.summary(1, "acme", target, 0.04) == "Exported 1 card of space acme to one.csv in 0.0 s"
    )


# A session the server ends midway


def logins(demo_server) -> int:
    return sum(1 for r in demo_server.requests if r.path.endswith("/login"))


def test_with_the_password_a_session_ended_midway_signs_in_again_and_goes_on(
    demo_server, password, tmp_path
):
    target = tmp_path / "all.csv"
    pages: list[int] = []
    fetched = CardsClient.list_cards

    async def list_cards(
        self: CardsClient, space_id: str, page: int = 1, **options: Any
    ) -> CardPage:
        if page == 7 and 7 not in pages:
            demo_server.revoke_all_tokens()  # as when the password is changed meanwhile
        pages.append(page)
        return await fetched(self, space_id, page, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CardsClient, "list_cards", list_cards)
        code, err = run(
            *account(demo_server),
            "--space",
            demo_server.space_id,
            "--all",
            "--concurrency",
            "1",
            "-o",
            str(target),
        )
    assert code == ExitCode.OK, err
    assert exported(err, 240, demo_server.space_id, target), err
    assert logins(demo_server) == 2, "signed in once more"
    assert pages.count(7) == 2, "the page that failed is asked for again"
    assert sorted(set(pages)) == list(range(1, 25))
    assert len(read_csv(target)) == 241


def test_without_a_password_a_session_ended_midway_stops_and_says_how(
    demo_server, monkeypatch, tmp_path
):
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    session = Session.model_validate(demo_server.issue_token())
    SessionStore().save(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    )
    demo_server.faults.inject(Fault.REVOKED_TOKEN, target="cards")
    target = tmp_path / "all.csv"
    code, err = run("--space", demo_server.space_id, "--all", "-o", str(target))
    assert code == ExitCode.SIGN_IN
    assert f"set {PASSWORD_VARIABLE}" in err
    assert not target.exists()
    assert logins(demo_server) == 0


def test_a_server_that_ends_every_session_stops_the_export(demo_server, password, tmp_path):
    demo_server.faults.inject(Fault.REVOKED_TOKEN, times=100, target="cards")
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "-o", str(tmp_path / "x.csv")
    )
    assert code == ExitCode.SIGN_IN
    assert logins(demo_server) == 1 + cli.SignInAgain.MAX_TIMES
    assert "set CARDVIEWER_PASSWORD" not in err, "the password was at hand"
    # "Please sign in again" was no advice to a job that had just done so, three times.
    assert err.startswith(
        "The server ended the session again each time the export signed in again "
        "(3 times). Ask the platform's administrator why.\nNothing was written to "
    )


def test_vcards_for_outlook_and_phones(demo_server, password, tmp_path):
    import vobject

    target = tmp_path / "team.vcf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--with-emails", "-o", str(target)
    )
    assert code == ExitCode.OK
    assert exported(err, 10, demo_server.space_id, target), err
    contacts = list(vobject.readComponents(target.read_text(encoding="utf-8")))
    sent = sent_page(demo_server, 1, with_emails=True)
    assert [contact.uid.value for contact in contacts] == [card["uuid"] for card in sent]
    assert {contact.version.value for contact in contacts} == {"3.0"}
    addresses = [[line.value for line in c.contents.get("email", [])] for c in contacts]
    assert addresses == [[e["email"] for e in card.get("emails", [])] for card in sent]  # type: ignore[attr-defined]

    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--all",
        "--format", "vcf", "--vcard-version", "4.0", "-o", "-",
    )  # fmt: skip
    assert code == ExitCode.OK


def test_a_vcard_version_is_for_vcards_only(demo_server, password, tmp_path):
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id,
        "--vcard-version", "4.0", "-o", str(tmp_path / "cards.csv"),
    )  # fmt: skip
    assert code == ExitCode.USAGE
    assert "--vcard-version is for vCard files" in err


def test_a_phone_list_to_print(qapp, demo_server, password, tmp_path):
    import pypdf

    target = tmp_path / "phones.pdf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--all", "--with-emails",
        "-o", str(target),
    )  # fmt: skip
    assert code == ExitCode.OK, err
    assert exported(err, demo_server.config.card_count, demo_server.space_id, target), err
    pages = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(target).pages]
    assert pages[0].startswith("Phone list of Acme Europe GmbH")
    assert pages[-1].endswith(f"Page {len(pages)}")
    text = " ".join(pages)
    first = sent_page(demo_server, 1, with_emails=True)[0]
    assert str(first["display_name"]) in text
    assert first["emails"][0]["email"] in text.replace(" ", "")  # type: ignore[index]

    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--format", "pdf",
        "-o", str(tmp_path / "phones.csv"),
    )  # fmt: skip
    assert code == ExitCode.USAGE
    assert "phones.csv is the name of a CSV file, but --format pdf asks for a PDF phone list" in err


def test_a_phone_list_with_qr_codes_and_the_flag_for_nothing_else(
    qapp, demo_server, password, tmp_path
):
    import pypdf
    import zxingcpp

    target = tmp_path / "phones.pdf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--qr-codes", "-o", str(target),
    )  # fmt: skip
    assert code == ExitCode.OK, err
    pictures = [p.image for page in pypdf.PdfReader(target).pages for p in page.images]
    sent = sent_page(demo_server, 1)
    assert len(pictures) == len(sent)
    assert zxingcpp.read_barcodes(pictures[0])[0].text.startswith("BEGIN:VCARD")

    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--qr-codes",
        "-o", str(tmp_path / "cards.csv"),
    )  # fmt: skip
    assert code == ExitCode.USAGE
    assert "--qr-codes is for the phone list (--format pdf)" in err


def own_avatar(card: dict[str, object]) -> bool:
    avatar = card.get("avatar")
    return isinstance(avatar, dict) and avatar.get("uuid") is not None


def faces(path: Path) -> list[int]:
    """How many cards' pictures each page of a phone list shows (160 pixels square: no QR
    code is, and an emoji in a name is smaller)."""
    import pypdf

    from cardviewer.services.phone_list import PICTURE_PIXELS

    side = (PICTURE_PIXELS, PICTURE_PIXELS)
    pages = pypdf.PdfReader(path).pages
    return [
        sum(getattr(picture.image, "size", None) == side for picture in page.images)
        for page in pages
    ]


def test_a_phone_list_with_each_card_s_picture(qapp, demo_server, password, tmp_path):
    import pypdf

    target = tmp_path / "phones.pdf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--pictures", "-o", str(target),
    )  # fmt: skip
    assert code == ExitCode.OK, err
    sent = sent_page(demo_server, 1)
    own = [card for card in sent if own_avatar(card)]
    assert own
    assert len(own) < len(sent), "the demo has cards with the default picture too"
    assert faces(target) == [len(own)], "the others show their initials"
    avatars = [r for r in demo_server.requests if r.server == "avatar"]
    assert len(avatars) == len(own), "each picture asked for once"
    text = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(target).pages)
    names = [name for card in sent if (name := str(card["display_name"])).isascii()]
    assert [name for name in names if name in text] == names

    demo_server.requests.clear()
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--all", "--qr-codes",
        "--pictures", "-o", str(target),
    )  # fmt: skip
    assert code == ExitCode.OK, err
    assert exported(err, demo_server.config.card_count, demo_server.space_id, target), err
    shown = sum(faces(target))
    assert 0 < shown < demo_server.config.card_count
    assert shown == len([r for r in demo_server.requests if r.server == "avatar"])
    codes = [p for page in pypdf.PdfReader(target).pages for p in page.images]
    assert len(codes) >= demo_server.config.card_count + shown, "a QR code beside each card"


def test_a_picture_that_cannot_be_had_costs_its_card_the_picture_not_the_list(
    qapp, demo_server, password, tmp_path
):
    demo_server.faults.inject(Fault.HTML_502, times=2, target="avatar")
    target = tmp_path / "phones.pdf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--pictures", "-o", str(target),
    )  # fmt: skip
    assert code == ExitCode.OK, err
    assert exported(err, 10, demo_server.space_id, target), err
    sent = sent_page(demo_server, 1)
    assert faces(target) == [sum(own_avatar(card) for card in sent) - 2]


def test_pictures_are_for_the_phone_list_only(demo_server, password, tmp_path):
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id,
        "--pictures", "-o", str(tmp_path / "cards.vcf"),
    )  # fmt: skip
    assert (code, err) == (
        ExitCode.USAGE,
        "error: --pictures is for the phone list (--format pdf)\n",
    )
    assert demo_server.requests == [], "refused before signing in"
    assert list(tmp_path.iterdir()) == []


def test_the_help_names_the_pictures_option(capsys):
    assert main(["--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "--pictures with --format pdf: each card's picture at the start of its row" in shown


def jpeg_side(data: bytes) -> tuple[int, int]:
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG"
    image.load()
    return image.size


def test_vcards_with_photos_from_the_avatar_host(demo_server, password, tmp_path):
    import vobject

    target = tmp_path / "team.vcf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--photos", "-o", str(target)
    )
    assert code == ExitCode.OK, err
    assert exported(err, 10, demo_server.space_id, target), err
    contacts = list(vobject.readComponents(target.read_text(encoding="utf-8")))
    sent = sent_page(demo_server, 1)
    wanted = [str(card["uuid"]) for card in sent if own_avatar(card)]
    assert wanted
    assert len(wanted) < len(sent), "the demo has cards with the default picture too"
    assert [c.uid.value for c in contacts if "photo" in c.contents] == wanted
    assert {jpeg_side(c.photo.value) for c in contacts if "photo" in c.contents} == {(96, 96)}
    avatars = [r for r in demo_server.requests if r.server == "avatar"]
    assert len(avatars) == len(wanted), "each picture asked for once"


def test_every_vcard_4_with_photos_to_standard_output(demo_server, password):
    from tests.services.test_vcard_export import data_address_photo, photo_uris

    out, err = io.BytesIO(), io.StringIO()
    options = ["--all", "--format", "vcf", "--vcard-version", "4.0", "--photos", "-o", "-"]
    code = main(
        [*account(demo_server), "--space", demo_server.space_id, *options], stderr=err, stdout=out
    )
    assert code == ExitCode.OK, err.getvalue()
    text = out.getvalue().decode("utf-8")
    assert text.count("BEGIN:VCARD") == text.count("VERSION:4.0") == 240
    photos = photo_uris(text)
    assert 100 < len(photos) < 240
    assert {jpeg_side(data_address_photo(value)) for value in photos} == {(96, 96)}


def test_a_picture_that_cannot_be_had_costs_its_card_the_photo_not_the_export(
    demo_server, password, tmp_path
):
    demo_server.faults.inject(Fault.HTML_502, times=2, target="avatar")
    target = tmp_path / "team.vcf"
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id, "--photos", "-o", str(target)
    )
    assert code == ExitCode.OK, err
    sent = sent_page(demo_server, 1)
    photos = target.read_bytes().count(b"\r\nPHOTO;")
    assert photos == sum(own_avatar(card) for card in sent) - 2


def test_photos_are_for_vcards_only(demo_server, password, tmp_path):
    code, err = run(
        *account(demo_server), "--space", demo_server.space_id,
        "--photos", "-o", str(tmp_path / "cards.csv"),
    )  # fmt: skip
    assert (code, err) == (ExitCode.USAGE, "error: --photos is for vCard files (--format vcf)\n")
    assert demo_server.requests == [], "refused before signing in"
    assert list(tmp_path.iterdir()) == []


def test_the_help_names_the_photos_option(capsys):
    assert main(["--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "--photos with --format vcf: each card's picture in its vCard" in shown


@pytest.mark.parametrize("replaced", [False, True])
def test_interrupted_it_says_whether_the_file_was_written(tmp_path, monkeypatch, replaced):
    """Ctrl+C while the file is written ends the program only once the writing thread
    is done: the file may have been written whole by then, and it says so."""
    target = tmp_path / "cards.csv"
    target.write_text("the export before")

    async def interrupted(*_args: object) -> int:
        if replaced:
            written = tmp_path / "written"
            written.write_text("the new export")
            written.replace(target)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_export", interrupted)
    err = io.StringIO()
    account = ["--server", "http://127.0.0.1:9", "--email", "ada@example.com", "--space", "s"]
    code = main([*account, "--all", "-o", str(target)], stderr=err)
    assert code == ExitCode.INTERRUPTED
    if replaced:
        assert err.getvalue().endswith(f"Interrupted, but only once {target} was written whole.\n")
    else:
        assert err.getvalue().endswith("Interrupted; nothing was written.\n")
        assert target.read_text() == "the export before"


@pytest.mark.usefixtures("ctrl_c_heard")
def test_a_second_ctrl_c_waits_until_the_work_has_let_go_of_what_it_held():
    """A second Ctrl+C (or SIGTERM after one) while a sync let go of its store raised
    KeyboardInterrupt there: the store was closed under the thread still dropping its
    rows, and the process crashed."""
    happened: list[str] = []

    async def work() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            happened.append("called off")
            signal.raise_signal(signal.SIGINT)  # pressed again while letting go
            signal.raise_signal(signal.SIGTERM)
            await asyncio.sleep(0.2)
            happened.append("let go")
            raise

    first = threading.Timer(0.2, signal.raise_signal, (signal.SIGINT,))
    first.start()
    with pytest.raises(KeyboardInterrupt):
        cli.run_until_interrupted(work())
    first.join()
    assert happened == ["called off", "let go"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "put back"


def test_work_that_ends_unasked_is_its_result_and_its_own_cancellation_no_interruption():
    async def answer() -> int:
        return 42

    async def cancelled() -> None:
        raise asyncio.CancelledError

    assert cli.run_until_interrupted(answer()) == 42
    with pytest.raises(asyncio.CancelledError):
        cli.run_until_interrupted(cancelled())


def test_a_second_signal_ends_work_that_holds_the_loop_up():
    """Work blocked outside the loop (a write to a pipe nobody reads) never sees the
    first signal's cancellation: the second raises KeyboardInterrupt there, as
    `asyncio.run` did, rather than being let go like the first."""
    happened: list[str] = []

    main_thread = threading.main_thread().ident
    assert main_thread is not None

    async def blocked() -> None:
        for after in (0.2, 0.4):
            terminate = (main_thread, signal.SIGTERM)
            threading.Timer(after, signal.pthread_kill, terminate).start()
        try:
            select.select([], [], [], 5)  # held up outside the loop
        except KeyboardInterrupt:
            happened.append("interrupted")
            raise

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        cli.run_until_interrupted(blocked())
    assert happened == ["interrupted"]
    assert time.monotonic() - started < 4


@pytest.mark.usefixtures("ctrl_c_heard")
def test_work_interrupted_before_it_began_is_closed_without_a_warning(monkeypatch):
    """Ctrl+C as the loop was made: the work, never begun, was reported "never awaited"."""
    made = asyncio.Runner._lazy_init  # type: ignore[attr-defined]

    def interrupted_as_made(runner: asyncio.Runner) -> None:
        made(runner)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(asyncio.Runner, "_lazy_init", interrupted_as_made)

    async def work() -> int:
        return 0

    coroutine = work()
    with pytest.raises(KeyboardInterrupt):
        cli.run_until_interrupted(coroutine)
    assert inspect.getcoroutinestate(coroutine) == inspect.CORO_CLOSED
