"""Fetching a whole space: every page once, in order, a bounded number at a time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx
import pytest

from cardviewer.api import CardPage, CardsClient
from cardviewer.api.errors import (
    ServerError,
    SpaceChanged,
    UnexpectedResponse,
)
from cardviewer.demo import EMPTY_SPACE_ID
from cardviewer.services import space_fetch
from cardviewer.services.space_fetch import (
    LOOKAHEAD,
    FetchProgress,
    PageFetch,
    fetch_pages_in_order,
)

pytestmark = pytest.mark.anyio


async def fetch_all_pages(fetch: PageFetch, **options: Any) -> list[CardPage]:
    """Every page of the space, page 1 first, as `fetch_pages_in_order` hands them on."""
    pages: list[CardPage] = []
    await fetch_pages_in_order(fetch, pages.append, **options)
    return pages


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


class InFlight:
    """A fetch of `pages` pages that notes the most requests running at once.

    Each page is full, as the space's total says, of entries that are not cards: nothing
    to read."""

    def __init__(self, pages: int) -> None:
        self.meta = {"current_page": 1, "last_page": pages, "per_page": 10, "total": pages * 10}
        self.now = self.most = 0

    async def __call__(self, number: int) -> CardPage:
        self.now += 1
        self.most = max(self.most, self.now)
        await asyncio.sleep(0.002 * (number % 3))
        self.now -= 1
        return CardPage.model_validate(
            {"cards": (), "skipped": 10, "meta": {**self.meta, "current_page": number}, "links": {}}
        )


async def test_no_more_than_the_concurrency_at_once():
    fetch = InFlight(30)
    pages = await fetch_all_pages(fetch, concurrency=3)
    assert [p.meta.current_page for p in pages] == list(range(1, 31))
    assert fetch.most == 3


async def test_the_pages_after_the_first_are_fetched_side_by_side_when_fewer_than_the_workers():
    fetch = InFlight(3)
    await fetch_all_pages(fetch, concurrency=4)
    assert fetch.most == 2


@pytest.mark.parametrize(("concurrency", "most"), [(None, 4), (100, 16), (0, 1), (-5, 1)])
async def test_the_concurrency_is_four_by_default_and_kept_within_one_to_sixteen(concurrency, most):
    fetch = InFlight(40)
    if concurrency is None:
        pages = await fetch_all_pages(fetch)
    else:
        pages = await fetch_all_pages(fetch, concurrency=concurrency)
    assert len(pages) == 40
    assert fetch.most == most


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
    meta = {"current_page": 1, "last_page": 300, "per_page": 10, "total": 3000}

    async def fetch(number: int) -> CardPage:
        await asyncio.sleep(0)
        return CardPage.model_validate(
            {"cards": (), "skipped": 10, "meta": {**meta, "current_page": number}, "links": {}}
        )

    # An interval no test run reaches: only the reports that always come.
    await fetch_all_pages(fetch, concurrency=4, on_progress=seen.append, progress_interval=3600)
    assert [p.pages_done for p in seen] == [1, 300]
    assert seen[-1].seconds_left == 0.0


class SteppingClock:
    """Stands in for the `time` module: each reading is `step` seconds after the last."""

    def __init__(self, start: float, step: float) -> None:
        self.now = start
        self.step = step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


def empty_pages(last_page: int) -> PageFetch:
    """Pages full of entries that are not cards, as many as the space's total says."""
    meta = {"current_page": 1, "last_page": last_page, "per_page": 10, "total": last_page * 10}

    async def fetch(number: int) -> CardPage:
        return CardPage.model_validate(
            {"cards": (), "skipped": 10, "meta": {**meta, "current_page": number}, "links": {}}
        )

    return fetch


@pytest.mark.parametrize(
    ("step", "interval"),
    [
        (0.03, None),  # the default, 0.05 s: twenty reports a second at most
        (0.25, 0.5),  # a page exactly `interval` after the last report is reported
    ],
)
async def test_progress_comes_once_per_interval_with_the_time_taken(monkeypatch, step, interval):
    # Each reading of the clock is `step` after the one before: the fetch starts at one
    # step, page 1 lands a step later and is reported, page 2 a step after that (too
    # soon), page 3 two steps after the last report (reported), and so on.
    monkeypatch.setattr(space_fetch, "time", SteppingClock(100.0, step))
    seen: list[FetchProgress] = []
    if interval is None:
        await fetch_all_pages(empty_pages(9), concurrency=1, on_progress=seen.append)
    else:
        await fetch_all_pages(
            empty_pages(9), concurrency=1, on_progress=seen.append, progress_interval=interval
        )
    assert [p.pages_done for p in seen] == [1, 3, 5, 7, 9]
    assert [p.elapsed for p in seen] == pytest.approx([step * n for n in (1, 3, 5, 7, 9)])


