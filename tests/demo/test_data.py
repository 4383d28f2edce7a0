"""Sample data: deterministic, fast, unique where it must be, and as varied as real data."""

from __future__ import annotations

import re
import unicodedata

import pytest

from cardviewer.demo.data import (
    DEMO_SPACE_ID,
    DEMO_SPACE_NAME,
    EMPTY_SPACE_ID,
    ID_LENGTH,
    SPECIALS,
    generate_cards,
    initials_of,
    slug,
    timestamp,
)
from cardviewer.demo.spaces import avatar_index, build_spaces

CARDS = generate_cards(240, 1)
SPACE = build_spaces(240, 1)[DEMO_SPACE_ID]
ID = re.compile(rf"[A-Za-z0-9]{{{ID_LENGTH}}}")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def scripts(text: str) -> set[str]:
    return {unicodedata.name(c, "?").split()[0] for c in text if c.isalpha()}


def test_the_same_seed_gives_the_same_cards():
    again = generate_cards.__wrapped__(240, 1)
    assert again == CARDS
    assert again is not CARDS


def test_the_demo_space_is_the_one_the_docs_and_screenshots_show():
    """Making the cards quicker must not change them: the README's pictures show these."""
    assert [(c.display_name, c.username) for c in CARDS[:3]] == [
        ("Inês Simões", "ines-simoes"),
        ("Giorgos Oikonomou", "giorgos-oikonomou"),
        ("陈雪", "xue-chen"),
    ]
    drawn = CARDS[199]  # drawn from the cultures' weights, not one of the special cards
    assert drawn.display_name == "Elif Şahin"
    assert [e.email for e in drawn.emails] == [
        "elif.sahin@acme.example",
        "e.sahin@acme-europe.example",
    ]


def test_another_seed_gives_other_cards():
    other = generate_cards(240, 2)
    assert [c.uuid for c in other] != [c.uuid for c in CARDS]


def test_ten_thousand_cards_have_ten_thousand_handles():
    # How fast they are made is measured by `make bench`, not asserted on a shared machine.
    cards = generate_cards.__wrapped__(10_000, 99)
    assert len(cards) == 10_000
    assert len({c.username for c in cards}) == 10_000


def test_a_negative_count_is_refused():
    with pytest.raises(ValueError, match="negative"):
        generate_cards(-1)


def test_ids_are_fifteen_alphanumerics_and_unique():
    ids = [c.uuid for c in CARDS]
    ids += [c.avatar_uuid for c in CARDS if c.avatar_uuid]
    ids += [e.uuid for c in CARDS for e in c.emails]
    assert all(ID.fullmatch(i) for i in ids)
    assert len(set(ids)) == len(ids)
    assert ID.fullmatch(DEMO_SPACE_ID)
    assert ID.fullmatch(EMPTY_SPACE_ID)


def test_usernames_are_unique_lower_case_handles():
    usernames = [c.username for c in CARDS]
    assert len(set(usernames)) == len(usernames)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", u) for u in usernames)


def test_cards_are_listed_oldest_first_and_updated_after_creation():
    created = [c.created_at for c in CARDS]
    assert created == sorted(created)
    assert all(c.updated_at >= c.created_at for c in CARDS)
    assert any(c.updated_at > c.created_at for c in CARDS)
    assert all(c.created_at.utcoffset() is not None for c in CARDS)


def test_names_come_in_many_scripts():
    seen = set().union(*(scripts(c.display_name) for c in CARDS))
    assert {"LATIN", "CYRILLIC", "GREEK", "ARABIC", "DEVANAGARI", "CJK", "HANGUL"} <= seen
    assert any(not c.display_name.isascii() and "LATIN" in scripts(c.display_name) for c in CARDS)


def test_awkward_names_and_titles_are_present():
    names = {c.display_name for c in CARDS}
    assert {s.display_name for s in SPECIALS} <= names
    assert any("," in n for n in names)
    assert any('"' in n for n in names)
    assert any("'" in n for n in names)
    assert any(len(c.position) > 60 for c in CARDS)
    assert any(not card.position.isascii() for card in CARDS)


def test_the_mix_of_values_is_realistic():
    defaults = sum(c.avatar_uuid is None for c in CARDS)
    assert 0.05 < defaults / len(CARDS) < 0.25
    assert 0 < sum(c.public for c in CARDS) < len(CARDS)
    assert 0 < sum(c.subscriptions is not None for c in CARDS) < len(CARDS) / 4
    assert any(c.redirection for c in CARDS)
    assert any(not c.emails for c in CARDS)
    assert any(len(c.emails) == 2 for c in CARDS)


