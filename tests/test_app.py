"""The app's flow against the demo server: sign-in, saved sessions, sign-out, demo mode."""

from __future__ import annotations

import asyncio
import csv
import gc
import json
import logging
import time
import weakref
from collections.abc import Callable
from datetime import timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox
from pytestqt.qtbot import QtBot

from cardviewer import __version__, paths
from cardviewer import app as app_module
from cardviewer.api import CardsClient, Session
from cardviewer.app import main
from cardviewer.controller import AppController
from cardviewer.demo import Fault
from cardviewer.error_reporter import ErrorReporter
from cardviewer.log_setup import remove_file_log
from cardviewer.services import site_config
from cardviewer.services.card_store import CardStore, store_path
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import SiteConfig
from cardviewer.ui import whole_space_jobs
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.main_window import MainWindow
from tests.ui.error_bars import action_buttons

WAIT = 10_000


@pytest.fixture
def remembered(demo_server):
    """Settings as left by an earlier sign-in to the demo server."""
    settings = Settings.load()
    settings.last_server = demo_server.base_url
    settings.last_email = demo_server.email
    settings.save()
    return settings


def save_session(demo_server, lifetime: timedelta | None = None) -> StoredSession:
    session = Session.model_validate(demo_server.issue_token(lifetime))
    stored = StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    SessionStore().save(stored)
    return stored


def dialog_of(qtbot, controller: AppController) -> LoginDialog:
    qtbot.waitUntil(
        lambda: controller.login_dialog is not None and controller.login_dialog.isVisible(),
        timeout=WAIT,
    )
    assert controller.login_dialog is not None
    return controller.login_dialog


def window_of(qtbot, controller: AppController) -> MainWindow:
    qtbot.waitUntil(
        lambda: controller.window is not None and controller.window.isVisible(), timeout=WAIT
    )
    assert controller.window is not None
    return controller.window


def sign_in(qtbot, dialog: LoginDialog, password: str) -> None:
    dialog.password_edit.setText(password)
    qtbot.mouseClick(dialog.sign_in_button, Qt.MouseButton.LeftButton)


def ended_with(qtbot: QtBot, task: asyncio.Task[int]) -> int:
    qtbot.waitUntil(task.done, timeout=WAIT)
    return task.result()


def test_first_start_signs_in_remembers_and_ends_with_the_window(
    remembered, demo_server, qtbot, run_app
):
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.email_edit.text() == demo_server.email
    assert dialog.password_edit.text() == ""
    assert dialog.keep_signed_in_check.isChecked()
    sign_in(qtbot, dialog, demo_server.password)
    window = window_of(qtbot, controller)
    assert demo_server.email in window.account_label.text()
    stored = SessionStore().load()
    assert stored is not None
    assert stored.server_url == demo_server.base_url
    assert stored.email == demo_server.email
    assert not stored.is_expired()
    window.close()
    assert ended_with(qtbot, task) == 0
    assert controller.window is None


