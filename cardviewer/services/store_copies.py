"""The copies of a space kept in its local store, and what changed from one to the next.

A sync writes a new copy (a *generation*) and makes it current in one step; the copy
before it is kept, so that the app can say what the sync added, removed and changed,
by card id and content (`changes()`), and show each of those alone (`Change`). The
copy a file of changes was last written from is kept too (`mark_changes_file`), so the
next file says what changed since, whatever synced meanwhile. `CardStore` is these
copies, read, sorted and filtered.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_columns import EMAILS_KEY
from cardviewer.services.stoppable import check
from cardviewer.services.store_content import CARD_CONTENT
from cardviewer.services.store_schema import (
    CHANGES_FILE_COPY,
    Generation,
    drop_unused,
    write_transaction,
)

MAX_VALUES = 10_000
"""Positions asked for in one statement (SQLite allows 32,766 values)."""


@dataclass(frozen=True)
class Changes:
    """What a sync changed, by card id: new cards, cards gone, cards whose content differs."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]
    emails_dropped: bool = False
    """The copy before held the cards' e-mail addresses, this one does not: a sync
    without them (the addresses count as a change only where both copies have them)."""
    emails_added: bool = False
    """This copy holds the addresses, the one before did not: no card is changed for them."""

    @property
    def any(self) -> bool:
        return bool(self.added or self.removed or self.changed)


class Change(Enum):
    """Which of the last sync's changes a view of the copy keeps (`CardStore.ordered`)."""

    ADDED = "added"
    CHANGED = "changed"
    REMOVED = "removed"
    """Cards of the copy before that the last sync did not bring again: read from it."""


# A card is looked for in the other copy by its id. One without an id (stored as '')
# cannot be followed from one sync to the next: the same content there (in any order
# of keys) is the same card, and any other content a card added, or removed, but never
# one changed.
# The id alone is read from the index; of cards without one, the other copy's contents
# once, into a lookup SQLite makes for the `IN` (not a walk of them for each card).
_NOT_IN_THE_OTHER = (
    "CASE WHEN n.uuid <> '' THEN NOT EXISTS (SELECT 1 FROM cards o INDEXED BY cards_by_uuid"
    " WHERE o.generation = :other AND o.uuid = n.uuid)"
    " WHEN {n_same} IN (SELECT {o_same} FROM cards o INDEXED BY cards_by_uuid"
    " WHERE o.generation = :other AND o.uuid = '') THEN 0"
    " ELSE {n} NOT IN (SELECT {o} FROM cards o INDEXED BY cards_by_uuid"
    " WHERE o.generation = :other AND o.uuid = '' AND {o_same} NOT IN (SELECT {h_same}"
    " FROM cards h INDEXED BY cards_by_uuid WHERE h.generation = :chosen AND h.uuid = ''))"
    " END"
)
_CONTENT_WITHOUT_EMAILS = (
    f"CASE WHEN json_valid({{card}}.json) THEN json_remove({{card}}.json, '$.{EMAILS_KEY}')"
    " ELSE {card}.json END"
)
"""A card's content, its keys in the order kept, as compared where not both copies
have the e-mail addresses. Cards without an id are first looked for so, as they are
kept; only those found in neither copy so are compared blind to the order of keys
(`card_content`, a call into Python each: 6 s for 100,000 cards)."""
# Changed: the id is in the other copy, but the cards of that id there are not those
# here. Mostly one card on each side, found by its id: changed where its content
# differs. A server may send two cards with one id; each is then looked for among the
# other copy's cards of its id. Where that copy had more of them, and one is no longer
# here while every card of the id here was there, those here are changed: else a card
# whose twin went would not be, and a file of changes would leave the twin's content
# with a program keeping cards by id.
# The content is compared blind to the order of keys (`card_content`), where the JSON
# differs. The e-mail addresses count only where both copies asked for them: one copy
# with them and the other without (a window including them, a nightly `cardviewer
# sync` not) made every card changed, and so did the `"emails": null` of copies an
# older version wrote.
_SAME_CARD = (
    f"({{a}}.json = {{b}}.json"
    f" OR {CARD_CONTENT}({{a}}.json, {{emails}}) = {CARD_CONTENT}({{b}}.json, {{emails}}))"
)
_OF_ITS_ID = "cards {card} INDEXED BY cards_by_uuid WHERE {card}.generation = {copy}"
_CHANGED = (
    "n.uuid <> '' AND CASE (SELECT COUNT(*) FROM (SELECT 1 FROM {o_of_its_id}"
    " AND o.uuid = n.uuid LIMIT 2))"
    " WHEN 0 THEN 0"
    " WHEN 1 THEN NOT EXISTS (SELECT 1 FROM {o_of_its_id} AND o.uuid = n.uuid AND {n_is_o})"
    " ELSE NOT EXISTS (SELECT 1 FROM {o_of_its_id} AND o.uuid = n.uuid AND {n_is_o})"
    " OR (EXISTS (SELECT 1 FROM {o_of_its_id} AND o.uuid = n.uuid AND NOT EXISTS"
    " (SELECT 1 FROM {h_of_its_id} AND h.uuid = n.uuid AND {h_is_o}))"
    " AND NOT EXISTS (SELECT 1 FROM {h_of_its_id} AND h.uuid = n.uuid AND NOT EXISTS"
    " (SELECT 1 FROM {o_of_its_id} AND o.uuid = n.uuid AND {h_is_o}))) END"
)


