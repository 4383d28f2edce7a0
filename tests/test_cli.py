"""`cardviewer export` against the demo server: files, passwords, sessions and exit codes."""

from __future__ import annotations

import csv
import io
import json
import logging
import socket

import openpyxl
import pytest

from cardviewer.api import CardsClient, Session
from cardviewer.cli import PASSWORD_VARIABLE, ExitCode, main
from cardviewer.demo import Fault
from cardviewer.services import site_config
from cardviewer.services.session_store import SessionStore, StoredSession


@pytest.fixture
def password(monkeypatch, demo_server):
    monkeypatch.setenv(PASSWORD_VARIABLE, demo_server.password)


def run(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main(list(args), stderr=err)
    return code, err.getvalue()


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
    assert (code, err) == (ExitCode.OK, "")
    rows = read_csv(target)
    assert len(rows) == 241
    assert rows[0] == [
        "Avatar URL",
        "Name",
        "Username",
        "Position",
        "Public",
        "Connected cards",
        "Connects",
        "Subscriptions",
        "Created",
        "Updated",
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
    sheet = openpyxl.load_workbook(tmp_path / "page.xlsx").active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 11
    assert "E-mails" in rows[0]


def test_wrong_password_is_a_sign_in_failure(demo_server, monkeypatch, tmp_path):
    monkeypatch.setenv(PASSWORD_VARIABLE, "not the password")
    code, err = run(*account(demo_server), "--space", "x", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.SIGN_IN
    assert "not the password" not in err
    assert not (tmp_path / "x.csv").exists()


def test_no_password_without_a_terminal_is_a_usage_error(demo_server, monkeypatch, tmp_path):
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    code, err = run(*account(demo_server), "--space", "x", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.USAGE
    assert PASSWORD_VARIABLE in err


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


def test_an_unreadable_answer_is_a_server_failure(demo_server, password, tmp_path):
    demo_server.faults.inject(Fault.TRUNCATED_JSON, times=1, target="cards")
    code, _ = run(
        *account(demo_server), "--space", demo_server.space_id, "-o", str(tmp_path / "x.csv")
    )
    assert code == ExitCode.SERVER


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


def test_bad_arguments_are_usage_errors(tmp_path, capsys):
    assert run("--space", "x")[0] == ExitCode.USAGE  # no -o
    assert run("--space", "x", "--page", "0", "-o", str(tmp_path / "x.csv"))[0] == ExitCode.USAGE
    code, err = run("--space", "x", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.USAGE
    assert "--server" in err


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


def test_without_a_server_anywhere_it_is_a_usage_error(password, monkeypatch, tmp_path):
    monkeypatch.setattr(site_config, "candidate_paths", lambda: [tmp_path / "none.json"])
    code, err = run("--email", "a@example.com", "--space", "s", "-o", str(tmp_path / "x.csv"))
    assert code == ExitCode.USAGE
    assert "--server is needed" in err


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

    assert code == ExitCode.SERVER
    assert "DEBUG" in err, "-v logged the details"
    assert "/cards" in err
    assert tokens
    assert tokens[0] not in err
    assert tokens[0].split(".")[-1][:30] not in err
    assert secret not in err
    assert (list(root.handlers), root.level, logging.getLogger("httpcore").level) == before
