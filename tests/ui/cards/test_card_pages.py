"""Pages of the demo server asked for, shown in the table and reported, end to end.

The paging rules themselves are tested without Qt or sockets in
tests/services/test_page_loader.py; here they meet a real server and a real table.
"""

from __future__ import annotations

import pytest

from cardviewer.api import CardPage, CardsClient, CardViewerError, SpaceUnavailable
from cardviewer.api.errors import UnexpectedResponse
from cardviewer.demo import Fault
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.cards.card_table_model import CardTableModel

WAIT = 15_000


def source_for(client: CardsClient):
    async def fetch(request: PageRequest) -> CardPage:
        return await client.list_cards(
            request.space_id, request.page, with_emails=request.with_emails
        )

    return fetch


@pytest.fixture
def pages(qloop, arun, client, avatars):
    pages = CardPages(CardTableModel(avatars))
    pages.set_source(source_for(client))
    yield pages
    arun(pages.aclose())


def load(qtbot, pages: CardPages, space: str, page: int = 1, emails: bool = False) -> CardPage:
    with qtbot.waitSignal(pages.pageLoaded, timeout=WAIT) as loaded:
        pages.request_page(space, page, emails)
    shown: CardPage = loaded.args[0]
    return shown


def fail(qtbot, pages: CardPages, space: str, page: int = 1, emails: bool = False):
    with qtbot.waitSignal(pages.loadFailed, timeout=WAIT) as failed:
        pages.request_page(space, page, emails)
    return failed.args


def test_a_page_replaces_the_table_with_a_reset(qtbot, pages, demo_server):
    loading: list[bool] = []
    pages.loadingChanged.connect(loading.append)
    with qtbot.waitSignals(
        [pages.model.modelAboutToBeReset, pages.model.modelReset, pages.pageLoaded],
        order="strict",
        timeout=WAIT,
    ):
        pages.request_page(demo_server.space_id, 1, False)
        assert pages.is_loading
    assert loading == [True, False]
    assert not pages.is_loading
    assert pages.current_request == PageRequest(demo_server.space_id, 1, False)
    assert pages.pending_request is None
    assert pages.page is not None
    assert pages.page.meta.current_page == 1


def test_the_page_on_screen_stays_while_the_next_loads(qtbot, pages, demo_server):
    load(qtbot, pages, demo_server.space_id, 1)
    first = pages.model.card(0)
    demo_server.config.latency = 0.3
    with qtbot.waitSignal(pages.pageLoaded, timeout=WAIT):
        pages.request_page(demo_server.space_id, 2, False)
        assert pages.is_loading
        assert pages.pending_request == PageRequest(demo_server.space_id, 2, False)
        assert pages.current_request == PageRequest(demo_server.space_id, 1, False)
        assert pages.model.rowCount() == 10
        assert pages.model.card(0) is first
    assert pages.model.card(0) is not first


def test_failure_keeps_the_page_and_retry_loads_it(qtbot, pages, demo_server):
    load(qtbot, pages, demo_server.space_id, 1)
    shown = pages.page
    resets: list[None] = []
    pages.model.modelReset.connect(lambda: resets.append(None))
    demo_server.faults.inject(Fault.SERVICE_UNAVAILABLE)
    request, error = fail(qtbot, pages, demo_server.space_id, 2)
    assert request == PageRequest(demo_server.space_id, 2, False)
    assert isinstance(error, CardViewerError)
    assert str(error)
    assert resets == []
    assert pages.page is shown
    assert pages.model.rowCount() == 10
    assert pages.current_request == PageRequest(demo_server.space_id, 1, False)
    assert pages.pending_request is None
    assert not pages.is_loading
    with qtbot.waitSignal(pages.pageLoaded, timeout=WAIT):
        pages.retry()
    assert pages.current_request == request


def test_unknown_space(qtbot, pages, demo_server):
    _, error = fail(qtbot, pages, "no-such-space")
    assert isinstance(error, SpaceUnavailable)


