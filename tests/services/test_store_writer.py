"""A sync's cards written in a process of their own: the same rows, and no orphan left.

Most tests start a real writing process; the protocol's failures are also checked with
its loop served by a thread of this process (`served_on_thread`), where the store's
connection can be made to fail on cue.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import multiprocessing.connection
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from multiprocessing import Pipe
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import Any

import pytest

from cardviewer.api import CardPage
from cardviewer.api.models import parse_card, parse_page_json
from cardviewer.services import store_sync
from cardviewer.services.card_store import CardStore
from cardviewer.services.process_job import KeptRecords
from cardviewer.services.space_fetch import PageFetch
from cardviewer.services.space_sync import sync_space
from cardviewer.services.store_schema import SCHEMA_VERSION, StoreError, StoreProblem
from cardviewer.services.store_sort_keys import FOLDED, folded_text_key, text_key_for
from cardviewer.services.store_sync import StoreSync, Written
from cardviewer.services.store_writer import (
    CardWriter,
    ProcessWriter,
    ThreadWriter,
    WriterStart,
    start_writer,
    write_batches,
)
from tests.services.stores import generation_ids, synced

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def anyio_backend():
    return "asyncio"


SENT_PEOPLE: list[Mapping[str, Any]] = [
    {
        "uuid": "a",
        "display_name": "Zoë Ärger",
        "connects": 12,
        "emails": ["zoe@example.com"],
        "created_at": "2024-05-01T10:00:00.000000Z",
        "favourite_colour": "teal",  # a field the specification does not list
    },
    {"uuid": "b", "display_name": "Ada", "connects": "many"},  # set aside
    {"uuid": "c", "display_name": "\ud800 lone", "emails": []},
    {"uuid": "d"},
]
"""Cards as the server sent them, as a sync hands them to its writer."""
PEOPLE = [parse_card(item) for item in SENT_PEOPLE]


def page_of(number: int, last: int, per_page: int = 10, prefix: str = "c") -> CardPage:
    first = (number - 1) * per_page
    cards = tuple(
        parse_card({"uuid": f"{prefix}{n}", "display_name": f"Person {n}"})
        for n in range(first, first + per_page)
    )
    meta = {"current_page": number, "last_page": last, "per_page": per_page, "total": last * 10}
    return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})


def rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Everything a sync wrote, table by table."""
    tables = {
        "cards": "SELECT position, uuid, json FROM cards",
        "card_text": "SELECT position, text FROM card_text",
        "sort_keys": "SELECT field, position, kind, value, text FROM sort_keys",
        "fields": "SELECT * FROM fields",
    }
    with sqlite3.connect(path) as db:
        return {name: sorted(db.execute(query), key=repr) for name, query in tables.items()}


@contextlib.asynccontextmanager
async def stopping(writers: Sequence[CardWriter]) -> AsyncIterator[None]:
    """Stop `writers` (those in the list at the end) whatever happens: a writer left
    waiting would hold the test's loop for good."""
    try:
        yield
    finally:
        for writer in writers:
            await writer.stop()


async def written_by(
    start: WriterStart,
    path: Path,
    batches: list[list[Mapping[str, Any]]],
    collation: str = FOLDED,
) -> tuple[Written, Written]:
    """What the writer of a sync under `collation` said it wrote, then what was finished."""
    with CardStore.open(path) as store:
        sync = store.begin_sync(with_emails=True)
        writer = start(sync, path)
        async with stopping([writer]):
            for batch in batches:
                await writer.add(batch)
            await writer.close(collation)
        closed = sync.written
        sync.finish(text_key_for(collation), collation)
        return closed, sync.written


