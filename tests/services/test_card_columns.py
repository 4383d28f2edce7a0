"""Columns of a list of cards: order, titles, and what each kind of value writes to a file."""

from __future__ import annotations

import dataclasses
import json
import time
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_columns import (
    ENGLISH_TITLES,
    EXPORT_NO,
    EXPORT_TIME_FORMAT,
    EXPORT_YES,
    KNOWN_FIELDS,
    MAX_EXACT_INTEGER,
    Column,
    ColumnTitles,
    ValueKind,
    build_columns,
    export_header,
    export_text,
    export_time,
    title_from_key,
)
from tests.properties import examples

KNOWN_KEYS = [
    "uuid",
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
def in_berlin(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# Which columns, in which order, titled how


def test_known_fields_come_first_in_a_fixed_order():
    assert [c.key for c in build_columns([card()], with_emails=False)] == KNOWN_KEYS
    assert [key for key, _kind in KNOWN_FIELDS] == KNOWN_KEYS


def test_emails_column_only_when_asked_for():
    assert [c.key for c in build_columns([card()], with_emails=True)] == [*KNOWN_KEYS, "emails"]


def test_a_page_without_cards_still_has_the_known_columns():
    assert [c.key for c in build_columns([], with_emails=True)] == [*KNOWN_KEYS, "emails"]


def test_unknown_fields_get_columns_in_first_seen_order():
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
        ("uuid", "UUID"),
        ("space_id", "Space ID"),
        ("avatarUrl", "Avatar URL"),
        ("identity", "Identity"),
        ("x", "X"),
        ("_", "_"),
        ("_\n_", "_ _"),
        ("\n", ""),
    ],
)
def test_title_from_key(key, title):
    assert title_from_key(key) == title


def test_without_titles_given_the_headings_are_english():
    columns = build_columns([card(score=1)], with_emails=True)
    assert export_header(columns) == [
        "ID",
        "Avatar URL",
        "Name",
        "Username",
        "Position",
        "Public",
        "Connected cards",
        "Connects",
        "Subscriptions",
        "Created",
        "Updated",
        "E-mails",
        "Score",
    ]
    assert [columns[0].title, columns[1].title] == ["ID", "Avatar"]


def test_fields_the_platform_is_known_to_send_are_titled_by_the_titles_given():
    german = ColumnTitles(
        {**ENGLISH_TITLES.by_key, "is_business": "Geschäftskarte", "space": "Bereich"}, "Bild"
    )
    cards = [card(is_business=True, space={"name": "Acme"}, favourite_colour="blue")]
    titles = {c.key: c.title for c in build_columns(cards, with_emails=False, titles=german)}
    assert (titles["is_business"], titles["space"]) == ("Geschäftskarte", "Bereich")
    assert titles["favourite_colour"] == "Favourite colour", "an unknown key reads as words"
    assert {"redirection", "is_business", "space", "theme"} <= set(ENGLISH_TITLES.by_key)


def test_a_titles_without_the_known_extra_fields_titles_them_from_their_keys():
    bare = ColumnTitles({key: key.upper() for key, _kind in KNOWN_FIELDS} | {"emails": "E"}, "A")
    columns = build_columns([card(is_business=True)], with_emails=False, titles=bare)
    assert columns[-1].title == "Is business"


def test_titles_given_head_the_known_columns_only():
    shouting = ColumnTitles(
        {key: title.upper() for key, title in ENGLISH_TITLES.by_key.items()}, "AVATAR URL"
    )
    columns = build_columns([card(score=1)], with_emails=True, titles=shouting)
    header = export_header(columns, shouting)
    assert header[:3] == ["ID", "AVATAR URL", "NAME"]
    assert header[-2:] == ["E-MAILS", "Score"], "a field the server named keeps its title"


# What values write


def test_text_is_written_exactly():
    name = column("display_name")
    jane = card(display_name="Smith, Jane\nLegal")
    assert name.export(jane) == "Smith, Jane\nLegal"
    assert name.value(jane) == "Smith, Jane\nLegal"