async def test_the_options_are_given_by_name():
    handed: list[CardPage] = []
    with pytest.raises(TypeError):
        await fetch_pages_in_order(empty_pages(1), handed.append, 4)  # type: ignore[call-arg]
    assert handed == []


def test_progress_once_reported_does_not_change():
    progress = FetchProgress(1, 3, 10, 0.5)
    with pytest.raises(AttributeError):
        progress.pages_done = 2  # type: ignore[misc]


def test_time_left_is_a_guess_from_the_pace():
    assert FetchProgress(0, 10, 0, 0.0).seconds_left is None
    assert FetchProgress(4, 10, 40, 2.0).seconds_left == pytest.approx(3.0)
    assert FetchProgress(10, 10, 100, 5.0).seconds_left == 0.0
    assert FetchProgress(1, 1, 10, 0.1).seconds_left == 0.0, "a one-page space is done"


def test_the_pace_is_known_from_three_pages_and_one_second():
    assert FetchProgress(3, 10, 30, 1.0).seconds_left == pytest.approx(7 / 3)


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
                {"cards": (), "skipped": 10, "meta": {**meta, "current_page": number}, "links": {}}
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
    numbers = {"current_page": number, "last_page": -(-total // 10) or 1, "per_page": 10}
    return CardPage.model_validate(
        {
            "cards": [{"uuid": f"c{number}-{n}", "display_name": "Card"} for n in range(cards)],
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


@pytest.mark.parametrize(
    ("later_total", "said"),
    [(40, "page 2 says meta.total is 40; page 1 said 25"), (20, "page 2 says meta.total is 20")],
    ids=["added", "removed"],
)
async def test_a_space_that_changes_during_the_fetch_stops_it(later_total, said):
    """Cards added or removed before a page shift the pages after it: a card removed
    from page 1 as page 2 is asked for moves one of page 2's there, and it is missed."""

    def answer(number: int) -> CardPage:
        total = 25 if number == 1 else later_total
        return hostile_page(number, cards=10, total=total)

    fetch = CountingFetch(answer)
    with pytest.raises(SpaceChanged) as info:
        await fetch_all_pages(fetch, concurrency=1)
    assert str(info.value) == (
        "The space changed while its cards were fetched: cards were added or removed, so "
        "some could be missing. Try again."
    )
    assert said in info.value.detail
    assert info.value.retry_may_help
    assert fetch.asked == [1, 2]


def shifted_page(number: int, *, added_after: int) -> CardPage:
    """Page `number` of 25 cards, after a card was added at the front and the last one
    removed as page `added_after` was answered: the count is as before."""
    ids = [f"c{n}" for n in range(25)]
    if number > added_after:
        ids = ["new", *ids[:-1]]
    shown = ids[(number - 1) * 10 : number * 10]
    meta = {"current_page": number, "last_page": 3, "per_page": 10, "total": 25}
    cards = [{"uuid": uuid, "display_name": "Card"} for uuid in shown]
    return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})


@pytest.mark.parametrize("added_after", [1, 2])
async def test_a_card_that_comes_again_as_many_were_added_as_removed_stops_the_fetch(added_after):
    """The count stays as it was: the fetch ended, and a sync stored the last card of the
    page before the change twice."""
    fetch = CountingFetch(partial(shifted_page, added_after=added_after))
    with pytest.raises(SpaceChanged) as info:
        await fetch_all_pages(fetch, concurrency=1)
    repeated = f"c{added_after * 10 - 1}"
    assert f"card {repeated} comes a second time, on page {added_after + 1}" in info.value.detail
    assert info.value.retry_may_help
    assert fetch.asked == list(range(1, added_after + 2))


async def test_a_card_twice_on_a_page_stops_the_fetch_and_cards_without_an_id_do_not():
    def answer(number: int, uuid: str | None) -> CardPage:
        card = {"display_name": "Card"} if uuid is None else {"uuid": uuid}
        meta = {"current_page": 1, "last_page": 1, "per_page": 10, "total": 2}
        return CardPage.model_validate({"cards": [card, card], "meta": meta, "links": {}})

    with pytest.raises(SpaceChanged) as info:
        await fetch_all_pages(CountingFetch(partial(answer, uuid="c1")))
    assert "card c1 comes a second time, on page 1" in info.value.detail
    for no_id in (None, ""):  # "": as the store keeps a card without one
        pages = await fetch_all_pages(CountingFetch(partial(answer, uuid=no_id)))
        assert pages[0].card_count == 2

    def on_each_page(number: int) -> CardPage:  # it raised StopIteration, not a sentence
        cards = [{"uuid": ""}, {"uuid": f"c{number}"}]
        meta = {"current_page": number, "last_page": 2, "per_page": 2, "total": 4}
        return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})

    assert len(await fetch_all_pages(CountingFetch(on_each_page))) == 2


