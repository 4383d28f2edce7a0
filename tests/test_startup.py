"""A fast start: the sign-in dialog paints before the event loop and the network stack."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication, QWidget

from cardviewer import app as app_module
from cardviewer import i18n
from cardviewer.api import Session
from cardviewer.controller import AppController, Outcome
from cardviewer.log_setup import LOG_FILE_NAME, log_file_path
from cardviewer.paths import log_dir
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import SiteConfig
from cardviewer.sign_in import SignInDialogs
from cardviewer.ui.login.login_dialog import LoginDialog

WAIT = 10_000
HEAVY = (
    "asyncio",
    "httpx",
    "httpcore",
    "pydantic",
    "truststore",
    "xlsxwriter",
    "qasync",
    "cardviewer.api.client",
    "cardviewer.api.models",
    "cardviewer.ui.main_window",
    "cardviewer.ui.cards.card_table_model",
    "cardviewer.services.avatar_loader",
)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh Python process: how a start begins.

    Never under `make coverage`'s tracer, which loads modules of its own in the process.
    """
    env = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_")}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


def loaded_after(statement: str) -> list[str]:
    """Which of the heavy modules a fresh process has loaded after `statement`."""
    check = f"import sys\n{statement}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    result = run_python(check)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_starting_loads_neither_the_network_stack_nor_the_main_window() -> None:
    """What `main()` needs to paint the sign-in dialog: the app module and the dialog."""
    assert loaded_after("import cardviewer.app, cardviewer.ui.login.login_dialog") == []


QT_FREE = (
    "platformdirs",
    "json",
    "dataclasses",
    "cardviewer.paths",
    "cardviewer.log_setup",
    "cardviewer.services.settings",
    "cardviewer.services.site_config",
)

LOADED_BEFORE_PYSIDE = f"""
import sys

class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "shiboken6":
            print(" ".join(m for m in {QT_FREE!r} if m not in sys.modules))
            sys.stdout.flush()
            sys.meta_path.remove(self)
        return None

sys.meta_path.insert(0, Watch())
import cardviewer.app
"""