def json_strings(value: object) -> list[str]:
    """Every key and string value in a JSON document."""
    if isinstance(value, dict):
        return [*value, *(s for v in value.values() for s in json_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return [value] if isinstance(value, str) else []


def test_the_password_is_never_written_to_disk(
    remembered, demo_server, qtbot, run_app, private_user_dirs
):
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    sign_in(qtbot, dialog_of(qtbot, controller), demo_server.password)
    window_of(qtbot, controller).close()
    assert ended_with(qtbot, task) == 0
    written = [p for p in private_user_dirs.rglob("*") if p.is_file()]
    assert SessionStore().path in written
    for path in written:
        strings = json_strings(json.loads(path.read_text("utf-8")))
        assert demo_server.password not in strings, path
        assert not [s for s in strings if "password" in s.lower()], path


def test_without_keep_me_signed_in_nothing_is_saved(remembered, demo_server, qtbot, run_app):
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    dialog.keep_signed_in_check.setChecked(False)
    sign_in(qtbot, dialog, demo_server.password)
    window_of(qtbot, controller).close()
    assert ended_with(qtbot, task) == 0
    assert SessionStore().load() is None
    assert not SessionStore().path.exists()


def test_a_saved_session_opens_the_window_and_the_last_space(demo_server, qtbot, run_app):
    save_session(demo_server)
    settings = Settings.load()
    settings.remember_space(demo_server.space_id)
    settings.save()
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window = window_of(qtbot, controller)
    assert controller.login_dialog is None
    qtbot.waitUntil(lambda: window.model.page is not None, timeout=WAIT)
    assert window.model.rowCount() == 10
    assert window.space_text == demo_server.space_id
    window.quit_action.trigger()
    assert ended_with(qtbot, task) == 0
    # Closing is not signing out: the session stays for the next start.
    assert SessionStore().load() is not None


def test_the_first_page_travels_while_the_main_window_is_built(
    demo_server, qtbot, run_app, monkeypatch
):
    """Its request leaves before the window is built, not after: the window's thread is
    held as the building starts, and the server still gets the request. Before, the
    page was asked for once the window was shown, some 20 ms later."""
    save_session(demo_server)
    settings = Settings.load()
    settings.remember_space(demo_server.space_id)
    settings.save()

    def first_page_asked() -> bool:
        return any(
            request.path.startswith(f"/v1/spaces/{demo_server.space_id}/cards?page=1")
            for request in list(demo_server.requests)
        )

    asked_before_building: list[bool] = []
    build = MainWindow.__init__

    def held_building(window: MainWindow, *args: object, **kwargs: object) -> None:
        deadline = time.monotonic() + 5
        while not first_page_asked() and time.monotonic() < deadline:
            time.sleep(0.005)  # the window's thread held: no request leaves meanwhile
        asked_before_building.append(first_page_asked())
        build(window, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MainWindow, "__init__", held_building)
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window = window_of(qtbot, controller)
    qtbot.waitUntil(lambda: window.model.page is not None, timeout=WAIT)
    assert asked_before_building == [True]
    page_ones = [r for r in demo_server.requests if "/cards?page=1" in r.path]
    assert len(page_ones) == 1, "the window's own request was given that fetch's answer"
    window.quit_action.trigger()
    assert ended_with(qtbot, task) == 0


def test_ctrl_c_while_the_first_page_leaves_ends_the_app_without_a_window(
    demo_server, qtbot, run_app, monkeypatch
):
    """The window is built after the page's request has left: a quit asked meanwhile
    found no window to close, and the window then came up and stayed."""
    save_session(demo_server)
    settings = Settings.load()
    settings.remember_space(demo_server.space_id)
    settings.save()
    controller = AppController(Settings.load(), SessionStore())
    wait_out = CardsClient.first_request_out

    async def quit_meanwhile(client: CardsClient, within: float) -> bool:
        controller.quit()
        return await wait_out(client, within)

    monkeypatch.setattr(CardsClient, "first_request_out", quit_meanwhile)
    task = run_app(controller)
    assert ended_with(qtbot, task) == 0
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    assert not any(window.isVisible() for window in shown)


def test_an_expired_session_asks_to_sign_in_again(demo_server, qtbot, run_app):
    save_session(demo_server, lifetime=timedelta(minutes=-1))
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.email_edit.text() == demo_server.email
    assert dialog.message == "Your session has expired; please sign in again."
    assert SessionStore().load() is None
    dialog.reject()
    assert ended_with(qtbot, task) == 0
    assert controller.window is None


def test_sign_out_forgets_the_session_and_returns_to_sign_in(demo_server, qtbot, run_app):
    save_session(demo_server)
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window_of(qtbot, controller).sign_out_action.trigger()
    dialog = dialog_of(qtbot, controller)
    assert visible_main_windows() == []
    assert SessionStore().load() is None
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.email_edit.text() == demo_server.email
    assert dialog.password_edit.text() == ""
    assert dialog.message == ""
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert ended_with(qtbot, task) == 0


def test_a_closed_window_tidies_its_copies_first_and_a_signed_out_one_does_not(
    demo_server, qtbot, run_app, monkeypatch
):
    """A sync's tidying was called off by closing the window, and undone: a copy more
    in the file each time (`WholeSpaceJobs.aclose`)."""
    closing: list[bool] = []
    aclose = MainWindow.aclose

    async def told(window: MainWindow, *, tidying_until: asyncio.Event | None = None) -> None:
        closing.append(tidying_until is not None)
        await aclose(window, tidying_until=tidying_until)

    monkeypatch.setattr(MainWindow, "aclose", told)
    save_session(demo_server)
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window_of(qtbot, controller).sign_out_action.trigger()
    sign_in(qtbot, dialog_of(qtbot, controller), demo_server.password)
    window_of(qtbot, controller).close()
    assert ended_with(qtbot, task) == 0
    assert closing == [False, True]


def test_quitting_does_not_wait_for_a_closed_window_s_tidying(
    demo_server, qtbot, run_app, monkeypatch
):
    """Ctrl+C, or a quit while a closed window's process waited for its tidying (up to a
    minute, with no window): the wait ends at once, and a quit waits for none."""
    waited: list[str] = []

    async def tidying_for_ever(tasks: object, until: asyncio.Event | None) -> None:
        if until is None:
            return  # not to wait
        waited.append("waiting")
        await until.wait()
        waited.append("quit")

    monkeypatch.setattr(whole_space_jobs, "_tidied", tidying_for_ever)
    save_session(demo_server)
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window_of(qtbot, controller).close()
    qtbot.waitUntil(lambda: waited == ["waiting"], timeout=WAIT)
    assert not task.done(), "the closed window's process waits"
    controller.quit()
    assert ended_with(qtbot, task) == 0
    assert waited == ["waiting", "quit"]

    waited.clear()
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window_of(qtbot, controller)
    controller.quit()  # Ctrl+C with the window open
    assert ended_with(qtbot, task) == 0
    assert waited == [], "a quit does not wait"


def test_a_session_signed_out_of_is_let_go_at_the_next_sign_in(demo_server, qtbot, run_app):
    """The next sign-in froze the session before while the controller still held its
    pages and avatars: their cards, pictures, client and token stayed for good."""
    save_session(demo_server)
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window = window_of(qtbot, controller)
    assert controller.pages is not None
    assert controller.avatars is not None
    before: list[weakref.ref[object]] = [
        weakref.ref(controller.pages),
        weakref.ref(controller.avatars),
    ]
    old_window = weakref.ref(window)
    window.sign_out_action.trigger()
    del window
    sign_in(qtbot, dialog_of(qtbot, controller), demo_server.password)
    qtbot.waitUntil(
        lambda: controller.window is not None and controller.window is not old_window(),
        timeout=WAIT,
    )
    qtbot.wait(50)  # the deleteLater()s of the window before
    gc.collect()
    assert [ref() for ref in before] == [None, None]
    controller.quit()
    assert ended_with(qtbot, task) == 0


def test_sign_out_removes_the_account_s_local_copies_and_no_other(demo_server, qtbot, run_app):
    theirs = store_path(paths.store_dir(), demo_server.base_url, "bob@example.com", "s1")
    with CardStore.open(theirs):
        pass
    save_session(demo_server)
    settings = Settings.load()
    settings.remember_space(demo_server.space_id)
    settings.save()
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window = window_of(qtbot, controller)
    qtbot.waitUntil(lambda: window.model.page is not None, timeout=WAIT)
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    mine = window.whole_space.store_path(demo_server.space_id)
    assert mine is not None
    assert mine.exists()
    asked: list[bool] = []

    def answering(reply: bool) -> Callable[[], bool]:
        def ask() -> bool:
            asked.append(reply)
            return reply

        return ask

    window.whole_space.confirm_sign_out = answering(False)
    window.sign_out_action.trigger()
    assert asked, "the person is asked first, and says no"
    assert mine.exists()
    assert window.isVisible()
    window.whole_space.confirm_sign_out = answering(True)
    window.sign_out_action.trigger()
    dialog = dialog_of(qtbot, controller)
    assert asked == [False, True]
    assert not mine.exists()
    assert theirs.exists()
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert ended_with(qtbot, task) == 0


def test_sign_out_during_a_sync_greys_the_window_out_and_says_so_until_it_goes(
    demo_server, qtbot, run_app
):
    """A sync called off drops what it wrote first: seconds at 100,000 cards, during
    which the window looked as if the click had done nothing."""
    controller, task, window = browsing(demo_server, qtbot, run_app)
    demo_server.config.latency = 0.3
    window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.jobs.progress is not None, timeout=WAIT)
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    window.whole_space.confirm_sign_out = lambda: True
    window.sign_out_action.trigger()
    dialog = dialog_of(qtbot, controller)
    assert "Signing out…" in said
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert ended_with(qtbot, task) == 0


def browsing(demo_server, qtbot, run_app, *, page: int = 1, with_emails: bool = False):
    """A running app on a saved session, showing `page` of the demo space."""
    save_session(demo_server)
    settings = Settings.load()
    settings.remember_space(demo_server.space_id)
    settings.include_emails = with_emails
    controller = AppController(settings, SessionStore())
    task = run_app(controller)
    window = window_of(qtbot, controller)
    qtbot.waitUntil(lambda: window.model.page is not None, timeout=WAIT)
    if page != 1:
        with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
            window.go_to_page(page)
    # The neighbouring pages are fetched in the background; let that end first.
    qtbot.waitUntil(lambda: not window.pages.is_prefetching, timeout=WAIT)
    return controller, task, window


def tokens_sent(demo_server, page: int | None = None) -> list[str]:
    """The bearer tokens of the card requests (for `page`) the server has seen, in order."""
    return [
        r.headers.get("authorization", "").removeprefix("Bearer ")
        for r in demo_server.requests
        if r.server == "api"
        and "/cards" in r.path
        and (page is None or f"page={page}&" in r.path + "&")
    ]


def card_names(window: MainWindow) -> list[str | None]:
    page = window.model.page
    assert page is not None
    return [card.display_name for card in page.cards]


def test_a_revoked_session_is_renewed_over_the_window_and_the_request_repeated(
    demo_server, qtbot, run_app
):
    controller, task, window = browsing(demo_server, qtbot, run_app, page=3, with_emails=True)
    saved = SessionStore().load()
    assert saved is not None
    old_token = saved.access_token
    names = card_names(window)
    demo_server.revoke_all_tokens()
    demo_server.clear_requests()
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        # The last page: not fetched in the background (the next one, 4, may be).
        qtbot.mouseClick(window.page_bar.last_button, Qt.MouseButton.LeftButton)
    dialog = dialog_of(qtbot, controller)
    # Over the window, which stays and keeps its page.
    assert dialog.parentWidget() is window
    assert dialog.isModal()
    assert controller.window is window
    assert window.isVisible()
    assert card_names(window) == names
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.server_edit.isReadOnly()
    assert dialog.email_edit.text() == demo_server.email
    assert dialog.password_edit.text() == ""
    assert dialog.message == "Your session has ended; please sign in again."
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        sign_in(qtbot, dialog, demo_server.password)
    assert window.model.current_request == PageRequest(demo_server.space_id, 24, True)
    assert window.model.column_of("emails") is not None
    assert window.page_bar.page_spin.value() == 24
    assert not window.is_signed_out
    assert window.error_bar.isHidden()
    stored = SessionStore().load()
    assert stored is not None
    assert stored.access_token != old_token
    assert tokens_sent(demo_server, page=24) == [old_token, stored.access_token]
    window.close()
    assert ended_with(qtbot, task) == 0


def test_a_401_from_the_server_asks_to_sign_in_and_refreshes_the_same_page(
    demo_server, qtbot, run_app
):
    controller, task, window = browsing(demo_server, qtbot, run_app, page=2)
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    window.refresh_action.trigger()
    dialog = dialog_of(qtbot, controller)
    dialog.keep_signed_in_check.setChecked(False)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        sign_in(qtbot, dialog, demo_server.password)
    assert window.model.current_request == PageRequest(demo_server.space_id, 2, False)
    # Without "keep me signed in" the new session is not saved, and the old one is gone.
    assert SessionStore().load() is None
    window.close()
    assert ended_with(qtbot, task) == 0


def export_all_after_the_session_ended(demo_server, qtbot, run_app, target, monkeypatch):
    """A running app whose Export All to `target` was just stopped by a 401."""
    controller, task, window = browsing(demo_server, qtbot, run_app, page=2)
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested, title="": target)
    demo_server.revoke_all_tokens()
    window.export_all_action.trigger()
    return controller, task, window


