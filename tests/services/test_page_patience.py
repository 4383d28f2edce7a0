"""A whole-space fetch waits out a server gone for a moment, and says so."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from cardviewer.api import CardPage
from cardviewer.api.errors import (
    ConnectFailed,
    NetworkError,
    NotAuthenticated,
    RateLimited,
    ServerError,
    SpaceUnavailable,
    UnreadableAnswer,
)
from cardviewer.services import page_patience
from cardviewer.services.page_patience import GONE, OutageWaits, Wait
from cardviewer.services.space_fetch import FetchProgress, PageFetch, fetch_pages_in_order
from tests.services.test_space_fetch import empty_pages

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


class Outage:
    """Pages of `empty_pages`, page `page` failing with `errors` in turn first (each
    after `slow` seconds); each try of that page is noted in `tries`."""

    def __init__(self, page: int, *errors: Exception, last_page: int = 5, slow: float = 0):
        self.page = page
        self.errors = list(errors)
        self.tries = 0
        self.slow = slow
        self._fetch = empty_pages(last_page)

    async def __call__(self, number: int) -> CardPage:
        if number == self.page:
            self.tries += 1
            if self.errors:
                await asyncio.sleep(self.slow)
                raise self.errors.pop(0)
        return await self._fetch(number)


async def fetched(fetch: PageFetch, seen: list[FetchProgress] | None = None) -> list[int]:
    """The numbers of the pages `fetch_pages_in_order` hands on, two at once."""
    pages: list[CardPage] = []
    progress = seen.append if seen is not None else None
    await fetch_pages_in_order(fetch, pages.append, concurrency=2, on_progress=progress)
    return [page.meta.current_page for page in pages]


def told(seen: list[FetchProgress]) -> list[tuple[float, bool]]:
    return [(p.retrying_in, p.asked_to_wait) for p in seen if p.retrying_in is not None]


@pytest.fixture
def patient(monkeypatch):
    """Two waits of hundredths of a second, then one past the second of patience."""
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 1.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.01, 0.02, 5.0))


def bad_gateway() -> ServerError:
    return ServerError("The server had a problem.", 502)


def refused() -> ConnectFailed:
    error = ConnectFailed("Cannot reach the server.")
    error.__cause__ = httpx.ConnectError("Connection refused")
    return error


@pytest.mark.parametrize("page", [1, 3])
async def test_a_page_that_fails_for_a_while_is_waited_for(patient, page):
    """A server restarting for a second or two stopped the fetch: every page fetched of
    a whole space was lost (the client's own tries of a request last about a second)."""
    fetch = Outage(page, refused(), ServerError("Unavailable.", 503))
    seen: list[FetchProgress] = []
    assert await fetched(fetch, seen) == [1, 2, 3, 4, 5]
    assert fetch.tries == 3
    assert told(seen) == [(0.01, False), (0.0, False), (0.02, False), (0.0, False)]
    if page == 1:
        assert {p.pages_total for p in seen if p.retrying_in is not None} == {0}
    assert seen[-1].retrying_in is None
    assert seen[-1].pages_done == 5


async def test_a_page_that_keeps_failing_stops_the_fetch_once_its_time_is_up(patient):
    fetch = Outage(3, *[bad_gateway() for _ in range(10)])
    with pytest.raises(ServerError):
        await fetched(fetch)
    assert fetch.tries == 3, "waited 0.01 and 0.02 s; another 5 s is past the second"


async def test_a_server_that_stays_away_is_said_to_have_stopped_answering(patient):
    """ "Cannot reach the server … check the address" of a server that had answered
    every page before it went away."""
    fetch = Outage(3, *[refused() for _ in range(10)])
    with pytest.raises(NetworkError) as raised:
        await fetched(fetch)
    assert str(raised.value) == GONE


async def test_the_time_a_failed_try_took_counts_too(monkeypatch):
    """A server that takes its time to fail: no new try begins past the patience."""
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 0.5)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.01,))
    fetch = Outage(2, *[bad_gateway() for _ in range(10)], slow=0.3)
    with pytest.raises(ServerError):
        await fetched(fetch)
    assert fetch.tries == 2, "0.3 s, a wait, 0.3 s more: past the half second"


