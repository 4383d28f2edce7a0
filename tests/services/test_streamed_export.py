"""Files of cards written page by page as the pages arrive; nothing written on a failure."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable

import pytest

from cardviewer.api.errors import ServerError
from cardviewer.api.models import CardPage, parse_page_json
from cardviewer.services.jsonl_export import page_lines
from cardviewer.services.streamed_export import export_space_stream, write_page


def page(number: int, last: int = 3) -> CardPage:
    cards = [
        {"uuid": f"c{number}-{n}", "display_name": f"Card {number}.{n}", "connects": "many"}
        for n in range(2)
    ]
    meta = {"current_page": number, "last_page": last, "per_page": 2, "total": 2 * last}
    return parse_page_json(json.dumps({"data": cards, "links": {}, "meta": meta}).encode())


def test_every_page_is_written_in_order(tmp_path):
    async def fetch(number: int) -> CardPage:
        await asyncio.sleep(0.01 * (3 - number))  # the later pages come back first
        return page(number)

    target = tmp_path / "all.jsonl"
    assert asyncio.run(export_space_stream(fetch, target, page_lines, concurrency=3)) == 6
    cards = [json.loads(line) for line in target.read_text("utf-8").splitlines()]
    assert [card["uuid"] for card in cards] == ["c1-0", "c1-1", "c2-0", "c2-1", "c3-0", "c3-1"]
    assert cards[0]["connects"] == "many", "as sent, though it is no number"


def test_a_failed_fetch_keeps_the_earlier_file_and_leaves_nothing_behind(tmp_path):
    async def fetch(number: int) -> CardPage:
        if number == 3:
            raise ServerError("The server had a problem.", 500)
        return page(number)

    target = tmp_path / "all.jsonl"
    target.write_text("earlier\n")
    with pytest.raises(ServerError):
        asyncio.run(export_space_stream(fetch, target, page_lines, concurrency=1))
    assert target.read_text() == "earlier\n"
    assert [p.name for p in tmp_path.iterdir()] == ["all.jsonl"]


def test_a_file_that_cannot_be_written_says_where(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_page(tmp_path / "gone" / "page.jsonl", page(1), page_lines)
    assert write_page(tmp_path / "page.jsonl", page(1), page_lines) == 2
    assert (tmp_path / "page.jsonl").read_bytes().count(b"\n") == 2


def test_the_options_are_given_by_name(tmp_path):
    async def fetch(number: int) -> CardPage:
        return page(number, 1)

    with pytest.raises(TypeError):
        asyncio.run(export_space_stream(fetch, tmp_path / "all.jsonl", page_lines, 1))  # type: ignore[call-arg]
    assert list(tmp_path.iterdir()) == []


def test_an_encoder_that_fetches_first_writes_each_page_in_order_once_it_has(tmp_path):
    encoded: list[int] = []

    async def fetch(number: int) -> CardPage:
        await asyncio.sleep(0.01 * (3 - number))
        return page(number)

    async def slow_lines(one: CardPage) -> Iterable[bytes]:
        await asyncio.sleep(0.02 if one.meta.current_page == 1 else 0)
        encoded.append(one.meta.current_page)
        return page_lines(one)

    target = tmp_path / "all.jsonl"
    assert asyncio.run(export_space_stream(fetch, target, slow_lines, concurrency=3)) == 6
    assert encoded == [1, 2, 3]
    cards = [json.loads(line)["uuid"] for line in target.read_text("utf-8").splitlines()]
    assert cards == ["c1-0", "c1-1", "c2-0", "c2-1", "c3-0", "c3-1"]
