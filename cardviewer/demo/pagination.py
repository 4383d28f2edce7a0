"""Laravel's length-aware paginator, as the platform sends it: `data`, `links`, `meta`."""

from __future__ import annotations

import re
from collections.abc import Sequence
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


def envelope(data: list[Any], *, page: int, per_page: int, total: int, path: str) -> dict[str, Any]:
    """The whole response body; `path` is the list's URL without a query."""
    last = last_page(total, per_page)

    def url(n: int) -> str:
        return f"{path}?page={n}"

    prev_url = url(page - 1) if page > 1 else None
    next_url = url(page + 1) if page < last else None
    first_item = (page - 1) * per_page + 1 if data else None
    last_item = first_item + len(data) - 1 if first_item is not None else None
    links = [
        {"url": prev_url, "label": PREVIOUS_LABEL, "active": False},
        *({"url": url(n), "label": str(n), "active": n == page} for n in range(1, last + 1)),
        {"url": next_url, "label": NEXT_LABEL, "active": False},
    ]
    return {
        "data": data,
        "links": {"first": url(1), "last": url(last), "prev": prev_url, "next": next_url},
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
