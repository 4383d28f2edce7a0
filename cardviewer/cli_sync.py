"""`cardviewer sync`: a space's local copy brought up to date without a window.

    cardviewer sync --server URL --email E --space ID [--with-emails]
                    [--changes FILE [--delimiter , | ; | tab]]
                    [--concurrency N] [--quiet]

For a scheduled job that keeps the copy the window browses offline fresh, and says what
changed since the last sync ("since the last sync: 3 added, 1 removed, 12 changed"),
for an office keeping a phone list or a CRM in step; `--changes` also writes the cards
changed since its last file to a file (`change_export`). The copy is the window's own: the
same file (one per server, account and space), written the same way (`sync_space`, by
a process of its own, made current only when complete), its texts ranked for the
system's language as the window sorts them. Signing in, the password, the saved
session, the exit codes and what stderr gets are those of `cardviewer export`
(`cardviewer.cli`); a copy that cannot be written ends with `ExitCode.WRITE`, the copy
before it unchanged.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Coroutine, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from cardviewer.api.errors import CardViewerError, NotAuthenticated
from cardviewer.cli import (
    PASSWORD_VARIABLE,
    STANDARD_OUTPUT,
    TABLES,
    ExitCode,
    SignInAgain,
    UsageError,
    add_delimiter_argument,
    can_write,
    command_parser,
    csv_delimiter,
    file_name,
    finish_parser,
    format_named_by,
    job_output,
    left_out,
    logging_to,
    page_fetch,
    progress_line,
    report_failure,
    report_session_ended,
    run_until_interrupted,
    signed_in,
)
from cardviewer.paths import private_folder, store_dir
from cardviewer.services.card_export import ExportFormat
from cardviewer.services.card_store import CardStore, close_discarding_if_empty, store_path
from cardviewer.services.change_export import write_changes_now
from cardviewer.services.file_errors import explain_write_failure
from cardviewer.services.space_fetch import DEFAULT_CONCURRENCY, FetchProgress
from cardviewer.services.space_sync import changes_of, no_copy_made, ranked_under, sync_space
from cardviewer.services.store_copies import Changes
from cardviewer.services.store_schema import StoreError, StoreProblem
from cardviewer.services.sync_lock import SyncLock, changes_job_path
from cardviewer.tasks import standing_once_begun

log = logging.getLogger(__name__)

EXAMPLES = f"""\
examples:
  the copy of a space with its e-mail addresses, brought up to date each night:
    {PASSWORD_VARIABLE}=... cardviewer sync --server https://cards.example.com \\
        --email it@example.com --space enuh1mF01XXXXXX --with-emails
  the copy brought up to date, and the cards it added, removed or changed in a file
  for a CRM's import:
    {PASSWORD_VARIABLE}=... cardviewer sync --server https://cards.example.com \\
        --email it@example.com --space enuh1mF01XXXXXX --changes changes.csv
"""


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "sync",
        "Bring the local copy of a space up to date, the copy the window browses offline, "
        "and say what changed since the last sync.",
        EXAMPLES,
        exit_note=" (6: the local copy, or the --changes file, could not be written, or "
        "another --changes run of this space is running)",
    )
    parser.add_argument("--with-emails", action="store_true", help="include e-mail addresses")
    parser.add_argument(
        "--changes",
        type=file_name,
        metavar="FILE",
        help="also write the cards added, removed or changed since the last such file "
        "of this space's local copy (whatever its name) to FILE, CSV or Excel (.xlsx), "
        "with a first column saying which (removed cards as the copy before had them; "
        "the first file lists every card as added); the file is replaced at each run",
    )
    add_delimiter_argument(parser)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help="pages fetched at once (default %(default)s)",
    )
    return finish_parser(parser)


def main(argv: Sequence[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run the sync; returns the exit code."""
    err = job_output(stderr)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    with logging_to(err, verbose=args.verbose):
        if args.concurrency < 1:
            print("error: --concurrency must be 1 or more", file=err)
            return ExitCode.USAGE
        try:
            args.changes_format = changes_format(args)
        except UsageError as exc:
            print(f"error: {exc}", file=err)
            return ExitCode.USAGE
        try:
            return run_until_interrupted(_sync(args, err))
        except KeyboardInterrupt:
            if not getattr(args, "synced", False):
                had_copy = getattr(args, "had_copy", None)  # None: not signed in yet
                if had_copy is None:
                    print("Interrupted; nothing was synced.", file=err)
                elif had_copy:
                    print("Interrupted; the local copy stays as it was.", file=err)
                else:
                    print("Interrupted; no local copy was made.", file=err)
            elif args.changes is not None:  # the file of changes neither written nor noted
                print(
                    "Interrupted; the local copy is up to date, and the next --changes "
                    "file will hold its changes.",
                    file=err,
                )
            else:
                print("Interrupted; the local copy is up to date.", file=err)
            return ExitCode.INTERRUPTED


