"""`cardviewer export`: the export without a window, for scheduled jobs and scripts.

    cardviewer export --server URL --email E --space ID [--all] [--with-emails]
                      [--page N] [--format csv|xlsx|jsonl|vcf|pdf] [--vcard-version 3.0|4.0]
                      [--photos] [--qr-codes] [--pictures]
                      [--delimiter , | ; | tab]
                      [--quiet] -o FILE|-

The password comes from the `CARDVIEWER_PASSWORD` environment variable; without it,
the session the app saved ("Keep me signed in") is used while it lasts, where it is for
the same server and account, else the password is asked for when a person is at the
terminal (with no terminal, that is exit 3). With a password at hand,
a session the server ends during the export (401) costs one more sign-in, and the
export goes on at the page that failed (`SignInAgain`). The exit code says what
happened, so that a script can act on it (see `ExitCode`). Progress goes to stderr
when stderr is a terminal, and a line saying what was exported when it is done (neither
with `--quiet`; errors are always said); the password and token are never printed, not even with
`-v`: stderr gets the window's redaction (`log_setup.RedactingFilter`), which also
looks for the exact password and token, because a scheduled job keeps its stderr.
A server address with a user name or password in it is refused without repeating it.
The file is written at the name given, never another: a name whose suffix says the
other format than `--format` is refused. CSV cells are separated as the window
separates them (the Preferences' choice, else the locale's rule) unless `--delimiter`
says otherwise. `--format jsonl` writes one card a line as the server sent it, `--format
vcf` vCards for Outlook and phones (3.0, or `--vcard-version 4.0`; `--photos` embeds
each card's picture), `--format pdf` a phone list to print (`--qr-codes` and
`--pictures` add each card's QR code and picture). Only the phone list and `--photos`
load Qt (its text layout; its image reading); `-o -` writes to standard output, once
the export is complete.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import enum
import getpass
import io
import logging
import math
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, TextIO, TypeVar, cast
from urllib.parse import urlsplit

from cardviewer import APP_NAME, __version__
from cardviewer.api import CardsClient
from cardviewer.api.address import normalize_server_url, same_email, same_server
from cardviewer.api.errors import (
    CardViewerError,
    InvalidCredentials,
    InvalidInput,
    MalformedRequest,
    NetworkError,
    NotAuthenticated,
    Sentence,
)
from cardviewer.api.models import CardPage
from cardviewer.api.retry import WAITS_LEFT_TO_CALLER, WaitUnit, wait_to_tell
from cardviewer.log_setup import RedactingFilter, redact, remember_secret
from cardviewer.paths import cache_dir
from cardviewer.services.atomic_file import unwritable
from cardviewer.services.avatar_address import is_private_server
from cardviewer.services.avatar_disk_cache import FOLDER as AVATAR_FOLDER
from cardviewer.services.avatar_disk_cache import AvatarDiskCache
from cardviewer.services.card_export import ExportFormat, write_cards
from cardviewer.services.csv_delimiter import (
    COMMA,
    SEMICOLON,
    TAB,
    delimiter_for_decimal_point,
    system_decimal_point,
)
from cardviewer.services.file_errors import explain_write_failure
from cardviewer.services.jsonl_export import page_lines
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import load_site_config
from cardviewer.services.space_export import export_space
from cardviewer.services.space_fetch import DEFAULT_CONCURRENCY, FetchProgress
from cardviewer.services.streamed_export import (
    AsyncPageEncoder,
    PageEncoder,
    export_space_stream,
    write_stream,
)
from cardviewer.services.vcard_export import VCardVersion, page_vcards
from cardviewer.services.vcard_photos import (
    PhotoSource,
    blocking_lookup,
    page_vcards_with_photos,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

PASSWORD_VARIABLE = "CARDVIEWER_PASSWORD"
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
JSON_LINES = "jsonl"
VCARD = "vcf"
PDF = "pdf"
FORMATS = ("csv", "xlsx", JSON_LINES, VCARD, PDF)
FORMAT_NAMES = {
    "csv": "a CSV file",
    "xlsx": "an Excel workbook",
    JSON_LINES: "a JSON lines file",
    VCARD: "a vCard file",
    PDF: "a PDF phone list",
}
BINARY_FORMATS = ("xlsx", PDF)
"""Formats that are no text for a terminal."""
TABLES = {"csv": ExportFormat.CSV, "xlsx": ExportFormat.XLSX}
"""The formats written as a table of columns (`card_export`); the others card by card."""
VCARD_VERSIONS = {version.value: version for version in VCardVersion}
STANDARD_OUTPUT = "-"
DELIMITERS = {",": COMMA, ";": SEMICOLON, "tab": TAB}
"""`--delimiter`'s choices; a tab is named, since a shell makes it hard to type."""
REFUSED = "The e-mail address or password is not correct."
"""What a refused sign-in says, as the sign-in window says it."""

