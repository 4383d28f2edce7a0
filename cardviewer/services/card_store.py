"""A local copy of a whole space, in SQLite, that a sync replaces in one step.

One database per server, account and space (`store_path`), readable by this user
only. A sync writes every card into a new *generation*; only when the last page is in
does one transaction make it the current one, so a cancelled or failed sync, a full
disk or a killed process leave the copy before it whole and readable. The generation
before the current one is kept, so the app can say what changed (`changes()`).

Cards are kept as JSON the API's parser reads back to the same `Card`
(`card_json`), beside what the window's filter and sort need, worked out once per card
when it is written: the folded search text (`card_search_text`, also in a trigram
index) and a sort key per field (`card_sort_keys`). Text sorts by a rank that
`rank_texts` gives each text under the reader's collation, so `ordered()` sorts
100,000 cards in SQLite without calling back into Python.

The schema carries its version in `PRAGMA user_version` and is migrated forward
(`MIGRATIONS`): a file written by a newer CardViewer is refused, never changed; a file
that is not a database, or is damaged, is set aside under another name and a new one
started.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import logging
import os
import re
import sqlite3
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_columns import EMAILS_KEY, ID_KEY
from cardviewer.services.card_order import (
    EMPTY,
    NUMBER,
    OTHER,
    SORTED_KEYS,
    TEXT,
    TIME,
    card_sort_keys,
    sort_key,
)
from cardviewer.services.card_search import card_search_text, fold_text
from cardviewer.services.csv_export import safe_file_stem
from cardviewer.services.store_rows import insert_rows

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3
_DIGITS = re.compile(r"(\d+)")
TRIGRAM = 3
"""Words this long or longer are looked up in the trigram index, shorter ones scanned for."""
BUSY_TIMEOUT_MS = 5_000
"""How long a write waits for another program's write to the store (a second window, the CLI)."""

_SCHEMA = """
CREATE TABLE generations (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    synced_at TEXT,
    card_count INTEGER NOT NULL DEFAULT 0,
    with_emails INTEGER NOT NULL DEFAULT 0,
    collation TEXT
);
CREATE TABLE state (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
CREATE TABLE cards (
    generation INTEGER NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    uuid TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (generation, position)
) WITHOUT ROWID;
CREATE INDEX cards_by_uuid ON cards(generation, uuid);
CREATE TABLE card_text (
    generation INTEGER NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (generation, position)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE card_search USING fts5(
    text, generation UNINDEXED, position UNINDEXED,
    tokenize = 'trigram case_sensitive 1'
);
"""

_SORT_KEYS = """
CREATE TABLE sort_keys (
    generation INTEGER NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    position INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    value,
    text TEXT,
    PRIMARY KEY (generation, field, position)
) WITHOUT ROWID;
CREATE TABLE fields (
    generation INTEGER NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    first_position INTEGER NOT NULL,
    PRIMARY KEY (generation, field)
) WITHOUT ROWID;
"""
"""A card's sort key per field: `kind` (`card_order`), then `value`, which is the number
or the time, or the rank of `text` under the generation's `collation`. Each complete
generation has an index of its own in sort order (`_index_sort_keys`), made once its
keys are all written and ranked: keeping one up to date row by row doubles a sync.
`fields` lists a generation's fields once, for a window opening it (reading them off
the sort keys takes half a second at 100,000 cards)."""

MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}
"""Each takes a store of the version before the key to that version."""

TextKey = Callable[[str], Any]
"""Orders texts as the reader sorts them (e.g. `QCollator.sortKey`); equal keys tie."""


FOLDED = "folded"
"""The name of the collation of `folded_text_key`."""


def folded_text_key(text: str) -> tuple[str | int, ...]:
    """A collation without a locale: case and accents ignored, numbers by value.

    "item 2" sorts before "Item 10", and "Zoë" ties with "zoe" (ties keep the
    space's order). For a store used without the window (`QCollator` is the window's).
    """
    # Split around runs of digits: text and numbers take turns, so keys compare piecewise.
    pieces = _DIGITS.split(fold_text(text))
    return tuple(int(piece) if number % 2 else piece for number, piece in enumerate(pieces))


def text_key_for(collation: str) -> TextKey:
    """The sort key of the collation named `collation`: `FOLDED`, or a locale's name
    (`text_collation.collation_of`), sorted by Qt's collator as the window sorts."""
    if collation == FOLDED:
        return folded_text_key
    # Imported here, so that a store used without a window loads no Qt.
    from cardviewer.services.text_collation import locale_text_key

    return locale_text_key(collation)


