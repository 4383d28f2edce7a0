"""Sync Space: the whole space into its local copy, or nothing changed at all."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import pickle
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from cardviewer.api import CardPage
from cardviewer.api.errors import ServerError
from cardviewer.api.models import parse_card
from cardviewer.services import store_schema, store_sync
from cardviewer.services.card_store import CardStore
from cardviewer.services.space_fetch import PageFetch
from cardviewer.services.space_sync import changes_of, no_copy_made, ranked_under, sync_space
from cardviewer.services.store_schema import StoreError, StoreProblem
from cardviewer.services.store_sync import StoreSync
from cardviewer.services.store_writer import ThreadWriter, start_writer
from cardviewer.services.sync_lock import SyncLock
from tests.services.stores import damage_table, generation_ids, synced

pytestmark = pytest.mark.anyio

PER_PAGE = 10


@pytest.fixture
def anyio_backend():
    return "asyncio"


def space(
    total: int, *, failing: int | None = None, prefix: str = "c", per_page: int = PER_PAGE
) -> PageFetch:
    last = max(1, -(-total // per_page))

    async def fetch(number: int) -> CardPage:
        if number == failing:
            raise ServerError("The server had a problem.", 500)
        first = (number - 1) * per_page
        batch = tuple(
            parse_card({"uuid": f"{prefix}{n}", "display_name": f"Person {n}"})
            for n in range(first, min(first + per_page, total))
        )
        meta = {"current_page": number, "last_page": last, "per_page": per_page, "total": total}
        return CardPage.model_validate({"cards": batch, "meta": meta, "links": {}})

    return fetch


def on_thread(sync: StoreSync, path: Path) -> ThreadWriter:
    """A sync's writer on a thread of this process, where `Watched` can watch it."""
    return ThreadWriter(sync, path)


@pytest.fixture
def store(tmp_path: Path):
    with CardStore.open(tmp_path / "space.sqlite") as store:
        yield store


async def test_every_card_of_the_space_in_order(store):
    generation = await sync_space(store, space(95), concurrency=4)
    assert generation.card_count == 95
    assert not generation.with_emails
    assert store.current == generation
    assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(95)]


async def test_the_copy_records_whether_it_has_the_e_mail_addresses(store):
    generation = await sync_space(store, space(3), with_emails=True)
    assert generation.with_emails
    assert store.current == generation


@pytest.mark.parametrize("writer_for", [start_writer, on_thread], ids=["process", "thread"])
async def test_the_copy_no_longer_needed_is_dropped_after_the_new_one_is_current(store, writer_for):
    """Handed to `tidy_later`, the drop (10 to 25 s at 100,000 cards) waits for the
    caller: the sync's result, the new copy, is there before it."""
    await sync_space(store, space(3, prefix="first"), writer_for=writer_for)
    oldest = store.current
    await sync_space(store, space(3, prefix="second"), writer_for=writer_for)
    tidying: list[Coroutine[Any, Any, None]] = []
    generation = await sync_space(store, space(4), writer_for=writer_for, tidy_later=tidying.append)
    assert store.current == generation
    assert oldest is not None
    assert oldest.id in generation_ids(store.path)
    (work,) = tidying
    await work
    assert oldest.id not in generation_ids(store.path)
    assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(4)]


async def test_a_tidying_that_fails_leaves_the_copy_current(store, caplog, monkeypatch):
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 100)
    await sync_space(store, space(3, prefix="first"))
    await sync_space(store, space(3, prefix="second"))
    blocker = sqlite3.connect(store.path, isolation_level=None)
    tidying: list[Coroutine[Any, Any, None]] = []
    generation = await sync_space(store, space(2), writer_for=on_thread, tidy_later=tidying.append)
    blocker.execute("BEGIN IMMEDIATE")  # another program writes for longer than it waits
    try:
        with caplog.at_level(logging.WARNING):
            await tidying[0]
    finally:
        blocker.rollback()
        blocker.close()
    assert "stay until the next sync" in caplog.text
    assert store.current == generation
    assert len(generation_ids(store.path)) == 3


