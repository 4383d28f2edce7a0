"""The file of a local copy: its tables, its version, opening it and tidying it.

The schema carries its version in `PRAGMA user_version` and is migrated forward
(`MIGRATIONS`): a file written by a newer CardViewer is refused, never changed. The
file is created readable by this user only and kept in write-ahead-log mode, so that
a sync's writing process, the sorting thread and the window use it at once. Opening it
drops what no one needs any more (copies neither current nor previous nor the last file
of changes' copy, a sync cut short by a crash), unless another program holds it; a
sync, as it ends, also keeps only the cards of that last copy once it is not shown.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path

from cardviewer.api.models import parse_card
from cardviewer.services.card_columns import ID_KEY
from cardviewer.services.card_order import EMPTY, card_sort_keys, sort_key
from cardviewer.services.store_content import add_card_content
from cardviewer.services.store_sort_keys import (
    add_empty_keys,
    index_names,
    stored_sort_key,
)

log = logging.getLogger(__name__)

SCHEMA_VERSION = 5

BUSY_TIMEOUT_MS = 5_000
"""How long a write waits for another program's write to the store (a second window, the CLI)."""
READER_WAL_WAIT = 0.5
"""How long a connection that only reads waits for another to make a new file a store
(milliseconds, as a rule): it may be the window's, which waits for nothing longer."""
WAL_RETRY_SECONDS = 0.005
"""How often a connection tries again to switch a new file to WAL while another does."""

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
or the time, or the rank of `text` under the field's `collation` (in `fields`). Each complete
generation has an index of its own in sort order (`index_sort_keys`), made once its
keys are all written and ranked: keeping one up to date row by row doubles a sync.
`fields` lists a generation's fields once, for a window opening it (reading them off
the sort keys takes half a second at 100,000 cards), and since version 4 the collation
each field's texts are ranked under (`_FIELD_COLLATIONS`)."""

_FIELD_COLLATIONS = "ALTER TABLE fields ADD COLUMN collation TEXT"
"""Version 4: each field is ranked under a collation of its own, so that a sort in a
language the copy was not synced in ranks the field sorted, not every text of the copy
(some 3 s instead of 15 at 100,000 cards)."""
_FIELD_PLACES = "ALTER TABLE fields ADD COLUMN place INTEGER NOT NULL DEFAULT 0"
"""Version 5: a field's place among the fields of the first card to have it, so that
the whole space's columns come in the order of the cards' own, as a page's do (fields
first seen on one card came by name: an export's columns differed from a page's)."""

MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}
"""Each takes a store of the version before the key to that version."""


def is_in_use(error: sqlite3.Error) -> bool:
    """The error says another program holds the store ("database is locked", busy)."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


def is_damage(error: sqlite3.Error) -> bool:
    """SQLite finds the file itself damaged, or no database: not a passing problem.

    Told by its words too: a writing process sends its errors back as text.
    """
    text = str(error).lower()
    named = getattr(error, "sqlite_errorname", None) in ("SQLITE_CORRUPT", "SQLITE_NOTADB")
    return named or "malformed" in text or "not a database" in text


def passing_problem(error: sqlite3.Error) -> StoreProblem | None:
    """What keeps a store from use for now, where the file is not at fault: another
    program holds it, the disk is full, the file or its folder is read-only, or the
    disk or the system failed to read or write it. None where the file is: no SQLite
    database, a damaged one, or one whose tables are not a store's (SQLite's plain
    "error")."""
    if is_in_use(error):
        return StoreProblem.IN_USE
    if "full" in str(error).lower():
        return StoreProblem.DISK_FULL
    if str(getattr(error, "sqlite_errorname", "")).startswith("SQLITE_READONLY"):
        return StoreProblem.READ_ONLY
    damaged = not isinstance(error, sqlite3.OperationalError) or (
        getattr(error, "sqlite_errorname", None) == "SQLITE_ERROR"
    )
    return None if damaged else StoreProblem.NOT_READ


def _bytes_in(path: Path) -> int | None:
    """The size of the file at `path`: 0 where there is none (SQLite removes its log as
    its last connection closes, at any moment); None where it cannot be looked at."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
    except OSError:
        return None