def is_in_use(error: sqlite3.Error) -> bool:
    """The error says another program holds the store ("database is locked", busy)."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


class StoreProblem(Enum):
    """Why a local copy cannot be used, for the window to say in its language."""

    NEWER_VERSION = "written by a newer version"
    IN_USE = "in use by another program"
    DISK_FULL = "disk full"
    NOT_WRITTEN = "not written"


class StoreError(Exception):
    """The local copy cannot be used; the message says why in plain words, `problem` too."""

    def __init__(self, message: str, problem: StoreProblem = StoreProblem.NOT_WRITTEN) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class Generation:
    """One complete copy of the space: when it was synced and how many cards it has."""

    id: int
    synced_at: datetime
    card_count: int
    with_emails: bool = False
    """Whether the cards were fetched with their e-mail addresses."""


@dataclass(frozen=True)
class Changes:
    """What a sync changed, by card id: new cards, cards gone, cards whose content differs."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]

    @property
    def any(self) -> bool:
        return bool(self.added or self.removed or self.changed)


def account_folder(folder: Path, server_url: str, email: str) -> Path:
    """The folder of one account's copies: a digest of the server and the account names it.

    Two accounts' copies stay apart without the e-mail address written into a name.
    """
    account = hashlib.sha256(f"{server_url}\n{email.casefold()}".encode()).hexdigest()[:16]
    return folder / account


def store_path(folder: Path, server_url: str, email: str, space_id: str) -> Path:
    """The database of one space as one account on one server sees it (named by the space)."""
    return account_folder(folder, server_url, email) / f"{safe_file_stem(space_id)}.sqlite"


def remove_copies(folder: Path) -> int:
    """Delete every local copy under `folder` (one account's, or all); how many went.

    Files set aside as damaged go too. A file that cannot be deleted (in use on
    Windows) is logged and left; the rest still go.
    """
    removed = 0
    for path in sorted(folder.rglob("*.sqlite*")) if folder.is_dir() else ():
        try:
            path.unlink()
        except OSError as error:
            log.warning("the local copy %s could not be removed: %s", path, error)
            continue
        removed += path.name.endswith(".sqlite")
    if folder.is_dir():
        for empty in [*sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True), folder]:
            with contextlib.suppress(OSError):  # not empty: something of the person's
                empty.rmdir()
    return removed


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


def stored_search_text(card: Card) -> str:
    """`card_search_text` as SQLite can search it: no lone surrogate, no NUL.

    A lone surrogate becomes U+FFFD, a NUL a line break: SQLite's text search ends at
    a NUL, and no typed word holds either (words never hold a line break).
    """
    return _storable(card_search_text(card)).replace("\x00", "\n")


def _storable(text: str) -> str:
    """`text` with a lone surrogate as U+FFFD: SQLite keeps UTF-8, which cannot carry one."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


_LARGEST_INTEGER = 2**63 - 1
"""SQLite's integers have 64 bits; a larger count sorts as a float (nearly in place)."""
_MAX_VALUES = 10_000
"""Positions asked for in one statement (SQLite allows 32,766 values)."""


def _packed_positions(query: str) -> str:
    """`query`'s positions as one text of 8 hex digits each, in the query's order.

    SQLite builds the text in C without holding Python's interpreter lock; a list built
    row by row would hold it for tens of milliseconds at 100,000 cards, and the window's
    thread, which needs the lock for every cell it paints, would wait meanwhile.
    """
    return f"SELECT group_concat(printf('%08x', position), '') FROM ({query})"


def _unpack_positions(packed: str | None) -> list[int]:
    positions = array("I", bytes.fromhex(packed or ""))
    if sys.byteorder == "little":
        positions.byteswap()  # the hex digits are big-endian
    return positions.tolist()


def _stored_sort_key(kind: int, value: Any) -> tuple[int, object, str | None]:
    """A sort key as the `sort_keys` table keeps it: kind, number (or rank), text."""
    if kind in (NUMBER, TIME):
        if isinstance(value, int) and abs(value) > _LARGEST_INTEGER:
            value = float(value)
        return kind, value, None
    if kind == EMPTY:
        return kind, None, None
    return kind, None, _storable(value)


WARM_ROWS = 5000
"""Cards whose search texts `warm_for_search` reads at once (650 KB at most sizes)."""

SORT_RUN = 4096
"""Texts ranked by one call of `sorted`; longer lists are sorted in runs this long and merged.

A collator's keys are compared in C++ with the interpreter lock held, for the whole of
a `sorted` call: 100,000 texts at once held the window's thread for 230 ms while a
sync finished on a worker thread. A run takes a few milliseconds, and the merge runs
Python between texts, where the window gets its turn. Only the keys of a run being
sorted and of the runs' heads are alive at once: 100,000 keys kept while ranking made
every garbage collection on the window's thread look at them, 50 to 100 ms each time.
"""