@pytest.mark.parametrize("collation", [FOLDED, "de_DE", "sv_SE"])
async def test_a_process_writes_and_ranks_every_row_as_a_thread_does(tmp_path, collation):
    """The process also ranks the texts under the reader's collation and indexes them,
    which the sync's `finish` then leaves as they are; a thread leaves it to `finish`."""
    batches = [SENT_PEOPLE[:3], SENT_PEOPLE[3:]]
    process_path, thread_path = tmp_path / "process.sqlite", tmp_path / "thread.sqlite"
    closed, in_process = await written_by(ProcessWriter.start, process_path, batches, collation)
    on_thread_closed, on_thread = await written_by(ThreadWriter, thread_path, batches, collation)
    assert (closed.prepared, on_thread_closed.prepared) == (collation, None)
    assert in_process == on_thread
    assert in_process.count == 4
    assert in_process.first_positions["favourite_colour"] == (0, 0)
    assert rows(process_path) == rows(thread_path)
    with CardStore.open(process_path) as store:
        assert list(store.cards()) == PEOPLE
        ordered = store.ordered(
            "display_name", text_key=text_key_for(collation), collation=collation
        )
        assert ordered == [1, 0, 2, 3]
        assert _indexes(process_path) == _indexes(thread_path) != []


@pytest.mark.parametrize(
    ("collation", "names"),
    [
        # Swedish sorts Ä after Z; German (and the folded rule) beside A.
        ("sv_SE", ["Abend", "Zebra", "Ärger"]),
        ("de_DE", ["Abend", "Ärger", "Zebra"]),
        # Czech sorts "ch" after "h" (a name before "folded" in the alphabet, too).
        ("cs_CZ", ["Abend", "Hana", "Chris"]),
        # The folded rule ties "Zoë" with "zoe" (they keep the space's order); a
        # collator tells them apart by the accent.
        (FOLDED, ["Abend", "Ärger", "Zebra", "zoe", "Zoë"]),
    ],
)
async def test_the_process_ranks_under_the_collation_it_is_told(tmp_path, collation, names):
    path = tmp_path / "space.sqlite"
    in_space = names[2:] + names[:2]  # not sorted; tied ones in the order expected
    cards: list[Mapping[str, Any]] = [{"uuid": name, "display_name": name} for name in in_space]
    await written_by(ProcessWriter.start, path, [cards], collation)
    with CardStore.open(path) as store:
        ordered = store.ordered("display_name", text_key=folded_text_key, collation=collation)
        assert [cards[position]["display_name"] for position in ordered] == names
    with contextlib.closing(sqlite3.connect(path)) as db:
        ranks = dict(
            db.execute("SELECT text, value FROM sort_keys WHERE field = 'display_name'").fetchall()
        )
    tied = collation == FOLDED
    assert (ranks["zoe"] == ranks["Zoë"]) if tied else len(set(ranks.values())) == len(names)


def _indexes(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sort_keys' "
                "ORDER BY name"
            )
        ]


async def test_the_writing_process_tidies_the_store_once_the_copy_is_current_then_ends(
    tmp_path,
):
    """The copy the new one makes unused is dropped by the process, after `finish`: the
    window shows the new copy meanwhile (10 to 25 s at 100,000 cards)."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        for name in ("first", "second"):
            synced(store, [parse_card({"uuid": name})])
        first = store.previous
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            await writer.add(SENT_PEOPLE)
            await writer.close(FOLDED)
            assert writer.process.is_alive(), "it waits for the copy to be made current"
            sync.finish(tidy=False)
            assert first is not None
            assert first.id in generation_ids(path), "made current without the drop"
            await writer.tidy()
            assert writer.process.exitcode == 0
        assert first.id not in generation_ids(path)
        assert store.current is not None
        assert [card.uuid for card in store.cards()] == [p["uuid"] for p in SENT_PEOPLE]


async def test_the_writing_process_ends_when_the_sync_s_process_is_gone(tmp_path):
    """Its end of the pipe closes, as when the window's process is killed: it stops."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        synced = store.begin_sync()
        synced.add(PEOPLE[:1])
        synced.finish()
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            await writer.add(SENT_PEOPLE)
            writer._connection.close()  # what the system does for a killed process
            await asyncio.to_thread(writer.process.join, 10)
            assert writer.process.exitcode == 0
        assert [card.uuid for card in store.cards()] == ["a"]