_HEADER_SIZE = 100
_SQLITE_MAGIC = b"SQLite format 3\0"
_USER_VERSION = slice(60, 64)
"""Where SQLite keeps `PRAGMA user_version` in its file's header (big-endian)."""


def refused_copy(path: Path) -> StoreProblem | None:
    """Why the copy at `path` can no longer be read by this version, if it cannot: gone
    (removed, or set aside as damaged), damaged, or written by a newer version.

    A look at the file's version alone, given up at once where another program holds
    the file (that is no refusal: it opens later): for the window's thread, after the
    copy failed to open, where opening the store again would wait seconds for such a
    program.
    """
    log_file = path.with_name(path.name + "-wal")
    header: bytes | None = None  # SQLite says what it is
    if _bytes_in(log_file) == 0:
        try:
            with path.open("rb") as file:
                header = file.read(_HEADER_SIZE)
        except FileNotFoundError:
            return StoreProblem.GONE
        except OSError:
            pass
        if _bytes_in(log_file) != 0:  # another program began writing meanwhile
            header = None
    if header is not None:
        # No log: the file's own header is the copy's version, and reading it leaves
        # no files beside it, as a read-only connection would (`-wal`, `-shm`).
        if not header:
            return None  # a copy not yet written
        if len(header) < _HEADER_SIZE or not header.startswith(_SQLITE_MAGIC):
            return StoreProblem.DAMAGED
        version = int.from_bytes(header[_USER_VERSION], "big", signed=True)
        return StoreProblem.NEWER_VERSION if version > SCHEMA_VERSION else None
    try:
        # Read-only: no file made where there is none, and no checkpoint on closing
        # (the last connection to close one writes the log into the file: seconds).
        uri = f"{path.as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=0.05)) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error as error:
        if passing_problem(error) is not None:
            return None
        return StoreProblem.GONE if not path.exists() else StoreProblem.DAMAGED
    return StoreProblem.NEWER_VERSION if version > SCHEMA_VERSION else None


READ_ONLY_TEXT = (
    "The local copy of this space may not be changed: its file, or the folder it is in, "
    "is read-only for you. It stays as it was; once you may change them, the next sync "
    "goes on from it."
)


class StoreProblem(Enum):
    """Why a local copy cannot be used, for the window to say in its language."""

    NEWER_VERSION = "written by a newer version"
    IN_USE = "in use by another program"
    DISK_FULL = "disk full"
    READ_ONLY = "read-only"
    """Its file, or the folder it is in, may not be changed by the person (permissions)."""
    NOT_WRITTEN = "not written"
    NOT_READ = "not read"
    """The disk or the system failed to read it (not the file's fault): left as it is."""
    REPLACED = "replaced by newer syncs"
    """The copy a window showed is gone: newer syncs replaced it."""
    GONE = "gone"
    """The store's file is gone from this computer (Remove Local Copies, say)."""
    OVERTAKEN = "synced by another program meanwhile"
    """A sync begun later by another program finished first: its copy is kept."""
    DAMAGED = "damaged"
    """SQLite found the file damaged while it was used: set aside, a new one is made."""


class StoreError(Exception):
    """The local copy cannot be used; the message says why in plain words, `problem` too.

    `copy_before` is False where a sync failed that had no copy to keep (the space's
    first): the message then says that none was made, not that the copy stays.
    """

    def __init__(
        self,
        message: str,
        problem: StoreProblem = StoreProblem.NOT_WRITTEN,
        *,
        copy_before: bool = True,
    ) -> None:
        super().__init__(message)
        self.problem = problem
        self.copy_before = copy_before

    def __reduce__(
        self,
    ) -> tuple[Callable[[str, StoreProblem, bool], StoreError], tuple[str, StoreProblem, bool]]:
        """Pickled with its problem: a job's process sends it back (`process_job`)."""
        return _store_error, (str(self), self.problem, self.copy_before)


def _store_error(message: str, problem: StoreProblem, copy_before: bool) -> StoreError:
    """A `StoreError` unpickled (its keyword is not one of `__reduce__`'s arguments)."""
    return StoreError(message, problem, copy_before=copy_before)


