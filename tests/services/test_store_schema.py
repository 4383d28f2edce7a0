"""The file of a local copy: its versions, who may read it, and other programs using it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cardviewer.api.models import parse_card
from cardviewer.services import card_store, store_schema
from cardviewer.services.card_store import CardStore
from cardviewer.services.store_schema import (
    SCHEMA_VERSION,
    StoreError,
    StoreProblem,
    refused_copy,
)
from tests.services.stores import (
    RecordingKey,
    a_store_path,
    cards,
    connecting_fails,
    generation_ids,
    synced,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return a_store_path(tmp_path)


def test_a_store_of_a_newer_version_is_refused_and_left_alone(path):
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer version of CardViewer") as refused:
        CardStore.open(path)
    assert refused.value.problem is StoreProblem.NEWER_VERSION
    assert path.read_bytes() == before


def as_the_first_version(path: Path) -> None:
    """Make the store at `path` what the first version wrote: no sort keys, no fields."""
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE sort_keys")
        db.execute("DROP TABLE fields")
        db.execute("ALTER TABLE generations DROP COLUMN collation")
        db.execute("ALTER TABLE generations DROP COLUMN with_emails")
        db.execute("PRAGMA user_version = 1")


def test_a_store_of_the_first_version_is_migrated_and_sorts_its_cards(path):
    people = [
        parse_card({"uuid": "b", "display_name": "émile", "connects": 10}),
        parse_card({"uuid": "a", "display_name": "Zoë", "connects": 2}),
        parse_card({"uuid": "c", "display_name": "Ada"}),
    ]
    with CardStore.open(path) as store:
        synced(store, people)
    as_the_first_version(path)
    with CardStore.open(path) as store:
        assert [c.uuid for c in store.cards()] == ["b", "a", "c"]
        assert store.current is not None
        assert not store.current.with_emails
        assert store.ordered("display_name") == [2, 0, 1]
        assert store.ordered("connects", descending=True) == [0, 1, 2], "empty last"
        assert store.ordered("uuid") == [1, 0, 2]
        assert store.extra_fields() == []
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_store_of_the_second_version_gets_the_card_ids_to_sort_by(path):
    with CardStore.open(path) as store:
        synced(store, cards("b", "c", "a", ""))
        assert store.ordered("uuid", collation="de") == [2, 0, 1, 3]
    with sqlite3.connect(path) as db:  # the second version kept no key for the id
        db.execute("DELETE FROM sort_keys WHERE field = 'uuid'")
        db.execute("DELETE FROM fields WHERE field = 'uuid'")
        db.execute("ALTER TABLE fields DROP COLUMN collation")
        db.execute("PRAGMA user_version = 2")
    with CardStore.open(path) as store:
        assert store.ordered("uuid", collation="de") == [2, 0, 1, 3], "no id last"
        assert store.ordered("uuid", descending=True, collation="de") == [1, 0, 2, 3]
        assert store.ordered("display_name", collation="de") == [3, 2, 0, 1]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        indexes = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index'")
        assert indexes.fetchone()[0] == 2 + 2, "by uuid and state, and the copy's two"


def test_a_store_of_the_third_version_keeps_its_ranks_for_each_field(path):
    """Version 4 notes the collation of each field: a copy ranked as a whole before is
    not ranked again, and a sort in another language ranks the field sorted alone."""
    key = RecordingKey()
    ranked = key.texts
    with CardStore.open(path) as store:
        synced(store, cards("b", "a"))
        assert store.ordered("display_name", text_key=key, collation="de") == [1, 0]
    with sqlite3.connect(path) as db:  # the third version noted the copy's collation alone
        db.execute("ALTER TABLE fields DROP COLUMN collation")
        db.execute("PRAGMA user_version = 3")
    ranked.clear()
    with CardStore.open(path) as store:
        assert store.ordered("display_name", text_key=key, collation="de") == [1, 0]
        assert ranked == [], "ranked under de as a whole: no field again"
        assert store.ordered("uuid", descending=True, text_key=key, collation="fr") == [0, 1]
        assert set(ranked) == {"a", "b"}, "the ids alone"
        assert not store.needs_ranking("de", "display_name")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_store_of_the_fourth_version_keeps_its_fields_by_name_until_synced_again(path):
    """Version 5 notes a field's place within its first card; a copy synced before keeps
    those of one card by name, and the next sync lists them in the card's order."""
    card = parse_card({"uuid": "a", "zone": 1, "theme": "dark"})
    with CardStore.open(path) as store:
        synced(store, [card])
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE fields DROP COLUMN place")
        db.execute("PRAGMA user_version = 4")
    with CardStore.open(path) as store:
        assert store.extra_fields() == ["theme", "zone"]
        synced(store, [card])
        assert store.extra_fields() == ["zone", "theme"]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_the_order_of_a_file_of_changes_is_kept_without_a_new_version(path):
    """A table of its own, made by the first file that needs it: a store marked before
    has none and reads no order, and an older CardViewer (a job's) reads the store as
    ever, where a new version would have been refused as newer."""
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a", "zone": 1})])
        copy = store.current
        assert copy is not None
        assert store.changes_file_fields() == []
        assert store.mark_changes_file(copy, fields=["zone", "theme"])
        assert store.changes_file_fields() == ["zone", "theme"]
        assert store.mark_changes_file(copy, fields=["theme"])
        assert store.changes_file_fields() == ["theme"]
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5


