"""A request's tries tell their answers to whoever listens in the task that sends it."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from cardviewer.api import CardsClient
from cardviewer.api.answer_heard import listening, try_answered
from cardviewer.api.errors import ApiError, CardViewerError
from cardviewer.api.retry import RetryPolicy

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def test_a_try_answered_with_nobody_listening_is_nothing():
    try_answered()
    heard: list[str] = []
    with listening(lambda: heard.append("outer")):
        with listening(lambda: heard.append("inner")):
            try_answered()
        try_answered()
    try_answered()
    assert heard == ["inner", "outer"]


async def test_each_try_tried_again_is_heard_and_only_in_its_own_task():
    transport = httpx.MockTransport(lambda request: httpx.Response(500, json={}))
    retry = RetryPolicy(attempts=3, sleep=lambda seconds: asyncio.sleep(0))
    heard: list[str] = []
    async with CardsClient(
        "https://cards.example.com", token="t", transport=transport, retry=retry
    ) as client:

        async def listened() -> None:
            with listening(lambda: heard.append("try")), pytest.raises(ApiError):
                await client.list_cards("s", 1)

        async def not_listened() -> None:
            with pytest.raises(ApiError):
                await client.list_cards("s", 2)

        await asyncio.gather(listened(), not_listened())
    assert heard == ["try", "try"], "two tries tried again; the last one's failure is raised"


async def test_a_try_that_timed_out_is_not_heard():
    def silent(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    retry = RetryPolicy(attempts=3, sleep=lambda seconds: asyncio.sleep(0))
    heard: list[str] = []
    async with CardsClient(
        "https://cards.example.com", token="t", transport=httpx.MockTransport(silent), retry=retry
    ) as client:
        with listening(lambda: heard.append("try")), pytest.raises(CardViewerError):
            await client.list_cards("s", 1)
    assert heard == []