WAIT_SENTENCES = {
    WaitUnit.SECONDS: "You can try again in {count} seconds.",
    WaitUnit.MINUTES: "You can try again in about {count} minutes.",
}
"""The window's words for the wait the server asked for, in English."""


class ExitCode(enum.IntEnum):
    """What `cardviewer export` ends with."""

    OK = 0
    FAILED = 1
    """Anything not listed below; the message says what."""
    USAGE = 2
    """Wrong or missing arguments."""
    SIGN_IN = 3
    """Wrong e-mail or password, the saved session has ended, or there is none and
    nothing else to sign in with."""
    NETWORK = 4
    """The server could not be reached or did not answer in time."""
    SERVER = 5
    """The server answered with an error or with something unreadable."""
    WRITE = 6
    """The file could not be written; an earlier file of that name is unchanged."""
    INTERRUPTED = 130


_EXIT_CODES: tuple[tuple[tuple[type[CardViewerError], ...], ExitCode], ...] = (
    # A login the server could not read is a sign-in that failed, not a server to wait for.
    ((InvalidCredentials, NotAuthenticated, MalformedRequest), ExitCode.SIGN_IN),
    ((NetworkError,), ExitCode.NETWORK),
    ((InvalidInput,), ExitCode.USAGE),
)
"""The exit code of the client's errors, first match; any other is `ExitCode.SERVER`."""


class JobOutput(io.TextIOBase):
    """Standard error as a scheduled job has it: where it cannot be written (a full disk
    under the job's log, a pipe closed), the job goes on without it. A line that cannot
    be said is no reason to leave the copy or the file unwritten: it ended with 1."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream: TextIO | None = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (OSError, ValueError):  # ValueError: the stream was closed
                self._stream = None
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._stream = None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()


def job_output(stream: TextIO | None) -> TextIO:
    """`stream` (else the process's standard error) as `JobOutput`."""
    return cast(TextIO, JobOutput(stream or sys.stderr))


class UsageError(Exception):
    """Arguments that cannot work together; the text says why."""


class SessionEnded(Exception):
    """The saved session has ended and there is no password to sign in again with."""


SESSION_UNREADABLE = "the saved session could not be read (the line above says why); sign in again"


EXAMPLES = f"""\
examples:
  every card of a space, for Excel (the password from the environment):
    {PASSWORD_VARIABLE}=... cardviewer export --server https://cards.example.com \\
        --email it@example.com --space enuh1mF01XXXXXX --all --with-emails -o cards.xlsx
  the first page, one card a JSON line, to another program:
    cardviewer export --space enuh1mF01XXXXXX --format jsonl -o - | jq .display_name
  a phone list of the whole space, to print, with each card's picture:
    cardviewer export --space enuh1mF01XXXXXX --all --with-emails --pictures -o phones.pdf
"""


def command_parser(
    command: str, description: str, examples: str, *, exit_note: str = ""
) -> argparse.ArgumentParser:
    """The parser of `cardviewer <command>` with the account's options, `--space`, and
    what every command has (`--quiet`, `-v`, `--version`: `finish_parser`)."""
    exit_codes = ", ".join(
        f"{code.value} {code.name.lower().replace('_', ' ')}" for code in ExitCode
    )
    parser = argparse.ArgumentParser(
        prog=f"cardviewer {command}",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"{examples}\n{PASSWORD_SOURCES}\nExit codes: {exit_codes}{exit_note}.",
    )
    parser.add_argument(
        "--server", help="server address (default: the saved session's, else the site file's)"
    )
    parser.add_argument("--email", help="e-mail address to sign in with")
    parser.add_argument("--space", required=True, help=f"id of the space to {command}")
    return parser


def finish_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`--quiet`, `-v` and `--version`, last in every command's help."""
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress and no summary on stderr (errors are still said)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging details")
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "export",
        "Export the cards of a space to a CSV, Excel, JSON lines or vCard file, or a phone "
        "list (PDF), without a window.",
        EXAMPLES,
    )
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--all", action="store_true", help="export every page of the space")
    scope.add_argument("--page", type=int, default=1, help="export this page (default 1)")
    parser.add_argument("--with-emails", action="store_true", help="include e-mail addresses")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="file type (default: from the file name: .xlsx is Excel, .jsonl JSON lines, "
        ".vcf vCards, .pdf a phone list, anything else CSV); jsonl writes one card a line "
        "as the server sent it; vcf writes a vCard per card for Outlook and phones; pdf "
        "a phone list to print (name, position, e-mails); the "
        "file is always written at the name given, so a name ending in another type's "
        "suffix is refused",
    )
    parser.add_argument(
        "--vcard-version",
        choices=list(VCARD_VERSIONS),
        help="vCard version with --format vcf: 3.0 (default; Outlook and phones import it) or 4.0",
    )
    parser.add_argument(
        "--photos",
        action="store_true",
        help="with --format vcf: each card's picture in its vCard, as a small photo (from "
        "the app's avatar cache, else from the card's image host; a picture that cannot "
        "be had is left out)",
    )
    parser.add_argument(
        "--qr-codes",
        action="store_true",
        help="with --format pdf: each card's QR code (its contact) beside it",
    )
    parser.add_argument(
        "--pictures",
        action="store_true",
        help="with --format pdf: each card's picture at the start of its row (from the "
        "app's avatar cache, else from the card's image host; a card whose picture "
        "cannot be had shows its initials)",
    )
    add_delimiter_argument(parser)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help="pages fetched at once with --all (default %(default)s)",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        type=file_name,
        help="file to write; - writes to standard output once the export is complete",
    )
    return finish_parser(parser)