def test_an_export_of_all_pages_stopped_by_the_end_of_the_session_starts_again_after_sign_in(
    demo_server, qtbot, run_app, tmp_path, monkeypatch
):
    target = tmp_path / "all.csv"
    controller, task, window = export_all_after_the_session_ended(
        demo_server, qtbot, run_app, target, monkeypatch
    )
    dialog = dialog_of(qtbot, controller)
    assert window.is_signed_out
    assert "export of all pages stopped and saved nothing" in window.error_bar.message
    assert not target.exists()
    sign_in(qtbot, dialog, demo_server.password)
    qtbot.waitUntil(lambda: target.exists() and window.export_all_dialog is None, timeout=WAIT)
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) == 1 + len(demo_server.spaces[demo_server.space_id].cards)
    assert window.status_bar.whole_message() == f"Exported {len(rows) - 1} cards to {target}"
    assert not window.is_signed_out
    window.close()
    assert ended_with(qtbot, task) == 0


def test_a_stopped_export_waits_through_a_cancelled_sign_in_and_starts_from_the_bar(
    demo_server, qtbot, run_app, tmp_path, monkeypatch
):
    target = tmp_path / "all.csv"
    controller, task, window = export_all_after_the_session_ended(
        demo_server, qtbot, run_app, target, monkeypatch
    )
    qtbot.mouseClick(dialog_of(qtbot, controller).cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.login_dialog is None, timeout=WAIT)
    # Another request ends the same way; the note about the export stays.
    window.refresh_action.trigger()
    dialog = dialog_of(qtbot, controller)
    assert "export of all pages stopped" in window.error_bar.message
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.login_dialog is None, timeout=WAIT)
    assert not target.exists()
    assert not window.export_all_action.isEnabled()  # signed out: nothing new starts

    window.sign_in_action.trigger()
    sign_in(qtbot, dialog_of(qtbot, controller), demo_server.password)
    qtbot.waitUntil(lambda: target.exists() and window.export_all_dialog is None, timeout=WAIT)
    assert window.error_bar.isHidden()
    window.close()
    assert ended_with(qtbot, task) == 0


