"""A space at a glance: how many cards, how they are used, and when they came.

Worked out in one pass over the cards, keeping only counts and ten cards a list, so a
space of 100,000 cards read from its local copy costs the time to read it, not memory.
Months are the reader's (local time), as the table shows dates.
"""

from __future__ import annotations

import heapq
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from cardviewer.api.models import Card
from cardviewer.services.card_export import stored_cards
from cardviewer.services.card_store import CardStore
from cardviewer.services.stoppable import Painted

TOP = 10
"""Cards in each of the overview's lists."""


@dataclass(frozen=True)
class RankedCard:
    """A card in one of the lists, by name, with the number or time it is ranked by."""

    name: str
    uuid: str
    value: int | datetime


@dataclass(frozen=True)
class SpaceOverview:
    """The figures of the overview window."""

    cards: int
    public: int
    """Cards marked public; `private` are marked not public, the rest say neither."""
    private: int
    with_emails: int | None
    """Cards with an e-mail address; None when the addresses were not loaded."""
    per_month: list[tuple[date, int]]
    """Cards created each month (its first day), every month from the first to the last."""
    most_connects: list[RankedCard]
    most_connected: list[RankedCard]
    recently_updated: list[RankedCard]


Entry = tuple[Any, int, RankedCard]
"""What a list keeps of a card: the value ranked by, the card's place (negated), the card."""


def space_overview(cards: Iterable[Card], *, with_emails: bool) -> SpaceOverview:
    """The overview of `cards`, read once, in any order."""
    count = public = private = emails = 0
    months: Counter[tuple[int, int]] = Counter()
    connects: list[Entry] = []
    connected: list[Entry] = []
    updated: list[Entry] = []
    for count, card in enumerate(cards, start=1):
        if card.public is True:
            public += 1
        elif card.public is False:
            private += 1
        if card.emails:
            emails += 1
        if card.created_at is not None:
            local = card.created_at.astimezone()
            months[(local.year, local.month)] += 1
        # The count breaks ties: of equal values, the card listed first comes first.
        if card.connects is not None:
            _keep(connects, (card.connects, -count, _ranked(card, card.connects)))
        if card.connected_cards is not None:
            value = card.connected_cards
            _keep(connected, (value, -count, _ranked(card, value)))
        if card.updated_at is not None:
            _keep(updated, (card.updated_at, -count, _ranked(card, card.updated_at)))
    return SpaceOverview(
        cards=count,
        public=public,
        private=private,
        with_emails=emails if with_emails else None,
        per_month=_every_month(months),
        most_connects=_best(connects),
        most_connected=_best(connected),
        recently_updated=_best(updated),
    )


def _ranked(card: Card, value: int | datetime) -> RankedCard:
    return RankedCard(card.display_name or "", card.uuid or "", value)


def _keep(heap: list[Entry], entry: Entry) -> None:
    """Keep `entry` if it is among the `TOP` largest so far (`heap` holds the smallest)."""
    if len(heap) < TOP:
        heapq.heappush(heap, entry)
    elif entry[:2] > heap[0][:2]:
        heapq.heapreplace(heap, entry)


def _best(heap: list[Entry]) -> list[RankedCard]:
    return [entry[2] for entry in sorted(heap, key=lambda entry: entry[:2], reverse=True)]


def _every_month(months: Counter[tuple[int, int]]) -> list[tuple[date, int]]:
    if not months:
        return []
    (year, month), last = min(months), max(months)
    every = []
    while (year, month) <= last:
        every.append((date(year, month, 1), months[(year, month)]))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return every


def overview_of_copy(
    path: Path, *, stop: threading.Event | None = None, painted: Painted | None = None
) -> tuple[SpaceOverview, datetime | None]:
    """The overview of every card of the local copy at `path`, and when it was synced
    (None, with no cards, before its first sync); read a block at a time, `stop` and
    `painted` as `stored_cards` takes them."""
    with CardStore.open(path, create=False) as store:
        generation = store.current
        if generation is None:
            return space_overview((), with_emails=False), None
        cards = stored_cards(store, range(generation.card_count), stop=stop, painted=painted)
        return space_overview(cards, with_emails=generation.with_emails), generation.synced_at
