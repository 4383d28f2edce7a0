"""Parsing of the API's JSON into typed models."""

import json
import logging
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from cardviewer.api.errors import UnexpectedResponse
from cardviewer.api.models import (
    KNOWN_CARD_FIELDS,
    MAX_CARDS,
    Card,
    CardPage,
    PageLinks,
    PageMeta,
    Session,
    WrongTypes,
    _LazyLinks,
    check_card_count,
    check_page,
    laravel_last_page,
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
        # The primary address first, wherever it is listed: a vCard prefers the first.
        (
            [
                {"email": "b@x.example", "is_primary": False},
                {"email": "a@x.example", "is_primary": True},
                {"email": "c@x.example"},
            ],
            ("a@x.example", "b@x.example", "c@x.example"),
        ),
        (
            [{"email": "b@x.example", "is_primary": "yes"}, {"email": "a@x.example"}],
            ("b@x.example", "a@x.example"),
        ),
    ],
)
def test_email_shapes(raw, expected):
    assert parse_card(card_json(emails=raw)).emails == expected


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("avatar", {"uuid": 5, "src": "https://cdn.example/a.jpg"}),
        ("emails", ["a@x.example", 7]),
    ],
)
def test_a_field_bad_inside_is_set_aside_as_a_whole(field, bad):
    card = parse_card(card_json(**{field: bad}))
    assert getattr(card, field) is None
    assert card.invalid_fields == {field: bad}
    assert card.display_name == "Anna Schmidt"


def test_page_with_one_bad_card_keeps_the_others():
    page = parse_page(envelope([card_json(), card_json(connects="x"), "garbage", card_json()]))
    assert len(page.cards) == 3
    assert page.skipped == 1
    assert page.cards[1].invalid_fields == {"connects": "x"}


def test_entries_that_are_not_cards_are_logged_and_a_page_of_cards_logs_nothing(caplog):
    parse_page(envelope([card_json(), "garbage", 7]))
    assert "page 1: skipped 2 entries that are not cards" in caplog.text
    caplog.clear()
    parse_page(envelope([card_json()]))
    assert "skipped" not in caplog.text


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
    assert page.is_empty is True
    assert page.meta.from_ is None
    assert parse_page(envelope([card_json()])).is_empty is False


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


# Where a page sits


def meta(**numbers) -> PageMeta:
    return PageMeta.model_validate({"per_page": 10, "total": 25, **numbers})


@pytest.mark.parametrize(
    ("page", "last_page", "has_previous", "has_next"),
    [
        (1, 1, False, False),
        (1, 3, False, True),
        (2, 3, True, True),
        (3, 3, True, False),
        (4, 3, True, False),  # past the last page
    ],
)
def test_a_page_knows_whether_pages_come_before_and_after_it(
    page, last_page, has_previous, has_next
):
    position = meta(current_page=page, last_page=last_page)
    assert position.has_previous is has_previous
    assert position.has_next is has_next


@pytest.mark.parametrize(
    ("field", "lowest"),
    [("current_page", 1), ("last_page", 1), ("per_page", 1), ("total", 0), ("from", 0), ("to", 0)],
)
def test_page_numbers_below_their_lowest_are_rejected(field, lowest):
    payload = envelope([card_json()], page=1, last_page=1)
    payload["meta"][field] = lowest
    assert parse_page(payload).meta.model_dump(by_alias=True)[field] == lowest
    payload["meta"][field] = lowest - 1
    with pytest.raises(ValidationError):
        parse_page(payload)


def test_metas_with_other_links_are_not_equal():
    links = [{"url": "u?page=1", "label": "1", "active": True}]
    first = meta(current_page=1, last_page=3, links=links)
    assert first == meta(current_page=1, last_page=3, links=links)
    assert first != meta(current_page=1, last_page=3, links=[{"url": "u?page=2", "label": "2"}])
    assert first != meta(current_page=1, last_page=3)


def test_links_are_never_equal_to_another_kind_of_object():
    links = _LazyLinks([{"label": "1"}])
    assert links.__eq__(object()) is False
    assert links.__eq__(_LazyLinks([{"label": "1"}])) is True


# Pages whose numbers do not add up


def checked_page(*, page=1, last_page=3, per_page=10, total=25, cards=10, skipped=0, **positions):
    payload = {
        "data": [card_json(uuid=f"c{n}") for n in range(cards)] + ["garbage"] * skipped,
        "meta": {
            "current_page": page,
            "last_page": last_page,
            "per_page": per_page,
            "total": total,
            **positions,
        },
    }
    return parse_page(payload)


@pytest.mark.parametrize(
    ("total", "per_page", "last_page"),
    [(0, 10, 1), (1, 10, 1), (10, 10, 1), (11, 10, 2), (25, 10, 3), (7, 1, 7), (30, 7, 5)],
)
def test_the_last_page_is_the_one_laravel_computes(total, per_page, last_page):
    assert laravel_last_page(total, per_page) == last_page


