"""Columns typed for spreadsheet files: numbers, flags and local times stay typed."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from cardviewer.ui.cards.columns import MAX_EXACT_INTEGER, build_columns
from tests.ui.cards.test_columns import card


def cell(key: str, **fields) -> object:
    jane = card(**fields)
    columns = build_columns([jane], with_emails=True)
    return next(c for c in columns if c.key == key).cell_value(jane)


@pytest.fixture
def in_berlin(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_numbers_and_flags_stay_typed(qapp):
    assert cell("connects") == 1234
    assert cell("public") is True
    assert cell("public", public=False) is False
    assert cell("score", score=2.5) == 2.5


def test_times_are_naive_local_times(qapp, in_berlin):
    assert cell("created_at") == datetime(2024, 4, 20, 0, 53, 3)


def test_text_nested_and_missing_values(qapp):
    assert cell("display_name") == "Jane Smith"
    assert cell("avatar") == "https://cdn.example/avatars/a1.jpg"
    assert cell("subscriptions") is None
    assert cell("subscriptions", subscriptions={"plan": "business"}) == '{"plan":"business"}'
    assert cell("emails", emails=[{"email": "a@x.example"}, {"email": "b@x.example"}]) == (
        "a@x.example; b@x.example"
    )


def test_huge_integers_stay_exact_as_text(qapp):
    assert cell("connects", connects=MAX_EXACT_INTEGER) == MAX_EXACT_INTEGER
    assert cell("connects", connects=MAX_EXACT_INTEGER + 1) == str(MAX_EXACT_INTEGER + 1)


def test_an_invalid_value_is_an_empty_cell(qapp):
    assert cell("connects", connects="many") is None