def test_a_broken_reply_is_a_failure_too(qtbot, pages, demo_server):
    demo_server.faults.inject(Fault.TRUNCATED_JSON)
    _, error = fail(qtbot, pages, demo_server.space_id)
    assert isinstance(error, UnexpectedResponse | CardViewerError)


def test_clear_empties_the_table_and_stops_loading(qtbot, qtmodeltester, pages, demo_server):
    load(qtbot, pages, demo_server.space_id)
    demo_server.config.latency = 0.3
    pages.request_page(demo_server.space_id, 2, False)
    with qtbot.waitSignals(
        [pages.model.modelAboutToBeReset, pages.model.modelReset], order="strict"
    ):
        pages.clear()
    assert pages.model.rowCount() == 0
    assert pages.page is None
    assert pages.current_request is None
    assert pages.pending_request is None
    assert not pages.is_loading
    qtmodeltester.check(pages.model)
    pages.retry()  # nothing to repeat after clear
    assert not pages.is_loading


def test_a_new_source_drops_the_load_under_way(qtbot, pages, demo_server):
    demo_server.config.latency = 0.3
    pages.request_page(demo_server.space_id, 1, False)
    with qtbot.waitSignal(pages.loadingChanged, check_params_cb=lambda busy: not busy):
        pages.set_source(None)
    assert pages.pending_request is None
    assert pages.page is None


def test_close_cancels_the_load_under_way(qtbot, arun, pages, demo_server):
    demo_server.config.latency = 30.0
    pages.request_page(demo_server.space_id, 1, False)
    arun(pages.aclose(), timeout=5_000)
    assert not pages.is_loading
    pages.request_page(demo_server.space_id, 1, False)
    assert not pages.is_loading


# Prefetch against the demo server


@pytest.fixture
def prefetching(qloop, arun, client, avatars):
    pages = CardPages(CardTableModel(avatars), prefetch=True)
    pages.set_source(source_for(client), scope=client.server_url)
    yield pages
    arun(pages.aclose())


def page_requests(demo_server) -> list[str]:
    return [r.path for r in demo_server.requests if "/cards" in r.path]


def settle(qtbot, pages: CardPages) -> None:
    """Wait until the background fetches of neighbouring pages have ended."""
    qtbot.waitUntil(lambda: not pages.is_prefetching, timeout=WAIT)


def test_the_next_and_previous_pages_are_fetched_in_the_background(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 5)
    settle(qtbot, prefetching)
    fetched = page_requests(demo_server)
    assert len(fetched) == 3
    assert {p.split("page=")[1] for p in fetched} == {"4", "5", "6"}


def test_asking_for_a_page_being_prefetched_shares_its_request(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 1)
    settle(qtbot, prefetching)
    demo_server.config.latency = 0.3
    demo_server.clear_requests()
    prefetching.request_page(demo_server.space_id, 2, False)  # from the cache; 3 is fetched
    assert prefetching.page is not None
    assert prefetching.page.meta.current_page == 2
    page = load(qtbot, prefetching, demo_server.space_id, 3)  # while 3 is on its way
    assert page.meta.current_page == 3
    assert len([p for p in page_requests(demo_server) if p.endswith("page=3")]) == 1


def test_a_failed_prefetch_is_silent_and_the_page_is_asked_for_again(
    qtbot, prefetching, demo_server
):
    failures = []
    prefetching.loadFailed.connect(lambda *args: failures.append(args))
    load(qtbot, prefetching, demo_server.space_id, 1)
    demo_server.faults.inject(Fault.HTML_502, times=1)
    settle(qtbot, prefetching)
    assert failures == []
    demo_server.clear_requests()
    page = load(qtbot, prefetching, demo_server.space_id, 2)
    assert page.meta.current_page == 2
    assert any("page=2" in p for p in page_requests(demo_server))