def test_missing_values_are_blank():
    blank = card(position=None, public=None, connects=None, created_at=None, avatar=None)
    for key in ("position", "public", "connects", "created_at", "avatar", "subscriptions"):
        assert column(key).export(blank) == ""


def test_flags_are_plain_words():
    public = column("public")
    assert public.export(card(public=True)) == EXPORT_YES == "yes"
    assert public.export(card(public=False)) == EXPORT_NO == "no"
    assert public.value(card(public=False)) is False


def test_flags_are_written_in_the_words_of_the_export():
    german = ColumnTitles(ENGLISH_TITLES.by_key, "Avatar-URL", yes="ja", no="nein")
    jane = card(public=False, is_business=True)
    columns = {c.key: c for c in build_columns([jane], with_emails=False, titles=german)}
    assert columns["public"].export(jane) == "nein"
    assert columns["is_business"].export(jane) == "ja"
    assert columns["public"].cell_value(jane) is False, "a workbook keeps a real boolean"
    assert columns["connects"].export(jane) == "1234"


def test_numbers_are_written_plain():
    connects = column("connects")
    assert connects.export(card(connects=1234567)) == "1234567"
    assert connects.value(card(connects=1234567)) == 1234567


def test_times_are_written_in_local_time(in_berlin):
    jane = card(created_at="2024-04-19T22:53:03.000000Z")
    assert column("created_at").export(jane) == "2024-04-20 00:53:03"


def test_emails_are_joined():
    emails = column("emails", with_emails=True)
    jane = card(emails=[{"email": "jane@acme.example"}, {"email": "j.smith@acme.example"}])
    assert emails.export(jane) == "jane@acme.example; j.smith@acme.example"
    assert emails.export(card()) == ""


def test_nested_values_export_as_compact_json():
    jane = card(subscriptions={"plan": "business", "status": "active"})
    assert column("subscriptions").export(jane) == '{"plan":"business","status":"active"}'


def test_a_list_of_subscriptions_exports_as_its_json():
    subscriptions = [
        {"plan": "business", "status": "active", "seats": 12, "renews_at": "2026-03-01"},
        {"plan": "premium", "status": "cancelled", "seats": 1, "renews_at": None},
    ]
    jane = card(subscriptions=subscriptions)
    exported = column("subscriptions").export(jane)
    assert json.loads(exported) == subscriptions
    assert "\n" not in exported
    assert column("subscriptions").cell_value(jane) == exported


def test_unknown_fields_read_by_their_type():
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
    assert column("is_business", *cards).export(cards[0]) == "yes"
    assert column("score", *cards).export(cards[1]) == "2.5"
    assert column("tags", *cards).export(cards[0]) == '["a","b"]'
    assert column("space", *cards).export(cards[0]) == '{"name":"Acmé"}'


def test_mixed_unknown_field_reads_as_any():
    cards = [card(extra_flag=True), card(extra_flag="sometimes")]
    assert column("extra_flag", *cards).kind is ValueKind.ANY


def test_avatar_column_exports_its_url():
    avatar = column("avatar")
    jane = card()
    assert avatar.value(jane) == avatar.export(jane) == "https://cdn.example/avatars/a1.jpg"


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        ("connects", "many"),
        ("public", "maybe"),
        ("created_at", "yesterday"),
        ("display_name", 4711),
    ],
)
def test_an_invalid_value_is_written_empty(key, raw):
    bad = card(**{key: raw})
    col = column(key, bad)
    assert col.is_invalid(bad)
    assert col.export(bad) == ""
    assert col.cell_value(bad) is None
    assert not column(key).is_invalid(card())


def test_an_invalid_avatar_has_no_address():
    bad = card(avatar="https://cdn.example/a.jpg")
    assert column("avatar", bad).value(bad) is None


# Sorting