def _ranks(texts: list[str], text_key: TextKey) -> Iterator[tuple[str, int]]:
    """Each text with its rank in `text_key` order; texts with equal keys share one."""
    runs = [
        sorted(texts[start : start + SORT_RUN], key=text_key)
        for start in range(0, len(texts), SORT_RUN)
    ]
    heads = [[text_key(run[0]), number, 0] for number, run in enumerate(runs) if run]
    heapq.heapify(heads)
    rank, last = -1, None
    while heads:
        key, number, index = heads[0]
        if last is None or last < key:
            rank += 1
        last = key
        run = runs[number]
        yield run[index], rank
        if index + 1 < len(run):
            heapq.heapreplace(heads, [text_key(run[index + 1]), number, index + 1])
        else:
            heapq.heappop(heads)


def _matching_query(generation: int, terms: Sequence[str]) -> tuple[str, list[object]]:
    """A query for the positions of the cards of `generation` containing every term."""
    long = [term for term in terms if len(term) >= TRIGRAM]
    short = [term for term in terms if len(term) < TRIGRAM]
    where = "generation = ?" + "".join(" AND instr(text, ?) > 0" for _ in short)
    values: list[object] = [generation, *short]
    table = "card_text"  # narrow and ordered: the quickest to scan
    if long:
        table, where = "card_search", f"card_search MATCH ? AND {where}"
        values.insert(0, " AND ".join('"' + term.replace('"', '""') + '"' for term in long))
    return f"SELECT position FROM {table} WHERE {where}", values


