"""Every fault of the demo server, through the real window: calm, plain words, page kept.

For each failure the window must not crash, must say in plain words what happened
(no traceback, no class names, no HTML), must keep the page it showed, and Retry
(or the client's own retry) must recover once the fault is gone. Answers that are
no failure (odd values, an empty space, a page past the end) must read just as well.
docs/faults.md lists these cases as a table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt

from cardviewer.api import CardsClient
from cardviewer.demo import DemoServer, Fault
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.settings import Settings
from cardviewer.ui.main_window import MainWindow
from tests.ui.clients import single_try_client
from tests.ui.error_bars import looks_like_an_error
from tests.ui.windows import Closer, open_window

WAIT = 15_000
CLIENT_TIMEOUT = 1.0
"""Seconds the test client waits for an answer; the slow fault takes longer."""
SLOW_DELAY = 3.0

TECHNICAL = re.compile(
    r"Traceback|File \"|\b[A-Z]\w*(Error|Exception)\b|\w+Error:|<html|<h1>|\bNone\b|httpx"
)
"""What a person must never read in the error bar."""

MakeWindow = Callable[[CardsClient], MainWindow]


@pytest.fixture
def make_window(qtbot, arun, demo_server) -> Iterator[MakeWindow]:
    """A window showing pages fetched by the given client, signed in to the demo server."""
    closers: list[Closer] = []

    def make(client: CardsClient) -> MainWindow:
        arun(client.login(demo_server.email, demo_server.password))
        window = open_window(qtbot, client, Settings.load(), closers, email=demo_server.email)
        closers.append(client.aclose)  # after the window's model, which uses it
        return window

    yield make
    for close in closers:
        arun(close())


@pytest.fixture
def window(make_window: MakeWindow, demo_server: DemoServer) -> MainWindow:
    client = single_try_client(demo_server.base_url, timeout=httpx.Timeout(CLIENT_TIMEOUT))
    return make_window(client)


def open_first_page(qtbot, window: MainWindow, space_id: str) -> None:
    window.space_combo.setEditText(space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.open_space()


def names(window: MainWindow) -> list[str | None]:
    return [
        window.model.card(row).display_name  # type: ignore[union-attr]
        for row in range(window.model.rowCount())
    ]


def assert_plain(text: str) -> None:
    assert text.strip()
    assert not TECHNICAL.search(text), text


# Failures: the page stays, the bar explains, Retry recovers


@dataclass(frozen=True)
class FailureCase:
    fault: Fault
    words: tuple[str, ...]
    """Words the message must contain (case-insensitive)."""
    options: tuple[tuple[str, Any], ...] = ()

    def inject(self, server: DemoServer) -> None:
        server.faults.inject(self.fault, **dict(self.options))


FAILURES = {
    "html_502": FailureCase(Fault.HTML_502, ("server is unavailable", "502", "try again")),
    "truncated_json": FailureCase(Fault.TRUNCATED_JSON, ("not readable", "try again")),
    "dropped_connection": FailureCase(
        Fault.DROP_CONNECTION, ("connection", "interrupted", "try again")
    ),
    "slow_past_timeout": FailureCase(
        Fault.SLOW, ("did not answer in time", "try again"), (("delay", SLOW_DELAY),)
    ),
    "rate_limited": FailureCase(
        Fault.RATE_LIMITED,
        ("too many requests", "try again in 5 seconds"),
        (("retry_after", 5),),
    ),
    "service_unavailable": FailureCase(
        Fault.SERVICE_UNAVAILABLE, ("server", "problem", "try again later")
    ),
}


@pytest.mark.parametrize("case", FAILURES.values(), ids=FAILURES.keys())
def test_a_failure_is_explained_keeps_the_page_and_retry_recovers(
    window, demo_server, qtbot, case: FailureCase
):
    open_first_page(qtbot, window, demo_server.space_id)
    shown = names(window)
    case.inject(demo_server)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        qtbot.mouseClick(window.page_bar.next_button, Qt.MouseButton.LeftButton)

    message = window.error_bar.message
    assert window.error_bar.isVisible()
    assert looks_like_an_error(window.error_bar)
    assert_plain(message)
    for word in case.words:
        assert word.lower() in message.lower(), message
    assert message.endswith("Page 1 is still shown.")
    assert "Traceback" not in window.error_bar.detail
    # The page shown before stays, and the controls describe it.
    assert names(window) == shown
    assert window.model.current_request == PageRequest(demo_server.space_id, 1, False)
    assert window.stack.currentWidget() is window.table
    assert window.page_bar.page_spin.value() == 1
    assert window.export_action.isEnabled()
    assert not window.busy_indicator.isVisible()

    assert window.error_bar.retry_button.isVisible()
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        qtbot.mouseClick(window.error_bar.retry_button, Qt.MouseButton.LeftButton)
    assert window.error_bar.isHidden()
    assert window.model.current_request == PageRequest(demo_server.space_id, 2, False)
    assert window.page_bar.page_spin.value() == 2
    assert names(window) != shown


def test_a_failure_while_opening_another_space_names_what_is_still_shown(
    window, demo_server, qtbot
):
    open_first_page(qtbot, window, demo_server.space_id)
    demo_server.faults.inject(Fault.HTML_502)
    window.space_combo.setEditText(demo_server.empty_space_id)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space()
    assert_plain(window.error_bar.message)
    assert window.error_bar.message.endswith(
        f"The cards of {demo_server.space_id} are still shown."
    )
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        qtbot.mouseClick(window.error_bar.retry_button, Qt.MouseButton.LeftButton)
    assert window.model.current_request == PageRequest(demo_server.empty_space_id, 1, False)


def test_a_space_that_is_not_there_offers_no_retry_and_keeps_the_id_to_correct(
    window, demo_server, qtbot
):
    open_first_page(qtbot, window, demo_server.space_id)
    shown = names(window)
    window.space_combo.setEditText("acme1EU01demo0x")  # one letter off
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space()

    assert window.error_bar.message == (
        "This space was not found, or your account has no access to it. Check the space id. "
        f"The cards of {demo_server.space_id} are still shown."
    )
    # Retrying the same id would fail the same way; the id stays in the field to correct.
    assert window.error_bar.retry_button.isHidden()
    assert window.space_combo.space_text == "acme1EU01demo0x"
    assert names(window) == shown
    assert window.space_combo.findText("acme1EU01demo0x") == -1  # not among recent spaces


def test_a_failure_before_any_page_leaves_the_hint_and_no_page_claim(window, demo_server, qtbot):
    demo_server.faults.inject(Fault.DROP_CONNECTION)
    window.space_combo.setEditText(demo_server.space_id)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.open_space()
    assert_plain(window.error_bar.message)
    assert "still shown" not in window.error_bar.message
    assert window.stack.currentWidget() is window.hint_page
    # Not "No space open … Enter a space id": it was entered, and Open pressed.
    qtbot.waitUntil(lambda: window.hint_page.title_label.text() == "No cards shown")
    assert window.hint_page.text_label.text() == (
        "The space's cards could not be loaded; the message above says why."
    )
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        qtbot.mouseClick(window.error_bar.retry_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.table


# The client's own retries: the person never sees a passing fault


def retrying_client(base_url: str) -> CardsClient:
    retry = pytest.importorskip("cardviewer.api.retry")
    policy = retry.RetryPolicy(attempts=3, base_delay=0.01, max_delay=0.02)
    return CardsClient(base_url, retry=policy, timeout=httpx.Timeout(CLIENT_TIMEOUT))


PASSING = {
    "html_502_twice": (Fault.HTML_502, {"times": 2}),
    "service_unavailable_twice": (Fault.SERVICE_UNAVAILABLE, {"times": 2}),
    "dropped_connection": (Fault.DROP_CONNECTION, {}),
    "rate_limited_briefly": (Fault.RATE_LIMITED, {"retry_after": 0}),
}


@pytest.mark.parametrize(("fault", "options"), PASSING.values(), ids=PASSING.keys())
def test_a_passing_fault_is_retried_without_bothering_the_person(
    make_window, demo_server, qtbot, fault: Fault, options: dict[str, Any]
):
    window = make_window(retrying_client(demo_server.base_url))
    open_first_page(qtbot, window, demo_server.space_id)
    demo_server.faults.inject(fault, **options)
    demo_server.clear_requests()
    with (
        qtbot.assertNotEmitted(window.pages.loadFailed),
        qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT),
    ):
        window.go_to_page(2)
    assert window.error_bar.isHidden()
    assert window.model.current_request == PageRequest(demo_server.space_id, 2, False)
    cards_requests = [r for r in demo_server.requests if r.server == "api"]
    assert len(cards_requests) == 1 + options.get("times", 1)


def test_a_long_retry_after_is_not_waited_for_but_said(make_window, demo_server, qtbot):
    window = make_window(retrying_client(demo_server.base_url))
    open_first_page(qtbot, window, demo_server.space_id)
    demo_server.faults.inject(Fault.RATE_LIMITED, retry_after=300)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.go_to_page(2)
    message = window.error_bar.message
    assert_plain(message)
    assert "too many requests" in message
    assert "try again in about 5 minutes" in message
    assert window.model.current_request == PageRequest(demo_server.space_id, 1, False)


# Answers that are no failure


def test_wrong_value_types_show_the_page_and_mark_the_values(window, demo_server, qtbot):
    open_first_page(qtbot, window, demo_server.space_id)
    demo_server.faults.inject(Fault.WRONG_TYPES)
    with (
        qtbot.assertNotEmitted(window.pages.loadFailed),
        qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT),
    ):
        window.go_to_page(2)
    assert window.error_bar.isHidden()
    assert window.model.rowCount() == 10
    cells = [
        window.model.index(row, column).data()
        for row in range(window.model.rowCount())
        for column in range(window.model.columnCount())
    ]
    assert "(invalid)" in cells
    status = window.statusBar().currentMessage()
    assert_plain(status)
    assert "could not be read" in status
    assert "(invalid)" in status


def test_an_empty_space_says_it_has_no_cards(window, demo_server, qtbot):
    open_first_page(qtbot, window, demo_server.empty_space_id)
    assert window.error_bar.isHidden()
    assert window.stack.currentWidget() is window.empty_page
    assert window.empty_page.title_label.text() == "No cards"
    assert window.empty_page.text_label.text() == "This space has no cards yet."
    assert window.empty_page.action_button.isHidden()
    assert not window.export_action.isEnabled()


def test_a_page_past_the_last_says_so_and_leads_back(window, demo_server, qtbot):
    open_first_page(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.go_to_page(99)
    assert window.error_bar.isHidden()
    assert window.stack.currentWidget() is window.empty_page
    assert window.empty_page.text_label.text() == "There are no cards on this page."
    button = window.empty_page.action_button
    assert button.isVisible()
    assert button.text() == "Go to the Last Page (24)"
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.table
    assert window.page_bar.page_spin.value() == 24