@dataclass(frozen=True)
class Generation:
    """One complete copy of the space: when it was synced and how many cards it has."""

    id: int
    synced_at: datetime
    card_count: int
    with_emails: bool = False
    """Whether the cards were fetched with their e-mail addresses."""


def connect_store(path: Path, *, create: bool = True) -> sqlite3.Connection:
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
        add_card_content(connection)
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
        _use_wal(connection, BUSY_TIMEOUT_MS / 1000 if create else READER_WAL_WAIT)
        connection.execute("PRAGMA synchronous = NORMAL")
        if version == 0:
            with write_transaction(connection):
                # Another program may have created the tables meanwhile.
                if connection.execute("PRAGMA user_version").fetchone()[0] == 0:
                    for statement in filter(str.strip, (_SCHEMA + _SORT_KEYS).split(";")):
                        connection.execute(statement)
                    connection.execute(_FIELD_COLLATIONS)
                    connection.execute(_FIELD_PLACES)
                    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif version < SCHEMA_VERSION:
            with write_transaction(connection):
                # Another program may have migrated it meanwhile.
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    MIGRATIONS[step](connection)
                    connection.execute(f"PRAGMA user_version = {step}")
        connection.execute(_EVERY_TABLE)  # "no such table": not a store, set aside
        # What a sync cut short by a crash left stays until the next sync tidies the
        # store (`drop_unused`): dropping it here, on the window's thread, would hold the
        # window for seconds (15 s at 100,000 cards). Readers never look at it.
        return connection
    except BaseException:
        connection.close()
        raise


def _use_wal(connection: sqlite3.Connection, within: float) -> None:
    """`PRAGMA journal_mode = WAL`, waiting up to `within` seconds for another connection.

    A new file is switched to WAL by the first connection to open it. One opening it at
    the same moment (the window showing the copy a sync has just begun) is told
    "database is locked" at once: SQLite does not call the busy handler there, and the
    sync said the copy was in use by another program.
    """
    deadline = time.monotonic() + within
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if not is_in_use(error) or time.monotonic() >= deadline:
                raise
        time.sleep(WAL_RETRY_SECONDS)


_EVERY_TABLE = (
    "SELECT 1 FROM generations, state, cards, card_text, card_search, sort_keys, fields LIMIT 0"
)
"""Prepared only: fails when a table of the store is missing."""


@contextlib.contextmanager
def write_transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: all of it or none of it, whatever stops it."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if connection.in_transaction:  # SQLite ends some on its own (a full disk)
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


LAST_GENERATION = "last_generation"
"""The state's key of the largest generation number a sync began (`CardStore.begin_sync`):
numbers are not used twice, also once the copies that had them are dropped."""

CHANGES_FILE_COPY = "changes_file"
"""The state's key of the copy the last file of changes was written from (`CardStore`):
kept, so that the next file says what changed since, whatever synced meanwhile."""
_UNUSED_COPY = (
    "synced_at IS NOT NULL AND id NOT IN "
    f"(SELECT value FROM state WHERE key IN ('current', 'previous', '{CHANGES_FILE_COPY}'))"
)
"""A generation that was current once and is neither current nor previous now, nor the
copy the last file of changes was written from."""

_UNFINISHED_SYNC = (
    "synced_at IS NULL AND id < (SELECT COALESCE(MAX(value), 0) FROM state WHERE key = 'current')"
)
"""A sync left unfinished by a process that is gone: older than any running one could be."""


_KEPT_FOR_CHANGES_ONLY = (
    f"id = (SELECT value FROM state WHERE key = '{CHANGES_FILE_COPY}') AND id NOT IN "
    "(SELECT value FROM state WHERE key IN ('current', 'previous'))"
    " AND EXISTS (SELECT 1 FROM card_text t WHERE t.generation = generations.id)"
)
"""The copy the last file of changes was written from, no longer shown (neither current
nor previous), with its search texts and sort keys still there."""