def file_name(text: str) -> Path:
    """The file an option names; a name ending in a folder's separator is refused.

    `Path("exports/")` is `exports`: the file was written under the folder's name,
    extensionless, where the person meant a folder that was not there.
    """
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text} names a folder, not a file: add a file name")
    return Path(text)


@dataclass(frozen=True)
class Output:
    """The file to write, exactly as named (or standard output), and how."""

    path: Path
    file_format: str
    """One of `FORMATS`."""
    delimiter: str
    """Separates CSV cells; unused otherwise."""
    vcard_version: VCardVersion = VCardVersion.V3
    photos: bool = False
    """vCards carry each card's picture (`--photos`)."""
    pictures: bool = False
    """The phone list shows each card's picture (`--pictures`)."""

    @property
    def to_standard_output(self) -> bool:
        return str(self.path) == STANDARD_OUTPUT

    @property
    def table(self) -> ExportFormat | None:
        """The table format of a CSV or Excel file; None for the formats written card by card."""
        return TABLES.get(self.file_format)

    def encoder(self, photos: PhotoSource | None = None) -> PageEncoder | AsyncPageEncoder | None:
        """How a page's cards are written, for the formats written card by card; vCards
        with the pictures `photos` finds."""
        if self.file_format == JSON_LINES:
            return page_lines
        if self.file_format == VCARD and photos is not None:
            return page_vcards_with_photos(self.vcard_version, photos)
        if self.file_format == VCARD:
            return page_vcards(self.vcard_version)
        return None

    def described(self) -> str:
        return "standard output" if self.to_standard_output else str(self.path)


def output(args: argparse.Namespace, *, standard_output: BinaryIO | None = None) -> Output:
    """The file `-o` names, in the format and with the separator asked for.

    Raises `UsageError` when the name's suffix names another format than `--format`
    (writing another name, or a workbook called `.csv`, would surprise), for
    `--delimiter` with anything but CSV, and for a workbook to a terminal.
    """
    path: Path = args.output
    named = None if str(path) == STANDARD_OUTPUT else format_named_by(path)
    file_format = args.format or named or "csv"
    if named is not None and named != file_format:
        raise UsageError(
            f"{path.name} is the name of {FORMAT_NAMES[named]}, but --format {args.format} "
            f"asks for {FORMAT_NAMES[file_format]}: give a name ending in "
            f".{file_format}, or leave out --format"
        )
    if file_format != "csv" and args.delimiter is not None:
        raise UsageError(f"--delimiter is for CSV files; {FORMAT_NAMES[file_format]} has none")
    if file_format != VCARD and args.vcard_version is not None:
        raise UsageError("--vcard-version is for vCard files (--format vcf)")
    if file_format != VCARD and args.photos:
        raise UsageError("--photos is for vCard files (--format vcf)")
    if file_format != PDF and args.qr_codes:
        raise UsageError("--qr-codes is for the phone list (--format pdf)")
    if file_format != PDF and args.pictures:
        raise UsageError("--pictures is for the phone list (--format pdf)")
    target = Output(
        path,
        file_format,
        csv_delimiter(args) if file_format == "csv" else ",",
        VCARD_VERSIONS[args.vcard_version or VCardVersion.V3.value],
        photos=args.photos,
        pictures=args.pictures,
    )
    stream = standard_output if standard_output is not None else sys.stdout.buffer
    if target.to_standard_output and file_format in BINARY_FORMATS and stream.isatty():
        raise UsageError(
            f"{FORMAT_NAMES[file_format]} is no text for the terminal: redirect standard "
            "output to a file, or give a file name with -o"
        )
    return target


