"""A large demo space's cards, made while the server already answers."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from cardviewer.demo import DemoConfig, DemoServer, data, spaces
from cardviewer.demo import cards_in_the_making as making
from cardviewer.demo.cards_in_the_making import CardsInTheMaking
from cardviewer.demo.data import generate_cards
from cardviewer.demo.spaces import build_spaces

COUNT = 1_234
WAIT = 30.0


def test_the_cards_are_those_made_at_once_in_the_same_order(monkeypatch):
    monkeypatch.setattr(making, "BATCH", 100)
    cards = CardsInTheMaking(COUNT, 3)
    expected = generate_cards(COUNT, 3)
    assert len(cards) == COUNT, "known before the cards are made"
    assert cards[COUNT - 1] == expected[-1], "waits for the card"
    assert cards[-2] == expected[-2]
    assert cards[10:20] == expected[10:20]
    assert cards[COUNT - 5 :] == expected[-5:]
    assert cards[COUNT + 10 :] == ()
    assert cards[::-500] == expected[::-500]
    assert list(cards) == list(expected)
    assert cards.wait(WAIT)
    assert cards.made == COUNT
    with pytest.raises(IndexError):
        cards[COUNT]
    assert cards.avatars == {c.avatar_uuid: c for c in expected if c.avatar_uuid is not None}


def test_a_reader_waits_only_for_the_cards_it_reads(monkeypatch):
    go_on = threading.Event()
    made_first = threading.Event()

    def slow_cards(count: int, seed: int):
        for n, card in enumerate(data.make_cards(count, seed)):
            if n == 20:
                made_first.set()
                go_on.wait(WAIT)
            yield card

    monkeypatch.setattr(making, "make_cards", slow_cards)
    monkeypatch.setattr(making, "BATCH", 10)
    cards = CardsInTheMaking(50, 1)
    assert made_first.wait(WAIT)
    assert cards[:20] == generate_cards(50, 1)[:20]
    assert not cards.wait(0.05), "the rest is not made yet"
    go_on.set()
    assert cards[49] == generate_cards(50, 1)[49]


def test_a_failure_to_make_them_is_raised_to_the_reader_not_waited_for(monkeypatch):
    def failing(count: int, seed: int):
        yield from data.make_cards(3, seed)
        raise ValueError("no more names")

    monkeypatch.setattr(making, "make_cards", failing)
    cards = CardsInTheMaking(100, 1)
    with pytest.raises(RuntimeError, match="could not be made"):
        cards[99]
    assert cards[2] == generate_cards(3, 1)[2], "the cards made are still read"


def test_a_large_space_is_served_at_once_with_the_same_pages_and_pictures(monkeypatch):
    monkeypatch.setattr(spaces, "MADE_AT_ONCE", 100)
    config = DemoConfig(card_count=300, per_page=25)
    assert isinstance(build_spaces(300)[DemoServer(config).space_id].cards, CardsInTheMaking)
    with DemoServer(config) as lazy:
        monkeypatch.setattr(spaces, "MADE_AT_ONCE", 10_000)
        with DemoServer(config) as whole:
            assert isinstance(whole.spaces[whole.space_id].cards, tuple)
            pages = [served(server, 12) for server in (lazy, whole)]
    numbers = ("current_page", "last_page", "per_page", "total", "from", "to")
    assert [[page["meta"][key] for key in numbers] for page in pages] == [
        [12, 12, 25, 300, 276, 300]
    ] * 2
    lazy_cards, whole_cards = (page["data"] for page in pages)
    assert [c["uuid"] for c in lazy_cards] == [c["uuid"] for c in whole_cards]
    assert lazy_cards[0]["display_name"] == whole_cards[0]["display_name"]


def served(server: DemoServer, page: int) -> dict[str, Any]:
    """Page `page` of the demo space, and each of its own pictures fetched."""
    with httpx.Client(base_url=server.base_url, timeout=WAIT) as client:
        login = client.post(
            "/v1/auth/login",
            json={"email": server.email, "password": server.password},
            headers={"Accept": "application/json"},
        )
        token = login.json()["access_token"]
        answer = client.get(
            f"/v1/spaces/{server.space_id}/cards",
            params={"page": page},
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        )
        assert answer.status_code == 200
        body: dict[str, Any] = answer.json()
        for card in body["data"]:
            avatar = card.get("avatar") or {}
            if avatar.get("uuid"):
                assert httpx.get(avatar["src"], timeout=WAIT).status_code == 200
    return body