@pytest.mark.parametrize("writer_for", [start_writer, on_thread], ids=["process", "thread"])
async def test_a_sync_another_program_overtook_says_so(store, writer_for):
    """Begun later, finished first, the other program's sync dropped this one's copy as
    one a crash left behind: this one's rows can no longer be written, and it says why
    rather than blame the disk."""
    await sync_space(store, space(3, prefix="first"))
    pages = space(30)
    may_go_on = asyncio.Event()

    async def held(number: int) -> CardPage:
        if number == 2:
            await may_go_on.wait()
        return await pages(number)

    overtaken = asyncio.ensure_future(sync_space(store, held, writer_for=writer_for))
    await until(lambda: len(generation_ids(store.path)) == 2)
    with CardStore.open(store.path) as other:  # the other program
        synced(other, [parse_card({"uuid": "theirs"})])
    may_go_on.set()
    with pytest.raises(StoreError) as refused:
        await overtaken
    assert str(refused.value) == (
        "Another program synced this space meanwhile and its copy is kept; this one was "
        "not written."
    )
    assert [card.uuid for card in store.cards()] == ["theirs"]


class DamageFound(ThreadWriter):
    """Writes as a thread does, and then finds the file damaged, as SQLite says so."""

    async def add(self, sent: list[Mapping[str, Any]]) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")


async def test_a_store_sqlite_finds_damaged_during_a_sync_is_set_aside_for_a_new_one(store):
    """Found damaged only at the open before, it failed every sync after, and said the
    copy could not be written, as for a passing fault."""
    await sync_space(store, space(3, prefix="old"))
    with pytest.raises(StoreError) as damaged:
        await sync_space(store, space(30), writer_for=DamageFound)
    assert damaged.value.problem is StoreProblem.DAMAGED
    assert "set aside, and the next sync makes a new one" in str(damaged.value)
    folder = store.path.parent
    assert list(folder.glob(f"{store.path.name}.damaged-*"))
    assert not store.path.exists()
    store.close()
    with CardStore.open(store.path) as new:
        await sync_space(new, space(5))
        assert [card.uuid for card in new.cards()] == [f"c{n}" for n in range(5)]


async def test_what_changed_read_from_a_damaged_store_sets_it_aside(store, monkeypatch):
    await sync_space(store, space(3))

    def damaged(_store: CardStore) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(CardStore, "changes", damaged)
    with pytest.raises(StoreError) as refused:
        changes_of(store)
    assert refused.value.problem is StoreProblem.DAMAGED
    assert not store.path.exists()


@pytest.mark.parametrize("table", ["generations", "state"])
async def test_a_store_damaged_where_a_sync_begins_is_set_aside_for_a_new_one(tmp_path, table):
    """Damage in the list of copies failed every sync after as a passing fault would,
    with the copy never set aside."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        await sync_space(store, space(3, prefix="old"))
    damage_table(path, table)
    with CardStore.open(path, create=False) as store, pytest.raises(StoreError) as refused:
        await sync_space(store, space(30))
    assert refused.value.problem is StoreProblem.DAMAGED
    assert list(tmp_path.glob("space.sqlite.damaged-*"))
    with CardStore.open(path) as new:
        await sync_space(new, space(5))
        assert [card.uuid for card in new.cards()] == [f"c{n}" for n in range(5)]


async def test_the_collation_read_from_a_damaged_store_sets_it_aside(tmp_path):
    """`cardviewer sync` reads it before it syncs: a traceback, at every sync."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        await sync_space(store, space(3))
    damage_table(path, "state")
    with CardStore.open(path, create=False) as store, pytest.raises(StoreError) as refused:
        ranked_under(store)
    assert refused.value.problem is StoreProblem.DAMAGED
    assert not path.exists()


@pytest.mark.parametrize(
    ("number", "problem"),
    [(errno.EROFS, StoreProblem.READ_ONLY), (errno.ENOSPC, StoreProblem.DISK_FULL)],
    ids=["read-only", "full"],
)
async def test_a_sync_whose_lock_file_cannot_be_made_says_why(store, monkeypatch, number, problem):
    """`cardviewer sync` said that the folder of the copy "could not be made", though it
    was there, and the window had no sentence for it."""
    await sync_space(store, space(3, prefix="old"))

    def refused(_path: Path) -> SyncLock | None:
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(SyncLock, "take", refused)
    with pytest.raises(StoreError) as failed:
        await sync_space(store, space(30))
    assert failed.value.problem is problem
    assert "stays as it was" in str(failed.value)
    monkeypatch.undo()
    assert [card.uuid for card in store.cards()] == ["old0", "old1", "old2"]