def test_sort_value_is_comparable():
    jane = card(subscriptions={"plan": "premium"})
    assert column("connects").sort_value(jane) == 1234
    assert column("display_name").sort_value(jane) == "Jane Smith"
    assert column("created_at").sort_value(jane) == jane.created_at
    assert column("subscriptions").sort_value(jane) == '{"plan":"premium"}'
    assert column("emails", with_emails=True).sort_value(card(emails=["a@b.c"])) == "a@b.c"


# Typed cells for a workbook


def cell(key: str, **fields: Any) -> object:
    jane = card(**fields)
    columns = build_columns([jane], with_emails=True)
    return next(c for c in columns if c.key == key).cell_value(jane)


def test_numbers_and_flags_stay_typed():
    assert cell("connects") == 1234
    assert cell("public") is True
    assert cell("public", public=False) is False
    assert cell("score", score=2.5) == 2.5


def test_times_are_naive_local_times(in_berlin):
    assert cell("created_at") == datetime(2024, 4, 20, 0, 53, 3)


@pytest.mark.parametrize("fraction", ["000001", "499999", "500000", "999999"])
def test_a_workbook_and_a_csv_file_write_the_same_second(in_berlin, fraction):
    jane = card(updated_at=f"2024-04-20T08:00:59.{fraction}Z")
    updated = column("updated_at", jane)
    assert updated.cell_value(jane) == datetime(2024, 4, 20, 10, 0, 59), "never rounded up"
    assert updated.export(jane) == "2024-04-20 10:00:59"


def test_the_header_names_the_zone_of_the_times():
    columns = build_columns([card()], with_emails=False)
    header = export_header(columns, zone="Europe/Berlin")
    assert header[9:11] == ["Created (Europe/Berlin)", "Updated (Europe/Berlin)"]
    assert header[:9] == export_header(columns)[:9]
    assert export_header(columns)[9:11] == ["Created", "Updated"]


def test_text_nested_and_missing_values():
    assert cell("display_name") == "Jane Smith"
    assert cell("avatar") == "https://cdn.example/avatars/a1.jpg"
    assert cell("subscriptions") is None
    assert cell("subscriptions", subscriptions={"plan": "business"}) == '{"plan":"business"}'
    assert cell("emails", emails=[{"email": "a@x.example"}, {"email": "b@x.example"}]) == (
        "a@x.example; b@x.example"
    )


def test_huge_integers_stay_exact_as_text():
    assert cell("connects", connects=MAX_EXACT_INTEGER) == MAX_EXACT_INTEGER
    assert cell("connects", connects=MAX_EXACT_INTEGER + 1) == str(MAX_EXACT_INTEGER + 1)


def test_an_invalid_value_is_an_empty_cell():
    assert cell("connects", connects="many") is None


# Whatever the server sends, every cell has text

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=examples(150), deadline=None)
@given(extra=st.dictionaries(st.text(min_size=1), json_values, max_size=4))
def test_any_unknown_field_exports(extra):
    raw_card = card(**{k: v for k, v in extra.items() if k not in Card.model_fields})
    for col in build_columns([raw_card], with_emails=True):
        assert isinstance(col.export(raw_card), str)
        value = col.value(raw_card)
        if col.extra and isinstance(value, dict | list):
            assert json.loads(col.export(raw_card)) == value


# Timestamps: the quick way writes exactly what `strftime` writes

ZONES = st.sampled_from(
    [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=11))]
)
# Far enough from the ends of the calendar that local time still exists.
MOMENTS = st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 30))