class CardStore:
    """The local copy of one space; open with `CardStore.open(path)`, close when done."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    @classmethod
    def open(cls, path: Path) -> CardStore:
        """Open (or create) the store at `path`.

        Raises `StoreError` for a store written by a newer version. A file that is no
        SQLite database is renamed aside (`<name>.damaged-<time>`) and a new store
        started, so the next sync rebuilds it.
        """
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            return cls(_connect(path), path)
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError) and is_in_use(error):
                raise StoreError(
                    "The local copy of this space is in use by another program; try again.",
                    StoreProblem.IN_USE,
                ) from error
            aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            log.warning("the store %s cannot be read (%s); set aside as %s", path, error, aside)
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(f"{path}{suffix}").rename(f"{aside}{suffix}")
            return cls(_connect(path), path)

    def close(self) -> None:
        self._db.close()

    def interrupt(self) -> None:
        """Stop the query running now, from any thread; it raises `sqlite3.OperationalError`."""
        self._db.interrupt()

    def keep_in_memory(self, cache_bytes: int) -> None:
        """Keep up to `cache_bytes` of what this connection reads lately in memory."""
        self._db.execute(f"PRAGMA cache_size = -{max(1, cache_bytes // 1024)}")

    def warm_for_search(self, start: int = 0, rows: int = WARM_ROWS) -> int | None:
        """Read the search texts of the current copy's cards `start` to `start + rows`,
        so that they are in memory; the next card to read, or None after the last.

        A filter walks the texts of the cards in the order shown; from a cold file the
        first keystroke waits for the disk (300 ms at 100,000 cards, 2 ms warm). Read a
        part at a time, a query asked meanwhile waits a millisecond or so at most.
        """
        chosen = self.current
        if chosen is None or start >= chosen.card_count:
            return None
        self._db.execute(
            "SELECT sum(length(text)) FROM card_text "
            "WHERE generation = ? AND position >= ? AND position < ?",
            (chosen.id, start, start + rows),
        ).fetchone()
        return start + rows

    def __enter__(self) -> CardStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Reading the current copy

    @property
    def current(self) -> Generation | None:
        """The copy shown: the last complete sync; None before the first one."""
        return self._generation(self._state("current"))

    @property
    def previous(self) -> Generation | None:
        """The complete copy before the current one, to compare with."""
        return self._generation(self._state("previous"))

    def cards(self, generation: Generation | None = None) -> Iterator[Card]:
        """The cards of a copy (default: the current one), in the space's order."""
        chosen = generation or self.current
        if chosen is None:
            return
        rows = self._db.execute(
            "SELECT json FROM cards WHERE generation = ? ORDER BY position", (chosen.id,)
        )
        for (text,) in rows:
            yield parse_card(json.loads(text))

    def ordered(
        self,
        field: str | None,
        *,
        descending: bool = False,
        terms: Sequence[str] = (),
        text_key: TextKey = folded_text_key,
        collation: str = FOLDED,
        limit: int | None = None,
        changed_only: bool = False,
    ) -> list[int]:
        """Positions of the cards containing every folded term (`search_terms`), by `field`.

        The window's filter rule, run in SQLite over the folded texts: words of three
        characters or more through the trigram index, shorter ones by a scan (`instr`,
        so that `%` and `_` typed mean themselves). No terms match every card.

        `changed_only` keeps the cards the last sync added or changed (`changes()`).

        The window's sort rule (`card_order`), run in SQLite: by kind, then value, text
        by its rank under `collation` (ranked first through `text_key` if the copy was
        ranked under another one); empty values last either way; cards that compare
        equal in the space's order. `field` None keeps the space's order. With `limit`,
        only the first so many: an index serves them at once, whatever the space's size.
        """
        chosen = self.current
        if chosen is None:
            return []
        if field is None:
            changed = self._changed_clause(chosen.id) if changed_only else ""
            query, in_order = _matching_query(chosen.id, terms)
            return self._positions(f"{query}{changed} ORDER BY position", in_order, limit)
        self.rank_texts(text_key, collation)
        # The generation as a literal: only then can SQLite use its partial index.
        generation = int(chosen.id)
        k = ""  # how the sort keys' columns are named in the query
        base = f"SELECT position FROM sort_keys WHERE generation = {generation} AND field = ?"
        values: list[object] = [field]
        if terms and limit is not None and all(len(term) < TRIGRAM for term in terms):
            # Few rows wanted and no word for the trigram index: walk the sort order and
            # test each card's text, which stops as soon as enough cards match.
            base += (
                " AND EXISTS (SELECT 1 FROM card_text c WHERE c.generation = sort_keys.generation"
                " AND c.position = sort_keys.position"
                + "".join(" AND instr(c.text, ?) > 0" for _ in terms)
                + ")"
            )
            values.extend(terms)
        elif any(len(term) >= TRIGRAM for term in terms):
            # The trigram index finds the matches at once: look up only their keys and
            # sort those, rather than walk the whole sort order testing each card.
            query, match_values = _matching_query(chosen.id, terms)
            k = "k."
            base = (
                f"SELECT k.position FROM ({query}) AS m CROSS JOIN sort_keys AS k "
                f"WHERE k.generation = {generation} AND k.field = ? AND k.position = m.position"
            )
            values = [*match_values, field]
        elif terms:
            query, match_values = _matching_query(chosen.id, terms)
            base += f" AND position IN ({query})"
            values.extend(match_values)
        base += self._changed_clause(chosen.id, f"{k}position") if changed_only else ""
        if not descending:  # empty values have the highest kind: last already
            return self._positions(f"{base} ORDER BY {k}kind, {k}value, {k}position", values, limit)
        if k:
            # The matches are sorted apart anyway: one pass, empty values (kind and value
            # alike) last, equal ones in the space's order.
            return self._positions(
                f"{base} ORDER BY {k}kind = {EMPTY}, {k}kind DESC, {k}value DESC, {k}position",
                values,
                limit,
            )
        # Descending, but empty values still last and equal ones in the space's order;
        # in two passes, so that the sort keys' index serves each in its order.
        found = self._positions(
            f"{base} AND {k}kind < {EMPTY} ORDER BY {k}kind DESC, {k}value DESC, {k}position",
            values,
            limit,
        )
        if limit is not None and len(found) >= limit:
            return found
        rest = None if limit is None else limit - len(found)
        return found + self._positions(
            f"{base} AND {k}kind = {EMPTY} ORDER BY {k}position", values, rest
        )

    def first_ordered(
        self, field: str | None, *, within: float, **options: Any
    ) -> list[int] | None:
        """`ordered(field, limit=…, **options)` if SQLite answers `within` seconds, else None.

        The first rows of a sort or filter usually come in a millisecond; a filter by a
        rare short word may walk the whole space first. Then the whole answer is as quick.
        """
        deadline = time.perf_counter() + within
        self._db.set_progress_handler(lambda: time.perf_counter() > deadline, 1000)
        try:
            return self.ordered(field, **options)
        except sqlite3.OperationalError as error:
            if "interrupted" not in str(error):
                raise
            return None
        finally:
            self._db.set_progress_handler(None, 0)

    def _changed_clause(self, current: int, column: str = "position") -> str:
        """A condition on `column`: the card is new or changed since the copy before."""
        previous = self._state("previous")
        if previous is None:
            return " AND 0"  # no copy before: nothing to compare with
        return (
            f" AND {column} IN (SELECT n.position FROM cards n WHERE n.generation = {int(current)}"
            f" AND NOT EXISTS (SELECT 1 FROM cards o WHERE o.generation = {int(previous)}"
            " AND o.uuid = n.uuid AND o.json = n.json))"
        )

    def _positions(self, query: str, values: list[object], limit: int | None) -> list[int]:
        if limit is not None:
            rows = self._db.execute(f"{query} LIMIT ?", [*values, limit])
            return [row[0] for row in rows]
        (packed,) = self._db.execute(_packed_positions(query), values).fetchone()
        return _unpack_positions(packed)

    def cards_at(self, positions: Sequence[int]) -> dict[int, Card]:
        """The cards of the current copy at these positions (as `ordered` gives them)."""
        chosen = self.current
        if chosen is None or not positions:
            return {}
        found: dict[int, Card] = {}
        for start in range(0, len(positions), _MAX_VALUES):
            chunk = positions[start : start + _MAX_VALUES]
            rows = self._db.execute(
                "SELECT position, json FROM cards WHERE generation = ? AND position IN "
                f"({','.join('?' * len(chunk))})",
                (chosen.id, *chunk),
            )
            found.update((position, parse_card(json.loads(text))) for position, text in rows)
        return found

    def extra_fields(self) -> list[str]:
        """Fields the specification does not list that cards of the current copy have.

        In the order they first appear in the space, as a page's columns come.
        """
        chosen = self.current
        if chosen is None:
            return []
        rows = self._db.execute(
            "SELECT field FROM fields WHERE generation = ? AND field NOT IN "
            f"({','.join('?' * len(SORTED_KEYS))}) ORDER BY first_position, field",
            (chosen.id, *SORTED_KEYS),
        )
        return [row[0] for row in rows]

    def rank_texts(self, text_key: TextKey, collation: str) -> None:
        """Rank the current copy's texts under `collation`, unless they already are.

        A sync ranks its copy under the collation it is given; this ranks it again when
        the reader's language has changed since.
        """
        chosen = self.current
        if chosen is None or self._collation(chosen.id) == collation:
            return
        with _transaction(self._db):
            for name in _index_names(chosen.id):
                self._db.execute(f"DROP INDEX IF EXISTS {name}")
            _rank_texts(self._db, chosen.id, text_key, collation)
            _index_sort_keys(self._db, chosen.id)

    def changes(self) -> Changes | None:
        """What the last sync changed since the one before; None before a second sync."""
        new, old = self._state("current"), self._state("previous")
        if new is None or old is None:
            return None

        def ids(query: str) -> tuple[str, ...]:
            return tuple(row[0] for row in self._db.execute(query, {"new": new, "old": old}))

        return Changes(
            added=ids(
                "SELECT uuid FROM cards n WHERE generation = :new AND NOT EXISTS "
                "(SELECT 1 FROM cards o WHERE o.generation = :old AND o.uuid = n.uuid) "
                "ORDER BY position"
            ),
            removed=ids(
                "SELECT uuid FROM cards o WHERE generation = :old AND NOT EXISTS "
                "(SELECT 1 FROM cards n WHERE n.generation = :new AND n.uuid = o.uuid) "
                "ORDER BY position"
            ),
            changed=ids(
                "SELECT n.uuid FROM cards n JOIN cards o ON o.uuid = n.uuid "
                "AND o.generation = :old WHERE n.generation = :new AND o.json <> n.json "
                "ORDER BY n.position"
            ),
        )

    # Writing a new copy

    def begin_sync(self, *, with_emails: bool = False) -> StoreSync:
        """A new generation to write into; it becomes current only at `StoreSync.finish()`."""
        cursor = self._db.execute(
            "INSERT INTO generations (started_at, with_emails) VALUES (?, ?)",
            (_now(), with_emails),
        )
        assert cursor.lastrowid is not None
        return StoreSync(self._db, cursor.lastrowid, with_emails=with_emails)

    # Inside

    def _state(self, key: str) -> int | None:
        row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return None if row is None else int(row[0])

    def _collation(self, number: int) -> str | None:
        row = self._db.execute(
            "SELECT collation FROM generations WHERE id = ?", (number,)
        ).fetchone()
        return None if row is None else row[0]

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