@pytest.mark.parametrize(
    ("short", "said"),
    [
        (1, "page 1 has 9 entries; 25 cards at 10 a page make 10"),
        (2, "page 2 has 9 entries; 25 cards at 10 a page make 10"),
        (3, "page 3 has 4 entries; 25 cards at 10 a page make 5"),
    ],
)
async def test_a_page_with_fewer_cards_than_the_space_leaves_it_stops_the_fetch(short, said):
    """A card removed between the server's count and its page (two queries) leaves the
    page a card short, with every number as before: a sync said the card was removed."""

    def answer(number: int) -> CardPage:
        cards = (10, 10, 5)[number - 1] - (number == short)
        return hostile_page(number, cards=cards, total=25)

    with pytest.raises(SpaceChanged) as info:
        await fetch_all_pages(CountingFetch(answer), concurrency=1)
    assert said in info.value.detail
    full = await fetch_all_pages(
        CountingFetch(lambda n: hostile_page(n, cards=(10, 10, 5)[n - 1], total=25))
    )
    assert sum(page.card_count for page in full) == 25


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


async def test_while_a_page_is_slow_no_more_than_two_pages_per_request_are_asked_ahead():
    held = asyncio.Event()
    asked: list[int] = []
    handed: list[int] = []
    meta = {"current_page": 1, "last_page": 50, "per_page": 10, "total": 500}

    async def fetch(number: int) -> CardPage:
        asked.append(number)
        if number == 2:
            await held.wait()
        await asyncio.sleep(0)
        return CardPage.model_validate(
            {"cards": (), "skipped": 10, "meta": {**meta, "current_page": number}, "links": {}}
        )

    task = asyncio.create_task(
        fetch_pages_in_order(
            fetch, lambda page: handed.append(page.meta.current_page), concurrency=3
        )
    )
    async with asyncio.timeout(5):
        while len(asked) < 7:  # noqa: ASYNC110 - a few polls
            await asyncio.sleep(0.001)
    await asyncio.sleep(0.05)
    # Page 2 is due and held: with 3 requests at once, pages 2 to 7 may be asked for.
    assert sorted(asked) == list(range(1, 8))
    assert handed == [1]
    held.set()
    await task
    assert handed == list(range(1, 51))


# Pages handed on in order, with a bounded number asked for ahead


class HeldSpace:
    """`pages` pages of entries that are not cards; page 2 waits until `release` is set,
    the others answer at once."""

    def __init__(self, pages: int) -> None:
        self.meta = {"current_page": 1, "last_page": pages, "per_page": 10, "total": pages * 10}
        self.release = asyncio.Event()
        self.asked: list[int] = []

    async def __call__(self, number: int) -> CardPage:
        self.asked.append(number)
        if number == 2:
            await self.release.wait()
        await asyncio.sleep(0)
        return CardPage.model_validate(
            {"cards": (), "skipped": 10, "meta": {**self.meta, "current_page": number}, "links": {}}
        )


async def test_pages_are_handed_on_in_order_and_a_slow_page_holds_back_only_a_few():
    space = HeldSpace(50)
    handed: list[int] = []
    fetch = asyncio.create_task(
        fetch_pages_in_order(
            space, lambda page: handed.append(page.meta.current_page), concurrency=3
        )
    )
    async with asyncio.timeout(5):
        while len(space.asked) < 3 * LOOKAHEAD:  # noqa: ASYNC110 - a few polls
            await asyncio.sleep(0.001)
    await asyncio.sleep(0.05)
    assert handed == [1]  # page 2 is not in, so nothing after it is handed on
    assert max(space.asked) == 1 + 3 * LOOKAHEAD  # never further ahead than that
    space.release.set()
    await fetch
    assert handed == list(range(1, 51))
    assert sorted(space.asked) == list(range(1, 51))


async def test_a_failure_while_handing_on_stops_the_fetch():
    space = HeldSpace(30)
    space.release.set()

    def refuse(page: CardPage) -> None:
        if page.meta.current_page == 5:
            raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        await fetch_pages_in_order(space, refuse, concurrency=4)
    assert max(space.asked) < 30


async def test_a_page_handed_on_slowly_holds_back_the_next_and_keeps_the_order():
    fetch = InFlight(40)
    handed: list[int] = []
    busy = 0

    async def slow_keep(page: CardPage) -> None:
        nonlocal busy
        busy += 1
        assert busy == 1, "one page at a time"
        await asyncio.sleep(0.002 * (page.meta.current_page % 2))
        handed.append(page.meta.current_page)
        busy -= 1

    await fetch_pages_in_order(fetch, slow_keep, concurrency=4)
    assert handed == list(range(1, 41))
