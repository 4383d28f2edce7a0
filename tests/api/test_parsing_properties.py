"""Whatever a server sends, the client returns a page or raises its own error, nothing else.

Bodies are generated two ways: envelopes and cards of the right structure whose fields
are mutated, dropped or joined by junk, and arbitrary JSON. Most go through `read_page`,
which is how `list_cards` reads a 200 answer (no event loop, so that thousands of
examples run in seconds); bodies with any status and cut-off bodies go through
`list_cards` and `login` themselves, over a mock transport.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardviewer.api import CardPage, CardsClient, Session
from cardviewer.api.client import read_page
from cardviewer.api.errors import ApiError, CardViewerError
from cardviewer.api.retry import RetryPolicy
from tests.properties import examples

PROPERTY_SETTINGS = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Code points people rarely test with: controls, combining marks, bidi overrides,
# private use, noncharacters, astral planes. Surrogates cannot be encoded at all.
WEIRD_CHARACTERS = st.characters(exclude_categories=["Cs"])
ODD_STRINGS = (
    "",
    " ",
    "\x00",
    "\u202eevil",
    "e\u0301",
    "\ufeff",
    "\uffff",
    "\U0010ffff",
    "🃏👩🏽‍💼",
    "null",
    "0",
    "&laquo;",
    "<script>",
    "2024-04-19T22:53:03.000000Z",
    "\r\n\t",
)
# Random text, and hand-picked odd strings, which are cheaper to draw.
TEXT = st.one_of(st.sampled_from(ODD_STRINGS), st.text(WEIRD_CHARACTERS, max_size=12))
# A server can still send lone surrogates as JSON escapes ("\ud800").
ESCAPED_SURROGATES = st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3)
HUGE_TEXT = st.builds(
    lambda part, n: part * n,
    st.sampled_from([s for s in ODD_STRINGS if s])
    | st.text(WEIRD_CHARACTERS, min_size=1, max_size=4),
    st.sampled_from([1_000, 10_000, 50_000]),
)
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([0, 1, -1, 2**31, 2**63, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),  # Python's JSON reads NaN and Infinity
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(TEXT, inner, max_size=3),
    ),
    max_leaves=4,
)
JUNK = st.one_of(
    JSON,
    JSON,
    JSON,
    ESCAPED_SURROGATES,
    st.sampled_from(["", "null", "0", "true", "[]", "{}"]),
    HUGE_TEXT,  # the rarest: they take long to encode and parse
)
ODD_KEYS = st.one_of(
    TEXT,
    st.sampled_from(
        ["_invalid", "__class__", "__dict__", "model_config", "model_extra", "from", "data"]
    ),
)
TIMESTAMPS = st.one_of(
    st.builds(
        lambda when, zone: when.isoformat() + zone,
        st.datetimes(),
        st.sampled_from(["", "Z", "+05:30", "-00:00", "+24:00"]),
    ),
    st.sampled_from(
        [
            "0000-00-00",
            "2024-02-30T00:00:00Z",
            "9999-12-31T23:59:59.999999-23:59",
            "0001-01-01T00:00:00+23:59",
            "2024-04-19T22:53:60Z",
            "1713567183",
            "1e10",
        ]
    ),
)
# Values right for one field and wrong for the others: a count as a flag, a date as a name.
PLAUSIBLE = st.sampled_from(
    [
        None,
        True,
        False,
        0,
        1,
        -1,
        12,
        1.5,
        2**63,
        "",
        "anna-schmidt",
        "2024-04-19T22:53:03.000000Z",
        "2024-04-19T22:53:03",
        "yesterday",
        "https://api.example/v1/spaces/s/cards?page=2",
        "&laquo; Previous",
        {},
        [],
        {"uuid": None, "src": "https://cdn.example/default.png"},
        [{"uuid": "e1", "email": "a@x.example", "is_primary": True}],
        ["a@x.example"],
        [None],
    ]
)
VALUES = st.one_of(PLAUSIBLE, PLAUSIBLE, TIMESTAMPS, NUMBERS, JUNK)
DELETE = object()


def mutated(base: dict[str, Any], changes: list[tuple[str, Any]]) -> dict[str, Any]:
    """`base` with some keys set to other values, some removed and some added."""
    result = dict(base)
    for key, value in changes:
        if value is DELETE:
            result.pop(key, None)
        else:
            result[key] = value
    return result


def near(
    base: dict[str, Any],
    values: st.SearchStrategy[Any] = VALUES,
    most: int = 2,
    **parts: st.SearchStrategy[Any],
) -> st.SearchStrategy[Any]:
    """An object of the right structure (`parts` replace some values), then changed.

    A few changes, mostly to the object's own keys, keep each example quick to draw.
    """
    key = st.one_of(st.sampled_from(sorted({*base, *parts})), ODD_KEYS)
    change = st.tuples(key, st.one_of(st.just(DELETE), values))
    return st.builds(
        lambda fixed, changes: mutated({**base, **fixed}, changes),
        st.fixed_dictionaries(parts),
        st.lists(change, max_size=most),
    )


AVATAR = {"uuid": "av4tar000000001", "src": "https://cdn.example/a.jpg"}
CARD = {
    "uuid": "enuh1mF01XXXXXX",
    "username": "anna-schmidt",
    "display_name": "Anna Schmidt",
    "position": "Head of Sales",
    "public": True,
    "connected_cards": 3,
    "connects": 12,
    "subscriptions": None,
    "created_at": "2024-04-19T22:53:03.000000Z",
    "updated_at": "2024-05-01T08:00:00.123456Z",
    "is_business": False,
}
EMAILS = st.one_of(
    st.lists(TEXT, max_size=3),
    st.lists(st.builds(lambda e: {"uuid": "e1", "email": e}, VALUES), max_size=2),
    VALUES,
)
CARDS = near(
    {**CARD, "avatar": AVATAR},
    values=st.one_of(VALUES, VALUES, VALUES, EMAILS, near(AVATAR), TEXT, TIMESTAMPS, HUGE_TEXT),
    most=3,
)
PAGE_LINK = {"url": "https://api.example/v1/spaces/s/cards?page=1", "label": "1", "active": True}
META = near(
    {"current_page": 1, "from": 1, "to": 10, "last_page": 3, "per_page": 10, "total": 25},
    path=TEXT,
    links=st.lists(st.one_of(near(PAGE_LINK), VALUES), max_size=2),
)
LINKS = near(
    {"first": "u?page=1", "last": "u?page=3", "prev": None, "next": "u?page=2"},
)
ENVELOPES = near(
    {},
    data=st.lists(st.one_of(CARDS, CARDS, CARDS, VALUES), max_size=3),
    links=LINKS,
    meta=META,
)
SESSIONS = near(
    {"access_token": "eyJ0", "session_id": "s1", "expires_at": "2024-04-19T22:53:03.000000Z"},
    expires_at=TIMESTAMPS,
)
# Nesting deeper than Python's parser recurses (cut off, it is not even JSON).
DEEP_BODIES = st.builds(
    lambda depth, brackets, closed: (
        brackets[0] * depth + (brackets[1] * depth if closed else "")
    ).encode(),
    st.integers(1, 5_000),
    st.sampled_from([("[", "]"), ('{"data":', "}"), ('{"meta":[', "]}")]),
    st.booleans(),
)
STATUSES = st.sampled_from([200, 200, 200, 400, 401, 403, 404, 422, 429, 500, 502, 503, 504])
RETRY_AFTER = st.one_of(
    st.none(), st.sampled_from(["1", "-1", "1e9", "nan", "Wed, 21 Oct 2015 07:28:00 GMT"]), TEXT
)


def encode(value: Any, ascii_only: bool) -> bytes:
    """JSON as PHP writes it (ASCII with escapes) or as UTF-8 text.

    In UTF-8, a lone surrogate becomes bytes that are not valid UTF-8 at all.
    """
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def bodies(values: st.SearchStrategy[Any]) -> st.SearchStrategy[bytes]:
    return st.builds(encode, values, st.booleans())


INT32_MAX = 2**31 - 1
REQUEST = httpx.Request("GET", "https://api.example/v1/spaces/space/cards?page=1")


def read(body: bytes) -> CardPage | CardViewerError:
    """The page in a 200 answer with this body, or the client's error about it."""
    try:
        return read_page(httpx.Response(200, content=body, request=REQUEST))
    except CardViewerError as error:
        return error


