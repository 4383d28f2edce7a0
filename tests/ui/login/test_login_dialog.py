"""The sign-in dialog against the demo server: enabling, submitting, errors, success."""

from __future__ import annotations

import asyncio
import logging
import socket

import httpx
import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QDialog, QLineEdit

from cardviewer import i18n
from cardviewer.api import CardsClient, Session
from cardviewer.demo import Fault
from cardviewer.ui.login.login_dialog import LoginDialog, LoginResult


async def sign_in(server: str, email: str, password: str) -> Session:
    async with CardsClient(server) as client:
        return await client.login(email, password)


@pytest.fixture
def make_dialog(qtbot, qloop):
    def make(authenticate=sign_in, **kwargs) -> LoginDialog:
        dialog = LoginDialog(authenticate, **kwargs)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        return dialog

    return make


@pytest.fixture
def filled(make_dialog, demo_server):
    return make_dialog(server=demo_server.base_url, email=demo_server.email)


def type_password(qtbot, dialog: LoginDialog, password: str) -> None:
    dialog.password_edit.setFocus()
    qtbot.keyClicks(dialog.password_edit, password)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_password_is_hidden(make_dialog):
    dialog = make_dialog()
    assert dialog.password_edit.echoMode() == QLineEdit.EchoMode.Password


def test_sign_in_is_enabled_only_when_every_field_is_filled(make_dialog, qtbot):
    dialog = make_dialog()
    assert not dialog.sign_in_button.isEnabled()
    dialog.server_edit.setText("https://cards.example.com")
    dialog.email_edit.setText("   ")
    dialog.password_edit.setText("secret")
    assert not dialog.sign_in_button.isEnabled()
    dialog.email_edit.setText("anna@example.com")
    assert dialog.sign_in_button.isEnabled()
    dialog.password_edit.clear()
    assert not dialog.sign_in_button.isEnabled()


def test_focus_starts_in_the_first_empty_field(make_dialog, demo_server):
    dialog = make_dialog(server=demo_server.base_url)
    assert dialog.focusWidget() is dialog.email_edit
    dialog = make_dialog(server=demo_server.base_url, email=demo_server.email)
    assert dialog.focusWidget() is dialog.password_edit


def test_enter_submits_and_success_gives_the_result(filled, demo_server, qtbot):
    type_password(qtbot, filled, demo_server.password)
    with qtbot.waitSignal(filled.accepted, timeout=10_000):
        qtbot.keyClick(filled.password_edit, Qt.Key.Key_Return)
    result = filled.result_value
    assert isinstance(result, LoginResult)
    assert result.server_url == demo_server.base_url
    assert result.email == demo_server.email
    assert result.keep_signed_in is True
    assert result.session.access_token
    assert not result.session.is_expired()
    assert filled.result() == QDialog.DialogCode.Accepted


def test_the_address_is_normalised_and_the_choice_to_stay_signed_in_kept(
    make_dialog, demo_server, qtbot
):
    dialog = make_dialog(
        server=f" {demo_server.base_url}/v1/ ",
        email=f"  {demo_server.email} ",
        password=demo_server.password,
        keep_signed_in=False,
    )
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        dialog.submit()
    assert dialog.result_value is not None
    assert dialog.result_value.server_url == demo_server.base_url
    assert dialog.result_value.email == demo_server.email
    assert dialog.result_value.keep_signed_in is False


def login_requests(demo_server) -> int:
    return sum(1 for r in demo_server.requests if r.path.endswith("/auth/login"))


def test_busy_while_signing_in_and_no_second_submit(filled, demo_server, qtbot):
    demo_server.config.latency = 0.3
    type_password(qtbot, filled, demo_server.password)
    filled.submit()
    assert not filled.busy_label.isHidden()
    assert not filled.busy_indicator.isHidden()
    assert not filled.sign_in_button.isEnabled()
    assert not filled.server_edit.isEnabled()
    assert not filled.email_edit.isEnabled()
    assert not filled.password_edit.isEnabled()
    filled.submit()
    qtbot.keyClick(filled, Qt.Key.Key_Return)
    with qtbot.waitSignal(filled.accepted, timeout=10_000):
        pass
    assert login_requests(demo_server) == 1
    assert filled.busy_label.isHidden()
    assert filled.busy_indicator.isHidden()


def test_wrong_password_says_so_keeps_the_servers_words_and_clears_the_password(
    filled, demo_server, qtbot
):
    type_password(qtbot, filled, "not the password")
    filled.submit()
    qtbot.waitUntil(lambda: filled.busy_label.isHidden(), timeout=10_000)
    assert filled.message == "The e-mail address or password is not correct."
    assert "The server said: Access data do not match!" in filled.message_label.toolTip()
    assert filled.password_edit.text() == ""
    assert filled.focusWidget() is filled.password_edit
    assert filled.isVisible()
    assert filled.result_value is None
    assert filled.server_edit.isEnabled()