@dataclass(frozen=True)
class Written:
    """How far the cards of an unfinished sync are written (`StoreSync.written`)."""

    count: int
    first_positions: Mapping[str, int]
    """Each field the cards have, and the first card to have it."""
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
    ) -> None:
        self._db = connection
        self.generation = generation
        self.with_emails = with_emails
        self._beside_threads = beside_threads
        """Other threads may be busy in Python meanwhile (`insert_rows`)."""
        self.count = 0
        self._first_positions: dict[str, int] = {}
        """Each field the cards written have, and the first card to have it."""
        self._prepared: str | None = None
        self._done = False

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
        connection = _connect(path, create=False)
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
        self.add([parse_card(item) for item in sent])

    def add(self, cards: Iterable[Card]) -> None:
        """Write `cards` after those added so far (one transaction; the copy shown stays).

        Each is kept as `card_json` writes it, not as it was sent: a sync tells a card
        changed by its text (`changes`), and the server's order of keys is no change.
        """
        batch = list(cards)
        positions = range(self.count, self.count + len(batch))
        rows = [
            (position, _storable(card.uuid or ""), card_json(card))
            for position, card in zip(positions, batch, strict=True)
        ]
        texts = [
            (position, stored_search_text(card))
            for position, card in zip(positions, batch, strict=True)
        ]
        keys = [
            (field, position, *_stored_sort_key(kind, value))
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

        with _transaction(self._db):
            insert("cards", ("position", "uuid", "json"), rows)
            for table in ("card_text", "card_search"):
                insert(table, ("position", "text"), texts)
            insert("sort_keys", ("field", "position", "kind", "value", "text"), keys)
        if batch and not self._first_positions:
            self._first_positions = dict.fromkeys(SORTED_KEYS, self.count)
        for position, card in zip(positions, batch, strict=True):
            for field in card.model_extra or ():
                self._first_positions.setdefault(field, position)
        self.count += len(rows)

    def finish(self, text_key: TextKey = folded_text_key, collation: str = FOLDED) -> Generation:
        """Make this copy the current one; the one before becomes the previous one.

        Its texts are ranked under `collation` first and its sort keys indexed
        (`prepare`, unless done already), while the copy before is still the one
        shown. Raises `StoreError` if a sync begun later by another program finished
        first: it took this copy for one left behind by a crash, and its own copy
        stays the current one.
        """
        if self._prepared != collation:
            self.prepare(text_key, collation)
        synced_at = _now()
        with _transaction(self._db):
            written = self._db.execute(
                "UPDATE generations SET synced_at = ?, card_count = ? WHERE id = ?",
                (synced_at, self.count, self.generation),
            ).rowcount
            if not written:  # a sync begun later by another program finished first
                raise StoreError(
                    "Another program synced this space meanwhile and its copy is kept; "
                    "this one was not written."
                )
            current = self._db.execute("SELECT value FROM state WHERE key = 'current'").fetchone()
            if current is not None:
                self._db.execute(
                    "INSERT OR REPLACE INTO state (key, value) VALUES ('previous', ?)", current
                )
            self._db.execute(
                "INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)",
                (self.generation,),
            )
            _drop_unused(self._db)
        self._done = True
        return Generation(
            self.generation, datetime.fromisoformat(synced_at), self.count, self.with_emails
        )

    def prepare(self, text_key: TextKey, collation: str) -> None:
        """What `finish` does before it makes the copy current, done ahead, in one
        transaction: an empty sort key for each card without a field that others have,
        the texts ranked under `collation` (`CardStore.rank_texts`), the keys indexed.

        Seconds at 100,000 cards: the process that wrote the cards does it, so that
        the window's process is free meanwhile.
        """
        with _transaction(self._db):
            _add_empty_keys(self._db, self.generation, self._first_positions)
            _rank_texts(self._db, self.generation, text_key, collation, self._first_positions)
            _index_sort_keys(self._db, self.generation)
        self._prepared = collation

    def abandon(self) -> None:
        """Drop what was written; the copy shown stays as it was."""
        if self._done:
            return
        with _transaction(self._db):
            self._db.execute("DELETE FROM generations WHERE id = ?", (self.generation,))
            _drop_unused_search(self._db)
        self._done = True


def _connect(path: Path, *, create: bool = True) -> sqlite3.Connection:
    if not path.exists():
        if not create:
            raise sqlite3.OperationalError(f"unable to open database file: {path} is gone")
        # Created readable by this user only: it holds the space's cards, e-mails too.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    # Used by one thread at a time, not always the one that opened it (a sync's worker).
    connection = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS text_ranks (text TEXT PRIMARY KEY, rank INTEGER)"
        )
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                "The local copy of this space was written by a newer version of CardViewer; "
                "it is left as it is. Update CardViewer to use it.",
                StoreProblem.NEWER_VERSION,
            )
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        if version == 0:
            with _transaction(connection):
                # Another program may have created the tables meanwhile.
                if connection.execute("PRAGMA user_version").fetchone()[0] == 0:
                    for statement in filter(str.strip, (_SCHEMA + _SORT_KEYS).split(";")):
                        connection.execute(statement)
                    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif version < SCHEMA_VERSION:
            with _transaction(connection):
                # Another program may have migrated it meanwhile.
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    MIGRATIONS[step](connection)
                    connection.execute(f"PRAGMA user_version = {step}")
        if _has_unused(connection):  # a sync cut short by a crash left its rows behind
            _drop_unused_unless_busy(connection)
        return connection
    except BaseException:
        connection.close()
        raise