def test_what_needs_no_qt_is_imported_before_pyside() -> None:
    """PySide's import hook reads the source of every module imported after it."""
    result = run_python(LOADED_BEFORE_PYSIDE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []


LATER = (
    *HEAVY,
    "cardviewer.controller",  # it adopts the dialog once painted
    "cardviewer.services.session_store",  # only the file's absence is checked before
    "cardviewer.services.token_vault",
    "cardviewer.services.space_fetch",  # the settings name its default themselves
    "datetime",
    "logging.handlers",  # the log file opens after the paint
    "socket",
    "subprocess",
    "importlib.resources",
    "secrets",
    "cardviewer.api.errors",  # needed once a sign-in starts, or to read a site file
    "cardviewer.api.address",
    "cardviewer.ui.error_text",
    "locale",  # imported by gettext when the argument parser is built
    "signal",  # Ctrl+C is handled once the event loop runs
)
LATER_QT_TYPES = (
    "QtCore.Qt",
    "QtWidgets.QMessageBox",
    "QtWidgets.QSizePolicy",
    "QtWidgets.QStyle",
    "QtGui.QPainter",
)
"""Python types PySide sets up on first use; `Qt` sets up every enum of the namespace."""

BEFORE_PAINT = f"""
import os, sys
import PySide6.QtCore, PySide6.QtWidgets
from cardviewer import app

def stop(widget, *args):
    later = {LATER!r}
    loaded = [name for name in later if name in sys.modules]
    for name in {LATER_QT_TYPES!r}:
        module, _, type_name = name.partition(".")
        if type_name in vars(getattr(PySide6, module)):
            loaded.append(name)
    from cardviewer import log_setup
    if log_setup._redactions.cache_info().currsize:
        loaded.append("redaction patterns")
    print(type(widget).__name__, *loaded)
    sys.stdout.flush()
    os._exit(0)

app.paint_now = stop
app.main([])
"""


def test_before_the_first_paint_only_what_the_dialog_needs_is_set_up() -> None:
    """A real start without a saved session, up to the moment the dialog paints."""
    result = run_python(BEFORE_PAINT)
    assert result.stdout.split() == ["LoginDialog"], result.stderr


@pytest.fixture
def english_afterwards() -> Iterator[None]:
    yield
    i18n.remove_translators()
    QLocale.setDefault(QLocale.system())


def save_session(demo_server: Any, lifetime: timedelta | None = None) -> None:
    session = Session.model_validate(demo_server.issue_token(lifetime))
    SessionStore().save(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    )


# Deciding to show the dialog early


def arguments(*argv: str) -> argparse.Namespace:
    return app_module.parse_args(list(argv))


def test_without_a_saved_session_the_sign_in_comes_first() -> None:
    assert app_module.sign_in_comes_first(arguments())


def test_with_a_saved_session_the_loop_decides(demo_server) -> None:
    save_session(demo_server, timedelta(minutes=-1))  # even an expired one: its message
    assert not app_module.sign_in_comes_first(arguments())


@pytest.mark.parametrize(
    "argv",
    [("--screenshot", "main.png"), ("--screenshot-login", "login.png"), ("--demo",)],
)
def test_the_demo_and_unattended_runs_are_not_shown_early(argv) -> None:
    assert not app_module.sign_in_comes_first(arguments(*argv))


def open_early(settings: Settings, site: SiteConfig | None = None) -> LoginDialog:
    """The dialog as `main()` opens it before the loop."""
    dialog = SignInDialogs(settings, site or SiteConfig()).first()
    dialog.open()
    return dialog


# The controller adopts the dialog


def test_the_dialog_shown_early_is_the_one_the_controller_uses(demo_server, qtbot, run_app):
    settings = Settings.load()
    settings.last_server, settings.last_email = demo_server.base_url, demo_server.email
    early = open_early(settings)
    assert early.isVisible()
    assert early.server_edit.text() == demo_server.base_url
    assert early.email_edit.text() == demo_server.email
    assert early.password_edit.text() == ""
    assert early.keep_signed_in_check.isChecked()
    assert early.focusWidget() is early.password_edit
    controller = AppController(settings, SessionStore(), early_dialog=early)
    task = run_app(controller)
    qtbot.waitUntil(lambda: controller.login_dialog is not None, timeout=WAIT)
    assert controller.login_dialog is early
    assert visible_dialogs() == [early]
    early.reject()
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() == 0
    assert controller.window is None


def test_the_early_dialog_keeps_the_site_lock(qtbot, run_app):
    site = SiteConfig(server_url="https://cards.example.com", lock_server=True)
    settings = Settings.load()
    settings.last_server = "https://elsewhere.example.com"
    early = open_early(settings, site)
    assert early.server_edit.text() == "https://cards.example.com"
    assert early.server_edit.isReadOnly()
    assert "administrator" in early.server_edit.toolTip()
    controller = AppController(settings, SessionStore(), site=site, early_dialog=early)
    task = run_app(controller)
    qtbot.waitUntil(lambda: controller.login_dialog is early, timeout=WAIT)
    controller.quit()
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() == 0


def test_signing_in_in_the_early_dialog_opens_the_window(demo_server, qtbot, run_app):
    settings = Settings.load()
    settings.last_server, settings.last_email = demo_server.base_url, demo_server.email
    early = open_early(settings)
    controller = AppController(settings, SessionStore(), early_dialog=early)
    task = run_app(controller)
    qtbot.waitUntil(lambda: controller.login_dialog is early, timeout=WAIT)
    early.password_edit.setText(demo_server.password)
    early.submit()
    qtbot.waitUntil(
        lambda: controller.window is not None and controller.window.isVisible(), timeout=WAIT
    )
    assert gone(early)
    assert visible_dialogs() == []
    assert SessionStore().load() is not None
    window = controller.window
    assert window is not None
    window.close()
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() == 0


def gone(widget: QWidget) -> bool:
    """Hidden, or already deleted."""
    return not shiboken6.isValid(widget) or not widget.isVisible()


def visible_dialogs() -> list[LoginDialog]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, LoginDialog) and w.isVisible()
    ]


def test_an_early_dialog_closed_before_the_loop_ends_the_app(qtbot, run_app):
    settings = Settings.load()
    early = open_early(settings)
    early.reject()
    controller = AppController(settings, SessionStore(), early_dialog=early)
    task = run_app(controller)
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() == 0
    assert controller.window is None
    assert controller.login_dialog is None


def test_a_session_saved_meanwhile_wins_and_the_early_dialog_goes(demo_server, qtbot, run_app):
    settings = Settings.load()
    early = open_early(settings)
    controller = AppController(settings, SessionStore(), early_dialog=early)
    save_session(demo_server)
    task = run_app(controller)
    qtbot.waitUntil(
        lambda: controller.window is not None and controller.window.isVisible(), timeout=WAIT
    )
    assert gone(early)
    assert controller.login_dialog is None
    window = controller.window
    assert window is not None
    window.close()
    qtbot.waitUntil(task.done, timeout=WAIT)


