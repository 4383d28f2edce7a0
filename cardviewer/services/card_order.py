"""How cards sort by a column, without Qt: the kind of a value first, then the value.

The window's sort (`CardFilterModel`) and the local store's (`CardStore.ordered`)
follow these rules, so a column sorts the same on a page and over the whole space.
Numbers (and flags) come before times, times before text; within a kind, numbers and
times by value and text as people sort it (the caller's collation). Empty cells (no
value, blank text, NaN) go last in both directions, and cards that compare equal keep
the space's order.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from cardviewer.api.models import Card
from cardviewer.services.card_columns import EMAILS_KEY, KNOWN_FIELDS, Column, ValueKind

NUMBER = 0
TIME = 1
TEXT = 2
OTHER = 3
EMPTY = 99
"""Ranks of the kinds of sort value; a column mixing kinds sorts kind by kind, never fails."""

SortKey = tuple[int, Any]
"""A rank and a value that compares within that rank (text through a collation)."""

SORTED_KEYS: tuple[str, ...] = (*(key for key, _kind in KNOWN_FIELDS), EMAILS_KEY)
"""The fields of the specification a store keeps sort keys for, besides unknown ones."""

_WHOLE_NUMBERS = (bool, int)
"""A tuple, not `bool | int`: `isinstance` builds a union anew at every call (a sync asks
1.6 million times at 100,000 cards)."""


def sort_key(value: Any) -> SortKey:
    """Rank and comparable value of a cell's sort value (`Column.sort_value`).

    Naive times (none come from the API) are read as UTC, as the API's parser does.
    """
    if value is None:
        return (EMPTY, None)
    if isinstance(value, _WHOLE_NUMBERS):
        return (NUMBER, int(value))
    if isinstance(value, float):
        return (EMPTY, None) if math.isnan(value) else (NUMBER, value)
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return (TIME, aware.timestamp())
    if isinstance(value, str):
        return (TEXT, value) if value.strip() else (EMPTY, None)
    text = str(value)
    return (OTHER, text) if text.strip() else (EMPTY, None)


def card_sort_keys(card: Card) -> Iterator[tuple[str, SortKey]]:
    """Every field of `card` that a column can sort by, with its sort key.

    The fields of the specification (e-mails included) always; an unknown field when
    the card has it. The avatar sorts by the picture's address, as in the table.
    """
    for key, sort_value in _KNOWN_SORT_VALUES:
        yield key, sort_key(sort_value(card))
    for key in card.model_extra or {}:
        yield key, sort_key(_extra_column(key).sort_value(card))


@functools.lru_cache(maxsize=256)
def _extra_column(key: str) -> Column:
    """The column of a field the specification does not list (a few per space)."""
    return Column(key, key, ValueKind.ANY, extra=True)


_KNOWN_COLUMNS = {key: Column(key, key, kind) for key, kind in KNOWN_FIELDS} | {
    EMAILS_KEY: Column(EMAILS_KEY, EMAILS_KEY, ValueKind.EMAILS)
}
_KNOWN_SORT_VALUES = tuple((key, _KNOWN_COLUMNS[key].sort_value) for key in SORTED_KEYS)