def _rank_texts(
    connection: sqlite3.Connection,
    generation: int,
    text_key: TextKey,
    collation: str,
    fields: Iterable[str] | None = None,
) -> None:
    """Give each text of `generation` its rank under `collation`, field by field.

    Each field's distinct texts are sorted once with `text_key`; texts whose keys are
    equal share a rank, so that they keep the space's order, as on a page. `fields`
    are the generation's fields, if known (else they are read off its sort keys).
    """
    if fields is None:
        fields = [
            row[0]
            for row in connection.execute(
                "SELECT DISTINCT field FROM sort_keys WHERE generation = ?", (generation,)
            )
        ]
    for field in fields:
        texts = [
            row[0]
            for row in connection.execute(
                "SELECT DISTINCT text FROM sort_keys WHERE generation = ? AND field = ? "
                f"AND kind IN ({TEXT}, {OTHER})",
                (generation, field),
            )
        ]
        connection.execute("DELETE FROM temp.text_ranks")
        connection.executemany(
            "INSERT INTO temp.text_ranks (text, rank) VALUES (?, ?)", _ranks(texts, text_key)
        )
        connection.execute(
            "UPDATE sort_keys SET value = (SELECT rank FROM temp.text_ranks r "
            "WHERE r.text = sort_keys.text) "
            f"WHERE generation = ? AND field = ? AND kind IN ({TEXT}, {OTHER})",
            (generation, field),
        )
    connection.execute("UPDATE generations SET collation = ? WHERE id = ?", (collation, generation))