def test_a_store_of_the_first_version_with_e_mails_and_fields_of_its_own(path):
    """The migration finds that the cards were fetched with e-mails, and lists the fields."""
    people = [
        parse_card({"uuid": "a", "display_name": "Ada"}),
        parse_card({"uuid": "b", "emails": ["bob@example.com"], "theme": "dark"}),
    ]
    with CardStore.open(path) as store:
        synced(store, people)
    as_the_first_version(path)
    with CardStore.open(path) as store:
        assert store.current is not None
        assert store.current.with_emails
        assert store.extra_fields() == ["theme"]
        assert store.ordered("theme", descending=True) == [1, 0], "empty last"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_store_is_readable_by_this_user_only(path):
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        wal = Path(f"{path}-wal")
        assert not wal.exists() or stat.S_IMODE(wal.stat().st_mode) & 0o077 == 0
    assert stat.S_IMODE(path.parent.stat().st_mode) & 0o077 == 0


def test_a_copy_opens_at_once_while_another_program_writes_to_it(path, monkeypatch):
    """Reading needs no lock: a window opening the copy during another program's write
    (a sync's writing process ranking 100,000 cards holds it for seconds) does not wait
    for it. Rows an unfinished sync left behind stay for the next sync to drop: at an
    opening, on the window's thread, that would hold the window for seconds."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        assert store.current is not None
        left = store.current.id - 1  # free: the sync before it was dropped
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # what a crash leaves
        db.execute(
            "INSERT INTO generations (id, started_at, with_emails) VALUES (?, '2024-01-01', 0)",
            (left,),
        )
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 3000)
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    try:
        started = time.perf_counter()
        with CardStore.open(path) as store:
            waited = time.perf_counter() - started
            assert [c.uuid for c in store.cards()] == ["a"]
    finally:
        writer.rollback()
        writer.close()
    assert waited < 1.0, "opened without waiting for the other program"
    assert generation_ids(path) == [left, left + 1], "the unfinished sync's rows wait"
    with CardStore.open(path) as store:
        assert generation_ids(path) == [left, left + 1], "not dropped as the store opens"
        synced(store, cards("b"))
    assert generation_ids(path) == [left + 1, left + 2]


def test_a_store_another_program_holds_whole_is_in_use_and_left_alone(path, monkeypatch):
    """Locked even for reading: after waiting `BUSY_TIMEOUT_MS` it is refused, not set aside."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 200)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO state (key, value) VALUES ('other program', 1)")
    done = threading.Timer(2.0, other.rollback)  # ends a wait far longer than 200 ms
    done.start()
    started = time.perf_counter()
    try:
        with pytest.raises(StoreError, match="in use by another program") as refused:
            CardStore.open(path)
    finally:
        waited = time.perf_counter() - started
        done.cancel()
        done.join()
        other.rollback()
        other.close()
    assert refused.value.problem is StoreProblem.IN_USE
    assert waited >= 0.15, "refused only after waiting for the other program"
    assert list(path.parent.glob("*.damaged-*")) == []
    with CardStore.open(path) as store:
        assert [c.uuid for c in store.cards()] == ["a"]


