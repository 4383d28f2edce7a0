"""Sorting and filtering a local copy of a space on a thread of its own; the newest wins.

A sort or filter over 100,000 cards takes SQLite tens of milliseconds, which the window
must not wait for. `SpaceQueries` runs them one at a time on a worker thread with its
own connection to the store (WAL lets it read while the window reads rows). Each query
is answered twice: first rows (`FIRST_ROWS`, usually within a millisecond), then, after
`FULL_AFTER`, every matching position. A query asked for while another runs interrupts
it and replaces any still waiting, and an answer for anything but the newest query is
never delivered.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cardviewer.api.models import Card
from cardviewer.services.card_store import CardStore
from cardviewer.services.store_copies import Change
from cardviewer.services.store_schema import Generation, StoreError, is_in_use
from cardviewer.services.store_search import indexed_words
from cardviewer.services.store_sort_keys import FOLDED, text_key_for

log = logging.getLogger(__name__)

FIRST_ROWS = 64
"""Rows answered first: more than a tall window shows (some 47 rows of 40 pixels on a
screen 2,160 pixels high). A word too short for the trigram index, or one many cards
hold, is looked for card by card in the order shown until so many match: at 100,000
cards, a key found in one card of twenty took 17 ms for 200 rows, 6 ms for 64."""
FIRST_WITHIN = 0.03
"""How long the first rows may take before the whole answer is awaited instead (seconds)."""
FIRST_WALK = 0.01
"""How long the first rows of a common word long enough for the trigram index are
walked to before its whole answer is looked up there instead (seconds)."""
CACHE_BYTES = 64 * 2**20
"""The worker's share of the copy kept in memory: the search texts (13 MB at 100,000
cards), the trigram index's copy of them for the copy shown and the one before it
(12 MB each, `CardStore.warm_for_search`), and the sort orders and index read lately."""
FIRST_CARDS = 32
"""Cards of the first rows read with an answer that shows new rows: the window paints
them at once, and reading them (from the disk, for a copy not read lately) is the
worker's wait, not the window's."""
FULL_AFTER = 0.05
"""The whole answer waits this long after the first rows (seconds): the window paints
them meanwhile without competing for the processor, and a key typed meanwhile saves
the work."""
STALE_STEPS = 100_000
"""SQLite's steps between two looks at whether a newer query came while a whole answer
is made (4 to 14 ms of work at 100,000 cards; a single step can take longer, such as
sorting 96,000 matches, 55 ms): `ask` interrupts the statement running, and a query
asked between two statements would otherwise run to its end."""
IN_USE_TRIES = 6
"""How often a query waits for a store another program writes (5 s each, the store's
busy timeout): a sync's last step ranks and indexes its copy in one transaction, up to
15 s at 100,000 cards, and a sort in another language must write its ranks first."""


@dataclass(frozen=True)
class SpaceQuery:
    """Which cards, in which order: the field to sort by (None: the space's order)."""

    field: str | None = None
    descending: bool = False
    terms: tuple[str, ...] = ()
    """Folded words every card shown contains (`search_terms`)."""
    change: Change | None = None
    """Only the cards the last sync added, changed or removed (read from the copy before)."""
    generation: Generation | None = None
    """The copy asked about (None: the current one), kept to while a newer one is made."""

    @property
    def in_space_order(self) -> bool:
        """Every card in the space's order: no sort or filter to ask SQLite for."""
        return self.field is None and not self.terms and self.change is None


@dataclass(frozen=True)
class SpaceAnswer:
    """Positions in the store for query `number`: the first rows, or all (`complete`)."""

    number: int
    positions: Sequence[int]
    complete: bool
    failure: str | None = None
    """Why the store could not answer, for the log (then `positions` is empty)."""
    cards: Mapping[int, Card] = field(default_factory=dict, compare=False)
    """The cards at the first `FIRST_CARDS` positions, by position, read on the worker;
    empty where they could not be read (the window reads them itself then)."""
    change_count: int | None = None
    """Of a complete answer to a query with a `change`: how many cards that change picks,
    filtered or not (what "3 of 12 shown" counts against)."""


Deliver = Callable[[SpaceAnswer], None]
"""Receives answers on the worker thread; the window passes them on to its own."""


class SpaceQueries:
    """One worker thread answering the sorts and filters of one store; close when done.

    Texts sort under the collation named `collation` (`text_key_for`). While no query
    waits, the worker reads what filters read of the copy `shown` into memory: by
    default the current one; None, no copy (none is shown).
    """

    def __init__(
        self,
        path: Path,
        deliver: Deliver,
        *,
        collation: str = FOLDED,
        shown: Generation | Literal["current"] | None = "current",
    ) -> None:
        self._path = path
        self._deliver = deliver
        self._shown = shown
        self._text_key = text_key_for(collation)
        self._collation = collation
        self._wake = threading.Condition()
        self._waiting: tuple[int, SpaceQuery] | None = None
        self._newest = 0
        self._running: CardStore | None = None
        """The worker's store while it answers a query, to interrupt it for a newer one."""
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="space queries", daemon=True)
        self._thread.start()

    def ask(self, query: SpaceQuery) -> int:
        """Answer `query` instead of any earlier one; returns the number its answers carry."""
        with self._wake:
            self._newest += 1
            self._waiting = (self._newest, query)
            if self._running is not None:
                self._running.interrupt()  # its answer would be dropped anyway
            self._wake.notify()
            return self._newest

    def close(self) -> None:
        """Stop the worker after the query it is on; nothing more is delivered."""
        with self._wake:
            self._closed = True
            self._waiting = None
            if self._running is not None:
                self._running.interrupt()
            self._wake.notify()
        self._thread.join()

    def _next(self, store: CardStore | None) -> tuple[int, SpaceQuery] | None:
        with self._wake:
            self._running = None
            while self._waiting is None and not self._closed:
                self._wake.wait()
            if self._closed:
                return None
            waiting, self._waiting = self._waiting, None
            self._running = store
            return waiting

    def _is_stale(self, number: int) -> bool:
        with self._wake:
            return self._is_stale_locked(number)

    def _newer_within(self, number: int, seconds: float) -> bool:
        """Wait up to `seconds` for a query newer than `number`; True if one came."""
        with self._wake:
            return self._wake.wait_for(lambda: self._is_stale_locked(number), seconds)

    def _is_stale_locked(self, number: int) -> bool:
        return self._closed or number != self._newest

    def _send(self, answer: SpaceAnswer) -> None:
        if not self._is_stale(answer.number):
            self._deliver(answer)

    def _run(self) -> None:
        try:
            store = CardStore.open(self._path, create=False)
        except (StoreError, sqlite3.Error, OSError) as error:
            log.warning("the local copy %s cannot be read for sorting: %s", self._path, error)
            store = None
        try:
            warm_from: int | None = None
            if store is not None:
                store.keep_in_memory(CACHE_BYTES)
                warm_from = 0 if self._shown is not None else None
            while True:
                if warm_from is not None and store is not None:
                    warm_from = self._warm(store, warm_from)
                if (job := self._next(store)) is None:
                    break
                number, query = job
                if store is None:
                    self._send(SpaceAnswer(number, [], True, "the store cannot be opened"))
                    continue
                self._answer(store, number, query)
        finally:
            if store is not None:
                store.close()

    def _warm(self, store: CardStore, start: int) -> int | None:
        """Read what filters need into memory, part by part while no query waits; where
        to go on from once the query that came is answered, or None when all is read.

        The window asks for its first rows as it opens a copy, so most of the reading
        comes after that first answer, before the first key is typed.
        """
        at: int | None = start
        shown = None if self._shown == "current" else self._shown  # None: the current copy
        try:
            while at is not None:
                with self._wake:
                    if self._waiting is not None or self._closed:
                        return at
                at = store.warm_for_search(at, generation=shown)
        except sqlite3.Error as error:
            if at is not None and self._is_asked():
                return at  # interrupted by a query asked meanwhile: this part again after it
            log.debug("warming the local copy %s failed: %s", self._path, error)
        return None

    def _is_asked(self) -> bool:
        """A query waits to be answered, or the worker is closing."""
        with self._wake:
            return self._waiting is not None or self._closed

    def _answer(self, store: CardStore, number: int, query: SpaceQuery, waits: int = 0) -> None:
        """Answer `query`; `waits`: how often it has waited for the store already."""
        try:
            if query.in_space_order:
                generation = query.generation or store.current
                count = generation.card_count if generation is not None else 0
                self._send(SpaceAnswer(number, range(count), True))
                return
            field = query.field
            ranks = field is not None and store.needs_ranking(
                self._collation, field, query.generation
            )
            if ranks and not waits:  # sent once, not again after each wait for the store
                self._send_unsorted(store, number, query)
                if self._is_stale(number):
                    return
            options: dict[str, Any] = {
                "descending": query.descending,
                "terms": query.terms,
                "text_key": self._text_key,
                "collation": self._collation,
                "change": query.change,
                "generation": query.generation,
            }
            within = FIRST_WALK if indexed_words(query.terms) else FIRST_WITHIN
            first = store.first_ordered(query.field, within=within, limit=FIRST_ROWS, **options)
            if first is not None:
                cards = _first_cards(store, first, query.generation)
                complete = len(first) < FIRST_ROWS
                changed = _change_count(store, query) if complete else None
                self._send(SpaceAnswer(number, first, complete, cards=cards, change_count=changed))
                if len(first) < FIRST_ROWS or self._newer_within(number, FULL_AFTER):
                    return
            if self._is_stale(number):
                return
            with store.given_up_when(lambda: self._is_stale(number), STALE_STEPS):
                every = store.ordered(query.field, **options)
            # After first rows, only rows below them come: their cards are read as shown.
            cards = _first_cards(store, every, query.generation) if first is None else {}
            changed = _change_count(store, query)
            self._send(SpaceAnswer(number, every, True, cards=cards, change_count=changed))
        except (sqlite3.Error, ValueError) as error:  # ValueError: a text SQLite refused
            if self._is_stale(number):
                return  # interrupted for a newer query
            if isinstance(error, sqlite3.Error) and is_in_use(error) and waits + 1 < IN_USE_TRIES:
                log.info("the local copy %s is in use (%s); sorting again", self._path, error)
                self._answer(store, number, query, waits + 1)
                return
            log.warning("sorting the local copy %s failed: %s", self._path, error)
            self._send(SpaceAnswer(number, [], True, str(error)))

    def _send_unsorted(self, store: CardStore, number: int, query: SpaceQuery) -> None:
        """The cards `query` picks, in the space's order, before its sort: that must first
        rank the texts of the field sorted in the reader's language (a few seconds at
        100,000 cards), and a view of the cards a sync changed showed none meanwhile."""
        unsorted: Sequence[int]
        if not query.terms and query.change is None:  # every card: as shown before a sort
            generation = query.generation or store.current
            unsorted = range(generation.card_count if generation is not None else 0)
        else:
            unsorted = store.ordered(
                None, terms=query.terms, change=query.change, generation=query.generation
            )
        cards = _first_cards(store, unsorted, query.generation)
        self._send(SpaceAnswer(number, unsorted, False, cards=cards))


def _first_cards(
    store: CardStore, positions: Sequence[int], generation: Generation | None
) -> Mapping[int, Card]:
    """The cards of the first rows of an answer; none if they cannot be read here."""
    try:
        return store.cards_at(positions[:FIRST_CARDS], generation)
    except (sqlite3.Error, ValueError) as error:  # a damaged row: the window tells it
        log.debug("the first cards of an answer were not read: %s", error)
        return {}


def _change_count(store: CardStore, query: SpaceQuery) -> int | None:
    """How many cards the query's change picks, unfiltered; None for a query without one."""
    if query.change is None:
        return None
    return store.change_count(query.change, query.generation)