class Answers:
    """One client over a mock transport whose next answer each example sets."""

    def __init__(self) -> None:
        self.status = 200
        self.body = b""
        self.headers: dict[str, str] = {}
        self.loop = asyncio.new_event_loop()
        transport = httpx.MockTransport(self.answer)
        self.client = CardsClient(
            "https://api.example", token="t", transport=transport, retry=RetryPolicy(attempts=1)
        )

    def answer(self, request: httpx.Request) -> httpx.Response:
        return httpx.Response(self.status, content=self.body, headers=self.headers)

    def set(self, body: bytes, status: int = 200, retry_after: str | None = None) -> None:
        self.status, self.body = status, body
        ascii_only = retry_after is not None and retry_after.isascii() and retry_after.isprintable()
        self.headers = {"Retry-After": retry_after} if ascii_only and retry_after else {}

    def list_cards(self) -> CardPage | CardViewerError:
        try:
            return self.loop.run_until_complete(self.client.list_cards("space"))
        except CardViewerError as error:
            return error

    def login(self) -> Session | CardViewerError:
        self.client.token = "t"
        try:
            return self.loop.run_until_complete(self.client.login("a@b.example", "pw"))
        except CardViewerError as error:
            return error

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


pytestmark = pytest.mark.usefixtures("fewer_logs")