def drop_unused(connection: sqlite3.Connection) -> None:
    """Delete every generation that is neither current nor previous, nor the copy of the
    last file of changes (`CHANGES_FILE_COPY`), nor being written; of that last copy,
    once neither current nor previous, keep the cards alone (`trim_kept_copies`).

    Cheap when there is none: only then are the indexes looked at. Seconds at 100,000
    cards when there is (10 to 25 s for a whole copy): a sync does it once its copy is
    current, and a file of changes as it is noted, never the window's thread.
    """
    dropped = connection.execute(f"DELETE FROM generations WHERE {_UNUSED_COPY}").rowcount
    dropped += connection.execute(f"DELETE FROM generations WHERE {_UNFINISHED_SYNC}").rowcount
    if dropped:
        drop_unused_search(connection)
    trim_kept_copies(connection)


def trim_kept_copies(connection: sqlite3.Connection) -> None:
    """Keep only the cards of a copy kept for the next file of changes alone.

    Such a copy is never shown again, nor searched or sorted: the next file compares
    its cards with the current copy's, by id and content, and then it is dropped. Its
    search texts and sort keys took three fifths of its room on disk (150 of 250 MB at
    100,000 cards), for a night or a weekend between two runs of a scheduled sync.
    """
    query = f"SELECT id FROM generations WHERE {_KEPT_FOR_CHANGES_ONLY}"
    for (generation,) in connection.execute(query).fetchall():
        connection.execute("DELETE FROM card_search WHERE generation = ?", (generation,))
        for name in index_names(generation):
            connection.execute(f"DROP INDEX IF EXISTS {name}")
        for table in ("sort_keys", "fields", "card_text"):
            connection.execute(f"DELETE FROM {table} WHERE generation = ?", (generation,))


def drop_unused_search(connection: sqlite3.Connection) -> None:
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


def utc_now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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
            (generation, field, position, *stored_sort_key(kind, value))
            for generation, position, text in rows.fetchall()
            for field, (kind, value) in card_sort_keys(parse_card(json.loads(text)))
        ),
    )
    for (generation,) in connection.execute("SELECT id FROM generations").fetchall():
        add_empty_keys(connection, generation)
        # Not ranked nor indexed: version 3 ranks every copy again as it is sorted.
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
            (generation, ID_KEY, position, *stored_sort_key(*sort_key(uuid)))
            for generation, position, uuid in rows.fetchall()
        ),
    )
    for (generation,) in connection.execute("SELECT id FROM generations").fetchall():
        for name in index_names(generation):
            connection.execute(f"DROP INDEX IF EXISTS {name}")
    connection.execute("UPDATE generations SET collation = NULL")


def _add_field_places(connection: sqlite3.Connection) -> None:
    """Version 5: each field's place within the first card to have it. The fields of a
    copy synced before keep 0 there, and those of one card come by name as before."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(fields)")}
    if "place" not in columns:
        connection.execute(_FIELD_PLACES)


def _add_field_collations(connection: sqlite3.Connection) -> None:
    """Version 4: the collation of each field, that of its copy until then.

    A copy of version 2 got its ids' sort keys from version 3 but no row in `fields`
    for them: version 3 ranked every field of the sort keys, version 4 the fields
    listed, so the id is listed here.
    """
    columns = {row[1] for row in connection.execute("PRAGMA table_info(fields)")}
    if "collation" not in columns:
        connection.execute(_FIELD_COLLATIONS)
    connection.execute(
        "INSERT OR IGNORE INTO fields (generation, field, first_position) "
        "SELECT id, :id, (SELECT position FROM sort_keys WHERE generation = g.id "
        "AND field = :id ORDER BY position LIMIT 1) AS first FROM generations g "
        "WHERE first IS NOT NULL",
        {"id": ID_KEY},
    )
    connection.execute(
        "UPDATE fields SET collation = "
        "(SELECT g.collation FROM generations g WHERE g.id = fields.generation)"
    )


MIGRATIONS[2] = _add_sort_keys
MIGRATIONS[3] = _add_id_keys
MIGRATIONS[4] = _add_field_collations
MIGRATIONS[5] = _add_field_places