CHANGE_ORDER = (Change.ADDED, Change.REMOVED, Change.CHANGED)
"""The order of `Changes`, of a sync's note and of a file of changes."""


def change_query(change: Change, column: str = "uuid", *, emails: bool = True) -> str:
    """The cards of the copy `:chosen` that `change` picks against the copy `:other`
    (`column` of each, in the space's order); `emails=False` unless both have the
    e-mail addresses.

    Each card of one copy is looked up in the other by its id (`cards_by_uuid`), named
    here: without statistics SQLite chose to walk the other copy's cards for each card,
    which for two copies of 100,000 cards did not end in half an hour.
    """
    with_emails = int(emails)
    if change is Change.CHANGED:
        condition = _CHANGED.format(
            o_of_its_id=_OF_ITS_ID.format(card="o", copy=":other"),
            h_of_its_id=_OF_ITS_ID.format(card="h", copy=":chosen"),
            n_is_o=_SAME_CARD.format(a="o", b="n", emails=with_emails),
            h_is_o=_SAME_CARD.format(a="o", b="h", emails=with_emails),
        )
    else:  # the removed: the copy before read, the current one the other
        condition = _NOT_IN_THE_OTHER.format(
            n_same="n.json" if emails else _CONTENT_WITHOUT_EMAILS.format(card="n"),
            o_same="o.json" if emails else _CONTENT_WITHOUT_EMAILS.format(card="o"),
            h_same="h.json" if emails else _CONTENT_WITHOUT_EMAILS.format(card="h"),
            n=f"{CARD_CONTENT}(n.json, {with_emails})",
            o=f"{CARD_CONTENT}(o.json, {with_emails})",
        )
    return (
        f"SELECT n.{column} FROM cards n WHERE n.generation = :chosen"
        f" AND {condition} ORDER BY n.position"
    )


def rows_in(
    db: sqlite3.Connection,
    query: str,
    generation: int | tuple[int, ...],
    values: Sequence[object],
) -> Iterator[tuple[Any, ...]]:
    """The rows of `query`, ending in `IN`, for `generation` (the values of the marks
    before `IN`) and each of `values`, asked in parts no larger than SQLite takes."""
    leading = generation if isinstance(generation, tuple) else (generation,)
    for start in range(0, len(values), MAX_VALUES):
        chunk = values[start : start + MAX_VALUES]
        marks = ",".join("?" * len(chunk))
        yield from db.execute(f"{query} ({marks})", (*leading, *chunk))


_CHANGES_FILE_FIELDS = (
    "CREATE TABLE IF NOT EXISTS changes_file_fields "
    "(place INTEGER PRIMARY KEY, field TEXT NOT NULL)"
)
"""The order of the last file of changes' columns of unknown fields."""