async def test_the_writing_process_reads_the_cards_and_its_warnings_reach_the_app_s_log(
    tmp_path, caplog
):
    """The cards go as the server sent them; a field set aside as the process reads a
    card is logged by this process, under the logger that said it, as if read here."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync(with_emails=True)
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            with caplog.at_level(logging.WARNING):
                await writer.add(SENT_PEOPLE)
                await writer.close(FOLDED)
        told = [
            (r.name, r.levelno, r.getMessage(), r.processName)
            for r in caplog.records
            if "ignored invalid fields" in r.getMessage()
        ]
        sync.finish()
        assert list(store.cards()) == PEOPLE
    assert told == [
        (
            "cardviewer.api.models",
            logging.WARNING,
            f"the sync of space.sqlite: ignored invalid fields in 1 of {len(SENT_PEOPLE)} cards: "
            "connects (1); "
            "the first is card b",
            "CardViewer store writer",
        )
    ]


async def test_a_sync_leaves_reading_its_cards_to_the_writing_process(tmp_path, caplog):
    """The pages come from answers, as in the app: the window's process counts their
    cards and hands them on, and only the writing process reads them."""
    sent = [{"uuid": f"c{n}", "connects": "many" if n == 13 else n} for n in range(25)]

    async def fetch(number: int) -> CardPage:
        data = sent[(number - 1) * 10 : number * 10]
        meta = {"current_page": number, "last_page": 3, "per_page": 10, "total": 25}
        body = {"data": data, "links": {}, "meta": {**meta, "path": "u", "links": []}}
        return parse_page_json(json.dumps(body).encode())

    with CardStore.open(tmp_path / "space.sqlite") as store:
        with caplog.at_level(logging.WARNING):
            await sync_space(store, fetch, concurrency=2)
        told = [r.processName for r in caplog.records if "ignored invalid" in r.getMessage()]
        assert told == ["CardViewer store writer"]
        assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(25)]


def kept_in(writers: list[ProcessWriter]) -> WriterStart:
    """Starts a sync's writing process, kept in `writers` for the test to look at."""

    def start(sync: StoreSync, path: Path) -> ProcessWriter:
        writers.append(ProcessWriter.start(sync, path))
        return writers[-1]

    return start


def hold_fetch(
    last: int, *, at: int, then: Callable[[], Awaitable[None]] | None = None
) -> tuple[asyncio.Event, PageFetch]:
    """Pages of a space of `last` pages; page `at` sets the event given back, then awaits
    `then()`, or waits until cancelled."""
    reached = asyncio.Event()

    async def fetch(number: int) -> CardPage:
        if number == at:
            reached.set()
            if then is not None:
                await then()
            else:
                await asyncio.Event().wait()  # until cancelled
        return page_of(number, last)

    return reached, fetch


