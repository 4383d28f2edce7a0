"""Sync Space: the whole space into its local copy, or nothing changed at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardviewer.api import CardPage
from cardviewer.api.errors import ServerError
from cardviewer.api.models import parse_card
from cardviewer.services.card_store import CardStore, StoreError
from cardviewer.services.space_sync import sync_space

pytestmark = pytest.mark.anyio

PER_PAGE = 10


@pytest.fixture
def anyio_backend():
    return "asyncio"


def space(total: int, *, failing: int | None = None, prefix: str = "c"):
    last = max(1, -(-total // PER_PAGE))

    async def fetch(number: int) -> CardPage:
        if number == failing:
            raise ServerError("The server had a problem.", 500)
        first = (number - 1) * PER_PAGE
        batch = tuple(
            parse_card({"uuid": f"{prefix}{n}", "display_name": f"Person {n}"})
            for n in range(first, min(first + PER_PAGE, total))
        )
        meta = {"current_page": number, "last_page": last, "per_page": PER_PAGE, "total": total}
        return CardPage.model_validate({"cards": batch, "meta": meta, "links": {}})

    return fetch


@pytest.fixture
def store(tmp_path: Path):
    with CardStore.open(tmp_path / "space.sqlite") as store:
        yield store


async def test_every_card_of_the_space_in_order(store):
    generation = await sync_space(store, space(95), concurrency=4)
    assert generation.card_count == 95
    assert not generation.with_emails
    assert store.current == generation
    assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(95)]


async def test_the_copy_records_whether_it_has_the_e_mail_addresses(store):
    generation = await sync_space(store, space(3), with_emails=True)
    assert generation.with_emails
    assert store.current == generation


async def test_a_failed_sync_keeps_the_copy_before_it(store):
    await sync_space(store, space(30, prefix="old"))
    with pytest.raises(ServerError):
        await sync_space(store, space(95, failing=7), concurrency=2)
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(30)]
    assert store.changes() is None


async def test_a_full_disk_says_so_and_keeps_the_copy_before_it(store, tmp_path):
    await sync_space(store, space(20, prefix="old"))
    store._db.execute("PRAGMA max_page_count = 16")  # as small as the disk left over
    with pytest.raises(StoreError, match="disk is full"):
        await sync_space(store, space(5000), concurrency=4)
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(20)]
