"""Hostile answers stay bounded: bodies are read up to a limit, pages must add up.

Everything here runs over `httpx.MockTransport`; tests/test_cli_hostile_server.py
sends a gigabyte over a real socket.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from cardviewer.api import (
    CardsClient,
    ResponseTooLarge,
    ServerError,
    UnexpectedResponse,
)
from cardviewer.api.client import BODY_LIMITS, MiB
from cardviewer.api.models import MAX_CARDS, laravel_last_page
from cardviewer.api.retry import RetryPolicy

pytestmark = pytest.mark.anyio

CHUNK = 64 * 1024
LARGE_MESSAGE = "The server sent an unexpectedly large answer."
SESSION = {
    "access_token": "eyJ0eXAiOiJKV1Q.token",
    "session_id": "s",
    "expires_at": "2030-01-01T00:00:00.000000Z",
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


class Body:
    """A body produced as it is read, `chunk` by `chunk`, that notes how much was taken."""

    def __init__(self, chunk: bytes, total: int) -> None:
        self.chunk = chunk
        self.total = total
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while self.sent < self.total:
            self.sent += len(self.chunk)
            yield self.chunk


class GzipBomb:
    """A gzip body of `total` zero bytes, compressed only as far as it is read."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.packed = 0
        """Bytes of zeros compressed so far: the part of the bomb the client asked for."""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        block = bytes(MiB)
        while self.packed < self.total:
            self.packed += len(block)
            yield packer.compress(block) + packer.flush(zlib.Z_SYNC_FLUSH)
        yield packer.flush()


def client_of(handler: Callable[[httpx.Request], httpx.Response], **kwargs: Any) -> CardsClient:
    retry = kwargs.pop("retry", RetryPolicy(attempts=1))
    return CardsClient(
        "https://api.example",
        token="t",
        transport=httpx.MockTransport(handler),
        retry=retry,
        **kwargs,
    )


def envelope(
    page: int = 1,
    *,
    cards: int = 10,
    per_page: int = 10,
    total: int = 25,
    last_page: int | None = None,
) -> dict[str, Any]:
    return {
        "data": [{"uuid": f"c{page}-{n}", "display_name": f"Card {n}"} for n in range(cards)],
        "links": {},
        "meta": {
            "current_page": page,
            "last_page": laravel_last_page(total, per_page) if last_page is None else last_page,
            "per_page": per_page,
            "total": total,
        },
    }


# Bodies larger than the client reads


async def test_a_declared_length_over_the_limit_is_refused_before_reading():
    body = Body(b" " * CHUNK, 1 << 30)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Length": str(1 << 30)}, content=body)

    async with client_of(answer) as client:
        with pytest.raises(ResponseTooLarge) as info:
            await client.list_cards("space")
    assert body.sent == 0
    assert str(info.value) == LARGE_MESSAGE
    assert info.value.status == 200
    assert f"Content-Length is {1 << 30} bytes" in info.value.detail
    assert str(BODY_LIMITS.page) in info.value.detail


async def test_a_streamed_body_over_the_limit_is_refused_just_past_it():
    body = Body(b" " * CHUNK, 1 << 30)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body)  # chunked: no length declared

    async with client_of(answer) as client:
        with pytest.raises(ResponseTooLarge) as info:
            await client.list_cards("space")
    assert BODY_LIMITS.page < body.sent <= BODY_LIMITS.page + CHUNK
    assert str(info.value) == LARGE_MESSAGE
    assert f"more than {BODY_LIMITS.page} bytes" in info.value.detail


async def test_a_gzip_bomb_is_counted_unpacked_and_stops_at_the_limit():
    bomb = GzipBomb(1 << 30)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=bomb)

    async with client_of(answer) as client:
        with pytest.raises(ResponseTooLarge):
            await client.list_cards("space")
    assert BODY_LIMITS.page < bomb.packed <= BODY_LIMITS.page + MiB


async def test_a_page_just_under_the_limit_is_read():
    page = json.dumps(envelope()).encode()
    padded = page[:-1] + b" " * (BODY_LIMITS.page - len(page)) + b"}"

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=padded)

    async with client_of(answer) as client:
        assert len((await client.list_cards("space")).cards) == 10


async def test_a_gzip_page_is_read_unpacked():
    packed = zlib.compress(json.dumps(envelope()).encode(), wbits=16 + zlib.MAX_WBITS)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=packed)

    async with client_of(answer) as client:
        page = await client.list_cards("space")
    assert [card.display_name for card in page.cards][:2] == ["Card 0", "Card 1"]


async def test_a_login_answer_over_its_limit_is_refused():
    body = Body(b" " * CHUNK, 1 << 30)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body)

    async with client_of(answer) as client:
        with pytest.raises(ResponseTooLarge):
            await client.login("a@b.example", "pw")
    assert BODY_LIMITS.session < body.sent <= BODY_LIMITS.session + CHUNK
    assert client.token == "t"