async def test_a_sync_called_off_as_it_begins_leaves_nothing_begun(store, monkeypatch):
    """The generation (and the lock) its thread went on to make stayed behind."""
    await sync_space(store, space(3, prefix="old"))
    kept = generation_ids(store.path)
    beginning, may_begin = threading.Event(), threading.Event()
    begin = CardStore.begin_sync

    def held(self: CardStore, **options: bool) -> StoreSync:
        beginning.set()
        may_begin.wait(5)
        return begin(self, **options)

    monkeypatch.setattr(CardStore, "begin_sync", held)
    sync = asyncio.ensure_future(sync_space(store, space(30)))
    await until(beginning.is_set)
    sync.cancel()
    await let_run()
    may_begin.set()
    with pytest.raises(asyncio.CancelledError):
        await sync
    await asyncio.sleep(0.5)  # a thread left to go on would have begun it by now
    assert generation_ids(store.path) == kept
    assert list(store.path.parent.glob("*.sync-*")) == []


async def test_a_failed_sync_keeps_the_copy_before_it(store):
    await sync_space(store, space(30, prefix="old"))
    with pytest.raises(ServerError):
        await sync_space(store, space(95, failing=7), concurrency=2)
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(30)]
    assert store.changes() is None


async def test_a_full_disk_says_so_and_keeps_the_copy_before_it(store):
    """Written on a thread: the limit is the sync's own connection's. (A full disk
    while the process writes or ranks: tests/services/test_store_writer.py.)"""
    await sync_space(store, space(20, prefix="old"))
    store._db.execute("PRAGMA max_page_count = 16")  # as small as the disk left over
    with pytest.raises(StoreError, match="disk is full"):
        await sync_space(store, space(5000), concurrency=4, writer_for=on_thread)
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(20)]


async def test_a_copy_that_may_not_be_changed_says_so_and_is_kept(store):
    """Its file or folder read-only for the person: that was "could not be written",
    without a reason, or SQLite's own words."""
    await sync_space(store, space(20, prefix="old"))
    store._db.execute("PRAGMA query_only = ON")  # as a file the person may only read
    with pytest.raises(StoreError, match="read-only for you") as raised:
        await sync_space(store, space(100), writer_for=on_thread)
    assert raised.value.problem is StoreProblem.READ_ONLY
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(20)]


async def test_a_sync_waits_for_another_sync_writing_for_longer_than_a_reader_waits(
    tmp_path, monkeypatch
):
    """Another sync ranks its copy, or drops the copy before, in one transaction of 8
    to 25 s at 100,000 cards: a sync meanwhile gave up after 5 s, as a reader does,
    with every page fetched."""
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 100)
    path = tmp_path / "space.sqlite"
    holding = threading.Event()

    def another_sync() -> None:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            holding.set()
            time.sleep(0.6)  # six times what a reader waits
            other.execute("COMMIT")

    with CardStore.open(path) as store:
        await sync_space(store, space(20, prefix="old"))
        holder = threading.Thread(target=another_sync)
        holder.start()
        holding.wait(5)
        await sync_space(store, space(30), writer_for=on_thread)
        holder.join()
        assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(30)]


async def test_a_copy_another_program_keeps_locked_is_told_as_in_use_and_kept(
    tmp_path, monkeypatch
):
    """Another program writing to the copy for longer than the sync waits for it."""
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 100)
    monkeypatch.setattr(store_sync, "SYNC_BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        await sync_space(store, space(20, prefix="old"))
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # holds the write lock until it ends
            with pytest.raises(StoreError, match="in use by another program") as raised:
                await sync_space(store, space(100), writer_for=on_thread)
            other.execute("ROLLBACK")
        assert raised.value.problem is StoreProblem.IN_USE
        assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(20)]
        await sync_space(store, space(5))  # once the other program is done
        assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(5)]


