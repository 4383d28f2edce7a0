"""docs/faults.md says what a person sees when signing in or exporting fails: exactly that.

Each sentence the doc quotes in its rows on signing in and on exporting must be one the
app shows or prints (a *placeholder* stands for any text, "…" for the rest of the
sentence), and each message of the sign-in dialog and of the window's exports must be
quoted there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import io
import re
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import QCoreApplication

from cardviewer.api import CardPage, Session
from cardviewer.api.errors import map_exceptions
from cardviewer.api.models import parse_card
from cardviewer.cli import PASSWORD_VARIABLE, main
from cardviewer.demo import DemoServer, Fault
from cardviewer.services import site_config
from cardviewer.services.file_errors import ReadOnlyFile, TemporaryFileError
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.phone_list import PagesRefused, PhoneListStopped
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.stoppable import Stopped
from cardviewer.ui.cards.card_qr_code import CardQrCode
from cardviewer.ui.error_text import write_failure_text
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.whole_space_jobs import WholeSpaceJobs
from tests.ui.sign_ins import SILENT_SERVER, authenticate, failed_sign_ins

DOC = Path(__file__).resolve().parent.parent / "docs" / "faults.md"
WAIT = 10_000

SIGNING_IN = "Signing in and connecting"
EXPORTING = "Exporting from the window"
COMMAND_LINE = "`cardviewer export`: what a script sees"
TOO_LARGE = "Answers too large, or pages that do not add up"


def rows(section: str) -> list[list[str]]:
    """The cells of each row of the table under the heading `section`."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in body.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def quoted(cells: list[list[str]]) -> list[str]:
    """The sentences quoted in the second column: what the person sees."""
    return [quote for row in cells for quote in re.findall(r'"([^"]+)"', row[1])]


def pattern(quote: str) -> re.Pattern[str]:
    """The messages `quote` stands for: *host* and the like are any text, "…" the rest."""
    parts = re.split(r"(\*[^*]+\*|…)", quote)
    regex = "".join(
        ".+?" if part.startswith("*") else ".*" if part == "…" else re.escape(part)
        for part in parts
        if part
    )
    return re.compile(regex, re.DOTALL)


def not_shown(quotes: list[str], messages: list[str]) -> list[str]:
    """The doc's sentences that no message is."""
    return [q for q in quotes if not any(pattern(q).fullmatch(m) for m in messages)]


def not_quoted(messages: list[str], quotes: list[str]) -> list[str]:
    """The messages the doc does not quote."""
    return [m for m in messages if not any(pattern(q).fullmatch(m) for q in quotes)]


def test_a_quote_stands_for_the_messages_it_names() -> None:
    quote = "The server at *host* did not answer in time. Please try again."
    assert pattern(quote).fullmatch(
        "The server at a.example did not answer in time. Please try again."
    )
    assert not pattern(quote).fullmatch("The server at a.example did not answer in time.")
    assert pattern("The server ran into a problem …").fullmatch(
        "The server ran into a problem (x)."
    )
    assert quoted([["fault", 'says "A." and "B *c*." (exit 2)', "test"]]) == ["A.", "B *c*."]


# Signing in


def test_the_sign_in_rows_are_what_the_dialog_shows(qtbot, qloop, demo_server: DemoServer) -> None:
    dialog = LoginDialog(authenticate, email=demo_server.email)
    qtbot.addWidget(dialog)
    dialog.show()
    shown: list[str] = []
    for server, password in failed_sign_ins(demo_server):
        dialog.server_edit.setText(server)
        dialog.password_edit.setText(password)
        dialog.submit()
        qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=WAIT)
        shown.append(dialog.message)
    dialog.server_edit.setText(SILENT_SERVER)
    dialog.password_edit.setText("a password")
    dialog.submit()
    dialog.cancel_button.click()
    shown.append(dialog.message)

    doc = quoted(rows(SIGNING_IN))
    assert not_shown(doc, shown) == []
    assert not_quoted(shown, doc) == []


# Exporting from the window

SHOWN = PageRequest("jobs-space", 1, False)


def _page(number: int) -> CardPage:
    cards = tuple(parse_card({"uuid": f"c{number}-{n}", "display_name": "Card"}) for n in range(4))
    meta = {"current_page": number, "last_page": 3, "per_page": 4, "total": 12}
    return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})


