"""The paginator's arithmetic and Laravel's reading of `?page=`."""

from __future__ import annotations

import pytest

from cardviewer.demo.handler import laravel_json
from cardviewer.demo.pagination import (
    NEXT_LABEL,
    PREVIOUS_LABEL,
    envelope,
    envelope_json,
    last_page,
    page_number,
    page_slice,
)


@pytest.mark.parametrize(
    ("raw", "page"),
    [
        (None, 1),
        ("", 1),
        ("3", 3),
        ("+3", 3),
        (" 3 ", 3),
        ("0", 1),
        ("-2", 1),
        ("03", 1),
        ("2.5", 1),
        ("1e3", 1),
        ("three", 1),
        ("99999999999999999999", 1),
        ("9223372036854775807", 9223372036854775807),
    ],
)
def test_page_number_reads_like_php(raw, page):
    assert page_number(raw) == page


@pytest.mark.parametrize(
    ("total", "per_page", "last"), [(0, 10, 1), (1, 10, 1), (10, 10, 1), (11, 10, 2), (240, 10, 24)]
)
def test_last_page(total, per_page, last):
    assert last_page(total, per_page) == last


def test_page_slice():
    items = list(range(25))
    assert page_slice(items, 1, 10) == list(range(10))
    assert page_slice(items, 3, 10) == [20, 21, 22, 23, 24]
    assert page_slice(items, 4, 10) == []


def test_envelope_of_a_single_page():
    body = envelope(["a", "b"], page=1, per_page=10, total=2, path="http://h/x")
    assert body["links"] == {
        "first": "http://h/x?page=1",
        "last": "http://h/x?page=1",
        "prev": None,
        "next": None,
    }
    assert body["meta"]["links"] == [
        {"url": None, "label": PREVIOUS_LABEL, "active": False},
        {"url": "http://h/x?page=1", "label": "1", "active": True},
        {"url": None, "label": NEXT_LABEL, "active": False},
    ]
    assert (body["meta"]["from"], body["meta"]["to"]) == (1, 2)


@pytest.mark.parametrize(
    ("page", "total"),
    [
        (1, 0),  # an empty space still has page 1
        (1, 7),
        (1, 240),
        (7, 240),
        (24, 240),
        (25, 240),  # past the last page: no entry is active
        (500, 10_000),
        (1000, 10_000),
    ],
)
def test_the_encoded_envelope_is_the_envelope_encoded(page, total):
    """The server writes pages with `envelope_json`; its bytes must not differ at all."""
    path = "http://127.0.0.1:8000/v1/spaces/acme%2Fsales/cards"
    shown = max(0, min(10, total - (page - 1) * 10))  # none past the last page
    data = [{"uuid": str(n), "display_name": "Zoë/Ø"} for n in range(shown)]
    arguments = {"page": page, "per_page": 10, "total": total, "path": path}
    expected = laravel_json(envelope(data, **arguments))
    assert envelope_json(data, **arguments, encode=laravel_json) == expected
    # Again, with the page entries from the cache.
    assert envelope_json(data, **arguments, encode=laravel_json) == expected