async def _sync(args: argparse.Namespace, err: TextIO) -> int:
    started = time.monotonic()
    if args.changes is not None and (refused := await can_write(args.changes)):
        print(f"{args.space} was not synced: {args.changes} cannot be written. {refused}", file=err)
        return ExitCode.WRITE
    account = await signed_in(args, err)
    if isinstance(account, ExitCode):
        if args.changes is not None:  # as after any failure: a job's log says it
            print(f"{args.changes} {CHANGES_NOT_WRITTEN}", file=err)
        return account
    async with account.client as client:
        email = account.email or ""
        path = store_path(store_dir(create=False), client.server_url, email, args.space)
        job: SyncLock | None = None
        if args.changes is not None:
            try:
                await asyncio.to_thread(private_folder, path.parent)
            except OSError as exc:
                return _folder_not_made(args, path, exc, err)
            try:
                job = await asyncio.to_thread(SyncLock.take, changes_job_path(path))
            except OSError as exc:  # the folder is there, the lock file cannot be made
                return _job_lock_not_made(args, changes_job_path(path), exc, err)
            if job is None:
                print(f"{args.space} was not synced: {CHANGES_JOB_RUNNING}", file=err)
                return ExitCode.WRITE
        try:
            return await _synced_and_said(path, args, err, account, started)
        finally:
            if job is not None:
                job.release()


async def _synced_and_said(
    path: Path, args: argparse.Namespace, err: TextIO, account: SignInAgain, started: float
) -> int:
    """`_synced`, its summary or failure said, and the file of changes written."""
    args.had_copy = await asyncio.to_thread(path.exists)  # `_synced` knows better
    try:
        count, changes = await _synced(path, args, err, account)
    except OSError as exc:  # its folder cannot be made: a file of that name, say
        return _folder_not_made(args, path, exc, err)
    except CardViewerError as exc:
        if isinstance(exc, NotAuthenticated):
            code = report_session_ended(exc, err, account, "sync")
        else:
            code = report_failure(exc, err)
        print(_nothing_changed(args.had_copy, args), file=err)
        return code
    except StoreError as exc:
        if exc.problem is StoreProblem.OVERTAKEN and await asyncio.to_thread(
            _kept_as_asked, path, args.with_emails
        ):  # as fresh a copy, and of the same cards' details: the job is done
            args.synced = True  # an interruption from now on leaves it synced
            if not args.quiet:
                print(f"{args.space}: {OVERTAKEN_NOTE}", file=err)
            return await _changes_written(args, path, err) if args.changes else ExitCode.OK
        said = exc if args.had_copy or args.synced else no_copy_made(exc)
        print(f"{args.space} could not be synced. {said}", file=err)
        if args.changes is not None:  # a job's log tells what the next file holds
            print(f"{args.changes} {CHANGES_NOT_WRITTEN}", file=err)
        return ExitCode.WRITE
    if not args.quiet:
        print(summary(count, args.space, changes, time.monotonic() - started), file=err)
    if getattr(args, "skipped", 0):  # also with --quiet: the copy lacks them
        print(_left_out_of_copy(args.skipped, changes), file=err)
    if args.changes is not None:
        return await _changes_written(args, path, err)
    return ExitCode.OK


def _kept_as_asked(path: Path, with_emails: bool) -> bool:
    """Whether the copy current at `path` holds the e-mail addresses as asked for: a
    copy synced with or without them where the job asked otherwise is not its copy (the
    file would lose a column, or gain addresses a job left out)."""
    try:
        with CardStore.open(path, create=False) as store:
            current = store.current
    except StoreError:
        return False
    return current is not None and current.with_emails == with_emails


def _folder_not_made(args: argparse.Namespace, path: Path, exc: OSError, err: TextIO) -> int:
    """Say that the folder of the copy at `path` could not be made; the exit code."""
    log.info("the folder of the local copy %s could not be made: %r", path, exc)
    print(
        f"{args.space} could not be synced: the folder of its local copy "
        f"({path.parent}) could not be made. {folder_failure(exc)}",
        file=err,
    )
    if args.changes is not None:  # as after any failure: a job's log says it
        print(f"{args.changes} {CHANGES_NOT_WRITTEN}", file=err)
    return ExitCode.WRITE