class Watched:
    """What a sync does to the store, written on a thread (`on_thread`): each batch of
    cards written, and the end of the sync.

    With `hold`, the first batch is not written until `release` is set; with
    `abandon_fails`, removing an unfinished sync fails as a locked database would.
    """

    def __init__(
        self,
        store: CardStore,
        monkeypatch: pytest.MonkeyPatch,
        *,
        hold: bool = False,
        abandon_fails: bool = False,
    ) -> None:
        self.calls: list[str] = []
        self.batches: list[int] = []
        self.writing = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()
        begin = store.begin_sync

        def begin_sync(*, with_emails: bool = False) -> StoreSync:
            sync = begin(with_emails=with_emails)
            add, abandon = sync.add_sent, sync.abandon

            def adding(sent: Iterable[Mapping[str, Any]]) -> None:
                batch = list(sent)
                self.calls.append("add")
                self.writing.set()
                self.release.wait(5)
                add(batch)
                self.batches.append(len(batch))
                self.calls.append("added")

            def abandoning() -> None:
                self.calls.append("abandon")
                if abandon_fails:
                    raise sqlite3.OperationalError("database is locked")
                abandon()

            monkeypatch.setattr(sync, "add_sent", adding)
            monkeypatch.setattr(sync, "abandon", abandoning)
            return sync

        monkeypatch.setattr(store, "begin_sync", begin_sync)


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until `condition` holds (5 s at most)."""
    async with asyncio.timeout(5):
        while not condition():  # noqa: ASYNC110 - the conditions are plain attributes
            await asyncio.sleep(0)


async def let_run() -> None:
    """Let every task that can go on go on, for a good many turns of the loop."""
    for _ in range(200):
        await asyncio.sleep(0)


@pytest.mark.parametrize(("per_page", "written"), [(1, [500, 500, 201]), (7, [504, 504, 193])])
async def test_cards_are_written_500_or_a_page_more_at_a_time(
    store, monkeypatch, per_page, written
):
    """A transaction takes the pages that make 500 cards or more; the rest at the end."""
    watched = Watched(store, monkeypatch)
    generation = await sync_space(
        store, space(1201, per_page=per_page), concurrency=4, writer_for=on_thread
    )
    assert watched.batches == written
    assert generation.card_count == 1201


async def test_at_most_four_batches_wait_while_one_is_written(store, monkeypatch):
    """The fetch waits once four batches wait and a fifth is ready; a sixth is not fetched."""
    watched = Watched(store, monkeypatch, hold=True)
    asked: list[int] = []
    pages = space(10_000, per_page=100)

    async def fetch(number: int) -> CardPage:
        asked.append(number)
        return await pages(number)

    sync = asyncio.ensure_future(sync_space(store, fetch, concurrency=1, writer_for=on_thread))
    try:
        await until(watched.writing.is_set)
        await let_run()
        fetched = 100 * len(asked)
        assert 500 + 4 * 500 + 500 <= fetched < 500 + 4 * 500 + 2 * 500
        assert watched.calls == ["add"]
    finally:
        watched.release.set()
    generation = await sync
    assert generation.card_count == 10_000


async def test_a_sync_called_off_while_writing_ends_after_the_write(store, monkeypatch):
    """Nothing else touches the store while a batch is written on the worker thread."""
    await sync_space(store, space(20, prefix="old"), writer_for=on_thread)
    watched = Watched(store, monkeypatch, hold=True)
    sync = asyncio.ensure_future(
        sync_space(store, space(1200), concurrency=4, writer_for=on_thread)
    )
    try:
        await until(watched.writing.is_set)
        sync.cancel()
        await let_run()
        assert not sync.done()
        assert watched.calls == ["add"]
    finally:
        watched.release.set()
    with pytest.raises(asyncio.CancelledError):
        await sync
    assert watched.calls == ["add", "added", "abandon"]
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(20)]


async def test_an_unfinished_sync_that_cannot_be_removed_still_says_why_it_stopped(
    store, monkeypatch, caplog
):
    watched = Watched(store, monkeypatch, abandon_fails=True)
    with pytest.raises(ServerError):
        await sync_space(store, space(30, failing=2), writer_for=on_thread)
    assert watched.calls[-1] == "abandon"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["the unfinished sync could not be removed yet: database is locked"]


async def test_the_options_are_taken_by_name_only(store):
    with pytest.raises(TypeError):
        await sync_space(store, space(3), 4)  # type: ignore[call-arg]
    assert store.current is None


async def test_a_sync_called_off_while_it_finishes_ends_as_finished(store, monkeypatch):
    """Past the last page the copy is made current in one go; Cancel then waits for it,
    and the sync is done: nothing touches the store meanwhile."""
    finishing, release = threading.Event(), threading.Event()
    finish = StoreSync.finish

    def held(self: StoreSync, *args: object, **options: bool) -> object:
        finishing.set()
        release.wait(10)
        return finish(self, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(StoreSync, "finish", held)
    abandoned: list[int] = []
    monkeypatch.setattr(StoreSync, "abandon", lambda self: abandoned.append(1))
    sync = asyncio.ensure_future(sync_space(store, space(30), writer_for=on_thread))
    try:
        await until(finishing.is_set)
        sync.cancel()
        await let_run()
        assert not sync.done()
    finally:
        release.set()
    generation = await sync
    assert generation.card_count == 30
    assert store.current == generation
    assert abandoned == []


async def test_the_caller_hears_when_the_copy_is_being_finished(store):
    """After the last card is written and before the copy is made current, once."""
    await sync_space(store, space(20, prefix="old"))
    before = store.current
    heard: list[object] = []
    generation = await sync_space(
        store, space(30), on_finishing=lambda: heard.append(store.current)
    )
    assert heard == [before]
    assert store.current == generation


class SlowAbandon:
    """Records which thread begins and abandons a sync; dropping its rows takes a while."""

    SECONDS = 0.3

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.threads: list[tuple[str, threading.Thread]] = []
        self.dropped = False
        begin, abandon = CardStore.begin_sync, StoreSync.abandon

        def begun(store: CardStore, **options: bool) -> StoreSync:
            self.threads.append(("begin", threading.current_thread()))
            return begin(store, **options)

        def abandoned(sync: StoreSync) -> None:
            self.threads.append(("abandon", threading.current_thread()))
            time.sleep(self.SECONDS)  # as 100,000 cards' rows take seconds
            abandon(sync)
            self.dropped = True

        monkeypatch.setattr(CardStore, "begin_sync", begun)
        monkeypatch.setattr(StoreSync, "abandon", abandoned)


async def longest_pause_while(work: Awaitable[object]) -> float:
    """Seconds the loop's thread was kept from running a timer while `work` ran, at most."""
    loop = asyncio.get_running_loop()
    gaps = [0.0]

    async def tick() -> None:
        last = loop.time()
        while True:
            await asyncio.sleep(0.01)
            gaps.append(loop.time() - last - 0.01)
            last = loop.time()

    ticker = asyncio.ensure_future(tick())
    try:
        await work
    finally:
        ticker.cancel()
    return max(gaps)