@pytest.mark.parametrize(
    ("exception", "said"),
    [
        # The platform's answer to a request without a required field: the request was bad.
        ("ErrorException", "The server could not read the sign-in request"),
        ("QueryException", "The server ran into a problem"),
    ],
)
def test_server_error_is_shown_in_plain_words(make_dialog, qtbot, exception, said):
    def answer(request: httpx.Request) -> httpx.Response:
        body = {"message": 'Undefined array key "email"', "exception": exception}
        return httpx.Response(500, json=body)

    async def authenticate(server: str, email: str, password: str) -> Session:
        async with CardsClient(server, transport=httpx.MockTransport(answer)) as client:
            return await client.login(email, password)

    dialog = make_dialog(
        authenticate, server="https://cards.example.com", email="a@example.com", password="x"
    )
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=10_000)
    assert dialog.message.startswith(said)
    assert dialog.password_edit.text() == "x"
    assert dialog.result_value is None


@pytest.mark.parametrize("fault", [Fault.HTML_502, Fault.SERVICE_UNAVAILABLE])
def test_unavailable_server_is_reported(filled, demo_server, qtbot, fault):
    demo_server.faults.inject(fault, target="login")
    type_password(qtbot, filled, demo_server.password)
    filled.submit()
    qtbot.waitUntil(lambda: filled.busy_label.isHidden(), timeout=10_000)
    assert "try again later" in filled.message
    assert filled.result_value is None


def test_unreachable_server_is_reported(make_dialog, qtbot):
    server = f"http://127.0.0.1:{closed_port()}"
    dialog = make_dialog(server=server, email="a@example.com", password="x")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=10_000)
    assert dialog.message.startswith("Cannot reach the server at 127.0.0.1:")
    assert dialog.message_label.toolTip()  # the technical detail, for the curious
    assert dialog.result_value is None


def test_an_unusable_address_is_refused_before_anything_is_sent(make_dialog, qtbot):
    calls = []

    async def authenticate(server: str, email: str, password: str) -> Session:
        calls.append(server)
        raise AssertionError("must not be called")

    dialog = make_dialog(
        authenticate, server="http://cards.example.com", email="a@example.com", password="x"
    )
    dialog.submit()
    assert dialog.busy_label.isHidden()
    assert "not encrypted" in dialog.message
    assert dialog.focusWidget() is dialog.server_edit
    assert calls == []


@pytest.mark.parametrize("typed", ["not a url", "cards example.com", "https://", "https://[::1"])
def test_text_that_is_no_web_address_is_called_that_and_nothing_is_sent(make_dialog, typed):
    calls = []

    async def authenticate(server: str, email: str, password: str) -> Session:
        calls.append(server)
        raise AssertionError("must not be called")

    dialog = make_dialog(authenticate, server=typed, email="a@example.com", password="x")
    dialog.submit()
    assert dialog.busy_label.isHidden()
    assert dialog.message == (
        f"“{typed}” is not a web address. A server's address looks like https://cards.example.com."
    )
    assert dialog.focusWidget() is dialog.server_edit
    assert calls == []


def test_in_german_the_clients_messages_are_german(make_dialog, qtbot, qapp):
    i18n.install_translators(qapp, "de")
    try:
        port = closed_port()
        dialog = make_dialog(server=f"http://127.0.0.1:{port}", email="a@example.com", password="x")
        dialog.submit()
        qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=10_000)
        assert dialog.message.startswith(f"Der Server 127.0.0.1:{port} ist nicht erreichbar.")
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())


def test_in_german_a_refused_sign_in_is_german_and_the_servers_words_stay(filled, qtbot, qapp):
    i18n.install_translators(qapp, "de")
    try:
        type_password(qtbot, filled, "not the password")
        filled.submit()
        qtbot.waitUntil(lambda: filled.busy_label.isHidden(), timeout=10_000)
        assert filled.message == "Die E-Mail-Adresse oder das Passwort ist nicht richtig."
        tooltip = filled.message_label.toolTip()
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())
    assert "Antwort des Servers: Access data do not match!" in tooltip


def test_a_message_of_several_lines_is_shown_whole(make_dialog, qtbot):
    dialog = make_dialog(server="http://cards.example.com", email="a@example.com", password="x")
    dialog.resize(1, 1)  # as small as it goes
    dialog.submit()
    label = dialog.message_label
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))
    assert label.heightForWidth(label.width()) > label.fontMetrics().height() * 2, "3 lines"
    dialog.resize(1, 1)
    assert dialog.height() >= dialog.layout().totalHeightForWidth(dialog.width())