@pytest.mark.parametrize(
    "numbers",
    [
        {},
        {"cards": 0},
        {"cards": 9, "skipped": 1},
        {"page": 3, "cards": 5},
        {"page": 4, "cards": 0},  # past the last page: empty, as the platform answers it
        {"total": MAX_CARDS, "last_page": MAX_CARDS // 10},
        {"page": 2, "from": 11, "to": 20},
        {"page": 3, "cards": 4, "skipped": 1, "from": 21, "to": 25},
        {"from": 0, "to": 9},  # counted from 0: the count is what matters
    ],
)
def test_a_page_whose_numbers_add_up_passes(numbers):
    numbers.setdefault("page", 1)
    check_page(checked_page(**numbers), asked=numbers["page"])


@pytest.mark.parametrize(
    ("numbers", "asked", "detail"),
    [
        ({"page": 2}, 1, "meta.current_page is 2, not 1"),
        ({"page": 1}, 2, "meta.current_page is 1, not 2"),
        ({"total": MAX_CARDS + 1, "last_page": MAX_CARDS // 10 + 1}, 1, "meta.total is"),
        ({"last_page": 4}, 1, "meta.last_page is 4, but 25 cards at 10 a page make 3"),
        ({"last_page": 2}, 1, "meta.last_page is 2"),
        ({"cards": 10, "skipped": 1}, 1, "11 entries in data, but meta.per_page is 10"),
        # A page leaving a card out: a sync would have said it was removed.
        (
            {"page": 2, "cards": 9, "from": 11, "to": 20},
            2,
            "9 entries in data, but meta.from is 11 and meta.to 20",
        ),
        ({"page": 4, "cards": 0, "from": 31, "to": 40}, 4, "0 entries in data"),
    ],
)
def test_a_page_whose_numbers_contradict_is_refused(numbers, asked, detail):
    with pytest.raises(UnexpectedResponse) as info:
        check_page(checked_page(**numbers), asked=asked)
    assert detail in info.value.detail
    assert info.value.status == 200
    assert str(info.value)


def test_more_cards_than_the_space_has_are_refused():
    check_card_count(24, 25)
    check_card_count(25, 25)
    with pytest.raises(UnexpectedResponse) as info:
        check_card_count(26, 25)
    assert info.value.detail == "26 cards on the pages so far, but meta.total is at most 25"
    assert info.value.status == 200


def test_a_page_far_into_a_large_space_passes_the_check():
    """Page numbers are compared by value, however large, as a response body gives them."""
    payload = {
        "data": [card_json(uuid=f"c{n}") for n in range(5)],
        "meta": {"current_page": 3000, "last_page": 3000, "per_page": 10, "total": 29995},
    }
    page = parse_page_json(body(payload))
    check_page(page, asked=3000)
    with pytest.raises(UnexpectedResponse):
        check_page(page, asked=2999)


def test_a_page_built_from_cards_alone_skipped_none():
    page = CardPage(cards=(), meta=meta(current_page=1, last_page=3), links=PageLinks())
    assert page.skipped == 0


# Parsed values do not change


def test_parsed_models_are_immutable():
    page = parse_page(envelope([card_json()]))
    card, meta = page.cards[0], page.meta
    assert card.avatar is not None
    session = Session(access_token="t", session_id="s", expires_at=datetime(2020, 1, 1, tzinfo=UTC))
    for model, field, value in [
        (session, "access_token", "x"),
        (page, "skipped", 3),
        (card, "username", "x"),
        (card.avatar, "uuid", "x"),
        (meta, "total", 3),
        (meta.links[0], "label", "x"),
        (page.links, "next", "x"),
    ]:
        with pytest.raises(ValidationError):
            setattr(model, field, value)


def test_a_session_past_its_expiry_is_expired_now():
    session = Session(access_token="t", session_id="s", expires_at=datetime(2020, 1, 1, tzinfo=UTC))
    assert session.is_expired()
    assert not session.model_copy(
        update={"expires_at": datetime(2999, 1, 1, tzinfo=UTC)}
    ).is_expired()


def test_a_link_without_active_is_inactive_and_entries_left_out_are_counted(caplog):
    payload = envelope([card_json()])
    payload["meta"]["links"] = [7, {"label": "2"}, None]
    links = parse_page(payload).meta.links
    assert [(link.label, link.active, link.url) for link in links] == [("2", False, None)]
    assert "page 1: ignored 2 entries of meta.links" in caplog.text


def test_a_meta_may_be_built_with_from_by_its_python_name():
    """The interface builds a page's meta itself, with `from_` for the JSON's `from`."""
    built = PageMeta(current_page=1, last_page=1, per_page=10, total=3, from_=1, to=3)
    assert (built.from_, built.to) == (1, 3)


def test_a_page_keeps_its_cards_as_sent_and_a_made_page_gives_them_as_read():
    sent: list[dict[str, object]] = [
        {"zz": [1], "uuid": "a", "connects": "many", "display_name": "A"},
        {"uuid": "b", "created_at": "2024-04-19T22:53:03.000000Z"},
    ]
    meta = {"current_page": 1, "last_page": 1, "per_page": 10, "total": 2}
    body = json.dumps({"data": [*sent, 3], "links": {}, "meta": meta}).encode()
    page = parse_page_json(body)
    assert page.sent_cards() == tuple(sent)
    assert [list(card) for card in page.sent_cards()] == [list(card) for card in sent]
    made = CardPage.model_construct(cards=page.cards, meta=page.meta, links=page.links)
    again = [parse_card(card) for card in made.sent_cards()]
    assert again == list(page.cards)
    assert again[0].invalid_fields == {"connects": "many"}


def test_a_page_read_from_an_answer_reads_its_cards_when_first_asked_for(caplog):
    """Counting them reads none (a sync hands them on as sent); the first use reads
    them all, once, and what is set aside is logged then."""
    sent = [card_json(uuid="a", connects="many"), card_json(uuid="b")]
    body = json.dumps(envelope([*sent, 3], last_page=1, total=2)).encode()
    for page in (parse_page_json(body), parse_page(json.loads(body))):
        caplog.clear()
        assert (page.card_count, page.skipped, page.is_empty) == (2, 1, False)
        check_page(page, 1)
        assert not [r for r in caplog.records if "ignored invalid fields" in r.getMessage()]
        assert [card.uuid for card in page.cards] == ["a", "b"]
        assert page.cards is page.cards
        assert [r.getMessage() for r in caplog.records].count(
            "page 1: ignored invalid fields in 1 of 2 cards: connects (1); the first is card a"
        ) == 1


def test_a_page_whose_cards_are_not_read_yet_compares_shows_and_writes_them():
    sent = [card_json(uuid="a"), card_json(uuid="b", display_name="Bea")]
    body = json.dumps(envelope(sent, last_page=1, total=2)).encode()
    read = parse_page_json(body)
    assert len(read.cards) == 2
    for compare in (lambda a, b: a == b, lambda a, b: b == a):
        assert compare(parse_page_json(body), read)
    assert hash(parse_page_json(body)) == hash(read)
    assert repr(parse_page_json(body)) == repr(read)
    assert repr(read).startswith("CardPage(cards=(Card(uuid='a'")
    assert parse_page_json(body).model_dump() == read.model_dump()
    assert parse_page_json(body).model_dump()["cards"][1]["display_name"] == "Bea"
    assert parse_page_json(body).model_dump_json() == read.model_dump_json()
    other = json.dumps(envelope([card_json(uuid="c"), sent[1]], last_page=1, total=2)).encode()
    assert parse_page_json(other) != parse_page_json(body)
    made = CardPage.model_validate({"cards": read.cards, "meta": read.meta, "links": {}})
    assert made.card_count == 2
    assert made.model_dump()["cards"] == read.model_dump()["cards"]


def test_values_of_the_wrong_type_on_a_page_are_told_in_one_line_naming_the_page(caplog):
    """A line per card filled a job's output with hundreds of lines naming no page."""
    sent = [
        card_json(uuid="a", connects="many"),
        card_json(uuid="b"),
        card_json(uuid="c", connects=True, public="maybe"),
        card_json(uuid=4711, created_at="yesterday"),
    ]
    body = json.dumps(envelope(sent, page=3, last_page=3, total=24)).encode()
    with caplog.at_level(logging.WARNING):
        cards = parse_page_json(body).cards
    assert [card.invalid_fields for card in cards][1:] == [
        {},
        {"connects": True, "public": "maybe"},
        {"uuid": 4711, "created_at": "yesterday"},
    ]
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        (
            "cardviewer.api.models",
            "page 3: ignored invalid fields in 3 of 4 cards: connects (2), created_at (1), "
            "public (1), uuid (1); the first is card a",
        )
    ]


def test_reading_a_card_again_says_nothing_of_what_its_receiving_told(caplog):
    """The local copy and the exports' spools read a card again and again."""
    with caplog.at_level(logging.DEBUG):
        card = parse_card(card_json(uuid=None, connects="many"))
        parse_card(card_json(uuid="a", public=3))
    assert card.invalid_fields == {"connects": "many"}
    assert caplog.records == []
    told = WrongTypes()
    told.note([card])
    with caplog.at_level(logging.WARNING):
        told.tell("the sync")
    assert caplog.messages == [
        "the sync: ignored invalid fields in 1 of 1 card: connects (1); "
        "the first is a card without a valid id"
    ]