def test_a_sync_stopped_by_the_end_of_the_session_starts_again_after_sign_in(
    demo_server, qtbot, run_app
):
    controller, task, window = browsing(demo_server, qtbot, run_app, page=2)
    demo_server.revoke_all_tokens()
    window.sync_action.trigger()
    dialog = dialog_of(qtbot, controller)
    assert window.is_signed_out
    assert "The sync stopped and changed nothing" in window.error_bar.message
    assert window.table.model() is window.proxy, "the page stays"
    copy = window.whole_space.store_path(demo_server.space_id)
    assert copy is not None
    sign_in(qtbot, dialog, demo_server.password)
    qtbot.waitUntil(lambda: window.whole_space.model is not None, timeout=WAIT)
    space = window.whole_space.model
    assert space is not None
    qtbot.waitUntil(lambda: not space.is_sorting, timeout=WAIT)
    cards = len(demo_server.spaces[demo_server.space_id].cards)
    assert space.rowCount() == cards
    with CardStore.open(copy) as store:
        assert store.current is not None
        assert store.current.card_count == cards
    assert not window.is_signed_out
    window.close()
    assert ended_with(qtbot, task) == 0


def test_cancelling_leaves_the_window_signed_out_and_sign_in_works_from_the_bar(
    demo_server, qtbot, run_app
):
    controller, task, window = browsing(demo_server, qtbot, run_app, page=2)
    names = card_names(window)
    demo_server.revoke_all_tokens()
    window.refresh_action.trigger()
    dialog = dialog_of(qtbot, controller)
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.login_dialog is None, timeout=WAIT)

    assert window.isVisible()
    assert window.is_signed_out
    assert card_names(window) == names
    assert window.stack.currentWidget() is window.table
    assert window.account_label.text().startswith("Signed out")
    assert not window.error_bar.isHidden()
    assert "signed out" in window.error_bar.message
    assert window.error_bar.retry_button.isHidden()
    assert not window.page_bar.isEnabled()
    assert not window.space_combo.isEnabled()
    assert not window.open_action.isEnabled()
    assert window.export_action.isEnabled()  # the page shown can still be saved

    # Refresh leads to the sign-in; cancelled again, nothing changes.
    demo_server.clear_requests()
    window.refresh_action.trigger()
    dialog = dialog_of(qtbot, controller)
    dialog.reject()
    qtbot.waitUntil(lambda: controller.login_dialog is None, timeout=WAIT)
    assert tokens_sent(demo_server) == []
    assert window.is_signed_out

    [sign_in_button] = action_buttons(window.error_bar)
    qtbot.mouseClick(sign_in_button, Qt.MouseButton.LeftButton)
    dialog = dialog_of(qtbot, controller)
    assert dialog.email_edit.text() == demo_server.email
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        sign_in(qtbot, dialog, demo_server.password)
    assert window.model.current_request == PageRequest(demo_server.space_id, 2, False)
    assert not window.is_signed_out
    assert window.account_label.text().startswith(demo_server.email)
    assert window.page_bar.isEnabled()
    assert window.error_bar.isHidden()
    window.close()
    assert ended_with(qtbot, task) == 0