def format_named_by(path: Path) -> str | None:
    """The format the suffix of `path` names; None for a suffix that names none."""
    if path.suffix.lower() in (f".{JSON_LINES}", f".{VCARD}", f".{PDF}"):
        return path.suffix.lower()[1:]
    named = ExportFormat.named_by(path)
    return None if named is None else next(k for k, v in TABLES.items() if v is named)


def add_delimiter_argument(parser: argparse.ArgumentParser) -> None:
    """`--delimiter`, read by `csv_delimiter`."""
    parser.add_argument(
        "--delimiter",
        choices=list(DELIMITERS),
        metavar="{',' | ';' | tab}",
        help="separator of CSV cells: ',', ';' or 'tab' (default: the one chosen in the "
        "app's Preferences, else ';' where the system's locale writes decimals with a "
        "comma, as Excel expects there, else ',')",
    )


def csv_delimiter(args: argparse.Namespace) -> str:
    """`--delimiter`, else the window's: the Preferences' choice, else the locale's rule."""
    if args.delimiter is not None:
        return DELIMITERS[args.delimiter]
    chosen = Settings.load().csv_delimiter
    return chosen or delimiter_for_decimal_point(system_decimal_point())


def main(
    argv: Sequence[str] | None = None,
    *,
    stderr: TextIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Run the export; returns the exit code. `-o -` writes to `stdout` (the process's)."""
    err = job_output(stderr)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    with logging_to(err, verbose=args.verbose):
        if args.page < 1 or args.concurrency < 1:
            print("error: --page and --concurrency must be 1 or more", file=err)
            return ExitCode.USAGE
        before = _file_state(args.output)
        try:
            return run_until_interrupted(_export(args, err, stdout or sys.stdout.buffer))
        except KeyboardInterrupt:
            # A file being written is finished (or not) before the program can end.
            if _file_state(args.output) != before:
                print(f"Interrupted, but only once {args.output} was written whole.", file=err)
            else:
                print("Interrupted; nothing was written.", file=err)
            return ExitCode.INTERRUPTED


def run_until_interrupted(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, which Ctrl+C and SIGTERM call off once; KeyboardInterrupt
    after `main` has let go of what it held.

    SIGTERM is what `timeout`, systemd and cron send a job that runs too long: ended by
    the system's default, the command left a half-written hidden file beside its
    target, one more each night, and said nothing. A second Ctrl+C (or a SIGTERM
    after one) is no more than the first: `asyncio.run` raised KeyboardInterrupt
    wherever the program was, in the middle of letting go, and a sync's store was
    closed under the thread still dropping its rows (a crash, and the rows and the
    lock left). Where the loop has not run since the first, the program is held up
    outside it (writing to a pipe nobody reads): the next raises KeyboardInterrupt
    there, as before. A shell starting a job in the background has it ignore Ctrl+C;
    its choice stands. Only the main thread can take a signal: elsewhere, `asyncio.run`.
    """
    if threading.current_thread() is not threading.main_thread():
        return asyncio.run(main)
    runner = asyncio.Runner()
    running: list[asyncio.Task[T]] = []
    interrupted = delivered = False

    async def tracked() -> T:
        task = asyncio.current_task()
        assert task is not None
        running.append(cast("asyncio.Task[T]", task))
        return await main

    def cancel() -> None:
        nonlocal delivered
        delivered = True
        running[0].cancel()

    def call_off(_signal: int, _frame: object) -> None:
        nonlocal interrupted
        if not running or (interrupted and not delivered):
            # Nothing begun yet to let go of; or the loop has not run since the first
            # signal: the program waits outside it (a write to a pipe nobody reads).
            raise KeyboardInterrupt
        if not interrupted and not running[0].done():
            interrupted = True
            with contextlib.suppress(RuntimeError):  # the loop closing: the work is done
                runner.get_loop().call_soon_threadsafe(cancel)

    signals = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signals.append(signal.SIGINT)
    previous = {number: signal.signal(number, call_off) for number in signals}
    try:
        with runner:
            try:
                return runner.run(tracked())
            except asyncio.CancelledError:
                if interrupted:
                    raise KeyboardInterrupt from None
                raise
    finally:
        if not running:
            main.close()  # interrupted before it began: not "never awaited"
        for number, handler in previous.items():
            signal.signal(number, handler)


def _file_state(path: Path) -> tuple[int, int, int] | None:
    """What tells a file replaced: its file number, size and time; None for none, or
    for standard output."""
    if str(path) == STANDARD_OUTPUT:
        return None
    try:
        state = path.stat()
    except OSError:
        return None
    return state.st_ino, state.st_size, state.st_mtime_ns


@contextlib.contextmanager
def logging_to(err: TextIO, *, verbose: bool) -> Iterator[None]:
    """Log to `err` as the window logs to stderr: secrets taken out, httpcore quiet.

    The levels and the handler are put back afterwards, for a caller in the same process.
    """
    handler = logging.StreamHandler(err)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RedactingFilter())
    levels = {
        # httpx names every request, which -v is for; httpcore's trace (headers
        # included) is never needed, as in the window's log.
        None: logging.DEBUG if verbose else logging.WARNING,
        "httpx": logging.DEBUG if verbose else logging.WARNING,
        "httpcore": logging.WARNING,
    }
    loggers = {name: logging.getLogger(name) for name in levels}
    previous = {name: logger.level for name, logger in loggers.items()}
    for name, logger in loggers.items():
        logger.setLevel(levels[name])
    root = loggers[None]
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        for name, logger in loggers.items():
            logger.setLevel(previous[name])


async def _export(args: argparse.Namespace, err: TextIO, out: BinaryIO) -> int:
    started = time.monotonic()
    try:
        target = output(args, standard_output=out)
    except UsageError as exc:
        print(f"error: {exc}", file=err)
        return ExitCode.USAGE
    if not target.to_standard_output and (refused := await can_write(target.path)):
        print(f"Cannot write {target.described()}: {refused}", file=err)
        return ExitCode.WRITE
    account = await signed_in(args, err)
    if isinstance(account, ExitCode):
        return account
    async with account.client as client:
        try:
            count = await _written(client, args, target, err, out, account)
        except CardViewerError as exc:
            if isinstance(exc, NotAuthenticated):
                code = report_session_ended(exc, err, account, "export")
            else:
                code = report_failure(exc, err)
            print(f"Nothing was written to {target.described()}.", file=err)  # after why
            return code
        except OSError as exc:
            log.debug("writing %s failed: %r", target.described(), exc)
            print(f"Cannot write {target.described()}: {explain_write_failure(exc)}", file=err)
            return ExitCode.WRITE
    if not args.quiet:
        print(summary(count, args.space, target, time.monotonic() - started), file=err)
    if getattr(args, "skipped", 0):  # also with --quiet: the file lacks them
        print(left_out(args.skipped), file=err)
    return ExitCode.OK


async def can_write(path: Path) -> str | None:
    """Why `path` cannot be written, said before any page is fetched; None if it can."""
    refused = await asyncio.to_thread(unwritable, path)
    if refused is None:
        return None
    log.debug("%s cannot be written: %r", path, refused)
    return explain_write_failure(refused)


def summary(count: int, space: str, target: Output, seconds: float) -> str:
    """ "Exported 237 cards of space … to cards.csv in 0.6 s": what a job's log keeps."""
    cards = "1 card" if count == 1 else f"{count:,} cards"
    return f"Exported {cards} of space {space} to {target.described()} in {seconds:.1f} s"


def left_out(skipped: int) -> str:
    """What the pages of a whole space left out: entries that are not cards."""
    if skipped == 1:
        return "1 entry the server sent was not a card and was left out."
    return f"{skipped:,} entries the server sent were not cards and were left out."


async def _written(
    client: CardsClient,
    args: argparse.Namespace,
    target: Output,
    err: TextIO,
    out: BinaryIO,
    again: SignInAgain,
) -> int:
    """`_fetch_and_write` to the file named, or to standard output once complete.

    For standard output the export goes into a private temporary folder first: a
    failed fetch then writes nothing at all, as with a file.
    """
    if not target.to_standard_output:
        return await _fetch_and_write(client, args, target, err, again)
    with tempfile.TemporaryDirectory(prefix="cardviewer-") as folder:
        suffix = f".{target.file_format}"
        staged = replace(target, path=Path(folder) / f"export{suffix}")
        count = await _fetch_and_write(client, args, staged, err, again)
        with staged.path.open("rb") as file:
            shutil.copyfileobj(file, out)
        out.flush()
    return count


class SignInAgain:
    """Signs the export in once more when the server ends its session (401) midway.

    A scheduled export holds the password (`CARDVIEWER_PASSWORD`), or a person at the
    terminal can type it; either way a token revoked or expired during a long export
    costs one sign-in, not the export. Several pages failing at once sign in once;
    at most `MAX_TIMES` per export, so a server that ends every session cannot loop.
    """

    MAX_TIMES = 3

    def __init__(self, client: CardsClient, email: str | None, password: str | None) -> None:
        self.client = client
        self.email = email
        """The account signed in with: the saved session's, or the one given."""
        self._password = password
        self._lock = asyncio.Lock()
        self.times = 0

    async def sign_in(self, err: TextIO, ended: str | None) -> bool:
        """Sign in again unless someone did since `ended` (the token that was refused).

        False when there is no password to sign in with, or no sign-in is left.
        """
        async with self._lock:
            if self.client.token != ended:
                return True  # another page's failure signed in meanwhile
            if self.email is None or self.times >= self.MAX_TIMES:
                return False
            if self._password is None:
                if not sys.stdin.isatty():
                    return False
                try:
                    self._password = typed_password(
                        f"The server ended the session. Password for {self.email}: ", err
                    )
                except SessionEnded:
                    return False  # its input ended: as with no terminal

            self.times += 1
            log.info("the server ended the session; signing in again (%d)", self.times)
            session = await self.client.login(self.email, self._password)
            remember_secret(session.access_token)
            return True


async def signed_in(args: argparse.Namespace, err: TextIO) -> SignInAgain | ExitCode:
    """`signed_in_client`, or the exit code of why it could not sign in (said on `err`)."""
    try:
        return await signed_in_client(args, err)
    except UsageError as exc:
        print(f"error: {exc}", file=err)
        return ExitCode.USAGE
    except SessionEnded as exc:
        print(f"error: {exc}", file=err)
        return ExitCode.SIGN_IN
    except CardViewerError as exc:
        return report_failure(exc, err)


def report_session_ended(
    exc: NotAuthenticated, err: TextIO, account: SignInAgain, command: str
) -> int:
    """`report_failure` for a session the server ended midway, and how to let `command`
    sign in again by itself next time when it had no password to. Where it signed in
    again as often as it may and the server ended each new session too, that is said:
    "Please sign in again" is no advice to a job that did."""
    if account.times >= account.MAX_TIMES:
        log.debug("%s", exc.detail)
        print(
            f"The server ended the session again each time the {command} signed in again "
            f"({account.times} times). Ask the platform's administrator why.",
            file=err,
        )
        return ExitCode.SIGN_IN
    code = report_failure(exc, err)
    if account.times == 0:
        print(
            f"To let the {command} sign in again by itself, set {PASSWORD_VARIABLE} "
            "(or run it at a terminal to be asked for the password).",
            file=err,
        )
    return code


async def signed_in_client(args: argparse.Namespace, err: TextIO) -> SignInAgain:
    """A client signed in as `args` say (`--server`, `--email`), with the password from
    the environment or the terminal, else the session the app saved."""
    if args.server:
        # Checked first: an address with a password in it is neither used nor repeated.
        normalize_server_url(args.server)
    password = os.environ.get(PASSWORD_VARIABLE)
    remember_secret(password)
    sessions = SessionStore()
    saved = _saved_session(args, sessions)
    server = args.server or (saved.server_url if saved is not None else None) or _site_server()
    if not server:
        give = "give --server" if args.email else "give --server and --email"
        raise _missing(sessions, give, "no --server is given, nor a site file")
    email = args.email.strip() if args.email else None  # as the sign-in dialog takes it
    if password is None and saved is not None and (email is None or same_email(email, saved.email)):
        if not saved.is_expired():
            log.debug("using the saved session for %s", saved.email)
            remember_secret(saved.access_token)
            client = CardsClient(saved.server_url, token=saved.access_token)
            return SignInAgain(client, saved.email, None)
        if not sys.stdin.isatty():
            raise SessionEnded(
                f"your saved session for {saved.email} has ended; sign in again "
                f"(set {PASSWORD_VARIABLE}, or run at a terminal to be asked)"
            )
        email = saved.email  # asked for the password of the account that was signed in
    if not email:
        raise _missing(sessions, "give --email", "no --email is given")
    if password is None:
        if not sys.stdin.isatty():
            ask = f"set {PASSWORD_VARIABLE} or run at a terminal to be asked"
            raise _missing(sessions, ask, "no password is given")
        password = typed_password(f"Password for {email}: ", err)
    client = CardsClient(server)
    try:
        session = await client.login(email, password)
    except BaseException:
        await client.aclose()
        raise
    remember_secret(session.access_token)
    return SignInAgain(client, email, password)


PASSWORD_SOURCES = (
    f"The password is read from {PASSWORD_VARIABLE}; else the session saved\n"
    "by the app is used while it lasts, else the password is asked for at the terminal."
)
"""Where a command's password comes from, in that order (`signed_in`), for its help."""


def typed_password(prompt: str, err: TextIO) -> str:
    """The password typed at the terminal after `prompt` (kept from the log).

    Raises `SessionEnded` where the input ends instead (Ctrl+D, a closed pipe): that
    was a traceback, where it is no password, as without a terminal.
    """
    try:
        password = getpass.getpass(prompt, stream=err)
    except EOFError:
        print(file=err)  # the prompt's line ends
        raise SessionEnded(
            f"not signed in: no password was typed (the input ended); set "
            f"{PASSWORD_VARIABLE}, or type it when asked."
        ) from None
    remember_secret(password)
    return password


def _missing(sessions: SessionStore, remedy: str, lacking: str) -> SessionEnded:
    """What is missing to sign in, for a scheduled job that relied on the saved session
    as much as for a person: where it could not be read, or where there is none (Sign
    Out in the window removes it), a sign-in is needed (3: `remedy`), not an argument
    (2). `lacking` says what the saved session would have given."""
    if sessions.damaged:
        return SessionEnded(f"{SESSION_UNREADABLE}: {remedy}")
    stored = sessions.load()
    if stored is not None:  # another account's, or another server's
        host = urlsplit(stored.server_url).netloc or stored.server_url
        saved = f"the saved session is {stored.email}'s on {host}"
    else:
        saved = "there is no saved session (Sign Out in the app removes it)"
    return SessionEnded(
        f"not signed in: {saved}, and {lacking}. Sign in in the app with Keep me signed "
        f"in, or {remedy}."
    )


def _site_server() -> str | None:
    """The server an administrator preset for this computer (see `site_config`)."""
    return load_site_config().server_url


def _saved_session(args: argparse.Namespace, sessions: SessionStore) -> StoredSession | None:
    """The app's saved session for the server asked for, if any; it may have ended."""
    stored = sessions.load()
    if stored is None:
        return None
    if args.server and not same_server(args.server, stored.server_url):
        return None
    return stored


async def _fetch_and_write(
    client: CardsClient,
    args: argparse.Namespace,
    target: Output,
    err: TextIO,
    again: SignInAgain,
) -> int:
    """Fetch the page asked for, or every page, and write their cards to `target`.

    Nothing is written until every page is in, as in the window's Export All, so a
    failed fetch leaves any earlier file as it was. A page refused because the server
    ended the session is asked for again after signing in again (`SignInAgain`).
    """

    fetch = page_fetch(client, args.space, args.with_emails, again, err, whole_space=args.all)
    if target.file_format == PDF:
        async with _photo_source(target.pictures, client, picture_size=True) as pictures:
            return await _phone_list(fetch, args, target, err, pictures)
    async with _photo_source(target.photos, client) as photos:
        return await _cards_written(fetch, args, target, err, photos)


def page_fetch(
    client: CardsClient,
    space: str,
    with_emails: bool,
    again: SignInAgain,
    err: TextIO,
    *,
    whole_space: bool = False,
) -> Callable[[int], Awaitable[CardPage]]:
    """Fetches a page of `space` by its number; a page refused because the server ended
    the session is asked for again after signing in again (`SignInAgain`). For a
    `whole_space` fetch, which waits out a server away itself, the client leaves the
    server's waits to it (`WAITS_LEFT_TO_CALLER`)."""
    retry = WAITS_LEFT_TO_CALLER if whole_space else None

    async def fetch(number: int) -> CardPage:
        while True:
            token = client.token
            try:
                return await client.list_cards(space, number, with_emails=with_emails, retry=retry)
            except NotAuthenticated:
                if not await again.sign_in(err, token):
                    raise

    return fetch


@contextlib.asynccontextmanager
async def _photo_source(
    wanted: bool, client: CardsClient, *, picture_size: bool = False
) -> AsyncIterator[PhotoSource | None]:
    """Where vCards' photos (`--photos`) or the phone list's pictures (`--pictures`, at
    `picture_size`) come from, as in the window (`vcard_photos`).

    Only then is Qt's image reading loaded; it needs no application or display.
    """
    if not wanted:
        yield None
        return
    from cardviewer.services.vcard_photo import photo_jpeg

    if picture_size:
        from cardviewer.services.phone_list import picture_jpeg as thumbnail
    else:
        thumbnail = photo_jpeg
    source = PhotoSource(
        thumbnail,
        disk_cache=AvatarDiskCache(cache_dir() / AVATAR_FOLDER),  # the window's avatars
        # Pictures from loopback or a private network only when the server is there too.
        allow_private_hosts=await is_private_server(client.server_url),
    )
    try:
        yield source
    finally:
        await source.aclose()


async def _cards_written(
    fetch: Callable[[int], Awaitable[CardPage]],
    args: argparse.Namespace,
    target: Output,
    err: TextIO,
    photos: PhotoSource | None,
) -> int:
    """The page asked for, or every page, written to `target` (not the phone list)."""
    if args.all:
        show = err.isatty() and not args.quiet

        def progress(done: FetchProgress) -> None:
            args.skipped = done.skipped  # said after the summary
            if show:
                print(f"\r{progress_line(done)}\033[K", end="", file=err, flush=True)

        def writing(count: int) -> None:
            if show:
                print(file=err)

        encode = target.encoder(photos)
        if encode is not None:
            count = await export_space_stream(
                fetch, target.path, encode, concurrency=args.concurrency, on_progress=progress
            )
            writing(count)
            return count
        return await export_space(
            fetch,
            target.path,
            with_emails=args.with_emails,
            title=args.space,
            delimiter=target.delimiter,
            concurrency=args.concurrency,
            on_progress=progress,
            on_writing=writing,
            export_format=target.table,
        )
    page = await fetch(args.page)
    encode = target.encoder(photos)
    if encode is not None:
        encoded = encode(page)
        cards = await encoded if isinstance(encoded, Awaitable) else encoded
        return await asyncio.to_thread(write_stream, target.path, cards)
    return await write_cards(
        target.path,
        list(page.cards),
        with_emails=args.with_emails,
        title=args.space,
        delimiter=target.delimiter,
        export_format=target.table,
    )


async def _phone_list(
    fetch: Callable[[int], Awaitable[CardPage]],
    args: argparse.Namespace,
    target: Output,
    err: TextIO,
    pictures: PhotoSource | None = None,
) -> int:
    """The page asked for, or every page, as a phone list to print (PDF), with the
    pictures `pictures` finds.

    Only this format loads Qt, whose text layout draws every script's names.
    """
    from cardviewer.services import phone_list

    phone_list.ensure_application()
    today = datetime.date.today()
    texts = phone_list.PhoneListTexts(
        title="Phone list of %1",
        date=f"{today.day} {today:%B %Y}",
        page="Page %1",
        more_emails="+%1 more",
        no_name="(no name)",
    )
    loop = asyncio.get_running_loop()
    lookup = blocking_lookup(pictures, loop) if pictures is not None else None
    if args.all:
        show = err.isatty() and not args.quiet

        def progress(done: FetchProgress) -> None:
            args.skipped = done.skipped  # said after the summary
            if show:
                print(f"\r{progress_line(done)}\033[K", end="", file=err, flush=True)

        count = await phone_list.export_space_phone_list(
            fetch,
            target.path,
            texts,
            args.space,
            concurrency=args.concurrency,
            on_progress=progress,
            qr_codes=args.qr_codes,
            pictures=lookup,
        )
        if show:
            print(file=err)
        return count
    page = await fetch(args.page)
    named, cards = phone_list.titled(texts, page.cards, args.space)
    write = partial(phone_list.write_phone_list_pdf, qr_codes=args.qr_codes, pictures=lookup)
    return await asyncio.to_thread(write, target.path, cards, named)


def progress_line(done: FetchProgress) -> str:
    """ "Page 12 of 100, 120 cards, 45 cards/s, about 20 s left" while an export runs;
    while a page waits to be tried again or the server keeps silent, that instead of the
    pace."""
    ahead = _waiting_words(done)
    if ahead is not None:
        if not done.pages_total:  # the first page
            return f"Fetching the first page, {ahead}"
        return f"Page {done.pages_done:,} of {done.pages_total:,}, {done.cards:,} cards, {ahead}"
    line = f"Page {done.pages_done:,} of {done.pages_total:,}, {done.cards:,} cards"
    if done.elapsed > 0:
        line += f", {done.cards / done.elapsed:,.0f} cards/s"
    left = done.seconds_left
    if left is not None and left > 0:
        line += f", about {_duration(left)} left"
    return line


def _waiting_words(done: FetchProgress) -> str | None:
    """What the fetch waits for, if it waits on the server; None: pages come."""
    if done.retrying_in is not None:
        seconds = math.ceil(done.retrying_in)
        ahead = "the server asked to wait" if done.asked_to_wait else "the server is not responding"
        return ahead + (f"; trying again in {seconds} s" if seconds else "; trying again")
    if done.unanswered_for is not None:
        seconds = math.floor(done.unanswered_for)
        return f"the server has not answered for {seconds} s, still waiting"
    return None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def report_failure(exc: CardViewerError, err: TextIO) -> ExitCode:
    """Say on `err` why the command failed, without secrets; its `ExitCode`."""
    # The message may be the server's own words, which could repeat a secret.
    message = redact(str(exc))
    if isinstance(exc, InvalidCredentials) and not isinstance(exc.message, Sentence):
        # The platform's words ("Access data do not match!") say less than ours.
        message = f"{REFUSED} (The server said: {message})"
    wait = wait_to_tell(exc)
    if wait is not None:
        message += " " + WAIT_SENTENCES[wait.unit].format(count=wait.amount)
    print(message, file=err)
    if exc.detail:
        log.debug("%s", exc.detail)
    return next((code for kinds, code in _EXIT_CODES if isinstance(exc, kinds)), ExitCode.SERVER)