def _index_names(generation: int) -> tuple[str, str]:
    """The sort indexes of a generation: ascending, and descending (ties ascending)."""
    return f"sort_keys_{int(generation)}", f"sort_keys_down_{int(generation)}"


def _index_sort_keys(connection: sqlite3.Connection, generation: int) -> None:
    """The sort keys of one generation in sort order: a sort reads it, never sorts.

    Descending keeps equal cards in the space's order, so it has an index of its own.
    """
    number = int(generation)
    up, down = _index_names(number)
    connection.execute(
        f"CREATE INDEX IF NOT EXISTS {up} "
        f"ON sort_keys(field, kind, value, position) WHERE generation = {number}"
    )
    connection.execute(
        f"CREATE INDEX IF NOT EXISTS {down} "
        f"ON sort_keys(field, kind DESC, value DESC, position) WHERE generation = {number}"
    )


def _add_empty_keys(
    connection: sqlite3.Connection,
    generation: int,
    first_positions: Mapping[str, int] | None = None,
) -> None:
    """An empty sort key for each card without a field that other cards have.

    Fields the specification does not list come and go; with a key for every card, a
    sort by any field reads one index. The fields are listed in `fields` first, from
    `first_positions` (each field and the first card to have it) if known, else read
    off the sort keys. Every card has a key for each field of the specification
    (`card_sort_keys`), so only the others are looked through: looking through all of
    them took a second at 100,000 cards.
    """
    if first_positions is None:
        connection.execute(
            "INSERT OR IGNORE INTO fields (generation, field, first_position) "
            "SELECT generation, field, MIN(position) FROM sort_keys WHERE generation = ? "
            "GROUP BY field",
            (generation,),
        )
    else:
        # Through `generations`: a sync begun later by another program may have
        # dropped this one, and its fields with it.
        connection.executemany(
            "INSERT OR IGNORE INTO fields (generation, field, first_position) "
            "SELECT id, ?, ? FROM generations WHERE id = ?",
            [(field, position, generation) for field, position in first_positions.items()],
        )
    connection.execute(
        "INSERT INTO sort_keys (generation, field, position, kind) "
        f"SELECT c.generation, f.field, c.position, {EMPTY} FROM card_text c "
        "JOIN (SELECT field FROM fields WHERE generation = :g AND field NOT IN "
        f"({','.join(f':known{n}' for n in range(len(SORTED_KEYS)))})) f "
        "WHERE c.generation = :g AND NOT EXISTS (SELECT 1 FROM sort_keys k "
        "WHERE k.generation = :g AND k.field = f.field AND k.position = c.position)",
        {"g": generation, **{f"known{n}": key for n, key in enumerate(SORTED_KEYS)}},
    )