@pytest.fixture(params=["UTC", "Europe/Berlin", "America/St_Johns"])
def local_zone(request, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# The zone stays the same for every example, as it should.
@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(moment=MOMENTS, zone=ZONES)
def test_export_time_is_the_local_date_and_time_to_the_second(local_zone, moment, zone):
    aware = moment.replace(tzinfo=zone)
    local = aware.astimezone()
    expected = local.strftime(EXPORT_TIME_FORMAT)
    if local.year < 1000:  # strftime's %Y does not pad the year ("999-12-31") here
        expected = f"{local.year:04}{expected[len(str(local.year)) :]}"
    assert export_time(aware) == expected
    assert export_text(aware) == expected


@pytest.mark.parametrize(
    "moment",
    [
        datetime(999, 12, 31, 23, 59, 59, tzinfo=UTC),
        datetime(1000, 1, 1, 0, 0, 0, tzinfo=UTC),
        datetime(2024, 4, 19, 22, 53, 3, 999_999, tzinfo=UTC),
        datetime(2024, 4, 19, 22, 53, 3),  # naive: read as local time
    ],
)
def test_edges_of_the_quick_way(local_zone, moment):
    expected = moment.astimezone().strftime(EXPORT_TIME_FORMAT)
    assert export_time(moment) == expected.rjust(19, "0")


@pytest.mark.parametrize("zone", ["America/New_York", "Europe/Berlin", "Asia/Tokyo"])
def test_a_placeholder_at_the_calendar_s_start_is_written_in_any_time_zone(monkeypatch, zone):
    """0001-01-01 west of UTC falls in the year 0, which there is none of: the export
    failed with OverflowError before a file was written. CSV wrote "1-01-01"."""
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        start = parse_card({"uuid": "a", "created_at": "0001-01-01T00:00:00Z"})
        text = column("created_at").export(start)
        typed = column("created_at").cell_value(start)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert text.startswith("0001-01-01 ")
    assert len(text) == 19
    assert isinstance(typed, datetime)
    assert typed.year == 1


@pytest.mark.parametrize(
    ("connects", "typed"),
    [
        (999_999_999_999_999, True),
        (-999_999_999_999_999, True),
        (1_000_000_000_000_000, False),
        (-1_000_000_000_000_000, False),
        (1_234_567_890_123_456, False),
        (9_007_199_254_740_992, False),
    ],
)
def test_integers_of_up_to_15_digits_stay_numbers(connects, typed):
    """Excel keeps 15 significant digits, either sign: 1234567890123456 became …450,
    though a 64-bit float holds it exactly; beyond them, text."""
    assert cell("connects", connects=connects) == (connects if typed else str(connects))


def test_export_text_writes_flags_as_english_words():
    """Without a column's words, a flag is "yes" or "no"."""
    assert export_text(True) == "yes"
    assert export_text(False) == "no"


def test_columns_and_titles_are_frozen_values():
    """A column and a set of titles cannot be changed; equal columns hash alike."""
    name = column("display_name")
    assert hash(name) == hash(column("display_name"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        name.title = "Other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ENGLISH_TITLES.avatar_url = "Picture"  # type: ignore[misc]


def test_options_are_only_taken_by_name():
    """`build_columns`' options and `export_header`'s zone are refused by position."""
    with pytest.raises(TypeError):
        build_columns([card()], True)  # type: ignore[call-arg]
    columns = build_columns([card()], with_emails=False)
    with pytest.raises(TypeError):
        export_header(columns, ENGLISH_TITLES, "Europe/Berlin")  # type: ignore[call-arg]


def test_more_fields_get_columns_after_those_of_the_cards():
    """Fields of other cards get columns of their own, titled as any unknown field, read by key."""
    german = ColumnTitles({**ENGLISH_TITLES.by_key, "is_business": "Geschäftskarte"}, "Bild")
    sample = [card(score=1)]
    more = ["score", "is_business", "favourite_colour"]
    columns = build_columns(sample, with_emails=False, titles=german, more_fields=more)
    extra = [c for c in columns if c.extra]
    assert [(c.key, c.title, c.kind) for c in extra] == [
        ("score", "Score", ValueKind.NUMBER),
        ("is_business", "Geschäftskarte", ValueKind.ANY),
        ("favourite_colour", "Favourite colour", ValueKind.ANY),
    ]
    other = card(favourite_colour="blue", is_business=True)
    assert [c.value(other) for c in extra[1:]] == [True, "blue"]