def cards_written(path: Path) -> int:
    """The cards in the store, of every copy (committed by any connection)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM cards").fetchone()[0])


async def until_written(path: Path) -> None:
    """Until a first batch of a sync into an empty store is written (20 s at most)."""
    async with asyncio.timeout(20):
        while not cards_written(path):  # noqa: ASYNC110 - another process writes them
            await asyncio.sleep(0.01)


async def test_a_killed_writing_process_stops_the_sync_and_keeps_the_copy_before_it(
    tmp_path, caplog
):
    path = tmp_path / "space.sqlite"
    writers: list[ProcessWriter] = []
    start = kept_in(writers)

    async def kill() -> None:
        await until_written(path)  # the process is at work
        os.kill(writers[0].process.pid, signal.SIGKILL)
        # until it is gone, without reaping it: the writer reads its exit code
        await asyncio.to_thread(multiprocessing.connection.wait, [writers[0].process.sentinel], 10)

    _reached, fetch = hold_fetch(200, at=60, then=kill)
    with CardStore.open(path) as store:
        store.begin_sync().finish()  # an empty copy before
        before = store.current
        async with stopping(writers):
            with pytest.raises(StoreError, match="could not be written; it stays as it was"):
                await sync_space(store, fetch, concurrency=2, writer_for=start)
        assert store.current == before
        assert list(store.cards()) == []
    assert writers[0].process.exitcode == -signal.SIGKILL
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any("the process writing the local copy ended (exit code -9)" in e for e in errors)


class SlowToReap:
    """A process that takes a moment to reap, and counts the threads reaping it at once."""

    def __init__(self) -> None:
        self.exitcode: int | None = None
        self.reaping = 0
        self.most_at_once = 0

    def join(self, timeout: float | None = None) -> None:
        self.reaping += 1
        self.most_at_once = max(self.most_at_once, self.reaping)
        threading.Event().wait(0.05)
        self.exitcode = -signal.SIGKILL
        self.reaping -= 1

    def is_alive(self) -> bool:
        return False


async def test_the_writer_reaps_its_process_one_thread_at_a_time(tmp_path):
    """Stopping while an exchange finds the process gone: both wait for it, and of two
    threads reaping a process at once one can find it gone with no exit code."""
    with CardStore.open(tmp_path / "space.sqlite") as store:
        ours, theirs = Pipe()
        theirs.close()
        process = SlowToReap()
        writer = ProcessWriter(store.begin_sync(), store.path, process, ours)
        await asyncio.gather(asyncio.to_thread(writer._exit_code), writer.stop())
    assert process.most_at_once == 1


async def test_a_process_that_ends_as_it_starts_leaves_the_writing_to_a_thread(tmp_path, caplog):
    path = tmp_path / "space.sqlite"

    def start_and_kill(sync: StoreSync, at: Path) -> ProcessWriter:
        writer = ProcessWriter.start(sync, at)
        os.kill(writer.process.pid, signal.SIGKILL)  # long before it opens the store
        return writer

    async def fetch(number: int) -> CardPage:
        return page_of(number, 120)

    with CardStore.open(path) as store:
        generation = await sync_space(store, fetch, concurrency=4, writer_for=start_and_kill)
        assert generation.card_count == 1200
        assert [card.uuid for card in store.cards()] == [f"c{n}" for n in range(1200)]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "the process to write the local copy ended as it started (exit code -9: EOFError()); "
        "a thread writes it"
    ]


async def test_a_batch_called_off_mid_write_is_undone_and_stops_quietly(tmp_path, caplog):
    """Stopped while it writes, the process is killed and its transaction undone; the
    exchange under way ends before the pipe is closed, and nothing is logged as a fault."""
    path = tmp_path / "space.sqlite"
    many = [page_of(n, 2000).sent_cards() for n in range(1, 2001)]
    cards = [card for page in many for card in page]  # 20,000: seconds to write
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            await writer.add(cards[:10])
            adding = asyncio.ensure_future(writer.add(cards[10:]))
            await asyncio.sleep(0.5)  # sent, and being written
            assert not adding.done()
            adding.cancel()
            await writer.stop()
            with pytest.raises(asyncio.CancelledError):
                await adding
        assert not writer.process.is_alive()
        assert cards_written(path) == 10, "the batch under way is undone"
    del writer, adding
    gc.collect()  # an exchange's failure nobody took would be logged now, by asyncio
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_sync_called_off_stops_its_writing_process_at_once(tmp_path):
    path = tmp_path / "space.sqlite"
    writers: list[ProcessWriter] = []
    start = kept_in(writers)

    reached, fetch = hold_fetch(200, at=120)
    with CardStore.open(path) as store:
        store.begin_sync().finish()
        before = store.current
        sync = asyncio.ensure_future(sync_space(store, fetch, concurrency=2, writer_for=start))
        await asyncio.wait_for(reached.wait(), 20)
        sync.cancel()
        async with stopping(writers):
            with pytest.raises(asyncio.CancelledError):
                await sync
        assert not writers[0].process.is_alive()
        assert store.current == before
        assert list(store.cards()) == []


class ThreadAsProcess:
    """`write_batches` served by a thread, standing in for the writing process."""

    def __init__(self, sync: StoreSync, connection: object) -> None:
        self.exitcode: int | None = None
        self.pid = 0
        self._thread = threading.Thread(target=self._run, args=(connection, sync), daemon=True)
        self._thread.start()

    def _run(self, connection, sync) -> None:
        connection.send(("ready", True, []))  # as `write_from_pipe` says once the store is open
        write_batches(connection, sync, KeptRecords())
        connection.close()
        self.exitcode = 0

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def kill(self) -> None:
        self._thread.join(5)  # a thread cannot be killed: its loop ends after a failure


def served_on_thread(sync: StoreSync, path: Path) -> ProcessWriter:
    ours, theirs = Pipe()
    return ProcessWriter(sync, path, ThreadAsProcess(sync, theirs), ours)


async def test_a_full_disk_while_the_process_writes_says_so_and_keeps_the_copy_before_it(
    tmp_path,
):
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(PEOPLE)
        sync.finish()
        store._db.execute("PRAGMA max_page_count = 16")  # as small as the disk left over

        async def fetch(number: int) -> CardPage:
            return page_of(number, 500)

        with pytest.raises(StoreError, match="disk is full"):
            await sync_space(store, fetch, concurrency=4, writer_for=served_on_thread)
        assert list(store.cards()) == PEOPLE


async def test_a_full_disk_while_the_process_ranks_says_so_and_keeps_the_copy_before_it(
    tmp_path, monkeypatch
):
    """The cards are all written; the disk fills as the sort keys are indexed."""
    path = tmp_path / "space.sqlite"

    def disk_full(connection: sqlite3.Connection, generation: int) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(PEOPLE)
        sync.finish()
        monkeypatch.setattr(store_sync, "index_sort_keys", disk_full)

        async def fetch(number: int) -> CardPage:
            return page_of(number, 5)

        with pytest.raises(StoreError, match="disk is full"):
            await sync_space(store, fetch, concurrency=4, writer_for=served_on_thread)
        assert list(store.cards()) == PEOPLE


async def test_a_failure_in_the_writing_process_is_logged_whole(tmp_path, caplog, monkeypatch):
    path = tmp_path / "space.sqlite"

    def broken(self: StoreSync, sent: object) -> None:
        raise ValueError("a card the rows cannot be made of")

    monkeypatch.setattr(StoreSync, "add_sent", broken)
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        writer = served_on_thread(sync, path)
        async with stopping([writer]):
            with pytest.raises(StoreError, match="could not be written"):
                await writer.add(SENT_PEOPLE)
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)
    assert "writing the local copy failed in its process" in logged
    assert "ValueError: a card the rows cannot be made of" in logged


async def test_a_store_the_process_cannot_open_is_not_written(tmp_path):
    """Its reason is told (a full disk would be said so), however long before the
    first batch the process gave up."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, tmp_path / "gone" / "space.sqlite")
        async with stopping([writer]):
            await asyncio.to_thread(writer.process.join, 20)  # it said why, and ended
            with pytest.raises(sqlite3.OperationalError, match="unable to open"):
                await writer.add(SENT_PEOPLE)


