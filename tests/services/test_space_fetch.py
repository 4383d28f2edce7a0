"""Fetching a whole space: every page once, in order, a bounded number at a time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest

from cardviewer.api import CardPage, CardsClient
from cardviewer.api.errors import ServerError, UnexpectedResponse
from cardviewer.demo import EMPTY_SPACE_ID
from cardviewer.services.space_fetch import FetchProgress, PageFetch, fetch_all_pages

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def client(demo_server):
    async with CardsClient(demo_server.base_url) as client:
        await client.login(demo_server.email, demo_server.password)
        yield client


def fetcher(client: CardsClient, space_id: str) -> PageFetch:
    async def fetch(number: int) -> CardPage:
        return await client.list_cards(space_id, number)

    return fetch


async def test_every_page_once_in_page_order(client, demo_server):
    pages = await fetch_all_pages(fetcher(client, demo_server.space_id), concurrency=4)
    assert [p.meta.current_page for p in pages] == list(range(1, 25))
    names = [card.display_name for page in pages for card in page.cards]
    assert len(names) == 240
    sequential: list[str | None] = []
    for number in range(1, 25):
        page = await client.list_cards(demo_server.space_id, number)
        sequential.extend(card.display_name for card in page.cards)
    assert names == sequential
    fetched = [r for r in demo_server.requests if "/cards" in r.path]
    assert len(fetched) == 2 * 24


async def test_an_empty_space_is_one_empty_page(client):
    pages = await fetch_all_pages(fetcher(client, EMPTY_SPACE_ID))
    assert len(pages) == 1
    assert pages[0].is_empty


async def test_no_more_than_the_concurrency_at_once():
    in_flight = most = 0
    meta = {"current_page": 1, "last_page": 30, "per_page": 10, "total": 300}

    async def fetch(number: int) -> CardPage:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.002 * (number % 3))
        in_flight -= 1
        return CardPage.model_validate(
            {"cards": (), "meta": {**meta, "current_page": number}, "links": {}}
        )

    pages = await fetch_all_pages(fetch, concurrency=3)
    assert [p.meta.current_page for p in pages] == list(range(1, 31))
    assert most == 3


async def test_progress_counts_pages_and_cards(client, demo_server):
    seen: list[FetchProgress] = []
    await fetch_all_pages(
        fetcher(client, demo_server.space_id),
        concurrency=2,
        on_progress=seen.append,
        progress_interval=0,
    )
    assert [p.pages_done for p in seen] == list(range(1, 25))
    assert {p.pages_total for p in seen} == {24}
    assert seen[-1].cards == 240
    assert seen[-1].seconds_left == 0.0
    assert seen[0].seconds_left is None, "one page alone says nothing of the pace"


async def test_a_failing_page_fails_the_fetch_and_stops_the_rest(client, demo_server):
    calls = []
    fetch = fetcher(client, demo_server.space_id)

    async def failing(number: int) -> CardPage:
        calls.append(number)
        if number == 5:
            raise ServerError("The server had a problem.", 500)
        return await fetch(number)

    with pytest.raises(ServerError):
        await fetch_all_pages(failing, concurrency=2)
    assert len(calls) < 24


async def test_progress_is_reported_first_and_last_and_not_for_every_page():
    seen: list[FetchProgress] = []
    meta = {"current_page": 1, "last_page": 30, "per_page": 10, "total": 300}

    async def fetch(number: int) -> CardPage:
        await asyncio.sleep(0)
        return CardPage.model_validate(
            {"cards": (), "meta": {**meta, "current_page": number}, "links": {}}
        )

    # An interval no test run reaches: only the reports that always come.
    await fetch_all_pages(fetch, concurrency=4, on_progress=seen.append, progress_interval=3600)
    assert [p.pages_done for p in seen] == [1, 30]
    assert seen[-1].seconds_left == 0.0


def test_time_left_is_a_guess_from_the_pace():
    assert FetchProgress(0, 10, 0, 0.0).seconds_left is None
    assert FetchProgress(4, 10, 40, 2.0).seconds_left == pytest.approx(3.0)
    assert FetchProgress(10, 10, 100, 5.0).seconds_left == 0.0


@pytest.mark.parametrize(
    ("done", "elapsed"),
    [(1, 0.5), (1, 2.0), (2, 5.0), (3, 0.2), (20, 0.9)],
)
def test_no_guess_before_a_few_pages_and_a_second(done, elapsed):
    # A 240-page fetch whose first page took half a second would have been "2 min".
    assert FetchProgress(done, 240, done * 10, elapsed).seconds_left is None


def test_the_guess_follows_pages_fetched_side_by_side():
    # First page 0.5 s alone, then four at a time: 9 pages in 1.5 s.
    left = FetchProgress(9, 240, 90, 1.5).seconds_left
    assert left is not None
    assert left < 60


async def test_cancelling_stops_every_request():
    in_flight = 0
    started = asyncio.Event()
    meta = {"current_page": 1, "last_page": 50, "per_page": 10, "total": 500}

    async def fetch(number: int) -> CardPage:
        nonlocal in_flight
        in_flight += 1
        try:
            if number > 1:
                started.set()
                await asyncio.sleep(10)
            return CardPage.model_validate(
                {"cards": (), "meta": {**meta, "current_page": number}, "links": {}}
            )
        finally:
            in_flight -= 1

    task = asyncio.create_task(fetch_all_pages(fetch, concurrency=4))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert in_flight == 0


# A server whose numbers do not add up


def hostile_page(number: int, *, cards: int = 0, total: int = 300, **meta: int) -> CardPage:
    """A page as a fetch returns it, with `meta` overriding the page's own numbers."""
    card = {"uuid": "c", "display_name": "Card"}
    numbers = {"current_page": number, "last_page": -(-total // 10) or 1, "per_page": 10}
    return CardPage.model_validate(
        {
            "cards": [card] * cards,
            "meta": {**numbers, "total": total, **meta},
            "links": {},
        }
    )


class CountingFetch:
    """A fetch that answers with `answer(number)` and notes every page asked for."""

    def __init__(self, answer: Callable[[int], CardPage]) -> None:
        self.answer = answer
        self.asked: list[int] = []

    async def __call__(self, number: int) -> CardPage:
        self.asked.append(number)
        await asyncio.sleep(0)
        return self.answer(number)


async def test_a_fetch_that_always_answers_page_1_stops_at_once():
    fetch = CountingFetch(lambda number: hostile_page(1, last_page=10**9, total=10**9, per_page=1))
    with pytest.raises(UnexpectedResponse):
        await fetch_all_pages(fetch, concurrency=4)
    assert fetch.asked == [1]  # a billion cards: more than a space may have


async def test_a_fetch_answering_page_1_for_every_page_stops_at_page_2():
    fetch = CountingFetch(lambda number: hostile_page(1, cards=10))
    with pytest.raises(UnexpectedResponse) as info:
        await fetch_all_pages(fetch, concurrency=4)
    assert str(info.value) == "The server sent page 1 when page 2 was asked for."
    assert len(fetch.asked) <= 1 + 4


async def test_a_billion_pages_of_ten_cards_stop_at_the_first_page():
    fetch = CountingFetch(lambda number: hostile_page(number, cards=10, total=10, last_page=10**9))
    with pytest.raises(UnexpectedResponse) as info:
        await fetch_all_pages(fetch, concurrency=4)
    assert str(info.value) == "The server's numbers of pages and cards do not add up."
    assert fetch.asked == [1]


async def test_more_cards_than_the_total_stop_the_fetch():
    # 3 pages for 25 cards, but every page is full: 30 cards.
    fetch = CountingFetch(lambda number: hostile_page(number, cards=10, total=25))
    with pytest.raises(UnexpectedResponse) as info:
        await fetch_all_pages(fetch, concurrency=1)
    assert str(info.value) == "The server sent more cards than it says the space has."
    assert "30 cards on the pages so far, but meta.total is at most 25" in info.value.detail
    assert fetch.asked == [1, 2, 3]


async def test_more_cards_on_page_1_than_the_total_stop_the_fetch():
    fetch = CountingFetch(lambda number: hostile_page(number, cards=10, total=5, last_page=1))
    with pytest.raises(UnexpectedResponse):
        await fetch_all_pages(fetch)


async def test_a_space_that_grows_during_the_fetch_is_fetched_to_page_1s_last_page():
    def answer(number: int) -> CardPage:
        total = 25 if number == 1 else 40  # cards added after page 1 came
        return hostile_page(number, cards=10, total=total)

    fetch = CountingFetch(answer)
    pages = await fetch_all_pages(fetch, concurrency=1)
    assert fetch.asked == [1, 2, 3]
    assert sum(len(page.cards) for page in pages) == 30


async def test_a_space_that_shrinks_during_the_fetch_is_no_failure():
    def answer(number: int) -> CardPage:
        return hostile_page(number, cards=10 if number < 3 else 0, total=30 if number == 1 else 20)

    pages = await fetch_all_pages(CountingFetch(answer), concurrency=1)
    assert sum(len(page.cards) for page in pages) == 20


async def test_a_server_always_answering_page_1_stops_the_fetch_through_the_client():
    body = {
        "data": [{"uuid": f"c{n}"} for n in range(10)],
        "links": {},
        "meta": {"current_page": 1, "last_page": 10**5, "per_page": 10, "total": 10**6},
    }
    requests = 0

    def answer(request: httpx.Request) -> httpx.Response:
        nonlocal requests
        requests += 1
        return httpx.Response(200, json=body)

    transport = httpx.MockTransport(answer)
    async with CardsClient("https://api.example", token="t", transport=transport) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await fetch_all_pages(fetcher(client, "space"), concurrency=4)
    assert "when page" in str(info.value)
    assert requests <= 1 + 4  # each worker's first page; nothing is retried
