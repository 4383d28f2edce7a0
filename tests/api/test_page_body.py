"""A page read straight from the body is the page `json.loads` and `parse_page` make.

`read_page` reads a well-formed body with pydantic's own JSON parser and skips
`meta.links` until it is used; a body that parser refuses is read again the slow way.
Whatever the body, both ways must agree: the same page, or the same error.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from pydantic import ValidationError

from cardviewer.api import CardPage
from cardviewer.api.client import read_page
from cardviewer.api.errors import UnexpectedResponse
from cardviewer.api.models import parse_page, parse_page_json
from tests.api.test_parsing_properties import (
    ENVELOPES,
    JSON,
    PROPERTY_SETTINGS,
    REQUEST,
    bodies,
)
from tests.properties import examples

pytestmark = pytest.mark.usefixtures("fewer_logs")


def seen(page: CardPage) -> str:
    """Everything a caller can see of a page, as text (NaN equals NaN here)."""
    cards = [(card.model_dump(), card.invalid_fields, card.extra_fields) for card in page.cards]
    return repr((cards, page.meta.model_dump(), page.links, page.skipped))


def slow(body: bytes) -> CardPage | None:
    try:
        return parse_page(json.loads(body))
    except (ValueError, RecursionError):
        return None


def check(body: bytes) -> None:
    expected = slow(body)
    try:
        fast: Any = parse_page_json(body)
    except ValidationError:
        fast = None  # refused: read_page falls back to the slow way
    if fast is not None:
        assert expected is not None, body
        assert seen(fast) == seen(expected)
    try:
        result: Any = read_page(httpx.Response(200, content=body, request=REQUEST))
    except UnexpectedResponse:
        result = None
    assert (result is None) == (expected is None)
    if result is not None and expected is not None:
        assert seen(result) == seen(expected)


@settings(PROPERTY_SETTINGS, max_examples=examples(1000))
@given(body=bodies(ENVELOPES))
def test_near_valid_envelopes_read_alike(body):
    check(body)


@settings(PROPERTY_SETTINGS, max_examples=examples(500))
@given(body=bodies(JSON))
def test_arbitrary_json_reads_alike(body):
    check(body)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\xef\xbb\xbf{}",
        b'{"data": [], "meta": {"current_page": 1, "last_page": 1, "per_page": 1, "total": 0}}'
        b" trailing",
        b'{"data": [{"display_name": "\\ud800"}], '
        b'"meta": {"current_page": 1, "last_page": 1, "per_page": 1, "total": 1}}',
        b'{"data": [{"connects": NaN}], '
        b'"meta": {"current_page": 1, "last_page": 1, "per_page": 1, "total": 1}}',
        b'{"data": [], "data": [{}], '
        b'"meta": {"current_page": 1, "last_page": 1, "per_page": 1, "total": 1}}',
        '{"data": [{"display_name": "Zo\u00eb"}], "meta": {"current_page": 1, '
        '"last_page": 1, "per_page": 1, "total": 1}}'.encode("utf-16"),
    ],
)
def test_odd_bodies_read_alike(body):
    check(body)
