"""Exporting the page shown, exporting every page of a space, syncing a space's local copy,
and copying many of its rows.

The jobs hold no widgets: they report through signals, and the window decides what
the person sees. A whole-space fetch shows its progress, and offers Cancel, through
what `open_progress` returns (in the window, the Export All dialog). Export All and
Sync Space fail the same way: when the session ends, the job waits and `resume()` starts
it again from page 1; any other error is explained and the table shown stays.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import shiboken6
from PySide6.QtCore import QCoreApplication, QLocale, QObject, QStandardPaths, Signal
from PySide6.QtGui import QGuiApplication

from cardviewer.api import Card, CardPage, CardViewerError, NotAuthenticated
from cardviewer.services.atomic_file import unwritable
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_export import ExportFormat
from cardviewer.services.card_store import CardStore, close_discarding_if_empty
from cardviewer.services.clipboard_text import CopyOutdated, StoredRows
from cardviewer.services.page_loader import PageRequest, PageSource
from cardviewer.services.phone_list import PagesRefused, PhoneListStopped, picture_jpeg
from cardviewer.services.process_job import JobEnded, run_in_process
from cardviewer.services.settings import Settings
from cardviewer.services.space_fetch import PageFetch
from cardviewer.services.space_sync import TidyLater, changes_of, no_copy_made
from cardviewer.services.stoppable import Painted, Stopped
from cardviewer.services.store_copies import Changes
from cardviewer.services.store_schema import Generation, StoreError, StoreProblem
from cardviewer.services.vcard_export import SUFFIX as VCARD_SUFFIX
from cardviewer.services.vcard_export import (
    PhotoLookup,
    VCardVersion,
    write_stored_vcards,
    write_vcards,
)
from cardviewer.services.vcard_photo import photo_jpeg
from cardviewer.services.vcard_photos import PhotoSource, Thumbnail, blocking_lookup
from cardviewer.tasks import TaskSet, on_thread_to_the_end, undone_if_called_off
from cardviewer.ui.cards.card_export import stored_cards_writer, write_cards
from cardviewer.ui.cards.table_copy import rows_copied
from cardviewer.ui.error_text import (
    error_text,
    failure_reason_text,
    store_error_text,
    write_failure_text,
)
from cardviewer.ui.painting import Made, Paint, Painting
from cardviewer.ui.preferences_dialog import export_csv_delimiter
from cardviewer.ui.settings_saving import save_settings

log = logging.getLogger(__name__)

STATUS_TIMEOUT_MS = 5000


class JobKind(Enum):
    """What a job does; the value names its task."""

    EXPORT_PAGE = "export page"
    EXPORT_ALL = "export all"
    SYNC = "sync"
    PRINT = "print"
    COPY = "copy"


WHOLE_SPACE_KINDS = (JobKind.EXPORT_ALL, JobKind.SYNC)
"""The jobs that fetch every page of a space; one of them runs at a time."""


@dataclass(frozen=True)
class JobResult:
    """What a job that ran to its end did: `count` cards written to `path`.

    A sync's `path` is the space's local copy.
    """

    kind: JobKind
    request: PageRequest
    count: int
    path: Path
    changes: Changes | None = None
    """What a sync changed since the one before (None after the first)."""
    skipped: int = 0
    """Entries the server sent that are not cards, left out (a whole space's)."""


class WholeSpaceProgress(Protocol):
    """Shows a whole-space fetch and cancels it; the Export All dialog is one.

    `run()` fetches and writes the file it was opened with (the number of cards, None
    when cancelled); `sync()` fetches into a local copy (the new copy, None when
    cancelled).
    """

    skipped: int
    """Entries of the pages fetched that are not cards, left out."""
    with_emails: bool
    """The cards' e-mail addresses are asked for."""

    async def run(self) -> int | None: ...

    async def sync(
        self, store: CardStore, *, tidy_later: TidyLater | None = None
    ) -> Generation | None: ...

    def raise_(self) -> None: ...

    def deleteLater(self) -> None: ...


class OpenProgress(Protocol):
    """Opens what shows a whole-space fetch: the file of an export, or the local copy synced."""

    def __call__(
        self,
        fetch: PageFetch,
        path: Path,
        *,
        space_id: str,
        with_emails: bool,
        concurrency: int,
        delimiter: str,
    ) -> WholeSpaceProgress: ...


WriteCards = Callable[..., Awaitable[int]]
"""Writes cards to `(path, delimiter=…)`; the number of cards."""

PaintFile = Callable[..., int]
"""Paints a phone list (or writes vCards) into the file `(path, *, stop, painted)`: a
`Paint` given its path; with pictures, `pictures=` a `PhotoLookup` as well."""

ServerWait = Callable[[CardViewerError], str | None]
"""How long the server asked to wait, in the window's words (`PageMessages.server_wait`)."""

MakePhotoSource = Callable[[Thumbnail], PhotoSource]
"""Where the photos of one vCard export, or the pictures of one phone list, come from
(`vcard_photos`), made by the `Thumbnail` given; closed after it."""


@dataclass(frozen=True)
class _Stopped:
    """A whole-space job the end of the session stopped, to start again after sign-in."""

    kind: JobKind
    request: PageRequest
    path: Path


class WholeSpaceJobs(QObject):
    """Runs the export and sync jobs of one window; at most one whole-space fetch at a time."""

    finished = Signal(object)
    """A job ran to its end (`JobResult`)."""
    failed = Signal(str, str)
    """A job failed: the sentence for the person, and the detail for the log."""
    copyRefused = Signal(object)
    """A sync found its copy (`Path`) damaged and set it aside, or too new: said by `failed`."""
    signInNeeded = Signal()
    """The session ended during a whole-space fetch; `stopped_note` says what waits."""
    statusMessage = Signal(str, int)
    """A passing note (text, milliseconds), e.g. that a job was cancelled."""

    def __init__(
        self,
        source: PageSource | None,
        settings: Settings,
        open_progress: OpenProgress,
        parent: QObject | None = None,
        *,
        server_wait: ServerWait | None = None,
        photo_source: MakePhotoSource | None = None,
    ) -> None:
        """`photo_source`: for vCards with photos and phone lists with pictures; by
        default public image hosts only."""
        super().__init__(parent)
        self._source = source
        self._photo_source = photo_source or PhotoSource
        self._server_wait = server_wait
        self._settings = settings
        self._open_progress = open_progress
        self._tasks = TaskSet()
        self._stopped: _Stopped | None = None
        self.progress: WholeSpaceProgress | None = None
        self.painting = Painting(self)
        """The phone list being painted into a file or for a printer, the vCards being
        written, the rows being copied: progress, Cancel."""

    # State

    @property
    def export_dir(self) -> Path:
        """The folder an export suggests: the one chosen last (in this run or an
        earlier one), while it is there.

        A file dialog given a folder that is not there opens wherever the app was
        started from, which for a double-clicked app is nowhere the person knows.
        """
        chosen = Path(self._settings.export_folder) if self._settings.export_folder else None
        try:
            if chosen is not None and chosen.is_dir():
                return chosen
        except OSError as error:  # a folder this user may no longer look into
            log.info("the last export's folder is not offered: %s", error)
        return documents_dir()

    def remember_folder(self, saved: Path) -> None:
        """A file the person saved (an export, a QR code, a chart): its folder is
        offered next (`export_dir`), also after a restart."""
        folder = str(saved.parent)
        if folder != self._settings.export_folder:
            self._settings.export_folder = folder
            save_settings(self._settings)

    @property
    def can_fetch_whole_space(self) -> bool:
        """Whether pages can be fetched at all (a window without a source cannot)."""
        return self._source is not None

    @property
    def fetching_whole_space(self) -> bool:
        """An export of all pages or a sync is under way (its progress may not be up yet)."""
        return self.progress is not None or any(
            self._tasks.running(kind.value) for kind in WHOLE_SPACE_KINDS
        )

    @property
    def stopped_note(self) -> str | None:
        """What the end of the session stopped and how it goes on, while it waits."""
        return None if self._stopped is None else _stopped_note(self._stopped.kind)

    def raise_running_fetch(self) -> bool:
        """Bring a whole-space fetch under way to the front; False when none runs."""
        if self.progress is not None:
            self.progress.raise_()
        return self.fetching_whole_space

    # Starting and stopping

    def export_page(self, page: CardPage, request: PageRequest, path: Path) -> None:
        """Save the cards of `page` (a CSV file unless `path` asks for a workbook)."""
        cards = list(page.cards)
        title = f"{request.space_id} {page.meta.current_page}"
        write = partial(write_cards, cards=cards, with_emails=request.with_emails, title=title)
        job = self._export_page(_with_suffix(path), write, request, page=True)
        self._start(JobKind.EXPORT_PAGE, job)

    def export_shown(
        self,
        store_path: Path,
        positions: list[int],
        request: PageRequest,
        path: Path,
        generation: Generation | None = None,
    ) -> None:
        """Save the cards of the local copy at `store_path` (its copy `generation`, the one
        shown) shown in the whole space, in a process of its own, told and cancelled by
        `painting` (100,000 cards take seconds, a minute on a busy machine)."""

        async def run(target: Path, *, delimiter: str) -> int:
            write = stored_cards_writer(
                store_path=store_path,
                positions=positions,
                title=request.space_id,
                delimiter=delimiter,
                generation=generation,
            )
            paint = partial(_written_in_a_process, write, target)
            return await self._paint(paint, len(positions), pictures=None, made=Made.EXPORT)

        self._start(JobKind.EXPORT_PAGE, self._export_page(_with_suffix(path), run, request))

    def export_vcards(
        self, cards: list[Card], request: PageRequest, path: Path, *, photos: bool = False
    ) -> None:
        """Save `cards` as vCards (the selection, or the page shown), with their photos."""
        write = partial(write_vcards, cards=cards, version=VCardVersion.V3)
        self._export_vcards(write, request, path, total=len(cards), photos=photos)

    def export_shown_vcards(
        self,
        store_path: Path,
        positions: list[int],
        request: PageRequest,
        path: Path,
        *,
        photos: bool = False,
        generation: Generation | None = None,
    ) -> None:
        """Save the cards of the local copy at `store_path` (its copy `generation`, the one
        shown) shown or selected as vCards.

        They are written in a process of its own: on a thread, 100,000 cards held up
        the window's every paint for 11 s. Their photos are fetched here, through the
        window's loop, and sent to it.
        """
        write = partial(
            write_stored_vcards,
            store_path=store_path,
            positions=positions,
            version=VCardVersion.V3,
            generation=generation,
        )
        in_a_process = partial(_written_in_a_process, write)
        self._export_vcards(in_a_process, request, path, total=len(positions), photos=photos)

    def _export_vcards(
        self, write: PaintFile, request: PageRequest, path: Path, *, total: int, photos: bool
    ) -> None:
        """vCards written by `write` off the window's thread, told and cancelled by
        `painting` as a phone list is."""

        def with_photos(target: Path, *, pictures: PhotoLookup | None = None, **job: Any) -> int:
            return write(target, photos=pictures, **job)

        async def run(target: Path, *, delimiter: str) -> int:
            paint = partial(with_photos, target)
            thumbnail = photo_jpeg if photos else None
            return await self._paint(paint, total, pictures=thumbnail, made=Made.VCARDS)

        self._start(JobKind.EXPORT_PAGE, self._export_page(_vcard_file(path), run, request))

    async def _paint(
        self,
        paint: PaintFile,
        total: int,
        *,
        pictures: Thumbnail | None,
        made: Made = Made.PHONE_LIST,
    ) -> int:
        """`paint` run by `painting`; with `pictures` (how a picture is made for it),
        given them as `pictures=`, fetched on this loop a batch at a time, and given up
        on when the painting is stopped."""
        if pictures is None:
            return await self.painting.run(paint, total, made)
        source = self._photo_source(pictures)
        loop = asyncio.get_running_loop()

        def with_pictures(*, stop: threading.Event, painted: Painted) -> int:
            lookup = blocking_lookup(source, loop, stop=stop)
            return paint(stop=stop, painted=painted, pictures=lookup)

        try:
            return await self.painting.run(with_pictures, total, made)
        finally:
            await source.aclose()

    def export_with(
        self,
        write: PaintFile,
        request: PageRequest,
        path: Path,
        *,
        total: int,
        pictures: bool = False,
    ) -> None:
        """Paint a phone list of `total` cards into `path` with `write`, off the window's
        thread, its progress told by `painting`; with each card's picture if `pictures`."""

        async def run(target: Path, *, delimiter: str) -> int:
            thumbnail = picture_jpeg if pictures else None
            return await self._paint(partial(write, target), total, pictures=thumbnail)

        self._start(JobKind.EXPORT_PAGE, self._export_page(path, run, request))

    def print_with(
        self, paint: Paint, request: PageRequest, *, total: int, pictures: bool = False
    ) -> None:
        """Print a phone list of `total` cards with `paint`, off the window's thread;
        `painting` tells its progress, `finished` or `failed` how it ended."""
        self._start(JobKind.PRINT, self._print(paint, request, total, pictures=pictures))

    def copy_rows(self, rows: StoredRows) -> None:
        """Put rows of a synced space on the clipboard, read from its copy off the
        window's thread; told and cancelled by `painting` as a phone list is. A copy
        asked for meanwhile takes its place."""
        self._start(JobKind.COPY, self._copy(rows))

    def export_all(self, request: PageRequest, path: Path) -> None:
        """Fetch every page of the space of `request` and save all its cards to `path`."""
        self._start_whole_space(JobKind.EXPORT_ALL, request, _with_suffix(path))

    def sync(self, request: PageRequest, path: Path) -> None:
        """Fetch every page of the space of `request` into its local copy at `path`."""
        self._start_whole_space(JobKind.SYNC, request, path)

    def resume(self, store_path: Callable[[str], Path | None] = lambda _space: None) -> None:
        """Start the whole-space job the end of the session stopped, from page 1.

        A sync goes into the copy `store_path` names for its space: the account signed
        in now may be another than the one whose copy it was writing.
        """
        stopped, self._stopped = self._stopped, None
        if stopped is None:
            return
        path = stopped.path
        if stopped.kind is JobKind.SYNC:
            path = store_path(stopped.request.space_id) or path
        self._start_whole_space(stopped.kind, stopped.request, path)

    def without_syncs(self, then: Callable[[], None]) -> None:
        """Call off the sync under way and the tidying of finished ones, then `then()`
        once they have ended (at once where none runs): the local copies removed under
        them, a sync went on writing into a file that was gone, and said it synced."""
        if any(_is_sync(name) for name in self._tasks.running_names()):
            self._tasks.start(_without_syncs(self._tasks, then))
        else:
            then()

    def cancel_fetches(self) -> None:
        """Stop fetching; a file already being written is still finished."""
        for kind in WHOLE_SPACE_KINDS:
            self._tasks.cancel(kind.value)

    async def aclose(self, *, tidying_until: asyncio.Event | None = None) -> None:
        """Cancel every job, one waiting for a sign-in too; `tidying_until`: `_tidied`."""
        self._stopped = None
        try:
            await _tidied(self._tasks, tidying_until)
        finally:
            await self._tasks.aclose()

    def _start_whole_space(self, kind: JobKind, request: PageRequest, path: Path) -> None:
        if self.raise_running_fetch():
            return  # one whole-space fetch at a time
        self._start(kind, self._fetch_whole_space(kind, request, path))

    def _start(self, kind: JobKind, job: Coroutine[Any, Any, None]) -> None:
        """Run `job`. A copy replaces the one under way; a whole-space fetch is one at a
        time (`_start_whole_space`); each export and print runs to its end, as its own
        file or printout, whatever starts after it."""
        replaces = kind in (*WHOLE_SPACE_KINDS, JobKind.COPY)
        self._tasks.start(job, name=kind.value if replaces else None)

    # The jobs

    async def _export_page(
        self, path: Path, write: WriteCards, request: PageRequest, *, page: bool = False
    ) -> None:
        """Write the cards through `write` into `path`: the page on screen (`page`), or
        the cards shown or chosen, also of a local copy."""
        # Said while it lasts: a whole space's cards or phone list take seconds.
        saving = QCoreApplication.translate("MainWindow", "Saving %1…").replace("%1", path.name)
        self.statusMessage.emit(saving, 0)
        try:
            count = await write(path, delimiter=export_csv_delimiter(self._settings))
        except Stopped:
            log.info("the export to %s was cancelled", path)
            self.statusMessage.emit(_cancelled(JobKind.EXPORT_PAGE), STATUS_TIMEOUT_MS)
            return
        except (OSError, StoreError, sqlite3.Error, JobEnded) as exc:
            log.warning("export to %s failed: %r", path, exc)
            self._failed(_not_saved(path, exc, page=page), exc)
            return
        log.info("exported %d cards to %s", count, path)
        self._finish(JobResult(JobKind.EXPORT_PAGE, request, count, path))

    async def _print(
        self, paint: Paint, request: PageRequest, total: int, *, pictures: bool
    ) -> None:
        sending = QCoreApplication.translate("MainWindow", "Sending the phone list to the printer…")
        self.statusMessage.emit(sending, 0)
        try:
            thumbnail = picture_jpeg if pictures else None
            count = await self._paint(paint, total, pictures=thumbnail, made=Made.PRINT)
        except PhoneListStopped as stopped:
            log.info("printing was cancelled; the job withdrawn: %s", stopped.withdrawn)
            said = _cancelled(JobKind.PRINT, withdrawn=stopped.withdrawn)
            self.statusMessage.emit(said, STATUS_TIMEOUT_MS)
            return
        except (OSError, StoreError, sqlite3.Error, JobEnded) as exc:
            log.warning("printing failed: %r", exc)
            self._failed(_not_printed(exc), exc)
            return
        log.info("printed %d cards", count)
        self._finish(JobResult(JobKind.PRINT, request, count, Path()))

    def _failed(self, message: str, exc: BaseException) -> None:
        """Take the job's note away, and say why it failed."""
        self.statusMessage.emit("", 1)
        self.failed.emit(message, repr(exc))

    async def _copy(self, rows: StoredRows) -> None:
        count = len(rows.positions)
        copying = QCoreApplication.translate("MainWindow", "Copying %1 rows…")
        self.statusMessage.emit(copying.replace("%1", QLocale().toString(count)), 0)
        copied: list[str] = []

        def copy(*, stop: threading.Event, painted: Painted) -> int:
            # In a process: the window's thread would wait for this one at every paint.
            copied.append(run_in_process(rows.text, stop=stop, painted=painted))
            return count

        try:
            await self.painting.run(copy, count, Made.COPY)
        except Stopped:
            log.info("copying %d rows was cancelled", count)
            self.statusMessage.emit(_cancelled(JobKind.COPY), STATUS_TIMEOUT_MS)
            return
        except (CopyOutdated, StoreError, sqlite3.Error, JobEnded) as exc:
            log.warning("copying %d rows of %s failed: %r", count, rows.store_path, exc)
            ended = QCoreApplication.translate(
                "MainWindow", "Copying stopped unexpectedly; try again."
            )
            message = QCoreApplication.translate("MainWindow", "The rows could not be copied. %1")
            self._failed(message.replace("%1", _reading_failure_text(exc, ended)), exc)
            return
        QGuiApplication.clipboard().setText(copied[0])
        log.info("copied %d rows", count)
        self.statusMessage.emit(rows_copied(count), STATUS_TIMEOUT_MS)

    async def _fetch_whole_space(self, kind: JobKind, shown: PageRequest, path: Path) -> None:
        if kind is JobKind.EXPORT_ALL and (refused := await _unwritable(path)):
            self.failed.emit(_not_written(kind, shown.space_id, path, refused), repr(refused))
            return
        progress = self._open(kind, shown, path)
        result: JobResult | None = None
        first_copy = False
        try:
            if kind is JobKind.SYNC:
                self._tasks.cancel(_tidying(path))  # this sync's own tidies all
                synced = await _sync(progress, path, partial(self._tidy_later, path))
                first_copy = synced is False
                if isinstance(synced, tuple):
                    generation, changes = synced
                    result = JobResult(kind, shown, generation.card_count, path, changes=changes)
            else:
                written = await progress.run()
                if written is not None:
                    result = JobResult(kind, shown, written, path)
        except NotAuthenticated:
            self._stopped = _Stopped(kind, shown, path)
            self.signInNeeded.emit()
            return
        except CardViewerError as error:
            log.warning("%s of %s failed: %s", kind.value, shown.space_id, error.detail or error)
            message = _fetch_failure(kind).replace("%1", shown.space_id)
            reason = error_text(error)
            wait = self._server_wait(error) if self._server_wait is not None else None
            if wait:
                reason = f"{reason} {wait}"
            self.failed.emit(message.replace("%2", reason), error.detail)
            return
        except StoreError as error:
            log.warning("sync of %s into %s failed: %s", shown.space_id, path, error)
            if error.problem in (StoreProblem.DAMAGED, StoreProblem.NEWER_VERSION):
                self.copyRefused.emit(path)
            message = _fetch_failure(kind).replace("%1", shown.space_id)
            self.failed.emit(message.replace("%2", store_error_text(error)), str(error))
            return
        except OSError as exc:
            log.warning("%s to %s failed: %s", kind.value, path, exc)
            self.failed.emit(_not_written(kind, shown.space_id, path, exc), repr(exc))
            return
        finally:
            self._forget(progress)
        if result is None:
            self.statusMessage.emit(_cancelled(kind, first_copy=first_copy), STATUS_TIMEOUT_MS)
            return
        self._finish(replace(result, skipped=progress.skipped))  # what the pages left out

    def _open(self, kind: JobKind, shown: PageRequest, path: Path) -> WholeSpaceProgress:
        source = self._source
        assert source is not None, "a whole-space job needs a source of pages"

        async def fetch(number: int) -> CardPage:
            asked = PageRequest(shown.space_id, number, shown.with_emails, whole_space=True)
            return await source(asked)

        options: dict[str, Any] = {"syncing": True} if kind is JobKind.SYNC else {}
        self.progress = self._open_progress(
            fetch,
            path,
            space_id=shown.space_id,
            with_emails=shown.with_emails,
            concurrency=self._settings.export_concurrency,
            delimiter=export_csv_delimiter(self._settings),
            **options,
        )
        return self.progress

    def _forget(self, progress: WholeSpaceProgress) -> None:
        self.progress = None
        if not isinstance(progress, QObject) or shiboken6.isValid(progress):
            progress.deleteLater()

    def _tidy_later(self, path: Path, tidying: Coroutine[Any, Any, None]) -> None:
        """Drop the copy a sync no longer needs while its new copy is shown (seconds at
        100,000 cards); a new sync of that copy, or a sign-out, calls it off."""
        if self._tasks.closed:  # the window closes: its writing process ends with it
            tidying.close()
            return
        self._tasks.start(tidying, name=_tidying(path))

    def _finish(self, result: JobResult) -> None:
        if result.kind not in (JobKind.SYNC, JobKind.PRINT):  # no folder the person chose
            self.remember_folder(result.path)
        self.finished.emit(result)


async def _sync(
    progress: WholeSpaceProgress, path: Path, tidy_later: TidyLater
) -> tuple[Generation, Changes | None] | bool:
    """Sync the local copy at `path` through `progress`: the new copy and what changed;
    cancelled, whether there was a copy before (else none was made). What the new
    copy makes unused is dropped by `tidy_later`. A first sync that does not finish
    leaves no empty copy behind, and its `StoreError` says that none was made."""
    first = not await asyncio.to_thread(path.exists)
    had_copy: bool | None = False if first else None  # not known until it is read
    synced = False
    try:
        store = await undone_if_called_off(CardStore.open, path, undo=partial(_let_go_of, first))
        try:
            had_copy = await asyncio.to_thread(lambda: store.current is not None)
            syncing = progress.sync(store, tidy_later=tidy_later)
            generation = await _kept_if_overtaken(syncing, store, progress.with_emails)
            if generation is None:
                return had_copy
            synced = True
            # Compared off the window's thread: two copies of 100,000 cards take a while.
            return generation, await asyncio.to_thread(changes_of, store)
        finally:
            if had_copy is False and not synced:  # a first, or after one killed
                await on_thread_to_the_end(close_discarding_if_empty, store)
            else:  # the last connection to close writes the sync's log into the file: 0.3 s
                await on_thread_to_the_end(store.close)
    except StoreError as error:
        if had_copy is False and not synced:
            raise no_copy_made(error) from error
        raise


async def _kept_if_overtaken(
    syncing: Coroutine[Any, Any, Generation | None], store: CardStore, with_emails: bool
) -> Generation | None:
    """What `syncing` makes current; where another program's sync, begun later, made its
    copy current first (a scheduled `cardviewer sync`), that copy: as new as this one's
    would have been, and shown as this sync's, not as a failure. Not where it holds the
    e-mail addresses and this sync did not ask for them, or the other way round."""
    try:
        return await syncing
    except StoreError as error:
        if error.problem is not StoreProblem.OVERTAKEN:
            raise
        kept = await asyncio.to_thread(lambda: store.current)
        if kept is None or kept.with_emails != with_emails:
            raise
        log.info("another program synced %s meanwhile; its copy is shown", store.path)
        return kept


def _let_go_of(first: bool, store: CardStore) -> None:
    """Close a store a sync called off opened meanwhile; made by it, an empty one goes."""
    if first:
        close_discarding_if_empty(store)
    store.close()


_TIDYING = "tidy "


TIDYING_AT_CLOSE = 60
"""Seconds a closed window's process waits for the drop of copies no longer needed:
10 to 25 s for a copy of 100,000 cards, more where earlier ones were left."""


async def _tidied(tasks: TaskSet, until: asyncio.Event | None) -> None:
    """Let the drops of copies that syncs no longer need end, for up to
    `TIDYING_AT_CLOSE` seconds or until `until` is set (a quit): called off, a drop is
    undone, and a window closed right after each sync left a whole copy more in the
    file every time (230 MB at 100,000 cards). None: no waiting (signed out)."""
    tidying = [name for name in tasks.running_names() if name.startswith(_TIDYING)]
    if until is None or not tidying:
        return
    log.info("dropping the copies no longer needed before closing: %s", tidying)
    left = await tasks.wait(tidying, TIDYING_AT_CLOSE, unless=until)
    if left:
        log.warning(
            "no longer waiting for the drop (a quit, or %d s passed): %s; what it has not "
            "made lasting is left to the next sync's",
            TIDYING_AT_CLOSE,
            left,
        )


def _tidying(path: Path) -> str:
    """The task's name of the tidying of the local copy at `path`."""
    return f"{_TIDYING}{path}"


def _is_sync(name: str) -> bool:
    """The task of this name writes to a local copy: a sync, or a finished one's tidying."""
    return name == JobKind.SYNC.value or name.startswith(_TIDYING)


async def _without_syncs(tasks: TaskSet, then: Callable[[], None]) -> None:
    """Call off the tasks writing to a local copy until none is left (a sync called off
    as it made its copy current hands on its tidying as it ends), then `then()`."""
    while syncs := [name for name in tasks.running_names() if _is_sync(name)]:
        await tasks.cancel_and_wait(syncs)
    then()


def documents_dir() -> Path:
    """The person's documents folder (else home), where the first export is suggested.

    Qt names one even where there is none (`~/Documents` on a desktop without it).
    """
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    folder = Path(location) if location else Path.home()
    return folder if folder.is_dir() else Path.home()


def photo_source_like(avatars: AvatarLoader, thumbnail: Thumbnail) -> PhotoSource:
    """Photos for vCards, or pictures for the phone list, made by `thumbnail` from where
    the table's avatars may come, and its disk cache."""
    return PhotoSource(
        thumbnail,
        disk_cache=avatars.disk_cache,
        allow_private_hosts=avatars.allow_private_hosts,
    )


def _vcard_file(path: Path) -> Path:
    """A file name without a suffix is saved as `.vcf`."""
    return path if path.suffix else path.with_suffix(VCARD_SUFFIX)


def _with_suffix(path: Path) -> Path:
    """A file name without a suffix is saved as CSV."""
    return path if path.suffix else path.with_suffix(ExportFormat.CSV.value)


def _stopped_note(kind: JobKind) -> str:
    """What a whole-space job the end of the session stopped left, and when it goes on.
    A sync's words hold for a first one too: it left no copy to speak of."""
    if kind is JobKind.SYNC:
        return QCoreApplication.translate(
            "MainWindow",
            "The sync stopped and changed nothing; it starts again once you have signed in.",
        )
    return QCoreApplication.translate(
        "MainWindow",
        "The export of all pages stopped and saved nothing; it starts again "
        "once you have signed in.",
    )


def _fetch_failure(kind: JobKind) -> str:
    """The sentence for a failed whole-space fetch: %1 the space, %2 the reason."""
    if kind is JobKind.SYNC:
        return QCoreApplication.translate("MainWindow", "%1 could not be synced. %2")
    return QCoreApplication.translate(
        "MainWindow", "The cards of %1 could not be exported. %2 Nothing was saved."
    )


async def _unwritable(path: Path) -> OSError | None:
    """Why an export's file cannot be written (`unwritable`), asked before its first
    page rather than after its last (minutes at 100,000 cards), and logged."""
    refused = await asyncio.to_thread(unwritable, path)
    if refused is not None:
        log.warning("%s cannot be written: %s", path, refused)
    return refused


def _not_written(kind: JobKind, space_id: str, path: Path, exc: OSError) -> str:
    """The sentence for a whole-space job's file that could not be written: an export's,
    or the folder of a sync's local copy (a file of that name in the way, say)."""
    if kind is JobKind.SYNC:
        folder = QCoreApplication.translate(
            "MainWindow", "The folder of its local copy, %1, could not be made. %2"
        )
        reason = folder.replace("%1", str(path.parent)).replace("%2", failure_reason_text(exc))
        return _fetch_failure(kind).replace("%1", space_id).replace("%2", reason)
    message = QCoreApplication.translate("MainWindow", "The cards could not be saved as %1. %2")
    return message.replace("%1", str(path)).replace("%2", write_failure_text(exc))


def _cancelled(kind: JobKind, *, withdrawn: bool = True, first_copy: bool = False) -> str:
    """What a cancelled job left; a print not `withdrawn` still prints what was made, a
    sync of a space never synced (`first_copy`) left no copy."""
    if kind is JobKind.SYNC and first_copy:
        return QCoreApplication.translate("MainWindow", "Sync cancelled; no local copy was made.")
    if kind is JobKind.SYNC:
        return QCoreApplication.translate(
            "MainWindow", "Sync cancelled; the local copy stays as it was."
        )
    if kind is JobKind.PRINT and withdrawn:
        return QCoreApplication.translate("MainWindow", "Printing cancelled; nothing was printed.")
    if kind is JobKind.PRINT:
        return QCoreApplication.translate(
            "MainWindow", "Printing stopped; the pages already made still get printed."
        )
    if kind is JobKind.COPY:
        return QCoreApplication.translate(
            "MainWindow", "Copying cancelled; the clipboard stays as it was."
        )
    return QCoreApplication.translate("MainWindow", "Export cancelled; nothing was saved.")


def _written_in_a_process(
    write: PaintFile,
    path: Path,
    *,
    stop: threading.Event,
    painted: Painted,
    photos: PhotoLookup | None = None,
) -> int:
    """`write(path, …)` run in a process of its own (`run_in_process`); its `photos`,
    if any, are asked for here."""
    served = {"photos": photos} if photos is not None else None
    return run_in_process(partial(write, path), stop=stop, painted=painted, served=served)


def _not_saved(path: Path, exc: Exception, *, page: bool = False) -> str:
    """Why the cards, or the page (`page`), could not be saved as `path`: the file could
    not be written (`OSError`), or the cards of a local copy could not be read."""
    if isinstance(exc, OSError):
        reason = write_failure_text(exc)
    else:
        ended = QCoreApplication.translate("MainWindow", "Saving stopped unexpectedly; try again.")
        reason = _reading_failure_text(exc, ended)
    message = (
        QCoreApplication.translate("MainWindow", "The page could not be saved as %1. %2")
        if page and isinstance(exc, OSError)
        else QCoreApplication.translate("MainWindow", "The cards could not be saved as %1. %2")
    )
    return message.replace("%1", str(path)).replace("%2", reason)


def _not_printed(exc: Exception) -> str:
    """Why the cards could not be printed: the printer, or the cards of a local copy."""
    if isinstance(exc, PagesRefused):
        reason = QCoreApplication.translate(
            "MainWindow", "The printer did not take the pages; check that it is ready."
        )
    elif isinstance(exc, OSError):
        reason = write_failure_text(exc)
    else:
        ended = QCoreApplication.translate(
            "MainWindow", "Printing stopped unexpectedly; try again."
        )
        reason = _reading_failure_text(exc, ended)
    message = QCoreApplication.translate("MainWindow", "The cards could not be printed. %1")
    return message.replace("%1", reason)


def _reading_failure_text(exc: Exception, ended: str) -> str:
    """Why cards of a local copy could not be read, and what to do; `ended`: its
    process ended without an answer (`JobEnded`)."""
    if isinstance(exc, CopyOutdated):
        return QCoreApplication.translate(
            "MainWindow", "The local copy has changed since they were selected; copy them again."
        )
    if isinstance(exc, StoreError) and exc.problem is not StoreProblem.NOT_WRITTEN:
        return store_error_text(exc)
    if isinstance(exc, JobEnded):
        return ended
    return QCoreApplication.translate(
        "MainWindow", "The local copy could not be read; sync the space again to renew it."
    )