def test_sign_out_while_signed_out_returns_to_the_sign_in_dialog(demo_server, qtbot, run_app):
    controller, task, window = browsing(demo_server, qtbot, run_app)
    demo_server.revoke_all_tokens()
    window.refresh_action.trigger()
    dialog_of(qtbot, controller).reject()
    qtbot.waitUntil(lambda: controller.login_dialog is None, timeout=WAIT)
    window.sign_out_action.trigger()
    dialog = dialog_of(qtbot, controller)
    assert dialog.parentWidget() is None
    assert visible_main_windows() == []
    assert SessionStore().load() is None
    assert dialog.message == ""
    dialog.reject()
    assert ended_with(qtbot, task) == 0


def test_a_session_past_its_expiry_asks_to_sign_in_before_sending(
    demo_server, qtbot, run_app, monkeypatch
):
    monkeypatch.setattr(demo_server.config, "token_lifetime", timedelta(seconds=3))
    settings = Settings.load()
    settings.last_server, settings.last_email = demo_server.base_url, demo_server.email
    settings.remember_space(demo_server.space_id)
    controller = AppController(settings, SessionStore())
    task = run_app(controller)
    sign_in(qtbot, dialog_of(qtbot, controller), demo_server.password)
    window = window_of(qtbot, controller)
    qtbot.waitUntil(lambda: window.model.page is not None, timeout=WAIT)
    assert controller.account is not None
    qtbot.waitUntil(controller.account.is_expired, timeout=WAIT)
    demo_server.clear_requests()
    window.go_to_page(5)  # not among the pages fetched in the background
    dialog = dialog_of(qtbot, controller)
    assert tokens_sent(demo_server) == []  # the dead token was never sent
    assert dialog.message == "Your session has ended; please sign in again."
    monkeypatch.setattr(demo_server.config, "token_lifetime", timedelta(hours=8))
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        sign_in(qtbot, dialog, demo_server.password)
    assert window.model.current_request == PageRequest(demo_server.space_id, 5, False)
    assert not controller.account.is_expired()
    window.close()
    assert ended_with(qtbot, task) == 0


@pytest.mark.parametrize("how", ["close", "quit"])
def test_the_app_ends_cleanly_with_the_sign_in_open_over_the_window(
    demo_server, qtbot, run_app, how
):
    controller, task, window = browsing(demo_server, qtbot, run_app)
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    window.refresh_action.trigger()
    dialog_of(qtbot, controller)
    if how == "close":
        window.close()
    else:
        controller.quit()
    assert ended_with(qtbot, task) == 0
    assert controller.login_dialog is None
    assert controller.window is None
    # Closing is not signing out: the saved session stays.
    assert SessionStore().load() is not None


