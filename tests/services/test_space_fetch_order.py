"""Pages handed on in page order as they arrive, with a bounded number asked for ahead."""

from __future__ import annotations

import asyncio

import pytest

from cardviewer.api import CardPage
from cardviewer.services.space_fetch import LOOKAHEAD, fetch_pages_in_order

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


class HeldSpace:
    """`pages` empty pages; page 2 waits until `release` is set, the others answer at once."""

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
            {"cards": (), "meta": {**self.meta, "current_page": number}, "links": {}}
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
