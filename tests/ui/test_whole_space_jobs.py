"""The export and sync jobs: each kind runs to its end, fails the same way, waits for a sign-in."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import inspect
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtPrintSupport import QPrinter

from cardviewer.api import CardPage, CardViewerError, NotAuthenticated
from cardviewer.api.errors import RateLimited, ServerError
from cardviewer.api.models import parse_card
from cardviewer.services import space_sync
from cardviewer.services.card_columns import build_columns
from cardviewer.services.card_store import CardStore
from cardviewer.services.clipboard_text import StoredRows
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.process_job import JobEnded
from cardviewer.services.settings import Settings
from cardviewer.services.stoppable import Painted, check
from cardviewer.services.store_schema import SCHEMA_VERSION
from cardviewer.services.store_sync import StoreSync
from cardviewer.services.store_writer import CardWriter
from cardviewer.ui import whole_space_jobs
from cardviewer.ui.chosen_cards import ChosenCards
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.phone_list_output import phone_list_texts, print_chosen_elsewhere
from cardviewer.ui.whole_space_jobs import (
    STATUS_TIMEOUT_MS,
    WHOLE_SPACE_KINDS,
    JobKind,
    JobResult,
    WholeSpaceJobs,
    documents_dir,
)
from tests.services.stores import generation_ids

WAIT = 10_000
SPACE = "jobs-space"
PAGES = 3
PER_PAGE = 4
SHOWN = PageRequest(SPACE, 1, False)


def page(number: int) -> CardPage:
    cards = tuple(
        parse_card({"uuid": f"c{number}-{n}", "display_name": f"Card {number}.{n}"})
        for n in range(PER_PAGE)
    )
    meta = {
        "current_page": number,
        "last_page": PAGES,
        "per_page": PER_PAGE,
        "total": PAGES * PER_PAGE,
    }
    return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})


class FakeSource:
    """Pages of a space of `PAGES` pages; `failures` are raised first, one a request."""

    def __init__(self) -> None:
        self.failures: list[Exception] = []
        self.asked: list[PageRequest] = []
        self.delay = 0.0

    async def __call__(self, request: PageRequest) -> CardPage:
        self.asked.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.failures:
            raise self.failures.pop(0)
        return page(request.page)


@pytest.fixture
def source() -> FakeSource:
    return FakeSource()


@pytest.fixture
def jobs(qloop, arun, source) -> Iterator[WholeSpaceJobs]:
    jobs = WholeSpaceJobs(source, Settings.load(), partial(ExportAllDialog, parent=None))
    yield jobs
    arun(jobs.aclose())


def finished(qtbot, jobs: WholeSpaceJobs, start) -> JobResult:
    with qtbot.waitSignal(jobs.finished, timeout=WAIT) as signal:
        start()
    result = signal.args[0]
    assert isinstance(result, JobResult)
    return result


def failed(qtbot, jobs: WholeSpaceJobs, start) -> tuple[str, str]:
    with qtbot.waitSignal(jobs.failed, timeout=WAIT) as signal:
        start()
    message, detail = signal.args
    return message, detail


def names_in(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        header, *rows = csv.reader(handle)
    name = header.index("Name")
    return [row[name] for row in rows]


def synced_count(path: Path) -> int | None:
    """The cards of the local copy at `path` as its last complete sync left it; None: none."""
    with CardStore.open(path) as store:
        return store.current.card_count if store.current is not None else None


def start_whole_space(jobs: WholeSpaceJobs, kind: JobKind, folder: Path) -> Path:
    """Start Export All or a sync into `folder`; the file it writes."""
    if kind is JobKind.EXPORT_ALL:
        target = folder / "everyone.csv"
        jobs.export_all(SHOWN, target)
    else:
        target = folder / "space.sqlite"
        jobs.sync(SHOWN, target)
    return target


def saved_anything(kind: JobKind, target: Path) -> bool:
    """Whether the job left its file: an export, or a local copy (a first sync that did
    not finish leaves none, not even an empty one)."""
    assert kind in WHOLE_SPACE_KINDS
    return target.exists()


WHOLE_SPACE_JOBS = pytest.mark.parametrize("kind", [JobKind.EXPORT_ALL, JobKind.SYNC])


def test_export_page_writes_the_page_and_remembers_the_folder(jobs, qtbot, tmp_path):
    result = finished(qtbot, jobs, lambda: jobs.export_page(page(2), SHOWN, tmp_path / "page"))
    target = tmp_path / "page.csv"
    assert result == JobResult(JobKind.EXPORT_PAGE, SHOWN, PER_PAGE, target)
    assert names_in(target) == [f"Card 2.{n}" for n in range(PER_PAGE)]
    assert jobs.export_dir == tmp_path


def test_exports_are_first_offered_in_the_documents_folder(private_user_dirs):
    documents = private_user_dirs / "Documents"
    assert documents_dir() == private_user_dirs, "no Documents folder: home"
    documents.mkdir()
    assert documents_dir() == documents


def test_the_folder_of_the_last_export_is_offered_after_a_restart(jobs, qtbot, tmp_path, source):
    folder = tmp_path / "Telefonlisten"
    folder.mkdir()
    finished(qtbot, jobs, lambda: jobs.export_page(page(1), SHOWN, folder / "page"))
    later = WholeSpaceJobs(source, Settings.load(), partial(ExportAllDialog, parent=None))
    assert later.export_dir == folder


def test_export_all_to_a_file_that_cannot_be_written_says_so_before_the_first_page(
    jobs, source, qtbot, tmp_path
):
    """Said once every page had come: minutes at 100,000 cards."""
    target = tmp_path / "gone" / "everyone.csv"
    with qtbot.waitSignal(jobs.failed, timeout=WAIT) as failed:
        jobs.export_all(SHOWN, target)
    assert failed.args[0] == (
        f"The cards could not be saved as {target}. The folder does not exist (any more); "
        "choose another folder."
    )
    assert source.asked == []
    assert jobs.progress is None, "no progress shown for it"
    assert not jobs.fetching_whole_space


def test_a_folder_gone_since_the_last_export_is_not_offered(jobs, qtbot, tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    finished(qtbot, jobs, lambda: jobs.export_page(page(1), SHOWN, folder / "page"))
    assert jobs.export_dir == folder
    (folder / "page.csv").unlink()
    folder.rmdir()
    assert jobs.export_dir == documents_dir()


def test_a_folder_that_cannot_be_looked_into_is_not_offered(jobs, qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "locked" / "exports"
    folder.mkdir(parents=True)
    finished(qtbot, jobs, lambda: jobs.export_page(page(1), SHOWN, folder / "page"))

    def refused(path: Path, *args, **kwargs):
        if path == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    real_stat = Path.stat
    monkeypatch.setattr(Path, "stat", refused)  # as for a user without search rights
    assert jobs.export_dir == documents_dir()


def test_export_page_to_a_missing_folder_is_explained(jobs, qtbot, tmp_path):
    target = tmp_path / "gone" / "page.csv"
    message, detail = failed(qtbot, jobs, lambda: jobs.export_page(page(1), SHOWN, target))
    assert message.startswith(f"The page could not be saved as {target}.")
    assert "folder does not exist" in message
    assert "FileNotFoundError" in detail
    assert jobs.export_dir != tmp_path / "gone"


def test_export_all_writes_every_page(jobs, qtbot, tmp_path, source):
    target = tmp_path / "everyone.csv"
    result = finished(qtbot, jobs, lambda: jobs.export_all(SHOWN, target))
    assert result == JobResult(JobKind.EXPORT_ALL, SHOWN, PAGES * PER_PAGE, target)
    assert len(names_in(target)) == PAGES * PER_PAGE
    assert sorted(request.page for request in source.asked) == [1, 2, 3]
    assert all(request.whole_space for request in source.asked), "it waits out a server away"
    assert jobs.progress is None
    assert jobs.export_dir == tmp_path


def test_sync_writes_every_page_into_the_local_copy(jobs, qtbot, tmp_path, source):
    copy = tmp_path / "app data" / "space.sqlite"
    copy.parent.mkdir()
    exports = jobs.export_dir
    result = finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))
    assert result == JobResult(JobKind.SYNC, SHOWN, PAGES * PER_PAGE, copy, changes=None)
    assert synced_count(copy) == PAGES * PER_PAGE
    assert sorted(request.page for request in source.asked) == [1, 2, 3]
    assert jobs.progress is None
    assert jobs.export_dir == exports, "exports are not offered in the app's own folder"


def test_the_sync_lets_go_of_its_store_off_the_window_s_thread(jobs, qtbot, tmp_path, monkeypatch):
    """The last connection to close writes the sync's log into the file: 0.3 s at
    100,000 cards, during which the window froze at the end of every sync."""
    closed_on: list[threading.Thread] = []
    close = CardStore.close

    def noted(store: CardStore) -> None:
        closed_on.append(threading.current_thread())
        close(store)

    monkeypatch.setattr(CardStore, "close", noted)
    copy = tmp_path / "space.sqlite"
    finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))
    finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))  # into a copy there before
    assert closed_on
    assert threading.main_thread() not in closed_on


def test_a_sync_whose_folder_cannot_be_made_says_so(jobs, qtbot, tmp_path):
    in_the_way = tmp_path / "spaces"
    in_the_way.write_text("a file, not a folder")
    message, _detail = failed(qtbot, jobs, lambda: jobs.sync(SHOWN, in_the_way / "space.sqlite"))
    assert message == (
        f"{SPACE} could not be synced. The folder of its local copy, {in_the_way}, could "
        "not be made. A file is where a folder should be; move it away."
    )


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (
            JobKind.EXPORT_ALL,
            f"The cards of {SPACE} could not be exported. {{}} Nothing was saved.",
        ),
        (JobKind.SYNC, f"{SPACE} could not be synced. {{}}"),
    ],
)
def test_a_failed_whole_space_fetch_is_explained_and_saves_nothing(
    jobs, qtbot, tmp_path, source, kind, expected
):
    source.failures = [ServerError("The server had a problem.", 500, detail="HTTP 500")] * 10
    targets: list[Path] = []
    message, detail = failed(
        qtbot, jobs, lambda: targets.append(start_whole_space(jobs, kind, tmp_path))
    )
    assert message == expected.format("The server had a problem.")
    assert detail == "HTTP 500"
    assert not saved_anything(kind, targets[0])
    assert jobs.progress is None
    assert jobs.stopped_note is None


@WHOLE_SPACE_JOBS
def test_a_failed_fetch_says_how_long_the_server_asks_to_wait(
    qloop, arun, qtbot, tmp_path, source, kind
):
    source.failures = [RateLimited("Too many requests.", 429, 120)] * 10
    told: list[CardViewerError] = []

    def server_wait(error: CardViewerError) -> str | None:
        told.append(error)
        return "You can try again in about 2 minutes."

    jobs = WholeSpaceJobs(
        source, Settings.load(), partial(ExportAllDialog, parent=None), server_wait=server_wait
    )
    message, _ = failed(qtbot, jobs, lambda: start_whole_space(jobs, kind, tmp_path))
    assert "Too many requests. You can try again in about 2 minutes." in message
    assert isinstance(told[0], RateLimited)
    arun(jobs.aclose())


@WHOLE_SPACE_JOBS
def test_the_end_of_the_session_stops_a_job_until_resumed(jobs, qtbot, tmp_path, source, kind):
    source.failures = [NotAuthenticated("Your session has ended.", 401)]
    with qtbot.waitSignal(jobs.signInNeeded, timeout=WAIT):
        target = start_whole_space(jobs, kind, tmp_path)
    assert not jobs.fetching_whole_space
    note = jobs.stopped_note
    assert note is not None
    assert "starts again once you have signed in" in note
    assert "stays as it was" not in note, "a first sync has no copy that could stay"
    assert not saved_anything(kind, target)

    source.asked.clear()
    result = finished(qtbot, jobs, jobs.resume)
    assert result.kind is kind
    assert result.count == PAGES * PER_PAGE
    assert result.path == target
    assert sorted(request.page for request in source.asked) == [1, 2, 3], "from page 1"
    assert jobs.stopped_note is None
    assert saved_anything(kind, target)


def test_resume_without_a_stopped_job_does_nothing(jobs):
    jobs.resume()
    assert not jobs.fetching_whole_space


def test_one_whole_space_fetch_at_a_time(jobs, qtbot, tmp_path, source):
    source.delay = 0.5
    copy = tmp_path / "space.sqlite"
    jobs.sync(SHOWN, copy)
    qtbot.waitUntil(lambda: jobs.progress is not None, timeout=WAIT)
    assert jobs.fetching_whole_space
    jobs.export_all(SHOWN, tmp_path / "everyone.csv")
    jobs.sync(SHOWN, tmp_path / "another.sqlite")
    assert jobs.raise_running_fetch()
    result = finished(qtbot, jobs, lambda: None)
    assert result.kind is JobKind.SYNC
    assert result.path == copy
    assert not (tmp_path / "everyone.csv").exists()
    assert not (tmp_path / "another.sqlite").exists()
    assert not jobs.raise_running_fetch()


def test_cancelling_the_fetches_stops_them_quietly(jobs, qtbot, tmp_path, source):
    source.delay = 5.0
    target = tmp_path / "everyone.csv"
    jobs.export_all(SHOWN, target)
    qtbot.waitUntil(lambda: jobs.progress is not None, timeout=WAIT)
    with qtbot.assertNotEmitted(jobs.finished), qtbot.assertNotEmitted(jobs.failed):
        jobs.cancel_fetches()
        qtbot.waitUntil(lambda: jobs.progress is None, timeout=WAIT)
    assert not jobs.fetching_whole_space
    assert not target.exists()


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        (JobKind.EXPORT_ALL, "Export cancelled; nothing was saved."),
        (JobKind.SYNC, "Sync cancelled; no local copy was made."),  # the space's first
    ],
)
def test_cancel_in_the_progress_says_so(jobs, qtbot, tmp_path, source, kind, said):
    source.delay = 5.0
    target = start_whole_space(jobs, kind, tmp_path)
    qtbot.waitUntil(lambda: isinstance(jobs.progress, ExportAllDialog), timeout=WAIT)
    progress = jobs.progress
    assert isinstance(progress, ExportAllDialog)
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as signal:
        progress.cancel()
    assert signal.args == [said, 5000]
    assert not saved_anything(kind, target)


@pytest.mark.parametrize("synced_before", [False, True])
def test_a_sync_that_cannot_write_says_what_it_left(
    jobs, qtbot, tmp_path, monkeypatch, synced_before
):
    """A space's first sync said that its local copy "stays as it was": there was none."""
    if synced_before:
        finished(qtbot, jobs, lambda: start_whole_space(jobs, JobKind.SYNC, tmp_path))

    def full(_store: CardStore, **_options: object) -> StoreSync:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(CardStore, "begin_sync", full)
    message, _ = failed(qtbot, jobs, lambda: start_whole_space(jobs, JobKind.SYNC, tmp_path))
    left = "the local copy stays as it was." if synced_before else "no local copy was made."
    assert message == f"{SHOWN.space_id} could not be synced. The disk is full; {left}"
    assert (tmp_path / "space.sqlite").exists() is synced_before


