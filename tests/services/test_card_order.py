"""The sort rules shared by a page and the local store, without Qt."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone

from cardviewer.api.models import parse_card
from cardviewer.services.card_order import (
    EMPTY,
    NUMBER,
    OTHER,
    SORTED_KEYS,
    TEXT,
    TIME,
    card_sort_keys,
    sort_key,
)


def test_each_kind_of_value_gets_its_rank_and_blank_values_are_empty():
    moment = datetime(2024, 4, 19, 22, 53, 3, tzinfo=UTC)
    assert sort_key(True) == (NUMBER, 1)
    assert sort_key(7) == (NUMBER, 7)
    assert sort_key(2.5) == (NUMBER, 2.5)
    assert sort_key(moment) == (TIME, moment.timestamp())
    assert sort_key(moment.replace(tzinfo=None)) == (TIME, moment.timestamp())
    assert sort_key("Ada") == (TEXT, "Ada")
    assert sort_key(b"raw") == (OTHER, "b'raw'")
    for blank in (None, "", "  ", math.nan):
        assert sort_key(blank) == (EMPTY, None)
    assert NUMBER < TIME < TEXT < OTHER < EMPTY


def test_a_card_has_a_key_for_every_known_field_and_for_each_unknown_one():
    card = parse_card(
        {
            "uuid": "c1",
            "display_name": "Ada",
            "connects": 3,
            "avatar": {"uuid": None, "src": "https://cdn.example/a.jpg"},
            "emails": ["ada@example.com", "ada@home.example"],
            "subscriptions": [{"plan": "business"}],
            "theme": {"name": "dark"},
            "is_business": True,
        }
    )
    keys = dict(card_sort_keys(card))
    assert list(keys) == [*SORTED_KEYS, "theme", "is_business"]
    assert keys["display_name"] == (TEXT, "Ada")
    assert keys["connects"] == (NUMBER, 3)
    assert keys["avatar"] == (TEXT, "https://cdn.example/a.jpg")
    assert keys["emails"] == (TEXT, "ada@example.com; ada@home.example")
    assert keys["subscriptions"] == (TEXT, '[{"plan":"business"}]')
    assert keys["theme"] == (TEXT, '{"name":"dark"}')
    assert keys["is_business"] == (NUMBER, 1)
    assert keys["position"] == (EMPTY, None)


def test_an_aware_time_sorts_by_its_moment_whatever_its_zone():
    berlin_summer = timezone(timedelta(hours=2))
    moment = datetime(2024, 4, 20, 0, 53, 3, tzinfo=berlin_summer)
    same_in_utc = datetime(2024, 4, 19, 22, 53, 3, tzinfo=UTC)
    assert sort_key(moment) == (TIME, same_in_utc.timestamp())


def test_the_ranks_are_the_numbers_a_stored_copy_holds():
    """The local copy keeps each sort key's rank on disk; other numbers would misread it."""
    assert (NUMBER, TIME, TEXT, OTHER, EMPTY) == (0, 1, 2, 3, 99)


def test_an_unknown_field_is_read_even_where_a_card_has_a_method_of_that_name():
    card = parse_card({"uuid": "c1", "copy": "Zed", "json": 7})
    keys = dict(card_sort_keys(card))
    assert keys["copy"] == (TEXT, "Zed")
    assert keys["json"] == (NUMBER, 7)