def test_in_german_the_dialog_keeps_its_width_while_signing_in(make_dialog, qtbot, qapp):
    async def never(server: str, email: str, password: str) -> Session:
        await asyncio.Event().wait()
        raise AssertionError("never signed in")

    i18n.install_translators(qapp, "de")
    try:
        dialog = make_dialog(never, server="https://cards.example.com", email="a@example.com")
        width = dialog.width()
        dialog.password_edit.setText("x")
        dialog.submit()
        assert not dialog.busy_label.isHidden()
        qtbot.waitUntil(lambda: dialog.busy_label.width() > 0)
        assert dialog.width() == width
        dialog.reject()
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())


def test_a_refusal_without_the_servers_words_says_the_same(make_dialog, qtbot):
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(422, json={})

    async def authenticate(server: str, email: str, password: str) -> Session:
        async with CardsClient(server, transport=httpx.MockTransport(answer)) as client:
            return await client.login(email, password)

    dialog = make_dialog(
        authenticate, server="https://cards.example.com", email="a@example.com", password="x"
    )
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=10_000)
    assert dialog.message == "The e-mail address or password is not correct."
    assert "The server said" not in dialog.message_label.toolTip()
    assert "HTTP 422" in dialog.message_label.toolTip()


def test_unexpected_failure_is_reported_not_raised(make_dialog, qtbot, caplog):
    async def authenticate(server: str, email: str, password: str) -> Session:
        raise RuntimeError("bug")

    dialog = make_dialog(
        authenticate, server="https://cards.example.com", email="a@example.com", password="x"
    )
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=10_000)
    assert dialog.message.startswith("Something went wrong")
    assert any(r.exc_info for r in caplog.records if r.levelno >= logging.ERROR)


def test_cancel_stops_a_running_sign_in_and_keeps_the_dialog(filled, demo_server, qtbot):
    demo_server.config.latency = 2.0
    type_password(qtbot, filled, demo_server.password)
    filled.submit()
    qtbot.waitUntil(lambda: login_requests(demo_server) == 1, timeout=10_000)
    qtbot.mouseClick(filled.cancel_button, Qt.MouseButton.LeftButton)
    assert filled.busy_label.isHidden()
    assert filled.isVisible()
    assert filled.message == "Sign-in cancelled."
    assert filled.sign_in_button.isEnabled()
    with qtbot.waitSignal(filled.rejected):
        qtbot.mouseClick(filled.cancel_button, Qt.MouseButton.LeftButton)
    assert filled.result_value is None


def test_closing_while_signing_in_cancels_it(filled, demo_server, qtbot, arun):
    demo_server.config.latency = 2.0
    type_password(qtbot, filled, demo_server.password)
    filled.submit()
    filled.reject()
    arun(filled.aclose())
    assert filled.result_value is None
    assert filled.busy_label.isHidden()


def test_a_locked_server_looks_read_only(make_dialog):
    locked = make_dialog(server="https://cards.example.com", server_locked=True)
    free = make_dialog(server="https://cards.example.com")
    base, window = QPalette.ColorRole.Base, QPalette.ColorRole.Window
    assert locked.server_edit.palette().color(base) == locked.palette().color(window)
    assert free.server_edit.palette().color(base) != free.palette().color(window)
    assert not free.server_edit.isReadOnly()


def test_set_message_explains_why_to_sign_in(make_dialog):
    dialog = make_dialog(server="https://cards.example.com", server_locked=True)
    assert dialog.message == ""
    dialog.set_message("Your session has expired; please sign in again.")
    assert dialog.message == "Your session has expired; please sign in again."
    assert dialog.server_edit.isReadOnly()
    assert dialog.focusWidget() is dialog.email_edit


@pytest.mark.parametrize("warning", [False, True])
def test_messages_are_plain_selectable_text(make_dialog, warning):
    dialog = make_dialog()
    text = "<b>Access</b> data do not match!"
    if warning:
        dialog._show_error(text)
    else:
        dialog.set_message(text)
    label = dialog.message_label
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert label.text() == text
    assert dialog.message_frame.layout().itemAt(0).alignment() == Qt.AlignmentFlag.AlignTop
    assert label.alignment() & Qt.AlignmentFlag.AlignTop, "level with the icon"


def test_the_password_never_reaches_the_log(filled, demo_server, qtbot, caplog):
    caplog.set_level(logging.DEBUG)
    type_password(qtbot, filled, "Sup3r-Secret!")
    filled.submit()
    qtbot.waitUntil(lambda: filled.busy_label.isHidden(), timeout=10_000)
    assert "Sup3r-Secret!" not in caplog.text