def _job_lock_not_made(args: argparse.Namespace, lock: Path, exc: OSError, err: TextIO) -> int:
    """Say that the lock a `--changes` run holds (`lock`, beside its copy) could not be
    made, in a folder that is there (read-only, or full); the exit code."""
    log.info("the lock %s of a --changes run could not be made: %r", lock, exc)
    print(
        f"{args.space} was not synced: the file {lock}, which keeps a second "
        f"`cardviewer sync --changes` of this space from running at once, could not be "
        f"made. {explain_write_failure(exc)}",
        file=err,
    )
    print(f"{args.changes} {CHANGES_NOT_WRITTEN}", file=err)
    return ExitCode.WRITE


CHANGES_JOB_RUNNING = (
    "another `cardviewer sync --changes` of this space is running; this one stopped so "
    "as not to take the changes from it. The next run will hold them."
)
"""Said by a run that overlaps another (cron and a run by hand): the second's file,
of what changed since the first's, would replace that before the import read it."""


OVERTAKEN_NOTE = (
    "another program (a window's Sync Space, another job) synced this space meanwhile; "
    "its copy, begun later, is kept and current."
)
"""Said where a sync begun later by another program finished first: its copy is as new
as this one's would have been, and the file of changes is written from it."""

CHANGES_NOT_WRITTEN = "was not written; the next one will hold these changes."
"""Said of the `--changes` file after a sync that failed."""


def _left_out_of_copy(skipped: int, changes: Changes | None) -> str:
    """`left_out`, and what that means for the cards counted as removed."""
    said = left_out(skipped)
    if changes is not None and changes.removed:
        said += " Some of the cards counted as removed may be among them."
    return said


def _nothing_changed(had_copy: bool, args: argparse.Namespace) -> str:
    """What a sync that failed left, said after why: a job's log then tells whether the
    copy and the file of changes it keeps in step are still those of the last run."""
    said = "The local copy stays as it was." if had_copy else "No local copy was made."
    if args.changes is not None:
        said += f" {args.changes} {CHANGES_NOT_WRITTEN}"
    return said


def folder_failure(error: OSError) -> str:
    """Why a folder could not be made, in a sentence."""
    if isinstance(error, FileExistsError | NotADirectoryError):
        return "A file is where a folder should be; move it away."
    return explain_write_failure(error)


def changes_format(args: argparse.Namespace) -> ExportFormat | None:
    """The format of the `--changes` file: CSV, or Excel for `.xlsx`; None without one.

    Raises `UsageError` for a name another format's suffix ends, and for `--delimiter`
    without a CSV file to separate.
    """
    path: Path | None = args.changes
    if path is None:
        if args.delimiter is not None:
            raise UsageError("--delimiter is for the --changes file")
        return None
    if str(path) == STANDARD_OUTPUT:  # which the export takes: here it named a file "-"
        raise UsageError("--changes writes a file; give its name, not -")
    if format_named_by(path) not in (None, *TABLES):
        raise UsageError(f"--changes writes a CSV or Excel (.xlsx) file, not {path.name}")
    export_format = ExportFormat.of(path)
    if export_format is ExportFormat.XLSX and args.delimiter is not None:
        raise UsageError("--delimiter is for CSV files; an Excel workbook has none")
    return export_format


async def _changes_written(args: argparse.Namespace, copy: Path, err: TextIO) -> int:
    """Write what changed since the last `--changes` file to the next; the exit code."""
    stop = threading.Event()  # Ctrl+C: the file neither finished nor remembered
    write = partial(
        write_changes_now,
        args.changes,
        copy,
        export_format=args.changes_format,
        delimiter=csv_delimiter(args),
        stop=stop,
    )
    replaced = await asyncio.to_thread(args.changes.exists)
    try:
        # Where the file was noted before Ctrl+C was looked at, it is whole, and its
        # changes are the next file's no more: that is said, not the interruption.
        written = await standing_once_begun(write, on_cancel=stop.set)
    except OSError as exc:
        log.debug("writing %s failed: %r", args.changes, exc)
        print(
            f"The local copy is up to date, but {args.changes} could not be written: "
            f"{explain_write_failure(exc)} The next file will hold these changes.",
            file=err,
        )
        return ExitCode.WRITE
    except StoreError as exc:
        if exc.problem is StoreProblem.DAMAGED:  # found as the changes were read
            print(
                f"{args.changes} could not be written. {exc} Its file will list every "
                "card as added.",
                file=err,
            )
        elif exc.problem is StoreProblem.GONE:  # removed meanwhile (Remove Local Copies)
            print(f"{args.changes} was not written. {exc}", file=err)
        else:
            print(f"The local copy is up to date. {exc}", file=err)
        return ExitCode.WRITE
    if written.copy_lost:  # said even with --quiet: the file is not what the job expects
        log.info("the copy the last file of changes was written from is gone")
        print(
            f"{args.changes} lists every card as added: the copy the last file of "
            "changes was written from is gone (an older CardViewer removed it, or it "
            "was damaged and set aside), so the cards removed since cannot be told.",
            file=err,
        )
    elif written.first and replaced:  # a file was written before, from a copy now gone
        log.info("the first file of changes of this copy replaced an earlier one")
        print(
            f"{args.changes} lists every card as added: this local copy has no note of "
            "the file it replaces (the copy that was written from is gone: Sign Out or "
            "Remove Local Copies, say), so the cards removed since cannot be told.",
            file=err,
        )
    if not written.marked:
        log.info("the copy written from was replaced meanwhile; the next file repeats it")
    if not args.quiet:
        cards = "1 card" if written.cards == 1 else f"{written.cards:,} cards"
        # Of the last file, not of the last sync: a window may have synced between.
        since = "every card, the first file" if written.first else "the changes since the last file"
        print(f"Wrote {cards} to {args.changes}, {since}.", file=err)
    return ExitCode.OK