async def test_a_stopped_sync_drops_what_it_wrote_off_the_loop_s_thread(store, monkeypatch):
    """Another program may hold the store for seconds, and the rows of a stopped sync
    of 100,000 cards take seconds to drop: neither keeps the window's thread."""
    await sync_space(store, space(30, prefix="old"))
    slow = SlowAbandon(monkeypatch)

    async def failing() -> None:
        with pytest.raises(ServerError):
            await sync_space(store, space(95, failing=7), concurrency=2, writer_for=on_thread)

    paused = await longest_pause_while(failing())
    assert [name for name, _thread in slow.threads] == ["begin", "abandon"]
    assert threading.main_thread() not in [thread for _name, thread in slow.threads]
    assert slow.dropped
    assert paused < SlowAbandon.SECONDS / 2
    assert [card.uuid for card in store.cards()] == [f"old{n}" for n in range(30)]


async def test_a_sync_called_off_twice_still_drops_what_it_wrote_before_it_ends(store, monkeypatch):
    """The store is the dropping thread's until it is done: a second Cancel waits."""
    slow = SlowAbandon(monkeypatch)
    watched = Watched(store, monkeypatch, hold=True)
    task = asyncio.ensure_future(sync_space(store, space(95), concurrency=2, writer_for=on_thread))
    await until(watched.writing.is_set)
    task.cancel()
    watched.release.set()  # the batch under way is written first
    await until(lambda: len(slow.threads) == 2)  # begun, and now dropping
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert slow.dropped, "the sync ended only once its rows were dropped"
    assert store.current is None


SAID_OF_A_COPY_KEPT = (
    StoreProblem.DISK_FULL,
    StoreProblem.READ_ONLY,
    StoreProblem.NOT_WRITTEN,
    StoreProblem.IN_USE,
)


@pytest.mark.parametrize("problem", list(StoreProblem))
def test_the_error_of_a_sync_with_no_copy_before_says_none_was_made(problem):
    """It crosses from the writing process as it is (`StoreError.__reduce__`)."""
    kept = StoreError("The local copy of this space stays as it was.", problem)
    error = pickle.loads(pickle.dumps(no_copy_made(kept)))
    assert (error.problem, error.copy_before) == (problem, False)
    assert pickle.loads(pickle.dumps(kept)).copy_before
    if problem in SAID_OF_A_COPY_KEPT:
        assert "stays as it was" not in str(error)
    else:
        assert str(error) == str(kept)
