"""Sync Space: every page of a space into its local copy, made current in one step.

Pages are fetched as Export All fetches them (`fetch_pages_in_order`, a few at a
time) and written into a new generation of the `CardStore` as they arrive. Only a
complete sync replaces the copy shown; anything that stops it (Cancel, a failed
request, a full disk) leaves that copy as it was.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Coroutine, Mapping
from functools import partial
from typing import Any

from cardviewer.api.models import CardPage
from cardviewer.services.card_store import CardStore, damaged
from cardviewer.services.file_errors import WriteProblem, write_problem
from cardviewer.services.space_fetch import (
    DEFAULT_CONCURRENCY,
    PageFetch,
    ProgressCallback,
    fetch_pages_in_order,
)
from cardviewer.services.store_copies import Changes
from cardviewer.services.store_schema import (
    READ_ONLY_TEXT,
    Generation,
    StoreError,
    StoreProblem,
    is_damage,
    passing_problem,
)
from cardviewer.services.store_sort_keys import FOLDED, text_key_for
from cardviewer.services.store_sync import SYNCED_MEANWHILE, StoreSync
from cardviewer.services.store_writer import CardWriter, WriterStart, start_writer
from cardviewer.tasks import on_thread_to_the_end, standing_once_begun, undone_if_called_off

log = logging.getLogger(__name__)

WRITE_BATCH = 500
"""Cards written to the store in one transaction during a sync."""
QUEUED_BATCHES = 4
"""Batches fetched and waiting to be written, at most; the fetch waits beyond that."""

TidyLater = Callable[[Coroutine[Any, Any, None]], object]
"""Runs the tidying that follows a sync (`tidy`) while the caller goes on."""


async def sync_space(
    store: CardStore,
    fetch: PageFetch,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_progress: ProgressCallback | None = None,
    with_emails: bool = False,
    collation: str = FOLDED,
    writer_for: WriterStart = start_writer,
    on_finishing: Callable[[], None] | None = None,
    tidy_later: TidyLater | None = None,
) -> Generation:
    """Fetch every page through `fetch` into `store`; returns the new current copy.

    Raises the client's errors while fetching, and `StoreError` when the copy cannot
    be written (the disk is full, the file is damaged). `with_emails` says whether
    `fetch` asks for the cards' e-mail addresses, which the copy records; texts are
    ranked for sorting under the collation named `collation` (`CardStore.rank_texts`,
    `text_key_for`).

    The store is written by `start_writer` (a process of its own), `WRITE_BATCH` cards
    at a time, while the next pages are fetched, so that the thread running the event
    loop (the window's) stays free; at most `QUEUED_BATCHES` wait to be written. The
    cards go as the server sent them (`CardPage.sent_cards`): the writer reads them. One
    transaction per page of ten cards would cost more than the cards. The process
    then ranks the texts and indexes the sort keys (`StoreSync.prepare`), with no
    window to share Python with. `writer_for` starts another kind of writer.
    `on_finishing` is called once the last card is sent to be written, as the copy is
    finished (seconds at 100,000 cards). The store is written on worker threads only,
    never on the caller's (the window's): another program may hold it for seconds, and
    dropping what a stopped sync wrote takes seconds at 100,000 cards.

    Once the new copy is current, the copy no longer needed is dropped (`tidy`): 10
    to 25 s at 100,000 cards. The sync awaits that before it returns, unless the work
    is handed to `tidy_later`, to run while the caller shows the new copy (the window)
    or once it has noted that the copy is current (`cardviewer sync`).
    """
    sync = await _begun(store, with_emails)
    batch: list[Mapping[str, Any]] = []
    batches: asyncio.Queue[list[Mapping[str, Any]] | None] = asyncio.Queue(maxsize=QUEUED_BATCHES)

    async def keep(page: CardPage) -> None:
        batch.extend(page.sent_cards())  # read by the writer, not on this thread
        if len(batch) >= WRITE_BATCH:
            await batches.put(batch.copy())
            batch.clear()

    async def fetch_all() -> None:
        await fetch_pages_in_order(fetch, keep, concurrency=concurrency, on_progress=on_progress)
        await batches.put(batch)
        await batches.put(None)

    async def write_all(writer: CardWriter) -> None:
        while (sent := await batches.get()) is not None:
            await writer.add(sent)
        if on_finishing is not None:
            on_finishing()
        await writer.close(collation)

    writer: CardWriter | None = None
    try:
        writer = await asyncio.to_thread(writer_for, sync, store.path)
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(fetch_all())
                group.create_task(write_all(writer))
        except BaseExceptionGroup as errors:
            raise _first_error(errors) from None
        generation = await _finished(sync, collation)
    except BaseException as error:
        if writer is not None:
            await writer.stop()
        overtaken = isinstance(error, sqlite3.Error | StoreError) and await on_thread_to_the_end(
            _dropped_meanwhile, sync
        )
        # On a worker thread: the rows of 100,000 cards take seconds to drop. Called
        # off meanwhile, the sync still waits: the store is the thread's until then.
        await on_thread_to_the_end(_abandon, sync)
        if overtaken:  # its rows could no longer be written: not the disk's fault
            raise StoreError(SYNCED_MEANWHILE, StoreProblem.OVERTAKEN) from error
        if isinstance(error, sqlite3.Error):
            raise _failure(store, error) from error
        raise
    if tidy_later is None:
        await tidy(writer)
    else:
        tidy_later(tidy(writer))
    return generation


async def tidy(writer: CardWriter) -> None:
    """Have `writer` drop what the store no longer needs; what it cannot drop now stays
    for the next sync's tidying (the new copy is current all the same)."""
    try:
        await writer.tidy()
    except (StoreError, sqlite3.Error) as error:
        log.warning("the copies of the space no longer needed stay until the next sync: %s", error)