async def test_without_processes_the_cards_are_written_on_a_thread(tmp_path, caplog, monkeypatch):
    def refused(cls: object, sync: StoreSync, path: Path) -> ProcessWriter:
        raise OSError("no more processes")

    monkeypatch.setattr(ProcessWriter, "start", classmethod(refused))
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        assert isinstance(start_writer(sync, path), ThreadWriter)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "no process could be started to write the local copy (no more processes); a thread does"
    ]


def test_an_app_that_quits_without_stopping_its_writer_still_quits(tmp_path):
    """The writing process is the app's daemon: the app's exit does not wait for it."""
    path = tmp_path / "space.sqlite"
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from cardviewer.services.card_store import CardStore
        from cardviewer.services.store_writer import ProcessWriter

        if __name__ == "__main__":
            store = CardStore.open(Path({str(path)!r}))
            writer = ProcessWriter.start(store.begin_sync(), store.path)
            print(writer.process.pid, flush=True)
        """
    )
    ended = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert ended.returncode == 0, ended.stderr
    pid = int(ended.stdout)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # not ours: only its parent could reap it
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_an_app_that_quits_with_its_writer_at_work_still_quits(tmp_path):
    """Once loaded, the writing process ignores SIGTERM, which multiprocessing's exit
    sends its daemons before it waits for them: it waited for ever."""
    path = tmp_path / "space.sqlite"
    script = textwrap.dedent(
        f"""
        import asyncio
        from pathlib import Path
        from cardviewer.services.card_store import CardStore
        from cardviewer.services.store_writer import ProcessWriter

        async def main():
            store = CardStore.open(Path({str(path)!r}))
            writer = ProcessWriter.start(store.begin_sync(), store.path)
            await writer.add([{{"uuid": "c1", "display_name": "Ada"}}])  # loaded, at work
            print(writer.process.pid, flush=True)
            return writer  # kept: the app ends with it not stopped

        if __name__ == "__main__":
            kept = asyncio.run(main())
        """
    )
    ended = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert ended.returncode == 0, ended.stderr
    pid = int(ended.stdout)
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="open files listed by /proc")
def test_a_process_that_cannot_start_leaves_no_pipe_open(tmp_path, monkeypatch):
    def refused(self: object) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(SpawnProcess, "start", refused)
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        before = set(Path("/proc/self/fd").iterdir())
        assert isinstance(start_writer(sync, path), ThreadWriter)
        assert set(Path("/proc/self/fd").iterdir()) <= before


async def test_a_copy_the_process_finds_newer_is_told_as_such(tmp_path):
    """Its `StoreError` keeps its problem across the pipe: the window says why."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        with contextlib.closing(sqlite3.connect(path)) as db:  # a newer app, meanwhile
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            with pytest.raises(StoreError, match="newer version") as refused:
                await writer.add(SENT_PEOPLE)
        assert refused.value.problem is StoreProblem.NEWER_VERSION


