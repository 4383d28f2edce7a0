"""The paging rules, without Qt and without sockets: a space behind `httpx.MockTransport`."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from cardviewer.api import CardPage, CardsClient, CardViewerError
from cardviewer.api.models import parse_card
from cardviewer.api.retry import RetryPolicy
from cardviewer.services.page_cache import DEFAULT_CAPACITY
from cardviewer.services.page_loader import (
    FAILURE_MEMORY,
    LoaderTexts,
    PageLoader,
    PageRequest,
    PageSource,
)

pytestmark = pytest.mark.anyio

SPACE = "space-1"
LAST_PAGE = 6
PER_PAGE = 10


@pytest.fixture
def anyio_backend():
    return "asyncio"


class Space:
    """A space of `LAST_PAGE` pages; a page can be held back, or answer 502 every time."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, int]] = []
        self.failing: set[int] = set()
        self.held: dict[int, asyncio.Event] = {}
        self.called_off: list[int] = []

    def pages_asked(self) -> list[int]:
        return [page for _, page in self.requests]

    async def answer(self, request: httpx.Request) -> httpx.Response:
        space = request.url.path.split("/")[3]
        page = int(request.url.params["page"])
        self.requests.append((space, page))
        gate = self.held.get(page)
        if gate is not None:
            try:
                await gate.wait()
            except asyncio.CancelledError:
                self.called_off.append(page)
                raise
        if page in self.failing:
            return httpx.Response(502, text="<html>Bad Gateway</html>")
        emails = request.url.params.get("with") == "emails"
        cards = [
            {"uuid": f"{space}-{page}-{n}", "display_name": f"Person {page}.{n}"}
            | ({"emails": [{"email": f"p{page}.{n}@example.com"}]} if emails else {})
            for n in range(PER_PAGE)
        ]
        meta = {
            "current_page": page,
            "last_page": LAST_PAGE,
            "per_page": PER_PAGE,
            "total": LAST_PAGE * PER_PAGE,
        }
        return httpx.Response(200, json={"data": cards, "links": {}, "meta": meta})


class Screen:
    """What a window would show: every page, failure and change of the loading state."""

    def __init__(self) -> None:
        self.shown: list[tuple[PageRequest, CardPage]] = []
        self.failures: list[tuple[PageRequest, CardViewerError]] = []
        self.loading: list[bool] = []

    def show_page(self, request: PageRequest, page: CardPage) -> None:
        self.shown.append((request, page))

    def report_failure(self, request: PageRequest, error: CardViewerError) -> None:
        self.failures.append((request, error))

    def loading_changed(self, loading: bool) -> None:
        self.loading.append(loading)

    def pages(self) -> list[int]:
        return [page.meta.current_page for _, page in self.shown]


MakeLoader = Callable[..., PageLoader]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def space() -> Space:
    return Space()


@pytest.fixture
async def client(space: Space) -> AsyncIterator[CardsClient]:
    transport = httpx.MockTransport(space.answer)
    retry = RetryPolicy(attempts=1)  # the loader's rules, not the client's retries
    async with CardsClient(
        "https://cards.example", token="t", transport=transport, retry=retry
    ) as c:
        yield c