async def _synced(
    path: Path, args: argparse.Namespace, err: TextIO, account: SignInAgain
) -> tuple[int, Changes | None]:
    """Every page into the copy at `path`: the number of cards, and what changed.

    Texts are ranked as the copy before was (the window's language), else for the
    system's, as the window sorts them: Qt's collation, loaded here only. From the
    moment the new copy is current, `args.synced` says so: an interruption then leaves
    it synced, and a first sync's store is kept.
    """
    from cardviewer.services.text_collation import system_collation

    show = err.isatty() and not args.quiet

    def progress(done: FetchProgress) -> None:
        args.skipped = done.skipped  # said after the summary
        if show:
            print(f"\r{progress_line(done)}\033[K", end="", file=err, flush=True)

    def finishing() -> None:  # ranking and indexing: seconds for a large space
        if show:
            print("\rFinishing the local copy…\033[K", end="", file=err, flush=True)

    first, store = await asyncio.to_thread(_opened, path)
    # A store with no current copy (a first sync killed) has none to keep either.
    args.had_copy = not first and await asyncio.to_thread(_has_copy, store)
    args.synced = False
    tidying: list[Coroutine[Any, Any, None]] = []
    try:
        # As the copy before was ranked: by the window, in its reader's language, which
        # a job's (cron has no LANG) would have it rank every text anew at its next sort.
        collation = await asyncio.to_thread(ranked_under, store) or system_collation()
        generation = await sync_space(
            store,
            page_fetch(
                account.client, args.space, args.with_emails, account, err, whole_space=True
            ),
            concurrency=args.concurrency,
            on_progress=progress,
            with_emails=args.with_emails,
            collation=collation,
            on_finishing=finishing,
            tidy_later=tidying.append,
        )
        args.synced = True  # what an interruption from now on leaves: the copy synced
        for work in tidying:  # the copy no longer needed, dropped: seconds at 100,000 cards
            await work
        if show:
            print(file=err)
        return generation.card_count, await asyncio.to_thread(changes_of, store)
    except BaseException:
        if show:
            print(file=err)
        if not args.had_copy and not args.synced:  # none of a space mistyped or refused
            close_discarding_if_empty(store)
        raise
    finally:
        store.close()


def _opened(path: Path) -> tuple[bool, CardStore]:
    """The copy at `path`, and whether it was made just now (none was there)."""
    first = not path.exists()
    return first, CardStore.open(path)


def _has_copy(store: CardStore) -> bool:
    """Whether `store` holds a copy that a failed sync leaves as it was."""
    try:
        return store.current is not None
    except sqlite3.Error as error:  # the sync says what is wrong with it
        log.debug("whether %s holds a copy is not known: %s", store.path, error)
        return True


def summary(count: int, space: str, changes: Changes | None, seconds: float) -> str:
    """ "Synced 237 cards of space … in 0.6 s; since the last sync: 1 added, …"."""
    cards = "1 card" if count == 1 else f"{count:,} cards"
    done = f"Synced {cards} of space {space} in {seconds:.1f} s"
    if changes is None:
        return f"{done}; the first sync of this copy."
    if not changes.any:
        said = f"{done}; nothing changed since the last sync."
    else:
        parts = (
            f"{len(changes.added):,} added",
            f"{len(changes.removed):,} removed",
            f"{len(changes.changed):,} changed",
        )
        said = f"{done}; since the last sync: {', '.join(parts)}."
    # The addresses count as a change only where both copies hold them: said apart.
    if changes.emails_dropped:
        said += (
            " The cards' e-mail addresses are no longer in the copy: give --with-emails to"
            " keep them."
        )
    elif changes.emails_added:
        said += (
            " The cards' e-mail addresses are in the copy now; no card counts as changed for them."
        )
    return said