def test_every_card_has_one_primary_address_first():
    for card in CARDS:
        if card.emails:
            assert card.emails[0].is_primary
            assert [e.is_primary for e in card.emails[1:]] == [False] * (len(card.emails) - 1)
    primaries = [c.emails[0].email for c in CARDS if c.emails]
    assert len(set(primaries)) == len(primaries)
    assert all(e.isascii() and "@" in e for e in primaries)


def test_a_card_as_the_api_sends_it():
    card = CARDS[0].to_json(SPACE, "http://cdn.example")
    assert list(card) == [
        "uuid",
        "avatar",
        "username",
        "display_name",
        "position",
        "public",
        "connected_cards",
        "connects",
        "subscriptions",
        "redirection",
        "is_business",
        "space",
        "created_at",
        "updated_at",
    ]
    assert card["space"] == {"uuid": DEMO_SPACE_ID, "name": DEMO_SPACE_NAME}
    assert TIMESTAMP.fullmatch(card["created_at"])
    assert TIMESTAMP.fullmatch(card["updated_at"])
    assert isinstance(card["public"], bool)
    assert isinstance(card["connects"], int)
    assert isinstance(card["connected_cards"], int)
    assert "emails" not in card


def test_avatars_point_at_the_image_host():
    own = next(c for c in CARDS if c.avatar_uuid)
    default = next(c for c in CARDS if c.avatar_uuid is None)
    avatar = own.to_json(SPACE, "http://cdn.example")["avatar"]
    assert avatar["uuid"] == own.avatar_uuid
    assert avatar["src"] == f"http://cdn.example/avatars/{own.avatar_uuid}.jpg"
    assert avatar["src_large"] == f"http://cdn.example/avatars/large/{own.avatar_uuid}.jpg"
    assert (avatar["mim_type"], avatar["extension"]) == ("image/jpeg", "jpg")
    assert isinstance(avatar["size"], int)
    avatar = default.to_json(SPACE, "http://cdn.example")["avatar"]
    assert avatar["uuid"] is None
    assert avatar["src"] == "http://cdn.example/avatars/default.png"


def test_emails_only_when_asked():
    card = next(c for c in CARDS if len(c.emails) == 2)
    emails = card.to_json(SPACE, "x", with_emails=True)["emails"]
    assert emails == [
        {"uuid": e.uuid, "email": e.email, "is_primary": e.is_primary} for e in card.emails
    ]


def test_subscriptions_are_copies():
    card = next(c for c in CARDS if c.subscriptions)
    sent = card.to_json(SPACE, "x")["subscriptions"]
    assert set(sent) == {"plan", "status", "renews_at"}
    sent["plan"] = "changed"
    assert card.subscriptions is not None
    assert card.subscriptions["plan"] != "changed"


def test_spaces_and_avatar_index():
    spaces = build_spaces(25, 1)
    assert set(spaces) == {DEMO_SPACE_ID, EMPTY_SPACE_ID}
    assert spaces[EMPTY_SPACE_ID].cards == ()
    index = avatar_index(spaces.values())
    assert all(index[c.avatar_uuid] is c for c in spaces[DEMO_SPACE_ID].cards if c.avatar_uuid)


@pytest.mark.parametrize(
    ("text", "umlauts", "expected"),
    [
        ("Jürgen Groß", True, "juergen-gross"),
        ("Jürgen Groß", False, "jurgen-gross"),
        ("Łukasz Wójcik", False, "lukasz-wojcik"),
        ("Đặng Thu Hà", False, "dang-thu-ha"),
        ("K\u0131l\u0131\u00e7", False, "kilic"),  # Turkish, with the dotless i
        ("Siobhán O'Brien", False, "siobhan-obrien"),
        ("Ji-eun Kim", False, "ji-eun-kim"),
    ],
)
def test_slug(text, umlauts, expected):
    assert slug(text, umlauts=umlauts) == expected


def test_initials_are_ascii_capitals():
    assert initials_of("Łukasz", "Öztürk") == "LO"
    assert initials_of("", "") == "?"
    assert all(re.fullmatch(r"[A-Z]{1,2}", c.initials) for c in CARDS)


def test_timestamp_format():
    assert timestamp(CARDS[0].created_at).endswith(".000000Z")