def source_for(client: CardsClient) -> PageSource:
    async def fetch(request: PageRequest) -> CardPage:
        return await client.list_cards(
            request.space_id, request.page, with_emails=request.with_emails
        )

    return fetch


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def make_loader(client: CardsClient, clock: Clock) -> AsyncIterator[MakeLoader]:
    made: list[PageLoader] = []

    def make(screen: Screen, *, prefetch: bool = False) -> PageLoader:
        loader = PageLoader(screen, prefetch=prefetch, clock=clock)
        loader.set_source(source_for(client), scope=client.server_url)
        made.append(loader)
        return loader

    yield make
    for loader in made:
        await loader.aclose()


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until `condition` holds (5 s at most)."""
    async with asyncio.timeout(5):
        while not condition():  # noqa: ASYNC110 - the conditions are plain attributes
            await asyncio.sleep(0)


async def settled(loader: PageLoader) -> None:
    await until(lambda: not loader.is_loading and not loader.is_prefetching)


def request(page: int, *, space: str = SPACE, emails: bool = False) -> PageRequest:
    return PageRequest(space, page, emails)


# What is shown


async def test_a_page_is_shown_once_it_has_arrived(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    loader.request_page(request(2))
    assert loader.is_loading
    assert loader.pending_request == request(2)
    assert screen.loading == [True]
    await settled(loader)
    assert screen.loading == [True, False]
    assert screen.pages() == [2]
    assert screen.shown[0][0] == request(2)
    assert loader.pending_request is None
    assert screen.failures == []
    loader.retry()  # asks again for the page shown
    assert loader.is_loading
    await settled(loader)
    assert [shown for shown, _ in screen.shown] == [request(2), request(2)]
    assert space.pages_asked() == [2, 2]


async def test_only_the_most_recent_request_lands(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.held = {1: asyncio.Event(), 2: asyncio.Event()}
    loader.request_page(request(1))
    loader.request_page(request(2))
    loader.request_page(request(3))
    assert loader.pending_request == request(3)
    await until(lambda: screen.shown != [])
    space.held[1].set()
    space.held[2].set()
    await settled(loader)
    await asyncio.sleep(0.01)
    assert screen.pages() == [3]
    assert screen.loading == [True, False]


async def test_a_superseded_request_is_called_off(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.held = {1: asyncio.Event()}
    loader.request_page(request(1))
    await until(lambda: space.pages_asked() == [1])
    loader.request_page(request(2))
    await settled(loader)
    await until(lambda: space.called_off == [1])  # the request itself, not only its answer
    assert screen.pages() == [2]
    assert space.pages_asked() == [1, 2]


async def test_an_answer_that_comes_late_cannot_bring_back_an_older_page(clock):
    """Even a source that ignores being called off cannot replace the newer page."""
    gates = {n: asyncio.Event() for n in (1, 2)}
    started: list[int] = []
    returned: list[int] = []

    async def stubborn(req: PageRequest) -> CardPage:
        started.append(req.page)
        try:
            while True:
                try:
                    await asyncio.shield(gates[req.page].wait())
                    return page_of(req.page)
                except asyncio.CancelledError:
                    continue  # carries on regardless
        finally:
            returned.append(req.page)

    screen = Screen()
    loader = PageLoader(screen, clock=clock)
    loader.set_source(stubborn)
    loader.request_page(request(1))
    await until(lambda: started == [1])
    loader.request_page(request(2))
    await until(lambda: started == [1, 2])
    gates[2].set()
    await until(lambda: screen.shown != [])
    gates[1].set()
    await until(lambda: sorted(returned) == [1, 2])
    await asyncio.sleep(0.01)
    assert screen.pages() == [2]
    assert not loader.is_loading
    await loader.aclose()


def page_of(number: int, *, last: int = LAST_PAGE, prefix: str = "c") -> CardPage:
    meta = {"current_page": number, "last_page": last, "per_page": PER_PAGE, "total": last * 10}
    cards = (parse_card({"uuid": f"{prefix}{number}"}),)
    return CardPage.model_validate({"cards": cards, "links": {}, "meta": meta})


class Stubborn:
    """A source that carries on when it is called off; a page can be held back."""

    def __init__(self, prefix: str = "c", *, last: int = LAST_PAGE) -> None:
        self.prefix = prefix
        self.last = last
        self.held: dict[tuple[str, int], asyncio.Event] = {}
        self.asked: list[tuple[str, int]] = []
        self.returned: list[tuple[str, int]] = []

    async def __call__(self, req: PageRequest) -> CardPage:
        where = (req.space_id, req.page)
        self.asked.append(where)
        try:
            gate = self.held.get(where)
            while gate is not None and not gate.is_set():
                try:
                    await asyncio.shield(gate.wait())
                except asyncio.CancelledError:
                    continue  # carries on regardless
            return page_of(req.page, last=self.last, prefix=self.prefix)
        finally:
            self.returned.append(where)

    def let_go(self) -> None:
        """Answer every page held back, so that closing the loader can end."""
        for gate in self.held.values():
            gate.set()


async def test_a_late_answer_from_the_source_before_is_not_kept(clock):
    """Signed in again to the same server: the old sign-in's page is not the new one's."""
    old, new = Stubborn("old-"), Stubborn("new-")
    old.held[(SPACE, 2)] = asyncio.Event()
    screen = Screen()
    loader = PageLoader(screen, prefetch=True, clock=clock)
    loader.set_source(old, scope="https://cards.example")
    try:
        loader.request_page(request(1))
        await until(lambda: (SPACE, 2) in old.asked)  # the neighbour, on its way
        loader.set_source(new, scope="https://cards.example")
        old.let_go()
        await until(lambda: (SPACE, 2) in old.returned)
        loader.request_page(request(2))
        await settled(loader)
        assert [card.uuid for _, page in screen.shown for card in page.cards] == ["old-1", "new-2"]
        assert (SPACE, 2) in new.asked
    finally:
        old.let_go()
        await loader.aclose()


@pytest.mark.parametrize(("left", "shown"), [("space-a", "space-b"), ("space-b", "space-a")])
async def test_a_late_answer_for_a_space_left_takes_no_place_in_the_cache(clock, left, shown):
    source = Stubborn(last=DEFAULT_CAPACITY)
    source.held[(left, 1)] = asyncio.Event()
    screen = Screen()
    loader = PageLoader(screen, prefetch=True, clock=clock)
    loader.set_source(source)
    try:
        loader.request_page(request(1, space=left))
        await until(lambda: (left, 1) in source.asked)
        for number in [*range(2, DEFAULT_CAPACITY, 3), DEFAULT_CAPACITY]:
            loader.request_page(request(number, space=shown))  # with its neighbours
            await settled(loader)
        asked = len(source.asked)
        assert asked == 1 + DEFAULT_CAPACITY  # every page of the space shown is cached
        source.let_go()
        await until(lambda: (left, 1) in source.returned)
        for number in range(1, DEFAULT_CAPACITY + 1):
            loader.request_page(request(number, space=shown))
            assert not loader.is_loading, number
        await settled(loader)
        assert len(source.asked) == asked
    finally:
        source.let_go()
        await loader.aclose()


# Failures


async def test_a_failure_is_reported_and_the_page_shown_stays(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    loader.request_page(request(1))
    await settled(loader)
    space.failing = {2}
    loader.request_page(request(2))
    await settled(loader)
    assert screen.pages() == [1]
    [(failed, error)] = screen.failures
    assert failed == request(2)
    assert "502" in str(error)
    assert screen.loading == [True, False, True, False]
    assert loader.pending_request is None


async def test_a_page_that_just_failed_fails_again_without_a_request(make_loader, space, clock):
    screen = Screen()
    loader = make_loader(screen)
    space.failing = {2}
    loader.request_page(request(2))
    await settled(loader)
    loader.request_page(request(1))
    await settled(loader)
    loader.request_page(request(2))  # again, moments later
    assert not loader.is_loading
    assert [r for r, _ in screen.failures] == [request(2), request(2)]
    assert screen.failures[1][1] is screen.failures[0][1]
    assert space.pages_asked() == [2, 1]
    clock.now += FAILURE_MEMORY  # a while later it is worth asking again
    loader.request_page(request(2))
    await settled(loader)
    assert space.pages_asked() == [2, 1, 2]
    assert len(screen.failures) == 3


async def test_retry_asks_again_at_once_and_shows_the_page_that_recovered(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.failing = {2}
    loader.request_page(request(2))
    await settled(loader)
    space.failing = set()
    loader.retry()
    assert loader.is_loading
    await settled(loader)
    assert screen.pages() == [2]
    assert space.pages_asked() == [2, 2]


async def test_a_failure_is_remembered_per_page_and_per_e_mails(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.failing = {2}
    loader.request_page(request(2))
    await settled(loader)
    space.failing = set()
    loader.request_page(request(2, emails=True))
    await settled(loader)
    loader.request_page(request(3))
    await settled(loader)
    assert screen.pages() == [2, 3]
    assert space.pages_asked() == [2, 2, 3]


async def test_a_new_source_forgets_the_failures(make_loader, space, client):
    screen = Screen()
    loader = make_loader(screen)
    space.failing = {2}
    loader.request_page(request(2))
    await settled(loader)
    space.failing = set()
    loader.set_source(source_for(client), scope=client.server_url)  # signed in again
    loader.request_page(request(2))
    await settled(loader)
    assert screen.pages() == [2]


async def test_a_bug_in_the_source_is_reported_and_logged(clock, caplog):
    async def broken(req: PageRequest) -> CardPage:
        raise KeyError("meta")

    screen = Screen()
    texts = LoaderTexts(unexpected="Etwas ging schief.")
    loader = PageLoader(screen, texts=texts, clock=clock)
    loader.set_source(broken)
    loader.request_page(request(1))
    await settled(loader)
    [(_, error)] = screen.failures
    assert type(error) is CardViewerError
    assert str(error) == "Etwas ging schief."
    assert "KeyError" in (error.detail or "")
    logged = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
    assert [r.exc_info[0] for r in logged if r.exc_info] == [KeyError]
    loader.request_page(request(1))  # not a failure of the server: asked again
    await settled(loader)
    assert len(screen.failures) == 2
    await loader.aclose()


async def test_without_a_source_loading_fails_with_a_message(clock):
    screen = Screen()
    loader = PageLoader(screen, clock=clock)
    loader.request_page(request(1))
    await settled(loader)
    [(_, error)] = screen.failures
    assert str(error) == LoaderTexts().no_source
    await loader.aclose()


# One request per page


async def test_asking_twice_for_a_page_on_its_way_sends_one_request(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.held = {2: asyncio.Event()}
    loader.request_page(request(2))
    await until(lambda: space.pages_asked() == [2])
    loader.request_page(request(2))
    space.held[2].set()
    await settled(loader)
    assert space.pages_asked() == [2]
    assert screen.pages() == [2]


async def test_a_page_being_prefetched_is_shared_when_asked_for(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await until(lambda: screen.shown != [])
    space.held = {2: asyncio.Event()}
    await until(lambda: 2 in space.pages_asked())
    loader.request_page(request(2))  # while its prefetch is on its way
    assert loader.is_loading
    space.held[2].set()
    await settled(loader)
    assert screen.pages() == [1, 2]
    assert space.pages_asked().count(2) == 1


# A page fetched ahead


async def test_a_page_fetched_ahead_is_shown_from_that_fetch_when_asked_for(make_loader, space):
    """The window's first page travels while the window is built; the window's own
    request for it waits for that fetch rather than sending another."""
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.held = {1: asyncio.Event()}
    loader.fetch_ahead(request(1))
    await until(lambda: space.pages_asked() == [1])
    assert screen.loading == [], "nothing is shown as loading: nothing is asked for yet"
    assert screen.shown == []
    loader.request_page(request(1))
    assert loader.is_loading
    space.held[1].set()
    await settled(loader)
    assert screen.pages() == [1]
    assert space.pages_asked().count(1) == 1
    assert screen.loading == [True, False]


async def test_a_page_fetched_ahead_and_arrived_is_shown_at_once(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.fetch_ahead(request(1))
    await settled(loader)
    loader.request_page(request(1))
    assert screen.pages() == [1], "before request_page returned"
    assert space.pages_asked().count(1) == 1


async def test_a_page_fetched_ahead_that_failed_is_reported_when_asked_for(make_loader, space):
    """Fetched moments before it is asked for, its failure (after the client's own
    tries) is the page's answer: it is said once, and not asked for again."""
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.failing = {1}
    loader.fetch_ahead(request(1))
    await settled(loader)
    assert screen.failures == []
    loader.request_page(request(1))
    await settled(loader)
    assert len(screen.failures) == 1
    assert space.pages_asked() == [1]
    loader.request_page(request(1))  # asked again: remembered, as any failure is
    assert len(screen.failures) == 2
    assert space.pages_asked() == [1]