async def test_sigterm_to_every_process_of_a_job_leaves_the_writing_to_the_app(tmp_path):
    """systemd stops a job by SIGTERM to each of its processes: the writing process died
    of it mid-batch, and the sync logged an error before it said it was interrupted."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            await writer.add(SENT_PEOPLE[:1])
            os.kill(writer.process.pid, signal.SIGTERM)
            await writer.add(SENT_PEOPLE[1:])
            assert writer.process.is_alive()
        assert cards_written(path) == len(SENT_PEOPLE)


async def test_ctrl_c_as_the_writing_process_starts_leaves_the_writing_to_the_app(tmp_path, capfd):
    """Its signals are ignored only once its modules are loaded, a second or so: a
    Ctrl+C meanwhile (the terminal sends it to every process of the job) ended it with
    a traceback, and the sync wrote on a thread instead."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, path)
        async with stopping([writer]):
            os.kill(writer.process.pid, signal.SIGINT)
            os.kill(writer.process.pid, signal.SIGTERM)
            await writer.add(SENT_PEOPLE)
            assert writer.process.is_alive(), "ended as it started: a thread wrote instead"
        assert cards_written(path) == len(SENT_PEOPLE)
    assert "KeyboardInterrupt" not in capfd.readouterr().err


FIRST_PROCESS_HELD = """
import multiprocessing, signal, time
from cardviewer.services.store_writer import _stop_signals_held

def held_at_start(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("SigBlk"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))

if __name__ == "__main__":
    process = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(2,))
    with _stop_signals_held():
        process.start()
    time.sleep(0.05)  # before the process has loaded what it runs
    print(held_at_start(process.pid))
    process.kill()
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_the_first_writing_process_of_a_program_starts_with_its_signals_held(tmp_path):
    """Python's resource tracker, started with the first process of a program, let the
    signals through again: `cardviewer sync` starts one writer, and a Ctrl+C as it
    started printed its traceback."""
    script = tmp_path / "first.py"
    script.write_text(FIRST_PROCESS_HELD, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "True"


async def test_a_process_stopped_as_it_starts_is_no_fault(tmp_path, caplog):
    """A sync that fails as its writer starts (a long Retry-After, say) kills it: that
    was logged as a warning that a thread would write, though nothing was written."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        writer = ProcessWriter.start(sync, path)
        adding = asyncio.ensure_future(writer.add(SENT_PEOPLE))
        await asyncio.sleep(0.05)  # waiting for the process to say it is ready
        adding.cancel()
        await writer.stop()
        with pytest.raises(asyncio.CancelledError):
            await adding
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_the_writing_process_ends_quietly_when_nobody_is_left_to_answer():
    """The app killed (SIGKILL) as a batch was written: answering it raised a broken
    pipe, whose traceback went to the job's log."""

    class Batches:
        def add_sent(self, sent: object) -> None:
            pass

    ours, theirs = Pipe()
    ours.send([{"uuid": "a"}])
    ours.close()
    write_batches(theirs, Batches(), KeptRecords())  # type: ignore[arg-type]
    theirs.close()