@pytest.mark.parametrize(
    "error",
    [
        NotAuthenticated("Your session has ended.", 401),
        SpaceUnavailable("This space was not found.", 404),
        ServerError("The server had a problem.", 500),
        ServerError("Not implemented.", 501),
        UnreadableAnswer("The server sent a reply that is not readable data.", 200),
    ],
    ids=["signed out", "no space", "500", "501", "unreadable"],
)
async def test_a_failure_that_waiting_will_not_mend_stops_the_fetch_at_once(patient, error):
    """An answer the server gave, as a 500 or a page it cannot send, comes again: a
    minute of "trying again" would only put off saying so."""
    fetch = Outage(3, error)
    with pytest.raises(type(error)):
        await fetched(fetch)
    assert fetch.tries == 1


async def test_the_server_s_retry_after_is_waited_where_longer_and_told_as_asked(monkeypatch):
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 1.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.01,))
    fetch = Outage(2, RateLimited("Too many requests.", 429, 0.2))
    seen: list[FetchProgress] = []
    await fetched(fetch, seen)
    assert told(seen) == [(0.2, True), (0.0, True)]


async def test_a_wait_longer_than_a_second_is_told_every_second(monkeypatch):
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 3.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (2.5,))
    seen: list[FetchProgress] = []
    await fetched(Outage(2, bad_gateway()), seen)
    assert [wait for wait, _asked in told(seen)] == [2.5, 1.5, 0.5, 0.0]


def test_of_several_pages_waiting_the_longest_wait_is_told():
    """Four requests at once meet the same outage: told one by one, the count jumped."""
    heard: list[Wait | None] = []
    waits = OutageWaits(heard.append)
    waits.wait(5, Wait(8.0))
    waits.wait(6, Wait(2.0))
    waits.wait(5, Wait(7.0))
    waits.over(5)
    waits.wait(6, Wait(1.0))
    waits.over(6)
    waits.over(6)  # told once
    assert heard == [Wait(8.0), Wait(8.0), Wait(7.0), Wait(2.0), Wait(1.0), Wait(0.0)]


def test_a_whole_space_fetch_waits_out_a_minute_of_failures_by_default(monkeypatch):
    monkeypatch.undo()  # the tests' own setting (`tests/conftest.py`)
    assert page_patience.OUTAGE_PATIENCE == 60.0
    assert sum(page_patience.OUTAGE_WAITS) < page_patience.OUTAGE_PATIENCE


async def test_a_wait_called_off_tells_no_try_that_will_not_come(monkeypatch):
    """Another page's failure calls the waiting page off: "trying again…" was told of
    it all the same, the last line before the failure's."""
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 10.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (5.0,))
    fetch = empty_pages(5)

    async def failing(number: int) -> CardPage:
        if number == 2:
            raise ServerError("Unavailable.", 503)
        if number == 3:
            await asyncio.sleep(0.05)  # once page 2 waits
            raise SpaceUnavailable("This space was not found.", 404)
        return await fetch(number)

    seen: list[FetchProgress] = []
    with pytest.raises(SpaceUnavailable):
        await fetched(failing, seen)
    assert told(seen) == [(5.0, False)]


async def test_a_retry_after_shorter_than_the_fetch_s_own_wait_is_not_said_to_be_asked(
    monkeypatch,
):
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 1.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.05,))
    seen: list[FetchProgress] = []
    await fetched(Outage(2, RateLimited("Too many requests.", 429, 0.01)), seen)
    assert told(seen) == [(0.05, False), (0.0, False)]


def test_the_time_left_after_a_wait_is_guessed_from_the_pace_since():
    """A minute's wait early in a fetch of 100,000 cards made "about 20 min left" of two."""
    waited = FetchProgress(50, 100, 500, 70.0, paced_from=(40, 65.0))
    assert waited.seconds_left == pytest.approx(5.0 / 10 * 50)
    assert FetchProgress(50, 100, 500, 70.0).seconds_left == pytest.approx(70.0)
    assert FetchProgress(42, 100, 420, 70.0, paced_from=(40, 65.0)).seconds_left is None


async def test_the_pace_is_taken_up_anew_after_a_page_waited(monkeypatch):
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 5.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.3,))
    seen: list[FetchProgress] = []
    assert await fetched(Outage(3, refused(), last_page=8), seen) == list(range(1, 9))
    assert seen[0].paced_from == (0, 0.0), "from the start until the server kept it waiting"
    pages_from, seconds_from = seen[-1].paced_from
    assert pages_from >= 2
    assert seconds_from >= 0.3, "the wait is not in the pace"