async def test_a_login_answer_of_ordinary_size_signs_in():
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=SESSION)

    async with client_of(answer) as client:
        await client.login("a@b.example", "pw")
    assert client.token == SESSION["access_token"]


async def test_an_answer_too_large_is_not_retried():
    requests = 0
    sleeps: list[float] = []

    async def sleep(delay: float) -> None:
        sleeps.append(delay)

    def answer(request: httpx.Request) -> httpx.Response:
        nonlocal requests
        requests += 1
        return httpx.Response(200, headers={"Content-Length": str(1 << 30)}, content=b"")

    async with client_of(answer, retry=RetryPolicy(sleep=sleep)) as client:
        with pytest.raises(ResponseTooLarge):
            await client.list_cards("space")
    assert (requests, sleeps) == (1, [])


async def test_of_an_error_only_the_start_is_read():
    body = Body(b"<html>" + b"x" * (CHUNK - 6), 1 << 30)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, headers={"Content-Type": "text/html"}, content=body)

    async with client_of(answer) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert not isinstance(info.value, ResponseTooLarge)
    assert info.value.status == 502
    assert "<html>" in info.value.detail
    assert body.sent <= BODY_LIMITS.error + CHUNK


async def test_a_huge_error_body_still_gives_its_message():
    head = b'{"message": "Server Error", "exception": "ErrorException", "trace": ["'

    async def endless() -> AsyncIterator[bytes]:
        yield head
        while True:
            yield b"x" * CHUNK

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, content=endless())

    async with client_of(answer) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    # Cut off, the JSON is unreadable: the error says so without the server's words.
    assert info.value.status == 500
    assert "error 500" in str(info.value)


async def test_an_error_body_within_the_read_gives_the_servers_message():
    body = json.dumps({"message": "Server Error", "exception": "ErrorException"}).encode()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, content=body + b" " * (BODY_LIMITS.error - len(body)))

    async with client_of(answer) as client:
        with pytest.raises(ServerError) as info:
            await client.list_cards("space")
    assert info.value.exception == "ErrorException"


# Pages that do not add up


def serving(pages: Callable[[int], dict[str, Any]]) -> Callable[[httpx.Request], httpx.Response]:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=pages(int(request.url.params["page"])))

    return answer


async def test_a_page_other_than_the_one_asked_for_is_refused():
    async with client_of(serving(lambda asked: envelope(1))) as client:
        assert (await client.list_cards("space", 1)).meta.current_page == 1
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space", 2)
    assert str(info.value) == "The server sent page 1 when page 2 was asked for."
    assert info.value.detail == "meta.current_page is 1, not 2"


async def test_a_billion_pages_for_ten_cards_do_not_add_up():
    pages = serving(lambda asked: envelope(asked, total=10, last_page=10**9))
    async with client_of(pages) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert str(info.value) == "The server's numbers of pages and cards do not add up."
    assert "meta.last_page is 1000000000, but 10 cards at 10 a page make 1" in info.value.detail


async def test_a_billion_pages_of_a_space_over_the_ceiling_are_refused():
    pages = serving(lambda asked: envelope(asked, per_page=2, total=2 * 10**9))
    async with client_of(pages) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert str(info.value) == "The server reports more cards in this space than can be listed."
    assert f"at most {MAX_CARDS}" in info.value.detail


async def test_a_space_at_the_ceiling_is_listed():
    pages = serving(lambda asked: envelope(asked, total=MAX_CARDS))
    async with client_of(pages) as client:
        page = await client.list_cards("space", 7)
    assert page.meta.last_page == MAX_CARDS // 10


async def test_more_entries_than_a_page_holds_are_refused():
    pages = serving(lambda asked: envelope(asked, cards=11, per_page=10, total=25))
    async with client_of(pages) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert "11 entries in data, but meta.per_page is 10" in info.value.detail


async def test_a_page_past_the_last_is_still_an_empty_page():
    pages = serving(lambda asked: envelope(asked, cards=0, total=25))
    async with client_of(pages) as client:
        page = await client.list_cards("space", 99)
    assert page.is_empty
    assert (page.meta.current_page, page.meta.last_page) == (99, 3)


@pytest.mark.parametrize(
    ("total", "per_page", "last_page"),
    [(0, 10, 1), (1, 10, 1), (10, 10, 1), (11, 10, 2), (240, 10, 24), (5, 1, 5)],
)
async def test_last_page_as_laravel_computes_it(total, per_page, last_page):
    assert laravel_last_page(total, per_page) == last_page
    pages = serving(lambda asked: envelope(asked, cards=0, per_page=per_page, total=total))
    async with client_of(pages) as client:
        assert (await client.list_cards("space")).meta.last_page == last_page