def test_cancelling_the_first_sign_in_ends_the_app(qtbot, run_app):
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert ended_with(qtbot, task) == 0
    assert controller.window is None


def test_quit_ends_the_app_from_the_dialog(qtbot, run_app):
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    dialog_of(qtbot, controller)
    controller.quit()
    assert ended_with(qtbot, task) == 0


def test_demo_mode_end_to_end(demo_server, qtbot, run_app, tmp_path, monkeypatch):
    controller = AppController(
        Settings.load(tmp_path / "demo-settings.json"), None, demo=demo_server
    )
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.email_edit.text() == demo_server.email
    assert dialog.password_edit.text() == demo_server.password
    qtbot.mouseClick(dialog.sign_in_button, Qt.MouseButton.LeftButton)
    window = window_of(qtbot, controller)
    qtbot.waitUntil(lambda: window.model.page is not None, timeout=WAIT)
    assert window.space_text == demo_server.space_id
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        qtbot.mouseClick(window.page_bar.next_button, Qt.MouseButton.LeftButton)
    assert window.page_bar.page_spin.value() == 2
    page = window.model.page
    assert page is not None
    names = [card.display_name for card in page.cards]

    target = tmp_path / "export.csv"
    monkeypatch.setattr(window, "ask_export_path", lambda suggested: target)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_action.trigger()
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    header, cards = rows[0], rows[1:]
    assert header[:3] == ["ID", "Avatar URL", "Name"]
    assert [row[0] for row in cards] == [card.uuid for card in page.cards]
    assert [row[2] for row in cards] == names
    assert len(cards) == 10
    assert window.status_bar.whole_message() == f"Exported 10 cards to {target}"

    window.close()
    assert ended_with(qtbot, task) == 0
    assert not SessionStore().path.exists()  # a demo sign-in is never kept


def test_the_demo_is_at_the_same_address_in_each_run_while_it_can_be(monkeypatch):
    """A space synced in one demo run is found again in the next (its copy is kept by
    server address), and a second demo at once still starts."""
    from tests.demo.test_server import free_port

    ports = (free_port(), free_port())
    monkeypatch.setattr(app_module, "DEMO_PORTS", ports)
    first = app_module._start_demo()
    assert first is not None
    first.stop()
    second = app_module._start_demo()
    assert second is not None
    try:
        assert (first.port, first.avatar_port) == ports == (second.port, second.avatar_port)
        third = app_module._start_demo()  # while the second is on them
        assert third is not None
        third.stop()
        assert third.port not in ports
    finally:
        second.stop()


def test_no_arguments_are_what_the_parser_gives_for_none():
    """The start skips building the parser when there is nothing to parse."""
    assert app_module.argument_parser().parse_args([]) == app_module.NO_ARGUMENTS
    assert app_module.parse_args([]) == app_module.NO_ARGUMENTS
    assert app_module.parse_args([]) is not app_module.NO_ARGUMENTS  # callers may change it
    assert app_module.parse_args(["--demo"]).demo is True


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"CardViewer {__version__}"


def test_screenshots_of_the_demo(qapp, tmp_path):
    main_png, login_png = tmp_path / "main.png", tmp_path / "login.png"
    collecting = gc.isenabled()
    code = main(["--demo", "--screenshot", str(main_png), "--screenshot-login", str(login_png)])
    assert code == 0
    window, dialog = QImage(str(main_png)), QImage(str(login_png))
    assert window.width() >= 800
    assert window.height() >= 500
    assert dialog.width() >= 300
    assert dialog.height() >= 150
    assert gc.isenabled() == collecting


@pytest.mark.timeout(60)
def test_a_screenshot_of_the_demo_alone_signs_in_by_itself(qapp, tmp_path):
    """`make demo` without a display runs exactly this; nobody is there to click."""
    main_png = tmp_path / "main.png"
    assert main(["--demo", "--screenshot", str(main_png)]) == 0
    assert QImage(str(main_png)).width() >= 800


def test_a_screenshot_after_an_expired_session_fails_cleanly(qapp, tmp_path, demo_server):
    save_session(demo_server, timedelta(seconds=-1))
    assert main(["--screenshot", str(tmp_path / "main.png")]) == 2
    assert not (tmp_path / "main.png").exists()


def test_a_screenshot_without_a_way_to_sign_in_fails_cleanly(qapp, tmp_path):
    assert main(["--screenshot", str(tmp_path / "main.png")]) == 2
    assert not (tmp_path / "main.png").exists()


def visible_main_windows() -> list[MainWindow]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
    ]


def visible_boxes() -> list[QMessageBox]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]


