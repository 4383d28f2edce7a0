"""Fetching a whole space: every page once, in order, a bounded number at a time."""

from __future__ import annotations

import asyncio

import pytest

from cardviewer.api import CardPage, CardsClient
from cardviewer.api.errors import ServerError
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
    assert seen[0].seconds_left is not None


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
    assert FetchProgress(2, 10, 20, 1.0).seconds_left == pytest.approx(4.0)
    assert FetchProgress(10, 10, 100, 5.0).seconds_left == 0.0


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
