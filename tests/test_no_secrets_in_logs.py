"""No token or password in any output, at the most verbose, whatever the server sends back.

A server on loopback answers in the odd ways a real one might: a login answer missing
`expires_at` (its whole body goes to a log detail), and after signing in, an error
whose body echoes the Authorization header, carries the token under unusual names and
bare in its message, and repeats the password. The command line (`-v`) and the window
(`--verbose`) run against it in a fresh home; neither token nor password may be found on
stdout, stderr or in any file there but the saved session.
"""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from cardviewer import app as app_module
from cardviewer.controller import AppController
from cardviewer.log_setup import install_file_log, log_file_path, remove_file_log
from cardviewer.services.session_store import SessionStore
from cardviewer.services.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
WAIT = 15_000
EMAIL = "ada@example.com"
SPACE = "space0odd"
# Distinctive cores that survive any escaping: a leak shows them whatever form it takes.
TOKEN_CORE = "Zq7mWx41OpaqueTokenCore"
TOKEN = f"tk_{TOKEN_CORE}_9f8e7d6c5b4a"
PASSWORD_CORE = "Xyzzy42plugh"
PASSWORD = f"Hünter2-{PASSWORD_CORE}!"
EXPIRES_AT = "2099-01-01T00:00:00.000000Z"


class OddServer:
    """The login and card-list endpoints, answering with secrets where they should not be.

    The next `incomplete_logins` logins answer without `expires_at`, later ones in full.
    The card list always fails with a 403 whose body repeats the token and the password.
    """

    def __init__(self) -> None:
        self.incomplete_logins = 0
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass  # not on the test's stderr, which is examined

            def do_POST(self) -> None:
                server.requests.append(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                sent = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/auth/login" or sent.get("password") != PASSWORD:
                    self.answer(422, {"message": "These credentials do not match."})
                    return
                body: dict[str, object] = {"access_token": TOKEN, "session_id": "s-1"}
                if server.incomplete_logins > 0:
                    server.incomplete_logins -= 1
                    body["debug"] = {"input": {"email": EMAIL, "pw": PASSWORD}}
                else:
                    body["expires_at"] = EXPIRES_AT
                self.answer(200, body)

            def do_GET(self) -> None:
                server.requests.append(self.path)
                self.answer(
                    403,
                    {
                        "message": f"Token {TOKEN} may not read this space",
                        "exception": "AccessDenied",
                        "request": {
                            "headers": {
                                "authorization": [self.headers.get("Authorization", "")],
                                "x-echo": [TOKEN],
                            },
                            "sess": TOKEN,
                            "kept": f"{EMAIL}:{PASSWORD}",
                        },
                    },
                )

            def answer(self, status: int, body: object) -> None:
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._http.server_address[1]}"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def __enter__(self) -> OddServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(5)


@pytest.fixture
def odd_server() -> Iterator[OddServer]:
    with OddServer() as server:
        yield server


def assert_no_secret(text: str, where: str) -> None:
    for core in (TOKEN_CORE, PASSWORD_CORE):
        assert core not in text, f"{core} in {where}:\n{text}"


def assert_no_secret_in_files(home: Path) -> None:
    """No file holds the password; only the saved session may hold the token."""
    for path in (p for p in home.rglob("*") if p.is_file()):
        text = path.read_bytes().decode("utf-8", "replace")
        assert PASSWORD_CORE not in text, path
        if path.name != "session.json":
            assert TOKEN_CORE not in text, path


def child_env(home: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("XDG_", "CARDVIEWER_", "PYTEST_"))
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        QT_QPA_PLATFORM="offscreen",
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
    )
    return env


