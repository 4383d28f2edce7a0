"""Parsing of the API's JSON into typed models."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from cardviewer.api.models import (
    KNOWN_CARD_FIELDS,
    Card,
    PageMeta,
    Session,
    parse_card,
    parse_page,
    parse_page_json,
)


def card_json(**overrides):
    card = {
        "uuid": "enuh1mF01XXXXXX",
        "avatar": {"uuid": "av4tar000000001", "src": "https://cdn.example/a.jpg"},
        "username": "anna-schmidt",
        "display_name": "Anna Schmidt",
        "position": "Head of Sales",
        "public": True,
        "connected_cards": 3,
        "connects": 12,
        "subscriptions": None,
        "created_at": "2024-04-19T22:53:03.000000Z",
        "updated_at": "2024-05-01T08:00:00.123456Z",
    }
    card.update(overrides)
    return card


def envelope(cards, *, page=1, last_page=3, total=25):
    return {
        "data": cards,
        "links": {"first": "u?page=1", "last": "u?page=3", "prev": None, "next": "u?page=2"},
        "meta": {
            "current_page": page,
            "from": 1,
            "to": len(cards),
            "last_page": last_page,
            "per_page": 10,
            "total": total,
            "path": "u",
            "links": [
                {"url": None, "label": "&laquo; Previous", "active": False},
                {"url": "u?page=1", "label": "1", "active": True},
                {"url": "u?page=2", "label": "Next &raquo;", "active": False},
            ],
        },
    }


def test_session_parses_aware_expiry():
    session = Session.model_validate(
        {"access_token": "eyJ0", "session_id": "s", "expires_at": "2024-04-19T22:53:03.000000Z"}
    )
    assert session.expires_at == datetime(2024, 4, 19, 22, 53, 3, tzinfo=UTC)
    assert session.is_expired(now=datetime(2024, 4, 19, 22, 53, 3, tzinfo=UTC))
    assert not session.is_expired(now=session.expires_at - timedelta(seconds=1))


def test_session_requires_a_token():
    with pytest.raises(ValidationError):
        Session.model_validate({"access_token": "", "session_id": "s", "expires_at": "2024-01-01"})


def test_card_fields_are_typed():
    card = parse_card(card_json())
    assert card.display_name == "Anna Schmidt"
    assert card.public is True
    assert card.connects == 12
    assert card.created_at == datetime(2024, 4, 19, 22, 53, 3, tzinfo=UTC)
    assert card.updated_at is not None
    assert card.updated_at.microsecond == 123456
    assert card.avatar is not None
    assert not card.avatar.is_default
    assert card.invalid_fields == {}
    assert card.emails is None


def test_default_avatar_has_no_uuid():
    card = parse_card(card_json(avatar={"uuid": None, "src": "https://cdn.example/d.png"}))
    assert card.avatar is not None
    assert card.avatar.is_default


def test_naive_timestamp_is_read_as_utc():
    card = parse_card(card_json(created_at="2024-04-19T22:53:03"))
    assert card.created_at == datetime(2024, 4, 19, 22, 53, 3, tzinfo=UTC)


def test_unknown_fields_are_kept():
    card = parse_card(
        card_json(is_business=True, space={"uuid": "s1", "name": "Acme"}, redirection=None)
    )
    assert card.extra_fields == {
        "is_business": True,
        "space": {"uuid": "s1", "name": "Acme"},
        "redirection": None,
    }


def test_unknown_avatar_fields_are_kept():
    card = parse_card(card_json(avatar={"uuid": "a", "src": "s", "src_large": "l", "size": 9}))
    assert card.avatar is not None
    assert card.avatar.model_extra == {"src_large": "l", "size": 9}


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("connects", "many"),
        ("connects", True),
        ("connected_cards", 1.5),
        ("public", "maybe"),
        ("created_at", "yesterday"),
        ("display_name", 42),
        ("avatar", "not an object"),
        ("emails", 7),
    ],
)
def test_a_bad_field_is_set_aside_not_fatal(field, bad):
    card = parse_card(card_json(**{field: bad}))
    assert getattr(card, field) is None
    assert card.invalid_fields == {field: bad}
    assert card.username == "anna-schmidt"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ([{"uuid": "e1", "email": "a@x.example", "is_primary": True}], ("a@x.example",)),
        (["a@x.example", "b@x.example"], ("a@x.example", "b@x.example")),
        ([], ()),
        ("a@x.example", ("a@x.example",)),
    ],
)
def test_email_shapes(raw, expected):
    assert parse_card(card_json(emails=raw)).emails == expected


def test_page_with_one_bad_card_keeps_the_others():
    page = parse_page(envelope([card_json(), card_json(connects="x"), "garbage", card_json()]))
    assert len(page.cards) == 3
    assert page.skipped == 1
    assert page.cards[1].invalid_fields == {"connects": "x"}


def test_page_meta_and_links():
    page = parse_page(envelope([card_json()]))
    assert page.meta.from_ == 1
    assert page.meta.has_next
    assert not page.meta.has_previous
    assert page.links.prev is None
    assert [link.text for link in page.meta.links] == ["« Previous", "1", "Next »"]


def test_empty_page_has_null_from_and_to():
    payload = envelope([], total=0, last_page=1)
    payload["meta"].update({"from": None, "to": None})
    page = parse_page(payload)
    assert page.is_empty
    assert page.meta.from_ is None


@pytest.mark.parametrize(
    "payload",
    [
        [],
        "text",
        {"data": []},
        {"data": "x", "meta": {}},
        {"data": [], "meta": {"current_page": 0, "last_page": 1, "per_page": 10, "total": 0}},
        {"data": [], "meta": {"current_page": 1, "last_page": 1, "per_page": 10, "total": -1}},
    ],
)
def test_wrong_envelope_is_rejected(payload):
    with pytest.raises(ValidationError):
        parse_page(payload)


@pytest.mark.parametrize("field", ["current_page", "last_page", "per_page", "total", "from", "to"])
def test_page_numbers_beyond_32_bits_are_rejected(field):
    """Regression: such a page parsed, then overflowed the page bar's widgets."""
    payload = envelope([card_json()])
    payload["meta"][field] = 2**31
    with pytest.raises(ValidationError):
        parse_page(payload)
    payload["meta"][field] = 2**31 - 1
    parse_page(payload)


