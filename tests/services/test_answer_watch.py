"""A whole-space fetch says when the server keeps its requests unanswered."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from cardviewer.api import CardPage, CardsClient
from cardviewer.api.errors import CardViewerError
from cardviewer.api.retry import RetryPolicy
from cardviewer.services import answer_watch, page_patience
from cardviewer.services.answer_watch import AnswerWatch
from cardviewer.services.space_fetch import FetchProgress, fetch_pages_in_order
from tests.services.test_page_patience import refused
from tests.services.test_space_fetch import empty_pages

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_silence_counts_from_the_last_answer_while_a_request_waits_all_along():
    clock = Clock()
    watch = AnswerWatch(clock)
    held = {1: asyncio.Event(), 2: asyncio.Event()}

    async def fetch(number: int) -> int:
        await held[number].wait()
        return number

    watched = watch.watched(fetch)
    clock.now += 30  # nothing asked: no silence, however long
    assert watch.silent_for() == 0.0
    first = asyncio.ensure_future(watched(1))
    await asyncio.sleep(0)
    clock.now += 4
    assert watch.silent_for() == 4.0  # from the request, sent after the last answer
    second = asyncio.ensure_future(watched(2))
    await asyncio.sleep(0)
    clock.now += 3
    assert watch.silent_for() == 7.0  # from the oldest request under way
    held[2].set()
    assert await second == 2
    clock.now += 2
    assert watch.silent_for() == 2.0  # an answer came 2 s ago
    held[1].set()
    assert await first == 1
    assert watch.silent_for() == 0.0


async def test_a_failure_is_an_answer():
    clock = Clock()
    watch = AnswerWatch(clock)

    async def fetch(number: int) -> int:
        clock.now += 9
        raise ConnectionResetError

    with pytest.raises(ConnectionResetError):
        await watch.watched(fetch)(1)
    assert watch.silent_for() == 0.0


@pytest.fixture
def quick_notice(monkeypatch):
    """Silence told from 50 ms on, every 10 ms."""
    monkeypatch.setattr(answer_watch, "SILENCE_NOTICE", 0.05)
    monkeypatch.setattr(answer_watch, "TICK", 0.01)


async def test_a_page_kept_unanswered_is_told_until_it_comes(quick_notice):
    pages = empty_pages(4)
    answer = asyncio.Event()

    async def fetch(number: int) -> CardPage:
        if number == 3:
            await answer.wait()
        return await pages(number)

    seen: list[FetchProgress] = []

    def progress(done: FetchProgress) -> None:
        seen.append(done)
        if (done.unanswered_for or 0) >= 0.1:
            answer.set()

    fetched: list[CardPage] = []
    await fetch_pages_in_order(fetch, fetched.append, concurrency=1, on_progress=progress)
    silences = [done.unanswered_for for done in seen if done.unanswered_for is not None]
    assert silences, "the silence was never told"
    assert silences[0] >= 0.05
    assert silences == sorted(silences)  # counted up, not from the start each time
    told = next(done for done in seen if done.unanswered_for is not None)
    assert (told.pages_done, told.pages_total) == (2, 4)  # where the fetch stands
    assert seen[-1].unanswered_for is None  # the pages after it are told as before
    assert [page.meta.current_page for page in fetched] == [1, 2, 3, 4]


async def test_a_fetch_held_back_by_its_own_writing_is_not_the_server_s_silence(quick_notice):
    seen: list[FetchProgress] = []

    async def slow_writing(page: CardPage) -> None:
        await asyncio.sleep(0.1)

    await fetch_pages_in_order(empty_pages(3), slow_writing, concurrency=1, on_progress=seen.append)
    assert len(seen) >= 3
    assert all(done.unanswered_for is None for done in seen)


async def test_a_page_waiting_to_be_tried_again_is_told_as_such_not_as_silence(
    quick_notice, monkeypatch
):
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 5.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.3,))
    pages = empty_pages(2)
    tries = 0

    async def fetch(number: int) -> CardPage:
        nonlocal tries
        if number == 2:
            tries += 1
            if tries == 1:
                raise refused()
        return await pages(number)

    seen: list[FetchProgress] = []
    await fetch_pages_in_order(fetch, lambda page: None, concurrency=1, on_progress=seen.append)
    assert any(done.retrying_in for done in seen)
    assert all(done.unanswered_for is None for done in seen)


async def test_a_slow_server_s_silences_keep_its_pace(quick_notice):
    """Each page took longer than the notice: the pace began anew at every page, and the
    time left was never guessed."""
    pages = empty_pages(6)

    async def slow(number: int) -> CardPage:
        await asyncio.sleep(0.08)
        return await pages(number)

    seen: list[FetchProgress] = []
    await fetch_pages_in_order(slow, lambda page: None, concurrency=1, on_progress=seen.append)
    assert any(done.unanswered_for for done in seen), "silent past the notice, and told"
    assert all(done.paced_from == (0, 0.0) for done in seen)


@pytest.mark.parametrize(
    ("answer", "silences"),
    [("500", [4.0, 4.0, 4.0]), ("timeout", [4.0, 8.0, 12.0])],
)
async def test_each_try_the_client_makes_again_after_an_answer_is_an_answer(answer, silences):
    """A server answering 500 slowly three times answered each time: the client's tries
    of one request are not the server's silence. A try that timed out is that silence."""
    clock = Clock()
    watch = AnswerWatch(clock)
    said: list[float] = []
    tries = 0

    def slow(request: httpx.Request) -> httpx.Response:
        nonlocal tries
        tries += 1
        clock.now += 4  # each try takes 4 s
        said.append(watch.silent_for())
        if answer == "timeout":
            raise httpx.ReadTimeout("no answer", request=request)
        return httpx.Response(500 if tries < 3 else 404, json={"message": "Broken"})

    retry = RetryPolicy(attempts=3, sleep=lambda seconds: asyncio.sleep(0))
    transport = httpx.MockTransport(slow)
    async with CardsClient(
        "https://cards.example.com", token="t", transport=transport, retry=retry
    ) as client:
        with pytest.raises(CardViewerError):
            await watch.watched(lambda number: client.list_cards("s", number))(1)
    assert tries == 3
    assert said == silences