async def test_a_page_fetched_ahead_that_ends_as_it_is_asked_for_is_not_asked_again(client, clock):
    """The window is built while the page travels, so its answer waits to be read:
    the fetch ended in the step after the request, before the load's first, and the
    load found no fetch on its way and asked again."""
    page = await client.list_cards(SPACE, 1)
    asked: list[int] = []
    answer: asyncio.Future[CardPage] = asyncio.get_running_loop().create_future()

    async def source(wanted: PageRequest) -> CardPage:
        asked.append(wanted.page)
        return await answer

    screen = Screen()
    loader = PageLoader(screen, prefetch=True, clock=clock)
    loader.set_source(source, scope="test")
    try:
        loader.fetch_ahead(request(1))
        await until(lambda: asked == [1])
        answer.set_result(page)
        loader.request_page(request(1))
        await settled(loader)
        assert screen.pages() == [1]
        assert asked.count(1) == 1, f"page 1 asked for once ({asked}; 2 is its neighbour)"
    finally:
        await loader.aclose()


async def test_nothing_is_fetched_ahead_without_prefetch_or_for_a_closed_loader(make_loader, space):
    screen = Screen()
    plain = make_loader(screen)
    plain.fetch_ahead(request(1))
    closed = make_loader(Screen(), prefetch=True)
    await closed.aclose()
    closed.fetch_ahead(request(2))
    await asyncio.sleep(0.05)
    assert space.pages_asked() == []