@pytest.mark.parametrize(
    ("words", "name", "problem"),
    [
        ("database or disk is full", "SQLITE_FULL", StoreProblem.DISK_FULL),
        ("disk I/O error", "SQLITE_IOERR", StoreProblem.NOT_READ),
        ("database is locked", "SQLITE_BUSY", StoreProblem.IN_USE),
    ],
)
def test_a_store_that_cannot_be_opened_for_now_is_left_as_it_is(
    path, monkeypatch, words, name, problem
):
    """A full disk as an older store is brought up to date, a failing disk, another
    program: the file is not at fault, and its copy is there once that has passed."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    connecting_fails(monkeypatch, words, name)
    with pytest.raises(StoreError) as raised:
        CardStore.open(path)
    assert raised.value.problem is problem
    monkeypatch.undo()
    assert list(path.parent.glob("*.damaged-*")) == []
    with CardStore.open(path) as store:
        assert [card.uuid for card in store.cards()] == ["a"]


@pytest.mark.parametrize("writable", [False, True], ids=["read-only folder", "writable folder"])
def test_a_store_sqlite_cannot_open_in_a_read_only_folder_is_said_read_only(
    path, monkeypatch, writable
):
    """SQLite makes its journal beside the file, and says only that it cannot open it:
    the person was told that the copy "could not be read (unable to open database
    file)", with nothing to do about it."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    connecting_fails(monkeypatch, "unable to open database file", "SQLITE_CANTOPEN")
    monkeypatch.setattr(os, "access", lambda *_args, **_options: writable)
    with pytest.raises(StoreError) as raised:
        CardStore.open(path)
    expected = StoreProblem.NOT_READ if writable else StoreProblem.READ_ONLY
    assert raised.value.problem is expected
    if not writable:
        assert str(raised.value).startswith("The local copy of this space may not be changed")
    assert list(path.parent.glob("*.damaged-*")) == []


def test_a_damaged_store_set_aside_whose_new_one_cannot_be_started_says_why(path, monkeypatch):
    """The disk full just then: a StoreError, not SQLite's own."""
    path.parent.mkdir(parents=True)
    path.write_bytes(b"no database" * 100)
    started = store_schema.connect_store
    calls: list[Path] = []

    def full_the_second_time(at: Path, **options: Any) -> sqlite3.Connection:
        calls.append(at)
        if len(calls) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        return started(at, **options)

    monkeypatch.setattr(card_store, "connect_store", full_the_second_time)
    with pytest.raises(StoreError) as raised:
        CardStore.open(path)
    assert raised.value.problem is StoreProblem.DISK_FULL
    assert len(list(path.parent.glob("*.damaged-*"))) == 1


def test_a_store_that_is_gone_is_not_made_again_by_reading_it(path):
    """Only a sync makes a store; a window reading a copy removed meanwhile says so."""
    with pytest.raises(StoreError) as raised:
        CardStore.open(path, create=False)
    assert raised.value.problem is StoreProblem.GONE
    assert not path.exists()
    CardStore.open(path).close()
    CardStore.open(path, create=False).close()


def test_a_database_without_the_stores_tables_is_set_aside(path):
    """A database that is no store of this version (its tables gone) counts as damaged."""
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    with CardStore.open(path) as store:
        assert store.current is None
        synced(store, cards("a"))
    (aside,) = path.parent.glob(f"{path.name}.damaged-*")
    with sqlite3.connect(aside) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]