async def _begun(store: CardStore, with_emails: bool) -> StoreSync:
    """`store.begin_sync` on a worker thread. Called off meanwhile, the sync it began
    (its generation, its lock) is dropped before the cancellation goes on."""
    try:
        begin = partial(store.begin_sync, with_emails=with_emails)
        return await undone_if_called_off(begin, undo=_abandon)
    except sqlite3.Error as error:
        raise _failure(store, error) from error
    except OSError as error:  # a sync's lock file beside the copy (`sync_lock`)
        log.warning("a sync of %s could not begin: %s", store.path, error)
        raise _problem_error(_lock_problem(error)) from error


def changes_of(store: CardStore) -> Changes | None:
    """What the last sync changed (`CardStore.changes`), read after it; a store that
    cannot be read is a `StoreError`, and one SQLite finds damaged is set aside."""
    try:
        return store.changes()
    except sqlite3.Error as error:
        raise _failure(store, error) from error


def ranked_under(store: CardStore) -> str | None:
    """The collation the current copy was ranked under (`CardStore.ranked_under`), read
    before a sync; a store that cannot be read is a `StoreError`, and one SQLite finds
    damaged is set aside."""
    try:
        return store.ranked_under()
    except sqlite3.Error as error:
        raise _failure(store, error) from error


def _failure(store: CardStore, error: sqlite3.Error) -> StoreError:
    """What `error` from `store` means for a sync: a damaged file is set aside (wherever
    in the file SQLite finds the damage: the small tables are read first), anything
    else is a passing problem or the file's."""
    return damaged(store.path) if is_damage(error) else _store_error(error)


def _dropped_meanwhile(sync: StoreSync) -> bool:
    try:
        return sync.dropped_meanwhile()
    except sqlite3.Error as error:
        log.debug("whether another program's sync dropped this one is not known: %s", error)
        return False


def _abandon(sync: StoreSync) -> None:
    try:
        sync.abandon()
    except sqlite3.Error as cleanup:  # the rows go with the next sync
        log.warning("the unfinished sync could not be removed yet: %s", cleanup)


async def _finished(sync: StoreSync, collation: str) -> Generation:
    """`sync.finish(…)` on a worker thread: once begun, it ends before anything else.

    Called off meanwhile, the sync waits for it (the store is the finish's until then);
    a copy made current by then is the sync's result, as Cancel came too late to stop it.
    """
    return await standing_once_begun(
        partial(sync.finish, tidy=False), text_key_for(collation), collation
    )


def _store_error(error: sqlite3.Error) -> StoreError:
    return _problem_error(passing_problem(error))


def _lock_problem(error: OSError) -> StoreProblem | None:
    problem = write_problem(error)
    if problem in (WriteProblem.READ_ONLY, WriteProblem.NOT_ALLOWED):
        return StoreProblem.READ_ONLY
    return StoreProblem.DISK_FULL if problem is WriteProblem.DISK_FULL else None


def _problem_error(problem: StoreProblem | None) -> StoreError:
    """What a sync that could not write its copy says of `problem`."""
    if problem is StoreProblem.DISK_FULL:
        return StoreError(
            "The disk is full; the local copy of this space stays as it was.", problem
        )
    if problem is StoreProblem.READ_ONLY:
        return StoreError(READ_ONLY_TEXT, problem)
    if problem is StoreProblem.IN_USE:  # another program wrote to it for seconds
        return StoreError(
            "The local copy of this space is in use by another program; it stays as it "
            "was. Try again.",
            problem,
        )
    return StoreError("The local copy of this space could not be written; it stays as it was.")


_NO_COPY_MADE = {
    StoreProblem.DISK_FULL: "The disk is full; no local copy of this space was made.",
    StoreProblem.READ_ONLY: (
        "The local copy of this space may not be made: its file, or the folder it is in, "
        "is read-only for you."
    ),
    StoreProblem.NOT_WRITTEN: "The local copy of this space could not be written; none was made.",
    StoreProblem.IN_USE: "The local copy of this space is in use by another program; try again.",
}


def no_copy_made(error: StoreError) -> StoreError:
    """`error` of a sync that had no copy before (the space's first): where its message
    says that the copy stays as it was, it says that none was made."""
    message = _NO_COPY_MADE.get(error.problem, str(error))
    return StoreError(message, error.problem, copy_before=False)


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The error that stopped the sync; the other task was only cancelled by it."""
    for error in group.exceptions:
        if isinstance(error, BaseExceptionGroup):
            return _first_error(error)
        if not isinstance(error, asyncio.CancelledError):
            return error
    return group.exceptions[0]