def test_an_expired_session_saved_meanwhile_replaces_the_early_dialog(demo_server, qtbot, run_app):
    """Its server and e-mail are the ones to sign in to again, with the reason."""
    settings = Settings.load()
    settings.last_server, settings.last_email = "https://elsewhere.example.com", "x@example.com"
    early = open_early(settings)
    controller = AppController(settings, SessionStore(), early_dialog=early)
    save_session(demo_server, timedelta(minutes=-1))
    task = run_app(controller)

    def asks_again() -> bool:
        dialog = controller.login_dialog
        return dialog is not None and dialog.isVisible() and "expired" in dialog.message

    qtbot.waitUntil(asks_again, timeout=WAIT)
    dialog = controller.login_dialog
    assert dialog is not None
    assert dialog is not early
    assert gone(early)
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.email_edit.text() == demo_server.email
    controller.quit()
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() == 0


# The whole start, through main()


def test_main_paints_the_dialog_before_the_loop_and_signs_in_with_it(
    demo_server, qapp, monkeypatch
):
    settings = Settings.load()
    settings.last_server, settings.last_email = demo_server.base_url, demo_server.email
    settings.save()
    seen: dict[str, Any] = {}
    first, paint_now, sign_in = SignInDialogs.first, app_module.paint_now, AppController._sign_in

    def first_early(self: SignInDialogs, *args: Any) -> LoginDialog:
        seen["loop when made"] = asyncio.events._get_running_loop()
        dialog = seen["early"] = first(self, *args)
        return dialog

    def paint(widget: QWidget, *args: Any) -> bool:
        painted = seen["painted"] = paint_now(widget, *args)
        return painted

    async def sign_in_by_hand(self: AppController, *args: Any) -> Any:
        task = asyncio.ensure_future(sign_in(self, *args))
        while self.login_dialog is None or not self.login_dialog.isVisible():  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        seen["used"] = self.login_dialog
        self.login_dialog.password_edit.setText(demo_server.password)
        self.login_dialog.submit()
        return await task

    async def browse(self: AppController, account: Any) -> Outcome:
        seen["account"] = account
        return Outcome.CLOSED

    monkeypatch.setattr(SignInDialogs, "first", first_early)
    monkeypatch.setattr(app_module, "paint_now", paint)
    monkeypatch.setattr(AppController, "_sign_in", sign_in_by_hand)
    monkeypatch.setattr(AppController, "_browse", browse)
    assert app_module.main([]) == 0
    assert seen["loop when made"] is None
    assert seen["painted"] is True
    assert seen["used"] is seen["early"]
    assert seen["account"].email == demo_server.email
    assert SessionStore().load() is not None


def test_the_early_dialog_speaks_the_language_of_the_settings(
    qapp, monkeypatch, english_afterwards
):
    settings = Settings.load()
    settings.language = "de"
    settings.save()
    seen: list[tuple[str, str]] = []

    async def run(self: AppController) -> int:
        dialog = self.login_dialog
        assert dialog is not None
        seen.append((dialog.windowTitle(), dialog.sign_in_button.text()))
        return 0

    monkeypatch.setattr(AppController, "run", run)
    assert app_module.main([]) == 0
    assert seen == [("Bei CardViewer anmelden", "Anmelden")]


def test_an_unused_early_dialog_is_closed_when_the_app_ends(qapp, monkeypatch, early_dialogs):
    async def run(self: AppController) -> int:
        return 0

    monkeypatch.setattr(AppController, "run", run)
    assert app_module.main([]) == 0
    assert len(early_dialogs) == 1
    assert not early_dialogs[0].isVisible()


def test_the_log_file_opens_after_the_paint_and_keeps_what_came_before(qapp, monkeypatch):
    seen: dict[str, Any] = {}
    paint_now = app_module.paint_now

    def paint(widget: QWidget, *args: Any) -> bool:
        logging.getLogger("cardviewer.tests").warning("before the paint")
        seen["file while painting"] = log_file_path()
        return paint_now(widget, *args)

    async def run(self: AppController) -> int:
        seen["file while running"] = log_file_path()
        return 0

    monkeypatch.setattr(app_module, "paint_now", paint)
    monkeypatch.setattr(AppController, "run", run)
    assert app_module.main([]) == 0
    assert seen == {
        "file while painting": None,
        "file while running": log_dir() / LOG_FILE_NAME,
    }
    assert "before the paint" in (log_dir() / LOG_FILE_NAME).read_text(encoding="utf-8")