class Source:
    """The pages of a space of three; unreachable while `failing`, slow while `slow`."""

    def __init__(self) -> None:
        self.failing = False
        self.slow = False
        self.asked = 0

    async def __call__(self, request: PageRequest) -> CardPage:
        self.asked += 1
        if self.slow:
            await asyncio.Event().wait()
        if self.failing:
            with map_exceptions("cards.example.com"):
                raise httpx.ConnectError("refused")
        return _page(request.page)


def test_the_export_rows_are_what_the_window_shows(
    qtbot, qloop, arun, tmp_path, monkeypatch
) -> None:
    source = Source()
    jobs = WholeSpaceJobs(source, Settings.load(), partial(ExportAllDialog, parent=None))
    shown: list[str] = []

    def failure(start: partial[None]) -> None:
        with qtbot.waitSignal(jobs.failed, timeout=WAIT) as signal:
            start()
        shown.append(signal.args[0])

    source.failing = True
    failure(partial(jobs.export_all, SHOWN, tmp_path / "everyone.csv"))
    source.failing = False
    missing = tmp_path / "gone"
    failure(partial(jobs.export_page, _page(1), SHOWN, missing / "page.csv"))
    failure(partial(jobs.export_all, SHOWN, missing / "everyone.csv"))

    def refused(**_painting: object) -> int:
        raise PagesRefused("the printer did not take the pages")

    failure(partial(jobs.print_with, refused, SHOWN, total=1))
    code = CardQrCode(lambda _suggested: missing / "qr.png")
    with qtbot.waitSignal(code.codeShown, timeout=WAIT):
        code.set_card(parse_card({"uuid": "c1", "display_name": "Ada"}))
    with qtbot.waitSignal(code.failed, timeout=WAIT) as qr_failed:
        code.save()
    shown.append(qr_failed.args[0])

    def unmade(_card: object) -> None:
        raise ValueError("no mask fits")

    monkeypatch.setattr("cardviewer.ui.cards.card_qr_code.card_qr", unmade)
    with qtbot.waitSignal(code.codeShown, timeout=WAIT):
        code.set_card(parse_card({"uuid": "c2", "display_name": "Bo"}))
    shown.append(code.no_code_label.text())
    for problem in (
        PermissionError(errno.EACCES, "Permission denied"),
        FileNotFoundError(errno.ENOENT, "No such file or directory"),
        IsADirectoryError(errno.EISDIR, "Is a directory"),
        OSError(errno.ENOSPC, "No space left on device"),
        OSError(errno.EROFS, "Read-only file system"),
        ReadOnlyFile(errno.EACCES, "Read-only file"),
        TemporaryFileError(errno.ENOSPC, "No space left on device"),
    ):
        shown.append(write_failure_text(problem))

    source.slow = True
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
        jobs.export_all(SHOWN, tmp_path / "everyone.csv")
        qtbot.waitUntil(lambda: isinstance(jobs.progress, ExportAllDialog), timeout=WAIT)
        assert isinstance(jobs.progress, ExportAllDialog)
        jobs.progress.cancel()
    shown.append(said.args[0])
    for synced_before in (False, True):  # no copy is made, or the copy before stays
        if synced_before:
            source.slow = False
            with qtbot.waitSignal(jobs.finished, timeout=WAIT):
                jobs.sync(SHOWN, tmp_path / "space.sqlite")
            source.slow = True
        asked = source.asked
        with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
            jobs.sync(SHOWN, tmp_path / "space.sqlite")
            qtbot.waitUntil(lambda: source.asked > asked, timeout=WAIT)  # noqa: B023
            assert isinstance(jobs.progress, ExportAllDialog)
            jobs.progress.cancel()
            shown.append(jobs.progress.progress_label.text())  # while it drops its rows
        shown.append(said.args[0])

    def stopped(*, withdrawn: bool, **painting: Any) -> int:
        painting["stop"].wait(WAIT / 1000)
        raise PhoneListStopped(withdrawn=withdrawn)

    notes: list[str] = []
    jobs.statusMessage.connect(lambda text, _ms: notes.append(text))
    for withdrawn in (True, False):
        jobs.print_with(partial(stopped, withdrawn=withdrawn), SHOWN, total=1000)
        qtbot.waitUntil(lambda: jobs.painting.running, timeout=WAIT)
        del notes[:]  # "Sending the phone list to the printer…"
        jobs.painting.cancel()
        qtbot.waitUntil(lambda: bool(notes), timeout=WAIT)
        shown.append(notes[0])

    def stopped_vcards(_path: Path, **writing: Any) -> int:
        writing["stop"].wait(WAIT / 1000)
        raise Stopped

    monkeypatch.setattr("cardviewer.ui.whole_space_jobs.write_vcards", stopped_vcards)
    jobs.export_vcards(list(_page(1).cards), SHOWN, tmp_path / "cards.vcf")
    qtbot.waitUntil(lambda: jobs.painting.running, timeout=WAIT)
    del notes[:]  # "Saving cards.vcf…"
    jobs.painting.cancel()
    qtbot.waitUntil(lambda: bool(notes), timeout=WAIT)
    shown.append(notes[0])
    arun(jobs.aclose())

    export_all = [row for row in rows(TOO_LARGE) if row[0].startswith("Export All")]
    doc = quoted(rows(EXPORTING) + export_all)
    assert not_shown(doc, shown) == []
    assert not_quoted(shown, doc) == []


