"""Writing a new copy of a space: a generation of its own, made current in one step.

Cards are kept as JSON the API's parser reads back to the same `Card` (`card_json`),
beside what the window's filter and sort need, worked out once per card when it is
written: the folded search text (`card_search_text`, also in a trigram index) and a
sort key per field (`card_sort_keys`, `store_sort_keys`). Only `StoreSync.finish`
makes the copy current; until then the copy shown stays as it was.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cardviewer.api.models import Card, WrongTypes, parse_card
from cardviewer.services.card_columns import EMAILS_KEY
from cardviewer.services.card_order import SORTED_KEYS, card_sort_keys
from cardviewer.services.card_search import card_search_text, storable
from cardviewer.services.store_rows import insert_rows
from cardviewer.services.store_schema import (
    BUSY_TIMEOUT_MS,
    Generation,
    StoreError,
    StoreProblem,
    connect_store,
    drop_unused,
    drop_unused_search,
    utc_now_text,
    write_transaction,
)
from cardviewer.services.store_sort_keys import (
    FOLDED,
    FirstPlace,
    TextKey,
    add_empty_keys,
    folded_text_key,
    index_sort_keys,
    rank_generation_texts,
    stored_sort_key,
)
from cardviewer.services.sync_lock import SyncLock, lock_path

log = logging.getLogger(__name__)

SYNC_BUSY_TIMEOUT_MS = 60_000
"""How long a sync's writes wait for another program's: another sync ranks its copy,
or drops the copy before, in one transaction, 8 to 25 s at 100,000 cards. The window's
reads wait `BUSY_TIMEOUT_MS`; a sync runs off the window's thread, and a sync that
gave up after 5 s had every page fetched for nothing."""

SYNCED_MEANWHILE = (
    "Another program synced this space meanwhile and its copy is kept; this one was not written."
)


def card_json(card: Card) -> str:
    """The card as JSON that `parse_card` reads back to the same card, odd values included."""
    raw: dict[str, Any] = card.model_dump(mode="json")
    if card.emails is None:
        # Not asked for: the API leaves the key out, and `null` would read as "none".
        del raw[EMAILS_KEY]
    raw.update(card.invalid_fields)  # as the server sent them, to be set aside again
    return _CARD_JSON.encode(raw)


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


_CARD_JSON = json.JSONEncoder(separators=(",", ":"), default=_plain)
"""Made once (`json.dumps` with options builds one at every call). ASCII: a lone
surrogate the server escaped stays an escape, which SQLite can keep."""


@dataclass(frozen=True)
class Written:
    """How far the cards of an unfinished sync are written (`StoreSync.written`)."""

    count: int
    first_positions: Mapping[str, FirstPlace]
    """Each field the cards have: the first card to have it, and its place there."""
    prepared: str | None = None
    """The collation the texts are ranked under and indexed for (`StoreSync.prepare`)."""


class StoreSync:
    """Cards written into a generation of their own, made current in one step at the end."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        generation: int,
        *,
        with_emails: bool = False,
        beside_threads: bool = True,
        lock: SyncLock | None = None,
    ) -> None:
        self._db = connection
        self._lock = lock
        """Held while this sync may still write (`sync_lock`): the process that began it."""
        self.generation = generation
        self.with_emails = with_emails
        self._beside_threads = beside_threads
        """Other threads may be busy in Python meanwhile (`insert_rows`)."""
        self.count = 0
        self._first_positions: dict[str, FirstPlace] = {}
        """Each field the cards written have: the first card to have it, its place there."""
        self._prepared: str | None = None
        self._done = False
        self._wrong_types = WrongTypes()
        """Values of the wrong type in the cards sent: logged once, as the copy is made."""

    @classmethod
    def reopen(
        cls, path: Path, generation: int, *, with_emails: bool = False, beside_threads: bool = True
    ) -> StoreSync:
        """The sync `generation` of the store at `path`, on a connection of its own.

        For writing its cards from another process; `close()` when done. Raises
        `sqlite3.Error` when the store cannot be opened. `beside_threads=False` where
        no other thread is busy in Python meanwhile: rows are then written the way that
        is quicker alone (`insert_rows`).
        """
        connection = connect_store(path, create=False)
        wait_as_a_sync(connection)
        return cls(connection, generation, with_emails=with_emails, beside_threads=beside_threads)

    def close(self) -> None:
        """Close the connection of a `reopen`ed sync."""
        self._db.close()

    @property
    def written(self) -> Written:
        """The cards added so far, for the sync's own connection to `adopt`."""
        return Written(self.count, dict(self._first_positions), self._prepared)

    def adopt(self, written: Written) -> None:
        """Take `written` as added here: another connection wrote the cards (`reopen`)."""
        self.count = written.count
        self._first_positions = dict(written.first_positions)
        self._prepared = written.prepared

    def add_sent(self, sent: Iterable[Mapping[str, Any]]) -> None:
        """`add` the cards `sent`, each as the server sent it (`CardPage.sent_cards`).

        They are read (`parse_card`) here, by whoever writes: a sync's writing process
        reads them, not the window's thread.
        """
        cards = [parse_card(item) for item in sent]
        self._wrong_types.note(cards)
        self.add(cards)

    def add(self, cards: Iterable[Card]) -> None:
        """Write `cards` after those added so far (one transaction; the copy shown stays).

        Each is kept as `card_json` writes it, not as it was sent: a sync tells a card
        changed by its text (`changes`), and the server's order of keys is no change.
        """
        batch = list(cards)
        positions = range(self.count, self.count + len(batch))
        rows = [
            (position, storable(card.uuid or ""), card_json(card))
            for position, card in zip(positions, batch, strict=True)
        ]
        texts = [
            (position, card_search_text(card))
            for position, card in zip(positions, batch, strict=True)
        ]
        keys = [
            (field, position, *stored_sort_key(kind, value))
            for position, card in zip(positions, batch, strict=True)
            for field, (kind, value) in card_sort_keys(card)
        ]

        def insert(table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
            insert_rows(
                self._db,
                table,
                ("generation", *columns),
                rows,
                shared=(self.generation,),
                beside_threads=self._beside_threads,
            )

        with write_transaction(self._db):
            insert("cards", ("position", "uuid", "json"), rows)
            for table in ("card_text", "card_search"):
                insert(table, ("position", "text"), texts)
            insert("sort_keys", ("field", "position", "kind", "value", "text"), keys)
        if batch and not self._first_positions:
            self._first_positions = dict.fromkeys(SORTED_KEYS, (self.count, 0))
        for position, card in zip(positions, batch, strict=True):
            # In the order the card's JSON has them, as a page's columns come.
            for place, field in enumerate(card.model_extra or ()):
                self._first_positions.setdefault(field, (position, place))
        self.count += len(rows)

    def finish(
        self, text_key: TextKey = folded_text_key, collation: str = FOLDED, *, tidy: bool = True
    ) -> Generation:
        """Make this copy the current one; the one before becomes the previous one.

        Its texts are ranked under `collation` first and its sort keys indexed
        (`prepare`, unless done already), while the copy before is still the one
        shown. Raises `StoreError` if a sync begun later by another program finished
        first: it took this copy for one left behind by a crash, and its own copy
        stays the current one.

        The copy no longer needed is then dropped (`tidy`), in a transaction of its
        own: 10 to 25 s at 100,000 cards, which the new copy need not wait for.
        `tidy=False` leaves that to the caller (the window shows the new copy first).
        """
        if self._prepared != collation:
            self.prepare(text_key, collation)
        synced_at = utc_now_text()
        with write_transaction(self._db):
            written = self._db.execute(
                "UPDATE generations SET synced_at = ?, card_count = ? WHERE id = ?",
                (synced_at, self.count, self.generation),
            ).rowcount
            current = self._db.execute("SELECT value FROM state WHERE key = 'current'").fetchone()
            if not written or self._newer_copy_current():
                # A sync begun later by another program finished first: its copy is
                # newer, whether or not it has dropped this one yet.
                raise StoreError(SYNCED_MEANWHILE, StoreProblem.OVERTAKEN)
            if current is not None:
                self._db.execute(
                    "INSERT OR REPLACE INTO state (key, value) VALUES ('previous', ?)", current
                )
            self._db.execute(
                "INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)",
                (self.generation,),
            )
        self._done = True
        self._release()
        if tidy:
            try:
                self.tidy()
            except sqlite3.Error as error:  # the copy is current all the same
                log.warning("the copies no longer needed stay until the next sync: %s", error)
        return Generation(
            self.generation, datetime.fromisoformat(synced_at), self.count, self.with_emails
        )

    def _newer_copy_current(self) -> bool:
        """The current copy is there, complete, and of a sync begun after this one."""
        (newer,) = self._db.execute(
            "SELECT EXISTS (SELECT 1 FROM state s JOIN generations g ON g.id = s.value"
            " WHERE s.key = 'current' AND g.synced_at IS NOT NULL AND g.id > ?)",
            (self.generation,),
        ).fetchone()
        return bool(newer)

    def dropped_meanwhile(self) -> bool:
        """Whether this copy, unfinished, is gone: a sync begun later by another program
        finished first, took it for one a crash left behind, and dropped it."""
        row = self._db.execute(
            "SELECT NOT EXISTS (SELECT 1 FROM generations WHERE id = ?)", (self.generation,)
        ).fetchone()
        return bool(row[0])

    def tidy(self) -> None:
        """Drop the copies no copy needs any more, and the rows of syncs a crash cut
        short (`drop_unused`): after `finish`, on the sync's own connection."""
        tidy_connection(self._db)

    def prepare(self, text_key: TextKey, collation: str) -> None:
        """What `finish` does before it makes the copy current, done ahead, in one
        transaction: an empty sort key for each card without a field that others have,
        the texts ranked under `collation` (`CardStore.rank_texts`), the keys indexed.

        Seconds at 100,000 cards: the process that wrote the cards does it, so that
        the window's process is free meanwhile.
        """
        (_, _, file) = self._db.execute("PRAGMA database_list").fetchone()
        self._wrong_types.tell(f"the sync of {Path(file).name}")  # the space's id, .sqlite
        with write_transaction(self._db):
            add_empty_keys(self._db, self.generation, self._first_positions)
            rank_generation_texts(
                self._db, self.generation, text_key, collation, self._first_positions
            )
            index_sort_keys(self._db, self.generation)
        self._prepared = collation

    def abandon(self) -> None:
        """Drop what was written; the copy shown stays as it was."""
        if self._done:
            return
        # Called off (Cancel, quitting): no minute's wait for another program's write.
        # Not dropped now, the rows go with the next sync.
        self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        try:
            with write_transaction(self._db):
                self._db.execute("DELETE FROM generations WHERE id = ?", (self.generation,))
                drop_unused_search(self._db)
        finally:  # not dropped (the disk full, say): the next sync to begin drops it
            self._release()
        self._done = True

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()


def wait_as_a_sync(connection: sqlite3.Connection) -> None:
    """Have `connection`'s writes wait for another program's as a sync's do."""
    connection.execute(f"PRAGMA busy_timeout = {SYNC_BUSY_TIMEOUT_MS}")


def tidy_connection(connection: sqlite3.Connection) -> None:
    """`drop_unused` in a write transaction of its own: what a finished sync leaves."""
    with write_transaction(connection):
        drop_unused(connection)


def tidy_store(path: Path) -> None:
    """`tidy_connection` on a connection of its own to the store at `path`."""
    connection = connect_store(path, create=False)
    try:
        wait_as_a_sync(connection)
        tidy_connection(connection)
    finally:
        connection.close()


def holds_only_ended_syncs(db: sqlite3.Connection, path: Path) -> bool:
    """No complete copy in the store at `path`, and no sync writing one: what is left are
    the rows of syncs that ended unfinished (a first sync the disk filled up could not
    drop its own). False where that is not known."""
    query = "SELECT id, synced_at IS NOT NULL FROM generations ORDER BY id"
    rows = db.execute(query).fetchall()
    if any(complete for _number, complete in rows):
        return False
    ended: list[SyncLock] = []
    try:
        for number, _complete in rows:
            lock = SyncLock.take(lock_path(path, number))
            if lock is None:
                return False  # another sync writes it
            ended.append(lock)
        # A sync finishes before it lets go of its lock: one that finished, or began,
        # between the first read and the locks shows in a second read.
        return db.execute(query).fetchall() == rows
    except OSError as error:  # a lock file that cannot be made: not known
        log.debug("whether the syncs of %s have ended is not known: %s", path, error)
        return False
    finally:
        for lock in ended:
            lock.release()


def drop_ended_syncs(db: sqlite3.Connection, path: Path) -> None:
    """Drop the unfinished generations of the store at `path` that no sync writes any
    more (`sync_lock`), in the transaction `db` is in."""
    unfinished = db.execute("SELECT id FROM generations WHERE synced_at IS NULL")
    ended_locks: list[SyncLock] = []
    try:
        for (number,) in unfinished.fetchall():
            ended = SyncLock.take(lock_path(path, number))
            if ended is None:
                continue  # another sync writes it
            ended_locks.append(ended)
            log.info("dropping the rows of sync %d of %s, which ended unfinished", number, path)
            db.execute("DELETE FROM generations WHERE id = ?", (number,))
        if ended_locks:  # one pass over the search texts for all of them
            drop_unused_search(db)
    finally:
        # Let go of them also where dropping failed (a full disk): held on to, the
        # window's process would take them for syncs still written, and keep their rows.
        for ended in ended_locks:
            ended.release()
