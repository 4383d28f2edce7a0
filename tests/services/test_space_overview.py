"""The overview's figures, against the same figures worked out the plain way."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime

import pytest

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_store import CardStore
from cardviewer.services.space_overview import TOP, RankedCard, overview_of_copy, space_overview
from cardviewer.services.stoppable import Stopped
from cardviewer.services.store_schema import StoreError
from tests.demo_cards import demo_space_cards


def card(number: int, **fields: object) -> Card:
    return parse_card({"uuid": f"c{number}", "display_name": f"Person {number}", **fields})


@pytest.fixture(scope="module")
def demo_cards() -> list[Card]:
    return list(demo_space_cards())


def test_the_figures_of_the_demo_space(demo_cards):
    overview = space_overview(demo_cards, with_emails=True)
    assert overview.cards == len(demo_cards)
    assert overview.public == sum(1 for c in demo_cards if c.public is True)
    assert overview.private == sum(1 for c in demo_cards if c.public is False)
    assert overview.with_emails == sum(1 for c in demo_cards if c.emails)
    assert sum(count for _month, count in overview.per_month) == sum(
        1 for c in demo_cards if c.created_at is not None
    )
    by_connects = sorted(
        (c for c in demo_cards if c.connects is not None),
        key=lambda c: c.connects or 0,
        reverse=True,
    )
    assert [r.value for r in overview.most_connects] == [c.connects for c in by_connects[:TOP]]
    newest = sorted((c.updated_at for c in demo_cards if c.updated_at is not None), reverse=True)[
        :TOP
    ]
    assert [r.value for r in overview.recently_updated] == newest


def test_every_month_from_the_first_to_the_last_is_there_empty_ones_too():
    cards = [
        card(1, created_at="2025-11-03T10:00:00Z"),
        card(2, created_at="2026-02-27T10:00:00Z"),
        card(3, created_at="2026-02-01T12:00:00Z"),
    ]
    overview = space_overview(cards, with_emails=False)
    assert overview.per_month == [
        (date(2025, 11, 1), 1),
        (date(2025, 12, 1), 0),
        (date(2026, 1, 1), 0),
        (date(2026, 2, 1), 2),
    ]
    assert overview.with_emails is None, "not loaded: not counted as none"


def test_the_lists_hold_the_ten_largest_the_first_listed_first_among_equals():
    cards = [card(n, connects=n % 7, connected_cards=100 - n) for n in range(30)]
    overview = space_overview(cards, with_emails=False)
    assert [(r.name, r.value) for r in overview.most_connects[:4]] == [
        ("Person 6", 6),
        ("Person 13", 6),
        ("Person 20", 6),
        ("Person 27", 6),
    ]
    assert len(overview.most_connects) == TOP
    assert [r.value for r in overview.most_connected] == list(range(100, 90, -1))


def test_cards_without_the_fields_count_but_are_in_no_list():
    cards = [parse_card({"uuid": "bare"}), card(2, public=False, updated_at="2026-01-01T00:00:00Z")]
    overview = space_overview(cards, with_emails=True)
    assert (overview.cards, overview.public, overview.private, overview.with_emails) == (2, 0, 1, 0)
    assert overview.per_month == []
    assert overview.most_connects == overview.most_connected == []
    assert [r.value for r in overview.recently_updated] == [datetime(2026, 1, 1, tzinfo=UTC)]


def test_an_empty_space():
    overview = space_overview([], with_emails=True)
    assert (overview.cards, overview.with_emails, overview.per_month) == (0, 0, [])


@pytest.mark.parametrize("seed", range(40))
def test_each_list_is_the_ten_largest_the_first_listed_first_among_equals(seed: int):
    """Against a plain stable sort, with many equal values in every list."""
    pick = random.Random(seed)
    cards = [
        card(
            number,
            connects=pick.randrange(6),
            connected_cards=pick.randrange(6),
            updated_at=f"2026-0{pick.randrange(1, 4)}-01T00:00:00Z",
        )
        for number in range(pick.randrange(5, 60))
    ]
    overview = space_overview(cards, with_emails=False)

    def largest(value: Callable[[Card], object]) -> list[tuple[str, str, object]]:
        ranked = sorted(cards, key=value, reverse=True)  # type: ignore[arg-type]
        # sorted(reverse=True) keeps equal cards in their order, as the lists must
        return [(c.display_name or "", c.uuid or "", value(c)) for c in ranked[:TOP]]

    def shown(ranked: list[RankedCard]) -> list[tuple[str, str, object]]:
        return [(r.name, r.uuid, r.value) for r in ranked]

    assert shown(overview.most_connects) == largest(lambda c: c.connects)
    assert shown(overview.most_connected) == largest(lambda c: c.connected_cards)
    assert shown(overview.recently_updated) == largest(lambda c: c.updated_at)


def test_the_figures_cannot_be_changed_and_e_mails_are_named():
    overview = space_overview([card(1, connects=3)], with_emails=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        overview.cards = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        overview.most_connects[0].value = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        space_overview([], True)  # type: ignore[call-arg]


def test_a_local_copy_is_overviewed_from_every_card_and_its_sync_time(demo_cards, tmp_path):
    path = tmp_path / "space.sqlite"
    with pytest.raises(StoreError):
        overview_of_copy(path)  # gone: no empty store made in its place
    assert not path.exists()
    CardStore.open(path).close()
    assert overview_of_copy(path) == (space_overview((), with_emails=False), None)
    with CardStore.open(path) as store:
        sync = store.begin_sync(with_emails=True)
        sync.add(demo_cards)
        generation = sync.finish()
    told: list[int] = []
    overview, synced = overview_of_copy(path, painted=told.append)
    assert overview == space_overview(demo_cards, with_emails=True)
    assert synced == generation.synced_at
    assert told[-1] == len(demo_cards)
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped):
        overview_of_copy(path, stop=stop)