def test_known_fields_cover_the_specification():
    spec_fields = {
        "uuid",
        "avatar",
        "username",
        "display_name",
        "position",
        "public",
        "connected_cards",
        "connects",
        "subscriptions",
        "created_at",
        "updated_at",
    }
    assert spec_fields <= set(KNOWN_CARD_FIELDS)
    assert isinstance(Card(), Card)


# meta.links, read when first used


def body(payload) -> bytes:
    return json.dumps(payload).encode()


def test_a_body_reads_as_its_json_does():
    payload = envelope([card_json(), card_json(connects="x", is_business=True), 7])
    fast, slow = parse_page_json(body(payload)), parse_page(payload)
    assert fast == slow
    assert fast.cards == slow.cards
    assert fast.cards[1].invalid_fields == {"connects": "x"}
    assert fast.skipped == slow.skipped == 1
    assert fast.meta == slow.meta
    assert fast.links == slow.links
    assert [link.text for link in fast.meta.links] == ["« Previous", "1", "Next »"]


def test_links_are_part_of_the_meta_dump():
    meta = parse_page_json(body(envelope([card_json()]))).meta
    assert meta.model_dump()["links"][1] == {"url": "u?page=1", "label": "1", "active": True}
    assert "links" not in repr(meta)  # a thousand entries would drown the rest


@pytest.mark.parametrize("parse", [parse_page, lambda payload: parse_page_json(body(payload))])
@pytest.mark.parametrize(
    ("links", "labels"),
    [
        ("not a list", []),
        (None, []),
        ({"url": "u"}, []),
        ([{"url": None, "label": "1", "active": "maybe"}, {"label": "2"}], ["2"]),
        ([7, {"label": "1", "active": True}, [], None], ["1"]),
        ([], []),
    ],
)
def test_bad_links_leave_the_page_readable(parse, links, labels, caplog):
    payload = envelope([card_json()])
    payload["meta"]["links"] = links
    page = parse(payload)  # the cards do not depend on the links
    assert len(page.cards) == 1
    assert page.meta.current_page == 1
    assert [link.label for link in page.meta.links] == labels
    assert ("meta.links" in caplog.text) == (links not in (None, []))


def test_a_missing_links_list_is_empty():
    payload = envelope([card_json()])
    del payload["meta"]["links"]
    assert parse_page(payload).meta.links == ()
    assert parse_page_json(body(payload)).meta.links == ()


def test_meta_alone_keeps_its_links():
    meta = PageMeta.model_validate(
        {"current_page": 2, "last_page": 2, "per_page": 10, "total": 12, "links": [{"label": "1"}]}
    )
    assert [link.label for link in meta.links] == ["1"]
    assert PageMeta.model_validate(meta.model_dump(by_alias=True)) == meta


@pytest.mark.parametrize(
    "raw",
    [
        b"not json",
        b"\xef\xbb\xbf" + body(envelope([])),  # a byte order mark, which Python's JSON reads
        body(envelope([])).decode().encode("utf-16"),
        b'{"data": [], "meta": {"current_page": "\\ud800"}}',
    ],
)
def test_a_body_the_fast_reader_refuses_raises_validation_error(raw):
    with pytest.raises(ValidationError):
        parse_page_json(raw)


def test_is_invalid_names_the_fields_set_aside():
    card = parse_card(card_json(connects="many"))
    assert card.is_invalid("connects")
    assert not card.is_invalid("username")
    assert not Card().is_invalid("connects")