def test_unhandled_errors_are_logged_and_shown_once(qtbot, caplog):
    reporter = ErrorReporter()
    error = ValueError("boom")
    reporter.excepthook(ValueError, error, None)
    context = {"message": "Task exception was never retrieved", "exception": error}
    loop = asyncio.new_event_loop()
    try:
        reporter.loop_exception(loop, context)
    finally:
        loop.close()
    assert [r.levelno for r in caplog.records if r.name == "cardviewer.error_reporter"] == [
        logging.CRITICAL,
        logging.ERROR,
    ]
    boxes = visible_boxes()
    assert len(boxes) == 1
    assert "ValueError: boom" in boxes[0].detailedText()
    boxes[0].close()


def test_ctrl_c_asks_the_app_to_quit():
    reporter = ErrorReporter()
    quits = []
    reporter.on_interrupt = lambda: quits.append(True)
    reporter.excepthook(KeyboardInterrupt, KeyboardInterrupt(), None)
    assert quits == [True]


def test_the_demo_server_starts_with_automatic_collection_off(qapp, monkeypatch):
    """Its threads must never run a collection that frees Qt objects."""
    from cardviewer.demo import DemoServer

    seen: list[bool] = []
    start = DemoServer.start

    def start_and_look(self: DemoServer, **options: bool) -> DemoServer:
        seen.append(gc.isenabled())
        return start(self, **options)

    async def run(self: AppController) -> int:
        return 0

    monkeypatch.setattr(DemoServer, "start", start_and_look)
    monkeypatch.setattr(AppController, "run", run)
    gc.enable()  # as in a real start; the autouse fixture turns it off for tests
    try:
        assert main(["--demo"]) == 0
        assert gc.isenabled()
    finally:
        gc.disable()
    assert seen == [False]


def test_a_start_that_fails_after_the_early_dialog_closes_it(qapp, monkeypatch, early_dialogs):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the controller cannot be made")

    monkeypatch.setattr(AppController, "__init__", broken)
    with pytest.raises(RuntimeError, match="cannot be made"):
        main([])
    assert len(early_dialogs) == 1
    assert not early_dialogs[0].isVisible()


def test_a_start_that_fails_after_the_demo_server_started_stops_it(qapp, monkeypatch):
    from cardviewer.demo import DemoServer

    stopped: list[DemoServer] = []
    stop = DemoServer.stop

    def stop_and_note(self: DemoServer) -> None:
        stopped.append(self)
        stop(self)

    def broken(demo: DemoServer | None) -> None:
        raise RuntimeError("the settings cannot be read")

    monkeypatch.setattr(DemoServer, "stop", stop_and_note)
    monkeypatch.setattr(app_module, "load_user_settings", broken)
    collecting = gc.isenabled()
    with pytest.raises(RuntimeError, match="cannot be read"):
        main(["--demo"])
    assert len(stopped) == 1
    assert gc.isenabled() == collecting


def test_the_app_starts_with_a_damaged_settings_file(qapp, tmp_path, caplog):
    """A settings.json of 100,000 nested brackets stopped the start with a RecursionError."""
    damaged = b"[" * 100_000
    settings_file = paths.config_dir() / "settings.json"
    settings_file.write_bytes(damaged)
    screenshot = tmp_path / "login.png"
    with caplog.at_level(logging.WARNING):
        assert main(["--screenshot-login", str(screenshot)]) == 0
    assert QImage(str(screenshot)).width() >= 300
    (line,) = [r.getMessage() for r in caplog.records if "settings.json" in r.getMessage()]
    assert "damaged" in line
    assert settings_file.with_name("settings.json.damaged").read_bytes() == damaged
    assert not settings_file.exists() or json.loads(settings_file.read_bytes())


# Site configuration


def test_a_locked_site_server_is_shown_read_only_and_used(demo_server, qtbot, run_app):
    site = SiteConfig(server_url=demo_server.base_url, lock_server=True)
    settings = Settings.load()
    settings.last_server = "https://elsewhere.example.com"
    controller = AppController(settings, SessionStore(), site=site)
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.text() == demo_server.base_url
    assert dialog.server_edit.isReadOnly()
    assert "administrator" in dialog.server_edit.toolTip()
    assert dialog.email_edit.hasFocus()
    dialog.email_edit.setText(demo_server.email)
    sign_in(qtbot, dialog, demo_server.password)
    window_of(qtbot, controller).close()
    assert ended_with(qtbot, task) == 0


def test_a_saved_session_for_another_server_is_not_used_when_the_site_locks_one(
    demo_server, qtbot, run_app
):
    save_session(demo_server)
    site = SiteConfig(server_url="https://cards.example.com", lock_server=True)
    controller = AppController(Settings.load(), SessionStore(), site=site)
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.text() == "https://cards.example.com"
    dialog.reject()
    assert ended_with(qtbot, task) == 0