def _add_sort_keys(connection: sqlite3.Connection) -> None:
    """Version 2: sort keys per field, worked out from the cards of every copy kept."""
    connection.execute("ALTER TABLE generations ADD COLUMN collation TEXT")
    connection.execute("ALTER TABLE generations ADD COLUMN with_emails INTEGER NOT NULL DEFAULT 0")
    for statement in filter(str.strip, _SORT_KEYS.split(";")):
        connection.execute(statement)
    rows = connection.execute("SELECT generation, position, json FROM cards")
    connection.executemany(
        "INSERT INTO sort_keys (generation, field, position, kind, value, text) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            (generation, field, position, *_stored_sort_key(kind, value))
            for generation, position, text in rows.fetchall()
            for field, (kind, value) in card_sort_keys(parse_card(json.loads(text)))
        ),
    )
    for (generation,) in connection.execute("SELECT id FROM generations").fetchall():
        _add_empty_keys(connection, generation)
        _rank_texts(connection, generation, folded_text_key, FOLDED)
        _index_sort_keys(connection, generation)
        # The first version kept no such flag: e-mails were fetched if any card has one.
        connection.execute(
            "UPDATE generations SET with_emails = EXISTS (SELECT 1 FROM sort_keys "
            f"WHERE generation = :g AND field = 'emails' AND kind < {EMPTY}) WHERE id = :g",
            {"g": generation},
        )


def _add_id_keys(connection: sqlite3.Connection) -> None:
    """Version 3: the card's id sorts too. Texts are ranked again when next sorted."""
    rows = connection.execute("SELECT generation, position, uuid FROM cards")
    connection.executemany(
        "INSERT OR IGNORE INTO sort_keys (generation, field, position, kind, value, text) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            (generation, ID_KEY, position, *_stored_sort_key(*sort_key(uuid)))
            for generation, position, uuid in rows.fetchall()
        ),
    )
    for (generation,) in connection.execute("SELECT id FROM generations").fetchall():
        for name in _index_names(generation):
            connection.execute(f"DROP INDEX IF EXISTS {name}")
    connection.execute("UPDATE generations SET collation = NULL")


MIGRATIONS[2] = _add_sort_keys
MIGRATIONS[3] = _add_id_keys


@contextlib.contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: all of it or none of it, whatever stops it."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if connection.in_transaction:  # SQLite ends some on its own (a full disk)
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


_UNUSED_COPY = (
    "synced_at IS NOT NULL AND id NOT IN "
    "(SELECT value FROM state WHERE key IN ('current', 'previous'))"
)
"""A generation that was current once and is neither current nor previous now."""
_UNFINISHED_SYNC = (
    "synced_at IS NULL AND id < (SELECT COALESCE(MAX(value), 0) FROM state WHERE key = 'current')"
)
"""A sync left unfinished by a process that is gone: older than any running one could be."""


def _has_unused(connection: sqlite3.Connection) -> bool:
    """Whether `_drop_unused` has anything to drop (a read: it waits for no writer)."""
    query = (
        f"SELECT EXISTS (SELECT 1 FROM generations WHERE ({_UNUSED_COPY}) OR ({_UNFINISHED_SYNC}))"
    )
    return bool(connection.execute(query).fetchone()[0])


def _drop_unused_unless_busy(connection: sqlite3.Connection) -> None:
    """`_drop_unused` now if no other program writes to the store, else at a later opening.

    A copy is opened on the window's thread, and another program (a sync's writing
    process, a second window, the CLI) may hold the store for seconds: tidying up is no
    reason to wait for it, and reading the copy needs no lock.
    """
    connection.execute("PRAGMA busy_timeout = 0")
    try:
        with _transaction(connection):
            _drop_unused(connection)
    except sqlite3.OperationalError as error:
        if not is_in_use(error):
            raise
        log.info("another program writes to the local copy; what it no longer needs stays")
    finally:
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_MS)}")


def _drop_unused(connection: sqlite3.Connection) -> None:
    """Delete every generation that is neither current nor previous, nor being written.

    Cheap when there is none: only then are the indexes looked at.
    """
    dropped = connection.execute(f"DELETE FROM generations WHERE {_UNUSED_COPY}").rowcount
    dropped += connection.execute(f"DELETE FROM generations WHERE {_UNFINISHED_SYNC}").rowcount
    if dropped:
        _drop_unused_search(connection)


def _drop_unused_search(connection: sqlite3.Connection) -> None:
    """The search and sort indexes of generations gone (they have no foreign keys)."""
    connection.execute(
        "DELETE FROM card_search WHERE generation NOT IN (SELECT id FROM generations)"
    )
    kept = {row[0] for row in connection.execute("SELECT id FROM generations")}
    indexes = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name GLOB 'sort_keys_*[0-9]'"
    ).fetchall()
    for (name,) in indexes:
        if int(name.rsplit("_", 1)[1]) not in kept:
            connection.execute(f"DROP INDEX {name}")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
