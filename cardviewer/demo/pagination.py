"""Laravel's length-aware paginator, as the platform sends it: `data`, `links`, `meta`.

`meta.links` has an entry for every page, so it is most of a page's bytes in a large
space (in a space of 10,000 cards, 1,002 entries: about 90 % of a page's 100 KB), and
the same on every page but for the one marked active. `envelope_json` encodes it once per
list and page count; encoding it on every request made the demo server spend more
time on it than on everything else a request costs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

PREVIOUS_LABEL = "&laquo; Previous"
NEXT_LABEL = "Next &raquo;"
# PHP's FILTER_VALIDATE_INT: optional sign, no leading zeros, surrounding blanks allowed.
_PHP_INT = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")
_PHP_INT_MAX = 2**63 - 1


def page_number(raw: str | None) -> int:
    """The page Laravel serves for `?page=raw`: anything not a whole number ≥ 1 is page 1."""
    if raw is None:
        return 1
    text = raw.strip(" \t\n\r\v")
    if not _PHP_INT.fullmatch(text):
        return 1
    value = int(text)
    return value if 1 <= value <= _PHP_INT_MAX else 1


def last_page(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


def page_slice(items: Sequence[T], page: int, per_page: int) -> Sequence[T]:
    start = (page - 1) * per_page
    return items[start : start + per_page]


Encoder = Callable[[Any], bytes]
"""How the server writes a value as JSON: compact, so that a list is `[`, its items
joined by `,`, and `]`, which `envelope_json` relies on to join the cached entries."""


def envelope(data: list[Any], *, page: int, per_page: int, total: int, path: str) -> dict[str, Any]:
    """The whole response body; `path` is the list's URL without a query."""
    last = last_page(total, per_page)
    pages = [_link(path, n, active=n == page) for n in range(1, last + 1)]
    links = [_previous_link(path, page), *pages, _next_link(path, page, last)]
    return _body(data, page=page, per_page=per_page, total=total, path=path, links=links)


def envelope_json(
    data: list[Any], *, page: int, per_page: int, total: int, path: str, encode: Encoder
) -> bytes:
    """`encode(envelope(…))`, byte for byte, with the page entries of `meta.links` cached."""
    last = last_page(total, per_page)
    # Encoded as \u0000…, the marker is no URL or label. Cards come before `meta.links`
    # and may hold any text, so it is looked for from the end: after it come only the
    # list's own URL and three numbers.
    marker = "\x00meta.links\x00"
    body = _body(data, page=page, per_page=per_page, total=total, path=path, links=marker)
    head, found, tail = encode(body).rpartition(encode(marker))
    if not found:
        raise ValueError("the encoder wrote the links marker differently")
    joined, starts = _page_link_entries(path, last, encode)
    pages: tuple[bytes | memoryview, ...] = (joined,)
    if 1 <= page <= last:
        # The entries before and after the active one, as they are: no copy of the
        # megabyte they make in a large space before the one of the body itself.
        whole = memoryview(joined)
        end = starts[page] - 1 if page < last else len(joined)
        active = encode(_link(path, page, active=True))
        pages = (whole[: starts[page - 1]], active, whole[end:])
    return b"".join(
        (
            head,
            b"[",
            encode(_previous_link(path, page)),
            b",",
            *pages,
            b",",
            encode(_next_link(path, page, last)),
            b"]",
            tail,
        )
    )


@functools.lru_cache(maxsize=32)
def _page_link_entries(path: str, last: int, encode: Encoder) -> tuple[bytes, list[int]]:
    """The encoded entries for pages 1 to `last`, none of them active, joined by commas;
    and where each starts (entry n at index n - 1)."""
    entries = [encode(_link(path, n)) for n in range(1, last + 1)]
    starts, at = [], 0
    for entry in entries:
        starts.append(at)
        at += len(entry) + 1
    return b",".join(entries), starts


def _page_url(path: str, page: int) -> str:
    return f"{path}?page={page}"


def _link(path: str, page: int, *, active: bool = False) -> dict[str, Any]:
    return {"url": _page_url(path, page), "label": str(page), "active": active}


def _previous_link(path: str, page: int) -> dict[str, Any]:
    url = _page_url(path, page - 1) if page > 1 else None
    return {"url": url, "label": PREVIOUS_LABEL, "active": False}


def _next_link(path: str, page: int, last: int) -> dict[str, Any]:
    url = _page_url(path, page + 1) if page < last else None
    return {"url": url, "label": NEXT_LABEL, "active": False}


def _body(
    data: list[Any], *, page: int, per_page: int, total: int, path: str, links: Any
) -> dict[str, Any]:
    last = last_page(total, per_page)
    first_item = (page - 1) * per_page + 1 if data else None
    last_item = first_item + len(data) - 1 if first_item is not None else None
    return {
        "data": data,
        "links": {
            "first": _page_url(path, 1),
            "last": _page_url(path, last),
            "prev": _page_url(path, page - 1) if page > 1 else None,
            "next": _page_url(path, page + 1) if page < last else None,
        },
        "meta": {
            "current_page": page,
            "from": first_item,
            "last_page": last,
            "links": links,
            "path": path,
            "per_page": per_page,
            "to": last_item,
            "total": total,
        },
    }