@pytest.mark.parametrize(
    ("last_server", "shown"),
    [("", "https://cards.example.com"), ("https://mine.example.com", "https://mine.example.com")],
)
def test_an_unlocked_site_server_is_only_a_default(qtbot, run_app, last_server, shown):
    settings = Settings.load()
    settings.last_server = last_server
    site = SiteConfig(server_url="https://cards.example.com")
    controller = AppController(settings, SessionStore(), site=site)
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.text() == shown
    assert not dialog.server_edit.isReadOnly()
    dialog.reject()
    assert ended_with(qtbot, task) == 0


def test_the_app_reads_the_site_file(qapp, tmp_path, monkeypatch):
    site_file = tmp_path / "cardviewer-site.json"
    site_file.write_text('{"server_url": "https://cards.example.com", "lock_server": true}')
    monkeypatch.setattr(site_config, "candidate_paths", lambda: [site_file])
    seen: list[SiteConfig] = []
    early: list[tuple[str, bool]] = []

    async def run(controller: AppController) -> int:
        seen.append(controller.site)
        dialog = controller.login_dialog  # painted before the controller was made
        assert dialog is not None
        early.append((dialog.server_edit.text(), dialog.server_edit.isReadOnly()))
        return 0

    monkeypatch.setattr(AppController, "run", run)
    assert main([]) == 0
    assert seen == [SiteConfig("https://cards.example.com", lock_server=True, source=site_file)]
    assert early == [("https://cards.example.com", True)]


# The keyboard alone


def type_into_focus(qtbot, text: str) -> None:
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClicks(widget, text)


def press(qtbot, keys: str) -> None:
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keySequence(widget, keys)


def test_the_main_flows_work_with_the_keyboard_alone(
    demo_server, qtbot, run_app, tmp_path, monkeypatch
):
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    dialog = dialog_of(qtbot, controller)
    assert dialog.server_edit.hasFocus()
    type_into_focus(qtbot, demo_server.base_url)
    press(qtbot, "Tab")
    type_into_focus(qtbot, demo_server.email)
    press(qtbot, "Tab")
    type_into_focus(qtbot, demo_server.password)
    press(qtbot, "Return")

    window = window_of(qtbot, controller)
    qtbot.waitUntil(lambda: window.space_edit.hasFocus(), timeout=WAIT)
    type_into_focus(qtbot, demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        press(qtbot, "Return")
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        press(qtbot, "Ctrl+PgDown")
    assert window.model.page is not None
    assert window.model.page.meta.current_page == 2

    press(qtbot, "Ctrl+F")
    assert window.filter_edit.hasFocus()
    first = window.proxy.card(0)
    assert first is not None
    assert first.username is not None
    assert first.display_name is not None
    name = first.display_name
    type_into_focus(qtbot, first.username)  # ASCII: what the test can type as keys
    assert window.proxy.card(0) is first

    press(qtbot, "Tab")
    assert window.space_button.hasFocus()
    press(qtbot, "Tab")
    assert window.table.hasFocus()
    press(qtbot, "Down")
    press(qtbot, "Return")
    assert window.details_pane.card is window.proxy.card(0)
    press(qtbot, "Ctrl+C")
    assert name in QApplication.clipboard().text()

    target = tmp_path / "page.csv"
    monkeypatch.setattr(window, "ask_export_path", lambda _suggested: target)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        press(qtbot, "Ctrl+E")
    assert target.exists()

    press(qtbot, "Ctrl+Q")
    assert ended_with(qtbot, task) == 0


def test_every_menu_command_has_a_shortcut(demo_server, qtbot, run_app):
    save_session(demo_server)
    controller = AppController(Settings.load(), SessionStore())
    task = run_app(controller)
    window = window_of(qtbot, controller)
    menus = [action.menu() for action in window.menuBar().actions()]
    without = [
        action.text()
        for menu in menus
        if isinstance(menu, QMenu)
        for action in menu.actions()
        if not action.isSeparator() and action.shortcut().isEmpty()
    ]
    assert len(menus) == 5
    assert without == ["Open &Log Folder"]
    window.close()
    assert ended_with(qtbot, task) == 0


def test_verbose_logging_leaves_out_the_event_loop_s_trace_of_each_job():
    """qasync names every job handed to a thread at DEBUG, with its arguments (a
    picture's bytes, a sync's batch of cards): `--verbose` keeps the app's own debug
    lines and leaves those out."""
    names = (None, "httpx", "httpcore", "qasync")
    levels = [logging.getLogger(name).level for name in names]
    handler = app_module.configure_logging(verbose=True)
    try:
        assert logging.getLogger("cardviewer.app").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("qasync").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("qasync._QThreadWorker").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("qasync").isEnabledFor(logging.INFO)
    finally:
        logging.getLogger().removeHandler(handler)
        remove_file_log()  # the records held for a file never opened
        for name, level in zip(names, levels, strict=True):
            logging.getLogger(name).setLevel(level)