@pytest.fixture(scope="module")
def answers() -> Iterator[Answers]:
    answers = Answers()
    yield answers
    answers.close()


def check_page(result: CardPage | CardViewerError) -> None:
    """A page is usable throughout; an error has a sentence for people."""
    if isinstance(result, CardViewerError):
        assert str(result)
        return
    meta = result.meta
    assert 1 <= meta.current_page <= INT32_MAX  # the page bar's widgets count in 32 bits
    assert 1 <= meta.last_page <= INT32_MAX
    assert 0 <= meta.total <= INT32_MAX
    assert 1 <= meta.per_page <= INT32_MAX
    assert all(0 <= n <= INT32_MAX for n in (meta.from_, meta.to) if n is not None)
    assert result.skipped >= 0
    _ = result.meta.has_next, result.meta.has_previous, [link.text for link in result.meta.links]
    for card in result.cards:
        _ = card.extra_fields, card.invalid_fields, card.avatar and card.avatar.is_default
        if card.created_at is not None:
            assert card.created_at.tzinfo is not None


@settings(PROPERTY_SETTINGS, max_examples=examples(1800))
@given(body=bodies(ENVELOPES))
def test_near_valid_envelopes(body):
    check_page(read(body))


@settings(PROPERTY_SETTINGS, max_examples=examples(1800))
@given(body=bodies(JSON))
def test_arbitrary_json(body):
    check_page(read(body))


@settings(PROPERTY_SETTINGS, max_examples=examples(1500))
@given(card=CARDS, cards_before=st.integers(0, 2))
def test_single_cards_in_a_valid_envelope(card, cards_before):
    envelope = {
        "data": [{"uuid": f"c{n}"} for n in range(cards_before)] + [card],
        "links": {"first": None, "last": None, "prev": None, "next": None},
        "meta": {"current_page": 1, "last_page": 1, "per_page": 10, "total": 3},
    }
    result = read(encode(envelope, ascii_only=True))  # as PHP writes it: always UTF-8
    assert isinstance(result, CardPage), result  # one card can never spoil the page
    assert len(result.cards) + result.skipped == cards_before + 1
    check_page(result)


@settings(PROPERTY_SETTINGS, max_examples=examples(900))
@given(
    body=st.one_of(bodies(ENVELOPES), bodies(JSON), st.binary(max_size=200), DEEP_BODIES),
    cut=st.floats(0, 1),
    status=STATUSES,
    retry_after=RETRY_AFTER,
)
def test_any_status_with_cut_or_raw_bodies(answers, body, cut, status, retry_after):
    answers.set(body[: math.floor(len(body) * cut)] if cut < 1 else body, status, retry_after)
    result = answers.list_cards()
    check_page(result)
    if isinstance(result, ApiError):
        assert result.retry_after is None or result.retry_after >= 0


@settings(PROPERTY_SETTINGS, max_examples=examples(300))
@given(body=bodies(st.one_of(SESSIONS, JSON)), status=STATUSES)
def test_login_answers(answers, body, status):
    answers.set(body, status)
    result = answers.login()
    if isinstance(result, Session):
        assert result.access_token
        assert result.expires_at.tzinfo is not None
    else:
        assert str(result)
        assert answers.client.token == "t"  # a failed login takes no token
