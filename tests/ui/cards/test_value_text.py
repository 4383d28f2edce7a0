"""How a JSON value of any shape reads: short lines for objects, items or a count for lists."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from PySide6.QtCore import QLocale

from cardviewer.ui.cards.value_text import (
    BULLET,
    MAX_LINES,
    MISSING,
    SEPARATOR,
    cell_text,
    field_lines,
    item_lines,
    object_line,
    time_text,
)
from tests.properties import examples
from tests.services.test_card_columns import json_values


@pytest.fixture
def german_berlin(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    previous = QLocale()
    QLocale.setDefault(QLocale("de_DE"))
    yield
    QLocale.setDefault(previous)
    monkeypatch.undo()
    time.tzset()


def line(*parts: str) -> str:
    return SEPARATOR.join(parts)


def test_text_speaks_for_itself_numbers_and_flags_are_named(qapp):
    value = {"plan": "business", "seats": 12, "trial": False, "note": "two\nlines"}
    assert object_line(value) == line("business", "12 seats", "trial: No", "two lines")


def test_times_and_dates_read_in_the_locale(qapp, german_berlin):
    value = {"renews_at": "2026-03-01T09:00:00.000000Z", "starts_on": "2026-01-15"}
    assert object_line(value) == line("renews 01.03.2026 10:00", "starts 15.01.2026")
    assert object_line({"since": "2026-01-15T00:00:00"}) == "since: 15.01.2026 01:00"
    assert time_text("2026-02-30") is None
    assert time_text("2026-02-03 is a date") is None


def test_identifiers_are_left_out_unless_nothing_else_is_there(qapp):
    assert object_line({"uuid": "u1", "space_id": "s1", "spaceId": "s2", "name": "Acme"}) == "Acme"
    assert object_line({"uuid": "u1"}) == "u1"
    assert object_line({"video": "v", "paid": "yes"}) == line("v", "yes"), "no id inside words"


def test_empty_values_are_left_out(qapp):
    assert object_line({"a": None, "b": "", "c": [], "d": {}, "e": "x"}) == "x"
    assert object_line({}) == ""


def test_nested_objects_read_in_brackets_up_to_a_depth(qapp):
    value = {"price": {"amount": 10, "currency": "EUR", "tax": {"rate": {"value": 19}}}}
    assert object_line(value) == "price (10 amount · EUR · tax (rate))"
    assert object_line({"tags": ["a", "b"], "items": [{"x": 1}, {"x": 2}]}) == line(
        "tags: a, b", "items: 2 items"
    )


def test_a_list_reads_as_its_values_its_one_object_or_a_count(qapp):
    assert cell_text([]) == ""
    assert cell_text(["a", 1, None, True]) == f"a, 1, {MISSING}, Yes"
    assert cell_text([{"plan": "business"}]) == "business"
    assert cell_text([{"plan": "business"}, {"plan": "premium"}]) == "2 items"
    assert cell_text([[1], [2]]) == "2 items"


def test_the_details_pane_gives_a_field_or_an_item_a_line(qapp):
    assert field_lines({"plan": "business", "seats": 3, "extra": None}) == [
        "Plan: business",
        "Seats: 3",
        f"Extra: {MISSING}",
    ]
    items = item_lines([{"plan": "a"}, {}, None, ["x", "y"]])
    assert items == [BULLET + text for text in ("a", MISSING, MISSING, "x, y")]
    assert item_lines([{"plan": "a"}]) == ["a"], "one item needs no bullet"
    many = item_lines(list(range(MAX_LINES + 5)))
    assert len(many) == MAX_LINES + 1
    assert many[-1] == "… and 5 more"


@settings(max_examples=examples(150), deadline=None)
@given(value=json_values)
def test_any_json_reads_without_braces_of_its_own(qapp, value):
    for text in (cell_text(value), *item_lines([value]), *field_lines({"key": value})):
        assert isinstance(text, str)
        assert "\n" not in text
