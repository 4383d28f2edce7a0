"""Where a sync's cards are written: a process of its own, or else a worker thread.

Reading a card (`parse_card`) and making the rows the copy keeps of it (its JSON, its
folded search text, a sort key per field) is Python. On a thread beside the fetch it
held the interpreter lock that the thread running the event loop (the window's) needs
to read the next pages, some 12 s of the 60 s a sync of 100,000 cards took. A process
of its own writes them under a lock of its own (`ProcessWriter`): it is handed each
card as the server sent it, and reads it there. What the process logs (a card's field
set aside, say) comes back with its answers, into the app's log.

The process opens the same file (SQLite's write-ahead log lets both connections use it)
and writes each batch into the sync's generation, in a transaction of its own; after
the last it ranks the texts and indexes the sort keys (`StoreSync.prepare`), and the
caller's connection makes the copy current (`StoreSync.adopt`, `finish`). The process
then drops the copy no longer needed (`tidy`), seconds the new copy is shown meanwhile.
When either side dies the other finds the pipe between them closed: the process stops
writing, and the caller reports the copy as not written. The copy shown is never
touched by either: the rows of an unfinished generation go with the next sync.

Where no process can be started, or one ends before it has opened the store, the cards
are written on a thread (`ThreadWriter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.util
import signal
import sqlite3
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from cardviewer.services.process_job import KeptRecords
from cardviewer.services.store_schema import StoreError, StoreProblem
from cardviewer.services.store_sort_keys import text_key_for
from cardviewer.services.store_sync import StoreSync, Written, tidy_store
from cardviewer.tasks import on_thread_to_the_end

log = logging.getLogger(__name__)

STOP_SECONDS = 5.0
"""How long a stopped writing process may take to end (it is killed, so milliseconds)."""
TIDY = ("tidy",)
"""The message that has the process tidy the store once the copy is current."""


class CardWriter(Protocol):
    """Writes the batches of one sync, one at a time, in the order given."""

    async def add(self, sent: list[Mapping[str, Any]]) -> None:
        """Write the cards `sent` (as the server sent them, `CardPage.sent_cards`) after
        those before; returns once they are written."""

    async def close(self, collation: str) -> None:
        """After the last batch: the sync's own connection knows what was written.

        A writer may also rank the texts under `collation` and index the sort keys
        (`StoreSync.prepare`), which `finish` then has no need to do.
        """

    async def stop(self) -> None:
        """Write nothing more; returns once nothing writes (after a failure or Cancel)."""

    async def tidy(self) -> None:
        """Once the copy is current (`StoreSync.finish(tidy=False)`): drop what the
        store no longer needs (`StoreSync.tidy`), 10 to 25 s at 100,000 cards; then
        nothing writes. Called off, the drop is undone: the next sync's tidying does it.
        Raises `StoreError` or `sqlite3.Error` when it could not be done."""


WriterStart = Callable[[StoreSync, Path], CardWriter]
"""Starts the writer of a sync of the store at a path (`start_writer`)."""


class ThreadWriter:
    """Writes on a worker thread through the sync's own connection; tidies on one of its
    own (the caller reads the new copy through the sync's meanwhile)."""

    def __init__(self, sync: StoreSync, path: Path) -> None:
        self._sync = sync
        self._path = path

    async def add(self, sent: list[Mapping[str, Any]]) -> None:
        # Called off, it still waits: nothing else may touch the store meanwhile.
        await on_thread_to_the_end(self._sync.add_sent, sent)

    async def close(self, collation: str) -> None:
        pass  # the sync's own connection wrote the cards; `finish` prepares them

    async def stop(self) -> None:
        pass

    async def tidy(self) -> None:
        await on_thread_to_the_end(tidy_store, self._path)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _stop_signals_held() -> Iterator[None]:
    """Ctrl+C and SIGTERM held back from the calling thread, and so from a program it
    starts, which inherits what is held: the writing process is one to ignore them, but
    can do so only once it has loaded its modules, and one that came meanwhile ended
    it with a traceback. The app's own main thread takes them as ever.

    Python's resource tracker is started first: the first process of a program starts
    it, and it lets the signals through again as its own program has started.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no such signals to hold
        yield
        return
    from multiprocessing import resource_tracker  # POSIX's

    resource_tracker.ensure_running()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class ProcessWriter:
    """Writes in a process of its own, which `start` starts (`StoreSync.reopen`).

    The process first says whether it could open the store: if it ends before it does
    (a program that cannot start as a writer), a thread writes instead. Each exchange
    with it runs on a worker thread, and `stop` waits for the one under way before it
    closes the pipe.
    """

    def __init__(self, sync: StoreSync, path: Path, process: Any, connection: Connection) -> None:
        self._sync = sync
        self._path = path
        self.process = process
        """The writing process (`multiprocessing.Process`): its pid, whether it lives."""
        self._connection = connection
        self._ready = False
        self._instead: ThreadWriter | None = None
        self._exchange_under_way: asyncio.Future[Any] | None = None
        self._stopping = False
        self._joining = threading.Lock()

    @classmethod
    def start(cls, sync: StoreSync, path: Path) -> ProcessWriter:
        """The writer of `sync`, a generation of the store at `path`; `OSError` if none.

        The process is started afresh (not forked): a copy of a process running Qt's
        threads cannot be relied upon. Starting it may wait for the new program (on
        Windows, until it reads its orders): call this off the window's thread.
        """
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=write_from_pipe,
            args=(theirs, path, sync.generation, sync.with_emails),
            name="CardViewer store writer",
            daemon=True,
        )
        try:
            with _stop_signals_held():  # its program starts with them held (POSIX)
                process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # only the process holds its end: its death closes the pipe
        writer = cls(sync, path, process, ours)
        # Ended with the app as `stop` ends it, should the app end without stopping it:
        # multiprocessing's exit waits for its daemons after a SIGTERM, which this one
        # ignores. Run before that wait (priority 0), or as the writer is dropped.
        multiprocessing.util.Finalize(writer, _kill_if_alive, args=(process,), exitpriority=0)
        return writer

    async def add(self, sent: list[Mapping[str, Any]]) -> None:
        instead = await self._thread_instead()
        if instead is not None:
            await instead.add(sent)
        else:
            await self._off_the_loop(self._exchange, sent)

    async def close(self, collation: str) -> None:
        if await self._thread_instead() is not None:
            return  # the thread wrote through the sync's own connection
        written = await self._off_the_loop(self._exchange, collation)
        assert isinstance(written, Written)
        self._sync.adopt(written)

    async def stop(self) -> None:
        self._stopping = True
        if self.process.is_alive():
            self.process.kill()  # mid-transaction too: SQLite undoes it
        await asyncio.to_thread(self._join)
        under_way = self._exchange_under_way
        if under_way is not None:
            await asyncio.wait({under_way})  # it sees the pipe's end: the process is gone
            if not under_way.cancelled():
                under_way.exception()  # known: what stopped the sync is told elsewhere
        self._connection.close()

    async def tidy(self) -> None:
        instead = await self._thread_instead()
        if instead is not None:
            await instead.tidy()
            return
        try:
            await self._off_the_loop(self._exchange, TIDY)
            await asyncio.to_thread(self._join)  # it ends once it has answered
        finally:  # called off too: the process is killed, and SQLite undoes the drop
            await self.stop()

    async def _thread_instead(self) -> ThreadWriter | None:
        """None while the process writes; the thread writing if it ended as it started."""
        if not self._ready and self._instead is None:
            if await self._off_the_loop(self._until_ready):
                self._ready = True
            else:
                self._instead = ThreadWriter(self._sync, self._path)
        return self._instead

    async def _off_the_loop(self, work: Callable[..., Any], *args: Any) -> Any:
        """`work(*args)` on a worker thread, kept for `stop` to wait for if called off."""
        self._exchange_under_way = asyncio.ensure_future(asyncio.to_thread(work, *args))
        return await asyncio.shield(self._exchange_under_way)

    def _until_ready(self) -> bool:
        """The process opened the store (True), or ended before it could (False)."""
        try:
            answer, value, records = self._connection.recv()
        except (EOFError, OSError) as error:
            log.log(
                logging.DEBUG if self._stopping else logging.WARNING,  # killed by `stop`
                "the process to write the local copy ended as it started (exit code %s: %r); "
                "a thread writes it",
                self._exit_code(),
                error,
            )
            return False
        return bool(_answered(answer, value, records))

    def _exchange(self, message: list[Mapping[str, Any]] | str | tuple[str]) -> Any:
        """Send `message`, wait for the answer (on a worker thread: both may wait)."""
        try:
            self._connection.send(message)
            answer, value, records = self._connection.recv()
        except (EOFError, OSError) as error:
            level = logging.DEBUG if self._stopping else logging.ERROR
            log.log(
                level,
                "the process writing the local copy ended (exit code %s): %r",
                self._exit_code(),
                error,
            )
            raise _not_written() from error
        return _answered(answer, value, records)

    def _exit_code(self) -> int | None:
        """The ended process's exit code (its pipe closes a moment before it is gone)."""
        self._join()
        return self.process.exitcode  # type: ignore[no-any-return]

    def _join(self) -> None:
        """Wait for the process to end, one thread at a time: of two threads reaping
        it at once, one may find it gone with no exit code."""
        with self._joining:
            self.process.join(STOP_SECONDS)


def _kill_if_alive(process: Any) -> None:
    """Kill the writing process if it still runs: mid-transaction too, SQLite undoes it."""
    if process.is_alive():
        process.kill()


def _answered(answer: str, value: Any, records: list[logging.LogRecord]) -> Any:
    """The value of the process's answer; its failure raised. What the process logged
    before it answered is logged here first (`KeptRecords`)."""
    for record in records:
        logging.getLogger(record.name).handle(record)
    if answer == "sqlite":
        raise sqlite3.OperationalError(value)  # a full disk, say: the sync tells which
    if answer == "store":
        message, problem = value
        raise StoreError(message, StoreProblem[problem])
    if answer == "failed":
        log.error("writing the local copy failed in its process:\n%s", value)
        raise _not_written()
    return value


def _not_written() -> StoreError:
    return StoreError("The local copy of this space could not be written; it stays as it was.")


def start_writer(sync: StoreSync, path: Path) -> CardWriter:
    """A process writing `sync` into the store at `path`, or a thread if none can start.

    Call it off the window's thread (see `ProcessWriter.start`).
    """
    try:
        return ProcessWriter.start(sync, path)
    except OSError as error:
        log.warning(
            "no process could be started to write the local copy (%s); a thread does", error
        )
        return ThreadWriter(sync, path)


def write_from_pipe(connection: Connection, path: Path, generation: int, with_emails: bool) -> None:
    """The writing process: batches of cards from `connection` into `generation`.

    It says ("ready", True) once the store is open. Each batch (a list of cards as
    the server sent them) is answered with ("added", None) once written. A collation's
    name ends the sync: the copy is prepared under it (`StoreSync.prepare`), then
    answered with ("written", `Written`). Once the caller has made it current, `TIDY`
    has the store tidied (`StoreSync.tidy`), answered with ("tidied", None), and ends
    the process. A failure is answered with ("sqlite", its text), ("store", its text
    and problem) or ("failed", the traceback), and ends the process; so does the pipe
    closing. Every answer carries, third, the records logged since the one before
    (`KeptRecords`).
    """
    # Ctrl+C, and SIGTERM to every process of a job (systemd), are for the app, which
    # stops this; killed itself, the app's end of the pipe closes, and this ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # held since it started; ignored from now on
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    kept = KeptRecords()
    logging.getLogger().addHandler(kept)
    try:
        sync = StoreSync.reopen(path, generation, with_emails=with_emails, beside_threads=False)
    except Exception as error:
        _answer(connection, kept, _failure(error))
        return
    _answer(connection, kept, ("ready", True))
    try:
        write_batches(connection, sync, kept)
    finally:
        sync.close()


def write_batches(connection: Connection, sync: StoreSync, kept: KeptRecords) -> None:
    """`write_from_pipe` with the sync open: until the end, a failure, or no caller."""
    while True:
        try:
            sent = connection.recv()
        except (EOFError, OSError):
            return  # the sync's process is gone: nothing more is written
        try:
            if sent == TIDY:
                sync.tidy()
                _answer(connection, kept, ("tidied", None))
                return
            if isinstance(sent, str):
                sync.prepare(text_key_for(sent), sent)
                answer: tuple[str, Any] = ("written", sync.written)
            else:
                sync.add_sent(sent)
                answer = ("added", None)
        except Exception as error:
            _answer(connection, kept, _failure(error))
            return
        if not _answer(connection, kept, answer):
            return


def _answer(connection: Connection, kept: KeptRecords, answer: tuple[str, Any]) -> bool:
    """Send `answer` with the records logged since the last one (`KeptRecords`); False
    where the sync's process is gone (killed, say), with nobody left to tell."""
    try:
        connection.send((*answer, kept.take()))
    except OSError:  # a broken pipe
        return False
    return True


def _failure(error: Exception) -> tuple[str, Any]:
    """The answer that tells the sync's process of `error`."""
    if isinstance(error, sqlite3.Error):
        return "sqlite", str(error)
    if isinstance(error, StoreError):  # a copy of a newer version, say: told as such
        return "store", (str(error), error.problem.name)
    return "failed", "".join(traceback.format_exception(error))