# `cardviewer export`


def run(*args: str) -> list[str]:
    """The lines `cardviewer export` prints for people (its standard error)."""
    err = io.StringIO()
    main(list(args), stderr=err)
    return err.getvalue().splitlines()


def test_the_command_line_rows_are_what_cardviewer_export_prints(
    demo_server: DemoServer, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    space = ["--space", demo_server.space_id]
    session = Session.model_validate(demo_server.issue_token())
    stored = StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    ended = datetime.now(UTC) - timedelta(minutes=1)
    SessionStore().save(dataclasses.replace(stored, expires_at=ended))
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    printed = run(*space, "-o", str(tmp_path / "page.csv"))
    another = ["--server", demo_server.base_url, "--email", "bob@example.com"]
    printed += run(*another, *space, "-o", str(tmp_path / "page.csv"))
    SessionStore().path.write_text('{"version": 1', encoding="utf-8")  # cut short
    printed += run(*space, "-o", str(tmp_path / "page.csv"))
    # No saved session now (set aside), as after Sign Out: nothing to sign in with.
    printed += run(*account, *space, "-o", str(tmp_path / "page.csv"))
    printed += run("--server", demo_server.base_url, *space, "-o", str(tmp_path / "page.csv"))
    monkeypatch.setattr(site_config, "candidate_paths", lambda: [tmp_path / "none.json"])
    printed += run("--email", demo_server.email, *space, "-o", str(tmp_path / "page.csv"))
    with contextlib.redirect_stderr(io.StringIO()) as usage:  # argparse's own
        main([*space, "-o", "exports/"])
    printed += usage.getvalue().splitlines()
    monkeypatch.setenv(PASSWORD_VARIABLE, demo_server.password)
    printed += run(*account, *space, "--format", "xlsx", "-o", str(tmp_path / "out.csv"))
    printed += run(*account, *space, "--delimiter", ";", "-o", str(tmp_path / "out.xlsx"))
    demo_server.faults.inject(Fault.RATE_LIMITED, target="cards", retry_after=60)
    printed += run(*account, *space, "-o", str(tmp_path / "page.csv"))
    printed += run(*account, *space, "-o", str(tmp_path / "page.csv"))  # a success
    printed += run(*account, *space, "-o", str(tmp_path / "gone" / "page.csv"))
    demo_server.faults.inject(Fault.TRUNCATED_JSON, target="cards", times=4)  # every try
    printed += run(*account, *space, "-o", str(tmp_path / "page.csv"))
    demo_server.faults.inject(Fault.DROP_CONNECTION, target="cards", times=4)
    printed += run(*account, *space, "-o", str(tmp_path / "page.csv"))
    err = io.StringIO()
    main([*account, *space, "--format", "xlsx", "-o", "-"], stderr=err, stdout=Terminal())
    printed += err.getvalue().splitlines()
    demo_server.faults.inject(Fault.REVOKED_TOKEN, target="cards", times=100)  # each session
    printed += run(*account, *space, "-o", str(tmp_path / "page.csv"))
    demo_server.faults.clear()
    SessionStore().save(stored)  # a session the server ends midway, and no password
    monkeypatch.delenv(PASSWORD_VARIABLE)
    demo_server.faults.inject(Fault.REVOKED_TOKEN, target="cards")
    printed += run(*space, "-o", str(tmp_path / "page.csv"))

    assert not_shown(quoted(rows(COMMAND_LINE)), printed) == []


class Terminal(io.BytesIO):
    """Standard output that is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_sessions_end_is_said_as_the_doc_says() -> None:
    text = DOC.read_text(encoding="utf-8")
    note = QCoreApplication.translate("App", "Your session has ended; please sign in again.")
    assert f'the note "{note}"' in text