async def test_asking_for_another_space_calls_off_a_page_fetched_ahead(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.held = {1: asyncio.Event()}
    loader.fetch_ahead(request(1))
    await until(lambda: space.pages_asked() == [1])
    loader.request_page(request(1, space="other"))
    await until(lambda: space.called_off == [1])
    space.held[1].set()
    await settled(loader)
    assert [r.space_id for r, _page in screen.shown] == ["other"]


# Prefetch and the cache


async def test_the_neighbours_are_fetched_and_then_shown_at_once(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(3))
    await settled(loader)
    assert sorted(space.pages_asked()) == [2, 3, 4]
    loader.request_page(request(4))
    assert screen.pages() == [3, 4]  # before request_page returned
    assert not loader.is_loading
    assert screen.loading == [True, False]
    await settled(loader)
    assert sorted(space.pages_asked()) == [2, 3, 4, 5]


async def test_the_first_and_last_page_have_one_neighbour(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await settled(loader)
    loader.request_page(request(LAST_PAGE))
    await settled(loader)
    assert sorted(space.pages_asked()) == [1, 2, LAST_PAGE - 1, LAST_PAGE]


async def test_without_prefetch_nothing_else_is_fetched_or_kept(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    loader.request_page(request(3))
    await settled(loader)
    loader.request_page(request(3))
    await settled(loader)
    assert space.pages_asked() == [3, 3]


async def test_a_failed_prefetch_is_quiet_and_showing_the_page_asks_once_more(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.failing = {2}
    loader.request_page(request(1))
    await settled(loader)
    assert screen.failures == []
    space.failing = set()
    loader.request_page(request(2))
    await settled(loader)
    assert screen.pages() == [1, 2]
    assert space.pages_asked().count(2) == 2


async def test_prefetch_leaves_a_page_that_just_failed_alone(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.failing = {3}
    loader.request_page(request(2))  # page 3 fails as a neighbour
    await settled(loader)
    loader.request_page(request(4))  # page 3 is a neighbour again
    await settled(loader)
    loader.request_page(request(3))  # shown: asked once more
    await settled(loader)
    loader.request_page(request(2))
    await settled(loader)
    loader.request_page(request(3))  # failed moments ago: not asked
    assert space.pages_asked().count(3) == 2
    assert [r.page for r, _ in screen.failures] == [3, 3]


async def test_retry_drops_the_cache(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await settled(loader)
    space.requests.clear()
    loader.retry()
    await settled(loader)
    assert sorted(space.pages_asked()) == [1, 2]


async def test_another_space_drops_the_cache(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await settled(loader)
    loader.request_page(request(1, space="space-2"))
    await settled(loader)
    space.requests.clear()
    loader.request_page(request(2))  # was fetched, but for the space seen before
    await settled(loader)
    assert (SPACE, 2) in space.requests


async def test_e_mails_are_part_of_what_is_cached(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await settled(loader)
    loader.request_page(request(2, emails=True))
    await settled(loader)
    assert screen.shown[-1][1].cards[0].emails is not None


# Calling off and closing


async def test_cancel_stops_waiting_and_keeps_the_page_shown(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    loader.request_page(request(1))
    await settled(loader)
    space.held = {2: asyncio.Event()}
    loader.request_page(request(2))
    await until(lambda: 2 in space.pages_asked())
    loader.cancel()
    assert not loader.is_loading
    assert loader.pending_request is None
    space.held[2].set()
    await asyncio.sleep(0.01)
    assert screen.pages() == [1]
    assert screen.loading == [True, False, True, False]
    loader.retry()  # the page asked for last, again
    await settled(loader)
    assert screen.pages() == [1, 2]


async def test_a_new_source_drops_the_load_under_way(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.held = {1: asyncio.Event()}
    loader.request_page(request(1))
    loader.set_source(None)
    assert not loader.is_loading
    space.held[1].set()
    await asyncio.sleep(0.01)
    assert screen.shown == []


async def test_forget_drops_everything_and_retry_has_nothing_to_repeat(make_loader, space):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await settled(loader)
    loader.forget()
    asked = space.pages_asked()
    loader.retry()
    assert not loader.is_loading
    assert loader.pending_request is None
    await asyncio.sleep(0.01)
    assert space.pages_asked() == asked
    assert screen.pages() == [1]


async def test_close_cancels_the_load_and_later_requests_do_nothing(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.held = {1: asyncio.Event()}
    loader.request_page(request(1))
    async with asyncio.timeout(5):
        await loader.aclose()
    assert not loader.is_loading
    loader.request_page(request(1))
    assert not loader.is_loading
    assert screen.shown == []


async def test_a_failed_page_is_remembered_for_twenty_seconds(make_loader, space, clock):
    screen = Screen()
    loader = make_loader(screen)
    space.failing = {2}
    failed_at = clock.now
    loader.request_page(request(2))
    await settled(loader)
    clock.now = failed_at + 19.999
    loader.request_page(request(2))
    assert not loader.is_loading
    assert len(screen.failures) == 2
    assert space.pages_asked() == [2]
    clock.now = failed_at + 20.0
    loader.request_page(request(2))
    await settled(loader)
    assert space.pages_asked() == [2, 2]
    clock.now = failed_at + 50.0  # long past the second failure's 20 s too
    loader.request_page(request(2))
    await settled(loader)
    assert space.pages_asked() == [2, 2, 2]


async def test_retry_calls_off_the_request_on_its_way_and_asks_anew(make_loader, space):
    screen = Screen()
    loader = make_loader(screen)
    space.held = {2: asyncio.Event()}
    loader.request_page(request(2))
    await until(lambda: space.pages_asked() == [2])
    loader.retry()
    await until(lambda: space.called_off == [2])
    space.held[2].set()  # the new request's answer
    await settled(loader)
    assert space.pages_asked() == [2, 2]
    assert screen.pages() == [2]


@pytest.mark.parametrize(("shown", "neighbours"), [(2, [1, 3]), (LAST_PAGE - 1, [4, LAST_PAGE])])
async def test_the_pages_next_to_the_first_and_last_are_fetched_too(
    make_loader, space, shown, neighbours
):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(shown))
    await settled(loader)
    assert sorted(space.pages_asked()) == sorted([shown, *neighbours])


async def test_a_space_id_is_one_space_whichever_string_carries_it(make_loader, space):
    """Equal ids from two places (the settings, the address line) name one space."""
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(1))
    await settled(loader)
    same = SPACE.encode().decode()
    assert same == SPACE
    assert same is not SPACE
    loader.request_page(request(4, space=same))
    await settled(loader)
    loader.request_page(request(3))  # fetched next to page 4
    assert not loader.is_loading
    assert screen.pages() == [1, 4, 3]


class SigningOut(Screen):
    """Signs out, and so takes the loader's source away, as soon as a page is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.loader: PageLoader | None = None

    def show_page(self, request: PageRequest, page: CardPage) -> None:
        super().show_page(request, page)
        if self.loader is not None:
            self.loader.set_source(None)


async def test_no_neighbour_is_fetched_once_the_source_is_gone(make_loader, space, caplog):
    screen = SigningOut()
    loader = make_loader(screen, prefetch=True)
    loader.request_page(request(3))
    await settled(loader)
    asked = space.pages_asked()
    screen.loader = loader
    loader.request_page(request(2))  # from the cache; the source goes while it is shown
    assert screen.pages() == [3, 2]
    assert not loader.is_prefetching
    await loader.aclose()
    assert space.pages_asked() == asked
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_prefetch_called_off_ends_quietly(make_loader, space, caplog):
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.held = {2: asyncio.Event()}
    loader.request_page(request(1))
    await until(lambda: 2 in space.pages_asked())
    loader.forget()
    await until(lambda: space.called_off == [2])
    await loader.aclose()  # every task has ended
    assert not loader.is_prefetching
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_failed_prefetch_is_noted_in_the_log_only(make_loader, space, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.page_loader")
    screen = Screen()
    loader = make_loader(screen, prefetch=True)
    space.failing = {2}
    loader.request_page(request(3))
    await settled(loader)
    assert screen.failures == []
    notes = [r.getMessage() for r in caplog.records if "prefetched" in r.getMessage()]
    assert len(notes) == 1
    assert notes[0].startswith(f"page 2 of {SPACE} not prefetched: ")
    assert "502" in notes[0]


def test_requests_and_texts_are_values_and_options_go_by_name():
    """What the listener is handed cannot be changed under the loader's feet."""
    shown = request(2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shown.page = 3  # type: ignore[misc]
    assert {shown: "shown"}[request(2)] == "shown"
    texts = LoaderTexts()
    with pytest.raises(dataclasses.FrozenInstanceError):
        texts.unexpected = "Oops"  # type: ignore[misc]
    with pytest.raises(TypeError):
        PageLoader(Screen(), True)  # type: ignore[call-arg]


async def test_no_page_before_the_first_or_after_the_last_is_asked_for(clock):
    source = Stubborn()
    loader = PageLoader(Screen(), prefetch=True, clock=clock)
    loader.set_source(source)
    for number in (1, LAST_PAGE):
        loader.request_page(request(number))
        await settled(loader)
    assert sorted(page for _, page in source.asked) == [1, 2, LAST_PAGE - 1, LAST_PAGE]
    await loader.aclose()
