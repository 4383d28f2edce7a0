"""Columns of the card table: order, titles, and how each kind of value reads and exports."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QCoreApplication, QLocale, Qt, QTranslator

from cardviewer.api.models import Card, parse_card
from cardviewer.ui.cards.columns import (
    EXPORT_NO,
    EXPORT_YES,
    Column,
    ValueKind,
    build_columns,
    full_year_format,
    title_from_key,
)

KNOWN_KEYS = [
    "avatar",
    "display_name",
    "username",
    "position",
    "public",
    "connected_cards",
    "connects",
    "subscriptions",
    "created_at",
    "updated_at",
]


def card(**fields: Any) -> Card:
    raw: dict[str, Any] = {
        "uuid": "c1",
        "avatar": {"uuid": "a1", "src": "https://cdn.example/avatars/a1.jpg"},
        "username": "jane-smith",
        "display_name": "Jane Smith",
        "position": "Head of Legal",
        "public": True,
        "connected_cards": 12,
        "connects": 1234,
        "subscriptions": None,
        "created_at": "2024-04-19T22:53:03.000000Z",
        "updated_at": "2024-04-20T08:00:00.500000Z",
    }
    raw.update(fields)
    return parse_card(raw)


def column(key: str, *cards: Card, with_emails: bool = False) -> Column:
    columns = build_columns(cards or (card(),), with_emails=with_emails)
    return next(c for c in columns if c.key == key)


@pytest.fixture
def german_berlin(monkeypatch: pytest.MonkeyPatch):
    """A German user in Berlin: other number and date formats, and not UTC."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    previous = QLocale()
    QLocale.setDefault(QLocale("de_DE"))
    yield
    QLocale.setDefault(previous)
    monkeypatch.undo()
    time.tzset()


# Which columns, in which order


def test_known_fields_come_first_in_a_fixed_order(qapp):
    assert [c.key for c in build_columns([card()], with_emails=False)] == KNOWN_KEYS


def test_emails_column_only_when_asked_for(qapp):
    assert [c.key for c in build_columns([card()], with_emails=True)] == [*KNOWN_KEYS, "emails"]


def test_a_page_without_cards_still_has_the_known_columns(qapp):
    assert [c.key for c in build_columns([], with_emails=True)] == [*KNOWN_KEYS, "emails"]


def test_unknown_fields_get_columns_in_first_seen_order(qapp):
    cards = [
        card(is_business=True, redirection=None),
        card(space={"uuid": "s1", "name": "Acme"}, is_business=False),
        card(redirection="https://example.com/jane"),
    ]
    columns = build_columns(cards, with_emails=True)
    assert [c.key for c in columns] == [
        *KNOWN_KEYS,
        "emails",
        "is_business",
        "redirection",
        "space",
    ]
    assert [c.title for c in columns[-3:]] == ["Is business", "Redirection", "Space"]
    assert all(c.extra for c in columns[-3:])
    assert not any(c.extra for c in columns[:-3])


@pytest.mark.parametrize(
    ("key", "title"),
    [
        ("is_business", "Is business"),
        ("redirection", "Redirection"),
        ("src_large", "Src large"),
        ("isBusiness", "Is business"),
        ("mim-type", "Mim type"),
        ("space_ID", "Space ID"),
        ("x", "X"),
        ("_", "_"),
    ],
)
def test_title_from_key(key, title):
    assert title_from_key(key) == title