def test_two_programs_opening_a_new_store_at_once_use_the_tables_one_of_them_made(
    path, monkeypatch
):
    """The second finds the store new, then the tables made by the time it may write."""
    connect = sqlite3.connect
    others: list[str] = []

    class Raced(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql == "BEGIN IMMEDIATE" and not others:
                others.append("opened")
                with CardStore.open(path) as other:  # the other program, just before
                    synced(other, cards("a"))
            return super().execute(sql, *args)

    def raced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return connect(*args, factory=Raced, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", raced)
    with CardStore.open(path) as store:
        assert [c.uuid for c in store.cards()] == ["a"]
    monkeypatch.undo()
    assert others == ["opened"]
    assert list(path.parent.glob("*.damaged-*")) == []


def test_a_new_file_another_connection_is_switching_to_wal_is_waited_for(tmp_path):
    """The window opened the file a resumed sync had just made, both switching it to WAL:
    SQLite told one "database is locked" at once, without its busy timeout, and the sync
    said the copy was in use by another program."""
    path = tmp_path / "space.sqlite"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # a new file, held as a switch to WAL under way holds it
    letting_go = threading.Timer(0.3, other.rollback)
    letting_go.start()
    started = time.monotonic()
    try:
        with CardStore.open(path) as store:
            assert store.current is None
        assert time.monotonic() - started >= 0.25, "it waited for the other connection"
    finally:
        letting_go.join()
        other.close()


def test_a_file_held_longer_than_the_busy_timeout_is_still_in_use(tmp_path, monkeypatch):
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "space.sqlite"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError) as raised:
            CardStore.open(path)
        assert raised.value.problem is StoreProblem.IN_USE
    finally:
        other.rollback()
        other.close()


def test_a_reader_waits_only_briefly_for_a_new_file_held_by_another(tmp_path):
    """The window opens a copy on its own thread: a file another program holds for good
    is said to be in use after half a second, not after the store's five."""
    path = tmp_path / "space.sqlite"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    try:
        with pytest.raises(StoreError) as raised:
            CardStore.open(path, create=False)
        assert raised.value.problem is StoreProblem.IN_USE
        assert 0.4 <= time.monotonic() - started < 2.0
    finally:
        other.rollback()
        other.close()


def test_a_copy_refused_is_told_from_its_file_without_waiting_for_another_program(path):
    assert refused_copy(path) is StoreProblem.GONE
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a"})])
    assert refused_copy(path) is None
    other = sqlite3.connect(path, isolation_level=None)
    try:  # another program holding the whole file: no refusal, it opens later
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("INSERT INTO state (key, value) VALUES ('other program', 1)")
        started = time.monotonic()
        assert refused_copy(path) is None
        assert time.monotonic() - started < 1.0, "not the five seconds a reader waits"
    finally:
        other.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    assert refused_copy(path) is StoreProblem.NEWER_VERSION
    path.write_bytes(b"\0garbage" * 4096)
    assert refused_copy(path) is StoreProblem.DAMAGED
    assert path.read_bytes() == b"\0garbage" * 4096, "left as it is"


def test_a_look_at_a_copy_s_version_leaves_no_files_beside_it(path):
    """A read-only connection cannot take its log back into the file as it closes: the
    look left `-wal` and `-shm` beside a copy no program had open."""
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a"})])
    beside = sorted(path.parent.iterdir())
    assert refused_copy(path) is None
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    assert refused_copy(path) is StoreProblem.NEWER_VERSION
    assert sorted(path.parent.iterdir()) == beside


def test_a_log_removed_as_the_copy_is_looked_at_is_no_log(path, monkeypatch):
    """SQLite removes the `-wal` as its last connection closes, at any moment: found,
    then gone before its size was read, it raised `FileNotFoundError` into a Qt slot."""
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a"})])
    log_file = path.with_name(path.name + "-wal")
    stat = Path.stat

    def gone_by_now(self: Path, **options: bool) -> os.stat_result:
        if self == log_file:
            raise FileNotFoundError(2, "No such file or directory", str(self))
        return stat(self, **options)

    monkeypatch.setattr(Path, "exists", lambda self, **options: True)
    monkeypatch.setattr(Path, "stat", gone_by_now)
    assert refused_copy(path) is None


def test_a_copy_s_version_still_in_its_log_is_read_from_there(path):
    """Where another program has written the version to the log and not yet into the
    file, the file's own header is not the version."""
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a"})])
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("PRAGMA wal_autocheckpoint = 0")
        other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        assert refused_copy(path) is StoreProblem.NEWER_VERSION
    finally:
        other.close()
    path.write_bytes(b"")
    assert refused_copy(path) is None, "an empty file is a copy not yet written"
    path.write_bytes(b"SQLite format 3")
    assert refused_copy(path) is StoreProblem.DAMAGED