def run_child(
    home: Path, *args: str, password: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = child_env(home)
    if password is not None:
        env["CARDVIEWER_PASSWORD"] = password
    return subprocess.run(
        [sys.executable, *args],
        cwd=home,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def export(home: Path, server: OddServer, *more: str) -> list[str]:
    return ["-m", "cardviewer", "export", "--space", SPACE, "-o", str(home / "out.csv"), *more]


def test_the_command_line_at_its_most_verbose_shows_no_secret(odd_server, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    account = ("--server", odd_server.base_url, "--email", EMAIL, "-v")

    odd_server.incomplete_logins = 1
    incomplete = run_child(home, *export(home, odd_server, *account), password=PASSWORD)
    signed_in = run_child(home, *export(home, odd_server, *account), password=PASSWORD)

    assert incomplete.returncode == 5, incomplete.stderr
    assert "/v1/auth/login" in odd_server.requests
    assert "expires_at" in incomplete.stderr, "the login answer's problem was logged"
    assert signed_in.returncode == 5, signed_in.stderr
    assert f"/v1/spaces/{SPACE}/cards" in "".join(odd_server.requests)
    assert "AccessDenied" in signed_in.stderr, "the error body was logged"
    for run in (incomplete, signed_in):
        assert_no_secret(run.stdout + run.stderr, "the command line's output")
    assert_no_secret_in_files(home)


def test_the_command_line_with_the_saved_session_shows_no_secret(odd_server, tmp_path):
    home = tmp_path / "home"
    (home / ".config" / "CardViewer").mkdir(parents=True)
    save_session_file(home, odd_server)

    run = run_child(home, *export(home, odd_server, "-v"))

    assert run.returncode == 5, run.stderr
    assert "AccessDenied" in run.stderr
    assert_no_secret(run.stdout + run.stderr, "the command line's output")
    assert_no_secret_in_files(home)


def save_session_file(home: Path, server: OddServer) -> None:
    session = {
        "version": 2,
        "server_url": server.base_url,
        "email": EMAIL,
        "session_id": "s-1",
        "expires_at": "2099-01-01T00:00:00+00:00",
        "access_token_in": "file",
        "access_token": TOKEN,
    }
    path = home / ".config" / "CardViewer" / "session.json"
    path.write_text(json.dumps(session), encoding="utf-8")
    path.chmod(0o600)
    settings = {"version": 1, "last_server": server.base_url, "last_space": SPACE}
    (path.parent / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


def test_the_window_with_a_saved_session_at_its_most_verbose_shows_no_secret(odd_server, tmp_path):
    home = tmp_path / "home"
    (home / ".config" / "CardViewer").mkdir(parents=True)
    save_session_file(home, odd_server)

    run = run_child(home, str(ROOT / "main.py"), "--verbose", "--screenshot", "out.png")

    assert run.returncode == 1, run.stderr  # no page loaded: the server refused it
    assert "AccessDenied" in run.stderr, "the error body was logged"
    assert_no_secret(run.stdout + run.stderr, "the window's output")
    logs = list(home.rglob("cardviewer.log*"))
    assert logs, "the log file was written"
    assert "AccessDenied" in logs[0].read_text(encoding="utf-8")
    assert_no_secret_in_files(home)


@pytest.fixture
def verbose_window_stderr(monkeypatch) -> Iterator[io.StringIO]:
    """The window's logging as `--verbose` sets it up, with its file; undone afterwards.

    Returns what it writes to stderr.
    """
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    loggers = [logging.getLogger(name) for name in (None, "httpx", "httpcore")]
    levels = [logger.level for logger in loggers]
    handler = app_module.configure_logging(verbose=True)
    install_file_log()
    yield stderr
    remove_file_log()
    logging.getLogger().removeHandler(handler)
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def test_signing_in_in_the_window_at_its_most_verbose_shows_no_secret(
    odd_server, qtbot, run_app, capsys, private_user_dirs, verbose_window_stderr
):
    settings = Settings.load()
    settings.last_server, settings.last_email, settings.last_space = (
        odd_server.base_url,
        EMAIL,
        SPACE,
    )
    settings.save()
    odd_server.incomplete_logins = 1
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    qtbot.waitUntil(lambda: controller.login_dialog is not None, timeout=WAIT)
    dialog = controller.login_dialog
    assert dialog is not None

    dialog.password_edit.setText(PASSWORD)
    qtbot.mouseClick(dialog.sign_in_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.message_label.text()), timeout=WAIT)
    dialog.password_edit.setText(PASSWORD)
    qtbot.mouseClick(dialog.sign_in_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.window is not None, timeout=WAIT)
    window = controller.window
    assert window is not None
    qtbot.waitUntil(window.error_bar.isVisible, timeout=WAIT)
    window.close()
    qtbot.waitUntil(task.done, timeout=WAIT)

    log_path = log_file_path()
    assert log_path is not None
    remove_file_log()
    logged = log_path.read_text(encoding="utf-8")
    assert "AccessDenied" in logged, "the error body was logged"
    assert "expires_at" in logged, "the login answer's problem was logged"
    err = verbose_window_stderr.getvalue()
    assert "AccessDenied" in err, "the error body was logged on stderr"
    assert_no_secret(err + capsys.readouterr().out, "the window's output")
    assert_no_secret(logged, str(log_path))
    assert_no_secret_in_files(private_user_dirs)


def test_the_window_refuses_a_server_address_with_a_password_and_keeps_nothing(
    odd_server, qtbot, run_app, private_user_dirs, verbose_window_stderr, caplog
):
    secret = "s3cret-in-the-address"
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    qtbot.waitUntil(lambda: controller.login_dialog is not None, timeout=WAIT)
    dialog = controller.login_dialog
    assert dialog is not None
    dialog.server_edit.setText(odd_server.base_url.replace("://", f"://admin:{secret}@"))
    dialog.email_edit.setText(EMAIL)
    dialog.password_edit.setText(PASSWORD)
    qtbot.mouseClick(dialog.sign_in_button, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: bool(dialog.message_label.text()), timeout=WAIT)
    assert "must not contain a user name or password" in dialog.message_label.text()
    assert secret not in dialog.message_label.text() + dialog.message_label.toolTip()
    assert odd_server.requests == [], "nothing was sent"
    dialog.reject()
    qtbot.waitUntil(task.done, timeout=WAIT)
    remove_file_log()

    assert Settings.load().last_server == ""
    assert secret not in verbose_window_stderr.getvalue()
    assert secret not in caplog.text
    files = [p for p in private_user_dirs.rglob("*") if p.is_file()]
    assert any(p.name == "cardviewer.log" for p in files)
    for path in files:
        assert secret not in path.read_text(encoding="utf-8"), path