class StoreCopies:
    """The copies of one store, and the changes between them; the base of `CardStore`,
    which opens the connection."""

    _db: sqlite3.Connection
    _changed_tables: set[str]
    """The temporary tables of cards a change picks, made on this connection (`_changed`)."""

    @property
    def current(self) -> Generation | None:
        """The copy shown: the last complete sync; None before the first one."""
        return self._generation(self._state("current"))

    @property
    def previous(self) -> Generation | None:
        """The complete copy before the current one, to compare with."""
        return self._generation(self._state("previous"))

    def kept_copy(self, number: int) -> Generation | None:
        """The complete copy numbered `number`, if it is still kept (newer syncs remove
        the copies before the last two, but for the last file of changes' copy)."""
        return self._generation(number)

    def changes(self) -> Changes | None:
        """What the last sync changed since the one before; None before a second sync."""
        new, old = self.current, self.previous
        if new is None or old is None:
            return None
        added, removed, changed = (
            tuple(self.changed_between(change, new, old, "uuid")) for change in CHANGE_ORDER
        )
        return Changes(
            added=added,
            removed=removed,
            changed=changed,
            emails_dropped=old.with_emails and not new.with_emails,
            emails_added=new.with_emails and not old.with_emails,
        )

    def change_count(self, change: Change, generation: Generation | None = None) -> int:
        """How many cards of a copy (default: the current one) `change` picks (`ordered`)."""
        chosen = generation or self.current
        table = self._changed_table(chosen.id, change) if chosen is not None else None
        if table is None:
            return 0
        (count,) = self._db.execute(f"SELECT count(*) FROM temp.{table}").fetchone()
        return int(count)

    def _changed_table(self, chosen: int, change: Change) -> str | None:
        """The table of the cards of copy `chosen` that `change` picks (`_changed`); None
        where there is no copy to compare it with (as `changes()` says)."""
        current, previous = self.current, self.previous
        if current is None or previous is None:
            return None
        if change is Change.REMOVED:
            other = current.id if chosen == previous.id else None
        else:
            other = previous.id if chosen == current.id else None
        return None if other is None else self._changed(chosen, other, change)

    def _changed(self, chosen: int, other: int, change: Change) -> str:
        """A temporary table of the cards of copy `chosen` that `change` picks against
        copy `other`, made once while the store is open.

        Comparing two copies of 100,000 cards card by card takes about half a second;
        each later sort or filter key of the same view then reads the table. A copy does
        not change once made, and its number is not used again while it is kept.
        """
        table = f"changed_{change.value}_{int(chosen)}_{int(other)}"
        if table not in self._changed_tables:
            self._db.execute(
                f"CREATE TEMP TABLE IF NOT EXISTS {table} (position INTEGER PRIMARY KEY)"
            )
            query = change_query(change, "position", emails=self._both_with_emails(chosen, other))
            self._db.execute(
                f"INSERT OR IGNORE INTO temp.{table} {query}", {"chosen": chosen, "other": other}
            )
            self._changed_tables.add(table)
        return table

    def before_last_sync(
        self, positions: Sequence[int], generation: Generation | None = None
    ) -> dict[int, Card]:
        """The cards at these positions of the current copy as the copy before it had
        them, of those it had: what a changed card was (`Change.CHANGED`).

        Empty for a `generation` no longer current: the copy it replaced is gone, or
        another's.
        """
        current, previous = self._state("current"), self._state("previous")
        if current is None or previous is None or not positions:
            return {}
        if generation is not None and generation.id != current:
            return {}
        # CROSS JOIN: the cards asked for first, by position, then each one's before by
        # id. Left to choose, SQLite walked the whole copy before: 3.5 s for a screenful
        # of a copy of 100,000 cards, against 2 ms.
        rows = rows_in(
            self._db,
            "SELECT n.position, o.json FROM cards n CROSS JOIN cards o INDEXED BY cards_by_uuid"
            " ON o.generation = ? AND o.uuid = n.uuid"
            " WHERE n.generation = ? AND n.uuid <> '' AND n.position IN",
            (previous, current),
            positions,
        )
        return {position: parse_card(json.loads(text)) for position, text in rows}

    def changed_between(
        self, change: Change, new: Generation, old: Generation, column: str = "position"
    ) -> list[Any]:
        """`column` (positions, or ids) of the cards `change` picks between the copies
        `old` and `new`, in the space's order: the added and changed of `new`, the
        removed of `old`. For any two copies kept; `ordered(change=…)` serves the
        window's views of the last sync, sorted and filtered.
        """
        chosen, other = (old, new) if change is Change.REMOVED else (new, old)
        query = change_query(change, column, emails=new.with_emails and old.with_emails)
        rows = self._db.execute(query, {"chosen": chosen.id, "other": other.id})
        return [row[0] for row in rows]

    @property
    def changes_file_copy(self) -> Generation | None:
        """The copy the last file of changes was written from (`cardviewer sync
        --changes`), kept until the next one; None before the first, or if it is gone
        (`changes_file_copy_lost`)."""
        return self._generation(self._state(CHANGES_FILE_COPY))

    @property
    def changes_file_copy_lost(self) -> bool:
        """A file of changes was written, but the copy it was written from is gone: an
        older CardViewer, which keeps two copies only, removed it, or the store was
        damaged and set aside (`note_changes_file_copy_lost`)."""
        marked = self._state(CHANGES_FILE_COPY)
        return marked is not None and self._generation(marked) is None

    def note_changes_file_copy_lost(self) -> None:
        """This store replaces one set aside as damaged: what the last file of changes
        was written from is gone with it, and the next file says so."""
        with write_transaction(self._db):
            self._db.execute(
                "INSERT OR IGNORE INTO state (key, value) VALUES (?, 0)", (CHANGES_FILE_COPY,)
            )

    def changes_file_fields(self) -> list[str]:
        """The unknown fields of the last file of changes, in the order of its columns;
        none before the first file that noted them."""
        try:
            rows = self._db.execute("SELECT field FROM changes_file_fields ORDER BY place")
            return [row[0] for row in rows]
        except sqlite3.OperationalError as error:
            if "no such table" not in str(error):
                raise
            return []

    def mark_changes_file(
        self,
        generation: Generation,
        *,
        fields: Sequence[str],
        stop: threading.Event | None = None,
    ) -> bool:
        """`generation` is the copy a file of changes was written from: the next file
        says what changed since, and the copy is kept until then. `fields` are the
        file's columns of unknown fields, in its order (`changes_file_fields`).

        False, and the mark before kept, if the copy is gone meanwhile (two syncs made
        while the file was written): the next file then repeats this one's changes.
        Dropping the copy marked before takes seconds at 100,000 cards: `stop` set by
        then raises `Stopped`, and the mark stays where it was.
        """
        with write_transaction(self._db):
            marked = self._db.execute(
                "INSERT OR REPLACE INTO state (key, value) SELECT ?, id FROM generations"
                " WHERE id = ? AND synced_at IS NOT NULL",
                (CHANGES_FILE_COPY, generation.id),
            ).rowcount
            if marked:
                # Made by the first file that needs it, not by a new version of the
                # store: an older CardViewer (a job's, say) reads the store as ever.
                self._db.execute(_CHANGES_FILE_FIELDS)
                self._db.execute("DELETE FROM changes_file_fields")
                self._db.executemany(
                    "INSERT INTO changes_file_fields (place, field) VALUES (?, ?)",
                    enumerate(fields),
                )
            drop_unused(self._db)
            check(stop)  # rolls the mark back
        return marked > 0

    def _both_with_emails(self, one: int, other: int) -> bool:
        """Whether copies `one` and `other` both have the e-mail addresses."""
        (both,) = self._db.execute(
            "SELECT count(*) = 2 FROM generations WHERE id IN (?, ?) AND with_emails",
            (one, other),
        ).fetchone()
        return bool(both)

    def _state(self, key: str) -> int | None:
        row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return None if row is None else int(row[0])

    def _generation(self, number: int | None) -> Generation | None:
        if number is None:
            return None
        row = self._db.execute(
            "SELECT id, synced_at, card_count, with_emails FROM generations WHERE id = ?",
            (number,),
        ).fetchone()
        if row is None or row[1] is None:
            return None
        return Generation(row[0], datetime.fromisoformat(row[1]), row[2], bool(row[3]))
