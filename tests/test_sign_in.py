"""The sign-in dialogs as the settings, the site file and the demo fill them in."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from cardviewer.api.errors import InvalidCredentials
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import SiteConfig
from cardviewer.sign_in import SignInDialogs, authenticate

SITE = "https://cards.example.com"
LAST = "https://last.example.com"


def settings(last_server: str = "", last_email: str = "") -> Settings:
    saved = Settings.load()
    saved.last_server, saved.last_email = last_server, last_email
    return saved


@pytest.mark.parametrize(
    ("last_server", "site", "expected"),
    [
        ("", SiteConfig(), ""),
        (LAST, SiteConfig(), LAST),
        ("", SiteConfig(server_url=SITE), SITE),  # nothing used yet: the site's
        (LAST, SiteConfig(server_url=SITE), LAST),  # a suggestion only
        (LAST, SiteConfig(server_url=SITE, lock_server=True), SITE),
    ],
)
def test_the_preset_server(last_server, site, expected) -> None:
    assert SignInDialogs(settings(last_server), site).preset_server() == expected


def test_a_locked_site_allows_its_server_only() -> None:
    locked = SignInDialogs(settings(), SiteConfig(server_url=SITE, lock_server=True))
    assert locked.may_use_server(SITE)
    assert locked.may_use_server("https://Cards.Example.com:443"), "as saved before"
    assert not locked.may_use_server(LAST)
    assert SignInDialogs(settings(), SiteConfig(server_url=SITE)).may_use_server(LAST)


def test_the_first_dialog_has_the_preset_server_and_the_last_email(qtbot) -> None:
    dialog = SignInDialogs(settings(LAST, "ada@example.com"), SiteConfig()).first()
    qtbot.addWidget(dialog)
    assert dialog.server_edit.text() == LAST
    assert dialog.email_edit.text() == "ada@example.com"
    assert dialog.password_edit.text() == ""
    assert not dialog.server_edit.isReadOnly()
    assert dialog.server_edit.toolTip() == ""
    assert dialog.keep_signed_in_check.isChecked()
    assert dialog.message == ""


def test_a_locked_site_fixes_the_server_and_says_why(qtbot) -> None:
    site = SiteConfig(server_url=SITE, lock_server=True)
    dialog = SignInDialogs(settings(), site).new(LAST, "ada@example.com", "Signed out.")
    qtbot.addWidget(dialog)
    assert dialog.server_edit.text() == SITE
    assert dialog.server_edit.isReadOnly()
    assert "administrator" in dialog.server_edit.toolTip()
    assert dialog.message == "Signed out."


def test_over_a_window_the_server_is_fixed(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    dialog = SignInDialogs(settings(), SiteConfig()).new(LAST, "ada@example.com", parent=window)
    assert dialog.parent() is window
    assert dialog.server_edit.text() == LAST
    assert dialog.server_edit.isReadOnly()


def test_without_a_session_store_keep_me_signed_in_starts_unchecked(qtbot) -> None:
    dialog = SignInDialogs(settings(), SiteConfig(), remembers_sessions=False).first()
    qtbot.addWidget(dialog)
    assert not dialog.keep_signed_in_check.isChecked()


@pytest.mark.parametrize("remembers_sessions", [True, False])
def test_keep_me_signed_in_starts_as_the_person_left_it(qtbot, remembers_sessions) -> None:
    unticked = settings()
    unticked.keep_signed_in = False
    dialogs = SignInDialogs(unticked, SiteConfig(), remembers_sessions=remembers_sessions)
    for dialog in (dialogs.first(), dialogs.new(LAST, "ada@example.com", parent=None)):
        qtbot.addWidget(dialog)
        assert not dialog.keep_signed_in_check.isChecked()


def test_the_choice_to_keep_signed_in_is_remembered(demo_server, qtbot, run_app) -> None:
    from cardviewer.controller import AppController
    from cardviewer.services.session_store import SessionStore

    saved = settings(demo_server.base_url, demo_server.email)
    saved.save()
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    qtbot.waitUntil(lambda: controller.login_dialog is not None, timeout=10_000)
    dialog = controller.login_dialog
    assert dialog is not None
    assert dialog.keep_signed_in_check.isChecked()
    dialog.keep_signed_in_check.setChecked(False)
    dialog.password_edit.setText(demo_server.password)
    dialog.submit()
    qtbot.waitUntil(lambda: controller.window is not None, timeout=10_000)
    assert controller.window is not None
    controller.window.close()
    qtbot.waitUntil(task.done, timeout=10_000)
    assert Settings.load().keep_signed_in is False
    again = SignInDialogs(Settings.load(), SiteConfig()).first()
    qtbot.addWidget(again)
    assert not again.keep_signed_in_check.isChecked()


def test_the_demo_fills_in_everything_and_locks_nothing(demo_server, qtbot) -> None:
    site = SiteConfig(server_url=SITE, lock_server=True)
    dialog = SignInDialogs(settings(LAST), site, demo=demo_server).first()
    qtbot.addWidget(dialog)
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.email_edit.text() == demo_server.email
    assert dialog.password_edit.text() == demo_server.password
    assert not dialog.server_edit.isReadOnly()


def test_authenticate_signs_in_on_the_server(demo_server, arun) -> None:
    session = arun(authenticate(demo_server.base_url, demo_server.email, demo_server.password))
    assert session.access_token


def test_authenticate_raises_the_api_error_for_a_wrong_password(demo_server, arun) -> None:
    with pytest.raises(InvalidCredentials):
        arun(authenticate(demo_server.base_url, demo_server.email, "wrong"))