def test_cancelling_a_sync_of_a_space_synced_before_says_its_copy_stays(
    jobs, qtbot, tmp_path, source
):
    with qtbot.waitSignal(jobs.finished, timeout=WAIT):
        target = start_whole_space(jobs, JobKind.SYNC, tmp_path)
    count = synced_count(target)
    source.delay = 5.0
    start_whole_space(jobs, JobKind.SYNC, tmp_path)
    qtbot.waitUntil(lambda: isinstance(jobs.progress, ExportAllDialog), timeout=WAIT)
    progress = jobs.progress
    assert isinstance(progress, ExportAllDialog)
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as signal:
        progress.cancel()
    assert signal.args == ["Sync cancelled; the local copy stays as it was.", 5000]
    assert synced_count(target) == count


class HeldTidying:
    """Each sync's tidying (`space_sync.tidy`) waits for `release` before it drops."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = asyncio.Event()
        self.called_off = 0
        self.begun = 0
        self._tidy = space_sync.tidy
        monkeypatch.setattr(space_sync, "tidy", self._held)

    async def _held(self, writer: CardWriter) -> None:
        self.begun += 1
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.called_off += 1
            await writer.stop()
            raise
        await self._tidy(writer)


def three_syncs(
    qtbot, jobs: WholeSpaceJobs, copy: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[int], HeldTidying]:
    """Sync `copy` three times, the third one's tidying held (and any after it); the
    copies kept after the second."""
    for _ in range(2):
        finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))
    kept = generation_ids(copy)
    held = HeldTidying(monkeypatch)
    finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))
    return kept, held


def test_a_sync_s_new_copy_is_shown_while_the_copy_it_replaces_is_dropped(
    jobs, qtbot, tmp_path, monkeypatch
):
    """Dropping a copy of 100,000 cards takes 10 to 25 s: the new one does not wait."""
    copy = tmp_path / "space.sqlite"
    (oldest, _before), held = three_syncs(qtbot, jobs, copy, monkeypatch)
    assert oldest in generation_ids(copy), "the result came before the drop"
    with CardStore.open(copy) as store:
        assert store.current is not None
        assert store.current.id == max(generation_ids(copy))
    held.release.set()
    qtbot.waitUntil(lambda: oldest not in generation_ids(copy), timeout=WAIT)
    assert held.called_off == 0


def test_a_closed_window_lets_the_tidying_end_before_it_closes(
    jobs, qtbot, arun, tmp_path, monkeypatch
):
    """Called off, the drop was undone: a window closed right after each sync left a
    whole copy more in the file every time (230 MB at 100,000 cards)."""
    copy = tmp_path / "space.sqlite"
    (oldest, _before), held = three_syncs(qtbot, jobs, copy, monkeypatch)
    asyncio.get_event_loop().call_later(0.2, held.release.set)
    arun(jobs.aclose(tidying_until=asyncio.Event()))
    assert held.called_off == 0
    assert oldest not in generation_ids(copy)
    assert len(generation_ids(copy)) == 2


def test_a_closed_window_waits_for_the_tidying_only_so_long(
    jobs, qtbot, arun, tmp_path, monkeypatch
):
    monkeypatch.setattr(whole_space_jobs, "TIDYING_AT_CLOSE", 0.2)
    copy = tmp_path / "space.sqlite"
    (oldest, _before), held = three_syncs(qtbot, jobs, copy, monkeypatch)
    arun(jobs.aclose(tidying_until=asyncio.Event()))
    assert held.called_off == 1
    assert oldest in generation_ids(copy), "undone: the next sync's tidying drops it"


def test_a_quit_ends_the_wait_for_a_closed_window_s_tidying(
    jobs, qtbot, arun, tmp_path, monkeypatch
):
    copy = tmp_path / "space.sqlite"
    (oldest, _before), held = three_syncs(qtbot, jobs, copy, monkeypatch)
    quit_asked = asyncio.Event()
    asyncio.get_event_loop().call_later(0.2, quit_asked.set)
    started = time.monotonic()
    arun(jobs.aclose(tidying_until=quit_asked))
    assert time.monotonic() - started < whole_space_jobs.TIDYING_AT_CLOSE / 2
    assert held.called_off == 1
    assert oldest in generation_ids(copy)


def test_signing_out_calls_the_tidying_off_and_the_next_sync_does_it(
    jobs, qtbot, arun, tmp_path, source, monkeypatch
):
    copy = tmp_path / "space.sqlite"
    (oldest, _before), held = three_syncs(qtbot, jobs, copy, monkeypatch)
    arun(jobs.aclose())
    assert held.called_off == 1
    assert oldest in generation_ids(copy)
    held.release.set()
    again = WholeSpaceJobs(source, Settings.load(), partial(ExportAllDialog, parent=None))
    try:
        finished(qtbot, again, lambda: again.sync(SHOWN, copy))
        qtbot.waitUntil(lambda: len(generation_ids(copy)) == 2, timeout=WAIT)
    finally:
        arun(again.aclose())
    assert oldest not in generation_ids(copy)


def test_a_new_sync_of_the_copy_calls_off_the_tidying_and_does_it_itself(
    jobs, qtbot, tmp_path, monkeypatch
):
    copy = tmp_path / "space.sqlite"
    _kept, held = three_syncs(qtbot, jobs, copy, monkeypatch)
    other = tmp_path / "other.sqlite"
    finished(qtbot, jobs, lambda: jobs.sync(SHOWN, other))
    assert held.called_off == 0, "the tidying of another space's copy goes on"
    finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))
    assert held.called_off == 1
    held.release.set()
    qtbot.waitUntil(lambda: len(generation_ids(copy)) == 2, timeout=WAIT)


def test_work_done_without_syncs_waits_for_the_sync_under_way_to_be_called_off(
    jobs, qtbot, tmp_path, source
):
    """Removing the local copies under a sync left it writing into a file that was gone,
    to say at its end that it synced."""
    done: list[bool] = []
    jobs.without_syncs(lambda: done.append(jobs.fetching_whole_space))
    assert done == [False], "at once where no sync runs"
    source.delay = 5.0
    jobs.sync(SHOWN, tmp_path / "space.sqlite")
    qtbot.waitUntil(lambda: isinstance(jobs.progress, ExportAllDialog), timeout=WAIT)
    jobs.without_syncs(lambda: done.append(jobs.fetching_whole_space))
    assert done == [False], "not while the sync runs"
    qtbot.waitUntil(lambda: len(done) == 2, timeout=WAIT)
    assert done == [False, False], "once it has ended"
    assert not (tmp_path / "space.sqlite").exists()


def test_work_done_without_syncs_calls_off_the_tidying_of_one_finished(
    jobs, qtbot, tmp_path, monkeypatch
):
    copy = tmp_path / "space.sqlite"
    (oldest, _before), held = three_syncs(qtbot, jobs, copy, monkeypatch)
    done: list[int] = []
    jobs.without_syncs(lambda: done.append(held.called_off))
    qtbot.waitUntil(lambda: done == [1], timeout=WAIT)
    assert oldest in generation_ids(copy)


def test_work_done_without_syncs_waits_for_the_tidying_a_sync_hands_on_as_it_ends(
    jobs, qtbot, tmp_path, monkeypatch
):
    """Called off as it makes its copy current, a sync finishes that (it stands once
    begun) and hands on its tidying after the tasks to wait for were listed."""
    finishing, may_finish = threading.Event(), threading.Event()
    finish = StoreSync.finish

    def held(self: StoreSync, *args: object, **options: bool) -> object:
        finishing.set()
        may_finish.wait(WAIT / 1000)
        return finish(self, *args, **options)  # type: ignore[arg-type]

    copy = tmp_path / "space.sqlite"
    finished(qtbot, jobs, lambda: jobs.sync(SHOWN, copy))
    monkeypatch.setattr(StoreSync, "finish", held)
    jobs.sync(SHOWN, copy)
    qtbot.waitUntil(finishing.is_set, timeout=WAIT)
    still_running: list[list[str]] = []
    jobs.without_syncs(lambda: still_running.append(jobs._tasks.running_names()))
    qtbot.wait(50)
    may_finish.set()
    qtbot.waitUntil(lambda: len(still_running) == 1, timeout=WAIT)
    assert still_running == [[]], "no sync nor tidying left writing"


def test_a_sync_ending_as_its_window_closes_hands_its_tidying_to_no_one(jobs, arun, tmp_path):
    async def tidying() -> None:
        raise AssertionError("not run")

    arun(jobs.aclose())
    work = tidying()
    jobs._tidy_later(tmp_path / "space.sqlite", work)
    assert inspect.getcoroutinestate(work) == inspect.CORO_CLOSED, "not left pending"


def test_closing_drops_a_job_waiting_for_a_sign_in(jobs, qtbot, arun, tmp_path, source):
    source.failures = [NotAuthenticated("Your session has ended.", 401)]
    with qtbot.waitSignal(jobs.signInNeeded, timeout=WAIT):
        jobs.sync(SHOWN, tmp_path / "space.sqlite")
    arun(jobs.aclose())
    assert jobs.stopped_note is None


def held_open(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """`CardStore.open` held until the second event is set; the first says it began."""
    opening = threading.Event()
    may_open = threading.Event()
    open_store = CardStore.open

    def slow_open(path: Path) -> CardStore:
        opening.set()
        may_open.wait(WAIT / 1000)
        return open_store(path)

    monkeypatch.setattr(CardStore, "open", slow_open)
    return opening, may_open


def test_a_sync_called_off_as_its_copy_opens_leaves_no_copy_once_ended(
    jobs, qtbot, tmp_path, monkeypatch
):
    """Cancelled as its store was being opened, the store was left open, and made."""
    opening, may_open = held_open(monkeypatch)
    target = tmp_path / "space.sqlite"
    jobs.sync(SHOWN, target)
    qtbot.waitUntil(opening.is_set, timeout=WAIT)
    ended: list[bool] = []
    jobs.without_syncs(lambda: ended.append(target.exists()))
    qtbot.wait(50)
    assert ended == [], "the open is waited for"
    may_open.set()
    qtbot.waitUntil(lambda: ended == [False], timeout=WAIT)


def test_cancel_while_the_local_copy_opens_is_not_lost(jobs, qtbot, tmp_path, source, monkeypatch):
    """A sync opens its local copy before it fetches; the end of a session may come first."""
    opening, may_open = held_open(monkeypatch)
    target = tmp_path / "space.sqlite"
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as signal:
        jobs.sync(SHOWN, target)
        qtbot.waitUntil(opening.is_set, timeout=WAIT)
        progress = jobs.progress
        assert isinstance(progress, ExportAllDialog)
        progress.cancel()  # as the end of a session does, before any page is asked for
        may_open.set()
    assert signal.args == ["Sync cancelled; no local copy was made.", 5000]
    assert source.asked == []
    assert not saved_anything(JobKind.SYNC, target)


def test_a_save_says_so_while_it_lasts_and_a_failure_takes_the_note_back(jobs, qtbot, tmp_path):
    said: list[tuple[str, int]] = []
    jobs.statusMessage.connect(lambda text, ms: said.append((text, ms)))
    with qtbot.waitSignal(jobs.finished, timeout=WAIT):
        jobs.export_page(page(1), SHOWN, tmp_path / "page.csv")
    assert said[0] == ("Saving page.csv…", 0), "until the result replaces it"
    said.clear()
    with qtbot.waitSignal(jobs.failed, timeout=WAIT):
        jobs.export_page(page(1), SHOWN, tmp_path / "gone" / "page.csv")
    assert said == [("Saving page.csv…", 0), ("", 1)]


# Copying many rows of a synced space


def stored_rows(tmp_path: Path, count: int = 12) -> StoredRows:
    """The rows of a synced space of `count` cards, last card first, every column."""
    cards = [parse_card({"uuid": f"c{n}", "display_name": f"Card {n}"}) for n in range(count)]
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(cards)
        generation = sync.finish()
    columns = build_columns(cards, with_emails=False)
    every = frozenset(range(len(columns)))
    return StoredRows(path, generation.id, list(range(count))[::-1], columns, [every] * count)


class SlowRows(StoredRows):
    """Tells of 250 rows, then waits to be stopped, as 100,000 rows would take long."""

    def text(self, *, stop: threading.Event | None = None, painted: Painted | None = None) -> str:
        assert stop is not None
        assert painted is not None
        painted(250)
        stop.wait(WAIT / 1000)
        check(stop)
        return "never"


class DyingRows(StoredRows):
    def text(self, *, stop: threading.Event | None = None, painted: Painted | None = None) -> str:
        os._exit(9)  # as a process killed


class UnreadableRows(StoredRows):
    def text(self, *, stop: threading.Event | None = None, painted: Painted | None = None) -> str:
        raise sqlite3.DatabaseError("database disk image is malformed")


@pytest.fixture
def clipboard(qapp):
    board = QGuiApplication.clipboard()
    board.setText("the clipboard before")
    return board


def test_copied_rows_go_on_the_clipboard_and_the_status_says_so(jobs, qtbot, tmp_path, clipboard):
    rows = stored_rows(tmp_path)
    said: list[tuple[str, int]] = []
    jobs.statusMessage.connect(lambda text, ms: said.append((text, ms)))
    jobs.copy_rows(rows)
    qtbot.waitUntil(lambda: len(said) == 2, timeout=WAIT)
    assert said == [("Copying 12 rows…", 0), ("Copied 12 rows", STATUS_TIMEOUT_MS)]
    assert clipboard.text() == rows.text()
    assert "\tCard 11\t" in clipboard.text().split("\n")[0]


def test_copying_cancelled_leaves_the_clipboard_as_it_was(jobs, qtbot, tmp_path, clipboard):
    done = stored_rows(tmp_path)
    slow = SlowRows(**{field: getattr(done, field) for field in done.__dataclass_fields__})
    jobs.copy_rows(slow)
    qtbot.waitUntil(lambda: jobs.painting.running, timeout=WAIT)
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
        jobs.painting.cancel()
    assert said.args == ["Copying cancelled; the clipboard stays as it was.", STATUS_TIMEOUT_MS]
    assert clipboard.text() == "the clipboard before"


def test_a_new_copy_takes_the_place_of_one_under_way(jobs, qtbot, tmp_path, clipboard):
    done = stored_rows(tmp_path)
    slow = SlowRows(**{field: getattr(done, field) for field in done.__dataclass_fields__})
    said: list[str] = []
    jobs.statusMessage.connect(lambda text, _ms: said.append(text))
    jobs.copy_rows(slow)
    qtbot.waitUntil(lambda: jobs.painting.running, timeout=WAIT)
    jobs.copy_rows(done)
    qtbot.waitUntil(lambda: "Copied 12 rows" in said, timeout=WAIT)
    qtbot.waitUntil(lambda: not jobs.painting.running, timeout=WAIT)
    assert clipboard.text() == done.text()
    assert not any("cancelled" in text for text in said), "replaced quietly"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (
            lambda rows: replace(rows, generation=rows.generation + 1),
            "The local copy has changed since they were selected; copy them again.",
        ),
        (
            lambda rows: UnreadableRows(
                **{field: getattr(rows, field) for field in rows.__dataclass_fields__}
            ),
            "The local copy could not be read; sync the space again to renew it.",
        ),
        (
            lambda rows: DyingRows(
                **{field: getattr(rows, field) for field in rows.__dataclass_fields__}
            ),
            "Copying stopped unexpectedly; try again.",
        ),
    ],
)
def test_rows_that_cannot_be_copied_are_explained(jobs, qtbot, tmp_path, clipboard, make, reason):
    with qtbot.waitSignal(jobs.failed, timeout=WAIT) as failed:
        jobs.copy_rows(make(stored_rows(tmp_path)))
    assert failed.args[0] == f"The rows could not be copied. {reason}"
    assert clipboard.text() == "the clipboard before"


# Saving the cards shown of a synced space


def test_the_cards_shown_are_saved_from_the_copy_and_one_it_cannot_read_is_explained(
    jobs, qtbot, tmp_path
):
    rows = stored_rows(tmp_path)
    target = tmp_path / "shown.csv"
    with qtbot.waitSignal(jobs.finished, timeout=WAIT) as done:
        jobs.export_shown(rows.store_path, [11, 0], SHOWN, target)
    assert done.args[0].count == 2
    names = [row[2] for row in csv.reader(target.read_text("utf-8-sig").splitlines())]
    assert names == ["Name", "Card 11", "Card 0"]
    with contextlib.closing(sqlite3.connect(rows.store_path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with qtbot.waitSignal(jobs.failed, timeout=WAIT) as failed:
        jobs.export_shown(rows.store_path, [11, 0], SHOWN, target)
    assert failed.args[0] == (
        f"The cards could not be saved as {target}. The local copy was written by a newer "
        "version of CardViewer and is left as it is; update CardViewer to use it."
    )
    assert names == [row[2] for row in csv.reader(target.read_text("utf-8-sig").splitlines())]


def test_a_print_of_a_copy_it_cannot_read_is_explained_and_the_note_goes(jobs, qtbot, tmp_path):
    """Before, the print's job ended in the log alone, and the status bar said "Sending
    the phone list to the printer…" for good."""
    rows = stored_rows(tmp_path)
    chosen = ChosenCards(SHOWN, SPACE, store_path=rows.store_path, positions=[11, 0])
    with contextlib.closing(sqlite3.connect(rows.store_path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    notes: list[tuple[str, int]] = []
    jobs.statusMessage.connect(lambda text, ms: notes.append((text, ms)))
    paint = partial(print_chosen_elsewhere, printer, chosen=chosen, texts=phone_list_texts(chosen))
    message, _detail = failed(qtbot, jobs, lambda: jobs.print_with(paint, SHOWN, total=2))
    assert message == (
        "The cards could not be printed. The local copy was written by a newer version of "
        "CardViewer and is left as it is; update CardViewer to use it."
    )
    assert notes[-1] == ("", 1), "the note that it is sending is taken away"


def test_cards_of_a_copy_that_cannot_be_written_are_not_called_a_page(jobs, qtbot, tmp_path):
    rows = stored_rows(tmp_path)
    target = tmp_path / "gone" / "shown.csv"
    message, _detail = failed(
        qtbot, jobs, lambda: jobs.export_shown(rows.store_path, [11, 0], SHOWN, target)
    )
    assert message.startswith(f"The cards could not be saved as {target}.")
    assert "folder does not exist" in message


def test_saving_that_ends_unexpectedly_is_explained(jobs, qtbot, tmp_path, monkeypatch):
    def ended(*_args, **_kwargs):
        raise JobEnded("killed")

    monkeypatch.setattr(whole_space_jobs, "run_in_process", ended)
    with qtbot.waitSignal(jobs.failed, timeout=WAIT) as failed:
        jobs.export_shown(tmp_path / "space.sqlite", [0], SHOWN, tmp_path / "shown.csv")
    assert failed.args[0] == (
        f"The cards could not be saved as {tmp_path / 'shown.csv'}. "
        "Saving stopped unexpectedly; try again."
    )


def test_an_export_started_while_another_runs_leaves_it_to_finish(jobs, qtbot, tmp_path):
    """A phone list of 100,000 cards takes a minute; saving the page meanwhile must not
    call it off without a word."""
    started, go_on = threading.Event(), threading.Event()

    def slow_list(path: Path, *, stop: threading.Event, painted: Painted) -> int:
        started.set()
        go_on.wait(WAIT / 1000)
        check(stop)
        path.write_text("the list", "utf-8")
        return 1

    said: list[str] = []
    jobs.statusMessage.connect(lambda text, _ms: said.append(text))
    done: list[Path] = []
    jobs.finished.connect(lambda result: done.append(result.path))
    jobs.export_with(slow_list, SHOWN, tmp_path / "everyone.pdf", total=1)
    qtbot.waitUntil(started.is_set, timeout=WAIT)
    jobs.export_page(page(1), SHOWN, tmp_path / "page.csv")
    qtbot.waitUntil(lambda: done == [tmp_path / "page.csv"], timeout=WAIT)
    go_on.set()
    qtbot.waitUntil(lambda: len(done) == 2, timeout=WAIT)
    assert done[1] == tmp_path / "everyone.pdf"
    assert (tmp_path / "everyone.pdf").read_text("utf-8") == "the list"
    assert not [text for text in said if "cancelled" in text]
