"""A thousand page switches with random faults: nothing leaks, nothing goes unreported.

The window pages through a space of the demo server while a seeded random generator
injects faults, clicks Retry and switches again before a page has arrived. At the end
no error may have reached the event loop's exception handler, no task may be left
pending, and the open connections after 1,000 switches may not outnumber those after
100 (counted from the client's side in /proc/net/tcp, per server: a settled API client
keeps at most one connection alive, the avatar loader at most one per download slot).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardviewer.api import CardPage
from cardviewer.demo import DemoConfig, DemoServer, Fault
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.main_window import MainWindow
from tests.ui.clients import single_try_client

SWITCHES = 1_000
CHECKPOINT = 100
SEED = 20_240_419
FAULT_RATE = 0.15
RAPID_RATE = 0.1
"""Share of switches that ask for another page before the first has arrived."""
WAIT = 10_000
CLIENT_TIMEOUT = 2.0
AVATAR_SLOTS = 6
"""Downloads the avatar loader runs at once, and so connections it may keep."""
TCP_ESTABLISHED = "01"

CARD_FAULTS: list[tuple[Fault, dict[str, Any]]] = [
    (Fault.HTML_502, {}),
    (Fault.TRUNCATED_JSON, {}),
    (Fault.DROP_CONNECTION, {}),
    (Fault.RATE_LIMITED, {"retry_after": 0}),
    (Fault.SERVICE_UNAVAILABLE, {}),
    (Fault.WRONG_TYPES, {}),
    (Fault.SLOW, {"delay": 0.02}),
]
AVATAR_FAULTS: list[tuple[Fault, dict[str, Any]]] = [
    (Fault.HTML_502, {}),
    (Fault.TRUNCATED_JSON, {}),
    (Fault.DROP_CONNECTION, {}),
]


def established_to(ports: set[int]) -> int:
    """Open TCP connections from this machine to `ports` (the client ends only)."""
    count = 0
    for table in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")):
        try:
            lines = table.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if fields[3] == TCP_ESTABLISHED and remote_port in ports:
                count += 1
    return count


@pytest.fixture
def soak_server() -> Iterator[DemoServer]:
    """A server of its own, so that no other test's connections are counted."""
    with DemoServer(DemoConfig()) as server:
        yield server


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="counts connections in /proc")
def test_a_thousand_page_switches_with_faults_leave_nothing_behind(
    soak_server: DemoServer, qloop, qtbot, arun, caplog
):
    caplog.set_level(logging.WARNING, logger="cardviewer")
    unhandled: list[dict[str, Any]] = []
    previous_handler = qloop.get_exception_handler()

    def record(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        unhandled.append(context)
        if previous_handler is not None:
            previous_handler(loop, context)

    qloop.set_exception_handler(record)
    server = soak_server
    ports = {server.port, server.avatar_port}
    client = single_try_client(server.base_url, timeout=httpx.Timeout(CLIENT_TIMEOUT))
    arun(client.login(server.email, server.password))
    avatars = AvatarLoader(  # the demo's image host is on loopback, as the demo server is
        max_in_flight=AVATAR_SLOTS, use_disk_cache=False, allow_private_hosts=True
    )
    pages = CardPages(CardTableModel(avatars))

    async def fetch(request: PageRequest) -> CardPage:
        return await client.list_cards(
            request.space_id, request.page, with_emails=request.with_emails
        )

    pages.set_source(fetch)
    window = MainWindow(pages, Settings.load(), email=server.email, server_url=server.base_url)
    qtbot.addWidget(window)
    window.resize(720, 360)  # fewer cells to paint per switch; the same code runs
    window.show()
    rng = random.Random(SEED)
    last_page = server.config.card_count // server.config.per_page

    def settled() -> bool:
        return not pages.is_loading and pages.pending_request is None

    def idle(loading: bool) -> bool:
        return not loading

    window.space_combo.setEditText(server.space_id)
    with qtbot.waitSignal(pages.pageLoaded, timeout=WAIT):
        window.open_space()

    failures = 0
    api: dict[int, int] = {}
    cdn: dict[int, int] = {}
    for switch in range(1, SWITCHES + 1):
        if rng.random() < FAULT_RATE:
            fault, options = rng.choice(CARD_FAULTS)
            server.faults.inject(fault, **options)
        if rng.random() < FAULT_RATE / 3:
            fault, options = rng.choice(AVATAR_FAULTS)
            server.faults.inject(fault, target="avatar", **options)
        if rng.random() < RAPID_RATE:
            window.go_to_page(rng.randint(1, last_page))  # replaced before it arrives
        if not window.error_bar.isHidden() and rng.random() < 0.5:
            window.error_bar.retry_button.click()
        else:
            window.go_to_page(rng.randint(1, last_page))
        target = pages.pending_request
        if pages.is_loading:  # not for a page that failed moments ago: it fails at once
            # Waiting for the signal, not polling, keeps the thousand switches quick.
            with qtbot.waitSignal(pages.loadingChanged, timeout=WAIT, check_params_cb=idle):
                pass
        assert settled()
        if window.error_bar.isHidden():
            assert pages.model.current_request == target
        else:
            failures += 1
            assert "Something went wrong" not in window.error_bar.message
        if switch in (CHECKPOINT, SWITCHES):
            qtbot.waitUntil(lambda: avatars.loading == 0, timeout=WAIT)
            api[switch] = established_to({server.port})
            cdn[switch] = established_to({server.avatar_port})

    server.faults.clear()
    with qtbot.waitSignal(pages.pageLoaded, timeout=WAIT):
        window.refresh()
    assert window.error_bar.isHidden()
    assert pages.model.rowCount() == server.config.per_page

    window.close()
    arun(pages.aclose())
    arun(avatars.aclose())
    arun(client.aclose())
    qtbot.waitUntil(lambda: established_to(ports) == 0, timeout=WAIT)
    qloop.set_exception_handler(previous_handler)

    logging.getLogger(__name__).info(
        "soak: %d failures shown; connections to the API %s, to avatars %s", failures, api, cdn
    )
    assert failures > SWITCHES * FAULT_RATE / 3  # the faults did reach the window
    assert unhandled == []
    assert [t for t in asyncio.all_tasks(qloop) if not t.done()] == []
    assert api[SWITCHES] <= max(api[CHECKPOINT], 1)
    assert cdn[SWITCHES] <= max(cdn[CHECKPOINT], AVATAR_SLOTS)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