def test_titles_and_words_go_through_translation(qapp):
    class Shouting(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            return source.upper() if context == "CardColumns" else None

    translator = Shouting()
    QCoreApplication.installTranslator(translator)
    try:
        columns = build_columns([card()], with_emails=True)
        yes = column("public").display(card(public=True))
        invalid = column("connects").display(card(connects="many"))
    finally:
        QCoreApplication.removeTranslator(translator)
    assert [c.title for c in columns][1:3] == ["NAME", "USERNAME"]
    assert columns[-1].title == "E-MAILS"
    assert yes == "YES"
    assert invalid == "(INVALID)"
    assert column("public").display(card(public=True)) == "Yes"


# How values read


def test_text(qapp):
    name = column("display_name")
    jane = card(display_name="Smith, Jane\nLegal")
    assert name.display(jane) == "Smith, Jane Legal"  # one line in a table cell
    assert name.export(jane) == "Smith, Jane\nLegal"  # the exact value in a file
    assert name.tooltip(jane) == "Smith, Jane\nLegal"
    assert name.value(jane) == "Smith, Jane\nLegal"
    assert name.alignment == Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def test_missing_values_are_blank(qapp):
    blank = card(position=None, public=None, connects=None, created_at=None, avatar=None)
    for key in ("position", "public", "connects", "created_at", "avatar", "subscriptions"):
        assert column(key).display(blank) == ""
        assert column(key).export(blank) == ""
        assert column(key).tooltip(blank) is None


def test_flags(qapp):
    public = column("public")
    assert public.display(card(public=True)) == "Yes"
    assert public.display(card(public=False)) == "No"
    assert public.export(card(public=True)) == EXPORT_YES == "yes"
    assert public.export(card(public=False)) == EXPORT_NO == "no"
    assert public.value(card(public=False)) is False
    assert public.tooltip(card(public=True)) is None
    assert public.alignment == Qt.AlignmentFlag.AlignCenter


def test_numbers_read_in_the_users_locale_and_export_plain(qapp, german_berlin):
    connects = column("connects")
    assert connects.display(card(connects=1234567)) == "1.234.567"
    assert connects.export(card(connects=1234567)) == "1234567"
    assert connects.value(card(connects=1234567)) == 1234567
    assert connects.alignment == Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def test_times_read_in_local_time_and_locale(qapp, german_berlin):
    created = column("created_at")
    jane = card(created_at="2024-04-19T22:53:03.000000Z")
    assert created.display(jane) == "20.04.2024 00:53"  # CEST is UTC+2; the year in full
    assert created.export(jane) == "2024-04-20 00:53:03"
    assert created.tooltip(jane) == "2024-04-19T22:53:03.000000Z"


def test_times_read_as_iso_dates_without_a_configured_locale(qapp, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    previous = QLocale()
    QLocale.setDefault(QLocale.c())
    try:
        shown = column("created_at").display(card(created_at="2019-04-05T14:03:00.000000Z"))
    finally:
        QLocale.setDefault(previous)
        monkeypatch.undo()
        time.tzset()
    assert shown == "2019-04-05 14:03"


def test_time_tooltip_keeps_microseconds(qapp):
    updated = column("updated_at")
    assert updated.tooltip(card()) == "2024-04-20T08:00:00.500000Z"


def test_emails(qapp):
    emails = column("emails", with_emails=True)
    jane = card(emails=[{"email": "jane@acme.example"}, {"email": "j.smith@acme.example"}])
    assert emails.display(jane) == "jane@acme.example; j.smith@acme.example"
    assert emails.export(jane) == "jane@acme.example; j.smith@acme.example"
    assert emails.tooltip(jane) == "jane@acme.example\nj.smith@acme.example"
    assert emails.export(card()) == ""


def test_nested_values_export_as_compact_json(qapp):
    subscriptions = column("subscriptions")
    jane = card(subscriptions={"plan": "business", "status": "active"})
    assert subscriptions.export(jane) == '{"plan":"business","status":"active"}'
    assert subscriptions.display(jane) == "plan: business, status: active"
    assert json.loads(subscriptions.tooltip(jane) or "") == {"plan": "business", "status": "active"}


def test_unknown_fields_read_by_their_type(qapp):
    cards = [
        card(is_business=True, score=3, tags=["a", "b"], space={"name": "Acmé"}),
        card(is_business=None, score=2.5, tags=[], space=None),
    ]
    kinds = {c.key: c.kind for c in build_columns(cards, with_emails=False) if c.extra}
    assert kinds == {
        "is_business": ValueKind.FLAG,
        "score": ValueKind.NUMBER,
        "tags": ValueKind.ANY,
        "space": ValueKind.ANY,
    }
    assert column("is_business", *cards).display(cards[0]) == "Yes"
    assert column("is_business", *cards).export(cards[0]) == "yes"
    assert column("score", *cards).export(cards[1]) == "2.5"
    assert column("tags", *cards).export(cards[0]) == '["a","b"]'
    assert column("tags", *cards).display(cards[0]) == "a, b"
    assert column("space", *cards).export(cards[0]) == '{"name":"Acmé"}'


def test_mixed_unknown_field_is_shown_as_sent(qapp):
    cards = [card(extra_flag=True), card(extra_flag="sometimes")]
    flag = column("extra_flag", *cards)
    assert flag.kind is ValueKind.ANY
    assert flag.display(cards[0]) == "Yes"
    assert flag.display(cards[1]) == "sometimes"


def test_avatar_column_shows_no_text_and_exports_its_url(qapp):
    avatar = column("avatar")
    jane = card()
    assert avatar.display(jane) == ""
    assert avatar.value(jane) == avatar.export(jane) == "https://cdn.example/avatars/a1.jpg"
    assert avatar.alignment == Qt.AlignmentFlag.AlignCenter


# Values the server got wrong


@pytest.mark.parametrize(
    ("key", "raw", "shown"),
    [
        ("connects", "many", '"many"'),
        ("public", "maybe", '"maybe"'),
        ("created_at", "yesterday", '"yesterday"'),
        ("display_name", 4711, "4711"),
    ],
)
def test_invalid_value_is_marked_and_explained(qapp, key, raw, shown):
    bad = card(**{key: raw})
    col = column(key, bad)
    assert col.is_invalid(bad)
    assert col.display(bad) == "(invalid)"
    assert col.tooltip(bad) == f"The server sent an invalid value: {shown}"
    assert col.export(bad) == ""
    assert not column(key).is_invalid(card())


def test_invalid_avatar_keeps_the_picture_cell_empty(qapp):
    bad = card(avatar="https://cdn.example/a.jpg")
    avatar = column("avatar", bad)
    assert avatar.display(bad) == ""
    assert avatar.value(bad) is None
    assert avatar.tooltip(bad) == 'The server sent an invalid value: "https://cdn.example/a.jpg"'


def test_a_long_invalid_value_is_shortened_in_the_tooltip(qapp):
    bad = card(connects="x" * 1000)
    tooltip = column("connects", bad).tooltip(bad) or ""
    assert len(tooltip) < 300
    assert tooltip.endswith("…")


# Sorting


def test_sort_value_is_comparable(qapp):
    jane = card(subscriptions={"plan": "premium"})
    assert column("connects").sort_value(jane) == 1234
    assert column("display_name").sort_value(jane) == "Jane Smith"
    assert column("created_at").sort_value(jane) == jane.created_at
    assert column("subscriptions").sort_value(jane) == '{"plan":"premium"}'
    assert column("emails", with_emails=True).sort_value(card(emails=["a@b.c"])) == "a@b.c"


# Whatever the server sends, every cell has text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(extra=st.dictionaries(st.text(min_size=1), json_values, max_size=4))
def test_any_unknown_field_reads_and_exports(qapp, extra):
    raw_card = card(**{k: v for k, v in extra.items() if k not in Card.model_fields})
    for col in build_columns([raw_card], with_emails=True):
        assert isinstance(col.display(raw_card), str)
        assert isinstance(col.export(raw_card), str)
        assert col.tooltip(raw_card) is None or isinstance(col.tooltip(raw_card), str)
        value = col.value(raw_card)
        if col.extra and isinstance(value, dict | list):
            assert json.loads(col.export(raw_card)) == value


@pytest.mark.parametrize(
    ("name", "year"),
    [("de_DE", "2024"), ("en_US", "2024"), ("fr_FR", "2024"), ("ja_JP", "2024")],
)
def test_every_locale_writes_the_year_in_full(qapp, name, year):
    QLocale.setDefault(QLocale(name))
    try:
        shown = column("created_at").display(card(created_at="2024-04-19T12:00:00Z"))
    finally:
        QLocale.setDefault(QLocale.system())
    assert year in shown
    assert "yyyy" in full_year_format(QLocale(name))
